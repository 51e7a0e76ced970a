//! A `.db3` whose pages go straight to the disk (`O_DIRECT`), from a
//! thread of their own, for writers that need not survive a crash (the
//! conversions).
//!
//! Why: through the page cache, each page SQLite writes is copied into
//! the cache by the kernel, which allocates and accounts for it, writes
//! it out later and, once written, is told to let go of it (see
//! `growing_file`): half of the writing thread's time in a 1 GB
//! conversion, which then takes 2.2x the time of writing its bytes
//! straight to the disk (1.4x written as here, in the same rounds). Here
//! the pages SQLite writes one after another are gathered into aligned
//! runs of [`RUN_BYTES`], which a thread writes with `O_DIRECT` while
//! SQLite goes on: the disk works beside the conversion, and the page
//! cache is not used.
//!
//! How: a VFS over SQLite's default one, which opens every file through
//! it and hands every call on; once [`write_directly`] turns it on for a
//! connection's main file, aligned writes are gathered and written by the
//! thread, in the order SQLite made them. Every other call that looks at
//! the file's bytes (a read, a sync, a truncation, closing) first waits
//! for the writes under way, so that SQLite never sees the file otherwise
//! than it wrote it. Where the filesystem refuses `O_DIRECT`, nothing
//! changes.
//!
//! The thread allocates the file's blocks [`AHEAD`] of the runs, the file
//! growing with them (SQLite is told the size it wrote, and the file is
//! cut to it when the writes are finished): a direct write into blocks
//! already allocated and within the file's size is not held up by
//! allocating them and journaling the new size, and takes about a quarter
//! less time (1 GB in 4 MB writes: 0.30-0.44 s against 0.42-0.53 s).

use std::alloc::{alloc_zeroed, dealloc, Layout};
use std::collections::BTreeMap;
use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::fs::File;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::FileExt;
use std::path::Path;
use std::ptr::NonNull;
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::OnceLock;
use std::thread::JoinHandle;

use rusqlite::{ffi, Connection, OpenFlags};

use crate::storage::disk::system::allocate;
use crate::storage::sqlite_vfs::{register_over_default, VfsFunctions};

/// The VFS's name.
const VFS_NAME: &CStr = c"rsbag-direct";

/// Pages written one after another are written to the disk in runs of up
/// to this many bytes: as the disk floor the benchmarks measure writes.
const RUN_BYTES: usize = 4 << 20;

/// Runs being gathered or written at most: the memory this takes (the
/// disk's pace varies; with 8, SQLite waited for a buffer longer).
const RUNS: usize = 24;

/// How far past the runs sent the file's blocks are allocated.
const AHEAD: u64 = 64 << 20;

/// What `O_DIRECT` needs offsets, lengths and memory aligned to.
const ALIGN: usize = 4096;

/// The file-control opcode (private to this VFS) that turns direct
/// writing on; its argument, a `c_int`, is set to 1 when it is on.
const WRITE_DIRECTLY: c_int = 0x7273_6201;

/// The file-control opcode (private to this VFS) that waits until every
/// page written is on the disk; its argument, a `c_int`, is set to the
/// system's error number where a write failed.
const FINISH_WRITES: c_int = 0x7273_6202;

/// Open `path` as SQLite would, through this VFS (which changes nothing
/// until [`write_directly`] is called).
pub(super) fn open(path: &Path, flags: OpenFlags) -> rusqlite::Result<Connection> {
    match register() {
        Ok(()) => Connection::open_with_flags_and_vfs(path, flags, VFS_NAME),
        Err(_) => Connection::open_with_flags(path, flags),
    }
}

/// Write the main file of `db` (opened by [`open`]) straight to the disk
/// from now on; whether it is (not where the filesystem cannot).
pub(super) fn write_directly(db: &Connection) -> bool {
    file_control(db, WRITE_DIRECTLY) == (ffi::SQLITE_OK, 1)
}

