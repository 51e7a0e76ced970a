//! CDR, the wire format of ROS 2 messages in a rosbag2 `.db3`: a 4-byte
//! encapsulation header (`00 01 00 00` for little-endian CDR), then the
//! fields, each primitive aligned to its own size counted from the end of
//! the header; strings as a `u32` length that counts a closing NUL, then
//! the bytes and the NUL; sequences as a `u32` count, then the elements.
//!
//! [`CdrReader`] reads named fields and reports truncation as
//! [`Error::Decode`] naming the message type, the field and its offset;
//! [`CdrWriter`] writes little-endian CDR with zeroed padding.

use crate::{Error, Result};

/// Little-endian CDR (`CDR_LE`), the encapsulation librealsense writes.
const CDR_LE: [u8; 4] = [0, 1, 0, 0];
/// Big-endian CDR (`CDR_BE`), which ROS 2 readers accept too.
const CDR_BE: [u8; 4] = [0, 0, 0, 0];

/// Reads the fields of one CDR message in order.
#[derive(Debug)]
pub struct CdrReader<'a> {
    data: &'a [u8],
    /// Position in `data` (the header included).
    pos: usize,
    big_endian: bool,
    msg_type: &'static str,
}

impl<'a> CdrReader<'a> {
    /// Start reading `data`, a message of `msg_type`, after its
    /// encapsulation header.
    pub fn new(data: &'a [u8], msg_type: &'static str) -> Result<CdrReader<'a>> {
        let header = data.get(..4).ok_or_else(|| {
            Error::decode(msg_type, format!("{} bytes: no CDR header", data.len()))
        })?;
        let big_endian = if header[..2] == CDR_LE[..2] {
            false
        } else if header[..2] == CDR_BE[..2] {
            true
        } else {
            return Err(Error::decode(
                msg_type,
                format!("CDR encapsulation {:02x?} is not plain CDR", &header[..2]),
            ));
        };
        Ok(CdrReader {
            data,
            pos: 4,
            big_endian,
            msg_type,
        })
    }

    fn take(&mut self, field: &str, align: usize, len: usize) -> Result<&'a [u8]> {
        let misalign = (self.pos - 4) % align;
        let start = if misalign == 0 {
            self.pos
        } else {
            self.pos + align - misalign
        };
        let end = start.checked_add(len).filter(|&e| e <= self.data.len());
        let Some(end) = end else {
            return Err(Error::decode(
                self.msg_type,
                format!(
                    "field {field} at byte {start}: needs {len} bytes, the message has {}",
                    self.data.len()
                ),
            ));
        };
        self.pos = end;
        Ok(&self.data[start..end])
    }

    fn array<const N: usize>(&mut self, field: &str) -> Result<[u8; N]> {
        let bytes = self.take(field, N, N)?;
        let mut out = [0u8; N];
        out.copy_from_slice(bytes);
        if self.big_endian {
            out.reverse();
        }
        Ok(out)
    }

    /// A `uint8` or `bool`.
    pub fn u8(&mut self, field: &str) -> Result<u8> {
        Ok(self.take(field, 1, 1)?[0])
    }

    /// A `uint32`.
    pub fn u32(&mut self, field: &str) -> Result<u32> {
        self.array(field).map(u32::from_le_bytes)
    }

    /// An `int32`.
    pub fn i32(&mut self, field: &str) -> Result<i32> {
        self.array(field).map(i32::from_le_bytes)
    }

    /// A `float64`.
    pub fn f64(&mut self, field: &str) -> Result<f64> {
        self.array(field).map(f64::from_le_bytes)
    }

    /// `N` `float64`s (a fixed array).
    pub fn f64s<const N: usize>(&mut self, field: &str) -> Result<[f64; N]> {
        let mut out = [0.0; N];
        for x in &mut out {
            *x = self.f64(field)?;
        }
        Ok(out)
    }

    /// A `float64[]` sequence.
    pub fn f64_seq(&mut self, field: &str) -> Result<Vec<f64>> {
        let n = self.u32(field)? as usize;
        let bytes = self.take(field, 8, n.saturating_mul(8))?;
        Ok(bytes
            .chunks_exact(8)
            .map(|c| {
                let mut b = [0u8; 8];
                b.copy_from_slice(c);
                if self.big_endian {
                    b.reverse();
                }
                f64::from_le_bytes(b)
            })
            .collect())
    }

    /// A `string`, as its bytes without the closing NUL (not checked as
    /// UTF-8: what librealsense writes there need not be).
    pub fn string(&mut self, field: &str) -> Result<&'a [u8]> {
        let n = self.u32(field)? as usize;
        let bytes = self.take(field, 1, n)?;
        Ok(match bytes.split_last() {
            Some((0, text)) => text,
            _ => bytes,
        })
    }

    /// A `uint8[]` sequence: the bytes, borrowed.
    pub fn bytes(&mut self, field: &str) -> Result<&'a [u8]> {
        let n = self.u32(field)? as usize;
        self.take(field, 1, n)
    }

    /// A sequence's element count, checked against the bytes left (each
    /// element takes at least `min_size` bytes) so a corrupt count cannot
    /// make the caller reserve memory for it.
    pub fn count(&mut self, field: &str, min_size: usize) -> Result<usize> {
        let n = self.u32(field)? as usize;
        let left = self.data.len() - self.pos;
        if n.saturating_mul(min_size) > left {
            return Err(Error::decode(
                self.msg_type,
                format!("field {field}: {n} elements cannot fit in the {left} bytes left"),
            ));
        }
        Ok(n)
    }
}

