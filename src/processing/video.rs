//! Video streams as a sequence of pictures at a constant frame rate, what
//! video files hold: each frame's picture, and where dropped frames leave
//! holes to fill.

use super::image::{colorize, image, Image};
use crate::device::{Format, Frame};
use crate::Result;

/// The picture of a video frame in a video: depth (Z16) colourised with
/// [`colorize`] over `near..far` meters (`depth_units` meters per unit),
/// every other format as [`image`] makes it.
pub fn picture(frame: &Frame, depth_units: f32, near: f32, far: f32) -> Result<Image> {
    match frame.profile.format {
        Format::Z16 => colorize(frame, depth_units, near, far),
        _ => image(frame),
    }
}

/// A gap longer than this is not filled: a clock that jumps (a device
/// reset, another timestamp domain) would otherwise make hours of copies.
pub const LONGEST_FILLED_GAP_MS: f64 = 60_000.0;

/// Where a stream's frames fall in a constant-rate video: frames come one
/// after the other, and a gap between two frames' timestamps longer than
/// 1.5 frame periods (a dropped frame) is filled with copies of the
/// earlier frame, as many as the frames missing (the gap in periods,
/// rounded, less one). Gaps up to 1.5 periods (jitter) are not filled, so
/// a video's length is its frame count over the frame rate.
#[derive(Debug, Clone)]
pub struct VideoTiming {
    period_ms: f64,
    previous_ms: Option<f64>,
}

impl VideoTiming {
    /// The timing of a stream of `fps` frames per second; `None` for 0.
    pub fn new(fps: u32) -> Option<VideoTiming> {
        (fps > 0).then(|| VideoTiming {
            period_ms: 1000.0 / f64::from(fps),
            previous_ms: None,
        })
    }

    /// For the next frame, at `timestamp_ms`: how many copies of the
    /// previous frame go before it. A timestamp that goes back, or a gap
    /// longer than [`LONGEST_FILLED_GAP_MS`], gets none.
    pub fn copies_before(&mut self, timestamp_ms: f64) -> u64 {
        let gap = self.previous_ms.map_or(0.0, |p| timestamp_ms - p);
        self.previous_ms = Some(timestamp_ms);
        if gap > 1.5 * self.period_ms && gap <= LONGEST_FILLED_GAP_MS {
            (gap / self.period_ms).round() as u64 - 1
        } else {
            0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dropped_frames_become_copies_of_the_one_before() {
        let mut timing = VideoTiming::new(30).expect("fps");
        let copies: Vec<u64> = [1000.0, 1033.3, 1066.7, 1166.7, 1200.0, 1216.6, 1150.0]
            .iter()
            .map(|&t| timing.copies_before(t))
            .collect();
        // 100 ms is 3 periods: two frames missing; 16.6 ms and a step back
        // are not gaps.
        assert_eq!(copies, [0, 0, 0, 2, 0, 0, 0]);
        assert_eq!(timing.copies_before(1150.0 + 50.1), 1);
        assert_eq!(timing.copies_before(1200.1 + 49.9), 0);
        assert_eq!(timing.copies_before(1250.0 + 3_600_000.0), 0);
        assert!(VideoTiming::new(0).is_none());
    }
}
