//! `rsbag record`: record a device into a bag.

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rsbag::device::synthetic::{self, SyntheticConfig, SyntheticDevice};
use rsbag::device::{Device, StreamId, StreamKind, StreamProfile};
use rsbag::record::{existing_pieces, Db3Options, RecordOptions, Recorder, Split};
use rsbag::storage::bag::Compression;
use rsbag::storage::FileFormat;
use rsbag::storage::{free_bytes, partial_path_for};
use rsbag::{Error, Result};

use rsbag_librealsense::{Context, LibrealsenseDevice};

use super::devices::librealsense_error;
use super::interrupt;
use super::select::seconds;

/// Record a camera into a bag, then print what was written: rsbag's own
/// synthetic camera, or a RealSense camera through librealsense.
///
/// `--camera SERIAL` records the device with that serial number (see
/// `rsbag devices`; `all`: every connected device at once, each into
/// `--out` with its serial number before the extension), every default
/// profile of the chosen `--streams`;
/// librealsense is loaded as for `rsbag devices`. `--simulate FILE` plays
/// a recording as a connected device (librealsense's own playback, in real
/// time): the recording ends with the file or `--duration`.
///
/// A camera is never kept waiting on the disk: frames wait for the writer
/// in a bounded queue, and when it is full they are dropped, counted per
/// stream in the report, and the exit status is 1 (the synthetic camera
/// waits for the writer instead, and drops nothing). A camera unplugged
/// while recording (`--unplug-after` plays that with `--simulate`): the
/// recording stops, every file is finished and indexed, and rsbag exits
/// with 1 naming the camera and the time into the recording. Ctrl-C
/// finishes the files (exit 0).
///
/// `--split-duration` / `--split-size` write the recording in pieces,
/// `NAME_0.EXT`, `NAME_1.EXT`, … (as `ros2 bag record` splits), each a
/// whole recording librealsense plays alone, the frame numbers running on
/// from piece to piece; `--max-pieces N` keeps only the last N. When the
/// disk fills up, writing stops and the file being written is finished
/// and indexed with every frame written until then (room for that is kept
/// on the disk as it is written): exit 1, naming the disk and what was
/// not recorded.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("device").required(true).args(["synthetic", "camera", "ros2"])))]
pub struct Args {
    /// Record the built-in synthetic D435i-like camera.
    #[arg(long)]
    synthetic: bool,
    /// Record the RealSense device with this serial number, through
    /// librealsense.
    #[arg(long, value_name = "SERIAL")]
    camera: Option<String>,
    /// A recording librealsense plays as a connected device (repeatable;
    /// with --camera).
    #[arg(long, value_name = "FILE", requires = "camera")]
    simulate: Vec<PathBuf>,
    /// Unplug the simulated cameras SECONDS into the recording (they are
    /// removed from librealsense's context, as a camera pulled out is):
    /// to test how a pipeline takes a lost camera.
    #[arg(long, value_name = "SECONDS", requires = "simulate")]
    unplug_after: Option<f64>,
    /// Load an advanced-mode preset (the JSON realsense-viewer saves)
    /// into the camera before recording; an error, before anything is
    /// written, for a device without advanced mode (a played recording).
    #[arg(long, value_name = "FILE.json", requires = "camera")]
    preset: Option<PathBuf>,
    /// Set an option before recording: `SENSOR.OPTION=VALUE`, e.g.
    /// "Stereo Module.Laser Power=150" (repeatable; a wrong name lists
    /// the valid ones, and nothing is written).
    #[arg(long, value_name = "SENSOR.OPTION=VALUE", conflicts_with = "ros2")]
    option: Vec<String>,
    /// Seconds to record.
    #[arg(long, default_value_t = 3.0)]
    duration: f64,
    /// The recording to write, in the format its name ends in: `.bag`
    /// (ROS1, as librealsense up to 2.57 records) or `.db3` (rosbag2, as
    /// librealsense 2.58+ records); another name is refused.
    #[arg(long)]
    out: PathBuf,
    /// Record a camera the RealSense ROS wrapper drives, from a ROS 2
    /// graph (the user's ROS 2: sourced, or RSBAG_ROS2=PREFIX): its topics'
    /// messages are captured beside --out and written as `rsbag convert`
    /// writes a camera bag.
    #[arg(long)]
    ros2: bool,
    /// With --ros2: the wrapper's namespace, one per camera (repeated).
    #[arg(long, value_name = "NS", default_value = rsbag::ros_camera::DEFAULT_NAMESPACE, requires = "ros2")]
    namespace: Vec<String>,
    /// With --ros2: record these topics instead of the wrapper's under the
    /// namespaces (comma-separated or repeated).
    #[arg(long, value_name = "TOPICS", value_delimiter = ',', requires = "ros2")]
    topics: Vec<String>,
    /// With --ros2: the QoS to subscribe with. `reliable` (the wrapper's
    /// default publishers): no message lost on the way, but a best-effort
    /// publisher (the wrapper's SENSOR_DATA) does not match it;
    /// `sensor-data`: best effort, matches both, but large images may be
    /// lost on the way.
    #[arg(long, value_enum, default_value = "reliable", requires = "ros2")]
    qos: super::play::QosArg,
    /// The most bytes of frames (with --ros2, messages) held between the
    /// camera and the writer; past it a frame is dropped (and counted: the
    /// command then exits 1), so that the camera is never held up (the
    /// synthetic camera waits instead). The recording's memory stays
    /// within it, however slow the disk.
    #[arg(long, value_name = "BYTES", default_value_t = RecordOptions::default().max_queued_bytes)]
    max_cache_size: usize,
    /// Replace a file already at the output (by default that is an error).
    #[arg(long)]
    force: bool,
    /// Write the recording in pieces of this many seconds each:
    /// `NAME_0.EXT`, `NAME_1.EXT`, …, each playable alone.
    #[arg(long, value_name = "SECONDS", conflicts_with = "ros2")]
    split_duration: Option<f64>,
    /// Write the recording in pieces of about this many megabytes (10^6
    /// bytes) each: a piece ends before the frame that would take it past
    /// the size.
    #[arg(long, value_name = "MB", conflicts_with = "ros2")]
    split_size: Option<f64>,
    /// Keep only the last N pieces of a split recording, deleting the
    /// oldest as a new one is finished (a ring: the last minutes before an
    /// event). Only pieces this recording wrote are deleted.
    #[arg(long, value_name = "N", conflicts_with = "ros2")]
    max_pieces: Option<usize>,
    /// Write uncompressed chunks in a `.bag` (default: LZ4), raw images in
    /// a `.db3` (default: PNG and zstd, as librealsense 2.59).
    #[arg(long)]
    no_compression: bool,
    /// Streams to record.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "depth,color,infrared1,infrared2,accel,gyro",
        conflicts_with = "ros2"
    )]
    streams: Vec<StreamName>,
    /// Depth (and infrared) resolution and rate, WIDTHxHEIGHT@FPS
    /// (default: 640x480@30 for the synthetic camera, a camera's default
    /// profile; a mode the camera lacks is an error listing its modes).
    #[arg(long, value_parser = parse_mode, conflicts_with = "ros2")]
    depth: Option<(u32, u32, u32)>,
    /// Color resolution and rate, WIDTHxHEIGHT@FPS (defaults as --depth).
    #[arg(long, value_parser = parse_mode, conflicts_with = "ros2")]
    color: Option<(u32, u32, u32)>,
}

