//! Hole filling as librealsense 2.55's `hole_filling_filter` computes it.

/// The three modes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HoleFillMode {
    /// 0: a hole takes the value to its left (row by row, left to right).
    FromLeft,
    /// 1: a hole takes the largest of its upper, upper-left, left,
    /// lower-left and lower neighbours (the farthest depth).
    Farthest,
    /// 2: a hole takes its upper neighbour, or a smaller non-zero one of
    /// the upper-left, left, lower-left and lower (the nearest depth).
    Nearest,
}

/// A depth or disparity value as the filter handles it.
pub(crate) trait HoleValue: Copy + PartialOrd {
    /// Whether this is a hole: 0 for depth, all bits zero (+0.0) for
    /// disparity.
    fn is_hole(self) -> bool;
}

impl HoleValue for u16 {
    fn is_hole(self) -> bool {
        self == 0
    }
}

impl HoleValue for f32 {
    fn is_hole(self) -> bool {
        self.to_bits() == 0
    }
}

/// Fill the holes of `image` (`width` pixels a row) in place. The
/// neighbour modes leave the first and last rows and the first column as
/// they are.
pub(crate) fn fill_holes<T: HoleValue>(image: &mut [T], width: usize, mode: HoleFillMode) {
    if width == 0 {
        return;
    }
    let height = image.len() / width;
    match mode {
        HoleFillMode::FromLeft => {
            for row in image.chunks_exact_mut(width) {
                for x in 1..width {
                    if row[x].is_hole() {
                        row[x] = row[x - 1];
                    }
                }
            }
        }
        HoleFillMode::Farthest | HoleFillMode::Nearest => {
            for y in 1..height.saturating_sub(1) {
                for x in 1..width {
                    let i = y * width + x;
                    if image[i].is_hole() {
                        image[i] = from_around(image, i, width, mode);
                    }
                }
            }
        }
    }
}

/// The value a hole at `i` takes from its neighbours.
#[inline]
fn from_around<T: HoleValue>(image: &[T], i: usize, width: usize, mode: HoleFillMode) -> T {
    let mut value = image[i - width];
    for n in [i - width - 1, i - 1, i + width - 1, i + width] {
        let q = image[n];
        let better = match mode {
            HoleFillMode::Farthest => q > value,
            _ => !q.is_hole() && q < value,
        };
        if better {
            value = q;
        }
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_mode_fills_as_librealsense() {
        let image: [u16; 9] = [5, 7, 9, 3, 0, 0, 4, 8, 2];
        let mut left = image;
        fill_holes(&mut left, 3, HoleFillMode::FromLeft);
        assert_eq!(left, [5, 7, 9, 3, 3, 3, 4, 8, 2]);
        let mut far = image;
        fill_holes(&mut far, 3, HoleFillMode::Farthest);
        assert_eq!(&far[3..6], &[3, 8, 9]);
        let mut near = image;
        fill_holes(&mut near, 3, HoleFillMode::Nearest);
        assert_eq!(&near[3..6], &[3, 3, 2]);
    }
}
