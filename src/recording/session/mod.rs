//! Several recordings as one session: every frame of every file on one
//! timeline, the clock they share, and framesets across cameras.
//!
//! A multi-camera rig records one file per camera. Each file counts time
//! its own way (bag time since its own start; frame timestamps on its own
//! device clock), so a [`Session`] first chooses the best clock every
//! recording shares ([`SessionClock`]) and then merges the files' frames
//! in time order on it.

use std::collections::BTreeSet;
use std::ops::Bound;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use super::reader::{FrameReader, RecordedFrame};
use crate::device::{camera_info, metadata_key, StreamId, TimestampDomain};
use crate::{Error, Result};

mod frames;
mod framesets;
mod query;

pub use frames::SessionFrames;
pub use framesets::{FramesetOptions, SessionFrameSet, SessionFrameSets};
pub use query::SessionQuery;

/// The clock a session orders its frames on, the best that every
/// recording shares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum SessionClock {
    /// The frames' own timestamps, when every stream of every recording
    /// stamps its frames in the Global Time domain (the device clock
    /// mapped to the host's) or the System Time domain (the host's
    /// clock): cameras on one host then share it, to the precision of
    /// the device clocks.
    GlobalTime,
    /// The host time each frame arrived at (librealsense's `system_time`,
    /// or its Time Of Arrival metadata), when every recording has it: the
    /// host's clock, off by each camera's transfer latency.
    ArrivalTime,
    /// Time since each recording's first frame plus the offset given for
    /// its file (0 if none): what is left when the recordings share no
    /// clock.
    RecordingStart,
}

impl SessionClock {
    /// The clock's name, as the command line prints it (`global time`,
    /// `arrival time`, `recording start`).
    pub fn name(self) -> &'static str {
        match self {
            SessionClock::GlobalTime => "global time",
            SessionClock::ArrivalTime => "arrival time",
            SessionClock::RecordingStart => "recording start",
        }
    }

    /// The clock a name stands for (as [`SessionClock::name`] gives it,
    /// or with `-`/`_` for the space; `global`, `arrival`, `start` too).
    pub fn from_name(name: &str) -> Option<SessionClock> {
        let name = name.trim().to_ascii_lowercase().replace(['-', '_'], " ");
        match name.as_str() {
            "global time" | "global" => Some(SessionClock::GlobalTime),
            "arrival time" | "arrival" | "system time" => Some(SessionClock::ArrivalTime),
            "recording start" | "start" => Some(SessionClock::RecordingStart),
            _ => None,
        }
    }

    /// What the clock is, in words.
    pub fn describe(self) -> &'static str {
        match self {
            SessionClock::GlobalTime => "every stream's timestamps are in the Global Time (or System Time) domain, on the host clock",
            SessionClock::ArrivalTime => "the host time each frame arrived (system time, or Time Of Arrival); not every stream has Global Time timestamps",
            SessionClock::RecordingStart => "time since each recording's first frame plus its offset; the recordings share no clock",
        }
    }
}

impl std::fmt::Display for SessionClock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// How to open a session.
#[derive(Debug, Clone, Default)]
pub struct SessionOptions {
    /// The clock to use; `None` chooses the best one all recordings share
    /// ([`Session::clock`] tells which). A clock they do not all have is an
    /// error.
    pub clock: Option<SessionClock>,
    /// Seconds added to the times of a file's frames, by the file's path
    /// as given to [`Session::open_with`]: a file started 0.35 s after the
    /// first has offset 0.35 on [`SessionClock::RecordingStart`]. Offsets
    /// apply on every clock (to correct a known clock error).
    pub offsets: Vec<(PathBuf, f64)>,
}

