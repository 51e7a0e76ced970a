//! Comparing what rsbag reads with what librealsense plays, for the
//! interop tests of either version.

use std::collections::HashMap;

use rsbag::device::{Device, StreamProfile};
use rsbag::playback::Playback;
use serde_json::Value;

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

/// Check that `playback` has the device librealsense describes in
/// `theirs` (the `--device-json` of tests/interop/rs_play.py): camera
/// info, sensors, options with values and descriptions, profiles with
/// intrinsics, and the extrinsics between every pair of profiles.
pub fn check_device(what: &str, theirs: &Value, playback: &Playback) {
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
            super::close(&o["value"], ours.value, &format!("{what}: {name}"));
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
            super::check_profile(tp, ours, &format!("{what}: {key}"));
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
                    super::close(
                        &rotation[k],
                        e.rotation[k],
                        &format!("{what}: {from} -> {to} rotation"),
                    );
                }
                for k in 0..3 {
                    super::close(
                        &pair["translation"][k],
                        e.translation[k],
                        &format!("{what}: {from} -> {to} translation"),
                    );
                }
            }
        }
    }
}
