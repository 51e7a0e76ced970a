//! A session of several recordings ([`Session`]) as one ROS 2 bag: each
//! camera's streams in the RealSense ROS wrapper's layout (as
//! [`super::export_ros2`] writes one recording) under a namespace of its
//! own (`/<camera>/depth/image_rect_raw`…), with frame ids named for the
//! camera as the wrapper's `camera_name` does (`<camera>_link`,
//! `<camera>_depth_optical_frame`), every frame in time order on the
//! session's clock, and `/tf_static` relating the cameras where their
//! poses are given.
//!
//! Times: a message's bag time and its header stamp are the frame's
//! session time (so ROS tools see every camera on one clock); the frame's
//! own timestamp stays in `<stream>/metadata`. On the global-time and
//! arrival-time clocks the session time is the host's (ns since the
//! epoch); on the recording-start clock it counts from the first
//! recording's start time.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Bound;
use std::path::Path;
use std::time::Duration;

use super::ros2_export::{
    add_stream_topics, camera_transforms, finish_or_abandon, latched_messages, session_unite_imu,
    tf_message, write_frame, ImuTopic, StreamTopics,
};
use super::Ros2Export;
use crate::device::StreamId;
use crate::msg::ros2;
use crate::msg::ros2_definitions::message_type;
use crate::recording::{Session, SessionClock};
use crate::ros_camera::camera_frame;
use crate::ros_camera::imu::UniteImu;
use crate::ros_camera::transport::ImageTransport;
use crate::ros_camera::{self, FrameTransform};
use crate::storage::rosbag2::{BagDirWriter, Durability, McapCompression};
use crate::storage::FileFormat;
use crate::{Error, Result};

/// How far a quaternion's norm may be from 1 (four decimals typed by
/// hand, `0.7071`, are 1e-4 off); it is then normalized.
const UNIT_TOLERANCE: f64 = 1e-3;

/// Where a camera is relative to another: the pose of its base frame
/// (`<camera>_link`) in the other's.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CameraPose {
    /// Translation in metres (ROS axes: x forward, y left, z up).
    pub translation: [f64; 3],
    /// Rotation quaternion x, y, z, w, of unit length.
    pub rotation: [f64; 4],
}

impl CameraPose {
    /// A pose from a translation and a quaternion (x, y, z, w); the
    /// quaternion must be of unit length within 1e-3 and is normalized.
    /// Numbers that are not finite, or a quaternion not of unit length,
    /// are an error.
    pub fn new(translation: [f64; 3], rotation: [f64; 4]) -> Result<CameraPose> {
        if !translation.iter().chain(&rotation).all(|v| v.is_finite()) {
            return Err(Error::InvalidArgument(
                "a pose's numbers must be finite".into(),
            ));
        }
        let norm = rotation.iter().map(|v| v * v).sum::<f64>().sqrt();
        if (norm - 1.0).abs() > UNIT_TOLERANCE {
            return Err(Error::InvalidArgument(format!(
                "the rotation {rotation:?} is not a unit quaternion (its norm is {norm})"
            )));
        }
        Ok(CameraPose {
            translation,
            rotation: rotation.map(|v| v / norm),
        })
    }
}

/// How [`export_ros2_session`] writes.
#[derive(Debug, Clone, PartialEq)]
pub struct Ros2SessionOptions {
    /// The storage file's format: [`FileFormat::Db3`] or [`FileFormat::Mcap`].
    pub storage: FileFormat,
    /// How an MCAP file's chunks are compressed.
    pub mcap_compression: McapCompression,
    /// The streams to write, in every file that has them (all if `None`).
    pub streams: Option<BTreeSet<StreamId>>,
    /// Poses of cameras relative to the first file's camera, by position
    /// in [`Session::files`] (not 0): each a transform on `/tf_static`
    /// from the first camera's `<camera>_link` to that camera's.
    pub poses: Vec<(usize, CameraPose)>,
    /// The frames to write, by time since the session's first frame on
    /// its clock (as [`crate::recording::SessionQuery::time`]); the bag's
    /// latched messages are written at the first moment the range takes.
    pub time: (Bound<Duration>, Bound<Duration>),
    /// How images are written: raw, or on image_transport's compressed
    /// topics.
    pub image_transport: ImageTransport,
    /// Each camera's gyro and accel samples united on its `imu` topic, as
    /// the wrapper's `unite_imu_method` publishes them.
    pub unite_imu: Option<UniteImu>,
}

impl Default for Ros2SessionOptions {
    fn default() -> Self {
        Ros2SessionOptions {
            storage: FileFormat::Db3,
            mcap_compression: McapCompression::default(),
            streams: None,
            poses: Vec::new(),
            time: (Bound::Unbounded, Bound::Unbounded),
            image_transport: ImageTransport::Raw,
            unite_imu: None,
        }
    }
}

