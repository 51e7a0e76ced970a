//! `rsbag view`: look at a recording in a web browser, or export the same
//! page as one self-contained HTML file; or watch a camera live.

mod cameras;
mod cloud;
mod depth;
mod live;
mod model;
mod page;
mod payload;
mod server;

use std::fs::OpenOptions;
use std::io::Write as _;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use base64::Engine as _;
use rsbag::recording::FrameReader;
use rsbag::{Error, Result};
use serde_json::{json, Value};

use super::damage::DAMAGED;
use super::progress;

/// Look at a recording in a web browser.
///
/// Serves a page on this machine (127.0.0.1 by default) that shows the
/// device and sensors (camera info, options and their changes,
/// intrinsics, extrinsics), a timeline with a lane per stream (every
/// frame, dropped frames and the other findings of `rsbag check`, option
/// changes, notifications, chunks), a scrubber with play, pause and speed
/// that shows the frames of every video stream at that time (depth
/// colourised, with a legend in metres), frame number, timestamp and
/// metadata under the cursor, IMU and pose plots, and the file's
/// structure (chunks, compression, index, topics with message counts,
/// damage). Opens the browser unless --no-browser; Ctrl-C stops serving.
///
/// Only the page, the recording's description and its frames are served;
/// requests name a stream and a frame, never a path. `--bind 0.0.0.0`
/// serves every network the machine is on, to anyone who reaches the port
/// (there is no password): an SSH tunnel (`ssh -L 8000:127.0.0.1:8000
/// HOST`, then `rsbag view FILE --port 8000` on HOST) is the safer way to
/// look from another machine.
///
/// `--export report.html` writes the page as one file that needs no
/// server and no network (`--thumbnails` frames of every video stream,
/// evenly spread, at most 320 pixels wide), to attach to a bug report.
///
/// `--camera [SERIAL]` shows a RealSense camera live instead (the only
/// one connected when no serial is given; librealsense is loaded as for
/// `rsbag devices`, and `--simulate FILE` plays a recording as a camera):
/// the latest frame of every stream, its rate, the frames the camera
/// dropped and those the page had no time to show, the IMU scrolling, and
/// a button that starts and stops recording the camera into a new file in
/// `--record-to` (`live-SERIAL-N.bag`, or `.db3` with `--record-format
/// db3`), as `rsbag record --camera` records.
///
/// The pieces of one split recording (`record --split-duration`; the
/// files or their directory) are one recording: one timeline over every
/// piece.
///
/// Several recordings (`rsbag view A.bag B.db3 ...`, e.g. the files of
/// `rsbag record --camera all`) are one session, as `rsbag frames` reads
/// them: one scrubber over the session on its clock (named on the page;
/// `--clock` and `--offset` as for `frames`), a timeline lane per camera
/// and stream, the frame of each stream at or before the scrubbed moment,
/// and the sync report of `rsbag check` (per pair of cameras: clock offset
/// and drift, frames without a partner, gaps), in the exported page too.
///
/// Exit code: 0; 4 when the recording is damaged (the page lists the
/// damage); 1 when it cannot be read at all (nothing is served).
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The recording to look at: a file, a ROS 2 bag directory, or a URL
    /// (`http(s)://`, `s3://`: read in place). Several: one session.
    #[arg(
        value_name = "FILE",
        required_unless_present = "camera",
        conflicts_with = "camera"
    )]
    files: Vec<PathBuf>,
    /// Show the RealSense camera with this serial number live (no serial:
    /// the only one connected).
    #[arg(long, value_name = "SERIAL", num_args = 0..=1, default_missing_value = "", conflicts_with = "export")]
    camera: Option<String>,
    /// A recording librealsense plays as a connected camera (repeatable;
    /// with --camera).
    #[arg(long, value_name = "FILE", requires = "camera")]
    simulate: Vec<PathBuf>,
    /// Where recordings started from the live page go.
    #[arg(long, value_name = "DIR", default_value = ".", requires = "camera")]
    record_to: PathBuf,
    /// The format of recordings started from the live page.
    #[arg(long, value_name = "FORMAT", value_enum, default_value_t = RecordFormat::Bag, requires = "camera")]
    record_format: RecordFormat,
    /// The port to serve on (0: one the system chooses).
    #[arg(long, default_value_t = 0)]
    port: u16,
    /// The address to serve on.
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    bind: IpAddr,
    /// Do not open a browser; print the page's address only.
    #[arg(long)]
    no_browser: bool,
    /// Write the page, with the frames it shows, as one HTML file instead
    /// of serving it.
    #[arg(long, value_name = "REPORT.html")]
    export: Option<PathBuf>,
    /// Frames of each video stream in an exported page.
    #[arg(long, default_value_t = 24, value_parser = clap::value_parser!(u32).range(1..=1000))]
    thumbnails: u32,
    /// Replace the file at --export if there is one.
    #[arg(long)]
    force: bool,
    /// With several recordings: how far apart (ms, on the session's clock)
    /// two cameras' frames may be and still be partners in the sync
    /// report, as for `rsbag check`. By default half the frame period of
    /// the slower of the two streams compared.
    #[arg(long, value_name = "MS")]
    tolerance: Option<f64>,
    #[command(flatten)]
    clock: super::session::ClockArgs,
}

