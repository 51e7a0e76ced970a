//! `rsbag convert`: frames out of a recording as PNG, raw bytes, CSV,
//! NumPy, PLY or MP4 files, like librealsense's rs-convert, or as a
//! calibration tool's IMU file.

mod kalibr;
mod npy;
pub(crate) mod prepare;
pub(crate) mod recording;
mod render;
mod session;
mod video;

use std::collections::btree_map::Entry;
use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use rsbag::device::{Format, Frame, ProfileKind, StreamId, StreamProfile};
use rsbag::record::PointCloudLayout;
use rsbag::recording::{FrameReader, Pieces, RecordedFrame};
use rsbag::ros_camera::imu::UniteImu;
use rsbag::ros_camera::transport::ImageTransport;
use rsbag::storage::rosbag2::McapCompression;
use rsbag::storage::FileFormat;
use rsbag::{Error, Result};

use super::damage::Losses;
use super::files;
use super::image_transport::TransportArgs;
use super::interrupt::{on_interrupt, Guard, Undo};
use super::pieces;
use super::progress;
use super::select::{self, Window};
use recording::Source;
use render::Rendered;
use rsbag::processing;
use rsbag::processing::filters::{check_chain, FilterKind, FilterSpec, StreamFilters};

/// The file listing the image and point-cloud files.
const INDEX: &str = "frames.csv";

/// The header of `frames.csv`.
const INDEX_HEADER: &str =
    "file,stream,frame_number,timestamp_ms,domain,format,width,height,stride";

/// The header of `frames.csv` when its files hold depth values: the usual
/// columns and the depth units they were made with.
const DEPTH_INDEX_HEADER: &str =
    "file,stream,frame_number,timestamp_ms,domain,format,width,height,stride,depth_units_m";

/// What to write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Target {
    /// One PNG per image frame: 8-bit gray for Y8, 16-bit gray for Z16
    /// (raw depth units) and Y16, RGB/RGBA for color (YUYV and UYVY
    /// converted to RGB).
    Png,
    /// The bytes of each image frame as recorded (rows `stride` bytes).
    Raw,
    /// One CSV per IMU or pose stream, a row per sample; one CSV matrix
    /// of depths in meters per depth frame.
    Csv,
    /// One NumPy `.npy` array per depth frame: float32 meters, or with
    /// `--npy-raw` uint16 depth units.
    Npy,
    /// One point cloud per depth frame.
    Ply,
    /// One H.264 MP4 video per video stream (needs `ffmpeg` on PATH).
    Mp4,
    /// The gyro and accel samples united in one `imu.csv` in the
    /// EuRoC/Kalibr format.
    Kalibr,
    /// The recording as a `.db3` that librealsense 2.59 plays (PNG/zstd
    /// compressed images as 2.59 records them; pose streams left out
    /// unless `--keep-pose`).
    Db3,
    /// The recording as a `.bag` that librealsense 2.55 plays (LZ4
    /// chunks).
    Bag,
    /// The recording as a ROS 2 bag directory (`metadata.yaml` and a
    /// `.db3` or `.mcap`) of standard messages in the RealSense ROS
    /// wrapper's topic layout, for `ros2 bag`, rosbags and Foxglove.
    Ros2,
}

/// `--other-topics`: what a copy of a camera bag does with the topics
/// that are not the cameras'.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum OtherTopicsArg {
    /// Carried as they are: type, definition, serialization format, QoS
    /// profiles, every message's bytes and time.
    Keep,
    /// Left out.
    Drop,
}

impl From<OtherTopicsArg> for rsbag::record::OtherTopics {
    fn from(arg: OtherTopicsArg) -> Self {
        match arg {
            OtherTopicsArg::Keep => rsbag::record::OtherTopics::Keep,
            OtherTopicsArg::Drop => rsbag::record::OtherTopics::Drop,
        }
    }
}

/// `--pointcloud`: the RealSense ROS wrapper's `pointcloud.ordered_pc`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum PointCloudArg {
    /// One row of the points with depth (seen by the colour camera):
    /// `ordered_pc: false`, the wrapper's default.
    Unordered,
    /// Every depth pixel, the depth image's width by its height
    /// (`ordered_pc: true`).
    Ordered,
}

impl From<PointCloudArg> for PointCloudLayout {
    fn from(arg: PointCloudArg) -> Self {
        match arg {
            PointCloudArg::Unordered => PointCloudLayout::Unordered,
            PointCloudArg::Ordered => PointCloudLayout::Ordered,
        }
    }
}

/// `--unite-imu`: the RealSense ROS wrapper's `unite_imu_method`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum UniteImuArg {
    /// Each gyro sample with the accel interpolated at its stamp between
    /// the accel samples around it.
    #[value(name = "linear_interpolation")]
    LinearInterpolation,
    /// Each gyro sample with the latest accel sample.
    Copy,
}

impl UniteImuArg {
    /// The library's method.
    pub fn method(self) -> UniteImu {
        match self {
            UniteImuArg::LinearInterpolation => UniteImu::LinearInterpolation,
            UniteImuArg::Copy => UniteImu::Copy,
        }
    }
}

