//! The bag reader: a memory-mapped file, its connections and chunks, and
//! time-ordered message queries through the index.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap, VecDeque};
use std::ops::{Bound, RangeBounds};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use bytes::{Bytes, BytesMut};

use super::compression::Compression;
use super::index::{parse_index_data, Chunk, ChunkInfo, IndexEntry};
use super::record::{
    op, read_record, read_record_head, FieldReader, RawRecord, RecordError, MAGIC,
};
use super::scan::{self, ScanReport};
use crate::storage::compression::pool::{BufferPool, Decompression, Decompressors, PREFETCH_DEPTH};
use crate::storage::connection::position_of;
use crate::storage::file::{map_file, MappedFile, MappedRange, RELEASE_MIN_BYTES};
use crate::storage::remote::{is_url, RemoteFile};
use crate::storage::{Connection, Message};
use crate::{Error, Result};

/// What the bag header record says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BagHeader {
    /// Offset of the closing index (0 while a bag is being written).
    pub index_pos: u64,
    /// Number of connections in the closing index.
    pub conn_count: u32,
    /// Number of chunks in the closing index.
    pub chunk_count: u32,
    /// Offset of the first record after the bag header.
    pub records_start: u64,
}

/// A ROS bag v2.0 opened for reading.
///
/// # Example
/// ```no_run
/// use rsbag::storage::bag::Bag;
/// # fn main() -> rsbag::Result<()> {
/// let bag = Bag::open("sample_bags/librealsense-depth-color-lz4.bag")?;
/// for conn in bag.connections() {
///     println!("{} {} ({} messages)", conn.topic, conn.msg_type, bag.message_count(conn.id));
/// }
/// let second = bag.start_time() + 1_000_000_000;
/// for message in bag.query().time(second..).messages() {
///     let message = message?;
///     println!("{} {} bytes", message.time, message.data.len());
/// }
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct Bag {
    /// All of the file, when in memory or memory-mapped (empty for a
    /// remote one).
    data: Bytes,
    /// The memory map behind `data`, when read from a file: large ranges
    /// are handed back to the kernel through it once read.
    map: Option<Arc<MappedFile>>,
    /// The remote object read by ranges, for a bag opened by URL.
    remote: Option<Arc<RemoteFile>>,
    /// Every chunk's position, in file order: a chunk's record and its
    /// index data records lie between its position and the next.
    positions: Vec<u64>,
    /// For a remote bag: the chunk before which the index data records
    /// of the chunks were last fetched ahead ([`Bag::will_read_entries`]).
    entries_ahead: std::sync::atomic::AtomicUsize,
    path: Option<PathBuf>,
    header: BagHeader,
    connections: Vec<Connection>,
    chunks: Vec<Chunk>,
    /// For each chunk of `chunks`, the latest end time of it and of the
    /// chunks before it: never decreasing, so that the chunks a time range
    /// needs are found by bisection rather than by a look at every chunk.
    ends_by: Vec<u64>,
    scan_report: Option<ScanReport>,
    /// Chunks whose index data records were damaged, their entries read
    /// from the chunks' own records instead.
    repairs: ChunkRepairs,
    /// The chunks random access decompressed last.
    recent: RecentChunks,
}

/// The chunks of a bag whose index data records (the entries that follow
/// each chunk) were damaged and whose messages were found by reading the
/// chunk's own records instead, as far as reading has gone: the file is
/// damaged, though nothing of it is lost. A handle on the bag's list, for
/// whoever reports on the reading when it ends.
#[derive(Debug, Clone, Default)]
pub struct ChunkRepairs(Arc<parking_lot::Mutex<Vec<(u64, String)>>>);

impl ChunkRepairs {
    /// Each chunk read so, in the order reading met them: its byte offset
    /// and what was wrong with its index data.
    pub fn chunks(&self) -> Vec<(u64, String)> {
        self.0.lock().clone()
    }

    /// How many chunks were read so.
    pub fn count(&self) -> usize {
        self.0.lock().len()
    }

    /// Note chunk `position`, its index data damaged by `why`; whether
    /// it is new.
    fn note(&self, position: u64, why: &Error) -> bool {
        let mut repaired = self.0.lock();
        let new = !repaired.iter().any(|&(p, _)| p == position);
        if new {
            repaired.push((position, why.to_string()));
        }
        new
    }
}

impl Bag {
    /// Open an indexed bag file (memory-mapped).
    ///
    /// A bag without a usable index gives [`Error::MissingIndex`]; use
    /// [`Bag::scan`] or [`Bag::open_or_scan`] for those.
    pub fn open(path: impl AsRef<Path>) -> Result<Bag> {
        let path = path.as_ref();
        if is_url(path) {
            return Bag::from_remote(RemoteFile::open(path)?, false);
        }
        let (data, map) = map_bag(path)?;
        let bag = Bag::from_indexed(data, Some(path.to_path_buf()), Some(&map))
            .map_err(|e| e.in_file(path))?;
        Ok(bag.with_map(map))
    }

    /// Read a bag by walking every record from the start, ignoring the
    /// closing index: recovers the connections and messages of every
    /// complete chunk of a bag whose index is missing, cut off or damaged.
    pub fn scan(path: impl AsRef<Path>) -> Result<Bag> {
        let path = path.as_ref();
        if is_url(path) {
            let remote = RemoteFile::open(path)?;
            return Bag::scan_remote(&remote);
        }
        let (data, map) = map_bag(path)?;
        let bag = map
            .sequentially(|| Bag::from_scan(data, Some(path.to_path_buf())))
            .map_err(|e| e.in_file(path))?;
        Ok(bag.with_map(map))
    }

    /// Open through the index, and fall back to [`Bag::scan`] when the
    /// index is missing or damaged. [`Bag::scan_report`] tells which.
    pub fn open_or_scan(path: impl AsRef<Path>) -> Result<Bag> {
        let path = path.as_ref();
        if is_url(path) {
            return Bag::from_remote(RemoteFile::open(path)?, true);
        }
        let (data, map) = map_bag(path)?;
        let bag = match Bag::from_indexed(data.clone(), Some(path.to_path_buf()), Some(&map)) {
            Ok(bag) => bag,
            Err(Error::NotABag) => return Err(Error::NotABag.in_file(path)),
            Err(e) => {
                let bag = map
                    .sequentially(|| Bag::from_scan(data, Some(path.to_path_buf())))
                    .map_err(|e| e.in_file(path))?;
                warn_scanned(&bag, path, e);
                bag
            }
        };
        Ok(bag.with_map(map))
    }

    /// Open a remote bag through its index, reading only its header and
    /// its index; without a usable index, read all of it and scan it when
    /// `or_scan` (an error otherwise).
    pub(crate) fn from_remote(remote: Arc<RemoteFile>, or_scan: bool) -> Result<Bag> {
        let path = remote.url().to_path_buf();
        let indexed = (|| {
            let header = read_bag_header(remote.head())?;
            let index = index_range(&header, remote.size())?;
            read_remote_index(&remote, &header, index)
                .map(|(connections, infos)| (header, connections, infos))
        })();
        match indexed {
            Ok((header, connections, infos)) => {
                let chunks = infos.into_iter().map(|i| Chunk::new(i, None)).collect();
                let bag =
                    Bag::assemble(Bytes::new(), Some(path), header, connections, chunks, None);
                Ok(Bag {
                    remote: Some(remote),
                    ..bag
                })
            }
            Err(Error::NotABag) => Err(Error::NotABag.in_file(&path)),
            Err(e) if e.kind() == crate::ErrorKind::Io => Err(e),
            Err(e) if or_scan => {
                let bag = Bag::scan_remote(&remote)?;
                warn_scanned(&bag, &path, e);
                Ok(bag)
            }
            Err(e) => Err(e.in_file(&path)),
        }
    }

