//! Reading a session of N recordings against reading the same files one
//! after another: both open the files and read every frame (touching a
//! byte of its data every 4 KiB, the least a consumer of the pixels does:
//! an uncompressed recording's frames are borrowed from the mapped file,
//! and only touching them reads it; RSBAG_BENCH_READ=all reads every
//! byte, as a consumer processing the pixels does), in the same process,
//! round after round; the figure is the
//! median of the per-round ratios (session / one after another), with the
//! lowest and highest.
//!
//! `cargo bench --bench session` (4 recordings of the synthetic camera:
//! depth, colour, two infrared at 640x480 30 fps and IMU; 4 s each, LZ4,
//! 11 rounds, unless RSBAG_BENCH_SECONDS, RSBAG_BENCH_COMPRESSION (`none`,
//! `lz4`, `bz2`) and RSBAG_BENCH_ROUNDS say otherwise: 16 s uncompressed
//! make files of about 1 GB). RSBAG_BENCH_CHUNK_KB sets the chunks' size
//! before compression (768 KiB, the writer's, by default; the synthetic
//! frames compress so well that such chunks are decompressed on the
//! reading thread, where a camera's larger ones are decompressed ahead on
//! other threads: 4096 makes them so). The files are written to a temporary
//! directory (RSBAG_BENCH_DIR, else the system's) and deleted at the end.
//! Each line also gives the medians of the minor page faults each way took
//! (memory the allocator had to get anew from the system: what holding
//! frames longer costs).

#[path = "support.rs"]
mod support;

use std::path::PathBuf;
use std::time::Instant;

use rsbag::bag::{Compression, WriterOptions};
use rsbag::playback::{FrameReader, Session, SessionClock, SessionOptions};

const FILES: usize = 4;

/// The value of the environment variable `name`, parsed, or `default`.
fn setting<T: std::str::FromStr>(name: &str, default: T) -> T {
    match std::env::var(name) {
        Ok(value) => value
            .parse()
            .unwrap_or_else(|_| panic!("{name}={value}: not a value this bench takes")),
        Err(_) => default,
    }
}

/// How much of each frame's data is read: a byte of every 4 KiB
/// (`page`) or every byte (`all`).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Read {
    Page,
    All,
}

impl std::str::FromStr for Read {
    type Err = ();
    fn from_str(s: &str) -> Result<Read, ()> {
        match s {
            "page" => Ok(Read::Page),
            "all" => Ok(Read::All),
            _ => Err(()),
        }
    }
}

static READ: std::sync::OnceLock<Read> = std::sync::OnceLock::new();

/// The bytes of a frame's data and the bytes read of it, summed (for the
/// data to be read, and for both ways to be compared). Both ways call this
/// one function, compiled once: inlined, the same loop can be compiled
/// differently at each place (a variant of this bench once measured one
/// way at twice the other's time for that alone).
#[inline(never)]
fn touch(data: &[u8]) -> u64 {
    let read = match READ.get() {
        Some(Read::All) => sum_all(data),
        _ => sum_pages(data),
    };
    data.len() as u64 + read
}

#[inline(never)]
fn sum_all(data: &[u8]) -> u64 {
    let words = data.chunks_exact(8);
    let tail: u64 = words.remainder().iter().map(|&b| u64::from(b)).sum();
    let word = |w: &[u8]| u64::from_le_bytes(w.try_into().expect("8 bytes"));
    words.map(word).fold(tail, u64::wrapping_add)
}

#[inline(never)]
fn sum_pages(data: &[u8]) -> u64 {
    data.iter().step_by(4096).map(|&b| u64::from(b)).sum()
}

/// [`touch`] of every frame of `reader`, read in recorded order.
fn read_file(path: &PathBuf) -> u64 {
    let reader = FrameReader::open(path).expect("open");
    let frames = reader.frames().expect("frames");
    frames.map(|f| touch(&f.expect("frame").frame.data)).sum()
}

/// [`touch`] of every frame of the session of `paths`, in session order,
/// on `clock` (the best shared one when `None`).
fn read_session(paths: &[PathBuf], clock: Option<SessionClock>) -> u64 {
    let options = SessionOptions {
        clock,
        ..SessionOptions::default()
    };
    let session = Session::open_with(paths, options).expect("session");
    let frames = session.frames().expect("frames");
    frames
        .map(|f| touch(&f.expect("frame").recorded.frame.data))
        .sum()
}

