//! A file that grows by appending, as the writers' outputs do: disk space
//! reserved ahead of its end, and what was written sent to the disk and
//! let go of behind it.
//!
//! **Reserving ahead.** A filesystem that allocates lazily (ext4, XFS)
//! does its bookkeeping page by page as the page cache fills: reserving
//! each block, mapping it at write-back. Reserving the next megabytes in
//! one `fallocate` call (without changing the file's size, which SQLite
//! reads) lets each write land in blocks already allocated: on this
//! project's machine, writing 1 GB in 64 KiB pieces takes 0.18 s of kernel
//! time instead of 0.24 s, and a 1 GB `convert --to ros2` an eighth less.
//! What is left unused past the end is given back when the file is
//! finished.
//!
//! **Writing behind.** Left to itself, the kernel keeps a whole output in
//! the page cache and writes it out later: a 1 GB conversion takes 1 GB of
//! memory the system may not have at hand. On a virtual machine that hands
//! idle memory back to its host (as this project's does), filling that
//! memory again costs about ten times the copy itself: writing 1 GB took
//! 2.8 s, against 0.6 s when each written stretch was sent to the disk at
//! once (`sync_file_range`) and, once there, dropped from the page cache
//! (`POSIX_FADV_DONTNEED`), so that the next writes reuse the same pages.
//! A long output then also leaves the page cache to what the user was
//! doing, and is on the disk, but for the last stretch, when it is done.
//! (A `.db3` conversion, which need not survive a crash, skips the page
//! cache altogether: see `rosbag2::direct_writes`.)

use std::fs::File;
use std::io;

use super::disk::free_bytes_of;
use super::disk::system::{allocate_keeping_size, drop_written, start_writing};
use super::reserve::KEEP_FREE;

/// How far ahead of the file's end space is reserved.
const AHEAD: u64 = 32 << 20;

/// How far behind the file's end written pages are waited for and let go
/// of: the stretch between is being written to the disk meanwhile.
const BEHIND: u64 = 64 << 20;

/// One growing file.
#[derive(Debug)]
pub(crate) struct GrowingFile {
    file: File,
    /// The end of the space reserved so far.
    reserved_to: u64,
    /// Where the disk was last asked to write up to.
    sent_to: u64,
    /// Up to where written pages were let go of.
    dropped_to: u64,
}

impl GrowingFile {
    pub(crate) fn new(file: File) -> GrowingFile {
        GrowingFile {
            file,
            reserved_to: 0,
            sent_to: 0,
            dropped_to: 0,
        }
    }

    /// Reserve space up to [`AHEAD`] past the file's end, when less than
    /// half of that is left. Where the filesystem cannot reserve space, or
    /// the disk is full, nothing is reserved: the writes themselves then
    /// tell.
    pub(crate) fn reserve_ahead(&mut self) {
        let Ok(len) = self.file.metadata().map(|m| m.len()) else {
            return;
        };
        if self.reserved_to >= len + AHEAD / 2 {
            return;
        }
        let from = self.reserved_to.max(len);
        // Reserving for speed never takes the disk's last space: a
        // recording stopped by a full disk finishes in it.
        let want = len + AHEAD - from;
        if free_bytes_of(&self.file).is_some_and(|free| free < want + KEEP_FREE) {
            return;
        }
        if allocate_keeping_size(&self.file, from, want).is_ok() {
            self.reserved_to = len + AHEAD;
        }
    }

    /// Send what was written since the last call to the disk, and let go
    /// of the pages more than [`BEHIND`] before the end once they are
    /// there. Pages written again later (SQLite rewrites a few) are simply
    /// dirty again. Where the system cannot, nothing happens: the kernel
    /// then writes the file out in its own time.
    pub(crate) fn write_behind(&mut self) {
        let Ok(len) = self.file.metadata().map(|m| m.len()) else {
            return;
        };
        let end = len & !(PAGE - 1);
        if end > self.sent_to && start_writing(&self.file, self.sent_to, end - self.sent_to).is_ok()
        {
            self.sent_to = end;
        }
        let behind = self.sent_to.saturating_sub(BEHIND);
        if behind > self.dropped_to
            && drop_written(&self.file, self.dropped_to, behind - self.dropped_to).is_ok()
        {
            self.dropped_to = behind;
        }
    }

