//! A decoder for the LZ4 frames of ROS bag chunks that writes each block
//! straight into the chunk's buffer.
//!
//! A general frame decoder (`lz4_flex::frame::FrameDecoder`) decodes every
//! block into a buffer of its own and copies it out through `Read`; for
//! chunks of camera frames, which are often nearly incompressible and so
//! stored as raw blocks, those copies cost as much as the decoding. The
//! frames ROS, librealsense and Python's `lz4` (the `rosbags` writer)
//! write (independent or linked blocks, no dictionary, one frame per
//! chunk) are decoded here block by block into their final place, and the
//! content checksum is computed over each block as it is copied (a stored
//! block) or just after it is decoded. Any other frame is
//! [`Lz4Error::Unsupported`], for the general decoder.

use super::xxh32::{update_many, Xxh32};

const MAGIC: u32 = 0x184D_2204;
const FLAG_VERSION_MASK: u8 = 0b1100_0000;
const FLAG_VERSION_01: u8 = 0b0100_0000;
const FLAG_INDEPENDENT_BLOCKS: u8 = 1 << 5;
const FLAG_BLOCK_CHECKSUMS: u8 = 1 << 4;
const FLAG_CONTENT_SIZE: u8 = 1 << 3;
const FLAG_CONTENT_CHECKSUM: u8 = 1 << 2;
const FLAG_DICTIONARY_ID: u8 = 1;
/// The high bit of a block's size: the block is stored, not compressed.
const BLOCK_STORED: u32 = 1 << 31;
/// How far back a block of a frame with linked blocks may reach into the
/// blocks before it: LZ4's window.
const WINDOW: usize = 64 << 10;

/// Why a frame was not decoded.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Lz4Error {
    /// A valid frame this decoder does not handle (linked blocks, a
    /// dictionary, several frames): decode it with the general decoder.
    Unsupported,
    /// The data is not a valid frame, or does not expand to the expected
    /// size.
    Corrupt(String),
}

fn corrupt(reason: impl Into<String>) -> Lz4Error {
    Lz4Error::Corrupt(reason.into())
}

/// Decode the single LZ4 frame `data`, which must expand to exactly
/// `out.len()` bytes, into `out`.
pub(crate) fn decode_frame(data: &[u8], out: &mut [u8]) -> Result<(), Lz4Error> {
    let mut input = Input { data, pos: 0 };
    let header = read_header(&mut input)?;
    let mut hasher = header.content_checksum.then(|| Xxh32::new(0));
    let mut at = 0;
    loop {
        let word = input.u32("block size")?;
        if word == 0 {
            break;
        }
        let len = (word & !BLOCK_STORED) as usize;
        if len > header.block_size {
            return Err(corrupt(format!(
                "a block of {len} bytes in a frame of {}-byte blocks",
                header.block_size
            )));
        }
        let block = input.bytes(len, "block")?;
        if header.block_checksums {
            input.u32("block checksum")?;
        }
        let room = (out.len() - at).min(header.block_size);
        if word & BLOCK_STORED != 0 {
            if len > room {
                return Err(too_long(out.len()));
            }
            let target = &mut out[at..at + len];
            match hasher.as_mut() {
                Some(h) => h.copy_and_update(block, target),
                None => target.copy_from_slice(block),
            }
            at += len;
        } else {
            // Linked blocks may copy from the last 64 KiB decoded before
            // them, which are already in place just before `at`.
            let (decoded, rest) = out.split_at_mut(at);
            let target = &mut rest[..room];
            let decoded = if header.linked_blocks {
                let window = &decoded[at.saturating_sub(WINDOW)..];
                lz4_flex::block::decompress_into_with_dict(block, target, window)
            } else {
                lz4_flex::block::decompress_into(block, target)
            };
            let n = decoded
                .map_err(|e| corrupt(format!("block at frame offset {}: {e}", input.pos - len)))?;
            if let Some(h) = hasher.as_mut() {
                h.update(&target[..n]);
            }
            at += n;
        }
    }
    if let Some(h) = hasher {
        let expected = input.u32("content checksum")?;
        if h.finish() != expected {
            return Err(corrupt("content checksum mismatch"));
        }
    }
    if input.pos != data.len() {
        // Another frame (or skippable frame) follows.
        return Err(Lz4Error::Unsupported);
    }
    if at != out.len() {
        return Err(corrupt(format!(
            "frame expands to {at} bytes, expected {}",
            out.len()
        )));
    }
    Ok(())
}

