//! Recording: the [`Recorder`] that wraps a live [`crate::device::Device`]
//! and writes what it streams in the RealSense layout
//! ([`crate::realsense`]), through a [`RecordingSink`]: a `.bag`
//! ([`RsWriter`]) or a `.db3` ([`Db3RsWriter`]).

mod copy;
mod db3_writer;
mod recorder;
mod ros2_export;
mod ros2_live;
mod ros2_session;
mod rs_writer;
mod sink;
pub mod trim;

pub use copy::{copy_recording, CopyReport, CopySelection};
pub use db3_writer::{Db3Options, Db3RsWriter};
pub use ros2_export::{export_ros2, Ros2Export, Ros2ExportOptions};
pub use ros2_live::{Ros2Layout, Ros2Message, Ros2Topic};
pub use ros2_session::{export_ros2_session, session_camera_names, CameraPose, Ros2SessionOptions};
pub use rs_writer::RsWriter;
pub use sink::{create_sink, write_description, FrameWrite, RecordingSink};

pub use recorder::{
    FailureCallback, RecordOptions, RecordReport, RecordSensor, Recorder, StreamCounts,
};
