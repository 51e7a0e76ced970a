//! `rsbag convert`: frames out of a recording as PNG, raw bytes, CSV,
//! NumPy, PLY or MP4 files, like librealsense's rs-convert, or as a
//! calibration tool's IMU file; or the recording written anew as a
//! `.db3`, a `.bag` or a ROS 2 bag. The arguments become a [`Plan`] once,
//! checked before anything is read; each recording then goes to the
//! plan's target.

mod args;
mod frame_files;
mod npy;
mod plan;
pub(crate) mod prepare;
pub(crate) mod recording;
mod render;
mod session;

use std::path::Path;
use std::process::ExitCode;

use rsbag::recording::{FrameReader, Pieces};
use rsbag::Result;

use super::damage::Losses;
use super::files;
use super::pieces;
use super::select;
pub use args::{Args, OtherTopicsArg, UniteImuArg};
use plan::{Conversion, Job, Plan};
use recording::Source;

pub fn run(args: Args) -> Result<ExitCode> {
    let conversion = match Plan::new(args)? {
        Plan::Session(plan) => return session::run(&plan),
        Plan::Each(conversion) => conversion,
    };
    if let Some(pieces) = pieces::open(&conversion.files)? {
        return convert_pieces(&conversion, &pieces);
    }
    let several = conversion.files.len() > 1;
    let extension = conversion.target.extension();
    files::each(&conversion.files, "", |file| {
        let out = if several {
            files::output_for(file, &conversion.out, extension)?
        } else {
            conversion.out.clone()
        };
        convert_one(&conversion, file, &out)
    })
}

/// Convert the recording `file` into `out`.
fn convert_one(conversion: &Conversion, file: &Path, out: &Path) -> Result<ExitCode> {
    let reader = match &conversion.camera {
        Some(namespace) => FrameReader::open_camera(file, namespace)?,
        None => select::open(file)?,
    };
    super::session::one_camera(
        reader.recording(),
        "convert one with --camera NAMESPACE, or all of them with --session (one camera each)",
    )
    .map_err(|e| e.in_file(file))?;
    let mut losses = Losses::new(file);
    losses.watch(reader.recording());
    let job = Job {
        source: Source::One(&reader),
        file,
        out,
        selection: &conversion.selection,
    };
    super::emit(&conversion.target.write(&job, &mut losses)?);
    Ok(losses.exit_code())
}

/// Convert the pieces of one split recording into one output, as one
/// recording: `--start` counts from the first piece's first frame, and a
/// gap at a cut is said in the report.
fn convert_pieces(conversion: &Conversion, pieces: &Pieces) -> Result<ExitCode> {
    conversion.target.check_pieces()?;
    pieces::note(pieces);
    let mut losses = pieces::losses(pieces);
    let job = Job {
        source: Source::Pieces(pieces),
        file: pieces.pieces()[0].path(),
        out: &conversion.out,
        selection: &conversion.selection,
    };
    let written = conversion.target.write(&job, &mut losses)?;
    let mut read = format!("read {} pieces as one recording\n", pieces.pieces().len());
    for gap in pieces.gaps() {
        outln!(read, "GAP: {gap}");
    }
    if conversion.target.report_leads() {
        super::emit(&format!("{written}{read}"));
    } else {
        super::emit(&format!("{read}{written}"));
    }
    Ok(losses.exit_code())
}
