//! `convert --to png|raw|csv|npy|ply|mp4|kalibr`: the frames written as
//! files into a directory, rendered a batch at a time on every core and
//! written in recorded order, listed in `frames.csv`.

use std::collections::btree_map::Entry;
use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rsbag::device::{Format, Frame, ProfileKind, StreamId, StreamProfile};
use rsbag::processing;
use rsbag::processing::filters::{FilterSpec, StreamFilters};
use rsbag::recording::{FrameReader, RecordedFrame};
use rsbag::{Error, Result};

use super::super::damage::Losses;
use super::super::interrupt::{on_interrupt, Guard, Undo};
use super::super::progress;
use super::super::select::Window;
use super::args::ToArg;
use super::plan::{Job, Target};
use super::recording::Source;
use super::render::{self, RenderOptions, Rendered};
use super::{prepare, session};

mod kalibr;
pub(super) mod video;

/// The file listing the image and point-cloud files.
const INDEX: &str = "frames.csv";

/// The header of `frames.csv`.
const INDEX_HEADER: &str =
    "file,stream,frame_number,timestamp_ms,domain,format,width,height,stride";

/// The header of `frames.csv` when its files hold depth values: the usual
/// columns and the depth units they were made with.
const DEPTH_INDEX_HEADER: &str =
    "file,stream,frame_number,timestamp_ms,domain,format,width,height,stride,depth_units_m";

/// Frame files of the kind `render.to`, into a directory.
pub struct FrameFiles {
    pub render: RenderOptions,
    /// `--align-to`: the stream images are aligned to.
    pub align_to: Option<String>,
    /// `--filter`: the chain each depth stream goes through.
    pub filters: Vec<FilterSpec>,
    /// `--force`: replace a directory an earlier conversion wrote.
    pub force: bool,
}

impl Target for FrameFiles {
    fn write(&self, job: &Job<'_>, losses: &mut Losses) -> Result<String> {
        let (source, file) = (job.source, job.file);
        let reader = source.described();
        let (streams, skipped) = self.convertible(reader, job)?;
        if self.render.to == ToArg::Kalibr {
            kalibr::check_streams(&streams).map_err(|e| e.in_file(file))?;
        }
        let window = job.selection.window(source.duration())?;
        let in_file = |e: Error| e.in_file(file);
        // Filtered depth has its own size and intrinsics: point clouds are
        // then not coloured (the colour mapping is of the recorded depth).
        let coloured_clouds = self.render.to == ToArg::Ply && self.filters.is_empty();
        let align_to = self.align_to.as_deref();
        let mut preparer =
            prepare::Preparer::new(reader, &streams, align_to, coloured_clouds).map_err(in_file)?;
        let mut filters = StreamFilters::of_recording(reader.recording(), &self.filters);
        let renderer = render::Renderer::new(&self.render, reader, &streams);
        let total = (source.frame_counts(&streams, window.bounds()))
            .map_err(in_file)?
            .values()
            .sum();
        let bar = progress::bar(total, "frames");
        let dir = OutputDir::create(job.out, self.force)?;
        let mut writer = Writer::new(self.render.to, &dir);
        let work = Batch {
            pending: Vec::with_capacity(BATCH),
            preparer: &mut preparer,
            renderer: &renderer,
            writer: &mut writer,
            bar: &bar,
            filters: &mut filters,
        };
        work.convert(source, &streams, &window, losses, file)?;
        let (written, mut notes) = writer.finish()?;
        notes.extend(preparer.notes());
        if !self.filters.is_empty() {
            let chain: Vec<&str> = self.filters.iter().map(|f| f.kind.name()).collect();
            notes.push(format!("depth filtered: {}", chain.join(" -> ")));
        }
        dir.finish()?;
        bar.finish_and_clear();
        Ok(summary(self.render.to, job.out, &written, &skipped, &notes))
    }

    fn report_leads(&self) -> bool {
        true
    }
}

/// Frames rendered together, on every core.
const BATCH: usize = 32;

