//! A [`Device`] that generates moving test patterns: the default device of
//! demos, tests and benchmarks, and the model for wrapping a real camera.
//!
//! [`SyntheticDevice::default`] looks like a D435i: a `Stereo Module`
//! (depth Z16, infrared 1 and 2 Y8), an `RGB Camera` (RGB8, BGR8, YUYV,
//! RGBA8) and a `Motion Module` (accelerometer and gyroscope), with
//! intrinsics for every profile, extrinsics between every pair of streams,
//! options and camera info. [`SyntheticConfig`] changes the default modes
//! and adds a `Tracking Module` (6-DoF pose).
//!
//! Each opened stream runs on its own thread and delivers frames at the
//! profile's rate. Frames follow the ideal schedule: frame numbers count
//! from 1 on every [`start`](Sensor::start), and the (`Hardware Clock`)
//! timestamp of frame `n` is `timestamp_base_ms + (n - 1) * 1000 / fps`,
//! whatever the host's timing; only `system_time` and the `Time Of Arrival`
//! metadata are host time. The content is a deterministic function of the
//! profile, the frame number and a few options (`Depth Units` scales depth
//! values, `Emitter Enabled` shows the infrared dot pattern), so
//! [`SyntheticDevice::render`] produces the same frame again without
//! streaming:
//!
//! - depth: a tilted plane moving back and forth with a square in front
//!   moving in a circle (millimeters with the default depth units), and a
//!   band of zeros on the left edge;
//! - infrared: a dim texture and the projector's dot grid, both drifting;
//! - color: scrolling color bars under a scrolling brightness gradient;
//! - accelerometer: gravity (0, -9.81, 0) m/s² plus small oscillations;
//!   gyroscope: small oscillations; pose: a walk around a 1 m circle.
//!
//! # Example
//!
//! ```
//! use std::sync::atomic::{AtomicUsize, Ordering};
//! use std::sync::Arc;
//! use std::time::Duration;
//!
//! use rsbag::device::synthetic::{SyntheticConfig, SyntheticDevice, DEPTH};
//! use rsbag::device::{Device, Sensor};
//!
//! # fn main() -> rsbag::Result<()> {
//! let device = SyntheticDevice::new(SyntheticConfig::default())?;
//! let stereo = device.sensors()[0].clone();
//! let depth = device.default_profile(DEPTH).expect("the device has depth");
//! stereo.open(&[depth])?;
//!
//! let frames = Arc::new(AtomicUsize::new(0));
//! let counter = Arc::clone(&frames);
//! stereo.start(Arc::new(move |_frame| {
//!     counter.fetch_add(1, Ordering::Relaxed);
//! }))?;
//! std::thread::sleep(Duration::from_millis(200));
//! stereo.stop()?;
//! stereo.close()?;
//!
//! println!("{} depth frames", frames.load(Ordering::Relaxed));
//! # Ok(()) }
//! ```

mod config;
mod pattern;
mod sensor;

use std::sync::Arc;

use bytes::BytesMut;

use super::{
    CameraInfo, Device, Extrinsics, Frame, Notification, Sensor, StreamId, StreamKind,
    StreamProfile,
};
use crate::{Error, Result};

pub use config::SyntheticConfig;
pub use sensor::SyntheticSensor;

/// The depth stream.
pub const DEPTH: StreamId = StreamId::new(StreamKind::Depth, 0);
/// The left infrared stream (aligned with depth).
pub const INFRARED_1: StreamId = StreamId::new(StreamKind::Infrared, 1);
/// The right infrared stream.
pub const INFRARED_2: StreamId = StreamId::new(StreamKind::Infrared, 2);
/// The color stream.
pub const COLOR: StreamId = StreamId::new(StreamKind::Color, 0);
/// The accelerometer stream.
pub const ACCEL: StreamId = StreamId::new(StreamKind::Accel, 0);
/// The gyroscope stream.
pub const GYRO: StreamId = StreamId::new(StreamKind::Gyro, 0);
/// The 6-DoF pose stream (with [`SyntheticConfig::pose`]).
pub const POSE: StreamId = StreamId::new(StreamKind::Pose, 0);

/// A camera that streams deterministic, moving test patterns (see the
/// [module documentation](self)).
pub struct SyntheticDevice {
    config: SyntheticConfig,
    info: CameraInfo,
    sensors: Vec<Arc<SyntheticSensor>>,
    /// Each stream's extrinsics from depth (depth to stream).
    poses: Vec<(StreamId, Extrinsics)>,
}

