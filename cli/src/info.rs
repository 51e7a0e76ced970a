//! `rsbag info`: what a bag holds, from its index alone.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use rsbag::device::camera_info;
use rsbag::recording::summary::{short_f64, RealSenseSummary, Summary};
use rsbag::recording::SessionSummary;
use rsbag::storage::FileFormat;
use rsbag::{Error, Result};

use super::damage::Losses;
use super::{files, pieces, session};

/// Describe a bag: device, streams and topics, from the index alone.
///
/// Shows the size, times, chunks and compression, the recorded device and
/// sensors (camera info, options), every stream (format, resolution, fps,
/// frames, measured rate) and every topic with its type and message count,
/// read from the index and the device description without reading frames
/// (a bag without a usable index is scanned).
///
/// The measured rate of a stream is (frames - 1) / (last - first) over
/// the bag times of its frames. Times are bag times (ns since the
/// recording started); the duration is from the first frame to the last.
///
/// `--json` prints one object with the keys: `file`, `format` (`bag`,
/// `db3` or `mcap`: the storage, told by the file's first bytes), `size` (bytes),
/// `index` ("indexed", or "scanned" when the index was unusable), `scan`
/// (null, or what a scan recovered: `complete_chunks`, `damaged_chunks`
/// [{`offset`, `reason`}], `orphan_messages`, `stopped_at` {`offset`,
/// `reason`} or null, `cut_chunk_messages`: the messages recovered from
/// the chunk the file ends in), `repaired_chunks` [{`offset`, `reason`}]
/// (chunks whose index data records could not be read, read from their
/// own records: none of their messages missing, the file damaged all the
/// same), `start_ns` and `end_ns` (bag times of the first and
/// last message), `chunks`, `compression` ({name: chunks} among the
/// chunks read for it), `compression_chunks_read` (all the chunks, or
/// 32 spread over a larger file, so that `info` reads the index and a
/// bounded number of places whatever the file's length), `messages`,
/// `topics` [{`topic`, `type`, `messages`}], `not_realsense` (null, or why
/// the bag is not read as a RealSense recording: no `/file_version`
/// topic, or a device description that cannot be read), and `realsense`:
/// null for such a bag, otherwise {`file_version` (0 for a camera bag
/// recorded from ROS), `notes` (for a camera bag: what is not played or
/// missing, in words),
/// `start_ns`, `end_ns` and `duration_s` (of the frames), `device`
/// {camera-info key: value}, `sensors` [{`name`, `info` {key: value},
/// `options` {name: value}}], `streams` [{`stream`, `index`, `sensor`,
/// `format`, `fps`, `width` and `height` (null unless video), `frames`,
/// `measured_fps` (null under two frames), `intrinsics` (null, or {`fx`,
/// `fy`, `ppx`, `ppy`, `model`, `coeffs`})}], `extrinsics` [{`from`, `to`
/// (stream names: `Depth`, `Infrared 1`), `rotation` (9 numbers,
/// column-major), `translation` (metres)}]: for every ordered pair of
/// streams the recording relates, the transform from `from`'s coordinates
/// to `to`'s, as librealsense's `get_extrinsics_to` gives it}.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The recordings to describe: files, ROS 2 bag directories,
    /// directories holding recordings, or URLs (`http(s)://`, `s3://`: read in place, see the guide's
    /// "Recordings where they live") (each described in turn, then a
    /// `total:` line; with `--json`, one object per line). Several
    /// recordings are then described as one session (unless `--each`):
    /// its clock, cameras and overlap; with `--json` a last line
    /// `{"session": {clock, clock_reason, duration_s, cameras [{file,
    /// serial, name, offset_s, streams, frames, span_s}], overlap_s,
    /// verdict {one_session, reason}}}` (times in seconds from the
    /// session's first frame). Recordings are one session when every
    /// camera records at once on a clock they share (Global Time or
    /// arrival time, or their starts with `--offset`); others (unrelated
    /// files, the recordings of a directory) are said not to be one. The
    /// pieces of one split recording (one device, its frames running on
    /// from file to file) are one recording: its pieces, frames and any
    /// gap where a piece is missing; with `--json` a last line
    /// `{"pieces": {serial, duration_s, pieces [{file, start_s,
    /// duration_s, frames}], frames {stream: count}, gaps [{after, stream,
    /// numbers, seconds}]}}`.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    session: session::SessionArgs,
}