/// A stream of the synthetic camera, by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum StreamName {
    Depth,
    Color,
    Infrared1,
    Infrared2,
    Accel,
    Gyro,
    Pose,
    Fisheye1,
    Fisheye2,
}

impl StreamName {
    fn id(self) -> StreamId {
        match self {
            StreamName::Depth => synthetic::DEPTH,
            StreamName::Color => synthetic::COLOR,
            StreamName::Infrared1 => synthetic::INFRARED_1,
            StreamName::Infrared2 => synthetic::INFRARED_2,
            StreamName::Accel => synthetic::ACCEL,
            StreamName::Gyro => synthetic::GYRO,
            StreamName::Pose => synthetic::POSE,
            // A tracking camera's (T265) pair; the synthetic camera has none.
            StreamName::Fisheye1 => StreamId::new(StreamKind::Fisheye, 1),
            StreamName::Fisheye2 => StreamId::new(StreamKind::Fisheye, 2),
        }
    }
}

/// A device recorded, the profiles started, and its file.
struct Source {
    device: Arc<dyn Device>,
    wanted: Vec<StreamProfile>,
    /// The device through librealsense (not the synthetic camera).
    camera: Option<Arc<LibrealsenseDevice>>,
    /// A recording librealsense plays as the device: started paused.
    playback: Option<Arc<LibrealsenseDevice>>,
    out: PathBuf,
}

