//! `rsbag view` in a real browser: Debian's Chromium, headless, driven by
//! `viewer/tests/browse.mjs` (playwright-core), against the sample
//! recordings. What the page shows is judged against what librealsense
//! 2.55 plays from the same files (`sample_bags/*.frames.jsonl`: frame
//! numbers and the SHA-256 of every frame's bytes) and what was fed to it
//! (`*.recorded.json`: sizes, metadata).

use crate::common;
use crate::planted;
use crate::run;
use crate::served;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::time::Duration;

use base64::Engine as _;
use rsbag::device::StreamKind;
use serde_json::Value;
use served::Served;
use sha2::{Digest, Sha256};

fn s(path: &Path) -> &str {
    path.to_str().expect("utf-8 path")
}

/// What the page shows at `url` (see browse.mjs).
fn browse(url: &str, extra: &[&str]) -> Value {
    served::browse("browse.mjs", url, extra)
}

/// The frames librealsense 2.55 plays from a sample bag.
fn reference(sample: &str) -> Vec<Value> {
    let path = common::sample(&format!("{sample}.frames.jsonl"));
    std::fs::read_to_string(path)
        .expect("reference")
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect()
}

/// The reference frames of one stream, in order.
fn reference_of<'a>(frames: &'a [Value], stream: &str) -> Vec<&'a Value> {
    frames.iter().filter(|f| f["stream"] == stream).collect()
}

fn recorded(sample: &str) -> Value {
    let path = common::sample(&format!("{sample}.recorded.json"));
    serde_json::from_str(&std::fs::read_to_string(path).expect("recorded")).expect("JSON")
}

fn bytes(b64: &Value) -> Vec<u8> {
    base64::engine::general_purpose::STANDARD
        .decode(b64.as_str().expect("base64 text"))
        .expect("base64")
}

fn sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The frame's values are librealsense's bytes for that frame, and the
/// canvas is as large as the frame.
fn assert_is_reference_frame(shown: &Value, expected: &Value, size: (u64, u64)) {
    assert_eq!(shown["header"]["number"], expected["frame_number"]);
    assert_eq!(
        sha256(&bytes(&shown["values"])),
        expected["sha256"],
        "{}",
        shown["header"]
    );
    assert_eq!(shown["canvas"]["width"].as_u64(), Some(size.0));
    assert_eq!(shown["canvas"]["height"].as_u64(), Some(size.1));
}

/// An RGB8 frame's canvas shows its bytes exactly (alpha opaque).
fn assert_canvas_shows_rgb(shown: &Value) {
    let rgba = bytes(&shown["canvas"]["rgba"]);
    let rgb: Vec<u8> = rgba
        .chunks_exact(4)
        .flat_map(|p| {
            assert_eq!(p[3], 255);
            [p[0], p[1], p[2]]
        })
        .collect();
    assert_eq!(rgb, bytes(&shown["values"]));
}

/// A depth frame's canvas shows each depth as the legend's colour for it
/// (black where there is no depth), so the legend in metres reads it.
fn assert_canvas_follows_legend(shown: &Value) {
    let legend = &shown["legend"];
    let (near, far) = (
        legend["near"].as_f64().expect("near"),
        legend["far"].as_f64().expect("far"),
    );
    let colours = bytes(&legend["rgba"]);
    let steps = colours.len() / 4;
    let units = shown["header"]["depth_units"]
        .as_f64()
        .expect("depth units");
    let rgba = bytes(&shown["canvas"]["rgba"]);
    let depths = bytes(&shown["values"]);
    let mut coloured = 0;
    for (pixel, d) in rgba.chunks_exact(4).zip(depths.chunks_exact(2)) {
        let d = u16::from_le_bytes([d[0], d[1]]);
        if d == 0 {
            assert_eq!(pixel, [0, 0, 0, 255]);
            continue;
        }
        let t = ((f64::from(d) * units - near) / (far - near)).clamp(0.0, 1.0);
        let step = (t * (steps - 1) as f64).round() as usize;
        assert_eq!(pixel, &colours[4 * step..4 * step + 4], "depth {d}");
        coloured += 1;
    }
    assert!(coloured > 0, "no depth in the frame");
}

