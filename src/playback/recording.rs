//! A RealSense recording: the device description a bag holds and the
//! frames, option changes and notifications it recorded, read the way
//! librealsense reads them.

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::ops::{Bound, RangeBounds};
use std::path::Path;

use crate::bag::{Bag, Message, Messages};
use crate::device::{
    camera_info, CameraInfo, DeviceSnapshot, Distortion, Extrinsics, Format, Frame, Intrinsics,
    MotionIntrinsics, Notification, OptionRange, Pose, ProfileKind, SensorOption, SensorSnapshot,
    StreamId, StreamKind, StreamProfile, TimestampDomain,
};
use crate::msg::diagnostic_msgs::KeyValue;
use crate::msg::geometry_msgs::{Accel, Transform, Twist};
use crate::msg::realsense_msgs::{self, ImuIntrinsic, StreamInfo};
use crate::msg::sensor_msgs::{CameraInfo as CameraInfoMsg, Image, Imu};
use crate::msg::std_msgs::{self, Float32, UInt32};
use crate::msg::RosMessage;
use crate::realsense::convert::{extrinsics_from_transform, ms_from_stamp};
use crate::realsense::metadata_keys;
use crate::realsense::topics::{StreamTopic, Topic};
use crate::{Error, Result};

use crate::realsense::convert::{DESCRIPTION_TIME, FIRST_EVENT_TIME};

/// One stream of a recording.
#[derive(Debug, Clone)]
pub struct RecordedStream {
    /// Position of the sensor in [`Recording::snapshot`].
    pub sensor: usize,
    /// The stream's profile as recorded.
    pub profile: StreamProfile,
    /// Frames recorded, from the index.
    pub frame_count: u64,
    /// Connection ids of frame data (for poses: the transform part).
    data: Vec<u32>,
}

impl RecordedStream {
    /// Connection ids of the stream's frame data in the bag (for poses:
    /// the transform part).
    pub fn data_connections(&self) -> &[u32] {
        &self.data
    }
}

/// Something that happened during a recording.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// A frame of a stream.
    Frame {
        /// Position of the sensor in [`Recording::snapshot`].
        sensor: usize,
        /// The frame.
        frame: Frame,
    },
    /// An option changed value.
    OptionChanged {
        /// Position of the sensor.
        sensor: usize,
        /// Option name.
        name: String,
        /// New value.
        value: f32,
    },
    /// A sensor raised a notification.
    Notification {
        /// Position of the sensor.
        sensor: usize,
        /// The notification.
        notification: Notification,
    },
}

/// An [`Event`] with its bag time (ns since the recording started).
#[derive(Debug, Clone, PartialEq)]
pub struct TimedEvent {
    /// Bag time, ns.
    pub time: u64,
    /// What happened.
    pub event: Event,
}

/// What each connection of the bag means for playback.
#[derive(Debug, Clone)]
enum Role {
    FrameData(StreamId),
    Metadata(StreamId),
    PoseAccel(StreamId),
    PoseTwist(StreamId),
    Option(usize, String),
    Notification(usize),
}

/// A RealSense bag opened for playback or offline reading.
///
/// # Example
/// ```no_run
/// use rsbag::playback::Recording;
/// # fn main() -> rsbag::Result<()> {
/// let recording = Recording::open("sample_bags/librealsense-depth-color-lz4.bag")?;
/// for sensor in &recording.snapshot().sensors {
///     println!("{:?}", sensor.info.get("Name"));
/// }
/// for event in recording.events(..) {
///     println!("{:?}", event?.time);
/// }
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct Recording {
    bag: Bag,
    file_version: u32,
    snapshot: DeviceSnapshot,
    streams: BTreeMap<StreamId, RecordedStream>,
    extrinsics: BTreeMap<StreamId, (u32, Extrinsics)>,
    roles: HashMap<u32, Role>,
    start_time: u64,
    end_time: u64,
}

