//! Bag builders shared by the benchmarks.
#![allow(dead_code)]

use std::path::Path;

use rsbag::device::{
    camera_info, CameraInfo, Format, Frame, StreamId, StreamKind, StreamProfile, TimestampDomain,
};
use rsbag::realsense::topics::StreamTopic;
use rsbag::record::RsWriter;
use rsbag::storage::bag::{Compression, WriterOptions};

/// Depth 848x480 Z16 and color 1280x720 RGB8 at 30 fps: the streams the
/// librealsense comparison uses.
pub fn profiles() -> [StreamProfile; 2] {
    [
        StreamProfile::video(
            StreamId::new(StreamKind::Depth, 0),
            Format::Z16,
            848,
            480,
            30,
        )
        .as_default(),
        StreamProfile::video(
            StreamId::new(StreamKind::Color, 0),
            Format::Rgb8,
            1280,
            720,
            30,
        )
        .as_default(),
    ]
}

/// Camera-like pixels: smooth gradients with a few bits of noise, so that
/// LZ4 does about as well as on real images (neither all zeros nor random).
pub fn pixels(len: usize, seed: u64) -> Vec<u8> {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..len)
        .map(|i| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            ((i / 64) as u8).wrapping_add((state & 0x0F) as u8)
        })
        .collect()
}

/// A frame of `profile` numbered `n`.
pub fn frame(profile: StreamProfile, n: u64) -> Frame {
    let (w, h) = profile.resolution().unwrap_or((0, 0));
    let bpp = profile.format.bytes_per_pixel().unwrap_or(1);
    Frame {
        profile,
        number: n + 1,
        timestamp: n as f64 * 33.333,
        domain: TimestampDomain::HardwareClock,
        system_time: 1.7e12 + n as f64 * 33.333,
        metadata: Vec::new(),
        stride: w * bpp,
        data: pixels((w * h * bpp) as usize, n * 2 + profile.stream.kind as u64).into(),
    }
}

/// Write a RealSense bag of `frames` depth+color frame pairs.
pub fn write_bag(path: &Path, frames: u64, compression: Compression) {
    let mut w =
        RsWriter::create(path, WriterOptions::default().compression(compression)).expect("create");
    w.write_device_info(&CameraInfo::new([(camera_info::NAME, "Bench Camera")]))
        .expect("info");
    for (sensor, profile) in profiles().into_iter().enumerate() {
        let name = if sensor == 0 {
            "Stereo Module"
        } else {
            "RGB Camera"
        };
        w.write_sensor_info(sensor as u32, &CameraInfo::new([(camera_info::NAME, name)]))
            .expect("info");
        w.write_stream_info(sensor as u32, &profile, 0)
            .expect("stream info");
        w.write_extrinsics(
            StreamTopic::new(0, sensor as u32, profile.stream),
            0,
            &rsbag::device::Extrinsics::IDENTITY,
        )
        .expect("tf");
    }
    // A few distinct frames, reused: building them is not what is measured.
    let templates: Vec<[Frame; 2]> = (0..8).map(|n| profiles().map(|p| frame(p, n))).collect();
    for n in 0..frames {
        for (sensor, template) in templates[(n % 8) as usize].iter().enumerate() {
            let mut f = template.clone();
            f.number = n + 1;
            f.timestamp = n as f64 * 33.333;
            w.write_frame(
                sensor as u32,
                &f,
                0.001,
                1_000 + n * 33_333_333 + sensor as u64,
            )
            .expect("frame");
        }
    }
    w.finish().expect("finish");
}

/// Write an LZ4 (or `compression`) recording of the synthetic camera
/// (`rsbag record --synthetic`: depth, color and both infrared streams at
/// 640x480 and 30 fps, accel at 200 Hz and gyro at 400 Hz) of `seconds`
/// seconds, its frames rendered by the synthetic device, as fast as it can
/// be written rather than in real time.
pub fn write_synthetic_bag(path: &Path, seconds: u64, compression: Compression) {
    let options = WriterOptions::default().compression(compression);
    write_synthetic_bag_with(path, seconds, options);
}

