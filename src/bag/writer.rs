//! Streaming bag writer: chunked, indexed, optionally compressed.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufWriter, Seek, SeekFrom, Write};
use std::ops::{Deref, DerefMut};
use std::path::{Path, PathBuf};

use super::compression::Compression;
use super::index::{encode_index_data, ChunkInfo, Connection, IndexEntry};
use super::record::{encode_record_prefix, op, HeaderBuilder, MAGIC};
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

/// Writes a ROS bag v2.0 to any seekable sink.
///
/// Memory stays bounded: one chunk is buffered at a time, and only one
/// small [`ChunkInfo`] per written chunk is kept for the closing index.
/// Call [`BagWriter::finish`] to write the index; a writer dropped without
/// it leaves a bag with no index, whose complete chunks
/// [`crate::bag::Bag::scan`] still recovers.
///
/// # Example
/// ```
/// use rsbag::bag::{Bag, BagWriter, Connection, WriterOptions};
/// # fn main() -> rsbag::Result<()> {
/// let mut writer = BagWriter::new(std::io::Cursor::new(Vec::new()), WriterOptions::default())?;
/// let conn = writer.add_connection(Connection::new(
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

    /// Bytes written to the sink so far (the open chunk is not counted).
    pub fn bytes_written(&self) -> u64 {
        self.pos
    }

    /// Append one message on connection `conn` with time `time` (ns).
    pub fn write(&mut self, conn: u32, time: u64, data: &[u8]) -> Result<()> {
        let index = conn as usize;
        if index >= self.connections.len() {
            return Err(Error::InvalidArgument(format!(
                "connection id {conn} was not added to this writer"
            )));
        }
        if data.len() > u32::MAX as usize - 64 {
            return Err(Error::InvalidArgument(format!(
                "a message of {} bytes does not fit in a bag record",
                data.len()
            )));
        }
        if !self.connection_written[index] {
            // ROS writes a connection's record into the chunk of its first
            // message, so that a bag without its index can be recovered.
            self.connections[index].encode(&mut self.chunk.data);
            self.connection_written[index] = true;
        }
        self.append_message(conn, time, data);
        if self.chunk.data.len() >= self.options.chunk_threshold {
            self.flush_chunk()?;
        }
        Ok(())
    }

    fn append_message(&mut self, conn: u32, time: u64, data: &[u8]) {
        let chunk = &mut self.chunk;
        if chunk.entries.is_empty() {
            chunk.start_time = time;
            chunk.end_time = time;
        }
        chunk.start_time = chunk.start_time.min(time);
        chunk.end_time = chunk.end_time.max(time);
        chunk.entries.push(IndexEntry {
            time,
            offset: chunk.data.len() as u32,
            conn,
        });
        let header = HeaderBuilder::new()
            .u32("conn", conn)
            .op(op::MESSAGE_DATA)
            .time("time", time)
            .build();
        encode_record_prefix(&mut chunk.data, &header, data.len() as u32);
        chunk.data.extend_from_slice(data);
    }

    /// Close the open chunk now, writing it and its index data records.
    pub fn flush_chunk(&mut self) -> Result<()> {
        if self.chunk.data.is_empty() {
            return Ok(());
        }
        let chunk_pos = self.pos;
        let compression = self.options.compression;
        let mut record = std::mem::take(&mut self.scratch);
        record.clear();
        let header = HeaderBuilder::new()
            .field("compression", compression.as_str().as_bytes())
            .op(op::CHUNK)
            .u32("size", self.chunk.data.len() as u32)
            .build();
        let payload = match compression {
            Compression::None => None,
            _ => {
                let mut packed = Vec::with_capacity(self.chunk.data.len() / 2);
                compression.compress(&self.chunk.data, &mut packed);
                Some(packed)
            }
        };
        let payload_bytes = payload.as_deref().unwrap_or(&self.chunk.data);
        encode_record_prefix(&mut record, &header, payload_bytes.len() as u32);
        self.out.write_all(&record)?;
        self.out.write_all(payload_bytes)?;
        self.pos += (record.len() + payload_bytes.len()) as u64;

        record.clear();
        let info = self.encode_chunk_index(chunk_pos, &mut record);
        self.out.write_all(&record)?;
        self.pos += record.len() as u64;
        self.chunk_infos.push(info);
        self.scratch = record;
        self.chunk.data.clear();
        self.chunk.entries.clear();
        Ok(())
    }

    /// Encode the index data records of the open chunk into `out` and
    /// return its chunk info.
    fn encode_chunk_index(&self, chunk_pos: u64, out: &mut Vec<u8>) -> ChunkInfo {
        let mut by_conn: BTreeMap<u32, Vec<IndexEntry>> = BTreeMap::new();
        for entry in &self.chunk.entries {
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
            start_time: self.chunk.start_time,
            end_time: self.chunk.end_time,
            connection_counts,
        }
    }

    /// Write the open chunk and the closing index, patch the bag header
    /// and return the sink.
    pub fn finish(mut self) -> Result<W> {
        self.flush_chunk()?;
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
/// [`crate::bag::Bag::scan`] recovers. All writing methods of
/// [`BagWriter`] are available through `Deref`.
#[derive(Debug)]
pub struct BagFile {
    writer: BagWriter<BufWriter<File>>,
    partial_path: PathBuf,
    path: PathBuf,
}

impl BagFile {
    /// Start writing a bag that will be named `path` once finished.
    pub fn create(path: impl AsRef<Path>, options: WriterOptions) -> Result<BagFile> {
        let path = path.as_ref().to_path_buf();
        let partial_path = partial_path_for(&path);
        let file = File::create(&partial_path).map_err(|source| Error::Io {
            path: partial_path.clone(),
            source,
        })?;
        let writer = BagWriter::new(BufWriter::with_capacity(1 << 20, file), options)
            .map_err(|e| e.in_file(&partial_path))?;
        Ok(BagFile {
            writer,
            partial_path,
            path,
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
        std::fs::rename(&partial_path, &path).map_err(|source| Error::Io {
            path: path.clone(),
            source,
        })?;
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

/// `dir/name.bag` → `dir/name.bag.partial`.
pub fn partial_path_for(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".partial");
    path.with_file_name(name)
}
