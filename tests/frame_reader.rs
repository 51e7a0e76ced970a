//! The frame reader: every recorded frame exactly once, in recorded order
//! (the frames librealsense plays), random access through the index equal
//! to iteration, gaps that never hang, and synchronized framesets.

use crate::common;

use common::planned::*;
use common::FrameLine;

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use rsbag::device::{StreamId, StreamKind};
use rsbag::playback::{Pipeline, PipelineConfig, PlaybackStatus};
use rsbag::realsense::convert::{ms_from_stamp, stamp_from_ms};
use rsbag::recording::{FrameReader, FrameSet, RecordedFrame, SyncOptions};
use rsbag::storage::bag::{Compression, WriterOptions};
use rsbag::{Error, ErrorKind};

// ---- comparing frames --------------------------------------------------------

/// Assert two frame lists are equal, naming the first difference.
fn assert_same(ours: &[FrameLine], theirs: &[FrameLine], what: &str) {
    for (i, (a, b)) in ours.iter().zip(theirs).enumerate() {
        assert_eq!(
            a, b,
            "{what}: frame {i} differs (rsbag left, librealsense right)"
        );
    }
    assert_eq!(ours.len(), theirs.len(), "{what}: frame counts differ");
}

fn key(f: &RecordedFrame) -> (StreamId, u64) {
    (f.stream, f.frame.number)
}

// ---- librealsense equality -----------------------------------------------------

#[test]
fn reads_exactly_what_librealsense_plays_from_its_own_bags_every_time() {
    for (bag, jsonl) in librealsense_bags() {
        let expected =
            FrameLine::parse_jsonl(&std::fs::read_to_string(&jsonl).expect("frames.jsonl"));
        assert!(expected.len() >= 6, "{}", jsonl.display());
        let mut first: Option<Vec<RecordedFrame>> = None;
        for run in 0..3 {
            let reader = FrameReader::open(&bag).expect("open");
            let frames = read_all(&reader);
            // Recorded order: bag times never go back.
            assert!(frames.windows(2).all(|w| w[0].bag_time <= w[1].bag_time));
            let ours = FrameLine::sorted_like_rs_play(
                frames.iter().map(|f| FrameLine::of(&f.frame)).collect(),
            );
            assert_same(&ours, &expected, &format!("{}, run {run}", bag.display()));
            match &first {
                None => first = Some(frames),
                Some(first) => assert_eq!(&frames, first, "{}: run {run} differs", bag.display()),
            }
        }
    }
}

#[test]
fn reads_exactly_what_librealsense_plays_from_rsbag_bags_with_gaps() {
    let dir = tempfile::tempdir().expect("tempdir");
    let plan = gap_plan();
    let mut bags = vec![
        temp_bag(
            dir.path(),
            "gaps-none.bag",
            &plan,
            WriterOptions::default()
                .compression(Compression::None)
                .chunk_threshold(4096),
        ),
        temp_bag(dir.path(), "gaps-lz4.bag", &plan, WriterOptions::default()),
    ];
    bags.push(common::sample("rsbag-synthetic-lz4.bag"));
    for bag in &bags {
        let path = bag.to_str().expect("path");
        let theirs = FrameLine::parse_jsonl(&common::python("rs_play.py", &[path]));
        for run in 0..2 {
            let reader = FrameReader::open(bag).expect("open");
            let ours: Vec<FrameLine> = read_all(&reader)
                .iter()
                .map(|f| FrameLine::of(&f.frame))
                .collect();
            assert_same(
                &FrameLine::sorted_like_rs_play(ours),
                &theirs,
                &format!("{path}, run {run}"),
            );
        }
    }
    // And exactly the planned frames, in recorded order, every time.
    for bag in &bags[..2] {
        for run in 0..3 {
            let reader = FrameReader::open(bag).expect("open");
            let frames = read_all(&reader);
            assert_eq!(frames.len(), plan.len(), "run {run}");
            for (got, want) in frames.iter().zip(&plan) {
                assert_eq!(got.frame.data, want.frame.data);
                // Timestamps go through a ROS time (s + ns), as in librealsense.
                let mut want_frame = want.frame.clone();
                want_frame.timestamp = ms_from_stamp(stamp_from_ms(want_frame.timestamp));
                assert_eq!(FrameLine::of(&got.frame), FrameLine::of(&want_frame));
                assert_eq!(got.bag_time.as_nanos(), want.at_ns.max(2));
            }
        }
        let reader = FrameReader::open(bag).expect("open");
        assert_eq!(reader.frame_count(DEPTH).expect("count"), 60);
        assert_eq!(reader.frame_count(COLOR).expect("count"), 45);
        assert_eq!(reader.frame_count(IR1).expect("count"), 1);
        assert_eq!(reader.frame_count(ACCEL).expect("count"), 560);
        let ir = reader.frame(IR1, 0).expect("the single infrared frame");
        assert_eq!(ir.frame.number, 1);
        assert!(matches!(
            reader.frame(IR1, 1),
            Err(Error::InvalidArgument(_))
        ));
        // Depth's missing second: the frame at 1.5 s is the first after it.
        let after = reader
            .frame_at_or_after(DEPTH, Duration::from_millis(1500))
            .expect("at or after")
            .expect("a frame");
        assert_eq!((after.index, after.frame.number), (30, 61));
        let nearest = reader
            .frame_nearest(DEPTH, Duration::from_millis(1100))
            .expect("nearest")
            .expect("a frame");
        assert_eq!(nearest.frame.number, 30);
        // Past the end of color.
        assert!(reader
            .frame_at_or_after(COLOR, Duration::from_secs(2))
            .expect("at or after")
            .is_none());
        assert_eq!(reader.frame_by_number(DEPTH, 45).expect("by number"), None);
        assert_eq!(
            reader
                .frame_by_number(DEPTH, 61)
                .expect("by number")
                .map(|f| f.index),
            Some(30)
        );
    }
}

