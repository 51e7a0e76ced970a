//! Per-sensor delivery: an invoke queue and a thread that hands frames to
//! the user's callback, so a slow callback holds up only its own sensor.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::{JoinHandle, ThreadId};
use std::time::Duration;

use crossbeam_channel::{Receiver, SendTimeoutError, Sender};

use crate::device::{Frame, FrameCallback};

/// What the dispatcher thread is asked to do.
pub(crate) enum Work {
    /// Deliver a frame, unless its generation is stale.
    Frame(u64, Frame),
    /// Answer once everything before this was delivered.
    Flush(Sender<()>),
}

/// Why a frame was not queued.
pub(crate) enum Refused {
    /// The queue stayed full for the whole wait.
    Full(Box<Frame>),
    /// The dispatcher is gone.
    Closed,
}

/// The delivery thread of one started sensor.
pub(crate) struct Dispatcher {
    queue: Sender<Work>,
    thread: JoinHandle<()>,
    thread_id: ThreadId,
    alive: Arc<AtomicBool>,
}

impl Dispatcher {
    /// Start a delivery thread with room for `capacity` frames. Frames
    /// whose generation differs from `generation` when their turn comes
    /// are discarded; `may_deliver` is asked (and may wait) before each
    /// delivery, so that a paused playback holds its frames.
    pub(crate) fn start(
        name: String,
        capacity: usize,
        callback: FrameCallback,
        generation: Arc<AtomicU64>,
        may_deliver: Arc<dyn Fn(u64) -> bool + Send + Sync>,
    ) -> std::io::Result<Dispatcher> {
        let (queue, work) = crossbeam_channel::bounded(capacity.max(1));
        let alive = Arc::new(AtomicBool::new(true));
        let running = alive.clone();
        let thread = std::thread::Builder::new()
            .name(name)
            .spawn(move || deliver(work, callback, generation, running, may_deliver))?;
        Ok(Dispatcher {
            queue,
            thread_id: thread.thread().id(),
            thread,
            alive,
        })
    }

    /// Queue a frame read in seek generation `generation`, waiting at most
    /// `wait` for room.
    pub(crate) fn push(
        &self,
        frame: Frame,
        generation: u64,
        wait: Duration,
    ) -> Result<(), Refused> {
        match self
            .queue
            .send_timeout(Work::Frame(generation, frame), wait)
        {
            Ok(()) => Ok(()),
            Err(SendTimeoutError::Timeout(Work::Frame(_, frame))) => {
                Err(Refused::Full(Box::new(frame)))
            }
            Err(_) => Err(Refused::Closed),
        }
    }

    /// Wait until every frame queued so far was delivered or discarded,
    /// and the callback running (if any) returned.
    pub(crate) fn flush(&self) {
        self.flush_within(None);
    }

    /// [`flush`](Self::flush), giving up after `limit` (a callback that
    /// itself waits for another sensor must not hang both).
    pub(crate) fn flush_within(&self, limit: Option<Duration>) {
        if std::thread::current().id() == self.thread_id {
            return;
        }
        let (done, wait) = crossbeam_channel::bounded(1);
        let sent = match limit {
            Some(limit) => self.queue.send_timeout(Work::Flush(done), limit).is_ok(),
            None => self.queue.send(Work::Flush(done)).is_ok(),
        };
        if sent {
            let _ = match limit {
                Some(limit) => wait.recv_timeout(limit).map_err(|_| ()),
                None => wait.recv().map_err(|_| ()),
            };
        }
    }

    /// Stop the thread, discarding what is queued; no frame is delivered
    /// once this returns (unless it is called from the callback itself).
    pub(crate) fn stop(self) {
        let Dispatcher {
            queue,
            thread,
            thread_id,
            alive,
            ..
        } = self;
        alive.store(false, Ordering::Release);
        // With its sender gone the thread drains (discarding) and ends.
        drop(queue);
        if std::thread::current().id() != thread_id {
            let _ = thread.join();
        }
    }
}

fn deliver(
    work: Receiver<Work>,
    callback: FrameCallback,
    generation: Arc<AtomicU64>,
    alive: Arc<AtomicBool>,
    may_deliver: Arc<dyn Fn(u64) -> bool + Send + Sync>,
) {
    while let Ok(item) = work.recv() {
        match item {
            Work::Frame(frame_generation, frame) => {
                let current = || {
                    alive.load(Ordering::Acquire)
                        && frame_generation == generation.load(Ordering::Acquire)
                };
                if current() && may_deliver(frame_generation) && current() {
                    callback(frame);
                }
            }
            Work::Flush(done) => {
                let _ = done.send(());
            }
        }
    }
}