impl Recording {
    /// Open a bag; a bag whose index is missing is read by a scan.
    pub fn open(path: impl AsRef<Path>) -> Result<Recording> {
        let path = path.as_ref();
        let bag = Bag::open_or_scan(path)?;
        Recording::from_bag(bag).map_err(|e| e.in_file(path))
    }

    /// Read the RealSense layout of an opened bag.
    pub fn from_bag(bag: Bag) -> Result<Recording> {
        let file_version = read_file_version(&bag)?;
        let description = Description::read(&bag)?;
        let (snapshot, sensor_positions) = description.snapshot();
        let mut roles = HashMap::new();
        let mut streams = BTreeMap::new();
        for conn in bag.connections() {
            let role = match Topic::parse(&conn.topic) {
                Topic::FrameData(s) => Role::FrameData(s.stream),
                Topic::FrameMetadata(s) => Role::Metadata(s.stream),
                Topic::PoseAccel(s) => Role::PoseAccel(s.stream),
                Topic::PoseTwist(s) => Role::PoseTwist(s.stream),
                Topic::OptionValue { sensor, option, .. } => match sensor_positions.get(&sensor) {
                    Some(&pos) => Role::Option(pos, option),
                    None => continue,
                },
                Topic::Notification { sensor, .. } => match sensor_positions.get(&sensor) {
                    Some(&pos) => Role::Notification(pos),
                    None => continue,
                },
                _ => continue,
            };
            roles.insert(conn.id, role);
        }
        for (topic, profile) in &description.profiles {
            let Some(&sensor) = sensor_positions.get(&topic.sensor) else {
                continue;
            };
            let data: Vec<u32> = roles
                .iter()
                .filter(|(_, r)| matches!(r, Role::FrameData(s) if *s == topic.stream))
                .map(|(&c, _)| c)
                .collect();
            let frame_count = data.iter().map(|&c| bag.message_count(c)).sum();
            streams.insert(
                topic.stream,
                RecordedStream {
                    sensor,
                    profile: *profile,
                    frame_count,
                    data,
                },
            );
        }
        let frame_conns: Vec<u32> = streams.values().flat_map(|s| s.data.clone()).collect();
        let (start_time, end_time) = bag.time_span(&frame_conns).unwrap_or((0, 0));
        Ok(Recording {
            bag,
            file_version,
            snapshot,
            streams,
            extrinsics: description.extrinsics,
            roles,
            start_time,
            end_time,
        })
    }

    /// The underlying bag.
    pub fn bag(&self) -> &Bag {
        &self.bag
    }

    /// The RealSense file version (2, 3 or 4).
    pub fn file_version(&self) -> u32 {
        self.file_version
    }

    /// The recorded device: camera info, sensors, options and the
    /// profiles that were streamed.
    pub fn snapshot(&self) -> &DeviceSnapshot {
        &self.snapshot
    }

    /// Every recorded stream.
    pub fn streams(&self) -> &BTreeMap<StreamId, RecordedStream> {
        &self.streams
    }

    /// Bag time of the first frame (ns).
    pub fn start_time(&self) -> u64 {
        self.start_time
    }

    /// Bag time of the last frame (ns).
    pub fn end_time(&self) -> u64 {
        self.end_time
    }

    /// Time from the first frame to the last, ns (librealsense's duration).
    pub fn duration(&self) -> u64 {
        self.end_time - self.start_time
    }

    /// The transform from stream `from` to stream `to`, where the recording
    /// relates them (both in one extrinsics group).
    pub fn extrinsics(&self, from: StreamId, to: StreamId) -> Option<Extrinsics> {
        let (group_from, from_ref) = self.extrinsics.get(&from)?;
        let (group_to, to_ref) = self.extrinsics.get(&to)?;
        // Each stream stores the transform from its group's reference to it.
        (group_from == group_to).then(|| from_ref.inverse().then(to_ref))
    }

