//! A recording split into pieces: `NAME_0.EXT`, `NAME_1.EXT`, … (ROS's
//! split naming), each a whole recording of its own, optionally only the
//! last few kept (a ring).

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use parking_lot::Mutex;

use super::sink::RecordingSink;
use crate::storage::reserve::SpaceReserve;
use crate::{Error, Result};

/// When a recording moves on to its next piece, and how many pieces are
/// kept.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Split {
    /// A new piece once a piece spans this much capture time.
    pub duration: Option<Duration>,
    /// A new piece before the frame that would take a piece past about
    /// this many bytes.
    pub bytes: Option<u64>,
    /// Keep only the last this many pieces: the oldest is deleted when a
    /// new one closes (only a file this recording wrote).
    pub keep: Option<usize>,
}

/// One finished piece of a split recording.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Piece {
    /// The file.
    pub path: PathBuf,
    /// Its size in bytes when finished.
    pub size: u64,
    /// Whether it was deleted to keep only the last [`Split::keep`].
    pub deleted: bool,
}

/// Piece `index` of a recording named `path`: `NAME_index.EXT`.
pub(crate) fn piece_path(path: &Path, index: usize) -> PathBuf {
    let stem = path.file_stem().unwrap_or_default().to_string_lossy();
    let name = match path.extension() {
        Some(ext) => format!("{stem}_{index}.{}", ext.to_string_lossy()),
        None => format!("{stem}_{index}"),
    };
    path.with_file_name(name)
}

/// The files a split recording named `path` could write over: any
/// `NAME_N.EXT`, or its temporary `NAME_N.EXT.partial`, in its directory.
pub fn existing_pieces(path: &Path) -> Vec<PathBuf> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let stem = path.file_stem().unwrap_or_default().to_string_lossy();
    let ext = path
        .extension()
        .map(|e| format!(".{}", e.to_string_lossy()))
        .unwrap_or_default();
    let is_piece = |name: &str| {
        let name = name.strip_suffix(".partial").unwrap_or(name);
        name.strip_prefix(stem.as_ref())
            .and_then(|rest| rest.strip_prefix('_'))
            .and_then(|rest| rest.strip_suffix(ext.as_str()))
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    };
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut found: Vec<PathBuf> = entries
        .filter_map(|e| e.ok())
        .filter(|e| is_piece(&e.file_name().to_string_lossy()))
        .map(|e| dir.join(e.file_name()))
        .collect();
    found.sort();
    found
}

/// The pieces of one recording as it is written: their names, the piece
/// closing in the background, and the ring.
pub(crate) struct Pieces {
    base: PathBuf,
    split: Split,
    next: usize,
    /// The piece being finished on a thread of its own.
    closing: Option<(PathBuf, JoinHandle<Result<u64>>)>,
    /// The finished pieces not deleted, oldest first, each with the
    /// identity of the file written (index into `finished`).
    kept: VecDeque<(usize, Option<FileId>)>,
    /// Every finished piece, shared with the recorder for its report.
    finished: Arc<Mutex<Vec<Piece>>>,
}

impl Pieces {
    pub(crate) fn new(base: PathBuf, split: Split, finished: Arc<Mutex<Vec<Piece>>>) -> Pieces {
        Pieces {
            base,
            split,
            next: 0,
            closing: None,
            kept: VecDeque::new(),
            finished,
        }
    }

    /// The name of the next piece.
    pub(crate) fn next_path(&mut self) -> PathBuf {
        let path = piece_path(&self.base, self.next);
        self.next += 1;
        path
    }

    /// Whether a piece spanning `span_ns` of capture time, about `bytes`
    /// large, is full.
    pub(crate) fn due(&self, span_ns: u64, bytes: u64) -> bool {
        self.split
            .duration
            .is_some_and(|d| u128::from(span_ns) >= d.as_nanos())
            || self.split.bytes.is_some_and(|b| bytes >= b)
    }

    /// Finish the piece `sink` (to be named `path`) on a thread of its
    /// own, once the piece before it is finished: the next piece is
    /// written meanwhile.
    pub(crate) fn close(&mut self, sink: Closing, path: PathBuf) -> Result<()> {
        self.wait()?;
        let handle = std::thread::Builder::new()
            .name("rsbag-piece-closer".into())
            .spawn(move || sink.finish())
            .map_err(|e| Error::Thread(format!("cannot start a thread to finish a piece: {e}")))?;
        self.closing = Some((path, handle));
        Ok(())
    }

