//! `rsbag convert IN --to db3|bag --out FILE`: the whole recording (or the
//! chosen streams and time) written anew in the other file format, with
//! every frame, option change, notification and the device description;
//! `--to ros2 --out DIR`: the frames and description as a ROS 2 bag of
//! standard messages.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::{Bound, Range};
use std::path::Path;
use std::time::Duration;

use rsbag::device::{Format, StreamId, StreamKind};
use rsbag::processing::filters::FilterSpec;
use rsbag::record::trim::Trim;
use rsbag::record::{
    copy_pieces, copy_recording, create_sink, export_ros2, export_ros2_pieces, CopyReport,
    CopySelection, Db3Options, RecordingSink, Ros2Export, Ros2ExportOptions,
};
use rsbag::recording::{FrameReader, FrameSets, Pieces, RecordedFrame, SyncOptions};
use rsbag::storage::bag::{Compression, WriterOptions};
use rsbag::storage::rosbag2::McapCompression;
use rsbag::storage::FileFormat;
use rsbag::{BagTime, Error, Result};

use crate::damage::Losses;
use crate::interrupt::{on_interrupt, Undo};
use crate::output::{refuse_existing, same_file};
use crate::progress;
use crate::select::Window;

use super::plan::{Job, Target};

/// What to write and how.
pub struct FileTarget<'a> {
    pub file: &'a Path,
    pub out: &'a Path,
    pub format: FileFormat,
    pub streams: Option<BTreeSet<StreamId>>,
    /// `--start`/`--duration`, when given (otherwise everything, the
    /// option changes and notifications before the first frame too).
    pub window: Option<Window>,
    /// Streams whose frames are kept over bag times of their own instead
    /// of the window's (`trim --session`: each stream's frames in one
    /// stretch of the session's clock).
    pub stream_times: BTreeMap<StreamId, Range<BagTime>>,
    pub uncompressed: bool,
    /// A bag's chunk compression, when not the default (LZ4; none with
    /// `uncompressed`).
    pub compression: Option<Compression>,
    pub keep_pose: bool,
    pub force: bool,
    /// Leave out what cannot be read (recovering a crashed recording)
    /// instead of failing.
    pub skip_unreadable: bool,
    /// `--filter`: depth filters applied to the depth streams.
    pub filters: Vec<FilterSpec>,
}

/// What [`run`] wrote, in words, and what it could not read and left out
/// (only with [`FileTarget::skip_unreadable`]).
pub struct Written {
    pub text: String,
    pub skipped: Vec<String>,
}

