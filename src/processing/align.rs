//! Depth aligned to another stream's image, and another stream's image
//! aligned to depth, as librealsense's `rs2::align` computes them.
//!
//! librealsense maps both corners of each depth pixel (its centre ± half a
//! pixel) into the other image and fills the pixels between them: with the
//! nearest depth where depth goes to the other image, with the pixel found
//! there where the other image comes to depth. On x86-64 (every
//! pyrealsense2 wheel for it) the SSE implementation runs; its rounding,
//! lens handling and choice of corners are reproduced here (see
//! [`super::geometry`]), so the result equals `rs.align`'s byte for byte.

use bytes::Bytes;

use super::geometry::{distort_align, round_sse, round_sse_fast, transform_sse, DepthRays, RowY};
use super::image::{depth_values, rows};
use crate::device::{Distortion, Extrinsics, Format, Frame, Intrinsics, ProfileKind};
use crate::{Error, Result};

/// How the depth images of one stream map onto the images of another:
/// made once per pair of streams, used for every frame.
///
/// ```
/// use rsbag::device::{Distortion, Extrinsics, Intrinsics};
/// use rsbag::processing::Alignment;
/// let depth = Intrinsics { width: 4, height: 2, ppx: 2.0, ppy: 1.0, fx: 2.0, fy: 2.0,
///     model: Distortion::None, coeffs: [0.0; 5] };
/// let alignment = Alignment::new(&depth, 0.001, &depth, &Extrinsics::IDENTITY);
/// // The same camera: every pixel keeps its depth.
/// let aligned = alignment.depth_to_other_values(&[0, 1000, 1200, 1300, 900, 0, 800, 700])?;
/// assert_eq!(aligned, [0, 1000, 1200, 1300, 900, 0, 800, 700]);
/// # Ok::<(), rsbag::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Alignment {
    depth: Intrinsics,
    other: Intrinsics,
    depth_to_other: Extrinsics,
    depth_units: f32,
    top_left: DepthRays,
    bottom_right: DepthRays,
}

/// A pixel of the other image (may lie outside it).
type Pixel = (i32, i32);

/// A raw depth value as the kernels read it: decoded, or the frame's own
/// two little-endian bytes (no copy of the frame).
trait DepthValue: Copy {
    fn raw(self) -> u16;
}

impl DepthValue for u16 {
    #[inline(always)]
    fn raw(self) -> u16 {
        self
    }
}

impl DepthValue for [u8; 2] {
    #[inline(always)]
    fn raw(self) -> u16 {
        u16::from_le_bytes(self)
    }
}

/// A Z16 frame's pixels as they lie in its bytes, where its rows are
/// packed (no stride padding) and complete.
fn packed_depth(frame: &Frame) -> Option<&[[u8; 2]]> {
    let (width, height) = frame.resolution()?;
    let size = width as usize * height as usize * 2;
    let packed = frame.stride == 0 || frame.stride == width * 2;
    (packed && frame.data.len() >= size).then(|| frame.data[..size].as_chunks::<2>().0)
}

/// Set the pixels `x0..=x1` of `row` to depth `d` where it is nearer than
/// theirs (0, no depth yet, counting as farthest). Spans of up to four
/// pixels, nearly all of them, go without a loop: its varying length
/// would be a branch mispredicted at every depth pixel.
#[inline(always)]
fn fill_nearer(row: &mut [u16], x0: usize, x1: usize, d: u16) {
    let nearer = |t: u16| t.wrapping_sub(1).min(d - 1) + 1;
    let span = x1 - x0;
    if span < 4 && x0 + 4 <= row.len() {
        let cells = &mut row[x0..x0 + 4];
        for (k, cell) in cells.iter_mut().enumerate() {
            *cell = if k <= span { nearer(*cell) } else { *cell };
        }
    } else {
        for cell in &mut row[x0..=x1] {
            *cell = nearer(*cell);
        }
    }
}

/// The y/z of a row's rays as the kernel reads them: one for the row, or
/// one per pixel.
trait RaysY: Copy {
    fn at(self, i: usize) -> f32;
}

