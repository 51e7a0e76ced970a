//! What a frame becomes, apart from writing it: images encoded, point
//! clouds computed, depth formatted. Pure work over a frame, done for a
//! batch of frames on every core while the files are written in order
//! (names, `frames.csv` and the streamed outputs keep recorded order).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use rsbag::device::{Format, StreamId, DEFAULT_DEPTH_UNITS};
use rsbag::processing::{self, depth_meters, depth_raw, Image, PixelLayout};
use rsbag::recording::{FrameReader, RecordedFrame};
use rsbag::{Error, Result};

use super::args::ToArg;
use super::npy;
use super::prepare::Texture;

/// The contents of a file made from a frame.
pub struct Made {
    /// What follows `Depth_000042` in its name.
    pub suffix: &'static str,
    pub ext: &'static str,
    pub bytes: Vec<u8>,
}

/// What a frame becomes.
pub enum Rendered {
    /// Files to write and list in `frames.csv`, with the depth units the
    /// values were made with for depth values (`--to csv`, `--to npy`).
    Files {
        files: Vec<Made>,
        depth_units: Option<f32>,
    },
    /// A picture for the stream's video.
    Picture(Image),
    /// Written as it comes (IMU and pose rows, Kalibr samples).
    InOrder,
}

/// What frames are rendered as: the target and its options.
#[derive(Clone)]
pub struct RenderOptions {
    pub to: ToArg,
    /// `--colorize`: depth also colorized over this range (meters).
    pub colorize: Option<(f32, f32)>,
    /// `--colorize-range`, which `--to mp4` colorizes depth over too.
    pub colorize_range: (f32, f32),
    /// `--ascii`.
    pub ascii: bool,
    /// `--npy-raw`.
    pub npy_raw: bool,
}

/// Renders frames for one run of `convert`; shared by the threads.
pub struct Renderer {
    options: RenderOptions,
    /// Depth Units of each sensor that records depth.
    depth_units: BTreeMap<usize, f32>,
}

impl Renderer {
    /// For the `written` streams of `reader`.
    pub fn new(
        options: &RenderOptions,
        reader: &FrameReader,
        written: &BTreeSet<StreamId>,
    ) -> Renderer {
        // Only depth made into numbers, colours or points needs the units
        // (and a warning where they are missing).
        let units_used = options.colorize.is_some()
            || matches!(
                options.to,
                ToArg::Csv | ToArg::Npy | ToArg::Ply | ToArg::Mp4
            );
        Renderer {
            options: options.clone(),
            depth_units: if units_used {
                sensor_depth_units(reader, written)
            } else {
                BTreeMap::new()
            },
        }
    }

    /// The Depth Units option of a sensor (meters per depth unit); D400
    /// cameras' 1 mm when the recording does not have it.
    pub fn depth_units(&self, sensor: usize) -> f32 {
        self.depth_units
            .get(&sensor)
            .copied()
            .unwrap_or(DEFAULT_DEPTH_UNITS)
    }

    /// `recorded` as PNG: its picture, and with `--colorize` a depth
    /// frame's colorized one (suffix `_colorized`).
    pub fn pngs(&self, recorded: &RecordedFrame) -> Result<Vec<Made>> {
        let frame = &recorded.frame;
        let mut made = vec![png("", &processing::image(frame)?)?];
        if let (Some((near, far)), Format::Z16) = (self.options.colorize, frame.profile.format) {
            let units = self.depth_units(recorded.sensor);
            let colorized = processing::colorize(frame, units, near, far)?;
            made.push(png("_colorized", &colorized)?);
        }
        Ok(made)
    }

