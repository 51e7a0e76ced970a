//! Several recordings as one session, with multi-camera sessions recorded
//! by librealsense itself (tests/interop/rs_session.py): three cameras
//! recorded by 2.55 into `.bag`s and a fourth by 2.59 into a `.db3` at the
//! same time, started at different moments, one with frames dropped;
//! once with Global Time timestamps, once with each camera's own hardware
//! clock (only the host's arrival time shared).
//!
//! The truth is what the script fed: every frame, and the host time it
//! was planned for.

use crate::common;
use crate::librealsense_session;
use crate::run;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

use rsbag::device::{StreamId, StreamKind};
use rsbag::recording::{FramesetOptions, Session, SessionClock, SessionOptions};
use serde_json::Value;

/// A frame period at 30 fps, ms.
const PERIOD: f64 = 1000.0 / 30.0;

/// A session recorded by librealsense, and what was fed to it.
struct Recorded {
    _dir: tempfile::TempDir,
    files: Vec<PathBuf>,
    /// Per camera (serial): its start (ms after moment 0) and frames.
    cameras: BTreeMap<String, Camera>,
    t0: f64,
}

struct Camera {
    file: PathBuf,
    start_ms: f64,
    /// The camera's clock: its timestamp at its start, and its rate
    /// against the host's.
    origin_ms: f64,
    rate: f64,
    /// Meters per depth unit.
    depth_units: f32,
    frames: Vec<Value>,
}

impl Camera {
    /// The camera's hardware-clock timestamp at host time `host` (ms
    /// after moment 0).
    fn clock_at(&self, host: f64) -> f64 {
        self.origin_ms + (host - self.start_ms) * self.rate
    }

    /// The most any frame was fed after the host time planned for it, ms.
    fn late_ms(&self) -> f64 {
        librealsense_session::late_ms(&self.frames)
    }
}

fn s(path: &Path) -> &str {
    path.to_str().expect("utf-8 path")
}

/// Record CAM-A, CAM-B and CAM-C with librealsense 2.55 and CAM-D with
/// 2.59, at once, on `clock` (`global` or `hardware`).
fn record(clock: &str) -> Recorded {
    let recorded = librealsense_session::record(clock);
    let mut cameras = BTreeMap::new();
    for camera in &recorded.cameras {
        cameras.insert(
            camera["serial"].as_str().expect("serial").to_owned(),
            Camera {
                file: PathBuf::from(camera["file"].as_str().expect("file")),
                start_ms: camera["start_ms"].as_f64().expect("start"),
                origin_ms: camera["origin_ms"].as_f64().expect("origin"),
                rate: camera["rate"].as_f64().expect("rate"),
                depth_units: camera["depth_units"].as_f64().expect("units") as f32,
                frames: camera["frames"].as_array().expect("frames").clone(),
            },
        );
    }
    let files = cameras.values().map(|c| c.file.clone()).collect();
    Recorded {
        _dir: recorded.dir,
        files,
        cameras,
        t0: recorded.t0,
    }
}

fn global() -> &'static Recorded {
    static RECORDED: OnceLock<Recorded> = OnceLock::new();
    RECORDED.get_or_init(|| record("global"))
}

fn hardware() -> &'static Recorded {
    static RECORDED: OnceLock<Recorded> = OnceLock::new();
    RECORDED.get_or_init(|| record("hardware"))
}

/// `rsbag frames --json` of the session, with `extra` options.
fn session_lines(recorded: &Recorded, extra: &[&str]) -> Vec<Value> {
    let mut args = vec!["frames", "--json"];
    args.extend_from_slice(extra);
    args.extend(recorded.files.iter().map(|f| s(f)));
    let out = run::ok(&args);
    out.lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

/// A frame as fed and as printed: camera, stream, number, bytes.
fn key(serial: &str, frame: &Value) -> (String, String, u64, String) {
    (
        serial.to_owned(),
        frame["stream"].as_str().expect("stream").to_owned(),
        frame["frame_number"].as_u64().expect("number"),
        frame["sha256"].as_str().expect("sha").to_owned(),
    )
}

/// Every frame of every file exactly once, in time order on the session
/// clock, each naming its camera and file.
fn assert_every_frame_once_in_order(recorded: &Recorded, lines: &[Value]) {
    let mut fed: Vec<_> = (recorded.cameras.iter())
        .flat_map(|(serial, c)| c.frames.iter().map(|f| key(serial, f)))
        .collect();
    let mut read: Vec<_> = (lines.iter())
        .map(|l| key(l["serial"].as_str().expect("serial"), l))
        .collect();
    fed.sort();
    read.sort();
    assert_eq!(read.len(), fed.len());
    assert_eq!(read, fed, "every frame of every file, exactly once");
    let times: Vec<f64> = (lines.iter())
        .map(|l| l["session_time"].as_f64().expect("session_time"))
        .collect();
    assert!(
        times.windows(2).all(|w| w[0] <= w[1]),
        "in time order on the session's clock"
    );
    for line in lines {
        let camera = &recorded.cameras[line["serial"].as_str().expect("serial")];
        assert_eq!(line["file"], s(&camera.file));
    }
}

/// Per camera, the median of (session time − the true host time) over its
/// frames: where the session puts the camera against the truth.
fn placement(recorded: &Recorded, lines: &[Value], truth: impl Fn(&Value) -> f64) -> Vec<f64> {
    let mut per_camera: BTreeMap<&str, Vec<f64>> = BTreeMap::new();
    for line in lines {
        let serial = line["serial"].as_str().expect("serial");
        let fed = (recorded.cameras[serial].frames.iter())
            .find(|f| key(serial, f) == key(serial, line))
            .expect("a fed frame");
        let t = line["session_time"].as_f64().expect("time");
        per_camera.entry(serial).or_default().push(t - truth(fed));
    }
    per_camera
        .into_values()
        .map(|mut v| {
            v.sort_by(f64::total_cmp);
            v[v.len() / 2]
        })
        .collect()
}

/// The cameras' placements agree within a frame period: the session's
/// offsets between cameras are the truth's.
fn assert_within_a_period(placements: &[f64]) {
    let lo = placements.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = placements.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    assert!(
        hi - lo < PERIOD,
        "cameras placed {placements:?} ms off the truth: more than a frame period apart"
    );
}

#[test]
fn global_time_recordings_merge_on_their_timestamps() {
    let recorded = global();
    let lines = session_lines(recorded, &[]);
    assert!(lines.iter().all(|l| l["clock"] == "global time"));
    assert_every_frame_once_in_order(recorded, &lines);
    // On Global Time the session time is the frame's timestamp, the host
    // time the script gave it.
    for line in &lines {
        assert_eq!(line["session_time"], line["timestamp"]);
    }
    let placements = placement(recorded, &lines, |f| f["host_ms"].as_f64().expect("host"));
    assert!(placements.iter().all(|p| p.abs() < 1e-3), "{placements:?}");
    // The text says the clock and names each line's camera.
    let text = run::ok(
        &std::iter::once("frames")
            .chain(recorded.files.iter().map(|f| s(f)))
            .collect::<Vec<_>>(),
    );
    assert!(text.starts_with("session: 4 recordings, clock: global time"));
    let frames = text
        .lines()
        .filter(|l| !l.starts_with("camera:") && !l.starts_with("session:"));
    assert_eq!(frames.filter(|l| l.contains(" CAM-C ")).count(), 35);
}

#[test]
fn hardware_clock_recordings_merge_on_arrival_time() {
    let recorded = hardware();
    let lines = session_lines(recorded, &[]);
    assert!(lines.iter().all(|l| l["clock"] == "arrival time"));
    assert_every_frame_once_in_order(recorded, &lines);
    let placements = placement(recorded, &lines, |f| f["host_ms"].as_f64().expect("host"));
    assert_within_a_period(&placements);
}

#[test]
fn recording_start_with_offsets_places_each_camera_where_it_started() {
    let recorded = hardware();
    let offsets: Vec<String> = (recorded.cameras.iter())
        .map(|(serial, c)| format!("{serial}={}", c.start_ms / 1000.0))
        .collect();
    let mut extra = vec!["--clock", "start"];
    for o in &offsets {
        extra.extend(["--offset", o.as_str()]);
    }
    let lines = session_lines(recorded, &extra);
    assert!(lines.iter().all(|l| l["clock"] == "recording start"));
    assert_every_frame_once_in_order(recorded, &lines);
    // Each recording's time counts from its first frame: with the offsets
    // the truth gave, cameras sit where they were on the host's clock.
    let t0 = recorded.t0;
    let placements = placement(recorded, &lines, |f| {
        f["host_ms"].as_f64().expect("host") - t0
    });
    assert_within_a_period(&placements);
    // Without them every camera starts at 0: CAM-B, which started 340 ms
    // late, is then placed a frame period and more off.
    let lines = session_lines(recorded, &["--clock", "start"]);
    assert_every_frame_once_in_order(recorded, &lines);
    let placements = placement(recorded, &lines, |f| {
        f["host_ms"].as_f64().expect("host") - t0
    });
    let spread = placements.iter().copied().fold(f64::NEG_INFINITY, f64::max)
        - placements.iter().copied().fold(f64::INFINITY, f64::min);
    assert!(spread > 300.0, "{placements:?}");
}

#[test]
fn a_clock_the_recordings_do_not_share_is_refused() {
    let recorded = hardware();
    let mut args = vec!["frames", "--clock", "global"];
    args.extend(recorded.files.iter().map(|f| s(f)));
    let out = run::rsbag(&args);
    assert_eq!(out.code, Some(1));
    assert!(
        out.stderr.contains("best clock they share is arrival time"),
        "{}",
        out.stderr
    );
    let mut args = vec!["frames", "--offset", "nothing.bag=1"];
    args.extend(recorded.files.iter().map(|f| s(f)));
    let out = run::rsbag(&args);
    assert_eq!(out.code, Some(1));
    assert!(out.stderr.contains("nothing.bag"), "{}", out.stderr);
}

#[test]
fn each_reads_the_files_one_by_one_as_before() {
    let recorded = global();
    let mut args = vec!["frames", "--json", "--each"];
    args.extend(recorded.files.iter().map(|f| s(f)));
    let out = run::ok(&args);
    let lines: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("json"))
        .collect();
    assert!(lines
        .iter()
        .all(|l| l.get("serial").is_none() && l.get("file").is_some()));
    // File by file, in the order given.
    let files: Vec<&str> = lines
        .iter()
        .map(|l| l["file"].as_str().expect("file"))
        .collect();
    let mut dedup = files.clone();
    dedup.dedup();
    assert_eq!(dedup.len(), recorded.files.len());
}

