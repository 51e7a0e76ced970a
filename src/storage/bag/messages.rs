//! Reading a [`Query`]'s messages: chunks opened when the merge by time
//! reaches them, decompressed ahead on other threads, read ahead by the
//! kernel.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};
use std::ops::Bound;

use bytes::Bytes;

use super::index::{Chunk, IndexEntry};
use super::query::Query;
use super::reader::Bag;
use super::record::{op, read_record, FieldReader};
use crate::storage::compression::pool::{BufferPool, Decompressors, PREFETCH_DEPTH};
use crate::storage::Message;
use crate::{Error, Result};

impl Bag {
    /// Every message in time order.
    pub fn messages(&self) -> Messages<'_> {
        self.query().messages()
    }
}

impl<'b> Query<'b> {
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
}
