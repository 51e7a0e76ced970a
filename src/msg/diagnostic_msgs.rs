//! `diagnostic_msgs`: `KeyValue`.

use std::borrow::Cow;

use super::definitions;
use super::ser::{Decode, Encode, Reader};
use crate::Result;

/// `diagnostic_msgs/KeyValue`; librealsense writes device and sensor info
/// (`/device_0/info`, `.../sensor_N/info`) and frame metadata
/// (`.../image/metadata`, `.../imu/metadata`) as these, one pair a message.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KeyValue<'a> {
    /// The key, e.g. `Serial Number` or `system_time`.
    pub key: Cow<'a, str>,
    /// The value, as text.
    pub value: Cow<'a, str>,
}

ros_message!(
    KeyValue<'a>,
    "diagnostic_msgs/KeyValue",
    definitions::KEY_VALUE,
    "cf57fdc6617a881a88c16e768132149c"
);

impl Encode for KeyValue<'_> {
    fn write(&self, out: &mut Vec<u8>) -> Result<()> {
        self.key.write(out)?;
        self.value.write(out)?;
        Ok(())
    }
}

impl<'a> Decode<'a> for KeyValue<'a> {
    fn read(r: &mut Reader<'a>) -> Result<Self> {
        Ok(KeyValue {
            key: r.string("key")?,
            value: r.string("value")?,
        })
    }
}
