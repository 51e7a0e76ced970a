//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

use rsbag::device::{ProfileKind, StreamProfile};
use rsbag::storage::bag::{BagWriter, Compression, WriterOptions};
use rsbag::storage::Connection;
use serde_json::Value;

use process::OutputInTime;

pub mod damaged;
pub mod interop;
pub mod jpeg;
pub mod planned;
pub mod process;

/// The repository's root, where the library's package lives: the tests of
/// the command line (`cli/tests`) share these helpers and its fixtures.
pub fn root() -> PathBuf {
    let package = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    match package.parent() {
        Some(parent) if package.ends_with("cli") => parent.to_path_buf(),
        _ => package,
    }
}

/// A librealsense-written reference file of `tests/fixtures/reference/`.
pub fn reference(name: &str) -> PathBuf {
    root().join("tests/fixtures/reference").join(name)
}

/// A file of `sample_bags/`.
pub fn sample(name: &str) -> PathBuf {
    root().join("sample_bags").join(name)
}

/// One message to write: connection index, time, payload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    pub conn: u32,
    pub time: u64,
    pub data: Vec<u8>,
}

/// Write `messages` on `topics` (each `std_msgs/String`-shaped but with
/// arbitrary types) into an in-memory bag.
pub fn write_bag(
    topics: &[(String, String)],
    messages: &[Written],
    compression: Compression,
    chunk_threshold: usize,
) -> Vec<u8> {
    let options = WriterOptions::default()
        .compression(compression)
        .chunk_threshold(chunk_threshold);
    let mut writer =
        BagWriter::new(std::io::Cursor::new(Vec::new()), options).expect("start a bag in memory");
    for (topic, msg_type) in topics {
        let definition = format!("# {msg_type}\nuint8[] data\n");
        writer.add_connection(Connection::ros1(
            topic,
            msg_type,
            "0123456789abcdef0123456789abcdef",
            &definition,
        ));
    }
    for m in messages {
        writer
            .write(m.conn, m.time, &m.data)
            .expect("write a message");
    }
    writer.finish().expect("finish the bag").into_inner()
}

/// `messages` in the order a reader must give them: by time, ties in
/// write order.
pub fn time_order(messages: &[Written]) -> Vec<Written> {
    let mut sorted = messages.to_vec();
    sorted.sort_by_key(|m| m.time);
    sorted
}

/// Run a Python script of `tests/interop/` with librealsense 2.55 (the
/// system's `python3`) and return its stdout.
pub fn python(script: &str, args: &[&str]) -> String {
    run_python(PathBuf::from("python3"), script, args)
}

/// The Python of the virtual environment with librealsense 2.59
/// (`scripts/install-test-deps.sh` makes it): `RSBAG_PYTHON_259`, or
/// `target/venv-librealsense-2.59/bin/python` in the repository.
pub fn python_259_path() -> PathBuf {
    match std::env::var_os("RSBAG_PYTHON_259") {
        Some(path) => PathBuf::from(path),
        None => root().join("target/venv-librealsense-2.59/bin/python"),
    }
}

/// Run a Python script of `tests/interop/` with librealsense 2.59.
pub fn python259(script: &str, args: &[&str]) -> String {
    let python = python_259_path();
    assert!(
        python.exists(),
        "{} is missing: run scripts/install-test-deps.sh (the README's test command does)",
        python.display()
    );
    run_python(python, script, args)
}

