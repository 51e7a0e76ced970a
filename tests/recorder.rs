//! The recorder: what the device streams is what the bag holds, with
//! pause, option changes, notifications, drops and crashes.

use crate::common;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use parking_lot::Mutex;
use rsbag::device::synthetic::{self, SyntheticConfig, SyntheticDevice};
use rsbag::device::{Device, Frame, Notification, StreamId, StreamProfile};
use rsbag::record::{RecordOptions, Recorder, Split};
use rsbag::recording::{Event, Recording};
use rsbag::storage::bag::{Bag, Compression};

fn small_camera() -> Arc<SyntheticDevice> {
    let config = SyntheticConfig {
        depth: (64, 48, 30),
        color: (64, 48, 30),
        ..SyntheticConfig::default()
    };
    Arc::new(SyntheticDevice::new(config).expect("synthetic camera"))
}

const STREAMS: [StreamId; 6] = [
    synthetic::DEPTH,
    synthetic::COLOR,
    synthetic::INFRARED_1,
    synthetic::INFRARED_2,
    synthetic::ACCEL,
    synthetic::GYRO,
];

type Fed = Arc<Mutex<Vec<Frame>>>;

/// Open the default profile of every stream in `STREAMS` and start every
/// sensor, keeping each frame the camera fed to the recorder.
fn start_streams(recorder: &Recorder, camera: &SyntheticDevice) -> Fed {
    let fed: Fed = Arc::default();
    let wanted: Vec<StreamProfile> = STREAMS
        .iter()
        .filter_map(|s| camera.default_profile(*s))
        .collect();
    common::open_and_start(recorder, &wanted, || {
        let fed = fed.clone();
        Arc::new(move |f| fed.lock().push(f))
    });
    fed
}

fn recorded_frames(path: &std::path::Path) -> Vec<(rsbag::BagTime, Frame)> {
    let recording = Recording::open(path).expect("open the recording");
    recording
        .events(..)
        .filter_map(|e| match e.expect("event") {
            rsbag::recording::TimedEvent {
                time,
                event: Event::Frame { frame, .. },
            } => Some((time, frame)),
            _ => None,
        })
        .collect()
}

fn key(f: &Frame) -> (StreamId, u64) {
    (f.profile.stream, f.number)
}

#[test]
fn every_frame_fed_is_recorded_with_its_bytes_and_times() {
    for compression in [Compression::Lz4, Compression::None] {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("rec.bag");
        let camera = small_camera();
        let recorder = Recorder::new(
            &path,
            camera.clone(),
            RecordOptions::default().compression(compression),
        )
        .expect("recorder");
        let fed = start_streams(&recorder, &camera);
        assert!(
            !path.exists(),
            "the bag lies under its temporary name while recording"
        );
        std::thread::sleep(Duration::from_millis(800));
        let report = recorder.finish().expect("finish");
        assert!(path.exists());
        assert_eq!(
            report.file_size,
            std::fs::metadata(&path).expect("metadata").len()
        );

        let fed: BTreeMap<_, _> = fed.lock().iter().map(|f| (key(f), f.clone())).collect();
        let recorded = recorded_frames(&path);
        assert_eq!(
            recorded.len(),
            fed.len(),
            "{compression}: every fed frame is in the bag"
        );
        for (_, frame) in &recorded {
            let original = &fed[&key(frame)];
            assert_eq!(frame.data, original.data);
            assert_eq!(frame.domain, original.domain);
            assert!(
                (frame.timestamp - original.timestamp).abs() < 1e-6,
                "{} vs {}",
                frame.timestamp,
                original.timestamp
            );
            assert!((frame.system_time - original.system_time).abs() < 1e-3);
            assert_eq!(frame.stride, original.stride);
            for (k, v) in &original.metadata {
                assert_eq!(frame.metadata(k), Some(*v), "metadata {k}");
            }
            // The synthetic camera's content is a function of the frame number.
            let rendered = camera
                .render(&original.profile, original.number)
                .expect("render");
            assert_eq!(frame.data, rendered.data);
        }
        for (stream, counts) in &report.streams {
            let n = recorded
                .iter()
                .filter(|(_, f)| f.profile.stream == *stream)
                .count() as u64;
            assert_eq!(counts.written, n, "{stream}");
            assert_eq!(counts.dropped, 0, "{stream}");
        }
        let times: Vec<rsbag::BagTime> = recorded.iter().map(|(t, _)| *t).collect();
        assert!(
            times.windows(2).all(|w| w[0] <= w[1]),
            "bag times are in order"
        );
        // The chunks are compressed as asked.
        let bag = Bag::open(&path).expect("bag");
        for chunk in bag.chunks() {
            assert_eq!(
                bag.chunk_compression(chunk).expect("compression"),
                compression
            );
        }
    }
}

