//! The command line past damage: `frames`, `convert`, `play` and `check`
//! read everything else, say what was lost on stderr and exit 4; a chunk
//! header that lies about its size fails `decompress` cleanly. The
//! library's side of it is in `tests/damage_reading.rs`.

use crate::common;
use crate::run;

use common::damaged::{
    chunked_bag, lying_bag, with_bad_chunk, with_bad_index_data, with_bad_metadata, FRAMES,
};
use common::rs;
use rsbag::storage::bag::Compression;

/// Exit code of a damaged file.
const DAMAGED: i32 = 4;

/// Run `rsbag args`: exit code (-1 when killed by a signal), stdout and
/// stderr.
fn rsbag(args: &[&str]) -> (i32, String, String) {
    let run = run::rsbag(args);
    (run.code.unwrap_or(-1), run.stdout, run.stderr)
}

#[test]
fn damaged_index_data_costs_no_frame_and_exits_4() {
    let dir = tempfile::tempdir().expect("tempdir");
    let good = chunked_bag(dir.path());
    let good = good.to_str().expect("utf-8 path");
    let (bad, _, record) = with_bad_index_data(good.as_ref(), 3);
    let bad = bad.to_str().expect("utf-8 path");
    for way in [vec!["frames"], vec!["frames", "--device"]] {
        let lines = |out: String| {
            // The device's sensors deliver on threads of their own.
            let mut lines: Vec<String> = out.lines().map(str::to_owned).collect();
            lines.sort();
            lines
        };
        let (code, intact, _) = rsbag(&[&way[..], &[good]].concat());
        assert_eq!(code, 0);
        let args = [&way[..], &[bad]].concat();
        let (code, stdout, stderr) = rsbag(&args);
        assert_eq!(code, DAMAGED, "{args:?}: {stderr}");
        assert_eq!(lines(stdout), lines(intact), "{args:?}: every frame");
        assert!(
            stderr.contains(&format!("index data record at byte offset {record}"))
                && stderr.contains("were read from the chunk itself, none missing")
                && stderr.contains("rsbag reindex"),
            "{args:?}: {stderr}"
        );
    }
    let (code, stdout, _) = rsbag(&["check", bad]);
    assert_eq!(code, DAMAGED, "{stdout}");
    assert!(stdout.contains(&record.to_string()), "{stdout}");
    // A rewrite holds every message, with an index of its own.
    let copy = dir.path().join("copy.bag");
    let copy = copy.to_str().expect("utf-8 path");
    let (code, _, stderr) = rsbag(&["decompress", bad, "--out", copy]);
    assert_eq!(code, DAMAGED, "{stderr}");
    assert!(stderr.contains("none missing"), "{stderr}");
    assert_eq!(rsbag(&["frames", copy]), rsbag(&["frames", good]));
    // Describing a file reads its first chunk, for the device's description.
    let (first, chunk, record) = with_bad_index_data(good.as_ref(), 0);
    let first = first.to_str().expect("utf-8 path");
    let (code, stdout, stderr) = rsbag(&["info", first]);
    assert_eq!(code, DAMAGED, "{stderr}");
    assert!(
        stdout.contains(&format!("index data record at byte offset {record}"))
            && stdout.contains("read from the chunk itself, none missing")
            && stderr.contains("rsbag reindex"),
        "{stdout}{stderr}"
    );
    let described = |file: &str| {
        let (code, stdout, _) = rsbag(&["info", "--json", file]);
        let json: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
        (code, json)
    };
    let (code, mut bad_json) = described(first);
    assert_eq!(code, DAMAGED);
    let repaired = bad_json["repaired_chunks"].take();
    assert_eq!(repaired.as_array().map(Vec::len), Some(1), "{repaired}");
    assert_eq!(repaired[0]["offset"], chunk);
    let (code, mut good_json) = described(good);
    assert_eq!(code, 0);
    assert_eq!(good_json["repaired_chunks"].take(), serde_json::json!([]));
    good_json["file"] = bad_json["file"].clone();
    assert_eq!(
        bad_json, good_json,
        "the rest is described as for the intact file"
    );
    // With another file, as a session: each file is described or checked
    // and the damage said once, not again as the session opens.
    for command in ["info", "check"] {
        let (code, _, stderr) = rsbag(&[command, first, good]);
        assert_eq!(code, DAMAGED, "{command}: {stderr}");
        let said = format!("index data record at byte offset {record}");
        let warnings = stderr.lines().filter(|l| l.contains(&said)).count();
        assert_eq!(warnings, 1, "{command}: {stderr}");
    }
}

