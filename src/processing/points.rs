//! Depth frames as 3D points.

use super::image::depth_values;
use crate::device::{Frame, Intrinsics};
use crate::Result;

/// The 3D points (metres, camera coordinates) of the pixels of a Z16
/// frame that have a depth: `z = depth * depth_units`,
/// `x = (u - ppx) / fx * z`, `y = (v - ppy) / fy * z`. Lens distortion is
/// ignored.
pub fn points(frame: &Frame, intrinsics: &Intrinsics, depth_units: f32) -> Result<Vec<[f32; 3]>> {
    let (width, _) = frame.resolution().unwrap_or((0, 0));
    let values = depth_values(frame)?;
    let mut points = Vec::new();
    for (i, &d) in values.iter().enumerate() {
        if d == 0 {
            continue;
        }
        let (u, v) = ((i % width as usize) as f32, (i / width as usize) as f32);
        let z = f32::from(d) * depth_units;
        points.push([
            (u - intrinsics.ppx) / intrinsics.fx * z,
            (v - intrinsics.ppy) / intrinsics.fy * z,
            z,
        ]);
    }
    Ok(points)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::{Distortion, Format, StreamId, StreamKind};
    use crate::processing::image::tests::frame;

    #[test]
    fn points_deproject_valid_depth_only() {
        let data = [0u16, 1000, 2000, 0]
            .iter()
            .flat_map(|d| d.to_le_bytes())
            .collect();
        let mut depth = frame(Format::Z16, 2, 2, 4, data);
        depth.profile.stream = StreamId::new(StreamKind::Depth, 0);
        let i = Intrinsics {
            width: 2,
            height: 2,
            ppx: 0.5,
            ppy: 0.5,
            fx: 2.0,
            fy: 4.0,
            model: Distortion::None,
            coeffs: [0.0; 5],
        };
        let points = points(&depth, &i, 0.001).expect("points");
        assert_eq!(points, [[0.25, -0.125, 1.0], [-0.5, 0.25, 2.0]]);
    }
}
