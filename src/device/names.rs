//! librealsense's enumerations under the names librealsense gives them, so
//! that files, logs and users agree (`Depth`, `Z16`, `Hardware Clock`…).

use std::fmt;
use std::str::FromStr;

use crate::Error;

/// Declare an enum whose variants have fixed librealsense names.
macro_rules! named_enum {
    ($(#[$meta:meta])* $name:ident { $($(#[$vmeta:meta])* $variant:ident => $text:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name {
            $($(#[$vmeta])* $variant),+
        }

        impl $name {
            /// Every value, in librealsense's order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// librealsense's name for the value.
            pub fn name(self) -> &'static str {
                match self {
                    $($name::$variant => $text),+
                }
            }

            /// The value with librealsense name `name` (exact match).
            pub fn from_name(name: &str) -> Option<$name> {
                $name::ALL.iter().copied().find(|v| v.name() == name)
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }

        impl FromStr for $name {
            type Err = Error;

            fn from_str(s: &str) -> Result<$name, Error> {
                $name::from_name(s)
                    .or_else(|| $name::ALL.iter().copied().find(|v| v.name().eq_ignore_ascii_case(s)))
                    .ok_or_else(|| Error::InvalidArgument(format!(
                        concat!("unknown ", stringify!($name), " {:?}"), s)))
            }
        }
    };
}

named_enum! {
    /// The kind of data a stream carries (`rs2_stream`).
    StreamKind {
        /// Depth image.
        Depth => "Depth",
        /// Color image.
        Color => "Color",
        /// Infrared image (index 1 and 2 on stereo cameras).
        Infrared => "Infrared",
        /// Fisheye image.
        Fisheye => "Fisheye",
        /// Gyroscope samples.
        Gyro => "Gyro",
        /// Accelerometer samples.
        Accel => "Accel",
        /// GPIO signals.
        Gpio => "Gpio",
        /// 6-DoF pose.
        Pose => "Pose",
        /// Depth confidence image.
        Confidence => "Confidence",
        /// Combined motion samples.
        Motion => "Motion",
    }
}

impl StreamKind {
    /// Whether frames of this stream are IMU samples.
    pub fn is_motion(self) -> bool {
        matches!(
            self,
            StreamKind::Gyro | StreamKind::Accel | StreamKind::Motion
        )
    }
}

named_enum! {
    /// How the bytes of a frame are encoded (`rs2_format`).
    Format {
        /// 16-bit linear depth.
        Z16 => "Z16",
        /// 16-bit disparity.
        Disparity16 => "DISPARITY16",
        /// 32-bit float disparity.
        Disparity32 => "DISPARITY32",
        /// 32-bit float 3D points.
        Xyz32f => "XYZ32F",
        /// YUV 4:2:2, Y0 U Y1 V.
        Yuyv => "YUYV",
        /// 8-bit red, green, blue.
        Rgb8 => "RGB8",
        /// 8-bit blue, green, red.
        Bgr8 => "BGR8",
        /// 8-bit red, green, blue, alpha.
        Rgba8 => "RGBA8",
        /// 8-bit blue, green, red, alpha.
        Bgra8 => "BGRA8",
        /// 8-bit luminance.
        Y8 => "Y8",
        /// 16-bit luminance.
        Y16 => "Y16",
        /// 10-bit packed raw.
        Raw10 => "RAW10",
        /// 16-bit raw.
        Raw16 => "RAW16",
        /// 8-bit raw.
        Raw8 => "RAW8",
        /// YUV 4:2:2, U Y0 V Y1.
        Uyvy => "UYVY",
        /// Raw motion data.
        MotionRaw => "MOTION_RAW",
        /// Three 32-bit floats: x, y, z.
        MotionXyz32f => "MOTION_XYZ32F",
        /// Combined motion.
        CombinedMotion => "COMBINED_MOTION",
        /// Raw GPIO data.
        GpioRaw => "GPIO_RAW",
        /// Pose data (`rs2_pose`).
        SixDof => "6DOF",
        /// 10-bit packed luminance.
        Y10bpack => "Y10BPACK",
        /// 32-bit float distance.
        Distance => "DISTANCE",
        /// Motion JPEG.
        Mjpeg => "MJPEG",
        /// Interleaved 8-bit left/right luminance.
        Y8i => "Y8I",
        /// Interleaved 12-bit left/right luminance.
        Y12i => "Y12I",
        /// Interleaved depth and infrared.
        Inzi => "INZI",
        /// 8-bit infrared interleaved.
        Invi => "INVI",
        /// 10-bit packed W10.
        W10 => "W10",
        /// Huffman-compressed Z16.
        Z16h => "Z16H",
        /// 16-bit floating-point depth.
        Fg => "FG",
        /// 12-bit Y411.
        Y411 => "Y411",
        /// Interleaved 16-bit luminance.
        Y16i => "Y16I",
        /// 12-bit M420.
        M420 => "M420",
    }
}

impl Format {
    /// Bytes per pixel of an image format, where that is a whole number.
    pub fn bytes_per_pixel(self) -> Option<u32> {
        use Format::*;
        Some(match self {
            Y8 | Raw8 => 1,
            Z16 | Disparity16 | Y16 | Raw16 | Yuyv | Uyvy | Y8i | Fg | Z16h => 2,
            Rgb8 | Bgr8 => 3,
            Rgba8 | Bgra8 | Disparity32 | Distance | Y12i | Inzi | Y16i => 4,
            Xyz32f => 12,
            _ => return None,
        })
    }

    /// The `encoding` string librealsense writes in `sensor_msgs/Image` and
    /// `realsense_msgs/StreamInfo` for this format.
    pub(crate) fn ros_encoding(self) -> &'static str {
        match self {
            Format::Z16 => "mono16",
            Format::Rgb8 => "rgb8",
            Format::Bgr8 => "bgr8",
            Format::Rgba8 => "rgba8",
            Format::Bgra8 => "bgra8",
            Format::Y8 => "8UC1",
            Format::Y16 => "16UC1",
            Format::Raw8 => "mono8",
            Format::Uyvy => "yuv422",
            other => other.name(),
        }
    }

    /// The format an `encoding` string names, as librealsense reads it:
    /// the ROS encodings above, or a librealsense format name in any case.
    pub(crate) fn from_ros_encoding(encoding: &str) -> Option<Format> {
        Format::ALL
            .iter()
            .copied()
            .find(|f| f.ros_encoding() == encoding)
            .or_else(|| {
                let upper = encoding.to_ascii_uppercase();
                Format::from_name(&upper)
            })
    }
}

named_enum! {
    /// The clock a frame timestamp was taken from (`rs2_timestamp_domain`).
    TimestampDomain {
        /// The device's own clock.
        HardwareClock => "Hardware Clock",
        /// The host's clock.
        SystemTime => "System Time",
        /// The device clock mapped to the host clock.
        GlobalTime => "Global Time",
    }
}

named_enum! {
    /// Lens distortion model (`rs2_distortion`).
    Distortion {
        /// No distortion.
        None => "None",
        /// Brown-Conrady, modified.
        ModifiedBrownConrady => "Modified Brown Conrady",
        /// Inverse Brown-Conrady.
        InverseBrownConrady => "Inverse Brown Conrady",
        /// F-Theta fisheye.
        Ftheta => "Ftheta",
        /// Brown-Conrady.
        BrownConrady => "Brown Conrady",
        /// Kannala-Brandt with four coefficients.
        KannalaBrandt4 => "Kannala Brandt4",
    }
}

/// Well-known camera info keys (`rs2_camera_info`), as librealsense names
/// them.
pub mod camera_info {
    /// Device or sensor name.
    pub const NAME: &str = "Name";
    /// Serial number.
    pub const SERIAL_NUMBER: &str = "Serial Number";
    /// Firmware version.
    pub const FIRMWARE_VERSION: &str = "Firmware Version";
    /// Recommended firmware version.
    pub const RECOMMENDED_FIRMWARE_VERSION: &str = "Recommended Firmware Version";
    /// Physical port.
    pub const PHYSICAL_PORT: &str = "Physical Port";
    /// Debug op code.
    pub const DEBUG_OP_CODE: &str = "Debug Op Code";
    /// Advanced mode.
    pub const ADVANCED_MODE: &str = "Advanced Mode";
    /// Product id.
    pub const PRODUCT_ID: &str = "Product Id";
    /// Camera locked.
    pub const CAMERA_LOCKED: &str = "Camera Locked";
    /// USB type descriptor.
    pub const USB_TYPE_DESCRIPTOR: &str = "Usb Type Descriptor";
    /// Product line (D400, L500, SR300…).
    pub const PRODUCT_LINE: &str = "Product Line";
    /// ASIC serial number.
    pub const ASIC_SERIAL_NUMBER: &str = "Asic Serial Number";
    /// Firmware update id.
    pub const FIRMWARE_UPDATE_ID: &str = "Firmware Update Id";
    /// IP address.
    pub const IP_ADDRESS: &str = "Ip Address";
    /// DFU device path.
    pub const DFU_DEVICE_PATH: &str = "Dfu Device Path";

    /// Every key, in librealsense's order (the order it writes them).
    pub const ALL: &[&str] = &[
        NAME,
        SERIAL_NUMBER,
        FIRMWARE_VERSION,
        RECOMMENDED_FIRMWARE_VERSION,
        PHYSICAL_PORT,
        DEBUG_OP_CODE,
        ADVANCED_MODE,
        PRODUCT_ID,
        CAMERA_LOCKED,
        USB_TYPE_DESCRIPTOR,
        PRODUCT_LINE,
        ASIC_SERIAL_NUMBER,
        FIRMWARE_UPDATE_ID,
        IP_ADDRESS,
        DFU_DEVICE_PATH,
    ];
}

/// librealsense's option names in `rs2_option` order (2.59).
const OPTIONS_IN_ORDER: &[&str] = &[
    "Backlight Compensation",
    "Brightness",
    "Contrast",
    "Exposure",
    "Gain",
    "Gamma",
    "Hue",
    "Saturation",
    "Sharpness",
    "White Balance",
    "Enable Auto Exposure",
    "Enable Auto White Balance",
    "Visual Preset",
    "Laser Power",
    "Accuracy",
    "Motion Range",
    "Filter Option",
    "Confidence Threshold",
    "Emitter Enabled",
    "Frames Queue Size",
    "Total Frame Drops",
    "Fisheye Auto Exposure Mode",
    "Power Line Frequency",
    "Asic Temperature",
    "Error Polling Enabled",
    "Projector Temperature",
    "Output Trigger Enabled",
    "Motion Module Temperature",
    "Depth Units",
    "Enable Motion Correction",
    "Auto Exposure Priority",
    "Color Scheme",
    "Histogram Equalization Enabled",
    "Min Distance",
    "Max Distance",
    "Texture Source",
    "Filter Magnitude",
    "Filter Smooth Alpha",
    "Filter Smooth Delta",
    "Holes Fill",
    "Stereo Baseline",
    "Auto Exposure Converge Step",
    "Inter Cam Sync Mode",
    "Stream Filter",
    "Stream Format Filter",
    "Stream Index Filter",
    "Emitter On Off",
    "Zero Order Point X",
    "Zero Order Point Y",
    "LDD temperature",
    "LDD temperature",
    "Mc Temperature",
    "Ma Temperature",
    "Hardware Preset",
    "Global Time Enabled",
    "Apd Temperature",
    "Enable Mapping",
    "Enable Relocalization",
    "Enable Pose Jumping",
    "Enable Dynamic Calibration",
    "Depth Offset",
    "Led Power",
    "Zero Order Enabled",
    "Enable Map Preservation",
    "Freefall Detection Enabled",
    "Receiver Gain",
    "Post Processing Sharpening",
    "Pre Processing Sharpening",
    "Noise Filtering",
    "Invalidation Bypass",
    "Digital Gain",
    "Digital Gain",
    "Sensor Mode",
    "Emitter Always On",
    "Thermal Compensation",
    "Trigger Camera Accuracy Health",
    "Reset Camera Accuracy Health",
    "Host Performance",
    "Hdr Enabled",
    "Sequence Name",
    "Sequence Size",
    "Sequence Id",
    "Humidity Temperature",
    "Enable Max Usable Range",
    "Alternate IR",
    "Noise Estimation",
    "Enable IR Reflectivity",
    "Auto Exposure Limit",
    "Auto Gain Limit",
    "Auto Rx Sensitivity",
    "Transmitter Frequency",
    "Vertical Binning",
    "Receiver Sensitivity",
    "Auto Exposure Limit Toggle",
    "Auto Gain Limit Toggle",
    "Emitter Frequency",
    "Auto Exposure Mode",
    "Ohm Temperature",
    "Soc Pvt Temperature",
    "Gyro Sensitivity",
    "Region of Interest",
    "Rotation",
    "Safety Preset Active Index",
    "Safety Mode",
    "Rgb Tnr Enabled",
    "Safety Mcu Temperature",
    "Left Ir Temperature",
    "Embedded Filter Enabled",
    "Disparity Shift",
    "Threshold",
    "Downscale Ratio",
    "Readout Shaping",
    "Detection Distance",
    "Sensors Config Mode",
    "Dual Rgb Rectification",
    "Emitter Mode",
    "Enable Aligned Depth",
];

/// Where option `name` lies in librealsense's `rs2_option` order; names it
/// does not know come after all it knows. librealsense 2.59 writes a
/// sensor's options in this order and its `.db3` reader stops at the first
/// option out of it (later ones are lost), so writers keep to it.
///
/// ```
/// use rsbag::device::option_rank;
/// assert!(option_rank("Exposure") < option_rank("Depth Units"));
/// assert_eq!(option_rank("Made Up"), usize::MAX);
/// ```
pub fn option_rank(name: &str) -> usize {
    OPTIONS_IN_ORDER
        .iter()
        .position(|&known| known == name)
        .unwrap_or(usize::MAX)
}

/// Well-known option names (`rs2_option`), as librealsense names them.
pub mod option_name {
    /// Depth units: meters per depth unit.
    pub const DEPTH_UNITS: &str = "Depth Units";
    /// Exposure, in microseconds.
    pub const EXPOSURE: &str = "Exposure";
    /// Gain.
    pub const GAIN: &str = "Gain";
    /// Laser power, in milliwatts.
    pub const LASER_POWER: &str = "Laser Power";
    /// Emitter enabled.
    pub const EMITTER_ENABLED: &str = "Emitter Enabled";
    /// Auto exposure enabled.
    pub const ENABLE_AUTO_EXPOSURE: &str = "Enable Auto Exposure";
    /// Frames queue size.
    pub const FRAMES_QUEUE_SIZE: &str = "Frames Queue Size";
    /// Global time enabled.
    pub const GLOBAL_TIME_ENABLED: &str = "Global Time Enabled";
    /// A stereo depth sensor's baseline, the distance between its two
    /// imagers, in millimetres (read only).
    pub const STEREO_BASELINE: &str = "Stereo Baseline";
}

/// Well-known frame metadata keys (`rs2_frame_metadata_value`).
pub mod metadata_key {
    use std::borrow::Cow;

    /// A frame's metadata key, as [`crate::device::Frame::metadata`] holds
    /// it: one of librealsense's names is borrowed (a frame read from a
    /// file allocates nothing for it), any other name owned.
    pub type MetadataKey = Cow<'static, str>;

    /// librealsense 2.55's names of its metadata values
    /// (`rs2_frame_metadata_to_string`), in the order of
    /// `rs2_frame_metadata_value` (2.59 adds names for its safety camera,
    /// owned when read).
    pub const ALL: [&str; 43] = [
        FRAME_COUNTER,
        FRAME_TIMESTAMP,
        SENSOR_TIMESTAMP,
        ACTUAL_EXPOSURE,
        GAIN_LEVEL,
        AUTO_EXPOSURE,
        "White Balance",
        TIME_OF_ARRIVAL,
        "Temperature",
        BACKEND_TIMESTAMP,
        ACTUAL_FPS,
        FRAME_LASER_POWER,
        FRAME_LASER_POWER_MODE,
        "Exposure Priority",
        "Exposure Roi Left",
        "Exposure Roi Right",
        "Exposure Roi Top",
        "Exposure Roi Bottom",
        "Brightness",
        "Contrast",
        "Saturation",
        "Sharpness",
        "Auto White Balance Temperature",
        "Backlight Compensation",
        "Hue",
        "Gamma",
        "Manual White Balance",
        "Power Line Frequency",
        "Low Light Compensation",
        "Frame Emitter Mode",
        "Frame Led Power",
        "Raw Frame Size",
        "Gpio Input Data",
        "Sequence Name",
        "Sequence Id",
        "Sequence Size",
        "Trigger",
        "Preset",
        "Input Width",
        "Input Height",
        "Sub Preset Info",
        "Calib Info",
        "Crc",
    ];

    /// The key named `name`: librealsense's own borrowed, another copied.
    ///
    /// ```
    /// use std::borrow::Cow;
    /// use rsbag::device::metadata_key;
    ///
    /// assert!(matches!(metadata_key::key("Frame Counter"), Cow::Borrowed(_)));
    /// assert_eq!(metadata_key::key("My Value"), "My Value");
    /// ```
    pub fn key(name: &str) -> MetadataKey {
        match ALL.iter().find(|&&known| known == name) {
            Some(&known) => Cow::Borrowed(known),
            None => Cow::Owned(name.to_owned()),
        }
    }

    /// Frame counter.
    pub const FRAME_COUNTER: &str = "Frame Counter";
    /// Frame timestamp (device clock, µs).
    pub const FRAME_TIMESTAMP: &str = "Frame Timestamp";
    /// Sensor timestamp (µs).
    pub const SENSOR_TIMESTAMP: &str = "Sensor Timestamp";
    /// Actual exposure (µs).
    pub const ACTUAL_EXPOSURE: &str = "Actual Exposure";
    /// Gain level.
    pub const GAIN_LEVEL: &str = "Gain Level";
    /// Auto exposure on/off.
    pub const AUTO_EXPOSURE: &str = "Auto Exposure";
    /// Host arrival time (ms).
    pub const TIME_OF_ARRIVAL: &str = "Time Of Arrival";
    /// Backend timestamp.
    pub const BACKEND_TIMESTAMP: &str = "Backend Timestamp";
    /// Actual frame rate.
    pub const ACTUAL_FPS: &str = "Actual Fps";
    /// Laser power.
    pub const FRAME_LASER_POWER: &str = "Frame Laser Power";
    /// Laser power mode.
    pub const FRAME_LASER_POWER_MODE: &str = "Frame Laser Power Mode";
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for s in StreamKind::ALL {
            assert_eq!(StreamKind::from_name(s.name()), Some(*s));
        }
        for f in Format::ALL {
            assert_eq!(Format::from_name(f.name()), Some(*f));
            assert_eq!(Format::from_ros_encoding(f.ros_encoding()), Some(*f));
        }
        assert_eq!(
            "hardware clock".parse::<TimestampDomain>().ok(),
            Some(TimestampDomain::HardwareClock)
        );
        assert!("Nope".parse::<StreamKind>().is_err());
    }
}
