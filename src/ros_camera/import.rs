//! Camera bags recorded from ROS (the RealSense ROS wrapper, or any
//! camera driver): a ROS1 `.bag`, `.db3` or MCAP file of standard
//! `sensor_msgs/Image` (+ `CameraInfo`), `Imu` and `nav_msgs/Odometry`
//! topics, read as a device.
//!
//! - Per camera namespace (the topic path before the stream's folder:
//!   `/camera/camera` for `/camera/camera/color/image_raw`), the sensors
//!   librealsense has those streams on: depth and infrared on "Stereo
//!   Module", colour on "RGB Camera", gyro, accel and combined IMU on
//!   "Motion Module", pose and fisheye on "Tracking Module" (see
//!   [`module_of`]); one stream per image, IMU or odometry topic. A file
//!   written from the bag (`rsbag convert --to bag|db3`) then opens in the
//!   RealSense Viewer and librealsense as a camera's recording does.
//! - Images are `sensor_msgs/Image`, or image_transport's compressed
//!   topics (`<image>/compressed`, `<image>/compressedDepth`,
//!   [`super::transport`]) decoded to the pixels the stream's encoding
//!   names; an image that does not decode is a damaged frame.
//! - Depth (16-bit) is in millimetres, as ROS has it (REP 118): the
//!   Stereo Module has Depth Units 0.001.
//! - The stream's kind from its folder (`depth`, `color`, `infra1`,
//!   `gyro`, `accel`, `imu`, `pose`/`odom`) or else its encoding (16-bit
//!   single channel is depth, colour encodings colour, `mono8` infrared);
//!   the index from the folder's digits (`infra2` is Infrared 2).
//! - Intrinsics from the folder's `camera_info` (K and D; `equidistant` is
//!   Kannala-Brandt, other non-zero D Brown-Conrady); extrinsics from
//!   `/tf_static` through the images' frame ids.
//! - As librealsense 2.59 plays such a `.db3` ("native ROS2" recordings):
//!   frame numbers count each stream's messages from 1, timestamps are
//!   the message times in milliseconds since the first message of the bag,
//!   in the System Time domain; an `Imu` topic that is not a `gyro` or
//!   `accel` folder is one Motion stream of COMBINED_MOTION frames
//!   (orientation x, y, z, w, angular velocity, linear acceleration, ten
//!   little-endian f64). The header stamp (ms) is kept as the frame's
//!   system time.

use std::collections::{BTreeMap, HashMap};

use bytes::Bytes;

use super::transport::{self, Transport};
use super::{distortion_of_model, extrinsics_of_pose, format_of_encoding};
use crate::device::{
    camera_info as info_key, metadata_key, option_name, CameraInfo, CombinedMotion, DeviceSnapshot,
    Extrinsics, Format, Frame, Intrinsics, OptionRange, Pose, SensorOption, SensorSnapshot,
    StreamId, StreamKind, StreamProfile, TimestampDomain,
};
use crate::msg::ros2;
use crate::realsense::codec::{Codec, ImageFields};
use crate::storage::Storage;
use crate::{Error, Result};

/// How a stream's frames are made from its messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Source {
    /// `sensor_msgs/Image`.
    Image,
    /// `sensor_msgs/CompressedImage` of an image_transport plugin.
    Compressed(Transport),
    /// `sensor_msgs/Imu`: its angular velocity.
    Gyro,
    /// `sensor_msgs/Imu`: its linear acceleration.
    Accel,
    /// `sensor_msgs/Imu`: all of it (COMBINED_MOTION).
    Combined,
    /// `nav_msgs/Odometry`.
    Odometry,
}

/// One stream of a camera bag.
#[derive(Debug, Clone)]
pub(crate) struct CameraStream {
    pub stream: StreamId,
    pub sensor: usize,
    pub profile: StreamProfile,
    pub topic: u32,
    pub source: Source,
    /// The wrapper's `metadata` topic beside it (JSON per frame), which
    /// `rsbag convert --to ros2` writes with the recorded frame number,
    /// timestamp, domain and metadata.
    pub metadata: Option<u32>,
    /// The `camera_info` topic beside it.
    pub camera_info: Option<u32>,
}

/// What a camera bag holds, as a device.
#[derive(Debug)]
pub(crate) struct CameraBag {
    pub snapshot: DeviceSnapshot,
    pub streams: Vec<CameraStream>,
    /// Each stream's extrinsics from its TF tree's root, with the tree's
    /// number.
    pub extrinsics: BTreeMap<StreamId, (u32, Extrinsics)>,
    /// The time of the bag's first message: frame timestamps count from it.
    pub origin: u64,
    /// Topics not played, and what is missing, in words.
    pub notes: Vec<String>,
    /// The topics that are not the cameras' (a robot's lidar, `/tf`,
    /// odometry; images no stream is made of): carried by copies as they
    /// are ([`super::other_topics`]).
    pub other_topics: Vec<u32>,
    /// The namespaces of the cameras whose streams were read, in the
    /// order first seen: one per camera.
    pub cameras: Vec<String>,
}

