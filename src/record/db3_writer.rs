//! Writes the RealSense layout into a `.db3` the way librealsense 2.59
//! records: standard ROS 2 types in CDR, the description and metadata as
//! `key=value` strings ([`crate::realsense::strings`]), images compressed
//! losslessly as its recorder does by default ([`crate::realsense::images`]).

use std::collections::{BTreeMap, HashSet};
use std::path::Path;

use crate::device::{
    CameraInfo, CombinedMotion, Extrinsics, Format, Frame, Intrinsics, Notification, ProfileKind,
    SensorOption, StreamKind, StreamProfile,
};
use crate::msg::ros2::{self, CompressedImage, Header, Imu, TransformStamped};
use crate::realsense::convert::{event_bag_time, transform_from_extrinsics};
use crate::realsense::images::{self, Pixels};
use crate::realsense::strings;
use crate::realsense::topics::{self, StreamTopic};
use crate::realsense::{metadata_keys, FILE_VERSION};
use crate::storage::rosbag2::{Db3Writer, MessageType};
use crate::Result;

use super::sink::{write_in_rank_order, FrameWrite, RecordingSink};
use crate::parallel::parallel_map;

/// The device is always device 0 of its file, as in librealsense.
const DEVICE: u32 = 0;

/// The offered QoS profile librealsense 2.59 gives `/tf_static` (keep last
/// 1, reliable, transient local), so ROS 2 tools latch it.
const TF_STATIC_QOS: &str = "- history: 1\n  depth: 1\n  reliability: 1\n  durability: 1\n  deadline:\n    sec: 0\n    nsec: 0\n  lifespan:\n    sec: 0\n    nsec: 0\n  liveliness: 0\n  liveliness_lease_duration:\n    sec: 0\n    nsec: 0\n  avoid_ros_namespace_conventions: false";

/// How a `.db3` is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Db3Options {
    /// Compress images losslessly as librealsense 2.59 does by default
    /// (PNG, compressedDepth, zstd); otherwise `sensor_msgs/msg/Image`.
    pub compress_images: bool,
    /// Write pose streams (in rsbag's own layout: a `pose/data` string per
    /// frame). Off by default: librealsense 2.59 records no pose data and
    /// refuses to open a `.db3` that describes a pose stream ("Failed to
    /// read stream profile"), so a `.db3` with poses opens only in rsbag.
    pub pose: bool,
    /// Sync every commit (every second or 32 MB) to disk, so a crash of
    /// the machine loses at most that: on for recording; a conversion,
    /// which can be run again, turns it off ([`Db3Writer::set_durable`]).
    pub durable: bool,
}

impl Default for Db3Options {
    fn default() -> Self {
        Db3Options {
            compress_images: true,
            pose: false,
            durable: true,
        }
    }
}

/// A RealSense-layout writer over a [`Db3Writer`].
#[derive(Debug)]
pub struct Db3RsWriter {
    db3: Db3Writer,
    options: Db3Options,
    described_options: HashSet<(u32, String)>,
    /// `/tf_static` holds every stream's transform; re-sent as streams are
    /// added, as librealsense does.
    transforms: BTreeMap<String, (u32, Extrinsics)>,
}

impl Db3RsWriter {
    /// Write the RealSense layout into `db3`, from `/file_version` on.
    pub fn on(mut db3: Db3Writer, options: Db3Options) -> Result<Db3RsWriter> {
        db3.set_durable(options.durable)?;
        let mut writer = Db3RsWriter {
            db3,
            options,
            described_options: HashSet::new(),
            transforms: BTreeMap::new(),
        };
        let version = ros2::encode_uint32(FILE_VERSION);
        write(
            &mut writer.db3,
            topics::FILE_VERSION_TOPIC,
            ros2::UINT32,
            0,
            &version,
        )?;
        Ok(writer)
    }

    fn write_string(&mut self, topic: &str, time: u64, text: &str) -> Result<()> {
        write_string(&mut self.db3, topic, time, text)
    }

    /// Whether the stream is written at all (pose streams only on request).
    fn writes(&self, kind: StreamKind) -> bool {
        kind != StreamKind::Pose || self.options.pose
    }