#[test]
fn nothing_captured_while_paused_reaches_the_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("rec.bag");
    let camera = small_camera();
    let created = Instant::now();
    let recorder =
        Recorder::new(&path, camera.clone(), RecordOptions::default()).expect("recorder");
    let fed = start_streams(&recorder, &camera);
    std::thread::sleep(Duration::from_millis(400));
    recorder.pause();
    let paused_at = Instant::now();
    let at_pause = fed
        .lock()
        .iter()
        .filter(|f| f.profile.stream == synthetic::DEPTH)
        .map(|f| f.number)
        .max()
        .unwrap_or(0);
    std::thread::sleep(Duration::from_millis(500));
    let at_resume = fed
        .lock()
        .iter()
        .filter(|f| f.profile.stream == synthetic::DEPTH)
        .map(|f| f.number)
        .max()
        .unwrap_or(0);
    let resuming = Instant::now();
    recorder.resume();
    std::thread::sleep(Duration::from_millis(400));
    let report = recorder.finish().expect("finish");
    let wall = created.elapsed();
    let depth: Vec<(rsbag::BagTime, u64)> = recorded_frames(&path)
        .into_iter()
        .filter(|(_, f)| f.profile.stream == synthetic::DEPTH)
        .map(|(t, f)| (t, f.number))
        .collect();
    // Frames 1..=at_pause (give or take one in flight), none of the paused
    // ones, then the ones after resume.
    assert!(
        at_resume >= at_pause + 10,
        "the camera kept streaming while paused"
    );
    let paused: Vec<u64> = depth
        .iter()
        .map(|&(_, n)| n)
        .filter(|&n| n > at_pause + 1 && n < at_resume)
        .collect();
    assert!(
        paused.is_empty(),
        "frames captured while paused were written: {paused:?}"
    );
    assert!(
        depth.iter().any(|&(_, n)| n > at_resume),
        "frames after resume are written"
    );
    // The timeline has no hole where the pause was.
    let gap = depth
        .windows(2)
        .map(|w| w[1].0 - w[0].0)
        .max()
        .unwrap_or_default();
    assert!(
        gap < Duration::from_millis(150),
        "largest gap between depth frames: {gap:?}"
    );
    // The capture clock stood still at least from the moment pause()
    // returned until resume() was called, however slow the machine.
    let paused_for = resuming - paused_at;
    assert!(
        report.duration <= wall - paused_for,
        "{:?} recorded in {wall:?} of which {paused_for:?} paused",
        report.duration
    );
}

#[test]
fn option_changes_and_notifications_are_written_when_they_happen() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("rec.bag");
    let camera = small_camera();
    let recorder =
        Recorder::new(&path, camera.clone(), RecordOptions::default()).expect("recorder");
    let fed = start_streams(&recorder, &camera);
    std::thread::sleep(Duration::from_millis(300));
    let depth_before = fed.lock().len();
    recorder.sensors()[0]
        .set_option("Laser Power", 240.0)
        .expect("set option");
    camera
        .raise_notification(
            0,
            Notification {
                category: "Hardware Error".into(),
                severity: "Error".into(),
                description: "planted in the test".into(),
                timestamp: 1_700_000_000_000.0,
                serialized_data: String::new(),
            },
        )
        .expect("notification");
    std::thread::sleep(Duration::from_millis(300));
    drop(recorder); // dropping finishes the file too
    assert!(path.exists());
    let recording = Recording::open(&path).expect("open");
    let laser = recording.snapshot().sensors[0]
        .options
        .iter()
        .find(|o| o.name == "Laser Power")
        .expect("laser power");
    assert_ne!(
        laser.value, 240.0,
        "the description holds the value at the start"
    );
    let mut frames_before = 0;
    let mut option_at = None;
    let mut notification = None;
    for event in recording.events(..) {
        let event = event.expect("event");
        match event.event {
            Event::Frame { .. } if option_at.is_none() => frames_before += 1,
            Event::OptionChanged {
                sensor: 0,
                ref name,
                value,
            } if name == "Laser Power" => {
                assert_eq!(value, 240.0);
                option_at = Some(event.time);
            }
            Event::Notification {
                sensor: 0,
                notification: ref n,
            } => notification = Some(n.clone()),
            _ => {}
        }
    }
    assert!(option_at.is_some(), "the option change is in the file");
    let n = notification.expect("the notification is in the file");
    assert_eq!(
        (n.category.as_str(), n.description.as_str()),
        ("Hardware Error", "planted in the test")
    );
    // Written at the time it happened: after the first ~300 ms of frames.
    assert!(
        frames_before >= depth_before / 2 && frames_before > 10,
        "{frames_before} frames before the change"
    );
}

#[test]
fn frames_the_writer_cannot_take_are_dropped_and_counted() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("rec.bag");
    let camera = small_camera();
    let options = RecordOptions {
        max_queued_bytes: 16,
        ..RecordOptions::default()
    };
    let recorder = Recorder::new(&path, camera.clone(), options).expect("recorder");
    let fed = start_streams(&recorder, &camera);
    std::thread::sleep(Duration::from_millis(300));
    let report = recorder.finish().expect("finish");
    let fed = fed.lock();
    let video_fed = fed.iter().filter(|f| f.data.len() > 16).count() as u64;
    let dropped: u64 = report.streams.values().map(|c| c.dropped).sum();
    assert!(video_fed > 0);
    assert!(
        dropped >= video_fed,
        "every frame larger than the queue is dropped and counted: {dropped} < {video_fed}"
    );
    let recorded = recorded_frames(&path);
    assert!(
        recorded.iter().all(|(_, f)| f.data.len() <= 16),
        "only IMU samples fit"
    );
    assert_eq!(recorded.len() as u64 + dropped, fed.len() as u64);
}

