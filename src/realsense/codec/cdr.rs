//! The codec of CDR (a `.db3` or MCAP file): standard ROS 2 types, the
//! RealSense description and metadata as `key=value` strings.

use super::{stamp_ns, CameraInfoFields, Codec, FrameMessages, ImageFields, ImuFields};
use crate::device::{Frame, Notification};
use crate::msg::ros2::{self, CompressedImage, Odometry, TransformStamped};
use crate::realsense::description::Description;
use crate::realsense::frames;
use crate::realsense::topics::Topic;
use crate::{Error, Result};

/// CDR, as a `.db3` or an MCAP file holds messages.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Cdr;

impl Codec for Cdr {
    fn file_kind(&self) -> &'static str {
        ".db3"
    }

    fn uint32(&self, data: &[u8]) -> Result<u32> {
        ros2::uint32(data)
    }

    fn add_description(
        &self,
        description: &mut Description,
        topic: Topic,
        time: u64,
        data: &[u8],
    ) -> Result<()> {
        description.add_cdr(topic, time, data)
    }

    fn notification(&self, data: &[u8]) -> Result<Notification> {
        frames::cdr_notification(data)
    }

    fn option_value(&self, data: &[u8]) -> Result<f32> {
        let text = ros2::string(data)?;
        String::from_utf8_lossy(text).trim().parse().map_err(|_| {
            Error::decode(
                ros2::STRING,
                format!(
                    "option value {:?} is not a number",
                    String::from_utf8_lossy(text)
                ),
            )
        })
    }

    fn frame(&self, m: &FrameMessages<'_>) -> Result<Frame> {
        // A `.db3` frame's number and timestamp live only in its metadata
        // message: without it (a recording cut between the two) there is
        // no frame to give, only made-up numbers.
        let Some(metadata) = m.metadata.first() else {
            return Err(Error::decode(
                frames::cdr_type(m.profile, m.compressed),
                "the frame's metadata message is missing (the recording was cut before it was written): no frame number or timestamp",
            ));
        };
        let mut frame = frames::cdr_frame(m.profile, m.data, m.compressed)?;
        frames::apply_cdr_metadata(&mut frame, metadata)?;
        Ok(frame)
    }

    fn has_camera_metadata(&self) -> bool {
        true
    }

    fn image<'d>(&self, data: &'d [u8]) -> Result<ImageFields<'d>> {
        let m = ros2::Image::decode(data)?;
        Ok(ImageFields {
            width: m.width,
            height: m.height,
            encoding: String::from_utf8_lossy(m.encoding).into_owned(),
            is_bigendian: m.is_bigendian != 0,
            step: m.step,
            data: m.data,
            frame_id: String::from_utf8_lossy(m.header.frame_id).into_owned(),
            stamp_ns: stamp_ns(m.header.sec, m.header.nanosec),
        })
    }

    fn camera_info(&self, data: &[u8]) -> Result<CameraInfoFields> {
        let m = ros2::CameraInfo::decode(data)?;
        Ok(CameraInfoFields {
            model: String::from_utf8_lossy(m.distortion_model).into_owned(),
            d: m.d,
            k: m.k,
        })
    }

    fn compressed_image<'d>(&self, data: &'d [u8]) -> Result<CompressedImage<'d>> {
        CompressedImage::decode(data)
    }

    fn tf_message<'d>(&self, data: &'d [u8]) -> Result<Vec<TransformStamped<'d>>> {
        ros2::decode_tf_message(data)
    }

    fn odometry<'d>(&self, data: &'d [u8]) -> Result<Odometry<'d>> {
        ros2::Odometry::decode(data)
    }

    fn imu(&self, data: &[u8]) -> Result<ImuFields> {
        let m = ros2::Imu::decode(data)?;
        Ok(ImuFields {
            orientation: m.orientation,
            angular_velocity: m.angular_velocity,
            linear_acceleration: m.linear_acceleration,
            stamp_ns: stamp_ns(m.header.sec, m.header.nanosec),
        })
    }
}