#[test]
fn time_ranges_and_stream_choices_select_exactly_their_frames() {
    let dir = tempfile::tempdir().expect("tempdir");
    let plan = gap_plan();
    let bag = temp_bag(
        dir.path(),
        "gaps.bag",
        &plan,
        WriterOptions::default().chunk_threshold(8192),
    );
    let reader = FrameReader::open(&bag).expect("open");
    let all = read_all(&reader);
    let start = reader.recording().start_time();
    for (from_ms, to_ms) in [
        (0u64, 400u64),
        (900, 2100),
        (1480, 1520),
        (2000, 5000),
        (0, 0),
    ] {
        for streams in [
            vec![DEPTH],
            vec![COLOR, ACCEL],
            vec![IR1, DEPTH, COLOR, ACCEL],
        ] {
            let range = Duration::from_millis(from_ms)..Duration::from_millis(to_ms);
            let query = reader.select().streams(streams.clone()).time(range.clone());
            let counts = query.frame_counts().expect("counts");
            let got: Vec<RecordedFrame> = query
                .frames()
                .expect("frames")
                .collect::<Result<_, _>>()
                .expect("read");
            let want: Vec<&RecordedFrame> = all
                .iter()
                .filter(|f| streams.contains(&f.stream))
                .filter(|f| {
                    let t = f.bag_time - start;
                    t >= Duration::from_millis(from_ms) && t < Duration::from_millis(to_ms)
                })
                .collect();
            assert_eq!(got.len(), want.len(), "{from_ms}..{to_ms} {streams:?}");
            for (g, w) in got.iter().zip(&want) {
                // Same frame, same position in its stream.
                assert_eq!(g, *w);
            }
            for s in &streams {
                let n = want.iter().filter(|f| f.stream == *s).count() as u64;
                assert_eq!(counts[s], n, "{from_ms}..{to_ms} {s}");
            }
        }
    }
    // Unknown streams and names are errors.
    assert!(matches!(
        reader.select().streams([GYRO]).frames(),
        Err(Error::InvalidArgument(_))
    ));
    assert!(matches!(
        reader.frame_count(GYRO),
        Err(Error::InvalidArgument(_))
    ));
    assert_eq!(reader.find_streams("infrared 1").expect("ir"), vec![IR1]);
    assert_eq!(reader.find_streams("Infrared:1").expect("ir"), vec![IR1]);
    assert_eq!(reader.find_streams("Infrared").expect("ir"), vec![IR1]);
    assert!(reader.find_streams("Infrared 2").is_err());
    assert!(reader.find_streams("Sonar").is_err());
}

// ---- random access -------------------------------------------------------------

/// A long recording of small frames: depth and color at 30 fps.
fn long_plan(pairs: u64) -> Vec<Planned> {
    let mut plan = Vec::new();
    for n in 0..pairs {
        let t = 1000.0 + n as f64 * 33.333;
        let at = n * 33_333_333;
        plan.push(planned(DEPTH, 30, n + 1, t, at + 1_000));
        plan.push(planned(COLOR, 30, n + 1, t + 0.5, at + 1_000));
    }
    plan
}