    /// Scan a remote bag: all of it is read (in memory: at most
    /// [`MAX_READ_BYTES`](crate::storage::remote::MAX_READ_BYTES)).
    fn scan_remote(remote: &RemoteFile) -> Result<Bag> {
        let path = remote.url().to_path_buf();
        let most = crate::storage::remote::MAX_READ_BYTES;
        if remote.size() > most {
            return Err(Error::MissingIndex {
                reason: format!(
                    "its index is unusable, and a recording by URL is scanned in memory, at \
                     most {} MB of it: download it and run `rsbag reindex` on the copy",
                    most >> 20
                ),
            }
            .in_file(&path));
        }
        let data = remote.read(0..remote.size())?;
        Bag::from_scan(data, Some(path.clone())).map_err(|e| e.in_file(&path))
    }

    /// Read an indexed bag from bytes in memory.
    pub fn from_bytes(data: impl Into<Bytes>) -> Result<Bag> {
        Bag::from_indexed(data.into(), None, None)
    }

    /// Scan a bag in memory (see [`Bag::scan`]).
    pub fn scan_bytes(data: impl Into<Bytes>) -> Result<Bag> {
        Bag::from_scan(data.into(), None)
    }

    /// A bag through its closing index, read from `data`; the index's
    /// pages are asked of the kernel at once when `data` is `map`'s (in a
    /// map read at random, each would be read alone, waited for).
    fn from_indexed(data: Bytes, path: Option<PathBuf>, map: Option<&MappedFile>) -> Result<Bag> {
        let header = read_bag_header(&data)?;
        let index = index_range(&header, data.len() as u64)?;
        if let Some(map) = map {
            map.will_need(index.start as usize..index.end as usize);
        }
        let (connections, infos) = read_index(&data[index.start as usize..], index.start, &header)?;
        let chunks = infos.into_iter().map(|i| Chunk::new(i, None)).collect();
        Ok(Bag::assemble(data, path, header, connections, chunks, None))
    }

    fn from_scan(data: Bytes, path: Option<PathBuf>) -> Result<Bag> {
        let header = read_bag_header(&data)?;
        let scanned = scan::scan_records(&data, header.records_start);
        Ok(Bag::assemble(
            data,
            path,
            header,
            scanned.connections,
            scanned.chunks,
            Some(scanned.report),
        ))
    }

    fn assemble(
        data: Bytes,
        path: Option<PathBuf>,
        header: BagHeader,
        mut connections: Vec<Connection>,
        mut chunks: Vec<Chunk>,
        scan_report: Option<ScanReport>,
    ) -> Bag {
        connections.sort_by_key(|c| c.id);
        connections.dedup_by_key(|c| c.id);
        chunks.sort_by_key(|c| (c.info.start_time, c.info.chunk_pos));
        let ends_by = chunks
            .iter()
            .scan(0, |latest, c| {
                *latest = c.info.end_time.max(*latest);
                Some(*latest)
            })
            .collect();
        let mut positions: Vec<u64> = chunks.iter().map(|c| c.info.chunk_pos).collect();
        positions.sort_unstable();
        Bag {
            data,
            map: None,
            remote: None,
            positions,
            entries_ahead: Default::default(),
            path,
            header,
            connections,
            chunks,
            ends_by,
            scan_report,
            repairs: ChunkRepairs::default(),
            recent: RecentChunks::default(),
        }
    }

    fn with_map(mut self, map: Arc<MappedFile>) -> Bag {
        self.map = Some(map);
        self
    }

    /// Bytes `start..end` of the file, out of `bytes`. Large ranges of a
    /// mapped file get an owner of their own that hands their pages back to
    /// the kernel when the last frame using them is dropped, so that memory
    /// use does not grow with the file's length.
    fn file_range(&self, bytes: &FileBytes, start: usize, end: usize) -> Bytes {
        match &self.map {
            Some(map) if end - start >= RELEASE_MIN_BYTES => Bytes::from_owner(MappedRange {
                file: map.clone(),
                start,
                end,
            }),
            _ => bytes.slice(start as u64..end as u64),
        }
    }

    /// The bytes that hold `chunk`'s record and the index data records
    /// after it: all of a file in memory, the chunk's span of a remote one
    /// (fetched, or taken from what was fetched ahead).
    pub(crate) fn chunk_bytes(&self, chunk: &Chunk) -> Result<FileBytes> {
        match &self.remote {
            None => Ok(FileBytes {
                bytes: self.data.clone(),
                base: 0,
            }),
            Some(remote) => {
                let span = self.chunk_span(chunk);
                let bytes = remote.read(span.clone())?;
                Ok(FileBytes {
                    bytes,
                    base: span.start,
                })
            }
        }
    }

    /// Where `chunk`'s record and its index data records lie: from its
    /// position to the next chunk's, or to the index after the last.
    fn chunk_span(&self, chunk: &Chunk) -> std::ops::Range<u64> {
        let pos = chunk.info.chunk_pos;
        let next = self.positions.partition_point(|&p| p <= pos);
        let end = match self.positions.get(next) {
            Some(&end) => end,
            None if self.header.index_pos > pos => self.header.index_pos,
            None => self.file_size(),
        };
        pos..end.min(self.file_size())
    }

    /// Have a remote bag fetch `chunks` now, for a reader about to read
    /// them, in as few requests as they allow (small chunks next to each
    /// other as one range, and several small ones in one request); nothing
    /// for a local bag.
    fn will_read_all(&self, chunks: &[&Chunk]) {
        if let Some(remote) = &self.remote {
            let spans = (chunks.iter().filter(|c| c.recovered.is_none()))
                .map(|chunk| self.chunk_span(chunk));
            remote.prefetch_many(spans, HEADS_GAP);
        }
    }

    /// The file this bag was opened from, if any.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// The size of the file in bytes.
    pub fn file_size(&self) -> u64 {
        match &self.remote {
            Some(remote) => remote.size(),
            None => self.data.len() as u64,
        }
    }

    /// What the bag header says.
    pub fn header(&self) -> BagHeader {
        self.header
    }

    /// All connections, sorted by id.
    pub fn connections(&self) -> &[Connection] {
        &self.connections
    }

    /// The connection with id `id`.
    pub fn connection(&self, id: u32) -> Option<&Connection> {
        position_of(&self.connections, id).map(|i| &self.connections[i])
    }

    /// The connections on `topic` (usually one).
    pub fn connections_on<'b>(&'b self, topic: &'b str) -> impl Iterator<Item = &'b Connection> {
        self.connections.iter().filter(move |c| c.topic == topic)
    }

    /// All chunks, sorted by start time.
    pub fn chunks(&self) -> &[Chunk] {
        &self.chunks
    }

    /// Set when the bag was read by a scan: what was recovered and what was
    /// lost.
    pub fn scan_report(&self) -> Option<&ScanReport> {
        self.scan_report.as_ref()
    }

    /// The chunks whose damaged index data reading has read around so far
    /// (see [`ChunkRepairs`]).
    pub fn chunk_repairs(&self) -> ChunkRepairs {
        self.repairs.clone()
    }

    /// The number of messages on connection `conn`, from the index alone.
    pub fn message_count(&self, conn: u32) -> u64 {
        self.chunks
            .iter()
            .flat_map(|c| &c.info.connection_counts)
            .filter(|&&(id, _)| id == conn)
            .map(|&(_, n)| u64::from(n))
            .sum()
    }

    /// The number of messages in the bag, from the index alone.
    pub fn total_message_count(&self) -> u64 {
        self.chunks.iter().map(|c| c.info.message_count()).sum()
    }

    /// Time of the earliest message (ns), or 0 for an empty bag.
    pub fn start_time(&self) -> u64 {
        self.chunks
            .iter()
            .map(|c| c.info.start_time)
            .min()
            .unwrap_or(0)
    }

    /// Time of the latest message (ns), or 0 for an empty bag.
    pub fn end_time(&self) -> u64 {
        self.chunks
            .iter()
            .map(|c| c.info.end_time)
            .max()
            .unwrap_or(0)
    }

