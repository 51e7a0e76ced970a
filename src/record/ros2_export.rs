//! A recording as a ROS 2 bag of standard messages, in the RealSense ROS
//! wrapper's layout ([`crate::ros_camera`]), for ROS 2 tools (`ros2 bag`,
//! rosbags, Foxglove).
//!
//! What is written, per stream (under the namespace, `/camera/camera` by
//! default):
//! - video: `<stream>/image_rect_raw` (depth, infrared) or `image_raw`
//!   (colour) as `sensor_msgs/msg/Image` (the recorded bytes, decompressed;
//!   depth as `16UC1` in the recording's depth units), with a
//!   `sensor_msgs/msg/CameraInfo` on `<stream>/camera_info` per frame;
//!   or, with [`ImageTransport::Compressed`], as image_transport's plugins
//!   publish them ([`crate::ros_camera::transport`]): colour and infrared
//!   on `<image topic>/compressed` (JPEG or PNG), Z16 depth on
//!   `<image topic>/compressedDepth` (PNG or RVL), other formats raw;
//! - IMU: `gyro/sample`, `accel/sample` as `sensor_msgs/msg/Imu` (only
//!   the measured vector; the other's covariance and the orientation's
//!   start with -1, as REP 145 asks), or with
//!   [`Ros2ExportOptions::unite_imu`] one `imu` topic as the wrapper's
//!   `unite_imu_method` publishes it ([`crate::ros_camera::imu`]); and the
//!   IMU intrinsics once on `<stream>/imu_info`
//!   (`realsense2_camera_msgs/msg/IMUInfo`);
//! - pose: `pose/sample` as `nav_msgs/msg/Odometry` in the wrapper's axes;
//! - every frame's number, timestamp, clock domain, metadata and (depth)
//!   depth units as JSON on `<stream>/metadata`
//!   (`realsense2_camera_msgs/msg/Metadata`), where the wrapper puts them;
//! - `/tf_static` (`tf2_msgs/msg/TFMessage`): the wrapper's tree
//!   ([`ros_camera::static_transforms`]), `camera_link` (where the depth
//!   camera is) to each stream's body frame and on to its optical frame,
//!   from the recorded extrinsics; and each stream's extrinsics from the
//!   reference stream on `extrinsics/<ref>_to_<stream>`;
//! - with [`Ros2ExportOptions::aligned_depth`], depth aligned to colour on
//!   `aligned_depth_to_color/`, and with [`Ros2ExportOptions::pointcloud`]
//!   the depth's coloured point cloud on `depth/color/points`, as the
//!   wrapper publishes them ([`super::ros2_derived`]);
//! - a camera bag's other topics (a robot's lidar, `/tf`, odometry) as
//!   they are, over the exported time ([`super::other_topics`]).
//!
//! Header stamps are the frames' own timestamps (milliseconds in their
//! clock domain, as librealsense reports them); the bag's message times
//! are the recording's own (nanoseconds since it started).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use bytes::Bytes;

use crate::device::{depth_units_of, Frame, ProfileKind, StreamId, StreamKind};
use crate::msg::ros2::{self, Header, Image, Imu, Odometry, TransformStamped};
use crate::msg::ros2_definitions::message_type;
use crate::processing::filters::StreamFilters;
use crate::realsense::images::Pixels;
use crate::record::other_topics::copy_other_topics;
use crate::record::ros2_derived::{AlignedDepth, PointCloudLayout, PointCloudTopic};
use crate::record::{CopySelection, OtherTopics};
use crate::recording::{events_on_timeline, on_timeline, Event, Pieces, Recording};
use crate::ros_camera::imu::{self as united, ImuSample, UniteImu, UnitedSample, Uniter};
use crate::ros_camera::transport::{ImageTransport, StreamCodec};
use crate::ros_camera::{self, FrameTransform};
use crate::ros_camera::{camera_frame, camera_info, stamp_ns};
use crate::storage::rosbag2::{BagDirWriter, Durability, McapCompression, MessageType};
use crate::storage::FileFormat;
use crate::{Error, Result};

/// How [`export_ros2`] writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ros2ExportOptions {
    /// The storage file's format: [`FileFormat::Db3`] (rosbag2's `sqlite3`
    /// plugin, the default) or [`FileFormat::Mcap`].
    pub storage: FileFormat,
    /// How an MCAP file's chunks are compressed (zstd by default).
    pub mcap_compression: McapCompression,
    /// The namespace of every topic but `/tf_static`.
    pub namespace: String,
    /// How image streams are written: raw (the default) or compressed.
    pub image_transport: ImageTransport,
    /// Whether a camera bag's other topics (a robot's lidar, `/tf`,
    /// odometry) are carried as they are ([`OtherTopics`]).
    pub other_topics: OtherTopics,
    /// Also write depth aligned to colour on `aligned_depth_to_color/`
    /// (`image_raw`, `camera_info`), as the wrapper's `align_depth`.
    pub aligned_depth: bool,
    /// Also write the depth's point cloud on `depth/color/points`
    /// (`sensor_msgs/msg/PointCloud2`), laid out as asked, as the wrapper's
    /// `pointcloud.enable` (`None`, the default: no cloud).
    pub pointcloud: Option<PointCloudLayout>,
    /// Gyro and accel samples united on one `imu` topic, as the wrapper's
    /// `unite_imu_method` does (`None`, the default: each on its own).
    pub unite_imu: Option<UniteImu>,
}

