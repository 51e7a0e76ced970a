//! The RealSense ROS wrapper's layout (realsense-ros): the topic names,
//! frame ids, image encodings and camera models a camera node publishes,
//! for both directions: writing a recording as standard ROS 2 messages
//! ([`crate::record::export_ros2`]) and reading camera bags recorded from
//! ROS.
//!
//! The names are those of the ROS 2 wrapper (4.x): under a namespace
//! (`/camera/camera` by default), one folder per stream (`depth`,
//! `color`, `infra1`, `gyro`…) holding `image_rect_raw` (depth, infrared)
//! or `image_raw` (colour, fisheye), `camera_info` and `metadata`, or
//! `sample` (IMU, pose); frames `camera_link`, `camera_<stream>_frame` and
//! `camera_<stream>_optical_frame`.
//!
//! ```
//! use rsbag::device::{StreamId, StreamKind};
//! use rsbag::ros_camera;
//! let infrared = StreamId::new(StreamKind::Infrared, 1);
//! assert_eq!(ros_camera::stream_name(infrared), "infra1");
//! assert_eq!(ros_camera::data_topic("/camera/camera", infrared), "/camera/camera/infra1/image_rect_raw");
//! assert_eq!(ros_camera::optical_frame(infrared), "camera_infra1_optical_frame");
//! ```

pub(crate) mod import;
pub mod imu;
pub mod rvl;
pub mod transport;

use crate::device::{Distortion, Extrinsics, Format, Intrinsics, StreamId, StreamKind};
use crate::msg::ros2::{CameraInfo, Header};

/// The ROS 2 wrapper's default namespace and camera name.
pub const DEFAULT_NAMESPACE: &str = "/camera/camera";

/// The camera's base frame: the body frame of the reference stream.
pub(crate) const BASE_FRAME: &str = "camera_link";

/// The frame a pose stream's odometry is given in.
pub(crate) const ODOM_FRAME: &str = "odom_frame";

/// The wrapper's name of a stream's folder: `depth`, `color`, `infra1`
/// (`infra` for index 0), `fisheye1`, `gyro`, `accel`, `pose`.
pub fn stream_name(stream: StreamId) -> String {
    let base = match stream.kind {
        StreamKind::Depth => "depth",
        StreamKind::Color => "color",
        StreamKind::Infrared => "infra",
        StreamKind::Fisheye => "fisheye",
        StreamKind::Gyro => "gyro",
        StreamKind::Accel => "accel",
        StreamKind::Gpio => "gpio",
        StreamKind::Pose => "pose",
        StreamKind::Confidence => "confidence",
        StreamKind::Motion => "imu",
    };
    match stream.kind {
        StreamKind::Infrared | StreamKind::Fisheye | StreamKind::Gpio if stream.index > 0 => {
            format!("{base}{}", stream.index)
        }
        _ => base.to_owned(),
    }
}

/// The topic of a stream's frames: `<ns>/<stream>/image_rect_raw`
/// (depth, infrared, confidence), `…/image_raw` (colour, fisheye) or
/// `…/sample` (IMU, pose).
pub fn data_topic(namespace: &str, stream: StreamId) -> String {
    let leaf = match stream.kind {
        StreamKind::Depth | StreamKind::Infrared | StreamKind::Confidence => "image_rect_raw",
        StreamKind::Color | StreamKind::Fisheye => "image_raw",
        _ => "sample",
    };
    stream_topic(namespace, stream, leaf)
}

/// `<ns>/<stream>/<leaf>`: `camera_info`, `metadata`, `imu_info`.
pub fn stream_topic(namespace: &str, stream: StreamId, leaf: &str) -> String {
    format!(
        "{}/{}/{leaf}",
        namespace.trim_end_matches('/'),
        stream_name(stream)
    )
}

/// `<ns>/extrinsics/<from>_to_<to>`.
pub(crate) fn extrinsics_topic(namespace: &str, from: StreamId, to: StreamId) -> String {
    format!(
        "{}/extrinsics/{}_to_{}",
        namespace.trim_end_matches('/'),
        stream_name(from),
        stream_name(to)
    )
}

