//! Open a bag, start all streams, print frames, seek, pause and change
//! speed.
//!
//! ```text
//! cargo run --release --example playback -- sample_bags/librealsense-depth-color-lz4.bag
//! ```

use std::sync::Arc;
use std::time::Duration;

use rsbag::device::Device;
use rsbag::playback::Playback;

fn main() -> rsbag::Result<()> {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "sample_bags/librealsense-depth-color-lz4.bag".into());
    let playback = Playback::open(&path)?;
    println!(
        "{:?}, {:.3} s",
        playback.info().get("Name"),
        playback.duration().as_secs_f64()
    );
    // Start every sensor while paused, so that all streams begin together.
    playback.pause();
    for sensor in playback.sensors() {
        sensor.open(&sensor.profiles())?;
        sensor.start(Arc::new(|frame| {
            println!(
                "{:<12} #{:<5} {:>12.3} ms {:>8} bytes",
                frame.profile.stream.to_string(),
                frame.number,
                frame.timestamp,
                frame.data.len()
            );
        }))?;
    }
    playback.resume();
    std::thread::sleep(Duration::from_millis(100));

    println!("-- seek to the middle, at double speed");
    playback.seek(playback.duration() / 2)?;
    playback.set_playback_speed(2.0)?;
    std::thread::sleep(Duration::from_millis(100));

    println!("-- paused for 200 ms");
    playback.pause();
    std::thread::sleep(Duration::from_millis(200));
    playback.resume();

    playback.wait_until_stopped(Duration::from_secs(60));
    println!("-- stopped at {:.3} s", playback.position().as_secs_f64());
    Ok(())
}
