//! Frames as images: rows without stride padding, colour in RGB order,
//! depth as a colour map.

use crate::device::{Format, Frame};
use crate::{Error, Result};

/// How an [`Image`]'s pixels are laid out in its `data`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PixelLayout {
    /// One byte per pixel.
    Gray8,
    /// One 16-bit little-endian sample per pixel (depth in raw units, Y16).
    Gray16,
    /// Red, green, blue, one byte each.
    Rgb8,
    /// Red, green, blue, alpha, one byte each.
    Rgba8,
}

impl PixelLayout {
    /// Bytes per pixel.
    pub fn bytes_per_pixel(self) -> usize {
        match self {
            PixelLayout::Gray8 => 1,
            PixelLayout::Gray16 => 2,
            PixelLayout::Rgb8 => 3,
            PixelLayout::Rgba8 => 4,
        }
    }
}

/// An image: rows packed one after the other, no padding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Image {
    /// Pixels per row.
    pub width: u32,
    /// Rows.
    pub height: u32,
    /// What a pixel is.
    pub layout: PixelLayout,
    /// `width * height * layout.bytes_per_pixel()` bytes.
    pub data: Vec<u8>,
}

/// For a frame format: bytes per pixel in the frame, and the layout of its
/// image.
fn layout_of(format: Format) -> Option<(usize, PixelLayout)> {
    Some(match format {
        Format::Y8 | Format::Raw8 => (1, PixelLayout::Gray8),
        Format::Z16 | Format::Disparity16 | Format::Y16 | Format::Raw16 => (2, PixelLayout::Gray16),
        Format::Rgb8 | Format::Bgr8 => (3, PixelLayout::Rgb8),
        Format::Rgba8 | Format::Bgra8 => (4, PixelLayout::Rgba8),
        Format::Yuyv | Format::Uyvy => (2, PixelLayout::Rgb8),
        _ => return None,
    })
}

/// Whether [`image`] turns frames of `format` into images.
pub fn image_supported(format: Format) -> bool {
    layout_of(format).is_some()
}

/// The image of a video frame: grey levels as they are, colour in RGB(A)
/// order (BGR swapped, YUYV and UYVY converted as librealsense converts
/// them). An error for a format [`image_supported`] refuses, or a frame
/// whose bytes do not hold its resolution.
pub fn image(frame: &Frame) -> Result<Image> {
    let format = frame.profile.format;
    let (bpp, layout) = layout_of(format).ok_or_else(|| {
        Error::Unsupported(format!("{format} frames cannot be made into an image"))
    })?;
    let (width, height) = frame.resolution().unwrap_or((0, 0));
    // The rows are checked against the bytes the frame holds first: the
    // resolution comes from the file, and must not size an allocation by
    // itself.
    let rows = rows(frame, bpp)?;
    let mut data = Vec::with_capacity(width as usize * height as usize * layout.bytes_per_pixel());
    for row in rows {
        match format {
            Format::Bgr8 => data.extend(row.chunks_exact(3).flat_map(|p| [p[2], p[1], p[0]])),
            Format::Bgra8 => {
                data.extend(row.chunks_exact(4).flat_map(|p| [p[2], p[1], p[0], p[3]]))
            }
            Format::Yuyv => data.extend(
                row.chunks_exact(4)
                    .flat_map(|p| yuv422(p[0], p[1], p[2], p[3])),
            ),
            Format::Uyvy => data.extend(
                row.chunks_exact(4)
                    .flat_map(|p| yuv422(p[1], p[0], p[3], p[2])),
            ),
            _ => data.extend_from_slice(row),
        }
    }
    Ok(Image {
        width,
        height,
        layout,
        data,
    })
}

/// The rows of a video frame, `bpp` bytes per pixel, checked against the
/// frame's size and stride (the bytes come from a file: trust nothing).
pub fn rows(frame: &Frame, bpp: usize) -> Result<impl Iterator<Item = &[u8]>> {
    let (width, height) = frame.resolution().unwrap_or((0, 0));
    let row = u64::from(width) * bpp as u64;
    let stride = match u64::from(frame.stride) {
        0 => row,
        s => s,
    };
    let needed = stride
        .checked_mul(u64::from(height))
        .filter(|_| stride >= row && row > 0 && height > 0);
    let data = &frame.data[..];
    match needed {
        Some(needed) if needed <= data.len() as u64 => {
            // Each row is `stride` bytes, of which the pixels are the first.
            let row = row as usize;
            Ok(data[..needed as usize]
                .chunks(stride as usize)
                .map(move |r| &r[..row]))
        }
        _ => Err(Error::InvalidArgument(format!(
            "frame #{} of {} has {} bytes, which do not hold a {width}x{height} {} image with {} bytes per row",
            frame.number,
            frame.profile.stream,
            data.len(),
            frame.profile.format,
            frame.stride
        ))),
    }
}

/// Two RGB pixels from Y0 U Y1 V (ITU-R BT.601, studio range, as
/// librealsense converts YUY2).
fn yuv422(y0: u8, u: u8, y1: u8, v: u8) -> [u8; 6] {
    let pixel = |y: u8| {
        let (c, d, e) = (i32::from(y) - 16, i32::from(u) - 128, i32::from(v) - 128);
        let clamp = |x: i32| ((x + 128) >> 8).clamp(0, 255) as u8;
        [
            clamp(298 * c + 409 * e),
            clamp(298 * c - 100 * d - 208 * e),
            clamp(298 * c + 516 * d),
        ]
    };
    let (a, b) = (pixel(y0), pixel(y1));
    [a[0], a[1], a[2], b[0], b[1], b[2]]
}

