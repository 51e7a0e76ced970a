//! The files of every storage format: memory-mapped reading that hands
//! pages back to the kernel once read, writing under a temporary name
//! that is renamed when complete (never over another file). Which format
//! a file is in is [`super::Format`]'s to say.

use std::io;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use bytes::Bytes;

use crate::{Error, Result};

/// File ranges at least this long are released when no longer used.
pub(crate) const RELEASE_MIN_BYTES: usize = 256 << 10;

/// The pages between a released range and the next one released, when
/// at most this far apart (a chunk's index records and the next chunk's
/// header), go with the next.
const RELEASE_GAP_BYTES: usize = 64 << 10;

/// Ranges released one after another in the file are handed back to the
/// kernel in stretches of at least this many bytes. Each hand-back
/// (`madvise(MADV_DONTNEED)`) interrupts every processor running another
/// thread of the process, to flush its address translations (in a virtual
/// machine, an exit to the hypervisor each). With one other thread of the
/// process busy, handing back each chunk (768 KB) made reading four 1 GB
/// files 1.7 times as slow (a byte a page; 1.3 times every byte read); in
/// stretches of 16 MB, 1.1 times (1.05). With no other thread busy the
/// stretches cost nothing (4 % less time).
const RELEASE_BATCH_BYTES: usize = 16 << 20;

/// A memory-mapped file whose read ranges are handed back to the kernel.
#[derive(Debug)]
pub(crate) struct MappedFile {
    pub(crate) map: memmap2::Mmap,
    /// The file, kept open to ask the kernel how much of it is in memory.
    #[cfg_attr(not(target_os = "linux"), allow(dead_code))]
    file: std::fs::File,
    /// The stretch of released ranges not handed back yet, in whole
    /// pages: it ends where the range released last ends, rounded down,
    /// for the page there holds the start of what follows.
    unreleased: Mutex<Range<usize>>,
}

impl MappedFile {
    /// Whether every page of `range` of the file is in memory. The kernel
    /// counts the range's pages in its cache (`cachestat`, Linux 6.5 and
    /// later: a folio of up to 2 MB at a step, 0.5-2 µs for a chunk of
    /// 768 KB); where it cannot, the range's first and last pages are
    /// asked about (`mincore` looks up every page of a range: 5-10 µs for
    /// such a chunk, a tenth of the time reading it takes).
    pub(crate) fn resident(&self, range: Range<usize>) -> bool {
        let page = page_size();
        let start = range.start / page * page;
        let end = range.end.min(self.map.len());
        if start >= end {
            return true;
        }
        #[cfg(target_os = "linux")]
        if let Some(cached) = cached_pages(&self.file, start, end - start) {
            return cached >= (end - start).div_ceil(page) as u64;
        }
        self.page_resident(start) && self.page_resident(end - 1)
    }

    /// Whether the page holding byte `at` of the file is in memory.
    fn page_resident(&self, at: usize) -> bool {
        let page = page_size();
        let start = at / page * page;
        let Some(len) = self.map.len().checked_sub(start).map(|n| n.min(page)) else {
            return false;
        };
        let mut status = 0u8;
        // SAFETY: the range is one page inside the map (page-aligned start,
        // as mincore requires), and `status` has room for that one page.
        let ok = unsafe {
            libc::mincore(
                self.map.as_ptr().add(start) as *mut libc::c_void,
                len,
                &mut status,
            )
        } == 0;
        ok && status & 1 == 1
    }

    /// Ask the kernel to start reading a range of the file that is about
    /// to be read, unless all of it is in memory: asking costs as much as
    /// reading a few hundred microseconds' worth when the pages are there
    /// already. Any page missing counts: the kernel drops a file's pages a
    /// folio at a time, anywhere, and each page missing from a map read at
    /// random is read alone, waited for, when touched.
    pub(crate) fn will_need(&self, range: Range<usize>) {
        if range.is_empty() || self.resident(range.clone()) {
            return;
        }
        let _ = self
            .map
            .advise_range(memmap2::Advice::WillNeed, range.start, range.len());
    }

