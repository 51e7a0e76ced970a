//! `rsbag check`: dropped frames and damage, with an exit code for scripts.

use std::path::PathBuf;
use std::process::ExitCode;

use rsbag::recording::check::{check_file, CheckReport, Finding, FindingKind};
use rsbag::recording::SyncReport;
use rsbag::BagTime;

use super::damage::DAMAGED;
use super::files::{self, FINDINGS};
use super::{pieces, progress, session};

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
///
/// Several files (or directories of recordings) are checked in turn, then
/// counted in a `total:` line; the exit code is the worst file's. They
/// are then read as one session (unless `--each`) and a sync report
/// follows: per pair of cameras (one stream of each: the first video
/// stream), when both record, the offset between their clocks (the
/// second's timestamp minus the first's at the start of that overlap) and
/// its drift in ppm with its standard error (`drift +X ± Y ppm`: over a
/// short overlap, or on arrival times, a drift is known only roughly),
/// frames without a partner within the tolerance, and
/// gaps where one camera recorded nothing for over 1.5 frame periods. The
/// sync report does not change the exit code.
///
/// With `--json`, one object per file: `{"file", "result" ("ok",
/// "frames missing or out of order" or "damaged"), "scanned" (the index
/// was unusable), "damage" [sentences], "streams" [{"stream", "frames",
/// "numbers" [lowest, highest] or null, "dropped", "out_of_order",
/// "duplicates", "findings" [{"kind" ("gap", "out_of_order" or
/// "duplicate"), "missing" (gaps), "time_s" (from the first frame),
/// "number", "timestamp_ms", "previous_number",
/// "previous_timestamp_ms"}]}]}`; for a session a last line `{"sync":
/// {"clock", "tolerance_ms", "pairs" [{"cameras" [a, b], "streams" [a,
/// b], "clock_domains" [a, b], "overlap_s" [from, to] or null,
/// "offset_ms" (b's timestamp minus a's at the overlap's start; null
/// when one stamps on its device's clock and the other on the host's),
/// "drift_ppm" or null,
/// "drift_ppm_error" (its standard error) or null, "frames" [a,
/// b] (in the overlap), "without_partner" [a, b], "gaps" [{"camera",
/// "from_s", "to_s"}]}], "read_errors", "verdict" {"one_session",
/// "reason"}}}` (times in seconds from the session's first frame).
/// Recordings that are not one session (that never all record at once on
/// a clock they share) get no sync report: no pairs, and the verdict
/// says why.
///
/// The pieces of one split recording (`record --split-duration`; one
/// device, its frames running on from file to file) are checked each,
/// then as one recording: every stream's frame numbers must run on at
/// every cut. A jump (a piece missing) is a `GAP` line and exit 3; with
/// `--json` a last line `{"pieces": {...}}` as `rsbag info` gives it.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The recordings to check: files, ROS 2 bag directories,
    /// directories holding recordings, or URLs (`http(s)://`, `s3://`: read in place, see the guide's
    /// "Recordings where they live").
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// With several recordings: how far apart (ms, on the session's clock)
    /// two cameras' frames may be and still be partners. By default half
    /// the frame period of the slower of the two streams compared.
    #[arg(long, value_name = "MS")]
    tolerance: Option<f64>,
    /// Print one JSON object per file (and one for the sync report)
    /// instead of text.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    session: session::SessionArgs,
}

pub fn run(args: Args) -> rsbag::Result<ExitCode> {
    let tolerance = super::select::milliseconds("tolerance", args.tolerance)?;
    let files = files::recordings(&args.files)?;
    args.session.validate(&files)?;
    if tolerance.is_some() && !args.session.as_session(&files) {
        return Err(rsbag::Error::InvalidArgument(
            "--tolerance applies to a session of several recordings (and not with --each)".into(),
        ));
    }
    let mut results = [0usize; 4];
    let between = if args.json { "" } else { "\n" };
    let worst = files::each(&files, between, |file| {
        let code = check_one(file, args.json);
        let result = match &code {
            Ok(code) if *code == ExitCode::SUCCESS => 0,
            Ok(code) if *code == ExitCode::from(FINDINGS) => 1,
            Ok(_) => 2,
            Err(_) => 3,
        };
        results[result] += 1;
        code
    })?;
    if files.len() > 1 && !args.json {
        let [ok, findings, damaged, failed] = results;
        super::emit(&format!(
            "\ntotal:   {} files: {ok} OK, {findings} with frames missing or out of order, \
             {damaged} damaged, {failed} not checked\n",
            files.len()
        ));
    }
    if args.session.as_session(&files) {
        if let Some(pieces) = pieces::open(&files)? {
            let summary = pieces.summary();
            pieces::emit_summary(&summary, args.json);
            // Frames missing at a cut are missing from the recording.
            if !summary.gaps.is_empty() && worst == ExitCode::SUCCESS {
                return Ok(ExitCode::from(FINDINGS));
            }
            return Ok(worst);
        }
        if let Some(opened) = session::open_quietly(&files, &args.session.clock)? {
            // Each file's check has read it all and said what is wrong.
            let report = session::quietly(|| opened.session.sync_report(tolerance))?;
            super::emit(&if args.json {
                format!("{}\n", serde_json::json!({ "sync": report }))
            } else {
                sync_text(&report)
            });
        }
    }
    Ok(worst)
}

