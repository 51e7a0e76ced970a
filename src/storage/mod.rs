//! The storage seam: where the messages of a RealSense recording are kept.
//!
//! A recording is a sequence of (topic, time, bytes) [`Message`]s. A
//! ROS1 [`Bag`] and a rosbag2 [`Db3`] both hold such messages; each encodes
//! them its own way ([`Encoding`]: ROS1 serialization with RealSense
//! message types, or CDR with `key=value` strings), and so does an
//! [`McapFile`]. [`Storage`] is that choice, made once by the file's
//! first bytes ([`FileFormat::sniff`]), never by its extension; everything
//! above it (the RealSense layout, recording, playback, the tools) asks
//! it for topics, counts, time spans and messages in time order, and
//! decodes the messages by its encoding.
//!
//! The formats themselves live here too: [`bag`] (ROS bag v2.0) and
//! [`rosbag2`] (`.db3`, MCAP and bag directories), with what they share:
//! [`FileFormat`] (which format a file is, by its first bytes; its extension,
//! its rosbag2 name, its encoding), the memory-mapped files and the
//! writing under a temporary name ([`partial_path_for`]), and LZ4.
//!
//! ```no_run
//! use rsbag::storage::Storage;
//! # fn main() -> rsbag::Result<()> {
//! let storage = Storage::open("recording.db3")?;
//! println!("{:?}, {} topics", storage.encoding(), storage.topics().len());
//! # Ok(()) }
//! ```

pub mod bag;
pub(crate) mod compression;
mod connection;
mod disk;
pub(crate) mod file;
mod format;
mod growing_file;
pub mod remote;
pub(crate) mod reserve;
pub mod rosbag2;
mod sqlite_vfs;

use std::ops::{Bound, RangeBounds};
use std::path::Path;

use bytes::Bytes;

use crate::{Error, Result};
use bag::{Bag, Messages};
pub(crate) use compression::pool::Decompressors;
use rosbag2::{Db3, Db3Messages, McapFile, McapMessages};

pub use connection::{Connection, ConnectionExt};
pub use disk::free_bytes;
pub use file::{partial_path_for, recovery_hint};
pub use format::{Encoding, FileFormat};

/// A message read from a storage.
///
/// `data` is a cheap, thread-safe handle: for an uncompressed bag chunk
/// it borrows the bytes straight from the memory-mapped file, for a
/// compressed one it shares the decompressed chunk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    /// The id of its topic ([`Connection::id`]: a bag's connection id, a
    /// `.db3`'s topic id, an MCAP channel id).
    pub conn: u32,
    /// Message time (ns).
    pub time: u64,
    /// The serialized message.
    pub data: Bytes,
}

/// The storage of a recording.
#[derive(Debug)]
pub enum Storage {
    /// A ROS1 `.bag`.
    Bag(Bag),
    /// A rosbag2 `.db3`.
    Db3(Db3),
    /// An MCAP file (rosbag2's storage from Jazzy on).
    Mcap(McapFile),
}

impl Storage {
    /// Open a `.bag` (read by a scan when its index is missing), a `.db3`
    /// or an `.mcap`, by the file's first bytes; or the storage file of a
    /// rosbag2 bag directory.
    ///
    /// `path` may be a URL ([`remote::is_url`]): the recording is read in
    /// place, by ranges.
    pub fn open(path: impl AsRef<Path>) -> Result<Storage> {
        let path = path.as_ref();
        if remote::is_url(path) {
            return Storage::open_remote(path);
        }
        if path.is_dir() {
            return Storage::open(rosbag2_storage_file(path)?);
        }
        match FileFormat::sniff(path)? {
            Some(FileFormat::Db3) => Db3::open(path).map(Storage::Db3),
            Some(FileFormat::Mcap) => McapFile::open(path).map(Storage::Mcap),
            Some(FileFormat::Bag) => Bag::open_or_scan(path).map(Storage::Bag),
            None => Err(unknown_format().in_file(path)),
        }
    }

    /// Open the recording at `url`, by its first bytes.
    fn open_remote(url: &Path) -> Result<Storage> {
        let file = remote::RemoteFile::open(url)?;
        match FileFormat::of_bytes(file.head()) {
            Some(FileFormat::Bag) => Bag::from_remote(file, true).map(Storage::Bag),
            Some(FileFormat::Db3) => Db3::from_remote(file).map(Storage::Db3),
            Some(FileFormat::Mcap) => McapFile::from_remote(file).map(Storage::Mcap),
            None => Err(unknown_format().in_file(file.url())),
        }
    }

    /// Its format.
    pub fn format(&self) -> FileFormat {
        match self {
            Storage::Bag(_) => FileFormat::Bag,
            Storage::Db3(_) => FileFormat::Db3,
            Storage::Mcap(_) => FileFormat::Mcap,
        }
    }

    /// How the messages are encoded.
    pub fn encoding(&self) -> Encoding {
        self.format().encoding()
    }

