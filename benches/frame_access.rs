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
//! once for the frames fetched from it, not once a frame. Then every gyro
//! frame's sample, numbers and metadata as columns in one call, and rounds
//! of reading by index and in order alternately, whose per-round ratio is
//! printed as a median with its spread (`RSBAG_BENCH_ROUNDS`, 9).

#[path = "support.rs"]
mod support;

use std::hint::black_box;
use std::time::Instant;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use rsbag::device::{StreamId, StreamKind};
use rsbag::recording::FrameReader;
use rsbag::storage::bag::Compression;

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
    let mut ks = vec![0, frames / 4, frames / 2, frames * 3 / 4, frames - 1];
    ks.dedup();

    // One reader, frames fetched again and again.
    let reader = FrameReader::open(&path).expect("open");
    let mut group = c.benchmark_group("fetch_frame_k");
    for &k in &ks {
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
    for &k in &ks {
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

    // Every gyro sample with its numbers and metadata in one call.
    let mut group = c.benchmark_group("lz4_gyro_columns");
    group.sample_size(10);
    group.throughput(Throughput::Elements(count));
    group.bench_function("every_frame", |b| {
        b.iter(|| {
            black_box(
                reader
                    .select()
                    .streams([GYRO])
                    .columns()
                    .expect("columns")
                    .len(),
            )
        })
    });
    group.finish();

    by_index_against_in_order(&reader, count);
}

/// Rounds of reading every gyro frame by index and in order, alternately
/// (the machine is shared: each round's ratio is taken within the round),
/// and of one frame of the chunk read last: prints the medians with their
/// spread.
fn by_index_against_in_order(reader: &FrameReader, count: u64) {
    let rounds: usize = std::env::var("RSBAG_BENCH_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(9)
        .max(1);
    let per_frame =
        |start: Instant, frames: u64| start.elapsed().as_secs_f64() * 1e6 / frames as f64;
    let (mut by_index, mut in_order, mut ratio, mut same_chunk) = (vec![], vec![], vec![], vec![]);
    for _ in 0..rounds {
        let start = Instant::now();
        for k in 0..count {
            black_box(reader.frame(GYRO, k).expect("frame").frame.number);
        }
        let indexed = per_frame(start, count);
        let start = Instant::now();
        let frames = reader.select().streams([GYRO]).frames().expect("frames");
        for frame in frames {
            black_box(frame.expect("frame").frame.number);
        }
        let ordered = per_frame(start, count);
        let k = count / 2;
        black_box(reader.frame(GYRO, k).expect("frame"));
        const REPEATS: u64 = 200;
        let start = Instant::now();
        for _ in 0..REPEATS {
            black_box(reader.frame(GYRO, k).expect("frame").frame.number);
        }
        same_chunk.push(per_frame(start, REPEATS));
        by_index.push(indexed);
        in_order.push(ordered);
        ratio.push(indexed / ordered);
    }
    let spread = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        (v[v.len() / 2], v[0], v[v.len() - 1])
    };
    let (i, i0, i1) = spread(&mut by_index);
    let (o, o0, o1) = spread(&mut in_order);
    let (r, r0, r1) = spread(&mut ratio);
    let (s, s0, s1) = spread(&mut same_chunk);
    eprintln!(
        "lz4_gyro, {rounds} rounds (median, min-max): by index {i:.1} us/frame ({i0:.1}-{i1:.1}), \
         in order {o:.1} us/frame ({o0:.1}-{o1:.1}), by index / in order {r:.2}x ({r0:.2}-{r1:.2}); \
         a frame of the chunk read last {s:.2} us ({s0:.2}-{s1:.2})"
    );
}

/// Every gyro sample of an IMU-only LZ4 recording (the synthetic camera's
/// accel and gyro, 60 s) as columns, against the same frames read one by
/// one: samples a second.
fn imu_columns(c: &mut Criterion) {
    use rsbag::device::synthetic;
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("imu-lz4.bag");
    let streams = [synthetic::ACCEL, synthetic::GYRO];
    support::write_synthetic_streams(&path, 60, Compression::Lz4, &streams);
    let reader = FrameReader::open(&path).expect("open");
    let count = reader.frame_count(GYRO).expect("gyro frames");
    let mut group = c.benchmark_group("lz4_imu_only_gyro");
    group.sample_size(20);
    group.throughput(Throughput::Elements(count));
    group.bench_function("columns", |b| {
        b.iter(|| {
            black_box(
                reader
                    .select()
                    .streams([GYRO])
                    .columns()
                    .expect("columns")
                    .len(),
            )
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
}

criterion_group!(benches, frame_access, compressed_frame_access, imu_columns);
criterion_main!(benches);
