//! Writes the RealSense topic layout (file version 4) into a bag: the
//! device description, stream descriptions, frames, option changes and
//! notifications, with the message types and encodings librealsense 2.55
//! uses.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::path::Path;

use bytes::Bytes;

use crate::device::{
    camera_info, Extrinsics, Frame, Notification, ProfileKind, SensorOption, StreamKind,
    StreamProfile,
};
use crate::msg::diagnostic_msgs::KeyValue;
use crate::msg::geometry_msgs::{Accel, Twist, Vector3};
use crate::msg::realsense_msgs::{self, ImuIntrinsic, StreamInfo};
use crate::msg::sensor_msgs::{CameraInfo, Image, Imu};
use crate::msg::std_msgs::{self, Float32, Header, UInt32};
use crate::msg::RosMessage;
use crate::realsense::convert::{
    bag_time, event_bag_time, stamp_from_ms, transform_from_extrinsics,
};
use crate::realsense::topics::{self, StreamTopic};
use crate::realsense::{metadata_keys, FILE_VERSION};
use crate::storage::bag::{BagFile, WriterOptions};
use crate::storage::Connection;
use crate::Result;

/// The device is always device 0 of its file, as in librealsense.
const DEVICE: u32 = 0;

/// A RealSense-layout writer over a [`BagFile`].
pub struct RsWriter {
    bag: BagFile,
    connections: HashMap<String, u32>,
    described_options: HashSet<(u32, String)>,
}

impl RsWriter {
    /// Create the bag (refusing to replace a file, see
    /// [`BagFile::create`]) and write `/file_version`.
    pub fn create(path: &Path, options: WriterOptions) -> Result<RsWriter> {
        RsWriter::on(BagFile::create(path, options)?)
    }

    /// Write the RealSense layout into `bag`, from `/file_version` on.
    pub fn on(bag: BagFile) -> Result<RsWriter> {
        let mut writer = RsWriter {
            bag,
            connections: HashMap::new(),
            described_options: HashSet::new(),
        };
        writer.write(
            topics::FILE_VERSION_TOPIC,
            0,
            &UInt32 { data: FILE_VERSION },
        )?;
        Ok(writer)
    }

    /// The file being written (the bag's temporary name until finished).
    pub fn partial_path(&self) -> &Path {
        self.bag.partial_path()
    }

    /// Finish the bag (index, rename); returns its size in bytes.
    pub fn finish(self) -> Result<u64> {
        self.bag.finish()
    }

    /// Delete the unfinished file.
    pub fn abandon(self) {
        self.bag.abandon()
    }

    /// Bytes written so far.
    pub(crate) fn bytes_written(&self) -> u64 {
        self.bag.bytes_written()
    }

    /// Write one message on `topic` at capture time `capture_ns`.
    fn write<'m, M: RosMessage<'m>>(
        &mut self,
        topic: &str,
        capture_ns: u64,
        msg: &M,
    ) -> Result<()> {
        let conn = self.connection::<M>(topic);
        self.bag
            .write_with(conn, bag_time(capture_ns), |out| msg.encode(out))
    }

    /// The connection of `topic`, added on its first message.
    fn connection<'m, M: RosMessage<'m>>(&mut self, topic: &str) -> u32 {
        if let Some(&conn) = self.connections.get(topic) {
            return conn;
        }
        let conn =
            (self.bag).add_connection(Connection::ros1(topic, M::TYPE, M::MD5SUM, M::DEFINITION));
        self.connections.insert(topic.to_owned(), conn);
        conn
    }

    /// Write a video frame's image on `topic`, its pixels (`pixels`, the
    /// bytes `image` borrows) kept by reference until their chunk is
    /// written rather than copied into it: the largest copy of a recording.
    fn write_image(
        &mut self,
        topic: &str,
        capture_ns: u64,
        image: &Image<'_>,
        pixels: &Bytes,
    ) -> Result<()> {
        let conn = self.connection::<Image>(topic);
        let mut tail = Vec::new();
        image.encode_tail(&mut tail)?;
        let head = |out: &mut Vec<u8>| image.encode_head(out);
        (self.bag).write_spliced(conn, bag_time(capture_ns), head, pixels, &tail)
    }

