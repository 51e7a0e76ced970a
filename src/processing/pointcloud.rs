//! Point clouds as librealsense's `rs2::pointcloud` makes them: a vertex
//! per depth pixel, texture coordinates in another stream's image
//! (`map_to`), and the colour `export_to_ply` gives each vertex.
//!
//! As [`super::align`], this reproduces the SSE implementation x86-64
//! builds of librealsense run (see [`super::geometry`]), including its
//! occlusion filter (on by default there): a vertex hidden from the other
//! camera by a nearer one, found by scanning each row for texture
//! coordinates that go backwards, is set to (0, 0, 0), as is the vertex
//! after it. librealsense scans columns instead when the cameras are
//! stacked vertically (L500); rsbag does not filter that case.

use super::geometry::{distort_texture, transform_sse, truncate_c, DepthRays};
use super::image::{depth_values, Image, PixelLayout};
use crate::device::{Distortion, Extrinsics, Frame, Intrinsics};
use crate::{Error, Result};

/// The vertices of a depth image, and where each is seen in another image.
#[derive(Debug, Clone, PartialEq)]
pub struct PointCloud {
    /// One per depth pixel, row-major, in metres in the depth camera's
    /// coordinates; (0, 0, 0) where there is no depth (or it is occluded
    /// in the other image).
    pub vertices: Vec<[f32; 3]>,
    /// Per vertex, its pixel in the other image divided by that image's
    /// width and height (`rs2::points::get_texture_coordinates`); empty
    /// unless the cloud was mapped to another image.
    pub texture_coordinates: Vec<[f32; 2]>,
}

/// Makes point clouds of one depth stream, mapped to another stream's
/// image when given: made once, used for every frame.
///
/// ```
/// use rsbag::device::{Distortion, Intrinsics};
/// use rsbag::processing::PointCloudMaker;
/// let depth = Intrinsics { width: 2, height: 1, ppx: 1.0, ppy: 0.0, fx: 2.0, fy: 2.0,
///     model: Distortion::None, coeffs: [0.0; 5] };
/// let cloud = PointCloudMaker::new(&depth, 0.001).calculate_values(&[2000, 0])?;
/// assert_eq!(cloud.vertices, [[-1.0, 0.0, 2.0], [0.0, 0.0, 0.0]]);
/// # Ok::<(), rsbag::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct PointCloudMaker {
    depth: Intrinsics,
    depth_units: f32,
    rays: DepthRays,
    texture: Option<TextureMap>,
}

/// The other image of a mapped point cloud.
#[derive(Debug, Clone)]
struct TextureMap {
    intrinsics: Intrinsics,
    depth_to_other: Extrinsics,
}

impl PointCloudMaker {
    /// Point clouds of depth images with `depth` intrinsics and raw values
    /// in `depth_units` metres.
    pub fn new(depth: &Intrinsics, depth_units: f32) -> PointCloudMaker {
        PointCloudMaker {
            depth: *depth,
            depth_units,
            rays: DepthRays::new(depth, 0.0),
            texture: None,
        }
    }

    /// Also map each vertex into images with `other` intrinsics, that
    /// camera being `depth_to_other` from the depth camera (`map_to`).
    pub fn map_to(mut self, other: &Intrinsics, depth_to_other: &Extrinsics) -> PointCloudMaker {
        self.texture = Some(TextureMap {
            intrinsics: *other,
            depth_to_other: *depth_to_other,
        });
        self
    }

    /// The point cloud of a Z16 depth frame.
    pub fn calculate(&self, depth: &Frame) -> Result<PointCloud> {
        self.calculate_values(&depth_values(depth)?)
    }

    /// The point cloud of depth values (row-major, the depth image's size).
    pub fn calculate_values(&self, depth: &[u16]) -> Result<PointCloud> {
        if depth.len() != self.rays.len() {
            return Err(Error::InvalidArgument(format!(
                "a depth image of {}x{} has {} pixels, not {}",
                self.depth.width,
                self.depth.height,
                self.rays.len(),
                depth.len()
            )));
        }
        let mut vertices: Vec<[f32; 3]> = depth
            .iter()
            .enumerate()
            .map(|(i, &d)| self.rays.point(i, f32::from(d) * self.depth_units))
            .collect();
        let Some(texture) = &self.texture else {
            return Ok(PointCloud {
                vertices,
                texture_coordinates: Vec::new(),
            });
        };
        let pixels: Vec<[f32; 2]> = vertices.iter().map(|v| texture.pixel(*v)).collect();
        let (width, height) = (
            texture.intrinsics.width as f32,
            texture.intrinsics.height as f32,
        );
        let texture_coordinates = pixels
            .iter()
            .map(|p| [p[0] / width, p[1] / height])
            .collect();
        if texture.occlusion_scan_applies() {
            hide_occluded(&mut vertices, &pixels, self.rays.width());
        }
        Ok(PointCloud {
            vertices,
            texture_coordinates,
        })
    }
}

impl TextureMap {
    /// The pixel of the other image where `vertex` is seen ((0, 0) for
    /// the vertex of no depth).
    fn pixel(&self, vertex: [f32; 3]) -> [f32; 2] {
        if vertex[2] == 0.0 {
            return [0.0, 0.0];
        }
        let i = &self.intrinsics;
        let [x, y, z] = transform_sse(&self.depth_to_other, vertex);
        let mut normalized = [x / z, y / z];
        if i.model != Distortion::None {
            normalized = distort_texture(i.model, &i.coeffs, normalized);
        }
        [normalized[0] * i.fx + i.ppx, normalized[1] * i.fy + i.ppy]
    }

