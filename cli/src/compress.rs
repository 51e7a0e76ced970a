//! `rsbag compress` and `rsbag decompress`: the same bag with other chunk
//! compression.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use rsbag::realsense::topics::FILE_VERSION_TOPIC;
use rsbag::storage::bag::{copy_messages, Bag, Compression, WriterOptions};
use rsbag::Result;

use super::damage::Losses;
use super::output::{bag_only, Destination};
use super::progress;

/// Rewrite a bag with compressed chunks (lz4 or bz2).
///
/// Works on any ROS bag, not only RealSense recordings. Every message is copied with its connection, in time order, into new
/// chunks. Without `--out` the bag is replaced and the original kept as
/// `NAME.orig.bag`, as `rosbag compress` does.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The bag to compress.
    file: PathBuf,
    /// Write the result here instead.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Replace a file already at the output (by default that is an error).
    #[arg(long)]
    force: bool,
    /// lz4 (fast; what librealsense writes), bz2 (smaller, much slower;
    /// for ROS tools only: librealsense 2.55 crashes on bz2 chunks) or none.
    #[arg(long, default_value = "lz4")]
    compression: Compression,
}

/// Rewrite a bag with uncompressed chunks.
///
/// Readers borrow frames from uncompressed chunks without copying. Without `--out` the bag is replaced and the original kept as
/// `NAME.orig.bag`, as `rosbag decompress` does.
#[derive(Debug, clap::Args)]
pub struct DecompressArgs {
    /// The bag to decompress.
    file: PathBuf,
    /// Write the result here instead.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Replace a file already at the output (by default that is an error).
    #[arg(long)]
    force: bool,
}

pub fn run(args: Args) -> Result<ExitCode> {
    rewrite(
        "compress",
        &args.file,
        args.out.as_deref(),
        args.force,
        args.compression,
    )
}

pub fn run_decompress(args: DecompressArgs) -> Result<ExitCode> {
    rewrite(
        "decompress",
        &args.file,
        args.out.as_deref(),
        args.force,
        Compression::None,
    )
}

fn rewrite(
    command: &str,
    file: &Path,
    out: Option<&Path>,
    force: bool,
    compression: Compression,
) -> Result<ExitCode> {
    bag_only(
        file,
        command,
        "`rsbag convert --to db3` writes its images PNG-compressed (or raw with --uncompressed)",
    )?;
    let bag = Bag::open(file)?;
    let mut losses = Losses::new(file);
    losses.watch_bag(&bag);
    let destination = Destination::new(file, out, force)?;
    let bar = progress::bar(bag.total_message_count(), "messages");
    let options = WriterOptions::default().compression(compression);
    let (stats, size) = destination.write(file, options, |out| {
        copy_messages(&bag, out, |_| Some(0..u64::MAX), |_| bar.inc(1))
    })?;
    bar.finish_and_clear();
    let mut text = destination.report(stats.messages, size, compression);
    outln!(text, "the input had {} bytes", bag.file_size());
    if compression == Compression::Bz2 && bag.connections_on(FILE_VERSION_TOPIC).next().is_some() {
        outln!(
            text,
            "note: librealsense 2.55 cannot play bz2 chunks (it crashes); use lz4 or none for bags it should play"
        );
    }
    super::emit(&text);
    Ok(losses.exit_code())
}
