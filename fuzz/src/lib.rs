//! What the fuzz targets do with their input, written once for libFuzzer
//! (`fuzz_targets/`) and AFL++ (`afl/`): read the bytes as a bag, as a
//! `.db3`, and as a RealSense recording, through every reading path,
//! touching what comes out; the `.db3` message decoders on raw bytes;
//! image_transport's JPEG, PNG and RVL images; and ROS1 messages to CDR. Any panic, hang or runaway
//! allocation is a finding; errors are the expected answer to damaged
//! input.

use std::ops::Bound;
use std::time::Duration;

use rsbag::storage::bag::Bag;
use rsbag::device::Format;
use rsbag::msg::ros2;
use rsbag::recording::check::check_recording;
use rsbag::recording::{FrameReader, Recording, SyncOptions};
use rsbag::fuzzing;
use rsbag::ros_camera::transport::{self, Transport};
use rsbag::storage::rosbag2::{Db3, McapFile};
use rsbag::storage::Storage;

/// Messages, frames or events read at most per pass, so that one input
/// stays quick.
const MOST: usize = 5_000;

/// The bag layer: through the index and by a scan.
pub fn bag_reader(data: &[u8]) {
    if let Ok(bag) = Bag::from_bytes(data.to_vec()) {
        read_bag(&bag);
    }
    if let Ok(bag) = Bag::scan_bytes(data.to_vec()) {
        read_bag(&bag);
    }
}

fn read_bag(bag: &Bag) {
    let ids: Vec<u32> = bag.connections().iter().map(|c| c.id).collect();
    let mut sum = 0usize;
    for id in &ids {
        sum ^= bag.message_count(*id) as usize;
    }
    for message in bag.messages().take(MOST).flatten() {
        sum ^= message.data.len() ^ usize::from(message.data.first().copied().unwrap_or(0));
    }
    let (start, end) = (bag.start_time(), bag.end_time());
    let middle = start / 2 + end / 2;
    let some: Vec<u32> = ids.iter().copied().step_by(2).collect();
    let query = bag
        .query()
        .connections(some.clone())
        .time((Bound::Included(middle), Bound::Unbounded));
    for message in query.messages().take(MOST).flatten() {
        sum ^= message.data.len();
    }
    if let Some((first, last)) = bag.time_span(&some) {
        sum ^= (first ^ last) as usize;
    }
    for chunk in bag.chunks().iter().take(64) {
        if let Ok(entries) = bag.chunk_entries(chunk) {
            sum ^= entries.len();
        }
    }
    std::hint::black_box(sum);
}

/// The RealSense layer: the description, every event, frames by index,
/// number and time, framesets, the check, and frames made into images.
pub fn recording_reader(data: &[u8]) {
    let bag = match Bag::from_bytes(data.to_vec()) {
        Ok(bag) => bag,
        Err(_) => match Bag::scan_bytes(data.to_vec()) {
            Ok(bag) => bag,
            Err(_) => return,
        },
    };
    if let Ok(recording) = Recording::from_bag(bag) {
        read_recording(recording);
    }
}

/// A `.db3`: the bytes as an SQLite file, read as a RealSense recording
/// through every reading path and checked.
pub fn db3_reader(data: &[u8]) {
    with_file(data, "input.db3", |path| {
        if let Ok(db3) = Db3::open(path) {
            let _ = db3.integrity_problems();
            if let Ok(recording) = Recording::from_storage(Storage::Db3(db3)) {
                read_recording(recording);
            }
        }
        let _ = rsbag::recording::check::check_file(path, |_, _| {});
    });
}

/// Run `read` on `data` written to a file named `name` in a directory of
/// this process's own (readers of SQLite and MCAP take a path).
fn with_file(data: &[u8], name: &str, read: impl FnOnce(&std::path::Path)) {
    let dir = std::env::temp_dir().join(format!("rsbag-fuzz-{}", std::process::id()));
    if std::fs::create_dir_all(&dir).is_err() {
        return;
    }
    let path = dir.join(name);
    if std::fs::write(&path, data).is_ok() {
        read(&path);
    }
    let _ = std::fs::remove_file(&path);
}

