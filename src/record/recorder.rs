//! The recorder: a [`Device`] that wraps another and writes everything it
//! streams into a RealSense bag.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Weak};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender, TrySendError};
use parking_lot::Mutex;

use super::create_sink;
use super::db3_writer::Db3Options;
use super::pieces::{Closing, Piece, Pieces, Split};
use super::sink::{write_description, FrameWrite, RecordingSink};
use crate::device::{
    depth_units_of, CameraInfo, Device, DeviceSnapshot, Extrinsics, Frame, FrameCallback,
    Notification, NotificationCallback, OptionCallback, Sensor, SensorOption, StreamId, StreamKind,
    StreamProfile,
};
use crate::realsense::topics::StreamTopic;
use crate::storage::bag::{Compression, WriterOptions};
use crate::storage::reserve::SpaceReserve;
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
    /// When the queue is full, the camera's callback waits for room (until
    /// its sensor stops or the recording ends) instead of the frame being
    /// dropped: for a source that can wait, such as the synthetic camera,
    /// never for a real camera, whose driver drops what a callback holds up.
    pub wait_when_full: bool,
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
    /// Write the recording in pieces (`NAME_0.EXT`, `NAME_1.EXT`, …),
    /// each a whole recording of its own; `None`: one file.
    pub split: Option<Split>,
}

