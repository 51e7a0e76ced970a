//! The ROS message types of RealSense recordings, encoded and decoded
//! without copying pixel data, in both wire formats: ROS1 serialization
//! (a `.bag`: the types librealsense up to 2.57 writes, with their exact
//! definitions and md5sums) and CDR (a `.db3` or MCAP file: their ROS 2
//! forms, [`ros2`], [`ros2_definitions`]).
//!
//! # Layout
//!
//! One module per ROS package ([`std_msgs`], [`diagnostic_msgs`],
//! [`geometry_msgs`], [`sensor_msgs`], [`realsense_msgs`]) holds a struct
//! per message type; each implements [`RosMessage`], which carries the
//! type's name, its full `message_definition` text byte for byte as
//! librealsense writes it in connection headers, and its md5sum.
//! [`MESSAGE_TYPES`] and [`definition_of`] list them all for the bag tools;
//! [`md5sum`] computes an md5sum from a definition the way ROS genmsg does.
//!
//! The ROS1 wire format: little-endian numbers, `bool` as
//! one byte, `string` and variable-length arrays as a `u32` length then
//! the contents, fixed-length arrays as the bare elements, `time` as `u32`
//! seconds then `u32` nanoseconds, nested messages inline.
//!
//! Decoding borrows: strings are `Cow::Borrowed` and
//! [`sensor_msgs::Image::data`] points into the message bytes. Decoding
//! never panics: truncated data, a length prefix longer than the bytes that
//! are left, or a string that is not UTF-8 give an
//! [`Error::Decode`](crate::Error::Decode) that names the field and its
//! byte offset in the message. Bytes after the message are ignored, as ROS
//! readers do.
//!
//! librealsense extends `sensor_msgs/Image` with a trailing `depth_units`
//! field when `header.frame_id` is `"1"`; see [`sensor_msgs::Image`].
//!
//! # Example
//!
//! ```
//! use std::borrow::Cow;
//! use rsbag::msg::{diagnostic_msgs::KeyValue, encode_to_vec, RosMessage};
//!
//! let kv = KeyValue { key: "Serial Number".into(), value: "123".into() };
//! let bytes = encode_to_vec(&kv)?;
//! assert_eq!(bytes[..4], 13u32.to_le_bytes()); // length of the key
//! let back = KeyValue::decode(&bytes)?;
//! assert_eq!(back, kv);
//! assert!(matches!(back.key, Cow::Borrowed("Serial Number")));
//! assert_eq!(KeyValue::MD5SUM, "cf57fdc6617a881a88c16e768132149c");
//! # Ok::<(), rsbag::Error>(())
//! ```

/// Implement [`RosMessage`] for a type that implements `ser::Encode` and
/// `ser::Decode`.
macro_rules! ros_message {
    ($ty:ty, $name:literal, $definition:expr, $md5:literal) => {
        impl<'a> $crate::msg::RosMessage<'a> for $ty {
            const TYPE: &'static str = $name;
            const DEFINITION: &'static str = $definition;
            const MD5SUM: &'static str = $md5;

            fn encode(&self, out: &mut Vec<u8>) -> $crate::Result<()> {
                $crate::msg::ser::Encode::write(self, out).map_err(|e| match e {
                    $crate::Error::InvalidArgument(reason) => $crate::Error::InvalidArgument(
                        format!("cannot encode {} message: {reason}", Self::TYPE),
                    ),
                    e => e,
                })
            }

            fn decode(data: &'a [u8]) -> $crate::Result<Self> {
                $crate::msg::ser::decode_message(Self::TYPE, data)
            }
        }
    };
}

pub(crate) mod cdr;
mod definitions;
pub mod diagnostic_msgs;
pub mod geometry_msgs;
mod md5;
pub mod realsense_msgs;
pub(crate) mod ros1;
mod ros1_to_cdr;
pub mod ros2;
pub mod ros2_definitions;
pub mod sensor_msgs;
mod ser;
pub mod std_msgs;
mod time;

pub use self::md5::md5sum;
pub use self::ros1_to_cdr::Ros1ToCdr;
pub use self::time::Time;

