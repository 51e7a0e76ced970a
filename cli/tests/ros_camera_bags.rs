//! Camera bags recorded from ROS play as a device: bags written by the
//! rosbags library (tests/interop/ros_camera_bag.py) in the RealSense ROS
//! wrapper's layout, as a ROS1 `.bag` and as rosbag2 (sqlite3, MCAP), give
//! every frame with the bytes written; librealsense 2.59 and rsbag play the
//! same frames from a "native ROS2" `.db3`; bad bags get clear errors.

use crate::common;
use crate::run;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rsbag::device::{StreamId, StreamKind};
use rsbag::recording::Recording;
use serde_json::Value;
use sha2::{Digest, Sha256};

fn s(path: &Path) -> &str {
    path.to_str().expect("utf-8 path")
}

/// Write a camera bag; returns its path and what was written.
fn camera_bag(dir: &Path, format: &str, scenario: &str) -> (PathBuf, Value) {
    camera_bag_from(dir, format, scenario, "1700000000000000000")
}

/// [`camera_bag`] with its first message at `base_ns`.
fn camera_bag_from(dir: &Path, format: &str, scenario: &str, base_ns: &str) -> (PathBuf, Value) {
    let name = match format {
        "ros1" => format!("{scenario}.bag"),
        "db3" => format!("{scenario}.db3"),
        _ => format!("{scenario}_{format}_{base_ns}"),
    };
    let path = dir.join(name);
    let written = common::python(
        "ros_camera_bag.py",
        &[
            s(&path),
            "--format",
            format,
            "--scenario",
            scenario,
            "--base-ns",
            base_ns,
        ],
    );
    (path, serde_json::from_str(&written).expect("manifest"))
}

/// The stream a wrapper topic's folder stands for.
fn stream_of(topic: &str) -> (&'static str, u64) {
    let folder = topic.rsplit('/').nth(1).expect("folder");
    match folder {
        "color" => ("Color", 0),
        "depth" => ("Depth", 0),
        "infra1" => ("Infrared", 1),
        "infra2" => ("Infrared", 2),
        "gyro" => ("Gyro", 0),
        "accel" => ("Accel", 0),
        "odom" | "pose" => ("Pose", 0),
        other => panic!("unexpected folder {other}"),
    }
}

