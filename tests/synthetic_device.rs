//! The synthetic device: its description, streaming, content and errors.

use std::collections::{BTreeMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use bytes::BytesMut;
use rsbag::device::synthetic::{
    SyntheticConfig, SyntheticDevice, ACCEL, COLOR, DEPTH, GYRO, INFRARED_1, INFRARED_2, POSE,
};
use rsbag::device::{
    camera_info, metadata_key, Device, Distortion, Extrinsics, Format, Frame, Notification,
    ProfileKind, Sensor, StreamId, StreamKind, StreamProfile, TimestampDomain,
};
use rsbag::Error;

fn sensor(device: &SyntheticDevice, name: &str) -> Arc<dyn Sensor> {
    device
        .sensors()
        .into_iter()
        .find(|s| s.name() == name)
        .unwrap_or_else(|| panic!("no sensor {name}"))
}

fn defaults(device: &SyntheticDevice, stream: StreamId) -> Vec<StreamProfile> {
    device
        .sensors()
        .iter()
        .flat_map(|s| s.profiles())
        .filter(|p| p.stream == stream && p.is_default)
        .collect()
}

fn is_invalid<T: std::fmt::Debug>(result: rsbag::Result<T>) -> bool {
    matches!(result, Err(Error::InvalidArgument(_)))
}

/// Collects frames per stream.
#[derive(Default)]
struct Collector(Mutex<BTreeMap<StreamId, Vec<Frame>>>);

impl Collector {
    fn callback(self: &Arc<Self>) -> rsbag::device::FrameCallback {
        let me = Arc::clone(self);
        Arc::new(move |frame: Frame| {
            me.0.lock()
                .unwrap()
                .entry(frame.profile.stream)
                .or_default()
                .push(frame)
        })
    }

    fn take(&self, stream: StreamId) -> Vec<Frame> {
        self.0.lock().unwrap().remove(&stream).unwrap_or_default()
    }
}

#[test]
fn default_device_description() {
    let device = SyntheticDevice::default();
    let info = device.info();
    assert_eq!(info.get(camera_info::NAME), Some("Synthetic D435I"));
    assert_eq!(info.get(camera_info::PRODUCT_LINE), Some("D400"));
    for key in [
        camera_info::SERIAL_NUMBER,
        camera_info::FIRMWARE_VERSION,
        camera_info::PRODUCT_ID,
        camera_info::PHYSICAL_PORT,
    ] {
        assert!(!info.get(key).unwrap_or_default().is_empty(), "{key}");
    }

    let names: Vec<String> = device.sensors().iter().map(|s| s.name()).collect();
    assert_eq!(names, ["Stereo Module", "RGB Camera", "Motion Module"]);

    let all: Vec<StreamProfile> = device.sensors().iter().flat_map(|s| s.profiles()).collect();
    let ids: HashSet<u32> = all.iter().map(|p| p.unique_id).collect();
    assert_eq!(ids.len(), all.len(), "unique ids are distinct");
    let streams: HashSet<StreamId> = all.iter().map(|p| p.stream).collect();
    assert_eq!(
        streams,
        HashSet::from([DEPTH, INFRARED_1, INFRARED_2, COLOR, ACCEL, GYRO])
    );
    for &stream in &streams {
        assert_eq!(
            defaults(&device, stream).len(),
            1,
            "one default for {stream}"
        );
        let count = all.iter().filter(|p| p.stream == stream).count();
        assert!(count >= 2, "{stream} offers several profiles");
    }

    let stereo = sensor(&device, "Stereo Module");
    for p in stereo.profiles() {
        let expected = if p.stream == DEPTH {
            Format::Z16
        } else {
            Format::Y8
        };
        assert_eq!(p.format, expected);
        assert!(matches!(p.stream, DEPTH | INFRARED_1 | INFRARED_2));
    }
    let depth = device.default_profile(DEPTH).unwrap();
    assert_eq!(
        (depth.format, depth.resolution(), depth.fps),
        (Format::Z16, Some((640, 480)), 30)
    );
    let ir2 = device.default_profile(INFRARED_2).unwrap();
    assert_eq!(
        (ir2.format, ir2.resolution(), ir2.fps),
        (Format::Y8, Some((640, 480)), 30)
    );

    let rgb = sensor(&device, "RGB Camera");
    let formats: HashSet<Format> = rgb.profiles().iter().map(|p| p.format).collect();
    assert_eq!(
        formats,
        HashSet::from([Format::Rgb8, Format::Bgr8, Format::Yuyv, Format::Rgba8])
    );
    let color = device.default_profile(COLOR).unwrap();
    assert_eq!(
        (color.format, color.resolution(), color.fps),
        (Format::Rgb8, Some((640, 480)), 30)
    );

    let motion = sensor(&device, "Motion Module");
    let rates = |stream| {
        let mut r: Vec<(u32, bool)> = motion
            .profiles()
            .iter()
            .filter(|p| p.stream == stream)
            .map(|p| {
                assert_eq!(p.format, Format::MotionXyz32f);
                (p.fps, p.is_default)
            })
            .collect();
        r.sort();
        r
    };
    assert_eq!(rates(ACCEL), [(100, false), (200, true)]);
    assert_eq!(rates(GYRO), [(200, false), (400, true)]);

    // Intrinsics everywhere.
    for p in &all {
        match p.kind {
            ProfileKind::Video {
                width,
                height,
                intrinsics,
            } => {
                let i = intrinsics.expect("video intrinsics");
                assert_eq!((i.width, i.height), (width, height));
                assert!(i.fx > 0.3 * width as f32 && i.fx < 2.0 * width as f32);
                assert!((i.fy / i.fx - 1.0).abs() < 0.01);
                assert!((i.ppx - width as f32 / 2.0).abs() < 0.05 * width as f32);
                assert!((i.ppy - height as f32 / 2.0).abs() < 0.05 * height as f32);
                if p.stream == COLOR {
                    assert_eq!(i.model, Distortion::InverseBrownConrady);
                    assert!(i.coeffs.iter().all(|&c| c != 0.0));
                } else {
                    assert_eq!(i.model, Distortion::BrownConrady);
                }
            }
            ProfileKind::Motion { intrinsics } => {
                let m = intrinsics.expect("motion intrinsics");
                assert!(m.data[0][0] > 0.9 && m.data[0][3] != 0.0);
                assert!(m.noise_variances.iter().all(|&v| v > 0.0));
                assert!(m.bias_variances.iter().all(|&v| v > 0.0));
            }
            ProfileKind::Pose => panic!("no pose without config.pose"),
        }
    }
}

#[test]
fn default_options() {
    let device = SyntheticDevice::default();
    let stereo = sensor(&device, "Stereo Module").options();
    let get = |options: &[rsbag::device::SensorOption], name: &str| {
        options
            .iter()
            .find(|o| o.name == name)
            .cloned()
            .unwrap_or_else(|| panic!("no option {name}"))
    };
    let units = get(&stereo, "Depth Units");
    assert_eq!(units.value, 0.001);
    assert_eq!((units.range.min, units.range.max), (0.0001, 0.01));
    let laser = get(&stereo, "Laser Power");
    assert_eq!(
        (laser.range.min, laser.range.max, laser.range.step),
        (0.0, 360.0, 30.0)
    );
    get(&stereo, "Exposure");
    get(&stereo, "Emitter Enabled");
    let rgb = sensor(&device, "RGB Camera").options();
    get(&rgb, "Exposure");
    get(&rgb, "Gain");
    let all: Vec<_> = device.sensors().iter().flat_map(|s| s.options()).collect();
    assert!(all.iter().any(|o| o.read_only));
    for o in &all {
        assert!(o.description.len() > 5, "{} has a description", o.name);
        assert_eq!(o.value, o.range.default, "{} starts at its default", o.name);
        assert!(o.range.min <= o.value && o.value <= o.range.max);
    }
}

#[test]
fn configured_modes_and_pose() {
    let config = SyntheticConfig {
        depth: (848, 480, 30),
        color: (1280, 720, 15),
        pose: true,
        serial_number: "42".into(),
        ..SyntheticConfig::default()
    };
    let device = SyntheticDevice::new(config).unwrap();
    assert_eq!(device.info().get(camera_info::SERIAL_NUMBER), Some("42"));
    for stream in [DEPTH, INFRARED_1, INFRARED_2] {
        let p = defaults(&device, stream);
        assert_eq!(p.len(), 1);
        assert_eq!((p[0].resolution(), p[0].fps), (Some((848, 480)), 30));
    }
    let color = defaults(&device, COLOR);
    assert_eq!(color.len(), 1);
    assert_eq!(
        (color[0].resolution(), color[0].fps),
        (Some((1280, 720)), 15)
    );
    assert_eq!(color[0].format, Format::Rgb8);

    let tracking = sensor(&device, "Tracking Module");
    let pose = tracking.profiles();
    assert_eq!(pose.len(), 1);
    assert_eq!(
        (pose[0].stream, pose[0].format, pose[0].fps),
        (POSE, Format::SixDof, 200)
    );
    assert!(pose[0].is_default);

    // A non-standard mode is offered, as the default.
    let config = SyntheticConfig {
        depth: (320, 200, 10),
        ..SyntheticConfig::default()
    };
    let device = SyntheticDevice::new(config).unwrap();
    let depth = device.default_profile(DEPTH).unwrap();
    assert_eq!((depth.resolution(), depth.fps), (Some((320, 200)), 10));
    assert_eq!(defaults(&device, DEPTH).len(), 1);

    // Modes that cannot be produced.
    for bad in [
        (0, 480, 30),
        (640, 0, 30),
        (640, 480, 0),
        (100_000, 480, 30),
    ] {
        let config = SyntheticConfig {
            depth: bad,
            ..SyntheticConfig::default()
        };
        assert!(is_invalid(SyntheticDevice::new(config)), "{bad:?}");
    }
    let config = SyntheticConfig {
        color: (641, 480, 30),
        ..SyntheticConfig::default()
    };
    assert!(is_invalid(SyntheticDevice::new(config)));
}

fn assert_near(a: &Extrinsics, b: &Extrinsics, what: &str) {
    for (x, y) in a.rotation.iter().zip(&b.rotation) {
        assert!((x - y).abs() < 1e-5, "{what}: {a:?} vs {b:?}");
    }
    for (x, y) in a.translation.iter().zip(&b.translation) {
        assert!((x - y).abs() < 1e-6, "{what}: {a:?} vs {b:?}");
    }
}

#[test]
fn extrinsics_are_consistent() {
    let config = SyntheticConfig {
        pose: true,
        ..SyntheticConfig::default()
    };
    let device = SyntheticDevice::new(config).unwrap();
    let streams = [DEPTH, INFRARED_1, INFRARED_2, COLOR, ACCEL, GYRO, POSE];
    for &a in &streams {
        assert_near(
            &device.extrinsics(a, a).unwrap(),
            &Extrinsics::IDENTITY,
            "a→a",
        );
        for &b in &streams {
            let ab = device.extrinsics(a, b).unwrap();
            let ba = device.extrinsics(b, a).unwrap();
            assert_near(
                &ab.then(&ba),
                &Extrinsics::IDENTITY,
                &format!("{a}→{b}→{a}"),
            );
            assert_near(&ab.inverse(), &ba, &format!("{a}↔{b}"));
            for &c in &streams {
                let ac = device.extrinsics(a, c).unwrap();
                let bc = device.extrinsics(b, c).unwrap();
                assert_near(&ab.then(&bc), &ac, &format!("{a}→{b}→{c}"));
            }
        }
    }
    assert_near(
        &device.extrinsics(DEPTH, INFRARED_1).unwrap(),
        &Extrinsics::IDENTITY,
        "ir1",
    );
    assert_near(
        &device.extrinsics(DEPTH, INFRARED_2).unwrap(),
        &Extrinsics::translation(-0.05, 0.0, 0.0),
        "ir2",
    );
    let color = device.extrinsics(DEPTH, COLOR).unwrap();
    assert!(color.rotation != Extrinsics::IDENTITY.rotation);
    assert!(color.translation.iter().any(|&t| t != 0.0));
    assert!(device.extrinsics(DEPTH, ACCEL).unwrap().translation != [0.0; 3]);

    // Streams the device does not have.
    let device = SyntheticDevice::default();
    assert!(device.extrinsics(DEPTH, POSE).is_none());
    assert!(device
        .extrinsics(StreamId::new(StreamKind::Fisheye, 1), DEPTH)
        .is_none());
}

/// Check one stream's frames: numbers from 1, ideal timestamps, sizes.
/// Check the frames of one stream, delivered within `seconds` of wall time
/// (measured from before start to after stop).
fn check_stream(frames: &[Frame], profile: &StreamProfile, seconds: f64) {
    // Frame k is due k periods after the first and never delivered early,
    // so the count has an exact upper bound. How many fewer arrive depends
    // on how the host schedules threads; the numbers below show none were
    // skipped.
    let at_most = (profile.fps as f64 * seconds).floor() as usize + 1;
    assert!(
        !frames.is_empty() && frames.len() <= at_most,
        "{}: {} frames in {seconds} s, at most {at_most}",
        profile.stream,
        frames.len()
    );
    let period = 1000.0 / profile.fps as f64;
    for (i, frame) in frames.iter().enumerate() {
        assert_eq!(
            frame.number,
            i as u64 + 1,
            "{} frame numbers",
            profile.stream
        );
        assert_eq!(frame.profile, *profile);
        assert_eq!(frame.domain, TimestampDomain::HardwareClock);
        assert!((frame.timestamp - (1000.0 + i as f64 * period)).abs() < 1e-6);
        assert!(
            frame.system_time > 1.6e12,
            "host time in ms since the epoch"
        );
        assert_eq!(
            frame.metadata(metadata_key::FRAME_COUNTER),
            Some(frame.number as i64)
        );
        assert_eq!(
            frame.metadata(metadata_key::FRAME_TIMESTAMP),
            Some((frame.timestamp * 1000.0).round() as i64)
        );
        assert!(frame.metadata(metadata_key::TIME_OF_ARRIVAL).is_some());
        if let Some((w, h)) = frame.resolution() {
            let bpp = profile.format.bytes_per_pixel().unwrap();
            assert_eq!(frame.stride, w * bpp);
            assert_eq!(frame.data.len(), (w * h * bpp) as usize);
            assert!(frame.metadata(metadata_key::ACTUAL_EXPOSURE).is_some());
        }
    }
    for pair in frames.windows(2) {
        assert!((pair[1].timestamp - pair[0].timestamp - period).abs() < 1e-6);
        assert!(pair[1].system_time >= pair[0].system_time);
    }
}

#[test]
fn streams_depth_and_color_at_their_rate() {
    let device = SyntheticDevice::default();
    let stereo = sensor(&device, "Stereo Module");
    let rgb = sensor(&device, "RGB Camera");
    let depth = device.default_profile(DEPTH).unwrap();
    let color = device.default_profile(COLOR).unwrap();
    stereo.open(&[depth]).unwrap();
    rgb.open(&[color]).unwrap();
    assert_eq!(stereo.active_profiles(), [depth]);

    let frames = Arc::new(Collector::default());
    let started = Instant::now();
    stereo.start(frames.callback()).unwrap();
    rgb.start(frames.callback()).unwrap();
    thread::sleep(Duration::from_millis(500));
    stereo.stop().unwrap();
    rgb.stop().unwrap();
    let seconds = started.elapsed().as_secs_f64();

    check_stream(&frames.take(DEPTH), &depth, seconds);
    check_stream(&frames.take(COLOR), &color, seconds);
    stereo.close().unwrap();
    rgb.close().unwrap();
    assert!(stereo.active_profiles().is_empty());

    // A restart counts from 1 again.
    stereo.open(&[depth]).unwrap();
    stereo.start(frames.callback()).unwrap();
    thread::sleep(Duration::from_millis(100));
    stereo.stop().unwrap();
    let again = frames.take(DEPTH);
    assert!(!again.is_empty());
    assert_eq!(again[0].number, 1);
}

#[test]
fn streams_every_stream_of_a_sensor() {
    let device = SyntheticDevice::default();
    let stereo = sensor(&device, "Stereo Module");
    let motion = sensor(&device, "Motion Module");
    let stereo_profiles: Vec<_> = [DEPTH, INFRARED_1, INFRARED_2]
        .map(|s| device.default_profile(s).unwrap())
        .to_vec();
    let motion_profiles: Vec<_> = [ACCEL, GYRO]
        .map(|s| device.default_profile(s).unwrap())
        .to_vec();
    stereo.open(&stereo_profiles).unwrap();
    motion.open(&motion_profiles).unwrap();
    let frames = Arc::new(Collector::default());
    let started = Instant::now();
    stereo.start(frames.callback()).unwrap();
    motion.start(frames.callback()).unwrap();
    thread::sleep(Duration::from_millis(400));
    motion.stop().unwrap();
    stereo.stop().unwrap();
    let seconds = started.elapsed().as_secs_f64();
    for profile in stereo_profiles.iter().chain(&motion_profiles) {
        check_stream(&frames.take(profile.stream), profile, seconds);
    }
}

#[test]
fn stop_is_final() {
    let device = SyntheticDevice::default();
    let stereo = sensor(&device, "Stereo Module");
    let motion = sensor(&device, "Motion Module");
    stereo
        .open(&[
            device.default_profile(DEPTH).unwrap(),
            device.default_profile(INFRARED_1).unwrap(),
        ])
        .unwrap();
    motion
        .open(&[
            device.default_profile(GYRO).unwrap(),
            device.default_profile(ACCEL).unwrap(),
        ])
        .unwrap();

    for round in 0..3 {
        let stopped = Arc::new(AtomicBool::new(false));
        let late = Arc::new(AtomicUsize::new(0));
        let delivered = Arc::new(AtomicUsize::new(0));
        let callback = {
            let (stopped, late, delivered) = (stopped.clone(), late.clone(), delivered.clone());
            Arc::new(move |_frame: Frame| {
                // Slow the callback a little, so that stop() often meets
                // one in progress.
                thread::sleep(Duration::from_micros(300));
                if stopped.load(Ordering::SeqCst) {
                    late.fetch_add(1, Ordering::SeqCst);
                }
                delivered.fetch_add(1, Ordering::SeqCst);
            })
        };
        stereo.start(callback.clone()).unwrap();
        motion.start(callback).unwrap();
        thread::sleep(Duration::from_millis(50 + 20 * round));
        stereo.stop().unwrap();
        motion.stop().unwrap();
        stopped.store(true, Ordering::SeqCst);
        thread::sleep(Duration::from_millis(60));
        assert_eq!(late.load(Ordering::SeqCst), 0, "frames after stop()");
        assert!(delivered.load(Ordering::SeqCst) > 0);
    }
}

#[test]
fn stop_from_inside_the_callback() {
    let device = Arc::new(SyntheticDevice::default());
    let motion = sensor(&device, "Motion Module");
    motion
        .open(&[device.default_profile(GYRO).unwrap()])
        .unwrap();
    let calls = Arc::new(AtomicUsize::new(0));
    let results = Arc::new(Mutex::new(Vec::new()));
    let callback = {
        let (motion, calls, results) = (motion.clone(), calls.clone(), results.clone());
        Arc::new(move |_frame: Frame| {
            if calls.fetch_add(1, Ordering::SeqCst) == 2 {
                results.lock().unwrap().push(motion.stop().is_ok());
            }
        })
    };
    motion.start(callback).unwrap();
    thread::sleep(Duration::from_millis(150));
    assert_eq!(calls.load(Ordering::SeqCst), 3, "no frame after the stop");
    assert_eq!(*results.lock().unwrap(), [true]);
    assert!(is_invalid(motion.stop()), "already stopped");
    // The sensor can start again.
    motion.start(Arc::new(|_| {})).unwrap();
    motion.stop().unwrap();
}

#[test]
fn render_is_deterministic_and_matches_the_stream() {
    let config = SyntheticConfig {
        pose: true,
        ..SyntheticConfig::default()
    };
    let device = SyntheticDevice::new(config).unwrap();
    let stereo = sensor(&device, "Stereo Module");
    let rgb = sensor(&device, "RGB Camera");
    let tracking = sensor(&device, "Tracking Module");
    let yuyv = rgb
        .profiles()
        .into_iter()
        .find(|p| p.format == Format::Yuyv && p.resolution() == Some((640, 480)) && p.fps == 30)
        .unwrap();
    stereo
        .open(&[
            device.default_profile(DEPTH).unwrap(),
            device.default_profile(INFRARED_2).unwrap(),
        ])
        .unwrap();
    rgb.open(&[yuyv]).unwrap();
    tracking
        .open(&[device.default_profile(POSE).unwrap()])
        .unwrap();
    let frames = Arc::new(Collector::default());
    for s in [&stereo, &rgb, &tracking] {
        s.start(frames.callback()).unwrap();
    }
    thread::sleep(Duration::from_millis(250));
    for s in [&stereo, &rgb, &tracking] {
        s.stop().unwrap();
    }

    let host_free = |f: &Frame| {
        let mut f = f.clone();
        f.system_time = 0.0;
        f.metadata
            .retain(|(k, _)| k != metadata_key::TIME_OF_ARRIVAL);
        f
    };
    for stream in [DEPTH, INFRARED_2, COLOR, POSE] {
        let streamed = frames.take(stream);
        assert!(streamed.len() >= 2, "{stream}");
        for frame in &streamed {
            let again = device.render(&frame.profile, frame.number).unwrap();
            assert_eq!(
                host_free(&again),
                host_free(frame),
                "{stream} {}",
                frame.number
            );
        }
        // Frames differ from one to the next: the pattern moves.
        assert_ne!(streamed[0].data, streamed[1].data, "{stream} moves");
    }

    // Rendering into a reused buffer gives the same frames.
    let depth = device.default_profile(DEPTH).unwrap();
    let mut buffer = BytesMut::new();
    for number in [1, 2, 100, 1000] {
        let a = device.render(&depth, number).unwrap();
        let b = device.render_into(&depth, number, &mut buffer).unwrap();
        assert_eq!(a.data, b.data);
        assert_eq!(a.timestamp, 1000.0 + (number - 1) as f64 * 1000.0 / 30.0);
    }

    // Any resolution, but only formats and streams the device has.
    let big = StreamProfile::video(COLOR, Format::Bgra8, 100, 10, 5);
    assert_eq!(device.render(&big, 1).unwrap().data.len(), 100 * 10 * 4);
    assert!(is_invalid(device.render(
        &StreamProfile::video(DEPTH, Format::Rgb8, 64, 48, 30),
        1
    )));
    assert!(is_invalid(device.render(
        &StreamProfile::video(COLOR, Format::Yuyv, 63, 48, 30),
        1
    )));
    let fisheye = StreamProfile::video(StreamId::new(StreamKind::Fisheye, 1), Format::Y8, 8, 8, 30);
    assert!(is_invalid(device.render(&fisheye, 1)));
    assert!(is_invalid(device.render(&depth, 0)), "numbers start at 1");
}

#[test]
fn image_content() {
    let device = SyntheticDevice::default();
    let stereo = sensor(&device, "Stereo Module");
    let depth = device.default_profile(DEPTH).unwrap();
    let values = |frame: &Frame| -> Vec<u16> {
        frame
            .data
            .chunks_exact(2)
            .map(|b| u16::from_le_bytes([b[0], b[1]]))
            .collect()
    };
    let mm = values(&device.render(&depth, 7).unwrap());
    assert_eq!(mm[0], 0, "invalid band on the left");
    assert!(
        mm.iter().filter(|&&v| v == 600).count() >= 100 * 100,
        "the square"
    );
    assert!(mm.iter().all(|&v| v == 0 || (600..=3600).contains(&v)));
    assert!(mm.iter().any(|&v| v > 2000));

    // Depth units scale the values.
    stereo.set_option("Depth Units", 0.0001).unwrap();
    let tenths = values(&device.render(&depth, 7).unwrap());
    for (a, b) in mm.iter().zip(&tenths) {
        assert!(
            (*a as i32 * 10 - *b as i32).abs() <= 10,
            "{a} mm vs {b} tenths"
        );
    }

    // The emitter draws the dots.
    let ir = device.default_profile(INFRARED_1).unwrap();
    let dots = |frame: &Frame| frame.data.iter().filter(|&&v| v == 230).count();
    assert!(dots(&device.render(&ir, 3).unwrap()) > 1000);
    stereo.set_option("Emitter Enabled", 0.0).unwrap();
    assert_eq!(dots(&device.render(&ir, 3).unwrap()), 0);
    let ir2 = device.default_profile(INFRARED_2).unwrap();
    assert_ne!(
        device.render(&ir, 3).unwrap().data,
        device.render(&ir2, 3).unwrap().data
    );

    // Color formats are conversions of the same image.
    let rgb = sensor(&device, "RGB Camera");
    let color = |format| {
        let profile = rgb
            .profiles()
            .into_iter()
            .find(|p| p.format == format && p.resolution() == Some((640, 480)) && p.fps == 30)
            .unwrap();
        device.render(&profile, 5).unwrap().data
    };
    let rgb8 = color(Format::Rgb8);
    let bgr8 = color(Format::Bgr8);
    let rgba8 = color(Format::Rgba8);
    let yuyv = color(Format::Yuyv);
    assert_eq!(rgb8.len(), 640 * 480 * 3);
    for ((rgb, bgr), rgba) in rgb8
        .chunks_exact(3)
        .zip(bgr8.chunks_exact(3))
        .zip(rgba8.chunks_exact(4))
    {
        assert_eq!([rgb[2], rgb[1], rgb[0]], bgr);
        assert_eq!([rgb[0], rgb[1], rgb[2], 255], rgba);
    }
    assert_eq!(yuyv.len(), 640 * 480 * 2);
    for (i, pair) in yuyv.chunks_exact(4).enumerate() {
        for (k, &y) in [pair[0], pair[2]].iter().enumerate() {
            let p = &rgb8[(2 * i + k) * 3..][..3];
            let luma = 0.299 * p[0] as f32 + 0.587 * p[1] as f32 + 0.114 * p[2] as f32;
            assert!((luma - y as f32).abs() <= 2.0, "Y {y} of {p:?}");
        }
    }
    let distinct: HashSet<&[u8]> = rgb8.chunks_exact(3).collect();
    assert!(distinct.len() > 50, "bars under a gradient");
}

#[test]
fn motion_and_pose_values() {
    let config = SyntheticConfig {
        pose: true,
        ..SyntheticConfig::default()
    };
    let device = SyntheticDevice::new(config).unwrap();
    let motion = sensor(&device, "Motion Module");
    motion
        .open(&[
            device.default_profile(ACCEL).unwrap(),
            device.default_profile(GYRO).unwrap(),
        ])
        .unwrap();
    let frames = Arc::new(Collector::default());
    motion.start(frames.callback()).unwrap();
    thread::sleep(Duration::from_millis(200));
    motion.stop().unwrap();

    let accel = frames.take(ACCEL);
    let gyro = frames.take(GYRO);
    assert!(
        accel.len() >= 10 && gyro.len() >= 20,
        "{} {}",
        accel.len(),
        gyro.len()
    );
    for frame in &accel {
        assert_eq!(frame.data.len(), 12);
        assert_eq!(frame.stride, 0);
        let [x, y, z] = frame.motion().unwrap();
        assert!(
            x.abs() < 0.1 && (y + 9.81).abs() < 0.1 && z.abs() < 0.1,
            "{x} {y} {z}"
        );
    }
    for frame in &gyro {
        let [x, y, z] = frame.motion().unwrap();
        assert!(x.abs() < 0.05 && y.abs() < 0.05 && z.abs() < 0.05);
    }
    // The samples change over time.
    let gyros: HashSet<[u32; 3]> = gyro
        .iter()
        .map(|f| f.motion().unwrap().map(f32::to_bits))
        .collect();
    assert!(gyros.len() > gyro.len() / 2);
    // Same instant, same sample, whatever the rate.
    let accel_100 = motion
        .profiles()
        .into_iter()
        .find(|p| p.stream == ACCEL && p.fps == 100)
        .unwrap();
    let slow = device.render(&accel_100, 3).unwrap();
    let fast = device
        .render(&device.default_profile(ACCEL).unwrap(), 5)
        .unwrap();
    assert_eq!(slow.motion(), fast.motion());
    assert_eq!(slow.timestamp, fast.timestamp);

    // Poses go round a 1 m circle.
    let pose_profile = device.default_profile(POSE).unwrap();
    for number in [1, 50, 400, 1234] {
        let frame = device.render(&pose_profile, number).unwrap();
        assert_eq!(frame.data.len(), 84);
        let pose = frame.pose().unwrap();
        let [x, y, z] = pose.translation;
        assert!(((x * x + z * z).sqrt() - 1.0).abs() < 1e-4 && y == 0.0);
        let q = pose.rotation;
        let norm = q.iter().map(|v| v * v).sum::<f32>().sqrt();
        assert!((norm - 1.0).abs() < 1e-5);
        assert_eq!(pose.tracker_confidence, 3);
    }
}

#[test]
fn set_option_validates_and_notifies() {
    let device = SyntheticDevice::default();
    let stereo = sensor(&device, "Stereo Module");
    let heard = Arc::new(Mutex::new(Vec::new()));
    {
        let heard = heard.clone();
        stereo.add_option_listener(Arc::new(move |name: &str, value| {
            heard.lock().unwrap().push((name.to_owned(), value));
        }));
    }
    let value = |name: &str| {
        stereo
            .options()
            .into_iter()
            .find(|o| o.name == name)
            .unwrap()
            .value
    };

    stereo.set_option("Laser Power", 240.0).unwrap();
    stereo.set_option("Depth Units", 0.0005).unwrap();
    assert_eq!(value("Laser Power"), 240.0);
    assert_eq!(value("Depth Units"), 0.0005);

    assert!(
        is_invalid(stereo.set_option("Laser Power", 390.0)),
        "above max"
    );
    assert!(
        is_invalid(stereo.set_option("Laser Power", -30.0)),
        "below min"
    );
    assert!(
        is_invalid(stereo.set_option("Laser Power", 45.0)),
        "between steps"
    );
    assert!(is_invalid(stereo.set_option("Laser Power", f32::NAN)));
    assert!(is_invalid(stereo.set_option("Depth Units", 0.02)));
    assert!(
        is_invalid(stereo.set_option("Asic Temperature", 40.0)),
        "read-only"
    );
    assert!(is_invalid(stereo.set_option("Warp Drive", 1.0)), "unknown");
    assert!(
        is_invalid(stereo.set_option("Gain", 0.0)),
        "stereo gain starts at 16"
    );
    assert_eq!(
        value("Laser Power"),
        240.0,
        "rejected values change nothing"
    );

    assert_eq!(
        *heard.lock().unwrap(),
        [
            ("Laser Power".to_owned(), 240.0),
            ("Depth Units".to_owned(), 0.0005)
        ]
    );

    // Options are per sensor.
    let rgb = sensor(&device, "RGB Camera");
    rgb.set_option("Exposure", 300.0).unwrap();
    assert_eq!(value("Exposure"), 8500.0);
    assert_eq!(heard.lock().unwrap().len(), 2);

    // Frames report the options they were taken with.
    let depth = device
        .render(&device.default_profile(DEPTH).unwrap(), 1)
        .unwrap();
    assert_eq!(depth.metadata(metadata_key::FRAME_LASER_POWER), Some(240));
    assert_eq!(depth.metadata(metadata_key::ACTUAL_EXPOSURE), Some(8500));
    let color = device
        .render(&device.default_profile(COLOR).unwrap(), 1)
        .unwrap();
    assert_eq!(color.metadata(metadata_key::ACTUAL_EXPOSURE), Some(300));
}

#[test]
fn notifications_reach_listeners() {
    let device = SyntheticDevice::default();
    let heard = Arc::new(Mutex::new(Vec::new()));
    for (i, s) in device.sensors().iter().enumerate() {
        let heard = heard.clone();
        s.add_notification_listener(Arc::new(move |n: &Notification| {
            heard.lock().unwrap().push((i, n.clone()));
        }));
    }
    let notification = Notification {
        category: "Hardware Error".into(),
        severity: "Warn".into(),
        description: "Motion module overheated".into(),
        timestamp: 1.7e12,
        serialized_data: "{}".into(),
    };
    device.raise_notification(2, notification.clone()).unwrap();
    assert_eq!(*heard.lock().unwrap(), [(2, notification.clone())]);
    assert!(is_invalid(device.raise_notification(3, notification)));
}

#[test]
fn misuse_is_an_error() {
    let device = SyntheticDevice::default();
    let stereo = sensor(&device, "Stereo Module");
    let depth = device.default_profile(DEPTH).unwrap();
    let color = device.default_profile(COLOR).unwrap();

    assert!(
        is_invalid(stereo.start(Arc::new(|_| {}))),
        "start without open"
    );
    assert!(is_invalid(stereo.stop()), "stop without start");
    assert!(is_invalid(stereo.close()), "close without open");
    assert!(is_invalid(stereo.open(&[])));
    assert!(
        is_invalid(stereo.open(&[color])),
        "another sensor's profile"
    );
    let odd = StreamProfile::video(DEPTH, Format::Z16, 1000, 1000, 30);
    assert!(is_invalid(stereo.open(&[odd])), "a mode the sensor lacks");
    let other_rate = device
        .sensors()
        .iter()
        .flat_map(|s| s.profiles())
        .find(|p| p.stream == DEPTH && !p.is_default)
        .unwrap();
    assert!(
        is_invalid(stereo.open(&[depth, other_rate])),
        "two of one stream"
    );
    assert!(stereo.active_profiles().is_empty());

    // A plain description of the mode is enough; the sensor's own profile
    // (with its id and intrinsics) is opened.
    let plain = StreamProfile::video(DEPTH, Format::Z16, 640, 480, 30);
    stereo.open(&[plain]).unwrap();
    assert_eq!(stereo.active_profiles(), [depth]);

    stereo.start(Arc::new(|_| {})).unwrap();
    assert!(is_invalid(stereo.start(Arc::new(|_| {}))), "start twice");
    assert!(is_invalid(stereo.open(&[depth])), "open while streaming");
    assert!(is_invalid(stereo.close()), "close while streaming");
    stereo.stop().unwrap();
    stereo.close().unwrap();
}

#[test]
fn late_frames_are_dropped_only_when_asked() {
    for drop_late_frames in [false, true] {
        let config = SyntheticConfig {
            drop_late_frames,
            ..SyntheticConfig::default()
        };
        let device = SyntheticDevice::new(config).unwrap();
        let motion = sensor(&device, "Motion Module");
        motion
            .open(&[device.default_profile(ACCEL).unwrap()])
            .unwrap();
        let numbers = Arc::new(Mutex::new(Vec::new()));
        {
            let numbers = numbers.clone();
            // Three times slower than the 200 Hz stream.
            motion
                .start(Arc::new(move |frame: Frame| {
                    numbers.lock().unwrap().push(frame.number);
                    thread::sleep(Duration::from_millis(15));
                }))
                .unwrap();
        }
        thread::sleep(Duration::from_millis(200));
        motion.stop().unwrap();
        let numbers = numbers.lock().unwrap();
        assert!(numbers.len() >= 3);
        let gaps = numbers.windows(2).any(|w| w[1] > w[0] + 1);
        assert!(numbers.windows(2).all(|w| w[1] > w[0]));
        assert_eq!(gaps, drop_late_frames, "{numbers:?}");
    }
}
