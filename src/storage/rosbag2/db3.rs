//! The SQLite 3 `.db3` file ROS 2 (and librealsense from 2.58 on)
//! records into, read.
//!
//! A `.db3` has a `topics` table (id, name, type, serialization format,
//! offered QoS profiles) and a `messages` table (id, topic id, timestamp in
//! ns, CDR data). [`Db3`] reads one, [`Db3Writer`] writes one the way
//! librealsense 2.59 does (the same tables and index, no `metadata.yaml`).
//!
//! Messages are read in (timestamp, id) order, the order rosbag2 and
//! librealsense play them in, in batches: the keys of a batch first, then
//! each message's data by its row id, so a damaged data page costs that
//! message (reported as an error) and not the rest of the file.
//!
//! # Example
//! ```no_run
//! use rsbag::storage::rosbag2::Db3;
//! # fn main() -> rsbag::Result<()> {
//! let db3 = Db3::open("recording.db3")?;
//! for topic in db3.topics() {
//!     println!("{} {} ({} messages)", topic.topic, topic.msg_type, db3.message_count(topic.id));
//! }
//! for message in db3.query().messages() {
//!     let message = message?;
//!     println!("{} at {} ns: {} bytes", message.conn, message.time, message.data.len());
//! }
//! # Ok(()) }
//! ```

use std::collections::VecDeque;
use std::ops::{Bound, RangeBounds};
use std::path::{Path, PathBuf};

use bytes::Bytes;
use parking_lot::Mutex;
use rusqlite::{Connection, OpenFlags};

use super::topics::{TopicStats, Topics};
use crate::storage::{Connection as StorageConnection, ConnectionExt, FileFormat, Message};
use crate::{Error, Result};

/// Messages read per batch.
const BATCH: i64 = 64;

/// A message at least this long is read through SQLite's blob handle (a
/// handle costs a statement's preparation: for a small message, reading
/// it as a value costs less).
const LARGE_MESSAGE: u64 = 1 << 20;

/// A rosbag2 `.db3` opened for reading.
#[derive(Debug)]
pub struct Db3 {
    path: PathBuf,
    /// The file's size, bytes, when opened.
    size: u64,
    db: Mutex<Connection>,
    topics: Topics,
}

/// What SQLite said, as a damaged-database error.
fn db_error(e: rusqlite::Error) -> Error {
    // A remote file's read that failed: what failed, not "disk I/O error".
    if let Some(read) = crate::storage::remote::take_sqlite_read_error() {
        return read;
    }
    match e.sqlite_error() {
        Some(f) if f.extended_code == rusqlite::ffi::SQLITE_READONLY_ROLLBACK => Error::Database(
            "a crash left a transaction unfinished, and its journal (the file's `-journal` \
             beside it) must be rolled back before the file can be read: `rsbag reindex` does that"
                .into(),
        ),
        _ => Error::Database(e.to_string()),
    }
}

/// Open the local `.db3` at `path` read-only; and its size.
fn open_local(path: &Path) -> Result<(Connection, u64)> {
    if !FileFormat::Db3.is_format_of(path)? {
        return Err(Error::NotADb3(
            "the first bytes are not \"SQLite format 3\"".into(),
        ));
    }
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let size = std::fs::metadata(path).map_or(0, |m| m.len());
    Ok((
        Connection::open_with_flags(path, flags).map_err(db_error)?,
        size,
    ))
}

/// Roll back what a crash left uncommitted, if anything: a `.db3`
/// written with a rollback journal (as rsbag and librealsense record) and
/// interrupted inside a transaction keeps the pages it replaced in
/// `FILE-journal`, and may not open read-only until they are put back. This writes to `path` (restoring its last complete commit, as
/// SQLite itself does on the next writable open); returns whether there
/// was anything to roll back.
pub fn roll_back_interrupted_commit(path: impl AsRef<Path>) -> Result<bool> {
    let path = path.as_ref();
    let mut journal = path.as_os_str().to_owned();
    journal.push("-journal");
    let hot = std::fs::metadata(&journal).is_ok_and(|m| m.len() > 0);
    if !hot {
        return Ok(false);
    }
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let rolled_back = Connection::open_with_flags(path, flags).and_then(|db| {
        // Reading the schema takes a shared lock, which rolls back a hot
        // journal first.
        db.query_row("SELECT count(*) FROM sqlite_master", [], |_| Ok(()))?;
        db.close().map_err(|(_, e)| e)
    });
    rolled_back.map_err(|e| Error::Database(e.to_string()).in_file(path))?;
    Ok(true)
}

