//! Writing a rosbag2 `.db3` with librealsense 2.59's tables and index.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rusqlite::{Connection, OpenFlags};

use super::{db_error, to_db};
use crate::{Error, Result};

/// The schema librealsense 2.59 creates (rosbag2's "schema 2"), statement
/// by statement as it writes it.
const SCHEMA: &str = "\
CREATE TABLE topics(id INTEGER PRIMARY KEY,name TEXT NOT NULL,type TEXT NOT NULL,serialization_format TEXT NOT NULL,offered_qos_profiles TEXT NOT NULL);
CREATE TABLE messages(id INTEGER PRIMARY KEY,topic_id INTEGER NOT NULL,timestamp INTEGER NOT NULL, data BLOB NOT NULL);
CREATE INDEX timestamp_idx ON messages (timestamp ASC);";

/// A transaction is committed after this many bytes of messages, so a
/// crash loses at most that much and memory stays bounded.
const COMMIT_BYTES: usize = 32 << 20;

/// Writes a `.db3`: topics, then messages in any order (readers order
/// them by timestamp). Every committed message survives a crash of the
/// writing process: SQLite's journal keeps the file consistent.
///
/// # Example
/// ```
/// use rsbag::msg::ros2;
/// use rsbag::rosbag2::{Db3, Db3Writer};
/// # fn main() -> rsbag::Result<()> {
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("out.db3");
/// let mut writer = Db3Writer::create(&path)?;
/// let topic = writer.add_topic("/chatter", ros2::STRING, "")?;
/// writer.write(topic, 5, &ros2::encode_string(b"hello"))?;
/// writer.finish()?;
/// let db3 = Db3::open(&path)?;
/// assert_eq!(db3.topics()[0].name, "/chatter");
/// assert_eq!(db3.total_message_count(), 1);
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct Db3Writer {
    path: PathBuf,
    db: Connection,
    topics: HashMap<String, u32>,
    uncommitted: usize,
}

impl Db3Writer {
    /// Create `path`, which must not exist.
    pub fn create(path: impl AsRef<Path>) -> Result<Db3Writer> {
        let path = path.as_ref();
        Db3Writer::create_inner(path).map_err(|e| e.in_file(path))
    }

    fn create_inner(path: &Path) -> Result<Db3Writer> {
        // Claim the name first: SQLite would open an existing file.
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)
            .map_err(|e| Error::Io {
                path: path.to_owned(),
                error: e,
            })?;
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let db = Connection::open_with_flags(path, flags).map_err(db_error)?;
        // One file at rest, as librealsense writes it; NORMAL sync with the
        // rollback journal still keeps every commit consistent.
        db.execute_batch("PRAGMA synchronous = NORMAL;")
            .map_err(db_error)?;
        db.execute_batch(SCHEMA).map_err(db_error)?;
        db.execute_batch("BEGIN").map_err(db_error)?;
        Ok(Db3Writer {
            path: path.to_owned(),
            db,
            topics: HashMap::new(),
            uncommitted: 0,
        })
    }

    /// The file being written.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The id of topic `name`, added with `msg_type` (`cdr`) and the
    /// offered QoS profiles `qos` (YAML, or empty) if it is new.
    pub fn add_topic(&mut self, name: &str, msg_type: &str, qos: &str) -> Result<u32> {
        if let Some(&id) = self.topics.get(name) {
            return Ok(id);
        }
        let id = u32::try_from(self.topics.len() + 1).unwrap_or(u32::MAX);
        self.db
            .prepare_cached(
                "INSERT INTO topics (id, name, type, serialization_format, offered_qos_profiles) \
                 VALUES (?1, ?2, ?3, 'cdr', ?4)",
            )
            .and_then(|mut s| s.execute(rusqlite::params![id, name, msg_type, qos]))
            .map_err(|e| self.in_file(db_error(e)))?;
        self.topics.insert(name.to_owned(), id);
        Ok(id)
    }

    /// Add a message on topic `topic` at `time` ns.
    pub fn write(&mut self, topic: u32, time: u64, data: &[u8]) -> Result<()> {
        self.db
            .prepare_cached("INSERT INTO messages (topic_id, timestamp, data) VALUES (?1, ?2, ?3)")
            .and_then(|mut s| s.execute(rusqlite::params![topic, to_db(time), data]))
            .map_err(|e| self.in_file(db_error(e)))?;
        self.uncommitted += data.len() + 32;
        if self.uncommitted >= COMMIT_BYTES {
            self.commit()?;
        }
        Ok(())
    }

    /// Commit what was written so far: it survives a crash from now on.
    pub fn commit(&mut self) -> Result<()> {
        self.db
            .execute_batch("COMMIT; BEGIN")
            .map_err(|e| self.in_file(db_error(e)))?;
        self.uncommitted = 0;
        Ok(())
    }

    /// Commit and close the file.
    pub fn finish(self) -> Result<()> {
        let path = self.path;
        self.db
            .execute_batch("COMMIT")
            .map_err(|e| db_error(e).in_file(&path))?;
        self.db.close().map_err(|(_, e)| db_error(e).in_file(&path))
    }

    fn in_file(&self, e: Error) -> Error {
        e.in_file(&self.path)
    }
}
