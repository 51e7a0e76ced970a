//! Writing a rosbag2 `.db3` with librealsense 2.59's tables and index.

use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};

use rusqlite::blob::ZeroBlob;
use rusqlite::{Connection, OpenFlags, MAIN_DB};

use super::{direct_writes, to_db, MessageType, TopicEncoding};
use crate::storage::file::{claim_partial, publish_partial, PartialClaim};
use crate::storage::growing_file::GrowingFile;
use crate::{Error, Result};

/// The schema librealsense 2.59 creates (rosbag2's "schema 2"), statement
/// by statement as it writes it.
const SCHEMA: &str = "\
CREATE TABLE topics(id INTEGER PRIMARY KEY,name TEXT NOT NULL,type TEXT NOT NULL,serialization_format TEXT NOT NULL,offered_qos_profiles TEXT NOT NULL);
CREATE TABLE messages(id INTEGER PRIMARY KEY,topic_id INTEGER NOT NULL,timestamp INTEGER NOT NULL, data BLOB NOT NULL);
CREATE INDEX timestamp_idx ON messages (timestamp ASC);";

/// The schema rosbag2 itself creates from Iron on (its "schema 4"): the
/// same tables with message definitions, type hashes and the bag's
/// metadata.
const ROSBAG2_SCHEMA: &str = "\
CREATE TABLE schema(schema_version INTEGER PRIMARY KEY,ros_distro TEXT NOT NULL);
CREATE TABLE metadata(id INTEGER PRIMARY KEY,metadata_version INTEGER NOT NULL,metadata TEXT NOT NULL);
CREATE TABLE topics(id INTEGER PRIMARY KEY,name TEXT NOT NULL,type TEXT NOT NULL,serialization_format TEXT NOT NULL,offered_qos_profiles TEXT NOT NULL,type_description_hash TEXT NOT NULL);
CREATE TABLE message_definitions(id INTEGER PRIMARY KEY,topic_type TEXT NOT NULL,encoding TEXT NOT NULL,encoded_message_definition TEXT NOT NULL,type_description_hash TEXT NOT NULL);
CREATE TABLE messages(id INTEGER PRIMARY KEY,topic_id INTEGER NOT NULL,timestamp INTEGER NOT NULL,data BLOB NOT NULL);
CREATE INDEX timestamp_idx ON messages (timestamp ASC);
INSERT INTO schema(schema_version, ros_distro) VALUES (4, 'rsbag');";

/// Which tables a [`Db3Writer`] creates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Db3Schema {
    /// librealsense 2.59's: `topics` and `messages` only (what 2.59 reads).
    #[default]
    Librealsense,
    /// rosbag2's own (Iron and later): also `schema`, `metadata` and
    /// `message_definitions`, and each topic's type hash, for a bag
    /// directory ROS 2 tools open.
    Rosbag2,
}

/// A transaction is committed after this many bytes of messages, so a
/// crash loses at most that much and memory stays bounded.
const COMMIT_BYTES: usize = 32 << 20;

/// A writer that need not survive a crash commits (writes its pages out)
/// after this many bytes instead: the pages are still in the processor's
/// cache when they are copied out (into the runs written straight to the
/// disk, see `direct_writes`, or into the page cache), which then runs at
/// cache speed rather than memory speed.
const UNDURABLE_COMMIT_BYTES: usize = 4 << 20;

/// A file of fewer bytes of messages than this is rewritten in 4 KiB
/// pages when finished (see [`Db3Writer::finish`]): it takes a few
/// milliseconds, and the file shrinks to the size of its data.
const SMALL_FILE_BYTES: u64 = 4 << 20;

/// ... or once this long has passed since the last commit, so that a
/// recording of little data loses at most about a second to a crash.
const COMMIT_INTERVAL: std::time::Duration = std::time::Duration::from_secs(1);

