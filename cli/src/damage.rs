//! Telling the user what damage to a recording cost, and the exit code
//! that says so to scripts.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use rsbag::recording::Recording;
use rsbag::storage::bag::{Bag, ChunkRepairs, ScanReport};
use rsbag::Error;

/// Exit code when the file is damaged: `check` finds damage, or reading
/// skipped parts it could not read.
pub const DAMAGED: u8 = 4;

/// Unreadable parts of a recording skipped while reading it.
#[derive(Debug)]
pub struct Losses {
    file: PathBuf,
    count: u64,
    /// The bag's chunks read around damaged index data, as reading goes.
    repairs: Option<ChunkRepairs>,
    /// Such chunks known otherwise (a summary's).
    repaired: usize,
}

impl Losses {
    pub fn new(file: &Path) -> Losses {
        Losses {
            file: file.to_owned(),
            count: 0,
            repairs: None,
            repaired: 0,
        }
    }

    /// A part that could not be read was skipped: say so now, on stderr.
    /// A read that failed (an I/O error: the network, the disk) is not
    /// damage to skip: it is the error, which ends the command.
    pub fn note(&mut self, error: Error) -> Result<(), Error> {
        if error.kind() == rsbag::ErrorKind::Io {
            return Err(error);
        }
        self.note_text(without_file(&error, &self.file));
        Ok(())
    }

    /// As [`Losses::note`], the error already in words.
    pub fn note_text(&mut self, what: impl std::fmt::Display) {
        self.count += 1;
        eprintln!(
            "rsbag: warning: {}: skipped what could not be read: {what}",
            self.file.display(),
        );
    }

    /// Parts skipped elsewhere (the playback device counts its own).
    pub fn add(&mut self, count: u64) {
        self.count += count;
    }

    /// What damage to `recording`'s file costs: a recording read by a
    /// scan of its records, its index unusable (cut off, or never
    /// written), is damaged however much of it was recovered, and what
    /// the scan lost counts (the scan's warning said what it recovered);
    /// chunks whose index data is damaged, read from their own records as
    /// reading meets them, make the file damaged too.
    pub fn watch(&mut self, recording: &Recording) {
        if let Some(bag) = recording.bag() {
            self.watch_bag(bag);
        }
    }

    /// [`Losses::watch`] of a bag opened as a bag.
    pub fn watch_bag(&mut self, bag: &Bag) {
        if let Some(report) = bag.scan_report() {
            self.add(scan_losses(report));
        }
        self.repairs = Some(bag.chunk_repairs());
    }

    /// Chunks read around damaged index data, counted by someone else (a
    /// recording's summary): the file is damaged, none of it missing.
    pub fn add_repaired(&mut self, chunks: usize) {
        self.repaired += chunks;
    }

    /// Success, or (with a summary and a hint on stderr) [`DAMAGED`].
    pub fn exit_code(&self) -> ExitCode {
        let file = self.file.display();
        // `reindex` writes beside its input: a recording by URL is
        // downloaded first.
        let reindex = if rsbag::storage::remote::is_url(&self.file) {
            "download it and run `rsbag reindex` on the copy".to_string()
        } else {
            format!("run `rsbag reindex {file}`")
        };
        let repaired = self.repaired + self.repairs.as_ref().map_or(0, ChunkRepairs::count);
        if repaired > 0 {
            let (chunks, its, itself) = match repaired {
                1 => ("1 chunk", "its", "the chunk itself"),
                n => (&*format!("{n} chunks"), "their", "the chunks themselves"),
            };
            eprintln!(
                "rsbag: {file}: the file is damaged: the index of {chunks} was unreadable, and {its} frames were read from {itself}, none missing; {reindex} to write a new index"
            );
        }
        if self.count == 0 {
            return if repaired == 0 {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(DAMAGED)
            };
        }
        // A bag's index can be rebuilt; a .db3 keeps SQLite's own.
        let is_db3 = rsbag::storage::FileFormat::Db3
            .is_format_of(&self.file)
            .unwrap_or(false);
        let recover = if is_db3 {
            String::new()
        } else {
            format!(", {reindex} to recover what can be recovered")
        };
        eprintln!(
            "rsbag: {file}: the file is damaged: {} unreadable part{} skipped, and what {} held is missing from the output; `rsbag check {file}` lists the damage{recover}",
            self.count,
            if self.count == 1 { " was" } else { "s were" },
            if self.count == 1 { "it" } else { "they" },
        );
        ExitCode::from(DAMAGED)
    }
}

/// The parts a scan lost: each damaged chunk, the messages whose
/// connection is unknown, the end of the file; at least the index.
fn scan_losses(report: &ScanReport) -> u64 {
    let parts = report.damaged_chunks.len()
        + usize::from(report.orphan_messages > 0)
        + usize::from(report.stopped_at.is_some());
    parts.max(1) as u64
}

/// The error without the file name in front, when it is `file`.
fn without_file<'e>(error: &'e Error, file: &Path) -> &'e dyn std::fmt::Display {
    match error {
        Error::InFile { path, error } if path == file => error.as_ref(),
        other => other,
    }
}
