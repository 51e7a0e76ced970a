//! How well the cameras of a session keep together: per pair of cameras,
//! the offset and drift between their clocks, frames without a partner,
//! and gaps where one camera stopped ([`Session::sync_report`]).

use std::time::Duration;

use super::session::{Session, SessionVerdict};
use crate::device::{ProfileKind, StreamId, TimestampDomain};
use crate::Result;

/// A gap is a stretch longer than this many frame periods without a frame
/// (as `rsbag check` counts dropped frames).
const GAP_PERIODS: f64 = 1.5;

/// The sync report of a session.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SyncReport {
    /// The clock the times are on ([`super::SessionClock::name`]).
    pub clock: &'static str,
    /// How far apart two frames may be and still be partners, ms.
    pub tolerance_ms: f64,
    /// One per pair of cameras with frames, in file order.
    pub pairs: Vec<PairSync>,
    /// Frames that could not be read (not in the report).
    pub read_errors: u64,
    /// Whether the recordings are one session ([`Session::verdict`]): if
    /// not, there are no pairs, as cameras that never record at once on
    /// one clock have no sync to report.
    pub verdict: SessionVerdict,
}

/// How two cameras keep together, judged by one stream of each (the
/// first video stream of the recording, else its first stream).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct PairSync {
    /// The cameras' names ([`super::SessionFile::name`]).
    pub cameras: [String; 2],
    /// The streams compared (`Depth`, ...).
    pub streams: [String; 2],
    /// The timestamp domains of the compared streams (`Hardware Clock`,
    /// `Global Time`, `System Time`). A device's clock against the host's
    /// (Global Time or System Time) is no offset between two clocks but
    /// the time since the device started against the time since 1970: the
    /// pair then has no offset or drift.
    pub clock_domains: [String; 2],
    /// When both record, seconds from the session's first frame; `None`
    /// when they never do at once (the rest is then empty).
    pub overlap_s: Option<[f64; 2]>,
    /// The second camera's timestamp minus the first's at the start of the
    /// overlap, in ms: how far apart their clocks are (near 0 when both
    /// stamp on the host's clock). From a straight-line fit of each
    /// camera's timestamps against the session's clock. `None` on
    /// different clock domains (see `clock_domains`).
    pub offset_ms: Option<f64>,
    /// How fast that offset grows, in parts per million of the session's
    /// clock (µs per second).
    pub drift_ppm: Option<f64>,
    /// The standard error of `drift_ppm`, in ppm, from how far each
    /// camera's timestamps scatter about its fitted line: over a short
    /// overlap, or on arrival times the host's load delays, the drift is
    /// known only roughly (the true one within a few of these of the
    /// estimate: the error takes each frame's delay as independent, and a
    /// loaded host delays frames in bursts). `None` without a drift, or
    /// under three frames of a camera.
    pub drift_ppm_error: Option<f64>,
    /// Frames of each camera's compared stream during the overlap.
    pub frames: [u64; 2],
    /// Frames of each camera during the overlap with no frame of the other
    /// within the tolerance.
    pub without_partner: [u64; 2],
    /// Stretches of the overlap where one camera recorded no frame for
    /// more than 1.5 frame periods.
    pub gaps: Vec<SyncGap>,
}

/// A stretch where one camera of a pair recorded nothing.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SyncGap {
    /// The camera's name.
    pub camera: String,
    /// From its last frame before the gap to its first after, seconds from
    /// the session's first frame.
    pub from_s: f64,
    /// See `from_s`.
    pub to_s: f64,
}

/// One camera's compared stream: each frame's session time and timestamp.
struct Lane {
    stream: StreamId,
    /// The domain of its first frame's timestamp.
    domain: Option<TimestampDomain>,
    period_ms: f64,
    frames: Vec<(f64, f64)>,
}

