//! image_transport's compressed topics (image_transport_plugins), read
//! and written as its plugins do:
//!
//! - `compressed` (`<image>/compressed`): `sensor_msgs/CompressedImage`
//!   whose `data` is a JPEG or PNG file (OpenCV's `imencode`) of the image
//!   made BGR (colour) or kept grey, and whose `format` is
//!   `"<encoding>; jpeg compressed bgr8"`, `"<encoding>; png compressed
//!   bgr8"`, `"mono8; jpeg compressed mono8"`, `"mono16; png compressed "`
//!   or, from older publishers, a bare `"jpeg"` / `"png"` (then the image
//!   is `bgr8` or `mono8`). OpenCV's file holds true RGB; a format saying
//!   `compressed rgb…` instead means the channels were stored swapped.
//! - `compressedDepth` (`<image>/compressedDepth`): `data` is a 12-byte
//!   ConfigHeader (int32 format, float32 depthParam\[2\], little-endian)
//!   then a 16-bit grey PNG or RVL ([`super::rvl`]: u32 cols, u32 rows,
//!   the RVL words); `format` is `"16UC1; compressedDepth png"`,
//!   `"…; compressedDepth rvl"` or a bare `"…; compressedDepth"` (PNG).
//!   `16UC1` depth is stored as it is; `32FC1` depth (metres) as
//!   quantised inverse depth v, read back as depth = A / (v − B) with A, B
//!   the header's depthParam, v = 0 meaning no depth (0 here, as
//!   librealsense has it; the plugin gives NaN).

use crate::device::Format;
use crate::realsense::images::{self, Pixels, MAX_IMAGE_BYTES};
use crate::{Error, Result};

/// Which plugin wrote a topic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transport {
    /// `compressed`: JPEG or PNG images.
    Compressed,
    /// `compressedDepth`: PNG or RVL depth.
    CompressedDepth,
}

impl Transport {
    /// The transport of a `CompressedImage` topic: its leaf
    /// (`compressedDepth`), or else what its `format` says.
    pub fn of(leaf: &str, format: &[u8]) -> Transport {
        let depth = leaf == "compressedDepth"
            || String::from_utf8_lossy(format).contains("compressedDepth");
        match depth {
            true => Transport::CompressedDepth,
            false => Transport::Compressed,
        }
    }

    /// The topic leaf the plugin publishes on.
    pub fn leaf(self) -> &'static str {
        match self {
            Transport::Compressed => "compressed",
            Transport::CompressedDepth => "compressedDepth",
        }
    }
}

/// Largest width or height of an image read, against damaged headers.
const MAX_SIDE: u32 = 8192;

/// The size of the ConfigHeader before `compressedDepth` data.
const DEPTH_HEADER: usize = 12;

fn bad(reason: impl Into<String>) -> Error {
    Error::decode("sensor_msgs/CompressedImage", reason)
}

/// The `sensor_msgs/Image` encoding a subscriber of the plugin gives the
/// image: the part of `format` before `;`, or for a bare `"jpeg"`/`"png"`
/// `mono8`, `mono16` or `bgr8` by the file's channels (decoding `data`).
pub fn image_encoding(transport: Transport, format: &[u8], data: &[u8]) -> Result<String> {
    let text = String::from_utf8_lossy(format);
    match (transport, text.split_once(';')) {
        (_, Some((encoding, _))) => Ok(encoding.trim().to_owned()),
        (Transport::CompressedDepth, None) => Ok(text.trim().to_owned()),
        (Transport::Compressed, None) => {
            let file = decode_file(data, None)?;
            Ok(match (file.channels, file.sixteen) {
                (1, false) => "mono8",
                (1, true) => "mono16",
                (3, false) => "bgr8",
                (channels, _) => {
                    return Err(bad(format!(
                        "a bare {text:?} image of {channels} channels has no encoding"
                    )))
                }
            }
            .to_owned())
        }
    }
}

