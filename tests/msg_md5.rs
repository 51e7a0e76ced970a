//! The message layer against real librealsense 2.55 data: md5sums and
//! definitions as a real bag carries them, and real messages decoded.
//!
//! The bags are read with a small record walker written here, independent
//! of `rsbag::storage::bag`: the depth and color reference bag of `tests/fixtures/reference/`
//! and a recording of motion and pose streams in `tests/fixtures/`.

use std::collections::{BTreeSet, HashMap};
use std::io::Read;
use std::path::PathBuf;

use rsbag::msg::geometry_msgs::{Accel, Transform, Twist, Vector3};
use rsbag::msg::realsense_msgs::{ImuIntrinsic, Notification};
use rsbag::msg::sensor_msgs::{CameraInfo, Image, Imu};
use rsbag::msg::std_msgs::{Header, UInt32};
use rsbag::msg::{definition_of, md5sum, RosMessage, Time, MESSAGE_TYPES};
use sha2::{Digest, Sha256};

fn reference(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/reference")
        .join(name)
}

/// `type -> md5` from `librealsense-2.55-connections.txt`, whose lines
/// read `topic=... type=pkg/msg/Type md5=... ...` (the rosbags spelling of
/// `pkg/Type`).
fn reference_md5s() -> HashMap<String, String> {
    let text = std::fs::read_to_string(reference("librealsense-2.55-connections.txt")).unwrap();
    let mut md5s = HashMap::new();
    for line in text.lines().filter(|l| l.starts_with("topic=")) {
        let field = |key: &str| {
            line.split(' ')
                .find_map(|w| w.strip_prefix(key))
                .unwrap()
                .to_owned()
        };
        let ty = field("type=").replacen("/msg/", "/", 1);
        let md5 = field("md5=");
        assert_eq!(*md5s.entry(ty).or_insert_with(|| md5.clone()), md5);
    }
    md5s
}

#[test]
fn md5sums_match_the_reference_list() {
    let md5s = reference_md5s();
    assert_eq!(md5s.len(), 8, "{md5s:?}");
    for (ty, md5) in &md5s {
        let (definition, ours) = definition_of(ty).unwrap_or_else(|| panic!("{ty} unknown"));
        assert_eq!(ours, md5, "{ty}");
        assert_eq!(md5sum(ty, definition).unwrap(), *md5, "{ty}");
    }
}

/// The types a depth and color recording does not carry: the `MD5Sum` of
/// the gencpp headers of librealsense v2.55.1,
/// `third-party/realsense-file/rosbag/msgs/<pkg>/<Type>.h`.
const HEADER_MD5S: &[(&str, &str)] = &[
    ("std_msgs/Header", "2176decaecbce78abc3b96ef049fabed"),
    ("geometry_msgs/Vector3", "4a842b65f413084dc2b10fb484ea7f17"),
    (
        "geometry_msgs/Quaternion",
        "a779879fadf0160734f906b8c19c7004",
    ),
    ("geometry_msgs/Twist", "9f195f881246fdfa2798d1d3eebca84a"),
    ("geometry_msgs/Accel", "9f195f881246fdfa2798d1d3eebca84a"),
    (
        "sensor_msgs/RegionOfInterest",
        "bdb633039d588fcccb441a4d43ccfe09",
    ),
    ("sensor_msgs/Imu", "6a62c6daae103f4ff57a132d6f95cec2"),
    (
        "realsense_msgs/ImuIntrinsic",
        "aebdc2f8f9726f1c3ca823ab56e47429",
    ),
    (
        "realsense_msgs/Notification",
        "cdb7a97a510446301f8e6fb67d8cccb0",
    ),
];

#[test]
fn md5sums_match_the_librealsense_headers() {
    let reference = reference_md5s();
    for t in MESSAGE_TYPES {
        let expected = reference
            .get(t.name)
            .map(String::as_str)
            .or_else(|| {
                HEADER_MD5S
                    .iter()
                    .find(|(n, _)| *n == t.name)
                    .map(|(_, m)| *m)
            })
            .unwrap_or_else(|| panic!("no reference md5 for {}", t.name));
        assert_eq!(t.md5sum, expected, "{}", t.name);
        assert_eq!(
            md5sum(t.name, t.definition).unwrap(),
            expected,
            "{}",
            t.name
        );
    }
}

