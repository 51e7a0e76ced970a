//! librealsense's depth post-processing filters, computed as librealsense
//! 2.55 computes them, bit for bit: decimation, threshold, depth to
//! disparity and back, the spatial edge-preserving filter, the temporal
//! filter (state carried from frame to frame) and hole filling, with
//! librealsense's names, options, ranges and defaults ([`FilterKind`],
//! [`FilterSpec`]), chained in a [`FilterChain`]. librealsense's
//! colorizer can end a chain: it turns depth (or disparity) into its RGB8
//! picture ([`DepthValues::Colorized`]).
//!
//! Like librealsense's blocks, each filter passes through what it does
//! not handle: decimation and threshold work on Z16 depth only, depth to
//! disparity on depth, disparity to depth on disparity; the spatial,
//! temporal and hole-filling filters on either.
//!
//! ```
//! use rsbag::processing::filters::{DepthImage, DepthValues, FilterChain, FilterSpec, SensorFacts};
//! # fn main() -> rsbag::Result<()> {
//! let specs = ["decimation:magnitude=2", "hole-filling:mode=0"]
//!     .map(|s| FilterSpec::parse(s))
//!     .into_iter()
//!     .collect::<rsbag::Result<Vec<_>>>()?;
//! let mut chain = FilterChain::new(&specs);
//! let image = DepthImage::depth(4, 2, vec![0, 0, 9, 9, 0, 0, 9, 9], None);
//! let out = chain.apply(image, &SensorFacts::default())?;
//! assert_eq!((out.width, out.height), (4, 4)); // 2x1, padded to 4x4
//! assert_eq!(out.values, DepthValues::Depth(vec![0, 9, 9, 9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]));
//! # Ok(()) }
//! ```

mod decimation;
mod disparity;
mod hole_filling;
mod options;
mod spatial;
mod temporal;

use std::collections::HashMap;

use bytes::Bytes;

use decimation::{decimated_intrinsics, decimated_size};
use disparity::conversion_factor;
pub use hole_filling::HoleFillMode;
pub use options::{FilterKind, FilterSpec, OptionInfo};
pub use spatial::SpatialParams;
pub use temporal::TemporalParams;

use super::colorizer::Colorizer;
use super::image::{depth_values, rows};
use crate::device::{
    option_name, Format, Frame, Intrinsics, ProfileKind, SensorOption, StreamId, StreamProfile,
    DEFAULT_DEPTH_UNITS,
};
use crate::{Error, Result};
use temporal::TemporalState;

/// What the filters need to know of the depth sensor, as librealsense
/// reads it from the sensor a frame comes from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SensorFacts {
    /// Metres per depth unit (the Depth Units option).
    pub depth_units: f32,
    /// The Stereo Baseline option (millimetres), which depth to
    /// disparity and back need; `None` for a sensor that is not a stereo
    /// depth sensor (librealsense then outputs no frame).
    pub stereo_baseline_mm: Option<f32>,
}

impl Default for SensorFacts {
    /// The D400 default depth units and no baseline.
    fn default() -> Self {
        SensorFacts {
            depth_units: DEFAULT_DEPTH_UNITS,
            stereo_baseline_mm: None,
        }
    }
}

impl SensorFacts {
    /// The facts of a sensor with these options.
    pub fn from_options(options: &[SensorOption]) -> SensorFacts {
        let find = |name: &str| options.iter().find(|o| o.name == name).map(|o| o.value);
        SensorFacts {
            depth_units: find(option_name::DEPTH_UNITS)
                .filter(|&u| u > 0.0)
                .unwrap_or(DEFAULT_DEPTH_UNITS),
            stereo_baseline_mm: find(option_name::STEREO_BASELINE),
        }
    }
}