/// A source that can wait (`wait_when_full`) loses nothing to a queue
/// that holds one frame, a frame larger than the queue's bytes going
/// alone: each stream's frames are recorded without a gap, and only a
/// frame left waiting when its sensor stopped is counted dropped.
#[test]
fn a_source_that_can_wait_waits_for_room_and_loses_nothing() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("rec.bag");
    let camera = small_camera();
    let options = RecordOptions {
        max_queued_bytes: 16,
        max_queued_frames: 1,
        wait_when_full: true,
        ..RecordOptions::default()
    };
    let recorder = Recorder::new(&path, camera.clone(), options).expect("recorder");
    let fed = start_streams(&recorder, &camera);
    std::thread::sleep(Duration::from_millis(300));
    let report = recorder.finish().expect("finish");
    let dropped: u64 = report.streams.values().map(|c| c.dropped).sum();
    assert!(dropped <= STREAMS.len() as u64, "{:?}", report.streams);
    let recorded = recorded_frames(&path);
    assert_eq!(recorded.len() as u64 + dropped, fed.lock().len() as u64);
    for stream in STREAMS {
        let numbers: Vec<u64> = (recorded.iter())
            .filter(|(_, f)| f.profile.stream == stream)
            .map(|(_, f)| f.number)
            .collect();
        assert!(numbers.len() > 3, "{stream}: {numbers:?}");
        let expected: Vec<u64> = (numbers[0]..numbers[0] + numbers.len() as u64).collect();
        assert_eq!(numbers, expected, "{stream}");
    }
}

#[test]
fn an_unwritable_path_is_an_error_now() {
    let camera = small_camera();
    let err = Recorder::new("/nonexistent-dir/x.bag", camera, RecordOptions::default())
        .expect_err("error");
    assert!(err.to_string().contains("/nonexistent-dir/x.bag"), "{err}");
}

/// A recording split into pieces: every frame fed is in exactly one
/// piece, and each piece begins with the options as they are when it
/// begins (an option changed during the recording is in the description
/// of the pieces after it, as librealsense 2.55 reads them).
#[test]
fn a_split_recording_describes_each_piece_with_the_options_then() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("rec.bag");
    let camera = small_camera();
    let options = RecordOptions {
        split: Some(Split {
            duration: Some(Duration::from_millis(200)),
            ..Split::default()
        }),
        ..RecordOptions::default()
    };
    let recorder = Recorder::new(&path, camera.clone(), options).expect("recorder");
    let fed = start_streams(&recorder, &camera);
    std::thread::sleep(Duration::from_millis(300));
    recorder.sensors()[0]
        .set_option("Laser Power", 240.0)
        .expect("set option");
    std::thread::sleep(Duration::from_millis(500));
    let report = recorder.finish().expect("finish");
    assert!(!path.exists(), "a split recording writes pieces only");
    assert!(report.pieces.len() >= 3, "{:?}", report.pieces);
    assert_eq!(report.path, report.pieces.last().expect("a piece").path);
    let laser_power = |piece: &std::path::Path| {
        let recording = Recording::open(piece).expect("open");
        let options = &recording.snapshot().sensors[0].options;
        options
            .iter()
            .find(|o| o.name == "Laser Power")
            .expect("laser power")
            .value
    };
    let first = &report.pieces[0].path;
    let last = &report.pieces.last().expect("a piece").path;
    assert_ne!(laser_power(first), 240.0);
    assert_eq!(laser_power(last), 240.0);
    let device: serde_json::Value = serde_json::from_str(&common::python(
        "rs_play.py",
        &[last.to_str().expect("utf-8"), "--device-json"],
    ))
    .expect("device JSON");
    let played = device["sensors"][0]["options"]
        .as_array()
        .expect("options")
        .iter()
        .find(|o| o["option"] == "Laser Power")
        .expect("librealsense reads the laser power")["value"]
        .as_f64();
    assert_eq!(played, Some(240.0));

    let mut recorded: Vec<(StreamId, u64)> = report
        .pieces
        .iter()
        .flat_map(|p| recorded_frames(&p.path))
        .map(|(_, f)| key(&f))
        .collect();
    let dropped: u64 = report.streams.values().map(|c| c.dropped).sum();
    assert_eq!(dropped, 0, "{:?}", report.streams);
    let fed: Vec<(StreamId, u64)> = fed.lock().iter().map(key).collect();
    let count = recorded.len();
    recorded.sort_unstable();
    recorded.dedup();
    assert_eq!(recorded.len(), count, "no frame is in two pieces");
    let mut fed_sorted = fed.clone();
    fed_sorted.sort_unstable();
    assert_eq!(recorded, fed_sorted, "every frame fed is in a piece");
}