    /// Read the file at random from now on: the kernel's read-around on a
    /// fault (megabytes: `read_ahead_kb`) would make every touch of an index
    /// or chunk header read a stretch of frames, and reading the index of a
    /// large file not in the page cache would read all of it. The reader
    /// asks for the ranges it is about to read instead.
    pub(crate) fn read_at_random(&self) {
        let _ = self.map.advise(memmap2::Advice::Random);
    }

    /// Run `read`, which walks the whole file in order, with the kernel's
    /// read-ahead on (the map is read at random otherwise).
    pub(crate) fn sequentially<T>(&self, read: impl FnOnce() -> T) -> T {
        let _ = self.map.advise(memmap2::Advice::Sequential);
        let result = read();
        let _ = self.map.advise(memmap2::Advice::Random);
        result
    }

    /// Hand the pages of a range no longer referenced back to the kernel,
    /// with those of the ranges released before it in the file, once they
    /// make a stretch of [`RELEASE_BATCH_BYTES`]; a range elsewhere (read
    /// at random, or past chunks skipped) sends the stretch before it back
    /// and starts another. A file read in order keeps at most that much of
    /// what it has read mapped.
    ///
    /// The page holding the range's end is left for the range after it
    /// (the next chunk, whose first frame is read next): released with
    /// this one, it was mapped again at once, one fault in ten of reading
    /// a file in order.
    pub(crate) fn release(&self, start: usize, end: usize) {
        let page = page_size();
        let (from, to) = (start / page * page, end / page * page);
        let (before, stretch) = {
            let mut unreleased = self.unreleased.lock().unwrap_or_else(|e| e.into_inner());
            let follows = unreleased.end <= from && from - unreleased.end <= RELEASE_GAP_BYTES;
            let before = if follows {
                0..0
            } else {
                std::mem::replace(&mut *unreleased, from..from)
            };
            unreleased.end = unreleased.end.max(to);
            let stretch = if unreleased.len() >= RELEASE_BATCH_BYTES {
                std::mem::replace(&mut *unreleased, to..to)
            } else {
                0..0
            };
            (before, stretch)
        };
        for range in [before, stretch].into_iter().filter(|r| !r.is_empty()) {
            // SAFETY: the map is a read-only view of a file: dropping its
            // pages, even ones still in use, only means they are read from
            // the file again if touched, with the same contents.
            let _ = unsafe {
                self.map.unchecked_advise_range(
                    memmap2::UncheckedAdvice::DontNeed,
                    range.start,
                    range.len(),
                )
            };
        }
    }
}

/// How many pages of `len` bytes of `file` from `offset` (a page's start)
/// the page cache holds, by the `cachestat` system call; `None` where the
/// kernel has none (before Linux 6.5) or refuses.
#[cfg(target_os = "linux")]
fn cached_pages(file: &std::fs::File, offset: usize, len: usize) -> Option<u64> {
    use std::os::fd::AsRawFd;
    /// `cachestat`'s number, the same on every architecture (the
    /// `libc` crate does not have it for all).
    const SYS_CACHESTAT: libc::c_long = 451;
    /// `struct cachestat_range` of `<linux/mman.h>`.
    #[repr(C)]
    struct Range {
        off: u64,
        len: u64,
    }
    /// `struct cachestat` of `<linux/mman.h>`.
    #[repr(C)]
    #[derive(Default)]
    struct Counts {
        cache: u64,
        dirty: u64,
        writeback: u64,
        evicted: u64,
        recently_evicted: u64,
    }
    let range = Range {
        off: offset as u64,
        len: len as u64,
    };
    let mut counts = Counts::default();
    // SAFETY: a valid descriptor, and the two structs as the kernel
    // defines them, alive for the call; flags must be 0.
    let result = unsafe {
        libc::syscall(
            SYS_CACHESTAT,
            file.as_raw_fd(),
            &range as *const Range,
            &mut counts as *mut Counts,
            0u32,
        )
    };
    (result == 0).then_some(counts.cache)
}

fn page_size() -> usize {
    static PAGE: OnceLock<usize> = OnceLock::new();
    // SAFETY: sysconf has no preconditions.
    *PAGE.get_or_init(|| {
        usize::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) })
            .unwrap_or(4096)
            .max(1)
    })
}

