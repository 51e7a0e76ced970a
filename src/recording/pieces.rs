//! The pieces of one split recording (`record --split-duration`:
//! `NAME_0.bag`, `NAME_1.bag`, …) read as one recording: every frame once,
//! in recorded order, indexed and timed across the pieces.
//!
//! Whether files are pieces is decided from what they hold, not from their
//! names: one device (the same serial number), the same streams, and each
//! stream's frame numbers and times running on from one file into the
//! next. A cut where a stream's frame numbers jump (a piece missing) is a
//! [`PieceGap`]: the pieces are still one recording, with the gap said.

use std::collections::BTreeMap;
use std::ops::{Bound, RangeBounds};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use super::columns::{columns_of, Columns};
use super::frameset::SyncOptions;
use super::reader::{FrameReader, FrameSets, RecordedFrame};
use super::recording::{Recording, TimedEvent};
use crate::device::{camera_info, StreamId};
use crate::{BagTime, Error, Result};

/// One piece of a [`Pieces`].
#[derive(Debug)]
pub struct Piece {
    path: PathBuf,
    reader: Arc<FrameReader>,
    /// When its first frame was recorded, since the first piece's.
    offset: Duration,
    /// Frames of each stream in the pieces before it.
    first: BTreeMap<StreamId, u64>,
}

impl Piece {
    /// The file, as given.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The piece read on its own.
    pub fn reader(&self) -> &Arc<FrameReader> {
        &self.reader
    }

    /// When its first frame was recorded, since the recording's first.
    pub fn offset(&self) -> Duration {
        self.offset
    }

    /// The index (across the pieces) of the piece's first frame of
    /// `stream`.
    pub(crate) fn first_index(&self, stream: StreamId) -> u64 {
        self.first.get(&stream).copied().unwrap_or(0)
    }
}

/// Frames missing at a cut: a stream's frame numbers jump from one piece
/// to the next (a piece between them is missing, or frames were lost).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct PieceGap {
    /// The piece before the cut, by position in [`Pieces::pieces`].
    pub after: usize,
    /// The stream whose numbers jump.
    pub stream: String,
    /// The last frame number before the cut and the first after it.
    pub numbers: [u64; 2],
    /// Seconds from the last frame before the cut to the first after it.
    pub seconds: f64,
}

impl std::fmt::Display for PieceGap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let [last, next] = self.numbers;
        write!(
            f,
            "{}: frame numbers jump from {last} to {next} after piece {} ({} frames missing, {:.3} s)",
            self.stream,
            self.after,
            next - last - 1,
            self.seconds
        )
    }
}

/// What a recording in pieces is (`rsbag info` of the pieces prints it).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct PiecesSummary {
    /// The device's serial number.
    pub serial: String,
    /// Seconds from the first frame of the first piece to the last of the
    /// last.
    pub duration_s: f64,
    /// The pieces, in recorded order.
    pub pieces: Vec<PieceSummary>,
    /// Frames of each stream in all the pieces, by stream name.
    pub frames: BTreeMap<String, u64>,
    /// Where frame numbers jump at a cut.
    pub gaps: Vec<PieceGap>,
}

/// One piece of a [`PiecesSummary`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct PieceSummary {
    /// The file, as given.
    pub file: String,
    /// When its first frame was recorded, seconds since the recording's.
    pub start_s: f64,
    /// Seconds from its first frame to its last.
    pub duration_s: f64,
    /// Frames of all its streams.
    pub frames: u64,
}

/// The pieces of a split recording read as one: [`Pieces::frames`]
/// gives every frame of every piece once, in recorded order, with its
/// index and time across the pieces; [`Pieces::frame`] finds a frame by
/// that index. The device description is the first piece's (each piece
/// repeats it).
///
/// # Example
/// ```no_run
/// use rsbag::recording::Pieces;
/// # fn main() -> rsbag::Result<()> {
/// // Given in any order: they are put in recorded order.
/// let pieces = Pieces::open(["run_1.bag", "run_0.bag", "run_2.bag"])?;
/// assert!(pieces.gaps().is_empty());
/// for frame in pieces.frames()? {
///     let frame = frame?;
///     println!("{} #{} at {:?}", frame.stream, frame.frame.number, frame.time);
/// }
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct Pieces {
    pieces: Vec<Piece>,
    gaps: Vec<PieceGap>,
    serial: String,
}

