//! The writing side of the storage seam: what the [`super::Recorder`] and
//! the converters write a RealSense recording through, whatever the file.

use std::path::Path;

use crate::device::{CameraInfo, Extrinsics, Frame, Notification, SensorOption, StreamProfile};
use crate::realsense::topics::StreamTopic;
use crate::Result;

/// Writes the parts of a RealSense recording in the layout of one file
/// format: a `.bag` ([`super::RsWriter`]) or a `.db3` ([`super::Db3RsWriter`]).
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
    /// Whether the file holds combined IMU samples (`COMBINED_MOTION`)
    /// as a stream of their own; where not, a copy writes them as gyro
    /// and accel streams.
    fn holds_combined_motion(&self) -> bool {
        true
    }
    /// The temporary path the file is written under until finished.
    fn partial_path(&self) -> &Path;
    /// Bytes written so far.
    fn bytes_written(&self) -> u64;
    /// About the size the file would have if finished now: what a
    /// recording split by size goes by.
    fn size_so_far(&self) -> u64;
    /// An upper bound on the file's size were it finished now (what was
    /// written, what waits to be, the index and closing records): the
    /// room it needs on the disk.
    fn finished_size_bound(&self) -> u64;
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
