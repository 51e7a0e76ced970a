//! # rsbag
//!
//! Record and play back RealSense depth-camera sessions as ROS1 bag files
//! (`#ROSBAG V2.0`), the format librealsense wrote up to 2.56.
//!
//! The crate is layered; each layer only uses the ones below it:
//!
//! - [`bag`]: ROS bag v2.0 records: a streaming [`bag::BagWriter`] and a
//!   memory-mapped [`bag::Bag`] reader with index queries and a scan mode
//!   that recovers bags whose index is missing. It knows nothing of RealSense.
//! - [`msg`]: the ROS message types librealsense writes, with their exact
//!   definitions and md5sums, encoded and decoded without copying pixel data.

#![deny(missing_docs, missing_debug_implementations)]
// No unwrap on what comes from a file or a user (tests may).
#![cfg_attr(not(test), deny(clippy::unwrap_used))]

pub mod bag;
pub mod device;
mod error;
pub mod msg;
mod parallel;
pub mod playback;
pub mod processing;
pub mod realsense;
pub mod record;
pub mod ros_camera;
pub mod rosbag2;
pub mod storage;
pub mod time;

pub use error::{Error, ErrorKind, Result};
pub use time::BagTime;