fn main() {
    let seconds = setting("RSBAG_BENCH_SECONDS", 4);
    let compression = setting("RSBAG_BENCH_COMPRESSION", Compression::Lz4);
    let rounds = setting("RSBAG_BENCH_ROUNDS", 11);
    let read = *READ.get_or_init(|| setting("RSBAG_BENCH_READ", Read::Page));
    let chunk_kb = setting(
        "RSBAG_BENCH_CHUNK_KB",
        WriterOptions::default().chunk_threshold >> 10,
    );
    let options = WriterOptions::default()
        .compression(compression)
        .chunk_threshold(chunk_kb << 10);
    let dir = match std::env::var_os("RSBAG_BENCH_DIR") {
        Some(parent) => tempfile::tempdir_in(parent),
        None => tempfile::tempdir(),
    };
    let dir = dir.expect("tempdir");
    let paths: Vec<PathBuf> = (0..FILES)
        .map(|i| {
            let path = dir.path().join(format!("camera-{i}.bag"));
            support::write_synthetic_bag_with(&path, seconds, options);
            path
        })
        .collect();
    let size: u64 = (paths.iter())
        .map(|p| std::fs::metadata(p).expect("size").len())
        .sum();
    let start = Instant::now();
    let _ = Session::open(&paths).expect("session");
    let open = start.elapsed().as_secs_f64();
    let start = Instant::now();
    for path in &paths {
        let _ = FrameReader::open(path).expect("open");
    }
    println!(
        "open: session {open:.3} s, the readers alone {:.3} s",
        start.elapsed().as_secs_f64()
    );
    println!(
        "{compression} files of {seconds} s, chunks of {chunk_kb} KiB, {rounds} rounds, reading {read:?}"
    );
    measure(&paths[..1], size / FILES as u64, None, rounds);
    for clock in [None, Some(SessionClock::RecordingStart)] {
        measure(&paths, size, clock, rounds);
    }
}

/// Rounds of reading `paths` one after another, then as a session on
/// `clock`; prints the figures.
fn measure(paths: &[PathBuf], size: u64, clock: Option<SessionClock>, rounds: usize) {
    let mut ratios = Vec::new();
    let (mut sequential_s, mut session_s) = (Vec::new(), Vec::new());
    let (mut sequential_faults, mut session_faults) = (Vec::new(), Vec::new());
    for round in 0..rounds {
        // Each first in every other round: neither gains from the other.
        let mut sequential = 0.0;
        let mut session = 0.0;
        let (mut one_by_one, mut together) = (0, 0);
        for turn in 0..2 {
            let start = Instant::now();
            let faults = minor_faults();
            if (round + turn) % 2 == 0 {
                one_by_one = paths.iter().map(read_file).sum();
                sequential = start.elapsed().as_secs_f64();
                sequential_faults.push((minor_faults() - faults) as f64);
            } else {
                together = read_session(paths, clock);
                session = start.elapsed().as_secs_f64();
                session_faults.push((minor_faults() - faults) as f64);
            }
        }
        assert_eq!(together, one_by_one, "the same frames");
        ratios.push(session / sequential);
        sequential_s.push(sequential);
        session_s.push(session);
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let (lo, hi) = (
        ratios.iter().copied().fold(f64::INFINITY, f64::min),
        ratios.iter().copied().fold(f64::NEG_INFINITY, f64::max),
    );
    println!(
        "{} recordings, {:.0} MB in all, {rounds} rounds, clock {}: one after another {:.3} s, as a session {:.3} s (medians); session / one after another: median {:.3} (from {lo:.3} to {hi:.3}); minor page faults {:.0} and {:.0} (medians)",
        paths.len(),
        size as f64 / 1e6,
        clock.map_or("best shared".into(), |c| c.to_string()),
        median(&mut sequential_s),
        median(&mut session_s),
        median(&mut ratios),
        median(&mut sequential_faults),
        median(&mut session_faults),
    );
}

/// The process's minor page faults so far (all its threads), from
/// `/proc/self/stat` (0 where there is none).
fn minor_faults() -> u64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // The fields after the command's name, `(...)`: minflt is the 10th of
    // the line, the 8th after it.
    (stat.rsplit_once(") ").map(|(_, rest)| rest))
        .and_then(|rest| rest.split_whitespace().nth(7))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}
