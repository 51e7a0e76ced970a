//! Depth as colour exactly as librealsense's colorizer (`rs2::colorizer`,
//! librealsense 2.55) makes it: the same ten colour maps, histogram
//! equalization or a fixed min/max range, the same options with their
//! ranges, defaults and side effects, and the same bytes out.

use std::sync::OnceLock;

use crate::device::{Format, Frame, OptionRange};
use crate::{Error, Result};

use super::image::{depth_values, rows, Image, PixelLayout};

/// librealsense's colour maps, in the order of its `color-scheme` option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorScheme {
    /// 0: blue, cyan, yellow, red, dark red.
    Jet,
    /// 1: librealsense's classic blue-purple-red.
    Classic,
    /// 2: white (near) to black (far).
    WhiteToBlack,
    /// 3: black (near) to white (far).
    BlackToWhite,
    /// 4: "Bio": deep blue, light blue, sand, green, white.
    Bio,
    /// 5: cold blues.
    Cold,
    /// 6: warm yellows and reds.
    Warm,
    /// 7: white to black in 6 steps.
    Quantized,
    /// 8: white and black stripes.
    Pattern,
    /// 9: the hue circle, red to red.
    Hue,
}

impl ColorScheme {
    /// Every scheme, in the order of the option's values.
    pub const ALL: [ColorScheme; 10] = [
        ColorScheme::Jet,
        ColorScheme::Classic,
        ColorScheme::WhiteToBlack,
        ColorScheme::BlackToWhite,
        ColorScheme::Bio,
        ColorScheme::Cold,
        ColorScheme::Warm,
        ColorScheme::Quantized,
        ColorScheme::Pattern,
        ColorScheme::Hue,
    ];

    /// librealsense's description of the scheme (the option value's
    /// description: "Jet", "White to Black", ...).
    pub fn name(self) -> &'static str {
        [
            "Jet",
            "Classic",
            "White to Black",
            "Black to White",
            "Bio",
            "Cold",
            "Warm",
            "Quantized",
            "Pattern",
            "Hue",
        ][self as usize]
    }

    /// The colours the map interpolates between, evenly spaced from near
    /// to far, and the number of steps of its lookup table.
    fn stops(self) -> (&'static [[f32; 3]], usize) {
        const WHITE: [f32; 3] = [255.0, 255.0, 255.0];
        const BLACK: [f32; 3] = [0.0, 0.0, 0.0];
        const STEPS: usize = 4000;
        static PATTERN: [[f32; 3]; 50] = {
            let mut stops = [WHITE; 50];
            let mut i = 1;
            while i < 50 {
                stops[i] = BLACK;
                i += 2;
            }
            stops
        };
        match self {
            ColorScheme::Jet => (
                &[
                    [0.0, 0.0, 255.0],
                    [0.0, 255.0, 255.0],
                    [255.0, 255.0, 0.0],
                    [255.0, 0.0, 0.0],
                    [50.0, 0.0, 0.0],
                ],
                STEPS,
            ),
            ColorScheme::Classic => (
                &[
                    [30.0, 77.0, 203.0],
                    [25.0, 60.0, 192.0],
                    [45.0, 117.0, 220.0],
                    [204.0, 108.0, 191.0],
                    [196.0, 57.0, 178.0],
                    [198.0, 33.0, 24.0],
                ],
                STEPS,
            ),
            ColorScheme::WhiteToBlack => (&[WHITE, BLACK], STEPS),
            ColorScheme::BlackToWhite => (&[BLACK, WHITE], STEPS),
            ColorScheme::Bio => (
                &[
                    [0.0, 0.0, 204.0],
                    [204.0, 230.0, 255.0],
                    [255.0, 255.0, 153.0],
                    [170.0, 255.0, 128.0],
                    [0.0, 153.0, 0.0],
                    [230.0, 242.0, 255.0],
                ],
                STEPS,
            ),
            ColorScheme::Cold => (
                &[
                    [230.0, 247.0, 255.0],
                    [0.0, 92.0, 230.0],
                    [0.0, 179.0, 179.0],
                    [0.0, 51.0, 153.0],
                    [0.0, 5.0, 15.0],
                ],
                STEPS,
            ),
            ColorScheme::Warm => (
                &[
                    [255.0, 255.0, 230.0],
                    [255.0, 204.0, 0.0],
                    [255.0, 136.0, 77.0],
                    [255.0, 51.0, 0.0],
                    [128.0, 0.0, 0.0],
                    [10.0, 0.0, 0.0],
                ],
                STEPS,
            ),
            ColorScheme::Quantized => (&[WHITE, BLACK], 6),
            ColorScheme::Pattern => (&PATTERN, STEPS),
            ColorScheme::Hue => (
                &[
                    [255.0, 0.0, 0.0],
                    [255.0, 255.0, 0.0],
                    [0.0, 255.0, 0.0],
                    [0.0, 255.0, 255.0],
                    [0.0, 0.0, 255.0],
                    [255.0, 0.0, 255.0],
                    [255.0, 0.0, 0.0],
                ],
                STEPS,
            ),
        }
    }

    /// The scheme's lookup table: `steps + 1` colours for positions
    /// `i / steps`, each linearly interpolated (in `f32`, as librealsense
    /// does) between the two stops around it, then truncated to bytes.
    fn table(self) -> &'static [[u8; 3]] {
        static TABLES: OnceLock<Vec<Vec<[u8; 3]>>> = OnceLock::new();
        &TABLES.get_or_init(|| ColorScheme::ALL.iter().map(|s| s.build_table()).collect())
            [self as usize]
    }

    fn build_table(self) -> Vec<[u8; 3]> {
        let (stops, steps) = self.stops();
        let last = (stops.len() - 1) as f32;
        let keys: Vec<f32> = (0..stops.len()).map(|i| i as f32 / last).collect();
        (0..=steps)
            .map(|i| {
                let x = i as f32 / steps as f32;
                let colour = match keys.iter().position(|&k| k >= x) {
                    Some(upper) if keys[upper] == x => stops[upper],
                    Some(upper) => {
                        let t = (x - keys[upper - 1]) / (keys[upper] - keys[upper - 1]);
                        let (a, b) = (stops[upper - 1], stops[upper]);
                        [0, 1, 2].map(|c| b[c] * t + a[c] * (1.0 - t))
                    }
                    None => stops[stops.len() - 1],
                };
                colour.map(|c| c as u8)
            })
            .collect()
    }

    /// The colour at position `t` (0 near, 1 far; clamped, NaN is near).
    fn colour(self, t: f32) -> [u8; 3] {
        let table = self.table();
        let t = if t > 0.0 { t.min(1.0) } else { 0.0 };
        table[(t * (table.len() - 1) as f32) as usize]
    }
}