/// The hover text of a picture names the pixel under the mouse and its
/// value, as the frame holds it.
fn assert_hover_reads_depth(page: &Value, key: &str) {
    let text = page["hover"][key].as_str().expect("hover text");
    let shown = &page["first"][key];
    let line = text
        .lines()
        .find(|l| l.starts_with("pixel "))
        .unwrap_or_else(|| panic!("no pixel in {text:?}"));
    // "pixel X, Y: M m (RAW)"
    let (place, value) = line["pixel ".len()..]
        .split_once(": ")
        .expect("pixel: value");
    let (x, y) = place.split_once(", ").expect("x, y");
    let (x, y): (usize, usize) = (x.parse().expect("x"), y.parse().expect("y"));
    let width = shown["header"]["width"].as_u64().expect("width") as usize;
    let depths = bytes(&shown["values"]);
    let i = 2 * (y * width + x);
    let raw = u16::from_le_bytes([depths[i], depths[i + 1]]);
    let units = shown["header"]["depth_units"].as_f64().expect("units");
    assert_eq!(
        value,
        format!("{:.4} m ({raw})", f64::from(raw) * units),
        "{text}"
    );
}

#[test]
fn view_shows_every_stream_and_the_frames_librealsense_plays() {
    let sample = "librealsense-depth-color-lz4";
    let frames = reference(sample);
    let fed = recorded(sample);
    let size = |sensor: usize| {
        let stream = &fed["sensors"][sensor]["streams"][0];
        (
            stream["width"].as_u64().expect("w"),
            stream["height"].as_u64().expect("h"),
        )
    };
    let served = Served::start(&common::sample(&format!("{sample}.bag")));
    assert!(
        served.url.starts_with("http://127.0.0.1:"),
        "{}",
        served.url
    );
    let page = browse(&served.url, &[]);
    served.stop();

    // The streams are listed: pictures, timeline lanes, the stream table.
    let captions: Vec<&str> = page["captions"]
        .as_array()
        .expect("captions")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let (depth_size, color_size) = (size(0), size(1));
    assert!(
        captions.contains(&format!("Depth 0 · Z16 {}×{}", depth_size.0, depth_size.1).as_str()),
        "{captions:?}"
    );
    assert!(
        captions.contains(&format!("Color 0 · RGB8 {}×{}", color_size.0, color_size.1).as_str()),
        "{captions:?}"
    );
    assert_eq!(
        page["stream_rows"],
        serde_json::json!(["Depth 0", "Color 0"])
    );
    for lane in ["Depth 0", "Color 0", "Chunks"] {
        assert!(page["lanes"]
            .as_array()
            .expect("lanes")
            .contains(&Value::from(lane)));
    }

    // The first frames, pixel for pixel.
    let depth = reference_of(&frames, "Depth");
    let color = reference_of(&frames, "Color");
    // A tick on the timeline for every frame (33 ms apart: a column each).
    assert_eq!(page["ticks"]["Depth 0"].as_u64(), Some(depth.len() as u64));
    assert_eq!(page["ticks"]["Color 0"].as_u64(), Some(color.len() as u64));
    assert_is_reference_frame(&page["first"]["Depth 0"], depth[0], depth_size);
    assert_is_reference_frame(&page["first"]["Color 0"], color[0], color_size);
    assert_canvas_shows_rgb(&page["first"]["Color 0"]);
    assert_canvas_follows_legend(&page["first"]["Depth 0"]);
    assert_hover_reads_depth(&page, "Depth 0");

    // Scrubbing to the middle shows a frame from the middle; to the end,
    // the last frames.
    let middle = &page["scrub"][0]["shown"];
    for key in ["Depth 0", "Color 0"] {
        let index = middle[key].as_u64().expect("index");
        assert!(
            index > 0 && index + 1 < 10,
            "{key} at the middle shows frame {index}"
        );
        assert_eq!(page["scrub"][1]["shown"][key].as_u64(), Some(9));
    }
    assert_is_reference_frame(&page["last"]["Depth 0"], depth[9], depth_size);
    assert_is_reference_frame(&page["last"]["Color 0"], color[9], color_size);
    assert_canvas_shows_rgb(&page["last"]["Color 0"]);
    assert_canvas_follows_legend(&page["last"]["Depth 0"]);

    // Play moves the cursor and shows the frames that follow, in order.
    assert!(page["play"]["time"].as_f64().expect("time") > 0.0);
    let played = page["play"]["shown_while_playing"]
        .as_array()
        .expect("played");
    for key in ["Depth 0", "Color 0"] {
        let indices: Vec<u64> = played
            .iter()
            .filter(|f| f["stream"] == key)
            .filter_map(|f| f["index"].as_u64())
            .collect();
        assert!(!indices.is_empty() && indices[0] >= 1, "{key}: {indices:?}");
        assert!(
            indices.windows(2).all(|w| w[0] < w[1]),
            "{key}: {indices:?}"
        );
    }
    // → steps to the first time another frame shows, → again to the
    // next, ← back; Space plays and pauses.
    let steps = page["steps"].as_array().expect("steps");
    let times: Vec<f64> = steps.iter().filter_map(|s| s["time"].as_f64()).collect();
    assert!(
        times[0] > 0.0 && times[1] > times[0] && times[2] == times[0],
        "{times:?}"
    );
    let indices = |k: usize| -> Vec<u64> {
        ["Depth 0", "Color 0"]
            .iter()
            .filter_map(|key| steps[k]["shown"][key].as_u64())
            .collect()
    };
    let mut first = indices(0);
    first.sort_unstable();
    assert_eq!(first, [0, 1], "one stream moves to its second frame");
    assert_eq!(indices(1), [1, 1], "then the other");
    assert_eq!(page["space"], serde_json::json!([true, false]));
    assert_eq!(page["damage"], "none found");
}