impl Db3 {
    /// Open a `.db3` read-only and read its topics.
    pub fn open(path: impl AsRef<Path>) -> Result<Db3> {
        let path = path.as_ref();
        Db3::open_inner(path).map_err(|e| e.in_file(path))
    }

    fn open_inner(path: &Path) -> Result<Db3> {
        let (db, size) = match crate::storage::remote::is_url(path) {
            true => crate::storage::remote::open_sqlite(path)?,
            false => open_local(path)?,
        };
        Db3::with_connection(path, db, size)
    }

    /// Open the remote `.db3` `file`, opened by its URL already.
    pub(crate) fn from_remote(
        file: std::sync::Arc<crate::storage::remote::RemoteFile>,
    ) -> Result<Db3> {
        let path = file.url().to_path_buf();
        crate::storage::remote::open_sqlite_file(file)
            .and_then(|(db, size)| Db3::with_connection(&path, db, size))
            .map_err(|e| e.in_file(&path))
    }

    /// Read the topics of the database `db`, of `size` bytes, at `path`.
    fn with_connection(path: &Path, db: Connection, size: u64) -> Result<Db3> {
        let tables: Vec<String> = db
            .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
            .and_then(|mut s| s.query_map([], |r| r.get(0))?.collect())
            .map_err(db_error)?;
        for table in ["topics", "messages"] {
            if !tables.iter().any(|t| t == table) {
                return Err(Error::NotADb3(format!(
                    "the SQLite database has no `{table}` table (tables: {})",
                    if tables.is_empty() {
                        "none".to_owned()
                    } else {
                        tables.join(", ")
                    }
                )));
            }
        }
        let topics = read_topics(&db)?;
        Ok(Db3 {
            path: path.to_owned(),
            size,
            db: Mutex::new(db),
            topics,
        })
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The file's size in bytes, when it was opened.
    pub fn file_size(&self) -> u64 {
        self.size
    }

    /// Every topic, by id.
    pub fn topics(&self) -> &[StorageConnection] {
        self.topics.all()
    }

    /// The topic with id `id`.
    pub fn topic(&self, id: u32) -> Option<&StorageConnection> {
        self.topics.get(id)
    }

    /// Messages on topic `id`.
    pub fn message_count(&self, id: u32) -> u64 {
        self.topics.count(id)
    }

    /// Messages in the file.
    pub fn total_message_count(&self) -> u64 {
        self.topics.total_count()
    }

    /// The first and last timestamp of the messages on `ids`, if any
    /// (from what [`Db3::open`] read: no query).
    pub fn time_span(&self, ids: &[u32]) -> Option<(u64, u64)> {
        self.topics.span(ids)
    }

    /// The timestamps of the messages on `ids`, in reading order.
    pub fn times(&self, ids: &[u32]) -> Result<Vec<u64>> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let sql = format!(
            "SELECT timestamp FROM messages WHERE topic_id IN ({}) ORDER BY timestamp, id",
            id_list(ids)
        );
        let db = self.db.lock();
        let mut statement = db.prepare(&sql).map_err(db_error)?;
        let times = statement
            .query_map([], |r| r.get::<_, i64>(0))
            .and_then(|rows| rows.map(|t| t.map(to_ns)).collect())
            .map_err(db_error)?;
        Ok(times)
    }

    /// What SQLite's `PRAGMA integrity_check` finds wrong with the
    /// database (nothing for a sound file), at most 100 problems.
    /// A remote file's page that could not be read is an I/O error, not
    /// a problem of the database (SQLite's check reports it as one).
    pub fn integrity_problems(&self) -> Result<Vec<String>> {
        let db = self.db.lock();
        let mut statement = db
            .prepare("PRAGMA integrity_check(100)")
            .map_err(db_error)?;
        crate::storage::remote::take_sqlite_read_error();
        let rows: Vec<String> = statement
            .query_map([], |r| r.get(0))
            .and_then(|rows| rows.collect())
            .map_err(db_error)?;
        if let Some(read) = crate::storage::remote::take_sqlite_read_error() {
            return Err(read);
        }
        Ok(rows.into_iter().filter(|r| r != "ok").collect())
    }

