//! Streaming bag writer: chunked, indexed, optionally compressed.

use std::collections::{BTreeMap, VecDeque};
use std::fs::File;
use std::io::{BufWriter, Seek, SeekFrom, Write};
use std::ops::{Deref, DerefMut};
use std::path::{Path, PathBuf};

use super::compression::Compression;
use super::compressor::Compressor;
use super::index::{encode_index_data, ChunkInfo, IndexEntry};
use super::record::{encode_record_prefix, op, HeaderBuilder, MAGIC};
use crate::storage::file::{claim_partial, publish_partial};
use crate::storage::Connection;
use crate::{Error, Result};

/// The bag header record's header and data together fill this many bytes,
/// as ROS writes it, so that it can be rewritten in place on close.
const BAG_HEADER_SPAN: usize = 4096;

/// How a [`BagWriter`] lays out its file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WriterOptions {
    /// Compression of every chunk.
    pub compression: Compression,
    /// A chunk is closed once its uncompressed data reaches this many bytes
    /// (ROS and librealsense use 768 KiB).
    pub chunk_threshold: usize,
}

impl Default for WriterOptions {
    fn default() -> Self {
        WriterOptions {
            compression: Compression::Lz4,
            chunk_threshold: 768 * 1024,
        }
    }
}

impl WriterOptions {
    /// These options with another compression.
    pub fn compression(self, compression: Compression) -> Self {
        WriterOptions {
            compression,
            ..self
        }
    }

    /// These options with another chunk threshold.
    pub fn chunk_threshold(self, bytes: usize) -> Self {
        WriterOptions {
            chunk_threshold: bytes,
            ..self
        }
    }
}

/// The chunk being filled.
#[derive(Debug, Default)]
struct OpenChunk {
    data: Vec<u8>,
    entries: Vec<IndexEntry>,
    start_time: u64,
    end_time: u64,
}

/// A closed chunk waiting for its compressed bytes.
#[derive(Debug)]
struct ClosedChunk {
    seq: u64,
    raw_len: u32,
    entries: Vec<IndexEntry>,
    start_time: u64,
    end_time: u64,
}

/// How many compressed chunks may wait for the file per worker: enough to
/// keep every worker busy, few enough to bound memory.
const IN_FLIGHT_PER_WORKER: usize = 2;

/// Writes a ROS bag v2.0 to any seekable sink.
///
/// Memory stays bounded: a chunk is buffered while it fills, at most a few
/// closed chunks wait for compression, and only one small [`ChunkInfo`]
/// per written chunk is kept for the closing index. Compressed chunks are
/// compressed on worker threads (one per core), so a compressed recording
/// uses every core. Call [`BagWriter::finish`] to write the index; a writer
/// dropped without it leaves a bag with no index, whose complete chunks
/// [`crate::storage::bag::Bag::scan`] still recovers.
///
/// # Example
/// ```
/// use rsbag::bag::{Bag, BagWriter, WriterOptions};
/// use rsbag::storage::Connection;
/// # fn main() -> rsbag::Result<()> {
/// let mut writer = BagWriter::new(std::io::Cursor::new(Vec::new()), WriterOptions::default())?;
/// let conn = writer.add_connection(Connection::ros1(
///     "/counter", "std_msgs/UInt32", "304a39449588c7f8ce2df6e8001c5fce", "uint32 data\n"));
/// writer.write(conn, 1_000, &7u32.to_le_bytes())?;
/// let bytes = writer.finish()?.into_inner();
///
/// let bag = Bag::from_bytes(bytes)?;
/// let messages: Vec<_> = bag.messages().collect::<Result<_, _>>()?;
/// assert_eq!(messages[0].data.as_ref(), &7u32.to_le_bytes());
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct BagWriter<W: Write + Seek> {
    out: W,
    pos: u64,
    options: WriterOptions,
    connections: Vec<Connection>,
    /// Whether each connection's record has been written into a chunk yet.
    connection_written: Vec<bool>,
    chunk: OpenChunk,
    chunk_infos: Vec<ChunkInfo>,
    compressor: Option<Compressor>,
    in_flight: VecDeque<ClosedChunk>,
    /// While set, the open chunk is not closed between messages.
    holding_chunk: bool,
    /// Chunk buffers handed back by the compressor, for reuse.
    spare_buffers: Vec<Vec<u8>>,
    scratch: Vec<u8>,
}

