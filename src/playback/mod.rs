//! Playback: a RealSense bag read back as the device that recorded it.
//!
//! - [`Recording`] reads the device description and assembles frames,
//!   option changes and notifications in time order, with no threads.
//! - [`Playback`] is a [`crate::device::Device`] that replays a recording
//!   to sensor callbacks, with pause, resume, seek, speed, real time and
//!   repeat.

mod device;
mod dispatcher;
mod recording;

pub use device::{Playback, PlaybackOptions, PlaybackSensor, PlaybackStatus, StatusCallback};
pub use recording::{Event, EventQuery, Events, RecordedStream, Recording, TimedEvent};
