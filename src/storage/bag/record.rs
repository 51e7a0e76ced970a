//! The records of a ROS bag v2.0 file as plain types, and the field-level
//! encoding they share.
//!
//! Every record is `header_len: u32, header, data_len: u32, data`; a header
//! is a sequence of `field_len: u32, name=value` fields. ROS writes the
//! fields of a header sorted by name, and so does this module.

use byteorder::{ByteOrder, LittleEndian as LE};

use crate::{Error, Result};

/// The line every bag file starts with.
pub const MAGIC: &[u8] = b"#ROSBAG V2.0\n";

/// Record `op` codes.
pub mod op {
    /// A message data record.
    pub const MESSAGE_DATA: u8 = 0x02;
    /// The bag header record.
    pub const BAG_HEADER: u8 = 0x03;
    /// An index data record (after each chunk).
    pub const INDEX_DATA: u8 = 0x04;
    /// A chunk record.
    pub const CHUNK: u8 = 0x05;
    /// A chunk info record (in the closing index).
    pub const CHUNK_INFO: u8 = 0x06;
    /// A connection record.
    pub const CONNECTION: u8 = 0x07;
}

/// The human name of a record `op`, for error messages.
pub(crate) fn op_name(op: u8) -> &'static str {
    match op {
        op::MESSAGE_DATA => "message data",
        op::BAG_HEADER => "bag header",
        op::INDEX_DATA => "index data",
        op::CHUNK => "chunk",
        op::CHUNK_INFO => "chunk info",
        op::CONNECTION => "connection",
        _ => "unknown",
    }
}

/// A ROS time (`sec`, `nsec`) as nanoseconds.
pub(crate) fn time_to_nanos(sec: u32, nsec: u32) -> u64 {
    u64::from(sec) * 1_000_000_000 + u64::from(nsec)
}

/// Nanoseconds as ROS `time` bytes (`sec: u32`, `nsec: u32`).
///
/// Times past the year 2106 (more than `u32::MAX` seconds) saturate.
pub(crate) fn nanos_to_time_bytes(nanos: u64) -> [u8; 8] {
    let sec = u32::try_from(nanos / 1_000_000_000).unwrap_or(u32::MAX);
    let nsec = (nanos % 1_000_000_000) as u32;
    let mut out = [0u8; 8];
    LE::write_u32(&mut out[..4], sec);
    LE::write_u32(&mut out[4..], nsec);
    out
}

/// One record as it lies in a buffer: its header and data bytes.
#[derive(Debug, Clone, Copy)]
pub struct RawRecord<'a> {
    /// Byte offset of the record in the buffer it was read from.
    pub offset: u64,
    /// The `op` field of the header.
    pub op: u8,
    /// The header bytes (all fields, `op` included).
    pub header: &'a [u8],
    /// The data bytes.
    pub data: &'a [u8],
    /// Byte offset of `data` in the buffer.
    pub data_offset: u64,
}

impl<'a> RawRecord<'a> {
    /// Total length of the record in bytes.
    pub fn len(&self) -> u64 {
        8 + self.header.len() as u64 + self.data.len() as u64
    }

    /// Whether the record has neither header nor data (never true for a valid record).
    pub fn is_empty(&self) -> bool {
        self.header.is_empty() && self.data.is_empty()
    }

    /// Offset just past this record.
    pub fn end(&self) -> u64 {
        self.offset + self.len()
    }

    /// The header fields.
    pub fn fields(&self) -> Fields<'a> {
        Fields {
            rest: self.header,
            offset: self.offset + 4,
        }
    }

    /// The name of this record's kind, for error messages.
    pub fn name(&self) -> &'static str {
        op_name(self.op)
    }

    /// An error about this record.
    pub fn corrupt(&self, reason: impl Into<String>) -> Error {
        Error::corrupt(self.name(), self.offset, reason)
    }
}

/// Why a record could not be read at some position.
#[derive(Debug)]
pub enum RecordError {
    /// The buffer ends inside the record: the file was cut off here.
    Truncated {
        /// Where the record starts.
        offset: u64,
    },
    /// The record is malformed.
    Corrupt(Error),
}

