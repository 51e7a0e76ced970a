//! Decimation as librealsense 2.55's `decimation_filter` computes it on Z16
//! depth: each `scale` x `scale` block becomes one pixel, the median of its
//! non-zero depths for scales 2 and 3 (picked by the same selection
//! networks, the lower middle for even counts), their integer mean from 4
//! up; the output is padded with zeros to a multiple of 4 each way, and
//! the intrinsics follow.

use crate::device::Intrinsics;

/// The size librealsense gives a decimated `width` x `height` image: the
/// whole blocks, padded up to a multiple of 4. Returns the size of the
/// whole blocks, then the padded size.
pub(crate) fn decimated_size(
    width: usize,
    height: usize,
    scale: usize,
) -> ((usize, usize), (usize, usize)) {
    let real = (width / scale, height / scale);
    let padded = (real.0.div_ceil(4) * 4, real.1.div_ceil(4) * 4);
    (real, padded)
}

/// The intrinsics of the decimated image: the padded size, focal lengths
/// and principal point divided by `scale` (in `f32`, as librealsense).
pub(crate) fn decimated_intrinsics(source: &Intrinsics, scale: usize) -> Intrinsics {
    let ((_, _), (width, height)) =
        decimated_size(source.width as usize, source.height as usize, scale);
    let s = scale as f32;
    Intrinsics {
        width: width as u32,
        height: height as u32,
        fx: source.fx / s,
        fy: source.fy / s,
        ppx: source.ppx / s,
        ppy: source.ppy / s,
        ..*source
    }
}

/// `depth` (`width` x `height`, row-major) decimated by `scale`; the
/// result is the padded size of [`decimated_size`].
pub(crate) fn decimate(depth: &[u16], width: usize, height: usize, scale: usize) -> Vec<u16> {
    let ((real_w, real_h), (pad_w, pad_h)) = decimated_size(width, height, scale);
    let mut out = vec![0u16; pad_w * pad_h];
    if real_w == 0 {
        return out;
    }
    let out_rows = out.chunks_exact_mut(pad_w).take(real_h);
    for (out_row, block) in out_rows.zip(depth.chunks_exact(width * scale)) {
        decimate_row(&mut out_row[..real_w], block, width, scale);
    }
    out
}

/// [`decimate`] of `height` rows of `width` Z16 pixels, each its
/// little-endian bytes (a frame's rows): each block of `scale` rows is
/// read into a small buffer as it is decimated, not the whole image into
/// one.
pub(crate) fn decimate_le_rows<'a>(
    rows: impl Iterator<Item = &'a [u8]>,
    width: usize,
    height: usize,
    scale: usize,
) -> Vec<u16> {
    let ((real_w, real_h), (pad_w, pad_h)) = decimated_size(width, height, scale);
    let mut out = vec![0u16; pad_w * pad_h];
    if real_w == 0 {
        return out;
    }
    let mut block = vec![0u16; width * scale];
    let out_rows = out
        .chunks_exact_mut(pad_w)
        .take(real_h)
        .map(|row| &mut row[..real_w]);
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2, checked just above.
        unsafe { decimate_rows_avx2(rows, out_rows, &mut block, scale) };
        return out;
    }
    decimate_rows(rows, out_rows, &mut block, scale);
    out
}

/// [`decimate_rows`] compiled for AVX2: sixteen values an operation
/// rather than eight; the same integer operations, so the same results.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn decimate_rows_avx2<'a, 'o>(
    rows: impl Iterator<Item = &'a [u8]>,
    out_rows: impl Iterator<Item = &'o mut [u16]>,
    block: &mut [u16],
    scale: usize,
) {
    decimate_rows(rows, out_rows, block, scale);
}

/// Each of `out_rows` from the next block of `scale` rows of `rows`
/// (little-endian Z16), read into `block` first.
#[inline(always)]
fn decimate_rows<'a, 'o>(
    mut rows: impl Iterator<Item = &'a [u8]>,
    out_rows: impl Iterator<Item = &'o mut [u16]>,
    block: &mut [u16],
    scale: usize,
) {
    let width = block.len() / scale;
    for out_row in out_rows {
        for (values, row) in block.chunks_exact_mut(width).zip(rows.by_ref()) {
            for (value, bytes) in values.iter_mut().zip(row.chunks_exact(2)) {
                *value = u16::from_le_bytes([bytes[0], bytes[1]]);
            }
        }
        decimate_row(out_row, block, width, scale);
    }
}

