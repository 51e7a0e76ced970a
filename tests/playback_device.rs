//! The playback device: every frame, seek, timing, pause, controls from
//! many threads, options and notifications, and bad input.

use crate::common;

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::rs;
use parking_lot::Mutex;
use rsbag::device::{Device, Frame, StreamKind};
use rsbag::playback::{Playback, PlaybackOptions, PlaybackStatus};
use rsbag::storage::bag::Compression;

const FRAMES: u64 = 60;

fn bag(compression: Compression) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("rec.bag");
    rs::write(&path, FRAMES, compression);
    (dir, path)
}

type Log = Arc<Mutex<Vec<(Instant, Frame)>>>;

/// Open and start every sensor, logging each frame with its arrival time.
/// The sensors are started while paused so that every stream starts at the
/// first frame; the playback's own pause state is kept.
fn start_all(playback: &Playback) -> Log {
    let was_paused = playback.is_paused();
    playback.pause();
    let log: Log = Arc::new(Mutex::new(Vec::new()));
    for sensor in playback.sensors() {
        sensor.open(&sensor.profiles()).expect("open");
        let log = log.clone();
        sensor
            .start(Arc::new(move |f| log.lock().push((Instant::now(), f))))
            .expect("start");
    }
    if !was_paused {
        playback.resume();
    }
    log
}

fn not_real_time(path: &std::path::Path) -> Playback {
    let options = PlaybackOptions {
        real_time: false,
        ..PlaybackOptions::default()
    };
    Playback::with_options(path, options).expect("open playback")
}

#[test]
fn every_frame_is_delivered_once_with_its_bytes() {
    for compression in Compression::ALL {
        let (_dir, path) = bag(compression);
        for _ in 0..3 {
            let playback = not_real_time(&path);
            let log = start_all(&playback);
            assert!(playback.wait_until_stopped(Duration::from_secs(20)));
            let frames = log.lock();
            assert_eq!(frames.len() as u64, 2 * FRAMES, "{compression}");
            for profile in [rs::depth_profile(), rs::color_profile()] {
                let mine: Vec<&Frame> = frames
                    .iter()
                    .map(|(_, f)| f)
                    .filter(|f| f.profile.stream == profile.stream)
                    .collect();
                for (n, f) in mine.iter().enumerate() {
                    let expected = rs::frame(profile, n as u64);
                    assert_eq!(f.number, expected.number);
                    assert!((f.timestamp - expected.timestamp).abs() < 1e-6);
                    assert_eq!(f.data, expected.data);
                    assert_eq!(f.domain, expected.domain);
                    assert_eq!(f.metadata("Frame Counter"), Some(n as i64 + 1));
                    assert_eq!(f.stride, expected.stride);
                }
            }
        }
    }
}

#[test]
fn the_device_is_the_recorded_one() {
    let (_dir, path) = bag(Compression::Lz4);
    let playback = Playback::open(&path).expect("open");
    assert_eq!(playback.info().get("Serial Number"), Some("0042"));
    let sensors = playback.sensors();
    assert_eq!(sensors.len(), 2);
    assert_eq!(sensors[0].name(), "Stereo Module");
    assert_eq!(sensors[1].name(), "RGB Camera");
    let depth = sensors[0].profiles()[0];
    assert!(depth.same_mode(&rs::depth_profile()));
    assert_eq!(depth.intrinsics(), rs::depth_profile().intrinsics());
    let exposure = &sensors[1].options()[0];
    assert_eq!(
        (exposure.name.as_str(), exposure.value),
        ("Exposure", 100.0)
    );
    assert_eq!(exposure.description, "Exposure time in microseconds");
    assert!(sensors[1].set_option("Exposure", 5.0).is_err());
    let e = playback
        .extrinsics(rs::depth_profile().stream, rs::color_profile().stream)
        .expect("extrinsics");
    assert!((e.translation[0] - 0.015).abs() < 1e-6);
    let first = rsbag::realsense::convert::FIRST_EVENT_TIME;
    assert_eq!(
        playback.duration(),
        Duration::from_nanos(rs::capture_ns(&rs::color_profile(), FRAMES - 1) - first)
    );
}

