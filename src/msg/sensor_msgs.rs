//! `sensor_msgs`: `Image`, `CameraInfo` (with `RegionOfInterest`) and `Imu`.

use std::borrow::Cow;

use super::definitions;
use super::geometry_msgs::{Quaternion, Vector3};
use super::ser::{prefix_len, put_len, put_seq, Decode, Encode, Reader};
use super::std_msgs::Header;
use crate::Result;

/// `sensor_msgs/Image`, one video frame
/// (`.../<Stream>_<index>/image/data`).
///
/// Decoding borrows the pixel bytes from the message (no copy); encoding
/// works from borrowed or owned data.
///
/// **librealsense extension.** When `header.frame_id` is `"1"`
/// ([`Header::LIBREALSENSE_VERSION`], which librealsense writes in every
/// frame), the message ends with one more field, `float32 depth_units`
/// (meters per depth unit for depth frames, 0 for others), that the
/// definition does not list. [`Image::depth_units`] is encoded and decoded
/// exactly then, as librealsense does; with any other `frame_id` it is
/// neither written nor read (decoded as 0).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Image<'a> {
    /// Header: frame number, frame timestamp, format version.
    pub header: Header<'a>,
    /// Rows.
    pub height: u32,
    /// Columns.
    pub width: u32,
    /// Pixel encoding, e.g. `mono16` (Z16) or `rgb8`.
    pub encoding: Cow<'a, str>,
    /// 1 if the pixel data is big-endian.
    pub is_bigendian: u8,
    /// Bytes per row.
    pub step: u32,
    /// Pixel data, `step * height` bytes.
    pub data: Cow<'a, [u8]>,
    /// librealsense's depth units (see above).
    pub depth_units: f32,
}

impl Image<'_> {
    /// Whether the message carries `depth_units` (`header.frame_id == "1"`).
    pub(crate) fn has_depth_units(&self) -> bool {
        self.header.frame_id == Header::LIBREALSENSE_VERSION
    }
}

/// `sensor_msgs/RegionOfInterest`, the `roi` of a [`CameraInfo`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RegionOfInterest {
    /// Leftmost pixel.
    pub x_offset: u32,
    /// Topmost pixel.
    pub y_offset: u32,
    /// Height.
    pub height: u32,
    /// Width.
    pub width: u32,
    /// Whether a rectified ROI should be computed.
    pub do_rectify: bool,
}

/// `sensor_msgs/CameraInfo`, the intrinsics of a video stream
/// (`.../<Stream>_<index>/info/camera_info`).
///
/// The ROS fields `D`, `K`, `R`, `P` are named `d`, `k`, `r`, `p`.
/// librealsense writes the distortion model name in `distortion_model`, the
/// coefficients in `d`, and the focal lengths and principal point in `k`
/// (`k[0]` = fx, `k[2]` = ppx, `k[4]` = fy, `k[5]` = ppy, `k[8]` = 1).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CameraInfo<'a> {
    /// Header.
    pub header: Header<'a>,
    /// Calibrated height.
    pub height: u32,
    /// Calibrated width.
    pub width: u32,
    /// Distortion model name.
    pub distortion_model: Cow<'a, str>,
    /// Distortion coefficients (`D`).
    pub d: Vec<f64>,
    /// Intrinsic matrix, 3x3 row-major (`K`).
    pub k: [f64; 9],
    /// Rectification matrix, 3x3 row-major (`R`).
    pub r: [f64; 9],
    /// Projection matrix, 3x4 row-major (`P`).
    pub p: [f64; 12],
    /// Horizontal binning.
    pub binning_x: u32,
    /// Vertical binning.
    pub binning_y: u32,
    /// Region of interest.
    pub roi: RegionOfInterest,
}

/// `sensor_msgs/Imu`, one motion frame (`.../<Stream>_<index>/imu/data`):
/// librealsense fills `linear_acceleration` for accel streams and
/// `angular_velocity` for gyro streams.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Imu<'a> {
    /// Header: frame number, frame timestamp, format version.
    pub header: Header<'a>,
    /// Orientation.
    pub orientation: Quaternion,
    /// Orientation covariance, 3x3 row-major.
    pub orientation_covariance: [f64; 9],
    /// Angular velocity (rad/s).
    pub angular_velocity: Vector3,
    /// Angular velocity covariance, 3x3 row-major.
    pub angular_velocity_covariance: [f64; 9],
    /// Linear acceleration (m/s²).
    pub linear_acceleration: Vector3,
    /// Linear acceleration covariance, 3x3 row-major.
    pub linear_acceleration_covariance: [f64; 9],
}

ros_message!(
    Image<'a>,
    "sensor_msgs/Image",
    definitions::IMAGE,
    "060021388200f6f0f447d0fcd9c64743"
);
ros_message!(
    RegionOfInterest,
    "sensor_msgs/RegionOfInterest",
    definitions::REGION_OF_INTEREST,
    "bdb633039d588fcccb441a4d43ccfe09"
);
ros_message!(
    CameraInfo<'a>,
    "sensor_msgs/CameraInfo",
    definitions::CAMERA_INFO,
    "c9a58c1b0b154e0e6da7578cb991d214"
);
ros_message!(
    Imu<'a>,
    "sensor_msgs/Imu",
    definitions::IMU,
    "6a62c6daae103f4ff57a132d6f95cec2"
);

