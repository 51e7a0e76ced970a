//! The playback device: a recording replayed as the camera that made it.

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Weak};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use parking_lot::{Condvar, Mutex};

use super::dispatcher::{Dispatcher, Refused};
use super::recording::{Event, Events, Recording, TimedEvent};
use crate::device::{
    CameraInfo, Device, Extrinsics, Frame, FrameCallback, Notification, NotificationCallback,
    OptionCallback, Sensor, SensorOption, SensorSnapshot, StreamId, StreamProfile,
};
use crate::{Error, Result};

/// Where a playback is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PlaybackStatus {
    /// Frames are being delivered.
    Playing,
    /// Delivery is held until [`Playback::resume`].
    Paused,
    /// No sensor is streaming (never started, stopped, or end of file).
    Stopped,
}

/// Receives playback status changes.
pub type StatusCallback = Arc<dyn Fn(PlaybackStatus) + Send + Sync>;

/// How a playback delivers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlaybackOptions {
    /// Frames each sensor's queue holds before the reader waits (not real
    /// time) or drops (real time) the next frame of that sensor.
    pub queue_size: usize,
    /// Start in real time (recorded pace) rather than as fast as the
    /// callbacks take frames.
    pub real_time: bool,
}

impl Default for PlaybackOptions {
    fn default() -> Self {
        PlaybackOptions {
            queue_size: 16,
            real_time: true,
        }
    }
}

/// The playback controls and state, shared by the device, its sensors and
/// the reader thread.
struct Control {
    status: PlaybackStatus,
    paused: bool,
    speed: f64,
    real_time: bool,
    repeat: bool,
    /// A seek waiting for the reader.
    seek_to: Option<u64>,
    /// The active streams changed: the reader must rebuild its query.
    streams_changed: bool,
    /// The reader must end.
    stop_reader: bool,
    /// Bag time of the last delivered event.
    position: u64,
    /// Frames dropped in real time because a callback was too slow.
    dropped: u64,
}

struct Inner {
    recording: Arc<Recording>,
    options: PlaybackOptions,
    control: Mutex<Control>,
    wake: Condvar,
    /// Bumped by every seek: frames queued before it are discarded.
    generation: Arc<AtomicU64>,
    sensors: Mutex<Vec<Arc<PlaybackSensor>>>,
    reader: Mutex<Option<JoinHandle<()>>>,
    status_listeners: Mutex<Vec<StatusCallback>>,
}

/// A recording played back as a [`Device`].
///
/// One reader thread walks the file in time order and hands each frame to
/// the sensor that owns its stream; each started sensor delivers to its
/// callback on its own thread through a bounded queue
/// ([`PlaybackOptions::queue_size`]). In real time a frame whose sensor
/// queue is full is dropped (and counted, [`Playback::dropped_frames`]) so
/// that one slow callback never holds up the others or the clock; when not
/// in real time the reader waits for room, so every frame is delivered and
/// the pace is that of the slowest callback.
///
/// Every control may be called from any thread, at any time.
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
    inner: Arc<Inner>,
}

impl Playback {
    /// Open a bag for playback, in real time.
    pub fn open(path: impl AsRef<Path>) -> Result<Playback> {
        Playback::with_options(path, PlaybackOptions::default())
    }

    /// Open a bag for playback with `options`.
    pub fn with_options(path: impl AsRef<Path>, options: PlaybackOptions) -> Result<Playback> {
        Ok(Playback::from_recording(Recording::open(path)?, options))
    }

