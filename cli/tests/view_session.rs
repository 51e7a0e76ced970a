//! `rsbag view A.bag B.db3 ...`: several recordings as one session in a
//! real browser (Debian's Chromium, headless, driven by
//! `viewer/tests/session.mjs`), served and exported. The session is
//! recorded by librealsense itself (librealsense_session, shared with
//! cli/tests/sessions.rs): CAM-A, CAM-B and CAM-C by 2.55 into
//! `.bag`s, CAM-D by 2.59 into a `.db3`, started at different moments,
//! CAM-C with frames 15..24 dropped. What the page shows at a moment is
//! judged against what the script fed (frame numbers, the SHA-256 of each
//! frame's bytes, the time each was stamped with) and against the
//! library's session; its sync report against `rsbag check`'s.

use crate::common;
use crate::librealsense_session;
use crate::planted;
use crate::run;
use crate::served;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use base64::Engine as _;
use rsbag::recording::Session;
use serde_json::Value;
use served::Served;
use sha2::{Digest, Sha256};

fn s(path: &Path) -> &str {
    path.to_str().expect("utf-8 path")
}

/// A session recorded by librealsense, and what was fed to it.
struct Recorded {
    dir: tempfile::TempDir,
    /// In camera order (CAM-A..CAM-D).
    files: Vec<PathBuf>,
    /// Per camera: what rs_session.py says it fed.
    cameras: BTreeMap<String, Value>,
    /// Host ms of the session's moment 0 (CAM-A's first frame).
    t0: f64,
}

/// Record CAM-A, CAM-B and CAM-C with librealsense 2.55 and CAM-D with
/// 2.59, at once, on `clock` (`global` or `hardware`).
fn record(clock: &str) -> Recorded {
    let recorded = librealsense_session::record(clock);
    let cameras: BTreeMap<String, Value> = (recorded.cameras.iter())
        .map(|c| (c["serial"].as_str().expect("serial").to_owned(), c.clone()))
        .collect();
    let files = (cameras.values())
        .map(|c| PathBuf::from(c["file"].as_str().expect("file")))
        .collect();
    Recorded {
        dir: recorded.dir,
        files,
        cameras,
        t0: recorded.t0,
    }
}

/// What session.mjs printed of the page at `url`, shown at `times`.
fn browse(url: &str, times: &[f64], extra: &[&str]) -> Value {
    let at = times
        .iter()
        .map(|t| t.to_string())
        .collect::<Vec<_>>()
        .join(",");
    let mut args = vec!["--at", &at];
    args.extend_from_slice(extra);
    served::browse("session.mjs", url, &args)
}

