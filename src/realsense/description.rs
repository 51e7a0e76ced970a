//! The device description a RealSense recording holds, read from its
//! description messages whatever storage they come from, and the file
//! version.

use std::collections::{BTreeMap, HashMap};

use crate::device::{
    camera_info, CameraInfo, DeviceSnapshot, Distortion, Extrinsics, Format, Intrinsics,
    MotionIntrinsics, OptionRange, ProfileKind, SensorOption, SensorSnapshot, StreamId, StreamKind,
    StreamProfile,
};
use crate::msg::diagnostic_msgs::KeyValue;
use crate::msg::geometry_msgs::Transform;
use crate::msg::realsense_msgs::{ImuIntrinsic, StreamInfo};
use crate::msg::sensor_msgs::CameraInfo as CameraInfoMsg;
use crate::msg::std_msgs::{self, Float32};
use crate::msg::{ros2, RosMessage};
use crate::realsense::convert::{extrinsics_from_transform, DESCRIPTION_TIME};
use crate::realsense::strings;
use crate::realsense::topics::{self, StreamTopic, Topic};
use crate::{Error, Result};

/// The file version the `/file_version` message holds (a
/// `std_msgs/UInt32`), if this crate reads it.
pub(crate) fn file_version(version: u32) -> Result<u32> {
    if !(2..=4).contains(&version) {
        return Err(Error::NotARecording(format!(
            "RealSense file version {version} is not supported (2, 3 and 4 are)"
        )));
    }
    Ok(version)
}

/// The device description of a RealSense recording, gathered from its
/// description messages (device and sensor info, options, stream infos,
/// camera infos, IMU intrinsics, extrinsics) in any order.
#[derive(Debug, Default)]
pub(crate) struct Description {
    device_info: CameraInfo,
    sensor_info: BTreeMap<u32, CameraInfo>,
    options: BTreeMap<u32, Vec<SensorOption>>,
    descriptions: HashMap<(u32, String), String>,
    stream_infos: BTreeMap<StreamTopic, (u32, Format, bool)>,
    camera_infos: HashMap<StreamTopic, Intrinsics>,
    imu_intrinsics: HashMap<StreamTopic, MotionIntrinsics>,
    /// The stream profiles, once [`Description::finish`] paired them.
    pub(crate) profiles: BTreeMap<StreamTopic, StreamProfile>,
    /// Each stream's extrinsics to its group's reference stream.
    pub(crate) extrinsics: BTreeMap<StreamId, (u32, Extrinsics)>,
    /// The same from a `.db3`'s `/tf_static`, for streams without a
    /// `tf/ref_N` string.
    tf_static: BTreeMap<StreamId, (u32, Extrinsics)>,
}