#[test]
fn the_session_window_counts_from_its_first_frame() {
    let recorded = global();
    let all = session_lines(recorded, &[]);
    let origin = all[0]["session_time"].as_f64().expect("time");
    // Its ends 3 ms or more from any frame: at a frame, rounding the
    // session's times (ms since the epoch) would decide.
    let window = session_lines(recorded, &["--start", "0.31", "--duration", "0.5"]);
    let expected: Vec<&Value> = (all.iter())
        .filter(|l| {
            let t = l["session_time"].as_f64().expect("time") - origin;
            (310.0..810.0).contains(&t)
        })
        .collect();
    assert_eq!(window.iter().collect::<Vec<_>>(), expected);
    assert!(window.iter().any(|l| l["serial"] == "CAM-B"));
}

/// The brute-force rule: each reference frame (CAM-A's depth) makes a set;
/// a frame of another camera's depth joins it when each is the other's
/// nearest (ties to the earlier) and they are within the tolerance.
fn brute_force_sets(lanes: &[Vec<f64>], tolerance: f64) -> Vec<Vec<Option<f64>>> {
    let nearest = |times: &[f64], t: f64| {
        let mut best: Option<f64> = None;
        for &x in times {
            if best.is_none_or(|b| (x - t).abs() < (b - t).abs()) {
                best = Some(x);
            }
        }
        best
    };
    let references = &lanes[0];
    references
        .iter()
        .map(|&a| {
            std::iter::once(Some(a))
                .chain(lanes[1..].iter().map(|lane| {
                    let b = nearest(lane, a)?;
                    let mutual = nearest(references, b) == Some(a);
                    ((b - a).abs() <= tolerance && mutual).then_some(b)
                }))
                .collect()
        })
        .collect()
}

#[test]
fn framesets_pair_each_moment_as_the_nearest_neighbours_do() {
    let recorded = global();
    let session = Session::open(&recorded.files).expect("open the session");
    assert_eq!(session.clock(), SessionClock::GlobalTime);
    let depth = StreamId::new(StreamKind::Depth, 0);
    // The truth's times of each camera's depth frames, files in order.
    let lanes: Vec<Vec<f64>> = (session.files().iter())
        .map(|file| {
            let camera = &recorded.cameras[file.serial()];
            let mut times: Vec<f64> = (camera.frames.iter())
                .filter(|f| f["stream"] == "Depth")
                .map(|f| f["host_ms"].as_f64().expect("host"))
                .collect();
            times.sort_by(f64::total_cmp);
            times
        })
        .collect();
    for tolerance in [2.0, 10.0, 20.0] {
        let options = FramesetOptions {
            streams: vec![depth],
            tolerance: Duration::from_secs_f64(tolerance / 1000.0),
        };
        let sets: Vec<Vec<Option<f64>>> = (session.framesets(options).expect("framesets"))
            .map(|set| {
                let set = set.expect("a frameset");
                (0..session.files().len())
                    .map(|file| set.get(file, depth).map(|f| f.time_ms))
                    .collect()
            })
            .collect();
        assert_eq!(
            sets,
            brute_force_sets(&lanes, tolerance),
            "tolerance {tolerance} ms"
        );
    }
}

#[test]
fn a_windows_frame_count_bound_holds_the_frames_read() {
    let recorded = global();
    let session = Session::open(&recorded.files).expect("session");
    let total = session.frames().expect("frames").count() as u64;
    assert_eq!(session.select().frame_count_bound().expect("bound"), total);
    let depth = StreamId::new(StreamKind::Depth, 0);
    for (from, to) in [(0.0, 0.1), (0.3, 0.8), (1.0, 9.0)] {
        for streams in [None, Some(vec![depth])] {
            let range = Duration::from_secs_f64(from)..Duration::from_secs_f64(to);
            let mut query = session.select().time(range);
            if let Some(streams) = &streams {
                query = query.streams(streams.clone());
            }
            let bound = query.frame_count_bound().expect("bound");
            let read = query.frames().expect("frames").count() as u64;
            assert!(
                read > 0 && read <= bound && bound < total,
                "{from}-{to} s, {streams:?}: {read} read, bound {bound}, {total} in all"
            );
        }
    }
}

#[test]
fn offsets_of_the_library_session_shift_a_file() {
    let recorded = hardware();
    let b = recorded.cameras["CAM-B"].file.clone();
    let options = SessionOptions {
        clock: Some(SessionClock::RecordingStart),
        offsets: vec![(b.clone(), 0.34)],
    };
    let session = Session::open_with(&recorded.files, options).expect("open");
    let file = (session.files().iter())
        .position(|f| f.path() == b)
        .expect("CAM-B");
    let first = (session.frames().expect("frames"))
        .map(|f| f.expect("frame"))
        .find(|f| f.file == file)
        .expect("a CAM-B frame");
    assert_eq!(first.time_ms, 340.0);
    assert_eq!(session.files()[file].serial(), "CAM-B");
}

