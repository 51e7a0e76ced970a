//! The playback device: a recording replayed as the camera that made it.

use std::path::Path;
use std::sync::{Arc, Weak};
use std::time::{Duration, Instant};

use parking_lot::Mutex;

use super::engine::{PlaybackOptions, PlaybackStatus, SensorListeners, Shared, StatusCallback};
use crate::device::{
    CameraInfo, Device, Extrinsics, FrameCallback, NotificationCallback, OptionCallback, Sensor,
    SensorOption, SensorSnapshot, StreamId, StreamProfile,
};
use crate::recording::Recording;
use crate::{Error, Result};

/// A recording played back as a [`Device`].
///
/// One reader thread walks the file in time order and hands each frame to
/// the stream it belongs to; each started stream has its own delivery
/// thread and bounded queue ([`PlaybackOptions::queue_size`]), as in
/// librealsense. So the callback of a sensor with several streams (depth
/// and two infrared, say) may run for different streams at the same time,
/// on different threads; for one stream it runs for one frame at a time,
/// in recorded order. In real time a frame whose queue is full is dropped
/// (and counted, [`Playback::dropped_frames`]) so that one slow callback
/// never holds up the others or the clock; not in real time the reader
/// waits for room, so every frame is delivered and the pace is that of the
/// slowest callback.
///
/// Every control may be called from any thread at any time, also from a
/// frame callback or a listener. No internal lock is held while a callback
/// or listener runs. [`stop`](Playback::stop) (and dropping the playback)
/// returns once no callback runs and the playback's threads have ended;
/// called from a callback or listener, it returns at once, and no new
/// callback starts after it returned.
///
/// A damaged part of the file is skipped: playback goes on with the next
/// readable part, each sensor's notification listeners hear of it (severity
/// `Error`), and [`read_errors`](Playback::read_errors) and
/// [`take_read_errors`](Playback::take_read_errors) tell what was lost.
///
/// # Example
/// ```no_run
/// use std::sync::Arc;
/// use rsbag::device::Device;
/// use rsbag::playback::Playback;
/// # fn main() -> rsbag::Result<()> {
/// let playback = Playback::open("sample_bags/librealsense-depth-color-lz4.bag")?;
/// playback.set_real_time(false);
/// for sensor in playback.sensors() {
///     sensor.open(&sensor.profiles())?;
///     sensor.start(Arc::new(|frame| println!("{} #{}", frame.profile.stream, frame.number)))?;
/// }
/// playback.wait_until_stopped(std::time::Duration::from_secs(10));
/// # Ok(()) }
/// ```
pub struct Playback {
    shared: Arc<Shared>,
    sensors: Vec<Arc<PlaybackSensor>>,
}

impl Playback {
    /// Open a recording for playback, in real time.
    pub fn open(path: impl AsRef<Path>) -> Result<Playback> {
        Playback::with_options(path, PlaybackOptions::default())
    }

    /// Open a recording for playback with `options`.
    pub fn with_options(path: impl AsRef<Path>, options: PlaybackOptions) -> Result<Playback> {
        Ok(Playback::from_recording(Recording::open(path)?, options))
    }

    /// Play an opened recording.
    pub fn from_recording(recording: Recording, options: PlaybackOptions) -> Playback {
        let snapshots = recording.snapshot().sensors.clone();
        let listeners: Vec<_> = snapshots.iter().map(SensorListeners::new).collect();
        let shared = Arc::new(Shared::new(recording, options, listeners.clone()));
        let sensors = (snapshots.into_iter().zip(listeners).enumerate())
            .map(|(index, (snapshot, listeners))| PlaybackSensor {
                index,
                snapshot,
                listeners,
                opened: Mutex::new(Vec::new()),
                playback: Arc::downgrade(&shared),
            })
            .map(Arc::new)
            .collect();
        Playback { shared, sensors }
    }

    /// The recording being played.
    pub fn recording(&self) -> &Recording {
        &self.shared.recording
    }

    /// Open and start every sensor that recorded one of `streams`, with
    /// `callback`, all before delivery begins, so that no stream misses its
    /// first frames (as when a sensor starts while others play). Delivery
    /// then begins, unless the playback was paused. Returns the profiles
    /// started.
    pub fn start_streams(
        &self,
        streams: &[StreamId],
        callback: FrameCallback,
    ) -> Result<Vec<StreamProfile>> {
        let was_paused = self.is_paused();
        self.pause();
        let mut started = Vec::new();
        let result = self.sensors().iter().try_for_each(|sensor| {
            let chosen: Vec<StreamProfile> = sensor
                .profiles()
                .into_iter()
                .filter(|p| streams.contains(&p.stream))
                .collect();
            if chosen.is_empty() {
                return Ok(());
            }
            sensor.open(&chosen)?;
            sensor.start(callback.clone())?;
            started.extend(chosen);
            Ok(())
        });
        if !was_paused {
            self.resume();
        }
        result.map(|()| started)
    }