/// What a conversion reads: one recording, or the pieces of one split
/// recording (read as one, on the first piece's timeline).
#[derive(Clone, Copy)]
pub enum Source<'a> {
    One(&'a FrameReader),
    Pieces(&'a Pieces),
}

impl<'a> Source<'a> {
    /// The reader of the description: the recording's, or the first
    /// piece's (each piece repeats it).
    pub fn described(self) -> &'a FrameReader {
        match self {
            Source::One(reader) => reader,
            Source::Pieces(pieces) => pieces.pieces()[0].reader(),
        }
    }

    /// Time from the first frame to the last.
    pub fn duration(self) -> Duration {
        match self {
            Source::One(reader) => reader.duration(),
            Source::Pieces(pieces) => pieces.duration(),
        }
    }

    /// The streams a name stands for.
    pub fn find_streams(self, name: &str) -> Result<Vec<StreamId>> {
        self.described().find_streams(name)
    }

    /// Frames per stream of `streams` recorded within `bounds`.
    pub fn frame_counts(
        self,
        streams: &BTreeSet<StreamId>,
        bounds: (Bound<Duration>, Bound<Duration>),
    ) -> Result<BTreeMap<StreamId, u64>> {
        match self {
            Source::One(reader) => (reader.select())
                .streams(streams.iter().copied())
                .time(bounds)
                .frame_counts(),
            Source::Pieces(pieces) => {
                pieces.frame_counts(Some(streams.iter().copied().collect()), bounds)
            }
        }
    }

    /// The frames of `streams` recorded within `bounds`, in recorded order.
    pub fn frames(
        self,
        streams: &BTreeSet<StreamId>,
        bounds: (Bound<Duration>, Bound<Duration>),
    ) -> Result<Box<dyn Iterator<Item = Result<RecordedFrame>> + Send + 'a>> {
        Ok(match self {
            Source::One(reader) => Box::new(
                (reader.select())
                    .streams(streams.iter().copied())
                    .time(bounds)
                    .frames()?,
            ),
            Source::Pieces(pieces) => {
                Box::new(pieces.select(Some(streams.iter().copied().collect()), bounds)?)
            }
        })
    }

    /// The synchronized framesets of `streams` recorded within `bounds`.
    pub fn framesets(
        self,
        streams: &BTreeSet<StreamId>,
        bounds: (Bound<Duration>, Bound<Duration>),
    ) -> Result<FrameSets<'a>> {
        match self {
            Source::One(reader) => (reader.select())
                .streams(streams.iter().copied())
                .time(bounds)
                .framesets(SyncOptions::default()),
            Source::Pieces(pieces) => pieces.framesets(
                Some(streams.iter().copied().collect()),
                bounds,
                SyncOptions::default(),
            ),
        }
    }

    /// Whether `out` is a file read.
    fn reads(self, file: &Path, out: &Path) -> bool {
        match self {
            Source::One(_) => same_file(file, out),
            Source::Pieces(pieces) => (pieces.pieces().iter()).any(|p| same_file(p.path(), out)),
        }
    }

    /// Write what `selection` keeps through `sink`.
    fn copy(
        self,
        sink: Box<dyn RecordingSink>,
        selection: &CopySelection,
        progress: impl FnMut(u64),
    ) -> Result<CopyReport> {
        match self {
            Source::One(reader) => copy_recording(reader.recording(), sink, selection, progress),
            Source::Pieces(pieces) => copy_pieces(pieces, sink, selection, progress),
        }
    }
}

pub fn run(source: Source<'_>, target: FileTarget<'_>) -> Result<Written> {
    refuse_existing(target.out, target.force)?;
    if source.reads(target.file, target.out) {
        return Err(Error::InvalidArgument(format!(
            "{}: the output is the input",
            target.out.display()
        )));
    }
    let recording = source.described().recording();
    let mut streams: BTreeSet<StreamId> = target
        .streams
        .clone()
        .unwrap_or_else(|| recording.streams().keys().copied().collect());
    let mut notes = String::new();
    if target.format == FileFormat::Db3 && !target.keep_pose {
        let poses: Vec<StreamId> = streams
            .iter()
            .copied()
            .filter(|s| s.kind == StreamKind::Pose)
            .collect();
        for pose in poses {
            streams.remove(&pose);
            notes.push_str(&format!(
                "note: {pose} left out: librealsense 2.59 cannot open a .db3 with a pose stream; \
                 --keep-pose writes it (the file then opens in rsbag only)\n"
            ));
        }
    }
    if target.format == FileFormat::Bag {
        for stream in streams.iter().filter(|s| {
            recording
                .streams()
                .get(s)
                .is_some_and(|r| r.profile.format == Format::CombinedMotion)
        }) {
            notes.push_str(&format!(
                "note: {stream} written as gyro and accel streams: a .bag holds those, and \
                 librealsense 2.55 stops playing at a combined IMU sample\n"
            ));
        }
    }
    let window = target.window.as_ref();
    let (mut selection, total) = chosen(source, streams, window, &target.stream_times)
        .map_err(|e| e.in_file(target.file))?;
    selection.skip_unreadable = target.skip_unreadable;
    selection.filters = target.filters.clone();
    let bag_options = WriterOptions::default().compression(match target.compression {
        Some(chunks) => chunks,
        None if target.uncompressed => Compression::None,
        None => Compression::Lz4,
    });
    let db3_options = Db3Options {
        compress_images: !target.uncompressed,
        pose: target.keep_pose,
        // A conversion can be run again: no sync per commit (as cp).
        durable: false,
    };
    let sink = create_sink(
        target.out.to_path_buf(),
        target.format,
        bag_options,
        db3_options,
        target.force,
    )?;
    let _remove_partial = on_interrupt(Undo::RemoveFile(sink.partial_path().to_path_buf()));
    let bar = progress::bar(total, "frames");
    let report = (source.copy(sink, &selection, |n| bar.set_position(n)))
        .map_err(|e| e.in_file(target.file))?;
    bar.finish_and_clear();
    let frames: Vec<String> = report
        .frames
        .iter()
        .map(|(s, n)| format!("{s} {n}"))
        .collect();
    let text = format!(
        "{notes}wrote {} ({} bytes): {} frames ({}), {} option changes, {} notifications\n",
        target.out.display(),
        report.size,
        report.frames.values().sum::<u64>(),
        frames.join(", "),
        report.option_changes,
        report.notifications
    );
    Ok(Written {
        text,
        skipped: report.skipped,
    })
}

