//! Gyro and accelerometer samples united at common times, the form
//! calibration tools (Kalibr, EuRoC datasets) read: one row per time with
//! angular velocity and linear acceleration.
//!
//! Separate Gyro and Accel streams (D400 cameras) run at different rates
//! and are never sampled together. As the RealSense ROS wrapper's
//! `unite_imu_method: linear_interpolation` does, each gyro sample is kept
//! as it is, at its own time, and the acceleration at that time is
//! linearly interpolated between the two accel samples around it. Unlike
//! the wrapper (which pairs samples in arrival order), the pairing here is
//! by timestamp: a gyro sample before the first or after the last accel
//! sample has no acceleration to interpolate and is dropped, never
//! extrapolated. The result equals `numpy.interp(gyro_times, accel_times,
//! accel_values)` per axis, computed in 64-bit floats.

use std::collections::VecDeque;

use crate::device::{Format, Frame, MotionSample};

/// One united IMU sample.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ImuRow {
    /// The time, in the frames' timestamp domain: milliseconds.
    pub timestamp_ms: f64,
    /// Angular velocity x, y, z in rad/s.
    pub gyro: [f64; 3],
    /// Linear acceleration x, y, z in m/s².
    pub accel: [f64; 3],
}

impl ImuRow {
    /// The timestamp in whole nanoseconds (rounded), the unit Kalibr and
    /// EuRoC files use; `None` for a negative or non-finite timestamp.
    pub fn timestamp_ns(&self) -> Option<u64> {
        let ns = (self.timestamp_ms * 1e6).round();
        (ns.is_finite() && ns >= 0.0 && ns < u64::MAX as f64).then_some(ns as u64)
    }
}

/// Samples that did not make a row, by why.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Dropped {
    /// Gyro samples before the first accel sample.
    pub before_accel: u64,
    /// Gyro samples after the last accel sample.
    pub after_accel: u64,
    /// Samples whose timestamp is not later than the one before them in
    /// their stream (a repeated or backward timestamp).
    pub out_of_order: u64,
}

/// Unites a gyro and an accel stream fed in any interleaving (each stream
/// in its own time order, as recorded): push samples, take the rows that
/// are ready, and [`ImuUniter::finish`] at the end.
///
/// It holds the gyro samples that wait for the next accel sample and the
/// accel samples around them: memory follows how far apart the two streams
/// are in the feeding order, not the recording's length.
#[derive(Debug, Default)]
pub struct ImuUniter {
    /// Gyro samples not yet united, in time order.
    gyro: VecDeque<(f64, MotionSample)>,
    /// Accel samples that later gyro samples may still need, in time
    /// order; the first is at or before the first waiting gyro sample.
    accel: VecDeque<(f64, MotionSample)>,
    /// The latest timestamp of each stream, to refuse one out of order.
    last_gyro: Option<f64>,
    last_accel: Option<f64>,
    /// United rows not yet taken.
    ready: VecDeque<ImuRow>,
    dropped: Dropped,
}

impl ImuUniter {
    /// An empty uniter.
    pub fn new() -> Self {
        ImuUniter::default()
    }

    /// A gyro sample (rad/s) at `timestamp_ms`.
    pub fn push_gyro(&mut self, timestamp_ms: f64, sample: MotionSample) {
        if in_order(&mut self.last_gyro, timestamp_ms) {
            self.gyro.push_back((timestamp_ms, sample));
            self.unite(false);
        } else {
            self.dropped.out_of_order += 1;
        }
    }

    /// An accel sample (m/s²) at `timestamp_ms`.
    pub fn push_accel(&mut self, timestamp_ms: f64, sample: MotionSample) {
        if in_order(&mut self.last_accel, timestamp_ms) {
            self.accel.push_back((timestamp_ms, sample));
            self.unite(false);
        } else {
            self.dropped.out_of_order += 1;
        }
    }

    /// The next united row, in time order, once it is known.
    pub fn pop(&mut self) -> Option<ImuRow> {
        self.ready.pop_front()
    }

    /// No more samples come: the rows still to take (gyro samples after
    /// the last accel sample are dropped), and what was dropped in all.
    pub fn finish(mut self) -> (Vec<ImuRow>, Dropped) {
        self.unite(true);
        (self.ready.into_iter().collect(), self.dropped)
    }

    /// Unite every waiting gyro sample whose accel neighbours are known;
    /// at the end of the input, drop those that never will be.
    fn unite(&mut self, end: bool) {
        while let Some(&(t, gyro)) = self.gyro.front() {
            // Accel samples wholly before this gyro sample are no longer
            // needed by it or any later one.
            while self.accel.len() >= 2 && self.accel[1].0 <= t {
                self.accel.pop_front();
            }
            let accel = match (self.accel.front(), self.accel.get(1)) {
                (None, _) if !end => return,
                (Some(&(t0, _)), _) if t < t0 => {
                    // `accel` only loses samples that are before a gyro
                    // sample, so this is the very first accel sample.
                    self.dropped.before_accel += 1;
                    None
                }
                (Some(&(t0, a0)), _) if t == t0 => Some(a0.map(f64::from)),
                (Some(&(t0, a0)), Some(&(t1, a1))) => Some(interpolate(t, (t0, a0), (t1, a1))),
                _ if !end => return,
                (None, _) => {
                    self.dropped.before_accel += 1;
                    None
                }
                (Some(_), None) => {
                    self.dropped.after_accel += 1;
                    None
                }
            };
            self.gyro.pop_front();
            if let Some(accel) = accel {
                self.ready.push_back(ImuRow {
                    timestamp_ms: t,
                    gyro: gyro.map(f64::from),
                    accel,
                });
            }
        }
    }
}

