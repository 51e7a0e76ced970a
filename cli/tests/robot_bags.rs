//! Camera bags recorded on a robot (tests/interop/ros_camera_bag.py
//! `--scenario robot`: the wrapper's camera, a second camera's colour, a
//! lidar's /scan, /tf and the robot's /odom), written by rosbags as ROS1,
//! sqlite3 and MCAP: `trim` and `convert --camera <the wrapper's> --to
//! ros2` carry the topics that are not the cameras' byte for byte (read back by rosbags, or sqlite3
//! for a bare .db3; a ROS1 bag's in a ROS 2 bag as rosbags' `ros1_to_cdr`
//! converts them), and `--other-topics drop` leaves them out.

use crate::common;
use crate::run;

use std::path::{Path, PathBuf};

use rsbag::recording::Recording;
use serde_json::Value;

const OTHER: [&str; 3] = ["/scan", "/tf", "/odom"];

fn s(path: &Path) -> &str {
    path.to_str().expect("utf-8 path")
}

fn robot_bag(dir: &Path, format: &str) -> PathBuf {
    let path = dir.join(match format {
        "ros1" => "robot.bag".to_owned(),
        "db3" => "robot.db3".to_owned(),
        _ => format!("robot_{format}"),
    });
    common::python(
        "ros_camera_bag.py",
        &[s(&path), "--format", format, "--scenario", "robot"],
    );
    path
}

/// The topics of `bag` (rosbags / sqlite3), of `topics` (all when empty).
fn topics(bag: &Path, topics: &[&str], extra: &[&str]) -> serde_json::Map<String, Value> {
    let list = topics.join(",");
    let mut args = vec![s(bag), "--topics", &list];
    args.extend_from_slice(extra);
    let out = common::python("bag_topics.py", &args);
    match serde_json::from_str(&out).expect("json") {
        Value::Object(map) => map,
        other => panic!("not an object: {other}"),
    }
}

/// `copy`'s other topics are `source`'s (but for QoS profiles where
/// `source` is a ROS1 bag, which has none to keep).
fn assert_carried(
    what: &str,
    copy: &serde_json::Map<String, Value>,
    source: &serde_json::Map<String, Value>,
    ros1: bool,
) {
    for topic in OTHER {
        let (mut got, want) = (copy[topic].clone(), &source[topic]);
        if ros1 {
            got["offered_qos_profiles"] = want["offered_qos_profiles"].clone();
        } else if topic == "/tf" {
            let qos = want["offered_qos_profiles"].as_str().expect("qos");
            assert!(
                qos.contains("depth: 100"),
                "{what}: the source's /tf QoS: {qos}"
            );
        }
        let got = &got;
        assert!(
            !want["messages"].as_array().expect("messages").is_empty(),
            "{what}: {topic} has messages in the source"
        );
        assert_eq!(got, want, "{what}: {topic}");
    }
}

#[test]
fn a_robot_bags_other_topics_survive_trim_byte_for_byte_or_are_dropped() {
    let dir = tempfile::tempdir().expect("tempdir");
    for format in ["ros1", "db3", "mcap"] {
        let path = robot_bag(dir.path(), format);
        let info = run::ok(&["info", s(&path)]);
        for topic in OTHER {
            assert!(
                info.contains(&format!("{topic} (")) && info.contains("not a camera topic"),
                "{format}: {info}"
            );
        }
        assert!(
            run::ok(&["check", s(&path)]).contains("result:  OK"),
            "{format}"
        );
        let start = Recording::open(&path)
            .expect("open")
            .start_time()
            .as_nanos();
        let window = [start.to_string(), (start + 100_000_000).to_string()];
        let source = topics(&path, &OTHER, &["--window", &window[0], &window[1]]);
        let out = |name: &str| match format {
            "ros1" => dir.path().join(format!("{format}-{name}.bag")),
            _ => dir.path().join(format!("{format}-{name}")),
        };
        let kept = out("keep");
        run::ok(&["trim", s(&path), "--out", s(&kept), "--duration", "0.1"]);
        let copy = topics(&kept, &[], &[]);
        assert_carried(&format!("{format} trim"), &copy, &source, format == "ros1");
        // The camera was cut to the same time.
        let color = copy
            .iter()
            .find(|(t, _)| t.ends_with("/color/image_raw") && !t.contains("camera2"))
            .map(|(_, v)| v["messages"].as_array().expect("messages").len());
        assert_eq!(color, Some(4), "{format}: colour frames in 0.1 s at 30 fps");
        let dropped = out("drop");
        run::ok(&[
            "trim",
            s(&path),
            "--out",
            s(&dropped),
            "--duration",
            "0.1",
            "--other-topics",
            "drop",
        ]);
        let copy = topics(&dropped, &[], &[]);
        for topic in OTHER {
            assert!(!copy.contains_key(topic), "{format} drop: {topic}");
        }
        assert!(
            copy.contains_key("/tf_static"),
            "{format} drop: the camera's tf"
        );
        // The trimmed copy is itself a camera bag.
        let check = run::ok(&["check", s(&kept)]);
        assert!(check.contains("result:  OK"), "{format}: {check}");
    }
}

#[test]
fn a_robot_bags_other_topics_reach_the_ros2_export_byte_for_byte_or_are_dropped() {
    let dir = tempfile::tempdir().expect("tempdir");
    for format in ["ros1", "db3", "mcap"] {
        let path = robot_bag(dir.path(), format);
        // A ROS1 bag's messages in ROS 2's form, as rosbags converts them.
        let source = topics(&path, &OTHER, &["--ros2-form"]);
        // The bag has a second camera: the wrapper's is chosen.
        let camera = if format == "ros1" {
            "/camera"
        } else {
            "/camera/camera"
        };
        for storage in ["sqlite3", "mcap"] {
            let out = dir.path().join(format!("{format}-{storage}"));
            run::ok(&[
                "convert",
                s(&path),
                "--camera",
                camera,
                "--to",
                "ros2",
                "--storage",
                storage,
                "--out",
                s(&out),
            ]);
            let copy = topics(&out, &[], &[]);
            assert_carried(
                &format!("{format} → ros2 {storage}"),
                &copy,
                &source,
                format == "ros1",
            );
            assert!(copy.contains_key("/camera/camera/color/image_raw"));
        }
        let out = dir.path().join(format!("{format}-drop"));
        run::ok(&[
            "convert",
            s(&path),
            "--camera",
            camera,
            "--to",
            "ros2",
            "--out",
            s(&out),
            "--other-topics",
            "drop",
        ]);
        let copy = topics(&out, &[], &[]);
        for topic in OTHER {
            assert!(!copy.contains_key(topic), "{format} drop: {topic}");
        }
    }
}

#[test]
fn other_topics_is_refused_where_it_means_nothing() {
    let bag = common::sample("librealsense-depth-color-lz4.bag");
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("t.bag");
    let run = run::rsbag(&["trim", s(&bag), "--out", s(&out), "--other-topics", "drop"]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert!(
        run.stderr.contains("camera bags recorded from ROS"),
        "{}",
        run.stderr
    );
    assert!(!out.exists());
    let run = run::rsbag(&[
        "convert",
        s(&bag),
        "--to",
        "db3",
        "--out",
        s(&dir.path().join("c.db3")),
        "--other-topics",
        "keep",
    ]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert!(
        run.stderr.contains("--other-topics goes with --to ros2"),
        "{}",
        run.stderr
    );
}