/// How far the frames of one file may be out of order on a timestamp
/// clock, measured in the file's own recorded order: the longest a frame
/// is held back, until the file has been read this far past it. A frame
/// is released sooner, as soon as every stream of its file with frames
/// still unread has been read up to its time (each stream's frames come
/// in time order), which is at most about a frame period. Frames of one
/// camera arrive within tens of milliseconds of their timestamps; one
/// that arrives later than this is delivered late (counted by
/// [`SessionFrames::out_of_order`]), never dropped. Holding costs time:
/// the frames held keep their decompressed chunks in memory, which the
/// next chunks then cannot reuse (holding every frame the whole window
/// made reading a session 1.2 times, and a 1 s window 1.8 times, as slow
/// as reading the files one after another).
pub const REORDER_WINDOW: Duration = Duration::from_millis(200);

/// One camera of a session: a recording, or one camera of a camera bag
/// of several ([`SessionFile::namespace`]).
#[derive(Debug)]
pub struct SessionFile {
    path: PathBuf,
    reader: Arc<FrameReader>,
    serial: String,
    namespace: Option<String>,
    name: String,
    offset_ms: f64,
    /// Session time minus time since the file's first frame, least and
    /// most over the first and last frames of its streams, in ms.
    lead_ms: (f64, f64),
    /// The first and last frame's session time, in ms.
    span_ms: Option<(f64, f64)>,
}

impl SessionFile {
    /// The file, as given.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The file's reader, shared: a clone reads the file on its own, as
    /// a recording opened alone, while the session lives or after.
    pub fn reader(&self) -> &Arc<FrameReader> {
        &self.reader
    }

    /// The recorded device's serial number; the file's name (without
    /// extension) where the recording has none.
    pub fn serial(&self) -> &str {
        &self.serial
    }

    /// The ROS namespace of the camera, when it is one of several cameras
    /// of a camera bag (`/cam_front/camera`): the reader reads its streams
    /// alone ([`super::Recording::open_camera`]).
    pub fn namespace(&self) -> Option<&str> {
        self.namespace.as_deref()
    }

    /// A name for the camera that no other camera of the session has: the
    /// serial, or for one of several cameras of a bag the parts of its
    /// namespace that tell it from the bag's other cameras, joined with `_`
    /// (`cam_front` of `/cam_front/camera` beside `/cam_rear/camera`);
    /// followed by `-2`, `-3`… when several share it.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Seconds added to the file's frame times.
    pub fn offset(&self) -> f64 {
        self.offset_ms / 1000.0
    }
}

/// A frame of a session.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionFrame {
    /// Position of its file in [`Session::files`].
    pub file: usize,
    /// When it was taken, in ms on the session's clock (offset included).
    pub time_ms: f64,
    /// The frame, as the file's reader gives it.
    pub recorded: RecordedFrame,
}

/// Several recordings read as one session: the best clock they all share,
/// every frame of every file exactly once in time order on it, and
/// framesets of frames taken at the same moment by different cameras.
///
/// Reading is a merge of the files' in-order readers (no threads): it
/// costs what reading the files one after another costs, but for what
/// taking their frames in time order costs the processor (a few percent
/// when the files are in memory; the guide's performance page).
///
/// # Example
/// ```
/// use rsbag::recording::{Session, SessionClock};
/// # fn main() -> rsbag::Result<()> {
/// let session = Session::open([
///     "sample_bags/librealsense-depth-color-lz4.bag",
///     "sample_bags/librealsense-motion-lz4.bag",
/// ])?;
/// assert_eq!(session.files().len(), 2);
/// println!("clock: {} ({})", session.clock(), session.clock().describe());
/// let mut last = f64::MIN;
/// let mut frames = 0;
/// for frame in session.frames()? {
///     let frame = frame?;
///     assert!(frame.time_ms >= last, "in time order");
///     last = frame.time_ms;
///     let file = &session.files()[frame.file];
///     let _ = (file.serial(), frame.recorded.stream);
///     frames += 1;
/// }
/// let each: u64 = session.files().iter().map(|f| {
///     f.reader().streams().iter().map(|&s| f.reader().frame_count(s).unwrap()).sum::<u64>()
/// }).sum();
/// assert_eq!(frames, each);
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct Session {
    files: Vec<SessionFile>,
    clock: SessionClock,
    /// Whether offsets were given: on the recording-start clock they are
    /// what places the files on one timeline.
    offsets_given: bool,
    /// The best clock the recordings share (the session's, unless another
    /// was chosen).
    best: SessionClock,
}