/// A range of a memory-mapped file that is released when dropped.
pub(crate) struct MappedRange {
    pub(crate) file: Arc<MappedFile>,
    pub(crate) start: usize,
    pub(crate) end: usize,
}

impl AsRef<[u8]> for MappedRange {
    fn as_ref(&self) -> &[u8] {
        &self.file.map[self.start..self.end]
    }
}

impl Drop for MappedRange {
    fn drop(&mut self) {
        self.file.release(self.start, self.end);
    }
}

/// The owner of a memory map shared with a reader, as `Bytes` needs it.
struct SharedMap(Arc<MappedFile>);

impl AsRef<[u8]> for SharedMap {
    fn as_ref(&self) -> &[u8] {
        &self.0.map
    }
}

/// Memory-map a file; an empty one (which cannot be mapped) is the
/// error `empty` gives.
pub(crate) fn map_file(
    path: &Path,
    empty: impl FnOnce() -> Error,
) -> Result<(Bytes, Arc<MappedFile>)> {
    let io_error = |source| Error::Io {
        path: path.to_path_buf(),
        error: source,
    };
    let file = std::fs::File::open(path).map_err(io_error)?;
    if file.metadata().map_err(io_error)?.len() == 0 {
        return Err(empty());
    }
    // SAFETY: the map is read-only. Another process truncating the file while
    // it is mapped would fault; that is the documented caveat of every
    // memory-mapped reader (rosbag, mcap).
    let map = unsafe { memmap2::Mmap::map(&file) }.map_err(io_error)?;
    let file = Arc::new(MappedFile {
        map,
        file,
        unreleased: Mutex::new(0..0),
    });
    Ok((Bytes::from_owner(SharedMap(file.clone())), file))
}

/// Rename `from` to `to` unless `to` exists (atomically: a file that
/// appears meanwhile is not replaced).
pub(crate) fn rename_no_replace(from: &Path, to: &Path) -> io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::ffi::OsStrExt;
        let c = |p: &Path| {
            std::ffi::CString::new(p.as_os_str().as_bytes())
                .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))
        };
        let (from_c, to_c) = (c(from)?, c(to)?);
        // SAFETY: both are valid NUL-terminated paths that outlive the call.
        let done = unsafe {
            libc::renameat2(
                libc::AT_FDCWD,
                from_c.as_ptr(),
                libc::AT_FDCWD,
                to_c.as_ptr(),
                libc::RENAME_NOREPLACE,
            )
        };
        if done == 0 {
            return Ok(());
        }
        let error = io::Error::last_os_error();
        // Filesystems without the flag: the link below does the same.
        if !matches!(error.raw_os_error(), Some(libc::EINVAL | libc::ENOSYS)) {
            return Err(error);
        }
    }
    std::fs::hard_link(from, to)?;
    std::fs::remove_file(from)
}

/// A hold on the temporary name of a file being written: while it lives,
/// no other writer claims that name (an exclusive lock on the file).
#[derive(Debug)]
pub(crate) struct PartialClaim {
    /// The partial file, opened again for the lock alone: it outlives the
    /// writer's handle, so that the lock is held until the file has its
    /// final name.
    _lock: std::fs::File,
}

