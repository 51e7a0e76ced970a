//! ROS1 messages of camera bags that rsbag reads but never writes
//! (`nav_msgs/Odometry`, `tf2_msgs/TFMessage`,
//! `sensor_msgs/CompressedImage`), decoded into the same
//! values as their ROS 2 twins in [`super::ros2`].

use super::ros2::{CompressedImage, Header, Odometry, TransformStamped};
use super::ser::Reader;
use crate::Result;

/// `nav_msgs/Odometry`.
pub const ODOMETRY: &str = "nav_msgs/Odometry";
/// `tf2_msgs/TFMessage`.
pub const TF_MESSAGE: &str = "tf2_msgs/TFMessage";
/// `sensor_msgs/CompressedImage`.
pub const COMPRESSED_IMAGE: &str = "sensor_msgs/CompressedImage";

/// A ROS1 header (its `seq` dropped) as a [`Header`].
fn header<'a>(r: &mut Reader<'a>) -> Result<Header<'a>> {
    r.u32("header.seq")?;
    let stamp = r.time("header.stamp")?;
    Ok(Header {
        sec: i32::try_from(stamp.sec).unwrap_or(i32::MAX),
        nanosec: stamp.nsec,
        frame_id: r.bytes("header.frame_id")?,
    })
}

/// Decode a ROS1 `nav_msgs/Odometry`.
pub fn decode_odometry(data: &[u8]) -> Result<Odometry<'_>> {
    let r = &mut Reader::new(ODOMETRY, data);
    Ok(Odometry {
        header: header(r)?,
        child_frame_id: r.bytes("child_frame_id")?,
        position: r.f64_array("pose.pose.position")?,
        orientation: r.f64_array("pose.pose.orientation")?,
        pose_covariance: r.f64_array("pose.covariance")?,
        linear: r.f64_array("twist.twist.linear")?,
        angular: r.f64_array("twist.twist.angular")?,
        twist_covariance: r.f64_array("twist.covariance")?,
    })
}

/// Decode a ROS1 `tf2_msgs/TFMessage`.
pub fn decode_tf_message(data: &[u8]) -> Result<Vec<TransformStamped<'_>>> {
    let r = &mut Reader::new(TF_MESSAGE, data);
    let n = r.u32("transforms")? as usize;
    // Each transform takes at least 80 bytes: no allocation past the data.
    let mut out = Vec::with_capacity(n.min(r.remaining() / 80));
    for _ in 0..n {
        out.push(TransformStamped {
            header: header(r)?,
            child_frame_id: r.bytes("child_frame_id")?,
            translation: r.f64_array("transform.translation")?,
            rotation: r.f64_array("transform.rotation")?,
        });
    }
    Ok(out)
}

/// Decode a ROS1 `sensor_msgs/CompressedImage`.
pub fn decode_compressed_image(data: &[u8]) -> Result<CompressedImage<'_>> {
    let r = &mut Reader::new(COMPRESSED_IMAGE, data);
    Ok(CompressedImage {
        header: header(r)?,
        format: r.bytes("format")?,
        data: r.bytes("data")?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn put_header(out: &mut Vec<u8>, frame: &[u8]) {
        out.extend_from_slice(&7u32.to_le_bytes());
        out.extend_from_slice(&5u32.to_le_bytes());
        out.extend_from_slice(&9u32.to_le_bytes());
        out.extend_from_slice(&(frame.len() as u32).to_le_bytes());
        out.extend_from_slice(frame);
    }

    #[test]
    fn a_transform_reads_with_its_frames_and_values() {
        let mut data = 1u32.to_le_bytes().to_vec();
        put_header(&mut data, b"camera_link");
        data.extend_from_slice(&4u32.to_le_bytes());
        data.extend_from_slice(b"cam1");
        for v in [0.1f64, 0.2, 0.3, 0.0, 0.0, 0.0, 1.0] {
            data.extend_from_slice(&v.to_le_bytes());
        }
        let tf = decode_tf_message(&data).unwrap();
        assert_eq!(tf.len(), 1);
        assert_eq!(tf[0].header.frame_id, b"camera_link");
        assert_eq!((tf[0].header.sec, tf[0].header.nanosec), (5, 9));
        assert_eq!(tf[0].child_frame_id, b"cam1");
        assert_eq!(tf[0].translation, [0.1, 0.2, 0.3]);
        assert!(decode_tf_message(&data[..data.len() - 1]).is_err());
        // A count no data backs is an error, not an allocation.
        assert!(decode_tf_message(&u32::MAX.to_le_bytes()).is_err());
    }
}