/// The width and height of one message's image (decoding it).
pub fn image_size(transport: Transport, format: &[u8], data: &[u8]) -> Result<(u32, u32)> {
    match transport {
        Transport::Compressed => decode_file(data, None).map(|f| (f.width, f.height)),
        Transport::CompressedDepth => {
            let body = data.get(DEPTH_HEADER..).unwrap_or_default();
            let rvl = depth_codec(&String::from_utf8_lossy(format))?;
            let (width, height) = match body.split_first_chunk::<8>() {
                Some((head, _)) if rvl => (
                    u32::from_le_bytes([head[0], head[1], head[2], head[3]]),
                    u32::from_le_bytes([head[4], head[5], head[6], head[7]]),
                ),
                _ => {
                    let png = images::read_png(body)?;
                    (png.width, png.height)
                }
            };
            check_size(width, height, None)?;
            if width == 0 || height == 0 {
                return Err(bad(format!("an image of {width}x{height}")));
            }
            Ok((width, height))
        }
    }
}

/// Decode one message's `data` into pixels of `stream_format` (packed
/// rows), `size` (width, height) the stream's: an image of another size
/// is an error, found before its pixels are decoded.
pub fn decode(
    transport: Transport,
    format: &[u8],
    data: &[u8],
    stream_format: Format,
    size: (u32, u32),
) -> Result<Pixels> {
    let text = String::from_utf8_lossy(format);
    let pixels = match transport {
        Transport::CompressedDepth => decode_depth(&text, data, stream_format, size)?,
        Transport::Compressed => {
            let file = decode_file(data, Some(size))?;
            // Unless the format says the file was made from BGR (or is a
            // bare old one), its channels were stored swapped.
            let swapped = text.contains(';') && !text.contains("compressed bgr");
            convert(file, swapped, stream_format)?
        }
    };
    if (pixels.width, pixels.height) != size {
        return Err(bad(format!(
            "the image is {}x{}, the stream's first was {}x{}",
            pixels.width, pixels.height, size.0, size.1
        )));
    }
    Ok(pixels)
}

/// A decoded JPEG or PNG: packed rows in the file's channel order (grey,
/// RGB, RGBA), 16-bit samples little-endian.
struct File {
    width: u32,
    height: u32,
    channels: u32,
    sixteen: bool,
    jpeg: bool,
    data: Vec<u8>,
}

/// Decode a JPEG or PNG, known by its signature (as OpenCV's `imdecode`
/// does), of `size` if given.
fn decode_file(data: &[u8], size: Option<(u32, u32)>) -> Result<File> {
    if data.starts_with(b"\x89PNG\r\n\x1a\n") {
        let png = images::read_png(data)?;
        check_size(png.width, png.height, size)?;
        return Ok(File {
            width: png.width,
            height: png.height,
            channels: png.channels,
            sixteen: png.sixteen,
            jpeg: false,
            data: png.data,
        });
    }
    if data.starts_with(&[0xff, 0xd8]) {
        return decode_jpeg(data, size);
    }
    Err(bad(format!(
        "data of {} bytes is neither a JPEG nor a PNG",
        data.len()
    )))
}

fn check_size(width: u32, height: u32, size: Option<(u32, u32)>) -> Result<()> {
    match size {
        Some(s) if s != (width, height) => Err(bad(format!(
            "the image is {width}x{height}, the stream's first was {}x{}",
            s.0, s.1
        ))),
        None if width > MAX_SIDE || height > MAX_SIDE => Err(bad(format!(
            "an image of {width}x{height} is larger than {MAX_SIDE} pixels a side"
        ))),
        _ => Ok(()),
    }
}

