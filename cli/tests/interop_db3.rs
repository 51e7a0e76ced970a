//! librealsense 2.59's `.db3` recordings (pyrealsense2 2.59.1, a
//! `software_device` and `rs.recorder`, generated here, and the reference
//! files of tests/fixtures/reference/db3): rsbag reads the device and
//! exactly the frames 2.59 plays from them.

use crate::common;
use crate::planted;
use crate::run;
use crate::run::OutputInTime;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use rsbag::playback::Playback;
use rsbag::recording::FrameReader;
use serde_json::Value;

/// The scenarios of tests/interop/rs_record.py recorded by 2.59, with
/// whether its recorder compresses (its default) or not.
const SCENARIOS: [(&str, bool); 7] = [
    ("depth-color", true),
    ("depth-color", false),
    ("stereo", true),
    ("motion", true),
    ("metadata", true),
    ("formats", true),
    ("formats", false),
];

/// The `.db3` of every scenario, written once by librealsense 2.59, and
/// the reference files.
fn db3_files() -> &'static [(String, PathBuf)] {
    static FILES: OnceLock<(tempfile::TempDir, Vec<(String, PathBuf)>)> = OnceLock::new();
    let (_, files) = FILES.get_or_init(|| {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut files: Vec<(String, PathBuf)> = SCENARIOS
            .iter()
            .map(|&(scenario, compress)| {
                let what = format!("{scenario} (2.59, compressed: {compress})");
                (what, librealsense_db3(dir.path(), scenario, compress))
            })
            .collect();
        for name in ["rec259_dc.db3", "rec259_dc_raw.db3", "rec259_imu.db3"] {
            files.push((name.to_owned(), common::reference(&format!("db3/{name}"))));
        }
        (dir, files)
    });
    files
}

/// Record `scenario` with librealsense 2.59.
fn librealsense_db3(dir: &Path, scenario: &str, compress: bool) -> PathBuf {
    let path = dir.join(format!(
        "{scenario}-{}.db3",
        if compress { "compressed" } else { "raw" }
    ));
    let path_str = path.to_str().expect("utf-8 path");
    let mut args = vec![path_str, "--scenario", scenario];
    if !compress {
        args.push("--no-compress");
    }
    common::python259("rs_record.py", &args);
    path
}

fn s(path: &Path) -> &str {
    path.to_str().expect("utf-8 path")
}

#[test]
fn rsbag_plays_exactly_the_frames_librealsense_259_plays() {
    for (what, path) in db3_files() {
        let theirs = common::python259("rs_play.py", &[s(path)]);
        assert!(
            theirs.lines().count() >= 6,
            "{what}: librealsense 2.59 played {} frames",
            theirs.lines().count()
        );
        assert_eq!(run::ok(&["frames", "--json", s(path)]), theirs, "{what}");
    }
}

#[test]
fn rsbag_sees_the_device_librealsense_259_sees() {
    for (what, path) in db3_files() {
        let theirs: Value = serde_json::from_str(&common::python259(
            "rs_play.py",
            &[s(path), "--device-json"],
        ))
        .expect("device JSON");
        let playback = Playback::open(path).expect("rsbag opens it");
        common::interop::check_device(what, &theirs, &playback);
    }
}

/// A frame's (stream, index, number) and its metadata.
type FrameMetadata = ((String, u64, u64), BTreeMap<String, i64>);

