//! A RealSense recording: the device description a bag holds and the
//! frames, option changes and notifications it recorded, read the way
//! librealsense reads them.

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::ops::{Bound, RangeBounds};
use std::path::Path;
use std::time::Duration;

use rustc_hash::FxHashMap;

use crate::device::{
    depth_units_of, DeviceSnapshot, Extrinsics, Frame, Notification, ProfileKind, StreamId,
    StreamKind, StreamProfile, DEFAULT_DEPTH_UNITS,
};
use crate::realsense::codec::{Codec, FrameMessages};
use crate::realsense::convert::FIRST_EVENT_TIME;
use crate::realsense::description::{self, Description};
use crate::realsense::topics::{Topic, FILE_VERSION_TOPIC};
use crate::ros_camera::import::CameraStream;
use crate::storage::bag::Bag;
use crate::storage::Message;
use crate::storage::{Decompressors, FileFormat, Storage, StorageMessages};
use crate::{BagTime, Error, Result};

/// One stream of a recording.
#[derive(Debug, Clone)]
pub struct RecordedStream {
    /// Position of the sensor in [`Recording::snapshot`].
    pub sensor: usize,
    /// The stream's profile as recorded.
    pub profile: StreamProfile,
    /// Frames recorded, from the index.
    pub frame_count: u64,
    /// Topic ids of frame data (for poses: the transform part).
    data: Vec<u32>,
}

impl RecordedStream {
    /// Topic ids (a bag's connection ids) of the stream's frame data (for
    /// poses: the transform part).
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

/// An [`Event`] with its bag time.
#[derive(Debug, Clone, PartialEq)]
pub struct TimedEvent {
    /// When it was stored.
    pub time: BagTime,
    /// What happened.
    pub event: Event,
}

/// What each connection of the bag means for playback.
#[derive(Debug, Clone)]
enum Role {
    FrameData(StreamId),
    CompressedFrameData(StreamId),
    Metadata(StreamId),
    PoseAccel(StreamId),
    PoseTwist(StreamId),
    Option(usize, String),
    Notification(usize),
    /// A message of a camera bag's stream (see [`crate::ros_camera`]).
    CameraFrame(StreamId),
}

impl Role {
    /// The stream whose frame data the topic holds.
    fn frame_data(&self) -> Option<StreamId> {
        match self {
            Role::FrameData(s) | Role::CompressedFrameData(s) | Role::CameraFrame(s) => Some(*s),
            _ => None,
        }
    }
}

/// A RealSense recording (a `.bag`, or a librealsense `.db3`) opened for
/// playback or offline reading.
///
/// # Example
/// ```no_run
/// use rsbag::recording::Recording;
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
    storage: Storage,
    file_version: u32,
    snapshot: DeviceSnapshot,
    streams: BTreeMap<StreamId, RecordedStream>,
    extrinsics: BTreeMap<StreamId, (u32, Extrinsics)>,
    /// By connection: looked up for every message.
    roles: FxHashMap<u32, Role>,
    start_time: u64,
    end_time: u64,
    /// For a camera bag recorded from ROS: how its messages become frames.
    camera: Option<CameraLayout>,
}

/// How a camera bag's messages become frames.
#[derive(Debug)]
struct CameraLayout {
    streams: HashMap<StreamId, CameraStream>,
    /// Each stream's message times, for its frame numbers.
    times: HashMap<StreamId, Vec<u64>>,
    origin: u64,
    notes: Vec<String>,
    other_topics: Vec<u32>,
    /// The namespaces of the bag's cameras whose streams are read.
    cameras: Vec<String>,
    /// The namespace of the one camera read, when opened for one.
    camera: Option<String>,
}

impl Recording {
    /// Open a `.bag` (read by a scan when its index is missing) or a
    /// `.db3`, told apart by the file's first bytes.
    pub fn open(path: impl AsRef<Path>) -> Result<Recording> {
        let path = path.as_ref();
        let storage = Storage::open(path)?;
        Recording::from_storage(storage).map_err(|e| e.in_file(path))
    }

