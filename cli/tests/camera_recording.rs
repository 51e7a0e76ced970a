//! Fidelity of `rsbag record --camera SERIAL --simulate FILE` (issue 27):
//! librealsense (2.55 writing `.bag`, 2.59 writing `.db3`) plays a
//! recording librealsense itself wrote as a connected camera, rsbag
//! records it, and librealsense judges the result against the source:
//! every frame rsbag received is in the file with the source's bytes,
//! number, timestamp, domain and metadata; the recorder dropped none; the
//! device's camera info, options, intrinsics, motion intrinsics and
//! extrinsics are the source's. The sources (tests/interop/
//! rs_camera_sources.py) are a D435i (depth, colour, IMU), a stereo pair
//! (infrared 1 and 2) and a T265-like tracking camera (pose, fisheye,
//! IMU), written by pyrealsense2 2.55's `software_device` and
//! `rs.recorder`.

use crate::common;
use crate::run::stdout_of;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// A librealsense to load into rsbag (a pyrealsense2 extension module),
/// and the libpython it needs loaded first.
struct Librealsense {
    library: String,
    libpython: String,
}

fn librealsense(python: &Path) -> Librealsense {
    let script = common::root().join("tests/interop/rs_devices.py");
    let paths: Value =
        serde_json::from_str(&stdout_of(Command::new(python).arg(script).arg("--paths")))
            .expect("paths");
    Librealsense {
        library: paths["library"].as_str().expect("library").to_owned(),
        libpython: paths["libpython"].as_str().expect("libpython").to_owned(),
    }
}

/// A simulated camera's recording, written by librealsense 2.55.
struct Source {
    path: PathBuf,
    serial: String,
    /// `rsbag record --streams` for every stream it has.
    streams: String,
}

fn write_source(camera: &str, dir: &Path) -> Source {
    let path = dir.join(format!("{camera}.bag"));
    let said: Value = serde_json::from_str(&stdout_of(
        Command::new("python3")
            .arg(common::root().join("tests/interop/rs_camera_sources.py"))
            .arg(&path)
            .args(["--camera", camera]),
    ))
    .expect("json");
    Source {
        path,
        serial: said["serial"].as_str().expect("serial").to_owned(),
        streams: said["streams"].as_str().expect("streams").to_owned(),
    }
}

/// `rsbag record --camera SERIAL --simulate SOURCE --out OUT` with `lib`
/// (and the `extra` arguments): frames written and dropped per stream, as
/// its report says.
fn record(
    lib: &Librealsense,
    source: &Source,
    out: &Path,
    extra: &[&str],
) -> BTreeMap<String, (u64, u64)> {
    let report = stdout_of(
        Command::new(env!("CARGO_BIN_EXE_rsbag"))
            .args(["record", "--camera", &source.serial, "--streams"])
            .arg(&source.streams)
            .arg("--simulate")
            .arg(&source.path)
            .args(["--duration", "60", "--out"])
            .arg(out)
            .args(extra)
            .env("LD_PRELOAD", &lib.libpython)
            .env("RSBAG_LIBREALSENSE", &lib.library),
    );
    // "Depth 0            30        0         184320"
    report
        .lines()
        .filter_map(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            let [kind, index, frames, dropped, _bytes] = words[..] else {
                return None;
            };
            Some((
                format!("{kind}_{index}"),
                (frames.parse().ok()?, dropped.parse().ok()?),
            ))
        })
        .collect()
}

/// A frame's identity: (stream, index, frame number).
type Key = (String, u64, u64);

fn key_of(frame: &Value) -> Key {
    (
        frame["stream"].as_str().expect("stream").to_owned(),
        frame["stream_index"].as_u64().expect("stream_index"),
        frame["frame_number"].as_u64().expect("number"),
    )
}

/// Every frame librealsense (`python`) plays from `path`, with its
/// metadata; a frame handed over twice counts once.
fn played(python: &Path, path: &Path) -> BTreeMap<Key, Value> {
    stdout_of(
        Command::new(python)
            .arg(common::root().join("tests/interop/rs_play.py"))
            .arg(path)
            .arg("--metadata"),
    )
    .lines()
    .map(|line| {
        // A recording holds some of the source's frames, counted anew.
        let frame = common::frame_without_position(line);
        (key_of(&frame), frame)
    })
    .collect()
}

/// The device librealsense (`python`) plays from `path`.
fn device(python: &Path, path: &Path) -> Value {
    serde_json::from_str(&stdout_of(
        Command::new(python)
            .arg(common::root().join("tests/interop/rs_play.py"))
            .arg(path)
            .arg("--device-json"),
    ))
    .expect("json")
}

