//! The ROS 2 message definitions rsbag writes, in the form `ros2 bag`
//! stores them (MCAP schemas, a `.db3`'s `message_definitions` table): the
//! type's own fields, then each type it uses, once, after a line of `=`
//! and `MSG: package/Name`. With each, its RIHS01 type hash (ROS 2's
//! `type_description_hash`, as Iron and later record it).
//!
//! ```
//! let imu = rsbag::msg::ros2_definitions::message_type("sensor_msgs/msg/Imu");
//! assert!(imu.definition.starts_with("std_msgs/Header header\n"));
//! assert!(imu.definition.contains("MSG: geometry_msgs/Quaternion\n"));
//! assert!(imu.hash.starts_with("RIHS01_"));
//! ```

use crate::storage::rosbag2::MessageType;

/// Each type's own fields (`package/Name` without `msg/`), as in its
/// `.msg` file without comments.
const FIELDS: &[(&str, &str)] = &[
    ("builtin_interfaces/Time", "int32 sec\nuint32 nanosec\n"),
    (
        "std_msgs/Header",
        "builtin_interfaces/Time stamp\nstring frame_id\n",
    ),
    ("std_msgs/String", "string data\n"),
    ("geometry_msgs/Vector3", "float64 x\nfloat64 y\nfloat64 z\n"),
    ("geometry_msgs/Point", "float64 x\nfloat64 y\nfloat64 z\n"),
    (
        "geometry_msgs/Quaternion",
        "float64 x\nfloat64 y\nfloat64 z\nfloat64 w\n",
    ),
    (
        "geometry_msgs/Pose",
        "geometry_msgs/Point position\ngeometry_msgs/Quaternion orientation\n",
    ),
    (
        "geometry_msgs/PoseWithCovariance",
        "geometry_msgs/Pose pose\nfloat64[36] covariance\n",
    ),
    (
        "geometry_msgs/Twist",
        "geometry_msgs/Vector3 linear\ngeometry_msgs/Vector3 angular\n",
    ),
    (
        "geometry_msgs/TwistWithCovariance",
        "geometry_msgs/Twist twist\nfloat64[36] covariance\n",
    ),
    (
        "geometry_msgs/Transform",
        "geometry_msgs/Vector3 translation\ngeometry_msgs/Quaternion rotation\n",
    ),
    (
        "geometry_msgs/TransformStamped",
        "std_msgs/Header header\nstring child_frame_id\ngeometry_msgs/Transform transform\n",
    ),
    (
        "tf2_msgs/TFMessage",
        "geometry_msgs/TransformStamped[] transforms\n",
    ),
    (
        "sensor_msgs/Image",
        "std_msgs/Header header\nuint32 height\nuint32 width\nstring encoding\nuint8 is_bigendian\nuint32 step\nuint8[] data\n",
    ),
    (
        "sensor_msgs/CompressedImage",
        "std_msgs/Header header\nstring format\nuint8[] data\n",
    ),
    (
        "sensor_msgs/RegionOfInterest",
        "uint32 x_offset\nuint32 y_offset\nuint32 height\nuint32 width\nbool do_rectify\n",
    ),
    (
        "sensor_msgs/CameraInfo",
        "std_msgs/Header header\nuint32 height\nuint32 width\nstring distortion_model\nfloat64[] d\nfloat64[9] k\nfloat64[9] r\nfloat64[12] p\nuint32 binning_x\nuint32 binning_y\nsensor_msgs/RegionOfInterest roi\n",
    ),
    (
        "sensor_msgs/Imu",
        "std_msgs/Header header\ngeometry_msgs/Quaternion orientation\nfloat64[9] orientation_covariance\ngeometry_msgs/Vector3 angular_velocity\nfloat64[9] angular_velocity_covariance\ngeometry_msgs/Vector3 linear_acceleration\nfloat64[9] linear_acceleration_covariance\n",
    ),
    (
        "sensor_msgs/PointField",
        "uint8 INT8=1\nuint8 UINT8=2\nuint8 INT16=3\nuint8 UINT16=4\nuint8 INT32=5\nuint8 UINT32=6\nuint8 FLOAT32=7\nuint8 FLOAT64=8\nstring name\nuint32 offset\nuint8 datatype\nuint32 count\n",
    ),
    (
        "sensor_msgs/PointCloud2",
        "std_msgs/Header header\nuint32 height\nuint32 width\nsensor_msgs/PointField[] fields\nbool is_bigendian\nuint32 point_step\nuint32 row_step\nuint8[] data\nbool is_dense\n",
    ),
    (
        "nav_msgs/Odometry",
        "std_msgs/Header header\nstring child_frame_id\ngeometry_msgs/PoseWithCovariance pose\ngeometry_msgs/TwistWithCovariance twist\n",
    ),
    (
        "realsense2_camera_msgs/Metadata",
        "std_msgs/Header header\nstring json_data\n",
    ),
    (
        "realsense2_camera_msgs/Extrinsics",
        "float64[9] rotation\nfloat64[3] translation\n",
    ),
    (
        "realsense2_camera_msgs/IMUInfo",
        "std_msgs/Header header\nfloat64[12] data\nfloat64[3] noise_variances\nfloat64[3] bias_variances\n",
    ),
];

