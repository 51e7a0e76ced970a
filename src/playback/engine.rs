//! The moving parts of a [`super::Playback`]: its state under one lock, the
//! reader thread, and one delivery thread per started stream.
//!
//! The rules that keep it free of deadlocks:
//! - There is one lock, [`Shared::state`]. No thread holds it while user
//!   code runs (frame callbacks, option, notification and status
//!   listeners) or while it joins or waits for another thread; every wait
//!   is a condition-variable wait on that lock, which releases it.
//! - Every wait ends when a control changes: a stop removes the streams
//!   and ends the reader's run, and wakes every waiter.
//! - A thread of a playback (a callback or listener calling back into a
//!   playback) never waits for another playback thread: it cannot know
//!   that the other one is not waiting for it.

use std::cell::Cell;
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::thread::{JoinHandle, ThreadId};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use parking_lot::{Condvar, Mutex, MutexGuard};

use crate::device::{
    camera_info, Frame, FrameCallback, Notification, NotificationCallback, OptionCallback,
    OptionRange, SensorOption, SensorSnapshot, StreamId, StreamProfile,
};
use crate::recording::{Event, Events, Recording, TimedEvent};
use crate::{BagTime, Error, Result};

/// Read errors kept for [`super::Playback::take_read_errors`]; beyond this
/// they are only counted.
const KEPT_READ_ERRORS: usize = 64;

thread_local! {
    /// Whether this thread is a reader or delivery thread of a playback.
    static PLAYBACK_THREAD: Cell<bool> = const { Cell::new(false) };
}

/// Whether the calling thread belongs to a playback: then it must not wait
/// for other playback threads (they may be waiting for it).
pub(super) fn on_playback_thread() -> bool {
    PLAYBACK_THREAD.with(Cell::get)
}

/// Where a playback is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PlaybackStatus {
    /// Frames are being delivered.
    Playing,
    /// Delivery is held until [`Playback::resume`](super::Playback::resume).
    Paused,
    /// No sensor is streaming (never started, stopped, or end of file).
    Stopped,
}

/// Receives playback status changes.
pub type StatusCallback = Arc<dyn Fn(PlaybackStatus) + Send + Sync>;

/// How a playback delivers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlaybackOptions {
    /// Frames each stream's queue holds before the reader waits (not real
    /// time) or drops (real time) the next frame of that stream.
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

/// What a sensor of a playback hears as the recording plays: its options'
/// values so far, and the listeners of their changes and of notifications.
pub(super) struct SensorListeners {
    name: String,
    pub(super) options: Mutex<Vec<SensorOption>>,
    pub(super) on_option: Mutex<Vec<OptionCallback>>,
    pub(super) on_notification: Mutex<Vec<NotificationCallback>>,
}

impl SensorListeners {
    pub(super) fn new(snapshot: &SensorSnapshot) -> Arc<SensorListeners> {
        Arc::new(SensorListeners {
            name: snapshot
                .info
                .get(camera_info::NAME)
                .unwrap_or_default()
                .to_owned(),
            options: Mutex::new(snapshot.options.clone()),
            on_option: Mutex::new(Vec::new()),
            on_notification: Mutex::new(Vec::new()),
        })
    }

    /// A recorded option change: keep the value, tell the listeners.
    fn option_changed(&self, name: &str, value: f32) {
        {
            let mut options = self.options.lock();
            match options.iter_mut().find(|o| o.name == name) {
                Some(option) => option.value = value,
                None => options.push(SensorOption {
                    name: name.to_owned(),
                    value,
                    range: OptionRange::fixed(value),
                    description: String::new(),
                    read_only: true,
                }),
            }
        }
        let listeners = self.on_option.lock().clone();
        for listener in listeners {
            guarded("an option listener", || listener(name, value));
        }
    }

    /// Tell the notification listeners.
    fn notify(&self, notification: &Notification) {
        let listeners = self.on_notification.lock().clone();
        for listener in listeners {
            guarded("a notification listener", || listener(notification));
        }
    }
}

/// What a playback shares between the caller's threads, the reader and the
/// delivery threads.
pub(super) struct Shared {
    pub(super) recording: Arc<Recording>,
    pub(super) options: PlaybackOptions,
    pub(super) state: Mutex<State>,
    /// Wakes the reader: room in a queue, a callback returned, a control
    /// changed.
    reader_wake: Condvar,
    /// Wakes callers waiting for callbacks to return or for the status.
    settled: Condvar,
    sensors: Vec<Arc<SensorListeners>>,
    pub(super) status_listeners: Mutex<Vec<StatusCallback>>,
}

