//! `rsbag play --ros2` against a real ROS 2: the rclpy, rcl and Fast DDS
//! of the virtual environment `scripts/install-test-deps.sh` makes
//! (`target/venv-ros2`, or `RSBAG_VENV_ROS2`), rsbag pointed at it with
//! `RSBAG_ROS2`. Every test's DDS traffic stays in a private network
//! namespace (`unshare -n`, loopback only, a test-only domain).

use crate::run::{rsbag, OutputInTime};
use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;
use sha2::{Digest, Sha256};

use super::common;
use super::interop_ros2::{check_united, fed_sha256, SESSION_UNITED_AND_COMPRESSED};

/// The ROS 2 virtual environment (its prefix holds lib/librcl.so).
fn venv() -> PathBuf {
    let venv = match std::env::var_os("RSBAG_VENV_ROS2") {
        Some(path) => PathBuf::from(path),
        None => common::root().join("target/venv-ros2"),
    };
    assert!(
        venv.join("lib/librcl.so").exists(),
        "{} has no ROS 2: run scripts/install-test-deps.sh (the README's test command does)",
        venv.display()
    );
    venv
}

/// Python's shared library: ROS 2's PyPI build of rcl links it.
fn libpython(venv: &std::path::Path) -> String {
    let out = Command::new(venv.join("bin/python"))
        .args([
            "-c",
            "import sysconfig as s; print(s.get_config_var('LIBDIR') + '/' + s.get_config_var('INSTSONAME'))",
        ])
        .output_in_time()
        .expect("run the venv's python");
    String::from_utf8(out.stdout)
        .expect("a path")
        .trim()
        .to_owned()
}

/// What a run in the namespace left: rsbag's exit code, stdout and
/// stderr, and the listener's JSON lines.
struct Live {
    code: i32,
    stdout: String,
    stderr: String,
    heard: Vec<Value>,
}

/// `script` run by bash in a private network namespace, only its loopback
/// up, on DDS domain `domain`: no discovery traffic leaves the test, and
/// no ROS 2 of the caller's environment is seen. Two minutes at most.
fn in_private_network(domain: u32, script: &str) -> Command {
    let mut command = Command::new("timeout");
    command
        .args(["120", "unshare", "-n", "bash", "-c"])
        .arg(format!("set -u\nip link set lo up\n{script}"))
        .env("ROS_AUTOMATIC_DISCOVERY_RANGE", "LOCALHOST")
        .env("ROS_DOMAIN_ID", domain.to_string())
        .env_remove("LD_LIBRARY_PATH")
        .env_remove("AMENT_PREFIX_PATH")
        .env_remove("RMW_IMPLEMENTATION");
    command
}

/// In a private network namespace on domain `domain`: start
/// `ros2_listen.py listen...` (when any), then `rsbag play args`, and wait
/// for both. The tests count every message, so rsbag's publishers keep
/// 100 of them (`--qos-depth`) for a listener that a loaded machine
/// leaves behind (the default 10 lost one in CI).
fn in_namespace(domain: u32, listen: &[&str], args: &[&str]) -> Live {
    let depth: &[&str] = if args.first() == Some(&"play") {
        &["--qos-depth", "100"]
    } else {
        &[]
    };
    let args: Vec<&str> = args.iter().chain(depth).copied().collect();
    let venv = venv();
    let dir = tempfile::tempdir().expect("temp dir");
    let quote = |s: &str| format!("'{}'", s.replace('\'', r"'\''"));
    let listener = if listen.is_empty() {
        String::new()
    } else {
        let script = common::root().join("tests/interop/ros2_listen.py");
        format!(
            "{} {} {} > {}/heard 2> {}/listener.err &\n\
             for i in $(seq 100); do grep -q ready {}/listener.err && break; sleep 0.1; done\n",
            quote(&venv.join("bin/python").to_string_lossy()),
            quote(&script.to_string_lossy()),
            listen
                .iter()
                .map(|a| quote(a))
                .collect::<Vec<_>>()
                .join(" "),
            dir.path().display(),
            dir.path().display(),
            dir.path().display(),
        )
    };
    let script = format!(
        "{listener}\
         RSBAG_ROS2={} LD_PRELOAD={} {} {} > {d}/out 2> {d}/err\necho $? > {d}/code\nwait\n",
        quote(&venv.to_string_lossy()),
        quote(&libpython(&venv)),
        quote(env!("CARGO_BIN_EXE_rsbag")),
        args.iter().map(|a| quote(a)).collect::<Vec<_>>().join(" "),
        d = dir.path().display(),
    );
    let status = in_private_network(domain, &script)
        .output_in_time()
        .expect("run unshare")
        .status;
    assert!(status.success(), "the namespace's script failed: {status}");
    let read = |name: &str| std::fs::read_to_string(dir.path().join(name)).unwrap_or_default();
    Live {
        code: read("code").trim().parse().expect("rsbag's exit code"),
        stdout: read("out"),
        stderr: read("err"),
        heard: (read("heard").lines())
            .map(|l| serde_json::from_str(l).expect("a JSON line"))
            .collect(),
    }
}

/// The messages heard on `topic`.
fn on<'a>(heard: &'a [Value], topic: &str) -> Vec<&'a Value> {
    heard.iter().filter(|m| m["topic"] == topic).collect()
}