/// `camera_<stream>_frame`: the stream's body frame (x forward, y left,
/// z up).
pub fn body_frame(stream: StreamId) -> String {
    format!("camera_{}_frame", stream_name(stream))
}

/// `camera_<stream>_optical_frame`: the stream's optical frame (x right,
/// y down, z forward), the one its images and samples are stamped with.
pub fn optical_frame(stream: StreamId) -> String {
    format!("camera_{}_optical_frame", stream_name(stream))
}

/// The wrapper's name of a frame for a camera named `camera` (the
/// wrapper's `camera_name`): `camera_link` becomes `<camera>_link`,
/// `camera_depth_optical_frame` `<camera>_depth_optical_frame`,
/// `odom_frame` `<camera>_odom_frame`; unchanged for `camera`.
pub(crate) fn camera_frame(camera: &str, frame: &str) -> String {
    if camera == "camera" {
        return frame.to_owned();
    }
    match frame.strip_prefix("camera_") {
        Some(rest) => format!("{camera}_{rest}"),
        None => format!("{camera}_{frame}"),
    }
}

/// The `sensor_msgs/msg/CameraInfo` of a video stream (intrinsics
/// unknown: an identity camera of the image's size).
pub(crate) fn camera_info<'a>(
    header: &Header<'a>,
    width: u32,
    height: u32,
    intrinsics: Option<Intrinsics>,
) -> CameraInfo<'a> {
    let i = intrinsics.unwrap_or_else(|| Intrinsics::unknown(width, height));
    let (model, d) = distortion(&i);
    let (fx, fy, cx, cy) = (
        f64::from(i.fx),
        f64::from(i.fy),
        f64::from(i.ppx),
        f64::from(i.ppy),
    );
    CameraInfo {
        header: *header,
        height,
        width,
        distortion_model: model.as_bytes(),
        d,
        k: [fx, 0.0, cx, 0.0, fy, cy, 0.0, 0.0, 1.0],
        r: [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0],
        p: [fx, 0.0, cx, 0.0, 0.0, fy, cy, 0.0, 0.0, 0.0, 1.0, 0.0],
    }
}

/// A frame timestamp in milliseconds as nanoseconds (0 when negative).
pub(crate) fn stamp_ns(ms: f64) -> u64 {
    if ms.is_finite() && ms > 0.0 {
        (ms * 1e6).round() as u64
    } else {
        0
    }
}

/// The `sensor_msgs/Image` encoding of a frame format, where ROS has one.
pub fn image_encoding(format: Format) -> Option<&'static str> {
    Some(match format {
        Format::Z16 => "16UC1",
        Format::Y8 | Format::Raw8 => "mono8",
        Format::Y16 | Format::Raw16 => "mono16",
        Format::Rgb8 => "rgb8",
        Format::Bgr8 => "bgr8",
        Format::Rgba8 => "rgba8",
        Format::Bgra8 => "bgra8",
        Format::Yuyv => "yuv422_yuy2",
        Format::Uyvy => "uyvy",
        Format::Distance | Format::Disparity32 => "32FC1",
        _ => return None,
    })
}

/// The frame format of a `sensor_msgs/Image` encoding, and the stream kind
/// it suggests (16-bit single channel is depth, colour encodings colour,
/// 8-bit mono infrared).
pub(crate) fn format_of_encoding(encoding: &str) -> Option<(Format, StreamKind)> {
    Some(match encoding {
        "16UC1" | "mono16" => (Format::Z16, StreamKind::Depth),
        "mono8" | "8UC1" => (Format::Y8, StreamKind::Infrared),
        "rgb8" => (Format::Rgb8, StreamKind::Color),
        "bgr8" | "8UC3" => (Format::Bgr8, StreamKind::Color),
        "rgba8" => (Format::Rgba8, StreamKind::Color),
        "bgra8" | "8UC4" => (Format::Bgra8, StreamKind::Color),
        "yuv422_yuy2" | "yuyv" | "YUYV" => (Format::Yuyv, StreamKind::Color),
        "uyvy" | "yuv422" => (Format::Uyvy, StreamKind::Color),
        _ => return None,
    })
}