    /// The compression of the chunk, read from its header.
    pub fn chunk_compression(&self, chunk: &Chunk) -> Result<Compression> {
        if let Some(recovered) = &chunk.recovered {
            return Ok(recovered.compression);
        }
        let Some(remote) = &self.remote else {
            return Ok(self.chunk_header(chunk, &self.chunk_bytes(chunk)?)?.0);
        };
        // Only its header, unless the chunk was fetched already.
        let span = self.chunk_span(chunk);
        let head = span.start..span.end.min(span.start + CHUNK_HEAD_BYTES);
        let bytes = match remote.read_cached(span.clone()) {
            Some(bytes) => bytes?,
            None => remote.read(head)?,
        };
        let (record, data_len) = read_record_head(&bytes, 0, span.start)?;
        if record.data_offset + u64::from(data_len) > span.end {
            return Err(RecordError::Truncated {
                offset: record.offset,
            }
            .into_error());
        }
        Ok(chunk_fields(&record)?.0)
    }

    /// Have a remote bag fetch the headers of `chunks` at once, for a
    /// reader about to ask for their compression (nothing for a local bag):
    /// in one request, or a few, rather than one after another.
    pub(crate) fn will_read_headers(&self, chunks: &[&Chunk]) {
        let Some(remote) = &self.remote else {
            return;
        };
        let heads = (chunks.iter().filter(|c| c.recovered.is_none())).map(|chunk| {
            let span = self.chunk_span(chunk);
            span.start..span.end.min(span.start + CHUNK_HEAD_BYTES)
        });
        remote.prefetch_many(heads, HEADS_GAP);
    }

