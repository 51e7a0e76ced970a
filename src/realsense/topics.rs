//! The RealSense topic layout: how librealsense names the topics of a
//! device, its sensors and streams (file versions 2–4), both ways.
//!
//! ```text
//! /file_version                                   std_msgs/UInt32
//! /device_0/info                                  diagnostic_msgs/KeyValue (one per camera-info field)
//! /device_0/sensor_0/info                         diagnostic_msgs/KeyValue
//! /device_0/sensor_0/option/Depth_Units/value     std_msgs/Float32
//! /device_0/sensor_0/option/Depth_Units/description  std_msgs/String
//! /device_0/sensor_0/notification/<Category>      realsense_msgs/Notification
//! /device_0/sensor_0/Depth_0/info                 realsense_msgs/StreamInfo
//! /device_0/sensor_0/Depth_0/info/camera_info     sensor_msgs/CameraInfo (video)
//! /device_0/sensor_2/Accel_0/imu_intrinsic        realsense_msgs/ImuIntrinsic (motion)
//! /device_0/sensor_0/Depth_0/image/data           sensor_msgs/Image
//! /device_0/sensor_2/Gyro_0/imu/data              sensor_msgs/Imu
//! /device_0/sensor_3/Pose_0/pose/transform/data   geometry_msgs/Transform (+ accel/data, twist/data)
//! /device_0/sensor_0/Depth_0/image/metadata       diagnostic_msgs/KeyValue (per frame)
//! /device_0/sensor_0/Depth_0/tf/<group>           geometry_msgs/Transform (extrinsics)
//! ```

use crate::device::{StreamId, StreamKind};

/// The topic of the file version message.
pub const FILE_VERSION_TOPIC: &str = "/file_version";

/// The static transforms of a `.db3` (`tf2_msgs/msg/TFMessage`).
pub(crate) const TF_STATIC_TOPIC: &str = "/tf_static";

/// Where a stream lives: device, sensor and stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StreamTopic {
    /// Device index (always 0 in practice).
    pub device: u32,
    /// Sensor index within the device.
    pub sensor: u32,
    /// The stream.
    pub stream: StreamId,
}

/// The kind of per-frame data topic a stream uses.
fn data_kind(kind: StreamKind) -> &'static str {
    match kind {
        StreamKind::Gyro | StreamKind::Accel | StreamKind::Motion => "imu",
        StreamKind::Pose => "pose",
        _ => "image",
    }
}

/// `/device_N/info`.
pub fn device_info(device: u32) -> String {
    format!("/device_{device}/info")
}

/// `/device_N/sensor_M/info`.
pub fn sensor_info(device: u32, sensor: u32) -> String {
    format!("/device_{device}/sensor_{sensor}/info")
}

/// The option name as it appears in a topic: spaces become underscores.
pub(crate) fn option_topic_name(option: &str) -> String {
    option.replace(' ', "_")
}

/// `/device_N/sensor_M/option/<Name>/value`.
pub(crate) fn option_value(device: u32, sensor: u32, option: &str) -> String {
    format!(
        "/device_{device}/sensor_{sensor}/option/{}/value",
        option_topic_name(option)
    )
}

/// `/device_N/sensor_M/option/<Name>/description`.
pub fn option_description(device: u32, sensor: u32, option: &str) -> String {
    format!(
        "/device_{device}/sensor_{sensor}/option/{}/description",
        option_topic_name(option)
    )
}

/// `/device_N/sensor_M/notification/<Category>`.
pub fn notification(device: u32, sensor: u32, category: &str) -> String {
    format!("/device_{device}/sensor_{sensor}/notification/{category}")
}

impl StreamTopic {
    /// A stream topic.
    pub fn new(device: u32, sensor: u32, stream: StreamId) -> Self {
        StreamTopic {
            device,
            sensor,
            stream,
        }
    }

    /// `/device_N/sensor_M/<Stream>_<index>`.
    pub fn prefix(&self) -> String {
        format!(
            "/device_{}/sensor_{}/{}_{}",
            self.device,
            self.sensor,
            self.stream.kind.name(),
            self.stream.index
        )
    }

    /// The stream info topic (`realsense_msgs/StreamInfo`).
    pub(crate) fn stream_info(&self) -> String {
        format!("{}/info", self.prefix())
    }

    /// The camera info topic of a video stream.
    pub fn camera_info(&self) -> String {
        format!("{}/info/camera_info", self.prefix())
    }

    /// The IMU intrinsics topic of a motion stream.
    pub fn imu_intrinsic(&self) -> String {
        format!("{}/imu_intrinsic", self.prefix())
    }

    /// The frame data topic (`image/data` or `imu/data`; for poses the
    /// transform part, `pose/transform/data`).
    pub(crate) fn frame_data(&self) -> String {
        match self.stream.kind {
            StreamKind::Pose => format!("{}/pose/transform/data", self.prefix()),
            kind => format!("{}/{}/data", self.prefix(), data_kind(kind)),
        }
    }

    /// The accel part of a pose frame.
    pub(crate) fn pose_accel(&self) -> String {
        format!("{}/pose/accel/data", self.prefix())
    }

