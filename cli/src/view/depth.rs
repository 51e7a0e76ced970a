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
//!   `--filter SPEC` names them. Not built yet: refused. They plug in at
//!   [`DepthSettings::process`].

use rsbag::device::Frame;
use rsbag::processing::Colorizer;
use rsbag::{Error, Result};

/// What is done to depth frames before they are drawn.
#[derive(Debug, Default)]
pub struct DepthSettings {
    /// The colours of the picture, when librealsense's are asked for (the
    /// page otherwise colours depth itself, with a legend in metres).
    pub colorizer: Option<Colorizer>,
}

impl DepthSettings {
    /// The settings a request's query (`name=value` pairs, values
    /// percent-decoded) asks for.
    pub fn from_query<'a>(pairs: impl IntoIterator<Item = (&'a str, String)>) -> Result<Self> {
        let mut settings = DepthSettings::default();
        for (name, value) in pairs {
            match name {
                "colorizer" => settings.colorizer = Some(colorizer(&value)?),
                "filter" => {
                    return Err(Error::InvalidArgument(format!(
                        "depth filter {value:?}: the viewer does not filter depth yet"
                    )))
                }
                _ => {}
            }
        }
        Ok(settings)
    }

    /// The depth frame as it is to be drawn (today: as recorded; the
    /// filters asked for go here, in order).
    pub fn process(&self, depth: Frame) -> Result<Frame> {
        Ok(depth)
    }
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
        assert!(DepthSettings::from_query([("filter", "temporal".to_owned())]).is_err());
        assert!(
            DepthSettings::from_query([("stream", "Depth 0".to_owned())])
                .expect("settings")
                .colorizer
                .is_none()
        );
    }
}
