//! A remote `.db3` read by SQLite itself through a read-only VFS over
//! the [`RemoteFile`]: SQLite asks for the pages it needs (the schema,
//! the b-tree pages of an index, a message's row and overflow pages) and
//! the VFS reads them by ranges, in blocks, so that what is transferred is
//! proportional to what SQLite reads, not to the file.
//!
//! Why a VFS rather than a download or a reader of our own: SQLite's own
//! b-tree walk stays the one reader of `.db3` files (the same queries,
//! the same integrity check, the same findings as a local file), and only
//! the page reads change. Pages are read in aligned blocks of
//! [`BLOCK_BYTES`] (a message's overflow pages lie mostly in order), and a
//! run of blocks read in order fetches the next ones ahead, in requests
//! that grow with the run.

use std::collections::HashMap;
use std::ffi::{c_char, c_int, c_void, CStr};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

use rusqlite::ffi;

use super::RemoteFile;
use crate::storage::sqlite_vfs::{register_over_default, VfsFunctions};
use crate::{Error, Result};

/// The VFS's name.
const VFS_NAME: &CStr = c"rsbag-remote";

/// Pages are read in aligned blocks of this many bytes.
const BLOCK_BYTES: u64 = 64 << 10;

/// How many blocks a run of blocks read in order fetches ahead: as many as
/// it has read, within these bounds (1 MB and 4 MB): a message's overflow
/// pages then take a request per megabyte or fewer, and a run that ends
/// (the message read) leaves at most the largest window unread.
const FEWEST_AHEAD: u64 = 16;
const MOST_AHEAD: u64 = 64;

/// The remote files being opened, by the name SQLite is given for them.
static OPENING: parking_lot::Mutex<Option<HashMap<String, Arc<RemoteFile>>>> =
    parking_lot::Mutex::new(None);

thread_local! {
    /// The last read that failed on this thread, in words: SQLite only
    /// says "disk I/O error".
    static LAST_ERROR: std::cell::RefCell<Option<Error>> = const { std::cell::RefCell::new(None) };
}

/// The error of the last remote read that failed on this thread, if any
/// (taken: asked once).
pub(crate) fn take_read_error() -> Option<Error> {
    LAST_ERROR.with(|e| e.borrow_mut().take())
}

/// Open `file` as a read-only SQLite database through the VFS.
pub(crate) fn open(file: Arc<RemoteFile>) -> Result<rusqlite::Connection> {
    register()?;
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let name = format!("rsbag-remote-{}", NEXT.fetch_add(1, Ordering::Relaxed));
    OPENING
        .lock()
        .get_or_insert_with(HashMap::new)
        .insert(name.clone(), file);
    let flags = rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY
        | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX
        | rusqlite::OpenFlags::SQLITE_OPEN_URI;
    // Immutable: no locks, no journal looked for.
    let uri = format!("file:{name}?immutable=1");
    let opened = rusqlite::Connection::open_with_flags_and_vfs(uri, flags, VFS_NAME);
    OPENING
        .lock()
        .get_or_insert_with(HashMap::new)
        .remove(&name);
    opened.map_err(|e| take_read_error().unwrap_or_else(|| Error::Database(e.to_string())))
}

/// Register the VFS with SQLite, once.
fn register() -> Result<()> {
    static REGISTERED: OnceLock<std::result::Result<(), String>> = OnceLock::new();
    let registered = REGISTERED.get_or_init(|| {
        let functions = VfsFunctions {
            open: x_open,
            delete: x_delete,
            access: x_access,
            full_pathname: x_full_pathname,
        };
        register_over_default(VFS_NAME, |_| std::mem::size_of::<VfsFile>(), functions)
    });
    registered.clone().map_err(Error::Database)
}

