//! Recordings read in place by URL: `rsbag info|frames|check|convert URL`
//! over HTTP from Debian's nginx, over `s3://` from moto's S3 server, over
//! `az://` from Azurite and over `gs://` from fake-gcs-server, all on
//! 127.0.0.1 and started by the tests, give exactly what the same commands
//! give for the local files; and they transfer only what is needed,
//! counted at the server.

use crate::run::{mcap_export, ok, rsbag, rsbag_env, Run};
use crate::servers;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use servers::{root, Azurite, FakeGcs, Moto, Nginx, ObjectServer};

/// `run` failed (with exit `code` when given, else any but 0) with an
/// error that names every one of `needles`, and did not panic.
fn assert_clear_error(run: &Run, code: Option<i32>, needles: &[&str]) {
    match code {
        Some(code) => assert_eq!(run.code, Some(code), "{}", run.stderr),
        None => assert_ne!(run.code, Some(0), "{}", run.stderr),
    }
    for needle in needles {
        assert!(
            run.stderr.contains(needle),
            "not naming {needle:?}: {}",
            run.stderr
        );
    }
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
}

/// The recordings served, copied into `dir`: librealsense 2.55 bags (LZ4
/// and uncompressed), an rsbag LZ4 recording, and `.db3` files librealsense
/// 2.59 wrote.
fn recordings(dir: &Path) -> Vec<PathBuf> {
    let samples = root().join("sample_bags");
    let db3 = root().join("tests/fixtures/reference/db3");
    let files = [
        samples.join("librealsense-depth-color-lz4.bag"),
        samples.join("librealsense-stereo-none.bag"),
        samples.join("librealsense-motion-lz4.bag"),
        samples.join("rsbag-synthetic-lz4.bag"),
        db3.join("rec259_dc.db3"),
        db3.join("rec259_dc_raw.db3"),
        db3.join("rec259_imu.db3"),
    ];
    files
        .iter()
        .map(|file| {
            let to = dir.join(file.file_name().unwrap());
            std::fs::copy(file, &to).expect("copy a recording");
            to
        })
        .collect()
}

/// `rsbag args` on the local file and on its URL give the same exit code
/// and the same output (the URL in place of the path).
fn same_as_local(args: &[&str], local: &Path, url: &str, env: &[(String, String)]) {
    let with = |file: &str| -> Vec<String> {
        args.iter()
            .map(|a| {
                if *a == "FILE" {
                    file.to_owned()
                } else {
                    (*a).to_owned()
                }
            })
            .collect()
    };
    let local_text = local.display().to_string();
    let local_args = with(&local_text);
    let here = rsbag(&local_args.iter().map(String::as_str).collect::<Vec<_>>());
    let remote_args = with(url);
    let there = rsbag_env(
        &remote_args.iter().map(String::as_str).collect::<Vec<_>>(),
        env,
    );
    assert_eq!(
        here.code, there.code,
        "rsbag {remote_args:?}: exit code; stderr: {}",
        there.stderr
    );
    assert!(
        !here.stdout.is_empty() || !here.stderr.is_empty(),
        "rsbag {local_args:?} printed nothing"
    );
    assert_eq!(
        here.stdout,
        there.stdout.replace(url, &local_text),
        "rsbag {remote_args:?}: stdout differs from the local file's; stderr: {}",
        there.stderr
    );
    // `reindex` writes beside its input: a URL's is downloaded first.
    let reindex = format!("run `rsbag reindex {local_text}`");
    assert_eq!(
        here.stderr,
        (there.stderr.replace(url, &local_text))
            .replace("download it and run `rsbag reindex` on the copy", &reindex),
        "rsbag {remote_args:?}: stderr differs from the local file's"
    );
}

/// The commands compared, `FILE` standing for the recording.
const COMMANDS: [&[&str]; 5] = [
    &["info", "FILE"],
    &["info", "--json", "FILE"],
    &["frames", "--json", "FILE"],
    &["frames", "FILE", "--index", "3"],
    &["check", "FILE"],
];

#[test]
fn bags_over_http_read_as_the_local_files() {
    let dir = tempfile::tempdir().unwrap();
    let mut files = recordings(dir.path());
    // A recording cut off while it was written: no index, read by a scan,
    // reported as damaged (the same findings and exit codes).
    let whole = std::fs::read(&files[3]).unwrap();
    let cut = dir.path().join("cut.bag");
    std::fs::write(&cut, &whole[..whole.len() * 2 / 3]).unwrap();
    files.push(cut);
    let nginx = Nginx::serve(dir.path());
    for file in &files {
        let url = nginx.url(file.file_name().unwrap().to_str().unwrap());
        for args in COMMANDS {
            same_as_local(args, file, &url, &[]);
        }
    }
    let served = nginx.take_log();
    assert!(
        served.lines.iter().all(|l| l.contains(" 206 ")),
        "every request is a range request: {:?}",
        served.lines
    );
}