/// `rsbag frames --json`, per (stream, index).
fn played(path: &Path) -> BTreeMap<(String, u64), Vec<Value>> {
    let mut out: BTreeMap<(String, u64), Vec<Value>> = BTreeMap::new();
    for line in run::ok(&["frames", "--json", s(path)]).lines() {
        let frame: Value = serde_json::from_str(line).expect("frame line");
        let key = (
            frame["stream"].as_str().expect("stream").to_owned(),
            frame["stream_index"].as_u64().expect("stream_index"),
        );
        out.entry(key).or_default().push(frame);
    }
    out
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn f32_bytes(values: &Value) -> Vec<u8> {
    values
        .as_array()
        .expect("vector")
        .iter()
        .flat_map(|v| (v.as_f64().expect("number") as f32).to_le_bytes())
        .collect()
}

/// Every written image and IMU sample is played, in order, numbered from
/// 1, timestamped in ms since the bag's first message.
fn check_played(what: &str, written: &Value, played: &BTreeMap<(String, u64), Vec<Value>>) {
    let mut times: Vec<u64> = Vec::new();
    for stream in written["streams"].as_object().expect("streams").values() {
        times.extend(
            stream["frames"]
                .as_array()
                .expect("frames")
                .iter()
                .map(|f| f["time_ns"].as_u64().expect("t")),
        );
    }
    for samples in written["imu"].as_object().expect("imu").values() {
        times.extend(
            samples
                .as_array()
                .expect("samples")
                .iter()
                .map(|f| f["time_ns"].as_u64().expect("t")),
        );
    }
    // One camera of a bag of several counts from the bag's first message.
    let origin =
        (written["origin_ns"].as_u64()).unwrap_or_else(|| *times.iter().min().expect("messages"));
    let mut streams = 0;
    for (topic, stream) in written["streams"].as_object().expect("streams") {
        let (kind, index) = stream_of(topic);
        let ours = &played[&(kind.to_owned(), index)];
        let frames = stream["frames"].as_array().expect("frames");
        assert_eq!(ours.len(), frames.len(), "{what}: {topic}: frames");
        for (n, (ours, theirs)) in ours.iter().zip(frames).enumerate() {
            assert_eq!(ours["sha256"], theirs["sha256"], "{what}: {topic}: bytes");
            assert_eq!(ours["frame_number"], n as u64 + 1, "{what}: {topic}");
            let t = theirs["time_ns"].as_u64().expect("t");
            let ms = ours["timestamp"].as_f64().expect("timestamp");
            assert!(
                (ms - (t - origin) as f64 / 1e6).abs() < 1e-9,
                "{what}: {topic}: {ms}"
            );
            assert_eq!(ours["domain"], "System Time", "{what}");
        }
        streams += 1;
    }
    for (topic, samples) in written["imu"].as_object().expect("imu") {
        let (kind, index) = stream_of(topic);
        let field = if kind == "Gyro" {
            "angular_velocity"
        } else {
            "linear_acceleration"
        };
        let ours = &played[&(kind.to_owned(), index)];
        let samples = samples.as_array().expect("samples");
        assert_eq!(ours.len(), samples.len(), "{what}: {topic}: samples");
        for (ours, theirs) in ours.iter().zip(samples) {
            let want = hex(&Sha256::digest(f32_bytes(&theirs[field])));
            assert_eq!(ours["sha256"], want.as_str(), "{what}: {topic}: sample");
        }
        streams += 1;
    }
    if let Some(odometry) = written["odometry"].as_object() {
        for (topic, poses) in odometry {
            let (kind, index) = stream_of(topic);
            let ours = &played[&(kind.to_owned(), index)];
            assert_eq!(
                ours.len(),
                poses.as_array().expect("poses").len(),
                "{what}: {topic}"
            );
            streams += 1;
        }
    }
    assert_eq!(played.len(), streams, "{what}: streams {:?}", played.keys());
}

/// Odometry in the wrapper's axes (x forward, y left, z up) plays as
/// librealsense's T265 poses (x right, y up, z backward).
fn check_poses(what: &str, written: &Value, recording: &Recording) {
    let (_, poses) = written["odometry"]
        .as_object()
        .and_then(|o| o.iter().next())
        .expect("odometry");
    let pose_stream = StreamId::new(StreamKind::Pose, 0);
    let frames: Vec<rsbag::device::Pose> = recording
        .select()
        .streams([pose_stream])
        .controls(false)
        .events()
        .filter_map(|e| match e.expect("event").event {
            rsbag::recording::Event::Frame { frame, .. } => frame.pose(),
            _ => None,
        })
        .collect();
    let poses = poses.as_array().expect("poses");
    assert_eq!(frames.len(), poses.len(), "{what}");
    for (ours, theirs) in frames.iter().zip(poses) {
        let v = |k: &str, i: usize| theirs[k][i].as_f64().expect("number") as f32;
        let (x, y, z) = (v("position", 0), v("position", 1), v("position", 2));
        assert_eq!(ours.translation, [-y, z, -x], "{what}");
        let (qx, qy, qz, qw) = (
            v("orientation", 0),
            v("orientation", 1),
            v("orientation", 2),
            v("orientation", 3),
        );
        assert_eq!(ours.rotation, [-qy, qz, -qx, qw], "{what}");
    }
}

#[test]
fn wrapper_camera_bags_play_every_frame_from_ros1_sqlite3_and_mcap() {
    let dir = tempfile::tempdir().expect("tempdir");
    for format in ["ros1", "sqlite3", "mcap"] {
        let (path, written) = camera_bag(dir.path(), format, "wrapper");
        check_played(format, &written, &played(&path));
        let recording = Recording::open(&path).expect("open");
        assert!(recording.is_camera_bag());
        let color = StreamId::new(StreamKind::Color, 0);
        let depth = StreamId::new(StreamKind::Depth, 0);
        let intrinsics = recording.streams()[&color]
            .profile
            .intrinsics()
            .expect("intrinsics");
        assert_eq!(
            (intrinsics.fx, intrinsics.fy, intrinsics.ppx),
            (30.0, 31.0, 16.0),
            "{format}"
        );
        assert_eq!(
            intrinsics.model,
            rsbag::device::Distortion::BrownConrady,
            "{format}"
        );
        // /tf_static: colour 15 mm to the right of depth.
        let e = recording.extrinsics(depth, color).expect("extrinsics");
        let p = e.transform([0.0, 0.0, 1.0]);
        assert!(
            (p[0] + 0.015).abs() < 1e-6 && p[1].abs() < 1e-6 && (p[2] - 1.0).abs() < 1e-6,
            "{format}: {p:?}"
        );
        check_poses(format, &written, &recording);
        let check = run::ok(&["check", s(&path)]);
        assert!(check.contains("result:  OK"), "{format}: {check}");
    }
}

#[test]
fn a_camera_bag_whose_first_message_is_at_time_zero_plays_it() {
    // A RealSense recording keeps its description before 2 ns; a camera
    // bag has frames from zero on.
    let dir = tempfile::tempdir().expect("tempdir");
    let (path, written) = camera_bag_from(dir.path(), "mcap", "wrapper", "0");
    check_played("mcap from 0", &written, &played(&path));
}

#[test]
fn a_ros1_camera_bag_converts_to_ros2_that_rosbags_reads() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (bag, written) = camera_bag(dir.path(), "ros1", "wrapper");
    let out = dir.path().join("ros2");
    run::ok(&["convert", s(&bag), "--to", "ros2", "--out", s(&out)]);
    let read: Value =
        serde_json::from_str(&common::python("ros2_read.py", &[s(&out)])).expect("read");
    for (topic, stream) in written["streams"].as_object().expect("streams") {
        let folder = topic.rsplit('/').nth(1).expect("folder");
        let ours: Vec<&Value> = read["images"]
            .as_array()
            .expect("images")
            .iter()
            .filter(|i| {
                i["topic"]
                    .as_str()
                    .is_some_and(|t| t.contains(&format!("/{folder}/")))
            })
            .collect();
        let frames = stream["frames"].as_array().expect("frames");
        assert_eq!(ours.len(), frames.len(), "{topic}");
        for (ours, theirs) in ours.iter().zip(frames) {
            assert_eq!(ours["sha256"], theirs["sha256"], "{topic}");
            assert_eq!(ours["encoding"], stream["encoding"], "{topic}");
        }
    }
}

#[test]
fn librealsense_259_and_rsbag_play_the_same_frames_of_a_native_ros2_recording() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (db3, _) = camera_bag(dir.path(), "db3", "native");
    let theirs = common::python259("rs_play.py", &[s(&db3)]);
    assert!(theirs.lines().count() >= 4 * 6, "{theirs}");
    let ours = run::ok(&["frames", "--json", s(&db3)]);
    assert_eq!(ours, theirs);
}

/// How many frames, samples and poses were written.
fn written_count(written: &Value) -> usize {
    let images: usize = written["streams"]
        .as_object()
        .expect("streams")
        .values()
        .map(|s| s["frames"].as_array().expect("frames").len())
        .sum();
    let samples = |key: &str| -> usize {
        written[key].as_object().map_or(0, |o| {
            o.values().map(|s| s.as_array().expect("list").len()).sum()
        })
    };
    images + samples("imu") + samples("odometry")
}

