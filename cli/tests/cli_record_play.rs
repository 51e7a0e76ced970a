//! `rsbag record` and `rsbag play` as a user runs them, and a recording
//! killed mid-write.

use crate::run::OutputInTime;
use std::process::{Command, Output};

use rsbag::recording::{Event, Recording, TimedEvent};
use rsbag::storage::bag::Bag;

fn rsbag(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rsbag"))
        .args(args)
        .output_in_time()
        .expect("run rsbag")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The number in the `total` row, or in a stream's row.
fn frames_in(text: &str, row: &str) -> u64 {
    text.lines()
        .find(|l| l.starts_with(row))
        .and_then(|l| l[row.len()..].split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no {row:?} row in:\n{text}"))
}

#[test]
fn record_then_play_reports_the_same_frames() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bag = dir.path().join("cli.bag");
    let bag = bag.to_str().expect("utf-8");
    let out = rsbag(&[
        "record",
        "--synthetic",
        "--duration",
        "0.5",
        "--streams",
        "depth,color,gyro",
        "--depth",
        "64x48@30",
        "--color",
        "64x48@30",
        "--out",
        bag,
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report = stdout(&out);
    let depth = frames_in(&report, "Depth 0");
    let color = frames_in(&report, "Color 0");
    let gyro = frames_in(&report, "Gyro 0");
    assert!((10..=20).contains(&depth), "{report}");
    assert!(gyro > 100, "{report}");
    assert!(report.contains("0 frames dropped"), "{report}");

    let out = rsbag(&["play", bag, "--no-realtime"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let played = stdout(&out);
    assert_eq!(frames_in(&played, "Depth 0"), depth, "{played}");
    assert_eq!(frames_in(&played, "Color 0"), color, "{played}");
    assert_eq!(
        frames_in(&played, "total"),
        depth + color + gyro,
        "{played}"
    );
    assert!(played.contains("0 dropped"), "{played}");

    // A later part only, at double speed in real time.
    let out = rsbag(&["play", bag, "--start", "0.2", "--speed", "2"]);
    assert!(out.status.success());
    let part = frames_in(&stdout(&out), "Depth 0");
    assert!(part < depth && part + 8 >= depth, "{part} of {depth}");
}

#[test]
fn bad_arguments_and_files_fail_with_a_message() {
    let dir = tempfile::tempdir().expect("tempdir");
    let missing = dir.path().join("missing.bag");
    let missing = missing.to_str().expect("utf-8");
    for (args, needle) in [
        (vec!["play", missing], "missing.bag"),
        (vec!["frames", missing], "missing.bag"),
        (vec!["info", missing], "missing.bag"),
        (
            vec!["record", "--synthetic", "--duration=-1", "--out", "x.bag"],
            "duration",
        ),
        (
            vec!["record", "--synthetic", "--depth", "big", "--out", "x.bag"],
            "WIDTHxHEIGHT@FPS",
        ),
        (vec!["play", "Cargo.toml", "--loop"], "--loop"),
    ] {
        let out = rsbag(&args);
        assert!(!out.status.success(), "{args:?} should fail");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    let out = rsbag(&[
        "record",
        "--synthetic",
        "--duration",
        "0.1",
        "--out",
        "/nonexistent-dir/x.bag",
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent-dir/x.bag"));
}

#[test]
fn a_recording_killed_mid_write_keeps_its_complete_chunks() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("crash.bag");
    let mut child = Command::new(env!("CARGO_BIN_EXE_rsbag"))
        .args([
            "record",
            "--synthetic",
            "--duration",
            "30",
            "--no-compression",
            "--out",
        ])
        .arg(&out)
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("start rsbag record");
    std::thread::sleep(std::time::Duration::from_millis(1500));
    child.kill().expect("kill");
    let _ = child.wait();
    assert!(!out.exists(), "no file under the final name");
    let partial = rsbag::storage::partial_path_for(&out);
    let bag = Bag::scan(&partial).expect("scan the partial file");
    let report = bag.scan_report().expect("report").clone();
    assert!(report.complete_chunks > 5, "{report:?}");
    let recording = Recording::from_bag(bag).expect("a playable recording");
    let frames = recording
        .events(..)
        .filter(|e| {
            matches!(
                e,
                Ok(TimedEvent {
                    event: Event::Frame { .. },
                    ..
                })
            )
        })
        .count();
    assert!(frames > 20, "{frames} frames recovered");
}

#[test]
fn a_db3_recording_killed_mid_write_keeps_what_it_committed() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("crash.db3");
    let mut child = Command::new(env!("CARGO_BIN_EXE_rsbag"))
        .args([
            "record",
            "--synthetic",
            "--duration",
            "30",
            "--depth",
            "64x48@30",
            "--color",
            "64x48@30",
            "--out",
        ])
        .arg(&out)
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("start rsbag record");
    // The writer commits every second: after 2.5 s, at least a second is in.
    std::thread::sleep(std::time::Duration::from_millis(2500));
    child.kill().expect("kill");
    let _ = child.wait();
    assert!(!out.exists(), "no file under the final name");
    let partial = rsbag::storage::partial_path_for(&out);
    // Readable as it is...
    let frames = |path: &std::path::Path| {
        Recording::open(path)
            .expect("a playable recording")
            .events(..)
            .filter(|e| {
                matches!(
                    e,
                    Ok(TimedEvent {
                        event: Event::Frame { .. },
                        ..
                    })
                )
            })
            .count()
    };
    let committed = frames(&partial);
    assert!(committed > 30, "{committed} frames committed");
    // ... and `reindex` writes it as a finished NAME.db3.
    let done = Command::new(env!("CARGO_BIN_EXE_rsbag"))
        .arg("reindex")
        .arg(&partial)
        .output_in_time()
        .expect("run reindex");
    assert!(
        done.status.success(),
        "{}",
        String::from_utf8_lossy(&done.stderr)
    );
    assert_eq!(frames(&out), committed);
}

#[test]
fn a_recording_on_a_terminal_shows_a_live_status_line() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("status.bag");
    // `script` runs the recorder on a pseudo-terminal and keeps what it
    // printed.
    let command = format!(
        "{} record --synthetic --duration 1.6 --depth 64x48@30 --color 64x48@30 --out {}",
        env!("CARGO_BIN_EXE_rsbag"),
        out.display()
    );
    let run = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .output_in_time()
        .expect("script (util-linux)");
    assert!(run.status.success());
    let screen = stdout(&run);
    let lines: Vec<&str> = screen
        .split('\r')
        .filter(|l| l.contains(" fps | "))
        .collect();
    assert!(lines.len() >= 2, "redrawn as it records: {screen:?}");
    for line in &lines {
        assert!(line.contains("Depth 0 "), "{line}");
        assert!(
            line.contains(" dropped | ") && line.contains(" MB/s | "),
            "{line}"
        );
        assert!(line.contains(" free | ") && line.ends_with(" s"), "{line}");
    }
    // Gone before the report.
    assert!(screen.contains("\r\x1b[Kwrote "), "{screen:?}");
    // Not on a pipe.
    let piped = rsbag(&[
        "record",
        "--synthetic",
        "--duration",
        "0.6",
        "--depth",
        "64x48@30",
        "--color",
        "64x48@30",
        "--out",
        dir.path().join("piped.bag").to_str().expect("utf-8"),
    ]);
    assert!(!String::from_utf8_lossy(&piped.stderr).contains(" fps | "));
}