/// RIHS01 hashes of the top-level types, as ROS 2 (Jazzy) computes them
/// (checked against the `rosbags` library by the interop tests).
const HASHES: &[(&str, &str)] = &[
    (
        "sensor_msgs/msg/Image",
        "RIHS01_d31d41a9a4c4bc8eae9be757b0beed306564f7526c88ea6a4588fb9582527d47",
    ),
    (
        "sensor_msgs/msg/CompressedImage",
        "RIHS01_15640771531571185e2efc8a100baf923961a4d15d5569652e6cb6691e8e371a",
    ),
    (
        "sensor_msgs/msg/CameraInfo",
        "RIHS01_b3dfd68ff46c9d56c80fd3bd4ed22c7a4ddce8c8348f2f59c299e73118e7e275",
    ),
    (
        "sensor_msgs/msg/Imu",
        "RIHS01_7d9a00ff131080897a5ec7e26e315954b8eae3353c3f995c55faf71574000b5b",
    ),
    (
        "sensor_msgs/msg/PointCloud2",
        "RIHS01_9198cabf7da3796ae6fe19c4cb3bdd3525492988c70522628af5daa124bae2b5",
    ),
    (
        "nav_msgs/msg/Odometry",
        "RIHS01_3cc97dc7fb7502f8714462c526d369e35b603cfc34d946e3f2eda2766dfec6e0",
    ),
    (
        "tf2_msgs/msg/TFMessage",
        "RIHS01_e369d0f05a23ae52508854b66f6aa0437f3449d652e8cbf22d5abe85d020f087",
    ),
    (
        "realsense2_camera_msgs/msg/Metadata",
        "RIHS01_83ba3fb1bb8c4e2ac17d181375dfddcbcb01e493d696facdc5c6c01409b3ce9e",
    ),
    (
        "realsense2_camera_msgs/msg/Extrinsics",
        "RIHS01_5b651f221fc70fae909dda72e6c0470805a1860616ab829d88858482343dc65a",
    ),
    (
        "realsense2_camera_msgs/msg/IMUInfo",
        "RIHS01_a493ef4420d60fe083fa9687a7a272a188014448bea38e186805de7930fbfa63",
    ),
];

/// `msg_type` (`sensor_msgs/msg/Image`) with its full definition and
/// RIHS01 hash for the types rsbag writes, by name alone for others.
pub fn message_type(msg_type: &str) -> MessageType {
    match definition(msg_type) {
        Some((definition, hash)) => MessageType {
            name: msg_type.to_owned(),
            definition,
            hash: hash.to_owned(),
        },
        None => MessageType::named(msg_type),
    }
}

/// The full definition and RIHS01 hash of `msg_type`, if rsbag writes it.
fn definition(msg_type: &str) -> Option<(String, &'static str)> {
    let hash = HASHES.iter().find(|(t, _)| *t == msg_type)?.1;
    let short = msg_type.replacen("/msg/", "/", 1);
    let mut text = String::from(fields(&short)?);
    let mut used = Vec::new();
    dependencies(&short, &mut used);
    for dependency in used {
        text.push_str(&"=".repeat(80));
        text.push_str("\nMSG: ");
        text.push_str(dependency);
        text.push('\n');
        text.push_str(fields(dependency)?);
    }
    Some((text, hash))
}

fn fields(short_type: &str) -> Option<&'static str> {
    FIELDS.iter().find(|(t, _)| *t == short_type).map(|e| e.1)
}

/// The types `short_type` uses, depth first in field order, each once.
fn dependencies(short_type: &str, used: &mut Vec<&'static str>) {
    let Some(text) = fields(short_type) else {
        return;
    };
    for line in text.lines() {
        let field_type = line.split(' ').next().unwrap_or_default();
        let field_type = field_type.split('[').next().unwrap_or_default();
        if let Some(&(known, _)) = FIELDS.iter().find(|(t, _)| *t == field_type) {
            if !used.contains(&known) {
                used.push(known);
                dependencies(known, used);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_hashed_type_has_a_definition_whose_types_are_all_defined() {
        for (msg_type, _) in HASHES {
            let (text, _) = definition(msg_type).unwrap();
            for line in text.lines().filter(|l| !l.starts_with('=')) {
                let field_type = line.trim_start_matches("MSG: ").split(' ').next().unwrap();
                let field_type = field_type.split('[').next().unwrap();
                assert!(
                    !field_type.contains('/') || fields(field_type).is_some(),
                    "{msg_type}: {field_type}"
                );
            }
        }
    }

    #[test]
    fn odometry_lists_nested_types_depth_first_once() {
        let (text, _) = definition("nav_msgs/msg/Odometry").unwrap();
        let order: Vec<&str> = text
            .lines()
            .filter_map(|l| l.strip_prefix("MSG: "))
            .collect();
        assert_eq!(
            order,
            [
                "std_msgs/Header",
                "builtin_interfaces/Time",
                "geometry_msgs/PoseWithCovariance",
                "geometry_msgs/Pose",
                "geometry_msgs/Point",
                "geometry_msgs/Quaternion",
                "geometry_msgs/TwistWithCovariance",
                "geometry_msgs/Twist",
                "geometry_msgs/Vector3",
            ]
        );
    }
}
