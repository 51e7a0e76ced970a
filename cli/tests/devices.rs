//! `rsbag devices` through the real librealsense (2.55 and 2.59, the C API
//! pyrealsense2's extension module exports, libpython loaded first), with
//! recordings played as devices: what it lists equals what pyrealsense2
//! lists from the same library.

use crate::common;
use crate::run::{stdout_of, OutputInTime};

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
    stdout_of(
        Command::new(python)
            .arg(common::root().join("tests/interop/rs_devices.py"))
            .args(args),
    )
}

/// A frame of a JSON line as `rsbag frames --json` and librealsense's
/// playback print it: (stream, index, frame number).
fn frame_key(frame: &Value) -> (String, u64, u64) {
    (
        frame["stream"].as_str().expect("stream").to_owned(),
        frame["stream_index"].as_u64().expect("stream_index"),
        frame["frame_number"].as_u64().expect("number"),
    )
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
    command.output_in_time().expect("run rsbag")
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
        .output_in_time()
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
        .output_in_time()
        .expect("run");
    let err = String::from_utf8_lossy(&out.stderr);
    if !Path::new("/usr/lib/x86_64-linux-gnu/librealsense2.so.2").exists() {
        assert_eq!(out.status.code(), Some(1));
        assert!(
            err.contains("librealsense is not installed: install librealsense2"),
            "{err}"
        );
        assert!(err.contains("pip install pyrealsense2"), "{err}");
    }
    // The route the guide documents, through pyrealsense2, is said too
    // (as the message of the library's error, wherever it is installed).
    let not_installed = rsbag_librealsense::Error::NotInstalled(String::new()).to_string();
    for said in [
        "pip install pyrealsense2",
        "RSBAG_LIBREALSENSE=\"$(python3 -c 'import pyrealsense2 as rs; print(rs.pyrealsense2.__file__)')\"",
        "LD_PRELOAD=",
    ] {
        assert!(not_installed.contains(said), "{not_installed}");
    }
    // A library that is not librealsense names what it lacks.
    let out = rsbag()
        .args(["devices"])
        .env("RSBAG_LIBREALSENSE", "libc.so.6")
        .output_in_time()
        .expect("run");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("it has no rs2_"));
    let lib = librealsense(PathBuf::from("python3"));
    let out = rsbag_devices(&lib, &[Path::new("/nonexistent.bag")]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent.bag"));
    // A file that is no recording: librealsense's reason, said once.
    let not_a_bag = common::root().join("Cargo.toml");
    let out = rsbag_devices(&lib, &[&not_a_bag]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with(&format!("rsbag: librealsense: {}: ", not_a_bag.display())),
        "{err}"
    );
    assert_eq!(err.matches("librealsense:").count(), 1, "{err}");
}