impl Source {
    fn synthetic(args: &Args) -> Result<Source> {
        let config = SyntheticConfig {
            depth: args.depth.unwrap_or(SYNTHETIC_MODE),
            color: args.color.unwrap_or(SYNTHETIC_MODE),
            pose: args.streams.contains(&StreamName::Pose),
            ..SyntheticConfig::default()
        };
        let camera = Arc::new(SyntheticDevice::new(config)?);
        let wanted: Vec<StreamProfile> = args
            .streams
            .iter()
            .map(|s| {
                camera.default_profile(s.id()).ok_or_else(|| {
                    Error::InvalidArgument(format!("the synthetic camera has no {:?} stream", s))
                })
            })
            .collect::<Result<_>>()?;
        Ok(Source {
            device: camera,
            wanted,
            camera: None,
            playback: None,
            out: args.out.clone(),
        })
    }

    /// The camera `serial` (or, for `all`, every connected camera, each
    /// into `--out` with its serial number before the extension) through
    /// librealsense; the context keeps simulated devices alive.
    fn cameras(args: &Args, serial: &str) -> Result<(Vec<Source>, Option<Context>)> {
        let context = super::devices::context_with(&args.simulate)?;
        let serials: Vec<String> = if serial == "all" {
            let devices = context.devices().map_err(librealsense_error)?;
            if devices.is_empty() {
                return Err(Error::InvalidArgument(
                    "--camera all: no RealSense device is connected".into(),
                ));
            }
            devices
                .iter()
                .map(|d| d.info.get("Serial Number").cloned().unwrap_or_default())
                .collect()
        } else {
            vec![serial.to_owned()]
        };
        let sources = serials
            .iter()
            .map(|serial| {
                let out = match serials.len() {
                    1 => args.out.clone(),
                    _ => with_serial(&args.out, serial),
                };
                Source::camera(args, &context, serial, out)
            })
            .collect::<Result<_>>()?;
        Ok((sources, Some(context)))
    }

    /// The chosen streams of camera `serial`: the depth and colour modes
    /// asked for, else each stream's default profile.
    fn camera(args: &Args, context: &Context, serial: &str, out: PathBuf) -> Result<Source> {
        let device = Arc::new(context.device(serial).map_err(librealsense_error)?);
        let profiles: Vec<StreamProfile> =
            device.sensors().iter().flat_map(|s| s.profiles()).collect();
        let mut wanted = Vec::new();
        for name in &args.streams {
            let stream = name.id();
            let mode = match stream.kind {
                StreamKind::Depth | StreamKind::Infrared => args.depth,
                StreamKind::Color => args.color,
                _ => None,
            };
            let of_stream = || profiles.iter().filter(|p| p.stream == stream);
            let chosen =
                match mode {
                    Some((w, h, fps)) => {
                        of_stream()
                            .find(|p| p.resolution() == Some((w, h)) && p.fps == fps)
                            .ok_or_else(|| {
                                let modes: Vec<String> = of_stream()
                                    .filter_map(|p| {
                                        p.resolution().map(|(w, h)| format!("{w}x{h}@{}", p.fps))
                                    })
                                    .collect();
                                Error::InvalidArgument(format!(
                            "camera {serial} has no {stream} mode {w}x{h}@{fps}; it has: {}",
                            if modes.is_empty() { "none".into() } else { modes.join(", ") }
                        ))
                            })?
                    }
                    None => match of_stream().find(|p| p.is_default) {
                        Some(p) => p,
                        None => continue,
                    },
                };
            wanted.push(*chosen);
        }
        if wanted.is_empty() {
            return Err(Error::InvalidArgument(format!(
                "camera {serial} has none of the streams asked for ({:?})",
                args.streams
            )));
        }
        // A played recording holds its frames until every sensor started.
        let playback = device.pause().is_ok().then(|| device.clone());
        Ok(Source {
            device: device.clone(),
            wanted,
            camera: Some(device),
            playback,
            out,
        })
    }
}

