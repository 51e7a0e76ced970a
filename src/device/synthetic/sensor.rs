//! A synthetic sensor: options, listeners and streaming threads.

use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use bytes::BytesMut;

use crate::device::{
    camera_info, CameraInfo, FrameCallback, Notification, NotificationCallback, OptionCallback,
    Sensor, SensorOption, StreamId, StreamProfile,
};
use crate::{Error, Result};

use super::pattern::{self, RenderParams};

/// Lock `mutex`, ignoring poisoning: the data under the sensor's locks is
/// always consistent (no user code runs while they are held).
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// One sensor of a [`SyntheticDevice`](super::SyntheticDevice).
///
/// Streaming runs one thread per opened stream. Each thread sleeps until
/// its next frame is due (frame `n` is due `(n - 1) / fps` seconds after
/// [`start`](Sensor::start)), renders it and calls the callback on its own
/// thread. [`stop`](Sensor::stop) wakes the threads and joins them, so no
/// callback runs once it returns (when `stop` is called from inside the
/// callback, that thread is not joined but delivers nothing more).
pub struct SyntheticSensor {
    info: CameraInfo,
    profiles: Vec<StreamProfile>,
    shared: Arc<Shared>,
    state: Mutex<State>,
}

/// What the streaming threads share with the sensor.
struct Shared {
    options: Mutex<Vec<SensorOption>>,
    option_listeners: Mutex<Vec<OptionCallback>>,
    notification_listeners: Mutex<Vec<NotificationCallback>>,
    timestamp_base_ms: f64,
    drop_late_frames: bool,
}

/// Opened profiles and the running streams.
#[derive(Default)]
struct State {
    opened: Vec<StreamProfile>,
    run: Option<Run>,
}

/// The threads of one `start`.
struct Run {
    stop: Arc<StopSignal>,
    threads: Vec<JoinHandle<()>>,
}

/// A one-shot stop flag that sleeping threads can wait on.
#[derive(Default)]
struct StopSignal {
    stopped: Mutex<bool>,
    wake: Condvar,
}

impl StopSignal {
    fn stop(&self) {
        *lock(&self.stopped) = true;
        self.wake.notify_all();
    }

    fn is_stopped(&self) -> bool {
        *lock(&self.stopped)
    }

    /// Sleep until `deadline`; `true` if stopped meanwhile (or before).
    fn wait_until(&self, deadline: Instant) -> bool {
        let mut stopped = lock(&self.stopped);
        loop {
            if *stopped {
                return true;
            }
            let now = Instant::now();
            if now >= deadline {
                return false;
            }
            stopped = self
                .wake
                .wait_timeout(stopped, deadline - now)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
    }
}

impl SyntheticSensor {
    pub(super) fn new(
        name: &str,
        profiles: Vec<StreamProfile>,
        options: Vec<SensorOption>,
        timestamp_base_ms: f64,
        drop_late_frames: bool,
    ) -> SyntheticSensor {
        SyntheticSensor {
            info: CameraInfo::new([(camera_info::NAME, name)]),
            profiles,
            shared: Arc::new(Shared {
                options: Mutex::new(options),
                option_listeners: Mutex::default(),
                notification_listeners: Mutex::default(),
                timestamp_base_ms,
                drop_late_frames,
            }),
            state: Mutex::default(),
        }
    }

    /// Deliver `notification` to every notification listener, on the
    /// calling thread.
    pub fn raise_notification(&self, notification: &Notification) {
        let listeners = lock(&self.shared.notification_listeners).clone();
        for listener in listeners {
            listener(notification);
        }
    }

    /// Whether the sensor is streaming.
    pub(crate) fn is_streaming(&self) -> bool {
        lock(&self.state).run.is_some()
    }

    /// The values of the options that shape frames.
    pub(super) fn render_params(&self) -> RenderParams {
        self.shared.render_params()
    }

    pub(super) fn timestamp_base_ms(&self) -> f64 {
        self.shared.timestamp_base_ms
    }

    /// Whether `stream` is one of this sensor's.
    pub(super) fn has_stream(&self, stream: StreamId) -> bool {
        self.profiles.iter().any(|p| p.stream == stream)
    }