impl Default for Ros2ExportOptions {
    fn default() -> Self {
        Ros2ExportOptions {
            storage: FileFormat::Db3,
            mcap_compression: McapCompression::default(),
            namespace: ros_camera::DEFAULT_NAMESPACE.to_owned(),
            image_transport: ImageTransport::Raw,
            other_topics: OtherTopics::Keep,
            aligned_depth: false,
            pointcloud: None,
            unite_imu: None,
        }
    }
}

/// What [`export_ros2`] wrote.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Ros2Export {
    /// The storage file inside the bag directory.
    pub storage_file: PathBuf,
    /// Messages written per topic.
    pub messages: BTreeMap<String, u64>,
    /// Streams left out, with the reason (a format ROS has no image
    /// encoding for).
    pub skipped: Vec<(StreamId, String)>,
}

/// The topics of one exported stream.
pub(super) struct StreamTopics {
    data: usize,
    /// How images are compressed, `None` for raw `Image` messages.
    codec: Option<StreamCodec>,
    camera_info: Option<usize>,
    /// `None` for gyro and accel samples united on the `imu` topic, which
    /// the wrapper publishes no metadata for.
    metadata: Option<usize>,
    /// Gyro or accel samples united on the `imu` topic ([`ImuTopic`]).
    united: bool,
    optical_frame: String,
    /// The frame of the camera info and its projection's Tx and Ty
    /// ([`stereo_right_info`]).
    info_frame: String,
    info_offsets: [f64; 2],
    /// The frames a pose stream's odometry is in and of.
    odom_frame: String,
    pose_frame: String,
    depth_units: Option<f32>,
}

/// Write `recording` (what `selection` keeps) as a rosbag2 directory
/// `dir`, which must not exist; `progress` is called with the frames
/// written so far. On an error the unfinished directory is deleted.
///
/// # Example
/// ```no_run
/// use rsbag::recording::Recording;
/// use rsbag::record::{export_ros2, CopySelection, Ros2ExportOptions};
/// # fn main() -> rsbag::Result<()> {
/// let recording = Recording::open("session.bag")?;
/// let export = export_ros2(
///     &recording,
///     "session_ros2".as_ref(),
///     &Ros2ExportOptions::default(),
///     &CopySelection::default(),
///     |_| {},
/// )?;
/// println!("{} topics", export.messages.len());
/// # Ok(()) }
/// ```
pub fn export_ros2(
    recording: &Recording,
    dir: &Path,
    options: &Ros2ExportOptions,
    selection: &CopySelection,
    progress: impl FnMut(u64),
) -> Result<Ros2Export> {
    export_into(&[(recording, 0)], dir, options, selection, progress)
}

/// Write the pieces of a split recording ([`Pieces`]) as one ROS 2 bag, as
/// [`export_ros2`] writes one recording: the first piece's description,
/// then every piece's frames on one timeline (other topics of camera bags
/// are not carried). `selection`'s bag times are those of the pieces'
/// timeline (the first piece's bag times, running on).
pub fn export_ros2_pieces(
    pieces: &Pieces,
    dir: &Path,
    options: &Ros2ExportOptions,
    selection: &CopySelection,
    progress: impl FnMut(u64),
) -> Result<Ros2Export> {
    export_into(&pieces.timeline(), dir, options, selection, progress)
}

/// Write `recordings` (each with what to add to its bag times) one after
/// another as one bag directory `dir`.
fn export_into(
    recordings: &[(&Recording, i128)],
    dir: &Path,
    options: &Ros2ExportOptions,
    selection: &CopySelection,
    progress: impl FnMut(u64),
) -> Result<Ros2Export> {
    let mut writer = BagDirWriter::create_with(dir, options.storage, options.mcap_compression)?;
    let written = write_all(recordings, &mut writer, options, selection, progress);
    finish_or_abandon(writer, written)
}

