//! Offline reading: every recorded frame exactly once, in recorded order or
//! by index, with no threads, and synchronized framesets on top.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::{Bound, RangeBounds};
use std::path::Path;
use std::time::Duration;

use super::frameset::{FrameSet, SyncFrame, SyncOptions, Syncer};
use super::recording::{Event, Events, Recording, TimedEvent};
use crate::device::{Frame, StreamId};
use crate::storage::Decompressors;
use crate::{BagTime, Error, Result};

/// A frame read from a recording, with where it lies in it.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordedFrame {
    /// The stream (also `frame.profile.stream`).
    pub stream: StreamId,
    /// Position of the sensor in [`Recording::snapshot`].
    pub sensor: usize,
    /// Position of the frame in its stream, from 0, in recorded order:
    /// `reader.frame(stream, index)` returns this frame.
    pub index: u64,
    /// Bag time of the frame.
    pub bag_time: BagTime,
    /// Time since the recording's first frame (as [`crate::playback::Playback::seek`]
    /// and `rsbag frames --start` count it).
    pub time: Duration,
    /// The frame; its data borrows the file where the chunk is stored
    /// uncompressed.
    pub frame: Frame,
}

impl SyncFrame for RecordedFrame {
    fn frame(&self) -> &Frame {
        &self.frame
    }
}

/// Where the frames of one stream lie: per chunk, from the bag index.
#[derive(Debug)]
struct StreamIndex {
    /// Connections of the stream's frame data.
    conns: Vec<u32>,
    count: u64,
    layout: Layout,
}

#[derive(Debug)]
enum Layout {
    /// Chunks in time order that do not overlap (as recorders write them):
    /// the k-th frame is found from the per-chunk counts alone.
    Chunks(Vec<Span>),
    /// Chunks that overlap in time: every frame's bag time, in order.
    Times(Vec<u64>),
}

/// The frames of a stream in one chunk.
#[derive(Debug, Clone, Copy)]
struct Span {
    /// Position among the bag's chunks ([`crate::storage::ChunkSpan::index`]).
    chunk: usize,
    /// Where the chunk's record starts in the file.
    pos: u64,
    /// Index of the stream's first frame in the chunk.
    first: u64,
    count: u64,
    start_time: u64,
    end_time: u64,
}

/// A RealSense recording read frame by frame: in recorded order, by index,
/// by frame number or by time, and as synchronized framesets. No threads,
/// no drops: iterating yields exactly the frames librealsense plays from
/// the file (not in real time), every time, in the order they were
/// recorded.
///
/// Random access goes through the bag index: fetching a frame reads the
/// chunk that holds it (and the index entries of that chunk), never the
/// frames before it, so it takes the same time anywhere in a multi-GB file.
/// A compressed chunk is decompressed once for the frames fetched from it
/// one after another, not once a frame: the bag keeps the few chunks
/// random access decompressed last (at most 4 and 64 MB), so that
/// fetching every frame of a stream by index costs about what iterating
/// them does. The reader can be shared between threads.
/// Frame counts come from the index without reading any frame.
///
/// # Example
/// ```
/// use std::time::Duration;
/// use rsbag::device::{StreamId, StreamKind};
/// use rsbag::recording::FrameReader;
/// # fn main() -> rsbag::Result<()> {
/// let reader = FrameReader::open("sample_bags/librealsense-depth-color-lz4.bag")?;
/// let depth = StreamId::new(StreamKind::Depth, 0);
///
/// // Every frame, in recorded order.
/// let mut frames = 0;
/// for frame in reader.frames()? {
///     let frame = frame?;
///     assert!(!frame.frame.data.is_empty());
///     frames += 1;
/// }
/// assert_eq!(frames, 20);
///
/// // Random access through the index.
/// assert_eq!(reader.frame_count(depth)?, 10);
/// let fifth = reader.frame(depth, 4)?;
/// assert_eq!(fifth.frame.number, 5);
/// assert_eq!(reader.frame_by_number(depth, 5)?.map(|f| f.index), Some(4));
///
/// // One stream over a time range, and depth+color framesets.
/// let first_half = reader.select().streams([depth]).time(..Duration::from_millis(150)).frames()?;
/// assert_eq!(first_half.count(), 5);
/// for set in reader.framesets()? {
///     let set = set?;
///     assert!(set.depth().is_some() && set.color().is_some());
/// }
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct FrameReader {
    recording: Recording,
    index: BTreeMap<StreamId, StreamIndex>,
}

