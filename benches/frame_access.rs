//! Random access through the index: the time to fetch frame k of a stream
//! from a long uncompressed recording (about 2 GB: depth 848x480 and color
//! 1280x720 at 30 fps), for k from the first frame to the last. It should
//! not grow with k: only the chunk that holds frame k is read.
//!
//! `cargo bench --bench frame_access`
//! (`RSBAG_BENCH_FRAMES=N` changes the number of frame pairs, 600 by
//! default.)
//!
//! Then the same over an LZ4 recording of the synthetic camera (20 s, as
//! `rsbag record --synthetic --duration 20` writes; `RSBAG_BENCH_LZ4_BAG`
//! reads that file instead): every gyro frame fetched by index, against
//! the same frames read in order, and one frame fetched again and again
//! (its chunk is the one read last). A compressed chunk is decompressed
//! once for the frames fetched from it, not once a frame.

#[path = "support.rs"]
mod support;

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use rsbag::bag::Compression;
use rsbag::device::{StreamId, StreamKind};
use rsbag::playback::FrameReader;

const DEPTH: StreamId = StreamId::new(StreamKind::Depth, 0);
const GYRO: StreamId = StreamId::new(StreamKind::Gyro, 0);

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

fn compressed_frame_access(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = match std::env::var_os("RSBAG_BENCH_LZ4_BAG") {
        Some(path) => path.into(),
        None => {
            let path = dir.path().join("synthetic-lz4.bag");
            support::write_synthetic_bag(&path, 20, Compression::Lz4);
            path
        }
    };
    let reader = FrameReader::open(&path).expect("open");
    let count = reader.frame_count(GYRO).expect("gyro frames");
    let size = std::fs::metadata(&path).expect("size").len();
    eprintln!(
        "frame_access: {} ({} MB, {} chunks), {count} gyro frames",
        path.display(),
        size >> 20,
        reader.recording().bag().expect("a bag").chunks().len()
    );

    let mut group = c.benchmark_group("lz4_gyro");
    group.sample_size(10);
    group.throughput(Throughput::Elements(count));
    group.bench_function("every_frame_by_index", |b| {
        b.iter(|| {
            for k in 0..count {
                let frame = reader.frame(GYRO, k).expect("frame");
                black_box(frame.frame.number);
            }
        })
    });
    group.bench_function("every_frame_in_order", |b| {
        b.iter(|| {
            let frames = reader.select().streams([GYRO]).frames().expect("frames");
            for frame in frames {
                black_box(frame.expect("frame").frame.number);
            }
        })
    });
    group.finish();

    // One frame again and again: its chunk is the one read last.
    let mut group = c.benchmark_group("lz4_gyro_same_chunk");
    let k = count / 2;
    group.bench_function(BenchmarkId::from_parameter(k), |b| {
        b.iter(|| black_box(reader.frame(GYRO, k).expect("frame").frame.number))
    });
    group.finish();
}

criterion_group!(benches, frame_access, compressed_frame_access);
criterion_main!(benches);
