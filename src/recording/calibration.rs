//! The calibration a recording holds, gathered in one place for export:
//! each stream's intrinsics and distortion (or IMU intrinsics), the
//! extrinsics between every pair of streams the recording relates, and
//! the depth units, with the values librealsense's playback device gives
//! (`get_intrinsics`, `get_motion_intrinsics`, `get_extrinsics_to`,
//! `get_depth_scale`). Writing them in a tool's own format is the front
//! ends' business (`rsbag calib`).

use crate::device::{camera_info, Extrinsics, Format, Intrinsics, MotionIntrinsics, StreamId};
use crate::device::{StreamKind, StreamProfile};

use super::Recording;

/// The calibration of a recording.
///
/// # Example
/// ```
/// use rsbag::recording::{calibration::Calibration, Recording};
/// # fn main() -> rsbag::Result<()> {
/// let recording = Recording::open("sample_bags/librealsense-depth-color-lz4.bag")?;
/// let calibration = Calibration::of(&recording);
/// let depth = calibration.streams.iter().find(|s| s.stream.kind.name() == "Depth");
/// assert!(depth.expect("a depth stream").depth_units.is_some());
/// assert!(!calibration.extrinsics.is_empty());
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Calibration {
    /// The recorded device's name (camera info `Name`), if recorded.
    pub device: Option<String>,
    /// The recorded device's serial number, if recorded.
    pub serial: Option<String>,
    /// Every recorded stream, in the recording's stream order.
    pub streams: Vec<StreamCalibration>,
    /// The transform between every ordered pair of distinct streams the
    /// recording relates, in stream order (`from`, then `to`).
    pub extrinsics: Vec<StreamExtrinsics>,
}

/// The calibration of one stream.
#[derive(Debug, Clone, PartialEq)]
pub struct StreamCalibration {
    /// The stream.
    pub stream: StreamId,
    /// Name of the sensor that recorded it.
    pub sensor: String,
    /// Its format.
    pub format: Format,
    /// Its frame rate.
    pub fps: u32,
    /// Width and height, for a video stream.
    pub resolution: Option<(u32, u32)>,
    /// Pinhole intrinsics and distortion, for a video stream recorded
    /// with them.
    pub intrinsics: Option<Intrinsics>,
    /// IMU intrinsics, for a motion stream recorded with them.
    pub motion_intrinsics: Option<MotionIntrinsics>,
    /// Metres per depth unit, for a depth stream whose sensor recorded a
    /// `Depth Units` option.
    pub depth_units: Option<f32>,
}

/// Where stream `to` is seen from stream `from`: the transform that maps a
/// point in `from`'s coordinates (metres) to `to`'s.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StreamExtrinsics {
    /// The stream whose coordinates are transformed.
    pub from: StreamId,
    /// The stream whose coordinates they become.
    pub to: StreamId,
    /// The transform (librealsense's column-major rotation, translation in
    /// metres).
    pub extrinsics: Extrinsics,
}

impl Calibration {
    /// Gather the calibration of `recording`.
    pub fn of(recording: &Recording) -> Calibration {
        let snapshot = recording.snapshot();
        let streams: Vec<StreamCalibration> = recording
            .streams()
            .iter()
            .map(|(&stream, recorded)| {
                let sensor = snapshot
                    .sensors
                    .get(recorded.sensor)
                    .and_then(|s| s.info.get(camera_info::NAME))
                    .unwrap_or("?");
                StreamCalibration::of(stream, sensor, &recorded.profile, recording)
            })
            .collect();
        let ids: Vec<StreamId> = streams.iter().map(|s| s.stream).collect();
        let extrinsics = ids
            .iter()
            .flat_map(|&from| ids.iter().map(move |&to| (from, to)))
            .filter(|(from, to)| from != to)
            .filter_map(|(from, to)| {
                recording
                    .extrinsics(from, to)
                    .map(|extrinsics| StreamExtrinsics {
                        from,
                        to,
                        extrinsics,
                    })
            })
            .collect();
        Calibration {
            device: snapshot.info.get(camera_info::NAME).map(str::to_owned),
            serial: snapshot
                .info
                .get(camera_info::SERIAL_NUMBER)
                .map(str::to_owned),
            streams,
            extrinsics,
        }
    }

    /// The transform from `from` to `to`, where the recording relates
    /// them (the identity from a stream to itself).
    pub fn extrinsics(&self, from: StreamId, to: StreamId) -> Option<Extrinsics> {
        if from == to {
            return Some(Extrinsics::IDENTITY);
        }
        self.extrinsics
            .iter()
            .find(|e| e.from == from && e.to == to)
            .map(|e| e.extrinsics)
    }
}

impl StreamCalibration {
    fn of(
        stream: StreamId,
        sensor: &str,
        profile: &StreamProfile,
        recording: &Recording,
    ) -> StreamCalibration {
        StreamCalibration {
            stream,
            sensor: sensor.to_owned(),
            format: profile.format,
            fps: profile.fps,
            resolution: profile.resolution(),
            intrinsics: profile.intrinsics(),
            motion_intrinsics: profile.motion_intrinsics(),
            depth_units: (stream.kind == StreamKind::Depth)
                .then(|| recording.recorded_depth_units(stream))
                .flatten(),
        }
    }
}