impl RaysY for f32 {
    #[inline(always)]
    fn at(self, _: usize) -> f32 {
        self
    }
}

impl RaysY for &[f32] {
    #[inline(always)]
    fn at(self, i: usize) -> f32 {
        self[i]
    }
}

impl Alignment {
    /// The alignment of depth images with `depth` intrinsics and raw values
    /// in `depth_units` metres to images with `other` intrinsics, the
    /// other camera being `depth_to_other` from the depth camera.
    pub fn new(
        depth: &Intrinsics,
        depth_units: f32,
        other: &Intrinsics,
        depth_to_other: &Extrinsics,
    ) -> Alignment {
        Alignment {
            depth: *depth,
            other: *other,
            depth_to_other: *depth_to_other,
            depth_units,
            top_left: DepthRays::new(depth, -0.5),
            bottom_right: DepthRays::new(depth, 0.5),
        }
    }

    /// Depth values (row-major, the depth image's size) aligned to the
    /// other image: an image of its size, each pixel the nearest depth seen
    /// there, 0 where no depth pixel lands.
    pub fn depth_to_other_values(&self, depth: &[u16]) -> Result<Vec<u16>> {
        self.depth_to_other_of(depth)
    }

    /// A Z16 `depth` frame aligned to the other image, as
    /// [`depth_to_other_values`](Self::depth_to_other_values) gives it, read
    /// straight from the frame's bytes.
    pub fn depth_to_other_pixels(&self, depth: &Frame) -> Result<Vec<u16>> {
        if depth.profile.format != Format::Z16 {
            return Err(Error::InvalidArgument(format!(
                "only Z16 depth can be aligned, not {}",
                depth.profile.format
            )));
        }
        match packed_depth(depth) {
            Some(pixels) => self.depth_to_other_of(pixels),
            None => self.depth_to_other_of(&depth_values(depth)?[..]),
        }
    }

    fn depth_to_other_of<D: DepthValue>(&self, depth: &[D]) -> Result<Vec<u16>> {
        self.check_depth(depth.len())?;
        let (width, height) = (self.other.width as i32, self.other.height as i32);
        let mut aligned = vec![0u16; (width * height) as usize];
        let lens = self.other.model == Distortion::ModifiedBrownConrady;
        // Each depth pixel fills the pixels from one corner to the other,
        // or (a finer depth image) the one its top-left corner lands on.
        let both_corners = self.depth_is_coarser();
        // Corners a row at a time: small buffers, in the cache, reused.
        let columns = self.depth.width as usize;
        let mut first = vec![(0, 0); columns];
        let mut last = vec![(0, 0); columns];
        for (row, depth) in depth.chunks_exact(columns.max(1)).enumerate() {
            self.corners(&self.top_left, row, depth, &mut first, lens);
            let last = if both_corners {
                self.corners(&self.bottom_right, row, depth, &mut last, lens);
                &last
            } else {
                &first
            };
            for ((&d, &(x0, y0)), &(x1, y1)) in depth.iter().zip(&first).zip(last) {
                let d = d.raw();
                if d == 0 {
                    continue;
                }
                // Pixels outside the image are skipped, as librealsense
                // skips them.
                let (x0, x1) = (x0.max(0), x1.min(width - 1));
                if x0 > x1 {
                    continue;
                }
                for y in y0.max(0)..=y1.min(height - 1) {
                    let row = (y * width) as usize;
                    let row = &mut aligned[row..row + width as usize];
                    fill_nearer(row, x0 as usize, x1 as usize, d);
                }
            }
        }
        Ok(aligned)
    }

    /// The other image's pixels (`bytes_per_pixel` each, rows `stride`
    /// bytes apart) aligned to depth: an image of the depth image's size
    /// (rows packed), each pixel with a depth taking the other image's
    /// pixel seen there, zeros elsewhere.
    pub fn other_to_depth_pixels(
        &self,
        depth: &[u16],
        other: &[u8],
        bytes_per_pixel: usize,
        stride: usize,
    ) -> Result<Vec<u8>> {
        self.other_to_depth_of(depth, other, bytes_per_pixel, stride)
    }

