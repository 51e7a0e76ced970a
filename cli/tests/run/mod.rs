//! Running the `rsbag` binary, for the command line's tests.
// Each test binary uses a part of it.
#![allow(dead_code)]

use std::io::Read;
use std::process::{Child, Command, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// A command that takes longer than this hangs.
const TIMEOUT: Duration = Duration::from_secs(60);

/// What a run of the binary left.
pub struct Run {
    /// Exit code; `None` when killed by a signal.
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

/// Start `rsbag args`, its stdout and stderr each read to the end by a
/// thread of its own (so a full pipe never holds it up).
fn spawn(args: &[&str]) -> (Child, JoinHandle<String>, JoinHandle<String>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_rsbag"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run rsbag");
    let reader = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut text = String::new();
            let _ = pipe.read_to_string(&mut text);
            text
        })
    };
    let stdout = reader(Box::new(child.stdout.take().expect("stdout")));
    let stderr = reader(Box::new(child.stderr.take().expect("stderr")));
    (child, stdout, stderr)
}

/// Run `rsbag args` to the end (a run longer than [`TIMEOUT`] fails the
/// test as a hang).
pub fn rsbag(args: &[&str]) -> Run {
    let (mut child, stdout, stderr) = spawn(args);
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for rsbag") {
            break status;
        }
        if started.elapsed() > TIMEOUT {
            let _ = child.kill();
            panic!("rsbag {args:?} hangs");
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    Run {
        code: status.code(),
        stdout: stdout.join().expect("stdout"),
        stderr: stderr.join().expect("stderr"),
    }
}

/// Run and expect success (and a quiet stderr: no progress bar on a pipe);
/// returns stdout.
pub fn ok(args: &[&str]) -> String {
    let run = rsbag(args);
    assert_eq!(run.code, Some(0), "rsbag {args:?}: {}", run.stderr);
    assert_eq!(run.stderr, "", "rsbag {args:?} wrote to stderr");
    run.stdout
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
    let (mut child, stdout, stderr) = spawn(args);
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
    let run = Run {
        code,
        stdout: stdout.join().expect("stdout"),
        stderr: stderr.join().expect("stderr"),
    };
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
        .output()
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
