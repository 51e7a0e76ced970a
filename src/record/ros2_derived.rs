//! Topics the RealSense ROS wrapper derives from the camera's streams,
//! written by the ROS 2 export when asked:
//! - `aligned_depth_to_color` (realsense-ros' `align_depth.enable`), depth
//!   aligned to the colour image as librealsense's `rs2::align` makes it
//!   ([`crate::processing::Alignment`]), stamped as the depth frame and in
//!   the colour camera's optical frame, with the colour camera's
//!   `camera_info` (the aligned image has its size and intrinsics);
//! - `depth/color/points` (`pointcloud.enable`), the depth image's points
//!   as `rs2::pointcloud` computes them ([`PointCloudMaker`]), coloured
//!   from the colour frame of the depth frame's frameset and packed as the
//!   wrapper's `PointcloudFilter::Publish` (realsense2_camera
//!   `named_filter.cpp`) packs them.

use crate::device::{Extrinsics, Frame, Intrinsics, ProfileKind, StreamId, StreamKind};
use crate::msg::ros2::{self, Header, Image, PointCloud2, PointField};
use crate::msg::ros2_definitions::message_type;
use crate::processing::{self, Alignment, PointCloudMaker};
use crate::recording::{Recording, SyncFrame, SyncOptions, Syncer};
use crate::ros_camera;
use crate::storage::rosbag2::{BagDirWriter, Durability};
use crate::{Error, Result};

use crate::ros_camera::{camera_frame, camera_info, stamp_ns};

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

/// How the points of the exported point cloud are laid out, as the
/// wrapper's `pointcloud.ordered_pc` lays them out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PointCloudLayout {
    /// One row of the points with depth (and, with a colour stream, inside
    /// the colour image): the wrapper's default (`ordered_pc: false`).
    Unordered,
    /// Every depth pixel, the depth image's width by its height; a pixel
    /// without depth at (0, 0, 0) (`ordered_pc: true`).
    Ordered,
}

/// The point cloud topic under the namespace, as the wrapper names it.
const POINTS_TOPIC: &str = "depth/color/points";

/// A frame of the export and its bag time, waiting for its frameset.
struct Timed {
    frame: Frame,
    time: u64,
}

impl SyncFrame for Timed {
    fn frame(&self) -> &Frame {
        &self.frame
    }
}

/// The colour stream a point cloud takes its colour from.
struct Texture {
    color: StreamId,
    intrinsics: Intrinsics,
    depth_to_color: Extrinsics,
    /// Depth and colour frames grouped into framesets, as `convert --to
    /// ply` groups them: a cloud is made when its depth frame's frameset
    /// is complete.
    framesets: Syncer<Timed>,
}

/// Depth frames as the wrapper's point cloud, on `depth/color/points`.
pub(super) struct PointCloudTopic {
    topic: usize,
    depth: StreamId,
    depth_units: f32,
    layout: PointCloudLayout,
    /// The depth camera's optical frame, as the wrapper's
    /// `publishPointCloud` names it (`OPTICAL_FRAME_ID(DEPTH)`).
    frame_id: String,
    texture: Option<Texture>,
    /// The point cloud maker of the last depth image's intrinsics (a
    /// decimation filter changes them).
    maker: Option<(Intrinsics, PointCloudMaker)>,
}

impl PointCloudTopic {
    /// Add the point cloud topic under namespace `ns`, for camera `camera`:
    /// of the first `exported` depth stream with intrinsics, coloured from
    /// the first exported colour stream the recording relates to it (none:
    /// points without colour, as the wrapper's `pointcloud.stream_filter`
    /// 0 publishes them).
    pub(super) fn add(
        recording: &Recording,
        writer: &mut BagDirWriter,
        (ns, camera): (&str, &str),
        layout: PointCloudLayout,
        exported: impl Fn(&StreamId) -> bool,
    ) -> Result<PointCloudTopic> {
        let streams = recording.streams();
        let depth = (streams.iter())
            .find(|(id, s)| {
                id.kind == StreamKind::Depth && exported(id) && s.profile.intrinsics().is_some()
            })
            .map(|(id, _)| *id)
            .ok_or_else(|| {
                Error::InvalidArgument(
                    "--pointcloud needs an exported depth stream with intrinsics".into(),
                )
            })?;
        let texture = (streams.iter())
            .filter(|(id, _)| id.kind == StreamKind::Color && exported(id))
            .find_map(|(id, s)| {
                let intrinsics = s.profile.intrinsics()?;
                let depth_to_color = recording.extrinsics(depth, *id)?;
                Some(Texture {
                    color: *id,
                    intrinsics,
                    depth_to_color,
                    framesets: Syncer::new(
                        [streams[&depth].profile, s.profile],
                        SyncOptions::default(),
                    ),
                })
            });
        Ok(PointCloudTopic {
            topic: writer.add_topic(
                &format!("{}/{POINTS_TOPIC}", ns.trim_end_matches('/')),
                &message_type(ros2::POINT_CLOUD2),
                Durability::Volatile,
            )?,
            depth,
            depth_units: recording.depth_units(depth),
            layout,
            frame_id: camera_frame(camera, &ros_camera::optical_frame(depth)),
            texture,
            maker: None,
        })
    }

