//! A depth+color recording with planted flaws, for the tests of `check`
//! and `view`.
// Each test binary uses a part of it.
#![allow(dead_code)]

use std::path::Path;

use rsbag::device::StreamKind;
use rsbag::record::rs_writer::RsWriter;

use crate::common;

/// Write a depth+color recording whose frames are `(stream, n)` in this
/// order: frame `n` has number `n + 1` and timestamp `1000 + 33.3 n` ms.
pub fn write(path: &Path, frames: &[(StreamKind, u64)]) {
    let mut w = RsWriter::create(path, Default::default()).expect("create");
    let (depth, color) = (common::rs::depth_profile(), common::rs::color_profile());
    w.write_device_info(&rsbag::device::CameraInfo::new([("Name", "Test")]))
        .expect("info");
    for (sensor, name, profile) in [(0, "Stereo Module", depth), (1, "RGB Camera", color)] {
        w.write_sensor_info(sensor, &rsbag::device::CameraInfo::new([("Name", name)]))
            .expect("info");
        w.write_stream_info(sensor, &profile, 0).expect("stream");
    }
    for (k, &(kind, n)) in frames.iter().enumerate() {
        let (sensor, profile) = if kind == StreamKind::Depth {
            (0, depth)
        } else {
            (1, color)
        };
        let at = (k as u64 + 1) * 1_000_000;
        w.write_frame(sensor, &common::rs::frame(profile, n), 0.001, at)
            .expect("frame");
    }
    w.finish().expect("finish");
}

/// The frames of [`write`] with flaws: depth loses frames 5 and 6 (numbers
/// 6, 7) and 10 (number 11); color has frame 3 twice and frames 8 and 9
/// swapped.
pub fn flawed() -> Vec<(StreamKind, u64)> {
    let (d, c) = (StreamKind::Depth, StreamKind::Color);
    let mut frames: Vec<(StreamKind, u64)> = Vec::new();
    for n in 0..12 {
        if ![5, 6, 10].contains(&n) {
            frames.push((d, n));
        }
        let color = match n {
            8 => 9,
            9 => 8,
            n => n,
        };
        frames.push((c, color));
        if n == 3 {
            frames.push((c, 3));
        }
    }
    frames
}