    fn other_to_depth_of<D: DepthValue>(
        &self,
        depth: &[D],
        other: &[u8],
        bytes_per_pixel: usize,
        stride: usize,
    ) -> Result<Vec<u8>> {
        self.check_depth(depth.len())?;
        let (width, height) = (self.other.width as usize, self.other.height as usize);
        if !(1..=4).contains(&bytes_per_pixel)
            || stride < width * bytes_per_pixel
            || other.len() < stride * height.saturating_sub(1) + width * bytes_per_pixel
        {
            return Err(Error::InvalidArgument(format!(
                "an image of {width}x{height} pixels of {bytes_per_pixel} bytes, rows {stride} \
                 bytes apart, cannot be held in {} bytes",
                other.len()
            )));
        }
        let lens = matches!(
            self.other.model,
            Distortion::ModifiedBrownConrady | Distortion::InverseBrownConrady
        );
        // librealsense maps one corner: the bottom-right one when the other
        // image is smaller than depth both ways, else the top-left one.
        let rays = if self.other.width < self.depth.width && self.other.height < self.depth.height {
            &self.bottom_right
        } else {
            &self.top_left
        };
        let mut aligned = vec![0u8; depth.len() * bytes_per_pixel];
        let columns = self.depth.width as usize;
        let mut corners = vec![(0, 0); columns];
        for (row, depth) in depth.chunks_exact(columns.max(1)).enumerate() {
            self.corners(rays, row, depth, &mut corners, lens);
            for (k, (&d, &(x, y))) in depth.iter().zip(&corners).enumerate() {
                if d.raw() == 0 || x < 0 || y < 0 || x as usize >= width || y as usize >= height {
                    continue;
                }
                let from = y as usize * stride + x as usize * bytes_per_pixel;
                let to = (row * columns + k) * bytes_per_pixel;
                aligned[to..to + bytes_per_pixel]
                    .copy_from_slice(&other[from..from + bytes_per_pixel]);
            }
        }
        Ok(aligned)
    }

    /// The other image's width and height.
    pub fn other_size(&self) -> (u32, u32) {
        (self.other.width, self.other.height)
    }

    /// A Z16 `depth` frame aligned to the other image: a frame of the
    /// depth stream with the other image's size and intrinsics.
    pub fn depth_to_other(&self, depth: &Frame) -> Result<Frame> {
        if depth.profile.format != Format::Z16 {
            return Err(Error::InvalidArgument(format!(
                "only Z16 depth can be aligned, not {}",
                depth.profile.format
            )));
        }
        let aligned = self.depth_to_other_pixels(depth)?;
        let data: Vec<u8> = aligned.iter().flat_map(|d| d.to_le_bytes()).collect();
        Ok(self.reshaped(depth, &self.other, 2, data))
    }

    /// `other` aligned to the Z16 `depth` frame: a frame of the other
    /// stream with the depth image's size and intrinsics. Formats of 1 to 4
    /// bytes a pixel are aligned as librealsense aligns them (YUYV pairs
    /// included, which mixes their chroma, as there).
    pub fn other_to_depth(&self, depth: &Frame, other: &Frame) -> Result<Frame> {
        let bytes_per_pixel = other.profile.format.bytes_per_pixel().unwrap_or(0) as usize;
        // The rows are read in place (checked against the frame's size and
        // stride), not copied.
        let _ = rows(other, bytes_per_pixel.max(1))?;
        let stride = match other.stride {
            0 => self.other.width as usize * bytes_per_pixel,
            stride => stride as usize,
        };
        let pixels = &other.data;
        let aligned = match packed_depth(depth) {
            Some(depth) => self.other_to_depth_of(depth, pixels, bytes_per_pixel, stride)?,
            None => {
                let values = depth_values(depth)?;
                self.other_to_depth_of(&values, pixels, bytes_per_pixel, stride)?
            }
        };
        Ok(self.reshaped(other, &self.depth, bytes_per_pixel as u32, aligned))
    }

