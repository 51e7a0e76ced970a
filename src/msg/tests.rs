//! Round trips, truncation and md5 checks for every message type.

use std::borrow::Cow;

use proptest::array::{uniform12, uniform9};
use proptest::collection::vec;
use proptest::prelude::*;

use super::diagnostic_msgs::KeyValue;
use super::geometry_msgs::{Accel, Quaternion, Transform, Twist, Vector3};
use super::realsense_msgs::{ImuIntrinsic, Notification, StreamInfo};
use super::sensor_msgs::{CameraInfo, Image, Imu, RegionOfInterest};
use super::std_msgs::{Float32, Header, String as StringMsg, UInt32};
use super::*;

/// Encode `$m`, decode it back as `$ty`, and check that the result is equal,
/// re-encodes to the same bytes, and that every shorter prefix of the bytes
/// fails to decode. Evaluates to the encoded bytes.
macro_rules! check_round_trip {
    ($ty:ident, $m:expr) => {{
        let m = $m;
        let bytes = encode_to_vec(&m).unwrap();
        let back = $ty::decode(&bytes).expect("decodes");
        assert_eq!(back, m);
        assert_eq!(encode_to_vec(&back).unwrap(), bytes);
        for n in 0..bytes.len() {
            let err = $ty::decode(&bytes[..n]).expect_err("a truncated message must not decode");
            assert!(matches!(err, crate::Error::Decode { msg_type, .. } if msg_type == $ty::TYPE));
        }
        bytes
    }};
}

fn header(frame_id: &str) -> Header<'_> {
    Header {
        seq: 7,
        stamp: Time::new(5, 11_111_000),
        frame_id: frame_id.into(),
    }
}

fn vector(x: f64) -> Vector3 {
    Vector3 {
        x,
        y: x + 1.0,
        z: -x,
    }
}

fn quaternion() -> Quaternion {
    Quaternion {
        x: 0.5,
        y: -0.5,
        z: 0.25,
        w: -1.0,
    }
}

fn image(frame_id: &str, data: Vec<u8>, depth_units: f32) -> Image<'_> {
    Image {
        header: header(frame_id),
        height: 2,
        width: 3,
        encoding: "mono16".into(),
        is_bigendian: 0,
        step: 6,
        data: data.into(),
        depth_units,
    }
}

#[test]
fn std_msgs_round_trip() {
    assert_eq!(check_round_trip!(UInt32, UInt32 { data: 4 }), [4, 0, 0, 0]);
    check_round_trip!(Float32, Float32 { data: 0.001 });
    let s = check_round_trip!(
        StringMsg,
        StringMsg {
            data: "Frames Queue Size".into()
        }
    );
    assert_eq!(s.len(), 4 + 17);
    let h = check_round_trip!(Header, header("1"));
    assert_eq!(
        h,
        [7, 0, 0, 0, 5, 0, 0, 0, 0x58, 0x8a, 0xa9, 0, 1, 0, 0, 0, b'1']
    );
}

#[test]
fn other_types_round_trip() {
    let kv = KeyValue {
        key: "timestamp_domain".into(),
        value: "Hardware Clock".into(),
    };
    check_round_trip!(KeyValue, kv);
    check_round_trip!(Vector3, vector(1.5));
    check_round_trip!(Quaternion, quaternion());
    let tf = Transform {
        translation: vector(0.015),
        rotation: quaternion(),
    };
    assert_eq!(check_round_trip!(Transform, tf).len(), 56);
    check_round_trip!(
        Twist,
        Twist {
            linear: vector(1.0),
            angular: vector(2.0)
        }
    );
    check_round_trip!(
        Accel,
        Accel {
            linear: vector(3.0),
            angular: vector(4.0)
        }
    );
    let info = StreamInfo {
        fps: 30,
        encoding: "mono16".into(),
        is_recommended: true,
    };
    assert_eq!(check_round_trip!(StreamInfo, info).len(), 15);
    let intrinsic = ImuIntrinsic {
        data: std::array::from_fn(|i| i as f32),
        noise_variances: [0.1, 0.2, 0.3],
        bias_variances: [1.0, 2.0, 3.0],
    };
    assert_eq!(check_round_trip!(ImuIntrinsic, intrinsic).len(), 72);
    let notification = Notification {
        timestamp: Time::new(1, 2),
        category: "Frame Corrupted".into(),
        severity: "Warn".into(),
        description: "frame dropped".into(),
        serialized_data: "{\"a\":1}".into(),
    };
    check_round_trip!(Notification, notification);
}