/// The longest block [`encode_frames`] writes: blocks of 256 KiB, hashed
/// for four chunks side by side, are still in the processor's cache when
/// they are compressed just after. (LZ4 looks back 64 KiB at most, so
/// longer blocks would hardly compress better.)
const ENCODE_BLOCK: usize = 256 << 10;
/// Block-size descriptor byte for blocks of at most 1 MiB, what
/// librealsense and ROS write.
const DESCRIPTOR_1MB: u8 = 6 << 4;
/// How many chunks [`encode_frames`] hashes side by side.
const LANES: usize = 4;

thread_local! {
    /// Where each block is compressed before it is appended: reused, so
    /// that no thread zeroes a fresh one per chunk.
    static BLOCK_SCRATCH: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Append to each buffer of `outs` one LZ4 frame of the chunk of `chunks`
/// at its index, given as the pieces it is made of: independent blocks
/// with a content checksum and neither block checksums nor a content
/// size, the only frame the ROS and librealsense decoder (`roslz4`)
/// accepts. A block that does not shrink is stored.
///
/// The checksums (xxHash32, every byte) cost more than compressing camera
/// frames, and one is bound by the latency of its multiplications, so
/// the chunks are spread over four lanes of about equal bytes, whose
/// checksums are taken side by side ([`update_many`]), a block of each
/// lane at a time; each block is then compressed while it is in cache.
/// Each block is compressed straight from its piece (a general frame
/// encoder, `lz4_flex::frame::FrameEncoder`, first copies every byte into
/// a block buffer of its own), so no block spans two pieces: blocks are
/// up to 256 KiB and may be shorter anywhere in a frame, which the frame
/// format allows and `roslz4` reads (block by block, whatever each
/// block's size up to the frame's 1 MiB).
pub(crate) fn encode_frames(chunks: &[&[&[u8]]], outs: &mut [Vec<u8>]) {
    assert_eq!(chunks.len(), outs.len(), "a buffer per chunk");
    let flags = FLAG_VERSION_01 | FLAG_INDEPENDENT_BLOCKS | FLAG_CONTENT_CHECKSUM;
    let descriptor = [flags, DESCRIPTOR_1MB];
    for out in outs.iter_mut() {
        out.extend_from_slice(&MAGIC.to_le_bytes());
        out.extend_from_slice(&descriptor);
        out.push((Xxh32::oneshot(0, &descriptor) >> 8) as u8);
    }
    let blocks: Vec<Vec<&[u8]>> = (chunks.iter())
        .map(|pieces| {
            (pieces.iter())
                .flat_map(|p| p.chunks(ENCODE_BLOCK))
                .collect()
        })
        .collect();
    let mut lanes = spread_over_lanes(chunks);
    let mut hashers = vec![Xxh32::new(0); chunks.len()];
    let mut next_block = vec![0; chunks.len()];
    BLOCK_SCRATCH.with_borrow_mut(|scratch| {
        let room = lz4_flex::block::get_maximum_output_size(ENCODE_BLOCK);
        if scratch.len() < room {
            scratch.resize(room, 0);
        }
        loop {
            // The next block of each lane's chunk at hand.
            let mut step: Vec<(usize, &[u8])> = Vec::with_capacity(LANES);
            for lane in &mut lanes {
                while let Some(&chunk) = lane.last() {
                    if let Some(&block) = blocks[chunk].get(next_block[chunk]) {
                        next_block[chunk] += 1;
                        step.push((chunk, block));
                        break;
                    }
                    lane.pop();
                }
            }
            if step.is_empty() {
                break;
            }
            let mut stepping: Vec<Xxh32> = step.iter().map(|&(c, _)| hashers[c].clone()).collect();
            let data: Vec<[&[u8]; 1]> = step.iter().map(|&(_, block)| [block]).collect();
            let data: Vec<&[&[u8]]> = data.iter().map(|d| &d[..]).collect();
            update_many(&mut stepping, &data);
            for ((chunk, block), hasher) in step.into_iter().zip(stepping) {
                hashers[chunk] = hasher;
                append_block(block, scratch, &mut outs[chunk]);
            }
        }
    });
    for (out, hasher) in outs.iter_mut().zip(hashers) {
        out.extend_from_slice(&0u32.to_le_bytes());
        out.extend_from_slice(&hasher.finish().to_le_bytes());
    }
}

/// The chunks (their indices) of each of [`LANES`] lanes, in the order a
/// lane takes them from its end: the longest first, each to the lane with
/// the fewest bytes so far, so that the lanes end about together.
fn spread_over_lanes(chunks: &[&[&[u8]]]) -> Vec<Vec<usize>> {
    let len = |chunk: usize| chunks[chunk].iter().map(|p| p.len()).sum::<usize>();
    let mut order: Vec<usize> = (0..chunks.len()).collect();
    order.sort_by_key(|&chunk| std::cmp::Reverse(len(chunk)));
    let mut lanes = vec![(0usize, Vec::new()); LANES.min(chunks.len())];
    for chunk in order {
        if let Some(lane) = lanes.iter_mut().min_by_key(|(bytes, _)| *bytes) {
            lane.0 += len(chunk);
            lane.1.insert(0, chunk);
        }
    }
    lanes.into_iter().map(|(_, chunks)| chunks).collect()
}

/// Append `block` to a frame, compressed in `scratch` (room for any
/// block's worst case) if that makes it shorter, stored if not.
fn append_block(block: &[u8], scratch: &mut [u8], out: &mut Vec<u8>) {
    match lz4_flex::block::compress_into(block, scratch) {
        Ok(n) if n < block.len() => {
            out.extend_from_slice(&(n as u32).to_le_bytes());
            out.extend_from_slice(&scratch[..n]);
        }
        _ => {
            out.extend_from_slice(&(block.len() as u32 | BLOCK_STORED).to_le_bytes());
            out.extend_from_slice(block);
        }
    }
}

/// Decode what can be decoded of an LZ4 frame that the end of `data` cuts
/// off, at most `limit` bytes: its whole blocks, and of the block the cut
/// falls in, every sequence before the cut. A block is a run of sequences,
/// each literal bytes then a copy of bytes decoded before it, so what its
/// complete sequences decode to is exactly the start of what the whole
/// block decodes to. No checksum is checked (the content checksum lies
/// past the cut); decoding stops at the first thing that is not valid.
pub(crate) fn decode_cut_frame(data: &[u8], limit: usize) -> Vec<u8> {
    let mut input = Input { data, pos: 0 };
    let mut out = Vec::new();
    let Ok(header) = read_header(&mut input) else {
        return out;
    };
    while out.len() < limit {
        let Ok(word) = input.u32("block size") else {
            break;
        };
        let len = (word & !BLOCK_STORED) as usize;
        if word == 0 || len > header.block_size {
            break;
        }
        let rest = &data[input.pos..];
        let block = &rest[..len.min(rest.len())];
        let room = limit - out.len();
        if word & BLOCK_STORED != 0 {
            out.extend_from_slice(&block[..block.len().min(room)]);
        } else {
            // Linked blocks may copy from the blocks before them.
            let floor = if header.linked_blocks { 0 } else { out.len() };
            let whole = decode_block_prefix(block, &mut out, limit, floor);
            if !whole && block.len() == len {
                // A whole block that does not decode: damage, not a cut.
                break;
            }
        }
        if block.len() < len || input.bytes(len, "block").is_err() {
            break;
        }
        if header.block_checksums && input.u32("block checksum").is_err() {
            break;
        }
    }
    out
}

/// Append to `out` what the sequences of the LZ4 block `block` decode to,
/// up to the first one `block` does not hold whole, one that is not valid
/// (a copy from before `floor` or from nowhere), or `limit` bytes of
/// `out`. Whether the whole block was decoded.
fn decode_block_prefix(block: &[u8], out: &mut Vec<u8>, limit: usize, floor: usize) -> bool {
    // A length of 15 goes on in bytes, each added, up to one under 255.
    let length = |mut n: usize, at: &mut usize| -> Option<usize> {
        if n == 15 {
            loop {
                let byte = *block.get(*at)?;
                *at += 1;
                n = n.checked_add(usize::from(byte))?;
                if byte != 255 {
                    break;
                }
            }
        }
        Some(n)
    };
    let mut at = 0;
    loop {
        // A block ends with literals, never here.
        let Some(&token) = block.get(at) else {
            return false;
        };
        at += 1;
        let Some(literal_len) = length(usize::from(token >> 4), &mut at) else {
            return false;
        };
        let Some(literals) = at
            .checked_add(literal_len)
            .and_then(|end| block.get(at..end))
        else {
            return false;
        };
        if literal_len > limit - out.len() {
            return false;
        }
        out.extend_from_slice(literals);
        at += literal_len;
        // The last sequence of a block is literals only.
        if at == block.len() {
            return true;
        }
        let Some(offset) = block.get(at..at + 2) else {
            return false;
        };
        let offset = usize::from(u16::from_le_bytes([offset[0], offset[1]]));
        at += 2;
        let Some(match_len) = length(usize::from(token & 15), &mut at) else {
            return false;
        };
        let match_len = match_len + 4;
        if offset == 0 || offset > out.len() - floor || match_len > limit - out.len() {
            return false;
        }
        // The copy may overlap what it writes: a piece at a time, each
        // no longer than the distance it reaches back.
        let mut left = match_len;
        while left > 0 {
            let start = out.len() - offset;
            let piece = left.min(offset);
            out.extend_from_within(start..start + piece);
            left -= piece;
        }
    }
}

fn too_long(size: usize) -> Lz4Error {
    corrupt(format!(
        "frame expands to more than the expected {size} bytes"
    ))
}

struct FrameHeader {
    block_size: usize,
    linked_blocks: bool,
    block_checksums: bool,
    content_checksum: bool,
}

fn read_header(input: &mut Input<'_>) -> Result<FrameHeader, Lz4Error> {
    if input.u32("magic number")? != MAGIC {
        // Possibly a skippable frame first, or not LZ4 at all: the general
        // decoder tells which.
        return Err(Lz4Error::Unsupported);
    }
    let descriptor_start = input.pos;
    let flags = input.u8("frame flags")?;
    let block_descriptor = input.u8("block descriptor")?;
    if flags & FLAG_VERSION_MASK != FLAG_VERSION_01 {
        return Err(corrupt(format!(
            "unknown frame version in flags {flags:#04x}"
        )));
    }
    if flags & FLAG_DICTIONARY_ID != 0 {
        return Err(Lz4Error::Unsupported);
    }
    let block_size = block_size_of(block_descriptor).ok_or_else(|| {
        corrupt(format!(
            "invalid block size in descriptor {block_descriptor:#04x}"
        ))
    })?;
    if flags & FLAG_CONTENT_SIZE != 0 {
        input.bytes(8, "content size")?;
    }
    let descriptor = &input.data[descriptor_start..input.pos];
    let expected = (Xxh32::oneshot(0, descriptor) >> 8) as u8;
    if input.u8("header checksum")? != expected {
        return Err(corrupt("frame header checksum mismatch"));
    }
    Ok(FrameHeader {
        block_size,
        linked_blocks: flags & FLAG_INDEPENDENT_BLOCKS == 0,
        block_checksums: flags & FLAG_BLOCK_CHECKSUMS != 0,
        content_checksum: flags & FLAG_CONTENT_CHECKSUM != 0,
    })
}

/// The largest block of a frame whose block descriptor is `descriptor`.
fn block_size_of(descriptor: u8) -> Option<usize> {
    match (descriptor >> 4) & 0b111 {
        4 => Some(64 << 10),
        5 => Some(256 << 10),
        6 => Some(1 << 20),
        7 => Some(4 << 20),
        _ => None,
    }
}

/// The most bytes the LZ4 frames `data` can expand to, from their block
/// headers: a stored block its own size, a compressed one at most the
/// frame's block size. `None` when `data` is not a sequence of whole
/// frames. This bounds what a chunk is given room for, whatever its
/// header claims.
pub(crate) fn max_decoded_len(data: &[u8]) -> Option<usize> {
    let mut input = Input { data, pos: 0 };
    let mut total = 0usize;
    while input.pos < data.len() {
        let magic = input.u32("magic number").ok()?;
        if magic & 0xFFFF_FFF0 == 0x184D_2A50 {
            // A skippable frame holds no data.
            let len = input.u32("skippable frame size").ok()? as usize;
            input.bytes(len, "skippable frame").ok()?;
            continue;
        }
        if magic != MAGIC {
            return None;
        }
        let flags = input.u8("frame flags").ok()?;
        let block_size = block_size_of(input.u8("block descriptor").ok()?)?;
        let extra = if flags & FLAG_CONTENT_SIZE != 0 { 8 } else { 0 };
        let extra = extra
            + if flags & FLAG_DICTIONARY_ID != 0 {
                4
            } else {
                0
            };
        input.bytes(extra + 1, "frame header").ok()?;
        loop {
            let word = input.u32("block size").ok()?;
            if word == 0 {
                break;
            }
            let len = (word & !BLOCK_STORED) as usize;
            input.bytes(len, "block").ok()?;
            if flags & FLAG_BLOCK_CHECKSUMS != 0 {
                input.u32("block checksum").ok()?;
            }
            let most = if word & BLOCK_STORED != 0 {
                len
            } else {
                block_size
            };
            total = total.checked_add(most)?;
        }
        if flags & FLAG_CONTENT_CHECKSUM != 0 {
            input.u32("content checksum").ok()?;
        }
    }
    Some(total)
}

/// The frame's bytes with a read position; reads past the end are errors
/// that say what was cut short.
struct Input<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Input<'a> {
    fn bytes(&mut self, n: usize, what: &str) -> Result<&'a [u8], Lz4Error> {
        let end = self.pos.checked_add(n).filter(|&e| e <= self.data.len());
        let end = end.ok_or_else(|| {
            corrupt(format!(
                "frame ends inside its {what} (at frame offset {})",
                self.pos
            ))
        })?;
        let bytes = &self.data[self.pos..end];
        self.pos = end;
        Ok(bytes)
    }

    fn u8(&mut self, what: &str) -> Result<u8, Lz4Error> {
        Ok(self.bytes(1, what)?[0])
    }

    fn u32(&mut self, what: &str) -> Result<u32, Lz4Error> {
        let b = self.bytes(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lz4_flex::frame::{BlockMode, BlockSize, FrameEncoder, FrameInfo};
    use std::io::Write;

    fn encode(data: &[u8], info: FrameInfo) -> Vec<u8> {
        let mut encoder = FrameEncoder::with_frame_info(info, Vec::new());
        encoder.write_all(data).expect("write");
        encoder.finish().expect("finish")
    }

    /// Frames `encode_frame` writes decode with lz4_flex's general decoder
    /// (an independent reader) and with ours, whether their blocks are
    /// compressed, stored (noise), cut short or short in the middle (a
    /// frame of several pieces), and say what roslz4 needs.
    #[test]
    fn encoded_frames_decode_elsewhere() {
        use std::io::Read;
        let mut state = 0x1234_5678u32;
        let noise: Vec<u8> = (0..(3 << 20) + 12_345)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 17;
                state ^= state << 5;
                state as u8
            })
            .collect();
        let runs: Vec<u8> = (0..(2 << 20) + 7).map(|i| (i / 1000) as u8).collect();
        let mixed: Vec<u8> = [&runs[..], &noise[..(1 << 20) + 3]].concat();
        let pieces = [
            &runs[..5],
            &noise[..(1 << 20) + 100],
            &[],
            &runs[7..300_011],
        ];
        let joined = pieces.concat();
        for (pieces, data) in [
            (vec![&[][..]], &[][..]),
            (vec![b"abc"], b"abc"),
            (vec![&runs[..]], &runs),
            (vec![&noise[..]], &noise),
            (vec![&mixed[..]], &mixed),
            (pieces.to_vec(), &joined),
        ] {
            let mut frame = vec![0xEE];
            encode_frames(&[&pieces], std::slice::from_mut(&mut frame));
            let frame = &frame[1..];
            assert_eq!(&frame[4..6], &[0x64, 0x60], "roslz4's flags, 1 MiB blocks");
            let mut general = Vec::new();
            lz4_flex::frame::FrameDecoder::new(frame)
                .read_to_end(&mut general)
                .expect("lz4_flex decodes it");
            assert!(general == data);
            let mut ours = vec![0; data.len()];
            decode_frame(frame, &mut ours).expect("ours decodes it");
            assert!(ours == data);
        }
    }

    /// Every cut of a frame decodes to a start of its data, and the more
    /// of the frame there is, the more of the data, up to all of it.
    #[test]
    fn a_cut_frame_decodes_to_a_start_of_its_data() {
        let data = mixed(150_000);
        let linked = FrameInfo::new()
            .block_size(BlockSize::Max64KB)
            .block_mode(BlockMode::Linked);
        for info in [
            independent(),
            linked,
            FrameInfo::new().content_checksum(true),
        ] {
            let frame = encode(&data, info);
            let mut last = 0;
            for cut in (0..=frame.len()).step_by(97).chain([frame.len()]) {
                let decoded = decode_cut_frame(&frame[..cut], data.len());
                assert_eq!(decoded, data[..decoded.len()], "cut at {cut}");
                assert!(decoded.len() >= last, "cut at {cut}");
                last = decoded.len();
            }
            assert_eq!(last, data.len());
            // Most of what lies before a cut decodes: all but the sequence
            // the cut falls in.
            let half = decode_cut_frame(&frame[..frame.len() / 2], data.len());
            assert!(half.len() > data.len() / 3, "{} bytes", half.len());
            // Never more than asked for.
            let capped = decode_cut_frame(&frame, 1000);
            assert!(capped.len() <= 1000 && capped == data[..capped.len()]);
        }
        // The frames of librealsense (1 MB blocks): one block per chunk.
        let bag = std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/sample_bags/librealsense-depth-color-lz4.bag"
        ))
        .expect("sample");
        let whole = crate::storage::bag::Bag::from_bytes(bag).expect("bag");
        let chunk = &whole.chunks()[0];
        let bytes = whole.chunk_bytes(chunk).expect("chunk");
        let (_, size, record) = whole.chunk_header(chunk, &bytes).expect("chunk");
        let data = whole.chunk_data(chunk).expect("data");
        let cut = decode_cut_frame(&record.data[..record.data.len() / 2], size as usize);
        assert_eq!(cut, data[..cut.len()]);
        assert!(cut.len() > 20_000, "{} of {}", cut.len(), data.len());
        assert_eq!(decode_cut_frame(record.data, size as usize), data);
    }

    fn independent() -> FrameInfo {
        FrameInfo::new()
            .block_size(BlockSize::Max64KB)
            .block_mode(BlockMode::Independent)
    }

    /// Compressible text, then incompressible noise (stored blocks).
    fn mixed(len: usize) -> Vec<u8> {
        let mut state = 0x1234_5678u32;
        (0..len)
            .map(|i| {
                if i < len / 2 {
                    (i % 97) as u8
                } else {
                    state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                    (state >> 24) as u8
                }
            })
            .collect()
    }

    #[test]
    fn the_decoded_length_is_bounded_by_the_block_headers() {
        let data = mixed(300_000);
        for info in [independent(), independent().content_checksum(true)] {
            let frame = encode(&data, info);
            let bound = max_decoded_len(&frame).expect("a whole frame");
            assert!(bound >= data.len(), "{bound}");
            // At most one block's worth of slack per compressed block.
            assert!(bound <= data.len() + 5 * (64 << 10), "{bound}");
            let two: Vec<u8> = frame.iter().chain(&frame).copied().collect();
            assert_eq!(max_decoded_len(&two), Some(2 * bound));
            assert_eq!(max_decoded_len(&frame[..frame.len() - 3]), None);
        }
        // A megabyte of zeros: a handful of bytes that may expand to 1 MB.
        let zeros = encode(&vec![0; 1 << 20], independent());
        assert!(zeros.len() < 10_000);
        assert_eq!(max_decoded_len(&zeros), Some(16 * (64 << 10)));
        assert_eq!(max_decoded_len(b"not lz4 at all"), None);
    }

    #[test]
    fn decodes_what_the_reference_encoder_writes() {
        let data = mixed(300_000);
        for info in [
            independent(),
            independent().content_checksum(true),
            independent().block_checksums(true).content_checksum(true),
            independent().content_size(Some(data.len() as u64)),
            independent().block_mode(BlockMode::Linked),
            independent()
                .block_mode(BlockMode::Linked)
                .content_checksum(true),
        ] {
            let frame = encode(&data, info);
            let mut out = vec![0u8; data.len()];
            decode_frame(&frame, &mut out).expect("decode");
            assert_eq!(out, data);
        }
    }

    /// Every chunk of librealsense's LZ4 bags takes the direct path, and
    /// decodes to what the general decoder makes of it.
    #[test]
    fn librealsense_chunks_decode_in_place() {
        use crate::storage::bag::{Bag, Compression};
        use std::io::Read;
        let root = env!("CARGO_MANIFEST_DIR");
        let mut chunks = 0;
        for name in [
            "sample_bags/librealsense-depth-color-lz4.bag",
            "sample_bags/librealsense-motion-lz4.bag",
            "sample_bags/librealsense-metadata-lz4.bag",
        ] {
            let bag = Bag::open(format!("{root}/{name}")).expect("bag");
            for chunk in bag.chunks() {
                let bytes = bag.chunk_bytes(chunk).expect("chunk");
                let (compression, size, record) = bag.chunk_header(chunk, &bytes).expect("chunk");
                assert_eq!(compression, Compression::Lz4, "{name}");
                let mut out = vec![0u8; size as usize];
                decode_frame(record.data, &mut out).expect("direct path");
                let mut general = Vec::new();
                lz4_flex::frame::FrameDecoder::new(record.data)
                    .read_to_end(&mut general)
                    .expect("general decoder");
                assert_eq!(out, general, "{name}");
                chunks += 1;
            }
        }
        assert!(chunks >= 3);
    }

    #[test]
    fn empty_frame_decodes_to_nothing() {
        let frame = encode(b"", independent().content_checksum(true));
        decode_frame(&frame, &mut []).expect("decode");
    }

    /// Linked blocks reach back into the blocks before them: the
    /// periodic half of `mixed` is mostly matches across block boundaries.
    #[test]
    fn linked_blocks_decode_in_place() {
        let data = mixed(300_000);
        let linked = encode(&data, independent().block_mode(BlockMode::Linked));
        let independent_frame = encode(&data, independent());
        assert!(linked.len() < independent_frame.len());
        let mut out = vec![0u8; data.len()];
        decode_frame(&linked, &mut out).expect("decode");
        assert_eq!(out, data);
    }

    #[test]
    fn concatenated_frames_are_left_to_the_general_decoder() {
        let data = mixed(2000);
        let mut twice = encode(&data[..1000], independent());
        twice.extend(encode(&data[1000..], independent()));
        let mut out = vec![0u8; 1000];
        assert_eq!(decode_frame(&twice, &mut out), Err(Lz4Error::Unsupported));
    }

    #[test]
    fn damage_and_wrong_sizes_are_errors() {
        let data = mixed(200_000);
        let frame = encode(&data, independent().content_checksum(true));
        let decode = |frame: &[u8], size| decode_frame(frame, &mut vec![0u8; size]);
        assert!(matches!(
            decode(&frame, data.len() - 1),
            Err(Lz4Error::Corrupt(_))
        ));
        assert!(matches!(
            decode(&frame, data.len() + 1),
            Err(Lz4Error::Corrupt(_))
        ));
        assert!(matches!(
            decode(&frame[..frame.len() - 9], data.len()),
            Err(Lz4Error::Corrupt(_))
        ));
        // A flipped bit in a stored block: only the checksum notices.
        let mut flipped = frame.clone();
        let at = flipped.len() - 100;
        flipped[at] ^= 1;
        assert_eq!(
            decode(&flipped, data.len()),
            Err(corrupt("content checksum mismatch"))
        );
        let mut header = frame.clone();
        header[6] ^= 0x10;
        assert!(matches!(
            decode(&header, data.len()),
            Err(Lz4Error::Corrupt(_))
        ));
    }

    /// Whatever byte is damaged, decoding ends in an error, never a panic
    /// or wrong data: the checksums cover every byte that matters.
    #[test]
    fn every_damaged_byte_is_survived() {
        let data = mixed(3000);
        for info in [independent(), independent().block_mode(BlockMode::Linked)] {
            every_damaged_byte_is_survived_in(&encode(&data, info.content_checksum(true)), &data);
        }
    }

    fn every_damaged_byte_is_survived_in(frame: &[u8], data: &[u8]) {
        for at in 0..frame.len() {
            for flip in [0x01, 0x80, 0xff] {
                let mut damaged = frame.to_vec();
                damaged[at] ^= flip;
                let mut out = vec![0u8; data.len()];
                if decode_frame(&damaged, &mut out).is_ok() {
                    assert_eq!(out, data, "byte {at} ^ {flip:#x}");
                }
            }
        }
    }
}
