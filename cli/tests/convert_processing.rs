//! `convert --align-to` and coloured `--to ply` against the real
//! librealsense 2.55: recordings it writes in the test
//! (tests/interop/rs_process.py record: non-trivial extrinsics, depth and
//! colour of different sizes and distortion models), what `rs.align` and
//! `rs.pointcloud`/`export_to_ply` make of them (rs_process.py process),
//! and rsbag's files compared frameset by frameset
//! (tests/interop/check_processing.py): aligned images byte for byte,
//! vertices within 1e-5, colours exactly.

use crate::common;
use crate::run;

use std::path::Path;

use run::{ok, rsbag};

fn s(path: &Path) -> &str {
    path.to_str().expect("utf-8 path")
}

/// A recording by librealsense and what librealsense computes from it.
fn reference(dir: &Path, models: [&str; 2], sizes: [&str; 2]) -> (String, String) {
    let bag = dir.join("reference.bag");
    let npz = dir.join("reference.npz");
    common::python(
        "rs_process.py",
        &[
            "record",
            s(&bag),
            "--depth-model",
            models[0],
            "--color-model",
            models[1],
            "--depth-size",
            sizes[0],
            "--color-size",
            sizes[1],
        ],
    );
    common::python("rs_process.py", &["process", s(&bag), s(&npz)]);
    (s(&bag).to_owned(), s(&npz).to_owned())
}

fn check(npz: &str, mode: &str, out: &Path) {
    let said = common::python("check_processing.py", &[npz, mode, s(out)]);
    assert!(said.contains("framesets equal"), "{said}");
}

#[test]
fn aligned_images_and_coloured_point_clouds_equal_librealsense() {
    // Depth coarser than colour, then colour smaller than depth both ways:
    // librealsense's two ways of choosing pixel corners.
    let cases = [
        (
            ["brown_conrady", "inverse_brown_conrady"],
            ["64x48", "96x54"],
        ),
        (
            ["inverse_brown_conrady", "modified_brown_conrady"],
            ["96x72", "64x36"],
        ),
    ];
    for (models, sizes) in cases {
        let dir = tempfile::tempdir().expect("tempdir");
        let (bag, npz) = reference(dir.path(), models, sizes);
        let to_color = dir.path().join("to-color");
        ok(&[
            "convert",
            &bag,
            "--to",
            "raw",
            "--align-to",
            "Color",
            "--out",
            s(&to_color),
        ]);
        check(&npz, "depth-to-color", &to_color);
        let to_depth = dir.path().join("to-depth");
        let said = ok(&[
            "convert",
            &bag,
            "--to",
            "raw",
            "--align-to",
            "depth",
            "--out",
            s(&to_depth),
        ]);
        assert!(said.contains("Color 0: 4"), "{said}");
        check(&npz, "color-to-depth", &to_depth);
        let clouds = dir.path().join("clouds");
        ok(&["convert", &bag, "--to", "ply", "--out", s(&clouds)]);
        check(&npz, "ply", &clouds);
    }
}

#[test]
fn aligned_depth_pngs_have_the_colour_size() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (bag, _) = reference(dir.path(), ["none", "brown_conrady"], ["64x48", "96x54"]);
    let out = dir.path().join("png");
    ok(&[
        "convert",
        &bag,
        "--to",
        "png",
        "--streams",
        "Depth",
        "--align-to",
        "Color",
        "--out",
        s(&out),
    ]);
    let decoder = png::Decoder::new(std::io::BufReader::new(
        std::fs::File::open(out.join("Depth_000001.png")).expect("png"),
    ));
    let info = decoder.read_info().expect("png header").info().clone();
    assert_eq!((info.width, info.height), (96, 54));
    let index = std::fs::read_to_string(out.join("frames.csv")).expect("index");
    assert!(
        index
            .lines()
            .nth(1)
            .is_some_and(|l| l.contains("96") && l.contains("54")),
        "{index}"
    );
}

#[test]
fn align_to_is_refused_where_it_means_nothing() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bag = common::root().join("sample_bags/librealsense-depth-color-lz4.bag");
    let bag = s(&bag);
    let out = dir.path().join("out");
    for (args, says) in [
        (
            vec!["--to", "mp4", "--align-to", "Color"],
            "--align-to goes with",
        ),
        (
            vec!["--to", "raw", "--align-to", "Fisheye"],
            "no stream \"Fisheye\"",
        ),
        (vec!["--to", "raw", "--align-to", "Gyro"], "no stream"),
    ] {
        let mut all = vec!["convert", bag, "--out", s(&out)];
        all.extend(args);
        let run = rsbag(&all);
        assert_eq!(run.code, Some(1), "{all:?}: {}", run.stderr);
        assert!(run.stderr.contains(says), "{all:?}: {}", run.stderr);
        assert!(!out.exists());
    }
}

