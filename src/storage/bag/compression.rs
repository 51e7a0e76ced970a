//! Chunk compression: `none`, `lz4` (the standard LZ4 frame format) and `bz2`.

use std::io::{Read, Write};

use bytes::{BufMut, Bytes, BytesMut};

use crate::storage::compression::lz4::{self, Lz4Error};
use crate::{Error, Result};

/// How the data of a chunk is compressed.
///
/// ROS calls the LZ4 variant `lz4`; its bytes are a standard LZ4 *frame*
/// (magic `04 22 4D 18`). The ROS and librealsense decoder (`roslz4`)
/// accepts only independent blocks, no block checksums, no content size and a
/// content checksum, so [`Compression::Lz4`] writes exactly that.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Compression {
    /// Stored as is; readers can borrow message bytes straight from the file.
    None,
    /// LZ4 frame format, fast; what librealsense writes by default.
    #[default]
    Lz4,
    /// bzip2: smaller and much slower.
    Bz2,
}

impl Compression {
    /// All compressions, in the order of their names.
    pub const ALL: [Compression; 3] = [Compression::None, Compression::Lz4, Compression::Bz2];

    /// The name written in the chunk header.
    pub fn as_str(self) -> &'static str {
        match self {
            Compression::None => "none",
            Compression::Lz4 => "lz4",
            Compression::Bz2 => "bz2",
        }
    }

    /// The compression named `name` in a chunk header, if known.
    pub fn from_name(name: &[u8]) -> Option<Compression> {
        Compression::ALL
            .into_iter()
            .find(|c| c.as_str().as_bytes() == name)
    }

    /// Compress `data`, appending to `out`.
    pub fn compress(self, data: &[u8], out: &mut Vec<u8>) {
        self.compress_batch(&[&[data]], std::slice::from_mut(out));
    }

    /// Compress each of `chunks`, given as the pieces it is made of, onto
    /// the end of the buffer of `out` at its index. The LZ4 checksums of
    /// a batch are taken side by side, several times faster than one after
    /// the other: why chunks are compressed in batches.
    pub(crate) fn compress_batch(self, chunks: &[&[&[u8]]], out: &mut [Vec<u8>]) {
        assert_eq!(chunks.len(), out.len(), "a buffer per chunk");
        match self {
            Compression::None => {
                for (pieces, out) in chunks.iter().zip(out) {
                    pieces.iter().for_each(|piece| out.extend_from_slice(piece));
                }
            }
            Compression::Lz4 => lz4::encode_frames(chunks, out),
            Compression::Bz2 => {
                for (pieces, out) in chunks.iter().zip(out) {
                    bz2_compress(pieces, out);
                }
            }
        }
    }

    /// Decompress the data of the chunk record at `offset`, which must
    /// expand to exactly `size` bytes.
    pub fn decompress(self, data: &[u8], size: u32, offset: u64) -> Result<Bytes> {
        self.decompress_into(data, size, offset, BytesMut::new())
    }

    /// [`decompress`](Self::decompress) into `buffer`, whose contents are
    /// discarded and whose allocation is reused when large enough: a reader
    /// that hands back the buffers of chunks it is done with spares the
    /// allocator and the kernel a fresh, zeroed buffer per chunk.
    pub fn decompress_into(
        self,
        data: &[u8],
        size: u32,
        offset: u64,
        mut buffer: BytesMut,
    ) -> Result<Bytes> {
        let size = size as usize;
        let decoded = match self {
            Compression::None => {
                buffer.clear();
                buffer.extend_from_slice(data);
                Ok(())
            }
            Compression::Lz4 => lz4_decompress(data, size, &mut buffer),
            // bzip2 may expand a run of equal bytes a millionfold: room
            // grows with what is decoded.
            Compression::Bz2 => read_limited(
                bzip2::read::BzDecoder::new(data),
                data.len().saturating_mul(4),
                size,
                &mut buffer,
            ),
        };
        decoded
            .map_err(|e| Error::corrupt("chunk", offset, format!("{} data: {e}", self.as_str())))?;
        if buffer.len() != size {
            return Err(Error::corrupt(
                "chunk",
                offset,
                format!(
                    "{} data expands to {} bytes but the header says {size}",
                    self.as_str(),
                    buffer.len()
                ),
            ));
        }
        Ok(buffer.freeze())
    }
}