    /// Open the camera under ROS namespace `namespace` (as
    /// [`Recording::camera_namespaces`] names it: `/cam_front/camera`) of a camera
    /// bag recorded from ROS: a recording of that camera alone, its
    /// streams numbered and its sensors named as in a bag of it alone, its
    /// frames timed as in the whole bag. A librealsense recording, or a
    /// bag without a camera there, is an error.
    pub fn open_camera(path: impl AsRef<Path>, namespace: &str) -> Result<Recording> {
        let path = path.as_ref();
        let storage = Storage::open(path)?;
        if is_librealsense_recording(&storage) {
            return Err(Error::InvalidArgument(format!(
                "no camera under namespace {namespace}: a librealsense recording is one camera"
            ))
            .in_file(path));
        }
        Recording::from_camera_bag(storage, Some(namespace)).map_err(|e| e.in_file(path))
    }

    /// Read the RealSense layout of an opened bag.
    pub fn from_bag(bag: Bag) -> Result<Recording> {
        Recording::from_storage(Storage::Bag(bag))
    }

    /// Read the RealSense layout of an opened storage; a storage without
    /// `/file_version` is read as a camera bag recorded from ROS
    /// ([`crate::ros_camera`]).
    pub fn from_storage(storage: Storage) -> Result<Recording> {
        if !is_librealsense_recording(&storage) {
            return Recording::from_camera_bag(storage, None);
        }
        let file_version = read_file_version(&storage)?;
        let description = read_description(&storage)?;
        let (snapshot, sensor_positions) = description.snapshot();
        let mut roles = FxHashMap::default();
        let mut streams = BTreeMap::new();
        for topic in storage.topics() {
            let role = match Topic::parse(&topic.topic) {
                Topic::FrameData(s) => Role::FrameData(s.stream),
                Topic::CompressedFrameData(s) => Role::CompressedFrameData(s.stream),
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
            roles.insert(topic.id, role);
        }
        for (topic, profile) in &description.profiles {
            let Some(&sensor) = sensor_positions.get(&topic.sensor) else {
                continue;
            };
            let data: Vec<u32> = roles
                .iter()
                .filter(|(_, r)| r.frame_data() == Some(topic.stream))
                .map(|(&c, _)| c)
                .collect();
            let frame_count = data.iter().map(|&c| storage.message_count(c)).sum();
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
        let (start_time, end_time) = storage.time_span(&frame_conns).unwrap_or((0, 0));
        Ok(Recording {
            storage,
            file_version,
            snapshot,
            streams,
            extrinsics: description.extrinsics,
            roles,
            start_time,
            end_time,
            camera: None,
        })
    }

    /// A camera bag: every camera's streams as one device's, or those of
    /// the one under namespace `camera`.
    fn from_camera_bag(storage: Storage, camera: Option<&str>) -> Result<Recording> {
        let bag = crate::ros_camera::import::read(&storage, camera)?;
        let mut roles = FxHashMap::default();
        let mut streams = BTreeMap::new();
        let mut times = HashMap::new();
        for s in &bag.streams {
            roles.insert(s.topic, Role::CameraFrame(s.stream));
            if let Some(metadata) = s.metadata {
                roles.insert(metadata, Role::Metadata(s.stream));
            }
            streams.insert(
                s.stream,
                RecordedStream {
                    sensor: s.sensor,
                    profile: s.profile,
                    frame_count: storage.message_count(s.topic),
                    data: vec![s.topic],
                },
            );
            let stream_times = storage.sorted_times(s.topic)?;
            times.insert(s.stream, stream_times);
        }
        let frame_topics: Vec<u32> = bag.streams.iter().map(|s| s.topic).collect();
        let (start_time, end_time) = storage.time_span(&frame_topics).unwrap_or((0, 0));
        Ok(Recording {
            storage,
            file_version: 0,
            snapshot: bag.snapshot,
            streams,
            extrinsics: bag.extrinsics,
            roles,
            start_time,
            end_time,
            camera: Some(CameraLayout {
                streams: bag.streams.into_iter().map(|s| (s.stream, s)).collect(),
                times,
                origin: bag.origin,
                notes: bag.notes,
                other_topics: bag.other_topics,
                camera: camera.map(|_| bag.cameras[0].clone()),
                cameras: bag.cameras,
            }),
        })
    }

    /// The earliest bag time events are read from: [`FIRST_EVENT_TIME`]
    /// in a RealSense recording (earlier is description), 0 in a camera
    /// bag.
    pub(crate) fn first_event_time(&self) -> u64 {
        if self.camera.is_some() {
            0
        } else {
            FIRST_EVENT_TIME
        }
    }

    /// Whether this is a camera bag recorded from ROS, not a librealsense
    /// recording ([`crate::ros_camera`]).
    pub fn is_camera_bag(&self) -> bool {
        self.camera.is_some()
    }

    /// The bag time a file written from this recording counts from: a
    /// camera bag's first message, 0 for a librealsense recording, whose
    /// bag times count from its start already.
    pub(crate) fn time_origin(&self) -> u64 {
        if self.is_camera_bag() {
            crate::ros_camera::import::time_origin(self.storage())
        } else {
            0
        }
    }

    /// The ROS namespaces of a camera bag's cameras (`/cam_front/camera`,
    /// the topic path before each stream's folder), in the order first
    /// seen: one for a bag of one camera or a recording opened for one
    /// ([`Recording::open_camera`]); empty for a librealsense recording.
    /// A bag of several reads as one device whose sensors are named with
    /// their camera's namespace; a [`super::Session`] reads each camera as
    /// a camera of its own.
    pub fn camera_namespaces(&self) -> &[String] {
        self.camera.as_ref().map_or(&[], |c| &c.cameras)
    }

    /// The namespace of the one camera this recording reads of a bag of
    /// several ([`Recording::open_camera`]); `None` otherwise.
    pub(crate) fn camera_namespace(&self) -> Option<&str> {
        self.camera.as_ref().and_then(|c| c.camera.as_deref())
    }

    /// What of a camera bag is not played, or missing (topics of other
    /// kinds, images without camera info), in words; empty for a
    /// librealsense recording.
    pub fn notes(&self) -> &[String] {
        self.camera.as_ref().map_or(&[], |c| &c.notes)
    }

    /// The topics of a camera bag that are not the cameras' (a robot's
    /// lidar, `/tf`, odometry), by storage id; empty for a librealsense
    /// recording.
    pub fn other_topics(&self) -> &[u32] {
        self.camera.as_ref().map_or(&[], |c| &c.other_topics)
    }

    /// The stream of a camera bag whose frames, or whose per-frame camera
    /// info or metadata, topic `id` holds.
    pub(crate) fn camera_topic_stream(&self, id: u32) -> Option<StreamId> {
        let camera = self.camera.as_ref()?;
        camera
            .streams
            .values()
            .find(|s| s.topic == id || s.metadata == Some(id) || s.camera_info == Some(id))
            .map(|s| s.stream)
    }

    /// Where the recording is stored.
    pub fn storage(&self) -> &Storage {
        &self.storage
    }

    /// The underlying bag, for a `.bag`.
    pub fn bag(&self) -> Option<&Bag> {
        self.storage.bag()
    }

    /// The RealSense file version (2, 3 or 4; 0 for a camera bag).
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

    /// Metres per raw depth unit of `stream`: its sensor's Depth Units
    /// option as recorded; None when there is none (or it is not positive).
    pub fn recorded_depth_units(&self, stream: StreamId) -> Option<f32> {
        let sensor = self.streams.get(&stream)?.sensor;
        let units = depth_units_of(&self.snapshot.sensors.get(sensor)?.options);
        (units > 0.0).then_some(units)
    }

    /// Metres per raw depth unit of `stream`: its sensor's Depth Units
    /// option as recorded, or [`DEFAULT_DEPTH_UNITS`] when there is none.
    pub fn depth_units(&self, stream: StreamId) -> f32 {
        self.recorded_depth_units(stream)
            .unwrap_or(DEFAULT_DEPTH_UNITS)
    }

    /// The streams a name stands for, librealsense-style: `Depth`,
    /// `Color`, `Infrared 1`, `Infrared:1`, `Infrared1` (case does not
    /// matter). A name without an index stands for every recorded stream
    /// of that kind. An unknown name, or one the recording has no stream
    /// of, is an [`Error::InvalidArgument`] that lists the recorded streams.
    pub fn find_streams(&self, name: &str) -> Result<Vec<StreamId>> {
        streams_named(self.streams.keys().copied(), name)
    }

    /// Bag time of the first frame.
    pub fn start_time(&self) -> BagTime {
        BagTime::from_nanos(self.start_time)
    }

    /// Bag time of the last frame.
    pub fn end_time(&self) -> BagTime {
        BagTime::from_nanos(self.end_time)
    }

    /// Time from the first frame to the last (librealsense's duration).
    pub fn duration(&self) -> Duration {
        self.end_time() - self.start_time()
    }

    /// The transform from stream `from` to stream `to`, where the recording
    /// relates them (both in one extrinsics group), equal to the float
    /// librealsense's playback device gives.
    pub fn extrinsics(&self, from: StreamId, to: StreamId) -> Option<Extrinsics> {
        // Each stream stores the transform from its group's reference to it.
        let (group_from, from_ref) = self.extrinsics.get(&from)?;
        let (group_to, to_ref) = self.extrinsics.get(&to)?;
        if group_from != group_to {
            return None;
        }
        if from == to {
            return Some(Extrinsics::IDENTITY);
        }
        // librealsense registers a transform for each ordered pair of
        // streams and keeps, of each pair, the one from the stream that
        // comes later (sensor, stream type, index); the other way is that
        // one inverted.
        let order = |s: StreamId| (self.sensor_of(s), s.kind, s.index);
        Some(if order(from) > order(to) {
            from_ref.librealsense_between(to_ref)
        } else {
            to_ref.librealsense_between(from_ref).inverse()
        })
    }

    /// Position of the sensor that recorded `stream` in the snapshot.
    fn sensor_of(&self, stream: StreamId) -> Option<usize> {
        self.snapshot
            .sensors
            .iter()
            .position(|s| s.profiles.iter().any(|p| p.stream == stream))
    }

    /// Stream `stream`'s extrinsics group and its transform from the
    /// group's reference stream, as recorded.
    pub(crate) fn stream_extrinsics(&self, stream: StreamId) -> Option<(u32, Extrinsics)> {
        self.extrinsics.get(&stream).copied()
    }

    /// Every event (frames of all streams, option changes, notifications)
    /// with bag time in `range`, in time order.
    pub fn events(&self, range: impl RangeBounds<BagTime>) -> Events<'_> {
        self.select().time(range).events()
    }

    /// Start choosing which events to read: every stream, option changes
    /// and notifications, the whole recording, until narrowed, in the
    /// builder style of [`FrameReader::select`](super::FrameReader::select)
    /// and [`Bag::query`].
    ///
    /// # Example
    /// ```no_run
    /// use std::time::Duration;
    /// use rsbag::device::{StreamId, StreamKind};
    /// use rsbag::recording::Recording;
    /// # fn main() -> rsbag::Result<()> {
    /// let recording = Recording::open("sample_bags/librealsense-depth-color-lz4.bag")?;
    /// let depth = StreamId::new(StreamKind::Depth, 0);
    /// let start = recording.start_time();
    /// let first_second = recording
    ///     .select()
    ///     .streams([depth])
    ///     .controls(false)
    ///     .time(start..start + Duration::from_secs(1))
    ///     .events();
    /// println!("{} depth frames", first_second.count());
    /// # Ok(()) }
    /// ```
    pub fn select(&self) -> EventQuery<'_> {
        EventQuery {
            recording: self,
            streams: None,
            controls: true,
            start: Bound::Unbounded,
            end: Bound::Unbounded,
            random_access: false,
            decompressors: None,
        }
    }
}