#[test]
fn info_describes_the_session_besides_each_file() {
    let recorded = global();
    let mut args = vec!["info"];
    args.extend(recorded.files.iter().map(|f| s(f)));
    let text = run::ok(&args);
    assert_eq!(
        text.matches("\nfile:").count() + 1,
        4,
        "each file described"
    );
    assert!(text.contains("session:       4 recordings on one timeline"));
    assert!(text.contains("clock:         global time"));
    args.insert(1, "--json");
    let json = run::ok(&args);
    let last: Value = serde_json::from_str(json.lines().last().expect("a line")).expect("json");
    let session = &last["session"];
    assert_eq!(session["clock"], "global time");
    let cameras = session["cameras"].as_array().expect("cameras");
    let serials: Vec<&str> = cameras
        .iter()
        .map(|c| c["serial"].as_str().expect("serial"))
        .collect();
    assert_eq!(serials, ["CAM-A", "CAM-B", "CAM-C", "CAM-D"]);
    // The truth: CAM-A starts first, CAM-B last (340 ms later) and CAM-D
    // ends first: the overlap is from CAM-B's first frame to CAM-D's last.
    let span = |i: usize| {
        let s = cameras[i]["span_s"].as_array().expect("span");
        (s[0].as_f64().expect("from"), s[1].as_f64().expect("to"))
    };
    let overlap = session["overlap_s"].as_array().expect("overlap");
    assert_eq!(overlap[0].as_f64(), Some(span(1).0));
    assert_eq!(overlap[1].as_f64(), Some(span(3).1));
    let b_start = recorded.cameras["CAM-B"].start_ms / 1000.0;
    assert!((span(1).0 - b_start).abs() < 1e-6, "{:?}", span(1));
    assert_eq!(cameras[2]["frames"], 35);
}

#[test]
fn the_sync_report_finds_the_gap_and_the_frames_without_a_partner() {
    let recorded = global();
    let session = Session::open(&recorded.files).expect("open");
    let report = session.sync_report(None).expect("sync report");
    assert_eq!(report.clock, "global time");
    assert!((report.tolerance_ms - PERIOD / 2.0).abs() < 1e-9);
    assert_eq!(report.pairs.len(), 6);
    let pair = |a: &str, b: &str| {
        (report.pairs.iter())
            .find(|p| p.cameras == [a, b])
            .unwrap_or_else(|| panic!("{a} / {b}"))
    };
    // On Global Time both cameras stamp on the host's clock.
    for p in &report.pairs {
        // (Within what f64 holds of ms since the epoch.)
        assert!(p.offset_ms.expect("offset").abs() < 1e-2, "{p:?}");
        assert!(p.drift_ppm.expect("drift").abs() < 1e-3, "{p:?}");
    }
    // CAM-C dropped frames 15..24: a gap from its frame 14 to its 25, and
    // the frames of the others then have no partner (the script puts
    // CAM-B 6.7 ms and CAM-D 13.3 ms off CAM-C's moments, within half a
    // period).
    let c = &recorded.cameras["CAM-C"];
    let gap = [c.start_ms + 14.0 * PERIOD, c.start_ms + 25.0 * PERIOD].map(|t| t / 1000.0);
    for (a, b, without) in [
        ("CAM-A", "CAM-C", [10, 0]),
        ("CAM-B", "CAM-C", [10, 0]),
        ("CAM-C", "CAM-D", [0, 10]),
    ] {
        let p = pair(a, b);
        assert_eq!(p.without_partner, without, "{a} / {b}");
        assert_eq!(p.gaps.len(), 1, "{p:?}");
        assert_eq!(p.gaps[0].camera, "CAM-C");
        assert!((p.gaps[0].from_s - gap[0]).abs() < 1e-3, "{p:?}");
        assert!((p.gaps[0].to_s - gap[1]).abs() < 1e-3, "{p:?}");
    }
    let p = pair("CAM-A", "CAM-B");
    assert_eq!(p.without_partner, [0, 0]);
    assert!(p.gaps.is_empty());
    // The command line prints it after the files' own reports.
    let mut args = vec!["check"];
    args.extend(recorded.files.iter().map(|f| s(f)));
    let out = run::rsbag(&args);
    assert_eq!(out.code, Some(3), "CAM-C dropped frames: {}", out.stderr);
    assert!(out
        .stdout
        .contains("\nsync:    on global time, frames are partners within 16.667 ms"));
    assert!(out.stdout.contains("  CAM-A / CAM-C (Depth / Depth)"));
    assert!(out
        .stdout
        .contains("    without partner:  10 of CAM-A, 0 of CAM-C"));
    assert!(out
        .stdout
        .contains("    gap:              CAM-C recorded nothing from 0.667 s to 1.033 s"));
}

#[test]
fn the_sync_report_measures_the_offset_between_hardware_clocks() {
    let recorded = hardware();
    let session = Session::open(&recorded.files).expect("open");
    assert_eq!(session.clock(), SessionClock::ArrivalTime);
    let report = session.sync_report(None).expect("sync report");
    assert_eq!(report.pairs.len(), 6);
    for p in &report.pairs {
        let [a, b] = &p.cameras;
        let (ca, cb) = (&recorded.cameras[a], &recorded.cameras[b]);
        // The overlap starts at the later camera's first frame: the truth's
        // clocks there.
        let host = ca.start_ms.max(cb.start_ms);
        let truth = cb.clock_at(host) - ca.clock_at(host);
        let offset = p.offset_ms.expect("offset");
        let late = ca.late_ms().max(cb.late_ms());
        let tolerance = librealsense_session::offset_tolerance_ms(late);
        assert!(
            (offset - truth).abs() < tolerance,
            "{a} / {b}: offset {offset} ms, truth {truth} ms, within {tolerance} ms"
        );
        let overlap = p.overlap_s.expect("overlap");
        assert!(
            (overlap[0] * 1000.0 - host).abs() < PERIOD + late,
            "{p:?}, frames fed up to {late} ms late"
        );
        // The drift, fitted against arrival times over a second and a
        // half, is off the clocks' by whatever the host's load delays
        // arrivals: its standard error says by how much (a few errors at
        // most: delays come in bursts on a loaded host, and a CI run once
        // found the truth 3.2 errors away).
        let (drift, error) = (
            p.drift_ppm.expect("drift"),
            p.drift_ppm_error.expect("error"),
        );
        let true_drift = (cb.rate - ca.rate) * 1e6;
        assert!(error.is_finite() && error > 0.0, "{p:?}");
        assert!(
            (drift - true_drift).abs() < 5.0 * error,
            "{a} / {b}: drift {drift} ± {error} ppm, truth {true_drift} ppm"
        );
    }
}

