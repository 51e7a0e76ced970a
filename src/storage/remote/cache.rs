//! A local cache directory of remote ranges (`RSBAG_CACHE=DIR`, the CLI's
//! `--cache DIR`), of a bounded size (`RSBAG_CACHE_MAX`, `--cache-max`):
//! the ranges fetched from an object are kept on disk, under the object's
//! URL and version, so that a second command on the same recording reads
//! them from disk; opening still asks the server for the object's first
//! bytes and version, and only the ranges kept of that version are read.
//!
//! Layout: `DIR/<md5 of the URL>/<md5 of the version>/START-END`, a file
//! per range. Opening a version deletes the ranges kept of the object's
//! other versions. Files are written under a temporary name and renamed,
//! so a reader never sees half a range; a file of the wrong length, or one
//! gone (deleted by another process sharing the directory), is taken as
//! absent and fetched again.
//!
//! Size: a range file's modification time is when it was last written or
//! read. When the files in `DIR` pass the limit, the least recently used
//! are deleted, whatever object or version they belong to, until they
//! take 7/8 of it. Each process counts what it writes and counts the
//! directory again (so it sees what other processes wrote) once it has
//! written 1/16 of the limit since it last counted, or when its count
//! passes the limit: with N processes writing at once, the directory
//! holds at most the limit and N sixteenths of it.

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;

use bytes::Bytes;
use md5::{Digest, Md5};
use parking_lot::Mutex;

/// The cache's limit when none is set: 10 GB.
const DEFAULT_MAX_BYTES: u64 = 10_000_000_000;

/// The cache directory set by the program, if any (else `RSBAG_CACHE`).
static DIR: Mutex<Option<Option<PathBuf>>> = Mutex::new(None);

/// The cache's limit set by the program, if any (else `RSBAG_CACHE_MAX`).
static MAX: Mutex<Option<u64>> = Mutex::new(None);

/// The cache directory in use by this process and what it counts there.
static ROOT: Mutex<Option<Arc<Root>>> = Mutex::new(None);

/// Keep the ranges fetched from remote recordings in `dir` (`None`: keep
/// none), for the objects opened from now on; without a call, the
/// directory is `RSBAG_CACHE` if set.
pub fn set_cache_dir(dir: Option<PathBuf>) {
    *DIR.lock() = Some(dir);
}

/// Keep at most `bytes` in the cache directory, deleting the ranges used
/// least recently past it, for the objects opened from now on; without a
/// call, the limit is `RSBAG_CACHE_MAX` if set (see [`parse_size`]), else
/// 10 GB.
pub fn set_cache_max(bytes: u64) {
    *MAX.lock() = Some(bytes);
}

/// A size in bytes as a person writes it: a number of bytes (`1500000`),
/// or a number with a unit, `K`, `M`, `G` or `T` (powers of 1000, with or
/// without a `B`: `500M`, `2GB`, `1.5G`) or `KiB`, `MiB`, `GiB`, `TiB`
/// (powers of 1024).
pub fn parse_size(text: &str) -> std::result::Result<u64, String> {
    let text = text.trim();
    let split = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let scale: u64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kb" => 1_000,
        "m" | "mb" => 1_000_000,
        "g" | "gb" => 1_000_000_000,
        "t" | "tb" => 1_000_000_000_000,
        "kib" => 1 << 10,
        "mib" => 1 << 20,
        "gib" => 1 << 30,
        "tib" => 1 << 40,
        _ => {
            return Err(format!(
                "{text:?} is not a size: use bytes, or K, M, G, T, KiB, MiB, GiB"
            ))
        }
    };
    let value: f64 = (number.parse())
        .map_err(|_| format!("{text:?} is not a size: a number of bytes, e.g. 500M or 2G"))?;
    let bytes = value * scale as f64;
    if !(bytes.is_finite() && bytes >= 0.0 && bytes < u64::MAX as f64) {
        return Err(format!("{text:?} is not a size in bytes"));
    }
    Ok(bytes as u64)
}

/// The cache directory in use.
fn cache_dir() -> Option<PathBuf> {
    let set = DIR.lock().clone();
    set.unwrap_or_else(|| {
        std::env::var_os("RSBAG_CACHE")
            .filter(|d| !d.is_empty())
            .map(PathBuf::from)
    })
}