#[test]
fn view_shows_a_preview_then_the_whole_frame_of_a_large_stream() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bag = dir.path().join("large.bag");
    run::ok(&[
        "record",
        "--synthetic",
        "--duration",
        "0.3",
        "--streams",
        "depth,color",
        "--depth",
        "848x480@30",
        "--color",
        "1280x720@30",
        "--out",
        s(&bag),
    ]);
    let frames: Vec<Value> = run::ok(&["frames", "--json", s(&bag)])
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect();
    let served = Served::start(&bag);
    let page = browse(&served.url, &[]);
    served.stop();
    // A 1280-pixel frame shown 480 pixels wide comes first as a preview
    // of every third pixel, then whole.
    let drawn = page["drawn"].as_array().expect("drawn");
    for key in ["Depth 0", "Color 0"] {
        // The first two drawn (the page shows frame 0 again when the test
        // goes back to the start).
        let first: Vec<&Value> = drawn
            .iter()
            .filter(|d| d["stream"] == key && d["index"] == 0)
            .take(2)
            .collect();
        assert_eq!(first.len(), 2, "{key}: {first:?}");
        assert_eq!(
            (&first[0]["preview"], &first[1]["preview"]),
            (&Value::Bool(true), &Value::Bool(false))
        );
    }
    for (key, stream, size) in [
        ("Depth 0", "Depth", (848, 480)),
        ("Color 0", "Color", (1280, 720)),
    ] {
        let expected = reference_of(&frames, stream);
        assert_is_reference_frame(&page["first"][key], expected[0], size);
        assert_is_reference_frame(&page["last"][key], expected[expected.len() - 1], size);
    }
    assert_canvas_shows_rgb(&page["last"]["Color 0"]);
    assert_canvas_follows_legend(&page["last"]["Depth 0"]);
}