/// Writes a `.db3`: topics, then messages in any order (readers order
/// them by timestamp). Like [`crate::storage::bag::BagFile`], it writes under a
/// temporary name (`NAME.db3.partial`) and renames the file when finished,
/// never replacing a file unless asked. It commits every 32 MB or every
/// second, and every committed message survives a crash of the writing
/// process: SQLite's journal keeps the partial file a consistent database,
/// readable as it is (unless made undurable, see
/// [`Db3Writer::set_durable`]).
///
/// # Example
/// ```
/// use rsbag::msg::{ros2, ros2_definitions::message_type};
/// use rsbag::storage::rosbag2::{Db3, Db3Writer};
/// # fn main() -> rsbag::Result<()> {
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("out.db3");
/// let mut writer = Db3Writer::create(&path)?;
/// let topic = writer.add_topic("/chatter", &message_type(ros2::STRING), "")?;
/// writer.write(topic, 5, &ros2::encode_string(b"hello"))?;
/// writer.finish()?;
/// let db3 = Db3::open(&path)?;
/// assert_eq!(db3.topics()[0].topic, "/chatter");
/// assert_eq!(db3.total_message_count(), 1);
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct Db3Writer {
    path: PathBuf,
    partial_path: PathBuf,
    /// Held until the file has its final name.
    claim: PartialClaim,
    replace: bool,
    schema: Db3Schema,
    db: Connection,
    topics: HashMap<String, u32>,
    /// The file as it grows: space reserved ahead of each commit, its
    /// pages written out behind.
    file: GrowingFile,
    uncommitted: usize,
    /// How many [`Db3Writer::write_together`] calls are under way: no
    /// commit falls inside one.
    together: u32,
    /// [`COMMIT_BYTES`], or [`UNDURABLE_COMMIT_BYTES`] once not durable.
    commit_bytes: usize,
    /// Whether the pages go straight to the disk (once not durable, where
    /// the filesystem allows it): none are left in the page cache to
    /// write behind.
    direct: bool,
    bytes: u64,
    last_commit: std::time::Instant,
}

impl Db3Writer {
    /// Start writing a `.db3` that will be named `path` once finished; a
    /// file at `path` or at its temporary name is an error.
    pub fn create(path: impl AsRef<Path>) -> Result<Db3Writer> {
        Db3Writer::start(path.as_ref(), false, Db3Schema::Librealsense)
    }

    /// [`Db3Writer::create`], replacing a file at `path` (and at its
    /// temporary name) when finished.
    pub fn create_or_replace(path: impl AsRef<Path>) -> Result<Db3Writer> {
        Db3Writer::start(path.as_ref(), true, Db3Schema::Librealsense)
    }

    /// [`Db3Writer::create`] with the tables of `schema`.
    pub(crate) fn create_with_schema(
        path: impl AsRef<Path>,
        schema: Db3Schema,
    ) -> Result<Db3Writer> {
        Db3Writer::start(path.as_ref(), false, schema)
    }

    fn start(path: &Path, replace: bool, schema: Db3Schema) -> Result<Db3Writer> {
        // Claim the temporary name first: SQLite would open a file there.
        let (partial_path, file, claim) = claim_partial(path, replace)?;
        let db = open_for_writing(&partial_path, schema).map_err(|e| e.in_file(&partial_path))?;
        let file = GrowingFile::new(file);
        Ok(Db3Writer {
            path: path.to_owned(),
            partial_path,
            claim,
            replace,
            schema,
            db,
            topics: HashMap::new(),
            file,
            uncommitted: 0,
            together: 0,
            commit_bytes: COMMIT_BYTES,
            direct: false,
            bytes: 0,
            last_commit: std::time::Instant::now(),
        })
    }