impl std::fmt::Display for Compression {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for Compression {
    type Err = Error;

    fn from_str(s: &str) -> Result<Compression> {
        Compression::from_name(s.as_bytes()).ok_or_else(|| {
            Error::InvalidArgument(format!(
                "unknown compression {s:?} (expected none, lz4 or bz2)"
            ))
        })
    }
}

/// Decode at most `size + 1` bytes into `out`, so that a lying header
/// cannot make us inflate without bound. Room for `room` bytes (what the
/// data can really expand to, when that is known) is made first; beyond,
/// the buffer grows with what is decoded, never with what a header claims.
fn read_limited(
    decoder: impl Read,
    room: usize,
    size: usize,
    out: &mut BytesMut,
) -> std::io::Result<()> {
    out.clear();
    out.reserve(size.min(room));
    let mut writer = std::mem::take(out).writer();
    std::io::copy(&mut decoder.take(size as u64 + 1), &mut writer)?;
    *out = writer.into_inner();
    Ok(())
}

/// The frames ROS and librealsense write are decoded straight into place;
/// any other valid frame, and a header size no frame of `data` could
/// expand to, by the general decoder (which reads no more than `size + 1`
/// bytes, and so reports the mismatch).
fn lz4_decompress(data: &[u8], size: usize, out: &mut BytesMut) -> std::io::Result<()> {
    // The block headers bound what the frames can expand to: a header that
    // claims more is refused before anything is allocated for it.
    let most = lz4::max_decoded_len(data);
    if let Some(most) = most.filter(|&most| size > most) {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("the chunk header says {size} bytes, but its frames hold at most {most}"),
        ));
    }
    if most.is_some() {
        // The frame overwrites every byte: a reused buffer's bytes are kept
        // as they are rather than zeroed, and only growth is zeroed.
        if out.capacity() < size {
            out.clear();
        }
        out.truncate(size);
        out.resize(size, 0);
        match lz4::decode_frame(data, out) {
            Ok(()) => return Ok(()),
            Err(Lz4Error::Corrupt(reason)) => {
                return Err(std::io::Error::new(std::io::ErrorKind::InvalidData, reason))
            }
            Err(Lz4Error::Unsupported) => {}
        }
    }
    let room = most.unwrap_or(data.len());
    read_limited(lz4_flex::frame::FrameDecoder::new(data), room, size, out)
}

fn bz2_compress(pieces: &[&[u8]], out: &mut Vec<u8>) {
    let mut encoder = bzip2::write::BzEncoder::new(out, bzip2::Compression::default());
    // Writing into a Vec cannot fail.
    for piece in pieces {
        let _ = encoder.write_all(piece);
    }
    let _ = encoder.finish();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_compression_round_trips() {
        let data: Vec<u8> = (0..100_000u32).map(|i| (i % 251) as u8).collect();
        for c in Compression::ALL {
            let mut packed = Vec::new();
            c.compress(&data, &mut packed);
            let unpacked = c
                .decompress(&packed, data.len() as u32, 0)
                .expect("decompress");
            assert_eq!(unpacked, data, "{c}");
        }
    }

    #[test]
    fn lz4_frame_header_is_what_roslz4_accepts() {
        let mut packed = Vec::new();
        Compression::Lz4.compress(b"hello hello hello", &mut packed);
        assert_eq!(&packed[..4], &[0x04, 0x22, 0x4D, 0x18]);
        // Version 01, independent blocks, content checksum; 1 MB blocks:
        // the flags librealsense 2.55 writes.
        assert_eq!(packed[4], 0x64);
        assert_eq!(packed[5], 0x60);
    }

    #[test]
    fn wrong_size_and_garbage_are_errors() {
        let mut packed = Vec::new();
        Compression::Lz4.compress(b"abcdef", &mut packed);
        assert!(Compression::Lz4.decompress(&packed, 5, 0).is_err());
        assert!(Compression::Lz4.decompress(&packed, 7, 0).is_err());
        assert!(Compression::Lz4.decompress(b"garbage", 7, 0).is_err());
        assert!(Compression::Bz2.decompress(b"garbage", 7, 0).is_err());
        assert!(Compression::None.decompress(b"abc", 4, 0).is_err());
    }
}