/// `--to db3` or `--to bag`: the recording written anew in `format`.
pub struct RecordingFile {
    pub format: FileFormat,
    /// `--uncompressed`.
    pub uncompressed: bool,
    /// `--keep-pose`.
    pub keep_pose: bool,
    /// `--force`: replace a file at the output.
    pub force: bool,
    /// `--filter`: depth filters applied to the depth streams.
    pub filters: Vec<FilterSpec>,
}

impl Target for RecordingFile {
    fn write(&self, job: &Job<'_>, _: &mut Losses) -> Result<String> {
        let source = job.source;
        let target = FileTarget {
            file: job.file,
            out: job.out,
            format: self.format,
            streams: job.selection.streams(|n| source.find_streams(n))?,
            window: job.selection.window_if_given(source.duration())?,
            stream_times: Default::default(),
            uncompressed: self.uncompressed,
            compression: None,
            keep_pose: self.keep_pose,
            force: self.force,
            skip_unreadable: false,
            filters: self.filters.clone(),
        };
        Ok(run(source, target)?.text)
    }

    fn extension(&self) -> Option<&'static str> {
        Some(self.format.extension())
    }
}

/// `--to ros2`: a ROS 2 bag of standard messages.
pub struct Ros2Bag {
    pub storage: FileFormat,
    pub mcap_compression: McapCompression,
    /// `--namespace`.
    pub namespace: String,
    pub image_transport: rsbag::ros_camera::transport::ImageTransport,
    /// `--unite-imu`.
    pub unite_imu: Option<rsbag::ros_camera::imu::UniteImu>,
    /// `--filter`: depth filters applied to the depth streams.
    pub filters: Vec<FilterSpec>,
    /// `--other-topics`, if given.
    pub other_topics: Option<rsbag::record::OtherTopics>,
    /// `--aligned-depth`.
    pub aligned_depth: bool,
    /// `--pointcloud`.
    pub pointcloud: Option<rsbag::record::PointCloudLayout>,
}