/// An option of a processing block: its name on rsbag's command line and
/// in Python (librealsense's option name in kebab case, shortened as
/// librealsense's tools show it), librealsense's full name, and its range,
/// step and default as librealsense registers them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProcessingOption {
    /// The key, e.g. `min`.
    pub name: &'static str,
    /// librealsense's full option name in kebab case, accepted as well
    /// (e.g. `min-distance` for `min`).
    pub alias: &'static str,
    /// Range, step and default.
    pub range: OptionRange,
    /// librealsense's description of the option.
    pub description: &'static str,
}

/// The colorizer's options, as librealsense 2.55 registers them.
pub const COLORIZER_OPTIONS: [ProcessingOption; 5] = [
    ProcessingOption {
        name: "color-scheme",
        alias: "color-scheme",
        range: OptionRange {
            min: 0.0,
            max: 9.0,
            step: 1.0,
            default: 0.0,
        },
        description: "Color map",
    },
    ProcessingOption {
        name: "histogram-equalization",
        alias: "histogram-equalization-enabled",
        range: OptionRange {
            min: 0.0,
            max: 1.0,
            step: 1.0,
            default: 1.0,
        },
        description: "Perform histogram equalization",
    },
    ProcessingOption {
        name: "min",
        alias: "min-distance",
        range: OptionRange {
            min: 0.0,
            max: 16.0,
            step: 0.1,
            default: 0.0,
        },
        description: "Min range in meters",
    },
    ProcessingOption {
        name: "max",
        alias: "max-distance",
        range: OptionRange {
            min: 0.0,
            max: 16.0,
            step: 0.1,
            default: 6.0,
        },
        description: "Max range in meters",
    },
    ProcessingOption {
        name: "visual-preset",
        alias: "visual-preset",
        range: OptionRange {
            min: 0.0,
            max: 3.0,
            step: 1.0,
            default: 0.0,
        },
        description: "Preset depth colorization",
    },
];

