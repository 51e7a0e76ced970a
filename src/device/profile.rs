//! Stream profiles, intrinsics and extrinsics.

use super::names::{Distortion, Format, StreamKind};

/// Identifies a stream within a device: its kind and index (librealsense's
/// `Infrared 1`, `Infrared 2`…).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StreamId {
    /// The kind of stream.
    pub kind: StreamKind,
    /// The stream index (0 for most streams; 1 and 2 for stereo infrared).
    pub index: u32,
}

impl StreamId {
    /// A stream id.
    pub const fn new(kind: StreamKind, index: u32) -> Self {
        StreamId { kind, index }
    }

    /// librealsense's name of the stream: its kind, then its index where
    /// it has one (`Depth`, `Infrared 1`).
    pub fn name(self) -> String {
        self.name_joined(" ")
    }

    /// The stream's name with `separator` before the index (`Infrared_1`
    /// in file names, `Infrared1` in librealsense's `.db3` frame ids);
    /// index 0 is not written (`Depth`).
    pub fn name_joined(self, separator: &str) -> String {
        match self.index {
            0 => self.kind.name().to_owned(),
            i => format!("{}{separator}{i}", self.kind.name()),
        }
    }
}

impl std::fmt::Display for StreamId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.kind, self.index)
    }
}

/// Pinhole camera intrinsics of a video stream (`rs2_intrinsics`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Intrinsics {
    /// Image width in pixels.
    pub width: u32,
    /// Image height in pixels.
    pub height: u32,
    /// Principal point, x (pixels from the left edge).
    pub ppx: f32,
    /// Principal point, y (pixels from the top edge).
    pub ppy: f32,
    /// Focal length as a multiple of pixel width.
    pub fx: f32,
    /// Focal length as a multiple of pixel height.
    pub fy: f32,
    /// Distortion model.
    pub model: Distortion,
    /// Distortion coefficients (Brown-Conrady: k1, k2, p1, p2, k3).
    pub coeffs: [f32; 5],
}

impl Intrinsics {
    /// Intrinsics of a `width` x `height` image that nothing is known
    /// about: all zero, no distortion (what a recording holds for a
    /// stream recorded without intrinsics).
    pub fn unknown(width: u32, height: u32) -> Intrinsics {
        Intrinsics {
            width,
            height,
            ppx: 0.0,
            ppy: 0.0,
            fx: 0.0,
            fy: 0.0,
            model: Distortion::None,
            coeffs: [0.0; 5],
        }
    }
}

/// IMU intrinsics (`rs2_motion_device_intrinsic`).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct MotionIntrinsics {
    /// Scale and cross-axis terms with the bias in the last column.
    pub data: [[f32; 4]; 3],
    /// Noise variance per axis.
    pub noise_variances: [f32; 3],
    /// Bias variance per axis.
    pub bias_variances: [f32; 3],
}

/// A rigid transform between two streams' coordinate systems
/// (`rs2_extrinsics`): rotation as a column-major 3x3 matrix, translation
/// in meters.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Extrinsics {
    /// Column-major 3x3 rotation.
    pub rotation: [f32; 9],
    /// Translation in meters.
    pub translation: [f32; 3],
}

impl Extrinsics {
    /// The identity transform.
    pub const IDENTITY: Extrinsics = Extrinsics {
        rotation: [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0],
        translation: [0.0; 3],
    };

    /// A pure translation.
    pub fn translation(x: f32, y: f32, z: f32) -> Extrinsics {
        Extrinsics {
            translation: [x, y, z],
            ..Extrinsics::IDENTITY
        }
    }

    /// Apply to a point: `R * p + t`.
    pub fn transform(&self, p: [f32; 3]) -> [f32; 3] {
        let rotated = rotate(&self.rotation, p);
        std::array::from_fn(|i| self.translation[i] + rotated[i])
    }

    /// The inverse transform, as librealsense's pose `inverse` computes
    /// it: the transposed rotation (the inverse of a rotation), and the
    /// translation `(Rᵀ t) * -1`.
    pub fn inverse(&self) -> Extrinsics {
        let r = &self.rotation;
        let rotation = [r[0], r[3], r[6], r[1], r[4], r[7], r[2], r[5], r[8]];
        let translation = rotate(&rotation, self.translation).map(|v| -v);
        Extrinsics {
            rotation,
            translation,
        }
    }

    /// `self` then `next`: the transform that maps a point through `self`
    /// and then through `next`.
    pub fn then(&self, next: &Extrinsics) -> Extrinsics {
        let (a, b) = (&self.rotation, &next.rotation);
        let mut rotation = [0.0; 9];
        for col in 0..3 {
            for row in 0..3 {
                rotation[col * 3 + row] = (0..3).map(|k| b[k * 3 + row] * a[col * 3 + k]).sum();
            }
        }
        Extrinsics {
            rotation,
            translation: next.transform(self.translation),
        }
    }

    /// The transform from a stream recorded with `self` to one recorded
    /// with `other` (each the transform from the group's reference stream
    /// to the stream), computed as librealsense's playback device computes
    /// it: `to_pose(other) * inverse(to_pose(self))` in librealsense's
    /// `float` pose arithmetic. Other ways round the same result by an ulp
    /// or so, enough to move a pixel of an aligned image.
    pub(crate) fn librealsense_between(&self, other: &Extrinsics) -> Extrinsics {
        compose(other, &self.inverse())
    }
}

/// librealsense's `float3x3 * float3` on a column-major rotation: the
/// columns scaled and summed left to right.
fn rotate(r: &[f32; 9], v: [f32; 3]) -> [f32; 3] {
    std::array::from_fn(|i| r[i] * v[0] + r[3 + i] * v[1] + r[6 + i] * v[2])
}

