//! What `convert` does, made once from its arguments: the recordings to
//! read, what of them, and the target with its own options. Every check of
//! which options go together is here, before anything is read or written.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

use rsbag::device::StreamId;
use rsbag::processing::filters::{check_chain, FilterKind, FilterSpec};
use rsbag::record::CameraPose;
use rsbag::recording::FramesetOptions;
use rsbag::ros_camera::imu::UniteImu;
use rsbag::ros_camera::transport::ImageTransport;
use rsbag::storage::rosbag2::McapCompression;
use rsbag::storage::FileFormat;
use rsbag::{Error, Result};

use super::super::damage::Losses;
use super::super::files;
use super::super::select::{self, Window};
use super::super::session::ClockArgs;
use super::args::{Args, ToArg, UniteImuArg};
use super::frame_files::{video, FrameFiles};
use super::recording::{RecordingFile, Ros2Bag, Source};
use super::render::RenderOptions;
use super::session;

/// What `convert` does.
pub enum Plan {
    /// Each recording (or the pieces of one split recording) converted on
    /// its own.
    Each(Conversion),
    /// Several recordings read as one session (`--session`).
    Session(SessionPlan),
}

/// Recordings converted one at a time into `target`.
pub struct Conversion {
    /// The recordings, directories expanded.
    pub files: Vec<PathBuf>,
    /// Where the output goes: with several recordings, the directory
    /// holding each one's.
    pub out: PathBuf,
    /// `--camera`: the camera of a camera bag of several.
    pub camera: Option<String>,
    pub selection: Selection,
    pub target: Box<dyn Target>,
}

/// Several recordings read as one session and written to `target`.
pub struct SessionPlan {
    pub files: Vec<PathBuf>,
    pub out: PathBuf,
    pub clock: ClockArgs,
    pub selection: Selection,
    pub target: SessionTarget,
}

/// What a session is written as.
pub enum SessionTarget {
    /// `--to png`: the framesets across cameras side by side.
    Framesets(Framesets),
    /// `--to ros2`: one bag of every camera.
    Ros2(SessionBag),
}

/// `--session --to png`.
pub struct Framesets {
    /// `--tolerance`: how far a frame may be from its set's first frame.
    pub tolerance: Duration,
    pub render: RenderOptions,
    /// `--filter`: the chain each camera's depth goes through.
    pub filters: Vec<FilterSpec>,
    /// `--force`: replace a directory an earlier conversion wrote.
    pub force: bool,
}

/// `--session --to ros2`.
pub struct SessionBag {
    pub storage: FileFormat,
    pub mcap_compression: McapCompression,
    pub image_transport: ImageTransport,
    /// `--unite-imu`.
    pub unite_imu: Option<UniteImu>,
    /// `--pose`: cameras named as given, and their poses.
    pub poses: Vec<(String, CameraPose)>,
}

/// `--streams`, `--start` and `--duration`: what of a recording is
/// converted.
pub struct Selection {
    streams: Vec<String>,
    start: Option<f64>,
    duration: Option<f64>,
}

impl Selection {
    /// The streams named, found by `find` (`None`: no names, every stream).
    pub fn streams(
        &self,
        find: impl Fn(&str) -> Result<Vec<StreamId>>,
    ) -> Result<Option<BTreeSet<StreamId>>> {
        select::streams(find, &self.streams)
    }

    /// The time chosen in a recording `length` long.
    pub fn window(&self, length: Duration) -> Result<Window> {
        Window::new(length, self.start, self.duration)
    }

    /// The time chosen in a recording `length` long, if any is given.
    pub fn window_if_given(&self, length: Duration) -> Result<Option<Window>> {
        (self.start.is_some() || self.duration.is_some())
            .then(|| self.window(length))
            .transpose()
    }

    /// The time chosen in a session `length` long, on its clock.
    pub fn session_window(&self, length: Duration) -> Result<Window> {
        Window::of_session(length, self.start, self.duration)
    }
}

/// What `--to` writes, with its own options.
pub trait Target {
    /// Write what `job` chooses of its source; the report. Frames that
    /// cannot be read are noted in `losses`.
    fn write(&self, job: &Job<'_>, losses: &mut Losses) -> Result<String>;

    /// The extension of each recording's output in the directory of
    /// several (`OUT/NAME.db3`); `None`: a directory `OUT/NAME/`.
    fn extension(&self) -> Option<&'static str> {
        None
    }

    /// An error if the target does not take the pieces of a split
    /// recording.
    fn check_pieces(&self) -> Result<()> {
        Ok(())
    }

    /// Whether the report on a split recording leads with what was
    /// written and then lists the pieces read (a directory of frame
    /// files); otherwise the pieces come first (a recording written).
    fn report_leads(&self) -> bool {
        false
    }
}

/// One conversion: what is read, and where it goes.
pub struct Job<'a> {
    pub source: Source<'a>,
    /// The file that errors name: the recording, or the first piece.
    pub file: &'a Path,
    pub out: &'a Path,
    pub selection: &'a Selection,
}

