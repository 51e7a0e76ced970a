//! The arguments of `rsbag convert`, as clap reads them, with the value
//! parsers of the options that take more than a word.

use std::path::PathBuf;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use rsbag::processing::filters::FilterSpec;
use rsbag::record::PointCloudLayout;
use rsbag::ros_camera::imu::UniteImu;
use rsbag::storage::rosbag2::McapCompression;
use rsbag::storage::FileFormat;

use super::super::image_transport::TransportArgs;
use super::super::session::ClockArgs;

/// `--to`: what to write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ToArg {
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
    pub(super) files: Vec<PathBuf>,
    /// The kind of files to write (any case).
    #[arg(long, value_enum, ignore_case = true)]
    pub(super) to: ToArg,
    /// The directory to write them to (must not exist, or be empty); with
    /// `--to db3` or `--to bag`, the file to write; with `--to ros2`, the
    /// bag directory (must not exist).
    #[arg(long, value_name = "DIR|FILE")]
    pub(super) out: PathBuf,
    /// Only these streams, by librealsense name (`Depth`, `Color`,
    /// `Infrared 1`, `Accel`…), comma-separated or repeated.
    #[arg(long, alias = "stream", value_name = "NAMES", value_delimiter = ',')]
    pub(super) streams: Vec<String>,
    /// Only frames recorded from this many seconds after the first frame.
    #[arg(long, value_name = "SECONDS")]
    pub(super) start: Option<f64>,
    /// Only frames recorded in this many seconds from `--start`.
    #[arg(long, value_name = "SECONDS")]
    pub(super) duration: Option<f64>,
    /// With `--to png`: also write a colorized 8-bit image of each depth
    /// frame (with `--session`, over each camera's own Depth Units).
    #[arg(long)]
    pub(super) colorize: bool,
    /// Depths (meters) the colorized map spans, near and far (`--colorize`
    /// and `--to mp4`).
    #[arg(long, value_name = "NEAR,FAR", default_value = "0.3,4", value_parser = depth_range)]
    pub(super) colorize_range: (f32, f32),
    /// With `--to png`, `raw`, `csv`, `npy` or `ply`: align images as
    /// librealsense's `rs2::align` does. `Color` (any image stream but
    /// depth): depth frames become depth aligned to that stream (its size
    /// and intrinsics; raw files keep their `Depth_<number>.raw` names).
    /// `Depth`: other image frames become aligned to the depth frame of
    /// their frameset (the depth image's size); one without a depth frame
    /// in its frameset is not written.
    #[arg(long, value_name = "STREAM")]
    pub(super) align_to: Option<String>,
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
    pub(super) filters: Vec<FilterSpec>,
    /// With `--to ply`: ASCII instead of binary point clouds.
    #[arg(long)]
    pub(super) ascii: bool,
    /// With `--to npy`: the raw uint16 depth values instead of float32
    /// meters.
    #[arg(long)]
    pub(super) npy_raw: bool,
    /// With `--to db3` or `--to bag`: uncompressed images (db3) or chunks
    /// (bag).
    #[arg(long)]
    pub(super) uncompressed: bool,
    /// With `--to db3`: keep pose streams (librealsense 2.59 then cannot
    /// open the file; rsbag can, and converts it back to a `.bag`).
    #[arg(long)]
    pub(super) keep_pose: bool,
    /// With `--to db3` or `--to bag`: replace a file already at `--out`.
    /// With a directory of files (`--to png`, ...): replace a directory
    /// an earlier conversion wrote there (one holding its `frames.csv`,
    /// or a session's `framesets.csv`), once the new one is complete;
    /// any other directory is kept.
    #[arg(long)]
    pub(super) force: bool,
    /// With `--to ros2`: the storage plugin.
    #[arg(long, value_parser = rosbag2_storage(), default_value = "sqlite3")]
    pub(super) storage: FileFormat,
    /// With `--to ros2 --storage mcap`: how the chunks are compressed.
    #[arg(long, value_parser = mcap_compression(), default_value = "zstd")]
    pub(super) mcap_compression: McapCompression,
    /// With `--to ros2`: the namespace of the topics (the RealSense ROS 2
    /// wrapper's default is `/camera/camera`).
    #[arg(long, value_name = "NS", default_value = rsbag::ros_camera::DEFAULT_NAMESPACE)]
    pub(super) namespace: String,
    #[command(flatten)]
    pub(super) transport: TransportArgs,
    /// With `--to ros2`: gyro and accel samples united on one
    /// `sensor_msgs/Imu` topic, `<namespace>/imu`, as the RealSense ROS
    /// wrapper's `unite_imu_method` publishes them (instead of
    /// `gyro/sample` and `accel/sample`).
    #[arg(long, value_enum, value_name = "METHOD")]
    pub(super) unite_imu: Option<UniteImuArg>,
    /// With `--to ros2` of a camera bag recorded on a robot: the topics
    /// that are not the cameras' (lidar, `/tf`, odometry, ...) are carried
    /// as they are over the converted time (`keep`, the default; a ROS1
    /// bag's keep their `ros1` serialization) or left out (`drop`).
    #[arg(long, value_enum, value_name = "keep|drop")]
    pub(super) other_topics: Option<OtherTopicsArg>,
    /// With `--to ros2`: also depth aligned to the colour image on
    /// `<ns>/aligned_depth_to_color/image_raw` and `camera_info`, as the
    /// RealSense ROS wrapper's `align_depth.enable` publishes it (the
    /// pixels of `--align-to color`, of the filtered depth with
    /// `--filter`; the colour camera's frame and camera info, the depth
    /// frame's stamp).
    #[arg(long)]
    pub(super) aligned_depth: bool,
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
    pub(super) pointcloud: Option<PointCloudArg>,
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
    pub(super) session: bool,
    /// Of a camera bag of several cameras (ROS namespaces, as `rsbag info`
    /// lists them: `/cam_front/camera`): convert the camera under this
    /// namespace alone, as a bag of it alone would convert (the other
    /// cameras' topics are then other topics, kept by `--to ros2` unless
    /// `--other-topics drop`). Without it such a bag is refused but with
    /// `--session`.
    #[arg(long, value_name = "NAMESPACE", conflicts_with = "session")]
    pub(super) camera: Option<String>,
    /// With `--session --to ros2`: where a camera is, as the pose of its
    /// `CAMERA_link` frame in the first recording's camera's: `--pose
    /// B.bag=X,Y,Z,QX,QY,QZ,QW` (metres, ROS axes: x forward, y left, z
    /// up; a unit quaternion), the file as given, its name or the camera's
    /// serial number (of one of several cameras of a bag: the camera's
    /// name). Repeat for each camera.
    #[arg(long, value_name = "FILE=X,Y,Z,QX,QY,QZ,QW", requires = "session")]
    pub(super) pose: Vec<String>,
    /// With `--session --to png`: how far (ms) a frame may be from its
    /// set's first frame (default 10).
    #[arg(long, value_name = "MS", requires = "session")]
    pub(super) tolerance: Option<f64>,
    #[command(flatten)]
    pub(super) session_clock: ClockArgs,
}

impl ToArg {
    /// The name `--to` takes.
    pub fn name(self) -> &'static str {
        match self {
            ToArg::Png => "png",
            ToArg::Raw => "raw",
            ToArg::Csv => "csv",
            ToArg::Npy => "npy",
            ToArg::Ply => "ply",
            ToArg::Mp4 => "mp4",
            ToArg::Kalibr => "kalibr",
            ToArg::Db3 => "db3",
            ToArg::Bag => "bag",
            ToArg::Ros2 => "ros2",
        }
    }
}

/// A `--filter` spec.
fn filter_spec(text: &str) -> std::result::Result<FilterSpec, String> {
    FilterSpec::parse(text).map_err(|e| e.to_string())
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