/// Which events to read: streams, controls and a time range.
pub struct EventQuery<'r> {
    recording: &'r Recording,
    streams: Option<BTreeSet<StreamId>>,
    controls: bool,
    start: Bound<u64>,
    end: Bound<u64>,
    random_access: bool,
    /// Shared threads to decompress ahead on: see
    /// [`EventQuery::decompressors`].
    decompressors: Option<Decompressors>,
}

impl<'r> EventQuery<'r> {
    /// Only the frames of these streams (all recorded streams if never
    /// called); a stream the recording does not have yields nothing.
    pub fn streams(mut self, streams: impl IntoIterator<Item = StreamId>) -> Self {
        self.streams = Some(streams.into_iter().collect());
        self
    }

    /// Whether option changes and notifications are read (the default) or
    /// only frames.
    pub fn controls(mut self, controls: bool) -> Self {
        self.controls = controls;
        self
    }

    /// The connections the choice of streams and controls stands for.
    fn connections(&self) -> Vec<u32> {
        let recording = self.recording;
        recording
            .roles
            .iter()
            .filter(|(_, role)| match role {
                Role::FrameData(s)
                | Role::CompressedFrameData(s)
                | Role::Metadata(s)
                | Role::PoseAccel(s)
                | Role::PoseTwist(s)
                | Role::CameraFrame(s) => {
                    recording.streams.contains_key(s)
                        && self.streams.as_ref().is_none_or(|set| set.contains(s))
                }
                Role::Option(..) | Role::Notification(_) => self.controls,
            })
            .map(|(&c, _)| c)
            .collect()
    }