#[test]
fn options_and_notifications_replay_at_their_time() {
    let (_dir, path) = bag(Compression::None);
    let playback = not_real_time(&path);
    let seen = Arc::new(Mutex::new(Vec::new()));
    let sensors = playback.sensors();
    {
        let seen1 = seen.clone();
        sensors[1].add_option_listener(Arc::new(move |name, value| {
            seen1.lock().push(format!("{name}={value}"))
        }));
        let seen2 = seen.clone();
        sensors[0]
            .add_notification_listener(Arc::new(move |n| seen2.lock().push(n.description.clone())));
    }
    let log = start_all(&playback);
    {
        let seen = seen.clone();
        let log = log.clone();
        // Record how many frames had arrived when each event came.
        sensors[0].add_notification_listener(Arc::new(move |_| {
            seen.lock().push(format!("after {}", log.lock().len()))
        }));
    }
    assert!(playback.wait_until_stopped(Duration::from_secs(20)));
    let seen = seen.lock();
    assert_eq!(seen[0], "Exposure=200");
    assert_eq!(seen[1], "planted");
    assert_eq!(sensors[1].options()[0].value, 200.0);
    // The events come right after the frames of the middle capture time:
    // depth and color of frames 0..=30, except color 30 which is 1 ms
    // later (give or take what the dispatchers had not handed over yet).
    let after: usize = seen[2].trim_start_matches("after ").parse().expect("count");
    assert!(after <= 2 * (FRAMES as usize / 2) + 1, "{seen:?}");
}

