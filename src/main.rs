//! The `rsbag` command-line tool.

mod cli;

fn main() -> std::process::ExitCode {
    cli::run()
}
