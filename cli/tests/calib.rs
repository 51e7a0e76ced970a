//! `rsbag calib` and `info --json`'s extrinsics against the real
//! librealsense 2.55: recordings it writes in the test (tests/interop/
//! rs_calib.py record: depth, two infrared, colour, fisheye, accel and
//! gyro with intrinsics, distortion, IMU intrinsics and extrinsics) and
//! librealsense-written reference files; what `get_intrinsics`,
//! `get_motion_intrinsics`, `get_extrinsics_to` and `get_depth_scale` give
//! (rs_calib.py values); rsbag's files read back by the tools' own readers
//! (cv2.FileStorage, Open3D, YAML for Kalibr and ROS, COLMAP's text
//! layout) and every number compared as float32 (rs_calib.py check).

use crate::common;
use crate::run;
use crate::run::OutputInTime;

use std::path::{Path, PathBuf};
use std::process::Command;

use run::{ok, rsbag};

fn s(path: &Path) -> &str {
    path.to_str().expect("utf-8 path")
}

/// What librealsense gives of `bag`'s calibration, as a JSON file.
fn librealsense_values(bag: &Path, dir: &Path) -> PathBuf {
    let values = dir.join("values.json");
    common::python("rs_calib.py", &["values", s(bag), s(&values)]);
    values
}

/// rs_calib.py check with the system's python3 (OpenCV, YAML).
fn check(format: &str, path: &Path, values: &Path) {
    let said = common::python("rs_calib.py", &["check", format, s(path), s(values)]);
    assert!(said.contains("calibration equal"), "{format}: {said}");
}

/// rs_calib.py check with Open3D's own reader, in the environment
/// scripts/install-test-deps.sh makes for it.
fn check_with_open3d(path: &Path, values: &Path) {
    let python = std::env::var_os("RSBAG_PYTHON_OPEN3D")
        .map(PathBuf::from)
        .unwrap_or_else(|| common::root().join("target/venv-open3d/bin/python"));
    assert!(
        python.exists(),
        "{} is missing: run scripts/install-test-deps.sh",
        python.display()
    );
    let script = common::root().join("tests/interop/rs_calib.py");
    let out = Command::new(&python)
        .arg(&script)
        .args(["check", "open3d", s(path), s(values)])
        .output_in_time()
        .expect("run Open3D's python");
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && said.contains("calibration equal"),
        "{said}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(said.contains("open3d reader: open3d 0.20"), "{said}");
}

/// Export `bag` in every format and check each against librealsense;
/// returns the stderr of formats that refused the recording.
fn export_and_check(bag: &Path, dir: &Path, open3d: bool) -> Vec<String> {
    let values = librealsense_values(bag, dir);
    let info = dir.join("info.json");
    std::fs::write(&info, ok(&["info", "--json", s(bag)])).expect("write info");
    check("info", &info, &values);
    let mut refused = Vec::new();
    for format in ["json", "opencv", "colmap", "kalibr", "ros", "open3d"] {
        let out = dir.join(format!("calib-{format}"));
        let run = rsbag(&["calib", s(bag), "--format", format, "--out", s(&out)]);
        if run.code != Some(0) {
            refused.push(run.stderr);
            continue;
        }
        match format {
            "open3d" => {
                assert!(open3d, "open3d export was expected to be refused");
                check_with_open3d(&out, &values);
            }
            _ => check(format, &out, &values),
        }
    }
    refused
}

#[test]
fn every_format_equals_librealsense_on_a_recording_with_every_kind_of_stream() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bag = dir.path().join("calib.bag");
    common::python("rs_calib.py", &["record", s(&bag)]);
    let refused = export_and_check(&bag, dir.path(), false);
    // Open3D's pinhole has no distortion; the colour stream has some.
    assert_eq!(refused.len(), 1, "{refused:?}");
    assert!(
        refused[0].contains("Open3D's PinholeCameraIntrinsic has no distortion model for stream Color (brown_conrady"),
        "{}",
        refused[0]
    );
}

#[test]
fn librealsense_reference_recordings_export_as_librealsense_reads_them() {
    // Undistorted depth and colour: every format, Open3D's included.
    let dir = tempfile::tempdir().expect("tempdir");
    let bag = common::reference("librealsense-2.55-depth-color.bag");
    assert_eq!(
        export_and_check(&bag, dir.path(), true),
        Vec::<String>::new()
    );
    // Extrinsics between stereo streams; IMU intrinsics.
    for name in [
        "librealsense-stereo-none.bag",
        "librealsense-motion-lz4.bag",
    ] {
        let dir = tempfile::tempdir().expect("tempdir");
        let bag = common::sample(name);
        let values = librealsense_values(&bag, dir.path());
        for format in ["json", "opencv"] {
            let out = dir.path().join(format);
            ok(&["calib", s(&bag), "--format", format, "--out", s(&out)]);
            check(format, &out, &values);
        }
    }
}

