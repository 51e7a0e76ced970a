//! Pixels and points as librealsense relates them.
//!
//! Two families, because librealsense itself has two:
//! - [`deproject`], [`project`] and [`transform`] are `rsutil.h`'s
//!   `rs2_deproject_pixel_to_point`, `rs2_project_point_to_pixel` and
//!   `rs2_transform_point_to_point`, for every distortion model, the same
//!   arithmetic in the same order (in `f64` where C promotes to `double`),
//!   so their results are the same floats.
//! - [`DepthRays`] and the kernels below are what `rs2::align` and
//!   `rs2::pointcloud` compute on x86-64, where librealsense 2.55 is built
//!   with SSSE3 and uses its SSE implementations. Those differ from
//!   `rsutil.h`: a depth pixel's ray is undistorted only for inverse
//!   Brown-Conrady (with the forward formula), the other image's lens is
//!   modelled only for (modified / inverse) Brown-Conrady with the
//!   formula's tangential terms as the SSE code has them, and a projected
//!   pixel is rounded as `_mm_cvtps_epi32(p + 0.5)` (ties to even). rsbag
//!   reproduces them operation for operation so that aligned images and
//!   point clouds equal librealsense's bit for bit.

use crate::device::{Distortion, Extrinsics, Intrinsics};

/// The 3D point (metres, the camera's coordinates) seen at `pixel` at
/// `depth` metres, as `rs2_deproject_pixel_to_point` computes it.
///
/// ```
/// use rsbag::device::{Distortion, Intrinsics};
/// use rsbag::processing::deproject;
/// let camera = Intrinsics { width: 640, height: 480, ppx: 320.0, ppy: 240.0,
///     fx: 400.0, fy: 400.0, model: Distortion::None, coeffs: [0.0; 5] };
/// assert_eq!(deproject(&camera, [720.0, 240.0], 2.0), [2.0, 0.0, 2.0]);
/// ```
pub fn deproject(intrinsics: &Intrinsics, pixel: [f32; 2], depth: f32) -> [f32; 3] {
    let c = intrinsics.coeffs;
    let mut x = (pixel[0] - intrinsics.ppx) / intrinsics.fx;
    let mut y = (pixel[1] - intrinsics.ppy) / intrinsics.fy;
    match intrinsics.model {
        Distortion::InverseBrownConrady => {
            let (x0, y0) = (x, y);
            // Ten iterations, as librealsense (found empirically there).
            for _ in 0..10 {
                let r2 = x * x + y * y;
                let icdist = 1.0 / (1.0 + ((c[4] * r2 + c[1]) * r2 + c[0]) * r2);
                let xq = x / icdist;
                let yq = y / icdist;
                let delta_x = 2.0 * c[2] * xq * yq + c[3] * (r2 + 2.0 * xq * xq);
                let delta_y = 2.0 * c[3] * xq * yq + c[2] * (r2 + 2.0 * yq * yq);
                x = (x0 - delta_x) * icdist;
                y = (y0 - delta_y) * icdist;
            }
        }
        Distortion::BrownConrady => {
            let (x0, y0) = (x, y);
            for _ in 0..10 {
                let r2 = x * x + y * y;
                let icdist = 1.0 / (1.0 + ((c[4] * r2 + c[1]) * r2 + c[0]) * r2);
                let delta_x = 2.0 * c[2] * x * y + c[3] * (r2 + 2.0 * x * x);
                let delta_y = 2.0 * c[3] * x * y + c[2] * (r2 + 2.0 * y * y);
                x = (x0 - delta_x) * icdist;
                y = (y0 - delta_y) * icdist;
            }
        }
        Distortion::KannalaBrandt4 => {
            let rd = (x * x + y * y).sqrt().max(f32::EPSILON);
            let mut theta = rd;
            let mut theta2 = rd * rd;
            for _ in 0..4 {
                let f = theta
                    * (1.0 + theta2 * (c[0] + theta2 * (c[1] + theta2 * (c[2] + theta2 * c[3]))))
                    - rd;
                if f.abs() < f32::EPSILON {
                    break;
                }
                let df = 1.0
                    + theta2
                        * (3.0 * c[0]
                            + theta2 * (5.0 * c[1] + theta2 * (7.0 * c[2] + 9.0 * theta2 * c[3])));
                theta -= f / df;
                theta2 = theta * theta;
            }
            let r = f64::from(theta).tan() as f32;
            x *= r / rd;
            y *= r / rd;
        }
        Distortion::Ftheta => {
            let rd = (x * x + y * y).sqrt().max(f32::EPSILON);
            let half = f64::from(c[0] / 2.0);
            let r = (f64::from(c[0] * rd).tan() / (2.0 * half.tan()).atan()) as f32;
            x *= r / rd;
            y *= r / rd;
        }
        _ => {}
    }
    [depth * x, depth * y, depth]
}