impl FrameReader {
    /// Open a bag (a bag whose index is missing is read by a scan).
    pub fn open(path: impl AsRef<Path>) -> Result<FrameReader> {
        let path = path.as_ref();
        FrameReader::from_recording(Recording::open(path)?).map_err(|e| e.in_file(path))
    }

    /// Open the camera under ROS namespace `namespace` of a camera bag of
    /// several ([`Recording::open_camera`]).
    pub fn open_camera(path: impl AsRef<Path>, namespace: &str) -> Result<FrameReader> {
        let path = path.as_ref();
        FrameReader::from_recording(Recording::open_camera(path, namespace)?)
            .map_err(|e| e.in_file(path))
    }

    /// Read an opened recording.
    pub fn from_recording(recording: Recording) -> Result<FrameReader> {
        let mut index = BTreeMap::new();
        for (&stream, recorded) in recording.streams() {
            let conns = recorded.data_connections().to_vec();
            index.insert(stream, StreamIndex::build(&recording, conns)?);
        }
        Ok(FrameReader { recording, index })
    }

    /// The recording (device description, streams, times).
    pub fn recording(&self) -> &Recording {
        &self.recording
    }

    /// The recorded streams.
    pub fn streams(&self) -> Vec<StreamId> {
        self.index.keys().copied().collect()
    }

    /// Time from the first frame to the last.
    pub fn duration(&self) -> Duration {
        self.recording.duration()
    }

    /// The streams a name stands for (see [`Recording::find_streams`]).
    pub fn find_streams(&self, name: &str) -> Result<Vec<StreamId>> {
        super::recording::streams_named(self.index.keys().copied(), name)
    }

    fn stream_index(&self, stream: StreamId) -> Result<&StreamIndex> {
        self.index.get(&stream).ok_or_else(|| {
            Error::InvalidArgument(format!(
                "no stream {stream} in the recording; it has {}",
                super::recording::stream_list(self.index.keys().copied())
            ))
        })
    }

    /// Frames recorded of `stream`, from the index.
    pub fn frame_count(&self, stream: StreamId) -> Result<u64> {
        Ok(self.stream_index(stream)?.count)
    }