impl<W: Write + Seek> BagWriter<W> {
    /// Start a bag on `out`, writing the magic line and a bag header that
    /// [`finish`](Self::finish) completes.
    pub fn new(mut out: W, options: WriterOptions) -> Result<Self> {
        let mut head = MAGIC.to_vec();
        encode_bag_header(&mut head, 0, 0, 0);
        out.write_all(&head)?;
        Ok(BagWriter {
            out,
            pos: head.len() as u64,
            options,
            connections: Vec::new(),
            connection_written: Vec::new(),
            chunk: OpenChunk::default(),
            chunk_infos: Vec::new(),
            compressor: None,
            in_flight: VecDeque::new(),
            holding_chunk: false,
            spare_buffers: Vec::new(),
            scratch: Vec::new(),
        })
    }

    /// The options this writer was made with.
    pub fn options(&self) -> WriterOptions {
        self.options
    }

    /// Register a connection and return its id (the writer assigns ids
    /// 0, 1, 2… in order; the `id` field of `conn` is ignored).
    pub fn add_connection(&mut self, mut conn: Connection) -> u32 {
        conn.id = self.connections.len() as u32;
        self.connections.push(conn);
        self.connection_written.push(false);
        self.connections.len() as u32 - 1
    }

    /// The connections added so far.
    pub fn connections(&self) -> &[Connection] {
        &self.connections
    }

    /// Bytes written to the sink so far (chunks still open or being
    /// compressed are not counted).
    pub fn bytes_written(&self) -> u64 {
        self.pos
    }

    /// Append one message on connection `conn` with time `time` (ns).
    pub fn write(&mut self, conn: u32, time: u64, data: &[u8]) -> Result<()> {
        self.write_with(conn, time, |out| {
            out.extend_from_slice(data);
            Ok(())
        })
    }

    /// Append one message whose bytes `encode` appends to the chunk buffer
    /// directly, saving the copy through an intermediate buffer. An error
    /// of `encode` is returned, and what it appended is taken back: the
    /// message is not written.
    pub fn write_with(
        &mut self,
        conn: u32,
        time: u64,
        encode: impl FnOnce(&mut Vec<u8>) -> Result<()>,
    ) -> Result<()> {
        let index = conn as usize;
        if index >= self.connections.len() {
            return Err(Error::InvalidArgument(format!(
                "connection id {conn} was not added to this writer"
            )));
        }
        if !self.connection_written[index] {
            // ROS writes a connection's record into the chunk of its first
            // message, so that a bag without its index can be recovered.
            self.connections[index].encode(&mut self.chunk.data);
            self.connection_written[index] = true;
        }
        self.append_message(conn, time, encode)?;
        self.flush_if_full()
    }

    /// Keep the open chunk open across the next writes (`true`), for
    /// messages that belong together such as a frame and its metadata, so
    /// that a reader finds them in one chunk; `false` lets it close again,
    /// at once if it is full.
    pub fn hold_chunk(&mut self, hold: bool) -> Result<()> {
        self.holding_chunk = hold;
        self.flush_if_full()
    }

    fn flush_if_full(&mut self) -> Result<()> {
        if !self.holding_chunk && self.chunk.data.len() >= self.options.chunk_threshold {
            self.flush_chunk()?;
        }
        Ok(())
    }

    fn append_message(
        &mut self,
        conn: u32,
        time: u64,
        encode: impl FnOnce(&mut Vec<u8>) -> Result<()>,
    ) -> Result<()> {
        let chunk = &mut self.chunk;
        let record_start = chunk.data.len();
        let header = HeaderBuilder::new()
            .u32("conn", conn)
            .op(op::MESSAGE_DATA)
            .time("time", time)
            .build();
        encode_record_prefix(&mut chunk.data, &header, 0);
        let data_start = chunk.data.len();
        if let Err(e) = encode(&mut chunk.data) {
            chunk.data.truncate(record_start);
            return Err(e);
        }
        let data_len = chunk.data.len() - data_start;
        if data_len > u32::MAX as usize || chunk.data.len() > u32::MAX as usize {
            chunk.data.truncate(record_start);
            return Err(Error::InvalidArgument(format!(
                "a message of {data_len} bytes does not fit in a bag chunk"
            )));
        }
        chunk.data[data_start - 4..data_start].copy_from_slice(&(data_len as u32).to_le_bytes());
        if chunk.entries.is_empty() {
            chunk.start_time = time;
            chunk.end_time = time;
        }
        chunk.start_time = chunk.start_time.min(time);
        chunk.end_time = chunk.end_time.max(time);
        chunk.entries.push(IndexEntry {
            time,
            offset: record_start as u32,
            conn,
        });
        Ok(())
    }