/// `NAME.EXT` → `NAME-SERIAL.EXT`: one file per camera.
fn with_serial(out: &std::path::Path, serial: &str) -> PathBuf {
    let stem = out.file_stem().unwrap_or_default().to_string_lossy();
    let name = match out.extension() {
        Some(ext) => format!("{stem}-{serial}.{}", ext.to_string_lossy()),
        None => format!("{stem}-{serial}"),
    };
    out.with_file_name(name)
}

/// The synthetic camera's depth and colour mode unless told otherwise.
const SYNTHETIC_MODE: (u32, u32, u32) = (640, 480, 30);

fn parse_mode(text: &str) -> std::result::Result<(u32, u32, u32), String> {
    let bad = || format!("{text:?} is not WIDTHxHEIGHT@FPS (e.g. 1280x720@30)");
    let (size, fps) = text.split_once('@').ok_or_else(bad)?;
    let (w, h) = size.split_once('x').ok_or_else(bad)?;
    Ok((
        w.parse().map_err(|_| bad())?,
        h.parse().map_err(|_| bad())?,
        fps.parse().map_err(|_| bad())?,
    ))
}

/// What `--no-compression` says, for a camera of either kind: the
/// compression of a `.bag`'s chunks and the options of a `.db3` (its
/// images compressed or raw).
fn compression_of(args: &Args) -> (Compression, Db3Options) {
    let compression = if args.no_compression {
        Compression::None
    } else {
        Compression::Lz4
    };
    let db3 = Db3Options {
        compress_images: !args.no_compression,
        ..Db3Options::default()
    };
    (compression, db3)
}

pub fn run(args: Args) -> Result<()> {
    let duration = seconds("duration", args.duration)?;
    if args.ros2 {
        let report = super::record_ros2::run(&super::record_ros2::Request {
            namespaces: &args.namespace,
            topics: &args.topics,
            out: &args.out,
            force: args.force,
            duration,
            reliable: args.qos == super::play::QosArg::Reliable,
            max_cache_bytes: args.max_cache_size,
            compression: compression_of(&args),
        })?;
        super::emit(&report);
        return Ok(());
    }
    let unplug_after = args
        .unplug_after
        .map(|s| seconds("unplug-after", s))
        .transpose()?;
    let (compression, db3) = compression_of(&args);
    let split = split_of(&args)?;
    let format = FileFormat::of_recording_path(&args.out)?;
    if format == FileFormat::Db3 && args.streams.contains(&StreamName::Pose) {
        return Err(Error::InvalidArgument(
            "--streams pose: librealsense 2.59 cannot open a .db3 with a pose stream; record a .bag \
             (rsbag convert --to db3 --keep-pose writes one that only rsbag reads)"
                .into(),
        ));
    }
    let preset = args.preset.as_deref().map(read_preset).transpose()?;
    let (sources, context) = match &args.camera {
        Some(serial) => Source::cameras(&args, serial)?,
        None => (vec![Source::synthetic(&args)?], None),
    };
    // Every output is checked, and every option and preset set, before
    // any file is made: a bad argument leaves nothing behind.
    for source in &sources {
        refuse_existing(&source.out, split.is_some(), args.force)?;
        for option in &args.option {
            set_option(source.device.as_ref(), option)?;
        }
        if let (Some((path, json)), Some(camera)) = (&preset, &source.camera) {
            camera
                .load_preset(json)
                .map_err(|e| Error::InvalidArgument(format!("--preset {}: {e}", path.display())))?;
        }
    }
    let options = RecordOptions {
        overwrite: args.force,
        // The synthetic camera can wait for the disk; a real one cannot.
        wait_when_full: args.synthetic,
        max_queued_bytes: args.max_cache_size,
        split,
        db3,
        ..RecordOptions::default().compression(compression)
    };
    // Ctrl-C from here on finishes the files.
    let interrupted = interrupt::handle();
    let mut recorders = Vec::new();
    for source in &sources {
        recorders.push(Recorder::new(&source.out, source.device.clone(), options)?);
    }
    let began = Instant::now();
    for (recorder, source) in recorders.iter().zip(&sources) {
        start(recorder, &source.wanted)?;
    }
    let session = Session {
        recorders: &recorders,
        sources: &sources,
        context: context.as_ref(),
        simulated: &args.simulate,
        interrupted,
        began,
        duration,
        unplug_after,
        split: split.is_some(),
    };
    let ended = session.until_done()?;
    finish(recorders, &sources, began, ended)
}

