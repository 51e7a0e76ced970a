//! RealSense bags with exact, planned frames (streams, numbers, times and
//! gaps chosen by the test), and librealsense's own bags with the frames it
//! played from them.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use rsbag::device::{
    camera_info, motion_bytes, CameraInfo, Format, Frame, StreamId, StreamKind, StreamProfile,
    TimestampDomain,
};
use rsbag::record::RsWriter;
use rsbag::recording::{FrameReader, RecordedFrame};
use rsbag::storage::bag::WriterOptions;

pub const DEPTH: StreamId = StreamId::new(StreamKind::Depth, 0);
pub const COLOR: StreamId = StreamId::new(StreamKind::Color, 0);
pub const IR1: StreamId = StreamId::new(StreamKind::Infrared, 1);
pub const ACCEL: StreamId = StreamId::new(StreamKind::Accel, 0);
pub const GYRO: StreamId = StreamId::new(StreamKind::Gyro, 0);

// ---- bags with exact, planned frames ---------------------------------------

pub const W: u32 = 16;
pub const H: u32 = 12;

pub fn profile(stream: StreamId, fps: u32) -> StreamProfile {
    match stream.kind {
        StreamKind::Accel | StreamKind::Gyro => {
            StreamProfile::motion(stream, Format::MotionXyz32f, fps).as_default()
        }
        StreamKind::Depth => StreamProfile::video(stream, Format::Z16, W, H, fps).as_default(),
        StreamKind::Color => StreamProfile::video(stream, Format::Rgb8, W, H, fps).as_default(),
        _ => StreamProfile::video(stream, Format::Y8, W, H, fps).as_default(),
    }
}

/// The sensor a stream is recorded on.
pub fn sensor_of(stream: StreamId) -> u32 {
    match stream.kind {
        StreamKind::Depth | StreamKind::Infrared => 0,
        StreamKind::Color => 1,
        _ => 2,
    }
}

/// One frame to write: its capture (bag) time and the frame.
#[derive(Debug, Clone)]
pub struct Planned {
    pub at_ns: u64,
    pub frame: Frame,
}

pub fn planned(stream: StreamId, fps: u32, number: u64, timestamp: f64, at_ns: u64) -> Planned {
    let profile = profile(stream, fps);
    let data: Vec<u8> = match profile.resolution() {
        Some((w, h)) => {
            let bpp = profile.format.bytes_per_pixel().unwrap_or(1);
            (0..w * h * bpp)
                .map(|i| (u64::from(i) * 31 + number * 7 + stream.kind as u64 * 13) as u8)
                .collect()
        }
        None => motion_bytes([number as f32, stream.kind as u8 as f32, 9.81]),
    };
    Planned {
        at_ns,
        frame: Frame {
            profile,
            number,
            timestamp,
            domain: TimestampDomain::HardwareClock,
            system_time: 1.7e12 + at_ns as f64 / 1e6,
            metadata: vec![("Frame Counter".into(), number as i64)],
            stride: profile.resolution().map_or(0, |(w, _)| {
                w * profile.format.bytes_per_pixel().unwrap_or(1)
            }),
            data: data.into(),
        },
    }
}

/// Write `plan` (in the given order) as a RealSense bag.
pub fn write_plan(path: &Path, plan: &[Planned], options: WriterOptions) {
    let mut w = RsWriter::create(path, options).expect("create");
    w.write_device_info(&CameraInfo::new([(camera_info::NAME, "Planned Camera")]))
        .expect("info");
    let names = ["Stereo Module", "RGB Camera", "Motion Module"];
    let mut described = BTreeSet::new();
    let mut sensors = BTreeSet::new();
    for p in plan {
        sensors.insert(sensor_of(p.frame.profile.stream));
    }
    for &s in &sensors {
        w.write_sensor_info(
            s,
            &CameraInfo::new([(camera_info::NAME, names[s as usize])]),
        )
        .expect("sensor info");
    }
    for p in plan {
        let profile = p.frame.profile;
        if described.insert(profile.stream) {
            w.write_stream_info(sensor_of(profile.stream), &profile, 0)
                .expect("stream info");
        }
    }
    for p in plan {
        w.write_frame(sensor_of(p.frame.profile.stream), &p.frame, 0.001, p.at_ns)
            .expect("frame");
    }
    w.finish().expect("finish");
}

