//! Frames and notifications from the messages librealsense records: one
//! function per message shape, each taking the message's bytes, whatever
//! storage they were read from.

use bytes::Bytes;

use crate::device::{
    metadata_key, CombinedMotion, Format, Frame, Notification, Pose, ProfileKind, StreamKind,
    StreamProfile, TimestampDomain,
};
use crate::msg::diagnostic_msgs::KeyValue;
use crate::msg::geometry_msgs::{Accel, Transform, Twist};
use crate::msg::realsense_msgs;
use crate::msg::sensor_msgs::{Image, Imu};
use crate::msg::{ros2, RosMessage};
use crate::realsense::convert::ms_from_stamp;
use crate::realsense::{images, metadata_keys, strings};
use crate::Result;

/// A frame of `profile` with nothing in it yet.
fn empty_frame(profile: StreamProfile) -> Frame {
    Frame {
        profile,
        number: 0,
        timestamp: 0.0,
        domain: TimestampDomain::HardwareClock,
        system_time: 0.0,
        metadata: Vec::new(),
        stride: 0,
        data: Bytes::new(),
    }
}

/// A video frame from a ROS1 `sensor_msgs/Image`; the pixels are a slice of
/// `data`, not a copy.
pub(crate) fn video_frame(profile: StreamProfile, data: &Bytes) -> Result<Frame> {
    let image = Image::decode(data)?;
    let pixels = match &image.data {
        std::borrow::Cow::Borrowed(slice) => data.slice_ref(slice),
        std::borrow::Cow::Owned(vec) => Bytes::from(vec.clone()),
    };
    check_image(
        "sensor_msgs/Image",
        profile.format,
        (image.width, image.height, image.step),
        pixels.len(),
    )?;
    let mut frame = empty_frame(profile);
    if let ProfileKind::Video { width, height, .. } = &mut frame.profile.kind {
        // The image is authoritative for its own size.
        *width = image.width;
        *height = image.height;
    }
    frame.number = u64::from(image.header.seq);
    frame.timestamp = ms_from_stamp(image.header.stamp);
    frame.stride = image.step;
    frame.data = pixels;
    Ok(frame)
}

/// An error unless an image of `(width, height, step)` in `format` is
/// held by `len` bytes: no side of it 0, and every row there. An image
/// whose header claims more than its bytes (2147483647x2147483647 for
/// 6 KiB) is damage, found where it is read, not by what later makes a
/// picture of it.
fn check_image(
    msg_type: &'static str,
    format: Format,
    (width, height, step): (u32, u32, u32),
    len: usize,
) -> Result<()> {
    if width == 0 || height == 0 {
        return Err(crate::Error::decode(
            msg_type,
            format!("an empty image ({width}x{height}) in {len} bytes"),
        ));
    }
    let row = (format.bytes_per_pixel())
        .map_or(0, |bpp| u64::from(width) * u64::from(bpp))
        .max(u64::from(step));
    let needed = row * u64::from(height);
    if (len as u64) < needed {
        return Err(crate::Error::decode(
            msg_type,
            format!(
                "an image of {width}x{height} {format} (step {step}) needs {needed} bytes, the message holds {len}"
            ),
        ));
    }
    Ok(())
}

/// A motion frame (accel or gyro) from a ROS1 `sensor_msgs/Imu`.
pub(crate) fn motion_frame(profile: StreamProfile, data: &[u8]) -> Result<Frame> {
    let imu = Imu::decode(data)?;
    let v = match profile.stream.kind {
        StreamKind::Gyro => imu.angular_velocity,
        _ => imu.linear_acceleration,
    };
    let mut frame = empty_frame(profile);
    frame.number = u64::from(imu.header.seq);
    frame.timestamp = ms_from_stamp(imu.header.stamp);
    frame.data = crate::device::motion_bytes([v.x as f32, v.y as f32, v.z as f32]).into();
    Ok(frame)
}

