//! The `key=value;key=value` strings librealsense 2.58+ writes in a `.db3`
//! (in `std_msgs/msg/String`) where a `.bag` has RealSense or diagnostic
//! message types: device and sensor info, stream info, intrinsics,
//! extrinsics, per-frame metadata and notifications. Both ways.
//!
//! librealsense writes no escaping. Reading splits at `;` and at the first
//! `=` of each field, and a field without `=` continues the previous value
//! (so a value holding `;` survives when what follows it has no `=`); a
//! value holding `=` is always kept whole. Numbers are parsed as
//! librealsense parses them (`strtod`/`stof`): `0.001000` plays as 0.001.

use std::borrow::Cow;

use crate::device::{Distortion, Extrinsics, Intrinsics, MotionIntrinsics, Notification, Pose};

/// The fields of a `key=value;...` string, in order. Bytes that are not
/// UTF-8 are replaced, not an error.
pub fn fields(text: &[u8]) -> Vec<(String, String)> {
    let text = String::from_utf8_lossy(text);
    let mut out: Vec<(String, String)> = Vec::new();
    for part in text.split(';') {
        match part.split_once('=') {
            Some((key, value)) => out.push((key.to_owned(), value.to_owned())),
            None if part.is_empty() => {}
            None => match out.last_mut() {
                Some((_, value)) => {
                    value.push(';');
                    value.push_str(part);
                }
                None => out.push((part.to_owned(), String::new())),
            },
        }
    }
    out
}

/// The value of `key` in `fields`.
pub fn get<'f>(fields: &'f [(String, String)], key: &str) -> Option<&'f str> {
    fields
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}

/// A field parsed as a number, if it is there and parses.
pub fn number<T: std::str::FromStr>(fields: &[(String, String)], key: &str) -> Option<T> {
    get(fields, key)?.trim().parse().ok()
}

/// A comma-separated list of numbers; `None` if any does not parse.
pub fn numbers<T: std::str::FromStr>(fields: &[(String, String)], key: &str) -> Option<Vec<T>> {
    get(fields, key)?
        .split(',')
        .map(|v| v.trim().parse().ok())
        .collect()
}

/// Join fields as `key=value;key=value`.
pub fn join<'a>(fields: impl IntoIterator<Item = (&'a str, Cow<'a, str>)>) -> String {
    fields
        .into_iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(";")
}

/// A float in the shortest form that reads back as the same `f32`
/// (librealsense prints intrinsics with 9 significant digits, which reads
/// back the same).
pub fn exact_f32(v: f32) -> String {
    v.to_string()
}

/// `a,b,c` of floats printed exactly.
fn list(values: &[f32]) -> String {
    values
        .iter()
        .map(|&v| exact_f32(v))
        .collect::<Vec<_>>()
        .join(",")
}

/// Video intrinsics from a stream's `camera_info` string.
pub fn parse_intrinsics(text: &[u8]) -> Option<Intrinsics> {
    let f = fields(text);
    let mut coeffs = [0.0f32; 5];
    for (c, v) in coeffs.iter_mut().zip(numbers::<f32>(&f, "coeffs")?) {
        *c = v;
    }
    Some(Intrinsics {
        width: number(&f, "width")?,
        height: number(&f, "height")?,
        fx: number(&f, "fx")?,
        ppx: number(&f, "ppx")?,
        fy: number(&f, "fy")?,
        ppy: number(&f, "ppy")?,
        model: get(&f, "model")
            .and_then(Distortion::from_name)
            .unwrap_or(Distortion::None),
        coeffs,
    })
}

/// A stream's `camera_info` string.
pub fn format_intrinsics(i: &Intrinsics) -> String {
    join([
        ("width", i.width.to_string().into()),
        ("height", i.height.to_string().into()),
        ("fx", exact_f32(i.fx).into()),
        ("ppx", exact_f32(i.ppx).into()),
        ("fy", exact_f32(i.fy).into()),
        ("ppy", exact_f32(i.ppy).into()),
        ("model", i.model.name().into()),
        ("coeffs", list(&i.coeffs).into()),
    ])
}