fn write_all(
    recordings: &[(&Recording, i128)],
    writer: &mut BagDirWriter,
    options: &Ros2ExportOptions,
    selection: &CopySelection,
    mut progress: impl FnMut(u64),
) -> Result<Ros2Export> {
    let recording = recordings[0].0;
    let ns = options.namespace.as_str();
    let mut export = Ros2Export::default();
    let start = recording.start_time().as_nanos();
    let keeps = |s: &StreamId| selection.trim.keeps_stream(*s);
    let CameraTopics {
        streams: topics,
        mut imu,
    } = add_stream_topics(
        recording,
        writer,
        (ns, "camera"),
        (options.image_transport, options.unite_imu),
        keeps,
        &mut export.skipped,
    )?;
    if topics.is_empty() {
        return Err(Error::InvalidArgument(
            "the recording has no stream ROS 2 messages can hold".into(),
        ));
    }
    let transforms = camera_transforms(recording, &topics, "camera");
    if !transforms.is_empty() {
        let topic = writer.add_topic(
            "/tf_static",
            &message_type(ros2::TF_MESSAGE),
            Durability::Latched,
        )?;
        writer.write(topic, start, &tf_message(&transforms, start))?;
    }
    for (topic, data) in latched_messages(recording, &topics, ns, writer)? {
        writer.write(topic, start, &data)?;
    }
    let aligned = options
        .aligned_depth
        .then(|| {
            AlignedDepth::add(recording, writer, (ns, "camera"), |s| {
                topics.contains_key(s)
            })
        })
        .transpose()?;
    let mut points = options
        .pointcloud
        .map(|layout| {
            PointCloudTopic::add(recording, writer, (ns, "camera"), layout, |s| {
                topics.contains_key(s)
            })
        })
        .transpose()?;
    let span = selection.trim.span();
    let events = recordings.iter().flat_map(|&(piece, shift)| {
        // The span on this piece's own bag times.
        let own = on_timeline(span.start, -shift)..on_timeline(span.end, -shift);
        let events = (piece.select())
            .streams(topics.keys().copied())
            .controls(false)
            .time(own)
            .events();
        events_on_timeline(events, shift)
    });
    let mut frames = 0;
    let mut filters = StreamFilters::of_recording(recording, &selection.filters);
    for event in events {
        let event = event?;
        let Event::Frame { frame, .. } = event.event else {
            continue;
        };
        let Some(stream) = topics.get(&frame.profile.stream) else {
            continue;
        };
        if !selection.trim.keeps_frame(frame.profile.stream, event.time) {
            continue;
        }
        let frame = filters.apply(frame)?;
        let time = event.time.as_nanos();
        let stamp = stamp_ns(frame.timestamp);
        write_frame(writer, &frame, time, stamp, stream, imu.as_mut())?;
        if let Some(aligned) = &aligned {
            aligned.write(writer, &frame, time, stamp)?;
        }
        if let Some(points) = &mut points {
            points.write(writer, &frame, time)?;
        }
        frames += 1;
        progress(frames);
    }
    if let Some(points) = &mut points {
        points.finish(writer)?;
    }
    // A camera bag's other topics keep their own bag times: those of one
    // recording, not of pieces.
    if let ([(recording, _)], OtherTopics::Keep) = (recordings, options.other_topics) {
        copy_other_topics(recording, writer, selection.trim.span())?;
    }
    export.messages = writer.message_counts();
    Ok(export)
}

/// Where the export's topics are added: a bag being written, or the
/// topics of a live graph ([`super::ros2_live`]).
pub(super) trait TopicTable {
    /// Add topic `name` of type `msg_type`; its handle.
    fn add_topic(
        &mut self,
        name: &str,
        msg_type: &MessageType,
        durability: Durability,
    ) -> Result<usize>;
}

impl TopicTable for BagDirWriter {
    fn add_topic(
        &mut self,
        name: &str,
        msg_type: &MessageType,
        durability: Durability,
    ) -> Result<usize> {
        BagDirWriter::add_topic(self, name, msg_type, durability)
    }
}

/// The topics of a recording's streams, and the united IMU topic.
pub(super) struct CameraTopics {
    /// Each exported stream's topics.
    pub(super) streams: BTreeMap<StreamId, StreamTopics>,
    /// The `imu` topic gyro and accel samples are united on.
    pub(super) imu: Option<ImuTopic>,
}

