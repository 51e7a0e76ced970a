//! Framesets from the playback device, the way librealsense's pipeline
//! gives them over a file: `wait_for_frames` and `poll_for_frames`.

use std::collections::VecDeque;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use parking_lot::{Condvar, Mutex};

use super::device::Playback;
use super::engine::{PlaybackOptions, PlaybackStatus};
use crate::device::{Frame, StreamId, StreamProfile};
use crate::recording::{FrameSet, SyncOptions, Syncer};
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
    /// How frames are grouped (see [`crate::recording::frameset`]).
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

/// What the sensor callbacks and the callers share, under one lock.
struct State {
    syncer: Syncer<Frame>,
    /// Frames from the callbacks not yet in the syncer.
    arrived: VecDeque<Frame>,
    capacity: usize,
    /// Set while stopping or seeking: callbacks drop their frame rather
    /// than wait for room.
    discard: bool,
    /// The playback stopped: every frame it will deliver has arrived.
    playback_stopped: bool,
    /// Every frame of the playback went into the syncer.
    ended: bool,
}

/// The state and what wakes the threads waiting on it.
struct Exchange {
    state: Mutex<State>,
    /// Wakes callbacks waiting for room.
    room: Condvar,
    /// Wakes callers waiting for frames or the end.
    news: Condvar,
}

/// A [`Playback`] with chosen streams started, whose frames are grouped
/// into synchronized [`FrameSet`]s: librealsense's pipeline over a file.
///
/// Frames go from the sensor callbacks through a bounded queue
/// ([`PipelineConfig::queue_size`]) to a [`Syncer`] that runs in the
/// thread that asks for framesets; no thread of its own. Not in real time
/// (the default) every recorded frame ends up in exactly one frameset, and
/// the framesets are the ones [`crate::recording::FrameReader::framesets`] gives.
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
    exchange: Arc<Exchange>,
}

/// How long [`Pipeline::next`] may wait.
enum Wait {
    Poll,
    /// Until the deadline (`None`: too far to count), `timeout` from now.
    Until(Option<Instant>, Duration),
}

