//! What is made of a frame's bytes: images to view or save, colourised
//! depth, depth in meters, 3D points, video timing and united IMU samples. Pure functions over [`crate::device::Frame`]s, no
//! I/O; the `rsbag convert` command writes their results as files.
//!
//! ```
//! use rsbag::playback::FrameReader;
//! use rsbag::processing::{image, PixelLayout};
//! # fn main() -> rsbag::Result<()> {
//! let reader = FrameReader::open("sample_bags/librealsense-depth-color-lz4.bag")?;
//! let first = reader.frames()?.next().expect("a frame")?;
//! let picture = image(&first.frame)?;
//! assert!(matches!(picture.layout, PixelLayout::Gray16 | PixelLayout::Rgb8));
//! # Ok(()) }
//! ```

mod depth;
mod image;
mod imu;
mod points;
mod video;

pub use depth::{depth_meters, depth_raw, DepthMap};
pub use image::{colorize, image, image_supported, rows, Image, PixelLayout};
pub use imu::{combined_motion, Dropped, ImuRow, ImuUniter};
pub use points::points;
pub use video::{picture, VideoTiming, LONGEST_FILLED_GAP_MS};