    /// Every event (frames of all streams, option changes, notifications)
    /// with bag time in `range`, in time order.
    pub fn events(&self, range: impl RangeBounds<u64>) -> Events<'_> {
        self.select(None, true).time(range).events()
    }

    /// Start choosing which events to read.
    pub fn select(&self, streams: Option<&BTreeSet<StreamId>>, controls: bool) -> EventQuery<'_> {
        let connections = self
            .roles
            .iter()
            .filter(|(_, role)| match role {
                Role::FrameData(s)
                | Role::Metadata(s)
                | Role::PoseAccel(s)
                | Role::PoseTwist(s) => {
                    self.streams.contains_key(s) && streams.is_none_or(|set| set.contains(s))
                }
                Role::Option(..) | Role::Notification(_) => controls,
            })
            .map(|(&c, _)| c)
            .collect();
        EventQuery {
            recording: self,
            connections,
            start: Bound::Unbounded,
            end: Bound::Unbounded,
        }
    }
}

/// Which events to read: streams, controls and a time range.
pub struct EventQuery<'r> {
    recording: &'r Recording,
    connections: Vec<u32>,
    start: Bound<u64>,
    end: Bound<u64>,
}

impl<'r> EventQuery<'r> {
    /// Only events with bag time in `range`.
    pub fn time(mut self, range: impl RangeBounds<u64>) -> Self {
        self.start = range.start_bound().cloned();
        self.end = range.end_bound().cloned();
        self
    }

    /// The events, in time order.
    pub fn events(self) -> Events<'r> {
        // What lies at time zero is the description, not events (as in
        // librealsense, which plays from 2 ns on).
        let start = match self.start {
            Bound::Included(t) => t.max(FIRST_EVENT_TIME),
            Bound::Excluded(t) => t.saturating_add(1).max(FIRST_EVENT_TIME),
            Bound::Unbounded => FIRST_EVENT_TIME,
        };
        let messages = self
            .recording
            .bag
            .query()
            .connections(self.connections)
            .time((Bound::Included(start), self.end))
            .messages();
        Events {
            recording: self.recording,
            messages,
            group: Vec::new(),
            ready: VecDeque::new(),
            done: false,
        }
    }
}

/// Iterator over the events of a recording; frames are assembled from
/// their data, metadata (and pose part) messages, which share a bag time.
///
/// What cannot be read (a damaged chunk, a message that does not decode)
/// is yielded as an error, once, and the iteration goes on with the rest.
pub struct Events<'r> {
    recording: &'r Recording,
    messages: Messages<'r>,
    group: Vec<Message>,
    ready: VecDeque<Result<TimedEvent>>,
    done: bool,
}

impl Iterator for Events<'_> {
    type Item = Result<TimedEvent>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(event) = self.ready.pop_front() {
                return Some(event);
            }
            if self.done {
                return None;
            }
            match self.messages.next() {
                Some(Ok(message)) => {
                    if self.group.first().is_some_and(|m| m.time != message.time) {
                        self.flush_group();
                    }
                    self.group.push(message);
                }
                // A damaged part is reported and skipped; the rest of the
                // file is still read.
                Some(Err(e)) => {
                    self.flush_group();
                    self.ready.push_back(Err(e));
                }
                None => {
                    self.flush_group();
                    self.done = true;
                }
            }
        }
    }
}

