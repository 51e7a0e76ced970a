//! Bags written by the real librealsense 2.55 (pyrealsense2, a
//! `software_device` and `rs.recorder`, generated here) play in rsbag with
//! the same device and exactly the frames librealsense plays from them.

use crate::common;
use crate::run;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use rsbag::playback::Playback;
use serde_json::Value;

/// The bags of every scenario, written once by librealsense for all tests.
fn scenario_bags() -> &'static [(String, PathBuf)] {
    static BAGS: OnceLock<(tempfile::TempDir, Vec<(String, PathBuf)>)> = OnceLock::new();
    let (_, bags) = BAGS.get_or_init(|| {
        let dir = tempfile::tempdir().expect("tempdir");
        let bags = SCENARIOS
            .iter()
            .map(|&(scenario, compress)| {
                (
                    format!("{scenario} (lz4: {compress})"),
                    librealsense_bag(dir.path(), scenario, compress),
                )
            })
            .collect();
        (dir, bags)
    });
    bags
}

/// Write a bag with librealsense: `scenario` of tests/interop/rs_record.py.
fn librealsense_bag(dir: &Path, scenario: &str, compress: bool) -> PathBuf {
    let path = dir.join(format!(
        "{scenario}-{}.bag",
        if compress { "lz4" } else { "none" }
    ));
    let path_str = path.to_str().expect("utf-8 path");
    let mut args = vec![path_str, "--scenario", scenario];
    if !compress {
        args.push("--no-compress");
    }
    common::python("rs_record.py", &args);
    path
}

fn rsbag_frames_json(path: &Path) -> String {
    run::ok(&["frames", "--json", path.to_str().expect("utf-8 path")])
}

const SCENARIOS: [(&str, bool); 6] = [
    ("depth-color", true),
    ("depth-color", false),
    ("stereo", false),
    ("stereo", true),
    ("motion", true),
    ("metadata", true),
];

#[test]
fn rsbag_plays_exactly_the_frames_librealsense_plays() {
    for (what, path) in scenario_bags() {
        let theirs = common::python("rs_play.py", &[path.to_str().expect("path")]);
        assert!(
            theirs.lines().count() >= 6,
            "{what}: librealsense played {} frames",
            theirs.lines().count()
        );
        for run in 0..2 {
            assert_eq!(rsbag_frames_json(path), theirs, "{what}, run {run}");
        }
    }
}

#[test]
fn the_reference_bag_plays_as_librealsense_played_it() {
    let path = common::reference("librealsense-2.55-depth-color.bag");
    let expected = std::fs::read_to_string(common::reference(
        "librealsense-2.55-depth-color.frames.jsonl",
    ))
    .expect("reference frames");
    assert_eq!(rsbag_frames_json(&path), expected);
}

#[test]
fn rsbag_sees_the_device_librealsense_sees() {
    for (what, path) in scenario_bags() {
        let theirs: Value = serde_json::from_str(&common::python(
            "rs_play.py",
            &[path.to_str().expect("path"), "--device-json"],
        ))
        .expect("device JSON");
        let playback = Playback::open(path).expect("rsbag opens it");
        common::interop::check_device(what, &theirs, &playback);
    }
}

#[test]
fn the_sample_bags_play_as_librealsense_plays_them() {
    for name in [
        "librealsense-depth-color-lz4",
        "librealsense-stereo-none",
        "librealsense-motion-lz4",
        "librealsense-metadata-lz4",
    ] {
        let bag = common::sample(&format!("{name}.bag"));
        let expected = std::fs::read_to_string(common::sample(&format!("{name}.frames.jsonl")))
            .expect("recorded frames");
        assert_eq!(rsbag_frames_json(&bag), expected, "{name}");
    }
}
