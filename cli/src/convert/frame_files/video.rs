//! `--to mp4`: a video per stream, encoded by the `ffmpeg` program.
//!
//! Why ffmpeg rather than an encoder crate: the H.264 encoders on
//! crates.io (`openh264`) build a C library from source and still need a
//! separate MP4 muxer, which the RealSense tools would have to trust for
//! every player; ffmpeg (libx264 and its own muxer) is what people play
//! and check videos with, is one `apt-get install ffmpeg` away, and keeps
//! a video codec out of the binary for those who never make videos. Each
//! stream's frames are piped to its own `ffmpeg` as raw pixels, so the
//! streams encode in parallel on every core and a frame is held only
//! until it is written (plus the last one, to repeat).

use std::collections::btree_map::Entry;
use std::io::{BufWriter, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::thread::JoinHandle;

use rsbag::device::{ProfileKind, StreamProfile};
use rsbag::processing::{self, Image, PixelLayout, VideoTiming};
use rsbag::recording::RecordedFrame;
use rsbag::{Error, Result};

use super::{label, OutputDir, Writer};

/// The encoder program, looked up on PATH.
const FFMPEG: &str = "ffmpeg";

/// What `--to mp4` encodes: video frames of a format made into images,
/// with a frame rate.
pub(super) fn accepts(profile: &StreamProfile) -> std::result::Result<(), &'static str> {
    if !matches!(profile.kind, ProfileKind::Video { .. }) {
        return Err("not an image");
    }
    if !processing::image_supported(profile.format) {
        return Err("a format the video does not hold");
    }
    if profile.fps == 0 {
        return Err("no frame rate recorded");
    }
    Ok(())
}

/// An error unless `ffmpeg` runs and has the libx264 encoder.
pub(in crate::convert) fn check_ffmpeg() -> Result<()> {
    let missing = |why: String| {
        Error::InvalidArgument(format!(
            "--to mp4 needs the ffmpeg program with the libx264 encoder \
             (Debian and Ubuntu: apt-get install ffmpeg): {why}"
        ))
    };
    let output = Command::new(FFMPEG)
        .args(["-hide_banner", "-encoders"])
        .stdin(Stdio::null())
        .output()
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => missing("ffmpeg is not on PATH".into()),
            _ => missing(format!("ffmpeg does not run: {e}")),
        })?;
    let encoders = String::from_utf8_lossy(&output.stdout);
    if !output.status.success() || !encoders.contains("libx264") {
        return Err(missing("this ffmpeg has no libx264".into()));
    }
    Ok(())
}

impl Writer<'_> {
    /// Add a frame to its stream's video, after copies of the frame before
    /// it for the frames dropped between them.
    pub(super) fn video_frame(&mut self, recorded: &RecordedFrame, picture: Image) -> Result<()> {
        let frame = &recorded.frame;
        let video = match self.videos.entry(recorded.stream) {
            Entry::Occupied(entry) => entry.into_mut(),
            Entry::Vacant(entry) => {
                let name = format!("{}.mp4", label(recorded.stream));
                entry.insert(VideoFile::start(
                    self.dir,
                    name,
                    &picture,
                    frame.profile.fps,
                )?)
            }
        };
        video.add(frame.timestamp, picture)
    }
}

/// One stream's video being encoded by its `ffmpeg`.
pub(super) struct VideoFile {
    /// The file's name in the output directory, for messages.
    name: String,
    /// Its path as the report and errors show it.
    shown: std::path::PathBuf,
    ffmpeg: Child,
    /// Raw pixels to ffmpeg; `None` once closed.
    input: Option<BufWriter<ChildStdin>>,
    /// What ffmpeg says on stderr, read on a thread (a full pipe would
    /// stop it).
    messages: Option<JoinHandle<String>>,
    width: u32,
    height: u32,
    layout: PixelLayout,
    timing: VideoTiming,
    /// The last frame's pixels, to repeat for dropped frames.
    previous: Option<Vec<u8>>,
    /// Video frames written, and how many of them are copies.
    frames: u64,
    copies: u64,
}