fn decode_jpeg(data: &[u8], size: Option<(u32, u32)>) -> Result<File> {
    use zune_core::bytestream::ZCursor;
    use zune_core::colorspace::ColorSpace;
    use zune_core::options::DecoderOptions;
    let jpeg_error = |e: zune_jpeg::errors::DecodeErrors| bad(format!("JPEG: {e}"));
    let side = MAX_SIDE as usize;
    // Strict: a cut-off or damaged JPEG is an error, never a picture
    // filled in.
    let options = DecoderOptions::default()
        .set_max_width(side)
        .set_max_height(side)
        .set_strict_mode(true);
    let mut decoder = zune_jpeg::JpegDecoder::new_with_options(ZCursor::new(data), options);
    decoder.decode_headers().map_err(jpeg_error)?;
    let (width, height) = decoder
        .dimensions()
        .map(|(w, h)| (w as u32, h as u32))
        .ok_or_else(|| bad("JPEG without a size"))?;
    check_size(width, height, size)?;
    // Huffman coding spends at least a bit on each 8x8 block's DC value,
    // so fewer bytes than that cannot hold the picture: refused before the
    // decoder fills millions of pixels from nothing.
    let blocks = u64::from(width.div_ceil(8)) * u64::from(height.div_ceil(8));
    if (data.len() as u64) * 8 < blocks {
        return Err(bad(format!(
            "JPEG: {} bytes cannot hold a {width}x{height} picture ({blocks} blocks)",
            data.len()
        )));
    }
    let grey = decoder.input_colorspace() == Some(ColorSpace::Luma);
    let out = if grey {
        ColorSpace::Luma
    } else {
        ColorSpace::RGB
    };
    decoder.set_options(options.jpeg_set_out_colorspace(out));
    let pixels = decoder.decode().map_err(jpeg_error)?;
    Ok(File {
        width,
        height,
        channels: if grey { 1 } else { 3 },
        sixteen: false,
        jpeg: true,
        data: pixels,
    })
}

/// The pixels of `stream_format` from a decoded file: colour channels
/// put in the format's order (`swapped`: the file holds them reversed),
/// an opaque alpha added for RGBA/BGRA from an RGB file, and a JPEG's
/// 8-bit grey scaled to 16 bits (`× 256`, as the plugin's subscriber).
fn convert(mut file: File, swapped: bool, stream_format: Format) -> Result<Pixels> {
    let mismatch = |file: &File| {
        bad(format!(
            "a {}-channel {}-bit image cannot be {} pixels",
            file.channels,
            if file.sixteen { 16 } else { 8 },
            stream_format.name()
        ))
    };
    let data = match (stream_format, file.channels, file.sixteen) {
        (Format::Rgb8 | Format::Bgr8, 3, false) => {
            // The file's first channel is red unless swapped.
            if swapped != (stream_format == Format::Bgr8) {
                images::swap_red_blue(&mut file.data, 3);
            }
            file.data
        }
        (Format::Rgba8 | Format::Bgra8, 3 | 4, false) => {
            let channels = file.channels as usize;
            let blue_first = stream_format == Format::Bgra8;
            let mut out = Vec::with_capacity(file.data.len() / channels * 4);
            for p in file.data.chunks_exact(channels) {
                let alpha = p.get(3).copied().unwrap_or(u8::MAX);
                match swapped != blue_first {
                    true => out.extend([p[2], p[1], p[0], alpha]),
                    false => out.extend([p[0], p[1], p[2], alpha]),
                }
            }
            out
        }
        (Format::Y8, 1, false) => file.data,
        (Format::Y16 | Format::Z16, 1, true) => file.data,
        (Format::Y16 | Format::Z16, 1, false) if file.jpeg => file
            .data
            .iter()
            .flat_map(|&v| (u16::from(v) << 8).to_le_bytes())
            .collect(),
        _ => return Err(mismatch(&file)),
    };
    let bpp = stream_format.bytes_per_pixel().unwrap_or(1);
    Ok(Pixels {
        width: file.width,
        height: file.height,
        stride: file.width * bpp,
        data,
    })
}