/// One record: header fields and data.
struct Record<'a> {
    fields: HashMap<String, &'a [u8]>,
    data: &'a [u8],
}

impl Record<'_> {
    fn op(&self) -> u8 {
        self.fields["op"][0]
    }

    fn u32(&self, name: &str) -> u32 {
        u32::from_le_bytes(self.fields[name].try_into().unwrap())
    }

    fn text(&self, name: &str) -> &str {
        std::str::from_utf8(self.fields[name]).unwrap()
    }
}

/// `name=value` fields, each with a `u32` length prefix.
fn parse_fields(mut bytes: &[u8]) -> HashMap<String, &[u8]> {
    let mut fields = HashMap::new();
    while !bytes.is_empty() {
        let len = u32::from_le_bytes(bytes[..4].try_into().unwrap()) as usize;
        let field = &bytes[4..4 + len];
        let eq = field.iter().position(|&b| b == b'=').unwrap();
        fields.insert(
            String::from_utf8(field[..eq].to_vec()).unwrap(),
            &field[eq + 1..],
        );
        bytes = &bytes[4 + len..];
    }
    fields
}

/// A `u32`-length-prefixed part at the start of `bytes`, which moves on.
fn take<'a>(bytes: &mut &'a [u8]) -> &'a [u8] {
    let len = u32::from_le_bytes(bytes[..4].try_into().unwrap()) as usize;
    let (part, rest) = bytes[4..].split_at(len);
    *bytes = rest;
    part
}

/// The records of `bytes`, one after the other.
fn records(mut bytes: &[u8]) -> Vec<Record<'_>> {
    let mut out = Vec::new();
    while !bytes.is_empty() {
        let header = take(&mut bytes);
        let data = take(&mut bytes);
        out.push(Record {
            fields: parse_fields(header),
            data,
        });
    }
    out
}

fn reference_bag() -> Vec<u8> {
    let bag = std::fs::read(reference("librealsense-2.55-depth-color.bag")).unwrap();
    assert!(bag.starts_with(b"#ROSBAG V2.0\n"));
    bag
}

/// The uncompressed contents of every chunk of `bag`.
fn chunks(bag: &[u8]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for r in records(&bag[13..]).into_iter().filter(|r| r.op() == 5) {
        let mut data = Vec::new();
        match r.text("compression") {
            "none" => data.extend_from_slice(r.data),
            "lz4" => {
                lz4_flex::frame::FrameDecoder::new(r.data)
                    .read_to_end(&mut data)
                    .unwrap();
            }
            other => panic!("compression {other}"),
        }
        assert_eq!(data.len(), r.u32("size") as usize);
        out.push(data);
    }
    out
}

/// Check every connection record of `bag` (index section and chunks)
/// against [`definition_of`]; returns the number of records and the types.
fn check_connections(bag: &[u8]) -> (usize, BTreeSet<String>) {
    let chunks = chunks(bag);
    let top = records(&bag[13..]);
    let inner = chunks.iter().flat_map(|c| records(c));
    let mut seen = (0, BTreeSet::new());
    for r in top.into_iter().chain(inner).filter(|r| r.op() == 7) {
        let conn = parse_fields(r.data);
        let ty = std::str::from_utf8(conn["type"]).unwrap();
        let (definition, md5) = definition_of(ty).unwrap_or_else(|| panic!("{ty} unknown"));
        assert_eq!(definition.as_bytes(), conn["message_definition"], "{ty}");
        assert_eq!(md5.as_bytes(), conn["md5sum"], "{ty}");
        seen.0 += 1;
        seen.1.insert(ty.to_owned());
    }
    seen
}

#[test]
fn definitions_are_byte_exact_with_the_real_bag() {
    let (records, types) = check_connections(&reference_bag());
    // 22 connections, in the index section and again in the chunk.
    assert_eq!(records, 44);
    assert_eq!(types.len(), 8);
}

/// A real librealsense 2.55.1 recording of an accel stream, a pose stream
/// and a notification, made by `tests/fixtures/make_motion_bag.py` with
/// pyrealsense2 2.55.1.
fn motion_bag() -> Vec<u8> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/librealsense-2.55.1-motion.bag"
    );
    std::fs::read(path).unwrap()
}