    /// Whether the file survives crashes as it is written (the default:
    /// each commit waits until its data is on disk, and a crash, even of
    /// the machine, loses at most the last second or 32 MB). A writer
    /// that need not survive a crash (a conversion, which can be run
    /// again from its input, and whose file appears under its name only
    /// once complete) turns it off: no sync and no rollback journal, and
    /// the pages go straight to the disk, beside the writing, where the
    /// filesystem allows it (see `direct_writes`); a crash leaves an
    /// unusable `.partial` file.
    pub fn set_durable(&mut self, durable: bool) -> Result<()> {
        // Not durable, the file is no one else's to read meanwhile: held
        // locked, SQLite need not look at it again at each transaction
        // (which would wait for the direct writes under way).
        let (sync, journal, locking, commit_bytes) = if durable {
            ("NORMAL", "DELETE", "NORMAL", COMMIT_BYTES)
        } else {
            ("OFF", "OFF", "EXCLUSIVE", UNDURABLE_COMMIT_BYTES)
        };
        self.commit_bytes = commit_bytes;
        let cache_kib = cache_kib(self.commit_bytes);
        self.db
            .execute_batch(&format!(
                "COMMIT; PRAGMA synchronous = {sync}; PRAGMA journal_mode = {journal}; \
                 PRAGMA locking_mode = {locking}; PRAGMA cache_size = -{cache_kib}; BEGIN"
            ))
            .map_err(|e| self.in_file(db_error(e)))?;
        self.direct = !durable && direct_writes::write_directly(&self.db);
        Ok(())
    }

    /// The temporary path the file is written under until it is finished.
    pub fn partial_path(&self) -> &Path {
        &self.partial_path
    }

    /// Bytes of messages written so far.
    pub(crate) fn bytes_written(&self) -> u64 {
        self.bytes
    }

    /// An upper bound on the file's size were it finished now: the file
    /// as committed, and the messages not yet committed in SQLite's pages
    /// (a 64 KiB overflow page holds 65,532 bytes of a message, and the
    /// last page of a table or index takes a page at most: a sixteenth of
    /// the data and a few pages are plenty).
    pub(crate) fn finished_size_bound(&self) -> u64 {
        let committed = std::fs::metadata(&self.partial_path).map_or(0, |m| m.len());
        let uncommitted = self.uncommitted as u64;
        committed + uncommitted + uncommitted / 16 + 4 * 65536
    }

    /// The final path of the file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The id of topic `name`, added with `msg_type` (`cdr`) and the
    /// offered QoS profiles `qos` (YAML, or empty) if it is new. With the
    /// rosbag2 schema, the type's definition and hash are stored with it.
    pub fn add_topic(&mut self, name: &str, msg_type: &MessageType, qos: &str) -> Result<u32> {
        let encoding = TopicEncoding {
            serialization_format: "cdr",
            definition_encoding: "ros2msg",
        };
        self.add_encoded_topic(name, msg_type, encoding, qos)
    }

    /// [`Db3Writer::add_topic`] with messages serialized and the type
    /// defined as `encoding` says.
    pub(crate) fn add_encoded_topic(
        &mut self,
        name: &str,
        msg_type: &MessageType,
        encoding: TopicEncoding<'_>,
        qos: &str,
    ) -> Result<u32> {
        if let Some(&id) = self.topics.get(name) {
            return Ok(id);
        }
        let id = u32::try_from(self.topics.len() + 1).unwrap_or(u32::MAX);
        let inserted = match self.schema {
            Db3Schema::Librealsense => self
                .db
                .prepare_cached(
                    "INSERT INTO topics (id, name, type, serialization_format, offered_qos_profiles) \
                     VALUES (?1, ?2, ?3, ?4, ?5)",
                )
                .and_then(|mut s| {
                    s.execute(rusqlite::params![
                        id,
                        name,
                        msg_type.name,
                        encoding.serialization_format,
                        qos
                    ])
                }),
            Db3Schema::Rosbag2 => self.add_rosbag2_topic(id, name, msg_type, encoding, qos),
        };
        inserted.map_err(|e| self.in_file(db_error(e)))?;
        self.topics.insert(name.to_owned(), id);
        Ok(id)
    }

