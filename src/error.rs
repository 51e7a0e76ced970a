//! The one error type of the crate, and the kinds to match it by.

use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Everything that can go wrong in rsbag.
///
/// Errors that come from a file say which file and, where it is known, the
/// byte offset and the record that was being read. The context (the file,
/// the message) wraps the error it explains; [`Error::kind`] and
/// [`Error::root`] look through it.
///
/// The message of an error ([`Display`](std::fmt::Display)) is complete:
/// it includes what a context wraps, so the wrapped error is not also
/// returned by [`source`](std::error::Error::source), and a program that
/// prints a chain of sources prints each part once.
///
/// # Example
/// ```
/// use rsbag::storage::bag::Bag;
/// use rsbag::ErrorKind;
///
/// let dir = std::env::temp_dir().join("rsbag-error-kind-example");
/// std::fs::create_dir_all(&dir).unwrap();
/// let path = dir.join("empty.bag");
/// std::fs::write(&path, b"").unwrap();
/// let error = Bag::open(&path).unwrap_err();
/// assert_eq!(error.kind(), ErrorKind::WrongFormat);
/// assert_eq!(error.path(), Some(path.as_path()));
/// assert!(error.to_string().starts_with(&path.display().to_string()));
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// An operating-system error on a file.
    #[error("{}: {error}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the operating system said.
        error: io::Error,
    },

    /// An I/O error where no file name applies (a writer over any `Write`).
    #[error("I/O error: {0}")]
    Stream(io::Error),

    /// The file does not start with `#ROSBAG V2.0`.
    #[error("not a ROS bag v2.0 file (the first bytes are not \"#ROSBAG V2.0\")")]
    NotABag,

    /// An SQLite database that is not a rosbag2 `.db3` (no `topics` and
    /// `messages` tables of the rosbag2 layout).
    #[error("not a rosbag2 .db3: {0}")]
    NotADb3(String),

    /// A file that starts as an MCAP file but cannot be read as one (no
    /// summary, a summary that does not parse), or that is not one.
    #[error("not a readable MCAP file: {0}")]
    NotMcap(String),

    /// A file of none of the storage formats (by its first bytes: not a
    /// ROS bag, not SQLite 3, not MCAP), or a directory without a rosbag2
    /// storage file.
    #[error("not a recording: {0}")]
    UnknownFormat(String),

    /// A rosbag2 `.db3` whose SQLite database cannot be read (damaged
    /// pages, a malformed table), with SQLite's reason.
    #[error("damaged rosbag2 .db3: {0}")]
    Database(String),

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
    /// ([`crate::storage::bag::Bag::scan`]) can still recover the complete chunks.
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

    /// A readable bag that is not a RealSense recording (no
    /// `/file_version`, or a version this crate does not read).
    #[error("not a RealSense recording: {0}")]
    NotARecording(String),

    /// A RealSense recording whose device description cannot be used (a
    /// stream with an unknown encoding, or described without intrinsics).
    #[error("unusable RealSense device description: {0}")]
    BadDescription(String),

    /// A call that does not fit the state or arguments (a user error, not a
    /// file error).
    #[error("{0}")]
    InvalidArgument(String),

    /// Something rsbag does not do: a conversion, a pixel format or a
    /// kind of file it has no way to read or write.
    #[error("{0}")]
    Unsupported(String),

    /// A thread of the library could not be started, or it panicked.
    #[error("{0}")]
    Thread(String),

    /// Nothing arrived within the time a wait allowed (the duration): a
    /// [`Pipeline`](crate::playback::Pipeline) whose playback is paused or
    /// slower than the wait, as librealsense's `wait_for_frames` times out.
    /// Not a failure of the file: waiting again may succeed.
    #[error("no frameset arrived within {} ms", .0.as_millis())]
    Timeout(Duration),

    /// The recording has ended and everything it held was taken (a
    /// [`Pipeline`](crate::playback::Pipeline) waited on after its last
    /// frameset, or after it was stopped): nothing more will come.
    #[error("the recording has ended: no more framesets")]
    Ended,

    /// A message that cannot be used, with where it lies in the recording.
    #[error("the message on {topic} at bag time {time} ns: {error}")]
    InMessage {
        /// The message's topic.
        topic: String,
        /// Its bag time, ns.
        time: u64,
        /// What is wrong with it.
        error: Box<Error>,
    },

    /// An error in a named file.
    #[error("{}: {error}", path.display())]
    InFile {
        /// The file.
        path: PathBuf,
        /// What went wrong in it.
        error: Box<Error>,
    },
}