#[test]
fn bad_camera_bags_get_clear_errors() {
    let dir = tempfile::tempdir().expect("tempdir");
    // Nothing a camera bag plays.
    let (path, _) = camera_bag(dir.path(), "sqlite3", "no-camera");
    let run = run::rsbag(&["frames", "--json", s(&path)]);
    assert_ne!(run.code, Some(0));
    assert!(
        run.stderr
            .contains("no sensor_msgs Image, Imu or Odometry topic"),
        "{}",
        run.stderr
    );
    // One image shorter than step x height: named, the rest plays.
    for format in ["ros1", "mcap"] {
        let (path, written) = camera_bag(dir.path(), format, "bad-size");
        let run = run::rsbag(&["frames", "--json", s(&path)]);
        assert_ne!(run.code, Some(0), "{format}");
        assert!(
            run.stderr.contains("depth/image_rect_raw"),
            "{format}: {}",
            run.stderr
        );
        assert!(
            run.stderr.contains("step x height"),
            "{format}: {}",
            run.stderr
        );
        let expected = written_count(&written) - 1;
        assert_eq!(run.stdout.lines().count(), expected, "{format}");
    }
    // No camera_info: plays, and info says what is missing.
    let (path, _) = camera_bag(dir.path(), "mcap", "no-info");
    let info = run::ok(&["info", s(&path)]);
    assert!(
        info.contains("color/image_raw: no camera_info beside it; intrinsics unknown"),
        "{info}"
    );
    assert!(run::ok(&["frames", "--json", s(&path)]).lines().count() > 0);
}

/// The sensor librealsense has each stream of a D435i-like camera on.
fn expected_sensor(stream: &str) -> &'static str {
    match stream {
        "Depth" | "Infrared" => "Stereo Module",
        "Color" => "RGB Camera",
        "Gyro" | "Accel" | "Motion" => "Motion Module",
        "Pose" => "Tracking Module",
        other => panic!("unexpected stream {other}"),
    }
}

/// librealsense's view of a converted file (`rs_play.py --device-json`):
/// every stream on the sensor librealsense has it on, the colour
/// intrinsics and the colour camera 15 mm right of depth as written, depth
/// in millimetres (Depth Units 0.001).
fn check_device(what: &str, device: &Value) {
    let sensors = device["sensors"].as_array().expect("sensors");
    let mut names = Vec::new();
    for sensor in sensors {
        let name = sensor["name"].as_str().expect("sensor name");
        names.push(name);
        for profile in sensor["profiles"].as_array().expect("profiles") {
            let stream = profile["stream"].as_str().expect("stream");
            assert_eq!(name, expected_sensor(stream), "{what}: {stream} on {name}");
            if stream == "Color" {
                let i = &profile["intrinsics"];
                assert_eq!(
                    (i["fx"].as_f64(), i["fy"].as_f64(), i["ppx"].as_f64()),
                    (Some(30.0), Some(31.0), Some(16.0)),
                    "{what}: colour intrinsics"
                );
            }
        }
        if name == "Stereo Module" {
            let units = sensor["options"]
                .as_array()
                .expect("options")
                .iter()
                .find(|o| o["option"] == "Depth Units")
                .unwrap_or_else(|| panic!("{what}: no Depth Units: {sensor}"));
            let value = units["value"].as_f64().expect("depth units");
            assert!((value - 0.001).abs() < 1e-9, "{what}: depth units {value}");
        }
    }
    for module in ["Stereo Module", "RGB Camera", "Motion Module"] {
        assert_eq!(
            names.iter().filter(|n| **n == module).count(),
            1,
            "{what}: sensors {names:?}"
        );
    }
    let depth_to_color = device["extrinsics"]
        .as_array()
        .expect("extrinsics")
        .iter()
        .find(|e| {
            e["from"].as_str().is_some_and(|k| k.contains(":Depth_0:"))
                && e["to"].as_str().is_some_and(|k| k.contains(":Color_0:"))
        })
        .expect("depth to colour");
    let t: Vec<f64> = depth_to_color["translation"]
        .as_array()
        .unwrap_or_else(|| panic!("{what}: no depth-to-colour extrinsics"))
        .iter()
        .map(|v| v.as_f64().expect("number"))
        .collect();
    assert!(
        (t[0] + 0.015).abs() < 1e-6 && t[1].abs() < 1e-6 && t[2].abs() < 1e-6,
        "{what}: depth to colour {t:?}"
    );
}

/// Frames as `rs_play.py` prints them, per (stream, index).
fn by_stream(lines: &str) -> BTreeMap<(String, u64), Vec<Value>> {
    let mut out: BTreeMap<(String, u64), Vec<Value>> = BTreeMap::new();
    for line in lines.lines() {
        let frame: Value = serde_json::from_str(line).expect("frame line");
        let key = (
            frame["stream"].as_str().expect("stream").to_owned(),
            frame["stream_index"].as_u64().expect("stream_index"),
        );
        out.entry(key).or_default().push(frame);
    }
    out
}

/// A converted file's bag times are librealsense's: the description at
/// zero, each frame at its message's time since the bag's first message
/// (not ROS's wall-clock times).
fn check_bag_times(what: &str, written: &Value, path: &Path) {
    let mut times: BTreeMap<(String, u64), Vec<u64>> = BTreeMap::new();
    let mut origin = u64::MAX;
    for (topic, stream) in written["streams"].as_object().expect("streams") {
        let (kind, index) = stream_of(topic);
        for f in stream["frames"].as_array().expect("frames") {
            let t = f["time_ns"].as_u64().expect("t");
            origin = origin.min(t);
            times.entry((kind.into(), index)).or_default().push(t);
        }
    }
    for (topic, samples) in written["imu"].as_object().expect("imu") {
        let (kind, index) = stream_of(topic);
        for f in samples.as_array().expect("samples") {
            let t = f["time_ns"].as_u64().expect("t");
            origin = origin.min(t);
            times.entry((kind.into(), index)).or_default().push(t);
        }
    }
    let recording = Recording::open(path).expect("open the converted file");
    assert!(!recording.is_camera_bag(), "{what}");
    let mut ours: BTreeMap<(String, u64), Vec<u64>> = BTreeMap::new();
    for event in recording.select().controls(false).events() {
        let event = event.expect("event");
        if let rsbag::recording::Event::Frame { frame, .. } = event.event {
            let s = frame.profile.stream;
            ours.entry((s.kind.to_string(), u64::from(s.index)))
                .or_default()
                .push(event.time.as_nanos());
        }
    }
    for (key, written) in times {
        // librealsense's first event time is 2 ns: earlier is description.
        let want: Vec<u64> = written.iter().map(|t| (t - origin).max(2)).collect();
        assert_eq!(ours.get(&key), Some(&want), "{what}: {key:?} bag times");
    }
}