fn sha256(b64: &Value) -> String {
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(b64.as_str().expect("base64 text"))
        .expect("base64");
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A lane's name on the page: camera, then stream.
fn lane(camera: &str, stream: &str) -> String {
    format!("{camera}/{stream} 0")
}

/// Page times (s after CAM-A's first frame): only CAM-A has started; CAM-C
/// is in its gap (frames 15..24 dropped); all four record; CAM-A and CAM-D
/// have stopped. Each is 6.7 ms or more from every frame's moment (frames
/// lie at 0, 6.7 and 20 ms past each 33.3 ms).
const MOMENTS: [f64; 4] = [0.05, 0.8133, 1.3133, 1.75];

/// Per lane, (frame number, SHA-256 of its bytes) of the frame fed last
/// at or before host time `host_ms` on its Global Time stamp, `None`
/// before the camera's first frame: what the page must show then.
fn truth_at(recorded: &Recorded, host_ms: f64) -> BTreeMap<String, Option<(u64, String)>> {
    let mut at = BTreeMap::new();
    for (serial, camera) in &recorded.cameras {
        for frame in camera["frames"].as_array().expect("frames") {
            let key = lane(serial, frame["stream"].as_str().expect("stream"));
            let entry = at.entry(key).or_insert(None);
            let stamp = frame["timestamp"].as_f64().expect("timestamp");
            let number = frame["frame_number"].as_u64().expect("number");
            let newer = entry.as_ref().is_none_or(|(n, _)| number > *n);
            if stamp <= host_ms && newer {
                *entry = Some((number, frame["sha256"].as_str().expect("sha").to_owned()));
            }
        }
    }
    at
}

/// Per lane, the frame number of the last frame of the library's session
/// order at or before `ms` after its first frame.
fn library_at(session: &Session, ms: f64) -> BTreeMap<String, u64> {
    let until = session.start_ms().expect("frames") + ms;
    let mut at = BTreeMap::new();
    for frame in session.frames().expect("frames") {
        let frame = frame.expect("frame");
        if frame.time_ms > until {
            break;
        }
        let name = session.files()[frame.file].name();
        let key = format!("{name}/{}", frame.recorded.stream);
        at.insert(key, frame.recorded.frame.number);
    }
    at
}

/// At each of [`MOMENTS`], every lane shows the frame the script fed last
/// at or before it (its number and bytes), the frame the library's session
/// puts there, or nothing before the camera's first frame.
fn assert_shows_the_frames_of_each_moment(page: &Value, recorded: &Recorded, session: &Session) {
    let shown_at = page["at"].as_array().expect("at");
    assert_eq!(shown_at.len(), MOMENTS.len());
    for (moment, shown) in MOMENTS.iter().zip(shown_at) {
        let time = shown["time"].as_f64().expect("time");
        assert!((time - moment).abs() < 1e-4, "{time} for {moment}");
        let truth = truth_at(recorded, recorded.t0 + moment * 1000.0);
        let library = library_at(session, moment * 1000.0);
        let lanes = shown["lanes"].as_object().expect("lanes");
        assert_eq!(
            lanes.keys().collect::<Vec<_>>(),
            truth.keys().collect::<Vec<_>>()
        );
        for (key, expected) in &truth {
            let on_page = &lanes[key];
            match expected {
                None => {
                    assert!(on_page["header"].is_null(), "{key} at {moment}: {on_page}");
                    assert!(!library.contains_key(key), "{key} at {moment}");
                    let caption = on_page["caption"].as_str().expect("caption");
                    assert!(caption.starts_with("no frame yet"), "{caption}");
                }
                Some((number, sha)) => {
                    let header = &on_page["header"];
                    assert_eq!(header["number"], *number, "{key} at {moment}");
                    assert_eq!(library.get(key), Some(number), "{key} at {moment}");
                    assert_eq!(&sha256(&on_page["values"]), sha, "{key} at {moment}");
                }
            }
        }
    }
    // CAM-C stopped after its frame 15 (index 14) for a third of a
    // second: inside the gap it still shows that frame.
    assert_eq!(
        shown_at[1]["lanes"]["CAM-C/Depth 0"]["header"]["number"],
        15
    );
    assert!(shown_at[0]["lanes"]["CAM-B/Depth 0"]["header"].is_null());
}

/// A lane per camera and stream, each with a tick per frame fed.
fn assert_lanes(page: &Value, recorded: &Recorded) {
    let mut expected = BTreeMap::new();
    for (serial, camera) in &recorded.cameras {
        for frame in camera["frames"].as_array().expect("frames") {
            let key = lane(serial, frame["stream"].as_str().expect("stream"));
            *expected.entry(key).or_insert(0u64) += 1;
        }
    }
    let lanes: Vec<&str> = (page["lanes"].as_array().expect("lanes").iter())
        .map(|l| l.as_str().expect("name"))
        .collect();
    assert_eq!(
        lanes,
        [
            "CAM-A/Depth 0",
            "CAM-A/Color 0",
            "CAM-B/Depth 0",
            "CAM-C/Depth 0",
            "CAM-D/Depth 0"
        ]
    );
    // CAM-C's dropped frames are a red span on its lane, from its frame
    // #15 to its #26, on the session's clock (1/30 s apart from 0.2 s):
    // the span covers #15's tick.
    let marks = page["marks"].as_array().expect("marks");
    assert_eq!(marks.len(), 1, "{marks:?}");
    let gap = &marks[0];
    assert_eq!(
        (s_(&gap["lane"]), s_(&gap["kind"])),
        ("CAM-C/Depth 0", "gap")
    );
    let at = |number: f64| 0.2 + (number - 1.0) / 30.0;
    assert!(
        (gap["t"].as_f64().expect("t") - at(26.0)).abs() < 1e-6,
        "{gap}"
    );
    assert!(
        (gap["start"].as_f64().expect("start") - at(15.0)).abs() < 1e-6,
        "{gap}"
    );
    for (key, frames) in &expected {
        let covered = u64::from(key == "CAM-C/Depth 0");
        assert_eq!(page["ticks"][key].as_u64(), Some(frames - covered), "{key}");
    }
    let pictures: Vec<&str> = (page["pictures"].as_array().expect("pictures").iter())
        .map(|l| l.as_str().expect("name"))
        .collect();
    assert_eq!(pictures, lanes);
}

/// `rsbag check`'s sync report of the session, per pair: its lines after
/// the pair's (`overlap`, `clock offset`, `without partner`, `gaps` with
/// the gap lines joined by "; "), and its first line.
fn check_sync(
    files: &[PathBuf],
    options: &[&str],
) -> (String, BTreeMap<String, BTreeMap<String, String>>) {
    let mut args = vec!["check"];
    args.extend(files.iter().map(|f| s(f)));
    args.extend_from_slice(options);
    let out = run::rsbag(&args);
    let text = out.stdout.split("\nsync:").nth(1).expect("a sync report");
    let mut lines = text.lines();
    let rule = lines.next().expect("rule").trim().to_owned();
    let mut pairs: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    let mut current = String::new();
    for line in lines {
        if let Some(pair) = line.strip_prefix("  ").filter(|l| !l.starts_with(' ')) {
            current = pair.split(" (").next().expect("cameras").to_owned();
            pairs.entry(current.clone()).or_default();
            continue;
        }
        let Some((name, value)) = line.trim().split_once(':') else {
            continue;
        };
        let value = value.trim().to_owned();
        let fields = pairs.get_mut(&current).expect("a pair first");
        let name = if name == "gap" { "gaps" } else { name };
        match fields.get_mut(name) {
            Some(gaps) => *gaps = format!("{gaps}; {value}"),
            None => {
                fields.insert(name.to_owned(), value);
            }
        }
    }
    (rule, pairs)
}

/// The page's sync report says what `rsbag check` with `options` says,
/// number for number.
fn assert_sync_report_is_checks(page: &Value, files: &[PathBuf], options: &[&str]) -> Value {
    let (rule, pairs) = check_sync(files, options);
    // "on global time, frames are partners within 16.667 ms"
    let page_rule = page["sync_rule"].as_str().expect("rule");
    assert_eq!(page_rule.trim_end_matches('.').to_lowercase(), rule);
    let sync = page["sync"].as_object().expect("sync rows");
    assert_eq!(sync.len(), files.len() * (files.len() - 1) / 2);
    assert_eq!(
        sync.keys().collect::<Vec<_>>(),
        pairs.keys().collect::<Vec<_>>()
    );
    for (pair, check) in &pairs {
        let row = &sync[pair];
        assert_eq!(row["overlap"], check["overlap"].as_str(), "{pair}");
        assert_eq!(
            format!("{}, drift {}", s_(&row["offset"]), s_(&row["drift"])),
            check["clock offset"],
            "{pair}"
        );
        assert_eq!(
            row["without_partner"],
            check["without partner"].as_str(),
            "{pair}"
        );
        assert_eq!(row["gaps"], check["gaps"].as_str(), "{pair}");
    }
    page["sync"].clone()
}

fn s_(value: &Value) -> &str {
    value.as_str().expect("text")
}

#[test]
fn a_session_is_one_scrubber_with_a_lane_per_camera_and_stream() {
    let recorded = record("global");
    let session = Session::open(&recorded.files).expect("session");
    let mut command = Command::new(env!("CARGO_BIN_EXE_rsbag"));
    command
        .arg("view")
        .args(&recorded.files)
        .arg("--no-browser");
    let served = Served::run(command);
    assert!(
        served.banner.contains("a session of 4 recordings"),
        "{}",
        served.banner
    );
    let page = browse(&served.url, &MOMENTS, &[]);
    // CAM-C dropped frames: `rsbag check` exits 3, the viewer only lists it.
    served.stop();
    assert!(page["clock"]
        .as_str()
        .expect("clock")
        .starts_with("Clock: global time"));
    assert!(page["title"]
        .as_str()
        .expect("title")
        .contains("session on global time"));
    assert!(page["damage"]
        .as_str()
        .expect("damage")
        .contains("No damage"));
    assert_lanes(&page, &recorded);
    assert_shows_the_frames_of_each_moment(&page, &recorded, &session);
    let sync = assert_sync_report_is_checks(&page, &recorded.files, &[]);
    // As the script recorded it: CAM-C's frames 15..24 dropped leave ten
    // frames of CAM-A without a partner, and a gap of CAM-C's.
    assert_eq!(
        sync["CAM-A / CAM-C"]["without_partner"],
        "10 of CAM-A, 0 of CAM-C"
    );
    assert_eq!(sync["CAM-A / CAM-B"]["gaps"], "none");
    assert!(s_(&sync["CAM-B / CAM-C"]["gaps"]).starts_with("CAM-C recorded nothing from 0.667 s"));

    // The exported page shows the same, with no network: every frame is a
    // thumbnail (32x24, whole).
    let report = recorded.dir.path().join("session.html");
    run::ok(
        &["view"]
            .into_iter()
            .chain(recorded.files.iter().map(|f| s(f)))
            .chain(["--export", s(&report), "--thumbnails", "1000"])
            .collect::<Vec<_>>(),
    );
    let exported = browse(&format!("file://{}", s(&report)), &MOMENTS, &["--offline"]);
    let requests = exported["requests"].as_array().expect("requests");
    assert!(
        requests
            .iter()
            .all(|r| r.as_str().is_some_and(|r| r.starts_with("file://"))),
        "the report asked for {requests:?}"
    );
    assert_lanes(&exported, &recorded);
    assert_shows_the_frames_of_each_moment(&exported, &recorded, &session);
    assert_eq!(exported["sync"], page["sync"]);
    assert_eq!(exported["clock"], page["clock"]);
}

#[test]
fn the_sync_report_of_hardware_clocks_is_on_the_page_as_check_prints_it() {
    let recorded = record("hardware");
    let mut command = Command::new(env!("CARGO_BIN_EXE_rsbag"));
    command
        .arg("view")
        .args(&recorded.files)
        .arg("--no-browser");
    let served = Served::run(command);
    let page = browse(&served.url, &[], &[]);
    served.stop();
    assert!(page["clock"]
        .as_str()
        .expect("clock")
        .starts_with("Clock: arrival time"));
    let sync = assert_sync_report_is_checks(&page, &recorded.files, &[]);
    // The offsets are the cameras' clocks apart (origins 1000 ms and
    // 770000 ms at CAM-B's start, 340 ms after CAM-A's): not zero.
    let offset = s_(&sync["CAM-A / CAM-B"]["offset"]);
    let ms: f64 = offset
        .split(" ms")
        .next()
        .expect("ms")
        .parse()
        .expect("number");
    let truth = 770000.0 - (1000.0 + 340.0);
    let late = librealsense_session::late_ms(
        ["CAM-A", "CAM-B"]
            .iter()
            .flat_map(|c| recorded.cameras[*c]["frames"].as_array().expect("frames")),
    );
    let tolerance = librealsense_session::offset_tolerance_ms(late);
    assert!(
        (ms - truth).abs() < tolerance,
        "{offset}: truth {truth} ms, within {tolerance} ms"
    );
}

#[test]
fn clock_options_need_a_session_and_a_clock_all_recordings_have() {
    let bag = common::sample("librealsense-depth-color-lz4.bag");
    let run = run::rsbag(&["view", s(&bag), "--clock", "global", "--no-browser"]);
    assert_ne!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.stderr.contains("session of several recordings"),
        "{}",
        run.stderr
    );
    // The samples have no Global Time: asked for, it is refused, and
    // nothing is served.
    let motion = common::sample("librealsense-motion-lz4.bag");
    let run = run::rsbag(&[
        "view",
        s(&bag),
        s(&motion),
        "--clock",
        "global",
        "--no-browser",
    ]);
    assert_ne!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.stderr.contains("do not all have global time"),
        "{}",
        run.stderr
    );
    assert!(!run.stdout.contains("http://"), "{}", run.stdout);
}

