//! Rewriting a bag: chosen messages of one bag copied into a new one.
//!
//! Copying messages in time order through a [`BagWriter`] re-chunks and
//! re-indexes them, which is all that reindexing, trimming and
//! (de)compressing a bag take: the writer lays out fresh chunks, index data
//! records and the closing index whatever the source looked like.

use std::collections::{BTreeMap, HashMap};
use std::io::{Seek, Write};
use std::iter::Peekable;
use std::ops::Range;

use super::{Bag, BagWriter, Messages};
use crate::storage::{Connection, Message};
use crate::Result;

/// What [`copy_messages`] copied.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CopyStats {
    /// Messages written.
    pub messages: u64,
    /// Bytes of message data written.
    pub bytes: u64,
}

/// Copy messages of `bag` into `out`, in time order (ties in the order
/// they were written).
///
/// `select` is asked once per connection of `bag`: `None` drops its
/// messages, `Some(range)` keeps those whose time (ns) lies in `range`
/// (`0..u64::MAX` keeps them all). A connection is added to `out` with its
/// topic, type, md5sum, definition, caller id and latching flag when its
/// first message is copied, so `out` holds no connection without messages.
/// Messages that share a time are kept in one chunk (a RealSense frame and
/// its metadata stay together). `progress` sees each copied message.
///
/// Chunks are read only where they hold messages of a selected connection
/// in its range: a short range of frames out of a long recording reads
/// only the chunks of that range (and those of the connections kept whole).
///
/// # Example
/// ```
/// use rsbag::storage::bag::{copy_messages, Bag, BagWriter, WriterOptions};
/// use rsbag::storage::Connection;
/// # fn main() -> rsbag::Result<()> {
/// let mut source = BagWriter::new(std::io::Cursor::new(Vec::new()), WriterOptions::default())?;
/// let conn = source.add_connection(Connection::ros1(
///     "/counter", "std_msgs/UInt32", "304a39449588c7f8ce2df6e8001c5fce", "uint32 data\n"));
/// for time in [10u64, 20, 30] {
///     source.write(conn, time, &(time as u32).to_le_bytes())?;
/// }
/// let source = Bag::from_bytes(source.finish()?.into_inner())?;
///
/// let mut out = BagWriter::new(std::io::Cursor::new(Vec::new()), WriterOptions::default())?;
/// let stats = copy_messages(&source, &mut out, |_| Some(15..u64::MAX), |_| {})?;
/// assert_eq!(stats.messages, 2);
/// let copy = Bag::from_bytes(out.finish()?.into_inner())?;
/// assert_eq!(copy.start_time(), 20);
/// # Ok(()) }
/// ```
pub fn copy_messages<W: Write + Seek>(
    bag: &Bag,
    out: &mut BagWriter<W>,
    mut select: impl FnMut(&Connection) -> Option<Range<u64>>,
    mut progress: impl FnMut(&Message),
) -> Result<CopyStats> {
    // One query per distinct range, so that each reads only the chunks
    // its range needs (trimming a minute out of an hour must not read the
    // hour), merged back into time order.
    let mut by_range: BTreeMap<(u64, u64), Vec<u32>> = BTreeMap::new();
    for conn in bag.connections() {
        if let Some(range) = select(conn).filter(|r| !r.is_empty()) {
            by_range
                .entry((range.start, range.end))
                .or_default()
                .push(conn.id);
        }
    }
    let mut sources: Vec<Peekable<Messages<'_>>> = by_range
        .into_iter()
        .map(|((start, end), ids)| {
            bag.query()
                .connections(ids)
                .time(start..end)
                .messages()
                .peekable()
        })
        .collect();
    let mut ids: HashMap<u32, u32> = HashMap::new();
    let mut stats = CopyStats::default();
    let mut group_time = None;
    // Errors of reading name the bag's file; errors of writing are the
    // caller's to place.
    let read_error = |e: crate::Error| match bag.path() {
        Some(path) => e.in_file(path),
        None => e,
    };
    while let Some(message) = next_in_time(&mut sources) {
        let message = message.map_err(read_error)?;
        let Some(conn) = bag.connection(message.conn) else {
            continue;
        };
        if group_time != Some(message.time) {
            // A new time: the previous group may end its chunk.
            out.hold_chunk(false)?;
            out.hold_chunk(true)?;
            group_time = Some(message.time);
        }
        let id = *ids
            .entry(message.conn)
            .or_insert_with(|| out.add_connection(conn.clone()));
        out.write(id, message.time, &message.data)?;
        stats.messages += 1;
        stats.bytes += message.data.len() as u64;
        progress(&message);
    }
    out.hold_chunk(false)?;
    Ok(stats)
}

