//! The inspection and repair commands (`info`, `convert`, `check`,
//! `reindex`, `trim`, `compress`, `decompress`) run as a user runs them, on
//! bags written by librealsense 2.55 and by rsbag, with their outputs
//! checked against independent readers: the bag index read record by
//! record, `rosbags`, the `png` decoder, and the real librealsense playing
//! the results (through the interop scripts).

use crate::common;
use crate::planted;
use crate::run;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use rsbag::device::{Format, Frame, StreamKind, StreamProfile};
use rsbag::record::RsWriter;
use rsbag::recording::{Event, Recording};
use rsbag::storage::bag::record::read_record;
use rsbag::storage::bag::{Bag, Compression};
use run::{decode_png, jet, ok, rsbag};
use serde_json::Value;

/// Run and expect a one-line error naming `file`; returns it.
fn fails(args: &[&str], file: &str) -> String {
    let run = rsbag(args);
    assert_eq!(run.code, Some(1), "rsbag {args:?}: {}", run.stdout);
    let line = run.stderr.trim_end();
    assert!(
        !line.contains('\n') && line.starts_with("rsbag: ") && line.contains(file),
        "rsbag {args:?}: not a one-line error naming {file}: {line}"
    );
    line.to_owned()
}

fn s(path: &Path) -> &str {
    path.to_str().expect("utf-8 path")
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// `rosbags_dump.py` of a bag (an independent reader).
fn rosbags(path: &Path, deserialize: bool) -> Value {
    let mut args = vec![s(path)];
    if deserialize {
        args.push("--deserialize");
    }
    json(&common::python("rosbags_dump.py", &args))
}

/// The frames the real librealsense plays from a bag, one JSON line each.
fn librealsense_frames(path: &Path) -> Vec<String> {
    common::python("rs_play.py", &[s(path)])
        .lines()
        .map(str::to_owned)
        .collect()
}

/// Frame lines without their position in their stream, which a file
/// holding some of another's frames counts anew.
fn without_positions(lines: &[String]) -> Vec<Value> {
    lines
        .iter()
        .map(|l| common::frame_without_position(l))
        .collect()
}

/// Whether every frame line of `frames` is one of `played` (lines without
/// their positions) but for its position.
fn all_among(frames: &[String], played: &[Value]) -> bool {
    frames
        .iter()
        .all(|f| played.contains(&common::frame_without_position(f)))
}

/// The recorded frames of a bag, in recorded order.
fn frames_of(path: &Path) -> Vec<Frame> {
    let recording = Recording::open(path).expect("open the recording");
    recording
        .select()
        .controls(false)
        .events()
        .filter_map(|e| match e.expect("event").event {
            Event::Frame { frame, .. } => Some(frame),
            _ => None,
        })
        .collect()
}

/// `Infrared_1` / `Depth`: how convert names a stream's files.
fn label(profile: &StreamProfile) -> String {
    match profile.stream.index {
        0 => profile.stream.kind.name().to_owned(),
        i => format!("{}_{i}", profile.stream.kind.name()),
    }
}

/// The bytes of a frame's image rows without stride padding.
fn packed(frame: &Frame) -> Vec<u8> {
    let (width, height) = frame.resolution().expect("video");
    let row = (width * frame.profile.format.bytes_per_pixel().expect("bpp")) as usize;
    let stride = (frame.stride as usize).max(row);
    (0..height as usize)
        .flat_map(|y| frame.data[y * stride..y * stride + row].to_vec())
        .collect()
}

fn depth_at(frame: &Frame, i: usize) -> u16 {
    u16::from_le_bytes([frame.data[2 * i], frame.data[2 * i + 1]])
}

#[test]
fn info_reads_the_index_of_bags_from_librealsense_and_rsbag() {
    for name in [
        "librealsense-depth-color-lz4.bag",
        "librealsense-motion-lz4.bag",
        "librealsense-stereo-none.bag",
        "rsbag-synthetic-lz4.bag",
    ] {
        let path = common::sample(name);
        let info = json(&ok(&["info", "--json", s(&path)]));
        let dump = rosbags(&path, false);
        // The topic table and counts, against rosbags.
        let mut theirs: BTreeMap<String, (u64, u64, u64)> = BTreeMap::new();
        for m in dump["messages"].as_array().expect("messages") {
            let t = m["time"].as_u64().expect("time");
            let e = theirs
                .entry(m["topic"].as_str().expect("topic").to_owned())
                .or_insert((0, u64::MAX, 0));
            *e = (e.0 + 1, e.1.min(t), e.2.max(t));
        }
        let ours: BTreeMap<String, u64> = info["topics"]
            .as_array()
            .expect("topics")
            .iter()
            .map(|t| {
                (
                    t["topic"].as_str().expect("topic").to_owned(),
                    t["messages"].as_u64().expect("n"),
                )
            })
            .collect();
        let counts: BTreeMap<String, u64> = theirs.iter().map(|(t, c)| (t.clone(), c.0)).collect();
        assert_eq!(ours, counts, "{name}");
        assert_eq!(info["chunks"], dump["chunk_count"], "{name}");
        assert_eq!(info["messages"], dump["message_count"], "{name}");
        assert_eq!(info["index"], "indexed");
        let rs = &info["realsense"];
        assert_eq!(rs["file_version"], 4, "{name}");
        // Per stream: frames and the measured rate from the data topic.
        let streams = rs["streams"].as_array().expect("streams");
        assert!(!streams.is_empty());
        for stream in streams {
            let prefix = format!(
                "{}_{}/",
                stream["stream"].as_str().expect("s"),
                stream["index"]
            );
            let (n, first, last) = theirs
                .iter()
                .find(|(t, _)| {
                    t.contains(&prefix) && (t.ends_with("image/data") || t.ends_with("imu/data"))
                })
                .map(|(_, c)| *c)
                .expect("a data topic");
            assert_eq!(stream["frames"], n, "{name} {prefix}");
            let rate = (n - 1) as f64 * 1e9 / (last - first) as f64;
            let measured = stream["measured_fps"].as_f64().expect("rate");
            assert!(
                (measured - rate).abs() < 1e-9 * rate,
                "{name} {prefix}: {measured} vs {rate}"
            );
            assert!((measured / stream["fps"].as_f64().expect("fps") - 1.0).abs() < 0.05);
        }
        if let Ok(text) = std::fs::read_to_string(path.with_extension("recorded.json")) {
            // What librealsense was given: device, formats, sizes, rates.
            let recorded = json(&text);
            assert_eq!(rs["device"]["Name"], recorded["camera_info"]["Name"]);
            let fed = recorded["frames"].as_array().expect("frames");
            for sensor in recorded["sensors"].as_array().expect("sensors") {
                for r in sensor["streams"].as_array().expect("streams") {
                    let ours = streams
                        .iter()
                        .find(|s| s["stream"] == r["stream"] && s["index"] == r["index"])
                        .expect("stream listed");
                    assert_eq!(ours["sensor"], sensor["name"]);
                    for key in ["format", "fps", "width", "height"] {
                        if !r[key].is_null() {
                            assert_eq!(ours[key], r[key], "{name} {key}");
                        }
                    }
                    for key in ["fx", "fy", "ppx", "ppy"] {
                        // librealsense's floats are f32.
                        let value = |v: &Value| v["intrinsics"][key].as_f64().map(|x| x as f32);
                        assert_eq!(value(ours), value(r), "{name} {key}");
                    }
                    let n = fed
                        .iter()
                        .filter(|f| f["stream"] == r["stream"] && f["index"] == r["index"])
                        .count();
                    assert_eq!(ours["frames"], n, "{name}");
                }
            }
        }
    }
    let text = ok(&["info", s(&common::sample("librealsense-stereo-none.bag"))]);
    for needle in [
        "file version:  4 (RealSense)",
        "index:         ok",
        "Infrared 1",
        "50x30",
        "1 none",
    ] {
        assert!(text.contains(needle), "{needle} in:\n{text}");
    }
}

/// Write a plain (not RealSense) bag of `count` messages on `/chatter`,
/// `size` bytes each.
fn write_chatter(path: &Path, count: u64, size: usize, compression: Compression, threshold: usize) {
    let topics = [("/chatter".to_string(), "std_msgs/String".to_string())];
    let messages: Vec<common::Written> = (0..count)
        .map(|i| common::Written {
            conn: 0,
            time: 1_000 + i,
            data: vec![i as u8; size],
        })
        .collect();
    let bag = common::write_bag(&topics, &messages, compression, threshold);
    std::fs::write(path, bag).expect("write");
}

#[test]
fn info_describes_any_ros_bag_and_a_cut_off_one() {
    let dir = tempfile::tempdir().expect("tempdir");
    let plain = dir.path().join("plain.bag");
    write_chatter(&plain, 5, 8, Compression::Bz2, 4096);
    let info = json(&ok(&["info", "--json", s(&plain)]));
    assert!(info["realsense"].is_null());
    assert_eq!(info["compression"]["bz2"], 1);
    assert_eq!(info["compression_chunks_read"], 1);
    assert_eq!(info["topics"][0]["messages"], 5);

    let bag = std::fs::read(common::sample("rsbag-synthetic-lz4.bag")).expect("sample");
    let cut = dir.path().join("cut.bag");
    std::fs::write(&cut, &bag[..bag.len() / 2]).expect("write");
    // Read by a scan: a warning says so on stderr (without -v), once, and
    // the file is damaged (exit 4).
    let run = rsbag(&["info", "--json", s(&cut)]);
    assert_eq!(run.code, Some(4), "{}", run.stderr);
    let warning = format!("rsbag: warning: {}: no usable index", s(&cut));
    assert!(run.stderr.starts_with(&warning), "{}", run.stderr);
    let warnings = run.stderr.lines().filter(|l| l.contains("warning:"));
    assert_eq!(warnings.count(), 1, "{}", run.stderr);
    assert!(run.stderr.contains("the file is damaged"), "{}", run.stderr);
    let info = json(&run.stdout);
    assert_eq!(info["index"], "scanned");
    assert!(info["scan"]["complete_chunks"].as_u64().expect("n") >= 2);
    assert!(info["scan"]["stopped_at"]["offset"].as_u64().expect("cut") <= bag.len() as u64 / 2);
    let run = rsbag(&["info", s(&cut)]);
    assert!(run.stdout.contains("recovered by scanning"));
    assert!(run.stderr.starts_with(&warning), "{}", run.stderr);
}

/// A large file's compression is read from 32 chunks spread over it,
/// the first and last among them, and the text says so.
#[test]
fn info_reads_the_compression_of_a_bounded_number_of_chunks() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("many-chunks.bag");
    // A threshold below one message: a chunk per message.
    write_chatter(&path, 100, 64, Compression::Lz4, 16);
    let info = json(&ok(&["info", "--json", s(&path)]));
    assert_eq!(info["chunks"], 100);
    assert_eq!(info["compression_chunks_read"], 32);
    assert_eq!(info["compression"]["lz4"], 32);
    let text = ok(&["info", s(&path)]);
    assert!(
        text.contains("chunks:        100 (of 32 read, spread over the file: 32 lz4)"),
        "{text}"
    );
}

