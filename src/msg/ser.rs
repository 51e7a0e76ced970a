//! ROS1 serialization: little-endian primitives, `u32`-length-prefixed
//! strings and arrays, fixed arrays without a prefix, and `time` as `u32`
//! seconds then `u32` nanoseconds.
//!
//! [`Encode`] writes a value, and reports a string or array too long for
//! its `u32` length prefix as an [`Error::InvalidArgument`]; [`Reader`]
//! reads named fields and reports truncation and bad UTF-8 as
//! [`Error::Decode`] errors that name the field and its byte offset in the
//! message.

use std::borrow::Cow;

use super::Time;
use crate::{Error, Result};

/// A value with a ROS1 wire form.
pub(crate) trait Encode {
    /// Append the serialized value to `out`; an error (with part of the
    /// value appended) for a string or array longer than ROS1 can encode.
    fn write(&self, out: &mut Vec<u8>) -> Result<()>;
}

/// A message type that can be read from the middle of a message (nested
/// types) as well as on its own.
pub(crate) trait Decode<'a>: Sized {
    /// Read the value at the reader's position.
    fn read(r: &mut Reader<'a>) -> Result<Self>;
}

macro_rules! encode_le {
    ($($t:ty),*) => {$(
        impl Encode for $t {
            fn write(&self, out: &mut Vec<u8>) -> Result<()> {
                out.extend_from_slice(&self.to_le_bytes());
                Ok(())
            }
        }
    )*};
}
encode_le!(u8, u32, f32, f64);

impl Encode for bool {
    fn write(&self, out: &mut Vec<u8>) -> Result<()> {
        out.push(u8::from(*self));
        Ok(())
    }
}

impl Encode for Time {
    fn write(&self, out: &mut Vec<u8>) -> Result<()> {
        self.sec.write(out)?;
        self.nsec.write(out)
    }
}

impl Encode for str {
    fn write(&self, out: &mut Vec<u8>) -> Result<()> {
        put_bytes(out, self.as_bytes())
    }
}

/// A fixed-size array (`float64[9]`): the elements, no length prefix.
impl<T: Encode, const N: usize> Encode for [T; N] {
    fn write(&self, out: &mut Vec<u8>) -> Result<()> {
        self.iter().try_for_each(|x| x.write(out))
    }
}

/// `len` as the `u32` of a length prefix; an [`Error::InvalidArgument`] if
/// it does not fit: ROS1 cannot represent such a field.
pub(crate) fn prefix_len(len: usize) -> Result<u32> {
    u32::try_from(len).map_err(|_| {
        Error::InvalidArgument(format!(
            "a string or array of {len} elements is longer than ROS1 can encode (at most {} elements)",
            u32::MAX
        ))
    })
}

/// Append a `u32` length prefix (see [`prefix_len`]).
pub(crate) fn put_len(out: &mut Vec<u8>, len: usize) -> Result<()> {
    prefix_len(len)?.write(out)
}

/// Append a `uint8[]` (length prefix, then the bytes).
pub(crate) fn put_bytes(out: &mut Vec<u8>, bytes: &[u8]) -> Result<()> {
    put_len(out, bytes.len())?;
    out.extend_from_slice(bytes);
    Ok(())
}

/// Append a variable-length array (length prefix, then the elements).
pub(crate) fn put_seq<T: Encode>(out: &mut Vec<u8>, items: &[T]) -> Result<()> {
    put_len(out, items.len())?;
    items.iter().try_for_each(|x| x.write(out))
}

