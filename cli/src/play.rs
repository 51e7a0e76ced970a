//! `rsbag play`: play a recording through the playback device and report
//! what was delivered.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use parking_lot::Mutex;

use rsbag::device::{Device, StreamId};

use super::damage::Losses;
use super::{files, select};
use rsbag::playback::{Playback, PlaybackOptions, PlaybackStatus};
use rsbag::{Error, Result};

/// Play a recording through the playback device (every stream started),
/// with callbacks that read every byte, and print frames per stream, bytes,
/// seconds and throughput.
///
/// A stream's fps is measured from its frames' intervals: (frames - 1) /
/// (last arrival - first arrival). Several recordings (or directories of
/// them) are played one after the other.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The recordings to play: files, ROS 2 bag directories, or
    /// directories holding recordings.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Start only these streams, by librealsense name (`Depth`, `Color`,
    /// `Infrared 1`, `Accel`…; a name without an index means every stream
    /// of that kind), comma-separated or repeated (default: every stream).
    #[arg(long, alias = "stream", value_name = "NAMES", value_delimiter = ',')]
    pub streams: Vec<String>,
    /// Deliver as fast as the callbacks take frames instead of at the
    /// recorded pace.
    #[arg(long)]
    pub no_realtime: bool,
    /// Playback speed in real time (2 = twice as fast).
    #[arg(long, alias = "rate", default_value_t = 1.0)]
    pub speed: f64,
    /// Start this many seconds into the recording.
    #[arg(long, default_value_t = 0.0)]
    pub start: f64,
    /// Stop after this many seconds of the recording.
    #[arg(long)]
    pub duration: Option<f64>,
    /// Start again at the end (needs --duration to end, except with
    /// --ros2, which plays until Ctrl-C).
    #[arg(long = "loop")]
    pub repeat: bool,
    /// Publish into a ROS 2 graph as the RealSense ROS wrapper publishes a
    /// camera (images, camera_info, IMU, /tf_static, extrinsics,
    /// metadata), with the user's ROS 2 (sourced, or RSBAG_ROS2=PREFIX).
    #[arg(long)]
    pub ros2: bool,
    /// With --ros2: the namespace of the topics [default: the wrapper's
    /// /camera/camera]. Several recordings are played as one session of
    /// several cameras, each under its own namespace: one --namespace per
    /// recording, in order, or by default `/<camera>` (the camera's name
    /// as a ROS name: `/camera_<serial>`…, as `convert --session --to
    /// ros2` names them). A camera's frame ids are named for the last part
    /// of its namespace, as the wrapper's camera_name (`<camera>_link`…).
    #[arg(long, value_name = "NS", requires = "ros2")]
    pub namespace: Vec<String>,
    /// With --ros2 and several recordings: play them one after the other
    /// under the one namespace, instead of as one session.
    #[arg(long, requires = "ros2")]
    pub each: bool,
    /// With --ros2: the QoS of the frames' topics (/tf_static and the
    /// other latched topics are reliable and transient local).
    #[arg(long, value_enum, default_value = "reliable", requires = "ros2")]
    pub qos: QosArg,
    /// With --ros2: how many messages each publisher keeps for a
    /// subscriber that falls behind [default: the QoS's, 10 reliable, 5
    /// sensor-data]; IMU topics keep at least a second of samples (400).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..), requires = "ros2")]
    pub qos_depth: Option<u16>,
    #[command(flatten)]
    pub transport: super::image_transport::TransportArgs,
    /// With --ros2: gyro and accel samples united on one sensor_msgs/Imu
    /// topic, `<namespace>/imu`, as the RealSense ROS wrapper's
    /// unite_imu_method publishes them (instead of gyro/sample and
    /// accel/sample).
    #[arg(long, value_enum, value_name = "METHOD", requires = "ros2")]
    pub unite_imu: Option<super::convert::UniteImuArg>,
    /// With --ros2: publish /clock, on the header stamps' clock, this many
    /// times a second (40 when no rate is given), for nodes with
    /// use_sim_time.
    #[arg(long, value_name = "HZ", num_args = 0..=1, default_missing_value = "40", requires = "ros2")]
    pub clock: Option<f64>,
    /// With --ros2: start only once every image topic has a matched
    /// subscriber (and a second more, for it to match back), so that no
    /// frame is lost to discovery.
    #[arg(long, requires = "ros2")]
    pub wait_for_subscribers: bool,
    /// With --wait-for-subscribers: give up after this many seconds.
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = 30.0,
        requires = "wait_for_subscribers"
    )]
    pub timeout: f64,
    /// With --ros2: wait this many seconds before the first message.
    #[arg(long, value_name = "SECONDS", default_value_t = 0.0, requires = "ros2")]
    pub delay: f64,
}

/// `--qos` of `play --ros2` and `record --ros2`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum QosArg {
    /// Best effort, the last 5 (ROS 2's `SensorDataQoS`): late or slow
    /// subscribers lose messages rather than slow the publisher.
    SensorData,
    /// Reliable, the last 10: what the wrapper and rclcpp default to;
    /// matches both reliable and best-effort subscribers.
    Reliable,
}

#[derive(Default)]
struct Tally {
    frames: u64,
    bytes: u64,
    /// Folded from every byte, so the reads cannot be optimized away.
    checksum: u64,
    /// When the first and the last frame arrived.
    first: Option<Instant>,
    last: Option<Instant>,
}

impl Tally {
    /// Frames per second from the intervals between arrivals; `None`
    /// under two frames.
    fn fps(&self) -> Option<f64> {
        let span = self.last?.duration_since(self.first?).as_secs_f64();
        (self.frames >= 2 && span > 0.0).then(|| (self.frames - 1) as f64 / span)
    }
}