/// The pixel at which `point` (metres, the camera's coordinates) is seen,
/// as `rs2_project_point_to_pixel` computes it.
///
/// ```
/// use rsbag::device::{Distortion, Intrinsics};
/// use rsbag::processing::project;
/// let camera = Intrinsics { width: 640, height: 480, ppx: 320.0, ppy: 240.0,
///     fx: 400.0, fy: 400.0, model: Distortion::None, coeffs: [0.0; 5] };
/// assert_eq!(project(&camera, [2.0, 0.0, 2.0]), [720.0, 240.0]);
/// ```
pub fn project(intrinsics: &Intrinsics, point: [f32; 3]) -> [f32; 2] {
    let c = intrinsics.coeffs;
    let mut x = point[0] / point[2];
    let mut y = point[1] / point[2];
    match intrinsics.model {
        Distortion::ModifiedBrownConrady | Distortion::InverseBrownConrady => {
            let r2 = x * x + y * y;
            let f = 1.0 + c[0] * r2 + c[1] * r2 * r2 + c[4] * r2 * r2 * r2;
            x *= f;
            y *= f;
            let dx = x + 2.0 * c[2] * x * y + c[3] * (r2 + 2.0 * x * x);
            let dy = y + 2.0 * c[3] * x * y + c[2] * (r2 + 2.0 * y * y);
            x = dx;
            y = dy;
        }
        Distortion::BrownConrady => {
            let r2 = x * x + y * y;
            let f = 1.0 + c[0] * r2 + c[1] * r2 * r2 + c[4] * r2 * r2 * r2;
            let dx = x * f + 2.0 * c[2] * x * y + c[3] * (r2 + 2.0 * x * x);
            let dy = y * f + 2.0 * c[3] * x * y + c[2] * (r2 + 2.0 * y * y);
            x = dx;
            y = dy;
        }
        Distortion::Ftheta => {
            let r = (x * x + y * y).sqrt().max(f32::EPSILON);
            let half = f64::from(c[0] / 2.0);
            let rd = ((1.0 / c[0]) as f64 * (2.0 * f64::from(r) * half.tan()).atan()) as f32;
            x *= rd / r;
            y *= rd / r;
        }
        Distortion::KannalaBrandt4 => {
            let r = (x * x + y * y).sqrt().max(f32::EPSILON);
            let theta = f64::from(r).atan() as f32;
            let theta2 = theta * theta;
            let series = 1.0 + theta2 * (c[0] + theta2 * (c[1] + theta2 * (c[2] + theta2 * c[3])));
            let rd = theta * series;
            x *= rd / r;
            y *= rd / r;
        }
        _ => {}
    }
    [
        x * intrinsics.fx + intrinsics.ppx,
        y * intrinsics.fy + intrinsics.ppy,
    ]
}

/// `point` in the other camera's coordinates, as
/// `rs2_transform_point_to_point` computes it.
pub fn transform(extrinsics: &Extrinsics, point: [f32; 3]) -> [f32; 3] {
    let r = &extrinsics.rotation;
    let t = &extrinsics.translation;
    let [x, y, z] = point;
    [
        r[0] * x + r[3] * y + r[6] * z + t[0],
        r[1] * x + r[4] * y + r[7] * z + t[1],
        r[2] * x + r[5] * y + r[8] * z + t[2],
    ]
}

/// The ray of each pixel of a depth image (x/z and y/z of the point seen
/// there), at the pixel's centre or shifted by an offset, as librealsense's
/// SSE align and point cloud precompute them: undistorted only for inverse
/// Brown-Conrady, with the forward Brown-Conrady formula.
#[derive(Debug, Clone)]
pub struct DepthRays {
    width: usize,
    height: usize,
    /// Without inverse Brown-Conrady a ray's x depends on the column only
    /// and its y on the row only: then `x` holds a value per column and
    /// `y` per row, not per pixel (less memory to stream through).
    separable: bool,
    x: Vec<f32>,
    y: Vec<f32>,
}

/// The rays of one row of pixels.
#[derive(Debug, Clone, Copy)]
pub struct RowRays<'a> {
    /// x/z of each pixel of the row.
    pub x: &'a [f32],
    /// y/z: the same for the whole row, or each pixel's.
    pub y: RowY<'a>,
}

/// The y/z of a row's rays.
#[derive(Debug, Clone, Copy)]
pub enum RowY<'a> {
    /// One value for the whole row.
    Same(f32),
    /// A value per pixel.
    Each(&'a [f32]),
}

