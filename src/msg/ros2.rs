//! The ROS 2 message types librealsense 2.58+ writes in a `.db3`, in CDR
//! (its `cdr` module): `std_msgs/msg/String` and `UInt32`,
//! `sensor_msgs/msg/Image`, `CompressedImage`, `CameraInfo` and `Imu`, and
//! `tf2_msgs/msg/TFMessage`.
//!
//! Decoding borrows strings and pixel data from the message bytes; strings
//! stay bytes (librealsense does not promise UTF-8 in them).
//!
//! ```
//! use rsbag::msg::ros2::{self, CompressedImage, Header};
//!
//! let image = CompressedImage {
//!     header: Header { sec: 1, nanosec: 5, frame_id: b"Depth" },
//!     format: b"16UC1; compressedDepth png",
//!     data: &[1, 2, 3],
//! };
//! let bytes = image.encode();
//! assert_eq!(CompressedImage::decode(&bytes)?, image);
//! assert_eq!(ros2::string(&ros2::encode_string(b"a=1;b=2"))?, b"a=1;b=2");
//! # Ok::<(), rsbag::Error>(())
//! ```

use super::cdr::{CdrReader, CdrWriter};
use crate::Result;

/// `std_msgs/msg/String`.
pub const STRING: &str = "std_msgs/msg/String";
/// `std_msgs/msg/UInt32`.
pub const UINT32: &str = "std_msgs/msg/UInt32";
/// `sensor_msgs/msg/Image`.
pub const IMAGE: &str = "sensor_msgs/msg/Image";
/// `sensor_msgs/msg/CompressedImage`.
pub const COMPRESSED_IMAGE: &str = "sensor_msgs/msg/CompressedImage";
/// `sensor_msgs/msg/CameraInfo`.
pub const CAMERA_INFO: &str = "sensor_msgs/msg/CameraInfo";
/// `sensor_msgs/msg/Imu`.
pub const IMU: &str = "sensor_msgs/msg/Imu";
/// `tf2_msgs/msg/TFMessage`.
pub const TF_MESSAGE: &str = "tf2_msgs/msg/TFMessage";
/// `nav_msgs/msg/Odometry`.
pub const ODOMETRY: &str = "nav_msgs/msg/Odometry";
/// `realsense2_camera_msgs/msg/Metadata`: the RealSense ROS wrapper's
/// per-frame metadata, a JSON object.
pub const RS_METADATA: &str = "realsense2_camera_msgs/msg/Metadata";
/// [`RS_METADATA`] without its `msg/` folder.
pub const RS_METADATA_SHORT: &str = "realsense2_camera_msgs/Metadata";
/// `realsense2_camera_msgs/msg/Extrinsics`: the RealSense ROS wrapper's
/// transform between two streams.
pub const RS_EXTRINSICS: &str = "realsense2_camera_msgs/msg/Extrinsics";
/// `realsense2_camera_msgs/msg/IMUInfo`: the RealSense ROS wrapper's IMU
/// intrinsics.
pub const RS_IMU_INFO: &str = "realsense2_camera_msgs/msg/IMUInfo";
/// `sensor_msgs/msg/PointCloud2`.
pub const POINT_CLOUD2: &str = "sensor_msgs/msg/PointCloud2";

/// The text of a `std_msgs/msg/String`, as bytes.
pub fn string(data: &[u8]) -> Result<&[u8]> {
    CdrReader::new(data, STRING)?.string("data")
}

/// A `std_msgs/msg/String` holding `text`.
pub fn encode_string(text: &[u8]) -> Vec<u8> {
    let mut w = CdrWriter::with_capacity(text.len() + 8);
    w.string(text);
    w.finish()
}

/// The value of a `std_msgs/msg/UInt32`.
pub fn uint32(data: &[u8]) -> Result<u32> {
    CdrReader::new(data, UINT32)?.u32("data")
}

/// A `std_msgs/msg/UInt32` holding `value`.
pub(crate) fn encode_uint32(value: u32) -> Vec<u8> {
    let mut w = CdrWriter::with_capacity(4);
    w.u32(value);
    w.finish()
}

/// `rosgraph_msgs/msg/Clock`: the time of a simulated (here: played) clock.
pub const CLOCK: &str = "rosgraph_msgs/msg/Clock";

