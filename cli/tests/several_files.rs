//! Several recordings on one command line, and directories of them: each
//! file's result, a total, and the worst file's exit code.

use crate::common;
use crate::run;

use std::path::{Path, PathBuf};

fn s(path: &Path) -> &str {
    path.to_str().expect("utf-8 path")
}

fn sample(name: &str) -> PathBuf {
    common::sample(name)
}

#[test]
fn info_and_check_take_a_directory_of_recordings() {
    let dir = sample("");
    let info = run::rsbag(&["info", s(&dir)]);
    assert_eq!(info.code, Some(0), "{}", info.stderr);
    let bags = std::fs::read_dir(&dir)
        .expect("samples")
        .filter(|e| {
            e.as_ref()
                .is_ok_and(|e| e.path().extension().is_some_and(|x| x == "bag"))
        })
        .count();
    assert_eq!(
        info.stdout.matches("\nfile:").count() + 1,
        bags,
        "{}",
        info.stdout
    );
    assert!(
        info.stdout.contains(&format!(
            "total:         {bags} of {bags} recordings described"
        )),
        "{}",
        info.stdout
    );
    let check = run::rsbag(&["check", s(&dir)]);
    assert_eq!(check.code, Some(0));
    assert!(check
        .stdout
        .contains(&format!("total:   {bags} files: {bags} OK")));
    // With --json, one object per line, then the session's.
    let json = run::ok(&["info", "--json", s(&dir)]);
    assert_eq!(json.lines().count(), bags + 1);
    assert!(json
        .lines()
        .last()
        .is_some_and(|l| l.starts_with("{\"session\"")));
    let each = run::ok(&["info", "--json", "--each", s(&dir)]);
    assert_eq!(each.lines().count(), bags);
    for line in json.lines() {
        serde_json::from_str::<serde_json::Value>(line).expect("a JSON object per line");
    }
}

#[test]
fn the_exit_code_is_the_worst_files() {
    let dir = tempfile::tempdir().expect("tempdir");
    let good = sample("librealsense-depth-color-lz4.bag");
    let bytes = std::fs::read(sample("rsbag-synthetic-none.bag")).expect("sample");
    let cut = dir.path().join("cut.bag");
    std::fs::write(&cut, &bytes[..250_000]).expect("cut");
    let missing = dir.path().join("missing.bag");
    // Damage (4) is worse than success.
    let check = run::rsbag(&["check", s(&good), s(&cut)]);
    assert_eq!(check.code, Some(4), "{}", check.stderr);
    assert!(check.stdout.contains("1 OK") && check.stdout.contains("1 damaged"));
    // A file that cannot be read at all (1) is worse than damage, and the
    // other files are still read.
    for command in ["check", "info", "frames"] {
        let out = run::rsbag(&[command, s(&good), s(&missing), s(&cut)]);
        assert_eq!(out.code, Some(1), "{command}: {}", out.stderr);
        assert!(
            out.stderr.contains("missing.bag"),
            "{command}: {}",
            out.stderr
        );
        assert!(out.stdout.contains("cut.bag"), "{command}: {}", out.stdout);
        assert!(out.stdout.contains("depth-color-lz4.bag"), "{command}");
    }
}

#[test]
fn frames_names_the_file_of_each_line_when_there_are_several() {
    let a = sample("librealsense-depth-color-lz4.bag");
    let b = sample("librealsense-motion-lz4.bag");
    let one = run::ok(&["frames", "--json", s(&a)]);
    assert!(!one.contains("\"file\""), "one file: nothing changes");
    let both = run::rsbag(&["frames", "--json", s(&a), s(&b)]);
    assert_eq!(both.code, Some(0), "{}", both.stderr);
    // Unrelated samples: read on one timeline as asked, and said not to
    // be one session.
    assert!(
        both.stderr.contains("warning: not one session: "),
        "{}",
        both.stderr
    );
    let lines: Vec<serde_json::Value> = both
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("json"))
        .collect();
    assert_eq!(
        lines.len(),
        one.lines().count() + run::ok(&["frames", "--json", s(&b)]).lines().count()
    );
    assert!(lines
        .iter()
        .all(|l| l["file"] == s(&a) || l["file"] == s(&b)));
}

#[test]
fn convert_trim_and_play_take_several_recordings() {
    let dir = tempfile::tempdir().expect("tempdir");
    let a = sample("librealsense-depth-color-lz4.bag");
    let b = sample("rsbag-synthetic-lz4.bag");
    let out = dir.path().join("db3s");
    run::ok(&["convert", s(&a), s(&b), "--to", "db3", "--out", s(&out)]);
    for name in [
        "librealsense-depth-color-lz4.db3",
        "rsbag-synthetic-lz4.db3",
    ] {
        assert!(
            run::ok(&["check", s(&out.join(name))]).contains("result:  OK"),
            "{name}"
        );
    }
    let pngs = dir.path().join("pngs");
    run::ok(&[
        "convert",
        s(&a),
        s(&b),
        "--to",
        "png",
        "--streams",
        "depth",
        "--out",
        s(&pngs),
    ]);
    assert!(
        std::fs::read_dir(pngs.join("rsbag-synthetic-lz4"))
            .expect("dir")
            .count()
            > 0
    );
    let trimmed = dir.path().join("trimmed");
    run::ok(&[
        "trim",
        s(&a),
        s(&b),
        "--duration",
        "0.2",
        "--out",
        s(&trimmed),
    ]);
    assert!(trimmed.join("librealsense-depth-color-lz4.bag").is_file());
    assert!(trimmed.join("rsbag-synthetic-lz4.bag").is_file());
    let played = run::ok(&["play", "--no-realtime", "--streams", "depth", s(&a), s(&b)]);
    assert_eq!(played.matches("played in").count(), 2, "{played}");
    assert!(
        !played.contains("Color"),
        "only the chosen streams: {played}"
    );
}