/// Depth (Z16, depth units) or disparity (`DISPARITY32`, 1/32 pixel)
/// values, row by row, or their colorized picture.
#[derive(Debug, Clone, PartialEq)]
pub enum DepthValues {
    /// Z16 depth.
    Depth(Vec<u16>),
    /// 32-bit float disparity.
    Disparity(Vec<f32>),
    /// RGB8, 3 bytes a pixel: what the colorizer made of depth or
    /// disparity (the other filters pass it through, as librealsense's
    /// do).
    Colorized(Vec<u8>),
}

/// A depth or disparity image between filters.
#[derive(Debug, Clone, PartialEq)]
pub struct DepthImage {
    /// Pixels per row.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// `width * height` values.
    pub values: DepthValues,
    /// The image's intrinsics, where known (decimation scales them).
    pub intrinsics: Option<Intrinsics>,
}

impl DepthImage {
    /// A Z16 depth image.
    pub fn depth(
        width: usize,
        height: usize,
        values: Vec<u16>,
        intrinsics: Option<Intrinsics>,
    ) -> DepthImage {
        DepthImage {
            width,
            height,
            values: DepthValues::Depth(values),
            intrinsics,
        }
    }

    /// The image of a Z16 or DISPARITY32 frame.
    pub(crate) fn from_frame(frame: &Frame) -> Result<DepthImage> {
        let (width, height) = frame.resolution().unwrap_or((0, 0));
        let values = match frame.profile.format {
            Format::Z16 => DepthValues::Depth(depth_values(frame)?),
            Format::Disparity32 => DepthValues::Disparity(
                rows(frame, 4)?
                    .flat_map(|row| row.chunks_exact(4))
                    .map(|p| f32::from_le_bytes([p[0], p[1], p[2], p[3]]))
                    .collect(),
            ),
            other => {
                return Err(Error::Unsupported(format!(
                    "frame #{} of {} is {other}; the depth filters take Z16 depth or DISPARITY32",
                    frame.number, frame.profile.stream
                )))
            }
        };
        Ok(DepthImage {
            width: width as usize,
            height: height as usize,
            values,
            intrinsics: frame.profile.intrinsics(),
        })
    }

    /// The image `filters` (the start of a chain) begin from for
    /// `frame`, and how many of them made it: a first decimation of Z16
    /// depth reads the frame's pixels itself (the full-size image is
    /// never copied out whole).
    fn of_frame_for(frame: &Frame, filters: &[Filter]) -> Result<(DepthImage, usize)> {
        let first = filters.first().map(|f| &f.stage);
        let (Some(&Stage::Decimation(scale)), Format::Z16) = (first, frame.profile.format) else {
            return Ok((DepthImage::from_frame(frame)?, 0));
        };
        let (width, height) = frame.resolution().unwrap_or((0, 0));
        let (width, height) = (width as usize, height as usize);
        let values = decimation::decimate_le_rows(rows(frame, 2)?, width, height, scale);
        let image = DepthImage::decimated(values, width, height, scale, frame.profile.intrinsics());
        Ok((image, 1))
    }

    /// The image decimation by `scale` makes of a `width` x `height`
    /// image with `intrinsics`: `values`, at the padded size.
    fn decimated(
        values: Vec<u16>,
        width: usize,
        height: usize,
        scale: usize,
        intrinsics: Option<Intrinsics>,
    ) -> DepthImage {
        let ((_, _), (width, height)) = decimated_size(width, height, scale);
        DepthImage {
            width,
            height,
            values: DepthValues::Depth(values),
            intrinsics: intrinsics.map(|i| decimated_intrinsics(&i, scale)),
        }
    }

