//! # rsbag
//!
//! Record and play back RealSense depth-camera sessions as ROS1 bag files
//! (`#ROSBAG V2.0`, the format librealsense wrote up to 2.56) and rosbag2
//! files (`.db3`, which librealsense writes from 2.58 on, and MCAP).
//!
//! The crate is layered; each layer only uses the ones below it:
//!
//! - [`storage`]: where a recording's messages are kept, and the seam
//!   over every format: one recording's topics and messages in time
//!   order, whichever file holds them ([`storage::Storage`]), and which
//!   format a file is ([`storage::FileFormat`], by its first bytes).
//!   - [`storage::bag`] (also [`bag`]): ROS bag v2.0 records: a streaming
//!     [`bag::BagWriter`] and a memory-mapped [`bag::Bag`] reader with
//!     index queries and a scan mode that recovers bags whose index is
//!     missing.
//!   - [`storage::rosbag2`] (also [`rosbag2`]): rosbag2 storage: `.db3`
//!     (SQLite) and MCAP files and bag directories, read and written.
//!
//!   It knows nothing of RealSense.
//! - [`msg`]: the ROS message types librealsense and the ROS wrapper write,
//!   with their exact definitions and md5sums, in ROS1 serialization and
//!   CDR, encoded and decoded without copying pixel data.
//! - [`time`]: the units of time a recording deals in, kept apart by type.
//! - [`device`]: the device model shared by live cameras, the recorder and
//!   playback: sensors, options, stream profiles, frames.
//! - [`realsense`]: the RealSense recording layout: topic names, the
//!   conversions between its values and messages, the metadata keys, and
//!   a codec per message encoding (ROS1, CDR) that the readers above
//!   decode through.
//! - [`ros_camera`]: the RealSense ROS wrapper's layout, for writing a
//!   recording as standard ROS 2 messages and reading camera bags recorded
//!   from ROS.
//! - [`record`]: the recorder and the writers of each file kind.
//! - [`playback`]: a recording read back as the device that recorded it,
//!   its frames, framesets, summary and check.
//! - [`processing`]: what is made of frames: images, colourised depth,
//!   depth in metres, alignment, point clouds, video timing, united IMU
//!   samples.

#![deny(missing_docs, missing_debug_implementations)]
// No unwrap on what comes from a file or a user (tests may).
#![cfg_attr(not(test), deny(clippy::unwrap_used))]

pub mod device;
mod error;
pub mod msg;
mod parallel;
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