    /// Play an opened recording.
    pub fn from_recording(recording: Recording, options: PlaybackOptions) -> Playback {
        let inner = Arc::new(Inner {
            recording: Arc::new(recording),
            options,
            control: Mutex::new(Control {
                status: PlaybackStatus::Stopped,
                paused: false,
                speed: 1.0,
                real_time: options.real_time,
                repeat: false,
                seek_to: None,
                streams_changed: false,
                stop_reader: false,
                position: 0,
                dropped: 0,
            }),
            wake: Condvar::new(),
            generation: Arc::new(AtomicU64::new(0)),
            sensors: Mutex::new(Vec::new()),
            reader: Mutex::new(None),
            status_listeners: Mutex::new(Vec::new()),
        });
        let sensors = inner
            .recording
            .snapshot()
            .sensors
            .iter()
            .enumerate()
            .map(|(index, snapshot)| PlaybackSensor::new(index, snapshot.clone(), &inner))
            .collect();
        *inner.sensors.lock() = sensors;
        Playback { inner }
    }

    /// The recording being played.
    pub fn recording(&self) -> &Recording {
        &self.inner.recording
    }

    /// Hold delivery; [`resume`](Self::resume) continues where it stopped.
    pub fn pause(&self) {
        self.inner.update(|c| {
            if c.status == PlaybackStatus::Playing {
                c.paused = true;
                c.status = PlaybackStatus::Paused;
            } else {
                c.paused = true;
            }
        });
    }

    /// Whether [`pause`](Self::pause) holds delivery (also before any
    /// sensor was started).
    pub fn is_paused(&self) -> bool {
        self.inner.control.lock().paused
    }

    /// Continue after [`pause`](Self::pause).
    pub fn resume(&self) {
        self.inner.update(|c| {
            c.paused = false;
            if c.status == PlaybackStatus::Paused {
                c.status = PlaybackStatus::Playing;
            }
        });
    }

    /// Continue from the first recorded event at or after `time` (since the
    /// start of the recording, as [`position`](Self::position)), through the
    /// index. Frames queued before the seek are discarded, and a callback
    /// running when it is called has returned when it returns (unless it is
    /// called from a callback). Seeking past the end is an error.
    pub fn seek(&self, time: Duration) -> Result<()> {
        let duration = self.duration();
        if time > duration {
            return Err(Error::InvalidArgument(format!(
                "cannot seek to {:.3} s: the recording lasts {:.3} s",
                time.as_secs_f64(),
                duration.as_secs_f64()
            )));
        }
        let target = self.inner.recording.start_time() + time.as_nanos() as u64;
        let generation = &self.inner.generation;
        // Under the control lock, so that the reader sees the new generation
        // and the seek together.
        self.inner.update(|c| {
            generation.fetch_add(1, Ordering::AcqRel);
            c.seek_to = Some(target);
            c.position = target;
        });
        // Let a callback that was running finish, so that nothing from
        // before the seek is delivered once this returns.
        let sensors = self.inner.sensors.lock().clone();
        for sensor in sensors {
            if let Some(dispatcher) = sensor.dispatcher.lock().as_ref() {
                dispatcher.flush_within(Some(Duration::from_secs(1)));
            }
        }
        Ok(())
    }

    /// Play at `speed` times the recorded pace (real time only).
    pub fn set_playback_speed(&self, speed: f64) -> Result<()> {
        if !(speed.is_finite() && speed > 0.0) {
            return Err(Error::InvalidArgument(format!(
                "playback speed must be positive, not {speed}"
            )));
        }
        self.inner.update(|c| c.speed = speed);
        Ok(())
    }

    /// The playback speed.
    pub fn playback_speed(&self) -> f64 {
        self.inner.control.lock().speed
    }

    /// Deliver at the recorded pace (`true`) or as fast as the callbacks
    /// take frames, never dropping one (`false`).
    pub fn set_real_time(&self, real_time: bool) {
        self.inner.update(|c| c.real_time = real_time);
    }

    /// Whether delivery follows the recorded pace.
    pub fn is_real_time(&self) -> bool {
        self.inner.control.lock().real_time
    }

    /// Start again from the beginning at the end of the file.
    pub fn set_repeat(&self, repeat: bool) {
        self.inner.update(|c| c.repeat = repeat);
    }