/// Claim the temporary name of a file to be written at `path`
/// ([`partial_path_for`]), opened for writing: refused when `path` exists
/// or the temporary name is taken (a recording being written, or one cut
/// off), unless `replace`. Another writer at work on that name (a second
/// `--force` run into the same file) is refused even with `replace`: the
/// claim locks the partial file until it is published or abandoned.
pub(crate) fn claim_partial(
    path: &Path,
    replace: bool,
) -> Result<(PathBuf, std::fs::File, PartialClaim)> {
    let partial_path = partial_path_for(path);
    let io_error = |error| Error::Io {
        path: partial_path.clone(),
        error,
    };
    if !replace && path.symlink_metadata().is_ok() {
        return Err(Error::Io {
            path: path.to_owned(),
            error: io::Error::new(
                io::ErrorKind::AlreadyExists,
                "the file exists, and is not replaced unless asked (--force, or the overwrite option)",
            ),
        });
    }
    // Not truncated before the lock is ours: it may be another writer's.
    let file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(!replace)
        .create(replace)
        .open(&partial_path)
        .map_err(|source| {
            io_error(match source.kind() {
                io::ErrorKind::AlreadyExists => io::Error::new(
                    io::ErrorKind::AlreadyExists,
                    "the file exists: a recording is being written there, or one was cut off (`rsbag reindex` recovers it); move it away, or replace it (--force)",
                ),
                _ => source,
            })
        })?;
    let busy = || {
        io_error(io::Error::new(
            io::ErrorKind::ResourceBusy,
            "another writer is writing this file now (a second run into the same output?); nothing was written",
        ))
    };
    let lock = file.try_clone().map_err(io_error)?;
    if !lock_exclusively(&lock).map_err(io_error)? {
        return Err(busy());
    }
    // The name may have been published (renamed away) or replaced between
    // the open and the lock: the lock is then on another writer's file.
    if !names_file(&partial_path, &file) {
        return Err(busy());
    }
    file.set_len(0).map_err(io_error)?;
    Ok((partial_path, file, PartialClaim { _lock: lock }))
}

/// Take an exclusive lock on `file` without waiting; `false` when another
/// holds one.
#[cfg(unix)]
fn lock_exclusively(file: &std::fs::File) -> io::Result<bool> {
    use std::os::fd::AsRawFd;
    // SAFETY: flock on a descriptor this process owns.
    if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
        return Ok(true);
    }
    let error = io::Error::last_os_error();
    match error.raw_os_error() {
        Some(libc::EWOULDBLOCK) => Ok(false),
        _ => Err(error),
    }
}

/// Elsewhere files are not locked: the name alone is claimed.
#[cfg(not(unix))]
fn lock_exclusively(_file: &std::fs::File) -> io::Result<bool> {
    Ok(true)
}

/// Whether `path` names the file open as `file`.
#[cfg(unix)]
fn names_file(path: &Path, file: &std::fs::File) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(path), file.metadata()) {
        (Ok(a), Ok(b)) => (a.dev(), a.ino()) == (b.dev(), b.ino()),
        _ => false,
    }
}

#[cfg(not(unix))]
fn names_file(path: &Path, _file: &std::fs::File) -> bool {
    path.exists()
}

/// Give a complete file written at `partial_path` (by [`claim_partial`])
/// its final name `path`: replacing a file there only when `replace`; a
/// file that appeared there meanwhile is kept, and so is this one, under
/// its temporary name (the error says where).
pub(crate) fn publish_partial(partial_path: &Path, path: &Path, replace: bool) -> Result<()> {
    let renamed = if replace {
        std::fs::rename(partial_path, path)
    } else {
        rename_no_replace(partial_path, path)
    };
    renamed.map_err(|source| Error::Io {
        path: path.to_owned(),
        error: match source.kind() {
            io::ErrorKind::AlreadyExists => io::Error::new(
                io::ErrorKind::AlreadyExists,
                format!(
                    "a file appeared under this name while it was written; it is kept as {}",
                    partial_path.display()
                ),
            ),
            _ => source,
        },
    })
}

/// What to do about `error`, where there is something to say, as text to
/// append to its message (empty otherwise): a missing file whose
/// recording was cut off lies under its `.partial` name.
///
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("crash.bag");
/// std::fs::write(dir.path().join("crash.bag.partial"), b"#ROSBAG V2.0\n").unwrap();
/// let error = rsbag::storage::bag::Bag::open(&path).unwrap_err();
/// assert!(rsbag::storage::recovery_hint(&error).contains("rsbag reindex"));
/// ```
pub fn recovery_hint(error: &Error) -> String {
    let (Some(path), Some(io)) = (error.path(), error.io_error()) else {
        return String::new();
    };
    let partial = partial_path_for(path);
    if io.kind() == io::ErrorKind::NotFound && partial.is_file() {
        format!(
            "; but {} exists: a recording that was cut off before it finished (`rsbag reindex {}` recovers it)",
            partial.display(),
            partial.display()
        )
    } else {
        String::new()
    }
}

