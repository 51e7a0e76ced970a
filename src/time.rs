//! The units of time a recording deals in, kept apart by type:
//!
//! - [`BagTime`]: when a message was stored, ns since the recording
//!   started (a bag's message time, a `.db3`'s timestamp). Recordings,
//!   events and their queries speak it.
//! - [`std::time::Duration`]: an offset into the recording, from its first
//!   frame ([`crate::recording::FrameReader`], seeking, `--start`).
//! - `f64` milliseconds: a frame's own timestamp in its timestamp domain
//!   (device or host clock), as librealsense gives it.
//!
//! The storage layers ([`crate::storage::bag`], [`crate::storage::rosbag2`]) keep their
//! native `u64` nanoseconds, as other ROS readers do.

use std::fmt;
use std::ops::{Add, Sub};
use std::time::Duration;

/// When a message of a recording was stored: nanoseconds since the
/// recording started.
///
/// ```
/// use std::time::Duration;
/// use rsbag::BagTime;
///
/// let first = BagTime::from_nanos(2_000);
/// let later = first + Duration::from_millis(5);
/// assert_eq!(later.as_nanos(), 5_002_000);
/// assert_eq!(later - first, Duration::from_millis(5));
/// assert_eq!(first - later, Duration::ZERO); // saturates
/// assert_eq!(later.to_string(), "0.005002000 s");
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
pub struct BagTime(u64);

impl BagTime {
    /// The start of the recording.
    pub const ZERO: BagTime = BagTime(0);
    /// The latest time there is.
    pub const MAX: BagTime = BagTime(u64::MAX);

    /// The time `nanos` ns after the recording started.
    pub const fn from_nanos(nanos: u64) -> BagTime {
        BagTime(nanos)
    }

    /// Nanoseconds since the recording started.
    pub const fn as_nanos(self) -> u64 {
        self.0
    }

    /// Seconds since the recording started.
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / 1e9
    }

    /// The time `d` later, or [`BagTime::MAX`].
    pub fn saturating_add(self, d: Duration) -> BagTime {
        BagTime(
            self.0
                .saturating_add(u64::try_from(d.as_nanos()).unwrap_or(u64::MAX)),
        )
    }

    /// How long after `earlier` this is (zero if it is not after).
    pub fn since(self, earlier: BagTime) -> Duration {
        Duration::from_nanos(self.0.saturating_sub(earlier.0))
    }
}

impl Add<Duration> for BagTime {
    type Output = BagTime;

    /// Saturating: see [`BagTime::saturating_add`].
    fn add(self, d: Duration) -> BagTime {
        self.saturating_add(d)
    }
}

impl Sub for BagTime {
    type Output = Duration;

    /// Saturating: see [`BagTime::since`].
    fn sub(self, earlier: BagTime) -> Duration {
        self.since(earlier)
    }
}

impl fmt::Display for BagTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}.{:09} s",
            self.0 / 1_000_000_000,
            self.0 % 1_000_000_000
        )
    }
}