#[test]
fn outputs_are_never_replaced_and_per_stream_formats_need_a_directory() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bag = common::reference("librealsense-2.55-depth-color.bag");
    let bag = s(&bag);
    let out = dir.path().join("calib.yaml");
    std::fs::write(&out, "mine").expect("write");
    let run = rsbag(&["calib", bag, "--format", "opencv", "--out", s(&out)]);
    assert_eq!(run.code, Some(1));
    assert!(run.stderr.contains("the output exists"), "{}", run.stderr);
    assert_eq!(std::fs::read_to_string(&out).expect("read"), "mine");

    let ros = dir.path().join("ros");
    std::fs::create_dir(&ros).expect("mkdir");
    std::fs::write(ros.join("Color.yaml"), "mine").expect("write");
    let run = rsbag(&["calib", bag, "--format", "ros", "--out", s(&ros)]);
    assert!(
        run.stderr.contains("Color.yaml: the output exists"),
        "{}",
        run.stderr
    );
    assert!(!ros.join("Depth.yaml").exists(), "nothing is written");

    let run = rsbag(&["calib", bag, "--format", "kalibr"]);
    assert_eq!(run.code, Some(1));
    assert!(
        run.stderr
            .contains("--format kalibr writes one file per stream: give --out DIRECTORY"),
        "{}",
        run.stderr
    );

    let text = ok(&["calib", bag, "--format", "opencv"]);
    assert!(text.starts_with("%YAML:1.0\n---\n"), "{text}");
}

#[test]
fn a_damaged_recording_gives_what_could_be_read_and_exit_4() {
    let dir = tempfile::tempdir().expect("tempdir");
    let whole =
        std::fs::read(common::reference("librealsense-2.55-depth-color.bag")).expect("read");
    // Cut inside the data: the index is gone, the description is there.
    let cut = dir.path().join("cut.bag");
    std::fs::write(&cut, &whole[..whole.len() / 2]).expect("write");
    let run = rsbag(&["calib", s(&cut), "--format", "json"]);
    assert_eq!(run.code, Some(4), "{}", run.stderr);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON written");
    assert!(json.is_object(), "{json}");

    let garbage = dir.path().join("garbage.bag");
    std::fs::write(&garbage, b"not a recording").expect("write");
    let run = rsbag(&["calib", s(&garbage)]);
    assert_eq!(run.code, Some(1));
    assert!(run.stderr.contains("not a recording"), "{}", run.stderr);
}

#[test]
fn the_tours_recording_exports_with_the_streams_each_format_holds() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bag = dir.path().join("session.bag");
    let recorded = rsbag(&[
        "record",
        "--synthetic",
        "--duration",
        "0.2",
        "--out",
        s(&bag),
    ]);
    assert_eq!(recorded.code, Some(0), "{}", recorded.stderr);
    let values = librealsense_values(&bag, dir.path());
    for format in ["kalibr", "ros", "colmap"] {
        let out = dir.path().join(format);
        let refused = rsbag(&["calib", s(&bag), "--format", format, "--out", s(&out)]);
        assert_eq!(refused.code, Some(1), "{format}");
        assert!(
            refused
                .stderr
                .contains("no distortion model for stream Color (inverse_brown_conrady"),
            "{format}: {}",
            refused.stderr
        );
        assert!(!out.exists(), "{format}: written");
        // The streams it names for --streams are what the format holds.
        let (_, rest) = (refused.stderr.split_once("leave it out with --streams \""))
            .unwrap_or_else(|| panic!("{format}: {}", refused.stderr));
        let streams = rest.split('"').next().expect("streams");
        assert!(!streams.contains("Color"), "{streams}");
        ok(&[
            "calib",
            s(&bag),
            "--format",
            format,
            "--streams",
            streams,
            "--out",
            s(&out),
        ]);
        let args = ["check", format, s(&out), s(&values), streams];
        let said = common::python("rs_calib.py", &args);
        assert!(said.contains("calibration equal"), "{format}: {said}");
    }
    let camchain = std::fs::read_to_string(dir.path().join("kalibr/camchain.yaml")).expect("read");
    assert!(camchain.contains("# Infrared 1\ncam0:"), "{camchain}");
    // A depth-only choice has no camera for Kalibr or COLMAP: nothing is
    // written, rather than an empty camera chain.
    for format in ["kalibr", "colmap"] {
        let out = dir.path().join(format!("{format}-depth"));
        let run = rsbag(&[
            "calib",
            s(&bag),
            "--format",
            format,
            "--streams",
            "depth",
            "--out",
            s(&out),
        ]);
        assert_eq!(run.code, Some(1), "{format}");
        assert!(
            run.stderr.contains("nothing is written"),
            "{format}: {}",
            run.stderr
        );
        assert!(!out.exists(), "{format}");
    }
}
