//! ROS bag v2.0 files: records, a streaming writer and a memory-mapped
//! reader. This layer knows nothing of RealSense.
//!
//! - [`BagWriter`] (any seekable sink) and [`BagFile`] (a file written
//!   under a temporary name and renamed when complete) write chunked,
//!   indexed bags with `none`, `lz4` or `bz2` chunks.
//! - [`Bag`] reads them: connections, message counts and time bounds from
//!   the index alone, messages in time order with topic and time filters
//!   that open only the chunks they need, and a scan mode
//!   ([`Bag::scan`]) that recovers a bag whose index is missing.
//! - [`copy_messages`] copies chosen messages into a new bag, re-chunked
//!   and re-indexed: reindexing, trimming and (de)compressing.
//!
//! # Example
//! ```
//! use rsbag::storage::bag::{Bag, BagWriter, Compression, WriterOptions};
//! use rsbag::storage::Connection;
//! # fn main() -> rsbag::Result<()> {
//! let options = WriterOptions::default().compression(Compression::None);
//! let mut writer = BagWriter::new(std::io::Cursor::new(Vec::new()), options)?;
//! let text = writer.add_connection(Connection::ros1(
//!     "/note", "std_msgs/String", "992ce8a1687cec8c8bd883ec73ca41d1", "string data\n"));
//! for (i, time) in [30u64, 10, 20].iter().enumerate() {
//!     writer.write(text, *time, &[i as u8])?;
//! }
//! let bag = Bag::from_bytes(writer.finish()?.into_inner())?;
//! let times: Vec<u64> = bag.query().time(15..).messages()
//!     .map(|m| m.map(|m| m.time)).collect::<Result<_, _>>()?;
//! assert_eq!(times, [20, 30]);
//! # Ok(()) }
//! ```

mod compression;
mod compressor;
mod index;
mod messages;
mod query;
mod reader;
mod recent_chunks;
pub mod record;
mod rewrite;
mod scan;
mod span;
mod writer;

pub use compression::Compression;
pub use index::{Chunk, ChunkInfo, IndexEntry};
pub use messages::Messages;
pub use query::Query;
pub use reader::{Bag, BagHeader, ChunkRepairs};
pub use rewrite::{copy_messages, CopyStats};
pub use scan::ScanReport;
pub use writer::{BagFile, BagWriter, WriterOptions};