    /// A frame with its image compressed already (see [`compressed_image`]):
    /// its data and metadata messages in one transaction, so that a crash
    /// never leaves a frame's data without the metadata that numbers it.
    fn write_prepared(
        &mut self,
        write: &FrameWrite<'_>,
        compressed: Option<(String, Vec<u8>)>,
    ) -> Result<()> {
        let frame = write.frame;
        let kind = frame.profile.stream.kind;
        if !self.writes(kind) {
            return Ok(());
        }
        let at = event_bag_time(write.capture_ns);
        let stream = StreamTopic::new(DEVICE, write.sensor, frame.profile.stream);
        let depth_units = (kind == StreamKind::Depth).then_some(write.depth_units);
        self.db3.write_together(|db3| {
            let part = match frame.profile.kind {
                ProfileKind::Video { .. } => {
                    write_image(db3, &stream, frame, compressed, at)?;
                    "image"
                }
                ProfileKind::Motion { .. } => {
                    write_motion(db3, &stream, frame, at)?;
                    "imu"
                }
                ProfileKind::Pose => {
                    let text = strings::format_pose(&frame.pose().unwrap_or_default());
                    write_string(db3, &format!("{}/pose/data", stream.prefix()), at, &text)?;
                    "pose"
                }
            };
            let topic = format!("{}/{part}/metadata", stream.prefix());
            write_string(db3, &topic, at, &metadata_string(frame, depth_units))
        })
    }

    /// `/tf_static`: every stream's transform from its group's reference,
    /// as the inverse of the extrinsics (what librealsense writes).
    fn tf_static(&self) -> Vec<u8> {
        let frames: Vec<(String, String, crate::msg::geometry_msgs::Transform)> = self
            .transforms
            .iter()
            .map(|(child, (group, e))| {
                (
                    format!("ref_{group}"),
                    child.clone(),
                    transform_from_extrinsics(&e.inverse()),
                )
            })
            .collect();
        let list: Vec<TransformStamped<'_>> = frames
            .iter()
            .map(|(parent, child, t)| TransformStamped {
                header: Header::at(0, parent.as_bytes()),
                child_frame_id: child.as_bytes(),
                translation: [t.translation.x, t.translation.y, t.translation.z],
                rotation: [t.rotation.x, t.rotation.y, t.rotation.z, t.rotation.w],
            })
            .collect();
        ros2::encode_tf_message(&list)
    }
}

/// A message on `topic` (added on first use).
fn write(db3: &mut Db3Writer, topic: &str, msg_type: &str, time: u64, data: &[u8]) -> Result<()> {
    let qos = if topic == "/tf_static" {
        TF_STATIC_QOS
    } else {
        ""
    };
    let id = db3.add_topic(topic, &MessageType::named(msg_type), qos)?;
    db3.write(id, time, data)
}

/// A message whose bytes are `head` then `data` (an image: the pixels are
/// not copied into the message).
fn write_parts(
    db3: &mut Db3Writer,
    topic: &str,
    msg_type: &str,
    time: u64,
    head: &[u8],
    data: &[u8],
) -> Result<()> {
    let id = db3.add_topic(topic, &MessageType::named(msg_type), "")?;
    db3.write_parts(id, time, &[head, data])
}

fn write_string(db3: &mut Db3Writer, topic: &str, time: u64, text: &str) -> Result<()> {
    write(
        db3,
        topic,
        ros2::STRING,
        time,
        &ros2::encode_string(text.as_bytes()),
    )
}

/// An image frame: `compressed` is what [`compressed_image`] made of it
/// (`None`: written as `sensor_msgs/msg/Image`).
fn write_image(
    db3: &mut Db3Writer,
    stream: &StreamTopic,
    frame: &Frame,
    compressed: Option<(String, Vec<u8>)>,
    time: u64,
) -> Result<()> {
    let (width, height) = frame.resolution().unwrap_or_default();
    let frame_id = frame_id(stream);
    let header = Header::at(time, frame_id.as_bytes());
    let base = format!("{}/image/data", stream.prefix());
    if let Some((format, data)) = compressed {
        let topic = if images::is_compressed_depth(frame.profile.format) {
            format!("{base}/compressedDepth")
        } else {
            format!("{base}/compressed")
        };
        let msg = CompressedImage {
            header,
            format: format.as_bytes(),
            data: &data,
        };
        let head = msg.encode_head();
        return write_parts(db3, &topic, ros2::COMPRESSED_IMAGE, time, &head, &data);
    }
    let msg = ros2::Image {
        header,
        height,
        width,
        encoding: frame.profile.format.ros_encoding().as_bytes(),
        is_bigendian: 0,
        step: frame.stride,
        data: &frame.data,
    };
    write_parts(
        db3,
        &base,
        ros2::IMAGE,
        time,
        &msg.encode_head(),
        &frame.data,
    )
}