/// Play through the playback device (`--ros2` is `play_ros2::run`'s).
pub fn run(args: Args) -> Result<ExitCode> {
    if args.transport.given() {
        return Err(Error::InvalidArgument(
            "--image-transport and its codecs go with --ros2".into(),
        ));
    }
    let files = files::recordings(&args.files)?;
    let several = files.len() > 1;
    files::each(&files, "\n", |file| play_one(file, &args, several))
}

/// Play one recording and print what was delivered (`several`: name it).
fn play_one(file: &Path, args: &Args, several: bool) -> Result<ExitCode> {
    let start = select::seconds("start", args.start)?;
    let limit = args
        .duration
        .map(|d| select::seconds("duration", d))
        .transpose()?;
    if args.repeat && limit.is_none() {
        return Err(Error::InvalidArgument(
            "--loop needs --duration to know when to end".into(),
        ));
    }
    let options = PlaybackOptions {
        real_time: !args.no_realtime,
        ..PlaybackOptions::default()
    };
    let playback = Arc::new(Playback::with_options(file, options)?);
    super::session::one_camera(
        playback.recording(),
        "play --ros2 plays them as a session, each camera under its own namespace",
    )
    .map_err(|e| e.in_file(file))?;
    let mut losses = Losses::new(file);
    let chosen = select::streams(|n| playback.recording().find_streams(n), &args.streams)?;
    losses.watch(playback.recording());
    playback.set_playback_speed(args.speed)?;
    playback.set_repeat(args.repeat);
    playback.pause();
    playback.seek(start)?;
    // The end of the file, or of `--duration` of the recording, wakes the
    // main thread.
    let (ended_tx, ended) = crossbeam_channel::bounded::<()>(1);
    let stopped = ended_tx.clone();
    playback.add_status_listener(Arc::new(move |status| {
        if status == PlaybackStatus::Stopped {
            let _ = stopped.try_send(());
        }
    }));
    let tallies: Arc<Mutex<BTreeMap<StreamId, Tally>>> = Arc::default();
    for sensor in playback.sensors() {
        let mut profiles = sensor.profiles();
        if let Some(chosen) = &chosen {
            profiles.retain(|p| chosen.contains(&p.stream));
        }
        if profiles.is_empty() {
            continue;
        }
        sensor.open(&profiles)?;
        let tallies = tallies.clone();
        let (position, past_limit) = (Arc::downgrade(&playback), ended_tx.clone());
        let limit = limit.filter(|_| !args.repeat);
        sensor.start(Arc::new(move |frame| {
            let checksum = fold_bytes(&frame.data);
            {
                let mut tallies = tallies.lock();
                let tally = tallies.entry(frame.profile.stream).or_default();
                let now = Instant::now();
                tally.first.get_or_insert(now);
                tally.last = Some(now);
                tally.frames += 1;
                tally.bytes += frame.data.len() as u64;
                tally.checksum ^= checksum;
            }
            let played = position
                .upgrade()
                .map(|p| p.position().saturating_sub(start));
            if limit.is_some_and(|limit| played.is_some_and(|played| played >= limit)) {
                let _ = past_limit.try_send(());
            }
        }))?;
    }
    let began = Instant::now();
    playback.resume();
    match limit {
        // In a loop the recording never ends: `--duration` is wall-clock
        // time at the playback speed.
        Some(limit) if args.repeat => {
            let _ = ended.recv_timeout(limit.div_f64(args.speed));
        }
        _ => {
            let _ = ended.recv();
        }
    }
    playback.stop();
    let elapsed = began.elapsed();
    let mut text = String::new();
    if several {
        outln!(text, "file: {}", file.display());
    }
    text.push_str(&report(&tallies.lock(), elapsed, playback.dropped_frames()));
    super::emit(&text);
    // The playback device told of each part it skipped on stderr.
    losses.add(playback.read_errors());
    Ok(losses.exit_code())
}

/// Read every byte of a frame: a wrapping sum of its 64-bit words (fast
/// enough that it measures the delivery, not the callback).
fn fold_bytes(data: &[u8]) -> u64 {
    let words = data.chunks_exact(8);
    let tail = words
        .remainder()
        .iter()
        .fold(0u64, |acc, &b| acc.rotate_left(8) ^ u64::from(b));
    words.fold(tail, |acc, w| {
        let mut word = [0u8; 8];
        word.copy_from_slice(w);
        acc.wrapping_add(u64::from_le_bytes(word))
    })
}

fn report(tallies: &BTreeMap<StreamId, Tally>, elapsed: Duration, dropped: u64) -> String {
    let mut out = String::new();
    let secs = elapsed.as_secs_f64().max(1e-9);
    let mut total = Tally::default();
    outln!(
        out,
        "{:<14} {:>8} {:>14} {:>10}",
        "stream",
        "frames",
        "bytes",
        "fps"
    );
    for (stream, tally) in tallies {
        outln!(
            out,
            "{:<14} {:>8} {:>14} {:>10}",
            stream.to_string(),
            tally.frames,
            tally.bytes,
            tally.fps().map_or("-".into(), |fps| format!("{fps:.1}"))
        );
        total.frames += tally.frames;
        total.bytes += tally.bytes;
    }
    outln!(
        out,
        "{:<14} {:>8} {:>14}",
        "total",
        total.frames,
        total.bytes
    );
    outln!(
        out,
        "played in {:.3} s: {:.1} MB/s, {:.0} frames/s, {} dropped",
        secs,
        total.bytes as f64 / secs / 1e6,
        total.frames as f64 / secs,
        dropped
    );
    out
}
