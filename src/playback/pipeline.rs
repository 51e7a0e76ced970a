//! Framesets from the playback device, the way librealsense's pipeline
//! gives them over a file: `wait_for_frames` and `poll_for_frames`.

use std::io;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, SendTimeoutError, TryRecvError};
use parking_lot::Mutex;

use super::device::{Playback, PlaybackOptions, PlaybackStatus};
use super::frameset::{FrameSet, SyncOptions, Syncer};
use crate::device::{Device, Frame, StreamId, StreamProfile};
use crate::{Error, Result};

/// What a [`Pipeline`] streams and how.
#[derive(Debug, Clone, PartialEq)]
pub struct PipelineConfig {
    /// The streams to start; `None` (the default) starts every recorded
    /// stream. A stream the recording does not have is an error.
    pub streams: Option<Vec<StreamId>>,
    /// Play at the recorded pace, dropping frames a slow consumer cannot
    /// take (as a live camera would), rather than as fast as the consumer
    /// takes framesets, never dropping one. Default `false`.
    pub real_time: bool,
    /// Frames held between the playback's callbacks and the syncer
    /// (default 64); when full, the playback waits (or, in real time,
    /// drops).
    pub queue_size: usize,
    /// How frames are grouped (see [`super::frameset`]).
    pub sync: SyncOptions,
}

impl Default for PipelineConfig {
    fn default() -> Self {
        PipelineConfig {
            streams: None,
            real_time: false,
            queue_size: 64,
            sync: SyncOptions::default(),
        }
    }
}

/// The syncer and whether the playback has ended.
struct State {
    syncer: Syncer<Frame>,
    /// Every frame of the playback went into the syncer.
    ended: bool,
}

/// A [`Playback`] with chosen streams started, whose frames are grouped
/// into synchronized [`FrameSet`]s: librealsense's pipeline over a file.
///
/// Frames go from the sensor callbacks through a bounded queue
/// ([`PipelineConfig::queue_size`]) to a [`Syncer`] that runs in the
/// thread that asks for framesets; no thread of its own. Not in real time
/// (the default) every recorded frame ends up in exactly one frameset, and
/// the framesets are the ones [`super::FrameReader::framesets`] gives.
/// When the file ends, the framesets still held are delivered, then
/// [`wait_for_frames`](Self::wait_for_frames) reports the end.
///
/// # Example
/// ```no_run
/// use std::time::Duration;
/// use rsbag::playback::Pipeline;
/// # fn main() -> rsbag::Result<()> {
/// let pipeline = Pipeline::open("sample_bags/librealsense-depth-color-lz4.bag")?;
/// while let Some(set) = pipeline.try_wait_for_frames(Duration::from_secs(5))? {
///     if let (Some(depth), Some(color)) = (set.depth(), set.color()) {
///         println!("{} {} @ {:.3} ms", depth.number, color.number, set.timestamp());
///     }
/// }
/// # Ok(()) }
/// ```
pub struct Pipeline {
    playback: Playback,
    profiles: Vec<StreamProfile>,
    frames: Receiver<Frame>,
    done: Receiver<()>,
    /// Set while stopping or seeking: callbacks drop their frame rather
    /// than wait for room.
    discard: Arc<AtomicBool>,
    state: Mutex<State>,
}

/// How long [`Pipeline::next`] may wait.
enum Wait {
    Poll,
    Until(Option<Instant>),
}

impl Pipeline {
    /// Open a bag and start every stream with the default configuration.
    pub fn open(path: impl AsRef<Path>) -> Result<Pipeline> {
        Pipeline::open_with(path, PipelineConfig::default())
    }

    /// Open a bag and start the configured streams.
    pub fn open_with(path: impl AsRef<Path>, config: PipelineConfig) -> Result<Pipeline> {
        let options = PlaybackOptions {
            real_time: config.real_time,
            // Short sensor queues keep the streams close together on
            // their way to the syncer.
            queue_size: PLAYBACK_QUEUE,
        };
        Pipeline::start(Playback::with_options(path, options)?, config)
    }

