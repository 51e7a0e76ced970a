//! Nothing is replaced unasked, a write error stops a recording at once
//! and names the file, a finished recording takes no more frames, and
//! Ctrl-C leaves either a complete recording or nothing half-written.

use crate::common;
use crate::run;
use crate::run::OutputInTime;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rsbag::device::synthetic::SyntheticDevice;
use rsbag::device::Device;
use rsbag::record::{RecordOptions, Recorder};
use rsbag::storage::bag::Bag;
use rsbag::Error;

const PRECIOUS: &[u8] = b"a file rsbag did not write";

fn rsbag() -> Command {
    Command::new(env!("CARGO_BIN_EXE_rsbag"))
}

fn run(args: &[&str]) -> Output {
    rsbag().args(args).output_in_time().expect("run rsbag")
}

fn s(path: &Path) -> &str {
    path.to_str().expect("utf-8 path")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// `rsbag record` of a tenth of a second of the synthetic camera.
fn record_to(out: &str, extra: &[&str]) -> Output {
    let mut args = vec!["record", "--synthetic", "--duration", "0.1", "--out", out];
    args.extend_from_slice(extra);
    run(&args)
}

/// A file with [`PRECIOUS`] content at `path`.
fn precious(path: &Path) -> PathBuf {
    std::fs::write(path, PRECIOUS).expect("write");
    path.to_path_buf()
}

fn unchanged(path: &Path) {
    assert_eq!(
        std::fs::read(path).expect("read"),
        PRECIOUS,
        "{} was changed",
        path.display()
    );
}

fn is_error_kind(e: &Error, kind: std::io::ErrorKind) -> bool {
    matches!(e, Error::Io { error, .. } if error.kind() == kind)
}

#[test]
fn a_recording_never_replaces_a_file_unasked() {
    let dir = tempfile::tempdir().expect("tempdir");
    let camera = || Arc::new(SyntheticDevice::default()) as Arc<dyn Device>;
    let existing = precious(&dir.path().join("existing.bag"));
    let refused = Recorder::new(&existing, camera(), RecordOptions::default())
        .expect_err("an existing file is refused");
    assert!(
        is_error_kind(&refused, std::io::ErrorKind::AlreadyExists),
        "{refused}"
    );
    assert!(refused.to_string().contains("existing.bag"), "{refused}");
    unchanged(&existing);
    assert!(!dir.path().join("existing.bag.partial").exists());

    // A recording cut off earlier is not replaced either.
    let cut = precious(&dir.path().join("crashed.bag.partial"));
    let refused = Recorder::new(
        dir.path().join("crashed.bag"),
        camera(),
        RecordOptions::default(),
    )
    .expect_err("a leftover .partial is refused");
    assert!(refused.to_string().contains("rsbag reindex"), "{refused}");
    unchanged(&cut);

    // Asked to, it replaces.
    let options = RecordOptions {
        overwrite: true,
        ..RecordOptions::default()
    };
    Recorder::new(&existing, camera(), options)
        .expect("overwrite")
        .finish()
        .expect("finish");
    Bag::open(&existing).expect("a bag now");

    let out = record_to(s(&cut).trim_end_matches(".partial"), &[]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    unchanged(&cut);
    let target = precious(&dir.path().join("cli.bag"));
    let out = record_to(s(&target), &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("--force"), "{}", stderr(&out));
    unchanged(&target);
    let out = record_to(s(&target), &["--force"]);
    assert!(out.status.success(), "{}", stderr(&out));
    Bag::open(&target).expect("a bag now");
}

#[test]
fn reindex_does_not_replace_an_unrelated_finished_bag() {
    let dir = tempfile::tempdir().expect("tempdir");
    let finished = precious(&dir.path().join("session.bag"));
    let sample = std::fs::read(common::sample("rsbag-synthetic-lz4.bag")).expect("sample");
    let partial = dir.path().join("session.bag.partial");
    std::fs::write(&partial, &sample[..sample.len() / 2]).expect("write");
    let out = run(&["reindex", s(&partial)]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("session.bag") && stderr(&out).contains("--force"));
    unchanged(&finished);
    assert_eq!(
        std::fs::read(&partial).expect("read"),
        sample[..sample.len() / 2]
    );
    assert!(!dir.path().join("session.orig.bag").exists());

    let out = run(&["reindex", s(&partial), "--force"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        Bag::open(&finished)
            .expect("recovered")
            .total_message_count()
            > 0
    );
}

#[test]
fn rewrites_refuse_an_existing_output_unless_forced() {
    let dir = tempfile::tempdir().expect("tempdir");
    let input = common::sample("librealsense-stereo-none.bag");
    let out_path = precious(&dir.path().join("out.bag"));
    for args in [
        vec!["compress", s(&input), "--out", s(&out_path)],
        vec!["decompress", s(&input), "--out", s(&out_path)],
        vec![
            "trim",
            s(&input),
            "--out",
            s(&out_path),
            "--duration",
            "0.1",
        ],
        vec!["reindex", s(&input), "--out", s(&out_path)],
    ] {
        let out = run(&args);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("out.bag"),
            "{args:?}: {}",
            stderr(&out)
        );
        unchanged(&out_path);
        let mut forced = args.clone();
        forced.push("--force");
        let out = run(&forced);
        assert!(out.status.success(), "{forced:?}: {}", stderr(&out));
        Bag::open(&out_path).expect("written");
        precious(&out_path);
    }
}

#[test]
fn a_write_error_stops_the_recording_at_once_and_names_the_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bag = dir.path().join("full.bag");
    // A file-size limit makes writes fail (EFBIG) past 2 MB, as a full
    // disk would; the signal the limit raises is ignored.
    let began = Instant::now();
    let out = Command::new("bash")
        .args([
            "-c",
            "trap '' XFSZ; ulimit -f 2000; exec \"$0\" record --synthetic --duration 60 --out \"$1\"",
            env!("CARGO_BIN_EXE_rsbag"),
            s(&bag),
        ])
        .output_in_time()
        .expect("run");
    let took = began.elapsed();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("full.bag.partial: File too large"), "{err}");
    assert!(err.contains("rsbag reindex"), "{err}");
    // Stopped at the error, not after the minute it was asked to record.
    assert!(took < Duration::from_secs(40), "{took:?}");
    assert!(!bag.exists());
    let partial = dir.path().join("full.bag.partial");
    let recovered = Bag::scan(&partial).expect("the partial file is recoverable");
    assert!(recovered.total_message_count() > 100);

    // A rewrite whose output cannot be written names the output.
    let input = common::sample("rsbag-synthetic-none.bag");
    let output = dir.path().join("copy.bag");
    let out = Command::new("bash")
        .args([
            "-c",
            "trap '' XFSZ; ulimit -f 100; exec \"$0\" compress \"$1\" --compression none --out \"$2\"",
            env!("CARGO_BIN_EXE_rsbag"),
            s(&input),
            s(&output),
        ])
        .output_in_time()
        .expect("run");
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.starts_with(&format!("rsbag: {}", s(&output))), "{err}");
    assert!(!output.exists() && !dir.path().join("copy.bag.partial").exists());
}

