//! Reading past damage: a chunk that fails its checksum or a message that
//! does not decode costs what it holds, is reported once, and everything
//! else is still read by the library (messages, events, frames, the
//! playback device, `check`). The command line's side of it is in
//! `cli/tests/damage_commands.rs`.

use crate::common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use common::damaged::{
    chunked_bag, lying_bag, with_bad_chunk, with_bad_index_data, with_bad_metadata, FRAMES,
};
use common::rs;
use parking_lot::Mutex;
use rsbag::device::{Device, Notification};
use rsbag::playback::{Playback, PlaybackOptions};
use rsbag::recording::check::check_file;
use rsbag::recording::FrameReader;
use rsbag::storage::bag::{Bag, Compression};

#[test]
fn messages_go_on_after_a_damaged_chunk() {
    let dir = tempfile::tempdir().expect("tempdir");
    let good = chunked_bag(dir.path());
    let (bad, offset, _) = with_bad_chunk(&good, 2);
    // Every message but those of the damaged chunk, by connection and time.
    let expected: Vec<(u32, u64, usize)> = {
        let bag = Bag::open(&good).expect("open");
        let mut lost: Vec<(u32, u64)> = bag
            .chunk_entries(&bag.chunks()[2])
            .expect("entries")
            .iter()
            .map(|e| (e.conn, e.time))
            .collect();
        assert!(!lost.is_empty());
        let mut kept = Vec::new();
        for m in bag.messages() {
            let m = m.expect("message");
            match lost.iter().position(|&l| l == (m.conn, m.time)) {
                Some(i) => {
                    lost.swap_remove(i);
                }
                None => kept.push((m.conn, m.time, m.data.len())),
            }
        }
        kept
    };
    let bag = Bag::open(&bad).expect("open the damaged bag");
    let mut errors = Vec::new();
    let mut read = Vec::new();
    for m in bag.messages() {
        match m {
            Ok(m) => read.push((m.conn, m.time, m.data.len())),
            Err(e) => errors.push(e.to_string()),
        }
    }
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].contains(&format!("byte offset {offset}")),
        "{errors:?}"
    );
    assert_eq!(read.len(), expected.len());
    assert!(
        read == expected,
        "every message of every other chunk, in order"
    );
}

#[test]
fn frames_and_check_go_on_after_a_damaged_chunk() {
    let dir = tempfile::tempdir().expect("tempdir");
    let good = chunked_bag(dir.path());
    let (bad, offset, lost) = with_bad_chunk(&good, 3);
    let reader = FrameReader::open(&bad).expect("open");
    let (mut frames, mut errors) = (0, 0);
    for frame in reader.frames().expect("frames") {
        match frame {
            Ok(_) => frames += 1,
            Err(_) => errors += 1,
        }
    }
    assert_eq!(errors, 1);
    assert_eq!(frames, 2 * FRAMES - lost);
    assert!(lost > 0);

    let report = check_file(&bad, |_, _| {}).expect("check");
    assert!(report.is_damaged());
    assert_eq!(report.damage.len(), 1, "{:?}", report.damage);
    assert!(report.damage[0].contains(&offset.to_string()));
    let checked: u64 = report.streams.values().map(|s| s.frames).sum();
    assert_eq!(
        checked,
        2 * FRAMES - lost,
        "the frames after the damage are checked"
    );
}

/// Every frame of `path` in recorded order: stream, number, timestamp
/// and bytes.
fn every_frame(path: &std::path::Path) -> Vec<(String, u64, f64, Vec<u8>)> {
    let reader = FrameReader::open(path).expect("open");
    let frames = reader.frames().expect("frames");
    frames
        .map(|f| {
            let f = f.expect("a frame").frame;
            (
                f.profile.stream.name(),
                f.number,
                f.timestamp,
                f.data.to_vec(),
            )
        })
        .collect()
}

#[test]
fn a_chunk_whose_index_data_is_damaged_is_read_from_its_own_records() {
    let dir = tempfile::tempdir().expect("tempdir");
    let good = chunked_bag(dir.path());
    let intact = every_frame(&good);
    assert_eq!(intact.len() as u64, 2 * FRAMES);
    // Chunk 0 holds the device's description, read in opening.
    for k in [0, 3] {
        let (bad, chunk_pos, record) = with_bad_index_data(&good, k);
        let reader = FrameReader::open(&bad).expect("open");
        let repairs = reader.recording().bag().expect("a bag").chunk_repairs();
        assert!(
            every_frame(&bad) == intact,
            "chunk {k}: every frame, in order"
        );
        let repaired: Vec<u64> = repairs.chunks().into_iter().map(|(p, _)| p).collect();
        assert_eq!(repaired, [chunk_pos], "chunk {k}");
        // At random too: each frame by its index.
        for &stream in &reader.streams() {
            for index in 0..reader.frame_count(stream).expect("count") {
                let frame = reader.frame(stream, index).expect("a frame by index");
                assert_eq!(frame.frame.number, index + 1);
            }
        }
        let report = check_file(&bad, |_, _| {}).expect("check");
        assert!(report.is_damaged(), "chunk {k}");
        assert!(
            report
                .damage
                .iter()
                .any(|d| d.contains(&record.to_string())),
            "{:?}",
            report.damage
        );
        // The chunk's records unreadable as well: the index data's damage
        // is the error (in opening, where opening reads the chunk's
        // entries, or for the chunk's frames), nothing is guessed.
        let (worse, _, lost) = with_bad_chunk(&bad, k);
        let named = |e: &str| e.contains(&format!("index data record at byte offset {record}"));
        match FrameReader::open(&worse) {
            Err(e) => assert!(named(&e.to_string()), "{e}"),
            Ok(reader) => {
                let (mut frames, mut errors) = (0, Vec::new());
                for frame in reader.frames().expect("frames") {
                    match frame {
                        Ok(_) => frames += 1,
                        Err(e) => errors.push(e.to_string()),
                    }
                }
                assert_eq!(frames, 2 * FRAMES - lost);
                assert!(errors.len() == 1 && named(&errors[0]), "{errors:?}");
            }
        }
    }
}

