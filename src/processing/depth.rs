//! Depth frames as numbers: raw depth units, or meters.

use super::image::depth_values;
use crate::device::{Format, Frame};
use crate::{Error, Result};

/// A depth frame's values, row by row without stride padding:
/// `values[y * width + x]` is the pixel at column `x`, row `y`.
#[derive(Debug, Clone, PartialEq)]
pub struct DepthMap<T> {
    /// Pixels per row.
    pub width: u32,
    /// Rows.
    pub height: u32,
    /// `width * height` values.
    pub values: Vec<T>,
}

/// The raw values of a Z16 depth frame (depth units; 0 is no depth).
pub fn depth_raw(frame: &Frame) -> Result<DepthMap<u16>> {
    if frame.profile.format != Format::Z16 {
        return Err(Error::InvalidArgument(format!(
            "frame #{} of {} is {}, not Z16 depth",
            frame.number, frame.profile.stream, frame.profile.format
        )));
    }
    let (width, height) = frame.resolution().unwrap_or((0, 0));
    Ok(DepthMap {
        width,
        height,
        values: depth_values(frame)?,
    })
}

/// The depth of each pixel of a Z16 frame in meters: `raw * depth_units`
/// computed in 32-bit floats, exactly as librealsense's
/// `depth_frame::get_distance` computes it (0 where there is no depth).
/// `depth_units` is the depth sensor's Depth Units option (meters per
/// unit).
pub fn depth_meters(frame: &Frame, depth_units: f32) -> Result<DepthMap<f32>> {
    let raw = depth_raw(frame)?;
    Ok(DepthMap {
        width: raw.width,
        height: raw.height,
        values: raw
            .values
            .into_iter()
            .map(|d| f32::from(d) * depth_units)
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::{StreamId, StreamKind};
    use crate::processing::image::tests::frame;

    fn depth(width: u32, height: u32, stride: u32, values: &[u16]) -> Frame {
        let mut data: Vec<u8> = Vec::new();
        for row in values.chunks(width as usize) {
            data.extend(row.iter().flat_map(|d| d.to_le_bytes()));
            data.resize(data.len() + (stride - 2 * width) as usize, 0xee);
        }
        let mut frame = frame(Format::Z16, width, height, stride, data);
        frame.profile.stream = StreamId::new(StreamKind::Depth, 0);
        frame
    }

    #[test]
    fn meters_are_raw_times_units_without_the_stride_padding() {
        let frame = depth(2, 2, 6, &[0, 1000, 1234, 65535]);
        let raw = depth_raw(&frame).expect("raw");
        assert_eq!((raw.width, raw.height), (2, 2));
        assert_eq!(raw.values, [0, 1000, 1234, 65535]);
        let meters = depth_meters(&frame, 0.001).expect("meters");
        assert_eq!(
            meters.values,
            [
                0.0,
                1000.0 * 0.001f32,
                1234.0 * 0.001f32,
                65535.0 * 0.001f32
            ]
        );
    }

    #[test]
    fn other_formats_and_short_frames_are_refused() {
        let y16 = frame(Format::Y16, 2, 1, 4, vec![0; 4]);
        let message = depth_raw(&y16).expect_err("Y16 is not depth").to_string();
        assert!(message.contains("not Z16"), "{message}");
        let mut short = depth(2, 2, 4, &[1, 2, 3, 4]);
        short.data = short.data.slice(..6);
        assert!(depth_meters(&short, 0.001).is_err());
    }
}