/// Whether a session's recordings are one session: cameras recording at
/// once on one clock. Recordings that share no clock (each timed from its
/// own start, without offsets saying where), or that never record at
/// once, are read on one timeline only because they were given together.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SessionVerdict {
    /// Whether the recordings are one session.
    pub one_session: bool,
    /// How many pieces of one recording (of one device, frames running on
    /// from file to file: see [`super::Pieces`]) the recordings are;
    /// `None` when they are not pieces of one.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub pieces: Option<usize>,
    /// Why, in words.
    pub reason: String,
}

impl Session {
    /// Open the recordings at `paths` (`.bag`, `.db3`, camera bags, in any
    /// mix) on the best clock they share, without offsets. A camera bag of
    /// several cameras (camera namespaces) is one camera of the session
    /// per namespace.
    pub fn open<P: AsRef<Path>>(paths: impl IntoIterator<Item = P>) -> Result<Session> {
        Session::open_with(paths, SessionOptions::default())
    }

    /// Open the recordings at `paths` with `options`.
    pub fn open_with<P: AsRef<Path>>(
        paths: impl IntoIterator<Item = P>,
        options: SessionOptions,
    ) -> Result<Session> {
        let mut readers = Vec::new();
        for path in paths {
            let path = path.as_ref();
            readers.push((path.to_path_buf(), FrameReader::open(path)?));
        }
        Session::from_readers(readers, options)
    }

