//! `rsbag reindex`: rebuild the index of a bag that was cut off, or
//! salvage the rows of a cut `.db3`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use rsbag::storage::bag::{copy_messages, Bag, WriterOptions};
use rsbag::storage::FileFormat;
use rsbag::{Error, Result};

use super::convert::recording;
use super::damage::Losses;
use super::interrupt::{on_interrupt, Undo};
use super::output::{compression_of, losses, refuse_existing, Destination};
use super::progress;

/// Rebuild the index of a bag that was cut off, as `rosbag reindex` does.
///
/// For a recording that crashed, or a bag whose index is damaged: the
/// file is read record by record, ignoring any index; every complete chunk
/// is kept (and what is readable of a damaged uncompressed one, and every
/// complete message of an uncompressed chunk the file ends in, where
/// `rosbag reindex` drops the whole chunk), and a new
/// bag with the same compression is written with a fresh index. The result
/// opens in librealsense and ROS tools. A crashed recorder leaves
/// `NAME.bag.partial`: reindexing it writes `NAME.bag`. Without `--out`
/// the bag is replaced and the original kept as `NAME.orig.bag`.
///
/// A `.db3` a recording left (`NAME.db3.partial`) is written anew as
/// `NAME.db3`; a `.db3` SQLite cannot read whole (cut off, or with damaged
/// pages) is salvaged: every whole row of every table, read from its
/// pages, goes into a new database with the same tables and indexes.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The bag or `.db3` to repair.
    file: PathBuf,
    /// Write the repaired bag here instead.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Replace a file already at the output (by default that is an error).
    #[arg(long)]
    force: bool,
}

