//! `--align-to` and the colour of point clouds: frames made ready with the
//! other frames of their frameset before they are rendered.
//!
//! `--align-to STREAM` (a video stream other than depth, say Color): each
//! depth frame becomes depth aligned to that stream's image (its size and
//! intrinsics), as `rs.align(rs.stream.color)` makes it; nothing else
//! changes. `--align-to Depth`: each other video frame becomes that frame
//! aligned to the depth frame of its frameset (the depth image's size), as
//! `rs.align(rs.stream.depth)` makes it; a frame whose frameset has no
//! depth frame is not written (counted in the report). Point clouds get
//! their colour from the colour frame of their frameset.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use rsbag::device::{Extrinsics, Format, Frame, ProfileKind, StreamId, StreamKind};
use rsbag::processing::{Alignment, PointCloudMaker};
use rsbag::recording::{FrameReader, RecordedFrame, Recording};
use rsbag::{Error, Result};

/// Where a point cloud's colour comes from.
pub struct Texture<'p> {
    /// The colour frame of the depth frame's frameset.
    pub frame: Frame,
    /// The depth stream's point clouds, mapped to the colour camera.
    pub maker: &'p PointCloudMaker,
}

/// A frame ready to be rendered.
pub struct Prepared<'p> {
    pub frame: RecordedFrame,
    /// For a depth frame written as a point cloud: its colour.
    pub texture: Option<Texture<'p>>,
}

/// Prepares frames for `--align-to` and coloured point clouds; shared by
/// the threads that render (everything it needs is made up front).
pub struct Preparer {
    /// The stream images are aligned to.
    align_to: Option<StreamId>,
    /// The colour stream point clouds take their colour from, the depth
    /// stream they need, and each depth stream's cloud maker.
    texture: Option<StreamId>,
    depth: Option<StreamId>,
    makers: HashMap<StreamId, PointCloudMaker>,
    /// Alignments by (depth stream, other stream).
    alignments: HashMap<(StreamId, StreamId), Alignment>,
    /// Frames not written for want of a depth frame to align to.
    unpaired: BTreeMap<StreamId, u64>,
}

impl Preparer {
    /// For the `written` streams, `align_to` (a stream name) and, with
    /// `point_clouds`, the colour of point clouds (the first colour stream,
    /// where the recording relates it to depth).
    pub fn new(
        reader: &FrameReader,
        written: &BTreeSet<StreamId>,
        align_to: Option<&str>,
        point_clouds: bool,
    ) -> Result<Preparer> {
        let recording = reader.recording();
        let align_to = align_to.map(|name| target(reader, name)).transpose()?;
        let depth = depth_stream(reader);
        let texture = match align_to {
            Some(to) if point_clouds && to.kind != StreamKind::Depth => Some(to),
            _ if point_clouds => color_stream(reader),
            _ => None,
        };
        let is_depth = |s: &StreamId| recording.streams()[s].profile.format == Format::Z16;
        let mut alignments = HashMap::new();
        match align_to {
            Some(to) if to.kind != StreamKind::Depth => {
                for &d in written.iter().filter(|s| is_depth(s)) {
                    alignments.insert((d, to), Alignment::of_streams(recording, d, to)?);
                }
            }
            Some(to) => {
                for &s in written
                    .iter()
                    .filter(|s| !is_depth(s) && is_image_stream(reader, **s))
                {
                    alignments.insert((to, s), Alignment::of_streams(recording, to, s)?);
                }
            }
            None => {}
        }
        let mut makers = HashMap::new();
        if let Some(color) = texture {
            let aligned = align_to == Some(color);
            for &d in written.iter().filter(|s| is_depth(s)) {
                makers.insert(d, texture_maker(reader, d, color, aligned)?);
            }
        }
        Ok(Preparer {
            align_to,
            texture,
            depth,
            makers,
            alignments,
            unpaired: BTreeMap::new(),
        })
    }

    /// Streams read besides those written: the partners frames are
    /// aligned to or coloured by.
    pub fn partners(&self) -> Vec<StreamId> {
        match self.align_to {
            Some(to) if to.kind == StreamKind::Depth => vec![to],
            _ => self.texture.into_iter().chain(self.depth).collect(),
        }
    }