/// Add the topics of `recording`'s streams that `keeps` keeps, under
/// namespace `ns`, frames named for camera `camera` ([`camera_frame`]),
/// images through `transport`, gyro and accel united by `unite`; streams
/// ROS has no message for are put in `skipped`.
pub(super) fn add_stream_topics(
    recording: &Recording,
    writer: &mut impl TopicTable,
    (ns, camera): (&str, &str),
    (transport, unite): (ImageTransport, Option<UniteImu>),
    keeps: impl Fn(&StreamId) -> bool,
    skipped: &mut Vec<(StreamId, String)>,
) -> Result<CameraTopics> {
    let mut topics: BTreeMap<StreamId, StreamTopics> = BTreeMap::new();
    let imu = match unite {
        Some(method) => Some(ImuTopic::add(
            recording,
            writer,
            (ns, camera),
            method,
            &keeps,
        )?),
        None => None,
    };
    for (id, stream) in recording.streams().iter().filter(|(s, _)| keeps(s)) {
        let united = imu.is_some() && matches!(id.kind, StreamKind::Gyro | StreamKind::Accel);
        let profile = &stream.profile;
        let codec = match profile.kind {
            ProfileKind::Video { .. } => transport.codec_for(profile.format),
            _ => None,
        };
        let data = match profile.kind {
            ProfileKind::Video { .. } if codec.is_some() => {
                let leaf = codec.map_or("", |c| c.transport().leaf());
                writer.add_topic(
                    &format!("{}/{leaf}", ros_camera::data_topic(ns, *id)),
                    &message_type(ros2::COMPRESSED_IMAGE),
                    Durability::Volatile,
                )?
            }
            ProfileKind::Video { .. } => {
                if ros_camera::image_encoding(profile.format).is_none() {
                    skipped.push((
                        *id,
                        format!("ROS has no image encoding for {}", profile.format),
                    ));
                    continue;
                }
                writer.add_topic(
                    &ros_camera::data_topic(ns, *id),
                    &message_type(ros2::IMAGE),
                    Durability::Volatile,
                )?
            }
            ProfileKind::Motion { .. } if united => imu.as_ref().map_or(0, |imu| imu.topic),
            ProfileKind::Motion { .. }
                if matches!(id.kind, StreamKind::Gyro | StreamKind::Accel) =>
            {
                writer.add_topic(
                    &ros_camera::data_topic(ns, *id),
                    &message_type(ros2::IMU),
                    Durability::Volatile,
                )?
            }
            ProfileKind::Pose => writer.add_topic(
                &ros_camera::data_topic(ns, *id),
                &message_type(ros2::ODOMETRY),
                Durability::Volatile,
            )?,
            ProfileKind::Motion { .. } => {
                skipped.push((*id, format!("{} samples have no ROS message", id.kind)));
                continue;
            }
        };
        let camera_info = match profile.kind {
            ProfileKind::Video { .. } => Some(writer.add_topic(
                &ros_camera::stream_topic(ns, *id, "camera_info"),
                &message_type(ros2::CAMERA_INFO),
                Durability::Volatile,
            )?),
            _ => None,
        };
        let metadata = match united {
            true => None,
            false => Some(writer.add_topic(
                &ros_camera::stream_topic(ns, *id, "metadata"),
                &message_type(ros2::RS_METADATA),
                Durability::Volatile,
            )?),
        };
        let depth_units = (id.kind == StreamKind::Depth).then(|| {
            recording
                .snapshot()
                .sensors
                .get(stream.sensor)
                .map_or(0.0, |s| depth_units_of(&s.options))
        });
        let optical_frame = camera_frame(camera, &ros_camera::optical_frame(*id));
        let (info_frame, info_offsets) = match stereo_right_info(recording, *id, &keeps) {
            Some((left, offsets)) => (
                camera_frame(camera, &ros_camera::optical_frame(left)),
                offsets,
            ),
            None => (optical_frame.clone(), [0.0; 2]),
        };
        topics.insert(
            *id,
            StreamTopics {
                data,
                codec,
                camera_info,
                metadata,
                optical_frame,
                info_frame,
                info_offsets,
                odom_frame: camera_frame(camera, ros_camera::ODOM_FRAME),
                pose_frame: camera_frame(camera, "camera_pose_frame"),
                depth_units,
                united,
            },
        );
    }
    Ok(CameraTopics {
        streams: topics,
        imu,
    })
}

/// For the right camera of a stereo pair (`infra2` when `infra1` is kept
/// too), the left camera and the offsets its camera info's projection
/// holds: as the wrapper's `updateExtrinsicsCalibData`
/// (base_realsense_node.cpp) fills them, the right camera's info is in the
/// left's optical frame, with Tx = -fx t_x and Ty = -fy t_y of its
/// extrinsics to the left (float arithmetic, as there). None for other
/// streams, and where the extrinsics are unknown.
fn stereo_right_info(
    recording: &Recording,
    stream: StreamId,
    keeps: impl Fn(&StreamId) -> bool,
) -> Option<(StreamId, [f64; 2])> {
    let stereo = matches!(stream.kind, StreamKind::Infrared | StreamKind::Fisheye);
    let left = StreamId::new(stream.kind, 1);
    if !stereo || stream.index != 2 || !keeps(&left) {
        return None;
    }
    let intrinsics = recording.streams().get(&stream)?.profile.intrinsics()?;
    let t = recording.extrinsics(stream, left)?.translation;
    // `+ 0.0`, as the wrapper: no -0.0.
    let offsets = [
        f64::from(-intrinsics.fx * t[0] + 0.0),
        f64::from(-intrinsics.fy * t[1] + 0.0),
    ];
    Some((left, offsets))
}