/// A bag without a usable index (cut off, or never finished) is described
/// from what a scan recovers, and is damaged: exit 4.
pub fn run(args: Args) -> Result<ExitCode> {
    let files = files::recordings(&args.files)?;
    args.session.validate(&files)?;
    let mut total = Total::default();
    let between = if args.json { "" } else { "\n" };
    let worst = files::each(&files, between, |file| {
        let (code, summary) = info_one(file, args.json)?;
        total.add(&summary);
        Ok(code)
    })?;
    if files.len() > 1 && !args.json {
        super::emit(&total.text(files.len()));
    }
    if args.session.as_session(&files) {
        if let Some(pieces) = pieces::open(&files)? {
            let summary = pieces.summary();
            pieces::emit_summary(&summary, args.json);
            return Ok(worst);
        }
        // The files that open make the session; the others were reported.
        if let Some(opened) = session::open_quietly(&files, &args.session.clock)? {
            let summary = opened.session.summary();
            super::emit(&if args.json {
                let json = serde_json::json!({ "session": summary });
                format!("{json}\n")
            } else {
                session_text(&summary)
            });
        }
    }
    Ok(worst)
}

/// The text form of a session's summary.
fn session_text(summary: &SessionSummary) -> String {
    let mut out = String::new();
    if !summary.verdict.one_session {
        outln!(
            out,
            "\nsession:       not one session: {}",
            summary.verdict.reason
        );
        return out;
    }
    outln!(
        out,
        "\nsession:       {} on one timeline, {:.3} s",
        session::what(
            (summary.cameras.iter()).map(|c| (Path::new(&c.file), c.namespace.is_some()))
        ),
        summary.duration_s
    );
    outln!(out, "               ({})", summary.verdict.reason);
    outln!(
        out,
        "clock:         {} ({})",
        summary.clock,
        summary.clock_reason
    );
    outln!(out, "cameras:");
    for camera in &summary.cameras {
        let span = camera
            .span_s
            .map_or("no frames".into(), |[a, b]| format!("{a:.3} s .. {b:.3} s"));
        let offset = if camera.offset_s != 0.0 {
            format!(", offset {:+.3} s", camera.offset_s)
        } else {
            String::new()
        };
        outln!(
            out,
            "  {:<14} {:>7} frames  {span:<24} {}{} ({}{offset})",
            camera.name,
            camera.frames,
            camera.file,
            (camera.namespace.as_ref()).map_or(String::new(), |ns| format!(" {ns}")),
            camera.streams.join(", ")
        );
    }
    match summary.overlap_s {
        Some([a, b]) => outln!(
            out,
            "overlap:       {a:.3} s .. {b:.3} s ({:.3} s with every camera recording)",
            b - a
        ),
        None => outln!(
            out,
            "overlap:       none (the cameras never record at once)"
        ),
    }
    out
}

/// What several recordings hold together.
#[derive(Default)]
struct Total {
    described: usize,
    bytes: u64,
    frames: u64,
    seconds: f64,
}

impl Total {
    fn add(&mut self, summary: &Summary) {
        self.described += 1;
        self.bytes += summary.size;
        if let Some(rs) = &summary.realsense {
            self.frames += rs.streams.iter().map(|s| s.frames).sum::<u64>();
            self.seconds += rs.duration_s;
        }
    }

    fn text(&self, files: usize) -> String {
        format!(
            "\ntotal:         {} of {files} recordings described: {} bytes, {} frames, {} s\n",
            self.described,
            self.bytes,
            self.frames,
            (self.seconds * 1000.0).round() / 1000.0
        )
    }
}

/// Describe one recording; returns the exit code and its summary.
fn info_one(file: &Path, json: bool) -> Result<(ExitCode, Summary)> {
    let summary = Summary::of(file)?;
    let mut losses = Losses::new(file);
    if let Some(scan) = &summary.scan {
        let parts = scan.damaged_chunks.len()
            + usize::from(scan.orphan_messages > 0)
            + usize::from(scan.stopped_at.is_some());
        losses.add(parts.max(1) as u64);
    }
    losses.add_repaired(summary.repaired_chunks.len());
    let text = if json {
        let json = serde_json::to_value(&summary).map_err(|e| {
            Error::InvalidArgument(format!("cannot write the summary as JSON: {e}"))
        })?;
        format!("{json}\n")
    } else {
        text(&summary)
    };
    super::emit(&text);
    Ok((losses.exit_code(), summary))
}

