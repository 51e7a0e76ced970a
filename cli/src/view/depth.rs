//! How the page asks for depth to be shown: the one place where what is
//! done to a depth frame before it is drawn (as a picture or as the 3D
//! view's point cloud) is read from a request and applied.
//!
//! Query parameters (on `/api/frame` for a depth stream and on
//! `/api/cloud`):
//! - `colorizer=KEY=VALUE,...`: colour the picture with librealsense's
//!   colorizer (`rsbag::processing::Colorizer`, options as
//!   `--filter colorizer:...` takes them), sent beside the depth values;
//! - `filter=SPEC` (repeated, in order): librealsense's depth filters, as
//!   `--filter SPEC` names them, applied as `rsbag convert --filter`
//!   applies them ([`DepthSettings::process`]); the chain must end in
//!   depth (Z16), and colours are `colorizer=`'s, not a filter's.

use rsbag::device::{Format, Frame};
use rsbag::processing::filters::{check_chain, FilterKind, FilterSpec, StreamFilters};
use rsbag::processing::Colorizer;
use rsbag::recording::{FrameReader, RecordedFrame};
use rsbag::{Error, Result};

/// How many frames before the one shown go through a chain with the
/// temporal filter first: its persistence looks back over 8 frames, so
/// from there on the result differs little from the whole stream's, and a
/// frame filters the same whichever frame was shown before it.
pub const TEMPORAL_WINDOW: u64 = 8;

/// The longest filter chain one request may ask for: the page's whole
/// chain is seven (five filters and the two disparity transforms), and
/// each filter costs a pass over the frame and the temporal window's.
const MAX_FILTERS: usize = 8;

/// What is done to depth frames before they are drawn.
#[derive(Debug, Default)]
pub struct DepthSettings {
    /// The colours of the picture, when librealsense's are asked for (the
    /// page otherwise colours depth itself, with a legend in metres).
    pub colorizer: Option<Colorizer>,
    /// librealsense's depth filters, in order (none: depth as recorded).
    pub filters: Vec<FilterSpec>,
}

impl DepthSettings {
    /// The settings a request's query (`name=value` pairs, values
    /// percent-decoded) asks for.
    pub fn from_query<'a>(pairs: impl IntoIterator<Item = (&'a str, String)>) -> Result<Self> {
        let mut settings = DepthSettings::default();
        for (name, value) in pairs {
            match name {
                "colorizer" => settings.colorizer = Some(colorizer(&value)?),
                "filter" => settings.filters.push(filter(&value)?),
                _ => {}
            }
        }
        if settings.filters.len() > MAX_FILTERS {
            return Err(Error::InvalidArgument(format!(
                "{} filters asked for: at most {MAX_FILTERS} in one chain",
                settings.filters.len()
            )));
        }
        check_chain(&settings.filters)?;
        Ok(settings)
    }

    /// Depth frame `depth` of `reader`'s recording as it is to be drawn:
    /// through the filters asked for, built for its stream as `rsbag
    /// convert --filter` builds them; with the temporal filter, the
    /// [`TEMPORAL_WINDOW`] frames before it go through the chain first, in
    /// order, so that the result is the same for a frame whenever it is
    /// asked for (and, for the first frames, `convert`'s).
    pub fn process(&self, reader: &FrameReader, depth: &RecordedFrame) -> Result<Frame> {
        if self.filters.is_empty() {
            return Ok(depth.frame.clone());
        }
        let temporal = self.filters.iter().any(|f| f.kind == FilterKind::Temporal);
        let first = match temporal {
            true => depth.index.saturating_sub(TEMPORAL_WINDOW),
            false => depth.index,
        };
        let mut frames = (first..depth.index)
            .map(|i| reader.frame(depth.stream, i).map(|f| f.frame))
            .collect::<Result<Vec<_>>>()?;
        frames.push(depth.frame.clone());
        StreamFilters::of_recording(reader.recording(), &self.filters)
            .apply_all(frames.iter_mut())?;
        let filtered = frames.pop().expect("the frame shown");
        if filtered.profile.format != Format::Z16 {
            return Err(Error::InvalidArgument(format!(
                "the depth filters end in {}: end them in depth (disparity-to-depth)",
                filtered.profile.format
            )));
        }
        Ok(filtered)
    }
}

/// A depth filter from its `--filter` SPEC (not the colorizer: the
/// picture's colours are `colorizer=`'s).
fn filter(spec: &str) -> Result<FilterSpec> {
    let filter = FilterSpec::parse(spec)?;
    if filter.kind == FilterKind::Colorizer {
        return Err(Error::InvalidArgument(format!(
            "filter {spec:?}: give the colours as colorizer=..., not as a filter"
        )));
    }
    Ok(filter)
}

/// A colorizer from `KEY=VALUE,...` (empty: librealsense's defaults).
fn colorizer(spec: &str) -> Result<Colorizer> {
    let pairs = spec
        .split(',')
        .filter(|p| !p.trim().is_empty())
        .map(|pair| {
            pair.split_once('=').ok_or_else(|| {
                Error::InvalidArgument(format!("colorizer option {pair:?}: give KEY=VALUE"))
            })
        })
        .collect::<Result<Vec<_>>>()?;
    Colorizer::with_options(pairs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rsbag::processing::ColorScheme;

    #[test]
    fn the_colorizer_is_read_from_the_query_in_order() {
        let query = [(
            "colorizer",
            "color-scheme=2,min=0.5,max=3,histogram-equalization=0".to_owned(),
        )];
        let settings = DepthSettings::from_query(query).expect("settings");
        let colorizer = settings.colorizer.expect("a colorizer");
        assert_eq!(colorizer.scheme, ColorScheme::WhiteToBlack);
        assert!(!colorizer.histogram_equalization);
        assert_eq!((colorizer.min_distance, colorizer.max_distance), (0.5, 3.0));
        assert!(DepthSettings::from_query([("colorizer", "max=99".to_owned())]).is_err());
        assert!(DepthSettings::from_query([("colorizer", "max".to_owned())]).is_err());
        assert!(DepthSettings::from_query([("filter", "colorizer".to_owned())]).is_err());
        assert!(DepthSettings::from_query([("filter", "spatial:alpha=9".to_owned())]).is_err());
        let filters = [("filter", "decimation:magnitude=3"), ("filter", "temporal")]
            .map(|(n, v)| (n, v.to_owned()));
        let settings = DepthSettings::from_query(filters).expect("settings");
        let kinds: Vec<_> = settings.filters.iter().map(|f| f.kind).collect();
        assert_eq!(kinds, [FilterKind::Decimation, FilterKind::Temporal]);
        assert_eq!(settings.filters[0].value("magnitude"), 3.0);
        assert!(
            DepthSettings::from_query([("stream", "Depth 0".to_owned())])
                .expect("settings")
                .colorizer
                .is_none()
        );
    }
}