/// Whether `recording` has both a gyro and an accel stream that `keeps`
/// keeps: the wrapper unites their samples only then.
fn has_gyro_and_accel(recording: &Recording, keeps: impl Fn(&StreamId) -> bool) -> bool {
    let has = |kind| {
        recording.streams().iter().any(|(s, stream)| {
            s.kind == kind && keeps(s) && matches!(stream.profile.kind, ProfileKind::Motion { .. })
        })
    };
    has(StreamKind::Gyro) && has(StreamKind::Accel)
}

/// How each camera of a session unites its IMU samples: by `unite` where
/// it has both a gyro and an accel stream that `keeps` keeps, not at all
/// where it lacks one (as the wrapper runs a camera without an IMU); an
/// error if `unite` is asked for and no camera can.
pub(super) fn session_unite_imu<'a>(
    recordings: impl IntoIterator<Item = &'a Recording>,
    unite: Option<UniteImu>,
    keeps: impl Fn(&StreamId) -> bool,
) -> Result<Vec<Option<UniteImu>>> {
    let each: Vec<Option<UniteImu>> = (recordings.into_iter())
        .map(|r| unite.filter(|_| has_gyro_and_accel(r, &keeps)))
        .collect();
    if unite.is_some() && each.iter().all(Option::is_none) {
        return Err(Error::InvalidArgument(
            "--unite-imu needs a gyro and an accel stream; no recording of the session (as chosen) has both"
                .into(),
        ));
    }
    Ok(each)
}

/// The `imu` topic of a camera whose gyro and accel samples are united,
/// and the uniter.
pub(super) struct ImuTopic {
    topic: usize,
    uniter: Uniter,
    frame_id: String,
}

impl ImuTopic {
    /// Add `<ns>/imu` for `recording`, which must have both a gyro and an
    /// accel stream that `keeps` keeps (the wrapper unites only then).
    fn add(
        recording: &Recording,
        writer: &mut impl TopicTable,
        (ns, camera): (&str, &str),
        method: UniteImu,
        keeps: impl Fn(&StreamId) -> bool,
    ) -> Result<ImuTopic> {
        if !has_gyro_and_accel(recording, keeps) {
            return Err(Error::InvalidArgument(
                "--unite-imu needs a gyro and an accel stream; the recording (as chosen) lacks one"
                    .into(),
            ));
        }
        let topic = writer.add_topic(
            &format!("{}/imu", ns.trim_end_matches('/')),
            &message_type(ros2::IMU),
            Durability::Volatile,
        )?;
        Ok(ImuTopic {
            topic,
            uniter: Uniter::new(method),
            frame_id: camera_frame(camera, united::IMU_OPTICAL_FRAME),
        })
    }

    /// The united samples a gyro or accel frame completes, at bag time
    /// `time`, its header stamp `stamp` (ns).
    fn messages(&mut self, frame: &Frame, time: u64, stamp: u64) -> Vec<Outgoing> {
        let sample = ImuSample {
            stamp_ns: stamp,
            vector: frame.motion().unwrap_or_default(),
        };
        let samples = match frame.profile.stream.kind {
            StreamKind::Gyro => self.uniter.push_gyro(sample).into_iter().collect(),
            _ => self.uniter.push_accel(sample),
        };
        samples
            .into_iter()
            .map(|s| Outgoing {
                topic: self.topic,
                time,
                parts: vec![self.message(&s).into()],
            })
            .collect()
    }

    /// The wrapper's united `sensor_msgs/msg/Imu`: no orientation
    /// (covariance -1), the default covariances on the diagonals.
    fn message(&self, s: &UnitedSample) -> Vec<u8> {
        let diagonal = |v: f64| [v, 0.0, 0.0, 0.0, v, 0.0, 0.0, 0.0, v];
        let mut unknown = [0.0; 9];
        unknown[0] = -1.0;
        Imu {
            header: Header::at(s.stamp_ns, self.frame_id.as_bytes()),
            orientation: [0.0; 4],
            orientation_covariance: unknown,
            angular_velocity: s.angular_velocity,
            angular_velocity_covariance: diagonal(united::DEFAULT_COVARIANCE),
            linear_acceleration: s.linear_acceleration,
            linear_acceleration_covariance: diagonal(united::DEFAULT_COVARIANCE),
        }
        .encode()
    }
}

impl StreamTopics {
    /// The handle of the stream's data topic (image or sample).
    pub(super) fn data_topic(&self) -> usize {
        self.data
    }
}

