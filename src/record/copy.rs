//! Writing a recording anew through a [`RecordingSink`]: the device
//! description, then every frame, option change and notification in time
//! order, at the times they were recorded. With a `.db3` sink this is
//! `.bag` → `.db3`, with a bag sink `.db3` → `.bag`, and with a selection
//! a trimmed copy.

use std::collections::BTreeMap;

use crate::device::{
    depth_units_of, CombinedMotion, Format, Frame, StreamId, StreamKind, StreamProfile,
};
use crate::processing::filters::{FilterSpec, StreamFilters};
use crate::realsense::topics::StreamTopic;
use crate::recording::{events_on_timeline, Event, Pieces, Recording};
use crate::{BagTime, Error, Result};

use super::sink::{write_description, FrameWrite, RecordingSink};
use super::trim::Trim;

/// What a copy keeps. The copy stays a complete recording: every option
/// change and notification is kept, and of the streams and time range
/// `trim` keeps (the rule a trimmed `.bag` copy follows), the description
/// of the kept streams and their frames inside the time range.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CopySelection {
    /// The streams whose description and frames are kept, and the bag
    /// times of the frames kept.
    pub trim: Trim,
    /// Leave out what cannot be read (listed in [`CopyReport::skipped`])
    /// instead of stopping at it: for recovering what a crash left, where
    /// the rest is worth keeping. Off by default: a copy of a damaged
    /// recording is an error.
    pub skip_unreadable: bool,
    /// Depth filters applied to every Z16 depth stream, in order (the
    /// streams' profiles then describe the filtered frames: decimated
    /// size and intrinsics).
    pub filters: Vec<FilterSpec>,
}

/// What a copy wrote.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CopyReport {
    /// Frames written per stream.
    pub frames: BTreeMap<StreamId, u64>,
    /// Option changes written.
    pub option_changes: u64,
    /// Notifications written.
    pub notifications: u64,
    /// The size of the new file, bytes.
    pub size: u64,
    /// What could not be read and was left out, one line each (only with
    /// [`CopySelection::skip_unreadable`]).
    pub skipped: Vec<String>,
}

/// Write `recording` (what `selection` keeps) through `sink` and finish
/// the file; `progress` is called after each frame with the frames
/// written so far. On an error (a message of the recording that cannot be
/// read, a failed write) the unfinished file is deleted: a copy is
/// complete or absent.
///
/// # Example
/// ```no_run
/// use std::path::PathBuf;
/// use rsbag::recording::Recording;
/// use rsbag::record::{copy_recording, create_sink, CopySelection, Db3Options};
/// use rsbag::storage::FileFormat;
/// # fn main() -> rsbag::Result<()> {
/// let recording = Recording::open("old.bag")?;
/// let sink = create_sink(PathBuf::from("new.db3"), FileFormat::Db3,
///     Default::default(), Db3Options::default(), false)?;
/// let report = copy_recording(&recording, sink, &CopySelection::default(), |_| {})?;
/// println!("{} frames", report.frames.values().sum::<u64>());
/// # Ok(()) }
/// ```
pub fn copy_recording(
    recording: &Recording,
    sink: Box<dyn RecordingSink>,
    selection: &CopySelection,
    progress: impl FnMut(u64),
) -> Result<CopyReport> {
    copy_into(&[(recording, 0)], sink, selection, progress)
}

/// Write the pieces of a split recording ([`Pieces`]) as one recording
/// through `sink`, as [`copy_recording`] writes one: the first piece's
/// description, then every piece's frames, option changes and
/// notifications on one timeline. `selection`'s bag times are those of
/// the pieces' timeline (the first piece's bag times, running on).
pub fn copy_pieces(
    pieces: &Pieces,
    sink: Box<dyn RecordingSink>,
    selection: &CopySelection,
    progress: impl FnMut(u64),
) -> Result<CopyReport> {
    copy_into(&pieces.timeline(), sink, selection, progress)
}

/// Write `recordings` (each with what to add to its bag times) one after
/// another as one recording through `sink`.
fn copy_into(
    recordings: &[(&Recording, i128)],
    mut sink: Box<dyn RecordingSink>,
    selection: &CopySelection,
    progress: impl FnMut(u64),
) -> Result<CopyReport> {
    match write_all(recordings, sink.as_mut(), selection, progress) {
        Ok(mut report) => {
            report.size = sink.finish()?;
            Ok(report)
        }
        Err(e) => {
            sink.abandon();
            Err(e)
        }
    }
}