#[test]
fn sensor_msgs_round_trip() {
    let roi = RegionOfInterest {
        x_offset: 1,
        y_offset: 2,
        height: 3,
        width: 4,
        do_rectify: true,
    };
    assert_eq!(check_round_trip!(RegionOfInterest, roi).len(), 17);
    let info = CameraInfo {
        header: header(""),
        height: 60,
        width: 80,
        distortion_model: "Brown Conrady".into(),
        d: vec![0.1, 0.2, 0.0, 0.0, 0.3],
        k: std::array::from_fn(|i| i as f64),
        r: std::array::from_fn(|i| -(i as f64)),
        p: std::array::from_fn(|i| i as f64 * 0.5),
        binning_x: 1,
        binning_y: 2,
        roi,
    };
    // The size of the CameraInfo messages in the reference bag.
    assert_eq!(check_round_trip!(CameraInfo, info).len(), 350);
    let imu = Imu {
        header: header("1"),
        orientation: quaternion(),
        orientation_covariance: [0.5; 9],
        angular_velocity: vector(0.1),
        angular_velocity_covariance: [0.25; 9],
        linear_acceleration: vector(9.81),
        linear_acceleration_covariance: [-1.0; 9],
    };
    check_round_trip!(Imu, imu);
}

#[test]
fn image_depth_units_follow_the_frame_id() {
    let with = check_round_trip!(Image, image("1", vec![1; 12], 0.001));
    let without = check_round_trip!(Image, image("", vec![1; 12], 0.0));
    // 4 bytes of depth_units, 1 byte of frame_id.
    assert_eq!(with.len(), without.len() + 5);
    assert_eq!(with[with.len() - 4..], 0.001f32.to_le_bytes());
    // Not written nor read when frame_id is not "1".
    let dropped = encode_to_vec(&image("0", vec![1; 12], 0.5)).unwrap();
    assert_eq!(Image::decode(&dropped).unwrap().depth_units, 0.0);
    let text = Image::decode(&with[..with.len() - 4])
        .unwrap_err()
        .to_string();
    assert!(text.contains("depth_units"), "{text}");
}

#[test]
fn image_decode_borrows_the_pixels() {
    let bytes = encode_to_vec(&image("1", (0..12).collect(), 0.001)).unwrap();
    let decoded = Image::decode(&bytes).unwrap();
    let Cow::Borrowed(data) = decoded.data else {
        panic!("pixel data was copied");
    };
    assert_eq!(data.as_ptr(), bytes[bytes.len() - 16..].as_ptr());
    assert!(matches!(decoded.encoding, Cow::Borrowed("mono16")));
}

#[test]
fn trailing_bytes_are_ignored() {
    let mut bytes = encode_to_vec(&KeyValue {
        key: "k".into(),
        value: "v".into(),
    })
    .unwrap();
    bytes.extend_from_slice(b"extra");
    assert_eq!(KeyValue::decode(&bytes).unwrap().value, "v");
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    // A length prefix of 4 GiB on a tiny message.
    let mut bytes = vec![0; 12];
    bytes.extend_from_slice(&u32::MAX.to_le_bytes());
    let text = Image::decode(&bytes).unwrap_err().to_string();
    assert!(
        text.contains("sensor_msgs/Image") && text.contains("byte offset 12"),
        "{text}"
    );
    // Invalid UTF-8 in a string.
    let text = KeyValue::decode(&[1, 0, 0, 0, 0xc3, 0, 0, 0, 0])
        .unwrap_err()
        .to_string();
    assert!(text.contains("`key` is not UTF-8"), "{text}");
    // An array length that overflows when multiplied by the element size.
    let mut info = encode_to_vec(&CameraInfo::default()).unwrap();
    info[28..32].copy_from_slice(&u32::MAX.to_le_bytes());
    let text = CameraInfo::decode(&info).unwrap_err().to_string();
    assert!(text.contains("`D`"), "{text}");
}

