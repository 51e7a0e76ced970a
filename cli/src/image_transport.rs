//! `--image-transport` and its codecs: how `convert --to ros2` writes
//! images and `play --ros2` publishes them, as image_transport's plugins
//! do.

use rsbag::ros_camera::transport::{DepthCodec, ImageCodec, ImageTransport};
use rsbag::{Error, Result};

/// `--image-transport`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum TransportArg {
    /// `sensor_msgs/Image` on `image_raw` / `image_rect_raw`.
    Raw,
    /// image_transport's `compressed` topics for colour and infrared and
    /// `compressedDepth` for depth, as its plugins write them.
    Compressed,
}

/// `--color-codec`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorCodecArg {
    /// JPEG (`--jpeg-quality`), 4:2:0 as OpenCV writes it.
    Jpeg,
    /// PNG, lossless.
    Png,
}

/// `--depth-codec`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum DepthCodecArg {
    /// 16-bit PNG.
    Png,
    /// RVL (Wilson 2017), the faster of the two.
    Rvl,
}

/// The image transport options of the commands that write ROS 2 images.
#[derive(Debug, Clone, clap::Args)]
pub struct TransportArgs {
    /// How images are written: `raw` (`sensor_msgs/Image`), or
    /// `compressed`: colour and infrared on `<image topic>/compressed`
    /// (`sensor_msgs/CompressedImage`, JPEG or PNG), Z16 depth on
    /// `<image topic>/compressedDepth` (PNG or RVL after the plugin's
    /// 12-byte header), as image_transport's plugins publish them;
    /// camera_info as with `raw`; formats the plugins do not compress
    /// (YUYV, Y16 as JPEG) stay raw.
    #[arg(long, value_enum, default_value = "raw")]
    pub image_transport: TransportArg,
    /// With `--image-transport compressed`: how colour and infrared are
    /// compressed [default: jpeg].
    #[arg(long, value_enum)]
    color_codec: Option<ColorCodecArg>,
    /// With `--image-transport compressed`: the JPEG quality, 1 to 100
    /// [default: 95].
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=100))]
    jpeg_quality: Option<u8>,
    /// With `--image-transport compressed`: how depth is compressed
    /// [default: png].
    #[arg(long, value_enum)]
    depth_codec: Option<DepthCodecArg>,
}

impl TransportArgs {
    /// Whether any of the options is given.
    pub fn given(&self) -> bool {
        self.image_transport != TransportArg::Raw || self.codecs_given()
    }

    fn codecs_given(&self) -> bool {
        self.color_codec.is_some() || self.jpeg_quality.is_some() || self.depth_codec.is_some()
    }

    /// The transport the options choose; an error where a codec option
    /// does not go with the others.
    pub fn transport(&self) -> Result<ImageTransport> {
        if self.image_transport == TransportArg::Raw && self.codecs_given() {
            return Err(Error::InvalidArgument(
                "--color-codec, --jpeg-quality and --depth-codec go with --image-transport compressed"
                    .into(),
            ));
        }
        if self.color_codec == Some(ColorCodecArg::Png) && self.jpeg_quality.is_some() {
            return Err(Error::InvalidArgument(
                "--jpeg-quality goes with --color-codec jpeg".into(),
            ));
        }
        Ok(match self.image_transport {
            TransportArg::Raw => ImageTransport::Raw,
            TransportArg::Compressed => ImageTransport::Compressed {
                color: match self.color_codec {
                    Some(ColorCodecArg::Png) => ImageCodec::Png,
                    _ => ImageCodec::Jpeg(self.jpeg_quality.unwrap_or(95)),
                },
                depth: match self.depth_codec {
                    Some(DepthCodecArg::Rvl) => DepthCodec::Rvl,
                    _ => DepthCodec::Png,
                },
            },
        })
    }
}