    /// Every message in time order.
    pub fn messages(&self) -> Messages<'_> {
        self.query().messages()
    }

    /// Start a query: choose topics, connections and a time range, then
    /// call [`Query::messages`].
    pub fn query(&self) -> Query<'_> {
        Query {
            bag: self,
            connections: None,
            start: Bound::Unbounded,
            end: Bound::Unbounded,
            random_access: false,
            decompressors: None,
        }
    }

    /// The uncompressed data of a chunk: borrowed from the file when the
    /// chunk is stored uncompressed, decompressed otherwise.
    pub fn chunk_data(&self, chunk: &Chunk) -> Result<Bytes> {
        self.chunk_data_in(chunk, false, |_| BytesMut::new())
    }

    /// [`chunk_data`](Self::chunk_data), decompressing into the buffer
    /// `buffer` gives for the uncompressed size (asked only for a
    /// compressed chunk); `read_ahead` when [`read_ahead`](Self::read_ahead)
    /// was asked for the chunk already (its pages not asked about again).
    fn chunk_data_in(
        &self,
        chunk: &Chunk,
        read_ahead: bool,
        buffer: impl FnOnce(usize) -> BytesMut,
    ) -> Result<Bytes> {
        if let Some(recovered) = &chunk.recovered {
            return Ok(recovered.data.clone());
        }
        let bytes = self.chunk_bytes(chunk)?;
        let (compression, size, record) = self.chunk_header(chunk, &bytes)?;
        let range = record.data_offset as usize..record.end() as usize;
        if !read_ahead {
            self.will_need(range.clone());
        }
        match compression {
            Compression::None if record.data.len() == size as usize => {
                Ok(self.file_range(&bytes, range.start, range.end))
            }
            Compression::None => Err(record.corrupt(format!(
                "uncompressed chunk has {} data bytes but its header says {size}",
                record.data.len()
            ))),
            _ => {
                // Through its own range, so the compressed pages are released.
                let payload = self.file_range(&bytes, range.start, range.end);
                let buffer = buffer(size as usize);
                compression.decompress_into(&payload, size, record.offset, buffer)
            }
        }
    }

    /// [`chunk_data`](Self::chunk_data) through the cache of the chunks
    /// decompressed last, for random access. The lock on the cache is not
    /// held while a chunk is decompressed: threads that miss the same chunk
    /// at once each decompress it.
    fn recent_chunk_data(&self, chunk: &Chunk) -> Result<Bytes> {
        let pos = chunk.info.chunk_pos;
        if let Some(data) = self.recent.get(pos) {
            return Ok(data);
        }
        let mut decompressed = false;
        let data = self.chunk_data_in(chunk, false, |_| {
            decompressed = true;
            self.recent.take_spare()
        })?;
        // A stored chunk is the file's bytes: nothing to keep.
        if decompressed {
            self.recent.insert(pos, data.clone());
        }
        Ok(data)
    }

    /// For a large compressed chunk, the job of decompressing it on another
    /// thread; `None` for a stored or small chunk.
    fn chunk_decompressor(&self, chunk: &Chunk) -> Result<Option<Decompression>> {
        if chunk.recovered.is_some() {
            return Ok(None);
        }
        let bytes = self.chunk_bytes(chunk)?;
        let (compression, size, record) = self.chunk_header(chunk, &bytes)?;
        // A thread is worth starting only for a chunk that takes a while.
        if compression == Compression::None || record.data.len() < PREFETCH_MIN_BYTES {
            return Ok(None);
        }
        // Through its own range, so the compressed pages are released.
        let payload = self.file_range(&bytes, record.data_offset as usize, record.end() as usize);
        Ok(Some(Decompression {
            compression,
            payload,
            size,
            offset: record.offset,
        }))
    }

    /// Ask the kernel to read `chunk` ahead, for a reader that will soon
    /// need it; the number of bytes asked for.
    ///
    /// The range is the chunk's span by the index (its record and the
    /// index records after it), found without reading the chunk's header:
    /// in a map read at random, reading the header of a chunk not in
    /// memory waited on the disk for its page, and the index records
    /// after the data were then read a page at a time (four 1 GB files
    /// not in memory took 1.3 times as long to read).
    fn read_ahead(&self, chunk: &Chunk) -> usize {
        if chunk.recovered.is_some() {
            return 0;
        }
        let span = self.chunk_span(chunk);
        let span = span.start as usize..span.end as usize;
        // A remote bag's are fetched by the caller, with the others ahead
        // (will_read_all).
        if self.remote.is_none() {
            self.will_need(span.clone());
        }
        span.len()
    }

    /// Ask the kernel to start reading a range of the file that is about to
    /// be read (the map is read at random otherwise: see [`map_bag`]).
    fn will_need(&self, range: std::ops::Range<usize>) {
        if let Some(map) = &self.map {
            map.will_need(range);
        }
    }

    /// The chunk record of `chunk` in `bytes` (of
    /// [`chunk_bytes`](Self::chunk_bytes)): its compression, uncompressed
    /// size and the record.
    pub(crate) fn chunk_header<'d>(
        &self,
        chunk: &Chunk,
        bytes: &'d FileBytes,
    ) -> Result<(Compression, u32, RawRecord<'d>)> {
        let record = bytes
            .record(chunk.info.chunk_pos)
            .map_err(RecordError::into_error)?;
        let (compression, size) = chunk_fields(&record)?;
        Ok((compression, size, record))
    }

    /// The message entries of a chunk, sorted by time; kept with the
    /// chunk once read.
    pub fn chunk_entries<'b>(&'b self, chunk: &'b Chunk) -> Result<&'b [IndexEntry]> {
        if let Some(entries) = chunk.entries.get() {
            return Ok(entries);
        }
        let mut entries = Vec::new();
        self.read_chunk_entries(chunk, |_| true, &mut entries)?;
        Ok(chunk.entries.get_or_init(|| entries))
    }

    /// The entries of `chunk` on the connections `wanted`, sorted by time,
    /// into `entries` (cleared first): the kept ones, else read now and not
    /// kept, for a reader that goes through the file once. Kept, a whole
    /// file's entries (16 bytes a message) stayed in memory until the bag
    /// was closed, and a session's readers, all open at once, took fresh
    /// pages for them (reading four 1 GB files in turn faulted 14 % more
    /// pages than one after another). Read now, a connection is looked up
    /// once per index record, not once per message (3 % of reading's
    /// instructions, in a `BTreeSet`).
    fn chunk_entries_once(
        &self,
        chunk: &Chunk,
        wanted: impl Fn(u32) -> bool,
        entries: &mut Vec<IndexEntry>,
    ) -> Result<()> {
        entries.clear();
        match chunk.entries.get() {
            Some(kept) => entries.extend(kept.iter().filter(|e| wanted(e.conn))),
            None => self.read_chunk_entries(chunk, wanted, entries)?,
        }
        Ok(())
    }

    /// Read the index data records that follow a chunk into `entries`
    /// (empty), those of the connections `wanted`. Where they are damaged,
    /// the chunk's own records give the entries, if they hold the messages
    /// the closing index counts for the chunk.
    fn read_chunk_entries(
        &self,
        chunk: &Chunk,
        wanted: impl Fn(u32) -> bool,
        entries: &mut Vec<IndexEntry>,
    ) -> Result<()> {
        let damage = match self.read_index_data(chunk, &wanted, entries) {
            Ok(()) => return Ok(()),
            Err(e @ Error::Corrupt { .. }) => e,
            Err(e) => return Err(e),
        };
        let Some(found) = self.entries_from_records(chunk) else {
            return Err(damage);
        };
        if self.repairs.note(chunk.info.chunk_pos, &damage) {
            tracing::warn!(
                "{}: {damage}; the chunk's {} messages, as many as the index counts, were read from its own records (`rsbag reindex` writes a new index)",
                self.path.as_deref().unwrap_or(Path::new("bag")).display(),
                found.len()
            );
        }
        entries.clear();
        entries.extend(found.into_iter().filter(|e| wanted(e.conn)));
        entries.sort_unstable();
        Ok(())
    }

    /// A chunk's entries found by walking its own records, if it can be
    /// read and they are the messages the closing index counts for it,
    /// connection by connection.
    fn entries_from_records(&self, chunk: &Chunk) -> Option<Vec<IndexEntry>> {
        let walked = scan::walk_chunk(&self.chunk_data(chunk).ok()?, &mut BTreeMap::new());
        let promised: BTreeMap<u32, u32> = (chunk.info.connection_counts.iter())
            .filter(|&&(_, n)| n > 0)
            .copied()
            .collect();
        let found = scan::connection_counts(&walked.entries);
        let within = walked.entries.iter().all(|e| within_span(chunk, e));
        (walked.stopped.is_none() && found == promised && within).then_some(walked.entries)
    }

    /// `error`, met reading this bag; for a remote object whose version
    /// could not be pinned, damage (bytes that contradict the index) is
    /// the error of a change when the object is found changed.
    fn damage_or_change(&self, error: Error) -> Error {
        match &self.remote {
            Some(remote) if error.kind() == crate::ErrorKind::Damaged => {
                remote.unpinned_change().unwrap_or(error)
            }
            _ => error,
        }
    }

    /// The entries of the index data records that follow a chunk (see
    /// [`Bag::read_chunk_entries`]).
    fn read_index_data(
        &self,
        chunk: &Chunk,
        wanted: impl Fn(u32) -> bool,
        entries: &mut Vec<IndexEntry>,
    ) -> Result<()> {
        let (bytes, mut pos) = self.index_data_bytes(chunk)?;
        // The counts come from the file: trust them only as far as the file
        // could hold that many index entries (12 bytes each).
        let plausible = self.file_size() / 12;
        entries.reserve(chunk.info.message_count().min(plausible) as usize);
        for _ in 0..chunk.info.connection_counts.len() {
            let index = bytes.record(pos).map_err(RecordError::into_error)?;
            if index.op != op::INDEX_DATA {
                return Err(index.corrupt(format!(
                    "expected the index data of the chunk at {}, found a {} record",
                    chunk.info.chunk_pos,
                    index.name()
                )));
            }
            parse_index_data(&index, &wanted, entries)?;
            pos = index.end();
        }
        if let Some(outside) = entries.iter().find(|e| !within_span(chunk, e)) {
            return Err(Error::corrupt(
                "index data",
                chunk.info.chunk_pos,
                format!(
                    "the chunk's index data lists a message at {} ns, outside the chunk's \
                     time span in the closing index ({}..={} ns)",
                    outside.time, chunk.info.start_time, chunk.info.end_time
                ),
            ));
        }
        entries.sort_unstable();
        Ok(())
    }

    /// Where the index data records after `chunk` lie if, as in every bag
    /// ROS and librealsense write, they end its span and have the fields
    /// ROS writes: from their counts in the chunk info.
    fn index_data_range(&self, chunk: &Chunk) -> std::ops::Range<u64> {
        let span = self.chunk_span(chunk);
        let len: u64 = (chunk.info.connection_counts.iter())
            .map(|&(_, n)| INDEX_DATA_OVERHEAD + 12 * u64::from(n))
            .sum();
        span.end.saturating_sub(len).max(span.start)..span.end
    }

    /// Have a remote bag fetch the index data records of the chunks from
    /// `index` (in [`chunks`](Self::chunks)) on that hold messages on
    /// `ids`, a few dozen, at once: a reader that asks for one chunk's
    /// entries goes on to the next ones.
    pub(crate) fn will_read_entries(&self, index: usize, ids: &[u32]) {
        let Some(remote) = &self.remote else {
            return;
        };
        // Once for each stretch of chunks read in order.
        let until = self
            .entries_ahead
            .load(std::sync::atomic::Ordering::Relaxed);
        if (until.saturating_sub(ENTRIES_AHEAD)..until.saturating_sub(ENTRIES_AHEAD / 2))
            .contains(&index)
        {
            return;
        }
        (self.entries_ahead).store(index + ENTRIES_AHEAD, std::sync::atomic::Ordering::Relaxed);
        for chunk in self.chunks.iter().skip(index).take(ENTRIES_AHEAD) {
            let holds = |&(id, n): &(u32, u32)| n > 0 && ids.contains(&id);
            let wanted = chunk.info.connection_counts.iter().any(holds);
            if wanted && chunk.entries.get().is_none() && chunk.recovered.is_none() {
                remote.prefetch(self.index_data_range(chunk));
            }
        }
    }

    /// Have a remote bag fetch the index data records of `chunks` at once,
    /// for a reader about to ask for their entries (nothing for a local
    /// bag).
    pub(crate) fn will_read_entries_of(&self, chunks: &[&Chunk]) {
        if let Some(remote) = &self.remote {
            let wanted = (chunks.iter())
                .filter(|c| c.entries.get().is_none() && c.recovered.is_none())
                .map(|chunk| self.index_data_range(chunk));
            remote.prefetch_many(wanted, HEADS_GAP);
        }
    }

    /// Bytes that hold the index data records after `chunk`, and where the
    /// first starts. A remote chunk not fetched already is not: its header,
    /// then the records after its data are.
    fn index_data_bytes(&self, chunk: &Chunk) -> Result<(FileBytes, u64)> {
        let remote = match &self.remote {
            Some(remote) if remote.read_cached(self.chunk_span(chunk)).is_none() => remote,
            _ => {
                let bytes = self.chunk_bytes(chunk)?;
                let end = self.chunk_header(chunk, &bytes)?.2.end();
                return Ok((bytes, end));
            }
        };
        let span = self.chunk_span(chunk);
        let guess = self.index_data_range(chunk);
        let bytes = FileBytes {
            bytes: remote.read(guess.clone())?,
            base: guess.start,
        };
        if index_data_fits(&bytes, guess.clone(), chunk) {
            return Ok((bytes, guess.start));
        }
        let head = remote.read(span.start..span.end.min(span.start + CHUNK_HEAD_BYTES))?;
        let (record, data_len) = read_record_head(&head, 0, span.start)?;
        chunk_fields(&record)?;
        let end = record.data_offset + u64::from(data_len);
        if end > span.end {
            return Err(RecordError::Truncated {
                offset: record.offset,
            }
            .into_error());
        }
        let bytes = remote.read(end..span.end)?;
        Ok((FileBytes { bytes, base: end }, end))
    }
}

