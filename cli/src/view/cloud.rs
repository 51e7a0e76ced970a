//! The 3D view's point cloud: a depth frame deprojected with the depth
//! intrinsics and coloured from the colour frame that goes with it, as
//! `rsbag convert --to ply` writes it (`rsbag::processing`'s point-cloud
//! code: the same vertices, the same colours); the page only draws it.
//!
//! Layout: the header's length (u32, little-endian), the header (UTF-8
//! JSON, padded with spaces so what follows is 4-byte aligned), then
//! `count` vertices (x, y, z as f32, little-endian, metres in the depth
//! camera's coordinates: x right, y down, z forward), then their `count`
//! colours (RGB, a byte each).

use rsbag::device::{Frame, StreamId};
use rsbag::processing::{image, is_kept_vertex, texture_color, PointCloudMaker};
use rsbag::recording::{FrameReader, RecordedFrame};
use rsbag::{Error, Result};
use serde_json::json;

use super::depth::DepthSettings;
use crate::convert::prepare::color_stream_of;

/// How a depth stream's point clouds are made and coloured: made once.
pub struct CloudMaker {
    depth: StreamId,
    units: f32,
    maker: PointCloudMaker,
    /// The colour stream the cloud takes its colours from (`None`: the
    /// colorizer's colours of the depth itself).
    color: Option<StreamId>,
}

impl CloudMaker {
    /// The point clouds of `depth`, coloured from the colour stream the
    /// recording relates it to, if any; an error when the recording lacks
    /// the depth intrinsics.
    pub fn new(reader: &FrameReader, depth: StreamId) -> Result<CloudMaker> {
        let recording = reader.recording();
        let color = color_stream_of(recording, depth);
        Ok(CloudMaker {
            depth,
            units: recording.depth_units(depth),
            maker: PointCloudMaker::of_streams(recording, depth, color)?,
            color,
        })
    }

    /// The depth stream.
    pub fn depth(&self) -> StreamId {
        self.depth
    }

    /// The cloud of depth frame `depth` (read from `reader`) as the page
    /// draws it, of its depth `processed` as `settings` ask
    /// ([`DepthSettings::process`]), keeping the vertices of every n-th
    /// pixel of every n-th row for at most `max_width` columns (none: all
    /// of them).
    pub fn encode(
        &self,
        reader: &FrameReader,
        depth: &RecordedFrame,
        processed: &Frame,
        settings: &DepthSettings,
        max_width: Option<u32>,
    ) -> Result<Vec<u8>> {
        // Filtered depth has its own size and intrinsics: its cloud is
        // coloured as depth, as `rsbag convert --to ply --filter` leaves it.
        let filtered = (!settings.filters.is_empty())
            .then(|| self.filtered_maker(processed))
            .transpose()?;
        let color = match filtered {
            Some(_) => None,
            None => self
                .color
                .map(|c| color_frame_of(reader, depth, c))
                .transpose()?
                .flatten(),
        };
        let (width, height) = processed.resolution().unwrap_or((0, 0));
        let step = max_width.map_or(1, |max| width.div_ceil(max).max(1));
        let cloud = filtered
            .as_ref()
            .unwrap_or(&self.maker)
            .calculate(processed)?;
        let kept = |i: usize| {
            let (x, y) = (i % width.max(1) as usize, i / width.max(1) as usize);
            step <= 1 || (x.is_multiple_of(step as usize) && y.is_multiple_of(step as usize))
        };
        let chosen: Vec<usize> = (0..cloud.vertices.len())
            .filter(|&i| kept(i) && is_kept_vertex(&cloud.vertices[i]))
            .collect();
        let colors: Vec<[u8; 3]> = match &color {
            Some(c) => {
                let picture = image(&c.frame)?;
                chosen
                    .iter()
                    .map(|&i| texture_color(&picture, cloud.texture_coordinates[i]))
                    .collect()
            }
            None => {
                let colorizer = settings.colorizer.unwrap_or_default();
                let rgb = colorizer.colorize_frame(processed, self.units)?.data;
                chosen
                    .iter()
                    .map(|&i| [rgb[3 * i], rgb[3 * i + 1], rgb[3 * i + 2]])
                    .collect()
            }
        };
        let intrinsics = processed.profile.intrinsics();
        let mut header = json!({
            "stream": super::model::stream_key(depth.stream),
            "index": depth.index,
            "number": depth.frame.number,
            "timestamp": depth.frame.timestamp,
            "t": depth.time.as_secs_f64(),
            "width": width,
            "height": height,
            "step": step.max(1),
            "count": chosen.len(),
            "intrinsics": intrinsics.map(|i| json!({ "fx": i.fx, "fy": i.fy, "ppx": i.ppx, "ppy": i.ppy })),
            "color": color.as_ref().map(|c| json!({
                "stream": super::model::stream_key(c.stream),
                "index": c.index,
                "number": c.frame.number,
                "timestamp": c.frame.timestamp,
            })),
        })
        .to_string();
        while !header.len().is_multiple_of(4) {
            header.push(' ');
        }
        let mut out = Vec::with_capacity(4 + header.len() + chosen.len() * 15);
        out.extend_from_slice(&(header.len() as u32).to_le_bytes());
        out.extend_from_slice(header.as_bytes());
        for &i in &chosen {
            for c in cloud.vertices[i] {
                out.extend_from_slice(&c.to_le_bytes());
            }
        }
        for rgb in colors {
            out.extend_from_slice(&rgb);
        }
        Ok(out)
    }

