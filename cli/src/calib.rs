//! `rsbag calib`: a recording's calibration in the file formats of the
//! tools that use it.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use rsbag::device::{Distortion, Extrinsics, Intrinsics, StreamId, StreamKind};
use rsbag::recording::calibration::{Calibration, StreamCalibration};
use rsbag::recording::summary::short_f64;
use rsbag::recording::Recording;
use rsbag::{Error, Result};

use super::damage::Losses;
use super::output::refuse_existing;
use super::select;

/// Export the calibration of a recording: intrinsics and distortion of
/// every stream, extrinsics between every pair, depth units, IMU
/// intrinsics, with the values librealsense gives (`get_intrinsics`,
/// `get_extrinsics_to`, `get_motion_intrinsics`, `get_depth_scale`).
///
/// Formats (numbers are librealsense's float32 values as the shortest
/// decimal that reads back as them):
///
/// - `json` (one file): {`file`, `device`, `serial`, `streams` [{`name`
///   (`Infrared 1`), `stream`, `index`, `sensor`, `format`, `fps`,
///   `width`, `height`, `intrinsics` {`width`, `height`, `fx`, `fy`,
///   `ppx`, `ppy`, `model`, `coeffs`} or null, `motion_intrinsics`
///   {`data` (3x4), `noise_variances`, `bias_variances`} or null,
///   `depth_units` or null}], `extrinsics` [{`from`, `to`, `rotation`
///   (column-major, as librealsense), `translation` (metres)}]}.
///
/// - `opencv` (one file): OpenCV FileStorage YAML, read by
///   `cv2.FileStorage`: a map per stream (`Infrared_1`) with
///   `camera_matrix`, `distortion_coefficients` (librealsense's five, for
///   Brown-Conrady OpenCV's k1 k2 p1 p2 k3), `distortion_model`,
///   `image_width`, `image_height`, `depth_units`, `imu_intrinsics` (3x4),
///   `noise_variances`, `bias_variances`; `extrinsics` holds
///   `FROM_to_TO` maps with `R` (3x3, row-major) and `T` (3x1, metres)
///   mapping a point from FROM's coordinates to TO's.
///
/// - `kalibr` (a directory): `camchain.yaml` (every video stream but
///   depth, as `cam0`, `cam1`... in stream order, each after a comment
///   naming the stream: `pinhole` with `radtan` or `equidistant`
///   distortion, `T_cn_cnm1` from the previous camera,
///   `T_cam_imu` from the gyro where the recording relates them, topics
///   `/camN/image_raw` as `kalibr_bagcreater` names them) and, with gyro
///   and accel streams, `imu.yaml` (`update_rate` the gyro's rate;
///   noise densities sqrt(variance / rate) and random walks
///   sqrt(bias variance x rate), with each stream's own rate, from the
///   largest axis of librealsense's per-sample variances).
///
/// - `colmap` (one file): COLMAP's `cameras.txt`, every video stream but
///   depth as cameras 1, 2..., each after a comment naming the stream
///   (`PINHOLE`, `OPENCV`, `FULL_OPENCV` or `OPENCV_FISHEYE`); the
///   principal point is moved by half a pixel, as COLMAP puts pixel
///   centres at .5.
///
/// - `open3d` (a directory): `STREAM.json` per video stream, Open3D's
///   `PinholeCameraIntrinsic` JSON (`o3d.io.read_pinhole_camera_intrinsic`).
///
/// - `ros` (a directory): `STREAM.yaml` per video stream, ROS CameraInfo
///   YAML as `camera_calibration_parsers` reads it (`plumb_bob` or
///   `equidistant`, identity rectification, projection `[K | 0]`).
///
/// A distortion a format cannot express (e.g. inverse Brown-Conrady in
/// Kalibr, any distortion in Open3D) is an error naming the stream and
/// the `--streams` that leave it out; `json` and `opencv` carry every
/// model as recorded. A format with no stream to describe (Kalibr or
/// COLMAP of a depth-only recording) is an error: nothing is written.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The recording.
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// The file format.
    #[arg(long, value_enum, default_value_t = CalibFormat::Json)]
    format: CalibFormat,
    /// Where to write: a file for json, opencv and colmap (default: standard
    /// output), a directory for kalibr, open3d and ros (required). Existing
    /// files are not replaced.
    #[arg(long, value_name = "PATH")]
    out: Option<PathBuf>,
    /// Only these streams (and the extrinsics between them), by
    /// librealsense name: `Depth`, `Color`, `Infrared 1`, `Gyro`…; a name
    /// without an index means every stream of that kind. Repeat the
    /// option or give a comma-separated list. All streams by default.
    #[arg(long, alias = "stream", value_name = "NAMES", value_delimiter = ',')]
    streams: Vec<String>,
}

