//! What is made of a frame's bytes: images to view or save, colourised
//! depth (a quick jet map, and librealsense's colorizer exactly), depth
//! in metres, depth aligned to another stream (and back), point clouds
//! with texture coordinates (computed as librealsense computes them),
//! librealsense's depth filters, video timing and united IMU samples.
//! Pure functions over
//! [`crate::device::Frame`]s, no I/O; the `rsbag convert` command and the
//! Python package expose them.
//!
//! ```
//! use rsbag::recording::FrameReader;
//! use rsbag::processing::{image, PixelLayout};
//! # fn main() -> rsbag::Result<()> {
//! let reader = FrameReader::open("sample_bags/librealsense-depth-color-lz4.bag")?;
//! let first = reader.frames()?.next().expect("a frame")?;
//! let picture = image(&first.frame)?;
//! assert!(matches!(picture.layout, PixelLayout::Gray16 | PixelLayout::Rgb8));
//! # Ok(()) }
//! ```

mod align;
mod colorizer;
mod depth;
pub mod filters;
mod geometry;
mod image;
mod imu;
mod pointcloud;
mod video;

pub use align::Alignment;
pub use colorizer::{ColorScheme, Colorizer, ProcessingOption, COLORIZER_OPTIONS};
pub use depth::{depth_meters, depth_raw, DepthMap};
pub use geometry::{deproject, project, transform, DepthRays};
pub use image::{colorize, image, image_supported, rows, Image, PixelLayout};
pub use imu::{combined_motion, Dropped, ImuRow, ImuUniter};
pub(crate) use pointcloud::pixel_color;
pub use pointcloud::{is_kept_vertex, texture_color, PointCloud, PointCloudMaker};
pub use video::{picture, VideoTiming, LONGEST_FILLED_GAP_MS};