#[test]
fn motion_definitions_are_byte_exact_with_a_real_bag() {
    let (_, types) = check_connections(&motion_bag());
    for ty in [
        "sensor_msgs/Imu",
        "realsense_msgs/ImuIntrinsic",
        "geometry_msgs/Transform",
        "geometry_msgs/Accel",
        "geometry_msgs/Twist",
        "realsense_msgs/Notification",
    ] {
        assert!(types.contains(ty), "{ty} not in {types:?}");
    }
}

fn check_imu(imu: &Imu<'_>) {
    let n = imu.header.seq;
    assert_eq!(imu.header.stamp, Time::new(0, n * 10_000_000));
    assert_eq!(imu.header.frame_id, Header::LIBREALSENSE_VERSION);
    let expected = Vector3 {
        x: f64::from(n) + 1.0,
        y: 2.0,
        z: 3.0,
    };
    assert_eq!(imu.linear_acceleration, expected);
    assert_eq!(imu.angular_velocity, Vector3::default());
}

fn check_imu_intrinsic(intrinsic: &ImuIntrinsic) {
    assert_eq!(intrinsic.data[..4], [1.0, 0.5, 0.25, 0.125]);
    assert_eq!(intrinsic.data[11], 9.0);
    assert_eq!(intrinsic.noise_variances, [0.1, 0.2, 0.3]);
    assert_eq!(intrinsic.bias_variances, [0.5, 0.25, 0.125]);
}

/// Decode a message of type `M`, check it with `check`, and check that
/// it re-encodes to the same bytes. Evaluates to 1 (a count).
macro_rules! decode_check {
    ($ty:ident, $payload:expr, $check:expr) => {{
        let m = $ty::decode($payload).unwrap();
        $check(&m);
        assert_eq!(rsbag::msg::encode_to_vec(&m).unwrap(), $payload);
        1
    }};
}

#[test]
fn real_motion_messages_decode() {
    let bag = motion_bag();
    let chunks = chunks(&bag);
    let mut counts = [0; 5];
    for (topic, payload) in messages(&chunks) {
        let topic = topic.as_str();
        if topic.ends_with("Accel_0/imu/data") {
            counts[0] += decode_check!(Imu, payload, check_imu);
        } else if topic.ends_with("Accel_0/imu_intrinsic") {
            counts[1] += decode_check!(ImuIntrinsic, payload, check_imu_intrinsic);
        } else if topic.ends_with("Pose_0/pose/transform/data") {
            counts[2] += decode_check!(Transform, payload, |t: &Transform| {
                assert_eq!((t.translation.y, t.translation.z), (2.0, 3.0));
                assert_eq!(t.rotation.w, 1.0);
            });
        } else if topic.ends_with("Pose_0/pose/twist/data") {
            counts[3] += decode_check!(Twist, payload, |t: &Twist| {
                assert_eq!((t.linear.x, t.linear.y), (4.0, 5.0));
                assert_eq!(
                    t.angular,
                    Vector3 {
                        x: 0.5,
                        y: 0.25,
                        z: 0.125
                    }
                );
            });
            let accel = Accel::decode(payload).unwrap();
            assert_eq!(accel.linear.x, 4.0, "Twist and Accel share a layout");
        } else if topic.ends_with("Pose_0/pose/accel/data") {
            counts[3] += decode_check!(Accel, payload, |a: &Accel| {
                assert_eq!(
                    a.linear,
                    Vector3 {
                        x: 7.0,
                        y: 8.0,
                        z: 9.0
                    }
                );
                assert_eq!(
                    a.angular,
                    Vector3 {
                        x: -1.0,
                        y: -2.0,
                        z: -3.0
                    }
                );
            });
        } else if topic.ends_with("/notification/Frame Corrupted") {
            // The description and data strings pyrealsense2 passes are not
            // reliable (dangling), so only category and severity are checked.
            counts[4] += decode_check!(Notification, payload, |n: &Notification<'_>| {
                assert_eq!((&*n.category, &*n.severity), ("Frame Corrupted", "Warn"));
            });
        }
    }
    assert_eq!(counts, [3, 1, 2, 4, 1]);
}

