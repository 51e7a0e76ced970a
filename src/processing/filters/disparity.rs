//! Depth to disparity and back, and the depth threshold, as librealsense
//! 2.55's `disparity_transform` and `threshold` compute them.

/// The constant relating depth and disparity: depth units × disparity
/// (in 1/32 pixel) = `baseline × fx × 32 / depth units`, computed in
/// `f32` in librealsense's order. `baseline_mm` is the depth sensor's
/// Stereo Baseline option (millimetres), `fx` the depth image's focal
/// length (pixels), `depth_units` its Depth Units (metres).
pub(crate) fn conversion_factor(baseline_mm: f32, fx: f32, depth_units: f32) -> f32 {
    let baseline_m = baseline_mm * 0.001;
    (baseline_m * fx * 32.0) / depth_units
}

/// Disparity of each depth value: `factor / depth`, 0 where there is no
/// depth.
pub(crate) fn to_disparity(depth: &[u16], factor: f32) -> Vec<f32> {
    depth
        .iter()
        .map(|&d| {
            // Computed for every value, chosen after: a loop without
            // branches, which the compiler vectorizes.
            let disparity = factor / f32::from(d);
            if d == 0 {
                0.0
            } else {
                disparity
            }
        })
        .collect()
}

/// Depth of each disparity value: `factor / disparity` rounded half up,
/// 0 where the disparity is 0, subnormal, infinite or not a number.
pub fn to_depth(disparity: &[f32], factor: f32) -> Vec<u16> {
    disparity
        .iter()
        .map(|&d| {
            // Computed for every value, chosen after: no branch.
            let depth = truncated_u16(factor / d + 0.5);
            if d.is_normal() {
                depth
            } else {
                0
            }
        })
        .collect()
}

/// `value` converted as C++ converts a float to uint16 on x86-64: to a
/// 32-bit integer, truncated, then its low 16 bits; as Rust's `as i32`
/// does, beyond that integer's range the nearest end and 0 for NaN (ends
/// whose low 16 bits are 0xFFFF and 0). Written so that it vectorizes:
/// Rust's saturating conversion does not.
#[inline(always)]
fn truncated_u16(value: f32) -> u16 {
    /// The largest `f32` below 2^31.
    const BELOW_2_31: f32 = 2_147_483_520.0;
    // `max` first: it turns NaN into the lower end (`clamp` would keep
    // NaN, which no integer conversion may be given unchecked).
    #[allow(clippy::manual_clamp)]
    let inside = value.max(-2_147_483_648.0).min(BELOW_2_31);
    // SAFETY: `inside` is a number in the range of i32.
    let truncated = unsafe { inside.to_int_unchecked::<i32>() } as u16;
    if value >= 2_147_483_648.0 {
        u16::MAX
    } else {
        truncated
    }
}

/// `depth` with every value outside `min..=max` metres (value × depth
/// units, in `f32`) set to 0.
pub fn threshold(depth: &mut [u16], depth_units: f32, min: f32, max: f32) {
    for d in depth.iter_mut() {
        let metres = depth_units * f32::from(*d);
        if !(metres >= min && metres <= max) {
            *d = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn disparity_round_trips_and_holes_stay_holes() {
        let factor = conversion_factor(50.0, 400.0, 0.001);
        assert_eq!(factor, 0.05f32 * 400.0 * 32.0 / 0.001);
        let disparity = to_disparity(&[0, 1000, 2500], factor);
        assert_eq!(disparity[0], 0.0);
        assert_eq!(to_depth(&disparity, factor), [0, 1000, 2500]);
        let mut depth = [0, 100, 1000, 5000];
        threshold(&mut depth, 0.001, 0.15, 4.0);
        assert_eq!(depth, [0, 0, 1000, 0]);
    }

    #[test]
    fn truncation_is_the_saturating_conversion() {
        let special = [
            0.0,
            -0.0,
            0.5,
            65535.9,
            65536.0,
            -1.5,
            2_147_483_520.0,
            2_147_483_648.0,
            -2_147_483_648.0,
            -2_147_483_904.0,
            f32::MAX,
            f32::MIN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
        ];
        // And floats of every exponent, from their bits.
        let spread = (0..1u32 << 16).map(|i| f32::from_bits(i.wrapping_mul(0x9E37_79B9) | i));
        for value in special.into_iter().chain(spread) {
            assert_eq!(truncated_u16(value), value as i32 as u16, "{value}");
        }
    }
}