impl Image<'_> {
    /// Append the message's bytes before its pixels, up to the pixels'
    /// length prefix: with the pixels and [`Image::encode_tail`], the
    /// message. For writers that keep the pixels apart, by reference.
    pub(crate) fn encode_head(&self, out: &mut Vec<u8>) -> Result<()> {
        self.header.write(out)?;
        self.height.write(out)?;
        self.width.write(out)?;
        self.encoding.write(out)?;
        self.is_bigendian.write(out)?;
        self.step.write(out)?;
        put_len(out, self.data.len())
    }

    /// Append the message's bytes after its pixels (see
    /// [`Image::encode_head`]).
    pub(crate) fn encode_tail(&self, out: &mut Vec<u8>) -> Result<()> {
        if self.has_depth_units() {
            self.depth_units.write(out)?;
        }
        Ok(())
    }
}

impl Encode for Image<'_> {
    fn write(&self, out: &mut Vec<u8>) -> Result<()> {
        // 41 bytes of numbers and length prefixes, then the strings and
        // data; reserved once the data is known to fit its prefix.
        prefix_len(self.data.len())?;
        let strings = self.header.frame_id.len() + self.encoding.len();
        out.reserve(41 + strings + self.data.len());
        self.encode_head(out)?;
        out.extend_from_slice(&self.data);
        self.encode_tail(out)
    }
}

impl<'a> Decode<'a> for Image<'a> {
    fn read(r: &mut Reader<'a>) -> Result<Self> {
        let mut image = Image {
            header: Header::read(r)?,
            height: r.u32("height")?,
            width: r.u32("width")?,
            encoding: r.string("encoding")?,
            is_bigendian: r.u8("is_bigendian")?,
            step: r.u32("step")?,
            data: Cow::Borrowed(r.bytes("data")?),
            depth_units: 0.0,
        };
        if image.has_depth_units() {
            image.depth_units = r.f32("depth_units (librealsense, as header.frame_id is \"1\")")?;
        }
        Ok(image)
    }
}

impl Encode for RegionOfInterest {
    fn write(&self, out: &mut Vec<u8>) -> Result<()> {
        [self.x_offset, self.y_offset, self.height, self.width].write(out)?;
        self.do_rectify.write(out)?;
        Ok(())
    }
}

impl Decode<'_> for RegionOfInterest {
    fn read(r: &mut Reader<'_>) -> Result<Self> {
        Ok(RegionOfInterest {
            x_offset: r.u32("roi.x_offset")?,
            y_offset: r.u32("roi.y_offset")?,
            height: r.u32("roi.height")?,
            width: r.u32("roi.width")?,
            do_rectify: r.bool("roi.do_rectify")?,
        })
    }
}

impl Encode for CameraInfo<'_> {
    fn write(&self, out: &mut Vec<u8>) -> Result<()> {
        self.header.write(out)?;
        self.height.write(out)?;
        self.width.write(out)?;
        self.distortion_model.write(out)?;
        put_seq(out, &self.d)?;
        self.k.write(out)?;
        self.r.write(out)?;
        self.p.write(out)?;
        self.binning_x.write(out)?;
        self.binning_y.write(out)?;
        self.roi.write(out)?;
        Ok(())
    }
}

impl<'a> Decode<'a> for CameraInfo<'a> {
    fn read(r: &mut Reader<'a>) -> Result<Self> {
        Ok(CameraInfo {
            header: Header::read(r)?,
            height: r.u32("height")?,
            width: r.u32("width")?,
            distortion_model: r.string("distortion_model")?,
            d: r.f64_seq("D")?,
            k: r.f64_array("K")?,
            r: r.f64_array("R")?,
            p: r.f64_array("P")?,
            binning_x: r.u32("binning_x")?,
            binning_y: r.u32("binning_y")?,
            roi: RegionOfInterest::read(r)?,
        })
    }
}

impl Encode for Imu<'_> {
    fn write(&self, out: &mut Vec<u8>) -> Result<()> {
        self.header.write(out)?;
        self.orientation.write(out)?;
        self.orientation_covariance.write(out)?;
        self.angular_velocity.write(out)?;
        self.angular_velocity_covariance.write(out)?;
        self.linear_acceleration.write(out)?;
        self.linear_acceleration_covariance.write(out)?;
        Ok(())
    }
}

impl<'a> Decode<'a> for Imu<'a> {
    fn read(r: &mut Reader<'a>) -> Result<Self> {
        Ok(Imu {
            header: Header::read(r)?,
            orientation: Quaternion::read(r)?,
            orientation_covariance: r.f64_array("orientation_covariance")?,
            angular_velocity: Vector3::read(r)?,
            angular_velocity_covariance: r.f64_array("angular_velocity_covariance")?,
            linear_acceleration: Vector3::read(r)?,
            linear_acceleration_covariance: r.f64_array("linear_acceleration_covariance")?,
        })
    }
}