    /// Read for a random access, a few events fetched by index or time:
    /// the compressed chunks of a bag come from its cache of the chunks
    /// decompressed last, so that fetching the next frame from the same
    /// chunk does not decompress it again.
    pub(crate) fn random_access(mut self) -> Self {
        self.random_access = true;
        self
    }

    /// Decompress a bag's chunks ahead on the threads of `decompressors`,
    /// shared with the other recordings read at the same time (a
    /// session's), rather than on threads of this read's own.
    pub(crate) fn decompressors(mut self, decompressors: Decompressors) -> Self {
        self.decompressors = Some(decompressors);
        self
    }

    /// Only events with bag time (as [`Recording::start_time`]) in
    /// `range`.
    pub fn time(mut self, range: impl RangeBounds<BagTime>) -> Self {
        self.start = range.start_bound().map(|t| t.as_nanos());
        self.end = range.end_bound().map(|t| t.as_nanos());
        self
    }

    /// The events, in time order.
    pub fn events(self) -> Events<'r> {
        // What lies at time zero is the description, not events (as in
        // librealsense, which plays from 2 ns on); a camera bag has no
        // description, and frames from time zero.
        let first = self.recording.first_event_time();
        let start = match self.start {
            Bound::Included(t) => t.max(first),
            Bound::Excluded(t) => t.saturating_add(1).max(first),
            Bound::Unbounded => first,
        };
        let messages = self.recording.storage.messages_for(
            &self.connections(),
            (Bound::Included(start), self.end),
            self.random_access,
            self.decompressors,
        );
        Events {
            recording: self.recording,
            messages,
            group: Vec::new(),
            batch: Vec::new(),
            batch_bytes: 0,
            ready: VecDeque::new(),
            done: false,
        }
    }
}

