//! Synchronized framesets: the frames of several streams that belong to
//! one moment, grouped by timestamp the way librealsense's pipeline groups
//! them (`wait_for_frames`), with a rule that never waits for ever.
//!
//! # The matching rule
//!
//! Streams are either **synced** or **attached**:
//!
//! - Video streams (depth, color, infrared, …) are synced. When no video
//!   stream is selected, every stream is synced.
//! - Motion and pose streams (accel, gyro, pose) are attached when a video
//!   stream is selected.
//!
//! **Synced streams.** Repeatedly, the pending synced frame with the
//! earliest timestamp (ties: the one read first) opens a frameset. The
//! earliest pending frame of each other synced stream joins it when their
//! timestamps differ by less than the tolerance
//! ([`SyncOptions::tolerance_ms`]; by default half the frame interval of
//! the slower of the two streams, `500 / min(fps)` ms, as librealsense
//! matches) *and* that frame is not closer to the next frame of the
//! opening stream (then it waits to join that one instead). A stream with
//! no frame close enough is simply missing from the frameset: framesets
//! can be partial, and every frame is in exactly one frameset. The
//! frameset's timestamp is that of the frame that opened it.
//!
//! **Attached streams.** Each IMU or pose sample joins the frameset whose
//! timestamp is nearest to its own (ties: the earlier frameset), provided
//! it is at most [`SyncOptions::window_ms`] away. A sample with no frameset
//! that close (the video stopped, or has a gap longer than the window)
//! comes out as a frameset of its own, in time order.
//!
//! **Gaps and ends.** Deciding needs the next frames of the other streams.
//! The syncer waits for them only while they can still come: a stream that
//! has ended ([`Syncer::end_stream`], [`Syncer::finish`]) or that has sent
//! nothing while about [`SyncOptions::window_ms`] of frames of the other
//! streams went by is treated as having no frame there. So a stream that
//! stops early, a missing second of frames or a stream with a single frame
//! delays framesets by at most the window and never stalls them, and
//! [`Syncer::finish`] delivers everything that is left.
//!
//! Timestamps are compared as they are, so the synced streams must share a
//! clock (the streams of one RealSense device do); each stream's timestamps
//! are expected not to go backwards. Frames with a non-finite timestamp
//! come out alone.

use std::collections::VecDeque;

use crate::device::{Frame, ProfileKind, StreamId, StreamKind, StreamProfile};

/// What the syncer needs of a frame: the [`Frame`] itself (its stream,
/// profile and timestamp). Implemented by [`Frame`] and by
/// [`super::RecordedFrame`].
pub trait SyncFrame {
    /// The frame.
    fn frame(&self) -> &Frame;
}

impl SyncFrame for Frame {
    fn frame(&self) -> &Frame {
        self
    }
}

/// How frames are grouped into framesets (see the [module
/// documentation](self) for the rule).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SyncOptions {
    /// Frames of two synced streams go together when their timestamps
    /// differ by less than this many milliseconds. `None` (the default):
    /// half the frame interval of the slower of the two streams
    /// (`500 / min(fps)` ms; 30 fps when neither rate is known).
    pub tolerance_ms: Option<f64>,
    /// Farthest (ms) an IMU or pose sample may be from the frameset it is
    /// attached to; also about how much recording time of other streams
    /// goes by before a silent stream is given up on for now. Default
    /// 1000 ms.
    pub window_ms: f64,
    /// Deliver only framesets that hold a frame of every synced stream;
    /// the others are dropped, with the samples attached to them, and so
    /// are samples that come out alone. Default `false`: every frame is
    /// delivered.
    pub complete_only: bool,
}

impl Default for SyncOptions {
    fn default() -> Self {
        SyncOptions {
            tolerance_ms: None,
            window_ms: 1000.0,
            complete_only: false,
        }
    }
}

/// Frames of several streams that belong to one moment.
///
/// Frames are ordered by stream ([`StreamId`] order: depth, color,
/// infrared, …, then gyro, accel, pose), and within a stream in the order
/// they were read. A video stream has at most one frame in a frameset; an
/// attached IMU or pose stream may have several, or none.
#[derive(Debug, Clone, PartialEq)]
pub struct FrameSet<F = Frame> {
    timestamp: f64,
    frames: Vec<F>,
}

