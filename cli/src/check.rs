//! `rsbag check`: dropped frames and damage, with an exit code for scripts.

use std::path::PathBuf;
use std::process::ExitCode;

use rsbag::playback::check::{check_file, CheckReport, Finding, FindingKind};
use rsbag::BagTime;

use super::damage::DAMAGED;
use super::progress;

/// Exit code when frames were dropped, out of order or duplicated.
const FRAME_PROBLEMS: u8 = 3;

/// How many findings of a stream are listed (all are counted).
const LISTED: usize = 20;

/// Find dropped, out-of-order and duplicate frames, and damage to the file.
///
/// Reads every frame and reports, per stream, frame-number gaps and
/// timestamp jumps (dropped frames), out-of-order and duplicate frames;
/// for the file, a missing index, damaged chunks, lost connections and a
/// cut-off tail.
///
/// A gap is a frame number more than one past the previous highest, or a
/// timestamp more than 1.5 frame periods (from the stream's fps) past the
/// previous latest. A damaged file is checked as far as a scan recovers it.
///
/// Exit code: 0 when everything is in order, 3 when frames were dropped,
/// out of order or duplicated (the file itself is sound), 4 when the file
/// is damaged, 1 when it cannot be checked at all (not a bag, not a
/// RealSense recording, unreadable), 2 for a usage error.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The recording to check.
    file: PathBuf,
}

pub fn run(args: Args) -> ExitCode {
    let bar = progress::bar(0, "frames");
    let report = check_file(&args.file, |done, total| {
        bar.set_length(total);
        bar.set_position(done);
    });
    bar.finish_and_clear();
    let report = match report {
        Ok(report) => report,
        Err(e) => {
            eprintln!("rsbag: {e}{}", super::hint(&e));
            return ExitCode::FAILURE;
        }
    };
    super::emit(&text(&args.file, &report));
    if report.is_damaged() {
        ExitCode::from(DAMAGED)
    } else if report.has_frame_problems() {
        ExitCode::from(FRAME_PROBLEMS)
    } else {
        ExitCode::SUCCESS
    }
}

fn text(file: &std::path::Path, report: &CheckReport) -> String {
    let mut out = String::new();
    outln!(out, "file:    {}", file.display());
    if report.scanned {
        outln!(
            out,
            "index:   not used (unusable, or a chunk unreadable); checked what a scan of the records recovers"
        );
    }
    for damage in &report.damage {
        outln!(out, "damage:  {damage}");
    }
    outln!(
        out,
        "{:<12} {:>8} {:>19} {:>8} {:>12} {:>10}",
        "stream",
        "frames",
        "numbers",
        "dropped",
        "out of order",
        "duplicates"
    );
    for (stream, check) in &report.streams {
        let numbers = check
            .numbers
            .map_or_else(|| "-".into(), |(lo, hi)| format!("#{lo}..#{hi}"));
        outln!(
            out,
            "{:<12} {:>8} {:>19} {:>8} {:>12} {:>10}",
            stream.to_string(),
            check.frames,
            numbers,
            check.dropped,
            check.out_of_order,
            check.duplicates
        );
    }
    for (stream, check) in &report.streams {
        for finding in check.findings.iter().take(LISTED) {
            outln!(out, "{stream}: {}", describe(finding, report.start_time));
        }
        if check.findings.len() > LISTED {
            outln!(
                out,
                "{stream}: … and {} more",
                check.findings.len() - LISTED
            );
        }
    }
    let verdict = if report.is_damaged() {
        "DAMAGED"
    } else if report.has_frame_problems() {
        "FRAMES MISSING OR OUT OF ORDER"
    } else {
        "OK"
    };
    outln!(out, "result:  {verdict}");
    out
}

fn describe(f: &Finding, start_time: BagTime) -> String {
    let at = (f.time - start_time).as_secs_f64();
    let interval = f.timestamp - f.previous_timestamp;
    match f.kind {
        FindingKind::Gap { missing } => format!(
            "{missing} missing before #{} at {at:.3} s (previous #{}, {interval:.3} ms earlier)",
            f.number, f.previous_number
        ),
        FindingKind::OutOfOrder => format!(
            "#{} at {at:.3} s out of order (after #{}, timestamp {:.3} ms against {:.3} ms)",
            f.number, f.previous_number, f.timestamp, f.previous_timestamp
        ),
        FindingKind::Duplicate => format!(
            "#{} at {at:.3} s duplicated (timestamp {:.3} ms)",
            f.number, f.timestamp
        ),
    }
}
