//! Connection, chunk info and index data records: plain types and their
//! ROS bag encoding.

use std::sync::OnceLock;

use byteorder::{ByteOrder, LittleEndian as LE};
use bytes::Bytes;

use super::compression::Compression;

use super::record::{
    encode_record_prefix, nanos_to_time_bytes, op, time_to_nanos, FieldReader, HeaderBuilder,
    RawRecord,
};
use crate::storage::{Connection, ConnectionExt};
use crate::Result;

/// A bag's connection records: [`Connection`] in ROS bag encoding.
impl Connection {
    /// Append this connection as a record to `out`.
    pub(crate) fn encode(&self, out: &mut Vec<u8>) {
        let header = HeaderBuilder::new()
            .u32("conn", self.id)
            .op(op::CONNECTION)
            .field("topic", self.topic.as_bytes())
            .build();
        // The data is itself a header, its fields sorted by name as ROS writes them.
        let mut data = HeaderBuilder::new();
        if let ConnectionExt::Ros1 { callerid, latching } = &self.ext {
            if let Some(callerid) = callerid {
                data = data.field("callerid", callerid.as_bytes());
            }
            if let Some(latching) = latching {
                data = data.field("latching", if *latching { b"1" } else { b"0" });
            }
        }
        let data = data
            .field("md5sum", self.digest.as_bytes())
            .field("message_definition", self.message_definition.as_bytes())
            .field("type", self.msg_type.as_bytes())
            .build();
        encode_record_prefix(out, &header, data.len() as u32);
        out.extend_from_slice(&data);
    }

    /// Parse a connection record.
    pub(crate) fn parse(record: &RawRecord<'_>) -> Result<Connection> {
        let header = FieldReader::new(record);
        let id = header.u32("conn")?;
        let storage_topic = header.str("topic")?;
        let data = RawRecord {
            header: record.data,
            ..*record
        };
        let fields = FieldReader::new(&data);
        let optional_str = |name| -> Result<Option<String>> {
            Ok(match fields.get(name)? {
                Some(_) => Some(fields.str(name)?.to_owned()),
                None => None,
            })
        };
        let latching = match fields.get("latching")? {
            None => None,
            Some(b"1") => Some(true),
            Some(b"0") | Some(b"") => Some(false),
            Some(_) => return Err(record.corrupt("latching is neither 0 nor 1")),
        };
        let md5sum = fields.str("md5sum")?;
        if md5sum.len() != 32 || !md5sum.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(record.corrupt(format!("md5sum {md5sum:?} is not 32 hex digits")));
        }
        Ok(Connection {
            id,
            topic: optional_str("topic")?.unwrap_or_else(|| storage_topic.to_owned()),
            msg_type: fields.str("type")?.to_owned(),
            digest: md5sum.to_owned(),
            message_definition: fields.str("message_definition")?.to_owned(),
            ext: ConnectionExt::Ros1 {
                callerid: optional_str("callerid")?,
                latching,
            },
        })
    }
}

/// The closing index's description of one chunk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChunkInfo {
    /// Byte offset of the chunk record in the file.
    pub chunk_pos: u64,
    /// Time of the earliest message in the chunk (ns).
    pub start_time: u64,
    /// Time of the latest message in the chunk (ns).
    pub end_time: u64,
    /// Number of messages per connection id in the chunk.
    pub connection_counts: Vec<(u32, u32)>,
}

impl ChunkInfo {
    /// Total number of messages in the chunk.
    pub fn message_count(&self) -> u64 {
        self.connection_counts
            .iter()
            .map(|&(_, n)| u64::from(n))
            .sum()
    }

    /// Append this chunk info as a record to `out`.
    pub(crate) fn encode(&self, out: &mut Vec<u8>) {
        let header = HeaderBuilder::new()
            .u64("chunk_pos", self.chunk_pos)
            .u32("count", self.connection_counts.len() as u32)
            .time("end_time", self.end_time)
            .op(op::CHUNK_INFO)
            .time("start_time", self.start_time)
            .u32("ver", 1)
            .build();
        encode_record_prefix(out, &header, 8 * self.connection_counts.len() as u32);
        for &(conn, count) in &self.connection_counts {
            out.extend_from_slice(&conn.to_le_bytes());
            out.extend_from_slice(&count.to_le_bytes());
        }
    }

