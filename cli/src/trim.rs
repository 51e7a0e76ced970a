//! `rsbag trim`: the part of a recording that is needed, as a new bag.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use rsbag::device::StreamId;
use rsbag::record::trim::Trim;
use rsbag::record::{camera_bag_selection, trim_rosbag2_camera_bag, OtherTopics};
use rsbag::recording::{FrameReader, Pieces, Session};
use rsbag::storage::bag::{copy_messages, Compression, WriterOptions};
use rsbag::storage::FileFormat;
use rsbag::{BagTime, Error, Result};

use super::convert::recording;
use super::damage::Losses;
use super::files;
use super::output::{compression_of, Destination};
use super::progress;
use super::select::{self, Window};
use super::{pieces, session};

/// Copy chosen streams over a time range into a new recording.
///
/// The copy is a complete RealSense recording that plays in librealsense:
/// the device description, options and notifications are kept; frames
/// outside the range and the frames and stream descriptions of streams
/// not chosen are left out. Times are not shifted: a frame keeps the bag
/// time it was recorded at.
///
/// The pieces of one split recording (`record --split-duration`) are
/// cut as one recording into one file `--out`: `--start` counts from the
/// first piece's first frame.
///
/// With several recordings (or directories of them), `--out` is a
/// directory, made if missing, where each trimmed copy takes its
/// recording's name (`IN.bag` → `OUT/IN.bag`; other recordings → `.db3`).
/// Each is trimmed on its own: `--start` counts from its own first frame.
///
/// With `--session`, the recordings are one session (one camera each, as
/// `rsbag frames A B ...` reads them) cut at the same moments: `--start`
/// and `--duration` count on the session's clock from its first frame
/// (`--clock` and `--offset` as for `frames`), and each copy keeps the
/// frames its camera recorded then, each stream's in one stretch of its
/// recorded order (a camera not recording then keeps none).
///
/// A damaged recording (cut off: read by a scan of its records) is cut as
/// far as it can be read, and the exit code is 4, as for `frames`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The recordings to trim.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// The new file: a bag for a bag, a `.db3` for a `.db3`, a bag
    /// directory for a rosbag2 camera bag (a directory for several
    /// recordings).
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
    /// With several recordings: cut them as one session, at the same
    /// moments of its clock (see above).
    #[arg(long)]
    session: bool,
    /// A camera bag recorded from ROS on a robot: the topics that are not
    /// the cameras' (lidar, `/tf`, odometry, ...) are carried as they are
    /// over the kept time (`keep`, the default) or left out (`drop`). A
    /// rosbag2 camera bag (`.db3`, MCAP) is trimmed into a rosbag2 bag
    /// directory `--out` of the same storage, every kept topic as it is.
    #[arg(long, value_enum, value_name = "keep|drop")]
    other_topics: Option<super::convert::OtherTopicsArg>,
    #[command(flatten)]
    clock: super::session::ClockArgs,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let files = files::recordings(&args.files)?;
    if args.session {
        return trim_session(&files, &args);
    }
    if args.clock.given() {
        return Err(Error::InvalidArgument(
            "--offset and --clock go with --session".into(),
        ));
    }
    if let Some(pieces) = pieces::open(&files)? {
        return trim_pieces(&pieces, &args);
    }
    let several = files.len() > 1;
    files::each(&files, "", |file| {
        let reader = select::open(file)?;
        let streams = select::streams(|n| reader.find_streams(n), &args.streams)?;
        let window = Window::new(reader.duration(), args.start, args.duration)?;
        let trim = Trim {
            streams,
            time: window.bag_times(reader.recording().start_time()),
            ..Trim::default()
        };
        let mut query = reader.select().time(window.bounds());
        if let Some(streams) = &trim.streams {
            query = query.streams(streams.iter().copied());
        }
        let total = query.frame_counts().map_err(|e| e.in_file(file))?;
        let kept = Kept {
            trim,
            window: Some(&window),
            frames: total,
        };
        let into_dir = several.then_some(args.out.as_path());
        let out = output_of(&reader, file, into_dir, &args.out)?;
        let mut losses = Losses::new(file);
        losses.watch(reader.recording());
        super::emit(&trim_into(&reader, file, &out, &kept, &args)?);
        // A damaged recording (read by a scan) is cut as read, and said.
        Ok(losses.exit_code())
    })
}

