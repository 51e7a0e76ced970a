//! What rsbag's SQLite VFSs share: each is a VFS over SQLite's default one
//! (the remote reader's, and the writers' direct writing), which keeps the
//! default's clock, sleep, randomness and errors and hands its own file
//! methods to SQLite.

use std::ffi::{c_char, c_int, CStr};

use rusqlite::ffi;

/// A VFS's own functions: opening a file, and the names it is given.
pub(crate) struct VfsFunctions {
    pub(crate) open: unsafe extern "C" fn(
        *mut ffi::sqlite3_vfs,
        *const c_char,
        *mut ffi::sqlite3_file,
        c_int,
        *mut c_int,
    ) -> c_int,
    pub(crate) delete: unsafe extern "C" fn(*mut ffi::sqlite3_vfs, *const c_char, c_int) -> c_int,
    pub(crate) access:
        unsafe extern "C" fn(*mut ffi::sqlite3_vfs, *const c_char, c_int, *mut c_int) -> c_int,
    pub(crate) full_pathname:
        unsafe extern "C" fn(*mut ffi::sqlite3_vfs, *const c_char, c_int, *mut c_char) -> c_int,
}

/// Register a VFS named `name` over SQLite's default one (which its
/// `pAppData` points to): files of `file_size(default's file size)` bytes,
/// opened and named by `functions`. Call once per name: the VFS is leaked,
/// so that it outlives SQLite's use of it.
pub(crate) fn register_over_default(
    name: &'static CStr,
    file_size: impl FnOnce(usize) -> usize,
    functions: VfsFunctions,
) -> Result<(), String> {
    // SAFETY: sqlite3_vfs_find with a null name returns the default VFS (or
    // null), which SQLite keeps for the process's life; the VFS built is
    // filled in before it is registered and never freed.
    unsafe {
        let default = ffi::sqlite3_vfs_find(std::ptr::null());
        if default.is_null() {
            return Err("SQLite has no default VFS".into());
        }
        let mut vfs: ffi::sqlite3_vfs = std::mem::zeroed();
        vfs.iVersion = 2;
        vfs.szOsFile = c_int::try_from(file_size((*default).szOsFile as usize))
            .map_err(|_| "a VFS file too large".to_owned())?;
        vfs.mxPathname = (*default).mxPathname;
        vfs.zName = name.as_ptr();
        vfs.pAppData = default.cast();
        vfs.xOpen = Some(functions.open);
        vfs.xDelete = Some(functions.delete);
        vfs.xAccess = Some(functions.access);
        vfs.xFullPathname = Some(functions.full_pathname);
        vfs.xRandomness = (*default).xRandomness;
        vfs.xSleep = (*default).xSleep;
        vfs.xCurrentTime = (*default).xCurrentTime;
        vfs.xGetLastError = (*default).xGetLastError;
        vfs.xCurrentTimeInt64 = (*default).xCurrentTimeInt64;
        let vfs = Box::leak(Box::new(vfs));
        match ffi::sqlite3_vfs_register(vfs, 0) {
            ffi::SQLITE_OK => Ok(()),
            code => Err(format!("SQLite refused the VFS {name:?} ({code})")),
        }
    }
}