    /// Wait for the piece being finished, if any.
    pub(crate) fn wait(&mut self) -> Result<()> {
        if let Some((path, handle)) = self.closing.take() {
            let size = handle
                .join()
                .map_err(|_| Error::Thread("the thread finishing a piece panicked".into()))??;
            self.closed(path, size);
        }
        Ok(())
    }

    /// Finish the last piece and list every piece.
    pub(crate) fn finish(mut self, sink: Closing, path: PathBuf) -> Result<u64> {
        self.wait()?;
        let size = sink.finish()?;
        self.closed(path, size);
        Ok(size)
    }

    /// A piece is finished: the oldest kept beyond [`Split::keep`] go.
    fn closed(&mut self, path: PathBuf, size: u64) {
        let id = FileId::of(&path);
        let index = {
            let mut finished = self.finished.lock();
            finished.push(Piece {
                path,
                size,
                deleted: false,
            });
            finished.len() - 1
        };
        self.kept.push_back((index, id));
        let keep = self.split.keep.unwrap_or(usize::MAX);
        while self.kept.len() > keep {
            let Some((oldest, id)) = self.kept.pop_front() else {
                break;
            };
            let path = self.finished.lock()[oldest].path.clone();
            // Only the file this recording wrote: not one put in its
            // place since.
            if id.is_none() || FileId::of(&path) != id {
                tracing::warn!(
                    "{} is not the piece this recording wrote any more: left in place",
                    path.display()
                );
                continue;
            }
            match std::fs::remove_file(&path) {
                Ok(()) => self.finished.lock()[oldest].deleted = true,
                Err(e) => tracing::warn!("cannot delete the old piece {}: {e}", path.display()),
            }
        }
    }
}

impl Drop for Pieces {
    fn drop(&mut self) {
        // A recording that failed still finishes the piece it was closing.
        if let Err(e) = self.wait() {
            tracing::error!("finishing a piece: {e}");
        }
    }
}

/// A file to finish, with the room kept for it on the disk (given back
/// once it is finished).
pub(crate) struct Closing {
    pub(crate) writer: Box<dyn RecordingSink>,
    pub(crate) reserve: Option<SpaceReserve>,
}

impl Closing {
    /// Finish the file; returns its size in bytes.
    pub(crate) fn finish(self) -> Result<u64> {
        let size = self.writer.finish()?;
        if let Some(reserve) = self.reserve {
            if let Err(e) = reserve.release() {
                tracing::warn!("giving back the disk space kept for a recording: {e}");
            }
        }
        Ok(size)
    }
}

/// Which file a path names (device and inode), to tell the file written
/// from one put at its name since.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct FileId(u64, u64);

impl FileId {
    #[cfg(unix)]
    fn of(path: &Path) -> Option<FileId> {
        use std::os::unix::fs::MetadataExt;
        let m = std::fs::symlink_metadata(path).ok()?;
        Some(FileId(m.dev(), m.ino()))
    }

    #[cfg(not(unix))]
    fn of(path: &Path) -> Option<FileId> {
        let m = std::fs::symlink_metadata(path).ok()?;
        let modified = m.modified().ok()?;
        let since = modified.duration_since(std::time::UNIX_EPOCH).ok()?;
        Some(FileId(m.len(), since.as_nanos() as u64))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_are_named_as_ros_splits() {
        assert_eq!(
            piece_path(Path::new("/d/run.bag"), 0),
            PathBuf::from("/d/run_0.bag")
        );
        assert_eq!(
            piece_path(Path::new("run.db3"), 12),
            PathBuf::from("run_12.db3")
        );
    }

    #[test]
    fn finds_the_pieces_a_recording_would_write_over() {
        let dir = tempfile::tempdir().expect("dir");
        for name in [
            "run_0.bag",
            "run_12.bag.partial",
            "run_x.bag",
            "run.bag",
            "run_1.db3",
        ] {
            std::fs::write(dir.path().join(name), b"").expect("write");
        }
        let found = existing_pieces(&dir.path().join("run.bag"));
        let names: Vec<String> = found
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["run_0.bag", "run_12.bag.partial"]);
    }
}
