//! Ctrl-C. A recording finishes its file as if its time were up; any other
//! command that is writing an output removes what it wrote so far (and
//! puts back an input it had moved aside), then exits with 130, so that an
//! interrupted command leaves no half-written file behind.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use crossbeam_channel::{Receiver, Sender};
use parking_lot::Mutex;

/// Exit code after Ctrl-C (128 + SIGINT), as shells report it.
const INTERRUPTED: i32 = 130;

/// What to undo when interrupted.
#[derive(Debug)]
pub enum Undo {
    /// Remove an unfinished file.
    RemoveFile(PathBuf),
    /// Remove an unfinished directory and what it holds.
    RemoveDir(PathBuf),
    /// Move a file back where it was (`from` → `to`).
    MoveBack { from: PathBuf, to: PathBuf },
}

static UNDO: Mutex<Vec<(u64, Undo)>> = Mutex::new(Vec::new());
static NEXT: AtomicU64 = AtomicU64::new(0);
/// Where Ctrl-C goes when a command handles it itself (a recording).
static HANDLED: Mutex<Option<Sender<()>>> = Mutex::new(None);
static SEEN: AtomicBool = AtomicBool::new(false);

/// Install the Ctrl-C handler (once, at start).
pub fn install() {
    // Without a handler Ctrl-C still ends the process; only the cleanup
    // is lost, so a failure here is not fatal.
    let _ = ctrlc::set_handler(on_ctrl_c);
}

fn on_ctrl_c() {
    let first = !SEEN.swap(true, Ordering::AcqRel);
    if first {
        if let Some(handler) = HANDLED.lock().as_ref() {
            if handler.try_send(()).is_ok() {
                return;
            }
        }
    }
    let undo: Vec<(u64, Undo)> = std::mem::take(&mut *UNDO.lock());
    for (_, undo) in undo.into_iter().rev() {
        let _ = match undo {
            Undo::RemoveFile(path) => std::fs::remove_file(path),
            Undo::RemoveDir(path) => remove_dir_being_written(&path),
            Undo::MoveBack { from, to } => std::fs::rename(from, to),
        };
    }
    eprintln!("rsbag: interrupted; nothing unfinished was left behind");
    std::process::exit(INTERRUPTED);
}

/// Remove a directory the command's main thread may still be writing
/// into. It is renamed first: a file created under its old path after that
/// fails instead of appearing in a directory being removed (which would
/// make the removal fail and leave the directory behind).
fn remove_dir_being_written(path: &Path) -> std::io::Result<()> {
    let mut aside = path.as_os_str().to_owned();
    aside.push(".removing");
    let aside = PathBuf::from(aside);
    match std::fs::rename(path, &aside) {
        Ok(()) => std::fs::remove_dir_all(aside),
        Err(_) => std::fs::remove_dir_all(path),
    }
}

/// Undone if Ctrl-C comes before this guard is dropped.
#[derive(Debug)]
#[must_use = "the undo is forgotten when the guard is dropped"]
pub struct Guard(u64);

/// Register `undo` for Ctrl-C until the returned guard is dropped.
pub fn on_interrupt(undo: Undo) -> Guard {
    let id = NEXT.fetch_add(1, Ordering::Relaxed);
    UNDO.lock().push((id, undo));
    Guard(id)
}

impl Drop for Guard {
    fn drop(&mut self) {
        UNDO.lock().retain(|(id, _)| *id != self.0);
    }
}

/// Handle Ctrl-C here: the first one arrives on the returned channel (a
/// second one ends the process as usual).
pub fn handle() -> Receiver<()> {
    let (tx, rx) = crossbeam_channel::bounded(1);
    *HANDLED.lock() = Some(tx);
    rx
}