impl Pieces {
    /// Open the files at `paths` as the pieces of one recording; an error
    /// says why they are not.
    pub fn open<P: AsRef<Path>>(paths: impl IntoIterator<Item = P>) -> Result<Pieces> {
        let mut readers = Vec::new();
        for path in paths {
            let path = path.as_ref();
            readers.push((path.to_path_buf(), Arc::new(FrameReader::open(path)?)));
        }
        Pieces::join(readers)
    }

    /// The opened `readers` (each with its path) as the pieces of one
    /// recording, put in recorded order; an
    /// [`Error::InvalidArgument`] says why they are not pieces of one.
    pub fn join(readers: Vec<(PathBuf, Arc<FrameReader>)>) -> Result<Pieces> {
        let ends = judge(&readers).map_err(Error::InvalidArgument)?;
        let order: Vec<usize> = ends.iter().map(|(i, _)| *i).collect();
        let ends: BTreeMap<usize, Ends> = ends.into_iter().collect();
        let mut readers: Vec<Option<(PathBuf, Arc<FrameReader>)>> =
            readers.into_iter().map(Some).collect();
        let mut pieces: Vec<Piece> = Vec::new();
        let mut gaps = Vec::new();
        let mut first: BTreeMap<StreamId, u64> = BTreeMap::new();
        for (at, &i) in order.iter().enumerate() {
            let (path, reader) = readers[i].take().expect("each piece once");
            let offset = match at {
                0 => Duration::ZERO,
                _ => {
                    let before = &pieces[at - 1];
                    let (a, b) = (&ends[&order[at - 1]], &ends[&i]);
                    gaps.extend(a.gaps_to(b, at - 1));
                    let end = before.offset + before.reader.duration();
                    let later = Duration::try_from_secs_f64((b.start() - a.start()) / 1000.0)
                        .unwrap_or(Duration::ZERO);
                    // The next piece starts after the last frame of this one.
                    (before.offset + later).max(end + Duration::from_nanos(1))
                }
            };
            pieces.push(Piece {
                path,
                offset,
                first: first.clone(),
                reader: reader.clone(),
            });
            for stream in reader.streams() {
                *first.entry(stream).or_default() += reader.frame_count(stream)?;
            }
        }
        Ok(Pieces {
            serial: serial_of(pieces[0].reader.recording()).unwrap_or_default(),
            pieces,
            gaps,
        })
    }

    /// Whether `readers` are the pieces of one recording: `Ok` with how
    /// many, or `Err` with why not.
    pub fn judge(readers: &[(PathBuf, Arc<FrameReader>)]) -> std::result::Result<usize, String> {
        judge(readers).map(|ends| ends.len())
    }

    /// The pieces, in recorded order.
    pub fn pieces(&self) -> &[Piece] {
        &self.pieces
    }

    /// Where a stream's frame numbers jump at a cut.
    pub fn gaps(&self) -> &[PieceGap] {
        &self.gaps
    }

    /// The recorded device's serial number.
    pub fn serial(&self) -> &str {
        &self.serial
    }

    /// The first piece's recording: the device description, sensors,
    /// options at the start and streams.
    pub fn recording(&self) -> &Recording {
        self.pieces[0].reader.recording()
    }

    /// The recorded streams.
    pub fn streams(&self) -> Vec<StreamId> {
        self.pieces[0].reader.streams()
    }

    /// The streams a name stands for (see [`Recording::find_streams`]).
    pub fn find_streams(&self, name: &str) -> Result<Vec<StreamId>> {
        self.pieces[0].reader.find_streams(name)
    }

    /// Time from the first frame of the first piece to the last of the
    /// last.
    pub fn duration(&self) -> Duration {
        let last = self.pieces.last().expect("at least one piece");
        last.offset + last.reader.duration()
    }

    /// Frames of `stream` in all the pieces, from their indexes.
    pub fn frame_count(&self, stream: StreamId) -> Result<u64> {
        let last = self.pieces.last().expect("at least one piece");
        Ok(last.first_index(stream) + last.reader.frame_count(stream)?)
    }

    /// The frame at `index` of `stream` across the pieces (0-based, in
    /// recorded order).
    pub fn frame(&self, stream: StreamId, index: u64) -> Result<RecordedFrame> {
        let count = self.frame_count(stream)?;
        if index >= count {
            return Err(Error::InvalidArgument(format!(
                "frame {index} of stream {stream} does not exist: the stream has {count} frames"
            )));
        }
        let at = self
            .pieces
            .partition_point(|p| p.first_index(stream) <= index)
            - 1;
        let piece = &self.pieces[at];
        let frame = (piece.reader)
            .frame(stream, index - piece.first_index(stream))
            .map_err(|e| e.in_file(&piece.path))?;
        Ok(self.across(at, frame))
    }