/// The earliest next message of `sources` (ties to the first source; an
/// error comes out at once).
fn next_in_time(sources: &mut [Peekable<Messages<'_>>]) -> Option<Result<Message>> {
    let earliest = sources
        .iter_mut()
        .enumerate()
        .filter_map(|(i, s)| Some((s.peek()?.as_ref().map_or(0, |m| m.time), i)))
        .min()?;
    sources[earliest.1].next()
}

#[cfg(test)]
mod tests {
    use std::io::Cursor;

    use super::*;
    use crate::storage::bag::{Compression, WriterOptions};
    use crate::storage::ConnectionExt;

    fn source() -> Bag {
        let options = WriterOptions::default()
            .compression(Compression::None)
            .chunk_threshold(64);
        let mut w = BagWriter::new(Cursor::new(Vec::new()), options).expect("writer");
        let mut a = Connection::ros1("/a", "pkg/A", "0123456789abcdef0123456789abcdef", "x\n");
        a.ext = ConnectionExt::Ros1 {
            callerid: Some("/node".into()),
            latching: Some(true),
        };
        let a = w.add_connection(a);
        let b = w.add_connection(Connection::ros1(
            "/b",
            "pkg/B",
            "fedcba9876543210fedcba9876543210",
            "y\n",
        ));
        for t in 1..=20u64 {
            w.write(a, t * 10, &[t as u8; 40]).expect("a");
            w.write(b, t * 10, &[t as u8 + 100; 40]).expect("b");
        }
        Bag::from_bytes(w.finish().expect("finish").into_inner()).expect("source")
    }

    fn copy(bag: &Bag, select: impl FnMut(&Connection) -> Option<Range<u64>>) -> Bag {
        let options = WriterOptions::default().chunk_threshold(64);
        let mut w = BagWriter::new(Cursor::new(Vec::new()), options).expect("writer");
        copy_messages(bag, &mut w, select, |_| {}).expect("copy");
        Bag::from_bytes(w.finish().expect("finish").into_inner()).expect("copy opens")
    }

    #[test]
    fn copies_connections_and_messages_in_time_order() {
        let bag = source();
        let out = copy(&bag, |_| Some(0..u64::MAX));
        for c in out.connections() {
            let original = bag.connections_on(&c.topic).next().expect("same topic");
            assert_eq!(
                Connection {
                    id: original.id,
                    ..c.clone()
                },
                *original
            );
        }
        let read = |b: &Bag| -> Vec<(String, u64, Vec<u8>)> {
            b.messages()
                .map(|m| {
                    let m = m.expect("message");
                    let topic = b.connection(m.conn).expect("conn").topic.clone();
                    (topic, m.time, m.data.to_vec())
                })
                .collect()
        };
        assert_eq!(read(&out), read(&bag));
    }

    #[test]
    fn messages_of_one_time_share_a_chunk() {
        let out = copy(&source(), |_| Some(0..u64::MAX));
        for chunk in out.chunks() {
            // Two messages per time, each chunk closes only between times.
            assert_eq!(chunk.info.message_count() % 2, 0);
        }
    }

    #[test]
    fn drops_connections_and_times_outside_the_selection() {
        let out = copy(&source(), |c| (c.topic == "/b").then_some(50..100));
        assert_eq!(out.connections().len(), 1);
        assert_eq!(out.connections()[0].topic, "/b");
        let times: Vec<u64> = out.messages().map(|m| m.expect("m").time).collect();
        assert_eq!(times, [50, 60, 70, 80, 90]);
        let none = copy(&source(), |_| None);
        assert_eq!(none.total_message_count(), 0);
    }

    #[test]
    fn ranges_per_connection_merge_back_into_time_order() {
        let out = copy(&source(), |c| {
            Some(if c.topic == "/a" {
                0..u64::MAX
            } else {
                50..100
            })
        });
        let got: Vec<(String, u64)> = out
            .messages()
            .map(|m| {
                let m = m.expect("message");
                (out.connection(m.conn).expect("conn").topic.clone(), m.time)
            })
            .collect();
        assert!(got.windows(2).all(|w| w[0].1 <= w[1].1), "{got:?}");
        assert_eq!(got.iter().filter(|(t, _)| t == "/a").count(), 20);
        let b: Vec<u64> = got.iter().filter(|(t, _)| t == "/b").map(|m| m.1).collect();
        assert_eq!(b, [50, 60, 70, 80, 90]);
    }
}