#[test]
fn a_finished_recording_takes_no_more_frames() {
    let dir = tempfile::tempdir().expect("tempdir");
    let recorder = Recorder::new(
        dir.path().join("done.bag"),
        Arc::new(SyntheticDevice::default()),
        RecordOptions::default(),
    )
    .expect("recorder");
    let sensor = recorder.sensors()[0].clone();
    let profile = sensor.profiles()[0];
    recorder.finish().expect("finish");
    sensor.open(&[profile]).expect("open");
    let refused = sensor
        .start(Arc::new(|_| {}))
        .expect_err("start after finish");
    assert!(refused.to_string().contains("finished"), "{refused}");
}

/// Start `rsbag args`, wait (bounded) until `ready` holds, then send it
/// SIGINT; returns its output.
fn interrupt(args: &[&str], ready: impl Fn() -> bool) -> Output {
    let child: Child = rsbag()
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let until = Instant::now() + Duration::from_secs(60);
    while !ready() {
        assert!(Instant::now() < until, "{args:?} never got going");
        std::thread::sleep(Duration::from_millis(5));
    }
    // SAFETY: sending a signal to our own child process.
    let sent = unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    assert_eq!(sent, 0);
    child.wait_with_output().expect("wait")
}

#[test]
fn ctrl_c_finishes_a_recording_and_leaves_nothing_half_written() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bag = dir.path().join("interrupted.bag");
    let partial = dir.path().join("interrupted.bag.partial");
    let out = interrupt(
        &[
            "record",
            "--synthetic",
            "--duration",
            "120",
            "--no-compression",
            "--out",
            s(&bag),
        ],
        || std::fs::metadata(&partial).is_ok_and(|m| m.len() > 10 << 20),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!partial.exists());
    let recording = rsbag::recording::FrameReader::open(&bag).expect("a complete recording");
    assert!(recording.frames().expect("frames").count() > 10);
    assert!(String::from_utf8_lossy(&out.stdout).contains("wrote"));

    // Converting it to PNG: the unfinished output directory goes.
    let pngs = dir.path().join("pngs");
    let out = interrupt(
        &["convert", s(&bag), "--to", "png", "--out", s(&pngs)],
        || {
            std::fs::read_dir(dir.path())
                .expect("dir")
                .filter_map(|e| e.ok())
                .any(|e| e.file_name().to_string_lossy().starts_with(".pngs.partial"))
        },
    );
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .expect("dir")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(left, ["interrupted.bag"], "only the recording is left");

    // Compressing it in place: the input is back where it was, unchanged.
    let before = std::fs::read(&bag).expect("read");
    let out = interrupt(&["compress", s(&bag), "--compression", "bz2"], || {
        dir.path().join("interrupted.bag.partial").exists()
    });
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    assert!(
        std::fs::read(&bag).expect("read") == before,
        "the input is as it was"
    );
    assert!(!dir.path().join("interrupted.orig.bag").exists());
    assert!(!dir.path().join("interrupted.bag.partial").exists());
}

