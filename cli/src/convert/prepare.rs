//! `--align-to` and the colour of point clouds: frames made ready with the
//! other frames of their frameset before they are written.
//!
//! `--align-to STREAM` (a video stream other than depth, say Color): each
//! depth frame becomes depth aligned to that stream's image (its size and
//! intrinsics), as `rs.align(rs.stream.color)` makes it; nothing else
//! changes. `--align-to Depth`: each other video frame becomes that frame
//! aligned to the depth frame of its frameset (the depth image's size), as
//! `rs.align(rs.stream.depth)` makes it; a frame whose frameset has no
//! depth frame is not written (counted in the report). Point clouds get
//! their colour from the colour frame of their frameset.

use std::collections::{BTreeMap, HashMap};

use rsbag::device::{Extrinsics, Format, Frame, ProfileKind, StreamId, StreamKind};
use rsbag::playback::{FrameReader, RecordedFrame};
use rsbag::processing::{Alignment, PointCloudMaker};
use rsbag::{Error, Result};

/// Where a point cloud's colour comes from.
pub struct Texture {
    /// The colour frame of the depth frame's frameset.
    pub frame: Frame,
    /// How the depth camera relates to the colour camera (the identity once
    /// depth was aligned to colour).
    pub maker: PointCloudMaker,
}

/// A frame ready to be written.
pub struct Prepared {
    pub frame: RecordedFrame,
    /// For a depth frame written as a point cloud: its colour.
    pub texture: Option<Texture>,
}

/// Prepares frames for `--align-to` and coloured point clouds.
pub struct Preparer<'r> {
    reader: &'r FrameReader,
    /// The stream images are aligned to.
    align_to: Option<StreamId>,
    /// The colour stream point clouds take their colour from.
    texture: Option<StreamId>,
    alignments: HashMap<(StreamId, StreamId), Alignment>,
    /// Frames not written for want of a depth frame to align to.
    unpaired: BTreeMap<StreamId, u64>,
}

