//! Checking a recording: dropped, out-of-order and duplicated frames per
//! stream, and damage to the file itself (a missing index, unreadable
//! chunks, a cut-off tail).
//!
//! Frames are judged in recorded order, stream by stream, against the
//! highest frame number and timestamp seen so far in the stream:
//!
//! - a **gap** is a frame whose number is more than one past the highest
//!   so far, or whose timestamp is more than 1.5 frame periods (from the
//!   profile's fps) past the latest so far; the frames missing are the
//!   numbers skipped, or when the numbers do not tell (a stream whose
//!   frame numbers do not advance), the periods the timestamp skipped;
//! - a **duplicate** repeats the number and timestamp of one of the
//!   [`RECENT_FRAMES`] frames before it;
//! - an **out-of-order** frame has a number or timestamp below the highest
//!   so far; when its number lies in a gap it fills it, and is no longer
//!   counted as dropped.

use std::collections::{BTreeMap, VecDeque};
use std::path::Path;

use super::{Event, Recording, TimedEvent};
use crate::device::{Frame, StreamId};
use crate::storage::bag::Bag;
use crate::storage::rosbag2::Db3;
use crate::storage::{FileFormat, Storage};
use crate::BagTime;
use crate::{Error, Result};

/// How many recent frames of a stream a frame is compared with to find
/// duplicates (memory stays bounded on long recordings).
pub const RECENT_FRAMES: usize = 64;

/// A frame that breaks the sequence of its stream.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    /// What is wrong.
    pub kind: FindingKind,
    /// Bag time of the frame.
    pub time: BagTime,
    /// The frame's number.
    pub number: u64,
    /// The frame's timestamp (ms).
    pub timestamp: f64,
    /// The highest frame number of the stream before this frame.
    pub previous_number: u64,
    /// The latest timestamp of the stream before this frame (ms).
    pub previous_timestamp: f64,
}

/// The kinds of [`Finding`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FindingKind {
    /// Frames are missing before this one.
    Gap {
        /// How many (see the module documentation).
        missing: u64,
    },
    /// The frame came after frames with higher numbers or timestamps.
    OutOfOrder,
    /// The same frame was recorded before.
    Duplicate,
}

/// What [`check_recording`] found in one stream.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct StreamCheck {
    /// Frames read.
    pub frames: u64,
    /// Lowest and highest frame number.
    pub numbers: Option<(u64, u64)>,
    /// Frames missing, less those that arrived late (out of order).
    pub dropped: u64,
    /// Frames out of order.
    pub out_of_order: u64,
    /// Frames recorded twice.
    pub duplicates: u64,
    /// Each frame that breaks the sequence, in recorded order.
    pub findings: Vec<Finding>,
}

impl StreamCheck {
    /// Whether every frame followed the one before.
    pub fn is_clean(&self) -> bool {
        self.findings.is_empty()
    }
}

/// What [`check_file`] found.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CheckReport {
    /// Damage to the file (index, chunks, tail), one sentence each.
    pub damage: Vec<String>,
    /// Whether the index was unusable and the file was read by a scan.
    pub scanned: bool,
    /// Each recorded stream.
    pub streams: BTreeMap<StreamId, StreamCheck>,
    /// Bag time of the first frame, to place findings in the recording.
    pub start_time: BagTime,
}

impl CheckReport {
    /// Whether the file is damaged.
    pub fn is_damaged(&self) -> bool {
        !self.damage.is_empty()
    }

    /// Whether any stream has a gap, an out-of-order or a duplicate frame.
    pub fn has_frame_problems(&self) -> bool {
        self.streams.values().any(|s| !s.is_clean())
    }
}

