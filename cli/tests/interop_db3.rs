//! librealsense 2.59's `.db3` recordings (pyrealsense2 2.59.1, a
//! `software_device` and `rs.recorder`, generated here, and the reference
//! files of tests/fixtures/reference/db3): rsbag reads the device and
//! exactly the frames 2.59 plays from them.

#[path = "../../tests/common/mod.rs"]
mod common;
mod run;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use rsbag::playback::{FrameReader, Playback};
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

/// Frame metadata as 2.59 plays it: every value the frame's metadata
/// string holds, and `Frame Counter` 0 where it holds none (librealsense
/// reports that for every frame).
#[test]
fn frame_metadata_is_what_librealsense_259_plays() {
    for (what, path) in db3_files() {
        let theirs = common::python259("rs_play.py", &[s(path), "--metadata"]);
        let theirs: Vec<((String, u64, u64), BTreeMap<String, i64>)> = theirs
            .lines()
            .map(|line| {
                let v: Value = serde_json::from_str(line).expect("JSON line");
                let key = (
                    v["stream"].as_str().expect("stream").to_owned(),
                    v["index"].as_u64().expect("index"),
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
        let mut ours: Vec<((String, u64, u64), BTreeMap<String, i64>)> = reader
            .frames()
            .expect("frames")
            .map(|f| {
                let f = f.expect("frame").frame;
                let mut metadata: BTreeMap<String, i64> = f.metadata.iter().cloned().collect();
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
