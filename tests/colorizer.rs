//! The colorizer against librealsense 2.55's `rs.colorizer`: every colour
//! scheme, histogram equalization on and off, min/max at several values
//! and the edges (equal, crossed, 0 and 16), the visual presets, options
//! set in librealsense's order with its side effects, over depth with
//! noise, holes, far values, an empty frame, a flat frame and another
//! depth unit (tests/interop/rs_colorize.py), and the same frames as
//! librealsense's disparity (`rs.disparity_transform`). Byte for byte.

use crate::common;

use rsbag::processing::Colorizer;
use serde_json::Value;

#[test]
fn colorizer_equals_librealsense_byte_for_byte() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().to_str().expect("utf-8 path");
    common::python("rs_colorize.py", &[out]);
    let described: Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("cases.json")).expect("cases.json"))
            .expect("json");
    let width = described["width"].as_u64().expect("width") as u32;
    let height = described["height"].as_u64().expect("height") as u32;
    let frames: Vec<(Vec<u16>, f32)> = described["frames"]
        .as_array()
        .expect("frames")
        .iter()
        .enumerate()
        .map(|(k, frame)| {
            let bytes = std::fs::read(dir.path().join(format!("depth_{k}.raw"))).expect("depth");
            let depth = bytes
                .chunks_exact(2)
                .map(|p| u16::from_le_bytes([p[0], p[1]]))
                .collect();
            (depth, frame["units"].as_f64().expect("units") as f32)
        })
        .collect();
    let read = |name: &str| std::fs::read(dir.path().join(name)).expect("librealsense's file");
    let cases = described["cases"].as_array().expect("cases");
    let mut compared = 0;
    for (c, case) in cases.iter().enumerate() {
        let options: Vec<(String, String)> = case["options"]
            .as_array()
            .expect("options")
            .iter()
            .map(|pair| {
                (
                    pair[0].as_str().expect("key").to_owned(),
                    pair[1].to_string(),
                )
            })
            .collect();
        let colorizer = Colorizer::with_options(options.iter().map(|(k, v)| (&k[..], &v[..])))
            .unwrap_or_else(|e| panic!("case {c} {options:?}: {e}"));
        for (k, (depth, units)) in frames.iter().enumerate() {
            let ours = colorizer
                .colorize(depth, width, height, *units)
                .expect("colorize");
            let what = format!("case {c} {options:?} ({colorizer:?}), frame {k}");
            same(&ours, &read(&format!("rgb_{c}_{k}.raw")), &what, |p| {
                depth[p] as f32
            });
            let disparity: Vec<f32> = read(&format!("disparity_{k}.raw"))
                .chunks_exact(4)
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect();
            let ours = colorizer
                .colorize_disparity(&disparity, width, height, *units)
                .expect("colorize disparity");
            let what = format!("{what}, as disparity");
            same(&ours, &read(&format!("rgbd_{c}_{k}.raw")), &what, |p| {
                disparity[p]
            });
            compared += 2;
        }
    }
    assert!(compared >= 40 * 6 * 2, "only {compared} frames compared");
}

/// Panic at the first pixel where `ours` and `theirs` differ.
fn same(ours: &[u8], theirs: &[u8], what: &str, input: impl Fn(usize) -> f32) {
    assert_eq!(ours.len(), theirs.len(), "{what}");
    if let Some(i) = (0..ours.len()).find(|&i| ours[i] != theirs[i]) {
        let p = i / 3;
        panic!(
            "{what}: pixel {p} (value {}) is {:?}, librealsense {:?}",
            input(p),
            &ours[p * 3..p * 3 + 3],
            &theirs[p * 3..p * 3 + 3]
        );
    }
}
