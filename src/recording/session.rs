//! Several recordings as one session: every frame of every file on one
//! timeline, the clock they share, and framesets across cameras.
//!
//! A multi-camera rig records one file per camera. Each file counts time
//! its own way (bag time since its own start; frame timestamps on its own
//! device clock), so a [`Session`] first chooses the best clock every
//! recording shares ([`SessionClock`]) and then merges the files' frames
//! in time order on it.

use std::cmp::Ordering;
use std::collections::{BTreeSet, VecDeque};
use std::ops::{Bound, RangeBounds};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use super::reader::{FrameQuery, FrameReader, Frames, RecordedFrame};
use crate::device::{camera_info, metadata_key, StreamId, TimestampDomain};
use crate::storage::Decompressors;
use crate::{Error, Result};

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

/// One recording of a session.
#[derive(Debug)]
pub struct SessionFile {
    path: PathBuf,
    reader: Arc<FrameReader>,
    serial: String,
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

    /// A name for the camera that no other file of the session has: the
    /// serial, followed by `-2`, `-3`… when several files share it.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Seconds added to the file's frame times.
    pub fn offset(&self) -> f64 {
        self.offset_ms / 1000.0
    }

    /// The session times (ms) of the file's first and last frames; `None`
    /// for a file without frames.
    pub fn span_ms(&self) -> Option<(f64, f64)> {
        self.span_ms
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
    /// Why, in words.
    pub reason: String,
}

impl Session {
    /// Open the recordings at `paths` (`.bag`, `.db3`, camera bags, in any
    /// mix) on the best clock they share, without offsets.
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
    /// from (which names it and matches [`SessionOptions::offsets`]).
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
        for (path, reader) in readers {
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
            files.push(SessionFile {
                name: serial.clone(),
                serial,
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
            reason,
        };
        if let [_] = self.files.as_slice() {
            return verdict(true, "one recording".into());
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
    pub fn end_ms(&self) -> Option<f64> {
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
    pub fn overlap_ms(&self) -> Option<(f64, f64)> {
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
fn arrival_ms(frame: &RecordedFrame) -> Option<f64> {
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

/// Give files that share a serial `-2`, `-3`… after it, in order.
fn name_uniquely(files: &mut [SessionFile]) {
    for i in 0..files.len() {
        let same = files[..i]
            .iter()
            .filter(|f| f.serial == files[i].serial)
            .count();
        if same > 0 {
            files[i].name = format!("{}-{}", files[i].serial, same + 1);
        }
    }
}

/// Which frames of a session to read: streams and a time range.
#[derive(Debug, Clone)]
pub struct SessionQuery<'s> {
    session: &'s Session,
    streams: Option<Vec<StreamId>>,
    start: Bound<Duration>,
    end: Bound<Duration>,
}

impl<'s> SessionQuery<'s> {
    /// Only these streams, in every file that has them (all streams if
    /// never called). A stream no file has is an error when reading.
    pub fn streams(mut self, streams: impl IntoIterator<Item = StreamId>) -> Self {
        self.streams = Some(streams.into_iter().collect());
        self
    }

    /// Only frames in `range`, times since the session's first frame on
    /// its clock.
    pub fn time(mut self, range: impl RangeBounds<Duration>) -> Self {
        self.start = range.start_bound().cloned();
        self.end = range.end_bound().cloned();
        self
    }

    /// The frames, in time order on the session's clock.
    pub fn frames(self) -> Result<SessionFrames<'s>> {
        let session = self.session;
        let (start, end) = self.bounds_ms();
        let window = self.window_ms();
        // One set of threads decompresses ahead for all the files: a set
        // each would run more threads than cores, each with its buffers.
        let decompressors = Decompressors::default();
        let mut cursors = Vec::new();
        for (index, query) in self.file_queries()? {
            let file = &session.files[index];
            let query = query.decompressors(decompressors.clone());
            let streams = ReadFront::new(query.frame_counts()?);
            let frames = query.frames()?;
            cursors.push(FileCursor {
                file: index,
                path: &file.path,
                clock: session.clock,
                offset_ms: file.offset_ms,
                window_ms: window,
                frames,
                streams,
                held: Vec::new(),
                earliest: None,
                read_to: f64::NEG_INFINITY,
                order: 0,
                done: false,
            });
        }
        Ok(SessionFrames {
            heads: vec![Head::Unread; cursors.len()],
            cursors,
            start,
            end,
            last_ms: f64::NEG_INFINITY,
            out_of_order: 0,
        })
    }

    /// At most how many frames [`frames`](Self::frames) delivers: each
    /// file's frames of the chosen streams (by its index) at the file's
    /// times that can hold frames of the range, which take in up to
    /// [`REORDER_WINDOW`] either side. A progress bar's length; the whole
    /// session's count without a range.
    pub fn frame_count_bound(&self) -> Result<u64> {
        let mut count = 0;
        for (_, query) in self.file_queries()? {
            count += query.frame_counts()?.values().sum::<u64>();
        }
        Ok(count)
    }

    /// The range on the session's clock (offset included), in ms.
    fn bounds_ms(&self) -> (Bound<f64>, Bound<f64>) {
        let origin = self.session.start_ms().unwrap_or(0.0);
        let bound_ms = |b: Bound<Duration>| b.map(|d| origin + ms(d));
        (bound_ms(self.start), bound_ms(self.end))
    }

    /// How far a file's frames can be out of time order, in ms of the
    /// file: none on the recording-start clock (its time is the file's).
    fn window_ms(&self) -> f64 {
        match self.session.clock {
            SessionClock::RecordingStart => 0.0,
            _ => ms(REORDER_WINDOW),
        }
    }

    /// The query of each file with frames to read (by its place in the
    /// session): its chosen streams, at its own times that can hold frames
    /// of the range.
    fn file_queries(&self) -> Result<Vec<(usize, FrameQuery<'s>)>> {
        let session = self.session;
        if let Some(streams) = &self.streams {
            for &s in streams {
                if !session
                    .files
                    .iter()
                    .any(|f| f.reader.streams().contains(&s))
                {
                    return Err(Error::InvalidArgument(format!(
                        "no recording of the session has a {s} stream"
                    )));
                }
            }
        }
        let (start, end) = self.bounds_ms();
        let window = self.window_ms();
        let mut queries = Vec::new();
        for (index, file) in session.files.iter().enumerate() {
            let reader = &file.reader;
            let mut query = reader.select();
            if let Some(streams) = &self.streams {
                let mine: Vec<StreamId> = (reader.streams().into_iter())
                    .filter(|s| streams.contains(s))
                    .collect();
                if mine.is_empty() {
                    continue;
                }
                query = query.streams(mine);
            }
            // The file's own times that can hold frames of the range.
            let (lo, hi) = file.lead_ms;
            let from = match start {
                Bound::Unbounded => Bound::Unbounded,
                Bound::Included(t) | Bound::Excluded(t) => {
                    Bound::Included(duration_ms(t - hi - window))
                }
            };
            let to = match end {
                Bound::Unbounded => Bound::Unbounded,
                Bound::Included(t) | Bound::Excluded(t) => {
                    let t = t - lo + window;
                    if t < 0.0 {
                        continue;
                    }
                    Bound::Included(duration_ms(t))
                }
            };
            queries.push((index, query.time((from, to))));
        }
        Ok(queries)
    }

    /// Frames grouped by moment across cameras (see [`SessionFrameSets`]);
    /// `options.streams` chooses the streams, this query's streams are
    /// not used.
    pub fn framesets(self, options: FramesetOptions) -> Result<SessionFrameSets<'s>> {
        SessionFrameSets::new(self, options, None)
    }

    /// [`framesets`](Self::framesets) whose every frame read first goes
    /// through `each`, which may change it: those that join no set too,
    /// each stream's in its recorded order, as a chain of filters for each
    /// camera needs them (librealsense filters each file's every frame, in
    /// order). An error of `each` is yielded, and the sets go on.
    ///
    /// ```no_run
    /// # use rsbag::recording::{FramesetOptions, Session};
    /// # use rsbag::processing::filters::FilterSpec;
    /// # fn main() -> rsbag::Result<()> {
    /// let session = Session::open(["left.bag", "right.bag"])?;
    /// let filtered = session.filter_each_camera(&[FilterSpec::parse("temporal")?]);
    /// for set in session.select().framesets_with(FramesetOptions::default(), filtered)? {
    ///     let set = set?;
    ///     println!("{} frames at {:.3} ms", set.frames.len(), set.time_ms);
    /// }
    /// # Ok(())
    /// # }
    /// ```
    pub fn framesets_with(
        self,
        options: FramesetOptions,
        each: impl FnMut(SessionFrame) -> Result<SessionFrame> + Send + 's,
    ) -> Result<SessionFrameSets<'s>> {
        SessionFrameSets::new(self, options, Some(Box::new(each)))
    }
}

/// What [`SessionQuery::framesets_with`] does to each frame read.
type EachFrame<'s> = Box<dyn FnMut(SessionFrame) -> Result<SessionFrame> + Send + 's>;

/// Where a frame stands in a session's order: small keys, compared to
/// choose the next frame, while the frames stay held by their streams
/// until delivered (a frame is a few hundred bytes, costly to move).
#[derive(Debug, Clone, Copy)]
struct Turn {
    /// Time on the session's clock.
    time_ms: f64,
    /// Position in the file's recorded order, to keep ties in it.
    order: u64,
    /// The file's cursor (last of ties, the files' order).
    cursor: usize,
    /// The stream (its place in the cursor's [`ReadFront`]) whose first
    /// frame held it is.
    lane: usize,
}

impl PartialEq for Turn {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Turn {}
impl PartialOrd for Turn {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Turn {
    fn cmp(&self, other: &Self) -> Ordering {
        (self.time_ms.total_cmp(&other.time_ms))
            .then(self.order.cmp(&other.order))
            .then(self.cursor.cmp(&other.cursor))
    }
}

/// One file's frames in time order on the session clock: read in recorded
/// order, each held until no frame still to be read can be earlier.
///
/// Each stream's frames come in time order; the file interleaves its
/// streams (a colour frame taken before a depth frame may be written after
/// it). So the earliest frame held is the file's next once every stream
/// with frames still unread (from the index's counts) has been read up to
/// its time: no frame still unread can then be earlier. Frames taken
/// together (a frameset's depth and infrared, one timestamp) go at once;
/// a frame whose streams have not all been read that far waits up to a
/// frame period of the slowest of them. A stream
/// with a gap, or counts the index gets wrong (a damaged file), hold
/// frames no longer than [`REORDER_WINDOW`]: until the file has been read
/// that far past them. A frame out of its own stream's time order goes
/// in its stream's order, after the frames of its stream read before it
/// (and is counted by [`SessionFrames::out_of_order`]).
struct FileCursor<'s> {
    file: usize,
    path: &'s Path,
    clock: SessionClock,
    offset_ms: f64,
    window_ms: f64,
    frames: Frames<'s>,
    /// How far each stream has been read.
    streams: ReadFront,
    /// Each stream's frames held, in recorded order, by its place in
    /// `streams` (the file's head among them until taken).
    held: Vec<VecDeque<Held>>,
    /// The earliest of the streams' first frames held: kept as frames are
    /// held and taken, for it is asked after every frame read.
    earliest: Option<Turn>,
    /// Time since the file's first frame of the last frame read, in ms.
    read_to: f64,
    order: u64,
    done: bool,
}

/// A frame held by its stream until its turn.
struct Held {
    time_ms: f64,
    order: u64,
    frame: RecordedFrame,
}

/// How far a [`FileCursor`] has read each stream of its file.
struct ReadFront {
    streams: Vec<StreamCursor>,
    /// The least of how far each stream with frames unread has been read:
    /// kept as frames are read, for it is asked more often.
    unread_from_ms: f64,
}

impl ReadFront {
    /// Nothing read yet of streams with these frame counts (the index's).
    fn new(counts: impl IntoIterator<Item = (StreamId, u64)>) -> ReadFront {
        let streams: Vec<StreamCursor> = (counts.into_iter())
            .map(|(stream, unread)| StreamCursor {
                stream,
                unread,
                read_to_ms: f64::NEG_INFINITY,
            })
            .collect();
        let mut front = ReadFront {
            streams,
            unread_from_ms: f64::NEG_INFINITY,
        };
        front.unread_from_ms = front.least_read_to_ms();
        front
    }

    /// A frame of `stream` at session time `time_ms` was read; the
    /// stream's place (a stream the counts did not have is added, with
    /// no frames unread: it holds nothing back).
    fn read(&mut self, stream: StreamId, time_ms: f64) -> usize {
        let lane = match self.streams.iter().position(|s| s.stream == stream) {
            Some(lane) => lane,
            None => {
                self.streams.push(StreamCursor {
                    stream,
                    unread: 0,
                    read_to_ms: time_ms,
                });
                return self.streams.len() - 1;
            }
        };
        let s = &mut self.streams[lane];
        s.unread = s.unread.saturating_sub(1);
        s.read_to_ms = time_ms;
        self.unread_from_ms = self.least_read_to_ms();
        lane
    }

    /// The earliest session time a frame still unread can have: the
    /// least of how far each stream with frames unread has been read (on a
    /// tie, the frame held was read first and goes first).
    fn unread_from_ms(&self) -> f64 {
        self.unread_from_ms
    }

    fn least_read_to_ms(&self) -> f64 {
        let mut least = f64::INFINITY;
        for s in &self.streams {
            // A time that is not a number bounds nothing (as `f64::min`).
            if s.unread > 0 && s.read_to_ms < least {
                least = s.read_to_ms;
            }
        }
        least
    }
}

/// How far a [`FileCursor`] has read one stream.
struct StreamCursor {
    stream: StreamId,
    /// Frames in the range not read yet (by the index).
    unread: u64,
    /// The session time of the stream's last frame read: none of its
    /// frames still unread is earlier.
    read_to_ms: f64,
}

impl FileCursor<'_> {
    /// The turn of the file's next frame in session time order (the frame
    /// stays held until taken), or an error met while reading it.
    fn next(&mut self) -> Option<Result<Turn>> {
        loop {
            if let Some(first) = self.earliest {
                if self.done
                    || first.time_ms <= self.streams.unread_from_ms()
                    || self.waited_long(first.lane)
                {
                    return Some(Ok(first));
                }
            } else if self.done {
                return None;
            }
            match self.frames.next() {
                Some(Ok(frame)) => self.hold(frame),
                Some(Err(e)) => return Some(Err(e.in_file(self.path))),
                None => self.done = true,
            }
        }
    }

    /// The earliest of the streams' first frames held.
    fn earliest_held(&self) -> Option<Turn> {
        let mut earliest: Option<Turn> = None;
        for (lane, held) in self.held.iter().enumerate() {
            let Some(first) = held.front() else {
                continue;
            };
            let turn = Turn {
                time_ms: first.time_ms,
                order: first.order,
                cursor: 0,
                lane,
            };
            if earliest.is_none_or(|e| turn < e) {
                earliest = Some(turn);
            }
        }
        earliest
    }

    /// Whether the first frame `lane` holds has been held the longest a
    /// frame is: the file has been read the reordering window past it.
    fn waited_long(&self, lane: usize) -> bool {
        (self.held[lane].front()).is_none_or(|h| self.read_to >= ms(h.frame.time) + self.window_ms)
    }

    /// Hold a frame just read until its turn.
    fn hold(&mut self, frame: RecordedFrame) {
        self.read_to = ms(frame.time);
        let time_ms = clock_ms(self.clock, &frame) + self.offset_ms;
        self.order += 1;
        let lane = self.streams.read(frame.stream, time_ms);
        if lane >= self.held.len() {
            self.held.resize_with(lane + 1, VecDeque::new);
        }
        let held = &mut self.held[lane];
        if held.is_empty() {
            // The stream's first frame held: the earliest, or not.
            let turn = Turn {
                time_ms,
                order: self.order,
                cursor: 0,
                lane,
            };
            if self.earliest.is_none_or(|e| turn < e) {
                self.earliest = Some(turn);
            }
        }
        held.push_back(Held {
            time_ms,
            order: self.order,
            frame,
        });
    }

    /// Take the first frame `lane` holds (the one its turn was given for:
    /// the earliest held).
    fn take(&mut self, lane: usize) -> Option<RecordedFrame> {
        let frame = self.held[lane].pop_front().map(|h| h.frame);
        self.earliest = self.earliest_held();
        frame
    }
}

/// Iterator over the frames of a [`Session`] in time order on its clock.
/// What cannot be read is yielded as an error naming its file, once, and
/// the iteration goes on.
pub struct SessionFrames<'s> {
    cursors: Vec<FileCursor<'s>>,
    /// Each cursor's next frame, by the cursor's place; the earliest is
    /// found by comparing them all (a session has a few cameras).
    heads: Vec<Head>,
    start: Bound<f64>,
    end: Bound<f64>,
    last_ms: f64,
    out_of_order: u64,
}

/// A file's next frame in a session's order.
#[derive(Debug, Clone, Copy)]
enum Head {
    /// Not read yet.
    Unread,
    /// Its turn.
    Next(Turn),
    /// The file has no frames left in the range.
    Done,
}

impl SessionFrames<'_> {
    /// Frames delivered before one earlier on the clock: a frame that
    /// reached its file more than [`REORDER_WINDOW`] out of its time
    /// order (0 for recordings as cameras write them).
    pub fn out_of_order(&self) -> u64 {
        self.out_of_order
    }

    /// Cursor `at`'s next frame (none past the end of the range), or an
    /// error met reading it.
    fn advance(&mut self, at: usize) -> Result<Head> {
        loop {
            match self.cursors[at].next() {
                Some(Ok(turn)) => {
                    if self.past_end(turn.time_ms) {
                        self.cursors[at].take(turn.lane);
                        continue;
                    }
                    return Ok(Head::Next(Turn { cursor: at, ..turn }));
                }
                Some(Err(e)) => return Err(e),
                None => return Ok(Head::Done),
            }
        }
    }

    /// The earliest of the files' next frames, every file's read first;
    /// an error met reading one is returned (that file is read again at
    /// the next call).
    fn earliest_head(&mut self) -> Result<Option<Turn>> {
        let mut earliest: Option<Turn> = None;
        for at in 0..self.heads.len() {
            if let Head::Unread = self.heads[at] {
                self.heads[at] = self.advance(at)?;
            }
            if let Head::Next(turn) = self.heads[at] {
                if earliest.is_none_or(|e| turn < e) {
                    earliest = Some(turn);
                }
            }
        }
        Ok(earliest)
    }

    fn past_end(&self, t: f64) -> bool {
        match self.end {
            Bound::Included(end) => t > end,
            Bound::Excluded(end) => t >= end,
            Bound::Unbounded => false,
        }
    }

    fn before_start(&self, t: f64) -> bool {
        match self.start {
            Bound::Included(start) => t < start,
            Bound::Excluded(start) => t <= start,
            Bound::Unbounded => false,
        }
    }
}

impl Iterator for SessionFrames<'_> {
    type Item = Result<SessionFrame>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let turn = match self.earliest_head() {
                Ok(turn) => turn?,
                Err(e) => return Some(Err(e)),
            };
            self.heads[turn.cursor] = Head::Unread;
            let cursor = &mut self.cursors[turn.cursor];
            // Every head's frame is held by its stream until taken here.
            let Some(frame) = cursor.take(turn.lane) else {
                continue;
            };
            let file = cursor.file;
            let time_ms = turn.time_ms;
            if self.before_start(time_ms) {
                continue;
            }
            if time_ms < self.last_ms {
                self.out_of_order += 1;
            }
            self.last_ms = self.last_ms.max(time_ms);
            return Some(Ok(SessionFrame {
                file,
                time_ms,
                recorded: frame,
            }));
        }
    }
}