    /// `like` (a frame of the stream filtered) with this image as its
    /// pixels: format, size, intrinsics and stride follow the image, the
    /// rest (number, timestamps, metadata) is `like`'s.
    pub fn to_frame(&self, like: &Frame) -> Frame {
        let (format, data, bpp): (Format, Vec<u8>, usize) = match &self.values {
            DepthValues::Depth(v) => (Format::Z16, le_bytes(v, u16::to_le_bytes), 2),
            DepthValues::Disparity(v) => (Format::Disparity32, le_bytes(v, f32::to_le_bytes), 4),
            DepthValues::Colorized(rgb) => (Format::Rgb8, rgb.clone(), 3),
        };
        let mut frame = like.clone();
        frame.profile.format = format;
        frame.profile.kind = ProfileKind::Video {
            width: self.width as u32,
            height: self.height as u32,
            intrinsics: self.intrinsics,
        };
        frame.stride = (self.width * bpp) as u32;
        frame.data = Bytes::from(data);
        frame
    }
}

/// `values` as their little-endian bytes, one after the other (into a
/// buffer sized once, a loop the compiler vectorizes).
fn le_bytes<T: Copy, const N: usize>(values: &[T], bytes: impl Fn(T) -> [u8; N]) -> Vec<u8> {
    let mut data = vec![0u8; values.len() * N];
    for (out, &value) in data.chunks_exact_mut(N).zip(values) {
        out.copy_from_slice(&bytes(value));
    }
    data
}

/// The focal length disparity conversions use.
fn fx(intrinsics: Option<Intrinsics>, kind: FilterKind) -> Result<f32> {
    intrinsics.map(|i| i.fx).ok_or_else(|| {
        Error::InvalidArgument(format!(
            "filter {kind}: the depth stream has no intrinsics recorded (its focal length is needed)"
        ))
    })
}

/// One filter, with its settings (and, for the temporal filter, its state).
#[derive(Debug, Clone)]
pub struct Filter {
    kind: FilterKind,
    stage: Stage,
}

#[derive(Debug, Clone)]
enum Stage {
    Decimation(usize),
    Threshold {
        min: f32,
        max: f32,
    },
    /// With the baseline (mm) given for it, if any.
    DepthToDisparity(Option<f32>),
    DisparityToDepth(Option<f32>),
    Spatial(SpatialParams),
    /// Boxed: the state is large beside the other stages' settings.
    Temporal(Box<Temporal>),
    HoleFilling(HoleFillMode),
    Colorizer(Colorizer),
}

/// The temporal filter's state for the kind of image it last saw.
#[derive(Debug, Clone)]
enum Temporal {
    Depth(TemporalState<u16>),
    Disparity(TemporalState<f32>),
}

impl Filter {
    /// The filter `spec` describes, as librealsense sets it up: the
    /// defaults, then each option given, in order.
    pub fn new(spec: &FilterSpec) -> Filter {
        let v = |key: &str| spec.value(key);
        let stage = match spec.kind {
            FilterKind::Decimation => Stage::Decimation(v("magnitude") as usize),
            FilterKind::Threshold => {
                let (mut min, mut max) = (0.15, 4.0);
                for &(key, value) in &spec.options {
                    // librealsense's min/max options push each other to
                    // the range's end rather than cross.
                    if key == "min" {
                        if max < value {
                            max = 16.0;
                        }
                        min = value;
                    } else {
                        if min > value {
                            min = 0.0;
                        }
                        max = value;
                    }
                }
                Stage::Threshold { min, max }
            }
            FilterKind::DepthToDisparity => Stage::DepthToDisparity(given(spec, "baseline")),
            FilterKind::DisparityToDepth => Stage::DisparityToDepth(given(spec, "baseline")),
            FilterKind::Spatial => Stage::Spatial(SpatialParams {
                alpha: v("alpha"),
                delta: v("delta"),
                iterations: v("magnitude") as u32,
            }),
            FilterKind::Temporal => Stage::Temporal(Box::new(Temporal::Depth(TemporalState::new(
                temporal_params(spec),
            )))),
            FilterKind::HoleFilling => Stage::HoleFilling(match v("mode") as u8 {
                0 => HoleFillMode::FromLeft,
                1 => HoleFillMode::Farthest,
                _ => HoleFillMode::Nearest,
            }),
            FilterKind::Colorizer => Stage::Colorizer(colorizer(spec)),
        };
        Filter {
            kind: spec.kind,
            stage,
        }
    }