/// Depth to RGB8 as librealsense's colorizer does it.
///
/// With histogram equalization (the default) a depth's colour is its rank
/// among the frame's non-zero depths; without, its place between
/// `min_distance` and `max_distance` metres. No depth (0) is black.
///
/// ```
/// use rsbag::processing::{ColorScheme, Colorizer};
/// # fn main() -> rsbag::Result<()> {
/// let colorizer = Colorizer::with_options([("color-scheme", "2"), ("max", "4")])?;
/// assert_eq!(colorizer.scheme, ColorScheme::WhiteToBlack);
/// assert!(!colorizer.histogram_equalization); // setting max turns it off
/// let rgb = colorizer.colorize(&[0, 1000, 4000], 3, 1, 0.001)?;
/// assert_eq!(rgb, [0, 0, 0, 191, 191, 191, 0, 0, 0]);
/// # Ok(()) }
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Colorizer {
    /// The colour map.
    pub scheme: ColorScheme,
    /// Colour by rank in the frame instead of by distance.
    pub histogram_equalization: bool,
    /// Metres at the near end of the map (without equalization).
    pub min_distance: f32,
    /// Metres at the far end of the map (without equalization).
    pub max_distance: f32,
}

impl Default for Colorizer {
    fn default() -> Self {
        Colorizer {
            scheme: ColorScheme::Jet,
            histogram_equalization: true,
            min_distance: 0.0,
            max_distance: 6.0,
        }
    }
}

impl Colorizer {
    /// A colorizer with librealsense's defaults, then the options set in
    /// the order given as (key, value) text pairs, e.g. from
    /// `--filter colorizer:color-scheme=2,max=4`. As in librealsense,
    /// order matters: setting `min` or `max` turns histogram equalization
    /// off, so `histogram-equalization=1` must come after them.
    pub fn with_options<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> Result<Self> {
        let mut colorizer = Colorizer::default();
        for (key, text) in pairs {
            let value: f32 = text.trim().parse().map_err(|_| {
                invalid(format!(
                    "colorizer option {key}: {text:?} is not a number{}",
                    range_of(key).map(describe_range).unwrap_or_default()
                ))
            })?;
            colorizer.set_option(key, value)?;
        }
        Ok(colorizer)
    }

    /// Set an option by its key (or librealsense's kebab-case name) as
    /// librealsense's `set_option` does: out of range is an error naming
    /// the option and its range; `min` above `max` raises `max` to 16,
    /// `max` below `min` drops `min` to 0; either turns histogram
    /// equalization off; integer options truncate; `visual-preset` sets
    /// the others (0 dynamic, 1 fixed 0-6 m, 2 near 0.3-1.5 m classic,
    /// 3 far 1-16 m).
    pub fn set_option(&mut self, key: &str, value: f32) -> Result<()> {
        let Some(option) = range_of(key) else {
            let known: Vec<&str> = COLORIZER_OPTIONS.iter().map(|o| o.name).collect();
            return Err(invalid(format!(
                "the colorizer has no option {key:?}; its options are {}",
                known.join(", ")
            )));
        };
        if !(option.range.min..=option.range.max).contains(&value) {
            return Err(invalid(format!(
                "colorizer option {}: {value} is out of range{}",
                option.name,
                describe_range(option)
            )));
        }
        match option.name {
            "color-scheme" => self.scheme = ColorScheme::ALL[value as usize],
            "histogram-equalization" => self.histogram_equalization = value != 0.0,
            "min" => {
                if self.max_distance < value {
                    self.max_distance = option.range.max;
                }
                self.min_distance = value;
                self.histogram_equalization = false;
            }
            "max" => {
                if self.min_distance > value {
                    self.min_distance = option.range.min;
                }
                self.max_distance = value;
                self.histogram_equalization = false;
            }
            _ => self.apply_preset(value),
        }
        Ok(())
    }

    /// librealsense's presets, chosen as it does: within 1e-6 of 0, 1, 2, 3.
    fn apply_preset(&mut self, value: f32) {
        /// Equalization, scheme, and the min and max distances it sets.
        type Preset = (bool, ColorScheme, Option<(f32, f32)>);
        const PRESETS: [Preset; 4] = [
            (true, ColorScheme::Jet, None),
            (false, ColorScheme::Jet, Some((0.0, 6.0))),
            (false, ColorScheme::Classic, Some((0.3, 1.5))),
            (false, ColorScheme::Jet, Some((1.0, 16.0))),
        ];
        let chosen = (0..PRESETS.len()).find(|&k| (value - k as f32).abs() < 1e-6);
        let Some((equalize, scheme, range)) = chosen.map(|k| PRESETS[k]) else {
            return;
        };
        self.histogram_equalization = equalize;
        self.scheme = scheme;
        if let Some((min, max)) = range {
            (self.min_distance, self.max_distance) = (min, max);
        }
    }