/// `rsbag frames --json` of `path`, by (stream, index, frame number).
fn frames_of(path: &Path) -> std::collections::BTreeMap<(String, u64, u64), Value> {
    run_rsbag(&["frames", "--json"], path)
        .lines()
        .map(|l| {
            let f: Value = serde_json::from_str(l).expect("json");
            (frame_key(&f), f)
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
    let said = record(lib, &["--camera", "012345678901"], &[source], out);
    assert!(said.contains(", 0 frames dropped"), "{said}");
    same_frames(source, out, judge);
}

/// `rsbag record ARGS --simulate SOURCES... --out OUT` with `lib`, to
/// run.
fn record_command(lib: &Librealsense, args: &[&str], sources: &[&Path], out: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_rsbag"));
    command.arg("record").args(args).args(["--duration", "60"]);
    for source in sources {
        command.arg("--simulate").arg(source);
    }
    command
        .arg("--out")
        .arg(out)
        .env("LD_PRELOAD", &lib.libpython)
        .env("RSBAG_LIBREALSENSE", &lib.library);
    command
}

/// `rsbag record ARGS --simulate SOURCES... --out OUT` with `lib`, which
/// must succeed; its report.
fn record(lib: &Librealsense, args: &[&str], sources: &[&Path], out: &Path) -> String {
    let run = record_command(lib, args, sources, out)
        .output_in_time()
        .expect("run rsbag record");
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    String::from_utf8_lossy(&run.stdout).into_owned()
}

/// Every frame recorded in `out` is `source`'s frame of that number, every
/// video frame is there, and librealsense (`judge`) plays `out` whole.
fn same_frames(source: &Path, out: &Path, judge: &Path) {
    let theirs = frames_of(source);
    let ours = recorded_frames_play(source, out, judge);
    for (key, _) in theirs
        .iter()
        .filter(|(k, _)| !matches!(k.0.as_str(), "Gyro" | "Accel"))
    {
        assert!(ours.contains_key(key), "{key:?}: a video frame is missing");
    }
    // librealsense's real-time playback itself loses IMU samples, more on
    // a loaded machine: pyrealsense2's own callbacks got 111-119 of the
    // synthetic sample's 121 gyro samples in four runs. What it delivered
    // is all recorded (the recorder's report: 0 dropped).
    assert!(
        ours.len() * 2 >= theirs.len(),
        "{} of {}",
        ours.len(),
        theirs.len()
    );
}

/// Every frame recorded in `out` is `source`'s frame of that number
/// (bytes, timestamp, domain, size), and librealsense (`judge`) plays
/// every one of them; the frames recorded.
fn recorded_frames_play(
    source: &Path,
    out: &Path,
    judge: &Path,
) -> std::collections::BTreeMap<(String, u64, u64), Value> {
    let theirs = frames_of(source);
    let ours = frames_of(out);
    assert!(!ours.is_empty(), "{}: no frame", out.display());
    for (key, frame) in &ours {
        let source_frame = theirs
            .get(key)
            .unwrap_or_else(|| panic!("{key:?} was never recorded"));
        for field in ["sha256", "timestamp", "domain", "size"] {
            assert_eq!(frame[field], source_frame[field], "{key:?} {field}");
        }
    }
    // Every recorded frame plays (librealsense under load may hand one
    // over twice; each counts once).
    let played: std::collections::BTreeMap<(String, u64, u64), Value> = stdout_of(
        Command::new(judge)
            .arg(common::root().join("tests/interop/rs_play.py"))
            .arg(out),
    )
    .lines()
    .map(|l| {
        let frame: Value = serde_json::from_str(l).expect("json");
        (frame_key(&frame), frame)
    })
    .collect();
    // What librealsense plays from the recording is the source's frame.
    for (key, frame) in &played {
        for field in ["sha256", "timestamp", "domain", "size"] {
            assert_eq!(frame[field], theirs[key][field], "played {key:?} {field}");
        }
    }
    let played: std::collections::BTreeSet<_> = played.into_keys().collect();
    let recorded: std::collections::BTreeSet<_> = ours.keys().cloned().collect();
    assert_eq!(played, recorded, "{}", out.display());
    ours
}

#[test]
fn camera_all_records_every_device_at_once_one_file_each() {
    let dir = tempfile::tempdir().expect("tempdir");
    let lib = librealsense(PathBuf::from("python3"));
    // Written by librealsense 2.55: depth + colour, stereo infrared, IMU.
    let sources: Vec<PathBuf> = [
        "librealsense-depth-color-lz4.bag",
        "librealsense-stereo-none.bag",
        "librealsense-motion-lz4.bag",
    ]
    .iter()
    .map(|n| common::sample(n))
    .collect();
    let refs: Vec<&Path> = sources.iter().map(PathBuf::as_path).collect();
    let out = dir.path().join("rig.bag");
    let said = record(
        &lib,
        &[
            "--camera",
            "all",
            "--streams",
            "depth,color,infrared1,infrared2,accel,gyro",
        ],
        &refs,
        &out,
    );
    assert_eq!(said.matches(", 0 frames dropped").count(), 3, "{said}");
    for source in &sources {
        let info: Value =
            serde_json::from_str(&run_rsbag(&["info", "--json"], source)).expect("info");
        let serial = info["realsense"]["device"]["Serial Number"]
            .as_str()
            .expect("serial");
        let recorded = dir.path().join(format!("rig-{serial}.bag"));
        same_frames(source, &recorded, Path::new("python3"));
    }
}

fn run_rsbag(args: &[&str], file: &Path) -> String {
    stdout_of(
        Command::new(env!("CARGO_BIN_EXE_rsbag"))
            .args(args)
            .arg(file),
    )
}

/// `rsbag record ARGS --simulate` the synthetic sample with `lib`, which
/// must fail (exit 1) before writing anything into `dir`; its stderr.
fn record_refused(lib: &Librealsense, args: &[&str], dir: &Path) -> String {
    let run = Command::new(env!("CARGO_BIN_EXE_rsbag"))
        .arg("record")
        .args(args)
        .arg("--simulate")
        .arg(common::sample("rsbag-synthetic-lz4.bag"))
        .arg("--out")
        .arg(dir.join("refused.bag"))
        .env("LD_PRELOAD", &lib.libpython)
        .env("RSBAG_LIBREALSENSE", &lib.library)
        .output_in_time()
        .expect("run rsbag record");
    let err = String::from_utf8_lossy(&run.stderr).into_owned();
    assert_eq!(run.status.code(), Some(1), "{args:?}: {err}");
    assert!(
        std::fs::read_dir(dir).expect("dir").next().is_none(),
        "{args:?}: nothing written"
    );
    err
}

#[test]
fn a_bad_option_is_a_clear_error_before_anything_is_written() {
    let dir = tempfile::tempdir().expect("tempdir");
    for (lib, _, _) in both_libraries() {
        for (option, says) in [
            (
                "Stereo Module.Nope=1",
                "Stereo Module has no option \"Nope\"; it has: Asic Temperature, Depth Units",
            ),
            (
                "Stereo.Laser Power=1",
                "no such sensor; the sensors are: Stereo Module, RGB Camera, Motion Module",
            ),
            ("Stereo Module.Laser Power=lots", "\"lots\" is not a number"),
            ("Laser Power", "give SENSOR.OPTION=VALUE"),
            // A played recording's options are what was recorded: each
            // takes only its recorded value, and is read-only.
            (
                "Stereo Module.Laser Power=100",
                "Stereo Module option \"Laser Power\" takes 150 to 150 in steps of 0 \
                 (default 150), not 100",
            ),
            (
                "Stereo Module.Laser Power=150",
                "Stereo Module option \"Laser Power\" is read-only here",
            ),
        ] {
            let args = ["--camera", "012345678901", "--option", option];
            let err = record_refused(&lib, &args, dir.path());
            assert!(err.contains(says), "{}: {option}: {err}", lib.library);
        }
    }
}

#[test]
fn a_preset_is_refused_clearly_before_anything_is_written() {
    let dir = tempfile::tempdir().expect("tempdir");
    let files = tempfile::tempdir().expect("tempdir");
    let good = files.path().join("preset.json");
    std::fs::write(&good, "{\"param-depthunits\": \"1000\"}").expect("write");
    let broken = files.path().join("broken.json");
    std::fs::write(&broken, "{\n  \"param-depthunits\": \n").expect("write");
    let list = files.path().join("list.json");
    std::fs::write(&list, "[1, 2]").expect("write");
    let missing = files.path().join("missing.json");
    let name = |p: &Path| p.display().to_string();
    for (lib, _, _) in both_libraries() {
        for (preset, says) in [
            (
                &good,
                format!(
                    "--preset {}: librealsense: Synthetic D435I 012345678901 has no advanced mode",
                    name(&good)
                ),
            ),
            (
                &broken,
                format!("--preset {}: not JSON at line 3, column 0", name(&broken)),
            ),
            (
                &list,
                format!("--preset {}: not a JSON object", name(&list)),
            ),
            (
                &missing,
                format!("--preset {}: cannot read it: No such file", name(&missing)),
            ),
        ] {
            let args = [
                "--camera",
                "012345678901",
                "--preset",
                preset.to_str().expect("utf-8"),
            ];
            let err = record_refused(&lib, &args, dir.path());
            assert!(err.contains(&says), "{}: {err}", lib.library);
        }
    }
}

/// A recording of rsbag's synthetic camera with a notification raised
/// by its depth sensor half-way.
fn with_notification(path: &Path) -> rsbag::device::Notification {
    use rsbag::device::synthetic::{SyntheticConfig, SyntheticDevice, DEPTH, GYRO};
    use std::sync::Arc;
    let camera = Arc::new(
        SyntheticDevice::new(SyntheticConfig {
            depth: (320, 240, 30),
            color: (320, 240, 30),
            ..SyntheticConfig::default()
        })
        .expect("camera"),
    );
    let wanted: Vec<_> = [DEPTH, GYRO]
        .iter()
        .map(|s| camera.default_profile(*s).expect("profile"))
        .collect();
    let recorder =
        rsbag::record::Recorder::new(path, camera.clone(), Default::default()).expect("recorder");
    common::open_and_start(&recorder, &wanted, || Arc::new(|_| {}));
    std::thread::sleep(std::time::Duration::from_millis(700));
    let notification = rsbag::device::Notification {
        category: "Hardware Error".into(),
        severity: "Error".into(),
        description: "planted by the camera test".into(),
        timestamp: 1_700_000_000_000.0,
        serialized_data: "{\"code\": 7}".into(),
    };
    camera
        .raise_notification(0, notification.clone())
        .expect("notification");
    std::thread::sleep(std::time::Duration::from_millis(700));
    recorder.finish().expect("finish");
    notification
}

/// The notifications recorded in `path`, as rsbag reads them.
fn notifications_in(path: &Path) -> Vec<rsbag::device::Notification> {
    rsbag::recording::Recording::open(path)
        .expect("recording")
        .events(..)
        .filter_map(|e| match e.expect("event").event {
            rsbag::recording::Event::Notification { notification, .. } => Some(notification),
            _ => None,
        })
        .collect()
}

#[test]
fn librealsense_notifications_are_recorded() {
    let dir = tempfile::tempdir().expect("tempdir");
    let source = dir.path().join("noted.bag");
    let planted = with_notification(&source);
    for (lib, judge, ext) in both_libraries() {
        let out = dir.path().join(format!("camera.{ext}"));
        record(
            &lib,
            &["--camera", "012345678901", "--streams", "depth,gyro"],
            &[&source],
            &out,
        );
        // librealsense raised the recorded notification while playing the
        // source; rsbag recorded it as librealsense described it.
        let recorded = notifications_in(&out);
        assert_eq!(recorded.len(), 1, "{recorded:?}");
        let n = &recorded[0];
        assert_eq!(
            (&n.category, &n.severity, &n.description, &n.serialized_data),
            (
                &planted.category,
                &planted.severity,
                &planted.description,
                &planted.serialized_data
            )
        );
        // And librealsense replays it from the recording.
        if ext == "bag" {
            let events: Value = serde_json::from_str(&stdout_of(
                Command::new(&judge)
                    .arg(common::root().join("tests/interop/rs_events.py"))
                    .arg(&out)
                    .args(["--option", "Laser Power"]),
            ))
            .expect("json");
            let notes = events["notifications"].as_array().expect("notifications");
            assert_eq!(notes.len(), 1, "{notes:?}");
            assert_eq!(notes[0]["description"], "planted by the camera test");
            assert_eq!(notes[0]["category"], "Hardware Error");
        }
    }
}

#[test]
fn a_full_disk_never_holds_librealsense_up_and_is_reported() {
    let dir = tempfile::tempdir().expect("tempdir");
    let source = three_seconds(dir.path());
    for (lib, _, ext) in both_libraries() {
        let mount = tempfile::tempdir().expect("mount point");
        let run = Command::new("unshare")
            .args(["-Urm", "sh", "-c"])
            .arg(format!(
                "mount -t tmpfs -o size=12m tmpfs \"$M\" || exit 99\n\
                 exec \"$R\" record --camera 012345678901 --simulate \"$S\" --duration 60 \
                 --no-compression --out \"$M/full.{ext}\""
            ))
            .env("M", mount.path())
            .env("R", env!("CARGO_BIN_EXE_rsbag"))
            .env("S", &source)
            .env("LD_PRELOAD", &lib.libpython)
            .env("RSBAG_LIBREALSENSE", &lib.library)
            .output_in_time()
            .expect("unshare (util-linux)");
        let err = stderr_of(&run);
        assert_ne!(run.status.code(), Some(99), "tmpfs: {err}");
        assert_eq!(run.status.code(), Some(1), "{err}");
        // The recording stops before the disk runs out, its file finished
        // under its final name.
        assert!(
            err.contains("the disk holding") && err.contains("is full"),
            "{err}"
        );
        assert!(
            err.contains(&format!("full.{ext} is finished and indexed")),
            "{err}"
        );
        assert!(!err.contains(".partial"), "{err}");
        // Per stream: what was written and dropped, and what librealsense
        // delivered. Every delivered frame was handed over at once (written
        // or dropped, or delivered as the recording stopped), and what the
        // full disk could not take (at least the frames of the failed
        // write) is counted dropped.
        let counts = err.split_once("per stream: ").expect("counts").1;
        let (mut more, mut lost) = (0, 0);
        for stream in counts.lines().next().expect("line").split("; ") {
            let (name, numbers) = stream.split_once(": ").expect("stream: numbers");
            let numbers: Vec<u64> = numbers
                .split(", ")
                .map(|n| n.split(' ').next().expect("n").parse().expect("number"))
                .collect();
            let [written, dropped, delivered] = numbers[..] else {
                panic!("{stream}")
            };
            assert!(
                delivered >= written + dropped,
                "{name}: {delivered} delivered, {written} written, {dropped} dropped"
            );
            more += delivered - written;
            lost += dropped;
        }
        assert!(more > 0, "{err}");
        assert!(lost > 0, "nothing counted dropped: {err}");
    }
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
    let err = record_refused(&lib, &["--camera", "999"], dir.path());
    assert!(
        err.contains("no device with serial number \"999\"; connected: 012345678901"),
        "{err}"
    );
}

#[test]
fn a_camera_records_the_mode_asked_for_or_lists_the_ones_it_has() {
    let dir = tempfile::tempdir().expect("tempdir");
    let lib = librealsense(PathBuf::from("python3"));
    let source = common::sample("rsbag-synthetic-lz4.bag");
    let out = dir.path().join("mode.bag");
    let args = [
        "--camera",
        "012345678901",
        "--depth",
        "320x240@30",
        "--streams",
        "depth",
    ];
    record(&lib, &args, &[&source], &out);
    let frames = frames_of(&out);
    assert!(!frames.is_empty() && frames.keys().all(|k| k.0 == "Depth"));
    let refused = tempfile::tempdir().expect("tempdir");
    let args = ["--camera", "012345678901", "--depth", "848x480@30"];
    let err = record_refused(&lib, &args, refused.path());
    assert!(
        err.contains("camera 012345678901 has no Depth 0 mode 848x480@30; it has: 320x240@30"),
        "{err}"
    );
}

/// Both libraries: (librealsense, the Python that judges, the output's
/// extension): 2.55 writes `.bag`, 2.59 `.db3`.
fn both_libraries() -> [(Librealsense, PathBuf, &'static str); 2] {
    [
        (
            librealsense(PathBuf::from("python3")),
            PathBuf::from("python3"),
            "bag",
        ),
        (
            librealsense(common::python_259_path()),
            common::python_259_path(),
            "db3",
        ),
    ]
}

/// A 3-second recording of rsbag's synthetic camera (small depth and
/// colour, IMU) to play as a camera: long enough to act on mid-stream.
fn three_seconds(dir: &Path) -> PathBuf {
    let source = dir.join("source.bag");
    stdout_of(Command::new(env!("CARGO_BIN_EXE_rsbag")).args([
        "record",
        "--synthetic",
        "--duration",
        "3",
        "--depth",
        "320x240@30",
        "--color",
        "320x240@30",
        "--streams",
        "depth,color,accel,gyro",
        "--out",
        source.to_str().expect("utf-8"),
    ]));
    source
}

/// What `rsbag record` said on stderr.
fn stderr_of(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn an_unplugged_camera_finishes_its_file_and_names_itself_and_the_time() {
    let dir = tempfile::tempdir().expect("tempdir");
    let source = three_seconds(dir.path());
    for (lib, judge, ext) in both_libraries() {
        let out = dir.path().join(format!("unplugged.{ext}"));
        let args = ["--camera", "012345678901", "--unplug-after", "1"];
        let run = record_command(&lib, &args, &[&source], &out)
            .output_in_time()
            .expect("run");
        let err = stderr_of(&run);
        assert_eq!(run.status.code(), Some(1), "{err}");
        let said = "rsbag: camera 012345678901 was unplugged ";
        let at: f64 = err
            .split_once(said)
            .and_then(|(_, rest)| rest.split_once(" s into the recording"))
            .unwrap_or_else(|| panic!("{err}"))
            .0
            .parse()
            .expect("seconds");
        assert!((1.0..2.0).contains(&at), "{at}: {err}");
        assert!(err.contains("(finished and indexed)"), "{err}");
        // The file is complete (indexed: librealsense plays it), with what
        // was streamed until the camera went: about a third of the source.
        assert!(!partial(&out).exists());
        let recorded = recorded_frames_play(&source, &out, &judge);
        let depth = recorded.keys().filter(|k| k.0 == "Depth").count();
        assert!((10..60).contains(&depth), "{depth} depth frames in {at} s");
    }
}

fn partial(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".partial");
    PathBuf::from(name)
}

#[test]
fn ctrl_c_finishes_and_indexes_the_recording() {
    let dir = tempfile::tempdir().expect("tempdir");
    let source = three_seconds(dir.path());
    for (lib, judge, ext) in both_libraries() {
        let out = dir.path().join(format!("interrupted.{ext}"));
        let child = record_command(&lib, &["--camera", "012345678901"], &[&source], &out)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("spawn");
        let until = std::time::Instant::now() + std::time::Duration::from_secs(30);
        while !partial(&out).exists() {
            assert!(std::time::Instant::now() < until, "never got going");
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        // A second into the source's three.
        std::thread::sleep(std::time::Duration::from_secs(1));
        // SAFETY: a signal to our own child.
        assert_eq!(
            unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) },
            0
        );
        let run = child.wait_with_output().expect("wait");
        let err = stderr_of(&run);
        // As every recording: Ctrl-C finishes the file, exit 0.
        assert!(run.status.success(), "{err}");
        assert!(
            err.contains("interrupted: finishing the recording"),
            "{err}"
        );
        assert!(!partial(&out).exists());
        let recorded = recorded_frames_play(&source, &out, &judge);
        let depth = recorded.keys().filter(|k| k.0 == "Depth").count();
        assert!(depth < 85, "stopped before the source's end: {depth}");
    }
}

#[test]
fn camera_all_records_two_cameras_started_together_with_both_libraries() {
    let dir = tempfile::tempdir().expect("tempdir");
    let sources = [
        common::sample("librealsense-depth-color-lz4.bag"),
        common::sample("rsbag-synthetic-lz4.bag"),
    ];
    let refs: Vec<&Path> = sources.iter().map(PathBuf::as_path).collect();
    for (lib, judge, ext) in both_libraries() {
        let out = dir.path().join(format!("pair.{ext}"));
        let said = record(&lib, &["--camera", "all"], &refs, &out);
        assert_eq!(said.matches(", 0 frames dropped").count(), 2, "{said}");
        // Started together: both were started before either streamed (the
        // played recordings are resumed once every sensor runs), so each
        // file has every video frame of its source from the first on.
        for source in &sources {
            let info: Value =
                serde_json::from_str(&run_rsbag(&["info", "--json"], source)).expect("info");
            let serial = info["realsense"]["device"]["Serial Number"]
                .as_str()
                .expect("serial");
            let recorded = dir.path().join(format!("pair-{serial}.{ext}"));
            same_frames(source, &recorded, &judge);
        }
    }
}