impl Plan {
    /// The plan of `args`; an error, before anything is read, if options
    /// do not go together.
    pub fn new(args: Args) -> Result<Plan> {
        let files = files::recordings(&args.files)?;
        let selection = Selection {
            streams: args.streams.clone(),
            start: args.start,
            duration: args.duration,
        };
        if args.session {
            let target = session_target(&args)?;
            return Ok(Plan::Session(SessionPlan {
                files,
                out: args.out,
                clock: args.session_clock,
                selection,
                target,
            }));
        }
        if args.session_clock.given() {
            return Err(Error::InvalidArgument(
                "--offset and --clock go with --session".into(),
            ));
        }
        let target = target(&args)?;
        Ok(Plan::Each(Conversion {
            files,
            out: args.out,
            camera: args.camera,
            selection,
            target,
        }))
    }
}

/// The target of a conversion of each recording; an error for an option
/// that does not go with it.
fn target(args: &Args) -> Result<Box<dyn Target>> {
    check_file_options(args)?;
    let image_transport = ros2_options(args)?;
    let recording = |format| RecordingFile {
        format,
        uncompressed: args.uncompressed,
        keep_pose: args.keep_pose,
        force: args.force,
        filters: args.filters.clone(),
    };
    Ok(match args.to {
        ToArg::Db3 => Box::new(recording(FileFormat::Db3)),
        ToArg::Bag => Box::new(recording(FileFormat::Bag)),
        ToArg::Ros2 => Box::new(Ros2Bag {
            storage: args.storage,
            mcap_compression: args.mcap_compression,
            namespace: args.namespace.clone(),
            image_transport,
            unite_imu: args.unite_imu.map(UniteImuArg::method),
            filters: args.filters.clone(),
            other_topics: args.other_topics.map(Into::into),
            aligned_depth: args.aligned_depth,
            pointcloud: args.pointcloud.map(Into::into),
        }),
        _ => Box::new(FrameFiles {
            render: render_options(args),
            align_to: args.align_to.clone(),
            filters: args.filters.clone(),
            force: args.force,
        }),
    })
}

/// The options of frame files and of recordings written that do not go
/// with `args.to`.
fn check_file_options(args: &Args) -> Result<()> {
    if args.colorize && args.to != ToArg::Png {
        return Err(Error::InvalidArgument(
            "--colorize goes with --to png".into(),
        ));
    }
    if args.npy_raw && args.to != ToArg::Npy {
        return Err(Error::InvalidArgument(
            "--npy-raw goes with --to npy".into(),
        ));
    }
    if args.ascii && args.to != ToArg::Ply {
        return Err(Error::InvalidArgument("--ascii goes with --to ply".into()));
    }
    if args.align_to.is_some()
        && !matches!(
            args.to,
            ToArg::Png | ToArg::Raw | ToArg::Csv | ToArg::Npy | ToArg::Ply
        )
    {
        return Err(Error::InvalidArgument(
            "--align-to goes with --to png, raw, csv, npy or ply".into(),
        ));
    }
    check_filters(args)?;
    if args.to == ToArg::Mp4 {
        video::check_ffmpeg()?;
    }
    if !matches!(args.to, ToArg::Db3 | ToArg::Bag) && (args.uncompressed || args.keep_pose) {
        return Err(Error::InvalidArgument(
            "--uncompressed and --keep-pose go with --to db3 or --to bag".into(),
        ));
    }
    if args.to == ToArg::Ros2 && args.force {
        return Err(Error::InvalidArgument(
            "--force goes with --to db3, bag or a directory of files (png, raw, csv, ...)".into(),
        ));
    }
    Ok(())
}

/// The image transport `--image-transport` and its codecs choose; an
/// error for an option of `--to ros2` given with another target.
fn ros2_options(args: &Args) -> Result<ImageTransport> {
    let ros2_options_given = args.storage != FileFormat::Db3
        || args.namespace != rsbag::ros_camera::DEFAULT_NAMESPACE
        || args.unite_imu.is_some();
    if args.to != ToArg::Ros2 && ros2_options_given {
        return Err(Error::InvalidArgument(
            "--storage, --namespace and --unite-imu go with --to ros2".into(),
        ));
    }
    if args.to != ToArg::Ros2 && args.transport.given() {
        return Err(Error::InvalidArgument(
            "--image-transport and its codecs go with --to ros2".into(),
        ));
    }
    let image_transport = args.transport.transport()?;
    if args.other_topics.is_some() && args.to != ToArg::Ros2 {
        return Err(Error::InvalidArgument(
            "--other-topics goes with --to ros2 of one recording".into(),
        ));
    }
    if args.aligned_depth && args.to != ToArg::Ros2 {
        return Err(Error::InvalidArgument(
            "--aligned-depth goes with --to ros2".into(),
        ));
    }
    if args.pointcloud.is_some() && args.to != ToArg::Ros2 {
        return Err(Error::InvalidArgument(
            "--pointcloud goes with --to ros2 (--to ply writes point clouds as files)".into(),
        ));
    }
    if args.mcap_compression != McapCompression::Zstd && args.storage != FileFormat::Mcap {
        return Err(Error::InvalidArgument(
            "--mcap-compression goes with --to ros2 --storage mcap".into(),
        ));
    }
    Ok(image_transport)
}

