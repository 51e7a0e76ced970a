//! Trimming a RealSense recording: which messages a copy keeps when only
//! some streams over a time range are wanted.
//!
//! The copy stays a complete RealSense recording: the file version, the
//! device and sensor descriptions, options and notifications are all kept;
//! the frames (data, metadata and pose parts) of the chosen streams are
//! kept inside the time range (or a range of their own: a session cut at
//! one moment of its clock, which each stream of a file reached at a
//! slightly different bag time); the streams not chosen lose their frames
//! and their description (stream info, camera info or IMU intrinsics,
//! extrinsics), so the copy describes only what it holds.
//!
//! # Example
//! ```
//! use rsbag::storage::Connection;
//! use rsbag::device::{StreamId, StreamKind};
//! use rsbag::record::trim::Trim;
//! use rsbag::BagTime;
//!
//! let depth = StreamId::new(StreamKind::Depth, 0);
//! let second = |s: u64| BagTime::from_nanos(s * 1_000_000_000);
//! let mut trim = Trim {
//!     streams: Some([depth].into()),
//!     time: second(1)..second(2),
//!     ..Trim::default()
//! };
//! let conn = |topic: &str| Connection::ros1(topic, "t", "0123456789abcdef0123456789abcdef", "");
//! assert_eq!(trim.select(&conn("/device_0/sensor_0/Depth_0/image/data")), Some(1_000_000_000..2_000_000_000));
//! assert_eq!(trim.select(&conn("/device_0/sensor_1/Color_0/info")), None);
//! assert_eq!(trim.select(&conn("/device_0/info")), Some(0..u64::MAX));
//! // Depth's frames over a range of its own.
//! trim.stream_times.insert(depth, second(3)..second(4));
//! assert!(trim.keeps_frame(depth, second(3)));
//! assert!(!trim.keeps_frame(depth, second(1)));
//! assert_eq!(trim.span(), second(1)..second(4));
//! ```

use std::collections::{BTreeMap, BTreeSet};
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
    /// Streams whose frames are kept over bag times of their own instead
    /// of `time`.
    pub stream_times: BTreeMap<StreamId, Range<BagTime>>,
}

impl Default for Trim {
    /// Every stream, at every time.
    fn default() -> Self {
        Trim {
            streams: None,
            time: BagTime::ZERO..BagTime::MAX,
            stream_times: BTreeMap::new(),
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
            | Topic::PoseTwist(s) => self.keeps_stream(s.stream).then(|| {
                let times = self.frame_times(s.stream);
                times.start.as_nanos()..times.end.as_nanos()
            }),
            Topic::StreamInfo(s)
            | Topic::CameraInfo(s)
            | Topic::ImuIntrinsic(s)
            | Topic::Extrinsics(s, _) => self.keeps_stream(s.stream).then_some(ALL),
            _ => Some(ALL),
        }
    }

    /// The bag times of `stream`'s frames the copy keeps (if it keeps
    /// the stream).
    pub(crate) fn frame_times(&self, stream: StreamId) -> Range<BagTime> {
        (self.stream_times.get(&stream).cloned()).unwrap_or_else(|| self.time.clone())
    }

    /// Whether the copy keeps `stream`'s frame of bag time `time`.
    pub fn keeps_frame(&self, stream: StreamId, time: BagTime) -> bool {
        self.keeps_stream(stream) && self.frame_times(stream).contains(&time)
    }

    /// The bag times every kept frame lies within.
    pub fn span(&self) -> Range<BagTime> {
        let ranges = (std::iter::once(&self.time).chain(self.stream_times.values()))
            .filter(|r| !r.is_empty());
        let start = ranges.clone().map(|r| r.start).min();
        let end = ranges.map(|r| r.end).max();
        match start.zip(end) {
            Some((start, end)) => start..end,
            None => BagTime::ZERO..BagTime::ZERO,
        }
    }

    /// Whether the copy keeps `stream`'s description and frames.
    pub fn keeps_stream(&self, stream: StreamId) -> bool {
        self.streams
            .as_ref()
            .is_none_or(|set| set.contains(&stream))
    }
}