#[test]
fn wrapper_camera_bags_convert_to_files_librealsense_plays_whole() {
    let dir = tempfile::tempdir().expect("tempdir");
    for format in ["ros1", "sqlite3", "mcap"] {
        let (path, written) = camera_bag(dir.path(), format, "wrapper");
        // librealsense 2.55 plays a .bag: every image, IMU sample and pose.
        let bag = dir.path().join(format!("{format}.bag"));
        run::ok(&["convert", s(&path), "--to", "bag", "--out", s(&bag)]);
        let what = format!("{format} --to bag, librealsense 2.55");
        check_bag_times(&what, &written, &bag);
        check_played(
            &what,
            &written,
            &by_stream(&common::python("rs_play.py", &[s(&bag)])),
        );
        let device: Value =
            serde_json::from_str(&common::python("rs_play.py", &[s(&bag), "--device-json"]))
                .expect("device");
        check_device(&what, &device);
        // librealsense 2.59 plays a .db3 (without the pose stream, which
        // it cannot open).
        let db3 = dir.path().join(format!("{format}.db3"));
        run::ok(&["convert", s(&path), "--to", "db3", "--out", s(&db3)]);
        let what = format!("{format} --to db3, librealsense 2.59");
        let mut without_pose = written.clone();
        without_pose
            .as_object_mut()
            .expect("manifest")
            .remove("odometry");
        check_bag_times(&what, &without_pose, &db3);
        check_played(
            &what,
            &without_pose,
            &by_stream(&common::python259("rs_play.py", &[s(&db3)])),
        );
        let device: Value = serde_json::from_str(&common::python259(
            "rs_play.py",
            &[s(&db3), "--device-json"],
        ))
        .expect("device");
        check_device(&what, &device);
    }
}

/// The frames librealsense 2.59 plays from a `.db3` converted from a
/// "native ROS2" camera bag (colour, depth, infra1 and one combined
/// `sensor_msgs/Imu` topic), with what was written and the device
/// librealsense sees.
fn native_converted_to_db3(dir: &Path) -> (PathBuf, Value, BTreeMap<(String, u64), Vec<Value>>) {
    let (path, written) = camera_bag(dir, "db3", "native");
    let db3 = dir.join("native-converted.db3");
    run::ok(&["convert", s(&path), "--to", "db3", "--out", s(&db3)]);
    let played = by_stream(&common::python259("rs_play.py", &[s(&db3)]));
    (path, written, played)
}

#[test]
fn a_combined_imu_converts_to_a_db3_whose_motion_module_librealsense_259_plays() {
    // (librealsense 2.55 cannot play a combined IMU stream from a .bag at
    // all: "Unknown stream type when resolving ros type: 10", and its
    // playback stops at that stream's first frame.)
    let dir = tempfile::tempdir().expect("tempdir");
    let (_, written, played) = native_converted_to_db3(dir.path());
    for (topic, stream) in written["streams"].as_object().expect("streams") {
        let (kind, index) = stream_of(topic);
        let theirs: Vec<&Value> = stream["frames"]
            .as_array()
            .expect("frames")
            .iter()
            .map(|f| &f["sha256"])
            .collect();
        let ours: Vec<&Value> = played[&(kind.to_owned(), index)]
            .iter()
            .map(|f| &f["sha256"])
            .collect();
        assert_eq!(ours, theirs, "{topic}");
    }
    let (topic, samples) = written["imu"]
        .as_object()
        .and_then(|o| o.iter().next())
        .expect("imu");
    let motion = &played[&("Motion".to_owned(), 0)];
    assert_eq!(
        motion.len(),
        samples.as_array().expect("samples").len(),
        "{topic}"
    );
    let db3 = dir.path().join("native-converted.db3");
    let device: Value = serde_json::from_str(&common::python259(
        "rs_play.py",
        &[s(&db3), "--device-json"],
    ))
    .expect("device");
    let mut names = Vec::new();
    for sensor in device["sensors"].as_array().expect("sensors") {
        let name = sensor["name"].as_str().expect("name");
        names.push(name);
        for profile in sensor["profiles"].as_array().expect("profiles") {
            let stream = profile["stream"].as_str().expect("stream");
            assert_eq!(name, expected_sensor(stream), "{stream} on {name}");
        }
    }
    assert_eq!(names, ["Stereo Module", "RGB Camera", "Motion Module"]);
}

#[test]
fn a_combined_imu_converted_to_a_db3_keeps_its_values() {
    // librealsense 2.59 plays the same combined samples from the converted
    // file as from the camera bag itself.
    let dir = tempfile::tempdir().expect("tempdir");
    let (source, _, played) = native_converted_to_db3(dir.path());
    let theirs = by_stream(&common::python259("rs_play.py", &[s(&source)]));
    let key = ("Motion".to_owned(), 0);
    let sha =
        |frames: &[Value]| -> Vec<Value> { frames.iter().map(|f| f["sha256"].clone()).collect() };
    assert_eq!(sha(&played[&key]), sha(&theirs[&key]));
}