#[test]
fn view_plots_every_imu_sample_and_shows_frame_metadata() {
    let sample = "librealsense-motion-lz4";
    let frames = reference(sample);
    let served = Served::start(&common::sample(&format!("{sample}.bag")));
    let page = browse(&served.url, &[]);
    served.stop();
    for (stream, key) in [("Gyro", "Gyro 0"), ("Accel", "Accel 0")] {
        let plot = &page["plots"][key];
        assert_eq!(
            plot["samples"].as_u64(),
            Some(reference_of(&frames, stream).len() as u64),
            "{key}"
        );
        assert_eq!(plot["series"], 3);
        assert_eq!(plot["rendered"], true);
    }

    let sample = "librealsense-metadata-lz4";
    let fed = recorded(sample);
    let served = Served::start(&common::sample(&format!("{sample}.bag")));
    let page = browse(&served.url, &[]);
    served.stop();
    let hover = page["hover"]["Depth 0"].as_str().expect("hover");
    let first = &fed["frames"][0];
    assert!(
        hover.contains(&format!("frame #{}", first["frame_number"])),
        "{hover}"
    );
    assert!(
        hover.contains(first["domain"].as_str().expect("domain")),
        "{hover}"
    );
    for (key, value) in first["metadata"].as_object().expect("metadata") {
        assert!(
            hover.contains(&format!("{key}: {value}")),
            "{key} missing from {hover}"
        );
    }
}

#[test]
fn view_marks_planted_gaps_and_reordering_on_the_timeline() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bag = dir.path().join("gaps.bag");
    let plan = planted::flawed();
    planted::write_with_controls(
        &bag,
        &plan,
        &[
            (6, planted::Control::Option("Exposure", 2000.0)),
            (
                9,
                planted::Control::Notification("Frames didn't arrive within 5 seconds"),
            ),
        ],
    );
    let served = Served::start(&bag);
    let page = browse(&served.url, &[]);
    served.stop();
    // Frame k of the plan was written at (k + 1) ms: its time on the page
    // is k ms after the first.
    let time_of = |kind: StreamKind, n: u64| {
        plan.iter().position(|&f| f == (kind, n)).expect("planted") as f64 * 1e-3
    };
    let marks = page["marks"].as_array().expect("marks");
    let gaps: Vec<&Value> = marks
        .iter()
        .filter(|m| m["lane"] == "Depth 0" && m["kind"] == "gap")
        .collect();
    assert_eq!(gaps.len(), 2, "{gaps:?}");
    for (gap, (n, text)) in gaps.iter().zip([
        (7, "2 frames dropped before #8"),
        (11, "1 frame dropped before #12"),
    ]) {
        let t = gap["t"].as_f64().expect("t");
        assert!((t - time_of(StreamKind::Depth, n)).abs() < 1e-6, "{gap}");
        assert!(
            gap["text"][0].as_str().expect("text").contains(text),
            "{gap}"
        );
        // Drawn: the timeline is red there.
        let pixel: Vec<u64> = gap["pixel"]
            .as_array()
            .expect("pixel")
            .iter()
            .filter_map(Value::as_u64)
            .collect();
        assert!(pixel[0] > 150 && pixel[1] < 150 && pixel[2] < 150, "{gap}");
    }
    for kind in ["out of order", "duplicate"] {
        assert!(
            marks
                .iter()
                .any(|m| m["lane"] == "Color 0" && m["kind"] == kind),
            "no {kind} mark"
        );
    }
    // The option change and the notification on their lanes, at the time
    // of the frame they were written with (6 and 9 ms after the first).
    for (lane, k, text) in [
        ("Options", 6.0, "Exposure = 2000"),
        (
            "Notifications",
            9.0,
            "Warn Hardware Error: Frames didn't arrive within 5 seconds",
        ),
    ] {
        let mark = marks
            .iter()
            .find(|m| m["lane"] == lane)
            .unwrap_or_else(|| panic!("nothing on the {lane} lane"));
        let t = mark["t"].as_f64().expect("t");
        assert!((t - k * 1e-3).abs() < 1e-6, "{mark}");
        assert_eq!(mark["text"][0], text);
    }
}