/// Give the finished bag its name when everything was written, else
/// remove what was written and return the error.
pub(super) fn finish_or_abandon(
    writer: BagDirWriter,
    written: Result<Ros2Export>,
) -> Result<Ros2Export> {
    match written {
        Ok(mut export) => {
            export.storage_file = writer.finish()?;
            Ok(export)
        }
        Err(e) => {
            writer.abandon();
            Err(e)
        }
    }
}

/// Write a frame's messages (image or sample, camera info, metadata) at
/// bag time `time`, stamped `stamp`, as one unit.
pub(super) fn write_frame(
    writer: &mut BagDirWriter,
    frame: &Frame,
    time: u64,
    stamp: u64,
    stream: &StreamTopics,
    imu: Option<&mut ImuTopic>,
) -> Result<()> {
    let messages = frame_messages(frame, time, stamp, stream, imu)?;
    writer.write_together(|writer| {
        for message in messages {
            let parts: Vec<&[u8]> = message.parts.iter().map(|p| &p[..]).collect();
            writer.write_parts(message.topic, message.time, &parts)?;
        }
        Ok(())
    })
}

/// A message to write: its topic, time and bytes (parts one after the
/// other: an image's pixels are the frame's own bytes, not copied).
pub(super) struct Outgoing {
    pub(super) topic: usize,
    pub(super) time: u64,
    pub(super) parts: Vec<Bytes>,
}

/// The messages of one frame, at bag time `time` with header stamp
/// `stamp` (ns): its data, camera info and metadata; for a gyro or accel
/// sample united on `imu`, the united samples it completes.
pub(super) fn frame_messages(
    frame: &Frame,
    time: u64,
    stamp: u64,
    stream: &StreamTopics,
    imu: Option<&mut ImuTopic>,
) -> Result<Vec<Outgoing>> {
    if stream.united {
        return Ok(imu.map_or_else(Vec::new, |imu| imu.messages(frame, time, stamp)));
    }
    let header = &Header::at(stamp, stream.optical_frame.as_bytes());
    let mut out = Vec::with_capacity(3);
    let mut write = |topic: usize, parts: Vec<Bytes>| out.push(Outgoing { topic, time, parts });
    match frame.profile.kind {
        ProfileKind::Video {
            width,
            height,
            intrinsics,
        } => {
            let bytes_per_pixel = frame.profile.format.bytes_per_pixel().unwrap_or(1);
            let step = if frame.stride > 0 {
                frame.stride
            } else {
                width * bytes_per_pixel
            };
            match stream.codec {
                Some(codec) => {
                    let pixels = Pixels {
                        width,
                        height,
                        stride: step,
                        data: &frame.data[..],
                    };
                    let (format, data) = codec.encode(frame.profile.format, &pixels)?;
                    let message = ros2::CompressedImage {
                        header: *header,
                        format: format.as_bytes(),
                        data: &data,
                    };
                    write(stream.data, vec![message.encode_head().into(), data.into()]);
                }
                None => {
                    let encoding =
                        ros_camera::image_encoding(frame.profile.format).unwrap_or_default();
                    let image = Image {
                        header: *header,
                        height,
                        width,
                        encoding: encoding.as_bytes(),
                        is_bigendian: 0,
                        step,
                        data: &frame.data,
                    };
                    write(
                        stream.data,
                        vec![image.encode_head().into(), frame.data.clone()],
                    );
                }
            }
            if let Some(topic) = stream.camera_info {
                let header = Header {
                    frame_id: stream.info_frame.as_bytes(),
                    ..*header
                };
                let mut info = camera_info(&header, width, height, intrinsics);
                [info.p[3], info.p[7]] = stream.info_offsets;
                write(topic, vec![info.encode().into()]);
            }
        }
        ProfileKind::Motion { .. } => {
            let sample = frame.motion().unwrap_or_default().map(f64::from);
            let unknown = {
                let mut c = [0.0; 9];
                c[0] = -1.0;
                c
            };
            let gyro = frame.profile.stream.kind == StreamKind::Gyro;
            let imu = Imu {
                header: *header,
                orientation: [0.0; 4],
                orientation_covariance: unknown,
                angular_velocity: if gyro { sample } else { [0.0; 3] },
                angular_velocity_covariance: if gyro { [0.0; 9] } else { unknown },
                linear_acceleration: if gyro { [0.0; 3] } else { sample },
                linear_acceleration_covariance: if gyro { unknown } else { [0.0; 9] },
            };
            write(stream.data, vec![imu.encode().into()]);
        }
        ProfileKind::Pose => {
            let pose = frame.pose().unwrap_or_default();
            let odometry = Odometry {
                header: Header {
                    frame_id: stream.odom_frame.as_bytes(),
                    ..*header
                },
                child_frame_id: stream.pose_frame.as_bytes(),
                position: ros_camera::pose_to_ros(pose.translation),
                orientation: ros_camera::orientation_to_ros(pose.rotation),
                pose_covariance: [0.0; 36],
                linear: ros_camera::pose_to_ros(pose.velocity),
                angular: ros_camera::pose_to_ros(pose.angular_velocity),
                twist_covariance: [0.0; 36],
            };
            write(stream.data, vec![odometry.encode().into()]);
        }
    }
    if let Some(topic) = stream.metadata {
        let json = metadata_json(frame, stream.depth_units);
        write(topic, vec![ros2::encode_rs_metadata(header, &json).into()]);
    }
    Ok(out)
}