/// Compressed `.db3` frames are decoded this many message groups at a
/// time, in parallel across the cores, ahead of delivery.
const DECODE_BATCH_GROUPS: usize = 16;
/// ... or this many bytes of messages, whichever comes first: the memory
/// decoding ahead takes stays bounded, as for LZ4 chunks.
const DECODE_BATCH_BYTES: usize = 32 << 20;

/// Iterator over the events of a recording; frames are assembled from
/// their data, metadata (and pose part) messages, which share a bag time.
/// Compressed images of a `.db3` (PNG, zstd) are decoded in batches on all
/// cores before they are handed out, in order.
///
/// What cannot be read (a damaged chunk, a message that does not decode)
/// is yielded as an error, once, and the iteration goes on with the rest.
pub struct Events<'r> {
    recording: &'r Recording,
    messages: StorageMessages<'r>,
    /// The messages of the bag time being read.
    group: Vec<Message>,
    /// Whole groups waiting to be decoded.
    batch: Vec<Vec<Message>>,
    batch_bytes: usize,
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
                        self.end_group();
                    }
                    self.group.push(message);
                }
                // A damaged part is reported and skipped; the rest of the
                // file is still read.
                Some(Err(e)) => {
                    self.end_group();
                    self.decode_batch();
                    self.ready.push_back(Err(e));
                }
                None => {
                    self.end_group();
                    self.decode_batch();
                    self.done = true;
                }
            }
        }
    }
}

impl Events<'_> {
    /// The group of one bag time is complete: batch it, and decode the
    /// batch when it is full (at once for a `.bag` of raw frames, whose
    /// chunks are already decompressed in parallel by the bag reader).
    fn end_group(&mut self) {
        if self.group.is_empty() {
            return;
        }
        if self.recording.storage.format() == FileFormat::Bag && !self.recording.decodes_images() {
            // Decoded here, the group's buffer kept for the next group:
            // a frame's worth of allocations fewer than batching it.
            self.recording.decode_group(&self.group, &mut self.ready);
            self.group.clear();
            return;
        }
        let group = std::mem::take(&mut self.group);
        self.batch_bytes += group.iter().map(|m| m.data.len()).sum::<usize>();
        self.batch.push(group);
        if self.batch.len() >= DECODE_BATCH_GROUPS || self.batch_bytes >= DECODE_BATCH_BYTES {
            self.decode_batch();
        }
    }

    /// Turn the batched groups into events, in order.
    fn decode_batch(&mut self) {
        let batch = std::mem::take(&mut self.batch);
        self.batch_bytes = 0;
        let recording = self.recording;
        let decoded = crate::parallel::parallel_map(&batch, |group| {
            let mut events = VecDeque::new();
            recording.decode_group(group, &mut events);
            events
        });
        for events in decoded {
            self.ready.extend(events);
        }
    }
}

