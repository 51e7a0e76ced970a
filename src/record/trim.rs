//! Trimming a RealSense recording: which messages a copy keeps when only
//! some streams over a time range are wanted.
//!
//! The copy stays a complete RealSense recording: the file version, the
//! device and sensor descriptions, options and notifications are all kept;
//! the frames (data, metadata and pose parts) of the chosen streams are
//! kept inside the time range; the streams not chosen lose their frames and
//! their description (stream info, camera info or IMU intrinsics,
//! extrinsics), so the copy describes only what it holds.
//!
//! # Example
//! ```
//! use rsbag::storage::Connection;
//! use rsbag::device::{StreamId, StreamKind};
//! use rsbag::record::trim::Trim;
//! use rsbag::BagTime;
//!
//! let trim = Trim {
//!     streams: Some([StreamId::new(StreamKind::Depth, 0)].into()),
//!     time: BagTime::from_nanos(1_000_000_000)..BagTime::from_nanos(2_000_000_000),
//! };
//! let conn = |topic: &str| Connection::ros1(topic, "t", "0123456789abcdef0123456789abcdef", "");
//! assert_eq!(trim.select(&conn("/device_0/sensor_0/Depth_0/image/data")), Some(1_000_000_000..2_000_000_000));
//! assert_eq!(trim.select(&conn("/device_0/sensor_1/Color_0/info")), None);
//! assert_eq!(trim.select(&conn("/device_0/info")), Some(0..u64::MAX));
//! ```

use std::collections::BTreeSet;
use std::ops::Range;

use crate::device::StreamId;
use crate::realsense::topics::Topic;
use crate::storage::Connection;
use crate::BagTime;

/// Every time: the messages of a connection kept whole.
const ALL: Range<u64> = 0..u64::MAX;

/// What a trimmed copy keeps.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trim {
    /// The streams whose frames are kept (`None`: every stream).
    pub streams: Option<BTreeSet<StreamId>>,
    /// Bag times of the frames kept.
    pub time: Range<BagTime>,
}

impl Default for Trim {
    /// Every stream, at every time.
    fn default() -> Self {
        Trim {
            streams: None,
            time: BagTime::ZERO..BagTime::MAX,
        }
    }
}

impl Trim {
    /// The messages of `conn` the copy keeps: `None` for none, otherwise
    /// those with a time in the range (the selector
    /// [`crate::storage::bag::copy_messages`] takes).
    pub fn select(&self, conn: &Connection) -> Option<Range<u64>> {
        match Topic::parse(&conn.topic) {
            Topic::FrameData(s)
            | Topic::FrameMetadata(s)
            | Topic::PoseAccel(s)
            | Topic::PoseTwist(s) => self
                .keeps_stream(s.stream)
                .then(|| self.time.start.as_nanos()..self.time.end.as_nanos()),
            Topic::StreamInfo(s)
            | Topic::CameraInfo(s)
            | Topic::ImuIntrinsic(s)
            | Topic::Extrinsics(s, _) => self.keeps_stream(s.stream).then_some(ALL),
            _ => Some(ALL),
        }
    }

    /// Whether the copy keeps `stream`'s description and frames.
    pub fn keeps_stream(&self, stream: StreamId) -> bool {
        self.streams
            .as_ref()
            .is_none_or(|set| set.contains(&stream))
    }
}
