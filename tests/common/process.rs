//! Running a program to its end under one timeout, so that no test's
//! process can hang the test run.

use std::io::Read;
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// A command that takes longer than this hangs.
pub const TIMEOUT: Duration = Duration::from_secs(120);

/// A child process and the threads reading its stdout and stderr.
pub type Started = (Child, JoinHandle<Vec<u8>>, JoinHandle<Vec<u8>>);

/// Start `command` with an empty stdin, its stdout and stderr each read to
/// the end by a thread of its own (so a full pipe never holds it up).
pub fn spawn(command: &mut Command) -> std::io::Result<Started> {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    let reader = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            bytes
        })
    };
    let stdout = reader(Box::new(child.stdout.take().expect("stdout")));
    let stderr = reader(Box::new(child.stderr.take().expect("stderr")));
    Ok((child, stdout, stderr))
}

/// Wait for `child`; one that runs longer than [`TIMEOUT`] is killed and
/// fails the test as a hang of `what`.
fn wait(child: &mut Child, what: &dyn std::fmt::Debug) -> ExitStatus {
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("wait for the child") {
            return status;
        }
        if started.elapsed() > TIMEOUT {
            let _ = child.kill();
            panic!("{what:?} hangs");
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// [`Command::output`] for the tests: every process a test runs to its end
/// goes through this, so that none can hang the test run.
pub trait OutputInTime {
    /// Run to the end with stdout and stderr captured and an empty stdin;
    /// a run longer than [`TIMEOUT`] is killed and fails the test as a
    /// hang.
    fn output_in_time(&mut self) -> std::io::Result<Output>;
}

impl OutputInTime for Command {
    fn output_in_time(&mut self) -> std::io::Result<Output> {
        let (mut child, stdout, stderr) = spawn(self)?;
        let status = wait(&mut child, self);
        Ok(Output {
            status,
            stdout: stdout.join().expect("stdout"),
            stderr: stderr.join().expect("stderr"),
        })
    }
}