/// The text of a session's sync report.
fn sync_text(report: &SyncReport) -> String {
    let mut out = String::new();
    if !report.verdict.one_session {
        outln!(
            out,
            "\nsync:    no sync report: not one session: {}",
            report.verdict.reason
        );
        return out;
    }
    outln!(
        out,
        "\nsync:    on {}, frames are partners within {:.3} ms",
        report.clock,
        report.tolerance_ms
    );
    for pair in &report.pairs {
        let [a, b] = &pair.cameras;
        outln!(
            out,
            "  {a} / {b} ({} / {})",
            pair.streams[0],
            pair.streams[1]
        );
        let Some([from, to]) = pair.overlap_s else {
            outln!(out, "    overlap:          none (never recording at once)");
            continue;
        };
        outln!(out, "    overlap:          {from:.3} s .. {to:.3} s");
        outln!(
            out,
            "    frames:           {} of {a}, {} of {b}",
            pair.frames[0],
            pair.frames[1]
        );
        if pair.clock_domains[0] != pair.clock_domains[1] && pair.offset_ms.is_none() {
            outln!(
                out,
                "    clock offset:     different clock domains ({} {}, {b} {}): no sync report of their clocks",
                a,
                pair.clock_domains[0],
                pair.clock_domains[1]
            );
        }
        if let (Some(offset), Some(drift)) = (pair.offset_ms, pair.drift_ppm) {
            let error = pair
                .drift_ppm_error
                .map_or(String::new(), |e| format!(" ± {e:.1}"));
            outln!(
                out,
                "    clock offset:     {offset:+.3} ms ({b} minus {a}), drift {drift:+.1}{error} ppm"
            );
        }
        outln!(
            out,
            "    without partner:  {} of {a}, {} of {b}",
            pair.without_partner[0],
            pair.without_partner[1]
        );
        if pair.gaps.is_empty() {
            outln!(out, "    gaps:             none");
        }
        for gap in &pair.gaps {
            outln!(
                out,
                "    gap:              {} recorded nothing from {:.3} s to {:.3} s",
                gap.camera,
                gap.from_s,
                gap.to_s
            );
        }
    }
    if report.read_errors > 0 {
        outln!(
            out,
            "  ({} frames could not be read and are not in the report)",
            report.read_errors
        );
    }
    out
}

/// Check one file and print its report (as JSON with `json`).
fn check_one(file: &std::path::Path, json: bool) -> rsbag::Result<ExitCode> {
    let bar = progress::bar(0, "frames");
    let report = check_file(file, |done, total| {
        bar.set_length(total);
        bar.set_position(done);
    });
    bar.finish_and_clear();
    let report = report?;
    super::emit(&if json {
        format!("{}\n", json_report(file, &report))
    } else {
        text(file, &report)
    });
    Ok(if report.is_damaged() {
        ExitCode::from(DAMAGED)
    } else if report.has_frame_problems() {
        ExitCode::from(FINDINGS)
    } else {
        ExitCode::SUCCESS
    })
}

/// The verdict on a file, as the text's `result:` line says it.
fn verdict(report: &CheckReport) -> &'static str {
    if report.is_damaged() {
        "DAMAGED"
    } else if report.has_frame_problems() {
        "FRAMES MISSING OR OUT OF ORDER"
    } else {
        "OK"
    }
}

/// A file's report as the JSON object `--json` prints.
fn json_report(file: &std::path::Path, report: &CheckReport) -> serde_json::Value {
    let streams: Vec<serde_json::Value> = (report.streams.iter())
        .map(|(stream, check)| {
            let findings: Vec<serde_json::Value> = (check.findings.iter())
                .map(|f| json_finding(f, report.start_time))
                .collect();
            serde_json::json!({
                "stream": stream.name(),
                "frames": check.frames,
                "numbers": check.numbers.map(|(lo, hi)| [lo, hi]),
                "dropped": check.dropped,
                "out_of_order": check.out_of_order,
                "duplicates": check.duplicates,
                "findings": findings,
            })
        })
        .collect();
    serde_json::json!({
        "file": file.display().to_string(),
        "result": verdict(report).to_ascii_lowercase(),
        "scanned": report.scanned,
        "damage": report.damage,
        "streams": streams,
    })
}

fn json_finding(f: &Finding, start_time: BagTime) -> serde_json::Value {
    let (kind, missing) = match f.kind {
        FindingKind::Gap { missing } => ("gap", Some(missing)),
        FindingKind::OutOfOrder => ("out_of_order", None),
        FindingKind::Duplicate => ("duplicate", None),
    };
    let mut out = serde_json::json!({
        "kind": kind,
        "time_s": (f.time - start_time).as_secs_f64(),
        "number": f.number,
        "timestamp_ms": f.timestamp,
        "previous_number": f.previous_number,
        "previous_timestamp_ms": f.previous_timestamp,
    });
    if let Some(missing) = missing {
        out["missing"] = missing.into();
    }
    out
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
    outln!(out, "result:  {}", verdict(report));
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