#[test]
fn convert_writes_each_moments_frames_side_by_side() {
    let recorded = global();
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("sets");
    let mut args = vec!["convert", "--session", "--to", "png", "--streams", "depth"];
    args.extend(["--tolerance", "10", "--out", s(&out)]);
    args.extend(recorded.files.iter().map(|f| s(f)));
    let printed = run::ok(&args);
    assert!(printed.starts_with("wrote 45 framesets"), "{printed}");
    // The sets are the brute-force pairing's (as the library's).
    let serials = ["CAM-A", "CAM-B", "CAM-C", "CAM-D"];
    let lanes: Vec<Vec<f64>> = (serials.iter())
        .map(|serial| {
            let mut times: Vec<f64> = (recorded.cameras[*serial].frames.iter())
                .filter(|f| f["stream"] == "Depth")
                .map(|f| f["host_ms"].as_f64().expect("host"))
                .collect();
            times.sort_by(f64::total_cmp);
            times
        })
        .collect();
    let expected = brute_force_sets(&lanes, 10.0);
    let index = std::fs::read_to_string(out.join("framesets.csv")).expect("framesets.csv");
    let mut sets: Vec<Vec<Option<f64>>> = vec![vec![None; 4]; expected.len()];
    for row in index.lines().skip(1) {
        let cells: Vec<&str> = row.split(',').collect();
        let set: usize = cells[0].parse().expect("set");
        let camera = serials.iter().position(|c| *c == cells[2]).expect("camera");
        sets[set - 1][camera] = Some(cells[8].parse().expect("session time"));
        // The picture is the frame fed: its pixels' SHA-256.
        let little = run::depth_png(&out.join(cells[9]));
        use sha2::Digest;
        let sha: String = sha2::Sha256::digest(&little)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        let number: u64 = cells[6].parse().expect("number");
        let fed = (recorded.cameras[cells[2]].frames.iter())
            .find(|f| f["stream"] == "Depth" && f["frame_number"] == number)
            .expect("fed");
        assert_eq!(fed["sha256"], sha.as_str(), "{row}");
    }
    assert_eq!(sets, expected);
    assert!(out.join("CAM-A_Depth_000001.png").is_file());
    // Without --session the files are converted one by one, as before.
    let mut args = vec!["convert", "--to", "png", "--offset", "CAM-B=1"];
    args.extend(["--out", s(&out)]);
    args.extend(recorded.files.iter().map(|f| s(f)));
    let refused = run::rsbag(&args);
    assert_eq!(refused.code, Some(1));
    assert!(
        refused.stderr.contains("go with --session"),
        "{}",
        refused.stderr
    );
}

