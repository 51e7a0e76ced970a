//! The filters' names and options as librealsense 2.55 registers them
//! (ranges, defaults), and `NAME[:key=value,...]` specs.

use std::fmt;
use std::sync::LazyLock;

use crate::processing::COLORIZER_OPTIONS;
use crate::{Error, Result};

/// Which filter (librealsense's processing block).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FilterKind {
    /// `rs2::decimation_filter`.
    Decimation,
    /// `rs2::threshold_filter`.
    Threshold,
    /// `rs2::disparity_transform(true)`.
    DepthToDisparity,
    /// `rs2::disparity_transform(false)`.
    DisparityToDepth,
    /// `rs2::spatial_filter`.
    Spatial,
    /// `rs2::temporal_filter`.
    Temporal,
    /// `rs2::hole_filling_filter`.
    HoleFilling,
    /// `rs2::colorizer`: depth (or disparity) as librealsense's RGB8
    /// picture; the last of a chain.
    Colorizer,
}

/// One option of a filter: its spec key, the other keys it answers to
/// (librealsense's full option name in kebab case, pyrealsense2's keyword),
/// and librealsense's range and default.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OptionInfo {
    /// The key in a spec and in Python (`alpha`, `holes-fill`).
    pub key: &'static str,
    /// Other accepted keys.
    pub aliases: &'static [&'static str],
    /// Smallest accepted value.
    pub min: f32,
    /// Largest accepted value.
    pub max: f32,
    /// The value when not given.
    pub default: f32,
    /// Whether only whole numbers are accepted (librealsense stores the
    /// option in an integer).
    pub integer: bool,
    /// What it does.
    pub description: &'static str,
}

const fn int(
    key: &'static str,
    aliases: &'static [&'static str],
    range: (f32, f32),
    default: f32,
    description: &'static str,
) -> OptionInfo {
    OptionInfo {
        key,
        aliases,
        min: range.0,
        max: range.1,
        default,
        integer: true,
        description,
    }
}

const fn real(
    key: &'static str,
    aliases: &'static [&'static str],
    range: (f32, f32),
    default: f32,
    description: &'static str,
) -> OptionInfo {
    OptionInfo {
        integer: false,
        ..int(key, aliases, range, default, description)
    }
}

const DECIMATION: &[OptionInfo] = &[int(
    "magnitude",
    &["filter-magnitude"],
    (1.0, 8.0),
    2.0,
    "decimation scale: each output pixel is a magnitude x magnitude block \
     (the median of its non-zero depths for 2 and 3, their mean from 4 up)",
)];

const DISPARITY: &[OptionInfo] = &[real(
    "baseline",
    &["stereo-baseline"],
    (1.0, 1000.0),
    // Not given: the depth sensor's Stereo Baseline option, as recorded.
    0.0,
    "the stereo baseline in millimetres, for a recording that has no Stereo Baseline \
     option (librealsense reads it from the depth sensor; a D435's is about 50)",
)];

const THRESHOLD: &[OptionInfo] = &[
    real(
        "min",
        &["min-distance", "min-dist"],
        (0.0, 16.0),
        // What `rs2::threshold_filter()` sets (the option's listed default
        // is 0.1).
        0.15,
        "nearest depth kept, metres (setting it above max moves max to 16)",
    ),
    real(
        "max",
        &["max-distance", "max-dist"],
        (0.0, 16.0),
        4.0,
        "farthest depth kept, metres (setting it below min moves min to 0)",
    ),
];

const SPATIAL: &[OptionInfo] = &[
    real(
        "alpha",
        &["filter-smooth-alpha", "smooth-alpha"],
        (0.25, 1.0),
        0.5,
        "weight of the current pixel in the moving average (1: no filter)",
    ),
    int(
        "delta",
        &["filter-smooth-delta", "smooth-delta"],
        (1.0, 50.0),
        20.0,
        "edge-preserving threshold: neighbours further apart are not averaged",
    ),
    int(
        "magnitude",
        &["filter-magnitude"],
        (1.0, 5.0),
        2.0,
        "filtering iterations",
    ),
    int(
        "holes-fill",
        &["hole-fill"],
        (0.0, 5.0),
        0.0,
        "hole filling radius: 0 none, 1 2 px, 2 4 px, 3 8 px, 4 16 px, 5 unlimited \
         (librealsense 2.55 accepts it but never applies it, and neither does rsbag)",
    ),
];

const TEMPORAL: &[OptionInfo] = &[
    real(
        "alpha",
        &["filter-smooth-alpha", "smooth-alpha"],
        (0.0, 1.0),
        0.4,
        "weight of the current frame in the moving average (1: no filter)",
    ),
    int(
        "delta",
        &["filter-smooth-delta", "smooth-delta"],
        (1.0, 100.0),
        20.0,
        "edge-preserving threshold: values further apart in time are not averaged",
    ),
    int(
        "persistence",
        &["holes-fill", "persistence-control"],
        (0.0, 8.0),
        3.0,
        "when a hole keeps the last valid value: 0 never, 1 valid in 8/8, \
         2 in 2 of the last 3, 3 in 2 of the last 4, 4 in 2/8, 5 in 1 of the \
         last 2, 6 in 1 of the last 5, 7 in 1/8, 8 always",
    ),
];