fn check_random_access(reader: &FrameReader, by_number_every: usize) {
    let all = read_all(reader);
    let start = reader.recording().start_time();
    let mut per_stream: BTreeMap<StreamId, Vec<&RecordedFrame>> = BTreeMap::new();
    for f in &all {
        per_stream.entry(f.stream).or_default().push(f);
    }
    for (&stream, frames) in &per_stream {
        assert_eq!(
            reader.frame_count(stream).expect("count"),
            frames.len() as u64
        );
        for (k, &want) in frames.iter().enumerate() {
            assert_eq!(want.index, k as u64);
            let got = reader.frame(stream, k as u64).expect("frame k");
            assert_eq!(&got, want, "{stream} frame {k}");
            assert_eq!(
                reader.frame_bag_time(stream, k as u64).expect("time"),
                want.bag_time
            );
            let at = want.bag_time - start;
            let first_at = reader
                .frame_at_or_after(stream, at)
                .expect("at or after")
                .expect("a frame");
            assert_eq!(first_at.bag_time, want.bag_time);
            assert!(first_at.index <= k as u64);
            if k % by_number_every == 0 {
                let found = reader
                    .frame_by_number(stream, want.frame.number)
                    .expect("by number")
                    .expect("found");
                assert_eq!(&found, want);
            }
        }
        assert!(matches!(
            reader.frame(stream, frames.len() as u64),
            Err(Error::InvalidArgument(_))
        ));
    }
}

#[test]
fn random_access_equals_iteration_for_every_frame_of_a_long_recording() {
    let dir = tempfile::tempdir().expect("tempdir");
    let plan = long_plan(1500);
    // Small uncompressed chunks (hundreds of them) and default lz4 ones.
    let none = temp_bag(
        dir.path(),
        "long-none.bag",
        &plan,
        WriterOptions::default()
            .compression(Compression::None)
            .chunk_threshold(8 << 10),
    );
    let lz4 = temp_bag(
        dir.path(),
        "long-lz4.bag",
        &plan,
        WriterOptions::default().chunk_threshold(64 << 10),
    );
    for (bag, by_number_every) in [(&none, 5), (&lz4, 25)] {
        let reader = FrameReader::open(bag).expect("open");
        assert!(reader.recording().bag().expect("a bag").chunks().len() > 3);
        check_random_access(&reader, by_number_every);
        // Nearest: halfway between frames 100 and 101 of depth goes to 100.
        let t100 = reader.frame_bag_time(DEPTH, 100).expect("t");
        let t101 = reader.frame_bag_time(DEPTH, 101).expect("t");
        let start = reader.recording().start_time();
        let mid = (t100 - start) + (t101 - t100) / 2;
        let nearest = reader
            .frame_nearest(DEPTH, mid)
            .expect("nearest")
            .expect("frame");
        assert_eq!(nearest.index, 100);
        let later = reader
            .frame_nearest(DEPTH, mid + Duration::from_millis(2))
            .expect("nearest")
            .expect("frame");
        assert_eq!(later.index, 101);
        assert_eq!(reader.frames_before(DEPTH, mid).expect("before"), 101);
    }
    // Uncompressed: frames borrow their pixels from the mapped file.
    let reader = FrameReader::open(&none).expect("open");
    let frame = reader.frame(DEPTH, 1234).expect("frame");
    assert_eq!(frame.frame.number, 1235);
    let bag = reader.recording().bag().expect("a bag");
    let pixels = frame.frame.data.as_ptr() as usize;
    let in_file = bag.chunks().iter().any(|chunk| {
        let data = bag.chunk_data(chunk).expect("chunk data");
        let start = data.as_ptr() as usize;
        (start..start + data.len()).contains(&pixels)
    });
    assert!(in_file, "the pixels are not the file's bytes");
}

#[test]
fn random_access_equals_iteration_when_chunks_overlap_in_time() {
    // Depth written out of time order (even frames, then odd ones): its
    // chunks overlap, and the reader must order by bag time all the same.
    let mut plan = long_plan(300);
    let (depth, color): (Vec<Planned>, Vec<Planned>) = plan
        .drain(..)
        .partition(|p| p.frame.profile.stream == DEPTH);
    let (even, odd): (Vec<Planned>, Vec<Planned>) =
        depth.into_iter().partition(|p| p.frame.number % 2 == 1);
    let plan: Vec<Planned> = color.into_iter().chain(even).chain(odd).collect();
    let dir = tempfile::tempdir().expect("tempdir");
    let bag = temp_bag(
        dir.path(),
        "overlap.bag",
        &plan,
        WriterOptions::default()
            .compression(Compression::None)
            .chunk_threshold(4 << 10),
    );
    let reader = FrameReader::open(&bag).expect("open");
    let depth: Vec<u64> = read_all(&reader)
        .iter()
        .filter(|f| f.stream == DEPTH)
        .map(|f| f.frame.number)
        .collect();
    assert_eq!(depth, (1..=300).collect::<Vec<u64>>());
    check_random_access(&reader, 3);
}