/// `--split-duration`, `--split-size` and `--max-pieces`.
fn split_of(args: &Args) -> Result<Option<Split>> {
    let duration = args
        .split_duration
        .map(|s| {
            let d = seconds("split-duration", s)?;
            match d.is_zero() {
                true => Err(Error::InvalidArgument(
                    "--split-duration must be more than 0 seconds".into(),
                )),
                false => Ok(d),
            }
        })
        .transpose()?;
    let bytes = args
        .split_size
        .map(|mb| match mb.is_finite() && mb > 0.0 {
            true => Ok((mb * 1e6) as u64),
            false => Err(Error::InvalidArgument(format!(
                "--split-size must be a positive number of megabytes, not {mb}"
            ))),
        })
        .transpose()?;
    if duration.is_none() && bytes.is_none() {
        return match args.max_pieces {
            Some(_) => Err(Error::InvalidArgument(
                "--max-pieces keeps the last pieces of a split recording: give \
                 --split-duration or --split-size too"
                    .into(),
            )),
            None => Ok(None),
        };
    }
    if args.max_pieces == Some(0) {
        return Err(Error::InvalidArgument(
            "--max-pieces must be at least 1".into(),
        ));
    }
    Ok(Some(Split {
        duration,
        bytes,
        keep: args.max_pieces,
    }))
}

/// An error when the output (or, split, any of its pieces) exists and
/// `--force` was not given.
fn refuse_existing(out: &Path, split: bool, force: bool) -> Result<()> {
    if force {
        return Ok(());
    }
    if !split && out.symlink_metadata().is_ok() {
        return Err(Error::InvalidArgument(format!(
            "{}: the output exists; give --force to replace it, or name another output",
            out.display()
        )));
    }
    let pieces = if split {
        existing_pieces(out)
    } else {
        Vec::new()
    };
    if let Some(first) = pieces.first() {
        return Err(Error::InvalidArgument(format!(
            "{}: {} piece(s) of a recording by that name exist ({}); give --force to write \
             over them, or name another output",
            out.display(),
            pieces.len(),
            first.display()
        )));
    }
    Ok(())
}

/// The preset file's text, checked to be a JSON object: a clear error
/// naming the file (and the line and column where it is not JSON).
fn read_preset(path: &Path) -> Result<(PathBuf, String)> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        Error::InvalidArgument(format!("--preset {}: cannot read it: {e}", path.display()))
    })?;
    let bad = |why: String| {
        Error::InvalidArgument(format!(
            "--preset {}: {why}; a preset is the JSON object realsense-viewer saves",
            path.display()
        ))
    };
    match serde_json::from_str::<serde_json::Value>(&text) {
        Ok(serde_json::Value::Object(_)) => Ok((path.to_owned(), text)),
        Ok(_) => Err(bad("not a JSON object".into())),
        Err(e) => Err(bad(format!(
            "not JSON at line {}, column {}: {e}",
            e.line(),
            e.column()
        ))),
    }
}

/// Why a recording ended.
enum Ended {
    /// Its time was up, or every played recording ended.
    Done,
    /// Ctrl-C.
    Interrupted,
    /// Writing failed (the error comes with the file's finish).
    WriteFailed,
    /// A camera went away (serial number), this far into the recording.
    Unplugged(String, Duration),
}

/// What the recording loop watches.
struct Session<'a> {
    recorders: &'a [Recorder],
    sources: &'a [Source],
    context: Option<&'a Context>,
    simulated: &'a [PathBuf],
    interrupted: crossbeam_channel::Receiver<()>,
    began: Instant,
    duration: Duration,
    unplug_after: Option<Duration>,
    /// Whether the recording is split (the status line names the piece).
    split: bool,
}