#[test]
fn convert_skips_the_streams_png_cannot_hold_unless_named() {
    // The librealsense motion sample has depth and IMU streams.
    let dir = tempfile::tempdir().expect("tempdir");
    let depth_color = common::sample("librealsense-depth-color-lz4.bag");
    let motion = common::sample("librealsense-motion-lz4.bag");
    let files = [s(&depth_color), s(&motion)];
    let convert = |out: &Path, extra: &[&str]| {
        let mut args = vec!["convert", "--session", "--to", "png", "--out", s(out)];
        args.extend(extra);
        args.extend(files);
        run::rsbag(&args)
    };
    // Unnamed, the IMU streams are skipped and said so; the sets are those
    // of the image streams named.
    let all = dir.path().join("all");
    let run = convert(&all, &[]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    for imu in ["Gyro 0", "Accel 0"] {
        assert!(
            run.stdout.contains(&format!("skipped {imu}: not an image")),
            "{}",
            run.stdout
        );
    }
    let images = dir.path().join("images");
    let named = convert(&images, &["--streams", "depth,color"]);
    assert_eq!(named.code, Some(0), "{}", named.stderr);
    // Two samples recorded apart, each on its own clock: read as asked,
    // and said not to be one session.
    assert!(
        named.stderr.contains("warning: not one session: "),
        "{}",
        named.stderr
    );
    let index =
        |dir: &Path| std::fs::read_to_string(dir.join("framesets.csv")).expect("framesets.csv");
    assert_eq!(index(&all), index(&images));
    assert!(index(&all).lines().count() > 1);
    // Named, an IMU stream is refused, naming its file, and nothing is
    // written.
    let gyro = dir.path().join("gyro");
    let run = convert(&gyro, &["--streams", "gyro"]);
    assert_eq!(run.code, Some(1));
    assert!(
        run.stderr
            .contains("librealsense-motion-lz4.bag: stream Gyro 0 cannot be written as png"),
        "{}",
        run.stderr
    );
    assert!(!gyro.exists());
}

#[test]
fn convert_colorizes_each_cameras_depth_over_its_own_units() {
    let recorded = global();
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("sets");
    let (near, far) = (0.05, 3.0);
    let mut args = vec!["convert", "--session", "--to", "png", "--streams", "depth"];
    args.extend(["--colorize", "--colorize-range", "0.05,3", "--out", s(&out)]);
    args.extend(recorded.files.iter().map(|f| s(f)));
    run::ok(&args);
    let index = std::fs::read_to_string(out.join("framesets.csv")).expect("framesets.csv");
    let (mut depths, mut colorized, mut units_tell) = (0, 0, false);
    for row in index.lines().skip(1) {
        let cells: Vec<&str> = row.split(',').collect();
        let Some(depth_png) = cells[9].strip_suffix("_colorized.png") else {
            depths += 1;
            assert!(
                index.contains(&cells[9].replace(".png", "_colorized.png")),
                "{row}"
            );
            continue;
        };
        // Each pixel is the documented map of its depth, in the camera's
        // own units (CAM-B's are 100 µm).
        colorized += 1;
        let units = recorded.cameras[cells[2]].depth_units;
        let depth = run::depth_png(&out.join(format!("{depth_png}.png")));
        let (.., color, _, rgb) = run::decode_png(&out.join(cells[9]));
        assert_eq!(color, png::ColorType::Rgb, "{row}");
        for (i, d) in depth.chunks_exact(2).enumerate() {
            let d = u16::from_le_bytes([d[0], d[1]]);
            assert_eq!(
                &rgb[3 * i..3 * i + 3],
                run::jet(d, units, near, far),
                "{row}: {i}"
            );
            units_tell |= run::jet(d, units, near, far) != run::jet(d, 0.001, near, far);
        }
    }
    assert!(depths > 0 && colorized == depths, "{depths} {colorized}");
    assert!(units_tell, "CAM-B's units change its colours");
    // Not with --to ros2, nor --align-to, nor what one recording's
    // conversion refuses: refused, nothing written.
    for (extra, why) in [
        (
            &["--to", "ros2", "--colorize"][..],
            "--colorize go with --session --to png",
        ),
        (
            &["--to", "png", "--align-to", "color"],
            "--align-to does not go with it",
        ),
        (
            &["--to", "png", "--npy-raw"],
            "--npy-raw goes with --to npy",
        ),
        (
            &["--to", "png", "--storage", "mcap"],
            "--storage, --namespace and --unite-imu go with --to ros2",
        ),
        (
            &["--to", "ros2", "--force"],
            "--force goes with --to db3, bag or a directory of files",
        ),
    ] {
        let rig = dir.path().join("refused");
        let mut args = vec!["convert", "--session"];
        args.extend(extra);
        args.extend(["--out", s(&rig)]);
        args.extend(recorded.files.iter().map(|f| s(f)));
        let refused = run::rsbag(&args);
        assert_eq!(refused.code, Some(1), "{args:?}");
        assert!(refused.stderr.contains(why), "{}", refused.stderr);
        assert!(!rig.exists());
    }
}

/// `rsbag convert --session --to ros2` of `recorded`, read back by the
/// rosbags library (tests/interop/ros2_read.py, which also checks every
/// message deserializes and `metadata.yaml` opens); `extra` options.
fn session_ros2(recorded: &Recorded, out: &Path, extra: &[&str]) -> Value {
    let mut args = vec!["convert", "--session", "--to", "ros2", "--out", s(out)];
    args.extend_from_slice(extra);
    args.extend(recorded.files.iter().map(|f| s(f)));
    let printed = run::ok(&args);
    assert!(printed.starts_with("wrote "), "{printed}");
    serde_json::from_str(&common::python("ros2_read.py", &[s(out)])).expect("rosbags reads it")
}

/// Every frame of every file once, under its camera's namespace, with the
/// bytes fed, in time order on the session's clock with the session time
/// (as `frames --json` gives it) as bag time and stamp.
fn assert_session_bag_holds_every_frame(recorded: &Recorded, read: &Value) {
    let counts = read["counts"].as_object().expect("counts");
    let total: u64 = counts.values().map(|n| n.as_u64().expect("n")).sum();
    assert_eq!(read["metadata_yaml"]["message_count"], total);
    // Each camera's frames on the session's clock: (time, frame number).
    let mut session_times: BTreeMap<(String, String), Vec<(f64, u64)>> = BTreeMap::new();
    for line in session_lines(recorded, &[]) {
        let (serial, stream, number, _) = key(line["serial"].as_str().expect("serial"), &line);
        let time = line["session_time"].as_f64().expect("time");
        session_times
            .entry((serial, stream))
            .or_default()
            .push((time, number));
    }
    let images = read["images"].as_array().expect("images");
    let mut written = Vec::new();
    let mut last = 0;
    for image in images {
        let topic = image["topic"].as_str().expect("topic");
        let (namespace, stream) = match topic.split('/').collect::<Vec<_>>()[..] {
            ["", ns, "depth", "image_rect_raw"] => (ns, "Depth"),
            ["", ns, "color", "image_raw"] => (ns, "Color"),
            _ => panic!("unexpected topic {topic}"),
        };
        // The ROS name of CAM-A is CAM_A.
        let serial = namespace.replace('_', "-");
        let folder = if stream == "Depth" { "depth" } else { "color" };
        assert_eq!(
            image["frame_id"],
            format!("{namespace}_{folder}_optical_frame"),
            "{topic}"
        );
        let time = image["time_ns"].as_u64().expect("time");
        assert_eq!(
            image["stamp_ns"], time,
            "{topic}: stamped with its bag time"
        );
        assert!(time >= last, "{topic}: in time order");
        last = time;
        // The frame at that session time is the one fed, bytes and all.
        let (_, number) = (session_times[&(serial.clone(), stream.to_owned())].iter())
            .find(|(ms, _)| (time as f64 / 1e6 - ms).abs() < 1e-3)
            .unwrap_or_else(|| panic!("{topic}: no frame at {time} ns on the session's clock"));
        let fed = (recorded.cameras[&serial].frames.iter())
            .find(|f| f["stream"] == stream && f["frame_number"] == *number)
            .expect("a fed frame");
        assert_eq!(image["sha256"], fed["sha256"], "{topic} #{number}");
        written.push(key(&serial, fed));
    }
    let mut fed: Vec<_> = (recorded.cameras.iter())
        .flat_map(|(serial, c)| c.frames.iter().map(|f| key(serial, f)))
        .collect();
    fed.sort();
    written.sort();
    assert_eq!(written, fed, "every frame of every file, exactly once");
}

#[test]
fn a_session_converts_to_one_ros2_bag_with_a_namespace_per_camera() {
    let dir = tempfile::tempdir().expect("tempdir");
    // Poses of CAM-B (by serial) and CAM-D (by its file's name), the
    // second a quaternion a little off unit length (normalized).
    let d_name = (recorded_file_name(global(), "CAM-D")).to_owned();
    let poses = [
        ("CAM-B", [0.5, -0.25, 0.1], [0.0, 0.0, 0.0, 1.0]),
        (d_name.as_str(), [-1.0, 2.0, 0.0], [0.0, 0.0, 0.6, 0.8001]),
    ];
    let pose_args: Vec<String> = (poses.iter())
        .map(|(file, t, q)| {
            let numbers: Vec<String> = t.iter().chain(q).map(f64::to_string).collect();
            format!("{file}={}", numbers.join(","))
        })
        .collect();
    let mut extra = Vec::new();
    for p in &pose_args {
        extra.extend(["--pose", p.as_str()]);
    }
    let out = dir.path().join("global");
    let read = session_ros2(global(), &out, &extra);
    assert_eq!(read["storage"], "sqlite3");
    assert_session_bag_holds_every_frame(global(), &read);
    // /tf_static: the given poses from CAM-A's base frame, the quaternion
    // normalized; and each camera's own frames.
    let tf = read["tf_static"].as_array().expect("tf_static");
    for (file, t, q) in poses {
        let child = if file == "CAM-B" {
            "CAM_B_link"
        } else {
            "CAM_D_link"
        };
        let given: Vec<&Value> = (tf.iter()).filter(|x| x["child"] == child).collect();
        assert_eq!(given.len(), 1, "{child}: {tf:?}");
        assert_eq!(given[0]["parent"], "CAM_A_link");
        assert_eq!(given[0]["translation"], serde_json::json!(t));
        let norm = q.iter().map(|v| v * v).sum::<f64>().sqrt();
        let rotation = given[0]["rotation"].as_array().expect("rotation");
        for (got, want) in rotation.iter().zip(q) {
            assert!(
                (got.as_f64().expect("q") - want / norm).abs() < 1e-12,
                "{rotation:?}"
            );
        }
    }
    for camera in ["CAM_A", "CAM_B", "CAM_C", "CAM_D"] {
        let optical = format!("{camera}_depth_optical_frame");
        assert!(
            tf.iter().any(|x| x["child"] == optical.as_str()),
            "{optical}: {tf:?}"
        );
    }
    // Hardware clocks, on arrival time, into MCAP.
    let out = dir.path().join("hardware");
    let read = session_ros2(hardware(), &out, &["--storage", "mcap"]);
    assert_eq!(read["storage"], "mcap");
    assert_session_bag_holds_every_frame(hardware(), &read);
}

#[test]
fn a_session_window_converts_the_frames_in_it() {
    let recorded = global();
    let dir = tempfile::tempdir().expect("tempdir");
    // Its ends 3 ms or more from any frame (CAM-A's tenth is at 300 ms,
    // where rounding the session's times would decide).
    let window = ["--start", "0.31", "--duration", "0.5"];
    let origin = session_lines(recorded, &[])[0]["session_time"]
        .as_f64()
        .expect("time");
    let in_window = |ms: f64| (310.0..810.0).contains(&(ms - origin));
    // ROS 2: what the whole session's bag holds in the window, read by
    // rosbags, and nothing else.
    let all = session_ros2(recorded, &dir.path().join("all"), &[]);
    let part = session_ros2(recorded, &dir.path().join("part"), &window);
    for (list, time) in [("images", "time_ns"), ("imu", "stamp_ns")] {
        let whole = all[list].as_array().expect("a list");
        let expected: Vec<&Value> = (whole.iter())
            .filter(|m| in_window(m[time].as_u64().expect("time") as f64 / 1e6))
            .collect();
        let got: Vec<&Value> = part[list].as_array().expect("a list").iter().collect();
        assert_eq!(got, expected, "{list}");
        assert!(got.len() < whole.len() || whole.is_empty(), "{list}");
    }
    assert!(!part["images"].as_array().expect("images").is_empty());
    assert_eq!(part["tf_static"], all["tf_static"]);
    // PNG: the nearest-neighbour pairing of the window's depth frames.
    let out = dir.path().join("sets");
    let mut args = vec!["convert", "--session", "--to", "png", "--streams", "depth"];
    args.extend(window);
    args.extend(["--tolerance", "10", "--out", s(&out)]);
    args.extend(recorded.files.iter().map(|f| s(f)));
    run::ok(&args);
    let serials = ["CAM-A", "CAM-B", "CAM-C", "CAM-D"];
    let mut lanes = vec![Vec::new(); serials.len()];
    for line in session_lines(recorded, &["--streams", "depth"]) {
        let time = line["session_time"].as_f64().expect("time");
        let camera = serials.iter().position(|c| line["serial"] == *c);
        if in_window(time) {
            lanes[camera.expect("a camera")].push(time);
        }
    }
    let expected = brute_force_sets(&lanes, 10.0);
    let index = std::fs::read_to_string(out.join("framesets.csv")).expect("framesets.csv");
    let mut sets: Vec<Vec<Option<f64>>> = vec![vec![None; serials.len()]; expected.len()];
    for row in index.lines().skip(1) {
        let cells: Vec<&str> = row.split(',').collect();
        let set: usize = cells[0].parse().expect("set");
        let camera = serials.iter().position(|c| *c == cells[2]).expect("camera");
        sets[set - 1][camera] = Some(cells[8].parse().expect("session time"));
    }
    assert!(!expected.is_empty());
    assert_eq!(sets, expected);
    // A start past the session's end: refused, naming the session, and
    // nothing written.
    let files: Vec<&str> = recorded.files.iter().map(|f| s(f)).collect();
    let past = dir.path().join("past");
    let out = ["--out", s(&past)];
    for command in [
        &["frames"][..],
        &["convert", "--session", "--to", "png"],
        &["convert", "--session", "--to", "ros2"],
        &["trim", "--session"],
    ] {
        let mut args = command.to_vec();
        args.extend(["--start", "99"]);
        if command[0] != "frames" {
            args.extend(out);
        }
        args.extend(&files);
        let run = run::rsbag(&args);
        assert_eq!(run.code, Some(1), "{args:?}: {}", run.stderr);
        assert!(
            run.stderr
                .contains("--start 99.000 is past the end of the session"),
            "{args:?}: {}",
            run.stderr
        );
        assert!(!past.exists(), "{args:?} wrote {}", past.display());
    }
}

fn recorded_file_name<'a>(recorded: &'a Recorded, serial: &str) -> &'a str {
    (recorded.cameras[serial].file.file_name())
        .and_then(|n| n.to_str())
        .expect("a file name")
}