/// Frame metadata as 2.59 plays it: every value the frame's metadata
/// string holds, and `Frame Counter` 0 where it holds none (librealsense
/// reports that for every frame).
#[test]
fn frame_metadata_is_what_librealsense_259_plays() {
    for (what, path) in db3_files() {
        let theirs = common::python259("rs_play.py", &[s(path), "--metadata"]);
        let theirs: Vec<FrameMetadata> = theirs
            .lines()
            .map(|line| {
                let v: Value = serde_json::from_str(line).expect("JSON line");
                let key = (
                    v["stream"].as_str().expect("stream").to_owned(),
                    v["stream_index"].as_u64().expect("stream_index"),
                    v["frame_number"].as_u64().expect("number"),
                );
                let metadata = v["metadata"]
                    .as_object()
                    .expect("metadata")
                    .iter()
                    .map(|(k, x)| (k.clone(), x.as_i64().expect("integer")))
                    .collect();
                (key, metadata)
            })
            .collect();
        let reader = FrameReader::open(path).expect("open");
        let mut ours: Vec<FrameMetadata> = reader
            .frames()
            .expect("frames")
            .map(|f| {
                let f = f.expect("frame").frame;
                let mut metadata: BTreeMap<String, i64> = (f.metadata.iter())
                    .map(|(k, v)| (k.to_string(), *v))
                    .collect();
                metadata.entry("Frame Counter".into()).or_insert(0);
                let key = (
                    f.profile.stream.kind.name().to_owned(),
                    u64::from(f.profile.stream.index),
                    f.number,
                );
                (key, metadata)
            })
            .collect();
        ours.sort_by(|a, b| a.0.cmp(&b.0));
        assert_eq!(ours, theirs, "{what}");
    }
}

/// The sample bags librealsense 2.55 wrote and the one rsbag wrote.
const SAMPLE_BAGS: [&str; 5] = [
    "librealsense-depth-color-lz4",
    "librealsense-stereo-none",
    "librealsense-motion-lz4",
    "librealsense-metadata-lz4",
    "rsbag-synthetic-lz4",
];

fn device_259(path: &Path) -> Value {
    serde_json::from_str(&common::python259(
        "rs_play.py",
        &[s(path), "--device-json"],
    ))
    .expect("device JSON")
}

fn device_255(path: &Path) -> Value {
    serde_json::from_str(&common::python("rs_play.py", &[s(path), "--device-json"]))
        .expect("device JSON")
}

#[test]
fn converted_db3_plays_in_259_as_the_bag_plays_in_255() {
    let dir = tempfile::tempdir().expect("tempdir");
    for name in SAMPLE_BAGS {
        let bag = common::sample(&format!("{name}.bag"));
        let played_255 = common::python("rs_play.py", &[s(&bag)]);
        for compressed in [true, false] {
            let what = format!("{name} (compressed: {compressed})");
            let db3 = dir.path().join(format!("{name}-{compressed}.db3"));
            let mut args = vec!["convert", s(&bag), "--to", "db3", "--out", s(&db3)];
            if !compressed {
                args.push("--uncompressed");
            }
            run::ok(&args);
            let played_259 = common::python259("rs_play.py", &[s(&db3)]);
            assert_eq!(played_259, played_255, "{what}: frames");
            // The device 2.59 sees in the .db3 is the one in the bag.
            let source = Playback::open(&bag).expect("open the bag");
            common::interop::check_device(&what, &device_259(&db3), &source);
        }
    }
}

/// One second of the synthetic camera's `streams`, small images.
fn record_synthetic(out: &Path, streams: &str) {
    run::ok(&[
        "record",
        "--synthetic",
        "--duration",
        "1",
        "--out",
        s(out),
        "--streams",
        streams,
        "--depth",
        "64x48@30",
        "--color",
        "64x48@30",
    ]);
}

#[test]
fn recorded_db3_plays_in_259_as_rsbag_reads_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db3 = dir.path().join("synthetic.db3");
    record_synthetic(&db3, "depth,color,infrared1,infrared2,accel,gyro");
    let ours = run::ok(&["frames", "--json", s(&db3)]);
    assert!(
        ours.lines().count() > 600,
        "{} frames",
        ours.lines().count()
    );
    assert_eq!(common::python259("rs_play.py", &[s(&db3)]), ours);
    let playback = Playback::open(&db3).expect("open");
    common::interop::check_device("recorded .db3", &device_259(&db3), &playback);
}

/// Frames as JSON lines with the timestamps apart: a `.bag` holds a
/// timestamp as a ROS time (whole nanoseconds), so 2.55 plays 1033.3 ms
/// from any bag, its own too, as 1033.3000000000002.
fn frames_and_times(jsonl: &str) -> (Vec<Value>, Vec<f64>) {
    jsonl
        .lines()
        .map(|line| {
            let mut v: Value = serde_json::from_str(line).expect("JSON line");
            let t = v["timestamp"].as_f64().expect("timestamp");
            v["timestamp"] = Value::Null;
            (v, t)
        })
        .unzip()
}

