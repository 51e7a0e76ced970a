//! The temporal filter as librealsense 2.55's `temporal_filter` computes
//! it: each pixel is averaged with the last frame's (when they differ by
//! less than delta), and a hole takes the last valid value when the pixel
//! was valid often enough lately (the persistence mode), from state
//! carried from frame to frame.

/// The filter's settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TemporalParams {
    /// Weight of the current frame (0..=1).
    pub alpha: f32,
    /// Edge threshold in depth units or disparity (1..=100).
    pub delta: u8,
    /// Persistence mode (0..=8).
    pub persistence: u8,
}

/// A depth or disparity value as the filter handles it.
pub(crate) trait TemporalValue: Copy + Default + PartialEq {
    /// `self != 0`.
    fn is_set(self) -> bool;
    /// Whether `self` and `other` differ by less than `delta`.
    fn close(self, other: Self, delta: u8) -> bool;
    /// `alpha * self + one_minus_alpha * previous`, as librealsense
    /// stores it (truncated for depth).
    fn blend(self, previous: Self, alpha: f32, one_minus_alpha: f32) -> Self;
}

impl TemporalValue for u16 {
    fn is_set(self) -> bool {
        self != 0
    }
    fn close(self, other: u16, delta: u8) -> bool {
        self.abs_diff(other) < u16::from(delta)
    }
    fn blend(self, previous: u16, alpha: f32, one_minus_alpha: f32) -> u16 {
        (alpha * f32::from(self) + one_minus_alpha * f32::from(previous)) as u16
    }
}

impl TemporalValue for f32 {
    fn is_set(self) -> bool {
        self != 0.0
    }
    fn close(self, other: f32, delta: u8) -> bool {
        (self - other).abs() < f32::from(delta)
    }
    fn blend(self, previous: f32, alpha: f32, one_minus_alpha: f32) -> f32 {
        alpha * self + one_minus_alpha * previous
    }
}

/// The filter with its state: the last output and an 8-frame validity
/// history per pixel, reset when the image size or kind changes.
#[derive(Debug, Clone)]
pub(crate) struct TemporalState<T> {
    params: TemporalParams,
    one_minus_alpha: f32,
    /// For each 8-bit history, which of the 8 phases find it credible.
    credible: [u8; 256],
    last: Vec<T>,
    history: Vec<u8>,
    phase: u32,
}

impl<T: TemporalValue> TemporalState<T> {
    /// A filter that has seen no frame.
    pub fn new(params: TemporalParams) -> Self {
        TemporalState {
            params,
            one_minus_alpha: 1.0 - params.alpha,
            credible: credible_histories(params.persistence),
            last: Vec::new(),
            history: Vec::new(),
            phase: 0,
        }
    }

    /// Its settings.
    pub fn params(&self) -> TemporalParams {
        self.params
    }

    /// Filter `frame` in place, in recorded order.
    pub fn process(&mut self, frame: &mut [T]) {
        if self.last.len() != frame.len() {
            // A new profile: librealsense starts over (but keeps its
            // phase).
            self.last = vec![T::default(); frame.len()];
            self.history = vec![0; frame.len()];
        }
        let mask = 1u8 << self.phase;
        let p = self.params;
        for ((value, last), history) in frame.iter_mut().zip(&mut self.last).zip(&mut self.history)
        {
            let current = *value;
            if current.is_set() {
                if !last.is_set() || !current.close(*last, p.delta) {
                    *last = current;
                    *history = mask;
                } else {
                    *history |= mask;
                    let result = current.blend(*last, p.alpha, self.one_minus_alpha);
                    *value = result;
                    *last = result;
                }
            } else {
                if last.is_set() && self.credible[usize::from(*history)] & mask != 0 {
                    *value = *last;
                }
                *history &= !mask;
            }
        }
        self.phase = (self.phase + 1) % 8;
    }
}

/// Whether a pixel with `history` (bit 7 the newest of the last 8 frames,
/// read at phase 0) counts as valid lately under `persistence`.
fn persistent(persistence: u8, history: u8) -> bool {
    let bit = |n: u32| u32::from(history >> n & 1);
    let last = |n: u32| (0..n).map(|k| bit(7 - k)).sum::<u32>();
    match persistence {
        1 => last(8) >= 8,
        2 => last(3) >= 2,
        3 => last(4) >= 2,
        4 => last(8) >= 2,
        5 => last(2) >= 1,
        6 => last(5) >= 1,
        7 => last(8) >= 1,
        8 => true,
        _ => false,
    }
}

/// For each history byte, the phases (bits) at which it is credible: the
/// history rotated to read as at phase 0.
fn credible_histories(persistence: u8) -> [u8; 256] {
    let mut table = [0u8; 256];
    for phase in 0..8 {
        for (i, entry) in table.iter_mut().enumerate() {
            if persistent(persistence, (i as u8).rotate_right(phase)) {
                *entry |= 1 << phase;
            }
        }
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holes_keep_the_last_value_while_persistent() {
        let params = TemporalParams {
            alpha: 0.4,
            delta: 20,
            persistence: 3,
        };
        let mut state = TemporalState::<u16>::new(params);
        let mut first = [1000, 1000];
        state.process(&mut first);
        let mut second = [1010, 0];
        state.process(&mut second);
        // 0.4 * 1010 + 0.6 * 1000, truncated; the hole was valid in 1 of
        // 2 frames only (mode 3 wants 2 of the last 4).
        assert_eq!(second, [1004, 0]);
        let mut third = [1004, 0];
        state.process(&mut third);
        assert_eq!(third[1], 0);
    }
}
