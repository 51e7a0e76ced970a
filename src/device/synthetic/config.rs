//! What a synthetic device has: its configuration, and the sensors,
//! profiles, options, intrinsics and extrinsics derived from it.

use crate::device::{
    camera_info, option_name, CameraInfo, Distortion, Extrinsics, Format, Intrinsics,
    MotionIntrinsics, OptionRange, SensorOption, StreamId, StreamKind, StreamProfile,
};
use crate::{Error, Result};

use super::{ACCEL, COLOR, DEPTH, GYRO, INFRARED_1, INFRARED_2, POSE};

/// How to build a [`SyntheticDevice`](super::SyntheticDevice).
///
/// The default is a D435i-like camera: a stereo module (depth and two
/// infrared streams at 640x480 30 fps), an RGB camera (640x480 30 fps) and
/// a motion module (accelerometer at 200 Hz, gyroscope at 400 Hz). Change
/// the fields you need:
///
/// ```
/// use rsbag::device::synthetic::{SyntheticConfig, SyntheticDevice};
/// let mut config = SyntheticConfig::default();
/// config.depth = (848, 480, 30);
/// config.color = (1280, 720, 30);
/// config.pose = true;
/// let device = SyntheticDevice::new(config).unwrap();
/// # let _ = device;
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct SyntheticConfig {
    /// The device's `Name`.
    pub name: String,
    /// The device's `Serial Number`.
    pub serial_number: String,
    /// The device's `Firmware Version`.
    pub firmware_version: String,
    /// Default mode of the depth and infrared streams: width, height, fps.
    /// It is added to the standard modes if it is not one of them.
    pub depth: (u32, u32, u32),
    /// Default mode of the color stream: width (even), height, fps.
    pub color: (u32, u32, u32),
    /// Whether the device has a `Motion Module` (accelerometer, gyroscope).
    pub imu: bool,
    /// Whether the device has a `Tracking Module` with a 6-DoF pose stream.
    pub pose: bool,
    /// Device clock (ms) of the first frame of every stream after `start`.
    pub timestamp_base_ms: f64,
    /// Whether a stream skips frames whose delivery is more than one frame
    /// period late (a slow callback or an overloaded host), as a camera
    /// drops frames; the skipped numbers are missing from the sequence.
    /// When `false` (the default), every frame is delivered, late frames
    /// back to back, so frame numbers never have gaps.
    pub drop_late_frames: bool,
}

impl Default for SyntheticConfig {
    fn default() -> Self {
        SyntheticConfig {
            name: "Synthetic D435I".to_owned(),
            serial_number: "012345678901".to_owned(),
            firmware_version: "5.16.0.1".to_owned(),
            depth: (640, 480, 30),
            color: (640, 480, 30),
            imu: true,
            pose: false,
            timestamp_base_ms: 1000.0,
            drop_late_frames: false,
        }
    }
}

/// Largest width or height accepted.
const MAX_SIDE: u32 = 8192;
/// Largest frame rate accepted.
const MAX_FPS: u32 = 1000;

impl SyntheticConfig {
    /// Check that every mode can be produced.
    pub(super) fn validate(&self) -> Result<()> {
        check_mode("depth", self.depth)?;
        check_mode("color", self.color)?;
        if !self.color.0.is_multiple_of(2) {
            return Err(Error::InvalidArgument(format!(
                "color width must be even (YUYV packs two pixels), not {}",
                self.color.0
            )));
        }
        if !self.timestamp_base_ms.is_finite() {
            return Err(Error::InvalidArgument(
                "timestamp_base_ms must be finite".to_owned(),
            ));
        }
        Ok(())
    }

    /// The device's camera info.
    pub(super) fn device_info(&self) -> CameraInfo {
        CameraInfo::new([
            (camera_info::NAME, self.name.clone()),
            (camera_info::SERIAL_NUMBER, self.serial_number.clone()),
            (camera_info::FIRMWARE_VERSION, self.firmware_version.clone()),
            (
                camera_info::RECOMMENDED_FIRMWARE_VERSION,
                "5.16.0.1".to_owned(),
            ),
            (
                camera_info::PHYSICAL_PORT,
                format!("synthetic://{}", self.serial_number),
            ),
            (camera_info::ADVANCED_MODE, "YES".to_owned()),
            (camera_info::PRODUCT_ID, "0B3A".to_owned()),
            (camera_info::CAMERA_LOCKED, "YES".to_owned()),
            (camera_info::USB_TYPE_DESCRIPTOR, "3.2".to_owned()),
            (camera_info::PRODUCT_LINE, "D400".to_owned()),
        ])
    }