/// `--storage`: rosbag2's storage plugins, by the names the library
/// gives them.
fn rosbag2_storage() -> impl clap::builder::TypedValueParser<Value = FileFormat> {
    let plugins = FileFormat::ALL.into_iter().filter_map(|format| {
        let help = match format {
            FileFormat::Db3 => "SQLite 3 (`NAME_0.db3`), rosbag2's default up to Iron",
            FileFormat::Mcap => "MCAP (`NAME_0.mcap`, zstd chunks), the default from Jazzy on",
            FileFormat::Bag => return None,
        };
        Some(PossibleValue::new(format.rosbag2_storage_id()?).help(help))
    });
    PossibleValuesParser::new(plugins).try_map(|id| FileFormat::of_rosbag2_storage_id(&id))
}

/// `--mcap-compression`: how the chunks of a `--storage mcap` bag are
/// compressed.
fn mcap_compression() -> impl clap::builder::TypedValueParser<Value = McapCompression> {
    let values = McapCompression::ALL.map(|compression| {
        let help = match compression {
            McapCompression::Zstd => {
                "zstd at its fastest level on every core (`ros2 bag record` writes zstd chunks by default)"
            }
            McapCompression::Lz4 => "LZ4: quicker, larger",
            McapCompression::None => {
                "uncompressed (as rosbags-convert writes MCAP): quickest, largest"
            }
        };
        PossibleValue::new(compression.name()).help(help)
    });
    PossibleValuesParser::new(values).try_map(|name| name.parse::<McapCompression>())
}