impl Session<'_> {
    /// Record until the time is up, every played recording ended, Ctrl-C,
    /// a write error or a camera's removal, showing the status line on a
    /// terminal.
    fn until_done(&self) -> Result<Ended> {
        let (failed_tx, failed) = crossbeam_channel::bounded(1);
        for recorder in self.recorders {
            let failed_tx = failed_tx.clone();
            recorder.add_failure_listener(Arc::new(move |_| {
                let _ = failed_tx.try_send(());
            }));
        }
        let removed = self
            .context
            .map_or_else(crossbeam_channel::never, Context::removals);
        for playback in self.sources.iter().filter_map(|s| s.playback.as_ref()) {
            playback.resume().map_err(librealsense_error)?;
        }
        let mut status = std::io::stderr()
            .is_terminal()
            .then(|| Status::new(self.recorders, &self.sources[0].out, self.split));
        let mut unplugged = false;
        let ended = loop {
            crossbeam_channel::select! {
                recv(self.interrupted) -> _ => {
                    eprintln!("rsbag: interrupted: finishing the recording");
                    break Ended::Interrupted;
                }
                recv(failed) -> _ => break Ended::WriteFailed,
                recv(removed) -> serial => {
                    break Ended::Unplugged(serial.unwrap_or_default(), self.began.elapsed());
                }
                default(Duration::from_millis(20)) => {
                    if self.played() || self.began.elapsed() >= self.duration {
                        break Ended::Done;
                    }
                    if !unplugged && self.unplug_after.is_some_and(|t| self.began.elapsed() >= t) {
                        unplugged = true;
                        self.unplug()?;
                    }
                    if let Some(status) = &mut status {
                        status.show(self.recorders, self.began.elapsed());
                    }
                }
            }
        };
        if status.is_some() {
            // The status line goes; the report follows.
            eprint!("\r\x1b[K");
        }
        Ok(ended)
    }

    /// Whether every played recording ended (`false` without one).
    fn played(&self) -> bool {
        let mut playbacks = self
            .sources
            .iter()
            .filter_map(|s| s.playback.as_ref())
            .peekable();
        playbacks.peek().is_some() && playbacks.all(|p| p.playback_finished())
    }

    /// `--unplug-after`: the simulated cameras leave the context.
    fn unplug(&self) -> Result<()> {
        if let Some(context) = self.context {
            for file in self.simulated {
                context.unplug(file).map_err(librealsense_error)?;
            }
        }
        Ok(())
    }
}

/// Stop the cameras, finish every file and report: an error for a write
/// failure, a camera unplugged, or frames dropped.
fn finish(
    recorders: Vec<Recorder>,
    sources: &[Source],
    began: Instant,
    ended: Ended,
) -> Result<()> {
    let elapsed = began.elapsed().as_secs_f64();
    let mut out = String::new();
    let mut errors = Vec::new();
    let mut dropped = Vec::new();
    for (recorder, source) in recorders.into_iter().zip(sources) {
        // Stopped first, so that the counts are final when read.
        for sensor in recorder.sensors() {
            if !sensor.active_profiles().is_empty() {
                let _ = sensor.stop();
            }
        }
        let counts = recorder.counts();
        let delivered = source.camera.as_ref().map(|c| c.delivered());
        let lost: Vec<String> = counts
            .iter()
            .filter(|(_, c)| c.dropped > 0)
            .map(|(stream, c)| format!("{stream} {}", c.dropped))
            .collect();
        let current = recorder.current_path();
        let pieces = recorder.pieces();
        let stopped = match recorder.finish() {
            Ok(report) => {
                out.push_str(&report_text(&report, elapsed));
                if let Some(delivered) = &delivered {
                    outln!(
                        out,
                        "per stream: {}",
                        counts_text(&report.streams, Some(delivered))
                    );
                }
                if let Some(why) = &report.stopped {
                    errors.push(format!(
                        "{why}; per stream: {}",
                        counts_text(&report.streams, delivered.as_ref())
                    ));
                }
                report.stopped.is_some()
            }
            Err(e) => {
                let partial = partial_path_for(&current);
                let finished = match pieces.is_empty() {
                    true => String::new(),
                    false => format!(
                        "; the pieces before it are finished: {}",
                        piece_names(&pieces)
                    ),
                };
                errors.push(format!(
                    "{e}; recording stopped there; what was recorded until then is in {} \
                     (`rsbag reindex {}` recovers it){finished}; per stream: {}",
                    partial.display(),
                    partial.display(),
                    counts_text(&counts, delivered.as_ref()),
                ));
                false
            }
        };
        // A camera's lost frames fail the recording. The synthetic camera
        // waits for the writer, and loses only a frame that was waiting
        // when it stopped: that stays in the report, exit 0.
        if !lost.is_empty() && source.camera.is_some() && !stopped {
            dropped.push(format!("{}: {}", source.out.display(), lost.join(", ")));
        }
    }
    super::emit(&out);
    if let Ended::Unplugged(serial, after) = &ended {
        let file = sources
            .iter()
            .find(|s| s.device.info().get("Serial Number") == Some(serial.as_str()))
            .unwrap_or(&sources[0]);
        errors.push(format!(
            "camera {serial} was unplugged {:.2} s into the recording; what it streamed until \
             then is in {} (finished and indexed)",
            after.as_secs_f64(),
            file.out.display()
        ));
    }
    if !dropped.is_empty() {
        errors.push(format!(
            "frames were dropped (the disk could not keep up, or writing failed): {}",
            dropped.join("; ")
        ));
    }
    match (errors.is_empty(), ended) {
        (true, Ended::Done | Ended::Interrupted) => Ok(()),
        (true, Ended::WriteFailed) => Err(Error::InvalidArgument("writing failed".into())),
        _ => Err(Error::InvalidArgument(errors.join("\nrsbag: "))),
    }
}