/// Wait until every page of `db`'s main file written so far is on the
/// disk: the error of a write that failed. (SQLite does not look at what
/// closing a file says, and a writer that need not survive a crash never
/// syncs: this is where such a writer hears of a write that failed.)
pub(super) fn finish_writes(db: &Connection) -> io::Result<()> {
    match file_control(db, FINISH_WRITES) {
        (ffi::SQLITE_OK | ffi::SQLITE_NOTFOUND, _) => Ok(()),
        (rc, 0) => Err(io::Error::other(format!(
            "SQLite could not write the file (code {rc})"
        ))),
        (_, errno) => Err(io::Error::from_raw_os_error(errno)),
    }
}

/// This VFS's file control `op` on `db`'s main file: SQLite's code, and
/// the `c_int` the control set.
fn file_control(db: &Connection, op: c_int) -> (c_int, c_int) {
    let mut arg: c_int = 0;
    // SAFETY: the connection's handle is live; the opcodes are ours, and
    // their argument a c_int as x_file_control expects.
    let rc = unsafe {
        ffi::sqlite3_file_control(db.handle(), c"main".as_ptr(), op, (&raw mut arg).cast())
    };
    (rc, arg)
}

/// Register the VFS with SQLite, once.
fn register() -> Result<(), String> {
    static REGISTERED: OnceLock<Result<(), String>> = OnceLock::new();
    let registered = REGISTERED.get_or_init(|| {
        let functions = VfsFunctions {
            open: x_open,
            delete: x_delete,
            access: x_access,
            full_pathname: x_full_pathname,
        };
        // Ours, then the default VFS's file right after.
        let file_size = |default: usize| std::mem::size_of::<ShimFile>() + default;
        register_over_default(VFS_NAME, file_size, functions)
    });
    registered.clone()
}

/// The default VFS this one hands calls on to.
///
/// # Safety
/// `vfs` is this VFS.
unsafe fn default_of(vfs: *mut ffi::sqlite3_vfs) -> *mut ffi::sqlite3_vfs {
    (*vfs).pAppData.cast()
}

unsafe extern "C" fn x_delete(
    vfs: *mut ffi::sqlite3_vfs,
    name: *const c_char,
    sync: c_int,
) -> c_int {
    let default = default_of(vfs);
    ((*default).xDelete.expect("xDelete"))(default, name, sync)
}

unsafe extern "C" fn x_access(
    vfs: *mut ffi::sqlite3_vfs,
    name: *const c_char,
    flags: c_int,
    out: *mut c_int,
) -> c_int {
    let default = default_of(vfs);
    ((*default).xAccess.expect("xAccess"))(default, name, flags, out)
}

unsafe extern "C" fn x_full_pathname(
    vfs: *mut ffi::sqlite3_vfs,
    name: *const c_char,
    size: c_int,
    out: *mut c_char,
) -> c_int {
    let default = default_of(vfs);
    ((*default).xFullPathname.expect("xFullPathname"))(default, name, size, out)
}

/// An open file of the VFS: SQLite's header, ours, then the default VFS's
/// own file (`szOsFile` bytes of it) right after.
#[repr(C)]
struct ShimFile {
    base: ffi::sqlite3_file,
    /// The main database's path (for opening it again with `O_DIRECT`).
    main_path: *mut c_char,
    /// The direct writing, once on (released by `x_close`).
    direct: *mut Direct,
}

impl ShimFile {
    /// The default VFS's file, right after this one.
    ///
    /// # Safety
    /// `file` was allocated by SQLite with this VFS's `szOsFile`.
    unsafe fn inner(file: *mut ffi::sqlite3_file) -> *mut ffi::sqlite3_file {
        file.cast::<u8>()
            .add(std::mem::size_of::<ShimFile>())
            .cast()
    }

    /// The default VFS's methods for `file`.
    ///
    /// # Safety
    /// As [`ShimFile::inner`], and the file is open.
    unsafe fn methods(file: *mut ffi::sqlite3_file) -> &'static ffi::sqlite3_io_methods {
        &*(*Self::inner(file)).pMethods
    }

    /// The direct writing of `file`, if on.
    ///
    /// # Safety
    /// `file` is an open file of this VFS, used by one thread at a time.
    unsafe fn direct<'a>(file: *mut ffi::sqlite3_file) -> Option<&'a mut Direct> {
        (*file.cast::<ShimFile>()).direct.as_mut()
    }
}

