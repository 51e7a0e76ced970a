//! `rsbag devices` through the real librealsense (2.55 and 2.59, the C API
//! pyrealsense2's extension module exports, libpython loaded first), with
//! recordings played as devices: what it lists equals what pyrealsense2
//! lists from the same library.

#[path = "../../tests/common/mod.rs"]
mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// `python` and the library and libpython it reports.
struct Librealsense {
    python: PathBuf,
    library: String,
    libpython: String,
}

fn librealsense(python: PathBuf) -> Librealsense {
    let paths: Value = serde_json::from_str(&run_python(&python, &["--paths"])).expect("paths");
    Librealsense {
        library: paths["library"].as_str().expect("library").to_owned(),
        libpython: paths["libpython"].as_str().expect("libpython").to_owned(),
        python,
    }
}

fn run_python(python: &Path, args: &[&str]) -> String {
    let out = Command::new(python)
        .arg(common::root().join("tests/interop/rs_devices.py"))
        .args(args)
        .output()
        .expect("run python");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

/// `rsbag devices --json --simulate FILE...` with `lib` as librealsense.
fn rsbag_devices(lib: &Librealsense, files: &[&Path]) -> std::process::Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_rsbag"));
    command
        .args(["devices", "--json"])
        .env("LD_PRELOAD", &lib.libpython)
        .env("RSBAG_LIBREALSENSE", &lib.library);
    for file in files {
        command.arg("--simulate").arg(file);
    }
    command.output().expect("run rsbag")
}

/// A name as pyrealsense2's enums spell it: `Serial Number` → `serial_number`.
fn spelled(name: &str) -> String {
    name.to_lowercase().replace([' ', '-'], "_")
}

/// Both listings in one form: names as pyrealsense2 spells them, every
/// float as the f32 librealsense holds.
fn canonical(value: &Value, key: Option<&str>) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| {
                    let k = if key == Some("info") {
                        spelled(k)
                    } else {
                        k.clone()
                    };
                    let v = canonical(v, Some(&k));
                    (k, v)
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(|v| canonical(v, key)).collect()),
        Value::String(s) if matches!(key, Some("stream" | "format" | "name" | "model")) => {
            Value::String(spelled(s))
        }
        Value::Number(n) if !n.is_i64() && !n.is_u64() => {
            serde_json::json!(n.as_f64().expect("a number") as f32)
        }
        other => other.clone(),
    }
}

fn check(lib: &Librealsense, files: &[&Path]) {
    let out = rsbag_devices(lib, files);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let ours: Value = serde_json::from_slice(&out.stdout).expect("json");
    let names: Vec<&str> = files.iter().map(|f| f.to_str().expect("utf-8")).collect();
    let theirs: Value = serde_json::from_str(&run_python(&lib.python, &names)).expect("json");
    assert_eq!(ours["library"]["path"], lib.library.as_str());
    let devices = ours["devices"].as_array().expect("devices");
    assert_eq!(devices.len(), files.len());
    assert!(devices
        .iter()
        .all(|d| !d["sensors"].as_array().expect("sensors").is_empty()));
    assert_eq!(
        canonical(&ours["devices"], None),
        canonical(&theirs["devices"], None),
        "{files:?}"
    );
}

#[test]
fn devices_lists_what_librealsense_255_sees() {
    let lib = librealsense(PathBuf::from("python3"));
    let motion = common::sample("librealsense-motion-lz4.bag");
    let stereo = common::sample("librealsense-stereo-none.bag");
    let synthetic = common::sample("rsbag-synthetic-lz4.bag");
    check(&lib, &[&common::sample("librealsense-depth-color-lz4.bag")]);
    check(&lib, &[&motion, &stereo, &synthetic]);
    let out = rsbag_devices(&lib, &[]);
    assert!(out.status.success());
    let json: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(json["devices"], serde_json::json!([]), "no camera here");
    assert_eq!(json["library"]["version"], "2.55.1");
}

#[test]
fn devices_lists_what_librealsense_259_sees() {
    let lib = librealsense(common::python_259_path());
    let db3 = common::reference("db3/rec259_dc.db3");
    check(&lib, &[&db3, &common::sample("rsbag-synthetic-lz4.bag")]);
}

#[test]
fn a_missing_librealsense_or_recording_is_a_clear_error() {
    let rsbag = || Command::new(env!("CARGO_BIN_EXE_rsbag"));
    let out = rsbag()
        .args(["devices"])
        .env("RSBAG_LIBREALSENSE", "/nonexistent/librealsense2.so")
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cannot use librealsense /nonexistent/librealsense2.so"),
        "{err}"
    );
    // Not there under its usual names: says what to install.
    let out = rsbag()
        .args(["devices"])
        .env_remove("RSBAG_LIBREALSENSE")
        .env("LD_LIBRARY_PATH", "/nonexistent")
        .output()
        .expect("run");
    let err = String::from_utf8_lossy(&out.stderr);
    if !Path::new("/usr/lib/x86_64-linux-gnu/librealsense2.so.2").exists() {
        assert_eq!(out.status.code(), Some(1));
        assert!(
            err.contains("librealsense is not installed: install librealsense2"),
            "{err}"
        );
    }
    // A library that is not librealsense names what it lacks.
    let out = rsbag()
        .args(["devices"])
        .env("RSBAG_LIBREALSENSE", "libc.so.6")
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("it has no rs2_"));
    let lib = librealsense(PathBuf::from("python3"));
    let out = rsbag_devices(&lib, &[Path::new("/nonexistent.bag")]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent.bag"));
}

