//! The recorder: a [`Device`] that wraps another and writes everything it
//! streams into a RealSense bag.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Weak};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender, TrySendError};
use parking_lot::Mutex;

use super::create_sink;
use super::db3_writer::Db3Options;
use super::sink::{write_description, FrameWrite, RecordingSink};
use crate::device::{
    depth_units_of, CameraInfo, Device, DeviceSnapshot, Extrinsics, Frame, FrameCallback,
    Notification, NotificationCallback, OptionCallback, Sensor, SensorOption, StreamId, StreamKind,
    StreamProfile,
};
use crate::realsense::topics::StreamTopic;
use crate::storage::bag::{Compression, WriterOptions};
use crate::storage::FileFormat;
use crate::{Error, Result};

/// How a [`Recorder`] writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecordOptions {
    /// Chunk compression; LZ4 by default, as librealsense.
    pub compression: Compression,
    /// Chunk size threshold in bytes.
    pub chunk_threshold: usize,
    /// At most this many bytes of frames wait for the writer; a frame that
    /// would exceed it is dropped and counted.
    pub max_queued_bytes: usize,
    /// At most this many frames wait for the writer.
    pub max_queued_frames: usize,
    /// Replace a file already at the recording's path (by default that
    /// is an error: a recording never replaces a file unasked).
    pub overwrite: bool,
    /// The file format; `None` (the default) goes by the path's extension
    /// ([`FileFormat::of_recording_path`]): `.db3` is a rosbag2 `.db3` as
    /// librealsense 2.58+ writes, `.bag` a ROS1 bag as librealsense 2.55.
    /// Either way the name must say the format.
    pub format: Option<FileFormat>,
    /// How a `.db3` is written (images compressed as librealsense 2.59
    /// does by default; no pose streams, which 2.59 cannot open).
    pub db3: Db3Options,
}

impl Default for RecordOptions {
    fn default() -> Self {
        RecordOptions {
            compression: Compression::Lz4,
            chunk_threshold: WriterOptions::default().chunk_threshold,
            max_queued_bytes: 256 << 20,
            max_queued_frames: 1024,
            overwrite: false,
            format: None,
            db3: Db3Options::default(),
        }
    }
}

impl RecordOptions {
    /// These options with another compression.
    pub fn compression(self, compression: Compression) -> Self {
        RecordOptions {
            compression,
            ..self
        }
    }
}

/// Per-stream counts of a recording.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StreamCounts {
    /// Frames written to the file.
    pub written: u64,
    /// Frames dropped because the writer could not keep up.
    pub dropped: u64,
    /// Payload bytes of the written frames.
    pub bytes: u64,
}

/// What a finished recording wrote.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RecordReport {
    /// The bag.
    pub path: PathBuf,
    /// Size of the file in bytes.
    pub file_size: u64,
    /// Counts per stream.
    pub streams: BTreeMap<StreamId, StreamCounts>,
    /// Capture time covered, excluding pauses.
    pub duration: Duration,
}

/// What the writer thread is asked to do, in order.
enum Job {
    StreamsStarted {
        sensor: u32,
        profiles: Vec<StreamProfile>,
        at: u64,
    },
    Frame {
        sensor: u32,
        frame: Frame,
        at: u64,
    },
    Option {
        sensor: u32,
        name: String,
        value: f32,
        at: u64,
    },
    Notification {
        sensor: u32,
        notification: Notification,
        at: u64,
    },
    Finish,
}

/// The capture clock: time since the first frame, minus pauses.
#[derive(Debug, Default)]
struct CaptureClock {
    base: Option<Instant>,
    paused_at: Option<Instant>,
    paused_total: Duration,
}

impl CaptureClock {
    fn start_if_needed(&mut self, now: Instant) {
        self.base.get_or_insert(now);
    }

    fn now_ns(&self, now: Instant) -> u64 {
        match self.base {
            None => 0,
            Some(base) => {
                let elapsed = now
                    .saturating_duration_since(base)
                    .saturating_sub(self.paused_total);
                elapsed.as_nanos().min(u128::from(u64::MAX)) as u64
            }
        }
    }

    fn pause(&mut self, now: Instant) {
        self.paused_at.get_or_insert(now);
    }

    fn resume(&mut self, now: Instant) {
        if let (Some(paused_at), Some(base)) = (self.paused_at.take(), self.base) {
            self.paused_total += now.saturating_duration_since(paused_at.max(base));
        }
    }
}

