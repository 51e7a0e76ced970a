//! Writing a rosbag2 bag directory as `ros2 bag record` leaves one: a
//! `metadata.yaml` and one storage file, SQLite 3 (`NAME_0.db3`, rosbag2's
//! own schema) or MCAP (`NAME_0.mcap`, through the `mcap` crate, with
//! each type's definition as its schema).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs::File;
use std::io::{self, BufWriter};
use std::path::{Path, PathBuf};

use super::writer::{Db3Schema, Db3Writer};
use super::MessageType;
use super::TopicEncoding;
use crate::storage::file::{partial_path_for, publish_partial};
use crate::storage::FileFormat;
use crate::storage::{Connection, ConnectionExt};
use crate::{Error, Result};

/// The `metadata.yaml` version written: 8 (Iron's) has type hashes and
/// keeps QoS profiles as a YAML string, which Humble also reads.
const METADATA_VERSION: u32 = 8;

/// MCAP chunks of this size, as rosbag2's MCAP plugin writes by default.
const MCAP_CHUNK_SIZE: u64 = 768 * 1024;

/// QoS profiles of a topic whose publisher is gone, as `ros2 bag record`
/// stores them (history, durability and liveliness unknown, reliable).
const QOS_RECORDED: &str = "- history: 3\n  depth: 0\n  reliability: 1\n  durability: 2\n  deadline:\n    sec: 0\n    nsec: 0\n  lifespan:\n    sec: 0\n    nsec: 0\n  liveliness: 1\n  liveliness_lease_duration:\n    sec: 0\n    nsec: 0\n  avoid_ros_namespace_conventions: false";

/// QoS profiles of a latched topic (`/tf_static`): keep last 1, reliable,
/// transient local, so that a player offers it to late subscribers.
const QOS_LATCHED: &str = "- history: 1\n  depth: 1\n  reliability: 1\n  durability: 1\n  deadline:\n    sec: 0\n    nsec: 0\n  lifespan:\n    sec: 0\n    nsec: 0\n  liveliness: 1\n  liveliness_lease_duration:\n    sec: 0\n    nsec: 0\n  avoid_ros_namespace_conventions: false";

/// How the chunks of an MCAP file are compressed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum McapCompression {
    /// zstd, as `ros2 bag record` writes MCAP by default, at zstd's
    /// fastest level on every core (camera images barely compress: the
    /// default level took 2.6x as long for files a tenth smaller).
    #[default]
    Zstd,
    /// LZ4 frames: quicker than zstd, files larger.
    Lz4,
    /// Uncompressed chunks, as rosbags writes MCAP by default: the
    /// quickest to write and to read, the largest.
    None,
}

impl McapCompression {
    /// Every compression.
    pub const ALL: [McapCompression; 3] = [
        McapCompression::Zstd,
        McapCompression::Lz4,
        McapCompression::None,
    ];

    /// Its name, as `FromStr` reads it (`zstd`, `lz4`, `none`).
    pub fn name(self) -> &'static str {
        match self {
            McapCompression::Zstd => "zstd",
            McapCompression::Lz4 => "lz4",
            McapCompression::None => "none",
        }
    }
}

impl std::str::FromStr for McapCompression {
    type Err = Error;

    fn from_str(s: &str) -> Result<McapCompression> {
        (McapCompression::ALL.into_iter())
            .find(|c| c.name() == s)
            .ok_or_else(|| {
                Error::InvalidArgument(format!(
                    "unknown MCAP compression {s:?} (zstd, lz4 or none)"
                ))
            })
    }
}

/// Whether a topic's messages are offered to late subscribers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Durability {
    /// Each message once, as published (images, IMU samples).
    Volatile,
    /// The last message kept for late subscribers (`/tf_static`).
    Latched,
}

#[derive(Debug)]
struct DirTopic {
    name: String,
    msg_type: String,
    serialization_format: String,
    qos: String,
    hash: String,
    count: u64,
    /// The storage's id for it (a `.db3` topic id, an MCAP channel id).
    storage_id: u32,
}

/// The open writer of the bag's one storage file (its format is the
/// [`FileFormat`](crate::storage::FileFormat) the bag was made with).
enum StorageWriter {
    Sqlite3(Box<Db3Writer>),
    Mcap(Box<mcap::Writer<BufWriter<File>>>),
}