impl Description {
    /// A description message of a `.db3`: a `key=value` string.
    pub(crate) fn add_cdr(&mut self, topic: Topic, time: u64, data: &[u8]) -> Result<()> {
        let bad = |what: &str, text: &[u8]| {
            Error::BadDescription(format!(
                "{what}: cannot read {:?}",
                String::from_utf8_lossy(text)
            ))
        };
        let text = || ros2::string(data);
        match topic {
            Topic::DeviceInfo { device: 0 } => {
                for (key, value) in strings::fields(text()?) {
                    self.device_info.set(&key, &value);
                }
            }
            Topic::SensorInfo { device: 0, sensor } => {
                let info = self.sensor_info.entry(sensor).or_default();
                for (key, value) in strings::fields(text()?) {
                    info.set(&key, &value);
                }
            }
            Topic::OptionValue {
                device: 0,
                sensor,
                option,
            } if time <= DESCRIPTION_TIME => {
                let text = text()?;
                let value = String::from_utf8_lossy(text)
                    .trim()
                    .parse::<f32>()
                    .map_err(|_| bad(&format!("option {option}"), text))?;
                set_option(self.options.entry(sensor).or_default(), &option, value);
            }
            Topic::OptionDescription {
                device: 0,
                sensor,
                option,
            } => {
                let text = String::from_utf8_lossy(text()?).into_owned();
                self.descriptions.insert((sensor, option), text);
            }
            Topic::StreamInfo(s) if s.device == 0 => {
                let fields = strings::fields(text()?);
                let encoding = strings::get(&fields, "encoding").unwrap_or_default();
                let format = Format::from_ros_encoding(encoding).ok_or_else(|| {
                    Error::BadDescription(format!(
                        "stream {} has an unknown encoding {encoding:?}",
                        s.stream
                    ))
                })?;
                let fps = strings::number(&fields, "fps").ok_or_else(|| {
                    bad(
                        &format!("stream {} info", s.stream),
                        text().unwrap_or_default(),
                    )
                })?;
                self.stream_infos.insert(s, (fps, format, true));
            }
            Topic::CameraInfo(s) if s.device == 0 => {
                let text = text()?;
                let i = strings::parse_intrinsics(text)
                    .ok_or_else(|| bad(&format!("stream {} camera info", s.stream), text))?;
                self.camera_infos.insert(s, i);
            }
            Topic::ImuIntrinsic(s) if s.device == 0 => {
                let text = text()?;
                let i = strings::parse_motion_intrinsics(text)
                    .ok_or_else(|| bad(&format!("stream {} IMU intrinsics", s.stream), text))?;
                self.imu_intrinsics.insert(s, i);
            }
            Topic::TfStatic => {
                for t in ros2::decode_tf_message(data)? {
                    let parent = String::from_utf8_lossy(t.header.frame_id);
                    let child = String::from_utf8_lossy(t.child_frame_id);
                    let group = parent.trim_start_matches("ref_").parse::<u32>();
                    if let (Ok(group), Some(stream)) = (group, topics::stream_of_frame_id(&child)) {
                        // It holds the inverse of the stream's extrinsics.
                        let [x, y, z] = t.translation;
                        let [qx, qy, qz, qw] = t.rotation;
                        let transform = Transform {
                            translation: crate::msg::geometry_msgs::Vector3 { x, y, z },
                            rotation: crate::msg::geometry_msgs::Quaternion {
                                x: qx,
                                y: qy,
                                z: qz,
                                w: qw,
                            },
                        };
                        let e = extrinsics_from_transform(&transform).inverse();
                        self.tf_static.insert(stream, (group, e));
                    }
                }
            }
            Topic::Extrinsics(s, group) if s.device == 0 => {
                let text = text()?;
                let e = strings::parse_extrinsics(text)
                    .ok_or_else(|| bad(&format!("stream {} extrinsics", s.stream), text))?;
                self.extrinsics.insert(s.stream, (group, e));
            }
            _ => {}
        }
        Ok(())
    }

    /// A description message of a `.bag`.
    pub(crate) fn add_ros1(&mut self, topic: Topic, time: u64, data: &[u8]) -> Result<()> {
        match topic {
            Topic::DeviceInfo { device: 0 } => {
                let kv = KeyValue::decode(data)?;
                self.device_info.set(&kv.key, &kv.value);
            }
            Topic::SensorInfo { device: 0, sensor } => {
                let kv = KeyValue::decode(data)?;
                self.sensor_info
                    .entry(sensor)
                    .or_default()
                    .set(&kv.key, &kv.value);
            }
            Topic::OptionValue {
                device: 0,
                sensor,
                option,
            } if time <= DESCRIPTION_TIME => {
                let value = Float32::decode(data)?.data;
                set_option(self.options.entry(sensor).or_default(), &option, value);
            }
            Topic::Property { device: 0, sensor } => {
                let kv = KeyValue::decode(data)?;
                if let Ok(value) = kv.value.trim().parse::<f32>() {
                    set_option(self.options.entry(sensor).or_default(), &kv.key, value);
                }
            }
            Topic::OptionDescription {
                device: 0,
                sensor,
                option,
            } => {
                let text = std_msgs::String::decode(data)?.data.into_owned();
                self.descriptions.insert((sensor, option), text);
            }
            Topic::StreamInfo(s) if s.device == 0 => {
                let info = StreamInfo::decode(data)?;
                let format = Format::from_ros_encoding(&info.encoding).ok_or_else(|| {
                    Error::BadDescription(format!(
                        "stream {} has an unknown encoding {:?}",
                        s.stream, info.encoding
                    ))
                })?;
                self.stream_infos
                    .insert(s, (info.fps, format, info.is_recommended));
            }
            Topic::CameraInfo(s) if s.device == 0 => {
                let ci = CameraInfoMsg::decode(data)?;
                self.camera_infos.insert(s, intrinsics_of(&ci));
            }
            Topic::ImuIntrinsic(s) if s.device == 0 => {
                let m = ImuIntrinsic::decode(data)?;
                let mut i = MotionIntrinsics {
                    noise_variances: m.noise_variances,
                    bias_variances: m.bias_variances,
                    ..MotionIntrinsics::default()
                };
                for (row, values) in i.data.iter_mut().enumerate() {
                    values.copy_from_slice(&m.data[row * 4..row * 4 + 4]);
                }
                self.imu_intrinsics.insert(s, i);
            }
            Topic::Extrinsics(s, group) if s.device == 0 => {
                let t = Transform::decode(data)?;
                self.extrinsics
                    .insert(s.stream, (group, extrinsics_from_transform(&t)));
            }
            _ => {}
        }
        Ok(())
    }

