//! The bag reader: a memory-mapped file, its connections and chunks, and
//! time-ordered message queries through the index.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use bytes::{Bytes, BytesMut};

use super::compression::Compression;
use super::index::{parse_index_data, Chunk, ChunkInfo, IndexEntry};
use super::recent_chunks::RecentChunks;
use super::record::{
    op, read_record, read_record_head, FieldReader, RawRecord, RecordError, MAGIC,
};
use super::scan::{self, ScanReport};
use crate::storage::compression::pool::Decompression;
use crate::storage::connection::position_of;
use crate::storage::file::{map_file, MappedFile, MappedRange, RELEASE_MIN_BYTES};
use crate::storage::remote::{is_url, RemoteFile};
use crate::storage::Connection;
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
    pub(super) remote: Option<Arc<RemoteFile>>,
    /// Every chunk's position, in file order: a chunk's record and its
    /// index data records lie between its position and the next.
    positions: Vec<u64>,
    /// For a remote bag: the chunk before which the index data records
    /// of the chunks were last fetched ahead ([`Bag::will_read_entries`]).
    entries_ahead: std::sync::atomic::AtomicUsize,
    path: Option<PathBuf>,
    header: BagHeader,
    connections: Vec<Connection>,
    pub(super) chunks: Vec<Chunk>,
    /// For each chunk of `chunks`, the latest end time of it and of the
    /// chunks before it: never decreasing, so that the chunks a time range
    /// needs are found by bisection rather than by a look at every chunk.
    pub(super) ends_by: Vec<u64>,
    scan_report: Option<ScanReport>,
    /// Chunks whose index data records were damaged, their entries read
    /// from the chunks' own records instead.
    repairs: ChunkRepairs,
    /// The chunks random access decompressed last.
    pub(super) recent: RecentChunks,
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
            // An unusable index may be another version's, read after the
            // header.
            Err(e) => match remote.unpinned_change() {
                Some(changed) => Err(changed),
                None if or_scan => {
                    let bag = Bag::scan_remote(&remote)?;
                    warn_scanned(&bag, &path, e);
                    Ok(bag)
                }
                None => Err(e.in_file(&path)),
            },
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
        let bag = Bag::from_scan(data, Some(path.clone())).map_err(|e| e.in_file(&path))?;
        // Records cut short may be a version read over another's.
        if !bag.scan_report().is_some_and(ScanReport::is_clean) {
            if let Some(changed) = remote.unpinned_change() {
                return Err(changed);
            }
        }
        Ok(bag)
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
    pub(super) fn will_read_all(&self, chunks: &[&Chunk]) {
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
        let header = read_record_head(&bytes, 0, span.start).map_err(RecordError::into_error);
        let compression = header.and_then(|(record, data_len)| {
            if record.data_offset + u64::from(data_len) > span.end {
                return Err(RecordError::Truncated {
                    offset: record.offset,
                }
                .into_error());
            }
            Ok(chunk_fields(&record)?.0)
        });
        compression.map_err(|e| self.damage_or_change(e))
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

    /// The uncompressed data of a chunk: borrowed from the file when the
    /// chunk is stored uncompressed, decompressed otherwise.
    pub fn chunk_data(&self, chunk: &Chunk) -> Result<Bytes> {
        self.chunk_data_in(chunk, false, |_| BytesMut::new())
    }

    /// [`chunk_data`](Self::chunk_data), decompressing into the buffer
    /// `buffer` gives for the uncompressed size (asked only for a
    /// compressed chunk); `read_ahead` when [`read_ahead`](Self::read_ahead)
    /// was asked for the chunk already (its pages not asked about again).
    pub(super) fn chunk_data_in(
        &self,
        chunk: &Chunk,
        read_ahead: bool,
        buffer: impl FnOnce(usize) -> BytesMut,
    ) -> Result<Bytes> {
        if let Some(recovered) = &chunk.recovered {
            return Ok(recovered.data.clone());
        }
        (self.read_chunk_data(chunk, read_ahead, buffer)).map_err(|e| self.damage_or_change(e))
    }

    /// [`chunk_data_in`](Self::chunk_data_in) of a chunk in the file.
    fn read_chunk_data(
        &self,
        chunk: &Chunk,
        read_ahead: bool,
        buffer: impl FnOnce(usize) -> BytesMut,
    ) -> Result<Bytes> {
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
    pub(super) fn recent_chunk_data(&self, chunk: &Chunk) -> Result<Bytes> {
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
    pub(super) fn chunk_decompressor(&self, chunk: &Chunk) -> Result<Option<Decompression>> {
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
    pub(super) fn read_ahead(&self, chunk: &Chunk) -> usize {
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
    pub(super) fn chunk_entries_once(
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
            Err(e) => return Err(self.damage_or_change(e)),
        };
        let Some(found) = self.entries_from_records(chunk) else {
            return Err(self.damage_or_change(damage));
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
    pub(super) fn damage_or_change(&self, error: Error) -> Error {
        match &self.remote {
            Some(remote) => remote.damage_or_change(error),
            None => error,
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

/// Compressed chunks smaller than this are decompressed when needed
/// rather than ahead on another thread.
const PREFETCH_MIN_BYTES: usize = 256 << 10;

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