    /// Every frame of every stream, in recorded order.
    pub fn frames(&self) -> Result<Frames<'_>> {
        self.select().frames()
    }

    /// Framesets of every stream with the default [`SyncOptions`].
    pub fn framesets(&self) -> Result<FrameSets<'_>> {
        self.select().framesets(SyncOptions::default())
    }

    /// Choose streams and a time range, then read frames or framesets.
    pub fn select(&self) -> FrameQuery<'_> {
        FrameQuery {
            reader: self,
            streams: None,
            start: Bound::Unbounded,
            end: Bound::Unbounded,
            decompressors: None,
        }
    }

    /// The frame at `index` of `stream` (0-based, in recorded order). An
    /// index past the end is an [`Error::InvalidArgument`].
    pub fn frame(&self, stream: StreamId, index: u64) -> Result<RecordedFrame> {
        let si = self.stream_index(stream)?;
        if index >= si.count {
            return Err(Error::InvalidArgument(format!(
                "frame {index} of stream {stream} does not exist: the stream has {} frames",
                si.count
            )));
        }
        let time = si.time_of(&self.recording, index)?;
        // Frames of the stream recorded at the same bag time before it (a
        // damaged index can disagree with itself: found by fuzzing).
        let before = si.count_before(&self.recording, time)?;
        let rank = index.checked_sub(before).ok_or_else(|| Error::Corrupt {
            offset: 0,
            record: "index data",
            reason: format!(
                "the index puts frame {index} of stream {stream} at bag time {time} ns, after {before} frames"
            ),
        })?;
        let events = self
            .recording
            .select()
            .streams([stream])
            .controls(false)
            .time(BagTime::from_nanos(time)..=BagTime::from_nanos(time))
            .random_access()
            .events();
        let mut frames = Frames {
            reader: self,
            events,
            next: BTreeMap::new(),
        };
        for (seen, frame) in (&mut frames).enumerate() {
            let mut frame = frame?;
            if seen as u64 == rank {
                frame.index = index;
                return Ok(frame);
            }
        }
        Err(Error::Corrupt {
            offset: 0,
            record: "index data",
            reason: format!(
                "the index lists frame {index} of stream {stream} at bag time {time} ns, but no such frame is there"
            ),
        })
    }

    /// The bag time of frame `index` of `stream`, from the index.
    pub fn frame_bag_time(&self, stream: StreamId, index: u64) -> Result<BagTime> {
        let si = self.stream_index(stream)?;
        if index >= si.count {
            return Err(Error::InvalidArgument(format!(
                "frame {index} of stream {stream} does not exist: the stream has {} frames",
                si.count
            )));
        }
        si.time_of(&self.recording, index).map(BagTime::from_nanos)
    }

    /// The number of frames of `stream` recorded before `time` (since the
    /// first frame of the recording): the index of the first frame at or
    /// after it.
    pub fn frames_before(&self, stream: StreamId, time: Duration) -> Result<u64> {
        let si = self.stream_index(stream)?;
        si.count_before(&self.recording, self.bag_time(time))
    }

    /// The first frame of `stream` recorded at or after `time` (since the
    /// first frame of the recording); `None` past the stream's last frame.
    pub fn frame_at_or_after(
        &self,
        stream: StreamId,
        time: Duration,
    ) -> Result<Option<RecordedFrame>> {
        let index = self.frames_before(stream, time)?;
        if index >= self.frame_count(stream)? {
            return Ok(None);
        }
        self.frame(stream, index).map(Some)
    }

    /// The frame of `stream` recorded nearest to `time` (since the first
    /// frame of the recording; ties go to the earlier frame); `None` only
    /// if the stream has no frames.
    pub fn frame_nearest(&self, stream: StreamId, time: Duration) -> Result<Option<RecordedFrame>> {
        let count = self.frame_count(stream)?;
        if count == 0 {
            return Ok(None);
        }
        let target = self.recording.start_time() + time;
        let after = self.frames_before(stream, time)?;
        let index = if after == 0 {
            0
        } else if after >= count {
            count - 1
        } else {
            let before_time = self.frame_bag_time(stream, after - 1)?;
            let after_time = self.frame_bag_time(stream, after)?;
            if target - before_time <= after_time - target {
                after - 1
            } else {
                after
            }
        };
        self.frame(stream, index).map(Some)
    }

    /// A frame of `stream` with frame number `number`; `None` if there is
    /// none.
    ///
    /// Found by bisection over the index (reading about log₂(n) frames),
    /// which assumes numbers increase along the stream as a camera counts
    /// them; when the frames probed show they do not (the counter was
    /// reset), the stream is read in order and the first frame with that
    /// number is returned.
    pub fn frame_by_number(&self, stream: StreamId, number: u64) -> Result<Option<RecordedFrame>> {
        let count = self.frame_count(stream)?;
        let mut probes: Vec<(u64, u64)> = Vec::new();
        let (mut lo, mut hi) = (0, count);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let n = self.frame(stream, mid)?.frame.number;
            probes.push((mid, n));
            if n < number {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        if lo < count {
            let frame = self.frame(stream, lo)?;
            if frame.frame.number == number {
                return Ok(Some(frame));
            }
            probes.push((lo, frame.frame.number));
        }
        probes.sort_unstable();
        let increasing = probes.windows(2).all(|w| w[0].1 <= w[1].1);
        if increasing {
            return Ok(None);
        }
        for frame in self.select().streams([stream]).frames()? {
            let frame = frame?;
            if frame.frame.number == number {
                return Ok(Some(frame));
            }
        }
        Ok(None)
    }

    /// The bag time `time` after the recording's first frame, in the
    /// index's nanoseconds.
    fn bag_time(&self, time: Duration) -> u64 {
        (self.recording.start_time() + time).as_nanos()
    }

    /// The first bag time a range starting at `bound` reads: never before
    /// the recording's first event time ([`FIRST_EVENT_TIME`](crate::realsense::convert::FIRST_EVENT_TIME) in a
    /// RealSense recording: what lies before is description, not played).
    fn bag_from(&self, bound: Bound<Duration>) -> u64 {
        let from = match bound {
            Bound::Included(d) => self.bag_time(d),
            Bound::Excluded(d) => self.bag_time(d).saturating_add(1),
            Bound::Unbounded => 0,
        };
        from.max(self.recording.first_event_time())
    }

    fn bag_bound(&self, bound: Bound<Duration>) -> Bound<u64> {
        match bound {
            Bound::Included(d) => Bound::Included(self.bag_time(d)),
            Bound::Excluded(d) => Bound::Excluded(self.bag_time(d)),
            Bound::Unbounded => Bound::Unbounded,
        }
    }
}

