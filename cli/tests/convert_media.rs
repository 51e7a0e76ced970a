//! `convert --to csv|npy|mp4|kalibr` checked against independent
//! references: depth values against the real librealsense 2.55's
//! `get_distance` (tests/interop/rs_values.py), `.npy` files read by numpy
//! (npy_read.py), videos probed and decoded by ffprobe and ffmpeg and
//! compared with the PNGs of the same frames, the IMU file against numpy's
//! interpolation of the samples librealsense plays, and combined motion
//! against what the rosbags library wrote.

use crate::common;
use crate::run;
use crate::run::OutputInTime;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use run::ok;
use serde_json::Value;

fn s(path: &Path) -> &str {
    path.to_str().expect("utf-8 path")
}

fn json_lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// The `media` scenario of rs_record.py, recorded once by librealsense
/// for every test: depth (Depth Units 0.00025) and color with dropped
/// frames, accel and gyro at different rates and offsets.
fn media_bag() -> &'static Path {
    static BAG: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    let (_, path) = BAG.get_or_init(|| {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("media.bag");
        common::python("rs_record.py", &[s(&path), "--scenario", "media"]);
        (dir, path)
    });
    path
}

/// A fresh directory to convert into (its path, not yet created).
fn out_dir(dir: &tempfile::TempDir, name: &str) -> PathBuf {
    dir.path().join(name)
}

/// The lines of `frames.csv` by file name, as column name → value.
fn index(dir: &Path) -> BTreeMap<String, BTreeMap<String, String>> {
    let text = std::fs::read_to_string(dir.join("frames.csv")).expect("frames.csv");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("header").split(',').collect();
    lines
        .map(|line| {
            let row: BTreeMap<String, String> = header
                .iter()
                .zip(line.split(','))
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            (row["file"].clone(), row)
        })
        .collect()
}

/// librealsense's depth frames of `bag`: frame number, depth units,
/// width, height, meters (get_distance), raw values.
struct Depth {
    number: u64,
    units: f32,
    width: usize,
    height: usize,
    meters: Vec<f32>,
    raw: Vec<u16>,
}

fn librealsense_depth(bag: &Path) -> Vec<Depth> {
    let floats = |v: &Value| -> Vec<f64> {
        v.as_array()
            .expect("array")
            .iter()
            .map(|x| x.as_f64().expect("number"))
            .collect()
    };
    json_lines(&common::python("rs_values.py", &[s(bag), "--depth"]))
        .iter()
        .map(|f| Depth {
            number: f["frame_number"].as_u64().expect("number"),
            units: f["units"].as_f64().expect("units") as f32,
            width: f["width"].as_u64().expect("width") as usize,
            height: f["height"].as_u64().expect("height") as usize,
            meters: floats(&f["meters"]).iter().map(|&m| m as f32).collect(),
            raw: floats(&f["raw"]).iter().map(|&r| r as u16).collect(),
        })
        .collect()
}

#[test]
fn depth_csv_is_librealsense_get_distance_of_every_pixel() {
    let dir = tempfile::tempdir().expect("tempdir");
    let depth_color = common::sample("librealsense-depth-color-lz4.bag");
    for bag in [media_bag(), depth_color.as_path()] {
        let reference = librealsense_depth(bag);
        assert!(reference.len() >= 10, "{} depth frames", reference.len());
        let out = out_dir(&dir, &format!("csv-{}", reference[0].units));
        let report = ok(&["convert", s(bag), "--to", "csv", "--out", s(&out)]);
        assert!(
            report.contains(&format!("Depth 0: {}", reference.len())),
            "{report}"
        );
        let index = index(&out);
        for frame in &reference {
            let name = format!("Depth_{:06}.csv", frame.number);
            let text = std::fs::read_to_string(out.join(&name)).expect("depth csv");
            let rows: Vec<Vec<f32>> = text
                .lines()
                .map(|l| l.split(',').map(|v| v.parse().expect("float")).collect())
                .collect();
            assert_eq!(rows.len(), frame.height, "{name}");
            assert!(rows.iter().all(|r| r.len() == frame.width), "{name}");
            assert_eq!(rows.concat(), frame.meters, "{name}");
            let units: f32 = index[&name]["depth_units_m"].parse().expect("units");
            assert_eq!(units, frame.units, "{name}");
            assert_eq!(index[&name]["frame_number"], frame.number.to_string());
        }
        assert_eq!(index.len(), reference.len());
    }
}

