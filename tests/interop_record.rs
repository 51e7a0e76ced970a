//! Bags recorded by rsbag play in the real librealsense 2.55
//! (pyrealsense2) with the same device, streams and frames rsbag fed the
//! recorder, and read in `rosbags` with librealsense's md5sums.

use crate::common;

use common::FrameLine;

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use parking_lot::Mutex;
use rsbag::device::synthetic::{self, SyntheticConfig, SyntheticDevice};
use rsbag::device::{Device, Frame, Notification, StreamId, StreamProfile};
use rsbag::record::{RecordOptions, Recorder};
use rsbag::recording::FrameReader;
use rsbag::storage::bag::Compression;
use serde_json::Value;

struct Session {
    camera: Arc<SyntheticDevice>,
    /// Frames fed to the recorder, and whether the recorder was paused.
    fed: Vec<(Frame, bool)>,
}

/// The synthetic camera with small video frames (64x48), and its default
/// profiles of `streams`.
fn small_camera(streams: &[StreamId]) -> (Arc<SyntheticDevice>, Vec<StreamProfile>) {
    let config = SyntheticConfig {
        depth: (64, 48, 30),
        color: (64, 48, 30),
        ..SyntheticConfig::default()
    };
    let camera = Arc::new(SyntheticDevice::new(config).expect("camera"));
    let wanted = streams
        .iter()
        .filter_map(|s| camera.default_profile(*s))
        .collect();
    (camera, wanted)
}

/// Record the synthetic camera (depth, color, two IR, accel, gyro), with a
/// pause, an option change and a notification in the middle.
fn record(path: &Path, compression: Compression) -> Session {
    let (camera, wanted) = small_camera(&[
        synthetic::DEPTH,
        synthetic::COLOR,
        synthetic::INFRARED_1,
        synthetic::INFRARED_2,
        synthetic::ACCEL,
        synthetic::GYRO,
    ]);
    let recorder = Recorder::new(
        path,
        camera.clone(),
        RecordOptions::default().compression(compression),
    )
    .expect("recorder");
    let paused = Arc::new(AtomicBool::new(false));
    let fed: Arc<Mutex<Vec<(Frame, bool)>>> = Arc::default();
    common::open_and_start(&recorder, &wanted, || {
        let (fed, paused) = (fed.clone(), paused.clone());
        Arc::new(move |f| fed.lock().push((f, paused.load(Ordering::SeqCst))))
    });
    std::thread::sleep(Duration::from_millis(500));
    recorder.sensors()[0]
        .set_option("Laser Power", 270.0)
        .expect("option");
    camera
        .raise_notification(
            0,
            Notification {
                category: "Hardware Error".into(),
                severity: "Error".into(),
                description: "planted by the interop test".into(),
                timestamp: 1_700_000_000_000.0,
                serialized_data: "{\"code\": 7}".into(),
            },
        )
        .expect("notification");
    std::thread::sleep(Duration::from_millis(200));
    paused.store(true, Ordering::SeqCst);
    recorder.pause();
    std::thread::sleep(Duration::from_millis(400));
    recorder.resume();
    paused.store(false, Ordering::SeqCst);
    std::thread::sleep(Duration::from_millis(400));
    recorder.finish().expect("finish");
    let fed = std::mem::take(&mut *fed.lock());
    Session { camera, fed }
}

/// The frames librealsense 2.55 plays from `path` and those rsbag's frame
/// reader reads, in the order `rs_play.py` lists them.
fn played_by_both(path: &Path) -> (Vec<FrameLine>, Vec<FrameLine>) {
    let played = common::python("rs_play.py", &[path.to_str().expect("utf-8 path")]);
    let reader = FrameReader::open(path).expect("open the recording");
    let ours = reader
        .frames()
        .expect("frames")
        .map(|f| FrameLine::of(&f.expect("every frame reads").frame))
        .collect();
    (
        FrameLine::parse_jsonl(&played),
        FrameLine::sorted_like_rs_play(ours),
    )
}