const HOLE_FILLING: &[OptionInfo] = &[int(
    "mode",
    &["holes-fill"],
    (0.0, 2.0),
    1.0,
    "0 fill from the left, 1 farthest of the neighbours, 2 nearest of the neighbours",
)];

/// The colorizer's options (its own table, [`COLORIZER_OPTIONS`]) as
/// spec options; whole-number options are those stepping by 1.
static COLORIZER: LazyLock<Vec<OptionInfo>> = LazyLock::new(|| {
    let table: &'static [_] = &COLORIZER_OPTIONS;
    table
        .iter()
        .map(|o| OptionInfo {
            key: o.name,
            aliases: std::slice::from_ref(&o.alias),
            min: o.range.min,
            max: o.range.max,
            default: o.range.default,
            integer: o.range.step == 1.0,
            description: o.description,
        })
        .collect()
});

impl FilterKind {
    /// Every filter, in librealsense's usual chain order (the colorizer
    /// last).
    pub const ALL: [FilterKind; 8] = [
        FilterKind::Decimation,
        FilterKind::Threshold,
        FilterKind::DepthToDisparity,
        FilterKind::Spatial,
        FilterKind::Temporal,
        FilterKind::DisparityToDepth,
        FilterKind::HoleFilling,
        FilterKind::Colorizer,
    ];

    /// Its name in a spec (`hole-filling`).
    pub fn name(self) -> &'static str {
        match self {
            FilterKind::Decimation => "decimation",
            FilterKind::Threshold => "threshold",
            FilterKind::DepthToDisparity => "depth-to-disparity",
            FilterKind::DisparityToDepth => "disparity-to-depth",
            FilterKind::Spatial => "spatial",
            FilterKind::Temporal => "temporal",
            FilterKind::HoleFilling => "hole-filling",
            FilterKind::Colorizer => "colorizer",
        }
    }

    /// The filter a spec name stands for (case and `_`/`-` do not matter).
    pub fn from_name(name: &str) -> Result<FilterKind> {
        let wanted = kebab(name);
        FilterKind::ALL
            .into_iter()
            .find(|k| k.name() == wanted)
            .ok_or_else(|| {
                Error::InvalidArgument(format!(
                    "unknown filter {name:?}; the filters are {}",
                    FilterKind::ALL.map(FilterKind::name).join(", ")
                ))
            })
    }

    /// Its options, librealsense's ranges and defaults.
    pub fn options(self) -> &'static [OptionInfo] {
        match self {
            FilterKind::Decimation => DECIMATION,
            FilterKind::Threshold => THRESHOLD,
            FilterKind::DepthToDisparity | FilterKind::DisparityToDepth => DISPARITY,
            FilterKind::Spatial => SPATIAL,
            FilterKind::Temporal => TEMPORAL,
            FilterKind::HoleFilling => HOLE_FILLING,
            FilterKind::Colorizer => &COLORIZER,
        }
    }

    /// The option `key` (or one of its aliases) names.
    pub fn option(self, key: &str) -> Result<&'static OptionInfo> {
        let wanted = kebab(key);
        self.options()
            .iter()
            .find(|o| o.key == wanted || o.aliases.contains(&wanted.as_str()))
            .ok_or_else(|| {
                let known: Vec<&str> = self.options().iter().map(|o| o.key).collect();
                Error::InvalidArgument(if known.is_empty() {
                    format!("filter {}: takes no options (got {key:?})", self.name())
                } else {
                    format!(
                        "filter {}: unknown option {key:?}; its options are {}",
                        self.name(),
                        known.join(", ")
                    )
                })
            })
    }
}

impl fmt::Display for FilterKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl OptionInfo {
    /// `value` if it is within range (and whole, for an integer option),
    /// else an error naming the filter, the option and its range.
    pub fn check(&self, filter: FilterKind, value: f32) -> Result<f32> {
        let whole = !self.integer || value.fract() == 0.0;
        if value.is_finite() && whole && value >= self.min && value <= self.max {
            return Ok(value);
        }
        let kind = if self.integer {
            "a whole number"
        } else {
            "a number"
        };
        Err(Error::InvalidArgument(format!(
            "filter {filter}: option {} must be {kind} from {} to {} (got {value})",
            self.key, self.min, self.max
        )))
    }
}