impl Session {
    /// How well the session's cameras keep together, pair by pair. Frames
    /// are partners within `tolerance` (`None`: half the slower compared
    /// stream's frame period). Reads the compared streams once.
    pub fn sync_report(&self, tolerance: Option<Duration>) -> Result<SyncReport> {
        let verdict = self.verdict();
        if !verdict.one_session {
            return Ok(SyncReport {
                clock: self.clock().name(),
                tolerance_ms: tolerance.map_or(0.0, |t| t.as_secs_f64() * 1000.0),
                pairs: Vec::new(),
                read_errors: 0,
                verdict,
            });
        }
        let mut lanes: Vec<Option<Lane>> = (self.files().iter())
            .map(|f| {
                let streams = f.reader().recording().streams();
                let video = (streams.iter())
                    .find(|(_, s)| matches!(s.profile.kind, ProfileKind::Video { .. }))
                    .or_else(|| streams.iter().next());
                video.map(|(&stream, s)| Lane {
                    stream,
                    domain: None,
                    period_ms: 1000.0 / f64::from(s.profile.fps.max(1)),
                    frames: Vec::new(),
                })
            })
            .collect();
        let streams: Vec<StreamId> = lanes.iter().flatten().map(|l| l.stream).collect();
        let mut read_errors = 0;
        for frame in self.select().streams(streams).frames()? {
            let Ok(frame) = frame else {
                read_errors += 1;
                continue;
            };
            if let Some(lane) = lanes[frame.file].as_mut() {
                if lane.stream == frame.recorded.stream {
                    lane.domain.get_or_insert(frame.recorded.frame.domain);
                    lane.frames
                        .push((frame.time_ms, frame.recorded.frame.timestamp));
                }
            }
        }
        let origin = self.start_ms().unwrap_or(0.0);
        let tolerance_of = |a: &Lane, b: &Lane| match tolerance {
            Some(t) => t.as_secs_f64() * 1000.0,
            None => a.period_ms.max(b.period_ms) / 2.0,
        };
        let mut pairs = Vec::new();
        for i in 0..lanes.len() {
            for j in i + 1..lanes.len() {
                let (Some(a), Some(b)) = (&lanes[i], &lanes[j]) else {
                    continue;
                };
                if a.frames.is_empty() || b.frames.is_empty() {
                    continue;
                }
                let names = [i, j].map(|k| self.files()[k].name().to_owned());
                pairs.push(pair(names, a, b, tolerance_of(a, b), origin));
            }
        }
        let tolerance_ms = match tolerance {
            Some(t) => t.as_secs_f64() * 1000.0,
            None => (lanes.iter().flatten())
                .map(|l| l.period_ms / 2.0)
                .fold(0.0, f64::max),
        };
        Ok(SyncReport {
            clock: self.clock().name(),
            tolerance_ms,
            pairs,
            read_errors,
            verdict,
        })
    }
}