    /// Time of the last delivered event since the start of the recording.
    pub fn position(&self) -> Duration {
        let position = self.inner.control.lock().position;
        Duration::from_nanos(position.saturating_sub(self.inner.recording.start_time()))
    }

    /// Time from the first frame to the last.
    pub fn duration(&self) -> Duration {
        Duration::from_nanos(self.inner.recording.duration())
    }

    /// Playing, paused or stopped.
    pub fn status(&self) -> PlaybackStatus {
        self.inner.control.lock().status
    }

    /// Frames dropped in real time because a sensor's callback fell behind.
    pub fn dropped_frames(&self) -> u64 {
        self.inner.control.lock().dropped
    }

    /// Call `callback` whenever the status changes.
    pub fn add_status_listener(&self, callback: StatusCallback) {
        self.inner.status_listeners.lock().push(callback);
    }

    /// Stop every sensor; the next start plays from the beginning.
    pub fn stop(&self) {
        let sensors = self.inner.sensors.lock().clone();
        for sensor in sensors {
            let _ = sensor.stop();
        }
    }

    /// Block until the status is [`PlaybackStatus::Stopped`] or `timeout`
    /// passes; returns whether it stopped.
    pub fn wait_until_stopped(&self, timeout: Duration) -> bool {
        let deadline = Instant::now().checked_add(timeout);
        let mut control = self.inner.control.lock();
        while control.status != PlaybackStatus::Stopped {
            match deadline {
                Some(deadline) => {
                    if self
                        .inner
                        .wake
                        .wait_until(&mut control, deadline)
                        .timed_out()
                    {
                        return control.status == PlaybackStatus::Stopped;
                    }
                }
                None => self.inner.wake.wait(&mut control),
            }
        }
        true
    }
}

impl Drop for Playback {
    fn drop(&mut self) {
        self.stop();
    }
}

impl Device for Playback {
    fn info(&self) -> CameraInfo {
        self.inner.recording.snapshot().info.clone()
    }

    fn sensors(&self) -> Vec<Arc<dyn Sensor>> {
        self.inner
            .sensors
            .lock()
            .iter()
            .map(|s| s.clone() as Arc<dyn Sensor>)
            .collect()
    }

    fn extrinsics(&self, from: StreamId, to: StreamId) -> Option<Extrinsics> {
        self.inner.recording.extrinsics(from, to)
    }
}

impl Inner {
    /// Change the controls, wake the reader and dispatchers, and tell the
    /// status listeners if the status changed.
    fn update(&self, change: impl FnOnce(&mut Control)) {
        let (before, after) = {
            let mut control = self.control.lock();
            let before = control.status;
            change(&mut control);
            (before, control.status)
        };
        // Listeners hear of a new status before anyone waiting for it wakes.
        if before != after {
            self.announce(after);
        }
        self.wake.notify_all();
    }

    fn announce(&self, status: PlaybackStatus) {
        let listeners = self.status_listeners.lock().clone();
        for listener in listeners {
            listener(status);
        }
    }

    /// The streams of every started sensor.
    fn active_streams(&self) -> BTreeSet<StreamId> {
        self.sensors
            .lock()
            .iter()
            .filter(|s| s.dispatcher.lock().is_some())
            .flat_map(|s| s.opened.lock().iter().map(|p| p.stream).collect::<Vec<_>>())
            .collect()
    }

    /// Called by a dispatcher before each delivery: waits while paused.
    fn may_deliver(&self, generation: u64) -> bool {
        let mut control = self.control.lock();
        while control.paused && !control.stop_reader {
            if self.generation.load(Ordering::Acquire) != generation {
                return false;
            }
            self.wake.wait_for(&mut control, Duration::from_millis(50));
        }
        !control.stop_reader
    }