/// Writes a rosbag2 bag directory. Like [`crate::storage::bag::BagFile`], it
/// writes under a temporary name (`NAME.partial/`) and renames the
/// directory when finished; a directory already at the name is never
/// replaced.
///
/// # Example
/// ```
/// use rsbag::msg::{ros2, ros2_definitions::message_type};
/// use rsbag::storage::rosbag2::{BagDirWriter, Durability};
/// use rsbag::storage::FileFormat;
/// # fn main() -> rsbag::Result<()> {
/// let dir = tempfile::tempdir().unwrap();
/// let out = dir.path().join("session");
/// let mut writer = BagDirWriter::create(&out, FileFormat::Mcap)?;
/// let topic = writer.add_topic("/chatter", &message_type(ros2::STRING), Durability::Volatile)?;
/// writer.write(topic, 5, &ros2::encode_string(b"hello"))?;
/// writer.finish()?;
/// assert!(out.join("metadata.yaml").exists());
/// assert!(out.join("session_0.mcap").exists());
/// # Ok(()) }
/// ```
pub struct BagDirWriter {
    dir: PathBuf,
    partial_dir: PathBuf,
    file_name: String,
    /// rosbag2's name of the storage plugin (`sqlite3`, `mcap`).
    storage_id: &'static str,
    storage: StorageWriter,
    topics: Vec<DirTopic>,
    schemas: BTreeMap<String, u16>,
    span: Option<(u64, u64)>,
    /// Reused to join the parts of an MCAP message.
    joined: Vec<u8>,
}

impl BagDirWriter {
    /// Start writing a bag directory that will be named `dir` once
    /// finished, its storage file in `format` ([`FileFormat::Db3`] or
    /// [`FileFormat::Mcap`]); anything at `dir` or at its temporary name is an
    /// error.
    pub fn create(dir: impl AsRef<Path>, format: FileFormat) -> Result<BagDirWriter> {
        BagDirWriter::create_with(dir, format, McapCompression::default())
    }

    /// As [`BagDirWriter::create`], an MCAP file's chunks compressed as
    /// `mcap_compression` says (ignored for sqlite3).
    pub fn create_with(
        dir: impl AsRef<Path>,
        format: FileFormat,
        mcap_compression: McapCompression,
    ) -> Result<BagDirWriter> {
        let dir = dir.as_ref().to_owned();
        let storage_id = format.rosbag2_storage_id().ok_or_else(|| {
            Error::InvalidArgument(format!(
                "{}: a ROS 2 bag directory holds a .db3 or an .mcap file, not a ROS1 bag",
                dir.display()
            ))
        })?;
        let exists = |path: &Path| Error::Io {
            path: path.to_owned(),
            error: io::Error::new(
                io::ErrorKind::AlreadyExists,
                "exists, and is not replaced (choose another output, or remove it)",
            ),
        };
        if dir.symlink_metadata().is_ok() {
            return Err(exists(&dir));
        }
        let name = dir
            .file_name()
            .and_then(|n| n.to_str())
            .filter(|n| !n.is_empty())
            .ok_or_else(|| {
                Error::InvalidArgument(format!(
                    "{}: a bag directory needs a name in UTF-8",
                    dir.display()
                ))
            })?
            .to_owned();
        let partial_dir = partial_path_for(&dir);
        std::fs::create_dir(&partial_dir).map_err(|error| match error.kind() {
            io::ErrorKind::AlreadyExists => exists(&partial_dir),
            _ => Error::Io {
                path: partial_dir.clone(),
                error,
            },
        })?;
        let file_name = format!("{name}_0.{}", format.extension());
        let file_path = partial_dir.join(&file_name);
        let storage = match open_storage(&file_path, format, mcap_compression) {
            Ok(storage) => storage,
            Err(e) => {
                let _ = std::fs::remove_dir_all(&partial_dir);
                return Err(e);
            }
        };
        Ok(BagDirWriter {
            dir,
            partial_dir,
            file_name,
            storage_id,
            storage,
            topics: Vec::new(),
            schemas: BTreeMap::new(),
            span: None,
            joined: Vec::new(),
        })
    }

