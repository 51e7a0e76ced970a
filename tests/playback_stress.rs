//! The playback device under a storm of controls from many threads, from
//! inside frame callbacks and from status listeners, and each deadlock the
//! reliability review found, on its own.
//!
//! Every call runs under a watchdog: one that takes longer than
//! [`WATCHDOG`] fails the test as a deadlock. Nothing here measures speed;
//! the assertions are about what happens, not how fast.
//!
//! `RSBAG_STRESS_SEEDS=N` runs the storm with N seeds (default 6: half in
//! real time, half not).

mod common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Weak};
use std::thread::ThreadId;
use std::time::{Duration, Instant};

use common::rs;
use parking_lot::Mutex;
use rsbag::device::{Device, Frame, FrameCallback, Sensor};
use rsbag::playback::{Playback, PlaybackOptions, PlaybackStatus};
use rsbag::storage::bag::Compression;

/// A call that takes longer than this is taken for a deadlock.
const WATCHDOG: Duration = Duration::from_secs(20);

/// The tests of this file count the process's threads: one at a time.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// Calls in progress, per thread, with when they began.
#[derive(Default)]
struct Watchdog {
    calls: Mutex<HashMap<ThreadId, (Instant, &'static str)>>,
}

impl Watchdog {
    fn call<T>(&self, what: &'static str, f: impl FnOnce() -> T) -> T {
        let me = std::thread::current().id();
        let outer = self.calls.lock().insert(me, (Instant::now(), what));
        let result = f();
        let mut calls = self.calls.lock();
        match outer {
            Some(outer) => calls.insert(me, outer),
            None => calls.remove(&me),
        };
        result
    }

    /// The oldest call, if it has run past the limit.
    fn overdue(&self) -> Option<String> {
        let calls = self.calls.lock();
        calls
            .values()
            .filter(|(since, _)| since.elapsed() > WATCHDOG)
            .map(|(since, what)| format!("{what} has not returned after {:?}", since.elapsed()))
            .next()
    }

    /// Run `work` on its own thread; fail the test if it or any watched call
    /// hangs.
    fn guard(self: &Arc<Self>, name: &str, work: impl FnOnce() + Send + 'static) {
        let (done_tx, done) = crossbeam_channel::bounded::<()>(1);
        let worker = std::thread::Builder::new()
            .name(format!("stress-{name}"))
            .spawn(move || {
                work();
                let _ = done_tx.send(());
            })
            .expect("spawn the test's worker");
        let started = Instant::now();
        loop {
            match done.recv_timeout(Duration::from_millis(100)) {
                Ok(()) => break,
                Err(crossbeam_channel::RecvTimeoutError::Disconnected) => {
                    // The worker panicked: report its panic.
                    if let Err(panic) = worker.join() {
                        std::panic::resume_unwind(panic);
                    }
                    return;
                }
                Err(crossbeam_channel::RecvTimeoutError::Timeout) => {
                    if let Some(hang) = self.overdue() {
                        panic!("{name}: deadlock: {hang}");
                    }
                    assert!(
                        started.elapsed() < WATCHDOG * 10,
                        "{name}: still running after {:?}",
                        started.elapsed()
                    );
                }
            }
        }
        worker.join().expect("the test's worker");
    }
}

/// The threads of the process whose names start with `prefix`.
fn threads_named(prefix: &str) -> usize {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return 0;
    };
    tasks
        .filter_map(|t| t.ok())
        .filter_map(|t| std::fs::read_to_string(t.path().join("comm")).ok())
        .filter(|name| name.starts_with(prefix))
        .count()
}

/// Whether at most `limit` threads named `prefix…` are left, waiting
/// (bounded) for the kernel: a joined thread's entry can outlive the join
/// by a moment.
fn at_most_threads_named(prefix: &str, limit: usize) -> bool {
    let until = Instant::now() + Duration::from_secs(5);
    while threads_named(prefix) > limit && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(1));
    }
    threads_named(prefix) <= limit
}

/// The threads of rsbag and of these tests (the test harness starts and
/// ends threads of its own at any time: they are not counted).
fn thread_count() -> usize {
    thread_names()
        .iter()
        .filter(|name| name.starts_with("rsbag-") || name.starts_with("stress-"))
        .count()
}

/// Wait (bounded) for the thread count to come back to `baseline`: the
/// playback's own threads are joined by `stop`, the file reader's
/// decompression threads (`rsbag-decompress`) end on their own right
/// after.
fn assert_threads_back_to(baseline: usize) {
    assert!(
        at_most_threads_named("rsbag-stream", 0),
        "delivery threads left"
    );
    assert!(
        at_most_threads_named("rsbag-playback", 0),
        "reader threads left"
    );
    let until = Instant::now() + Duration::from_secs(10);
    while thread_count() > baseline && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(
        thread_count(),
        baseline,
        "threads left after the playback ended: {:?}",
        thread_names()
    );
}