/// librealsense 2.55's frames of a `.bag`, of stream `stream`, in order.
fn librealsense_frames(bag: &str, stream: &str) -> Vec<Value> {
    let mut frames: Vec<Value> = (common::python("rs_play.py", &[bag]).lines())
        .map(|l| serde_json::from_str::<Value>(l).expect("a JSON line"))
        .filter(|f| f["stream"] == stream)
        .collect();
    frames.sort_by_key(|f| f["frame_number"].as_u64());
    frames
}

fn stamp_of(frame: &Value) -> u64 {
    (frame["timestamp"].as_f64().expect("timestamp") * 1e6).round() as u64
}

#[test]
fn play_publishes_every_frame_with_librealsenses_bytes_and_stamps_and_clock() {
    let bag = common::reference("librealsense-2.55-depth-color.bag");
    let bag = bag.to_str().expect("utf-8 path");
    let live = in_namespace(
        71,
        &[
            "--seconds",
            "60",
            "/camera/camera/depth/image_rect_raw=image:12",
            "/camera/camera/color/image_raw=image:12",
            "/camera/camera/depth/camera_info=camera_info",
            "/camera/camera/color/camera_info=camera_info",
            "/clock=clock",
        ],
        &[
            "play",
            "--ros2",
            bag,
            "--clock",
            "200",
            "--wait-for-subscribers",
            "--timeout",
            "60",
        ],
    );
    assert_eq!(live.code, 0, "{}", live.stderr);
    // The install has no tf2_msgs and no realsense2_camera_msgs: said once
    // each, the rest published.
    assert!(
        live.stderr
            .contains("tf2_msgs/msg/TFMessage is not installed"),
        "{}",
        live.stderr
    );
    for (topic, stream, encoding) in [
        ("/camera/camera/depth/image_rect_raw", "Depth", "16UC1"),
        ("/camera/camera/color/image_raw", "Color", "rgb8"),
    ] {
        let want = librealsense_frames(bag, stream);
        assert_eq!(want.len(), 12, "{stream}");
        let got = on(&live.heard, topic);
        assert_eq!(got.len(), want.len(), "{topic}: every frame, once");
        for (got, want) in got.iter().zip(&want) {
            assert_eq!(
                got["sha256"], want["sha256"],
                "{topic}: librealsense's bytes"
            );
            assert_eq!(got["size"], want["size"], "{topic}");
            assert_eq!(got["stamp_ns"].as_u64(), Some(stamp_of(want)), "{topic}");
            assert_eq!(got["encoding"], encoding, "{topic}");
            assert_eq!(
                (got["width"].as_u64(), got["height"].as_u64()),
                (Some(80), Some(60))
            );
        }
        assert!(
            live.stdout.contains(&format!("{topic:<56} {:>8}", 12)),
            "{}",
            live.stdout
        );
        // A camera_info per frame, stamped as it.
        let info_topic =
            topic.rsplit_once('/').expect("a stream topic").0.to_owned() + "/camera_info";
        let infos = on(&live.heard, &info_topic);
        assert_eq!(infos.len(), 12, "{info_topic}");
        let stamps: Vec<_> = infos.iter().map(|m| m["stamp_ns"].as_u64()).collect();
        let want_stamps: Vec<_> = want.iter().map(|f| Some(stamp_of(f))).collect();
        assert_eq!(stamps, want_stamps, "{info_topic}");
    }
    // How late each frame's publishing began against the recorded pace.
    let lateness = (live.stdout.lines())
        .find(|l| l.starts_with("frames published against the recorded pace: median "))
        .unwrap_or_else(|| panic!("a lateness line: {}", live.stdout));
    assert!(lateness.contains(" ms late ("), "{lateness}");
    // /clock runs on the stamps' clock from the first frame's stamp,
    // forward, over the recording (its pace is the frames' arrival in
    // the file, which may run up to a frame period ahead of the stamps).
    let clock: Vec<u64> = (on(&live.heard, "/clock").iter())
        .map(|m| m["stamp_ns"].as_u64().expect("a stamp"))
        .collect();
    let depth = librealsense_frames(bag, "Depth");
    let (first, last) = (stamp_of(&depth[0]), stamp_of(&depth[11]));
    let period = 33_333_334;
    assert!(clock.len() >= 10, "{clock:?}");
    assert_eq!(clock[0], first, "{clock:?}");
    assert!(clock.windows(2).all(|w| w[0] <= w[1]), "{clock:?}");
    let end = *clock.last().expect("ticks");
    assert!(
        end + period >= last && end <= last + period,
        "{clock:?}: {last}"
    );
}