/// The depth values (raw units) of a Z16 frame, row by row.
pub(crate) fn depth_values(frame: &Frame) -> Result<Vec<u16>> {
    let rows = rows(frame, 2)?;
    let (width, height) = frame.resolution().unwrap_or((0, 0));
    let mut values = Vec::with_capacity(width as usize * height as usize);
    for row in rows {
        values.extend(
            row.chunks_exact(2)
                .map(|p| u16::from_le_bytes([p[0], p[1]])),
        );
    }
    Ok(values)
}

/// A Z16 frame as an RGB image: depths from `near` to `far` metres go
/// from blue through green and yellow to red (a jet map), clamped outside
/// the range; no depth (0) is black.
pub fn colorize(frame: &Frame, depth_units: f32, near: f32, far: f32) -> Result<Image> {
    let (width, height) = frame.resolution().unwrap_or((0, 0));
    let data = depth_values(frame)?
        .into_iter()
        .flat_map(|d| {
            if d == 0 {
                return [0; 3];
            }
            let t = ((f32::from(d) * depth_units - near) / (far - near)).clamp(0.0, 1.0);
            let channel = |center: f32| {
                ((1.5 - (4.0 * t - center).abs()).clamp(0.0, 1.0) * 255.0).round() as u8
            };
            [channel(3.0), channel(2.0), channel(1.0)]
        })
        .collect();
    Ok(Image {
        width,
        height,
        layout: PixelLayout::Rgb8,
        data,
    })
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::device::{StreamId, StreamKind, StreamProfile, TimestampDomain};

    pub(crate) fn frame(
        format: Format,
        width: u32,
        height: u32,
        stride: u32,
        data: Vec<u8>,
    ) -> Frame {
        Frame {
            profile: StreamProfile::video(
                StreamId::new(StreamKind::Color, 0),
                format,
                width,
                height,
                30,
            ),
            number: 7,
            timestamp: 0.0,
            domain: TimestampDomain::HardwareClock,
            system_time: 0.0,
            metadata: Vec::new(),
            stride,
            data: data.into(),
        }
    }

    #[test]
    fn yuyv_becomes_rgb() {
        // Studio-range white and black, then pure red (Y 81, U 90, V 240).
        let data = vec![235, 128, 16, 128, 81, 90, 81, 240];
        let image = image(&frame(Format::Yuyv, 2, 2, 4, data)).expect("image");
        assert_eq!(image.layout, PixelLayout::Rgb8);
        assert_eq!(&image.data[..6], [255, 255, 255, 0, 0, 0]);
        let red = &image.data[6..9];
        assert!(red[0] > 250 && red[1] < 5 && red[2] < 5, "{red:?}");
    }

    #[test]
    fn bgr_is_swapped_and_16_bit_kept_little_endian() {
        let bgr = image(&frame(Format::Bgr8, 1, 1, 3, vec![1, 2, 3])).expect("image");
        assert_eq!(bgr.data, [3, 2, 1]);
        let z16 = image(&frame(Format::Z16, 2, 1, 4, vec![1, 2, 3, 4])).expect("image");
        assert_eq!(
            (z16.layout, z16.data),
            (PixelLayout::Gray16, vec![1, 2, 3, 4])
        );
    }

    #[test]
    fn stride_padding_is_dropped_and_short_data_refused() {
        let data = vec![1, 2, 0xff, 3, 4, 0xff];
        let image = image(&frame(Format::Y8, 2, 2, 3, data)).expect("image");
        assert_eq!(image.data, [1, 2, 3, 4]);
        let error = image_error(frame(Format::Rgb8, 4, 4, 12, vec![0; 40]));
        assert!(
            error.contains("frame #7 of Color 0 has 40 bytes"),
            "{error}"
        );
        assert!(!image_error(frame(Format::Y8, 0, 4, 0, vec![0; 4])).is_empty());
        assert!(!image_error(frame(Format::Y8, 4, 4, 2, vec![0; 64])).is_empty());
    }

    #[test]
    fn a_resolution_the_bytes_do_not_hold_allocates_nothing_for_it() {
        // Found by fuzzing: 100000x100000 RGB would be a 30 GB image.
        let error = image_error(frame(Format::Rgb8, 100_000, 100_000, 0, vec![0; 12]));
        assert!(error.contains("has 12 bytes"), "{error}");
        let error = image_error(frame(Format::Yuyv, 100_000, 100_000, 0, vec![0; 12]));
        assert!(error.contains("has 12 bytes"), "{error}");
    }

    fn image_error(frame: Frame) -> String {
        match image(&frame) {
            Ok(_) => String::new(),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn colorize_spans_blue_to_red_and_leaves_no_depth_black() {
        let data = [0u16, 1000, 5000]
            .iter()
            .flat_map(|d| d.to_le_bytes())
            .collect();
        let depth = frame(Format::Z16, 3, 1, 6, data);
        let image = colorize(&depth, 0.001, 1.0, 5.0).expect("colorize");
        assert_eq!(&image.data[..3], [0, 0, 0]);
        let (near, far) = (&image.data[3..6], &image.data[6..9]);
        assert!(near[2] > 100 && near[0] == 0, "near is blue: {near:?}");
        assert!(far[0] > 100 && far[2] == 0, "far is red: {far:?}");
    }
}
