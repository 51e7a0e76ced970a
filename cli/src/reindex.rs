//! `rsbag reindex`: rebuild the index of a bag that was cut off.

use std::path::{Path, PathBuf};

use rsbag::bag::{copy_messages, Bag, WriterOptions};
use rsbag::{Error, Result};

use super::convert_file;
use super::output::{compression_of, losses, refuse_existing, Destination};
use super::progress;

/// Rebuild the index of a bag that was cut off, as `rosbag reindex` does.
///
/// For a recording that crashed, or a bag whose index is damaged: the
/// file is read record by record, ignoring any index; every complete chunk
/// is kept (and what is readable of a damaged uncompressed one), and a new
/// bag with the same compression is written with a fresh index. The result
/// opens in librealsense and ROS tools. A crashed recorder leaves
/// `NAME.bag.partial`: reindexing it writes `NAME.bag`. Without `--out`
/// the bag is replaced and the original kept as `NAME.orig.bag`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The bag to repair.
    file: PathBuf,
    /// Write the repaired bag here instead.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Replace a file already at the output (by default that is an error).
    #[arg(long)]
    force: bool,
}

pub fn run(args: Args) -> Result<()> {
    if rsbag::rosbag2::is_sqlite(&args.file)? {
        return recover_db3(&args);
    }
    let bag = Bag::scan(&args.file)?;
    let report = bag.scan_report().cloned().unwrap_or_default();
    if bag.total_message_count() == 0 {
        return Err(Error::InvalidArgument(format!(
            "nothing to recover: {}",
            losses(&report).unwrap_or_else(|| "the bag holds no message".into())
        ))
        .in_file(&args.file));
    }
    let out = args.out.clone().or_else(|| unfinished_name(&args.file));
    let destination = Destination::new(&args.file, out.as_deref(), args.force)?;
    let compression = compression_of(&bag).map_err(|e| e.in_file(&args.file))?;
    let bar = progress::bar(bag.total_message_count(), "messages");
    let options = WriterOptions::default().compression(compression);
    let ((stats, connections), size) = destination.write(&args.file, options, |out| {
        let stats = copy_messages(&bag, out, |_| Some(0..u64::MAX), |_| bar.inc(1))?;
        Ok((stats, out.connections().len()))
    })?;
    bar.finish_and_clear();
    let mut text = format!(
        "recovered {} messages on {} connections from {} complete chunks",
        stats.messages, connections, report.complete_chunks
    );
    if let Some(lost) = losses(&report) {
        text.push_str(&format!("; lost: {lost}"));
    }
    let mut out = String::new();
    outln!(out, "{text}");
    out.push_str(&destination.report(stats.messages, size, compression));
    super::emit(&out);
    Ok(())
}

/// A `.db3` keeps its own index; what a crashed recorder left
/// (`NAME.db3.partial`, all it committed, up to a second before the crash)
/// is written anew as a finished `NAME.db3`.
fn recover_db3(args: &Args) -> Result<()> {
    let Some(unfinished) = unfinished_name(&args.file) else {
        return Err(Error::InvalidArgument(format!(
            "{}: a .db3 keeps its own index, nothing to rebuild (`rsbag check` runs SQLite's integrity check); a NAME.db3.partial a recording left is written anew as NAME.db3",
            args.file.display()
        )));
    };
    let out = args.out.clone().unwrap_or(unfinished);
    refuse_existing(&out, args.force)?;
    let reader = rsbag::playback::FrameReader::open(&args.file)?;
    // Images stay as they were recorded: compressed or not.
    let compressed = reader
        .recording()
        .storage()
        .topics()
        .iter()
        .any(|t| t.msg_type == rsbag::msg::ros2::COMPRESSED_IMAGE);
    // Written under another name first: the output's own temporary name,
    // NAME.db3.partial, is the input.
    let mut name = out.file_name().unwrap_or_default().to_os_string();
    name.push(".recovered");
    let recovered = out.with_file_name(name);
    let target = convert_file::FileTarget {
        file: &args.file,
        out: &recovered,
        format: rsbag::record::FileFormat::Db3,
        streams: None,
        window: None,
        uncompressed: !compressed,
        keep_pose: true,
        force: false,
    };
    let said = convert_file::run(&reader, target)?;
    std::fs::rename(&recovered, &out).map_err(|e| Error::Io {
        path: out.clone(),
        error: e,
    })?;
    super::emit(&said.replace(&recovered.display().to_string(), &out.display().to_string()));
    Ok(())
}

/// `NAME.bag` for the `NAME.bag.partial` a crashed recorder leaves.
fn unfinished_name(file: &Path) -> Option<PathBuf> {
    let name = file.file_name()?.to_str()?.strip_suffix(".partial")?;
    (!name.is_empty()).then(|| file.with_file_name(name))
}