impl std::fmt::Debug for SessionFrames<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SessionFrames")
            .field("files", &self.cursors.len())
            .field("out_of_order", &self.out_of_order)
            .finish_non_exhaustive()
    }
}

/// How to group a session's frames by moment.
#[derive(Debug, Clone)]
pub struct FramesetOptions {
    /// The streams to group, in every file that has them (all streams if
    /// empty). Each (file, stream) is a lane of the sets.
    pub streams: Vec<StreamId>,
    /// How far apart on the clock a frame may be from its set's reference
    /// frame.
    pub tolerance: Duration,
}

impl Default for FramesetOptions {
    /// Every stream, within 10 ms (a third of a frame at 30 fps).
    fn default() -> Self {
        FramesetOptions {
            streams: Vec::new(),
            tolerance: Duration::from_millis(10),
        }
    }
}

/// Frames of several cameras taken at one moment.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionFrameSet {
    /// The reference frame's session time, in ms.
    pub time_ms: f64,
    /// The set's frames: the reference frame first, then the other lanes'
    /// in lane order (files as given, streams in order); a lane with no
    /// frame within the tolerance has none here.
    pub frames: Vec<SessionFrame>,
}

impl SessionFrameSet {
    /// The frame of `file`'s `stream`, if the set has one.
    pub fn get(&self, file: usize, stream: StreamId) -> Option<&SessionFrame> {
        (self.frames.iter()).find(|f| f.file == file && f.recorded.stream == stream)
    }
}