    /// The sensors, in device order.
    pub(super) fn sensors(&self) -> Vec<SensorSpec> {
        let mut ids = 0;
        let mut next_id = move || {
            ids += 1;
            ids
        };
        let mut sensors = Vec::new();

        let mut stereo = Vec::new();
        let depth_modes = video_modes(&STEREO_RESOLUTIONS, self.depth);
        for (stream, format) in [
            (DEPTH, Format::Z16),
            (INFRARED_1, Format::Y8),
            (INFRARED_2, Format::Y8),
        ] {
            for &mode in &depth_modes {
                stereo.push(video_profile(stream, format, mode, mode == self.depth));
            }
        }
        sensors.push(SensorSpec {
            name: "Stereo Module",
            profiles: stereo,
            options: stereo_options(),
        });

        let mut rgb = Vec::new();
        let color_modes = video_modes(&COLOR_RESOLUTIONS, self.color);
        for format in [Format::Rgb8, Format::Bgr8, Format::Yuyv, Format::Rgba8] {
            for &mode in &color_modes {
                let is_default = format == Format::Rgb8 && mode == self.color;
                rgb.push(video_profile(COLOR, format, mode, is_default));
            }
        }
        sensors.push(SensorSpec {
            name: "RGB Camera",
            profiles: rgb,
            options: rgb_options(),
        });

        if self.imu {
            let mut motion = Vec::new();
            for (stream, rates, intrinsics) in [
                (ACCEL, [200, 100], ACCEL_INTRINSICS),
                (GYRO, [400, 200], GYRO_INTRINSICS),
            ] {
                for (i, fps) in rates.into_iter().enumerate() {
                    let profile = StreamProfile::motion(stream, Format::MotionXyz32f, fps)
                        .with_motion_intrinsics(intrinsics);
                    motion.push(if i == 0 {
                        profile.as_default()
                    } else {
                        profile
                    });
                }
            }
            sensors.push(SensorSpec {
                name: "Motion Module",
                profiles: motion,
                options: vec![
                    option(
                        "Enable Motion Correction",
                        1.0,
                        (0.0, 1.0, 1.0),
                        "Apply the IMU calibration to the samples",
                    ),
                    read_only(
                        "Motion Module Temperature",
                        31.5,
                        "Temperature of the IMU, in degrees Celsius",
                    ),
                ],
            });
        }

        if self.pose {
            sensors.push(SensorSpec {
                name: "Tracking Module",
                profiles: vec![StreamProfile::pose(POSE, 200).as_default()],
                options: vec![option(
                    "Enable Mapping",
                    1.0,
                    (0.0, 1.0, 1.0),
                    "Build a map of the surroundings to correct drift",
                )],
            });
        }

        for sensor in &mut sensors {
            for profile in &mut sensor.profiles {
                profile.unique_id = next_id();
            }
        }
        sensors
    }

    /// Each stream's extrinsics from the depth stream (depth to stream).
    pub(super) fn stream_poses(&self) -> Vec<(StreamId, Extrinsics)> {
        let mut poses = vec![
            (DEPTH, Extrinsics::IDENTITY),
            (INFRARED_1, Extrinsics::IDENTITY),
            (INFRARED_2, Extrinsics::translation(-0.05, 0.0, 0.0)),
            (
                COLOR,
                Extrinsics {
                    rotation: rotation_xyz(0.0035, -0.0021, 0.0012),
                    translation: [0.0148, 0.0002, 0.0003],
                },
            ),
        ];
        if self.imu {
            let imu = Extrinsics::translation(-0.0203, 0.0051, 0.0112);
            poses.push((ACCEL, imu));
            poses.push((GYRO, imu));
        }
        if self.pose {
            poses.push((
                POSE,
                Extrinsics {
                    rotation: rotation_xyz(0.0, 0.0, 0.01),
                    translation: [0.0, 0.035, -0.012],
                },
            ));
        }
        poses
    }
}

