//! The writing side of the storage seam: what the [`super::Recorder`] and
//! the converters write a RealSense recording through, whatever the file.

use std::path::{Path, PathBuf};

use crate::device::{CameraInfo, Extrinsics, Frame, Notification, SensorOption, StreamProfile};
use crate::realsense::topics::StreamTopic;
use crate::{Error, Result};

use super::db3_writer::{Db3Options, Db3RsWriter};
use super::rs_writer::RsWriter;

/// Writes the parts of a RealSense recording in the layout of one file
/// format: a `.bag` ([`RsWriter`]) or a `.db3` ([`Db3RsWriter`]).
///
/// Times are capture times, ns since the recording started; the
/// description goes at time zero.
pub trait RecordingSink: Send {
    /// The device's camera info.
    fn write_device_info(&mut self, info: &CameraInfo) -> Result<()>;
    /// A sensor's camera info.
    fn write_sensor_info(&mut self, sensor: u32, info: &CameraInfo) -> Result<()>;
    /// An option's value at `capture_ns` (its description the first time).
    fn write_option(&mut self, sensor: u32, option: &SensorOption, capture_ns: u64) -> Result<()>;
    /// A sensor's options at the start, in librealsense's option order
    /// ([`crate::device::option_rank`]), which its `.db3` reader needs.
    fn write_options(&mut self, sensor: u32, options: &[SensorOption]) -> Result<()> {
        write_in_rank_order(self, sensor, options)
    }
    /// A streamed profile's description.
    fn write_stream_info(
        &mut self,
        sensor: u32,
        profile: &StreamProfile,
        capture_ns: u64,
    ) -> Result<()>;
    /// A stream's extrinsics to the reference stream of group `group`.
    fn write_extrinsics(&mut self, stream: StreamTopic, group: u32, e: &Extrinsics) -> Result<()>;
    /// A frame with its metadata; `depth_units` goes with depth frames.
    fn write_frame(
        &mut self,
        sensor: u32,
        frame: &Frame,
        depth_units: f32,
        capture_ns: u64,
    ) -> Result<()>;
    /// Several frames, in order: what a writer can do for them together
    /// (a `.db3` compresses their images on every core) it does.
    fn write_frames(&mut self, frames: &[FrameWrite<'_>]) -> Result<()> {
        frames
            .iter()
            .try_for_each(|f| self.write_frame(f.sensor, f.frame, f.depth_units, f.capture_ns))
    }
    /// A notification.
    fn write_notification(&mut self, sensor: u32, n: &Notification, capture_ns: u64) -> Result<()>;
    /// The temporary path the file is written under until finished.
    fn partial_path(&self) -> &Path;
    /// Bytes written so far.
    fn bytes_written(&self) -> u64;
    /// Finish the file and give it its name; returns its size in bytes.
    fn finish(self: Box<Self>) -> Result<u64>;
    /// Stop and delete the unfinished file.
    fn abandon(self: Box<Self>);
}

/// One frame to write, as [`RecordingSink::write_frame`] takes it.
#[derive(Debug, Clone, Copy)]
pub struct FrameWrite<'f> {
    /// The sensor's index in the file.
    pub sensor: u32,
    /// The frame.
    pub frame: &'f Frame,
    /// The depth units, for a depth frame.
    pub depth_units: f32,
    /// Capture time, ns since the recording started.
    pub capture_ns: u64,
}

/// The file formats a recording can be written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FileFormat {
    /// A ROS1 `.bag`, as librealsense up to 2.57 writes.
    Bag,
    /// A rosbag2 `.db3`, as librealsense 2.58+ writes.
    Db3,
}