#[test]
fn commands_report_damage_and_exit_4() {
    let dir = tempfile::tempdir().expect("tempdir");
    let good = chunked_bag(dir.path());
    let (bad, offset, lost) = with_bad_chunk(&good, 3);
    let bad = bad.to_str().expect("utf-8 path");
    let expect_damage = |what: &str, (code, _, stderr): &(i32, String, String)| {
        assert_eq!(*code, DAMAGED, "{what}: {stderr}");
        assert!(stderr.contains(&offset.to_string()), "{what}: {stderr}");
        assert!(
            stderr.contains("rsbag check") && stderr.contains("rsbag reindex"),
            "{what}: {stderr}"
        );
    };
    let frames = rsbag(&["frames", bad]);
    expect_damage("frames", &frames);
    assert_eq!(frames.1.lines().count() as u64, 2 * FRAMES - lost);
    let json = rsbag(&["frames", "--json", bad]);
    expect_damage("frames --json", &json);
    let device = rsbag(&["frames", "--device", bad]);
    expect_damage("frames --device", &device);
    assert_eq!(device.1.lines().count() as u64, 2 * FRAMES - lost);
    let out = dir.path().join("raw");
    let convert = rsbag(&[
        "convert",
        bad,
        "--to",
        "raw",
        "--out",
        out.to_str().expect("utf-8"),
    ]);
    expect_damage("convert", &convert);
    let written = std::fs::read_dir(&out).expect("the output").count() as u64;
    assert!(written >= 2 * FRAMES - lost, "{written} files");
    let play = rsbag(&["play", bad, "--no-realtime"]);
    expect_damage("play", &play);
    let (code, stdout, _) = rsbag(&["check", bad]);
    assert_eq!(code, DAMAGED, "{stdout}");
    assert!(
        stdout.contains("DAMAGED") && stdout.contains(&offset.to_string()),
        "{stdout}"
    );
    // The undamaged file: no warning, exit 0.
    let (code, _, stderr) = rsbag(&["frames", good.to_str().expect("utf-8")]);
    assert_eq!((code, stderr.as_str()), (0, ""));
}

#[test]
fn a_malformed_metadata_message_is_damage_for_check_and_frames() {
    let dir = tempfile::tempdir().expect("tempdir");
    let good = dir.path().join("plain.bag");
    rs::write(&good, FRAMES, Compression::None);
    let bad = with_bad_metadata(&good, 7);
    let bad = bad.to_str().expect("utf-8 path");
    let (code, stdout, stderr) = rsbag(&["check", bad]);
    assert_eq!(code, DAMAGED, "{stdout}{stderr}");
    assert!(
        stdout.contains("unreadable") && stdout.contains("KeyValue"),
        "{stdout}"
    );
    assert!(
        stdout.contains("Depth 0") && stdout.contains("Color 0"),
        "{stdout}"
    );
    let (code, stdout, stderr) = rsbag(&["frames", bad]);
    assert_eq!(code, DAMAGED, "{stderr}");
    assert_eq!(stdout.lines().count() as u64, 2 * FRAMES - 1);
}