/// The static transforms of a camera named `camera` ([`camera_frame`]):
/// its base frame to each exported stream's body and optical frames, from
/// the recorded extrinsics.
pub(super) fn camera_transforms(
    recording: &Recording,
    topics: &BTreeMap<StreamId, StreamTopics>,
    camera: &str,
) -> Vec<FrameTransform> {
    let (_, related) = related_streams(recording, topics);
    let mut transforms = ros_camera::static_transforms(&related);
    let gyro = topics
        .iter()
        .find(|(s, t)| t.united && s.kind == StreamKind::Gyro);
    if let Some((gyro, _)) = gyro {
        transforms.extend(imu_transforms(&transforms, *gyro));
    }
    for t in &mut transforms {
        t.parent = camera_frame(camera, &t.parent);
        t.child = camera_frame(camera, &t.child);
    }
    transforms
}

/// The wrapper's frames of united IMU samples: `camera_imu_frame` at the
/// gyro's body frame, and its optical frame (found among `transforms`,
/// none when the gyro's extrinsics are unknown).
fn imu_transforms(transforms: &[FrameTransform], gyro: StreamId) -> Vec<FrameTransform> {
    let gyro_optical = ros_camera::optical_frame(gyro);
    let Some(to_optical) = transforms.iter().find(|t| t.child == gyro_optical) else {
        return Vec::new();
    };
    vec![
        FrameTransform {
            parent: to_optical.parent.clone(),
            child: united::IMU_FRAME.to_owned(),
            translation: [0.0; 3],
            rotation: [0.0, 0.0, 0.0, 1.0],
        },
        FrameTransform {
            parent: united::IMU_FRAME.to_owned(),
            child: united::IMU_OPTICAL_FRAME.to_owned(),
            ..to_optical.clone()
        },
    ]
}

/// The base stream (depth, else the first) and the extrinsics from it of
/// each exported stream related to it.
fn related_streams(
    recording: &Recording,
    topics: &BTreeMap<StreamId, StreamTopics>,
) -> (StreamId, Vec<(StreamId, crate::device::Extrinsics)>) {
    let streams: Vec<StreamId> = topics.keys().copied().collect();
    let base = streams
        .iter()
        .copied()
        .find(|s| s.kind == StreamKind::Depth)
        .unwrap_or(streams[0]);
    let related = streams
        .iter()
        .filter_map(|&s| recording.extrinsics(base, s).map(|e| (s, e)))
        .collect();
    (base, related)
}

/// A `tf2_msgs/msg/TFMessage` of `transforms`, stamped `stamp` (ns).
pub(super) fn tf_message(transforms: &[FrameTransform], stamp: u64) -> Vec<u8> {
    let stamp = Header::at(stamp, b"");
    let messages: Vec<TransformStamped<'_>> = transforms
        .iter()
        .map(|t| TransformStamped {
            header: Header {
                frame_id: t.parent.as_bytes(),
                ..stamp
            },
            child_frame_id: t.child.as_bytes(),
            translation: t.translation,
            rotation: t.rotation,
        })
        .collect();
    ros2::encode_tf_message(&messages)
}

/// The extrinsics topics and the IMU intrinsics, added and returned as
/// (topic, message) to write at the start.
pub(super) fn latched_messages(
    recording: &Recording,
    topics: &BTreeMap<StreamId, StreamTopics>,
    ns: &str,
    writer: &mut impl TopicTable,
) -> Result<Vec<(usize, Vec<u8>)>> {
    let mut out = Vec::new();
    let (base, related) = related_streams(recording, topics);
    for (stream, e) in related.iter().filter(|(s, _)| *s != base) {
        let topic = writer.add_topic(
            &ros_camera::extrinsics_topic(ns, base, *stream),
            &message_type(ros2::RS_EXTRINSICS),
            Durability::Latched,
        )?;
        let data =
            ros2::encode_rs_extrinsics(&e.rotation.map(f64::from), &e.translation.map(f64::from));
        out.push((topic, data));
    }
    for (id, stream) in recording.streams() {
        let Some(m) = stream.profile.motion_intrinsics() else {
            continue;
        };
        let topic = writer.add_topic(
            &ros_camera::stream_topic(ns, *id, "imu_info"),
            &message_type(ros2::RS_IMU_INFO),
            Durability::Latched,
        )?;
        let Some(exported) = topics.get(id) else {
            continue;
        };
        let header = Header::at(
            recording.start_time().as_nanos(),
            exported.optical_frame.as_bytes(),
        );
        let data: Vec<f64> = m.data.iter().flatten().map(|&v| f64::from(v)).collect();
        let mut matrix = [0.0; 12];
        matrix.copy_from_slice(&data);
        out.push((
            topic,
            ros2::encode_rs_imu_info(
                &header,
                &matrix,
                &m.noise_variances.map(f64::from),
                &m.bias_variances.map(f64::from),
            ),
        ));
    }
    Ok(out)
}

