//! Real servers on 127.0.0.1 for the tests of reading recordings by URL:
//! Debian's nginx serving a directory (range requests; its access log
//! counts the requests and bytes sent) and moto's standalone S3 server.
//! Each is started by a test and stopped when dropped.
// Each test binary uses a part of it.
#![allow(dead_code)]

use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A port free on 127.0.0.1 now.
pub fn free_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind a free port");
    listener.local_addr().expect("address").port()
}

/// Wait until something listens on `port` (a server that does not start
/// within 20 s fails the test).
fn wait_listening(port: u16, child: &mut Child, what: &str) {
    let started = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        if let Ok(Some(status)) = child.try_wait() {
            panic!("{what} exited at start ({status})");
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "{what} does not start"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A child process killed (by its own id) when dropped.
struct Server {
    child: Child,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What nginx's access log says of the requests since the last
/// [`Nginx::take_log`].
#[derive(Debug, Clone, Default)]
pub struct Served {
    /// Requests answered.
    pub requests: u64,
    /// Bytes sent (headers and bodies), as nginx counts them.
    pub bytes: u64,
    /// Each request's line: method, path, status, bytes, range.
    pub lines: Vec<String>,
}

/// nginx serving `root` on 127.0.0.1, in the foreground, with its
/// configuration and logs in a directory of its own.
pub struct Nginx {
    server: Server,
    pub port: u16,
    dir: tempfile::TempDir,
}

impl Nginx {
    /// Serve `root` (an absolute path).
    pub fn serve(root: &Path) -> Nginx {
        let dir = tempfile::tempdir().expect("temp dir");
        let port = free_port();
        let d = dir.path().display();
        let config = format!(
            "daemon off;\nmaster_process off;\nworker_processes 1;\npid {d}/nginx.pid;\n\
             error_log {d}/error.log;\nevents {{ worker_connections 64; }}\n\
             http {{\n  log_format counted '$request_method $uri $status $bytes_sent \"$http_range\"';\n\
             \x20 access_log {d}/access.log counted;\n  client_body_temp_path {d}/body;\n\
             \x20 server {{\n    listen 127.0.0.1:{port};\n    root {};\n  }}\n}}\n",
            root.display()
        );
        std::fs::write(dir.path().join("nginx.conf"), config).expect("write nginx.conf");
        let nginx = ["/usr/sbin/nginx", "nginx"]
            .into_iter()
            .find(|n| Path::new(n).is_file())
            .unwrap_or("nginx");
        let mut child = Command::new(nginx)
            .arg("-p")
            .arg(dir.path())
            .arg("-e")
            .arg(dir.path().join("error.log"))
            .arg("-c")
            .arg(dir.path().join("nginx.conf"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("nginx must be installed (scripts/install-test-deps.sh installs it)");
        wait_listening(port, &mut child, "nginx");
        Nginx {
            server: Server { child },
            port,
            dir,
        }
    }

    /// The URL of `name` under the served directory.
    pub fn url(&self, name: &str) -> String {
        format!("http://127.0.0.1:{}/{name}", self.port)
    }

    /// What was served since the last call, from the access log (each
    /// request is logged when it ends: the log is read once it holds no
    /// new line for a while).
    pub fn take_log(&self) -> Served {
        let log = self.dir.path().join("access.log");
        let mut text = std::fs::read_to_string(&log).unwrap_or_default();
        loop {
            std::thread::sleep(Duration::from_millis(150));
            let again = std::fs::read_to_string(&log).unwrap_or_default();
            if again == text {
                break;
            }
            text = again;
        }
        let _ = std::fs::write(&log, "");
        let lines: Vec<String> = text.lines().map(str::to_owned).collect();
        let bytes = lines
            .iter()
            .filter_map(|l| l.split(' ').nth(3)?.parse::<u64>().ok())
            .sum();
        Served {
            requests: lines.len() as u64,
            bytes,
            lines,
        }
    }
}

/// moto's standalone S3 server on 127.0.0.1, with a bucket.
pub struct Moto {
    server: Server,
    pub port: u16,
}

/// The bucket the tests put objects in.
pub const BUCKET: &str = "recordings";

impl Moto {
    /// Start the server and make [`BUCKET`].
    pub fn start() -> Moto {
        let port = free_port();
        let mut child = Command::new("python3")
            .args([
                "-m",
                "moto.server",
                "-H",
                "127.0.0.1",
                "-p",
                &port.to_string(),
            ])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("moto's server (pip install 'moto[server]': scripts/install-test-deps.sh)");
        wait_listening(port, &mut child, "moto_server");
        let moto = Moto {
            server: Server { child },
            port,
        };
        moto.boto(&format!("s3.create_bucket(Bucket='{BUCKET}')"));
        moto
    }

    /// The environment that points the AWS clients at this server.
    pub fn env(&self) -> Vec<(String, String)> {
        [
            (
                "AWS_ENDPOINT_URL",
                format!("http://127.0.0.1:{}", self.port),
            ),
            ("AWS_ALLOW_HTTP", "true".into()),
            ("AWS_ACCESS_KEY_ID", "testing".into()),
            ("AWS_SECRET_ACCESS_KEY", "testing".into()),
            ("AWS_REGION", "us-east-1".into()),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v))
        .collect()
    }

    /// Put the file `path` in the bucket as `key`; its `s3://` URL.
    pub fn put(&self, path: &Path, key: &str) -> String {
        self.boto(&format!(
            "s3.upload_file({:?}, '{BUCKET}', {key:?})",
            path.display().to_string()
        ));
        format!("s3://{BUCKET}/{key}")
    }

    /// Run `statement` in Python with `s3`, a boto3 client of this server.
    fn boto(&self, statement: &str) {
        let script = format!(
            "import boto3\ns3 = boto3.client('s3', endpoint_url='http://127.0.0.1:{}', \
             aws_access_key_id='testing', aws_secret_access_key='testing', region_name='us-east-1')\n{statement}\n",
            self.port
        );
        let status = Command::new("python3")
            .args(["-c", &script])
            .status()
            .expect("python3 with boto3");
        assert!(status.success(), "boto3: {statement}");
    }
}

/// The repository's root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace")
        .to_path_buf()
}