/// Write the frames of a recording as files, like librealsense's
/// rs-convert.
///
/// Files go to the directory `--out` (which must not exist, or be empty),
/// named `STREAM_NUMBER.EXT` (`Depth_000042.png`, `Infrared_1_000042.png`)
/// for images and point clouds, with `frames.csv` listing each file with
/// its stream, frame number, timestamp (ms), domain, format, size and
/// stride; and `STREAM.csv` for IMU and pose streams. The directory appears
/// only once every file is written.
///
/// `--to png`: Y8/RAW8 as 8-bit gray, Z16/Y16/RAW16/DISPARITY16 as 16-bit
/// gray with the raw values (depth in depth units), RGB8/BGR8 as RGB,
/// RGBA8/BGRA8 as RGBA, YUYV/UYVY converted to RGB. With `--colorize`,
/// each depth frame also gets `Depth_NUMBER_colorized.png`: 8-bit RGB, a
/// jet map from dark blue at the near end of `--colorize-range` through
/// green and yellow to dark red at the far end (clamped beyond), black
/// where there is no depth.
///
/// `--to raw`: each image frame's bytes, exactly as recorded.
///
/// `--to csv`: IMU streams as `frame_number,timestamp_ms,x,y,z` (m/s² for
/// Accel, rad/s for Gyro); pose streams as `frame_number,timestamp_ms`,
/// translation `tx,ty,tz` (m), rotation quaternion `qx,qy,qz,qw`,
/// velocity `vx,vy,vz`, acceleration `ax,ay,az`, angular velocity
/// `wx,wy,wz`, angular acceleration `awx,awy,awz`, then
/// `tracker_confidence,mapper_confidence`. Each depth frame as
/// `Depth_NUMBER.csv`, the matrix rs-convert `-v` writes: one line per
/// image row, no header, the depth of each pixel in meters (raw value
/// times the depth sensor's Depth Units option, 0 for no depth), written
/// as the shortest decimal that reads back as the same 32-bit float
/// (rs-convert prints 6 significant digits and names the file by the
/// frame's timestamp; here the timestamp is in `frames.csv`).
///
/// `--to npy`: each depth frame as `Depth_NUMBER.npy`, a `height x width`
/// array (NumPy format 1.0, C order): float32 meters (0 for no depth), or
/// with `--npy-raw` the uint16 raw values, meters being raw times the
/// scale. The scale is the `depth_units_m` column of `frames.csv` (for
/// `--to csv` too); the `.npy` header cannot hold it (NumPy refuses a
/// header with keys of its own).
///
/// `--to ply`: a point cloud per depth frame (binary little-endian, or
/// `--ascii`), one `float x, y, z` vertex in meters (the depth camera's
/// coordinates: x right, y down, z forward) per pixel with a depth, as
/// librealsense's `rs2::pointcloud` computes it from the recorded
/// intrinsics (its lens handling included) and the depth sensor's Depth
/// Units option. Where the recording has a colour stream related to depth,
/// each vertex also gets `uchar red, green, blue` from the colour frame of
/// its frameset, as `points.export_to_ply` picks it (after
/// librealsense's occlusion scan, which drops vertices the colour camera
/// cannot see); the vertices are those `export_to_ply` keeps, not flipped
/// to its y-up, z-backward axes. With `--align-to Color`, the cloud is of
/// the depth aligned to colour, in the colour camera's coordinates.
///
/// `--to mp4`: one video per video stream, `STREAM.mp4` (`Depth.mp4`,
/// `Infrared_1.mp4`): H.264 (libx264, yuv420p) at the stream's frame rate,
/// encoded by the `ffmpeg` program found on PATH (Debian/Ubuntu package
/// `ffmpeg`; an error names it when missing). Depth is colorized as
/// `--colorize` does (over `--colorize-range`), other streams as `--to png`
/// makes them (16-bit gray is cut to 8 bits). Frames go in recorded order,
/// one video frame each; a gap between two frames' timestamps longer than
/// 1.5 frame periods (dropped frames) is filled with copies of the frame
/// before it, one per missing frame, so that the video keeps the recorded
/// timing (gaps over 60 s are not filled). The video lasts its frame
/// count over the frame rate. An odd width or height gets one black
/// column or row (H.264 in yuv420p needs even sizes).
///
/// `--to kalibr`: `imu.csv` as Kalibr's `kalibr_bagcreater` and EuRoC
/// datasets read it: the header `#timestamp [ns],w_RS_S_x [rad s^-1],…,
/// a_RS_S_z [m s^-2]`, then one row per gyro sample, time-ordered:
/// its timestamp in integer nanoseconds (frame timestamp ms × 10⁶,
/// rounded; zero-padded to 10 digits, as `kalibr_bagcreater` cuts the
/// seconds off before the last nine), its angular velocity (rad/s), and the acceleration (m/s²)
/// linearly interpolated at that time between the accel samples before
/// and after it (as the RealSense ROS wrapper's `unite_imu_method:
/// linear_interpolation`). Gyro samples before the first or after the last
/// accel sample, and samples with a repeated or backward timestamp, are
/// dropped (counted in the report). A COMBINED_MOTION stream (an `Imu`
/// topic of a camera bag recorded from ROS) already holds both at each
/// time and is written as it is. The recording (or `--streams`) must have
/// one Gyro and one Accel stream, or one Motion stream.
///
/// `--to ros2`: a rosbag2 bag directory (`metadata.yaml` and `DIR_0.db3`
/// or, with `--storage mcap`, `DIR_0.mcap`) of standard messages under
/// `--namespace`: `<stream>/image_rect_raw` or `image_raw`
/// (sensor_msgs/Image) with `camera_info` per frame, `gyro/sample` and
/// `accel/sample` (sensor_msgs/Imu), `pose/sample` (nav_msgs/Odometry),
/// `<stream>/metadata` (the frame's number, timestamp, metadata and depth
/// units as JSON) and `/tf_static`.
///
/// The pieces of one split recording (`record --split-duration`; the
/// files, their directory or a glob) are converted as one recording into
/// one `--out`, `--start` counting from the first piece's first frame; a
/// gap at a cut is listed in the report.
///
/// Streams that cannot be written in the chosen form are skipped (and
/// named); naming one with `--streams` is an error.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// The recordings to convert: files, ROS 2 bag directories,
    /// directories holding recordings, or URLs (`http(s)://`, `s3://`: read in place, see the guide's
    /// "Recordings where they live"). With several, `--out` is a
    /// directory (made if missing) where each recording's output takes
    /// its name: `OUT/NAME.db3`, `OUT/NAME.bag`, or the directory
    /// `OUT/NAME/` for the other targets.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// The recording being converted (one of `files`).
    #[arg(skip)]
    file: PathBuf,
    /// The kind of files to write (any case).
    #[arg(long, value_enum, ignore_case = true)]
    to: Target,
    /// The directory to write them to (must not exist, or be empty); with
    /// `--to db3` or `--to bag`, the file to write; with `--to ros2`, the
    /// bag directory (must not exist).
    #[arg(long, value_name = "DIR|FILE")]
    out: PathBuf,
    /// Only these streams, by librealsense name (`Depth`, `Color`,
    /// `Infrared 1`, `Accel`…), comma-separated or repeated.
    #[arg(long, alias = "stream", value_name = "NAMES", value_delimiter = ',')]
    streams: Vec<String>,
    /// Only frames recorded from this many seconds after the first frame.
    #[arg(long, value_name = "SECONDS")]
    start: Option<f64>,
    /// Only frames recorded in this many seconds from `--start`.
    #[arg(long, value_name = "SECONDS")]
    duration: Option<f64>,
    /// With `--to png`: also write a colorized 8-bit image of each depth
    /// frame (with `--session`, over each camera's own Depth Units).
    #[arg(long)]
    colorize: bool,
    /// Depths (meters) the colorized map spans, near and far (`--colorize`
    /// and `--to mp4`).
    #[arg(long, value_name = "NEAR,FAR", default_value = "0.3,4", value_parser = depth_range)]
    colorize_range: (f32, f32),
    /// With `--to png`, `raw`, `csv`, `npy` or `ply`: align images as
    /// librealsense's `rs2::align` does. `Color` (any image stream but
    /// depth): depth frames become depth aligned to that stream (its size
    /// and intrinsics; raw files keep their `Depth_<number>.raw` names).
    /// `Depth`: other image frames become aligned to the depth frame of
    /// their frameset (the depth image's size); one without a depth frame
    /// in its frameset is not written.
    #[arg(long, value_name = "STREAM")]
    align_to: Option<String>,
    /// Depth post-processing as librealsense's filters compute it, bit for
    /// bit, applied to every depth frame in the order given (repeat the
    /// option): `NAME[:key=value,...]`, NAME one of `decimation`
    /// (magnitude 1-8, default 2), `threshold` (min, max: 0-16 m, default
    /// 0.15 and 4), `depth-to-disparity`, `disparity-to-depth`, `spatial`
    /// (alpha 0.25-1, default 0.5; delta 1-50, default 20; magnitude 1-5,
    /// default 2; holes-fill 0-5, default 0), `temporal` (alpha 0-1,
    /// default 0.4; delta 1-100, default 20; persistence 0-8, default 3)
    /// and `hole-filling` (mode 0-2, default 1); `colorizer` (color-scheme
    /// 0-9, default 0; histogram-equalization 0-1, default 1; min, max:
    /// 0-16 m, default 0 and 6, either turning equalization off;
    /// visual-preset 0-3) ends a chain (or stands alone) and makes depth
    /// librealsense's RGB8 picture. Works with every target carrying
    /// depth; `--to bag`/`db3`/`ros2` write the filtered frames with their
    /// new size and intrinsics (colorized: an RGB8 depth stream, as
    /// librealsense's colorizer labels its output). With `--session --to
    /// png` each camera's depth goes through a chain of its own, every
    /// frame in its recorded order (those in no set too), as librealsense
    /// filters each file alone.
    #[arg(long = "filter", value_name = "SPEC", value_parser = filter_spec)]
    filters: Vec<FilterSpec>,
    /// With `--to ply`: ASCII instead of binary point clouds.
    #[arg(long)]
    ascii: bool,
    /// With `--to npy`: the raw uint16 depth values instead of float32
    /// meters.
    #[arg(long)]
    npy_raw: bool,
    /// With `--to db3` or `--to bag`: uncompressed images (db3) or chunks
    /// (bag).
    #[arg(long)]
    uncompressed: bool,
    /// With `--to db3`: keep pose streams (librealsense 2.59 then cannot
    /// open the file; rsbag can, and converts it back to a `.bag`).
    #[arg(long)]
    keep_pose: bool,
    /// With `--to db3` or `--to bag`: replace a file already at `--out`.
    /// With a directory of files (`--to png`, ...): replace a directory
    /// an earlier conversion wrote there (one holding its `frames.csv`,
    /// or a session's `framesets.csv`), once the new one is complete;
    /// any other directory is kept.
    #[arg(long)]
    force: bool,
    /// With `--to ros2`: the storage plugin.
    #[arg(long, value_parser = rosbag2_storage(), default_value = "sqlite3")]
    storage: FileFormat,
    /// With `--to ros2 --storage mcap`: how the chunks are compressed.
    #[arg(long, value_parser = mcap_compression(), default_value = "zstd")]
    mcap_compression: McapCompression,
    /// With `--to ros2`: the namespace of the topics (the RealSense ROS 2
    /// wrapper's default is `/camera/camera`).
    #[arg(long, value_name = "NS", default_value = rsbag::ros_camera::DEFAULT_NAMESPACE)]
    namespace: String,
    #[command(flatten)]
    transport: TransportArgs,
    /// With `--to ros2`: gyro and accel samples united on one
    /// `sensor_msgs/Imu` topic, `<namespace>/imu`, as the RealSense ROS
    /// wrapper's `unite_imu_method` publishes them (instead of
    /// `gyro/sample` and `accel/sample`).
    #[arg(long, value_enum, value_name = "METHOD")]
    unite_imu: Option<UniteImuArg>,
    /// With `--to ros2` of a camera bag recorded on a robot: the topics
    /// that are not the cameras' (lidar, `/tf`, odometry, ...) are carried
    /// as they are over the converted time (`keep`, the default; a ROS1
    /// bag's keep their `ros1` serialization) or left out (`drop`).
    #[arg(long, value_enum, value_name = "keep|drop")]
    other_topics: Option<OtherTopicsArg>,
    /// With `--to ros2`: also depth aligned to the colour image on
    /// `<ns>/aligned_depth_to_color/image_raw` and `camera_info`, as the
    /// RealSense ROS wrapper's `align_depth.enable` publishes it (the
    /// pixels of `--align-to color`, of the filtered depth with
    /// `--filter`; the colour camera's frame and camera info, the depth
    /// frame's stamp).
    #[arg(long)]
    aligned_depth: bool,
    /// With `--to ros2`: also the depth's point cloud on
    /// `<ns>/depth/color/points`, a `sensor_msgs/PointCloud2` as the
    /// RealSense ROS wrapper's `pointcloud.enable` publishes it: float32 x,
    /// y, z in metres in the depth camera's optical frame (the vertices of
    /// `--to ply`, of the filtered depth with `--filter`) and, with a
    /// colour stream, a float32 `rgb` holding 0x00RRGGBB from the colour
    /// frame of the depth frame's frameset (the pixel the point falls in,
    /// as the wrapper picks it; a depth frame without a colour frame gets
    /// no cloud); the depth frame's stamp. `--pointcloud` (or
    /// `=unordered`, the wrapper's default) writes one row of the points
    /// with depth that the colour camera sees; `--pointcloud=ordered` every
    /// depth pixel, width by height, those without depth at 0, 0, 0 (the
    /// wrapper's `pointcloud.ordered_pc`).
    #[arg(
        long,
        value_enum,
        value_name = "unordered|ordered",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "unordered"
    )]
    pointcloud: Option<PointCloudArg>,
    /// With several recordings: read them as one session. `--to png`
    /// writes its framesets across cameras side by side into `--out` (of
    /// the streams PNG holds; the others are skipped unless named):
    /// `CAMERA_Stream_<n>.png` for each frame of the n-th set (CAMERA the
    /// camera's serial number, or the file's name), listed in
    /// `framesets.csv`. Each frame of the first recording's first chosen
    /// stream makes a set; another camera's frame joins it when each is the
    /// other's nearest on the session's clock, within `--tolerance`.
    /// `--to ros2` writes one ROS 2 bag of every camera, each under its
    /// own namespace `/CAMERA` (the camera's name made a ROS name: `CAM-A`
    /// becomes `/CAM_A`, a serial number `/camera_<serial>`), frame ids
    /// `CAMERA_link`, `CAMERA_depth_optical_frame`…, every frame in time
    /// order on the session's clock with its session time as bag time and
    /// header stamp, and `/tf_static` relating the cameras given a
    /// `--pose`. `--start` and `--duration` then count on the session's
    /// clock from its first frame (as `frames` and `trim --session` count
    /// them). A camera bag of several cameras (ROS namespaces) is a
    /// session of one file: one camera per namespace.
    #[arg(long)]
    session: bool,
    /// Of a camera bag of several cameras (ROS namespaces, as `rsbag info`
    /// lists them: `/cam_front/camera`): convert the camera under this
    /// namespace alone, as a bag of it alone would convert (the other
    /// cameras' topics are then other topics, kept by `--to ros2` unless
    /// `--other-topics drop`). Without it such a bag is refused but with
    /// `--session`.
    #[arg(long, value_name = "NAMESPACE", conflicts_with = "session")]
    camera: Option<String>,
    /// With `--session --to ros2`: where a camera is, as the pose of its
    /// `CAMERA_link` frame in the first recording's camera's: `--pose
    /// B.bag=X,Y,Z,QX,QY,QZ,QW` (metres, ROS axes: x forward, y left, z
    /// up; a unit quaternion), the file as given, its name or the camera's
    /// serial number (of one of several cameras of a bag: the camera's
    /// name). Repeat for each camera.
    #[arg(long, value_name = "FILE=X,Y,Z,QX,QY,QZ,QW", requires = "session")]
    pose: Vec<String>,
    /// With `--session --to png`: how far (ms) a frame may be from its
    /// set's first frame (default 10).
    #[arg(long, value_name = "MS", requires = "session")]
    tolerance: Option<f64>,
    #[command(flatten)]
    session_clock: super::session::ClockArgs,
}