// `size_of::<ShimFile>()` keeps the default VFS's file aligned.
const _: () = assert!(std::mem::size_of::<ShimFile>().is_multiple_of(8));

static IO_METHODS: ffi::sqlite3_io_methods = ffi::sqlite3_io_methods {
    // Version 1: no shared memory (no WAL) and no memory-mapped reads,
    // which would read around the writes under way.
    iVersion: 1,
    xClose: Some(x_close),
    xRead: Some(x_read),
    xWrite: Some(x_write),
    xTruncate: Some(x_truncate),
    xSync: Some(x_sync),
    xFileSize: Some(x_file_size),
    xLock: Some(x_lock),
    xUnlock: Some(x_unlock),
    xCheckReservedLock: Some(x_check_reserved_lock),
    xFileControl: Some(x_file_control),
    xSectorSize: Some(x_sector_size),
    xDeviceCharacteristics: Some(x_device_characteristics),
    xShmMap: None,
    xShmLock: None,
    xShmBarrier: None,
    xShmUnmap: None,
    xFetch: None,
    xUnfetch: None,
};

unsafe extern "C" fn x_open(
    vfs: *mut ffi::sqlite3_vfs,
    name: *const c_char,
    file: *mut ffi::sqlite3_file,
    flags: c_int,
    out_flags: *mut c_int,
) -> c_int {
    let default = default_of(vfs);
    let shim = file.cast::<ShimFile>();
    (*shim).base.pMethods = std::ptr::null();
    (*shim).main_path = std::ptr::null_mut();
    (*shim).direct = std::ptr::null_mut();
    let inner = ShimFile::inner(file);
    (*inner).pMethods = std::ptr::null();
    let rc = ((*default).xOpen.expect("xOpen"))(default, name, inner, flags, out_flags);
    if rc != ffi::SQLITE_OK {
        if !(*inner).pMethods.is_null() {
            (ShimFile::methods(file).xClose.expect("xClose"))(inner);
        }
        return rc;
    }
    if flags & ffi::SQLITE_OPEN_MAIN_DB != 0 && !name.is_null() {
        (*shim).main_path = CStr::from_ptr(name).to_owned().into_raw();
    }
    (*shim).base.pMethods = &IO_METHODS;
    ffi::SQLITE_OK
}

unsafe extern "C" fn x_close(file: *mut ffi::sqlite3_file) -> c_int {
    let shim = file.cast::<ShimFile>();
    let mut rc = finish_writing(file);
    if !(*shim).direct.is_null() {
        let direct = Box::from_raw((*shim).direct);
        (*shim).direct = std::ptr::null_mut();
        let stopped = direct.finish();
        if rc == ffi::SQLITE_OK {
            rc = stopped;
        }
    }
    if !(*shim).main_path.is_null() {
        drop(CString::from_raw((*shim).main_path));
        (*shim).main_path = std::ptr::null_mut();
    }
    let closed = (ShimFile::methods(file).xClose.expect("xClose"))(ShimFile::inner(file));
    if rc == ffi::SQLITE_OK {
        closed
    } else {
        rc
    }
}

/// Wait for the direct writes of `file` under way, if any: `Err` with
/// SQLite's code when one failed.
unsafe fn settle(file: *mut ffi::sqlite3_file) -> Result<(), c_int> {
    match ShimFile::direct(file) {
        Some(direct) => direct.wait_all(),
        None => Ok(()),
    }
}

unsafe extern "C" fn x_read(
    file: *mut ffi::sqlite3_file,
    buf: *mut c_void,
    amount: c_int,
    offset: ffi::sqlite3_int64,
) -> c_int {
    if let Err(rc) = settle(file) {
        return rc;
    }
    (ShimFile::methods(file).xRead.expect("xRead"))(ShimFile::inner(file), buf, amount, offset)
}