/// How `compressedDepth` data is compressed, by its format's tail.
fn depth_codec(format: &str) -> Result<bool> {
    let Some((_, tail)) = format.split_once(';') else {
        return Ok(false);
    };
    if tail.contains("compressedDepth rvl") {
        Ok(true)
    } else if tail.contains("compressedDepth png") || !tail.contains("compressedDepth ") {
        Ok(false)
    } else {
        Err(bad(format!("unknown compressedDepth format {format:?}")))
    }
}

fn decode_depth(
    format: &str,
    data: &[u8],
    stream_format: Format,
    size: (u32, u32),
) -> Result<Pixels> {
    let rvl = depth_codec(format)?;
    if data.len() <= DEPTH_HEADER {
        return Err(bad(format!(
            "compressedDepth data of {} bytes has no image after its 12-byte header",
            data.len()
        )));
    }
    let param =
        |at: usize| f32::from_le_bytes([data[at], data[at + 1], data[at + 2], data[at + 3]]);
    let (a, b) = (param(4), param(8));
    let body = &data[DEPTH_HEADER..];
    let (width, height, values) = if rvl {
        rvl_image(body, size)?
    } else {
        let png = images::read_png(body)?;
        if (png.channels, png.sixteen) != (1, true) {
            return Err(bad(format!(
                "compressedDepth PNG of {} channels and {} bits, not 16-bit grey",
                png.channels,
                if png.sixteen { 16 } else { 8 }
            )));
        }
        check_size(png.width, png.height, Some(size))?;
        (png.width, png.height, png.data)
    };
    let data = match stream_format {
        Format::Z16 | Format::Y16 => values,
        Format::Distance => values
            .chunks_exact(2)
            .flat_map(|v| {
                let v = u16::from_le_bytes([v[0], v[1]]);
                let depth = if v == 0 { 0.0 } else { a / (f32::from(v) - b) };
                depth.to_le_bytes()
            })
            .collect(),
        other => {
            return Err(bad(format!(
                "compressedDepth cannot be {} pixels",
                other.name()
            )))
        }
    };
    let bpp = stream_format.bytes_per_pixel().unwrap_or(2);
    Ok(Pixels {
        width,
        height,
        stride: width * bpp,
        data,
    })
}

/// An RVL image after the ConfigHeader: u32 cols, u32 rows, the words.
/// Its size is checked before decoding, and (as the plugin does) against
/// RVL's best ratio to the data's length.
fn rvl_image(body: &[u8], size: (u32, u32)) -> Result<(u32, u32, Vec<u8>)> {
    let Some((head, words)) = body.split_first_chunk::<8>() else {
        return Err(bad("RVL data without its columns and rows"));
    };
    let cols = u32::from_le_bytes([head[0], head[1], head[2], head[3]]);
    let rows = u32::from_le_bytes([head[4], head[5], head[6], head[7]]);
    check_size(cols, rows, Some(size))?;
    let count = cols as usize * rows as usize;
    if count * 2 > MAX_IMAGE_BYTES || count > body.len() * 5 {
        return Err(bad(format!(
            "RVL image of {cols}x{rows} in {} bytes",
            body.len()
        )));
    }
    let values = super::rvl::decompress(words, count)?;
    Ok((
        cols,
        rows,
        values.iter().flat_map(|v| v.to_le_bytes()).collect(),
    ))
}

