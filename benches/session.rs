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
//! Each round also times what the difference is made of: the files'
//! readers read a frame each in turn, not merged (what reading several
//! files at once costs by itself); the readers advanced in the order the
//! session delivers the frames (found before the rounds), nothing merged
//! or held (what that order costs the readers: the least any merge can
//! cost); and, for uncompressed files, the
//! session's frames' bytes read from the mapped files without rsbag, in
//! the session's order against file after file (what the order costs the
//! memory by itself). Each way comes first in its turn of the rounds.
//!
//! `cargo bench --bench session` (4 recordings of the synthetic camera:
//! depth, colour, two infrared at 640x480 30 fps and IMU, recorded
//! together: their frames arrive at host times as a camera streaming in
//! real time gives them, each camera started a quarter of a frame period
//! after the one before; 4 s each, LZ4,
//! 11 rounds, unless RSBAG_BENCH_SECONDS, RSBAG_BENCH_COMPRESSION (`none`,
//! `lz4`, `bz2`) and RSBAG_BENCH_ROUNDS say otherwise: 16 s uncompressed
//! make files of about 1 GB). RSBAG_BENCH_CHUNK_KB sets the chunks' size
//! before compression (768 KiB, the writer's, by default; the synthetic
//! frames compress so well that such chunks are decompressed on the
//! reading thread, where a camera's larger ones are decompressed ahead on
//! other threads: 4096 makes them so). The files are written to a temporary
//! directory (RSBAG_BENCH_DIR, else the system's) and deleted at the end.
//! Each line also gives the median CPU time each way spent in the kernel
//! (mapping the files' pages, and handing them back), the medians of the
//! minor page faults each way took (pages mapped, and memory the
//! allocator had to get anew from the system: what holding frames longer
//! costs) and the major ones over all rounds (pages read from disk).
//!
//! The files are read from the page cache: before each way of each round
//! the bench maps them with every page read in (`MAP_POPULATE`, untimed).
//! Without it, pages the kernel drops between rounds (a machine that gives
//! memory back drops a few megabytes of each file a minute) are read from
//! disk by whichever way touches them next: up to a hundred milliseconds
//! in a round, at random. (Locking them in memory, `mlock`, does as well,
//! with the same figures, but needs a privilege.) RSBAG_BENCH_PAGES=dropped
//! reads them from disk instead, as files not read for a while are: before
//! each way the bench has the kernel drop every page of the files from
//! its cache (`POSIX_FADV_DONTNEED`, after `fsync`; no privilege needed).
//!
//! How the pages came into the page cache changes what mapping them costs:
//! the kernel keeps a file's pages in folios of 4 KB up to 2 MB, and maps
//! a 2 MB one at a fault where 4 KB ones are mapped 16 at a fault. As the
//! bench's writing left them (the writer drops what it wrote; the bench's
//! `MAP_POPULATE` reads them back in the kernel's read-around), they are
//! of every size. RSBAG_BENCH_PAGES=read drops them once and reads the
//! files in with `read` (the kernel's read-ahead: large folios, as `cp`
//! or `cat` leave a file); RSBAG_BENCH_PAGES=willneed drops them once and
//! has them read in with `madvise(MADV_WILLNEED)` (4 KB folios, as
//! rsbag's own reading from disk leaves a file).
//!
//! RSBAG_BENCH_BUSY=1 keeps another thread of the process busy while the
//! ways read, as an application's other threads are: handing pages back
//! to the kernel then interrupts the processor it runs on.

#[path = "support.rs"]
mod support;

use std::path::PathBuf;
use std::time::Instant;

use rsbag::recording::{FrameReader, Session, SessionClock, SessionOptions};
use rsbag::storage::bag::{Compression, WriterOptions};

const FILES: usize = 4;

/// When the first camera started, host time (ms): 2026-11-26.
const STARTED_MS: f64 = 1_795_650_000_000.0;

/// How much later each camera started than the one before: a quarter
/// of a frame period, so that their frames interleave on arrival time
/// (the recording-start clock starts them together).
const START_STEP_MS: f64 = 1000.0 / 30.0 / 4.0;

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

