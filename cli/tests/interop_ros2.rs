//! `rsbag convert --to ros2`: ROS 2 bags that ROS 2's own readers open.
//! The rosbags library (tests/interop/ros2_read.py) deserializes every
//! message with its own definitions of the standard types, and the mcap
//! library reads the MCAP files' schemas and channels; the frames must be
//! the ones the real librealsense plays from the recording (2.55 for a
//! `.bag`, 2.59 for a `.db3`), and the TF tree must give librealsense's
//! extrinsics.

use crate::common;
use crate::run;

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use serde_json::Value;
use sha2::{Digest, Sha256};

fn s(path: &Path) -> &str {
    path.to_str().expect("utf-8 path")
}

/// The recordings converted: librealsense 2.55 bags (images, stereo, IMU,
/// metadata), an rsbag-written bag, librealsense 2.59 `.db3` files
/// (compressed images, IMU).
fn sources() -> Vec<(PathBuf, bool)> {
    let mut out: Vec<(PathBuf, bool)> = [
        "librealsense-depth-color-lz4.bag",
        "librealsense-stereo-none.bag",
        "librealsense-motion-lz4.bag",
        "librealsense-metadata-lz4.bag",
        "rsbag-synthetic-lz4.bag",
    ]
    .iter()
    .map(|name| (common::sample(name), false))
    .collect();
    for name in ["rec259_dc.db3", "rec259_imu.db3"] {
        out.push((common::reference(&format!("db3/{name}")), true));
    }
    out
}

/// The wrapper's folder name of a librealsense stream.
fn folder(stream: &str, index: u64) -> String {
    match (stream, index) {
        ("Infrared", 0) => "infra".into(),
        ("Infrared", i) => format!("infra{i}"),
        ("Fisheye", i) if i > 0 => format!("fisheye{i}"),
        (other, _) => other.to_lowercase(),
    }
}

/// What librealsense plays, per wrapper folder, in order.
fn played(source: &Path, db3: bool) -> BTreeMap<String, Vec<Value>> {
    let text = if db3 {
        common::python259("rs_play.py", &[s(source)])
    } else {
        common::python("rs_play.py", &[s(source)])
    };
    let mut out: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    for line in text.lines() {
        let frame: Value = serde_json::from_str(line).expect("frame line");
        let key = folder(
            frame["stream"].as_str().expect("stream"),
            frame["stream_index"].as_u64().expect("stream_index"),
        );
        out.entry(key).or_default().push(frame);
    }
    out
}

fn device(source: &Path, db3: bool) -> Value {
    let text = if db3 {
        common::python259("rs_play.py", &[s(source), "--device-json"])
    } else {
        common::python("rs_play.py", &[s(source), "--device-json"])
    };
    serde_json::from_str(&text).expect("device JSON")
}

/// `/camera/camera/<folder>/<leaf>` → folder.
fn folder_of(topic: &str) -> &str {
    let rest = topic.strip_prefix("/camera/camera/").expect("namespace");
    rest.split('/').next().expect("folder")
}

fn stamp_ns(ms: f64) -> u64 {
    (ms * 1e6).round() as u64
}

#[test]
fn ros2_exports_of_librealsense_and_rsbag_recordings_read_in_rosbags_with_every_frame() {
    let dir = tempfile::tempdir().expect("tempdir");
    for (n, (source, db3)) in sources().into_iter().enumerate() {
        let played = played(&source, db3);
        let device = device(&source, db3);
        // MCAP with each chunk compression (zstd by default); the other
        // two on the first recording only.
        let mut storages = vec![("sqlite3", None), ("mcap", None)];
        if n == 0 {
            storages.extend([("mcap", Some("lz4")), ("mcap", Some("none"))]);
        }
        for (storage, compression) in storages {
            let what = format!("{} as {storage} {compression:?}", source.display());
            let out = dir
                .path()
                .join(format!("out{n}_{storage}_{}", compression.unwrap_or("")));
            let mut args = vec!["convert", s(&source), "--to", "ros2", "--storage", storage];
            if let Some(compression) = compression {
                args.extend(["--mcap-compression", compression]);
            }
            args.extend(["--out", s(&out)]);
            run::ok(&args);
            let read: Value = serde_json::from_str(&common::python("ros2_read.py", &[s(&out)]))
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            assert_eq!(read["storage"], storage, "{what}");
            check_frames(&what, &read, &played);
            let related = check_tf(&what, &read, &device);
            // Recordings of depth with other cameras relate them.
            let name = s(&source);
            if ["depth-color", "stereo"].iter().any(|k| name.contains(k)) {
                assert!(related > 0, "{what}: no extrinsics checked");
            }
            if storage == "mcap" {
                check_mcap(&what, &read);
                // The chunks as asked (the mcap library names no
                // compression "").
                let expected = match compression.unwrap_or("zstd") {
                    "none" => "",
                    other => other,
                };
                assert_eq!(
                    read["mcap"]["chunk_compressions"],
                    serde_json::json!([expected]),
                    "{what}"
                );
            }
        }
    }
}