impl StreamIndex {
    fn build(recording: &Recording, conns: Vec<u32>) -> Result<StreamIndex> {
        // A .db3 or MCAP file answers with every time at once, from its
        // index.
        if let Some(times) = recording.storage().times(&conns) {
            let times = times?;
            return Ok(StreamIndex {
                conns,
                count: times.len() as u64,
                layout: Layout::Times(times),
            });
        }
        let storage = recording.storage();
        let Some(chunks) = storage.chunks_of(&conns) else {
            return Err(Error::InvalidArgument("a storage without an index".into()));
        };
        let mut spans: Vec<Span> = (chunks.iter())
            .map(|c| Span {
                chunk: c.index,
                pos: c.pos,
                first: 0,
                count: c.count,
                start_time: c.start_time,
                end_time: c.end_time,
            })
            .collect();
        let key = |s: &Span| (s.start_time, s.pos);
        spans.sort_by_key(key);
        // The order messages are read in: by time, ties by chunk position.
        let ordered = spans.windows(2).all(|w| {
            w[0].end_time < w[1].start_time
                || (w[0].end_time == w[1].start_time && key(&w[0]).1 < key(&w[1]).1)
        });
        let mut count = 0;
        for span in &mut spans {
            span.first = count;
            count += span.count;
        }
        let layout = if ordered {
            Layout::Chunks(spans)
        } else {
            let mut entries: Vec<(u64, u64, u32)> = Vec::new();
            for span in &spans {
                entries.extend(
                    (storage.chunk_times(span.chunk, &conns)?)
                        .map(|(time, offset)| (time, span.pos, offset)),
                );
            }
            entries.sort_unstable();
            count = entries.len() as u64;
            Layout::Times(entries.into_iter().map(|e| e.0).collect())
        };
        Ok(StreamIndex {
            conns,
            count,
            layout,
        })
    }

    /// Bag times of the stream's frames in a chunk, in order.
    fn chunk_times<'a>(
        &'a self,
        recording: &'a Recording,
        span: &Span,
    ) -> Result<impl Iterator<Item = u64> + 'a> {
        Ok((recording.storage())
            .chunk_times(span.chunk, &self.conns)?
            .map(|(time, _)| time))
    }

    /// Bag time of frame `index` (< count).
    fn time_of(&self, recording: &Recording, index: u64) -> Result<u64> {
        let spans = match &self.layout {
            Layout::Times(times) => {
                return usize::try_from(index)
                    .ok()
                    .and_then(|i| times.get(i).copied())
                    .ok_or_else(|| past_index(index));
            }
            Layout::Chunks(spans) => spans,
        };
        let at = spans.partition_point(|s| s.first + s.count <= index);
        let span = spans.get(at).ok_or_else(|| past_index(index))?;
        let within = usize::try_from(index - span.first).unwrap_or(usize::MAX);
        self.chunk_times(recording, span)?
            .nth(within)
            .ok_or_else(|| Error::Corrupt {
                offset: span.pos,
                record: "chunk info",
                reason: format!(
                    "the chunk's counts promise {} frames of the stream, its index has fewer",
                    span.count
                ),
            })
    }

    /// The number of frames recorded before bag time `time`.
    fn count_before(&self, recording: &Recording, time: u64) -> Result<u64> {
        let spans = match &self.layout {
            Layout::Times(times) => return Ok(times.partition_point(|&t| t < time) as u64),
            Layout::Chunks(spans) => spans,
        };
        let at = spans.partition_point(|s| s.end_time < time);
        let mut count = spans.get(at).map_or(self.count, |s| s.first);
        for span in spans[at..].iter().take_while(|s| s.start_time < time) {
            count += self
                .chunk_times(recording, span)?
                .filter(|&t| t < time)
                .count() as u64;
        }
        Ok(count)
    }

    /// The number of frames with bag time from `from` within `end`.
    fn count_in(&self, recording: &Recording, from: u64, end: Bound<u64>) -> Result<u64> {
        let until = match end {
            Bound::Unbounded => self.count,
            Bound::Included(t) => match t.checked_add(1) {
                Some(t) => self.count_before(recording, t)?,
                None => self.count,
            },
            Bound::Excluded(t) => self.count_before(recording, t)?,
        };
        Ok(until.saturating_sub(self.count_before(recording, from)?))
    }
}