/// A cursor over one serialized message.
///
/// Errors name the message type given to [`Reader::new`] (the outermost
/// type, also while nested types are read) and the offset from the start
/// of the message.
pub(crate) struct Reader<'a> {
    msg_type: &'static str,
    data: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `data`, a message of type `msg_type`.
    pub(crate) fn new(msg_type: &'static str, data: &'a [u8]) -> Self {
        Reader {
            msg_type,
            data,
            pos: 0,
        }
    }

    /// Bytes not read yet.
    pub(crate) fn remaining(&self) -> usize {
        self.data.len() - self.pos
    }

    /// A decode error at the current offset.
    pub(crate) fn error(&self, reason: impl std::fmt::Display) -> Error {
        Error::decode(
            self.msg_type,
            format!("{reason} (at byte offset {})", self.pos),
        )
    }

    /// The next `n` bytes, which hold the field `what`.
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8]> {
        if n > self.remaining() {
            return Err(self.error(format_args!(
                "truncated: field `{what}` needs {n} bytes, {} left",
                self.remaining()
            )));
        }
        let bytes = &self.data[self.pos..self.pos + n];
        self.pos += n;
        Ok(bytes)
    }

    /// The next `N` bytes as an array.
    fn array<const N: usize>(&mut self, what: &str) -> Result<[u8; N]> {
        let mut out = [0; N];
        out.copy_from_slice(self.take(N, what)?);
        Ok(out)
    }

    /// A `uint8` (or `byte`, `char`).
    pub(crate) fn u8(&mut self, what: &str) -> Result<u8> {
        Ok(self.array::<1>(what)?[0])
    }

    /// A `bool`: one byte, any value but 0 is `true` (as in roscpp).
    pub(crate) fn bool(&mut self, what: &str) -> Result<bool> {
        Ok(self.u8(what)? != 0)
    }

    /// A `uint32`.
    pub(crate) fn u32(&mut self, what: &str) -> Result<u32> {
        self.array(what).map(u32::from_le_bytes)
    }

    /// A `float32`.
    pub(crate) fn f32(&mut self, what: &str) -> Result<f32> {
        self.array(what).map(f32::from_le_bytes)
    }

    /// A `float64`.
    pub(crate) fn f64(&mut self, what: &str) -> Result<f64> {
        self.array(what).map(f64::from_le_bytes)
    }

    /// A `time`: seconds, then nanoseconds.
    pub(crate) fn time(&mut self, what: &str) -> Result<Time> {
        Ok(Time {
            sec: self.u32(what)?,
            nsec: self.u32(what)?,
        })
    }

    /// A length prefix of an array whose elements take `elem_size` bytes,
    /// checked against the bytes that are left before anything is
    /// allocated.
    fn len_prefix(&mut self, elem_size: usize, what: &str) -> Result<usize> {
        let start = self.pos;
        let len = self.u32(what)? as usize;
        match len.checked_mul(elem_size) {
            Some(bytes) if bytes <= self.remaining() => Ok(len),
            _ => {
                self.pos = start;
                let left = self.remaining();
                Err(self.error(format_args!(
                    "length prefix of `{what}` says {len} elements of {elem_size} bytes, \
                     only {} bytes follow",
                    left.saturating_sub(4)
                )))
            }
        }
    }

    /// A `uint8[]`, borrowed from the message.
    pub(crate) fn bytes(&mut self, what: &str) -> Result<&'a [u8]> {
        let len = self.len_prefix(1, what)?;
        self.take(len, what)
    }

    /// A `string`, borrowed from the message; it must be UTF-8.
    pub(crate) fn string(&mut self, what: &str) -> Result<Cow<'a, str>> {
        let start = self.pos;
        let bytes = self.bytes(what)?;
        std::str::from_utf8(bytes).map(Cow::Borrowed).map_err(|e| {
            let bad = start + 4 + e.valid_up_to();
            Error::decode(
                self.msg_type,
                format!("string `{what}` is not UTF-8 (invalid byte at byte offset {bad})"),
            )
        })
    }

    /// A `float64[]`.
    pub(crate) fn f64_seq(&mut self, what: &str) -> Result<Vec<f64>> {
        let len = self.len_prefix(8, what)?;
        (0..len).map(|_| self.f64(what)).collect()
    }

    /// A `float64[N]`.
    pub(crate) fn f64_array<const N: usize>(&mut self, what: &str) -> Result<[f64; N]> {
        let mut out = [0.0; N];
        for x in &mut out {
            *x = self.f64(what)?;
        }
        Ok(out)
    }

    /// A `float32[N]`.
    pub(crate) fn f32_array<const N: usize>(&mut self, what: &str) -> Result<[f32; N]> {
        let mut out = [0.0; N];
        for x in &mut out {
            *x = self.f32(what)?;
        }
        Ok(out)
    }
}

/// Decode a whole message of type `msg_type`. Bytes after the message are
/// ignored, as ROS readers do.
pub(crate) fn decode_message<'a, M: Decode<'a>>(
    msg_type: &'static str,
    data: &'a [u8],
) -> Result<M> {
    M::read(&mut Reader::new(msg_type, data))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn primitives_are_little_endian() {
        let mut out = Vec::new();
        1u32.write(&mut out).unwrap();
        true.write(&mut out).unwrap();
        "ab".write(&mut out).unwrap();
        [1.5f32, 2.0].write(&mut out).unwrap();
        Time { sec: 2, nsec: 3 }.write(&mut out).unwrap();
        let mut expected = vec![1, 0, 0, 0, 1, 2, 0, 0, 0, b'a', b'b'];
        expected.extend_from_slice(&1.5f32.to_le_bytes());
        expected.extend_from_slice(&2.0f32.to_le_bytes());
        expected.extend_from_slice(&[2, 0, 0, 0, 3, 0, 0, 0]);
        assert_eq!(out, expected);
    }

    #[test]
    fn huge_length_prefix_is_rejected_before_allocating() {
        let data = [0xff, 0xff, 0xff, 0xff, 1, 2, 3];
        let err = Reader::new("t/T", &data).f64_seq("D").unwrap_err();
        let text = err.to_string();
        assert!(
            text.contains("`D`") && text.contains("byte offset 0"),
            "{text}"
        );
    }

    #[test]
    fn truncation_names_field_and_offset() {
        let mut r = Reader::new("t/T", &[1, 0, 0, 0, 9]);
        assert_eq!(r.u32("a").unwrap(), 1);
        let text = r.u32("b").unwrap_err().to_string();
        assert!(text.contains("`b` needs 4 bytes, 1 left"), "{text}");
        assert!(text.contains("byte offset 4"), "{text}");
    }

    #[test]
    fn non_utf8_string_is_an_error() {
        let data = [3, 0, 0, 0, b'a', 0xff, b'b'];
        let text = Reader::new("t/T", &data)
            .string("s")
            .unwrap_err()
            .to_string();
        assert!(
            text.contains("not UTF-8") && text.contains("byte offset 5"),
            "{text}"
        );
    }

    #[test]
    fn a_length_beyond_u32_is_an_error_not_a_panic() {
        use crate::ErrorKind;

        let mut out = Vec::new();
        put_len(&mut out, u32::MAX as usize).expect("the largest length");
        assert_eq!(out, u32::MAX.to_le_bytes());
        out.clear();
        if let Some(len) = (u32::MAX as usize).checked_add(1) {
            let e = put_len(&mut out, len).expect_err("too long");
            assert_eq!(e.kind(), ErrorKind::InvalidArgument);
            assert_eq!(
                e.to_string(),
                "a string or array of 4294967296 elements is longer than ROS1 can encode (at most 4294967295 elements)"
            );
            assert!(out.is_empty(), "nothing was appended");
        }
    }
}