/// The report an exported page holds (its inlined JSON).
fn exported_report(html: &Path) -> Value {
    let text = std::fs::read_to_string(html).expect("read the page");
    let start = r#"<script id="rsbag-report" type="application/json">"#;
    let json = text.split(start).nth(1).expect("the report");
    let json = json.split("</script>").next().expect("its end");
    serde_json::from_str(json).expect("JSON")
}

#[test]
fn an_offset_moves_a_cameras_lanes_on_the_session_clock() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (a, b) = (
        common::sample("librealsense-depth-color-lz4.bag"),
        common::sample("librealsense-stereo-none.bag"),
    );
    let html = dir.path().join("session.html");
    let name = b.file_name().expect("name").to_str().expect("utf-8");
    let offset = format!("{name}=0.25");
    run::ok(&[
        "view",
        s(&a),
        s(&b),
        "--offset",
        &offset,
        "--export",
        s(&html),
    ]);
    let report = exported_report(&html);
    let recording = &report["recording"];
    assert_eq!(recording["session"]["summary"]["clock"], "recording start");
    // Without a shared clock each recording starts at 0 plus its offset.
    let library = Session::open_with(
        [&a, &b],
        rsbag::recording::SessionOptions {
            clock: None,
            offsets: vec![(b.clone(), 0.25)],
        },
    )
    .expect("session");
    let origin = library.start_ms().expect("frames");
    let mut second_starts = f64::INFINITY;
    for lane in recording["streams"].as_array().expect("lanes") {
        let key = s_(&lane["key"]);
        let (camera, stream) = key.split_once('/').expect("CAMERA/STREAM");
        let file = (library.files().iter())
            .position(|f| f.name() == camera)
            .expect("a camera of the session");
        let reader = library.files()[file].reader();
        let id = (reader.streams().into_iter())
            .find(|s| s.to_string() == stream)
            .expect("the stream");
        let times = lane["frames"]["t"].as_array().expect("times");
        assert_eq!(times.len() as u64, reader.frame_count(id).expect("count"));
        for (position, t) in times.iter().enumerate() {
            let index = lane["frames"]["index"][position].as_u64().expect("index");
            let frame = reader.frame(id, index).expect("frame");
            let expected = (library.time_ms(file, &frame) - origin) / 1000.0;
            assert!(
                (t.as_f64().expect("t") - expected).abs() < 1e-9,
                "{key} {position}"
            );
        }
        if file == 1 {
            second_starts = second_starts.min(times[0].as_f64().expect("t"));
        }
    }
    // The second recording's first frame is 0.25 s after the first's.
    assert!((second_starts - 0.25).abs() < 1e-9, "{second_starts}");
    // Thumbnails of every lane.
    assert_eq!(
        report["frames"].as_object().expect("frames").len(),
        recording["streams"].as_array().expect("lanes").len()
    );
}