    /// Add topic `name` of type `msg_type`, stored with its definition;
    /// returns its handle for [`BagDirWriter::write`].
    pub fn add_topic(
        &mut self,
        name: &str,
        msg_type: &MessageType,
        durability: Durability,
    ) -> Result<usize> {
        let qos = match durability {
            Durability::Volatile => QOS_RECORDED,
            Durability::Latched => QOS_LATCHED,
        };
        let encoding = TopicEncoding {
            serialization_format: "cdr",
            definition_encoding: "ros2msg",
        };
        self.add_encoded_topic(name, msg_type, encoding, qos)
    }

    /// Add a topic of another bag as it is there: `conn`'s name, type,
    /// definition, serialization format (a ROS1 bag's messages keep theirs:
    /// `ros1`, definitions `ros1msg`) and offered QoS profiles.
    pub(crate) fn add_topic_like(&mut self, conn: &Connection) -> Result<usize> {
        let (encoding, qos) = match &conn.ext {
            ConnectionExt::Ros1 { .. } => (
                TopicEncoding {
                    serialization_format: "ros1",
                    definition_encoding: "ros1msg",
                },
                "",
            ),
            ConnectionExt::Rosbag2 {
                serialization_format,
                offered_qos_profiles,
            } => (
                TopicEncoding {
                    serialization_format,
                    definition_encoding: "ros2msg",
                },
                offered_qos_profiles.as_str(),
            ),
        };
        let msg_type = MessageType {
            name: conn.msg_type.clone(),
            definition: conn.message_definition.clone(),
            hash: String::new(),
        };
        self.add_encoded_topic(&conn.topic, &msg_type, encoding, qos)
    }

    fn add_encoded_topic(
        &mut self,
        name: &str,
        msg_type: &MessageType,
        encoding: TopicEncoding<'_>,
        qos: &str,
    ) -> Result<usize> {
        let storage_id = match &mut self.storage {
            StorageWriter::Sqlite3(db) => db.add_encoded_topic(name, msg_type, encoding, qos)?,
            StorageWriter::Mcap(mcap) => {
                let schema = match self.schemas.get(&msg_type.name) {
                    Some(&id) => id,
                    None => {
                        let id = mcap
                            .add_schema(
                                &msg_type.name,
                                encoding.definition_encoding,
                                msg_type.definition.as_bytes(),
                            )
                            .map_err(|e| mcap_error(&self.partial_dir, e))?;
                        self.schemas.insert(msg_type.name.clone(), id);
                        id
                    }
                };
                let metadata =
                    BTreeMap::from([("offered_qos_profiles".to_owned(), qos.to_owned())]);
                u32::from(
                    mcap.add_channel(schema, name, encoding.serialization_format, &metadata)
                        .map_err(|e| mcap_error(&self.partial_dir, e))?,
                )
            }
        };
        self.topics.push(DirTopic {
            name: name.to_owned(),
            msg_type: msg_type.name.clone(),
            serialization_format: encoding.serialization_format.to_owned(),
            qos: qos.to_owned(),
            hash: msg_type.hash.clone(),
            count: 0,
            storage_id,
        });
        Ok(self.topics.len() - 1)
    }

    /// Add a CDR message on `topic` (from [`BagDirWriter::add_topic`]) at
    /// `time` ns since the epoch.
    pub fn write(&mut self, topic: usize, time: u64, data: &[u8]) -> Result<()> {
        self.write_parts(topic, time, &[data])
    }

    /// Add a message whose bytes are `parts` one after the other.
    pub(crate) fn write_parts(&mut self, topic: usize, time: u64, parts: &[&[u8]]) -> Result<()> {
        let Some(entry) = self.topics.get_mut(topic) else {
            return Err(Error::InvalidArgument(format!(
                "no topic {topic} was added"
            )));
        };
        match &mut self.storage {
            StorageWriter::Sqlite3(db) => db.write_parts(entry.storage_id, time, parts)?,
            StorageWriter::Mcap(mcap) => {
                self.joined.clear();
                for part in parts {
                    self.joined.extend_from_slice(part);
                }
                let header = mcap::records::MessageHeader {
                    channel_id: entry.storage_id as u16,
                    sequence: u32::try_from(entry.count).unwrap_or(u32::MAX),
                    log_time: time,
                    publish_time: time,
                };
                mcap.write_to_known_channel(&header, &self.joined)
                    .map_err(|e| mcap_error(&self.partial_dir, e))?;
            }
        }
        entry.count += 1;
        self.span = Some(match self.span {
            Some((start, end)) => (start.min(time), end.max(time)),
            None => (time, time),
        });
        Ok(())
    }