fn past_index(index: u64) -> Error {
    Error::InvalidArgument(format!("frame {index} is past the end of the stream"))
}

/// Which frames to read: streams and a time range.
#[derive(Debug, Clone)]
pub struct FrameQuery<'r> {
    pub(super) reader: &'r FrameReader,
    streams: Option<Vec<StreamId>>,
    start: Bound<Duration>,
    end: Bound<Duration>,
    /// Shared threads to decompress ahead on: see
    /// [`FrameQuery::decompressors`].
    decompressors: Option<Decompressors>,
}

impl<'r> FrameQuery<'r> {
    /// Only these streams (all recorded streams if never called). A stream
    /// the recording does not have is an error when reading.
    pub fn streams(mut self, streams: impl IntoIterator<Item = StreamId>) -> Self {
        self.streams = Some(streams.into_iter().collect());
        self
    }

    /// Only frames recorded in `range`, times since the recording's first
    /// frame (e.g. `Duration::from_secs(2)..Duration::from_secs(3)`).
    pub fn time(mut self, range: impl RangeBounds<Duration>) -> Self {
        self.start = range.start_bound().cloned();
        self.end = range.end_bound().cloned();
        self
    }

    /// Decompress ahead on the threads of `decompressors`, shared with the
    /// other recordings read at the same time (a session's), rather than
    /// on threads of this read's own.
    pub(crate) fn decompressors(mut self, decompressors: Decompressors) -> Self {
        self.decompressors = Some(decompressors);
        self
    }

    /// The selected streams, checked.
    pub fn selected(&self) -> Result<BTreeSet<StreamId>> {
        match &self.streams {
            None => Ok(self.reader.index.keys().copied().collect()),
            Some(streams) => {
                for &s in streams {
                    self.reader.stream_index(s)?;
                }
                Ok(streams.iter().copied().collect())
            }
        }
    }

    /// Frames per selected stream in the time range, from the index.
    pub fn frame_counts(&self) -> Result<BTreeMap<StreamId, u64>> {
        let (from, end) = (
            self.reader.bag_from(self.start),
            self.reader.bag_bound(self.end),
        );
        self.selected()?
            .into_iter()
            .map(|s| {
                let si = self.reader.stream_index(s)?;
                Ok((s, si.count_in(&self.reader.recording, from, end)?))
            })
            .collect()
    }

    /// The frames, in recorded order (bag time; frames recorded at the same
    /// time in the order they were written).
    pub fn frames(self) -> Result<Frames<'r>> {
        let streams = self.selected()?;
        let reader = self.reader;
        let (from, end) = (reader.bag_from(self.start), reader.bag_bound(self.end));
        let mut next = BTreeMap::new();
        for &s in &streams {
            let si = reader.stream_index(s)?;
            next.insert(s, si.count_before(&reader.recording, from)?);
        }
        let mut events = reader
            .recording
            .select()
            .streams(streams.iter().copied())
            .controls(false)
            .time((
                Bound::Included(BagTime::from_nanos(from)),
                end.map(BagTime::from_nanos),
            ));
        if let Some(decompressors) = self.decompressors {
            events = events.decompressors(decompressors);
        }
        let events = events.events();
        Ok(Frames {
            reader,
            events,
            next,
        })
    }

    /// Synchronized framesets of the selected streams in the time range
    /// (see [`super::frameset`] for the rule).
    pub fn framesets(self, options: SyncOptions) -> Result<FrameSets<'r>> {
        let remaining = self.frame_counts()?;
        let recording = &self.reader.recording;
        Ok(FrameSets::new(
            recording,
            self.frames()?,
            remaining,
            options,
        ))
    }
}