fn write_motion(db3: &mut Db3Writer, stream: &StreamTopic, frame: &Frame, time: u64) -> Result<()> {
    let mut no_orientation = [0.0; 9];
    no_orientation[0] = -1.0;
    let (orientation, orientation_covariance, angular, linear) = match combined_motion(frame) {
        // All of a combined sample: orientation too.
        Some(m) => (
            m.orientation,
            [0.0; 9],
            m.angular_velocity,
            m.linear_acceleration,
        ),
        None => {
            let v = frame.motion().unwrap_or_default().map(f64::from);
            match frame.profile.stream.kind {
                StreamKind::Gyro => ([0.0; 4], no_orientation, v, [0.0; 3]),
                _ => ([0.0; 4], no_orientation, [0.0; 3], v),
            }
        }
    };
    let frame_id = frame_id(stream);
    let msg = Imu {
        header: Header::at(time, frame_id.as_bytes()),
        orientation,
        orientation_covariance,
        angular_velocity: angular,
        angular_velocity_covariance: [0.0; 9],
        linear_acceleration: linear,
        linear_acceleration_covariance: [0.0; 9],
    };
    let topic = format!("{}/imu/data", stream.prefix());
    write(db3, &topic, ros2::IMU, time, &msg.encode())
}

/// The sample of a COMBINED_MOTION frame.
fn combined_motion(frame: &Frame) -> Option<CombinedMotion> {
    (frame.profile.format == Format::CombinedMotion)
        .then(|| CombinedMotion::from_bytes(&frame.data))
        .flatten()
}

/// The compressed image of a video frame whose format librealsense 2.59
/// compresses: the `format` text and data of its `CompressedImage`.
fn compressed_image(frame: &Frame) -> Result<Option<(String, Vec<u8>)>> {
    let Some((width, height)) = frame.resolution() else {
        return Ok(None);
    };
    let pixels = Pixels {
        width,
        height,
        stride: frame.stride,
        data: &frame.data[..],
    };
    images::compress(frame.profile.format, &pixels)
}

/// The `header.frame_id` librealsense gives a stream's messages: its name
/// (`Depth`, `Color`, `Infrared1`, `Gyro`).
fn frame_id(stream: &StreamTopic) -> String {
    stream.stream.name_joined("")
}

/// A camera-info map as `key=value;...`.
fn info_string(info: &CameraInfo) -> String {
    strings::join(info.iter().map(|(k, v)| (k, v.into())))
}

/// The metadata string of a frame: number, domain, times, depth units,
/// then the numeric values. Times keep every digit (librealsense prints
/// `%f` and loses what lies past the microsecond).
fn metadata_string(frame: &Frame, depth_units: Option<f32>) -> String {
    let mut text = format!(
        "{}={};{}={};{}={};{}={};",
        metadata_keys::FRAME_NUMBER,
        frame.number,
        metadata_keys::TIMESTAMP_DOMAIN,
        frame.domain.name(),
        metadata_keys::SYSTEM_TIME,
        frame.system_time,
        metadata_keys::TIMESTAMP,
        frame.timestamp,
    );
    if let Some(units) = depth_units {
        text.push_str(&format!("{}={};", metadata_keys::DEPTH_UNITS, units));
    }
    for (key, value) in &frame.metadata {
        text.push_str(&format!("{key}={value};"));
    }
    text
}

impl RecordingSink for Db3RsWriter {
    fn write_device_info(&mut self, info: &CameraInfo) -> Result<()> {
        self.write_string(&topics::device_info(DEVICE), 0, &info_string(info))
    }

    fn write_sensor_info(&mut self, sensor: u32, info: &CameraInfo) -> Result<()> {
        let mut info = info.clone();
        if info.get(crate::device::camera_info::NAME).is_none() {
            info.set(
                crate::device::camera_info::NAME,
                &format!("Sensor {sensor}"),
            );
        }
        let topic = topics::sensor_info(DEVICE, sensor);
        self.write_string(&topic, 0, &info_string(&info))
    }