impl Target for Ros2Bag {
    fn write(&self, job: &Job<'_>, _: &mut Losses) -> Result<String> {
        let (source, file, out) = (job.source, job.file, job.out);
        let chosen_streams = job.selection.streams(|n| source.find_streams(n))?;
        let window = job.selection.window_if_given(source.duration())?;
        let streams = chosen_streams.unwrap_or_else(|| {
            source
                .described()
                .recording()
                .streams()
                .keys()
                .copied()
                .collect()
        });
        let (mut selection, total) = chosen(source, streams, window.as_ref(), &BTreeMap::new())
            .map_err(|e| e.in_file(file))?;
        selection.filters = self.filters.clone();
        let options = Ros2ExportOptions {
            storage: self.storage,
            mcap_compression: self.mcap_compression,
            namespace: self.namespace.clone(),
            image_transport: self.image_transport,
            other_topics: self
                .other_topics
                .unwrap_or(rsbag::record::OtherTopics::Keep),
            aligned_depth: self.aligned_depth,
            pointcloud: self.pointcloud,
            unite_imu: self.unite_imu,
        };
        let partial = rsbag::storage::partial_path_for(out);
        let _remove_partial = on_interrupt(Undo::RemoveDir(partial));
        let bar = progress::bar(total, "frames");
        let progress = |n| bar.set_position(n);
        let export = match source {
            Source::One(reader) => {
                export_ros2(reader.recording(), out, &options, &selection, progress)
            }
            Source::Pieces(pieces) => {
                export_ros2_pieces(pieces, out, &options, &selection, progress)
            }
        }
        .map_err(|e| e.in_file(file))?;
        bar.finish_and_clear();
        Ok(ros2_report(&export, out, self.storage, "", ""))
    }

    fn check_pieces(&self) -> Result<()> {
        if self.other_topics.is_some() {
            return Err(Error::InvalidArgument(
                "--other-topics goes with one camera bag recorded from ROS, not pieces".into(),
            ));
        }
        Ok(())
    }
}

/// What a ROS 2 export reports: the streams left out, what was written
/// where (the line ending with `summary_tail`), the `sources` lines, and
/// the messages of each topic.
pub(super) fn ros2_report(
    export: &Ros2Export,
    out: &Path,
    storage: FileFormat,
    summary_tail: &str,
    sources: &str,
) -> String {
    let mut text = String::new();
    for (stream, why) in &export.skipped {
        text.push_str(&format!("note: {stream} left out: {why}\n"));
    }
    let total: u64 = export.messages.values().sum();
    text.push_str(&format!(
        "wrote {} ({} storage, {}): {} messages on {} topics{summary_tail}\n{sources}",
        out.display(),
        storage.rosbag2_storage_id().unwrap_or_default(),
        export.storage_file.display(),
        total,
        export.messages.len()
    ));
    for (topic, n) in &export.messages {
        text.push_str(&format!("  {topic}: {n}\n"));
    }
    text
}

/// What a conversion keeps (`streams`: their frames in `window` when
/// given, or over a stream's own bag times in `stream_times`), and how
/// many frames that is.
fn chosen(
    source: Source<'_>,
    streams: BTreeSet<StreamId>,
    window: Option<&Window>,
    stream_times: &BTreeMap<StreamId, Range<BagTime>>,
) -> Result<(CopySelection, u64)> {
    let start = source.described().recording().start_time();
    let count = |streams: BTreeSet<StreamId>, bounds: (Bound<Duration>, Bound<Duration>)| {
        if streams.is_empty() {
            return Ok(0);
        }
        let counts = source.frame_counts(&streams, bounds)?;
        Ok::<u64, rsbag::Error>(counts.values().sum())
    };
    let (own, windowed): (BTreeSet<StreamId>, BTreeSet<StreamId>) =
        streams.iter().partition(|s| stream_times.contains_key(s));
    let mut total = count(
        windowed,
        window.map_or((Bound::Unbounded, Bound::Unbounded), Window::bounds),
    )?;
    for stream in own {
        let times = &stream_times[&stream];
        if !times.is_empty() {
            let since_start = (
                Bound::Included(times.start.since(start)),
                Bound::Excluded(times.end.since(start)),
            );
            total += count(BTreeSet::from([stream]), since_start)?;
        }
    }
    let selection = CopySelection {
        trim: Trim {
            streams: Some(streams),
            time: window.map_or(BagTime::ZERO..BagTime::MAX, |w| w.bag_times(start)),
            stream_times: stream_times.clone(),
        },
        ..CopySelection::default()
    };
    Ok((selection, total))
}
