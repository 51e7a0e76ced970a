//! A depth+color recording with planted flaws, for the tests of `check`
//! and `view`.
// Each test binary uses a part of it.
#![allow(dead_code)]

use std::path::Path;

use rsbag::device::{Notification, OptionRange, SensorOption, StreamKind};
use rsbag::record::RsWriter;

use crate::common;

/// Something besides frames a recording can hold.
pub enum Control {
    /// The stereo module's option changes value.
    Option(&'static str, f32),
    /// The stereo module raises a notification.
    Notification(&'static str),
}

/// Write a depth+color recording whose frames are `(stream, n)` in this
/// order: frame `n` has number `n + 1` and timestamp `1000 + 33.3 n` ms.
pub fn write(path: &Path, frames: &[(StreamKind, u64)]) {
    write_with_controls(path, frames, &[]);
}

/// As [`write`], with each `(k, control)` written with the k-th frame.
pub fn write_with_controls(
    path: &Path,
    frames: &[(StreamKind, u64)],
    controls: &[(usize, Control)],
) {
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
        for (_, control) in controls.iter().filter(|(at_frame, _)| *at_frame == k) {
            write_control(&mut w, control, at);
        }
    }
    w.finish().expect("finish");
}

fn write_control(w: &mut RsWriter, control: &Control, at: u64) {
    match *control {
        Control::Option(name, value) => {
            let option = SensorOption {
                name: name.into(),
                value,
                range: OptionRange {
                    min: 0.0,
                    max: 10000.0,
                    step: 1.0,
                    default: value,
                },
                description: String::new(),
                read_only: false,
            };
            w.write_option(0, &option, at).expect("option");
        }
        Control::Notification(description) => {
            let notification = Notification {
                category: "Hardware Error".into(),
                severity: "Warn".into(),
                description: description.into(),
                timestamp: 1_700_000_000_000.0,
                serialized_data: String::new(),
            };
            w.write_notification(0, &notification, at)
                .expect("notification");
        }
    }
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
