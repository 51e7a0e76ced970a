//! `rsbag frames`: every frame of a recording, one line each.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use sha2::{Digest, Sha256};

use std::sync::Arc;

use parking_lot::Mutex;

use super::damage::Losses;
use super::{files, json, pieces, select, session};
use rsbag::device::{Device, Frame, StreamId};
use rsbag::playback::{Playback, PlaybackOptions};
use rsbag::realsense::convert::ms_as_recorded;
use rsbag::recording::{Pieces, SessionFrame};
use rsbag::{Error, Result};

/// Print every frame of a recording, in recorded order: stream, stream
/// index, the frame's position in its stream, frame number, timestamp,
/// domain, size and SHA-256 of the data.
///
/// Frames are read straight from the file (no threads, nothing dropped):
/// exactly the frames librealsense plays from it, not in real time.
/// `--streams`, `--start` and `--duration` choose frames; `--index K`
/// prints the K-th frame of each chosen stream, found through the index.
///
/// The pieces of one split recording (`record --split-duration`; the
/// files, their directory or a glob) are read as one recording:
/// `--index` and `--start` count across the pieces.
///
/// Several recordings (or directories of them) are read as one session:
/// every frame of every file, in time order on the best clock they all
/// share (said in the header; `--clock`, `--offset`), each line naming its
/// camera; in JSON each line also has `"file"`, `"serial"`, `"clock"` and
/// `"session_time"` (ms on that clock). `--start`/`--duration` then count
/// from the session's first frame. With `--each` (or `--device`) each file
/// is read on its own, in turn: in text a `file:` line before each one's
/// frames, in JSON a `"file"` key on each line. The exit code is the worst
/// file's.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The recordings to read: files, ROS 2 bag directories,
    /// directories holding recordings, or URLs (`http(s)://`, `s3://`: read in place, see the guide's
    /// "Recordings where they live").
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// One JSON object per line, sorted by stream, stream index and frame
    /// number (the shape librealsense's frames are compared in):
    /// `stream_index` is the stream's index (`Infrared 2` is 2),
    /// `frame_index` the frame's position in its stream (what `--index`
    /// chooses), `timestamp` the recorded time in ms.
    #[arg(long)]
    json: bool,
    /// Only these streams, by librealsense name: `Depth`, `Color`,
    /// `Infrared 1` (or `Infrared:1`), `Accel`, `Gyro`, `Pose`…; a name
    /// without an index means every stream of that kind. Repeat the option
    /// or give a comma-separated list.
    #[arg(long, alias = "stream", value_name = "NAMES", value_delimiter = ',')]
    streams: Vec<String>,
    /// Only frames recorded from this many seconds after the first frame.
    #[arg(long, value_name = "SECONDS")]
    start: Option<f64>,
    /// Only frames recorded in this many seconds from `--start` (the end
    /// is excluded).
    #[arg(long, value_name = "SECONDS")]
    duration: Option<f64>,
    /// Only the frame at this position (from 0, in recorded order) of each
    /// chosen stream, read through the index without reading the frames
    /// before it.
    #[arg(long, value_name = "K", conflicts_with_all = ["start", "duration"])]
    index: Option<u64>,
    /// Play through the playback device (every sensor started, not in real
    /// time) instead of reading the file directly; the lines are in the
    /// order the callbacks ran.
    #[arg(long, conflicts_with_all = ["streams", "start", "duration", "index", "offset", "clock"])]
    device: bool,
    #[command(flatten)]
    session: session::SessionArgs,
}

/// One printed frame.
struct Line {
    stream: &'static str,
    stream_index: u32,
    frame_index: u64,
    number: u64,
    timestamp: f64,
    domain: &'static str,
    size: usize,
    sha256: String,
}

impl Line {
    /// The line of a frame at `frame_index` in its stream.
    fn of(frame: &Frame, frame_index: u64) -> Line {
        Line {
            stream: frame.profile.stream.kind.name(),
            stream_index: frame.profile.stream.index,
            frame_index,
            number: frame.number,
            timestamp: frame.timestamp,
            domain: frame.domain.name(),
            size: frame.data.len(),
            sha256: hex(&Sha256::digest(&frame.data)),
        }
    }

    /// The JSON line; `file` names the recording when several are read.
    fn json(&self, file: Option<&str>) -> String {
        let file = file.map_or(String::new(), |f| {
            format!("\"file\": {}, ", json::string(f))
        });
        format!(
            "{{{file}\"stream\": {}, \"stream_index\": {}, \"frame_index\": {}, \"frame_number\": {}, \"timestamp\": {}, \"domain\": {}, \"size\": {}, \"sha256\": \"{}\"}}",
            json::string(self.stream),
            self.stream_index,
            self.frame_index,
            self.number,
            json::python_float(ms_as_recorded(self.timestamp)),
            json::string(self.domain),
            self.size,
            self.sha256
        )
    }

    /// In JSON's order: by stream, stream index and frame number.
    fn sort(lines: &mut [Line]) {
        lines.sort_by(|a, b| {
            (a.stream, a.stream_index, a.number).cmp(&(b.stream, b.stream_index, b.number))
        });
    }