    /// A session of opened readers, each with the path it was opened
    /// from (which names it and matches [`SessionOptions::offsets`]). A
    /// reader of a camera bag of several cameras is read as one camera per
    /// namespace ([`FrameReader::open_camera`], from the path): they share
    /// the file's timeline and its offset.
    pub fn from_readers(
        readers: Vec<(PathBuf, FrameReader)>,
        options: SessionOptions,
    ) -> Result<Session> {
        if readers.is_empty() {
            return Err(Error::InvalidArgument(
                "a session needs at least one recording".into(),
            ));
        }
        let paths: Vec<&Path> = readers.iter().map(|(p, _)| p.as_path()).collect();
        refuse_repeats(&paths)?;
        for (path, _) in &options.offsets {
            if !readers.iter().any(|(p, _)| p == path) {
                return Err(Error::InvalidArgument(format!(
                    "an offset is given for {}, which is not a recording of the session",
                    path.display()
                )));
            }
        }
        let mut files = Vec::new();
        for (path, reader, camera) in each_camera(readers)? {
            let offset = (options.offsets.iter().rev())
                .find(|(p, _)| *p == path)
                .map_or(0.0, |(_, o)| *o);
            if !offset.is_finite() {
                return Err(Error::InvalidArgument(format!(
                    "the offset of {} is not a number of seconds",
                    path.display()
                )));
            }
            let serial = (reader.recording().snapshot().info)
                .get(camera_info::SERIAL_NUMBER)
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
                .unwrap_or_else(|| file_stem(&path));
            let (namespace, name) = match camera {
                Some(BagCamera { namespace, name }) => (Some(namespace), name),
                None => (None, serial.clone()),
            };
            files.push(SessionFile {
                name,
                serial,
                namespace,
                path,
                reader: Arc::new(reader),
                offset_ms: offset * 1000.0,
                lead_ms: (0.0, 0.0),
                span_ms: None,
            });
        }
        name_uniquely(&mut files);
        let ends = stream_ends(&files)?;
        let best = best_clock(&ends);
        let clock = match options.clock {
            None => best,
            Some(wanted) if shared(&ends, wanted) => wanted,
            Some(wanted) => {
                return Err(Error::InvalidArgument(format!(
                "the recordings do not all have {wanted}: the best clock they share is {best} ({})",
                best.describe()
            )))
            }
        };
        for (file, ends) in files.iter_mut().zip(&ends) {
            let at = |f: &RecordedFrame| clock_ms(clock, f) + file.offset_ms;
            let leads = ends.iter().map(|f| at(f) - ms(f.time));
            file.lead_ms = leads.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), l| {
                (lo.min(l), hi.max(l))
            });
            let times = ends.iter().map(at);
            file.span_ms = (!ends.is_empty()).then(|| {
                times.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), t| {
                    (lo.min(t), hi.max(t))
                })
            });
        }
        Ok(Session {
            files,
            clock,
            offsets_given: !options.offsets.is_empty(),
            best,
        })
    }

    /// Whether the recordings are one session: every camera with frames,
    /// on a clock they share (Global Time or arrival time; or recording
    /// start with offsets given), recording at once for a while.
    pub fn verdict(&self) -> SessionVerdict {
        let verdict = |one_session, reason: String| SessionVerdict {
            one_session,
            pieces: None,
            reason,
        };
        if let [_] = self.files.as_slice() {
            return verdict(true, "one recording".into());
        }
        // Cameras of one bag record at once: they are never pieces.
        if self.files.iter().all(|f| f.namespace.is_none()) {
            let readers: Vec<_> = (self.files.iter())
                .map(|f| (f.path.clone(), f.reader.clone()))
                .collect();
            if let Ok(pieces) = super::Pieces::judge(&readers) {
                return SessionVerdict {
                    one_session: false,
                    pieces: Some(pieces),
                    reason: format!(
                        "one recording in {pieces} pieces: one device, its frames running on from file to file"
                    ),
                };
            }
        }
        if let Some(empty) = self.files.iter().find(|f| f.span_ms.is_none()) {
            return verdict(false, format!("{} has no frames", empty.path.display()));
        }
        if self.best == SessionClock::RecordingStart && !self.offsets_given {
            return verdict(
                false,
                "the recordings share no clock (neither Global Time timestamps nor arrival times) \
                 and no offsets say when each started"
                    .into(),
            );
        }
        match self.overlap_ms() {
            Some((from, to)) => verdict(
                true,
                format!(
                    "every camera records at once for {:.3} s on {}",
                    (to - from) / 1000.0,
                    self.clock
                ),
            ),
            None => verdict(
                false,
                format!("the cameras never all record at once on {}", self.clock),
            ),
        }
    }

    /// The recordings, in the order given.
    pub fn files(&self) -> &[SessionFile] {
        &self.files
    }

    /// The clock frames are ordered on.
    pub fn clock(&self) -> SessionClock {
        self.clock
    }

    /// The time (ms on the session's clock, the file's offset included)
    /// of a frame read from file `file`'s reader.
    pub fn time_ms(&self, file: usize, frame: &RecordedFrame) -> f64 {
        let offset = self.files.get(file).map_or(0.0, |f| f.offset_ms);
        clock_ms(self.clock, frame) + offset
    }

    /// The session time (ms) of its first frame, `None` if no file has
    /// frames.
    pub fn start_ms(&self) -> Option<f64> {
        let starts = self.files.iter().filter_map(|f| f.span_ms.map(|s| s.0));
        starts.reduce(f64::min)
    }

    /// The session time (ms) of its last frame.
    pub(crate) fn end_ms(&self) -> Option<f64> {
        let ends = self.files.iter().filter_map(|f| f.span_ms.map(|s| s.1));
        ends.reduce(f64::max)
    }

    /// Time from the session's first frame to its last.
    pub fn duration(&self) -> Duration {
        match (self.start_ms(), self.end_ms()) {
            (Some(start), Some(end)) => duration_ms(end - start),
            _ => Duration::ZERO,
        }
    }

    /// When every file with frames is recording, in session ms: from the
    /// latest first frame to the earliest last frame; `None` when the
    /// recordings do not overlap.
    pub(crate) fn overlap_ms(&self) -> Option<(f64, f64)> {
        let spans: Vec<(f64, f64)> = self.files.iter().filter_map(|f| f.span_ms).collect();
        let from = spans.iter().map(|s| s.0).reduce(f64::max)?;
        let to = spans.iter().map(|s| s.1).reduce(f64::min)?;
        (from <= to).then_some((from, to))
    }

    /// The streams a name stands for in any of the files (see
    /// [`super::Recording::find_streams`]); a name no file has a stream of
    /// is an error.
    pub fn find_streams(&self, name: &str) -> Result<Vec<StreamId>> {
        let mut found = BTreeSet::new();
        let mut first_error = None;
        for file in &self.files {
            match file.reader.find_streams(name) {
                Ok(streams) => found.extend(streams),
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
        match (found.is_empty(), first_error) {
            (true, Some(e)) => Err(e),
            _ => Ok(found.into_iter().collect()),
        }
    }

    /// Every frame of every file, in time order on the session's clock.
    pub fn frames(&self) -> Result<SessionFrames<'_>> {
        self.select().frames()
    }

    /// Choose streams and a time range, then read frames or framesets.
    pub fn select(&self) -> SessionQuery<'_> {
        SessionQuery {
            session: self,
            streams: None,
            start: Bound::Unbounded,
            end: Bound::Unbounded,
        }
    }

    /// Frames of the session grouped by moment across cameras, with
    /// `options` (see [`SessionFrameSets`] for the rule).
    pub fn framesets(&self, options: FramesetOptions) -> Result<SessionFrameSets<'_>> {
        self.select().framesets(options)
    }
}