impl Target {
    fn name(self) -> &'static str {
        match self {
            Target::Png => "png",
            Target::Raw => "raw",
            Target::Csv => "csv",
            Target::Npy => "npy",
            Target::Ply => "ply",
            Target::Mp4 => "mp4",
            Target::Kalibr => "kalibr",
            Target::Db3 => "db3",
            Target::Bag => "bag",
            Target::Ros2 => "ros2",
        }
    }

    /// Whether frames of `profile` can be written, and if not, why.
    fn accepts(self, profile: &StreamProfile) -> std::result::Result<(), &'static str> {
        let video = matches!(profile.kind, ProfileKind::Video { .. });
        match self {
            Target::Png if !video => Err("not an image"),
            Target::Png if !processing::image_supported(profile.format) => {
                Err("a format PNG does not hold")
            }
            Target::Raw if !video => Err("not an image"),
            Target::Csv if video && profile.format != Format::Z16 => {
                Err("not depth, IMU or pose samples")
            }
            Target::Npy if profile.format != Format::Z16 => Err("not depth"),
            Target::Ply if profile.format != Format::Z16 => Err("not depth"),
            Target::Ply if profile.intrinsics().is_none() => Err("no intrinsics recorded"),
            Target::Mp4 => video::accepts(profile),
            Target::Kalibr => kalibr::accepts(profile),
            _ => Ok(()),
        }
    }
}