/// The frames of `path` as rsbag reads it: how many per stream ("Depth_0"
/// → count; a frame librealsense handed over twice is there twice), and
/// which.
fn frames_in_file(path: &Path) -> (BTreeMap<String, u64>, BTreeSet<Key>) {
    let mut counts = BTreeMap::new();
    let mut keys = BTreeSet::new();
    let listing = stdout_of(
        Command::new(env!("CARGO_BIN_EXE_rsbag"))
            .args(["frames", "--json"])
            .arg(path),
    );
    for line in listing.lines() {
        let key = key_of(&serde_json::from_str(line).expect("json"));
        *counts.entry(format!("{}_{}", key.0, key.1)).or_default() += 1;
        keys.insert(key);
    }
    (counts, keys)
}

/// Record `source` with `lib` into `out`, then judge `out` with
/// librealsense (`judge`) against what `judge` plays from `source`.
fn check(lib: &Librealsense, source: &Source, out: &Path, judge: &Path) {
    let what = out.display();
    let report = record(lib, source, out, &[]);
    assert!(!report.is_empty(), "{what}: no report");
    for (stream, (_, dropped)) in &report {
        assert_eq!(
            *dropped, 0,
            "{what}: {stream}: rsbag's recorder dropped frames"
        );
    }
    // The file holds every frame the recorder received.
    let received: BTreeMap<String, u64> =
        report.iter().map(|(s, (n, _))| (s.clone(), *n)).collect();
    let (counts, recorded) = frames_in_file(out);
    assert_eq!(counts, received, "{what}");

    let theirs = played(judge, &source.path);
    let ours = played(judge, out);
    let ours_keys: BTreeSet<Key> = ours.keys().cloned().collect();
    assert_eq!(
        ours_keys, recorded,
        "{what}: librealsense plays every recorded frame"
    );
    for (key, frame) in &ours {
        let source_frame = theirs
            .get(key)
            .unwrap_or_else(|| panic!("{what}: {key:?} was never streamed"));
        assert_eq!(frame, source_frame, "{what}: {key:?}");
    }
    for (stream, index, _) in theirs.keys() {
        assert!(
            received.contains_key(&format!("{stream}_{index}")),
            "{what}: {stream} {index} not recorded"
        );
    }
    // The simulated camera is librealsense playing the source in real
    // time, which skips what it falls behind on when the machine is loaded
    // (IMU and pose samples most, video frames too: seen on 3 of 4 runs
    // with the other core busy). What it delivered the recorder wrote (the
    // counts above); most of the source must have been delivered.
    assert!(
        ours.len() * 4 >= theirs.len() * 3,
        "{what}: {} of {}",
        ours.len(),
        theirs.len()
    );

    same_device(
        &device(judge, &source.path),
        &device(judge, out),
        &what.to_string(),
    );
}

/// librealsense turns a stored transform into extrinsics through float
/// arithmetic (quaternion to matrix, inverse), so extrinsics written as it
/// reported them read back within a few float steps of 1e-8 here.
const EXTRINSICS_TOLERANCE: f64 = 1e-6;

/// The recorded device is the source's: camera info, each sensor's info
/// and options, the recorded streams' profiles (librealsense, like rsbag,
/// writes the profiles of the streams recorded) with intrinsics and
/// motion intrinsics, and the extrinsics between them.
fn same_device(source: &Value, ours: &Value, what: &str) {
    assert_eq!(ours["camera_info"], source["camera_info"], "{what}");
    let sensors = |d: &Value| d["sensors"].as_array().expect("sensors").clone();
    let (source_sensors, our_sensors) = (sensors(source), sensors(ours));
    assert_eq!(our_sensors.len(), source_sensors.len(), "{what}: sensors");
    let mut recorded = BTreeSet::new();
    for (theirs, mine) in source_sensors.iter().zip(&our_sensors) {
        for field in ["name", "camera_info", "options"] {
            assert_eq!(
                mine[field], theirs[field],
                "{what}: {}: {field}",
                theirs["name"]
            );
        }
        // The playback numbers profiles itself (unique_id).
        let profiles = |s: &Value| -> BTreeMap<String, Value> {
            s["profiles"]
                .as_array()
                .expect("profiles")
                .iter()
                .map(|p| {
                    let mut p = p.clone();
                    p.as_object_mut().expect("profile").remove("unique_id");
                    (p["key"].as_str().expect("key").to_owned(), p)
                })
                .collect()
        };
        let source_profiles = profiles(theirs);
        for (key, profile) in profiles(mine) {
            assert_eq!(Some(&profile), source_profiles.get(&key), "{what}: {key}");
            recorded.insert(key);
        }
    }
    assert!(!recorded.is_empty(), "{what}: no profile");
    let extrinsics = |d: &Value| -> BTreeMap<(String, String), Value> {
        d["extrinsics"]
            .as_array()
            .expect("extrinsics")
            .iter()
            .map(|e| {
                let end = |k: &str| e[k].as_str().expect("key").to_owned();
                ((end("from"), end("to")), e.clone())
            })
            .collect()
    };
    let source_extrinsics = extrinsics(source);
    let our_extrinsics = extrinsics(ours);
    assert_eq!(
        our_extrinsics.len(),
        recorded.len() * (recorded.len() - 1),
        "{what}: extrinsics between every two recorded streams"
    );
    for (pair, mine) in &our_extrinsics {
        let theirs = &source_extrinsics[pair];
        for field in ["rotation", "translation"] {
            let numbers = |v: &Value| -> Option<Vec<f64>> {
                v[field]
                    .as_array()
                    .map(|a| a.iter().map(|x| x.as_f64().expect("number")).collect())
            };
            let (a, b) = (numbers(theirs), numbers(mine));
            assert_eq!(a.is_some(), b.is_some(), "{what}: {pair:?} {field}");
            let (a, b) = (a.unwrap_or_default(), b.unwrap_or_default());
            assert!(
                a.len() == b.len()
                    && a.iter()
                        .zip(&b)
                        .all(|(x, y)| (x - y).abs() <= EXTRINSICS_TOLERANCE),
                "{what}: {pair:?} {field}: {a:?} recorded as {b:?}"
            );
        }
    }
}