/// Every frame librealsense plays is there, in order, with its bytes,
/// stamp and number; camera infos and metadata one per frame.
fn check_frames(what: &str, read: &Value, played: &BTreeMap<String, Vec<Value>>) {
    let counts = read["counts"].as_object().expect("counts");
    let mut images: HashMap<&str, Vec<&Value>> = HashMap::new();
    for image in read["images"].as_array().expect("images") {
        images
            .entry(folder_of(image["topic"].as_str().expect("topic")))
            .or_default()
            .push(image);
    }
    let mut imu: HashMap<&str, Vec<&Value>> = HashMap::new();
    for sample in read["imu"].as_array().expect("imu") {
        imu.entry(folder_of(sample["topic"].as_str().expect("topic")))
            .or_default()
            .push(sample);
    }
    for (folder, frames) in played {
        let what = format!("{what}: {folder}");
        let metadata = format!("/camera/camera/{folder}/metadata");
        assert_eq!(counts[&metadata], frames.len(), "{what}: metadata count");
        let first = &read["metadata"][&metadata];
        assert_eq!(first["frame_number"], frames[0]["frame_number"], "{what}");
        if let Some(ours) = images.get(folder.as_str()) {
            assert_eq!(ours.len(), frames.len(), "{what}: image count");
            let info = format!("/camera/camera/{folder}/camera_info");
            assert_eq!(counts[&info], frames.len(), "{what}: camera_info count");
            for (ours, theirs) in ours.iter().zip(frames) {
                assert_eq!(ours["sha256"], theirs["sha256"], "{what}: bytes");
                assert_eq!(ours["size"], theirs["size"], "{what}: size");
                let ms = theirs["timestamp"].as_f64().expect("timestamp");
                assert_eq!(ours["stamp_ns"], stamp_ns(ms), "{what}: stamp");
                assert_eq!(
                    ours["frame_id"],
                    format!("camera_{folder}_optical_frame"),
                    "{what}"
                );
            }
        } else {
            let ours = imu
                .get(folder.as_str())
                .unwrap_or_else(|| panic!("{what}: no topic"));
            assert_eq!(ours.len(), frames.len(), "{what}: sample count");
            let field = if folder == "gyro" {
                "angular_velocity"
            } else {
                "linear_acceleration"
            };
            for (ours, theirs) in ours.iter().zip(frames) {
                // The sample as the three f32 librealsense hands over.
                let bytes: Vec<u8> = ours[field]
                    .as_array()
                    .expect("vector")
                    .iter()
                    .flat_map(|v| (v.as_f64().expect("number") as f32).to_le_bytes())
                    .collect();
                assert_eq!(
                    hex(&Sha256::digest(&bytes)),
                    theirs["sha256"].as_str().expect("sha"),
                    "{what}: sample"
                );
                let ms = theirs["timestamp"].as_f64().expect("timestamp");
                assert_eq!(ours["stamp_ns"], stamp_ns(ms), "{what}: stamp");
                assert_eq!(ours["orientation_covariance0"], -1.0, "{what}");
            }
        }
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A transform: rotation (row-major) and translation.
type Pose = ([[f64; 3]; 3], [f64; 3]);

fn pose_of(t: &Value) -> Pose {
    let q: Vec<f64> = t["rotation"]
        .as_array()
        .expect("rotation")
        .iter()
        .map(|v| v.as_f64().expect("number"))
        .collect();
    let (x, y, z, w) = (q[0], q[1], q[2], q[3]);
    let r = [
        [
            1.0 - 2.0 * (y * y + z * z),
            2.0 * (x * y - z * w),
            2.0 * (x * z + y * w),
        ],
        [
            2.0 * (x * y + z * w),
            1.0 - 2.0 * (x * x + z * z),
            2.0 * (y * z - x * w),
        ],
        [
            2.0 * (x * z - y * w),
            2.0 * (y * z + x * w),
            1.0 - 2.0 * (x * x + y * y),
        ],
    ];
    let tr: Vec<f64> = t["translation"]
        .as_array()
        .expect("translation")
        .iter()
        .map(|v| v.as_f64().expect("number"))
        .collect();
    (r, [tr[0], tr[1], tr[2]])
}

fn apply((r, t): &Pose, p: [f64; 3]) -> [f64; 3] {
    [0, 1, 2].map(|i| t[i] + (0..3).map(|k| r[i][k] * p[k]).sum::<f64>())
}

fn apply_inverse((r, t): &Pose, p: [f64; 3]) -> [f64; 3] {
    let d = [p[0] - t[0], p[1] - t[1], p[2] - t[2]];
    [0, 1, 2].map(|i| (0..3).map(|k| r[k][i] * d[k]).sum::<f64>())
}

/// A point of `frame` in `camera_link` coordinates, through `/tf_static`.
fn to_link(tf: &[Value], frame: &str, mut p: [f64; 3]) -> [f64; 3] {
    let mut frame = frame.to_owned();
    while frame != "camera_link" {
        let t = tf
            .iter()
            .find(|t| t["child"] == frame.as_str())
            .unwrap_or_else(|| panic!("no transform to {frame}"));
        p = apply(&pose_of(t), p);
        frame = t["parent"].as_str().expect("parent").to_owned();
    }
    p
}

fn from_link(tf: &[Value], frame: &str, p: [f64; 3]) -> [f64; 3] {
    // Walk up from `frame`, then undo the chain from the top.
    let mut chain = Vec::new();
    let mut at = frame.to_owned();
    while at != "camera_link" {
        let t = tf
            .iter()
            .find(|t| t["child"] == at.as_str())
            .unwrap_or_else(|| panic!("no transform to {at}"));
        chain.push(pose_of(t));
        at = t["parent"].as_str().expect("parent").to_owned();
    }
    chain.iter().rev().fold(p, |p, pose| apply_inverse(pose, p))
}

/// Depth optical frame → each stream's optical frame through the TF tree
/// maps points as librealsense's depth-to-stream extrinsics do.
fn check_tf(what: &str, read: &Value, device: &Value) -> usize {
    let tf = read["tf_static"].as_array().expect("tf_static");
    let key_folder = |key: &str| {
        // "s0:Depth_0:Z16:64x48@30" → "depth"
        let stream = key.split(':').nth(1).expect("stream");
        let (kind, index) = stream.rsplit_once('_').expect("index");
        folder(kind, index.parse().expect("index"))
    };
    let mut checked = 0;
    for pair in device["extrinsics"].as_array().expect("extrinsics") {
        let from = key_folder(pair["from"].as_str().expect("from"));
        let to = key_folder(pair["to"].as_str().expect("to"));
        if from != "depth" || to == "depth" || pair["rotation"].is_null() {
            continue;
        }
        let num = |v: &Value| v.as_f64().expect("number");
        let r: Vec<f64> = pair["rotation"]
            .as_array()
            .expect("r")
            .iter()
            .map(num)
            .collect();
        let t: Vec<f64> = pair["translation"]
            .as_array()
            .expect("t")
            .iter()
            .map(num)
            .collect();
        for p in [[0.0, 0.0, 1.0], [0.3, -0.2, 2.0], [-1.0, 0.5, 0.7]] {
            let link = to_link(tf, "camera_depth_optical_frame", p);
            let ours = from_link(tf, &format!("camera_{to}_optical_frame"), link);
            // librealsense: column-major rotation, p' = R p + t.
            let theirs = [0, 1, 2].map(|i| t[i] + r[i] * p[0] + r[3 + i] * p[1] + r[6 + i] * p[2]);
            for k in 0..3 {
                assert!(
                    (ours[k] - theirs[k]).abs() < 1e-5,
                    "{what}: depth -> {to}: {ours:?} vs {theirs:?}"
                );
            }
        }
        checked += 1;
    }
    checked
}

/// The mcap library reads the file: ROS 2 profile, every schema a
/// `ros2msg` definition, every channel CDR, every message.
fn check_mcap(what: &str, read: &Value) {
    let mcap = &read["mcap"];
    assert_eq!(mcap["profile"], "ros2", "{what}");
    let schemas = mcap["schemas"].as_object().expect("schemas");
    assert!(
        schemas.values().all(|e| e == "ros2msg"),
        "{what}: {schemas:?}"
    );
    let channels = mcap["channels"].as_object().expect("channels");
    for (topic, channel) in channels {
        assert_eq!(channel[1], "cdr", "{what}: {topic}");
        assert_eq!(channel[0], read["types"][topic], "{what}: {topic}");
    }
    let total: u64 = read["counts"]
        .as_object()
        .expect("counts")
        .values()
        .map(|v| v.as_u64().expect("count"))
        .sum();
    assert_eq!(mcap["messages"], total, "{what}");
    assert_eq!(mcap["statistics_messages"], total, "{what}");
}

#[test]
fn an_existing_output_directory_is_refused_and_kept() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("bag");
    std::fs::create_dir(&out).expect("mkdir");
    std::fs::write(out.join("mine.txt"), b"keep").expect("write");
    let source = common::sample("librealsense-depth-color-lz4.bag");
    let run = run::rsbag(&["convert", s(&source), "--to", "ros2", "--out", s(&out)]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert!(run.stderr.contains("not replaced"), "{}", run.stderr);
    assert_eq!(std::fs::read(out.join("mine.txt")).expect("kept"), b"keep");
    assert_eq!(std::fs::read_dir(dir.path()).expect("ls").count(), 1);
}

#[test]
fn mcap_compression_goes_with_mcap_storage_only() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("out");
    let bag = common::sample("librealsense-depth-color-lz4.bag");
    let run = run::rsbag(&[
        "convert",
        s(&bag),
        "--to",
        "ros2",
        "--mcap-compression",
        "none",
        "--out",
        s(&out),
    ]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert!(run.stderr.contains("--storage mcap"), "{}", run.stderr);
    assert!(!out.exists());
}

#[test]
fn compressed_ros2_exports_decode_in_opencv_to_the_recorded_frames() {
    let dir = tempfile::tempdir().expect("tempdir");
    let source = common::sample("librealsense-depth-color-lz4.bag");
    let played = played(&source, false);
    let theirs: Vec<&Value> = played["color"].iter().map(|f| &f["sha256"]).collect();
    let colour = common::jpeg::colour_frames(&source, &theirs);
    let (width, height) = (64, 48);
    assert_eq!(
        colour[0].len(),
        width * height * 3,
        "the sample's colour size"
    );
    let cases: [(&str, &[&str], &str, &str); 3] = [
        (
            "sqlite3",
            &[],
            "rgb8; jpeg compressed bgr8",
            "16UC1; compressedDepth png",
        ),
        (
            "mcap",
            &["--color-codec", "png", "--depth-codec", "rvl"],
            "rgb8; png compressed bgr8",
            "16UC1; compressedDepth rvl",
        ),
        (
            "sqlite3",
            &["--jpeg-quality", "60", "--depth-codec", "rvl"],
            "rgb8; jpeg compressed bgr8",
            "16UC1; compressedDepth rvl",
        ),
    ];
    for (n, (storage, codecs, colour_format, depth_format)) in cases.into_iter().enumerate() {
        let what = format!("{storage} {codecs:?}");
        let out = dir.path().join(format!("compressed{n}"));
        let decoded = dir.path().join(format!("decoded{n}"));
        let mut args = vec![
            "convert",
            s(&source),
            "--to",
            "ros2",
            "--storage",
            storage,
            "--image-transport",
            "compressed",
        ];
        args.extend_from_slice(codecs);
        args.extend(["--out", s(&out)]);
        run::ok(&args);
        let read: Value = serde_json::from_str(&common::python(
            "ros2_read.py",
            &[s(&out), "--decoded", s(&decoded)],
        ))
        .unwrap_or_else(|e| panic!("{what}: {e}"));
        let colour_topic = "/camera/camera/color/image_raw/compressed";
        let depth_topic = "/camera/camera/depth/image_rect_raw/compressedDepth";
        for topic in [colour_topic, depth_topic] {
            assert_eq!(
                read["types"][topic], "sensor_msgs/msg/CompressedImage",
                "{what}"
            );
        }
        let images = |topic: &str| -> Vec<&Value> {
            (read["images"].as_array().expect("images").iter())
                .filter(|i| i["topic"] == topic)
                .collect()
        };
        // Depth: what OpenCV (PNG) or the test's RVL decoder reads back
        // is librealsense's depth, bit for bit.
        let depth = images(depth_topic);
        let depth_played: Vec<&Value> = played["depth"].iter().map(|f| &f["sha256"]).collect();
        let depth_read: Vec<&Value> = depth.iter().map(|i| &i["sha256"]).collect();
        assert_eq!(depth_read, depth_played, "{what}: depth");
        assert!(depth.iter().all(|i| i["format"] == depth_format), "{what}");
        assert_eq!(
            read["counts"]["/camera/camera/depth/camera_info"],
            depth.len(),
            "{what}"
        );
        // Colour: PNG exact; JPEG within its PSNR.
        let frames = images(colour_topic);
        assert_eq!(frames.len(), colour.len(), "{what}: colour frames");
        assert!(
            frames.iter().all(|i| i["format"] == colour_format),
            "{what}"
        );
        let raw = std::fs::read(decoded.join("camera_camera_color_image_raw_compressed.raw"))
            .expect("decoded colour");
        let worst = common::jpeg::worst_psnr(&colour, &raw);
        if colour_format.contains("png") {
            assert!(
                worst.is_infinite() || worst > 90.0,
                "{what}: PNG not lossless: {worst}"
            );
            let read_sha: Vec<&Value> = frames.iter().map(|i| &i["sha256"]).collect();
            assert_eq!(read_sha, theirs, "{what}: PNG colour");
        } else {
            let quality = if codecs.contains(&"60") { 60 } else { 95 };
            common::jpeg::assert_near_opencv(&colour, (width, height), quality, worst, &what);
        }
        // rsbag reads its own export back: depth as recorded.
        let back = run::ok(&["frames", "--json", s(&out)]);
        let back_depth: Vec<String> = back
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).expect("frame"))
            .filter(|f| f["stream"] == "Depth")
            .map(|f| f["sha256"].as_str().expect("sha").to_owned())
            .collect();
        let back_depth: Vec<Value> = back_depth.into_iter().map(Value::from).collect();
        assert_eq!(
            back_depth.iter().collect::<Vec<_>>(),
            depth_played,
            "{what}: rsbag reads its depth back"
        );
    }
}