#[test]
fn librealsense_plays_every_recorded_frame_unaltered() {
    for compression in [Compression::Lz4, Compression::None] {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("rsbag.bag");
        let session = record(&path, compression);
        let (played, ours) = played_by_both(&path);
        assert_eq!(
            ours, played,
            "{compression}: rsbag and librealsense play the same frames"
        );

        let played: BTreeMap<_, _> = played.into_iter().map(|l| (l.key(), l)).collect();
        let mut missing_outside_pause = Vec::new();
        for (frame, paused) in &session.fed {
            let fed = FrameLine::of(frame);
            match played.get(&fed.key()) {
                Some(line) => {
                    assert!(
                        !paused || is_pause_edge(frame, &session),
                        "{compression}: a frame fed while paused was played: {fed:?}"
                    );
                    assert_eq!(
                        (&line.domain, line.size, &line.sha256),
                        (&fed.domain, fed.size, &fed.sha256),
                        "{fed:?}"
                    );
                    assert!(
                        (line.timestamp - fed.timestamp).abs() < 1e-6,
                        "{} vs {}",
                        line.timestamp,
                        fed.timestamp
                    );
                }
                None if !paused && !is_pause_edge(frame, &session) => {
                    missing_outside_pause.push(fed)
                }
                None => {}
            }
        }
        assert!(
            missing_outside_pause.is_empty(),
            "{compression}: librealsense lost {missing_outside_pause:?}"
        );
        assert!(played.len() > 100, "{} frames", played.len());
        assert!(
            played.keys().all(|k| session
                .fed
                .iter()
                .any(|(f, _)| FrameLine::of(f).key() == *k)),
            "no invented frames"
        );
    }
}

/// Frames large enough to be spliced into their chunks by reference (the
/// chunk's LZ4 frame then has short blocks where the pixels begin and
/// end): librealsense 2.55 (roslz4) plays every one unaltered, and
/// rosbags (Python's lz4) reads every message as rsbag does.
#[test]
fn spliced_frames_play_in_librealsense_and_read_in_rosbags() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("rsbag.bag");
    let config = SyntheticConfig {
        depth: (320, 240, 30),
        color: (320, 240, 30),
        ..SyntheticConfig::default()
    };
    let camera = Arc::new(SyntheticDevice::new(config).expect("camera"));
    let streams = [synthetic::DEPTH, synthetic::COLOR, synthetic::ACCEL];
    let wanted: Vec<_> = (streams.iter())
        .filter_map(|s| camera.default_profile(*s))
        .collect();
    let recorder =
        Recorder::new(&path, camera.clone(), RecordOptions::default()).expect("recorder");
    let fed: Arc<Mutex<Vec<Frame>>> = Arc::default();
    common::open_and_start(&recorder, &wanted, || {
        let fed = fed.clone();
        Arc::new(move |f| fed.lock().push(f))
    });
    std::thread::sleep(Duration::from_millis(1200));
    recorder.finish().expect("finish");
    let fed: Vec<FrameLine> = fed.lock().iter().map(FrameLine::of).collect();
    assert!(
        fed.iter().any(|f| f.size >= 150_000),
        "frames above the splicing threshold"
    );

    let (played, ours) = played_by_both(&path);
    assert_eq!(ours, played, "rsbag and librealsense play the same frames");
    let mut played_keys: Vec<_> = played.iter().map(|l| l.key()).collect();
    let mut fed_keys: Vec<_> = fed.iter().map(|l| l.key()).collect();
    played_keys.sort();
    fed_keys.sort();
    assert_eq!(played_keys, fed_keys, "every frame fed is played, once");
    for line in &played {
        let fed = fed.iter().find(|f| f.key() == line.key()).expect("fed");
        assert_eq!(
            (line.size, &line.sha256),
            (fed.size, &fed.sha256),
            "{fed:?}"
        );
    }

    let dump: Value = serde_json::from_str(&common::python(
        "rosbags_dump.py",
        &[path.to_str().expect("path"), "--deserialize"],
    ))
    .expect("dump");
    let theirs: Vec<(u64, String)> = (dump["messages"].as_array().expect("messages").iter())
        .map(|m| {
            let time = m["time"].as_u64().expect("time");
            (time, m["sha256"].as_str().expect("sha256").to_owned())
        })
        .collect();
    use sha2::{Digest, Sha256};
    let bag = rsbag::storage::bag::Bag::open(&path).expect("bag");
    let mut ours: Vec<(u64, String)> = (bag.messages())
        .map(|m| {
            let m = m.expect("message");
            let sha: String = (Sha256::digest(&m.data).iter())
                .map(|b| format!("{b:02x}"))
                .collect();
            (m.time, sha)
        })
        .collect();
    let mut theirs = theirs;
    ours.sort();
    theirs.sort();
    assert_eq!(ours.len(), theirs.len());
    assert!(ours == theirs, "rosbags reads the bytes rsbag reads");
}