impl<F: SyncFrame> FrameSet<F> {
    /// The timestamp (ms) of the frame that opened the frameset: the
    /// earliest of its synced frames, or the sample of a frameset made of
    /// one IMU or pose sample.
    pub fn timestamp(&self) -> f64 {
        self.timestamp
    }

    /// Every frame.
    pub fn frames(&self) -> &[F] {
        &self.frames
    }

    /// Number of frames.
    pub fn len(&self) -> usize {
        self.frames.len()
    }

    /// Whether there is no frame (never true of a delivered frameset).
    pub fn is_empty(&self) -> bool {
        self.frames.is_empty()
    }

    /// The (first) frame of `stream`.
    pub fn first(&self, stream: StreamId) -> Option<&F> {
        self.frames_of(stream).next()
    }

    /// Every frame of `stream`, in order.
    pub fn frames_of(&self, stream: StreamId) -> impl Iterator<Item = &F> + '_ {
        self.frames
            .iter()
            .filter(move |f| f.frame().profile.stream == stream)
    }

    /// Whether a frame of `stream` is in the frameset.
    pub fn contains(&self, stream: StreamId) -> bool {
        self.first(stream).is_some()
    }

    /// The streams with a frame in the frameset, in order.
    pub fn streams(&self) -> Vec<StreamId> {
        let mut streams: Vec<StreamId> = self
            .frames
            .iter()
            .map(|f| f.frame().profile.stream)
            .collect();
        streams.dedup();
        streams
    }

    /// The frame of the depth stream (`Depth 0`).
    pub fn depth(&self) -> Option<&F> {
        self.first(StreamId::new(StreamKind::Depth, 0))
    }

    /// The frame of the color stream (`Color 0`).
    pub fn color(&self) -> Option<&F> {
        self.first(StreamId::new(StreamKind::Color, 0))
    }
}

/// A frame waiting in the syncer.
#[derive(Debug)]
struct Item<F> {
    ts: f64,
    /// Order of arrival (1, 2, …).
    seq: u64,
    frame: F,
}

/// One stream in the syncer.
#[derive(Debug)]
struct Lane<F> {
    stream: StreamId,
    fps: u32,
    synced: bool,
    queue: VecDeque<Item<F>>,
    ended: bool,
    /// Largest finite timestamp received (−∞ before the first).
    last_ts: f64,
    /// Arrival count when this stream last sent a frame.
    last_push: u64,
}

/// Synced frames grouped, waiting for their attached samples.
#[derive(Debug)]
struct Formed<F> {
    anchor: f64,
    items: Vec<(StreamId, Item<F>)>,
}

/// Groups frames pushed in (about) the order they were recorded into
/// [`FrameSet`]s, by the rule of the [module documentation](self).
///
/// Used by [`super::FrameReader`] (pull) and [`crate::playback::Pipeline`] (on the
/// playback device); usable with frames from anywhere, e.g. a live camera.
///
/// # Example
/// ```
/// use rsbag::device::{Format, Frame, StreamId, StreamKind, StreamProfile, TimestampDomain};
/// use rsbag::recording::{SyncOptions, Syncer};
///
/// let depth = StreamProfile::video(StreamId::new(StreamKind::Depth, 0), Format::Z16, 4, 4, 30);
/// let color = StreamProfile::video(StreamId::new(StreamKind::Color, 0), Format::Rgb8, 4, 4, 30);
/// let frame = |profile, number: u64, timestamp| Frame {
///     profile, number, timestamp, domain: TimestampDomain::HardwareClock,
///     system_time: 0.0, metadata: Vec::new(), stride: 0, data: Default::default(),
/// };
/// let mut syncer = Syncer::new([depth, color], SyncOptions::default());
/// for n in 0..3u64 {
///     syncer.push(frame(depth, n, n as f64 * 33.3));
///     syncer.push(frame(color, n, n as f64 * 33.3 + 1.0));
/// }
/// syncer.finish();
/// let sets: Vec<_> = std::iter::from_fn(|| syncer.pop()).collect();
/// assert_eq!(sets.len(), 3);
/// assert!(sets.iter().all(|s| s.depth().is_some() && s.color().is_some()));
/// ```
#[derive(Debug)]
pub struct Syncer<F = Frame> {
    lanes: Vec<Lane<F>>,
    options: SyncOptions,
    /// Frames received.
    pushed: u64,
    /// A stream silent for more arrivals than this is not waited for.
    stall_after: u64,
    formed: VecDeque<Formed<F>>,
    out: VecDeque<FrameSet<F>>,
}