#[test]
fn image_transport_options_go_with_to_ros2_compressed() {
    let dir = tempfile::tempdir().expect("tempdir");
    let source = common::sample("librealsense-depth-color-lz4.bag");
    let out = dir.path().join("x");
    for (args, said) in [
        (
            vec!["--to", "bag", "--image-transport", "compressed"],
            "--image-transport and its codecs go with --to ros2",
        ),
        (
            vec!["--to", "ros2", "--depth-codec", "rvl"],
            "go with --image-transport compressed",
        ),
        (
            vec![
                "--to",
                "ros2",
                "--image-transport",
                "compressed",
                "--color-codec",
                "png",
                "--jpeg-quality",
                "80",
            ],
            "--jpeg-quality goes with --color-codec jpeg",
        ),
    ] {
        let mut all = vec!["convert", s(&source)];
        all.extend(args);
        all.extend(["--out", s(&out)]);
        let run = run::rsbag(&all);
        assert_eq!(run.code, Some(1), "{all:?}: {}", run.stderr);
        assert!(run.stderr.contains(said), "{all:?}: {}", run.stderr);
        assert!(!out.exists());
    }
}

/// The `media` scenario of rs_record.py recorded by librealsense 2.55:
/// gyro and accel at different rates and offsets, gyro samples before the
/// first and after the last accel sample.
fn media_bag(dir: &Path) -> PathBuf {
    let bag = dir.join("media.bag");
    common::python("rs_record.py", &[s(&bag), "--scenario", "media"]);
    bag
}

