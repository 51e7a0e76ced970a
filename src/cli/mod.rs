//! The `rsbag` command line: one subcommand per module.

/// Append a formatted line to a `String` of command output.
macro_rules! outln {
    ($out:expr, $($arg:tt)*) => {{
        use std::fmt::Write as _;
        let _ = writeln!($out, $($arg)*);
    }};
}

mod check;
mod compress;
mod convert;
mod frames;
mod info;
mod json;
mod output;
mod play;
mod progress;
mod record;
mod reindex;
mod select;
mod trim;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Record, inspect and play back RealSense sessions stored as ROS1 bag files.
#[derive(Debug, Parser)]
#[command(name = "rsbag", version, about, propagate_version = true)]
struct Cli {
    /// Print progress logs (repeat for more detail).
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    verbose: u8,

    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    Info(info::Args),
    Frames(frames::Args),
    Play(play::Args),
    Record(record::Args),
    Check(check::Args),
    Convert(convert::Args),
    Reindex(reindex::Args),
    Trim(trim::Args),
    Compress(compress::Args),
    Decompress(compress::DecompressArgs),
}

/// Run the command line; returns the process exit code.
pub fn run() -> ExitCode {
    let cli = Cli::parse();
    init_logging(cli.verbose);
    let result = match cli.command {
        Command::Info(args) => info::run(args),
        Command::Frames(args) => frames::run(args),
        Command::Play(args) => play::run(args),
        Command::Record(args) => record::run(args),
        Command::Check(args) => return check::run(args),
        Command::Convert(args) => convert::run(args),
        Command::Reindex(args) => reindex::run(args),
        Command::Trim(args) => trim::run(args),
        Command::Compress(args) => compress::run(args),
        Command::Decompress(args) => compress::run_decompress(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("rsbag: {e}");
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

fn init_logging(verbose: u8) {
    let level = match verbose {
        0 => return,
        1 => tracing::Level::INFO,
        2 => tracing::Level::DEBUG,
        _ => tracing::Level::TRACE,
    };
    tracing_subscriber::fmt()
        .with_max_level(level)
        .with_writer(std::io::stderr)
        .init();
}