/// A lane of framesets: one stream of one file.
type Lane = (usize, StreamId);

/// Iterator over framesets of a session: frames of every camera grouped by
/// moment.
///
/// The rule: the lanes are the chosen streams of each file (files as
/// given, streams in order); the first lane is the reference, and each of
/// its frames makes a set. A frame `b` of another lane joins the set of
/// reference frame `a` when they are each other's nearest (`b` is the
/// frame of its lane nearest to `a`, `a` the reference frame nearest to
/// `b`; ties go to the earlier frame) and at most the tolerance apart.
/// So each frame is in at most one set, and a lane whose camera did not
/// record at that moment has no frame in it. Frames of the other lanes
/// that join no set are counted by [`SessionFrameSets::unmatched`].
///
/// Sets come in time order, each as soon as frames twice the tolerance
/// later have been read: memory holds that much of the session.
pub struct SessionFrameSets<'s> {
    frames: SessionFrames<'s>,
    each: Option<EachFrame<'s>>,
    lanes: Vec<Lane>,
    tolerance_ms: f64,
    /// Reference frames not yet made into sets, in time order.
    references: VecDeque<SessionFrame>,
    /// The last reference frame made into a set: a candidate's nearest
    /// reference may be it.
    previous: Option<f64>,
    /// Other lanes' frames that may still join a set, per lane, in time
    /// order.
    pending: Vec<VecDeque<SessionFrame>>,
    /// Per other lane, the time of its latest frame no longer pending (in
    /// a set, or in none): no later than any pending frame, it may still
    /// be a reference frame's nearest.
    gone: Vec<Option<f64>>,
    read_to: f64,
    done: bool,
    unmatched: u64,
}