/// Every message of the bag as `(topic, payload)`.
fn messages(chunks: &[Vec<u8>]) -> Vec<(String, &[u8])> {
    let mut topics = HashMap::new();
    let mut out = Vec::new();
    for r in chunks.iter().flat_map(|c| records(c)) {
        match r.op() {
            7 => {
                topics.insert(r.u32("conn"), r.text("topic").to_owned());
            }
            2 => out.push((topics[&r.u32("conn")].clone(), r.data)),
            _ => {}
        }
    }
    out
}

/// `(stream, frame number) -> (size, sha256)` from the frames list.
fn reference_frames() -> HashMap<(String, u64), (usize, String)> {
    let path = reference("librealsense-2.55-depth-color.frames.jsonl");
    let text = std::fs::read_to_string(path).unwrap();
    let mut frames = HashMap::new();
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let key = (
            v["stream"].as_str().unwrap().to_owned(),
            v["frame_number"].as_u64().unwrap(),
        );
        let value = (
            v["size"].as_u64().unwrap() as usize,
            v["sha256"].as_str().unwrap().to_owned(),
        );
        frames.insert(key, value);
    }
    frames
}

fn check_image(stream: &str, image: &Image<'_>, frames: &HashMap<(String, u64), (usize, String)>) {
    let (encoding, step, units) = match stream {
        "Depth" => ("mono16", 160, 0.001),
        _ => ("rgb8", 240, 0.0),
    };
    assert_eq!((image.width, image.height), (80, 60));
    assert_eq!(
        (&*image.encoding, image.step, image.is_bigendian),
        (encoding, step, 0)
    );
    assert_eq!(image.header.frame_id, Header::LIBREALSENSE_VERSION);
    assert_eq!(image.depth_units, units);
    let (size, sha) = &frames[&(stream.to_owned(), u64::from(image.header.seq))];
    assert_eq!(image.data.len(), *size);
    let digest: String = Sha256::digest(&image.data)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(&digest, sha, "{stream} frame {}", image.header.seq);
    // Frames are 33.3 ms apart: frame n has stamp n * 33.3 ms.
    let stamp_ms = image.header.stamp.as_nanos() as f64 / 1e6;
    assert!((stamp_ms - f64::from(image.header.seq) * 33.3).abs() < 1e-3);
}

#[test]
fn real_messages_decode() {
    let bag = reference_bag();
    let chunks = chunks(&bag);
    let frames = reference_frames();
    let mut images = 0;
    let mut infos = 0;
    for (topic, payload) in messages(&chunks) {
        let stream = if topic.contains("/Depth_0/") {
            "Depth"
        } else {
            "Color"
        };
        if topic.ends_with("/image/data") {
            check_image(stream, &Image::decode(payload).unwrap(), &frames);
            // Re-encoding gives the bytes librealsense wrote.
            assert_eq!(
                rsbag::msg::encode_to_vec(&Image::decode(payload).unwrap()).unwrap(),
                payload
            );
            images += 1;
        } else if topic.ends_with("/camera_info") {
            let info = CameraInfo::decode(payload).unwrap();
            assert_eq!((info.width, info.height), (80, 60));
            assert_eq!(info.distortion_model, "Brown Conrady");
            assert_eq!(info.d, [0.0; 5]);
            assert_eq!(info.k, [50.0, 0.0, 40.0, 0.0, 50.0, 30.0, 0.0, 0.0, 1.0]);
            assert_eq!(rsbag::msg::encode_to_vec(&info).unwrap(), payload);
            infos += 1;
        } else if topic == "/file_version" {
            assert_eq!(UInt32::decode(payload).unwrap().data, 4);
        }
    }
    assert_eq!((images, infos), (frames.len(), 2));
}

#[test]
fn real_messages_truncated_never_decode() {
    let bag = reference_bag();
    let chunks = chunks(&bag);
    let all = messages(&chunks);
    let first = |suffix: &str| all.iter().find(|(t, _)| t.ends_with(suffix)).unwrap().1;
    let (image, info) = (first("Depth_0/image/data"), first("camera_info"));
    for n in 0..image.len() {
        assert!(Image::decode(&image[..n]).is_err(), "{n} bytes");
    }
    for n in 0..info.len() {
        assert!(CameraInfo::decode(&info[..n]).is_err(), "{n} bytes");
    }
    assert_eq!(<Image as RosMessage>::TYPE, "sensor_msgs/Image");
}
