//! RVL, the lossless depth compression of A. D. Wilson, "Fast Lossless
//! Depth Image Compression" (SIGCHI 2017), as image_transport's
//! `compressedDepth` plugin uses it: runs of zeros and of non-zero pixels,
//! each count and each non-zero pixel's zigzagged difference from the
//! previous non-zero pixel written as a variable-length code of 3-bit
//! groups (least significant first, the fourth bit saying "more"), the
//! 4-bit nibbles packed eight to a 32-bit word from its top, the words
//! little-endian.
//!
//! ```
//! use rsbag::ros_camera::rvl;
//! let depth = [0, 0, 1000, 1001, 999, 0, 65535];
//! let packed = rvl::compress(&depth);
//! assert_eq!(rvl::decompress(&packed, depth.len())?, depth);
//! # Ok::<(), rsbag::Error>(())
//! ```

use crate::{Error, Result};

fn bad(reason: impl Into<String>) -> Error {
    Error::decode("RVL depth image", reason)
}

/// Compress 16-bit depth pixels.
pub fn compress(pixels: &[u16]) -> Vec<u8> {
    let mut w = NibbleWriter::default();
    let mut previous = 0i32;
    let mut rest = pixels;
    while !rest.is_empty() {
        let zeros = rest.iter().take_while(|&&p| p == 0).count();
        rest = &rest[zeros..];
        let nonzeros = rest.iter().take_while(|&&p| p != 0).count();
        w.code(zeros as u64);
        w.code(nonzeros as u64);
        for &p in &rest[..nonzeros] {
            let delta = i32::from(p) - previous;
            // Zigzag: small differences of either sign are small codes.
            w.code(u64::from(((delta << 1) ^ (delta >> 31)) as u32));
            previous = i32::from(p);
        }
        rest = &rest[nonzeros..];
    }
    w.finish()
}

/// Decompress `count` pixels from RVL `data`. Data that ends early, or
/// whose runs overrun `count`, is an error; bytes after the last run are
/// ignored (as the plugin does).
pub fn decompress(data: &[u8], count: usize) -> Result<Vec<u16>> {
    let mut r = NibbleReader {
        data,
        word: 0,
        left: 0,
    };
    let mut out: Vec<u16> = Vec::with_capacity(count);
    let mut previous = 0u16;
    while out.len() < count {
        let zeros = r.run(count - out.len(), "zeros")?;
        out.resize(out.len() + zeros, 0);
        let nonzeros = r.run(count - out.len(), "non-zero pixels")?;
        for _ in 0..nonzeros {
            let positive = r.code()?;
            let delta = ((positive >> 1) as i64) ^ -((positive & 1) as i64);
            previous = previous.wrapping_add(delta as u16);
            out.push(previous);
        }
    }
    Ok(out)
}

#[derive(Default)]
struct NibbleWriter {
    out: Vec<u8>,
    word: u32,
    nibbles: u32,
}

impl NibbleWriter {
    fn code(&mut self, mut value: u64) {
        loop {
            let mut nibble = (value & 7) as u32;
            value >>= 3;
            if value != 0 {
                nibble |= 8;
            }
            self.word = (self.word << 4) | nibble;
            self.nibbles += 1;
            if self.nibbles == 8 {
                self.out.extend(self.word.to_le_bytes());
                (self.word, self.nibbles) = (0, 0);
            }
            if value == 0 {
                return;
            }
        }
    }

    fn finish(mut self) -> Vec<u8> {
        if self.nibbles > 0 {
            let word = self.word << (4 * (8 - self.nibbles));
            self.out.extend(word.to_le_bytes());
        }
        self.out
    }
}

struct NibbleReader<'a> {
    data: &'a [u8],
    word: u32,
    left: u32,
}

/// Nibbles in one code at most: 33 bits, more than any count or
/// difference of a valid image needs.
const MOST_NIBBLES: u32 = 11;

impl NibbleReader<'_> {
    fn nibble(&mut self) -> Result<u32> {
        if self.left == 0 {
            let Some((word, rest)) = self.data.split_first_chunk::<4>() else {
                return Err(bad("the data ends before the image"));
            };
            self.word = u32::from_le_bytes(*word);
            self.data = rest;
            self.left = 8;
        }
        let nibble = self.word >> 28;
        self.word <<= 4;
        self.left -= 1;
        Ok(nibble)
    }

    fn code(&mut self) -> Result<u64> {
        let mut value = 0u64;
        for group in 0..MOST_NIBBLES {
            let nibble = self.nibble()?;
            value |= u64::from(nibble & 7) << (3 * group);
            if nibble & 8 == 0 {
                return Ok(value);
            }
        }
        Err(bad("a code longer than 33 bits"))
    }

    /// A run length, at most `room`.
    fn run(&mut self, room: usize, what: &str) -> Result<usize> {
        let n = self.code()?;
        usize::try_from(n)
            .ok()
            .filter(|&n| n <= room)
            .ok_or_else(|| bad(format!("a run of {n} {what} where {room} pixels are left")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_runs_extremes_and_the_empty_image() {
        let cases: [Vec<u16>; 5] = [
            vec![],
            vec![0; 17],
            vec![65535, 1, 65535, 0, 0, 1],
            (0..5000).map(|i| ((i * 7919) % 65536) as u16).collect(),
            (0..999)
                .map(|i| if i % 3 == 0 { 0 } else { 800 + i as u16 })
                .collect(),
        ];
        for pixels in cases {
            let packed = compress(&pixels);
            assert_eq!(packed.len() % 4, 0);
            assert_eq!(decompress(&packed, pixels.len()).expect("decode"), pixels);
        }
    }

    #[test]
    fn the_words_are_the_papers() {
        // One zero, then two pixels 1 and 3: nibbles 1 (zeros), 2
        // (non-zeros), 2 (zigzag of +1), 4 (zigzag of +2), padded.
        assert_eq!(compress(&[0, 1, 3]), 0x1224_0000u32.to_le_bytes());
        // 9 zeros need two groups: 1 with "more", then 1.
        assert_eq!(compress(&[0; 9]), 0x9100_0000u32.to_le_bytes());
    }

    #[test]
    fn damaged_data_is_an_error() {
        let packed = compress(&[5, 6, 7, 0, 0, 9]);
        assert!(decompress(&packed[..2], 6).is_err());
        assert!(decompress(&packed, 5).is_err(), "a run past the end");
        assert!(decompress(&[0xff; 64], 100).is_err(), "a code too long");
        assert!(decompress(&[], 1).is_err());
    }
}
