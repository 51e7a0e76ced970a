//! The content of synthetic frames: deterministic, moving test patterns.
//!
//! Every frame is a function of its profile, its number and a few option
//! values ([`RenderParams`]), so a frame can be produced again and compared
//! byte for byte. Images use integer arithmetic per pixel (floating point
//! only per frame or per row) so that large modes render quickly.

use std::f64::consts::TAU;
use std::time::{SystemTime, UNIX_EPOCH};

use bytes::BytesMut;

use crate::device::{
    metadata_key, motion_bytes, option_name, Format, Frame, MotionSample, Pose, ProfileKind,
    SensorOption, StreamKind, StreamProfile, TimestampDomain,
};
use crate::{Error, Result};

/// The option values that shape a frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct RenderParams {
    /// Meters per Z16 unit (`Depth Units`).
    pub depth_units: f32,
    /// Whether infrared images show the projector's dots (`Emitter Enabled`).
    pub emitter: bool,
    /// `Laser Power`.
    pub laser_power: f32,
    /// `Exposure`.
    pub exposure: f32,
    /// `Gain`.
    pub gain: f32,
}

impl RenderParams {
    /// The values of a sensor's options; missing options keep defaults.
    pub fn from_options(options: &[SensorOption]) -> RenderParams {
        let value = |name: &str, default: f32| {
            options
                .iter()
                .find(|o| o.name == name)
                .map_or(default, |o| o.value)
        };
        RenderParams {
            depth_units: value(option_name::DEPTH_UNITS, 0.001),
            emitter: value(option_name::EMITTER_ENABLED, 1.0) != 0.0,
            laser_power: value(option_name::LASER_POWER, 150.0),
            exposure: value(option_name::EXPOSURE, 0.0),
            gain: value(option_name::GAIN, 0.0),
        }
    }
}

/// Largest frame accepted, in bytes.
const MAX_FRAME_BYTES: usize = 1 << 30;

/// The size in bytes and the row stride of a frame of `profile`, or why
/// the synthetic device cannot produce it.
pub(super) fn layout(profile: &StreamProfile) -> Result<(usize, u32)> {
    let unsupported = || {
        Error::InvalidArgument(format!(
            "the synthetic device cannot produce {} {} frames",
            profile.stream, profile.format
        ))
    };
    if profile.fps == 0 {
        return Err(Error::InvalidArgument(format!(
            "profile of {} has a frame rate of 0",
            profile.stream
        )));
    }
    let kind = profile.stream.kind;
    match profile.kind {
        ProfileKind::Video { width, height, .. } => {
            let supported = match kind {
                StreamKind::Depth => profile.format == Format::Z16,
                StreamKind::Infrared => profile.format == Format::Y8,
                StreamKind::Color => matches!(
                    profile.format,
                    Format::Rgb8 | Format::Bgr8 | Format::Rgba8 | Format::Bgra8 | Format::Yuyv
                ),
                _ => false,
            };
            let bpp = profile.format.bytes_per_pixel().filter(|_| supported);
            let bpp = bpp.ok_or_else(unsupported)?;
            if width == 0 || height == 0 || (profile.format == Format::Yuyv && width % 2 != 0) {
                return Err(Error::InvalidArgument(format!(
                    "cannot produce {width}x{height} {} images",
                    profile.format
                )));
            }
            let stride = width.checked_mul(bpp);
            let size = stride.and_then(|s| (s as usize).checked_mul(height as usize));
            match (stride, size) {
                (Some(stride), Some(size)) if size <= MAX_FRAME_BYTES => Ok((size, stride)),
                _ => Err(Error::InvalidArgument(format!(
                    "{width}x{height} {} images are too large",
                    profile.format
                ))),
            }
        }
        ProfileKind::Motion { .. }
            if matches!(kind, StreamKind::Accel | StreamKind::Gyro)
                && profile.format == Format::MotionXyz32f =>
        {
            Ok((12, 0))
        }
        ProfileKind::Pose if kind == StreamKind::Pose && profile.format == Format::SixDof => {
            Ok((Pose::SIZE, 0))
        }
        _ => Err(unsupported()),
    }
}

/// The device timestamp (ms) of frame `number` of a stream at `fps`: the
/// ideal schedule, `base + (number - 1) * 1000 / fps`.
pub(super) fn timestamp_ms(base_ms: f64, fps: u32, number: u64) -> f64 {
    base_ms + (number - 1) as f64 * 1000.0 / fps as f64
}