/// The cache's limit in use.
fn cache_max() -> u64 {
    if let Some(max) = *MAX.lock() {
        return max;
    }
    match std::env::var("RSBAG_CACHE_MAX") {
        Ok(text) if !text.is_empty() => parse_size(&text).unwrap_or_else(|why| {
            tracing::warn!("RSBAG_CACHE_MAX: {why}; the cache keeps up to 10 GB");
            DEFAULT_MAX_BYTES
        }),
        _ => DEFAULT_MAX_BYTES,
    }
}

/// A cache directory, its limit, and the bytes this process counts in it.
#[derive(Debug)]
struct Root {
    dir: PathBuf,
    max: u64,
    count: Mutex<Count>,
}

#[derive(Debug)]
struct Count {
    /// The bytes in the directory when last counted, and written since.
    bytes: u64,
    /// Bytes written since the directory was last counted.
    since_counted: u64,
}

impl Root {
    /// `dir` with the limit `max`, counted (and evicted down to the limit)
    /// now.
    fn new(dir: PathBuf, max: u64) -> Root {
        let bytes = evict(&dir, max, None);
        Root {
            dir,
            max,
            count: Mutex::new(Count {
                bytes,
                since_counted: 0,
            }),
        }
    }

    /// The root of `dir` with the limit `max`: the one this process uses,
    /// unless the directory or the limit changed.
    fn shared(dir: PathBuf, max: u64) -> Arc<Root> {
        let mut root = ROOT.lock();
        match root.as_ref() {
            Some(r) if r.dir == dir && r.max == max => r.clone(),
            _ => root.insert(Arc::new(Root::new(dir, max))).clone(),
        }
    }

    /// `written` bytes were just written to `file`: count them, and evict
    /// what is past the limit (`file` last of all).
    fn wrote(&self, written: u64, file: &Path) {
        let mut count = self.count.lock();
        count.bytes += written;
        count.since_counted += written;
        if count.bytes > self.max || count.since_counted > self.max / 16 {
            count.bytes = evict(&self.dir, self.max, Some(file));
            count.since_counted = 0;
        }
    }
}

/// A file kept in the cache directory.
struct Kept {
    path: PathBuf,
    len: u64,
    used: SystemTime,
}

/// Every file under `root` (`URL/VERSION/FILE`); a file that vanishes
/// while listed is left out.
fn kept_files(root: &Path) -> Vec<Kept> {
    let entries = |dir: &Path| -> Vec<std::fs::DirEntry> {
        (std::fs::read_dir(dir).into_iter().flatten())
            .flatten()
            .collect()
    };
    let mut files = Vec::new();
    for object in entries(root) {
        for version in entries(&object.path()) {
            for file in entries(&version.path()) {
                let Ok(meta) = file.metadata() else { continue };
                if meta.is_file() {
                    files.push(Kept {
                        path: file.path(),
                        len: meta.len(),
                        used: meta.modified().unwrap_or(SystemTime::UNIX_EPOCH),
                    });
                }
            }
        }
    }
    files
}

/// Count the bytes kept under `root`; past `max`, delete the files used
/// least recently (`keep` last of all) until they take 7/8 of it. The
/// bytes left.
fn evict(root: &Path, max: u64, keep: Option<&Path>) -> u64 {
    let mut files = kept_files(root);
    let mut bytes: u64 = files.iter().map(|f| f.len).sum();
    if bytes <= max {
        return bytes;
    }
    let target = max - max / 8;
    files.sort_by_key(|f| (Some(f.path.as_path()) == keep, f.used));
    for file in files {
        if bytes <= target {
            break;
        }
        match std::fs::remove_file(&file.path) {
            Ok(()) => bytes -= file.len,
            // Deleted by another process meanwhile.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => bytes -= file.len,
            Err(e) => tracing::debug!("cannot delete {}: {e}", file.path.display()),
        }
        // The version's and the object's directories, once empty (a
        // process about to write there makes them again).
        let version = file.path.parent().unwrap_or(root);
        if std::fs::remove_dir(version).is_ok() {
            let _ = std::fs::remove_dir(version.parent().unwrap_or(root));
        }
    }
    bytes
}

/// The ranges of one version of one object kept on disk.
#[derive(Debug)]
pub(crate) struct DiskCache {
    root: Arc<Root>,
    /// This version's directory.
    dir: PathBuf,
    /// The ranges kept, as found when opened and stored since.
    ranges: Mutex<Vec<Range<u64>>>,
}