/// An open file of the VFS: SQLite's header first, then ours.
#[repr(C)]
struct VfsFile {
    base: ffi::sqlite3_file,
    /// From `Arc::into_raw`; released by `x_close`.
    remote: *const RemoteFile,
    /// The run of blocks read in order that the last read belongs to.
    run: Run,
    /// The interior b-tree pages read last, to tell a scan of their
    /// children (released by `x_close`).
    parents: Option<Box<Parents>>,
}

static IO_METHODS: ffi::sqlite3_io_methods = ffi::sqlite3_io_methods {
    iVersion: 1,
    xClose: Some(x_close),
    xRead: Some(x_read),
    xWrite: Some(x_write),
    xTruncate: Some(x_truncate),
    xSync: Some(x_sync),
    xFileSize: Some(x_file_size),
    xLock: Some(x_lock),
    xUnlock: Some(x_lock),
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
    _vfs: *mut ffi::sqlite3_vfs,
    name: ffi::sqlite3_filename,
    file: *mut ffi::sqlite3_file,
    flags: c_int,
    out_flags: *mut c_int,
) -> c_int {
    // Nothing but the main database is opened (immutable: no journal).
    if name.is_null() || flags & ffi::SQLITE_OPEN_MAIN_DB == 0 {
        return ffi::SQLITE_CANTOPEN;
    }
    // SAFETY: SQLite passes a NUL-terminated name.
    let name = unsafe { CStr::from_ptr(name) }.to_string_lossy();
    let Some(remote) = OPENING.lock().as_ref().and_then(|m| m.get(&*name).cloned()) else {
        return ffi::SQLITE_CANTOPEN;
    };
    let file = file.cast::<VfsFile>();
    // SAFETY: SQLite gives `szOsFile` bytes for the file, ours to fill.
    unsafe {
        file.write(VfsFile {
            base: ffi::sqlite3_file {
                pMethods: &IO_METHODS,
            },
            remote: Arc::into_raw(remote),
            run: Run::default(),
            parents: Some(Box::default()),
        });
        if !out_flags.is_null() {
            *out_flags = ffi::SQLITE_OPEN_READONLY;
        }
    }
    ffi::SQLITE_OK
}

unsafe extern "C" fn x_delete(_: *mut ffi::sqlite3_vfs, _: *const c_char, _: c_int) -> c_int {
    ffi::SQLITE_IOERR_DELETE
}

unsafe extern "C" fn x_access(
    _: *mut ffi::sqlite3_vfs,
    _: *const c_char,
    _: c_int,
    out: *mut c_int,
) -> c_int {
    // No journal, no WAL: only the database itself exists.
    // SAFETY: SQLite passes where to write the answer.
    unsafe { *out = 0 };
    ffi::SQLITE_OK
}

unsafe extern "C" fn x_full_pathname(
    _: *mut ffi::sqlite3_vfs,
    name: *const c_char,
    size: c_int,
    out: *mut c_char,
) -> c_int {
    // SAFETY: `name` is NUL-terminated and `out` has `size` bytes.
    unsafe {
        let name = CStr::from_ptr(name).to_bytes_with_nul();
        if name.len() > size as usize {
            return ffi::SQLITE_CANTOPEN;
        }
        std::ptr::copy_nonoverlapping(name.as_ptr().cast(), out, name.len());
    }
    ffi::SQLITE_OK
}

unsafe extern "C" fn x_close(file: *mut ffi::sqlite3_file) -> c_int {
    // SAFETY: the file was filled by x_open; its Arc is released once.
    unsafe {
        let file = file.cast::<VfsFile>();
        drop(Arc::from_raw((*file).remote));
        (*file).remote = std::ptr::null();
        drop((*file).parents.take());
    }
    ffi::SQLITE_OK
}