    /// A sensor started: play (from the start if nothing was playing).
    fn sensor_started(self: &Arc<Self>) -> Result<()> {
        let mut reader = self.reader.lock();
        let running = reader.as_ref().is_some_and(|h| !h.is_finished());
        if running {
            self.update(|c| c.streams_changed = true);
            return Ok(());
        }
        if let Some(finished) = reader.take() {
            let _ = finished.join();
        }
        let start = self.recording.start_time();
        self.update(|c| {
            c.stop_reader = false;
            c.streams_changed = false;
            // From the beginning, unless a seek came before the start.
            let from = c.seek_to.unwrap_or(start);
            c.seek_to = Some(from);
            c.position = from;
            c.status = if c.paused {
                PlaybackStatus::Paused
            } else {
                PlaybackStatus::Playing
            };
        });
        let inner = self.clone();
        let handle = std::thread::Builder::new()
            .name("rsbag-playback".into())
            .spawn(move || read_loop(&inner))
            .map_err(|e| {
                Error::InvalidArgument(format!("cannot start the playback thread: {e}"))
            })?;
        *reader = Some(handle);
        Ok(())
    }

    /// A sensor stopped: if none is left, stop the reader.
    fn sensor_stopped(&self) {
        if !self.active_streams().is_empty() {
            self.update(|c| c.streams_changed = true);
            return;
        }
        self.update(|c| {
            c.stop_reader = true;
            c.status = PlaybackStatus::Stopped;
        });
        let handle = self.reader.lock().take();
        if let Some(handle) = handle {
            if std::thread::current().id() != handle.thread().id() {
                let _ = handle.join();
            }
        }
    }
}

/// What the reader must do next, decided under the control lock.
enum Next {
    Exit,
    Read {
        seek: Option<u64>,
        streams_changed: bool,
        real_time: bool,
        speed: f64,
        /// The seek generation the events read next belong to.
        generation: u64,
    },
}

/// The reader thread: walk the recording and hand events to the sensors.
fn read_loop(inner: &Arc<Inner>) {
    let recording = inner.recording.clone();
    let mut events: Option<Events<'_>> = None;
    let mut resume_from = recording.start_time();
    // (wall clock, bag time) the real-time pace is measured from.
    let mut pace: Option<(Instant, u64)> = None;
    let mut pace_speed = 1.0;
    loop {
        let (real_time, speed, generation) = match next_step(inner) {
            Next::Exit => return,
            Next::Read {
                seek,
                streams_changed,
                real_time,
                speed,
                generation,
            } => {
                if let Some(target) = seek {
                    resume_from = target;
                }
                if seek.is_some() || streams_changed {
                    events = None;
                    pace = None;
                }
                (real_time, speed, generation)
            }
        };
        if speed != pace_speed || !real_time {
            pace = None;
            pace_speed = speed;
        }
        let cursor = events.get_or_insert_with(|| {
            let streams = inner.active_streams();
            recording
                .select(Some(&streams), true)
                .time(resume_from..)
                .events()
        });
        let event = match cursor.next() {
            Some(Ok(event)) => event,
            Some(Err(e)) => {
                tracing::error!("playback stopped: {e}");
                end_of_file(inner);
                return;
            }
            None => {
                if inner.control.lock().repeat {
                    resume_from = recording.start_time();
                    events = None;
                    pace = None;
                    continue;
                }
                end_of_file(inner);
                return;
            }
        };
        if real_time {
            let (wall, bag) = *pace.get_or_insert((Instant::now(), event.time));
            let due =
                wall + Duration::from_secs_f64(event.time.saturating_sub(bag) as f64 / 1e9 / speed);
            if !wait_until(inner, due) {
                // Interrupted by a control change: read this event again.
                resume_from = event.time;
                events = None;
                pace = None;
                continue;
            }
        }
        if deliver(inner, event.clone(), real_time, generation) {
            resume_from = event.time + 1;
            inner.control.lock().position = event.time;
        } else {
            resume_from = event.time;
            events = None;
            pace = None;
        }
    }
}