    /// Every frame of every piece, in recorded order.
    pub fn frames(&self) -> Result<PieceFrames<'_>> {
        self.select(None, ..)
    }

    /// The frames of `streams` (every stream if `None`) recorded in `range`
    /// (times since the first piece's first frame), in recorded order.
    pub fn select(
        &self,
        streams: Option<Vec<StreamId>>,
        range: impl RangeBounds<Duration>,
    ) -> Result<PieceFrames<'_>> {
        if let Some(streams) = &streams {
            for &s in streams {
                self.frame_count(s)?;
            }
        }
        Ok(PieceFrames {
            pieces: self,
            streams,
            start: range.start_bound().cloned(),
            end: range.end_bound().cloned(),
            at: 0,
            current: None,
        })
    }

    /// Synchronized framesets of `streams` (every stream if `None`)
    /// recorded in `range`, as [`super::FrameQuery::framesets`] groups one
    /// recording's: the pieces' frames are one run of frames, so a
    /// frameset at a cut holds frames of both pieces.
    pub fn framesets(
        &self,
        streams: Option<Vec<StreamId>>,
        range: impl RangeBounds<Duration>,
        options: SyncOptions,
    ) -> Result<FrameSets<'_>> {
        let range = (range.start_bound().cloned(), range.end_bound().cloned());
        let remaining = self.frame_counts(streams.clone(), range)?;
        let frames = self.select(streams, range)?;
        Ok(FrameSets::new(self.recording(), frames, remaining, options))
    }

    /// The frames of `stream` recorded in `range` as columns (see
    /// [`super::FrameQuery::columns`]), indexed and timed across the
    /// pieces.
    pub fn columns(&self, stream: StreamId, range: impl RangeBounds<Duration>) -> Result<Columns> {
        let range = (range.start_bound().cloned(), range.end_bound().cloned());
        let expected = (self.frame_counts(Some(vec![stream]), range)?)
            .get(&stream)
            .copied()
            .unwrap_or(0);
        let frames = self.select(Some(vec![stream]), range)?;
        columns_of(self.recording(), stream, expected, frames)
    }

    /// Frames per stream of `streams` (every stream if `None`) recorded in
    /// `range`, from the indexes.
    pub fn frame_counts(
        &self,
        streams: Option<Vec<StreamId>>,
        range: impl RangeBounds<Duration>,
    ) -> Result<BTreeMap<StreamId, u64>> {
        let (start, end) = (range.start_bound().cloned(), range.end_bound().cloned());
        let mut counts = BTreeMap::new();
        for piece in &self.pieces {
            let Some((from, to)) = piece_range(piece, start, end) else {
                continue;
            };
            let mut query = piece.reader.select().time((from, to));
            if let Some(streams) = &streams {
                query = query.streams(streams.iter().copied());
            }
            for (s, n) in query.frame_counts()? {
                *counts.entry(s).or_default() += n;
            }
        }
        Ok(counts)
    }

    /// Each piece's recording, in recorded order, with the nanoseconds to
    /// add to its bag times to put them on the first piece's (see
    /// [`on_timeline`]).
    pub(crate) fn timeline(&self) -> Vec<(&Recording, i128)> {
        let start = |p: &Piece| p.reader.recording().start_time().as_nanos() as i128;
        (self.pieces.iter())
            .map(|p| {
                let shift = start(&self.pieces[0]) + p.offset.as_nanos() as i128 - start(p);
                (p.reader.recording(), shift)
            })
            .collect()
    }

    /// What the recording is, for a report: its pieces, frames and gaps.
    pub fn summary(&self) -> PiecesSummary {
        let seconds = |d: Duration| (d.as_secs_f64() * 1e6).round() / 1e6;
        let frames_of = |r: &FrameReader| -> u64 {
            (r.streams().iter())
                .map(|&s| r.frame_count(s).unwrap_or(0))
                .sum()
        };
        let pieces = (self.pieces.iter())
            .map(|p| PieceSummary {
                file: p.path.display().to_string(),
                start_s: seconds(p.offset),
                duration_s: seconds(p.reader.duration()),
                frames: frames_of(&p.reader),
            })
            .collect();
        let frames = (self.streams().into_iter())
            .map(|s| (s.to_string(), self.frame_count(s).unwrap_or(0)))
            .collect();
        PiecesSummary {
            serial: self.serial.clone(),
            duration_s: seconds(self.duration()),
            pieces,
            frames,
            gaps: self.gaps.clone(),
        }
    }

    /// A frame of piece `at`, indexed and timed across the pieces.
    fn across(&self, at: usize, mut frame: RecordedFrame) -> RecordedFrame {
        let piece = &self.pieces[at];
        frame.index += piece.first_index(frame.stream);
        frame.time += piece.offset;
        frame.bag_time = self.pieces[0].reader.recording().start_time() + frame.time;
        frame
    }
}