#[test]
fn view_opens_a_damaged_recording_with_the_damage_shown() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bag = dir.path().join("clean.bag");
    let frames: Vec<(StreamKind, u64)> = (0..12)
        .flat_map(|n| [(StreamKind::Depth, n), (StreamKind::Color, n)])
        .collect();
    planted::write(&bag, &frames);
    let whole = std::fs::read(&bag).expect("read");
    let cut = dir.path().join("cut.bag");
    std::fs::write(&cut, &whole[..whole.len() - 100]).expect("write");
    let served = Served::start(&cut);
    let page = browse(&served.url, &[]);
    served.stop_with(4);
    let damage = page["damage"].as_str().expect("damage");
    assert!(damage.contains("no usable index"), "{damage}");
    assert!(page["first"]["Depth 0"]["header"]["number"] == 1);
    // Exported, the report is written and the exit code says the damage;
    // the input is as it was.
    let report = dir.path().join("cut.html");
    let run = run::rsbag(&["view", s(&cut), "--export", s(&report)]);
    assert_eq!(run.code, Some(4), "{}", run.stderr);
    assert!(run.stderr.contains("damaged"), "{}", run.stderr);
    assert!(report.exists());
    assert_eq!(
        std::fs::read(&cut).expect("read"),
        whole[..whole.len() - 100]
    );

    // Not a recording at all: an error naming the file, before serving.
    let text = dir.path().join("notes.txt");
    std::fs::write(&text, "not a recording").expect("write");
    let run = run::rsbag(&["view", s(&text), "--no-browser"]);
    assert_ne!(run.code, Some(0));
    assert!(run.stderr.contains("notes.txt"), "{}", run.stderr);
    assert!(!run.stdout.contains("http://"), "{}", run.stdout);
}

#[test]
fn exported_report_opens_without_network() {
    let dir = tempfile::tempdir().expect("tempdir");
    let report = dir.path().join("report.html");
    for sample in ["librealsense-depth-color-lz4", "librealsense-motion-lz4"] {
        let bag = common::sample(&format!("{sample}.bag"));
        run::ok(&["view", s(&bag), "--export", s(&report), "--force"]);
        let page = browse(&format!("file://{}", s(&report)), &["--offline"]);
        let requests = page["requests"].as_array().expect("requests");
        assert!(
            requests
                .iter()
                .all(|r| r.as_str().is_some_and(|r| r.starts_with("file://"))),
            "the report asked for {requests:?}"
        );
        let frames = reference(sample);
        if sample.contains("depth-color") {
            // 64x48: the thumbnails are the whole frames.
            assert_is_reference_frame(
                &page["first"]["Color 0"],
                reference_of(&frames, "Color")[0],
                (64, 48),
            );
            assert_is_reference_frame(
                &page["last"]["Depth 0"],
                reference_of(&frames, "Depth")[9],
                (64, 48),
            );
            assert_canvas_follows_legend(&page["last"]["Depth 0"]);
        } else {
            assert_eq!(
                page["plots"]["Gyro 0"]["samples"].as_u64(),
                Some(reference_of(&frames, "Gyro").len() as u64)
            );
        }
    }
    // An existing file is kept unless --force.
    let before = std::fs::read(&report).expect("read");
    let bag = common::sample("librealsense-depth-color-lz4.bag");
    let run = run::rsbag(&["view", s(&bag), "--export", s(&report)]);
    assert_ne!(run.code, Some(0));
    assert!(run.stderr.contains("--force"), "{}", run.stderr);
    assert_eq!(std::fs::read(&report).expect("read"), before);
}

