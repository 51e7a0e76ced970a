//! The RealSense ROS wrapper's `unite_imu_method`: gyro and accel samples
//! united into one `sensor_msgs/Imu` stream (`<ns>/imu`, frame
//! `camera_imu_optical_frame`), as realsense-ros 4.x does it
//! (`BaseRealSenseNode::FillImuData_Copy` and
//! `FillImuData_LinearInterpolation`).
//!
//! Both methods drive the output with the gyro: one united sample per gyro
//! sample, at the gyro sample's stamp, with its angular velocity. They
//! differ in the acceleration:
//! - [`UniteImu::Copy`]: the latest accel sample received before the gyro
//!   sample, unchanged; gyro samples before the first accel sample are
//!   dropped. A sample comes out at once, with its gyro sample.
//! - [`UniteImu::LinearInterpolation`]: gyro samples received between two
//!   accel samples `a0` and `a1` (and stamped at or after `a0`) get
//!   `a0 (1 - α) + a1 α`, `α = (t_gyro - t_a0) / (t_a1 - t_a0)`, in 64-bit
//!   floats on the nanosecond stamps. They come out when `a1` arrives.
//!   Gyro samples before the first accel sample, or stamped before the
//!   accel sample they follow, are dropped.
//!
//! As in the wrapper, "between" and "latest" follow the order samples are
//! received (here: the recording's order), not their stamps; a gyro sample
//! received late is extrapolated (`α` outside 0..1), never reordered.
//! Unlike the wrapper, the gyro samples waiting for the next accel sample
//! are bounded ([`MAX_WAITING`]): past it the oldest is dropped.

use std::collections::VecDeque;

/// How gyro and accel samples are united (the wrapper's
/// `unite_imu_method`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UniteImu {
    /// Each gyro sample with the latest accel sample.
    Copy,
    /// Each gyro sample with the accel interpolated at its stamp between
    /// the accel samples received around it.
    LinearInterpolation,
}

/// One gyro or accel sample: its stamp (ns) and vector.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct ImuSample {
    /// The header stamp the sample is published with, in nanoseconds.
    pub stamp_ns: u64,
    /// The measured vector (rad/s or m/s²).
    pub vector: [f32; 3],
}

/// One united sample: a gyro sample and the acceleration at its stamp.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct UnitedSample {
    /// The gyro sample's stamp, in nanoseconds.
    pub stamp_ns: u64,
    /// Angular velocity x, y, z in rad/s (the gyro sample's).
    pub angular_velocity: [f64; 3],
    /// Linear acceleration x, y, z in m/s².
    pub linear_acceleration: [f64; 3],
}

/// The wrapper's `frame_id` of the united samples, for its default camera
/// name (`camera`).
pub(crate) const IMU_OPTICAL_FRAME: &str = "camera_imu_optical_frame";

/// The body frame of the united samples, at the gyro's body frame.
pub(crate) const IMU_FRAME: &str = "camera_imu_frame";

/// The wrapper's default `linear_accel_cov` and `angular_velocity_cov`:
/// the diagonal of the united samples' covariances.
pub(crate) const DEFAULT_COVARIANCE: f64 = 0.01;

/// The most gyro samples kept waiting for the next accel sample.
pub const MAX_WAITING: usize = 4096;

/// Unites gyro and accel samples fed in the order they are received.
#[derive(Debug)]
pub(crate) struct Uniter {
    method: UniteImu,
    /// The accel sample the next gyro samples follow (the latest one).
    accel: Option<ImuSample>,
    /// Gyro samples received since `accel` (linear interpolation only).
    waiting: VecDeque<ImuSample>,
}

impl Uniter {
    /// A uniter by `method`, with no sample yet.
    pub fn new(method: UniteImu) -> Uniter {
        Uniter {
            method,
            accel: None,
            waiting: VecDeque::new(),
        }
    }

    /// A gyro sample: its united sample when the method makes one now
    /// (copy, after the first accel sample).
    pub fn push_gyro(&mut self, gyro: ImuSample) -> Option<UnitedSample> {
        // The wrapper's "set" test is a positive stamp.
        let accel = self.accel.filter(|a| a.stamp_ns > 0)?;
        match self.method {
            UniteImu::Copy => Some(united(gyro, accel.vector.map(f64::from))),
            UniteImu::LinearInterpolation => {
                if gyro.stamp_ns >= accel.stamp_ns {
                    if self.waiting.len() == MAX_WAITING {
                        self.waiting.pop_front();
                    }
                    self.waiting.push_back(gyro);
                }
                None
            }
        }
    }

