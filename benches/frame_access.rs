//! Random access through the index: the time to fetch frame k of a stream
//! from a long uncompressed recording (about 2 GB: depth 848x480 and color
//! 1280x720 at 30 fps), for k from the first frame to the last. It should
//! not grow with k: only the chunk that holds frame k is read.
//!
//! `cargo bench --bench frame_access`
//! (`RSBAG_BENCH_FRAMES=N` changes the number of frame pairs, 600 by
//! default.)

#[path = "support.rs"]
mod support;

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use rsbag::bag::Compression;
use rsbag::device::{StreamId, StreamKind};
use rsbag::playback::FrameReader;

const DEPTH: StreamId = StreamId::new(StreamKind::Depth, 0);

fn frame_access(c: &mut Criterion) {
    let frames: u64 = std::env::var("RSBAG_BENCH_FRAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(600)
        .max(2);
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("long.bag");
    support::write_bag(&path, frames, Compression::None);
    let size = std::fs::metadata(&path).expect("size").len();
    eprintln!(
        "frame_access: {frames} depth+color frame pairs, {} MB",
        size >> 20
    );
    let ks = [0, frames / 4, frames / 2, frames * 3 / 4, frames - 1];

    // One reader, frames fetched again and again.
    let reader = FrameReader::open(&path).expect("open");
    let mut group = c.benchmark_group("fetch_frame_k");
    for k in ks {
        group.bench_with_input(BenchmarkId::from_parameter(k), &k, |b, &k| {
            b.iter(|| {
                let frame = reader.frame(DEPTH, k).expect("frame");
                let data = &frame.frame.data;
                black_box((data[0], data[data.len() - 1]))
            })
        });
    }
    group.finish();

    // Opening the file as well: description and index, then frame k.
    let mut group = c.benchmark_group("open_and_fetch_frame_k");
    group.sample_size(20);
    for k in ks {
        group.bench_with_input(BenchmarkId::from_parameter(k), &k, |b, &k| {
            b.iter(|| {
                let reader = FrameReader::open(&path).expect("open");
                let frame = reader.frame(DEPTH, k).expect("frame");
                black_box(frame.frame.number)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, frame_access);
criterion_main!(benches);
