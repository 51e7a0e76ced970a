//! The pieces of a split recording given together (`rsbag info|frames|
//! check|trim run_0.bag run_1.bag ...`, or their directory): read as one
//! recording, not as a session of several cameras.

use std::path::PathBuf;
use std::sync::Arc;

use rsbag::recording::{Pieces, PiecesSummary};
use rsbag::Result;

use super::damage::Losses;
use super::{select, session};

/// `files` as the pieces of one recording, when they are (one device,
/// its frames running on from file to file, told by what the files hold);
/// `None` when they are not, or a file cannot be opened (the command then
/// reads them as it reads several recordings, and says why). A gap at a
/// cut is said on stderr.
pub fn open(files: &[PathBuf]) -> Result<Option<Pieces>> {
    if files.len() < 2 {
        return Ok(None);
    }
    let mut readers = Vec::new();
    for file in files {
        match session::quietly(|| select::open(file)) {
            Ok(reader) => readers.push((file.clone(), Arc::new(reader))),
            Err(_) => return Ok(None),
        }
    }
    if Pieces::judge(&readers).is_err() {
        return Ok(None);
    }
    let pieces = Pieces::join(readers)?;
    for gap in pieces.gaps() {
        eprintln!(
            "rsbag: warning: a gap between {} and {}: {gap} (frames dropped at the cut, or a piece missing)",
            pieces.pieces()[gap.after].path().display(),
            pieces.pieces()[gap.after + 1].path().display()
        );
    }
    Ok(Some(pieces))
}

/// Print the pieces' section of `info` and `check`: its text, or in JSON
/// a last line `{"pieces": ...}`.
pub fn emit_summary(summary: &PiecesSummary, json: bool) {
    super::emit(&if json {
        format!("{}\n", serde_json::json!({ "pieces": summary }))
    } else {
        format!("\n{}", text(summary))
    });
}

/// The lines that say what the recording in pieces is.
fn text(summary: &PiecesSummary) -> String {
    let mut out = String::new();
    outln!(
        out,
        "recording:     one recording in {} pieces (serial {}), {:.3} s",
        summary.pieces.len(),
        summary.serial,
        summary.duration_s
    );
    outln!(
        out,
        "               (one device, its frames running on from file to file; not a session of several cameras)"
    );
    for (at, piece) in summary.pieces.iter().enumerate() {
        outln!(
            out,
            "  piece {at:<6} {}  from {:.3} s, {:.3} s, {} frames",
            piece.file,
            piece.start_s,
            piece.duration_s,
            piece.frames
        );
    }
    let frames: Vec<String> = (summary.frames.iter())
        .map(|(s, n)| format!("{s} {n}"))
        .collect();
    outln!(out, "  frames       {}", frames.join(", "));
    if summary.gaps.is_empty() {
        outln!(out, "  cuts         every stream's frame numbers run on");
    }
    for gap in &summary.gaps {
        outln!(out, "  GAP          {gap}");
    }
    out
}

/// The note on stderr that the files are read as one recording.
pub fn note(pieces: &Pieces) {
    eprintln!(
        "rsbag: {} pieces of one recording (serial {}), read as one",
        pieces.pieces().len(),
        pieces.serial()
    );
}

/// What the commands reading `pieces` tell of damage: any piece's, named
/// after the first piece.
pub fn losses(pieces: &Pieces) -> Losses {
    let mut losses = Losses::new(pieces.pieces()[0].path());
    for piece in pieces.pieces() {
        losses.watch(piece.reader().recording());
    }
    losses
}
