//! Timing that tests must not assert (it depends on the machine's load):
//! how late the playback device delivers frames in real time, at several
//! speeds, and how long the synthetic camera takes to render large frames.
//! Prints its figures; `cargo bench --bench timing`.

#[path = "support.rs"]
mod support;

use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::BytesMut;
use parking_lot::Mutex;
use rsbag::device::synthetic::SyntheticDevice;
use rsbag::device::{Device, Format, StreamId, StreamKind, StreamProfile};
use rsbag::playback::Playback;
use rsbag::storage::bag::Compression;

/// Lateness of each frame against the recorded pace, at `speed`.
fn lateness(path: &std::path::Path, speed: f64) -> Vec<Duration> {
    let playback = Playback::open(path).expect("open");
    playback.set_playback_speed(speed).expect("speed");
    playback.pause();
    let arrivals: Arc<Mutex<Vec<(Instant, f64)>>> = Arc::default();
    for sensor in playback.sensors() {
        sensor.open(&sensor.profiles()).expect("open");
        let arrivals = arrivals.clone();
        sensor
            .start(Arc::new(move |frame| {
                arrivals.lock().push((Instant::now(), frame.timestamp));
            }))
            .expect("start");
    }
    let began = Instant::now();
    playback.resume();
    assert!(playback.wait_until_stopped(Duration::from_secs(120)));
    let arrivals = arrivals.lock();
    let first = arrivals
        .iter()
        .map(|&(_, ms)| ms)
        .fold(f64::INFINITY, f64::min);
    arrivals
        .iter()
        .map(|&(at, ms)| {
            let due = Duration::from_secs_f64((ms - first) / 1e3 / speed);
            at.duration_since(began).saturating_sub(due)
        })
        .collect()
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn pace() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("pace.bag");
    support::write_bag(&path, 30, Compression::Lz4);
    for speed in [0.5, 1.0, 2.0, 4.0] {
        let mut late = lateness(&path, speed);
        late.sort();
        println!(
            "real-time playback at speed {speed}: {} frames late by median {:?}, p95 {:?}, max {:?}",
            late.len(),
            percentile(&late, 0.5),
            percentile(&late, 0.95),
            percentile(&late, 1.0)
        );
    }
}

fn render() {
    let device = SyntheticDevice::default();
    let video = |kind, index, format, w, h| {
        StreamProfile::video(StreamId::new(kind, index), format, w, h, 30)
    };
    let profiles = [
        video(StreamKind::Depth, 0, Format::Z16, 1280, 720),
        video(StreamKind::Color, 0, Format::Rgb8, 1920, 1080),
        video(StreamKind::Color, 0, Format::Yuyv, 1920, 1080),
        video(StreamKind::Infrared, 1, Format::Y8, 1280, 720),
    ];
    for profile in profiles {
        let mut buffer = BytesMut::new();
        let rounds = 20;
        let begin = Instant::now();
        for number in 1..=rounds {
            let frame = device
                .render_into(&profile, number, &mut buffer)
                .expect("render");
            drop(frame); // Lets the next frame reuse the allocation.
        }
        println!(
            "synthetic render {} {:?} {}: {:?} per frame",
            profile.stream,
            profile.resolution(),
            profile.format,
            begin.elapsed() / rounds as u32
        );
    }
    let _ = device.sensors();
}

fn main() {
    // `cargo bench` passes `--bench`; a filter of tests to run is ignored.
    pace();
    render();
}