pub fn run(args: Args) -> Result<ExitCode> {
    let files = files::recordings(&args.files)?;
    if args.session
        && (args.other_topics.is_some() || args.aligned_depth || args.pointcloud.is_some())
    {
        return Err(Error::InvalidArgument(
            "--other-topics, --aligned-depth and --pointcloud go with --to ros2 of one recording"
                .into(),
        ));
    }
    if args.session {
        return session::run(&args, &files);
    }
    if args.session_clock.given() {
        return Err(Error::InvalidArgument(
            "--offset and --clock go with --session".into(),
        ));
    }
    if let Some(pieces) = pieces::open(&files)? {
        return convert_pieces(args, &pieces);
    }
    let several = files.len() > 1;
    let extension = match args.to {
        Target::Db3 => Some("db3"),
        Target::Bag => Some("bag"),
        _ => None,
    };
    files::each(&files, "", |file| {
        let mut one = args.clone();
        one.file = file.to_path_buf();
        if several {
            one.out = files::output_for(file, &args.out, extension)?;
        }
        convert_one(one)
    })
}

/// The options that do not go with `args.to`, refused before anything
/// is read or written.
fn check_args(args: &Args) -> Result<()> {
    if args.colorize && args.to != Target::Png {
        return Err(Error::InvalidArgument(
            "--colorize goes with --to png".into(),
        ));
    }
    if args.npy_raw && args.to != Target::Npy {
        return Err(Error::InvalidArgument(
            "--npy-raw goes with --to npy".into(),
        ));
    }
    if args.align_to.is_some()
        && !matches!(
            args.to,
            Target::Png | Target::Raw | Target::Csv | Target::Npy | Target::Ply
        )
    {
        return Err(Error::InvalidArgument(
            "--align-to goes with --to png, raw, csv, npy or ply".into(),
        ));
    }
    check_filters(args)?;
    if args.to == Target::Mp4 {
        video::check_ffmpeg()?;
    }
    if !matches!(args.to, Target::Db3 | Target::Bag) && (args.uncompressed || args.keep_pose) {
        return Err(Error::InvalidArgument(
            "--uncompressed and --keep-pose go with --to db3 or --to bag".into(),
        ));
    }
    if args.to == Target::Ros2 && args.force {
        return Err(Error::InvalidArgument(
            "--force goes with --to db3, bag or a directory of files (png, raw, csv, ...)".into(),
        ));
    }
    let ros2_options_given = args.storage != FileFormat::Db3
        || args.namespace != rsbag::ros_camera::DEFAULT_NAMESPACE
        || args.unite_imu.is_some();
    if args.to != Target::Ros2 && ros2_options_given {
        return Err(Error::InvalidArgument(
            "--storage, --namespace and --unite-imu go with --to ros2".into(),
        ));
    }
    image_transport(args)?;
    if args.other_topics.is_some() && args.to != Target::Ros2 {
        return Err(Error::InvalidArgument(
            "--other-topics goes with --to ros2 of one recording".into(),
        ));
    }
    if args.aligned_depth && args.to != Target::Ros2 {
        return Err(Error::InvalidArgument(
            "--aligned-depth goes with --to ros2".into(),
        ));
    }
    if args.pointcloud.is_some() && args.to != Target::Ros2 {
        return Err(Error::InvalidArgument(
            "--pointcloud goes with --to ros2 (--to ply writes point clouds as files)".into(),
        ));
    }
    if args.mcap_compression != McapCompression::Zstd && args.storage != FileFormat::Mcap {
        return Err(Error::InvalidArgument(
            "--mcap-compression goes with --to ros2 --storage mcap".into(),
        ));
    }
    Ok(())
}