impl Events<'_> {
    /// Turn the messages that share one bag time into events.
    fn flush_group(&mut self) {
        let group = std::mem::take(&mut self.group);
        for message in &group {
            let Some(role) = self.recording.roles.get(&message.conn) else {
                continue;
            };
            let event = match role {
                Role::FrameData(stream) => self.frame(*stream, message, &group),
                Role::Option(sensor, name) => Float32::decode(&message.data).map(|v| {
                    Some(Event::OptionChanged {
                        sensor: *sensor,
                        name: name.clone(),
                        value: v.data,
                    })
                }),
                Role::Notification(sensor) => decode_notification(&message.data).map(|n| {
                    Some(Event::Notification {
                        sensor: *sensor,
                        notification: n,
                    })
                }),
                Role::Metadata(_) | Role::PoseAccel(_) | Role::PoseTwist(_) => Ok(None),
            };
            match event {
                Ok(Some(event)) => self.ready.push_back(Ok(TimedEvent {
                    time: message.time,
                    event,
                })),
                Ok(None) => {}
                Err(e) => {
                    let topic = self.recording.bag.connection(message.conn);
                    self.ready.push_back(Err(Error::InMessage {
                        topic: topic.map_or_else(String::new, |c| c.topic.clone()),
                        time: message.time,
                        source: Box::new(e),
                    }))
                }
            }
        }
    }

    fn frame(&self, stream: StreamId, data: &Message, group: &[Message]) -> Result<Option<Event>> {
        let Some(recorded) = self.recording.streams.get(&stream) else {
            return Ok(None);
        };
        let parts = |want: fn(&Role, StreamId) -> bool| {
            group.iter().filter(move |m| {
                self.recording
                    .roles
                    .get(&m.conn)
                    .is_some_and(|r| want(r, stream))
            })
        };
        let metadata: Vec<KeyValue<'_>> = parts(|r, s| matches!(r, Role::Metadata(x) if *x == s))
            .map(|m| KeyValue::decode(&m.data))
            .collect::<Result<_>>()?;
        let mut frame = match recorded.profile.kind {
            ProfileKind::Video { .. } => video_frame(recorded.profile, data)?,
            ProfileKind::Motion { .. } => motion_frame(recorded.profile, data)?,
            ProfileKind::Pose => {
                let accel = parts(|r, s| matches!(r, Role::PoseAccel(x) if *x == s)).next();
                let twist = parts(|r, s| matches!(r, Role::PoseTwist(x) if *x == s)).next();
                pose_frame(recorded.profile, data, accel, twist, &metadata)?
            }
        };
        apply_metadata(&mut frame, &metadata);
        Ok(Some(Event::Frame {
            sensor: recorded.sensor,
            frame,
        }))
    }
}

fn empty_frame(profile: StreamProfile) -> Frame {
    Frame {
        profile,
        number: 0,
        timestamp: 0.0,
        domain: TimestampDomain::HardwareClock,
        system_time: 0.0,
        metadata: Vec::new(),
        stride: 0,
        data: bytes::Bytes::new(),
    }
}