/// A `rosgraph_msgs/msg/Clock` at `ns` nanoseconds after zero.
pub fn encode_clock(ns: u64) -> Vec<u8> {
    let stamp = Header::at(ns, b"");
    let mut w = CdrWriter::with_capacity(8);
    w.i32(stamp.sec);
    w.u32(stamp.nanosec);
    w.finish()
}

/// `std_msgs/msg/Header`: a time stamp and a frame id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Header<'a> {
    /// Seconds.
    pub sec: i32,
    /// Nanoseconds within the second.
    pub nanosec: u32,
    /// The frame id (librealsense: the stream name, `Depth`, `Infrared1`).
    pub frame_id: &'a [u8],
}

impl<'a> Header<'a> {
    /// A header stamped `ns` nanoseconds after zero.
    pub fn at(ns: u64, frame_id: &'a [u8]) -> Header<'a> {
        Header {
            sec: i32::try_from(ns / 1_000_000_000).unwrap_or(i32::MAX),
            nanosec: (ns % 1_000_000_000) as u32,
            frame_id,
        }
    }

    fn read(r: &mut CdrReader<'a>) -> Result<Header<'a>> {
        Ok(Header {
            sec: r.i32("header.stamp.sec")?,
            nanosec: r.u32("header.stamp.nanosec")?,
            frame_id: r.string("header.frame_id")?,
        })
    }

    fn write(&self, w: &mut CdrWriter) {
        w.i32(self.sec).u32(self.nanosec).string(self.frame_id);
    }
}

/// `sensor_msgs/msg/Image`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Image<'a> {
    /// Header.
    pub header: Header<'a>,
    /// Rows.
    pub height: u32,
    /// Columns.
    pub width: u32,
    /// ROS encoding (`mono16`, `rgb8`, ...).
    pub encoding: &'a [u8],
    /// Whether multi-byte pixels are big-endian.
    pub is_bigendian: u8,
    /// Bytes per row.
    pub step: u32,
    /// The pixels.
    pub data: &'a [u8],
}

impl<'a> Image<'a> {
    /// Decode a CDR message.
    pub fn decode(data: &'a [u8]) -> Result<Image<'a>> {
        let r = &mut CdrReader::new(data, IMAGE)?;
        Ok(Image {
            header: Header::read(r)?,
            height: r.u32("height")?,
            width: r.u32("width")?,
            encoding: r.string("encoding")?,
            is_bigendian: r.u8("is_bigendian")?,
            step: r.u32("step")?,
            data: r.bytes("data")?,
        })
    }

    /// Encode as CDR.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = self.encode_head();
        out.extend_from_slice(self.data);
        out
    }

    /// The CDR encoding up to the pixels, which follow it unchanged: a
    /// writer can store the message without copying them.
    pub(crate) fn encode_head(&self) -> Vec<u8> {
        let mut w = CdrWriter::with_capacity(64);
        self.header.write(&mut w);
        w.u32(self.height)
            .u32(self.width)
            .string(self.encoding)
            .u8(self.is_bigendian)
            .u32(self.step)
            .count(self.data.len());
        w.finish()
    }
}

/// `sensor_msgs/msg/CompressedImage`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CompressedImage<'a> {
    /// Header.
    pub header: Header<'a>,
    /// How the data is compressed (`16UC1; compressedDepth png`, ...).
    pub format: &'a [u8],
    /// The compressed image.
    pub data: &'a [u8],
}

impl<'a> CompressedImage<'a> {
    /// Decode a CDR message.
    pub fn decode(data: &'a [u8]) -> Result<CompressedImage<'a>> {
        let r = &mut CdrReader::new(data, COMPRESSED_IMAGE)?;
        Ok(CompressedImage {
            header: Header::read(r)?,
            format: r.string("format")?,
            data: r.bytes("data")?,
        })
    }

    /// Encode as CDR.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = self.encode_head();
        out.extend_from_slice(self.data);
        out
    }

    /// The CDR encoding up to the data, which follows it unchanged.
    pub(crate) fn encode_head(&self) -> Vec<u8> {
        let mut w = CdrWriter::with_capacity(64);
        self.header.write(&mut w);
        w.string(self.format).count(self.data.len());
        w.finish()
    }
}

/// `sensor_msgs/msg/PointField`: where one field of a point is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PointField<'a> {
    /// The field's name (`x`, `rgb`).
    pub name: &'a [u8],
    /// Its offset in the point, bytes.
    pub offset: u32,
    /// Its type: [`PointField::FLOAT32`], ...
    pub datatype: u8,
    /// Its number of elements.
    pub count: u32,
}