#[test]
fn a_combined_imu_converts_to_a_bag_whose_gyro_and_accel_librealsense_255_plays() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (path, written) = camera_bag(dir.path(), "db3", "native");
    let bag = dir.path().join("native.bag");
    let said = run::ok(&["convert", s(&path), "--to", "bag", "--out", s(&bag)]);
    assert!(
        said.contains("Motion 0 written as gyro and accel"),
        "{said}"
    );
    let played = by_stream(&common::python("rs_play.py", &[s(&bag)]));
    assert!(!played.contains_key(&("Motion".to_owned(), 0)));
    for (topic, stream) in written["streams"].as_object().expect("streams") {
        let theirs: Vec<&Value> = stream["frames"]
            .as_array()
            .expect("frames")
            .iter()
            .map(|f| &f["sha256"])
            .collect();
        let (kind, index) = stream_of(topic);
        let ours: Vec<&Value> = played[&(kind.to_owned(), index)]
            .iter()
            .map(|f| &f["sha256"])
            .collect();
        assert_eq!(ours, theirs, "{topic}: every image plays");
    }
    let (topic, samples) = written["imu"]
        .as_object()
        .and_then(|o| o.iter().next())
        .expect("imu");
    let samples = samples.as_array().expect("samples");
    let combined = &self::played(&path)[&("Motion".to_owned(), 0)];
    for (kind, field) in [
        ("Gyro", "angular_velocity"),
        ("Accel", "linear_acceleration"),
    ] {
        let ours = &played[&(kind.to_owned(), 0)];
        assert_eq!(ours.len(), samples.len(), "{topic}: {kind} samples");
        for ((ours, theirs), sample) in ours.iter().zip(samples).zip(combined) {
            let want = hex(&Sha256::digest(f32_bytes(&theirs[field])));
            assert_eq!(ours["sha256"], want.as_str(), "{topic}: {kind} values");
            let (t, want) = (&ours["timestamp"], &sample["timestamp"]);
            let close = (t.as_f64().expect("ms") - want.as_f64().expect("ms")).abs() < 1e-6;
            assert!(close, "{topic}: {kind} at {t}, not {want}");
            assert_eq!(
                ours["frame_number"], sample["frame_number"],
                "{topic}: {kind}"
            );
        }
    }
}

/// Write a camera bag of image_transport topics (`ros_camera_bag.py
/// --scenario compressed|damaged-compressed`, OpenCV's encoder) with the
/// plugin subscriber's decode of each frame in `<dir>/<name>-ref/`.
fn compressed_bag(
    dir: &Path,
    format: &str,
    scenario: &str,
    codecs: &[&str],
) -> (PathBuf, PathBuf, Value) {
    let name = format!("{scenario}-{format}-{}", codecs.join("-")).replace(['/', ','], "_");
    let path = match format {
        "ros1" => dir.join(format!("{name}.bag")),
        _ => dir.join(&name),
    };
    let reference = dir.join(format!("{name}-ref"));
    let mut args = vec![
        s(&path),
        "--format",
        format,
        "--scenario",
        scenario,
        "--size",
        COMPRESSED_SIZE,
        "--reference",
        s(&reference),
    ];
    args.extend_from_slice(codecs);
    let written = common::python("ros_camera_bag.py", &args);
    (
        path,
        reference,
        serde_json::from_str(&written).expect("manifest"),
    )
}

/// Not a multiple of JPEG's 16-pixel blocks: the edges are decoded too.
const COMPRESSED_SIZE: &str = "66x50";

/// The largest difference of a sample of a JPEG decoded by rsbag
/// (zune-jpeg) from OpenCV's (libjpeg-turbo) decode of the same bytes: the
/// two are conforming decoders (ITU T.81 allows each IDCT output ±1 off the
/// reference) that also upsample 4:2:0 chroma in their own way (measured
/// at most 4 on these frames, 7 on the 32x24 frames of Python's test).
const JPEG_DECODERS_DIFFER_BY: u8 = 8;

/// Each stream's frames as rsbag decodes them, per (stream, index).
fn decoded(path: &Path) -> BTreeMap<(String, u64), Vec<rsbag::device::Frame>> {
    decoded_of(&Recording::open(path).expect("open"))
}

/// [`decoded`] of an opened recording.
fn decoded_of(recording: &Recording) -> BTreeMap<(String, u64), Vec<rsbag::device::Frame>> {
    let mut out: BTreeMap<(String, u64), Vec<rsbag::device::Frame>> = BTreeMap::new();
    for event in recording.select().controls(false).events() {
        if let rsbag::recording::Event::Frame { frame, .. } = event.expect("event").event {
            let s = frame.profile.stream;
            out.entry((s.kind.to_string(), u64::from(s.index)))
                .or_default()
                .push(frame);
        }
    }
    out
}

/// Every frame of every compressed topic equals the plugin subscriber's
/// decode (OpenCV's imdecode): PNG and depth bit for bit, JPEG within
/// [`JPEG_DECODERS_DIFFER_BY`]; returns the largest JPEG difference and
/// the share of JPEG samples that differ at all.
fn check_decoded(what: &str, written: &Value, reference: &Path, path: &Path) -> (u8, f64) {
    check_frames_decoded(what, written, reference, &decoded(path), &played(path))
}

/// [`check_decoded`] of frames decoded (`ours`) and listed by `frames
/// --json` (`frames_json`).
fn check_frames_decoded(
    what: &str,
    written: &Value,
    reference: &Path,
    ours: &BTreeMap<(String, u64), Vec<rsbag::device::Frame>>,
    frames_json: &BTreeMap<(String, u64), Vec<Value>>,
) -> (u8, f64) {
    let (mut worst, mut differing, mut samples) = (0u8, 0usize, 0usize);
    for (topic, stream) in written["streams"].as_object().expect("streams") {
        let folder = topic.split('/').rev().nth(2).expect("folder");
        let (kind, index) = stream_of(&format!("/{folder}/x"));
        let key = (kind.to_owned(), index);
        let frames = stream["frames"].as_array().expect("frames");
        let mine = &ours[&key];
        assert_eq!(mine.len(), frames.len(), "{what}: {topic}: frames");
        let want = std::fs::read(reference.join(format!("{folder}.raw"))).expect("reference");
        let size = want.len() / frames.len();
        let jpeg = stream["codec"] == "jpeg";
        for (n, (frame, theirs)) in mine.iter().zip(frames).enumerate() {
            let (w, h) = frame.resolution().expect("video");
            assert_eq!(frame.data.len(), size, "{what}: {topic}: {w}x{h}");
            assert_eq!(frame.number, n as u64 + 1, "{what}: {topic}");
            let reference = &want[n * size..(n + 1) * size];
            if jpeg {
                for (a, b) in frame.data.iter().zip(reference) {
                    let d = a.abs_diff(*b);
                    worst = worst.max(d);
                    differing += usize::from(d != 0);
                }
                samples += size;
            } else {
                assert!(
                    frame.data[..] == reference[..],
                    "{what}: {topic}: frame {n} differs from OpenCV's"
                );
                assert_eq!(frames_json[&key][n]["sha256"], theirs["sha256"], "{what}");
            }
        }
    }
    assert!(
        worst <= JPEG_DECODERS_DIFFER_BY,
        "{what}: a JPEG sample {worst} off OpenCV's"
    );
    (worst, differing as f64 / samples.max(1) as f64)
}