/// Whether `bytes` hold exactly the index data records of `chunk`,
/// from `range.start` to `range.end`.
fn index_data_fits(bytes: &FileBytes, range: std::ops::Range<u64>, chunk: &Chunk) -> bool {
    let mut pos = range.start;
    for _ in &chunk.info.connection_counts {
        match bytes.record(pos) {
            Ok(record) if record.op == op::INDEX_DATA => pos = record.end(),
            _ => return false,
        }
    }
    pos == range.end
}

/// The bytes of an index data record's header as ROS writes it (`conn`,
/// `count`, `op` and `ver` fields), with its two length prefixes.
const INDEX_DATA_OVERHEAD: u64 = 4 + 13 + 14 + 8 + 12 + 4;

/// How many chunks ahead of the one asked for a remote bag fetches the
/// index data records of.
const ENTRIES_AHEAD: usize = 64;

/// How many bytes of a remote chunk are read for its header alone.
const CHUNK_HEAD_BYTES: u64 = 4096;

/// How many bytes before the index a remote bag's opening reads with it.
const INDEX_LEAD_BYTES: u64 = 64 << 10;

/// Chunk headers read together this close to each other are fetched as
/// one range.
const HEADS_GAP: u64 = 64 << 10;

/// Bytes of a bag file from offset `base` on.
#[derive(Debug, Clone)]
pub(crate) struct FileBytes {
    bytes: Bytes,
    base: u64,
}

impl FileBytes {
    /// The record at file offset `pos`.
    fn record(&self, pos: u64) -> std::result::Result<RawRecord<'_>, RecordError> {
        let at = pos
            .checked_sub(self.base)
            .and_then(|at| usize::try_from(at).ok())
            .ok_or(RecordError::Truncated { offset: pos })?;
        read_record(&self.bytes, at, self.base)
    }

    /// File bytes `range`, which these hold.
    fn slice(&self, range: std::ops::Range<u64>) -> Bytes {
        let at = |pos: u64| (pos - self.base) as usize;
        self.bytes.slice(at(range.start)..at(range.end))
    }
}

/// A chunk record's compression and uncompressed size.
fn chunk_fields(record: &RawRecord<'_>) -> Result<(Compression, u32)> {
    if record.op != op::CHUNK {
        return Err(record.corrupt(format!(
            "the index points to a {} record, not a chunk",
            record.name()
        )));
    }
    let fields = FieldReader::new(record);
    let name = fields.bytes("compression")?;
    let compression = Compression::from_name(name).ok_or_else(|| Error::UnknownCompression {
        name: String::from_utf8_lossy(name).into_owned(),
        offset: record.offset,
    })?;
    Ok((compression, fields.u32("size")?))
}

/// Say that `bag` was read by a scan, as its index was unusable (`why`).
fn warn_scanned(bag: &Bag, path: &Path, why: Error) {
    // What follows is read from a scan: say so, whatever the caller
    // prints (it may be less than the file held).
    let why = match why {
        Error::MissingIndex { reason } => reason,
        e => e.to_string(),
    };
    let recovered = bag
        .scan_report()
        .map_or_else(String::new, ScanReport::recovered);
    tracing::warn!(
        "{}: no usable index ({why}); read by scanning the records ({recovered}; `rsbag reindex` writes a new index)",
        path.display()
    );
}

/// Memory-map a bag file, to be read at random (see
/// [`MappedFile::read_at_random`]).
fn map_bag(path: &Path) -> Result<(Bytes, Arc<MappedFile>)> {
    // An empty file cannot be mapped; it is not a bag either.
    let (data, map) = map_file(path, || Error::NotABag.in_file(path))?;
    map.read_at_random();
    Ok((data, map))
}

/// Check the magic line and read the bag header record.
pub(crate) fn read_bag_header(data: &[u8]) -> Result<BagHeader> {
    if !data.starts_with(MAGIC) {
        return Err(Error::NotABag);
    }
    let record = read_record(data, MAGIC.len(), 0).map_err(RecordError::into_error)?;
    if record.op != op::BAG_HEADER {
        return Err(record.corrupt("the first record is not the bag header"));
    }
    let f = FieldReader::new(&record);
    Ok(BagHeader {
        index_pos: f.u64("index_pos")?,
        conn_count: f.u32("conn_count")?,
        chunk_count: f.u32("chunk_count")?,
        records_start: record.end(),
    })
}

/// Where the closing index lies in a file of `len` bytes: from where the
/// header puts it to the end.
fn index_range(header: &BagHeader, len: u64) -> Result<std::ops::Range<u64>> {
    if header.index_pos == 0 {
        return Err(Error::MissingIndex {
            reason: "the bag header says no index was written".into(),
        });
    }
    if header.index_pos < header.records_start || header.index_pos > len {
        return Err(Error::MissingIndex {
            reason: format!(
                "the bag header puts the index at byte {} but the file has {len} bytes",
                header.index_pos
            ),
        });
    }
    Ok(header.index_pos..len)
}

/// Whether `entry`'s time lies in the time span the closing index gives
/// its chunk.
fn within_span(chunk: &Chunk, entry: &IndexEntry) -> bool {
    (chunk.info.start_time..=chunk.info.end_time).contains(&entry.time)
}

/// The first read of a remote bag's index reaches this far past its
/// start at most (or to the end of the file): all of the index of a
/// recording of a few GB.
const INDEX_FIRST_BYTES: u64 = 16 << 20;

/// A remote bag's closing index at `index` (to the end of the file), read
/// in growing steps until it holds the records the header counts: bytes
/// after it (a file padded with zeros, a size the server got wrong) are
/// not read. With it, the bytes before it: the last chunk's index data
/// records, which `info` reads for the time span.
fn read_remote_index(
    remote: &RemoteFile,
    header: &BagHeader,
    index: std::ops::Range<u64>,
) -> Result<(Vec<Connection>, Vec<ChunkInfo>)> {
    let lead = index.start.saturating_sub(INDEX_LEAD_BYTES);
    let most = crate::storage::remote::MAX_READ_BYTES;
    let mut read = bytes::BytesMut::new();
    let mut end = lead;
    let mut step = INDEX_FIRST_BYTES;
    loop {
        let next = (index.start + step).min(index.end);
        read.extend_from_slice(&remote.read(end..next)?);
        end = next;
        let tail = &read[((index.start - lead) as usize).min(read.len())..];
        match read_index(tail, index.start, header) {
            Err(Error::MissingIndex { .. }) if end < index.end && step < most => step *= 4,
            Err(Error::MissingIndex { reason }) if end < index.end => {
                return Err(Error::MissingIndex {
                    reason: format!(
                        "{reason} in its first {} MB, as far as it is read by URL",
                        most >> 20
                    ),
                })
            }
            read => return read,
        }
    }
}

/// Read the closing index, `tail`, the file's bytes from `base` (the
/// header's index position) to its end: connection and chunk info records.
fn read_index(
    tail: &[u8],
    base: u64,
    header: &BagHeader,
) -> Result<(Vec<Connection>, Vec<ChunkInfo>)> {
    let mut connections = Vec::new();
    let mut chunks = Vec::new();
    let mut pos = 0;
    // What follows the records the header counts is not the index (as
    // ROS and librealsense read it): trailing bytes are left alone.
    let complete = |connections: &Vec<Connection>, chunks: &Vec<ChunkInfo>| {
        connections.len() == header.conn_count as usize
            && chunks.len() == header.chunk_count as usize
    };
    while pos < tail.len() && !complete(&connections, &chunks) {
        let record = read_record(tail, pos, base).map_err(|e| match e {
            RecordError::Truncated { offset } => Error::MissingIndex {
                reason: format!("the index is cut off at byte {offset}"),
            },
            RecordError::Corrupt(e) => e,
        })?;
        match record.op {
            op::CONNECTION => connections.push(Connection::parse(&record)?),
            op::CHUNK_INFO => {
                let info = ChunkInfo::parse(&record)?;
                if info.chunk_pos < header.records_start || info.chunk_pos >= header.index_pos {
                    return Err(record.corrupt(format!(
                        "chunk position {} lies outside the chunk section",
                        info.chunk_pos
                    )));
                }
                chunks.push(info);
            }
            _ => {
                return Err(record.corrupt(format!(
                    "unexpected {} record in the index section",
                    record.name()
                )))
            }
        }
        pos = (record.end() - base) as usize;
    }
    if !complete(&connections, &chunks) {
        return Err(Error::MissingIndex {
            reason: format!(
                "the header lists {} connections and {} chunks, the index has {} and {}",
                header.conn_count,
                header.chunk_count,
                connections.len(),
                chunks.len()
            ),
        });
    }
    Ok((connections, chunks))
}

