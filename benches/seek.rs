//! Seek latency against file size: open a recording, seek the playback
//! device to the middle and wait for the first frame there. The index
//! makes this one chunk's work whatever the file's length.
//!
//! `cargo bench --bench seek`

#[path = "support.rs"]
mod support;

use std::sync::Arc;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use crossbeam_channel::bounded;
use rsbag::bag::Compression;
use rsbag::device::Device;
use rsbag::playback::{Playback, PlaybackOptions};

fn seek(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut group = c.benchmark_group("seek_to_first_frame");
    group.sample_size(30);
    // About 0.12, 0.5 and 2 GB of frames.
    for frames in [30u64, 120, 480] {
        let path = dir.path().join(format!("{frames}.bag"));
        support::write_bag(&path, frames, Compression::None);
        let size = std::fs::metadata(&path).expect("size").len();
        let options = PlaybackOptions {
            real_time: false,
            queue_size: 1,
        };
        let playback = Playback::with_options(&path, options).expect("open");
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
        let _ = std::fs::remove_file(&path);
    }
    group.finish();
}

criterion_group!(benches, seek);
criterion_main!(benches);
