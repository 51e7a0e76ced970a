//! The shortest program that wraps a device and records it.
//!
//! ```text
//! cargo run --release --example record_synthetic -- out.bag
//! ```

use std::sync::Arc;
use std::time::Duration;

use rsbag::device::synthetic::SyntheticDevice;
use rsbag::device::Device;
use rsbag::record::{RecordOptions, Recorder};

fn main() -> rsbag::Result<()> {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "synthetic.bag".into());
    let camera = Arc::new(SyntheticDevice::default());
    let recorder = Recorder::new(&path, camera, RecordOptions::default())?;
    // Stream each sensor's default profiles through the recorder, exactly
    // as through the camera.
    for sensor in recorder.sensors() {
        let defaults: Vec<_> = sensor
            .profiles()
            .into_iter()
            .filter(|p| p.is_default)
            .collect();
        sensor.open(&defaults)?;
        sensor.start(Arc::new(|_frame| {}))?;
    }
    std::thread::sleep(Duration::from_secs(2));
    let report = recorder.finish()?;
    println!("{}: {} bytes", report.path.display(), report.file_size);
    for (stream, counts) in &report.streams {
        println!(
            "  {stream}: {} frames, {} dropped",
            counts.written, counts.dropped
        );
    }
    Ok(())
}
