//! A running `rsbag view`, for the viewer's browser tests, and what a
//! viewer test script (`viewer/tests/*.mjs`, playwright-core driving
//! Chromium) reports of its page.
// Each test binary uses a part of it.
#![allow(dead_code)]

use crate::run::OutputInTime;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

/// A running `rsbag view ... --no-browser`, killed when dropped.
pub struct Served {
    child: Child,
    /// The page's address.
    pub url: String,
    /// The line that named it.
    pub banner: String,
}

impl Served {
    /// `rsbag view FILE --no-browser`.
    pub fn start(file: &Path) -> Served {
        let mut command = Command::new(env!("CARGO_BIN_EXE_rsbag"));
        command.arg("view").arg(file).arg("--no-browser");
        Served::run(command)
    }

    /// `command` (an `rsbag view`), once it printed its address.
    pub fn run(mut command: Command) -> Served {
        let mut child = command
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("run rsbag view");
        let mut banner = String::new();
        BufReader::new(child.stdout.take().expect("stdout"))
            .read_line(&mut banner)
            .expect("read the address");
        let url = banner
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no address in {banner:?}"))
            .to_owned();
        Served { child, url, banner }
    }

    /// Ctrl-C: the server stops and `rsbag view` exits 0.
    pub fn stop(self) {
        self.stop_with(0);
    }

    /// Ctrl-C: the server stops and `rsbag view` exits with `code` (4 for
    /// a damaged recording, as every command that reads one).
    pub fn stop_with(mut self, code: i32) {
        let pid = self.child.id() as libc::pid_t;
        // SAFETY: signalling our own child process.
        unsafe { libc::kill(pid, libc::SIGINT) };
        let started = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                assert_eq!(status.code(), Some(code), "rsbag view ended with {status}");
                return;
            }
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "Ctrl-C did not stop rsbag view"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What `viewer/tests/SCRIPT` printed of the page at `url` (its JSON),
/// after checking that it ran and the page logged no error.
pub fn browse(script: &str, url: &str, extra: &[&str]) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../viewer/tests")
        .join(script);
    let out = Command::new("node")
        .arg(path)
        .arg(url)
        .args(extra)
        .output_in_time()
        .expect(
            "run node (scripts/install-test-deps.sh installs it, playwright-core and Chromium)",
        );
    let text = String::from_utf8_lossy(&out.stdout);
    let page: Value = serde_json::from_str(text.trim()).unwrap_or_else(|e| {
        panic!(
            "{script} printed no JSON ({e}): {text}\n{}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    assert!(
        page["failure"].is_null(),
        "{}; the page's last status: {}",
        page["failure"],
        page["status"]
    );
    assert_eq!(
        page["errors"],
        Value::Array(vec![]),
        "the page logged errors"
    );
    page
}