/// A message query: which connections, which time range.
#[derive(Debug, Clone)]
pub struct Query<'b> {
    bag: &'b Bag,
    connections: Option<BTreeSet<u32>>,
    start: Bound<u64>,
    end: Bound<u64>,
    /// Read for random access: see [`Query::random_access`].
    random_access: bool,
    /// The threads to decompress ahead on, shared with other readers: see
    /// [`Query::decompressors`]; threads of its own when `None`.
    decompressors: Option<Decompressors>,
}

impl<'b> Query<'b> {
    /// Only messages on these topics (all connections on each).
    pub fn topics<S: AsRef<str>>(self, topics: impl IntoIterator<Item = S>) -> Self {
        let ids: Vec<u32> = topics
            .into_iter()
            .flat_map(|t| {
                let t = t.as_ref().to_owned();
                self.bag
                    .connections
                    .iter()
                    .filter(move |c| c.topic == t)
                    .map(|c| c.id)
            })
            .collect();
        self.connections(ids)
    }

    /// Only messages on these connection ids.
    pub fn connections(mut self, ids: impl IntoIterator<Item = u32>) -> Self {
        let ids: BTreeSet<u32> = ids.into_iter().collect();
        self.connections = Some(match self.connections {
            Some(existing) => existing.intersection(&ids).copied().collect(),
            None => ids,
        });
        self
    }

    /// Only messages whose time (ns) lies in `range`.
    pub fn time(mut self, range: impl RangeBounds<u64>) -> Self {
        self.start = range.start_bound().cloned();
        self.end = range.end_bound().cloned();
        self
    }

    /// Read the few messages of a random access (a frame fetched by index
    /// or time, then likely its neighbours): compressed chunks come from
    /// and go to the bag's small cache of the chunks decompressed last
    /// ([`RECENT_CHUNKS`]), and no chunk is decompressed ahead on other
    /// threads. Reading in order does without: it decompresses each chunk
    /// once anyway, ahead, into reused buffers.
    pub(crate) fn random_access(mut self) -> Self {
        self.random_access = true;
        self
    }

    /// Decompress ahead on the threads of `decompressors`, shared with
    /// the other readers that read at the same time (the files of a
    /// session), rather than on threads of this query's own.
    pub(crate) fn decompressors(mut self, decompressors: Decompressors) -> Self {
        self.decompressors = Some(decompressors);
        self
    }

    fn wants_time(&self, t: u64) -> bool {
        (self.start, self.end).contains(&t)
    }

    fn wants_chunk(&self, info: &ChunkInfo) -> bool {
        let ends_after_start = match self.start {
            Bound::Included(a) => info.end_time >= a,
            Bound::Excluded(a) => info.end_time > a,
            Bound::Unbounded => true,
        };
        let starts_before_end = match self.end {
            Bound::Included(b) => info.start_time <= b,
            Bound::Excluded(b) => info.start_time < b,
            Bound::Unbounded => true,
        };
        let has_connection = match &self.connections {
            None => true,
            Some(ids) => info
                .connection_counts
                .iter()
                .any(|(id, n)| *n > 0 && ids.contains(id)),
        };
        ends_after_start && starts_before_end && has_connection
    }

    /// The messages, in time order (ties in the order they were written).
    pub fn messages(mut self) -> Messages<'b> {
        // The chunks that start before the range ends and, of those, the
        // ones from the first that may end in it: a frame fetched from a
        // long recording looks at a few chunks, not at all of them.
        let bag = self.bag;
        let first = match self.start {
            Bound::Included(a) => bag.ends_by.partition_point(|&end| end < a),
            Bound::Excluded(a) => bag.ends_by.partition_point(|&end| end <= a),
            Bound::Unbounded => 0,
        };
        let last = match self.end {
            Bound::Included(b) => bag.chunks.partition_point(|c| c.info.start_time <= b),
            Bound::Excluded(b) => bag.chunks.partition_point(|c| c.info.start_time < b),
            Bound::Unbounded => bag.chunks.len(),
        };
        let chunks = bag.chunks[first.min(last)..last]
            .iter()
            .filter(|c| self.wants_chunk(&c.info))
            .collect();
        let decompressors = self.decompressors.take().unwrap_or_default();
        Messages {
            query: self,
            pending: chunks,
            next_pending: 0,
            prefetch: VecDeque::new(),
            prefetch_next: 0,
            decompressors,
            read_ahead: VecDeque::new(),
            read_ahead_bytes: 0,
            read_ahead_window: READ_AHEAD_FIRST_BYTES,
            buffers: BufferPool::default(),
            open: Vec::new(),
            spare_entries: Vec::new(),
            heap: BinaryHeap::new(),
        }
    }
}

/// How many decompressed chunks a bag keeps for random access at most
/// ([`Query::random_access`]): frames fetched one by one near each other
/// (a stream's frames by index, a scrubber, a bisection's last steps) come
/// from the same few chunks, and each would otherwise decompress its whole
/// chunk again. A few rather than one, for streams whose frames alternate
/// between chunks, as when chunks overlap in time.
const RECENT_CHUNKS: usize = 4;

/// ... holding this many decompressed bytes at most; a larger chunk is not
/// kept.
const RECENT_CHUNK_BYTES: usize = 64 << 20;

/// The chunks random access decompressed last, most recently used last:
/// a small LRU keyed by the chunk's position in the file, bounded by
/// [`RECENT_CHUNKS`] and [`RECENT_CHUNK_BYTES`]. Its lock is held only to
/// look up or insert (a few entries), never while decompressing.
#[derive(Default)]
struct RecentChunks {
    chunks: parking_lot::Mutex<RecentState>,
}

#[derive(Default)]
struct RecentState {
    /// (chunk position, data), the most recently used last.
    kept: VecDeque<(u64, Bytes)>,
    /// The buffer of a chunk let go that nothing referenced any more, to
    /// decompress the next one into: reusing it spares the allocator and
    /// the kernel a fresh, zeroed buffer per chunk.
    spare: Option<BytesMut>,
}

impl RecentChunks {
    /// Whether the chunk at `pos` is kept.
    fn contains(&self, pos: u64) -> bool {
        self.chunks.lock().kept.iter().any(|(p, _)| *p == pos)
    }

    /// The data of the chunk at `pos`, if kept; it becomes the most
    /// recently used.
    fn get(&self, pos: u64) -> Option<Bytes> {
        let chunks = &mut self.chunks.lock().kept;
        let at = chunks.iter().position(|(p, _)| *p == pos)?;
        let entry = chunks.remove(at)?;
        let data = entry.1.clone();
        chunks.push_back(entry);
        Some(data)
    }

    /// A buffer to decompress a chunk into: the spare one if there is one.
    fn take_spare(&self) -> BytesMut {
        self.chunks.lock().spare.take().unwrap_or_default()
    }

    /// Keep the data of the chunk at `pos`, letting the least recently used
    /// go beyond the bounds.
    fn insert(&self, pos: u64, data: Bytes) {
        if data.len() > RECENT_CHUNK_BYTES {
            return;
        }
        let mut state = self.chunks.lock();
        let RecentState { kept, spare } = &mut *state;
        kept.retain(|(p, _)| *p != pos);
        kept.push_back((pos, data));
        let mut bytes: usize = kept.iter().map(|(_, d)| d.len()).sum();
        while kept.len() > RECENT_CHUNKS || bytes > RECENT_CHUNK_BYTES {
            let Some((_, old)) = kept.pop_front() else {
                break;
            };
            bytes -= old.len();
            // Frames handed out may still hold it: then it is theirs.
            if let Ok(buffer) = old.try_into_mut() {
                *spare = Some(buffer);
            }
        }
    }

