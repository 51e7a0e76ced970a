//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

use rsbag::bag::{BagWriter, Compression, Connection, WriterOptions};

/// The crate root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A file of `../shared/reference/`.
pub fn reference(name: &str) -> PathBuf {
    root().join("../shared/reference").join(name)
}

/// A file of `sample_bags/`.
pub fn sample(name: &str) -> PathBuf {
    root().join("sample_bags").join(name)
}

/// One message to write: connection index, time, payload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    pub conn: u32,
    pub time: u64,
    pub data: Vec<u8>,
}

/// Write `messages` on `topics` (each `std_msgs/String`-shaped but with
/// arbitrary types) into an in-memory bag.
pub fn write_bag(
    topics: &[(String, String)],
    messages: &[Written],
    compression: Compression,
    chunk_threshold: usize,
) -> Vec<u8> {
    let options = WriterOptions::default()
        .compression(compression)
        .chunk_threshold(chunk_threshold);
    let mut writer =
        BagWriter::new(std::io::Cursor::new(Vec::new()), options).expect("start a bag in memory");
    for (topic, msg_type) in topics {
        let definition = format!("# {msg_type}\nuint8[] data\n");
        writer.add_connection(Connection::new(
            topic,
            msg_type,
            "0123456789abcdef0123456789abcdef",
            &definition,
        ));
    }
    for m in messages {
        writer.write(m.conn, m.time, &m.data).expect("write a message");
    }
    writer.finish().expect("finish the bag").into_inner()
}

/// `messages` in the order a reader must give them: by time, ties in
/// write order.
pub fn time_order(messages: &[Written]) -> Vec<Written> {
    let mut sorted = messages.to_vec();
    sorted.sort_by_key(|m| m.time);
    sorted
}

/// Run a Python script of `tests/interop/` and return its stdout.
pub fn python(script: &str, args: &[&str]) -> String {
    let path = root().join("tests/interop").join(script);
    let out = std::process::Command::new("python3")
        .arg(&path)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run python3 {}: {e}", path.display()));
    assert!(
        out.status.success(),
        "python3 {} {:?} failed: {}",
        path.display(),
        args,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("python output is UTF-8")
}