unsafe extern "C" fn x_write(
    file: *mut ffi::sqlite3_file,
    buf: *const c_void,
    amount: c_int,
    offset: ffi::sqlite3_int64,
) -> c_int {
    if let Some(direct) = ShimFile::direct(file) {
        let bytes = std::slice::from_raw_parts(buf.cast::<u8>(), amount.max(0) as usize);
        match direct.write(bytes, offset as u64) {
            Ok(true) => return ffi::SQLITE_OK,
            Ok(false) => {} // not aligned: written below, after those under way
            Err(rc) => return rc,
        }
    }
    (ShimFile::methods(file).xWrite.expect("xWrite"))(ShimFile::inner(file), buf, amount, offset)
}

unsafe extern "C" fn x_truncate(file: *mut ffi::sqlite3_file, size: ffi::sqlite3_int64) -> c_int {
    if let Err(rc) = settle(file) {
        return rc;
    }
    if let Some(direct) = ShimFile::direct(file) {
        direct.end = size as u64;
        direct.allocated_to = direct.allocated_to.min(direct.end);
    }
    (ShimFile::methods(file).xTruncate.expect("xTruncate"))(ShimFile::inner(file), size)
}

unsafe extern "C" fn x_sync(file: *mut ffi::sqlite3_file, flags: c_int) -> c_int {
    if let Err(rc) = settle(file) {
        return rc;
    }
    (ShimFile::methods(file).xSync.expect("xSync"))(ShimFile::inner(file), flags)
}

unsafe extern "C" fn x_file_size(
    file: *mut ffi::sqlite3_file,
    size: *mut ffi::sqlite3_int64,
) -> c_int {
    // The file is as long as SQLite wrote it (its blocks may be
    // allocated further, and the writes under way not done).
    if let Some(direct) = ShimFile::direct(file) {
        *size = direct.end as ffi::sqlite3_int64;
        return ffi::SQLITE_OK;
    }
    (ShimFile::methods(file).xFileSize.expect("xFileSize"))(ShimFile::inner(file), size)
}

unsafe extern "C" fn x_lock(file: *mut ffi::sqlite3_file, level: c_int) -> c_int {
    (ShimFile::methods(file).xLock.expect("xLock"))(ShimFile::inner(file), level)
}

unsafe extern "C" fn x_unlock(file: *mut ffi::sqlite3_file, level: c_int) -> c_int {
    (ShimFile::methods(file).xUnlock.expect("xUnlock"))(ShimFile::inner(file), level)
}

unsafe extern "C" fn x_check_reserved_lock(file: *mut ffi::sqlite3_file, out: *mut c_int) -> c_int {
    let check = ShimFile::methods(file)
        .xCheckReservedLock
        .expect("xCheckReservedLock");
    check(ShimFile::inner(file), out)
}

unsafe extern "C" fn x_file_control(
    file: *mut ffi::sqlite3_file,
    op: c_int,
    arg: *mut c_void,
) -> c_int {
    if op == WRITE_DIRECTLY {
        let shim = file.cast::<ShimFile>();
        if (*shim).direct.is_null() && !(*shim).main_path.is_null() {
            let path = CStr::from_ptr((*shim).main_path);
            if let Some(direct) = Direct::open(path) {
                (*shim).direct = Box::into_raw(Box::new(direct));
            }
        }
        *arg.cast::<c_int>() = c_int::from(!(*shim).direct.is_null());
        return ffi::SQLITE_OK;
    }
    if op == FINISH_WRITES {
        let rc = finish_writing(file);
        if rc != ffi::SQLITE_OK {
            let errno = ShimFile::direct(file).and_then(|d| d.errno);
            *arg.cast::<c_int>() = errno.unwrap_or(0);
        }
        return rc;
    }
    // No control changes the bytes written (a size hint only reserves
    // space), so none waits for the writes under way.
    (ShimFile::methods(file).xFileControl.expect("xFileControl"))(ShimFile::inner(file), op, arg)
}