/// One sensor to build.
pub(super) struct SensorSpec {
    /// Sensor name.
    pub name: &'static str,
    /// Every profile, with unique ids.
    pub profiles: Vec<StreamProfile>,
    /// Options at their defaults.
    pub options: Vec<SensorOption>,
}

fn check_mode(what: &str, (width, height, fps): (u32, u32, u32)) -> Result<()> {
    if width == 0 || height == 0 || width > MAX_SIDE || height > MAX_SIDE {
        return Err(Error::InvalidArgument(format!(
            "{what} resolution {width}x{height} is not within 1..={MAX_SIDE}"
        )));
    }
    if fps == 0 || fps > MAX_FPS {
        return Err(Error::InvalidArgument(format!(
            "{what} frame rate {fps} is not within 1..={MAX_FPS}"
        )));
    }
    Ok(())
}

/// Standard stereo resolutions, largest first.
const STEREO_RESOLUTIONS: [(u32, u32); 4] = [(1280, 720), (848, 480), (640, 480), (424, 240)];
/// Standard color resolutions, largest first.
const COLOR_RESOLUTIONS: [(u32, u32); 4] = [(1920, 1080), (1280, 720), (640, 480), (424, 240)];
/// Standard frame rates, fastest first.
const VIDEO_RATES: [u32; 3] = [60, 30, 15];
/// Largest image (in pixels) offered at more than 30 fps.
const HIGH_RATE_MAX_PIXELS: u32 = 848 * 480;

/// The standard modes for `resolutions`, with `default` first if it is not
/// one of them.
fn video_modes(resolutions: &[(u32, u32)], default: (u32, u32, u32)) -> Vec<(u32, u32, u32)> {
    let mut modes: Vec<_> = resolutions
        .iter()
        .flat_map(|&(w, h)| {
            VIDEO_RATES
                .iter()
                .filter(move |&&fps| fps <= 30 || w * h <= HIGH_RATE_MAX_PIXELS)
                .map(move |&fps| (w, h, fps))
        })
        .collect();
    if !modes.contains(&default) {
        modes.insert(0, default);
    }
    modes
}

fn video_profile(
    stream: StreamId,
    format: Format,
    (width, height, fps): (u32, u32, u32),
    is_default: bool,
) -> StreamProfile {
    let profile = StreamProfile::video(stream, format, width, height, fps)
        .with_intrinsics(video_intrinsics(stream.kind, width, height));
    if is_default {
        profile.as_default()
    } else {
        profile
    }
}

/// Intrinsics of a `width`x`height` mode: the lens of the stream's sensor
/// (calibrated at its native resolution) scaled to cover the mode.
pub(super) fn video_intrinsics(kind: StreamKind, width: u32, height: u32) -> Intrinsics {
    // Native width and height, focal lengths, principal point offsets from
    // the center, distortion.
    let (native, focal, offset, model, coeffs) = match kind {
        StreamKind::Color => (
            (1920.0, 1080.0),
            (1381.6, 1380.9),
            (12.4, -6.1),
            Distortion::InverseBrownConrady,
            [-0.0557, 0.0652, -0.0008, 0.0006, -0.0208],
        ),
        _ => (
            (1280.0, 720.0),
            (643.2, 642.6),
            (1.8, -2.4),
            Distortion::BrownConrady,
            [0.0; 5],
        ),
    };
    let (w, h) = (width as f32, height as f32);
    let scale = (w / native.0).max(h / native.1);
    Intrinsics {
        width,
        height,
        ppx: w / 2.0 + offset.0 * scale,
        ppy: h / 2.0 + offset.1 * scale,
        fx: focal.0 * scale,
        fy: focal.1 * scale,
        model,
        coeffs,
    }
}

const ACCEL_INTRINSICS: MotionIntrinsics = MotionIntrinsics {
    data: [
        [1.0021, 0.0013, -0.0008, 0.0123],
        [-0.0011, 0.9987, 0.0021, -0.0342],
        [0.0005, -0.0017, 1.0009, 0.0215],
    ],
    noise_variances: [1.6e-4, 1.7e-4, 1.9e-4],
    bias_variances: [1.2e-5, 1.1e-5, 1.4e-5],
};