    /// Start the configured streams of `playback` (from the beginning, or
    /// from where it was sought to) and group their frames. The playback's
    /// real-time setting is set from the configuration.
    pub fn start(playback: Playback, config: PipelineConfig) -> Result<Pipeline> {
        let recorded = playback.recording().streams();
        let wanted: Vec<StreamId> = match &config.streams {
            None => recorded.keys().copied().collect(),
            Some(streams) => {
                for s in streams {
                    if !recorded.contains_key(s) {
                        let names: Vec<String> = recorded.keys().map(|s| s.to_string()).collect();
                        return Err(Error::InvalidArgument(format!(
                            "no stream {s} in the recording; it has {}",
                            names.join(", ")
                        )));
                    }
                }
                streams.clone()
            }
        };
        if wanted.is_empty() {
            return Err(Error::InvalidArgument(
                "no stream to start: the recording has none, or none was chosen".into(),
            ));
        }
        let (frames_tx, frames) = crossbeam_channel::bounded(config.queue_size.max(1));
        let (done_tx, done) = crossbeam_channel::unbounded();
        let discard = Arc::new(AtomicBool::new(false));
        playback.set_real_time(config.real_time);
        playback.add_status_listener(Arc::new(move |status| {
            if status == PlaybackStatus::Stopped {
                let _ = done_tx.send(());
            }
        }));
        // Every sensor starts before reading begins, so no stream misses
        // its first frames.
        playback.pause();
        let mut profiles = Vec::new();
        for sensor in playback.sensors() {
            let chosen: Vec<StreamProfile> = sensor
                .profiles()
                .into_iter()
                .filter(|p| wanted.contains(&p.stream))
                .collect();
            if chosen.is_empty() {
                continue;
            }
            sensor.open(&chosen)?;
            let tx = frames_tx.clone();
            let discard = discard.clone();
            sensor.start(Arc::new(move |mut frame: Frame| loop {
                if discard.load(Ordering::Acquire) {
                    return;
                }
                match tx.send_timeout(frame, Duration::from_millis(20)) {
                    Ok(()) | Err(SendTimeoutError::Disconnected(_)) => return,
                    Err(SendTimeoutError::Timeout(back)) => frame = back,
                }
            }))?;
            profiles.extend(chosen);
        }
        drop(frames_tx);
        let syncer = Syncer::new(profiles.iter().copied(), config.sync);
        playback.resume();
        Ok(Pipeline {
            playback,
            profiles,
            frames,
            done,
            discard,
            state: Mutex::new(State {
                syncer,
                ended: false,
            }),
        })
    }

    /// The playback device (pause, resume, speed, position…).
    pub fn playback(&self) -> &Playback {
        &self.playback
    }

    /// The profiles streaming.
    pub fn profiles(&self) -> &[StreamProfile] {
        &self.profiles
    }