/// Bag time `time` of a piece moved by `shift` nanoseconds (see
/// [`Pieces::timeline`]; negative moves it back).
pub(crate) fn on_timeline(time: BagTime, shift: i128) -> BagTime {
    BagTime::from_nanos((time.as_nanos() as i128 + shift).clamp(0, u64::MAX as i128) as u64)
}

/// The `events` of a piece, their times moved by `shift` onto the pieces'
/// timeline.
pub(crate) fn events_on_timeline<'r>(
    events: impl Iterator<Item = Result<TimedEvent>> + 'r,
    shift: i128,
) -> impl Iterator<Item = Result<TimedEvent>> + 'r {
    events.map(move |event| {
        event.map(|mut event| {
            event.time = on_timeline(event.time, shift);
            event
        })
    })
}

/// The part of `start..end` (times across the pieces) within `piece`, in
/// the piece's own times; `None` if none is.
fn piece_range(
    piece: &Piece,
    start: Bound<Duration>,
    end: Bound<Duration>,
) -> Option<(Bound<Duration>, Bound<Duration>)> {
    let length = piece.reader.duration();
    let shift = |d: Duration| d.checked_sub(piece.offset);
    let from = match start {
        Bound::Unbounded => Bound::Unbounded,
        Bound::Included(d) | Bound::Excluded(d) if d > piece.offset + length => return None,
        Bound::Included(d) => shift(d).map_or(Bound::Unbounded, Bound::Included),
        Bound::Excluded(d) => shift(d).map_or(Bound::Unbounded, Bound::Excluded),
    };
    let to = match end {
        Bound::Unbounded => Bound::Unbounded,
        Bound::Included(d) => Bound::Included(shift(d)?),
        Bound::Excluded(d) => match shift(d) {
            Some(d) if !d.is_zero() => Bound::Excluded(d),
            _ => return None,
        },
    };
    Some((from, to))
}

/// Iterator over the frames of [`Pieces`], piece after piece.
pub struct PieceFrames<'p> {
    pieces: &'p Pieces,
    streams: Option<Vec<StreamId>>,
    start: Bound<Duration>,
    end: Bound<Duration>,
    /// The piece read next.
    at: usize,
    current: Option<(usize, super::reader::Frames<'p>)>,
}

impl Iterator for PieceFrames<'_> {
    type Item = Result<RecordedFrame>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some((at, frames)) = &mut self.current {
                match frames.next() {
                    Some(frame) => {
                        let at = *at;
                        let path = &self.pieces.pieces[at].path;
                        return Some(
                            frame
                                .map(|f| self.pieces.across(at, f))
                                .map_err(|e| e.in_file(path)),
                        );
                    }
                    None => self.current = None,
                }
            }
            let piece = self.pieces.pieces.get(self.at)?;
            let at = self.at;
            self.at += 1;
            let Some(range) = piece_range(piece, self.start, self.end) else {
                continue;
            };
            let mut query = piece.reader.select().time(range);
            if let Some(streams) = &self.streams {
                query = query.streams(streams.iter().copied());
            }
            match query.frames() {
                Ok(frames) => self.current = Some((at, frames)),
                Err(e) => return Some(Err(e.in_file(&piece.path))),
            }
        }
    }
}

impl std::fmt::Debug for PieceFrames<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PieceFrames")
            .field("at", &self.at)
            .finish_non_exhaustive()
    }
}

/// The first and last frame of each stream of one file: number and time
/// (ms on the clock the pieces are ordered on).
#[derive(Debug)]
struct Ends {
    streams: BTreeMap<StreamId, [(u64, f64); 2]>,
}

impl Ends {
    /// When the file starts: its earliest first frame (ms).
    fn start(&self) -> f64 {
        (self.streams.values())
            .map(|e| e[0].1)
            .fold(f64::INFINITY, f64::min)
    }

    /// Why `next` does not follow this file, if it does not: a stream's
    /// frames of `next` must come after this file's, by number and time.
    fn precedes(&self, next: &Ends) -> std::result::Result<(), String> {
        for (stream, [_, (last, last_ms)]) in &self.streams {
            let Some(&[(first, first_ms), _]) = next.streams.get(stream) else {
                continue;
            };
            if first <= *last {
                return Err(format!(
                    "{stream}'s frame numbers do not run on ({last}, then {first})"
                ));
            }
            if first_ms <= *last_ms {
                return Err(format!(
                    "{stream}'s frames overlap in time ({last_ms:.3} ms, then {first_ms:.3} ms)"
                ));
            }
        }
        Ok(())
    }