    /// Write messages that only mean something together (a frame's image,
    /// camera info and metadata) as one: in an sqlite3 bag no commit falls
    /// between them ([`Db3Writer::write_together`]); an MCAP file has no
    /// transactions (a cut one is read up to its last whole chunk).
    pub fn write_together<T>(
        &mut self,
        write: impl FnOnce(&mut BagDirWriter) -> Result<T>,
    ) -> Result<T> {
        if let StorageWriter::Sqlite3(db) = &mut self.storage {
            db.hold_commits();
        }
        let written = write(self);
        match &mut self.storage {
            StorageWriter::Sqlite3(db) => db.release_commits(written),
            StorageWriter::Mcap(_) => written,
        }
    }

    /// Messages written so far, per topic name.
    pub fn message_counts(&self) -> BTreeMap<String, u64> {
        self.topics
            .iter()
            .map(|t| (t.name.clone(), t.count))
            .collect()
    }

    /// Close the storage file, write `metadata.yaml` and rename the
    /// directory to its final name; returns the path of the storage file.
    pub fn finish(self) -> Result<PathBuf> {
        let partial_dir = self.partial_dir.clone();
        match self.finish_inner() {
            Ok(path) => Ok(path),
            Err(e) => {
                let _ = std::fs::remove_dir_all(&partial_dir);
                Err(e)
            }
        }
    }

    fn finish_inner(self) -> Result<PathBuf> {
        let yaml = self.metadata_yaml();
        let information = yaml
            .strip_prefix("rosbag2_bagfile_information:\n")
            .unwrap_or(&yaml)
            .lines()
            .map(|l| l.strip_prefix("  ").unwrap_or(l))
            .collect::<Vec<_>>()
            .join("\n");
        match self.storage {
            StorageWriter::Sqlite3(mut db) => {
                db.set_metadata(METADATA_VERSION, &information)?;
                (*db).finish()?;
            }
            StorageWriter::Mcap(mut mcap) => {
                let metadata = mcap::records::Metadata {
                    name: "rosbag2".into(),
                    metadata: BTreeMap::from([
                        ("serialized_metadata".to_owned(), information),
                        ("ros_distro".to_owned(), "rsbag".to_owned()),
                    ]),
                };
                mcap.write_metadata(&metadata)
                    .and_then(|_| mcap.finish().map(|_| ()))
                    .map_err(|e| mcap_error(&self.partial_dir, e))?;
                let file = mcap.into_inner();
                file.into_inner()
                    .map_err(|e| e.into_error())
                    .and_then(|f| f.sync_all().map(|_| ()))
                    .map_err(|error| Error::Io {
                        path: self.partial_dir.join(&self.file_name),
                        error,
                    })?;
            }
        }
        let metadata_path = self.partial_dir.join("metadata.yaml");
        std::fs::write(&metadata_path, yaml).map_err(|error| Error::Io {
            path: metadata_path,
            error,
        })?;
        publish_partial(&self.partial_dir, &self.dir, false)?;
        Ok(self.dir.join(&self.file_name))
    }

    /// Stop writing and delete the temporary directory.
    pub fn abandon(self) {
        let partial_dir = self.partial_dir.clone();
        if let StorageWriter::Sqlite3(db) = self.storage {
            (*db).abandon();
        }
        let _ = std::fs::remove_dir_all(partial_dir);
    }

    /// `metadata.yaml`, as rosbag2 writes it (version 8).
    fn metadata_yaml(&self) -> String {
        let (start, end) = self.span.unwrap_or((0, 0));
        let duration = end - start;
        let count: u64 = self.topics.iter().map(|t| t.count).sum();
        let mut y = String::new();
        let _ = write!(
            y,
            "rosbag2_bagfile_information:\n  version: {METADATA_VERSION}\n  storage_identifier: {}\n  duration:\n    nanoseconds: {duration}\n  starting_time:\n    nanoseconds_since_epoch: {start}\n  message_count: {count}\n  topics_with_message_count:\n",
            self.storage_id
        );
        for t in &self.topics {
            let _ = write!(
                y,
                "    - topic_metadata:\n        name: {}\n        type: {}\n        serialization_format: {}\n        offered_qos_profiles: {}\n        type_description_hash: {}\n      message_count: {}\n",
                yaml_string(&t.name),
                yaml_string(&t.msg_type),
                yaml_string(&t.serialization_format),
                yaml_string(&t.qos),
                yaml_string(&t.hash),
                t.count
            );
        }
        let _ = write!(
            y,
            "  compression_format: \"\"\n  compression_mode: \"\"\n  relative_file_paths:\n    - {file}\n  files:\n    - path: {file}\n      starting_time:\n        nanoseconds_since_epoch: {start}\n      duration:\n        nanoseconds: {duration}\n      message_count: {count}\n  custom_data: ~\n  ros_distro: rsbag\n",
            file = yaml_string(&self.file_name)
        );
        y
    }
}