#[test]
fn play_publishes_imu_samples_as_librealsense_reads_them() {
    let bag = common::root().join("tests/fixtures/librealsense-2.55.1-motion.bag");
    let bag = bag.to_str().expect("utf-8 path");
    let want = librealsense_frames(bag, "Accel");
    assert_eq!(want.len(), 3);
    let topic = "/camera/camera/accel/sample";
    let live = in_namespace(
        72,
        &["--seconds", "60", &format!("{topic}=imu:3")],
        &[
            "play",
            "--ros2",
            bag,
            "--wait-for-subscribers",
            "--timeout",
            "60",
        ],
    );
    assert_eq!(live.code, 0, "{}", live.stderr);
    let got = on(&live.heard, topic);
    assert_eq!(got.len(), 3, "{:?}", live.heard);
    for (got, want) in got.iter().zip(&want) {
        // librealsense's 3 floats, carried as doubles.
        let bytes: Vec<u8> = (got["linear_acceleration"]
            .as_array()
            .expect("a vector")
            .iter())
        .flat_map(|v| (v.as_f64().expect("a number") as f32).to_le_bytes())
        .collect();
        assert_eq!(
            format!("{:x}", Sha256::digest(&bytes)),
            want["sha256"].as_str().expect("sha"),
            "{got}"
        );
        assert_eq!(got["stamp_ns"].as_u64(), Some(stamp_of(want)));
        assert_eq!(got["angular_velocity"], serde_json::json!([0.0, 0.0, 0.0]));
    }
}

#[test]
fn play_unites_imu_samples_as_the_wrapper_does() {
    let dir = tempfile::tempdir().expect("temp dir");
    let bag = dir.path().join("media.bag");
    let bag = bag.to_str().expect("utf-8 path");
    common::python("rs_record.py", &[bag, "--scenario", "media"]);
    let topic = "/camera/camera/imu";
    for (domain, method) in [(80, "linear_interpolation"), (81, "copy")] {
        let want: Vec<Value> = (common::python("rs_united_imu.py", &[bag, method]).lines())
            .map(|l| serde_json::from_str(l).expect("a JSON line"))
            .collect();
        assert!(want.len() >= 16, "{method}: {want:?}");
        let live = in_namespace(
            domain,
            &["--seconds", "60", &format!("{topic}=imu:{}", want.len())],
            &[
                "play",
                "--ros2",
                bag,
                "--streams",
                "Gyro,Accel",
                "--unite-imu",
                method,
                "--wait-for-subscribers",
                "--timeout",
                "60",
            ],
        );
        assert_eq!(live.code, 0, "{method}: {}", live.stderr);
        assert!(
            !live.stdout.contains("/sample"),
            "{method}: only the united topic: {}",
            live.stdout
        );
        let heard = on(&live.heard, topic);
        let what = format!("{method}: {}", live.stdout);
        check_united("camera", &what, &heard, &want, heard_covariances);
    }
}

/// The three covariances of an imu line of ros2_listen.py.
fn heard_covariances(imu: &Value) -> Value {
    serde_json::json!([
        imu["orientation_covariance"],
        imu["angular_velocity_covariance"],
        imu["linear_acceleration_covariance"]
    ])
}

/// A Global Time timestamp (ms since the epoch) in ns: whole
/// milliseconds and their fraction apart, as an f64 of ms since the epoch
/// holds no finer.
fn global_ns(frame: &Value) -> u64 {
    let ms = frame["timestamp"].as_f64().expect("timestamp");
    let whole = ms.floor();
    whole as u64 * 1_000_000 + ((ms - whole) * 1e6).round() as u64
}

#[test]
fn play_publishes_a_session_of_cameras_each_under_its_namespace_on_one_timeline() {
    let dir = tempfile::tempdir().expect("temp dir");
    let dir_path = dir.path().to_str().expect("utf-8 path");
    // Two cameras recorded together by librealsense 2.55, on the host's
    // clock (Global Time): CAM-A from 0 s, CAM-B from 0.34 s, 1.5 s each.
    common::python(
        "rs_session.py",
        &[dir_path, "--cameras", "CAM-A,CAM-B", "--clock", "global"],
    );
    let a = format!("{dir_path}/CAM-A.bag");
    let b = format!("{dir_path}/CAM-B.bag");
    let streams = [
        (&a, "Depth", "depth/image_rect_raw"),
        (&a, "Color", "color/image_raw"),
        (&b, "Depth", "depth/image_rect_raw"),
    ];
    let wanted: Vec<Vec<Value>> = (streams.iter())
        .map(|(file, stream, _)| librealsense_frames(file, stream))
        .collect();
    // By default each camera under /<its name as a ROS name>; or as told.
    let runs: [(u32, [&str; 2], &[&str]); 2] = [
        (82, ["/CAM_A", "/CAM_B"], &[]),
        (
            83,
            ["/left/cam1", "/cam2"],
            &["--namespace", "/left/cam1", "--namespace", "/cam2"],
        ),
    ];
    for (domain, namespaces, flags) in runs {
        let topics: Vec<String> = (streams.iter())
            .map(|(file, _, leaf)| {
                let ns = if *file == &a {
                    namespaces[0]
                } else {
                    namespaces[1]
                };
                format!("{ns}/{leaf}")
            })
            .collect();
        let listen: Vec<String> = (topics.iter().zip(&wanted))
            .map(|(t, w)| format!("{t}=image:{}", w.len()))
            .collect();
        let mut listen: Vec<&str> = listen.iter().map(String::as_str).collect();
        listen.extend(["--seconds", "60"]);
        let mut args = vec![
            "play",
            "--ros2",
            &a,
            &b,
            "--wait-for-subscribers",
            "--timeout",
            "60",
        ];
        args.extend(flags);
        let live = in_namespace(domain, &listen, &args);
        assert_eq!(live.code, 0, "{}", live.stderr);
        for ((topic, want), (file, _, _)) in topics.iter().zip(&wanted).zip(&streams) {
            assert_eq!(want.len(), 45, "{topic}");
            let got = on(&live.heard, topic);
            assert_eq!(got.len(), want.len(), "{topic}: every frame, once");
            let camera = if *file == &a { "cam" } else { "cam2" };
            for (got, want) in got.iter().zip(want) {
                assert_eq!(
                    got["sha256"], want["sha256"],
                    "{topic}: librealsense's bytes"
                );
                // Stamped on the session's clock: the host's time.
                assert_eq!(got["stamp_ns"].as_u64(), Some(global_ns(want)), "{topic}");
                let frame_id = got["frame_id"].as_str().expect("frame id");
                let named = match (domain, camera) {
                    (82, "cam") => frame_id.starts_with("CAM_A_"),
                    (82, _) => frame_id.starts_with("CAM_B_"),
                    (_, "cam") => frame_id.starts_with("cam1_"),
                    _ => frame_id.starts_with("cam2_"),
                };
                assert!(named, "{topic}: {frame_id}");
            }
        }
        // One timeline: CAM-B, 0.34 s into CAM-A's 1.5 s, is heard while
        // CAM-A still plays (the listener takes ready topics in its own
        // order, so arrival across topics is only roughly in stamp order).
        let position = |ns: &str, last: bool| {
            let mut at = (live.heard.iter().enumerate())
                .filter(|(_, m)| m["topic"].as_str().is_some_and(|t| t.starts_with(ns)));
            let found = if last { at.next_back() } else { at.next() };
            found.map(|(i, _)| i).expect("heard")
        };
        assert!(
            position(namespaces[1], false) < position(namespaces[0], true),
            "{:?}",
            live.heard
        );
    }
}