fn thread_names() -> Vec<String> {
    std::fs::read_dir("/proc/self/task")
        .map(|tasks| {
            tasks
                .filter_map(|t| t.ok())
                .filter_map(|t| std::fs::read_to_string(t.path().join("comm")).ok())
                .map(|name| name.trim().to_owned())
                .collect()
        })
        .unwrap_or_default()
}

fn small_bag(dir: &Path) -> PathBuf {
    let path = dir.join("rec.bag");
    rs::write(&path, 60, Compression::Lz4);
    path
}

/// The synthetic camera's recording: sensors with several streams (depth
/// and two infrared; accel and gyro).
fn multi_stream_bag() -> PathBuf {
    common::sample("rsbag-synthetic-lz4.bag")
}

fn playback(path: &Path, real_time: bool, queue_size: usize) -> Playback {
    let options = PlaybackOptions {
        real_time,
        queue_size,
    };
    Playback::with_options(path, options).expect("open the playback")
}

/// Open every profile of `sensor` and start it with `callback`.
fn start(sensor: &Arc<dyn Sensor>, callback: FrameCallback) -> rsbag::Result<()> {
    sensor.open(&sensor.profiles())?;
    sensor.start(callback)
}

/// Start every sensor while paused, then resume; frames are counted.
fn start_all_counting(playback: &Playback) -> Arc<AtomicUsize> {
    let count = Arc::new(AtomicUsize::new(0));
    playback.pause();
    for sensor in playback.sensors() {
        let count = count.clone();
        start(
            &sensor,
            Arc::new(move |_| {
                count.fetch_add(1, Ordering::SeqCst);
            }),
        )
        .expect("start");
    }
    playback.resume();
    count
}