/// The `format` text and `data` the `compressedDepth` plugin writes for
/// 16-bit depth (`16UC1`, millimetres): PNG or RVL (`rvl`), after a
/// ConfigHeader of zeros (the plugin leaves its quantisation parameters
/// unset for 16-bit depth). Every value is kept (the plugin's `depth_max`
/// cut-off at or above 65.535 m).
pub(crate) fn encode_depth<D: AsRef<[u8]>>(
    pixels: &Pixels<D>,
    codec: DepthCodec,
) -> Result<(String, Vec<u8>)> {
    let mut out = vec![0u8; DEPTH_HEADER];
    if codec == DepthCodec::Rvl {
        let row = pixels.width as usize * 2;
        let mut values = Vec::with_capacity(pixels.width as usize * pixels.height as usize);
        for y in 0..pixels.height as usize {
            let start = y * pixels.stride as usize;
            let line = (pixels.data.as_ref().get(start..start + row))
                .ok_or_else(|| Error::InvalidArgument("frame smaller than its size".into()))?;
            values.extend(
                line.chunks_exact(2)
                    .map(|v| u16::from_le_bytes([v[0], v[1]])),
            );
        }
        out.extend(pixels.width.to_le_bytes());
        out.extend(pixels.height.to_le_bytes());
        out.extend(super::rvl::compress(&values));
    } else {
        images::encode_png(&mut out, Format::Z16, png::ColorType::Grayscale, pixels)?;
    }
    let name = match codec {
        DepthCodec::Png => "png",
        DepthCodec::Rvl => "rvl",
    };
    Ok((format!("16UC1; compressedDepth {name}"), out))
}

/// How `compressedDepth` images are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DepthCodec {
    /// 16-bit grey PNG.
    Png,
    /// RVL ([`super::rvl`]).
    Rvl,
}

/// How a ROS 2 export writes image streams.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ImageTransport {
    /// `sensor_msgs/Image` on `image_raw` / `image_rect_raw`.
    #[default]
    Raw,
    /// image_transport's `compressed` (colour, infrared, fisheye:
    /// `color`) and `compressedDepth` (Z16 depth: `depth`) topics.
    Compressed {
        /// How colour and grey images are compressed.
        color: ImageCodec,
        /// How depth is compressed.
        depth: DepthCodec,
    },
}

/// How one stream's frames are compressed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StreamCodec {
    /// `compressed`.
    Image(ImageCodec),
    /// `compressedDepth`.
    Depth(DepthCodec),
}

impl ImageTransport {
    /// How frames of `format` are written: compressed, or `None` for raw
    /// (raw transport, or a format the plugins do not compress: YUYV, and
    /// 16-bit grey as JPEG, which the plugin would cut to 8 bits).
    pub(crate) fn codec_for(self, format: Format) -> Option<StreamCodec> {
        let ImageTransport::Compressed { color, depth } = self else {
            return None;
        };
        match format {
            Format::Z16 => Some(StreamCodec::Depth(depth)),
            Format::Rgb8 | Format::Bgr8 | Format::Rgba8 | Format::Bgra8 | Format::Y8 => {
                Some(StreamCodec::Image(color))
            }
            Format::Y16 if color == ImageCodec::Png => Some(StreamCodec::Image(color)),
            _ => None,
        }
    }
}

impl StreamCodec {
    /// The plugin that reads what this writes.
    pub fn transport(self) -> Transport {
        match self {
            StreamCodec::Image(_) => Transport::Compressed,
            StreamCodec::Depth(_) => Transport::CompressedDepth,
        }
    }

    /// The `format` and `data` of one frame's `CompressedImage`.
    pub fn encode<D: AsRef<[u8]>>(
        self,
        format: Format,
        pixels: &Pixels<D>,
    ) -> Result<(String, Vec<u8>)> {
        match self {
            StreamCodec::Image(codec) => encode_image(format, pixels, codec),
            StreamCodec::Depth(codec) => encode_depth(pixels, codec),
        }
    }
}

/// How `compressed` images are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageCodec {
    /// JPEG of this quality (1–100).
    Jpeg(u8),
    /// PNG.
    Png,
}