#[test]
fn play_publishes_compressed_transports_opencv_decodes_to_librealsenses_frames() {
    let bag = common::reference("librealsense-2.55-depth-color.bag");
    let depth = librealsense_frames(bag.to_str().expect("utf-8 path"), "Depth");
    let colour_played = librealsense_frames(bag.to_str().expect("utf-8 path"), "Color");
    let colour_sha: Vec<&Value> = colour_played.iter().map(|f| &f["sha256"]).collect();
    let colour = common::jpeg::colour_frames(&bag, &colour_sha);
    let depth_topic = "/camera/camera/depth/image_rect_raw/compressedDepth";
    let colour_topic = "/camera/camera/color/image_raw/compressed";
    for (domain, codecs, colour_format, depth_format) in [
        (
            87,
            &[][..],
            "rgb8; jpeg compressed bgr8",
            "16UC1; compressedDepth png",
        ),
        (
            88,
            &["--color-codec", "png", "--depth-codec", "rvl"][..],
            "rgb8; png compressed bgr8",
            "16UC1; compressedDepth rvl",
        ),
    ] {
        let decoded = tempfile::tempdir().expect("temp dir");
        let decoded_dir = decoded.path().to_str().expect("utf-8 path");
        let mut args = vec![
            "play",
            "--ros2",
            bag.to_str().expect("utf-8 path"),
            "--wait-for-subscribers",
            "--timeout",
            "60",
            "--image-transport",
            "compressed",
        ];
        args.extend(codecs);
        let live = in_namespace(
            domain,
            &[
                "--seconds",
                "60",
                "--decoded",
                decoded_dir,
                &format!("{depth_topic}=compressed:12"),
                &format!("{colour_topic}=compressed:12"),
                "/camera/camera/color/camera_info=camera_info",
            ],
            &args,
        );
        let what = format!("{codecs:?}");
        assert_eq!(live.code, 0, "{what}: {}", live.stderr);
        // Depth: what OpenCV (PNG) or the test's RVL decoder reads back is
        // librealsense's depth, bit for bit, stamped as librealsense reads it.
        let heard = on(&live.heard, depth_topic);
        assert_eq!(heard.len(), 12, "{what}: every depth frame, once");
        for (got, want) in heard.iter().zip(&depth) {
            assert_eq!(got["format"], depth_format, "{what}");
            assert_eq!(got["sha256"], want["sha256"], "{what}: depth");
            assert_eq!(got["stamp_ns"].as_u64(), Some(stamp_of(want)), "{what}");
        }
        // Colour: PNG exact, JPEG within its PSNR.
        let heard = on(&live.heard, colour_topic);
        assert_eq!(heard.len(), 12, "{what}: every colour frame, once");
        assert!(heard.iter().all(|m| m["format"] == colour_format), "{what}");
        let stamps: Vec<_> = heard.iter().map(|m| m["stamp_ns"].as_u64()).collect();
        let want: Vec<_> = colour_played.iter().map(|f| Some(stamp_of(f))).collect();
        assert_eq!(stamps, want, "{what}");
        if colour_format.contains("png") {
            let sha: Vec<&Value> = heard.iter().map(|m| &m["sha256"]).collect();
            assert_eq!(sha, colour_sha, "{what}: PNG colour");
        } else {
            let raw = std::fs::read(
                decoded
                    .path()
                    .join("camera_camera_color_image_raw_compressed.raw"),
            )
            .expect("the decoded colour");
            let worst = common::jpeg::worst_psnr(&colour, &raw);
            common::jpeg::assert_near_opencv(&colour, (80, 60), 95, worst, &what);
        }
        assert_eq!(
            on(&live.heard, "/camera/camera/color/camera_info").len(),
            12,
            "{what}: camera_info as with raw images"
        );
    }
}

