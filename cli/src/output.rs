//! Writing a new bag from an old one, for `reindex`, `trim`, `compress`
//! and `decompress`: the result appears under its name only once complete.

use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

use rsbag::storage::bag::{Bag, BagFile, BagWriter, Compression, ScanReport, WriterOptions};
use rsbag::storage::partial_path_for;
use rsbag::{Error, Result};

use super::interrupt::{on_interrupt, Undo};

/// Where a rewritten bag goes.
#[derive(Debug)]
pub struct Destination {
    /// The finished bag.
    pub path: PathBuf,
    /// Where the input is moved first when the output takes its place
    /// (`NAME.orig.bag`, as `rosbag` keeps it).
    pub backup: Option<PathBuf>,
    /// Replace a file at `path` that is not the input (`--force`).
    pub force: bool,
}

impl Destination {
    /// `out`, or the input itself (keeping a backup) when `out` is not
    /// given or names the input. Another file already at the output is an
    /// error unless `force`: no command replaces a file it did not create
    /// unasked.
    pub fn new(input: &Path, out: Option<&Path>, force: bool) -> Result<Destination> {
        Destination::of_format(input, out, force, rsbag::storage::FileFormat::Bag)
    }

    /// [`Destination::new`] for a file of `format`.
    pub fn of_format(
        input: &Path,
        out: Option<&Path>,
        force: bool,
        format: rsbag::storage::FileFormat,
    ) -> Result<Destination> {
        let mut path = out.unwrap_or(input).to_path_buf();
        // An output that is the input through a link, or through another
        // path, is the input itself: the file is rewritten where it is
        // (with its backup beside it) and the link still leads to it,
        // rather than the input moved away and the link replaced.
        if same_file(&path, input) {
            path = input.canonicalize().map_err(|error| Error::Io {
                path: input.to_path_buf(),
                error,
            })?;
        }
        // A new file's name says what it holds; a file rewritten in place
        // keeps the name it had.
        if !same_file(&path, input) {
            format.check_path(&path)?;
        }
        // Writing `path` goes through `path.partial`: neither may be the
        // input, which is still being read.
        let replaces_input = same_file(&path, input) || same_file(&partial_path_for(&path), input);
        if !same_file(&path, input) {
            refuse_existing(&path, force)?;
        }
        let backup = replaces_input.then(|| backup_path(&path));
        if let Some(backup) = &backup {
            if backup.exists() {
                return Err(Error::InvalidArgument(format!(
                    "{}: the backup of the input would overwrite an existing file; move it away or give --out",
                    backup.display()
                )));
            }
        }
        Ok(Destination {
            path,
            backup,
            force,
        })
    }

    /// Write the bag: `fill` writes into it, then it is finished and named.
    /// On any error nothing is left under the final name and the input is
    /// where it was; an error of `fill` that names no file is taken for
    /// one of writing, and names the output. Returns what `fill` returned
    /// and the size in bytes.
    pub fn write<T>(
        &self,
        input: &Path,
        options: WriterOptions,
        fill: impl FnOnce(&mut BagWriter<BufWriter<File>>) -> Result<T>,
    ) -> Result<(T, u64)> {
        let mut undo = Vec::new();
        // The file itself moves to the backup, not a link given for it.
        let resolved = input.canonicalize();
        let input = resolved.as_deref().unwrap_or(input);
        if let Some(backup) = &self.backup {
            std::fs::rename(input, backup).map_err(|source| Error::Io {
                path: input.to_path_buf(),
                error: source,
            })?;
            undo.push(on_interrupt(Undo::MoveBack {
                from: backup.clone(),
                to: input.to_path_buf(),
            }));
        }
        undo.push(on_interrupt(Undo::RemoveFile(partial_path_for(&self.path))));
        let result = self.write_file(options, fill);
        if result.is_err() {
            if let Some(backup) = &self.backup {
                let _ = std::fs::rename(backup, input);
            }
        }
        result
    }