/// What kind of error an [`Error`] is, whatever context wraps it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// An operating-system I/O error ([`Error::Io`], [`Error::Stream`]).
    Io,
    /// Not the kind of file expected: not of the storage format it was
    /// read as, or of none ([`Error::NotABag`], [`Error::NotADb3`],
    /// [`Error::NotMcap`], [`Error::UnknownFormat`]).
    WrongFormat,
    /// A damaged or cut-off file: a record that does not parse, a missing
    /// index, a message that does not decode, a damaged database
    /// ([`Error::Corrupt`], [`Error::MissingIndex`], [`Error::Decode`],
    /// [`Error::Database`]).
    Damaged,
    /// Something rsbag does not do ([`Error::Unsupported`],
    /// [`Error::UnknownCompression`]).
    Unsupported,
    /// A bag that is not a RealSense recording, or whose description cannot
    /// be used ([`Error::NotARecording`], [`Error::BadDescription`]).
    NotARecording,
    /// A call that does not fit the state or the arguments
    /// ([`Error::InvalidArgument`]).
    InvalidArgument,
    /// A thread that could not start or that panicked ([`Error::Thread`]).
    Thread,
    /// A wait that ended before anything arrived ([`Error::Timeout`]).
    Timeout,
    /// The end of a recording, reached by a wait for more
    /// ([`Error::Ended`]).
    Ended,
}

impl Error {
    /// The error under its context: what [`Error::InFile`] and
    /// [`Error::InMessage`] wrap, however deep.
    pub fn root(&self) -> &Error {
        match self {
            Error::InFile { error, .. } | Error::InMessage { error, .. } => error.root(),
            other => other,
        }
    }

    /// The kind of the error under its context.
    pub fn kind(&self) -> ErrorKind {
        match self {
            Error::InMessage { error, .. } | Error::InFile { error, .. } => error.kind(),
            Error::Io { .. } | Error::Stream(_) => ErrorKind::Io,
            Error::NotABag | Error::NotADb3(_) | Error::NotMcap(_) | Error::UnknownFormat(_) => {
                ErrorKind::WrongFormat
            }
            Error::Corrupt { .. }
            | Error::MissingIndex { .. }
            | Error::Decode { .. }
            | Error::Database(_) => ErrorKind::Damaged,
            Error::UnknownCompression { .. } | Error::Unsupported(_) => ErrorKind::Unsupported,
            Error::NotARecording(_) | Error::BadDescription(_) => ErrorKind::NotARecording,
            Error::InvalidArgument(_) => ErrorKind::InvalidArgument,
            Error::Thread(_) => ErrorKind::Thread,
            Error::Timeout(_) => ErrorKind::Timeout,
            Error::Ended => ErrorKind::Ended,
        }
    }

    /// The file the error is about, where one is named.
    pub fn path(&self) -> Option<&Path> {
        match self {
            Error::Io { path, .. } | Error::InFile { path, .. } => Some(path),
            Error::InMessage { error, .. } => error.path(),
            _ => None,
        }
    }

    /// The operating system's error, for an I/O error.
    pub fn io_error(&self) -> Option<&io::Error> {
        match self.root() {
            Error::Io { error, .. } | Error::Stream(error) => Some(error),
            _ => None,
        }
    }

    /// Attach the file name to an error that does not carry one yet.
    pub fn in_file(self, path: impl Into<PathBuf>) -> Error {
        match self {
            Error::Io { .. } | Error::InFile { .. } => self,
            Error::Stream(error) => Error::Io {
                path: path.into(),
                error,
            },
            other => Error::InFile {
                path: path.into(),
                error: Box::new(other),
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

impl From<io::Error> for Error {
    fn from(error: io::Error) -> Error {
        Error::Stream(error)
    }
}

/// The crate's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;
