//! Record through the `Recorder` at a given data rate and report whether it
//! kept up: the recording half of `benches/compare_librealsense.py`.
//!
//! ```text
//! cargo run --release --example record_throughput -- OUT.bag --mb 1024 --rate 800 [--lz4]
//! ```
//!
//! A small in-process device emits 1280x720 RGB8 frames (2.76 MB) paced to
//! `--rate` MB/s until `--mb` MB were produced; with `--rate 0` it sends as
//! fast as the recorder writes (it keeps at most 8 frames ahead of what was
//! written), which measures the recorder's sustained speed. The report gives
//! the bytes written, the frames dropped and the rate achieved including
//! closing the file (index, fsync).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use parking_lot::Mutex;
use rsbag::device::{
    camera_info, CameraInfo, Device, Extrinsics, Format, Frame, FrameCallback,
    NotificationCallback, OptionCallback, Sensor, SensorOption, StreamId, StreamKind,
    StreamProfile, TimestampDomain,
};
use rsbag::record::{RecordOptions, Recorder};
use rsbag::storage::bag::Compression;
use rsbag::{Error, Result};

const WIDTH: u32 = 1280;
const HEIGHT: u32 = 720;

/// One sensor that pushes a fixed set of frames at a fixed byte rate.
struct FloodSensor {
    profile: StreamProfile,
    /// Frames the recorder has written (kept up to date by `main`), for
    /// `--rate 0`.
    written: Arc<std::sync::atomic::AtomicU64>,
    frames: Vec<bytes::Bytes>,
    rate_bytes_per_s: f64,
    total_bytes: u64,
    running: Arc<AtomicBool>,
    thread: Mutex<Option<JoinHandle<()>>>,
}

impl Sensor for FloodSensor {
    fn info(&self) -> CameraInfo {
        CameraInfo::new([(camera_info::NAME, "RGB Camera")])
    }
    fn profiles(&self) -> Vec<StreamProfile> {
        vec![self.profile]
    }
    fn options(&self) -> Vec<SensorOption> {
        Vec::new()
    }
    fn set_option(&self, name: &str, _: f32) -> Result<()> {
        Err(Error::InvalidArgument(format!("no option {name}")))
    }
    fn add_option_listener(&self, _: OptionCallback) {}
    fn add_notification_listener(&self, _: NotificationCallback) {}
    fn open(&self, _: &[StreamProfile]) -> Result<()> {
        Ok(())
    }
    fn start(&self, callback: FrameCallback) -> Result<()> {
        let (frames, profile, running) = (self.frames.clone(), self.profile, self.running.clone());
        let (rate, total) = (self.rate_bytes_per_s, self.total_bytes);
        let written = self.written.clone();
        running.store(true, Ordering::SeqCst);
        *self.thread.lock() = Some(std::thread::spawn(move || {
            let started = Instant::now();
            let mut sent = 0u64;
            let mut n = 0u64;
            while running.load(Ordering::SeqCst) && sent < total {
                if rate > 0.0 {
                    let due = started + Duration::from_secs_f64(sent as f64 / rate);
                    if let Some(wait) = due.checked_duration_since(Instant::now()) {
                        std::thread::sleep(wait);
                    }
                } else {
                    while running.load(Ordering::SeqCst) && n > written.load(Ordering::SeqCst) + 8 {
                        std::thread::sleep(Duration::from_micros(200));
                    }
                }
                let data = frames[(n % frames.len() as u64) as usize].clone();
                sent += data.len() as u64;
                n += 1;
                callback(Frame {
                    profile,
                    number: n,
                    timestamp: n as f64,
                    domain: TimestampDomain::HardwareClock,
                    system_time: 0.0,
                    metadata: Vec::new(),
                    stride: WIDTH * 3,
                    data,
                });
            }
            running.store(false, Ordering::SeqCst);
        }));
        Ok(())
    }
    fn stop(&self) -> Result<()> {
        self.running.store(false, Ordering::SeqCst);
        if let Some(thread) = self.thread.lock().take() {
            let _ = thread.join();
        }
        Ok(())
    }
    fn close(&self) -> Result<()> {
        Ok(())
    }
    fn active_profiles(&self) -> Vec<StreamProfile> {
        vec![self.profile]
    }
}

struct FloodDevice(Arc<FloodSensor>);

impl Device for FloodDevice {
    fn info(&self) -> CameraInfo {
        CameraInfo::new([(camera_info::NAME, "Flood")])
    }
    fn sensors(&self) -> Vec<Arc<dyn Sensor>> {
        vec![self.0.clone()]
    }
    fn extrinsics(&self, _: StreamId, _: StreamId) -> Option<Extrinsics> {
        Some(Extrinsics::IDENTITY)
    }
}

fn arg(args: &[String], name: &str, default: f64) -> f64 {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let out = args
        .get(1)
        .cloned()
        .unwrap_or_else(|| "throughput.bag".into());
    let megabytes = arg(&args, "--mb", 1024.0);
    let rate = arg(&args, "--rate", 1000.0);
    let compression = if args.iter().any(|a| a == "--lz4") {
        Compression::Lz4
    } else {
        Compression::None
    };
    let size = (WIDTH * HEIGHT * 3) as usize;
    // Camera-like content: gradients plus low-bit noise.
    let frames = (0..8u64)
        .map(|seed| {
            let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
            (0..size)
                .map(|i| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    ((i / 64) as u8).wrapping_add((state & 0x0F) as u8)
                })
                .collect::<Vec<u8>>()
                .into()
        })
        .collect();
    let profile = StreamProfile::video(
        StreamId::new(StreamKind::Color, 0),
        Format::Rgb8,
        WIDTH,
        HEIGHT,
        30,
    )
    .as_default();
    let sensor = Arc::new(FloodSensor {
        profile,
        frames,
        rate_bytes_per_s: rate * 1e6,
        total_bytes: (megabytes * 1e6) as u64,
        running: Arc::new(AtomicBool::new(false)),
        thread: Mutex::new(None),
        written: Arc::default(),
    });
    let device = Arc::new(FloodDevice(sensor.clone()));
    let recorder = Recorder::new(
        &out,
        device,
        RecordOptions::default().compression(compression),
    )?;
    let started = Instant::now();
    recorder.sensors()[0].open(&[profile])?;
    recorder.sensors()[0].start(Arc::new(|_| {}))?;
    while sensor.running.load(Ordering::SeqCst) {
        let written = recorder.counts().values().map(|c| c.written).sum();
        sensor.written.store(written, Ordering::SeqCst);
        std::thread::sleep(Duration::from_micros(500));
    }
    let report = recorder.finish()?;
    let seconds = started.elapsed().as_secs_f64();
    let counts = report.streams.values().next().copied().unwrap_or_default();
    println!(
        "{{\"bytes\": {}, \"file_size\": {}, \"seconds\": {seconds:.4}, \"written\": {}, \"dropped\": {}, \"mb_per_s\": {:.1}}}",
        counts.bytes,
        report.file_size,
        counts.written,
        counts.dropped,
        counts.bytes as f64 / seconds / 1e6
    );
    Ok(())
}