/// How often the live view looks whether a simulated camera's file ended.
const PLAYED_POLL: std::time::Duration = std::time::Duration::from_millis(100);

/// The widest picture in an exported page.
const THUMBNAIL_WIDTH: u32 = 320;
/// The most columns of vertices of a point cloud in an exported page
/// (every n-th pixel of every n-th row: a 848x480 frame gives at most
/// 160x90 vertices, 216 KB).
const CLOUD_WIDTH: u32 = 160;

/// Serve (or export) the page; exits 4 ([`DAMAGED`]) when the recording is
/// damaged, as every command that reads one, once the page is written or
/// served.
pub fn run(args: Args) -> Result<ExitCode> {
    let site = match (args.files.as_slice(), &args.camera) {
        ([], Some(serial)) => return run_live(&args, serial),
        // clap asks for one or the other.
        ([], None) => {
            return Err(Error::InvalidArgument(
                "give a recording or --camera".into(),
            ))
        }
        ([one], _)
            if (args.clock.given() || args.tolerance.is_some())
                && !super::session::several_cameras(one) =>
        {
            return Err(Error::InvalidArgument(
                "--offset, --clock and --tolerance apply to a session of several recordings or cameras".into(),
            ))
        }
        (files, _) => {
            if let Some(out) = &args.export {
                super::output::refuse_existing(out, args.force)?;
            }
            // What cannot be read is an error before anything is served.
            // The pieces of one split recording (files, or their
            // directory) are one recording, not a session.
            let recordings = super::files::recordings(files)?;
            match (recordings.as_slice(), super::pieces::open(&recordings)?) {
                (_, Some(pieces)) => pieces_recording(pieces)?,
                ([file], None) if !super::session::several_cameras(file) => one_recording(file)?,
                (files, None) => {
                    let tolerance = super::select::milliseconds("tolerance", args.tolerance)?;
                    session(files, &args.clock, tolerance)?
                }
            }
        }
    };
    let exit = if model::is_damaged(&site.document) {
        let which = match site.site.recordings {
            server::Recordings::One(_) => "the file is",
            server::Recordings::Session(_) => "a file is",
            server::Recordings::Pieces(_) => "a piece is",
        };
        eprintln!(
            "rsbag: {}: {which} damaged; the page lists what `rsbag check` finds",
            site.label
        );
        ExitCode::from(DAMAGED)
    } else {
        ExitCode::SUCCESS
    };
    let Viewed {
        label,
        document,
        site,
    } = site;
    if let Some(out) = &args.export {
        let site = server::Site {
            document: String::new(),
            ..site
        };
        let report = json!({
            "recording": document,
            "frames": thumbnails(&site, args.thumbnails)?,
            "clouds": clouds(&site, args.thumbnails)?,
        });
        write_new(out, page::report(&report).as_bytes(), args.force)?;
        println!("wrote {}", out.display());
        return Ok(exit);
    }
    let site = server::Site {
        document: document.to_string(),
        ..site
    };
    let interrupted = super::interrupt::handle();
    let running = server::start(
        std::sync::Arc::new(site),
        SocketAddr::new(args.bind, args.port),
    )?;
    let url = format!("http://{}/", running.address());
    println!("rsbag: viewing {label} at {url} (Ctrl-C to stop)");
    open_browser(&args, &url);
    // Serve until Ctrl-C; dropping the server stops its threads.
    let _ = interrupted.recv();
    drop(running);
    Ok(exit)
}

/// What is viewed: its name in messages, the page's document, and what
/// serves its frames (its document not yet filled in).
struct Viewed {
    label: String,
    document: Value,
    site: server::Site,
}

/// One recording, as its page shows it.
fn one_recording(file: &Path) -> Result<Viewed> {
    let reader = super::select::open(file)?;
    let document = describe(file, &reader)?;
    let lanes = lanes_of(&reader);
    let clouds = cloud::makers(&reader).into_iter().map(|m| (0, m)).collect();
    Ok(Viewed {
        label: file.display().to_string(),
        document,
        site: server::Site {
            recordings: server::Recordings::One(Box::new(reader)),
            recent: Default::default(),
            document: String::new(),
            lanes,
            clouds,
        },
    })
}