/// The pieces' file names, those deleted by the ring marked.
fn piece_names(pieces: &[rsbag::record::Piece]) -> String {
    let names: Vec<String> = pieces
        .iter()
        .map(|p| match p.deleted {
            true => format!("{} (deleted)", p.path.display()),
            false => p.path.display().to_string(),
        })
        .collect();
    names.join(", ")
}

/// Frames written and dropped per stream, and delivered by librealsense
/// for a camera, on one line: `Depth 0: 30 written, 2 dropped, 40
/// delivered; ...` (delivered = written + dropped + what was queued when
/// writing stopped: librealsense's callback never waits).
fn counts_text(
    counts: &BTreeMap<StreamId, rsbag::record::StreamCounts>,
    delivered: Option<&BTreeMap<StreamId, u64>>,
) -> String {
    let mut streams: Vec<StreamId> = counts.keys().copied().collect();
    streams.extend(delivered.into_iter().flat_map(|d| d.keys().copied()));
    streams.sort_unstable();
    streams.dedup();
    let text: Vec<String> = streams
        .iter()
        .map(|stream| {
            let c = counts.get(stream).copied().unwrap_or_default();
            let from_camera = delivered.map_or(String::new(), |d| {
                format!(", {} delivered", d.get(stream).copied().unwrap_or(0))
            });
            format!(
                "{stream}: {} written, {} dropped{from_camera}",
                c.written, c.dropped
            )
        })
        .collect();
    if text.is_empty() {
        "none".into()
    } else {
        text.join("; ")
    }
}

/// The live status line on a terminal: each stream's frames per second,
/// frames dropped, MB/s written, the free disk and the time elapsed.
struct Status {
    /// Where the recording goes, for the free space.
    dir: PathBuf,
    last: Instant,
    /// Frames and bytes at `last`, per stream.
    before: BTreeMap<StreamId, (u64, u64)>,
    /// Name the piece being written.
    split: bool,
}

impl Status {
    fn new(recorders: &[Recorder], out: &Path, split: bool) -> Status {
        let dir = match out.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        Status {
            dir,
            last: Instant::now(),
            before: totals(recorders),
            split,
        }
    }

    /// Redraw, at most twice a second.
    fn show(&mut self, recorders: &[Recorder], elapsed: Duration) {
        let since = self.last.elapsed().as_secs_f64();
        if since < 0.5 {
            return;
        }
        let now = totals(recorders);
        let mut streams = Vec::new();
        let mut bytes = 0;
        for (stream, (frames, size)) in &now {
            let (frames_before, size_before) = self.before.get(stream).copied().unwrap_or_default();
            streams.push(format!(
                "{stream} {:.0}",
                (frames - frames_before) as f64 / since
            ));
            bytes += size - size_before;
        }
        let dropped: u64 = recorders
            .iter()
            .flat_map(|r| r.counts().into_values())
            .map(|c| c.dropped)
            .sum();
        let free =
            free_bytes(&self.dir).map_or("?".into(), |b| format!("{:.1} GB", b as f64 / 1e9));
        let piece = match self.split {
            true => {
                let names: Vec<String> = recorders
                    .iter()
                    .map(|r| {
                        let path = r.current_path();
                        let name = path.file_name().unwrap_or_default();
                        name.to_string_lossy().into_owned()
                    })
                    .collect();
                format!(" | writing {}", names.join(", "))
            }
            false => String::new(),
        };
        eprint!(
            "\r\x1b[K{} fps | {dropped} dropped | {:.1} MB/s | {free} free | {:.1} s{piece}",
            streams.join(", "),
            bytes as f64 / since / 1e6,
            elapsed.as_secs_f64()
        );
        self.last = Instant::now();
        self.before = now;
    }
}