fn write_all(
    recordings: &[(&Recording, i128)],
    sink: &mut dyn RecordingSink,
    selection: &CopySelection,
    mut progress: impl FnMut(u64),
) -> Result<CopyReport> {
    let recording = recordings[0].0;
    let keeps = |s: &StreamId| selection.trim.keeps_stream(*s);
    // A camera bag's bag times are ROS's wall-clock message times: the new
    // file counts from its first message, as librealsense's recordings
    // count from their start (description at 0). `selection.time` stays
    // in the recording's own bag times.
    let origin = recording.time_origin();
    let since_start = |t: BagTime| t.as_nanos().saturating_sub(origin);
    let snapshot = recording.snapshot();
    let mut filters = StreamFilters::of_recording(recording, &selection.filters);
    write_description(sink, snapshot)?;
    let mut options: Vec<_> = snapshot.sensors.iter().map(|s| s.options.clone()).collect();
    let splits = if sink.holds_combined_motion() {
        BTreeMap::new()
    } else {
        motion_splits(recording, keeps)
    };
    for stream in recording.streams().values() {
        if !keeps(&stream.profile.stream) {
            continue;
        }
        let sensor = sensor_index(stream.sensor);
        match splits.get(&stream.profile.stream) {
            Some(split) => {
                sink.write_stream_info(sensor, &split.gyro, 0)?;
                sink.write_stream_info(sensor, &split.accel, 0)?;
            }
            None => sink.write_stream_info(sensor, &filters.profile(&stream.profile), 0)?,
        }
    }
    for (id, stream) in recording.streams().iter().filter(|(s, _)| keeps(s)) {
        if let Some((group, e)) = recording.stream_extrinsics(*id) {
            let written = match splits.get(id) {
                Some(split) => vec![split.gyro.stream, split.accel.stream],
                None => vec![*id],
            };
            for id in written {
                let topic = StreamTopic::new(0, sensor_index(stream.sensor), id);
                sink.write_extrinsics(topic, group, &e)?;
            }
        }
    }
    let mut report = CopyReport::default();
    let mut batch = FrameBatch::default();
    let events = recordings.iter().flat_map(|&(piece, shift)| {
        let events = (piece.select())
            .streams(piece.streams().keys().copied().filter(|s| keeps(s)))
            .events();
        events_on_timeline(events, shift)
    });
    for event in events {
        let event = match event {
            Ok(event) => event,
            Err(e) if selection.skip_unreadable => {
                report.skipped.push(e.to_string());
                continue;
            }
            Err(e) => return Err(e),
        };
        match event.event {
            Event::Frame { ref frame, .. }
                if !selection.trim.keeps_frame(frame.profile.stream, event.time) => {}
            Event::Frame { sensor, frame } => {
                let units = match frame.profile.stream.kind {
                    StreamKind::Depth => options.get(sensor).map_or(0.0, |o| depth_units_of(o)),
                    _ => 0.0,
                };
                let frames = match splits.get(&frame.profile.stream) {
                    Some(split) => split.frames(&frame)?.to_vec(),
                    None => vec![filters.apply(frame)?],
                };
                for frame in frames {
                    *report.frames.entry(frame.profile.stream).or_default() += 1;
                    batch.push(sensor_index(sensor), frame, units, since_start(event.time));
                }
                if batch.is_full() {
                    batch.write(sink, &mut progress)?;
                }
            }
            Event::OptionChanged {
                sensor,
                name,
                value,
            } => {
                let Some(option) = options
                    .get_mut(sensor)
                    .and_then(|o| o.iter_mut().find(|o| o.name == name))
                else {
                    continue;
                };
                option.value = value;
                let option = option.clone();
                batch.write(sink, &mut progress)?;
                sink.write_option(sensor_index(sensor), &option, since_start(event.time))?;
                report.option_changes += 1;
            }
            Event::Notification {
                sensor,
                notification,
            } => {
                batch.write(sink, &mut progress)?;
                sink.write_notification(
                    sensor_index(sensor),
                    &notification,
                    since_start(event.time),
                )?;
                report.notifications += 1;
            }
        }
    }
    batch.write(sink, &mut progress)?;
    Ok(report)
}