/// The controls and the streaming state.
pub(super) struct State {
    pub(super) status: PlaybackStatus,
    pub(super) paused: bool,
    pub(super) speed: f64,
    pub(super) real_time: bool,
    pub(super) repeat: bool,
    /// A seek the reader has not taken yet.
    pub(super) seek_to: Option<BagTime>,
    /// Bumped by every seek: frames read before it are not delivered.
    pub(super) generation: u64,
    /// The started streams changed since the reader built its query.
    streams_changed: bool,
    /// Bag time of the last event handed on.
    pub(super) position: BagTime,
    /// Frames dropped in real time because a queue was full.
    pub(super) dropped: u64,
    /// Damaged parts of the file the reader skipped.
    pub(super) read_errors: u64,
    pub(super) kept_errors: Vec<Error>,
    /// The started streams.
    lanes: BTreeMap<StreamId, Lane>,
    /// Callbacks running now: lane id → generation of their frame.
    running: BTreeMap<u64, u64>,
    /// The reader run that should be going; 0 when none.
    run: u64,
    /// Source of lane and run ids.
    last_id: u64,
    reader: Option<JoinHandle<()>>,
    /// Threads that ended or are ending, to be joined by a caller that may
    /// wait (one not on a playback thread).
    retired: Vec<JoinHandle<()>>,
    /// Status changes not yet told to the listeners, in order.
    announcements: VecDeque<PlaybackStatus>,
    /// The thread telling the listeners, if one is.
    announcer: Option<ThreadId>,
}

/// A started stream: its callback, queue and delivery thread.
struct Lane {
    id: u64,
    sensor: usize,
    profile: StreamProfile,
    callback: FrameCallback,
    /// Frames with the seek generation they were read in.
    queue: VecDeque<(u64, Frame)>,
    wake: Arc<Condvar>,
    thread: Option<JoinHandle<()>>,
}

impl State {
    pub(super) fn new(options: &PlaybackOptions) -> State {
        State {
            status: PlaybackStatus::Stopped,
            paused: false,
            speed: 1.0,
            real_time: options.real_time,
            repeat: false,
            seek_to: None,
            generation: 0,
            streams_changed: false,
            position: BagTime::ZERO,
            dropped: 0,
            read_errors: 0,
            kept_errors: Vec::new(),
            lanes: BTreeMap::new(),
            running: BTreeMap::new(),
            run: 0,
            last_id: 0,
            reader: None,
            retired: Vec::new(),
            announcements: VecDeque::new(),
            announcer: None,
        }
    }

    /// Change the status; listeners hear of it in order.
    pub(super) fn set_status(&mut self, status: PlaybackStatus) {
        if self.status != status {
            self.status = status;
            self.announcements.push_back(status);
        }
    }

    fn next_id(&mut self) -> u64 {
        self.last_id += 1;
        self.last_id
    }

    /// Whether sensor `sensor` has started streams.
    pub(super) fn is_streaming(&self, sensor: usize) -> bool {
        self.lanes.values().any(|l| l.sensor == sensor)
    }

    /// Whether a callback of a frame read before the latest seek runs.
    fn stale_callback_running(&self) -> bool {
        self.running.values().any(|&g| g != self.generation)
    }

    /// Drop queued frames (after a seek).
    fn clear_queues(&mut self) {
        for lane in self.lanes.values_mut() {
            lane.queue.clear();
        }
    }
}

impl Shared {
    pub(super) fn new(
        recording: Recording,
        options: PlaybackOptions,
        sensors: Vec<Arc<SensorListeners>>,
    ) -> Shared {
        Shared {
            recording: Arc::new(recording),
            state: Mutex::new(State::new(&options)),
            options,
            reader_wake: Condvar::new(),
            settled: Condvar::new(),
            sensors,
            status_listeners: Mutex::new(Vec::new()),
        }
    }

    /// Change the controls, wake every thread that waits on them, and tell
    /// the status listeners of a new status.
    pub(super) fn control<T>(&self, change: impl FnOnce(&mut State) -> T) -> T {
        let result = {
            let mut state = self.state.lock();
            let result = change(&mut state);
            self.wake_all(&state);
            result
        };
        self.announce();
        result
    }

    fn wake_all(&self, state: &State) {
        self.reader_wake.notify_all();
        self.settled.notify_all();
        for lane in state.lanes.values() {
            lane.wake.notify_all();
        }
    }