#[test]
fn image_transport_options_go_with_ros2_and_together() {
    let bag = common::reference("librealsense-2.55-depth-color.bag");
    let bag = bag.to_str().expect("utf-8 path");
    for (args, said) in [
        (
            vec!["play", bag, "--image-transport", "compressed"],
            "--image-transport and its codecs go with --ros2",
        ),
        (
            vec!["play", "--ros2", bag, "--depth-codec", "rvl"],
            "go with --image-transport compressed",
        ),
        (
            vec![
                "play",
                "--ros2",
                bag,
                "--image-transport",
                "compressed",
                "--color-codec",
                "png",
                "--jpeg-quality",
                "80",
            ],
            "--jpeg-quality goes with --color-codec jpeg",
        ),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_rsbag"))
            .args(&args)
            .env_remove("RSBAG_ROS2")
            .output_in_time()
            .expect("run rsbag");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(stderr.contains(said), "{args:?}: {stderr}");
    }
}

#[test]
fn play_unites_each_cameras_imu_of_a_session_and_compresses_its_images() {
    // CAM-E has an IMU and CAM-A none (as two wrapper nodes would run
    // them): CAM-E's samples are united on its `imu` topic at their
    // session time (Global Time: their own timestamps), CAM-A publishes
    // no IMU topic.
    let recorded = crate::librealsense_session::record_with_imu("global");
    let [cam_a, cam_e] = &recorded.cameras[..] else {
        panic!("two cameras: {:?}", recorded.cameras);
    };
    let (a, e) = (
        cam_a["file"].as_str().expect("file"),
        cam_e["file"].as_str().expect("file"),
    );
    let want: Vec<Value> = (common::python("rs_united_imu.py", &[e, "linear_interpolation"]))
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    let images = [
        (
            cam_a,
            "Depth",
            "/CAM_A/depth/image_rect_raw/compressedDepth",
        ),
        (cam_a, "Color", "/CAM_A/color/image_raw/compressed"),
        (
            cam_e,
            "Depth",
            "/CAM_E/depth/image_rect_raw/compressedDepth",
        ),
    ];
    let mut listen: Vec<String> = vec!["--seconds".into(), "60".into()];
    listen.push(format!("/CAM_E/imu=imu:{}", want.len()));
    listen.push("/CAM_A/imu=imu".into());
    for (camera, stream, topic) in images {
        listen.push(format!(
            "{topic}=compressed:{}",
            fed_sha256(camera, stream).len()
        ));
    }
    let listen: Vec<&str> = listen.iter().map(String::as_str).collect();
    let live = in_namespace(
        89,
        &listen,
        &[
            &["play", "--ros2", a, e][..],
            &SESSION_UNITED_AND_COMPRESSED,
            &["--wait-for-subscribers", "--timeout", "60"],
        ]
        .concat(),
    );
    assert_eq!(live.code, 0, "{}", live.stderr);
    assert!(
        !live.stdout.contains("/sample") && !live.stdout.contains("/CAM_A/imu"),
        "{}",
        live.stdout
    );
    let heard = on(&live.heard, "/CAM_E/imu");
    check_united("CAM_E", "CAM_E", &heard, &want, heard_covariances);
    for (camera, stream, topic) in images {
        let decoded: Vec<Value> = (on(&live.heard, topic).iter())
            .map(|m| m["sha256"].clone())
            .collect();
        assert_eq!(decoded, fed_sha256(camera, stream), "{topic}");
    }
}

#[test]
fn play_waits_for_subscribers_only_as_long_as_told() {
    let bag = common::reference("librealsense-2.55-depth-color.bag");
    let live = in_namespace(
        73,
        &[],
        &[
            "play",
            "--ros2",
            bag.to_str().expect("utf-8 path"),
            "--wait-for-subscribers",
            "--timeout",
            "1",
        ],
    );
    assert_eq!(live.code, 1, "{}", live.stderr);
    assert!(
        live.stderr.contains("no subscriber matched")
            && live.stderr.contains("/camera/camera/depth/image_rect_raw")
            && live.stderr.contains("--timeout 1 s"),
        "{}",
        live.stderr
    );
}

#[test]
fn without_ros2_play_says_what_to_source_or_install() {
    let bag = common::reference("librealsense-2.55-depth-color.bag");
    let out = Command::new(env!("CARGO_BIN_EXE_rsbag"))
        .args(["play", "--ros2", bag.to_str().expect("utf-8 path")])
        .env_remove("LD_LIBRARY_PATH")
        .env_remove("AMENT_PREFIX_PATH")
        .env_remove("RSBAG_ROS2")
        .output_in_time()
        .expect("run rsbag");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("ROS 2 is not available")
            && stderr.contains("source your ROS 2 install")
            && stderr.contains("RSBAG_ROS2")
            && stderr.lines().count() == 1,
        "{stderr}"
    );
}

