//! # rsbag
//!
//! Record, read and play back RealSense depth-camera sessions: librealsense's
//! ROS1 bag files (`#ROSBAG V2.0`, the `.bag` it wrote up to 2.57), its
//! rosbag2 `.db3` files (from 2.58 on), MCAP, and camera bags recorded
//! from ROS through the RealSense ROS wrapper.
//!
//! Read every frame of a recording, exactly once, in recorded order:
//!
//! ```no_run
//! use rsbag::recording::FrameReader;
//!
//! # fn main() -> rsbag::Result<()> {
//! let reader = FrameReader::open("session.bag")?;
//! for frame in reader.frames()? {
//!     let frame = frame?;
//!     println!("{} #{} at {:?}", frame.stream, frame.frame.number, frame.time);
//! }
//! # Ok(()) }
//! ```
//!
//! Play it back as the device that recorded it ([`playback::Playback`]),
//! record a device ([`record::Recorder`]), or convert a recording
//! ([`record::copy_recording`]). The guide (`docs/src`) tells the rest.
//!
//! ## Layers
//!
//! The data's path, lowest layer first; each layer uses only the ones
//! below it (`tests/layers.rs` checks this from the code):
//!
//! 1. `error`, [`time`], [`parallel`]: the one error type, the units of
//!    time a recording deals in, kept apart by type, and work spread over
//!    the cores.
//! 2. [`storage`]: where a recording's messages are kept, and the seam
//!    over every format: one recording's topics and messages in time
//!    order, whichever file holds them ([`storage::Storage`]), and which
//!    format a file is ([`storage::FileFormat`], by its first bytes):
//!    [`storage::bag`] (ROS bag v2.0) and [`storage::rosbag2`] (`.db3` and
//!    MCAP files and bag directories), read and written, local or remote.
//!    It knows nothing of messages or of RealSense.
//! 3. [`msg`]: the ROS message types librealsense and the ROS wrapper
//!    write, with their exact definitions, in ROS1 serialization and CDR;
//!    [`device`]: the device model shared by live cameras, the recorder
//!    and playback: sensors, options, stream profiles, frames.
//! 4. [`realsense`]: the RealSense recording layout: topic names, the
//!    conversions between its values and messages, and a codec per
//!    message encoding (ROS1, CDR).
//! 5. [`ros_camera`]: the RealSense ROS wrapper's layout, for writing a
//!    recording as standard ROS 2 messages and reading camera bags
//!    recorded from ROS, with image_transport's compressed images.
//! 6. [`processing`]: what is made of frames: images, colourised depth,
//!    depth in metres, alignment, point clouds, librealsense's filters,
//!    video timing, united IMU samples.
//! 7. [`recording`]: a recording read offline: its frames, framesets,
//!    sessions of several cameras, summary, check and calibration.
//! 8. [`playback`]: a recording replayed as the device that recorded it;
//!    [`record`]: the recorder and the writers of each file kind.

#![deny(missing_docs, missing_debug_implementations)]
// No unwrap on what comes from a file or a user (tests may).
#![cfg_attr(not(test), deny(clippy::unwrap_used))]

pub mod device;
mod error;
pub mod msg;
pub mod parallel;
pub mod playback;
pub mod processing;
pub mod realsense;
pub mod record;
pub mod recording;
pub mod ros_camera;
mod slots;
pub mod storage;
pub mod time;

pub use error::{Error, ErrorKind, Result};
pub use time::BagTime;

/// The Rust examples of the README and of the guide (`docs/src`), run as
/// doc tests so that what users read compiles and works.
#[cfg(doctest)]
mod guide {
    #[doc = include_str!("../README.md")]
    struct Readme;
    #[doc = include_str!("../docs/src/reading-rust.md")]
    struct ReadingRust;
    #[doc = include_str!("../docs/src/processing.md")]
    struct Processing;
    #[doc = include_str!("../docs/src/sessions.md")]
    struct Sessions;
}

/// The decoders the fuzz targets (`fuzz/`) call directly, below what a
/// recording's reader exposes. Not an API: built only with the `fuzzing`
/// feature.
#[cfg(feature = "fuzzing")]
#[doc(hidden)]
pub mod fuzzing {
    pub use crate::realsense::images::decompress as decompress_image;
    pub use crate::realsense::strings::{
        fields, parse_extrinsics, parse_intrinsics, parse_motion_intrinsics, parse_notification,
        parse_pose,
    };
}