impl PointField<'_> {
    /// The `datatype` of a 32-bit float.
    pub const FLOAT32: u8 = 7;
}

/// `sensor_msgs/msg/PointCloud2`: points of `point_step` bytes each,
/// `width` to a row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PointCloud2<'a> {
    /// Header.
    pub header: Header<'a>,
    /// Rows (1 for an unordered cloud).
    pub height: u32,
    /// Points per row.
    pub width: u32,
    /// The fields of a point.
    pub fields: &'a [PointField<'a>],
    /// Whether multi-byte fields are big-endian.
    pub is_bigendian: bool,
    /// Bytes per point.
    pub point_step: u32,
    /// Bytes per row.
    pub row_step: u32,
    /// The points.
    pub data: &'a [u8],
    /// Whether every point is valid (finite).
    pub is_dense: bool,
}

impl PointCloud2<'_> {
    /// The CDR encoding before and after the points (`data`), which go
    /// between the two unchanged: a writer can store the message without
    /// copying them.
    pub(crate) fn encode_parts(&self) -> [Vec<u8>; 2] {
        let mut w = CdrWriter::with_capacity(64 + 24 * self.fields.len());
        self.header.write(&mut w);
        w.u32(self.height).u32(self.width).count(self.fields.len());
        for f in self.fields {
            w.string(f.name).u32(f.offset).u8(f.datatype).u32(f.count);
        }
        w.u8(u8::from(self.is_bigendian))
            .u32(self.point_step)
            .u32(self.row_step)
            .count(self.data.len());
        // A `bool` after a byte sequence needs no alignment.
        [w.finish(), vec![u8::from(self.is_dense)]]
    }
}

/// `sensor_msgs/msg/CameraInfo` (the region of interest left at zero).
#[derive(Debug, Clone, PartialEq)]
pub struct CameraInfo<'a> {
    /// Header.
    pub header: Header<'a>,
    /// Rows.
    pub height: u32,
    /// Columns.
    pub width: u32,
    /// `plumb_bob`, ...
    pub distortion_model: &'a [u8],
    /// Distortion coefficients.
    pub d: Vec<f64>,
    /// Camera matrix, row-major.
    pub k: [f64; 9],
    /// Rectification matrix.
    pub r: [f64; 9],
    /// Projection matrix.
    pub p: [f64; 12],
}

impl<'a> CameraInfo<'a> {
    /// Decode a CDR message (fields after `p` are not read).
    pub fn decode(data: &'a [u8]) -> Result<CameraInfo<'a>> {
        let r = &mut CdrReader::new(data, CAMERA_INFO)?;
        Ok(CameraInfo {
            header: Header::read(r)?,
            height: r.u32("height")?,
            width: r.u32("width")?,
            distortion_model: r.string("distortion_model")?,
            d: r.f64_seq("d")?,
            k: r.f64s("k")?,
            r: r.f64s("r")?,
            p: r.f64s("p")?,
        })
    }

    /// Encode as CDR.
    pub fn encode(&self) -> Vec<u8> {
        let mut w = CdrWriter::with_capacity(512);
        self.header.write(&mut w);
        w.u32(self.height)
            .u32(self.width)
            .string(self.distortion_model)
            .f64_seq(&self.d)
            .f64s(&self.k)
            .f64s(&self.r)
            .f64s(&self.p);
        // binning_x, binning_y, roi (x, y, height, width, do_rectify).
        w.u32(0).u32(0).u32(0).u32(0).u32(0).u32(0).u8(0);
        w.finish()
    }
}

/// `sensor_msgs/msg/Imu`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Imu<'a> {
    /// Header.
    pub header: Header<'a>,
    /// Orientation quaternion x, y, z, w.
    pub orientation: [f64; 4],
    /// Its covariance; `[0] = -1` when there is no orientation.
    pub orientation_covariance: [f64; 9],
    /// rad/s.
    pub angular_velocity: [f64; 3],
    /// Its covariance.
    pub angular_velocity_covariance: [f64; 9],
    /// m/s².
    pub linear_acceleration: [f64; 3],
    /// Its covariance.
    pub linear_acceleration_covariance: [f64; 9],
}