/// What a united `sensor_msgs/Imu` of `camera` must say besides its
/// values: the wrapper's frame, no orientation, the default covariances.
fn check_united_defaults(what: &str, camera: &str, imu: &Value, covariances: &Value) {
    assert_eq!(
        imu["frame_id"],
        format!("{camera}_imu_optical_frame"),
        "{what}"
    );
    assert_eq!(
        imu["orientation"],
        serde_json::json!([0.0, 0.0, 0.0, 0.0]),
        "{what}"
    );
    let diagonal = serde_json::json!([0.01, 0.0, 0.0, 0.0, 0.01, 0.0, 0.0, 0.0, 0.01]);
    let none = serde_json::json!([-1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]);
    assert_eq!(
        covariances,
        &serde_json::json!([none, diagonal, diagonal]),
        "{what}"
    );
}

#[test]
fn unite_imu_writes_the_wrappers_imu_topic_as_rosbags_reads_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bag = media_bag(dir.path());
    for method in ["linear_interpolation", "copy"] {
        let out = dir.path().join(method);
        let args = ["convert", s(&bag), "--to", "ros2", "--unite-imu", method];
        run::ok(&[&args[..], &["--out", s(&out)]].concat());
        let read: Value = serde_json::from_str(&common::python("ros2_read.py", &[s(&out)]))
            .expect("rosbags' reading");
        let want: Vec<Value> = (common::python("rs_united_imu.py", &[s(&bag), method]).lines())
            .map(|l| serde_json::from_str(l).expect("a JSON line"))
            .collect();
        // 20 gyro samples: copy drops the one before the first accel
        // sample, interpolation also the three after the last.
        let count = if method == "copy" { 19 } else { 16 };
        assert_eq!(want.len(), count, "{method}");
        let counts = &read["counts"];
        assert_eq!(counts["/camera/camera/imu"], count, "{method}: {counts}");
        for separate in [
            "gyro/sample",
            "accel/sample",
            "gyro/metadata",
            "accel/metadata",
        ] {
            let topic = format!("/camera/camera/{separate}");
            assert!(counts.get(&topic).is_none(), "{method}: {counts}");
        }
        let got: Vec<&Value> = read["imu"].as_array().expect("imu").iter().collect();
        check_united("camera", method, &got, &want, |m| m["covariances"].clone());
    }
}