/// `--image-transport` and its codecs, which go with `--to ros2`.
fn image_transport(args: &Args) -> Result<ImageTransport> {
    if args.to != Target::Ros2 && args.transport.given() {
        return Err(Error::InvalidArgument(
            "--image-transport and its codecs go with --to ros2".into(),
        ));
    }
    args.transport.transport()
}

/// Convert `args.file` into `args.out`.
fn convert_one(args: Args) -> Result<ExitCode> {
    check_args(&args)?;
    let reader = match &args.camera {
        Some(namespace) => FrameReader::open_camera(&args.file, namespace)?,
        None => select::open(&args.file)?,
    };
    super::session::one_camera(
        reader.recording(),
        "convert one with --camera NAMESPACE, or all of them with --session (one camera each)",
    )
    .map_err(|e| e.in_file(&args.file))?;
    let mut losses = Losses::new(&args.file);
    losses.watch(reader.recording());
    let source = Source::One(&reader);
    match args.to {
        Target::Ros2 => super::emit(&to_ros2(source, &args)?),
        Target::Db3 => super::emit(&to_recording(source, &args, FileFormat::Db3)?),
        Target::Bag => super::emit(&to_recording(source, &args, FileFormat::Bag)?),
        _ => export_frames(source, &args, &mut losses)?,
    }
    Ok(losses.exit_code())
}

