//! A session recorded by librealsense itself, for the session tests:
//! tests/interop/rs_session.py records CAM-A, CAM-B and CAM-C with
//! librealsense 2.55 into `.bag`s and CAM-D with 2.59 into a `.db3`, at
//! once, started at different moments, CAM-C with frames 15..24 dropped;
//! or CAM-A and CAM-E, which has an IMU.

use crate::run::OutputInTime;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// The recordings and what rs_session.py says it fed.
pub struct Recorded {
    /// Holds the files.
    pub dir: tempfile::TempDir,
    /// Host ms of the session's moment 0 (CAM-A's first frame).
    pub t0: f64,
    /// Each camera as rs_session.py describes it (`serial`, `file`,
    /// `start_ms`, `origin_ms`, `rate`, `frames`), CAM-A..CAM-C then CAM-D.
    pub cameras: Vec<Value>,
}

/// Record the session on `clock` (`global` or `hardware`).
pub fn record(clock: &str) -> Recorded {
    record_cameras(
        clock,
        &[("python3".into(), "CAM-A,CAM-B,CAM-C", "bag"), {
            let python259 = crate::common::python_259_path();
            assert!(python259.exists(), "run scripts/install-test-deps.sh");
            (python259, "CAM-D", "db3")
        }],
    )
}

/// Record CAM-A (depth and colour) and CAM-E (depth and an IMU) with
/// librealsense 2.55 on `clock`.
pub fn record_with_imu(clock: &str) -> Recorded {
    record_cameras(clock, &[("python3".into(), "CAM-A,CAM-E", "bag")])
}

/// Record a session on `clock` at once with each (python, cameras, file
/// extension) of `recorders`.
fn record_cameras(clock: &str, recorders: &[(PathBuf, &str, &str)]) -> Recorded {
    let dir = tempfile::tempdir().expect("tempdir");
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("clock")
        .as_secs_f64();
    // Moment 0 after every interpreter has loaded pyrealsense2.
    let t0 = format!("{:.3}", now * 1000.0 + 2500.0);
    let script = crate::common::root().join("tests/interop/rs_session.py");
    let out = path_str(dir.path()).to_owned();
    let spawn = |(python, cameras, ext): &(PathBuf, &str, &str)| {
        Command::new(python)
            .arg(&script)
            .args([&out, "--cameras", cameras, "--clock", clock, "--t0", &t0])
            .args(["--ext", ext])
            .output_in_time()
    };
    let outputs: Vec<_> = std::thread::scope(|scope| {
        let running: Vec<_> = (recorders.iter())
            .map(|recorder| scope.spawn(move || spawn(recorder)))
            .collect();
        (running.into_iter())
            .map(|r| r.join().expect("a recorder"))
            .collect()
    });
    let mut cameras = Vec::new();
    let mut t0 = 0.0;
    for output in outputs {
        let output = output.expect("run python");
        assert!(
            output.status.success(),
            "rs_session.py: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        let description: Value = serde_json::from_slice(&output.stdout).expect("json");
        t0 = description["t0"].as_f64().expect("t0");
        cameras.extend(description["cameras"].as_array().expect("cameras").clone());
    }
    Recorded { dir, t0, cameras }
}

/// The most any of `frames` (rs_session.py's) was fed after the host time
/// planned for it, ms: a loaded host delays the feeding, and the frames'
/// arrival times with it.
pub fn late_ms<'f>(frames: impl IntoIterator<Item = &'f Value>) -> f64 {
    let late =
        |f: &Value| f["fed_ms"].as_f64().expect("fed") - f["host_ms"].as_f64().expect("host");
    frames.into_iter().map(late).fold(0.0, f64::max)
}

/// How far a sync report's offset between two cameras, on arrival times,
/// may be from the truth when their frames were fed up to `late_ms` late:
/// a frame period, and what the delays move the straight lines fitted to
/// the arrivals (at a line's end, up to 5/3 of the largest delay; arrival
/// times are whole ms).
pub fn offset_tolerance_ms(late_ms: f64) -> f64 {
    1000.0 / 30.0 + 5.0 / 3.0 * (late_ms + 1.0)
}

fn path_str(path: &Path) -> &str {
    path.to_str().expect("utf-8 path")
}