/// The sync of cameras `names` through their lanes `a` and `b`.
fn pair(names: [String; 2], a: &Lane, b: &Lane, tolerance: f64, origin: f64) -> PairSync {
    let seconds = |t: f64| ((t - origin) / 1000.0 * 1e6).round() / 1e6;
    let span = |l: &Lane| {
        let times = l.frames.iter().map(|f| f.0);
        (
            times.clone().fold(f64::INFINITY, f64::min),
            times.fold(f64::NEG_INFINITY, f64::max),
        )
    };
    let ((a0, a1), (b0, b1)) = (span(a), span(b));
    let (from, to) = (a0.max(b0), a1.min(b1));
    let domain = |l: &Lane| l.domain.map_or_else(String::new, |d| d.name().to_owned());
    let mut sync = PairSync {
        streams: [a.stream.name(), b.stream.name()],
        clock_domains: [domain(a), domain(b)],
        overlap_s: None,
        offset_ms: None,
        drift_ppm: None,
        drift_ppm_error: None,
        frames: [0, 0],
        without_partner: [0, 0],
        gaps: Vec::new(),
        cameras: names,
    };
    if from > to {
        return sync;
    }
    sync.overlap_s = Some([seconds(from), seconds(to)]);
    let comparable = on_host(a.domain) == on_host(b.domain);
    if let (true, Some(fa), Some(fb)) = (comparable, fit(&a.frames), fit(&b.frames)) {
        sync.offset_ms = Some(fb.at(from) - fa.at(from));
        sync.drift_ppm = Some((fb.slope - fa.slope) * 1e6);
        // The two fits are independent: their variances add.
        sync.drift_ppm_error = (fa.slope_error)
            .zip(fb.slope_error)
            .map(|(ea, eb)| ea.hypot(eb) * 1e6);
    }
    let during = |l: &Lane| -> Vec<f64> {
        let mut t: Vec<f64> = (l.frames.iter().map(|f| f.0))
            .filter(|t| (from - tolerance..=to + tolerance).contains(t))
            .collect();
        t.sort_by(f64::total_cmp);
        t
    };
    let (ta, tb) = (during(a), during(b));
    let within = |t: f64| (from..=to).contains(&t);
    let count = |times: &[f64]| times.iter().filter(|&&t| within(t)).count() as u64;
    sync.frames = [count(&ta), count(&tb)];
    sync.without_partner = [
        unpartnered(&ta, &tb, tolerance, within),
        unpartnered(&tb, &ta, tolerance, within),
    ];
    for (k, (lane, times)) in [(a, &ta), (b, &tb)].into_iter().enumerate() {
        let camera = &sync.cameras[k];
        let mut found: Vec<SyncGap> = (times.windows(2))
            .filter(|w| w[1] - w[0] > GAP_PERIODS * lane.period_ms)
            .map(|w| SyncGap {
                camera: camera.clone(),
                from_s: seconds(w[0]),
                to_s: seconds(w[1]),
            })
            .collect();
        sync.gaps.append(&mut found);
    }
    sync
}

/// Whether timestamps of `domain` are on the host's clock (ms since 1970)
/// rather than a device's own.
fn on_host(domain: Option<TimestampDomain>) -> bool {
    matches!(
        domain,
        Some(TimestampDomain::GlobalTime | TimestampDomain::SystemTime)
    )
}

/// Frames of `times` (sorted) in the overlap with no frame of `other`
/// (sorted) within `tolerance`.
fn unpartnered(times: &[f64], other: &[f64], tolerance: f64, within: impl Fn(f64) -> bool) -> u64 {
    let mut count = 0;
    for &t in times.iter().filter(|&&t| within(t)) {
        let at = other.partition_point(|&o| o < t);
        let near = [at.checked_sub(1), Some(at)]
            .into_iter()
            .flatten()
            .filter_map(|k| other.get(k))
            .any(|&o| (o - t).abs() <= tolerance);
        if !near {
            count += 1;
        }
    }
    count
}

/// A straight line: timestamp against session time.
struct Line {
    intercept: f64,
    slope: f64,
    /// The standard error of the slope, from the residuals; `None` under
    /// three points (a line through two has none to judge by).
    slope_error: Option<f64>,
    /// Session time the intercept is at (for precision).
    origin: f64,
}

impl Line {
    fn at(&self, t: f64) -> f64 {
        self.intercept + self.slope * (t - self.origin)
    }
}

