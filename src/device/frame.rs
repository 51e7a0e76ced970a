//! Frames: what a stream delivers.

use bytes::Bytes;

use super::names::metadata_key::MetadataKey;
use super::names::TimestampDomain;
use super::profile::{ProfileKind, StreamProfile};

/// One frame of a stream: an image, an IMU sample or a pose.
///
/// The payload is always bytes laid out as librealsense lays them out
/// (pixels with `stride` bytes per row; three little-endian `f32` for a
/// motion sample; an `rs2_pose` for a pose), so frames from a camera, a
/// recorder and a playback compare byte for byte. [`Frame::motion`] and
/// [`Frame::pose`] read the typed values. `data` is a cheap handle: cloning
/// a frame does not copy its pixels, and frames played from an
/// uncompressed bag borrow them from the file.
#[derive(Debug, Clone, PartialEq)]
pub struct Frame {
    /// The profile of the stream this frame belongs to.
    pub profile: StreamProfile,
    /// Frame number, counted by the device.
    pub number: u64,
    /// Timestamp in milliseconds, in `domain`.
    pub timestamp: f64,
    /// Which clock `timestamp` comes from.
    pub domain: TimestampDomain,
    /// Host time (ms since the Unix epoch) when the frame arrived.
    pub system_time: f64,
    /// Per-frame metadata, librealsense key names to values (see
    /// [`MetadataKey`]).
    pub metadata: Vec<(MetadataKey, i64)>,
    /// Bytes per image row (0 for non-image frames).
    pub stride: u32,
    /// The payload.
    pub data: Bytes,
}

/// An IMU sample (`MOTION_XYZ32F`): x, y, z.
pub type MotionSample = [f32; 3];

/// A 6-DoF pose (`rs2_pose`).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Pose {
    /// Translation in meters.
    pub translation: [f32; 3],
    /// Velocity in m/s.
    pub velocity: [f32; 3],
    /// Acceleration in m/s².
    pub acceleration: [f32; 3],
    /// Rotation quaternion x, y, z, w.
    pub rotation: [f32; 4],
    /// Angular velocity in rad/s.
    pub angular_velocity: [f32; 3],
    /// Angular acceleration in rad/s².
    pub angular_acceleration: [f32; 3],
    /// Tracker confidence (0 failed … 3 high).
    pub tracker_confidence: u32,
    /// Mapper confidence (0 failed … 3 high).
    pub mapper_confidence: u32,
}

impl Pose {
    /// Size of `rs2_pose` in bytes.
    pub const SIZE: usize = 84;

    /// The pose as `rs2_pose` bytes (little-endian).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(Self::SIZE);
        let floats = self
            .translation
            .iter()
            .chain(&self.velocity)
            .chain(&self.acceleration)
            .chain(&self.rotation)
            .chain(&self.angular_velocity)
            .chain(&self.angular_acceleration);
        for f in floats {
            out.extend_from_slice(&f.to_le_bytes());
        }
        out.extend_from_slice(&self.tracker_confidence.to_le_bytes());
        out.extend_from_slice(&self.mapper_confidence.to_le_bytes());
        out
    }

    /// Read `rs2_pose` bytes; `None` when there are fewer than
    /// [`Pose::SIZE`].
    pub fn from_bytes(bytes: &[u8]) -> Option<Pose> {
        if bytes.len() < Self::SIZE {
            return None;
        }
        let f = |i: usize| f32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        let v3 = |at: usize| [f(at), f(at + 4), f(at + 8)];
        let u = |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        Some(Pose {
            translation: v3(0),
            velocity: v3(12),
            acceleration: v3(24),
            rotation: [f(36), f(40), f(44), f(48)],
            angular_velocity: v3(52),
            angular_acceleration: v3(64),
            tracker_confidence: u(76),
            mapper_confidence: u(80),
        })
    }
}

/// The bytes of a motion sample.
pub fn motion_bytes(sample: MotionSample) -> Vec<u8> {
    sample.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// A COMBINED_MOTION sample: librealsense 2.59's Motion stream, and how
/// rsbag reads an `Imu` topic of a ROS camera bag. Its bytes are ten
/// little-endian f64: orientation x, y, z, w, angular velocity x, y, z
/// (rad/s), linear acceleration x, y, z (m/s²).
///
/// ```
/// use rsbag::device::CombinedMotion;
/// let m = CombinedMotion {
///     orientation: [0.0, 0.0, 0.0, 1.0],
///     angular_velocity: [0.1, 0.2, 0.3],
///     linear_acceleration: [0.0, -9.8, 0.0],
/// };
/// assert_eq!(CombinedMotion::from_bytes(&m.to_bytes()), Some(m));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct CombinedMotion {
    /// Orientation quaternion x, y, z, w.
    pub orientation: [f64; 4],
    /// Angular velocity, rad/s.
    pub angular_velocity: [f64; 3],
    /// Linear acceleration, m/s².
    pub linear_acceleration: [f64; 3],
}

impl CombinedMotion {
    /// Its 80 bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.orientation
            .iter()
            .chain(&self.angular_velocity)
            .chain(&self.linear_acceleration)
            .flat_map(|v| v.to_le_bytes())
            .collect()
    }

    /// The sample in `data`; `None` for fewer than 80 bytes.
    pub fn from_bytes(data: &[u8]) -> Option<CombinedMotion> {
        let bytes = data.get(..80)?;
        let value = |i: usize| {
            let mut v = [0; 8];
            v.copy_from_slice(&bytes[i * 8..i * 8 + 8]);
            f64::from_le_bytes(v)
        };
        Some(CombinedMotion {
            orientation: [value(0), value(1), value(2), value(3)],
            angular_velocity: [value(4), value(5), value(6)],
            linear_acceleration: [value(7), value(8), value(9)],
        })
    }
}

impl Frame {
    /// Width and height, for a video frame.
    pub fn resolution(&self) -> Option<(u32, u32)> {
        self.profile.resolution()
    }

    /// The IMU sample of a motion frame.
    pub fn motion(&self) -> Option<MotionSample> {
        if !matches!(self.profile.kind, ProfileKind::Motion { .. }) || self.data.len() < 12 {
            return None;
        }
        let f = |i: usize| {
            f32::from_le_bytes([
                self.data[i],
                self.data[i + 1],
                self.data[i + 2],
                self.data[i + 3],
            ])
        };
        Some([f(0), f(4), f(8)])
    }

    /// The pose of a pose frame.
    pub fn pose(&self) -> Option<Pose> {
        match self.profile.kind {
            ProfileKind::Pose => Pose::from_bytes(&self.data),
            _ => None,
        }
    }

    /// The value of metadata `key`, if the frame has it.
    pub fn metadata(&self, key: &str) -> Option<i64> {
        self.metadata
            .iter()
            .find(|(k, _)| k == key)
            .map(|&(_, v)| v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pose_bytes_round_trip() {
        let pose = Pose {
            translation: [1.0, 2.0, 3.0],
            velocity: [4.0, 5.0, 6.0],
            acceleration: [7.0, 8.0, 9.0],
            rotation: [0.0, 0.0, 0.0, 1.0],
            angular_velocity: [0.1, 0.2, 0.3],
            angular_acceleration: [0.4, 0.5, 0.6],
            tracker_confidence: 3,
            mapper_confidence: 2,
        };
        let bytes = pose.to_bytes();
        assert_eq!(bytes.len(), Pose::SIZE);
        assert_eq!(Pose::from_bytes(&bytes), Some(pose));
        assert_eq!(Pose::from_bytes(&bytes[..83]), None);
    }
}