/// The sha256 of each frame of `stream` that rs_session.py fed `camera`,
/// in frame-number order.
pub fn fed_sha256(camera: &Value, stream: &str) -> Vec<Value> {
    let mut frames: Vec<&Value> = (camera["frames"].as_array().expect("frames").iter())
        .filter(|f| f["stream"] == stream)
        .collect();
    frames.sort_by_key(|f| f["frame_number"].as_u64());
    frames.iter().map(|f| f["sha256"].clone()).collect()
}

/// `got`, the messages of the united `imu` topic of `camera` (the
/// wrapper's camera_name), are `want`, the wrapper's united samples
/// (rs_united_imu.py), exactly, with its frame and covariances (each
/// message's three, from `covariances`).
pub fn check_united(
    camera: &str,
    what: &str,
    got: &[&Value],
    want: &[Value],
    covariances: impl Fn(&Value) -> Value,
) {
    assert_eq!(got.len(), want.len(), "{what}: united samples");
    for (got, want) in got.iter().zip(want) {
        let what = format!("{what}: {got}");
        for key in ["stamp_ns", "angular_velocity", "linear_acceleration"] {
            assert_eq!(got[key], want[key], "{what}: {key}");
        }
        check_united_defaults(&what, camera, got, &covariances(got));
    }
}

