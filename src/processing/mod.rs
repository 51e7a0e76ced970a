//! What is made of a frame's bytes: images to view or save, colourised
//! depth, depth aligned to another stream (and back), and point clouds
//! with texture coordinates, computed as librealsense computes them.
//! Pure functions over [`crate::device::Frame`]s, no I/O; the `rsbag
//! convert` command and the Python package expose them.
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

mod align;
mod geometry;
mod image;
mod pointcloud;
mod streams;

pub use align::Alignment;
pub use geometry::{deproject, project, transform, DepthRays};
pub use image::{colorize, depth_values, image, image_supported, rows, Image, PixelLayout};
pub use pointcloud::{is_kept_vertex, texture_color, PointCloud, PointCloudMaker};
pub use streams::depth_units;