/// Host wall-clock time, ms since the Unix epoch.
pub(super) fn now_ms() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
}

/// Frame `number` (from 1) of `profile`, its payload written into `buffer`
/// (whose allocation is reused when no earlier frame still holds it).
pub(super) fn render_frame(
    profile: &StreamProfile,
    number: u64,
    params: &RenderParams,
    base_ms: f64,
    buffer: &mut BytesMut,
) -> Result<Frame> {
    if number == 0 {
        return Err(Error::InvalidArgument(
            "synthetic frame numbers start at 1".to_owned(),
        ));
    }
    let (size, stride) = layout(profile)?;
    buffer.clear();
    buffer.resize(size, 0);
    fill(profile, number, params, buffer);
    let data = buffer.split().freeze();

    let timestamp = timestamp_ms(base_ms, profile.fps, number);
    let system_time = now_ms();
    let mut metadata = vec![
        (metadata_key::FRAME_COUNTER.into(), number as i64),
        (
            metadata_key::FRAME_TIMESTAMP.into(),
            (timestamp * 1000.0).round() as i64,
        ),
    ];
    if let ProfileKind::Video { .. } = profile.kind {
        // Mid-exposure, as a camera stamps its sensor timestamp.
        let exposure_us = match profile.stream.kind {
            StreamKind::Color => params.exposure * 100.0,
            _ => params.exposure,
        };
        metadata.extend([
            (
                metadata_key::SENSOR_TIMESTAMP.into(),
                (timestamp * 1000.0 - exposure_us as f64 / 2.0).round() as i64,
            ),
            (
                metadata_key::ACTUAL_EXPOSURE.into(),
                params.exposure.round() as i64,
            ),
            (metadata_key::GAIN_LEVEL.into(), params.gain.round() as i64),
        ]);
        if profile.stream.kind != StreamKind::Color {
            metadata.extend([
                (
                    metadata_key::FRAME_LASER_POWER.into(),
                    params.laser_power.round() as i64,
                ),
                (
                    metadata_key::FRAME_LASER_POWER_MODE.into(),
                    params.emitter as i64,
                ),
            ]);
        }
    }
    metadata.push((
        metadata_key::TIME_OF_ARRIVAL.into(),
        system_time.round() as i64,
    ));

    Ok(Frame {
        profile: *profile,
        number,
        timestamp,
        domain: TimestampDomain::HardwareClock,
        system_time,
        metadata,
        stride,
        data,
    })
}

/// Write the payload of frame `number` of `profile` (validated by
/// [`layout`]) into `out`, which has the size `layout` gives.
fn fill(profile: &StreamProfile, number: u64, params: &RenderParams, out: &mut [u8]) {
    let seconds = (number - 1) as f64 / profile.fps as f64;
    match (profile.kind, profile.stream.kind) {
        (ProfileKind::Video { width, height, .. }, kind) => {
            let (w, h) = (width as usize, height as usize);
            match kind {
                StreamKind::Depth => depth(w, h, number, params.depth_units, out),
                StreamKind::Infrared => {
                    infrared(w, h, number, profile.stream.index, params.emitter, out)
                }
                _ => color(w, h, number, profile.format, out),
            }
        }
        (ProfileKind::Motion { .. }, StreamKind::Gyro) => {
            out.copy_from_slice(&motion_bytes(gyro(seconds)))
        }
        (ProfileKind::Motion { .. }, _) => out.copy_from_slice(&motion_bytes(accel(seconds))),
        (ProfileKind::Pose, _) => out.copy_from_slice(&pose(seconds).to_bytes()),
    }
}

/// A triangle wave of period 1 between 0 and 1.
fn triangle(phase: f64) -> f64 {
    let p = phase.rem_euclid(1.0);
    1.0 - (2.0 * p - 1.0).abs()
}