/// Wait (bounded) until `count` reaches `n`.
fn wait_for(count: &AtomicUsize, n: usize) {
    let until = Instant::now() + WATCHDOG;
    while count.load(Ordering::SeqCst) < n {
        assert!(Instant::now() < until, "frames stopped coming");
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Run one scenario on the small recording, alone, under the watchdog,
/// and check that the playback's threads are gone afterwards.
fn scenario(name: &str, work: impl FnOnce(PathBuf, Arc<Watchdog>) + Send + 'static) {
    let _one = ONE_AT_A_TIME.lock();
    let dir = tempfile::tempdir().expect("tempdir");
    let path = small_bag(dir.path());
    let baseline = thread_count();
    let watchdog = Arc::new(Watchdog::default());
    let w = watchdog.clone();
    watchdog.guard(name, move || work(path, w));
    assert_threads_back_to(baseline);
}

#[test]
fn stop_or_drop_while_paused_returns() {
    scenario("stop while paused", |path, w| {
        for real_time in [false, true] {
            for drop_it in [false, true] {
                let playback = playback(&path, real_time, 2);
                let count = start_all_counting(&playback);
                wait_for(&count, 3);
                playback.pause();
                if drop_it {
                    w.call("drop while paused", || drop(playback));
                } else {
                    w.call("stop while paused", || playback.stop());
                    assert_eq!(playback.status(), PlaybackStatus::Stopped);
                }
            }
        }
    });
}

#[test]
fn stopping_the_last_sensor_while_another_starts_leaves_one_reader() {
    scenario("stop/start race", |path, w| {
        let playback = Arc::new(playback(&path, false, 2));
        playback.set_repeat(true);
        let sensors = playback.sensors();
        let callback: FrameCallback = Arc::new(|_| std::thread::sleep(Duration::from_micros(50)));
        for round in 0..200 {
            let (a, b) = if round % 2 == 0 { (0, 1) } else { (1, 0) };
            start(&sensors[a], callback.clone()).expect("start");
            let stopper = {
                let (sensor, w) = (sensors[a].clone(), w.clone());
                std::thread::spawn(move || w.call("sensor stop", || sensor.stop()))
            };
            let starter = {
                let (sensor, w, cb) = (sensors[b].clone(), w.clone(), callback.clone());
                std::thread::spawn(move || w.call("sensor start", || start(&sensor, cb)))
            };
            stopper.join().expect("stopper").expect("stop");
            starter.join().expect("starter").expect("start");
            assert!(
                at_most_threads_named("rsbag-playback", 1),
                "round {round}: more than one reader thread"
            );
            w.call("stop", || playback.stop());
            assert!(
                at_most_threads_named("rsbag-playback", 0),
                "round {round}: a reader thread outlived stop"
            );
        }
    });
}

#[test]
fn seek_and_stop_from_inside_a_callback_with_full_queues() {
    scenario("controls from a callback", |path, w| {
        // A queue of one and a slow callback: the reader waits for room
        // while the callback seeks and, later, stops. One stream, so that
        // no other callback can be under way when the stop returns.
        let playback = Arc::new(playback(&path, false, 1));
        let handle = Arc::downgrade(&playback);
        let seeks = Arc::new(AtomicUsize::new(0));
        let after_stop = Arc::new(AtomicUsize::new(0));
        let stopped = Arc::new(AtomicBool::new(false));
        playback.pause();
        for sensor in playback.sensors().into_iter().take(1) {
            let (handle, seeks, w) = (handle.clone(), seeks.clone(), w.clone());
            let (stopped, after_stop) = (stopped.clone(), after_stop.clone());
            start(
                &sensor,
                Arc::new(move |frame: Frame| {
                    if stopped.load(Ordering::SeqCst) {
                        after_stop.fetch_add(1, Ordering::SeqCst);
                    }
                    std::thread::sleep(Duration::from_millis(1));
                    let Some(playback) = handle.upgrade() else {
                        return;
                    };
                    if frame.number == 40 && seeks.fetch_add(1, Ordering::SeqCst) < 3 {
                        w.call("seek in a callback", || {
                            playback.seek(Duration::from_millis(100)).expect("seek")
                        });
                    } else if frame.number == 50 {
                        w.call("stop in a callback", || playback.stop());
                        stopped.store(true, Ordering::SeqCst);
                    }
                }),
            )
            .expect("start");
        }
        playback.resume();
        assert!(w.call("wait", || playback.wait_until_stopped(WATCHDOG)));
        assert!(seeks.load(Ordering::SeqCst) >= 3, "the seeks happened");
        assert_eq!(
            after_stop.load(Ordering::SeqCst),
            0,
            "a frame was delivered after stop returned"
        );
        w.call("stop", || playback.stop());
    });
}

#[test]
fn a_status_listener_may_stop_and_start() {
    scenario("controls from a status listener", |path, w| {
        let playback = Arc::new(playback(&path, false, 4));
        let handle = Arc::downgrade(&playback);
        let heard = Arc::new(Mutex::new(Vec::new()));
        let restarts = Arc::new(AtomicUsize::new(0));
        {
            let (heard, restarts, w) = (heard.clone(), restarts.clone(), w.clone());
            playback.add_status_listener(Arc::new(move |status| {
                heard.lock().push(status);
                let Some(playback) = handle.upgrade() else {
                    return;
                };
                match status {
                    // Stop as soon as it plays, three times over.
                    PlaybackStatus::Playing if restarts.load(Ordering::SeqCst) < 3 => {
                        w.call("stop in a listener", || playback.stop());
                    }
                    // Start again from the listener.
                    PlaybackStatus::Stopped if restarts.fetch_add(1, Ordering::SeqCst) < 3 => {
                        for sensor in playback.sensors() {
                            w.call("start in a listener", || {
                                start(&sensor, Arc::new(|_| {})).expect("start")
                            });
                        }
                    }
                    _ => {}
                }
            }));
        }
        // Started paused, so the listener acts only once all are started.
        playback.pause();
        for sensor in playback.sensors() {
            start(&sensor, Arc::new(|_| {})).expect("start");
        }
        playback.resume();
        // The last restart plays to the end of the file.
        let until = Instant::now() + WATCHDOG;
        while restarts.load(Ordering::SeqCst) < 4 {
            assert!(Instant::now() < until, "the listener's restarts stalled");
            w.call("wait", || {
                playback.wait_until_stopped(Duration::from_millis(50))
            });
        }
        assert!(w.call("wait", || playback.wait_until_stopped(WATCHDOG)));
        w.call("stop", || playback.stop());
        let heard = heard.lock().clone();
        let stops = heard
            .iter()
            .filter(|&&s| s == PlaybackStatus::Stopped)
            .count();
        assert!(stops >= 4, "listeners heard {heard:?}");
        // Every change is told, in order: never the same status twice in a row.
        assert!(heard.windows(2).all(|w| w[0] != w[1]), "{heard:?}");
    });
}

#[test]
fn a_callback_waiting_for_the_stop_does_not_hold_it_up() {
    scenario("a callback waits for the stop", |path, w| {
        let playback = Arc::new(playback(&path, false, 2));
        let handle = Arc::downgrade(&playback);
        let entered = Arc::new(AtomicUsize::new(0));
        let saw_stop = Arc::new(AtomicBool::new(false));
        let sensor = playback.sensors()[0].clone();
        {
            let (entered, saw_stop, w) = (entered.clone(), saw_stop.clone(), w.clone());
            start(
                &sensor,
                Arc::new(move |_| {
                    if entered.fetch_add(1, Ordering::SeqCst) > 0 {
                        return;
                    }
                    if let Some(playback) = handle.upgrade() {
                        let stopped = w.call("wait in a callback", || {
                            playback.wait_until_stopped(WATCHDOG)
                        });
                        saw_stop.store(stopped, Ordering::SeqCst);
                    }
                }),
            )
            .expect("start");
        }
        wait_for(&entered, 1);
        w.call("stop while a callback waits for it", || playback.stop());
        assert!(saw_stop.load(Ordering::SeqCst), "the callback saw the stop");
    });
}

/// A small deterministic random number generator (splitmix64).
#[derive(Clone)]
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// What the storm's callbacks and listeners share.
struct Storm {
    playback: Weak<Playback>,
    watchdog: Arc<Watchdog>,
    duration_ms: u64,
    /// Set while the storm is off (until the first frame, and once it
    /// ends): callbacks and listeners do not meddle.
    calm: AtomicBool,
    /// Set once the final stop returned: no frame may come after.
    stopped: AtomicBool,
    after_stop: AtomicUsize,
    frames: AtomicU64,
}

impl Storm {
    /// A frame callback that now and then pulls a control itself.
    fn callback(self: &Arc<Self>, seed: u64) -> FrameCallback {
        let storm = Arc::downgrade(self);
        Arc::new(move |frame: Frame| {
            let Some(storm) = storm.upgrade() else {
                return;
            };
            if storm.stopped.load(Ordering::SeqCst) {
                storm.after_stop.fetch_add(1, Ordering::SeqCst);
            }
            let n = storm.frames.fetch_add(1, Ordering::SeqCst);
            let mut rng = Rng(seed ^ frame.number.wrapping_mul(0x9E37) ^ n);
            if rng.below(4) == 0 {
                std::thread::sleep(Duration::from_micros(rng.below(1500)));
            }
            if storm.calm.load(Ordering::SeqCst) {
                return;
            }
            storm.act(&mut rng, 40);
        })
    }

    /// Maybe (one time in `odds`) pull a random control.
    fn act(self: &Arc<Self>, rng: &mut Rng, odds: u64) {
        if rng.below(odds) != 0 {
            return;
        }
        let Some(playback) = self.playback.upgrade() else {
            return;
        };
        self.control(&playback, rng);
    }

    /// Pull a random control of `playback`.
    fn control(self: &Arc<Self>, playback: &Playback, rng: &mut Rng) {
        let w = &self.watchdog;
        let sensors = playback.sensors();
        let sensor = &sensors[rng.below(sensors.len() as u64) as usize];
        match rng.below(13) {
            0 => w.call("pause", || playback.pause()),
            1 | 2 => w.call("resume", || playback.resume()),
            3 => {
                let to = Duration::from_millis(rng.below(self.duration_ms + 1));
                w.call("seek", || playback.seek(to))
                    .expect("seek within the file");
            }
            4 => {
                let speed = [0.5, 1.0, 3.0, 20.0][rng.below(4) as usize];
                w.call("speed", || playback.set_playback_speed(speed))
                    .expect("speed");
            }
            5 => {
                let real_time = rng.below(2) == 0;
                w.call("real time", || playback.set_real_time(real_time));
            }
            6 => {
                let repeat = rng.below(3) != 0;
                w.call("repeat", || playback.set_repeat(repeat));
            }
            7 => w.call("playback stop", || playback.stop()),
            8 => w.call("sensor stop", || sensor.stop()).expect("stop"),
            9 | 10 => {
                let callback = self.callback(rng.next());
                // Fails when it streams already, which is fine.
                let _ = w.call("sensor start", || start(sensor, callback));
            }
            11 => {
                // Stop and start again at once.
                let callback = self.callback(rng.next());
                w.call("sensor restart", || {
                    let _ = sensor.stop();
                    let _ = start(sensor, callback);
                });
            }
            _ => w.call("queries", || {
                let _ = playback.wait_until_stopped(Duration::from_millis(rng.below(5)));
                let _ = (
                    playback.position(),
                    playback.status(),
                    playback.dropped_frames(),
                );
                let _ = (playback.read_errors(), playback.take_read_errors());
            }),
        }
    }
}

/// One storm: 8 threads pull random controls while the callbacks and a
/// status listener pull some too; then it calms, ends in a stop, a drop
/// while paused or a drop while playing, and no frame comes after.
fn storm(path: &Path, seed: u64, real_time: bool, watchdog: Arc<Watchdog>) {
    let mut rng = Rng(seed);
    let playback = Arc::new(playback(path, real_time, 1 + rng.below(4) as usize));
    let storm = Arc::new(Storm {
        playback: Arc::downgrade(&playback),
        watchdog: watchdog.clone(),
        duration_ms: playback.duration().as_millis() as u64,
        calm: AtomicBool::new(false),
        stopped: AtomicBool::new(false),
        after_stop: AtomicUsize::new(0),
        frames: AtomicU64::new(0),
    });
    {
        let storm_ref = Arc::downgrade(&storm);
        let mut listener_rng = Rng(seed ^ 0x5555);
        let listener_rng = Mutex::new(listener_rng.next());
        playback.add_status_listener(Arc::new(move |_| {
            let Some(storm) = storm_ref.upgrade() else {
                return;
            };
            if storm.calm.load(Ordering::SeqCst) {
                return;
            }
            let mut rng = {
                let mut seed = listener_rng.lock();
                *seed = seed.wrapping_add(1);
                Rng(*seed)
            };
            storm.act(&mut rng, 3);
        }));
    }
    playback.set_repeat(true);
    // Started while paused (and calm), so that no listener starts a sensor
    // before this does.
    storm.calm.store(true, Ordering::SeqCst);
    playback.pause();
    for sensor in playback.sensors() {
        start(&sensor, storm.callback(rng.next())).expect("start");
    }
    playback.resume();
    // The storm starts once frames flow, so that a loaded machine (CI runs
    // tests side by side) cannot stop everything before the first frame.
    let until = Instant::now() + WATCHDOG;
    while storm.frames.load(Ordering::SeqCst) == 0 {
        assert!(
            Instant::now() < until,
            "seed {seed}: no frame before the storm"
        );
        std::thread::sleep(Duration::from_millis(1));
    }
    storm.calm.store(false, Ordering::SeqCst);
    let workers: Vec<_> = (0..8)
        .map(|_| {
            let (playback, storm) = (playback.clone(), storm.clone());
            let mut rng = Rng(rng.next());
            std::thread::spawn(move || {
                for _ in 0..120 {
                    storm.control(&playback, &mut rng);
                    std::thread::sleep(Duration::from_micros(rng.below(2000)));
                }
            })
        })
        .collect();
    for worker in workers {
        worker.join().expect("a storm thread panicked");
    }
    storm.calm.store(true, Ordering::SeqCst);
    // Controls already under way from callbacks may still hold the
    // playback for a moment.
    let until = Instant::now() + WATCHDOG;
    let mut playback = playback;
    let playback = loop {
        match Arc::try_unwrap(playback) {
            Ok(playback) => break playback,
            Err(shared) => {
                assert!(Instant::now() < until, "the playback is still held");
                playback = shared;
                std::thread::sleep(Duration::from_millis(1));
            }
        }
    };
    match rng.below(3) {
        0 => {
            watchdog.call("final stop", || playback.stop());
            storm.stopped.store(true, Ordering::SeqCst);
            assert_eq!(playback.status(), PlaybackStatus::Stopped);
            watchdog.call("drop", || drop(playback));
        }
        1 => {
            playback.pause();
            watchdog.call("drop while paused", || drop(playback));
            storm.stopped.store(true, Ordering::SeqCst);
        }
        _ => {
            playback.resume();
            watchdog.call("drop while playing", || drop(playback));
            storm.stopped.store(true, Ordering::SeqCst);
        }
    }
    assert_eq!(
        storm.after_stop.load(Ordering::SeqCst),
        0,
        "seed {seed}: a frame was delivered after stop returned"
    );
}

#[test]
fn a_storm_of_controls_from_every_thread_never_hangs() {
    let _one = ONE_AT_A_TIME.lock();
    let seeds: u64 = std::env::var("RSBAG_STRESS_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(6);
    let first_seed: u64 = std::env::var("RSBAG_STRESS_FIRST_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let dir = tempfile::tempdir().expect("tempdir");
    let bags = [small_bag(dir.path()), multi_stream_bag()];
    let baseline = thread_count();
    let watchdog = Arc::new(Watchdog::default());
    for seed in first_seed..first_seed + seeds {
        let path = bags[(seed % 2) as usize].clone();
        let real_time = (seed / 2) % 2 == 0;
        let w = watchdog.clone();
        watchdog.guard(&format!("storm seed {seed}"), move || {
            storm(&path, seed, real_time, w)
        });
    }
    assert_threads_back_to(baseline);
}
