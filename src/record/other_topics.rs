//! A camera bag recorded on a robot holds more than its cameras: a lidar's
//! scans, `/tf`, odometry, anything ([`Recording::other_topics`]). Copies
//! of it (`rsbag trim`, the ROS 2 export) carry those topics as they are
//! (their type, definition, serialization format, QoS profiles and every
//! message's bytes and time; a ROS1 bag's in their ROS 2 form in a ROS 2
//! bag), or leave them out.

use std::collections::HashMap;
use std::ops::Range;
use std::path::Path;

use crate::msg::Ros1ToCdr;
use crate::record::trim::Trim;
use crate::recording::Recording;
use crate::storage::rosbag2::{BagDirWriter, Durability, McapCompression, MessageType};
use crate::storage::{Connection, ConnectionExt, FileFormat};
use crate::{BagTime, Error, Result};

/// Whether a copy of a camera bag carries its other topics.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum OtherTopics {
    /// Carried as they are, over the copy's time range (the default).
    #[default]
    Keep,
    /// Left out.
    Drop,
}

/// Every time: a topic's messages kept whole.
const ALL: Range<u64> = 0..u64::MAX;

/// The messages of `conn` that a trimmed copy of camera bag `recording`
/// keeps, as [`crate::storage::bag::copy_messages`] selects them: a
/// stream's frames, camera info and metadata over its frames' times (none
/// for a stream not kept); the other topics over the span of the kept
/// frames, or none with [`OtherTopics::Drop`]; the cameras' static
/// descriptions (`/tf_static`, the wrapper's extrinsics) whole.
pub fn camera_bag_selection<'r>(
    recording: &'r Recording,
    trim: &'r Trim,
    other: OtherTopics,
) -> impl Fn(&Connection) -> Option<Range<u64>> + 'r {
    let nanos = |r: Range<BagTime>| r.start.as_nanos()..r.end.as_nanos();
    move |conn| {
        if let Some(stream) = recording.camera_topic_stream(conn.id) {
            return trim
                .keeps_stream(stream)
                .then(|| nanos(trim.frame_times(stream)));
        }
        if recording.other_topics().contains(&conn.id) {
            return (other == OtherTopics::Keep).then(|| nanos(trim.span()));
        }
        Some(ALL)
    }
}

/// How one other topic reaches a ROS 2 bag.
struct Carried {
    topic: usize,
    /// A ROS1 bag's type, to convert its messages to CDR.
    ros1: Option<Ros1ToCdr>,
}

/// Add `recording`'s other topics to `writer` and copy their messages of
/// bag times in `time`: a rosbag2 topic as it is; a ROS1 bag's in its ROS
/// 2 form ([`Ros1ToCdr`]: CDR, `pkg/msg/Type`, a latched topic's QoS
/// transient local), which `ros2 bag` and rosbags read.
pub(crate) fn copy_other_topics(
    recording: &Recording,
    writer: &mut BagDirWriter,
    time: Range<BagTime>,
) -> Result<()> {
    let storage = recording.storage();
    let mut carried: HashMap<u32, Carried> = HashMap::new();
    for &id in recording.other_topics() {
        let Some(conn) = storage.topics().iter().find(|t| t.id == id) else {
            continue;
        };
        carried.insert(id, carry(conn, writer)?);
    }
    let ids: Vec<u32> = carried.keys().copied().collect();
    for message in storage.messages(&ids, time.start.as_nanos()..time.end.as_nanos()) {
        let message = message?;
        let to = &carried[&message.conn];
        match &to.ros1 {
            Some(convert) => {
                let cdr = convert
                    .convert(&message.data)
                    .map_err(|e| storage.in_message(&message, e))?;
                writer.write(to.topic, message.time, &cdr)?
            }
            None => writer.write(to.topic, message.time, &message.data)?,
        }
    }
    Ok(())
}

/// Add topic `conn` to `writer`, as it is or in its ROS 2 form.
fn carry(conn: &Connection, writer: &mut BagDirWriter) -> Result<Carried> {
    let ConnectionExt::Ros1 { latching, .. } = &conn.ext else {
        return Ok(Carried {
            topic: writer.add_topic_like(conn)?,
            ros1: None,
        });
    };
    let convert = Ros1ToCdr::new(&conn.msg_type, &conn.message_definition).map_err(|e| {
        Error::InvalidArgument(format!(
            "{} ({}) cannot be written in ROS 2 form: {e} (--other-topics drop leaves it out)",
            conn.topic, conn.msg_type
        ))
    })?;
    let msg_type = MessageType {
        name: convert.ros2_type().to_owned(),
        definition: convert.ros2_definition().to_owned(),
        hash: String::new(),
    };
    let durability = match latching {
        Some(true) => Durability::Latched,
        _ => Durability::Volatile,
    };
    Ok(Carried {
        topic: writer.add_topic(&conn.topic, &msg_type, durability)?,
        ros1: Some(convert),
    })
}

/// A trimmed copy of a camera bag stored in rosbag2 (`.db3` or MCAP): a
/// rosbag2 bag directory `out` in the same storage format, with every
/// topic as it is and the messages `select` keeps
/// ([`camera_bag_selection`]); returns the messages written per topic.
/// `out` must not exist; on an error nothing is left there.
pub fn trim_rosbag2_camera_bag(
    recording: &Recording,
    out: &Path,
    select: impl Fn(&Connection) -> Option<Range<u64>>,
    mut progress: impl FnMut(u64),
) -> Result<std::collections::BTreeMap<String, u64>> {
    let storage = recording.storage();
    let format = storage.format();
    if format == FileFormat::Bag {
        return Err(Error::InvalidArgument(
            "a ROS1 bag is trimmed into a bag, not a rosbag2 directory".into(),
        ));
    }
    let mut writer = BagDirWriter::create_with(out, format, McapCompression::default())?;
    let written = copy_selected(recording, &mut writer, select, &mut progress);
    match written {
        Ok(()) => {
            let counts = writer.message_counts();
            writer.finish()?;
            Ok(counts)
        }
        Err(e) => {
            writer.abandon();
            Err(e)
        }
    }
}

fn copy_selected(
    recording: &Recording,
    writer: &mut BagDirWriter,
    select: impl Fn(&Connection) -> Option<Range<u64>>,
    progress: &mut impl FnMut(u64),
) -> Result<()> {
    let storage = recording.storage();
    let mut kept: HashMap<u32, (usize, Range<u64>)> = HashMap::new();
    for conn in storage.topics() {
        if let Some(range) = select(conn) {
            kept.insert(conn.id, (writer.add_topic_like(conn)?, range));
        }
    }
    let ids: Vec<u32> = kept.keys().copied().collect();
    let start = kept.values().map(|(_, r)| r.start).min().unwrap_or(0);
    let end = kept.values().map(|(_, r)| r.end).max().unwrap_or(0);
    let mut written = 0;
    for message in storage.messages(&ids, start..end) {
        let message = message?;
        let (topic, range) = &kept[&message.conn];
        if range.contains(&message.time) {
            writer.write(*topic, message.time, &message.data)?;
            written += 1;
            progress(written);
        }
    }
    Ok(())
}