#[test]
fn a_missing_recording_whose_partial_file_exists_points_to_reindex() {
    let dir = tempfile::tempdir().expect("tempdir");
    let sample = std::fs::read(common::sample("rsbag-synthetic-lz4.bag")).expect("sample");
    std::fs::write(
        dir.path().join("crash.bag.partial"),
        &sample[..sample.len() / 2],
    )
    .expect("write");
    let missing = dir.path().join("crash.bag");
    for command in ["info", "frames", "check", "play"] {
        let out = run(&[command, s(&missing)]);
        assert_eq!(out.status.code(), Some(1), "{command}");
        let err = stderr(&out);
        assert!(
            err.contains("crash.bag.partial exists") && err.contains("rsbag reindex"),
            "{command}: {err}"
        );
    }
    // A plain missing file says only that.
    let out = run(&["info", s(&dir.path().join("nothing.bag"))]);
    assert!(!stderr(&out).contains("reindex"), "{}", stderr(&out));
}

#[test]
fn two_forced_conversions_into_one_file_leave_one_whole_file_and_no_partial() {
    let dir = tempfile::tempdir().expect("tempdir");
    let input = dir.path().join("input.bag");
    let recorded = run::rsbag(&[
        "record",
        "--synthetic",
        "--duration",
        "0.3",
        "--out",
        s(&input),
    ]);
    assert_eq!(recorded.code, Some(0), "{}", recorded.stderr);
    let frames = run::ok(&["frames", s(&input)]).lines().count();
    for format in ["db3", "bag"] {
        let out = dir.path().join(format!("same.{format}"));
        for round in 0..4 {
            let args = [
                "convert",
                s(&input),
                "--to",
                format,
                "--force",
                "--out",
                s(&out),
            ];
            let runs: Vec<run::Run> = std::thread::scope(|scope| {
                let both = [
                    scope.spawn(|| run::rsbag(&args)),
                    scope.spawn(|| run::rsbag(&args)),
                ];
                both.map(|r| r.join().expect("run")).into()
            });
            assert!(
                runs.iter().any(|r| r.code == Some(0)),
                "{format} round {round}: {:?}",
                runs.iter().map(|r| &r.stderr).collect::<Vec<_>>()
            );
            for r in runs.iter().filter(|r| r.code != Some(0)) {
                assert_eq!(r.code, Some(1));
                assert!(
                    r.stderr.contains("another writer is writing this file now"),
                    "{format} round {round}: {}",
                    r.stderr
                );
            }
            assert!(
                !rsbag::storage::partial_path_for(&out).exists(),
                "{format} round {round}: a partial file is left"
            );
            assert_eq!(run::ok(&["frames", s(&out)]).lines().count(), frames);
        }
    }
}