/// `.npy` files read by numpy: dtype, shape, values.
fn numpy_read(files: &[PathBuf]) -> BTreeMap<String, (String, Vec<u64>, Vec<f64>)> {
    let args: Vec<&str> = files.iter().map(|f| s(f)).collect();
    json_lines(&common::python("npy_read.py", &args))
        .iter()
        .map(|a| {
            let file = Path::new(a["file"].as_str().expect("file"));
            let name = file
                .file_name()
                .expect("name")
                .to_string_lossy()
                .into_owned();
            let shape = a["shape"].as_array().expect("shape");
            let values = a["values"].as_array().expect("values");
            (
                name,
                (
                    a["dtype"].as_str().expect("dtype").to_owned(),
                    shape.iter().map(|d| d.as_u64().expect("dim")).collect(),
                    values.iter().map(|v| v.as_f64().expect("value")).collect(),
                ),
            )
        })
        .collect()
}

#[test]
fn npy_arrays_read_by_numpy_are_librealsense_meters_or_raw_values() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bag = media_bag();
    let reference = librealsense_depth(bag);
    for raw in [false, true] {
        let out = out_dir(&dir, if raw { "raw" } else { "meters" });
        let mut args = vec!["convert", s(bag), "--to", "npy", "--out", s(&out)];
        if raw {
            args.push("--npy-raw");
        }
        let report = ok(&args);
        assert!(report.contains("skipped Color 0: not depth"), "{report}");
        let files: Vec<PathBuf> = reference
            .iter()
            .map(|f| out.join(format!("Depth_{:06}.npy", f.number)))
            .collect();
        let arrays = numpy_read(&files);
        let index = index(&out);
        assert_eq!(arrays.len(), reference.len());
        for frame in &reference {
            let name = format!("Depth_{:06}.npy", frame.number);
            let (dtype, shape, values) = &arrays[&name];
            assert_eq!(shape, &[frame.height as u64, frame.width as u64], "{name}");
            let units: f32 = index[&name]["depth_units_m"].parse().expect("units");
            assert_eq!(units, frame.units, "{name}");
            if raw {
                assert_eq!(dtype, "uint16");
                let ours: Vec<u16> = values.iter().map(|&v| v as u16).collect();
                assert_eq!(ours, frame.raw, "{name}");
            } else {
                assert_eq!(dtype, "float32");
                let ours: Vec<f32> = values.iter().map(|&v| v as f32).collect();
                assert_eq!(ours, frame.meters, "{name}");
            }
        }
    }
}

