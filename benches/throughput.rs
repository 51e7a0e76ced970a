//! Writer, reader and playback-device throughput, per compression.
//!
//! `cargo bench --bench throughput`

#[path = "support.rs"]
mod support;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use rsbag::device::Device;
use rsbag::playback::{Playback, PlaybackOptions};
use rsbag::storage::bag::{Bag, BagWriter, Compression, WriterOptions};
use rsbag::storage::Connection;

/// Frame pairs per bag: ~115 MB of pixels.
const FRAMES: u64 = 30;

fn writer(c: &mut Criterion) {
    let messages: Vec<Vec<u8>> = (0..16).map(|n| support::pixels(2_764_800, n)).collect();
    let bytes: u64 = messages.iter().map(|m| m.len() as u64).sum();
    let mut group = c.benchmark_group("bag_writer");
    group.throughput(Throughput::Bytes(bytes)).sample_size(10);
    for compression in Compression::ALL {
        group.bench_function(BenchmarkId::from_parameter(compression), |b| {
            b.iter(|| {
                let sink = std::io::Cursor::new(Vec::with_capacity(bytes as usize + (1 << 20)));
                let mut w = BagWriter::new(sink, WriterOptions::default().compression(compression))
                    .expect("writer");
                let conn = w.add_connection(Connection::ros1(
                    "/image",
                    "sensor_msgs/Image",
                    "060021388200f6f0f447d0fcd9c64743",
                    "",
                ));
                for (t, m) in messages.iter().enumerate() {
                    w.write(conn, t as u64 + 1, m).expect("write");
                }
                w.finish().expect("finish")
            })
        });
    }
    group.finish();
}

fn reader_and_playback(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("tempdir");
    for compression in [Compression::None, Compression::Lz4] {
        let path = dir.path().join(format!("{compression}.bag"));
        support::write_bag(&path, FRAMES, compression);
        let payload: u64 = FRAMES * (848 * 480 * 2 + 1280 * 720 * 3);

        let mut group = c.benchmark_group("bag_reader");
        group.throughput(Throughput::Bytes(payload)).sample_size(10);
        group.bench_function(BenchmarkId::from_parameter(compression), |b| {
            let bag = Bag::open(&path).expect("open");
            b.iter(|| {
                bag.messages()
                    .map(|m| m.map(|m| fold(&m.data)).expect("message"))
                    .fold(0u64, u64::wrapping_add)
            })
        });
        group.finish();

        let mut group = c.benchmark_group("playback_device");
        group.throughput(Throughput::Bytes(payload)).sample_size(10);
        group.bench_function(BenchmarkId::from_parameter(compression), |b| {
            b.iter(|| play_all(&path))
        });
        group.finish();
    }
}

/// Play every stream not in real time with callbacks that read every byte.
fn play_all(path: &std::path::Path) -> u64 {
    let options = PlaybackOptions {
        real_time: false,
        ..PlaybackOptions::default()
    };
    let playback = Playback::with_options(path, options).expect("open");
    let sum = Arc::new(AtomicU64::new(0));
    playback.pause();
    for sensor in playback.sensors() {
        sensor.open(&sensor.profiles()).expect("open");
        let sum = sum.clone();
        sensor
            .start(Arc::new(move |f| {
                sum.fetch_add(fold(&f.data), Ordering::Relaxed);
            }))
            .expect("start");
    }
    playback.resume();
    playback.wait_until_stopped(Duration::from_secs(120));
    sum.load(Ordering::Relaxed)
}

/// Read every byte: a wrapping sum of 64-bit words.
fn fold(data: &[u8]) -> u64 {
    data.chunks_exact(8)
        .map(|w| u64::from_le_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]))
        .fold(0u64, u64::wrapping_add)
}

criterion_group!(benches, writer, reader_and_playback);
criterion_main!(benches);