    /// (chunks kept, their bytes).
    fn held(&self) -> (usize, usize) {
        let state = self.chunks.lock();
        let kept = &state.kept;
        let spare = state.spare.as_ref().map_or(0, |b| b.capacity());
        (
            kept.len(),
            kept.iter().map(|(_, d)| d.len()).sum::<usize>() + spare,
        )
    }
}

impl std::fmt::Debug for RecentChunks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (chunks, bytes) = self.held();
        f.debug_struct("RecentChunks")
            .field("chunks", &chunks)
            .field("bytes", &bytes)
            .finish()
    }
}

/// Compressed chunks smaller than this are decompressed when needed
/// rather than ahead on another thread.
const PREFETCH_MIN_BYTES: usize = 256 << 10;

/// How far ahead (bytes of chunks) the kernel is asked to read the file
/// while messages are read in order (the map is read at random otherwise):
/// from the first window, doubling with each chunk opened up to the last,
/// so that a seek, which reads a chunk or two, does not pay for 32 MB.
const READ_AHEAD_FIRST_BYTES: usize = 4 << 20;
const READ_AHEAD_BYTES: usize = 32 << 20;

/// How many bytes of chunks are decompressed ahead at most, beyond the
/// first (so that a file of huge chunks does not hold several at once).
const PREFETCH_MAX_BYTES: usize = 64 << 20;

/// A chunk being decompressed ahead of need.
struct Prefetch {
    /// The chunk's index in [`Messages::pending`].
    index: usize,
    chunk_pos: u64,
    /// Its uncompressed size.
    size: usize,
    result: crossbeam_channel::Receiver<Result<Bytes>>,
}

/// A chunk being read by [`Messages`].
struct OpenChunk {
    pos: u64,
    data: Bytes,
    /// Whether `data` was decompressed (rather than borrowed from the file),
    /// so that its buffer can be reused.
    decompressed: bool,
    entries: Vec<IndexEntry>,
    next: usize,
}

/// Iterator over the messages of a [`Query`], merging chunks by time.
///
/// Chunks are opened (and decompressed) only when the merge reaches their
/// start time, so at most the chunks that overlap in time are held at once.
pub struct Messages<'b> {
    query: Query<'b>,
    pending: Vec<&'b Chunk>,
    next_pending: usize,
    /// The next compressed chunks, being decompressed while the current one
    /// is read, in file order.
    prefetch: VecDeque<Prefetch>,
    /// The index in `pending` of the next chunk to consider for prefetch.
    prefetch_next: usize,
    decompressors: Decompressors,
    /// The pending chunks the kernel was asked to read ahead, (index in
    /// `pending`, bytes), and their total.
    read_ahead: VecDeque<(usize, usize)>,
    read_ahead_bytes: usize,
    /// How far ahead to read now.
    read_ahead_window: usize,
    buffers: BufferPool,

    open: Vec<Option<OpenChunk>>,
    /// The entry lists of chunks finished, for chunks opened next.
    spare_entries: Vec<Vec<IndexEntry>>,
    /// (time, chunk position, open chunk slot) of each open chunk's next
    /// entry: equal times come out in the order they were written.
    heap: BinaryHeap<Reverse<(u64, u64, usize)>>,
}

impl<'b> Messages<'b> {
    /// Open every pending chunk that starts no later than the earliest
    /// message of the open ones.
    fn open_due_chunks(&mut self) -> Result<()> {
        while let Some(chunk) = self.pending.get(self.next_pending) {
            let due = match self.heap.peek() {
                None => true,
                Some(Reverse((t, _, _))) => chunk.info.start_time <= *t,
            };
            if !due {
                break;
            }
            self.next_pending += 1;
            self.open_chunk(chunk)?;
        }
        Ok(())
    }

    fn open_chunk(&mut self, chunk: &'b Chunk) -> Result<()> {
        let bag = self.query.bag;
        // Its messages are read next: all of a remote chunk is fetched,
        // its index data records with it, and the chunks ahead with it.
        if bag.remote.is_some() {
            self.read_ahead(Some(chunk));
        }
        let mut entries = self.spare_entries.pop().unwrap_or_default();
        let ids = self.query.connections.as_ref();
        let wanted = |conn: u32| ids.is_none_or(|ids| ids.contains(&conn));
        if self.query.random_access {
            // Kept: reading at random comes back to the same chunks.
            bag.chunk_entries(chunk)?;
        }
        bag.chunk_entries_once(chunk, wanted, &mut entries)?;
        entries.retain(|e| self.query.wants_time(e.time));
        if entries.is_empty() {
            self.spare_entries.push(entries);
            return Ok(());
        }
        let (data, decompressed) = self.load(chunk)?;
        self.read_ahead(None);
        if !self.query.random_access {
            self.start_prefetch();
        }
        let first_time = entries[0].time;
        let open = OpenChunk {
            pos: chunk.info.chunk_pos,
            data,
            decompressed,
            entries,
            next: 0,
        };
        // A finished chunk's slot is reused: as few slots as chunks open.
        let slot = crate::slots::fill_free(&mut self.open, open);
        self.heap
            .push(Reverse((first_time, chunk.info.chunk_pos, slot)));
        Ok(())
    }

    /// The data of `chunk`, from the prefetch if it is this chunk's, and
    /// whether it was decompressed.
    fn load(&mut self, chunk: &Chunk) -> Result<(Bytes, bool)> {
        if self.query.random_access {
            // Shared with the cache: not a buffer to reuse.
            return self
                .query
                .bag
                .recent_chunk_data(chunk)
                .map(|data| (data, false));
        }
        // Prefetches of chunks before this one (skipped: nothing wanted in
        // them) finish on their own and are dropped.
        let index = self.next_pending - 1;
        while let Some(p) = self.prefetch.pop_front() {
            if p.index == index {
                let data = p.result.recv().unwrap_or_else(|_| {
                    Err(Error::corrupt(
                        "chunk",
                        p.chunk_pos,
                        "the decompression thread panicked",
                    ))
                });
                return data.map(|data| (data, true));
            }
            if p.index > index {
                self.prefetch.push_front(p);
                break;
            }
        }
        // A chunk a random access decompressed already (a session's
        // opening reads each stream's first and last frames) is not
        // decompressed again.
        if let Some(data) = self.query.bag.recent.get(chunk.info.chunk_pos) {
            return Ok((data, false));
        }
        // The chunks after the first were asked for as they came into the
        // read-ahead window, which still holds them.
        let read_ahead = self.read_ahead.iter().any(|&(i, _)| i == index);
        let mut decompressed = false;
        let buffers = &mut self.buffers;
        let data = self.query.bag.chunk_data_in(chunk, read_ahead, |size| {
            decompressed = true;
            buffers.take(size)
        })?;
        Ok((data, decompressed))
    }

    /// Have the kernel (or a remote bag) read the next pending chunks, up
    /// to the window ahead, and the `current` chunk, if one is given, with
    /// them.
    fn read_ahead(&mut self, current: Option<&'b Chunk>) {
        while let Some(&(index, bytes)) = self.read_ahead.front() {
            if index >= self.next_pending {
                break;
            }
            self.read_ahead.pop_front();
            self.read_ahead_bytes -= bytes;
        }
        let mut next = self
            .read_ahead
            .back()
            .map_or(self.next_pending, |&(i, _)| i + 1);
        let mut ahead: Vec<&Chunk> = current.into_iter().collect();
        while self.read_ahead_bytes < self.read_ahead_window {
            let Some(chunk) = self.pending.get(next) else {
                break;
            };
            let bytes = self.query.bag.read_ahead(chunk);
            self.read_ahead.push_back((next, bytes));
            self.read_ahead_bytes += bytes;
            ahead.push(chunk);
            next += 1;
        }
        self.query.bag.will_read_all(&ahead);
        self.read_ahead_window = (self.read_ahead_window * 2).min(READ_AHEAD_BYTES);
    }