    /// Which filter this is.
    pub fn kind(&self) -> FilterKind {
        self.kind
    }

    /// Whether the filter carries state from frame to frame (frames must
    /// then go through it one at a time, in recorded order).
    pub(crate) fn is_stateful(&self) -> bool {
        matches!(self.stage, Stage::Temporal(_))
    }

    /// Filter `image`.
    pub fn apply(&mut self, image: DepthImage, sensor: &SensorFacts) -> Result<DepthImage> {
        match &mut self.stage {
            Stage::Temporal(state) => {
                let mut image = image;
                temporal_apply(state, &mut image);
                Ok(image)
            }
            _ => self.apply_stateless(image, sensor),
        }
    }

    /// A Z16 (or DISPARITY32) frame filtered; other frames are returned
    /// unchanged.
    pub fn apply_frame(&mut self, frame: &Frame, sensor: &SensorFacts) -> Result<Frame> {
        if !matches!(frame.profile.format, Format::Z16 | Format::Disparity32) {
            return Ok(frame.clone());
        }
        let image = match DepthImage::of_frame_for(frame, std::slice::from_ref(self))? {
            (image, 0) => self.apply(image, sensor)?,
            (decimated, _) => decimated,
        };
        Ok(image.to_frame(frame))
    }

    /// Filter `image` with a filter that keeps no state (not temporal).
    fn apply_stateless(&self, mut image: DepthImage, sensor: &SensorFacts) -> Result<DepthImage> {
        let (w, h) = (image.width, image.height);
        let intrinsics = image.intrinsics;
        match (&self.stage, &mut image.values) {
            (Stage::Decimation(scale), DepthValues::Depth(values)) => {
                let out = decimation::decimate(values, w, h, *scale);
                Ok(DepthImage::decimated(out, w, h, *scale, intrinsics))
            }
            (Stage::Threshold { min, max }, DepthValues::Depth(values)) => {
                disparity::threshold(values, sensor.depth_units, *min, *max);
                Ok(image)
            }
            (Stage::DepthToDisparity(baseline), DepthValues::Depth(values)) => {
                let factor = self.factor(*baseline, intrinsics, sensor)?;
                image.values = DepthValues::Disparity(disparity::to_disparity(values, factor));
                Ok(image)
            }
            (Stage::DisparityToDepth(baseline), DepthValues::Disparity(values)) => {
                let factor = self.factor(*baseline, intrinsics, sensor)?;
                image.values = DepthValues::Depth(disparity::to_depth(values, factor));
                Ok(image)
            }
            (Stage::Spatial(p), DepthValues::Depth(values)) => {
                spatial::smooth_depth(values, w, h, p);
                Ok(image)
            }
            (Stage::Spatial(p), DepthValues::Disparity(values)) => {
                spatial::smooth_disparity(values, w, h, p);
                Ok(image)
            }
            (Stage::HoleFilling(mode), DepthValues::Depth(values)) => {
                hole_filling::fill_holes(values, w, *mode);
                Ok(image)
            }
            (Stage::HoleFilling(mode), DepthValues::Disparity(values)) => {
                hole_filling::fill_holes(values, w, *mode);
                Ok(image)
            }
            (Stage::Colorizer(colorizer), DepthValues::Depth(values)) => {
                let rgb = colorizer.colorize(values, w as u32, h as u32, sensor.depth_units)?;
                image.values = DepthValues::Colorized(rgb);
                Ok(image)
            }
            (Stage::Colorizer(colorizer), DepthValues::Disparity(values)) => {
                let rgb =
                    colorizer.colorize_disparity(values, w as u32, h as u32, sensor.depth_units)?;
                image.values = DepthValues::Colorized(rgb);
                Ok(image)
            }
            // What librealsense's block does not process passes through.
            _ => Ok(image),
        }
    }

