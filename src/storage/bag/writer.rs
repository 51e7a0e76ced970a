//! Streaming bag writer: chunked, indexed, optionally compressed.

use std::collections::{BTreeMap, VecDeque};
use std::fs::File;
use std::io::{BufWriter, Seek, SeekFrom, Write};
use std::ops::{Deref, DerefMut};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use bytes::Bytes;

use super::compression::Compression;
use super::compressor::{Compressor, RawChunk};
use super::index::{encode_index_data, ChunkInfo, IndexEntry};
use super::record::{encode_record_prefix, op, HeaderBuilder, MAGIC};
use crate::storage::file::{claim_partial, publish_partial, PartialClaim};
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
    data: RawChunk,
    entries: Vec<IndexEntry>,
    start_time: u64,
    end_time: u64,
}

/// At most this many bytes of a record's header and length fields, for
/// the chunk and index data records [`BagWriter::finished_size_bound`]
/// counts ahead of writing them.
const RECORD_HEADER_BYTES: u64 = 128;

/// A chunk info record without its per-connection counts (a header of
/// six fields and the lengths).
const CHUNK_INFO_BYTES: u64 = 128;

/// A closed chunk waiting for its compressed bytes.
#[derive(Debug)]
struct ClosedChunk {
    seq: u64,
    raw_len: u32,
    entries: Vec<IndexEntry>,
    start_time: u64,
    end_time: u64,
}

/// How many closed chunks go to a compression worker together: LZ4's
/// checksums of four chunks are taken side by side
/// ([`Compression::compress_batch`]), and eight chunks of unequal sizes
/// (a depth frame, a colour frame) spread over four lanes of about equal
/// bytes.
const BATCH: usize = 8;

/// How long the first chunk of a batch waits for the others at most, so
/// that a slow recording's chunks still reach the file soon after they
/// close.
const BATCH_WAIT: Duration = Duration::from_millis(250);

/// A message's bytes shorter than this are copied into the chunk rather
/// than spliced in by reference (a piece of its own costs a short LZ4
/// block).
const SPLICE_MIN: usize = 64 << 10;