/// `camera` recorded with librealsense 2.55 into a `.bag` and with 2.59
/// into a `.db3` (or, with `db3: false`, into a `.bag` with both).
fn records_faithfully(camera: &str, db3: bool) {
    let dir = tempfile::tempdir().expect("tempdir");
    let source = write_source(camera, dir.path());
    let lib255 = librealsense(Path::new("python3"));
    let lib259 = librealsense(&common::python_259_path());
    let python3 = Path::new("python3");
    check(&lib255, &source, &dir.path().join("with-255.bag"), python3);
    if db3 {
        let out = dir.path().join("with-259.db3");
        check(&lib259, &source, &out, &common::python_259_path());
    } else {
        check(&lib259, &source, &dir.path().join("with-259.bag"), python3);
    }
}

#[test]
fn a_d435i_with_imu_is_recorded_with_every_frame_metadata_and_calibration() {
    records_faithfully("d435i", true);
}

#[test]
fn a_stereo_infrared_pair_is_recorded_with_its_extrinsics() {
    records_faithfully("stereo", true);
}

/// librealsense 2.59 cannot open a `.db3` with a pose stream (rsbag
/// refuses to write one): the T265 goes into `.bag` with both libraries.
#[test]
fn a_t265_like_tracking_camera_is_recorded_with_its_poses() {
    records_faithfully("t265", false);
}

/// A camera recorded in pieces (`--split-duration`): librealsense plays
/// each piece alone, with the device in full; together they hold every
/// frame the recorder received, each once, with the source's bytes and
/// metadata, the frame numbers never going back from piece to piece (a
/// frame librealsense hands over twice, as it does on a loaded machine,
/// is recorded twice, and may straddle a cut).
#[test]
fn a_camera_recorded_in_pieces_loses_no_frame_at_a_cut() {
    let dir = tempfile::tempdir().expect("tempdir");
    let source = write_source("d435i", dir.path());
    let python3 = PathBuf::from("python3");
    let python259 = common::python_259_path();
    for (judge, ext) in [(&python3, "bag"), (&python259, "db3")] {
        let lib = librealsense(judge);
        let out = dir.path().join(format!("pieces.{ext}"));
        // The source lasts about a second: three pieces, none of a few
        // milliseconds.
        let report = record(&lib, &source, &out, &["--split-duration", "0.35"]);
        let theirs = played(judge, &source.path);
        let source_device = device(judge, &source.path);
        let mut last: BTreeMap<String, u64> = BTreeMap::new();
        let mut counts: BTreeMap<String, u64> = BTreeMap::new();
        let mut pieces = 0;
        while dir.path().join(format!("pieces_{pieces}.{ext}")).exists() {
            let piece = dir.path().join(format!("pieces_{pieces}.{ext}"));
            let what = piece.display().to_string();
            let ours = played(judge, &piece);
            assert!(!ours.is_empty(), "{what} plays no frame");
            let (in_piece, recorded) = frames_in_file(&piece);
            let ours_keys: BTreeSet<Key> = ours.keys().cloned().collect();
            assert_eq!(ours_keys, recorded, "{what}: librealsense plays it all");
            for (stream, n) in in_piece {
                *counts.entry(stream).or_default() += n;
            }
            for (key, frame) in &ours {
                assert_eq!(Some(frame), theirs.get(key), "{what}: {key:?}");
                let before = last.insert(format!("{}_{}", key.0, key.1), key.2);
                assert!(
                    before.is_none_or(|n| n <= key.2),
                    "{what}: {key:?} after #{before:?}: frame numbers run on"
                );
            }
            same_device(&source_device, &device(judge, &piece), &what);
            pieces += 1;
        }
        assert!(pieces >= 3, ".{ext}: {pieces} pieces");
        let received: BTreeMap<String, u64> =
            report.iter().map(|(s, (n, _))| (s.clone(), *n)).collect();
        assert_eq!(counts, received, ".{ext}: every frame received, once");
        assert!(
            report.values().all(|(_, dropped)| *dropped == 0),
            "{report:?}"
        );
    }
}