/// Every frame of every stream fetched by index in a scrambled order, from
/// several threads sharing the reader, equals (pixels and all) the frame
/// iteration in order gives: frames fetched one after another come from
/// the cache of the chunks decompressed last, iteration decompresses every
/// chunk itself. The frames fetched are all held until the end, so that a
/// buffer let go by the cache and reused cannot have changed them.
#[test]
fn random_access_from_recent_chunks_equals_iteration_for_every_frame() {
    let dir = tempfile::tempdir().expect("tempdir");
    // Small LZ4 chunks: a few dozen, each with a little of every stream.
    let bag = temp_bag(
        dir.path(),
        "imu-lz4.bag",
        &imu_plan(),
        WriterOptions::default()
            .compression(Compression::Lz4)
            .chunk_threshold(4 << 10),
    );
    let reader = FrameReader::open(&bag).expect("open");
    let chunks = reader.recording().bag().expect("a bag").chunks().len();
    assert!(chunks > 20, "{chunks} chunks");
    let all = read_all(&reader);
    let in_order: BTreeMap<(StreamId, u64), &RecordedFrame> =
        all.iter().map(|f| ((f.stream, f.index), f)).collect();
    let mut wanted: Vec<(StreamId, u64)> = in_order.keys().copied().collect();
    // Each stream by index in order (a chunk serves many frames in turn),
    // then every frame in a scrambled order (a chunk decompressed again
    // and again, or kept), on each of three threads at once.
    let by_index = wanted.clone();
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    for i in (1..wanted.len()).rev() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        wanted.swap(i, (state % (i as u64 + 1)) as usize);
    }
    let orders = [by_index, wanted.clone(), wanted.into_iter().rev().collect()];
    std::thread::scope(|scope| {
        let threads: Vec<_> = orders
            .iter()
            .map(|order| {
                let reader = &reader;
                scope.spawn(move || {
                    order
                        .iter()
                        .map(|&(stream, k)| reader.frame(stream, k).expect("frame"))
                        .collect::<Vec<RecordedFrame>>()
                })
            })
            .collect();
        for (order, thread) in orders.iter().zip(threads) {
            let fetched = thread.join().expect("thread");
            assert_eq!(fetched.len(), all.len());
            for (&(stream, k), got) in order.iter().zip(&fetched) {
                assert_eq!(got, in_order[&(stream, k)], "{stream} frame {k}");
            }
        }
    });
}

// ---- framesets -------------------------------------------------------------------

fn is_video(stream: StreamId) -> bool {
    !matches!(
        stream.kind,
        StreamKind::Accel | StreamKind::Gyro | StreamKind::Pose
    )
}

/// What every frameset sequence must satisfy: each frame exactly once,
/// video frames within the tolerance of the frameset's timestamp, in
/// order, and each IMU sample with the nearest frameset.
fn check_framesets(sets: &[FrameSet<RecordedFrame>], all: &[RecordedFrame], tol_ms: f64) {
    let mut seen: Vec<(StreamId, u64)> = sets
        .iter()
        .flat_map(|s| s.frames().iter().map(|f| (f.stream, f.index)))
        .collect();
    let mut want: Vec<(StreamId, u64)> = all.iter().map(|f| (f.stream, f.index)).collect();
    seen.sort_unstable();
    want.sort_unstable();
    assert_eq!(seen, want, "every frame exactly once");
    let anchors: Vec<f64> = sets
        .iter()
        .filter(|s| s.frames().iter().any(|f| is_video(f.stream)))
        .map(|s| s.timestamp())
        .collect();
    assert!(
        anchors.windows(2).all(|w| w[0] <= w[1]),
        "framesets in order"
    );
    for set in sets {
        assert!(!set.is_empty());
        let video: Vec<&RecordedFrame> =
            set.frames().iter().filter(|f| is_video(f.stream)).collect();
        let streams: BTreeSet<StreamId> = video.iter().map(|f| f.stream).collect();
        assert_eq!(streams.len(), video.len(), "one frame per video stream");
        for f in &video {
            assert!((f.frame.timestamp - set.timestamp()).abs() < tol_ms);
        }
        if video.is_empty() {
            continue;
        }
        for f in set.frames().iter().filter(|f| !is_video(f.stream)) {
            let ts = f.frame.timestamp;
            let mine = (ts - set.timestamp()).abs();
            let best = anchors
                .iter()
                .map(|a| (ts - a).abs())
                .fold(f64::INFINITY, f64::min);
            assert!(
                mine <= best + 1e-9,
                "sample at {ts} in frameset at {}",
                set.timestamp()
            );
        }
    }
}

