//! Crash safety of every writer: `kill -9` at random moments during
//! `record` (`.bag` LZ4 and uncompressed, `.db3`), `convert` (each file
//! target), `compress`, `trim` and `reindex`; a full disk; a read-only
//! directory.
//!
//! The property: afterwards there is the untouched input, a complete
//! output, or a `.partial` that `rsbag reindex` recovers into frames that
//! were all really recorded (compared byte for byte with what the
//! synthetic camera renders for that frame number, or with the input's
//! frame), and a command that could not finish said so with a non-zero
//! exit. Kill moments come from seeds: `RSBAG_KILL_SEEDS` (default 3) per
//! scenario, `RSBAG_KILL_SEED0` the first (default 1).

use crate::run;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use rsbag::device::synthetic::{SyntheticConfig, SyntheticDevice};
use rsbag::device::StreamId;
use rsbag::recording::{Event, Recording};
use sha2::{Digest, Sha256};

fn s(path: &Path) -> &str {
    path.to_str().expect("utf-8 path")
}

/// The kill moments' seeds.
fn seeds() -> std::ops::Range<u64> {
    let var = |name: &str, default: u64| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let first = var("RSBAG_KILL_SEED0", 1);
    first..first + var("RSBAG_KILL_SEEDS", 3)
}

/// A moment in `[low, high)` seconds drawn from `seed` (splitmix64).
fn moment(seed: u64, low: f64, high: f64) -> Duration {
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    let unit = (z >> 11) as f64 / (1u64 << 53) as f64;
    Duration::from_secs_f64(low + unit * (high - low))
}