#[test]
fn decompress_stops_at_a_chunk_that_lies_about_its_size_without_allocating_the_lie() {
    let dir = tempfile::tempdir().expect("tempdir");
    let lying = lying_bag(dir.path());

    let out = dir.path().join("copy.bag");
    let (run, peak) = run::rsbag_peak_mb(&[
        "decompress",
        lying.to_str().expect("utf-8"),
        "--out",
        out.to_str().expect("utf-8"),
    ]);
    let stderr = run.stderr;
    assert_eq!(run.code, Some(1), "{stderr}");
    assert!(
        stderr.contains("lying.bag") && stderr.contains("frames hold at most"),
        "{stderr}"
    );
    assert!(!out.exists());
    // The 8 MB chunk, its copy and the program: nowhere near the 2 GB claimed.
    assert!(peak < 400, "a child process peaked at {peak} MB");
}

/// `bytes` of a sample bag, cut off there, written under `name`.
fn cut_sample(dir: &std::path::Path, sample: &str, bytes: usize, name: &str) -> std::path::PathBuf {
    let whole = std::fs::read(common::sample(sample)).expect("sample");
    let cut = dir.join(name);
    std::fs::write(&cut, &whole[..bytes]).expect("write");
    cut
}

/// The lines of stderr that are warnings.
fn warnings(stderr: &str) -> Vec<&str> {
    stderr.lines().filter(|l| l.contains("warning:")).collect()
}

/// A recording cut off inside its first (uncompressed) chunk, the one that
/// holds its description: every command reads it as the damaged RealSense
/// recording it is, from the messages before the cut, warns once and
/// exits 4.
#[test]
fn a_recording_cut_off_in_its_first_chunk_is_a_damaged_recording_everywhere() {
    let dir = tempfile::tempdir().expect("tempdir");
    let cut = cut_sample(dir.path(), "rsbag-synthetic-none.bag", 250_000, "cut.bag");
    let cut = cut.to_str().expect("utf-8 path");
    let raw = dir.path().join("raw");
    let db3 = dir.path().join("cut.db3");
    let trimmed = dir.path().join("trimmed.bag");
    let commands: [&[&str]; 8] = [
        &["info"],
        &["frames"],
        &["frames", "--json"],
        &["frames", "--device"],
        &["play", "--no-realtime"],
        &[
            "convert",
            "--to",
            "raw",
            "--out",
            raw.to_str().expect("utf-8"),
        ],
        &[
            "convert",
            "--to",
            "db3",
            "--out",
            db3.to_str().expect("utf-8"),
        ],
        &["trim", "--out", trimmed.to_str().expect("utf-8")],
    ];
    let mut frame_lines = 0;
    for command in commands {
        let mut args = command.to_vec();
        args.insert(1, cut);
        let (code, stdout, stderr) = rsbag(&args);
        assert_eq!(code, DAMAGED, "{command:?}: {stderr}");
        let warned = warnings(&stderr);
        assert_eq!(warned.len(), 1, "{command:?}: {stderr}");
        assert!(
            warned[0].contains("no usable index") && warned[0].contains("580 messages"),
            "{command:?}: {stderr}"
        );
        assert!(stderr.contains("rsbag reindex"), "{command:?}: {stderr}");
        assert!(!stderr.contains("not a RealSense"), "{command:?}: {stderr}");
        if command == ["frames"] {
            frame_lines = stdout.lines().count();
        }
        if command == ["info"] {
            assert!(stdout.contains("file version:  4 (RealSense)"), "{stdout}");
            assert!(
                stdout.contains("580 messages of the chunk the file ends in"),
                "{stdout}"
            );
        }
    }
    // trim copied what the scan recovered: every frame `frames` read.
    let (code, stdout, stderr) = rsbag(&["frames", trimmed.to_str().expect("utf-8")]);
    assert_eq!((code, stdout.lines().count()), (0, frame_lines), "{stderr}");
    // The stream listing, from what was recovered.
    let run = run::rsbag(&["info", "--json", cut]);
    let info: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    assert_eq!(info["scan"]["cut_chunk_messages"], 580);
    let streams = info["realsense"]["streams"].as_array().expect("streams");
    let listed: Vec<(String, u64)> = streams
        .iter()
        .map(|s| {
            let name = s["stream"].as_str().expect("name").to_owned();
            (name, s["frames"].as_u64().expect("frames"))
        })
        .collect();
    for kind in ["Depth", "Color", "Accel", "Gyro"] {
        assert!(
            listed.iter().any(|(s, n)| s == kind && *n >= 4),
            "{listed:?}"
        );
    }
    let total: u64 = listed.iter().map(|(_, n)| n).sum();
    assert_eq!(total, frame_lines as u64);
    assert!(total >= 80, "{total} frames");
    // check lists the streams too, and the cut.
    let (code, stdout, _) = rsbag(&["check", cut]);
    assert_eq!(code, DAMAGED, "{stdout}");
    assert!(
        stdout.contains("Depth 0") && stdout.contains("580 complete message records"),
        "{stdout}"
    );
}