/// Check the frames of every stream of a recording, in recorded order.
/// `progress` is called after each frame with the number read so far.
/// What cannot be read is skipped and returned with the findings: one
/// error per damaged part (a chunk, a message), in the order met; an I/O
/// error (a read that failed, not damage) ends the reading, last.
pub fn check_recording(
    recording: &Recording,
    mut progress: impl FnMut(u64),
) -> (BTreeMap<StreamId, StreamCheck>, Vec<Error>) {
    let mut streams: BTreeMap<StreamId, StreamState> = recording
        .streams()
        .iter()
        .map(|(&id, s)| (id, StreamState::new(s.profile.fps)))
        .collect();
    let mut unreadable = Vec::new();
    let mut read = 0;
    for event in recording.select().controls(false).events() {
        let TimedEvent { time, event } = match event {
            Ok(event) => event,
            Err(e) => {
                // A read that failed (the network) ends the reading: what
                // follows would fail the same way.
                let failed = e.kind() == crate::ErrorKind::Io;
                unreadable.push(e);
                if failed {
                    break;
                }
                continue;
            }
        };
        if let Event::Frame { frame, .. } = event {
            if let Some(state) = streams.get_mut(&frame.profile.stream) {
                state.push(time, &frame);
            }
            read += 1;
            progress(read);
        }
    }
    let streams = streams.into_iter().map(|(id, s)| (id, s.check)).collect();
    (streams, unreadable)
}

/// Check a recording file: open it through its index, read every frame and
/// judge each stream; what cannot be read (a damaged chunk, a message that
/// does not decode) is damage, reported, and the check goes on past it.
/// When the index is unusable, or the device description cannot be read
/// through it, say so and check what a scan of the file recovers instead.
///
/// Errors are only for files that cannot be checked at all (not a bag, not
/// a RealSense recording, a device description that cannot be read).
/// `progress` is called after each frame with the number read so far in
/// the current pass (a damaged file may take a second pass) and the
/// number of frames the index lists.
///
/// # Example
/// ```no_run
/// # fn main() -> rsbag::Result<()> {
/// let report = rsbag::recording::check::check_file("session.bag", |_, _| {})?;
/// for (stream, check) in &report.streams {
///     println!("{stream}: {} frames, {} dropped", check.frames, check.dropped);
/// }
/// # Ok(()) }
/// ```
pub fn check_file(
    path: impl AsRef<Path>,
    mut progress: impl FnMut(u64, u64),
) -> Result<CheckReport> {
    let path = path.as_ref();
    let format = match path.is_dir() {
        true => None,
        false => FileFormat::sniff(path)?,
    };
    if path.is_dir() || format == Some(FileFormat::Mcap) {
        // A rosbag2 directory or an MCAP file: the frames, as read.
        let recording =
            Recording::from_storage(Storage::open(path)?).map_err(|e| e.in_file(path))?;
        if let Storage::Db3(db3) = recording.storage() {
            let damage = integrity_damage(db3, path)?;
            return report(&recording, damage, false, &mut progress);
        }
        return report(&recording, Vec::new(), false, &mut progress);
    }
    if format == Some(FileFormat::Db3) {
        return check_db3(path, &mut progress);
    }
    let mut damage = Vec::new();
    // A read that failed (the network) is not damage: the file is not
    // judged.
    let failed = |e: &Error| e.kind() == crate::ErrorKind::Io;
    match Bag::open(path) {
        Ok(bag) => match check_bag(bag, &mut progress) {
            Ok(report) => return Ok(report),
            Err(e) if failed(&e) => return Err(e.in_file(path)),
            Err(e) => damage.push(format!("{}", strip_path(e, path))),
        },
        Err(e) if failed(&e) => return Err(e.in_file(path)),
        Err(e) => damage.push(match strip_path(e, path) {
            crate::Error::MissingIndex { reason } => format!("no usable index: {reason}"),
            e => format!("no usable index: {e}"),
        }),
    }
    let bag = Bag::scan(path)?;
    let mut report = check_bag(bag, &mut progress).map_err(|e| e.in_file(path))?;
    damage.append(&mut report.damage);
    report.damage = damage;
    Ok(report)
}