/// A pose frame from its transform, acceleration and twist messages (the
/// latter two may be missing) and its metadata, which carries the frame
/// number, timestamp and confidences.
pub(crate) fn pose_frame(
    profile: StreamProfile,
    transform: &[u8],
    accel: Option<&[u8]>,
    twist: Option<&[u8]>,
    metadata: &[KeyValue<'_>],
) -> Result<Frame> {
    let transform = Transform::decode(transform)?;
    let accel = accel.map(Accel::decode).transpose()?.unwrap_or_default();
    let twist = twist.map(Twist::decode).transpose()?.unwrap_or_default();
    let v = |v: crate::msg::geometry_msgs::Vector3| [v.x as f32, v.y as f32, v.z as f32];
    let q = transform.rotation;
    let mut pose = Pose {
        translation: v(transform.translation),
        velocity: v(twist.linear),
        acceleration: v(accel.linear),
        rotation: [q.x as f32, q.y as f32, q.z as f32, q.w as f32],
        angular_velocity: v(twist.angular),
        angular_acceleration: v(accel.angular),
        ..Pose::default()
    };
    let mut frame = empty_frame(profile);
    for kv in metadata {
        let value = kv.value.trim();
        match kv.key.as_ref() {
            metadata_keys::TRACKER_CONFIDENCE => {
                pose.tracker_confidence = value.parse().unwrap_or(0)
            }
            metadata_keys::MAPPER_CONFIDENCE => pose.mapper_confidence = value.parse().unwrap_or(0),
            metadata_keys::FRAME_TIMESTAMP => frame.timestamp = value.parse().unwrap_or(0.0),
            metadata_keys::FRAME_NUMBER => frame.number = value.parse().unwrap_or(0),
            _ => {}
        }
    }
    frame.data = pose.to_bytes().into();
    Ok(frame)
}

/// Apply the per-frame metadata librealsense understands: the timestamp
/// domain, the system time and numeric values.
pub(crate) fn apply_metadata(frame: &mut Frame, metadata: &[KeyValue<'_>]) {
    frame.metadata.reserve(metadata.len());
    for kv in metadata {
        match kv.key.as_ref() {
            // The pose's own, read by `pose_frame`.
            metadata_keys::TRACKER_CONFIDENCE
            | metadata_keys::MAPPER_CONFIDENCE
            | metadata_keys::FRAME_TIMESTAMP
            | metadata_keys::FRAME_NUMBER => {}
            key => apply_value(frame, key, kv.value.trim()),
        }
    }
}

/// A metadata value both layouts carry: the timestamp domain, the system
/// time, or a numeric value under librealsense's name.
fn apply_value(frame: &mut Frame, key: &str, value: &str) {
    match key {
        metadata_keys::TIMESTAMP_DOMAIN => {
            if let Some(domain) = TimestampDomain::from_name(value) {
                frame.domain = domain;
            }
        }
        metadata_keys::SYSTEM_TIME => frame.system_time = value.parse().unwrap_or(0.0),
        key => {
            if let Ok(v) = value.parse::<i64>() {
                frame.metadata.push((metadata_key::key(key), v));
            }
        }
    }
}

/// A frame of a `.db3` from its CDR data message: `sensor_msgs/msg/Image`,
/// `CompressedImage` (`compressed`) or `Imu`. The frame number, timestamp
/// and domain come from its metadata ([`apply_cdr_metadata`]).
pub(crate) fn cdr_frame(profile: StreamProfile, data: &Bytes, compressed: bool) -> Result<Frame> {
    let mut frame = empty_frame(profile);
    match profile.kind {
        ProfileKind::Video { .. } => {
            let (width, height) = if compressed {
                let image = ros2::CompressedImage::decode(data)?;
                let pixels = images::decompress(image.format, image.data, profile.format)?;
                frame.stride = pixels.stride;
                frame.data = Bytes::from(pixels.data);
                (pixels.width, pixels.height)
            } else {
                let image = ros2::Image::decode(data)?;
                check_image(
                    "sensor_msgs/msg/Image",
                    profile.format,
                    (image.width, image.height, image.step),
                    image.data.len(),
                )?;
                frame.stride = image.step;
                frame.data = data.slice_ref(image.data);
                (image.width, image.height)
            };
            if let ProfileKind::Video {
                width: w,
                height: h,
                ..
            } = &mut frame.profile.kind
            {
                // The image is authoritative for its own size.
                (*w, *h) = (width, height);
            }
        }
        ProfileKind::Motion { .. } => {
            let imu = ros2::Imu::decode(data)?;
            if profile.format == Format::CombinedMotion {
                let m = CombinedMotion {
                    orientation: imu.orientation,
                    angular_velocity: imu.angular_velocity,
                    linear_acceleration: imu.linear_acceleration,
                };
                frame.data = m.to_bytes().into();
                return Ok(frame);
            }
            let v = match profile.stream.kind {
                StreamKind::Gyro => imu.angular_velocity,
                _ => imu.linear_acceleration,
            };
            frame.data =
                crate::device::motion_bytes([v[0] as f32, v[1] as f32, v[2] as f32]).into();
        }
        ProfileKind::Pose => {
            frame.data = pose_from_cdr(data)?.to_bytes().into();
        }
    }
    Ok(frame)
}

/// The ROS 2 type of a `.db3` frame's data message, as [`cdr_frame`]
/// reads it.
pub(crate) fn cdr_type(profile: StreamProfile, compressed: bool) -> &'static str {
    match profile.kind {
        ProfileKind::Video { .. } if compressed => ros2::COMPRESSED_IMAGE,
        ProfileKind::Video { .. } => ros2::IMAGE,
        ProfileKind::Motion { .. } => ros2::IMU,
        ProfileKind::Pose => ros2::STRING,
    }
}

/// Apply the metadata string of a `.db3` frame: the frame number,
/// timestamp and domain librealsense keeps only there, the system time,
/// and the numeric metadata.
pub(crate) fn apply_cdr_metadata(frame: &mut Frame, data: &[u8]) -> Result<()> {
    let text = ros2::string(data)?;
    for (key, value) in strings::fields(text) {
        let value = value.trim();
        match key.as_str() {
            metadata_keys::FRAME_NUMBER => frame.number = value.parse().unwrap_or(0),
            metadata_keys::TIMESTAMP => frame.timestamp = value.parse().unwrap_or(0.0),
            metadata_keys::DEPTH_UNITS => {}
            key => apply_value(frame, key, value),
        }
    }
    Ok(())
}

/// A pose from the string rsbag writes on a pose stream's `pose/data`
/// topic of a `.db3` (librealsense writes no pose data there; see
/// [`strings::format_pose`]).
fn pose_from_cdr(data: &[u8]) -> Result<Pose> {
    strings::parse_pose(ros2::string(data)?)
        .ok_or_else(|| crate::Error::decode(ros2::STRING, "pose string does not hold a pose"))
}

/// A notification from a `.db3`'s `key=value` string.
pub(crate) fn cdr_notification(data: &[u8]) -> Result<Notification> {
    Ok(strings::parse_notification(ros2::string(data)?))
}

/// A notification from a ROS1 `realsense_msgs/Notification`.
pub(crate) fn ros1_notification(data: &[u8]) -> Result<Notification> {
    let n = realsense_msgs::Notification::decode(data)?;
    Ok(Notification {
        category: n.category.into_owned(),
        severity: n.severity.into_owned(),
        description: n.description.into_owned(),
        timestamp: ms_from_stamp(n.timestamp),
        serialized_data: n.serialized_data.into_owned(),
    })
}