#[test]
fn a_session_with_a_damaged_file_lists_it_and_exits_4() {
    let dir = tempfile::tempdir().expect("tempdir");
    let whole = std::fs::read(common::sample("librealsense-depth-color-lz4.bag")).expect("read");
    let cut = dir.path().join("cut.bag");
    std::fs::write(&cut, &whole[..whole.len() - 100]).expect("write");
    let other = common::sample("librealsense-stereo-none.bag");
    let html = dir.path().join("session.html");
    let run = run::rsbag(&["view", s(&cut), s(&other), "--export", s(&html)]);
    assert_eq!(run.code, Some(4), "{}", run.stderr);
    assert!(run.stderr.contains("a file is damaged"), "{}", run.stderr);
    let report = exported_report(&html);
    let damage = report["recording"]["check"]["damage"]
        .as_array()
        .expect("damage");
    // Said under the camera's name (the cut file's serial, 0001).
    assert!(
        damage.iter().any(|d| s_(d).starts_with("0001: ")),
        "{damage:?}"
    );
    assert_eq!(
        std::fs::read(&cut).expect("read"),
        whole[..whole.len() - 100]
    );
    // A file that is not a recording: nothing is written.
    let text = dir.path().join("notes.txt");
    std::fs::write(&text, "not a recording").expect("write");
    let html = dir.path().join("none.html");
    let run = run::rsbag(&["view", s(&other), s(&text), "--export", s(&html)]);
    assert_ne!(run.code, Some(0));
    assert!(run.stderr.contains("notes.txt"), "{}", run.stderr);
    assert!(!html.exists());
}

