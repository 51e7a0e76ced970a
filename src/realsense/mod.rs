//! The RealSense recording layout, shared by recording and playback: the
//! topic names librealsense uses, the conversions between its values and
//! ROS messages, and the metadata keys it writes beside the numeric
//! metadata. What a `.bag` of librealsense holds, in one place.
//!
//! How the messages are encoded follows from the storage format
//! ([`crate::storage::Encoding`]). A `.bag` holds ROS1 serialization with
//! RealSense and diagnostic message types (`realsense_msgs/StreamInfo`,
//! `diagnostic_msgs/KeyValue`, ...); a `.db3` of librealsense 2.58+ holds
//! CDR, standard ROS 2 types only, the RealSense description and metadata
//! as `key=value` strings (`strings`), images compressed losslessly
//! (`images`). Each is decoded by a codec of its own.

pub(crate) mod codec;
pub mod convert;
pub(crate) mod description;
pub(crate) mod frames;
pub(crate) mod images;
pub(crate) mod strings;
pub mod topics;

/// The RealSense file version librealsense 2.55 writes in `/file_version`
/// (the reader accepts 2, 3 and 4).
pub const FILE_VERSION: u32 = 4;

/// Metadata keys librealsense writes beside the numeric metadata.
pub mod metadata_keys {
    /// Host arrival time, ms.
    pub const SYSTEM_TIME: &str = "system_time";
    /// Timestamp domain name.
    pub const TIMESTAMP_DOMAIN: &str = "timestamp_domain";
    /// Pose tracker confidence.
    pub const TRACKER_CONFIDENCE: &str = "Tracker Confidence";
    /// Pose mapper confidence.
    pub const MAPPER_CONFIDENCE: &str = "Mapper Confidence";
    /// Pose frame timestamp, ms.
    pub const FRAME_TIMESTAMP: &str = "frame_timestamp";
    /// Frame number (pose frames of a `.bag`, every frame of a `.db3`).
    pub const FRAME_NUMBER: &str = "Frame number";
    /// Frame timestamp, ms (`.db3` frames).
    pub const TIMESTAMP: &str = "timestamp";
    /// The depth units of a depth frame (`.db3` frames), m.
    pub const DEPTH_UNITS: &str = "depth_units";
}