#[test]
fn convert_png_holds_every_image_frame_pixel_for_pixel() {
    let dir = tempfile::tempdir().expect("tempdir");
    for name in [
        "librealsense-depth-color-lz4.bag",
        "librealsense-stereo-none.bag",
        "rsbag-synthetic-lz4.bag",
    ] {
        let bag = common::sample(name);
        let out = dir.path().join(name);
        let report = ok(&[
            "convert",
            s(&bag),
            "--to",
            "png",
            "--out",
            s(&out),
            "--colorize",
            "--colorize-range",
            "0.01,0.5",
        ]);
        let frames: Vec<Frame> = frames_of(&bag)
            .into_iter()
            .filter(|f| f.resolution().is_some())
            .collect();
        assert!(
            report.contains(&format!("converted {} frames", frames.len())),
            "{report}"
        );
        for frame in &frames {
            let file = out.join(format!("{}_{:06}.png", label(&frame.profile), frame.number));
            let (w, h, color, depth, pixels) = decode_png(&file);
            assert_eq!(Some((w, h)), frame.resolution(), "{}", file.display());
            let want = packed(frame);
            match frame.profile.format {
                Format::Z16 => {
                    assert_eq!(
                        (color, depth),
                        (png::ColorType::Grayscale, png::BitDepth::Sixteen)
                    );
                    // PNG stores 16-bit samples big-endian.
                    let swapped: Vec<u8> = want.chunks(2).flat_map(|p| [p[1], p[0]]).collect();
                    assert_eq!(pixels, swapped, "{}", file.display());
                    let colorized = out.join(format!("Depth_{:06}_colorized.png", frame.number));
                    let (cw, ch, ccolor, _, rgb) = decode_png(&colorized);
                    assert_eq!((cw, ch, ccolor), (w, h, png::ColorType::Rgb));
                    for i in (0..(w * h) as usize).step_by(37) {
                        assert_eq!(
                            &rgb[3 * i..3 * i + 3],
                            jet(depth_at(frame, i), 0.001, 0.01, 0.5),
                            "pixel {i}"
                        );
                    }
                }
                Format::Rgb8 => {
                    assert_eq!(color, png::ColorType::Rgb);
                    assert_eq!(pixels, want);
                }
                Format::Y8 => {
                    assert_eq!(
                        (color, depth),
                        (png::ColorType::Grayscale, png::BitDepth::Eight)
                    );
                    assert_eq!(pixels, want);
                }
                other => panic!("unexpected format {other}"),
            }
        }
        let index = std::fs::read_to_string(out.join("frames.csv")).expect("frames.csv");
        let depth_frames = frames
            .iter()
            .filter(|f| f.profile.format == Format::Z16)
            .count();
        assert_eq!(index.lines().count(), 1 + frames.len() + depth_frames);
    }
}

