//! The first and last message times of chosen connections, from the index.

use super::reader::{Bag, Chunk};
use crate::Result;

impl Bag {
    /// Bag times (ns) of the first and last message on `conns`, from the
    /// index entries of only the chunks that can hold them: a handful,
    /// whatever the length of the file (reading every chunk's entries of a
    /// large file not in the page cache takes seconds). `None` when no
    /// message is on them.
    ///
    /// ```
    /// use rsbag::bag::Bag;
    /// # fn main() -> rsbag::Result<()> {
    /// let bag = Bag::open("sample_bags/librealsense-depth-color-lz4.bag")?;
    /// let all: Vec<u32> = bag.connections().iter().map(|c| c.id).collect();
    /// let (first, last) = bag.time_span(&all)?.expect("messages");
    /// assert!(first <= last);
    /// # Ok(()) }
    /// ```
    pub fn time_span(&self, conns: &[u32]) -> Result<Option<(u64, u64)>> {
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
            return Ok(None);
        };
        let mut span: Option<(u64, u64)> = None;
        for chunk in holding
            .into_iter()
            .filter(|c| c.info.start_time <= first_end || c.info.end_time >= last_start)
        {
            for e in self
                .chunk_entries(chunk)?
                .iter()
                .filter(|e| conns.contains(&e.conn))
            {
                span = Some(span.map_or((e.time, e.time), |(a, b)| (a.min(e.time), b.max(e.time))));
            }
        }
        Ok(span)
    }
}