/// A topic sorted by what it holds.
struct Candidate<'s> {
    id: u32,
    name: &'s str,
    msg_type: &'s str,
    namespace: String,
    folder: String,
    source: Source,
}

const IMAGE_LEAVES: &[&str] = &[
    "image_raw",
    "image_rect_raw",
    "image_rect",
    "image",
    "image_color",
    "image_mono",
    "image_rect_color",
];
const SAMPLE_LEAVES: &[&str] = &["sample", "data", "data_raw"];

/// The topics of a storage sorted by what they hold.
struct Topics<'s> {
    candidates: Vec<Candidate<'s>>,
    /// `camera_info` topics by (namespace, folder).
    camera_infos: HashMap<(String, String), u32>,
    /// The wrapper's `metadata` topics by (namespace, folder).
    metadata: HashMap<(String, String), u32>,
    tf_static: Option<u32>,
}

/// Sort the topics: streams to play, camera infos, `/tf_static`; what is
/// not played goes into `notes`.
fn classify<'s>(storage: &'s Storage, notes: &mut Vec<String>) -> Topics<'s> {
    let mut candidates = Vec::new();
    let mut camera_infos: HashMap<(String, String), u32> = HashMap::new();
    let mut metadata: HashMap<(String, String), u32> = HashMap::new();
    let mut tf_static = None;
    for topic in storage.topics() {
        let short = topic.msg_type.replacen("/msg/", "/", 1);
        let (mut namespace, mut folder, mut leaf) = split(&topic.topic);
        let source = match short.as_str() {
            "sensor_msgs/Image" => Source::Image,
            // `<image topic>/<transport>`: the stream is the image topic's.
            "sensor_msgs/CompressedImage" => {
                let transport = Transport::of(&leaf, b"");
                let image_topic = topic.topic.rsplit_once('/').map_or("", |(t, _)| t);
                (namespace, folder, leaf) = split(image_topic);
                Source::Compressed(transport)
            }
            "sensor_msgs/Imu" => match folder_of(&folder, &leaf, SAMPLE_LEAVES).0.as_str() {
                "gyro" => Source::Gyro,
                "accel" => Source::Accel,
                _ => Source::Combined,
            },
            "nav_msgs/Odometry" => Source::Odometry,
            "sensor_msgs/CameraInfo" => {
                camera_infos.insert((namespace, folder), topic.id);
                continue;
            }
            ros2::RS_METADATA_SHORT if leaf == "metadata" => {
                metadata.insert((namespace, folder), topic.id);
                continue;
            }
            "tf2_msgs/TFMessage" if topic.topic == "/tf_static" => {
                tf_static = Some(topic.id);
                continue;
            }
            // The wrapper's own descriptions (extrinsics, IMU info) are
            // the camera's; anything else is another sensor's (a robot's
            // lidar, /tf, odometry): listed, not played.
            _ if short.starts_with("realsense2_camera") => continue,
            _ => {
                notes.push(format!(
                    "{} ({}): not a camera topic; not played",
                    topic.topic, topic.msg_type
                ));
                continue;
            }
        };
        if storage.message_count(topic.id) == 0 {
            notes.push(format!("{}: no messages", topic.topic));
            continue;
        }
        let leaves = if matches!(source, Source::Image | Source::Compressed(_)) {
            IMAGE_LEAVES
        } else {
            SAMPLE_LEAVES
        };
        let (folder, namespace) = match folder_of(&folder, &leaf, leaves) {
            (f, true) => (f, namespace),
            (f, false) => (f, join(&namespace, &folder)),
        };
        candidates.push(Candidate {
            id: topic.id,
            name: &topic.topic,
            msg_type: &topic.msg_type,
            namespace,
            folder,
            source,
        });
    }
    Topics {
        candidates: cameras_only(candidates, notes),
        camera_infos,
        metadata,
        tf_static,
    }
}

/// Leave out the IMU and odometry topics of a namespace without images
/// when other namespaces have some: a robot's own `/odom` or `/imu/data`
/// beside a camera's topics is not a camera's (a bag of samples alone is
/// a T265's or an IMU's, and is played).
fn cameras_only<'s>(candidates: Vec<Candidate<'s>>, notes: &mut Vec<String>) -> Vec<Candidate<'s>> {
    let is_image = |c: &Candidate| matches!(c.source, Source::Image | Source::Compressed(_));
    let imaged: Vec<String> = (candidates.iter().filter(|c| is_image(c)))
        .map(|c| c.namespace.clone())
        .collect();
    if imaged.is_empty() {
        return candidates;
    }
    let (cameras, others): (Vec<_>, Vec<_>) = candidates
        .into_iter()
        .partition(|c| is_image(c) || imaged.contains(&c.namespace));
    for c in others {
        notes.push(format!(
            "{} ({}): not a camera topic (no camera images under {}); not played",
            c.name, c.msg_type, c.namespace
        ));
    }
    cameras
}