/// A filter and the options given for it, as `NAME[:key=value,...]`
/// reads (`spatial:alpha=0.6,delta=8`). Values are checked against
/// librealsense's ranges when parsed; options not given keep their
/// defaults.
#[derive(Debug, Clone, PartialEq)]
pub struct FilterSpec {
    /// Which filter.
    pub kind: FilterKind,
    /// The options given, in order (spec keys), each checked.
    pub options: Vec<(&'static str, f32)>,
}

impl FilterSpec {
    /// `kind` with `options` given by key (or alias), each checked.
    pub fn new<'k>(
        kind: FilterKind,
        options: impl IntoIterator<Item = (&'k str, f32)>,
    ) -> Result<FilterSpec> {
        let options = options
            .into_iter()
            .map(|(key, value)| {
                let info = kind.option(key)?;
                Ok((info.key, info.check(kind, value)?))
            })
            .collect::<Result<_>>()?;
        Ok(FilterSpec { kind, options })
    }

    /// Parse `NAME[:key=value,...]`.
    pub fn parse(text: &str) -> Result<FilterSpec> {
        let (name, rest) = match text.split_once(':') {
            Some((name, rest)) => (name, Some(rest)),
            None => (text, None),
        };
        let kind = FilterKind::from_name(name.trim())?;
        let mut pairs = Vec::new();
        for item in rest.into_iter().flat_map(|r| r.split(',')) {
            let Some((key, value)) = item.split_once('=') else {
                return Err(Error::InvalidArgument(format!(
                    "filter {kind}: {item:?} is not key=value"
                )));
            };
            let info = kind.option(key.trim())?;
            let number: f32 = value.trim().parse().map_err(|_| {
                Error::InvalidArgument(format!(
                    "filter {kind}: option {} must be a number from {} to {} (got {value:?})",
                    info.key, info.min, info.max
                ))
            })?;
            pairs.push((key.trim(), number));
        }
        FilterSpec::new(kind, pairs)
    }

    /// The value of option `key` (a spec key): the last given, else the
    /// default.
    pub fn value(&self, key: &str) -> f32 {
        self.options
            .iter()
            .rev()
            .find(|(k, _)| *k == key)
            .map(|&(_, v)| v)
            .or_else(|| {
                self.kind
                    .options()
                    .iter()
                    .find(|o| o.key == key)
                    .map(|o| o.default)
            })
            .unwrap_or(0.0)
    }
}

// Values are checked finite, so equality is total.
impl Eq for FilterSpec {}

impl std::str::FromStr for FilterSpec {
    type Err = Error;
    fn from_str(text: &str) -> Result<FilterSpec> {
        FilterSpec::parse(text)
    }
}

/// `name` lower-cased with `_` and spaces as `-`.
fn kebab(name: &str) -> String {
    name.trim().to_ascii_lowercase().replace(['_', ' '], "-")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse_with_aliases_and_defaults() {
        let spec = FilterSpec::parse("spatial:alpha=0.6,filter_smooth_delta=8").expect("spec");
        assert_eq!(spec.kind, FilterKind::Spatial);
        assert_eq!(spec.value("alpha"), 0.6);
        assert_eq!(spec.value("delta"), 8.0);
        assert_eq!(spec.value("magnitude"), 2.0);
        let plain = FilterSpec::parse("Hole_Filling").expect("spec");
        assert_eq!(plain.value("mode"), 1.0);
        let colorizer =
            FilterSpec::parse("colorizer:color_scheme=2,max-distance=2.9").expect("spec");
        assert_eq!(colorizer.options, [("color-scheme", 2.0), ("max", 2.9)]);
        assert_eq!(colorizer.value("histogram-equalization"), 1.0);
    }

    #[test]
    fn bad_specs_name_the_filter_option_and_range() {
        let cases = [
            (
                "spatial:alpha=0.2",
                "filter spatial: option alpha must be a number from 0.25 to 1",
            ),
            (
                "decimation:magnitude=9",
                "option magnitude must be a whole number from 1 to 8",
            ),
            (
                "decimation:magnitude=2.5",
                "option magnitude must be a whole number from 1 to 8",
            ),
            (
                "temporal:colour=1",
                "filter temporal: unknown option \"colour\"",
            ),
            ("median", "unknown filter \"median\""),
            ("threshold:min", "\"min\" is not key=value"),
            (
                "threshold:max=far",
                "option max must be a number from 0 to 16",
            ),
            (
                "depth-to-disparity:x=1",
                "filter depth-to-disparity: unknown option \"x\"; its options are baseline",
            ),
            (
                "depth-to-disparity:baseline=0",
                "option baseline must be a number from 1 to 1000",
            ),
            (
                "colorizer:color-scheme=10",
                "filter colorizer: option color-scheme must be a whole number from 0 to 9",
            ),
        ];
        for (spec, want) in cases {
            let message = FilterSpec::parse(spec).expect_err(spec).to_string();
            assert!(message.contains(want), "{spec}: {message}");
        }
    }
}