#[test]
fn bad_poses_are_refused_and_nothing_is_written() {
    let recorded = global();
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("rig");
    for (pose, says) in [
        ("CAM-B=1,2,3,0,0,0", "6 numbers; give 7"),
        ("CAM-B=1,2,x,0,0,0,1", "\"x\" is not a number"),
        ("CAM-B=1,2,3,0,0,0,2", "not a unit quaternion"),
        ("CAM-B=1,2,3,0,0,0,inf", "is not a number"),
        (
            "nothing.bag=0,0,0,0,0,0,1",
            "--pose nothing.bag: no recording of the session",
        ),
        (
            "CAM-A=0,0,0,0,0,0,1",
            "the poses are relative to its camera",
        ),
    ] {
        let mut args = vec!["convert", "--session", "--to", "ros2", "--out", s(&out)];
        args.extend(["--pose", pose]);
        args.extend(recorded.files.iter().map(|f| s(f)));
        let refused = run::rsbag(&args);
        assert_eq!(refused.code, Some(1), "{pose}: {}", refused.stderr);
        assert!(refused.stderr.contains(says), "{pose}: {}", refused.stderr);
        assert!(!out.exists(), "{pose}: nothing written");
    }
    let mut args = vec!["convert", "--to", "ros2", "--out", s(&out)];
    args.extend(["--pose", "CAM-B=0,0,0,0,0,0,1"]);
    args.extend(recorded.files.iter().map(|f| s(f)));
    let refused = run::rsbag(&args);
    assert_eq!(refused.code, Some(2), "{}", refused.stderr);
    assert!(refused.stderr.contains("--session"), "{}", refused.stderr);
}

/// Frames of `serial`'s depth stream the truth has from `from` to `to` ms
/// after moment 0.
fn fed_depth_between(recorded: &Recorded, serial: &str, from: f64, to: f64) -> u64 {
    let t0 = recorded.t0;
    (recorded.cameras[serial].frames.iter())
        .filter(|f| f["stream"] == "Depth")
        .map(|f| f["host_ms"].as_f64().expect("host") - t0)
        .filter(|t| (from - 1e-3..=to + 1e-3).contains(t))
        .count() as u64
}

#[test]
fn check_json_gives_each_files_findings_and_the_sync_report() {
    let recorded = global();
    let mut args = vec!["check", "--json"];
    args.extend(recorded.files.iter().map(|f| s(f)));
    let out = run::rsbag(&args);
    assert_eq!(out.code, Some(3), "CAM-C dropped frames: {}", out.stderr);
    let lines: Vec<Value> = (out.stdout.lines())
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(lines.len(), 5, "a line per file, then the sync report");
    for (line, (serial, camera)) in lines.iter().zip(&recorded.cameras) {
        assert_eq!(line["file"], s(&camera.file));
        let depth = (line["streams"].as_array().expect("streams").iter())
            .find(|x| x["stream"] == "Depth")
            .expect("depth");
        let fed = camera.frames.iter().filter(|f| f["stream"] == "Depth");
        assert_eq!(depth["frames"], fed.count() as u64, "{serial}");
        if serial == "CAM-C" {
            // Frames 15..24 (numbers 16..25) were never fed.
            assert_eq!(line["result"], "frames missing or out of order");
            assert_eq!(depth["dropped"], 10);
            let findings = depth["findings"].as_array().expect("findings");
            assert_eq!(findings.len(), 1, "{findings:?}");
            assert_eq!(findings[0]["kind"], "gap");
            assert_eq!(findings[0]["missing"], 10);
            assert_eq!(findings[0]["number"], 26);
            assert_eq!(findings[0]["previous_number"], 15);
        } else {
            assert_eq!(line["result"], "ok", "{serial}");
            assert_eq!(depth["dropped"], 0, "{serial}");
        }
    }
    let sync = &lines[4]["sync"];
    assert_eq!(sync["clock"], "global time");
    assert_eq!(sync["read_errors"], 0);
    let pairs = sync["pairs"].as_array().expect("pairs");
    assert_eq!(pairs.len(), 6);
    // Against the truth: each pair overlaps from the later camera's first
    // frame to the earlier one's last, its frames there are the ones fed,
    // CAM-C's gap leaves the others' frames without a partner.
    let c = &recorded.cameras["CAM-C"];
    let gap = [c.start_ms + 14.0 * PERIOD, c.start_ms + 25.0 * PERIOD].map(|t| t / 1000.0);
    for pair in pairs {
        let [a, b] = [0, 1].map(|k| pair["cameras"][k].as_str().expect("camera"));
        let ends = |serial: &str| {
            let times: Vec<f64> = (recorded.cameras[serial].frames.iter())
                .filter(|f| f["stream"] == "Depth")
                .map(|f| f["host_ms"].as_f64().expect("host") - recorded.t0)
                .collect();
            let lo = times.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = times.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            (lo, hi)
        };
        let (from, to) = (ends(a).0.max(ends(b).0), ends(a).1.min(ends(b).1));
        let overlap = pair["overlap_s"].as_array().expect("overlap");
        assert!(
            (overlap[0].as_f64().expect("from") * 1000.0 - from).abs() < 1e-2,
            "{pair}"
        );
        assert!(
            (overlap[1].as_f64().expect("to") * 1000.0 - to).abs() < 1e-2,
            "{pair}"
        );
        let frames = [a, b].map(|serial| fed_depth_between(recorded, serial, from, to));
        assert_eq!(pair["frames"], serde_json::json!(frames), "{a} / {b}");
        assert!(
            pair["offset_ms"].as_f64().expect("offset").abs() < 1e-2,
            "{pair}"
        );
        assert!(
            pair["drift_ppm"].as_f64().expect("drift").abs() < 1e-3,
            "{pair}"
        );
        // Timestamps on the host's clock lie on their lines: no error but
        // what f64 holds of ms since the epoch.
        let error = pair["drift_ppm_error"].as_f64().expect("drift error");
        assert!((0.0..1e-3).contains(&error), "{pair}");
        let with_c = [a, b].iter().position(|x| *x == "CAM-C");
        let (without, gaps) = match with_c {
            Some(k) => {
                let mut w = [10, 10];
                w[k] = 0;
                (w, 1)
            }
            None => ([0, 0], 0),
        };
        assert_eq!(
            pair["without_partner"],
            serde_json::json!(without),
            "{a} / {b}"
        );
        let found = pair["gaps"].as_array().expect("gaps");
        assert_eq!(found.len(), gaps, "{pair}");
        if let Some(g) = found.first() {
            assert_eq!(g["camera"], "CAM-C");
            assert!(
                (g["from_s"].as_f64().expect("from") - gap[0]).abs() < 1e-3,
                "{g}"
            );
            assert!(
                (g["to_s"].as_f64().expect("to") - gap[1]).abs() < 1e-3,
                "{g}"
            );
        }
    }
}

