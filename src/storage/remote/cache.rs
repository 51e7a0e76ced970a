//! A local cache directory of remote ranges (`RSBAG_CACHE=DIR`, the CLI's
//! `--cache DIR`): the ranges fetched from an object are kept on disk,
//! under the object's URL and version, so that a second command on the
//! same recording reads them from disk; opening still asks the server
//! for the object's first bytes and version, and a version other than the
//! one kept (another ETag, size or modification time) empties the kept
//! ranges before anything is read from them.
//!
//! Layout: `DIR/<md5 of the URL>/version` (the version kept) and one file
//! per range, `START-END`. Files are written under a temporary name and
//! renamed, so a reader never sees half a range; a file of the wrong
//! length is taken as absent. Nothing is ever evicted: delete the
//! directory to free its space.

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use bytes::Bytes;
use md5::{Digest, Md5};
use parking_lot::Mutex;

/// The cache directory set by the program, if any (else `RSBAG_CACHE`).
static DIR: Mutex<Option<Option<PathBuf>>> = Mutex::new(None);

/// Keep the ranges fetched from remote recordings in `dir` (`None`: keep
/// none), for the objects opened from now on; without a call, the
/// directory is `RSBAG_CACHE` if set.
pub fn set_cache_dir(dir: Option<PathBuf>) {
    *DIR.lock() = Some(dir);
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

/// The ranges of one version of one object kept on disk.
#[derive(Debug)]
pub(crate) struct DiskCache {
    dir: PathBuf,
    /// The ranges kept, as found when opened and stored since.
    ranges: Mutex<Vec<Range<u64>>>,
}

impl DiskCache {
    /// The cache of `url` at `version`, if a cache directory is set and
    /// usable; ranges kept of another version are deleted first.
    pub(crate) fn open(url: &str, version: &str) -> Option<Arc<DiskCache>> {
        let root = cache_dir()?;
        let dir = root.join(format!("{:x}", Md5::digest(url.as_bytes())));
        match DiskCache::at(&dir, version) {
            Ok(cache) => Some(Arc::new(cache)),
            Err(e) => {
                tracing::warn!("the cache directory {} is not used: {e}", root.display());
                None
            }
        }
    }

    fn at(dir: &Path, version: &str) -> std::io::Result<DiskCache> {
        std::fs::create_dir_all(dir)?;
        let version_file = dir.join("version");
        let kept = std::fs::read_to_string(&version_file).ok();
        if kept.as_deref() != Some(version) {
            // Another version (or none yet): none of its ranges may be read.
            for entry in std::fs::read_dir(dir)? {
                let path = entry?.path();
                if path.is_file() {
                    std::fs::remove_file(path)?;
                }
            }
            write_atomically(&version_file, version.as_bytes())?;
        }
        let mut ranges = Vec::new();
        for entry in std::fs::read_dir(dir)? {
            let name = entry?.file_name();
            if let Some(range) = name.to_str().and_then(range_of_name) {
                ranges.push(range);
            }
        }
        Ok(DiskCache {
            dir: dir.to_owned(),
            ranges: Mutex::new(ranges),
        })
    }

    /// Bytes `range`, if a range kept holds them.
    pub(crate) fn find(&self, range: &Range<u64>) -> Option<Bytes> {
        let within = (self.ranges.lock().iter())
            .find(|r| r.start <= range.start && range.end <= r.end)?
            .clone();
        let bytes = std::fs::read(self.dir.join(name_of(&within))).ok()?;
        if bytes.len() as u64 != within.end - within.start {
            return None;
        }
        let at = (range.start - within.start) as usize;
        Some(Bytes::from(bytes).slice(at..at + (range.end - range.start) as usize))
    }

    /// Keep `bytes`, the object's `range` (a failure to write is only
    /// logged: the cache is an aid).
    pub(crate) fn store(&self, range: &Range<u64>, bytes: &Bytes) {
        match write_atomically(&self.dir.join(name_of(range)), bytes) {
            Ok(()) => self.ranges.lock().push(range.clone()),
            Err(e) => tracing::debug!("cannot keep a range in {}: {e}", self.dir.display()),
        }
    }
}

fn name_of(range: &Range<u64>) -> String {
    format!("{}-{}", range.start, range.end)
}

fn range_of_name(name: &str) -> Option<Range<u64>> {
    let (start, end) = name.split_once('-')?;
    let (start, end) = (start.parse().ok()?, end.parse().ok()?);
    (start < end).then_some(start..end)
}

/// Write `path` whole or not at all: a temporary file of this process,
/// renamed.
fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("range");
    let partial = path.with_file_name(format!(".{name}.{}.partial", std::process::id()));
    std::fs::write(&partial, bytes)?;
    std::fs::rename(&partial, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_are_kept_for_one_version() {
        let dir = tempfile::tempdir().unwrap();
        let at = dir.path().join("object");
        let cache = DiskCache::at(&at, "v1").unwrap();
        cache.store(&(10..20), &Bytes::from_static(b"0123456789"));
        assert_eq!(cache.find(&(12..15)).unwrap(), Bytes::from_static(b"234"));
        assert!(cache.find(&(15..25)).is_none());
        // Opened again at the same version: kept; at another: gone.
        let again = DiskCache::at(&at, "v1").unwrap();
        assert_eq!(again.find(&(10..20)).unwrap().len(), 10);
        let changed = DiskCache::at(&at, "v2").unwrap();
        assert!(changed.find(&(10..20)).is_none());
        assert!(DiskCache::at(&at, "v1").unwrap().find(&(10..20)).is_none());
    }
}