    /// Tell the status listeners of every status change not yet told, in
    /// order, without holding the state lock. One thread at a time tells
    /// them; a thread that finds another doing it leaves it the work.
    pub(super) fn announce(&self) {
        let mut state = self.state.lock();
        if state.announcer.is_some() || state.announcements.is_empty() {
            return;
        }
        state.announcer = Some(std::thread::current().id());
        while let Some(status) = state.announcements.pop_front() {
            let listeners = self.status_listeners.lock().clone();
            MutexGuard::unlocked(&mut state, || {
                for listener in listeners {
                    guarded("a status listener", || listener(status));
                }
            });
        }
        state.announcer = None;
        self.settled.notify_all();
    }

    /// Wait until `done` holds, up to `deadline`; false if it did not.
    pub(super) fn wait_settled(
        &self,
        state: &mut MutexGuard<'_, State>,
        deadline: Option<Instant>,
        done: impl Fn(&State) -> bool,
    ) -> bool {
        while !done(state) {
            match deadline {
                Some(deadline) => {
                    if self.settled.wait_until(state, deadline).timed_out() {
                        return done(state);
                    }
                }
                None => self.settled.wait(state),
            }
        }
        true
    }

    /// Whether the status is `Stopped` and every listener heard so (or the
    /// caller is the one telling them).
    pub(super) fn stopped_and_told(state: &State) -> bool {
        let told = match state.announcer {
            None => state.announcements.is_empty(),
            Some(id) => id == std::thread::current().id(),
        };
        state.status == PlaybackStatus::Stopped && told
    }

    /// Seek: frames read before are discarded; unless called on a playback
    /// thread, returns once no callback of such a frame runs.
    pub(super) fn seek(&self, target: BagTime) {
        self.control(|state| {
            state.generation += 1;
            state.seek_to = Some(target);
            state.position = target;
            state.clear_queues();
        });
        if !on_playback_thread() {
            let mut state = self.state.lock();
            self.wait_settled(&mut state, None, |s| !s.stale_callback_running());
        }
    }

    /// Start the streams `profiles` of sensor `sensor` with `callback`;
    /// start reading if nothing was playing.
    pub(super) fn start_streams(
        self: &Arc<Self>,
        sensor: usize,
        profiles: &[StreamProfile],
        callback: FrameCallback,
    ) -> Result<()> {
        let mut state = self.state.lock();
        if state.is_streaming(sensor) {
            return Err(Error::InvalidArgument(format!(
                "sensor {:?} is already streaming",
                self.sensors[sensor].name
            )));
        }
        reap_finished(&mut state.retired);
        let mut started = Vec::new();
        for &profile in profiles {
            match self.start_lane(&mut state, sensor, profile, callback.clone()) {
                Ok(()) => started.push(profile.stream),
                Err(e) => {
                    for stream in started {
                        if let Some(lane) = state.lanes.remove(&stream) {
                            retire(&mut state, lane);
                        }
                    }
                    return Err(e);
                }
            }
        }
        if state.run == 0 {
            if let Err(e) = self.start_reader(&mut state) {
                let lanes: Vec<Lane> = std::mem::take(&mut state.lanes).into_values().collect();
                for lane in lanes {
                    retire(&mut state, lane);
                }
                return Err(e);
            }
        } else {
            state.streams_changed = true;
        }
        self.wake_all(&state);
        drop(state);
        self.announce();
        Ok(())
    }

    fn start_lane(
        self: &Arc<Self>,
        state: &mut State,
        sensor: usize,
        profile: StreamProfile,
        callback: FrameCallback,
    ) -> Result<()> {
        let id = state.next_id();
        let wake = Arc::new(Condvar::new());
        let shared = self.clone();
        let stream = profile.stream;
        let lane_wake = wake.clone();
        let thread = std::thread::Builder::new()
            .name(format!("rsbag-stream-{sensor}"))
            .spawn(move || deliver_loop(&shared, stream, id, &lane_wake))
            .map_err(|e| Error::Thread(format!("cannot start a delivery thread: {e}")))?;
        state.lanes.insert(
            stream,
            Lane {
                id,
                sensor,
                profile,
                callback,
                queue: VecDeque::with_capacity(self.options.queue_size.max(1)),
                wake,
                thread: Some(thread),
            },
        );
        Ok(())
    }

