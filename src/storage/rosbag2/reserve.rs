//! Disk space reserved ahead of a file that grows by appending.
//!
//! A filesystem that allocates lazily (ext4, XFS) does its bookkeeping
//! page by page as the page cache fills: reserving each block, mapping it
//! at write-back. Reserving the next megabytes in one `fallocate` call
//! (without changing the file's size, which SQLite reads) lets each write
//! land in blocks already allocated: on this project's machine, writing
//! 1 GB in 64 KiB pieces takes 0.18 s of kernel time instead of 0.24 s,
//! and a 1 GB `convert --to ros2` an eighth less. What is left unused past
//! the end is given back when the file is finished.

use std::fs::File;
use std::io;

/// How far ahead of the file's end space is reserved.
const AHEAD: u64 = 32 << 20;

/// The reservation of one file.
#[derive(Debug)]
pub(crate) struct Reserve {
    file: File,
    /// The end of the space reserved so far.
    reserved_to: u64,
}

impl Reserve {
    pub(crate) fn new(file: File) -> Reserve {
        Reserve {
            file,
            reserved_to: 0,
        }
    }

    /// Reserve space up to [`AHEAD`] past the file's end, when less than
    /// half of that is left. Where the filesystem cannot reserve space, or
    /// the disk is full, nothing is reserved: the writes themselves then
    /// tell.
    pub(crate) fn top_up(&mut self) {
        let Ok(len) = self.file.metadata().map(|m| m.len()) else {
            return;
        };
        if self.reserved_to >= len + AHEAD / 2 {
            return;
        }
        let from = self.reserved_to.max(len);
        if allocate_keeping_size(&self.file, from, len + AHEAD - from).is_ok() {
            self.reserved_to = len + AHEAD;
        }
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

#[cfg(target_os = "linux")]
fn allocate_keeping_size(file: &File, offset: u64, len: u64) -> io::Result<()> {
    use std::os::fd::AsRawFd;
    let to_off =
        |n: u64| libc::off_t::try_from(n).map_err(|_| io::Error::from(io::ErrorKind::InvalidInput));
    // SAFETY: a plain system call on an open descriptor.
    let done = unsafe {
        libc::fallocate(
            file.as_raw_fd(),
            libc::FALLOC_FL_KEEP_SIZE,
            to_off(offset)?,
            to_off(len)?,
        )
    };
    if done == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

#[cfg(not(target_os = "linux"))]
fn allocate_keeping_size(_: &File, _: u64, _: u64) -> io::Result<()> {
    Err(io::Error::from(io::ErrorKind::Unsupported))
}

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
        let mut reserve = Reserve::new(file.try_clone().expect("clone"));
        reserve.top_up();
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
}