impl<F: SyncFrame> Syncer<F> {
    /// A syncer for the streams of `profiles` (a frame of another stream
    /// adds it, synced if it is a video stream).
    pub fn new(profiles: impl IntoIterator<Item = StreamProfile>, options: SyncOptions) -> Self {
        let profiles: Vec<StreamProfile> = profiles.into_iter().collect();
        let any_video = profiles.iter().any(is_video);
        let mut syncer = Syncer {
            lanes: Vec::new(),
            options,
            pushed: 0,
            stall_after: 0,
            formed: VecDeque::new(),
            out: VecDeque::new(),
        };
        for p in &profiles {
            if syncer.lane(p.stream).is_none() {
                syncer.add_lane(p, !any_video || is_video(p));
            }
        }
        syncer
    }

    /// The options.
    pub fn options(&self) -> SyncOptions {
        self.options
    }

    /// Take a frame. Frames of one stream must come in recorded order;
    /// streams may interleave as they arrive.
    pub fn push(&mut self, frame: F) {
        let profile = frame.frame().profile;
        let lane = match self.lane(profile.stream) {
            Some(i) => i,
            None => {
                let synced = is_video(&profile) || !self.lanes.iter().any(|l| l.synced);
                self.add_lane(&profile, synced)
            }
        };
        self.pushed += 1;
        let ts = frame.frame().timestamp;
        let seq = self.pushed;
        let lane = &mut self.lanes[lane];
        lane.queue.push_back(Item { ts, seq, frame });
        lane.last_push = seq;
        if ts.is_finite() {
            lane.last_ts = lane.last_ts.max(ts);
        }
        self.process();
    }

    /// No more frames of `stream` will come: stop waiting for it.
    pub fn end_stream(&mut self, stream: StreamId) {
        if let Some(i) = self.lane(stream) {
            self.lanes[i].ended = true;
            self.process();
        }
    }

    /// No more frames will come: every frame left goes into framesets,
    /// ready for [`pop`](Self::pop).
    pub fn finish(&mut self) {
        for lane in &mut self.lanes {
            lane.ended = true;
        }
        self.process();
        // The rule decides everything once every stream has ended; should
        // anything be left, it still comes out rather than being lost.
        while let Some(formed) = self.formed.pop_front() {
            self.emit(formed.anchor, formed.items);
        }
        let mut rest = Vec::new();
        for lane in &mut self.lanes {
            rest.extend(lane.queue.drain(..).map(|item| (lane.stream, item)));
        }
        self.emit_orphans(rest);
    }

    /// The next complete frameset, if one is ready.
    pub fn pop(&mut self) -> Option<FrameSet<F>> {
        self.out.pop_front()
    }

    /// Frames received and not yet delivered in a frameset.
    pub(crate) fn pending_frames(&self) -> usize {
        self.lanes.iter().map(|l| l.queue.len()).sum::<usize>()
            + self.formed.iter().map(|f| f.items.len()).sum::<usize>()
            + self.out.iter().map(FrameSet::len).sum::<usize>()
    }

    /// Forget every frame (after a seek); streams are expected again.
    pub fn reset(&mut self) {
        for lane in &mut self.lanes {
            lane.queue.clear();
            lane.ended = false;
            lane.last_ts = f64::NEG_INFINITY;
            lane.last_push = 0;
        }
        self.pushed = 0;
        self.formed.clear();
        self.out.clear();
    }

    fn lane(&self, stream: StreamId) -> Option<usize> {
        self.lanes.iter().position(|l| l.stream == stream)
    }

    fn add_lane(&mut self, profile: &StreamProfile, synced: bool) -> usize {
        self.lanes.push(Lane {
            stream: profile.stream,
            fps: profile.fps,
            synced,
            queue: VecDeque::new(),
            ended: false,
            last_ts: f64::NEG_INFINITY,
            last_push: self.pushed,
        });
        // About `window_ms` of frames of every stream.
        let per_second: f64 = self.lanes.iter().map(|l| f64::from(l.fps)).sum();
        let window_s = self.window() / 1000.0;
        // (A float-to-int cast saturates.)
        self.stall_after = ((per_second * window_s).ceil() as u64).max(MIN_STALL_AFTER);
        self.lanes.len() - 1
    }