/// How the session tests of CAM-A and CAM-E (which has an IMU) write or
/// publish: IMU united, images compressed losslessly.
pub const SESSION_UNITED_AND_COMPRESSED: [&str; 8] = [
    "--unite-imu",
    "linear_interpolation",
    "--image-transport",
    "compressed",
    "--color-codec",
    "png",
    "--depth-codec",
    "rvl",
];

#[test]
fn session_exports_unite_each_cameras_imu_and_compress_its_images() {
    // CAM-E has an IMU and CAM-A none: CAM-E's samples are united on its
    // own `imu` topic, stamped on the session's clock (Global Time: the
    // samples' own timestamps), and CAM-A has no IMU topic, as the
    // wrapper runs a camera without one.
    let recorded = crate::librealsense_session::record_with_imu("global");
    let [cam_a, cam_e] = &recorded.cameras[..] else {
        panic!("two cameras: {:?}", recorded.cameras);
    };
    let file = |camera: &Value| camera["file"].as_str().expect("file").to_owned();
    let out = recorded.dir.path().join("ros2");
    let args = ["convert", "--session", "--to", "ros2"];
    let (a, e) = (file(cam_a), file(cam_e));
    let files = [a.as_str(), e.as_str(), "--out", s(&out)];
    run::ok(&[&args[..], &SESSION_UNITED_AND_COMPRESSED, &files].concat());
    let read: Value = serde_json::from_str(&common::python("ros2_read.py", &[s(&out)]))
        .expect("rosbags' reading");
    let counts = read["counts"].as_object().expect("counts");
    assert!(
        !counts
            .keys()
            .any(|t| t.starts_with("/CAM_A/imu") || t.contains("/sample")),
        "{counts:?}"
    );
    let want: Vec<Value> = (common::python("rs_united_imu.py", &[&e, "linear_interpolation"]))
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert!(want.len() > 150, "{}", want.len());
    let got: Vec<&Value> = (read["imu"].as_array().expect("imu").iter())
        .filter(|m| m["topic"] == "/CAM_E/imu")
        .collect();
    check_united("CAM_E", "CAM_E", &got, &want, |m| m["covariances"].clone());
    // Each camera's images, decoded as the plugins' subscribers decode
    // them, are the frames librealsense recorded.
    let images = read["images"].as_array().expect("images");
    for (camera, ns, stream, topic) in [
        (
            cam_a,
            "CAM_A",
            "Depth",
            "depth/image_rect_raw/compressedDepth",
        ),
        (cam_a, "CAM_A", "Color", "color/image_raw/compressed"),
        (
            cam_e,
            "CAM_E",
            "Depth",
            "depth/image_rect_raw/compressedDepth",
        ),
    ] {
        let topic = format!("/{ns}/{topic}");
        let decoded: Vec<Value> = (images.iter())
            .filter(|i| i["topic"] == topic.as_str())
            .map(|i| i["sha256"].clone())
            .collect();
        assert_eq!(decoded, fed_sha256(camera, stream), "{topic}");
    }
}