impl<'a> Imu<'a> {
    /// Decode a CDR message.
    pub fn decode(data: &'a [u8]) -> Result<Imu<'a>> {
        let r = &mut CdrReader::new(data, IMU)?;
        Ok(Imu {
            header: Header::read(r)?,
            orientation: r.f64s("orientation")?,
            orientation_covariance: r.f64s("orientation_covariance")?,
            angular_velocity: r.f64s("angular_velocity")?,
            angular_velocity_covariance: r.f64s("angular_velocity_covariance")?,
            linear_acceleration: r.f64s("linear_acceleration")?,
            linear_acceleration_covariance: r.f64s("linear_acceleration_covariance")?,
        })
    }

    /// Encode as CDR.
    pub fn encode(&self) -> Vec<u8> {
        let mut w = CdrWriter::with_capacity(400);
        self.header.write(&mut w);
        w.f64s(&self.orientation)
            .f64s(&self.orientation_covariance)
            .f64s(&self.angular_velocity)
            .f64s(&self.angular_velocity_covariance)
            .f64s(&self.linear_acceleration)
            .f64s(&self.linear_acceleration_covariance);
        w.finish()
    }
}

/// One transform of a `tf2_msgs/msg/TFMessage`
/// (`geometry_msgs/msg/TransformStamped`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TransformStamped<'a> {
    /// Header; `frame_id` is the parent frame.
    pub header: Header<'a>,
    /// The child frame.
    pub child_frame_id: &'a [u8],
    /// Translation x, y, z.
    pub translation: [f64; 3],
    /// Rotation quaternion x, y, z, w.
    pub rotation: [f64; 4],
}

/// The transforms of a `tf2_msgs/msg/TFMessage`.
pub fn decode_tf_message(data: &[u8]) -> Result<Vec<TransformStamped<'_>>> {
    let r = &mut CdrReader::new(data, TF_MESSAGE)?;
    let n = r.count("transforms", 64)?;
    (0..n)
        .map(|_| {
            Ok(TransformStamped {
                header: Header::read(r)?,
                child_frame_id: r.string("child_frame_id")?,
                translation: r.f64s("transform.translation")?,
                rotation: r.f64s("transform.rotation")?,
            })
        })
        .collect()
}

/// A `tf2_msgs/msg/TFMessage` holding `transforms`.
pub(crate) fn encode_tf_message(transforms: &[TransformStamped<'_>]) -> Vec<u8> {
    let mut w = CdrWriter::with_capacity(128 * transforms.len() + 8);
    w.count(transforms.len());
    for t in transforms {
        t.header.write(&mut w);
        w.string(t.child_frame_id)
            .f64s(&t.translation)
            .f64s(&t.rotation);
    }
    w.finish()
}

/// `nav_msgs/msg/Odometry`: a pose with its velocities.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Odometry<'a> {
    /// Header; `frame_id` is the frame the pose is in.
    pub header: Header<'a>,
    /// The frame that moves.
    pub child_frame_id: &'a [u8],
    /// Position x, y, z.
    pub position: [f64; 3],
    /// Orientation quaternion x, y, z, w.
    pub orientation: [f64; 4],
    /// Row-major 6x6 covariance of the pose.
    pub pose_covariance: [f64; 36],
    /// Linear velocity, m/s.
    pub linear: [f64; 3],
    /// Angular velocity, rad/s.
    pub angular: [f64; 3],
    /// Row-major 6x6 covariance of the velocities.
    pub twist_covariance: [f64; 36],
}

