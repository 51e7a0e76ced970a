//! Playback: a RealSense bag read back as the device that recorded it.
//!
//! [`Recording`] reads the device description and assembles frames,
//! option changes and notifications in time order, with no threads.

mod recording;

pub use recording::{Event, EventQuery, Events, RecordedStream, Recording, TimedEvent};