/// As [`write_synthetic_bag`], written with `options` (compression, chunk
/// size).
pub fn write_synthetic_bag_with(path: &Path, seconds: u64, options: WriterOptions) {
    write_synthetic_streams_with(path, seconds, options, &synthetic_camera_streams());
}

/// As [`write_synthetic_bag`], with only `streams` of the synthetic camera.
pub fn write_synthetic_streams(
    path: &Path,
    seconds: u64,
    compression: Compression,
    streams: &[rsbag::device::StreamId],
) {
    let options = WriterOptions::default().compression(compression);
    write_synthetic_streams_with(path, seconds, options, streams);
}

/// As [`write_synthetic_streams`], written with `options` (compression,
/// chunk size).
pub fn write_synthetic_streams_with(
    path: &Path,
    seconds: u64,
    options: WriterOptions,
    streams: &[rsbag::device::StreamId],
) {
    write_synthetic(path, seconds, options, streams, None);
}

/// As [`write_synthetic_bag_with`], with the host times a camera
/// streaming in real time gives its frames: each arrives at
/// `started_ms` (host time, ms) plus its capture time. Frames rendered
/// faster than real time otherwise arrive when rendered, so that files
/// written one after another do not overlap on arrival time, where
/// cameras recording together do.
pub fn write_synthetic_camera(path: &Path, seconds: u64, options: WriterOptions, started_ms: f64) {
    let streams = synthetic_camera_streams();
    write_synthetic(path, seconds, options, &streams, Some(started_ms));
}

fn synthetic_camera_streams() -> [StreamId; 6] {
    use rsbag::device::synthetic;
    [
        synthetic::DEPTH,
        synthetic::INFRARED_1,
        synthetic::INFRARED_2,
        synthetic::COLOR,
        synthetic::ACCEL,
        synthetic::GYRO,
    ]
}

fn write_synthetic(
    path: &Path,
    seconds: u64,
    options: WriterOptions,
    streams: &[rsbag::device::StreamId],
    started_ms: Option<f64>,
) {
    use rsbag::device::synthetic::{SyntheticConfig, SyntheticDevice};
    use rsbag::device::Device;

    let camera = SyntheticDevice::new(SyntheticConfig::default()).expect("camera");
    let mut w = RsWriter::create(path, options).expect("create");
    w.write_device_info(&camera.info()).expect("info");
    // (sensor, profile) of each stream, in the device's sensor order.
    let mut playing = Vec::new();
    for (index, sensor) in camera.sensors().iter().enumerate() {
        w.write_sensor_info(index as u32, &sensor.info())
            .expect("sensor info");
        for profile in sensor.profiles() {
            if profile.is_default && streams.contains(&profile.stream) {
                w.write_stream_info(index as u32, &profile, 0)
                    .expect("stream info");
                w.write_extrinsics(
                    StreamTopic::new(0, index as u32, profile.stream),
                    0,
                    &rsbag::device::Extrinsics::IDENTITY,
                )
                .expect("tf");
                playing.push((index as u32, profile));
            }
        }
    }
    // Every frame of every stream, in capture-time order.
    let mut due: Vec<(u64, usize, u64)> = Vec::new();
    for (k, (_, profile)) in playing.iter().enumerate() {
        let period = 1_000_000_000 / u64::from(profile.fps);
        let count = seconds * u64::from(profile.fps);
        due.extend((0..count).map(|n| (1_000 + n * period, k, n + 1)));
    }
    due.sort_unstable();
    for (at, k, number) in due {
        let (sensor, profile) = &playing[k];
        let mut frame = camera.render(profile, number).expect("render");
        if let Some(started_ms) = started_ms {
            arrive_at(&mut frame, started_ms + at as f64 / 1e6);
        }
        w.write_frame(*sensor, &frame, 0.001, at).expect("frame");
    }
    w.finish().expect("finish");
}

/// Give `frame` the host time `ms` (`system_time` and its Time Of Arrival
/// metadata).
fn arrive_at(frame: &mut Frame, ms: f64) {
    frame.system_time = ms;
    for (key, value) in &mut frame.metadata {
        if key == rsbag::device::metadata_key::TIME_OF_ARRIVAL {
            *value = ms.round() as i64;
        }
    }
}