fn reader_framesets(reader: &FrameReader) -> Vec<FrameSet<RecordedFrame>> {
    reader
        .framesets()
        .expect("framesets")
        .collect::<Result<_, _>>()
        .expect("read")
}

#[test]
fn framesets_pair_depth_and_color_and_attach_imu_samples() {
    let dir = tempfile::tempdir().expect("tempdir");
    let plan = imu_plan();
    let bag = temp_bag(dir.path(), "imu.bag", &plan, WriterOptions::default());
    let reader = FrameReader::open(&bag).expect("open");
    let all = read_all(&reader);
    assert_eq!(all.len(), plan.len());
    // Matched pairs, computed from what was written: a depth and a color
    // frame of the same capture whose timestamps are within 1/60 s.
    let depth: BTreeMap<u64, f64> = plan
        .iter()
        .filter(|p| p.frame.profile.stream == DEPTH)
        .map(|p| (p.frame.number, p.frame.timestamp))
        .collect();
    let color: BTreeMap<u64, f64> = plan
        .iter()
        .filter(|p| p.frame.profile.stream == COLOR)
        .map(|p| (p.frame.number, p.frame.timestamp))
        .collect();
    let pairs: BTreeSet<(u64, u64)> = depth
        .iter()
        .flat_map(|(&dn, &dt)| {
            color
                .iter()
                .filter(move |(_, &ct)| (ct - dt).abs() < 500.0 / 30.0)
                .map(move |(&cn, _)| (dn, cn))
        })
        .collect();
    let expected_pairs = VIDEO_FRAMES as usize - {
        let mut dropped: BTreeSet<u64> = DEPTH_DROPS.into_iter().collect();
        dropped.extend(COLOR_DROPS);
        dropped.len()
    };
    assert_eq!(pairs.len(), expected_pairs);

    let mut first: Option<Vec<FrameSet<RecordedFrame>>> = None;
    for run in 0..3 {
        let sets = reader_framesets(&reader);
        check_framesets(&sets, &all, 500.0 / 30.0);
        let got_pairs: BTreeSet<(u64, u64)> = sets
            .iter()
            .filter_map(|s| Some((s.depth()?.frame.number, s.color()?.frame.number)))
            .collect();
        assert_eq!(got_pairs, pairs, "run {run}");
        let with_both = sets
            .iter()
            .filter(|s| s.depth().is_some() && s.color().is_some())
            .count();
        assert_eq!(with_both, expected_pairs);
        // Every video frame without a partner is alone, none lost.
        let video_sets = sets
            .iter()
            .filter(|s| s.depth().is_some() || s.color().is_some())
            .count();
        assert_eq!(video_sets, depth.len() + color.len() - expected_pairs);
        // No IMU sample is more than half a frame from its frameset here.
        assert_eq!(sets.len(), video_sets);
        match &first {
            None => first = Some(sets),
            Some(first) => assert_eq!(&sets, first, "run {run}"),
        }
    }

    // Only complete framesets.
    let options = SyncOptions {
        complete_only: true,
        ..SyncOptions::default()
    };
    let complete: Vec<FrameSet<RecordedFrame>> = reader
        .select()
        .framesets(options)
        .expect("framesets")
        .collect::<Result<_, _>>()
        .expect("read");
    assert_eq!(complete.len(), expected_pairs);

    // The pipeline on the playback device gives the same framesets.
    let pipeline = Pipeline::open(&bag).expect("pipeline");
    let mut from_pipeline = Vec::new();
    while let Some(set) = pipeline
        .try_wait_for_frames(Duration::from_secs(10))
        .expect("no timeout")
    {
        from_pipeline.push(set);
    }
    assert!(pipeline.is_finished());
    let ended = pipeline
        .wait_for_frames(Duration::from_millis(10))
        .expect_err("the end");
    assert!(matches!(ended, Error::Ended), "{ended}");
    assert_eq!(ended.kind(), ErrorKind::Ended);
    assert!(ended.io_error().is_none());
    let keys_of = |sets: Vec<Vec<(StreamId, u64)>>| sets;
    let ours = keys_of(
        first
            .expect("framesets")
            .iter()
            .map(|s| s.frames().iter().map(key).collect())
            .collect(),
    );
    let theirs = keys_of(
        from_pipeline
            .iter()
            .map(|s| {
                s.frames()
                    .iter()
                    .map(|f| (f.profile.stream, f.number))
                    .collect()
            })
            .collect(),
    );
    assert_eq!(theirs, ours);
}