#[test]
fn compressed_camera_bags_decode_as_opencv_does_from_ros1_sqlite3_and_mcap() {
    let dir = tempfile::tempdir().expect("tempdir");
    let cases: [(&str, &[&str], [&str; 4]); 3] = [
        (
            "sqlite3",
            &["--color-codec", "jpeg", "--depth-codec", "png"],
            ["RGB8", "Z16", "Y8", "Y8"],
        ),
        (
            "ros1",
            &["--color-codec", "bare-jpeg", "--depth-codec", "rvl"],
            ["BGR8", "Z16", "Y8", "Y8"],
        ),
        (
            "mcap",
            &[
                "--color-codec",
                "png",
                "--depth-codec",
                "rvl",
                "--depth-encoding",
                "32FC1",
            ],
            ["RGB8", "DISTANCE", "Y8", "Y8"],
        ),
    ];
    for (format, codecs, formats) in cases {
        let (path, reference, written) = compressed_bag(dir.path(), format, "compressed", codecs);
        let what = format!("{format} {codecs:?}");
        if format == "sqlite3" {
            // Not librealsense's PNG or zstd.
            let info = run::ok(&["info", s(&path)]);
            assert!(
                info.contains("image topics:  4 compressed (image_transport)"),
                "{what}: {info}"
            );
        }
        let recording = Recording::open(&path).expect("open");
        let kinds = [
            StreamId::new(StreamKind::Color, 0),
            StreamId::new(StreamKind::Depth, 0),
            StreamId::new(StreamKind::Infrared, 1),
            StreamId::new(StreamKind::Infrared, 2),
        ];
        for (stream, name) in kinds.iter().zip(formats) {
            let profile = recording.streams()[stream].profile;
            assert_eq!(profile.format.name(), name, "{what}: {stream:?}");
            assert_eq!(profile.resolution(), Some((66, 50)), "{what}");
        }
        assert!(
            recording.notes().is_empty(),
            "{what}: {:?}",
            recording.notes()
        );
        let (worst, share) = check_decoded(&what, &written, &reference, &path);
        eprintln!(
            "{what}: JPEG samples off OpenCV's decode by at most {worst}, {:.2}% differ",
            share * 100.0
        );
        let check = run::ok(&["check", s(&path)]);
        assert!(check.contains("result:  OK"), "{what}: {check}");
    }
}

#[test]
fn a_damaged_compressed_image_is_a_damaged_frame_and_the_rest_plays() {
    let dir = tempfile::tempdir().expect("tempdir");
    for (format, depth) in [("mcap", "png"), ("ros1", "rvl")] {
        let (path, _, written) = compressed_bag(
            dir.path(),
            format,
            "damaged-compressed",
            &["--depth-codec", depth],
        );
        let run = run::rsbag(&["frames", "--json", s(&path)]);
        assert_eq!(run.code, Some(4), "{format}: {}", run.stderr);
        for topic in [
            "color/image_raw/compressed",
            "depth/image_rect_raw/compressedDepth",
        ] {
            assert!(run.stderr.contains(topic), "{format}: {}", run.stderr);
        }
        assert_eq!(
            run.stdout.lines().count(),
            written_count(&written) - 2,
            "{format}"
        );
        let check = run::rsbag(&["check", s(&path)]);
        assert_eq!(check.code, Some(4), "{format}: {}", check.stdout);
    }
}

/// `frames --json`'s hashes of each stream, per (stream, index).
fn hashes(frames: &BTreeMap<(String, u64), Vec<Value>>) -> BTreeMap<(String, u64), Vec<Value>> {
    frames
        .iter()
        .map(|(k, v)| (k.clone(), v.iter().map(|f| f["sha256"].clone()).collect()))
        .collect()
}

#[test]
fn compressed_camera_bags_convert_to_files_librealsense_plays_with_the_decoded_pixels() {
    let dir = tempfile::tempdir().expect("tempdir");
    for (format, depth) in [("sqlite3", "png"), ("ros1", "rvl")] {
        let (path, reference, written) =
            compressed_bag(dir.path(), format, "compressed", &["--depth-codec", depth]);
        check_decoded(format, &written, &reference, &path);
        let ours = hashes(&played(&path));
        let images = |frames: BTreeMap<(String, u64), Vec<Value>>| {
            let mut h = hashes(&frames);
            h.retain(|(kind, _), _| ["Color", "Depth", "Infrared"].contains(&kind.as_str()));
            h
        };
        let bag = dir.path().join(format!("{format}-compressed.bag"));
        run::ok(&["convert", s(&path), "--to", "bag", "--out", s(&bag)]);
        let theirs = images(by_stream(&common::python("rs_play.py", &[s(&bag)])));
        assert_eq!(theirs.len(), 4, "{format}: {:?}", theirs.keys());
        for (key, hashes) in &theirs {
            assert_eq!(
                hashes, &ours[key],
                "{format} --to bag, librealsense 2.55: {key:?}"
            );
        }
        let db3 = dir.path().join(format!("{format}-compressed.db3"));
        run::ok(&["convert", s(&path), "--to", "db3", "--out", s(&db3)]);
        let theirs = images(by_stream(&common::python259("rs_play.py", &[s(&db3)])));
        assert_eq!(theirs.len(), 4, "{format}: {:?}", theirs.keys());
        for (key, hashes) in &theirs {
            assert_eq!(
                hashes, &ours[key],
                "{format} --to db3, librealsense 2.59: {key:?}"
            );
        }
    }
}

