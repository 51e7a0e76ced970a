//! The first and last message times of chosen connections, from the index.

use super::index::Chunk;
use super::reader::Bag;

impl Bag {
    /// Bag times (ns) of the first and last message on `conns`, from the
    /// index entries of only the chunks that can hold them: a handful,
    /// whatever the length of the file (reading every chunk's entries of a
    /// large file not in the page cache takes seconds). A chunk whose
    /// entries cannot be read counts with the times its chunk info gives.
    /// `None` when no message is on them.
    ///
    /// ```
    /// use rsbag::storage::bag::Bag;
    /// # fn main() -> rsbag::Result<()> {
    /// let bag = Bag::open("sample_bags/librealsense-depth-color-lz4.bag")?;
    /// let all: Vec<u32> = bag.connections().iter().map(|c| c.id).collect();
    /// let (first, last) = bag.time_span(&all).expect("messages");
    /// assert!(first <= last);
    /// # Ok(()) }
    /// ```
    pub fn time_span(&self, conns: &[u32]) -> Option<(u64, u64)> {
        let mut span: Option<(u64, u64)> = None;
        let mut widen = |first: u64, last: u64| {
            span = Some(span.map_or((first, last), |(a, b)| (a.min(first), b.max(last))));
        };
        for chunk in self.time_span_chunks(conns) {
            match self.chunk_entries(chunk) {
                Ok(entries) => {
                    for e in entries.iter().filter(|e| conns.contains(&e.conn)) {
                        widen(e.time, e.time);
                    }
                }
                Err(_) => widen(chunk.info.start_time, chunk.info.end_time),
            }
        }
        span
    }

    /// Have a remote bag fetch, at once, the chunk indexes that
    /// [`time_span`](Self::time_span) of each of `sets` of connections
    /// reads (nothing for a local bag).
    pub(crate) fn will_read_time_spans<'c>(&self, sets: impl IntoIterator<Item = &'c [u32]>) {
        let chunks: Vec<&Chunk> = (sets.into_iter())
            .flat_map(|conns| self.time_span_chunks(conns))
            .collect();
        self.will_read_entries_of(&chunks);
    }

    /// The chunks whose index [`time_span`](Self::time_span) reads: those
    /// that may hold the first or the last message on `conns`.
    fn time_span_chunks(&self, conns: &[u32]) -> Vec<&Chunk> {
        let holding: Vec<&Chunk> = self
            .chunks()
            .iter()
            .filter(|c| {
                c.info
                    .connection_counts
                    .iter()
                    .any(|(id, n)| *n > 0 && conns.contains(id))
            })
            .collect();
        // The first message is no later than the earliest chunk end, and
        // lies in a chunk that starts no later than that; the same for the
        // last.
        let (Some(first_end), Some(last_start)) = (
            holding.iter().map(|c| c.info.end_time).min(),
            holding.iter().map(|c| c.info.start_time).max(),
        ) else {
            return Vec::new();
        };
        (holding.into_iter())
            .filter(|c| c.info.start_time <= first_end || c.info.end_time >= last_start)
            .collect()
    }
}
