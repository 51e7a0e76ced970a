//! Reading an MCAP file (rosbag2's storage from Jazzy on): the `mcap`
//! crate reads the summary and message indexes, which give every channel's
//! message times without decompressing a chunk; messages are read chunk
//! by chunk (decoded here, every length checked), merged into log-time
//! order.

use std::collections::{BTreeMap, VecDeque};
use std::io::SeekFrom;
use std::ops::{Bound, Range, RangeBounds};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use bytes::Bytes;
use mcap::sans_io::{SummaryReadEvent, SummaryReader, SummaryReaderOptions};

use super::topics::{TopicStats, Topics};
use crate::storage::remote::RemoteFile;
use crate::storage::{Connection, ConnectionExt, FileFormat, Message};
use crate::{Error, Result};

/// The most a chunk may decompress to: a damaged header is an error, not
/// an allocation of what it claims.
const MAX_CHUNK_BYTES: u64 = 1 << 30;

/// The longest record of the summary read: a damaged length is an error,
/// not an allocation of what it claims.
const MAX_SUMMARY_RECORD_BYTES: usize = 64 << 20;

/// The summary section is read in windows of this many bytes (or the
/// record asked for, if longer).
const SUMMARY_WINDOW_BYTES: u64 = 1 << 20;

/// Message indexes this close to each other are fetched by URL as one
/// range (the bytes between cost less than a request).
const INDEX_GAP: u64 = 64 << 10;

/// How many chunks after the one being read are fetched ahead by URL,
/// from the second chunk a reader reads on.
const CHUNKS_AHEAD: usize = 4;

/// Where an MCAP file's bytes are: mapped, or read by ranges from a URL.
enum Source {
    Mapped(Bytes),
    Remote(Arc<RemoteFile>),
}

impl Source {
    fn size(&self) -> u64 {
        match self {
            Source::Mapped(data) => data.len() as u64,
            Source::Remote(remote) => remote.size(),
        }
    }

    /// Bytes `range`, cut at the end of the file.
    fn read(&self, range: Range<u64>) -> Result<Bytes> {
        let end = range.end.min(self.size());
        let range = range.start.min(end)..end;
        match self {
            Source::Mapped(data) => Ok(data.slice(range.start as usize..range.end as usize)),
            Source::Remote(remote) => remote.read(range),
        }
    }

    /// `error`, met reading the file; for a remote object whose version
    /// could not be pinned, bytes that contradict the summary are the
    /// error of a change when the object changed.
    fn damage_or_change(&self, error: Error) -> Error {
        match self {
            Source::Remote(remote) => remote.damage_or_change(error),
            Source::Mapped(_) => error,
        }
    }

    /// Have a remote file fetch `ranges` now, for a reader about to read
    /// them (nothing for a mapped one).
    fn prefetch(&self, ranges: impl IntoIterator<Item = Range<u64>>) {
        if let Source::Remote(remote) = self {
            remote.prefetch_many(ranges, INDEX_GAP);
        }
    }
}

/// A chunk of the file and the channels it holds messages of.
#[derive(Debug)]
struct ChunkInfo {
    index: mcap::records::ChunkIndex,
    channels: Vec<u32>,
}

/// An MCAP file opened for reading (memory-mapped).
///
/// # Example
/// ```no_run
/// use rsbag::storage::rosbag2::McapFile;
/// # fn main() -> rsbag::Result<()> {
/// let mcap = McapFile::open("session_0.mcap")?;
/// for topic in mcap.topics() {
///     println!("{} {} ({} messages)", topic.topic, topic.msg_type, mcap.message_count(topic.id));
/// }
/// # Ok(()) }
/// ```
pub struct McapFile {
    path: PathBuf,
    source: Source,
    topics: Topics,
    chunks: Vec<ChunkInfo>,
    /// Each channel's message times, sorted.
    times: BTreeMap<u32, Vec<u64>>,
}

