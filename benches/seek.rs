//! Seek latency against file size: open a recording, seek the playback
//! device to the middle and wait for the first frame there. The index
//! makes this one chunk's work whatever the file's length. And the time to
//! open a recording and describe it (what `rsbag info` reads: the index,
//! the device description, the first and last frame times), which should
//! not grow with the file either.
//!
//! `cargo bench --bench seek`

#[path = "support.rs"]
mod support;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use crossbeam_channel::bounded;
use rsbag::device::Device;
use rsbag::playback::{Playback, PlaybackOptions};
use rsbag::recording::Recording;
use rsbag::storage::bag::Compression;

fn seek(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("tempdir");
    // About 0.12, 0.5 and 2 GB of frames.
    let bags: Vec<(PathBuf, u64, u64)> = [30u64, 120, 480]
        .into_iter()
        .map(|frames| {
            let path = dir.path().join(format!("{frames}.bag"));
            support::write_bag(&path, frames, Compression::None);
            let size = std::fs::metadata(&path).expect("size").len();
            (path, frames, size)
        })
        .collect();

    let mut group = c.benchmark_group("open_and_describe");
    for (path, _, size) in &bags {
        group.bench_function(BenchmarkId::new("MB", size >> 20), |b| {
            b.iter(|| {
                let recording = Recording::open(path).expect("open");
                (recording.streams().len(), recording.duration())
            })
        });
    }
    group.finish();

    let mut group = c.benchmark_group("seek_to_first_frame");
    group.sample_size(30);
    for (path, frames, size) in &bags {
        let frames = *frames;
        let options = PlaybackOptions {
            real_time: false,
            queue_size: 1,
        };
        let playback = Playback::with_options(path, options).expect("open");
        playback.set_repeat(true);
        let (tx, rx) = bounded(1);
        playback.pause();
        let depth = playback.sensors()[0].clone();
        depth.open(&depth.profiles()).expect("open");
        depth
            .start(Arc::new(move |f| {
                let _ = tx.try_send(f.number);
            }))
            .expect("start");
        let mut k = 0u64;
        group.bench_function(BenchmarkId::new("MB", size >> 20), |b| {
            b.iter(|| {
                k = (k + 7) % frames;
                playback.pause();
                while rx.try_recv().is_ok() {}
                playback
                    .seek(Duration::from_nanos(k * 33_333_333))
                    .expect("seek");
                playback.resume();
                rx.recv_timeout(Duration::from_secs(5))
                    .expect("a frame after the seek")
            })
        });
        playback.stop();
    }
    group.finish();
}

criterion_group!(benches, seek);
criterion_main!(benches);