    fn write_key_values<'k>(
        &mut self,
        topic: &str,
        capture_ns: u64,
        pairs: impl IntoIterator<Item = (&'k str, Cow<'k, str>)>,
    ) -> Result<()> {
        for (key, value) in pairs {
            let msg = KeyValue {
                key: Cow::Borrowed(key),
                value,
            };
            self.write(topic, capture_ns, &msg)?;
        }
        Ok(())
    }

    /// The device's camera info.
    pub fn write_device_info(&mut self, info: &crate::device::CameraInfo) -> Result<()> {
        let pairs = info.iter().map(|(k, v)| (k, Cow::Borrowed(v)));
        self.write_key_values(&topics::device_info(DEVICE), 0, pairs)
    }

    /// A sensor's camera info; a sensor without a name gets one, since
    /// readers find sensors through their info topics.
    pub fn write_sensor_info(
        &mut self,
        sensor: u32,
        info: &crate::device::CameraInfo,
    ) -> Result<()> {
        let topic = topics::sensor_info(DEVICE, sensor);
        if info.get(camera_info::NAME).is_none() {
            let name = format!("Sensor {sensor}");
            self.write_key_values(&topic, 0, [(camera_info::NAME, Cow::Owned(name))])?;
        }
        let pairs = info.iter().map(|(k, v)| (k, Cow::Borrowed(v)));
        self.write_key_values(&topic, 0, pairs)
    }

    /// An option's value at `capture_ns`, and its description the first
    /// time the option is written.
    pub fn write_option(
        &mut self,
        sensor: u32,
        option: &SensorOption,
        capture_ns: u64,
    ) -> Result<()> {
        let value = Float32 { data: option.value };
        self.write(
            &topics::option_value(DEVICE, sensor, &option.name),
            capture_ns,
            &value,
        )?;
        if self.described_options.insert((sensor, option.name.clone())) {
            let description = if option.description.is_empty() {
                Cow::Owned(format!("Read only option of {}", option.name))
            } else {
                Cow::Borrowed(option.description.as_str())
            };
            let msg = std_msgs::String { data: description };
            self.write(
                &topics::option_description(DEVICE, sensor, &option.name),
                0,
                &msg,
            )?;
        }
        Ok(())
    }

    /// The description of a streamed profile: `StreamInfo`, then
    /// `CameraInfo` (video) or `ImuIntrinsic` (motion).
    pub fn write_stream_info(
        &mut self,
        sensor: u32,
        profile: &StreamProfile,
        capture_ns: u64,
    ) -> Result<()> {
        let stream = StreamTopic::new(DEVICE, sensor, profile.stream);
        let info = StreamInfo {
            fps: profile.fps,
            encoding: Cow::Borrowed(profile.format.ros_encoding()),
            is_recommended: profile.is_default,
        };
        self.write(&stream.stream_info(), capture_ns, &info)?;
        match profile.kind {
            ProfileKind::Video {
                width,
                height,
                intrinsics,
            } => {
                let msg = camera_info_message(width, height, intrinsics);
                self.write(&stream.camera_info(), capture_ns, &msg)
            }
            ProfileKind::Motion { intrinsics } => {
                let i = intrinsics.unwrap_or_default();
                let mut data = [0f32; 12];
                for (row, values) in i.data.iter().enumerate() {
                    data[row * 4..row * 4 + 4].copy_from_slice(values);
                }
                let msg = ImuIntrinsic {
                    data,
                    noise_variances: i.noise_variances,
                    bias_variances: i.bias_variances,
                };
                self.write(&stream.imu_intrinsic(), capture_ns, &msg)
            }
            ProfileKind::Pose => Ok(()),
        }
    }

    /// A stream's extrinsics: the transform from the reference stream of
    /// extrinsics group `group` to this stream, at time zero.
    pub fn write_extrinsics(
        &mut self,
        stream: StreamTopic,
        group: u32,
        e: &Extrinsics,
    ) -> Result<()> {
        self.write(&stream.extrinsics(group), 0, &transform_from_extrinsics(e))
    }

    /// A frame, with its metadata. `depth_units` is written into depth
    /// images, as librealsense does.
    pub fn write_frame(
        &mut self,
        sensor: u32,
        frame: &Frame,
        depth_units: f32,
        capture_ns: u64,
    ) -> Result<()> {
        // A frame's messages share a chunk, as one unit for readers.
        self.bag.hold_chunk(true)?;
        let written = self.write_frame_messages(sensor, frame, depth_units, capture_ns);
        let released = self.bag.hold_chunk(false);
        written.and(released)
    }

    fn write_frame_messages(
        &mut self,
        sensor: u32,
        frame: &Frame,
        depth_units: f32,
        capture_ns: u64,
    ) -> Result<()> {
        let capture_ns = event_bag_time(capture_ns);
        let stream = StreamTopic::new(DEVICE, sensor, frame.profile.stream);
        let header = Header {
            seq: frame.number as u32,
            stamp: stamp_from_ms(frame.timestamp),
            frame_id: Cow::Borrowed(Header::LIBREALSENSE_VERSION),
        };
        match frame.profile.kind {
            ProfileKind::Video { width, height, .. } => {
                let depth_units = match frame.profile.stream.kind {
                    StreamKind::Depth => depth_units,
                    _ => 0.0,
                };
                let image = Image {
                    header,
                    height,
                    width,
                    encoding: Cow::Borrowed(frame.profile.format.ros_encoding()),
                    is_bigendian: 0,
                    step: frame.stride,
                    data: Cow::Borrowed(&frame.data),
                    depth_units,
                };
                self.write_image(&stream.frame_data(), capture_ns, &image, &frame.data)?;
            }
            ProfileKind::Motion { .. } => {
                let imu = imu_message(header, frame);
                self.write(&stream.frame_data(), capture_ns, &imu)?;
            }
            ProfileKind::Pose => {
                self.write_pose(&stream, frame, capture_ns)?;
            }
        }
        self.write_metadata(&stream, frame, capture_ns)
    }

    fn write_pose(&mut self, stream: &StreamTopic, frame: &Frame, capture_ns: u64) -> Result<()> {
        let pose = frame.pose().unwrap_or_default();
        let v = |a: [f32; 3]| Vector3 {
            x: f64::from(a[0]),
            y: f64::from(a[1]),
            z: f64::from(a[2]),
        };
        let [x, y, z, w] = pose.rotation.map(f64::from);
        let transform = crate::msg::geometry_msgs::Transform {
            translation: v(pose.translation),
            rotation: crate::msg::geometry_msgs::Quaternion { x, y, z, w },
        };
        self.write(&stream.frame_data(), capture_ns, &transform)?;
        let accel = Accel {
            linear: v(pose.acceleration),
            angular: v(pose.angular_acceleration),
        };
        self.write(&stream.pose_accel(), capture_ns, &accel)?;
        let twist = Twist {
            linear: v(pose.velocity),
            angular: v(pose.angular_velocity),
        };
        self.write(&stream.pose_twist(), capture_ns, &twist)?;
        let topic = stream.frame_metadata();
        let pairs = [
            (
                metadata_keys::TRACKER_CONFIDENCE,
                pose.tracker_confidence.to_string(),
            ),
            (
                metadata_keys::MAPPER_CONFIDENCE,
                pose.mapper_confidence.to_string(),
            ),
            (
                metadata_keys::FRAME_TIMESTAMP,
                format!("{:.6}", frame.timestamp),
            ),
            (metadata_keys::FRAME_NUMBER, frame.number.to_string()),
        ];
        self.write_key_values(
            &topic,
            capture_ns,
            pairs.into_iter().map(|(k, v)| (k, Cow::Owned(v))),
        )
    }

    fn write_metadata(
        &mut self,
        stream: &StreamTopic,
        frame: &Frame,
        capture_ns: u64,
    ) -> Result<()> {
        let topic = stream.frame_metadata();
        let fixed = [
            (
                metadata_keys::SYSTEM_TIME,
                Cow::Owned(format!("{:.6}", frame.system_time)),
            ),
            (
                metadata_keys::TIMESTAMP_DOMAIN,
                Cow::Borrowed(frame.domain.name()),
            ),
        ];
        let numeric = frame
            .metadata
            .iter()
            .map(|(k, v)| (k.as_ref(), Cow::Owned(v.to_string())));
        self.write_key_values(&topic, capture_ns, fixed.into_iter().chain(numeric))
    }

    /// A notification at `capture_ns`.
    pub fn write_notification(
        &mut self,
        sensor: u32,
        n: &Notification,
        capture_ns: u64,
    ) -> Result<()> {
        let capture_ns = event_bag_time(capture_ns);
        let msg = realsense_msgs::Notification {
            timestamp: stamp_from_ms(n.timestamp),
            category: Cow::Borrowed(&n.category),
            severity: Cow::Borrowed(&n.severity),
            description: Cow::Borrowed(&n.description),
            serialized_data: Cow::Borrowed(&n.serialized_data),
        };
        self.write(
            &topics::notification(DEVICE, sensor, &n.category),
            capture_ns,
            &msg,
        )
    }
}