    /// The next frameset, waiting at most `timeout` for it. At the end of
    /// the recording, once every frameset was taken, the error is
    /// [`Error::Stream`] of kind [`io::ErrorKind::UnexpectedEof`]; after
    /// `timeout` without one (paused playback, slow file), of kind
    /// [`io::ErrorKind::TimedOut`] (as librealsense's `wait_for_frames`
    /// raises).
    pub fn wait_for_frames(&self, timeout: Duration) -> Result<FrameSet> {
        match self.next(Wait::Until(Instant::now().checked_add(timeout)))? {
            Some(set) => Ok(set),
            None => Err(Error::Stream(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "the recording has ended: no more framesets",
            ))),
        }
    }

    /// The next frameset, waiting at most `timeout`; `None` at the end of
    /// the recording. Timing out is an [`Error::Stream`] of kind
    /// [`io::ErrorKind::TimedOut`].
    pub fn try_wait_for_frames(&self, timeout: Duration) -> Result<Option<FrameSet>> {
        self.next(Wait::Until(Instant::now().checked_add(timeout)))
    }

    /// A frameset if one is ready now, without waiting.
    pub fn poll_for_frames(&self) -> Option<FrameSet> {
        self.next(Wait::Poll).ok().flatten()
    }

    /// Whether the recording has ended and every frameset was taken.
    pub fn is_finished(&self) -> bool {
        let mut state = self.state.lock();
        self.take_available(&mut state);
        state.ended && state.syncer.pending_frames() == 0
    }

    /// Continue from `time` (since the first frame, as
    /// [`Playback::seek`]): framesets not yet taken are discarded and the
    /// next one is from there. An error once the recording has ended or
    /// the pipeline was stopped.
    pub fn seek(&self, time: Duration) -> Result<()> {
        let mut state = self.state.lock();
        if state.ended || self.playback.status() == PlaybackStatus::Stopped {
            return Err(Error::InvalidArgument(
                "cannot seek: the pipeline's playback has stopped".into(),
            ));
        }
        let was_paused = self.playback.is_paused();
        self.discard.store(true, Ordering::Release);
        self.playback.pause();
        let sought = self.playback.seek(time);
        while self.frames.try_recv().is_ok() {}
        state.syncer.reset();
        self.discard.store(false, Ordering::Release);
        if !was_paused {
            self.playback.resume();
        }
        sought
    }

    /// Stop streaming; framesets not yet taken are discarded.
    pub fn stop(&self) {
        self.discard.store(true, Ordering::Release);
        self.playback.stop();
        let mut state = self.state.lock();
        while self.frames.try_recv().is_ok() {}
        state.syncer.reset();
        state.ended = true;
    }

    /// Feed the syncer what has arrived; notice the end of the playback.
    fn take_available(&self, state: &mut State) {
        if state.ended {
            return;
        }
        loop {
            match self.frames.try_recv() {
                Ok(frame) => state.syncer.push(frame),
                Err(TryRecvError::Disconnected) => {
                    self.finish(state);
                    return;
                }
                Err(TryRecvError::Empty) => {
                    if self.done.try_recv().is_ok() {
                        self.finish(state);
                    }
                    return;
                }
            }
        }
    }

    /// The playback ended: every frame is in the queue (callbacks have
    /// returned); group them all.
    fn finish(&self, state: &mut State) {
        while let Ok(frame) = self.frames.try_recv() {
            state.syncer.push(frame);
        }
        state.syncer.finish();
        state.ended = true;
    }

    fn next(&self, wait: Wait) -> Result<Option<FrameSet>> {
        let mut state = self.state.lock();
        loop {
            if let Some(set) = state.syncer.pop() {
                return Ok(Some(set));
            }
            if state.ended {
                return Ok(None);
            }
            self.take_available(&mut state);
            if let Some(set) = state.syncer.pop() {
                return Ok(Some(set));
            }
            if state.ended {
                return Ok(None);
            }
            let deadline = match wait {
                Wait::Poll => return Ok(None),
                Wait::Until(deadline) => deadline,
            };
            let left = deadline.map(|d| d.saturating_duration_since(Instant::now()));
            if left == Some(Duration::ZERO) {
                return Err(timed_out());
            }
            // Wait for a frame or the end, up to the deadline.
            crossbeam_channel::select! {
                recv(self.frames) -> frame => match frame {
                    Ok(frame) => state.syncer.push(frame),
                    Err(_) => self.finish(&mut state),
                },
                recv(self.done) -> _ => self.finish(&mut state),
                default(left.unwrap_or(Duration::from_secs(3600))) => {
                    if left.is_some() {
                        return Err(timed_out());
                    }
                }
            }
        }
    }
}

impl Drop for Pipeline {
    fn drop(&mut self) {
        self.discard.store(true, Ordering::Release);
        self.playback.stop();
    }
}

/// Frames each playback sensor queues for its callback.
const PLAYBACK_QUEUE: usize = 4;

fn timed_out() -> Error {
    Error::Stream(io::Error::new(
        io::ErrorKind::TimedOut,
        "no frameset arrived in time",
    ))
}