impl Wait {
    fn at_most(timeout: Duration) -> Wait {
        Wait::Until(Instant::now().checked_add(timeout), timeout)
    }
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
        let exchange = Arc::new(Exchange {
            state: Mutex::new(State {
                syncer: Syncer::new(Vec::new(), config.sync),
                arrived: VecDeque::new(),
                capacity: config.queue_size.max(1),
                discard: false,
                playback_stopped: false,
                ended: false,
            }),
            room: Condvar::new(),
            news: Condvar::new(),
        });
        playback.set_real_time(config.real_time);
        let stopped = exchange.clone();
        playback.add_status_listener(Arc::new(move |status| {
            if status == PlaybackStatus::Stopped {
                stopped.state.lock().playback_stopped = true;
                stopped.news.notify_all();
            }
        }));
        // Paused until the syncer knows the profiles.
        playback.pause();
        let arrive = exchange.clone();
        let profiles =
            playback.start_streams(&wanted, Arc::new(move |frame: Frame| arrive.arrive(frame)))?;
        exchange.state.lock().syncer = Syncer::new(profiles.iter().copied(), config.sync);
        playback.resume();
        Ok(Pipeline {
            playback,
            profiles,
            exchange,
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

    /// The next frameset, waiting at most `timeout` for it.
    ///
    /// # Errors
    ///
    /// [`Error::Ended`] (kind [`ErrorKind::Ended`](crate::ErrorKind::Ended))
    /// at the end of the recording, once every frameset was taken, or after
    /// [`stop`](Self::stop); [`Error::Timeout`] (kind
    /// [`ErrorKind::Timeout`](crate::ErrorKind::Timeout)) after `timeout`
    /// without one (paused playback, slow file), as librealsense's
    /// `wait_for_frames` raises "Frame didn't arrive within …".
    pub fn wait_for_frames(&self, timeout: Duration) -> Result<FrameSet> {
        self.next(Wait::at_most(timeout))?.ok_or(Error::Ended)
    }

    /// The next frameset, waiting at most `timeout`; `None` at the end of
    /// the recording.
    ///
    /// # Errors
    ///
    /// [`Error::Timeout`] (kind
    /// [`ErrorKind::Timeout`](crate::ErrorKind::Timeout)) after `timeout`
    /// without a frameset.
    pub fn try_wait_for_frames(&self, timeout: Duration) -> Result<Option<FrameSet>> {
        self.next(Wait::at_most(timeout))
    }

    /// A frameset if one is ready now, without waiting.
    pub fn poll_for_frames(&self) -> Option<FrameSet> {
        self.next(Wait::Poll).ok().flatten()
    }

    /// Where the playback is, as the one taking framesets sees it (and as
    /// librealsense's pipeline over a file says): playing, or paused,
    /// until every frameset was taken, although the playback's reader
    /// may have reached the end of the file before (its frames wait here
    /// while librealsense's wait in its blocked reader); stopped after
    /// that and after [`stop`](Self::stop).
    pub fn status(&self) -> PlaybackStatus {
        match self.playback.status() {
            PlaybackStatus::Stopped if !self.is_finished() => {
                if self.playback.is_paused() {
                    PlaybackStatus::Paused
                } else {
                    PlaybackStatus::Playing
                }
            }
            status => status,
        }
    }

    /// Whether the recording has ended and every frameset was taken.
    pub fn is_finished(&self) -> bool {
        let mut state = self.exchange.state.lock();
        self.exchange.take_arrived(&mut state);
        state.ended && state.syncer.pending_frames() == 0
    }

    /// Continue from `time` (since the first frame, as
    /// [`Playback::seek`]): framesets not yet taken are discarded and the
    /// next one is from there. An error once the recording has ended or
    /// the pipeline was stopped.
    pub fn seek(&self, time: Duration) -> Result<()> {
        {
            let state = self.exchange.state.lock();
            if state.ended || self.playback.status() == PlaybackStatus::Stopped {
                return Err(Error::InvalidArgument(
                    "cannot seek: the pipeline's playback has stopped".into(),
                ));
            }
        }
        let was_paused = self.playback.is_paused();
        self.exchange.set_discard(true);
        self.playback.pause();
        let sought = self.playback.seek(time);
        {
            let mut state = self.exchange.state.lock();
            state.arrived.clear();
            state.syncer.reset();
            state.discard = false;
        }
        if !was_paused {
            self.playback.resume();
        }
        sought
    }

    /// Stop streaming; framesets not yet taken are discarded.
    pub fn stop(&self) {
        self.exchange.set_discard(true);
        self.playback.stop();
        let mut state = self.exchange.state.lock();
        state.arrived.clear();
        state.syncer.reset();
        state.ended = true;
        self.exchange.news.notify_all();
    }

    fn next(&self, wait: Wait) -> Result<Option<FrameSet>> {
        let exchange = &self.exchange;
        let mut state = exchange.state.lock();
        loop {
            exchange.take_arrived(&mut state);
            if let Some(set) = state.syncer.pop() {
                return Ok(Some(set));
            }
            if state.ended {
                return Ok(None);
            }
            let (deadline, timeout) = match wait {
                Wait::Poll => return Ok(None),
                Wait::Until(deadline, timeout) => (deadline, timeout),
            };
            match deadline {
                Some(deadline) => {
                    if exchange.news.wait_until(&mut state, deadline).timed_out()
                        && state.arrived.is_empty()
                        && !state.playback_stopped
                    {
                        return Err(Error::Timeout(timeout));
                    }
                }
                None => exchange.news.wait(&mut state),
            }
        }
    }
}

impl Exchange {
    /// A sensor callback: queue the frame, waiting for room (woken by the
    /// consumer, a seek or a stop).
    fn arrive(&self, frame: Frame) {
        let mut state = self.state.lock();
        loop {
            if state.discard {
                return;
            }
            if state.arrived.len() < state.capacity {
                state.arrived.push_back(frame);
                self.news.notify_all();
                return;
            }
            self.room.wait(&mut state);
        }
    }

    /// Drop frames on their way in (and wake callbacks waiting for room).
    fn set_discard(&self, discard: bool) {
        self.state.lock().discard = discard;
        self.room.notify_all();
    }

    /// Feed the syncer what has arrived; once the playback stopped (every
    /// callback has returned), group everything.
    fn take_arrived(&self, state: &mut State) {
        if state.ended {
            return;
        }
        if !state.arrived.is_empty() {
            let State {
                arrived, syncer, ..
            } = state;
            for frame in arrived.drain(..) {
                syncer.push(frame);
            }
            self.room.notify_all();
        }
        if state.playback_stopped {
            state.syncer.finish();
            state.ended = true;
        }
    }
}

impl std::fmt::Debug for Pipeline {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pipeline")
            .field("playback", &self.playback)
            .field("profiles", &self.profiles)
            .finish_non_exhaustive()
    }
}

impl Drop for Pipeline {
    fn drop(&mut self) {
        self.exchange.set_discard(true);
        self.playback.stop();
    }
}

/// Frames each playback sensor queues for its callback.
const PLAYBACK_QUEUE: usize = 4;