/// A way of reading the recordings, timed in every round.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Way {
    /// Each file's frames in recorded order, the files one after another:
    /// what a session is compared with.
    OneAfterAnother,
    /// The session's frames, in time order on a clock (the best shared one
    /// when `None`).
    Session(Option<SessionClock>),
    /// A frame of each file's reader in turn, not merged: what reading
    /// the files at once costs without the session's ordering.
    ReadersInTurn,
    /// Each file's reader advanced in the order the session delivers its
    /// frames (found before the round), nothing merged or held: what the
    /// session's order itself costs the readers, the least any merge of
    /// the files in that order can cost.
    ReadersInSessionOrder,
    /// The session's frames' bytes (uncompressed files: borrowed from the
    /// mapped files, so their places in the files are known), read from
    /// the files mapped anew without rsbag, in the session's order: what
    /// the order itself costs the memory, against...
    BytesInSessionOrder,
    /// ...the same bytes read file after file.
    BytesFileAfterFile,
}

impl Way {
    fn name(self) -> String {
        match self {
            Way::OneAfterAnother => "one after another".into(),
            Way::Session(None) => "session, best shared clock".into(),
            Way::Session(Some(clock)) => format!("session, {clock} clock"),
            Way::ReadersInTurn => "the readers in turn".into(),
            Way::ReadersInSessionOrder => "the readers in session order, unmerged".into(),
            Way::BytesInSessionOrder => "bytes alone, session order".into(),
            Way::BytesFileAfterFile => "bytes alone, file after file".into(),
        }
    }

    /// The way this one is compared with.
    fn reference(self) -> Way {
        match self {
            Way::BytesInSessionOrder | Way::BytesFileAfterFile => Way::BytesFileAfterFile,
            _ => Way::OneAfterAnother,
        }
    }

