//! Which storage format a file is in, and what follows from it: its
//! first bytes, its extension, rosbag2's name for it and how its messages
//! are encoded, in one place.

use std::io::Read;
use std::path::Path;

use crate::{Error, Result};

/// The storage formats of a recording.
///
/// A file read is told by its first bytes ([`FileFormat::sniff`]), never by
/// its name; a file written takes the format its name's extension says
/// ([`FileFormat::of_path`]), so that the name and the bytes agree.
///
/// ```
/// use rsbag::storage::FileFormat;
/// assert_eq!(FileFormat::of_bytes(b"SQLite format 3\0..."), Some(FileFormat::Db3));
/// assert_eq!(FileFormat::of_path("a/b.BAG".as_ref()).unwrap(), FileFormat::Bag);
/// assert_eq!(FileFormat::Mcap.extension(), "mcap");
/// assert_eq!(FileFormat::Db3.rosbag2_storage_id(), Some("sqlite3"));
/// assert!(FileFormat::of_path("a/b".as_ref()).is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(rename_all = "lowercase")
)]
pub enum FileFormat {
    /// A ROS1 bag (`#ROSBAG V2.0`), as librealsense up to 2.57 writes.
    Bag,
    /// A rosbag2 SQLite 3 database, as librealsense 2.58+ writes and ROS 2
    /// records up to Iron.
    Db3,
    /// An MCAP file, rosbag2's storage from Jazzy on.
    Mcap,
}

/// How the messages of a storage format are serialized.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// ROS1 serialization (a `.bag`).
    Ros1,
    /// CDR, ROS 2's serialization (a `.db3` or an MCAP file).
    Cdr,
}

/// The first bytes of a ROS bag v2.0.
const BAG_MAGIC: &[u8] = crate::storage::bag::record::MAGIC;
/// The first 16 bytes of every SQLite 3 database.
const SQLITE_HEADER: &[u8; 16] = b"SQLite format 3\0";
/// The first 8 bytes of every MCAP file.
const MCAP_MAGIC: &[u8; 8] = b"\x89MCAP0\r\n";

impl FileFormat {
    /// Every format.
    pub const ALL: [FileFormat; 3] = [FileFormat::Bag, FileFormat::Db3, FileFormat::Mcap];

