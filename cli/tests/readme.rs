//! The command-line examples of the README's front page and of the guide's
//! tour (`docs/src/command-line.md`) run, in the order written, from a
//! copy of the repository's root (the sample recordings), each one after
//! the ones that make its input. `rsbag view FILE` (which serves until
//! Ctrl-C) is run with `--no-browser` until it serves, then interrupted.

use crate::run::{shell, OutputInTime};
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

/// The commands of the first `sh` block of `file` (from the repository's
/// root) after the line `after` (the whole file when empty): continuation
/// lines joined, comments and blank lines left out.
fn examples(file: &str, after: &str) -> Vec<String> {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(file))
        .expect(file);
    let section = match after {
        "" => text.as_str(),
        _ => text
            .split(after)
            .nth(1)
            .unwrap_or_else(|| panic!("{file}: no {after:?}")),
    };
    let block = section
        .split("```sh\n")
        .nth(1)
        .and_then(|b| b.split("\n```").next())
        .expect("its sh block");
    let mut commands = Vec::new();
    let mut pending = String::new();
    for line in block.lines() {
        let line = line.trim();
        if pending.is_empty() && (line.is_empty() || line.starts_with('#')) {
            continue;
        }
        match line.strip_suffix('\\') {
            Some(start) => pending.push_str(start),
            None => {
                pending.push_str(line);
                commands.push(std::mem::take(&mut pending));
            }
        }
    }
    commands
}

/// `rsbag view FILE` serves until interrupted: start it without a
/// browser, wait for its address, then Ctrl-C it; it must exit 0.
fn serve_then_interrupt(dir: &Path, command: &str) {
    let mut child = shell(dir, &format!("exec {command} --no-browser --port 0"))
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start rsbag view");
    let stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let until = Instant::now() + Duration::from_secs(60);
    loop {
        let line = rx
            .recv_timeout(until.saturating_duration_since(Instant::now()))
            .unwrap_or_else(|_| panic!("{command}: never served"));
        if line.contains("http://") {
            break;
        }
    }
    // SAFETY: a signal to our own child process.
    assert_eq!(
        unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) },
        0
    );
    let status = child.wait().expect("wait");
    assert!(status.success(), "{command}: {status}");
}

/// Runs `commands` in order in a directory of their own beside the sample
/// recordings; each must succeed.
fn run_in_order(commands: &[String]) {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    std::os::unix::fs::symlink(root.join("sample_bags"), dir.path().join("sample_bags"))
        .expect("link the samples");
    for command in commands {
        assert!(command.starts_with("rsbag "), "{command}");
        if command.starts_with("rsbag view") && !command.contains("--export") {
            serve_then_interrupt(dir.path(), command);
            continue;
        }
        let out = shell(dir.path(), command).output_in_time().expect("run");
        assert!(
            out.status.success(),
            "{command}: {}\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn the_readme_command_line_examples_run_in_order() {
    let commands = examples("README.md", "\n## The command line\n");
    assert!(commands.len() >= 8, "{commands:?}");
    run_in_order(&commands);
}

#[test]
fn the_guide_tour_runs_in_order() {
    let commands = examples("docs/src/command-line.md", "");
    assert!(commands.len() >= 25, "{commands:?}");
    run_in_order(&commands);
}