/// A channel as a connection: its schema's name is the message type and
/// its schema's text (a ROS 2 message definition) the definition.
fn channel_connection(c: &mcap::Channel<'_>) -> Connection {
    let schema = c.schema.as_ref();
    Connection {
        id: u32::from(c.id),
        topic: c.topic.clone(),
        msg_type: schema.map(|s| s.name.clone()).unwrap_or_default(),
        digest: String::new(),
        message_definition: schema
            .and_then(|s| String::from_utf8(s.data.to_vec()).ok())
            .unwrap_or_default(),
        ext: ConnectionExt::Rosbag2 {
            serialization_format: c.message_encoding.clone(),
            offered_qos_profiles: (c.metadata.get("offered_qos_profiles"))
                .cloned()
                .unwrap_or_default(),
        },
    }
}

impl McapFile {
    /// Open an MCAP file and read its summary and message indexes.
    pub fn open(path: impl AsRef<Path>) -> Result<McapFile> {
        let path = path.as_ref();
        let read = || {
            let (data, _) = crate::storage::file::map_file(path, || bad("it is empty".into()))?;
            McapFile::read(path, Source::Mapped(data))
        };
        read().map_err(|e| e.in_file(path))
    }

    /// Read an MCAP file by URL, by ranges: its summary and message
    /// indexes now, each chunk when its messages are read.
    pub(crate) fn from_remote(remote: Arc<RemoteFile>) -> Result<McapFile> {
        let url = remote.url().to_path_buf();
        let source = Source::Remote(remote.clone());
        McapFile::read(&url, source).map_err(|e| {
            // A summary that cannot be read may be another version's.
            let changed = (e.kind() != crate::ErrorKind::Io).then(|| remote.unpinned_change());
            changed.flatten().unwrap_or_else(|| e.in_file(&url))
        })
    }

    fn read(path: &Path, source: Source) -> Result<McapFile> {
        let magic = FileFormat::Mcap.magic();
        if source.read(0..magic.len() as u64)? != magic {
            return Err(Error::NotMcap(
                "the first bytes are not MCAP's magic".into(),
            ));
        }
        let summary = read_summary(&source)?.ok_or_else(|| {
            bad("it has no summary (an unfinished recording?): `mcap recover` rebuilds one".into())
        })?;
        let mut times: BTreeMap<u32, Vec<u64>> = BTreeMap::new();
        let mut chunks = Vec::new();
        let mut indexes = summary.chunk_indexes.clone();
        indexes.sort_by_key(|c| (c.message_start_time, c.chunk_start_offset));
        source.prefetch(indexes.iter().map(message_index_range));
        for index in indexes {
            let mut channels = Vec::new();
            if index.message_index_offsets.is_empty() {
                // No message index: count by reading the chunk.
                let chunk = source.read(chunk_range(&index))?;
                for message in chunk_messages(&chunk, &index)? {
                    let id = u32::from(message.channel);
                    times.entry(id).or_default().push(message.log_time);
                    if !channels.contains(&id) {
                        channels.push(id);
                    }
                }
            } else {
                for (id, entries) in message_indexes(&source, &summary, &index)? {
                    times
                        .entry(id)
                        .or_default()
                        .extend(entries.iter().map(|e| e.log_time));
                    channels.push(id);
                }
            }
            chunks.push(ChunkInfo { index, channels });
        }
        for t in times.values_mut() {
            t.sort_unstable();
        }
        let topics = summary
            .channels
            .values()
            .map(|c| {
                let id = u32::from(c.id);
                let channel_times = times.get(&id);
                let stats = TopicStats {
                    count: channel_times.map_or(0, |t| t.len() as u64),
                    span: channel_times.and_then(|t| Some((*t.first()?, *t.last()?))),
                };
                (channel_connection(c), stats)
            })
            .collect();
        let topics = Topics::new(topics);
        Ok(McapFile {
            path: path.to_owned(),
            source,
            topics,
            chunks,
            times,
        })
    }

    /// The file (or its URL).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Its size in bytes.
    pub fn file_size(&self) -> u64 {
        self.source.size()
    }

    /// Every channel as a topic, by id.
    pub fn topics(&self) -> &[Connection] {
        self.topics.all()
    }

    /// The channel with id `id`.
    pub fn topic(&self, id: u32) -> Option<&Connection> {
        self.topics.get(id)
    }