/// The first frame of each stream delivered after seeking to `t`.
fn first_after_seek(playback: &Playback, log: &Log, t: Duration) -> BTreeMap<StreamKind, u64> {
    let mut firsts = BTreeMap::new();
    let deadline = Instant::now() + Duration::from_secs(10);
    while firsts.len() < 2 && Instant::now() < deadline {
        for (_, f) in log.lock().iter() {
            firsts.entry(f.profile.stream.kind).or_insert(f.number);
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let _ = (playback, t);
    firsts
}

/// The frame number of the first frame of `profile` captured at or after
/// `t` since the first frame.
fn expected_first(profile: &rsbag::device::StreamProfile, t: Duration) -> u64 {
    let start = rsbag::realsense::convert::FIRST_EVENT_TIME; // bag time of the first frame
    (0..FRAMES)
        .find(|&n| rs::capture_ns(profile, n).max(start) >= start + t.as_nanos() as u64)
        .map(|n| n + 1)
        .unwrap_or(0)
}

#[test]
fn seek_lands_on_the_first_frame_at_or_after_the_time() {
    let (_dir, path) = bag(Compression::Lz4);
    for t_ms in [0u64, 1, 400, 1000, 1500, 1966] {
        let t = Duration::from_millis(t_ms);
        for paused in [true, false] {
            let playback = not_real_time(&path);
            playback.pause();
            let log = start_all(&playback);
            std::thread::sleep(Duration::from_millis(20));
            assert!(
                log.lock().is_empty(),
                "paused before start: nothing delivered"
            );
            playback.seek(t).expect("seek");
            if paused {
                std::thread::sleep(Duration::from_millis(30));
                assert!(log.lock().is_empty(), "a paused seek delivers nothing");
            }
            log.lock().clear();
            playback.resume();
            let firsts = first_after_seek(&playback, &log, t);
            assert_eq!(
                firsts.get(&StreamKind::Depth),
                Some(&expected_first(&rs::depth_profile(), t)),
                "t={t_ms} ms"
            );
            assert_eq!(
                firsts.get(&StreamKind::Color),
                Some(&expected_first(&rs::color_profile(), t)),
                "t={t_ms} ms"
            );
        }
    }
    let playback = Playback::open(&path).expect("open");
    assert!(
        playback.seek(Duration::from_secs(3)).is_err(),
        "seek past the end"
    );
}

#[test]
fn seek_while_playing_in_real_time() {
    let (_dir, path) = bag(Compression::None);
    let playback = Playback::open(&path).expect("open");
    let log = start_all(&playback);
    std::thread::sleep(Duration::from_millis(150));
    let t = Duration::from_millis(1200);
    playback.seek(t).expect("seek");
    // Frames that were in flight before the seek are discarded by
    // generation; the first ones after it must be at or after `t`.
    let marker = log.lock().len();
    let deadline = Instant::now() + Duration::from_secs(5);
    while log.lock().len() < marker + 6 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    let frames = log.lock();
    let after: Vec<u64> = frames[marker..].iter().map(|(_, f)| f.number).collect();
    assert!(!after.is_empty());
    let min_expected =
        expected_first(&rs::depth_profile(), t).min(expected_first(&rs::color_profile(), t));
    assert!(
        after.iter().all(|&n| n >= min_expected),
        "{after:?} after seeking to frame {min_expected}"
    );
}

#[test]
fn real_time_follows_the_recorded_pace_at_any_speed() {
    let (_dir, path) = bag(Compression::Lz4);
    // Nothing here depends on the machine's speed: the reader waits until
    // each frame is due, so a frame never arrives before its recorded time
    // (divided by the speed) since `resume` was called. How late frames
    // arrive is measured by `cargo bench --bench timing`.
    for speed in [1.0, 2.0, 0.5] {
        let playback = Playback::open(&path).expect("open");
        playback.set_playback_speed(speed).expect("speed");
        playback.pause();
        let log = start_all(&playback);
        let resumed = Instant::now();
        playback.resume();
        assert!(playback.wait_until_stopped(Duration::from_secs(20)));
        let frames = log.lock();
        assert_eq!(
            frames.len() as u64,
            2 * FRAMES,
            "nothing dropped at speed {speed}"
        );
        let capture0 = frames
            .iter()
            .map(|(_, f)| rs::capture_ns(&f.profile, f.number - 1))
            .min()
            .expect("frames");
        for (at, f) in frames.iter() {
            let recorded = rs::capture_ns(&f.profile, f.number - 1) - capture0;
            let due = Duration::from_secs_f64(recorded as f64 / 1e9 / speed);
            let actual = at.duration_since(resumed);
            assert!(
                actual >= due,
                "speed {speed}: frame {} of {} early: {actual:?} < {due:?}",
                f.number,
                f.profile.stream
            );
        }
    }
}

#[test]
fn pause_holds_delivery_and_resume_continues() {
    let (_dir, path) = bag(Compression::Lz4);
    let playback = Playback::open(&path).expect("open");
    let statuses = Arc::new(Mutex::new(Vec::new()));
    {
        let statuses = statuses.clone();
        playback.add_status_listener(Arc::new(move |s| statuses.lock().push(s)));
    }
    let log = start_all(&playback);
    std::thread::sleep(Duration::from_millis(300));
    playback.pause();
    assert_eq!(playback.status(), PlaybackStatus::Paused);
    let at_pause = log.lock().len();
    std::thread::sleep(Duration::from_millis(400));
    let later = log.lock().len();
    assert!(
        later <= at_pause + 1,
        "delivered {} frames while paused",
        later - at_pause
    );
    playback.resume();
    assert!(playback.wait_until_stopped(Duration::from_secs(20)));
    let frames = log.lock();
    assert_eq!(
        frames.len() as u64,
        2 * FRAMES,
        "resume continues where it stopped"
    );
    let numbers: Vec<u64> = frames
        .iter()
        .filter(|(_, f)| f.profile.stream.kind == StreamKind::Depth)
        .map(|(_, f)| f.number)
        .collect();
    assert_eq!(numbers, (1..=FRAMES).collect::<Vec<_>>());
    assert_eq!(
        *statuses.lock(),
        [
            // start_all starts the sensors paused, then resumes.
            PlaybackStatus::Paused,
            PlaybackStatus::Playing,
            PlaybackStatus::Paused,
            PlaybackStatus::Playing,
            PlaybackStatus::Stopped
        ]
    );
}

#[test]
fn a_slow_callback_does_not_hold_up_another_sensor_in_real_time() {
    let (_dir, path) = bag(Compression::None);
    let playback = Playback::open(&path).expect("open");
    let sensors = playback.sensors();
    let fast = Arc::new(AtomicUsize::new(0));
    playback.pause();
    sensors[0].open(&sensors[0].profiles()).expect("open");
    sensors[0]
        .start(Arc::new(|_| std::thread::sleep(Duration::from_millis(200))))
        .expect("start");
    sensors[1].open(&sensors[1].profiles()).expect("open");
    {
        let fast = fast.clone();
        sensors[1]
            .start(Arc::new(move |_| {
                fast.fetch_add(1, Ordering::SeqCst);
            }))
            .expect("start");
    }
    playback.resume();
    assert!(playback.wait_until_stopped(Duration::from_secs(30)));
    assert_eq!(
        fast.load(Ordering::SeqCst) as u64,
        FRAMES,
        "the fast sensor got every frame"
    );
    // Had the slow callback held up the reader, it would have waited for
    // room rather than drop.
    assert!(
        playback.dropped_frames() > 0,
        "the slow sensor's frames were dropped, not queued without bound"
    );
}

#[test]
fn repeat_plays_again_from_the_start() {
    let (_dir, path) = bag(Compression::Lz4);
    let playback = not_real_time(&path);
    playback.set_repeat(true);
    let log = start_all(&playback);
    let deadline = Instant::now() + Duration::from_secs(20);
    while (log.lock().len() as u64) < 5 * FRAMES && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(5));
    }
    playback.stop();
    let frames = log.lock();
    assert!(frames.len() as u64 >= 5 * FRAMES);
    let depth: Vec<u64> = frames
        .iter()
        .filter(|(_, f)| f.profile.stream.kind == StreamKind::Depth)
        .map(|(_, f)| f.number)
        .collect();
    for (i, n) in depth.iter().enumerate() {
        assert_eq!(*n, (i as u64 % FRAMES) + 1, "loop {}", i as u64 / FRAMES);
    }
}