/// [`record_published`] of FRAMES frames.
fn record_then(domain: u32, frames: u32, args: &[&str], then: &str) -> (Live, Vec<Value>) {
    record_published(domain, &[&frames.to_string()], args, then)
}

/// In a private network namespace on domain `domain`: `rsbag record
/// --ros2 args` while `ros2_wrapper_publish.py publish...` (its frame
/// count and options) publishes as the wrapper does, then `then` in the
/// shell once the publisher is done (`$rsbag` is rsbag's process id);
/// rsbag's run and the frames published.
fn record_published(
    domain: u32,
    publish: &[&str],
    args: &[&str],
    then: &str,
) -> (Live, Vec<Value>) {
    let venv = venv();
    let dir = tempfile::tempdir().expect("temp dir");
    let quote = |s: &str| format!("'{}'", s.replace('\'', r"'\''"));
    let script = format!(
        "RSBAG_ROS2={} LD_PRELOAD={} {} {} > {d}/out 2> {d}/err &\nrsbag=$!\n\
         {} {} {} > {d}/heard 2> {d}/publisher.err\n{then}\n\
         wait $rsbag; echo $? > {d}/code\n",
        quote(&venv.to_string_lossy()),
        quote(&libpython(&venv)),
        quote(env!("CARGO_BIN_EXE_rsbag")),
        args.iter().map(|a| quote(a)).collect::<Vec<_>>().join(" "),
        quote(&venv.join("bin/python").to_string_lossy()),
        quote(
            &common::root()
                .join("tests/interop/ros2_wrapper_publish.py")
                .to_string_lossy()
        ),
        publish
            .iter()
            .map(|a| quote(a))
            .collect::<Vec<_>>()
            .join(" "),
        d = dir.path().display(),
    );
    let status = in_private_network(domain, &script)
        .output_in_time()
        .expect("run unshare")
        .status;
    assert!(status.success(), "the namespace's script failed: {status}");
    let read = |name: &str| std::fs::read_to_string(dir.path().join(name)).unwrap_or_default();
    let published: Vec<Value> = (read("heard").lines())
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    let live = Live {
        code: read("code").trim().parse().expect("rsbag's exit code"),
        stdout: read("out"),
        stderr: read("err") + &read("publisher.err"),
        heard: Vec::new(),
    };
    (live, published)
}

/// (stream, sha256) of every frame, in order per stream.
fn frame_hashes(frames: &[Value]) -> Vec<(String, String)> {
    let mut out: Vec<(String, u64, String)> = frames
        .iter()
        .map(|f| {
            (
                f["stream"].as_str().expect("stream").to_owned(),
                f["frame_number"]
                    .as_u64()
                    .or(f["frame"].as_u64())
                    .expect("number"),
                f["sha256"].as_str().expect("sha").to_owned(),
            )
        })
        .collect();
    out.sort();
    out.into_iter().map(|(s, _, h)| (s, h)).collect()
}

/// librealsense's `rs_play.py` of `out` with `args`: 2.59 for a `.db3`,
/// 2.55 for a `.bag`.
fn rs_play(out: &str, args: &[&str]) -> String {
    let args: Vec<&str> = [out].iter().chain(args).copied().collect();
    if out.ends_with(".db3") {
        common::python259("rs_play.py", &args)
    } else {
        common::python("rs_play.py", &args)
    }
}

/// Record, on DDS domain `domain`, `ros2_wrapper_publish.py 12 publish...`
/// into `name`, and check that librealsense plays every published frame,
/// exact, once, in order, with the camera_info's intrinsics.
fn record_and_play(domain: u32, name: &str, publish: &[&str]) {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join(name);
    let out = out.to_str().expect("utf-8 path");
    let publish: Vec<&str> = ["12"].iter().chain(publish).copied().collect();
    let (live, published) = record_published(
        domain,
        &publish,
        &["record", "--ros2", "--out", out, "--duration", "8"],
        "",
    );
    assert_eq!(live.code, 0, "{name}: {}", live.stderr);
    assert_eq!(published.len(), 24, "{name}: {}", live.stderr);
    assert!(
        live.stdout.contains("24 frames (Depth 0 12, Color 0 12)"),
        "{name}: {}",
        live.stdout
    );
    let played: Vec<Value> = (rs_play(out, &[]).lines())
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(frame_hashes(&played), frame_hashes(&published), "{name}");
    let device: Value =
        serde_json::from_str(&rs_play(out, &["--device-json"])).expect("the device as JSON");
    let profiles: Vec<&Value> = (device["sensors"].as_array().expect("sensors").iter())
        .flat_map(|s| s["profiles"].as_array().expect("profiles"))
        .collect();
    assert_eq!(profiles.len(), 2, "{name}: {device}");
    for p in profiles {
        let i = &p["intrinsics"];
        assert_eq!(
            (&i["fx"], &i["fy"], &i["ppx"], &i["ppy"]),
            (
                &Value::from(50.0),
                &Value::from(51.0),
                &Value::from(32.0),
                &Value::from(24.0)
            ),
            "{name}: {p}"
        );
    }
    assert!(
        !dir.path().join(format!("{name}.ros2-capture")).exists(),
        "{name}: the capture is removed"
    );
}