/// Frames read but not yet written: rendered a batch at a time on every
/// core (encoding, aligning, point clouds), then written in recorded order.
/// Memory holds a batch.
struct Batch<'w, 'a> {
    /// Each frame with the frames of its frameset.
    pending: Vec<(RecordedFrame, Arc<[RecordedFrame]>)>,
    preparer: &'w mut prepare::Preparer,
    renderer: &'w render::Renderer,
    writer: &'w mut Writer<'a>,
    bar: &'w indicatif::ProgressBar,
    /// `--filter`: each depth stream's chain, applied in recorded order.
    filters: &'w mut StreamFilters,
}

impl Batch<'_, '_> {
    /// Read the frames of `streams` in `window` and write them; frames
    /// that cannot be read are noted in `losses`.
    fn convert(
        mut self,
        source: Source<'_>,
        streams: &BTreeSet<StreamId>,
        window: &Window,
        losses: &mut Losses,
        file: &Path,
    ) -> Result<()> {
        let in_file = |e: Error| e.in_file(file);
        if self.preparer.needs_framesets() {
            // Frames are written with the frames of their frameset, partners
            // read but not written.
            let read = streams.iter().copied().chain(self.preparer.partners());
            let sets = source.framesets(&read.collect(), window.bounds());
            for set in sets.map_err(in_file)? {
                match set {
                    Ok(set) => {
                        let set: Arc<[RecordedFrame]> = set.frames().into();
                        for frame in set.iter().filter(|f| streams.contains(&f.stream)) {
                            self.add(frame.clone(), set.clone()).map_err(in_file)?;
                        }
                    }
                    Err(e) => self.bar.suspend(|| losses.note(e))?,
                }
            }
        } else {
            let alone: Arc<[RecordedFrame]> = Arc::new([]);
            for frame in source.frames(streams, window.bounds()).map_err(in_file)? {
                match frame {
                    // A frame that cannot be converted is the input's fault.
                    Ok(frame) => self.add(frame, alone.clone()).map_err(in_file)?,
                    Err(e) => self.bar.suspend(|| losses.note(e))?,
                }
            }
        }
        self.finish().map_err(in_file)
    }

    fn add(&mut self, frame: RecordedFrame, set: Arc<[RecordedFrame]>) -> Result<()> {
        self.pending.push((frame, set));
        if self.pending.len() == BATCH {
            self.flush()?;
        }
        Ok(())
    }

    fn finish(mut self) -> Result<()> {
        self.flush()
    }

    fn flush(&mut self) -> Result<()> {
        self.filters
            .apply_all(self.pending.iter_mut().map(|(f, _)| &mut f.frame))?;
        let (preparer, renderer) = (&*self.preparer, self.renderer);
        let results = rsbag::parallel::parallel_map(&self.pending, |(frame, set)| -> Result<_> {
            let Some(ready) = preparer.prepare(frame, set)? else {
                return Ok(None);
            };
            let rendered = renderer.render(&ready.frame, ready.texture.as_ref())?;
            Ok(Some((ready.frame, rendered)))
        });
        for ((frame, _), result) in self.pending.drain(..).zip(results) {
            match result? {
                Some((ready, rendered)) => self.writer.commit(&ready, rendered)?,
                None => self.preparer.note_unpaired(frame.stream),
            }
            self.bar.inc(1);
        }
        Ok(())
    }
}