/// Every recording put in `store` reads by its URL as the local file; a
/// missing object and a store where nothing listens are I/O errors (exit
/// 1) that name the URL, never damage.
fn object_store_reads_as_the_local_files(store: &dyn ObjectServer) {
    let dir = tempfile::tempdir().unwrap();
    let files = recordings(dir.path());
    let env = store.env();
    let mut url = String::new();
    for file in &files {
        url = store.put(
            file,
            &format!("lab/{}", file.file_name().unwrap().to_str().unwrap()),
        );
        for args in COMMANDS {
            same_as_local(args, file, &url, &env);
        }
    }
    let missing = url.replace("lab/", "lab/no-such-");
    let refused = store.env_at(servers::free_port());
    for (url, env, cause) in [
        (&missing, &env, "not found"),
        (&url, &refused, "connection refused"),
    ] {
        for command in [&["info"][..], &["frames", "--json"], &["check"]] {
            let run = rsbag_env(&[command, &[url.as_str()]].concat(), env);
            assert_clear_error(&run, Some(1), &[url, cause]);
            assert!(run.stdout.is_empty(), "{}", run.stdout);
            for word in ["damaged", "reindex"] {
                assert!(!run.stderr.contains(word), "{}", run.stderr);
            }
        }
    }
}

#[test]
fn bags_over_s3_read_as_the_local_files() {
    object_store_reads_as_the_local_files(&Moto::start());
}

/// `az://` from Azurite, pointed at by AZURE_STORAGE_USE_EMULATOR and
/// AZURITE_BLOB_STORAGE_URL.
#[test]
fn bags_over_azure_read_as_the_local_files() {
    object_store_reads_as_the_local_files(&Azurite::start());
}

/// `gs://` from fake-gcs-server, pointed at by GOOGLE_SERVICE_ACCOUNT_KEY
/// (no OAuth, the server's base URL).
#[test]
fn bags_over_gcs_read_as_the_local_files() {
    object_store_reads_as_the_local_files(&FakeGcs::start());
}

/// `convert URL` writes what `convert FILE` writes, byte for byte: a
/// `.bag` librealsense plays, and PNGs.
#[test]
fn convert_over_http_writes_what_the_local_file_gives() {
    let dir = tempfile::tempdir().unwrap();
    let files = recordings(dir.path());
    let nginx = Nginx::serve(dir.path());
    let out = tempfile::tempdir().unwrap();
    for (i, file) in files.iter().enumerate() {
        let url = nginx.url(file.file_name().unwrap().to_str().unwrap());
        for (to, output) in [("bag", "out.bag"), ("png", "png")] {
            let mut written = Vec::new();
            let mut codes = Vec::new();
            for (side, input) in [("local", file.to_str().unwrap()), ("remote", url.as_str())] {
                let output = out.path().join(format!("{i}-{side}-{output}"));
                let run = rsbag(&[
                    "convert",
                    input,
                    "--to",
                    to,
                    "--out",
                    output.to_str().unwrap(),
                ]);
                codes.push((run.code, run.stderr.replace(input, "FILE")));
                if run.code == Some(0) {
                    written.push(contents(&output));
                }
            }
            // A motion-only recording has no PNG to write: the same error.
            assert_eq!(codes[0], codes[1], "{} --to {to}", file.display());
            if codes[0].0 != Some(0) {
                assert_eq!(to, "png", "{}: {:?}", file.display(), codes[0]);
                continue;
            }
            assert!(
                !written[0].is_empty(),
                "{}: nothing written",
                file.display()
            );
            assert!(
                written[0] == written[1],
                "{} --to {to}: not the same files",
                file.display()
            );
        }
    }
}

/// The bytes of a file, or of every file in a directory (by name).
fn contents(path: &Path) -> Vec<(String, Vec<u8>)> {
    if path.is_file() {
        return vec![(String::new(), std::fs::read(path).unwrap())];
    }
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(path)
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&p).unwrap(),
            )
        })
        .collect();
    files.sort();
    files
}

/// A fault-injecting proxy (cli/tests/servers/fault_proxy.py) in front of
/// nginx: faults are chosen by the first part of the URL's path.
struct FaultProxy {
    child: std::process::Child,
    port: u16,
}

impl FaultProxy {
    fn start(upstream: &Nginx) -> FaultProxy {
        let port = servers::free_port();
        let script = root().join("cli/tests/servers/fault_proxy.py");
        let child = Command::new("python3")
            .arg(script)
            .args([port.to_string(), upstream.port.to_string()])
            .stdin(Stdio::null())
            .spawn()
            .expect("python3");
        let started = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "the proxy does not start"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        FaultProxy { child, port }
    }

    fn url(&self, fault: &str, name: &str) -> String {
        format!("http://127.0.0.1:{}/{fault}/{name}", self.port)
    }
}

