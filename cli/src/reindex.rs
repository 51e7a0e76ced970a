//! `rsbag reindex`: rebuild the index of a bag that was cut off.

use std::path::{Path, PathBuf};

use rsbag::bag::{copy_messages, Bag, WriterOptions};
use rsbag::{Error, Result};

use super::output::{bag_only, compression_of, losses, Destination};
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
    bag_only(
        &args.file,
        "reindex",
        "a .db3 keeps its own index (`rsbag check` runs SQLite's integrity check)",
    )?;
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

/// `NAME.bag` for the `NAME.bag.partial` a crashed recorder leaves.
fn unfinished_name(file: &Path) -> Option<PathBuf> {
    let name = file.file_name()?.to_str()?.strip_suffix(".partial")?;
    (!name.is_empty()).then(|| file.with_file_name(name))
}