unsafe extern "C" fn x_read(
    file: *mut ffi::sqlite3_file,
    out: *mut c_void,
    amount: c_int,
    offset: ffi::sqlite3_int64,
) -> c_int {
    // SAFETY: the file was filled by x_open; `out` has `amount` bytes.
    let (file, out) = unsafe {
        let file = &mut *file.cast::<VfsFile>();
        let out = std::slice::from_raw_parts_mut(out.cast::<u8>(), amount.max(0) as usize);
        (file, out)
    };
    // SAFETY: the Arc lives until x_close.
    let remote = unsafe { &*file.remote };
    let offset = offset.max(0) as u64;
    match read_blocks(remote, &mut file.run, offset, out) {
        Ok(read) if read == out.len() => {
            if let Some(parents) = file.parents.as_deref_mut() {
                parents.read(remote, offset, out);
            }
            ffi::SQLITE_OK
        }
        Ok(read) => {
            // Past the end: SQLite wants the rest zeroed.
            out[read..].fill(0);
            ffi::SQLITE_IOERR_SHORT_READ
        }
        Err(error) => {
            LAST_ERROR.with(|e| *e.borrow_mut() = Some(error));
            ffi::SQLITE_IOERR_READ
        }
    }
}

/// Blocks read in order: the last one, how many there were, and the
/// blocks fetched ahead for it.
#[derive(Debug, Default)]
struct Run {
    last: Option<u64>,
    length: u64,
    ahead: std::ops::Range<u64>,
}

impl Run {
    /// Blocks `first..=last` read: the run goes on when they follow its
    /// last block (or are it), and starts again otherwise. Whether they go
    /// beyond its last block.
    fn read(&mut self, first: u64, last: u64) -> bool {
        let beyond = self.last != Some(last);
        match self.last {
            Some(end) if first == end || first == end + 1 => self.length += last - end,
            _ => {
                self.length = 0;
                self.ahead = 0..0;
            }
        }
        self.last = Some(last);
        beyond
    }

    /// In a run, fetch the next blocks before the reader needs them: when
    /// fewer than half a window (as many blocks as the run has read,
    /// within [`FEWEST_AHEAD`] and [`MOST_AHEAD`]) beyond `block`, the
    /// block being read, are fetched or being fetched, a window from the
    /// first block that is not, in one request (`block` itself when it is
    /// not fetched yet).
    fn read_ahead(&mut self, remote: &RemoteFile, block: u64) {
        if self.length == 0 {
            return;
        }
        let window = self.length.clamp(FEWEST_AHEAD, MOST_AHEAD);
        let key = remote.version_key();
        let is_fetched = |n: u64| {
            remote.is_fetched(n * BLOCK_BYTES..(n + 1) * BLOCK_BYTES)
                || (BLOCKS.lock().as_ref())
                    .is_some_and(|c| c.blocks.contains_key(&(key.clone(), n)))
        };
        let Some(from) = (block..=block + window / 2).find(|&n| !is_fetched(n)) else {
            return;
        };
        let bytes = from * BLOCK_BYTES..(from + window) * BLOCK_BYTES;
        remote.prefetch_many(std::iter::once(bytes), 0);
        self.ahead = block..from + window;
    }
}

/// Fill `out` from the file at `offset`, through the blocks that hold it;
/// the bytes there were (fewer at the end of the file). A read SQLite
/// waits for, or one of the blocks fetched ahead of a run, takes the run
/// on; one of a page fetched ahead of a scan does not.
fn read_blocks(remote: &RemoteFile, run: &mut Run, offset: u64, out: &mut [u8]) -> Result<usize> {
    let size = remote.size();
    let end = (offset + out.len() as u64).min(size);
    if end <= offset {
        return Ok(0);
    }
    let (first, last) = (offset / BLOCK_BYTES, (end - 1) / BLOCK_BYTES);
    let takes_run_on = run.ahead.contains(&first) || !remote.is_fetched(offset..end);
    if takes_run_on && run.read(first, last) {
        run.read_ahead(remote, first);
    }
    // A page fetched on its own (ahead of a scan) or ahead of this run.
    if let Some(bytes) = remote.read_cached(offset..end) {
        let bytes = bytes?;
        out[..bytes.len()].copy_from_slice(&bytes);
        return Ok(bytes.len());
    }
    let mut at = offset;
    while at < end {
        let block = at / BLOCK_BYTES;
        let start = block * BLOCK_BYTES;
        let bytes = cached_block(remote, block)?;
        let from = (at - start) as usize;
        let to = ((end - start) as usize).min(bytes.len());
        if to <= from {
            break;
        }
        let written = (at - offset) as usize;
        out[written..written + (to - from)].copy_from_slice(&bytes[from..to]);
        at += (to - from) as u64;
    }
    Ok((at - offset) as usize)
}