#[test]
fn every_md5sum_is_computed_from_its_definition() {
    assert_eq!(MESSAGE_TYPES.len(), 17);
    for t in MESSAGE_TYPES {
        assert_eq!(
            md5sum(t.name, t.definition).unwrap(),
            t.md5sum,
            "{}",
            t.name
        );
        assert_eq!(definition_of(t.name), Some((t.definition, t.md5sum)));
    }
}

#[test]
fn nested_definitions_match_the_standalone_ones() {
    // Each `MSG:` block of a full definition is the definition of that type.
    for t in MESSAGE_TYPES {
        for block in t.definition.split("MSG: ").skip(1) {
            let (name, text) = block.split_once('\n').unwrap();
            let (standalone, _) = definition_of(name).unwrap();
            let text = text.split("\n====").next().unwrap().trim_end();
            assert_eq!(text, standalone.trim_end(), "{name} in {}", t.name);
        }
    }
}

fn float() -> impl Strategy<Value = f64> {
    -1e12f64..1e12
}

fn header_strategy() -> impl Strategy<Value = Header<'static>> {
    let frame_id = prop_oneof![Just("1".to_owned()), "\\PC{0,8}"];
    (any::<u32>(), any::<u32>(), any::<u32>(), frame_id).prop_map(|(seq, sec, nsec, frame_id)| {
        Header {
            seq,
            stamp: Time::new(sec, nsec),
            frame_id: frame_id.into(),
        }
    })
}

fn image_strategy() -> impl Strategy<Value = Image<'static>> {
    let fields = (
        any::<u32>(),
        any::<u32>(),
        "\\PC{0,10}",
        any::<u8>(),
        any::<u32>(),
    );
    (
        header_strategy(),
        fields,
        vec(any::<u8>(), 0..300),
        any::<f32>(),
    )
        .prop_map(
            |(header, (height, width, encoding, is_bigendian, step), data, units)| {
                let depth_units = if header.frame_id == "1" && !units.is_nan() {
                    units
                } else {
                    0.0
                };
                Image {
                    header,
                    height,
                    width,
                    encoding: encoding.into(),
                    is_bigendian,
                    step,
                    data: data.into(),
                    depth_units,
                }
            },
        )
}

fn camera_info_strategy() -> impl Strategy<Value = CameraInfo<'static>> {
    let roi = (any::<[u32; 4]>(), any::<bool>()).prop_map(|([x, y, h, w], do_rectify)| {
        RegionOfInterest {
            x_offset: x,
            y_offset: y,
            height: h,
            width: w,
            do_rectify,
        }
    });
    let matrices = (uniform9(float()), uniform9(float()), uniform12(float()));
    let sizes = (any::<[u32; 4]>(), "\\PC{0,16}", vec(float(), 0..8));
    (header_strategy(), sizes, matrices, roi).prop_map(
        |(header, ([height, width, bx, by], model, d), (k, r, p), roi)| CameraInfo {
            header,
            height,
            width,
            distortion_model: model.into(),
            d,
            k,
            r,
            p,
            binning_x: bx,
            binning_y: by,
            roi,
        },
    )
}

fn vector_strategy() -> impl Strategy<Value = Vector3> {
    (float(), float(), float()).prop_map(|(x, y, z)| Vector3 { x, y, z })
}

fn imu_strategy() -> impl Strategy<Value = Imu<'static>> {
    let orientation =
        (float(), float(), float(), float()).prop_map(|(x, y, z, w)| Quaternion { x, y, z, w });
    let covariance = || uniform9(float());
    let motion = (
        vector_strategy(),
        covariance(),
        vector_strategy(),
        covariance(),
    );
    (header_strategy(), orientation, covariance(), motion).prop_map(
        |(header, orientation, orientation_covariance, (av, avc, la, lac))| Imu {
            header,
            orientation,
            orientation_covariance,
            angular_velocity: av,
            angular_velocity_covariance: avc,
            linear_acceleration: la,
            linear_acceleration_covariance: lac,
        },
    )
}

