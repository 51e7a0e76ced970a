//! Compression codecs the storage formats share: LZ4 frames (a bag's
//! `lz4` chunks, an MCAP file's `lz4` chunks) with their xxHash32
//! checksums.

pub(crate) mod lz4;
mod xxh32;