/// Whether `--filter` goes with the other arguments: a target carrying
/// depth, no `--align-to`, and a chain ending in depth unless the target
/// is raw bytes.
fn check_filters(args: &Args) -> Result<()> {
    if args.filters.is_empty() {
        return Ok(());
    }
    if args.to == ToArg::Kalibr {
        return Err(Error::InvalidArgument(
            "--filter goes with a target carrying depth (not --to kalibr)".into(),
        ));
    }
    if args.align_to.is_some() {
        return Err(Error::InvalidArgument(
            "--filter and --align-to do not go together".into(),
        ));
    }
    check_chain(&args.filters)?;
    let colorized = args.filters.last().map(|f| f.kind) == Some(FilterKind::Colorizer);
    if colorized && matches!(args.to, ToArg::Ply | ToArg::Csv) {
        return Err(Error::InvalidArgument(format!(
            "--filter colorizer makes an RGB picture, which --to {} (depth values) cannot \
             hold: drop the colorizer, or write --to png/raw/npy/mp4",
            args.to.name()
        )));
    }
    let disparity = args
        .filters
        .iter()
        .fold(false, |disparity, f| match f.kind {
            FilterKind::DepthToDisparity => true,
            FilterKind::DisparityToDepth | FilterKind::Colorizer => false,
            _ => disparity,
        });
    if disparity && args.to != ToArg::Raw {
        return Err(Error::InvalidArgument(format!(
            "the filters end in disparity, which --to {} does not hold: end them with \
             --filter disparity-to-depth (or write --to raw)",
            args.to.name()
        )));
    }
    Ok(())
}

/// How frames become files.
fn render_options(args: &Args) -> RenderOptions {
    RenderOptions {
        to: args.to,
        colorize: args.colorize.then_some(args.colorize_range),
        colorize_range: args.colorize_range,
        ascii: args.ascii,
        npy_raw: args.npy_raw,
    }
}

/// The target of `--session`; an error for an option that does not go
/// with it.
fn session_target(args: &Args) -> Result<SessionTarget> {
    if args.other_topics.is_some() || args.aligned_depth || args.pointcloud.is_some() {
        return Err(Error::InvalidArgument(
            "--other-topics, --aligned-depth and --pointcloud go with --to ros2 of one recording"
                .into(),
        ));
    }
    if !matches!(args.to, ToArg::Png | ToArg::Ros2) {
        return Err(Error::InvalidArgument(
            "--session goes with --to png or --to ros2 (the other targets convert each file)"
                .into(),
        ));
    }
    if args.align_to.is_some() {
        return Err(Error::InvalidArgument(
            "--session writes each camera's frames as recorded: --align-to does not go with it"
                .into(),
        ));
    }
    if args.to != ToArg::Ros2 && (args.unite_imu.is_some() || args.transport.given()) {
        return Err(Error::InvalidArgument(
            "--unite-imu and --image-transport go with --session --to ros2".into(),
        ));
    }
    let target = if args.to == ToArg::Ros2 {
        session_ros2(args)?
    } else {
        session_framesets(args)?
    };
    // What does not go with the target, as for one recording.
    check_file_options(args)?;
    ros2_options(args)?;
    Ok(target)
}

/// `--session --to png`.
fn session_framesets(args: &Args) -> Result<SessionTarget> {
    check_filters(args)?;
    if !args.pose.is_empty() {
        return Err(Error::InvalidArgument("--pose goes with --to ros2".into()));
    }
    Ok(SessionTarget::Framesets(Framesets {
        tolerance: select::milliseconds("tolerance", args.tolerance)?
            .unwrap_or(FramesetOptions::default().tolerance),
        render: render_options(args),
        filters: args.filters.clone(),
        force: args.force,
    }))
}

/// `--session --to ros2`.
fn session_ros2(args: &Args) -> Result<SessionTarget> {
    if !args.filters.is_empty() || args.colorize {
        return Err(Error::InvalidArgument(
            "--filter and --colorize go with --session --to png, not --to ros2".into(),
        ));
    }
    if args.tolerance.is_some() {
        return Err(Error::InvalidArgument(
            "--tolerance goes with --session --to png (framesets)".into(),
        ));
    }
    if args.namespace != rsbag::ros_camera::DEFAULT_NAMESPACE {
        return Err(Error::InvalidArgument(
            "--namespace does not go with --session: each camera gets its own, /CAMERA".into(),
        ));
    }
    let poses = (args.pose.iter().map(|pose| session::parse_pose(pose))).collect::<Result<_>>()?;
    Ok(SessionTarget::Ros2(SessionBag {
        storage: args.storage,
        mcap_compression: args.mcap_compression,
        image_transport: args.transport.transport()?,
        unite_imu: args.unite_imu.map(UniteImuArg::method),
        poses,
    }))
}