    /// Colour `width` x `height` depth values (row by row, `depth_units`
    /// metres per unit) as RGB8, 3 bytes a pixel.
    pub fn colorize(
        &self,
        depth: &[u16],
        width: u32,
        height: u32,
        depth_units: f32,
    ) -> Result<Vec<u8>> {
        check_size(depth.len(), width, height)?;
        let mut rgb = vec![0u8; depth.len() * 3];
        if self.histogram_equalization {
            let ranks = cumulative_histogram(depth.iter().map(|&d| usize::from(d)));
            let total = ranks[HISTOGRAM_BINS - 1] as f32;
            self.paint(depth, &mut rgb, |d| ranks[usize::from(d)] as f32 / total);
        } else {
            let (min, max) = (self.min_distance, self.max_distance);
            self.paint(depth, &mut rgb, |d| {
                if min >= max {
                    0.0
                } else {
                    (f32::from(d) * depth_units - min) / (max - min)
                }
            });
        }
        Ok(rgb)
    }

    /// Colour `width` x `height` disparities (librealsense's DISPARITY32,
    /// as its depth-to-disparity filter makes them from depth of
    /// `depth_units` metres per unit) as RGB8, as librealsense does: with
    /// equalization, by rank of the whole part of the disparity (values
    /// from 65536 up count as 65535, where librealsense would write past
    /// its histogram); without, between the disparities of `max_distance`
    /// and `min_distance` (at least 1e-6 m) under librealsense's fixed
    /// depth-to-disparity factor.
    pub fn colorize_disparity(
        &self,
        disparity: &[f32],
        width: u32,
        height: u32,
        depth_units: f32,
    ) -> Result<Vec<u8>> {
        check_size(disparity.len(), width, height)?;
        let bin = |d: f32| (d as usize).min(HISTOGRAM_BINS - 1);
        let mut rgb = vec![0u8; disparity.len() * 3];
        if self.histogram_equalization {
            let ranks = cumulative_histogram(disparity.iter().map(|&d| bin(d)));
            let total = ranks[HISTOGRAM_BINS - 1] as f32;
            self.paint(disparity, &mut rgb, |d| ranks[bin(d)] as f32 / total);
        } else {
            // librealsense's factor for its colorizer (a D400's).
            const DEPTH_TO_DISPARITY: f32 = 681_678.6;
            let near = self.min_distance.max(1e-6);
            let max = (DEPTH_TO_DISPARITY / near) * depth_units + 0.5;
            let min = (DEPTH_TO_DISPARITY / self.max_distance) * depth_units + 0.5;
            self.paint(disparity, &mut rgb, |d| (d - min) / (max - min));
        }
        Ok(rgb)
    }

    /// Colour a Z16 frame ([`Colorizer::colorize`]) or a DISPARITY32
    /// frame ([`Colorizer::colorize_disparity`]) of `depth_units` metres
    /// per depth unit.
    pub fn colorize_frame(&self, frame: &Frame, depth_units: f32) -> Result<Image> {
        let (width, height) = frame.resolution().unwrap_or((0, 0));
        let data = match frame.profile.format {
            Format::Z16 => self.colorize(&depth_values(frame)?, width, height, depth_units)?,
            Format::Disparity32 => {
                let values: Vec<f32> = rows(frame, 4)?
                    .flat_map(|row| row.chunks_exact(4))
                    .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                    .collect();
                self.colorize_disparity(&values, width, height, depth_units)?
            }
            other => {
                return Err(invalid(format!(
                    "the colorizer takes Z16 depth or DISPARITY32, not {} ({})",
                    other.name(),
                    frame.profile.stream
                )))
            }
        };
        Ok(Image {
            width,
            height,
            layout: PixelLayout::Rgb8,
            data,
        })
    }

    /// Colour each non-zero value at the position (0 near, 1 far) it has.
    fn paint<T: Copy + Default + PartialEq>(
        &self,
        values: &[T],
        rgb: &mut [u8],
        position: impl Fn(T) -> f32,
    ) {
        for (&v, pixel) in values.iter().zip(rgb.chunks_exact_mut(3)) {
            if v != T::default() {
                pixel.copy_from_slice(&self.scheme.colour(position(v)));
            }
        }
    }
}

/// Bins of librealsense's histogram, one per 16-bit depth value.
const HISTOGRAM_BINS: usize = 1 << 16;