    /// Hold delivery; [`resume`](Self::resume) continues where it stopped.
    /// A callback running when it is called finishes.
    pub fn pause(&self) {
        self.shared.control(|s| {
            s.paused = true;
            if s.status == PlaybackStatus::Playing {
                s.set_status(PlaybackStatus::Paused);
            }
        });
    }

    /// Whether [`pause`](Self::pause) holds delivery (also before any
    /// sensor was started).
    pub fn is_paused(&self) -> bool {
        self.shared.state.lock().paused
    }

    /// Continue after [`pause`](Self::pause).
    pub fn resume(&self) {
        self.shared.control(|s| {
            s.paused = false;
            if s.status == PlaybackStatus::Paused {
                s.set_status(PlaybackStatus::Playing);
            }
        });
    }

    /// Continue from the first recorded event at or after `time` (since the
    /// start of the recording, as [`position`](Self::position)), through the
    /// index. Frames queued before the seek are discarded, and a callback
    /// of such a frame that was running has returned when this returns
    /// (unless it is called from a callback or listener). Seeking past the
    /// end is an error.
    pub fn seek(&self, time: Duration) -> Result<()> {
        let duration = self.duration();
        if time > duration {
            return Err(Error::InvalidArgument(format!(
                "cannot seek to {:.3} s: the recording lasts {:.3} s",
                time.as_secs_f64(),
                duration.as_secs_f64()
            )));
        }
        let target = self.shared.recording.start_time() + time;
        self.shared.seek(target);
        Ok(())
    }

    /// Play at `speed` times the recorded pace (real time only).
    pub fn set_playback_speed(&self, speed: f64) -> Result<()> {
        if !(speed.is_finite() && speed > 0.0) {
            return Err(Error::InvalidArgument(format!(
                "playback speed must be positive, not {speed}"
            )));
        }
        self.shared.control(|s| s.speed = speed);
        Ok(())
    }

    /// The playback speed.
    pub fn playback_speed(&self) -> f64 {
        self.shared.state.lock().speed
    }

    /// Deliver at the recorded pace (`true`) or as fast as the callbacks
    /// take frames, never dropping one (`false`).
    pub fn set_real_time(&self, real_time: bool) {
        self.shared.control(|s| s.real_time = real_time);
    }

    /// Whether delivery follows the recorded pace.
    pub fn is_real_time(&self) -> bool {
        self.shared.state.lock().real_time
    }

    /// Start again from the beginning at the end of the file.
    pub fn set_repeat(&self, repeat: bool) {
        self.shared.control(|s| s.repeat = repeat);
    }

    /// Whether playback starts again at the end of the file.
    pub fn is_repeating(&self) -> bool {
        self.shared.state.lock().repeat
    }

    /// Time of the last event handed on since the start of the recording.
    pub fn position(&self) -> Duration {
        let position = self.shared.state.lock().position;
        position - self.shared.recording.start_time()
    }

    /// Time from the first frame to the last.
    pub fn duration(&self) -> Duration {
        self.shared.recording.duration()
    }

    /// Playing, paused or stopped.
    pub fn status(&self) -> PlaybackStatus {
        self.shared.state.lock().status
    }

    /// Frames dropped in real time because a stream's callback fell behind.
    pub fn dropped_frames(&self) -> u64 {
        self.shared.state.lock().dropped
    }

    /// Damaged parts of the file skipped so far (each a chunk or a message
    /// that could not be read).
    pub fn read_errors(&self) -> u64 {
        self.shared.state.lock().read_errors
    }

    /// The errors of the damaged parts skipped since the last call (the
    /// first 64; [`read_errors`](Self::read_errors) counts them all).
    pub fn take_read_errors(&self) -> Vec<Error> {
        std::mem::take(&mut self.shared.state.lock().kept_errors)
    }

    /// Call `callback` whenever the status changes, in the order of the
    /// changes, on the thread that made the change (one at a time).
    pub fn add_status_listener(&self, callback: StatusCallback) {
        self.shared.status_listeners.lock().push(callback);
    }

    /// Stop every sensor; the next start plays from the beginning. Returns
    /// once no callback runs any more and the playback's threads have ended
    /// (called from a callback or listener: at once, and no callback
    /// starts after).
    pub fn stop(&self) {
        self.shared.stop_streams(None);
    }