    /// Take a frame of the export (depth after its filters) at bag time
    /// `time`, and write the clouds whose framesets it completes.
    pub(super) fn write(
        &mut self,
        writer: &mut BagDirWriter,
        frame: &Frame,
        time: u64,
    ) -> Result<()> {
        let stream = frame.profile.stream;
        let Some(texture) = &mut self.texture else {
            if stream == self.depth {
                self.write_cloud(writer, frame, None, time)?;
            }
            return Ok(());
        };
        if stream != self.depth && stream != texture.color {
            return Ok(());
        }
        texture.framesets.push(Timed {
            frame: frame.clone(),
            time,
        });
        self.write_ready(writer)
    }

    /// Write the clouds of the depth frames still waiting for their
    /// framesets.
    pub(super) fn finish(&mut self, writer: &mut BagDirWriter) -> Result<()> {
        if let Some(texture) = &mut self.texture {
            texture.framesets.finish();
        }
        self.write_ready(writer)
    }

    /// Write the cloud of each frameset ready. A depth frame whose
    /// frameset has no colour frame gets none, as the wrapper publishes
    /// none when the texture's frame is missing.
    fn write_ready(&mut self, writer: &mut BagDirWriter) -> Result<()> {
        while let Some(set) = self.texture.as_mut().and_then(|t| t.framesets.pop()) {
            let color = self.texture.as_ref().map(|t| t.color);
            let depth = set
                .frames()
                .iter()
                .find(|f| f.frame.profile.stream == self.depth);
            let color = set
                .frames()
                .iter()
                .find(|f| Some(f.frame.profile.stream) == color);
            if let (Some(depth), Some(color)) = (depth, color) {
                self.write_cloud(writer, &depth.frame, Some(&color.frame), depth.time)?;
            }
        }
        Ok(())
    }

    /// Write the cloud of `depth`, coloured from `color`, at bag time
    /// `time`, stamped as the depth frame.
    fn write_cloud(
        &mut self,
        writer: &mut BagDirWriter,
        depth: &Frame,
        color: Option<&Frame>,
        time: u64,
    ) -> Result<()> {
        let ProfileKind::Video {
            width,
            height,
            intrinsics: Some(intrinsics),
        } = depth.profile.kind
        else {
            return Ok(());
        };
        let maker = self.maker(&intrinsics);
        let cloud = maker.calculate(depth)?;
        let image = color.map(processing::image).transpose()?;
        let ordered = self.layout == PointCloudLayout::Ordered;
        let points = match &image {
            Some(image) => WrapperPoints::colored(&cloud, image, ordered),
            None => WrapperPoints::plain(&cloud, ordered),
        };
        let (width, height) = match ordered {
            true => (width, height),
            false => (points.count, 1),
        };
        let fields: &[PointField] = match image {
            Some(_) => &XYZ_RGB,
            None => &XYZ_RGB[..3],
        };
        let message = PointCloud2 {
            header: Header::at(stamp_ns(depth.timestamp), self.frame_id.as_bytes()),
            height,
            width,
            fields,
            is_bigendian: false,
            point_step: points.step,
            row_step: width * points.step,
            data: &points.data,
            is_dense: !ordered,
        };
        let [head, tail] = message.encode_parts();
        writer.write_parts(self.topic, time, &[&head, &points.data, &tail])
    }