#[test]
fn framesets_never_hang_on_gaps_and_end_with_every_frame() {
    let dir = tempfile::tempdir().expect("tempdir");
    let plan = gap_plan();
    let bag = temp_bag(dir.path(), "gaps.bag", &plan, WriterOptions::default());
    let reader = FrameReader::open(&bag).expect("open");
    let all = read_all(&reader);
    let sets = reader_framesets(&reader);
    check_framesets(&sets, &all, 500.0 / 30.0);
    // Independently: depth and color of the same capture pair up wherever
    // both exist; the infrared frame joins its capture's frameset.
    let pairs = (0..90u64)
        .filter(|n| !(30..60).contains(n) && *n < 45)
        .count();
    let both = sets
        .iter()
        .filter(|s| s.depth().is_some() && s.color().is_some())
        .count();
    assert_eq!(both, pairs);
    let ir = sets
        .iter()
        .find(|s| s.contains(IR1))
        .expect("the infrared frame");
    assert_eq!(ir.depth().map(|f| f.frame.number), Some(11));
    assert_eq!(ir.color().map(|f| f.frame.number), Some(11));
    // No accel sample is alone: in depth's missing second color still runs,
    // and after color stops the next depth frame is 0.53 s later, so every
    // sample is well within the window of a frameset.
    assert!(sets
        .iter()
        .all(|s| s.frames().iter().any(|f| is_video(f.stream))));

    // Only accel and a stream that stopped early.
    let sets: Vec<FrameSet<RecordedFrame>> = reader
        .select()
        .streams([COLOR, ACCEL])
        .framesets(SyncOptions::default())
        .expect("framesets")
        .collect::<Result<_, _>>()
        .expect("read");
    let want: Vec<RecordedFrame> = all
        .iter()
        .filter(|f| f.stream == COLOR || f.stream == ACCEL)
        .cloned()
        .collect();
    check_framesets(&sets, &want, 500.0 / 30.0);
    // Color ends at 1.5 s: accel samples more than a second later come alone.
    let alone = sets.iter().filter(|s| s.color().is_none()).count();
    let late = want
        .iter()
        .filter(|f| f.stream == ACCEL && f.frame.timestamp > 1000.0 + 44.0 * 33.333 + 0.4 + 1000.0)
        .count();
    assert_eq!(alone, late);

    // A time range with no color at all, and the single infrared frame.
    for streams in [vec![COLOR, DEPTH], vec![IR1]] {
        let sets: Vec<FrameSet<RecordedFrame>> = reader
            .select()
            .streams(streams.clone())
            .time(Duration::from_millis(2000)..)
            .framesets(SyncOptions::default())
            .expect("framesets")
            .collect::<Result<_, _>>()
            .expect("read");
        let n = all
            .iter()
            .filter(|f| streams.contains(&f.stream))
            .filter(|f| f.time >= Duration::from_millis(2000))
            .count();
        assert_eq!(sets.len(), n);
    }

    // The pipeline ends too, with every frame.
    let pipeline = Pipeline::open_with(&bag, PipelineConfig::default()).expect("pipeline");
    let mut frames = 0;
    while let Some(set) = pipeline
        .try_wait_for_frames(Duration::from_secs(10))
        .expect("no timeout")
    {
        frames += set.len();
    }
    assert_eq!(frames, all.len());
}

#[test]
fn framesets_of_bags_written_by_librealsense_and_by_the_recorder() {
    for (bag, tol) in [
        (common::sample("librealsense-motion-lz4.bag"), 500.0 / 30.0),
        (common::sample("librealsense-stereo-none.bag"), 500.0 / 15.0),
        (common::sample("rsbag-synthetic-lz4.bag"), 500.0 / 30.0),
    ] {
        let reader = FrameReader::open(&bag).expect("open");
        let all = read_all(&reader);
        let sets = reader_framesets(&reader);
        check_framesets(&sets, &all, tol);
        // Here every video stream has the same timestamps: all complete.
        let video: BTreeSet<StreamId> = reader
            .streams()
            .into_iter()
            .filter(|s| is_video(*s))
            .collect();
        let captures = all
            .iter()
            .filter(|f| is_video(f.stream))
            .map(|f| f.frame.timestamp.to_bits())
            .collect::<BTreeSet<_>>()
            .len();
        assert_eq!(sets.len(), captures, "{}", bag.display());
        for set in &sets {
            let streams: BTreeSet<StreamId> =
                set.streams().into_iter().filter(|s| is_video(*s)).collect();
            assert_eq!(streams, video, "{}", bag.display());
        }
    }
}