#[test]
fn convert_png_turns_bgr_into_rgb() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bag = dir.path().join("bgr.bag");
    let profile = StreamProfile::video(
        rsbag::device::StreamId::new(StreamKind::Color, 0),
        Format::Bgr8,
        common::rs::WIDTH,
        common::rs::HEIGHT,
        30,
    );
    let mut w = RsWriter::create(&bag, Default::default()).expect("create");
    w.write_device_info(&rsbag::device::CameraInfo::new([("Name", "Test")]))
        .expect("info");
    w.write_sensor_info(0, &rsbag::device::CameraInfo::new([("Name", "RGB Camera")]))
        .expect("info");
    w.write_stream_info(0, &profile, 0).expect("stream");
    let frame = common::rs::frame(profile, 0);
    w.write_frame(0, &frame, 0.0, 0).expect("frame");
    w.finish().expect("finish");
    let out = dir.path().join("png");
    ok(&["convert", s(&bag), "--to", "png", "--out", s(&out)]);
    let (_, _, color, _, pixels) = decode_png(&out.join("Color_000001.png"));
    assert_eq!(color, png::ColorType::Rgb);
    let rgb: Vec<u8> = frame
        .data
        .chunks(3)
        .flat_map(|p| [p[2], p[1], p[0]])
        .collect();
    assert_eq!(pixels, rgb);
}