    fn add_rosbag2_topic(
        &self,
        id: u32,
        name: &str,
        msg_type: &MessageType,
        encoding: TopicEncoding<'_>,
        qos: &str,
    ) -> rusqlite::Result<usize> {
        let defined: bool = self.db.query_row(
            "SELECT EXISTS (SELECT 1 FROM message_definitions WHERE topic_type = ?1)",
            [&msg_type.name],
            |row| row.get(0),
        )?;
        if !defined {
            self.db.execute(
                "INSERT INTO message_definitions (topic_type, encoding, encoded_message_definition, type_description_hash) \
                 VALUES (?1, ?2, ?3, ?4)",
                rusqlite::params![
                    msg_type.name,
                    encoding.definition_encoding,
                    msg_type.definition,
                    msg_type.hash
                ],
            )?;
        }
        self.db.execute(
            "INSERT INTO topics (id, name, type, serialization_format, offered_qos_profiles, type_description_hash) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            rusqlite::params![
                id,
                name,
                msg_type.name,
                encoding.serialization_format,
                qos,
                msg_type.hash
            ],
        )
    }

    /// Store the bag's metadata (the `metadata.yaml` text without its
    /// top-level key), as rosbag2 keeps a copy in the file; only with the
    /// rosbag2 schema.
    pub(crate) fn set_metadata(&mut self, version: u32, yaml: &str) -> Result<()> {
        if self.schema != Db3Schema::Rosbag2 {
            return Err(Error::InvalidArgument(
                "only a rosbag2-schema .db3 holds metadata".into(),
            ));
        }
        self.db
            .execute(
                "INSERT INTO metadata (metadata_version, metadata) VALUES (?1, ?2)",
                rusqlite::params![version, yaml],
            )
            .map_err(|e| self.in_file(db_error(e)))?;
        Ok(())
    }

    /// Add a message on topic `topic` at `time` ns.
    pub fn write(&mut self, topic: u32, time: u64, data: &[u8]) -> Result<()> {
        self.db
            .prepare_cached("INSERT INTO messages (topic_id, timestamp, data) VALUES (?1, ?2, ?3)")
            .and_then(|mut s| s.execute(rusqlite::params![topic, to_db(time), data]))
            .map_err(|e| self.in_file(db_error(e)))?;
        self.uncommitted += data.len() + 32;
        self.bytes += data.len() as u64;
        self.commit_when_due()
    }

    /// Add a message whose bytes are `parts` one after the other, written
    /// straight into the database's pages (a large image is not copied
    /// into a buffer first).
    pub(crate) fn write_parts(&mut self, topic: u32, time: u64, parts: &[&[u8]]) -> Result<()> {
        let len: usize = parts.iter().map(|p| p.len()).sum();
        let row = self
            .db
            .prepare_cached("INSERT INTO messages (topic_id, timestamp, data) VALUES (?1, ?2, ?3)")
            .and_then(|mut s| {
                let size = i32::try_from(len).map_err(|_| {
                    rusqlite::Error::ToSqlConversionFailure("a message over 2 GiB".into())
                })?;
                s.insert(rusqlite::params![topic, to_db(time), ZeroBlob(size)])
            })
            .map_err(|e| self.in_file(db_error(e)))?;
        let mut blob = self
            .db
            .blob_open(MAIN_DB, c"messages", c"data", row, false)
            .map_err(|e| db_error(e).in_file(&self.partial_path))?;
        let mut at = 0;
        for part in parts {
            blob.write_at(part, at)
                .map_err(|e| db_error(e).in_file(&self.partial_path))?;
            at += part.len();
        }
        drop(blob);
        self.uncommitted += len + 32;
        self.bytes += len as u64;
        self.commit_when_due()
    }

    /// Commit what was written so far: it survives a crash from now on.
    pub fn commit(&mut self) -> Result<()> {
        if !self.direct {
            self.file.reserve_ahead();
        }
        self.db
            .execute_batch("COMMIT; BEGIN")
            .map_err(|e| self.in_file(db_error(e)))?;
        if !self.direct {
            self.file.write_behind();
        }
        self.uncommitted = 0;
        self.last_commit = std::time::Instant::now();
        Ok(())
    }

    /// Write messages that only mean something together (a frame's data
    /// and its metadata, a stream's description) as one: no commit falls
    /// between them, so a crash keeps all of them or none, and a recovered
    /// file never holds half a frame. The commit that falls due inside
    /// `write` is made after it.
    ///
    /// # Example
    /// ```
    /// use rsbag::msg::{ros2, ros2_definitions::message_type};
    /// use rsbag::storage::rosbag2::Db3Writer;
    /// # fn main() -> rsbag::Result<()> {
    /// # let dir = tempfile::tempdir().unwrap();
    /// let mut writer = Db3Writer::create(dir.path().join("out.db3"))?;
    /// let data = writer.add_topic("/data", &message_type(ros2::STRING), "")?;
    /// let meta = writer.add_topic("/metadata", &message_type(ros2::STRING), "")?;
    /// writer.write_together(|w| {
    ///     w.write(data, 5, &ros2::encode_string(b"pixels"))?;
    ///     w.write(meta, 5, &ros2::encode_string(b"Frame Counter=1"))
    /// })?;
    /// writer.finish()?;
    /// # Ok(()) }
    /// ```
    pub fn write_together<T>(
        &mut self,
        write: impl FnOnce(&mut Db3Writer) -> Result<T>,
    ) -> Result<T> {
        self.hold_commits();
        let written = write(self);
        self.release_commits(written)
    }

    /// Make no commit until the matching [`Db3Writer::release_commits`]
    /// (for writers that reach this one through their own methods).
    pub(crate) fn hold_commits(&mut self) {
        self.together += 1;
    }

    /// End what [`Db3Writer::hold_commits`] began, with what was written
    /// meanwhile; the commit that fell due is made now.
    pub(crate) fn release_commits<T>(&mut self, written: Result<T>) -> Result<T> {
        self.together -= 1;
        let value = written?;
        self.commit_when_due()?;
        Ok(value)
    }

    /// Commit after `commit_bytes` or [`COMMIT_INTERVAL`], unless inside
    /// [`Db3Writer::write_together`].
    fn commit_when_due(&mut self) -> Result<()> {
        if self.together > 0 {
            return Ok(());
        }
        if self.uncommitted >= self.commit_bytes || self.last_commit.elapsed() >= COMMIT_INTERVAL {
            self.commit()?;
        }
        Ok(())
    }

    /// Commit, close and rename the file to its final name; returns its
    /// size in bytes. A file of less than 4 MB of messages is first
    /// rewritten in 4 KiB pages (64 KiB pages suit large images; a small
    /// file would be mostly empty pages).
    pub fn finish(self) -> Result<u64> {
        let durable = self.commit_bytes == COMMIT_BYTES;
        let Db3Writer {
            path,
            partial_path,
            claim,
            replace,
            db,
            file,
            bytes,
            ..
        } = self;
        let in_file = |e: Error| e.in_file(&partial_path);
        if let Err(e) = close_finished(db, file, bytes) {
            if !durable {
                // Written without a journal, an unfinished file is of no
                // use to anyone: it goes.
                let _ = std::fs::remove_file(&partial_path);
            }
            return Err(in_file(e));
        }
        let size = std::fs::metadata(&partial_path)
            .map_err(|e| in_file(e.into()))?
            .len();
        publish_partial(&partial_path, &path, replace)?;
        drop(claim);
        Ok(size)
    }

    /// Stop writing and delete the partial file.
    pub fn abandon(self) {
        let Db3Writer {
            db,
            file,
            partial_path,
            claim,
            ..
        } = self;
        drop((db, file));
        let _ = std::fs::remove_file(partial_path);
        drop(claim);
    }

    fn in_file(&self, e: Error) -> Error {
        e.in_file(&self.partial_path)
    }
}

