//! The `rsbag` command line.

/// Run the command line; returns the process exit code.
pub fn run() -> i32 {
    0
}