#[test]
fn a_paused_pipeline_times_out_and_an_ended_one_says_so() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bag = temp_bag(
        dir.path(),
        "long.bag",
        &long_plan(300),
        WriterOptions::default(),
    );
    let pipeline = Pipeline::open(&bag).expect("pipeline");
    pipeline.playback().pause();
    // What was under way when it paused still comes, then nothing.
    let mut taken = 0;
    let timeout = Duration::from_millis(100);
    let timed_out = loop {
        match pipeline.wait_for_frames(timeout) {
            Ok(_) => taken += 1,
            Err(e) => break e,
        }
        assert!(taken < 300, "the paused pipeline delivered everything");
    };
    assert!(
        matches!(timed_out, Error::Timeout(t) if t == timeout),
        "{timed_out}"
    );
    assert_eq!(timed_out.kind(), ErrorKind::Timeout);
    assert!(timed_out.io_error().is_none());
    assert_eq!(timed_out.to_string(), "no frameset arrived within 100 ms");
    let timed_out = pipeline.try_wait_for_frames(timeout).expect_err("paused");
    assert_eq!(timed_out.kind(), ErrorKind::Timeout);

    // Resumed, it delivers the rest, then reports the end (each time).
    pipeline.playback().resume();
    while let Some(_set) = pipeline
        .try_wait_for_frames(Duration::from_secs(10))
        .expect("no timeout")
    {
        taken += 1;
    }
    assert_eq!(taken, 300);
    for _ in 0..2 {
        let ended = pipeline.wait_for_frames(timeout).expect_err("the end");
        assert!(matches!(ended, Error::Ended), "{ended}");
        assert_eq!(ended.kind(), ErrorKind::Ended);
        assert_eq!(
            ended.to_string(),
            "the recording has ended: no more framesets"
        );
    }
    assert!(pipeline
        .try_wait_for_frames(timeout)
        .expect("the end")
        .is_none());

    // So does a stopped pipeline.
    let stopped = Pipeline::open(&bag).expect("pipeline");
    stopped.stop();
    assert_eq!(
        stopped
            .wait_for_frames(timeout)
            .map(|_| ())
            .expect_err("stopped")
            .kind(),
        ErrorKind::Ended
    );
}

/// The status follows librealsense's pipeline over a file: playing (or
/// paused) until every frameset was taken, although the playback's reader
/// has read the whole of a short file long before; stopped after that.
#[test]
fn a_pipeline_plays_until_every_frameset_was_taken() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bag = temp_bag(
        dir.path(),
        "short.bag",
        &long_plan(12),
        WriterOptions::default(),
    );
    let pipeline = Pipeline::open(&bag).expect("pipeline");
    let timeout = Duration::from_secs(10);
    pipeline
        .wait_for_frames(timeout)
        .expect("the first frameset");
    // The reader has reached the end (the queues hold all 12 pairs).
    let deadline = std::time::Instant::now() + timeout;
    while pipeline.playback().status() != PlaybackStatus::Stopped {
        assert!(
            std::time::Instant::now() < deadline,
            "the reader never reached the end"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(pipeline.status(), PlaybackStatus::Playing);
    pipeline.playback().pause();
    assert_eq!(pipeline.status(), PlaybackStatus::Paused);
    pipeline.playback().resume();
    let mut taken = 1;
    while pipeline
        .try_wait_for_frames(timeout)
        .expect("no timeout")
        .is_some()
    {
        taken += 1;
        if taken < 12 {
            assert_eq!(pipeline.status(), PlaybackStatus::Playing, "after {taken}");
        }
    }
    assert_eq!(taken, 12);
    assert_eq!(pipeline.status(), PlaybackStatus::Stopped);

    let stopped = Pipeline::open(&bag).expect("pipeline");
    assert_eq!(stopped.status(), PlaybackStatus::Playing);
    stopped.stop();
    assert_eq!(stopped.status(), PlaybackStatus::Stopped);
}

#[test]
fn pipeline_polls_seeks_and_stops() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bag = temp_bag(
        dir.path(),
        "long.bag",
        &long_plan(300),
        WriterOptions::default(),
    );
    let config = PipelineConfig {
        streams: Some(vec![DEPTH, COLOR]),
        ..PipelineConfig::default()
    };
    let pipeline = Pipeline::open_with(&bag, config).expect("pipeline");
    let first = pipeline
        .wait_for_frames(Duration::from_secs(10))
        .expect("first");
    assert_eq!(first.depth().map(|f| f.number), Some(1));
    pipeline.seek(Duration::from_secs(5)).expect("seek");
    let after = pipeline
        .wait_for_frames(Duration::from_secs(10))
        .expect("after seek");
    let depth = after.depth().expect("depth").number;
    let reader = FrameReader::open(&bag).expect("open");
    let expected = reader
        .frame_at_or_after(DEPTH, Duration::from_secs(5))
        .expect("at or after")
        .expect("a frame");
    assert_eq!(depth, expected.frame.number, "the first frame 5 s in");
    assert_eq!(after.color().map(|f| f.number), Some(depth));
    let mut polled = 0;
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while !pipeline.is_finished() && std::time::Instant::now() < deadline {
        match pipeline.poll_for_frames() {
            Some(set) => {
                assert_eq!(set.depth().map(|f| f.number), set.color().map(|f| f.number));
                polled += 1;
            }
            None => std::thread::sleep(Duration::from_millis(1)),
        }
    }
    assert_eq!(polled, 300 - depth);
    pipeline.stop();
    assert!(pipeline.poll_for_frames().is_none());

    let unknown = PipelineConfig {
        streams: Some(vec![GYRO]),
        ..PipelineConfig::default()
    };
    assert!(matches!(
        Pipeline::open_with(&bag, unknown),
        Err(Error::InvalidArgument(_))
    ));
}