    fn window(&self) -> f64 {
        let w = self.options.window_ms;
        if w.is_nan() {
            0.0
        } else {
            // Finite, so that sums with it still compare.
            w.clamp(0.0, MAX_WINDOW_MS)
        }
    }

    /// Whether no frame of lane `i` is to be waited for now.
    fn gone(&self, i: usize) -> bool {
        let lane = &self.lanes[i];
        lane.ended || self.pushed - lane.last_push > self.stall_after
    }

    /// The tolerance between lanes `a` and `b`, ms.
    fn tolerance(&self, a: usize, b: usize) -> f64 {
        if let Some(t) = self.options.tolerance_ms {
            return t;
        }
        let fps = [self.lanes[a].fps, self.lanes[b].fps]
            .into_iter()
            .filter(|&f| f > 0)
            .min()
            .unwrap_or(DEFAULT_FPS);
        500.0 / f64::from(fps)
    }

    fn process(&mut self) {
        while self.form() || self.release() {}
    }

    /// Group the next synced frames, if they can be decided.
    fn form(&mut self) -> bool {
        let Some(ci) = self
            .lanes
            .iter()
            .enumerate()
            .filter(|(_, l)| l.synced)
            .filter_map(|(i, l)| l.queue.front().map(|item| (i, item.ts, item.seq)))
            .min_by(|a, b| a.1.total_cmp(&b.1).then(a.2.cmp(&b.2)))
            .map(|(i, _, _)| i)
        else {
            return false;
        };
        let mut partners = Vec::new();
        let c = self.lanes[ci].queue[0].ts;
        if c.is_finite() {
            for s in 0..self.lanes.len() {
                if s == ci || !self.lanes[s].synced {
                    continue;
                }
                match self.decide(ci, s) {
                    Decision::Join => partners.push(s),
                    Decision::Skip => {}
                    Decision::Wait => return false,
                }
            }
        }
        let mut items = Vec::with_capacity(partners.len() + 1);
        for lane in std::iter::once(ci).chain(partners) {
            if let Some(item) = self.lanes[lane].queue.pop_front() {
                items.push((self.lanes[lane].stream, item));
            }
        }
        self.formed.push_back(Formed { anchor: c, items });
        true
    }

    /// Whether the first frame of lane `s` joins the frameset the first
    /// frame of lane `ci` opens.
    fn decide(&self, ci: usize, s: usize) -> Decision {
        let opener = &self.lanes[ci];
        let c = opener.queue[0].ts;
        let tol = self.tolerance(ci, s);
        let lane = &self.lanes[s];
        match lane.queue.front() {
            Some(h) => {
                let d = (h.ts - c).abs();
                // Not closer than the tolerance (or not comparable): apart.
                if d.partial_cmp(&tol) != Some(std::cmp::Ordering::Less) {
                    return Decision::Skip;
                }
                match opener.queue.get(1) {
                    Some(next) if (h.ts - next.ts).abs() < d => Decision::Skip,
                    Some(_) => Decision::Join,
                    None if self.gone(ci) => Decision::Join,
                    // The opener's next frame comes no earlier than its
                    // latest timestamp: closer to `h` only before 2h − c.
                    None if opener.last_ts >= 2.0 * h.ts - c => Decision::Join,
                    None => Decision::Wait,
                }
            }
            None if self.gone(s) => Decision::Skip,
            None if lane.last_ts - c >= tol => Decision::Skip,
            None => Decision::Wait,
        }
    }

    /// The earliest timestamp a frameset still to be formed can have.
    fn frontier(&self) -> f64 {
        let mut frontier = f64::INFINITY;
        for (i, lane) in self.lanes.iter().enumerate().filter(|(_, l)| l.synced) {
            let bound = match lane.queue.front() {
                Some(item) if item.ts.is_finite() => item.ts,
                Some(_) => continue,
                None if self.gone(i) => continue,
                None => lane.last_ts,
            };
            frontier = frontier.min(bound);
        }
        frontier
    }

