//! A session's frames grouped by moment, across cameras.

use std::collections::{BTreeSet, VecDeque};
use std::time::Duration;

use crate::device::StreamId;
use crate::{Error, Result};

use super::frames::EachFrame;
use super::{ms, SessionFrame, SessionFrames, SessionQuery};

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
pub(super) type Lane = (usize, StreamId);

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
    pub(super) frames: SessionFrames<'s>,
    pub(super) each: Option<EachFrame<'s>>,
    pub(super) lanes: Vec<Lane>,
    pub(super) tolerance_ms: f64,
    /// Reference frames not yet made into sets, in time order.
    pub(super) references: VecDeque<SessionFrame>,
    /// The last reference frame made into a set: a candidate's nearest
    /// reference may be it.
    pub(super) previous: Option<f64>,
    /// Other lanes' frames that may still join a set, per lane, in time
    /// order.
    pub(super) pending: Vec<VecDeque<SessionFrame>>,
    /// Per other lane, the time of its latest frame no longer pending (in
    /// a set, or in none): no later than any pending frame, it may still
    /// be a reference frame's nearest.
    pub(super) gone: Vec<Option<f64>>,
    pub(super) read_to: f64,
    pub(super) done: bool,
    pub(super) unmatched: u64,
}

impl<'s> SessionFrameSets<'s> {
    pub(super) fn new(
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