    /// Messages on channel `id`.
    pub fn message_count(&self, id: u32) -> u64 {
        self.topics.count(id)
    }

    /// Messages in the file.
    pub fn total_message_count(&self) -> u64 {
        self.topics.total_count()
    }

    /// How many chunks use each compression (`zstd`, `lz4`, `none`).
    pub fn chunk_compressions(&self) -> BTreeMap<String, u64> {
        let mut out = BTreeMap::new();
        for chunk in &self.chunks {
            let name = match chunk.index.compression.as_str() {
                "" => "none",
                other => other,
            };
            *out.entry(name.to_owned()).or_default() += 1;
        }
        out
    }

    /// The first and last log time of the messages on `ids`, if any.
    pub fn time_span(&self, ids: &[u32]) -> Option<(u64, u64)> {
        self.topics.span(ids)
    }

    /// The log times of the messages on `ids`, sorted.
    pub fn times(&self, ids: &[u32]) -> Vec<u64> {
        let mut out: Vec<u64> = ids
            .iter()
            .filter_map(|id| self.times.get(id))
            .flatten()
            .copied()
            .collect();
        out.sort_unstable();
        out
    }

    /// The messages on `ids` with log time in `range`, in time order (ties
    /// in file order).
    pub fn messages(&self, ids: &[u32], range: impl RangeBounds<u64>) -> McapMessages<'_> {
        let start = match range.start_bound() {
            Bound::Included(&t) => t,
            Bound::Excluded(&t) => t.saturating_add(1),
            Bound::Unbounded => 0,
        };
        let end = match range.end_bound() {
            Bound::Included(&t) => t,
            Bound::Excluded(&t) => t.saturating_sub(1),
            Bound::Unbounded => u64::MAX,
        };
        let empty = matches!(range.end_bound(), Bound::Excluded(&0));
        let chunks: VecDeque<&ChunkInfo> = self
            .chunks
            .iter()
            .filter(|c| {
                !empty
                    && c.index.message_end_time >= start
                    && c.index.message_start_time <= end
                    && c.channels.iter().any(|id| ids.contains(id))
            })
            .collect();
        McapMessages {
            file: self,
            ids: ids.to_vec(),
            start,
            end,
            chunks,
            chunks_read: 0,
            pending: VecDeque::new(),
        }
    }
}

/// Messages of an [`McapFile`], in log-time order: chunks are read in
/// order of their first message, and a message is handed out only once no
/// chunk still to read could hold an earlier one. A chunk that cannot be
/// read is one error; the rest still comes.
pub struct McapMessages<'m> {
    file: &'m McapFile,
    ids: Vec<u32>,
    start: u64,
    end: u64,
    chunks: VecDeque<&'m ChunkInfo>,
    chunks_read: usize,
    /// Read, not yet handed out, sorted by (time, order read).
    pending: VecDeque<Message>,
}

impl Iterator for McapMessages<'_> {
    type Item = Result<Message>;

    fn next(&mut self) -> Option<Result<Message>> {
        loop {
            let next_chunk_start = self.chunks.front().map(|c| c.index.message_start_time);
            let ready = match (self.pending.front(), next_chunk_start) {
                (Some(m), Some(t)) => m.time < t,
                (Some(_), None) => true,
                (None, _) => false,
            };
            if ready {
                return self.pending.pop_front().map(Ok);
            }
            let chunk = self.chunks.pop_front()?;
            if let Err(e) = self.read_chunk(chunk) {
                return Some(Err(self.file.source.damage_or_change(e)));
            }
        }
    }
}