impl Drop for FaultProxy {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Short timeouts and few retries, so that a stall is seen in seconds.
fn impatient() -> Vec<(String, String)> {
    vec![
        ("RSBAG_REMOTE_TIMEOUT".into(), "2".into()),
        ("RSBAG_REMOTE_RETRIES".into(), "3".into()),
    ]
}

#[test]
fn network_faults_are_retried_or_reported_never_mixed() {
    let dir = tempfile::tempdir().unwrap();
    let files = recordings(dir.path());
    // A larger file of several chunks, and another version of it.
    let lz4 = &files[3];
    let name = lz4.file_name().unwrap().to_str().unwrap();
    std::fs::copy(&files[0], dir.path().join(format!("{name}.new"))).unwrap();
    let nginx = Nginx::serve(dir.path());
    let proxy = FaultProxy::start(&nginx);
    let env = impatient();
    let local = rsbag(&["frames", "--json", lz4.to_str().unwrap()]);
    assert_eq!(local.code, Some(0));

    // Server errors, then success: retried, the same frames.
    for fault in ["errors-2", "stall-3", "cut-2"] {
        let url = proxy.url(fault, name);
        let run = rsbag_env(&["frames", "--json", &url], &env);
        assert_eq!(run.code, Some(0), "{fault}: {}", run.stderr);
        assert_eq!(run.stdout, local.stdout, "{fault}");
    }

    // Errors beyond the retries, and a body always cut: a clear error
    // naming the URL (and, once open, the byte range); no output of frames
    // that were not all read.
    let url = proxy.url("errors-50", name);
    let run = rsbag_env(&["info", &url], &env);
    assert_clear_error(&run, Some(1), &[&url, "503"]);

    let url = proxy.url("cut-always", name);
    let run = rsbag_env(&["frames", "--json", &url], &env);
    assert_clear_error(&run, None, &[&url, "bytes "]);

    // The file replaced after it was opened: an error that says so, and
    // no frame of the other version.
    let url = proxy.url("replace-3", name);
    let run = rsbag_env(&["frames", "--json", &url], &env);
    assert_clear_error(&run, None, &["changed since it was opened"]);
    let other = rsbag(&["frames", "--json", files[0].to_str().unwrap()]).stdout;
    for line in run.stdout.lines() {
        assert!(
            local.stdout.contains(line),
            "a frame not of the version opened: {line}"
        );
        assert!(!other.contains(line) || local.stdout.contains(line));
    }
}

/// The requests of `served` other than the first bytes and the closing
/// index (of a file of `size` bytes), largest first: (bytes sent, line).
fn beyond_head_and_index(served: &servers::Served, size: u64) -> Vec<(u64, String)> {
    let index_end = format!("-{}\"", size - 1);
    let mut others: Vec<(u64, String)> = (served.lines.iter())
        .filter(|l| !l.contains("\"bytes=0-") && !l.ends_with(&index_end))
        .map(|l| (l.split(' ').nth(3).unwrap().parse().unwrap(), l.clone()))
        .collect();
    others.sort_by(|a, b| b.cmp(a));
    others
}

/// `info` of a remote LZ4 recording reads its head, its index, the chunks
/// of the device description and a bounded number of chunk headers; one
/// frame fetched by index reads one chunk (and chunk indexes): counted at
/// the server.
#[test]
fn info_and_one_frame_over_http_transfer_only_what_they_need() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("long.bag");
    let run = rsbag(&[
        "record",
        "--synthetic",
        "--duration",
        "4",
        "--depth",
        "848x480@30",
        "--color",
        "1280x720@30",
        "--out",
        file.to_str().unwrap(),
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let size = std::fs::metadata(&file).unwrap().len();
    let nginx = Nginx::serve(dir.path());
    let url = nginx.url("long.bag");
    let chunks: u64 = {
        let info = rsbag(&["info", "--json", file.to_str().unwrap()]).stdout;
        let json: serde_json::Value = serde_json::from_str(&info).unwrap();
        json["chunks"].as_u64().unwrap()
    };
    assert!(chunks > 40, "a recording of many chunks ({chunks})");

    same_as_local(&["info", "FILE"], &file, &url, &[]);
    let served = nginx.take_log();
    eprintln!(
        "info of {size} bytes, {chunks} chunks: {} requests, {} bytes",
        served.requests, served.bytes
    );
    assert!(
        served.bytes <= 16 << 20 && served.bytes < size / 4,
        "{served:?}"
    );
    // Besides the head and the index: the description's first chunks, the
    // first and last chunks' indexes and one 4 KB header per chunk sampled
    // for the compression (32), those in one multi-range request.
    let info = served.clone();
    let others = beyond_head_and_index(&served, size);
    let large = others.iter().filter(|(bytes, _)| *bytes > 8 << 10).count();
    assert!(large <= 6, "{others:?}");
    assert!(served.requests <= 8, "{:?}", served.lines);
    assert!(
        (served.lines.iter()).any(|l| l.matches(',').count() >= 16),
        "the chunk headers in one request: {:?}",
        served.lines
    );

    // One frame by index, in the middle.
    let run = rsbag(&["frames", &url, "--streams", "Color", "--index", "60"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let local_run = rsbag(&[
        "frames",
        file.to_str().unwrap(),
        "--streams",
        "Color",
        "--index",
        "60",
    ]);
    assert_eq!(run.stdout, local_run.stdout);
    let served = nginx.take_log();
    eprintln!(
        "one frame: {} requests, {} bytes",
        served.requests, served.bytes
    );
    // Besides what opening the recording reads (as `info` did: the
    // description's chunks), one chunk's span; the rest are chunk indexes
    // (a few KB each).
    let others = beyond_head_and_index(&served, size);
    let large: Vec<_> = (others.iter())
        .filter(|(bytes, line)| *bytes > 16 << 10 && !info.lines.contains(line))
        .collect();
    assert!(large.len() <= 1, "{large:?}");
    assert!(served.bytes < size / 4, "{served:?}");
}

/// `rsbag view URL --export` writes the page the local file gives (the
/// URL in place of the path).
#[test]
fn view_export_over_http_is_the_local_page() {
    let dir = tempfile::tempdir().unwrap();
    let files = recordings(dir.path());
    let nginx = Nginx::serve(dir.path());
    let file = &files[0];
    let url = nginx.url(file.file_name().unwrap().to_str().unwrap());
    let out = tempfile::tempdir().unwrap();
    let mut pages = Vec::new();
    for (side, input) in [("local", file.to_str().unwrap()), ("remote", url.as_str())] {
        let page = out.path().join(format!("{side}.html"));
        let run = rsbag(&["view", input, "--export", page.to_str().unwrap()]);
        assert_eq!(run.code, Some(0), "view {input}: {}", run.stderr);
        pages.push(
            std::fs::read_to_string(&page)
                .unwrap()
                .replace(input, "FILE"),
        );
    }
    assert!(pages[0].len() > 1000);
    assert!(pages[0] == pages[1], "the pages differ");
}

/// `info` of a remote `.db3` reads the pages of its tables and indexes,
/// not the images beyond them (SQLite's scan of the messages table for
/// each topic's count reads its leaf pages, which the VFS fetches ahead
/// in multi-range requests; an image too large for its row's page lies in
/// overflow pages, never read for a count); one frame reads those pages
/// and its row. A `.db3` of PNG images small enough to stay in their
/// rows' pages has them read with the rows.
#[test]
fn db3_info_and_one_frame_over_http_transfer_only_what_they_need() {
    let dir = tempfile::tempdir().unwrap();
    let nginx = Nginx::serve(dir.path());
    for (name, compressed, seconds, share) in
        [("raw.db3", false, "1", 12), ("png.db3", true, "3", 2)]
    {
        let file = dir.path().join(name);
        let mut args = vec![
            "record",
            "--synthetic",
            "--duration",
            seconds,
            "--depth",
            "848x480@30",
            "--color",
            "1280x720@30",
            "--out",
            file.to_str().unwrap(),
        ];
        if !compressed {
            args.push("--no-compression");
        }
        let run = rsbag(&args);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        let size = std::fs::metadata(&file).unwrap().len();
        let url = nginx.url(name);

        same_as_local(&["info", "FILE"], &file, &url, &[]);
        let served = nginx.take_log();
        eprintln!(
            "info of {name}, {size} bytes: {} requests, {} bytes",
            served.requests, served.bytes
        );
        assert!(served.bytes < size / share, "{size}: {served:?}");
        assert!(served.requests <= 9, "{:?}", served.lines);

        same_as_local(
            &["frames", "FILE", "--streams", "Color", "--index", "5"],
            &file,
            &url,
            &[],
        );
        let served = nginx.take_log();
        eprintln!(
            "one frame of it: {} requests, {} bytes",
            served.requests, served.bytes
        );
        assert!(
            served.bytes < size / share + (4 << 20),
            "{size}: {served:?}"
        );
        // The opening's, the timestamp index's, and the frame's row with
        // its overflow pages in requests of 1 MB and more.
        assert!(served.requests <= 12, "{:?}", served.lines);
    }
}

/// With a cache directory (`--cache DIR` or `RSBAG_CACHE`), a second
/// command on a remote recording reads what the first fetched from disk:
/// the server answers only the opening request, which checks the
/// version; a recording replaced on the server (another ETag) is read
/// anew, never from the ranges kept of the old one.
#[test]
fn a_cache_directory_serves_second_reads_and_never_a_changed_recording() {
    let dir = tempfile::tempdir().unwrap();
    let files = recordings(dir.path());
    let nginx = Nginx::serve(dir.path());
    let cache = tempfile::tempdir().unwrap();
    let cache_dir = cache.path().to_str().unwrap();
    let by_env = [("RSBAG_CACHE".to_owned(), cache_dir.to_owned())];
    for file in [&files[0], &files[3], &files[4]] {
        let url = nginx.url(file.file_name().unwrap().to_str().unwrap());
        for args in [
            &["info", "FILE"][..],
            &["frames", "--json", "FILE"],
            &["frames", "FILE", "--index", "3"],
        ] {
            let with_cache = [&["--cache", cache_dir][..], args].concat();
            same_as_local(&with_cache, file, &url, &[]);
            let first = nginx.take_log();
            same_as_local(args, file, &url, &by_env);
            let second = nginx.take_log();
            assert!(first.requests > 0);
            assert!(
                (second.lines.iter()).all(|l| l.contains("\"bytes=0-65535\"")),
                "{args:?} {}: only the opening requests again: {:?}",
                file.display(),
                second.lines
            );
            assert!(second.requests <= 3, "{:?}", second.lines);
        }
    }
    // Replaced on the server: another recording under the same name.
    let replaced = &files[0];
    let url = nginx.url(replaced.file_name().unwrap().to_str().unwrap());
    std::fs::copy(&files[3], replaced).unwrap();
    for args in [&["info", "FILE"][..], &["frames", "--json", "FILE"]] {
        same_as_local(args, replaced, &url, &by_env);
    }
    assert!(nginx
        .take_log()
        .lines
        .iter()
        .any(|l| !l.contains("bytes=0-65535")));
}

/// The bytes of every file under `dir`.
fn bytes_under(dir: &Path) -> u64 {
    (std::fs::read_dir(dir).into_iter().flatten().flatten())
        .map(|entry| match entry.file_type() {
            Ok(t) if t.is_dir() => bytes_under(&entry.path()),
            _ => entry.metadata().map_or(0, |m| m.len()),
        })
        .sum()
}

/// A cache capped below one recording's size (`--cache-max`, or
/// `RSBAG_CACHE_MAX`): across repeated reads of recordings by URL (`.bag`
/// and `.db3`) the directory stays under the cap, ranges are kept (and
/// the least recently used deleted), and every read gives the local
/// file's frames; several processes sharing it at once read the right
/// frames and leave it within the cap and the sixteenth of it each may
/// write before it counts the directory again.
#[test]
fn a_capped_cache_stays_under_its_limit_and_reads_the_right_frames() {
    let dir = tempfile::tempdir().unwrap();
    let files = recordings(dir.path());
    let nginx = Nginx::serve(dir.path());
    let cache = tempfile::tempdir().unwrap();
    let cache_dir = cache.path().to_str().unwrap();
    // Below the bag's 456 753 bytes and the .db3's 196 608.
    const CAP: u64 = 150_000;
    let chosen = [&files[3], &files[5], &files[0]];
    for _ in 0..3 {
        for file in chosen {
            let url = nginx.url(file.file_name().unwrap().to_str().unwrap());
            for args in [
                &["frames", "--json", "FILE"][..],
                &["frames", "FILE", "--index", "3"],
            ] {
                let capped = [&["--cache", cache_dir, "--cache-max", "150000"][..], args].concat();
                same_as_local(&capped, file, &url, &[]);
                let held = bytes_under(cache.path());
                assert!(held <= CAP, "{held} bytes kept after {args:?} {url}");
            }
        }
        assert!(bytes_under(cache.path()) > 0, "nothing is kept");
    }
    let env = [
        ("RSBAG_CACHE".to_owned(), cache_dir.to_owned()),
        ("RSBAG_CACHE_MAX".to_owned(), CAP.to_string()),
    ];
    let readers: Vec<_> = (chosen.iter().cycle().take(6))
        .map(|file| {
            let (file, url) = (
                (*file).clone(),
                nginx.url(file.file_name().unwrap().to_str().unwrap()),
            );
            let env = env.clone();
            std::thread::spawn(move || {
                let local = rsbag(&["frames", "--json", file.to_str().unwrap()]);
                let there = rsbag_env(&["frames", "--json", &url], &env);
                assert_eq!(there.code, Some(0), "{}", there.stderr);
                assert_eq!(there.stdout, local.stdout, "{url}");
            })
        })
        .collect();
    for reader in readers {
        reader.join().unwrap();
    }
    let held = bytes_under(cache.path());
    assert!(
        held <= CAP + 6 * CAP / 16,
        "{held} bytes kept by 6 processes at once"
    );
    // The next process counts the directory and evicts down to the cap.
    same_as_local(
        &["frames", "--json", "FILE"],
        &files[3],
        &nginx.url(files[3].file_name().unwrap().to_str().unwrap()),
        &env,
    );
    assert!(bytes_under(cache.path()) <= CAP);
}

/// MCAP files by URL (rosbags' wrapper camera bag, rsbag's exports, one
/// of many chunks, and one cut off, without its summary) read as the
/// local files; `info` transfers the footer, summary, message indexes and
/// the first chunk alone, and `frames` the file once, chunks fetched
/// ahead together.
#[test]
fn mcap_files_over_http_read_as_the_local_files() {
    let dir = tempfile::tempdir().unwrap();
    let recorded = dir.path().join("recorded.bag");
    ok(&[
        "record",
        "--synthetic",
        "--duration",
        "1",
        "--streams",
        "depth,color",
        "--depth",
        "320x240@30",
        "--color",
        "320x240@30",
        "--out",
        recorded.to_str().unwrap(),
    ]);
    let long = dir.path().join("long.mcap");
    std::fs::rename(mcap_export(&recorded, &dir.path().join("export")), &long).unwrap();
    let mut files = vec![long.clone()];
    for seed in [
        "rosbags-camera-wrapper.mcap",
        "rsbag-export-depth-color.mcap",
    ] {
        let to = dir.path().join(seed);
        std::fs::copy(root().join("fuzz/seeds").join(seed), &to).unwrap();
        files.push(to);
    }
    let whole = std::fs::read(&long).unwrap();
    let cut = dir.path().join("cut.mcap");
    std::fs::write(&cut, &whole[..whole.len() / 2]).unwrap();
    files.push(cut);
    let nginx = Nginx::serve(dir.path());
    for file in &files {
        let url = nginx.url(file.file_name().unwrap().to_str().unwrap());
        for args in COMMANDS {
            same_as_local(args, file, &url, &[]);
        }
    }
    nginx.take_log();
    let size = whole.len() as u64;
    let transfer = |command: &str, most_bytes: u64, most_requests: u64| {
        let run = rsbag(&[command, &nginx.url("long.mcap")]);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        let served = nginx.take_log();
        assert!(
            served.bytes <= most_bytes && served.requests <= most_requests,
            "{command} read {} of {size} bytes in {} requests: {:#?}",
            served.bytes,
            served.requests,
            served.lines
        );
    };
    // The first bytes (the format), the footer, the summary, the message
    // indexes (one request for all) and the first chunk (the streams'
    // first messages): 1 MB of 12.
    transfer("info", size / 10, 5);
    transfer("frames", size * 11 / 10, 16);
}

/// `trim URL` writes what `trim FILE` writes, byte for byte, and `play
/// URL` delivers the frames and bytes `play FILE` does.
#[test]
fn trim_and_play_over_http_give_the_local_results() {
    let dir = tempfile::tempdir().unwrap();
    let files = recordings(dir.path());
    let nginx = Nginx::serve(dir.path());
    let out = tempfile::tempdir().unwrap();
    for (i, file) in [&files[0], &files[3], &files[4]].into_iter().enumerate() {
        let name = file.file_name().unwrap().to_str().unwrap();
        let url = nginx.url(name);
        let ext = file.extension().unwrap().to_str().unwrap();
        let mut written = Vec::new();
        for (side, input) in [("local", file.to_str().unwrap()), ("remote", url.as_str())] {
            let output = out.path().join(format!("{i}-{side}.{ext}"));
            let run = rsbag(&[
                "trim",
                input,
                "--start",
                "0.05",
                "--duration",
                "0.1",
                "--out",
                output.to_str().unwrap(),
            ]);
            assert_eq!(run.code, Some(0), "trim {input}: {}", run.stderr);
            written.push(std::fs::read(&output).unwrap());
        }
        assert!(written[0].len() > 1000);
        assert!(written[0] == written[1], "trim {name}: the files differ");

        let plays: Vec<Vec<String>> = [file.to_str().unwrap(), url.as_str()]
            .into_iter()
            .map(|input| {
                let run = rsbag(&["play", input, "--no-realtime"]);
                assert_eq!(run.code, Some(0), "play {input}: {}", run.stderr);
                played_counts(&run.stdout)
            })
            .collect();
        assert!(!plays[0].is_empty(), "{name}");
        assert_eq!(plays[0], plays[1], "play {name}");
    }
}

/// The frames and bytes of each stream in `rsbag play`'s report (not its
/// rates and times, which vary from run to run).
fn played_counts(report: &str) -> Vec<String> {
    (report.lines().skip(1))
        .filter(|line| !line.starts_with("played"))
        .map(|line| {
            let mut words: Vec<&str> = line.split_whitespace().collect();
            if words.last().is_some_and(|w| w.contains('.')) {
                words.pop();
            }
            words.join(" ")
        })
        .collect()
}

/// Whether `path` exists, or any name beside it that starts with its
/// name (an unfinished output under a temporary name).
fn left_behind(path: &Path) -> Vec<String> {
    let name = path.file_name().unwrap().to_str().unwrap();
    std::fs::read_dir(path.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(name))
        .collect()
}

/// A read that fails mid-way (the object replaced, bodies always cut
/// off, a server that stalls) is an I/O error: exit 1 naming the URL and
/// the cause, never damage (exit 4, advice to reindex a URL), and
/// `convert` leaves nothing behind. `check` of a healthy `.bag` or `.db3`
/// whose reads fail says so, never DAMAGED. A stalled server fails the
/// command within the time of one read (two requests' timeout and the
/// longest wait between tries: 7 s with RSBAG_REMOTE_TIMEOUT=1), however
/// many retries are allowed.
#[test]
fn failed_reads_are_io_errors_never_damage_and_leave_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let files = recordings(dir.path());
    let (bag, db3) = (&files[3], &files[4]);
    let name = |f: &PathBuf| f.file_name().unwrap().to_str().unwrap().to_owned();
    std::fs::copy(&files[0], dir.path().join(format!("{}.new", name(bag)))).unwrap();
    std::fs::copy(&files[5], dir.path().join(format!("{}.new", name(db3)))).unwrap();
    let nginx = Nginx::serve(dir.path());
    let proxy = FaultProxy::start(&nginx);
    let out = tempfile::tempdir().unwrap();
    let env = impatient();
    let no_damage = |run: &Run, what: &str| {
        for word in ["damaged", "DAMAGED", "reindex"] {
            assert!(!run.stderr.contains(word), "{what}: {}", run.stderr);
            assert!(!run.stdout.contains(word), "{what}: {}", run.stdout);
        }
    };
    for (fault, cause) in [
        ("replace-3", "changed since it was opened"),
        ("cut-always", "cut-off"),
    ] {
        let url = proxy.url(fault, &name(bag));
        let png = out.path().join(format!("{fault}-png"));
        let run = rsbag_env(
            &[
                "convert",
                &url,
                "--to",
                "png",
                "--out",
                png.to_str().unwrap(),
            ],
            &env,
        );
        assert_clear_error(&run, Some(1), &[&url, cause]);
        no_damage(&run, fault);
        assert_eq!(left_behind(&png), Vec::<String>::new(), "{fault}");
    }
    // Replaced after the file is opened (the bag's 3rd request reads its
    // index, the `.db3`'s its pages), or every body cut off.
    for (file, fault) in [
        (bag, "replace-4"),
        (db3, "replace-3"),
        (bag, "cut-always"),
        (db3, "cut-always"),
    ] {
        let url = proxy.url(fault, &name(file));
        let run = rsbag_env(&["check", &url], &env);
        assert_clear_error(&run, Some(1), &[&url]);
        no_damage(&run, &url);
    }
    // Stalled: 50 retries allowed, given up within one read's time.
    let stalled = [
        ("RSBAG_REMOTE_TIMEOUT".to_owned(), "1".to_owned()),
        ("RSBAG_REMOTE_RETRIES".to_owned(), "50".to_owned()),
    ];
    let url = proxy.url("stall-always", &name(bag));
    let png = out.path().join("stalled-png");
    let started = Instant::now();
    let run = rsbag_env(
        &[
            "convert",
            &url,
            "--to",
            "png",
            "--out",
            png.to_str().unwrap(),
        ],
        &stalled,
    );
    let took = started.elapsed();
    assert_clear_error(&run, Some(1), &[&url, "RSBAG_REMOTE_TIMEOUT"]);
    no_damage(&run, "stall");
    assert_eq!(left_behind(&png), Vec::<String>::new());
    assert!(took < Duration::from_secs(20), "{took:?}");
}

/// A server that gives no ETag or Last-Modified: the recording is read
/// (no meaningless `If-Unmodified-Since` sent) with a warning that its
/// version cannot be pinned; replaced mid-read by another recording of
/// the same length, whose bytes contradict the index read at opening, an
/// I/O error that says it changed (exit 1), not damage and not frames of
/// the other version; for a bag and for an MCAP file.
#[test]
fn an_object_that_cannot_be_pinned_is_read_with_a_warning_and_a_change_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let first = dir.path().join("short.bag");
    let other = dir.path().join("other.bag");
    for (file, seconds) in [(&first, "0.5"), (&other, "1")] {
        let run = rsbag(&[
            "record",
            "--synthetic",
            "--duration",
            seconds,
            "--depth",
            "320x240@30",
            "--out",
            file.to_str().unwrap(),
        ]);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
    }
    let length = std::fs::metadata(&first).unwrap().len() as usize;
    let mut replaced = std::fs::read(&other).unwrap();
    assert!(replaced.len() > length);
    replaced.truncate(length);
    std::fs::write(dir.path().join("short.bag.new"), replaced).unwrap();
    let nginx = Nginx::serve(dir.path());
    let proxy = FaultProxy::start(&nginx);
    let here = rsbag(&["frames", "--json", first.to_str().unwrap()]);
    let url = proxy.url("unpinned", "short.bag");
    let there = rsbag(&["frames", "--json", &url]);
    assert_eq!(there.code, Some(0), "{}", there.stderr);
    assert_eq!(here.stdout, there.stdout);
    assert!(
        there.stderr.contains("cannot be pinned"),
        "{}",
        there.stderr
    );

    // Changed after its first bytes (the index read is the other
    // version's), or after its index (a chunk read is).
    let changed = |name: &str, faults: &[&str]| {
        let here = rsbag(&["frames", "--json", dir.path().join(name).to_str().unwrap()]);
        for fault in faults {
            let url = proxy.url(fault, name);
            let run = rsbag(&["frames", "--json", &url]);
            assert_clear_error(&run, Some(1), &[&url, "changed while it was read"]);
            assert!(!run.stderr.contains("damaged"), "{}", run.stderr);
            for line in run.stdout.lines() {
                assert!(
                    here.stdout.contains(line),
                    "a frame of the other version: {line}"
                );
            }
        }
    };
    changed("short.bag", &["unpinnedreplace-2", "unpinnedreplace-4"]);

    // An MCAP file replaced by one of another layout: after its first
    // bytes (the footer read is the other's), its summary (the message
    // indexes are) or its indexes (the first chunk is).
    let wide = dir.path().join("wide.bag");
    ok(&[
        "record",
        "--synthetic",
        "--duration",
        "1",
        "--depth",
        "640x480@30",
        "--out",
        wide.to_str().unwrap(),
    ]);
    for (bag, name) in [(&first, "short.mcap"), (&wide, "wide")] {
        let out = dir.path().join(format!("{name}-ros2"));
        std::fs::rename(mcap_export(bag, &out), dir.path().join(name)).unwrap();
    }
    let length = std::fs::metadata(dir.path().join("short.mcap"))
        .unwrap()
        .len() as usize;
    let mut replaced = std::fs::read(dir.path().join("wide")).unwrap();
    assert!(replaced.len() > length);
    replaced.truncate(length);
    std::fs::write(dir.path().join("short.mcap.new"), replaced).unwrap();
    changed(
        "short.mcap",
        &[
            "unpinnedreplace-2",
            "unpinnedreplace-4",
            "unpinnedreplace-5",
        ],
    );
}

/// A recording followed by trailing bytes (a bag padded with 600 MB of
/// zeros) is read through its index without asking for them: every
/// request stays small, as does what is sent (nginx's access log), where
/// the whole tail was asked for in one request.
#[test]
fn trailing_bytes_after_a_remote_recording_are_never_asked_for() {
    let dir = tempfile::tempdir().unwrap();
    let files = recordings(dir.path());
    let padded = dir.path().join("padded.bag");
    std::fs::copy(&files[0], &padded).unwrap();
    let size = std::fs::metadata(&padded).unwrap().len();
    std::fs::File::options()
        .write(true)
        .open(&padded)
        .unwrap()
        .set_len(size + (600 << 20))
        .unwrap();
    let nginx = Nginx::serve(dir.path());
    let url = nginx.url("padded.bag");
    same_as_local(&["info", "FILE"], &padded, &url, &[]);
    same_as_local(&["frames", "FILE", "--index", "3"], &padded, &url, &[]);
    let served = nginx.take_log();
    let largest = (served.lines.iter())
        .map(|l| l.split(' ').nth(3).unwrap().parse::<u64>().unwrap())
        .max()
        .unwrap();
    assert!(largest <= 17 << 20, "{:?}", served.lines);
    assert!(served.bytes <= 64 << 20, "{served:?}");
}

/// URL errors say what went wrong in a line: a 404 without the server's
/// page, a closed port as a refused connection. A server that does not
/// answer range requests (Python's http.server) has a small recording
/// read whole, with a warning, giving what the local file gives.
#[test]
fn url_errors_are_short_and_a_server_without_ranges_is_read_whole() {
    let dir = tempfile::tempdir().unwrap();
    let files = recordings(dir.path());
    let nginx = Nginx::serve(dir.path());
    let url = nginx.url("no-such.bag");
    let run = rsbag(&["info", &url]);
    assert_clear_error(&run, Some(1), &[&url, "not found (HTTP 404)"]);
    assert!(!run.stderr.contains("<html"), "{}", run.stderr);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);

    let closed = format!("http://127.0.0.1:{}/a.bag", servers::free_port());
    let run = rsbag(&["info", &closed]);
    assert_clear_error(&run, Some(1), &[&closed, "connection refused"]);

    let port = servers::free_port();
    let mut server = Command::new("python3")
        .args([
            "-m",
            "http.server",
            "--bind",
            "127.0.0.1",
            &port.to_string(),
        ])
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("python3");
    let started = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "http.server does not start"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    for file in [&files[0], &files[4]] {
        let name = file.file_name().unwrap().to_str().unwrap();
        let url = format!("http://127.0.0.1:{port}/{name}");
        let local = rsbag(&["frames", "--json", file.to_str().unwrap()]);
        let run = rsbag(&["frames", "--json", &url]);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        assert_eq!(run.stdout, local.stdout, "{name}");
        assert!(
            run.stderr.contains("does not answer range requests"),
            "{}",
            run.stderr
        );
    }
    let _ = server.kill();
    let _ = server.wait();
}