    /// Close the open chunk now. Uncompressed chunks are written at once;
    /// compressed ones when their worker is done (at the latest in
    /// [`finish`](Self::finish)).
    pub fn flush_chunk(&mut self) -> Result<()> {
        if self.chunk.data.is_empty() {
            return Ok(());
        }
        let next_buffer = self.spare_buffers.pop().unwrap_or_default();
        let chunk = std::mem::replace(
            &mut self.chunk,
            OpenChunk {
                data: next_buffer,
                ..OpenChunk::default()
            },
        );
        let mut closed = ClosedChunk {
            seq: 0,
            raw_len: chunk.data.len() as u32,
            entries: chunk.entries,
            start_time: chunk.start_time,
            end_time: chunk.end_time,
        };
        if self.options.compression == Compression::None {
            self.write_chunk(&closed, &chunk.data)?;
            self.recycle(chunk.data);
            return Ok(());
        }
        let packed = self.spare_buffers.pop().unwrap_or_default();
        let compressor = match &mut self.compressor {
            Some(compressor) => compressor,
            None => {
                let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
                self.compressor
                    .insert(Compressor::new(self.options.compression, threads)?)
            }
        };
        closed.seq = compressor.submit(chunk.data, packed);
        self.in_flight.push_back(closed);
        self.write_compressed(false)
    }

    /// Write the compressed chunks that are ready, in order; with `all`,
    /// or while too many are waiting, wait for them.
    fn write_compressed(&mut self, all: bool) -> Result<()> {
        let limit =
            std::thread::available_parallelism().map_or(1, |n| n.get()) * IN_FLIGHT_PER_WORKER;
        while let Some(front) = self.in_flight.front() {
            let seq = front.seq;
            let must_wait = all || self.in_flight.len() > limit;
            let Some(compressor) = self.compressor.as_mut() else {
                return Ok(());
            };
            let packed = if must_wait {
                compressor.take(seq)
            } else {
                compressor.try_take(seq)
            };
            let packed = match packed {
                Some(packed) => packed,
                None if must_wait => {
                    return Err(Error::Thread("a compression worker stopped".into()))
                }
                None => return Ok(()),
            };
            let Some(closed) = self.in_flight.pop_front() else {
                return Ok(());
            };
            self.write_chunk(&closed, &packed.packed)?;
            self.recycle(packed.raw);
            self.recycle(packed.packed);
        }
        Ok(())
    }

    fn recycle(&mut self, mut buffer: Vec<u8>) {
        if self.spare_buffers.len() < 2 {
            buffer.clear();
            self.spare_buffers.push(buffer);
        }
    }

    /// Write a chunk record with `payload`, then its index data records.
    fn write_chunk(&mut self, chunk: &ClosedChunk, payload: &[u8]) -> Result<()> {
        let chunk_pos = self.pos;
        let mut record = std::mem::take(&mut self.scratch);
        record.clear();
        let header = HeaderBuilder::new()
            .field("compression", self.options.compression.as_str().as_bytes())
            .op(op::CHUNK)
            .u32("size", chunk.raw_len)
            .build();
        encode_record_prefix(&mut record, &header, payload.len() as u32);
        self.out.write_all(&record)?;
        self.out.write_all(payload)?;
        self.pos += (record.len() + payload.len()) as u64;

        record.clear();
        let info = encode_chunk_index(chunk, chunk_pos, &mut record);
        self.out.write_all(&record)?;
        self.pos += record.len() as u64;
        self.chunk_infos.push(info);
        self.scratch = record;
        Ok(())
    }

    /// Write the open chunk and the closing index, patch the bag header
    /// and return the sink.
    pub fn finish(mut self) -> Result<W> {
        self.flush_chunk()?;
        self.write_compressed(true)?;
        let index_pos = self.pos;
        let mut index = Vec::new();
        for conn in &self.connections {
            conn.encode(&mut index);
        }
        for info in &self.chunk_infos {
            info.encode(&mut index);
        }
        self.out.write_all(&index)?;
        let mut header = Vec::new();
        encode_bag_header(
            &mut header,
            index_pos,
            self.connections.len() as u32,
            self.chunk_infos.len() as u32,
        );
        self.out.seek(SeekFrom::Start(MAGIC.len() as u64))?;
        self.out.write_all(&header)?;
        self.out.seek(SeekFrom::End(0))?;
        self.out.flush()?;
        Ok(self.out)
    }
}