/// Frames within one frame period of a pause boundary may fall on either
/// side (the flag and the recorder's pause are two atomic steps).
fn is_pause_edge(frame: &Frame, session: &Session) -> bool {
    let same_stream: Vec<&(Frame, bool)> = session
        .fed
        .iter()
        .filter(|(f, _)| f.profile.stream == frame.profile.stream)
        .collect();
    let i = same_stream
        .iter()
        .position(|(f, _)| f.number == frame.number)
        .unwrap_or(0);
    let around = &same_stream[i.saturating_sub(1)..(i + 2).min(same_stream.len())];
    around.iter().any(|(_, p)| *p) && around.iter().any(|(_, p)| !*p)
}

#[test]
fn librealsense_sees_the_recorded_device() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("rsbag.bag");
    let session = record(&path, Compression::Lz4);
    let camera = &session.camera;
    let json: Value = serde_json::from_str(&common::python(
        "rs_play.py",
        &[path.to_str().expect("path"), "--device-json"],
    ))
    .expect("device JSON");

    for (key, value) in camera.info().iter() {
        assert_eq!(
            json["camera_info"][key].as_str(),
            Some(value),
            "device camera info {key}"
        );
    }
    let sensors = json["sensors"].as_array().expect("sensors");
    assert_eq!(sensors.len(), camera.sensors().len());
    let mut profiles_by_key = HashMap::new();
    for (theirs, ours) in sensors.iter().zip(camera.sensors()) {
        assert_eq!(theirs["name"].as_str(), Some(ours.name().as_str()));
        for option in ours.options() {
            let played = theirs["options"]
                .as_array()
                .expect("options")
                .iter()
                .find(|o| o["option"] == option.name);
            let played = played
                .unwrap_or_else(|| panic!("option {} of {} missing", option.name, ours.name()));
            let value = played["value"].as_f64().expect("value") as f32;
            // Laser Power changed mid-recording (from its default); the
            // description holds the value at the start.
            let at_start = if option.name == "Laser Power" {
                option.range.default
            } else {
                option.value
            };
            assert_eq!(value, at_start, "{}", option.name);
            assert_eq!(
                played["description"].as_str(),
                Some(option.description.as_str())
            );
        }
        for theirs in theirs["profiles"].as_array().expect("profiles") {
            let stream = format!(
                "{} {}",
                theirs["stream"].as_str().expect("stream"),
                theirs["index"]
            );
            let ours = ours
                .profiles()
                .into_iter()
                .find(|p| p.stream.to_string() == stream && p.is_default)
                .unwrap_or_else(|| panic!("librealsense has a {stream} profile we did not record"));
            common::check_profile(theirs, &ours, &stream);
            profiles_by_key.insert(theirs["key"].as_str().expect("key").to_owned(), ours.stream);
        }
    }
    assert_eq!(profiles_by_key.len(), 6, "one profile per recorded stream");
    let pairs = json["extrinsics"].as_array().expect("extrinsics");
    assert_eq!(pairs.len(), 6 * 5, "extrinsics between every pair");
    for pair in pairs {
        let from = profiles_by_key[pair["from"].as_str().expect("from")];
        let to = profiles_by_key[pair["to"].as_str().expect("to")];
        let ours = camera.extrinsics(from, to).expect("camera extrinsics");
        for (k, v) in ours.rotation.iter().enumerate() {
            assert!(
                (pair["rotation"][k].as_f64().expect("rotation") as f32 - v).abs() < 1e-5,
                "{from} -> {to} rotation"
            );
        }
        for (k, v) in ours.translation.iter().enumerate() {
            assert!(
                (pair["translation"][k].as_f64().expect("translation") as f32 - v).abs() < 1e-6,
                "{from} -> {to} translation"
            );
        }
    }
}