    /// The file, where there is one.
    pub fn path(&self) -> Option<&Path> {
        match self {
            Storage::Bag(bag) => bag.path(),
            Storage::Db3(db3) => Some(db3.path()),
            Storage::Mcap(mcap) => Some(mcap.path()),
        }
    }

    /// The bag, for a `.bag`.
    pub fn bag(&self) -> Option<&Bag> {
        match self {
            Storage::Bag(bag) => Some(bag),
            _ => None,
        }
    }

    /// Every topic, by id (a bag may have several connections on one
    /// topic).
    pub fn topics(&self) -> &[Connection] {
        match self {
            Storage::Bag(bag) => bag.connections(),
            Storage::Db3(db3) => db3.topics(),
            Storage::Mcap(mcap) => mcap.topics(),
        }
    }

    /// The name of topic `id`.
    pub(crate) fn topic_name(&self, id: u32) -> Option<&str> {
        let topics = self.topics();
        connection::position_of(topics, id).map(|i| topics[i].topic.as_str())
    }

    /// `error`, met in `message`, with the message's topic and time.
    pub(crate) fn in_message(&self, message: &Message, error: Error) -> Error {
        Error::InMessage {
            topic: self.topic_name(message.conn).unwrap_or_default().to_owned(),
            time: message.time,
            error: Box::new(error),
        }
    }

    /// Messages on topic `id`, from the index.
    pub fn message_count(&self, id: u32) -> u64 {
        match self {
            Storage::Bag(bag) => bag.message_count(id),
            Storage::Db3(db3) => db3.message_count(id),
            Storage::Mcap(mcap) => mcap.message_count(id),
        }
    }

    /// The times of the first and last message on `ids`.
    pub fn time_span(&self, ids: &[u32]) -> Option<(u64, u64)> {
        match self {
            Storage::Bag(bag) => bag.time_span(ids),
            Storage::Db3(db3) => db3.time_span(ids),
            Storage::Mcap(mcap) => mcap.time_span(ids),
        }
    }

    /// The times of the messages on `ids`, in reading order, for a
    /// `.db3` or an MCAP file (a bag answers from its chunk index:
    /// `None`).
    pub fn times(&self, ids: &[u32]) -> Option<Result<Vec<u64>>> {
        match self {
            Storage::Bag(_) => None,
            Storage::Db3(db3) => Some(db3.times(ids)),
            Storage::Mcap(mcap) => Some(Ok(mcap.times(ids))),
        }
    }

    /// The chunks of a `.bag` that hold messages on `ids`, in file
    /// order, with how many each holds (`None` for a `.db3` or an MCAP
    /// file, which answer [`times`](Self::times) from their index).
    pub fn chunks_of(&self, ids: &[u32]) -> Option<Vec<ChunkSpan>> {
        let Storage::Bag(bag) = self else {
            return None;
        };
        let spans = bag.chunks().iter().enumerate().filter_map(|(index, c)| {
            let count: u64 = (c.info.connection_counts.iter())
                .filter(|(id, _)| ids.contains(id))
                .map(|&(_, n)| u64::from(n))
                .sum();
            (count > 0).then_some(ChunkSpan {
                index,
                pos: c.info.chunk_pos,
                count,
                start_time: c.info.start_time,
                end_time: c.info.end_time,
            })
        });
        Some(spans.collect())
    }

    /// The times and offsets of the messages on `ids` in chunk `index`
    /// (of [`chunks_of`](Self::chunks_of)), in the order of the chunk's
    /// index; an error for a chunk the file does not have.
    pub(crate) fn chunk_times<'s>(
        &'s self,
        index: usize,
        ids: &'s [u32],
    ) -> Result<impl Iterator<Item = (u64, u32)> + 's> {
        let chunk = (self.bag()).and_then(|bag| Some((bag, bag.chunks().get(index)?)));
        let Some((bag, chunk)) = chunk else {
            return Err(Error::corrupt(
                "chunk index",
                0,
                format!("chunk {index} is not in the bag"),
            ));
        };
        bag.will_read_entries(index, ids);
        Ok((bag.chunk_entries(chunk)?.iter())
            .filter(|e| ids.contains(&e.conn))
            .map(|e| (e.time, e.offset)))
    }

    /// The times of the messages on `id`, in time order, whatever the
    /// format (a `.bag` reads them from its chunks' indexes).
    pub(crate) fn sorted_times(&self, id: u32) -> Result<Vec<u64>> {
        if let Some(times) = self.times(&[id]) {
            return times;
        }
        let mut times = Vec::new();
        for span in self.chunks_of(&[id]).unwrap_or_default() {
            times.extend(self.chunk_times(span.index, &[id])?.map(|(time, _)| time));
        }
        times.sort_unstable();
        Ok(times)
    }

    /// The messages on `ids` with time in `range`, in time order (ties in
    /// file order).
    pub fn messages(&self, ids: &[u32], range: impl RangeBounds<u64>) -> StorageMessages<'_> {
        self.messages_for(ids, range, false, None)
    }

    /// [`messages`](Self::messages), for a random access (a frame fetched
    /// by index or time) when `random_access`: a bag's compressed chunks
    /// come from its cache of the chunks decompressed last. A bag read in
    /// order decompresses its chunks ahead on the threads of
    /// `decompressors` when given (shared with other readers), else on
    /// threads of its own.
    pub(crate) fn messages_for(
        &self,
        ids: &[u32],
        range: impl RangeBounds<u64>,
        random_access: bool,
        decompressors: Option<Decompressors>,
    ) -> StorageMessages<'_> {
        let range = (range.start_bound().cloned(), range.end_bound().cloned());
        match self {
            Storage::Bag(bag) => {
                let mut query = bag.query().connections(ids.iter().copied()).time(range);
                if let Some(decompressors) = decompressors {
                    query = query.decompressors(decompressors);
                }
                StorageMessages::Bag(match random_access {
                    true => query.random_access().messages(),
                    false => query.messages(),
                })
            }
            Storage::Db3(db3) => StorageMessages::Db3(
                db3.query()
                    .topics(ids.iter().copied())
                    .time(range)
                    .messages(),
            ),
            Storage::Mcap(mcap) => StorageMessages::Mcap(mcap.messages(ids, range)),
        }
    }

    /// The messages on the topics named `names`, in time order.
    pub(crate) fn messages_on<'n>(
        &self,
        names: impl IntoIterator<Item = &'n str>,
    ) -> StorageMessages<'_> {
        let names: Vec<&str> = names.into_iter().collect();
        let ids: Vec<u32> = self
            .topics()
            .iter()
            .filter(|t| names.contains(&t.topic.as_str()))
            .map(|t| t.id)
            .collect();
        self.messages(&ids, (Bound::<u64>::Unbounded, Bound::Unbounded))
    }
}