/// The formats of `rsbag calib`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum CalibFormat {
    /// rsbag's JSON.
    Json,
    /// OpenCV FileStorage YAML.
    Opencv,
    /// Kalibr's camchain.yaml and imu.yaml.
    Kalibr,
    /// COLMAP's cameras.txt.
    Colmap,
    /// Open3D PinholeCameraIntrinsic JSON, one per stream.
    Open3d,
    /// ROS CameraInfo YAML, one per stream.
    Ros,
}

/// Write the calibration of `args.file` in `args.format`.
pub fn run(args: Args) -> Result<ExitCode> {
    let recording = Recording::open(&args.file)?;
    // A damaged recording is said so (exit 4), as by every command that
    // reads one, once what could be read is written.
    let mut losses = Losses::new(&args.file);
    losses.watch(&recording);
    let mut calibration = Calibration::of(&recording);
    if let Some(chosen) = select::streams(|n| recording.find_streams(n), &args.streams)? {
        calibration.streams.retain(|s| chosen.contains(&s.stream));
        (calibration.extrinsics).retain(|e| chosen.contains(&e.from) && chosen.contains(&e.to));
    }
    let files = match args.format {
        CalibFormat::Json => vec![(String::new(), json(&args.file, &calibration)?)],
        CalibFormat::Opencv => vec![(String::new(), opencv(&calibration))],
        CalibFormat::Kalibr => kalibr(&calibration)?,
        CalibFormat::Colmap => vec![(String::new(), colmap(&calibration)?)],
        CalibFormat::Open3d => open3d(&calibration)?,
        CalibFormat::Ros => ros(&calibration)?,
    };
    write(&files, args.out.as_deref(), args.format)?;
    Ok(losses.exit_code())
}

/// Write `files` (name, text): one unnamed file to `out` or standard
/// output, named files into the directory `out`. Nothing is written if a
/// file would be replaced.
fn write(files: &[(String, String)], out: Option<&Path>, format: CalibFormat) -> Result<()> {
    match (files, out) {
        ([(name, text)], None) if name.is_empty() => {
            super::emit(text);
            Ok(())
        }
        ([(name, text)], Some(path)) if name.is_empty() => {
            refuse_existing(path, false)?;
            std::fs::write(path, text).map_err(io(path))
        }
        (_, None) => Err(Error::InvalidArgument(format!(
            "--format {} writes one file per stream: give --out DIRECTORY",
            format_name(format)
        ))),
        (files, Some(dir)) => {
            if files.is_empty() {
                return Err(Error::InvalidArgument(
                    "the recording has no stream this format describes".into(),
                ));
            }
            for (name, _) in files {
                refuse_existing(&dir.join(name), false)?;
            }
            std::fs::create_dir_all(dir).map_err(io(dir))?;
            for (name, text) in files {
                let path = dir.join(name);
                std::fs::write(&path, text).map_err(io(&path))?;
            }
            Ok(())
        }
    }
}

fn format_name(format: CalibFormat) -> &'static str {
    match format {
        CalibFormat::Json => "json",
        CalibFormat::Opencv => "opencv",
        CalibFormat::Kalibr => "kalibr",
        CalibFormat::Colmap => "colmap",
        CalibFormat::Open3d => "open3d",
        CalibFormat::Ros => "ros",
    }
}