#[test]
fn convert_ply_points_are_depth_through_the_intrinsics() {
    // A recording without colour (with colour, point clouds are coloured
    // and librealsense's occlusion scan drops vertices: see
    // convert_processing.rs, which compares them with librealsense's).
    let dir = tempfile::tempdir().expect("tempdir");
    for name in ["librealsense-stereo-none.bag"] {
        let bag = common::sample(name);
        let out = dir.path().join(name);
        ok(&["convert", s(&bag), "--to", "ply", "--out", s(&out)]);
        let info = json(&ok(&["info", "--json", s(&bag)]));
        let units = info["realsense"]["sensors"]
            .as_array()
            .expect("sensors")
            .iter()
            .find_map(|s| s["options"]["Depth Units"].as_f64())
            .expect("depth units") as f32;
        let depth: Vec<Frame> = frames_of(&bag)
            .into_iter()
            .filter(|f| f.profile.format == Format::Z16)
            .collect();
        assert!(!depth.is_empty());
        for frame in &depth {
            let i = frame.profile.intrinsics().expect("intrinsics");
            let bytes =
                std::fs::read(out.join(format!("Depth_{:06}.ply", frame.number))).expect("ply");
            let end = bytes
                .windows(11)
                .position(|w| w == b"end_header\n")
                .expect("header")
                + 11;
            let header = std::str::from_utf8(&bytes[..end]).expect("ascii header");
            assert!(
                header.starts_with("ply\nformat binary_little_endian 1.0\n"),
                "{header}"
            );
            let (width, height) = frame.resolution().expect("size");
            let valid: Vec<usize> = (0..(width * height) as usize)
                .filter(|&p| depth_at(frame, p) != 0)
                .collect();
            assert!(
                header.contains(&format!("element vertex {}\n", valid.len())),
                "{header}"
            );
            assert_eq!(bytes.len() - end, valid.len() * 12);
            let f = |at: usize| f32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
            for k in (0..valid.len()).step_by(97) {
                let p = valid[k];
                let (u, v) = ((p % width as usize) as f32, (p / width as usize) as f32);
                let z = f32::from(depth_at(frame, p)) * units;
                let want = [(u - i.ppx) / i.fx * z, (v - i.ppy) / i.fy * z, z];
                let at = end + 12 * k;
                for (axis, w) in want.iter().enumerate() {
                    assert!(
                        (f(at + 4 * axis) - w).abs() <= 1e-6 * w.abs().max(1.0),
                        "{name} point {k}"
                    );
                }
            }
        }
    }
    // ASCII: the same vertex count, one line each.
    let out = dir.path().join("ascii");
    let bag = common::sample("librealsense-stereo-none.bag");
    ok(&[
        "convert",
        s(&bag),
        "--to",
        "ply",
        "--ascii",
        "--out",
        s(&out),
        "--duration",
        "0.01",
    ]);
    let text = std::fs::read_to_string(out.join("Depth_000001.ply")).expect("ply");
    let (header, body) = text.split_once("end_header\n").expect("header");
    let n: usize = header
        .lines()
        .find_map(|l| l.strip_prefix("element vertex "))
        .expect("count")
        .parse()
        .expect("n");
    assert_eq!(body.lines().count(), n);
}

#[test]
fn convert_csv_rows_are_the_imu_samples() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bag = common::sample("librealsense-motion-lz4.bag");
    let out = dir.path().join("csv");
    let report = ok(&["convert", s(&bag), "--to", "csv", "--out", s(&out)]);
    // Depth frames become matrices (tests/convert_media.rs checks them).
    assert!(report.contains("Depth 0: 3"), "{report}");
    // The samples as rosbags deserializes them from the bag.
    let dump = rosbags(&bag, true);
    for (stream, field) in [
        ("Accel", "linear_acceleration"),
        ("Gyro", "angular_velocity"),
    ] {
        let samples: Vec<&Value> = dump["messages"]
            .as_array()
            .expect("messages")
            .iter()
            .filter(|m| {
                m["topic"]
                    .as_str()
                    .is_some_and(|t| t.contains(&format!("/{stream}_0/imu/data")))
            })
            .collect();
        let text = std::fs::read_to_string(out.join(format!("{stream}.csv"))).expect("csv");
        let mut lines = text.lines();
        assert_eq!(lines.next(), Some("frame_number,timestamp_ms,x,y,z"));
        let rows: Vec<Vec<f64>> = lines
            .map(|l| l.split(',').map(|v| v.parse().expect("number")).collect())
            .collect();
        assert_eq!(rows.len(), samples.len(), "{stream}");
        assert_eq!(rows.len(), if stream == "Accel" { 10 } else { 20 });
        for (row, sample) in rows.iter().zip(&samples) {
            let imu = &sample["imu"];
            assert_eq!(row[0], imu["seq"].as_f64().expect("seq"));
            assert!((row[1] - imu["stamp_ns"].as_f64().expect("stamp") / 1e6).abs() < 1e-6);
            for axis in 0..3 {
                let want = imu[field][axis].as_f64().expect("value") as f32;
                assert_eq!(row[2 + axis] as f32, want, "{stream} {row:?}");
            }
        }
    }
}

