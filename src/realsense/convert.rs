//! Conversions between the device model and the values librealsense stores
//! in ROS messages, done the way librealsense does them so that values
//! survive a round trip through either implementation.

use crate::device::Extrinsics;
use crate::msg::geometry_msgs::{Quaternion, Transform, Vector3};
use crate::msg::Time;

/// The ROS time librealsense writes for a frame timestamp in milliseconds
/// (`ros::Time::fromSec(ms / 1000)`: floor the seconds, round the
/// nanoseconds).
pub fn stamp_from_ms(ms: f64) -> Time {
    let secs = ms / 1000.0;
    if !secs.is_finite() || secs <= 0.0 {
        return Time::new(0, 0);
    }
    let whole = secs.floor();
    let mut sec = whole.min(f64::from(u32::MAX)) as u32;
    let mut nsec = ((secs - whole) * 1e9).round() as u64;
    sec = sec.saturating_add((nsec / 1_000_000_000) as u32);
    nsec %= 1_000_000_000;
    Time::new(sec, nsec as u32)
}

/// The timestamp in milliseconds librealsense reads from a ROS time
/// (`stamp.toSec()` as milliseconds).
pub fn ms_from_stamp(stamp: Time) -> f64 {
    (f64::from(stamp.sec) + 1e-9 * f64::from(stamp.nsec)) * 1000.0
}

/// A timestamp in milliseconds as recorded: where `ms` is what librealsense
/// reads from a ROS time ([`ms_from_stamp`]), the `f64` nearest that time's
/// exact decimal (librealsense reads the stamp 1.005000000 s as
/// `1004.9999999999999`; recorded, it is `1005.0`); any other value as it is.
/// librealsense writes text timestamps (`.db3`, poses) with six decimals,
/// which this leaves as they are.
pub fn ms_as_recorded(ms: f64) -> f64 {
    let stamp = stamp_from_ms(ms);
    if ms_from_stamp(stamp) != ms {
        return ms;
    }
    let whole_ms = u64::from(stamp.sec) * 1000 + u64::from(stamp.nsec / 1_000_000);
    let decimal = format!("{whole_ms}.{:06}", stamp.nsec % 1_000_000);
    decimal.parse().unwrap_or(ms)
}

/// Bag time of the device description: librealsense writes time zero as
/// the smallest valid ROS time, 1 ns.
pub const DESCRIPTION_TIME: u64 = 1;

/// The earliest bag time librealsense plays events (frames, option
/// changes, notifications) from; anything earlier is description.
pub const FIRST_EVENT_TIME: u64 = 2;

/// Bag time of a description message written `capture_ns` after the
/// recording started (time zero becomes [`DESCRIPTION_TIME`]).
pub fn bag_time(capture_ns: u64) -> u64 {
    capture_ns.max(DESCRIPTION_TIME)
}

/// Bag time of an event captured `capture_ns` after the recording
/// started: never earlier than [`FIRST_EVENT_TIME`], so that readers do not
/// take it for description.
pub(crate) fn event_bag_time(capture_ns: u64) -> u64 {
    capture_ns.max(FIRST_EVENT_TIME)
}

/// Extrinsics as the `geometry_msgs/Transform` librealsense writes.
pub(crate) fn transform_from_extrinsics(e: &Extrinsics) -> Transform {
    let [x, y, z] = e.translation.map(f64::from);
    Transform {
        translation: Vector3 { x, y, z },
        rotation: rotation_to_quaternion(&e.rotation),
    }
}

/// Extrinsics from a `geometry_msgs/Transform` as librealsense reads it.
pub(crate) fn extrinsics_from_transform(t: &Transform) -> Extrinsics {
    Extrinsics {
        rotation: quaternion_to_rotation(&t.rotation),
        translation: [
            t.translation.x as f32,
            t.translation.y as f32,
            t.translation.z as f32,
        ],
    }
}