/// A ROS message type: its name, definition and md5sum, and its wire form.
///
/// `'a` is the lifetime of the bytes a decoded message borrows from.
pub trait RosMessage<'a>: Sized {
    /// The ROS type name as in connection headers, e.g. `sensor_msgs/Image`.
    const TYPE: &'static str;
    /// The full `message_definition` exactly as librealsense writes it in
    /// the connection header: the main definition, then a
    /// `"\n====…====\nMSG: pkg/Dep\n…"` block per nested type.
    const DEFINITION: &'static str;
    /// The md5sum (32 lowercase hex digits) librealsense writes; it equals
    /// [`md5sum`]`(TYPE, DEFINITION)`.
    const MD5SUM: &'static str;

    /// Append the serialized message to `out`.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`](crate::Error::InvalidArgument) if a string
    /// or array is longer than `u32::MAX` elements, which ROS1 cannot
    /// represent (`out` then holds part of the message).
    fn encode(&self, out: &mut Vec<u8>) -> crate::Result<()>;

    /// Decode a message from `data`, borrowing strings and byte arrays.
    ///
    /// # Errors
    ///
    /// [`Error::Decode`](crate::Error::Decode) if `data` is too short for
    /// the message, a length prefix is larger than the bytes that follow, or
    /// a string is not UTF-8.
    fn decode(data: &'a [u8]) -> crate::Result<Self>;
}

/// The serialized form of `message` in a new vector.
///
/// # Errors
///
/// As [`RosMessage::encode`]: a string or array longer than ROS1 can
/// encode.
pub fn encode_to_vec<'a, M: RosMessage<'a>>(message: &M) -> crate::Result<Vec<u8>> {
    let mut out = Vec::new();
    message.encode(&mut out)?;
    Ok(out)
}

/// A known message type: name, full definition, md5sum.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MessageType {
    /// The ROS type name, e.g. `sensor_msgs/Image`.
    pub name: &'static str,
    /// The full `message_definition` librealsense writes.
    pub definition: &'static str,
    /// The md5sum.
    pub md5sum: &'static str,
}

impl MessageType {
    /// The entry of `M`.
    pub const fn of<M: RosMessage<'static>>() -> Self {
        MessageType {
            name: M::TYPE,
            definition: M::DEFINITION,
            md5sum: M::MD5SUM,
        }
    }
}

/// Every message type of this module: the ones librealsense 2.55 writes or
/// reads in current file versions, and the nested types they use.
pub const MESSAGE_TYPES: &[MessageType] = &[
    MessageType::of::<std_msgs::UInt32>(),
    MessageType::of::<std_msgs::Float32>(),
    MessageType::of::<std_msgs::String<'static>>(),
    MessageType::of::<std_msgs::Header<'static>>(),
    MessageType::of::<diagnostic_msgs::KeyValue<'static>>(),
    MessageType::of::<geometry_msgs::Vector3>(),
    MessageType::of::<geometry_msgs::Quaternion>(),
    MessageType::of::<geometry_msgs::Transform>(),
    MessageType::of::<geometry_msgs::Twist>(),
    MessageType::of::<geometry_msgs::Accel>(),
    MessageType::of::<sensor_msgs::RegionOfInterest>(),
    MessageType::of::<sensor_msgs::Image<'static>>(),
    MessageType::of::<sensor_msgs::CameraInfo<'static>>(),
    MessageType::of::<sensor_msgs::Imu<'static>>(),
    MessageType::of::<realsense_msgs::StreamInfo<'static>>(),
    MessageType::of::<realsense_msgs::ImuIntrinsic>(),
    MessageType::of::<realsense_msgs::Notification<'static>>(),
];

/// The full definition and md5sum of the type `type_name` (`pkg/Type`, as
/// in connection headers), if it is one of [`MESSAGE_TYPES`].
///
/// ```
/// let (definition, md5) = rsbag::msg::definition_of("std_msgs/UInt32").unwrap();
/// assert_eq!((definition, md5), ("uint32 data\n", "304a39449588c7f8ce2df6e8001c5fce"));
/// assert!(rsbag::msg::definition_of("std_msgs/Int8").is_none());
/// ```
pub fn definition_of(type_name: &str) -> Option<(&'static str, &'static str)> {
    MESSAGE_TYPES
        .iter()
        .find(|t| t.name == type_name)
        .map(|t| (t.definition, t.md5sum))
}

#[cfg(test)]
mod tests;