/// State shared by the recorder, its sensors and their callbacks.
struct Shared {
    jobs: Sender<Job>,
    clock: Mutex<CaptureClock>,
    paused: AtomicBool,
    closed: AtomicBool,
    /// The profile each stream was described with: a recording describes
    /// a stream once (librealsense plays a stream described twice twice).
    described: Mutex<BTreeMap<(u32, StreamId), StreamProfile>>,
    /// The first write error: the recording stopped there.
    failure: Mutex<Option<String>>,
    failure_listeners: Mutex<Vec<FailureCallback>>,
    queued_bytes: Arc<AtomicUsize>,
    options: RecordOptions,
    counts: Mutex<BTreeMap<StreamId, StreamCounts>>,
}

impl Shared {
    fn capture_time(&self) -> u64 {
        self.clock.lock().now_ns(Instant::now())
    }

    /// Queue a frame, or drop and count it when paused, closed or full.
    fn push_frame(&self, sensor: u32, frame: Frame) {
        if self.closed.load(Ordering::Acquire) || self.paused.load(Ordering::Acquire) {
            return;
        }
        // Held until the frame is queued, so that the writer, failing,
        // either finds this frame in the queue (and counts it dropped) or
        // this finds the failure.
        let failure = self.failure.lock();
        if failure.is_some() {
            drop(failure);
            self.counts
                .lock()
                .entry(frame.profile.stream)
                .or_default()
                .dropped += 1;
            return;
        }
        let at = {
            let mut clock = self.clock.lock();
            let now = Instant::now();
            clock.start_if_needed(now);
            clock.now_ns(now)
        };
        let size = frame.data.len();
        let stream = frame.profile.stream;
        let queued = self.queued_bytes.fetch_add(size, Ordering::AcqRel) + size;
        let result = if queued > self.options.max_queued_bytes {
            Err(())
        } else {
            match self.jobs.try_send(Job::Frame { sensor, frame, at }) {
                Ok(()) => Ok(()),
                Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => Err(()),
            }
        };
        drop(failure);
        if result.is_err() {
            self.queued_bytes.fetch_sub(size, Ordering::AcqRel);
            self.counts.lock().entry(stream).or_default().dropped += 1;
        }
    }

    /// Queue an event that must not be lost (waits for room).
    fn push_event(&self, job: Job) {
        if !self.closed.load(Ordering::Acquire) && !self.has_failed() {
            let _ = self.jobs.send(job);
        }
    }

    /// The profiles of `sensor` not described yet (a sensor started again
    /// streams what it described the first time); an error for a stream
    /// started again with another mode, which one file cannot describe.
    fn first_described(
        &self,
        sensor: u32,
        profiles: &[StreamProfile],
    ) -> Result<Vec<StreamProfile>> {
        let mut described = self.described.lock();
        for p in profiles {
            if let Some(before) = described.get(&(sensor, p.stream)) {
                if !before.same_mode(p) {
                    return Err(Error::InvalidArgument(format!(
                        "stream {} was recorded as {} {} fps and cannot change to {} {} fps in the same recording; record it to another file",
                        p.stream, before.format, before.fps, p.format, p.fps
                    )));
                }
            }
        }
        let new: Vec<StreamProfile> = profiles
            .iter()
            .filter(|p| !described.contains_key(&(sensor, p.stream)))
            .copied()
            .collect();
        for p in &new {
            described.insert((sensor, p.stream), *p);
        }
        Ok(new)
    }

    fn has_failed(&self) -> bool {
        self.failure.lock().is_some()
    }

    /// The writer failed: nothing more is queued, and the failure
    /// listeners hear of it (on the writer thread, no lock held).
    fn fail(&self, error: &Error) {
        let message = error.to_string();
        *self.failure.lock() = Some(message.clone());
        let listeners = self.failure_listeners.lock().clone();
        for listener in listeners {
            listener(&message);
        }
    }
}

/// Told the first write error of a recording (which then stops writing).
pub type FailureCallback = Arc<dyn Fn(&str) + Send + Sync>;

