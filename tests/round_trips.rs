//! Round trips are lossless: a recording written as a ROS 2 bag (sqlite3
//! and MCAP) or as a `.db3` and back as a `.bag` reads back with the same
//! frames: numbers, timestamps, domains, system times, metadata and bytes,
//! as recorded by librealsense 2.55 and by rsbag.

use crate::common;

use std::path::Path;

use rsbag::device::Frame;
use rsbag::record::{export_ros2, CopySelection, Ros2ExportOptions};
use rsbag::recording::{Event, Recording};
use rsbag::storage::FileFormat;

/// Every frame of a recording in recorded order.
fn frames(path: &Path) -> Vec<Frame> {
    let recording = Recording::open(path).unwrap_or_else(|e| panic!("{e}"));
    recording
        .events(..)
        .filter_map(|e| match e.unwrap_or_else(|e| panic!("{e}")).event {
            Event::Frame { frame, .. } => Some(frame),
            _ => None,
        })
        .collect()
}

/// Sorted by stream and number, as librealsense's frames are compared
/// (files written in other layouts may interleave streams differently at
/// equal times).
fn by_stream(mut frames: Vec<Frame>) -> Vec<Frame> {
    frames.sort_by_key(|f| (f.profile.stream, f.number));
    frames
}

fn assert_same_frames(what: &str, source: &[Frame], read_back: &[Frame]) {
    assert_eq!(source.len(), read_back.len(), "{what}: frame count");
    for (a, b) in source.iter().zip(read_back) {
        let at = format!("{what}: {} #{}", a.profile.stream, a.number);
        assert_eq!(a.profile.stream, b.profile.stream, "{at}");
        assert_eq!(a.number, b.number, "{at}");
        assert_eq!(
            a.timestamp.to_bits(),
            b.timestamp.to_bits(),
            "{at}: timestamp"
        );
        assert_eq!(a.domain, b.domain, "{at}: domain");
        assert_eq!(
            a.system_time.to_bits(),
            b.system_time.to_bits(),
            "{at}: system time"
        );
        let mut ours = a.metadata.clone();
        let mut theirs = b.metadata.clone();
        ours.sort();
        theirs.sort();
        assert_eq!(ours, theirs, "{at}: metadata");
        assert!(a.data == b.data, "{at}: bytes");
    }
}

const SOURCES: &[&str] = &[
    "rsbag-synthetic-lz4.bag",
    "librealsense-metadata-lz4.bag",
    "librealsense-motion-lz4.bag",
    "librealsense-depth-color-lz4.bag",
];

#[test]
fn a_ros2_export_reads_back_as_the_recording() {
    let dir = tempfile::tempdir().expect("tempdir");
    for name in SOURCES {
        let path = common::sample(name);
        let source = by_stream(frames(&path));
        let recording = Recording::open(&path).expect("open");
        for storage in [FileFormat::Db3, FileFormat::Mcap] {
            let out = dir.path().join(format!("{name}-{}", storage.extension()));
            let options = Ros2ExportOptions {
                storage,
                ..Ros2ExportOptions::default()
            };
            export_ros2(
                &recording,
                &out,
                &options,
                &CopySelection::default(),
                |_| {},
            )
            .expect("export");
            let what = format!("{name} → ros2 {}", storage.extension());
            assert_same_frames(&what, &source, &by_stream(frames(&out)));
        }
    }
}

#[test]
fn a_bag_written_as_db3_and_back_is_the_recording() {
    let dir = tempfile::tempdir().expect("tempdir");
    for name in SOURCES {
        let path = common::sample(name);
        let source = by_stream(frames(&path));
        let db3 = dir.path().join(format!("{name}.db3"));
        let bag = dir.path().join(format!("{name}.bag"));
        common::convert(&path, db3.clone(), FileFormat::Db3);
        common::convert(&db3, bag.clone(), FileFormat::Bag);
        assert_same_frames(&format!("{name} → .db3"), &source, &by_stream(frames(&db3)));
        assert_same_frames(
            &format!("{name} → .db3 → .bag"),
            &source,
            &by_stream(frames(&bag)),
        );
    }
}