/// Writes one little-endian CDR message.
#[derive(Debug, Default)]
pub struct CdrWriter {
    out: Vec<u8>,
}

impl CdrWriter {
    /// A message with its encapsulation header, room for `capacity` bytes.
    pub fn with_capacity(capacity: usize) -> CdrWriter {
        let mut out = Vec::with_capacity(capacity + 4);
        out.extend_from_slice(&CDR_LE);
        CdrWriter { out }
    }

    fn align(&mut self, align: usize) {
        while !(self.out.len() - 4).is_multiple_of(align) {
            self.out.push(0);
        }
    }

    /// A `uint8` or `bool`.
    pub fn u8(&mut self, v: u8) -> &mut Self {
        self.out.push(v);
        self
    }

    /// A `uint32`.
    pub fn u32(&mut self, v: u32) -> &mut Self {
        self.align(4);
        self.out.extend_from_slice(&v.to_le_bytes());
        self
    }

    /// An `int32`.
    pub fn i32(&mut self, v: i32) -> &mut Self {
        self.align(4);
        self.out.extend_from_slice(&v.to_le_bytes());
        self
    }

    /// A `float64`.
    pub fn f64(&mut self, v: f64) -> &mut Self {
        self.align(8);
        self.out.extend_from_slice(&v.to_le_bytes());
        self
    }

    /// `float64`s, as a fixed array.
    pub fn f64s(&mut self, values: &[f64]) -> &mut Self {
        values.iter().for_each(|&v| {
            self.f64(v);
        });
        self
    }

    /// A `float64[]` sequence.
    pub fn f64_seq(&mut self, values: &[f64]) -> &mut Self {
        self.count(values.len());
        self.f64s(values)
    }

    /// A `string`.
    pub fn string(&mut self, text: &[u8]) -> &mut Self {
        self.count(text.len() + 1);
        self.out.extend_from_slice(text);
        self.out.push(0);
        self
    }

    /// A sequence's element count.
    pub fn count(&mut self, n: usize) -> &mut Self {
        // Messages over 4 GiB cannot be stored in a rosbag2 blob anyway.
        self.u32(u32::try_from(n).unwrap_or(u32::MAX))
    }

    /// The message's bytes.
    pub fn finish(self) -> Vec<u8> {
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_aligned_after_the_header_and_read_back() {
        let mut w = CdrWriter::with_capacity(64);
        w.u8(7)
            .u32(9)
            .string(b"ab")
            .f64(1.5)
            .count(3)
            .u8(1)
            .u8(2)
            .u8(3);
        let data = w.finish();
        // header, u8, 3 pad, u32, u32 len 3, "ab\0", 1 pad to 8... f64
        assert_eq!(&data[..4], &CDR_LE);
        assert_eq!(data[4], 7);
        assert_eq!(&data[8..12], &9u32.to_le_bytes());
        let mut r = CdrReader::new(&data, "test").expect("header");
        assert_eq!(r.u8("a").expect("u8"), 7);
        assert_eq!(r.u32("b").expect("u32"), 9);
        assert_eq!(r.string("c").expect("string"), b"ab");
        assert_eq!(r.f64("d").expect("f64"), 1.5);
        assert_eq!(r.bytes("e").expect("bytes"), &[1, 2, 3]);
        let err = r.u32("f").expect_err("past the end");
        assert!(err.to_string().contains("field f"), "{err}");
    }

    #[test]
    fn big_endian_cdr_reads_too() {
        let mut data = CDR_BE.to_vec();
        data.extend_from_slice(&5u32.to_be_bytes());
        let mut r = CdrReader::new(&data, "test").expect("header");
        assert_eq!(r.u32("x").expect("u32"), 5);
    }

    #[test]
    fn bad_counts_and_headers_are_errors() {
        assert!(CdrReader::new(&[0, 1], "t").is_err());
        assert!(CdrReader::new(&[9, 9, 0, 0], "t").is_err());
        let mut data = CDR_LE.to_vec();
        data.extend_from_slice(&u32::MAX.to_le_bytes());
        let mut r = CdrReader::new(&data, "t").expect("header");
        assert!(r.count("xs", 8).is_err());
        let mut r = CdrReader::new(&data, "t").expect("header");
        assert!(r.bytes("xs").is_err());
    }
}