impl DepthRays {
    /// The rays of `intrinsics`' pixels at `(column + offset, row + offset)`.
    pub fn new(intrinsics: &Intrinsics, offset: f32) -> DepthRays {
        let (width, height) = (intrinsics.width as usize, intrinsics.height as usize);
        let separable = intrinsics.model != Distortion::InverseBrownConrady;
        let (mut x, mut y) = (Vec::new(), Vec::new());
        if separable {
            x = (0..width)
                .map(|c| ray(intrinsics, c as f32 + offset, offset)[0])
                .collect();
            y = (0..height)
                .map(|r| ray(intrinsics, offset, r as f32 + offset)[1])
                .collect();
        } else {
            for row in 0..height {
                for column in 0..width {
                    let ray = ray(intrinsics, column as f32 + offset, row as f32 + offset);
                    x.push(ray[0]);
                    y.push(ray[1]);
                }
            }
        }
        DepthRays {
            width,
            height,
            separable,
            x,
            y,
        }
    }

    /// Pixels per row.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Rows.
    pub fn height(&self) -> usize {
        self.height
    }

    /// The rays of row `row`.
    pub fn row(&self, row: usize) -> RowRays<'_> {
        if self.separable {
            RowRays {
                x: &self.x,
                y: RowY::Same(self.y[row]),
            }
        } else {
            let at = row * self.width..(row + 1) * self.width;
            RowRays {
                x: &self.x[at.clone()],
                y: RowY::Each(&self.y[at]),
            }
        }
    }

    /// The ray of pixel `index` (row-major).
    pub fn get(&self, index: usize) -> [f32; 2] {
        if self.separable {
            [self.x[index % self.width], self.y[index / self.width]]
        } else {
            [self.x[index], self.y[index]]
        }
    }

    /// The point seen at pixel `index` at `depth` metres.
    pub fn point(&self, index: usize, depth: f32) -> [f32; 3] {
        let [x, y] = self.get(index);
        [depth * x, depth * y, depth]
    }

    /// How many pixels.
    pub fn len(&self) -> usize {
        self.width * self.height
    }

    /// Whether the image has no pixels.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

fn ray(intrinsics: &Intrinsics, column: f32, row: f32) -> [f32; 2] {
    let c = intrinsics.coeffs;
    let x = (column - intrinsics.ppx) / intrinsics.fx;
    let y = (row - intrinsics.ppy) / intrinsics.fy;
    if intrinsics.model != Distortion::InverseBrownConrady {
        return [x, y];
    }
    let r2 = x * x + y * y;
    let f = 1.0 + c[0] * r2 + c[1] * r2 * r2 + c[4] * r2 * r2 * r2;
    [
        x * f + 2.0 * c[2] * x * y + c[3] * (r2 + 2.0 * x * x),
        y * f + 2.0 * c[3] * x * y + c[2] * (r2 + 2.0 * y * y),
    ]
}

/// `point` moved by `e` with the SSE code's order of additions
/// (`r0·x + (r3·y + (r6·z + t0))`), which rounds differently from
/// [`transform`]'s.
#[inline(always)]
pub(super) fn transform_sse(e: &Extrinsics, [x, y, z]: [f32; 3]) -> [f32; 3] {
    let r = &e.rotation;
    let t = &e.translation;
    [
        r[0] * x + (r[3] * y + (r[6] * z + t[0])),
        r[1] * x + (r[4] * y + (r[7] * z + t[1])),
        r[2] * x + (r[5] * y + (r[8] * z + t[2])),
    ]
}

/// The lens model of the SSE align's target image: the modified
/// Brown-Conrady formula as the SSE code has it (tangential terms from
/// the radially distorted coordinates, the y term reusing the x one), or
/// none.
#[inline(always)]
pub(super) fn distort_align(c: &[f32; 5], [x, y]: [f32; 2]) -> [f32; 2] {
    let r2 = x * x + y * y;
    let r3 = c[1] * (r2 * r2) + c[4] * (r2 * (r2 * r2));
    let f = 1.0 + (c[0] * r2 + r3);
    let (xf, yf) = (x * f, y * f);
    let r4 = c[3] * (r2 + 2.0 * (xf * xf));
    [
        xf + (2.0 * (c[2] * (xf * yf)) + r4),
        yf + (2.0 * (c[3] * (xf * yf)) + r4),
    ]
}