impl<'a> Odometry<'a> {
    /// Decode a CDR message.
    pub fn decode(data: &'a [u8]) -> Result<Odometry<'a>> {
        let r = &mut CdrReader::new(data, ODOMETRY)?;
        Ok(Odometry {
            header: Header::read(r)?,
            child_frame_id: r.string("child_frame_id")?,
            position: r.f64s("pose.pose.position")?,
            orientation: r.f64s("pose.pose.orientation")?,
            pose_covariance: r.f64s("pose.covariance")?,
            linear: r.f64s("twist.twist.linear")?,
            angular: r.f64s("twist.twist.angular")?,
            twist_covariance: r.f64s("twist.covariance")?,
        })
    }

    /// Encode as CDR.
    pub fn encode(&self) -> Vec<u8> {
        let mut w = CdrWriter::with_capacity(720);
        self.header.write(&mut w);
        w.string(self.child_frame_id)
            .f64s(&self.position)
            .f64s(&self.orientation)
            .f64s(&self.pose_covariance)
            .f64s(&self.linear)
            .f64s(&self.angular)
            .f64s(&self.twist_covariance);
        w.finish()
    }
}

/// A `realsense2_camera_msgs/msg/Metadata`: a header and a JSON text.
pub(crate) fn encode_rs_metadata(header: &Header<'_>, json: &str) -> Vec<u8> {
    let mut w = CdrWriter::with_capacity(64 + json.len());
    header.write(&mut w);
    w.string(json.as_bytes());
    w.finish()
}

/// The header and JSON text of a `realsense2_camera_msgs/msg/Metadata`.
pub(crate) fn decode_rs_metadata(data: &[u8]) -> Result<(Header<'_>, &[u8])> {
    let mut r = CdrReader::new(data, RS_METADATA)?;
    let header = Header::read(&mut r)?;
    Ok((header, r.string("json_data")?))
}

/// A `realsense2_camera_msgs/msg/Extrinsics`: a column-major rotation and
/// a translation in metres.
pub(crate) fn encode_rs_extrinsics(rotation: &[f64; 9], translation: &[f64; 3]) -> Vec<u8> {
    let mut w = CdrWriter::with_capacity(100);
    w.f64s(rotation).f64s(translation);
    w.finish()
}

/// A `realsense2_camera_msgs/msg/IMUInfo`: librealsense's IMU intrinsics
/// (a 3x4 row-major scale and bias matrix, noise and bias variances).
pub(crate) fn encode_rs_imu_info(
    header: &Header<'_>,
    data: &[f64; 12],
    noise_variances: &[f64; 3],
    bias_variances: &[f64; 3],
) -> Vec<u8> {
    let mut w = CdrWriter::with_capacity(256);
    header.write(&mut w);
    w.f64s(data).f64s(noise_variances).f64s(bias_variances);
    w.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_type_reads_back_what_it_wrote() {
        let header = Header::at(1_500_000_007, b"Color");
        assert_eq!((header.sec, header.nanosec), (1, 500_000_007));
        let image = Image {
            header,
            height: 2,
            width: 3,
            encoding: b"rgb8",
            is_bigendian: 0,
            step: 9,
            data: &[7; 18],
        };
        assert_eq!(Image::decode(&image.encode()).expect("image"), image);
        let info = CameraInfo {
            header,
            height: 2,
            width: 3,
            distortion_model: b"plumb_bob",
            d: vec![0.1, 0.2, 0.0, 0.0, 0.3],
            k: [1.0; 9],
            r: [2.0; 9],
            p: [3.0; 12],
        };
        assert_eq!(CameraInfo::decode(&info.encode()).expect("info"), info);
        let imu = Imu {
            header,
            orientation: [0.0; 4],
            orientation_covariance: [-1.0; 9],
            angular_velocity: [1.0, 2.0, 3.0],
            angular_velocity_covariance: [0.0; 9],
            linear_acceleration: [4.0, 5.0, 6.0],
            linear_acceleration_covariance: [0.0; 9],
        };
        assert_eq!(Imu::decode(&imu.encode()).expect("imu"), imu);
        let tf = [TransformStamped {
            header: Header::at(0, b"ref_1"),
            child_frame_id: b"Depth",
            translation: [0.1, 0.0, -0.2],
            rotation: [0.0, 0.0, 0.0, 1.0],
        }];
        let bytes = encode_tf_message(&tf);
        assert_eq!(decode_tf_message(&bytes).expect("tf"), tf);
        assert_eq!(uint32(&encode_uint32(4)).expect("u32"), 4);
        let odometry = Odometry {
            header,
            child_frame_id: b"camera_pose_frame",
            position: [1.0, 2.0, 3.0],
            orientation: [0.0, 0.0, 0.0, 1.0],
            pose_covariance: [0.5; 36],
            linear: [0.1, 0.2, 0.3],
            angular: [0.4, 0.5, 0.6],
            twist_covariance: [0.25; 36],
        };
        assert_eq!(
            Odometry::decode(&odometry.encode()).expect("odometry"),
            odometry
        );
    }

    #[test]
    fn truncated_messages_are_errors_naming_the_field() {
        let bytes = CompressedImage {
            header: Header::at(0, b"Depth"),
            format: b"png",
            data: &[1; 100],
        }
        .encode();
        let err = CompressedImage::decode(&bytes[..50]).expect_err("truncated");
        assert!(err.to_string().contains("field data"), "{err}");
    }
}