/// A combined IMU stream (`COMBINED_MOTION`) written as the gyro and
/// accel streams a file without combined samples holds (a `.bag`:
/// librealsense 2.55 stops playing at a combined sample): each sample
/// becomes a gyro frame and an accel frame at its time, with its number
/// and metadata.
#[derive(Debug)]
struct MotionSplit {
    gyro: StreamProfile,
    accel: StreamProfile,
}

impl MotionSplit {
    /// The gyro and accel frames of combined sample `frame`; its values
    /// as the `f32` librealsense's motion frames hold.
    fn frames(&self, frame: &Frame) -> Result<[Frame; 2]> {
        let sample = CombinedMotion::from_bytes(&frame.data).ok_or_else(|| {
            Error::BadDescription(format!(
                "{} frame {}: a combined IMU sample has 80 bytes, not {}",
                frame.profile.stream,
                frame.number,
                frame.data.len()
            ))
        })?;
        let part = |profile: StreamProfile, values: [f64; 3]| Frame {
            profile,
            data: values
                .iter()
                .flat_map(|&v| (v as f32).to_le_bytes())
                .collect::<Vec<u8>>()
                .into(),
            stride: 0,
            ..frame.clone()
        };
        Ok([
            part(self.gyro, sample.angular_velocity),
            part(self.accel, sample.linear_acceleration),
        ])
    }
}

/// How each kept combined IMU stream of `recording` is split: into the
/// first gyro and accel streams of its index or above that the recording
/// does not have, with profile ids after the recording's.
fn motion_splits(
    recording: &Recording,
    keeps: impl Fn(&StreamId) -> bool,
) -> BTreeMap<StreamId, MotionSplit> {
    let streams = recording.streams();
    let mut taken: Vec<StreamId> = streams.keys().copied().collect();
    let mut next_id = streams
        .values()
        .map(|s| s.profile.unique_id)
        .max()
        .unwrap_or(0);
    let mut part = |combined: &StreamProfile, kind: StreamKind| {
        let index = (combined.stream.index..)
            .find(|&i| !taken.contains(&StreamId::new(kind, i)))
            .unwrap_or(combined.stream.index);
        let stream = StreamId::new(kind, index);
        taken.push(stream);
        next_id = next_id.saturating_add(1);
        let profile = StreamProfile::motion(stream, Format::MotionXyz32f, combined.fps)
            .with_unique_id(next_id);
        if combined.is_default {
            profile.as_default()
        } else {
            profile
        }
    };
    streams
        .iter()
        .filter(|(id, s)| keeps(id) && s.profile.format == Format::CombinedMotion)
        .map(|(id, s)| {
            let split = MotionSplit {
                gyro: part(&s.profile, StreamKind::Gyro),
                accel: part(&s.profile, StreamKind::Accel),
            };
            (*id, split)
        })
        .collect()
}

/// Frames waiting to be written together (a `.db3` sink compresses their
/// images on every core): at most 16, or 64 MB.
#[derive(Default)]
struct FrameBatch {
    frames: Vec<(u32, Frame, f32, u64)>,
    bytes: usize,
    written: u64,
}

impl FrameBatch {
    fn push(&mut self, sensor: u32, frame: Frame, units: f32, at: u64) {
        self.bytes += frame.data.len();
        self.frames.push((sensor, frame, units, at));
    }

    fn is_full(&self) -> bool {
        self.frames.len() >= 16 || self.bytes >= 64 << 20
    }

    /// Write the frames and empty the batch.
    fn write(
        &mut self,
        sink: &mut dyn RecordingSink,
        progress: &mut impl FnMut(u64),
    ) -> Result<()> {
        if self.frames.is_empty() {
            return Ok(());
        }
        let writes: Vec<FrameWrite<'_>> = self
            .frames
            .iter()
            .map(|(sensor, frame, depth_units, capture_ns)| FrameWrite {
                sensor: *sensor,
                frame,
                depth_units: *depth_units,
                capture_ns: *capture_ns,
            })
            .collect();
        sink.write_frames(&writes)?;
        self.written += self.frames.len() as u64;
        self.frames.clear();
        self.bytes = 0;
        progress(self.written);
        Ok(())
    }
}

/// The index a sensor at `position` of the snapshot gets in the new file.
fn sensor_index(position: usize) -> u32 {
    u32::try_from(position).unwrap_or(u32::MAX)
}