impl<'s> SessionFrameSets<'s> {
    fn new(
        query: SessionQuery<'s>,
        options: FramesetOptions,
        each: Option<EachFrame<'s>>,
    ) -> Result<SessionFrameSets<'s>> {
        let session = query.session;
        let mut lanes = Vec::new();
        for (index, file) in session.files.iter().enumerate() {
            for stream in file.reader.streams() {
                if options.streams.is_empty() || options.streams.contains(&stream) {
                    lanes.push((index, stream));
                }
            }
        }
        for &s in &options.streams {
            if !lanes.iter().any(|l| l.1 == s) {
                return Err(Error::InvalidArgument(format!(
                    "no recording of the session has a {s} stream"
                )));
            }
        }
        if lanes.is_empty() {
            return Err(Error::InvalidArgument(
                "the session has no stream to make framesets of".into(),
            ));
        }
        let streams: BTreeSet<StreamId> = lanes.iter().map(|l| l.1).collect();
        let frames = query.streams(streams).frames()?;
        Ok(SessionFrameSets {
            frames,
            each,
            pending: vec![VecDeque::new(); lanes.len() - 1],
            gone: vec![None; lanes.len() - 1],
            lanes,
            tolerance_ms: ms(options.tolerance),
            references: VecDeque::new(),
            previous: None,
            read_to: f64::NEG_INFINITY,
            done: false,
            unmatched: 0,
        })
    }

    /// The lanes, (file, stream), the reference first.
    pub fn lanes(&self) -> &[(usize, StreamId)] {
        &self.lanes
    }

    /// Frames of lanes other than the reference that joined no set, so
    /// far.
    pub fn unmatched(&self) -> u64 {
        self.unmatched
    }

    /// Frames delivered out of time order by the session (see
    /// [`SessionFrames::out_of_order`]).
    pub fn out_of_order(&self) -> u64 {
        self.frames.out_of_order()
    }

    /// Whether the oldest reference frame's set can be made: no frame read
    /// later can join it or be nearer another reference.
    fn ready(&self) -> bool {
        match self.references.front() {
            Some(first) => self.done || self.read_to > first.time_ms + 2.0 * self.tolerance_ms,
            None => false,
        }
    }

    /// Make the set of the oldest reference frame.
    fn make_set(&mut self) -> Option<SessionFrameSet> {
        let reference = self.references.pop_front()?;
        let a = reference.time_ms;
        let next = self.references.front().map(|f| f.time_ms);
        let previous = self.previous.replace(a);
        let tolerance = self.tolerance_ms;
        let mut set = SessionFrameSet {
            time_ms: a,
            frames: vec![reference],
        };
        for (lane, gone) in self.pending.iter_mut().zip(&mut self.gone) {
            // The lane's frame nearest to `a` (ties: the earlier); a frame
            // gone from the lane is earlier than every pending one.
            let distance = |t: f64| (t - a).abs();
            let nearest = (lane.iter().enumerate())
                .map(|(i, f)| (i, distance(f.time_ms)))
                .min_by(|x, y| x.1.total_cmp(&y.1).then(x.0.cmp(&y.0)))
                .filter(|&(_, d)| gone.is_none_or(|g| d < distance(g)));
            if let Some((i, d)) = nearest {
                let b = lane[i].time_ms;
                // `a` must be `b`'s nearest reference frame (ties: the
                // earlier).
                let nearer_elsewhere = previous.is_some_and(|p| (b - p).abs() <= d)
                    || next.is_some_and(|n| (n - b).abs() < d);
                if d <= tolerance && !nearer_elsewhere {
                    *gone = Some(gone.map_or(b, |g| g.max(b)));
                    set.frames.extend(lane.remove(i));
                }
            }
            // Frames no later than `a` are nearer `a` (or an earlier
            // reference frame) than any later one: they join no set now.
            while lane.front().is_some_and(|f| f.time_ms <= a) {
                let t = lane.pop_front().map_or(a, |f| f.time_ms);
                *gone = Some(gone.map_or(t, |g| g.max(t)));
                self.unmatched += 1;
            }
        }
        Some(set)
    }
}