    /// Pair each `StreamInfo` with its camera info or IMU intrinsics, once
    /// every description message was added.
    pub(crate) fn finish(&mut self) -> Result<()> {
        for (stream, e) in std::mem::take(&mut self.tf_static) {
            self.extrinsics.entry(stream).or_insert(e);
        }
        for (unique_id, (topic, &(fps, format, is_default))) in (1..).zip(&self.stream_infos) {
            let kind = if let Some(i) = self.camera_infos.get(topic) {
                ProfileKind::Video {
                    width: i.width,
                    height: i.height,
                    intrinsics: Some(*i),
                }
            } else if let Some(i) = self.imu_intrinsics.get(topic) {
                ProfileKind::Motion {
                    intrinsics: Some(*i),
                }
            } else if topic.stream.kind == StreamKind::Pose {
                ProfileKind::Pose
            } else {
                return Err(Error::BadDescription(format!(
                    "stream {} has a StreamInfo but neither camera info nor IMU intrinsics",
                    topic.stream
                )));
            };
            self.profiles.insert(
                *topic,
                StreamProfile {
                    stream: topic.stream,
                    unique_id,
                    format,
                    fps,
                    is_default,
                    kind,
                },
            );
        }
        Ok(())
    }

    /// The device snapshot, and each file sensor index's position in it.
    pub(crate) fn snapshot(&self) -> (DeviceSnapshot, HashMap<u32, usize>) {
        let mut positions = HashMap::new();
        let mut sensors = Vec::new();
        for (&index, info) in &self.sensor_info {
            positions.insert(index, sensors.len());
            let mut options = self.options.get(&index).cloned().unwrap_or_default();
            for option in &mut options {
                option.description = self
                    .descriptions
                    .get(&(index, option.name.clone()))
                    .cloned()
                    .unwrap_or_else(|| "N/A".to_owned());
            }
            let profiles = self
                .profiles
                .iter()
                .filter(|(t, _)| t.sensor == index)
                .map(|(_, p)| *p)
                .collect();
            let mut info = info.clone();
            if info.get(camera_info::NAME).is_none() {
                info.set(camera_info::NAME, &format!("Sensor {index}"));
            }
            sensors.push(SensorSnapshot {
                info,
                options,
                profiles,
            });
        }
        let snapshot = DeviceSnapshot {
            info: self.device_info.clone(),
            sensors,
        };
        (snapshot, positions)
    }
}

/// Set option `name` to `value`, adding it if it is new.
fn set_option(options: &mut Vec<SensorOption>, name: &str, value: f32) {
    match options.iter_mut().find(|o| o.name == name) {
        Some(option) => {
            option.value = value;
            option.range = OptionRange::fixed(value);
        }
        None => options.push(SensorOption {
            name: name.to_owned(),
            value,
            range: OptionRange::fixed(value),
            description: String::new(),
            read_only: true,
        }),
    }
}

/// Whether messages on `topic` describe the device (rather than record
/// what happened).
pub(crate) fn is_description(topic: &Topic) -> bool {
    matches!(
        topic,
        Topic::DeviceInfo { .. }
            | Topic::SensorInfo { .. }
            | Topic::OptionValue { .. }
            | Topic::OptionDescription { .. }
            | Topic::Property { .. }
            | Topic::StreamInfo(_)
            | Topic::CameraInfo(_)
            | Topic::ImuIntrinsic(_)
            | Topic::Extrinsics(..)
            | Topic::TfStatic
    )
}

/// Video intrinsics from a `CameraInfo`, as librealsense reads them.
fn intrinsics_of(ci: &CameraInfoMsg<'_>) -> Intrinsics {
    let mut coeffs = [0.0f32; 5];
    for (c, d) in coeffs.iter_mut().zip(&ci.d) {
        *c = *d as f32;
    }
    Intrinsics {
        width: ci.width,
        height: ci.height,
        fx: ci.k[0] as f32,
        ppx: ci.k[2] as f32,
        fy: ci.k[4] as f32,
        ppy: ci.k[5] as f32,
        model: Distortion::from_name(&ci.distortion_model).unwrap_or(Distortion::None),
        coeffs,
    }
}