/// Frames and bytes written so far, per stream, over every recorder.
fn totals(recorders: &[Recorder]) -> BTreeMap<StreamId, (u64, u64)> {
    let mut totals = BTreeMap::new();
    for recorder in recorders {
        for (stream, counts) in recorder.counts() {
            let total: &mut (u64, u64) = totals.entry(stream).or_default();
            total.0 += counts.written;
            total.1 += counts.bytes;
        }
    }
    totals
}

/// Open and start the `wanted` profiles of the recorder's sensors.
pub(crate) fn start(recorder: &Recorder, wanted: &[StreamProfile]) -> Result<()> {
    for sensor in recorder.sensors() {
        let profiles: Vec<StreamProfile> = sensor
            .profiles()
            .into_iter()
            .filter(|p| wanted.iter().any(|w| w.unique_id == p.unique_id))
            .collect();
        if !profiles.is_empty() {
            sensor.open(&profiles)?;
            sensor.start(Arc::new(|_| {}))?;
        }
    }
    Ok(())
}

/// `SENSOR.OPTION=VALUE` (`Stereo Module.Laser Power=150`) set on `device`.
fn set_option(device: &dyn Device, text: &str) -> Result<()> {
    let bad = |why: String| Error::InvalidArgument(format!("--option {text:?}: {why}"));
    let (target, value) = text.rsplit_once('=').ok_or_else(|| {
        bad("give SENSOR.OPTION=VALUE (e.g. \"Stereo Module.Laser Power=150\")".into())
    })?;
    let value: f32 = value
        .trim()
        .parse()
        .map_err(|_| bad(format!("{value:?} is not a number")))?;
    let sensors = device.sensors();
    let (sensor, option) = sensors
        .iter()
        .find_map(|s| {
            let name = s.name();
            target
                .strip_prefix(name.as_str())
                .and_then(|rest| rest.strip_prefix('.'))
                .map(|option| (s, option.trim()))
        })
        .ok_or_else(|| {
            let names: Vec<String> = sensors.iter().map(|s| s.name()).collect();
            bad(format!(
                "no such sensor; the sensors are: {}",
                names.join(", ")
            ))
        })?;
    sensor
        .set_option(option, value)
        .map_err(|e| bad(e.to_string()))
}

/// What one recording wrote.
pub(crate) fn report_text(report: &rsbag::record::RecordReport, elapsed: f64) -> String {
    let mut out = String::new();
    if report.pieces.is_empty() {
        outln!(
            out,
            "wrote {} ({} bytes) in {:.2} s",
            report.path.display(),
            report.file_size,
            elapsed
        );
    } else {
        let kept = report.pieces.iter().filter(|p| !p.deleted).count();
        outln!(
            out,
            "wrote {} pieces ({} kept, {} bytes) in {:.2} s",
            report.pieces.len(),
            kept,
            report.file_size,
            elapsed
        );
        for piece in &report.pieces {
            let deleted = if piece.deleted {
                ", deleted (--max-pieces)"
            } else {
                ""
            };
            outln!(
                out,
                "  {} ({} bytes{deleted})",
                piece.path.display(),
                piece.size
            );
        }
    }
    outln!(
        out,
        "{:<12} {:>8} {:>8} {:>14}",
        "stream",
        "frames",
        "dropped",
        "bytes"
    );
    for (stream, counts) in &report.streams {
        outln!(
            out,
            "{:<12} {:>8} {:>8} {:>14}",
            stream.to_string(),
            counts.written,
            counts.dropped,
            counts.bytes
        );
    }
    let dropped: u64 = report.streams.values().map(|c| c.dropped).sum();
    outln!(
        out,
        "recorded {:.2} s, {} frames dropped",
        report.duration.as_secs_f64(),
        dropped
    );
    out
}