#[test]
fn record_writes_a_wrapper_camera_into_recordings_librealsense_plays() {
    record_and_play(74, "wrapper.bag", &[]);
    record_and_play(75, "wrapper.db3", &[]);
}

/// `--no-compression` writes what `record` writes with it: uncompressed
/// chunks in a `.bag`, raw images in a `.db3`.
#[test]
fn record_without_compression_writes_uncompressed_recordings() {
    for (domain, name) in [(90, "raw.bag"), (91, "raw.db3")] {
        let dir = tempfile::tempdir().expect("temp dir");
        let out = dir.path().join(name);
        let out = out.to_str().expect("utf-8 path");
        let (live, _) = record_published(
            domain,
            &["4"],
            &[
                "record",
                "--ros2",
                "--no-compression",
                "--duration",
                "6",
                "--out",
                out,
            ],
            "",
        );
        assert_eq!(live.code, 0, "{name}: {}", live.stderr);
        let info = rsbag(&["info", out]).stdout;
        let uncompressed = info.lines().any(|line| {
            match line.split_whitespace().collect::<Vec<_>>()[..] {
                // Every chunk: `chunks: N (N none)`.
                ["chunks:", n, all, "none)"] => all == format!("({n}"),
                ["image", "topics:", "2", "none"] => true,
                _ => false,
            }
        });
        assert!(uncompressed, "{name}: {info}");
    }
}

/// The options of the cameras `record` runs itself mean nothing to a
/// camera in a ROS 2 graph: refused, not ignored.
#[test]
fn record_refuses_options_of_its_own_cameras() {
    for option in [
        &["--split-size", "10"][..],
        &["--split-duration", "5"],
        &["--max-pieces", "2"],
        &["--streams", "depth"],
        &["--depth", "640x480@30"],
        &["--color", "640x480@30"],
        &["--option", "Stereo Module.Laser Power=150"],
    ] {
        let args: Vec<&str> = (["record", "--ros2", "--out", "x.bag"].iter())
            .chain(option)
            .copied()
            .collect();
        let run = rsbag(&args);
        assert_eq!(run.code, Some(2), "{option:?}: {}", run.stderr);
        assert!(
            run.stderr.contains("cannot be used with") && run.stderr.contains(option[0]),
            "{option:?}: {}",
            run.stderr
        );
    }
}

#[test]
fn record_takes_image_transports_compressed_topics() {
    // Lossless codecs (PNG colour; PNG and RVL depth), so that what
    // librealsense plays is what the stand-in published, bit for bit.
    record_and_play(85, "compressed.bag", &["--compressed", "png", "png"]);
    record_and_play(86, "compressed.db3", &["--compressed", "png", "rvl"]);
}

#[test]
fn record_counts_what_a_full_queue_drops_and_writes_the_rest() {
    // A cache of 9000 bytes holds a 64x48 depth image (6144 bytes) but
    // never a colour one (9216): every colour image is dropped, a depth
    // image whenever the writer has not yet taken what is queued.
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("dropped.bag");
    let out = out.to_str().expect("utf-8 path");
    // Ended by Ctrl-C once everything is published, however long the
    // publisher waited for discovery.
    let (live, published) = record_then(
        84,
        12,
        &[
            "record",
            "--ros2",
            "--out",
            out,
            "--duration",
            "100",
            "--max-cache-size",
            "9000",
        ],
        "kill -INT $rsbag",
    );
    assert_eq!(live.code, 1, "{}", live.stderr);
    assert_eq!(published.len(), 24, "{}", live.stderr);
    let reported = (live.stderr.lines())
        .find_map(|l| l.strip_prefix("rsbag: messages were dropped (writing could not keep up): "))
        .unwrap_or_else(|| panic!("{}", live.stderr));
    let dropped = |topic: &str| -> u64 {
        (reported.split(", "))
            .find_map(|t| t.strip_prefix(&format!("{topic} ")))
            .map_or(0, |n| n.parse().expect("a count"))
    };
    assert_eq!(dropped("/camera/camera/color/image_raw"), 12, "{reported}");
    let depth_dropped = dropped("/camera/camera/depth/image_rect_raw");
    // The file is written all the same, and says what it holds.
    let written: u64 = (live.stdout.lines())
        .find_map(|l| l.split_once(" frames (Depth 0 ").map(|(_, n)| n))
        .and_then(|n| n.trim_end_matches(')').split(',').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{}", live.stdout));
    assert_eq!(written + depth_dropped, 12, "{}: {reported}", live.stdout);
    assert!(written > 0, "{}", live.stdout);
    // librealsense 2.55 plays the frames written, exact, in order: the
    // published depth frames less those dropped.
    let played: Vec<Value> = (common::python("rs_play.py", &[out]).lines())
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    let played = frame_hashes(&played);
    assert_eq!(played.len() as u64, written, "{played:?}");
    let published_depth: Vec<(String, String)> = (frame_hashes(&published).into_iter())
        .filter(|(s, _)| s == "Depth")
        .collect();
    let mut rest = published_depth.iter();
    for frame in &played {
        assert!(
            rest.any(|p| p == frame),
            "{frame:?} was not published, or out of order"
        );
    }
}

#[test]
fn record_without_a_camera_says_nothing_arrived_and_leaves_nothing() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("none.bag");
    let live = in_namespace(
        76,
        &[],
        &[
            "record",
            "--ros2",
            "--out",
            out.to_str().expect("utf-8 path"),
            "--duration",
            "1",
        ],
    );
    assert_eq!(live.code, 1, "{}", live.stderr);
    assert!(
        live.stderr.contains("no message arrived"),
        "{}",
        live.stderr
    );
    assert_eq!(
        std::fs::read_dir(dir.path()).expect("dir").count(),
        0,
        "nothing left behind"
    );
}