/// Whether `t` comes after `last` (and then it becomes the last).
fn in_order(last: &mut Option<f64>, t: f64) -> bool {
    if !t.is_finite() || last.is_some_and(|last| t <= last) {
        return false;
    }
    *last = Some(t);
    true
}

/// The value at `t` on the line through two samples, `t0 < t < t1`, in
/// the order of operations `numpy.interp` uses.
fn interpolate(t: f64, (t0, a0): (f64, MotionSample), (t1, a1): (f64, MotionSample)) -> [f64; 3] {
    std::array::from_fn(|axis| {
        let (v0, v1) = (f64::from(a0[axis]), f64::from(a1[axis]));
        let slope = (v1 - v0) / (t1 - t0);
        slope * (t - t0) + v0
    })
}

/// The angular velocity and linear acceleration of a COMBINED_MOTION frame
/// (librealsense 2.59's Motion stream, as rsbag reads an `Imu` topic of a
/// ROS camera bag): ten little-endian f64, orientation x, y, z, w, then
/// angular velocity x, y, z (rad/s), then linear acceleration x, y, z
/// (m/s²). `None` for another format or too few bytes.
pub fn combined_motion(frame: &Frame) -> Option<ImuRow> {
    if frame.profile.format != Format::CombinedMotion {
        return None;
    }
    let m = crate::device::CombinedMotion::from_bytes(&frame.data)?;
    Some(ImuRow {
        timestamp_ms: frame.timestamp,
        gyro: m.angular_velocity,
        accel: m.linear_acceleration,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unite(samples: &[(char, f64, f32)]) -> (Vec<ImuRow>, Dropped) {
        let mut uniter = ImuUniter::new();
        let mut rows = Vec::new();
        for &(kind, t, v) in samples {
            match kind {
                'g' => uniter.push_gyro(t, [v, -v, 0.5]),
                _ => uniter.push_accel(t, [v, 2.0 * v, 9.8]),
            }
            rows.extend(std::iter::from_fn(|| uniter.pop()));
        }
        let (rest, dropped) = uniter.finish();
        rows.extend(rest);
        (rows, dropped)
    }

    #[test]
    fn accel_is_interpolated_at_each_gyro_time_inside_the_accel_range() {
        let (rows, dropped) = unite(&[
            ('g', 0.5, 9.0), // before the first accel: dropped
            ('a', 1.0, 10.0),
            ('g', 1.0, 1.0), // at an accel sample: its value
            ('g', 1.5, 2.0),
            ('g', 2.5, 3.0), // waits for the accel at 3
            ('a', 2.0, 20.0),
            ('a', 3.0, 40.0),
            ('g', 3.0, 4.0),
            ('g', 3.5, 5.0), // after the last accel: dropped
        ]);
        let times: Vec<f64> = rows.iter().map(|r| r.timestamp_ms).collect();
        assert_eq!(times, [1.0, 1.5, 2.5, 3.0]);
        let accel_x: Vec<f64> = rows.iter().map(|r| r.accel[0]).collect();
        assert_eq!(accel_x, [10.0, 15.0, 30.0, 40.0]);
        assert_eq!(rows[1].accel, [15.0, 30.0, f64::from(9.8f32)]);
        assert_eq!(rows[1].gyro, [2.0, -2.0, 0.5]);
        assert_eq!(
            dropped,
            Dropped {
                before_accel: 1,
                after_accel: 1,
                out_of_order: 0
            }
        );
    }

    #[test]
    fn repeated_and_backward_timestamps_are_dropped() {
        let (rows, dropped) = unite(&[
            ('a', 1.0, 0.0),
            ('a', 1.0, 5.0),
            ('a', 3.0, 2.0),
            ('g', 2.0, 1.0),
            ('g', 1.5, 1.0),
            ('g', 2.0, 1.0),
        ]);
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].accel[0], 1.0);
        assert_eq!(dropped.out_of_order, 3);
    }

    #[test]
    fn without_accel_every_gyro_sample_is_dropped() {
        let (rows, dropped) = unite(&[('g', 1.0, 1.0), ('g', 2.0, 1.0)]);
        assert!(rows.is_empty());
        assert_eq!(dropped.before_accel, 2);
    }

    #[test]
    fn nanoseconds_are_rounded_and_never_negative() {
        let row = |timestamp_ms| ImuRow {
            timestamp_ms,
            gyro: [0.0; 3],
            accel: [0.0; 3],
        };
        assert_eq!(row(1004.9999999999999).timestamp_ns(), Some(1_005_000_000));
        assert_eq!(row(0.0000004).timestamp_ns(), Some(0));
        assert_eq!(row(-1.0).timestamp_ns(), None);
        assert_eq!(row(f64::NAN).timestamp_ns(), None);
    }
}
