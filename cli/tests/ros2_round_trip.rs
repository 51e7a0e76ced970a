//! `rsbag check` of a recording exported to ROS 2 agrees with `check` of
//! the recording: the frames read back carry their recorded numbers,
//! timestamps and domains (from the export's Metadata topics).

use crate::common;
use crate::run;

use std::path::Path;

fn s(path: &Path) -> &str {
    path.to_str().expect("utf-8 path")
}

#[test]
fn a_ros2_export_checks_as_its_source_does() {
    let dir = tempfile::tempdir().expect("tempdir");
    let source = common::sample("rsbag-synthetic-lz4.bag");
    let table = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| !l.starts_with("file:"))
            .map(str::to_owned)
            .collect()
    };
    let expected = table(&run::ok(&["check", s(&source)]));
    for storage in ["sqlite3", "mcap"] {
        let out = dir.path().join(storage);
        run::ok(&[
            "convert",
            s(&source),
            "--to",
            "ros2",
            "--storage",
            storage,
            "--out",
            s(&out),
        ]);
        let check = run::rsbag(&["check", s(&out)]);
        assert_eq!(check.code, Some(0), "{storage}: {}", check.stdout);
        assert_eq!(table(&check.stdout), expected, "{storage}");
        let frames = |path: &Path| run::ok(&["frames", s(path), "--json"]);
        assert_eq!(frames(&out), frames(&source), "{storage}: frames --json");
    }
}
