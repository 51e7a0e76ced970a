//! Recording: the RealSense topic layout and the [`Recorder`] that wraps a
//! live [`crate::device::Device`] and writes what it streams.

pub mod convert;
mod recorder;
pub mod rs_writer;
pub mod topics;
pub mod trim;

pub use recorder::{
    FailureCallback, RecordOptions, RecordReport, RecordSensor, Recorder, StreamCounts,
};