#[test]
fn the_playback_device_skips_damage_and_tells() {
    let dir = tempfile::tempdir().expect("tempdir");
    let good = chunked_bag(dir.path());
    let (bad, offset, lost) = with_bad_chunk(&good, 3);
    let options = PlaybackOptions {
        real_time: false,
        ..PlaybackOptions::default()
    };
    let playback = Playback::with_options(&bad, options).expect("open");
    let delivered = Arc::new(AtomicUsize::new(0));
    let heard: Arc<Mutex<Vec<Notification>>> = Arc::default();
    playback.pause();
    for sensor in playback.sensors() {
        let heard = heard.clone();
        sensor.add_notification_listener(Arc::new(move |n| heard.lock().push(n.clone())));
        sensor.open(&sensor.profiles()).expect("open");
        let delivered = delivered.clone();
        sensor
            .start(Arc::new(move |_| {
                delivered.fetch_add(1, Ordering::SeqCst);
            }))
            .expect("start");
    }
    playback.resume();
    assert!(playback.wait_until_stopped(Duration::from_secs(30)));
    assert_eq!(
        delivered.load(Ordering::SeqCst) as u64,
        2 * FRAMES - lost,
        "every frame outside the damaged chunk"
    );
    assert_eq!(playback.read_errors(), 1);
    let errors = playback.take_read_errors();
    assert_eq!(errors.len(), 1);
    let text = errors[0].to_string();
    assert!(
        text.contains(&offset.to_string()) && text.contains("bad-chunk-3.bag"),
        "{text}"
    );
    let heard = heard.lock();
    let damage: Vec<_> = heard.iter().filter(|n| n.severity == "Error").collect();
    // Each sensor's listeners hear of it (the recorded notification of
    // the test recording is a warning).
    assert_eq!(damage.len(), playback.sensors().len(), "{heard:?}");
    assert!(damage[0].description.contains(&offset.to_string()));
}

#[test]
fn one_malformed_metadata_message_is_damage_not_a_failure() {
    let dir = tempfile::tempdir().expect("tempdir");
    let good = dir.path().join("plain.bag");
    rs::write(&good, FRAMES, Compression::None);
    let bad = with_bad_metadata(&good, 7);
    let reader = FrameReader::open(&bad).expect("open");
    let results: Vec<_> = reader.frames().expect("frames").collect();
    let errors: Vec<String> = results
        .iter()
        .filter_map(|r| r.as_ref().err().map(|e| e.to_string()))
        .collect();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(
        results.len() as u64 - 1,
        2 * FRAMES - 1,
        "every other frame"
    );
}

#[test]
fn a_chunk_header_that_lies_about_its_size_allocates_nothing_for_the_lie() {
    let dir = tempfile::tempdir().expect("tempdir");
    let lying = lying_bag(dir.path());

    let bag = Bag::open(&lying).expect("the index is fine");
    let errors: Vec<String> = bag
        .messages()
        .filter_map(|m| m.err().map(|e| e.to_string()))
        .collect();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].contains("frames hold at most"), "{errors:?}");
}

/// Inputs the fuzzers found (`tests/fixtures/fuzz/`), read the way the
/// fuzz targets read them: every answer is a value or an error, never a
/// panic (the tests run with overflow checks on).
#[test]
fn fuzz_findings_are_errors_not_panics() {
    let dir = common::root().join("tests/fixtures/fuzz");
    let mut read = 0;
    for entry in std::fs::read_dir(&dir).expect("the findings") {
        let path = entry.expect("entry").path();
        read += 1;
        let Ok(reader) = FrameReader::open(&path) else {
            continue;
        };
        for stream in reader.streams() {
            let count = reader.frame_count(stream).expect("counted from the index");
            for k in 0..count {
                if let Ok(frame) = reader.frame(stream, k) {
                    let _ = reader.frame_by_number(stream, frame.frame.number);
                }
            }
            let _ = reader.frame_nearest(stream, reader.duration() / 2);
        }
        let _ = reader.frames().map(|frames| frames.count());
    }
    assert!(read > 0);
}