    /// The file.
    pub(crate) fn file(&self) -> &File {
        &self.file
    }

    /// Give back the space reserved past the file's end.
    pub(crate) fn release(self) -> io::Result<()> {
        if self.reserved_to == 0 {
            return Ok(());
        }
        // Truncating to the file's own length frees the blocks past it.
        let len = self.file.metadata()?.len();
        self.file.set_len(len)
    }
}

/// The page size the ranges are rounded to (a multiple of it where pages
/// are larger would only leave a page's tail to the kernel).
const PAGE: u64 = 4096;

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// Space is reserved past the end without changing the length, and
    /// given back when released.
    #[cfg(target_os = "linux")]
    #[test]
    fn reserves_ahead_and_gives_back() {
        use std::os::unix::fs::MetadataExt;
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("grows");
        let mut file = File::create_new(&path).expect("create");
        file.write_all(&[7; 100_000]).expect("write");
        let mut reserve = GrowingFile::new(file.try_clone().expect("clone"));
        reserve.reserve_ahead();
        let meta = std::fs::metadata(&path).expect("stat");
        assert_eq!(meta.len(), 100_000);
        if reserve.reserved_to == 0 {
            return; // a filesystem without fallocate: nothing to check
        }
        assert!(meta.blocks() * 512 >= AHEAD, "{} blocks", meta.blocks());
        file.write_all(&[8; 50_000]).expect("write");
        reserve.release().expect("release");
        let meta = std::fs::metadata(&path).expect("stat");
        assert_eq!(meta.len(), 150_000);
        assert!(meta.blocks() * 512 < 1 << 20, "{} blocks", meta.blocks());
        assert_eq!(std::fs::read(&path).expect("read")[149_999], 8);
    }

    /// Written pages far enough behind the end are on the disk and out of
    /// the page cache; the file's bytes are unchanged.
    #[cfg(target_os = "linux")]
    #[test]
    fn writes_behind_and_lets_go() {
        use std::os::fd::AsRawFd;
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("grows");
        let mut file = File::create_new(&path).expect("create");
        let mut growing = GrowingFile::new(file.try_clone().expect("clone"));
        let piece: Vec<u8> = (0..1 << 20).map(|i: u32| (i * 7 % 251) as u8).collect();
        let pieces = (BEHIND >> 20) + 16;
        for _ in 0..pieces {
            file.write_all(&piece).expect("write");
            growing.write_behind();
        }
        assert_eq!(growing.sent_to, pieces << 20);
        if growing.dropped_to == 0 {
            return; // a filesystem that cannot: nothing to check
        }
        assert_eq!(growing.dropped_to, (pieces << 20) - BEHIND);
        // Which pages of the file are in memory (mincore over a map of it).
        let len = (pieces << 20) as usize;
        // SAFETY: a read-only map of a file this test owns, unmapped below.
        let map = unsafe {
            let fd = file.as_raw_fd();
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ,
                libc::MAP_SHARED,
                fd,
                0,
            )
        };
        assert_ne!(map, libc::MAP_FAILED);
        let mut resident = vec![0u8; len / PAGE as usize];
        // SAFETY: `resident` has a byte per page of the map.
        let found = unsafe { libc::mincore(map, len, resident.as_mut_ptr()) };
        // SAFETY: the map made above, no longer used.
        unsafe { libc::munmap(map, len) };
        assert_eq!(found, 0);
        let dropped = growing.dropped_to / PAGE;
        let still = resident[..dropped as usize].iter().filter(|&&r| r & 1 != 0);
        assert!(
            still.count() < 64,
            "written pages behind the end stay in memory"
        );
        let bytes = std::fs::read(&path).expect("read");
        assert!(bytes.chunks(1 << 20).all(|c| c == piece));
    }
}