/// What a session is: its clock, cameras and when they overlap
/// (`rsbag info` of several files prints it).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SessionSummary {
    /// The clock's name ([`SessionClock::name`]).
    pub clock: &'static str,
    /// Why that clock ([`SessionClock::describe`]).
    pub clock_reason: &'static str,
    /// Seconds from the session's first frame to its last.
    pub duration_s: f64,
    /// One per recording, in the order given.
    pub cameras: Vec<SessionCamera>,
    /// When every camera is recording, seconds from the session's first
    /// frame: `[from, to]`; `None` when they do not overlap.
    pub overlap_s: Option<[f64; 2]>,
    /// Whether the recordings are one session, and why.
    pub verdict: SessionVerdict,
}

/// One recording of a [`SessionSummary`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SessionCamera {
    /// The file, as given.
    pub file: String,
    /// The device's serial number (the file name where there is none).
    pub serial: String,
    /// The camera's name in the session ([`SessionFile::name`]).
    pub name: String,
    /// Its ROS namespace, when it is one of several cameras of a camera
    /// bag ([`SessionFile::namespace`]).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub namespace: Option<String>,
    /// Seconds added to the file's times.
    pub offset_s: f64,
    /// The recorded streams (`Depth`, `Infrared 1`…).
    pub streams: Vec<String>,
    /// Frames of all its streams, from the index.
    pub frames: u64,
    /// Its first and last frames, seconds from the session's first frame;
    /// `None` without frames.
    pub span_s: Option<[f64; 2]>,
}

impl Session {
    /// What the session is, for a report.
    pub fn summary(&self) -> SessionSummary {
        let origin = self.start_ms().unwrap_or(0.0);
        let seconds = |t: f64| ((t - origin) / 1000.0 * 1e6).round() / 1e6;
        let cameras = (self.files.iter())
            .map(|f| {
                let streams = f.reader.streams();
                let frames = (streams.iter())
                    .map(|&s| f.reader.frame_count(s).unwrap_or(0))
                    .sum();
                SessionCamera {
                    file: f.path.display().to_string(),
                    serial: f.serial.clone(),
                    name: f.name.clone(),
                    namespace: f.namespace.clone(),
                    offset_s: f.offset(),
                    streams: streams.iter().map(|s| s.to_string()).collect(),
                    frames,
                    span_s: f.span_ms.map(|(a, b)| [seconds(a), seconds(b)]),
                }
            })
            .collect();
        SessionSummary {
            clock: self.clock.name(),
            clock_reason: self.clock.describe(),
            duration_s: self.duration().as_secs_f64(),
            cameras,
            overlap_s: self.overlap_ms().map(|(a, b)| [seconds(a), seconds(b)]),
            verdict: self.verdict(),
        }
    }
}

