//! The chunks a bag's random access decompressed last, kept for the
//! frames fetched next near them.

use std::collections::VecDeque;

use bytes::{Bytes, BytesMut};

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
pub(super) struct RecentChunks {
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
    pub(super) fn contains(&self, pos: u64) -> bool {
        self.chunks.lock().kept.iter().any(|(p, _)| *p == pos)
    }

    /// The data of the chunk at `pos`, if kept; it becomes the most
    /// recently used.
    pub(super) fn get(&self, pos: u64) -> Option<Bytes> {
        let chunks = &mut self.chunks.lock().kept;
        let at = chunks.iter().position(|(p, _)| *p == pos)?;
        let entry = chunks.remove(at)?;
        let data = entry.1.clone();
        chunks.push_back(entry);
        Some(data)
    }

    /// A buffer to decompress a chunk into: the spare one if there is one.
    pub(super) fn take_spare(&self) -> BytesMut {
        self.chunks.lock().spare.take().unwrap_or_default()
    }

    /// Keep the data of the chunk at `pos`, letting the least recently used
    /// go beyond the bounds.
    pub(super) fn insert(&self, pos: u64, data: Bytes) {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn chunk(len: usize) -> Bytes {
        Bytes::from(vec![0u8; len])
    }

    fn kept(recent: &RecentChunks) -> Vec<u64> {
        recent.chunks.lock().kept.iter().map(|(p, _)| *p).collect()
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