    /// `frame` with `data` of the size and intrinsics of `like`.
    fn reshaped(&self, frame: &Frame, like: &Intrinsics, bpp: u32, data: Vec<u8>) -> Frame {
        let mut profile = frame.profile;
        profile.kind = ProfileKind::Video {
            width: like.width,
            height: like.height,
            intrinsics: Some(*like),
        };
        Frame {
            profile,
            stride: like.width * bpp,
            data: Bytes::from(data),
            ..frame.clone()
        }
    }

    fn check_depth(&self, pixels: usize) -> Result<()> {
        let expected = self.depth.width as usize * self.depth.height as usize;
        if pixels == expected {
            Ok(())
        } else {
            Err(Error::InvalidArgument(format!(
                "a depth image of {}x{} has {expected} pixels, not {}",
                self.depth.width, self.depth.height, pixels
            )))
        }
    }

    /// Where the corner `rays` gives of the pixels of depth row `row`
    /// (`depth`, `out`: that row) lands in the other image: a pass without
    /// branches (so that it vectorizes), then the rare corners its rounding
    /// could not round done exactly.
    fn corners<D: DepthValue>(
        &self,
        rays: &DepthRays,
        row: usize,
        depth: &[D],
        out: &mut [Pixel],
        lens: bool,
    ) {
        let row_rays = rays.row(row);
        let x = row_rays.x;
        match (lens, row_rays.y) {
            (true, RowY::Same(y)) => self.corners_with::<true, D, f32>(x, y, depth, out),
            (false, RowY::Same(y)) => self.corners_with::<false, D, f32>(x, y, depth, out),
            (true, RowY::Each(y)) => self.corners_with::<true, D, &[f32]>(x, y, depth, out),
            (false, RowY::Each(y)) => self.corners_with::<false, D, &[f32]>(x, y, depth, out),
        }
        // Rarely any: looked for without branches first.
        let gave_up = out
            .iter()
            .fold(false, |any, p| any | (p.0 == i32::MIN) | (p.1 == i32::MIN));
        if !gave_up {
            return;
        }
        let start = row * rays.width();
        for (i, pixel) in out.iter_mut().enumerate() {
            let d = depth[i].raw();
            if (pixel.0 == i32::MIN || pixel.1 == i32::MIN) && d != 0 {
                *pixel = self.corner(rays, start + i, d, lens);
            }
        }
    }

