//! Compression codecs the storage formats share: LZ4 frames (a bag's
//! `lz4` chunks, an MCAP file's `lz4` chunks) with their xxHash32
//! checksums; and the threads that decompress chunks ahead of a reader
//! ([`pool`]).

pub(crate) mod lz4;
pub(crate) mod pool;
mod xxh32;