/// Wraps a [`Device`] and records what it streams into a RealSense bag
/// that librealsense and rsbag play back.
///
/// The recorder is itself a [`Device`]: open and start its sensors exactly
/// as the camera's. Frames are handed to a writer thread through a bounded
/// queue, so a slow disk never blocks the camera: when the queue is full,
/// frames are dropped and counted in the [`RecordReport`]. Option changes
/// and notifications are written at the time they happen.
/// [`Recorder::finish`] (or dropping the recorder) completes the file; it
/// lies under a temporary `.partial` name until then.
///
/// # Example
/// ```no_run
/// use std::sync::Arc;
/// use rsbag::device::{Device, synthetic::SyntheticDevice};
/// use rsbag::record::{Recorder, RecordOptions};
/// # fn main() -> rsbag::Result<()> {
/// let camera = Arc::new(SyntheticDevice::default());
/// let recorder = Recorder::new("session.bag", camera, RecordOptions::default())?;
/// let depth = recorder.sensors()[0].clone();
/// let profile = depth.profiles()[0];
/// depth.open(&[profile])?;
/// depth.start(Arc::new(|_frame| {}))?;
/// std::thread::sleep(std::time::Duration::from_secs(1));
/// depth.stop()?;
/// let report = recorder.finish()?;
/// println!("{} bytes", report.file_size);
/// # Ok(()) }
/// ```
pub struct Recorder {
    device: Arc<dyn Device>,
    shared: Arc<Shared>,
    sensors: Vec<Arc<RecordSensor>>,
    writer: Mutex<Option<JoinHandle<Result<u64>>>>,
    path: PathBuf,
}

impl Recorder {
    /// Start recording `device` into `path`. The device description is
    /// written now; frames as the sensors stream.
    pub fn new(
        path: impl AsRef<Path>,
        device: Arc<dyn Device>,
        mut options: RecordOptions,
    ) -> Result<Recorder> {
        let path = path.as_ref().to_path_buf();
        let snapshot = DeviceSnapshot::of(device.as_ref());
        let writer_options = WriterOptions::default()
            .compression(options.compression)
            .chunk_threshold(options.chunk_threshold);
        let format = match options.format {
            Some(format) => format,
            None => FileFormat::of_recording_path(&path)?,
        };
        options.format = Some(format);
        let mut writer = create_sink(
            path.clone(),
            format,
            writer_options,
            options.db3,
            options.overwrite,
        )?;
        if let Err(e) = write_description(writer.as_mut(), &snapshot) {
            writer.abandon();
            return Err(e);
        }
        let (jobs, queue) = crossbeam_channel::bounded(options.max_queued_frames.max(1));
        let shared = Arc::new(Shared {
            jobs,
            clock: Mutex::new(CaptureClock::default()),
            paused: AtomicBool::new(false),
            closed: AtomicBool::new(false),
            queued_bytes: Arc::new(AtomicUsize::new(0)),
            options,
            counts: Mutex::new(BTreeMap::new()),
            described: Mutex::new(BTreeMap::new()),
            failure: Mutex::new(None),
            failure_listeners: Mutex::new(Vec::new()),
        });
        let extrinsics = ExtrinsicsGroups::new(device.clone(), &snapshot);
        let thread = WriterThread {
            writer,
            queue,
            queued_bytes: shared.queued_bytes.clone(),
            counts: Arc::downgrade(&shared),
            options: snapshot.sensors.iter().map(|s| s.options.clone()).collect(),
            extrinsics,
        };
        let handle = std::thread::Builder::new()
            .name("rsbag-recorder".into())
            .spawn(move || thread.run())
            .map_err(|e| Error::Thread(format!("cannot start the writer thread: {e}")))?;
        let sensors = device
            .sensors()
            .into_iter()
            .enumerate()
            .map(|(i, inner)| RecordSensor::new(i as u32, inner, &shared))
            .collect();
        Ok(Recorder {
            device,
            shared,
            sensors,
            writer: Mutex::new(Some(handle)),
            path,
        })
    }

    /// Stop writing what the device streams, until [`resume`](Self::resume).
    /// The time spent paused is cut out of the recording's timeline.
    pub fn pause(&self) {
        self.shared.paused.store(true, Ordering::Release);
        self.shared.clock.lock().pause(Instant::now());
    }

    /// Write again after [`pause`](Self::pause).
    pub fn resume(&self) {
        self.shared.clock.lock().resume(Instant::now());
        self.shared.paused.store(false, Ordering::Release);
    }

    /// Whether the recorder is paused.
    pub fn is_paused(&self) -> bool {
        self.shared.paused.load(Ordering::Acquire)
    }

    /// The frames written and dropped so far, per stream.
    pub fn counts(&self) -> BTreeMap<StreamId, StreamCounts> {
        self.shared.counts.lock().clone()
    }

