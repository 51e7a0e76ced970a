//! The one topic type of every storage format: a ROS bag's connection
//! record, a rosbag2 `.db3` topic and an MCAP channel are all a
//! [`Connection`], its format's own fields in [`ConnectionExt`] (as
//! rosbags models them).

/// A connection: a topic with its message type, in any storage format.
///
/// # Example
/// ```
/// use rsbag::storage::{Connection, ConnectionExt};
/// let conn = Connection::ros1("/file_version", "std_msgs/UInt32",
///     "304a39449588c7f8ce2df6e8001c5fce", "uint32 data\n");
/// assert_eq!(conn.topic, "/file_version");
/// assert!(matches!(conn.ext, ConnectionExt::Ros1 { callerid: None, .. }));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Connection {
    /// What [`Message::conn`](super::Message::conn) holds for its
    /// messages: a bag's connection id, a `.db3`'s topic id, an MCAP
    /// channel id.
    pub id: u32,
    /// The topic the messages are stored on.
    pub topic: String,
    /// The message type: `sensor_msgs/Image` in a ROS bag,
    /// `sensor_msgs/msg/Image` in rosbag2.
    pub msg_type: String,
    /// The message type's digest: a ROS bag's md5sum (32 hex digits);
    /// empty where the storage keeps none (`.db3`, MCAP).
    pub digest: String,
    /// The message definition text: a ROS bag's `message_definition`, an
    /// MCAP channel's schema; empty where the storage keeps none (`.db3`).
    pub message_definition: String,
    /// What only its format has.
    pub ext: ConnectionExt,
}

/// The fields of a [`Connection`] that only one family of formats has.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConnectionExt {
    /// A ROS bag's connection header.
    Ros1 {
        /// The publishing node, if the writer recorded one.
        callerid: Option<String>,
        /// Whether the publisher was latching, if the writer recorded it.
        latching: Option<bool>,
    },
    /// A rosbag2 topic (`.db3` or MCAP).
    Rosbag2 {
        /// The serialization format, `cdr`.
        serialization_format: String,
        /// The offered QoS profiles (YAML text, often empty).
        offered_qos_profiles: String,
    },
}

impl Connection {
    /// A ROS bag connection with id 0, no caller id and no latching field;
    /// a bag writer assigns the id when the connection is added.
    pub fn ros1(topic: &str, msg_type: &str, md5sum: &str, message_definition: &str) -> Self {
        Connection {
            id: 0,
            topic: topic.to_owned(),
            msg_type: msg_type.to_owned(),
            digest: md5sum.to_owned(),
            message_definition: message_definition.to_owned(),
            ext: ConnectionExt::Ros1 {
                callerid: None,
                latching: None,
            },
        }
    }
}

/// Connection `id` of `connections` (sorted by id), by its position.
pub(crate) fn position_of(connections: &[Connection], id: u32) -> Option<usize> {
    connections.binary_search_by_key(&id, |c| c.id).ok()
}