#[test]
fn trim_over_a_link_to_its_input_rewrites_the_input_and_keeps_the_link() {
    let dir = tempfile::tempdir().expect("tempdir");
    let input = dir.path().join("t.bag");
    std::fs::copy(common::sample("rsbag-synthetic-lz4.bag"), &input).expect("copy");
    let original = std::fs::read(&input).expect("read");
    let link = dir.path().join("link.bag");
    std::os::unix::fs::symlink(&input, &link).expect("symlink");
    let trimmed = run::rsbag(&[
        "trim",
        s(&input),
        "--out",
        s(&link),
        "--force",
        "--duration",
        "0.1",
    ]);
    assert_eq!(trimmed.code, Some(0), "{}", trimmed.stderr);
    // As for `--out` naming the input: the input rewritten, its original
    // kept beside it; the link still a link to it.
    assert!(
        trimmed.stdout.contains("the original is kept as"),
        "{}",
        trimmed.stdout
    );
    assert!(link
        .symlink_metadata()
        .expect("link")
        .file_type()
        .is_symlink());
    assert_eq!(std::fs::read_link(&link).expect("link"), input);
    assert_eq!(
        std::fs::read(dir.path().join("t.orig.bag")).expect("backup"),
        original
    );
    assert!(!dir.path().join("link.orig.bag").exists());
    let all = run::ok(&["frames", s(&dir.path().join("t.orig.bag"))])
        .lines()
        .count();
    let kept = run::ok(&["frames", s(&input)]).lines().count();
    assert!(0 < kept && kept < all, "{kept} of {all} frames");
    // The link given as the input, the file it leads to as the output:
    // the same.
    std::fs::remove_file(dir.path().join("t.orig.bag")).expect("remove");
    let again = run::rsbag(&[
        "trim",
        s(&link),
        "--out",
        s(&input),
        "--force",
        "--duration",
        "0.05",
    ]);
    assert_eq!(again.code, Some(0), "{}", again.stderr);
    assert!(link
        .symlink_metadata()
        .expect("link")
        .file_type()
        .is_symlink());
    assert!(dir.path().join("t.orig.bag").is_file());
}

#[test]
fn convert_force_replaces_only_a_directory_a_conversion_wrote() {
    let dir = tempfile::tempdir().expect("tempdir");
    let input = common::sample("librealsense-depth-color-lz4.bag");
    let out = dir.path().join("png");
    run::ok(&["convert", s(&input), "--to", "png", "--out", s(&out)]);
    let stale = precious(&out.join("stale.txt"));
    let again = run::rsbag(&["convert", s(&input), "--to", "png", "--out", s(&out)]);
    assert_eq!(again.code, Some(1));
    assert!(again.stderr.contains("give --force"), "{}", again.stderr);
    unchanged(&stale);
    run::ok(&[
        "convert",
        s(&input),
        "--to",
        "png",
        "--force",
        "--out",
        s(&out),
    ]);
    assert!(out.join("frames.csv").is_file());
    assert!(!stale.exists(), "the earlier output is replaced whole");
    assert!(!std::fs::read_dir(dir.path()).expect("dir").any(|e| e
        .expect("entry")
        .file_name()
        .to_string_lossy()
        .contains("partial")));
    // A directory rsbag did not write is never replaced.
    let other = dir.path().join("photos");
    std::fs::create_dir(&other).expect("mkdir");
    let photo = precious(&other.join("holiday.png"));
    let refused = run::rsbag(&[
        "convert",
        s(&input),
        "--to",
        "png",
        "--force",
        "--out",
        s(&other),
    ]);
    assert_eq!(refused.code, Some(1));
    assert!(
        refused
            .stderr
            .contains("--force replaces only a directory a conversion wrote"),
        "{}",
        refused.stderr
    );
    unchanged(&photo);
}