/// Wait for the controls to allow reading; report seeks and stream changes
/// made meanwhile (a seek while paused is applied when playing resumes).
fn next_step(inner: &Inner) -> Next {
    let mut control = inner.control.lock();
    let mut seek = None;
    let mut streams_changed = false;
    loop {
        if control.stop_reader {
            return Next::Exit;
        }
        seek = control.seek_to.take().or(seek);
        streams_changed |= std::mem::take(&mut control.streams_changed);
        if !control.paused {
            return Next::Read {
                seek,
                streams_changed,
                real_time: control.real_time,
                speed: control.speed,
                generation: inner.generation.load(Ordering::Acquire),
            };
        }
        inner.wake.wait(&mut control);
    }
}

/// Sleep until `due`; false if a control change (pause, seek, stop, speed,
/// streams) interrupted the wait.
fn wait_until(inner: &Inner, due: Instant) -> bool {
    let mut control = inner.control.lock();
    let speed = control.speed;
    loop {
        if control.stop_reader
            || control.paused
            || control.seek_to.is_some()
            || control.streams_changed
            || control.speed != speed
            || !control.real_time
        {
            return false;
        }
        if Instant::now() >= due || inner.wake.wait_until(&mut control, due).timed_out() {
            return true;
        }
    }
}

/// Hand one event to its sensor; false if a control change interrupted a
/// wait for queue room (the event is then read again).
fn deliver(inner: &Inner, event: TimedEvent, real_time: bool, generation: u64) -> bool {
    let sensors = inner.sensors.lock().clone();
    match event.event {
        Event::Frame { sensor, frame } => match sensors.get(sensor) {
            Some(sensor) => sensor.dispatch(inner, frame, real_time, generation),
            None => true,
        },
        Event::OptionChanged {
            sensor,
            name,
            value,
        } => {
            if let Some(sensor) = sensors.get(sensor) {
                sensor.option_changed(&name, value);
            }
            true
        }
        Event::Notification {
            sensor,
            notification,
        } => {
            if let Some(sensor) = sensors.get(sensor) {
                sensor.notify(&notification);
            }
            true
        }
    }
}

/// The file ended: deliver what is queued, then stop every sensor.
fn end_of_file(inner: &Arc<Inner>) {
    let sensors = inner.sensors.lock().clone();
    for sensor in &sensors {
        if let Some(dispatcher) = sensor.dispatcher.lock().as_ref() {
            dispatcher.flush();
        }
    }
    for sensor in &sensors {
        sensor.stop_dispatcher();
    }
    inner.update(|c| {
        c.stop_reader = true;
        c.status = PlaybackStatus::Stopped;
    });
}

/// A sensor of a [`Playback`]: the recorded sensor's info, options and
/// profiles, streaming what the file holds.
pub struct PlaybackSensor {
    index: usize,
    snapshot: SensorSnapshot,
    options: Mutex<Vec<SensorOption>>,
    option_listeners: Mutex<Vec<OptionCallback>>,
    notification_listeners: Mutex<Vec<NotificationCallback>>,
    opened: Mutex<Vec<StreamProfile>>,
    dispatcher: Mutex<Option<Dispatcher>>,
    playback: Weak<Inner>,
}

impl PlaybackSensor {
    fn new(index: usize, snapshot: SensorSnapshot, inner: &Arc<Inner>) -> Arc<PlaybackSensor> {
        Arc::new(PlaybackSensor {
            index,
            options: Mutex::new(snapshot.options.clone()),
            snapshot,
            option_listeners: Mutex::new(Vec::new()),
            notification_listeners: Mutex::new(Vec::new()),
            opened: Mutex::new(Vec::new()),
            dispatcher: Mutex::new(None),
            playback: Arc::downgrade(inner),
        })
    }

    fn playback(&self) -> Result<Arc<Inner>> {
        self.playback
            .upgrade()
            .ok_or_else(|| Error::InvalidArgument("the playback device was dropped".into()))
    }