/// `--session`: each of `files` cut at the same moments of the session's
/// clock into a file of `args.out` named after it.
fn trim_session(files: &[PathBuf], args: &Args) -> Result<ExitCode> {
    if files.len() < 2 {
        return Err(Error::InvalidArgument(
            "--session takes several recordings".into(),
        ));
    }
    let opened = session::open(files, &args.clock)?;
    if opened.failed {
        return Err(Error::InvalidArgument(
            "not every recording of the session could be opened (see above); nothing is written"
                .into(),
        ));
    }
    let session = &opened.session;
    let streams = select::streams(|n| session.find_streams(n), &args.streams)?;
    let window = Window::of_session(session.duration(), args.start, args.duration)?;
    // No copy is written while another could not be.
    let outs: Vec<PathBuf> = (session.files().iter())
        .map(|f| output_of(f.reader(), f.path(), Some(&args.out), &args.out))
        .collect::<Result<_>>()?;
    for out in &outs {
        super::output::refuse_existing(out, args.force)?;
    }
    let kept = session_stretches(session, streams.as_ref(), &window)?;
    super::emit(&format!(
        "{}{}\n",
        session::header(session),
        window_text(&window)
    ));
    for ((file, stretches), out) in session.files().iter().zip(kept).zip(outs) {
        let reader = file.reader();
        let chosen: BTreeSet<StreamId> = (reader.streams().into_iter())
            .filter(|s| streams.as_ref().is_none_or(|c| c.contains(s)))
            .collect();
        let mut kept = Kept {
            trim: Trim {
                streams: Some(chosen.clone()),
                ..Trim::default()
            },
            window: None,
            frames: BTreeMap::new(),
        };
        for stream in chosen {
            // A stream without a frame in the window keeps none.
            let (times, frames) = stretches
                .get(&stream)
                .map_or((BagTime::ZERO..BagTime::ZERO, 0), |s| {
                    (s.times.clone(), s.frames)
                });
            kept.trim.stream_times.insert(stream, times);
            kept.frames.insert(stream, frames);
        }
        let written = trim_into(reader, file.path(), &out, &kept, args)?;
        super::emit(&format!("\n{}:\n{written}", file.name()));
    }
    // A damaged recording (read by a scan) is cut as read, and said.
    Ok(opened.exit_code())
}

/// The frames of one stream of a file within a session's window: the bag
/// times from its first to its last (included), and how many.
struct Stretch {
    times: Range<BagTime>,
    frames: u64,
}

/// Per file of `session`, the stretch of each of its streams (of
/// `streams`, or all) whose frames lie in `window` on the session's
/// clock. What cannot be read is an error: a cut must not leave out
/// frames unsaid.
fn session_stretches(
    session: &Session,
    streams: Option<&BTreeSet<StreamId>>,
    window: &Window,
) -> Result<Vec<BTreeMap<StreamId, Stretch>>> {
    let mut kept: Vec<BTreeMap<StreamId, Stretch>> =
        (session.files().iter()).map(|_| BTreeMap::new()).collect();
    let mut query = session.select().time(window.bounds());
    if let Some(streams) = streams {
        query = query.streams(streams.iter().copied());
    }
    for frame in query.frames()? {
        let frame = frame?;
        let at = frame.recorded.bag_time;
        let stretch = kept[frame.file]
            .entry(frame.recorded.stream)
            .or_insert(Stretch {
                times: at..at,
                frames: 0,
            });
        stretch.times =
            stretch.times.start.min(at)..stretch.times.end.max(at + Duration::from_nanos(1));
        stretch.frames += 1;
    }
    Ok(kept)
}

