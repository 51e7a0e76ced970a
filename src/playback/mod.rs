//! Playback: a recording replayed as the device that recorded it.
//!
//! - [`Playback`] is a [`crate::device::Device`] that replays a
//!   [`Recording`](crate::recording::Recording) to sensor callbacks, with
//!   pause, resume, seek, speed, real time and repeat.
//! - [`Pipeline`] gives framesets from the playback device,
//!   librealsense-pipeline style (`wait_for_frames`, `poll_for_frames`).
//!
//! Reading a recording's frames exactly, without a clock, is
//! [`crate::recording`]'s job.

mod device;
mod engine;
mod pipeline;

pub use device::{Playback, PlaybackSensor};
pub use engine::{PlaybackOptions, PlaybackStatus, StatusCallback};
pub use pipeline::{Pipeline, PipelineConfig};