/// Convert the pieces of one split recording into one output
/// `args.out`, as one recording: `--start` counts from the first piece's
/// first frame, and a gap at a cut is said in the report.
fn convert_pieces(mut args: Args, pieces: &Pieces) -> Result<ExitCode> {
    check_args(&args)?;
    if args.other_topics.is_some() {
        return Err(Error::InvalidArgument(
            "--other-topics goes with one camera bag recorded from ROS, not pieces".into(),
        ));
    }
    pieces::note(pieces);
    args.file = pieces.pieces()[0].path().to_path_buf();
    let mut losses = pieces::losses(pieces);
    let source = Source::Pieces(pieces);
    let written = match args.to {
        Target::Ros2 => Some(to_ros2(source, &args)?),
        Target::Db3 => Some(to_recording(source, &args, FileFormat::Db3)?),
        Target::Bag => Some(to_recording(source, &args, FileFormat::Bag)?),
        _ => {
            export_frames(source, &args, &mut losses)?;
            None
        }
    };
    let mut said = format!(
        "read {} pieces as one recording
",
        pieces.pieces().len()
    );
    for gap in pieces.gaps() {
        outln!(said, "GAP: {gap}");
    }
    super::emit(&format!("{said}{}", written.unwrap_or_default()));
    Ok(losses.exit_code())
}

/// `--start`/`--duration` of a whole-recording conversion, if given.
fn window_of(source: Source<'_>, args: &Args) -> Result<Option<Window>> {
    (args.start.is_some() || args.duration.is_some())
        .then(|| Window::new(source.duration(), args.start, args.duration))
        .transpose()
}

/// `--to ros2`: a ROS 2 bag of standard messages.
fn to_ros2(source: Source<'_>, args: &Args) -> Result<String> {
    let target = recording::Ros2Target {
        file: &args.file,
        out: &args.out,
        storage: args.storage,
        mcap_compression: args.mcap_compression,
        namespace: &args.namespace,
        image_transport: image_transport(args)?,
        unite_imu: args.unite_imu.map(UniteImuArg::method),
        streams: select::streams(|n| source.find_streams(n), &args.streams)?,
        window: window_of(source, args)?,
        filters: args.filters.clone(),
        other_topics: args.other_topics.unwrap_or(OtherTopicsArg::Keep).into(),
        aligned_depth: args.aligned_depth,
        pointcloud: args.pointcloud.map(Into::into),
    };
    recording::run_ros2(source, target)
}

/// `--to db3` or `--to bag`: the recording written anew in `format`.
fn to_recording(source: Source<'_>, args: &Args, format: FileFormat) -> Result<String> {
    let target = recording::FileTarget {
        file: &args.file,
        out: &args.out,
        format,
        streams: select::streams(|n| source.find_streams(n), &args.streams)?,
        window: window_of(source, args)?,
        stream_times: Default::default(),
        uncompressed: args.uncompressed,
        compression: None,
        keep_pose: args.keep_pose,
        force: args.force,
        skip_unreadable: false,
        filters: args.filters.clone(),
    };
    Ok(recording::run(source, target)?.text)
}