/// A failed write of `path`.
fn io(path: &Path) -> impl FnOnce(std::io::Error) -> Error + '_ {
    move |error| Error::Io {
        path: path.to_owned(),
        error,
    }
}

/// An `f64` as a decimal that reads back as it, always with a point (a
/// real in OpenCV's reader and in YAML 1.1's, which Kalibr and ROS use).
fn real(v: f64) -> String {
    if v.is_nan() {
        return ".nan".into();
    }
    if v.is_infinite() {
        return if v > 0.0 { ".inf" } else { "-.inf" }.into();
    }
    let text = format!("{v:?}");
    match text.split_once('e') {
        Some((mantissa, exponent)) if !mantissa.contains('.') => {
            format!("{mantissa}.0e{exponent}")
        }
        _ if !text.contains(['.', 'e']) => format!("{text}.0"),
        _ => text,
    }
}

fn list(values: impl IntoIterator<Item = String>) -> String {
    format!("[{}]", values.into_iter().collect::<Vec<_>>().join(", "))
}

/// librealsense's distortion model as pyrealsense2 names it
/// (`brown_conrady`).
fn model_name(model: Distortion) -> String {
    model.name().to_lowercase().replace(' ', "_")
}

/// The stream's name as a key or file name (`Infrared_1`).
fn key(stream: StreamId) -> String {
    stream.name_joined("_")
}

/// The 3x3 pinhole matrix, row-major.
fn camera_matrix(i: &Intrinsics) -> [f64; 9] {
    let [fx, fy, ppx, ppy] = [i.fx, i.fy, i.ppx, i.ppy].map(short_f64);
    [fx, 0.0, ppx, 0.0, fy, ppy, 0.0, 0.0, 1.0]
}

/// The rotation row-major (librealsense's is column-major).
fn row_major(e: &Extrinsics) -> [f32; 9] {
    std::array::from_fn(|k| e.rotation[(k % 3) * 3 + k / 3])
}

/// Video streams with intrinsics.
fn cameras(calibration: &Calibration) -> impl Iterator<Item = (&StreamCalibration, &Intrinsics)> {
    calibration
        .streams
        .iter()
        .filter_map(|s| s.intrinsics.as_ref().map(|i| (s, i)))
}

fn json(file: &Path, calibration: &Calibration) -> Result<String> {
    use serde_json::{json, Value};
    let floats = |v: &[f32]| Value::from(v.iter().map(|&x| short_f64(x)).collect::<Vec<_>>());
    let streams: Vec<Value> = calibration
        .streams
        .iter()
        .map(|s| {
            let (width, height) = s.resolution.unzip();
            json!({
                "name": s.stream.name(),
                "stream": s.stream.kind.name(),
                "index": s.stream.index,
                "sensor": s.sensor,
                "format": s.format.name(),
                "fps": s.fps,
                "width": width,
                "height": height,
                "intrinsics": s.intrinsics.map(|i| json!({
                    "width": i.width, "height": i.height,
                    "fx": short_f64(i.fx), "fy": short_f64(i.fy),
                    "ppx": short_f64(i.ppx), "ppy": short_f64(i.ppy),
                    "model": model_name(i.model), "coeffs": floats(&i.coeffs),
                })),
                "motion_intrinsics": s.motion_intrinsics.map(|m| json!({
                    "data": m.data.iter().map(|row| floats(row)).collect::<Vec<_>>(),
                    "noise_variances": floats(&m.noise_variances),
                    "bias_variances": floats(&m.bias_variances),
                })),
                "depth_units": s.depth_units.map(short_f64),
            })
        })
        .collect();
    let extrinsics: Vec<Value> = calibration
        .extrinsics
        .iter()
        .map(|e| {
            json!({
                "from": e.from.name(),
                "to": e.to.name(),
                "rotation": floats(&e.extrinsics.rotation),
                "translation": floats(&e.extrinsics.translation),
            })
        })
        .collect();
    let document = json!({
        "file": file.display().to_string(),
        "device": calibration.device,
        "serial": calibration.serial,
        "streams": streams,
        "extrinsics": extrinsics,
    });
    serde_json::to_string_pretty(&document)
        .map(|text| text + "\n")
        .map_err(|e| Error::InvalidArgument(format!("cannot write the calibration as JSON: {e}")))
}