impl RecordError {
    /// The error as the crate's error type.
    pub(crate) fn into_error(self) -> Error {
        match self {
            RecordError::Truncated { offset } => Error::corrupt(
                "bag",
                offset,
                "the file ends inside this record (truncated)",
            ),
            RecordError::Corrupt(e) => e,
        }
    }
}

impl From<RecordError> for Error {
    fn from(e: RecordError) -> Error {
        e.into_error()
    }
}

/// Read the record that starts at `pos` in `buf`; `base` is the offset of
/// `buf` in the file (for error messages).
pub fn read_record(buf: &[u8], pos: usize, base: u64) -> Result<RawRecord<'_>, RecordError> {
    let offset = base + pos as u64;
    let truncated = RecordError::Truncated { offset };
    let header_len = read_u32_at(buf, pos).ok_or(truncated)? as usize;
    let header_start = pos + 4;
    let header = buf
        .get(header_start..header_start.saturating_add(header_len))
        .ok_or(RecordError::Truncated { offset })?;
    let data_len_pos = header_start + header_len;
    let data_len =
        read_u32_at(buf, data_len_pos).ok_or(RecordError::Truncated { offset })? as usize;
    let data_start = data_len_pos + 4;
    let data = buf
        .get(data_start..data_start.saturating_add(data_len))
        .ok_or(RecordError::Truncated { offset })?;
    let op = find_op(header, offset).map_err(RecordError::Corrupt)?;
    Ok(RawRecord {
        offset,
        op,
        header,
        data,
        data_offset: base + data_start as u64,
    })
}

/// The header of the record that starts at `pos` in `buf`, of which `buf`
/// may hold only the start (a remote file's first bytes of a chunk): the
/// record with as much of its data as `buf` holds, and the data length it
/// declares; `base` as for [`read_record`].
pub(crate) fn read_record_head(
    buf: &[u8],
    pos: usize,
    base: u64,
) -> Result<(RawRecord<'_>, u32), RecordError> {
    let offset = base + pos as u64;
    let truncated = || RecordError::Truncated { offset };
    let header_len = read_u32_at(buf, pos).ok_or_else(truncated)? as usize;
    let header_start = pos + 4;
    let header =
        (buf.get(header_start..header_start.saturating_add(header_len))).ok_or_else(truncated)?;
    let data_len_pos = header_start + header_len;
    let data_len = read_u32_at(buf, data_len_pos).ok_or_else(truncated)?;
    let data_start = data_len_pos + 4;
    let data_end = data_start.saturating_add(data_len as usize).min(buf.len());
    let op = find_op(header, offset).map_err(RecordError::Corrupt)?;
    let record = RawRecord {
        offset,
        op,
        header,
        data: &buf[data_start..data_end],
        data_offset: base + data_start as u64,
    };
    Ok((record, data_len))
}

/// The record that starts at `pos` in `buf` and is cut off by the end of
/// `buf` inside its data: its whole header, and as much of its data as
/// `buf` holds (`data` is shorter than the record says), with the data
/// length the record declares. `None` when the header or the data length
/// is cut off too, or the header has no `op`.
pub(crate) fn read_cut_record(buf: &[u8], pos: usize) -> Option<(RawRecord<'_>, usize)> {
    let header_len = read_u32_at(buf, pos)? as usize;
    let header_start = pos.checked_add(4)?;
    let header = buf.get(header_start..header_start.checked_add(header_len)?)?;
    let data_len_pos = header_start + header_len;
    let data_len = read_u32_at(buf, data_len_pos)? as usize;
    let data_start = data_len_pos + 4;
    let data = buf.get(data_start..)?;
    if data.len() >= data_len {
        // Not cut off.
        return None;
    }
    let op = find_op(header, pos as u64).ok()?;
    let record = RawRecord {
        offset: pos as u64,
        op,
        header,
        data,
        data_offset: data_start as u64,
    };
    Some((record, data_len))
}