    /// The twist part of a pose frame.
    pub(crate) fn pose_twist(&self) -> String {
        format!("{}/pose/twist/data", self.prefix())
    }

    /// The per-frame metadata topic.
    pub fn frame_metadata(&self) -> String {
        format!("{}/{}/metadata", self.prefix(), data_kind(self.stream.kind))
    }

    /// The extrinsics topic: the transform to the reference stream of
    /// extrinsics group `group`.
    pub fn extrinsics(&self, group: u32) -> String {
        format!("{}/tf/{group}", self.prefix())
    }
}

/// What a topic of a RealSense bag holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Topic {
    /// `/file_version`.
    FileVersion,
    /// Device camera info.
    DeviceInfo {
        /// Device index.
        device: u32,
    },
    /// Sensor camera info.
    SensorInfo {
        /// Device index.
        device: u32,
        /// Sensor index.
        sensor: u32,
    },
    /// An option's value.
    OptionValue {
        /// Device index.
        device: u32,
        /// Sensor index.
        sensor: u32,
        /// Option name with spaces (`Depth Units`).
        option: String,
    },
    /// An option's description.
    OptionDescription {
        /// Device index.
        device: u32,
        /// Sensor index.
        sensor: u32,
        /// Option name with spaces.
        option: String,
    },
    /// A notification.
    Notification {
        /// Device index.
        device: u32,
        /// Sensor index.
        sensor: u32,
        /// Category, as in the topic.
        category: String,
    },
    /// Option values of file version 2 (`KeyValue`: name, value).
    Property {
        /// Device index.
        device: u32,
        /// Sensor index.
        sensor: u32,
    },
    /// Recommended processing blocks (file version 4).
    PostProcessing {
        /// Device index.
        device: u32,
        /// Sensor index.
        sensor: u32,
    },
    /// A stream's `StreamInfo`.
    StreamInfo(StreamTopic),
    /// A video stream's `CameraInfo`.
    CameraInfo(StreamTopic),
    /// A motion stream's `ImuIntrinsic`.
    ImuIntrinsic(StreamTopic),
    /// Frame data (image, IMU sample, or the transform part of a pose).
    FrameData(StreamTopic),
    /// Compressed frame data of a `.db3` (`image/data/compressed` or
    /// `image/data/compressedDepth`, `sensor_msgs/msg/CompressedImage`).
    CompressedFrameData(StreamTopic),
    /// The accel part of a pose.
    PoseAccel(StreamTopic),
    /// The twist part of a pose.
    PoseTwist(StreamTopic),
    /// Per-frame metadata.
    FrameMetadata(StreamTopic),
    /// Extrinsics to a group's reference stream.
    Extrinsics(StreamTopic, u32),
    /// `/tf_static` of a `.db3`: every stream's transform, as ROS 2 tools
    /// read them.
    TfStatic,
    /// Anything else.
    Other,
}

impl Topic {
    /// Parse a topic name.
    ///
    /// ```
    /// use rsbag::realsense::topics::{Topic, StreamTopic};
    /// use rsbag::device::{StreamId, StreamKind};
    /// let topic = Topic::parse("/device_0/sensor_1/Color_0/image/data");
    /// let stream = StreamTopic::new(0, 1, StreamId::new(StreamKind::Color, 0));
    /// assert_eq!(topic, Topic::FrameData(stream));
    /// ```
    pub fn parse(topic: &str) -> Topic {
        if topic == FILE_VERSION_TOPIC {
            return Topic::FileVersion;
        }
        if topic == TF_STATIC_TOPIC {
            return Topic::TfStatic;
        }
        let parts: Vec<&str> = topic.trim_start_matches('/').split('/').collect();
        let Some(device) = parts.first().and_then(|p| index_after(p, "device_")) else {
            return Topic::Other;
        };
        if parts[1..] == ["info"] {
            return Topic::DeviceInfo { device };
        }
        let Some(sensor) = parts.get(1).and_then(|p| index_after(p, "sensor_")) else {
            return Topic::Other;
        };
        match &parts[2..] {
            ["info"] => Topic::SensorInfo { device, sensor },
            ["post_processing"] => Topic::PostProcessing { device, sensor },
            ["property"] => Topic::Property { device, sensor },
            ["option", name, "value"] => Topic::OptionValue {
                device,
                sensor,
                option: name.replace('_', " "),
            },
            ["option", name, "description"] => Topic::OptionDescription {
                device,
                sensor,
                option: name.replace('_', " "),
            },
            ["notification", category] => Topic::Notification {
                device,
                sensor,
                category: (*category).to_owned(),
            },
            [stream, rest @ ..] => match parse_stream(stream) {
                Some(stream) => stream_topic(StreamTopic::new(device, sensor, stream), rest),
                None => Topic::Other,
            },
            [] => Topic::Other,
        }
    }
}