    /// Whether frames must be read in framesets (a frame needs another).
    pub fn needs_framesets(&self) -> bool {
        self.texture.is_some() || self.align_to.is_some_and(|to| to.kind == StreamKind::Depth)
    }

    /// `frame` ready to be rendered, `set` being the frames of its
    /// frameset; None when it has no depth frame to be aligned to (count
    /// it with [`Self::note_unpaired`]).
    pub fn prepare(
        &self,
        frame: &RecordedFrame,
        set: &[RecordedFrame],
    ) -> Result<Option<Prepared<'_>>> {
        let mut ready = frame.clone();
        let stream = frame.stream;
        match self.align_to {
            Some(to) if to.kind != StreamKind::Depth => {
                if let Some(alignment) = self.alignments.get(&(stream, to)) {
                    ready.frame = alignment.depth_to_other(&frame.frame)?;
                }
            }
            Some(to) => {
                if let Some(alignment) = self.alignments.get(&(to, stream)) {
                    let Some(depth) = set.iter().find(|f| f.stream == to) else {
                        return Ok(None);
                    };
                    ready.frame = alignment.other_to_depth(&depth.frame, &frame.frame)?;
                }
            }
            None => {}
        }
        let texture = match (self.texture, self.makers.get(&stream)) {
            (Some(color), Some(maker)) => set.iter().find(|f| f.stream == color).map(|c| Texture {
                frame: c.frame.clone(),
                maker,
            }),
            _ => None,
        };
        Ok(Some(Prepared {
            frame: ready,
            texture,
        }))
    }

    /// Count a frame [`Self::prepare`] left out.
    pub fn note_unpaired(&mut self, stream: StreamId) {
        *self.unpaired.entry(stream).or_default() += 1;
    }

    /// Lines for the report: where colour came from, frames left out.
    pub fn notes(&self) -> Vec<String> {
        let colored = self.texture.map(|color| {
            format!("point clouds coloured from {color} (the frame of each frameset)")
        });
        let unpaired = self.unpaired.iter().map(|(stream, n)| {
            format!("not written: {n} {stream} frames with no depth frame to align to")
        });
        colored.into_iter().chain(unpaired).collect()
    }
}

/// How depth stream `depth` (aligned to the colour camera, or as recorded)
/// takes its colour from `color`.
fn texture_maker(
    reader: &FrameReader,
    depth: StreamId,
    color: StreamId,
    aligned: bool,
) -> Result<PointCloudMaker> {
    let recording = reader.recording();
    if !aligned {
        return PointCloudMaker::of_streams(recording, depth, Some(color));
    }
    // Depth aligned to colour has the colour camera's intrinsics and place.
    let intrinsics = recording.streams()[&color]
        .profile
        .intrinsics()
        .ok_or_else(|| {
            Error::BadDescription(format!("stream {color} has no intrinsics recorded"))
        })?;
    let units = recording.depth_units(depth);
    Ok(PointCloudMaker::new(&intrinsics, units).map_to(&intrinsics, &Extrinsics::IDENTITY))
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

/// The first depth stream.
fn depth_stream(reader: &FrameReader) -> Option<StreamId> {
    let streams = reader.recording().streams();
    streams
        .iter()
        .find(|(_, s)| s.profile.format == Format::Z16)
        .map(|(id, _)| *id)
}

/// The first colour stream the recording relates to a depth stream.
fn color_stream(reader: &FrameReader) -> Option<StreamId> {
    color_stream_of(reader.recording(), depth_stream(reader)?)
}

/// The first colour stream the recording relates to depth stream `depth`:
/// where point clouds of it take their colour (also the viewer's 3D view).
pub(crate) fn color_stream_of(recording: &Recording, depth: StreamId) -> Option<StreamId> {
    recording
        .streams()
        .iter()
        .filter(|(id, s)| id.kind == StreamKind::Color && s.profile.intrinsics().is_some())
        .map(|(id, _)| *id)
        .find(|id| recording.extrinsics(depth, *id).is_some())
}

/// Whether `stream` holds images librealsense aligns (1 to 4 bytes a
/// pixel).
fn is_image_stream(reader: &FrameReader, stream: StreamId) -> bool {
    let profile = &reader.recording().streams()[&stream].profile;
    matches!(profile.kind, ProfileKind::Video { .. })
        && profile
            .format
            .bytes_per_pixel()
            .is_some_and(|b| (1..=4).contains(&b))
}