    /// What `recorded` becomes; a depth frame written as a point cloud
    /// takes its colour from `texture`.
    pub fn render(
        &self,
        recorded: &RecordedFrame,
        texture: Option<&Texture<'_>>,
    ) -> Result<Rendered> {
        let frame = &recorded.frame;
        let units = self.depth_units(recorded.sensor);
        let files = |files: Vec<Made>| Rendered::Files {
            files,
            depth_units: None,
        };
        Ok(match self.options.to {
            ToArg::Png => files(self.pngs(recorded)?),
            ToArg::Raw => files(vec![Made {
                suffix: "",
                ext: "raw",
                bytes: frame.data.to_vec(),
            }]),
            ToArg::Csv if frame.profile.format == Format::Z16 => Rendered::Files {
                files: vec![depth_csv(frame, units)?],
                depth_units: Some(units),
            },
            ToArg::Npy => Rendered::Files {
                files: vec![self.depth_npy(frame, units)?],
                depth_units: Some(units),
            },
            ToArg::Ply => files(vec![self.ply(recorded, units, texture)?]),
            ToArg::Mp4 => {
                let units = if frame.profile.format == Format::Z16 {
                    units
                } else {
                    0.0
                };
                let (near, far) = self.options.colorize_range;
                Rendered::Picture(processing::picture(frame, units, near, far)?)
            }
            ToArg::Csv | ToArg::Kalibr => Rendered::InOrder,
            // Whole files are written by `recording`, never frame by frame.
            ToArg::Db3 | ToArg::Bag | ToArg::Ros2 => {
                return Err(Error::InvalidArgument(format!(
                    "--to {} writes one file, not a frame at a time",
                    self.options.to.name()
                )))
            }
        })
    }

    /// `Depth_NUMBER.npy`: float32 meters, or uint16 raw with `--npy-raw`;
    /// depth colorized by `--filter colorizer`: its RGB8 picture (height x
    /// width x 3 uint8).
    fn depth_npy(&self, frame: &rsbag::device::Frame, units: f32) -> Result<Made> {
        let (shape, descr, values): (Vec<usize>, _, Vec<u8>) =
            if frame.profile.format == Format::Rgb8 {
                let picture = processing::image(frame)?;
                let shape = vec![picture.height as usize, picture.width as usize, 3];
                (shape, "|u1", picture.data)
            } else if self.options.npy_raw {
                let raw = depth_raw(frame)?;
                let shape = vec![raw.height as usize, raw.width as usize];
                let bytes = raw.values.iter().flat_map(|v| v.to_le_bytes()).collect();
                (shape, "<u2", bytes)
            } else {
                let meters = depth_meters(frame, units)?;
                let shape = vec![meters.height as usize, meters.width as usize];
                let bytes = meters.values.iter().flat_map(|v| v.to_le_bytes()).collect();
                (shape, "<f4", bytes)
            };
        let mut bytes = npy::header(descr, &shape);
        bytes.extend(values);
        Ok(Made {
            suffix: "",
            ext: "npy",
            bytes,
        })
    }

    /// The PLY file of a depth frame's point cloud: the vertices
    /// `export_to_ply` keeps, coloured where there is a `texture`.
    fn ply(
        &self,
        recorded: &RecordedFrame,
        units: f32,
        texture: Option<&Texture<'_>>,
    ) -> Result<Made> {
        let frame = &recorded.frame;
        let (vertices, colors) = point_cloud(frame, units, texture)?;
        let format = if self.options.ascii {
            "ascii"
        } else {
            "binary_little_endian"
        };
        let color_properties = if colors.is_some() {
            "property uchar red\nproperty uchar green\nproperty uchar blue\n"
        } else {
            ""
        };
        let mut bytes = format!(
            "ply\nformat {format} 1.0\ncomment rsbag: {} frame {} at {} ms, depth units {units} m\nelement vertex {}\nproperty float x\nproperty float y\nproperty float z\n{color_properties}end_header\n",
            frame.profile.stream,
            frame.number,
            frame.timestamp,
            vertices.len()
        )
        .into_bytes();
        for (i, p) in vertices.iter().enumerate() {
            let color = colors.as_ref().map(|c| c[i]);
            if self.options.ascii {
                let mut line = format!("{} {} {}", p[0], p[1], p[2]);
                if let Some([r, g, b]) = color {
                    let _ = write!(line, " {r} {g} {b}");
                }
                line.push('\n');
                bytes.extend(line.as_bytes());
            } else {
                for v in p {
                    bytes.extend(v.to_le_bytes());
                }
                if let Some(rgb) = color {
                    bytes.extend(rgb);
                }
            }
        }
        Ok(Made {
            suffix: "",
            ext: "ply",
            bytes,
        })
    }
}