/// The metadata librealsense 2.55 recorded is named as librealsense names
/// it, so every key read borrows rsbag's table of those names (no
/// allocation per key of every frame) and none is copied.
#[test]
fn metadata_librealsense_recorded_borrows_its_names() {
    let mut keys = BTreeSet::new();
    for name in [
        "librealsense-metadata-lz4.bag",
        "librealsense-depth-color-lz4.bag",
        "librealsense-motion-lz4.bag",
    ] {
        let reader = FrameReader::open(format!("sample_bags/{name}")).expect("open");
        for frame in reader.frames().expect("frames") {
            for (key, _) in &frame.expect("frame").frame.metadata {
                assert!(
                    matches!(key, std::borrow::Cow::Borrowed(_)),
                    "{name}: {key:?} is not one of librealsense's names"
                );
                keys.insert(key.to_string());
            }
        }
    }
    // The metadata recording sets several values of its own.
    assert!(keys.len() >= 5, "{keys:?}");
}

/// Columns hold, frame by frame, what the frames hold, for every stream of
/// the sample recordings and over a time range; more than one stream is an
/// error.
#[test]
fn columns_hold_what_the_frames_hold() {
    let mut refused = 0;
    for name in [
        "librealsense-motion-lz4.bag",
        "librealsense-metadata-lz4.bag",
        "rsbag-synthetic-lz4.bag",
    ] {
        let reader = FrameReader::open(format!("sample_bags/{name}")).expect("open");
        for stream in reader.streams() {
            let range = reader.duration() / 5..reader.duration() * 4 / 5;
            let query = || reader.select().streams([stream]).time(range.clone());
            let frames: Vec<RecordedFrame> = (query().frames().expect("frames"))
                .map(|f| f.expect("frame"))
                .collect();
            let columns = query().columns().expect("columns");
            assert!(!frames.is_empty(), "{name} {stream}");
            assert_eq!(columns.len(), frames.len(), "{name} {stream}");
            for (row, f) in frames.iter().enumerate() {
                assert_eq!(columns.index[row], f.index);
                assert_eq!(columns.number[row], f.frame.number);
                assert_eq!(columns.timestamp[row], f.frame.timestamp);
                assert_eq!(columns.domain[row], f.frame.domain);
                assert_eq!(columns.system_time[row], f.frame.system_time);
                assert_eq!(columns.time[row], f.time.as_secs_f64());
                for column in &columns.metadata {
                    let present = column.present.as_ref().is_none_or(|p| p[row]);
                    let value = present.then_some(column.values[row]);
                    assert_eq!(value, f.frame.metadata(&column.name), "{name} {stream}");
                }
                if let Some(rsbag::recording::Samples::Xyz(samples)) = &columns.samples {
                    assert_eq!(Some(samples[row]), f.frame.motion());
                }
            }
            let keys: BTreeSet<&str> = (frames.iter())
                .flat_map(|f| f.frame.metadata.iter().map(|(k, _)| k.as_ref()))
                .collect();
            let ours: BTreeSet<&str> = columns.metadata.iter().map(|c| c.name.as_str()).collect();
            assert_eq!(ours, keys, "{name} {stream}");
        }
        if reader.streams().len() > 1 {
            let several = reader.select().streams(reader.streams()).columns();
            assert!(matches!(several, Err(Error::InvalidArgument(_))), "{name}");
            refused += 1;
        }
    }
    assert!(refused > 0, "no recording with several streams was tried");
}
