//! Processing set up from a recording's description: intrinsics,
//! extrinsics and depth units of the streams involved.

use super::{Alignment, PointCloudMaker};
use crate::device::{option_name, Extrinsics, Format, Intrinsics, StreamId};
use crate::playback::Recording;
use crate::{Error, Result};

/// Depth units assumed when a recording has no Depth Units option (the
/// D400 cameras' default).
const DEFAULT_DEPTH_UNITS: f32 = 0.001;

/// Metres per raw depth unit of `stream`: its sensor's Depth Units option
/// as recorded, or 0.001 (the D400 default) when there is none.
pub fn depth_units(recording: &Recording, stream: StreamId) -> f32 {
    let sensor = recording.streams().get(&stream).map(|s| s.sensor);
    sensor
        .and_then(|s| recording.snapshot().sensors.get(s))
        .and_then(|s| {
            s.options
                .iter()
                .find(|o| o.name == option_name::DEPTH_UNITS)
        })
        .map(|o| o.value)
        .filter(|&units| units > 0.0)
        .unwrap_or(DEFAULT_DEPTH_UNITS)
}

impl Alignment {
    /// The alignment of `recording`'s Z16 stream `depth` to its video
    /// stream `other`, from their recorded intrinsics, extrinsics and the
    /// depth units.
    pub fn of_streams(
        recording: &Recording,
        depth: StreamId,
        other: StreamId,
    ) -> Result<Alignment> {
        let depth_intrinsics = depth_intrinsics(recording, depth)?;
        let other_intrinsics = intrinsics(recording, other)?;
        let extrinsics = extrinsics(recording, depth, other)?;
        Ok(Alignment::new(
            &depth_intrinsics,
            depth_units(recording, depth),
            &other_intrinsics,
            &extrinsics,
        ))
    }
}

impl PointCloudMaker {
    /// Point clouds of `recording`'s Z16 stream `depth`, mapped to video
    /// stream `map_to` when given.
    pub fn of_streams(
        recording: &Recording,
        depth: StreamId,
        map_to: Option<StreamId>,
    ) -> Result<PointCloudMaker> {
        let maker = PointCloudMaker::new(
            &depth_intrinsics(recording, depth)?,
            depth_units(recording, depth),
        );
        Ok(match map_to {
            None => maker,
            Some(other) => maker.map_to(
                &intrinsics(recording, other)?,
                &extrinsics(recording, depth, other)?,
            ),
        })
    }
}

fn depth_intrinsics(recording: &Recording, stream: StreamId) -> Result<Intrinsics> {
    let recorded = recording
        .streams()
        .get(&stream)
        .ok_or_else(|| Error::InvalidArgument(format!("no stream {stream} in the recording")))?;
    if recorded.profile.format != Format::Z16 {
        return Err(Error::InvalidArgument(format!(
            "stream {stream} is {}, not Z16 depth",
            recorded.profile.format
        )));
    }
    intrinsics(recording, stream)
}

fn intrinsics(recording: &Recording, stream: StreamId) -> Result<Intrinsics> {
    let recorded = recording
        .streams()
        .get(&stream)
        .ok_or_else(|| Error::InvalidArgument(format!("no stream {stream} in the recording")))?;
    recorded
        .profile
        .intrinsics()
        .ok_or_else(|| Error::BadDescription(format!("stream {stream} has no intrinsics recorded")))
}

fn extrinsics(recording: &Recording, from: StreamId, to: StreamId) -> Result<Extrinsics> {
    recording.extrinsics(from, to).ok_or_else(|| {
        Error::BadDescription(format!(
            "the recording does not say where stream {to} is from stream {from} (no extrinsics)"
        ))
    })
}