/// Wait for the direct writes of `file` under way, if any, then cut the
/// blocks allocated past what SQLite wrote: SQLite's code.
unsafe fn finish_writing(file: *mut ffi::sqlite3_file) -> c_int {
    if let Err(rc) = settle(file) {
        return rc;
    }
    let Some(direct) = ShimFile::direct(file) else {
        return ffi::SQLITE_OK;
    };
    if direct.allocated_to <= direct.end {
        return ffi::SQLITE_OK;
    }
    direct.allocated_to = direct.end;
    let truncate = ShimFile::methods(file).xTruncate.expect("xTruncate");
    truncate(ShimFile::inner(file), direct.end as ffi::sqlite3_int64)
}

unsafe extern "C" fn x_sector_size(file: *mut ffi::sqlite3_file) -> c_int {
    (ShimFile::methods(file).xSectorSize.expect("xSectorSize"))(ShimFile::inner(file))
}

unsafe extern "C" fn x_device_characteristics(file: *mut ffi::sqlite3_file) -> c_int {
    let characteristics = ShimFile::methods(file).xDeviceCharacteristics;
    (characteristics.expect("xDeviceCharacteristics"))(ShimFile::inner(file))
}

/// A buffer of [`RUN_BYTES`] aligned to [`ALIGN`], as `O_DIRECT` needs.
struct Aligned(NonNull<u8>);

// SAFETY: the buffer is owned memory, used by one thread at a time.
unsafe impl Send for Aligned {}

impl Aligned {
    const LAYOUT: Layout = match Layout::from_size_align(RUN_BYTES, ALIGN) {
        Ok(layout) => layout,
        Err(_) => panic!("a valid layout"),
    };

    fn new() -> Aligned {
        // SAFETY: the layout's size is not zero.
        let ptr = unsafe { alloc_zeroed(Self::LAYOUT) };
        Aligned(NonNull::new(ptr).unwrap_or_else(|| std::alloc::handle_alloc_error(Self::LAYOUT)))
    }

    fn bytes(&mut self) -> &mut [u8] {
        // SAFETY: RUN_BYTES allocated and initialised bytes, owned.
        unsafe { std::slice::from_raw_parts_mut(self.0.as_ptr(), RUN_BYTES) }
    }
}

impl Drop for Aligned {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with this layout.
        unsafe { dealloc(self.0.as_ptr(), Self::LAYOUT) }
    }
}

/// A run of pages for the writing thread: `len` bytes of `buffer`, to
/// be written at `at`.
struct Run {
    buffer: Aligned,
    len: usize,
    at: u64,
    /// Blocks to allocate (from, length) before writing it.
    allocate: Option<(u64, u64)>,
}

/// The direct writing of one file.
struct Direct {
    /// The run being gathered.
    gathering: Option<Run>,
    /// Buffers free to gather into.
    free: Vec<Aligned>,
    /// Buffers made so far (at most [`RUNS`]).
    made: usize,
    /// Runs sent to the writing thread and not yet back.
    under_way: usize,
    to_thread: Option<SyncSender<Run>>,
    from_thread: Receiver<(Aligned, io::Result<()>)>,
    thread: Option<JoinHandle<()>>,
    /// The first write that failed: every later call fails with it.
    failed: Option<c_int>,
    /// The system's error number of that write, if it had one.
    errno: Option<c_int>,
    /// The end of the last byte written, or the size last truncated to:
    /// the file's size as SQLite knows it.
    end: u64,
    /// Up to where the file's blocks are allocated (or were asked to be).
    allocated_to: u64,
    /// Pages written again before the run being gathered, by where: held
    /// back, as SQLite writes the same few again at each commit.
    held: BTreeMap<u64, Vec<u8>>,
    /// Bytes in `held`.
    held_bytes: usize,
}