    /// Parse a chunk info record.
    pub(crate) fn parse(record: &RawRecord<'_>) -> Result<ChunkInfo> {
        let f = FieldReader::new(record);
        check_version(record, &f)?;
        let count = f.u32("count")? as usize;
        if record.data.len() != count.saturating_mul(8) {
            return Err(record.corrupt(format!(
                "{count} connections need {} data bytes, found {}",
                count.saturating_mul(8),
                record.data.len()
            )));
        }
        let connection_counts = record
            .data
            .chunks_exact(8)
            .map(|c| (LE::read_u32(&c[..4]), LE::read_u32(&c[4..])))
            .collect();
        Ok(ChunkInfo {
            chunk_pos: f.u64("chunk_pos")?,
            start_time: f.time("start_time")?,
            end_time: f.time("end_time")?,
            connection_counts,
        })
    }
}

/// Where one message lies: its time, connection and byte offset of its
/// record in the uncompressed chunk data. Entries order by time, then by
/// offset: a chunk's messages in the order they are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct IndexEntry {
    /// Message time (ns).
    pub time: u64,
    /// Byte offset of the message data record in the uncompressed chunk.
    pub offset: u32,
    /// Connection id.
    pub conn: u32,
}

/// Append the index data record of connection `conn` to `out`. `entries`
/// must all belong to `conn`.
pub(crate) fn encode_index_data(conn: u32, entries: &[IndexEntry], out: &mut Vec<u8>) {
    let header = HeaderBuilder::new()
        .u32("conn", conn)
        .u32("count", entries.len() as u32)
        .op(op::INDEX_DATA)
        .u32("ver", 1)
        .build();
    encode_record_prefix(out, &header, 12 * entries.len() as u32);
    for e in entries {
        out.extend_from_slice(&nanos_to_time_bytes(e.time));
        out.extend_from_slice(&e.offset.to_le_bytes());
    }
}

/// Parse an index data record, appending its entries to `out` if its
/// connection is `wanted` (the record is checked either way).
pub(crate) fn parse_index_data(
    record: &RawRecord<'_>,
    wanted: impl Fn(u32) -> bool,
    out: &mut Vec<IndexEntry>,
) -> Result<()> {
    let f = FieldReader::new(record);
    check_version(record, &f)?;
    let conn = f.u32("conn")?;
    let count = f.u32("count")? as usize;
    if record.data.len() != count.saturating_mul(12) {
        return Err(record.corrupt(format!(
            "{count} entries need {} data bytes, found {}",
            count.saturating_mul(12),
            record.data.len()
        )));
    }
    if !wanted(conn) {
        return Ok(());
    }
    out.extend(record.data.chunks_exact(12).map(|e| IndexEntry {
        time: time_to_nanos(LE::read_u32(&e[..4]), LE::read_u32(&e[4..8])),
        offset: LE::read_u32(&e[8..]),
        conn,
    }));
    Ok(())
}

fn check_version(record: &RawRecord<'_>, f: &FieldReader<'_, '_>) -> Result<()> {
    match f.u32("ver")? {
        1 => Ok(()),
        v => Err(record.corrupt(format!("version {v} is not supported (only 1)"))),
    }
}

/// One chunk of a bag, as the index (or a scan) describes it.
#[derive(Debug)]
pub struct Chunk {
    /// The chunk's index information.
    pub info: ChunkInfo,
    /// Where each message of the chunk lies, sorted by time; read from the
    /// index data records after the chunk when first needed.
    pub(super) entries: OnceLock<Vec<IndexEntry>>,
    /// For a chunk the file ends in (found by a scan): its compression and
    /// the part of its data that was recovered, which the entries point
    /// into; the chunk record itself cannot be read whole.
    pub(super) recovered: Option<Recovered>,
}

/// The recovered part of a chunk cut off by the end of the file.
pub(super) struct Recovered {
    pub(super) compression: Compression,
    pub(super) data: Bytes,
}

impl std::fmt::Debug for Recovered {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Recovered")
            .field("compression", &self.compression)
            .field("bytes", &self.data.len())
            .finish()
    }
}

impl Chunk {
    pub(crate) fn new(info: ChunkInfo, entries: Option<Vec<IndexEntry>>) -> Chunk {
        let cell = OnceLock::new();
        if let Some(entries) = entries {
            let _ = cell.set(entries);
        }
        Chunk {
            info,
            entries: cell,
            recovered: None,
        }
    }

    /// This chunk, cut off by the end of the file: its messages are read
    /// from `data`, what was recovered of its (uncompressed) data.
    pub(crate) fn with_recovered_data(mut self, compression: Compression, data: Bytes) -> Chunk {
        self.recovered = Some(Recovered { compression, data });
        self
    }
}