/// The frame's number, timestamp, domain, system time, metadata and depth
/// units as a JSON object, with the wrapper's key style (librealsense's
/// names in lower case, `_` for spaces).
fn metadata_json(frame: &Frame, depth_units: Option<f32>) -> String {
    let mut json = String::with_capacity(256);
    let _ = write!(
        json,
        "{{\"frame_number\":{},\"frame_timestamp\":{},\"clock_domain\":\"{}\",\"system_time\":{}",
        frame.number,
        json_number(frame.timestamp),
        frame.domain.name(),
        json_number(frame.system_time)
    );
    if let Some(units) = depth_units {
        // Printed as the f32 it is (0.001, not 0.0010000000474974513).
        let units = if units.is_finite() {
            units.to_string()
        } else {
            "null".into()
        };
        let _ = write!(json, ",\"depth_units\":{units}");
    }
    for (key, value) in &frame.metadata {
        let key: String = key
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || *c == ' ' || *c == '_')
            .map(|c| {
                if c == ' ' {
                    '_'
                } else {
                    c.to_ascii_lowercase()
                }
            })
            .collect();
        let _ = write!(json, ",\"{key}\":{value}");
    }
    json.push('}');
    json
}

/// A JSON number (JSON has no NaN or infinity: null).
fn json_number(v: f64) -> String {
    if v.is_finite() {
        format!("{v}")
    } else {
        "null".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::{Format, StreamProfile, TimestampDomain};

    #[test]
    fn united_imu_frames_hang_off_the_gyros_body_frame_as_the_wrappers() {
        let optical = [-0.5, 0.5, -0.5, 0.5];
        let transform = |parent: &str, child: &str, translation, rotation| FrameTransform {
            parent: parent.into(),
            child: child.into(),
            translation,
            rotation,
        };
        let transforms = [
            transform(
                "camera_link",
                "camera_gyro_frame",
                [0.1, 0.0, 0.0],
                [0.0, 0.0, 0.0, 1.0],
            ),
            transform(
                "camera_gyro_frame",
                "camera_gyro_optical_frame",
                [0.0; 3],
                optical,
            ),
        ];
        let gyro = StreamId::new(StreamKind::Gyro, 0);
        // tfs.cpp: FRAME_ID(gyro) -> IMU_FRAME_ID with zero translation and
        // rotation, IMU_FRAME_ID -> IMU_OPTICAL_FRAME_ID with the optical
        // quaternion (RPY -pi/2, 0, -pi/2).
        assert_eq!(
            imu_transforms(&transforms, gyro),
            [
                transform(
                    "camera_gyro_frame",
                    "camera_imu_frame",
                    [0.0; 3],
                    [0.0, 0.0, 0.0, 1.0]
                ),
                transform(
                    "camera_imu_frame",
                    "camera_imu_optical_frame",
                    [0.0; 3],
                    optical
                ),
            ]
        );
        // Without the gyro's transforms (no extrinsics), none.
        assert!(imu_transforms(&transforms[..1], gyro).is_empty());
    }

    #[test]
    fn metadata_is_json_with_the_wrappers_key_style() {
        let profile =
            StreamProfile::video(StreamId::new(StreamKind::Depth, 0), Format::Z16, 4, 2, 30);
        let frame = Frame {
            profile,
            number: 7,
            timestamp: 1234.5,
            domain: TimestampDomain::HardwareClock,
            system_time: 1.7e12,
            metadata: vec![
                ("Frame Counter".into(), 7),
                ("Actual Exposure".into(), 8500),
            ],
            stride: 8,
            data: vec![0u8; 16].into(),
        };
        assert_eq!(
            metadata_json(&frame, Some(0.001)),
            "{\"frame_number\":7,\"frame_timestamp\":1234.5,\"clock_domain\":\"Hardware Clock\",\"system_time\":1700000000000,\"depth_units\":0.001,\"frame_counter\":7,\"actual_exposure\":8500}"
        );
    }

    #[test]
    fn stamps_are_nanoseconds_of_the_millisecond_timestamp() {
        assert_eq!(stamp_ns(1234.5), 1_234_500_000);
        assert_eq!(stamp_ns(-1.0), 0);
        assert_eq!(stamp_ns(f64::NAN), 0);
    }
}