/// An MCAP file: the bytes read through the `mcap` crate's summary and
/// message indexes, every message in time order, as a camera bag (or a
/// RealSense recording) through every reading path, and checked.
pub fn mcap_reader(data: &[u8]) {
    with_file(data, "input.mcap", |path| {
        if let Ok(mcap) = McapFile::open(path) {
            let ids: Vec<u32> = mcap.topics().iter().map(|t| t.id).collect();
            let mut sum = mcap.times(&ids).len();
            for message in mcap.messages(&ids, ..).take(MOST).flatten() {
                sum ^= message.data.len();
            }
            std::hint::black_box(sum);
            if let Ok(recording) = Recording::from_storage(Storage::Mcap(mcap)) {
                read_recording(recording);
            }
        }
        let _ = rsbag::recording::check::check_file(path, |_, _| {});
    });
}

/// The `.db3` message decoders on their own: every CDR type, the
/// `key=value` strings and the image decompression, on the same bytes.
pub fn db3_messages(data: &[u8]) {
    let mut sum = 0usize;
    sum ^= ros2::string(data).map_or(0, <[u8]>::len);
    sum ^= ros2::uint32(data).unwrap_or(0) as usize;
    if let Ok(image) = ros2::Image::decode(data) {
        sum ^= image.data.len();
    }
    if let Ok(image) = ros2::CompressedImage::decode(data) {
        for format in [Format::Z16, Format::Rgb8, Format::Bgra8, Format::Yuyv] {
            if let Ok(pixels) = fuzzing::decompress_image(image.format, image.data, format) {
                sum ^= pixels.data.len();
            }
        }
    }
    sum ^= ros2::CameraInfo::decode(data).map_or(0, |c| c.d.len());
    sum ^= ros2::Imu::decode(data).map_or(0, |i| i.angular_velocity[0] as usize);
    sum ^= ros2::decode_tf_message(data).map_or(0, |t| t.len());
    sum ^= ros2::Odometry::decode(data).map_or(0, |o| o.child_frame_id.len());
    sum ^= fuzzing::fields(data).len();
    sum ^= fuzzing::parse_intrinsics(data).map_or(0, |i| i.width as usize);
    sum ^= fuzzing::parse_motion_intrinsics(data).map_or(0, |_| 1);
    sum ^= fuzzing::parse_extrinsics(data).map_or(0, |_| 2);
    sum ^= fuzzing::parse_pose(data).map_or(0, |p| p.tracker_confidence as usize);
    sum ^= fuzzing::parse_notification(data).description.len();
    std::hint::black_box(sum);
}

/// image_transport's compressed images: the bytes as the data of a
/// `compressed` message (JPEG or PNG) and of a `compressedDepth` message
/// (12-byte header, then PNG or RVL), sized and decoded as a camera bag's
/// streams are, into every pixel format they are read as.
pub fn image_transport(data: &[u8]) {
    let mut sum = 0usize;
    let cases: [(Transport, &[u8], &[Format]); 4] = [
        (
            Transport::Compressed,
            b"rgb8; jpeg compressed bgr8",
            &[
                Format::Rgb8,
                Format::Bgr8,
                Format::Bgra8,
                Format::Y8,
                Format::Y16,
            ],
        ),
        (Transport::Compressed, b"png", &[Format::Rgba8, Format::Z16]),
        (
            Transport::CompressedDepth,
            b"16UC1; compressedDepth",
            &[Format::Z16],
        ),
        (
            Transport::CompressedDepth,
            b"32FC1; compressedDepth rvl",
            &[Format::Distance, Format::Z16],
        ),
    ];
    for (transport, text, formats) in cases {
        sum ^= transport::image_encoding(transport, text, data).map_or(0, |e| e.len());
        let Ok(size) = transport::image_size(transport, text, data) else {
            continue;
        };
        for &format in formats {
            if let Ok(pixels) = transport::decode(transport, text, data, format, size) {
                sum ^= pixels.data.len();
            }
        }
    }
    std::hint::black_box(sum);
}