impl Default for RecordOptions {
    fn default() -> Self {
        RecordOptions {
            compression: Compression::Lz4,
            chunk_threshold: WriterOptions::default().chunk_threshold,
            max_queued_bytes: 256 << 20,
            max_queued_frames: 1024,
            wait_when_full: false,
            overwrite: false,
            format: None,
            db3: Db3Options::default(),
            split: None,
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
    /// The file; of a split recording, its last piece.
    pub path: PathBuf,
    /// Size of the file in bytes; of a split recording, of the pieces
    /// kept.
    pub file_size: u64,
    /// A split recording's pieces, in order (empty for one file).
    pub pieces: Vec<Piece>,
    /// Why writing stopped before the recording ended, when it did: the
    /// disk filled up, or a split recording's next piece could not be
    /// started. The files are finished and indexed, with every frame
    /// written until then; the frames after it are counted dropped.
    pub stopped: Option<String>,
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

/// What became of a frame offered to the writer's queue.
enum Offer {
    Queued,
    /// No room for it now.
    Full(Frame),
    /// The writer failed or is gone.
    Lost(Frame),
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
    /// The final name of the file being written.
    current: Mutex<PathBuf>,
    /// A split recording's finished pieces.
    pieces: Arc<Mutex<Vec<Piece>>>,
}

impl Shared {
    fn capture_time(&self) -> u64 {
        self.clock.lock().now_ns(Instant::now())
    }

    /// Queue a frame, or drop and count it when paused, closed or full;
    /// with [`RecordOptions::wait_when_full`], a full queue is waited on
    /// while `streaming` holds and the recording goes on.
    fn push_frame(&self, sensor: u32, frame: Frame, streaming: &AtomicBool) {
        let mut frame = frame;
        loop {
            if self.closed.load(Ordering::Acquire) || self.paused.load(Ordering::Acquire) {
                return;
            }
            let lost = match self.offer_frame(sensor, frame) {
                Offer::Queued => return,
                Offer::Full(full)
                    if self.options.wait_when_full && streaming.load(Ordering::Acquire) =>
                {
                    frame = full;
                    std::thread::sleep(Duration::from_millis(1));
                    continue;
                }
                Offer::Full(lost) | Offer::Lost(lost) => lost,
            };
            let mut counts = self.counts.lock();
            counts.entry(lost.profile.stream).or_default().dropped += 1;
            return;
        }
    }

    /// Offer a frame to the writer's queue.
    fn offer_frame(&self, sensor: u32, frame: Frame) -> Offer {
        // Held until the frame is queued, so that the writer, failing,
        // either finds this frame in the queue (and counts it dropped) or
        // this finds the failure.
        let failure = self.failure.lock();
        if failure.is_some() {
            return Offer::Lost(frame);
        }
        let at = {
            let mut clock = self.clock.lock();
            let now = Instant::now();
            clock.start_if_needed(now);
            clock.now_ns(now)
        };
        let size = frame.data.len();
        let queued = self.queued_bytes.fetch_add(size, Ordering::AcqRel) + size;
        // A frame larger than the limit, waited for, goes alone.
        let alone = self.options.wait_when_full && queued == size;
        let offer = if queued > self.options.max_queued_bytes && !alone {
            Offer::Full(frame)
        } else {
            let job = Job::Frame {
                sensor,
                frame: frame.clone(),
                at,
            };
            match self.jobs.try_send(job) {
                Ok(()) => Offer::Queued,
                Err(TrySendError::Full(_)) => Offer::Full(frame),
                Err(TrySendError::Disconnected(_)) => Offer::Lost(frame),
            }
        };
        drop(failure);
        if !matches!(offer, Offer::Queued) {
            self.queued_bytes.fetch_sub(size, Ordering::AcqRel);
        }
        offer
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
    writer: Mutex<Option<JoinHandle<Result<Written>>>>,
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
        let file = FileSpec {
            format,
            bag: writer_options,
            db3: options.db3,
            overwrite: options.overwrite,
        };
        let finished_pieces = Arc::new(Mutex::new(Vec::new()));
        let mut pieces = options
            .split
            .map(|split| Pieces::new(path.clone(), split, finished_pieces.clone()));
        let first = match pieces.as_mut() {
            Some(pieces) => pieces.next_path(),
            None => path.clone(),
        };
        let writer = file.start(first.clone(), &snapshot)?;
        // Where the file cannot be opened again, no room is kept: a full
        // disk then fails a write, and the `.partial` file is left.
        let reserve = SpaceReserve::open(writer.partial_path()).ok();
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
            current: Mutex::new(first.clone()),
            pieces: finished_pieces,
        });
        let extrinsics = ExtrinsicsGroups::new(device.clone(), &snapshot);
        let thread = WriterThread {
            writer,
            path: first,
            reserve,
            file,
            pieces,
            options: snapshot.sensors.iter().map(|s| s.options.clone()).collect(),
            snapshot,
            queue,
            queued_bytes: shared.queued_bytes.clone(),
            counts: Arc::downgrade(&shared),
            extrinsics,
            written_extrinsics: HashSet::new(),
            streams: Vec::new(),
            file_start: 0,
            frames_in_file: 0,
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

    /// The final name of the file being written: of a split recording,
    /// the piece being written.
    pub fn current_path(&self) -> PathBuf {
        self.shared.current.lock().clone()
    }

    /// A split recording's pieces finished so far.
    pub fn pieces(&self) -> Vec<Piece> {
        self.shared.pieces.lock().clone()
    }

    /// The frames written and dropped so far, per stream.
    pub fn counts(&self) -> BTreeMap<StreamId, StreamCounts> {
        self.shared.counts.lock().clone()
    }

    /// Why writing stopped, if it did: the first write error, or a full
    /// disk. After a write error what was written lies complete in the
    /// `.partial` file (recoverable with
    /// [`crate::storage::bag::Bag::scan`] or `rsbag reindex`) and
    /// [`finish`](Self::finish) returns the error; a full disk is met
    /// before it fails a write (room to finish the file is kept on the
    /// disk as it is written), and the file is finished and indexed under
    /// its name ([`RecordReport::stopped`]). Either way, later frames are
    /// dropped and counted.
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
        let written = handle
            .join()
            .map_err(|_| Error::Thread("the recorder's writer thread panicked".into()))??;
        let pieces = self.pieces();
        let file_size = match pieces.is_empty() {
            true => written.file_size,
            false => pieces.iter().filter(|p| !p.deleted).map(|p| p.size).sum(),
        };
        Ok(RecordReport {
            path: self.current_path(),
            file_size,
            pieces,
            streams: self.counts(),
            duration,
            stopped: written.stopped,
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
    /// Set from just before the sensor starts until it stops: a frame
    /// waiting for room in the queue waits no longer than this.
    streaming: Arc<AtomicBool>,
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
            streaming: Arc::new(AtomicBool::new(false)),
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
        let streaming = self.streaming.clone();
        let recording: FrameCallback = Arc::new(move |frame: Frame| {
            if let Some(shared) = shared.upgrade() {
                shared.push_frame(index, frame.clone(), &streaming);
            }
            callback(frame);
        });
        self.streaming.store(true, Ordering::Release);
        let started = self.inner.start(recording);
        if started.is_err() {
            self.streaming.store(false, Ordering::Release);
        }
        started
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
    /// Each stream's group and transform, once found (each piece of a
    /// split recording writes them again).
    found: HashMap<StreamId, (u32, Extrinsics)>,
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
            found: HashMap::new(),
        }
    }

    /// A stream joins the first group whose reference stream has known
    /// extrinsics to it (group 0: the device's first stream); a stream
    /// with none starts a group of its own, which later streams linked to
    /// it join (a tracking camera's fisheye pair, unlinked to its pose
    /// stream, keeps the extrinsics between its two cameras).
    fn of(&mut self, stream: StreamId) -> (u32, Extrinsics) {
        if let Some(found) = self.found.get(&stream) {
            return *found;
        }
        let found = self.group_of(stream);
        self.found.insert(stream, found);
        found
    }

    fn group_of(&mut self, stream: StreamId) -> (u32, Extrinsics) {
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

/// Room asked of the disk for each frame beyond its bytes: its metadata
/// and message headers.
const FRAME_OVERHEAD: u64 = 4096;

/// How each file of a recording is made.
struct FileSpec {
    format: FileFormat,
    bag: WriterOptions,
    db3: Db3Options,
    overwrite: bool,
}

impl FileSpec {
    /// A new file at `path` beginning with the device's description.
    fn start(&self, path: PathBuf, snapshot: &DeviceSnapshot) -> Result<Box<dyn RecordingSink>> {
        let mut writer = create_sink(path, self.format, self.bag, self.db3, self.overwrite)?;
        if let Err(e) = write_description(writer.as_mut(), snapshot) {
            writer.abandon();
            return Err(e);
        }
        Ok(writer)
    }
}

/// What the writer thread finished.
struct Written {
    file_size: u64,
    /// Why writing stopped early (a full disk).
    stopped: Option<String>,
}

/// The writer thread's state.
struct WriterThread {
    writer: Box<dyn RecordingSink>,
    /// The final name of the file being written.
    path: PathBuf,
    /// Room on the disk for the file being written to be finished.
    reserve: Option<SpaceReserve>,
    file: FileSpec,
    /// A split recording's pieces.
    pieces: Option<Pieces>,
    /// The device as described at the start (each piece begins with it,
    /// with the options current then).
    snapshot: DeviceSnapshot,
    queue: Receiver<Job>,
    queued_bytes: Arc<AtomicUsize>,
    counts: Weak<Shared>,
    /// Current option values per sensor (for depth units).
    options: Vec<Vec<SensorOption>>,
    extrinsics: ExtrinsicsGroups,
    written_extrinsics: HashSet<StreamTopic>,
    /// Every stream described so far, described again in each piece.
    streams: Vec<(u32, StreamProfile)>,
    /// The capture time the file being written starts at: its times are
    /// counted from there.
    file_start: u64,
    /// Frames written to the file being written.
    frames_in_file: u64,
}

impl WriterThread {
    fn run(mut self) -> Result<Written> {
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
                    match self.write_frames(&frames) {
                        Ok(None) => Ok(()),
                        Ok(Some(why)) => return self.stop_early(why),
                        Err(e) => Err(e),
                    }
                }
                Job::StreamsStarted {
                    sensor,
                    profiles,
                    at,
                } => {
                    let at = self.file_time(at);
                    self.streams.extend(profiles.iter().map(|p| (sensor, *p)));
                    profiles
                        .iter()
                        .try_for_each(|p| self.writer.write_stream_info(sensor, p, at))
                }
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
                } => {
                    let at = self.file_time(at);
                    self.writer.write_notification(sensor, &notification, at)
                }
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
        self.finish(None)
    }

    /// Finish the file (and a split recording's pieces).
    fn finish(self, stopped: Option<String>) -> Result<Written> {
        let WriterThread {
            writer,
            path,
            reserve,
            pieces,
            ..
        } = self;
        let file_size = match pieces {
            Some(pieces) => pieces.finish(Closing { writer, reserve }, path)?,
            None => Closing { writer, reserve }.finish()?,
        };
        Ok(Written { file_size, stopped })
    }

    /// Writing must stop (`why`: the disk is full, say): no more frames
    /// are taken, the file is finished with what was written.
    fn stop_early(self, why: String) -> Result<Written> {
        if let Some(shared) = self.counts.upgrade() {
            shared.fail(&Error::InvalidArgument(why.clone()));
        }
        self.count_leftovers_as_dropped();
        self.finish(Some(why))
    }

    /// `at` (capture time) in the file being written.
    fn file_time(&self, at: u64) -> u64 {
        at.saturating_sub(self.file_start)
    }

    /// Frames taken off the queue together, a split recording moving on
    /// to its next piece before the frame that fills one; `Some` (saying
    /// why) when writing must stop with the file finished (the disk is
    /// full, or the next piece cannot be started), the frames from there
    /// on counted dropped.
    fn write_frames(&mut self, frames: &[(u32, Frame, u64)]) -> Result<Option<String>> {
        for (_, frame, _) in frames {
            self.queued_bytes
                .fetch_sub(frame.data.len(), Ordering::AcqRel);
        }
        let mut run = 0;
        let mut run_bytes = 0;
        for (i, (_, frame, at)) in frames.iter().enumerate() {
            let in_file = self.frames_in_file + (i - run) as u64;
            let due = self.pieces.as_ref().is_some_and(|p| {
                in_file > 0 && p.due(self.file_time(*at), self.writer.size_so_far() + run_bytes)
            });
            if due {
                if let Some(full) = self.write_run(&frames[run..i])? {
                    self.count_dropped(frames[i..].iter().map(|(_, f, _)| f));
                    return Ok(Some(full));
                }
                if let Err(e) = self.next_piece(*at) {
                    self.count_dropped(frames[i..].iter().map(|(_, f, _)| f));
                    return Ok(Some(format!(
                        "{e}: the next piece could not be started; writing stopped {:.2} s \
                         into the recording, and {} is finished and indexed with every frame \
                         written until then",
                        *at as f64 / 1e9,
                        self.path.display()
                    )));
                }
                run = i;
                run_bytes = 0;
            }
            run_bytes += frame.data.len() as u64;
        }
        self.write_run(&frames[run..])
    }

    /// Frames of one file, each stream's extrinsics before its first
    /// frame in the file.
    fn write_run(&mut self, frames: &[(u32, Frame, u64)]) -> Result<Option<String>> {
        if frames.is_empty() {
            return Ok(None);
        }
        if let Some(full) = self.make_room(frames)? {
            self.count_dropped(frames.iter().map(|(_, f, _)| f));
            return Ok(Some(full));
        }
        let written = self.write_run_to_file(frames);
        if written.is_err() {
            self.count_dropped(frames.iter().map(|(_, frame, _)| frame));
        }
        written?;
        self.frames_in_file += frames.len() as u64;
        if let Some(shared) = self.counts.upgrade() {
            let mut counts = shared.counts.lock();
            for (_, frame, _) in frames {
                let entry = counts.entry(frame.profile.stream).or_default();
                entry.written += 1;
                entry.bytes += frame.data.len() as u64;
            }
        }
        Ok(None)
    }

    fn write_run_to_file(&mut self, frames: &[(u32, Frame, u64)]) -> Result<()> {
        let mut writes = Vec::with_capacity(frames.len());
        for (sensor, frame, at) in frames {
            let stream = StreamTopic::new(0, *sensor, frame.profile.stream);
            if self.written_extrinsics.insert(stream) {
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
                capture_ns: self.file_time(*at),
            });
        }
        self.writer.write_frames(&writes)
    }

    /// Make sure the file can take `frames` and still be finished; `Some`
    /// (saying why) when the disk has no room for them.
    fn make_room(&mut self, frames: &[(u32, Frame, u64)]) -> Result<Option<String>> {
        let Some(reserve) = self.reserve.as_mut() else {
            return Ok(None);
        };
        let bytes: u64 = frames
            .iter()
            .map(|(_, f, _)| f.data.len() as u64 + FRAME_OVERHEAD)
            .sum();
        let size = self.writer.finished_size_bound() + bytes;
        let partial = self.writer.partial_path();
        match reserve.make_room(size) {
            Ok(Ok(())) => Ok(None),
            Ok(Err(no_room)) => {
                let dir = partial.parent().unwrap_or(Path::new("."));
                let at = frames.first().map_or(0, |(_, _, at)| *at);
                Ok(Some(format!(
                    "the disk holding {} is full ({:.1} MB free, {:.1} MB kept free beside the \
                     recording): writing stopped {:.2} s into the recording; {} is finished and \
                     indexed with every frame written until then, and the frames from there on \
                     were not recorded",
                    dir.display(),
                    no_room.free as f64 / 1e6,
                    crate::storage::reserve::KEEP_FREE as f64 / 1e6,
                    at as f64 / 1e9,
                    self.path.display()
                )))
            }
            Err(e) => Err(Error::from(e).in_file(partial)),
        }
    }

    /// A split recording moves on to its next piece at capture time `at`:
    /// the piece begins with the device's description (its options as
    /// they are now) and every stream's, and the piece before is finished
    /// meanwhile.
    fn next_piece(&mut self, at: u64) -> Result<()> {
        let Some(pieces) = self.pieces.as_mut() else {
            return Ok(());
        };
        let path = pieces.next_path();
        let mut snapshot = self.snapshot.clone();
        for (sensor, options) in snapshot.sensors.iter_mut().zip(&self.options) {
            sensor.options = options.clone();
        }
        let mut next = self.file.start(path.clone(), &snapshot)?;
        let described = self
            .streams
            .iter()
            .try_for_each(|(sensor, profile)| next.write_stream_info(*sensor, profile, 0));
        if let Err(e) = described {
            next.abandon();
            return Err(e);
        }
        let reserve = SpaceReserve::open(next.partial_path()).ok();
        let finished = std::mem::replace(&mut self.writer, next);
        let finished_reserve = std::mem::replace(&mut self.reserve, reserve);
        let finished_path = std::mem::replace(&mut self.path, path.clone());
        if let Some(shared) = self.counts.upgrade() {
            *shared.current.lock() = path;
        }
        pieces.close(
            Closing {
                writer: finished,
                reserve: finished_reserve,
            },
            finished_path,
        )?;
        self.written_extrinsics.clear();
        self.file_start = at;
        self.frames_in_file = 0;
        Ok(())
    }

    fn write_option(&mut self, sensor: u32, name: String, value: f32, at: u64) -> Result<()> {
        let at = self.file_time(at);
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
