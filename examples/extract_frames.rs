//! Offline processing: read every frame of a recording exactly once, with
//! no threads and nothing dropped, fetch single frames through the index,
//! and walk depth+color framesets.
//!
//! ```text
//! cargo run --release --example extract_frames -- FILE [OUT_DIR]
//! ```
//!
//! With `OUT_DIR`, each video frame's pixels are written there as
//! `<stream>-<index>-<frame number>.raw`.

use std::path::PathBuf;
use std::time::Duration;

use rsbag::device::StreamKind;
use rsbag::recording::{FrameReader, SyncOptions};

fn main() -> rsbag::Result<()> {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .unwrap_or_else(|| "sample_bags/librealsense-depth-color-lz4.bag".into());
    let out_dir = args.next().map(PathBuf::from);
    let reader = FrameReader::open(&path)?;

    // What the recording holds, from the index alone.
    println!("{path}: {:.3} s", reader.duration().as_secs_f64());
    for stream in reader.streams() {
        println!("  {stream}: {} frames", reader.frame_count(stream)?);
    }

    // The processing loop: every frame, in recorded order.
    if let Some(dir) = &out_dir {
        std::fs::create_dir_all(dir).map_err(|e| rsbag::Error::Io {
            path: dir.clone(),
            error: e,
        })?;
    }
    let mut bytes = 0u64;
    for frame in reader.frames()? {
        let frame = frame?;
        bytes += frame.frame.data.len() as u64;
        if let (Some(dir), Some(_)) = (&out_dir, frame.frame.resolution()) {
            let name = format!(
                "{}-{}-{}.raw",
                frame.stream.kind, frame.stream.index, frame.frame.number
            );
            let file = dir.join(name);
            std::fs::write(&file, &frame.frame.data).map_err(|e| rsbag::Error::Io {
                path: file,
                error: e,
            })?;
        }
    }
    println!("read {bytes} bytes of frames");

    // Random access: the middle frame of each stream, without reading the
    // frames before it; and the frame nearest to one second in.
    for stream in reader.streams() {
        let count = reader.frame_count(stream)?;
        if count == 0 {
            continue;
        }
        let middle = reader.frame(stream, count / 2)?;
        let nearest = reader.frame_nearest(stream, Duration::from_secs(1))?;
        println!(
            "  {stream}: frame {} is #{} at {:.3} s; nearest to 1 s: #{}",
            middle.index,
            middle.frame.number,
            middle.time.as_secs_f64(),
            nearest.map_or(0, |f| f.frame.number)
        );
    }

    // Synchronized framesets of the video streams (IMU samples, if any,
    // are attached to the nearest frameset).
    let video: Vec<_> = reader
        .streams()
        .into_iter()
        .filter(|s| {
            !matches!(
                s.kind,
                StreamKind::Accel | StreamKind::Gyro | StreamKind::Pose
            )
        })
        .collect();
    let (mut sets, mut complete) = (0, 0);
    for set in reader
        .select()
        .streams(video.clone())
        .framesets(SyncOptions::default())?
    {
        let set = set?;
        sets += 1;
        if video.iter().all(|s| set.contains(*s)) {
            complete += 1;
        }
    }
    let names: Vec<String> = video.iter().map(ToString::to_string).collect();
    println!(
        "{sets} framesets of {}, {complete} with every stream",
        names.join(", ")
    );
    Ok(())
}
