//! The one error type of the crate.

use std::io;
use std::path::PathBuf;

/// Everything that can go wrong in rsbag.
///
/// Errors that come from a file say which file and, where it is known, the
/// byte offset and the record that was being read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// An operating-system error on a file.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the operating system said.
        #[source]
        source: io::Error,
    },

    /// An I/O error where no file name applies (a writer over any `Write`).
    #[error("I/O error: {0}")]
    Stream(#[from] io::Error),

    /// The file does not start with `#ROSBAG V2.0`.
    #[error("not a ROS bag v2.0 file (the first bytes are not \"#ROSBAG V2.0\")")]
    NotABag,

    /// A record that cannot be parsed.
    #[error("corrupt {record} record at byte offset {offset}: {reason}")]
    Corrupt {
        /// Byte offset of the record (or field) in the file.
        offset: u64,
        /// Which record was being read (`bag header`, `chunk`, `connection`…).
        record: &'static str,
        /// What is wrong with it.
        reason: String,
    },

    /// The bag header says where the index is, but it is not there: the
    /// recording was cut off or the index was never written. The scan path
    /// ([`crate::bag::Bag::scan`]) can still recover the complete chunks.
    #[error("the bag has no usable index ({reason}); it may have been cut off while recording, try the scan path or `rsbag reindex`")]
    MissingIndex {
        /// Why the index is unusable.
        reason: String,
    },

    /// A chunk uses a compression this crate does not know.
    #[error("unknown chunk compression {name:?} at byte offset {offset}")]
    UnknownCompression {
        /// The compression name in the chunk header.
        name: String,
        /// Byte offset of the chunk record.
        offset: u64,
    },

    /// A ROS message whose bytes do not match its type.
    #[error("cannot decode {msg_type} message: {reason}")]
    Decode {
        /// The ROS type, e.g. `sensor_msgs/Image`.
        msg_type: &'static str,
        /// What is wrong.
        reason: String,
    },

    /// A call that does not fit the state or arguments (a user error, not a
    /// file error).
    #[error("{0}")]
    InvalidArgument(String),

    /// A message that cannot be used, with where it lies in the recording.
    #[error("the message on {topic} at bag time {time} ns: {source}")]
    InMessage {
        /// The message's topic.
        topic: String,
        /// Its bag time, ns.
        time: u64,
        /// What is wrong with it.
        #[source]
        source: Box<Error>,
    },

    /// An error in a named file.
    #[error("{}: {source}", path.display())]
    InFile {
        /// The file.
        path: PathBuf,
        /// What went wrong in it.
        #[source]
        source: Box<Error>,
    },
}

impl Error {
    /// Attach the file name to an error that does not carry one yet.
    pub fn in_file(self, path: impl Into<PathBuf>) -> Error {
        match self {
            Error::Io { .. } | Error::InFile { .. } => self,
            Error::Stream(source) => Error::Io {
                path: path.into(),
                source,
            },
            other => Error::InFile {
                path: path.into(),
                source: Box::new(other),
            },
        }
    }

    /// A [`Error::Corrupt`] with the given record name, offset and reason.
    pub(crate) fn corrupt(record: &'static str, offset: u64, reason: impl Into<String>) -> Error {
        Error::Corrupt {
            offset,
            record,
            reason: reason.into(),
        }
    }

    /// A [`Error::Decode`] for the given message type.
    pub(crate) fn decode(msg_type: &'static str, reason: impl Into<String>) -> Error {
        Error::Decode {
            msg_type,
            reason: reason.into(),
        }
    }
}

/// The crate's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;