/// `rsbag frames --json` of `path`, by (stream, index, frame number).
fn frames_of(path: &Path) -> std::collections::BTreeMap<(String, u64, u64), Value> {
    let out = Command::new(env!("CARGO_BIN_EXE_rsbag"))
        .args(["frames", "--json"])
        .arg(path)
        .output()
        .expect("run rsbag");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| {
            let f: Value = serde_json::from_str(l).expect("json");
            let key = (
                f["stream"].as_str().expect("stream").to_owned(),
                f["index"].as_u64().expect("index"),
                f["frame_number"].as_u64().expect("number"),
            );
            (key, f)
        })
        .collect()
}

/// `rsbag record --camera SERIAL --simulate FILE` with `lib`: librealsense
/// plays FILE as a camera in real time, rsbag records what its callbacks
/// deliver. Every recorded frame is the source's frame of that number
/// (bytes, timestamp, domain); every video frame is there; the recorder
/// dropped nothing; and librealsense plays the result with every frame
/// (`python` is the judge of its format).
fn record_simulated(lib: &Librealsense, source: &Path, out: &Path, judge: &Path) {
    let run = Command::new(env!("CARGO_BIN_EXE_rsbag"))
        .args([
            "record",
            "--camera",
            "012345678901",
            "--duration",
            "60",
            "--simulate",
        ])
        .arg(source)
        .arg("--out")
        .arg(out)
        .env("LD_PRELOAD", &lib.libpython)
        .env("RSBAG_LIBREALSENSE", &lib.library)
        .output()
        .expect("run rsbag record");
    let said = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(said.contains(", 0 frames dropped"), "{said}");
    let theirs = frames_of(source);
    let ours = frames_of(out);
    for (key, frame) in &ours {
        let source_frame = theirs
            .get(key)
            .unwrap_or_else(|| panic!("{key:?} was never recorded"));
        for field in ["sha256", "timestamp", "domain", "size"] {
            assert_eq!(frame[field], source_frame[field], "{key:?} {field}");
        }
    }
    for (key, _) in theirs
        .iter()
        .filter(|(k, _)| !matches!(k.0.as_str(), "Gyro" | "Accel"))
    {
        assert!(ours.contains_key(key), "{key:?}: a video frame is missing");
    }
    // librealsense's real-time playback itself loses an IMU sample now and
    // then at the start (3 runs: 0, 1 and 5 of 182); nearly all arrive.
    assert!(
        ours.len() * 100 >= theirs.len() * 95,
        "{} of {}",
        ours.len(),
        theirs.len()
    );
    let played = Command::new(judge)
        .arg(common::root().join("tests/interop/rs_play.py"))
        .arg(out)
        .output()
        .expect("play");
    assert!(
        played.status.success(),
        "{}",
        String::from_utf8_lossy(&played.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&played.stdout).lines().count(),
        ours.len()
    );
}

#[test]
fn a_simulated_camera_is_recorded_into_files_librealsense_plays() {
    let dir = tempfile::tempdir().expect("tempdir");
    let source = common::sample("rsbag-synthetic-lz4.bag");
    let lib255 = librealsense(PathBuf::from("python3"));
    record_simulated(
        &lib255,
        &source,
        &dir.path().join("camera.bag"),
        Path::new("python3"),
    );
    let lib259 = librealsense(common::python_259_path());
    let judge = common::python_259_path();
    record_simulated(&lib259, &source, &dir.path().join("camera.db3"), &judge);
}

#[test]
fn a_camera_that_is_not_there_is_a_clear_error_before_anything_is_written() {
    let dir = tempfile::tempdir().expect("tempdir");
    let lib = librealsense(PathBuf::from("python3"));
    let out = dir.path().join("none.bag");
    let run = Command::new(env!("CARGO_BIN_EXE_rsbag"))
        .args(["record", "--camera", "999", "--simulate"])
        .arg(common::sample("rsbag-synthetic-lz4.bag"))
        .arg("--out")
        .arg(&out)
        .env("LD_PRELOAD", &lib.libpython)
        .env("RSBAG_LIBREALSENSE", &lib.library)
        .output()
        .expect("run");
    assert_eq!(run.status.code(), Some(1));
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(
        err.contains("no device with serial number \"999\"; connected: 012345678901"),
        "{err}"
    );
    assert!(
        std::fs::read_dir(dir.path()).expect("dir").next().is_none(),
        "nothing written"
    );
}