/// Commit the last messages, rewrite a small file in small pages, wait
/// for the pages written straight to the disk and close the file.
fn close_finished(db: Connection, file: GrowingFile, bytes: u64) -> Result<()> {
    db.execute_batch("COMMIT").map_err(db_error)?;
    // VACUUM writes a copy of the file, and a journal as large: not on a
    // disk without room for them (a recording the full disk stopped keeps
    // its 64 KiB pages).
    let room = crate::storage::disk::free_bytes_of(file.file())
        .is_none_or(|free| free > 3 * SMALL_FILE_BYTES + crate::storage::reserve::KEEP_FREE);
    if bytes < SMALL_FILE_BYTES && room {
        // Every table and index takes a page of its own at least: in 64 KiB
        // pages a few frames make half a megabyte. Written anew in 4 KiB
        // pages (as librealsense's), a small file is the size of its data.
        db.execute_batch("PRAGMA page_size = 4096; VACUUM")
            .map_err(db_error)?;
    }
    direct_writes::finish_writes(&db)?;
    db.close().map_err(|(_, e)| db_error(e))?;
    file.release()?;
    Ok(())
}

/// What SQLite said while writing: an I/O error (a full disk, a file that
/// cannot be written), not a damaged input.
fn db_error(e: rusqlite::Error) -> Error {
    Error::Stream(io::Error::other(format!("SQLite: {e}")))
}