/// Writes a ROS bag v2.0 to any seekable sink.
///
/// Memory stays bounded: a chunk is buffered while it fills, at most a few
/// batches of closed chunks wait for compression, and only one small
/// [`ChunkInfo`] per written chunk is kept for the closing index. Chunks
/// are compressed in batches of eight on worker threads (one per core), so
/// a compressed recording uses every core; a batch not full waits at most
/// a quarter of a second. Large message bytes given as shared buffers
/// ([`BagWriter::write_spliced`]) are kept by reference, not copied.
/// Call [`BagWriter::finish`] to write the index; a writer
/// dropped without it leaves a bag with no index, whose complete chunks
/// [`crate::storage::bag::Bag::scan`] still recovers.
///
/// # Example
/// ```
/// use rsbag::storage::bag::{Bag, BagWriter, WriterOptions};
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
    /// The size of the closing index so far: connection and chunk info
    /// records.
    index_bytes: u64,
    compressor: Option<Compressor>,
    /// Closed chunks not yet handed to the compressor, and when the first
    /// of them closed.
    batch: Vec<(ClosedChunk, RawChunk)>,
    batch_since: Option<Instant>,
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
            index_bytes: 0,
            compressor: None,
            batch: Vec::new(),
            batch_since: None,
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
        let mut record = Vec::new();
        conn.encode(&mut record);
        self.index_bytes += record.len() as u64;
        self.connections.push(conn);
        self.connection_written.push(false);
        self.connections.len() as u32 - 1
    }

    /// The connections added so far.
    pub fn connections(&self) -> &[Connection] {
        &self.connections
    }

    /// Bytes written to the sink so far (chunks still open, waiting for
    /// their batch or being compressed are not counted).
    pub(crate) fn bytes_written(&self) -> u64 {
        self.pos
    }

    /// An upper bound on the bag's size were it finished now: what was
    /// written, the chunks still open, waiting or being compressed (LZ4
    /// makes data at most 1/255 larger) with their index records, and the
    /// closing index.
    pub(crate) fn finished_size_bound(&self) -> u64 {
        let open = (
            self.chunk.data.len() as u64,
            self.chunk.entries.len() as u64,
        );
        let waiting = self
            .batch
            .iter()
            .map(|(chunk, _)| chunk)
            .chain(&self.in_flight)
            .map(|c| (u64::from(c.raw_len), c.entries.len() as u64));
        let connections = self.connections.len() as u64;
        let pending: u64 = std::iter::once(open)
            .chain(waiting)
            .map(|(raw, entries)| {
                raw + raw / 255
                    + 16
                    + RECORD_HEADER_BYTES
                    + entries * 12
                    + entries.min(connections) * (RECORD_HEADER_BYTES + 8)
                    + CHUNK_INFO_BYTES
            })
            .sum();
        self.pos + pending + self.index_bytes
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
        self.write_parts(conn, time, |chunk| encode(&mut chunk.inline))
    }

    /// Append one message whose bytes are what `head` appends, then
    /// `shared`, then `tail`. `shared` (a camera frame's pixels) is kept by
    /// reference until its chunk is compressed and written, rather than
    /// copied into the chunk buffer, unless it is short. An error of `head`
    /// is returned, and the message is not written.
    pub fn write_spliced(
        &mut self,
        conn: u32,
        time: u64,
        head: impl FnOnce(&mut Vec<u8>) -> Result<()>,
        shared: &Bytes,
        tail: &[u8],
    ) -> Result<()> {
        self.write_parts(conn, time, |chunk| {
            head(&mut chunk.inline)?;
            if shared.len() < SPLICE_MIN {
                chunk.inline.extend_from_slice(shared);
            } else {
                chunk.splice(shared.clone());
            }
            chunk.inline.extend_from_slice(tail);
            Ok(())
        })
    }

    fn write_parts(
        &mut self,
        conn: u32,
        time: u64,
        encode: impl FnOnce(&mut RawChunk) -> Result<()>,
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
            self.connections[index].encode(&mut self.chunk.data.inline);
            self.connection_written[index] = true;
        }
        self.append_message(conn, time, encode)?;
        self.flush_if_full()?;
        self.submit_batch_if_waited()
    }

    /// Keep the open chunk open across the next writes (`true`), for
    /// messages that belong together such as a frame and its metadata, so
    /// that a reader finds them in one chunk; `false` lets it close again,
    /// at once if it is full.
    pub(crate) fn hold_chunk(&mut self, hold: bool) -> Result<()> {
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
        encode: impl FnOnce(&mut RawChunk) -> Result<()>,
    ) -> Result<()> {
        let chunk = &mut self.chunk;
        let mark = chunk.data.mark();
        let record_start = chunk.data.len();
        let header = HeaderBuilder::new()
            .u32("conn", conn)
            .op(op::MESSAGE_DATA)
            .time("time", time)
            .build();
        encode_record_prefix(&mut chunk.data.inline, &header, 0);
        let (data_start, length_at) = (chunk.data.len(), chunk.data.inline.len() - 4);
        if let Err(e) = encode(&mut chunk.data) {
            chunk.data.rollback(mark);
            return Err(e);
        }
        let data_len = chunk.data.len() - data_start;
        if data_len > u32::MAX as usize || chunk.data.len() > u32::MAX as usize {
            chunk.data.rollback(mark);
            return Err(Error::InvalidArgument(format!(
                "a message of {data_len} bytes does not fit in a bag chunk"
            )));
        }
        chunk.data.inline[length_at..length_at + 4]
            .copy_from_slice(&(data_len as u32).to_le_bytes());
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
    pub(crate) fn flush_chunk(&mut self) -> Result<()> {
        if self.chunk.data.is_empty() {
            return Ok(());
        }
        let mut next = OpenChunk::default();
        next.data.inline = self.spare_buffers.pop().unwrap_or_default();
        let chunk = std::mem::replace(&mut self.chunk, next);
        let closed = ClosedChunk {
            seq: 0,
            raw_len: chunk.data.len() as u32,
            entries: chunk.entries,
            start_time: chunk.start_time,
            end_time: chunk.end_time,
        };
        if self.options.compression == Compression::None {
            self.write_chunk(&closed, &chunk.data.pieces())?;
            self.recycle(chunk.data.into_inline());
            return Ok(());
        }
        self.batch_since.get_or_insert_with(Instant::now);
        self.batch.push((closed, chunk.data));
        if self.batch.len() >= BATCH {
            self.submit_batch()?;
        }
        self.write_compressed(false)
    }

    /// Hand the batch to the compressor if its first chunk has waited long
    /// enough for the others.
    fn submit_batch_if_waited(&mut self) -> Result<()> {
        match self.batch_since {
            Some(since) if since.elapsed() >= BATCH_WAIT => {
                self.submit_batch()?;
                self.write_compressed(false)
            }
            _ => Ok(()),
        }
    }

    /// Hand the closed chunks to the compressor.
    fn submit_batch(&mut self) -> Result<()> {
        self.batch_since = None;
        if self.batch.is_empty() {
            return Ok(());
        }
        let compressor = match &mut self.compressor {
            Some(compressor) => compressor,
            None => {
                let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
                self.compressor
                    .insert(Compressor::new(self.options.compression, threads)?)
            }
        };
        let mut closed = Vec::with_capacity(self.batch.len());
        let mut raws = Vec::with_capacity(self.batch.len());
        for (chunk, raw) in self.batch.drain(..) {
            closed.push(chunk);
            raws.push((raw, self.spare_buffers.pop().unwrap_or_default()));
        }
        for (mut chunk, seq) in closed.into_iter().zip(compressor.submit(raws)) {
            chunk.seq = seq;
            self.in_flight.push_back(chunk);
        }
        Ok(())
    }

    /// Write the compressed chunks that are ready, in order; with `all`,
    /// or while too many are waiting, wait for them.
    fn write_compressed(&mut self, all: bool) -> Result<()> {
        let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
        // A batch per worker: enough to keep every worker busy, few
        // enough to bound memory.
        let limit = workers * BATCH;
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
            self.write_chunk(&closed, &[&packed.packed])?;
            self.recycle(packed.raw.into_inline());
            self.recycle(packed.packed);
        }
        Ok(())
    }

    fn recycle(&mut self, mut buffer: Vec<u8>) {
        if self.spare_buffers.len() < 2 * BATCH {
            buffer.clear();
            self.spare_buffers.push(buffer);
        }
    }

    /// Write a chunk record with `payload` (the pieces it is made of),
    /// then its index data records.
    fn write_chunk(&mut self, chunk: &ClosedChunk, payload: &[&[u8]]) -> Result<()> {
        let payload_len: usize = payload.iter().map(|piece| piece.len()).sum();
        let chunk_pos = self.pos;
        let mut record = std::mem::take(&mut self.scratch);
        record.clear();
        let header = HeaderBuilder::new()
            .field("compression", self.options.compression.as_str().as_bytes())
            .op(op::CHUNK)
            .u32("size", chunk.raw_len)
            .build();
        encode_record_prefix(&mut record, &header, payload_len as u32);
        self.out.write_all(&record)?;
        for piece in payload {
            self.out.write_all(piece)?;
        }
        self.pos += (record.len() + payload_len) as u64;

        record.clear();
        let info = encode_chunk_index(chunk, chunk_pos, &mut record);
        self.out.write_all(&record)?;
        self.pos += record.len() as u64;
        self.index_bytes += CHUNK_INFO_BYTES + 8 * info.connection_counts.len() as u64;
        self.chunk_infos.push(info);
        self.scratch = record;
        Ok(())
    }

    /// Write the open chunk and the closing index, patch the bag header
    /// and return the sink.
    pub fn finish(mut self) -> Result<W> {
        self.flush_chunk()?;
        self.submit_batch()?;
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
    /// Held until the file has its final name.
    claim: PartialClaim,
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
        let (partial_path, file, claim) = claim_partial(&path, replace)?;
        let writer = BagWriter::new(BufWriter::with_capacity(1 << 20, file), options)
            .map_err(|e| e.in_file(&partial_path))?;
        Ok(BagFile {
            writer,
            partial_path,
            claim,
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
            claim,
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
        drop(claim);
        Ok(size)
    }

    /// Stop writing and delete the partial file.
    pub fn abandon(self) {
        let BagFile {
            writer,
            partial_path,
            claim,
            ..
        } = self;
        drop(writer);
        let _ = std::fs::remove_file(partial_path);
        drop(claim);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::bag::Bag;

    /// Messages whose pixels are spliced in by reference, copied ones
    /// between them, and one whose encoding fails (taken back whole):
    /// every compression reads back byte for byte, in order, with the
    /// message times of the index.
    #[test]
    fn spliced_messages_read_back_exactly() {
        let pixels = |len: usize, seed: u8| -> Bytes {
            (0..len)
                .map(|i| (i / 7) as u8 ^ seed ^ (i % 13) as u8)
                .collect::<Vec<u8>>()
                .into()
        };
        for compression in Compression::ALL {
            let options = WriterOptions::default()
                .compression(compression)
                .chunk_threshold(300_000);
            let mut writer = BagWriter::new(std::io::Cursor::new(Vec::new()), options).unwrap();
            let conn = writer.add_connection(Connection::ros1(
                "/t",
                "pkg/T",
                "0123456789abcdef0123456789abcdef",
                "",
            ));
            let mut expected = Vec::new();
            for i in 0..40u64 {
                let shared = pixels([10, 70_000, 1 << 20, 0, 2_500_000][i as usize % 5], i as u8);
                let head = format!("head {i}").into_bytes();
                let tail = [i as u8; 3];
                writer
                    .write_spliced(
                        conn,
                        i * 10,
                        |out| {
                            out.extend_from_slice(&head);
                            Ok(())
                        },
                        &shared,
                        &tail,
                    )
                    .unwrap();
                expected.push((i * 10, [&head[..], &shared, &tail].concat()));
                let failed = writer.write_spliced(
                    conn,
                    i * 10 + 1,
                    |_| Err(Error::InvalidArgument("no".into())),
                    &shared,
                    &[],
                );
                assert!(failed.is_err());
                let small = vec![i as u8; (i as usize * 997) % 5000];
                writer.write(conn, i * 10 + 2, &small).unwrap();
                expected.push((i * 10 + 2, small));
            }
            let bag = Bag::from_bytes(writer.finish().unwrap().into_inner()).unwrap();
            assert!(bag.chunks().len() > 10, "{compression}");
            let read: Vec<(u64, Vec<u8>)> = (bag.messages())
                .map(|m| m.map(|m| (m.time, m.data.to_vec())))
                .collect::<Result<_>>()
                .unwrap();
            assert_eq!(read.len(), expected.len(), "{compression}");
            assert!(read == expected, "{compression}");
        }
    }
}