/// Each file's camera name as a ROS name (its namespace is `/<name>`):
/// the session's camera name ([`crate::recording::SessionFile::name`])
/// with each character other than a letter, digit or `_` made `_`,
/// `camera_` in front of one starting with a digit (a serial number),
/// and `_2`, `_3`… after one another file already has.
pub fn session_camera_names(session: &Session) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for file in session.files() {
        let mut name: String = (file.name().chars())
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        if !name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
            name = format!("camera_{name}");
        }
        let mut unique = name.clone();
        let mut n = 1;
        while names.contains(&unique) {
            n += 1;
            unique = format!("{name}_{n}");
        }
        names.push(unique);
    }
    names
}

/// Write `session` as the rosbag2 directory `dir` (which must not exist):
/// every chosen frame of every file once, in time order on the session's
/// clock, each camera under `/<name>` ([`session_camera_names`]);
/// `progress` is called with the frames written so far. On an error the
/// unfinished directory is deleted.
///
/// # Example
/// ```no_run
/// use rsbag::recording::Session;
/// use rsbag::record::{export_ros2_session, CameraPose, Ros2SessionOptions};
/// # fn main() -> rsbag::Result<()> {
/// let session = Session::open(["left.bag", "right.bag"])?;
/// let right = CameraPose::new([0.0, -0.5, 0.0], [0.0, 0.0, 0.0, 1.0])?;
/// let options = Ros2SessionOptions { poses: vec![(1, right)], ..Default::default() };
/// let export = export_ros2_session(&session, "rig_ros2".as_ref(), &options, |_| {})?;
/// println!("{} topics", export.messages.len());
/// # Ok(()) }
/// ```
pub fn export_ros2_session(
    session: &Session,
    dir: &Path,
    options: &Ros2SessionOptions,
    progress: impl FnMut(u64),
) -> Result<Ros2Export> {
    check_poses(session, &options.poses)?;
    let mut writer = BagDirWriter::create_with(dir, options.storage, options.mcap_compression)?;
    let written = write_session(session, &mut writer, options, progress);
    finish_or_abandon(writer, written)
}

/// Each pose is of a file of the session other than the first, given
/// once.
fn check_poses(session: &Session, poses: &[(usize, CameraPose)]) -> Result<()> {
    let files = session.files();
    for (k, (file, _)) in poses.iter().enumerate() {
        let Some(camera) = files.get(*file) else {
            return Err(Error::InvalidArgument(format!(
                "a pose is given for recording {file}; the session has {}",
                files.len()
            )));
        };
        if *file == 0 {
            return Err(Error::InvalidArgument(format!(
                "a pose is given for {}, the first recording: the poses are relative to its camera",
                camera.path().display()
            )));
        }
        if poses[..k].iter().any(|(f, _)| f == file) {
            return Err(Error::InvalidArgument(format!(
                "two poses are given for {}",
                camera.path().display()
            )));
        }
    }
    Ok(())
}

fn write_session(
    session: &Session,
    writer: &mut BagDirWriter,
    options: &Ros2SessionOptions,
    mut progress: impl FnMut(u64),
) -> Result<Ros2Export> {
    let names = session_camera_names(session);
    let mut export = Ros2Export::default();
    let keeps = |s: &StreamId| options.streams.as_ref().is_none_or(|k| k.contains(s));
    let mut topics: Vec<BTreeMap<StreamId, StreamTopics>> = Vec::new();
    let mut imus: Vec<Option<ImuTopic>> = Vec::new();
    let recordings = session.files().iter().map(|f| f.reader().recording());
    let unite = session_unite_imu(recordings, options.unite_imu, keeps)?;
    for ((file, name), unite) in session.files().iter().zip(&names).zip(unite) {
        let recording = file.reader().recording();
        let mut skipped = Vec::new();
        let ns = format!("/{name}");
        let added = add_stream_topics(
            recording,
            writer,
            (&ns, name),
            (options.image_transport, unite),
            keeps,
            &mut skipped,
        )
        .map_err(|e| e.in_file(file.path()))?;
        (export.skipped).extend(
            skipped
                .into_iter()
                .map(|(s, why)| (s, format!("{name}: {why}"))),
        );
        topics.push(added.streams);
        imus.push(added.imu);
    }
    if topics.iter().all(BTreeMap::is_empty) {
        return Err(Error::InvalidArgument(
            "no recording of the session has a stream ROS 2 messages can hold".into(),
        ));
    }
    let anchor = anchor_ns(session);
    let from_ms = match options.time.0 {
        Bound::Included(d) | Bound::Excluded(d) => d.as_secs_f64() * 1000.0,
        Bound::Unbounded => 0.0,
    };
    let start = session
        .start_ms()
        .map_or(0, |t| bag_ns(anchor, t + from_ms));
    let transforms = session_transforms(session, &topics, &names, &options.poses);
    if !transforms.is_empty() {
        let topic = writer.add_topic(
            "/tf_static",
            &message_type(ros2::TF_MESSAGE),
            Durability::Latched,
        )?;
        writer.write(topic, start, &tf_message(&transforms, start))?;
    }
    for ((file, name), mine) in session.files().iter().zip(&names).zip(&topics) {
        if mine.is_empty() {
            continue;
        }
        let ns = format!("/{name}");
        for (topic, data) in latched_messages(file.reader().recording(), mine, &ns, writer)? {
            writer.write(topic, start, &data)?;
        }
    }
    let streams: BTreeSet<StreamId> = topics.iter().flat_map(|t| t.keys().copied()).collect();
    let mut frames = 0;
    let frames_chosen = session.select().streams(streams).time(options.time);
    for frame in frames_chosen.frames()? {
        let frame = frame?;
        let Some(stream) = topics[frame.file].get(&frame.recorded.stream) else {
            continue;
        };
        let time = bag_ns(anchor, frame.time_ms);
        let imu = imus[frame.file].as_mut();
        write_frame(writer, &frame.recorded.frame, time, time, stream, imu)?;
        frames += 1;
        progress(frames);
    }
    export.messages = writer.message_counts();
    Ok(export)
}

