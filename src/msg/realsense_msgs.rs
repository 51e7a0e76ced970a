//! `realsense_msgs`: `StreamInfo`, `ImuIntrinsic`, `Notification`.

use std::borrow::Cow;

use super::ser::{Decode, Encode, Reader};
use super::{definitions, Time};
use crate::Result;

/// `realsense_msgs/StreamInfo`, a stream profile
/// (`.../<Stream>_<index>/info`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StreamInfo<'a> {
    /// Nominal frame rate, Hz.
    pub fps: u32,
    /// Data format, e.g. `mono16` or `rgb8` (see the image encodings).
    pub encoding: Cow<'a, str>,
    /// Whether the SDK recommends this stream.
    pub is_recommended: bool,
}

/// `realsense_msgs/ImuIntrinsic`, the intrinsics of a motion stream
/// (`.../<Stream>_<index>/imu_intrinsic`).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct ImuIntrinsic {
    /// 3x4 row-major: scale and cross-axis terms, bias in the last column.
    pub data: [f32; 12],
    /// Noise variances of the x, y, z axes.
    pub noise_variances: [f32; 3],
    /// Bias variances of the x, y, z axes.
    pub bias_variances: [f32; 3],
}

/// `realsense_msgs/Notification`, a device notification
/// (`.../sensor_N/notification/<category>`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Notification<'a> {
    /// When it happened.
    pub timestamp: Time,
    /// Category name.
    pub category: Cow<'a, str>,
    /// Severity name.
    pub severity: Cow<'a, str>,
    /// Human-readable description.
    pub description: Cow<'a, str>,
    /// JSON with additional data.
    pub serialized_data: Cow<'a, str>,
}

ros_message!(
    StreamInfo<'a>,
    "realsense_msgs/StreamInfo",
    definitions::STREAM_INFO,
    "311d7e24eac31bb87271d041bf70ff7d"
);
ros_message!(
    ImuIntrinsic,
    "realsense_msgs/ImuIntrinsic",
    definitions::IMU_INTRINSIC,
    "aebdc2f8f9726f1c3ca823ab56e47429"
);
ros_message!(
    Notification<'a>,
    "realsense_msgs/Notification",
    definitions::NOTIFICATION,
    "cdb7a97a510446301f8e6fb67d8cccb0"
);

impl Encode for StreamInfo<'_> {
    fn write(&self, out: &mut Vec<u8>) -> Result<()> {
        self.fps.write(out)?;
        self.encoding.write(out)?;
        self.is_recommended.write(out)?;
        Ok(())
    }
}

impl<'a> Decode<'a> for StreamInfo<'a> {
    fn read(r: &mut Reader<'a>) -> Result<Self> {
        Ok(StreamInfo {
            fps: r.u32("fps")?,
            encoding: r.string("encoding")?,
            is_recommended: r.bool("is_recommended")?,
        })
    }
}

impl Encode for ImuIntrinsic {
    fn write(&self, out: &mut Vec<u8>) -> Result<()> {
        self.data.write(out)?;
        self.noise_variances.write(out)?;
        self.bias_variances.write(out)?;
        Ok(())
    }
}

impl Decode<'_> for ImuIntrinsic {
    fn read(r: &mut Reader<'_>) -> Result<Self> {
        Ok(ImuIntrinsic {
            data: r.f32_array("data")?,
            noise_variances: r.f32_array("noise_variances")?,
            bias_variances: r.f32_array("bias_variances")?,
        })
    }
}

impl Encode for Notification<'_> {
    fn write(&self, out: &mut Vec<u8>) -> Result<()> {
        self.timestamp.write(out)?;
        self.category.write(out)?;
        self.severity.write(out)?;
        self.description.write(out)?;
        self.serialized_data.write(out)?;
        Ok(())
    }
}

impl<'a> Decode<'a> for Notification<'a> {
    fn read(r: &mut Reader<'a>) -> Result<Self> {
        Ok(Notification {
            timestamp: r.time("timestamp")?,
            category: r.string("category")?,
            severity: r.string("severity")?,
            description: r.string("description")?,
            serialized_data: r.string("serialized_data")?,
        })
    }
}