    /// Deliver the first formed frameset with its attached samples, or
    /// samples that belong to no frameset, if that can be decided.
    fn release(&mut self) -> bool {
        let attached: Vec<usize> = (0..self.lanes.len())
            .filter(|&i| !self.lanes[i].synced)
            .collect();
        let window = self.window();
        let Some(first) = self.formed.front() else {
            // Samples no frameset can come near.
            let frontier = self.frontier();
            let mut orphans = Vec::new();
            for &i in &attached {
                let lane = &mut self.lanes[i];
                while let Some(item) = lane.queue.front() {
                    // (`frontier` is never NaN: a minimum of finite values
                    // and infinities.)
                    if item.ts.is_finite() && item.ts + window >= frontier {
                        break;
                    }
                    if let Some(item) = lane.queue.pop_front() {
                        orphans.push((lane.stream, item));
                    }
                }
            }
            let progress = !orphans.is_empty();
            self.emit_orphans(orphans);
            return progress;
        };
        let a0 = first.anchor;
        if attached.is_empty() || !a0.is_finite() {
            if let Some(formed) = self.formed.pop_front() {
                self.emit(formed.anchor, formed.items);
            }
            return true;
        }
        // Samples up to `bound` belong to this frameset (or to none).
        let bound = match self.formed.get(1) {
            Some(next) if next.anchor.is_finite() => (a0 + window).min((a0 + next.anchor) / 2.0),
            Some(_) => a0 + window,
            None => {
                let frontier = self.frontier();
                if frontier >= a0 + 2.0 * window {
                    a0 + window
                } else {
                    return false;
                }
            }
        };
        let complete = attached.iter().all(|&i| {
            let lane = &self.lanes[i];
            self.gone(i) || lane.last_ts > bound
        });
        if !complete {
            return false;
        }
        let Some(mut formed) = self.formed.pop_front() else {
            return false;
        };
        let mut orphans = Vec::new();
        for &i in &attached {
            let lane = &mut self.lanes[i];
            while let Some(item) = lane.queue.front() {
                if item.ts.is_finite() && item.ts > bound {
                    break;
                }
                let Some(item) = lane.queue.pop_front() else {
                    break;
                };
                if item.ts.is_finite() && item.ts >= a0 - window {
                    formed.items.push((lane.stream, item));
                } else {
                    orphans.push((lane.stream, item));
                }
            }
        }
        self.emit_orphans(orphans);
        self.emit(formed.anchor, formed.items);
        true
    }

    fn emit_orphans(&mut self, mut orphans: Vec<(StreamId, Item<F>)>) {
        orphans.sort_by(|a, b| a.1.ts.total_cmp(&b.1.ts).then(a.1.seq.cmp(&b.1.seq)));
        for (stream, item) in orphans {
            self.emit(item.ts, vec![(stream, item)]);
        }
    }

    fn emit(&mut self, timestamp: f64, mut items: Vec<(StreamId, Item<F>)>) {
        if self.options.complete_only {
            let complete = self
                .lanes
                .iter()
                .filter(|l| l.synced)
                .all(|l| items.iter().any(|(s, _)| *s == l.stream));
            if !complete {
                return;
            }
        }
        items.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.seq.cmp(&b.1.seq)));
        self.out.push_back(FrameSet {
            timestamp,
            frames: items.into_iter().map(|(_, item)| item.frame).collect(),
        });
    }
}

/// Frame rate assumed for a stream whose profile gives none.
const DEFAULT_FPS: u32 = 30;

/// The fewest arrivals a silent stream is waited for.
const MIN_STALL_AFTER: u64 = 16;

/// The largest window used, ms (about 30 years).
const MAX_WINDOW_MS: f64 = 1e12;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Decision {
    Join,
    Skip,
    Wait,
}