/// `dir/name.bag` → `dir/name.bag.partial`.
pub fn partial_path_for(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".partial");
    path.with_file_name(name)
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    /// The pages of `file`'s map this process has in memory: the map's
    /// `Rss` in `/proc/self/smaps`.
    fn mapped_pages(file: &MappedFile) -> usize {
        let start = format!("{:x}-", file.map.as_ptr() as usize);
        let smaps = std::fs::read_to_string("/proc/self/smaps").expect("smaps");
        let mut lines = smaps.lines().skip_while(|l| !l.starts_with(&start));
        let rss =
            (lines.find_map(|l| l.strip_prefix("Rss:"))).expect("the map in /proc/self/smaps");
        let kb: usize = rss
            .trim()
            .trim_end_matches("kB")
            .trim()
            .parse()
            .expect("kB");
        kb * 1024 / page_size()
    }

    #[test]
    fn ranges_read_in_order_go_in_stretches_with_the_page_the_next_begins_in() {
        let page = page_size();
        let batch = RELEASE_BATCH_BYTES / page;
        let pages = 3 * batch;
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("file");
        std::fs::write(&path, vec![1u8; pages * page]).expect("write");
        let (_, file) = map_file(&path, || unreachable!("not empty")).expect("map");
        let touched: u64 = file.map.iter().step_by(page).map(|&b| u64::from(b)).sum();
        assert_eq!((touched, mapped_pages(&file)), (pages as u64, pages));
        // A chunk ending in page 10: too short a stretch to go yet.
        file.release(100, 10 * page + 500);
        assert_eq!(mapped_pages(&file), pages);
        // The next, after a few records, ends in page `batch`: pages 0 to
        // `batch - 1` go, that one holds the start of what follows. (Whole
        // 2 MB folios: the kernel can map one at a step, and then drops it
        // all when any of it goes.)
        file.release(10 * page + 1500, batch * page + 8);
        assert_eq!(mapped_pages(&file), pages - batch);
        // A range far past it starts a stretch of its own: nothing goes.
        let two_mb = 2 << 20;
        let far = batch * page + 2 * two_mb;
        file.release(far, far + two_mb + 8);
        assert_eq!(mapped_pages(&file), pages - batch);
        // One before it (read at random): the stretch before goes at once.
        file.release(3 * page, 5 * page);
        assert_eq!(mapped_pages(&file), pages - batch - two_mb / page);
    }

    #[test]
    fn a_range_is_resident_only_with_every_page_in_memory() {
        use std::os::fd::AsRawFd;
        let page = page_size();
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("file");
        let written = std::fs::File::create(&path).expect("create");
        std::io::Write::write_all(&mut &written, &vec![1u8; 4096 * page]).expect("write");
        written.sync_all().expect("sync");
        // The kernel drops pages of the middle (clean, mapped by no one), as
        // it does under memory pressure or on a machine that gives memory
        // back. It drops whole folios, which can be 2 MB: so 2 MB, aligned.
        let drop = |first: usize, pages: usize| {
            let (at, len) = ((first * page) as i64, (pages * page) as i64);
            // SAFETY: a valid descriptor; the call only advises.
            let result = unsafe {
                libc::posix_fadvise(written.as_raw_fd(), at, len, libc::POSIX_FADV_DONTNEED)
            };
            assert_eq!(result, 0, "POSIX_FADV_DONTNEED");
        };
        let two_mb = (2 << 20) / page;
        drop(two_mb, two_mb);
        let (_, file) = map_file(&path, || unreachable!("not empty")).expect("map");
        assert!(file.resident(0..page) && file.resident(4095 * page..4096 * page));
        assert!(
            !file.resident(10..4096 * page),
            "the ends are in, not the middle"
        );
        assert!(!file.resident(600 * page + 10..600 * page + 20));
        assert!(file.resident(3..two_mb * page), "the pages before it");
        // Megabytes, the missing pages far from both ends.
        assert!(file.resident(2 * two_mb * page..4096 * page));
        drop(6 * two_mb, two_mb);
        assert!(!file.resident(2 * two_mb * page..4096 * page));
    }
}
