//! `rsbag trim`: the part of a recording that is needed, as a new bag.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use rsbag::bag::{copy_messages, Compression, WriterOptions};
use rsbag::device::StreamId;
use rsbag::playback::FrameReader;
use rsbag::record::trim::Trim;
use rsbag::storage::Format as FileFormat;
use rsbag::{Error, Result};

use super::convert::recording;
use super::files;
use super::output::{compression_of, Destination};
use super::progress;
use super::select::{self, Window};

/// Copy chosen streams over a time range into a new recording.
///
/// The copy is a complete RealSense recording that plays in librealsense:
/// the device description, options and notifications are kept; frames
/// outside the range and the frames and stream descriptions of streams
/// not chosen are left out. Times are not shifted: a frame keeps the bag
/// time it was recorded at.
///
/// With several recordings (or directories of them), `--out` is a
/// directory, made if missing, where each trimmed copy takes its
/// recording's name (`IN.bag` → `OUT/IN.bag`; other recordings → `.db3`).
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The recordings to trim.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// The new file: a bag for a bag, a `.db3` for a `.db3` (a directory
    /// for several recordings).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Replace a file already at the output (by default that is an error).
    #[arg(long)]
    force: bool,
    /// Keep frames recorded from this many seconds after the first frame.
    #[arg(long, value_name = "SECONDS")]
    start: Option<f64>,
    /// Keep frames recorded in this many seconds from `--start` (the end
    /// is excluded).
    #[arg(long, value_name = "SECONDS")]
    duration: Option<f64>,
    /// Keep only these streams, by librealsense name (`Depth`, `Color`,
    /// `Infrared 1`, `Accel`…; a name without an index means every stream
    /// of that kind), comma-separated or repeated.
    #[arg(long, alias = "stream", value_name = "NAMES", value_delimiter = ',')]
    streams: Vec<String>,
    /// Chunk compression of the new bag: none, lz4 or bz2 (default: the
    /// input's). librealsense 2.55 crashes on bz2 chunks.
    #[arg(long)]
    compression: Option<Compression>,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let files = files::recordings(&args.files)?;
    let several = files.len() > 1;
    files::each(&files, "", |file| {
        trim_one(file, several.then_some(args.out.as_path()), &args)?;
        Ok(ExitCode::SUCCESS)
    })
}

/// Trim `file` into `args.out`, or (`into_dir`) into a file of that
/// directory named after it.
fn trim_one(file: &Path, into_dir: Option<&Path>, args: &Args) -> Result<()> {
    let reader = select::open(file)?;
    let recording = reader.recording();
    let streams = select::streams(|n| reader.find_streams(n), &args.streams)?;
    let window = Window::new(reader.duration(), args.start, args.duration)?;
    let extension = match recording.bag() {
        Some(_) => "bag",
        None => "db3",
    };
    let out = match into_dir {
        Some(dir) => files::output_for(file, dir, Some(extension))?,
        None => args.out.clone(),
    };
    let Some(bag) = recording.bag() else {
        return trim_db3(&reader, file, &out, args, streams, &window);
    };
    let trim = Trim {
        streams: streams.clone(),
        time: window.bag_times(recording.start_time()),
    };
    let compression = match args.compression {
        Some(c) => c,
        None => compression_of(bag).map_err(|e| e.in_file(file))?,
    };
    // Which stream each frame data connection carries, to count frames.
    let data: HashMap<u32, StreamId> = recording
        .streams()
        .iter()
        .flat_map(|(&s, r)| r.data_connections().iter().map(move |&c| (c, s)))
        .collect();
    let mut kept: BTreeMap<StreamId, u64> = BTreeMap::new();
    let mut query = reader.select().time(window.bounds());
    if let Some(streams) = &streams {
        query = query.streams(streams.iter().copied());
    }
    let total = query.frame_counts().map_err(|e| e.in_file(file))?;
    let bar = progress::bar(total.values().sum(), "frames");
    let destination = Destination::new(file, Some(&out), args.force)?;
    let options = WriterOptions::default().compression(compression);
    let (stats, size) = destination.write(file, options, |out| {
        copy_messages(
            bag,
            out,
            |c| trim.select(c),
            |m| {
                if let Some(&s) = data.get(&m.conn) {
                    *kept.entry(s).or_default() += 1;
                    bar.inc(1);
                }
            },
        )
    })?;
    bar.finish_and_clear();
    let mut out = String::new();
    if bag.scan_report().is_some() {
        outln!(
            out,
            "note: {} has no usable index; trimmed what a scan recovered",
            file.display()
        );
    }
    let chosen: BTreeSet<StreamId> =
        streams.unwrap_or_else(|| recording.streams().keys().copied().collect());
    let counts: Vec<String> = chosen
        .iter()
        .map(|s| format!("{s} {}", kept.get(s).copied().unwrap_or(0)))
        .collect();
    outln!(
        out,
        "kept {} frames ({})",
        kept.values().sum::<u64>(),
        counts.join(", ")
    );
    out.push_str(&destination.report(stats.messages, size, compression));
    super::emit(&out);
    Ok(())
}

/// Trim a `.db3` into a `.db3`: the recording written anew with the kept
/// streams and frames, every option change and notification.
fn trim_db3(
    reader: &FrameReader,
    file: &Path,
    out: &Path,
    args: &Args,
    streams: Option<BTreeSet<StreamId>>,
    window: &Window,
) -> Result<()> {
    if args.compression.is_some() {
        return Err(Error::InvalidArgument(
            "--compression chooses a bag's chunk compression; a .db3 keeps librealsense's image compression".into(),
        ));
    }
    let target = recording::FileTarget {
        file,
        out,
        format: FileFormat::Db3,
        streams,
        window: Some(*window),
        uncompressed: false,
        keep_pose: true,
        force: args.force,
        skip_unreadable: false,
        filters: Vec::new(),
    };
    super::emit(&recording::run(reader, target)?.text);
    Ok(())
}