const GYRO_INTRINSICS: MotionIntrinsics = MotionIntrinsics {
    data: [
        [0.9994, -0.0004, 0.0007, -0.0021],
        [0.0006, 1.0008, -0.0003, 0.0014],
        [-0.0002, 0.0005, 0.9991, 0.0009],
    ],
    noise_variances: [5.1e-6, 4.8e-6, 5.5e-6],
    bias_variances: [1.0e-6, 1.1e-6, 0.9e-6],
};

/// Column-major rotation about x, then y, then z (radians).
fn rotation_xyz(x: f32, y: f32, z: f32) -> [f32; 9] {
    let (sx, cx) = x.sin_cos();
    let (sy, cy) = y.sin_cos();
    let (sz, cz) = z.sin_cos();
    let rx = Extrinsics {
        rotation: [1.0, 0.0, 0.0, 0.0, cx, sx, 0.0, -sx, cx],
        translation: [0.0; 3],
    };
    let ry = Extrinsics {
        rotation: [cy, 0.0, -sy, 0.0, 1.0, 0.0, sy, 0.0, cy],
        translation: [0.0; 3],
    };
    let rz = Extrinsics {
        rotation: [cz, sz, 0.0, -sz, cz, 0.0, 0.0, 0.0, 1.0],
        translation: [0.0; 3],
    };
    rx.then(&ry).then(&rz).rotation
}

fn option(
    name: &str,
    default: f32,
    (min, max, step): (f32, f32, f32),
    description: &str,
) -> SensorOption {
    SensorOption {
        name: name.to_owned(),
        value: default,
        range: OptionRange {
            min,
            max,
            step,
            default,
        },
        description: description.to_owned(),
        read_only: false,
    }
}

/// A read-only temperature-like option.
fn read_only(name: &str, value: f32, description: &str) -> SensorOption {
    SensorOption {
        read_only: true,
        ..option(name, value, (-40.0, 125.0, 0.0), description)
    }
}

fn stereo_options() -> Vec<SensorOption> {
    vec![
        option(
            option_name::EXPOSURE,
            8500.0,
            (1.0, 165_000.0, 1.0),
            "Depth exposure time, in microseconds",
        ),
        option(option_name::GAIN, 16.0, (16.0, 248.0, 1.0), "Image gain"),
        option(
            option_name::ENABLE_AUTO_EXPOSURE,
            1.0,
            (0.0, 1.0, 1.0),
            "Let the sensor choose the exposure",
        ),
        option(
            option_name::LASER_POWER,
            150.0,
            (0.0, 360.0, 30.0),
            "Power of the projector laser, in milliwatts",
        ),
        option(
            option_name::EMITTER_ENABLED,
            1.0,
            (0.0, 1.0, 1.0),
            "Whether the projector casts its dot pattern (0 off, 1 on)",
        ),
        option(
            option_name::DEPTH_UNITS,
            0.001,
            (0.0001, 0.01, 0.000_001),
            "Meters per depth unit: a Z16 value times this is a distance in meters",
        ),
        read_only(
            "Asic Temperature",
            36.0,
            "Temperature of the depth ASIC, in degrees Celsius",
        ),
        // A D435's (librealsense reports about 50 mm): what depth to
        // disparity and back need.
        SensorOption {
            read_only: true,
            ..option(
                option_name::STEREO_BASELINE,
                50.0,
                (50.0, 50.0, 0.0),
                "Distance in mm between the stereo imagers",
            )
        },
    ]
}

fn rgb_options() -> Vec<SensorOption> {
    vec![
        option(
            option_name::EXPOSURE,
            156.0,
            (1.0, 10_000.0, 1.0),
            "Color exposure time, in units of 100 microseconds",
        ),
        option(option_name::GAIN, 64.0, (0.0, 128.0, 1.0), "Image gain"),
        option(
            option_name::ENABLE_AUTO_EXPOSURE,
            1.0,
            (0.0, 1.0, 1.0),
            "Let the sensor choose the exposure",
        ),
    ]
}