#[test]
fn controls_from_many_threads_never_deadlock_and_stop_is_final() {
    let (_dir, path) = bag(Compression::Lz4);
    let playback = Arc::new(Playback::open(&path).expect("open"));
    playback.set_repeat(true);
    let stopped = Arc::new(AtomicBool::new(false));
    let after_stop = Arc::new(AtomicUsize::new(0));
    for sensor in playback.sensors() {
        sensor.open(&sensor.profiles()).expect("open");
        let (stopped, after_stop) = (stopped.clone(), after_stop.clone());
        sensor
            .start(Arc::new(move |_| {
                if stopped.load(Ordering::SeqCst) {
                    after_stop.fetch_add(1, Ordering::SeqCst);
                }
            }))
            .expect("start");
    }
    let until = Instant::now() + Duration::from_secs(3);
    let threads: Vec<_> = (0..4u64)
        .map(|seed| {
            let playback = playback.clone();
            std::thread::spawn(move || {
                let mut x = seed * 7919 + 1;
                while Instant::now() < until {
                    x = x
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    match (x >> 33) % 6 {
                        0 => {
                            let _ = playback.seek(Duration::from_millis((x >> 40) % 1900));
                        }
                        1 => playback.pause(),
                        2 => playback.resume(),
                        3 => {
                            let _ = playback
                                .set_playback_speed([0.5, 1.0, 4.0][((x >> 20) % 3) as usize]);
                        }
                        4 => playback.set_real_time((x >> 25) % 2 == 0),
                        _ => {
                            let _ = playback.position();
                            let _ = playback.status();
                        }
                    }
                    std::thread::sleep(Duration::from_micros((x >> 45) % 3000));
                }
            })
        })
        .collect();
    for t in threads {
        t.join().expect("control thread");
    }
    playback.resume();
    playback.stop();
    stopped.store(true, Ordering::SeqCst);
    assert_eq!(playback.status(), PlaybackStatus::Stopped);
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(
        after_stop.load(Ordering::SeqCst),
        0,
        "frames delivered after stop"
    );
}

#[test]
fn bad_input_is_a_clear_error() {
    let (dir, path) = bag(Compression::Lz4);
    let playback = Playback::open(&path).expect("open");
    let sensors = playback.sensors();
    assert!(
        sensors[0].start(Arc::new(|_| {})).is_err(),
        "start before open"
    );
    let mut wrong = rs::color_profile();
    wrong.fps = 90;
    let err = sensors[0]
        .open(&[wrong])
        .expect_err("a profile the file does not have");
    assert!(err.to_string().contains("not in the recording"), "{err}");

    let not_a_bag = dir.path().join("notes.bag");
    std::fs::write(&not_a_bag, "hello").expect("write");
    let err = Playback::open(&not_a_bag).expect_err("not a bag");
    assert!(err.to_string().contains("notes.bag"), "{err}");

    // A ROS bag from another tool: no RealSense description.
    let other = dir.path().join("other.bag");
    let bytes = common::write_bag(
        &[("/chatter".into(), "std_msgs/String".into())],
        &[common::Written {
            conn: 0,
            time: 5,
            data: b"\x02\0\0\0hi".to_vec(),
        }],
        Compression::None,
        1000,
    );
    std::fs::write(&other, bytes).expect("write");
    let err = Playback::open(&other).expect_err("no RealSense description");
    assert!(err.to_string().contains("/file_version"), "{err}");
}