/// An OpenCV FileStorage matrix of doubles, indented by `indent`.
fn opencv_matrix(rows: usize, cols: usize, data: &[f64], indent: &str) -> String {
    format!(
        "!!opencv-matrix\n{indent}   rows: {rows}\n{indent}   cols: {cols}\n{indent}   dt: d\n{indent}   data: {}\n",
        list(data.iter().map(|&v| real(v)))
    )
}

fn opencv(calibration: &Calibration) -> String {
    let f64s = |v: &[f32]| v.iter().map(|&x| short_f64(x)).collect::<Vec<f64>>();
    let quoted = |s: &str| format!("\"{}\"", s.replace(['"', '\\'], "_"));
    let mut out = String::from("%YAML:1.0\n---\n");
    if let Some(device) = &calibration.device {
        outln!(out, "device: {}", quoted(device));
    }
    if let Some(serial) = &calibration.serial {
        outln!(out, "serial: {}", quoted(serial));
    }
    for s in &calibration.streams {
        outln!(out, "{}:", key(s.stream));
        outln!(out, "   sensor: {}", quoted(&s.sensor));
        outln!(out, "   format: {}", quoted(s.format.name()));
        outln!(out, "   fps: {}", s.fps);
        if let Some(i) = &s.intrinsics {
            outln!(out, "   image_width: {}", i.width);
            outln!(out, "   image_height: {}", i.height);
            let k = opencv_matrix(3, 3, &camera_matrix(i), "   ");
            let d = opencv_matrix(1, 5, &f64s(&i.coeffs), "   ");
            let _ = write!(out, "   camera_matrix: {k}");
            outln!(out, "   distortion_model: {}", quoted(&model_name(i.model)));
            let _ = write!(out, "   distortion_coefficients: {d}");
        }
        if let Some(m) = &s.motion_intrinsics {
            let data: Vec<f32> = m.data.iter().flatten().copied().collect();
            let (noise, bias) = (f64s(&m.noise_variances), f64s(&m.bias_variances));
            let _ = write!(
                out,
                "   imu_intrinsics: {}",
                opencv_matrix(3, 4, &f64s(&data), "   ")
            );
            let _ = write!(
                out,
                "   noise_variances: {}",
                opencv_matrix(1, 3, &noise, "   ")
            );
            let _ = write!(
                out,
                "   bias_variances: {}",
                opencv_matrix(1, 3, &bias, "   ")
            );
        }
        if let Some(units) = s.depth_units {
            outln!(out, "   depth_units: {}", real(short_f64(units)));
        }
    }
    if !calibration.extrinsics.is_empty() {
        outln!(out, "extrinsics:");
        for e in &calibration.extrinsics {
            outln!(out, "   {}_to_{}:", key(e.from), key(e.to));
            outln!(out, "      from: {}", quoted(&e.from.name()));
            outln!(out, "      to: {}", quoted(&e.to.name()));
            let r = opencv_matrix(3, 3, &f64s(&row_major(&e.extrinsics)), "      ");
            let t = opencv_matrix(3, 1, &f64s(&e.extrinsics.translation), "      ");
            let _ = write!(out, "      R: {r}      T: {t}");
        }
    }
    out
}