    /// The depth/disparity factor of an image with `intrinsics` from
    /// `sensor`: with the baseline `given` (mm), else the sensor's.
    fn factor(
        &self,
        given: Option<f32>,
        intrinsics: Option<Intrinsics>,
        sensor: &SensorFacts,
    ) -> Result<f32> {
        let baseline = given.or(sensor.stereo_baseline_mm).ok_or_else(|| {
            Error::InvalidArgument(format!(
                "filter {0}: the depth sensor has no Stereo Baseline option recorded (librealsense \
                 converts only a stereo depth sensor's frames); give one in millimetres: \
                 {0}:baseline=50 (a D435's)",
                self.kind
            ))
        })?;
        Ok(conversion_factor(
            baseline,
            fx(intrinsics, self.kind)?,
            sensor.depth_units,
        ))
    }
}

/// The colorizer `spec` describes: librealsense's defaults, then each
/// option given, in order (setting `min` or `max` turns histogram
/// equalization off, as in librealsense).
fn colorizer(spec: &FilterSpec) -> Colorizer {
    let mut colorizer = Colorizer::default();
    for &(key, value) in &spec.options {
        colorizer
            .set_option(key, value)
            .expect("a spec's options are checked against the colorizer's ranges");
    }
    colorizer
}

/// The value given in `spec` for option `key`, if given.
fn given(spec: &FilterSpec, key: &str) -> Option<f32> {
    (spec.options.iter().rev())
        .find(|(k, _)| *k == key)
        .map(|&(_, v)| v)
}

fn temporal_params(spec: &FilterSpec) -> TemporalParams {
    TemporalParams {
        alpha: spec.value("alpha"),
        delta: spec.value("delta") as u8,
        persistence: spec.value("persistence") as u8,
    }
}

/// The temporal filter over `image`; its state starts over when the kind
/// of image changes (librealsense's profile change).
fn temporal_apply(state: &mut Temporal, image: &mut DepthImage) {
    match (&mut *state, &mut image.values) {
        (Temporal::Depth(s), DepthValues::Depth(v)) => s.process(v),
        (Temporal::Disparity(s), DepthValues::Disparity(v)) => s.process(v),
        (Temporal::Depth(s), DepthValues::Disparity(v)) => {
            let mut fresh = TemporalState::new(s.params());
            fresh.process(v);
            *state = Temporal::Disparity(fresh);
        }
        (Temporal::Disparity(s), DepthValues::Depth(v)) => {
            let mut fresh = TemporalState::new(s.params());
            fresh.process(v);
            *state = Temporal::Depth(fresh);
        }
        // The colorizer's picture passes through.
        (_, DepthValues::Colorized(_)) => {}
    }
}

/// Whether `specs` make a chain whose every filter does something: the
/// colorizer, if there, comes last (the depth filters would pass its
/// RGB picture through untouched).
pub fn check_chain(specs: &[FilterSpec]) -> Result<()> {
    let colorizer = specs.iter().position(|s| s.kind == FilterKind::Colorizer);
    match colorizer {
        Some(at) if at + 1 < specs.len() => Err(Error::InvalidArgument(format!(
            "filter colorizer must end the chain (it is followed by {}): the depth filters \
             go before it",
            specs[at + 1].kind
        ))),
        _ => Ok(()),
    }
}

/// Filters applied in order, as a chain of librealsense processing blocks
/// (`f3.process(f2.process(f1.process(frame)))`).
#[derive(Debug, Clone, Default)]
pub struct FilterChain {
    filters: Vec<Filter>,
}

impl FilterChain {
    /// The filters of `specs`, in order.
    pub fn new(specs: &[FilterSpec]) -> FilterChain {
        FilterChain {
            filters: specs.iter().map(Filter::new).collect(),
        }
    }

    /// Whether the chain has no filter.
    pub fn is_empty(&self) -> bool {
        self.filters.is_empty()
    }

    /// The filters.
    pub fn filters(&self) -> &[Filter] {
        &self.filters
    }