/// RVL on its own: the bytes decoded as an image of as many pixels as
/// their first two bytes say; and, read as 16-bit pixels, compressed and
/// decompressed back unchanged.
pub fn rvl(data: &[u8]) {
    if let Some((count, words)) = data.split_first_chunk::<2>() {
        let count = usize::from(u16::from_le_bytes(*count));
        std::hint::black_box(rsbag::ros_camera::rvl::decompress(words, count).ok());
    }
    let pixels: Vec<u16> = data
        .chunks_exact(2)
        .map(|p| u16::from_le_bytes([p[0], p[1]]))
        .collect();
    let packed = rsbag::ros_camera::rvl::compress(&pixels);
    let back = rsbag::ros_camera::rvl::decompress(&packed, pixels.len());
    assert_eq!(back.ok().as_deref(), Some(&pixels[..]), "RVL round trip");
}

/// A ROS1 message definition with every kind of field a robot bag's
/// topics use: a header, strings, variable and fixed arrays of numbers,
/// of strings and of nested messages, time and duration.
const ROS1_DEFINITION: &str = "std_msgs/Header header
float32[] ranges
uint8[4] fixed
string[] names
geometry_msgs/TransformStamped[] transforms
duration d
bool flag
int64 big
================================================================================
MSG: std_msgs/Header
uint32 seq
time stamp
string frame_id
================================================================================
MSG: geometry_msgs/TransformStamped
std_msgs/Header header
string child_frame_id
geometry_msgs/Vector3 translation
float64[4] rotation
================================================================================
MSG: geometry_msgs/Vector3
float64 x
float64 y
float64 z
";

/// ROS1 messages to CDR (robot bags' other topics): an even first byte
/// converts the rest as a message of [`ROS1_DEFINITION`]; an odd one
/// compiles a definition of the input's own (up to its first NUL) and
/// converts what follows it.
pub fn ros1_to_cdr(data: &[u8]) {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let (definition, message) = if mode % 2 == 0 {
        (ROS1_DEFINITION.to_owned(), rest)
    } else {
        let end = rest.iter().position(|&b| b == 0).unwrap_or(rest.len());
        let message = rest.get(end + 1..).unwrap_or_default();
        (String::from_utf8_lossy(&rest[..end]).into_owned(), message)
    };
    if let Ok(compiled) = rsbag::msg::Ros1ToCdr::new("fuzz_msgs/Fuzzed", &definition) {
        std::hint::black_box(compiled.ros2_definition());
        std::hint::black_box(compiled.convert(message).ok());
    }
}

fn read_recording(recording: Recording) {
    let mut sum = 0usize;
    for event in recording.events(..).take(MOST).flatten() {
        sum ^= event.time.as_nanos() as usize;
    }
    let (checked, errors) = check_recording(&recording, |_| {});
    sum ^= checked.len() ^ errors.len();
    let Ok(reader) = FrameReader::from_recording(recording) else {
        return;
    };
    for frame in reader.frames().into_iter().flatten().take(MOST).flatten() {
        if let Ok(image) = rsbag::processing::image(&frame.frame) {
            sum ^= image.data.len();
        }
    }
    for stream in reader.streams() {
        let count = reader.frame_count(stream).unwrap_or(0);
        for k in [0, count / 2, count.saturating_sub(1), count] {
            if let Ok(frame) = reader.frame(stream, k) {
                sum ^= frame.frame.data.len();
                if let Ok(Some(again)) = reader.frame_by_number(stream, frame.frame.number) {
                    sum ^= again.index as usize;
                }
            }
        }
        let middle = reader.duration() / 2;
        if let Ok(Some(frame)) = reader.frame_nearest(stream, middle) {
            sum ^= frame.index as usize;
        }
        let _ = reader.frame_at_or_after(stream, Duration::ZERO);
    }
    if let Ok(sets) = reader.select().framesets(SyncOptions::default()) {
        for set in sets.take(MOST).flatten() {
            sum ^= set.timestamp() as usize;
        }
    }
    std::hint::black_box(sum);
}