fn video_frame(profile: StreamProfile, message: &Message) -> Result<Frame> {
    let image = Image::decode(&message.data)?;
    let pixels = match &image.data {
        std::borrow::Cow::Borrowed(slice) => message.data.slice_ref(slice),
        std::borrow::Cow::Owned(vec) => bytes::Bytes::from(vec.clone()),
    };
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

fn motion_frame(profile: StreamProfile, message: &Message) -> Result<Frame> {
    let imu = Imu::decode(&message.data)?;
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

fn pose_frame(
    profile: StreamProfile,
    message: &Message,
    accel: Option<&Message>,
    twist: Option<&Message>,
    metadata: &[KeyValue<'_>],
) -> Result<Frame> {
    let transform = Transform::decode(&message.data)?;
    let accel = accel
        .map(|m| Accel::decode(&m.data))
        .transpose()?
        .unwrap_or_default();
    let twist = twist
        .map(|m| Twist::decode(&m.data))
        .transpose()?
        .unwrap_or_default();
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
fn apply_metadata(frame: &mut Frame, metadata: &[KeyValue<'_>]) {
    for kv in metadata {
        let value = kv.value.trim();
        match kv.key.as_ref() {
            metadata_keys::TIMESTAMP_DOMAIN => {
                if let Some(domain) = TimestampDomain::from_name(value) {
                    frame.domain = domain;
                }
            }
            metadata_keys::SYSTEM_TIME => frame.system_time = value.parse().unwrap_or(0.0),
            metadata_keys::TRACKER_CONFIDENCE
            | metadata_keys::MAPPER_CONFIDENCE
            | metadata_keys::FRAME_TIMESTAMP
            | metadata_keys::FRAME_NUMBER => {}
            key => {
                if let Ok(v) = value.parse::<i64>() {
                    frame.metadata.push((key.to_owned(), v));
                }
            }
        }
    }
}

fn decode_notification(data: &[u8]) -> Result<Notification> {
    let n = realsense_msgs::Notification::decode(data)?;
    Ok(Notification {
        category: n.category.into_owned(),
        severity: n.severity.into_owned(),
        description: n.description.into_owned(),
        timestamp: ms_from_stamp(n.timestamp),
        serialized_data: n.serialized_data.into_owned(),
    })
}

fn read_file_version(bag: &Bag) -> Result<u32> {
    let mut messages = bag
        .query()
        .topics([crate::realsense::topics::FILE_VERSION_TOPIC])
        .messages();
    let message = messages.next().transpose()?.ok_or_else(|| {
        Error::InvalidArgument(
            "not a RealSense recording: the bag has no /file_version topic (was it recorded by another ROS tool?)"
                .into(),
        )
    })?;
    let version = UInt32::decode(&message.data)?.data;
    if !(2..=4).contains(&version) {
        return Err(Error::InvalidArgument(format!(
            "RealSense file version {version} is not supported (2, 3 and 4 are)"
        )));
    }
    Ok(version)
}

/// The device description messages of a recording, gathered by topic.
#[derive(Default)]
struct Description {
    device_info: CameraInfo,
    sensor_info: BTreeMap<u32, CameraInfo>,
    options: BTreeMap<u32, Vec<SensorOption>>,
    descriptions: HashMap<(u32, String), String>,
    stream_infos: BTreeMap<StreamTopic, (u32, Format, bool)>,
    camera_infos: HashMap<StreamTopic, Intrinsics>,
    imu_intrinsics: HashMap<StreamTopic, MotionIntrinsics>,
    profiles: BTreeMap<StreamTopic, StreamProfile>,
    extrinsics: BTreeMap<StreamId, (u32, Extrinsics)>,
}

impl Description {
    fn read(bag: &Bag) -> Result<Description> {
        let mut d = Description::default();
        let wanted: Vec<u32> = bag
            .connections()
            .iter()
            .filter(|c| is_description(&Topic::parse(&c.topic)))
            .map(|c| c.id)
            .collect();
        for message in bag.query().connections(wanted).messages() {
            let message = message?;
            let Some(conn) = bag.connection(message.conn) else {
                continue;
            };
            d.add(Topic::parse(&conn.topic), &message)?;
        }
        d.build_profiles()?;
        Ok(d)
    }

    fn add(&mut self, topic: Topic, message: &Message) -> Result<()> {
        let data = &message.data;
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
            } if message.time <= DESCRIPTION_TIME => {
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
                    Error::InvalidArgument(format!(
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

    /// Pair each `StreamInfo` with its camera info or IMU intrinsics.
    fn build_profiles(&mut self) -> Result<()> {
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
                return Err(Error::InvalidArgument(format!(
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
    fn snapshot(&self) -> (DeviceSnapshot, HashMap<u32, usize>) {
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

fn is_description(topic: &Topic) -> bool {
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

impl std::fmt::Debug for EventQuery<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EventQuery")
            .field("connections", &&self.connections)
            .field("start", &&self.start)
            .field("end", &&self.end)
            .finish_non_exhaustive()
    }
}

impl std::fmt::Debug for Events<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Events")
            .field("ready", &self.ready.len())
            .field("done", &self.done)
            .finish_non_exhaustive()
    }
}
