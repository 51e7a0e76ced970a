//! Damaged copies of small RealSense recordings, for the tests of reading
//! past damage (the library's and the command line's).

use std::path::{Path, PathBuf};

use rsbag::recording::FrameReader;
use rsbag::storage::bag::{Bag, Compression, WriterOptions};

use super::{rs, write_bag, Written};

/// Frames per stream of [`chunked_bag`].
pub const FRAMES: u64 = 60;

/// A RealSense recording of [`FRAMES`] depth and color frames in small LZ4
/// chunks (several frames each).
pub fn chunked_bag(dir: &Path) -> PathBuf {
    let path = dir.join("good.bag");
    let options = WriterOptions::default()
        .compression(Compression::Lz4)
        .chunk_threshold(4096);
    rs::write_with(&path, FRAMES, options);
    path
}

/// Where the data of each chunk lies in the file: (chunk record offset,
/// data offset, data length).
pub fn chunk_data(bytes: &[u8]) -> Vec<(u64, usize, usize)> {
    let bag = Bag::from_bytes(bytes.to_vec()).expect("a bag");
    bag.chunks()
        .iter()
        .map(|c| {
            let pos = c.info.chunk_pos as usize;
            let u32_at = |at: usize| {
                u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes")) as usize
            };
            let header = u32_at(pos);
            let data_at = pos + 4 + header + 4;
            (c.info.chunk_pos, data_at, u32_at(pos + 4 + header))
        })
        .collect()
}

/// A copy of `path` whose chunk `k` fails its LZ4 checksum; returns the
/// copy, the chunk's offset and the frames it held (from the index).
pub fn with_bad_chunk(path: &Path, k: usize) -> (PathBuf, u64, u64) {
    let mut bytes = std::fs::read(path).expect("read");
    let chunks = chunk_data(&bytes);
    assert!(chunks.len() > k + 2, "{} chunks", chunks.len());
    let (offset, data, len) = chunks[k];
    // The stored blocks' bytes change, so the content checksum fails.
    for b in &mut bytes[data + len / 2..data + len / 2 + 8] {
        *b ^= 0x5a;
    }
    let frames_in_chunk = {
        let bag = Bag::open(path).expect("open");
        let reader = FrameReader::open(path).expect("reader");
        let conns: Vec<u32> = reader
            .recording()
            .streams()
            .values()
            .flat_map(|s| s.data_connections().to_vec())
            .collect();
        bag.chunks()[k]
            .info
            .connection_counts
            .iter()
            .filter(|(c, _)| conns.contains(c))
            .map(|&(_, n)| u64::from(n))
            .sum()
    };
    let bad = path.with_file_name(format!("bad-chunk-{k}.bag"));
    std::fs::write(&bad, bytes).expect("write");
    (bad, offset, frames_in_chunk)
}

/// A copy of `path` whose chunk `k`'s first index data record (the one
/// right after the chunk) counts one entry more than it holds; returns the
/// copy, the chunk's offset and the record's.
pub fn with_bad_index_data(path: &Path, k: usize) -> (PathBuf, u64, u64) {
    let mut bytes = std::fs::read(path).expect("read");
    let (chunk_pos, data_at, len) = chunk_data(&bytes)[k];
    let record = data_at + len;
    let header_len = u32::from_le_bytes(bytes[record..record + 4].try_into().expect("4 bytes"));
    let header = record + 4..record + 4 + header_len as usize;
    let at = header.start
        + bytes[header]
            .windows(6)
            .position(|w| w == b"count=")
            .expect("the index data record's count")
        + 6;
    let count = u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
    bytes[at..at + 4].copy_from_slice(&(count + 1).to_le_bytes());
    let bad = path.with_file_name(format!("bad-index-data-{k}.bag"));
    std::fs::write(&bad, bytes).expect("write");
    (bad, chunk_pos, record as u64)
}

/// A copy of `path` (uncompressed) whose `n`-th frame metadata message
/// does not decode: the length of its first key points past its end.
pub fn with_bad_metadata(path: &Path, n: usize) -> PathBuf {
    let mut bytes = std::fs::read(path).expect("read");
    let key = b"Frame Counter";
    let at = bytes
        .windows(key.len())
        .enumerate()
        .filter(|(_, w)| w == key)
        .map(|(i, _)| i)
        .nth(n)
        .expect("a metadata message");
    bytes[at - 4..at].copy_from_slice(&0x7fff_fff0u32.to_le_bytes());
    let bad = path.with_file_name("bad-metadata.bag");
    std::fs::write(&bad, bytes).expect("write");
    bad
}

/// `dir/lying.bag`: one 8 MB LZ4 chunk of incompressible bytes whose
/// header claims 256 times its real size (2 GB if taken at its word).
pub fn lying_bag(dir: &Path) -> PathBuf {
    let mut state = 0x9E37_79B9u32;
    let payload: Vec<u8> = (0..1 << 20)
        .map(|_| {
            state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (state >> 24) as u8
        })
        .collect();
    let messages: Vec<Written> = (0..8)
        .map(|i| Written {
            conn: 0,
            time: 1 + i,
            data: payload.clone(),
        })
        .collect();
    let topics = [("/noise".to_owned(), "std_msgs/ByteMultiArray".to_owned())];
    let good = write_bag(&topics, &messages, Compression::Lz4, 16 << 20);
    let lying = dir.join("lying.bag");
    std::fs::write(&lying, with_lying_chunk_size(&good, 0, 256)).expect("write");
    lying
}

/// A copy of `bytes` whose chunk `k` header claims `factor` times its real
/// uncompressed size.
fn with_lying_chunk_size(bytes: &[u8], k: usize, factor: u32) -> Vec<u8> {
    let mut bytes = bytes.to_vec();
    let pos = chunk_data(&bytes)[k].0 as usize;
    let u32_at = |b: &[u8], at: usize| {
        u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes")) as usize
    };
    let header_len = u32_at(&bytes, pos);
    let mut at = pos + 4;
    while at < pos + 4 + header_len {
        let len = u32_at(&bytes, at);
        let field = &bytes[at + 4..at + 4 + len];
        if field.starts_with(b"size=") {
            let value = at + 4 + 5;
            let claimed = u32_at(&bytes, value) as u32 * factor;
            bytes[value..value + 4].copy_from_slice(&claimed.to_le_bytes());
            return bytes;
        }
        at += 4 + len;
    }
    panic!("no size field in the chunk header");
}