/// The `sensor_msgs/CameraInfo` distortion model and coefficients of
/// librealsense intrinsics, as the wrapper publishes them: Kannala-Brandt
/// is `equidistant` (four coefficients), every other model `plumb_bob`
/// (k1, k2, p1, p2, k3).
pub fn distortion(intrinsics: &Intrinsics) -> (&'static str, Vec<f64>) {
    let c = intrinsics.coeffs.map(f64::from);
    match intrinsics.model {
        Distortion::KannalaBrandt4 => ("equidistant", c[..4].to_vec()),
        _ => ("plumb_bob", c.to_vec()),
    }
}

/// The librealsense model of a `CameraInfo` distortion model.
pub(crate) fn distortion_of_model(model: &str, d: &[f64]) -> Distortion {
    match model {
        "equidistant" => Distortion::KannalaBrandt4,
        _ if d.iter().all(|&c| c == 0.0) => Distortion::None,
        _ => Distortion::BrownConrady,
    }
}

/// A rigid transform in ROS terms: translation and quaternion (x, y, z,
/// w) of the child frame in its parent.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct FrameTransform {
    /// The parent frame.
    pub parent: String,
    /// The child frame.
    pub child: String,
    /// Translation in metres.
    pub translation: [f64; 3],
    /// Rotation quaternion x, y, z, w.
    pub rotation: [f64; 4],
}

/// An optical frame in its body frame: z forward becomes x, x right
/// becomes -y, y down becomes -z.
const OPTICAL_IN_BODY: [f64; 4] = [-0.5, 0.5, -0.5, 0.5];

/// The static transforms of the wrapper's TF tree for `streams`, given
/// each one's extrinsics from the base stream (depth;
/// `p_stream = R p_base + t`), as realsense2_camera's
/// `calcAndAppendTransformMsgs` (tfs.cpp)
/// appends them: `camera_link` (the base's body frame) to each stream's
/// body frame (the base's own at the identity), each body frame to its
/// optical frame, and for a second video stream (index 1, not depth:
/// `infra1`) also `camera_link` to `camera_aligned_depth_to_<stream>_frame`
/// and that to the stream's optical frame.
pub(crate) fn static_transforms(streams: &[(StreamId, Extrinsics)]) -> Vec<FrameTransform> {
    let mut out = Vec::new();
    for (stream, from_base) in streams {
        // The stream's optical frame in the base's optical frame is the
        // inverse of the extrinsics; in body axes, rotate both sides.
        let inverse = from_base.inverse();
        let r_optical = matrix_of(&inverse);
        let o = rotation_of_quaternion(OPTICAL_IN_BODY);
        let r_body = mul(&mul(&o, &r_optical), &transpose(&o));
        let translation = apply(&o, inverse.translation.map(f64::from));
        let mut bodies = vec![body_frame(*stream)];
        let second_video = matches!(
            stream.kind,
            StreamKind::Color | StreamKind::Infrared | StreamKind::Fisheye | StreamKind::Confidence
        ) && stream.index == 1;
        if second_video {
            bodies.push(format!(
                "camera_aligned_depth_to_{}_frame",
                stream_name(*stream)
            ));
        }
        for body in bodies {
            out.push(FrameTransform {
                parent: BASE_FRAME.to_owned(),
                child: body.clone(),
                translation,
                rotation: quaternion_of_rotation(&r_body),
            });
            out.push(FrameTransform {
                parent: body,
                child: optical_frame(*stream),
                translation: [0.0; 3],
                rotation: OPTICAL_IN_BODY,
            });
        }
    }
    out
}

type Matrix = [[f64; 3]; 3];

/// Row-major matrix of a column-major librealsense rotation.
fn matrix_of(e: &Extrinsics) -> Matrix {
    let r = e.rotation.map(f64::from);
    [[r[0], r[3], r[6]], [r[1], r[4], r[7]], [r[2], r[5], r[8]]]
}

