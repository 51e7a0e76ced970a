//! Recording: the [`Recorder`] that wraps a live [`crate::device::Device`]
//! and writes what it streams in the RealSense layout
//! ([`crate::realsense`]), through a [`RecordingSink`]: a `.bag`
//! ([`RsWriter`]) or a `.db3` ([`Db3RsWriter`]).

mod copy;
mod db3_writer;
mod other_topics;
mod pieces;
mod recorder;
mod ros2_derived;
mod ros2_export;
mod ros2_live;
mod ros2_session;
mod rs_writer;
mod sink;
pub mod trim;

pub use copy::{copy_pieces, copy_recording, CopyReport, CopySelection};
pub use db3_writer::{Db3Options, Db3RsWriter};
pub use other_topics::{camera_bag_selection, trim_rosbag2_camera_bag, OtherTopics};
pub use pieces::{existing_pieces, Piece, Split};
pub use ros2_derived::PointCloudLayout;
pub use ros2_export::{export_ros2, export_ros2_pieces, Ros2Export, Ros2ExportOptions};
pub use ros2_live::{Ros2Layout, Ros2Message, Ros2Topic};
pub use ros2_session::{
    export_ros2_session, session_camera_names, session_stamp_ns, CameraPose, Ros2SessionOptions,
};
pub use rs_writer::RsWriter;
pub use sink::{write_description, FrameWrite, RecordingSink};

pub use recorder::{
    FailureCallback, RecordOptions, RecordReport, RecordSensor, Recorder, StreamCounts,
};

use std::path::PathBuf;

use crate::storage::FileFormat;
use crate::{Error, Result};

/// Start a recording file at `path` in `format`: a bag with `bag`'s
/// writer options, a `.db3` with `db3`'s. A name that says another format
/// (or none) is an error, before anything is written: the name takes the
/// format its extension says ([`FileFormat::of_recording_path`]), the format
/// a reader then finds by the file's first bytes.
pub fn create_sink(
    path: PathBuf,
    format: FileFormat,
    bag: crate::storage::bag::WriterOptions,
    db3: Db3Options,
    overwrite: bool,
) -> Result<Box<dyn RecordingSink>> {
    format.check_path(&path)?;
    Ok(match format {
        FileFormat::Bag => {
            let file = if overwrite {
                crate::storage::bag::BagFile::create_or_replace(&path, bag)?
            } else {
                crate::storage::bag::BagFile::create(&path, bag)?
            };
            Box::new(RsWriter::on(file)?)
        }
        FileFormat::Db3 => {
            let file = if overwrite {
                crate::storage::rosbag2::Db3Writer::create_or_replace(&path)?
            } else {
                crate::storage::rosbag2::Db3Writer::create(&path)?
            };
            Box::new(Db3RsWriter::on(file, db3)?)
        }
        FileFormat::Mcap => {
            return Err(Error::Unsupported(format!(
                "{}: a recording is written as .bag or .db3, not MCAP",
                path.display()
            )))
        }
    })
}