/// SQLite's page cache for transactions of `commit_bytes`, in KiB: larger
/// than a transaction, so each page is written once, at commit, and never
/// read back; no larger, so the memory of pages written out is reused
/// while still in the processor's cache.
fn cache_kib(commit_bytes: usize) -> usize {
    2 * commit_bytes / 1024
}

/// Open the (empty) file at `path` as a new `.db3` with librealsense's
/// or rosbag2's schema, in a transaction.
fn open_for_writing(path: &Path, schema: Db3Schema) -> Result<Connection> {
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let db = direct_writes::open(path, flags).map_err(db_error)?;
    // The rollback journal (the default) keeps every commit consistent and
    // leaves one file at rest, as librealsense writes it. 64 KiB pages: a
    // 1 MB image is 16 page writes, not 256.
    let cache_kib = cache_kib(COMMIT_BYTES);
    db.execute_batch(&format!(
        "PRAGMA page_size = 65536; PRAGMA synchronous = NORMAL; PRAGMA cache_size = -{cache_kib};"
    ))
    .map_err(db_error)?;
    db.execute_batch(match schema {
        Db3Schema::Librealsense => SCHEMA,
        Db3Schema::Rosbag2 => ROSBAG2_SCHEMA,
    })
    .map_err(db_error)?;
    db.execute_batch("BEGIN").map_err(db_error)?;
    Ok(db)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::rosbag2::MessageType;

    /// Messages written together stay in one transaction however large
    /// it grows; the commit that fell due inside comes right after.
    #[test]
    fn no_commit_falls_between_messages_written_together() {
        let dir = tempfile::tempdir().unwrap();
        let mut writer = Db3Writer::create(dir.path().join("t.db3")).unwrap();
        writer.set_durable(false).unwrap();
        let topic = writer
            .add_topic("/t", &MessageType::named("std_msgs/msg/String"), "")
            .unwrap();
        let big = vec![7u8; UNDURABLE_COMMIT_BYTES / 2 + 1];
        writer
            .write_together(|w| {
                for time in 0..5 {
                    w.write(topic, time, &big)?;
                }
                assert!(w.uncommitted > 2 * w.commit_bytes, "committed inside");
                Ok(())
            })
            .unwrap();
        assert_eq!(writer.uncommitted, 0, "the commit due is made after");
        // Outside, the same writes commit as they fall due.
        for time in 5..8 {
            writer.write(topic, time, &big).unwrap();
            assert!(writer.uncommitted < writer.commit_bytes);
        }
        // An error inside is returned, and commits go on afterwards.
        let failed: Result<()> =
            writer.write_together(|_| Err(Error::InvalidArgument("failed".into())));
        assert!(failed.is_err());
        assert_eq!(writer.together, 0);
        writer.finish().unwrap();
    }
}
