//! Processing set up from a recording's description: intrinsics,
//! extrinsics and depth units of the streams involved. Here, beside the
//! recording, so that [`crate::processing`] stays pure functions over
//! frames and values.

use std::path::PathBuf;

#[cfg(doc)]
use super::SessionQuery;
use super::{Recording, Session, SessionFrame};
use crate::device::{Extrinsics, Format, Intrinsics, StreamId};
use crate::processing::filters::{FilterSpec, SensorFacts, StreamFilters};
use crate::processing::{Alignment, PointCloudMaker};
use crate::{Error, Result};

impl SensorFacts {
    /// The facts of the sensor recording `stream` of `recording` (its
    /// options as recorded at the start).
    pub fn of_stream(recording: &Recording, stream: StreamId) -> SensorFacts {
        let sensor = recording.streams().get(&stream).map(|s| s.sensor);
        let options = sensor
            .and_then(|s| recording.snapshot().sensors.get(s))
            .map(|s| s.options.as_slice())
            .unwrap_or_default();
        SensorFacts {
            depth_units: recording.depth_units(stream),
            ..SensorFacts::from_options(options)
        }
    }
}

impl StreamFilters {
    /// `specs` for every Z16 depth stream of `recording`.
    pub fn of_recording(recording: &Recording, specs: &[FilterSpec]) -> StreamFilters {
        let depth_streams = (recording.streams().iter())
            .filter(|(_, s)| s.profile.format == Format::Z16)
            .map(|(&id, _)| (id, SensorFacts::of_stream(recording, id)));
        StreamFilters::new(depth_streams, specs)
    }
}

impl Session {
    /// `specs` for each camera's depth streams, each with a state of its
    /// own: each frame through its camera's chain, as
    /// [`SessionQuery::framesets_with`] takes it, to filter each camera as
    /// librealsense filters its file alone (every frame, in recorded
    /// order). An error names the frame's file.
    pub fn filter_each_camera(
        &self,
        specs: &[FilterSpec],
    ) -> impl FnMut(SessionFrame) -> Result<SessionFrame> + Send + 'static {
        let mut cameras: Vec<(StreamFilters, PathBuf)> = (self.files().iter())
            .map(|f| {
                let filters = StreamFilters::of_recording(f.reader().recording(), specs);
                (filters, f.path().to_owned())
            })
            .collect();
        move |mut frame| {
            let (filters, path) = &mut cameras[frame.file];
            frame.recorded.frame =
                (filters.apply(frame.recorded.frame)).map_err(|e| e.in_file(path.as_path()))?;
            Ok(frame)
        }
    }
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
            recording.depth_units(depth),
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
            recording.depth_units(depth),
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