    fn write_option(&mut self, sensor: u32, option: &SensorOption, at: u64) -> Result<()> {
        let topic = topics::option_value(DEVICE, sensor, &option.name);
        let description = self
            .described_options
            .insert((sensor, option.name.clone()))
            .then(|| match option.description.is_empty() {
                true => format!("Read only option of {}", option.name),
                false => option.description.clone(),
            });
        // An option's first value and its description go together.
        self.db3.write_together(|db3| {
            write_string(db3, &topic, at, &strings::exact_f32(option.value))?;
            if let Some(description) = description {
                let topic = topics::option_description(DEVICE, sensor, &option.name);
                write_string(db3, &topic, 0, &description)?;
            }
            Ok(())
        })
    }

    fn write_stream_info(&mut self, sensor: u32, profile: &StreamProfile, at: u64) -> Result<()> {
        if !self.writes(profile.stream.kind) {
            return Ok(());
        }
        let stream = StreamTopic::new(DEVICE, sensor, profile.stream);
        let info = format!("encoding={};fps={}", profile.format.name(), profile.fps);
        // A stream's description is written whole or not at all.
        self.db3.write_together(|db3| {
            // librealsense 2.59 reads the description only at time zero.
            write_string(db3, &stream.stream_info(), at, &info)?;
            match profile.kind {
                ProfileKind::Video {
                    intrinsics,
                    width,
                    height,
                } => {
                    let mut i = intrinsics.unwrap_or(Intrinsics::unknown(width, height));
                    (i.width, i.height) = (width, height);
                    let topic = format!("{}/camera_info", stream.prefix());
                    write_string(db3, &topic, at, &strings::format_intrinsics(&i))
                }
                ProfileKind::Motion { intrinsics } => {
                    let text = strings::format_motion_intrinsics(&intrinsics.unwrap_or_default());
                    write_string(db3, &stream.imu_intrinsic(), at, &text)
                }
                ProfileKind::Pose => Ok(()),
            }
        })
    }

    /// A sensor without options gets Frames Queue Size, which every
    /// librealsense sensor has: librealsense 2.59 crashes reading a `.db3`
    /// sensor without options.
    fn write_options(&mut self, sensor: u32, options: &[SensorOption]) -> Result<()> {
        if options.is_empty() {
            return self.write_option(sensor, &SensorOption::frames_queue_size(), 0);
        }
        write_in_rank_order(self, sensor, options)
    }

    fn write_extrinsics(&mut self, stream: StreamTopic, group: u32, e: &Extrinsics) -> Result<()> {
        if !self.writes(stream.stream.kind) {
            return Ok(());
        }
        let topic = format!("{}/tf/ref_{group}", stream.prefix());
        self.transforms.insert(frame_id(&stream), (group, *e));
        let tf_static = self.tf_static();
        self.db3.write_together(|db3| {
            write_string(db3, &topic, 0, &strings::format_extrinsics(e))?;
            write(db3, "/tf_static", ros2::TF_MESSAGE, 0, &tf_static)
        })
    }

    fn write_frame(&mut self, sensor: u32, frame: &Frame, units: f32, at: u64) -> Result<()> {
        self.write_frames(&[FrameWrite {
            sensor,
            frame,
            depth_units: units,
            capture_ns: at,
        }])
    }

    /// The images are compressed on every core first, then written in
    /// order.
    fn write_frames(&mut self, frames: &[FrameWrite<'_>]) -> Result<()> {
        let compress = self.options.compress_images;
        let images = parallel_map(frames, |w| match compress {
            true => compressed_image(w.frame),
            false => Ok(None),
        });
        for (write, image) in frames.iter().zip(images) {
            self.write_prepared(write, image?)?;
        }
        Ok(())
    }

    fn write_notification(&mut self, sensor: u32, n: &Notification, at: u64) -> Result<()> {
        let topic = topics::notification(DEVICE, sensor, &n.category);
        self.write_string(&topic, event_bag_time(at), &strings::format_notification(n))
    }

    fn partial_path(&self) -> &Path {
        self.db3.partial_path()
    }

    fn bytes_written(&self) -> u64 {
        self.db3.bytes_written()
    }

    fn size_so_far(&self) -> u64 {
        // The messages: a finished file is about their size (a small one
        // is written anew in small pages).
        self.db3.bytes_written()
    }

    fn finished_size_bound(&self) -> u64 {
        self.db3.finished_size_bound()
    }

    fn finish(self: Box<Self>) -> Result<u64> {
        self.db3.finish()
    }

    fn abandon(self: Box<Self>) {
        self.db3.abandon()
    }
}
