//! `rsbag frames`: every frame of a recording, one line each.

use std::io::Write;
use std::path::PathBuf;

use sha2::{Digest, Sha256};

use std::sync::Arc;
use std::time::Duration;

use parking_lot::Mutex;

use super::json;
use rsbag::device::{Device, Frame};
use rsbag::playback::{Playback, PlaybackOptions};
use rsbag::Result;

/// Print every frame of a recording: stream, index, frame number,
/// timestamp, domain, size and SHA-256 of the data.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The bag to read.
    file: PathBuf,
    /// One JSON object per line, sorted by stream, index and frame number
    /// (the shape librealsense's frames are compared in).
    #[arg(long)]
    json: bool,
}

/// One printed frame.
struct Line {
    stream: &'static str,
    index: u32,
    number: u64,
    timestamp: f64,
    domain: &'static str,
    size: usize,
    sha256: String,
}

impl Line {
    fn of(frame: &Frame) -> Line {
        Line {
            stream: frame.profile.stream.kind.name(),
            index: frame.profile.stream.index,
            number: frame.number,
            timestamp: frame.timestamp,
            domain: frame.domain.name(),
            size: frame.data.len(),
            sha256: hex(&Sha256::digest(&frame.data)),
        }
    }

    fn json(&self) -> String {
        format!(
            "{{\"stream\": {}, \"index\": {}, \"frame_number\": {}, \"timestamp\": {}, \"domain\": {}, \"size\": {}, \"sha256\": \"{}\"}}",
            json::string(self.stream),
            self.index,
            self.number,
            json::python_float(self.timestamp),
            json::string(self.domain),
            self.size,
            self.sha256
        )
    }

    fn text(&self) -> String {
        format!(
            "{:<10} {:>2} #{:<8} {:>16.3} ms  {:<14} {:>9} B  {}",
            self.stream,
            self.index,
            self.number,
            self.timestamp,
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
fn play_all(file: &std::path::Path) -> Result<Vec<Line>> {
    let options = PlaybackOptions {
        real_time: false,
        ..PlaybackOptions::default()
    };
    let playback = Playback::with_options(file, options)?;
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
        sensor.start(Arc::new(move |frame| lines.lock().push(Line::of(&frame))))?;
    }
    playback.resume();
    playback.wait_until_stopped(Duration::MAX);
    playback.stop();
    let lines = std::mem::take(&mut *lines.lock());
    Ok(lines)
}

pub fn run(args: Args) -> Result<()> {
    let mut lines = play_all(&args.file)?;
    if args.json {
        lines.sort_by(|a, b| (a.stream, a.index, a.number).cmp(&(b.stream, b.index, b.number)));
    }
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for line in &lines {
        let text = if args.json { line.json() } else { line.text() };
        if writeln!(out, "{text}").is_err() {
            // A closed pipe (`| head`) is not an error of ours.
            return Ok(());
        }
    }
    let _ = out.flush();
    Ok(())
}