proptest! {
    #[test]
    fn image_round_trips(m in image_strategy()) {
        let bytes = encode_to_vec(&m).unwrap();
        prop_assert_eq!(Image::decode(&bytes)?, m);
        let n = bytes.len() / 2;
        prop_assert!(Image::decode(&bytes[..n]).is_err());
    }

    #[test]
    fn camera_info_round_trips(m in camera_info_strategy()) {
        let bytes = encode_to_vec(&m).unwrap();
        prop_assert_eq!(CameraInfo::decode(&bytes)?, m);
    }

    #[test]
    fn imu_round_trips(m in imu_strategy()) {
        let bytes = encode_to_vec(&m).unwrap();
        prop_assert_eq!(Imu::decode(&bytes)?, m);
    }

    #[test]
    fn key_value_round_trips(key in "\\PC*", value in "\\PC*") {
        let m = KeyValue { key: key.into(), value: value.into() };
        let bytes = encode_to_vec(&m).unwrap();
        prop_assert_eq!(bytes.len(), 8 + m.key.len() + m.value.len());
        prop_assert_eq!(KeyValue::decode(&bytes)?, m);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in vec(any::<u8>(), 0..200)) {
        let _ = Image::decode(&bytes);
        let _ = CameraInfo::decode(&bytes);
        let _ = Imu::decode(&bytes);
        let _ = KeyValue::decode(&bytes);
        let _ = Notification::decode(&bytes);
        let _ = StreamInfo::decode(&bytes);
    }
}

/// An image of more than `u32::MAX` bytes cannot be encoded: an error that
/// names the type, not a panic, and a bag writer given it writes nothing
/// and goes on. The pixels are an untouched, unreserved mapping of zeros,
/// so the test costs no memory.
#[cfg(all(unix, target_pointer_width = "64"))]
#[test]
fn a_message_too_long_for_ros1_is_an_error_not_a_panic() {
    use crate::storage::bag::{Bag, BagWriter, WriterOptions};
    use crate::storage::Connection;
    use crate::ErrorKind;

    let len = u32::MAX as usize + 1;
    // SAFETY: a private read-only anonymous mapping of `len` bytes, never
    // unmapped, so the slice over it stays valid for the test.
    let pixels: &[u8] = unsafe {
        let at = libc::mmap(
            std::ptr::null_mut(),
            len,
            libc::PROT_READ,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
            -1,
            0,
        );
        assert_ne!(at, libc::MAP_FAILED, "mmap");
        std::slice::from_raw_parts(at.cast::<u8>(), len)
    };
    let huge = Image {
        data: Cow::Borrowed(pixels),
        ..Image::default()
    };
    let e = encode_to_vec(&huge).expect_err("too long");
    assert_eq!(e.kind(), ErrorKind::InvalidArgument);
    assert!(
        e.to_string().starts_with(
            "cannot encode sensor_msgs/Image message: a string or array of 4294967296 elements"
        ),
        "{e}"
    );

    let mut writer =
        BagWriter::new(std::io::Cursor::new(Vec::new()), WriterOptions::default()).expect("writer");
    let conn = writer.add_connection(Connection::ros1(
        "/image",
        Image::TYPE,
        Image::MD5SUM,
        Image::DEFINITION,
    ));
    let e = writer
        .write_with(conn, 1, |out| huge.encode(out))
        .expect_err("too long");
    assert_eq!(e.kind(), ErrorKind::InvalidArgument);
    let small = Image {
        data: Cow::Borrowed(&pixels[..12]),
        ..Image::default()
    };
    writer
        .write_with(conn, 2, |out| small.encode(out))
        .expect("a message that fits");
    let bag = Bag::from_bytes(writer.finish().expect("finish").into_inner()).expect("bag");
    let messages: Vec<_> = bag.messages().collect::<crate::Result<_>>().expect("read");
    assert_eq!(messages.len(), 1);
    assert_eq!(messages[0].time, 2);
    assert_eq!(Image::decode(&messages[0].data).expect("image"), small);
}