#[test]
fn frames_leave_their_file_as_soon_as_every_stream_has_a_later_one() {
    // CAM-A's colour frames are written a millisecond after its depth
    // frames and CAM-C stops for a third of a second: every frame still
    // comes once, in time order, none late.
    for recorded in [global(), hardware()] {
        let session = Session::open(&recorded.files).expect("open");
        let mut frames = session.frames().expect("frames");
        let times: Vec<f64> = frames.by_ref().map(|f| f.expect("frame").time_ms).collect();
        assert_eq!(frames.out_of_order(), 0);
        assert!(times.windows(2).all(|w| w[0] <= w[1]));
        let fed: usize = recorded.cameras.values().map(|c| c.frames.len()).sum();
        assert_eq!(times.len(), fed);
        // A window of the session reads the same frames as the whole (its
        // ends 3 ms or more from any frame of the Global Time recordings).
        let window = (session.select())
            .time(Duration::from_millis(310)..Duration::from_millis(810))
            .frames()
            .expect("frames");
        let origin = times[0];
        let inside = (times.iter()).filter(|&&t| (310.0..810.0).contains(&(t - origin)));
        assert_eq!(window.count(), inside.count());
    }
}

/// `trim --session` cuts every camera at the same moments of the session's
/// clock: from 0.61 s to 1.11 s after its first frame (frames lie 0, 6.7
/// and 20 ms past each 33.3 ms: none within 3 ms of either end), each
/// copy holds exactly the frames its camera was fed for that stretch of
/// host time (CAM-C none of its dropped ones), as librealsense plays them:
/// 2.55 the `.bag`s, 2.59 the `.db3`.
#[test]
fn trim_cuts_every_camera_at_the_same_moments() {
    let recorded = global();
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("cut");
    let mut args = vec!["trim", "--session", "--start", "0.61", "--duration", "0.5"];
    args.extend(["--out", s(&out)]);
    args.extend(recorded.files.iter().map(|f| s(f)));
    let printed = run::ok(&args);
    assert!(
        printed.contains("cut:     from 0.610 s to 1.110 s of the session's clock"),
        "{printed}"
    );
    let host = |f: &Value| f["host_ms"].as_f64().expect("host");
    let origin = (recorded.cameras.values())
        .flat_map(|c| c.frames.iter().map(host))
        .fold(f64::INFINITY, f64::min);
    let fed_key = |f: &Value| {
        (
            f["stream"].as_str().expect("stream").to_owned(),
            f["frame_number"].as_u64().expect("number"),
            f["sha256"].as_str().expect("sha").to_owned(),
        )
    };
    for (serial, camera) in &recorded.cameras {
        let want: std::collections::BTreeSet<_> = (camera.frames.iter())
            .filter(|f| (610.0..1110.0).contains(&(host(f) - origin)))
            .map(fed_key)
            .collect();
        assert!(want.len() >= 5, "{serial}: {want:?}");
        let copy = out.join(recorded_file_name(recorded, serial));
        let path = s(&copy);
        let played = match copy.extension().and_then(|e| e.to_str()) {
            Some("db3") => common::python259("rs_play.py", &[path]),
            _ => common::python("rs_play.py", &[path]),
        };
        let got: std::collections::BTreeSet<_> = (played.lines())
            .map(|l| fed_key(&serde_json::from_str(l).expect("a JSON line")))
            .collect();
        assert_eq!(played.lines().count(), got.len(), "{serial}: once each");
        assert_eq!(got, want, "{serial}");
        // Its part of the report counts them.
        let part = (printed.split(&format!("\n{serial}:\n")).nth(1))
            .and_then(|p| p.split("\n\n").next())
            .expect("a part per camera");
        assert!(
            part.contains(&format!("{} frames (", want.len())),
            "{serial}: {part}"
        );
    }
    // CAM-C recorded nothing between its #15 (0.667 s) and #26 (1.033 s):
    // its copy has the frames on either side.
    let numbers: Vec<u64> = (recorded.cameras["CAM-C"].frames.iter())
        .filter(|f| (610.0..1110.0).contains(&(host(f) - origin)))
        .map(|f| f["frame_number"].as_u64().expect("number"))
        .collect();
    assert_eq!(numbers, [14, 15, 26, 27, 28]);

    // Refused, with an error that says `says`, exit 1.
    let refused = |args: &[&str], says: &str| {
        let run = run::rsbag(args);
        assert_eq!(run.code, Some(1), "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains(says), "{args:?}: {}", run.stderr);
    };
    // Cut again into the same directory: refused before anything is
    // written, the copies as they were.
    let copies: Vec<PathBuf> = (recorded.cameras.keys())
        .map(|serial| out.join(recorded_file_name(recorded, serial)))
        .collect();
    let before: Vec<Vec<u8>> = copies
        .iter()
        .map(|c| std::fs::read(c).expect("copy"))
        .collect();
    std::fs::remove_file(&copies[0]).expect("remove one copy");
    let mut again = vec!["trim", "--session", "--start", "0.2", "--out", s(&out)];
    again.extend(recorded.files.iter().map(|f| s(f)));
    refused(&again, "the output exists");
    assert!(!copies[0].exists(), "nothing written");
    for (copy, bytes) in copies.iter().zip(&before).skip(1) {
        assert_eq!(&std::fs::read(copy).expect("copy"), bytes);
    }
    // Without --session the clock options are refused; with it, a single
    // recording is.
    let mut args = vec!["trim", "--clock", "global", "--out", s(&out)];
    args.extend(recorded.files.iter().map(|f| s(f)));
    refused(&args, "go with --session");
    let one = dir.path().join("one.bag");
    refused(
        &["trim", "--session", s(&recorded.files[0]), "--out", s(&one)],
        "several recordings",
    );
    assert!(!one.exists());

    // A damaged recording (cut off: read by a scan of its records) is cut
    // as far as it was read, and the exit code says the damage; the input
    // is as it was.
    let whole = std::fs::read(&recorded.cameras["CAM-B"].file).expect("read");
    let damaged = dir.path().join("CAM-B-cut.bag");
    std::fs::write(&damaged, &whole[..whole.len() * 2 / 3]).expect("write");
    let into = dir.path().join("damaged");
    let first = s(&recorded.cameras["CAM-A"].file);
    let run = run::rsbag(&["trim", "--session", first, s(&damaged), "--out", s(&into)]);
    assert_eq!(run.code, Some(4), "{}", run.stderr);
    assert!(run.stderr.contains("the file is damaged"), "{}", run.stderr);
    assert!(into.join("CAM-B-cut.bag").is_file());
    assert_eq!(
        std::fs::read(&damaged).expect("read"),
        &whole[..whole.len() * 2 / 3]
    );
}

/// On arrival time (the hardware-clock session) a cut follows each frame's
/// Time Of Arrival as librealsense itself reports it from the originals:
/// each copy, played by librealsense, holds exactly the frames that
/// arrived from 0.6105 s to 1.1105 s after the session's first (arrivals
/// are whole ms: none at either end).
#[test]
fn trim_cuts_a_session_on_arrival_time_as_librealsense_reports_it() {
    let recorded = hardware();
    let play = |path: &Path, extra: &[&str]| -> Vec<Value> {
        let mut args = vec![s(path)];
        args.extend_from_slice(extra);
        let played = match path.extension().and_then(|e| e.to_str()) {
            Some("db3") => common::python259("rs_play.py", &args),
            _ => common::python("rs_play.py", &args),
        };
        (played.lines())
            .map(|l| serde_json::from_str(l).expect("a JSON line"))
            .collect()
    };
    let frame_key = |f: &Value| {
        (
            f["stream"].as_str().expect("stream").to_owned(),
            f["frame_number"].as_u64().expect("number"),
            f["sha256"].as_str().expect("sha").to_owned(),
        )
    };
    let arrivals: BTreeMap<&str, Vec<Value>> = (recorded.cameras.iter())
        .map(|(serial, camera)| (serial.as_str(), play(&camera.file, &["--metadata"])))
        .collect();
    let arrival = |f: &Value| {
        f["metadata"]["Time Of Arrival"]
            .as_f64()
            .expect("librealsense reports the arrival")
    };
    let origin = (arrivals.values().flatten())
        .map(arrival)
        .fold(f64::INFINITY, f64::min);
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("cut");
    let mut args = vec![
        "trim",
        "--session",
        "--start",
        "0.6105",
        "--duration",
        "0.5",
    ];
    args.extend(["--out", s(&out)]);
    args.extend(recorded.files.iter().map(|f| s(f)));
    let printed = run::ok(&args);
    assert!(printed.contains("clock: arrival time"), "{printed}");
    for (serial, frames) in &arrivals {
        let want: std::collections::BTreeSet<_> = (frames.iter())
            .filter(|f| (610.5..1110.5).contains(&(arrival(f) - origin)))
            .map(frame_key)
            .collect();
        assert!(want.len() >= 5, "{serial}: {want:?}");
        let copy = out.join(recorded_file_name(recorded, serial));
        let got: Vec<_> = play(&copy, &[]).iter().map(frame_key).collect();
        assert_eq!(got.len(), want.len(), "{serial}: once each");
        assert_eq!(
            got.into_iter().collect::<std::collections::BTreeSet<_>>(),
            want,
            "{serial}"
        );
    }
}

#[test]
fn the_same_recording_twice_is_refused_through_any_path() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("a.bag");
    std::fs::copy(common::sample("librealsense-depth-color-lz4.bag"), &file).expect("copy");
    let link = dir.path().join("link.bag");
    std::os::unix::fs::symlink(&file, &link).expect("symlink");
    let other_path = dir.path().join(".").join("a.bag");
    for command in ["frames", "check", "info"] {
        for second in [&file, &link, &other_path] {
            let out = run::rsbag(&[command, s(&file), s(second)]);
            assert_eq!(out.code, Some(1), "{command} {}", second.display());
            assert!(
                out.stderr.contains("are the same recording"),
                "{command}: {}",
                out.stderr
            );
            // Refused before anything is described.
            assert_eq!(out.stdout, "", "{command}");
        }
    }
    // Read each on its own, as asked, it is read twice.
    let each = run::ok(&["frames", "--each", s(&file), s(&link)]);
    assert_eq!(each.matches("file:").count(), 2, "{each}");
    let error = Session::open([&file, &link]).expect_err("the same file twice");
    assert!(error.to_string().contains("same recording"), "{error}");
}