#[test]
fn converted_bag_plays_in_255_as_the_db3_plays_in_259() {
    let dir = tempfile::tempdir().expect("tempdir");
    for (what, db3) in db3_files() {
        let bag = dir.path().join(format!(
            "{}.bag",
            what.replace([' ', '(', ')', ',', ':'], "_")
        ));
        run::ok(&["convert", s(db3), "--to", "bag", "--out", s(&bag)]);
        let (theirs, their_times) = frames_and_times(&common::python259("rs_play.py", &[s(db3)]));
        let (ours, our_times) = frames_and_times(&common::python("rs_play.py", &[s(&bag)]));
        assert_eq!(ours, theirs, "{what}: frames");
        for (a, b) in our_times.iter().zip(&their_times) {
            assert!((a - b).abs() <= 1e-6, "{what}: timestamp {a} vs {b}");
        }
        let source = Playback::open(db3).expect("open the .db3");
        common::interop::check_device(what, &device_255(&bag), &source);
    }
}

#[test]
fn pose_streams_survive_bag_to_db3_to_bag_and_the_default_keeps_259_working() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bag = dir.path().join("pose.bag");
    record_synthetic(&bag, "depth,pose");
    // The default leaves the pose out, and says so: 2.59 opens the file.
    let plain = dir.path().join("plain.db3");
    let out = run::rsbag(&["convert", s(&bag), "--to", "db3", "--out", s(&plain)]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(out.stdout.contains("Pose 0 left out"), "{}", out.stdout);
    let played = common::python259("rs_play.py", &[s(&plain)]);
    assert!(played.lines().count() >= 25, "{played}");
    assert!(played.lines().all(|l| l.contains("\"Depth\"")), "{played}");
    // --keep-pose keeps it; 2.59 then refuses the file, rsbag reads it.
    let kept = dir.path().join("kept.db3");
    run::ok(&[
        "convert",
        s(&bag),
        "--to",
        "db3",
        "--keep-pose",
        "--out",
        s(&kept),
    ]);
    let refused = std::process::Command::new(common::python_259_path())
        .arg(common::root().join("tests/interop/rs_play.py"))
        .arg(&kept)
        .output_in_time()
        .expect("run python");
    assert!(
        !refused.status.success(),
        "2.59 opened a .db3 with a pose stream"
    );
    let back = dir.path().join("back.bag");
    run::ok(&["convert", s(&kept), "--to", "bag", "--out", s(&back)]);
    let frames = |path: &Path| -> Vec<rsbag::device::Frame> {
        let reader = FrameReader::open(path).expect("open");
        reader
            .frames()
            .expect("frames")
            .map(|f| f.expect("frame").frame)
            .collect()
    };
    let (original, round_trip) = (frames(&bag), frames(&back));
    assert!(original.iter().any(|f| f.pose().is_some()));
    assert_eq!(round_trip, original);
    // And 2.55 plays the round trip as it plays the original.
    assert_eq!(
        common::python("rs_play.py", &[s(&back)]),
        common::python("rs_play.py", &[s(&bag)])
    );
}

/// A recording of a device whose sensors have no options (and streams no
/// extrinsics), as a user's `Device` may: librealsense 2.59 crashes reading
/// a `.db3` sensor without options, so the `.db3` writer gives such a
/// sensor Frames Queue Size, which every librealsense sensor has, and 2.59
/// plays every frame (it crashed before).
#[test]
fn a_device_without_options_or_extrinsics_plays_in_259() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bag = dir.path().join("bare.bag");
    let frames: Vec<(rsbag::device::StreamKind, u64)> = (0..6)
        .flat_map(|n| {
            [
                (rsbag::device::StreamKind::Depth, n),
                (rsbag::device::StreamKind::Color, n),
            ]
        })
        .collect();
    planted::write(&bag, &frames);
    let db3 = dir.path().join("bare.db3");
    run::ok(&["convert", s(&bag), "--to", "db3", "--out", s(&db3)]);
    let ours = run::ok(&["frames", "--json", s(&bag)]);
    assert_eq!(ours.lines().count(), 12);
    assert_eq!(common::python259("rs_play.py", &[s(&db3)]), ours);
}