/// IMU intrinsics from a stream's `imu_intrinsic` string.
pub fn parse_motion_intrinsics(text: &[u8]) -> Option<MotionIntrinsics> {
    let f = fields(text);
    let data = numbers::<f32>(&f, "data")?;
    let bias = numbers::<f32>(&f, "bias_variances")?;
    let noise = numbers::<f32>(&f, "noise_variances")?;
    if data.len() != 12 || bias.len() != 3 || noise.len() != 3 {
        return None;
    }
    let mut i = MotionIntrinsics::default();
    for (row, values) in i.data.iter_mut().enumerate() {
        values.copy_from_slice(&data[row * 4..row * 4 + 4]);
    }
    i.bias_variances.copy_from_slice(&bias);
    i.noise_variances.copy_from_slice(&noise);
    Some(i)
}

/// A stream's `imu_intrinsic` string.
pub fn format_motion_intrinsics(i: &MotionIntrinsics) -> String {
    let data: Vec<f32> = i.data.iter().flatten().copied().collect();
    join([
        ("data", list(&data).into()),
        ("bias_variances", list(&i.bias_variances).into()),
        ("noise_variances", list(&i.noise_variances).into()),
    ])
}

/// Extrinsics from a stream's `tf/ref_N` string.
pub fn parse_extrinsics(text: &[u8]) -> Option<Extrinsics> {
    let f = fields(text);
    let rotation = numbers::<f32>(&f, "rotation")?;
    let translation = numbers::<f32>(&f, "translation")?;
    Some(Extrinsics {
        rotation: rotation.try_into().ok()?,
        translation: translation.try_into().ok()?,
    })
}

/// A stream's `tf/ref_N` string.
pub fn format_extrinsics(e: &Extrinsics) -> String {
    join([
        ("rotation", list(&e.rotation).into()),
        ("translation", list(&e.translation).into()),
    ])
}

/// A pose from the string rsbag writes for a pose frame in a `.db3`.
pub fn parse_pose(text: &[u8]) -> Option<Pose> {
    let f = fields(text);
    let three = |key: &str| -> Option<[f32; 3]> { numbers::<f32>(&f, key)?.try_into().ok() };
    Some(Pose {
        translation: three("translation")?,
        velocity: three("velocity")?,
        acceleration: three("acceleration")?,
        rotation: numbers::<f32>(&f, "rotation")?.try_into().ok()?,
        angular_velocity: three("angular_velocity")?,
        angular_acceleration: three("angular_acceleration")?,
        tracker_confidence: number(&f, "tracker_confidence")?,
        mapper_confidence: number(&f, "mapper_confidence")?,
    })
}

/// The string of a pose frame in a `.db3`: translation (m), rotation
/// (quaternion x, y, z, w), velocity, acceleration, angular velocity,
/// angular acceleration and the two confidences, every float exact.
pub fn format_pose(p: &Pose) -> String {
    join([
        ("translation", list(&p.translation).into()),
        ("rotation", list(&p.rotation).into()),
        ("velocity", list(&p.velocity).into()),
        ("acceleration", list(&p.acceleration).into()),
        ("angular_velocity", list(&p.angular_velocity).into()),
        ("angular_acceleration", list(&p.angular_acceleration).into()),
        (
            "tracker_confidence",
            p.tracker_confidence.to_string().into(),
        ),
        ("mapper_confidence", p.mapper_confidence.to_string().into()),
    ])
}

/// The keys of a notification string, in the order librealsense writes
/// them; `data` is last and may hold anything (JSON).
const NOTIFICATION_KEYS: [&str; 5] = ["category", "severity", "description", "timestamp", "data"];

/// A notification from its string. Each value runs to the next expected
/// `;key=`, so a description holding `;` or `=` is kept whole, and the
/// serialized data after `data=` is taken as it is.
pub fn parse_notification(text: &[u8]) -> Notification {
    let text = String::from_utf8_lossy(text);
    let mut values = [""; 5];
    let mut rest: &str = &text;
    for (i, key) in NOTIFICATION_KEYS.iter().enumerate() {
        let Some(start) = rest.strip_prefix(&format!("{key}=")[..]) else {
            continue;
        };
        let end = NOTIFICATION_KEYS[i + 1..]
            .iter()
            .find_map(|next| start.find(&format!(";{next}=")[..]))
            .unwrap_or(start.len());
        values[i] = &start[..end];
        rest = start[end..].strip_prefix(';').unwrap_or("");
    }
    Notification {
        category: values[0].to_owned(),
        severity: values[1].to_owned(),
        description: values[2].to_owned(),
        timestamp: values[3].trim().parse().unwrap_or(0.0),
        serialized_data: values[4].to_owned(),
    }
}