#[test]
fn a_bag_without_its_index_plays_from_the_scan() {
    let (dir, path) = bag(Compression::Lz4);
    let bytes = std::fs::read(&path).expect("read");
    let index_pos = rsbag::storage::bag::Bag::open(&path)
        .expect("open")
        .header()
        .index_pos as usize;
    let cut = dir.path().join("cut.bag");
    std::fs::write(&cut, &bytes[..index_pos]).expect("write");
    let playback = not_real_time(&cut);
    let log = start_all(&playback);
    assert!(playback.wait_until_stopped(Duration::from_secs(20)));
    assert_eq!(log.lock().len() as u64, 2 * FRAMES);
}

#[test]
fn seek_on_a_long_recording_lands_on_the_right_frame_everywhere() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("long.bag");
    // 3000 frame pairs: 100 s of recording in many chunks.
    rs::write(&path, 3000, Compression::Lz4);
    let playback = not_real_time(&path);
    // Not in real time the end comes quickly; repeat keeps the sensors
    // streaming from one seek to the next.
    playback.set_repeat(true);
    playback.pause();
    let log = start_all(&playback);
    let bag_chunks = rsbag::storage::bag::Bag::open(&path)
        .expect("bag")
        .chunks()
        .len();
    assert!(bag_chunks > 3, "{bag_chunks} chunks");
    let mut x = 12345u64;
    for _ in 0..25 {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let t = Duration::from_nanos((x >> 20) % 99_000_000_000);
        playback.pause();
        playback.seek(t).expect("seek");
        log.lock().clear();
        playback.resume();
        let deadline = Instant::now() + Duration::from_secs(10);
        let firsts = loop {
            let firsts: BTreeMap<StreamKind, u64> = {
                let frames = log.lock();
                let mut firsts = BTreeMap::new();
                for (_, f) in frames.iter() {
                    firsts.entry(f.profile.stream.kind).or_insert(f.number);
                }
                firsts
            };
            if firsts.len() == 2 || Instant::now() > deadline {
                break firsts;
            }
            std::thread::sleep(Duration::from_millis(2));
        };
        let expected = |p: &rsbag::device::StreamProfile| {
            (0..3000u64)
                .find(|&n| rs::capture_ns(p, n).max(2) >= 2 + t.as_nanos() as u64)
                .map(|n| n + 1)
        };
        assert_eq!(
            firsts.get(&StreamKind::Depth).copied(),
            expected(&rs::depth_profile()),
            "t = {t:?}"
        );
        assert_eq!(
            firsts.get(&StreamKind::Color).copied(),
            expected(&rs::color_profile()),
            "t = {t:?}"
        );
    }
    playback.stop();
}

#[test]
fn an_unknown_format_is_named_in_the_error() {
    use rsbag::msg::diagnostic_msgs::KeyValue;
    use rsbag::msg::realsense_msgs::StreamInfo;
    use rsbag::msg::sensor_msgs::CameraInfo;
    use rsbag::msg::std_msgs::UInt32;
    use rsbag::msg::{encode_to_vec, RosMessage};
    use rsbag::storage::bag::{BagFile, WriterOptions};
    use rsbag::storage::Connection;

    fn put<'m, M: RosMessage<'m>>(bag: &mut BagFile, topic: &str, msg: &M) {
        let conn = bag.add_connection(Connection::ros1(topic, M::TYPE, M::MD5SUM, M::DEFINITION));
        bag.write(conn, 1, &encode_to_vec(msg).unwrap())
            .expect("write");
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("odd.bag");
    let mut bag = BagFile::create(&path, WriterOptions::default()).expect("create");
    put(&mut bag, "/file_version", &UInt32 { data: 4 });
    put(
        &mut bag,
        "/device_0/sensor_0/info",
        &KeyValue {
            key: "Name".into(),
            value: "Stereo Module".into(),
        },
    );
    put(
        &mut bag,
        "/device_0/sensor_0/Depth_0/info",
        &StreamInfo {
            fps: 30,
            encoding: "BOGUS12".into(),
            is_recommended: true,
        },
    );
    put(
        &mut bag,
        "/device_0/sensor_0/Depth_0/info/camera_info",
        &CameraInfo {
            width: 4,
            height: 3,
            ..CameraInfo::default()
        },
    );
    bag.finish().expect("finish");
    let err = Playback::open(&path).expect_err("an unknown format");
    let text = err.to_string();
    assert!(
        text.contains("BOGUS12") && text.contains("Depth 0") && text.contains("odd.bag"),
        "{text}"
    );
}