/// An error for a stream whose distortion `format` cannot express, with
/// the `--streams` that leave it out: `holds`, the streams of `candidates`
/// whose intrinsics the format can hold.
fn inexpressible<'c>(
    format: &str,
    s: &StreamCalibration,
    i: &Intrinsics,
    candidates: impl Iterator<Item = (&'c StreamCalibration, &'c Intrinsics)>,
    holds: impl Fn(&Intrinsics) -> bool,
) -> Error {
    let others: Vec<String> = candidates
        .filter(|(_, i)| holds(i))
        .map(|(s, _)| s.stream.name())
        .collect();
    let leave_out = if others.is_empty() {
        String::new()
    } else {
        format!("leave it out with --streams \"{}\", or ", others.join(","))
    };
    Error::InvalidArgument(format!(
        "{format} has no distortion model for stream {} ({}, coefficients {:?}); \
         {leave_out}--format json or opencv carry it as recorded",
        s.stream.name(),
        model_name(i.model),
        i.coeffs
    ))
}

/// An error for a format left without a camera to describe.
fn no_camera(format: &str) -> Error {
    Error::InvalidArgument(format!(
        "{format} describes cameras (video streams but depth), and the recording has none \
         (of the streams chosen): nothing is written"
    ))
}

/// Whether Kalibr can hold a lens: its `radtan` (Brown-Conrady without
/// k3) or `equidistant` (Kannala-Brandt).
fn kalibr_holds(i: &Intrinsics) -> bool {
    match lens(i) {
        Some(Lens::KannalaBrandt) => true,
        Some(_) => i.coeffs[4] == 0.0,
        None => false,
    }
}

/// Whether Open3D's pinhole can hold a lens: no distortion at all.
fn open3d_holds(i: &Intrinsics) -> bool {
    i.coeffs.iter().all(|&c| c == 0.0)
}

/// Brown-Conrady without k3 (or no distortion at all) and Kannala-Brandt:
/// what Kalibr, COLMAP and ROS share; `None` for other models.
enum Lens {
    Undistorted,
    BrownConrady,
    KannalaBrandt,
}

fn lens(i: &Intrinsics) -> Option<Lens> {
    if i.coeffs.iter().all(|&c| c == 0.0) {
        return Some(Lens::Undistorted);
    }
    match i.model {
        Distortion::BrownConrady => Some(Lens::BrownConrady),
        Distortion::KannalaBrandt4 => Some(Lens::KannalaBrandt),
        _ => None,
    }
}

/// Streams Kalibr and COLMAP take as cameras: video with intrinsics,
/// not depth.
fn image_cameras(
    calibration: &Calibration,
) -> impl Iterator<Item = (&StreamCalibration, &Intrinsics)> {
    cameras(calibration).filter(|(s, _)| s.stream.kind != StreamKind::Depth)
}

/// A 4x4 homogeneous transform as a YAML list of rows.
fn homogeneous(e: &Extrinsics, indent: &str) -> String {
    let r = row_major(e);
    let mut out = String::new();
    for row in 0..3 {
        let values = (0..3)
            .map(|c| r[row * 3 + c])
            .chain([e.translation[row]])
            .map(|v| real(short_f64(v)));
        outln!(out, "{indent}- {}", list(values));
    }
    outln!(out, "{indent}- [0.0, 0.0, 0.0, 1.0]");
    out
}

