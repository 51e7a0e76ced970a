//! Recording: the [`Recorder`] that wraps a live [`crate::device::Device`]
//! and writes what it streams in the RealSense layout
//! ([`crate::realsense`]), through [`rs_writer::RsWriter`].

mod recorder;
pub mod rs_writer;
pub mod trim;

pub use recorder::{
    FailureCallback, RecordOptions, RecordReport, RecordSensor, Recorder, StreamCounts,
};
