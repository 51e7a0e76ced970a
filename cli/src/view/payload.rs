//! A frame as the page draws it: a little JSON header (what the frame is:
//! number, timestamp, metadata, size, pixel layout), then the pixels.
//!
//! Layout: the header's length (u32, little-endian), the header (UTF-8
//! JSON), then `width * height` pixels of the header's `layout`: `rgb8`,
//! `rgba8` and `gray8` as the frame's image (colour in RGB order), `depth16`
//! and `gray16` as the frame's 16-bit values (little-endian), so the page
//! shows depth in metres under the cursor and colourises it itself.

use rsbag::device::{Format, Frame};
use rsbag::playback::RecordedFrame;
use rsbag::processing::{image, PixelLayout};
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
    let header = json!({
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
    })
    .to_string();
    let mut out = Vec::with_capacity(4 + header.len() + pixels.len());
    out.extend_from_slice(&(header.len() as u32).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    out.extend_from_slice(&pixels);
    Ok(Some(out))
}

/// The frame's metadata, by librealsense's names.
fn metadata(frame: &Frame) -> serde_json::Map<String, serde_json::Value> {
    frame
        .metadata
        .iter()
        .map(|(key, value)| (key.clone(), json!(value)))
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