    /// Whether librealsense's horizontal occlusion scan runs: not between
    /// a camera and itself (identity extrinsics), and not for cameras
    /// stacked vertically (its vertical scan, not reproduced).
    fn occlusion_scan_applies(&self) -> bool {
        let t = self.depth_to_other.translation;
        let same_camera = self.depth_to_other == Extrinsics::IDENTITY;
        let stacked_vertically = t[0] < 0.001 && t[1] > 0.01;
        !same_camera && !stacked_vertically
    }
}

/// librealsense's monotonic occlusion scan: along each row, a vertex whose
/// pixel in the other image lies left of one already passed (or on it and
/// more than 10 cm further) is hidden, and so is the next vertex that is
/// not.
fn hide_occluded(vertices: &mut [[f32; 3]], pixels: &[[f32; 2]], width: usize) {
    const FARTHER: f32 = 0.1;
    if width == 0 {
        return;
    }
    for (row, row_pixels) in vertices.chunks_mut(width).zip(pixels.chunks(width)) {
        let mut rightmost = -1.0f32;
        let mut rightmost_z = 0.0f32;
        let mut hide_next = false;
        for (vertex, pixel) in row.iter_mut().zip(row_pixels) {
            if vertex[2] == 0.0 {
                continue;
            }
            let x = pixel[0];
            if x < rightmost || (x == rightmost && vertex[2] - rightmost_z > FARTHER) {
                *vertex = [0.0; 3];
                hide_next = true;
            } else {
                rightmost = x;
                rightmost_z = vertex[2];
                if hide_next {
                    *vertex = [0.0; 3];
                    hide_next = false;
                }
            }
        }
    }
}

/// The colour `export_to_ply` gives a vertex with texture coordinates
/// `uv` in `image`: the pixel at `uv` scaled and rounded (half up,
/// clamped to the image), in RGB: gray images give gray (16-bit gray
/// its high byte); RGBA drops alpha.
pub fn texture_color(image: &Image, uv: [f32; 2]) -> [u8; 3] {
    let (width, height) = (image.width as i32, image.height as i32);
    if width == 0 || height == 0 {
        return [0; 3];
    }
    let x = truncate_c(uv[0] * width as f32 + 0.5).clamp(0, width - 1) as usize;
    let y = truncate_c(uv[1] * height as f32 + 0.5).clamp(0, height - 1) as usize;
    pixel_color(image, x, y)
}

/// The colour of pixel (`x`, `y`) of `image`, which must be in it: gray
/// images give gray (16-bit gray its high byte); RGBA drops alpha.
pub(crate) fn pixel_color(image: &Image, x: usize, y: usize) -> [u8; 3] {
    let bpp = image.layout.bytes_per_pixel();
    let at = (y * image.width as usize + x) * bpp;
    let p = &image.data[at..at + bpp];
    match image.layout {
        PixelLayout::Gray8 => [p[0]; 3],
        PixelLayout::Gray16 => [p[1]; 3],
        PixelLayout::Rgb8 | PixelLayout::Rgba8 => [p[0], p[1], p[2]],
    }
}

/// The vertices `export_to_ply` keeps: those with a coordinate of at least
/// a micrometre.
pub fn is_kept_vertex(vertex: &[f32; 3]) -> bool {
    vertex.iter().any(|c| c.abs() >= 1e-6)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn camera(width: u32, height: u32) -> Intrinsics {
        Intrinsics {
            width,
            height,
            ppx: width as f32 / 2.0,
            ppy: height as f32 / 2.0,
            fx: 4.0,
            fy: 4.0,
            model: Distortion::None,
            coeffs: [0.0; 5],
        }
    }

    #[test]
    fn a_vertex_behind_a_nearer_one_in_the_other_view_is_hidden_with_its_neighbour() {
        // The other camera 10 cm to the left: pixel x at z metres lands at
        // x + 0.4 / z in its image, so the 20 cm pixel (x = 2) lands at
        // 4.0, past the 2 m pixel x = 3 (at 3.2), which is hidden, and so
        // is the next one (4.2, not hidden by the scan itself).
        let depth = camera(10, 1);
        let mut left = Extrinsics::IDENTITY;
        left.translation[0] = 0.1;
        let maker = PointCloudMaker::new(&depth, 0.001).map_to(&depth, &left);
        let mut values = [2000u16; 10];
        values[2] = 200;
        let cloud = maker.calculate_values(&values).expect("cloud");
        let kept: Vec<bool> = cloud.vertices.iter().map(is_kept_vertex).collect();
        let mut expected = [true; 10];
        expected[3] = false;
        expected[4] = false;
        assert_eq!(kept, expected);
        assert!((cloud.texture_coordinates[2][0] - 0.4).abs() < 1e-6);
    }

    #[test]
    fn texture_colors_round_half_up_and_clamp() {
        let image = Image {
            width: 2,
            height: 1,
            layout: PixelLayout::Rgb8,
            data: vec![1, 2, 3, 4, 5, 6],
        };
        assert_eq!(texture_color(&image, [0.2, 0.0]), [1, 2, 3]);
        assert_eq!(texture_color(&image, [0.3, 0.0]), [4, 5, 6]);
        assert_eq!(texture_color(&image, [7.0, -3.0]), [4, 5, 6]);
        assert_eq!(texture_color(&image, [f32::NAN, 0.0]), [1, 2, 3]);
    }
}