impl McapMessages<'_> {
    fn read_chunk(&mut self, chunk: &ChunkInfo) -> Result<()> {
        let source = &self.file.source;
        // A reader past its first chunk reads on: the next ones are
        // fetched ahead (one that stops there, as `info`, fetches no more).
        if self.chunks_read > 0 {
            let ahead = self.chunks.iter().take(CHUNKS_AHEAD);
            source.prefetch(ahead.map(|c| chunk_range(&c.index)));
        }
        self.chunks_read += 1;
        let bytes = source.read(chunk_range(&chunk.index))?;
        let mut read = Vec::new();
        for message in chunk_messages(&bytes, &chunk.index)? {
            let conn = u32::from(message.channel);
            if !self.ids.contains(&conn)
                || message.log_time < self.start
                || message.log_time > self.end
            {
                continue;
            }
            read.push(Message {
                conn,
                time: message.log_time,
                data: message.data,
            });
        }
        read.sort_by_key(|m| m.time);
        self.pending.extend(read);
        // Chunks may overlap in time: keep the whole pending list sorted
        // (stable: file order among equal times).
        self.pending.make_contiguous().sort_by_key(|m| m.time);
        Ok(())
    }
}

/// A message record of a chunk.
struct ChunkMessage {
    channel: u16,
    log_time: u64,
    data: Bytes,
}

/// The summary of an MCAP file, read through the `mcap` crate's sans-IO
/// reader: the footer, then the summary section it points at.
fn read_summary(source: &Source) -> Result<Option<mcap::Summary>> {
    let size = source.size();
    let options = SummaryReaderOptions::default()
        .with_file_size(size)
        .with_record_length_limit(MAX_SUMMARY_RECORD_BYTES);
    let mut reader = SummaryReader::new_with_options(options);
    let mut pos = 0u64;
    // The reader asks for a record's header, then its body: by URL, the
    // section is fetched in windows, not a request a field.
    let mut window = (0u64, Bytes::new());
    let cannot = |e: mcap::McapError| bad(format!("its summary cannot be read: {e}"));
    while let Some(event) = reader.next_event() {
        match event.map_err(cannot)? {
            SummaryReadEvent::ReadRequest(n) => {
                let end = pos.saturating_add(n as u64).min(size);
                let (start, held) = &window;
                if pos < *start || end > start + held.len() as u64 {
                    let ahead = end.max(pos.saturating_add(SUMMARY_WINDOW_BYTES)).min(size);
                    window = (pos, source.read(pos..ahead)?);
                }
                let at = (pos - window.0) as usize;
                // Short only where a remote object changed size: then
                // the reader meets an early end.
                let len = ((end - pos) as usize).min(window.1.len().saturating_sub(at));
                let bytes = window.1.slice(at..at + len);
                reader.insert(bytes.len()).copy_from_slice(&bytes);
                reader.notify_read(bytes.len());
                pos += bytes.len() as u64;
            }
            SummaryReadEvent::SeekRequest(to) => {
                let from_end = |d: i64| size.checked_add_signed(d);
                pos = match to {
                    SeekFrom::Start(p) => Some(p),
                    SeekFrom::End(d) => from_end(d),
                    SeekFrom::Current(d) => pos.checked_add_signed(d),
                }
                .filter(|&p| p <= size)
                .ok_or_else(|| bad("its footer points outside the file".into()))?;
                reader.notify_seeked(pos);
            }
        }
    }
    Ok(reader.finish())
}

/// Where the chunk `index` points at lies in the file.
fn chunk_range(index: &mcap::records::ChunkIndex) -> Range<u64> {
    let start = index.chunk_start_offset;
    start..start.saturating_add(index.chunk_length)
}

/// Where the message indexes after the chunk `index` points at lie.
fn message_index_range(index: &mcap::records::ChunkIndex) -> Range<u64> {
    let start = chunk_range(index).end;
    start..start.saturating_add(index.message_index_length)
}