/// The window, in words.
fn window_text(window: &Window) -> String {
    let end = window.end.map_or("its end".to_owned(), |e| {
        format!("{:.3} s", e.as_secs_f64())
    });
    format!(
        "cut:     from {:.3} s to {end} of the session's clock",
        window.start.as_secs_f64()
    )
}

/// The pieces of one recording cut into one file (a bag for bags, a
/// `.db3` for `.db3`s): `--start` counts from the first piece's first
/// frame, and the copy holds the first piece's description and the kept
/// frames of every piece, on one timeline.
fn trim_pieces(pieces: &Pieces, args: &Args) -> Result<ExitCode> {
    pieces::note(pieces);
    let first = pieces.pieces()[0].path();
    let (format, compression) = match (pieces.recording().bag(), args.compression) {
        (Some(_), Some(chunks)) => (FileFormat::Bag, chunks),
        (Some(bag), None) => (FileFormat::Bag, compression_of(bag).map_err(|e| e.in_file(first))?),
        (None, None) => (FileFormat::Db3, Compression::Lz4),
        (None, Some(_)) => return Err(Error::InvalidArgument(
            "--compression chooses a bag's chunk compression; a .db3 keeps librealsense's image compression".into(),
        )),
    };
    let target = recording::FileTarget {
        file: first,
        out: &args.out,
        format,
        streams: select::streams(|n| pieces.find_streams(n), &args.streams)?,
        window: Some(Window::new(pieces.duration(), args.start, args.duration)?),
        stream_times: Default::default(),
        uncompressed: false,
        compression: Some(compression),
        keep_pose: true,
        force: args.force,
        skip_unreadable: false,
        filters: Vec::new(),
    };
    let written = recording::run(recording::Source::Pieces(pieces), target)?;
    super::emit(&format!(
        "cut {} pieces into one\n{}",
        pieces.pieces().len(),
        written.text
    ));
    Ok(pieces::losses(pieces).exit_code())
}

/// Where `file`'s copy goes: `out`, or (`into_dir`) a file of that
/// directory named after it, with the extension of its format.
fn output_of(
    reader: &FrameReader,
    file: &Path,
    into_dir: Option<&Path>,
    out: &Path,
) -> Result<PathBuf> {
    let recording = reader.recording();
    // A rosbag2 camera bag's copy is a bag directory.
    let extension = match recording.bag() {
        Some(_) => Some("bag"),
        None if recording.is_camera_bag() => None,
        None => Some("db3"),
    };
    match into_dir {
        Some(dir) => files::output_for(file, dir, extension),
        None => Ok(out.to_path_buf()),
    }
}

/// What a copy keeps: `trim` (the frames' bag times: from `window`,
/// given for a `.db3`'s conversion, or each stream's own stretch of a
/// session), and how many frames of each stream lie in the range (a
/// stretch can hold more: frames recorded out of time order amid it,
/// which the report of a `.bag`'s copy tells).
struct Kept<'a> {
    trim: Trim,
    window: Option<&'a Window>,
    frames: BTreeMap<StreamId, u64>,
}

