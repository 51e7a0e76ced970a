//! Depth to disparity and back, and the depth threshold, as librealsense
//! 2.55's `disparity_transform` and `threshold` compute them.

/// The constant relating depth and disparity: depth units × disparity
/// (in 1/32 pixel) = `baseline × fx × 32 / depth units`, computed in
/// `f32` in librealsense's order. `baseline_mm` is the depth sensor's
/// Stereo Baseline option (millimetres), `fx` the depth image's focal
/// length (pixels), `depth_units` its Depth Units (metres).
pub fn conversion_factor(baseline_mm: f32, fx: f32, depth_units: f32) -> f32 {
    let baseline_m = baseline_mm * 0.001;
    (baseline_m * fx * 32.0) / depth_units
}

/// Disparity of each depth value: `factor / depth`, 0 where there is no
/// depth.
pub fn to_disparity(depth: &[u16], factor: f32) -> Vec<f32> {
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
            // C++'s float-to-uint16 conversion: truncated through a
            // 32-bit integer. Computed for every value (Rust's conversion
            // saturates, never undefined), chosen after: no branch.
            let depth = ((factor / d + 0.5) as i32) as u16;
            if d.is_normal() {
                depth
            } else {
                0
            }
        })
        .collect()
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
}
