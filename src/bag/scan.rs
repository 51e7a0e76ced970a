//! The scan path: read a bag record by record, without its closing index.
//!
//! A recording that crashed has a bag header with `index_pos = 0` and may
//! end in the middle of a record. Walking the records from the start
//! recovers every connection and every message of each complete chunk,
//! which is what `rosbag reindex` does.

use std::collections::BTreeMap;

use bytes::Bytes;

use super::compression::Compression;
use super::index::{ChunkInfo, Connection, IndexEntry};
use super::reader::Chunk;
use super::record::{op, read_record, FieldReader, RawRecord, RecordError};
use crate::{Error, Result};

/// What a scan recovered and what it had to leave out.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ScanReport {
    /// Chunks whose every message was recovered.
    pub complete_chunks: usize,
    /// Chunks that could not be read (bad compression data, broken
    /// records), with their offsets and why; messages before the damage in
    /// an uncompressed chunk are still recovered.
    pub damaged_chunks: Vec<(u64, String)>,
    /// Messages dropped because the record describing their connection was
    /// lost.
    pub orphan_messages: u64,
    /// Where the walk stopped before the end of the file, and why (the file
    /// was cut off there, or a record is unreadable).
    pub stopped_at: Option<(u64, String)>,
}

impl ScanReport {
    /// Whether the scan found the file whole.
    pub fn is_clean(&self) -> bool {
        self.damaged_chunks.is_empty() && self.orphan_messages == 0 && self.stopped_at.is_none()
    }
}

/// The result of a scan.
pub(crate) struct Scanned {
    pub connections: Vec<Connection>,
    pub chunks: Vec<Chunk>,
    pub report: ScanReport,
}

/// Walk the records of `data` from `start` to the end.
pub(crate) fn scan_records(data: &[u8], start: u64) -> Scanned {
    let mut connections = BTreeMap::new();
    let mut found: Vec<(ChunkInfo, Vec<IndexEntry>)> = Vec::new();
    let mut report = ScanReport::default();
    let mut pos = start;
    while pos < data.len() as u64 {
        let record = match read_record(data, pos as usize, 0) {
            Ok(record) => record,
            Err(RecordError::Truncated { offset }) => {
                report.stopped_at = Some((offset, "the file ends inside this record".into()));
                break;
            }
            Err(RecordError::Corrupt(e)) => {
                report.stopped_at = Some((pos, e.to_string()));
                break;
            }
        };
        match record.op {
            op::CHUNK => match scan_chunk(&record, &mut connections) {
                Ok(chunk) => {
                    report.complete_chunks += 1;
                    found.push(chunk);
                }
                Err((partial, reason)) => {
                    report.damaged_chunks.push((record.offset, reason));
                    found.extend(partial);
                }
            },
            op::CONNECTION => {
                if let Ok(conn) = Connection::parse(&record) {
                    connections.entry(conn.id).or_insert(conn);
                }
            }
            // Index records are rebuilt from the chunks themselves.
            _ => {}
        }
        pos = record.end();
    }
    let chunks = found
        .into_iter()
        .filter_map(|(info, entries)| {
            let kept = keep_known(entries, &connections, &mut report.orphan_messages);
            finish_chunk(info.chunk_pos, kept)
        })
        .collect();
    Scanned {
        connections: connections.into_values().collect(),
        chunks,
        report,
    }
}

type PartialChunk = Option<(ChunkInfo, Vec<IndexEntry>)>;

/// Read one chunk's records; on damage, return what was readable and why.
fn scan_chunk(
    record: &RawRecord<'_>,
    connections: &mut BTreeMap<u32, Connection>,
) -> Result<(ChunkInfo, Vec<IndexEntry>), (PartialChunk, String)> {
    let data = chunk_payload(record).map_err(|e| (None, e.to_string()))?;
    let mut entries = Vec::new();
    let mut pos = 0usize;
    while pos < data.len() {
        let inner = match read_record(&data, pos, 0) {
            Ok(inner) => inner,
            Err(e) => {
                let partial = Some((placeholder_info(record.offset), entries));
                return Err((partial, format!("inside the chunk: {}", e.into_error())));
            }
        };
        match inner.op {
            op::CONNECTION => match Connection::parse(&inner) {
                Ok(conn) => {
                    connections.entry(conn.id).or_insert(conn);
                }
                Err(e) => {
                    let partial = Some((placeholder_info(record.offset), entries));
                    return Err((partial, format!("inside the chunk: {e}")));
                }
            },
            op::MESSAGE_DATA => {
                let f = FieldReader::new(&inner);
                match (f.u32("conn"), f.time("time")) {
                    (Ok(conn), Ok(time)) => entries.push(IndexEntry {
                        time,
                        offset: pos as u32,
                        conn,
                    }),
                    (Err(e), _) | (_, Err(e)) => {
                        let partial = Some((placeholder_info(record.offset), entries));
                        return Err((partial, format!("inside the chunk: {e}")));
                    }
                }
            }
            _ => {}
        }
        pos = inner.end() as usize;
    }
    Ok((placeholder_info(record.offset), entries))
}

fn placeholder_info(chunk_pos: u64) -> ChunkInfo {
    ChunkInfo {
        chunk_pos,
        start_time: 0,
        end_time: 0,
        connection_counts: Vec::new(),
    }
}

/// The uncompressed payload of a chunk record.
fn chunk_payload(record: &RawRecord<'_>) -> Result<Bytes> {
    let f = FieldReader::new(record);
    let name = f.bytes("compression")?;
    let compression = Compression::from_name(name).ok_or_else(|| Error::UnknownCompression {
        name: String::from_utf8_lossy(name).into_owned(),
        offset: record.offset,
    })?;
    compression.decompress(record.data, f.u32("size")?, record.offset)
}

/// Drop the entries whose connection is unknown, counting them.
fn keep_known(
    entries: Vec<IndexEntry>,
    connections: &BTreeMap<u32, Connection>,
    orphans: &mut u64,
) -> Vec<IndexEntry> {
    let before = entries.len();
    let kept: Vec<IndexEntry> = entries
        .into_iter()
        .filter(|e| connections.contains_key(&e.conn))
        .collect();
    *orphans += (before - kept.len()) as u64;
    kept
}

/// The chunk info of a recovered chunk, from its message entries.
fn finish_chunk(chunk_pos: u64, mut entries: Vec<IndexEntry>) -> Option<Chunk> {
    if entries.is_empty() {
        return None;
    }
    entries.sort_by_key(|e| (e.time, e.offset));
    let mut counts: BTreeMap<u32, u32> = BTreeMap::new();
    for e in &entries {
        *counts.entry(e.conn).or_default() += 1;
    }
    let info = ChunkInfo {
        chunk_pos,
        start_time: entries.first().map_or(0, |e| e.time),
        end_time: entries.iter().map(|e| e.time).max().unwrap_or(0),
        connection_counts: counts.into_iter().collect(),
    };
    Some(Chunk::new(info, Some(entries)))
}