impl Direct {
    /// Direct writing of the file at `path`, if it can be opened so.
    fn open(path: &CStr) -> Option<Direct> {
        let path = Path::new(std::ffi::OsStr::from_bytes(path.to_bytes()));
        let file = open_direct(path)?;
        let end = file.metadata().ok()?.len();
        let (to_thread, runs) = sync_channel::<Run>(RUNS);
        let (done, from_thread) = sync_channel(RUNS);
        let thread = std::thread::Builder::new()
            .name("rsbag-db3-write".into())
            .spawn(move || write_runs(&file, &runs, &done))
            .ok()?;
        Some(Direct {
            gathering: None,
            free: Vec::new(),
            made: 0,
            under_way: 0,
            to_thread: Some(to_thread),
            from_thread,
            thread: Some(thread),
            failed: None,
            errno: None,
            end,
            allocated_to: end,
            held: BTreeMap::new(),
            held_bytes: 0,
        })
    }

    /// Take `bytes` written at `at`: `Ok(false)` when they are not
    /// aligned, for the caller to write after the writes under way (which
    /// this waits for).
    ///
    /// Pages that grow the file are gathered into runs; pages written
    /// again are changed in the run being gathered, or else held back
    /// (the b-tree pages SQLite writes again at each commit), to be sent
    /// after the runs that hold their earlier bytes.
    fn write(&mut self, bytes: &[u8], at: u64) -> Result<bool, c_int> {
        if let Some(rc) = self.failed {
            return Err(rc);
        }
        let end = at + bytes.len() as u64;
        let file_end = self.end;
        self.end = file_end.max(end);
        let aligned = bytes.len().is_multiple_of(ALIGN) && at.is_multiple_of(ALIGN as u64);
        if !aligned || bytes.len() > RUN_BYTES {
            self.wait_all()?;
            return Ok(false);
        }
        if let Some(run) = self.gathering.as_mut() {
            let run_end = run.at + run.len as u64;
            if at >= run.at && end <= run_end {
                let from = (at - run.at) as usize;
                run.buffer.bytes()[from..from + bytes.len()].copy_from_slice(bytes);
                return Ok(true);
            }
            if at == run_end && run.len + bytes.len() <= RUN_BYTES {
                run.buffer.bytes()[run.len..run.len + bytes.len()].copy_from_slice(bytes);
                run.len += bytes.len();
                if run.len == RUN_BYTES {
                    self.send_gathered()?;
                }
                return Ok(true);
            }
        }
        if at < file_end {
            self.hold(bytes, at)?;
            return Ok(true);
        }
        self.send_gathered()?;
        let mut buffer = self.free_buffer()?;
        buffer.bytes()[..bytes.len()].copy_from_slice(bytes);
        self.gathering = Some(Run {
            buffer,
            len: bytes.len(),
            at,
            allocate: None,
        });
        Ok(true)
    }

    /// Hold back `bytes` written again at `at`, in place of what was held
    /// there; past [`RUN_BYTES`] held, send them.
    fn hold(&mut self, bytes: &[u8], at: u64) -> Result<(), c_int> {
        let end = at + bytes.len() as u64;
        // What was held where these bytes go is older: it goes.
        let overlapping: Vec<u64> = (self.held.range(..end))
            .filter(|(&held_at, held)| held_at + held.len() as u64 > at)
            .map(|(&held_at, _)| held_at)
            .collect();
        for held_at in overlapping {
            let held = self.held.remove(&held_at).expect("held");
            self.held_bytes -= held.len();
            if held_at < at || held_at + (held.len() as u64) > end {
                // Partly overlapped (pages of another size): sent first.
                self.send_bytes(&held, held_at)?;
            }
        }
        self.held.insert(at, bytes.to_vec());
        self.held_bytes += bytes.len();
        if self.held_bytes > RUN_BYTES {
            self.send_held()?;
        }
        Ok(())
    }

    /// Send the pages held back, those that follow one another in one run.
    fn send_held(&mut self) -> Result<(), c_int> {
        let held = std::mem::take(&mut self.held);
        self.held_bytes = 0;
        let mut run: Option<Run> = None;
        for (at, bytes) in held {
            let follows = (run.as_ref())
                .is_some_and(|r| r.at + r.len as u64 == at && r.len + bytes.len() <= RUN_BYTES);
            if !follows {
                if let Some(full) = run.take() {
                    self.send(full)?;
                }
                let buffer = self.free_buffer()?;
                run = Some(Run {
                    buffer,
                    len: 0,
                    at,
                    allocate: None,
                });
            }
            let r = run.as_mut().expect("a run");
            r.buffer.bytes()[r.len..r.len + bytes.len()].copy_from_slice(&bytes);
            r.len += bytes.len();
        }
        match run {
            Some(last) => self.send(last),
            None => Ok(()),
        }
    }