impl VideoFile {
    /// Start ffmpeg on a video `name` in `dir` of pictures like `first`.
    fn start(dir: &OutputDir, name: String, first: &Image, fps: u32) -> Result<VideoFile> {
        let shown = dir.path.join(&name);
        let timing = VideoTiming::new(fps).ok_or_else(|| {
            Error::InvalidArgument(format!("{}: the stream has no frame rate", shown.display()))
        })?;
        let pixel_format = match first.layout {
            PixelLayout::Gray8 => "gray",
            PixelLayout::Gray16 => "gray16le",
            PixelLayout::Rgb8 => "rgb24",
            PixelLayout::Rgba8 => "rgba",
        };
        let size = format!("{}x{}", first.width, first.height);
        let fps = fps.to_string();
        let mut ffmpeg = Command::new(FFMPEG)
            .args(["-hide_banner", "-nostats", "-loglevel", "error"])
            .args(["-f", "rawvideo", "-pix_fmt", pixel_format])
            .args(["-video_size", &size, "-framerate", &fps, "-i", "pipe:0"])
            // yuv420p, what every player plays, needs an even size.
            .args(["-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2"])
            .args(["-c:v", "libx264", "-pix_fmt", "yuv420p", "-crf", "18"])
            .args(["-movflags", "+faststart", "-f", "mp4"])
            .arg(dir.temp.join(&name))
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| Error::Io {
                path: shown.clone(),
                error: std::io::Error::new(e.kind(), format!("cannot start {FFMPEG}: {e}")),
            })?;
        let input = ffmpeg.stdin.take().map(BufWriter::new);
        let messages = ffmpeg.stderr.take().map(|mut stderr| {
            std::thread::spawn(move || {
                let mut text = String::new();
                let _ = stderr.read_to_string(&mut text);
                text
            })
        });
        Ok(VideoFile {
            name,
            shown,
            ffmpeg,
            input,
            messages,
            width: first.width,
            height: first.height,
            layout: first.layout,
            timing,
            previous: None,
            frames: 0,
            copies: 0,
        })
    }

    /// Write the copies of the previous picture a gap before `timestamp`
    /// calls for, then `picture`.
    fn add(&mut self, timestamp: f64, picture: Image) -> Result<()> {
        if (picture.width, picture.height, picture.layout) != (self.width, self.height, self.layout)
        {
            return Err(Error::InvalidArgument(format!(
                "{}: the stream changes from {}x{} to {}x{} images",
                self.shown.display(),
                self.width,
                self.height,
                picture.width,
                picture.height
            )));
        }
        let copies = self.timing.copies_before(timestamp);
        if let Some(previous) = self.previous.take() {
            for _ in 0..copies {
                self.write(&previous)?;
            }
            self.copies += copies;
        }
        self.write(&picture.data)?;
        self.previous = Some(picture.data);
        Ok(())
    }

    fn write(&mut self, pixels: &[u8]) -> Result<()> {
        let written = match &mut self.input {
            Some(input) => input.write_all(pixels),
            None => Err(std::io::ErrorKind::BrokenPipe.into()),
        };
        match written {
            Ok(()) => {
                self.frames += 1;
                Ok(())
            }
            // ffmpeg stopped reading: it ended, and says why.
            Err(e) => Err(self.failure(Some(e))),
        }
    }

    /// Close ffmpeg's input, wait for it to write the file; what the
    /// report says about the video.
    pub(super) fn finish(mut self) -> Result<String> {
        let flushed = match self.input.take() {
            Some(mut input) => input.flush(),
            None => Ok(()),
        };
        // Dropping the input closes the pipe: ffmpeg finishes the file.
        if let Err(e) = flushed {
            return Err(self.failure(Some(e)));
        }
        match self.ffmpeg.wait() {
            Ok(status) if status.success() => Ok(format!(
                "{}: {} video frames ({}x{}), {} of them copies for dropped frames",
                self.name, self.frames, self.width, self.height, self.copies
            )),
            Ok(_) => Err(self.failure(None)),
            Err(e) => Err(self.failure(Some(e))),
        }
    }

    /// The error of an ffmpeg that failed: its own words when it said any.
    fn failure(&mut self, io: Option<std::io::Error>) -> Error {
        self.input = None;
        let status = self.ffmpeg.wait();
        let said = self
            .messages
            .take()
            .and_then(|thread| thread.join().ok())
            .unwrap_or_default();
        let why = match (said.trim(), status, io) {
            (said, _, _) if !said.is_empty() => said.replace('\n', "; "),
            (_, Ok(status), _) if !status.success() => format!("{FFMPEG} exited with {status}"),
            (_, _, Some(io)) => io.to_string(),
            (_, Err(e), None) => e.to_string(),
            (_, Ok(status), None) => format!("{FFMPEG} exited with {status}"),
        };
        Error::Io {
            path: self.shown.clone(),
            error: std::io::Error::other(format!("{FFMPEG} failed: {why}")),
        }
    }
}

impl Drop for VideoFile {
    /// A video left unfinished (an error elsewhere) stops its ffmpeg.
    fn drop(&mut self) {
        if self.input.take().is_some() {
            let _ = self.ffmpeg.kill();
        }
        let _ = self.ffmpeg.wait();
    }
}
