//! The spatial edge-preserving filter as librealsense 2.55's
//! `spatial_filter` computes it: a recursive exponential moving average
//! along rows (left to right, then right to left) and columns (top to
//! bottom, then bottom to top), `iterations` times, only between
//! neighbours closer than `delta`. Depth (Z16) and disparity (float) take
//! different code paths in librealsense, with different rules for which
//! pixels count and how values round; both are reproduced here step for
//! step.
//!
//! librealsense 2.55 registers a Holes Fill option on this filter, but the
//! callback meant to turn its value into a fill radius never runs, so the
//! radius stays 0 and no hole is ever filled; rsbag matches that.

/// The filter's settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SpatialParams {
    /// Weight of the current pixel (0.25..=1).
    pub alpha: f32,
    /// Edge threshold in depth units or disparity (1..=50).
    pub delta: f32,
    /// Passes over the image (1..=5).
    pub iterations: u32,
}

/// Filter a Z16 image in place.
pub(crate) fn smooth_depth(image: &mut [u16], width: usize, height: usize, p: &SpatialParams) {
    if width < 2 || height < 2 {
        return;
    }
    let delta = p.delta as u16;
    for _ in 0..p.iterations {
        for row in image.chunks_exact_mut(width) {
            depth_row(row, p.alpha, delta);
        }
        depth_columns(image, width, p.alpha, delta);
    }
}

/// Filter a disparity image in place.
pub(crate) fn smooth_disparity(image: &mut [f32], width: usize, height: usize, p: &SpatialParams) {
    if width < 2 || height < 2 {
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2, checked just above.
        return unsafe { smooth_disparity_avx2(image, width, p) };
    }
    smooth_disparity_portable(image, width, p);
}

/// [`smooth_disparity_portable`] compiled for AVX2: eight values a step
/// rather than four. The same IEEE operations in the same order (no
/// FMA), so the same results.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn smooth_disparity_avx2(image: &mut [f32], width: usize, p: &SpatialParams) {
    smooth_disparity_portable(image, width, p);
}

/// The passes of [`smooth_disparity`] (inlined, down to each step, into
/// the AVX2 copy).
#[inline(always)]
fn smooth_disparity_portable(image: &mut [f32], width: usize, p: &SpatialParams) {
    let mut lanes = [vec![[0f32; LANES]; width], vec![[0f32; LANES]; width]];
    for _ in 0..p.iterations {
        disparity_rows(image, &mut lanes, p.alpha, p.delta);
        disparity_columns(image, width, p.alpha, p.delta);
    }
}

/// `a * alpha + b * (1 - alpha)` rounded half up, in `f32` as
/// librealsense.
#[inline]
fn blend(a: u16, b: u16, alpha: f32) -> u16 {
    (f32::from(a) * alpha + f32::from(b) * (1.0 - alpha) + 0.5) as u16
}

/// One row of a Z16 image: left to right over all but the last pixel
/// (pairs of non-zero values differing by 1..=delta), then right to left
/// (pairs whose left value is over 1 and differ by at most delta).
fn depth_row(row: &mut [u16], alpha: f32, delta: u16) {
    let width = row.len();
    let mut val0 = row[0];
    for value in &mut row[1..width - 1] {
        let mut val1 = *value;
        if val0 >= 1 && val1 >= 1 {
            let diff = val1.abs_diff(val0);
            if diff >= 1 && diff <= delta {
                val1 = blend(val1, val0, alpha);
                *value = val1;
            }
        }
        val0 = val1;
    }
    let mut val1 = row[width - 1];
    for i in (0..width - 1).rev() {
        let mut val0 = row[i];
        if val1 >= 1 && val0 > 1 && val1.abs_diff(val0) <= delta {
            val0 = blend(val0, val1, alpha);
            row[i] = val0;
        }
        val1 = val0;
    }
}

/// The columns of a Z16 image: top to bottom (every pair, zeros included,
/// differing by less than delta), then bottom to top (pairs of non-zero
/// values differing by less than delta).
fn depth_columns(image: &mut [u16], width: usize, alpha: f32, delta: u16) {
    let height = image.len() / width;
    for y in 1..height {
        let (above, below) = image.split_at_mut(y * width);
        let above = &above[(y - 1) * width..];
        for (b, &a) in below[..width].iter_mut().zip(above) {
            if a.abs_diff(*b) < delta {
                *b = blend(*b, a, alpha);
            }
        }
    }
    for y in (0..height - 1).rev() {
        let (top, rest) = image.split_at_mut((y + 1) * width);
        let upper = &mut top[y * width..];
        for (u, &l) in upper.iter_mut().zip(&rest[..width]) {
            if *u >= 1 && l >= 1 && u.abs_diff(l) < delta {
                *u = blend(*u, l, alpha);
            }
        }
    }
}

/// Whether a disparity counts as valid: librealsense tests the float's
/// bits as a signed integer being positive (positive, not zero).
#[inline(always)]
fn valid(value: f32) -> bool {
    (value.to_bits() as i32) > 0
}

/// librealsense's step along a line of a disparity image, from the
/// previous input `last_in` (and its output `last_out`) to `value`: a
/// valid value after a valid one within delta of it is blended with the
/// previous output; any other value stays as it is. (librealsense keeps a
/// run flag, a state and the previous input; the flag is whether the
/// previous input was valid, and the state is then the previous output,
/// which is what this reads.)
#[inline(always)]
fn step(
    last_in: f32,
    last_out: f32,
    value: f32,
    alpha: f32,
    one_minus_alpha: f32,
    delta: f32,
) -> f32 {
    let d = last_in - value;
    let close = valid(last_in) & valid(value) & (d < delta) & (d > -delta);
    let blended = value * alpha + last_out * one_minus_alpha;
    if close {
        blended
    } else {
        value
    }
}

