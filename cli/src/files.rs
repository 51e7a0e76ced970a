//! Several recordings on one command line: `rsbag info|check|frames|play|
//! convert|trim A.bag B.db3 DIR ...`. Directories give the recordings in
//! them; each file is handled in turn, a failure is reported and the next
//! one still read, and the exit code is the worst file's.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use rsbag::{Error, Result};

use super::damage::DAMAGED;

/// The exit code `check` gives for frames missing or out of order.
pub const FINDINGS: u8 = 3;

/// The recordings `paths` name, in the order given: a file as it is; a
/// rosbag2 bag directory (with its `metadata.yaml`) as one recording; any
/// other directory as every recording in it (`.bag`, `.db3` and `.mcap`
/// files and bag directories, by name; unfinished `.partial` files are
/// left out). A directory with none is an error.
pub fn recordings(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut found = Vec::new();
    for path in paths {
        if !path.is_dir() || is_bag_directory(path) {
            found.push(path.clone());
            continue;
        }
        let entries = std::fs::read_dir(path).map_err(|error| Error::Io {
            path: path.clone(),
            error,
        })?;
        let mut inside: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| is_recording_name(p) || (p.is_dir() && is_bag_directory(p)))
            .collect();
        if inside.is_empty() {
            return Err(Error::InvalidArgument(format!(
                "{}: no recording in this directory (.bag, .db3, .mcap files or ROS 2 bag directories)",
                path.display()
            )));
        }
        inside.sort();
        found.extend(inside);
    }
    Ok(found)
}

/// Whether `dir` is a rosbag2 bag directory.
fn is_bag_directory(dir: &Path) -> bool {
    dir.join("metadata.yaml").is_file()
}

/// A file whose name says it is a recording.
fn is_recording_name(path: &Path) -> bool {
    path.is_file() && rsbag::storage::FileFormat::of_extension(path).is_some()
}

/// Run `one` on each file. With one file this is `one(file)`; with
/// several, `between` is printed between two files' outputs (a blank
/// line for text, nothing for JSON lines), an error is printed and the
/// next file still handled, and the exit code is the worst one (a
/// failure, then damage, then findings, then success). Each file's output
/// names the file.
pub fn each(
    files: &[PathBuf],
    between: &str,
    mut one: impl FnMut(&Path) -> Result<ExitCode>,
) -> Result<ExitCode> {
    if let [file] = files {
        return one(file);
    }
    let mut worst = ExitCode::SUCCESS;
    for (i, file) in files.iter().enumerate() {
        if i > 0 {
            super::emit(between);
        }
        let code = one(file).unwrap_or_else(|e| {
            eprintln!("rsbag: {e}{}", rsbag::storage::recovery_hint(&e));
            ExitCode::FAILURE
        });
        if severity(code) > severity(worst) {
            worst = code;
        }
    }
    Ok(worst)
}

/// How bad an exit code is: success, findings, damage, failure.
fn severity(code: ExitCode) -> u8 {
    if code == ExitCode::SUCCESS {
        0
    } else if code == ExitCode::from(FINDINGS) {
        1
    } else if code == ExitCode::from(DAMAGED) {
        2
    } else {
        3
    }
}

/// With several inputs, where the output for `input` goes inside the
/// directory `out` (made if missing): its file name with `extension`, or
/// its stem as a directory when `extension` is `None`.
pub fn output_for(input: &Path, out: &Path, extension: Option<&str>) -> Result<PathBuf> {
    std::fs::create_dir_all(out).map_err(|error| Error::Io {
        path: out.to_path_buf(),
        error,
    })?;
    let stem = input
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "recording".into());
    Ok(match extension {
        Some(ext) => out.join(format!("{stem}.{ext}")),
        None => out.join(stem),
    })
}