/// Two recordings of depth and colour (frame k written k ms after the
/// first), `A.bag` changing an option with its frame 6 and `B.bag`
/// raising a notification with its frame 9, viewed as a session with B
/// starting 11 ms after A: each camera's option changes and notifications
/// have lanes of their own, placed on the session's clock; `--tolerance`
/// sets the sync report's, as `check --tolerance` does.
#[test]
fn each_cameras_option_changes_and_notifications_are_on_the_session_clock() {
    use planted::Control;
    use rsbag::device::StreamKind;

    let dir = tempfile::tempdir().expect("tempdir");
    let plan: Vec<(StreamKind, u64)> = (0..12)
        .flat_map(|n| [(StreamKind::Depth, n), (StreamKind::Color, n)])
        .collect();
    let files = [dir.path().join("A.bag"), dir.path().join("B.bag")];
    let exposure = Control::Option("Exposure", 2000.0);
    planted::write_with_controls(&files[0], &plan, &[(6, exposure)]);
    let late = Control::Notification("Frames didn't arrive within 5 seconds");
    planted::write_with_controls(&files[1], &plan, &[(9, late)]);
    let options = ["--clock", "start", "--offset", "B.bag=0.011"];
    let mut command = Command::new(env!("CARGO_BIN_EXE_rsbag"));
    command
        .arg("view")
        .args(&files)
        .args(options)
        .args(["--tolerance", "0.5", "--no-browser"]);
    let served = Served::run(command);
    let page = browse(&served.url, &[], &[]);
    served.stop();
    let lanes: Vec<&str> = (page["lanes"].as_array().expect("lanes").iter())
        .map(s_)
        .collect();
    assert_eq!(
        lanes,
        [
            "A/Depth 0",
            "A/Color 0",
            "B/Depth 0",
            "B/Color 0",
            "A/Options",
            "B/Notifications"
        ]
    );
    // A's frame 6 is 6 ms after its first, the session's first; B's frame
    // 9 is 9 ms after B's first, 11 ms after A's.
    let marks = page["marks"].as_array().expect("marks");
    assert_eq!(marks.len(), 2, "{marks:?}");
    for (lane, kind, t, text) in [
        ("A/Options", "option", 0.006, "Exposure = 2000"),
        (
            "B/Notifications",
            "notification",
            0.020,
            "Warn Hardware Error: Frames didn't arrive within 5 seconds",
        ),
    ] {
        let mark = (marks.iter())
            .find(|m| m["lane"] == lane)
            .unwrap_or_else(|| panic!("nothing on {lane}: {marks:?}"));
        assert_eq!(mark["kind"], kind);
        assert!((mark["t"].as_f64().expect("t") - t).abs() < 1e-9, "{mark}");
        assert_eq!(mark["text"][0], text);
        // The camera's own sensor names it.
        assert!(
            s_(&mark["text"][1]).starts_with("Stereo Module, at "),
            "{mark}"
        );
    }
    // Depth frames 2 ms apart, B's 11 ms later: within 0.5 ms, none of the
    // six frames of each while both record has a partner.
    let mut check_options = options.to_vec();
    check_options.extend(["--tolerance", "0.5"]);
    let sync = assert_sync_report_is_checks(&page, &files, &check_options);
    assert_eq!(sync["A / B"]["without_partner"], "6 of A, 6 of B");
    assert!(s_(&page["sync_rule"]).contains("within 0.500 ms"));

    // A tolerance that is not one, or without a session, is refused before
    // anything is served.
    // `check` and `convert` say it alike.
    let out = dir.path().join("sets");
    for command in [
        vec!["view", "--no-browser"],
        vec!["check"],
        vec!["convert", "--session", "--to", "png", "--out", s(&out)],
    ] {
        let mut args = command.clone();
        args.extend([s(&files[0]), s(&files[1]), "--tolerance=-1"]);
        let run = run::rsbag(&args);
        assert_ne!(run.code, Some(0), "{command:?}: {}", run.stderr);
        assert!(
            run.stderr
                .contains("--tolerance must be a non-negative number of milliseconds, not -1"),
            "{command:?}: {}",
            run.stderr
        );
        assert!(!run.stdout.contains("http://"), "{}", run.stdout);
    }
    assert!(!out.exists());
    for command in [vec!["view", "--no-browser"], vec!["check"]] {
        let mut args = command.clone();
        args.extend([s(&files[0]), "--tolerance", "5"]);
        let run = run::rsbag(&args);
        assert_ne!(run.code, Some(0), "{command:?}: {}", run.stderr);
        assert!(
            run.stderr.contains("to a session of several recordings"),
            "{command:?}: {}",
            run.stderr
        );
        assert!(run.stdout.is_empty(), "{command:?}: {}", run.stdout);
    }
}