/// What librealsense 2.55 plays, one JSON line per frame.
fn played_by_librealsense(bag: &std::path::Path) -> Vec<serde_json::Value> {
    common::python("rs_play.py", &[bag.to_str().expect("utf-8 path")])
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

/// (stream, index, frame number) of a frame, as rs_play.py prints it.
fn frame_key(frame: &serde_json::Value) -> (String, u64, u64) {
    (
        frame["stream"].as_str().expect("stream").to_owned(),
        frame["stream_index"].as_u64().expect("stream_index"),
        frame["frame_number"].as_u64().expect("frame number"),
    )
}

/// `reindex` recovers every complete message of the chunk a recording is
/// cut off in (`rosbag reindex` recovers none: it keeps complete chunks),
/// into a bag librealsense 2.55 plays: the recording's first frames, each
/// as librealsense plays it from the whole file.
#[test]
fn reindex_recovers_the_first_frames_of_a_cut_chunk_as_librealsense_plays_them() {
    let dir = tempfile::tempdir().expect("tempdir");
    let stereo = std::fs::metadata(common::sample("librealsense-stereo-none.bag"))
        .expect("sample")
        .len() as usize;
    let synthetic_lz4 = std::fs::metadata(common::sample("rsbag-synthetic-lz4.bag"))
        .expect("sample")
        .len() as usize;
    // (sample, cut, at least the messages recovered from the cut chunk, at
    // least the frames librealsense plays)
    let cases = [
        ("librealsense-stereo-none.bag", stereo * 6 / 10, 60, 14),
        ("rsbag-synthetic-none.bag", 250_000, 500, 80),
        // Inside the first LZ4 chunk: what decodes before the cut.
        ("librealsense-depth-color-lz4.bag", 12_000, 20, 1),
        // Inside the last of several LZ4 chunks.
        ("rsbag-synthetic-lz4.bag", synthetic_lz4 * 6 / 10, 100, 140),
    ];
    for (k, (sample, bytes, messages, frames)) in cases.into_iter().enumerate() {
        let cut = cut_sample(dir.path(), sample, bytes, &format!("cut{k}.bag"));
        let out = dir.path().join(format!("recovered{k}.bag"));
        let (code, stdout, stderr) = rsbag(&[
            "reindex",
            cut.to_str().expect("utf-8"),
            "--out",
            out.to_str().expect("utf-8"),
        ]);
        assert_eq!(code, 0, "{sample}: {stderr}");
        let recovered: u64 = stdout
            .split(" and the ")
            .nth(1)
            .and_then(|rest| rest.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{sample}: {stdout}"));
        assert!(recovered >= messages, "{sample}: {stdout}");
        // An indexed bag now: read whole, no warning.
        let (code, ours, stderr) = rsbag(&["frames", "--json", out.to_str().expect("utf-8")]);
        assert_eq!((code, stderr.as_str()), (0, ""), "{sample}");

        let played = played_by_librealsense(&out);
        assert!(played.len() >= frames, "{sample}: {} frames", played.len());
        let whole = played_by_librealsense(&common::sample(sample));
        assert!(played.len() < whole.len(), "{sample}");
        // Each frame as librealsense plays it from the whole file: data,
        // number, timestamp, domain.
        for frame in &played {
            assert!(
                whole.contains(frame),
                "{sample}: {frame} is not played from the whole file"
            );
        }
        // ... and they are its first frames, in recorded order.
        let reader = rsbag::recording::FrameReader::open(common::sample(sample)).expect("open");
        let mut first: Vec<(String, u64, u64)> = reader
            .frames()
            .expect("frames")
            .take(played.len())
            .map(|f| {
                let f = f.expect("frame");
                let stream = f.frame.profile.stream;
                (
                    stream.kind.name().to_owned(),
                    u64::from(stream.index),
                    f.frame.number,
                )
            })
            .collect();
        let mut theirs: Vec<(String, u64, u64)> = played.iter().map(frame_key).collect();
        first.sort();
        theirs.sort();
        assert_eq!(theirs, first, "{sample}");
        // rsbag reads the recovered bag as librealsense plays it.
        let ours: Vec<serde_json::Value> = ours
            .lines()
            .map(|l| serde_json::from_str(l).expect("JSON"))
            .collect();
        assert_eq!(ours, played, "{sample}");
    }
}

#[test]
fn an_mcap_chunk_whose_record_length_lies_is_damage_past_which_the_rest_is_read() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bag = dir.path().join("synthetic.bag");
    let (code, _, stderr) = rsbag(&[
        "record",
        "--synthetic",
        "--duration",
        "0.5",
        "--out",
        bag.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let good = run::mcap_export(&bag, &dir.path().join("ros2"));
    let mut bytes = std::fs::read(&good).expect("read");
    // Walk the records after the magic: opcode, length, body.
    let mut at = 8;
    let mut chunks = Vec::new();
    while bytes[at] != 0x02 {
        if bytes[at] == 0x06 {
            chunks.push(at);
        }
        at += 9 + u64::from_le_bytes(bytes[at + 1..at + 9].try_into().expect("len")) as usize;
    }
    assert!(chunks.len() >= 3, "{chunks:?}");
    bytes[chunks[2] + 1..chunks[2] + 9].copy_from_slice(&u64::MAX.to_le_bytes());
    let bad = dir.path().join("bad.mcap");
    std::fs::write(&bad, &bytes).expect("write");
    let (code, stdout, _) = rsbag(&["check", bad.to_str().expect("utf-8")]);
    assert_eq!(code, DAMAGED, "{stdout}");
    assert!(
        stdout.contains(&format!(
            "corrupt MCAP chunk record at byte offset {}: its record length says 18446744073709551615 bytes",
            chunks[2]
        )),
        "{stdout}"
    );
    let frames = |path: &std::path::Path| {
        let (code, stdout, _) = rsbag(&["frames", path.to_str().expect("utf-8")]);
        (code, stdout.lines().count())
    };
    let ((good_code, all), (bad_code, read)) = (frames(&good), frames(&bad));
    assert_eq!((good_code, bad_code), (0, DAMAGED));
    assert!(0 < read && read < all, "{read} of {all} frames");
    let out = dir.path().join("png");
    let (code, stdout, stderr) = rsbag(&[
        "convert",
        bad.to_str().expect("utf-8"),
        "--to",
        "png",
        "--out",
        out.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, DAMAGED, "{stderr}");
    assert!(stdout.contains("converted "), "{stdout}");
    assert!(stderr.contains("1 unreadable part was skipped"), "{stderr}");
    assert!(out.join("frames.csv").is_file());
}
