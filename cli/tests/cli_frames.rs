//! `rsbag frames`: exactly the frames librealsense plays, as JSON lines, and
//! the choice of streams, time ranges and indexes.

use crate::common;
use crate::run;

use std::time::Duration;

use common::planned::*;
use common::FrameLine;
use rsbag::recording::{FrameReader, RecordedFrame};
use rsbag::storage::bag::WriterOptions;
use run::{ok, rsbag};

#[test]
fn cli_frames_json_is_what_librealsense_plays() {
    for (bag, jsonl) in librealsense_bags() {
        let out = ok(&["frames", "--json", bag.to_str().expect("path")]);
        let expected = std::fs::read_to_string(&jsonl).expect("frames.jsonl");
        assert_eq!(out, expected, "{}", bag.display());
    }
}

#[test]
fn cli_frames_chooses_streams_times_and_indexes() {
    let dir = tempfile::tempdir().expect("tempdir");
    let plan = gap_plan();
    let bag = temp_bag(dir.path(), "gaps.bag", &plan, WriterOptions::default());
    let path = bag.to_str().expect("path");
    let reader = FrameReader::open(&bag).expect("open");
    let all = read_all(&reader);
    let json = |f: &RecordedFrame| {
        let p = FrameLine::of(&f.frame);
        (p.stream, p.index, p.number, p.sha256)
    };
    let parse = |out: &str| -> Vec<(String, u64, u64, String)> {
        FrameLine::parse_jsonl(out)
            .into_iter()
            .map(|p| (p.stream, p.index, p.number, p.sha256))
            .collect()
    };
    // --stream (names and lists), --start, --duration.
    let out = ok(&[
        "frames",
        "--json",
        path,
        "--stream",
        "depth,Infrared 1",
        "--stream",
        "Color",
        "--start",
        "0.3",
        "--duration",
        "1.2",
    ]);
    let mut want: Vec<_> = all
        .iter()
        .filter(|f| [DEPTH, IR1, COLOR].contains(&f.stream))
        .filter(|f| f.time >= Duration::from_millis(300) && f.time < Duration::from_millis(1500))
        .map(json)
        .collect();
    want.sort();
    assert!(!want.is_empty());
    assert_eq!(parse(&out), want);
    // --index K: the K-th frame of each chosen stream.
    let out = ok(&[
        "frames",
        "--json",
        path,
        "--stream",
        "Depth,Accel",
        "--index",
        "40",
    ]);
    let mut want = vec![
        json(&reader.frame(DEPTH, 40).expect("depth 40")),
        json(&reader.frame(ACCEL, 40).expect("accel 40")),
    ];
    want.sort();
    assert_eq!(parse(&out), want);
    // Text lines, in recorded order.
    let out = ok(&[
        "frames",
        path,
        "--stream",
        "Accel",
        "--start",
        "0.3",
        "--duration",
        "0.05",
    ]);
    assert_eq!(out.lines().count(), 10);
    // Errors: unknown stream, index past the end.
    for args in [
        vec!["frames", path, "--stream", "Gyro"],
        vec!["frames", path, "--stream", "Infrared", "--index", "1"],
    ] {
        let run = rsbag(&args);
        assert_ne!(run.code, Some(0), "{args:?}");
        assert!(run.stderr.starts_with("rsbag: "), "{}", run.stderr);
    }
    // The playback device path is still there and plays the same frames.
    let device = ok(&["frames", "--json", "--device", path]);
    let reader_out = ok(&["frames", "--json", path]);
    assert_eq!(device, reader_out);
}
