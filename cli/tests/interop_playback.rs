//! Bags written by the real librealsense 2.55 (pyrealsense2, a
//! `software_device` and `rs.recorder`, generated here) play in rsbag with
//! the same device and exactly the frames librealsense plays from them.

#[path = "../../tests/common/mod.rs"]
mod common;
mod run;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use rsbag::device::{Device, StreamProfile};
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

/// The key rs_play.py gives a profile: `s0:Depth_0:Z16:64x48@30`, with no
/// size for motion and pose profiles.
fn profile_key(sensor: usize, p: &StreamProfile) -> String {
    let size = p
        .resolution()
        .map(|(w, h)| format!("{w}x{h}"))
        .unwrap_or_default();
    format!(
        "s{sensor}:{}_{}:{}:{size}@{}",
        p.stream.kind.name(),
        p.stream.index,
        p.format.name(),
        p.fps
    )
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
        let info = playback.info();
        let their_info = theirs["camera_info"].as_object().expect("camera info");
        for (key, value) in their_info {
            assert_eq!(info.get(key), value.as_str(), "{what}: device info {key}");
        }
        assert_eq!(info.iter().count(), their_info.len(), "{what}: device info");
        let sensors = playback.sensors();
        let their_sensors = theirs["sensors"].as_array().expect("sensors");
        assert_eq!(sensors.len(), their_sensors.len(), "{what}: sensors");
        let mut keys = HashMap::new();
        for (index, (sensor, t)) in sensors.iter().zip(their_sensors).enumerate() {
            assert_eq!(t["name"].as_str(), Some(sensor.name().as_str()), "{what}");
            let options = sensor.options();
            let their_options = t["options"].as_array().expect("options");
            assert_eq!(
                options.len(),
                their_options.len(),
                "{what}: options of {}",
                sensor.name()
            );
            for o in their_options {
                let name = o["option"].as_str().expect("name");
                let ours = options
                    .iter()
                    .find(|x| x.name == name)
                    .unwrap_or_else(|| panic!("{what}: option {name} missing"));
                common::close(&o["value"], ours.value, &format!("{what}: {name}"));
                assert_eq!(
                    o["description"].as_str(),
                    Some(ours.description.as_str()),
                    "{what}: {name}"
                );
            }
            let profiles = sensor.profiles();
            let their_profiles = t["profiles"].as_array().expect("profiles");
            assert_eq!(
                profiles.len(),
                their_profiles.len(),
                "{what}: profiles of {}",
                sensor.name()
            );
            for tp in their_profiles {
                let key = tp["key"].as_str().expect("key");
                let ours = profiles
                    .iter()
                    .find(|p| profile_key(index, p) == key)
                    .unwrap_or_else(|| panic!("{what}: rsbag has no profile {key}"));
                common::check_profile(tp, ours, &format!("{what}: {key}"));
                keys.insert(key.to_owned(), ours.stream);
            }
        }
        for pair in theirs["extrinsics"].as_array().expect("extrinsics") {
            let from = keys[pair["from"].as_str().expect("from")];
            let to = keys[pair["to"].as_str().expect("to")];
            let ours = playback.extrinsics(from, to);
            match (&pair["rotation"], ours) {
                (Value::Null, None) => {}
                (Value::Null, Some(e)) => {
                    panic!("{what}: {from} -> {to}: librealsense has none, rsbag has {e:?}")
                }
                (_, None) => panic!("{what}: {from} -> {to}: rsbag has no extrinsics"),
                (rotation, Some(e)) => {
                    for k in 0..9 {
                        common::close(
                            &rotation[k],
                            e.rotation[k],
                            &format!("{what}: {from} -> {to} rotation"),
                        );
                    }
                    for k in 0..3 {
                        common::close(
                            &pair["translation"][k],
                            e.translation[k],
                            &format!("{what}: {from} -> {to} translation"),
                        );
                    }
                }
            }
        }
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