/// The least-squares line through (session time, timestamp); `None` under
/// two distinct times.
fn fit(points: &[(f64, f64)]) -> Option<Line> {
    let n = points.len() as f64;
    // Both coordinates from the first point's: times and timestamps may
    // be ms since the epoch, where sums and residuals would lose the
    // digits that matter.
    let (origin, base) = *points.first()?;
    let centred = || points.iter().map(|p| (p.0 - origin, p.1 - base));
    let mean_x = centred().map(|p| p.0).sum::<f64>() / n;
    let mean_y = centred().map(|p| p.1).sum::<f64>() / n;
    let sxx: f64 = centred().map(|p| (p.0 - mean_x).powi(2)).sum();
    if sxx <= 0.0 {
        return None;
    }
    let sxy: f64 = centred().map(|p| (p.0 - mean_x) * (p.1 - mean_y)).sum();
    let slope = sxy / sxx;
    let residuals: f64 = centred()
        .map(|p| (p.1 - mean_y - slope * (p.0 - mean_x)).powi(2))
        .sum();
    let slope_error = (points.len() > 2).then(|| (residuals / (n - 2.0) / sxx).sqrt());
    Some(Line {
        intercept: base + mean_y - slope * mean_x,
        slope,
        slope_error,
        origin,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::StreamKind;

    /// A camera's lane: `seconds` of frames at 30 fps from host time
    /// `start_ms`, stamped on a clock of `rate` from `origin_ms`, each
    /// arriving late by a jitter of up to 8 ms (a loaded host's), drawn
    /// from `seed`.
    fn lane(seconds: f64, start_ms: f64, origin_ms: f64, rate: f64, seed: u64) -> Lane {
        let period_ms = 1000.0 / 30.0;
        let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut jitter = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64 * 8.0
        };
        let frames = (0..(seconds * 30.0) as u64)
            .map(|k| {
                let host = start_ms + k as f64 * period_ms;
                (host + jitter(), origin_ms + (host - start_ms) * rate)
            })
            .collect();
        Lane {
            stream: StreamId::new(StreamKind::Depth, 0),
            domain: Some(TimestampDomain::HardwareClock),
            period_ms,
            frames,
        }
    }

    /// The drift and its standard error of two cameras whose clocks run
    /// 500 ppm apart, over `seconds`.
    fn drift_over(seconds: f64) -> (f64, f64) {
        let a = lane(seconds, 1.7e12, 1000.0, 1.0, 1);
        let b = lane(seconds, 1.7e12 + 10.0, 770_000.0, 1.0005, 2);
        let names = ["a".to_owned(), "b".to_owned()];
        let sync = pair(names, &a, &b, 1000.0 / 60.0, 1.7e12);
        (
            sync.drift_ppm.expect("drift"),
            sync.drift_ppm_error.expect("error"),
        )
    }

    #[test]
    fn a_short_session_has_a_rough_drift_and_says_so() {
        let (drift, error) = drift_over(1.0);
        assert!(error.is_finite() && error > 100.0, "± {error} ppm");
        assert!((drift - 500.0).abs() < 3.0 * error, "{drift} ± {error} ppm");
    }

    #[test]
    fn a_long_session_has_a_close_drift() {
        let (drift, error) = drift_over(60.0);
        assert!(
            error.is_finite() && error > 0.0 && error < 100.0,
            "± {error} ppm"
        );
        assert!((drift - 500.0).abs() < 3.0 * error, "{drift} ± {error} ppm");
    }

    #[test]
    fn a_device_clock_against_the_host_clock_has_no_offset_or_drift() {
        let a = lane(1.0, 1.7e12, 1000.0, 1.0, 1);
        let mut b = lane(1.0, 1.7e12, 1.7e12, 1.0, 2);
        b.domain = Some(TimestampDomain::SystemTime);
        let sync = pair(["a".into(), "b".into()], &a, &b, 10.0, 1.7e12);
        assert_eq!(sync.clock_domains, ["Hardware Clock", "System Time"]);
        assert_eq!((sync.offset_ms, sync.drift_ppm), (None, None));
        b.domain = Some(TimestampDomain::HardwareClock);
        let sync = pair(["a".into(), "b".into()], &a, &b, 10.0, 1.7e12);
        assert!(sync.offset_ms.is_some());
    }

    #[test]
    fn two_frames_give_a_drift_without_an_error() {
        let (mut a, mut b) = (lane(1.0, 0.0, 0.0, 1.0, 1), lane(1.0, 0.0, 0.0, 1.0, 2));
        a.frames.truncate(2);
        b.frames.truncate(2);
        let sync = pair(["a".into(), "b".into()], &a, &b, 10.0, 0.0);
        assert!(sync.drift_ppm.is_some());
        assert_eq!(sync.drift_ppm_error, None);
    }
}