    /// Start a reader run from the beginning, or from a seek made before.
    fn start_reader(self: &Arc<Self>, state: &mut State) -> Result<()> {
        let run = state.next_id();
        let shared = self.clone();
        let reader = std::thread::Builder::new()
            .name("rsbag-playback".into())
            .spawn(move || read_loop(&shared, run))
            .map_err(|e| Error::Thread(format!("cannot start the playback thread: {e}")))?;
        if let Some(old) = state.reader.replace(reader) {
            state.retired.push(old);
        }
        state.run = run;
        let from = state.seek_to.unwrap_or(self.recording.start_time());
        state.seek_to = Some(from);
        state.position = from;
        state.streams_changed = false;
        let status = if state.paused {
            PlaybackStatus::Paused
        } else {
            PlaybackStatus::Playing
        };
        state.set_status(status);
        Ok(())
    }

    /// Stop the streams of `sensor` (every sensor's if `None`). Unless
    /// called on a playback thread, returns once none of their callbacks
    /// runs and their threads (and the reader, if nothing streams any
    /// more) have ended. Returns whether any stream was streaming.
    pub(super) fn stop_streams(&self, sensor: Option<usize>) -> bool {
        let may_wait = !on_playback_thread();
        let mut state = self.state.lock();
        let stopping: Vec<StreamId> = state
            .lanes
            .iter()
            .filter(|(_, l)| sensor.is_none_or(|s| l.sensor == s))
            .map(|(&stream, _)| stream)
            .collect();
        let mut ids = BTreeSet::new();
        for stream in &stopping {
            if let Some(lane) = state.lanes.remove(stream) {
                ids.insert(lane.id);
                lane.wake.notify_all();
                retire(&mut state, lane);
            }
        }
        if !stopping.is_empty() {
            if state.lanes.is_empty() {
                end_run(&mut state);
            } else {
                state.streams_changed = true;
            }
        }
        self.wake_all(&state);
        drop(state);
        // Listeners hear of the stop first: a callback may be waiting for
        // it (`wait_until_stopped`) while this waits for the callback.
        self.announce();
        if may_wait {
            let mut state = self.state.lock();
            self.wait_settled(&mut state, None, |s| {
                !s.running.keys().any(|id| ids.contains(id))
            });
            let threads = std::mem::take(&mut state.retired);
            drop(state);
            for thread in threads {
                let _ = thread.join();
            }
        }
        !stopping.is_empty()
    }

    /// Record a damaged part of the file the reader skipped, and tell the
    /// sensors' notification listeners.
    fn report_read_error(&self, error: Error) {
        let error = match self.recording.storage().path() {
            Some(path) => error.in_file(path),
            None => error,
        };
        tracing::warn!("playback skipped what could not be read: {error}");
        let notification = Notification {
            category: "Unknown Error".into(),
            severity: "Error".into(),
            description: format!("playback skipped what could not be read: {error}"),
            timestamp: SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0.0, |d| d.as_secs_f64() * 1e3),
            serialized_data: String::new(),
        };
        {
            let mut state = self.state.lock();
            state.read_errors += 1;
            if state.kept_errors.len() < KEPT_READ_ERRORS {
                state.kept_errors.push(error);
            }
        }
        for sensor in &self.sensors {
            sensor.notify(&notification);
        }
    }
}

/// Run a user callback; a panic in it is reported, not spread into the
/// playback's threads.
pub(super) fn guarded(what: &str, call: impl FnOnce()) {
    if std::panic::catch_unwind(AssertUnwindSafe(call)).is_err() {
        tracing::error!("{what} panicked; playback goes on");
    }
}

/// Hand a removed lane's thread to whoever joins threads next.
fn retire(state: &mut State, mut lane: Lane) {
    lane.wake.notify_all();
    if let Some(thread) = lane.thread.take() {
        state.retired.push(thread);
    }
}

/// Join the threads that have ended (without waiting for any).
fn reap_finished(retired: &mut Vec<JoinHandle<()>>) {
    let (ended, going): (Vec<_>, Vec<_>) = retired.drain(..).partition(|t| t.is_finished());
    *retired = going;
    for thread in ended {
        let _ = thread.join();
    }
}

/// No stream is left: the reader's run ends and the next start plays from
/// the beginning.
fn end_run(state: &mut State) {
    state.run = 0;
    state.seek_to = None;
    state.streams_changed = false;
    if let Some(reader) = state.reader.take() {
        state.retired.push(reader);
    }
    state.set_status(PlaybackStatus::Stopped);
}