/// Rows scanned side by side by [`disparity_rows`]: each row's scan is
/// a chain of dependent steps, so rows are scanned as lanes of one
/// vector, one pixel of each row per step.
const LANES: usize = 8;

/// The rows of a disparity image, each left to right, then right to
/// left, [`LANES`] rows at a time, with `lanes` (two buffers of a lane a
/// pixel) to scan them in. A last group of fewer rows is padded with
/// zeros, which no step blends (0 is no disparity).
#[inline(always)]
fn disparity_rows(image: &mut [f32], lanes: &mut [Vec<[f32; LANES]>; 2], alpha: f32, delta: f32) {
    let width = lanes[0].len();
    let mut groups = image.chunks_exact_mut(width * LANES);
    for group in &mut groups {
        rows_as_lanes(group, lanes, alpha, delta);
    }
    let rest = groups.into_remainder();
    if !rest.is_empty() {
        let mut padded = vec![0f32; width * LANES];
        padded[..rest.len()].copy_from_slice(rest);
        rows_as_lanes(&mut padded, lanes, alpha, delta);
        rest.copy_from_slice(&padded[..rest.len()]);
    }
}

/// The [`LANES`] rows of `group` scanned together: copied into the first
/// of `lanes` (one entry a pixel, the rows' values side by side) so that
/// the rows' steps run as vector arithmetic, scanned forward into the
/// second and back into the first, then copied back.
// Pixel x of each of the rows: indexes rather than iterates.
#[allow(clippy::needless_range_loop)]
#[inline(always)]
fn rows_as_lanes(group: &mut [f32], lanes: &mut [Vec<[f32; LANES]>; 2], alpha: f32, delta: f32) {
    let [there, back] = lanes;
    let width = there.len();
    let mut rows = group.chunks_exact_mut(width);
    let rows: [&mut [f32]; LANES] =
        std::array::from_fn(|_| rows.next().expect("LANES rows of width pixels"));
    for x in 0..width {
        for r in 0..LANES {
            there[x][r] = rows[r][x];
        }
    }
    let scan = Scan::new(alpha, delta);
    // Forward from `there` into `back`, then backward from `back` into
    // `there`; loops rather than iterator adapters, which would not be
    // inlined into the AVX2 copy.
    back[0] = there[0];
    for x in 1..width {
        back[x] = scan.step(there[x - 1], back[x - 1], there[x]);
    }
    there[width - 1] = back[width - 1];
    for x in (0..width - 1).rev() {
        there[x] = scan.step(back[x + 1], there[x + 1], back[x]);
    }
    for x in 0..width {
        for r in 0..LANES {
            rows[r][x] = there[x][r];
        }
    }
}

/// The settings of a scan, for [`LANES`] lines at once.
struct Scan {
    alpha: f32,
    one_minus_alpha: f32,
    delta: f32,
}

impl Scan {
    #[inline(always)]
    fn new(alpha: f32, delta: f32) -> Scan {
        Scan {
            alpha,
            one_minus_alpha: 1.0 - alpha,
            delta,
        }
    }

    /// The outputs of [`step`] for the next pixel of each line, from the
    /// previous inputs and outputs.
    #[inline(always)]
    fn step(
        &self,
        last_in: [f32; LANES],
        last_out: [f32; LANES],
        input: [f32; LANES],
    ) -> [f32; LANES] {
        let mut out = [0f32; LANES];
        for r in 0..LANES {
            out[r] = step(
                last_in[r],
                last_out[r],
                input[r],
                self.alpha,
                self.one_minus_alpha,
                self.delta,
            );
        }
        out
    }
}

/// The columns of a disparity image: top to bottom, then bottom to top,
/// all columns a row at a time (each column's scan is independent, as in
/// librealsense's column by column loop), the previous row's inputs kept
/// aside as its outputs overwrite them.
#[inline(always)]
fn disparity_columns(image: &mut [f32], width: usize, alpha: f32, delta: f32) {
    let one_minus_alpha = 1.0 - alpha;
    let mut inputs = image[..width].to_vec();
    for y in 1..image.len() / width {
        let (done, rest) = image.split_at_mut(y * width);
        let above = &done[(y - 1) * width..];
        let row = &mut rest[..width];
        for ((value, last_in), &last_out) in row.iter_mut().zip(&mut inputs).zip(above) {
            let input = *value;
            *value = step(*last_in, last_out, input, alpha, one_minus_alpha, delta);
            *last_in = input;
        }
    }
    let last = image.len() - width;
    inputs.copy_from_slice(&image[last..]);
    for y in (0..last / width).rev() {
        let (rest, done) = image.split_at_mut((y + 1) * width);
        let below = &done[..width];
        let row = &mut rest[y * width..];
        for ((value, last_in), &last_out) in row.iter_mut().zip(&mut inputs).zip(below) {
            let input = *value;
            *value = step(*last_in, last_out, input, alpha, one_minus_alpha, delta);
            *last_in = input;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn close_depths_are_blended_and_edges_kept() {
        let p = SpatialParams {
            alpha: 0.5,
            delta: 20.0,
            iterations: 1,
        };
        let mut row = [100, 110, 500, 0, 120];
        depth_row(&mut row, p.alpha, 20);
        // 110 becomes 105 going right; 100 becomes 103 coming back.
        assert_eq!(row[0], 103);
        assert_eq!(row[2], 500);
        assert_eq!(row[3], 0);
    }
}