    fn text(&self) -> String {
        format!(
            "{:<10} {:>2} #{:<8} {:>16.3} ms  {:<14} {:>9} B  {}",
            self.stream,
            self.stream_index,
            self.number,
            ms_as_recorded(self.timestamp),
            self.domain,
            self.size,
            &self.sha256[..16]
        )
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Play the file through the playback device, not in real time, with
/// every sensor and profile started, and collect a line per frame.
fn play_all(file: &Path, losses: &mut Losses) -> Result<Vec<Line>> {
    let options = PlaybackOptions {
        real_time: false,
        ..PlaybackOptions::default()
    };
    let playback = Playback::with_options(file, options)?;
    losses.watch(playback.recording());
    // Start every sensor before reading begins, so that no stream misses
    // the first frames.
    playback.pause();
    let lines = Arc::new(Mutex::new(Vec::new()));
    for sensor in playback.sensors() {
        let profiles = sensor.profiles();
        if profiles.is_empty() {
            continue;
        }
        sensor.open(&profiles)?;
        let lines = lines.clone();
        // Each frame's position in its stream is counted once all are in.
        sensor.start(Arc::new(move |frame| {
            lines.lock().push(Line::of(&frame, 0))
        }))?;
    }
    playback.resume();
    playback.wait_until_stopped(Duration::MAX);
    playback.stop();
    // The playback device told of each on stderr as it skipped it.
    losses.add(playback.read_errors());
    let mut lines = std::mem::take(&mut *lines.lock());
    let mut counts = std::collections::HashMap::new();
    for line in &mut lines {
        let count = counts.entry((line.stream, line.stream_index)).or_insert(0);
        line.frame_index = *count;
        *count += 1;
    }
    Ok(lines)
}

/// Read the chosen frames from the file; each goes to `out` in recorded
/// order, and what cannot be read to `losses`.
fn read_frames(
    args: &Args,
    file: &Path,
    losses: &mut Losses,
    out: impl FnMut(Line) -> bool,
) -> Result<()> {
    // Errors met while reading frames name the file too.
    read_chosen_frames(args, file, losses, out).map_err(|e| e.in_file(file))
}

fn read_chosen_frames(
    args: &Args,
    file: &Path,
    losses: &mut Losses,
    mut out: impl FnMut(Line) -> bool,
) -> Result<()> {
    let reader = select::open(file)?;
    losses.watch(reader.recording());
    let streams = select::streams(|n| reader.find_streams(n), &args.streams)?;
    if !args.streams.is_empty() && streams.is_none() {
        return Err(Error::InvalidArgument("--streams names no stream".into()));
    }
    if let Some(k) = args.index {
        let streams: Vec<StreamId> = match streams {
            Some(chosen) => chosen.into_iter().collect(),
            None => reader.streams(),
        };
        let mut frames = Vec::new();
        for stream in streams {
            let count = reader.frame_count(stream)?;
            if k >= count {
                return Err(Error::InvalidArgument(format!(
                    "--index {k} is past the end of stream {stream}, which has {count} frames (choose streams with --streams)"
                )));
            }
            frames.push(reader.frame(stream, k)?);
        }
        // In recorded order, as the other modes print.
        frames.sort_by_key(|f| f.bag_time);
        for frame in frames {
            if !out(Line::of(&frame.frame, frame.index)) {
                break;
            }
        }
        return Ok(());
    }
    let window = select::Window::new(reader.duration(), args.start, args.duration)?;
    let mut query = reader.select().time(window.bounds());
    if let Some(streams) = streams {
        query = query.streams(streams);
    }
    for frame in query.frames()? {
        match frame {
            Ok(frame) => {
                if !out(Line::of(&frame.frame, frame.index)) {
                    break;
                }
            }
            Err(e) => losses.note(e)?,
        }
    }
    Ok(())
}

pub fn run(args: Args) -> Result<ExitCode> {
    let files = files::recordings(&args.files)?;
    args.session.validate(&files)?;
    if args.session.as_session(&files) && !args.device {
        if let Some(pieces) = pieces::open(&files)? {
            return piece_frames(&args, &pieces);
        }
        return session_frames(&args, &files);
    }
    let several = files.len() > 1;
    let between = if args.json { "" } else { "\n" };
    files::each(&files, between, |file| frames_of(&args, file, several))
}

/// Print the frames of one recording (`several`: name it in the output).
fn frames_of(args: &Args, file: &Path, several: bool) -> Result<ExitCode> {
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut losses = Losses::new(file);
    let name = several.then(|| file.display().to_string());
    if several && !args.json {
        let _ = writeln!(out, "file: {}", file.display());
    }
    if args.json || args.device {
        let mut lines = if args.device {
            play_all(file, &mut losses)?
        } else {
            let mut lines = Vec::new();
            read_frames(args, file, &mut losses, |line| {
                lines.push(line);
                true
            })?;
            lines
        };
        if args.json {
            Line::sort(&mut lines);
        }
        for line in &lines {
            let text = if args.json {
                line.json(name.as_deref())
            } else {
                line.text()
            };
            if writeln!(out, "{text}").is_err() {
                // A closed pipe (`| head`) is not an error of ours.
                return Ok(losses.exit_code());
            }
        }
    } else {
        // Streamed: a line as soon as its frame is read.
        read_frames(args, file, &mut losses, |line| {
            writeln!(out, "{}", line.text()).is_ok()
        })?;
    }
    let _ = out.flush();
    Ok(losses.exit_code())
}

/// Print the frames of the pieces of one recording as the frames of one
/// recording are printed: in recorded order, `--index` and `--start`
/// counting across the pieces.
fn piece_frames(args: &Args, pieces: &Pieces) -> Result<ExitCode> {
    pieces::note(pieces);
    let mut losses = pieces::losses(pieces);
    let streams = select::streams(|n| pieces.find_streams(n), &args.streams)?;
    let streams: Vec<StreamId> = match streams {
        Some(chosen) => chosen.into_iter().collect(),
        None => pieces.streams(),
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut lines = Vec::new();
    // JSON lines are sorted, as for one recording; text is streamed.
    let mut print = |line: Line| {
        if args.json {
            lines.push(line);
            return true;
        }
        writeln!(out, "{}", line.text()).is_ok()
    };
    if let Some(k) = args.index {
        let mut frames = Vec::new();
        for stream in streams {
            let count = pieces.frame_count(stream)?;
            if k >= count {
                return Err(Error::InvalidArgument(format!(
                    "--index {k} is past the end of stream {stream}, which has {count} frames (choose streams with --streams)"
                )));
            }
            frames.push(pieces.frame(stream, k)?);
        }
        frames.sort_by_key(|f| f.bag_time);
        for frame in frames {
            if !print(Line::of(&frame.frame, frame.index)) {
                break;
            }
        }
    } else {
        let window = select::Window::new(pieces.duration(), args.start, args.duration)?;
        for frame in pieces.select(Some(streams), window.bounds())? {
            match frame {
                Ok(frame) => {
                    if !print(Line::of(&frame.frame, frame.index)) {
                        break;
                    }
                }
                Err(e) => losses.note(e)?,
            }
        }
    }
    Line::sort(&mut lines);
    for line in &lines {
        if writeln!(out, "{}", line.json(None)).is_err() {
            break;
        }
    }
    let _ = out.flush();
    Ok(losses.exit_code())
}

/// Print the frames of `files` read as one session, in time order on its
/// clock.
fn session_frames(args: &Args, files: &[PathBuf]) -> Result<ExitCode> {
    let mut opened = session::open(files, &args.session.clock)?;
    let session = &opened.session;
    let streams = select::streams(|n| session.find_streams(n), &args.streams)?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    if !args.json {
        let _ = write!(out, "{}", session::header(session));
    }
    let origin = session.start_ms().unwrap_or(0.0);
    let mut print = |frame: &SessionFrame| {
        let file = &session.files()[frame.file];
        let line = Line::of(&frame.recorded.frame, frame.recorded.index);
        let text = if args.json {
            let head = format!(
                "{{\"file\": {}, \"serial\": {}, \"camera\": {}, \"clock\": {}, \"session_time\": {}, ",
                json::string(&file.path().display().to_string()),
                json::string(file.serial()),
                json::string(file.name()),
                json::string(session.clock().name()),
                json::python_float(frame.time_ms),
            );
            line.json(None).replacen('{', &head, 1)
        } else {
            format!(
                "{:>10.3} ms  {:<12} {}",
                frame.time_ms - origin,
                file.name(),
                line.text()
            )
        };
        writeln!(out, "{text}").is_ok()
    };
    let mut errors = Vec::new();
    if let Some(k) = args.index {
        let mut frames = Vec::new();
        for (i, file) in session.files().iter().enumerate() {
            let reader = file.reader();
            for stream in reader.streams() {
                if streams.as_ref().is_some_and(|s| !s.contains(&stream)) {
                    continue;
                }
                if k < reader.frame_count(stream)? {
                    let recorded = reader
                        .frame(stream, k)
                        .map_err(|e| e.in_file(file.path()))?;
                    frames.push(SessionFrame {
                        file: i,
                        time_ms: session.time_ms(i, &recorded),
                        recorded,
                    });
                }
            }
        }
        if frames.is_empty() {
            return Err(Error::InvalidArgument(format!(
                "--index {k} is past the end of every chosen stream of the session"
            )));
        }
        frames.sort_by(|a, b| a.time_ms.total_cmp(&b.time_ms));
        for frame in &frames {
            if !print(frame) {
                break;
            }
        }
    } else {
        let window = select::Window::of_session(session.duration(), args.start, args.duration)?;
        let mut query = session.select().time(window.bounds());
        if let Some(streams) = streams {
            query = query.streams(streams);
        }
        for frame in query.frames()? {
            match frame {
                Ok(frame) => {
                    if !print(&frame) {
                        break;
                    }
                }
                Err(e) => errors.push(e),
            }
        }
    }
    let _ = out.flush();
    for e in errors {
        opened.note(e)?;
    }
    Ok(opened.exit_code())
}
