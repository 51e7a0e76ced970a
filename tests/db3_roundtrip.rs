//! `.bag` → `.db3` → `.bag` through the library: every frame, option
//! change, notification and the description survive, frames read by index
//! the same from either, and a `.db3` without the `tf/ref_N` strings takes
//! its extrinsics from `/tf_static`.

use crate::common;

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rsbag::device::Device;
use rsbag::device::{StreamId, StreamKind};
use rsbag::playback::{Playback, PlaybackOptions};
use rsbag::recording::{Event, FrameReader, Recording, TimedEvent};
use rsbag::storage::bag::Compression;
use rsbag::storage::FileFormat;

fn events(path: &Path) -> Vec<TimedEvent> {
    Recording::open(path)
        .expect("open")
        .events(..)
        .collect::<rsbag::Result<_>>()
        .expect("events")
}

#[test]
fn every_event_survives_bag_to_db3_to_bag() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bag = dir.path().join("source.bag");
    common::rs::write(&bag, 20, Compression::Lz4);
    let db3 = common::convert(&bag, dir.path().join("copy.db3"), FileFormat::Db3);
    let back = common::convert(&db3, dir.path().join("back.bag"), FileFormat::Bag);
    let original = events(&bag);
    assert!(original
        .iter()
        .any(|e| matches!(e.event, Event::OptionChanged { .. })));
    assert!(original
        .iter()
        .any(|e| matches!(e.event, Event::Notification { .. })));
    assert_eq!(events(&db3), original);
    assert_eq!(events(&back), original);
    let (a, b) = (
        Recording::open(&bag).expect("bag"),
        Recording::open(&db3).expect("db3"),
    );
    // The same device, but that a sensor without options gets Frames Queue
    // Size in a .db3 (librealsense 2.59 crashes on a sensor without); a
    // .db3 holds an option's value, not its range (read back read-only).
    let mut expected = a.snapshot().clone();
    for sensor in expected.sensors.iter_mut().filter(|s| s.options.is_empty()) {
        sensor.options.push(rsbag::device::SensorOption {
            range: rsbag::device::OptionRange::fixed(16.0),
            read_only: true,
            ..rsbag::device::SensorOption::frames_queue_size()
        });
    }
    assert_ne!(
        &expected,
        a.snapshot(),
        "the test has a sensor without options"
    );
    assert_eq!(b.snapshot(), &expected);
    for from in a.streams().keys() {
        for to in a.streams().keys() {
            assert_eq!(
                b.extrinsics(*from, *to),
                a.extrinsics(*from, *to),
                "{from} -> {to}"
            );
        }
    }
    // Frames by index, by number and by time, from either file.
    let (ours, theirs) = (
        FrameReader::open(&db3).expect("db3"),
        FrameReader::open(&bag).expect("bag"),
    );
    for stream in theirs.streams() {
        let count = theirs.frame_count(stream).expect("count");
        assert_eq!(ours.frame_count(stream).expect("count"), count);
        for k in [0, count / 2, count - 1] {
            let want = theirs.frame(stream, k).expect("frame");
            assert_eq!(ours.frame(stream, k).expect("frame"), want);
            let by_number = ours
                .frame_by_number(stream, want.frame.number)
                .expect("number");
            assert_eq!(by_number.expect("found").index, k);
        }
    }
}

#[test]
fn tf_static_gives_the_extrinsics_when_the_strings_are_missing() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bag = common::sample("librealsense-stereo-none.bag");
    let db3 = common::convert(&bag, dir.path().join("stereo.db3"), FileFormat::Db3);
    let db = rusqlite::Connection::open(&db3).expect("sqlite");
    let removed = db
        .execute(
            "DELETE FROM messages WHERE topic_id IN (SELECT id FROM topics WHERE name LIKE '%/tf/ref_%')",
            [],
        )
        .expect("delete");
    assert_eq!(removed, 3);
    drop(db);
    let (a, b) = (
        Recording::open(&bag).expect("bag"),
        Recording::open(&db3).expect("db3"),
    );
    let ir = |i| StreamId::new(StreamKind::Infrared, i);
    let depth = StreamId::new(StreamKind::Depth, 0);
    for (from, to) in [(depth, ir(1)), (ir(1), ir(2)), (ir(2), depth)] {
        let (want, got) = (
            a.extrinsics(from, to).expect("bag"),
            b.extrinsics(from, to).expect("tf"),
        );
        for (x, y) in want.rotation.iter().zip(&got.rotation) {
            assert!((x - y).abs() < 1e-6, "{from} -> {to}: {want:?} vs {got:?}");
        }
        for (x, y) in want.translation.iter().zip(&got.translation) {
            assert!((x - y).abs() < 1e-6, "{from} -> {to}: {want:?} vs {got:?}");
        }
    }
}

/// Every sensor of `playback` started (while paused) with a callback that
/// logs the frames.
fn start_logging(playback: &Playback) -> Arc<Mutex<Vec<rsbag::device::Frame>>> {
    playback.pause();
    let log = Arc::new(Mutex::new(Vec::new()));
    for sensor in playback.sensors() {
        sensor.open(&sensor.profiles()).expect("open");
        let log = log.clone();
        sensor
            .start(Arc::new(move |f| log.lock().expect("log").push(f)))
            .expect("start");
    }
    log
}

#[test]
fn the_playback_device_plays_a_db3_every_frame_once_and_seeks_right() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bag = dir.path().join("source.bag");
    common::rs::write(&bag, 60, Compression::Lz4);
    let db3 = common::convert(&bag, dir.path().join("copy.db3"), FileFormat::Db3);
    let reader = FrameReader::open(&bag).expect("bag");
    let key = |f: &rsbag::device::Frame| (f.profile.stream, f.number, f.data.clone());
    let mut want: Vec<_> = reader
        .frames()
        .expect("frames")
        .map(|f| key(&f.expect("frame").frame))
        .collect();
    want.sort();
    let options = PlaybackOptions {
        real_time: false,
        ..PlaybackOptions::default()
    };
    let playback = Playback::with_options(&db3, options).expect("open");
    let log = start_logging(&playback);
    playback.resume();
    assert!(playback.wait_until_stopped(Duration::from_secs(30)));
    let mut got: Vec<_> = log.lock().expect("log").iter().map(key).collect();
    got.sort();
    assert_eq!(got, want);
    // A seek while paused: each stream resumes at its first frame at or
    // after the time.
    for t in [
        Duration::ZERO,
        Duration::from_millis(700),
        Duration::from_millis(1500),
    ] {
        let playback = Playback::with_options(&db3, options).expect("open");
        let log = start_logging(&playback);
        playback.seek(t).expect("seek");
        playback.resume();
        assert!(playback.wait_until_stopped(Duration::from_secs(30)));
        let log = log.lock().expect("log");
        for stream in reader.streams() {
            let first = log
                .iter()
                .find(|f| f.profile.stream == stream)
                .expect("delivered");
            let want = reader
                .frame_at_or_after(stream, t)
                .expect("read")
                .expect("a frame");
            assert_eq!(first.number, want.frame.number, "{stream} after {t:?}");
        }
    }
}