impl<'r> Preparer<'r> {
    /// For `align_to` (a stream name) and, with `point_clouds`, the colour
    /// of point clouds (the first colour stream, where the recording
    /// relates it to depth).
    pub fn new(
        reader: &'r FrameReader,
        align_to: Option<&str>,
        point_clouds: bool,
    ) -> Result<Preparer<'r>> {
        let align_to = align_to.map(|name| target(reader, name)).transpose()?;
        let texture = match align_to {
            Some(to) if point_clouds && to.kind != StreamKind::Depth => Some(to),
            _ if point_clouds => color_stream(reader),
            _ => None,
        };
        Ok(Preparer {
            reader,
            align_to,
            texture,
            alignments: HashMap::new(),
            unpaired: BTreeMap::new(),
        })
    }

    /// Streams read besides those written: the partners frames are
    /// aligned to or coloured by.
    pub fn partners(&self) -> Vec<StreamId> {
        let depth = self.depth_stream();
        match self.align_to {
            Some(to) if to.kind == StreamKind::Depth => vec![to],
            _ => self
                .texture
                .into_iter()
                .chain(depth.filter(|_| self.texture.is_some()))
                .collect(),
        }
    }

    /// Whether frames must be read in framesets (a frame needs another).
    pub fn needs_framesets(&self) -> bool {
        self.texture.is_some() || self.align_to.is_some_and(|to| to.kind == StreamKind::Depth)
    }

    /// `frame` ready to be written (None: not written), `set` being the
    /// frames of its frameset.
    pub fn prepare(
        &mut self,
        frame: &RecordedFrame,
        set: &[RecordedFrame],
    ) -> Result<Option<Prepared>> {
        let is_depth = frame.frame.profile.format == Format::Z16;
        let mut ready = frame.clone();
        let mut aligned = false;
        match self.align_to {
            Some(to) if to.kind != StreamKind::Depth && is_depth => {
                ready.frame = self
                    .alignment(frame.stream, to)?
                    .depth_to_other(&frame.frame)?;
                aligned = true;
            }
            Some(to) if to.kind == StreamKind::Depth && !is_depth && is_image(&frame.frame) => {
                let Some(depth) = set.iter().find(|f| f.stream == to) else {
                    *self.unpaired.entry(frame.stream).or_default() += 1;
                    return Ok(None);
                };
                let alignment = self.alignment(to, frame.stream)?;
                ready.frame = alignment.other_to_depth(&depth.frame, &frame.frame)?;
            }
            _ => {}
        }
        let texture = match self.texture {
            Some(color) if is_depth => set
                .iter()
                .find(|f| f.stream == color)
                .map(|c| self.texture(&ready.frame, frame.stream, c, aligned))
                .transpose()?,
            _ => None,
        };
        Ok(Some(Prepared {
            frame: ready,
            texture,
        }))
    }

    /// Lines for the report: frames left out.
    pub fn notes(&self) -> Vec<String> {
        let colored = self.texture.map(|color| {
            format!("point clouds coloured from {color} (the frame of each frameset)")
        });
        let unpaired = self.unpaired.iter().map(|(stream, n)| {
            format!("not written: {n} {stream} frames with no depth frame to align to")
        });
        colored.into_iter().chain(unpaired).collect()
    }

    fn alignment(&mut self, depth: StreamId, other: StreamId) -> Result<&Alignment> {
        let recording = self.reader.recording();
        Ok(match self.alignments.entry((depth, other)) {
            std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(Alignment::of_streams(recording, depth, other)?)
            }
        })
    }

    /// How `depth` (aligned to the colour camera, or as recorded) takes
    /// its colour from `color`.
    fn texture(
        &self,
        depth: &Frame,
        stream: StreamId,
        color: &RecordedFrame,
        aligned: bool,
    ) -> Result<Texture> {
        let recording = self.reader.recording();
        let units = rsbag::processing::depth_units(recording, stream);
        let intrinsics = |frame: &Frame| {
            frame.profile.intrinsics().ok_or_else(|| {
                Error::BadDescription(format!(
                    "stream {} has no intrinsics recorded",
                    frame.profile.stream
                ))
            })
        };
        let extrinsics = if aligned {
            Extrinsics::IDENTITY
        } else {
            recording.extrinsics(stream, color.stream).ok_or_else(|| {
                Error::BadDescription(format!(
                    "the recording does not say where {} is from {stream} (no extrinsics)",
                    color.stream
                ))
            })?
        };
        let maker = PointCloudMaker::new(&intrinsics(depth)?, units)
            .map_to(&intrinsics(&color.frame)?, &extrinsics);
        Ok(Texture {
            frame: color.frame.clone(),
            maker,
        })
    }

    fn depth_stream(&self) -> Option<StreamId> {
        let streams = self.reader.recording().streams();
        streams
            .iter()
            .find(|(_, s)| s.profile.format == Format::Z16)
            .map(|(id, _)| *id)
    }
}

/// The one video stream `name` stands for, with intrinsics.
fn target(reader: &FrameReader, name: &str) -> Result<StreamId> {
    let found = reader.find_streams(name)?;
    let [one] = found.as_slice() else {
        return Err(Error::InvalidArgument(format!(
            "--align-to {name:?} stands for {} streams; name one",
            found.len()
        )));
    };
    let profile = &reader.recording().streams()[one].profile;
    if !matches!(profile.kind, ProfileKind::Video { .. }) || profile.intrinsics().is_none() {
        return Err(Error::InvalidArgument(format!(
            "--align-to {one}: not an image stream with intrinsics"
        )));
    }
    Ok(*one)
}

/// The first colour stream the recording relates to a depth stream.
fn color_stream(reader: &FrameReader) -> Option<StreamId> {
    let recording = reader.recording();
    let streams = recording.streams();
    let depth = streams
        .iter()
        .find(|(_, s)| s.profile.format == Format::Z16)?
        .0;
    streams
        .iter()
        .filter(|(id, s)| id.kind == StreamKind::Color && s.profile.intrinsics().is_some())
        .map(|(id, _)| *id)
        .find(|id| recording.extrinsics(*depth, *id).is_some())
}

/// Whether `frame` is an image librealsense aligns (1 to 4 bytes a pixel).
fn is_image(frame: &Frame) -> bool {
    matches!(frame.profile.kind, ProfileKind::Video { .. })
        && frame
            .profile
            .format
            .bytes_per_pixel()
            .is_some_and(|b| (1..=4).contains(&b))
}
