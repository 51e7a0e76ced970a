//! The command line past damage: `frames`, `convert`, `play` and `check`
//! read everything else, say what was lost on stderr and exit 4; a chunk
//! header that lies about its size fails `decompress` cleanly. The
//! library's side of it is in `tests/damage_reading.rs`.

#[path = "../../tests/common/mod.rs"]
mod common;
mod run;

use common::damaged::{chunked_bag, lying_bag, with_bad_chunk, with_bad_metadata, FRAMES};
use common::rs;
use rsbag::bag::Compression;

/// Exit code of a damaged file.
const DAMAGED: i32 = 4;

/// Run `rsbag args`: exit code (-1 when killed by a signal), stdout and
/// stderr.
fn rsbag(args: &[&str]) -> (i32, String, String) {
    let run = run::rsbag(args);
    (run.code.unwrap_or(-1), run.stdout, run.stderr)
}

/// The largest resident size of any child process waited for so far, MB.
fn children_peak_mb() -> i64 {
    // SAFETY: getrusage fills the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    assert_eq!(
        unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) },
        0
    );
    usage.ru_maxrss / 1024
}

#[test]
fn commands_report_damage_and_exit_4() {
    let dir = tempfile::tempdir().expect("tempdir");
    let good = chunked_bag(dir.path());
    let (bad, offset, lost) = with_bad_chunk(&good, 3);
    let bad = bad.to_str().expect("utf-8 path");
    let expect_damage = |what: &str, (code, _, stderr): &(i32, String, String)| {
        assert_eq!(*code, DAMAGED, "{what}: {stderr}");
        assert!(stderr.contains(&offset.to_string()), "{what}: {stderr}");
        assert!(
            stderr.contains("rsbag check") && stderr.contains("rsbag reindex"),
            "{what}: {stderr}"
        );
    };
    let frames = rsbag(&["frames", bad]);
    expect_damage("frames", &frames);
    assert_eq!(frames.1.lines().count() as u64, 2 * FRAMES - lost);
    let json = rsbag(&["frames", "--json", bad]);
    expect_damage("frames --json", &json);
    let device = rsbag(&["frames", "--device", bad]);
    expect_damage("frames --device", &device);
    assert_eq!(device.1.lines().count() as u64, 2 * FRAMES - lost);
    let out = dir.path().join("raw");
    let convert = rsbag(&[
        "convert",
        bad,
        "--to",
        "raw",
        "--out",
        out.to_str().expect("utf-8"),
    ]);
    expect_damage("convert", &convert);
    let written = std::fs::read_dir(&out).expect("the output").count() as u64;
    assert!(written >= 2 * FRAMES - lost, "{written} files");
    let play = rsbag(&["play", bad, "--no-realtime"]);
    expect_damage("play", &play);
    let (code, stdout, _) = rsbag(&["check", bad]);
    assert_eq!(code, DAMAGED, "{stdout}");
    assert!(
        stdout.contains("DAMAGED") && stdout.contains(&offset.to_string()),
        "{stdout}"
    );
    // The undamaged file: no warning, exit 0.
    let (code, _, stderr) = rsbag(&["frames", good.to_str().expect("utf-8")]);
    assert_eq!((code, stderr.as_str()), (0, ""));
}

#[test]
fn a_malformed_metadata_message_is_damage_for_check_and_frames() {
    let dir = tempfile::tempdir().expect("tempdir");
    let good = dir.path().join("plain.bag");
    rs::write(&good, FRAMES, Compression::None);
    let bad = with_bad_metadata(&good, 7);
    let bad = bad.to_str().expect("utf-8 path");
    let (code, stdout, stderr) = rsbag(&["check", bad]);
    assert_eq!(code, DAMAGED, "{stdout}{stderr}");
    assert!(
        stdout.contains("unreadable") && stdout.contains("KeyValue"),
        "{stdout}"
    );
    assert!(
        stdout.contains("Depth 0") && stdout.contains("Color 0"),
        "{stdout}"
    );
    let (code, stdout, stderr) = rsbag(&["frames", bad]);
    assert_eq!(code, DAMAGED, "{stderr}");
    assert_eq!(stdout.lines().count() as u64, 2 * FRAMES - 1);
}

#[test]
fn decompress_stops_at_a_chunk_that_lies_about_its_size_without_allocating_the_lie() {
    let dir = tempfile::tempdir().expect("tempdir");
    let lying = lying_bag(dir.path());

    let out = dir.path().join("copy.bag");
    let (code, _, stderr) = rsbag(&[
        "decompress",
        lying.to_str().expect("utf-8"),
        "--out",
        out.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("lying.bag") && stderr.contains("frames hold at most"),
        "{stderr}"
    );
    assert!(!out.exists());
    // The 8 MB chunk, its copy and the program: nowhere near the 2 GB claimed.
    let peak = children_peak_mb();
    assert!(peak < 400, "a child process peaked at {peak} MB");
}
