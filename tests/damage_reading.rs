//! Reading past damage: a chunk that fails its checksum or a message that
//! does not decode costs what it holds, is reported once, and everything
//! else is still read, by the library (messages, events, frames, the
//! playback device, `check`) and by the command line (`frames`, `convert`,
//! `play` and `check` say so on stderr and exit 4).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use common::rs;
use parking_lot::Mutex;
use rsbag::bag::{Bag, Compression, WriterOptions};
use rsbag::device::{Device, Notification};
use rsbag::playback::check::check_file;
use rsbag::playback::{FrameReader, Playback, PlaybackOptions};

const FRAMES: u64 = 60;
/// Exit code of a damaged file.
const DAMAGED: i32 = 4;

/// A RealSense recording of [`FRAMES`] depth and color frames in small LZ4
/// chunks (several frames each).
fn chunked_bag(dir: &Path) -> PathBuf {
    let path = dir.join("good.bag");
    let options = WriterOptions::default()
        .compression(Compression::Lz4)
        .chunk_threshold(4096);
    rs::write_with(&path, FRAMES, options);
    path
}

/// Where the data of each chunk lies in the file: (chunk record offset,
/// data offset, data length).
fn chunk_data(bytes: &[u8]) -> Vec<(u64, usize, usize)> {
    let bag = Bag::from_bytes(bytes.to_vec()).expect("a bag");
    bag.chunks()
        .iter()
        .map(|c| {
            let pos = c.info.chunk_pos as usize;
            let u32_at = |at: usize| {
                u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes")) as usize
            };
            let header = u32_at(pos);
            let data_at = pos + 4 + header + 4;
            (c.info.chunk_pos, data_at, u32_at(pos + 4 + header))
        })
        .collect()
}

/// A copy of `path` whose chunk `k` fails its LZ4 checksum; returns the
/// copy, the chunk's offset and the frames it held (from the index).
fn with_bad_chunk(path: &Path, k: usize) -> (PathBuf, u64, u64) {
    let mut bytes = std::fs::read(path).expect("read");
    let chunks = chunk_data(&bytes);
    assert!(chunks.len() > k + 2, "{} chunks", chunks.len());
    let (offset, data, len) = chunks[k];
    // The stored blocks' bytes change, so the content checksum fails.
    for b in &mut bytes[data + len / 2..data + len / 2 + 8] {
        *b ^= 0x5a;
    }
    let frames_in_chunk = {
        let bag = Bag::open(path).expect("open");
        let reader = FrameReader::open(path).expect("reader");
        let conns: Vec<u32> = reader
            .recording()
            .streams()
            .values()
            .flat_map(|s| s.data_connections().to_vec())
            .collect();
        bag.chunks()[k]
            .info
            .connection_counts
            .iter()
            .filter(|(c, _)| conns.contains(c))
            .map(|&(_, n)| u64::from(n))
            .sum()
    };
    let bad = path.with_file_name(format!("bad-chunk-{k}.bag"));
    std::fs::write(&bad, bytes).expect("write");
    (bad, offset, frames_in_chunk)
}

/// A copy of `path` (uncompressed) whose `n`-th frame metadata message
/// does not decode: the length of its first key points past its end.
fn with_bad_metadata(path: &Path, n: usize) -> PathBuf {
    let mut bytes = std::fs::read(path).expect("read");
    let key = b"Frame Counter";
    let at = bytes
        .windows(key.len())
        .enumerate()
        .filter(|(_, w)| w == key)
        .map(|(i, _)| i)
        .nth(n)
        .expect("a metadata message");
    bytes[at - 4..at].copy_from_slice(&0x7fff_fff0u32.to_le_bytes());
    let bad = path.with_file_name("bad-metadata.bag");
    std::fs::write(&bad, bytes).expect("write");
    bad
}

