//! `std_msgs`: `UInt32`, `Float32`, `String` and `Header`.

use std::borrow::Cow;

use super::ser::{Decode, Encode, Reader};
use super::{definitions, Time};
use crate::Result;

/// `std_msgs/UInt32`; librealsense writes the file version (`/file_version`)
/// as one.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct UInt32 {
    /// The value.
    pub data: u32,
}

/// `std_msgs/Float32`; librealsense writes option values
/// (`.../option/<Name>/value`) as these.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Float32 {
    /// The value.
    pub data: f32,
}

/// `std_msgs/String`; librealsense writes option descriptions and
/// processing-block names as these.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct String<'a> {
    /// The text (borrowed from the message when decoded).
    pub data: Cow<'a, str>,
}

/// `std_msgs/Header`, the first field of stamped messages.
///
/// librealsense writes the frame number in `seq`, the frame timestamp in
/// `stamp`, and uses `frame_id` as a format version: `"1"`
/// ([`Header::LIBREALSENSE_VERSION`]) in the frames it writes, which makes
/// a [`sensor_msgs::Image`](super::sensor_msgs::Image) carry `depth_units`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Header<'a> {
    /// Sequence number (librealsense: the frame number).
    pub seq: u32,
    /// Time stamp (librealsense: the frame timestamp, milliseconds as
    /// seconds and nanoseconds).
    pub stamp: Time,
    /// Frame id (librealsense: a format version, see above).
    pub frame_id: Cow<'a, str>,
}

impl Header<'_> {
    /// The `frame_id` librealsense writes in frame headers: it marks images
    /// whose message ends with a `float32 depth_units`.
    pub const LIBREALSENSE_VERSION: &'static str = "1";
}

ros_message!(
    UInt32,
    "std_msgs/UInt32",
    definitions::UINT32,
    "304a39449588c7f8ce2df6e8001c5fce"
);
ros_message!(
    Float32,
    "std_msgs/Float32",
    definitions::FLOAT32,
    "73fcbf46b49191e672908e50842a83d4"
);
ros_message!(
    String<'a>,
    "std_msgs/String",
    definitions::STRING,
    "992ce8a1687cec8c8bd883ec73ca41d1"
);
ros_message!(
    Header<'a>,
    "std_msgs/Header",
    definitions::HEADER,
    "2176decaecbce78abc3b96ef049fabed"
);

impl Encode for UInt32 {
    fn write(&self, out: &mut Vec<u8>) -> Result<()> {
        self.data.write(out)?;
        Ok(())
    }
}

impl Decode<'_> for UInt32 {
    fn read(r: &mut Reader<'_>) -> Result<Self> {
        Ok(UInt32 {
            data: r.u32("data")?,
        })
    }
}

impl Encode for Float32 {
    fn write(&self, out: &mut Vec<u8>) -> Result<()> {
        self.data.write(out)?;
        Ok(())
    }
}

impl Decode<'_> for Float32 {
    fn read(r: &mut Reader<'_>) -> Result<Self> {
        Ok(Float32 {
            data: r.f32("data")?,
        })
    }
}

impl Encode for String<'_> {
    fn write(&self, out: &mut Vec<u8>) -> Result<()> {
        self.data.write(out)?;
        Ok(())
    }
}

impl<'a> Decode<'a> for String<'a> {
    fn read(r: &mut Reader<'a>) -> Result<Self> {
        Ok(String {
            data: r.string("data")?,
        })
    }
}

impl Encode for Header<'_> {
    fn write(&self, out: &mut Vec<u8>) -> Result<()> {
        self.seq.write(out)?;
        self.stamp.write(out)?;
        self.frame_id.write(out)?;
        Ok(())
    }
}

impl<'a> Decode<'a> for Header<'a> {
    fn read(r: &mut Reader<'a>) -> Result<Self> {
        Ok(Header {
            seq: r.u32("header.seq")?,
            stamp: r.time("header.stamp")?,
            frame_id: r.string("header.frame_id")?,
        })
    }
}