#[test]
fn librealsense_replays_the_option_change_and_the_notification() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("rsbag.bag");
    let session = record(&path, Compression::Lz4);
    let json: Value = serde_json::from_str(&common::python(
        "rs_events.py",
        &[path.to_str().expect("path"), "--option", "Laser Power"],
    ))
    .expect("events JSON");
    let notes = json["notifications"].as_array().expect("notifications");
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert_eq!(notes[0]["description"], "planted by the interop test");
    assert_eq!(notes[0]["category"], "Hardware Error");
    // pyrealsense2 2.55 answers `get_serialized_data()` with the severity
    // (a binding slip), so the serialized data is checked through rsbag.
    let recording = rsbag::recording::Recording::open(&path).expect("recording");
    let ours: Vec<Notification> = recording
        .events(..)
        .filter_map(|e| match e.expect("event").event {
            rsbag::recording::Event::Notification { notification, .. } => Some(notification),
            _ => None,
        })
        .collect();
    assert_eq!(ours.len(), 1);
    assert_eq!(ours[0].serialized_data, "{\"code\": 7}");
    assert_eq!(notes[0]["sensor"], 0);
    // Depth frames: the value is the starting one until the change, 270 after.
    let start = session.camera.sensors()[0]
        .options()
        .into_iter()
        .find(|o| o.name == "Laser Power")
        .expect("laser")
        .range
        .default;
    let depth: Vec<f64> = json["option_values"]
        .as_array()
        .expect("values")
        .iter()
        .filter(|v| v["stream"] == "Depth")
        .map(|v| v["value"].as_f64().expect("value"))
        .collect();
    let first_changed = depth
        .iter()
        .position(|&v| v == 270.0)
        .expect("the change is replayed");
    assert!(
        first_changed > 5,
        "the change comes mid-recording, after frame {first_changed}"
    );
    assert!(depth[..first_changed]
        .iter()
        .all(|&v| v == f64::from(start)));
    assert!(depth[first_changed..].iter().all(|&v| v == 270.0));
}

/// md5sums librealsense writes, per type: from the reference connection
/// list, and from a bag written by librealsense 2.55 with motion streams.
fn librealsense_md5sums() -> HashMap<String, String> {
    let mut md5s = common::reference_md5sums();
    let motion = common::root().join("tests/fixtures/librealsense-2.55.1-motion.bag");
    let dump: Value = serde_json::from_str(&common::python(
        "rosbags_dump.py",
        &[motion.to_str().expect("path")],
    ))
    .expect("dump");
    for c in dump["connections"].as_array().expect("connections") {
        md5s.insert(
            c["msgtype"].as_str().expect("type").into(),
            c["md5sum"].as_str().expect("md5").into(),
        );
    }
    md5s
}

