//! rosbag2 storage: the SQLite 3 `.db3` file ROS 2 (and librealsense from
//! 2.58 on) records into ([`Db3`], [`Db3Writer`]), MCAP files
//! ([`McapFile`]) and bag directories ([`BagDirWriter`]). It knows nothing
//! of RealSense.

mod db3;
mod direct_writes;
mod directory;
mod mcap_file;
mod message_type;
mod salvage;
mod topics;
mod writer;

pub use db3::{roll_back_interrupted_commit, Db3, Db3Messages, Db3Query};
pub use directory::{BagDirWriter, Durability, McapCompression};
pub use mcap_file::{McapFile, McapMessages};
pub use message_type::{MessageType, TopicEncoding};
pub use salvage::{salvage_db3, SalvageReport};
pub use writer::{Db3Schema, Db3Writer};

use db3::to_db;