/// Read the camera layout of `storage`: of every camera, or of the one
/// under namespace `camera` (its streams numbered as in a bag of that
/// camera alone).
pub(crate) fn read(storage: &Storage, camera: Option<&str>) -> Result<CameraBag> {
    let codec = storage.encoding().codec();
    let mut notes = Vec::new();
    let Topics {
        mut candidates,
        camera_infos,
        metadata,
        tf_static,
    } = classify(storage, &mut notes);
    if candidates.is_empty() {
        return Err(Error::NotARecording(
            "no /file_version topic (not a librealsense recording) and no sensor_msgs Image, \
             Imu or Odometry topic with messages (not a camera bag)"
                .into(),
        ));
    }
    if let Some(camera) = camera {
        candidates = of_camera(candidates, camera)?;
    }
    let origin = time_origin(storage);
    let mut namespaces: Vec<String> = Vec::new();
    let mut streams: Vec<CameraStream> = Vec::new();
    let mut frame_ids: BTreeMap<StreamId, String> = BTreeMap::new();
    for c in candidates {
        let first = first_message(storage, c.id)?;
        let (kind, format, size, frame_id) = match c.source {
            Source::Image => {
                let image = codec.image(&first).map_err(|e| in_topic(c.name, e))?;
                let Some((format, by_encoding)) = format_of_encoding(&image.encoding) else {
                    notes.push(format!(
                        "{}: encoding {:?} has no RealSense format; not played",
                        c.name, image.encoding
                    ));
                    continue;
                };
                let kind = kind_of_folder(&c.folder).unwrap_or(by_encoding);
                let format = match (kind, format) {
                    (StreamKind::Infrared | StreamKind::Color, Format::Z16) => Format::Y16,
                    (_, f) => f,
                };
                (
                    kind,
                    format,
                    Some((image.width, image.height)),
                    image.frame_id,
                )
            }
            Source::Compressed(transport) => {
                let Some(first) = compressed_first(storage, codec, c.id, transport, &mut notes)?
                else {
                    continue;
                };
                let Some((format, by_encoding)) =
                    compressed_format(first.transport, &first.encoding)
                else {
                    notes.push(format!(
                        "{}: compressed {:?} images have no RealSense format; not played",
                        c.name, first.encoding
                    ));
                    continue;
                };
                let kind = kind_of_folder(&c.folder).unwrap_or(by_encoding);
                let format = match (kind, format) {
                    (StreamKind::Infrared | StreamKind::Color, Format::Z16) => Format::Y16,
                    (_, f) => f,
                };
                (kind, format, Some(first.size), first.frame_id)
            }
            Source::Gyro => (StreamKind::Gyro, Format::MotionXyz32f, None, String::new()),
            Source::Accel => (StreamKind::Accel, Format::MotionXyz32f, None, String::new()),
            Source::Combined => (
                StreamKind::Motion,
                Format::CombinedMotion,
                None,
                String::new(),
            ),
            Source::Odometry => (StreamKind::Pose, Format::SixDof, None, String::new()),
        };
        let wanted = folder_index(&c.folder);
        let index = (wanted..)
            .find(|&i| !streams.iter().any(|s| s.stream == StreamId::new(kind, i)))
            .unwrap_or(wanted);
        let stream = StreamId::new(kind, index);
        // The camera's number for now; the sensor's position once every
        // stream is known (see `group_sensors`).
        let sensor = match namespaces.iter().position(|n| *n == c.namespace) {
            Some(i) => i,
            None => {
                namespaces.push(c.namespace.clone());
                namespaces.len() - 1
            }
        };
        let fps = estimate_fps(storage, c.id);
        let mut profile = match (c.source, size) {
            (Source::Image | Source::Compressed(_), Some((w, h))) => {
                StreamProfile::video(stream, format, w, h, fps)
            }
            (Source::Odometry, _) => StreamProfile::pose(stream, fps),
            _ => StreamProfile::motion(stream, format, fps),
        };
        profile = profile
            .with_unique_id(u32::try_from(streams.len()).unwrap_or(u32::MAX))
            .as_default();
        let camera_info = size
            .and(camera_infos.get(&(c.namespace.clone(), c.folder.clone())))
            .copied();
        if let Some((w, h)) = size {
            match camera_info {
                Some(id) => {
                    let message = first_message(storage, id)?;
                    let name = storage.topic_name(id).unwrap_or_default().to_owned();
                    let intrinsics =
                        intrinsics_of(&message, codec, w, h).map_err(|e| in_topic(&name, e))?;
                    profile = profile.with_intrinsics(intrinsics);
                }
                None => notes.push(format!(
                    "{}: no camera_info beside it; intrinsics unknown",
                    c.name
                )),
            }
        }
        if !frame_id.is_empty() {
            frame_ids.insert(stream, frame_id);
        }
        // ROS 2 (and rsbag's export) only: the ROS1 wrapper's metadata
        // message has another layout.
        let metadata = match codec.has_camera_metadata() {
            true => metadata
                .get(&(c.namespace.clone(), c.folder.clone()))
                .copied(),
            false => None,
        };
        streams.push(CameraStream {
            stream,
            sensor,
            profile,
            topic: c.id,
            source: c.source,
            metadata,
            camera_info,
        });
    }
    if streams.is_empty() {
        return Err(Error::NotARecording(format!(
            "no stream a camera bag can play: {}",
            notes.join("; ")
        )));
    }
    let extrinsics = match tf_static {
        Some(id) => tf_extrinsics(storage, id, &frame_ids)?,
        None => BTreeMap::new(),
    };
    let sensors = group_sensors(&namespaces, &mut streams);
    let other_topics = other_topics(storage, &streams, tf_static);
    Ok(CameraBag {
        snapshot: snapshot(&sensors, &streams),
        streams,
        extrinsics,
        origin,
        notes,
        other_topics,
        cameras: namespaces,
    })
}