    /// An accel sample: the united samples it completes (linear
    /// interpolation: the gyro samples received since the one before).
    pub fn push_accel(&mut self, accel: ImuSample) -> Vec<UnitedSample> {
        let before = self.accel.replace(accel);
        let Some(a0) = before.filter(|a| a.stamp_ns > 0) else {
            self.waiting.clear();
            return Vec::new();
        };
        let dt = accel.stamp_ns as f64 - a0.stamp_ns as f64;
        self.waiting
            .drain(..)
            .map(|gyro| {
                let alpha = (gyro.stamp_ns as f64 - a0.stamp_ns as f64) / dt;
                let lerp = std::array::from_fn(|i| {
                    f64::from(a0.vector[i]) * (1.0 - alpha) + f64::from(accel.vector[i]) * alpha
                });
                united(gyro, lerp)
            })
            .collect()
    }
}

fn united(gyro: ImuSample, linear_acceleration: [f64; 3]) -> UnitedSample {
    UnitedSample {
        stamp_ns: gyro.stamp_ns,
        angular_velocity: gyro.vector.map(f64::from),
        linear_acceleration,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(stamp_ns: u64, v: f32) -> ImuSample {
        ImuSample {
            stamp_ns,
            vector: [v, -v, 9.5],
        }
    }

    #[test]
    fn copy_pairs_each_gyro_sample_with_the_latest_accel() {
        let mut u = Uniter::new(UniteImu::Copy);
        assert_eq!(u.push_gyro(sample(5, 1.0)), None);
        assert!(u.push_accel(sample(10, 2.0)).is_empty());
        let s = u.push_gyro(sample(12, 3.0)).unwrap();
        assert_eq!(s.stamp_ns, 12);
        assert_eq!(s.angular_velocity, [3.0, -3.0, 9.5]);
        assert_eq!(s.linear_acceleration, [2.0, -2.0, 9.5]);
        // Received after a later accel sample but stamped before it: still
        // the latest one received, as the wrapper does.
        assert!(u.push_accel(sample(20, 4.0)).is_empty());
        assert_eq!(
            u.push_gyro(sample(15, 1.0)).unwrap().linear_acceleration[0],
            4.0
        );
    }

    #[test]
    fn interpolation_waits_for_the_next_accel_sample() {
        let mut u = Uniter::new(UniteImu::LinearInterpolation);
        assert_eq!(u.push_gyro(sample(5, 1.0)), None); // before any accel
        assert!(u.push_accel(sample(10, 2.0)).is_empty());
        assert_eq!(u.push_gyro(sample(10, 3.0)), None);
        assert_eq!(u.push_gyro(sample(15, 4.0)), None);
        let out = u.push_accel(sample(20, 4.0));
        let accel_x: Vec<f64> = out.iter().map(|s| s.linear_acceleration[0]).collect();
        let stamps: Vec<u64> = out.iter().map(|s| s.stamp_ns).collect();
        assert_eq!(stamps, [10, 15]);
        assert_eq!(accel_x, [2.0, 3.0]);
        assert_eq!(out[1].angular_velocity, [4.0, -4.0, 9.5]);
        // Stamped before the accel sample it follows: dropped.
        assert_eq!(u.push_gyro(sample(19, 1.0)), None);
        // Received before the next accel but stamped after it:
        // extrapolated.
        assert_eq!(u.push_gyro(sample(35, 1.0)), None);
        let out = u.push_accel(sample(30, 6.0));
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].linear_acceleration[0], 4.0 * -0.5 + 6.0 * 1.5);
    }

    #[test]
    fn waiting_gyro_samples_are_bounded() {
        let mut u = Uniter::new(UniteImu::LinearInterpolation);
        u.push_accel(sample(1, 0.0));
        for t in 0..(MAX_WAITING as u64 + 10) {
            u.push_gyro(sample(2 + t, 0.0));
        }
        let out = u.push_accel(sample(100_000, 0.0));
        assert_eq!(out.len(), MAX_WAITING);
        assert_eq!(out[0].stamp_ns, 12);
    }
}
