//! The lossless image compression librealsense 2.59 writes in a `.db3`
//! (`sensor_msgs/msg/CompressedImage`), both ways:
//!
//! | stream format | `format` field | data |
//! |---|---|---|
//! | Z16 | `16UC1; compressedDepth png` | 12 zero bytes, then a 16-bit PNG |
//! | Y8 | `mono8; png compressed mono8` | 8-bit gray PNG |
//! | Y16 | `mono16; png compressed mono16` | 16-bit gray PNG |
//! | RGB8, BGR8 | `rgb8; png compressed bgr8`, `bgr8; …` | RGB PNG (true RGB order) |
//! | RGBA8, BGRA8 | `rgba8; png compressed bgra8`, `bgra8; …` | RGBA PNG (true RGBA order) |
//! | YUYV, UYVY, RAW16 | `YUYV; zstd; WxH step=S` | a zstd frame of the bytes |
//!
//! PNG holds 16-bit samples big-endian; frames hold them little-endian.

use crate::device::Format;
use crate::{Error, Result};

/// The 12-byte header `compressedDepth` puts before the PNG (ROS's
/// depth quantization parameters, zero for lossless depth).
const DEPTH_HEADER: usize = 12;

/// Largest decoded image accepted, against damaged size fields.
pub(crate) const MAX_IMAGE_BYTES: usize = 1 << 30;

/// An image as the stream delivers it: owned when decompressed, borrowed
/// (`Pixels<&[u8]>`, a frame's own bytes) when compressed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pixels<D = Vec<u8>> {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Bytes per row.
    pub stride: u32,
    /// The pixels.
    pub data: D,
}

fn bad(reason: impl Into<String>) -> Error {
    Error::decode("sensor_msgs/msg/CompressedImage", reason)
}

/// Decode the `data` of a `CompressedImage` with `format` into the pixels
/// of a stream of `stream_format`.
pub fn decompress(format: &[u8], data: &[u8], stream_format: Format) -> Result<Pixels> {
    let text = String::from_utf8_lossy(format);
    if text.contains("compressedDepth") {
        let png = data.get(DEPTH_HEADER..).ok_or_else(|| {
            bad(format!(
                "compressedDepth data of {} bytes has no PNG",
                data.len()
            ))
        })?;
        return decode_png(png, stream_format);
    }
    if text.contains("png") {
        return decode_png(data, stream_format);
    }
    if text.contains("zstd") {
        return decode_zstd(&text, data);
    }
    Err(bad(format!("unknown compressed image format {text:?}")))
}

fn decode_png(data: &[u8], stream_format: Format) -> Result<Pixels> {
    let image = read_png(data)?;
    let mut buf = image.data;
    // The PNG holds true RGB(A); BGR formats hold blue first.
    match (stream_format, image.channels) {
        (Format::Bgr8, 3) => swap_red_blue(&mut buf, 3),
        (Format::Bgra8, 4) => swap_red_blue(&mut buf, 4),
        _ => {}
    }
    let sample = if image.sixteen { 2 } else { 1 };
    Ok(Pixels {
        width: image.width,
        height: image.height,
        stride: image.width * image.channels * sample,
        data: buf,
    })
}

/// The samples of a PNG image, rows packed, 16-bit samples little-endian.
#[derive(Debug)]
pub(crate) struct PngImage {
    pub width: u32,
    pub height: u32,
    /// 1 (grey), 3 (RGB) or 4 (RGBA), in the PNG's true order.
    pub channels: u32,
    /// Whether samples are 16-bit (else 8-bit).
    pub sixteen: bool,
    pub data: Vec<u8>,
}