impl Recording {
    /// The codec of the recording's messages.
    fn codec(&self) -> &'static dyn Codec {
        self.storage.encoding().codec()
    }

    /// Whether its frames are decoded from compressed images (a camera
    /// bag's image_transport topics): work for the decode threads, also
    /// in a `.bag`.
    fn decodes_images(&self) -> bool {
        self.camera.as_ref().is_some_and(|c| {
            (c.streams.values())
                .any(|s| matches!(s.source, crate::ros_camera::import::Source::Compressed(_)))
        })
    }

    /// The events of the messages that share one bag time, appended to
    /// `events`.
    fn decode_group(&self, group: &[Message], events: &mut VecDeque<Result<TimedEvent>>) {
        let codec = self.codec();
        for message in group {
            let Some(role) = self.roles.get(&message.conn) else {
                continue;
            };
            let event = match role {
                Role::FrameData(stream) | Role::CompressedFrameData(stream) => {
                    self.frame(*stream, message, group)
                }
                Role::Option(sensor, name) => codec.option_value(&message.data).map(|value| {
                    Some(Event::OptionChanged {
                        sensor: *sensor,
                        name: name.clone(),
                        value,
                    })
                }),
                Role::Notification(sensor) => codec.notification(&message.data).map(|n| {
                    Some(Event::Notification {
                        sensor: *sensor,
                        notification: n,
                    })
                }),
                Role::Metadata(_) | Role::PoseAccel(_) | Role::PoseTwist(_) => Ok(None),
                Role::CameraFrame(stream) => self.camera_frame(*stream, message, group),
            };
            match event {
                Ok(Some(event)) => events.push_back(Ok(TimedEvent {
                    time: BagTime::from_nanos(message.time),
                    event,
                })),
                Ok(None) => {}
                Err(e) => events.push_back(Err(self.storage.in_message(message, e))),
            }
        }
    }

    fn frame(&self, stream: StreamId, data: &Message, group: &[Message]) -> Result<Option<Event>> {
        let Some(recorded) = self.streams.get(&stream) else {
            return Ok(None);
        };
        let role = |m: &Message| self.roles.get(&m.conn);
        let part = |want: fn(&Role, StreamId) -> bool| {
            group
                .iter()
                .find(move |m| role(m).is_some_and(|r| want(r, stream)))
        };
        // Sized for the group: grown as collected, it was reallocated.
        let mut metadata: Vec<&[u8]> = Vec::with_capacity(group.len());
        metadata.extend(
            (group.iter())
                .filter(|m| role(m).is_some_and(|r| matches!(r, Role::Metadata(x) if *x == stream)))
                .map(|m| &m.data[..]),
        );
        let (accel, twist) = match recorded.profile.kind {
            ProfileKind::Pose => (
                part(|r, s| matches!(r, Role::PoseAccel(x) if *x == s)),
                part(|r, s| matches!(r, Role::PoseTwist(x) if *x == s)),
            ),
            _ => (None, None),
        };
        let frame = self.codec().frame(&FrameMessages {
            profile: recorded.profile,
            data: &data.data,
            compressed: matches!(role(data), Some(Role::CompressedFrameData(_))),
            metadata: &metadata,
            accel: accel.map(|m| &m.data[..]),
            twist: twist.map(|m| &m.data[..]),
        })?;
        Ok(Some(Event::Frame {
            sensor: recorded.sensor,
            frame,
        }))
    }
}