    /// The point cloud maker of depth images with `intrinsics`.
    fn maker(&mut self, intrinsics: &Intrinsics) -> &PointCloudMaker {
        let maker = match self.maker.take() {
            Some((made_for, maker)) if made_for == *intrinsics => maker,
            _ => {
                let maker = PointCloudMaker::new(intrinsics, self.depth_units);
                match &self.texture {
                    Some(t) => maker.map_to(&t.intrinsics, &t.depth_to_color),
                    None => maker,
                }
            }
        };
        &self.maker.insert((*intrinsics, maker)).1
    }
}

/// The fields of the wrapper's points: `setPointCloud2FieldsByString(1,
/// "xyz")` puts x, y and z at 0, 4 and 8 and pads the point to 16 bytes;
/// the texture's `rgb` follows at 16.
const XYZ_RGB: [PointField<'static>; 4] = [
    float_field(b"x", 0),
    float_field(b"y", 4),
    float_field(b"z", 8),
    float_field(b"rgb", 16),
];

const fn float_field(name: &'static [u8], offset: u32) -> PointField<'static> {
    PointField {
        name,
        offset,
        datatype: PointField::FLOAT32,
        count: 1,
    }
}

/// Points packed as the wrapper packs them.
struct WrapperPoints {
    data: Vec<u8>,
    /// Points in `data`.
    count: u32,
    /// Bytes per point.
    step: u32,
}

impl WrapperPoints {
    /// Points without colour: those with depth, or every one when
    /// `ordered` (x, y, z, 4 bytes of padding).
    fn plain(cloud: &processing::PointCloud, ordered: bool) -> WrapperPoints {
        let mut points = WrapperPoints::with_step(16, cloud.vertices.len());
        for v in cloud.vertices.iter().filter(|v| ordered || v[2] > 0.0) {
            points.push(v, None);
        }
        points
    }

    /// Points coloured from `image`: those with depth whose texture
    /// coordinates fall in the image (`allow_no_texture_points` false), or
    /// every one when `ordered`, a point outside the image with colour 0.
    fn colored(
        cloud: &processing::PointCloud,
        image: &processing::Image,
        ordered: bool,
    ) -> WrapperPoints {
        let mut points = WrapperPoints::with_step(20, cloud.vertices.len());
        for (v, uv) in cloud.vertices.iter().zip(&cloud.texture_coordinates) {
            let color = wrapper_texture_color(image, *uv);
            if ordered || (v[2] > 0.0 && color.is_some()) {
                points.push(v, Some(color.unwrap_or_default()));
            }
        }
        points
    }

    fn with_step(step: u32, points: usize) -> WrapperPoints {
        WrapperPoints {
            data: Vec::with_capacity(points * step as usize),
            count: 0,
            step,
        }
    }

    /// Append a point: x, y, z as little-endian float32, the padding, and
    /// the colour as the wrapper copies it: the pixel's bytes reversed
    /// (blue, green, red), the fourth byte 0, so that the float32 `rgb`
    /// holds 0x00RRGGBB.
    fn push(&mut self, vertex: &[f32; 3], color: Option<[u8; 3]>) {
        for c in vertex {
            self.data.extend_from_slice(&c.to_le_bytes());
        }
        self.data.extend_from_slice(&[0; 4]);
        if let Some([r, g, b]) = color {
            self.data.extend_from_slice(&[b, g, r, 0]);
        }
        self.count += 1;
    }
}

/// The colour the wrapper gives a point with texture coordinates `uv` in
/// `image`: that of the pixel `uv` falls in (the coordinates times the
/// image's size, truncated: not `export_to_ply`'s rounding), none outside
/// the image.
fn wrapper_texture_color(image: &processing::Image, [u, v]: [f32; 2]) -> Option<[u8; 3]> {
    let inside = |c: f32| (0.0..=1.0).contains(&c);
    if !inside(u) || !inside(v) || image.width == 0 || image.height == 0 {
        return None;
    }
    // At u or v of exactly 1 the wrapper reads one pixel past the row (or
    // the image); the last pixel is taken instead.
    let x = ((u * image.width as f32) as u32).min(image.width - 1);
    let y = ((v * image.height as f32) as u32).min(image.height - 1);
    Some(processing::pixel_color(image, x as usize, y as usize))
}