/// The candidates of the camera under `namespace`; an error naming the
/// bag's cameras when it has none there.
fn of_camera<'s>(candidates: Vec<Candidate<'s>>, namespace: &str) -> Result<Vec<Candidate<'s>>> {
    let wanted = format!("/{}", namespace.trim_matches('/'));
    let mut cameras: Vec<&str> = Vec::new();
    for c in &candidates {
        if !cameras.contains(&c.namespace.as_str()) {
            cameras.push(&c.namespace);
        }
    }
    if !cameras.contains(&wanted.as_str()) {
        return Err(Error::InvalidArgument(format!(
            "no camera under namespace {namespace}: the bag's cameras are under {}",
            cameras.join(", ")
        )));
    }
    Ok(candidates
        .into_iter()
        .filter(|c| c.namespace == wanted)
        .collect())
}

/// The topics of `storage` no camera stream is read from: not a stream's
/// frames, metadata or camera info, not `/tf_static` (the cameras'
/// extrinsics) and not the wrapper's own descriptions.
fn other_topics(storage: &Storage, streams: &[CameraStream], tf_static: Option<u32>) -> Vec<u32> {
    let camera: Vec<u32> = streams
        .iter()
        .flat_map(|s| [Some(s.topic), s.metadata, s.camera_info])
        .chain([tf_static])
        .flatten()
        .collect();
    storage
        .topics()
        .iter()
        .filter(|t| !camera.contains(&t.id) && !t.msg_type.starts_with("realsense2_camera"))
        .map(|t| t.id)
        .collect()
}

/// The time a camera bag's frames count from: its first message, of any
/// topic. Its bag times are ROS's (wall-clock) message times; a file
/// written from it counts from here, as librealsense's recordings count
/// from their start (see [`crate::record::copy_recording`]).
pub(crate) fn time_origin(storage: &Storage) -> u64 {
    let all: Vec<u32> = storage.topics().iter().map(|t| t.id).collect();
    storage.time_span(&all).map_or(0, |s| s.0)
}

/// The librealsense sensor a stream of a RealSense camera is on, and its
/// rank in the camera's sensors (a D435i lists Stereo Module, RGB Camera,
/// Motion Module; a T265 has Tracking Module). The RealSense Viewer and
/// librealsense's tools show and start streams sensor by sensor, as a
/// camera has them: a recording with every stream on one sensor is shaped
/// like no camera.
fn module_of(kind: StreamKind) -> (usize, &'static str) {
    match kind {
        StreamKind::Depth | StreamKind::Infrared | StreamKind::Confidence => (0, "Stereo Module"),
        StreamKind::Color => (1, "RGB Camera"),
        StreamKind::Gyro | StreamKind::Accel | StreamKind::Motion | StreamKind::Gpio => {
            (2, "Motion Module")
        }
        StreamKind::Pose | StreamKind::Fisheye => (3, "Tracking Module"),
    }
}