    /// Give the finished file `written` its name: the input moved to the
    /// backup first where the output takes its place. On an error the
    /// input is where it was and `written` is removed.
    pub fn put_in_place(&self, input: &Path, written: &Path) -> Result<()> {
        let io = |path: &Path| {
            let path = path.to_path_buf();
            move |error| Error::Io { path, error }
        };
        // The file itself moves to the backup, not a link given for it.
        let resolved = input.canonicalize();
        let input = resolved.as_deref().unwrap_or(input);
        let moved = match &self.backup {
            Some(backup) => std::fs::rename(input, backup).map_err(io(input)),
            None => Ok(()),
        };
        let named =
            moved.and_then(|()| std::fs::rename(written, &self.path).map_err(io(&self.path)));
        if named.is_err() {
            if let Some(backup) = &self.backup {
                let _ = std::fs::rename(backup, input);
            }
            let _ = std::fs::remove_file(written);
        }
        named
    }

    /// What was written, and where the input went if it was replaced.
    pub fn report(&self, messages: u64, size: u64, compression: Compression) -> String {
        let chunks = match compression {
            Compression::None => "uncompressed",
            c => c.as_str(),
        };
        let mut text = String::new();
        outln!(
            text,
            "wrote {} ({messages} messages, {size} bytes, {chunks} chunks)",
            self.path.display()
        );
        if let Some(backup) = &self.backup {
            outln!(text, "the original is kept as {}", backup.display());
        }
        text
    }

    fn write_file<T>(
        &self,
        options: WriterOptions,
        fill: impl FnOnce(&mut BagWriter<BufWriter<File>>) -> Result<T>,
    ) -> Result<(T, u64)> {
        // Name the file the user asked for, not its temporary name.
        let file = if self.force {
            BagFile::create_or_replace(&self.path, options)
        } else {
            BagFile::create(&self.path, options)
        };
        let mut file = file.map_err(|e| match e {
            Error::Io { error, .. } => Error::Io {
                path: self.path.clone(),
                error,
            },
            e => e,
        })?;
        // What fails here without a file of its own is the writing.
        match fill(&mut file) {
            Ok(value) => match file.finish() {
                Ok(size) => Ok((value, size)),
                Err(e) => {
                    // A rewrite's unfinished output is of no use.
                    let _ = std::fs::remove_file(partial_path_for(&self.path));
                    Err(e)
                }
            },
            Err(e) => {
                file.abandon();
                Err(e.in_file(&self.path))
            }
        }
    }
}

/// `dir/name.bag` → `dir/name.orig.bag`, rosbag's name for the backup.
fn backup_path(output: &Path) -> PathBuf {
    let stem = output.file_stem().unwrap_or_default().to_string_lossy();
    let name = match output.extension() {
        Some(ext) => format!("{stem}.orig.{}", ext.to_string_lossy()),
        None => format!("{stem}.orig"),
    };
    output.with_file_name(name)
}

/// An error if a file is at `path` and `force` was not given: no command
/// replaces a file it did not create unasked.
pub fn refuse_existing(path: &Path, force: bool) -> Result<()> {
    if !force && path.symlink_metadata().is_ok() {
        return Err(Error::InvalidArgument(format!(
            "{}: the output exists; give --force to replace it, or name another output",
            path.display()
        )));
    }
    Ok(())
}

/// Whether `a` and `b` name the same existing file.
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// The compression of the bag's first chunk (what its writer used), or
/// LZ4 for a bag without chunks.
pub fn compression_of(bag: &Bag) -> Result<Compression> {
    match bag.chunks().first() {
        Some(chunk) => bag.chunk_compression(chunk),
        None => Ok(Compression::Lz4),
    }
}

/// What the scan could not recover, in words.
pub fn losses(report: &ScanReport) -> Option<String> {
    let mut parts = Vec::new();
    for (offset, reason) in &report.damaged_chunks {
        parts.push(format!("the chunk at byte {offset} ({reason})"));
    }
    if report.orphan_messages > 0 {
        parts.push(format!(
            "{} messages whose connection is unknown",
            report.orphan_messages
        ));
    }
    if let Some((offset, reason)) = &report.stopped_at {
        parts.push(format!("everything from byte {offset} ({reason})"));
    }
    (!parts.is_empty()).then(|| parts.join(", "))
}

/// Refuse a `.db3` for a command that rewrites a bag's chunks or index,
/// saying what to use instead.
pub fn bag_only(file: &Path, command: &str, instead: &str) -> Result<()> {
    if rsbag::storage::FileFormat::Db3.is_format_of(file)? {
        return Err(Error::InvalidArgument(format!(
            "{}: a .db3, and `rsbag {command}` works on .bag files; {instead}",
            file.display()
        )));
    }
    Ok(())
}