fn mul(a: &Matrix, b: &Matrix) -> Matrix {
    let mut out = [[0.0; 3]; 3];
    for (i, row) in out.iter_mut().enumerate() {
        for (j, v) in row.iter_mut().enumerate() {
            *v = (0..3).map(|k| a[i][k] * b[k][j]).sum();
        }
    }
    out
}

fn transpose(a: &Matrix) -> Matrix {
    let mut out = [[0.0; 3]; 3];
    for (i, row) in out.iter_mut().enumerate() {
        for (j, v) in row.iter_mut().enumerate() {
            *v = a[j][i];
        }
    }
    out
}

fn apply(a: &Matrix, p: [f64; 3]) -> [f64; 3] {
    [0, 1, 2].map(|i| (0..3).map(|k| a[i][k] * p[k]).sum())
}

/// The rotation matrix of a unit quaternion (x, y, z, w).
fn rotation_of_quaternion([x, y, z, w]: [f64; 4]) -> Matrix {
    [
        [
            1.0 - 2.0 * (y * y + z * z),
            2.0 * (x * y - z * w),
            2.0 * (x * z + y * w),
        ],
        [
            2.0 * (x * y + z * w),
            1.0 - 2.0 * (x * x + z * z),
            2.0 * (y * z - x * w),
        ],
        [
            2.0 * (x * z - y * w),
            2.0 * (y * z + x * w),
            1.0 - 2.0 * (x * x + y * y),
        ],
    ]
}

/// The unit quaternion (x, y, z, w, with w >= 0) of a rotation matrix
/// (Shepperd's method: the largest diagonal term keeps it accurate).
fn quaternion_of_rotation(m: &Matrix) -> [f64; 4] {
    let trace = m[0][0] + m[1][1] + m[2][2];
    let q = if trace > 0.0 {
        let s = 2.0 * (trace + 1.0).sqrt();
        [
            (m[2][1] - m[1][2]) / s,
            (m[0][2] - m[2][0]) / s,
            (m[1][0] - m[0][1]) / s,
            s / 4.0,
        ]
    } else if m[0][0] > m[1][1] && m[0][0] > m[2][2] {
        let s = 2.0 * (1.0 + m[0][0] - m[1][1] - m[2][2]).sqrt();
        [
            s / 4.0,
            (m[0][1] + m[1][0]) / s,
            (m[0][2] + m[2][0]) / s,
            (m[2][1] - m[1][2]) / s,
        ]
    } else if m[1][1] > m[2][2] {
        let s = 2.0 * (1.0 + m[1][1] - m[0][0] - m[2][2]).sqrt();
        [
            (m[0][1] + m[1][0]) / s,
            s / 4.0,
            (m[1][2] + m[2][1]) / s,
            (m[0][2] - m[2][0]) / s,
        ]
    } else {
        let s = 2.0 * (1.0 + m[2][2] - m[0][0] - m[1][1]).sqrt();
        [
            (m[0][2] + m[2][0]) / s,
            (m[1][2] + m[2][1]) / s,
            s / 4.0,
            (m[1][0] - m[0][1]) / s,
        ]
    };
    let norm = q.iter().map(|v| v * v).sum::<f64>().sqrt();
    let sign = if q[3] < 0.0 { -1.0 } else { 1.0 };
    q.map(|v| sign * v / norm)
}

/// The extrinsics (`p_child_optical = R p_parent_optical + t`) between
/// two optical frames given the child's optical frame pose in the
/// parent's (translation, quaternion): the inverse of that pose.
pub(crate) fn extrinsics_of_pose(translation: [f64; 3], rotation: [f64; 4]) -> Extrinsics {
    let m = rotation_of_quaternion(rotation);
    let mut column_major = [0.0f32; 9];
    for (col, chunk) in column_major.chunks_mut(3).enumerate() {
        for (row, v) in chunk.iter_mut().enumerate() {
            *v = m[row][col] as f32;
        }
    }
    Extrinsics {
        rotation: column_major,
        translation: translation.map(|v| v as f32),
    }
    .inverse()
}