/// A notification's string.
pub fn format_notification(n: &Notification) -> String {
    join([
        ("category", Cow::from(&n.category[..])),
        ("severity", Cow::from(&n.severity[..])),
        ("description", Cow::from(&n.description[..])),
        ("timestamp", format!("{}", n.timestamp).into()),
        ("data", Cow::from(&n.serialized_data[..])),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_split_at_semicolons_and_the_first_equals() {
        let f = fields(b"Name=A;B=x=y;Serial Number=1;2;");
        assert_eq!(get(&f, "Name"), Some("A"));
        assert_eq!(get(&f, "B"), Some("x=y"));
        assert_eq!(get(&f, "Serial Number"), Some("1;2"));
        assert_eq!(fields(b"bad\xffbyte=1")[0].0, "bad\u{fffd}byte");
    }

    #[test]
    fn intrinsics_extrinsics_and_imu_read_back_exactly() {
        let i = Intrinsics {
            width: 64,
            height: 48,
            fx: 400.5,
            ppx: 31.5,
            fy: 401.25,
            ppy: 24.25,
            model: Distortion::BrownConrady,
            coeffs: [0.1, -0.2, 0.001, 0.002, 1.25e-5],
        };
        assert_eq!(parse_intrinsics(format_intrinsics(&i).as_bytes()), Some(i));
        let e = Extrinsics {
            rotation: [0.0, -1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0],
            translation: [0.015, 0.001, -1e-7],
        };
        assert_eq!(parse_extrinsics(format_extrinsics(&e).as_bytes()), Some(e));
        let mut m = MotionIntrinsics::default();
        m.data[1][3] = -0.02;
        m.noise_variances = [1e-4, 2e-4, 3e-4];
        m.bias_variances = [1e-6, 2e-6, 3e-6];
        assert_eq!(
            parse_motion_intrinsics(format_motion_intrinsics(&m).as_bytes()),
            Some(m)
        );
        // librealsense's own text, 9 significant digits.
        let theirs = b"width=64;height=48;fx=400.5;ppx=31.5;fy=401.25;ppy=24.25;model=Brown Conrady;coeffs=0.100000001,-0.200000003,0.00100000005,0.00200000009,0.0299999993";
        let parsed = parse_intrinsics(theirs).expect("parses");
        assert_eq!(parsed.coeffs, [0.1, -0.2, 0.001, 0.002, 0.03]);
    }

    #[test]
    fn poses_read_back_exactly() {
        let p = Pose {
            translation: [0.01, -0.002, 0.5],
            rotation: [0.0, 0.1, 0.0, 0.994_987_4],
            velocity: [0.2, -0.04, 0.02],
            acceleration: [0.0, 0.01, -0.01],
            angular_velocity: [0.0, 2.0, 0.0],
            angular_acceleration: [0.1, 0.0, 1e-9],
            tracker_confidence: 3,
            mapper_confidence: 2,
        };
        assert_eq!(parse_pose(format_pose(&p).as_bytes()), Some(p));
    }

    #[test]
    fn notifications_keep_separators_in_their_text() {
        let n = Notification {
            category: "Frames Timeout".into(),
            severity: "Warn".into(),
            description: "a;b=c".into(),
            timestamp: 1234.5,
            serialized_data: "{\"x\":1;\"y\"=2}".into(),
        };
        assert_eq!(parse_notification(format_notification(&n).as_bytes()), n);
        let odd =
            parse_notification(b"category=X;severity=Info;description=\xff;timestamp=1e+03;data=");
        assert_eq!(odd.description, "\u{fffd}");
        assert_eq!(odd.timestamp, 1000.0);
    }
}