/// The lens model of the SSE point cloud's texture mapping, for every
/// model but none: the Brown-Conrady formula's radial part, with
/// tangential terms from the undistorted coordinates for Brown-Conrady
/// and from the radially distorted ones for every other model.
pub(super) fn distort_texture(model: Distortion, c: &[f32; 5], [x, y]: [f32; 2]) -> [f32; 2] {
    let r2 = x * x + y * y;
    let r3 = c[1] * (r2 * r2) + c[4] * (r2 * (r2 * r2));
    let f = 1.0 + (c[0] * r2 + r3);
    let (xf, yf) = (x * f, y * f);
    let (xt, yt) = if model == Distortion::BrownConrady {
        (x, y)
    } else {
        (xf, yf)
    };
    let r4 = c[3] * (r2 + 2.0 * (xt * xt));
    let r5 = c[2] * (r2 + 2.0 * (yt * yt));
    [
        xf + (2.0 * (c[2] * (xt * yt)) + r4),
        yf + (2.0 * (c[3] * (xt * yt)) + r5),
    ]
}

/// `_mm_cvtps_epi32`: to the nearest integer, ties to even; NaN and
/// values outside `i32` give `i32::MIN` (the "integer indefinite").
pub(super) fn round_sse(v: f32) -> i32 {
    if (-2_147_483_648.0..2_147_483_648.0).contains(&v) {
        v.round_ties_even() as i32
    } else {
        i32::MIN
    }
}

/// [`round_sse`] for `|v| < 2²²` (no branch: loops of it vectorize);
/// `i32::MIN` for anything else, which callers redo with [`round_sse`]
/// (it is `i32::MIN` there too, except for huge finite values).
#[inline(always)]
pub(super) fn round_sse_fast(v: f32) -> i32 {
    // Adding 1.5·2²³ leaves no fraction bits, so the sum is rounded to an
    // integer, ties to even (the sum and v have the same parity), and the
    // integer is the sum's mantissa counted from 1.5·2²³'s: bits, not a
    // float-to-int conversion (which does not vectorize).
    const SHIFT: f32 = 12_582_912.0;
    let rounded = (v + SHIFT).to_bits() as i32 - SHIFT.to_bits() as i32;
    if v.abs() < 4_194_304.0 {
        rounded
    } else {
        i32::MIN
    }
}

/// C's `(int)v` on x86-64: toward zero; NaN and values outside `i32` give
/// `i32::MIN`.
pub(super) fn truncate_c(v: f32) -> i32 {
    if v > -2_147_483_649.0 && v < 2_147_483_648.0 {
        v as i32
    } else {
        i32::MIN
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn camera(model: Distortion, coeffs: [f32; 5]) -> Intrinsics {
        Intrinsics {
            width: 640,
            height: 480,
            ppx: 321.5,
            ppy: 238.25,
            fx: 383.0,
            fy: 384.5,
            model,
            coeffs,
        }
    }

    #[test]
    fn deprojecting_then_projecting_returns_the_pixel() {
        // Each model's deprojection inverts its projection (to the
        // precision of librealsense's fixed iteration counts). Not F-theta:
        // librealsense's two F-theta formulas are not each other's inverse
        // (deprojection divides by atan(2 tan(w/2)), not 2 tan(w/2)), and
        // rsbag computes what librealsense computes.
        let models = [
            (Distortion::None, [0.0; 5]),
            (Distortion::BrownConrady, [0.1, -0.05, 0.001, -0.002, 0.01]),
            (Distortion::KannalaBrandt4, [0.3, -0.1, 0.02, -0.001, 0.0]),
        ];
        for (model, coeffs) in models {
            let camera = camera(model, coeffs);
            for pixel in [[10.0, 20.0], [321.5, 238.25], [600.0, 450.0]] {
                let point = deproject(&camera, pixel, 1.5);
                assert_eq!(point[2], 1.5);
                let back = project(&camera, point);
                assert!(
                    (back[0] - pixel[0]).abs() < 0.05 && (back[1] - pixel[1]).abs() < 0.05,
                    "{model:?}: {pixel:?} came back as {back:?}"
                );
            }
        }
    }

    #[test]
    fn sse_rounding_is_to_nearest_even_with_an_indefinite_value() {
        assert_eq!(round_sse(2.5), 2);
        assert_eq!(round_sse(3.5), 4);
        assert_eq!(round_sse(-0.5), 0);
        assert_eq!(round_sse(f32::NAN), i32::MIN);
        assert_eq!(round_sse(3e9), i32::MIN);
        for v in [
            2.5,
            3.5,
            -2.5,
            -3.5,
            0.49999997,
            1e6 + 0.5,
            -7.25,
            4_194_303.5,
        ] {
            assert_eq!(round_sse_fast(v), round_sse(v), "{v}");
        }
        assert_eq!(round_sse_fast(5e6), i32::MIN);
        assert_eq!(round_sse_fast(f32::NAN), i32::MIN);
        assert_eq!(truncate_c(-1.7), -1);
        assert_eq!(truncate_c(f32::INFINITY), i32::MIN);
    }
}
