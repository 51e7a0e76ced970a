//! The device model shared by live cameras, the recorder and playback.
//!
//! A [`Device`] has camera info and [`Sensor`]s; a sensor has options and
//! [`StreamProfile`]s and streams [`Frame`]s to a callback once its profiles
//! are opened and it is started. Names follow librealsense (`Depth`,
//! `Z16`, `Hardware Clock`, `Depth Units`…) so that files and users agree.
//!
//! [`synthetic::SyntheticDevice`] is a complete implementation that
//! generates moving test patterns; it is the model for wrapping a real
//! camera.

mod frame;
mod names;
mod profile;
pub mod synthetic;

use std::sync::Arc;

pub use frame::{motion_bytes, CombinedMotion, Frame, MotionSample, Pose};
pub use names::{
    camera_info, metadata_key, option_name, option_rank, Distortion, Format, StreamKind,
    TimestampDomain,
};
pub use profile::{Extrinsics, Intrinsics, MotionIntrinsics, ProfileKind, StreamId, StreamProfile};

use crate::Result;

/// Receives the frames of a started sensor, on the sensor's thread.
pub type FrameCallback = Arc<dyn Fn(Frame) + Send + Sync>;

/// Receives option changes (`sensor option name`, new value).
pub type OptionCallback = Arc<dyn Fn(&str, f32) + Send + Sync>;

/// Receives notifications.
pub type NotificationCallback = Arc<dyn Fn(&Notification) + Send + Sync>;

/// Key/value camera info (`rs2_camera_info`), in the order given.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CameraInfo(pub Vec<(String, String)>);

impl CameraInfo {
    /// Camera info from key/value pairs.
    pub fn new<K: Into<String>, V: Into<String>>(pairs: impl IntoIterator<Item = (K, V)>) -> Self {
        CameraInfo(
            pairs
                .into_iter()
                .map(|(k, v)| (k.into(), v.into()))
                .collect(),
        )
    }

    /// The value of `key` (see [`camera_info`] for the well-known keys).
    pub fn get(&self, key: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Set `key` to `value`, replacing an earlier value.
    pub fn set(&mut self, key: &str, value: &str) {
        match self.0.iter_mut().find(|(k, _)| k == key) {
            Some(entry) => entry.1 = value.to_owned(),
            None => self.0.push((key.to_owned(), value.to_owned())),
        }
    }

    /// The pairs.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }
}

/// The range of values an option accepts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OptionRange {
    /// Smallest value.
    pub min: f32,
    /// Largest value.
    pub max: f32,
    /// Step between values.
    pub step: f32,
    /// Default value.
    pub default: f32,
}

impl OptionRange {
    /// A range that holds only `value` (what a recorded option has).
    pub fn fixed(value: f32) -> Self {
        OptionRange {
            min: value,
            max: value,
            step: 0.0,
            default: value,
        }
    }
}

/// A sensor option with its current value (`rs2_option`).
#[derive(Debug, Clone, PartialEq)]
pub struct SensorOption {
    /// librealsense's name, e.g. `Depth Units` (see [`option_name`]).
    pub name: String,
    /// Current value.
    pub value: f32,
    /// Accepted values.
    pub range: OptionRange,
    /// Human description.
    pub description: String,
    /// Whether the option can only be read.
    pub read_only: bool,
}

impl SensorOption {
    /// Frames Queue Size at its default (16, of 0 to 32): an option every
    /// librealsense sensor has, given to a sensor that has none where
    /// librealsense needs one (its `.db3` reader crashes without).
    pub fn frames_queue_size() -> SensorOption {
        SensorOption {
            name: option_name::FRAMES_QUEUE_SIZE.into(),
            value: 16.0,
            range: OptionRange {
                min: 0.0,
                max: 32.0,
                step: 1.0,
                default: 16.0,
            },
            description: "Max number of frames you can hold at a given time. Increasing this \
                          number will reduce frame drops but increase latency, and vice versa"
                .into(),
            read_only: false,
        }
    }
}

/// Metres per raw depth unit assumed where a recording has no Depth Units
/// option: the D400 cameras' default.
pub const DEFAULT_DEPTH_UNITS: f32 = 0.001;

/// The Depth Units option among a sensor's `options` (metres per raw depth
/// unit); 0 when there is none, the value frame metadata then records.
pub fn depth_units_of(options: &[SensorOption]) -> f32 {
    options
        .iter()
        .find(|o| o.name == option_name::DEPTH_UNITS)
        .map_or(0.0, |o| o.value)
}