fn camera_info_message(
    width: u32,
    height: u32,
    intrinsics: Option<crate::device::Intrinsics>,
) -> CameraInfo<'static> {
    let mut msg = CameraInfo {
        header: Header::default(),
        height,
        width,
        ..CameraInfo::default()
    };
    let i = intrinsics.unwrap_or(crate::device::Intrinsics::unknown(width, height));
    msg.k[0] = f64::from(i.fx);
    msg.k[2] = f64::from(i.ppx);
    msg.k[4] = f64::from(i.fy);
    msg.k[5] = f64::from(i.ppy);
    msg.k[8] = 1.0;
    msg.d = i.coeffs.iter().map(|&c| f64::from(c)).collect();
    msg.distortion_model = Cow::Borrowed(i.model.name());
    msg
}

fn imu_message<'a>(header: Header<'a>, frame: &Frame) -> Imu<'a> {
    let [x, y, z] = frame.motion().unwrap_or_default().map(f64::from);
    let sample = Vector3 { x, y, z };
    let mut imu = Imu {
        header,
        ..Imu::default()
    };
    match frame.profile.stream.kind {
        StreamKind::Gyro => imu.angular_velocity = sample,
        _ => imu.linear_acceleration = sample,
    }
    imu
}

impl std::fmt::Debug for RsWriter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RsWriter")
            .field("path", &self.bag.path())
            .field("connections", &self.connections.len())
            .finish_non_exhaustive()
    }
}