    /// The first write error (a full disk, say), if writing failed. The
    /// recording stops writing at that error: what was written lies
    /// complete in the `.partial` file (recoverable with
    /// [`crate::storage::bag::Bag::scan`] or `rsbag reindex`), later frames are
    /// dropped and counted, and [`finish`](Self::finish) returns the error.
    pub fn failure(&self) -> Option<String> {
        self.shared.failure.lock().clone()
    }

    /// Call `callback` with the first write error when writing fails (on
    /// the writer thread), so that an application can stop at once.
    pub fn add_failure_listener(&self, callback: FailureCallback) {
        self.shared.failure_listeners.lock().push(callback);
    }

    /// Stop streaming sensors, write everything queued, complete the file
    /// and report what was written.
    pub fn finish(self) -> Result<RecordReport> {
        self.close()
    }

    fn close(&self) -> Result<RecordReport> {
        let handle = self.writer.lock().take();
        let Some(handle) = handle else {
            return Err(Error::InvalidArgument(
                "the recording is already finished".into(),
            ));
        };
        for sensor in &self.sensors {
            sensor.stop_if_streaming();
        }
        let duration = Duration::from_nanos(self.shared.capture_time());
        self.shared.closed.store(true, Ordering::Release);
        // Everything queued before this is written; anything a callback
        // still slips in after it is counted as dropped.
        let _ = self.shared.jobs.send(Job::Finish);
        let file_size = handle
            .join()
            .map_err(|_| Error::Thread("the recorder's writer thread panicked".into()))??;
        Ok(RecordReport {
            path: self.path.clone(),
            file_size,
            streams: self.counts(),
            duration,
        })
    }
}

impl std::fmt::Debug for Recorder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Recorder")
            .field("path", &self.path)
            .field("paused", &self.is_paused())
            .field("failure", &self.failure())
            .finish_non_exhaustive()
    }
}

impl Drop for Recorder {
    fn drop(&mut self) {
        if self.writer.lock().is_some() {
            if let Err(e) = self.close() {
                tracing::error!("finishing the recording {}: {e}", self.path.display());
            }
        }
    }
}

impl Device for Recorder {
    fn info(&self) -> CameraInfo {
        self.device.info()
    }

    fn sensors(&self) -> Vec<Arc<dyn Sensor>> {
        self.sensors
            .iter()
            .map(|s| s.clone() as Arc<dyn Sensor>)
            .collect()
    }

    fn extrinsics(&self, from: StreamId, to: StreamId) -> Option<Extrinsics> {
        self.device.extrinsics(from, to)
    }
}

/// A sensor of a [`Recorder`]: forwards to the camera's sensor and queues
/// what it streams for writing.
pub struct RecordSensor {
    index: u32,
    inner: Arc<dyn Sensor>,
    shared: Weak<Shared>,
    streaming: AtomicBool,
}

impl RecordSensor {
    fn new(index: u32, inner: Arc<dyn Sensor>, shared: &Arc<Shared>) -> Arc<RecordSensor> {
        let weak = Arc::downgrade(shared);
        let on_option: OptionCallback = {
            let weak = weak.clone();
            Arc::new(move |name: &str, value: f32| {
                if let Some(shared) = weak.upgrade() {
                    let at = shared.capture_time();
                    let name = name.to_owned();
                    shared.push_event(Job::Option {
                        sensor: index,
                        name,
                        value,
                        at,
                    });
                }
            })
        };
        inner.add_option_listener(on_option);
        let on_notification: NotificationCallback = {
            let weak = weak.clone();
            Arc::new(move |n: &Notification| {
                if let Some(shared) = weak.upgrade() {
                    let at = shared.capture_time();
                    shared.push_event(Job::Notification {
                        sensor: index,
                        notification: n.clone(),
                        at,
                    });
                }
            })
        };
        inner.add_notification_listener(on_notification);
        Arc::new(RecordSensor {
            index,
            inner,
            shared: weak,
            streaming: AtomicBool::new(false),
        })
    }

    fn stop_if_streaming(&self) {
        if self.streaming.load(Ordering::Acquire) {
            if let Err(e) = self.stop() {
                tracing::warn!("stopping sensor {}: {e}", self.index);
            }
        }
    }
}

impl Sensor for RecordSensor {
    crate::forward_sensor_description!(inner);