#[test]
fn record_finishes_the_file_on_ctrl_c() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("interrupted.bag");
    let out = out.to_str().expect("utf-8 path");
    let (live, published) = record_then(
        77,
        6,
        &["record", "--ros2", "--out", out, "--duration", "100"],
        "kill -INT $rsbag",
    );
    assert_eq!(live.code, 0, "{}", live.stderr);
    let played: Vec<Value> = (common::python("rs_play.py", &[out]).lines())
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(frame_hashes(&played), frame_hashes(&published));
    assert_eq!(published.len(), 12);
}

#[test]
fn an_rmw_that_is_not_installed_is_a_clear_error() {
    // It fails before any node is made: no DDS traffic to fence in.
    let venv = venv();
    let bag = common::reference("librealsense-2.55-depth-color.bag");
    let out = Command::new(env!("CARGO_BIN_EXE_rsbag"))
        .args(["play", "--ros2", bag.to_str().expect("utf-8 path")])
        .env("RSBAG_ROS2", &venv)
        .env("LD_PRELOAD", libpython(&venv))
        .env("RMW_IMPLEMENTATION", "rmw_no_such_dds_cpp")
        .env_remove("LD_LIBRARY_PATH")
        .output_in_time()
        .expect("run rsbag");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("librmw_no_such_dds_cpp.so")
            && stderr.contains("RMW_IMPLEMENTATION names an RMW that cannot be loaded"),
        "{stderr}"
    );
}

/// Run `script` (a shell script) in a private network namespace on
/// domain `domain`, in a temporary directory, with `$RSBAG` the tool
/// pointed at the ROS 2 venv and `$BAG` the librealsense 2.55 reference
/// recording; its stdout.
fn shell_in_namespace(domain: u32, script: &str) -> String {
    let venv = venv();
    let dir = tempfile::tempdir().expect("temp dir");
    let bag = common::reference("librealsense-2.55-depth-color.bag");
    let out = in_private_network(domain, script)
        .env("RSBAG_ROS2", &venv)
        .env("LD_PRELOAD", libpython(&venv))
        .env("RSBAG", env!("CARGO_BIN_EXE_rsbag"))
        .env("BAG", bag)
        .current_dir(dir.path())
        .output_in_time()
        .expect("run unshare");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("text")
}

#[test]
fn ctrl_c_ends_a_looped_play_with_its_report() {
    let out = shell_in_namespace(
        78,
        "\"$RSBAG\" play --ros2 --loop \"$BAG\" > out 2> err & pid=$!\n\
         sleep 3\nkill -INT $pid\nwait $pid\necho \"exit $?\"\ncat out\n",
    );
    assert!(out.starts_with("exit 0\n"), "{out}");
    // Looped: more than one pass's 12 frames.
    let images: u64 = (out.lines())
        .find(|l| l.starts_with("/camera/camera/depth/image_rect_raw "))
        .and_then(|l| l.split_whitespace().last())
        .and_then(|n| n.parse().ok())
        .expect("the report");
    assert!(images > 12, "{out}");
}

#[test]
fn space_on_a_terminal_pauses_and_resumes_play() {
    // On a terminal (`script` gives rsbag one): space after 1.5 s, space
    // again 2 s later; at --speed 0.1 the recording's 0.37 s take 3.7 s,
    // so the run takes the pause's 2 s longer, and every frame is there.
    let out = shell_in_namespace(
        79,
        "printf 's=$(date +%%s%%N); \"$RSBAG\" play --ros2 --speed 0.1 \"$BAG\" > out 2> err; \
         echo \"exit $? ms $(( ($(date +%%s%%N) - s) / 1000000 ))\" >> out\\n' > run.sh\n\
         (sleep 1.5; printf ' '; sleep 2; printf ' '; sleep 8) | script -qec 'bash run.sh' /dev/null > /dev/null\n\
         cat out err\n",
    );
    let ms: u64 = (out.lines())
        .find_map(|l| l.strip_prefix("exit 0 ms "))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{out}"));
    // 3.7 s of playing and about 2 s paused; the keys' timing on a busy
    // machine moves the pause's length by a little, not by 1.5 s.
    assert!(ms >= 5_200, "{ms} ms: {out}");
    assert!(out.contains("rsbag: paused (space resumes)"), "{out}");
    assert!(
        out.contains(&format!(
            "{:<56} {:>8}",
            "/camera/camera/color/image_raw", 12
        )),
        "{out}"
    );
}