/// Run `rsbag args`, `kill -9` it after `after` if it is still running;
/// returns its exit code (`None`: killed).
fn kill_after(args: &[&str], after: Duration) -> Option<i32> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_rsbag"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start rsbag");
    let started = Instant::now();
    while started.elapsed() < after {
        if let Some(status) = child.try_wait().expect("wait") {
            return status.code();
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().expect("kill -9");
    // It may have finished between the last look and the kill.
    child.wait().expect("reap").code()
}

fn sha(data: &[u8]) -> [u8; 32] {
    Sha256::digest(data).into()
}

/// Every frame of a recording: (stream, number) → hash of its bytes, in
/// the order read; a frame number that comes twice or an unreadable part
/// fails the test.
fn frames_of(path: &Path) -> Vec<((StreamId, u64), [u8; 32])> {
    let recording = Recording::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut frames = Vec::new();
    for event in recording.events(..) {
        let event = event.unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        if let Event::Frame { frame, .. } = event.event {
            frames.push(((frame.profile.stream, frame.number), sha(&frame.data)));
        }
    }
    frames
}

/// The file's hash, to show an input was left untouched.
fn file_hash(path: &Path) -> [u8; 32] {
    sha(&std::fs::read(path).expect("read input"))
}

/// Recover `partial` with `rsbag reindex` into the final name and return
/// it, or `None` when there was nothing to recover (killed before the
/// first frame was on disk), which `reindex` must say with exit 1.
fn recover(partial: &Path, finished: &Path) -> Option<PathBuf> {
    let run = run::rsbag(&["reindex", s(partial)]);
    match run.code {
        Some(0) => {
            let check = run::rsbag(&["check", s(finished)]);
            assert_eq!(
                check.code,
                Some(0),
                "recovered file checks clean: {}",
                check.stdout
            );
            Some(finished.to_path_buf())
        }
        Some(1) => {
            assert!(
                run.stderr.contains("nothing to recover"),
                "reindex {}: {}",
                partial.display(),
                run.stderr
            );
            assert!(!finished.exists());
            None
        }
        code => panic!(
            "reindex {}: exit {code:?}: {}",
            partial.display(),
            run.stderr
        ),
    }
}

/// The frames of `file` are all really recorded: each is the synthetic
/// camera's frame of that number, and each stream's numbers rise from 1 (a
/// gap is a frame the recorder dropped under load and counted, never one
/// made up): no invented frame, none twice. Returns how many there are.
fn all_really_recorded(file: &Path) -> usize {
    let camera = SyntheticDevice::new(SyntheticConfig {
        depth: (320, 240, 30),
        color: (320, 240, 30),
        ..SyntheticConfig::default()
    })
    .expect("camera");
    let recording = Recording::open(file).expect("open");
    let mut last: BTreeMap<StreamId, u64> = BTreeMap::new();
    let mut count = 0;
    for event in recording.events(..) {
        let Event::Frame { frame, .. } = event.expect("readable").event else {
            continue;
        };
        let previous = last.insert(frame.profile.stream, frame.number).unwrap_or(0);
        assert!(
            frame.number > previous,
            "{}: {} #{} after #{previous}",
            file.display(),
            frame.profile.stream,
            frame.number
        );
        let rendered = camera.render(&frame.profile, frame.number).expect("render");
        assert!(
            frame.data == rendered.data,
            "{}: {} #{} is not what the camera gave",
            file.display(),
            frame.profile.stream,
            frame.number
        );
        count += 1;
    }
    count
}

/// `record` killed at random moments: nothing under the final name, and
/// the `.partial` recovers into frames the camera really gave.
fn record_killed(extension: &str, extra: &[&str]) {
    let mut recovered_any = false;
    for seed in seeds() {
        let dir = tempfile::tempdir().expect("tempdir");
        let out = dir.path().join(format!("kill.{extension}"));
        let after = moment(seed, 0.3, 3.5);
        let mut args = vec![
            "record",
            "--synthetic",
            "--duration",
            "20",
            "--depth",
            "320x240@30",
            "--color",
            "320x240@30",
            "--out",
            s(&out),
        ];
        args.extend_from_slice(extra);
        assert_eq!(
            kill_after(&args, after),
            None,
            "seed {seed}: still recording"
        );
        assert!(!out.exists(), "seed {seed}: nothing under the final name");
        let partial = dir.path().join(format!("kill.{extension}.partial"));
        if !partial.exists() {
            continue;
        }
        let Some(file) = recover(&partial, &out) else {
            continue;
        };
        let frames = all_really_recorded(&file);
        recovered_any |= frames > 0;
        eprintln!(
            "record .{extension} {extra:?} seed {seed}: killed at {:.2} s, {frames} frames recovered",
            after.as_secs_f64(),
        );
    }
    assert!(recovered_any, "no seed recovered a frame");
}

#[test]
fn a_killed_lz4_bag_recording_recovers_only_recorded_frames() {
    record_killed("bag", &[]);
}

#[test]
fn a_killed_uncompressed_bag_recording_recovers_only_recorded_frames() {
    record_killed("bag", &["--no-compression"]);
}

#[test]
fn a_killed_db3_recording_recovers_only_recorded_frames() {
    record_killed("db3", &[]);
}

/// A recording to rewrite, made once per test: 4 s of the synthetic
/// camera in `extension`'s format.
fn source(dir: &Path, extension: &str) -> PathBuf {
    let path = dir.join(format!("source.{extension}"));
    run::ok(&[
        "record",
        "--synthetic",
        "--duration",
        "4",
        "--depth",
        "320x240@30",
        "--color",
        "320x240@30",
        "--out",
        s(&path),
    ]);
    path
}

/// A rewrite of `input` killed at random moments: the input untouched;
/// the output absent, or complete when the command finished it first; what
/// a `.partial` left recovers (if at all) into the input's own frames.
fn rewrite_killed(
    input_extension: &str,
    args_of: impl Fn(&Path, &Path) -> Vec<String>,
    out_name: &str,
) {
    let dir = tempfile::tempdir().expect("tempdir");
    let input = source(dir.path(), input_extension);
    let before = file_hash(&input);
    let input_frames: BTreeMap<(StreamId, u64), [u8; 32]> = frames_of(&input).into_iter().collect();
    // How long the whole rewrite takes: kills fall inside it.
    let probe = dir.path().join(format!("probe-{out_name}"));
    let started = Instant::now();
    let args = args_of(&input, &probe);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    run::ok(&args);
    let whole = started.elapsed().as_secs_f64();
    for seed in seeds() {
        let case = dir.path().join(format!("seed{seed}"));
        std::fs::create_dir(&case).expect("mkdir");
        let out = case.join(out_name);
        let args = args_of(&input, &out);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let after = moment(seed, 0.0, whole);
        let code = kill_after(&args, after);
        assert_eq!(
            file_hash(&input),
            before,
            "seed {seed}: the input is untouched"
        );
        match code {
            Some(0) => {
                let check = run::rsbag(&["check", s(&out)]);
                assert_eq!(
                    check.code,
                    Some(0),
                    "seed {seed}: finished output: {}",
                    check.stdout
                );
                continue;
            }
            Some(code) => panic!("seed {seed}: {args:?} failed with {code}"),
            // Killed after its output was renamed into place, before it
            // exited (a millisecond or so under `strace`): the output is
            // whole, the finished probe's frames, never part of them.
            None if out.exists() => {
                assert_eq!(
                    frames_of(&out),
                    frames_of(&probe),
                    "seed {seed}: a killed rewrite left part of {}",
                    out.display()
                );
                continue;
            }
            None => {}
        }
        let partial = case.join(format!("{out_name}.partial"));
        if !partial.is_file() {
            continue;
        }
        // A conversion's temporary file is no recording to rely on, but
        // whatever reindex makes of it holds only the input's frames.
        let run = run::rsbag(&["reindex", s(&partial)]);
        match run.code {
            Some(0) | Some(4) => {
                for (key, hash) in frames_of(&out) {
                    assert_eq!(
                        input_frames.get(&key),
                        Some(&hash),
                        "seed {seed}: {key:?} is not the input's"
                    );
                }
            }
            Some(1) => assert!(!out.exists(), "seed {seed}: {}", run.stderr),
            code => panic!(
                "seed {seed}: reindex of a killed rewrite: exit {code:?}: {}",
                run.stderr
            ),
        }
        eprintln!(
            "{args:?} seed {seed}: killed at {:.2} of {whole:.2} s, reindex exit {:?}",
            after.as_secs_f64(),
            run.code
        );
    }
}

fn strings(parts: &[&str]) -> Vec<String> {
    parts.iter().map(|p| p.to_string()).collect()
}

#[test]
fn a_killed_conversion_to_db3_leaves_the_input_and_no_half_output() {
    rewrite_killed(
        "bag",
        |i, o| strings(&["convert", s(i), "--to", "db3", "--out", s(o)]),
        "out.db3",
    );
}

#[test]
fn a_killed_conversion_to_bag_leaves_the_input_and_no_half_output() {
    rewrite_killed(
        "db3",
        |i, o| strings(&["convert", s(i), "--to", "bag", "--out", s(o)]),
        "out.bag",
    );
}

#[test]
fn a_killed_compress_trim_or_reindex_leaves_the_input_and_no_half_output() {
    rewrite_killed(
        "bag",
        |i, o| strings(&["compress", s(i), "--compression", "none", "--out", s(o)]),
        "out.bag",
    );
    rewrite_killed(
        "bag",
        |i, o| {
            strings(&[
                "trim",
                s(i),
                "--start",
                "0.5",
                "--duration",
                "2",
                "--out",
                s(o),
            ])
        },
        "out.bag",
    );
    rewrite_killed(
        "bag",
        |i, o| strings(&["reindex", s(i), "--out", s(o)]),
        "out.bag",
    );
}

#[test]
fn a_killed_ros2_export_leaves_no_half_bag_directory() {
    for storage in ["sqlite3", "mcap"] {
        let dir = tempfile::tempdir().expect("tempdir");
        let input = source(dir.path(), "bag");
        let before = file_hash(&input);
        let export = |out: &Path| {
            strings(&[
                "convert",
                s(&input),
                "--to",
                "ros2",
                "--storage",
                storage,
                "--out",
                s(out),
            ])
        };
        let probe = dir.path().join(format!("{storage}-probe"));
        run::ok(
            &export(&probe)
                .iter()
                .map(String::as_str)
                .collect::<Vec<_>>(),
        );
        let whole = frames_of(&probe);
        assert!(!whole.is_empty());
        for seed in seeds() {
            let out = dir.path().join(format!("{storage}-{seed}"));
            let args = export(&out);
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            match kill_after(&args, moment(seed, 0.0, 1.0)) {
                Some(0) => assert!(
                    out.join("metadata.yaml").is_file(),
                    "a finished export is whole"
                ),
                Some(code) => panic!("{storage} seed {seed}: failed with {code}"),
                // Killed after its directory was renamed into place, before
                // it exited: the export is whole, the probe's frames.
                None if out.exists() => assert_eq!(
                    frames_of(&out),
                    whole,
                    "{storage} seed {seed}: a killed export left part of its directory"
                ),
                None => {}
            }
            assert_eq!(file_hash(&input), before);
        }
    }
}

/// What the system (or SQLite) says of a full disk.
fn disk_full(text: &str) -> bool {
    text.contains("No space left on device") || text.contains("database or disk is full")
}

#[test]
fn a_full_disk_fails_a_conversion_and_leaves_nothing() {
    let dir = tempfile::tempdir().expect("tempdir");
    let input = source(dir.path(), "bag");
    for (target, name) in [("db3", "c.db3"), ("bag", "c.bag"), ("ros2", "c")] {
        let (text, code) = run::on_small_tmpfs(
            "2m",
            &format!(
                "\"$R\" convert \"{}\" --to {target} --out \"$M/{name}\"\necho \"exit=$?\"\necho \"left=[$(ls -A \"$M\")]\"",
                s(&input)
            ),
        );
        assert_eq!(code, Some(0), "{text}");
        assert!(text.contains("exit=1"), "--to {target}: {text}");
        assert!(disk_full(&text), "--to {target}: {text}");
        // No output, no partial file.
        assert!(text.contains("left=[]"), "--to {target}: {text}");
    }
}

#[test]
fn a_read_only_directory_is_a_clear_error_before_anything_is_written() {
    let dir = tempfile::tempdir().expect("tempdir");
    let input = source(dir.path(), "bag");
    let (text, code) = run::on_small_tmpfs(
        "1m",
        &format!(
            "mount -o remount,ro \"$M\" || exit 98\n\
             \"$R\" record --synthetic --duration 1 --out \"$M/r.bag\"; echo \"record=$?\"\n\
             \"$R\" convert \"{0}\" --to db3 --out \"$M/c.db3\"; echo \"convert=$?\"\n\
             \"$R\" trim \"{0}\" --duration 1 --out \"$M/t.bag\"; echo \"trim=$?\"",
            s(&input)
        ),
    );
    assert_eq!(code, Some(0), "{text}");
    for (command, file) in [("record", "r.bag"), ("convert", "c.db3"), ("trim", "t.bag")] {
        assert!(text.contains(&format!("{command}=1")), "{command}: {text}");
        assert!(text.contains(file), "{command} names the file: {text}");
    }
    assert!(text.contains("Read-only file system"), "{text}");
}
