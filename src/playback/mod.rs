//! Playback: a RealSense bag read back as the device that recorded it.
//!
//! - [`Recording`] reads the device description and assembles frames,
//!   option changes and notifications in time order, with no threads.
//! - [`Playback`] is a [`crate::device::Device`] that replays a recording
//!   to sensor callbacks, with pause, resume, seek, speed, real time and
//!   repeat.
//! - [`FrameReader`] reads every frame exactly once, in recorded order or
//!   by index, number or time, with no threads; with [`Syncer`] it groups
//!   them into synchronized [`FrameSet`]s ([`frameset`] has the rule).
//! - [`Columns`]: one stream's frames over a time range as a vector per
//!   field ([`FrameQuery::columns`]).
//! - [`Pipeline`] gives framesets from the playback device,
//!   librealsense-pipeline style (`wait_for_frames`, `poll_for_frames`).
//! - [`Session`] reads several recordings (one per camera) as one: every
//!   frame of every file in time order on the best clock they share, and
//!   framesets across cameras.
//! - [`check`] finds dropped, out-of-order and duplicated frames and
//!   damage to the file.

pub mod calibration;
pub mod check;
mod columns;
mod device;
mod engine;
pub mod frameset;
mod pipeline;
mod processing;
mod reader;
mod recording;
mod session;
pub mod summary;
mod sync;

pub use columns::{Columns, MetadataColumn, Samples};
pub use device::{Playback, PlaybackOptions, PlaybackSensor, PlaybackStatus, StatusCallback};
pub use frameset::{FrameSet, SyncFrame, SyncOptions, Syncer};
pub use pipeline::{Pipeline, PipelineConfig};
pub use reader::{FrameQuery, FrameReader, FrameSets, Frames, RecordedFrame};
pub use recording::{Event, EventQuery, Events, RecordedStream, Recording, TimedEvent};
pub use session::{
    refuse_repeats, FramesetOptions, Session, SessionCamera, SessionClock, SessionFile,
    SessionFrame, SessionFrameSet, SessionFrameSets, SessionFrames, SessionOptions, SessionQuery,
    SessionSummary, SessionVerdict, REORDER_WINDOW,
};
pub use sync::{PairSync, SyncGap, SyncReport};