/// The frame names the RealSense ROS wrapper (realsense-ros 4.x,
/// realsense2_camera) gives a camera named `camera` (its default
/// `camera_name`, parameters.cpp) with depth, colour, infra1, infra2, gyro
/// and accel, `unite_imu_method` on: base_realsense_node.h's
/// `FRAME_ID(sip)` = `<camera_name>_<stream>_frame`, `OPTICAL_FRAME_ID(sip)`
/// = `<camera_name>_<stream>_optical_frame`, `ALIGNED_DEPTH_TO_FRAME_ID`,
/// `IMU_FRAME_ID`, `IMU_OPTICAL_FRAME_ID` (`STREAM_NAME` of
/// profile_manager.h: `infra1`, `color`…); the base frame `camera_link`
/// (parameters.cpp: `<camera_name>_` + `base_frame_id` "link"); and
/// /tf_static as tfs.cpp's `calcAndAppendTransformMsgs` appends it, per
/// stream: base → `FRAME_ID`, `FRAME_ID` → `OPTICAL_FRAME_ID`; for a video
/// stream of index 1 that is not depth also base →
/// `ALIGNED_DEPTH_TO_FRAME_ID` → `OPTICAL_FRAME_ID`; for the gyro with the
/// IMU united `FRAME_ID(gyro)` → `IMU_FRAME_ID` → `IMU_OPTICAL_FRAME_ID`.
const WRAPPER_TF_STATIC: &[(&str, &str)] = &[
    ("camera_link", "camera_depth_frame"),
    ("camera_depth_frame", "camera_depth_optical_frame"),
    ("camera_link", "camera_color_frame"),
    ("camera_color_frame", "camera_color_optical_frame"),
    ("camera_link", "camera_infra1_frame"),
    ("camera_infra1_frame", "camera_infra1_optical_frame"),
    ("camera_link", "camera_aligned_depth_to_infra1_frame"),
    (
        "camera_aligned_depth_to_infra1_frame",
        "camera_infra1_optical_frame",
    ),
    ("camera_link", "camera_infra2_frame"),
    ("camera_infra2_frame", "camera_infra2_optical_frame"),
    ("camera_link", "camera_gyro_frame"),
    ("camera_gyro_frame", "camera_gyro_optical_frame"),
    ("camera_link", "camera_accel_frame"),
    ("camera_accel_frame", "camera_accel_optical_frame"),
    ("camera_gyro_frame", "camera_imu_frame"),
    ("camera_imu_frame", "camera_imu_optical_frame"),
];

