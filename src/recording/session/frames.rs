//! A session's frames in time order: one cursor per file, merged by
//! the session's clock.

use std::cmp::Ordering;
use std::collections::VecDeque;
use std::ops::Bound;
use std::path::Path;

use crate::device::StreamId;
use crate::recording::reader::{Frames, RecordedFrame};
use crate::Result;

use super::{clock_ms, ms, SessionClock, SessionFrame};

/// What [`super::SessionQuery::framesets_with`] does to each frame read.
pub(super) type EachFrame<'s> = Box<dyn FnMut(SessionFrame) -> Result<SessionFrame> + Send + 's>;

/// Where a frame stands in a session's order: small keys, compared to
/// choose the next frame, while the frames stay held by their streams
/// until delivered (a frame is a few hundred bytes, costly to move).
#[derive(Debug, Clone, Copy)]
pub(super) struct Turn {
    /// Time on the session's clock.
    pub(super) time_ms: f64,
    /// Position in the file's recorded order, to keep ties in it.
    pub(super) order: u64,
    /// The file's cursor (last of ties, the files' order).
    pub(super) cursor: usize,
    /// The stream (its place in the cursor's [`ReadFront`]) whose first
    /// frame held it is.
    pub(super) lane: usize,
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
pub(super) struct FileCursor<'s> {
    pub(super) file: usize,
    pub(super) path: &'s Path,
    pub(super) clock: SessionClock,
    pub(super) offset_ms: f64,
    pub(super) window_ms: f64,
    pub(super) frames: Frames<'s>,
    /// How far each stream has been read.
    pub(super) streams: ReadFront,
    /// Each stream's frames held, in recorded order, by its place in
    /// `streams` (the file's head among them until taken).
    pub(super) held: Vec<VecDeque<Held>>,
    /// The earliest of the streams' first frames held: kept as frames are
    /// held and taken, for it is asked after every frame read.
    pub(super) earliest: Option<Turn>,
    /// Time since the file's first frame of the last frame read, in ms.
    pub(super) read_to: f64,
    pub(super) order: u64,
    pub(super) done: bool,
}

/// A frame held by its stream until its turn.
pub(super) struct Held {
    pub(super) time_ms: f64,
    pub(super) order: u64,
    pub(super) frame: RecordedFrame,
}

/// How far a [`FileCursor`] has read each stream of its file.
pub(super) struct ReadFront {
    pub(super) streams: Vec<StreamCursor>,
    /// The least of how far each stream with frames unread has been read:
    /// kept as frames are read, for it is asked more often.
    pub(super) unread_from_ms: f64,
}

impl ReadFront {
    /// Nothing read yet of streams with these frame counts (the index's).
    pub(super) fn new(counts: impl IntoIterator<Item = (StreamId, u64)>) -> ReadFront {
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
pub(super) struct StreamCursor {
    pub(super) stream: StreamId,
    /// Frames in the range not read yet (by the index).
    pub(super) unread: u64,
    /// The session time of the stream's last frame read: none of its
    /// frames still unread is earlier.
    pub(super) read_to_ms: f64,
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

/// Iterator over the frames of a [`Session`](super::Session) in time order on its clock.
/// What cannot be read is yielded as an error naming its file, once, and
/// the iteration goes on.
pub struct SessionFrames<'s> {
    pub(super) cursors: Vec<FileCursor<'s>>,
    /// Each cursor's next frame, by the cursor's place; the earliest is
    /// found by comparing them all (a session has a few cameras).
    pub(super) heads: Vec<Head>,
    pub(super) start: Bound<f64>,
    pub(super) end: Bound<f64>,
    pub(super) last_ms: f64,
    pub(super) out_of_order: u64,
}

/// A file's next frame in a session's order.
#[derive(Debug, Clone, Copy)]
pub(super) enum Head {
    /// Not read yet.
    Unread,
    /// Its turn.
    Next(Turn),
    /// The file has no frames left in the range.
    Done,
}

impl SessionFrames<'_> {
    /// Frames delivered before one earlier on the clock: a frame that
    /// reached its file more than [`REORDER_WINDOW`](super::REORDER_WINDOW) out of its time
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