/// The `format` text and `data` the `compressed` plugin writes for an
/// image of `format` (RGB8, BGR8, RGBA8, BGRA8, Y8; Y16 as PNG only):
/// the file made from BGR (colour; alpha dropped) or grey, as OpenCV's
/// `imencode` writes it.
pub(crate) fn encode_image<D: AsRef<[u8]>>(
    format: Format,
    pixels: &Pixels<D>,
    codec: ImageCodec,
) -> Result<(String, Vec<u8>)> {
    let encoding = super::image_encoding(format).unwrap_or_default();
    let (channels, rgb) = match format {
        Format::Rgb8 | Format::Bgr8 => (3usize, true),
        Format::Rgba8 | Format::Bgra8 => (4, true),
        Format::Y8 => (1, false),
        Format::Y16 if codec == ImageCodec::Png => (1, false),
        other => {
            return Err(Error::Unsupported(format!(
                "{} frames cannot be written as {} compressed images",
                other.name(),
                match codec {
                    ImageCodec::Jpeg(_) => "JPEG",
                    ImageCodec::Png => "PNG",
                }
            )))
        }
    };
    let sample = if format == Format::Y16 { 2 } else { 1 };
    let row = pixels.width as usize * channels * sample;
    let blue_first = matches!(format, Format::Bgr8 | Format::Bgra8);
    let out_channels = channels.min(3);
    let mut image =
        Vec::with_capacity(pixels.width as usize * pixels.height as usize * out_channels);
    for y in 0..pixels.height as usize {
        let start = y * pixels.stride as usize;
        let line = (pixels.data.as_ref().get(start..start + row))
            .ok_or_else(|| Error::InvalidArgument("frame smaller than its size".into()))?;
        if rgb {
            for p in line.chunks_exact(channels) {
                match blue_first {
                    true => image.extend([p[2], p[1], p[0]]),
                    false => image.extend([p[0], p[1], p[2]]),
                }
            }
        } else {
            image.extend_from_slice(line);
        }
    }
    let packed = Pixels {
        width: pixels.width,
        height: pixels.height,
        stride: (pixels.width as usize * out_channels * sample) as u32,
        data: image,
    };
    let target = match (rgb, sample) {
        (true, _) => "bgr8",
        (false, 1) => "mono8",
        (false, _) => "mono16",
    };
    match codec {
        ImageCodec::Jpeg(quality) => {
            let colour = match rgb {
                true => jpeg_encoder::ColorType::Rgb,
                false => jpeg_encoder::ColorType::Luma,
            };
            let (w, h) = (
                u16::try_from(packed.width).map_err(|_| too_large())?,
                u16::try_from(packed.height).map_err(|_| too_large())?,
            );
            let mut out = Vec::new();
            let mut encoder = jpeg_encoder::Encoder::new(&mut out, quality);
            // 4:2:0 chroma at every quality, as OpenCV's libjpeg writes.
            encoder.set_sampling_factor(jpeg_encoder::SamplingFactor::F_2_2);
            encoder
                .encode(&packed.data, w, h, colour)
                .map_err(|e| Error::Stream(std::io::Error::other(e)))?;
            Ok((format!("{encoding}; jpeg compressed {target}"), out))
        }
        ImageCodec::Png => {
            let (png_format, colour) = match (rgb, sample) {
                (true, _) => (Format::Rgb8, png::ColorType::Rgb),
                (false, 1) => (Format::Y8, png::ColorType::Grayscale),
                (false, _) => (Format::Y16, png::ColorType::Grayscale),
            };
            let mut out = Vec::new();
            images::encode_png(&mut out, png_format, colour, &packed)?;
            // The plugin names no target for grey PNG (its text ends
            // "png compressed ").
            let target = if rgb { target } else { "" };
            Ok((format!("{encoding}; png compressed {target}"), out))
        }
    }
}