impl super::RecordingSink for RsWriter {
    fn write_device_info(&mut self, info: &crate::device::CameraInfo) -> Result<()> {
        RsWriter::write_device_info(self, info)
    }
    fn write_sensor_info(&mut self, sensor: u32, info: &crate::device::CameraInfo) -> Result<()> {
        RsWriter::write_sensor_info(self, sensor, info)
    }
    fn write_option(&mut self, sensor: u32, option: &SensorOption, at: u64) -> Result<()> {
        RsWriter::write_option(self, sensor, option, at)
    }
    fn write_stream_info(&mut self, sensor: u32, p: &StreamProfile, at: u64) -> Result<()> {
        RsWriter::write_stream_info(self, sensor, p, at)
    }
    fn write_extrinsics(&mut self, s: StreamTopic, group: u32, e: &Extrinsics) -> Result<()> {
        RsWriter::write_extrinsics(self, s, group, e)
    }
    fn write_frame(&mut self, sensor: u32, f: &Frame, units: f32, at: u64) -> Result<()> {
        RsWriter::write_frame(self, sensor, f, units, at)
    }
    fn write_notification(&mut self, sensor: u32, n: &Notification, at: u64) -> Result<()> {
        RsWriter::write_notification(self, sensor, n, at)
    }
    /// librealsense 2.55 stops playing a `.bag` at a combined sample.
    fn holds_combined_motion(&self) -> bool {
        false
    }
    fn partial_path(&self) -> &Path {
        RsWriter::partial_path(self)
    }
    fn bytes_written(&self) -> u64 {
        RsWriter::bytes_written(self)
    }
    fn size_so_far(&self) -> u64 {
        // The bound is close: chunks and index counted as they will be.
        self.bag.finished_size_bound()
    }
    fn finished_size_bound(&self) -> u64 {
        self.bag.finished_size_bound()
    }
    fn finish(self: Box<Self>) -> Result<u64> {
        RsWriter::finish(*self)
    }
    fn abandon(self: Box<Self>) {
        RsWriter::abandon(*self)
    }
}
