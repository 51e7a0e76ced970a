//! Chunk compression on worker threads, handed back in order.
//!
//! LZ4 (and even more bzip2) is the slowest step of writing a compressed
//! bag; compressing each chunk on its own worker lets a recording use every
//! core while the writer keeps the file's order.

use std::collections::BTreeMap;
use std::thread::JoinHandle;

use crossbeam_channel::{Receiver, Sender};

use super::compression::Compression;

/// A compressed chunk: the raw bytes (for reuse) and the packed ones.
pub(crate) struct Packed {
    pub raw: Vec<u8>,
    pub packed: Vec<u8>,
}

/// (sequence number, raw chunk, a buffer to compress into).
type Job = (u64, Vec<u8>, Vec<u8>);

/// A pool of compression workers with an ordered hand-back.
pub(crate) struct Compressor {
    jobs: Option<Sender<Job>>,
    done: Receiver<(u64, Packed)>,
    workers: Vec<JoinHandle<()>>,
    ready: BTreeMap<u64, Packed>,
    next_seq: u64,
}

impl Compressor {
    /// Start `threads` workers compressing with `compression`.
    pub(crate) fn new(compression: Compression, threads: usize) -> crate::Result<Compressor> {
        let threads = threads.max(1);
        let (jobs, queue) = crossbeam_channel::bounded::<Job>(threads);
        let (finished, done) = crossbeam_channel::unbounded();
        let workers = (0..threads)
            .map(|i| {
                let queue = queue.clone();
                let finished = finished.clone();
                std::thread::Builder::new()
                    .name(format!("rsbag-compress-{i}"))
                    .spawn(move || {
                        for (seq, raw, mut packed) in queue {
                            packed.clear();
                            // Room for incompressible data, LZ4's worst case.
                            packed.reserve(raw.len() + raw.len() / 255 + 1024);
                            compression.compress(&raw, &mut packed);
                            if finished.send((seq, Packed { raw, packed })).is_err() {
                                return;
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

    /// Queue a chunk, to be compressed into `packed` (its contents are
    /// discarded; a reused buffer spares page faults and zeroing, and one
    /// already large enough a copy when it grows); returns its sequence
    /// number.
    pub(crate) fn submit(&mut self, raw: Vec<u8>, packed: Vec<u8>) -> u64 {
        let seq = self.next_seq;
        self.next_seq += 1;
        if let Some(jobs) = &self.jobs {
            // Workers only stop when `jobs` is dropped, so this succeeds.
            let _ = jobs.send((seq, raw, packed));
        }
        seq
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