fn stream_topic(stream: StreamTopic, rest: &[&str]) -> Topic {
    match rest {
        ["info"] => Topic::StreamInfo(stream),
        // `.bag` and `.db3` respectively.
        ["info", "camera_info"] | ["camera_info"] => Topic::CameraInfo(stream),
        ["imu_intrinsic"] => Topic::ImuIntrinsic(stream),
        // The pose of a `.db3` (rsbag's own layout) is one `pose/data`.
        ["image" | "imu" | "pose", "data"] | ["pose", "transform", "data"] => {
            Topic::FrameData(stream)
        }
        ["image", "data", "compressed" | "compressedDepth"] => Topic::CompressedFrameData(stream),
        ["pose", "accel", "data"] => Topic::PoseAccel(stream),
        ["pose", "twist", "data"] => Topic::PoseTwist(stream),
        ["image" | "imu" | "pose", "metadata"] => Topic::FrameMetadata(stream),
        // `tf/0` in a `.bag`, `tf/ref_0` in a `.db3`.
        ["tf", group] => match group.trim_start_matches("ref_").parse() {
            Ok(group) => Topic::Extrinsics(stream, group),
            Err(_) => Topic::Other,
        },
        _ => Topic::Other,
    }
}

/// The stream a `.db3`'s `header.frame_id` names: `Depth` (index 0),
/// `Infrared1`, `Color`, `Gyro`.
pub(crate) fn stream_of_frame_id(frame_id: &str) -> Option<StreamId> {
    let digits = frame_id.len()
        - frame_id
            .trim_end_matches(|c: char| c.is_ascii_digit())
            .len();
    let (kind, index) = frame_id.split_at(frame_id.len() - digits);
    let index = if index.is_empty() {
        0
    } else {
        index.parse().ok()?
    };
    Some(StreamId::new(StreamKind::from_name(kind)?, index))
}

/// `Depth_0` → (Depth, 0).
fn parse_stream(part: &str) -> Option<StreamId> {
    let (kind, index) = part.rsplit_once('_')?;
    Some(StreamId::new(
        StreamKind::from_name(kind)?,
        index.parse().ok()?,
    ))
}

/// `device_3` with prefix `device_` → 3.
fn index_after(part: &str, prefix: &str) -> Option<u32> {
    part.strip_prefix(prefix)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_topic_parses_back() {
        let s = StreamTopic::new(0, 2, StreamId::new(StreamKind::Infrared, 1));
        let p = StreamTopic::new(0, 3, StreamId::new(StreamKind::Pose, 0));
        let cases = [
            (FILE_VERSION_TOPIC.to_string(), Topic::FileVersion),
            (device_info(0), Topic::DeviceInfo { device: 0 }),
            (
                sensor_info(0, 2),
                Topic::SensorInfo {
                    device: 0,
                    sensor: 2,
                },
            ),
            (
                option_value(0, 1, "Depth Units"),
                Topic::OptionValue {
                    device: 0,
                    sensor: 1,
                    option: "Depth Units".into(),
                },
            ),
            (
                option_description(0, 1, "Depth Units"),
                Topic::OptionDescription {
                    device: 0,
                    sensor: 1,
                    option: "Depth Units".into(),
                },
            ),
            (
                notification(0, 1, "Hardware Error"),
                Topic::Notification {
                    device: 0,
                    sensor: 1,
                    category: "Hardware Error".into(),
                },
            ),
            (s.stream_info(), Topic::StreamInfo(s)),
            (s.camera_info(), Topic::CameraInfo(s)),
            (s.imu_intrinsic(), Topic::ImuIntrinsic(s)),
            (s.frame_data(), Topic::FrameData(s)),
            (s.frame_metadata(), Topic::FrameMetadata(s)),
            (s.extrinsics(7), Topic::Extrinsics(s, 7)),
            (p.frame_data(), Topic::FrameData(p)),
            (p.pose_accel(), Topic::PoseAccel(p)),
            (p.pose_twist(), Topic::PoseTwist(p)),
            (p.frame_metadata(), Topic::FrameMetadata(p)),
        ];
        for (topic, expected) in cases {
            assert_eq!(Topic::parse(&topic), expected, "{topic}");
        }
        assert_eq!(s.frame_data(), "/device_0/sensor_2/Infrared_1/image/data");
        assert_eq!(
            p.frame_data(),
            "/device_0/sensor_3/Pose_0/pose/transform/data"
        );
        assert_eq!(Topic::parse("/tf_static"), Topic::TfStatic);
        // The .db3 layout of librealsense 2.59.
        assert_eq!(
            Topic::parse("/device_0/sensor_2/Infrared_1/camera_info"),
            Topic::CameraInfo(s)
        );
        assert_eq!(
            Topic::parse("/device_0/sensor_2/Infrared_1/image/data/compressed"),
            Topic::CompressedFrameData(s)
        );
        assert_eq!(
            Topic::parse("/device_0/sensor_2/Infrared_1/tf/ref_3"),
            Topic::Extrinsics(s, 3)
        );
        assert_eq!(
            Topic::parse("/device_0/sensor_2/Infrared_1/image/camera_info"),
            Topic::Other
        );
        assert_eq!(
            Topic::parse("/device_0/sensor_0/Bogus_0/image/data"),
            Topic::Other
        );
    }
}
