//! `.bag` → `.db3` → `.bag` through the library: every frame, option
//! change, notification and the description survive, frames read by index
//! the same from either, and a `.db3` without the `tf/ref_N` strings takes
//! its extrinsics from `/tf_static`.

mod common;

use std::path::{Path, PathBuf};

use rsbag::bag::Compression;
use rsbag::device::{StreamId, StreamKind};
use rsbag::playback::{Event, FrameReader, Recording, TimedEvent};
use rsbag::record::{copy_recording, create_sink, CopySelection, Db3Options, FileFormat};

fn convert(from: &Path, to: PathBuf, format: FileFormat) -> PathBuf {
    let recording = Recording::open(from).expect("open");
    let sink = create_sink(
        to.clone(),
        format,
        Default::default(),
        Db3Options::default(),
        false,
    )
    .expect("sink");
    copy_recording(&recording, sink, &CopySelection::default(), |_| {}).expect("copy");
    to
}

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
    let db3 = convert(&bag, dir.path().join("copy.db3"), FileFormat::Db3);
    let back = convert(&db3, dir.path().join("back.bag"), FileFormat::Bag);
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
    assert_eq!(b.snapshot(), a.snapshot());
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
    let db3 = convert(&bag, dir.path().join("stereo.db3"), FileFormat::Db3);
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