/// The delivery thread of one stream: hands its queued frames to the
/// callback, one at a time, while not paused, until the lane is removed.
fn deliver_loop(shared: &Shared, stream: StreamId, id: u64, wake: &Condvar) {
    PLAYBACK_THREAD.with(|t| t.set(true));
    let mut state = shared.state.lock();
    loop {
        let paused = state.paused;
        let generation = state.generation;
        let Some(lane) = state.lanes.get_mut(&stream).filter(|l| l.id == id) else {
            return;
        };
        let next = if paused { None } else { lane.queue.pop_front() };
        let Some((frame_generation, frame)) = next else {
            wake.wait(&mut state);
            continue;
        };
        let callback = lane.callback.clone();
        // Room in the queue.
        shared.reader_wake.notify_all();
        if frame_generation != generation {
            continue;
        }
        state.running.insert(id, generation);
        MutexGuard::unlocked(&mut state, || {
            guarded("a frame callback", || callback(frame));
        });
        state.running.remove(&id);
        shared.settled.notify_all();
        shared.reader_wake.notify_all();
    }
}

/// What the reader may do next, read from the controls.
struct Turn {
    seek: Option<BagTime>,
    streams_changed: bool,
    real_time: bool,
    speed: f64,
    repeat: bool,
    generation: u64,
}

/// How handing on an event went.
enum Handed {
    /// Delivered, queued, dropped by rule, or not wanted any more.
    Done,
    /// A control changed first: try it again on the next turn.
    Interrupted(TimedEvent),
}

/// The reader's place in the recording.
struct Cursor<'r> {
    events: Option<Events<'r>>,
    /// Where to read from when the query is built again.
    resume_from: BagTime,
    /// An event read but not handed on yet.
    pending: Option<TimedEvent>,
    /// (wall clock, bag time) the real-time pace is measured from.
    pace: Option<(Instant, BagTime)>,
    pace_speed: f64,
}

impl Cursor<'_> {
    fn restart_from(&mut self, time: BagTime) {
        self.events = None;
        self.pending = None;
        self.pace = None;
        self.resume_from = time;
    }
}

/// The reader thread of run `run`: walks the recording and hands events on,
/// until its run ends.
fn read_loop(shared: &Shared, run: u64) {
    PLAYBACK_THREAD.with(|t| t.set(true));
    let recording = &*shared.recording;
    let mut cursor = Cursor {
        events: None,
        resume_from: recording.start_time(),
        pending: None,
        pace: None,
        pace_speed: 1.0,
    };
    loop {
        let Some(turn) = wait_for_turn(shared, run) else {
            return;
        };
        if let Some(target) = turn.seek {
            cursor.restart_from(target);
        }
        if turn.streams_changed {
            cursor.events = None;
            cursor.pace = None;
        }
        if turn.speed != cursor.pace_speed || !turn.real_time {
            cursor.pace = None;
            cursor.pace_speed = turn.speed;
        }
        let event = match cursor.pending.take() {
            Some(event) => event,
            None => {
                let events = cursor.events.get_or_insert_with(|| {
                    // Collected first: the state lock is not held while
                    // the query starts reading.
                    let streams: Vec<StreamId> =
                        shared.state.lock().lanes.keys().copied().collect();
                    recording
                        .select()
                        .streams(streams)
                        .time(cursor.resume_from..)
                        .events()
                });
                match events.next() {
                    Some(Ok(event)) => event,
                    Some(Err(e)) => {
                        shared.report_read_error(e);
                        continue;
                    }
                    None if turn.repeat => {
                        cursor.restart_from(recording.start_time());
                        continue;
                    }
                    None => {
                        if end_of_file(shared, run) {
                            return;
                        }
                        continue;
                    }
                }
            }
        };
        cursor.resume_from = event.time + Duration::from_nanos(1);
        if turn.real_time {
            let (wall, bag) = *cursor.pace.get_or_insert((Instant::now(), event.time));
            let behind = (event.time - bag).as_secs_f64() / turn.speed;
            let due = wall + Duration::from_secs_f64(behind);
            if !wait_until_due(shared, run, &turn, due) {
                cursor.pending = Some(event);
                continue;
            }
        }
        if let Handed::Interrupted(event) = hand_on(shared, run, &turn, event) {
            cursor.pending = Some(event);
            cursor.pace = None;
        }
    }
}