/// A depth recording of camera `serial`: 30 frames at 30 fps from host
/// time 1.7e12 ms, stamped on the device's clock (from 1000 ms) or, with
/// `TimestampDomain::SystemTime`, on the host's.
fn one_camera(path: &Path, serial: &str, domain: rsbag::device::TimestampDomain) {
    use rsbag::device::CameraInfo;
    let mut w = rsbag::record::RsWriter::create(path, Default::default()).expect("create");
    w.write_device_info(&CameraInfo::new([
        ("Name", "Test"),
        ("Serial Number", serial),
    ]))
    .expect("info");
    w.write_sensor_info(0, &CameraInfo::new([("Name", "Stereo Module")]))
        .expect("info");
    let depth = common::rs::depth_profile();
    w.write_stream_info(0, &depth, 0).expect("stream");
    for n in 0..30 {
        let mut frame = common::rs::frame(depth, n);
        if domain == rsbag::device::TimestampDomain::SystemTime {
            frame.domain = domain;
            frame.timestamp = frame.system_time;
        }
        w.write_frame(0, &frame, 0.001, (n + 1) * 33_300_000)
            .expect("frame");
    }
    w.finish().expect("finish");
}

#[test]
fn cameras_on_different_clock_domains_get_no_clock_offset() {
    use rsbag::device::TimestampDomain;
    let dir = tempfile::tempdir().expect("tempdir");
    let (device, host) = (dir.path().join("device.bag"), dir.path().join("host.bag"));
    one_camera(&device, "CAM-HW", TimestampDomain::HardwareClock);
    one_camera(&host, "CAM-HOST", TimestampDomain::SystemTime);
    let text = run::ok(&["check", s(&device), s(&host)]);
    assert!(text.contains("\nsync:    on arrival time"), "{text}");
    assert!(
        text.contains(
            "    clock offset:     different clock domains (CAM-HW Hardware Clock, CAM-HOST System Time): no sync report of their clocks"
        ),
        "{text}"
    );
    // Not the time since 1970 against the time since the device started.
    assert!(!text.contains("ms (CAM-HOST minus CAM-HW)"), "{text}");
    let json = run::ok(&["check", "--json", s(&device), s(&host)]);
    let last: Value = serde_json::from_str(json.lines().last().expect("a line")).expect("json");
    let pair = &last["sync"]["pairs"][0];
    assert_eq!(
        pair["clock_domains"],
        serde_json::json!(["Hardware Clock", "System Time"])
    );
    assert_eq!(pair["offset_ms"], Value::Null);
    assert_eq!(pair["drift_ppm"], Value::Null);
    assert_eq!(pair["frames"], serde_json::json!([30, 30]));
    assert_eq!(last["sync"]["verdict"]["one_session"], true);
}

#[test]
fn unrelated_recordings_are_said_not_to_be_one_session() {
    // The sample recordings: each on its own device clock, none with
    // arrival times.
    let samples = common::root().join("sample_bags");
    let text = run::ok(&["info", s(&samples)]);
    assert!(
        text.contains("\nsession:       not one session: the recordings share no clock"),
        "{text}"
    );
    assert!(!text.contains("on one timeline"), "{text}");
    let json = run::ok(&["info", "--json", s(&samples)]);
    let last: Value = serde_json::from_str(json.lines().last().expect("a line")).expect("json");
    assert_eq!(last["session"]["verdict"]["one_session"], false);
    let (bag, db3) = (
        common::sample("librealsense-depth-color-lz4.bag"),
        common::reference("db3/rec259_dc.db3"),
    );
    let out = run::rsbag(&["check", s(&bag), s(&db3)]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(
        out.stdout
            .contains("\nsync:    no sync report: not one session: "),
        "{}",
        out.stdout
    );
    assert!(!out.stdout.contains("clock offset"), "{}", out.stdout);
    // Read together as asked, saying what was decided.
    let out = run::rsbag(&["frames", s(&bag), s(&db3)]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(
        out.stderr.contains("warning: not one session: "),
        "{}",
        out.stderr
    );
    // The rig librealsense recorded at once is one session, and says why.
    let recorded = global();
    let mut args = vec!["info"];
    args.extend(recorded.files.iter().map(|f| s(f)));
    let text = run::ok(&args);
    assert!(
        text.contains("               (every camera records at once for "),
        "{text}"
    );
    let session = Session::open(&recorded.files).expect("open");
    assert!(session.verdict().one_session, "{:?}", session.verdict());
}