/// Encode the index data records of a chunk into `out` and return its
/// chunk info.
fn encode_chunk_index(chunk: &ClosedChunk, chunk_pos: u64, out: &mut Vec<u8>) -> ChunkInfo {
    let mut by_conn: BTreeMap<u32, Vec<IndexEntry>> = BTreeMap::new();
    for entry in &chunk.entries {
        by_conn.entry(entry.conn).or_default().push(*entry);
    }
    let mut connection_counts = Vec::with_capacity(by_conn.len());
    for (conn, entries) in &mut by_conn {
        entries.sort_by_key(|e| e.time);
        encode_index_data(*conn, entries, out);
        connection_counts.push((*conn, entries.len() as u32));
    }
    ChunkInfo {
        chunk_pos,
        start_time: chunk.start_time,
        end_time: chunk.end_time,
        connection_counts,
    }
}

/// Append the bag header record, padded with spaces as ROS does.
fn encode_bag_header(out: &mut Vec<u8>, index_pos: u64, conn_count: u32, chunk_count: u32) {
    let header = HeaderBuilder::new()
        .u32("chunk_count", chunk_count)
        .u32("conn_count", conn_count)
        .u64("index_pos", index_pos)
        .op(op::BAG_HEADER)
        .build();
    let padding = BAG_HEADER_SPAN - header.len();
    encode_record_prefix(out, &header, padding as u32);
    out.resize(out.len() + padding, b' ');
}

/// A bag being written to a file.
///
/// The bag is written under a temporary name (`NAME.partial` beside the
/// final path) and renamed to its final name by [`BagFile::finish`], so a
/// file under the final name is always complete. A process that dies while
/// writing leaves the `.partial` file, whose complete chunks
/// [`crate::storage::bag::Bag::scan`] recovers. All writing methods of
/// [`BagWriter`] are available through `Deref`.
#[derive(Debug)]
pub struct BagFile {
    writer: BagWriter<BufWriter<File>>,
    partial_path: PathBuf,
    path: PathBuf,
    /// Whether finishing may replace a file at `path`.
    replace: bool,
}

impl BagFile {
    /// Start writing a bag that will be named `path` once finished. A file
    /// already at `path`, or at its temporary name (a recording under way,
    /// or one that was cut off), is an error: nothing is replaced that the
    /// caller did not ask to replace ([`BagFile::create_or_replace`]).
    pub fn create(path: impl AsRef<Path>, options: WriterOptions) -> Result<BagFile> {
        BagFile::start(path.as_ref(), options, false)
    }

    /// [`BagFile::create`], replacing a file at `path` (and at its
    /// temporary name) when the bag is finished.
    pub fn create_or_replace(path: impl AsRef<Path>, options: WriterOptions) -> Result<BagFile> {
        BagFile::start(path.as_ref(), options, true)
    }

    fn start(path: &Path, options: WriterOptions, replace: bool) -> Result<BagFile> {
        let path = path.to_path_buf();
        let (partial_path, file) = claim_partial(&path, replace)?;
        let writer = BagWriter::new(BufWriter::with_capacity(1 << 20, file), options)
            .map_err(|e| e.in_file(&partial_path))?;
        Ok(BagFile {
            writer,
            partial_path,
            path,
            replace,
        })
    }

    /// The final path of the bag.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The temporary path the bag is written under until it is finished.
    pub fn partial_path(&self) -> &Path {
        &self.partial_path
    }

    /// Write the index, sync the file and rename it to its final name.
    /// Returns the size of the file in bytes.
    pub fn finish(self) -> Result<u64> {
        let BagFile {
            writer,
            partial_path,
            path,
            replace,
        } = self;
        let in_file = |e: Error| e.in_file(&partial_path);
        let file = writer
            .finish()
            .map_err(in_file)?
            .into_inner()
            .map_err(|e| in_file(e.into_error().into()))?;
        file.sync_all().map_err(|e| in_file(e.into()))?;
        let size = file.metadata().map_err(|e| in_file(e.into()))?.len();
        drop(file);
        publish_partial(&partial_path, &path, replace)?;
        Ok(size)
    }

    /// Stop writing and delete the partial file.
    pub fn abandon(self) {
        let partial_path = self.partial_path.clone();
        drop(self);
        let _ = std::fs::remove_file(partial_path);
    }
}

impl Deref for BagFile {
    type Target = BagWriter<BufWriter<File>>;

    fn deref(&self) -> &Self::Target {
        &self.writer
    }
}

impl DerefMut for BagFile {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.writer
    }
}