/// Sort the streams into sensors: per namespace (in the order first
/// seen; `stream.sensor` holds its number on entry), one sensor per
/// [`module_of`] its streams are on, in librealsense's order. Sets each
/// stream's `sensor` to its sensor's position; returns the sensors'
/// names: the module's, with the namespace after it when the bag has
/// several cameras.
fn group_sensors(namespaces: &[String], streams: &mut [CameraStream]) -> Vec<String> {
    let mut keys: Vec<(usize, usize, &'static str)> = streams
        .iter()
        .map(|s| {
            let (rank, name) = module_of(s.stream.kind);
            (s.sensor, rank, name)
        })
        .collect();
    keys.sort_unstable();
    keys.dedup();
    for s in streams.iter_mut() {
        let (rank, name) = module_of(s.stream.kind);
        s.sensor = keys
            .binary_search(&(s.sensor, rank, name))
            .unwrap_or_default();
    }
    keys.iter()
        .map(|&(camera, _, name)| match namespaces {
            [_] => name.to_owned(),
            _ => format!("{name} ({})", namespaces[camera]),
        })
        .collect()
}

/// The device: the sensors of [`group_sensors`]; a sensor with a depth
/// stream has Depth Units 0.001 (ROS depth images are in millimetres),
/// which a copy writes with the depth frames.
fn snapshot(sensors: &[String], streams: &[CameraStream]) -> DeviceSnapshot {
    let mut info = CameraInfo::default();
    info.set(info_key::NAME, "ROS camera bag");
    info.set(info_key::PRODUCT_LINE, "ROS");
    DeviceSnapshot {
        info,
        sensors: sensors
            .iter()
            .enumerate()
            .map(|(i, name)| {
                let mut info = CameraInfo::default();
                info.set(info_key::NAME, name);
                let profiles: Vec<StreamProfile> = streams
                    .iter()
                    .filter(|s| s.sensor == i)
                    .map(|s| s.profile)
                    .collect();
                let options = if profiles.iter().any(|p| p.stream.kind == StreamKind::Depth) {
                    vec![depth_units_millimetres()]
                } else {
                    Vec::new()
                };
                SensorSnapshot {
                    info,
                    options,
                    profiles,
                }
            })
            .collect(),
    }
}

/// Depth Units at 0.001 m, read-only: what a 16-bit ROS depth image
/// holds (REP 118), over the range librealsense's D400 cameras give.
fn depth_units_millimetres() -> SensorOption {
    SensorOption {
        name: option_name::DEPTH_UNITS.into(),
        value: 0.001,
        range: OptionRange {
            min: 0.000_001,
            max: 0.01,
            step: 0.000_001,
            default: 0.001,
        },
        description: "Number of meters represented by a single depth unit".into(),
        read_only: true,
    }
}

/// `/a/b/color/image_raw` → (`/a/b`, `color`, `image_raw`).
fn split(topic: &str) -> (String, String, String) {
    let parts: Vec<&str> = topic.split('/').filter(|p| !p.is_empty()).collect();
    let leaf = parts.last().copied().unwrap_or_default().to_owned();
    let folder = if parts.len() >= 2 {
        parts[parts.len() - 2].to_owned()
    } else {
        String::new()
    };
    let namespace = format!("/{}", parts[..parts.len().saturating_sub(2)].join("/"));
    (namespace, folder, leaf)
}

fn join(namespace: &str, folder: &str) -> String {
    if folder.is_empty() {
        namespace.to_owned()
    } else {
        format!("{}/{folder}", namespace.trim_end_matches('/'))
    }
}

/// The stream's folder: the parent of a known leaf (`color` of
/// `color/image_raw`), or else the leaf itself (`/camera/imu`); and whether
/// the leaf was a known one.
fn folder_of(folder: &str, leaf: &str, leaves: &[&str]) -> (String, bool) {
    if leaves.contains(&leaf) && !folder.is_empty() {
        (folder.to_owned(), true)
    } else {
        (leaf.to_owned(), false)
    }
}

fn kind_of_folder(folder: &str) -> Option<StreamKind> {
    let f = folder.to_ascii_lowercase();
    Some(if f.contains("depth") {
        StreamKind::Depth
    } else if f.starts_with("infra") || f.starts_with("ir") {
        StreamKind::Infrared
    } else if f.contains("color") || f.contains("rgb") {
        StreamKind::Color
    } else if f.starts_with("fisheye") {
        StreamKind::Fisheye
    } else if f.starts_with("confidence") {
        StreamKind::Confidence
    } else {
        return None;
    })
}

/// The number a folder ends with (`infra2` → 2), else 0.
fn folder_index(folder: &str) -> u32 {
    let digits: String = folder
        .chars()
        .rev()
        .take_while(char::is_ascii_digit)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    digits.parse().unwrap_or(0)
}

fn estimate_fps(storage: &Storage, id: u32) -> u32 {
    let count = storage.message_count(id);
    match storage.time_span(&[id]) {
        Some((a, b)) if count > 1 && b > a => {
            ((count - 1) as f64 * 1e9 / (b - a) as f64).round() as u32
        }
        _ => 0,
    }
}

/// What the first readable message of a compressed topic says of its
/// stream.
struct CompressedFirst {
    transport: Transport,
    encoding: String,
    size: (u32, u32),
    frame_id: String,
}

/// Messages of a compressed topic tried for its stream's encoding and
/// size: damaged first images are damaged frames, not a lost stream.
const COMPRESSED_TRIES: usize = 8;

/// The first of a compressed topic's first messages that decodes; `None`
/// (and a note) when none does.
fn compressed_first(
    storage: &Storage,
    codec: &dyn Codec,
    id: u32,
    transport: Transport,
    notes: &mut Vec<String>,
) -> Result<Option<CompressedFirst>> {
    let name = storage.topic_name(id).unwrap_or_default();
    let mut last_error = None;
    for message in storage.messages(&[id], ..).take(COMPRESSED_TRIES) {
        let message = message.map_err(|e| in_topic(name, e))?;
        let read = codec.compressed_image(&message.data).and_then(|m| {
            let transport = Transport::of(transport.leaf(), m.format);
            let encoding = transport::image_encoding(transport, m.format, m.data)?;
            let size = transport::image_size(transport, m.format, m.data)?;
            Ok(CompressedFirst {
                transport,
                encoding,
                size,
                frame_id: String::from_utf8_lossy(m.header.frame_id).into_owned(),
            })
        });
        match read {
            Ok(first) => return Ok(Some(first)),
            Err(e) => last_error = Some(e),
        }
    }
    if let Some(e) = last_error {
        notes.push(format!(
            "{name}: none of its first {COMPRESSED_TRIES} images decodes ({e}); not played"
        ));
    }
    Ok(None)
}

/// The frame format of a compressed topic's images (those the plugins
/// write: 8-bit colour and grey, 16-bit grey, and float depth), and the
/// stream kind it suggests.
fn compressed_format(transport: Transport, encoding: &str) -> Option<(Format, StreamKind)> {
    match (transport, encoding) {
        (Transport::CompressedDepth, "32FC1") => Some((Format::Distance, StreamKind::Depth)),
        (Transport::CompressedDepth, _) => {
            format_of_encoding(encoding).filter(|(f, _)| *f == Format::Z16)
        }
        (Transport::Compressed, _) => format_of_encoding(encoding).filter(|(f, _)| {
            matches!(
                f,
                Format::Rgb8
                    | Format::Bgr8
                    | Format::Rgba8
                    | Format::Bgra8
                    | Format::Y8
                    | Format::Z16
            )
        }),
    }
}

/// The first readable message of topic `id`: a damaged part of the file
/// before it (a chunk of other topics, read to keep time order) is damage
/// that reading the frames reports, not a reason the recording cannot be
/// described.
fn first_message(storage: &Storage, id: u32) -> Result<Bytes> {
    let name = storage.topic_name(id).unwrap_or_default().to_owned();
    let mut first_error = None;
    for message in storage.messages(&[id], ..) {
        match message {
            Ok(m) => return Ok(m.data),
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    let error = first_error.unwrap_or_else(|| Error::decode("message", "no messages"));
    Err(in_topic(&name, error))
}

fn in_topic(topic: &str, e: Error) -> Error {
    Error::InMessage {
        topic: topic.to_owned(),
        time: 0,
        error: Box::new(e),
    }
}

fn intrinsics_of(data: &[u8], codec: &dyn Codec, width: u32, height: u32) -> Result<Intrinsics> {
    let crate::realsense::codec::CameraInfoFields { model, d, k } = codec.camera_info(data)?;
    let mut coeffs = [0.0f32; 5];
    for (c, v) in coeffs.iter_mut().zip(&d) {
        *c = *v as f32;
    }
    Ok(Intrinsics {
        width,
        height,
        ppx: k[2] as f32,
        ppy: k[5] as f32,
        fx: k[0] as f32,
        fy: k[4] as f32,
        model: distortion_of_model(&model, &d),
        coeffs,
    })
}

/// Each stream's extrinsics from the root of its frame's TF tree.
fn tf_extrinsics(
    storage: &Storage,
    id: u32,
    frame_ids: &BTreeMap<StreamId, String>,
) -> Result<BTreeMap<StreamId, (u32, Extrinsics)>> {
    // child → (parent, parent-to-child extrinsics)
    let mut links: HashMap<String, (String, Extrinsics)> = HashMap::new();
    for message in storage.messages(&[id], ..) {
        let message = message?;
        let transforms = storage.encoding().codec().tf_message(&message.data);
        for t in transforms.map_err(|e| in_topic("/tf_static", e))? {
            links.insert(
                String::from_utf8_lossy(t.child_frame_id).into_owned(),
                (
                    String::from_utf8_lossy(t.header.frame_id).into_owned(),
                    extrinsics_of_pose(t.translation, t.rotation),
                ),
            );
        }
    }
    let mut roots: Vec<String> = Vec::new();
    let mut out = BTreeMap::new();
    for (stream, frame) in frame_ids {
        let mut chain = Vec::new();
        let mut at = frame.clone();
        // A cycle in a damaged tree ends the walk.
        while let Some((parent, e)) = links.get(&at) {
            if chain.len() > links.len() {
                break;
            }
            chain.push(*e);
            at = parent.clone();
        }
        if chain.is_empty() {
            continue;
        }
        let from_root = chain
            .iter()
            .rev()
            .fold(Extrinsics::IDENTITY, |acc, e| acc.then(e));
        let group = match roots.iter().position(|r| *r == at) {
            Some(i) => i,
            None => {
                roots.push(at);
                roots.len() - 1
            }
        };
        out.insert(
            *stream,
            (u32::try_from(group).unwrap_or(u32::MAX), from_root),
        );
    }
    Ok(out)
}

/// Decode the frame of one message of a camera bag stream.
pub(crate) fn frame(
    stream: &CameraStream,
    data: &Bytes,
    codec: &dyn Codec,
    number: u64,
    time: u64,
    origin: u64,
) -> Result<Frame> {
    let timestamp = time.saturating_sub(origin) as f64 / 1e6;
    let (bytes, stride, stamp) = match stream.source {
        Source::Image => image_frame(stream, data, codec)?,
        Source::Compressed(transport) => compressed_frame(stream, transport, data, codec)?,
        Source::Gyro | Source::Accel | Source::Combined => imu_frame(stream.source, data, codec)?,
        Source::Odometry => {
            let m = codec.odometry(data)?;
            let [x, y, z] = m.position;
            let [qx, qy, qz, qw] = m.orientation;
            let [vx, vy, vz] = m.linear;
            let [wx, wy, wz] = m.angular;
            // The wrapper's axes (x forward, y left, z up) back to
            // librealsense's (x right, y up, z backward).
            let pose = Pose {
                translation: [-y as f32, z as f32, -x as f32],
                rotation: [-qy as f32, qz as f32, -qx as f32, qw as f32],
                velocity: [-vy as f32, vz as f32, -vx as f32],
                angular_velocity: [-wy as f32, wz as f32, -wx as f32],
                ..Pose::default()
            };
            let stamp = crate::realsense::codec::stamp_ns(m.header.sec, m.header.nanosec);
            (Bytes::from(pose.to_bytes()), 0, stamp)
        }
    };
    Ok(Frame {
        profile: stream.profile,
        number,
        timestamp,
        domain: TimestampDomain::SystemTime,
        system_time: stamp as f64 / 1e6,
        metadata: Vec::new(),
        stride,
        data: bytes,
    })
}

/// Give `frame` what the wrapper's metadata message (`data`, CDR) says of
/// it: the frame number, timestamp (ms), timestamp domain and system time
/// librealsense gave it, and its metadata, whose names the wrapper wrote
/// in lower case with underscores (`time_of_arrival` is librealsense's
/// `Time Of Arrival`).
pub(crate) fn apply_metadata(frame: &mut Frame, data: &[u8]) -> Result<()> {
    let (_, json) = ros2::decode_rs_metadata(data)?;
    let bad = |why: String| Error::decode(ros2::RS_METADATA, why);
    let JsonPairs(fields) =
        serde_json::from_slice(json).map_err(|e| bad(format!("json_data: {e}")))?;
    let mut timestamp_seen = false;
    for (key, value) in fields {
        use serde_json::Value;
        match (key.as_str(), value) {
            ("frame_number", Value::Number(n)) => {
                frame.number = n.as_u64().ok_or_else(|| bad(format!("frame_number {n}")))?;
            }
            // The frame's timestamp (ms) comes first; the wrapper then
            // writes the metadata `Frame Timestamp` (µs) under the same key.
            ("frame_timestamp", Value::Number(n)) if !timestamp_seen => {
                timestamp_seen = true;
                frame.timestamp = n
                    .as_f64()
                    .ok_or_else(|| bad(format!("frame_timestamp {n}")))?;
            }
            ("system_time", Value::Number(n)) => {
                frame.system_time = n.as_f64().ok_or_else(|| bad(format!("system_time {n}")))?;
            }
            ("clock_domain", Value::String(domain)) => {
                frame.domain = domain
                    .replace('_', " ")
                    .parse()
                    .map_err(|_| bad(format!("clock_domain {domain:?}")))?;
            }
            ("depth_units", _) => {}
            (key, Value::Number(n)) => {
                if let Some(v) = n.as_i64() {
                    frame
                        .metadata
                        .push((metadata_key::key(&metadata_name(key)), v));
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// A JSON object's pairs in their order, a key that comes twice twice (the
/// wrapper's metadata has `frame_timestamp` twice).
struct JsonPairs(Vec<(String, serde_json::Value)>);

impl<'de> serde::Deserialize<'de> for JsonPairs {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct Pairs;
        impl<'de> serde::de::Visitor<'de> for Pairs {
            type Value = JsonPairs;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> std::result::Result<JsonPairs, A::Error> {
                let mut pairs = Vec::new();
                while let Some(pair) = map.next_entry()? {
                    pairs.push(pair);
                }
                Ok(JsonPairs(pairs))
            }
        }
        d.deserialize_map(Pairs)
    }
}

/// librealsense's name of a metadata key as the wrapper writes it:
/// `time_of_arrival` → `Time Of Arrival`.
fn metadata_name(key: &str) -> String {
    key.split('_')
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut chars = w.chars();
            chars.next().map_or_else(String::new, |c| {
                c.to_ascii_uppercase().to_string() + chars.as_str()
            })
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn image_frame(
    stream: &CameraStream,
    data: &Bytes,
    codec: &dyn Codec,
) -> Result<(Bytes, u32, u64)> {
    let image: ImageFields<'_> = codec.image(data)?;
    let (width, height) = stream.profile.resolution().unwrap_or_default();
    if (image.width, image.height) != (width, height) {
        return Err(Error::decode(
            "sensor_msgs/Image",
            format!(
                "the image is {}x{}, the stream's first was {width}x{height}",
                image.width, image.height
            ),
        ));
    }
    let expected = u64::from(image.step) * u64::from(image.height);
    if image.data.len() as u64 != expected {
        return Err(Error::decode(
            "sensor_msgs/Image",
            format!(
                "data is {} bytes, step x height is {} x {} = {expected}",
                image.data.len(),
                image.step,
                image.height
            ),
        ));
    }
    let bpp = stream.profile.format.bytes_per_pixel().unwrap_or(1);
    if u64::from(image.step) < u64::from(image.width) * u64::from(bpp) {
        return Err(Error::decode(
            "sensor_msgs/Image",
            format!(
                "step {} is less than width {} x {bpp} bytes per pixel",
                image.step, image.width
            ),
        ));
    }
    let bytes = if image.is_bigendian && bpp == 2 {
        let mut swapped = image.data.to_vec();
        for pair in swapped.chunks_exact_mut(2) {
            pair.swap(0, 1);
        }
        Bytes::from(swapped)
    } else {
        data.slice_ref(image.data)
    };
    Ok((bytes, image.step, image.stamp_ns))
}

fn compressed_frame(
    stream: &CameraStream,
    transport: Transport,
    data: &[u8],
    codec: &dyn Codec,
) -> Result<(Bytes, u32, u64)> {
    let m = codec.compressed_image(data)?;
    let transport = Transport::of(transport.leaf(), m.format);
    let size = stream.profile.resolution().unwrap_or_default();
    let pixels = transport::decode(transport, m.format, m.data, stream.profile.format, size)?;
    let stamp = crate::realsense::codec::stamp_ns(m.header.sec, m.header.nanosec);
    Ok((Bytes::from(pixels.data), pixels.stride, stamp))
}

fn imu_frame(source: Source, data: &[u8], codec: &dyn Codec) -> Result<(Bytes, u32, u64)> {
    let imu = codec.imu(data)?;
    let (orientation, angular, linear, stamp) = (
        imu.orientation,
        imu.angular_velocity,
        imu.linear_acceleration,
        imu.stamp_ns,
    );
    let bytes: Vec<u8> = match source {
        Source::Gyro => angular
            .iter()
            .flat_map(|&v| (v as f32).to_le_bytes())
            .collect(),
        Source::Accel => linear
            .iter()
            .flat_map(|&v| (v as f32).to_le_bytes())
            .collect(),
        _ => CombinedMotion {
            orientation,
            angular_velocity: angular,
            linear_acceleration: linear,
        }
        .to_bytes(),
    };
    Ok((Bytes::from(bytes), 0, stamp))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::depth_units_of;

    #[test]
    fn topics_split_into_namespace_folder_and_leaf() {
        assert_eq!(
            split("/camera/camera/color/image_raw"),
            ("/camera/camera".into(), "color".into(), "image_raw".into())
        );
        assert_eq!(
            split("/camera/imu"),
            ("/".into(), "camera".into(), "imu".into())
        );
        assert_eq!(
            folder_of("camera", "imu", SAMPLE_LEAVES),
            ("imu".into(), false)
        );
        assert_eq!(join("/", "camera"), "/camera");
        assert_eq!(folder_index("infra2"), 2);
        assert_eq!(folder_index("color"), 0);
        assert_eq!(
            kind_of_folder("aligned_depth_to_color"),
            Some(StreamKind::Depth)
        );
        assert_eq!(kind_of_folder("infra1"), Some(StreamKind::Infrared));
    }

    fn stream(kind: StreamKind, index: u32, camera: usize) -> CameraStream {
        let id = StreamId::new(kind, index);
        CameraStream {
            stream: id,
            sensor: camera,
            profile: StreamProfile::motion(id, Format::MotionXyz32f, 200),
            topic: 0,
            source: Source::Gyro,
            metadata: None,
            camera_info: None,
        }
    }

    #[test]
    fn streams_go_to_the_sensors_librealsense_has_them_on_per_camera() {
        let mut streams = vec![
            stream(StreamKind::Gyro, 0, 0),
            stream(StreamKind::Color, 0, 0),
            stream(StreamKind::Depth, 0, 0),
            stream(StreamKind::Infrared, 1, 0),
            stream(StreamKind::Accel, 0, 0),
        ];
        let names = group_sensors(&["/camera/camera".into()], &mut streams);
        assert_eq!(names, ["Stereo Module", "RGB Camera", "Motion Module"]);
        let sensors: Vec<usize> = streams.iter().map(|s| s.sensor).collect();
        assert_eq!(sensors, [2, 1, 0, 0, 2]);
        // Two cameras: each has its own sensors, named with its namespace.
        let mut streams = vec![
            stream(StreamKind::Depth, 0, 1),
            stream(StreamKind::Depth, 1, 0),
            stream(StreamKind::Color, 0, 1),
        ];
        let names = group_sensors(&["/a".into(), "/b".into()], &mut streams);
        assert_eq!(
            names,
            [
                "Stereo Module (/a)",
                "Stereo Module (/b)",
                "RGB Camera (/b)"
            ]
        );
        let sensors: Vec<usize> = streams.iter().map(|s| s.sensor).collect();
        assert_eq!(sensors, [1, 0, 2]);
        let snapshot = snapshot(&names, &streams);
        let units = |i: usize| depth_units_of_sensor(&snapshot, i);
        assert_eq!((units(0), units(1), units(2)), (0.001, 0.001, 0.0));
    }

    fn depth_units_of_sensor(snapshot: &DeviceSnapshot, i: usize) -> f32 {
        depth_units_of(&snapshot.sensors[i].options)
    }
}