#[test]
fn robot_bags_play_each_camera_and_list_the_other_topics() {
    let dir = tempfile::tempdir().expect("tempdir");
    for (format, second) in [("mcap", "/camera2/camera"), ("ros1", "/camera2")] {
        let (path, written) = camera_bag(dir.path(), format, "robot");
        let info = run::ok(&["info", s(&path)]);
        for topic in ["/scan (sensor_msgs/", "/tf (tf2_msgs/"] {
            assert!(info.contains(topic), "{format}: {info}");
        }
        assert!(
            info.contains("not a camera topic; not played"),
            "{format}: {info}"
        );
        let check = run::ok(&["check", s(&path)]);
        assert!(check.contains("result:  OK"), "{format}: {check}");
        // Opened whole, the two namespaces are one device: each colour
        // stream on its own RGB Camera, named with its namespace.
        let recording = Recording::open(&path).expect("open");
        let names: Vec<String> = (recording.snapshot().sensors.iter())
            .map(|s| {
                s.info
                    .get(rsbag::device::camera_info::NAME)
                    .unwrap_or_default()
                    .to_owned()
            })
            .collect();
        assert!(
            names.iter().any(|n| n == &format!("RGB Camera ({second})")),
            "{format}: {names:?}"
        );
        // The commands read them as two cameras, each with its own frames.
        let played = played_cameras(&path);
        for (topic, stream) in written["streams"].as_object().expect("streams") {
            if !topic.ends_with("color/image_raw") {
                continue;
            }
            let camera = if topic.starts_with(second) {
                "camera2"
            } else {
                "camera"
            };
            let want: Vec<&Value> = (stream["frames"].as_array().expect("frames").iter())
                .map(|f| &f["sha256"])
                .collect();
            let ours: Vec<&Value> = (played[camera][&("Color".to_owned(), 0)].iter())
                .map(|f| &f["sha256"])
                .collect();
            assert_eq!(ours, want, "{format}: {topic}");
        }
    }
}

/// `rsbag frames --json` of a session, per camera name and (stream,
/// index).
fn played_cameras(path: &Path) -> BTreeMap<String, BTreeMap<(String, u64), Vec<Value>>> {
    let mut out: BTreeMap<String, BTreeMap<(String, u64), Vec<Value>>> = BTreeMap::new();
    for line in run::ok(&["frames", "--json", s(path)]).lines() {
        let frame: Value = serde_json::from_str(line).expect("frame line");
        let key = (
            frame["stream"].as_str().expect("stream").to_owned(),
            frame["stream_index"].as_u64().expect("stream_index"),
        );
        let camera = frame["camera"].as_str().expect("camera").to_owned();
        out.entry(camera)
            .or_default()
            .entry(key)
            .or_default()
            .push(frame);
    }
    out
}

/// The cameras of the two-camera bags (ROS 2's namespaces, ROS1's) and
/// their names in a session: what tells their namespaces apart.
const TWO_CAMERAS: [(&str, &str, &str); 2] = [
    ("/cam_front/camera", "/cam_front", "cam_front"),
    ("/cam_rear/camera", "/cam_rear", "cam_rear"),
];

/// The namespaces of [`TWO_CAMERAS`] in `format`, as `--namespaces`.
fn two_namespaces(format: &str) -> [&'static str; 2] {
    TWO_CAMERAS.map(|(ros2, ros1, _)| if format == "ros1" { ros1 } else { ros2 })
}

/// Of the manifest of a bag of several cameras, what the camera under
/// `namespace` wrote, timed from the bag's first message.
fn of_namespace(written: &Value, namespace: &str) -> Value {
    let first = |map: &Value| -> Option<u64> {
        (map.as_object()?.values())
            .flat_map(|v| {
                v.get("frames")
                    .unwrap_or(v)
                    .as_array()
                    .into_iter()
                    .flatten()
            })
            .filter_map(|f| f["time_ns"].as_u64())
            .min()
    };
    let origin = [first(&written["streams"]), first(&written["imu"])]
        .into_iter()
        .flatten()
        .min();
    let under = |map: &Value| -> Value {
        let map = map.as_object().cloned().unwrap_or_default();
        let prefix = format!("{namespace}/");
        Value::Object(
            map.into_iter()
                .filter(|(topic, _)| topic.starts_with(&prefix))
                .collect(),
        )
    };
    serde_json::json!({
        "streams": under(&written["streams"]),
        "imu": under(&written["imu"]),
        "odometry": under(&written["odometry"]),
        "origin_ns": origin,
    })
}