    /// [`touch`] of every frame (of the image frames' bytes: the byte
    /// ways, which read `order.bytes`) of `paths`, read this way.
    fn read(self, paths: &[PathBuf], order: &SessionOrder) -> u64 {
        match self {
            Way::OneAfterAnother => paths.iter().map(read_file).sum(),
            Way::Session(clock) => read_session(paths, clock),
            Way::ReadersInTurn => read_in_turn(paths),
            Way::ReadersInSessionOrder => read_in_order(paths, &order.files),
            Way::BytesInSessionOrder => read_bytes(paths, &order.bytes, false),
            Way::BytesFileAfterFile => read_bytes(paths, &order.bytes, true),
        }
    }
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

/// [`touch`] of every frame of `paths`, a frame of each file in turn.
fn read_in_turn(paths: &[PathBuf]) -> u64 {
    let readers: Vec<FrameReader> = (paths.iter())
        .map(|p| FrameReader::open(p).expect("open"))
        .collect();
    let mut files: Vec<_> = (readers.iter())
        .map(|r| r.frames().expect("frames"))
        .collect();
    let mut sum = 0;
    while !files.is_empty() {
        files.retain_mut(|frames| match frames.next() {
            Some(frame) => {
                sum += touch(&frame.expect("frame").frame.data);
                true
            }
            None => false,
        });
    }
    sum
}

/// [`touch`] of every frame of `paths`, each file's reader advanced in
/// turn by `files` (the file of each frame, in the order to read them).
fn read_in_order(paths: &[PathBuf], files: &[usize]) -> u64 {
    let readers: Vec<FrameReader> = (paths.iter())
        .map(|p| FrameReader::open(p).expect("open"))
        .collect();
    let mut frames: Vec<_> = (readers.iter())
        .map(|r| r.frames().expect("frames"))
        .collect();
    let mut sum = 0;
    for &file in files {
        let frame = frames[file].next().expect("a frame left").expect("frame");
        sum += touch(&frame.frame.data);
    }
    assert!(
        frames.iter_mut().all(|f| f.next().is_none()),
        "every frame read"
    );
    sum
}

/// What the ways that follow a session's order without merging read,
/// found by reading the session once before the rounds.
#[derive(Default)]
struct SessionOrder {
    /// The file of each of the session's frames, in session order.
    files: Vec<usize>,
    /// Where the session's image frames lie (uncompressed files).
    bytes: Vec<FrameBytes>,
}

/// The session of `paths`'s order: its frames' files, and (if `bytes`)
/// its image frames' places (see [`frame_bytes`]).
fn session_order(paths: &[PathBuf], bytes: bool) -> SessionOrder {
    let session = Session::open(paths).expect("session");
    let files = (session.frames().expect("frames"))
        .map(|f| f.expect("frame").file)
        .collect();
    let bytes = if bytes {
        frame_bytes(paths).expect("uncompressed frames, borrowed from the files")
    } else {
        Vec::new()
    };
    SessionOrder { files, bytes }
}

/// Where one of a session's frames lies: its file and the range of its
/// bytes in it.
#[derive(Clone, Debug)]
struct FrameBytes {
    file: usize,
    range: std::ops::Range<usize>,
}

/// The places of the session's image frames, in session order, if the
/// frames are borrowed from the mapped files (uncompressed), found by
/// their addresses: each file's lowest is taken as where its first
/// frame's data starts in the file (about a page off, which shifts the
/// ranges, not their order, sizes or gaps).
fn frame_bytes(paths: &[PathBuf]) -> Option<Vec<FrameBytes>> {
    let session = Session::open(paths).expect("session");
    let mut frames = Vec::new();
    for frame in session.frames().expect("frames") {
        let frame = frame.expect("frame");
        let data = &frame.recorded.frame.data;
        if data.len() >= 4096 {
            frames.push((frame.file, data.as_ptr() as usize, data.len()));
        }
    }
    let mut lowest = vec![usize::MAX; paths.len()];
    for &(file, at, _) in &frames {
        lowest[file] = lowest[file].min(at);
    }
    let bytes: Vec<FrameBytes> = (frames.into_iter())
        .map(|(file, at, len)| FrameBytes {
            file,
            range: at - lowest[file]..at - lowest[file] + len,
        })
        .collect();
    let sizes: Vec<u64> = (paths.iter())
        .map(|p| std::fs::metadata(p).expect("size").len())
        .collect();
    let borrowed = (bytes.iter()).all(|b| b.range.end as u64 <= sizes[b.file]);
    borrowed.then_some(bytes)
}

/// [`touch`] of each of `frames`' bytes, from the files mapped here, in
/// the frames' order or file after file (each file's in its order).
fn read_bytes(paths: &[PathBuf], frames: &[FrameBytes], file_after_file: bool) -> u64 {
    let map = |path: &PathBuf| {
        let file = std::fs::File::open(path).expect("open");
        // SAFETY: the bench's own files, not changed while mapped.
        unsafe { memmap2::Mmap::map(&file) }.expect("map")
    };
    if !file_after_file {
        let maps: Vec<memmap2::Mmap> = paths.iter().map(map).collect();
        return (frames.iter())
            .map(|f| touch(&maps[f.file][f.range.clone()]))
            .sum();
    }
    let mut sum = 0;
    for (file, path) in paths.iter().enumerate() {
        let mapped = map(path);
        let mut mine: Vec<&FrameBytes> = frames.iter().filter(|f| f.file == file).collect();
        mine.sort_by_key(|f| f.range.start);
        sum += mine
            .iter()
            .map(|f| touch(&mapped[f.range.clone()]))
            .sum::<u64>();
    }
    sum
}

fn main() {
    let seconds = setting("RSBAG_BENCH_SECONDS", 4);
    let compression = setting("RSBAG_BENCH_COMPRESSION", Compression::Lz4);
    let rounds = setting("RSBAG_BENCH_ROUNDS", 11);
    let read = *READ.get_or_init(|| setting("RSBAG_BENCH_READ", Read::Page));
    let pages = setting("RSBAG_BENCH_PAGES", Pages::Cached);
    let busy = setting("RSBAG_BENCH_BUSY", 0) != 0;
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
            let started_ms = STARTED_MS + i as f64 * START_STEP_MS;
            support::write_synthetic_camera(&path, seconds, options, started_ms);
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
    settle(&paths, pages);
    let busy = busy.then(BusyThread::start);
    println!(
        "{compression} files of {seconds} s, chunks of {chunk_kb} KiB, {rounds} rounds, reading {read:?}, pages {pages:?}{}",
        if busy.is_some() { ", another thread busy" } else { "" }
    );
    println!("1 recording, {:.0} MB:", size as f64 / FILES as f64 / 1e6);
    measure(
        &paths[..1],
        &[Way::OneAfterAnother, Way::Session(None)],
        rounds,
        pages,
    );
    println!("{FILES} recordings, {:.0} MB in all:", size as f64 / 1e6);
    let mut ways = vec![
        Way::OneAfterAnother,
        Way::Session(None),
        Way::Session(Some(SessionClock::RecordingStart)),
        Way::ReadersInTurn,
        Way::ReadersInSessionOrder,
    ];
    if compression == Compression::None {
        ways.extend([Way::BytesInSessionOrder, Way::BytesFileAfterFile]);
    }
    measure(&paths, &ways, rounds, pages);
    drop(busy);
}

/// A thread of the process that keeps a processor busy until dropped.
struct BusyThread {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl BusyThread {
    fn start() -> BusyThread {
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let stopped = stop.clone();
        let thread = std::thread::spawn(move || {
            while !stopped.load(std::sync::atomic::Ordering::Relaxed) {
                std::hint::spin_loop();
            }
        });
        BusyThread {
            stop,
            thread: Some(thread),
        }
    }
}

impl Drop for BusyThread {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Rounds of reading `paths` each of `ways`, in a turning order, the
/// files' pages where `pages` says before each; prints each way's median
/// time and the median of its per-round ratios to its reference (with the
/// lowest and highest), and the medians of its time in the kernel and of
/// the minor page faults it took.
fn measure(paths: &[PathBuf], ways: &[Way], rounds: usize, pages: Pages) {
    let order = if ways.contains(&Way::ReadersInSessionOrder) {
        session_order(paths, ways.contains(&Way::BytesInSessionOrder))
    } else {
        SessionOrder::default()
    };
    let reference = |way: Way| {
        let at = ways.iter().position(|&w| w == way.reference());
        at.expect("a way's reference is measured too")
    };
    let mut seconds = vec![Vec::new(); ways.len()];
    let mut faults = vec![Vec::new(); ways.len()];
    let mut from_disk = vec![0; ways.len()];
    let mut kernel = vec![Vec::new(); ways.len()];
    let mut sums = vec![0; ways.len()];
    for round in 0..rounds {
        // Each way first in its turn: none gains from coming after another.
        for turn in 0..ways.len() {
            let at = (round + turn) % ways.len();
            prepare(paths, pages);
            let (start, before, sys0) = (Instant::now(), page_faults(), system_seconds());
            sums[at] = ways[at].read(paths, &order);
            seconds[at].push(start.elapsed().as_secs_f64());
            kernel[at].push(system_seconds() - sys0);
            let after = page_faults();
            faults[at].push((after.minor - before.minor) as f64);
            from_disk[at] += after.major - before.major;
        }
        for (at, &way) in ways.iter().enumerate() {
            let name = way.name();
            assert_eq!(sums[at], sums[reference(way)], "{name}: the same frames");
        }
    }
    for (at, &way) in ways.iter().enumerate() {
        let (time, faults) = (median(&mut seconds[at]), median(&mut faults[at]));
        let sys = median(&mut kernel[at]);
        let faults = format!(
            "kernel {sys:.3} s; minor page faults {faults:.0}, major {}",
            from_disk[at]
        );
        if way == way.reference() {
            println!("  {}: {time:.3} s; {faults}", way.name());
            continue;
        }
        let mut ratios: Vec<f64> = (seconds[at].iter().zip(&seconds[reference(way)]))
            .map(|(s, r)| s / r)
            .collect();
        let (lo, hi) = (
            ratios.iter().copied().fold(f64::INFINITY, f64::min),
            ratios.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        );
        println!(
            "  {}: {time:.3} s; / {}: {:.3} (from {lo:.3} to {hi:.3}); {faults}",
            way.name(),
            way.reference().name(),
            median(&mut ratios),
        );
    }
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// Page faults of the process so far (all its threads).
struct PageFaults {
    /// Pages mapped from memory (or memory got anew).
    minor: u64,
    /// Pages read from disk.
    major: u64,
}

/// The process's page faults so far, from `/proc/self/stat` (0 where
/// there is none).
fn page_faults() -> PageFaults {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // The fields after the command's name, `(...)`: minflt is the 10th of
    // the line, the 8th after it; majflt the 12th, the 10th after it.
    let fields: Vec<&str> = (stat.rsplit_once(") ").map(|(_, rest)| rest))
        .map(|rest| rest.split_whitespace().collect())
        .unwrap_or_default();
    let field = |n: usize| fields.get(n).and_then(|v| v.parse().ok()).unwrap_or(0);
    PageFaults {
        minor: field(7),
        major: field(9),
    }
}

/// Where the bench's files are read from.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Pages {
    /// The page cache, every page read in before each way.
    Cached,
    /// The page cache, the files read in with `read` first.
    Read,
    /// The page cache, the files read in with `MADV_WILLNEED` first.
    WillNeed,
    /// The disk, every page dropped from the cache before each way.
    Dropped,
}

impl std::str::FromStr for Pages {
    type Err = ();
    fn from_str(s: &str) -> Result<Pages, ()> {
        match s {
            "cached" => Ok(Pages::Cached),
            "read" => Ok(Pages::Read),
            "willneed" => Ok(Pages::WillNeed),
            "dropped" => Ok(Pages::Dropped),
            _ => Err(()),
        }
    }
}

/// Bring the files into the page cache once, in folios of the size that
/// `pages` asks for.
fn settle(paths: &[PathBuf], pages: Pages) {
    if !matches!(pages, Pages::Read | Pages::WillNeed) {
        return;
    }
    drop_from_memory(paths);
    for path in paths {
        let mut file = std::fs::File::open(path).expect("open");
        if pages == Pages::Read {
            std::io::copy(&mut file, &mut std::io::sink()).expect("read");
            continue;
        }
        // SAFETY: the bench's own files, not changed while mapped.
        let map = unsafe { memmap2::Mmap::map(&file) }.expect("map");
        // A megabyte at a time, as the reader's chunks: the kernel reads
        // at most its read-ahead window's worth an advice.
        for at in (0..map.len()).step_by(1 << 20) {
            let len = (map.len() - at).min(1 << 20);
            map.advise_range(memmap2::Advice::WillNeed, at, len)
                .expect("madvise");
        }
    }
}

/// Have the files' pages where `pages` says, untimed.
fn prepare(paths: &[PathBuf], pages: Pages) {
    match pages {
        Pages::Cached | Pages::Read | Pages::WillNeed => bring_into_memory(paths),
        Pages::Dropped => drop_from_memory(paths),
    }
}

/// No page of the files in the page cache: the kernel drops a file's
/// clean pages when asked (`POSIX_FADV_DONTNEED`), so they are written
/// back first.
fn drop_from_memory(paths: &[PathBuf]) {
    use std::os::fd::AsRawFd;
    for path in paths {
        let file = std::fs::File::open(path).expect("open");
        file.sync_all().expect("sync");
        // SAFETY: an advice on an open file descriptor, no memory passed.
        let status =
            unsafe { libc::posix_fadvise(file.as_raw_fd(), 0, 0, libc::POSIX_FADV_DONTNEED) };
        assert_eq!(status, 0, "posix_fadvise of {}", path.display());
    }
}

/// The CPU time the process spent in the kernel so far, in seconds.
fn system_seconds() -> f64 {
    // SAFETY: `rusage` is plain integers, for which zero is a value, and
    // getrusage only writes the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    usage.ru_stime.tv_sec as f64 + usage.ru_stime.tv_usec as f64 * 1e-6
}

/// Every page of the files in the page cache (read from disk if the
/// kernel dropped it), through maps made and dropped here.
fn bring_into_memory(paths: &[PathBuf]) {
    for path in paths {
        let file = std::fs::File::open(path).expect("open");
        // SAFETY: the bench's own files, not changed while mapped.
        let map = unsafe { memmap2::MmapOptions::new().populate().map(&file) };
        drop(map.expect("map"));
    }
}