/// Depth (Z16): a tilted plane 1.2–3.6 m away that moves back and forth,
/// a square 0.6 m away moving in a circle, and the band of invalid (zero)
/// pixels a stereo camera has on its left edge. Values are distances in
/// `depth_units` (millimeters by default).
fn depth(w: usize, h: usize, number: u64, depth_units: f32, out: &mut [u8]) {
    // Depth units in meters, rid of the f32 error (0.001f32 is not 0.001),
    // so that millimeter units give whole millimeters.
    let units = if depth_units > 0.0 {
        (depth_units as f64 * 1e9).round() / 1e9
    } else {
        0.001
    };
    let per_mm = 0.001 / units;
    // 16.16 fixed point, in depth units; `+ HALF >> 16` rounds.
    const HALF: i64 = 1 << 15;
    let fixed = |mm: f64| (mm * per_mm * 65536.0).round() as i64;
    let near = 1200.0 + 400.0 * triangle(number as f64 / 240.0);
    let step = fixed(800.0 / w as f64);
    let row_step = 1200.0 / h as f64;
    let band = w / 16;

    let side = (h / 4).max(1);
    let angle = TAU * (number % 180) as f64 / 180.0;
    let center_x = w as f64 / 2.0 + w as f64 / 4.0 * angle.cos();
    let center_y = h as f64 / 2.0 + h as f64 / 4.0 * angle.sin();
    let corner =
        |center: f64, limit: usize| ((center - side as f64 / 2.0).max(0.0) as usize).min(limit);
    let (x0, y0) = (corner(center_x, w), corner(center_y, h));
    let (x1, y1) = ((x0 + side).min(w), (y0 + side).min(h));
    let square = ((fixed(600.0) + HALF) >> 16).clamp(0, 0xffff) as u16;

    for (y, row) in out.chunks_exact_mut(w * 2).enumerate() {
        let (sq0, sq1) = if (y0..y1).contains(&y) {
            (x0.max(band), x1.max(band))
        } else {
            (w, w)
        };
        let (left, rest) = row.split_at_mut(band * 2);
        left.fill(0);
        let start = fixed(near + row_step * y as f64);
        let mut value = start + step * band as i64;
        for (x, px) in (band..).zip(rest.chunks_exact_mut(2)) {
            let v = if x >= sq0 && x < sq1 {
                square
            } else {
                ((value + HALF) >> 16).clamp(0, 0xffff) as u16
            };
            px.copy_from_slice(&v.to_le_bytes());
            value += step;
        }
    }
}

/// Infrared (Y8): a dim texture drifting right and, with the emitter on,
/// the projector's dot grid drifting down. The second imager sees the
/// scene shifted, as a stereo pair does.
fn infrared(w: usize, h: usize, number: u64, index: u32, emitter: bool, out: &mut [u8]) {
    const SPACING: usize = 7;
    let n = (number % 1_000_000) as usize;
    let disparity = if index == 2 { w / 40 } else { 0 };
    let shift = 2 * n + disparity;
    for (y, row) in out.chunks_exact_mut(w).take(h).enumerate() {
        let yy = y as u32;
        for (x, px) in row.iter_mut().enumerate() {
            *px = 40 + ((((x + shift) as u32) ^ yy) & 63) as u8;
        }
        if emitter && (y + n).is_multiple_of(SPACING) {
            let phase = (shift + 3 * ((y + n) / SPACING)) % SPACING;
            let first = (SPACING - phase) % SPACING;
            for px in row.iter_mut().skip(first).step_by(SPACING) {
                *px = 230;
            }
        }
    }
}

/// Color bars, 75% intensity.
const BARS: [[u8; 3]; 8] = [
    [191, 191, 191],
    [191, 191, 0],
    [0, 191, 191],
    [0, 191, 0],
    [191, 0, 191],
    [191, 0, 0],
    [0, 0, 191],
    [16, 16, 16],
];

/// Color: eight vertical color bars scrolling left, under a brightness
/// gradient scrolling down; written in `format` (RGB8, BGR8, RGBA8, BGRA8
/// or YUYV).
fn color(w: usize, h: usize, number: u64, format: Format, out: &mut [u8]) {
    let shift = (number % w as u64) as usize * 4 % w;
    let bar_of: Vec<u8> = (0..w).map(|x| ((x + shift) % w * 8 / w) as u8).collect();
    let bpp = format.bytes_per_pixel().unwrap_or(3) as usize;
    let row_shift = (number % h as u64) as usize * 2;
    for (y, row) in out.chunks_exact_mut(w * bpp).enumerate() {
        // Brightness 96..=255 out of 255.
        let level = 96 + 159 * ((y + row_shift) % h) / h.max(1);
        let rgb = BARS.map(|c| c.map(|v| (v as usize * level / 255) as u8));
        match format {
            Format::Bgr8 => bars_row(row, &bar_of, &rgb.map(|[r, g, b]| [b, g, r])),
            Format::Rgba8 => bars_row(row, &bar_of, &rgb.map(|[r, g, b]| [r, g, b, 255])),
            Format::Bgra8 => bars_row(row, &bar_of, &rgb.map(|[r, g, b]| [b, g, r, 255])),
            Format::Yuyv => yuyv_row(row, &bar_of, &rgb.map(yuv)),
            _ => bars_row(row, &bar_of, &rgb),
        }
    }
}