/// Read an 8- or 16-bit grey, RGB or RGBA PNG (what OpenCV and
/// librealsense write); other kinds (palette, grey with alpha, fewer
/// bits) are refused.
pub(crate) fn read_png(data: &[u8]) -> Result<PngImage> {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(data));
    decoder.set_transformations(png::Transformations::IDENTITY);
    let mut reader = decoder.read_info().map_err(|e| bad(format!("PNG: {e}")))?;
    let size = reader
        .output_buffer_size()
        .filter(|&n| n <= MAX_IMAGE_BYTES)
        .ok_or_else(|| bad("PNG image too large"))?;
    let mut buf = vec![0; size];
    let info = reader
        .next_frame(&mut buf)
        .map_err(|e| bad(format!("PNG: {e}")))?;
    buf.truncate(info.buffer_size());
    let channels = match info.color_type {
        png::ColorType::Grayscale => 1,
        png::ColorType::Rgb => 3,
        png::ColorType::Rgba => 4,
        other => return Err(bad(format!("PNG of colour type {other:?} is not read"))),
    };
    let sixteen = match info.bit_depth {
        png::BitDepth::Eight => false,
        png::BitDepth::Sixteen => true,
        other => return Err(bad(format!("PNG of {other:?} bits per sample is not read"))),
    };
    if sixteen {
        for sample in buf.chunks_exact_mut(2) {
            sample.swap(0, 1);
        }
    }
    Ok(PngImage {
        width: info.width,
        height: info.height,
        channels,
        sixteen,
        data: buf,
    })
}

pub(crate) fn swap_red_blue(buf: &mut [u8], channels: usize) {
    for pixel in buf.chunks_exact_mut(channels) {
        pixel.swap(0, 2);
    }
}

/// `YUYV; zstd; 640x480 step=1280`: the size comes from the format text.
fn decode_zstd(format: &str, data: &[u8]) -> Result<Pixels> {
    let (width, height, stride) = zstd_geometry(format)
        .ok_or_else(|| bad(format!("zstd format {format:?} does not give WxH step=S")))?;
    let expected = stride as usize * height as usize;
    if expected > MAX_IMAGE_BYTES {
        return Err(bad("zstd image too large"));
    }
    let data = zstd::bulk::decompress(data, expected).map_err(|e| bad(format!("zstd: {e}")))?;
    if data.len() != expected {
        return Err(bad(format!(
            "zstd data holds {} bytes, {width}x{height} with step {stride} needs {expected}",
            data.len()
        )));
    }
    Ok(Pixels {
        width,
        height,
        stride,
        data,
    })
}

fn zstd_geometry(format: &str) -> Option<(u32, u32, u32)> {
    let geometry = format.split(';').nth(2)?.trim();
    let (size, step) = geometry.split_once(" step=")?;
    let (w, h) = size.split_once('x')?;
    Some((w.parse().ok()?, h.parse().ok()?, step.trim().parse().ok()?))
}

/// How librealsense 2.59 compresses frames of `format`, if it does.
fn scheme(format: Format) -> Option<Scheme> {
    use Format::*;
    Some(match format {
        Z16 => Scheme::Png(
            "16UC1; compressedDepth png",
            png::ColorType::Grayscale,
            true,
        ),
        Y8 => Scheme::Png(
            "mono8; png compressed mono8",
            png::ColorType::Grayscale,
            false,
        ),
        Y16 => Scheme::Png(
            "mono16; png compressed mono16",
            png::ColorType::Grayscale,
            false,
        ),
        Rgb8 => Scheme::Png("rgb8; png compressed bgr8", png::ColorType::Rgb, false),
        Bgr8 => Scheme::Png("bgr8; png compressed bgr8", png::ColorType::Rgb, false),
        Rgba8 => Scheme::Png("rgba8; png compressed bgra8", png::ColorType::Rgba, false),
        Bgra8 => Scheme::Png("bgra8; png compressed bgra8", png::ColorType::Rgba, false),
        Yuyv | Uyvy | Raw16 => Scheme::Zstd,
        _ => return None,
    })
}