impl FileFormat {
    /// The format a path's extension names, `.bag` or `.db3` (any case).
    /// Any other name is an error that lists the two: a file's name and
    /// its bytes agree, so no format is guessed (`.mcap` is a ROS 2 bag's
    /// storage file, written by `convert --to ros2 --storage mcap`).
    ///
    /// ```
    /// use rsbag::record::FileFormat;
    /// assert_eq!(FileFormat::of_path("a/b.db3".as_ref()).unwrap(), FileFormat::Db3);
    /// assert_eq!(FileFormat::of_path("a/b.BAG".as_ref()).unwrap(), FileFormat::Bag);
    /// assert!(FileFormat::of_path("a/b.mcap".as_ref()).is_err());
    /// assert!(FileFormat::of_path("a/b".as_ref()).is_err());
    /// ```
    pub fn of_path(path: &Path) -> Result<FileFormat> {
        let extension = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        match extension.to_ascii_lowercase().as_str() {
            "bag" => Ok(FileFormat::Bag),
            "db3" => Ok(FileFormat::Db3),
            "mcap" => Err(Error::InvalidArgument(format!(
                "{}: a recording is written as .bag or .db3; an MCAP file is written as a ROS 2 \
                 bag (`rsbag convert FILE --to ros2 --storage mcap --out DIR`)",
                path.display()
            ))),
            _ => Err(Error::InvalidArgument(format!(
                "{}: the name must end in .bag (ROS1, librealsense up to 2.57) or .db3 \
                 (rosbag2, librealsense 2.58 and later): the extension says what the file holds",
                path.display()
            ))),
        }
    }

    /// The file's extension, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            FileFormat::Bag => "bag",
            FileFormat::Db3 => "db3",
        }
    }

    /// `path` if its name says this format, else an error saying so.
    pub fn check_path(self, path: &Path) -> Result<()> {
        let named = FileFormat::of_path(path)?;
        if named != self {
            return Err(Error::InvalidArgument(format!(
                "{}: the name says .{} but a .{} is written; name it .{}",
                path.display(),
                named.extension(),
                self.extension(),
                self.extension()
            )));
        }
        Ok(())
    }
}

/// Start a recording file at `path` in `format`: a bag with `bag`'s
/// writer options, a `.db3` with `db3`'s. A name that says another format
/// (or none) is an error, before anything is written.
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
    })
}

impl RecordingSink for RsWriter {
    fn write_device_info(&mut self, info: &CameraInfo) -> Result<()> {
        RsWriter::write_device_info(self, info)
    }
    fn write_sensor_info(&mut self, sensor: u32, info: &CameraInfo) -> Result<()> {
        RsWriter::write_sensor_info(self, sensor, info)
    }
    fn write_option(&mut self, sensor: u32, option: &SensorOption, at: u64) -> Result<()> {
        RsWriter::write_option(self, sensor, option, at)
    }
    fn write_stream_info(&mut self, sensor: u32, p: &StreamProfile, at: u64) -> Result<()> {
        RsWriter::write_stream_info(self, sensor, p, at)
    }
    fn write_extrinsics(&mut self, s: StreamTopic, group: u32, e: &Extrinsics) -> Result<()> {
        RsWriter::write_extrinsics(self, s, group, e)
    }
    fn write_frame(&mut self, sensor: u32, f: &Frame, units: f32, at: u64) -> Result<()> {
        RsWriter::write_frame(self, sensor, f, units, at)
    }
    fn write_notification(&mut self, sensor: u32, n: &Notification, at: u64) -> Result<()> {
        RsWriter::write_notification(self, sensor, n, at)
    }
    fn partial_path(&self) -> &Path {
        RsWriter::partial_path(self)
    }
    fn bytes_written(&self) -> u64 {
        RsWriter::bytes_written(self)
    }
    fn finish(self: Box<Self>) -> Result<u64> {
        RsWriter::finish(*self)
    }
    fn abandon(self: Box<Self>) {
        RsWriter::abandon(*self)
    }
}

/// `options` at time zero in librealsense's option order.
pub(crate) fn write_in_rank_order<S: RecordingSink + ?Sized>(
    sink: &mut S,
    sensor: u32,
    options: &[SensorOption],
) -> Result<()> {
    let mut ordered: Vec<&SensorOption> = options.iter().collect();
    ordered.sort_by_key(|o| crate::device::option_rank(&o.name));
    ordered
        .into_iter()
        .try_for_each(|o| sink.write_option(sensor, o, 0))
}

/// The device's and every sensor's camera info and options, at time zero.
pub fn write_description(
    sink: &mut dyn RecordingSink,
    snapshot: &crate::device::DeviceSnapshot,
) -> Result<()> {
    sink.write_device_info(&snapshot.info)?;
    for (index, sensor) in (0u32..).zip(&snapshot.sensors) {
        sink.write_sensor_info(index, &sensor.info)?;
        sink.write_options(index, &sensor.options)?;
    }
    Ok(())
}