fn is_video(profile: &StreamProfile) -> bool {
    matches!(profile.kind, ProfileKind::Video { .. })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::{Format, TimestampDomain};

    fn video(kind: StreamKind, fps: u32) -> StreamProfile {
        StreamProfile::video(StreamId::new(kind, 0), Format::Z16, 2, 2, fps)
    }

    fn motion(kind: StreamKind, fps: u32) -> StreamProfile {
        StreamProfile::motion(StreamId::new(kind, 0), Format::MotionXyz32f, fps)
    }

    fn frame(profile: StreamProfile, number: u64, timestamp: f64) -> Frame {
        Frame {
            profile,
            number,
            timestamp,
            domain: TimestampDomain::HardwareClock,
            system_time: 0.0,
            metadata: Vec::new(),
            stride: 0,
            data: bytes::Bytes::new(),
        }
    }

    fn keys(set: &FrameSet) -> Vec<(StreamKind, u64)> {
        set.frames()
            .iter()
            .map(|f| (f.profile.stream.kind, f.number))
            .collect()
    }

    fn run(syncer: &mut Syncer, frames: Vec<Frame>) -> Vec<Vec<(StreamKind, u64)>> {
        for f in frames {
            syncer.push(f);
        }
        syncer.finish();
        std::iter::from_fn(|| syncer.pop())
            .map(|s| keys(&s))
            .collect()
    }

    #[test]
    fn pairs_and_partial_framesets() {
        let (d, c) = (video(StreamKind::Depth, 30), video(StreamKind::Color, 30));
        let mut syncer = Syncer::new([d, c], SyncOptions::default());
        // Color misses frame 2; depth misses frame 4.
        let mut frames = Vec::new();
        for n in 0..6u64 {
            let t = n as f64 * 33.3;
            if n != 4 {
                frames.push(frame(d, n, t));
            }
            if n != 2 {
                frames.push(frame(c, n, t + 2.0));
            }
        }
        let sets = run(&mut syncer, frames);
        use StreamKind::{Color, Depth};
        assert_eq!(
            sets,
            vec![
                vec![(Depth, 0), (Color, 0)],
                vec![(Depth, 1), (Color, 1)],
                vec![(Depth, 2)],
                vec![(Depth, 3), (Color, 3)],
                vec![(Color, 4)],
                vec![(Depth, 5), (Color, 5)],
            ]
        );
    }

    #[test]
    fn imu_goes_to_the_nearest_frameset_and_orphans_come_alone() {
        let d = video(StreamKind::Depth, 30);
        let g = motion(StreamKind::Gyro, 100);
        let mut syncer = Syncer::new([d, g], SyncOptions::default());
        let mut frames = vec![frame(d, 0, 0.0)];
        for n in 0..5u64 {
            frames.push(frame(g, n, n as f64 * 10.0));
        }
        frames.push(frame(d, 1, 40.0));
        // A sample far past the last frameset.
        frames.push(frame(g, 9, 5000.0));
        let sets = run(&mut syncer, frames);
        use StreamKind::{Depth, Gyro};
        assert_eq!(
            sets,
            vec![
                vec![(Depth, 0), (Gyro, 0), (Gyro, 1), (Gyro, 2)],
                vec![(Depth, 1), (Gyro, 3), (Gyro, 4)],
                vec![(Gyro, 9)],
            ]
        );
    }

    #[test]
    fn a_silent_stream_is_not_waited_for_ever() {
        let (d, c) = (video(StreamKind::Depth, 30), video(StreamKind::Color, 30));
        let mut syncer = Syncer::new([d, c], SyncOptions::default());
        // Depth stops after one frame; color goes on, never finished.
        syncer.push(frame(d, 0, 0.0));
        for n in 0..200u64 {
            syncer.push(frame(c, n, n as f64 * 33.3));
        }
        let sets: Vec<_> = std::iter::from_fn(|| syncer.pop()).collect();
        assert!(sets.len() > 100, "{} framesets", sets.len());
        assert!(sets[0].depth().is_some() && sets[0].color().is_some());
        assert!(syncer.pending_frames() < 100);
    }

    #[test]
    fn complete_only_drops_partial_framesets() {
        let (d, c) = (video(StreamKind::Depth, 30), video(StreamKind::Color, 30));
        let options = SyncOptions {
            complete_only: true,
            ..SyncOptions::default()
        };
        let mut syncer = Syncer::new([d, c], options);
        let frames = vec![
            frame(d, 0, 0.0),
            frame(c, 0, 0.0),
            frame(d, 1, 33.3),
            frame(d, 2, 66.6),
            frame(c, 2, 66.6),
        ];
        assert_eq!(run(&mut syncer, frames).len(), 2);
    }

    #[test]
    fn odd_timestamps_come_out_alone() {
        let (d, c) = (video(StreamKind::Depth, 30), video(StreamKind::Color, 30));
        let mut syncer = Syncer::new([d, c], SyncOptions::default());
        let frames = vec![
            frame(d, 0, f64::NAN),
            frame(c, 0, 0.0),
            frame(d, 1, f64::INFINITY),
        ];
        let sets = run(&mut syncer, frames);
        assert_eq!(sets.iter().map(Vec::len).sum::<usize>(), 3);
    }
}
