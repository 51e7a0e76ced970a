//! Chunk compression on worker threads, in batches, handed back in order.
//!
//! LZ4 (and even more bzip2) is the slowest step of writing a compressed
//! bag; compressing on workers lets a recording use every core while the
//! writer keeps the file's order. Chunks go to a worker in batches because
//! the LZ4 checksums of a batch are taken side by side
//! ([`Compression::compress_batch`]).

use std::collections::BTreeMap;
use std::thread::JoinHandle;

use bytes::Bytes;
use crossbeam_channel::{Receiver, Sender};

use super::compression::Compression;

/// The uncompressed bytes of a chunk: written in place, with shared
/// buffers (a camera frame's pixels) spliced in by reference rather than
/// copied, until the chunk is compressed and written.
#[derive(Debug, Default)]
pub(crate) struct RawChunk {
    /// Every byte that is not in a shared buffer.
    pub(crate) inline: Vec<u8>,
    /// The shared buffers in order, each with the length `inline` had when
    /// it was spliced in: it comes before the inline bytes from there on.
    shared: Vec<(usize, Bytes)>,
    shared_len: usize,
}

/// A length of a [`RawChunk`] to take it back to.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Mark {
    inline: usize,
    shared: usize,
}

impl RawChunk {
    /// The chunk's length: inline and shared bytes.
    pub(crate) fn len(&self) -> usize {
        self.inline.len() + self.shared_len
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Append `bytes` by reference.
    pub(crate) fn splice(&mut self, bytes: Bytes) {
        self.shared_len += bytes.len();
        self.shared.push((self.inline.len(), bytes));
    }

    /// The chunk as it is now, to [`rollback`](Self::rollback) to.
    pub(crate) fn mark(&self) -> Mark {
        Mark {
            inline: self.inline.len(),
            shared: self.shared.len(),
        }
    }

    /// Take back everything appended since `mark`.
    pub(crate) fn rollback(&mut self, mark: Mark) {
        self.inline.truncate(mark.inline);
        for (_, bytes) in self.shared.drain(mark.shared..) {
            self.shared_len -= bytes.len();
        }
    }

    /// The chunk's bytes in order, as slices of the inline and shared
    /// buffers.
    pub(crate) fn pieces(&self) -> Vec<&[u8]> {
        let mut pieces = Vec::with_capacity(2 * self.shared.len() + 1);
        let mut at = 0;
        for (position, bytes) in &self.shared {
            pieces.push(&self.inline[at..*position]);
            pieces.push(&bytes[..]);
            at = *position;
        }
        pieces.push(&self.inline[at..]);
        pieces.retain(|piece| !piece.is_empty());
        pieces
    }

    /// The inline buffer, to be reused; the shared buffers are let go.
    pub(crate) fn into_inline(self) -> Vec<u8> {
        self.inline
    }
}

/// A compressed chunk: the raw bytes (for reuse) and the packed ones.
pub(crate) struct Packed {
    pub raw: RawChunk,
    pub packed: Vec<u8>,
}

/// A chunk to compress: (sequence number, raw chunk, a buffer to compress
/// into).
pub(crate) type Job = (u64, RawChunk, Vec<u8>);

/// A pool of compression workers with an ordered hand-back.
pub(crate) struct Compressor {
    jobs: Option<Sender<Vec<Job>>>,
    done: Receiver<(u64, Packed)>,
    workers: Vec<JoinHandle<()>>,
    ready: BTreeMap<u64, Packed>,
    next_seq: u64,
}

impl Compressor {
    /// Start `threads` workers compressing with `compression`.
    pub(crate) fn new(compression: Compression, threads: usize) -> crate::Result<Compressor> {
        let threads = threads.max(1);
        let (jobs, queue) = crossbeam_channel::bounded::<Vec<Job>>(threads);
        let (finished, done) = crossbeam_channel::unbounded();
        let workers = (0..threads)
            .map(|i| {
                let queue = queue.clone();
                let finished = finished.clone();
                std::thread::Builder::new()
                    .name(format!("rsbag-compress-{i}"))
                    .spawn(move || {
                        for batch in queue {
                            for packed in compress(compression, batch) {
                                if finished.send(packed).is_err() {
                                    return;
                                }
                            }
                        }
                    })
            })
            .collect::<std::io::Result<Vec<_>>>()
            .map_err(|e| crate::Error::Thread(format!("cannot start a compression thread: {e}")))?;
        Ok(Compressor {
            jobs: Some(jobs),
            done,
            workers,
            ready: BTreeMap::new(),
            next_seq: 0,
        })
    }

    /// Queue a batch of chunks, each to be compressed into the buffer
    /// beside it (its contents are discarded; a reused buffer spares page
    /// faults and zeroing, and one already large enough a copy when it
    /// grows); returns the sequence number of each, in order.
    pub(crate) fn submit(&mut self, batch: Vec<(RawChunk, Vec<u8>)>) -> Vec<u64> {
        let mut seqs = Vec::with_capacity(batch.len());
        let jobs: Vec<Job> = (batch.into_iter())
            .map(|(raw, packed)| {
                let seq = self.next_seq;
                self.next_seq += 1;
                seqs.push(seq);
                (seq, raw, packed)
            })
            .collect();
        if let Some(queue) = &self.jobs {
            // Workers only stop when `jobs` is dropped, so this succeeds.
            let _ = queue.send(jobs);
        }
        seqs
    }

    /// The chunk `seq` if it is compressed, without waiting.
    pub(crate) fn try_take(&mut self, seq: u64) -> Option<Packed> {
        while let Ok((done, packed)) = self.done.try_recv() {
            self.ready.insert(done, packed);
        }
        self.ready.remove(&seq)
    }

    /// The chunk `seq`, waiting for it; `None` if the workers are gone.
    pub(crate) fn take(&mut self, seq: u64) -> Option<Packed> {
        loop {
            if let Some(packed) = self.ready.remove(&seq) {
                return Some(packed);
            }
            let (done, packed) = self.done.recv().ok()?;
            self.ready.insert(done, packed);
        }
    }
}

/// Compress a batch of chunks together.
fn compress(compression: Compression, batch: Vec<Job>) -> Vec<(u64, Packed)> {
    let mut seqs = Vec::with_capacity(batch.len());
    let mut raws = Vec::with_capacity(batch.len());
    let mut outs = Vec::with_capacity(batch.len());
    for (seq, raw, mut packed) in batch {
        packed.clear();
        // Room for incompressible data, LZ4's worst case.
        packed.reserve(raw.len() + raw.len() / 255 + 1024);
        seqs.push(seq);
        raws.push(raw);
        outs.push(packed);
    }
    let pieces: Vec<Vec<&[u8]>> = raws.iter().map(RawChunk::pieces).collect();
    let chunks: Vec<&[&[u8]]> = pieces.iter().map(|p| &p[..]).collect();
    compression.compress_batch(&chunks, &mut outs);
    (seqs.into_iter().zip(raws).zip(outs))
        .map(|((seq, raw), packed)| (seq, Packed { raw, packed }))
        .collect()
}

impl Drop for Compressor {
    fn drop(&mut self) {
        self.jobs = None;
        for worker in self.workers.drain(..) {
            let _ = worker.join();
        }
    }
}

impl std::fmt::Debug for Compressor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Compressor")
            .field("workers", &self.workers.len())
            .field("next_seq", &self.next_seq)
            .finish()
    }
}