/// What ffprobe says of a video's stream.
fn ffprobe(video: &Path) -> Value {
    let out = Command::new("ffprobe")
        .args(["-v", "error", "-select_streams", "v:0", "-count_frames"])
        .args([
            "-show_entries",
            "stream=codec_name,pix_fmt,width,height,r_frame_rate,nb_read_frames,duration",
        ])
        .args(["-of", "json", s(video)])
        .output_in_time()
        .expect("run ffprobe (scripts/install-test-deps.sh installs it)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let probe: Value = serde_json::from_slice(&out.stdout).expect("ffprobe json");
    probe["streams"][0].clone()
}

/// Every frame of a video decoded by ffmpeg to 8-bit RGB.
fn decode(video: &Path, width: usize, height: usize) -> Vec<Vec<u8>> {
    let out = Command::new("ffmpeg")
        .args([
            "-v",
            "error",
            "-i",
            s(video),
            "-f",
            "rawvideo",
            "-pix_fmt",
            "rgb24",
            "-",
        ])
        .output_in_time()
        .expect("run ffmpeg");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
        .chunks(width * height * 3)
        .map(<[u8]>::to_vec)
        .collect()
}

fn decode_png(path: &Path) -> Vec<u8> {
    let file = std::io::BufReader::new(std::fs::File::open(path).expect("png"));
    let mut reader = png::Decoder::new(file).read_info().expect("png header");
    let mut pixels = vec![0; reader.output_buffer_size().expect("size")];
    let info = reader.next_frame(&mut pixels).expect("png data");
    assert_eq!(info.color_type, png::ColorType::Rgb);
    pixels.truncate(info.buffer_size());
    pixels
}

fn mean_abs_difference(a: &[u8], b: &[u8]) -> f64 {
    assert_eq!(a.len(), b.len());
    let sum: u64 = a
        .iter()
        .zip(b)
        .map(|(x, y)| u64::from(x.abs_diff(*y)))
        .sum();
    sum as f64 / a.len() as f64
}

/// A stream's frames as librealsense plays them: (frame number, timestamp).
fn played(bag: &Path, stream: &str) -> Vec<(u64, f64)> {
    json_lines(&common::python("rs_play.py", &[s(bag)]))
        .iter()
        .filter(|f| f["stream"] == stream)
        .map(|f| {
            (
                f["frame_number"].as_u64().expect("number"),
                f["timestamp"].as_f64().expect("timestamp"),
            )
        })
        .collect()
}

/// The mean error per channel (8-bit levels) H.264 at CRF 18 in yuv420p
/// leaves in these smooth 64x48 pictures: 1.9 to 3.2 measured, the most
/// in the colour stream, whose blue gradient loses to the halved chroma
/// resolution. Neighbouring frames differ by 5 or more, and each video
/// frame is also checked to be nearest its own frame.
const CODEC_TOLERANCE: f64 = 4.0;

#[test]
fn mp4_has_every_frame_at_its_recorded_time_with_drops_repeated() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bag = media_bag();
    let range = ["--colorize-range", "0.2,2"];
    let videos = out_dir(&dir, "mp4");
    let report = ok(&[
        &["convert", s(bag), "--to", "mp4", "--out", s(&videos)][..],
        &range,
    ]
    .concat());
    let pngs = out_dir(&dir, "png");
    ok(&[
        &[
            "convert",
            s(bag),
            "--to",
            "png",
            "--colorize",
            "--out",
            s(&pngs),
        ][..],
        &range,
    ]
    .concat());
    for (stream, png_suffix, dropped) in [("Depth", "_colorized", 2), ("Color", "", 1)] {
        let frames = played(bag, stream);
        // The recorded frames each video frame shows: a gap over 1.5
        // periods (33.3 ms at 30 fps) repeats the frame before it.
        let period = 1000.0 / 30.0;
        let mut shown = vec![frames[0].0];
        for pair in frames.windows(2) {
            let gap = pair[1].1 - pair[0].1;
            if gap > 1.5 * period {
                let copies = (gap / period).round() as usize - 1;
                shown.extend(std::iter::repeat_n(pair[0].0, copies));
            }
            shown.push(pair[1].0);
        }
        assert_eq!(shown.len(), frames.len() + dropped, "{stream}");
        assert!(
            report.contains(&format!(
                "{stream}.mp4: {} video frames (64x48), {dropped} of them copies",
                shown.len()
            )),
            "{report}"
        );

        let video = videos.join(format!("{stream}.mp4"));
        let probe = ffprobe(&video);
        assert_eq!(probe["codec_name"], "h264", "{probe}");
        assert_eq!(probe["pix_fmt"], "yuv420p", "{probe}");
        assert_eq!(
            (probe["width"].as_u64(), probe["height"].as_u64()),
            (Some(64), Some(48))
        );
        assert_eq!(probe["r_frame_rate"], "30/1");
        let count: usize = probe["nb_read_frames"]
            .as_str()
            .expect("count")
            .parse()
            .expect("int");
        assert_eq!(count, shown.len(), "{stream}: {probe}");
        let duration: f64 = probe["duration"]
            .as_str()
            .expect("duration")
            .parse()
            .expect("float");
        let span = (frames[frames.len() - 1].1 - frames[0].1) / 1000.0;
        // The last frame lasts a period too.
        assert!(
            (duration - (span + period / 1000.0)).abs() < 0.5 * period / 1000.0,
            "{stream}: {duration} s for {span} s"
        );

        let pictures = decode(&video, 64, 48);
        assert_eq!(pictures.len(), shown.len());
        let references: BTreeMap<u64, Vec<u8>> = frames
            .iter()
            .map(|&(n, _)| {
                (
                    n,
                    decode_png(&pngs.join(format!("{stream}_{n:06}{png_suffix}.png"))),
                )
            })
            .collect();
        for (k, (picture, want)) in pictures.iter().zip(&shown).enumerate() {
            let error = mean_abs_difference(picture, &references[want]);
            assert!(
                error <= CODEC_TOLERANCE,
                "{stream} video frame {k} is frame {want} off by {error}"
            );
            for (other, reference) in &references {
                if other != want {
                    let distance = mean_abs_difference(picture, reference);
                    assert!(
                        distance > error,
                        "{stream} video frame {k} is nearer frame {other} than {want}"
                    );
                }
            }
        }
    }
}