    /// One image through the chain (the next in recorded order, for the
    /// temporal filter).
    pub fn apply(&mut self, image: DepthImage, sensor: &SensorFacts) -> Result<DepthImage> {
        self.filters
            .iter_mut()
            .try_fold(image, |image, filter| filter.apply(image, sensor))
    }

    /// Consecutive images (in recorded order) through the chain: the
    /// stretches of filters without state run on every core, one image
    /// per task; the temporal filter takes the images one by one in
    /// order. Same results as [`FilterChain::apply`] on each in turn.
    pub fn apply_all(
        &mut self,
        images: Vec<DepthImage>,
        sensor: &SensorFacts,
    ) -> Result<Vec<DepthImage>> {
        self.apply_all_from(0, images, sensor)
    }

    /// The images of consecutive Z16 or DISPARITY32 frames (in recorded
    /// order) through the chain, as [`FilterChain::apply_all`] of their
    /// images; each frame's image is read in the task that runs the
    /// chain's first stretch of filters on it (a first decimation reads
    /// the frame's pixels itself).
    pub(crate) fn apply_all_frames(
        &mut self,
        frames: &[&Frame],
        sensor: &SensorFacts,
    ) -> Result<Vec<DepthImage>> {
        let first = self.next_stateful(0);
        let stretch = &self.filters[..first];
        let images = crate::parallel::parallel_map(frames, |frame| {
            let (image, done) = DepthImage::of_frame_for(frame, stretch)?;
            stretch[done..]
                .iter()
                .try_fold(image, |image, f| f.apply_stateless(image, sensor))
        })
        .into_iter()
        .collect::<Result<_>>()?;
        self.apply_all_from(first, images, sensor)
    }

    /// The index of the first filter from `start` on that keeps state
    /// (the chain's length if none does).
    fn next_stateful(&self, start: usize) -> usize {
        self.filters[start..]
            .iter()
            .position(Filter::is_stateful)
            .map_or(self.filters.len(), |p| start + p)
    }

    /// [`FilterChain::apply_all`] from the filter at `start` on.
    fn apply_all_from(
        &mut self,
        mut start: usize,
        images: Vec<DepthImage>,
        sensor: &SensorFacts,
    ) -> Result<Vec<DepthImage>> {
        let mut images = images;
        while start < self.filters.len() {
            let end = self.next_stateful(start);
            if end > start {
                let stretch = &self.filters[start..end];
                let slots: Vec<parking_lot::Mutex<Option<DepthImage>>> = images
                    .into_iter()
                    .map(|i| parking_lot::Mutex::new(Some(i)))
                    .collect();
                images = crate::parallel::parallel_map(&slots, |slot| {
                    let image = slot.lock().take().expect("each image is taken once");
                    stretch
                        .iter()
                        .try_fold(image, |image, f| f.apply_stateless(image, sensor))
                })
                .into_iter()
                .collect::<Result<_>>()?;
            }
            if let Some(stateful) = self.filters.get_mut(end) {
                images = images
                    .into_iter()
                    .map(|image| stateful.apply(image, sensor))
                    .collect::<Result<_>>()?;
            }
            start = end + 1;
        }
        Ok(images)
    }

    /// The profile of what the chain makes of frames of `profile`: its
    /// format (Z16, DISPARITY32 or, colorized, RGB8), size and intrinsics after decimation.
    pub(crate) fn output_profile(&self, profile: &StreamProfile) -> StreamProfile {
        let mut out = *profile;
        for filter in &self.filters {
            match (&filter.stage, out.format, &mut out.kind) {
                (
                    Stage::Decimation(scale),
                    Format::Z16,
                    ProfileKind::Video {
                        width,
                        height,
                        intrinsics,
                    },
                ) => {
                    let (_, (w, h)) = decimated_size(*width as usize, *height as usize, *scale);
                    (*width, *height) = (w as u32, h as u32);
                    *intrinsics = intrinsics.map(|i| decimated_intrinsics(&i, *scale));
                }
                (Stage::DepthToDisparity(_), Format::Z16, _) => out.format = Format::Disparity32,
                (Stage::DisparityToDepth(_), Format::Disparity32, _) => out.format = Format::Z16,
                (Stage::Colorizer(_), Format::Z16 | Format::Disparity32, _) => {
                    out.format = Format::Rgb8
                }
                _ => {}
            }
        }
        out
    }