    fn open(&self, profiles: &[StreamProfile]) -> Result<()> {
        if let Some(shared) = self.shared.upgrade() {
            let options = &shared.options;
            let pose = profiles.iter().find(|p| p.stream.kind == StreamKind::Pose);
            if let (Some(pose), Some(FileFormat::Db3), false) =
                (pose, options.format, options.db3.pose)
            {
                return Err(Error::Unsupported(format!(
                    "{} would not be recorded: librealsense 2.59 cannot open a .db3 with a pose \
                     stream; record a .bag, or set RecordOptions::db3.pose to write it anyway",
                    pose.stream
                )));
            }
        }
        self.inner.open(profiles)
    }

    fn start(&self, callback: FrameCallback) -> Result<()> {
        let profiles = self.inner.active_profiles();
        let shared = self
            .shared
            .upgrade()
            .filter(|s| !s.closed.load(Ordering::Acquire))
            .ok_or_else(|| {
                Error::InvalidArgument(
                    "cannot start a sensor of a finished recording: frames would not be recorded"
                        .into(),
                )
            })?;
        if let Some(failure) = shared.failure.lock().clone() {
            return Err(Error::InvalidArgument(format!(
                "cannot start a sensor of a recording that failed: {failure}"
            )));
        }
        let new = shared.first_described(self.index, &profiles)?;
        if !new.is_empty() {
            let at = shared.capture_time();
            shared.push_event(Job::StreamsStarted {
                sensor: self.index,
                profiles: new,
                at,
            });
        }
        drop(shared);
        let shared = self.shared.clone();
        let index = self.index;
        let recording: FrameCallback = Arc::new(move |frame: Frame| {
            if let Some(shared) = shared.upgrade() {
                shared.push_frame(index, frame.clone());
            }
            callback(frame);
        });
        self.inner.start(recording)?;
        self.streaming.store(true, Ordering::Release);
        Ok(())
    }

    fn stop(&self) -> Result<()> {
        self.streaming.store(false, Ordering::Release);
        self.inner.stop()
    }

    fn close(&self) -> Result<()> {
        self.inner.close()
    }

    fn active_profiles(&self) -> Vec<StreamProfile> {
        self.inner.active_profiles()
    }
}

/// Which extrinsics group each stream belongs to and its transform from
/// the group's reference stream, as librealsense writes them in `tf/<group>`.
struct ExtrinsicsGroups {
    device: Arc<dyn Device>,
    /// Each group's reference stream, by group number.
    references: Vec<StreamId>,
}

impl ExtrinsicsGroups {
    fn new(device: Arc<dyn Device>, snapshot: &DeviceSnapshot) -> Self {
        let reference = snapshot
            .sensors
            .iter()
            .flat_map(|s| s.profiles.first())
            .map(|p| p.stream);
        ExtrinsicsGroups {
            device,
            references: reference.into_iter().take(1).collect(),
        }
    }

    /// A stream joins the first group whose reference stream has known
    /// extrinsics to it (group 0: the device's first stream); a stream
    /// with none starts a group of its own, which later streams linked to
    /// it join (a tracking camera's fisheye pair, unlinked to its pose
    /// stream, keeps the extrinsics between its two cameras).
    fn of(&mut self, stream: StreamId) -> (u32, Extrinsics) {
        for (group, &reference) in self.references.iter().enumerate() {
            if let Some(extrinsics) = self.device.extrinsics(reference, stream) {
                return (group as u32, extrinsics);
            }
        }
        self.references.push(stream);
        ((self.references.len() - 1) as u32, Extrinsics::IDENTITY)
    }
}

/// At most this many queued frames are written at once.
const FRAMES_AT_ONCE: usize = 16;

/// The writer thread's state.
struct WriterThread {
    writer: Box<dyn RecordingSink>,
    queue: Receiver<Job>,
    queued_bytes: Arc<AtomicUsize>,
    counts: Weak<Shared>,
    /// Current option values per sensor (for depth units).
    options: Vec<Vec<SensorOption>>,
    extrinsics: ExtrinsicsGroups,
}