    /// Start a query: every message until narrowed.
    pub fn query(&self) -> Db3Query<'_> {
        Db3Query {
            db3: self,
            topics: None,
            start: Bound::Unbounded,
            end: Bound::Unbounded,
        }
    }

    /// The data of the message with row id `row`, of `len` bytes.
    fn data_of(&self, db: &Connection, row: i64, len: u64) -> Result<Bytes> {
        if len >= LARGE_MESSAGE {
            // Straight from the pages into the message's one buffer: read
            // as a value, SQLite would first hold a whole copy of its own,
            // doubling the peak of a large message.
            let blob = (db.blob_open(rusqlite::MAIN_DB, "messages", "data", row, true))
                .map_err(db_error)?;
            let mut data = vec![0; blob.len()];
            blob.read_at_exact(&mut data, 0).map_err(db_error)?;
            return Ok(Bytes::from(data));
        }
        let mut statement = db
            .prepare_cached("SELECT data FROM messages WHERE id = ?1")
            .map_err(db_error)?;
        statement
            .query_row([row], |r| {
                Ok(Bytes::copy_from_slice(r.get_ref(0)?.as_blob()?))
            })
            .map_err(db_error)
    }
}

/// The topics table, with each topic's message count and time span, in
/// one pass over the messages.
fn read_topics(db: &Connection) -> Result<Topics> {
    let mut statement = db
        .prepare(
            "SELECT t.id, t.name, t.type, t.serialization_format, t.offered_qos_profiles, \
             m.n, m.first, m.last FROM topics t LEFT JOIN \
             (SELECT topic_id, COUNT(*) AS n, MIN(timestamp) AS first, MAX(timestamp) AS last \
              FROM messages GROUP BY topic_id) m ON m.topic_id = t.id ORDER BY t.id",
        )
        .map_err(db_error)?;
    let rows = statement
        .query_map([], |r| {
            let first: Option<i64> = r.get(6)?;
            let last: Option<i64> = r.get(7)?;
            let topic = StorageConnection {
                id: u32::try_from(r.get::<_, i64>(0)?).unwrap_or(u32::MAX),
                topic: r.get(1)?,
                msg_type: r.get(2)?,
                digest: String::new(),
                message_definition: String::new(),
                ext: ConnectionExt::Rosbag2 {
                    serialization_format: r.get(3)?,
                    offered_qos_profiles: r.get::<_, Option<String>>(4)?.unwrap_or_default(),
                },
            };
            let stats = TopicStats {
                count: u64::try_from(r.get::<_, Option<i64>>(5)?.unwrap_or(0)).unwrap_or(0),
                span: first.zip(last).map(|(a, b)| (to_ns(a), to_ns(b))),
            };
            Ok((topic, stats))
        })
        .map_err(db_error)?;
    let topics = rows
        .collect::<rusqlite::Result<Vec<_>>>()
        .map_err(db_error)?;
    Ok(Topics::new(topics))
}

/// `1,2,3` for an SQL `IN` list (ids are numbers, nothing to escape).
fn id_list(ids: &[u32]) -> String {
    ids.iter().map(u32::to_string).collect::<Vec<_>>().join(",")
}

/// A stored timestamp as ns; rosbag2 times are never negative.
fn to_ns(t: i64) -> u64 {
    u64::try_from(t).unwrap_or(0)
}

/// A stored timestamp bound from ns.
pub(super) fn to_db(t: u64) -> i64 {
    i64::try_from(t).unwrap_or(i64::MAX)
}

/// Which messages to read: topics and a time range.
#[derive(Debug, Clone)]
pub struct Db3Query<'d> {
    db3: &'d Db3,
    topics: Option<Vec<u32>>,
    start: Bound<u64>,
    end: Bound<u64>,
}