/// Column-major rotation matrix to quaternion, following librealsense's
/// `rot2quat` (including its sign convention), so that the quaternions we
/// write equal the ones librealsense writes for the same matrix.
fn rotation_to_quaternion(r: &[f32; 9]) -> Quaternion {
    // librealsense indexes the column-major array as m[i][j] = r[3i + j].
    let m = |i: usize, j: usize| r[3 * i + j];
    let traces = [
        m(0, 0) + m(1, 1) + m(2, 2),
        m(0, 0) - m(1, 1) - m(2, 2),
        -m(0, 0) + m(1, 1) - m(2, 2),
        -m(0, 0) - m(1, 1) + m(2, 2),
    ];
    let [t0, t1, t2, t3] = traces;
    let (w, x, y, z);
    if t0 >= t1 && t0 >= t2 && t0 >= t3 {
        let s = 2.0 * (t0 + 1.0).sqrt();
        w = s / 4.0;
        x = (m(2, 1) - m(1, 2)) / s;
        y = (m(0, 2) - m(2, 0)) / s;
        z = (m(1, 0) - m(0, 1)) / s;
    } else if t1 >= t2 && t1 >= t3 {
        let s = 2.0 * (t1 + 1.0).sqrt();
        w = (m(2, 1) - m(1, 2)) / s;
        x = s / 4.0;
        y = (m(1, 0) + m(0, 1)) / s;
        z = (m(2, 0) + m(0, 2)) / s;
    } else if t2 >= t3 {
        let s = 2.0 * (t2 + 1.0).sqrt();
        w = (m(0, 2) - m(2, 0)) / s;
        x = (m(1, 0) + m(0, 1)) / s;
        y = s / 4.0;
        z = (m(1, 2) + m(2, 1)) / s;
    } else {
        let s = 2.0 * (t3 + 1.0).sqrt();
        w = (m(1, 0) - m(0, 1)) / s;
        x = (m(0, 2) + m(2, 0)) / s;
        y = (m(1, 2) + m(2, 1)) / s;
        z = s / 4.0;
    }
    Quaternion {
        x: f64::from(x),
        y: f64::from(y),
        z: f64::from(z),
        w: f64::from(-w),
    }
}

/// Quaternion to column-major rotation matrix, as librealsense's
/// `quat2rot` computes it: in `f64` (the message's), each element then
/// stored as `f32` (as librealsense stores extrinsics). Computing in `f32`
/// gives elements an ulp apart, enough to move an aligned pixel.
fn quaternion_to_rotation(q: &Quaternion) -> [f32; 9] {
    let (x, y, z, w) = (q.x, q.y, q.z, q.w);
    [
        1.0 - 2.0 * y * y - 2.0 * z * z,
        2.0 * x * y + 2.0 * z * w,
        2.0 * x * z - 2.0 * y * w,
        2.0 * x * y - 2.0 * z * w,
        1.0 - 2.0 * x * x - 2.0 * z * z,
        2.0 * y * z + 2.0 * x * w,
        2.0 * x * z + 2.0 * y * w,
        2.0 * y * z - 2.0 * x * w,
        1.0 - 2.0 * x * x - 2.0 * y * y,
    ]
    .map(|element| element as f32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_round_trip_to_the_nanosecond() {
        for ms in [
            0.0,
            33.3,
            1000.0,
            5011.111,
            1_700_000_000_123.456,
            66.60000000000001,
        ] {
            let back = ms_from_stamp(stamp_from_ms(ms));
            assert!((back - ms).abs() < 1e-6 * ms.max(1.0), "{ms} -> {back}");
        }
        assert_eq!(stamp_from_ms(5011.111), Time::new(5, 11_111_000));
        // What librealsense plays for a stamp of 0 s 33300000 ns.
        assert_eq!(ms_from_stamp(Time::new(0, 33_300_000)), 33.300000000000004);
    }

    #[test]
    fn a_timestamp_as_recorded_is_its_stamps_decimal() {
        assert_eq!(ms_as_recorded(1004.9999999999999), 1005.0);
        assert_eq!(ms_as_recorded(33.300000000000004), 33.3);
        assert_eq!(ms_as_recorded(1700000000033.3), 1700000000033.3);
        // Not the reading of any stamp (more than nanoseconds): unchanged.
        assert_eq!(ms_as_recorded(1.23456789), 1.23456789);
        assert_eq!(ms_as_recorded(0.0), 0.0);
    }

    #[test]
    fn rotations_survive_the_quaternion() {
        let rotations = [
            Extrinsics::IDENTITY.rotation,
            // 90 degrees about z, column-major.
            [0.0, 1.0, 0.0, -1.0, 0.0, 0.0, 0.0, 0.0, 1.0],
            // 180 degrees about x.
            [1.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, -1.0],
            // A small rotation about y.
            [0.9998, 0.0, -0.02, 0.0, 1.0, 0.0, 0.02, 0.0, 0.9998],
        ];
        for rotation in rotations {
            let e = Extrinsics {
                rotation,
                translation: [0.1, -0.2, 0.3],
            };
            let back = extrinsics_from_transform(&transform_from_extrinsics(&e));
            for i in 0..9 {
                assert!(
                    (back.rotation[i] - rotation[i]).abs() < 1e-3,
                    "{rotation:?} -> {back:?}"
                );
            }
            assert_eq!(back.translation, e.translation);
        }
    }
}