impl WriterThread {
    fn run(mut self) -> Result<u64> {
        let mut written_extrinsics = std::collections::HashSet::new();
        let mut next = None;
        loop {
            let job = match next.take() {
                Some(job) => job,
                None => match self.queue.recv() {
                    Ok(job) => job,
                    Err(_) => break,
                },
            };
            let result = match job {
                Job::Finish => break,
                Job::Frame { sensor, frame, at } => {
                    // The frames already waiting go with it: a `.db3`
                    // compresses their images on every core.
                    let mut frames = vec![(sensor, frame, at)];
                    while frames.len() < FRAMES_AT_ONCE {
                        match self.queue.try_recv() {
                            Ok(Job::Frame { sensor, frame, at }) => {
                                frames.push((sensor, frame, at))
                            }
                            Ok(other) => {
                                next = Some(other);
                                break;
                            }
                            Err(_) => break,
                        }
                    }
                    let result = self.write_frames(&frames, &mut written_extrinsics);
                    if result.is_err() {
                        self.count_dropped(frames.iter().map(|(_, frame, _)| frame));
                    }
                    result
                }
                Job::StreamsStarted {
                    sensor,
                    profiles,
                    at,
                } => profiles
                    .iter()
                    .try_for_each(|p| self.writer.write_stream_info(sensor, p, at)),
                Job::Option {
                    sensor,
                    name,
                    value,
                    at,
                } => self.write_option(sensor, name, value, at),
                Job::Notification {
                    sensor,
                    notification,
                    at,
                } => self.writer.write_notification(sensor, &notification, at),
            };
            if let Err(e) = result {
                // The file cannot be completed; keep what was written (the
                // `.partial` file is recoverable) and report the error.
                let e = e.in_file(self.writer.partial_path());
                if let Some(shared) = self.counts.upgrade() {
                    shared.fail(&e);
                }
                // What was queued before the failure is lost too.
                self.count_leftovers_as_dropped();
                return Err(e);
            }
        }
        self.count_leftovers_as_dropped();
        self.writer.finish()
    }

    /// Frames taken off the queue together, each stream's extrinsics
    /// before its first frame.
    fn write_frames(
        &mut self,
        frames: &[(u32, Frame, u64)],
        written_extrinsics: &mut std::collections::HashSet<StreamTopic>,
    ) -> Result<()> {
        let mut writes = Vec::with_capacity(frames.len());
        for (sensor, frame, at) in frames {
            self.queued_bytes
                .fetch_sub(frame.data.len(), Ordering::AcqRel);
            let stream = StreamTopic::new(0, *sensor, frame.profile.stream);
            if written_extrinsics.insert(stream) {
                let (group, e) = self.extrinsics.of(frame.profile.stream);
                self.writer.write_extrinsics(stream, group, &e)?;
            }
            let depth_units = self
                .options
                .get(*sensor as usize)
                .map_or(0.0, |o| depth_units_of(o));
            writes.push(FrameWrite {
                sensor: *sensor,
                frame,
                depth_units,
                capture_ns: *at,
            });
        }
        self.writer.write_frames(&writes)?;
        if let Some(shared) = self.counts.upgrade() {
            let mut counts = shared.counts.lock();
            for (_, frame, _) in frames {
                let entry = counts.entry(frame.profile.stream).or_default();
                entry.written += 1;
                entry.bytes += frame.data.len() as u64;
            }
        }
        Ok(())
    }

    fn write_option(&mut self, sensor: u32, name: String, value: f32, at: u64) -> Result<()> {
        let Some(options) = self.options.get_mut(sensor as usize) else {
            return Ok(());
        };
        let index = match options.iter().position(|o| o.name == name) {
            Some(index) => index,
            None => {
                options.push(SensorOption {
                    name,
                    value,
                    range: crate::device::OptionRange::fixed(value),
                    description: String::new(),
                    read_only: false,
                });
                options.len() - 1
            }
        };
        options[index].value = value;
        let option = options[index].clone();
        self.writer.write_option(sensor, &option, at)
    }

    /// Count the frames still queued as dropped.
    fn count_leftovers_as_dropped(&self) {
        let leftovers: Vec<Frame> = self
            .queue
            .try_iter()
            .filter_map(|job| match job {
                Job::Frame { frame, .. } => Some(frame),
                _ => None,
            })
            .collect();
        self.count_dropped(leftovers.iter());
    }

    fn count_dropped<'a>(&self, frames: impl Iterator<Item = &'a Frame>) {
        let Some(shared) = self.counts.upgrade() else {
            return;
        };
        let mut counts = shared.counts.lock();
        for frame in frames {
            counts.entry(frame.profile.stream).or_default().dropped += 1;
        }
    }
}

impl std::fmt::Debug for RecordSensor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RecordSensor")
            .field("index", &self.index)
            .field("name", &self.inner.name())
            .finish_non_exhaustive()
    }
}
