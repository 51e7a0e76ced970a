//! The recorder end to end with the synthetic device at a D435-class
//! camera's maximum: 1280x720 Z16 depth and 1920x1080 RGB8 color at 30 fps,
//! accel at 200 Hz and gyro at 400 Hz, for 3 s, uncompressed and LZ4.
//! What counts is that no frame is dropped; the time is the recording's
//! length plus finishing the file.
//!
//! `cargo bench --bench recorder`

use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use rsbag::device::synthetic::{self, SyntheticConfig, SyntheticDevice};
use rsbag::device::{Device, StreamProfile};
use rsbag::record::{RecordOptions, Recorder};
use rsbag::storage::bag::Compression;

const SECONDS: u64 = 3;

fn record(dir: &std::path::Path, compression: Compression) -> (Duration, u64, u64) {
    let config = SyntheticConfig {
        depth: (1280, 720, 30),
        color: (1920, 1080, 30),
        ..SyntheticConfig::default()
    };
    let camera = Arc::new(SyntheticDevice::new(config).expect("camera"));
    let wanted: Vec<StreamProfile> = [
        synthetic::DEPTH,
        synthetic::COLOR,
        synthetic::ACCEL,
        synthetic::GYRO,
    ]
    .iter()
    .filter_map(|s| camera.default_profile(*s))
    .collect();
    let accel_gyro_max = |p: &StreamProfile| p.fps;
    let path = dir.join(format!("d435-{compression}.bag"));
    let recorder = Recorder::new(
        &path,
        camera.clone(),
        RecordOptions::default().compression(compression),
    )
    .expect("recorder");
    let started = Instant::now();
    for sensor in recorder.sensors() {
        // The fastest IMU modes, the configured video modes.
        let mut profiles: Vec<StreamProfile> = Vec::new();
        for stream in wanted.iter().map(|p| p.stream) {
            let best = sensor
                .profiles()
                .into_iter()
                .filter(|p| p.stream == stream)
                .max_by_key(accel_gyro_max);
            let chosen = if stream.kind.is_motion() {
                best
            } else {
                wanted.iter().find(|p| p.stream == stream).copied()
            };
            if let Some(p) =
                chosen.filter(|p| sensor.profiles().iter().any(|q| q.unique_id == p.unique_id))
            {
                profiles.push(p);
            }
        }
        if !profiles.is_empty() {
            sensor.open(&profiles).expect("open");
            sensor.start(Arc::new(|_| {})).expect("start");
        }
    }
    std::thread::sleep(Duration::from_secs(SECONDS));
    let report = recorder.finish().expect("finish");
    let written = report.streams.values().map(|c| c.written).sum();
    let dropped = report.streams.values().map(|c| c.dropped).sum();
    let _ = std::fs::remove_file(&path);
    (started.elapsed(), written, dropped)
}

fn d435_max(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut group = c.benchmark_group("recorder_d435_max_3s");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(40));
    for compression in [Compression::None, Compression::Lz4] {
        group.bench_function(BenchmarkId::from_parameter(compression), |b| {
            b.iter_custom(|iterations| {
                let mut total = Duration::ZERO;
                for _ in 0..iterations {
                    let (elapsed, written, dropped) = record(dir.path(), compression);
                    eprintln!(
                        "recorder {compression}: {written} frames written, {dropped} dropped"
                    );
                    total += elapsed;
                }
                total
            })
        });
    }
    group.finish();
}

criterion_group!(benches, d435_max);
criterion_main!(benches);