/// librealsense's `pose * pose`: `a` after `b`.
fn compose(a: &Extrinsics, b: &Extrinsics) -> Extrinsics {
    let mut rotation = [0.0; 9];
    for column in 0..3 {
        let c = [
            b.rotation[column * 3],
            b.rotation[column * 3 + 1],
            b.rotation[column * 3 + 2],
        ];
        rotation[column * 3..column * 3 + 3].copy_from_slice(&rotate(&a.rotation, c));
    }
    let moved = rotate(&a.rotation, b.translation);
    Extrinsics {
        rotation,
        translation: std::array::from_fn(|i| moved[i] + a.translation[i]),
    }
}

/// What kind of frames a profile produces, with the kind's parameters.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ProfileKind {
    /// Images.
    Video {
        /// Width in pixels.
        width: u32,
        /// Height in pixels.
        height: u32,
        /// Intrinsics, where known.
        intrinsics: Option<Intrinsics>,
    },
    /// IMU samples.
    Motion {
        /// IMU intrinsics, where known.
        intrinsics: Option<MotionIntrinsics>,
    },
    /// 6-DoF poses.
    Pose,
}

/// One mode a stream can run in (`rs2_stream_profile`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StreamProfile {
    /// Which stream.
    pub stream: StreamId,
    /// Unique id of the profile within its device.
    pub unique_id: u32,
    /// Data format.
    pub format: Format,
    /// Nominal frame rate (Hz).
    pub fps: u32,
    /// Whether this is the stream's default (recommended) profile.
    pub is_default: bool,
    /// Video, motion or pose, with their parameters.
    pub kind: ProfileKind,
}

impl StreamProfile {
    /// A video profile without intrinsics.
    pub fn video(stream: StreamId, format: Format, width: u32, height: u32, fps: u32) -> Self {
        StreamProfile {
            stream,
            unique_id: 0,
            format,
            fps,
            is_default: false,
            kind: ProfileKind::Video {
                width,
                height,
                intrinsics: None,
            },
        }
    }

    /// A motion profile without intrinsics.
    pub fn motion(stream: StreamId, format: Format, fps: u32) -> Self {
        StreamProfile {
            stream,
            unique_id: 0,
            format,
            fps,
            is_default: false,
            kind: ProfileKind::Motion { intrinsics: None },
        }
    }

    /// A pose profile.
    pub fn pose(stream: StreamId, fps: u32) -> Self {
        StreamProfile {
            stream,
            unique_id: 0,
            format: Format::SixDof,
            fps,
            is_default: false,
            kind: ProfileKind::Pose,
        }
    }

    /// Width and height, for a video profile.
    pub fn resolution(&self) -> Option<(u32, u32)> {
        match self.kind {
            ProfileKind::Video { width, height, .. } => Some((width, height)),
            _ => None,
        }
    }

    /// Video intrinsics, where known.
    pub fn intrinsics(&self) -> Option<Intrinsics> {
        match self.kind {
            ProfileKind::Video { intrinsics, .. } => intrinsics,
            _ => None,
        }
    }

    /// IMU intrinsics, where known.
    pub fn motion_intrinsics(&self) -> Option<MotionIntrinsics> {
        match self.kind {
            ProfileKind::Motion { intrinsics } => intrinsics,
            _ => None,
        }
    }

    /// Whether `self` and `other` describe the same mode (stream, format,
    /// rate, resolution), whatever their ids and intrinsics.
    pub fn same_mode(&self, other: &StreamProfile) -> bool {
        self.stream == other.stream
            && self.format == other.format
            && self.fps == other.fps
            && self.resolution() == other.resolution()
    }

    /// This profile with the given unique id.
    pub fn with_unique_id(self, unique_id: u32) -> Self {
        StreamProfile { unique_id, ..self }
    }

    /// This profile marked as its stream's default.
    pub fn as_default(self) -> Self {
        StreamProfile {
            is_default: true,
            ..self
        }
    }

    /// This video profile with intrinsics (no change for other kinds).
    pub fn with_intrinsics(mut self, value: Intrinsics) -> Self {
        if let ProfileKind::Video { intrinsics, .. } = &mut self.kind {
            *intrinsics = Some(value);
        }
        self
    }

    /// This motion profile with IMU intrinsics (no change for other kinds).
    pub fn with_motion_intrinsics(mut self, value: MotionIntrinsics) -> Self {
        if let ProfileKind::Motion { intrinsics } = &mut self.kind {
            *intrinsics = Some(value);
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extrinsics_compose_and_invert() {
        // 90 degrees about z, column-major, then a translation.
        let a = Extrinsics {
            rotation: [0.0, 1.0, 0.0, -1.0, 0.0, 0.0, 0.0, 0.0, 1.0],
            translation: [1.0, 2.0, 3.0],
        };
        let p = [0.5, -0.25, 2.0];
        let q = a.transform(p);
        // x axis maps to y: (0.5, -0.25) -> (0.25, 0.5), plus t.
        assert_eq!(q, [1.25, 2.5, 5.0]);
        let back = a.inverse().transform(q);
        for i in 0..3 {
            assert!((back[i] - p[i]).abs() < 1e-6);
        }
        let both = a.then(&a.inverse());
        let r = both.transform(p);
        for i in 0..3 {
            assert!((r[i] - p[i]).abs() < 1e-6);
        }
        let b = Extrinsics::translation(0.0, 0.0, 1.0);
        assert_eq!(a.then(&b).transform(p), b.transform(a.transform(p)));
    }
}