#[test]
fn two_camera_namespaces_of_one_bag_read_as_a_session_of_two_cameras() {
    let dir = tempfile::tempdir().expect("tempdir");
    for format in ["sqlite3", "mcap", "ros1"] {
        let namespaces = two_namespaces(format);
        let path = match format {
            "ros1" => dir.path().join("two.bag"),
            _ => dir.path().join(format!("two-{format}")),
        };
        let written: Value = serde_json::from_str(&common::python(
            "ros_camera_bag.py",
            &[
                s(&path),
                "--format",
                format,
                "--namespaces",
                &namespaces.join(","),
            ],
        ))
        .expect("manifest");
        // Every frame of each camera is its namespace's, numbered and
        // timed as in a bag of it alone but from the bag's first message.
        let cameras = played_cameras(&path);
        let names: Vec<&str> = cameras.keys().map(String::as_str).collect();
        assert_eq!(names, ["cam_front", "cam_rear"], "{format}");
        for (namespace, (_, _, name)) in namespaces.iter().zip(TWO_CAMERAS) {
            let mine = of_namespace(&written, namespace);
            check_played(&format!("{format} {name}"), &mine, &cameras[name]);
        }
        let info = run::ok(&["info", s(&path)]);
        assert!(
            info.contains("session:       2 cameras in 1 file on one timeline"),
            "{format}: {info}"
        );
        for (namespace, (_, _, name)) in namespaces.iter().zip(TWO_CAMERAS) {
            let line = info
                .lines()
                .find(|l| l.trim_start().starts_with(&format!("{name} ")))
                .unwrap_or_else(|| panic!("{format}: no line of {name}: {info}"));
            assert!(
                line.contains(&format!("{} {namespace} (", s(&path))),
                "{format}: {line}"
            );
        }
        // Each camera's streams checked, then the sync between them.
        let check = run::rsbag(&["check", s(&path)]);
        assert_eq!(check.code, Some(0), "{format}: {}", check.stderr);
        assert!(check.stdout.contains("result:  OK"), "{}", check.stdout);
        let json = run::ok(&["check", "--json", s(&path)]);
        let sync: Value =
            serde_json::from_str(json.lines().last().expect("sync line")).expect("json");
        let sync = &sync["sync"];
        assert_eq!(sync["verdict"]["one_session"], true, "{format}: {sync}");
        let pair = &sync["pairs"][0];
        assert_eq!(
            pair["cameras"],
            serde_json::json!(["cam_front", "cam_rear"])
        );
        // Both are timed on the bag's clock: no offset, no drift.
        for field in ["offset_ms", "drift_ppm"] {
            let v = pair[field].as_f64().expect("number");
            assert!(v.abs() < 1e-9, "{format}: {field}: {pair}");
        }
        // A command of one camera refuses the bag, and says how to read it.
        let out = dir.path().join(format!("{format}-whole.bag"));
        let refused = run::rsbag(&["convert", s(&path), "--to", "bag", "--out", s(&out)]);
        assert_eq!(refused.code, Some(1), "{format}: {}", refused.stderr);
        for said in ["holds 2 cameras", namespaces[1], "--camera", "--session"] {
            assert!(
                refused.stderr.contains(said),
                "{format}: {}",
                refused.stderr
            );
        }
        assert!(!out.exists(), "{format}");
        // --camera converts one, as a bag of it alone.
        let rear = dir.path().join(format!("{format}-rear.bag"));
        run::ok(&[
            "convert",
            s(&path),
            "--camera",
            namespaces[1],
            "--to",
            "bag",
            "--out",
            s(&rear),
        ]);
        let mine = of_namespace(&written, namespaces[1]);
        check_played(&format!("{format} --camera"), &mine, &played(&rear));
        // The session's ROS 2 export: each camera under /<name>.
        let ros2 = dir.path().join(format!("{format}-session-ros2"));
        run::ok(&[
            "convert",
            s(&path),
            "--session",
            "--to",
            "ros2",
            "--out",
            s(&ros2),
        ]);
        let read: Value =
            serde_json::from_str(&common::python("ros2_read.py", &[s(&ros2)])).expect("read");
        for (namespace, (_, _, name)) in namespaces.iter().zip(TWO_CAMERAS) {
            let mine = of_namespace(&written, namespace);
            for (topic, stream) in mine["streams"].as_object().expect("streams") {
                let folder = topic.rsplit('/').nth(1).expect("folder");
                let ours: Vec<&Value> = (read["images"].as_array().expect("images").iter())
                    .filter(|i| {
                        i["topic"]
                            .as_str()
                            .is_some_and(|t| t.starts_with(&format!("/{name}/{folder}/")))
                    })
                    .map(|i| &i["sha256"])
                    .collect();
                let want: Vec<&Value> = (stream["frames"].as_array().expect("frames").iter())
                    .map(|f| &f["sha256"])
                    .collect();
                assert_eq!(ours, want, "{format} session ros2: {topic}");
            }
        }
    }
}

#[test]
fn two_compressed_camera_namespaces_decode_per_camera_as_opencv_does() {
    let dir = tempfile::tempdir().expect("tempdir");
    let cases: [(&str, &[&str]); 2] = [
        (
            "sqlite3",
            &["--color-codec", "jpeg", "--depth-codec", "png"],
        ),
        ("mcap", &["--color-codec", "png", "--depth-codec", "rvl"]),
    ];
    for (format, codecs) in cases {
        let namespaces = two_namespaces(format).join(",");
        let mut args = codecs.to_vec();
        args.extend_from_slice(&["--namespaces", &namespaces]);
        let (path, reference, written) = compressed_bag(dir.path(), format, "compressed", &args);
        let played = played_cameras(&path);
        let session = rsbag::recording::Session::open([&path]).expect("session");
        let cameras: Vec<(Option<&str>, &str)> = (session.files().iter())
            .map(|f| (f.namespace(), f.name()))
            .collect();
        assert_eq!(
            cameras,
            [
                (Some("/cam_front/camera"), "cam_front"),
                (Some("/cam_rear/camera"), "cam_rear")
            ],
            "{format}"
        );
        assert!(session.verdict().one_session, "{format}");
        for (file, (namespace, _, name)) in session.files().iter().zip(TWO_CAMERAS) {
            let what = format!("{format} {codecs:?} {name}");
            let mine = of_namespace(&written, namespace);
            let decoded = decoded_of(file.reader().recording());
            let folder = reference.join(namespace.trim_matches('/').replace('/', "_"));
            let (worst, _) = check_frames_decoded(&what, &mine, &folder, &decoded, &played[name]);
            eprintln!("{what}: JPEG samples off OpenCV's decode by at most {worst}");
            // Each frame's header stamp is its system time, exactly.
            for (topic, stream) in mine["streams"].as_object().expect("streams") {
                let folder = topic.split('/').rev().nth(2).expect("folder");
                let (kind, index) = stream_of(&format!("/{folder}/x"));
                let frames = &decoded[&(kind.to_owned(), index)];
                for (ours, theirs) in frames.iter().zip(stream["frames"].as_array().expect("f")) {
                    let stamp = theirs["stamp_ns"].as_u64().expect("stamp");
                    assert_eq!(ours.system_time, stamp as f64 / 1e6, "{what}: {topic}");
                }
            }
        }
    }
}