    /// Queue a frame for the callback; false if interrupted (not real time).
    /// `generation` is the seek generation the frame was read in: a seek
    /// since then makes the dispatcher discard it.
    fn dispatch(&self, inner: &Inner, mut frame: Frame, real_time: bool, generation: u64) -> bool {
        let guard = self.dispatcher.lock();
        let Some(dispatcher) = guard.as_ref() else {
            return true;
        };
        let opened = self.opened.lock();
        let Some(profile) = opened.iter().find(|p| p.stream == frame.profile.stream) else {
            return true;
        };
        frame.profile = StreamProfile {
            kind: frame.profile.kind,
            ..*profile
        };
        drop(opened);
        let wait = if real_time {
            Duration::ZERO
        } else {
            Duration::from_millis(20)
        };
        loop {
            match dispatcher.push(frame, generation, wait) {
                Ok(()) => return true,
                Err(Refused::Closed) => return true,
                Err(Refused::Full(_)) if real_time => {
                    inner.control.lock().dropped += 1;
                    return true;
                }
                Err(Refused::Full(back)) => {
                    frame = *back;
                    let control = inner.control.lock();
                    if control.stop_reader
                        || control.seek_to.is_some()
                        || control.streams_changed
                        || inner.generation.load(Ordering::Acquire) != generation
                    {
                        return false;
                    }
                }
            }
        }
    }

    fn option_changed(&self, name: &str, value: f32) {
        {
            let mut options = self.options.lock();
            match options.iter_mut().find(|o| o.name == name) {
                Some(option) => option.value = value,
                None => options.push(SensorOption {
                    name: name.to_owned(),
                    value,
                    range: crate::device::OptionRange::fixed(value),
                    description: String::new(),
                    read_only: true,
                }),
            }
        }
        let listeners = self.option_listeners.lock().clone();
        for listener in listeners {
            listener(name, value);
        }
    }

    fn notify(&self, notification: &Notification) {
        let listeners = self.notification_listeners.lock().clone();
        for listener in listeners {
            listener(notification);
        }
    }

    fn stop_dispatcher(&self) -> bool {
        let dispatcher = self.dispatcher.lock().take();
        match dispatcher {
            Some(dispatcher) => {
                dispatcher.stop();
                true
            }
            None => false,
        }
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
        self.options.lock().clone()
    }

    fn set_option(&self, name: &str, _value: f32) -> Result<()> {
        Err(Error::InvalidArgument(format!(
            "option {name:?} of a recorded sensor is read-only"
        )))
    }

    fn add_option_listener(&self, callback: OptionCallback) {
        self.option_listeners.lock().push(callback);
    }

    fn add_notification_listener(&self, callback: NotificationCallback) {
        self.notification_listeners.lock().push(callback);
    }

    fn open(&self, profiles: &[StreamProfile]) -> Result<()> {
        if self.dispatcher.lock().is_some() {
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
        let inner = self.playback()?;
        if self.opened.lock().is_empty() {
            return Err(Error::InvalidArgument(format!(
                "sensor {:?} has no opened profiles; open some before start",
                self.name()
            )));
        }
        {
            let mut slot = self.dispatcher.lock();
            if slot.is_some() {
                return Err(Error::InvalidArgument(format!(
                    "sensor {:?} is already streaming",
                    self.name()
                )));
            }
            let weak = Arc::downgrade(&inner);
            let may_deliver = Arc::new(move |generation| {
                weak.upgrade().is_some_and(|i| i.may_deliver(generation))
            });
            let dispatcher = Dispatcher::start(
                format!("rsbag-sensor-{}", self.index),
                inner.options.queue_size,
                callback,
                inner.generation.clone(),
                may_deliver,
            )
            .map_err(|e| Error::InvalidArgument(format!("cannot start a delivery thread: {e}")))?;
            *slot = Some(dispatcher);
        }
        inner.sensor_started()
    }

    fn stop(&self) -> Result<()> {
        if self.stop_dispatcher() {
            if let Ok(inner) = self.playback() {
                inner.sensor_stopped();
            }
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