/// The frame ids of the wrapper's topics (base_realsense_node.cpp): images,
/// camera info and metadata in their stream's `OPTICAL_FRAME_ID`; the
/// aligned depth in colour's (`publishFrame(f, t, COLOR, ...)`); the point
/// cloud in depth's (`publishPointCloud`); united IMU samples in
/// `IMU_OPTICAL_FRAME_ID`; the right stereo camera's camera info in the
/// left's (`updateExtrinsicsCalibData`).
const WRAPPER_FRAME_IDS: &[(&str, &str)] = &[
    ("depth/image_rect_raw", "camera_depth_optical_frame"),
    ("depth/camera_info", "camera_depth_optical_frame"),
    ("depth/metadata", "camera_depth_optical_frame"),
    ("color/image_raw", "camera_color_optical_frame"),
    ("color/camera_info", "camera_color_optical_frame"),
    ("color/metadata", "camera_color_optical_frame"),
    ("infra1/image_rect_raw", "camera_infra1_optical_frame"),
    ("infra1/camera_info", "camera_infra1_optical_frame"),
    ("infra1/metadata", "camera_infra1_optical_frame"),
    ("infra2/image_rect_raw", "camera_infra2_optical_frame"),
    ("infra2/camera_info", "camera_infra1_optical_frame"),
    ("infra2/metadata", "camera_infra2_optical_frame"),
    (
        "aligned_depth_to_color/image_raw",
        "camera_color_optical_frame",
    ),
    (
        "aligned_depth_to_color/camera_info",
        "camera_color_optical_frame",
    ),
    ("depth/color/points", "camera_depth_optical_frame"),
    ("imu", "camera_imu_optical_frame"),
];

#[test]
fn frame_ids_and_the_tf_tree_are_the_wrappers() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bag = common::sample("rsbag-synthetic-lz4.bag");
    for storage in ["sqlite3", "mcap"] {
        let out = dir.path().join(storage);
        run::ok(&[
            "convert",
            s(&bag),
            "--to",
            "ros2",
            "--storage",
            storage,
            "--unite-imu",
            "linear_interpolation",
            "--aligned-depth",
            "--pointcloud",
            "--out",
            s(&out),
        ]);
        let read: Value =
            serde_json::from_str(&common::python("ros2_frames.py", &[s(&out)])).expect("json");
        let tf: Vec<(String, String)> = read["tf_static"]
            .as_array()
            .expect("tf_static")
            .iter()
            .map(|pair| {
                let name = |i: usize| pair[i].as_str().expect("frame").to_owned();
                (name(0), name(1))
            })
            .collect();
        let mut want: Vec<(String, String)> = WRAPPER_TF_STATIC
            .iter()
            .map(|(p, c)| (p.to_string(), c.to_string()))
            .collect();
        let mut got = tf.clone();
        want.sort();
        got.sort();
        assert_eq!(got, want, "{storage}");
        // Every optical frame reaches camera_link.
        for (_, child) in WRAPPER_TF_STATIC {
            let chain = read["chains"][child].as_array().expect("chain");
            assert_eq!(chain.last(), Some(&Value::from("camera_link")), "{child}");
        }
        for (topic, frame_id) in WRAPPER_FRAME_IDS {
            let topic = format!("/camera/camera/{topic}");
            assert_eq!(
                read["frame_ids"][&topic],
                serde_json::json!([frame_id]),
                "{storage} {topic}"
            );
        }
        // The right camera's projection holds the baseline: Tx = -fx t_x,
        // t_x the right camera's origin in the left's optical x, which is
        // minus the body frames' y difference (body y is optical -x); the
        // others' none.
        let y = |frame: &str| read["translations"][frame][1].as_f64().expect("y");
        let baseline = y("camera_infra2_frame") - y("camera_infra1_frame");
        let projection = |topic: &str| {
            let p = &read["projections"][format!("/camera/camera/{topic}/camera_info")];
            [0, 1, 2].map(|i| p[i].as_f64().expect("projection"))
        };
        let [fx, tx, ty] = projection("infra2");
        assert!(baseline.abs() > 0.01, "{baseline}");
        assert!(
            (tx - fx * baseline).abs() < 1e-3 * fx.abs(),
            "{tx} {fx} {baseline}"
        );
        assert_eq!(ty, 0.0);
        for topic in ["infra1", "depth", "color"] {
            assert_eq!(projection(topic)[1..], [0.0, 0.0], "{topic}");
        }
    }
}