/// One raw HTTP request; the status code and body of the answer.
fn http(address: &str, request: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(address).expect("connect");
    stream.write_all(request.as_bytes()).expect("send");
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let status = answer
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    (status, answer)
}

#[test]
fn the_server_serves_the_recording_and_nothing_else() {
    let served = Served::start(&common::sample("librealsense-depth-color-lz4.bag"));
    let address = served
        .url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_owned();
    let get = |path: &str| {
        http(
            &address,
            &format!("GET {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n"),
        )
    };
    assert_eq!(get("/").0, 200);
    assert_eq!(get("/api/frame?stream=Depth%200&index=9").0, 200);
    for path in [
        "/../Cargo.toml",
        "/%2e%2e/%2e%2e/Cargo.toml",
        "/etc/passwd",
        "/api/frame?stream=../../Cargo.toml&index=0",
        "/api/frame?stream=Depth%200&index=10",
        "/api/frame?stream=Depth%200&index=-1",
        "/viewer.js/../../../Cargo.toml",
    ] {
        let (status, body) = get(path);
        assert!(status == 404 || status == 400, "{path}: {status}");
        assert!(!body.contains("[package]"), "{path}");
    }
    // Depth filters this recording cannot run (it records no stereo
    // baseline: no disparity), or that are not filters: a bad request,
    // with why.
    for (path, why) in [
        (
            "/api/frame?stream=Depth%200&index=3&filter=depth-to-disparity",
            "Stereo Baseline",
        ),
        (
            "/api/cloud?stream=Depth%200&index=3&filter=depth-to-disparity&filter=disparity-to-depth",
            "Stereo Baseline",
        ),
        ("/api/frame?stream=Depth%200&index=3&filter=blur", "blur"),
        (
            "/api/frame?stream=Depth%200&index=3&filter=spatial%3Aalpha%3D7",
            "alpha",
        ),
    ] {
        let (status, body) = get(path);
        assert_eq!(status, 400, "{path}: {body}");
        assert!(body.contains(why), "{path}: {body}");
    }
    let post = http(
        &address,
        &format!("POST /api/recording HTTP/1.1\r\nHost: {address}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"),
    );
    assert_eq!(post.0, 405);
    // A name other than the address (DNS rebinding: a page elsewhere
    // pointing its own name at 127.0.0.1) is refused.
    let port = address.rsplit(':').next().expect("port");
    for host in [format!("evil.example:{port}"), String::new()] {
        let request =
            format!("GET /api/recording HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n");
        let (status, body) = http(&address, &request);
        assert_eq!(status, 403, "Host {host:?}");
        assert!(!body.contains("streams"), "Host {host:?}");
    }
    let localhost =
        format!("GET / HTTP/1.1\r\nHost: localhost:{port}\r\nConnection: close\r\n\r\n");
    assert_eq!(http(&address, &localhost).0, 200);
    // What a browser says of the asking page: another site's page (another
    // port of 127.0.0.1 is the same site) gets no frames, the viewer's own
    // page and the user's typed address do.
    let fetched_from = |path: &str, site: &str| {
        http(
            &address,
            &format!(
                "GET {path} HTTP/1.1\r\nHost: {address}\r\nSec-Fetch-Site: {site}\r\n\
                 Connection: close\r\n\r\n"
            ),
        )
    };
    let frame = "/api/frame?stream=Depth%200&index=9";
    for site in ["cross-site", "same-site"] {
        for path in [
            frame,
            "/api/recording",
            "/api/cloud?stream=Depth%200&index=9",
        ] {
            let (status, body) = fetched_from(path, site);
            assert_eq!(status, 403, "{path} from {site}: {body}");
            assert!(body.contains("only the viewer's own page"), "{body}");
        }
    }
    for site in ["same-origin", "none"] {
        assert_eq!(fetched_from(frame, site).0, 200, "{site}");
    }
    assert_eq!(
        fetched_from("/", "cross-site").0,
        200,
        "a link to the viewer"
    );
    // A filter chain is bounded: the page's longest is seven.
    let chain = "&filter=threshold".repeat(9);
    let (status, body) = get(&format!("{frame}{chain}"));
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("9 filters asked for: at most 8"), "{body}");
    assert_eq!(
        get(&format!("{frame}{}", "&filter=threshold".repeat(8))).0,
        200
    );
    served.stop();
}