/// The plan in recorded order: by bag time, ties in write order.
pub fn recorded_order(plan: &[Planned]) -> Vec<Planned> {
    let mut sorted = plan.to_vec();
    sorted.sort_by_key(|p| p.at_ns.max(2));
    sorted
}

/// Depth and color at 30 fps, a single infrared frame and accel at 200 Hz,
/// with gaps: depth misses a whole second, color stops at half time, accel
/// misses 200 ms.
pub fn gap_plan() -> Vec<Planned> {
    let mut plan = Vec::new();
    for n in 0..90u64 {
        let t = 1000.0 + n as f64 * 33.333;
        let at = n * 33_333_333;
        if !(30..60).contains(&n) {
            plan.push(planned(DEPTH, 30, n + 1, t, at + 2_000_000));
        }
        if n < 45 {
            plan.push(planned(COLOR, 30, n + 1, t + 0.4, at + 2_400_000));
        }
        if n == 10 {
            plan.push(planned(IR1, 30, 1, t + 0.2, at + 2_200_000));
        }
    }
    for m in 0..600u64 {
        if !(100..140).contains(&m) {
            plan.push(planned(
                ACCEL,
                200,
                m + 1,
                1000.0 + m as f64 * 5.0,
                m * 5_000_000 + 100_000,
            ));
        }
    }
    recorded_order(&plan)
}

/// Depth and color at 30 fps with jitter and dropped frames, accel at
/// 200 Hz and gyro at 400 Hz, about 4 s.
pub const DEPTH_DROPS: [u64; 6] = [17, 50, 51, 52, 53, 90];
pub const COLOR_DROPS: [u64; 7] = [5, 50, 51, 52, 53, 54, 100];
pub const VIDEO_FRAMES: u64 = 120;

pub fn imu_plan() -> Vec<Planned> {
    let mut plan = Vec::new();
    for n in 0..VIDEO_FRAMES {
        let nominal = n as f64 * 1000.0 / 30.0;
        let jitter = ((n * 7) % 5) as f64 * 0.3 - 0.6;
        let at = (nominal * 1e6) as u64;
        if !DEPTH_DROPS.contains(&n) {
            plan.push(planned(
                DEPTH,
                30,
                n + 1,
                1000.0 + nominal + jitter,
                at + 3_000_000,
            ));
        }
        if !COLOR_DROPS.contains(&n) {
            let jitter = ((n * 3) % 4) as f64 * 0.4 - 0.5;
            plan.push(planned(
                COLOR,
                30,
                n + 1,
                1001.1 + nominal + jitter,
                at + 4_500_000,
            ));
        }
    }
    for m in 0..(VIDEO_FRAMES * 20 / 3) {
        let t = m as f64 * 5.0;
        plan.push(planned(
            ACCEL,
            200,
            m + 1,
            1000.05 + t,
            (t * 1e6) as u64 + 700_000,
        ));
    }
    for m in 0..(VIDEO_FRAMES * 40 / 3) {
        let t = m as f64 * 2.5;
        plan.push(planned(
            GYRO,
            400,
            m + 1,
            1000.02 + t,
            (t * 1e6) as u64 + 600_000,
        ));
    }
    recorded_order(&plan)
}

pub fn temp_bag(dir: &Path, name: &str, plan: &[Planned], options: WriterOptions) -> PathBuf {
    let path = dir.join(name);
    write_plan(&path, plan, options);
    path
}

pub fn read_all(reader: &FrameReader) -> Vec<RecordedFrame> {
    reader
        .frames()
        .expect("frames")
        .collect::<Result<_, _>>()
        .expect("every frame reads")
}

/// Bags written by librealsense 2.55, with the frames librealsense played
/// from them.
pub fn librealsense_bags() -> Vec<(PathBuf, PathBuf)> {
    let mut bags = vec![(
        super::reference("librealsense-2.55-depth-color.bag"),
        super::reference("librealsense-2.55-depth-color.frames.jsonl"),
    )];
    for name in [
        "librealsense-depth-color-lz4",
        "librealsense-stereo-none",
        "librealsense-motion-lz4",
        "librealsense-metadata-lz4",
    ] {
        bags.push((
            super::sample(&format!("{name}.bag")),
            super::sample(&format!("{name}.frames.jsonl")),
        ));
    }
    bags
}