fn kalibr(calibration: &Calibration) -> Result<Vec<(String, String)>> {
    let imu = |kind| calibration.streams.iter().find(|s| s.stream.kind == kind);
    let (gyro, accel) = (imu(StreamKind::Gyro), imu(StreamKind::Accel));
    let mut chain = String::new();
    let mut previous: Option<StreamId> = None;
    for (n, (s, i)) in image_cameras(calibration).enumerate() {
        let (model, coeffs) = match lens(i) {
            Some(Lens::KannalaBrandt) => ("equidistant", &i.coeffs[..4]),
            Some(_) if i.coeffs[4] == 0.0 => ("radtan", &i.coeffs[..4]),
            _ => {
                let cameras = image_cameras(calibration);
                return Err(inexpressible("Kalibr", s, i, cameras, kalibr_holds));
            }
        };
        outln!(chain, "# {}", s.stream.name());
        outln!(chain, "cam{n}:");
        outln!(chain, "  camera_model: pinhole");
        let k = [i.fx, i.fy, i.ppx, i.ppy].map(|v| real(short_f64(v)));
        outln!(chain, "  intrinsics: {}", list(k));
        outln!(chain, "  distortion_model: {model}");
        let d = coeffs.iter().map(|&v| real(short_f64(v)));
        outln!(chain, "  distortion_coeffs: {}", list(d));
        outln!(chain, "  resolution: [{}, {}]", i.width, i.height);
        outln!(chain, "  rostopic: /cam{n}/image_raw");
        if let Some(before) = previous {
            let e = calibration.extrinsics(before, s.stream).ok_or_else(|| {
                Error::InvalidArgument(format!(
                    "the recording does not relate streams {} and {} (no extrinsics): \
                     Kalibr's camera chain needs it",
                    before.name(),
                    s.stream.name()
                ))
            })?;
            outln!(chain, "  T_cn_cnm1:");
            chain.push_str(&homogeneous(&e, "  "));
        }
        if let Some(e) = gyro.and_then(|g| calibration.extrinsics(g.stream, s.stream)) {
            outln!(chain, "  T_cam_imu:");
            chain.push_str(&homogeneous(&e, "  "));
        }
        previous = Some(s.stream);
    }
    if previous.is_none() {
        return Err(no_camera("Kalibr's camchain.yaml"));
    }
    let mut files = vec![("camchain.yaml".to_owned(), chain)];
    if let (Some(gyro), Some(accel)) = (gyro, accel) {
        files.push(("imu.yaml".to_owned(), kalibr_imu(gyro, accel)?));
    }
    Ok(files)
}

/// Kalibr's IMU noise model from librealsense's per-sample variances: a
/// discrete standard deviation sigma_d is sigma_c x sqrt(rate) for white
/// noise and sigma_c / sqrt(rate) for a random walk (Kalibr's IMU noise
/// model), each at its stream's own rate; the largest axis is taken.
fn kalibr_imu(gyro: &StreamCalibration, accel: &StreamCalibration) -> Result<String> {
    let variances = |s: &StreamCalibration| {
        s.motion_intrinsics
            .map(|m| {
                let largest = |v: [f32; 3]| v.into_iter().map(f64::from).fold(0.0, f64::max);
                let rate = f64::from(s.fps);
                let noise_density = (largest(m.noise_variances) / rate).sqrt();
                (noise_density, (largest(m.bias_variances) * rate).sqrt())
            })
            .ok_or_else(|| {
                Error::InvalidArgument(format!(
                    "stream {} was recorded without IMU intrinsics: Kalibr's imu.yaml needs its noise",
                    s.stream.name()
                ))
            })
    };
    let (gyro_noise, gyro_walk) = variances(gyro)?;
    let (accel_noise, accel_walk) = variances(accel)?;
    let mut out = String::new();
    outln!(out, "accelerometer_noise_density: {}", real(accel_noise));
    outln!(out, "accelerometer_random_walk: {}", real(accel_walk));
    outln!(out, "gyroscope_noise_density: {}", real(gyro_noise));
    outln!(out, "gyroscope_random_walk: {}", real(gyro_walk));
    outln!(out, "rostopic: /imu0");
    outln!(out, "update_rate: {}", real(f64::from(gyro.fps)));
    Ok(out)
}