/// The message indexes of the chunk `index` points at, by channel id:
/// each where the chunk index says, of the channel it says, a channel of
/// the summary.
fn message_indexes(
    source: &Source,
    summary: &mcap::Summary,
    index: &mcap::records::ChunkIndex,
) -> Result<Vec<(u32, Vec<mcap::records::MessageIndexEntry>)>> {
    let range = message_index_range(index);
    let bytes = source.read(range.clone())?;
    let corrupt = |reason: String| Error::Corrupt {
        offset: index.chunk_start_offset,
        record: "MCAP message index",
        reason,
    };
    let mut out = Vec::new();
    for (&channel, &offset) in &index.message_index_offsets {
        let at = (offset.checked_sub(range.start))
            .and_then(|at| usize::try_from(at).ok())
            .filter(|&at| at < bytes.len())
            .ok_or_else(|| corrupt(format!("an index at byte {offset} is outside its section")))?;
        let record = mcap::read::LinearReader::sans_magic(&bytes[at..]).next();
        let entries = match record {
            Some(Ok(mcap::records::Record::MessageIndex(i))) if i.channel_id == channel => {
                i.records
            }
            Some(Err(e)) => return Err(corrupt(e.to_string())),
            _ => {
                return Err(corrupt(format!(
                    "no index of channel {channel} at byte {offset}"
                )))
            }
        };
        if !summary.channels.contains_key(&channel) {
            return Err(corrupt(format!("channel {channel} is not in the summary")));
        }
        out.push((u32::from(channel), entries));
    }
    Ok(out)
}

/// The message records of the chunk `index` points at, in `chunk` (the
/// file's bytes from where the chunk starts), decoded here rather
/// than by the `mcap` crate, whose chunk reader allocates whatever length
/// a damaged record inside a compressed chunk claims (found by fuzzing):
/// every length is checked against the bytes that hold it, and a chunk
/// decompresses to at most [`MAX_CHUNK_BYTES`].
fn chunk_messages(chunk: &Bytes, index: &mcap::records::ChunkIndex) -> Result<Vec<ChunkMessage>> {
    let bad = |reason: String| Error::Corrupt {
        offset: index.chunk_start_offset,
        record: "MCAP chunk",
        reason,
    };
    let mut r = Fields::new(chunk);
    let header = (|| {
        let opcode = r.u8()?;
        let record_len = r.u64()?;
        let body_start = r.data.len();
        let (_start, _end) = (r.u64()?, r.u64()?);
        let uncompressed = r.u64()?;
        let crc = r.u32()?;
        let compression = r.prefixed(4)?;
        let records = r.prefixed(8)?;
        let body_len = (body_start - r.data.len()) as u64;
        Some((
            opcode,
            (record_len, body_len),
            uncompressed,
            crc,
            compression,
            records,
        ))
    })();
    let (opcode, (record_len, body_len), uncompressed, crc, compression, records) =
        header.ok_or_else(|| bad("its header is cut off".into()))?;
    if opcode != 0x06 {
        return Err(bad(format!(
            "the index points at record {opcode:#04x}, not a chunk"
        )));
    }
    // The record's length is what a reader that walks the file's records
    // (the mcap tools, a recovery) skips by: a wrong one is damage even
    // where the chunk index finds the records.
    if record_len != body_len {
        return Err(bad(format!(
            "its record length says {record_len} bytes, its fields take {body_len}"
        )));
    }
    if uncompressed > MAX_CHUNK_BYTES {
        return Err(bad(format!(
            "its header says it decompresses to {uncompressed} bytes (at most {MAX_CHUNK_BYTES} are read)"
        )));
    }
    let size = uncompressed as usize;
    let content: Bytes = match compression {
        b"" => chunk.slice_ref(records),
        b"zstd" => zstd::bulk::decompress(records, size)
            .map(Bytes::from)
            .map_err(|e| bad(format!("zstd data: {e}")))?,
        b"lz4" => crate::storage::bag::Compression::Lz4.decompress(
            records,
            u32::try_from(size).unwrap_or(u32::MAX),
            index.chunk_start_offset,
        )?,
        other => {
            return Err(bad(format!(
                "compression {:?} is not read",
                String::from_utf8_lossy(other)
            )))
        }
    };
    if content.len() != size {
        return Err(bad(format!(
            "it decompresses to {} bytes, its header says {size}",
            content.len()
        )));
    }
    if crc != 0 && crc32fast::hash(&content) != crc {
        return Err(bad("its CRC does not match its content".into()));
    }
    let mut out = Vec::new();
    let mut r = Fields::new(&content);
    while !r.is_empty() {
        let record = (|| {
            let opcode = r.u8()?;
            let body = r.prefixed(8)?;
            Some((opcode, body))
        })();
        let (opcode, body) = record.ok_or_else(|| bad("a record in it is cut off".into()))?;
        if opcode != 0x05 {
            continue; // schemas and channels: the summary has them
        }
        let mut m = Fields::new(body);
        let fields = (|| Some((m.u16()?, m.u32()?, m.u64()?, m.u64()?)))();
        let (channel, _sequence, log_time, _publish_time) =
            fields.ok_or_else(|| bad("a message record in it is cut off".into()))?;
        out.push(ChunkMessage {
            channel,
            log_time,
            data: content.slice_ref(m.rest()),
        });
    }
    Ok(out)
}