    /// Signal `run`'s threads to stop and join them (except the calling
    /// thread, when called from a callback).
    fn finish(run: Run) {
        run.stop.stop();
        let me = thread::current().id();
        for handle in run.threads {
            if handle.thread().id() == me {
                continue; // Our own thread: it exits when the callback returns.
            }
            if handle.join().is_err() {
                tracing::warn!("a synthetic stream's frame callback panicked");
            }
        }
    }
}

impl Shared {
    fn render_params(&self) -> RenderParams {
        RenderParams::from_options(&lock(&self.options))
    }
}

impl std::fmt::Debug for SyntheticSensor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SyntheticSensor")
            .field("name", &self.info.get(camera_info::NAME))
            .field("profiles", &self.profiles.len())
            .field("streaming", &self.is_streaming())
            .finish()
    }
}

impl Drop for SyntheticSensor {
    fn drop(&mut self) {
        if let Some(run) = lock(&self.state).run.take() {
            Self::finish(run);
        }
    }
}

impl Sensor for SyntheticSensor {
    fn info(&self) -> CameraInfo {
        self.info.clone()
    }

    fn profiles(&self) -> Vec<StreamProfile> {
        self.profiles.clone()
    }

    fn options(&self) -> Vec<SensorOption> {
        lock(&self.shared.options).clone()
    }

    fn set_option(&self, name: &str, value: f32) -> Result<()> {
        {
            let mut options = lock(&self.shared.options);
            let option = options.iter_mut().find(|o| o.name == name).ok_or_else(|| {
                Error::InvalidArgument(format!("{} has no option {name:?}", self.name()))
            })?;
            if option.read_only {
                return Err(Error::InvalidArgument(format!(
                    "option {name:?} of {} is read-only",
                    self.name()
                )));
            }
            let range = option.range;
            let in_range = value.is_finite() && range.min <= value && value <= range.max;
            if !in_range || !on_step(value, range.min, range.step) {
                return Err(Error::InvalidArgument(format!(
                    "{value} is not a valid {name:?}: expected {} to {} in steps of {}",
                    range.min, range.max, range.step
                )));
            }
            option.value = value;
        }
        let listeners = lock(&self.shared.option_listeners).clone();
        for listener in listeners {
            listener(name, value);
        }
        Ok(())
    }

    fn add_option_listener(&self, callback: OptionCallback) {
        lock(&self.shared.option_listeners).push(callback);
    }

    fn add_notification_listener(&self, callback: NotificationCallback) {
        lock(&self.shared.notification_listeners).push(callback);
    }

    /// Choose the profiles to stream. Each must be one of this sensor's
    /// modes ([`StreamProfile::same_mode`]; the sensor's own profile, with
    /// its id and intrinsics, is what streams), at most one per stream.
    /// Opening again while not streaming replaces the earlier choice.
    fn open(&self, profiles: &[StreamProfile]) -> Result<()> {
        if profiles.is_empty() {
            return Err(Error::InvalidArgument(format!(
                "open {}: no profile given",
                self.name()
            )));
        }
        let mut opened: Vec<StreamProfile> = Vec::with_capacity(profiles.len());
        for requested in profiles {
            let own = self
                .profiles
                .iter()
                .find(|p| p.same_mode(requested))
                .ok_or_else(|| {
                    Error::InvalidArgument(format!(
                        "{} has no profile {} {} {:?} at {} fps",
                        self.name(),
                        requested.stream,
                        requested.format,
                        requested.resolution(),
                        requested.fps
                    ))
                })?;
            if opened.iter().any(|p| p.stream == own.stream) {
                return Err(Error::InvalidArgument(format!(
                    "open {}: more than one profile for {}",
                    self.name(),
                    own.stream
                )));
            }
            opened.push(*own);
        }
        let mut state = lock(&self.state);
        if state.run.is_some() {
            return Err(Error::InvalidArgument(format!(
                "cannot open {} while it is streaming",
                self.name()
            )));
        }
        state.opened = opened;
        Ok(())
    }