/// The T265's pose in the wrapper's odometry axes (x forward, y left,
/// z up) from librealsense's (x right, y up, z backward): position,
/// orientation (x, y, z, w) and velocities mapped as realsense-ros does.
pub(crate) fn pose_to_ros(v: [f32; 3]) -> [f64; 3] {
    [-f64::from(v[2]), -f64::from(v[0]), f64::from(v[1])]
}

/// [`pose_to_ros`] for the orientation quaternion (x, y, z, w).
pub(crate) fn orientation_to_ros(q: [f32; 4]) -> [f64; 4] {
    [
        -f64::from(q[2]),
        -f64::from(q[0]),
        f64::from(q[1]),
        f64::from(q[3]),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: &[f64], b: &[f64]) -> bool {
        a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-6)
    }

    #[test]
    fn the_optical_rotation_maps_optical_axes_to_body_axes() {
        let o = rotation_of_quaternion(OPTICAL_IN_BODY);
        // Optical z (forward) is body x; optical x (right) is body -y.
        assert!(close(&apply(&o, [0.0, 0.0, 1.0]), &[1.0, 0.0, 0.0]));
        assert!(close(&apply(&o, [1.0, 0.0, 0.0]), &[0.0, -1.0, 0.0]));
        assert!(close(&apply(&o, [0.0, 1.0, 0.0]), &[0.0, 0.0, -1.0]));
    }

    #[test]
    fn a_colour_camera_15_mm_to_the_right_sits_at_minus_y_in_camera_link() {
        // Depth to colour: a point moves -15 mm in x into colour optical
        // coordinates, so colour's origin is at +15 mm optical x = right.
        let depth = StreamId::new(StreamKind::Depth, 0);
        let color = StreamId::new(StreamKind::Color, 0);
        let to_color = Extrinsics::translation(-0.015, 0.0, 0.0);
        let tf = static_transforms(&[(depth, Extrinsics::IDENTITY), (color, to_color)]);
        let link_to_color = tf.iter().find(|t| t.child == "camera_color_frame").unwrap();
        // Optical +x (right) is body -y.
        assert!(close(&link_to_color.translation, &[0.0, -0.015, 0.0]));
        assert!(close(&link_to_color.rotation, &[0.0, 0.0, 0.0, 1.0]));
        // As the wrapper: the base's body frame at camera_link, its
        // optical frame under it.
        let link_to_depth = tf.iter().find(|t| t.child == "camera_depth_frame").unwrap();
        assert_eq!(link_to_depth.parent, BASE_FRAME);
        assert!(close(&link_to_depth.translation, &[0.0; 3]));
        assert!(close(&link_to_depth.rotation, &[0.0, 0.0, 0.0, 1.0]));
        let depth_optical = tf
            .iter()
            .find(|t| t.child == "camera_depth_optical_frame")
            .unwrap();
        assert_eq!(depth_optical.parent, "camera_depth_frame");
    }

    #[test]
    fn quaternions_round_trip_through_matrices() {
        for q in [[0.0, 0.0, 0.0, 1.0], [0.1, -0.2, 0.3, 0.9], OPTICAL_IN_BODY] {
            let n = (q.iter().map(|v: &f64| v * v).sum::<f64>()).sqrt();
            let q = q.map(|v| v / n);
            let back = quaternion_of_rotation(&rotation_of_quaternion(q));
            let q = if q[3] < 0.0 { q.map(|v| -v) } else { q };
            assert!(close(&back, &q), "{q:?} {back:?}");
        }
    }

    #[test]
    fn extrinsics_of_pose_inverts_the_export() {
        let e = Extrinsics {
            rotation: [0.0, 1.0, 0.0, -1.0, 0.0, 0.0, 0.0, 0.0, 1.0],
            translation: [0.01, 0.02, 0.03],
        };
        let inverse = e.inverse();
        let q = quaternion_of_rotation(&matrix_of(&inverse));
        let back = extrinsics_of_pose(inverse.translation.map(f64::from), q);
        for (a, b) in back.rotation.iter().zip(e.rotation) {
            assert!((a - b).abs() < 1e-6);
        }
        for (a, b) in back.translation.iter().zip(e.translation) {
            assert!((a - b).abs() < 1e-6);
        }
    }
}