fn run_python(python: PathBuf, script: &str, args: &[&str]) -> String {
    let path = root().join("tests/interop").join(script);
    let out = std::process::Command::new(&python)
        .arg(&path)
        .args(args)
        .output_in_time()
        .unwrap_or_else(|e| panic!("cannot run {} {}: {e}", python.display(), path.display()));
    assert!(
        out.status.success(),
        "{} {} {:?} failed: {}",
        python.display(),
        path.display(),
        args,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("python output is UTF-8")
}

/// A small RealSense recording written straight through the RealSense
/// layout writer (no threads, exact times): two sensors, depth and color
/// at 30 fps, `frames` frames each, an `Exposure` change at the middle
/// and a notification at the middle.
pub mod rs {
    use std::path::Path;

    use rsbag::device::{
        camera_info, CameraInfo, Distortion, Extrinsics, Format, Frame, Intrinsics, Notification,
        OptionRange, SensorOption, StreamId, StreamKind, StreamProfile, TimestampDomain,
    };
    use rsbag::realsense::topics::StreamTopic;
    use rsbag::record::RsWriter;
    use rsbag::storage::bag::{Compression, WriterOptions};

    pub const WIDTH: u32 = 16;
    pub const HEIGHT: u32 = 12;
    /// Capture time between frames of a stream, ns.
    pub const PERIOD_NS: u64 = 33_333_333;

    pub fn depth_profile() -> StreamProfile {
        StreamProfile::video(
            StreamId::new(StreamKind::Depth, 0),
            Format::Z16,
            WIDTH,
            HEIGHT,
            30,
        )
        .as_default()
        .with_intrinsics(intrinsics(Distortion::BrownConrady))
    }

    pub fn color_profile() -> StreamProfile {
        StreamProfile::video(
            StreamId::new(StreamKind::Color, 0),
            Format::Rgb8,
            WIDTH,
            HEIGHT,
            30,
        )
        .as_default()
        .with_intrinsics(intrinsics(Distortion::InverseBrownConrady))
    }

    fn intrinsics(model: Distortion) -> Intrinsics {
        Intrinsics {
            width: WIDTH,
            height: HEIGHT,
            ppx: 7.5,
            ppy: 5.5,
            fx: 20.0,
            fy: 21.0,
            model,
            coeffs: [0.1, -0.2, 0.001, 0.002, 0.05],
        }
    }

    /// The bytes of frame `n` of a stream.
    pub fn pixels(profile: &StreamProfile, n: u64) -> Vec<u8> {
        let bpp = profile.format.bytes_per_pixel().unwrap_or(1) as usize;
        let len = (WIDTH * HEIGHT) as usize * bpp;
        (0..len)
            .map(|i| (i as u64 * 7 + n * 13 + profile.stream.kind as u64) as u8)
            .collect()
    }

    /// Frame `n` of a stream: number `n + 1`, timestamp `1000 + n * 33.3` ms.
    pub fn frame(profile: StreamProfile, n: u64) -> Frame {
        Frame {
            profile,
            number: n + 1,
            timestamp: 1000.0 + n as f64 * 33.3,
            domain: TimestampDomain::HardwareClock,
            system_time: 1_700_000_000_000.0 + n as f64 * 33.3,
            metadata: vec![("Frame Counter".into(), n as i64 + 1)],
            stride: WIDTH * profile.format.bytes_per_pixel().unwrap_or(1),
            data: pixels(&profile, n).into(),
        }
    }

    /// Capture time of frame `n` of the stream (color 1 ms after depth).
    pub fn capture_ns(profile: &StreamProfile, n: u64) -> u64 {
        let offset = if profile.stream.kind == StreamKind::Color {
            1_000_000
        } else {
            0
        };
        n * PERIOD_NS + offset
    }

    pub fn exposure(value: f32) -> SensorOption {
        SensorOption {
            name: "Exposure".into(),
            value,
            range: OptionRange::fixed(value),
            description: "Exposure time in microseconds".into(),
            read_only: false,
        }
    }

    pub fn notification() -> Notification {
        Notification {
            category: "Hardware Error".into(),
            severity: "Warn".into(),
            description: "planted".into(),
            timestamp: 1_700_000_000_500.0,
            serialized_data: "{}".into(),
        }
    }

    /// Write the recording to `path`.
    pub fn write(path: &Path, frames: u64, compression: Compression) {
        write_with(
            path,
            frames,
            WriterOptions::default().compression(compression),
        );
    }

    /// Write the recording to `path` with writer `options` (small chunks,
    /// say).
    pub fn write_with(path: &Path, frames: u64, options: WriterOptions) {
        write_captured_at(path, frames, options, capture_ns);
    }

    /// Write the recording to `path`, frame `n` of each stream captured
    /// at `capture(profile, n)` ns.
    pub fn write_captured_at(
        path: &Path,
        frames: u64,
        options: WriterOptions,
        capture: impl Fn(&StreamProfile, u64) -> u64,
    ) {
        let mut w = RsWriter::create(path, options).expect("create bag");
        w.write_device_info(&CameraInfo::new([
            (camera_info::NAME, "Test Camera"),
            (camera_info::SERIAL_NUMBER, "0042"),
        ]))
        .expect("device info");
        w.write_sensor_info(0, &CameraInfo::new([(camera_info::NAME, "Stereo Module")]))
            .expect("info");
        w.write_sensor_info(1, &CameraInfo::new([(camera_info::NAME, "RGB Camera")]))
            .expect("info");
        w.write_option(1, &exposure(100.0), 0).expect("option");
        let (depth, color) = (depth_profile(), color_profile());
        w.write_stream_info(0, &depth, 0).expect("stream info");
        w.write_stream_info(1, &color, 0).expect("stream info");
        w.write_extrinsics(
            StreamTopic::new(0, 0, depth.stream),
            0,
            &Extrinsics::IDENTITY,
        )
        .expect("tf");
        w.write_extrinsics(
            StreamTopic::new(0, 1, color.stream),
            0,
            &Extrinsics::translation(0.015, 0.0, 0.0),
        )
        .expect("tf");
        for n in 0..frames {
            for (sensor, profile) in [(0, depth), (1, color)] {
                let at = capture(&profile, n);
                w.write_frame(sensor, &frame(profile, n), 0.001, at)
                    .expect("frame");
            }
            if n == frames / 2 {
                let at = capture_ns(&depth, n) + 500_000;
                w.write_option(1, &exposure(200.0), at)
                    .expect("option change");
                w.write_notification(0, &notification(), at)
                    .expect("notification");
            }
        }
        w.finish().expect("finish");
    }
}

/// md5sums librealsense writes, per ROS type (`pkg/Type`), from the
/// reference connection list.
pub fn reference_md5sums() -> std::collections::HashMap<String, String> {
    let text = std::fs::read_to_string(reference("librealsense-2.55-connections.txt"))
        .expect("reference list");
    text.lines()
        .filter(|l| l.starts_with("topic="))
        .map(|line| {
            let field = |name: &str| {
                line.split(' ')
                    .find_map(|f| f.strip_prefix(name))
                    .expect("field")
                    .to_owned()
            };
            (field("type=").replace("/msg/", "/"), field("md5="))
        })
        .collect()
}

/// Assert that a JSON number from librealsense equals an rsbag `f32`.
pub fn close(a: &Value, b: f32, what: &str) {
    let a = a
        .as_f64()
        .unwrap_or_else(|| panic!("{what}: not a number: {a}")) as f32;
    assert!(
        (a - b).abs() <= 1e-5 * b.abs().max(1.0),
        "{what}: librealsense {a}, rsbag {b}"
    );
}

/// Assert that a profile as `rs_play.py --device-json` describes it equals
/// rsbag's: format, rate, default flag, size and intrinsics.
pub fn check_profile(theirs: &Value, ours: &StreamProfile, what: &str) {
    assert_eq!(
        theirs["format"].as_str(),
        Some(ours.format.name()),
        "{what}"
    );
    assert_eq!(theirs["fps"].as_u64(), Some(u64::from(ours.fps)), "{what}");
    assert_eq!(
        theirs["is_default"].as_bool(),
        Some(ours.is_default),
        "{what} default"
    );
    match ours.kind {
        ProfileKind::Video {
            width,
            height,
            intrinsics,
        } => {
            assert_eq!(theirs["width"].as_u64(), Some(u64::from(width)), "{what}");
            assert_eq!(theirs["height"].as_u64(), Some(u64::from(height)), "{what}");
            let i = intrinsics.expect("rsbag has intrinsics");
            let t = &theirs["intrinsics"];
            close(&t["fx"], i.fx, what);
            close(&t["fy"], i.fy, what);
            close(&t["ppx"], i.ppx, what);
            close(&t["ppy"], i.ppy, what);
            assert_eq!(t["model"].as_str(), Some(i.model.name()), "{what}");
            for (k, c) in i.coeffs.iter().enumerate() {
                close(&t["coeffs"][k], *c, what);
            }
        }
        ProfileKind::Motion { intrinsics } => {
            let i = intrinsics.expect("rsbag has motion intrinsics");
            let t = &theirs["motion_intrinsics"];
            for (r, row) in i.data.iter().enumerate() {
                for (c, v) in row.iter().enumerate() {
                    close(&t["data"][r][c], *v, what);
                }
            }
            for k in 0..3 {
                close(&t["noise_variances"][k], i.noise_variances[k], what);
                close(&t["bias_variances"][k], i.bias_variances[k], what);
            }
        }
        ProfileKind::Pose => {}
    }
}

/// On each sensor of `device`, open the profiles of `wanted` it has (by
/// unique id) and start it with the callback `callback()` makes.
pub fn open_and_start(
    device: &dyn rsbag::device::Device,
    wanted: &[StreamProfile],
    mut callback: impl FnMut() -> rsbag::device::FrameCallback,
) {
    for sensor in device.sensors() {
        let profiles: Vec<StreamProfile> = sensor
            .profiles()
            .into_iter()
            .filter(|p| wanted.iter().any(|w| w.unique_id == p.unique_id))
            .collect();
        if !profiles.is_empty() {
            sensor.open(&profiles).expect("open");
            sensor.start(callback()).expect("start");
        }
    }
}

/// A frame as `rs_play.py` and `rsbag frames --json` describe it.
#[derive(Debug, Clone, PartialEq)]
pub struct FrameLine {
    pub stream: String,
    pub index: u64,
    pub number: u64,
    pub timestamp: f64,
    pub domain: String,
    pub size: u64,
    pub sha256: String,
}

impl FrameLine {
    /// The line of a frame.
    pub fn of(frame: &rsbag::device::Frame) -> FrameLine {
        use sha2::{Digest, Sha256};
        FrameLine {
            stream: frame.profile.stream.kind.name().to_owned(),
            index: u64::from(frame.profile.stream.index),
            number: frame.number,
            timestamp: rsbag::realsense::convert::ms_as_recorded(frame.timestamp),
            domain: frame.domain.name().to_owned(),
            size: frame.data.len() as u64,
            sha256: Sha256::digest(&frame.data)
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect(),
        }
    }

    /// (stream, index, frame number).
    /// Sorted as rs_play.py sorts (stable: ties in recorded order).
    pub fn sorted_like_rs_play(mut frames: Vec<FrameLine>) -> Vec<FrameLine> {
        frames.sort_by(|a, b| (&a.stream, a.index, a.number).cmp(&(&b.stream, b.index, b.number)));
        frames
    }

    pub fn key(&self) -> (String, u64, u64) {
        (self.stream.clone(), self.index, self.number)
    }

    /// Parse JSON lines.
    pub fn parse_jsonl(jsonl: &str) -> Vec<FrameLine> {
        jsonl
            .lines()
            .map(|line| {
                let v: Value = serde_json::from_str(line).expect("json line");
                FrameLine {
                    stream: v["stream"].as_str().expect("stream").to_owned(),
                    index: v["stream_index"].as_u64().expect("stream_index"),
                    number: v["frame_number"].as_u64().expect("frame_number"),
                    // serde_json's float parsing is not always exact; Rust's is.
                    timestamp: raw_field(line, "timestamp").parse().expect("timestamp"),
                    domain: v["domain"].as_str().expect("domain").to_owned(),
                    size: v["size"].as_u64().expect("size"),
                    sha256: v["sha256"].as_str().expect("sha256").to_owned(),
                }
            })
            .collect()
    }
}

/// The text of a number field of a JSON line.
fn raw_field<'a>(line: &'a str, name: &str) -> &'a str {
    let key = format!("\"{name}\": ");
    let start = line.find(&key).expect("field") + key.len();
    let rest = &line[start..];
    rest[..rest.find([',', '}']).expect("end of field")].trim()
}

/// `from` written anew as `to` in `format` (`.bag` ↔ `.db3`) through the
/// library's copy; returns `to`.
pub fn convert(from: &std::path::Path, to: PathBuf, format: rsbag::storage::FileFormat) -> PathBuf {
    let recording = rsbag::recording::Recording::open(from).expect("open");
    let sink = rsbag::record::create_sink(
        to.clone(),
        format,
        Default::default(),
        rsbag::record::Db3Options::default(),
        false,
    )
    .expect("sink");
    rsbag::record::copy_recording(&recording, sink, &Default::default(), |_| {}).expect("copy");
    to
}

/// A frame line of `rsbag frames --json` or rs_play.py without its
/// position in its stream (`frame_index`), which a file holding some of
/// another's frames counts anew.
pub fn frame_without_position(line: &str) -> Value {
    let mut frame: Value = serde_json::from_str(line).expect("a JSON frame line");
    frame
        .as_object_mut()
        .expect("a frame")
        .remove("frame_index");
    frame
}
