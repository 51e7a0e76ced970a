//! A codec per message encoding: what the RealSense layout and the ROS
//! camera layout decode from a message, written once for ROS1
//! serialization ([`Ros1`], a `.bag`) and once for CDR ([`Cdr`], a
//! `.db3` or MCAP file), so that the readers above ask the recording's
//! [`Codec`] instead of matching on its [`Encoding`].

mod cdr;
mod ros1;

use bytes::Bytes;

use super::description::Description;
use super::topics::Topic;
use crate::device::{Frame, Notification, StreamProfile};
use crate::msg::ros2::{CompressedImage, Odometry, TransformStamped};
use crate::storage::Encoding;
use crate::Result;

pub(crate) use cdr::Cdr;
pub(crate) use ros1::Ros1;

/// The messages of one frame of a RealSense recording, as they were
/// recorded at one time.
#[derive(Debug, Clone, Copy)]
pub(crate) struct FrameMessages<'m> {
    /// The stream's profile.
    pub profile: StreamProfile,
    /// The frame's data message.
    pub data: &'m Bytes,
    /// Whether it is on the stream's compressed-image topic (CDR).
    pub compressed: bool,
    /// The stream's metadata messages at that time, in order.
    pub metadata: &'m [&'m [u8]],
    /// A pose frame's acceleration and twist messages (ROS1).
    pub accel: Option<&'m [u8]>,
    /// See `accel`.
    pub twist: Option<&'m [u8]>,
}

/// The fields of a `sensor_msgs/Image`, whatever its encoding.
#[derive(Debug)]
pub(crate) struct ImageFields<'a> {
    pub width: u32,
    pub height: u32,
    pub encoding: String,
    pub is_bigendian: bool,
    pub step: u32,
    pub data: &'a [u8],
    pub frame_id: String,
    pub stamp_ns: u64,
}

/// The fields of a `sensor_msgs/CameraInfo` that make intrinsics.
#[derive(Debug)]
pub(crate) struct CameraInfoFields {
    /// The distortion model's name.
    pub model: String,
    /// The distortion coefficients.
    pub d: Vec<f64>,
    /// The camera matrix, row-major.
    pub k: [f64; 9],
}

/// The fields of a `sensor_msgs/Imu`.
#[derive(Debug)]
pub(crate) struct ImuFields {
    /// Orientation quaternion `x, y, z, w`.
    pub orientation: [f64; 4],
    /// rad/s.
    pub angular_velocity: [f64; 3],
    /// m/s².
    pub linear_acceleration: [f64; 3],
    /// The header's stamp, ns.
    pub stamp_ns: u64,
}

/// What is decoded from a recording's messages, in one encoding.
pub(crate) trait Codec: Send + Sync {
    /// What a file of the encoding is called in messages (`bag`, `.db3`).
    fn file_kind(&self) -> &'static str;
    /// A `std_msgs/UInt32`'s value (the `/file_version` message).
    fn uint32(&self, data: &[u8]) -> Result<u32>;
    /// Take one description message (`data` on `topic` at bag `time`)
    /// into `description`; other messages are ignored.
    fn add_description(
        &self,
        description: &mut Description,
        topic: Topic,
        time: u64,
        data: &[u8],
    ) -> Result<()>;
    /// A notification from its message.
    fn notification(&self, data: &[u8]) -> Result<Notification>;
    /// An option's new value from its message.
    fn option_value(&self, data: &[u8]) -> Result<f32>;
    /// A RealSense frame from its messages.
    fn frame(&self, messages: &FrameMessages<'_>) -> Result<Frame>;
    /// Whether a camera bag's streams may carry the metadata message rsbag's
    /// `convert --to ros2` writes (the ROS1 wrapper's has another layout).
    fn has_camera_metadata(&self) -> bool;
    /// A `sensor_msgs/Image`.
    fn image<'d>(&self, data: &'d [u8]) -> Result<ImageFields<'d>>;
    /// A `sensor_msgs/CompressedImage`.
    fn compressed_image<'d>(&self, data: &'d [u8]) -> Result<CompressedImage<'d>>;
    /// A `sensor_msgs/CameraInfo`.
    fn camera_info(&self, data: &[u8]) -> Result<CameraInfoFields>;
    /// A `tf2_msgs/TFMessage`.
    fn tf_message<'d>(&self, data: &'d [u8]) -> Result<Vec<TransformStamped<'d>>>;
    /// A `nav_msgs/Odometry`.
    fn odometry<'d>(&self, data: &'d [u8]) -> Result<Odometry<'d>>;
    /// A `sensor_msgs/Imu`.
    fn imu(&self, data: &[u8]) -> Result<ImuFields>;
}

impl Encoding {
    /// The codec of the encoding.
    pub(crate) fn codec(self) -> &'static dyn Codec {
        match self {
            Encoding::Ros1 => &Ros1,
            Encoding::Cdr => &Cdr,
        }
    }
}

/// A header stamp, ns (a negative second count is 0).
pub(crate) fn stamp_ns(sec: i32, nanosec: u32) -> u64 {
    u64::try_from(sec).unwrap_or(0) * 1_000_000_000 + u64::from(nanosec)
}
