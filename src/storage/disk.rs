//! The system calls behind the writers' use of the disk: space allocated
//! without growing a file, written ranges sent to the disk and dropped from
//! the page cache, and the space left free. Elsewhere than Linux they are
//! unsupported, and their callers do without.

use std::fs::File;
use std::path::Path;

/// Bytes free (to an unprivileged user) on the filesystem holding `dir`.
pub fn free_bytes(dir: &Path) -> Option<u64> {
    free_bytes_of(&File::open(dir).ok()?)
}

/// Bytes free (to an unprivileged user) on the filesystem holding the
/// open `file`.
#[cfg(unix)]
pub(crate) fn free_bytes_of(file: &File) -> Option<u64> {
    use std::os::fd::AsRawFd;
    let mut stats: libc::statvfs = unsafe { std::mem::zeroed() };
    // SAFETY: an open descriptor and a statvfs to fill.
    let done = unsafe { libc::fstatvfs(file.as_raw_fd(), &mut stats) };
    (done == 0).then(|| stats.f_bavail as u64 * stats.f_frsize as u64)
}

#[cfg(not(unix))]
pub(crate) fn free_bytes_of(_file: &File) -> Option<u64> {
    None
}

#[cfg(target_os = "linux")]
pub(super) mod system {
    use std::fs::File;
    use std::io;
    use std::os::fd::AsRawFd;

    fn to_off(n: u64) -> io::Result<libc::off_t> {
        libc::off_t::try_from(n).map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))
    }

    fn result(done: libc::c_int) -> io::Result<()> {
        if done == 0 {
            Ok(())
        } else {
            Err(io::Error::last_os_error())
        }
    }

    pub(crate) fn allocate_keeping_size(file: &File, offset: u64, len: u64) -> io::Result<()> {
        let (offset, len) = (to_off(offset)?, to_off(len)?);
        // SAFETY: a plain system call on an open descriptor.
        result(unsafe { libc::fallocate(file.as_raw_fd(), libc::FALLOC_FL_KEEP_SIZE, offset, len) })
    }

    /// Allocate the range's blocks, the file growing to its end.
    pub(crate) fn allocate(file: &File, offset: u64, len: u64) -> io::Result<()> {
        let (offset, len) = (to_off(offset)?, to_off(len)?);
        // SAFETY: a plain system call on an open descriptor.
        result(unsafe { libc::fallocate(file.as_raw_fd(), 0, offset, len) })
    }

    /// Start writing the range to the disk, without waiting.
    pub(crate) fn start_writing(file: &File, offset: u64, len: u64) -> io::Result<()> {
        let (offset, len) = (to_off(offset)?, to_off(len)?);
        let flags = libc::SYNC_FILE_RANGE_WRITE;
        // SAFETY: a plain system call on an open descriptor.
        result(unsafe { libc::sync_file_range(file.as_raw_fd(), offset, len, flags) })
    }

    /// Wait until the range is on the disk, then drop its pages from the
    /// page cache.
    pub(crate) fn drop_written(file: &File, offset: u64, len: u64) -> io::Result<()> {
        let (offset, len) = (to_off(offset)?, to_off(len)?);
        let flags = libc::SYNC_FILE_RANGE_WAIT_BEFORE
            | libc::SYNC_FILE_RANGE_WRITE
            | libc::SYNC_FILE_RANGE_WAIT_AFTER;
        let fd = file.as_raw_fd();
        // SAFETY: a plain system call on an open descriptor.
        result(unsafe { libc::sync_file_range(fd, offset, len, flags) })?;
        // SAFETY: as above. It returns the error number instead of setting
        // errno.
        match unsafe { libc::posix_fadvise(fd, offset, len, libc::POSIX_FADV_DONTNEED) } {
            0 => Ok(()),
            e => Err(io::Error::from_raw_os_error(e)),
        }
    }
}

#[cfg(not(target_os = "linux"))]
pub(super) mod system {
    use std::fs::File;
    use std::io;

    fn unsupported() -> io::Result<()> {
        Err(io::Error::from(io::ErrorKind::Unsupported))
    }

    pub(crate) fn allocate_keeping_size(_: &File, _: u64, _: u64) -> io::Result<()> {
        unsupported()
    }

    pub(crate) fn allocate(_: &File, _: u64, _: u64) -> io::Result<()> {
        unsupported()
    }

    pub(crate) fn start_writing(_: &File, _: u64, _: u64) -> io::Result<()> {
        unsupported()
    }

    pub(crate) fn drop_written(_: &File, _: u64, _: u64) -> io::Result<()> {
        unsupported()
    }
}