    fn corners_with<const LENS: bool, D: DepthValue, Y: RaysY>(
        &self,
        ray_x: &[f32],
        ray_y: Y,
        depth: &[D],
        out: &mut [Pixel],
    ) {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2, checked just above.
            return unsafe { self.corners_avx2::<LENS, D, Y>(ray_x, ray_y, depth, out) };
        }
        self.corners_portable::<LENS, D, Y>(ray_x, ray_y, depth, out)
    }

    /// [`Self::corners_portable`] compiled for AVX2: eight pixels at a
    /// time rather than four. The same IEEE operations in the same order
    /// (no FMA), so the same results.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn corners_avx2<const LENS: bool, D: DepthValue, Y: RaysY>(
        &self,
        ray_x: &[f32],
        ray_y: Y,
        depth: &[D],
        out: &mut [Pixel],
    ) {
        self.corners_portable::<LENS, D, Y>(ray_x, ray_y, depth, out)
    }

    #[inline(always)]
    fn corners_portable<const LENS: bool, D: DepthValue, Y: RaysY>(
        &self,
        ray_x: &[f32],
        ray_y: Y,
        depth: &[D],
        out: &mut [Pixel],
    ) {
        let n = out.len();
        let (ray_x, depth) = (&ray_x[..n], &depth[..n]);
        // Indexed over slices of one length: the bounds checks go and the
        // loop vectorizes.
        for i in 0..n {
            out[i] = self.project_fast::<LENS>(depth[i].raw(), ray_x[i], ray_y.at(i));
        }
    }

    /// The other image's pixel of the point at raw depth `d` along ray
    /// (`rx`, `ry`), rounded as librealsense's SSE code rounds (p + 0.5).
    #[inline(always)]
    fn project_fast<const LENS: bool>(&self, d: u16, rx: f32, ry: f32) -> Pixel {
        let [u, v] = self.project(d, rx, ry, LENS);
        (round_sse_fast(u + 0.5), round_sse_fast(v + 0.5))
    }

    /// Where corner `rays` of depth pixel `index` lands, at raw depth `d`,
    /// exactly (the slow way).
    fn corner(&self, rays: &DepthRays, index: usize, d: u16, lens: bool) -> Pixel {
        let [rx, ry] = rays.get(index);
        let [u, v] = self.project(d, rx, ry, lens);
        (round_sse(u + 0.5), round_sse(v + 0.5))
    }

    /// The other image's (unrounded) pixel of the point at raw depth `d`
    /// along ray (`rx`, `ry`): librealsense's SSE arithmetic.
    #[inline(always)]
    fn project(&self, d: u16, rx: f32, ry: f32, lens: bool) -> [f32; 2] {
        let z = f32::from(d) * self.depth_units;
        let [x, y, z] = transform_sse(&self.depth_to_other, [z * rx, z * ry, z]);
        let mut normalized = [x / z, y / z];
        if lens {
            normalized = distort_align(&self.other.coeffs, normalized);
        }
        [
            normalized[0] * self.other.fx + self.other.ppx,
            normalized[1] * self.other.fy + self.other.ppy,
        ]
    }

    /// Whether the depth image has fewer pixels per degree than the other
    /// (or is one of two special resolution pairs): then a depth pixel
    /// covers several of the other's, and both its corners are mapped.
    fn depth_is_coarser(&self) -> bool {
        let (depth, other) = (&self.depth, &self.other);
        let special = matches!(
            (depth.width, depth.height, other.width, other.height),
            (640, 240, 320, 180) | (640, 480, 640, 360)
        );
        let [depth_x, depth_y] = pixels_per_degree(depth);
        let [other_x, other_y] = pixels_per_degree(other);
        depth_x < other_x || depth_y < other_y || special
    }
}