/// A lane per stream of one recording (described by `reader`), its
/// frames counted in their own positions.
fn lanes_of(reader: &FrameReader) -> Vec<server::Lane> {
    (reader.streams().into_iter())
        .map(|s| server::Lane {
            key: model::stream_key(s),
            camera: 0,
            stream: s,
            units: model::depth_units_of(reader.recording(), s),
            order: None,
        })
        .collect()
}

/// The pieces of one split recording, as the page of one recording shows
/// it: one timeline over every piece, frames counted across them.
fn pieces_recording(pieces: rsbag::recording::Pieces) -> Result<Viewed> {
    super::pieces::note(&pieces);
    let frames: u64 = (pieces.streams().into_iter())
        .map(|s| pieces.frame_count(s).unwrap_or(0))
        .sum();
    let bar = progress::bar(2 * frames, "frames read");
    let document = model::describe_pieces(&pieces, &|| bar.inc(1));
    bar.finish_and_clear();
    let document = document?;
    let described = pieces.pieces()[0].reader();
    let lanes = lanes_of(described);
    let clouds = cloud::makers(described)
        .into_iter()
        .map(|m| (0, m))
        .collect();
    Ok(Viewed {
        label: format!("the {} pieces of one recording", pieces.pieces().len()),
        document,
        site: server::Site {
            recordings: server::Recordings::Pieces(Box::new(pieces)),
            recent: Default::default(),
            document: String::new(),
            lanes,
            clouds,
        },
    })
}

/// Several recordings as one session, its sync report's partners within
/// `tolerance` (`None`: `check`'s default).
fn session(
    files: &[PathBuf],
    clock: &super::session::ClockArgs,
    tolerance: Option<std::time::Duration>,
) -> Result<Viewed> {
    let opened = super::session::open(files, clock)?;
    if opened.failed {
        return Err(Error::InvalidArgument(
            "not every recording of the session could be opened (see above); nothing is shown"
                .into(),
        ));
    }
    let session = opened.session;
    let frames: u64 = (session.files().iter())
        .flat_map(|f| {
            let reader = f.reader();
            reader
                .streams()
                .into_iter()
                .map(move |s| reader.frame_count(s).unwrap_or(0))
        })
        .sum();
    let bar = progress::bar(2 * frames, "frames read");
    let described = cameras::describe(&session, tolerance, &|| bar.inc(1));
    bar.finish_and_clear();
    let (document, lanes) = described?;
    let clouds = (session.files().iter().enumerate())
        .flat_map(|(k, f)| cloud::makers(f.reader()).into_iter().map(move |m| (k, m)))
        .collect();
    Ok(Viewed {
        label: format!(
            "a session of {}",
            super::session::what(
                session
                    .files()
                    .iter()
                    .map(|f| (f.path(), f.namespace().is_some()))
            )
        ),
        document,
        site: server::Site {
            recordings: server::Recordings::Session(session),
            recent: Default::default(),
            document: String::new(),
            lanes,
            clouds,
        },
    })
}

/// The file kinds a recording is written as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum RecordFormat {
    /// ROS1 `.bag`, as librealsense up to 2.57 records.
    Bag,
    /// rosbag2 `.db3`, as librealsense 2.58 and later records.
    Db3,
}

/// `--camera SERIAL`: serve the camera's live page until Ctrl-C, then
/// finish a recording still running.
fn run_live(args: &Args, serial: &str) -> Result<ExitCode> {
    let context = super::devices::context_with(&args.simulate)?;
    let format = match args.record_format {
        RecordFormat::Bag => rsbag::storage::FileFormat::Bag,
        RecordFormat::Db3 => rsbag::storage::FileFormat::Db3,
    };
    if !args.record_to.is_dir() {
        return Err(Error::InvalidArgument(format!(
            "--record-to {}: no such directory",
            args.record_to.display()
        )));
    }
    let record_to = live::RecordTo {
        dir: args.record_to.clone(),
        format,
    };
    let site = std::sync::Arc::new(live::LiveSite::start(&context, serial, record_to)?);
    let interrupted = super::interrupt::handle();
    let running = server::start(site.clone(), SocketAddr::new(args.bind, args.port))?;
    let url = format!("http://{}/", running.address());
    println!(
        "rsbag: viewing camera {} live at {url} (Ctrl-C to stop)",
        site.serial()
    );
    open_browser(args, &url);
    loop {
        crossbeam_channel::select! {
            recv(interrupted) -> _ => break,
            default(PLAYED_POLL) => site.finish_if_played(),
        }
    }
    drop(running);
    site.finish()?;
    Ok(ExitCode::SUCCESS)
}