fn rsbag(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_rsbag"))
        .args(args)
        .output()
        .expect("run rsbag");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

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
fn commands_report_damage_and_exit_4() {
    let dir = tempfile::tempdir().expect("tempdir");
    let good = chunked_bag(dir.path());
    let (bad, offset, lost) = with_bad_chunk(&good, 3);
    let bad = bad.to_str().expect("utf-8 path");
    let expect_damage = |what: &str, (code, _, stderr): &(i32, String, String)| {
        assert_eq!(*code, DAMAGED, "{what}: {stderr}");
        assert!(stderr.contains(&offset.to_string()), "{what}: {stderr}");
        assert!(
            stderr.contains("rsbag check") && stderr.contains("rsbag reindex"),
            "{what}: {stderr}"
        );
    };
    let frames = rsbag(&["frames", bad]);
    expect_damage("frames", &frames);
    assert_eq!(frames.1.lines().count() as u64, 2 * FRAMES - lost);
    let json = rsbag(&["frames", "--json", bad]);
    expect_damage("frames --json", &json);
    let device = rsbag(&["frames", "--device", bad]);
    expect_damage("frames --device", &device);
    assert_eq!(device.1.lines().count() as u64, 2 * FRAMES - lost);
    let out = dir.path().join("raw");
    let convert = rsbag(&[
        "convert",
        bad,
        "--to",
        "raw",
        "--out",
        out.to_str().expect("utf-8"),
    ]);
    expect_damage("convert", &convert);
    let written = std::fs::read_dir(&out).expect("the output").count() as u64;
    assert!(written >= 2 * FRAMES - lost, "{written} files");
    let play = rsbag(&["play", bad, "--no-realtime"]);
    expect_damage("play", &play);
    let (code, stdout, _) = rsbag(&["check", bad]);
    assert_eq!(code, DAMAGED, "{stdout}");
    assert!(
        stdout.contains("DAMAGED") && stdout.contains(&offset.to_string()),
        "{stdout}"
    );
    // The undamaged file: no warning, exit 0.
    let (code, _, stderr) = rsbag(&["frames", good.to_str().expect("utf-8")]);
    assert_eq!((code, stderr.as_str()), (0, ""));
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

    let bad = bad.to_str().expect("utf-8 path");
    let (code, stdout, stderr) = rsbag(&["check", bad]);
    assert_eq!(code, DAMAGED, "{stdout}{stderr}");
    assert!(
        stdout.contains("unreadable") && stdout.contains("KeyValue"),
        "{stdout}"
    );
    assert!(
        stdout.contains("Depth 0") && stdout.contains("Color 0"),
        "{stdout}"
    );
    let (code, stdout, stderr) = rsbag(&["frames", bad]);
    assert_eq!(code, DAMAGED, "{stderr}");
    assert_eq!(stdout.lines().count() as u64, 2 * FRAMES - 1);
}

/// A copy of `bytes` whose chunk `k` header claims `factor` times its real
/// uncompressed size.
fn with_lying_chunk_size(bytes: &[u8], k: usize, factor: u32) -> Vec<u8> {
    let mut bytes = bytes.to_vec();
    let pos = chunk_data(&bytes)[k].0 as usize;
    let u32_at = |b: &[u8], at: usize| {
        u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes")) as usize
    };
    let header_len = u32_at(&bytes, pos);
    let mut at = pos + 4;
    while at < pos + 4 + header_len {
        let len = u32_at(&bytes, at);
        let field = &bytes[at + 4..at + 4 + len];
        if field.starts_with(b"size=") {
            let value = at + 4 + 5;
            let claimed = u32_at(&bytes, value) as u32 * factor;
            bytes[value..value + 4].copy_from_slice(&claimed.to_le_bytes());
            return bytes;
        }
        at += 4 + len;
    }
    panic!("no size field in the chunk header");
}

/// The largest resident size of any child process waited for so far, MB.
fn children_peak_mb() -> i64 {
    // SAFETY: getrusage fills the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    assert_eq!(
        unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) },
        0
    );
    usage.ru_maxrss / 1024
}

#[test]
fn a_chunk_header_that_lies_about_its_size_allocates_nothing_for_the_lie() {
    let dir = tempfile::tempdir().expect("tempdir");
    // One 8 MB chunk of incompressible bytes, stored in LZ4 blocks.
    let mut state = 0x9E37_79B9u32;
    let payload: Vec<u8> = (0..1 << 20)
        .map(|_| {
            state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (state >> 24) as u8
        })
        .collect();
    let messages: Vec<common::Written> = (0..8)
        .map(|i| common::Written {
            conn: 0,
            time: 1 + i,
            data: payload.clone(),
        })
        .collect();
    let topics = [("/noise".to_owned(), "std_msgs/ByteMultiArray".to_owned())];
    let good = common::write_bag(&topics, &messages, Compression::Lz4, 16 << 20);
    // 256 times the real size: 2 GB if taken at its word.
    let lying = dir.path().join("lying.bag");
    std::fs::write(&lying, with_lying_chunk_size(&good, 0, 256)).expect("write");

    let bag = Bag::open(&lying).expect("the index is fine");
    let errors: Vec<String> = bag
        .messages()
        .filter_map(|m| m.err().map(|e| e.to_string()))
        .collect();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].contains("frames hold at most"), "{errors:?}");

    let out = dir.path().join("copy.bag");
    let (code, _, stderr) = rsbag(&[
        "decompress",
        lying.to_str().expect("utf-8"),
        "--out",
        out.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("lying.bag") && stderr.contains("frames hold at most"),
        "{stderr}"
    );
    assert!(!out.exists());
    // The 8 MB chunk, its copy and the program: nowhere near the 2 GB claimed.
    let peak = children_peak_mb();
    assert!(peak < 400, "a child process peaked at {peak} MB");
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