/// Streams skipped, with why.
pub(super) type Skipped = Vec<(StreamId, &'static str)>;

impl FrameFiles {
    /// The chosen streams that can be written as `render.to`, and those
    /// skipped; an error if a named stream cannot be, or none can.
    fn convertible(
        &self,
        reader: &FrameReader,
        job: &Job<'_>,
    ) -> Result<(BTreeSet<StreamId>, Skipped)> {
        let to = self.render.to;
        let named = job.selection.streams(|n| reader.find_streams(n))?;
        let recorded = reader.recording().streams();
        let mut streams = BTreeSet::new();
        let mut skipped = Vec::new();
        for (&id, stream) in recorded {
            if named.as_ref().is_some_and(|n| !n.contains(&id)) {
                continue;
            }
            match accepts(to, &stream.profile) {
                Ok(()) => {
                    streams.insert(id);
                }
                Err(why) if named.is_some() => {
                    return Err(Error::InvalidArgument(format!(
                        "stream {id} cannot be written as {}: {why}",
                        to.name()
                    )))
                }
                Err(why) => skipped.push((id, why)),
            }
        }
        if streams.is_empty() {
            let all: Vec<String> = recorded.keys().map(|s| s.to_string()).collect();
            return Err(Error::InvalidArgument(format!(
                "no stream can be written as {} (the recording has {})",
                to.name(),
                if all.is_empty() {
                    "no streams".into()
                } else {
                    all.join(", ")
                }
            ))
            .in_file(job.file));
        }
        Ok((streams, skipped))
    }
}

/// The report: the frames written per stream into `dir`, `notes`, and the
/// streams skipped.
fn summary(
    to: ToArg,
    dir: &Path,
    written: &BTreeMap<StreamId, u64>,
    skipped: &[(StreamId, &str)],
    notes: &[String],
) -> String {
    let mut out = String::new();
    let counts: Vec<String> = written.iter().map(|(s, n)| format!("{s}: {n}")).collect();
    outln!(
        out,
        "converted {} frames to {} in {} ({})",
        written.values().sum::<u64>(),
        to.name(),
        dir.display(),
        counts.join(", ")
    );
    for note in notes {
        outln!(out, "{note}");
    }
    for (stream, why) in skipped {
        outln!(out, "skipped {stream}: {why}");
    }
    out
}

/// The output directory, written under a temporary name beside it and
/// renamed when complete; dropped unfinished, it is removed.
pub(super) struct OutputDir {
    path: PathBuf,
    temp: PathBuf,
    /// An earlier output at `path` that this one replaces (`--force`).
    replaces: bool,
    done: bool,
    /// Ctrl-C removes the unfinished directory.
    _undo: Guard,
}

impl OutputDir {
    /// The output directory `path`; with `force`, replacing a directory
    /// there that an earlier conversion wrote (one holding its index,
    /// `frames.csv` or `framesets.csv`) once this one is complete, and
    /// nothing else.
    pub(super) fn create(path: &Path, force: bool) -> Result<OutputDir> {
        let io = |source| Error::Io {
            path: path.to_path_buf(),
            error: source,
        };
        let Some(name) = path.file_name() else {
            return Err(Error::InvalidArgument(format!(
                "--out {} does not name a directory",
                path.display()
            )));
        };
        let occupied = path.symlink_metadata().is_ok()
            && !(path.is_dir() && std::fs::read_dir(path).map_err(io)?.next().is_none());
        let written_by_rsbag = path.is_dir()
            && !path.is_symlink()
            && [INDEX, session::FRAMESETS]
                .iter()
                .any(|index| path.join(index).is_file());
        if occupied && !(force && written_by_rsbag) {
            return Err(Error::InvalidArgument(format!(
                "{}: the output exists and is not an empty directory; {}",
                path.display(),
                if written_by_rsbag {
                    "give --force to replace it (an earlier conversion's), or name another output"
                } else {
                    "--force replaces only a directory a conversion wrote (one holding its frames.csv): name another output"
                }
            )));
        }
        let temp = path.with_file_name(format!(
            ".{}.partial-{}",
            name.to_string_lossy(),
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&temp);
        std::fs::create_dir(&temp).map_err(io)?;
        Ok(OutputDir {
            path: path.to_path_buf(),
            _undo: on_interrupt(Undo::RemoveDir(temp.clone())),
            temp,
            replaces: occupied,
            done: false,
        })
    }

    /// Create a file `name` in the directory; errors name its final path.
    pub(super) fn create_file(&self, name: &str) -> Result<BufWriter<File>> {
        let file = File::create(self.temp.join(name)).map_err(|e| self.error(name, e))?;
        Ok(BufWriter::new(file))
    }

    /// Create a CSV file `name` with its header line.
    pub(super) fn create_csv(&self, name: &str, header: &str) -> Result<BufWriter<File>> {
        let mut file = self.create_file(name)?;
        writeln!(file, "{header}").map_err(|e| self.error(name, e))?;
        Ok(file)
    }

    pub(super) fn error(&self, name: &str, source: std::io::Error) -> Error {
        Error::Io {
            path: self.path.join(name),
            error: source,
        }
    }

    pub(super) fn finish(mut self) -> Result<()> {
        let io = |source| Error::Io {
            path: self.path.clone(),
            error: source,
        };
        if self.replaces {
            // The earlier output goes only once this one is complete; a
            // rename does not replace a directory that is not empty.
            let old = self.temp.with_extension("replaced");
            std::fs::rename(&self.path, &old).map_err(io)?;
            if let Err(e) = std::fs::rename(&self.temp, &self.path) {
                let _ = std::fs::rename(&old, &self.path);
                return Err(io(e));
            }
            self.done = true;
            return std::fs::remove_dir_all(&old).map_err(io);
        }
        if self.path.exists() {
            // Checked empty at the start; rename does not replace it.
            std::fs::remove_dir(&self.path).map_err(io)?;
        }
        std::fs::rename(&self.temp, &self.path).map_err(io)?;
        self.done = true;
        Ok(())
    }
}

impl Drop for OutputDir {
    fn drop(&mut self) {
        if !self.done {
            let _ = std::fs::remove_dir_all(&self.temp);
        }
    }
}

/// Writes frames into the output directory.
pub(super) struct Writer<'a> {
    to: ToArg,
    dir: &'a OutputDir,
    names: HashSet<String>,
    index: Option<BufWriter<File>>,
    csv: BTreeMap<StreamId, (String, BufWriter<File>)>,
    written: BTreeMap<StreamId, u64>,
    /// `--to mp4`: the video being written of each stream.
    videos: BTreeMap<StreamId, video::VideoFile>,
    /// `--to kalibr`: the IMU file, once a sample came.
    imu: Option<kalibr::ImuCsv>,
}

impl<'a> Writer<'a> {
    fn new(to: ToArg, dir: &'a OutputDir) -> Self {
        Writer {
            to,
            dir,
            names: HashSet::new(),
            index: None,
            csv: BTreeMap::new(),
            written: BTreeMap::new(),
            videos: BTreeMap::new(),
            imu: None,
        }
    }

    /// Write what `recorded` became, in recorded order.
    fn commit(&mut self, recorded: &RecordedFrame, rendered: Rendered) -> Result<()> {
        let frame = &recorded.frame;
        match rendered {
            Rendered::Files { files, depth_units } => {
                for made in files {
                    let name = self.file_name(frame, made.suffix, made.ext);
                    let mut file = self.dir.create_file(&name)?;
                    file.write_all(&made.bytes)
                        .and_then(|()| file.flush())
                        .map_err(|e| self.dir.error(&name, e))?;
                    self.indexed(&name, frame, depth_units)?;
                }
            }
            Rendered::Picture(picture) => self.video_frame(recorded, picture)?,
            Rendered::InOrder if self.to == ToArg::Kalibr => self.imu_sample(frame)?,
            Rendered::InOrder => self.csv_row(frame)?,
        }
        *self.written.entry(recorded.stream).or_default() += 1;
        Ok(())
    }

    /// `Depth_000042{suffix}.{ext}`, unique in the directory (a repeated
    /// frame number gets `_2`, `_3`…).
    fn file_name(&mut self, frame: &Frame, suffix: &str, ext: &str) -> String {
        let base = format!(
            "{}_{:06}{suffix}",
            label(frame.profile.stream),
            frame.number
        );
        let mut name = format!("{base}.{ext}");
        let mut n = 1;
        while self.names.contains(&name) {
            n += 1;
            name = format!("{base}_{n}.{ext}");
        }
        self.names.insert(name.clone());
        name
    }

    fn csv_row(&mut self, frame: &Frame) -> Result<()> {
        let stream = frame.profile.stream;
        let row = csv_values(frame).ok_or_else(|| {
            Error::InvalidArgument(format!(
                "frame #{} of {stream} holds {} bytes, not a sample",
                frame.number,
                frame.data.len()
            ))
        })?;
        let (name, file) = match self.csv.entry(stream) {
            Entry::Occupied(entry) => entry.into_mut(),
            Entry::Vacant(entry) => {
                let name = format!("{}.csv", label(stream));
                let header = if frame.pose().is_some() {
                    "frame_number,timestamp_ms,tx,ty,tz,qx,qy,qz,qw,vx,vy,vz,ax,ay,az,wx,wy,wz,awx,awy,awz,tracker_confidence,mapper_confidence"
                } else {
                    "frame_number,timestamp_ms,x,y,z"
                };
                let file = self.dir.create_csv(&name, header)?;
                entry.insert((name, file))
            }
        };
        writeln!(file, "{},{},{row}", frame.number, frame.timestamp)
            .map_err(|e| self.dir.error(name, e))
    }

    /// Add a line for file `name` to `frames.csv`; files of depth values
    /// also give the depth units they were made with (a run writes either
    /// depth values or images, never both, so the index has one header).
    fn indexed(&mut self, name: &str, frame: &Frame, depth_units: Option<f32>) -> Result<()> {
        let mut index = match self.index.take() {
            Some(index) => index,
            None if depth_units.is_some() => self.dir.create_csv(INDEX, DEPTH_INDEX_HEADER)?,
            None => self.dir.create_csv(INDEX, INDEX_HEADER)?,
        };
        let (width, height) = frame.resolution().unwrap_or((0, 0));
        let units = depth_units.map(|u| format!(",{u}")).unwrap_or_default();
        let line = writeln!(
            index,
            "{name},{},{},{},{},{},{width},{height},{}{units}",
            frame.profile.stream,
            frame.number,
            frame.timestamp,
            frame.domain,
            frame.profile.format,
            frame.stride
        );
        self.index = Some(index);
        line.map_err(|e| self.dir.error(INDEX, e))
    }

    /// Flush every file; the frames written per stream, and what the
    /// report should add about the files (videos, the IMU file).
    fn finish(mut self) -> Result<(BTreeMap<StreamId, u64>, Vec<String>)> {
        for (name, file) in self.csv.values_mut() {
            file.flush().map_err(|e| self.dir.error(name, e))?;
        }
        if let Some(index) = &mut self.index {
            index.flush().map_err(|e| self.dir.error(INDEX, e))?;
        }
        let mut notes = Vec::new();
        for video in std::mem::take(&mut self.videos).into_values() {
            notes.push(video.finish()?);
        }
        if let Some(imu) = self.imu.take() {
            notes.push(imu.finish(self.dir)?);
        }
        Ok((self.written, notes))
    }
}

/// `Depth`, `Infrared_1`: a stream as it starts file names.
pub(super) fn label(stream: StreamId) -> String {
    stream.name_joined("_")
}

/// The CSV values of an IMU or pose sample after its number and timestamp.
fn csv_values(frame: &Frame) -> Option<String> {
    let join = |values: &[f32]| {
        values
            .iter()
            .map(|v| v.to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    if let Some(p) = frame.pose() {
        let floats: Vec<f32> = [
            &p.translation[..],
            &p.rotation,
            &p.velocity,
            &p.acceleration,
            &p.angular_velocity,
            &p.angular_acceleration,
        ]
        .concat();
        return Some(format!(
            "{},{},{}",
            join(&floats),
            p.tracker_confidence,
            p.mapper_confidence
        ));
    }
    frame.motion().map(|m| join(&m))
}

/// Whether frames of `profile` can be written as `to`, and if not, why.
pub fn accepts(to: ToArg, profile: &StreamProfile) -> std::result::Result<(), &'static str> {
    let video = matches!(profile.kind, ProfileKind::Video { .. });
    match to {
        ToArg::Png if !video => Err("not an image"),
        ToArg::Png if !processing::image_supported(profile.format) => {
            Err("a format PNG does not hold")
        }
        ToArg::Raw if !video => Err("not an image"),
        ToArg::Csv if video && profile.format != Format::Z16 => {
            Err("not depth, IMU or pose samples")
        }
        ToArg::Npy if profile.format != Format::Z16 => Err("not depth"),
        ToArg::Ply if profile.format != Format::Z16 => Err("not depth"),
        ToArg::Ply if profile.intrinsics().is_none() => Err("no intrinsics recorded"),
        ToArg::Mp4 => video::accepts(profile),
        ToArg::Kalibr => kalibr::accepts(profile),
        _ => Ok(()),
    }
}
