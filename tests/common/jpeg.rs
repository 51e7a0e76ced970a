//! How the tests judge a JPEG that rsbag encodes: by its peak
//! signal-to-noise ratio against the source frames, next to that of
//! OpenCV's own encoder (image_transport's plugin) on the same frames.

use std::path::Path;

use serde_json::Value;
use sha2::{Digest, Sha256};

/// How much lower (dB) the PSNR of rsbag's JPEG may be than that of
/// OpenCV's own encoder at the same quality, on the same frames
/// (measured: 0.9 dB lower at quality 95 on the sample's colour pattern,
/// whose sharp colour edges 4:2:0 chroma blurs: 18.5 against 19.4 dB).
pub const PSNR_BELOW_OPENCV_AT_MOST: f64 = 1.5;

/// The peak signal-to-noise ratio (dB) of 8-bit `decoded` against
/// `source`.
pub fn psnr(source: &[u8], decoded: &[u8]) -> f64 {
    assert_eq!(source.len(), decoded.len());
    let squared: f64 = source
        .iter()
        .zip(decoded)
        .map(|(a, b)| (f64::from(*a) - f64::from(*b)).powi(2))
        .sum();
    let mse = squared / source.len() as f64;
    10.0 * (255.0f64 * 255.0 / mse.max(1e-12)).log10()
}

/// The lowest PSNR of the frames of `decoded` (each as large as a frame of
/// `source`) against `source`'s.
pub fn worst_psnr(source: &[Vec<u8>], decoded: &[u8]) -> f64 {
    let size = source[0].len();
    assert_eq!(
        decoded.len(),
        size * source.len(),
        "one decoded frame a source frame"
    );
    (source.iter().enumerate())
        .map(|(k, frame)| psnr(frame, &decoded[k * size..(k + 1) * size]))
        .fold(f64::INFINITY, f64::min)
}

/// Assert that `worst` (dB, rsbag's JPEG at `quality` of the rgb8 frames
/// `source`, `width` x `height`) is within [`PSNR_BELOW_OPENCV_AT_MOST`]
/// of OpenCV's own JPEG of the same frames (`jpeg_psnr.py`).
pub fn assert_near_opencv(
    source: &[Vec<u8>],
    (width, height): (usize, usize),
    quality: u8,
    worst: f64,
    what: &str,
) {
    let dir = tempfile::tempdir().expect("temp dir");
    let raw = dir.path().join("colour.raw");
    std::fs::write(&raw, source.concat()).expect("write the source frames");
    let opencv: Value = serde_json::from_str(&super::python(
        "jpeg_psnr.py",
        &[
            path(&raw),
            &width.to_string(),
            &height.to_string(),
            &quality.to_string(),
        ],
    ))
    .expect("OpenCV's PSNR");
    let reference = opencv["min_db"].as_f64().expect("dB");
    eprintln!(
        "{what}: colour JPEG (quality {quality}) decoded by OpenCV: PSNR at least {worst:.1} dB; \
         OpenCV's own JPEG of the frames: {reference:.1} dB"
    );
    assert!(
        worst >= reference - PSNR_BELOW_OPENCV_AT_MOST,
        "{what}: PSNR {worst:.1} dB, OpenCV's {reference:.1} dB"
    );
}

/// The colour frames of the recording `path` as rsbag reads them, checked
/// to be the bytes librealsense plays (`sha256s`, in order).
pub fn colour_frames(path: &Path, sha256s: &[&Value]) -> Vec<Vec<u8>> {
    let recording = rsbag::recording::Recording::open(path).expect("open");
    let mut colour: Vec<Vec<u8>> = Vec::new();
    for event in recording.select().controls(false).events() {
        if let rsbag::recording::Event::Frame { frame, .. } = event.expect("event").event {
            if frame.profile.stream.kind == rsbag::device::StreamKind::Color {
                colour.push(frame.data.to_vec());
            }
        }
    }
    let ours: Vec<Value> = (colour.iter())
        .map(|c| Value::from(format!("{:x}", Sha256::digest(c))))
        .collect();
    assert_eq!(
        ours.iter().collect::<Vec<_>>(),
        sha256s,
        "{}: the colour frames librealsense plays",
        path.display()
    );
    colour
}

fn path(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}