    /// Block until the status is [`PlaybackStatus::Stopped`] (and the
    /// status listeners have heard so) or `timeout` passes; returns whether
    /// it stopped.
    pub fn wait_until_stopped(&self, timeout: Duration) -> bool {
        let deadline = Instant::now().checked_add(timeout);
        let mut state = self.shared.state.lock();
        self.shared
            .wait_settled(&mut state, deadline, Shared::stopped_and_told)
    }
}

impl Drop for Playback {
    fn drop(&mut self) {
        self.stop();
    }
}

impl std::fmt::Debug for Playback {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Playback")
            .field("recording", &self.shared.recording.storage().path())
            .field("status", &self.status())
            .finish_non_exhaustive()
    }
}

impl Device for Playback {
    fn info(&self) -> CameraInfo {
        self.shared.recording.snapshot().info.clone()
    }

    fn sensors(&self) -> Vec<Arc<dyn Sensor>> {
        (self.sensors.iter())
            .map(|s| s.clone() as Arc<dyn Sensor>)
            .collect()
    }

    fn extrinsics(&self, from: StreamId, to: StreamId) -> Option<Extrinsics> {
        self.shared.recording.extrinsics(from, to)
    }
}

/// A sensor of a [`Playback`]: the recorded sensor's info, options and
/// profiles, streaming what the file holds.
pub struct PlaybackSensor {
    index: usize,
    snapshot: SensorSnapshot,
    /// Its options as recorded so far, and who listens to its changes.
    listeners: Arc<SensorListeners>,
    opened: Mutex<Vec<StreamProfile>>,
    playback: Weak<Shared>,
}

impl PlaybackSensor {
    fn playback(&self) -> Result<Arc<Shared>> {
        self.playback
            .upgrade()
            .ok_or_else(|| Error::InvalidArgument("the playback device was dropped".into()))
    }

    fn is_streaming(&self) -> bool {
        self.playback
            .upgrade()
            .is_some_and(|p| p.state.lock().is_streaming(self.index))
    }
}

impl std::fmt::Debug for PlaybackSensor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PlaybackSensor")
            .field("index", &self.index)
            .field("name", &self.name())
            .finish_non_exhaustive()
    }
}

impl Sensor for PlaybackSensor {
    fn info(&self) -> CameraInfo {
        self.snapshot.info.clone()
    }

    fn profiles(&self) -> Vec<StreamProfile> {
        self.snapshot.profiles.clone()
    }

    fn options(&self) -> Vec<SensorOption> {
        self.listeners.options.lock().clone()
    }

    fn set_option(&self, name: &str, _value: f32) -> Result<()> {
        Err(Error::InvalidArgument(format!(
            "option {name:?} of a recorded sensor is read-only"
        )))
    }

    fn add_option_listener(&self, callback: OptionCallback) {
        self.listeners.on_option.lock().push(callback);
    }

    fn add_notification_listener(&self, callback: NotificationCallback) {
        self.listeners.on_notification.lock().push(callback);
    }

    fn open(&self, profiles: &[StreamProfile]) -> Result<()> {
        if self.is_streaming() {
            return Err(Error::InvalidArgument(
                "cannot open a streaming sensor; stop it first".into(),
            ));
        }
        let mut chosen = Vec::new();
        for wanted in profiles {
            let found = self
                .snapshot
                .profiles
                .iter()
                .find(|p| p.unique_id == wanted.unique_id || p.same_mode(wanted))
                .ok_or_else(|| {
                    Error::InvalidArgument(format!(
                        "profile {} {} {} fps is not in the recording of sensor {:?}",
                        wanted.stream,
                        wanted.format,
                        wanted.fps,
                        self.name()
                    ))
                })?;
            if chosen
                .iter()
                .any(|p: &StreamProfile| p.stream == found.stream)
            {
                return Err(Error::InvalidArgument(format!(
                    "stream {} opened twice",
                    found.stream
                )));
            }
            chosen.push(*found);
        }
        *self.opened.lock() = chosen;
        Ok(())
    }

    fn start(&self, callback: FrameCallback) -> Result<()> {
        let shared = self.playback()?;
        let opened = self.opened.lock().clone();
        if opened.is_empty() {
            return Err(Error::InvalidArgument(format!(
                "sensor {:?} has no opened profiles; open some before start",
                self.name()
            )));
        }
        shared.start_streams(self.index, &opened, callback)
    }

    fn stop(&self) -> Result<()> {
        if let Ok(shared) = self.playback() {
            shared.stop_streams(Some(self.index));
        }
        Ok(())
    }

    fn close(&self) -> Result<()> {
        self.stop()?;
        self.opened.lock().clear();
        Ok(())
    }

    fn active_profiles(&self) -> Vec<StreamProfile> {
        self.opened.lock().clone()
    }
}
