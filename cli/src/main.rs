//! The `rsbag` command-line tool: one subcommand per module, each a thin
//! front end over the `rsbag` library.

/// Append a formatted line to a `String` of command output.
macro_rules! outln {
    ($out:expr, $($arg:tt)*) => {{
        use std::fmt::Write as _;
        let _ = writeln!($out, $($arg)*);
    }};
}

mod calib;
mod check;
mod compress;
mod convert;
mod damage;
mod devices;
mod files;
mod frames;
mod image_transport;
mod info;
mod interrupt;
mod json;
mod lateness;
mod output;
mod pieces;
mod play;
mod play_ros2;
mod progress;
mod record;
mod record_ros2;
mod reindex;
mod select;
mod session;
mod trim;
mod view;

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use rsbag::Result;

/// Record, inspect, convert and play back RealSense sessions stored as ROS1
/// bags or rosbag2 (.db3, MCAP) files, and list and record RealSense cameras.
#[derive(Debug, Parser)]
#[command(name = "rsbag", version, about, propagate_version = true)]
struct Cli {
    /// Print progress logs (repeat for more detail).
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    verbose: u8,

    /// Keep the byte ranges read from recordings by URL in this directory,
    /// so that later commands on the same recording read them from disk
    /// (each still asks the server whether the recording changed); default:
    /// $RSBAG_CACHE, if set.
    #[arg(long, global = true, value_name = "DIR")]
    cache: Option<std::path::PathBuf>,

    /// The most the cache directory may hold (bytes, or with a unit: 500M,
    /// 20G; K, M, G, T are powers of 1000, KiB, MiB, GiB of 1024): past it,
    /// the ranges used least recently are deleted; default:
    /// $RSBAG_CACHE_MAX, else 10G.
    #[arg(long, global = true, value_name = "SIZE", value_parser = rsbag::storage::remote::parse_size)]
    cache_max: Option<u64>,

    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    Info(info::Args),
    Calib(calib::Args),
    Frames(frames::Args),
    Play(play::Args),
    Record(record::Args),
    Check(check::Args),
    Convert(convert::Args),
    Reindex(reindex::Args),
    Trim(trim::Args),
    Compress(compress::Args),
    Decompress(compress::DecompressArgs),
    View(view::Args),
    Devices(devices::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    init_logging(cli.verbose);
    if let Some(dir) = cli.cache {
        rsbag::storage::remote::set_cache_dir(Some(dir));
    }
    if let Some(bytes) = cli.cache_max {
        rsbag::storage::remote::set_cache_max(bytes);
    }
    interrupt::install();
    let done = |result: Result<()>| result.map(|()| ExitCode::SUCCESS);
    let result = match cli.command {
        Command::Info(args) => info::run(args),
        Command::Calib(args) => calib::run(args),
        Command::Frames(args) => frames::run(args),
        Command::Play(args) if args.ros2 => play_ros2::run(&args),
        Command::Play(args) => play::run(args),
        Command::Record(args) => done(record::run(args)),
        Command::Check(args) => check::run(args),
        Command::Convert(args) => convert::run(args),
        Command::Reindex(args) => reindex::run(args),
        Command::Trim(args) => trim::run(args),
        Command::Compress(args) => compress::run(args),
        Command::Decompress(args) => compress::run_decompress(args),
        Command::View(args) => view::run(args),
        Command::Devices(args) => done(devices::run(args)),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("rsbag: {e}{}", rsbag::storage::recovery_hint(&e));
            ExitCode::FAILURE
        }
    }
}

/// Print a command's output; a closed pipe (`| head`) is not an error.
fn emit(text: &str) {
    use std::io::Write as _;
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(text.as_bytes());
    let _ = stdout.flush();
}

/// Warnings and errors of the library always reach stderr (they change
/// what the output means: a file read by scanning, data skipped); `-v`
/// adds progress logs.
fn init_logging(verbose: u8) {
    let level = match verbose {
        0 => tracing::Level::WARN,
        1 => tracing::Level::INFO,
        2 => tracing::Level::DEBUG,
        _ => tracing::Level::TRACE,
    };
    let logs = tracing_subscriber::fmt()
        .with_max_level(level)
        .with_writer(std::io::stderr);
    if verbose == 0 {
        logs.event_format(Plain).init();
    } else {
        logs.init();
    }
}

/// `rsbag: warning: …`, as the tool's own messages read.
struct Plain;

impl<S, N> tracing_subscriber::fmt::FormatEvent<S, N> for Plain
where
    S: tracing::Subscriber + for<'a> tracing_subscriber::registry::LookupSpan<'a>,
    N: for<'a> tracing_subscriber::fmt::FormatFields<'a> + 'static,
{
    fn format_event(
        &self,
        ctx: &tracing_subscriber::fmt::FmtContext<'_, S, N>,
        mut writer: tracing_subscriber::fmt::format::Writer<'_>,
        event: &tracing::Event<'_>,
    ) -> std::fmt::Result {
        let level = match *event.metadata().level() {
            tracing::Level::ERROR => "error",
            tracing::Level::WARN => "warning",
            _ => "note",
        };
        write!(writer, "rsbag: {level}: ")?;
        ctx.field_format().format_fields(writer.by_ref(), event)?;
        writeln!(writer)
    }
}