/// One output row from the `scale` rows of `block` (`width` pixels each).
#[inline(always)]
fn decimate_row(out: &mut [u16], block: &[u16], width: usize, scale: usize) {
    match scale {
        2 => median_row_2(out, block, width),
        3 => median_row::<3>(out, block, width),
        _ => mean_or_median_row(out, block, width, scale),
    }
}

/// One output row of decimation by 2: each 2 x 2 block of the two input
/// rows in `block` (`width` pixels each) becomes the lower middle of its
/// non-zero depths, which is what librealsense's networks pick for 1 to 4
/// values: the smallest of 1 or 2, the second smallest of 3 or 4. No
/// branch, a loop the compiler vectorizes.
#[inline(always)]
fn median_row_2(out: &mut [u16], block: &[u16], width: usize) {
    let (upper, lower) = (
        &block[..out.len() * 2],
        &block[width..width + out.len() * 2],
    );
    for ((cell, up), low) in out
        .iter_mut()
        .zip(upper.chunks_exact(2))
        .zip(lower.chunks_exact(2))
    {
        let [a, b, c, d] = [up[0], up[1], low[0], low[1]].map(rank);
        let holes = [a, b, c, d]
            .map(|r| i16::from(r == HOLE))
            .iter()
            .sum::<i16>();
        let (low_ab, high_ab) = (a.min(b), a.max(b));
        let (low_cd, high_cd) = (c.min(d), c.max(d));
        let first = low_ab.min(low_cd);
        let second = low_ab.max(low_cd).min(high_ab.min(high_cd));
        *cell = depth_of_rank(if holes <= 1 { second } else { first });
    }
}

/// The rank of a hole: above every depth.
const HOLE: i16 = i16::MAX;

/// A depth's rank for [`median_row_2`]: depths 1..=65535 in order, then
/// holes ([`HOLE`]), as 16-bit signed integers (whose min and max every
/// x86-64 vector unit has).
#[inline(always)]
fn rank(depth: u16) -> i16 {
    (depth.wrapping_sub(1) ^ 0x8000) as i16
}

/// The depth of a rank: a hole's is 0.
#[inline(always)]
fn depth_of_rank(rank: i16) -> u16 {
    ((rank as u16) ^ 0x8000).wrapping_add(1)
}

/// One output row of decimation by `S` (3): each `S` x `S` block of
/// the `S` input rows in `block` (`width` pixels each) becomes the median
/// of its non-zero depths. Fixed-size blocks let the compiler drop the
/// bounds checks of the inner loop.
#[inline(always)]
fn median_row<const S: usize>(out: &mut [u16], block: &[u16], width: usize) {
    let rows: [&[u16]; S] = std::array::from_fn(|r| &block[r * width..r * width + out.len() * S]);
    for (x, cell) in out.iter_mut().enumerate() {
        // The non-zero depths, in librealsense's order (row by row),
        // gathered without branching: each value is written, and counts
        // only when non-zero.
        let mut kernel = [0u16; 16];
        let mut count = 0;
        for row in &rows {
            for &d in &row[x * S..x * S + S] {
                kernel[count & 15] = d;
                count += usize::from(d != 0);
            }
        }
        *cell = median(&mut kernel[..count.min(S * S)]);
    }
}

/// One output row of decimation by any other scale: the median of the
/// non-zero depths of each block for scale 1, their integer mean from 4
/// up.
#[inline(always)]
fn mean_or_median_row(out: &mut [u16], block: &[u16], width: usize, scale: usize) {
    let mut kernel = [0u16; 9];
    for (x, cell) in out.iter_mut().enumerate() {
        let values = (0..scale)
            .flat_map(|r| &block[r * width + x * scale..r * width + x * scale + scale])
            .filter(|&&d| d != 0);
        *cell = if scale <= 3 {
            let mut count = 0;
            for &d in values {
                kernel[count] = d;
                count += 1;
            }
            median(&mut kernel[..count])
        } else {
            let (sum, count) = values.fold((0i32, 0i32), |(s, c), &d| (s + i32::from(d), c + 1));
            if count == 0 {
                0
            } else {
                (sum / count) as u16
            }
        };
    }
}

/// Order the values at indices `i` and `j`: the smaller at `i`, without a
/// branch.
#[inline(always)]
fn sort(p: &mut [u16], i: usize, j: usize) {
    let (a, b) = (p[i], p[j]);
    p[i] = a.min(b);
    p[j] = a.max(b);
}