impl Recording {
    /// The frame of a camera bag message: its number counts the stream's
    /// messages before it (those at the same time in this group too).
    fn camera_frame(
        &self,
        stream: StreamId,
        message: &Message,
        group: &[Message],
    ) -> Result<Option<Event>> {
        let (Some(camera), Some(recorded)) = (&self.camera, self.streams.get(&stream)) else {
            return Ok(None);
        };
        let Some(source) = camera.streams.get(&stream) else {
            return Ok(None);
        };
        let before = camera
            .times
            .get(&stream)
            .map_or(0, |t| t.partition_point(|&x| x < message.time));
        let tied = group
            .iter()
            .take_while(|m| !std::ptr::eq(*m, message))
            .filter(|m| m.conn == message.conn)
            .count();
        let number = (before + tied + 1) as u64;
        let mut frame = crate::ros_camera::import::frame(
            source,
            &message.data,
            self.codec(),
            number,
            message.time,
            camera.origin,
        )?;
        // Its metadata message, written at the same time (as `convert --to
        // ros2` writes it), restores what the recording said of the frame.
        let metadata = group
            .iter()
            .find(|m| matches!(self.roles.get(&m.conn), Some(Role::Metadata(s)) if *s == stream));
        if let Some(m) = metadata {
            crate::ros_camera::import::apply_metadata(&mut frame, &m.data)?;
        }
        Ok(Some(Event::Frame {
            sensor: recorded.sensor,
            frame,
        }))
    }
}

/// Whether `storage` is a librealsense recording (it has `/file_version`),
/// rather than a camera bag recorded from ROS.
fn is_librealsense_recording(storage: &Storage) -> bool {
    (storage.topics().iter()).any(|t| t.topic == FILE_VERSION_TOPIC)
}

/// The file version of a recording's `/file_version` message.
fn read_file_version(storage: &Storage) -> Result<u32> {
    let mut messages = storage.messages_on([FILE_VERSION_TOPIC]);
    let message = messages.next().transpose()?.ok_or_else(|| {
        Error::NotARecording(format!(
            "the {} has no /file_version topic (was it recorded by another ROS tool?)",
            storage.encoding().codec().file_kind()
        ))
    })?;
    description::file_version(storage.encoding().codec().uint32(&message.data)?)
}

/// The device description a recording's description messages hold.
fn read_description(storage: &Storage) -> Result<Description> {
    let mut d = Description::default();
    let wanted: Vec<u32> = storage
        .topics()
        .iter()
        .filter(|t| description::is_description(&Topic::parse(&t.topic)))
        .map(|t| t.id)
        .collect();
    for message in storage.messages(&wanted, ..) {
        let message = message?;
        let Some(topic) = storage.topic_name(message.conn) else {
            continue;
        };
        (storage.encoding().codec())
            .add_description(&mut d, Topic::parse(topic), message.time, &message.data)
            .map_err(|e| storage.in_message(&message, e))?;
    }
    d.finish()?;
    Ok(d)
}

impl std::fmt::Debug for EventQuery<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EventQuery")
            .field("streams", &self.streams)
            .field("controls", &self.controls)
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

/// The streams of `recorded` that `name` stands for (see
/// [`Recording::find_streams`]).
pub(super) fn streams_named(
    recorded: impl Iterator<Item = StreamId> + Clone,
    name: &str,
) -> Result<Vec<StreamId>> {
    let name = name.trim();
    let split = name
        .find(|c: char| c.is_ascii_digit() || c == ':' || c == ' ' || c == '_')
        .unwrap_or(name.len());
    let (kind, rest) = name.split_at(split);
    let rest = rest.trim_start_matches([':', ' ', '_']);
    let unknown = || {
        Error::InvalidArgument(format!(
            "no stream {name:?} in the recording; it has {}",
            stream_list(recorded.clone())
        ))
    };
    let kind: StreamKind = kind.parse().map_err(|_| unknown())?;
    let index = if rest.is_empty() {
        None
    } else {
        Some(rest.parse::<u32>().map_err(|_| unknown())?)
    };
    let found: Vec<StreamId> = recorded
        .clone()
        .filter(|s| s.kind == kind && index.is_none_or(|i| s.index == i))
        .collect();
    if found.is_empty() {
        return Err(unknown());
    }
    Ok(found)
}

/// The streams' names for a message: `Depth, Color` or `no streams`.
pub(super) fn stream_list(streams: impl Iterator<Item = StreamId>) -> String {
    let names: Vec<String> = streams.map(|s| s.to_string()).collect();
    if names.is_empty() {
        "no streams".into()
    } else {
        names.join(", ")
    }
}