/// An error if two of `paths` are one recording: the same file named
/// twice, through another path or a link (told by the file's identity,
/// not its name). A session of a file with itself would give every frame
/// twice, as two cameras in perfect sync.
pub fn refuse_repeats(paths: &[&Path]) -> Result<()> {
    let identities: Vec<Option<FileIdentity>> = paths.iter().map(|p| identity(p)).collect();
    for (i, a) in paths.iter().enumerate() {
        for (j, b) in paths.iter().enumerate().take(i) {
            let same = match (&identities[i], &identities[j]) {
                (Some(x), Some(y)) => x == y,
                _ => a == b,
            };
            if same {
                return Err(Error::InvalidArgument(format!(
                    "{} and {} are the same recording: a session takes each recording once",
                    b.display(),
                    a.display()
                )));
            }
        }
    }
    Ok(())
}

/// What tells one file from another, links followed.
#[cfg(unix)]
type FileIdentity = (u64, u64);
#[cfg(not(unix))]
type FileIdentity = PathBuf;

/// The identity of the file at `path`; `None` where it cannot be told
/// (a URL, a file that cannot be read).
fn identity(path: &Path) -> Option<FileIdentity> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
    }
    #[cfg(not(unix))]
    {
        std::fs::canonicalize(path).ok()
    }
}

/// The stream's first and last frames, per file.
fn stream_ends(files: &[SessionFile]) -> Result<Vec<Vec<RecordedFrame>>> {
    let mut all = Vec::new();
    for file in files {
        let mut ends = Vec::new();
        let reader = &file.reader;
        for stream in reader.streams() {
            let count = reader.frame_count(stream)?;
            if count == 0 {
                continue;
            }
            let read = |i| reader.frame(stream, i).map_err(|e| e.in_file(&file.path));
            ends.push(read(0)?);
            if count > 1 {
                ends.push(read(count - 1)?);
            }
        }
        all.push(ends);
    }
    Ok(all)
}

/// Whether every file's streams have `clock`, judged by each stream's
/// first and last frames.
fn shared(ends: &[Vec<RecordedFrame>], clock: SessionClock) -> bool {
    let mut frames = ends.iter().flatten().peekable();
    if frames.peek().is_none() {
        return clock == SessionClock::RecordingStart;
    }
    match clock {
        SessionClock::GlobalTime => frames.all(|f| {
            matches!(
                f.frame.domain,
                TimestampDomain::GlobalTime | TimestampDomain::SystemTime
            )
        }),
        SessionClock::ArrivalTime => frames.all(|f| arrival_ms(f).is_some()),
        SessionClock::RecordingStart => true,
    }
}

/// The best clock every file's streams share.
fn best_clock(ends: &[Vec<RecordedFrame>]) -> SessionClock {
    [SessionClock::GlobalTime, SessionClock::ArrivalTime]
        .into_iter()
        .find(|&c| shared(ends, c))
        .unwrap_or(SessionClock::RecordingStart)
}

/// A frame's time in ms on `clock`, before the file's offset.
fn clock_ms(clock: SessionClock, frame: &RecordedFrame) -> f64 {
    match clock {
        SessionClock::GlobalTime => frame.frame.timestamp,
        SessionClock::ArrivalTime => arrival_ms(frame).unwrap_or(0.0),
        SessionClock::RecordingStart => ms(frame.time),
    }
}