    /// Send `bytes` to be written at `at` as a run of their own.
    fn send_bytes(&mut self, bytes: &[u8], at: u64) -> Result<(), c_int> {
        let mut buffer = self.free_buffer()?;
        buffer.bytes()[..bytes.len()].copy_from_slice(bytes);
        self.send(Run {
            buffer,
            len: bytes.len(),
            at,
            allocate: None,
        })
    }

    /// Send the run being gathered, if any, to the writing thread.
    fn send_gathered(&mut self) -> Result<(), c_int> {
        match self.gathering.take() {
            Some(run) => self.send(run),
            None => Ok(()),
        }
    }

    /// Send `run` to the writing thread, which writes the runs in order
    /// (allocating [`AHEAD`] of it when it passes what was allocated).
    fn send(&mut self, mut run: Run) -> Result<(), c_int> {
        let end = run.at + run.len as u64;
        if end > self.allocated_to {
            run.allocate = Some((self.allocated_to, end + AHEAD - self.allocated_to));
            self.allocated_to = end + AHEAD;
        }
        let sent = (self.to_thread.as_ref()).is_some_and(|to| to.send(run).is_ok());
        if !sent {
            return Err(self.fail(ffi::SQLITE_IOERR_WRITE));
        }
        self.under_way += 1;
        Ok(())
    }

    /// A buffer to gather into: a free one, a new one, or the next one
    /// the writing thread gives back.
    fn free_buffer(&mut self) -> Result<Aligned, c_int> {
        if let Some(buffer) = self.free.pop() {
            return Ok(buffer);
        }
        if self.made < RUNS {
            self.made += 1;
            return Ok(Aligned::new());
        }
        self.take_back()?;
        Ok(self.free.pop().expect("a buffer given back"))
    }

    /// Wait for the next run the writing thread is done with.
    fn take_back(&mut self) -> Result<(), c_int> {
        let Ok((buffer, written)) = self.from_thread.recv() else {
            return Err(self.fail(ffi::SQLITE_IOERR_WRITE));
        };
        self.under_way -= 1;
        self.free.push(buffer);
        match written {
            Ok(()) => Ok(()),
            Err(e) => {
                if self.failed.is_none() {
                    self.errno = e.raw_os_error();
                }
                Err(self.fail(code_of(&e)))
            }
        }
    }

    /// Write what was gathered and wait until every write is done.
    fn wait_all(&mut self) -> Result<(), c_int> {
        if let Some(rc) = self.failed {
            return Err(rc);
        }
        self.send_gathered()?;
        self.send_held()?;
        while self.under_way > 0 {
            self.take_back()?;
        }
        Ok(())
    }

    fn fail(&mut self, rc: c_int) -> c_int {
        *self.failed.get_or_insert(rc)
    }

    /// Write what is left, and stop the thread: SQLite's code.
    fn finish(mut self) -> c_int {
        let written = self.wait_all();
        self.to_thread = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
        match written {
            Ok(()) => ffi::SQLITE_OK,
            Err(rc) => rc,
        }
    }
}

/// The file at `path` opened for writing with `O_DIRECT`, where the system
/// and the filesystem allow it.
fn open_direct(path: &Path) -> Option<File> {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::OpenOptionsExt;
        (std::fs::OpenOptions::new().write(true))
            .custom_flags(libc::O_DIRECT)
            .open(path)
            .ok()
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = path;
        None
    }
}