/// An event a sensor reports (`rs2_notification`).
#[derive(Debug, Clone, PartialEq)]
pub struct Notification {
    /// Category, as librealsense names it (e.g. `Hardware Error`).
    pub category: String,
    /// Severity, as librealsense names it (e.g. `Warn`).
    pub severity: String,
    /// Human description.
    pub description: String,
    /// When it happened, ms since the Unix epoch.
    pub timestamp: f64,
    /// Extra data, often JSON.
    pub serialized_data: String,
}

/// Writes, inside an `impl Sensor for …` of a sensor that wraps another,
/// the [`Sensor`] methods it forwards unchanged to the wrapped sensor
/// `self.$inner`: `info`, `profiles`, `options`, `set_option` and the
/// option and notification listeners.
#[macro_export]
macro_rules! forward_sensor_description {
    ($inner:ident) => {
        fn info(&self) -> $crate::device::CameraInfo {
            self.$inner.info()
        }

        fn profiles(&self) -> Vec<$crate::device::StreamProfile> {
            self.$inner.profiles()
        }

        fn options(&self) -> Vec<$crate::device::SensorOption> {
            self.$inner.options()
        }

        fn set_option(&self, name: &str, value: f32) -> $crate::Result<()> {
            self.$inner.set_option(name, value)
        }

        fn add_option_listener(&self, callback: $crate::device::OptionCallback) {
            self.$inner.add_option_listener(callback)
        }

        fn add_notification_listener(&self, callback: $crate::device::NotificationCallback) {
            self.$inner.add_notification_listener(callback)
        }
    };
}

/// One sensor of a device: options, profiles and streaming.
///
/// Streaming follows librealsense: [`open`](Sensor::open) a set of profiles,
/// [`start`](Sensor::start) with a callback, [`stop`](Sensor::stop),
/// [`close`](Sensor::close). Every method may be called from any thread.
pub trait Sensor: Send + Sync {
    /// Camera info of the sensor (at least its `Name`).
    fn info(&self) -> CameraInfo;

    /// The sensor's name.
    fn name(&self) -> String {
        self.info()
            .get(camera_info::NAME)
            .unwrap_or_default()
            .to_owned()
    }

    /// Every profile the sensor can stream.
    fn profiles(&self) -> Vec<StreamProfile>;

    /// Every option with its current value.
    fn options(&self) -> Vec<SensorOption>;

    /// Set an option; read-only options and values out of range are errors.
    fn set_option(&self, name: &str, value: f32) -> Result<()>;

    /// Call `callback` whenever an option changes.
    fn add_option_listener(&self, callback: OptionCallback);

    /// Call `callback` for each notification the sensor raises.
    fn add_notification_listener(&self, callback: NotificationCallback);

    /// Choose the profiles to stream (at most one per stream).
    fn open(&self, profiles: &[StreamProfile]) -> Result<()>;

    /// Start streaming the opened profiles to `callback`.
    fn start(&self, callback: FrameCallback) -> Result<()>;

    /// Stop streaming; no frame is delivered after this returns.
    fn stop(&self) -> Result<()>;

    /// Release the opened profiles.
    fn close(&self) -> Result<()>;

    /// The profiles currently opened.
    fn active_profiles(&self) -> Vec<StreamProfile>;
}

/// A camera, a recorder around one, or a bag played back.
pub trait Device: Send + Sync {
    /// Camera info of the device (name, serial number, firmware…).
    fn info(&self) -> CameraInfo;

    /// The device's sensors, in a fixed order.
    fn sensors(&self) -> Vec<Arc<dyn Sensor>>;

    /// The transform from stream `from`'s coordinates to stream `to`'s,
    /// where the device knows it.
    fn extrinsics(&self, from: StreamId, to: StreamId) -> Option<Extrinsics>;
}

/// A plain description of a device at one moment: what a recording stores
/// as its device snapshot, and what tests compare.
#[derive(Debug, Clone, PartialEq)]
pub struct DeviceSnapshot {
    /// Device camera info.
    pub info: CameraInfo,
    /// Each sensor's description.
    pub sensors: Vec<SensorSnapshot>,
}

/// A plain description of one sensor.
#[derive(Debug, Clone, PartialEq)]
pub struct SensorSnapshot {
    /// Sensor camera info.
    pub info: CameraInfo,
    /// Options with their values.
    pub options: Vec<SensorOption>,
    /// Every profile.
    pub profiles: Vec<StreamProfile>,
}

impl DeviceSnapshot {
    /// Describe `device` as it is now.
    pub fn of(device: &dyn Device) -> DeviceSnapshot {
        DeviceSnapshot {
            info: device.info(),
            sensors: device
                .sensors()
                .iter()
                .map(|s| SensorSnapshot {
                    info: s.info(),
                    options: s.options(),
                    profiles: s.profiles(),
                })
                .collect(),
        }
    }
}
