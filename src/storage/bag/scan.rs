//! The scan path: read a bag record by record, without its closing index.
//!
//! A recording that crashed has a bag header with `index_pos = 0` and may
//! end in the middle of a record. Walking the records from the start
//! recovers every connection and every message of each complete chunk,
//! which is what `rosbag reindex` does; and, beyond it, every complete
//! record of the chunk the file ends in (message data records say their
//! own length, so those before the cut are whole), which is where a
//! cut-off recording keeps its description when it has one chunk: as they
//! lie in the file for an uncompressed chunk, as far as the LZ4 frame
//! decodes before the cut for an LZ4 one (its sequences decode in order;
//! ROS writes 1 MB blocks, so a chunk is one block: decoding only whole
//! blocks would recover nothing).

use std::collections::BTreeMap;

use bytes::Bytes;

use super::compression::Compression;
use super::index::Chunk;
use super::index::{ChunkInfo, IndexEntry};
use super::record::{op, read_cut_record, read_record, FieldReader, RawRecord, RecordError};
use crate::storage::Connection;
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
    /// was cut off there, or a record is unreadable). In a chunk the file
    /// ends in, the first record of it that is cut off.
    pub stopped_at: Option<(u64, String)>,
    /// Messages recovered from the chunk the file ends in (cut off): the
    /// complete message records before the cut of an uncompressed chunk,
    /// or of what decodes before the cut of an LZ4 one (nothing of a bz2
    /// one decodes without its end). 0 when the file does not end inside
    /// a chunk.
    pub cut_chunk_messages: u64,
}