#[test]
fn convert_refuses_bad_arguments_and_leaves_nothing_behind() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bag = common::sample("librealsense-motion-lz4.bag");
    let out = dir.path().join("out");
    let line = fails(
        &[
            "convert",
            s(&bag),
            "--to",
            "png",
            "--out",
            s(&out),
            "--streams",
            "gyro",
        ],
        "Gyro",
    );
    assert!(line.contains("not an image"), "{line}");
    std::fs::create_dir(&out).expect("mkdir");
    std::fs::write(out.join("keep.txt"), "mine").expect("write");
    fails(
        &["convert", s(&bag), "--to", "raw", "--out", s(&out)],
        s(&out),
    );
    assert_eq!(
        std::fs::read_to_string(out.join("keep.txt")).expect("kept"),
        "mine"
    );
    let unwritable = dir.path().join("keep.txt-file");
    std::fs::write(&unwritable, "").expect("write");
    let nested = unwritable.join("frames");
    fails(
        &["convert", s(&bag), "--to", "raw", "--out", s(&nested)],
        "frames",
    );
    fails(
        &[
            "convert",
            s(&dir.path().join("missing.bag")),
            "--to",
            "raw",
            "--out",
            s(&dir.path().join("x")),
        ],
        "missing.bag",
    );
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .expect("list")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("partial"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn check_finds_planted_gaps_duplicates_and_reordering() {
    let dir = tempfile::tempdir().expect("tempdir");
    let clean = dir.path().join("clean.bag");
    let (d, c) = (StreamKind::Depth, StreamKind::Color);
    let all: Vec<(StreamKind, u64)> = (0..12).flat_map(|n| [(d, n), (c, n)]).collect();
    planted::write(&clean, &all);
    let run = rsbag(&["check", s(&clean)]);
    assert_eq!(run.code, Some(0), "{}", run.stdout);
    assert!(run.stdout.contains("result:  OK"));

    let gaps = dir.path().join("gaps.bag");
    planted::write(&gaps, &planted::flawed());
    let run = rsbag(&["check", s(&gaps)]);
    assert_eq!(run.code, Some(3), "{}{}", run.stdout, run.stderr);
    let out = run.stdout;
    assert!(out.contains("Depth 0: 2 missing before #8"), "{out}");
    assert!(out.contains("Depth 0: 1 missing before #12"), "{out}");
    assert!(out.contains("Color 0: #4 at"), "{out}");
    assert!(out.contains("duplicated"), "{out}");
    assert!(
        out.contains("Color 0: #9 at") && out.contains("out of order (after #10"),
        "{out}"
    );
    let row = |stream: &str| -> Vec<String> {
        out.lines()
            .find(|l| l.starts_with(stream))
            .expect("stream row")
            .split_whitespace()
            .skip(2)
            .map(str::to_owned)
            .collect()
    };
    // frames, numbers, dropped, out of order, duplicates
    assert_eq!(row("Depth 0"), ["9", "#1..#12", "3", "0", "0"]);
    assert_eq!(row("Color 0"), ["13", "#1..#12", "0", "1", "1"]);

    // A cut-off file is damaged: exit 4, and what survives is checked.
    let bytes = std::fs::read(&clean).expect("read");
    let cut = dir.path().join("cut.bag");
    std::fs::write(&cut, &bytes[..bytes.len() - 100]).expect("write");
    let run = rsbag(&["check", s(&cut)]);
    assert_eq!(run.code, Some(4), "{}", run.stdout);
    assert!(
        run.stdout.contains("no usable index") && run.stdout.contains("DAMAGED"),
        "{}",
        run.stdout
    );
    for sample in [
        "librealsense-motion-lz4.bag",
        "librealsense-metadata-lz4.bag",
        "rsbag-synthetic-lz4.bag",
    ] {
        let run = rsbag(&["check", s(&common::sample(sample))]);
        assert_eq!(run.code, Some(0), "{sample}: {}", run.stdout);
    }
}

/// Each chunk of an indexed bag: where its record ends and the (topic,
/// time) of its messages in the order they were written, read through the
/// index.
fn chunks_of(path: &Path) -> Vec<(u64, Vec<(String, u64)>)> {
    let bytes = std::fs::read(path).expect("read");
    let bag = Bag::open(path).expect("indexed bag");
    bag.chunks()
        .iter()
        .map(|chunk| {
            let end = read_record(&bytes, chunk.info.chunk_pos as usize, 0)
                .expect("chunk")
                .end();
            let mut entries = bag.chunk_entries(chunk).expect("entries").to_vec();
            entries.sort_by_key(|e| e.offset);
            let messages = entries
                .iter()
                .map(|e| (bag.connection(e.conn).expect("conn").topic.clone(), e.time))
                .collect();
            (end, messages)
        })
        .collect()
}

/// (topic, time, sha256) of every message, sorted.
fn message_set(dump: &Value) -> Vec<(String, u64, String)> {
    let mut set: Vec<(String, u64, String)> = dump["messages"]
        .as_array()
        .expect("messages")
        .iter()
        .map(|m| {
            (
                m["topic"].as_str().expect("topic").to_owned(),
                m["time"].as_u64().expect("time"),
                m["sha256"].as_str().expect("sha").to_owned(),
            )
        })
        .collect();
    set.sort();
    set
}

#[test]
fn reindex_restores_bags_cut_at_several_offsets() {
    let dir = tempfile::tempdir().expect("tempdir");
    let original = common::sample("rsbag-synthetic-lz4.bag");
    let bytes = std::fs::read(&original).expect("read");
    let chunks = chunks_of(&original);
    assert!(chunks.len() >= 5, "the sample has several chunks");
    let all_messages = message_set(&rosbags(&original, false));
    let played = librealsense_frames(&original);
    // Inside the second chunk, at the end of the third, inside the fifth,
    // and inside the closing index.
    let cuts = [
        (chunks[0].0 + chunks[1].0) / 2,
        chunks[2].0,
        chunks[4].0 - 7,
        bytes.len() as u64 - 30,
    ];
    let played = without_positions(&played);
    for (k, &cut) in cuts.iter().enumerate() {
        let partial = dir.path().join(format!("cut{k}.bag.partial"));
        std::fs::write(&partial, &bytes[..cut as usize]).expect("write");
        let report = ok(&["reindex", s(&partial)]);
        let repaired = dir.path().join(format!("cut{k}.bag"));
        assert!(
            report.contains(&format!("wrote {}", repaired.display())),
            "{report}"
        );
        // Every message of every complete chunk, and of the chunk the cut
        // falls in, the first ones (what decodes before the cut).
        let mut want: Vec<(String, u64)> = chunks
            .iter()
            .filter(|(end, _)| *end <= cut)
            .flat_map(|(_, m)| m.clone())
            .collect();
        let got = message_set(&rosbags(&repaired, false));
        let from_cut = got.len() - want.len();
        if let Some((_, cut_chunk)) = chunks.iter().find(|(end, _)| *end > cut) {
            want.extend(cut_chunk[..from_cut].iter().cloned());
        }
        if k == 2 {
            // Most of the fifth chunk lies before the cut.
            assert!(
                from_cut > 100,
                "cut at {cut}: {from_cut} messages of the cut chunk"
            );
        }
        want.sort();
        let got_keys: Vec<(String, u64)> =
            got.iter().map(|(t, time, _)| (t.clone(), *time)).collect();
        assert_eq!(got_keys, want, "cut at {cut}");
        assert!(
            got.iter().all(|m| all_messages.binary_search(m).is_ok()),
            "cut at {cut}: changed bytes"
        );
        Bag::open(&repaired).expect("the repaired bag has an index");
        // librealsense plays exactly the frames recovered.
        let frames = librealsense_frames(&repaired);
        let data = want.iter().filter(|(t, _)| t.ends_with("/data")).count();
        assert_eq!(frames.len(), data, "cut at {cut}");
        assert!(all_among(&frames, &played), "cut at {cut}");
        assert!(dir.path().join(format!("cut{k}.orig.bag")).exists());
    }
    // Cut inside the header of the only chunk of a librealsense bag:
    // nothing to recover.
    let lrs_path = common::sample("librealsense-depth-color-lz4.bag");
    let lrs = std::fs::read(&lrs_path).expect("read");
    let chunk_pos = Bag::open(&lrs_path).expect("open").chunks()[0]
        .info
        .chunk_pos;
    let short = dir.path().join("short.bag");
    std::fs::write(&short, &lrs[..chunk_pos as usize + 20]).expect("write");
    let line = fails(
        &[
            "reindex",
            s(&short),
            "--out",
            s(&dir.path().join("never.bag")),
        ],
        "short.bag",
    );
    assert!(line.contains("nothing to recover"), "{line}");
    assert!(!dir.path().join("never.bag").exists());
    // A librealsense bag whose closing index is gone recovers whole.
    let index_pos = Bag::open(common::sample("librealsense-depth-color-lz4.bag"))
        .expect("open")
        .header()
        .index_pos;
    let noindex = dir.path().join("noindex.bag");
    std::fs::write(&noindex, &lrs[..index_pos as usize]).expect("write");
    let fixed = dir.path().join("fixed.bag");
    ok(&["reindex", s(&noindex), "--out", s(&fixed)]);
    let expected: Vec<String> =
        std::fs::read_to_string(common::sample("librealsense-depth-color-lz4.frames.jsonl"))
            .expect("jsonl")
            .lines()
            .map(str::to_owned)
            .collect();
    assert_eq!(librealsense_frames(&fixed), expected);
}

#[test]
fn trim_keeps_exactly_the_frames_in_range_and_plays_in_librealsense() {
    let dir = tempfile::tempdir().expect("tempdir");
    // A librealsense bag (its played frames are beside it) and an rsbag one.
    let cases = [
        (
            "librealsense-depth-color-lz4.bag",
            "Depth",
            vec!["Depth"],
            0.1,
            0.1,
        ),
        (
            "rsbag-synthetic-lz4.bag",
            "depth,gyro",
            vec!["Depth", "Gyro"],
            0.05,
            0.12,
        ),
    ];
    for (name, streams, kinds, start, duration) in cases {
        let original = common::sample(name);
        let jsonl = original.with_extension("frames.jsonl");
        let played: Vec<String> = match std::fs::read_to_string(&jsonl) {
            Ok(text) => text.lines().map(str::to_owned).collect(),
            Err(_) => librealsense_frames(&original),
        };
        let played = without_positions(&played);
        // The frames expected, from rosbags: data messages of the kept
        // streams with bag time in [first frame + start, + duration).
        let dump = rosbags(&original, true);
        let messages = dump["messages"].as_array().expect("messages");
        let is_data = |m: &&Value| {
            let t = m["topic"].as_str().unwrap_or("");
            t.ends_with("/image/data") || t.ends_with("/imu/data")
        };
        let first = messages
            .iter()
            .filter(is_data)
            .map(|m| m["time"].as_u64().expect("t"))
            .min()
            .expect("frames");
        let from = first + (start * 1e9) as u64;
        let to = from + (duration * 1e9) as u64;
        let mut want: BTreeSet<(String, u64)> = BTreeSet::new();
        for m in messages.iter().filter(is_data) {
            let time = m["time"].as_u64().expect("t");
            let topic = m["topic"].as_str().expect("topic");
            let kind = kinds.iter().find(|k| topic.contains(&format!("/{k}_0/")));
            if let (Some(kind), true) = (kind, (from..to).contains(&time)) {
                let seq = m["image"]["seq"]
                    .as_u64()
                    .or(m["imu"]["seq"].as_u64())
                    .expect("seq");
                want.insert((kind.to_string(), seq));
            }
        }
        assert!(want.len() >= 3, "{name}: {want:?}");
        let out = dir.path().join(format!("trim-{name}"));
        let report = ok(&[
            "trim",
            s(&original),
            "--out",
            s(&out),
            "--streams",
            streams,
            "--start",
            &start.to_string(),
            "--duration",
            &duration.to_string(),
        ]);
        assert!(
            report.contains(&format!("kept {} frames", want.len())),
            "{report}"
        );
        let frames = librealsense_frames(&out);
        let got: BTreeSet<(String, u64)> = frames
            .iter()
            .map(|l| {
                let v = json(l);
                (
                    v["stream"].as_str().expect("s").to_owned(),
                    v["frame_number"].as_u64().expect("n"),
                )
            })
            .collect();
        assert_eq!(got, want, "{name}");
        assert_eq!(frames.len(), want.len());
        assert!(all_among(&frames, &played), "{name}: frames changed");
        // Only the kept streams are described.
        let device = json(&common::python("rs_play.py", &[s(&out), "--device-json"]));
        let profiles: BTreeSet<String> = device["sensors"]
            .as_array()
            .expect("sensors")
            .iter()
            .flat_map(|s| s["profiles"].as_array().expect("profiles").iter())
            .map(|p| p["stream"].as_str().expect("stream").to_owned())
            .collect();
        let kinds: BTreeSet<String> = kinds.iter().map(|k| k.to_string()).collect();
        assert_eq!(profiles, kinds, "{name}");
    }
    let original = common::sample("librealsense-depth-color-lz4.bag");
    let line = fails(
        &[
            "trim",
            s(&original),
            "--out",
            s(&dir.path().join("x.bag")),
            "--start",
            "5",
        ],
        "--start",
    );
    assert!(line.contains("past the end"), "{line}");
    fails(
        &[
            "trim",
            s(&original),
            "--out",
            s(&dir.path().join("x.bag")),
            "--streams",
            "gyro",
        ],
        "gyro",
    );
    fails(
        &["trim", s(&original), "--out", "/proc/nonexistent/x.bag"],
        "/proc/nonexistent/x.bag",
    );
    assert!(!dir.path().join("x.bag").exists());
}

#[test]
fn compress_and_decompress_keep_every_message() {
    let dir = tempfile::tempdir().expect("tempdir");
    let original = common::sample("librealsense-depth-color-lz4.bag");
    let messages = message_set(&rosbags(&original, false));
    let expected: Vec<String> = std::fs::read_to_string(original.with_extension("frames.jsonl"))
        .expect("jsonl")
        .lines()
        .map(str::to_owned)
        .collect();
    let plain = dir.path().join("plain.bag");
    ok(&["decompress", s(&original), "--out", s(&plain)]);
    let bz2 = dir.path().join("small.bag");
    let report = ok(&[
        "compress",
        s(&plain),
        "--compression",
        "bz2",
        "--out",
        s(&bz2),
    ]);
    assert!(
        report.contains("librealsense 2.55 cannot play bz2"),
        "{report}"
    );
    for (path, compression) in [(&bz2, "bz2"), (&plain, "none")] {
        let info = json(&ok(&["info", "--json", s(path)]));
        let names: Vec<&String> = info["compression"]
            .as_object()
            .expect("map")
            .keys()
            .collect();
        assert_eq!(names, [compression]);
        assert_eq!(message_set(&rosbags(path, false)), messages);
    }
    assert_eq!(librealsense_frames(&plain), expected);
    // In place, back to lz4: the original is kept as NAME.orig.bag.
    ok(&["compress", s(&bz2)]);
    let backup = dir.path().join("small.orig.bag");
    assert_eq!(
        json(&ok(&["info", "--json", s(&bz2)]))["compression"]["lz4"],
        1
    );
    assert_eq!(
        json(&ok(&["info", "--json", s(&backup)]))["compression"]["bz2"],
        1
    );
    assert_eq!(message_set(&rosbags(&bz2, false)), messages);
    assert_eq!(librealsense_frames(&bz2), expected);
    // A second in-place run would overwrite the backup: refused.
    fails(&["compress", s(&bz2)], "small.orig.bag");
    let run = rsbag(&["compress", s(&bz2), "--compression", "zstd"]);
    assert_ne!(run.code, Some(0));
    assert!(run.stderr.contains("unknown compression"), "{}", run.stderr);
}

/// Damaged copies of `bag`: truncated at `cuts` offsets spread over the
/// file and at record boundaries, and bit flips in the bag header, the
/// chunk headers, chunk data, the index data and the closing index.
fn damaged_copies(bag: &[u8]) -> Vec<(String, Vec<u8>)> {
    let parsed = Bag::from_bytes(bag.to_vec()).expect("sample");
    let index_pos = parsed.header().index_pos as usize;
    let chunk = parsed.chunks()[0].info.chunk_pos as usize;
    let chunk_end = read_record(bag, chunk, 0).expect("chunk").end() as usize;
    let mut out = Vec::new();
    let mut cuts: BTreeSet<usize> = (1..16).map(|k| bag.len() * k / 16).collect();
    cuts.extend([
        1,
        12,
        13,
        30,
        4096 + 13,
        chunk + 4,
        chunk + 40,
        chunk_end - 1,
        chunk_end,
        chunk_end + 20,
        index_pos,
        index_pos + 5,
        bag.len() - 1,
    ]);
    for cut in cuts.into_iter().filter(|&c| c < bag.len()) {
        out.push((format!("cut-{cut}"), bag[..cut].to_vec()));
    }
    let mut flips: Vec<usize> = vec![13, 20, 25, 40, 60, 80];
    flips.extend((0..80).step_by(9).map(|d| chunk + d));
    flips.extend((1..6).map(|k| chunk + (chunk_end - chunk) * k / 6));
    flips.extend((0..60).step_by(7).map(|d| chunk_end + d));
    flips.extend((0..10).map(|k| index_pos + (bag.len() - index_pos) * k / 10));
    for at in flips.into_iter().filter(|&a| a < bag.len()) {
        let mut copy = bag.to_vec();
        copy[at] ^= 0x5a;
        out.push((format!("flip-{at}"), copy));
    }
    out
}

/// Run `info`, `frames`, `check` and `convert` on a damaged file: a clean
/// result, a damaged one (exit 4), or a one-line error naming the file
/// (after warnings naming it), never a panic or a hang, and no partial
/// output.
fn survives(dir: &Path, name: &str, bytes: &[u8]) {
    let file = dir.join(format!("{name}.bag"));
    std::fs::write(&file, bytes).expect("write");
    let out = dir.join(format!("{name}-converted"));
    let runs = [
        (vec!["info", s(&file)], &[0, 1, 4][..]),
        (vec!["frames", "--json", s(&file)], &[0, 1, 4][..]),
        (vec!["check", s(&file)], &[0, 1, 3, 4][..]),
        (
            vec!["convert", s(&file), "--to", "raw", "--out", s(&out)],
            &[0, 1, 4][..],
        ),
    ];
    for (args, allowed) in runs {
        let run = rsbag(&args);
        let what = format!("rsbag {args:?} on {name}");
        assert!(!run.stderr.contains("panicked"), "{what}: {}", run.stderr);
        let code = run
            .code
            .unwrap_or_else(|| panic!("{what}: killed by a signal"));
        assert!(
            allowed.contains(&code),
            "{what}: exit {code}: {}",
            run.stderr
        );
        if code == 1 {
            // Warnings (a fall-back to scanning) may come first, each
            // naming the file; the error is the last line.
            let lines: Vec<&str> = run.stderr.trim_end().lines().collect();
            let (line, warnings) = lines.split_last().expect("an error");
            assert!(
                line.starts_with("rsbag: ") && !line.starts_with("rsbag: warning"),
                "{what}: not a one-line error: {line}"
            );
            for warning in warnings {
                assert!(
                    warning.starts_with("rsbag: warning: ")
                        && warning.contains(&format!("{name}.bag")),
                    "{what}: {warning}"
                );
            }
            assert!(
                line.contains(&format!("{name}.bag")),
                "{what}: the error does not name the file: {line}"
            );
            if args[0] == "convert" {
                assert!(!out.exists(), "{what}: left a partial output");
            }
        }
    }
    let _ = std::fs::remove_dir_all(&out);
    let _ = std::fs::remove_file(&file);
}

#[test]
fn damaged_files_give_a_clean_error_or_a_recovered_result() {
    let dir = tempfile::tempdir().expect("tempdir");
    survives(dir.path(), "empty", b"");
    survives(dir.path(), "magic-only", b"#ROSBAG V2.0\n");
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let garbage: Vec<u8> = (0..5000)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state as u8
        })
        .collect();
    survives(dir.path(), "garbage", &garbage);
    let mut disguised = b"#ROSBAG V2.0\n".to_vec();
    disguised.extend(&garbage);
    survives(dir.path(), "disguised", &disguised);
    let bag = std::fs::read(common::sample("librealsense-depth-color-lz4.bag")).expect("sample");
    for (name, bytes) in damaged_copies(&bag) {
        survives(dir.path(), &format!("lz4-{name}"), &bytes);
    }
    // An unknown compression is named as such.
    let chunk = Bag::from_bytes(bag.clone()).expect("sample").chunks()[0]
        .info
        .chunk_pos as usize;
    let mut zz = bag.clone();
    let at = chunk
        + zz[chunk..]
            .windows(15)
            .position(|w| w == b"compression=lz4")
            .expect("field")
        + 12;
    zz[at..at + 3].copy_from_slice(b"zz4");
    let file = dir.path().join("zz4.bag");
    std::fs::write(&file, &zz).expect("write");
    let line = fails(&["info", s(&file)], "zz4.bag");
    assert!(line.contains("unknown chunk compression \"zz4\""), "{line}");
    survives(dir.path(), "zz4", &zz);
}

#[test]
fn damaged_uncompressed_files_give_a_clean_error_or_a_recovered_result() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bag = std::fs::read(common::sample("librealsense-stereo-none.bag")).expect("sample");
    for (name, bytes) in damaged_copies(&bag) {
        survives(dir.path(), &format!("none-{name}"), &bytes);
    }
}

#[test]
fn damaged_rsbag_files_give_a_clean_error_or_a_recovered_result() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bag = std::fs::read(common::sample("rsbag-synthetic-lz4.bag")).expect("sample");
    for (name, bytes) in damaged_copies(&bag) {
        survives(dir.path(), &format!("rsbag-{name}"), &bytes);
    }
}