impl Iterator for SessionFrameSets<'_> {
    type Item = Result<SessionFrameSet>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if self.ready() {
                return self.make_set().map(Ok);
            }
            if self.done {
                // What is left joined no set.
                self.unmatched += self.pending.iter().map(|l| l.len() as u64).sum::<u64>();
                self.pending.iter_mut().for_each(VecDeque::clear);
                return None;
            }
            let read = match (self.frames.next(), self.each.as_mut()) {
                (Some(Ok(frame)), Some(each)) => Some(each(frame)),
                (read, _) => read,
            };
            match read {
                Some(Ok(frame)) => {
                    self.read_to = self.read_to.max(frame.time_ms);
                    let lane = (frame.file, frame.recorded.stream);
                    match self.lanes.iter().position(|l| *l == lane) {
                        Some(0) => self.references.push_back(frame),
                        Some(i) => self.pending[i - 1].push_back(frame),
                        None => {}
                    }
                }
                Some(Err(e)) => return Some(Err(e)),
                None => self.done = true,
            }
        }
    }
}

impl std::fmt::Debug for SessionFrameSets<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SessionFrameSets")
            .field("lanes", &self.lanes)
            .field("unmatched", &self.unmatched)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::StreamKind;

    #[test]
    fn a_frame_goes_once_every_stream_with_frames_unread_is_read_up_to_it() {
        let depth = StreamId::new(StreamKind::Depth, 0);
        let infrared = StreamId::new(StreamKind::Infrared, 1);
        let gyro = StreamId::new(StreamKind::Gyro, 0);
        let mut front = ReadFront::new([(depth, 3), (infrared, 3), (gyro, 1)]);
        // Nothing read: any stream's first frame may come first.
        assert_eq!(front.unread_from_ms(), f64::NEG_INFINITY);
        front.read(depth, 0.0);
        front.read(infrared, 0.0);
        assert_eq!(front.unread_from_ms(), f64::NEG_INFINITY, "gyro unread");
        // The gyro's only frame read: it holds nothing back.
        front.read(gyro, 10.0);
        // The frameset at 0 ms goes without the next one being read; a
        // frame at 10 ms waits for depth and infrared to be read that far.
        assert_eq!(front.unread_from_ms(), 0.0);
        front.read(depth, 33.3);
        assert_eq!(front.unread_from_ms(), 0.0, "infrared read to 0 ms");
        front.read(infrared, 33.3);
        assert_eq!(front.unread_from_ms(), 33.3);
        front.read(depth, 66.7);
        front.read(infrared, 66.7);
        // Every frame read: nothing held back.
        assert_eq!(front.unread_from_ms(), f64::INFINITY);
    }

    #[test]
    fn frames_of_streams_the_index_does_not_count_hold_nothing_back() {
        let depth = StreamId::new(StreamKind::Depth, 0);
        let color = StreamId::new(StreamKind::Color, 0);
        let mut front = ReadFront::new([(depth, 2)]);
        front.read(color, 5.0);
        assert_eq!(front.unread_from_ms(), f64::NEG_INFINITY);
        front.read(depth, 1.0);
        assert_eq!(front.unread_from_ms(), 1.0);
    }
}