/// Check a `.db3`: SQLite's own integrity check of the database, then the
/// frames of the recording.
fn check_db3(path: &Path, progress: &mut impl FnMut(u64, u64)) -> Result<CheckReport> {
    let db3 = Db3::open(path)?;
    let damage = integrity_damage(&db3, path)?;
    let recording = Recording::from_storage(Storage::Db3(db3)).map_err(|e| e.in_file(path))?;
    report(&recording, damage, false, progress)
}

/// What SQLite's integrity check finds wrong with a `.db3`, as damage.
fn integrity_damage(db3: &Db3, path: &Path) -> Result<Vec<String>> {
    Ok(db3
        .integrity_problems()
        .map_err(|e| e.in_file(path))?
        .into_iter()
        .map(|p| format!("the database is damaged: {p}"))
        .collect())
}

/// Check one opened bag (indexed or scanned); an error when the recording
/// cannot be read at all.
fn check_bag(bag: Bag, progress: &mut impl FnMut(u64, u64)) -> Result<CheckReport> {
    let mut damage = Vec::new();
    let scanned = bag.scan_report().is_some();
    if let Some(scan) = bag.scan_report() {
        for (offset, reason) in &scan.damaged_chunks {
            damage.push(format!("chunk at byte {offset} is damaged: {reason}"));
        }
        if scan.orphan_messages > 0 {
            damage.push(format!(
                "{} messages lost their connection record",
                scan.orphan_messages
            ));
        }
        if let Some((offset, reason)) = &scan.stopped_at {
            damage.push(format!("the records end at byte {offset}: {reason}"));
        }
    }
    let damaged = bag.scan_report().is_some_and(|r| !r.is_clean());
    let recording = match Recording::from_bag(bag) {
        Ok(recording) => recording,
        // What a damaged file lost may be the description itself: that is
        // the finding, not a reason to give up the report.
        Err(e) if damaged => {
            damage.push(format!("the recording cannot be read: {e}"));
            return Ok(CheckReport {
                damage,
                scanned,
                ..CheckReport::default()
            });
        }
        Err(e) => return Err(e),
    };
    report(&recording, damage, scanned, progress)
}

/// The report on an opened recording: its frames checked, what could not
/// be read added to the `damage` already found in the file; a read that
/// failed (the network: an I/O error) is the error, not damage.
fn report(
    recording: &Recording,
    mut damage: Vec<String>,
    scanned: bool,
    progress: &mut impl FnMut(u64, u64),
) -> Result<CheckReport> {
    let total = recording.streams().values().map(|s| s.frame_count).sum();
    let (streams, mut unreadable) = check_recording(recording, |n| progress(n, total));
    if unreadable
        .last()
        .is_some_and(|e| e.kind() == crate::ErrorKind::Io)
    {
        return Err(unreadable.pop().expect("an error"));
    }
    damage.extend(unreadable.iter().map(|e| format!("unreadable: {e}")));
    let repaired = recording.bag().map(|bag| bag.chunk_repairs().chunks());
    damage.extend(
        repaired.unwrap_or_default().into_iter().map(|(_, why)| {
            format!("{why} (the chunk's messages read from its own records instead)")
        }),
    );
    Ok(CheckReport {
        damage,
        scanned,
        streams,
        start_time: recording.start_time(),
    })
}

/// The error without the file name in front: the report is about that file.
fn strip_path(e: crate::Error, path: &Path) -> crate::Error {
    match e {
        crate::Error::InFile { path: p, error } if p == path => *error,
        e => e,
    }
}

/// The sequence state of one stream.
struct StreamState {
    /// Frame period (ms), when the profile has a rate.
    period: Option<f64>,
    /// Highest number and latest timestamp so far.
    last: Option<(u64, f64)>,
    recent: VecDeque<(u64, u64)>,
    check: StreamCheck,
}

impl StreamState {
    fn new(fps: u32) -> StreamState {
        StreamState {
            period: (fps > 0).then(|| 1000.0 / f64::from(fps)),
            last: None,
            recent: VecDeque::with_capacity(RECENT_FRAMES),
            check: StreamCheck::default(),
        }
    }