impl std::fmt::Debug for BagDirWriter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BagDirWriter")
            .field("dir", &self.dir)
            .field("storage", &self.storage_id)
            .field("topics", &self.topics)
            .finish_non_exhaustive()
    }
}

fn open_storage(
    path: &Path,
    format: FileFormat,
    mcap_compression: McapCompression,
) -> Result<StorageWriter> {
    match format {
        FileFormat::Db3 => {
            let mut db = Db3Writer::create_with_schema(path, Db3Schema::Rosbag2)?;
            // A conversion can be run again from its input: no sync per
            // commit, as `cp` (the directory appears only when complete).
            db.set_durable(false)?;
            Ok(StorageWriter::Sqlite3(Box::new(db)))
        }
        FileFormat::Mcap => {
            let file = File::create_new(path).map_err(|error| Error::Io {
                path: path.to_owned(),
                error,
            })?;
            let options = mcap::WriteOptions::new()
                .profile("ros2")
                .library(concat!("rsbag ", env!("CARGO_PKG_VERSION")))
                .chunk_size(Some(MCAP_CHUNK_SIZE));
            let options = match mcap_compression {
                McapCompression::Zstd => options
                    .compression(Some(mcap::Compression::Zstd))
                    .compression_level(1)
                    .compression_threads(compression_threads()),
                McapCompression::Lz4 => options.compression(Some(mcap::Compression::Lz4)),
                McapCompression::None => options.compression(None),
            };
            options
                .create(BufWriter::with_capacity(1 << 20, file))
                .map(|w| StorageWriter::Mcap(Box::new(w)))
                .map_err(|e| mcap_error(path, e))
        }
        FileFormat::Bag => Err(Error::InvalidArgument(format!(
            "{}: a ROS 2 bag directory holds no ROS1 bag",
            path.display()
        ))),
    }
}

/// What the MCAP writer said: an I/O error (a full disk) or a limit.
fn mcap_error(path: &Path, e: mcap::McapError) -> Error {
    Error::Io {
        path: path.to_owned(),
        error: match e {
            mcap::McapError::Io(error) => error,
            other => io::Error::other(other.to_string()),
        },
    }
}

/// `text` as a YAML double-quoted scalar.
fn yaml_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Threads compressing MCAP chunks: one per core.
fn compression_threads() -> u32 {
    std::thread::available_parallelism().map_or(1, |n| u32::try_from(n.get()).unwrap_or(1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::rosbag2::MessageType;

    #[test]
    fn an_existing_directory_is_never_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("bag");
        std::fs::create_dir(&out).unwrap();
        std::fs::write(out.join("keep"), b"x").unwrap();
        let err = BagDirWriter::create(&out, FileFormat::Db3).unwrap_err();
        assert!(err.to_string().contains("not replaced"), "{err}");
        assert_eq!(std::fs::read(out.join("keep")).unwrap(), b"x");
    }

    #[test]
    fn abandon_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        for storage in [FileFormat::Db3, FileFormat::Mcap] {
            let out = dir.path().join(storage.extension());
            let mut w = BagDirWriter::create(&out, storage).unwrap();
            let t = w
                .add_topic(
                    "/a",
                    &MessageType::named("std_msgs/msg/String"),
                    Durability::Volatile,
                )
                .unwrap();
            w.write(t, 1, b"x").unwrap();
            w.abandon();
            assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
        }
    }

    #[test]
    fn yaml_strings_are_quoted_and_escaped() {
        assert_eq!(yaml_string("a\"b\\c\nd"), r#""a\"b\\c\nd""#);
    }
}