    fn start(&self, callback: FrameCallback) -> Result<()> {
        let mut state = lock(&self.state);
        if state.run.is_some() {
            return Err(Error::InvalidArgument(format!(
                "{} is already streaming",
                self.name()
            )));
        }
        if state.opened.is_empty() {
            return Err(Error::InvalidArgument(format!(
                "start {}: no profile is open",
                self.name()
            )));
        }
        let stop = Arc::new(StopSignal::default());
        let mut threads = Vec::with_capacity(state.opened.len());
        for &profile in &state.opened {
            let stream = StreamThread {
                profile,
                shared: Arc::clone(&self.shared),
                stop: Arc::clone(&stop),
                callback: Arc::clone(&callback),
            };
            let spawned = thread::Builder::new()
                .name(format!("synthetic {}", profile.stream))
                .spawn(move || stream.run());
            match spawned {
                Ok(handle) => threads.push(handle),
                Err(error) => {
                    Self::finish(Run { stop, threads });
                    return Err(Error::Thread(format!(
                        "cannot start the thread of stream {}: {error}",
                        profile.stream
                    )));
                }
            }
        }
        state.run = Some(Run { stop, threads });
        Ok(())
    }

    /// Stop streaming. Returns once every stream thread has ended (see the
    /// type's documentation for calls from a callback); an error if the
    /// sensor is not streaming.
    fn stop(&self) -> Result<()> {
        // Take the run out first: the threads are joined without the lock,
        // so a callback may call the sensor meanwhile.
        let run = lock(&self.state).run.take();
        let run =
            run.ok_or_else(|| Error::InvalidArgument(format!("{} is not streaming", self.name())))?;
        Self::finish(run);
        Ok(())
    }

    fn close(&self) -> Result<()> {
        let mut state = lock(&self.state);
        if state.run.is_some() {
            return Err(Error::InvalidArgument(format!(
                "cannot close {} while it is streaming; stop it first",
                self.name()
            )));
        }
        if state.opened.is_empty() {
            return Err(Error::InvalidArgument(format!(
                "{} is not open",
                self.name()
            )));
        }
        state.opened.clear();
        Ok(())
    }

    fn active_profiles(&self) -> Vec<StreamProfile> {
        lock(&self.state).opened.clone()
    }
}

/// Whether `value` is `min` plus a whole number of `step`s (any value when
/// `step` is 0).
fn on_step(value: f32, min: f32, step: f32) -> bool {
    if step <= 0.0 {
        return true;
    }
    let steps = (value as f64 - min as f64) / step as f64;
    (steps - steps.round()).abs() < 1e-3
}

/// One stream of a started sensor.
struct StreamThread {
    profile: StreamProfile,
    shared: Arc<Shared>,
    stop: Arc<StopSignal>,
    callback: FrameCallback,
}

impl StreamThread {
    /// Produce frames on schedule until stopped.
    fn run(self) {
        let fps = self.profile.fps as u128;
        let start = Instant::now();
        // When frame `number` is due.
        let due = |number: u64| {
            let nanos = (number as u128 - 1) * 1_000_000_000 / fps;
            start + Duration::from_nanos(nanos.min(u64::MAX as u128) as u64)
        };
        let mut buffer = BytesMut::new();
        let mut number: u64 = 1;
        loop {
            if self.stop.wait_until(due(number)) {
                return;
            }
            if self.shared.drop_late_frames && Instant::now() > due(number + 1) {
                // Late by more than a frame: skip to the frame due now.
                let late = start.elapsed().as_nanos() * fps / 1_000_000_000;
                number = (late as u64 + 1).max(number + 1);
                continue;
            }
            let params = self.shared.render_params();
            let frame = pattern::render_frame(
                &self.profile,
                number,
                &params,
                self.shared.timestamp_base_ms,
                &mut buffer,
            );
            let frame = match frame {
                Ok(frame) => frame,
                Err(error) => {
                    tracing::error!("synthetic {} stream: {error}", self.profile.stream);
                    return;
                }
            };
            if self.stop.is_stopped() {
                return;
            }
            (self.callback)(frame);
            number += 1;
        }
    }
}