/// The text form of a summary.
fn text(info: &Summary) -> String {
    let mut out = String::new();
    let seconds = |ns: u64| ns as f64 / 1e9;
    outln!(out, "file:          {}", info.file);
    outln!(
        out,
        "format:        {}",
        match info.format {
            FileFormat::Db3 => "rosbag2 .db3 (SQLite, CDR)",
            FileFormat::Mcap => "MCAP (CDR)",
            FileFormat::Bag => "ROS bag v2.0",
        }
    );
    outln!(out, "size:          {} bytes", info.size);
    match (&info.realsense, &info.not_realsense) {
        (Some(rs), _) if rs.file_version == 0 => {
            outln!(
                out,
                "layout:        camera bag recorded from ROS (no /file_version)"
            );
            for note in &rs.notes {
                outln!(out, "note:          {note}");
            }
        }
        (Some(rs), _) => outln!(out, "file version:  {} (RealSense)", rs.file_version),
        (None, why) => outln!(
            out,
            "realsense:     not a RealSense recording ({})",
            why.as_deref().unwrap_or("no RealSense description")
        ),
    }
    match &info.scan {
        None if !info.repaired_chunks.is_empty() => {
            for chunk in &info.repaired_chunks {
                outln!(
                    out,
                    "index:         damaged: the chunk at byte {}: {}; read from the chunk itself, none missing",
                    chunk.offset,
                    chunk.reason
                );
            }
        }
        None => outln!(out, "index:         ok"),
        Some(scan) => outln!(
            out,
            "index:         missing or damaged; recovered by scanning: {} complete chunks{}, {} damaged{}",
            scan.complete_chunks,
            if scan.cut_chunk_messages > 0 {
                format!(
                    " and {} messages of the chunk the file ends in",
                    scan.cut_chunk_messages
                )
            } else {
                String::new()
            },
            scan.damaged_chunks.len(),
            scan.stopped_at
                .as_ref()
                .map_or(String::new(), |p| format!(", cut off at byte {}", p.offset))
        ),
    }
    if let Some(rs) = &info.realsense {
        outln!(
            out,
            "duration:      {:.3} s (frames from {:.6} s to {:.6} s)",
            rs.duration_s,
            seconds(rs.start_ns),
            seconds(rs.end_ns)
        );
    }
    outln!(
        out,
        "bag time:      {:.6} s .. {:.6} s",
        seconds(info.start_ns),
        seconds(info.end_ns)
    );
    let compression: Vec<String> = info
        .compression
        .iter()
        .map(|(name, n)| format!("{n} {name}"))
        .collect();
    if info.format == FileFormat::Mcap {
        outln!(
            out,
            "chunks:        {} ({})",
            info.chunks,
            compression.join(", ")
        );
    } else if info.format == FileFormat::Db3 {
        let images = compression.join(", ");
        outln!(
            out,
            "image topics:  {}",
            if images.is_empty() {
                "none".into()
            } else {
                images
            }
        );
    } else {
        chunks_text(&mut out, info, &compression);
    }
    outln!(out, "messages:      {}", info.messages);
    if let Some(rs) = &info.realsense {
        device_text(&mut out, rs);
    }
    topics_text(&mut out, info);
    out
}

/// The chunks of a bag and their compression.
fn chunks_text(out: &mut String, info: &Summary, compression: &[String]) {
    let read = info.compression_chunks_read;
    let compression = match (compression.is_empty(), read == info.chunks) {
        (true, _) => String::new(),
        (false, true) => format!(" ({})", compression.join(", ")),
        (false, false) => format!(
            " (of {read} read, spread over the file: {})",
            compression.join(", ")
        ),
    };
    outln!(out, "chunks:        {}{compression}", info.chunks);
}

/// Every topic with its message count and type.
fn topics_text(out: &mut String, info: &Summary) {
    outln!(out, "topics:");
    let width = info.topics.iter().map(|t| t.topic.len()).max().unwrap_or(0);
    for t in &info.topics {
        outln!(
            out,
            "  {:<width$} {:>7}  {}",
            t.topic,
            t.messages.to_string(),
            t.msg_type
        );
    }
}

fn device_text(out: &mut String, rs: &RealSenseSummary) {
    outln!(out, "device:");
    for (key, value) in &rs.device {
        outln!(out, "  {key:<28} {value}");
    }
    outln!(out, "sensors:");
    for sensor in &rs.sensors {
        outln!(out, "  {}", sensor.name);
        for (key, value) in &sensor.info {
            if key != camera_info::NAME {
                outln!(out, "    {key:<26} {value}");
            }
        }
        for (name, &value) in &sensor.options {
            outln!(out, "    option {name:<19} {}", short_f64(value));
        }
    }
    outln!(out, "streams:");
    outln!(
        out,
        "  {:<12} {:<20} {:<14} {:>10} {:>5} {:>8} {:>12}",
        "stream",
        "sensor",
        "format",
        "size",
        "fps",
        "frames",
        "measured"
    );
    for s in &rs.streams {
        let size = match (s.width, s.height) {
            (Some(w), Some(h)) => format!("{w}x{h}"),
            _ => "-".into(),
        };
        let measured = s
            .measured_fps
            .map_or_else(|| "-".into(), |r| format!("{r:.2} Hz"));
        outln!(
            out,
            "  {:<12} {:<20} {:<14} {:>10} {:>5} {:>8} {:>12}",
            format!("{} {}", s.stream, s.index),
            s.sensor.as_deref().unwrap_or("null"),
            s.format,
            size,
            s.fps,
            s.frames,
            measured
        );
    }
}