fn open_browser(args: &Args, url: &str) {
    if !args.no_browser {
        if let Err(e) = webbrowser::open(url) {
            eprintln!("rsbag: could not open a browser ({e}); open {url}");
        }
    }
}

/// The recording's document, with a progress bar over its two passes.
fn describe(path: &Path, reader: &FrameReader) -> Result<Value> {
    let frames: u64 = reader
        .streams()
        .into_iter()
        .filter_map(|s| reader.frame_count(s).ok())
        .sum();
    let bar = progress::bar(2 * frames, "frames read");
    let document = model::describe(path, reader, &|| bar.inc(1));
    bar.finish_and_clear();
    document.map_err(|e| e.in_file(path))
}

/// Up to `count` frames of each video stream (lane), evenly spread, as
/// thumbnails (base64 of [`payload`]'s bytes), by the lane's key.
fn thumbnails(site: &server::Site, count: u32) -> Result<Value> {
    let mut streams = serde_json::Map::new();
    for lane in &site.lanes {
        let chosen = spread(site.frame_count(lane)?, u64::from(count));
        let mut frames = Vec::new();
        for position in chosen {
            let recorded = match site.frame(lane, position) {
                Ok(recorded) => recorded,
                // A damaged part: the page shows the frames there are.
                Err(_) => continue,
            };
            match payload::encode(&recorded, lane.units, Some(THUMBNAIL_WIDTH))? {
                Some(bytes) => frames.push(base64::engine::general_purpose::STANDARD.encode(bytes)),
                None => break,
            }
        }
        if !frames.is_empty() {
            streams.insert(lane.key.clone(), json!(frames));
        }
    }
    Ok(Value::Object(streams))
}

/// Up to `count` point clouds of each depth stream (lane) (of the frames
/// the thumbnails show, at most [`CLOUD_WIDTH`] columns of vertices), as
/// base64 of [`cloud`]'s bytes, by the lane's key.
fn clouds(site: &server::Site, count: u32) -> Result<Value> {
    let mut streams = serde_json::Map::new();
    let settings = depth::DepthSettings::default();
    for lane in &site.lanes {
        let Some(maker) = site.cloud_maker(lane) else {
            continue;
        };
        let reader = site.reader(lane.camera);
        let mut clouds = Vec::new();
        for position in spread(site.frame_count(lane)?, u64::from(count)) {
            // A damaged part: the page shows the clouds there are.
            let Ok(depth) = site.frame(lane, position) else {
                continue;
            };
            let bytes = maker.encode(reader, &depth, &depth.frame, &settings, Some(CLOUD_WIDTH))?;
            clouds.push(base64::engine::general_purpose::STANDARD.encode(bytes));
        }
        if !clouds.is_empty() {
            streams.insert(lane.key.clone(), json!(clouds));
        }
    }
    Ok(Value::Object(streams))
}

/// `count` positions spread evenly over `0..total`, first and last
/// included.
fn spread(total: u64, count: u64) -> Vec<u64> {
    if total <= count {
        return (0..total).collect();
    }
    let last = total - 1;
    let mut chosen: Vec<u64> = (0..count)
        .map(|k| (k * last + (count - 1) / 2) / (count - 1).max(1))
        .collect();
    chosen.dedup();
    chosen
}

/// Write `bytes` to `path` only once complete: a `.partial` file first,
/// then named `path` (replacing a file there only when `force`).
fn write_new(path: &Path, bytes: &[u8], force: bool) -> Result<()> {
    let io = |error| Error::Io {
        path: path.to_owned(),
        error,
    };
    let mut partial = path.as_os_str().to_owned();
    partial.push(".partial");
    let partial = PathBuf::from(partial);
    let mut file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&partial)
        .map_err(io)?;
    let written = file.write_all(bytes).and_then(|()| file.sync_all());
    let named = written.and_then(|()| {
        if force {
            std::fs::rename(&partial, path)
        } else {
            // A link fails where a file already is: nothing is replaced.
            std::fs::hard_link(&partial, path).and_then(|()| std::fs::remove_file(&partial))
        }
    });
    if let Err(e) = named {
        let _ = std::fs::remove_file(&partial);
        return Err(io(e));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thumbnails_spread_over_the_stream() {
        assert_eq!(spread(3, 24), [0, 1, 2]);
        assert_eq!(spread(10, 3), [0, 5, 9]);
        assert_eq!(spread(100, 2), [0, 99]);
        assert_eq!(spread(100, 1), [0]);
    }
}
