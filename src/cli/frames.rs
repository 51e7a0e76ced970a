//! `rsbag frames`: every frame of a recording, one line each.

use std::io::Write;
use std::path::PathBuf;

use sha2::{Digest, Sha256};

use super::json;
use rsbag::device::Frame;
use rsbag::playback::{Event, Recording};
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

pub fn run(args: Args) -> Result<()> {
    let recording = Recording::open(&args.file)?;
    let mut lines = Vec::new();
    for event in recording.events(..) {
        if let Event::Frame { frame, .. } = event?.event {
            lines.push(Line::of(&frame));
        }
    }
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