impl SyntheticDevice {
    /// A device as `config` describes it; an error if a configured mode
    /// cannot be produced (zero or huge sizes or rates, odd color width).
    pub fn new(config: SyntheticConfig) -> Result<SyntheticDevice> {
        config.validate()?;
        Ok(Self::build(config))
    }

    /// Build from a validated configuration.
    fn build(config: SyntheticConfig) -> SyntheticDevice {
        let sensors = config
            .sensors()
            .into_iter()
            .map(|spec| {
                Arc::new(SyntheticSensor::new(
                    spec.name,
                    spec.profiles,
                    spec.options,
                    config.timestamp_base_ms,
                    config.drop_late_frames,
                ))
            })
            .collect();
        SyntheticDevice {
            info: config.device_info(),
            poses: config.stream_poses(),
            sensors,
            config,
        }
    }

    /// The configuration the device was built from.
    pub fn config(&self) -> &SyntheticConfig {
        &self.config
    }

    /// Sensor `index` (in [`Device::sensors`] order), with its synthetic
    /// extras.
    pub fn sensor(&self, index: usize) -> Option<&Arc<SyntheticSensor>> {
        self.sensors.get(index)
    }

    /// The default profile of `stream`, if the device has the stream.
    pub fn default_profile(&self, stream: StreamId) -> Option<StreamProfile> {
        self.sensors
            .iter()
            .flat_map(|s| s.profiles())
            .find(|p| p.stream == stream && p.is_default)
    }

    /// Deliver `notification` to the notification listeners of sensor
    /// `sensor` (on the calling thread), as if the sensor had raised it.
    pub fn raise_notification(&self, sensor: usize, notification: Notification) -> Result<()> {
        let target = self.sensors.get(sensor).ok_or_else(|| {
            Error::InvalidArgument(format!(
                "sensor index {sensor} is out of range (the device has {})",
                self.sensors.len()
            ))
        })?;
        target.raise_notification(&notification);
        Ok(())
    }

    /// Frame `number` (from 1) of `profile` as streaming would deliver it
    /// with the sensor's current options: same data, timestamp and
    /// metadata, except the host times (`system_time`, `Time Of Arrival`),
    /// which are now.
    ///
    /// `profile` needs a stream of this device in a format the stream
    /// supports, but may have any resolution and rate, which suits
    /// benchmarks.
    pub fn render(&self, profile: &StreamProfile, number: u64) -> Result<Frame> {
        self.render_into(profile, number, &mut BytesMut::new())
    }

    /// [`render`](Self::render), writing the pixels into `buffer`. The
    /// frame takes the bytes from `buffer`; once every copy of an earlier
    /// frame rendered into it is dropped, its allocation is reused.
    pub fn render_into(
        &self,
        profile: &StreamProfile,
        number: u64,
        buffer: &mut BytesMut,
    ) -> Result<Frame> {
        let sensor = self
            .sensors
            .iter()
            .find(|s| s.has_stream(profile.stream))
            .ok_or_else(|| {
                Error::InvalidArgument(format!("the device has no {} stream", profile.stream))
            })?;
        pattern::render_frame(
            profile,
            number,
            &sensor.render_params(),
            sensor.timestamp_base_ms(),
            buffer,
        )
    }

    /// The extrinsics from depth to `stream`.
    fn pose_of(&self, stream: StreamId) -> Option<&Extrinsics> {
        self.poses
            .iter()
            .find(|(s, _)| *s == stream)
            .map(|(_, pose)| pose)
    }
}

impl Default for SyntheticDevice {
    /// The D435i-like device of [`SyntheticConfig::default`].
    fn default() -> Self {
        Self::build(SyntheticConfig::default())
    }
}

impl std::fmt::Debug for SyntheticDevice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SyntheticDevice")
            .field("config", &self.config)
            .field("sensors", &self.sensors)
            .finish()
    }
}

impl Device for SyntheticDevice {
    fn info(&self) -> CameraInfo {
        self.info.clone()
    }

    fn sensors(&self) -> Vec<Arc<dyn Sensor>> {
        self.sensors
            .iter()
            .map(|s| Arc::clone(s) as Arc<dyn Sensor>)
            .collect()
    }

    /// Composed from each stream's pose relative to depth: `from` back to
    /// depth, then depth to `to`.
    fn extrinsics(&self, from: StreamId, to: StreamId) -> Option<Extrinsics> {
        let (from, to) = (self.pose_of(from)?, self.pose_of(to)?);
        Some(from.inverse().then(to))
    }
}