impl<'d> Db3Query<'d> {
    /// Only messages on these topic ids.
    pub fn topics(mut self, ids: impl IntoIterator<Item = u32>) -> Self {
        let mut ids: Vec<u32> = ids.into_iter().collect();
        ids.sort_unstable();
        ids.dedup();
        self.topics = Some(ids);
        self
    }

    /// Only messages whose timestamp (ns) lies in `range`.
    pub fn time(mut self, range: impl RangeBounds<u64>) -> Self {
        self.start = range.start_bound().cloned();
        self.end = range.end_bound().cloned();
        self
    }

    /// The messages, in (timestamp, id) order.
    pub fn messages(self) -> Db3Messages<'d> {
        let filter = match &self.topics {
            Some(ids) => format!("topic_id IN ({}) AND ", id_list(ids)),
            None => String::new(),
        };
        let end = match self.end {
            Bound::Included(t) => to_db(t),
            Bound::Excluded(0) => -1,
            Bound::Excluded(t) => to_db(t - 1),
            Bound::Unbounded => i64::MAX,
        };
        let start = match self.start {
            Bound::Included(t) => to_db(t),
            Bound::Excluded(t) => to_db(t.saturating_add(1)),
            Bound::Unbounded => 0,
        };
        let empty = self.topics.as_ref().is_some_and(Vec::is_empty);
        Db3Messages {
            db3: self.db3,
            sql: format!(
                "SELECT id, topic_id, timestamp, length(data) FROM messages WHERE {filter}\
                 (timestamp > ?1 OR (timestamp = ?1 AND id > ?2)) AND timestamp <= ?3 \
                 ORDER BY timestamp, id LIMIT {BATCH}"
            ),
            after: (start, i64::MIN),
            end,
            batch: VecDeque::new(),
            done: empty,
        }
    }
}

/// Iterator over the messages of a [`Db3Query`]. A message whose data
/// cannot be read is yielded as an error and the iteration goes on; when
/// the table itself cannot be read, the error is the last item.
pub struct Db3Messages<'d> {
    db3: &'d Db3,
    sql: String,
    /// The (timestamp, id) the next batch starts after.
    after: (i64, i64),
    end: i64,
    /// Row id, topic id, timestamp and length of the data.
    batch: VecDeque<(i64, u32, i64, u64)>,
    done: bool,
}

impl Db3Messages<'_> {
    fn fill(&mut self, db: &Connection) -> Result<()> {
        let mut statement = db.prepare_cached(&self.sql).map_err(db_error)?;
        let (after_time, after_id) = self.after;
        // The first batch takes the start time itself.
        let rows = statement
            .query_map(rusqlite::params![after_time, after_id, self.end], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    u32::try_from(r.get::<_, i64>(1)?).unwrap_or(u32::MAX),
                    r.get::<_, i64>(2)?,
                    u64::try_from(r.get::<_, Option<i64>>(3)?.unwrap_or(0)).unwrap_or(0),
                ))
            })
            .map_err(db_error)?;
        for row in rows {
            self.batch.push_back(row.map_err(db_error)?);
        }
        Ok(())
    }
}

impl Iterator for Db3Messages<'_> {
    type Item = Result<Message>;

    fn next(&mut self) -> Option<Result<Message>> {
        if self.done {
            return None;
        }
        let db = self.db3.db.lock();
        if self.batch.is_empty() {
            if let Err(e) = self.fill(&db) {
                self.done = true;
                return Some(Err(e));
            }
        }
        let Some((row, topic, time, len)) = self.batch.pop_front() else {
            self.done = true;
            return None;
        };
        self.after = (time, row);
        Some(
            self.db3
                .data_of(&db, row, len)
                .map(|data| Message {
                    conn: topic,
                    time: to_ns(time),
                    data,
                })
                .map_err(|e| Error::InMessage {
                    topic: self
                        .db3
                        .topic(topic)
                        .map_or_else(|| format!("topic id {topic}"), |t| t.topic.clone()),
                    time: to_ns(time),
                    error: Box::new(e),
                }),
        )
    }
}

impl std::fmt::Debug for Db3Messages<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Db3Messages")
            .field("after", &self.after)
            .field("done", &self.done)
            .finish_non_exhaustive()
    }
}