#[test]
fn view_lists_the_connections_of_a_bag_as_rosbags_reads_them() {
    let bag = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/reference/librealsense-2.55-depth-color.bag");
    let served = Served::start(&bag);
    let page = browse(&served.url, &[]);
    served.stop();
    // tests/fixtures/reference/librealsense-2.55-connections.txt: every
    // connection of that bag as the rosbags library reads it (its type
    // names carry ROS 2's `/msg/`).
    let reference = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../tests/fixtures/reference/librealsense-2.55-connections.txt"),
    )
    .expect("reference");
    let field = |line: &str, name: &str| -> String {
        line.split_whitespace()
            .find_map(|f| f.strip_prefix(name))
            .expect("field")
            .to_owned()
    };
    let expected: Vec<[String; 3]> = reference
        .lines()
        .filter(|l| l.starts_with("topic="))
        .map(|l| {
            [
                field(l, "topic="),
                field(l, "type=").replace("/msg/", "/"),
                field(l, "md5="),
            ]
        })
        .collect();
    let shown: Vec<[String; 3]> = page["connections"]
        .as_array()
        .expect("connections")
        .iter()
        .map(|row| {
            let cell = |k: usize| row[k].as_str().expect("cell").to_owned();
            [cell(1), cell(2), cell(3)]
        })
        .collect();
    assert_eq!(shown, expected);
}

/// The answer to one keep-alive request on `stream` (status and body), or
/// `None` if it did not come within `wait`.
fn keep_alive_answer(stream: &mut TcpStream, wait: Duration) -> Option<(u16, Vec<u8>)> {
    stream.set_read_timeout(Some(wait)).expect("timeout");
    let mut reader = BufReader::new(stream);
    let mut status_line = String::new();
    reader.read_line(&mut status_line).ok().filter(|&n| n > 0)?;
    let status = status_line.split_whitespace().nth(1)?.parse().ok()?;
    let mut length = 0;
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).ok().filter(|&n| n > 0)?;
        if line.trim().is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            if name.eq_ignore_ascii_case("content-length") {
                length = value.trim().parse().ok()?;
            }
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    Some((status, body))
}

/// A browser opens several connections at once and keeps them open: each
/// request on each of them is answered (tiny_http's thread pool queued the
/// task of a connection arriving with another and never ran it while the
/// others stayed open).
#[test]
fn every_request_on_many_kept_alive_connections_is_answered() {
    let served = Served::start(&common::sample("rsbag-synthetic-lz4.bag"));
    let address = served
        .url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_owned();
    let request = format!("GET /api/recording HTTP/1.1\r\nHost: {address}\r\n\r\n");
    let mut open = Vec::new();
    let mut unanswered = 0;
    for _round in 0..4 {
        let mut connections: Vec<TcpStream> = (0..8)
            .map(|_| TcpStream::connect(&address).expect("connect"))
            .collect();
        for _request in 0..2 {
            for connection in &mut connections {
                connection.write_all(request.as_bytes()).expect("send");
            }
            for connection in &mut connections {
                match keep_alive_answer(connection, Duration::from_secs(3)) {
                    Some((status, body)) => {
                        assert_eq!(status, 200);
                        assert!(String::from_utf8_lossy(&body).contains("streams"));
                    }
                    None => unanswered += 1,
                }
            }
        }
        open.extend(connections);
    }
    assert_eq!(unanswered, 0, "requests not answered within 3 s, of 64");
    drop(open);
    served.stop();
}