/// Little-endian fields read one after another, each checked against what
/// is left.
struct Fields<'a> {
    data: &'a [u8],
}

impl<'a> Fields<'a> {
    fn new(data: &'a [u8]) -> Fields<'a> {
        Fields { data }
    }

    fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        if n > self.data.len() {
            return None;
        }
        let (head, rest) = self.data.split_at(n);
        self.data = rest;
        Some(head)
    }

    fn array<const N: usize>(&mut self) -> Option<[u8; N]> {
        self.take(N)?.try_into().ok()
    }

    fn u8(&mut self) -> Option<u8> {
        self.array::<1>().map(|b| b[0])
    }

    fn u16(&mut self) -> Option<u16> {
        self.array().map(u16::from_le_bytes)
    }

    fn u32(&mut self) -> Option<u32> {
        self.array().map(u32::from_le_bytes)
    }

    fn u64(&mut self) -> Option<u64> {
        self.array().map(u64::from_le_bytes)
    }

    /// Bytes after a little-endian length of `width` bytes (4 or 8).
    fn prefixed(&mut self, width: usize) -> Option<&'a [u8]> {
        let len = match width {
            4 => u64::from(self.u32()?),
            _ => self.u64()?,
        };
        self.take(usize::try_from(len).ok()?)
    }

    fn rest(&mut self) -> &'a [u8] {
        std::mem::take(&mut self.data)
    }
}

fn bad(reason: String) -> Error {
    Error::NotMcap(reason)
}

impl std::fmt::Debug for McapFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McapFile")
            .field("path", &self.path)
            .field("topics", &self.topics)
            .field("chunks", &self.chunks.len())
            .finish_non_exhaustive()
    }
}

impl std::fmt::Debug for McapMessages<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McapMessages")
            .field("chunks", &self.chunks.len())
            .field("pending", &self.pending.len())
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::rosbag2::MessageType;
    use crate::storage::rosbag2::{BagDirWriter, Durability};
    use crate::storage::FileFormat;

    #[test]
    fn messages_come_back_in_time_order_with_counts_and_spans() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("b");
        let mut w = BagDirWriter::create(&out, FileFormat::Mcap).unwrap();
        let a = w
            .add_topic(
                "/a",
                &MessageType::named("std_msgs/msg/String"),
                Durability::Volatile,
            )
            .unwrap();
        let b = w
            .add_topic(
                "/b",
                &MessageType::named("std_msgs/msg/String"),
                Durability::Volatile,
            )
            .unwrap();
        // Written out of order; 3000 messages of 1 KB span several chunks.
        for i in (0..3000u64).rev() {
            let topic = if i % 3 == 0 { a } else { b };
            w.write(topic, 10 + i, &[b'x'; 1000]).unwrap();
        }
        let file = w.finish().unwrap();
        let mcap = McapFile::open(&file).unwrap();
        assert_eq!(mcap.topics().len(), 2);
        let id_a = mcap.topics().iter().find(|t| t.topic == "/a").unwrap().id;
        assert_eq!(mcap.message_count(id_a), 1000);
        assert_eq!(mcap.time_span(&[id_a]), Some((10, 10 + 2997)));
        let ids: Vec<u32> = mcap.topics().iter().map(|t| t.id).collect();
        let times: Vec<u64> = mcap
            .messages(&ids, 100..=200)
            .map(|m| m.unwrap().time)
            .collect();
        assert_eq!(times, (100..=200).collect::<Vec<_>>());
        assert_eq!(mcap.times(&[id_a]).len(), 1000);
    }
}