#[test]
fn the_ros2_exports_aligned_depth_equals_librealsenses_align_as_the_wrapper_publishes_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (bag, npz) = reference(
        dir.path(),
        ["brown_conrady", "inverse_brown_conrady"],
        ["64x48", "96x54"],
    );
    for storage in ["sqlite3", "mcap"] {
        let out = dir.path().join(format!("ros2-{storage}"));
        let said = ok(&[
            "convert",
            &bag,
            "--to",
            "ros2",
            "--storage",
            storage,
            "--aligned-depth",
            "--out",
            s(&out),
        ]);
        assert!(
            said.contains("/camera/camera/aligned_depth_to_color/image_raw:"),
            "{said}"
        );
        let raw = dir.path().join(format!("aligned-{storage}"));
        let read = common::python("ros2_aligned.py", &[s(&out), s(&raw)]);
        let summary: serde_json::Value = serde_json::from_str(&read).expect("json");
        assert!(summary["images"].as_u64().expect("count") >= 4, "{summary}");
        assert_eq!(
            summary["frame_ids"],
            serde_json::json!(["camera_color_optical_frame"])
        );
        assert_eq!(summary["encodings"], serde_json::json!(["16UC1"]));
        assert_eq!(summary["sizes"], serde_json::json!([[96, 54]]));
        assert_eq!(summary["info_is_colours"], true, "{summary}");
        assert_eq!(summary["stamps_are_depths"], true, "{summary}");
        // Byte for byte rs.align(color)'s depth, frameset by frameset.
        check(&npz, "depth-to-color", &raw);
    }
    let refused = rsbag(&[
        "convert",
        &bag,
        "--to",
        "raw",
        "--aligned-depth",
        "--out",
        s(&dir.path().join("x")),
    ]);
    assert_eq!(refused.code, Some(1), "{}", refused.stderr);
    assert!(refused
        .stderr
        .contains("--aligned-depth goes with --to ros2"));
}

#[test]
fn the_ros2_exports_point_cloud_is_librealsenses_as_the_wrapper_publishes_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    // Colour finer than depth, then coarser: points outside the colour
    // image both ways.
    let cases = [
        (
            ["brown_conrady", "inverse_brown_conrady"],
            ["64x48", "96x54"],
        ),
        (["inverse_brown_conrady", "none"], ["96x72", "64x36"]),
    ];
    for (case, (models, sizes)) in cases.into_iter().enumerate() {
        let dir = dir.path().join(case.to_string());
        std::fs::create_dir(&dir).expect("dir");
        let (bag, npz) = reference(&dir, models, sizes);
        let ply = dir.join("ply");
        ok(&["convert", &bag, "--to", "ply", "--out", s(&ply)]);
        for (storage, flag, layout) in [
            ("sqlite3", "--pointcloud", "unordered"),
            ("mcap", "--pointcloud", "unordered"),
            ("sqlite3", "--pointcloud=ordered", "ordered"),
            ("mcap", "--pointcloud=ordered", "ordered"),
        ] {
            let out = dir.join(format!("{storage}-{layout}"));
            let said = ok(&[
                "convert",
                &bag,
                "--to",
                "ros2",
                "--storage",
                storage,
                flag,
                "--out",
                s(&out),
            ]);
            assert!(
                said.contains("/camera/camera/depth/color/points: 4"),
                "{said}"
            );
            // rosbags' and mcap's type hash and definition of PointCloud2.
            common::python("ros2_read.py", &[s(&out)]);
            let read = common::python("ros2_points.py", &[s(&out), &npz, layout, s(&ply)]);
            let summary: serde_json::Value = serde_json::from_str(&read).expect("json");
            assert_eq!(summary["clouds"], 4, "{summary}");
            let points = summary["points"].as_array().expect("points");
            assert!(points.len() >= 3, "{summary}");
            // 3 % of the pixels have no depth, and some are occluded or
            // outside the colour image: an unordered cloud keeps fewer.
            let pixels = if case == 0 { 64 * 48 } else { 96 * 72 };
            for n in points.iter().map(|n| n.as_u64().expect("count")) {
                match layout {
                    "ordered" => assert_eq!(n, pixels, "{summary}"),
                    _ => assert!(n > pixels / 2 && n < pixels * 97 / 100, "{summary}"),
                }
            }
            if storage == "mcap" {
                assert_eq!(summary["mcap_clouds"], 4, "{summary}");
            }
        }
        // Without a colour stream: x, y, z only, as the wrapper with
        // pointcloud.stream_filter 0.
        let plain = dir.join("plain");
        ok(&[
            "convert",
            &bag,
            "--to",
            "ros2",
            "--streams",
            "Depth",
            "--pointcloud",
            "--out",
            s(&plain),
        ]);
        let read = common::python("ros2_points.py", &[s(&plain), &npz, "plain"]);
        assert!(read.contains("\"clouds\": 4"), "{read}");
    }
}

#[test]
fn pointcloud_is_refused_where_it_means_nothing() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bag = common::sample("librealsense-depth-color-lz4.bag");
    let other = common::sample("rsbag-synthetic-none.bag");
    let out = dir.path().join("out");
    let cases: [(Vec<&str>, &str); 4] = [
        (
            vec![s(&bag), "--to", "ply", "--pointcloud"],
            "--pointcloud goes with --to ros2",
        ),
        (
            vec![
                s(&bag),
                "--to",
                "ros2",
                "--streams",
                "Color",
                "--pointcloud",
            ],
            "--pointcloud needs an exported depth stream",
        ),
        (
            vec![
                s(&bag),
                s(&other),
                "--session",
                "--to",
                "ros2",
                "--pointcloud",
            ],
            "--pointcloud go with --to ros2 of one recording",
        ),
        (
            vec![s(&bag), "--to", "ros2", "--pointcloud=sideways"],
            "invalid value 'sideways'",
        ),
    ];
    for (args, says) in cases {
        let mut all = vec!["convert"];
        all.extend(&args);
        all.extend(["--out", s(&out)]);
        let run = rsbag(&all);
        let code = if says.starts_with("invalid") { 2 } else { 1 };
        assert_eq!(run.code, Some(code), "{all:?}: {}", run.stderr);
        assert!(run.stderr.contains(says), "{all:?}: {}", run.stderr);
        assert!(!out.exists(), "{all:?} left {}", out.display());
    }
}
