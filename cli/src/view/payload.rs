//! A frame as the page draws it: a little JSON header (what the frame is:
//! number, timestamp, metadata, size, pixel layout), then the pixels.
//!
//! Layout: the header's length (u32, little-endian), the header (UTF-8
//! JSON), then `width * height` pixels of the header's `layout`: `rgb8`,
//! `rgba8` and `gray8` as the frame's image (colour in RGB order), `depth16`
//! and `gray16` as the frame's 16-bit values (little-endian), so the page
//! shows depth in metres under the cursor and colourises it itself. When
//! the page asks for librealsense's colours, a depth frame's values are
//! followed by its colours (`colors`: `rgb8`, the same size), and the
//! header holds the colour map's `legend` (256 colours, `min` to `max`
//! metres) unless colours follow the histogram.

use rsbag::device::{Format, Frame};
use rsbag::processing::{image, Colorizer, PixelLayout};
use rsbag::recording::RecordedFrame;
use rsbag::Result;
use serde_json::json;

/// A frame as the page draws it, at most `max_width` pixels wide (a
/// thumbnail takes every n-th pixel of every n-th row); `None` for a
/// stream that has no picture (IMU, pose).
pub fn encode(
    recorded: &RecordedFrame,
    depth_units: Option<f32>,
    max_width: Option<u32>,
) -> Result<Option<Vec<u8>>> {
    encode_colored(recorded, depth_units, max_width, None)
}

/// [`encode`], with a depth frame's colours as `colorizer` makes them
/// after its values when given.
pub fn encode_colored(
    recorded: &RecordedFrame,
    depth_units: Option<f32>,
    max_width: Option<u32>,
    colorizer: Option<&Colorizer>,
) -> Result<Option<Vec<u8>>> {
    let frame = &recorded.frame;
    if !rsbag::processing::image_supported(frame.profile.format) {
        return Ok(None);
    }
    let picture = image(frame)?;
    let layout = match (picture.layout, frame.profile.format) {
        (PixelLayout::Gray16, Format::Z16) => "depth16",
        (PixelLayout::Gray16, _) => "gray16",
        (PixelLayout::Gray8, _) => "gray8",
        (PixelLayout::Rgb8, _) => "rgb8",
        (PixelLayout::Rgba8, _) => "rgba8",
    };
    let bpp = picture.layout.bytes_per_pixel();
    let step = max_width.map_or(1, |max| picture.width.div_ceil(max.max(1)).max(1));
    let (width, height, pixels) = if step == 1 {
        (picture.width, picture.height, picture.data)
    } else {
        subsample(&picture.data, picture.width, picture.height, bpp, step)
    };
    let colored = match (colorizer, depth_units, layout) {
        (Some(colorizer), Some(units), "depth16") => Some(colorize(colorizer, frame, units, step)?),
        _ => None,
    };
    let mut header = json!({
        "stream": super::model::stream_key(recorded.stream),
        "index": recorded.index,
        "t": recorded.time.as_secs_f64(),
        "number": frame.number,
        "timestamp": frame.timestamp,
        "domain": frame.domain.to_string(),
        "metadata": metadata(frame),
        "format": frame.profile.format.to_string(),
        "width": width,
        "height": height,
        "full_width": picture.width,
        "full_height": picture.height,
        "layout": layout,
        "depth_units": depth_units,
    });
    if let Some(colored) = &colored {
        header["colors"] = json!("rgb8");
        header["legend"] = json!(colored.legend);
    }
    let header = header.to_string();
    let colors = colored.map(|c| c.colors).unwrap_or_default();
    let mut out = Vec::with_capacity(4 + header.len() + pixels.len() + colors.len());
    out.extend_from_slice(&(header.len() as u32).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    out.extend_from_slice(&pixels);
    out.extend_from_slice(&colors);
    Ok(Some(out))
}

/// Steps of a colour map's legend.
const LEGEND_STEPS: usize = 256;

/// A depth frame in a colorizer's colours.
struct Colored {
    /// RGB8, the size of the frame sent.
    colors: Vec<u8>,
    /// The colour map from `min` to `max` metres (`None` when colours
    /// follow the histogram, not distances).
    legend: Option<Vec<[u8; 3]>>,
}

/// A depth frame's colours (every `step`-th pixel of every `step`-th row
/// of the whole frame's colours: equalization ranks the whole frame) and
/// the legend of its colour map.
fn colorize(colorizer: &Colorizer, frame: &Frame, units: f32, step: u32) -> Result<Colored> {
    let colors = colorizer.colorize_frame(frame, units)?;
    let colors = if step == 1 {
        colors.data
    } else {
        subsample(&colors.data, colors.width, colors.height, 3, step).2
    };
    let legend = (!colorizer.histogram_equalization && units > 0.0)
        .then(|| {
            let (min, max) = (colorizer.min_distance, colorizer.max_distance);
            let ramp: Vec<u16> = (0..LEGEND_STEPS)
                .map(|i| {
                    let metres = min + (max - min) * i as f32 / (LEGEND_STEPS - 1) as f32;
                    // The first step is the map's near end, not "no depth".
                    ((metres / units).round() as u16).max(1)
                })
                .collect();
            colorizer.colorize(&ramp, LEGEND_STEPS as u32, 1, units)
        })
        .transpose()?
        .map(|rgb| rgb.chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect());
    Ok(Colored { colors, legend })
}

/// The frame's metadata, by librealsense's names.
fn metadata(frame: &Frame) -> serde_json::Map<String, serde_json::Value> {
    frame
        .metadata
        .iter()
        .map(|(key, value)| (key.to_string(), json!(value)))
        .collect()
}

/// Every `step`-th pixel of every `step`-th row.
fn subsample(data: &[u8], width: u32, height: u32, bpp: usize, step: u32) -> (u32, u32, Vec<u8>) {
    let (w, h) = (width.div_ceil(step), height.div_ceil(step));
    let row_bytes = width as usize * bpp;
    let mut out = Vec::with_capacity(w as usize * h as usize * bpp);
    for row in data.chunks_exact(row_bytes).step_by(step as usize) {
        for pixel in row.chunks_exact(bpp).step_by(step as usize) {
            out.extend_from_slice(pixel);
        }
    }
    (w, h, out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subsampling_takes_every_nth_pixel_of_every_nth_row() {
        // 5x3 gray image, values = 10 * row + column.
        let data: Vec<u8> = (0..3)
            .flat_map(|r| (0..5).map(move |c| 10 * r + c))
            .collect();
        let (w, h, out) = subsample(&data, 5, 3, 1, 2);
        assert_eq!((w, h), (3, 2));
        assert_eq!(out, [0, 2, 4, 20, 22, 24]);
    }
}
