//! Topics the RealSense ROS wrapper derives from the camera's streams,
//! written by the ROS 2 export when asked: `aligned_depth_to_color`
//! (realsense-ros' `align_depth.enable`), depth aligned to the colour
//! image as librealsense's `rs2::align` makes it
//! ([`crate::processing::Alignment`]), stamped as the depth frame and in
//! the colour camera's optical frame, with the colour camera's
//! `camera_info` (the aligned image has its size and intrinsics).

use crate::device::{Frame, ProfileKind, StreamId, StreamKind};
use crate::msg::ros2::{self, Header, Image};
use crate::msg::ros2_definitions::message_type;
use crate::processing::Alignment;
use crate::recording::Recording;
use crate::ros_camera;
use crate::storage::rosbag2::{BagDirWriter, Durability};
use crate::{Error, Result};

use super::ros2_export::{camera_frame, camera_info};

/// The folder of the aligned depth topics, as the wrapper names it.
const ALIGNED_FOLDER: &str = "aligned_depth_to_color";

/// Depth aligned to colour, as the wrapper publishes it.
pub(super) struct AlignedDepth {
    depth: StreamId,
    alignment: Alignment,
    image: usize,
    info: usize,
    /// The colour camera's optical frame.
    frame_id: String,
}

impl AlignedDepth {
    /// Add the topics of depth aligned to colour under namespace `ns`, for
    /// camera `camera`: the first `exported` depth stream and the first
    /// colour stream with intrinsics the recording relates to it.
    pub(super) fn add(
        recording: &Recording,
        writer: &mut BagDirWriter,
        (ns, camera): (&str, &str),
        exported: impl Fn(&StreamId) -> bool,
    ) -> Result<AlignedDepth> {
        let streams = recording.streams();
        let depth = (streams.iter())
            .find(|(id, s)| {
                id.kind == StreamKind::Depth && exported(id) && s.profile.intrinsics().is_some()
            })
            .map(|(id, _)| *id);
        let color = depth.and_then(|d| {
            (streams.iter())
                .filter(|(id, s)| id.kind == StreamKind::Color && s.profile.intrinsics().is_some())
                .map(|(id, _)| *id)
                .find(|c| recording.extrinsics(d, *c).is_some())
        });
        let (Some(depth), Some(color)) = (depth, color) else {
            return Err(Error::InvalidArgument(
                "--aligned-depth needs an exported depth stream and a colour stream with \
                 intrinsics, related by extrinsics"
                    .into(),
            ));
        };
        let folder = format!("{}/{ALIGNED_FOLDER}", ns.trim_end_matches('/'));
        Ok(AlignedDepth {
            depth,
            alignment: Alignment::of_streams(recording, depth, color)?,
            image: writer.add_topic(
                &format!("{folder}/image_raw"),
                &message_type(ros2::IMAGE),
                Durability::Volatile,
            )?,
            info: writer.add_topic(
                &format!("{folder}/camera_info"),
                &message_type(ros2::CAMERA_INFO),
                Durability::Volatile,
            )?,
            frame_id: camera_frame(camera, &ros_camera::optical_frame(color)),
        })
    }

    /// Write the aligned image and camera info of `frame` (if it is the
    /// aligned depth stream's) at bag time `time`, stamped `stamp` (ns).
    pub(super) fn write(
        &self,
        writer: &mut BagDirWriter,
        frame: &Frame,
        time: u64,
        stamp: u64,
    ) -> Result<()> {
        if frame.profile.stream != self.depth {
            return Ok(());
        }
        let aligned = self.alignment.depth_to_other(frame)?;
        let ProfileKind::Video {
            width,
            height,
            intrinsics,
        } = aligned.profile.kind
        else {
            return Ok(());
        };
        let header = Header::at(stamp, self.frame_id.as_bytes());
        let image = Image {
            header,
            height,
            width,
            encoding: b"16UC1",
            is_bigendian: 0,
            step: width * 2,
            data: &aligned.data,
        };
        let info = camera_info(&header, width, height, intrinsics).encode();
        writer.write_together(|writer| {
            writer.write_parts(self.image, time, &[&image.encode_head(), &aligned.data])?;
            writer.write(self.info, time, &info)
        })
    }
}