fn too_large() -> Error {
    Error::Unsupported("an image wider or taller than 65535 pixels cannot be a JPEG".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pixels(width: u32, height: u32, bpp: u32) -> Pixels {
        let data = (0..width * height * bpp)
            .map(|i| (i * 37 % 251) as u8)
            .collect();
        Pixels {
            width,
            height,
            stride: width * bpp,
            data,
        }
    }

    #[test]
    fn png_images_round_trip_in_every_colour_order() {
        for (format, bpp) in [
            (Format::Rgb8, 3),
            (Format::Bgr8, 3),
            (Format::Y8, 1),
            (Format::Y16, 2),
        ] {
            let p = pixels(7, 5, bpp);
            let (text, data) = encode_image(format, &p, ImageCodec::Png).expect("encode");
            let encoding =
                image_encoding(Transport::Compressed, text.as_bytes(), &data).expect("encoding");
            assert_eq!(
                Some(encoding.as_str()),
                super::super::image_encoding(format)
            );
            let back = decode(
                Transport::Compressed,
                text.as_bytes(),
                &data,
                format,
                (7, 5),
            )
            .expect("decode");
            assert_eq!(back, p, "{text}");
        }
        // The same file read as the other colour order swaps red and blue.
        let p = pixels(3, 2, 3);
        let (text, data) = encode_image(Format::Rgb8, &p, ImageCodec::Png).expect("encode");
        assert_eq!(text, "rgb8; png compressed bgr8");
        let bgr = decode(
            Transport::Compressed,
            text.as_bytes(),
            &data,
            Format::Bgr8,
            (3, 2),
        )
        .expect("bgr");
        assert_eq!(bgr.data[..3], [p.data[2], p.data[1], p.data[0]]);
        // "compressed rgb8": the file holds the channels reversed.
        let rgb = decode(
            Transport::Compressed,
            b"rgb8; png compressed rgb8",
            &data,
            Format::Rgb8,
            (3, 2),
        )
        .expect("rgb");
        assert_eq!(rgb.data[..3], [p.data[2], p.data[1], p.data[0]]);
        // A bare "png" is BGR8 as a subscriber sees it, true colours.
        assert_eq!(
            image_encoding(Transport::Compressed, b"png", &data).expect("bare"),
            "bgr8"
        );
        let bare =
            decode(Transport::Compressed, b"png", &data, Format::Rgb8, (3, 2)).expect("bare");
        assert_eq!(bare, p);
    }

    #[test]
    fn a_jpeg_too_short_for_its_size_is_refused_before_decoding_and_a_flat_one_is_not() {
        // Found by fuzzing: 510 bytes claiming 3072x2048.
        let short =
            include_bytes!("../../tests/fixtures/fuzz/jpeg-claims-3072x2048-in-510-bytes.jpg");
        let Err(error) = decode_file(short, None) else {
            panic!("a 3072x2048 picture decoded from 510 bytes");
        };
        let error = error.to_string();
        assert!(error.contains("cannot hold a 3072x2048 picture"), "{error}");
        // A flat picture, the most a JPEG compresses, is well above the bound.
        let side = 1024;
        let flat = Pixels {
            width: side,
            height: side,
            stride: side * 3,
            data: vec![0; (side * side * 3) as usize],
        };
        let (_, data) = encode_image(Format::Rgb8, &flat, ImageCodec::Jpeg(50)).expect("encode");
        let file = decode_file(&data, None).expect("a flat picture decodes");
        assert_eq!((file.width, file.height), (side, side));
    }

    #[test]
    fn jpeg_is_close_and_grey_scales_to_16_bits() {
        let flat = Pixels {
            width: 16,
            height: 16,
            stride: 48,
            data: [200u8, 100, 50].repeat(256),
        };
        let (text, data) = encode_image(Format::Rgb8, &flat, ImageCodec::Jpeg(95)).expect("encode");
        assert_eq!(text, "rgb8; jpeg compressed bgr8");
        let back = decode(
            Transport::Compressed,
            text.as_bytes(),
            &data,
            Format::Rgb8,
            (16, 16),
        )
        .expect("decode");
        for (a, b) in back.data.iter().zip(&flat.data) {
            assert!(a.abs_diff(*b) <= 2, "{a} {b}");
        }
        let grey = Pixels {
            width: 8,
            height: 8,
            stride: 8,
            data: vec![77u8; 64],
        };
        let (text, data) = encode_image(Format::Y8, &grey, ImageCodec::Jpeg(100)).expect("grey");
        assert_eq!(text, "mono8; jpeg compressed mono8");
        let wide = decode(
            Transport::Compressed,
            b"mono16; jpeg compressed mono8",
            &data,
            Format::Y16,
            (8, 8),
        )
        .expect("16");
        let v = u16::from_le_bytes([wide.data[0], wide.data[1]]);
        assert!(v.abs_diff(77 * 256) <= 256, "{v}");
    }

    #[test]
    fn depth_round_trips_as_png_and_rvl() {
        let p = pixels(9, 4, 2);
        for codec in [DepthCodec::Png, DepthCodec::Rvl] {
            let (text, data) = encode_depth(&p, codec).expect("encode");
            let back = decode(
                Transport::CompressedDepth,
                text.as_bytes(),
                &data,
                Format::Z16,
                (9, 4),
            )
            .expect("decode");
            assert_eq!(back, p, "{text}");
        }
        // A bare "; compressedDepth" is PNG.
        let (_, data) = encode_depth(&p, DepthCodec::Png).expect("encode");
        assert!(decode(
            Transport::CompressedDepth,
            b"16UC1; compressedDepth",
            &data,
            Format::Z16,
            (9, 4)
        )
        .is_ok());
        assert!(decode(
            Transport::CompressedDepth,
            b"16UC1; compressedDepth zstd",
            &data,
            Format::Z16,
            (9, 4)
        )
        .is_err());
    }

    #[test]
    fn inverse_depth_is_dequantised_and_zero_is_no_depth() {
        let (a, b) = (2.5f32, 0.75f32);
        let v: [u16; 3] = [0, 1000, 4000];
        let mut data = 0i32.to_le_bytes().to_vec();
        data.extend(a.to_le_bytes());
        data.extend(b.to_le_bytes());
        data.extend(3u32.to_le_bytes());
        data.extend(1u32.to_le_bytes());
        data.extend(crate::ros_camera::rvl::compress(&v));
        let out = decode(
            Transport::CompressedDepth,
            b"32FC1; compressedDepth rvl",
            &data,
            Format::Distance,
            (3, 1),
        )
        .expect("decode");
        let depth: Vec<f32> = out
            .data
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        assert_eq!(depth, [0.0, a / (1000.0 - b), a / (4000.0 - b)]);
    }

    #[test]
    fn damaged_images_are_errors() {
        let p = pixels(4, 4, 3);
        let (text, data) = encode_image(Format::Rgb8, &p, ImageCodec::Jpeg(90)).expect("encode");
        let t = text.as_bytes();
        assert!(decode(
            Transport::Compressed,
            t,
            &data[..data.len() / 2],
            Format::Rgb8,
            (4, 4)
        )
        .is_err());
        assert!(
            decode(Transport::Compressed, t, &data, Format::Rgb8, (5, 4)).is_err(),
            "another size"
        );
        assert!(decode(Transport::Compressed, t, b"GIF89a", Format::Rgb8, (4, 4)).is_err());
        assert!(
            decode(Transport::Compressed, t, &data, Format::Y8, (4, 4)).is_err(),
            "colour as grey"
        );
        assert!(decode(
            Transport::CompressedDepth,
            b"16UC1; compressedDepth",
            &[0; 12],
            Format::Z16,
            (4, 4)
        )
        .is_err());
        let mut huge = vec![0u8; 12];
        huge.extend(4000u32.to_le_bytes());
        huge.extend(4000u32.to_le_bytes());
        huge.extend([0; 16]);
        assert!(decode(
            Transport::CompressedDepth,
            b"16UC1; compressedDepth rvl",
            &huge,
            Format::Z16,
            (4000, 4000)
        )
        .is_err());
    }
}