impl DiskCache {
    /// The cache of `url` at `version`, if a cache directory is set and
    /// usable; ranges kept of other versions are deleted first.
    pub(crate) fn open(url: &str, version: &str) -> Option<Arc<DiskCache>> {
        let dir = cache_dir()?;
        let root = Root::shared(dir.clone(), cache_max());
        match DiskCache::at(root, url, version) {
            Ok(cache) => Some(Arc::new(cache)),
            Err(e) => {
                tracing::warn!("the cache directory {} is not used: {e}", dir.display());
                None
            }
        }
    }

    fn at(root: Arc<Root>, url: &str, version: &str) -> std::io::Result<DiskCache> {
        let object = root.dir.join(hex_md5(url));
        let version = hex_md5(version);
        let dir = object.join(&version);
        std::fs::create_dir_all(&dir)?;
        // None of another version's ranges may be read.
        for entry in std::fs::read_dir(&object)?.flatten() {
            if entry.file_name().to_str() != Some(version.as_str()) {
                let path = entry.path();
                let _ = std::fs::remove_dir_all(&path).or_else(|_| std::fs::remove_file(&path));
            }
        }
        let ranges = (std::fs::read_dir(&dir)?.flatten())
            .filter_map(|entry| range_of_name(entry.file_name().to_str()?))
            .collect();
        Ok(DiskCache {
            root,
            dir,
            ranges: Mutex::new(ranges),
        })
    }

    /// Bytes `range`, if a range kept holds them (it is then the most
    /// recently used).
    pub(crate) fn find(&self, range: &Range<u64>) -> Option<Bytes> {
        let within = (self.ranges.lock().iter())
            .find(|r| r.start <= range.start && range.end <= r.end)?
            .clone();
        let Some(bytes) = self.read(&within) else {
            // Gone, or not what its name says: fetched again.
            self.ranges.lock().retain(|r| *r != within);
            return None;
        };
        let at = (range.start - within.start) as usize;
        Some(bytes.slice(at..at + (range.end - range.start) as usize))
    }

    /// The file of `range`, whole, marked as used now.
    fn read(&self, range: &Range<u64>) -> Option<Bytes> {
        use std::io::Read;
        let mut file = std::fs::File::open(self.dir.join(name_of(range))).ok()?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).ok()?;
        if bytes.len() as u64 != range.end - range.start {
            return None;
        }
        let _ = file.set_modified(SystemTime::now());
        Some(Bytes::from(bytes))
    }

    /// Keep `bytes`, the object's `range` (a failure to write is only
    /// logged: the cache is an aid). A range longer than the cache's
    /// limit is not kept.
    pub(crate) fn store(&self, range: &Range<u64>, bytes: &Bytes) {
        let len = bytes.len() as u64;
        if len > self.root.max {
            return;
        }
        let path = self.dir.join(name_of(range));
        let written = write_atomically(&path, bytes).or_else(|e| {
            // The directory emptied and deleted by another process.
            if e.kind() != std::io::ErrorKind::NotFound {
                return Err(e);
            }
            std::fs::create_dir_all(&self.dir)?;
            write_atomically(&path, bytes)
        });
        match written {
            Ok(()) => {
                self.ranges.lock().push(range.clone());
                self.root.wrote(len, &path);
            }
            Err(e) => tracing::debug!("cannot keep a range in {}: {e}", self.dir.display()),
        }
    }
}

fn hex_md5(text: &str) -> String {
    format!("{:x}", Md5::digest(text.as_bytes()))
}

fn name_of(range: &Range<u64>) -> String {
    format!("{}-{}", range.start, range.end)
}

fn range_of_name(name: &str) -> Option<Range<u64>> {
    let (start, end) = name.split_once('-')?;
    let (start, end) = (start.parse().ok()?, end.parse().ok()?);
    (start < end).then_some(start..end)
}

