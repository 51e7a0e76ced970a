//! `rsbag record`: record a device into a bag.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rsbag::bag::{partial_path_for, Compression};
use rsbag::device::synthetic::{self, SyntheticConfig, SyntheticDevice};
use rsbag::device::{Device, StreamId, StreamProfile};
use rsbag::record::{Db3Options, FileFormat, RecordOptions, Recorder};
use rsbag::{Error, Result};

use super::interrupt;

/// Record the synthetic camera (the only device rsbag drives by itself)
/// into a bag, then print what was written.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Record the built-in synthetic D435i-like camera.
    #[arg(long, required = true)]
    synthetic: bool,
    /// Seconds to record.
    #[arg(long, default_value_t = 3.0)]
    duration: f64,
    /// The recording to write: a `.db3` (as librealsense 2.58+ records)
    /// when the name ends in `.db3`, otherwise a `.bag`.
    #[arg(long)]
    out: PathBuf,
    /// Replace a file already at the output (by default that is an error).
    #[arg(long)]
    force: bool,
    /// Write uncompressed chunks in a `.bag` (default: LZ4), raw images in
    /// a `.db3` (default: PNG and zstd, as librealsense 2.59).
    #[arg(long)]
    no_compression: bool,
    /// Streams to record.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "depth,color,infrared1,infrared2,accel,gyro"
    )]
    streams: Vec<StreamName>,
    /// Depth resolution and rate, WIDTHxHEIGHT@FPS.
    #[arg(long, default_value = "640x480@30", value_parser = parse_mode)]
    depth: (u32, u32, u32),
    /// Color resolution and rate, WIDTHxHEIGHT@FPS.
    #[arg(long, default_value = "640x480@30", value_parser = parse_mode)]
    color: (u32, u32, u32),
}

/// A stream of the synthetic camera, by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum StreamName {
    Depth,
    Color,
    Infrared1,
    Infrared2,
    Accel,
    Gyro,
    Pose,
}

impl StreamName {
    fn id(self) -> StreamId {
        match self {
            StreamName::Depth => synthetic::DEPTH,
            StreamName::Color => synthetic::COLOR,
            StreamName::Infrared1 => synthetic::INFRARED_1,
            StreamName::Infrared2 => synthetic::INFRARED_2,
            StreamName::Accel => synthetic::ACCEL,
            StreamName::Gyro => synthetic::GYRO,
            StreamName::Pose => synthetic::POSE,
        }
    }
}

fn parse_mode(text: &str) -> std::result::Result<(u32, u32, u32), String> {
    let bad = || format!("{text:?} is not WIDTHxHEIGHT@FPS (e.g. 1280x720@30)");
    let (size, fps) = text.split_once('@').ok_or_else(bad)?;
    let (w, h) = size.split_once('x').ok_or_else(bad)?;
    Ok((
        w.parse().map_err(|_| bad())?,
        h.parse().map_err(|_| bad())?,
        fps.parse().map_err(|_| bad())?,
    ))
}

pub fn run(args: Args) -> Result<()> {
    let duration = Duration::try_from_secs_f64(args.duration).map_err(|_| {
        Error::InvalidArgument(format!(
            "--duration must be a positive number of seconds, not {}",
            args.duration
        ))
    })?;
    let config = SyntheticConfig {
        depth: args.depth,
        color: args.color,
        pose: args.streams.contains(&StreamName::Pose),
        ..SyntheticConfig::default()
    };
    let camera = Arc::new(SyntheticDevice::new(config)?);
    let wanted: Vec<StreamProfile> = args
        .streams
        .iter()
        .map(|s| {
            camera.default_profile(s.id()).ok_or_else(|| {
                Error::InvalidArgument(format!("the synthetic camera has no {:?} stream", s))
            })
        })
        .collect::<Result<_>>()?;
    let compression = if args.no_compression {
        Compression::None
    } else {
        Compression::Lz4
    };
    let format = FileFormat::of_path(&args.out)?;
    if format == FileFormat::Db3 && args.streams.contains(&StreamName::Pose) {
        return Err(Error::InvalidArgument(
            "--streams pose: librealsense 2.59 cannot open a .db3 with a pose stream; record a .bag \
             (rsbag convert --to db3 --keep-pose writes one that only rsbag reads)"
                .into(),
        ));
    }
    let recorder = Recorder::new(
        &args.out,
        camera,
        RecordOptions {
            overwrite: args.force,
            db3: Db3Options {
                compress_images: !args.no_compression,
                ..Db3Options::default()
            },
            ..RecordOptions::default().compression(compression)
        },
    )?;
    let began = Instant::now();
    for sensor in recorder.sensors() {
        let profiles: Vec<StreamProfile> = sensor
            .profiles()
            .into_iter()
            .filter(|p| wanted.iter().any(|w| w.unique_id == p.unique_id))
            .collect();
        if !profiles.is_empty() {
            sensor.open(&profiles)?;
            sensor.start(Arc::new(|_| {}))?;
        }
    }
    // The time is up, Ctrl-C, or a write error: the file is finished
    // (or, after an error, left as `.partial` with what was written).
    let (failed_tx, failed) = crossbeam_channel::bounded(1);
    recorder.add_failure_listener(Arc::new(move |_| {
        let _ = failed_tx.try_send(());
    }));
    let interrupted = interrupt::handle();
    crossbeam_channel::select! {
        recv(interrupted) -> _ => eprintln!("rsbag: interrupted: finishing the recording"),
        recv(failed) -> _ => {}
        default(duration) => {}
    }
    let partial = partial_path_for(&args.out);
    let report = recorder.finish().map_err(|e| {
        Error::InvalidArgument(format!(
            "{e}; recording stopped there; what was recorded until then is in {} (`rsbag reindex {}` recovers it)",
            partial.display(),
            partial.display()
        ))
    })?;
    let elapsed = began.elapsed().as_secs_f64();
    let mut out = String::new();
    outln!(
        out,
        "wrote {} ({} bytes) in {:.2} s",
        report.path.display(),
        report.file_size,
        elapsed
    );
    outln!(
        out,
        "{:<12} {:>8} {:>8} {:>14}",
        "stream",
        "frames",
        "dropped",
        "bytes"
    );
    for (stream, counts) in &report.streams {
        outln!(
            out,
            "{:<12} {:>8} {:>8} {:>14}",
            stream.to_string(),
            counts.written,
            counts.dropped,
            counts.bytes
        );
    }
    let dropped: u64 = report.streams.values().map(|c| c.dropped).sum();
    outln!(
        out,
        "recorded {:.2} s, {} frames dropped",
        report.duration.as_secs_f64(),
        dropped
    );
    super::emit(&out);
    Ok(())
}