/// The median of up to nine values as librealsense's selection networks
/// (`opt_med3` … `opt_med9`) pick it; 0 for none. The networks leave the
/// slice partly sorted. Inlined: in [`median_row`]'s loop the count's
/// range is small and known.
#[inline(always)]
fn median(p: &mut [u16]) -> u16 {
    match p.len() {
        0 => 0,
        1 => p[0],
        2 => p[0].min(p[1]),
        3 => {
            sort(p, 0, 1);
            sort(p, 1, 2);
            sort(p, 0, 1);
            p[1]
        }
        4 => {
            sort(p, 0, 1);
            sort(p, 2, 3);
            sort(p, 0, 2);
            sort(p, 1, 3);
            p[1].min(p[2])
        }
        5 => {
            sort(p, 0, 1);
            sort(p, 3, 4);
            p[3] = p[0].max(p[3]);
            p[1] = p[1].min(p[4]);
            sort(p, 1, 2);
            p[2] = p[2].min(p[3]);
            p[1].max(p[2])
        }
        6 => {
            for (i, j) in [
                (1, 2),
                (3, 4),
                (0, 1),
                (2, 3),
                (4, 5),
                (1, 2),
                (3, 4),
                (0, 1),
                (2, 3),
            ] {
                sort(p, i, j);
            }
            p[4] = p[4].min(p[5]);
            p[2] = p[1].max(p[2]);
            p[3] = p[3].min(p[4]);
            p[2].min(p[3])
        }
        7 => {
            for (i, j) in [(0, 5), (0, 3), (1, 6), (2, 4), (0, 1), (3, 5), (2, 6)] {
                sort(p, i, j);
            }
            p[3] = p[2].max(p[3]);
            p[3] = p[3].min(p[6]);
            p[4] = p[4].min(p[5]);
            sort(p, 1, 4);
            p[3] = p[1].max(p[3]);
            p[3].min(p[4])
        }
        8 => {
            for (i, j) in [(0, 1), (3, 4), (6, 7), (2, 3), (5, 6), (3, 4), (6, 7)] {
                sort(p, i, j);
            }
            p[4] = p[4].min(p[7]);
            sort(p, 3, 6);
            p[5] = p[2].max(p[5]);
            p[3] = p[0].max(p[3]);
            p[1] = p[1].min(p[4]);
            p[3] = p[3].min(p[6]);
            // Ordered the other way round: p[1] keeps the larger.
            sort(p, 3, 1);
            p[3] = p[5].max(p[3]);
            p[3].min(p[1])
        }
        _ => {
            for (i, j) in [
                (1, 2),
                (4, 5),
                (7, 8),
                (0, 1),
                (3, 4),
                (6, 7),
                (1, 2),
                (4, 5),
                (7, 8),
            ] {
                sort(p, i, j);
            }
            p[3] = p[0].max(p[3]);
            p[5] = p[5].min(p[8]);
            sort(p, 4, 7);
            p[6] = p[3].max(p[6]);
            p[4] = p[1].max(p[4]);
            p[2] = p[2].min(p[5]);
            p[4] = p[4].min(p[7]);
            // Ordered the other way round: p[2] keeps the larger.
            sort(p, 4, 2);
            p[4] = p[6].max(p[4]);
            p[4].min(p[2])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_whole_blocks_padded_to_four() {
        assert_eq!(decimated_size(640, 480, 2), ((320, 240), (320, 240)));
        assert_eq!(decimated_size(848, 480, 3), ((282, 160), (284, 160)));
        assert_eq!(decimated_size(10, 7, 1), ((10, 7), (12, 8)));
    }

    #[test]
    fn blocks_take_the_median_or_mean_of_their_depths() {
        // 2x2 blocks: medians of non-zero values, lower middle for even.
        let depth = [1, 5, 0, 0, 3, 9, 0, 7];
        let out = decimate(&depth, 4, 2, 2);
        assert_eq!(&out[..2], &[3, 7]);
        // 4x4: mean of the non-zero values, rounded down.
        let mut big = [0u16; 16];
        big[0] = 10;
        big[5] = 11;
        assert_eq!(decimate(&big, 4, 4, 4)[0], 10);
    }

    #[test]
    fn rows_of_bytes_decimate_as_values() {
        let depth: Vec<u16> = (0..7 * 5).map(|i| (i * 7919 % 23) as u16).collect();
        let bytes: Vec<u8> = depth.iter().flat_map(|d| d.to_le_bytes()).collect();
        for scale in 1..=5 {
            let rows = bytes.chunks_exact(7 * 2);
            assert_eq!(
                decimate_le_rows(rows, 7, 5, scale),
                decimate(&depth, 7, 5, scale),
                "scale {scale}"
            );
        }
    }
}