enum Scheme {
    /// Format text, PNG colour type, whether the compressedDepth header
    /// comes first.
    Png(&'static str, png::ColorType, bool),
    Zstd,
}

/// Whether a compressed frame of `format` goes to `image/data/compressedDepth`
/// (rather than `image/data/compressed`).
pub fn is_compressed_depth(format: Format) -> bool {
    matches!(scheme(format), Some(Scheme::Png(_, _, true)))
}

/// Compress one frame as librealsense 2.59 does: the `format` text and the
/// data of its `CompressedImage`. `None` for formats it does not compress.
pub fn compress<D: AsRef<[u8]>>(
    format: Format,
    pixels: &Pixels<D>,
) -> Result<Option<(String, Vec<u8>)>> {
    let Some(scheme) = scheme(format) else {
        return Ok(None);
    };
    match scheme {
        Scheme::Zstd => {
            let data = zstd::bulk::compress(pixels.data.as_ref(), 1).map_err(Error::Stream)?;
            let text = format!(
                "{}; zstd; {}x{} step={}",
                format.name(),
                pixels.width,
                pixels.height,
                pixels.stride
            );
            Ok(Some((text, data)))
        }
        Scheme::Png(text, color, depth_header) => {
            let mut out = if depth_header {
                vec![0; DEPTH_HEADER]
            } else {
                Vec::new()
            };
            encode_png(&mut out, format, color, pixels)?;
            Ok(Some((text.to_owned(), out)))
        }
    }
}

pub(crate) fn encode_png<D: AsRef<[u8]>>(
    out: &mut Vec<u8>,
    format: Format,
    color: png::ColorType,
    p: &Pixels<D>,
) -> Result<()> {
    let channels = match color {
        png::ColorType::Rgb => 3,
        png::ColorType::Rgba => 4,
        _ => 1,
    };
    let sixteen = matches!(format, Format::Z16 | Format::Y16);
    let sample = if sixteen { 2 } else { 1 };
    let row = p.width as usize * channels * sample;
    let mut image = Vec::with_capacity(row * p.height as usize);
    for y in 0..p.height as usize {
        let start = y * p.stride as usize;
        let line = p
            .data
            .as_ref()
            .get(start..start + row)
            .ok_or_else(|| Error::InvalidArgument("frame smaller than its size".into()))?;
        image.extend_from_slice(line);
    }
    if sixteen {
        for s in image.chunks_exact_mut(2) {
            s.swap(0, 1);
        }
    }
    if matches!(format, Format::Bgr8 | Format::Bgra8) {
        swap_red_blue(&mut image, channels);
    }
    let mut encoder = png::Encoder::new(out, p.width, p.height);
    encoder.set_color(color);
    encoder.set_depth(if sixteen {
        png::BitDepth::Sixteen
    } else {
        png::BitDepth::Eight
    });
    encoder.set_compression(png::Compression::Fast);
    let mut writer = encoder
        .write_header()
        .map_err(|e| Error::Stream(std::io::Error::other(e)))?;
    writer
        .write_image_data(&image)
        .map_err(|e| Error::Stream(std::io::Error::other(e)))?;
    writer
        .finish()
        .map_err(|e| Error::Stream(std::io::Error::other(e)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(format: Format, bpp: u32) {
        let (width, height) = (5u32, 3u32);
        let stride = width * bpp;
        let data: Vec<u8> = (0..stride * height).map(|i| (i * 37 % 251) as u8).collect();
        let pixels = Pixels {
            width,
            height,
            stride,
            data,
        };
        let (text, bytes) = compress(format, &pixels)
            .expect("compress")
            .expect("compressed");
        let back = decompress(text.as_bytes(), &bytes, format).expect("decompress");
        assert_eq!(back, pixels, "{format:?}");
    }

    #[test]
    fn every_compressed_format_round_trips() {
        for (format, bpp) in [
            (Format::Z16, 2),
            (Format::Y8, 1),
            (Format::Y16, 2),
            (Format::Rgb8, 3),
            (Format::Bgr8, 3),
            (Format::Rgba8, 4),
            (Format::Bgra8, 4),
            (Format::Yuyv, 2),
            (Format::Uyvy, 2),
            (Format::Raw16, 2),
        ] {
            round_trip(format, bpp);
        }
        assert!(compress(
            Format::MotionXyz32f,
            &Pixels {
                width: 0,
                height: 0,
                stride: 0,
                data: vec![]
            }
        )
        .expect("ok")
        .is_none());
    }

    #[test]
    fn damaged_data_is_an_error() {
        assert!(decompress(b"16UC1; compressedDepth png", &[0; 5], Format::Z16).is_err());
        assert!(decompress(b"mono8; png compressed mono8", &[1, 2, 3], Format::Y8).is_err());
        assert!(decompress(b"YUYV; zstd; 4x2 step=8", &[1, 2, 3], Format::Yuyv).is_err());
        assert!(decompress(b"YUYV; zstd; nonsense", &[], Format::Yuyv).is_err());
        assert!(decompress(b"jpeg", &[], Format::Rgb8).is_err());
    }
}
