//! Room on the disk for a file being recorded: space allocated ahead of
//! what is written, so that when the disk fills up the file can still be
//! finished (its last data, its index and closing records written) under
//! its final name, instead of a write failing half-way.
//!
//! Before each batch of data the writer asks for room up to a bound on
//! the size the file would have if it were finished right after it
//! ([`SpaceReserve::make_room`]); the space is allocated (`fallocate`,
//! keeping the file's size) so that no later write of the file can fail
//! for lack of it, and [`KEEP_FREE`] is left free besides, for what is
//! written beside the file (SQLite's journal of its last commit). When
//! the disk cannot give that, the recording stops taking frames and
//! finishes the file within the space it has.

use std::fs::File;
use std::io;
use std::path::Path;

use super::disk::free_bytes_of;
use super::disk::system::allocate_keeping_size;

/// Space always left free on the disk, for what is written beside a
/// recording (SQLite's rollback journal holds the pages a commit changes:
/// a few 64 KiB pages of an appended database).
pub(crate) const KEEP_FREE: u64 = 4 << 20;

/// Space is allocated in steps this large, so that asking for room is a
/// comparison most of the time.
const STEP: u64 = 16 << 20;

/// Space allocated ahead of one file being written.
#[derive(Debug)]
pub(crate) struct SpaceReserve {
    file: File,
    /// The end of the space allocated so far.
    reserved_to: u64,
    /// The filesystem cannot allocate ahead: only its free space is
    /// watched.
    unsupported: bool,
}

/// The disk could not give the room asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct NoRoom {
    /// Bytes free on the disk when asked.
    pub(crate) free: u64,
}

impl SpaceReserve {
    /// Watch the file at `path` (open for writing elsewhere).
    pub(crate) fn open(path: &Path) -> io::Result<SpaceReserve> {
        let file = std::fs::OpenOptions::new().write(true).open(path)?;
        Ok(SpaceReserve {
            file,
            reserved_to: 0,
            unsupported: false,
        })
    }

    /// Make sure the file can grow to `size` bytes with [`KEEP_FREE`]
    /// left on the disk: allocate what is missing (a [`STEP`] more when
    /// the disk has it).
    pub(crate) fn make_room(&mut self, size: u64) -> io::Result<std::result::Result<(), NoRoom>> {
        if size <= self.reserved_to {
            return Ok(Ok(()));
        }
        let free = free_bytes_of(&self.file).unwrap_or(u64::MAX);
        let missing = size - self.reserved_to;
        let to = if free >= missing.saturating_add(STEP).saturating_add(KEEP_FREE) {
            size + STEP
        } else if free >= missing.saturating_add(KEEP_FREE) {
            size
        } else {
            return Ok(Err(NoRoom { free }));
        };
        if self.unsupported {
            // Nothing to allocate: the free space alone said yes.
            return Ok(Ok(()));
        }
        match allocate_keeping_size(&self.file, self.reserved_to, to - self.reserved_to) {
            Ok(()) => {
                self.reserved_to = to;
                Ok(Ok(()))
            }
            Err(e) if e.raw_os_error() == Some(libc::ENOSPC) => Ok(Err(NoRoom { free })),
            Err(e)
                if e.kind() == io::ErrorKind::Unsupported
                    || e.raw_os_error() == Some(libc::EOPNOTSUPP) =>
            {
                self.unsupported = true;
                Ok(Ok(()))
            }
            Err(e) => Err(e),
        }
    }

    /// Give back the space allocated past the finished file's end.
    pub(crate) fn release(self) -> io::Result<()> {
        if self.reserved_to == 0 || self.unsupported {
            return Ok(());
        }
        // Truncating to the file's own length frees the blocks past it.
        let len = self.file.metadata()?.len();
        self.file.set_len(len)
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use std::os::unix::fs::MetadataExt;

    /// Room is allocated past the end without changing the length, and
    /// given back when released.
    #[test]
    fn allocates_ahead_and_gives_back() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("file");
        std::fs::write(&path, vec![1u8; 4096]).expect("write");
        let mut reserve = SpaceReserve::open(&path).expect("open");
        assert_eq!(reserve.make_room(1 << 20).expect("room"), Ok(()));
        let m = std::fs::metadata(&path).expect("metadata");
        assert_eq!(m.len(), 4096);
        if !reserve.unsupported {
            assert!(m.blocks() * 512 >= 1 << 20, "{} blocks", m.blocks());
        }
        reserve.release().expect("release");
        let m = std::fs::metadata(&path).expect("metadata");
        assert_eq!(m.len(), 4096);
        assert!(m.blocks() * 512 < 1 << 20, "{} blocks", m.blocks());
    }

    /// More than the disk holds is no room, and nothing is allocated.
    #[test]
    fn more_than_the_disk_is_no_room() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("file");
        std::fs::write(&path, b"x").expect("write");
        let mut reserve = SpaceReserve::open(&path).expect("open");
        let free = crate::storage::free_bytes(dir.path()).expect("free");
        let answer = reserve.make_room(free + (1 << 30)).expect("asked");
        assert!(answer.is_err());
        assert_eq!(reserve.reserved_to, 0);
    }
}