    fn push(&mut self, time: BagTime, frame: &Frame) {
        let (number, timestamp) = (frame.number, frame.timestamp);
        let check = &mut self.check;
        check.frames += 1;
        check.numbers = Some(match check.numbers {
            None => (number, number),
            Some((lo, hi)) => (lo.min(number), hi.max(number)),
        });
        let key = (number, timestamp.to_bits());
        let duplicate = self.recent.contains(&key);
        if self.recent.len() == RECENT_FRAMES {
            self.recent.pop_front();
        }
        self.recent.push_back(key);
        let Some((last_number, last_timestamp)) = self.last else {
            self.last = Some((number, timestamp));
            return;
        };
        let kind = if duplicate {
            check.duplicates += 1;
            FindingKind::Duplicate
        } else if number < last_number || timestamp < last_timestamp {
            check.out_of_order += 1;
            if number < last_number {
                // It may fill a gap counted earlier.
                check.dropped = check.dropped.saturating_sub(1);
            }
            FindingKind::OutOfOrder
        } else {
            let missing = missing(
                number - last_number,
                timestamp - last_timestamp,
                self.period,
            );
            check.dropped += missing;
            self.last = Some((number, timestamp));
            if missing == 0 {
                return;
            }
            FindingKind::Gap { missing }
        };
        check.findings.push(Finding {
            kind,
            time,
            number,
            timestamp,
            previous_number: last_number,
            previous_timestamp: last_timestamp,
        });
    }
}

/// Frames missing between two frames `step` numbers and `interval` ms
/// apart.
fn missing(step: u64, interval: f64, period: Option<f64>) -> u64 {
    if step > 1 {
        return step - 1;
    }
    match period {
        Some(period) if interval > 1.5 * period => ((interval / period).round() as u64).max(2) - 1,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::{Format, StreamKind, StreamProfile};

    fn run(frames: &[(u64, f64)]) -> StreamCheck {
        let profile =
            StreamProfile::video(StreamId::new(StreamKind::Depth, 0), Format::Z16, 4, 4, 10);
        let mut state = StreamState::new(10);
        for (i, &(number, timestamp)) in frames.iter().enumerate() {
            let frame = Frame {
                profile,
                number,
                timestamp,
                domain: crate::device::TimestampDomain::HardwareClock,
                system_time: 0.0,
                metadata: Vec::new(),
                stride: 0,
                data: bytes::Bytes::new(),
            };
            state.push(BagTime::from_nanos(i as u64), &frame);
        }
        state.check
    }

    #[test]
    fn a_regular_stream_is_clean() {
        let check = run(&[(1, 0.0), (2, 100.0), (3, 200.0), (4, 300.0)]);
        assert!(check.is_clean());
        assert_eq!((check.frames, check.numbers), (4, Some((1, 4))));
    }

    #[test]
    fn gaps_count_skipped_numbers_or_periods() {
        let check = run(&[(1, 0.0), (2, 100.0), (5, 400.0), (6, 500.0)]);
        assert_eq!(check.dropped, 2);
        assert_eq!(check.findings[0].kind, FindingKind::Gap { missing: 2 });
        assert_eq!(check.findings[0].previous_number, 2);
        // Numbers that do not advance: the timestamps tell.
        let check = run(&[(0, 0.0), (0, 100.0), (0, 420.0), (0, 520.0)]);
        assert_eq!(check.dropped, 2);
        // Jitter under 1.5 periods is not a gap.
        assert!(run(&[(1, 0.0), (2, 140.0), (3, 200.0)]).is_clean());
    }

    #[test]
    fn late_frames_fill_their_gap_and_duplicates_are_found() {
        let check = run(&[(1, 0.0), (2, 100.0), (4, 300.0), (3, 200.0), (5, 400.0)]);
        assert_eq!((check.out_of_order, check.dropped), (1, 0));
        assert_eq!(check.findings.len(), 2);
        let check = run(&[(1, 0.0), (2, 100.0), (2, 100.0), (3, 200.0)]);
        assert_eq!(
            (check.duplicates, check.dropped, check.out_of_order),
            (1, 0, 0)
        );
    }
}