/// The vertices `export_to_ply` keeps of `frame`'s point cloud, with their
/// colours where there is a `texture`.
#[allow(clippy::type_complexity)]
fn point_cloud(
    frame: &rsbag::device::Frame,
    units: f32,
    texture: Option<&Texture<'_>>,
) -> Result<(Vec<[f32; 3]>, Option<Vec<[u8; 3]>>)> {
    let Some(texture) = texture else {
        let intrinsics = frame.profile.intrinsics().ok_or_else(|| {
            Error::InvalidArgument(format!("stream {} has no intrinsics", frame.profile.stream))
        })?;
        let cloud = processing::PointCloudMaker::new(&intrinsics, units).calculate(frame)?;
        let vertices = cloud
            .vertices
            .into_iter()
            .filter(processing::is_kept_vertex)
            .collect();
        return Ok((vertices, None));
    };
    let cloud = texture.maker.calculate(frame)?;
    let image = processing::image(&texture.frame)?;
    let (vertices, colors) = cloud
        .vertices
        .iter()
        .zip(&cloud.texture_coordinates)
        .filter(|(v, _)| processing::is_kept_vertex(v))
        .map(|(v, uv)| (*v, processing::texture_color(&image, *uv)))
        .unzip();
    Ok((vertices, Some(colors)))
}

/// `Depth_NUMBER.csv`: one line per image row, meters.
fn depth_csv(frame: &rsbag::device::Frame, units: f32) -> Result<Made> {
    let depth = depth_meters(frame, units)?;
    let mut text = String::new();
    for row in depth.values.chunks(depth.width.max(1) as usize) {
        for (i, meters) in row.iter().enumerate() {
            let comma = if i == 0 { "" } else { "," };
            let _ = write!(text, "{comma}{meters}");
        }
        text.push('\n');
    }
    Ok(Made {
        suffix: "",
        ext: "csv",
        bytes: text.into_bytes(),
    })
}

/// An image as a PNG file's bytes.
pub fn png(suffix: &'static str, image: &Image) -> Result<Made> {
    let mut bytes = Vec::new();
    let error = |e: png::EncodingError| Error::Stream(e.into());
    let mut encoder = png::Encoder::new(&mut bytes, image.width, image.height);
    let (color, depth) = match image.layout {
        PixelLayout::Gray8 => (png::ColorType::Grayscale, png::BitDepth::Eight),
        PixelLayout::Gray16 => (png::ColorType::Grayscale, png::BitDepth::Sixteen),
        PixelLayout::Rgb8 => (png::ColorType::Rgb, png::BitDepth::Eight),
        PixelLayout::Rgba8 => (png::ColorType::Rgba, png::BitDepth::Eight),
    };
    encoder.set_color(color);
    encoder.set_depth(depth);
    encoder.set_compression(png::Compression::Fast);
    let mut writer = encoder.write_header().map_err(error)?;
    if image.layout == PixelLayout::Gray16 {
        // PNG stores 16-bit samples big-endian.
        let swapped: Vec<u8> = image
            .data
            .chunks_exact(2)
            .flat_map(|p| [p[1], p[0]])
            .collect();
        writer.write_image_data(&swapped).map_err(error)?;
    } else {
        writer.write_image_data(&image.data).map_err(error)?;
    }
    writer.finish().map_err(error)?;
    Ok(Made {
        suffix,
        ext: "png",
        bytes,
    })
}

/// The Depth Units option of each sensor with a `written` depth stream (a
/// warning for one without it: 1 mm is assumed).
fn sensor_depth_units(reader: &FrameReader, written: &BTreeSet<StreamId>) -> BTreeMap<usize, f32> {
    let recording = reader.recording();
    let mut units = BTreeMap::new();
    for (id, stream) in recording.streams() {
        let depth = stream.profile.format == Format::Z16 && written.contains(id);
        if !depth || units.contains_key(&stream.sensor) {
            continue;
        }
        let value = recording.recorded_depth_units(*id).unwrap_or_else(|| {
            tracing::warn!("no Depth Units option recorded; using {DEFAULT_DEPTH_UNITS} m");
            DEFAULT_DEPTH_UNITS
        });
        units.insert(stream.sensor, value);
    }
    units
}