fn colmap(calibration: &Calibration) -> Result<String> {
    let mut lines = Vec::new();
    for (n, (s, i)) in image_cameras(calibration).enumerate() {
        // COLMAP's pixel centres are at .5, librealsense's at whole numbers.
        let centre = [i.fx, i.fy, i.ppx + 0.5, i.ppy + 0.5].map(short_f64);
        let mut params = centre.to_vec();
        let coeffs = i.coeffs.map(short_f64);
        let model = match lens(i) {
            Some(Lens::Undistorted) => "PINHOLE",
            Some(Lens::BrownConrady) if coeffs[4] == 0.0 => {
                params.extend(&coeffs[..4]);
                "OPENCV"
            }
            Some(Lens::BrownConrady) => {
                params.extend(coeffs.iter().chain(&[0.0; 3]));
                "FULL_OPENCV"
            }
            Some(Lens::KannalaBrandt) => {
                params.extend(&coeffs[..4]);
                "OPENCV_FISHEYE"
            }
            None => {
                let cameras = image_cameras(calibration);
                return Err(inexpressible("COLMAP", s, i, cameras, |i| {
                    lens(i).is_some()
                }));
            }
        };
        let params: Vec<String> = params.iter().map(|v| format!("{v:?}")).collect();
        lines.push(format!("# {}", s.stream.name()));
        lines.push(format!(
            "{} {model} {} {} {}",
            n + 1,
            i.width,
            i.height,
            params.join(" ")
        ));
    }
    if lines.is_empty() {
        return Err(no_camera("COLMAP's cameras.txt"));
    }
    Ok(format!(
        "# Camera list with one line of data per camera:\n\
         #   CAMERA_ID, MODEL, WIDTH, HEIGHT, PARAMS[]\n\
         # Number of cameras: {}\n{}\n",
        lines.len() / 2,
        lines.join("\n")
    ))
}

fn open3d(calibration: &Calibration) -> Result<Vec<(String, String)>> {
    cameras(calibration)
        .map(|(s, i)| {
            if !open3d_holds(i) {
                let format = "Open3D's PinholeCameraIntrinsic";
                let all = cameras(calibration);
                return Err(inexpressible(format, s, i, all, open3d_holds));
            }
            let [fx, fy, cx, cy] = [i.fx, i.fy, i.ppx, i.ppy].map(|v| real(short_f64(v)));
            // Open3D stores the matrix column-major.
            let text = format!(
                "{{\n\t\"class_name\" : \"PinholeCameraIntrinsic\",\n\t\"height\" : {},\n\t\
                 \"intrinsic_matrix\" : [ {fx}, 0.0, 0.0, 0.0, {fy}, 0.0, {cx}, {cy}, 1.0 ],\n\t\
                 \"version_major\" : 1,\n\t\"version_minor\" : 0,\n\t\"width\" : {}\n}}\n",
                i.height, i.width
            );
            Ok((format!("{}.json", key(s.stream)), text))
        })
        .collect()
}

/// A ROS CameraInfo YAML matrix.
fn ros_matrix(rows: usize, cols: usize, data: &[f64]) -> String {
    format!(
        "\n  rows: {rows}\n  cols: {cols}\n  data: {}\n",
        list(data.iter().map(|&v| real(v)))
    )
}

fn ros(calibration: &Calibration) -> Result<Vec<(String, String)>> {
    cameras(calibration)
        .map(|(s, i)| {
            let (model, coeffs) = match lens(i) {
                Some(Lens::KannalaBrandt) => ("equidistant", &i.coeffs[..4]),
                Some(_) => ("plumb_bob", &i.coeffs[..]),
                None => {
                    let all = cameras(calibration);
                    return Err(inexpressible("ROS CameraInfo", s, i, all, |i| {
                        lens(i).is_some()
                    }));
                }
            };
            let k = camera_matrix(i);
            let p = [
                k[0], k[1], k[2], 0.0, k[3], k[4], k[5], 0.0, 0.0, 0.0, 1.0, 0.0,
            ];
            let d: Vec<f64> = coeffs.iter().map(|&c| short_f64(c)).collect();
            let identity = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];
            let text = format!(
                "image_width: {}\nimage_height: {}\ncamera_name: {}\ncamera_matrix:{}\
                 distortion_model: {model}\ndistortion_coefficients:{}\
                 rectification_matrix:{}projection_matrix:{}",
                i.width,
                i.height,
                key(s.stream).to_lowercase(),
                ros_matrix(3, 3, &k),
                ros_matrix(1, d.len(), &d),
                ros_matrix(3, 3, &identity),
                ros_matrix(3, 4, &p),
            );
            Ok((format!("{}.yaml", key(s.stream)), text))
        })
        .collect()
}