    /// The streams whose frame numbers jump from this piece (`after`) to
    /// `next`.
    fn gaps_to(&self, next: &Ends, after: usize) -> Vec<PieceGap> {
        let mut gaps = Vec::new();
        for (stream, [_, (last, last_ms)]) in &self.streams {
            let Some(&[(first, first_ms), _]) = next.streams.get(stream) else {
                continue;
            };
            if first > last + 1 {
                gaps.push(PieceGap {
                    after,
                    stream: stream.to_string(),
                    numbers: [*last, first],
                    seconds: ((first_ms - last_ms) / 1000.0 * 1e6).round() / 1e6,
                });
            }
        }
        gaps
    }
}

/// The serial number a recording's device description gives.
fn serial_of(recording: &Recording) -> Option<String> {
    (recording.snapshot().info)
        .get(camera_info::SERIAL_NUMBER)
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
}

/// Each file's position and stream ends, in recorded order, if `readers`
/// are the pieces of one recording; why not otherwise.
fn judge(
    readers: &[(PathBuf, Arc<FrameReader>)],
) -> std::result::Result<Vec<(usize, Ends)>, String> {
    let [(first_path, first), _, ..] = readers else {
        return Err("pieces are at least two recordings".into());
    };
    let name = |p: &Path| p.display().to_string();
    let serial = serial_of(first.recording())
        .ok_or_else(|| format!("{} names no serial number", name(first_path)))?;
    let profiles = |r: &FrameReader| {
        (r.recording().streams().values())
            .map(|s| (s.profile.stream, s.profile.format, s.profile.fps))
            .collect::<Vec<_>>()
    };
    for (path, reader) in &readers[1..] {
        if serial_of(reader.recording()).as_deref() != Some(serial.as_str()) {
            return Err(format!(
                "{} and {} are of different devices",
                name(first_path),
                name(path)
            ));
        }
        if profiles(reader) != profiles(first) {
            return Err(format!(
                "{} and {} record different streams",
                name(first_path),
                name(path)
            ));
        }
    }
    let arrival = readers.iter().all(|(_, r)| has_arrival_times(r));
    let mut ends = Vec::new();
    for (path, reader) in readers {
        ends.push(ends_of(reader, arrival).map_err(|e| e.in_file(path).to_string())?);
        if ends.last().is_some_and(|e| e.streams.is_empty()) {
            return Err(format!("{} has no frames", name(path)));
        }
    }
    // A device's clock runs on through a recording: its pieces start in
    // the order they were recorded.
    let mut ends: Vec<(usize, Ends)> = ends.into_iter().enumerate().collect();
    ends.sort_by(|a, b| a.1.start().total_cmp(&b.1.start()));
    for pair in ends.windows(2) {
        let ((a, before), (b, after)) = (&pair[0], &pair[1]);
        before.precedes(after).map_err(|why| {
            format!(
                "{} does not follow {}: {why}",
                name(&readers[*b].0),
                name(&readers[*a].0)
            )
        })?;
    }
    Ok(ends)
}

/// Whether every stream's first frame has the host time it arrived.
fn has_arrival_times(reader: &FrameReader) -> bool {
    reader.streams().into_iter().all(|s| {
        reader.frame_count(s).is_ok_and(|n| n == 0)
            || (reader.frame(s, 0)).is_ok_and(|f| super::session::arrival_ms(&f).is_some())
    })
}

/// The ends of each stream of `reader` with frames, timed by arrival (if
/// `arrival`) or by the frames' timestamps (one device's clock).
fn ends_of(reader: &FrameReader, arrival: bool) -> Result<Ends> {
    let ms = |f: &RecordedFrame| match arrival {
        true => super::session::arrival_ms(f).unwrap_or(0.0),
        false => f.frame.timestamp,
    };
    let mut streams = BTreeMap::new();
    for stream in reader.streams() {
        let count = reader.frame_count(stream)?;
        if count == 0 {
            continue;
        }
        let (first, last) = (reader.frame(stream, 0)?, reader.frame(stream, count - 1)?);
        streams.insert(
            stream,
            [
                (first.frame.number, ms(&first)),
                (last.frame.number, ms(&last)),
            ],
        );
    }
    Ok(Ends { streams })
}
