//! What rosbag2 stores of a topic's message type: the caller knows the
//! messages, storage only keeps what it is given (as MCAP keeps schemas).

/// A topic's message type as a rosbag2 writer stores it: its name, and
/// the definition and type hash that ROS 2 tools read to decode it
/// without the package that defines it. Both may be empty.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MessageType {
    /// The type's name, `sensor_msgs/msg/Image`.
    pub name: String,
    /// Its full definition in ROS 2's `.msg` text with the definitions
    /// it uses (rosbag2's `ros2msg` encoding), or empty.
    pub definition: String,
    /// Its type description hash (`RIHS01_…`), or empty.
    pub hash: String,
}

impl MessageType {
    /// A type stored by name alone, with no definition.
    pub fn named(name: &str) -> MessageType {
        MessageType {
            name: name.to_owned(),
            ..MessageType::default()
        }
    }
}

/// How a topic's messages are serialized and its type defined: `cdr` and
/// `ros2msg` for ROS 2's own; a ROS1 bag's topics carried into rosbag2
/// keep `ros1` and `ros1msg`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TopicEncoding<'a> {
    /// rosbag2's `serialization_format` (an MCAP channel's message
    /// encoding).
    pub serialization_format: &'a str,
    /// The encoding of the stored definition (an MCAP schema's).
    pub definition_encoding: &'a str,
}