/// The writing thread: each run in the order sent, handed back with how
/// it went.
fn write_runs(file: &File, runs: &Receiver<Run>, done: &SyncSender<(Aligned, io::Result<()>)>) {
    for mut run in runs {
        if let Some((from, len)) = run.allocate {
            // For speed only: where blocks cannot be allocated (a full
            // disk, a filesystem without it), the write itself tells.
            let _ = allocate(file, from, len);
        }
        let written = file.write_all_at(&run.buffer.bytes()[..run.len], run.at);
        if done.send((run.buffer, written)).is_err() {
            return;
        }
    }
}

/// SQLite's code for a failed write.
fn code_of(e: &io::Error) -> c_int {
    match e.raw_os_error() {
        Some(libc::ENOSPC | libc::EDQUOT) => ffi::SQLITE_FULL,
        _ => ffi::SQLITE_IOERR_WRITE,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rusqlite::params;

    fn blob(i: u32) -> Vec<u8> {
        (0..i * 7919 % 300_000).map(|j| (j ^ i) as u8).collect()
    }

    /// Rows written with the pages going straight to the disk, with
    /// commits, reads, SQLite's cache spilling and earlier pages written
    /// again in between, read back by SQLite alone as they were written;
    /// in 1 KiB pages too, which are not aligned for `O_DIRECT`. Once the
    /// writes are finished the file holds SQLite's pages and nothing
    /// after them (its blocks were allocated ahead).
    #[test]
    fn a_file_written_directly_reads_back_as_written() {
        for page_size in [65536, 1024] {
            let dir = tempfile::tempdir().expect("tempdir");
            let path = dir.path().join("d.db3");
            File::create(&path).expect("create");
            let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
            let db = open(&path, flags).expect("open");
            db.execute_batch(&format!(
                "PRAGMA page_size = {page_size}; PRAGMA journal_mode = OFF; \
                 PRAGMA synchronous = OFF; PRAGMA locking_mode = EXCLUSIVE; \
                 PRAGMA cache_size = -1024; \
                 CREATE TABLE t (id INTEGER PRIMARY KEY, data BLOB); \
                 CREATE INDEX t_len ON t (length(data)); BEGIN"
            ))
            .expect("schema");
            assert_eq!(write_directly(&db), open_direct(&path).is_some());
            let mut rows: Vec<Vec<u8>> = Vec::new();
            for i in 0..300u32 {
                rows.push(blob(i));
                let insert = "INSERT INTO t (id, data) VALUES (?1, ?2)";
                db.execute(insert, params![i, rows[i as usize]])
                    .expect("insert");
                if i % 37 == 36 {
                    db.execute_batch("COMMIT; BEGIN").expect("commit");
                }
                if i % 50 == 49 {
                    // An early row written again, then read back.
                    let id = i - 40;
                    rows[id as usize] = blob(i + 1000);
                    let update = "UPDATE t SET data = ?1 WHERE id = ?2";
                    db.execute(update, params![rows[id as usize], id])
                        .expect("update");
                    let read: Vec<u8> =
                        (db.query_row("SELECT data FROM t WHERE id = ?1", [id], |r| r.get(0)))
                            .expect("select");
                    assert_eq!(read, rows[id as usize]);
                }
            }
            db.execute_batch("COMMIT").expect("commit");
            finish_writes(&db).expect("finish");
            let pages: i64 = (db.query_row("PRAGMA page_count", [], |r| r.get(0))).expect("pages");
            let pages = pages as u64;
            let len = || std::fs::metadata(&path).expect("metadata").len();
            assert_eq!(len(), pages * page_size, "{page_size}-byte pages");
            db.close().expect("close");
            assert_eq!(len(), pages * page_size, "{page_size}-byte pages");
            let db = Connection::open(&path).expect("reopen");
            let check: String = (db.query_row("PRAGMA integrity_check", [], |r| r.get(0)))
                .expect("integrity_check");
            assert_eq!(check, "ok", "{page_size}-byte pages");
            let mut select = db
                .prepare("SELECT data FROM t ORDER BY id")
                .expect("select");
            let read: Vec<Vec<u8>> = (select.query_map([], |r| r.get(0)))
                .expect("query")
                .collect::<rusqlite::Result<_>>()
                .expect("rows");
            assert!(read == rows, "{page_size}-byte pages: the rows differ");
        }
    }
}