#[test]
fn rosbags_reads_every_message_with_librealsense_md5sums() {
    let md5s = librealsense_md5sums();
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("rsbag.bag");
    record(&path, Compression::Lz4);
    let dump: Value = serde_json::from_str(&common::python(
        "rosbags_dump.py",
        &[path.to_str().expect("path"), "--deserialize"],
    ))
    .expect("dump");
    for c in dump["connections"].as_array().expect("connections") {
        let msgtype = c["msgtype"].as_str().expect("type");
        let expected = md5s
            .get(msgtype)
            .unwrap_or_else(|| panic!("no librealsense md5 known for {msgtype}"));
        assert_eq!(
            c["md5sum"].as_str(),
            Some(expected.as_str()),
            "{msgtype} on {}",
            c["topic"]
        );
    }
    let bag = rsbag::storage::bag::Bag::open(&path).expect("bag");
    assert_eq!(
        dump["message_count"].as_u64(),
        Some(bag.total_message_count())
    );
}

/// A sensor stopped and started again mid-recording (the motion module and
/// the colour camera) plays in librealsense 2.55 with every frame exactly
/// once, as rsbag lists them and as the camera delivered them; starting it
/// again with another mode is refused.
#[test]
fn a_sensor_started_again_plays_every_frame_once_in_librealsense() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("restarted.bag");
    let (camera, wanted) = small_camera(&[
        synthetic::DEPTH,
        synthetic::COLOR,
        synthetic::ACCEL,
        synthetic::GYRO,
    ]);
    let recorder =
        Recorder::new(&path, camera.clone(), RecordOptions::default()).expect("recorder");
    let fed: Arc<Mutex<Vec<Frame>>> = Arc::default();
    let feeder = || {
        let fed = fed.clone();
        Arc::new(move |f: Frame| fed.lock().push(f)) as rsbag::device::FrameCallback
    };
    common::open_and_start(&recorder, &wanted, feeder);
    std::thread::sleep(Duration::from_millis(400));
    let restarted: Vec<_> = recorder
        .sensors()
        .into_iter()
        .filter(|s| matches!(s.name().as_str(), "Motion Module" | "RGB Camera"))
        .collect();
    assert_eq!(restarted.len(), 2);
    for sensor in &restarted {
        sensor.stop().expect("stop");
    }
    std::thread::sleep(Duration::from_millis(200));
    for sensor in &restarted {
        let again: Vec<StreamProfile> = sensor
            .profiles()
            .into_iter()
            .filter(|p| wanted.iter().any(|w| w.unique_id == p.unique_id))
            .collect();
        // Another mode of the same stream cannot go into this recording.
        if let Some(other) = sensor
            .profiles()
            .into_iter()
            .find(|p| p.stream == again[0].stream && !p.same_mode(&again[0]))
        {
            sensor.open(&[other]).expect("open another mode");
            let refused = sensor
                .start(feeder())
                .expect_err("a changed mode is refused");
            assert!(refused.to_string().contains("cannot change"), "{refused}");
        }
        sensor.open(&again).expect("open again");
        sensor.start(feeder()).expect("start again");
    }
    std::thread::sleep(Duration::from_millis(400));
    let report = recorder.finish().expect("finish");
    let dropped: u64 = report.streams.values().map(|c| c.dropped).sum();
    assert_eq!(dropped, 0);

    let (played, ours) = played_by_both(&path);
    assert!(
        ours == played,
        "rsbag and librealsense play the same frames, each once: {} and {} lines",
        ours.len(),
        played.len()
    );
    // Each frame the camera delivered is played once: the same multiset
    // (a restarted synthetic sensor counts from 1 again and repeats its
    // first frames, so equal frames are counted, not told apart).
    let lines = played;
    let identity = |l: &FrameLine| (l.key(), l.sha256.clone());
    let mut played_frames: Vec<_> = lines.iter().map(identity).collect();
    let mut fed_frames: Vec<_> = fed
        .lock()
        .iter()
        .map(|f| identity(&FrameLine::of(f)))
        .collect();
    played_frames.sort();
    fed_frames.sort();
    assert_eq!(
        played_frames.len(),
        fed_frames.len(),
        "frames played once each"
    );
    assert!(
        played_frames == fed_frames,
        "the frames delivered, each once"
    );
    let motion = lines
        .iter()
        .filter(|l| l.stream == "Gyro" || l.stream == "Accel")
        .count();
    assert!(motion > 100, "{motion} motion frames");
}
