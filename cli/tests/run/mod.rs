//! Running the `rsbag` binary, and every other program a test of the
//! command line runs to its end, under one timeout.
// Each test binary uses a part of it.
#![allow(dead_code)]

pub use crate::common::process::OutputInTime;
use crate::common::process::{spawn, TIMEOUT};
use std::process::Command;
use std::time::{Duration, Instant};

/// What a run of the binary left.
pub struct Run {
    /// Exit code; `None` when killed by a signal.
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

/// The built `rsbag` with `args`.
fn rsbag_command(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_rsbag"));
    command.args(args);
    command
}

impl Run {
    /// A run that exited with `code` after printing `stdout` and `stderr`.
    fn new(code: Option<i32>, stdout: &[u8], stderr: &[u8]) -> Run {
        Run {
            code,
            stdout: String::from_utf8_lossy(stdout).into_owned(),
            stderr: String::from_utf8_lossy(stderr).into_owned(),
        }
    }
}

/// Run `rsbag args` with `env` added, to the end (a run longer than
/// [`TIMEOUT`] fails the test as a hang).
pub fn rsbag_env(args: &[&str], env: &[(String, String)]) -> Run {
    let out = rsbag_command(args)
        .envs(env.iter().map(|(k, v)| (k, v)))
        .output_in_time()
        .expect("run rsbag");
    Run::new(out.status.code(), &out.stdout, &out.stderr)
}

/// Run `rsbag args` to the end (a run longer than [`TIMEOUT`] fails the
/// test as a hang).
pub fn rsbag(args: &[&str]) -> Run {
    rsbag_env(args, &[])
}

/// What `command` printed; it must succeed.
pub fn stdout_of(command: &mut Command) -> String {
    let out = command.output_in_time().expect("run");
    assert!(
        out.status.success(),
        "{:?}: {}",
        command,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A shell running `command` in `dir` with the built `rsbag` first on the
/// PATH.
pub fn shell(dir: &std::path::Path, command: &str) -> Command {
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_rsbag"))
        .parent()
        .expect("bin dir");
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut shell = Command::new("sh");
    shell
        .arg("-c")
        .arg(command)
        .current_dir(dir)
        .env("PATH", path);
    shell
}

/// Run and expect success (and a quiet stderr: no progress bar on a pipe);
/// returns stdout.
pub fn ok(args: &[&str]) -> String {
    let run = rsbag(args);
    assert_eq!(run.code, Some(0), "rsbag {args:?}: {}", run.stderr);
    assert_eq!(run.stderr, "", "rsbag {args:?} wrote to stderr");
    run.stdout
}

/// `convert source --to ros2 --storage mcap --mcap-compression none --out
/// out` (uncompressed chunks, for tests that change their bytes): the
/// path of the one `.mcap` file it wrote into `out`.
pub fn mcap_export(source: &std::path::Path, out: &std::path::Path) -> std::path::PathBuf {
    let (source, out) = (
        source.to_str().expect("utf-8"),
        out.to_str().expect("utf-8"),
    );
    let args = [
        "convert",
        source,
        "--to",
        "ros2",
        "--storage",
        "mcap",
        "--mcap-compression",
        "none",
        "--out",
        out,
    ];
    ok(&args);
    let mut files = std::fs::read_dir(out)
        .expect("the export")
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|e| e == "mcap"));
    let file = files.next().expect("an .mcap file");
    assert!(files.next().is_none(), "one .mcap file in {out}");
    file
}

/// [`ok`] for recordings that share no clock, read on one timeline as
/// given: success, and on stderr only the warning that they are not one
/// session; returns stdout.
pub fn ok_not_one_session(args: &[&str]) -> String {
    let run = rsbag(args);
    assert_eq!(run.code, Some(0), "rsbag {args:?}: {}", run.stderr);
    let warned = run.stderr.starts_with("rsbag: warning: not one session: ")
        && run.stderr.lines().count() == 1;
    assert!(warned, "rsbag {args:?} wrote to stderr: {}", run.stderr);
    run.stdout
}

/// Decode a PNG: width, height, color type, bit depth, pixels.
pub fn decode_png(path: &std::path::Path) -> (u32, u32, png::ColorType, png::BitDepth, Vec<u8>) {
    let file = std::io::BufReader::new(std::fs::File::open(path).expect("png file"));
    let mut reader = png::Decoder::new(file).read_info().expect("png header");
    let mut pixels = vec![0; reader.output_buffer_size().expect("size")];
    let info = reader.next_frame(&mut pixels).expect("png data");
    pixels.truncate(info.buffer_size());
    (
        info.width,
        info.height,
        info.color_type,
        info.bit_depth,
        pixels,
    )
}

/// The samples of a 16-bit grey PNG the tool wrote (a depth frame), as
/// little-endian bytes: a Z16 frame's own (PNG keeps them big-endian).
pub fn depth_png(path: &std::path::Path) -> Vec<u8> {
    let (.., pixels) = decode_png(path);
    pixels.chunks_exact(2).flat_map(|p| [p[1], p[0]]).collect()
}

/// The colour `--colorize` gives a depth of `depth` units of `units`
/// meters over `near`-`far` meters, computed here from the documented map
/// (jet: dark blue near, through cyan, yellow, to dark red far; black
/// where there is no depth).
pub fn jet(depth: u16, units: f32, near: f32, far: f32) -> [u8; 3] {
    if depth == 0 {
        return [0, 0, 0];
    }
    let t = ((f32::from(depth) * units - near) / (far - near)).clamp(0.0, 1.0);
    let c = |x: f32| ((1.5 - (4.0 * t - x).abs()).clamp(0.0, 1.0) * 255.0).round() as u8;
    [c(3.0), c(2.0), c(1.0)]
}

/// Run `rsbag args` to the end as [`rsbag`] does; also the largest
/// resident size the process reached, in MB (its own, from `wait4`, not
/// that of other children of the test).
// The child is reaped by `wait4`, which `Child::wait` cannot do: it
// would not give the child's own peak.
#[allow(clippy::zombie_processes)]
pub fn rsbag_peak_mb(args: &[&str]) -> (Run, i64) {
    let (mut child, stdout, stderr) = spawn(&mut rsbag_command(args)).expect("run rsbag");
    let pid = child.id() as libc::pid_t;
    let started = Instant::now();
    let (status, usage) = loop {
        let mut status = 0;
        // SAFETY: wait4 fills the status and the struct it is given.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        let waited = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        assert!(waited >= 0, "wait4: {}", std::io::Error::last_os_error());
        if waited == pid {
            break (status, usage);
        }
        if started.elapsed() > TIMEOUT {
            let _ = child.kill();
            panic!("rsbag {args:?} hangs");
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
    let run = Run::new(
        code,
        &stdout.join().expect("stdout"),
        &stderr.join().expect("stderr"),
    );
    (run, usage.ru_maxrss / 1024)
}

/// Run `script` in a private mount namespace (as a user namespace's root,
/// so that no privileges are needed) with a small tmpfs at `$M`; `$R` is
/// the binary. Returns what the script printed and its exit code.
pub fn on_small_tmpfs(size: &str, script: &str) -> (String, Option<i32>) {
    let mount = tempfile::tempdir().expect("mount point");
    let out = std::process::Command::new("unshare")
        .args(["-Urm", "sh", "-c"])
        .arg(format!(
            "mount -t tmpfs -o size={size} tmpfs \"$M\" || exit 99\n{script}"
        ))
        .env("M", mount.path())
        .env("R", env!("CARGO_BIN_EXE_rsbag"))
        .output_in_time()
        .expect("unshare (util-linux)");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_ne!(
        out.status.code(),
        Some(99),
        "tmpfs could not be mounted: {text}"
    );
    (text, out.status.code())
}