    /// Start decompressing the next few pending chunks on other threads.
    fn start_prefetch(&mut self) {
        let window_end = (self.next_pending + PREFETCH_DEPTH).min(self.pending.len());
        self.prefetch_next = self.prefetch_next.max(self.next_pending);
        let mut ahead: usize = self.prefetch.iter().map(|p| p.size).sum();
        while self.prefetch_next < window_end {
            let next = self.pending[self.prefetch_next];
            let kept = self.query.bag.recent.contains(next.info.chunk_pos);
            // A chunk whose header cannot be read is reported when it is opened.
            if let (false, Ok(Some(job))) = (kept, self.query.bag.chunk_decompressor(next)) {
                let size = job.size as usize;
                if !self.prefetch.is_empty() && ahead + size > PREFETCH_MAX_BYTES {
                    return;
                }
                let buffer = self.buffers.take(size);
                let Some(result) = self.decompressors.submit(job, buffer) else {
                    return;
                };
                self.prefetch.push_back(Prefetch {
                    index: self.prefetch_next,
                    chunk_pos: next.info.chunk_pos,
                    size,
                    result,
                });
                ahead += size;
            }
            self.prefetch_next += 1;
        }
    }

    fn next_message(&mut self) -> Result<Option<Message>> {
        self.open_due_chunks()?;
        let Some(Reverse((_, _, slot))) = self.heap.pop() else {
            return Ok(None);
        };
        let Some(chunk) = self.open[slot].as_mut() else {
            return Ok(None);
        };
        let entry = chunk.entries[chunk.next];
        chunk.next += 1;
        let message = read_message(&chunk.data, entry);
        match chunk.entries.get(chunk.next) {
            Some(next) => self.heap.push(Reverse((next.time, chunk.pos, slot))),
            None => {
                if let Some(done) = self.open[slot].take() {
                    if done.decompressed {
                        self.buffers.retire(done.data);
                    }
                    self.spare_entries.push(done.entries);
                }
            }
        }
        message.map(Some)
    }
}

/// A part that cannot be read (a chunk that does not decompress, a broken
/// record, an index entry that points nowhere) is yielded as one error, and
/// the iteration goes on with the next readable part: a damaged chunk costs
/// its own messages, not the rest of the file.
impl Iterator for Messages<'_> {
    type Item = Result<Message>;

    fn next(&mut self) -> Option<Self::Item> {
        let bag = self.query.bag;
        (self.next_message())
            .map_err(|e| bag.damage_or_change(e))
            .transpose()
    }
}

/// The message data record an index entry points to, inside chunk data.
fn read_message(chunk: &Bytes, entry: IndexEntry) -> Result<Message> {
    let record = read_record(chunk, entry.offset as usize, 0).map_err(|e| {
        Error::corrupt(
            "index data",
            u64::from(entry.offset),
            format!(
                "entry does not point to a whole record in its chunk: {}",
                e.into_error()
            ),
        )
    })?;
    if record.op != op::MESSAGE_DATA {
        return Err(record.corrupt(format!(
            "the index points to a {} record, not message data",
            record.name()
        )));
    }
    let conn = FieldReader::new(&record).u32("conn")?;
    if conn != entry.conn {
        return Err(record.corrupt(format!(
            "message is on connection {conn}, the index says {}",
            entry.conn
        )));
    }
    Ok(Message {
        conn,
        time: entry.time,
        data: chunk.slice(record.data_offset as usize..record.end() as usize),
    })
}

impl std::fmt::Debug for Messages<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Messages")
            .field("pending_chunks", &(self.pending.len() - self.next_pending))
            .field("open_chunks", &self.open.iter().flatten().count())
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunk(len: usize) -> Bytes {
        Bytes::from(vec![0u8; len])
    }

    fn kept(recent: &RecentChunks) -> Vec<u64> {
        recent.chunks.lock().kept.iter().map(|(p, _)| *p).collect()
    }

    /// Each message as (connection, time, data).
    fn read_all(messages: Messages<'_>) -> Vec<(u32, u64, Bytes)> {
        (messages.map(|m| m.expect("readable")))
            .map(|m| (m.conn, m.time, m.data))
            .collect()
    }

    #[test]
    fn reading_in_order_keeps_no_chunk_entries_and_reading_at_random_does() {
        let bag = Bag::open("sample_bags/rsbag-synthetic-lz4.bag").expect("opens");
        assert!(bag.chunks().len() > 1, "the sample has several chunks");
        let in_order = read_all(bag.messages());
        let counted: u64 = bag.chunks().iter().map(|c| c.info.message_count()).sum();
        assert_eq!(in_order.len() as u64, counted);
        assert!(bag.chunks().iter().all(|c| c.entries.get().is_none()));

        let at_random = read_all(bag.query().random_access().messages());
        assert!(at_random == in_order, "the same messages either way");
        assert!(bag.chunks().iter().all(|c| c.entries.get().is_some()));
        // Kept entries serve readers in order too, the same messages.
        assert!(read_all(bag.messages()) == in_order);
    }

    #[test]
    fn some_connections_read_are_theirs_of_all_messages_in_order_and_at_random() {
        let bag = Bag::open("sample_bags/rsbag-synthetic-lz4.bag").expect("opens");
        let all = read_all(bag.messages());
        let some: Vec<u32> = (bag.connections().iter().map(|c| c.id))
            .filter(|id| id % 3 == 0)
            .collect();
        let theirs: Vec<_> = (all.iter().filter(|m| some.contains(&m.0)))
            .cloned()
            .collect();
        assert!(!theirs.is_empty() && theirs.len() < all.len());
        let query = || bag.query().connections(some.clone());
        assert!(read_all(query().messages()) == theirs, "in order");
        assert!(
            read_all(query().random_access().messages()) == theirs,
            "at random"
        );
        // And in order again, from the entries kept.
        assert!(read_all(query().messages()) == theirs, "in order, kept");
    }

    #[test]
    fn recent_chunks_keep_the_last_used_within_their_bounds() {
        let recent = RecentChunks::default();
        for pos in 0..RECENT_CHUNKS as u64 {
            recent.insert(pos, chunk(100));
        }
        assert_eq!(recent.get(0).map(|d| d.len()), Some(100));
        assert!(recent.get(99).is_none());
        // The least recently used (1, since 0 was just used) goes first.
        recent.insert(10, chunk(100));
        assert_eq!(kept(&recent), [2, 3, 0, 10]);
        // Inserting a kept chunk again does not keep it twice.
        recent.insert(2, chunk(100));
        assert_eq!(kept(&recent), [3, 0, 10, 2]);
        assert_eq!(recent.held(), (RECENT_CHUNKS, 400 + 100));

        // A chunk over the byte bound is not kept; large ones push out
        // the others until the bound holds.
        recent.insert(20, chunk(RECENT_CHUNK_BYTES + 1));
        assert!(recent.get(20).is_none());
        recent.insert(21, chunk(RECENT_CHUNK_BYTES / 2));
        recent.insert(22, chunk(RECENT_CHUNK_BYTES / 2));
        assert_eq!(kept(&recent), [21, 22]);
    }

    #[test]
    fn a_chunk_let_go_is_reused_only_once_nothing_holds_it() {
        let recent = RecentChunks::default();
        let held = chunk(1000);
        recent.insert(0, held.clone());
        for pos in 1..=RECENT_CHUNKS as u64 {
            recent.insert(pos, chunk(10));
        }
        // Chunk 0 was let go while a frame still held it: not a spare.
        assert_eq!(kept(&recent), [1, 2, 3, 4]);
        assert_eq!(recent.take_spare().capacity(), 0);
        assert_eq!(held.len(), 1000);
        // Chunk 1, held by nothing else, is.
        recent.insert(5, chunk(10));
        assert!(recent.take_spare().capacity() >= 10);
        assert_eq!(recent.take_spare().capacity(), 0);
    }
}