fn read_u32_at(buf: &[u8], pos: usize) -> Option<u32> {
    buf.get(pos..pos.checked_add(4)?).map(LE::read_u32)
}

fn find_op(header: &[u8], offset: u64) -> Result<u8> {
    let fields = Fields {
        rest: header,
        offset: offset + 4,
    };
    for field in fields {
        let (name, value) = field?;
        if name == b"op" {
            return match value {
                [op] => Ok(*op),
                _ => Err(Error::corrupt(
                    "record",
                    offset,
                    "the op field is not one byte",
                )),
            };
        }
    }
    Err(Error::corrupt(
        "record",
        offset,
        "the header has no op field",
    ))
}

/// Iterator over the `name=value` fields of a record header. Names are
/// bytes, compared with the names looked for: checking each as UTF-8 was
/// 7 % of the instructions of reading a recording's frames, and a name
/// that is not UTF-8 is simply not found.
#[derive(Debug, Clone)]
pub struct Fields<'a> {
    rest: &'a [u8],
    offset: u64,
}

impl<'a> Iterator for Fields<'a> {
    type Item = Result<(&'a [u8], &'a [u8])>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.rest.is_empty() {
            return None;
        }
        let item = self.split_field();
        if item.is_err() {
            self.rest = &[];
        }
        Some(item)
    }
}

impl<'a> Fields<'a> {
    fn split_field(&mut self) -> Result<(&'a [u8], &'a [u8])> {
        let offset = self.offset;
        let bad = |reason: &str| Error::corrupt("record header", offset, reason.to_string());
        let len = read_u32_at(self.rest, 0).ok_or_else(|| bad("field length cut off"))? as usize;
        let field = self
            .rest
            .get(4..4usize.saturating_add(len))
            .ok_or_else(|| bad("field runs past the end of the header"))?;
        self.rest = &self.rest[4 + len..];
        self.offset += 4 + len as u64;
        let eq = field
            .iter()
            .position(|&b| b == b'=')
            .ok_or_else(|| bad("field has no '='"))?;
        Ok((&field[..eq], &field[eq + 1..]))
    }
}

/// Typed access to the header fields of one record.
pub struct FieldReader<'r, 'a> {
    record: &'r RawRecord<'a>,
}

impl<'r, 'a> FieldReader<'r, 'a> {
    /// Fields of `record`.
    pub fn new(record: &'r RawRecord<'a>) -> Self {
        FieldReader { record }
    }

    /// The raw value of field `name`, if present.
    pub fn get(&self, name: &str) -> Result<Option<&'a [u8]>> {
        for field in self.record.fields() {
            let (n, v) = field?;
            if n == name.as_bytes() {
                return Ok(Some(v));
            }
        }
        Ok(None)
    }

    /// The raw value of a field that must be present.
    pub fn bytes(&self, name: &str) -> Result<&'a [u8]> {
        self.get(name)?
            .ok_or_else(|| self.record.corrupt(format!("missing field {name:?}")))
    }

    /// A little-endian `u32` field.
    pub fn u32(&self, name: &str) -> Result<u32> {
        match self.bytes(name)? {
            v if v.len() == 4 => Ok(LE::read_u32(v)),
            _ => Err(self
                .record
                .corrupt(format!("field {name:?} is not 4 bytes"))),
        }
    }

    /// A little-endian `u64` field.
    pub fn u64(&self, name: &str) -> Result<u64> {
        match self.bytes(name)? {
            v if v.len() == 8 => Ok(LE::read_u64(v)),
            _ => Err(self
                .record
                .corrupt(format!("field {name:?} is not 8 bytes"))),
        }
    }

    /// A ROS `time` field as nanoseconds.
    pub fn time(&self, name: &str) -> Result<u64> {
        match self.bytes(name)? {
            v if v.len() == 8 => Ok(time_to_nanos(LE::read_u32(&v[..4]), LE::read_u32(&v[4..]))),
            _ => Err(self
                .record
                .corrupt(format!("field {name:?} is not a time (8 bytes)"))),
        }
    }

    /// A UTF-8 string field.
    pub fn str(&self, name: &str) -> Result<&'a str> {
        let v = self.bytes(name)?;
        std::str::from_utf8(v)
            .map_err(|_| self.record.corrupt(format!("field {name:?} is not UTF-8")))
    }
}

