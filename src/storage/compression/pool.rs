//! The threads that decompress a reader's chunks ahead of need, and the
//! buffers they decompress into.

use std::collections::VecDeque;
use std::sync::{Arc, OnceLock};

use bytes::{Bytes, BytesMut};

use crate::storage::bag::Compression;
use crate::Result;

/// How many chunks are decompressed ahead at most: one per core would do
/// if chunks were alike, but a large chunk next to small ones (color and
/// depth frames) leaves cores idle unless a few more are under way.
pub(crate) const PREFETCH_DEPTH: usize = 4;

/// The decompression of one chunk, ready to run on another thread: it
/// holds its own handle on the file's bytes.
pub(crate) struct Decompression {
    pub(crate) compression: Compression,
    pub(crate) payload: Bytes,
    /// The uncompressed size.
    pub(crate) size: u32,
    /// Where the chunk record starts, for errors.
    pub(crate) offset: u64,
}

impl Decompression {
    pub(crate) fn run(self, buffer: BytesMut) -> Result<Bytes> {
        (self.compression).decompress_into(&self.payload, self.size, self.offset, buffer)
    }
}

/// A decompression, the buffer for it, and where its result goes.
type DecompressionJob = (
    Decompression,
    BytesMut,
    crossbeam_channel::Sender<Result<Bytes>>,
);

/// A handle on the threads that decompress chunks ahead: one per core (at
/// most [`PREFETCH_DEPTH`]), started with the first job submitted through
/// any clone of the handle, ending when the last clone is dropped (each
/// after its job at hand). A new handle has threads of its own; clones
/// share them, so that readers reading at the same time (the files of a
/// session) do not each start a set, more threads than cores.
#[derive(Default, Clone)]
pub(crate) struct Decompressors {
    /// The queue of the threads, once started (`None` if none could be).
    jobs: Arc<OnceLock<Option<crossbeam_channel::Sender<DecompressionJob>>>>,
}

impl Decompressors {
    /// Queue `job`; `None` if no thread could be started.
    pub(crate) fn submit(
        &self,
        job: Decompression,
        buffer: BytesMut,
    ) -> Option<crossbeam_channel::Receiver<Result<Bytes>>> {
        let jobs = self.jobs.get_or_init(Self::start).as_ref()?;
        // Room for the one result: a thread never waits to hand it over,
        // and a result no one waits for any more is dropped with it.
        let (reply, result) = crossbeam_channel::bounded(1);
        jobs.send((job, buffer, reply)).ok()?;
        Some(result)
    }

    fn start() -> Option<crossbeam_channel::Sender<DecompressionJob>> {
        let threads =
            std::thread::available_parallelism().map_or(2, |n| n.get().min(PREFETCH_DEPTH));
        let (jobs, queue) = crossbeam_channel::unbounded::<DecompressionJob>();
        let mut started = 0;
        for _ in 0..threads {
            let queue = queue.clone();
            let worker = std::thread::Builder::new()
                .name("rsbag-decompress".into())
                .spawn(move || {
                    for (job, buffer, reply) in queue {
                        let _ = reply.send(job.run(buffer));
                    }
                });
            started += usize::from(worker.is_ok());
        }
        (started > 0).then_some(jobs)
    }
}

impl std::fmt::Debug for Decompressors {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let started = self.jobs.get().is_some_and(Option::is_some);
        f.debug_struct("Decompressors")
            .field("started", &started)
            .field("handles", &Arc::strong_count(&self.jobs))
            .finish()
    }
}

/// The data of chunks a reader is done with, to decompress later chunks
/// into once nothing else (a message handed out) references it: reusing a
/// buffer spares the allocator and the kernel a fresh, zeroed one per chunk.
#[derive(Default)]
pub(crate) struct BufferPool {
    retired: VecDeque<Bytes>,
    bytes: usize,
}

impl BufferPool {
    /// Buffers kept at most; beyond, the oldest are let go.
    const CAPACITY: usize = 8;
    const CAPACITY_BYTES: usize = 64 << 20;

    pub(crate) fn retire(&mut self, data: Bytes) {
        self.bytes += data.len();
        self.retired.push_back(data);
        while self.retired.len() > Self::CAPACITY || self.bytes > Self::CAPACITY_BYTES {
            let Some(old) = self.retired.pop_front() else {
                break;
            };
            self.bytes -= old.len();
        }
    }

    /// A buffer no longer referenced, one that holds `size` bytes if there
    /// is one, or a new one.
    pub(crate) fn take(&mut self, size: usize) -> BytesMut {
        let unique = |b: &Bytes| b.is_unique();
        let found = (self.retired.iter())
            .position(|b| b.len() >= size && unique(b))
            .or_else(|| self.retired.iter().position(unique));
        match found.and_then(|i| self.retired.remove(i)) {
            Some(data) => {
                self.bytes -= data.len();
                data.try_into_mut().unwrap_or_default()
            }
            None => BytesMut::new(),
        }
    }
}