#[test]
fn mp4_without_ffmpeg_names_what_is_missing() {
    let dir = tempfile::tempdir().expect("tempdir");
    let empty_path = dir.path().join("bin");
    std::fs::create_dir(&empty_path).expect("mkdir");
    let out = out_dir(&dir, "videos");
    let bag = common::sample("librealsense-depth-color-lz4.bag");
    let run = Command::new(env!("CARGO_BIN_EXE_rsbag"))
        .args(["convert", s(&bag), "--to", "mp4", "--out", s(&out)])
        .env("PATH", &empty_path)
        .output_in_time()
        .expect("run rsbag");
    assert_eq!(run.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        stderr.trim().lines().count() == 1
            && stderr.contains("ffmpeg is not on PATH")
            && stderr.contains("apt-get install ffmpeg"),
        "{stderr}"
    );
    assert!(!out.exists());
}

/// The rows of an `imu.csv`: nanoseconds, gyro, accel.
type ImuRows = Vec<(u64, [f64; 3], [f64; 3])>;

/// `imu.csv`, checked to start with the header Kalibr and EuRoC use.
fn imu_csv(dir: &Path) -> ImuRows {
    let text = std::fs::read_to_string(dir.join("imu.csv")).expect("imu.csv");
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("#timestamp [ns],w_RS_S_x [rad s^-1],w_RS_S_y [rad s^-1],w_RS_S_z [rad s^-1],a_RS_S_x [m s^-2],a_RS_S_y [m s^-2],a_RS_S_z [m s^-2]")
    );
    let rows: ImuRows = lines
        .map(|line| {
            let fields: Vec<&str> = line.split(',').collect();
            assert_eq!(fields.len(), 7, "{line}");
            // kalibr_bagcreater reads the seconds before the last 9 digits.
            assert!(fields[0].len() >= 10, "{line}");
            let value = |i: usize| fields[i].parse::<f64>().expect("float");
            (
                fields[0].parse().expect("integer nanoseconds"),
                [value(1), value(2), value(3)],
                [value(4), value(5), value(6)],
            )
        })
        .collect();
    assert!(
        rows.windows(2).all(|w| w[0].0 < w[1].0),
        "timestamps strictly increase"
    );
    rows
}