/// Builds a record header: fields are appended in the order given (callers
/// give them sorted by name, as ROS does).
#[derive(Debug, Default)]
pub struct HeaderBuilder {
    bytes: Vec<u8>,
}

impl HeaderBuilder {
    /// An empty header.
    pub fn new() -> Self {
        Self::default()
    }

    /// Append a field with raw bytes as its value.
    pub fn field(mut self, name: &str, value: &[u8]) -> Self {
        let len = (name.len() + 1 + value.len()) as u32;
        self.bytes.extend_from_slice(&len.to_le_bytes());
        self.bytes.extend_from_slice(name.as_bytes());
        self.bytes.push(b'=');
        self.bytes.extend_from_slice(value);
        self
    }

    /// Append a `u32` field.
    pub fn u32(self, name: &str, value: u32) -> Self {
        self.field(name, &value.to_le_bytes())
    }

    /// Append a `u64` field.
    pub fn u64(self, name: &str, value: u64) -> Self {
        self.field(name, &value.to_le_bytes())
    }

    /// Append a `time` field from nanoseconds.
    pub fn time(self, name: &str, nanos: u64) -> Self {
        self.field(name, &nanos_to_time_bytes(nanos))
    }

    /// Append the `op` field.
    pub fn op(self, op: u8) -> Self {
        self.field("op", &[op])
    }

    /// The header bytes.
    pub fn build(self) -> Vec<u8> {
        self.bytes
    }
}

/// Append one whole record (`header_len`, header, `data_len`) to `out`,
/// without the data bytes themselves when `data` is `None` (the caller
/// writes `data_len` bytes next).
pub(crate) fn encode_record_prefix(out: &mut Vec<u8>, header: &[u8], data_len: u32) {
    out.extend_from_slice(&(header.len() as u32).to_le_bytes());
    out.extend_from_slice(header);
    out.extend_from_slice(&data_len.to_le_bytes());
}

impl std::fmt::Debug for FieldReader<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FieldReader").finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_fields_round_trip() {
        let header = HeaderBuilder::new()
            .u32("conn", 7)
            .op(op::MESSAGE_DATA)
            .time("time", 5_011_111_000)
            .build();
        let mut buf = Vec::new();
        encode_record_prefix(&mut buf, &header, 3);
        buf.extend_from_slice(b"abc");
        let rec = read_record(&buf, 0, 100).expect("record");
        assert_eq!(rec.op, op::MESSAGE_DATA);
        assert_eq!(rec.data, b"abc");
        assert_eq!(rec.offset, 100);
        assert_eq!(rec.end(), 100 + buf.len() as u64);
        let f = FieldReader::new(&rec);
        assert_eq!(f.u32("conn").expect("conn"), 7);
        assert_eq!(f.time("time").expect("time"), 5_011_111_000);
        assert!(f.u64("conn").is_err());
        assert!(f.bytes("missing").is_err());
    }

    #[test]
    fn every_truncation_is_an_error() {
        let header = HeaderBuilder::new().op(op::CHUNK).build();
        let mut buf = Vec::new();
        encode_record_prefix(&mut buf, &header, 2);
        buf.extend_from_slice(b"xy");
        for cut in 0..buf.len() {
            assert!(matches!(
                read_record(&buf[..cut], 0, 0),
                Err(RecordError::Truncated { offset: 0 })
            ));
        }
    }

    #[test]
    fn header_without_op_is_corrupt() {
        let header = HeaderBuilder::new().u32("conn", 1).build();
        let mut buf = Vec::new();
        encode_record_prefix(&mut buf, &header, 0);
        assert!(matches!(
            read_record(&buf, 0, 0),
            Err(RecordError::Corrupt(_))
        ));
    }
}