/// How many interior pages are remembered.
const PARENTS_KEPT: usize = 8;

/// At most this many pages of a scan are fetched ahead at once.
const PAGES_AHEAD: usize = 4096;

/// Pages fetched ahead this close to each other are fetched as one range.
const PAGE_GAP: u64 = 8 << 10;

/// The interior b-tree pages a connection read last, with their children
/// (the pages they point to): a scan of a table or an index reads the
/// children of an interior page one after another, each a page somewhere
/// in the file (a table's leaf pages lie between its rows' overflow
/// pages). Once two children are read in order, the rest are fetched
/// ahead, page by page, in as few requests as the server allows: a scan
/// of the messages table (for the counts of each topic) transfers its
/// leaf pages, not the images between them, and a look-up of one row
/// fetches nothing ahead.
#[derive(Default)]
struct Parents {
    pages: std::collections::VecDeque<Parent>,
}

struct Parent {
    /// Its children's offsets in the file, in order.
    children: Vec<u64>,
    /// Each child's place in `children`, by its offset.
    place: HashMap<u64, usize>,
    /// Which child was read last.
    last_read: Option<usize>,
    /// Whether its children were fetched ahead.
    ahead: bool,
}

impl Parents {
    /// SQLite read `page` at `offset`: fetch the rest of a parent's
    /// children when this one follows the one read before it, and
    /// remember the page if it is an interior page.
    fn read(&mut self, remote: &RemoteFile, offset: u64, page: &[u8]) {
        let size = page.len() as u64;
        for parent in &mut self.pages {
            let Some(&k) = parent.place.get(&offset) else {
                continue;
            };
            if !parent.ahead && k > 0 && parent.last_read == Some(k - 1) {
                parent.ahead = true;
                let rest = parent.children[k + 1..].iter().take(PAGES_AHEAD);
                remote.prefetch_many(rest.map(|&at| at..at + size), PAGE_GAP);
            }
            parent.last_read = Some(k);
        }
        if let Some(children) = interior_children(offset, page) {
            if self.pages.len() == PARENTS_KEPT {
                self.pages.pop_front();
            }
            self.pages.push_back(Parent {
                place: (children.iter().enumerate())
                    .map(|(k, &c)| (c, k))
                    .collect(),
                children,
                last_read: None,
                ahead: false,
            });
        }
    }
}

/// The offsets of the children of `page` (read at `offset`), if it is an
/// interior page of a table or an index b-tree; `None` for any other
/// page, or one that does not parse (SQLite reports damage itself).
fn interior_children(offset: u64, page: &[u8]) -> Option<Vec<u64>> {
    let size = page.len() as u64;
    if !size.is_power_of_two() || !(512..=65536).contains(&size) || !offset.is_multiple_of(size) {
        return None;
    }
    // The first page holds the database header before its b-tree header.
    let header = if offset == 0 { 100 } else { 0 };
    if !matches!(page.get(header)?, 0x02 | 0x05) {
        return None;
    }
    let be16 = |at: usize| Some(u16::from_be_bytes(page.get(at..at + 2)?.try_into().ok()?));
    let be32 = |at: usize| Some(u32::from_be_bytes(page.get(at..at + 4)?.try_into().ok()?));
    let cells = usize::from(be16(header + 3)?);
    let to_offset = |number: u32| (u64::from(number) > 0).then(|| (u64::from(number) - 1) * size);
    let mut children = Vec::with_capacity(cells + 1);
    for cell in 0..cells {
        let at = usize::from(be16(header + 12 + 2 * cell)?);
        children.push(to_offset(be32(at)?)?);
    }
    children.push(to_offset(be32(header + 8)?)?);
    Some(children)
}