/// The host time (ms since the epoch) a frame arrived: librealsense's
/// system time, or else its Time Of Arrival metadata (which a software
/// device's frames carry where their system time is 0).
pub(super) fn arrival_ms(frame: &RecordedFrame) -> Option<f64> {
    let frame = &frame.frame;
    if frame.system_time > 0.0 {
        return Some(frame.system_time);
    }
    (frame.metadata.iter())
        .find(|(key, _)| key == metadata_key::TIME_OF_ARRIVAL)
        .map(|&(_, v)| v as f64)
        .filter(|&v| v > 0.0)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// A non-negative number of ms as a duration (0 for less).
fn duration_ms(ms: f64) -> Duration {
    Duration::try_from_secs_f64(ms / 1000.0).unwrap_or(Duration::ZERO)
}

fn file_stem(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

/// Give cameras that share a name `-2`, `-3`… after it, in order.
fn name_uniquely(files: &mut [SessionFile]) {
    let given: Vec<String> = files.iter().map(|f| f.name.clone()).collect();
    for (i, file) in files.iter_mut().enumerate() {
        let same = given[..i].iter().filter(|n| **n == given[i]).count();
        if same > 0 {
            file.name = format!("{}-{}", given[i], same + 1);
        }
    }
}

/// One of several cameras of a camera bag.
struct BagCamera {
    namespace: String,
    /// Its name in the session (see [`camera_names`]).
    name: String,
}

/// `readers` with each camera bag of several cameras replaced by a reader
/// per camera, each with its path and [`BagCamera`]; the others as they
/// are.
fn each_camera(
    readers: Vec<(PathBuf, FrameReader)>,
) -> Result<Vec<(PathBuf, FrameReader, Option<BagCamera>)>> {
    let mut out = Vec::new();
    for (path, reader) in readers {
        let recording = reader.recording();
        if let Some(namespace) = recording.camera_namespace() {
            let namespace = namespace.to_owned();
            let name = camera_names(std::slice::from_ref(&namespace)).remove(0);
            out.push((path, reader, Some(BagCamera { namespace, name })));
            continue;
        }
        let namespaces = recording.camera_namespaces().to_vec();
        if namespaces.len() < 2 {
            out.push((path, reader, None));
            continue;
        }
        drop(reader);
        for (namespace, name) in namespaces.iter().zip(camera_names(&namespaces)) {
            let one = FrameReader::open_camera(&path, namespace)?;
            let camera = BagCamera {
                namespace: namespace.clone(),
                name,
            };
            out.push((path.clone(), one, Some(camera)));
        }
    }
    Ok(out)
}

/// The names of the cameras of one bag under `namespaces`: the parts of
/// each namespace the others do not share at the same place, joined with
/// `_` (`/cam_front/camera` and `/cam_rear/camera` are `cam_front` and
/// `cam_rear`; the wrapper's multi-camera launch's `/camera/D400` and
/// `/camera/D455` are `D400` and `D455`); the whole namespace so joined
/// where that leaves nothing.
fn camera_names(namespaces: &[String]) -> Vec<String> {
    let parts: Vec<Vec<&str>> = (namespaces.iter())
        .map(|n| n.split('/').filter(|p| !p.is_empty()).collect())
        .collect();
    let shared = |at: usize, part: &str| {
        namespaces.len() > 1 && parts.iter().all(|p| p.get(at) == Some(&part))
    };
    parts
        .iter()
        .map(|own| {
            let telling: Vec<&str> = (own.iter().enumerate())
                .filter(|(at, part)| !shared(*at, part))
                .map(|(_, part)| *part)
                .collect();
            match (telling.is_empty(), own.is_empty()) {
                (false, _) => telling.join("_"),
                (true, false) => own.join("_"),
                (true, true) => "camera".to_owned(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::camera_names;

    fn names(namespaces: &[&str]) -> Vec<String> {
        camera_names(&namespaces.iter().map(|n| n.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn a_camera_is_named_by_what_tells_its_namespace_from_the_others() {
        assert_eq!(
            names(&["/cam_front/camera", "/cam_rear/camera"]),
            ["cam_front", "cam_rear"]
        );
        assert_eq!(names(&["/camera/D400", "/camera/D455"]), ["D400", "D455"]);
        assert_eq!(names(&["/a/b/c", "/x/b/y"]), ["a_c", "x_y"]);
        // A namespace inside another: nothing of it tells it apart.
        assert_eq!(names(&["/a", "/a/b"]), ["a", "b"]);
        assert_eq!(names(&["/", "/b"]), ["camera", "b"]);
        assert_eq!(names(&["/cam_front/camera"]), ["cam_front_camera"]);
    }
}