/// Write `path` whole or not at all: a temporary file of this process and
/// write, renamed.
fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    static WRITES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("range");
    let write = WRITES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let partial = path.with_file_name(format!(".{name}.{}.{write}.partial", std::process::id()));
    let result = std::fs::write(&partial, bytes).and_then(|()| std::fs::rename(&partial, path));
    if result.is_err() {
        let _ = std::fs::remove_file(&partial);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root(dir: &Path, max: u64) -> Arc<Root> {
        Arc::new(Root::new(dir.to_owned(), max))
    }

    #[test]
    fn ranges_are_kept_for_one_version() {
        let dir = tempfile::tempdir().unwrap();
        let root = root(dir.path(), 1 << 20);
        let cache = DiskCache::at(root.clone(), "u", "v1").unwrap();
        cache.store(&(10..20), &Bytes::from_static(b"0123456789"));
        assert_eq!(cache.find(&(12..15)).unwrap(), Bytes::from_static(b"234"));
        assert!(cache.find(&(15..25)).is_none());
        // Opened again at the same version: kept; at another: gone.
        let again = DiskCache::at(root.clone(), "u", "v1").unwrap();
        assert_eq!(again.find(&(10..20)).unwrap().len(), 10);
        let changed = DiskCache::at(root.clone(), "u", "v2").unwrap();
        assert!(changed.find(&(10..20)).is_none());
        assert!(DiskCache::at(root, "u", "v1")
            .unwrap()
            .find(&(10..20))
            .is_none());
    }

    /// Past the limit, the ranges used least recently go first, across
    /// objects; what is kept never passes the limit.
    #[test]
    fn the_least_recently_used_ranges_are_evicted_past_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        let root = root(dir.path(), 1000);
        let a = DiskCache::at(root.clone(), "a", "v").unwrap();
        let b = DiskCache::at(root.clone(), "b", "v").unwrap();
        let block = Bytes::from(vec![7u8; 280]);
        let used = |cache: &DiskCache, range: Range<u64>| {
            // Modification times must differ between uses.
            std::thread::sleep(std::time::Duration::from_millis(20));
            cache.find(&range).is_some()
        };
        a.store(&(0..280), &block);
        std::thread::sleep(std::time::Duration::from_millis(20));
        b.store(&(0..280), &block);
        std::thread::sleep(std::time::Duration::from_millis(20));
        a.store(&(280..560), &block);
        assert!(used(&a, 0..280), "a's first range, used again");
        // A fourth range passes the limit: b's first, used least recently,
        // goes (840 bytes are left: within 7/8 of the limit).
        std::thread::sleep(std::time::Duration::from_millis(20));
        b.store(&(280..560), &block);
        let total: u64 = kept_files(dir.path()).iter().map(|f| f.len).sum();
        assert_eq!(total, 840);
        assert!(!used(&b, 0..280));
        for (cache, range) in [(&a, 0..280), (&a, 280..560), (&b, 280..560)] {
            assert!(used(cache, range));
        }
        // A range longer than the limit is not kept.
        a.store(&(600..1800), &Bytes::from(vec![1u8; 1200]));
        assert!(!used(&a, 600..1800));
    }

    /// A range deleted by another process is fetched again, never read
    /// short; the cache goes on working when its directories vanish.
    #[test]
    fn vanished_ranges_and_directories_are_tolerated() {
        let dir = tempfile::tempdir().unwrap();
        let cache = DiskCache::at(root(dir.path(), 1 << 20), "u", "v").unwrap();
        cache.store(&(0..4), &Bytes::from_static(b"abcd"));
        std::fs::remove_dir_all(dir.path().join(hex_md5("u"))).unwrap();
        assert!(cache.find(&(0..4)).is_none());
        cache.store(&(0..4), &Bytes::from_static(b"abcd"));
        assert_eq!(cache.find(&(1..3)).unwrap(), Bytes::from_static(b"bc"));
        // A file cut short is not read.
        let file = kept_files(dir.path()).pop().unwrap().path;
        std::fs::write(&file, b"ab").unwrap();
        assert!(cache.find(&(0..4)).is_none());
    }

    #[test]
    fn sizes_are_read_as_people_write_them() {
        assert_eq!(parse_size("1500000"), Ok(1_500_000));
        assert_eq!(parse_size("500M"), Ok(500_000_000));
        assert_eq!(parse_size("2GB"), Ok(2_000_000_000));
        assert_eq!(parse_size("1.5g"), Ok(1_500_000_000));
        assert_eq!(parse_size("64KiB"), Ok(65_536));
        assert_eq!(parse_size("1 GiB"), Ok(1 << 30));
        for bad in ["", "M", "12X", "-5", "1e99G", "1.2.3"] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
    }
}