/// The blocks read last, of any connection to any version of an object:
/// the queries of one command (opening, the times, the frames) read the
/// same pages again, often through connections of their own.
static BLOCKS: parking_lot::Mutex<Option<BlockCache>> = parking_lot::Mutex::new(None);

/// The blocks kept, at most.
const CACHED_BLOCKS: usize = (256 << 20) / BLOCK_BYTES as usize;

#[derive(Default)]
struct BlockCache {
    /// (version key, block) → its bytes, with when it was last used.
    blocks: HashMap<(String, u64), (u64, bytes::Bytes)>,
    clock: u64,
}

/// Block `block` of `remote`, from the cache or read (and kept).
fn cached_block(remote: &RemoteFile, block: u64) -> Result<bytes::Bytes> {
    let key = (remote.version_key(), block);
    {
        let mut cache = BLOCKS.lock();
        let cache = cache.get_or_insert_with(BlockCache::default);
        cache.clock += 1;
        let now = cache.clock;
        if let Some((used, bytes)) = cache.blocks.get_mut(&key) {
            *used = now;
            return Ok(bytes.clone());
        }
    }
    let start = block * BLOCK_BYTES;
    let bytes = remote.read(start..start + BLOCK_BYTES)?;
    let mut cache = BLOCKS.lock();
    let cache = cache.get_or_insert_with(BlockCache::default);
    if cache.blocks.len() >= CACHED_BLOCKS {
        // Let the least recently used eighth go.
        let mut uses: Vec<u64> = cache.blocks.values().map(|(used, _)| *used).collect();
        uses.sort_unstable();
        let cut = uses[uses.len() / 8];
        cache.blocks.retain(|_, (used, _)| *used > cut);
    }
    let now = cache.clock;
    cache.blocks.insert(key, (now, bytes.clone()));
    Ok(bytes)
}

unsafe extern "C" fn x_write(
    _: *mut ffi::sqlite3_file,
    _: *const c_void,
    _: c_int,
    _: ffi::sqlite3_int64,
) -> c_int {
    ffi::SQLITE_READONLY
}

unsafe extern "C" fn x_truncate(_: *mut ffi::sqlite3_file, _: ffi::sqlite3_int64) -> c_int {
    ffi::SQLITE_READONLY
}

unsafe extern "C" fn x_sync(_: *mut ffi::sqlite3_file, _: c_int) -> c_int {
    ffi::SQLITE_OK
}

unsafe extern "C" fn x_file_size(
    file: *mut ffi::sqlite3_file,
    size: *mut ffi::sqlite3_int64,
) -> c_int {
    // SAFETY: the file was filled by x_open; `size` is SQLite's to read.
    unsafe {
        let file = &*file.cast::<VfsFile>();
        *size = (*file.remote).size() as ffi::sqlite3_int64;
    }
    ffi::SQLITE_OK
}

unsafe extern "C" fn x_lock(_: *mut ffi::sqlite3_file, _: c_int) -> c_int {
    ffi::SQLITE_OK
}

unsafe extern "C" fn x_check_reserved_lock(_: *mut ffi::sqlite3_file, out: *mut c_int) -> c_int {
    // SAFETY: SQLite passes where to write the answer.
    unsafe { *out = 0 };
    ffi::SQLITE_OK
}

unsafe extern "C" fn x_file_control(_: *mut ffi::sqlite3_file, _: c_int, _: *mut c_void) -> c_int {
    ffi::SQLITE_NOTFOUND
}

unsafe extern "C" fn x_sector_size(_: *mut ffi::sqlite3_file) -> c_int {
    4096
}

unsafe extern "C" fn x_device_characteristics(_: *mut ffi::sqlite3_file) -> c_int {
    ffi::SQLITE_IOCAP_IMMUTABLE
}
