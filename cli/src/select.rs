//! Choosing streams and a time range, the way `frames` does, for the
//! commands that take `--streams`, `--start` and `--duration`.

use std::collections::BTreeSet;
use std::ops::{Bound, Range};
use std::path::Path;
use std::time::Duration;

use rsbag::device::StreamId;
use rsbag::recording::FrameReader;
use rsbag::storage::bag::Bag;
use rsbag::{BagTime, Error, ErrorKind, Result};

use super::output::losses;

/// Open a recording. When that fails on a file that a scan finds damaged,
/// the error says so: a description lost to the damage is otherwise
/// reported as a bag that is not a RealSense recording. An I/O error
/// (a URL that changed or failed) is not damage, and stays as it is.
pub fn open(path: &Path) -> Result<FrameReader> {
    FrameReader::open(path).map_err(|e| {
        if e.kind() == ErrorKind::Io {
            return e;
        }
        let damage = Bag::scan(path)
            .ok()
            .and_then(|bag| bag.scan_report().and_then(losses));
        match (e, damage) {
            (Error::InFile { error, .. }, Some(damage)) => {
                Error::InvalidArgument(format!("the file is damaged (lost {damage}): {error}"))
                    .in_file(path)
            }
            (e, _) => e,
        }
    })
}

/// The streams `names` stand for (`None`: no names, every stream).
pub fn streams(
    find: impl Fn(&str) -> Result<Vec<StreamId>>,
    names: &[String],
) -> Result<Option<BTreeSet<StreamId>>> {
    let mut chosen = BTreeSet::new();
    for name in names.iter().filter(|n| !n.trim().is_empty()) {
        chosen.extend(find(name)?);
    }
    Ok((!chosen.is_empty()).then_some(chosen))
}

/// A time window of a recording, from its first frame.
#[derive(Debug, Clone, Copy)]
pub struct Window {
    /// Start (included).
    pub start: Duration,
    /// End (excluded), if any.
    pub end: Option<Duration>,
}

impl Window {
    /// `--start` and `--duration` (seconds) in a recording `length` long.
    pub fn new(length: Duration, start: Option<f64>, duration: Option<f64>) -> Result<Window> {
        Window::of("the recording", length, start, duration)
    }

    /// `--start` and `--duration` (seconds) in a session `length` long,
    /// from its first frame on its clock.
    pub fn of_session(
        length: Duration,
        start: Option<f64>,
        duration: Option<f64>,
    ) -> Result<Window> {
        Window::of("the session", length, start, duration)
    }

    /// `--start` and `--duration` in `what`, `length` long.
    fn of(
        what: &str,
        length: Duration,
        start: Option<f64>,
        duration: Option<f64>,
    ) -> Result<Window> {
        let start = start.map(|s| seconds("start", s)).transpose()?;
        let duration = duration.map(|d| seconds("duration", d)).transpose()?;
        let start = start.unwrap_or(Duration::ZERO);
        if start > length {
            return Err(Error::InvalidArgument(format!(
                "--start {:.3} is past the end of {what} ({:.3} s)",
                start.as_secs_f64(),
                length.as_secs_f64()
            )));
        }
        let end = duration.and_then(|d| start.checked_add(d));
        Ok(Window { start, end })
    }

    /// The window as bounds on times since the first frame.
    pub fn bounds(&self) -> (Bound<Duration>, Bound<Duration>) {
        let end = self.end.map_or(Bound::Unbounded, Bound::Excluded);
        (Bound::Included(self.start), end)
    }

    /// The window in bag times, for a recording whose first frame is at
    /// bag time `first`.
    pub fn bag_times(&self, first: BagTime) -> Range<BagTime> {
        let end = self.end.map_or(BagTime::MAX, |e| first + e);
        first + self.start..end
    }
}

/// The value of flag `--name`, seconds, as a duration; an error naming
/// the flag for a value that is not one (negative, not finite, too large).
pub fn seconds(name: &str, value: f64) -> Result<Duration> {
    duration(name, value, 1.0, "seconds")
}

/// [`seconds`] for a flag given in milliseconds, if it is given.
pub fn milliseconds(name: &str, value: Option<f64>) -> Result<Option<Duration>> {
    (value.map(|ms| duration(name, ms, 1e-3, "milliseconds"))).transpose()
}

fn duration(name: &str, value: f64, seconds_per_unit: f64, units: &str) -> Result<Duration> {
    Duration::try_from_secs_f64(value * seconds_per_unit).map_err(|_| {
        Error::InvalidArgument(format!(
            "--{name} must be a non-negative number of {units}, not {value}"
        ))
    })
}