/// A chunk of a `.bag` that holds messages of some topics.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChunkSpan {
    /// Its position among the bag's chunks.
    pub index: usize,
    /// Where its record starts in the file.
    pub pos: u64,
    /// How many of its messages are on the topics asked for.
    pub count: u64,
    /// The time of its first message (any topic), ns.
    pub start_time: u64,
    /// The time of its last message (any topic), ns.
    pub end_time: u64,
}

/// Messages read from a [`Storage`], in time order; what cannot be read
/// is yielded as an error and the rest still comes.
// One value a query, whose size does not matter: boxing the bag's, the
// largest, would add a pointer to follow for every message.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub enum StorageMessages<'s> {
    /// From a bag.
    Bag(Messages<'s>),
    /// From a `.db3`.
    Db3(Db3Messages<'s>),
    /// From an MCAP file.
    Mcap(McapMessages<'s>),
}

impl Iterator for StorageMessages<'_> {
    type Item = Result<Message>;

    fn next(&mut self) -> Option<Result<Message>> {
        match self {
            StorageMessages::Bag(m) => m.next(),
            StorageMessages::Db3(m) => m.next(),
            StorageMessages::Mcap(m) => m.next(),
        }
    }
}

/// A file of no recording format.
fn unknown_format() -> Error {
    Error::UnknownFormat(
        "its first bytes are those of no recording format (a ROS bag starts with \
         \"#ROSBAG V2.0\", a rosbag2 .db3 with \"SQLite format 3\", an MCAP file with \
         MCAP's magic)"
            .into(),
    )
}

/// The storage file of a rosbag2 bag directory: its one `.db3` or
/// `.mcap`.
fn rosbag2_storage_file(dir: &Path) -> Result<std::path::PathBuf> {
    let io = |error| Error::Io {
        path: dir.to_owned(),
        error,
    };
    let mut files = Vec::new();
    let mut others = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let path = entry.map_err(io)?.path();
        if !path.is_file() {
            continue;
        }
        match FileFormat::of_extension(&path) {
            Some(FileFormat::Db3 | FileFormat::Mcap) => files.push(path),
            Some(FileFormat::Bag) => others.push(path),
            None => {}
        }
    }
    files.sort();
    // Without its metadata.yaml, a directory of several recordings is a
    // folder of them, not one bag: opening one would hide the others.
    if !dir.join("metadata.yaml").is_file() && files.len() + others.len() > 1 {
        files.append(&mut others);
        files.sort();
        return Err(Error::InvalidArgument(format!(
            "{}: a directory of {} recordings ({}), not one ROS 2 bag: open one of them, or open them together as a session",
            dir.display(),
            files.len(),
            names(&files)
        )));
    }
    match files.len() {
        1 => Ok(files.remove(0)),
        0 => Err(Error::UnknownFormat(format!(
            "{}: a directory, and not a rosbag2 bag (no .db3 or .mcap file in it)",
            dir.display()
        ))),
        n => Err(Error::Unsupported(format!(
            "{}: a bag split into {n} files ({}); rsbag reads one file at a time: name the file",
            dir.display(),
            names(&files)
        ))),
    }
}

/// The file names of `files`, listed.
fn names(files: &[std::path::PathBuf]) -> String {
    (files.iter())
        .filter_map(|f| f.file_name()?.to_str())
        .collect::<Vec<_>>()
        .join(", ")
}