/// Each camera's own static transforms, then the given poses: the first
/// camera's base frame to each posed camera's.
fn session_transforms(
    session: &Session,
    topics: &[BTreeMap<StreamId, StreamTopics>],
    names: &[String],
    poses: &[(usize, CameraPose)],
) -> Vec<FrameTransform> {
    let mut out = Vec::new();
    for ((file, name), mine) in session.files().iter().zip(names).zip(topics) {
        if !mine.is_empty() {
            out.extend(camera_transforms(file.reader().recording(), mine, name));
        }
    }
    let link = |name: &str| camera_frame(name, ros_camera::BASE_FRAME);
    for (file, pose) in poses {
        out.push(FrameTransform {
            parent: link(&names[0]),
            child: link(&names[*file]),
            translation: pose.translation,
            rotation: pose.rotation,
        });
    }
    out
}

/// A frame's time on the session's clock, `ms`, as the nanoseconds its
/// messages are stamped with when the session's cameras are exported or
/// published together: on the global-time and arrival-time clocks the
/// host's time (ns since the epoch), as the RealSense ROS wrapper stamps
/// messages; on the recording-start clock, from the first recording's
/// start time.
pub fn session_stamp_ns(session: &Session, ms: f64) -> u64 {
    bag_ns(anchor_ns(session), ms)
}

/// The bag time (ns) session time 0 stands for: the epoch on the host
/// clocks, the first recording's start time on the recording-start clock.
fn anchor_ns(session: &Session) -> u64 {
    match session.clock() {
        SessionClock::GlobalTime | SessionClock::ArrivalTime => 0,
        SessionClock::RecordingStart => {
            (session.files().first()).map_or(0, |f| f.reader().recording().start_time().as_nanos())
        }
    }
}

/// Session time `ms` as a bag time in ns from `anchor` (0 before 0);
/// whole milliseconds and their fraction apart, so that ms since the
/// epoch lose no more than the f64 they are held in.
fn bag_ns(anchor: u64, ms: f64) -> u64 {
    if !ms.is_finite() {
        return 0;
    }
    let whole = ms.floor();
    let ns = i128::from(anchor) + whole as i128 * 1_000_000 + ((ms - whole) * 1e6).round() as i128;
    u64::try_from(ns.max(0)).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn poses_need_finite_numbers_and_a_unit_quaternion() {
        let pose = CameraPose::new([0.1, 0.0, 0.0], [0.0, 0.0, 0.6, 0.8001]).expect("unit");
        let n: f64 = pose.rotation.iter().map(|v| v * v).sum();
        assert!((n - 1.0).abs() < 1e-12);
        assert!(CameraPose::new([0.0; 3], [0.0, 0.0, 0.0, 2.0]).is_err());
        assert!(CameraPose::new([f64::NAN, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0]).is_err());
    }

    #[test]
    fn bag_times_are_nanoseconds_of_the_session_time() {
        assert_eq!(bag_ns(0, 1_700_000_000_123.5), 1_700_000_000_123_500_000);
        assert_eq!(bag_ns(1_000, 2.0), 2_001_000);
        assert_eq!(bag_ns(0, -5.0), 0);
    }
}