/// Fill one row of `N`-byte pixels: pixel `x` is `lut[bar_of[x]]`.
fn bars_row<const N: usize>(row: &mut [u8], bar_of: &[u8], lut: &[[u8; N]; 8]) {
    for (px, &bar) in row.chunks_exact_mut(N).zip(bar_of) {
        px.copy_from_slice(&lut[bar as usize & 7]);
    }
}

/// Fill one YUYV row (Y0 U Y1 V per pixel pair, chroma averaged).
fn yuyv_row(row: &mut [u8], bar_of: &[u8], lut: &[[u8; 3]; 8]) {
    for (px, bars) in row.chunks_exact_mut(4).zip(bar_of.chunks_exact(2)) {
        let [y0, u0, v0] = lut[bars[0] as usize & 7];
        let [y1, u1, v1] = lut[bars[1] as usize & 7];
        let avg = |a: u8, b: u8| (a as u16 + b as u16).div_ceil(2) as u8;
        px.copy_from_slice(&[y0, avg(u0, u1), y1, avg(v0, v1)]);
    }
}

/// Full-range BT.601 YUV of an RGB color, in integers.
fn yuv([r, g, b]: [u8; 3]) -> [u8; 3] {
    let (r, g, b) = (r as i32, g as i32, b as i32);
    let y = (77 * r + 150 * g + 29 * b + 128) >> 8;
    let u = ((-43 * r - 85 * g + 128 * b + 128) >> 8) + 128;
    let v = ((128 * r - 107 * g - 21 * b + 128) >> 8) + 128;
    [y, u, v].map(|c| c.clamp(0, 255) as u8)
}

/// Accelerometer (m/s²) at `t` seconds: gravity along -y, plus small
/// oscillations.
fn accel(t: f64) -> MotionSample {
    [
        0.05 * (TAU * 0.5 * t).sin(),
        -9.81 + 0.02 * (TAU * 1.3 * t).sin(),
        0.03 * (TAU * 0.7 * t).cos(),
    ]
    .map(|v| v as f32)
}

/// Gyroscope (rad/s) at `t` seconds: small oscillations.
fn gyro(t: f64) -> MotionSample {
    [
        0.01 * (TAU * 0.3 * t).sin(),
        0.02 * (TAU * 0.5 * t + 1.0).sin(),
        0.005 * (TAU * 0.2 * t).cos(),
    ]
    .map(|v| v as f32)
}

/// Radius (m) of the pose's circle.
const POSE_RADIUS: f64 = 1.0;
/// Seconds per turn of the pose's circle.
const POSE_PERIOD: f64 = 10.0;

/// Pose at `t` seconds: moving around a horizontal circle, facing along
/// it, with consistent velocity, acceleration and angular velocity.
fn pose(t: f64) -> Pose {
    let omega = TAU / POSE_PERIOD;
    let theta = omega * t;
    let (s, c) = theta.sin_cos();
    let r = POSE_RADIUS;
    let v3 = |v: [f64; 3]| v.map(|x| x as f32);
    // Heading: a rotation of -theta about the vertical (y) axis.
    let (hs, hc) = (-theta / 2.0).sin_cos();
    Pose {
        translation: v3([r * c, 0.0, r * s]),
        velocity: v3([-r * omega * s, 0.0, r * omega * c]),
        acceleration: v3([-r * omega * omega * c, 0.0, -r * omega * omega * s]),
        rotation: [0.0, hs as f32, 0.0, hc as f32],
        angular_velocity: [0.0, -omega as f32, 0.0],
        angular_acceleration: [0.0; 3],
        tracker_confidence: 3,
        mapper_confidence: 3,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yuv_of_gray_has_neutral_chroma() {
        assert_eq!(yuv([128, 128, 128]), [128, 128, 128]);
        assert_eq!(yuv([255, 255, 255])[0], 255);
        assert_eq!(yuv([0, 0, 0]), [0, 128, 128]);
    }

    #[test]
    fn pose_velocity_is_the_derivative_of_translation() {
        let dt = 1e-3;
        let (a, b) = (pose(1.0), pose(1.0 + dt));
        for i in 0..3 {
            let derivative = (b.translation[i] - a.translation[i]) as f64 / dt;
            assert!((derivative - a.velocity[i] as f64).abs() < 1e-2);
        }
    }
}