/// `rs2_fov`'s field of view, as pixels per degree.
fn pixels_per_degree(i: &Intrinsics) -> [f32; 2] {
    let fov_x =
        ((i.ppx + 0.5).atan2(i.fx) + (i.width as f32 - (i.ppx + 0.5)).atan2(i.fx)) * 57.295_78_f32;
    let fov_y =
        ((i.ppy + 0.5).atan2(i.fy) + (i.height as f32 - (i.ppy + 0.5)).atan2(i.fy)) * 57.295_78_f32;
    [i.width as f32 / fov_x, i.height as f32 / fov_y]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn camera(width: u32, height: u32, f: f32) -> Intrinsics {
        Intrinsics {
            width,
            height,
            ppx: width as f32 / 2.0,
            ppy: height as f32 / 2.0,
            fx: f,
            fy: f,
            model: Distortion::None,
            coeffs: [0.0; 5],
        }
    }

    #[test]
    fn a_coarser_depth_image_fills_every_pixel_it_covers_with_the_nearest_depth() {
        // Depth at half the colour camera's resolution, same lens and
        // place. Depth pixel (1, 1)'s corners land at colour x = y = 1.0
        // and 3.0, rounded as librealsense rounds (p + 0.5, ties to even)
        // to 2 and 4; pixel (2, 1)'s at x = 3.0 and 5.0, to 4 and 6. Where
        // both land (x = 4) the nearer depth wins.
        let depth = camera(4, 4, 4.0);
        let color = camera(8, 8, 8.0);
        let alignment = Alignment::new(&depth, 0.001, &color, &Extrinsics::IDENTITY);
        let mut values = vec![0u16; 16];
        values[5] = 2000;
        values[6] = 1000;
        let aligned = alignment.depth_to_other_values(&values).expect("aligned");
        let mut expected = vec![0u16; 64];
        for y in 2..=4 {
            for x in 2..=6 {
                expected[y * 8 + x] = if x < 4 { 2000 } else { 1000 };
            }
        }
        assert_eq!(aligned, expected);
    }

    #[test]
    fn another_image_comes_to_depth_rounded_as_the_sse_code_rounds() {
        // The other camera's principal point 0.6 px to the right: depth
        // pixel x's top-left corner lands at x + 0.1, and librealsense's
        // SSE code takes pixel round(x + 0.1 + 0.5) = x + 1 (the plain C
        // code would take x).
        let depth = camera(4, 1, 4.0);
        let mut other = depth;
        other.ppx += 0.6;
        let alignment = Alignment::new(&depth, 0.001, &other, &Extrinsics::IDENTITY);
        let aligned = alignment
            .other_to_depth_pixels(&[1000, 1000, 0, 1000], &[10, 11, 12, 13], 1, 4)
            .expect("aligned");
        assert_eq!(aligned, [11, 12, 0, 0]);
    }

    #[test]
    fn the_vectorized_corners_equal_the_exact_ones() {
        // The fast pass (AVX2 where the CPU has it, else SSE2) against the
        // exact scalar computation, on a depth image of every kind of
        // value, through a lens and a rotation.
        let depth = camera(37, 23, 30.0);
        let mut other = camera(50, 40, 45.0);
        other.model = Distortion::ModifiedBrownConrady;
        other.coeffs = [0.12, -0.2, -0.0015, 0.0008, 0.05];
        let extrinsics = Extrinsics {
            rotation: [
                0.9999, 0.003, 0.006, -0.003, 0.9999, 0.004, -0.006, -0.004, 0.9999,
            ],
            translation: [0.015, 0.0005, -0.0003],
        };
        let alignment = Alignment::new(&depth, 0.001, &other, &extrinsics);
        let values: Vec<u16> = (0..37 * 23u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 16) as u16)
            .collect();
        for lens in [false, true] {
            for rays in [&alignment.top_left, &alignment.bottom_right] {
                let mut fast = Vec::new();
                let mut portable = Vec::new();
                for (row, depth) in values.chunks_exact(37).enumerate() {
                    let mut out = vec![(0, 0); 37];
                    alignment.corners(rays, row, depth, &mut out, lens);
                    fast.extend(out);
                    let row_rays = rays.row(row);
                    let RowY::Same(y) = row_rays.y else {
                        panic!("rays without inverse Brown-Conrady are separable")
                    };
                    let mut out = vec![(0, 0); 37];
                    if lens {
                        alignment
                            .corners_portable::<true, u16, f32>(row_rays.x, y, depth, &mut out);
                    } else {
                        alignment
                            .corners_portable::<false, u16, f32>(row_rays.x, y, depth, &mut out);
                    }
                    // The exact redo of the corners fast rounding gives up on.
                    for (k, p) in out.iter_mut().enumerate() {
                        if (p.0 == i32::MIN || p.1 == i32::MIN) && depth[k] != 0 {
                            *p = alignment.corner(rays, row * 37 + k, depth[k], lens);
                        }
                    }
                    portable.extend(out);
                }
                assert_eq!(fast, portable);
                for (i, &d) in values.iter().enumerate() {
                    assert_eq!(
                        fast[i],
                        alignment.corner(rays, i, d, lens),
                        "pixel {i}, depth {d}"
                    );
                }
            }
        }
    }

    #[test]
    fn wrong_sizes_are_errors() {
        let depth = camera(4, 4, 4.0);
        let alignment = Alignment::new(&depth, 0.001, &depth, &Extrinsics::IDENTITY);
        assert!(alignment.depth_to_other_values(&[0; 15]).is_err());
        assert!(alignment
            .other_to_depth_pixels(&[0; 16], &[0; 47], 3, 12)
            .is_err());
        assert!(alignment
            .other_to_depth_pixels(&[0; 16], &[0; 48], 5, 20)
            .is_err());
    }
}
