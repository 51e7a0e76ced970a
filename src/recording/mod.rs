//! A recording read offline: its device description, frames, framesets,
//! sessions of several cameras, summary and check, with no threads of its
//! own.
//!
//! - [`Recording`] reads the device description and assembles frames,
//!   option changes and notifications in time order.
//! - [`FrameReader`] reads every frame exactly once, in recorded order or
//!   by index, number or time; with [`Syncer`] it groups them into
//!   synchronized [`FrameSet`]s ([`frameset`] has the rule).
//! - [`Columns`]: one stream's frames over a time range as a vector per
//!   field ([`FrameQuery::columns`]).
//! - [`Session`] reads several recordings (one per camera) as one: every
//!   frame of every file in time order on the best clock they share, and
//!   framesets across cameras.
//! - [`Pieces`] reads the pieces of a split recording (`NAME_0.bag`,
//!   `NAME_1.bag`, …) as one recording: one device's frames on one
//!   timeline, indexed across the pieces.
//! - [`summary`] describes a recording; [`check`] finds dropped,
//!   out-of-order and duplicated frames and damage to the file;
//!   [`calibration`] exports its intrinsics and extrinsics.
//!
//! The playback device that replays a recording in real time is
//! [`crate::playback`].

pub mod calibration;
pub mod check;
mod columns;
pub mod frameset;
mod pieces;
mod processing;
mod reader;
#[allow(clippy::module_inception)]
mod recording;
mod session;
pub mod summary;
mod sync;

pub use columns::{Columns, MetadataColumn, Samples};
pub use frameset::{FrameSet, SyncFrame, SyncOptions, Syncer};
pub(crate) use pieces::{events_on_timeline, on_timeline};
pub use pieces::{Piece, PieceFrames, PieceGap, PieceSummary, Pieces, PiecesSummary};
pub use reader::{FrameQuery, FrameReader, FrameSets, Frames, RecordedFrame};
pub use recording::{Event, EventQuery, Events, RecordedStream, Recording, TimedEvent};
pub use session::{
    refuse_repeats, FramesetOptions, Session, SessionCamera, SessionClock, SessionFile,
    SessionFrame, SessionFrameSet, SessionFrameSets, SessionFrames, SessionOptions, SessionQuery,
    SessionSummary, SessionVerdict, REORDER_WINDOW,
};
pub use sync::{PairSync, SyncGap, SyncReport};