/// Iterator over the frames of a [`FrameReader`] in recorded order. What
/// cannot be read (a damaged chunk, a frame that does not decode) is
/// yielded as an error, once, and the iteration goes on with the frames
/// after it.
pub struct Frames<'r> {
    reader: &'r FrameReader,
    events: Events<'r>,
    /// Index of the next frame of each stream.
    next: BTreeMap<StreamId, u64>,
}

impl Iterator for Frames<'_> {
    type Item = Result<RecordedFrame>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            match self.events.next()? {
                Ok(TimedEvent {
                    time,
                    event: Event::Frame { sensor, frame },
                }) => {
                    let stream = frame.profile.stream;
                    let next = self.next.entry(stream).or_insert(0);
                    let index = *next;
                    *next += 1;
                    let start = self.reader.recording.start_time();
                    return Some(Ok(RecordedFrame {
                        stream,
                        sensor,
                        index,
                        bag_time: time,
                        time: time - start,
                        frame,
                    }));
                }
                Ok(_) => continue,
                Err(e) => return Some(Err(e)),
            }
        }
    }
}

/// Iterator over synchronized framesets read from a [`FrameReader`]. It
/// ends at the end of the time range with every frame delivered: a stream
/// is known to have ended from the index, so gaps never hold it up.
pub struct FrameSets<'r> {
    /// The frames of one recording, or of the pieces of one.
    frames: Box<dyn Iterator<Item = Result<RecordedFrame>> + Send + 'r>,
    syncer: Syncer<RecordedFrame>,
    /// Frames still to come per stream.
    remaining: BTreeMap<StreamId, u64>,
    done: bool,
}

impl<'r> FrameSets<'r> {
    /// The framesets of `frames` (of streams described by `recording`),
    /// `remaining` of each stream to come (from the index).
    pub(crate) fn new(
        recording: &Recording,
        frames: impl Iterator<Item = Result<RecordedFrame>> + Send + 'r,
        remaining: BTreeMap<StreamId, u64>,
        options: SyncOptions,
    ) -> FrameSets<'r> {
        let profiles: Vec<_> = (remaining.keys())
            .filter_map(|s| recording.streams().get(s))
            .map(|r| r.profile)
            .collect();
        let mut syncer = Syncer::new(profiles, options);
        for (&stream, &n) in &remaining {
            if n == 0 {
                syncer.end_stream(stream);
            }
        }
        FrameSets {
            frames: Box::new(frames),
            syncer,
            remaining,
            done: false,
        }
    }

    /// The syncer's options.
    pub fn options(&self) -> SyncOptions {
        self.syncer.options()
    }
}

impl Iterator for FrameSets<'_> {
    type Item = Result<FrameSet<RecordedFrame>>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(set) = self.syncer.pop() {
                return Some(Ok(set));
            }
            if self.done {
                return None;
            }
            match self.frames.next() {
                Some(Ok(frame)) => {
                    let stream = frame.stream;
                    self.syncer.push(frame);
                    if let Some(n) = self.remaining.get_mut(&stream) {
                        *n = n.saturating_sub(1);
                        if *n == 0 {
                            self.syncer.end_stream(stream);
                        }
                    }
                }
                // Frames after the damage still make framesets.
                Some(Err(e)) => return Some(Err(e)),
                None => {
                    self.done = true;
                    self.syncer.finish();
                }
            }
        }
    }
}

impl std::fmt::Debug for Frames<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Frames")
            .field("next", &&self.next)
            .finish_non_exhaustive()
    }
}

impl std::fmt::Debug for FrameSets<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FrameSets")
            .field("remaining", &&self.remaining)
            .field("done", &self.done)
            .finish_non_exhaustive()
    }
}