#[test]
fn kalibr_rows_are_gyro_samples_with_accel_interpolated_by_numpy() {
    let dir = tempfile::tempdir().expect("tempdir");
    let motion = common::sample("librealsense-motion-lz4.bag");
    for (bag, dropped) in [
        (
            media_bag(),
            "dropped 1 gyro samples before the first accel sample, 3 after the last",
        ),
        (
            motion.as_path(),
            "dropped 0 gyro samples before the first accel sample, 1 after the last",
        ),
    ] {
        let out = out_dir(
            &dir,
            &format!(
                "kalibr-{}",
                bag.file_stem().expect("name").to_string_lossy()
            ),
        );
        let report = ok(&["convert", s(bag), "--to", "kalibr", "--out", s(&out)]);
        assert!(report.contains(dropped), "{report}");
        let rows = imu_csv(&out);
        let expected = json_lines(&common::python("rs_values.py", &[s(bag), "--kalibr"]));
        assert!(expected.len() >= 16);
        assert_eq!(rows.len(), expected.len());
        for ((ns, gyro, accel), want) in rows.iter().zip(&expected) {
            assert_eq!(Some(*ns), want["ns"].as_u64());
            for axis in 0..3 {
                let gyro_want = want["gyro"][axis].as_f64().expect("gyro");
                assert_eq!(gyro[axis] as f32, gyro_want as f32, "{ns}");
                let accel_want = want["accel"][axis].as_f64().expect("accel");
                assert!(
                    (accel[axis] - accel_want).abs() < 1e-5,
                    "{ns}: {accel:?} {want}"
                );
            }
        }
    }
}

#[test]
fn kalibr_takes_combined_motion_as_written() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bag = dir.path().join("native.db3");
    let written: Value = serde_json::from_str(&common::python(
        "ros_camera_bag.py",
        &[s(&bag), "--format", "db3", "--scenario", "native"],
    ))
    .expect("manifest");
    let samples = written["imu"]["/camera/camera/imu"]
        .as_array()
        .expect("imu samples");
    let out = out_dir(&dir, "kalibr");
    ok(&["convert", s(&bag), "--to", "kalibr", "--out", s(&out)]);
    let rows = imu_csv(&out);
    assert_eq!(rows.len(), samples.len());
    let first_ns = samples[0]["time_ns"].as_u64().expect("time");
    for ((ns, gyro, accel), sample) in rows.iter().zip(samples) {
        // Frames of a ROS bag are timed from its first message.
        let since_first = sample["time_ns"].as_u64().expect("time") - first_ns;
        assert_eq!(ns - rows[0].0, since_first);
        // serde_json's default float parsing may be a unit in the last
        // place off; the CSV's own values are read exactly.
        let near =
            |a: f64, b: &Value| (a - b.as_f64().expect("number")).abs() <= 1e-12 * a.abs().max(1.0);
        for axis in 0..3 {
            assert!(
                near(gyro[axis], &sample["angular_velocity"][axis]),
                "{ns}: {gyro:?} {sample}"
            );
            assert!(
                near(accel[axis], &sample["linear_acceleration"][axis]),
                "{ns}: {accel:?} {sample}"
            );
        }
    }
}

#[test]
fn bad_media_arguments_are_refused_naming_what_is_wrong() {
    let dir = tempfile::tempdir().expect("tempdir");
    let depth_color = common::sample("librealsense-depth-color-lz4.bag");
    let motion = common::sample("librealsense-motion-lz4.bag");
    let out = out_dir(&dir, "out");
    let cases: [(&[&str], &str); 5] = [
        (
            &["convert", s(&depth_color), "--to", "csv", "--npy-raw"],
            "--npy-raw goes with --to npy",
        ),
        (
            &["convert", s(&depth_color), "--to", "png", "--ascii"],
            "--ascii goes with --to ply",
        ),
        (
            &["convert", s(&depth_color), "--to", "kalibr"],
            "no stream can be written as kalibr",
        ),
        (
            &["convert", s(&motion), "--to", "kalibr", "--streams", "Gyro"],
            "one Gyro and one Accel",
        ),
        (
            &["convert", s(&motion), "--to", "npy", "--streams", "Accel"],
            "cannot be written as npy: not depth",
        ),
    ];
    for (args, message) in cases {
        let run = run::rsbag(&[args, &["--out", s(&out)]].concat());
        assert_eq!(run.code, Some(1), "{args:?}");
        assert!(run.stderr.contains(message), "{args:?}: {}", run.stderr);
        assert!(!out.exists(), "{args:?}");
    }
}