    /// The point clouds of filtered depth with `frame`'s intrinsics.
    fn filtered_maker(&self, frame: &Frame) -> Result<PointCloudMaker> {
        let intrinsics = frame.profile.intrinsics().ok_or_else(|| {
            Error::InvalidArgument(format!("stream {} has no intrinsics", frame.profile.stream))
        })?;
        Ok(PointCloudMaker::new(&intrinsics, self.units))
    }
}

/// The cloud makers of a recording's depth streams that have intrinsics
/// (the others have no 3D view).
pub fn makers(reader: &FrameReader) -> Vec<CloudMaker> {
    reader
        .streams()
        .into_iter()
        .filter(|&s| super::model::depth_units_of(reader.recording(), s).is_some())
        .filter_map(|s| CloudMaker::new(reader, s).ok())
        .collect()
}

/// The frame of colour stream `color` that goes with `depth` in a
/// frameset: the one whose timestamp is nearest, if nearer than half the
/// frame interval of the slower stream (as framesets pair frames); `None`
/// when there is none that near.
fn color_frame_of(
    reader: &FrameReader,
    depth: &RecordedFrame,
    color: StreamId,
) -> Result<Option<RecordedFrame>> {
    let recording = reader.recording();
    let fps = |s: StreamId| recording.streams().get(&s).map_or(0, |r| r.profile.fps);
    let slower = fps(depth.stream).min(fps(color));
    let tolerance_ms = 500.0 / f64::from(if slower == 0 { 30 } else { slower });
    let count = reader.frame_count(color)?;
    if count == 0 {
        return Ok(None);
    }
    // Frames recorded about when the depth frame was: the nearest by
    // recording time and its neighbours; where frames arrived out of step
    // with their timestamps (a busy machine), the look moves on by as
    // many frames as the nearest one's timestamp is off, a few times.
    let mut around = reader.frames_before(color, depth.time)?;
    for _ in 0..4 {
        let mut nearest: Option<(f64, u64, RecordedFrame)> = None;
        for index in around.saturating_sub(2)..(around + 2).min(count) {
            let Ok(candidate) = reader.frame(color, index) else {
                continue;
            };
            let apart = candidate.frame.timestamp - depth.frame.timestamp;
            if nearest
                .as_ref()
                .is_none_or(|(b, _, _)| apart.abs() < b.abs())
            {
                nearest = Some((apart, index, candidate));
            }
        }
        let Some((apart, index, frame)) = nearest else {
            return Ok(None);
        };
        if apart.abs() < tolerance_ms {
            return Ok(Some(frame));
        }
        let frames_off = (apart * f64::from(fps(color).max(1)) / 1000.0).round() as i64;
        let next = (index as i64 - frames_off).clamp(0, count as i64 - 1) as u64;
        if next == around {
            return Ok(None);
        }
        around = next;
    }
    Ok(None)
}
