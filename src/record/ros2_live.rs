//! A recording's messages in the RealSense ROS wrapper's layout, one frame
//! at a time, for a live ROS 2 graph: the topics and messages
//! [`export_ros2`](super::export_ros2) writes into a bag, handed to a
//! publisher instead (`rsbag play --ros2`, through `rsbag-ros2`).

use std::collections::BTreeMap;

use crate::device::{Frame, StreamId};
use crate::msg::ros2;
use crate::recording::{Recording, Session};
use crate::ros_camera::transport::ImageTransport;
use crate::storage::rosbag2::{Durability, MessageType};
use crate::{Error, Result};

use super::ros2_export::{
    add_stream_topics, camera_transforms, frame_messages, latched_messages, session_unite_imu,
    tf_message, CameraTopics, ImuTopic, StreamTopics, TopicTable,
};
use crate::ros_camera::imu::UniteImu;
use crate::ros_camera::stamp_ns;

/// A topic of the layout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ros2Topic {
    /// Its name (`/camera/camera/depth/image_rect_raw`).
    pub name: String,
    /// Its message type (`sensor_msgs/msg/Image`).
    pub msg_type: String,
    /// Latched: late subscribers get its last message (`/tf_static`,
    /// extrinsics, IMU intrinsics), so it is published reliable and
    /// transient local.
    pub latched: bool,
}

/// One message: the index of its topic in [`Ros2Layout::topics`] and its
/// CDR bytes (encapsulation header first).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ros2Message {
    /// The topic's index.
    pub topic: usize,
    /// The serialized message.
    pub data: Vec<u8>,
}

/// The wrapper's topics for a recording's streams and how each frame
/// becomes their messages (image or IMU sample, camera info, metadata),
/// stamped with the frame's own timestamp as the export stamps them.
pub struct Ros2Layout {
    topics: Vec<Ros2Topic>,
    streams: BTreeMap<StreamId, StreamTopics>,
    imu: Option<ImuTopic>,
    start: Vec<Ros2Message>,
    skipped: Vec<(StreamId, String)>,
}

impl std::fmt::Debug for Ros2Layout {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ros2Layout")
            .field("topics", &self.topics)
            .field("skipped", &self.skipped)
            .finish()
    }
}

impl TopicTable for Vec<Ros2Topic> {
    fn add_topic(
        &mut self,
        name: &str,
        msg_type: &MessageType,
        durability: Durability,
    ) -> Result<usize> {
        if let Some(i) = self.iter().position(|t| t.name == name) {
            return Ok(i);
        }
        self.push(Ros2Topic {
            name: name.to_owned(),
            msg_type: msg_type.name.clone(),
            latched: durability == Durability::Latched,
        });
        Ok(self.len() - 1)
    }
}

impl Ros2Layout {
    /// The layout of the streams of `recording` that `keeps` keeps and
    /// ROS has a message for, under namespace `namespace` (the wrapper's
    /// `/camera/camera` by default) with frame ids named for camera
    /// `camera` (the wrapper's `camera_name`, `camera` by default:
    /// `<camera>_link`…), images through `transport`, gyro and accel
    /// samples united by `unite`.
    pub fn of_recording(
        recording: &Recording,
        (namespace, camera): (&str, &str),
        (transport, unite): (ImageTransport, Option<UniteImu>),
        keeps: impl Fn(&StreamId) -> bool,
    ) -> Result<Ros2Layout> {
        let mut topics = Vec::new();
        let mut skipped = Vec::new();
        let CameraTopics { streams, imu } = add_stream_topics(
            recording,
            &mut topics,
            (namespace, camera),
            (transport, unite),
            keeps,
            &mut skipped,
        )?;
        if streams.is_empty() {
            return Err(Error::InvalidArgument(
                "the recording has no stream ROS 2 messages can hold".into(),
            ));
        }
        let mut start = Vec::new();
        let transforms = camera_transforms(recording, &streams, camera);
        if !transforms.is_empty() {
            let topic = topics.add_topic(
                "/tf_static",
                &crate::msg::ros2_definitions::message_type(ros2::TF_MESSAGE),
                Durability::Latched,
            )?;
            let data = tf_message(&transforms, recording.start_time().as_nanos());
            start.push(Ros2Message { topic, data });
        }
        for (topic, data) in latched_messages(recording, &streams, namespace, &mut topics)? {
            start.push(Ros2Message { topic, data });
        }
        Ok(Ros2Layout {
            topics,
            streams,
            imu,
            start,
            skipped,
        })
    }

    /// The layouts of the cameras of `session`, each under its
    /// (namespace, camera) of `names` ([`Ros2Layout::of_recording`]), of
    /// the streams `keeps` keeps, images through `transport`; gyro and
    /// accel samples united by `unite` on each camera that has both (an
    /// error if `unite` is asked for and none has).
    pub fn of_session(
        session: &Session,
        names: &[(String, String)],
        (transport, unite): (ImageTransport, Option<UniteImu>),
        keeps: impl Fn(&StreamId) -> bool,
    ) -> Result<Vec<Ros2Layout>> {
        let recordings = session.files().iter().map(|f| f.reader().recording());
        let unite = session_unite_imu(recordings, unite, &keeps)?;
        (session.files().iter().zip(names).zip(unite))
            .map(|((file, (ns, camera)), unite)| {
                let recording = file.reader().recording();
                Ros2Layout::of_recording(recording, (ns, camera), (transport, unite), &keeps)
                    .map_err(|e| e.in_file(file.path()))
            })
            .collect()
    }

    /// Every topic, each once.
    pub fn topics(&self) -> &[Ros2Topic] {
        &self.topics
    }

    /// The streams published, each with the index of its data topic
    /// (image or sample).
    pub fn streams(&self) -> impl Iterator<Item = (StreamId, usize)> + '_ {
        self.streams.iter().map(|(id, s)| (*id, s.data_topic()))
    }

    /// Streams left out, with the reason (a format ROS has no image
    /// encoding for).
    pub fn skipped(&self) -> &[(StreamId, String)] {
        &self.skipped
    }

    /// The latched messages, to publish before any frame.
    pub fn start_messages(&self) -> &[Ros2Message] {
        &self.start
    }

    /// The messages of `frame` (none for a stream not in the layout),
    /// stamped with its timestamp; frames are given in the recording's
    /// order, which united IMU samples follow.
    pub fn frame_messages(&mut self, frame: &Frame) -> Result<Vec<Ros2Message>> {
        self.frame_messages_at(frame, stamp_ns(frame.timestamp))
    }

    /// [`Ros2Layout::frame_messages`] stamped `stamp` (ns) instead: a
    /// session's time ([`super::session_stamp_ns`]).
    pub fn frame_messages_at(&mut self, frame: &Frame, stamp: u64) -> Result<Vec<Ros2Message>> {
        let Some(stream) = self.streams.get(&frame.profile.stream) else {
            return Ok(Vec::new());
        };
        let messages = frame_messages(frame, 0, stamp, stream, self.imu.as_mut())?;
        Ok(messages
            .into_iter()
            .map(|m| Ros2Message {
                topic: m.topic,
                data: m.parts.concat(),
            })
            .collect())
    }
}