    /// The bytes every file of the format starts with.
    pub fn magic(self) -> &'static [u8] {
        match self {
            FileFormat::Bag => BAG_MAGIC,
            FileFormat::Db3 => SQLITE_HEADER,
            FileFormat::Mcap => MCAP_MAGIC,
        }
    }

    /// Whether `head`, the whole of a file, is a start of the format's
    /// first bytes cut short (nothing at all, or a header being written
    /// when its writer was killed).
    pub fn is_cut_in_magic(self, head: &[u8]) -> bool {
        head.len() < self.magic().len() && self.magic().starts_with(head)
    }

    /// The format of a file that starts with `head`, if any (`head` holds
    /// at least the file's first 16 bytes, or all of a shorter file).
    pub fn of_bytes(head: &[u8]) -> Option<FileFormat> {
        FileFormat::ALL
            .into_iter()
            .find(|f| head.starts_with(f.magic()))
    }

    /// The format of the file at `path` (or URL), by its first bytes,
    /// whatever its name; `None` for a file of none of them (an empty
    /// file, too).
    pub fn sniff(path: &Path) -> Result<Option<FileFormat>> {
        if super::remote::is_url(path) {
            let file = super::remote::RemoteFile::open(path)?;
            return Ok(FileFormat::of_bytes(file.head()));
        }
        let mut head = [0u8; 16];
        let read = read_head(path, &mut head).map_err(|error| Error::Io {
            path: path.to_owned(),
            error,
        })?;
        Ok(FileFormat::of_bytes(&head[..read]))
    }

    /// Whether the file at `path` is of this format, by its first bytes.
    pub fn is_format_of(self, path: &Path) -> Result<bool> {
        Ok(FileFormat::sniff(path)? == Some(self))
    }

    /// The extension of its files, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            FileFormat::Bag => "bag",
            FileFormat::Db3 => "db3",
            FileFormat::Mcap => "mcap",
        }
    }

    /// The format whose extension `path` has (any case), if any.
    pub fn of_extension(path: &Path) -> Option<FileFormat> {
        let extension = path.extension()?.to_str()?.to_ascii_lowercase();
        FileFormat::ALL
            .into_iter()
            .find(|f| f.extension() == extension)
    }

    /// The format a file written at `path` takes, by the extension of its
    /// name; another name is an error that lists the extensions.
    pub fn of_path(path: &Path) -> Result<FileFormat> {
        FileFormat::of_extension(path).ok_or_else(|| {
            Error::InvalidArgument(format!(
                "{}: the name must end in .bag (ROS1, librealsense up to 2.57) or .db3 \
                 (rosbag2, librealsense 2.58 and later): the extension says what the file holds",
                path.display()
            ))
        })
    }

    /// The format a recording written at `path` takes: `.bag` or `.db3`
    /// (an MCAP file is written as a ROS 2 bag, in standard messages).
    ///
    /// ```
    /// use rsbag::storage::FileFormat;
    /// assert_eq!(FileFormat::of_recording_path("a/b.db3".as_ref()).unwrap(), FileFormat::Db3);
    /// assert!(FileFormat::of_recording_path("a/b.mcap".as_ref()).is_err());
    /// ```
    pub fn of_recording_path(path: &Path) -> Result<FileFormat> {
        match FileFormat::of_path(path)? {
            FileFormat::Mcap => Err(Error::Unsupported(format!(
                "{}: a recording is written as .bag or .db3; an MCAP file is written as a ROS 2 \
                 bag (`rsbag convert FILE --to ros2 --storage mcap --out DIR`)",
                path.display()
            ))),
            format => Ok(format),
        }
    }

    /// `path` if its name says this format, else an error saying so.
    pub fn check_path(self, path: &Path) -> Result<()> {
        let named = FileFormat::of_recording_path(path)?;
        if named != self {
            return Err(Error::InvalidArgument(format!(
                "{}: the name says .{} but a .{} is written; name it .{}",
                path.display(),
                named.extension(),
                self.extension(),
                self.extension()
            )));
        }
        Ok(())
    }

    /// rosbag2's name of its storage plugin (`sqlite3`, `mcap`); `None`
    /// for a ROS1 bag.
    pub fn rosbag2_storage_id(self) -> Option<&'static str> {
        match self {
            FileFormat::Bag => None,
            FileFormat::Db3 => Some("sqlite3"),
            FileFormat::Mcap => Some("mcap"),
        }
    }

    /// The format of rosbag2's storage plugin `id` (`sqlite3`, `mcap`).
    pub fn of_rosbag2_storage_id(id: &str) -> Result<FileFormat> {
        (FileFormat::ALL.into_iter())
            .find(|f| f.rosbag2_storage_id() == Some(id))
            .ok_or_else(|| {
                Error::InvalidArgument(format!("unknown rosbag2 storage {id:?} (sqlite3 or mcap)"))
            })
    }

    /// How the messages of a file of this format are serialized.
    pub fn encoding(self) -> Encoding {
        match self {
            FileFormat::Bag => Encoding::Ros1,
            FileFormat::Db3 | FileFormat::Mcap => Encoding::Cdr,
        }
    }
}

/// Read the first bytes of a file into `head`, as many as it has.
fn read_head(path: &Path, head: &mut [u8]) -> std::io::Result<usize> {
    let mut file = std::fs::File::open(path)?;
    let mut read = 0;
    while read < head.len() {
        match file.read(&mut head[read..])? {
            0 => break,
            n => read += n,
        }
    }
    Ok(read)
}