    /// A Z16 (or DISPARITY32) frame through the chain; other frames are
    /// returned unchanged.
    pub fn apply_frame(&mut self, frame: &Frame, sensor: &SensorFacts) -> Result<Frame> {
        if self.is_empty() || !matches!(frame.profile.format, Format::Z16 | Format::Disparity32) {
            return Ok(frame.clone());
        }
        let (image, done) = DepthImage::of_frame_for(frame, &self.filters)?;
        let image = self.filters[done..]
            .iter_mut()
            .try_fold(image, |image, filter| filter.apply(image, sensor))?;
        Ok(image.to_frame(frame))
    }
}

/// A chain of the same filters for each depth stream of a recording, each
/// with its own state and its sensor's facts: what writes a filtered copy
/// of a recording uses.
#[derive(Debug, Clone, Default)]
pub struct StreamFilters {
    chains: HashMap<StreamId, (FilterChain, SensorFacts)>,
}

impl StreamFilters {
    /// `specs` for each of the depth streams `depth_streams`, with the
    /// facts of its sensor (a recording's: `StreamFilters::of_recording`).
    pub fn new(
        depth_streams: impl IntoIterator<Item = (StreamId, SensorFacts)>,
        specs: &[FilterSpec],
    ) -> StreamFilters {
        if specs.is_empty() {
            return StreamFilters::default();
        }
        let chains = (depth_streams.into_iter())
            .map(|(id, facts)| (id, (FilterChain::new(specs), facts)))
            .collect();
        StreamFilters { chains }
    }

    /// Whether no stream is filtered.
    pub fn is_empty(&self) -> bool {
        self.chains.is_empty()
    }

    /// The profile filtered frames of `profile`'s stream have.
    pub fn profile(&self, profile: &StreamProfile) -> StreamProfile {
        match self.chains.get(&profile.stream) {
            Some((chain, _)) => chain.output_profile(profile),
            None => *profile,
        }
    }

    /// `frames` (in recorded order, of any streams) filtered in place,
    /// each filtered stream's frames through its chain as
    /// [`FilterChain::apply_all`] takes them (on every core where the
    /// filters allow).
    pub fn apply_all<'f>(&mut self, frames: impl IntoIterator<Item = &'f mut Frame>) -> Result<()> {
        if self.chains.is_empty() {
            return Ok(());
        }
        let mut by_stream: HashMap<StreamId, Vec<&mut Frame>> = HashMap::new();
        for frame in frames {
            let filtered = self.chains.contains_key(&frame.profile.stream)
                && matches!(frame.profile.format, Format::Z16 | Format::Disparity32);
            if filtered {
                by_stream
                    .entry(frame.profile.stream)
                    .or_default()
                    .push(frame);
            }
        }
        for (stream, frames) in by_stream {
            let (chain, facts) = self
                .chains
                .get_mut(&stream)
                .expect("a chain per filtered stream");
            let read: Vec<&Frame> = frames.iter().map(|f| &**f).collect();
            let images = chain.apply_all_frames(&read, facts)?;
            for (frame, image) in frames.into_iter().zip(images) {
                *frame = image.to_frame(frame);
            }
        }
        Ok(())
    }

    /// `frame` filtered (the next of its stream in recorded order), or as
    /// it is when its stream is not filtered.
    pub fn apply(&mut self, frame: Frame) -> Result<Frame> {
        match self.chains.get_mut(&frame.profile.stream) {
            Some((chain, facts)) => chain.apply_frame(&frame, facts),
            None => Ok(frame),
        }
    }
}