/// The frames as files in the directory `args.out`.
fn export_frames(source: Source<'_>, args: &Args, losses: &mut Losses) -> Result<()> {
    let reader = source.described();
    let (streams, skipped) = convertible(reader, args)?;
    if args.to == Target::Kalibr {
        kalibr::check_streams(&streams).map_err(|e| e.in_file(&args.file))?;
    }
    let window = Window::new(source.duration(), args.start, args.duration)?;
    let in_file = |e: Error| e.in_file(&args.file);
    let align_to = args.align_to.as_deref();
    // Filtered depth has its own size and intrinsics: point clouds are
    // then not coloured (the colour mapping is of the recorded depth).
    let coloured_clouds = args.to == Target::Ply && args.filters.is_empty();
    let mut preparer =
        prepare::Preparer::new(reader, &streams, align_to, coloured_clouds).map_err(in_file)?;
    let mut filters = StreamFilters::of_recording(reader.recording(), &args.filters);
    let renderer = render::Renderer::new(args, reader, &streams);
    let total = (source.frame_counts(&streams, window.bounds()))
        .map_err(in_file)?
        .values()
        .sum();
    let bar = progress::bar(total, "frames");
    let dir = OutputDir::create(&args.out, args.force)?;
    let mut writer = Writer::new(args, &dir);
    let mut work = Batch {
        pending: Vec::with_capacity(BATCH),
        preparer: &mut preparer,
        renderer: &renderer,
        writer: &mut writer,
        bar: &bar,
        filters: &mut filters,
    };
    if work.preparer.needs_framesets() {
        // Frames are written with the frames of their frameset, partners
        // read but not written.
        let read = streams.iter().copied().chain(work.preparer.partners());
        let sets = source.framesets(&read.collect(), window.bounds());
        for set in sets.map_err(in_file)? {
            match set {
                Ok(set) => {
                    let set: Arc<[RecordedFrame]> = set.frames().into();
                    for frame in set.iter().filter(|f| streams.contains(&f.stream)) {
                        work.add(frame.clone(), set.clone()).map_err(in_file)?;
                    }
                }
                Err(e) => bar.suspend(|| losses.note(e))?,
            }
        }
    } else {
        let alone: Arc<[RecordedFrame]> = Arc::new([]);
        for frame in source.frames(&streams, window.bounds()).map_err(in_file)? {
            match frame {
                // A frame that cannot be converted is the input's fault.
                Ok(frame) => work.add(frame, alone.clone()).map_err(in_file)?,
                Err(e) => bar.suspend(|| losses.note(e))?,
            }
        }
    }
    work.finish().map_err(in_file)?;
    let (written, mut notes) = writer.finish()?;
    notes.extend(preparer.notes());
    if !args.filters.is_empty() {
        let chain: Vec<&str> = args.filters.iter().map(|f| f.kind.name()).collect();
        notes.push(format!("depth filtered: {}", chain.join(" -> ")));
    }
    dir.finish()?;
    bar.finish_and_clear();
    super::emit(&summary(args, &written, &skipped, &notes));
    Ok(())
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
type Skipped = Vec<(StreamId, &'static str)>;

/// The chosen streams that can be written as `args.to`, and those skipped;
/// an error if a named stream cannot be, or none can.
fn convertible(reader: &FrameReader, args: &Args) -> Result<(BTreeSet<StreamId>, Skipped)> {
    let named = select::streams(|n| reader.find_streams(n), &args.streams)?;
    let recorded = reader.recording().streams();
    let mut streams = BTreeSet::new();
    let mut skipped = Vec::new();
    for (&id, stream) in recorded {
        if named.as_ref().is_some_and(|n| !n.contains(&id)) {
            continue;
        }
        match args.to.accepts(&stream.profile) {
            Ok(()) => {
                streams.insert(id);
            }
            Err(why) if named.is_some() => {
                return Err(Error::InvalidArgument(format!(
                    "stream {id} cannot be written as {}: {why}",
                    args.to.name()
                )))
            }
            Err(why) => skipped.push((id, why)),
        }
    }
    if streams.is_empty() {
        let all: Vec<String> = recorded.keys().map(|s| s.to_string()).collect();
        return Err(Error::InvalidArgument(format!(
            "no stream can be written as {} (the recording has {})",
            args.to.name(),
            if all.is_empty() {
                "no streams".into()
            } else {
                all.join(", ")
            }
        ))
        .in_file(&args.file));
    }
    Ok((streams, skipped))
}

fn summary(
    args: &Args,
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
        args.to.name(),
        args.out.display(),
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
struct OutputDir {
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
    fn create(path: &Path, force: bool) -> Result<OutputDir> {
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
    fn create_file(&self, name: &str) -> Result<BufWriter<File>> {
        let file = File::create(self.temp.join(name)).map_err(|e| self.error(name, e))?;
        Ok(BufWriter::new(file))
    }

    /// Create a CSV file `name` with its header line.
    fn create_csv(&self, name: &str, header: &str) -> Result<BufWriter<File>> {
        let mut file = self.create_file(name)?;
        writeln!(file, "{header}").map_err(|e| self.error(name, e))?;
        Ok(file)
    }

    fn error(&self, name: &str, source: std::io::Error) -> Error {
        Error::Io {
            path: self.path.join(name),
            error: source,
        }
    }

    fn finish(mut self) -> Result<()> {
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
struct Writer<'a> {
    to: Target,
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
    fn new(args: &Args, dir: &'a OutputDir) -> Self {
        Writer {
            to: args.to,
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
            Rendered::InOrder if self.to == Target::Kalibr => self.imu_sample(frame)?,
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

/// A `--filter` spec.
fn filter_spec(text: &str) -> std::result::Result<FilterSpec, String> {
    FilterSpec::parse(text).map_err(|e| e.to_string())
}

/// Whether `--filter` goes with the other arguments: a target carrying
/// depth, no `--align-to`, and a chain ending in depth unless the target
/// is raw bytes.
fn check_filters(args: &Args) -> Result<()> {
    if args.filters.is_empty() {
        return Ok(());
    }
    if args.to == Target::Kalibr {
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
    if colorized && matches!(args.to, Target::Ply | Target::Csv) {
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
    if disparity && args.to != Target::Raw {
        return Err(Error::InvalidArgument(format!(
            "the filters end in disparity, which --to {} does not hold: end them with \
             --filter disparity-to-depth (or write --to raw)",
            args.to.name()
        )));
    }
    Ok(())
}

/// `NEAR,FAR` in meters, near < far.
fn depth_range(text: &str) -> std::result::Result<(f32, f32), String> {
    let parsed = text
        .split_once(',')
        .and_then(|(a, b)| Some((a.trim().parse::<f32>().ok()?, b.trim().parse::<f32>().ok()?)));
    match parsed {
        Some((near, far)) if near.is_finite() && far.is_finite() && near < far => Ok((near, far)),
        _ => Err(format!(
            "{text:?} is not NEAR,FAR in meters with NEAR < FAR"
        )),
    }
}

/// `Depth`, `Infrared_1`: a stream as it starts file names.
fn label(stream: StreamId) -> String {
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
