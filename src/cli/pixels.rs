//! What `rsbag convert` makes of a frame's bytes: PNG images, colorized
//! depth and point clouds.

use rsbag::device::{Format, Frame, Intrinsics};
use rsbag::{Error, Result};

/// An image ready for the PNG encoder: rows packed, 16-bit samples
/// big-endian as PNG stores them.
pub struct Image {
    pub width: u32,
    pub height: u32,
    pub color: png::ColorType,
    pub depth: png::BitDepth,
    pub data: Vec<u8>,
}

/// Whether frames of `format` can be written as PNG.
pub fn png_supported(format: Format) -> bool {
    png_layout(format).is_some()
}

/// For a format: bytes per pixel in the frame, and the PNG color type and
/// bit depth it is written as.
fn png_layout(format: Format) -> Option<(usize, png::ColorType, png::BitDepth)> {
    use png::{BitDepth, ColorType};
    Some(match format {
        Format::Y8 | Format::Raw8 => (1, ColorType::Grayscale, BitDepth::Eight),
        Format::Z16 | Format::Disparity16 | Format::Y16 | Format::Raw16 => {
            (2, ColorType::Grayscale, BitDepth::Sixteen)
        }
        Format::Rgb8 | Format::Bgr8 => (3, ColorType::Rgb, BitDepth::Eight),
        Format::Rgba8 | Format::Bgra8 => (4, ColorType::Rgba, BitDepth::Eight),
        Format::Yuyv | Format::Uyvy => (2, ColorType::Rgb, BitDepth::Eight),
        _ => return None,
    })
}

/// The image of a video frame, in a format [`png_supported`] accepts.
pub fn image(frame: &Frame) -> Result<Image> {
    let format = frame.profile.format;
    let (bpp, color, depth) = png_layout(format).ok_or_else(|| {
        Error::InvalidArgument(format!("{format} frames cannot be written as PNG"))
    })?;
    let (width, height) = frame.resolution().unwrap_or((0, 0));
    let mut data = Vec::new();
    for row in rows(frame, bpp)? {
        match format {
            Format::Z16 | Format::Disparity16 | Format::Y16 | Format::Raw16 => {
                data.extend(row.chunks_exact(2).flat_map(|p| [p[1], p[0]]))
            }
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
        color,
        depth,
        data,
    })
}

/// The rows of a video frame, `bpp` bytes per pixel, checked against the
/// frame's size and stride (the bytes come from the file: trust nothing).
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
fn depth_values(frame: &Frame) -> Result<Vec<u16>> {
    let mut values = Vec::new();
    for row in rows(frame, 2)? {
        values.extend(
            row.chunks_exact(2)
                .map(|p| u16::from_le_bytes([p[0], p[1]])),
        );
    }
    Ok(values)
}

/// A Z16 frame as an 8-bit RGB image: depths from `near` to `far` meters
/// go from blue through green and yellow to red (a jet map), clamped
/// outside the range; no depth (0) is black.
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
        color: png::ColorType::Rgb,
        depth: png::BitDepth::Eight,
        data,
    })
}

/// The 3D points (meters, camera coordinates) of the pixels of a Z16
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
    use rsbag::device::{StreamId, StreamKind, StreamProfile};

    fn frame(format: Format, width: u32, height: u32, stride: u32, data: Vec<u8>) -> Frame {
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
            domain: rsbag::device::TimestampDomain::HardwareClock,
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
        assert_eq!(image.color, png::ColorType::Rgb);
        assert_eq!(&image.data[..6], [255, 255, 255, 0, 0, 0]);
        let red = &image.data[6..9];
        assert!(red[0] > 250 && red[1] < 5 && red[2] < 5, "{red:?}");
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

    fn image_error(frame: Frame) -> String {
        match image(&frame) {
            Ok(_) => String::new(),
            Err(e) => e.to_string(),
        }
    }

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
            model: rsbag::device::Distortion::None,
            coeffs: [0.0; 5],
        };
        let points = points(&depth, &i, 0.001).expect("points");
        assert_eq!(points, [[0.25, -0.125, 1.0], [-0.5, 0.25, 2.0]]);
    }
}