pub fn run(args: Args) -> Result<ExitCode> {
    if cut_before_its_header(&args.file)? {
        return Err(Error::InvalidArgument(
            "nothing to recover: the file was cut off before its header was written \
             (the recording was stopped as it started)"
                .into(),
        )
        .in_file(&args.file));
    }
    if FileFormat::Db3.is_format_of(&args.file)? {
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
    if report.cut_chunk_messages > 0 {
        text.push_str(&format!(
            " and the {} complete messages of the chunk the file ends in",
            report.cut_chunk_messages
        ));
    }
    if let Some(lost) = losses(&report) {
        text.push_str(&format!("; lost: {lost}"));
    }
    let mut out = String::new();
    outln!(out, "{text}");
    out.push_str(&destination.report(stats.messages, size, compression));
    super::emit(&out);
    Ok(ExitCode::SUCCESS)
}

/// A `.db3` keeps its own index; what a crashed recorder left
/// (`NAME.db3.partial`, all it committed, up to a second before the crash)
/// is written anew as a finished `NAME.db3`.
fn recover_db3(args: &Args) -> Result<ExitCode> {
    let Some(unfinished) = unfinished_name(&args.file) else {
        return salvage_db3(args);
    };
    let out = args.out.clone().unwrap_or(unfinished);
    FileFormat::Db3.check_path(&out)?;
    refuse_existing(&out, args.force)?;
    if rsbag::storage::rosbag2::roll_back_interrupted_commit(&args.file)? {
        eprintln!(
            "rsbag: {}: rolled back what the crash left uncommitted (its journal)",
            args.file.display()
        );
    }
    let reader = rsbag::recording::FrameReader::open(&args.file).map_err(|e| {
        match e.kind() {
            // The description is committed with the first second's frames.
            rsbag::ErrorKind::NotARecording => Error::InvalidArgument(format!(
                "nothing to recover: {} (a recording cut off in its first second has committed nothing yet)",
                e.root()
            ))
            .in_file(&args.file),
            _ => e,
        }
    })?;
    // Images stay as they were recorded: compressed or not.
    let compressed = reader
        .recording()
        .storage()
        .topics()
        .iter()
        .any(|t| t.msg_type == rsbag::msg::ros2::COMPRESSED_IMAGE);
    // Written under another name first: the output's own temporary name,
    // NAME.db3.partial, is the input. The name still says `.db3`.
    let recovered = out.with_extension("recovered.db3");
    let target = recording::FileTarget {
        file: &args.file,
        out: &recovered,
        format: FileFormat::Db3,
        streams: None,
        window: None,
        stream_times: Default::default(),
        uncompressed: !compressed,
        compression: None,
        keep_pose: true,
        force: false,
        // A crash can leave a frame's data committed without its
        // metadata (files written before frames were committed whole):
        // everything else is recovered, that frame is reported.
        skip_unreadable: true,
        filters: Vec::new(),
    };
    let written = recording::run(recording::Source::One(&reader), target)?;
    std::fs::rename(&recovered, &out).map_err(|e| Error::Io {
        path: out.clone(),
        error: e,
    })?;
    let recovered = recovered.display().to_string();
    super::emit(&written.text.replace(&recovered, &out.display().to_string()));
    let mut losses = Losses::new(&args.file);
    for what in &written.skipped {
        losses.note_text(what);
    }
    Ok(losses.exit_code())
}

/// A `.db3` SQLite cannot read whole (cut off, or with damaged pages):
/// every whole row of every table, read from its pages, written into a
/// new database with the same tables and indexes. Without `--out` the
/// file is replaced and the original kept as `NAME.orig.db3`. A sound
/// file has nothing to rebuild.
fn salvage_db3(args: &Args) -> Result<ExitCode> {
    if is_sound_db3(&args.file) {
        return Err(Error::InvalidArgument(format!(
            "{}: a .db3 keeps its own index and SQLite reads this one whole, nothing to rebuild (`rsbag check` runs SQLite's integrity check); a NAME.db3.partial a recording left is written anew as NAME.db3",
            args.file.display()
        )));
    }
    let destination =
        Destination::of_format(&args.file, args.out.as_deref(), args.force, FileFormat::Db3)?;
    let salvaged = rsbag::storage::partial_path_for(&destination.path);
    refuse_existing(&salvaged, false)?;
    let _remove = on_interrupt(Undo::RemoveFile(salvaged.clone()));
    let report = rsbag::storage::rosbag2::salvage_db3(&args.file, &salvaged)?;
    destination.put_in_place(&args.file, &salvaged)?;
    let mut out = String::new();
    let rows: Vec<String> = report
        .tables
        .iter()
        .map(|(table, rows)| format!("{table} {rows}"))
        .collect();
    outln!(
        out,
        "recovered the whole rows of {} by its pages: {}",
        args.file.display(),
        rows.join(", ")
    );
    let mut losses = Losses::new(&args.file);
    if report.rows_cut > 0 {
        losses.note_text(format!(
            "{} rows cut short (their data runs past what the file holds)",
            report.rows_cut
        ));
    }
    if report.pages_missing > 0 {
        losses.note_text(format!(
            "{} pages of the tables' trees missing (the rows under them were looked for page by page)",
            report.pages_missing
        ));
    }
    outln!(out, "wrote {}", destination.path.display());
    if let Some(backup) = &destination.backup {
        outln!(out, "the original is kept as {}", backup.display());
    }
    super::emit(&out);
    Ok(losses.exit_code())
}

/// Whether SQLite reads the `.db3` at `path` whole: it opens and its
/// integrity check finds nothing.
fn is_sound_db3(path: &Path) -> bool {
    rsbag::storage::rosbag2::Db3::open(path)
        .and_then(|db3| db3.integrity_problems())
        .is_ok_and(|problems| problems.is_empty())
}

/// Whether `file` holds no more than the start of a bag's or SQLite's
/// first bytes (nothing at all, or a header being written when the
/// recorder was killed).
fn cut_before_its_header(file: &Path) -> Result<bool> {
    let mut head = Vec::with_capacity(16);
    let read = std::fs::File::open(file).and_then(|f| {
        use std::io::Read;
        f.take(16).read_to_end(&mut head)
    });
    read.map_err(|error| Error::Io {
        path: file.to_owned(),
        error,
    })?;
    Ok([FileFormat::Bag, FileFormat::Db3]
        .into_iter()
        .any(|format| format.is_cut_in_magic(&head)))
}

/// `NAME.bag` for the `NAME.bag.partial` a crashed recorder leaves.
fn unfinished_name(file: &Path) -> Option<PathBuf> {
    let name = file.file_name()?.to_str()?.strip_suffix(".partial")?;
    (!name.is_empty()).then(|| file.with_file_name(name))
}