/// Copy what `kept` says of `reader` (`file`) into `out`; what was
/// written, in words.
fn trim_into(
    reader: &FrameReader,
    file: &Path,
    out: &Path,
    kept: &Kept,
    args: &Args,
) -> Result<String> {
    let (recording, trim) = (reader.recording(), &kept.trim);
    if args.other_topics.is_some() && !recording.is_camera_bag() {
        return Err(Error::InvalidArgument(format!(
            "{}: --other-topics goes with camera bags recorded from ROS",
            file.display()
        )));
    }
    let other = args
        .other_topics
        .unwrap_or(super::convert::OtherTopicsArg::Keep)
        .into();
    let Some(bag) = recording.bag() else {
        if recording.is_camera_bag() {
            return trim_rosbag2(reader, file, out, kept, other);
        }
        return trim_db3(reader, file, out, args, trim, kept.window);
    };
    let camera_bag = camera_bag_selection(recording, trim, other);
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
    let mut written: BTreeMap<StreamId, u64> = BTreeMap::new();
    let bar = progress::bar(kept.frames.values().sum(), "frames");
    let destination = Destination::new(file, Some(out), args.force)?;
    let options = WriterOptions::default().compression(compression);
    let (stats, size) = destination.write(file, options, |out| {
        copy_messages(
            bag,
            out,
            |c| match recording.is_camera_bag() {
                true => camera_bag(c),
                false => trim.select(c),
            },
            |m| {
                if let Some(&s) = data.get(&m.conn) {
                    *written.entry(s).or_default() += 1;
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
        (trim.streams.clone()).unwrap_or_else(|| recording.streams().keys().copied().collect());
    let count = |s: &StreamId| written.get(s).copied().unwrap_or(0);
    let counts: Vec<String> = chosen.iter().map(|s| format!("{s} {}", count(s))).collect();
    outln!(
        out,
        "kept {} frames ({})",
        written.values().sum::<u64>(),
        counts.join(", ")
    );
    // A stream's own stretch (of a session) can hold frames out of its range.
    for stream in chosen.iter().filter(|s| trim.stream_times.contains_key(s)) {
        let within = kept.frames.get(stream).copied().unwrap_or(0);
        if count(stream) != within {
            outln!(
                out,
                "note: {stream}: {} frames kept, {within} of them in the range \
                 (the others were recorded out of time order amid them)",
                count(stream)
            );
        }
    }
    out.push_str(&destination.report(stats.messages, size, compression));
    Ok(out)
}

/// Trim a rosbag2 camera bag into a rosbag2 bag directory `out`.
fn trim_rosbag2(
    reader: &FrameReader,
    file: &Path,
    out: &Path,
    kept: &Kept,
    other: OtherTopics,
) -> Result<String> {
    let recording = reader.recording();
    let bar = progress::bar(kept.frames.values().sum(), "messages");
    let counts = trim_rosbag2_camera_bag(
        recording,
        out,
        camera_bag_selection(recording, &kept.trim, other),
        |n| bar.set_position(n),
    )
    .map_err(|e| e.in_file(file))?;
    bar.finish_and_clear();
    let mut text = String::new();
    outln!(
        text,
        "wrote {} ({} storage): {} messages on {} topics",
        out.display(),
        recording
            .storage()
            .format()
            .rosbag2_storage_id()
            .unwrap_or_default(),
        counts.values().sum::<u64>(),
        counts.len()
    );
    for (topic, n) in &counts {
        outln!(text, "  {topic}: {n}");
    }
    Ok(text)
}

/// Trim a `.db3` into a `.db3`: the recording written anew with the kept
/// streams and frames, every option change and notification.
fn trim_db3(
    reader: &FrameReader,
    file: &Path,
    out: &Path,
    args: &Args,
    trim: &Trim,
    window: Option<&Window>,
) -> Result<String> {
    if args.compression.is_some() {
        return Err(Error::InvalidArgument(
            "--compression chooses a bag's chunk compression; a .db3 keeps librealsense's image compression".into(),
        ));
    }
    let target = recording::FileTarget {
        file,
        out,
        format: FileFormat::Db3,
        streams: trim.streams.clone(),
        window: window.copied(),
        stream_times: trim.stream_times.clone(),
        uncompressed: false,
        compression: None,
        keep_pose: true,
        force: args.force,
        skip_unreadable: false,
        filters: Vec::new(),
    };
    Ok(recording::run(recording::Source::One(reader), target)?.text)
}