/// Wait until the controls let the reader read; `None` when its run ended.
fn wait_for_turn(shared: &Shared, run: u64) -> Option<Turn> {
    let mut state = shared.state.lock();
    loop {
        if state.run != run {
            return None;
        }
        if !state.paused {
            return Some(Turn {
                seek: state.seek_to.take(),
                streams_changed: std::mem::take(&mut state.streams_changed),
                real_time: state.real_time,
                speed: state.speed,
                repeat: state.repeat,
                generation: state.generation,
            });
        }
        shared.reader_wake.wait(&mut state);
    }
}

/// Sleep until `due`; false if a control change (pause, seek, stop, speed,
/// streams, real time) came first.
fn wait_until_due(shared: &Shared, run: u64, turn: &Turn, due: Instant) -> bool {
    let mut state = shared.state.lock();
    loop {
        if state.run != run
            || state.paused
            || state.seek_to.is_some()
            || state.streams_changed
            || state.speed != turn.speed
            || !state.real_time
        {
            return false;
        }
        if Instant::now() >= due || shared.reader_wake.wait_until(&mut state, due).timed_out() {
            return true;
        }
    }
}

/// Hand one event on: a frame to its stream's queue, an option change or a
/// notification to the sensor's listeners.
fn hand_on(shared: &Shared, run: u64, turn: &Turn, event: TimedEvent) -> Handed {
    let time = event.time;
    match event.event {
        Event::Frame { sensor, frame } => queue_frame(shared, run, turn, time, sensor, frame),
        Event::OptionChanged {
            sensor,
            ref name,
            value,
        } => {
            if !moved_on(shared, turn, time) {
                if let Some(sensor) = shared.sensors.get(sensor) {
                    sensor.option_changed(name, value);
                }
            }
            Handed::Done
        }
        Event::Notification {
            sensor,
            ref notification,
        } => {
            if !moved_on(shared, turn, time) {
                if let Some(sensor) = shared.sensors.get(sensor) {
                    sensor.notify(notification);
                }
            }
            Handed::Done
        }
    }
}

/// Record `time` as the position unless a seek came first (then the event
/// is not handed on).
fn moved_on(shared: &Shared, turn: &Turn, time: BagTime) -> bool {
    let mut state = shared.state.lock();
    if state.generation != turn.generation {
        return true;
    }
    state.position = time;
    false
}

/// Queue a frame for its stream's callback. In real time a full queue
/// drops the frame; otherwise the reader waits for room.
fn queue_frame(
    shared: &Shared,
    run: u64,
    turn: &Turn,
    time: BagTime,
    sensor: usize,
    mut frame: Frame,
) -> Handed {
    let mut state = shared.state.lock();
    let capacity = shared.options.queue_size.max(1);
    loop {
        if state.run != run {
            return Handed::Done;
        }
        if state.generation != turn.generation || state.seek_to.is_some() {
            return Handed::Interrupted(TimedEvent {
                time,
                event: Event::Frame { sensor, frame },
            });
        }
        let real_time = state.real_time;
        let generation = state.generation;
        let Some(lane) = state.lanes.get_mut(&frame.profile.stream) else {
            return Handed::Done;
        };
        if lane.queue.len() < capacity {
            frame.profile = StreamProfile {
                kind: frame.profile.kind,
                ..lane.profile
            };
            lane.queue.push_back((generation, frame));
            lane.wake.notify_one();
            state.position = time;
            return Handed::Done;
        }
        if real_time {
            state.dropped += 1;
            state.position = time;
            return Handed::Done;
        }
        shared.reader_wake.wait(&mut state);
    }
}

/// The file ended: let the queues drain, then stop every stream. False if
/// reading must go on instead (a seek, a new stream, repeat turned on).
fn end_of_file(shared: &Shared, run: u64) -> bool {
    let mut state = shared.state.lock();
    loop {
        if state.run != run {
            return true;
        }
        if state.seek_to.is_some() || state.streams_changed || state.repeat {
            return false;
        }
        let lane_ids: BTreeSet<u64> = state.lanes.values().map(|l| l.id).collect();
        let busy = state.lanes.values().any(|l| !l.queue.is_empty())
            || state.running.keys().any(|id| lane_ids.contains(id));
        if !busy {
            break;
        }
        shared.reader_wake.wait(&mut state);
    }
    let lanes: Vec<Lane> = std::mem::take(&mut state.lanes).into_values().collect();
    for lane in lanes {
        retire(&mut state, lane);
    }
    end_run(&mut state);
    shared.wake_all(&state);
    drop(state);
    shared.announce();
    true
}