/// An error unless `count` values make a `width` x `height` frame.
fn check_size(count: usize, width: u32, height: u32) -> Result<()> {
    let pixels = width as usize * height as usize;
    if count != pixels {
        return Err(invalid(format!(
            "colorizer: {count} values for a {width}x{height} frame ({pixels} pixels)"
        )));
    }
    Ok(())
}

/// librealsense's cumulative histogram of the bins: for each bin from 1
/// up, how many values fall in bins 1 to it; bin 0 keeps its own count
/// (it is never summed, and only read for disparities under 1).
fn cumulative_histogram(bins: impl Iterator<Item = usize>) -> Vec<u32> {
    let mut counts = vec![0u32; HISTOGRAM_BINS];
    for bin in bins {
        counts[bin] += 1;
    }
    for i in 2..counts.len() {
        counts[i] += counts[i - 1];
    }
    counts
}

fn range_of(key: &str) -> Option<&'static ProcessingOption> {
    COLORIZER_OPTIONS
        .iter()
        .find(|o| o.name == key || o.alias == key)
}

fn describe_range(option: &ProcessingOption) -> String {
    let range = option.range;
    format!(
        " (range {} to {}, step {}, default {}: {})",
        range.min, range.max, range.step, range.default, option.description
    )
}

fn invalid(message: String) -> Error {
    Error::InvalidArgument(message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_have_their_stops_at_the_ends() {
        for scheme in ColorScheme::ALL {
            let (stops, steps) = scheme.stops();
            let table = scheme.table();
            assert_eq!(table.len(), steps + 1);
            assert_eq!(table[0], stops[0].map(|c| c as u8), "{scheme:?}");
            assert_eq!(table[steps], stops[stops.len() - 1].map(|c| c as u8));
        }
    }

    #[test]
    fn bad_options_name_the_option_and_its_range() {
        let error = Colorizer::with_options([("max", "17")])
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("option max: 17 is out of range (range 0 to 16"),
            "{error}"
        );
        let error = Colorizer::with_options([("colour", "1")])
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("no option \"colour\"; its options are color-scheme"),
            "{error}"
        );
        let error = Colorizer::with_options([("color-scheme", "x")])
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("\"x\" is not a number (range 0 to 9"),
            "{error}"
        );
    }

    #[test]
    fn min_and_max_push_each_other_as_librealsense_does() {
        let c = Colorizer::with_options([("min", "3"), ("max", "2")]).expect("options");
        assert_eq!((c.min_distance, c.max_distance), (0.0, 2.0));
        let c = Colorizer::with_options([("max", "1"), ("min-distance", "2.5")]).expect("options");
        assert_eq!((c.min_distance, c.max_distance), (2.5, 16.0));
        assert!(!c.histogram_equalization);
    }

    #[test]
    fn a_depth_count_that_does_not_fit_the_size_is_refused() {
        let error = Colorizer::default().colorize(&[1, 2, 3], 2, 2, 0.001);
        assert!(error
            .unwrap_err()
            .to_string()
            .contains("3 values for a 2x2"));
    }

    #[test]
    fn frames_of_depth_and_disparity_are_coloured_and_others_refused() {
        use crate::device::{StreamId, StreamKind, StreamProfile, TimestampDomain};
        let frame = |format, bytes: Vec<u8>, bpp: u32| Frame {
            profile: StreamProfile::video(StreamId::new(StreamKind::Depth, 0), format, 2, 1, 30),
            number: 1,
            timestamp: 0.0,
            domain: TimestampDomain::HardwareClock,
            system_time: 0.0,
            metadata: Vec::new(),
            stride: 2 * bpp,
            data: bytes.into(),
        };
        let colorizer = Colorizer::default();
        let depth = [0u16, 900].iter().flat_map(|d| d.to_le_bytes()).collect();
        let image = colorizer.colorize_frame(&frame(Format::Z16, depth, 2), 0.001);
        let image = image.expect("depth");
        assert_eq!(
            image.data,
            colorizer.colorize(&[0, 900], 2, 1, 0.001).expect("rgb")
        );
        let disparity = [0f32, 75.5].iter().flat_map(|d| d.to_le_bytes()).collect();
        let image = colorizer.colorize_frame(&frame(Format::Disparity32, disparity, 4), 0.001);
        let expected = colorizer.colorize_disparity(&[0.0, 75.5], 2, 1, 0.001);
        assert_eq!(image.expect("disparity").data, expected.expect("rgb"));
        let error = colorizer.colorize_frame(&frame(Format::Y8, vec![0; 2], 1), 0.001);
        assert!(error.unwrap_err().to_string().contains("not Y8"));
    }
}
