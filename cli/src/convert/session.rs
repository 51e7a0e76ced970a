//! `convert --session --to png`: several recordings' frames written side
//! by side per moment: each frameset across the cameras as
//! `CAMERA_Stream_<n>.png` files (and with `--colorize`
//! `CAMERA_Depth_<n>_colorized.png`), listed in `framesets.csv`.
//! `convert --session --to ros2`: one ROS 2 bag of every camera, each
//! under its own namespace, with `/tf_static` from `--pose`.

use std::collections::BTreeSet;
use std::io::Write;
use std::process::ExitCode;

use rsbag::device::StreamId;
use rsbag::recording::{FramesetOptions, Session, SessionFrame};
use rsbag::{Error, Result};

use super::super::session;
use super::args::ToArg;
use super::frame_files::{accepts, label, OutputDir, Skipped};
use super::plan::{Framesets, Selection, SessionPlan, SessionTarget};
use super::render::{RenderOptions, Renderer};

mod ros2;

pub(super) use ros2::parse_pose;

/// The index of the framesets written.
pub(super) const FRAMESETS: &str = "framesets.csv";
const FRAMESETS_HEADER: &str =
    "set,set_time_ms,camera,serial,file,stream,frame_number,timestamp,session_time_ms,png";

/// Write `plan.files` read as one session to its target.
pub fn run(plan: &SessionPlan) -> Result<ExitCode> {
    match &plan.target {
        SessionTarget::Framesets(framesets) => write_framesets(plan, framesets),
        SessionTarget::Ros2(bag) => ros2::run(plan, bag),
    }
}

/// Write the framesets of the session as PNG files into `plan.out`.
fn write_framesets(plan: &SessionPlan, framesets: &Framesets) -> Result<ExitCode> {
    let tolerance = framesets.tolerance;
    let mut opened = session::open(&plan.files, &plan.clock)?;
    let session = &opened.session;
    let (streams, skipped) = png_streams(session, &plan.selection)?;
    let options = FramesetOptions { streams, tolerance };
    let window = plan.selection.session_window(session.duration())?;
    let renderers = camera_renderers(&framesets.render, session, options.streams.as_slice());
    let dir = OutputDir::create(&plan.out, framesets.force)?;
    let mut index = dir.create_csv(FRAMESETS, FRAMESETS_HEADER)?;
    // Without `--filter`, each camera's chain is empty and lets frames by.
    let each = session.filter_each_camera(&framesets.filters);
    let mut sets = (session.select().time(window.bounds())).framesets_with(options, each)?;
    let (mut written_sets, mut frames) = (0u64, 0u64);
    let mut errors = Vec::new();
    for set in sets.by_ref() {
        let set = match set {
            Ok(set) => set,
            // A read that failed ends the conversion, nothing written.
            Err(e) if e.kind() == rsbag::ErrorKind::Io => return Err(e),
            Err(e) => {
                errors.push(e);
                continue;
            }
        };
        written_sets += 1;
        for frame in &set.frames {
            let names = write_pngs(&dir, session, &renderers[frame.file], frame, written_sets)?;
            let file = &session.files()[frame.file];
            let f = &frame.recorded.frame;
            for name in names {
                writeln!(
                    index,
                    "{written_sets},{},{},{},{},{},{},{},{},{name}",
                    set.time_ms,
                    file.name(),
                    file.serial(),
                    file.path().display(),
                    frame.recorded.stream,
                    f.number,
                    f.timestamp,
                    frame.time_ms
                )
                .map_err(|e| dir.error(FRAMESETS, e))?;
            }
            frames += 1;
        }
    }
    index.flush().map_err(|e| dir.error(FRAMESETS, e))?;
    dir.finish()?;
    super::super::emit(&format!(
        "wrote {written_sets} framesets ({frames} frames) on {} to {} (frames within {:.3} ms of each set's first; {} frames of other cameras in none)\n",
        session.clock(),
        plan.out.display(),
        tolerance.as_secs_f64() * 1000.0,
        sets.unmatched()
    ));
    for (stream, why) in &skipped {
        super::super::emit(&format!("skipped {stream}: {why}\n"));
    }
    // The sets (and the filters they hold) borrow the session.
    drop(sets);
    for e in errors {
        opened.note(e)?;
    }
    Ok(opened.exit_code())
}

/// The streams chosen (`--streams`, else all) that PNG holds, in any
/// camera, and those skipped with why (as `convert --to png` of one file
/// skips them); an error, before anything is written, if a named one
/// cannot be written or none can.
fn png_streams(session: &Session, selection: &Selection) -> Result<(Vec<StreamId>, Skipped)> {
    let named = selection.streams(|n| session.find_streams(n))?;
    let mut chosen = BTreeSet::new();
    let mut skipped = std::collections::BTreeMap::new();
    for file in session.files() {
        for (&id, stream) in file.reader().recording().streams() {
            if named.as_ref().is_some_and(|n| !n.contains(&id)) {
                continue;
            }
            match accepts(ToArg::Png, &stream.profile) {
                Ok(()) => {
                    chosen.insert(id);
                }
                Err(why) if named.is_some() => {
                    return Err(Error::InvalidArgument(format!(
                        "stream {id} cannot be written as png: {why}"
                    ))
                    .in_file(file.path()))
                }
                Err(why) => {
                    skipped.insert(id, why);
                }
            }
        }
    }
    if chosen.is_empty() {
        return Err(Error::InvalidArgument(
            "no stream of the session can be written as png".into(),
        ));
    }
    skipped.retain(|id, _| !chosen.contains(id));
    Ok((chosen.into_iter().collect(), skipped.into_iter().collect()))
}

/// What each camera's frames become as PNG (with `--colorize`, its depth
/// coloured over its own Depth Units), by the camera's place in the
/// session; `streams` are those chosen.
fn camera_renderers(
    render: &RenderOptions,
    session: &Session,
    streams: &[StreamId],
) -> Vec<Renderer> {
    (session.files().iter())
        .map(|file| {
            let written: BTreeSet<StreamId> = (file.reader().streams().into_iter())
                .filter(|s| streams.contains(s))
                .collect();
            Renderer::new(render, file.reader(), &written)
        })
        .collect()
}

/// Write `frame` of set `set` as `CAMERA_Stream_<set>.png` (and a
/// colorized depth as `CAMERA_Depth_<set>_colorized.png`); their names.
fn write_pngs(
    dir: &OutputDir,
    session: &Session,
    renderer: &Renderer,
    frame: &SessionFrame,
    set: u64,
) -> Result<Vec<String>> {
    let file = &session.files()[frame.file];
    let files = (renderer.pngs(&frame.recorded)).map_err(|e| e.in_file(file.path()))?;
    let stem = format!("{}_{}_{set:06}", file.name(), label(frame.recorded.stream));
    let mut names = Vec::new();
    for made in files {
        let name = format!("{stem}{}.{}", made.suffix, made.ext);
        let mut out = dir.create_file(&name)?;
        out.write_all(&made.bytes)
            .and_then(|()| out.flush())
            .map_err(|e| dir.error(&name, e))?;
        names.push(name);
    }
    Ok(names)
}