impl ScanReport {
    /// What the scan recovered, in words: `12 complete chunks and 312
    /// messages of the chunk the file ends in, read up to byte 84000`.
    pub fn recovered(&self) -> String {
        let mut text = format!(
            "{} complete chunk{}",
            self.complete_chunks,
            if self.complete_chunks == 1 { "" } else { "s" }
        );
        if self.cut_chunk_messages > 0 {
            text.push_str(&format!(
                " and {} messages of the chunk the file ends in",
                self.cut_chunk_messages
            ));
        }
        if let Some((offset, _)) = &self.stopped_at {
            text.push_str(&format!(", read up to byte {offset}"));
        }
        text
    }

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
pub(crate) fn scan_records(data: &Bytes, start: u64) -> Scanned {
    let mut connections = BTreeMap::new();
    let mut found: Vec<(ChunkInfo, Vec<IndexEntry>)> = Vec::new();
    let mut report = ScanReport::default();
    let mut cut = None;
    let mut pos = start;
    while pos < data.len() as u64 {
        let record = match read_record(data, pos as usize, 0) {
            Ok(record) => record,
            Err(RecordError::Truncated { offset }) => {
                let (stopped, recovered) = match read_cut_record(data, pos as usize) {
                    Some((record, _)) if record.op == op::CHUNK => {
                        scan_cut_chunk(data, &record, &mut connections)
                    }
                    _ => ((offset, "the file ends inside this record".into()), None),
                };
                report.stopped_at = Some(stopped);
                cut = recovered;
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
    let mut chunks: Vec<Chunk> = found
        .into_iter()
        .filter_map(|(info, entries)| {
            let kept = keep_known(entries, &connections, &mut report.orphan_messages);
            finish_chunk(info.chunk_pos, kept)
        })
        .collect();
    if let Some(cut) = cut {
        let kept = keep_known(cut.entries, &connections, &mut report.orphan_messages);
        report.cut_chunk_messages = kept.len() as u64;
        if let Some(chunk) = finish_chunk(cut.chunk_pos, kept) {
            chunks.push(chunk.with_recovered_data(cut.compression, cut.data));
        }
    }
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
    let walked = walk_chunk(&data, connections);
    let info = placeholder_info(record.offset);
    match walked.stopped {
        None => Ok((info, walked.entries)),
        Some((_, e)) => Err((
            Some((info, walked.entries)),
            format!("inside the chunk: {e}"),
        )),
    }
}

/// The records of a chunk's (uncompressed) data, up to the first that
/// cannot be read.
pub(super) struct Walked {
    /// Each message data record, its offset in the chunk data.
    pub(super) entries: Vec<IndexEntry>,
    /// Where the records that could be read end (the whole data, or the
    /// start of the first that could not).
    end: usize,
    /// The record that could not be read, and why.
    pub(super) stopped: Option<(usize, Error)>,
    /// Whether that record runs past the end of the data.
    cut_off: bool,
}

/// Walk the records of chunk data: collect the message entries, add the
/// connections, stop at the first record that cannot be read.
pub(super) fn walk_chunk(data: &[u8], connections: &mut BTreeMap<u32, Connection>) -> Walked {
    let mut entries = Vec::new();
    let mut pos = 0usize;
    let stop = |entries, pos, e| Walked {
        entries,
        end: pos,
        stopped: Some((pos, e)),
        cut_off: false,
    };
    while pos < data.len() {
        let inner = match read_record(data, pos, 0) {
            Ok(inner) => inner,
            Err(e) => {
                let cut_off = matches!(e, RecordError::Truncated { .. });
                return Walked {
                    cut_off,
                    ..stop(entries, pos, e.into_error())
                };
            }
        };
        match inner.op {
            op::CONNECTION => match Connection::parse(&inner) {
                Ok(conn) => {
                    connections.entry(conn.id).or_insert(conn);
                }
                Err(e) => return stop(entries, pos, e),
            },
            op::MESSAGE_DATA => {
                let f = FieldReader::new(&inner);
                match (f.u32("conn"), f.time("time"), u32::try_from(pos)) {
                    (Ok(conn), Ok(time), Ok(offset)) => {
                        entries.push(IndexEntry { time, offset, conn })
                    }
                    (Err(e), _, _) | (_, Err(e), _) => return stop(entries, pos, e),
                    (_, _, Err(_)) => {
                        let e = inner.corrupt("lies more than 4 GiB into its chunk");
                        return stop(entries, pos, e);
                    }
                }
            }
            _ => {}
        }
        pos = inner.end() as usize;
    }
    Walked {
        entries,
        end: pos,
        stopped: None,
        cut_off: false,
    }
}

/// What was recovered of the chunk the file ends in.
struct CutChunk {
    chunk_pos: u64,
    compression: Compression,
    /// The chunk data the entries point into: its whole records.
    data: Bytes,
    entries: Vec<IndexEntry>,
}

/// The chunk `record` that the end of the file cuts off: where the walk
/// stops and why, and what of the chunk could be recovered. The records
/// of an uncompressed chunk lie as they are in the file, so each complete
/// one before the cut is read; a compressed chunk decodes only whole.
fn scan_cut_chunk(
    file: &Bytes,
    record: &RawRecord<'_>,
    connections: &mut BTreeMap<u32, Connection>,
) -> ((u64, String), Option<CutChunk>) {
    let cut_off = |reason: String| ((record.offset, reason), None);
    let f = FieldReader::new(record);
    let compression = match f.bytes("compression").map(Compression::from_name) {
        Ok(Some(compression)) => compression,
        _ => return cut_off("the file ends inside this chunk, of an unknown compression".into()),
    };
    let decoded = match compression {
        Compression::None => None,
        // What decodes before the cut is the start of the chunk's data.
        Compression::Lz4 => {
            let size = f.u32("size").unwrap_or(0) as usize;
            Some(Bytes::from(
                crate::storage::compression::lz4::decode_cut_frame(record.data, size),
            ))
        }
        // A bzip2 block decodes only whole (and holds 900 kB: a chunk).
        Compression::Bz2 => {
            return cut_off("the file ends inside this bz2 chunk, which decodes only whole".into())
        }
    };
    if let Some(decoded) = decoded {
        let walked = walk_chunk(&decoded, connections);
        let n = walked.entries.len();
        let reason = format!(
            "the file ends inside this {compression} chunk ({n} message records of the {} bytes that decode before the cut recovered)",
            decoded.len()
        );
        let cut = CutChunk {
            chunk_pos: record.offset,
            compression,
            data: decoded.slice(..walked.end),
            entries: walked.entries,
        };
        return ((record.offset, reason), Some(cut));
    }
    let walked = walk_chunk(record.data, connections);
    let start = record.data_offset as usize;
    let stopped_at = record.data_offset + walked.end as u64;
    let n = walked.entries.len();
    let reason = match &walked.stopped {
        Some((_, e)) if !walked.cut_off => format!(
            "inside the chunk at byte {} that the file ends in ({n} message records before this one recovered): {e}",
            record.offset
        ),
        Some(_) => format!(
            "the file ends inside this record, in the chunk at byte {} ({n} complete message records before it recovered)",
            record.offset
        ),
        None => format!(
            "the file ends here, before the end of the chunk at byte {} ({n} message records recovered)",
            record.offset
        ),
    };
    let data = file.slice(start..start + walked.end);
    let cut = CutChunk {
        chunk_pos: record.offset,
        compression,
        data,
        entries: walked.entries,
    };
    ((stopped_at, reason), Some(cut))
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
    entries.sort_unstable();
    let info = ChunkInfo {
        chunk_pos,
        start_time: entries.first().map_or(0, |e| e.time),
        end_time: entries.iter().map(|e| e.time).max().unwrap_or(0),
        connection_counts: connection_counts(&entries).into_iter().collect(),
    };
    Some(Chunk::new(info, Some(entries)))
}

/// How many of `entries` each connection has.
pub(super) fn connection_counts(entries: &[IndexEntry]) -> BTreeMap<u32, u32> {
    let mut counts = BTreeMap::new();
    for e in entries {
        *counts.entry(e.conn).or_default() += 1;
    }
    counts
}
