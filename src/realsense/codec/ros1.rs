//! The codec of ROS1 serialization (a `.bag`): RealSense message types.

use super::{CameraInfoFields, Codec, FrameMessages, ImageFields, ImuFields};
use crate::device::{Frame, Notification, ProfileKind};
use crate::msg::diagnostic_msgs::KeyValue;
use crate::msg::ros2::{CompressedImage, Odometry, TransformStamped};
use crate::msg::sensor_msgs;
use crate::msg::std_msgs::{Float32, UInt32};
use crate::msg::RosMessage;
use crate::realsense::description::Description;
use crate::realsense::frames;
use crate::realsense::topics::Topic;
use crate::{Error, Result};

/// ROS1 serialization, as a `.bag` holds messages.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Ros1;

impl Codec for Ros1 {
    fn file_kind(&self) -> &'static str {
        "bag"
    }

    fn uint32(&self, data: &[u8]) -> Result<u32> {
        Ok(UInt32::decode(data)?.data)
    }

    fn add_description(
        &self,
        description: &mut Description,
        topic: Topic,
        time: u64,
        data: &[u8],
    ) -> Result<()> {
        description.add_ros1(topic, time, data)
    }

    fn notification(&self, data: &[u8]) -> Result<Notification> {
        frames::ros1_notification(data)
    }

    fn option_value(&self, data: &[u8]) -> Result<f32> {
        Ok(Float32::decode(data)?.data)
    }

    fn frame(&self, m: &FrameMessages<'_>) -> Result<Frame> {
        let mut metadata = Vec::with_capacity(m.metadata.len());
        for data in m.metadata {
            metadata.push(KeyValue::decode(data)?);
        }
        let mut frame = match m.profile.kind {
            ProfileKind::Video { .. } => frames::video_frame(m.profile, m.data)?,
            ProfileKind::Motion { .. } => frames::motion_frame(m.profile, m.data)?,
            ProfileKind::Pose => {
                frames::pose_frame(m.profile, m.data, m.accel, m.twist, &metadata)?
            }
        };
        frames::apply_metadata(&mut frame, &metadata);
        Ok(frame)
    }

    fn has_camera_metadata(&self) -> bool {
        false
    }

    fn image<'d>(&self, data: &'d [u8]) -> Result<ImageFields<'d>> {
        let m = sensor_msgs::Image::decode(data)?;
        let data = match m.data {
            std::borrow::Cow::Borrowed(d) => d,
            std::borrow::Cow::Owned(_) => {
                return Err(Error::decode("sensor_msgs/Image", "pixels not in place"))
            }
        };
        Ok(ImageFields {
            width: m.width,
            height: m.height,
            encoding: m.encoding.into_owned(),
            is_bigendian: m.is_bigendian != 0,
            step: m.step,
            data,
            frame_id: m.header.frame_id.into_owned(),
            stamp_ns: u64::from(m.header.stamp.sec) * 1_000_000_000
                + u64::from(m.header.stamp.nsec),
        })
    }

    fn camera_info(&self, data: &[u8]) -> Result<CameraInfoFields> {
        let m = sensor_msgs::CameraInfo::decode(data)?;
        Ok(CameraInfoFields {
            model: m.distortion_model.into_owned(),
            d: m.d,
            k: m.k,
        })
    }

    fn compressed_image<'d>(&self, data: &'d [u8]) -> Result<CompressedImage<'d>> {
        crate::msg::ros1::decode_compressed_image(data)
    }

    fn tf_message<'d>(&self, data: &'d [u8]) -> Result<Vec<TransformStamped<'d>>> {
        crate::msg::ros1::decode_tf_message(data)
    }

    fn odometry<'d>(&self, data: &'d [u8]) -> Result<Odometry<'d>> {
        crate::msg::ros1::decode_odometry(data)
    }

    fn imu(&self, data: &[u8]) -> Result<ImuFields> {
        let m = sensor_msgs::Imu::decode(data)?;
        let v = |v: crate::msg::geometry_msgs::Vector3| [v.x, v.y, v.z];
        let q = m.orientation;
        Ok(ImuFields {
            orientation: [q.x, q.y, q.z, q.w],
            angular_velocity: v(m.angular_velocity),
            linear_acceleration: v(m.linear_acceleration),
            stamp_ns: u64::from(m.header.stamp.sec) * 1_000_000_000
                + u64::from(m.header.stamp.nsec),
        })
    }
}
