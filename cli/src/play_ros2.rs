//! `rsbag play --ros2`: publish recordings into a ROS 2 graph as the
//! RealSense ROS wrapper publishes a camera, at the recorded pace.

use std::collections::BTreeMap;
use std::io::{IsTerminal, Read};
use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use rsbag::msg::ros2 as msgs;
use rsbag::record::{Ros2Layout, Ros2Topic};
use rsbag::recording::{Event, Recording};
use rsbag::ros_camera::transport::{DepthCodec, ImageCodec, ImageTransport};
use rsbag::{BagTime, Error, Result};
use rsbag_ros2::{Node, Publisher, Qos};

use crossbeam_channel::Receiver;

use super::convert::{TransportArg, UniteImuArg};
use super::interrupt;
use super::play::Args;
use super::{files, select};

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

/// ROS 2's error as the tool reports errors.
pub fn ros2_error(e: rsbag_ros2::Error) -> Error {
    Error::InvalidArgument(e.to_string())
}

/// Under `RSBAG_ROS2=PREFIX`, start again with its libraries on
/// `LD_LIBRARY_PATH` (the loader reads it only at start), as a sourced
/// install's environment would have them.
pub fn start_with_ros2_libraries() -> Result<()> {
    use std::os::unix::process::CommandExt;
    let Some(path) = rsbag_ros2::prefix_library_path() else {
        return Ok(());
    };
    let exe = std::env::current_exe().map_err(Error::Stream)?;
    let error = std::process::Command::new(exe)
        .args(std::env::args_os().skip(1))
        .env("LD_LIBRARY_PATH", path)
        .exec();
    Err(Error::InvalidArgument(format!(
        "cannot start again with RSBAG_ROS2's libraries on LD_LIBRARY_PATH: {error}"
    )))
}

/// Play every recording of `args` into the graph, one after the other.
pub fn run(args: &Args) -> Result<ExitCode> {
    start_with_ros2_libraries()?;
    let files = files::recordings(&args.files)?;
    let node = Node::new("rsbag_play", "/").map_err(ros2_error)?;
    let mut published: BTreeMap<String, u64> = BTreeMap::new();
    let controls = Controls::new();
    for file in &files {
        let go_on =
            play_file(&node, file, args, &controls, &mut published).map_err(|e| e.in_file(file))?;
        if !go_on {
            break;
        }
    }
    drop(controls);
    let mut text = String::new();
    outln!(text, "{:<56} {:>8}", "topic", "messages");
    for (topic, count) in &published {
        outln!(text, "{topic:<56} {count:>8}");
    }
    super::emit(&text);
    Ok(ExitCode::SUCCESS)
}

/// The publishers of a layout's topics (`None` where the install lacks
/// the message type: told once per type, the rest is published).
fn publishers(node: &Node, topics: &[Ros2Topic], qos: Qos) -> Result<Vec<Option<Publisher>>> {
    let mut missing_types = Vec::new();
    let mut out = Vec::with_capacity(topics.len());
    for topic in topics {
        let qos = if topic.latched { Qos::latched() } else { qos };
        match node.publisher(&topic.name, &topic.msg_type, qos) {
            Ok(p) => out.push(Some(p)),
            Err(e @ rsbag_ros2::Error::MissingType { .. }) => {
                if !missing_types.contains(&topic.msg_type) {
                    eprintln!("rsbag: warning: not publishing its topics: {e}");
                    missing_types.push(topic.msg_type.clone());
                }
                out.push(None);
            }
            Err(e) => return Err(ros2_error(e)),
        }
    }
    Ok(out)
}

fn transport(args: &Args) -> ImageTransport {
    match args.image_transport {
        TransportArg::Raw => ImageTransport::Raw,
        TransportArg::Compressed => ImageTransport::Compressed {
            color: ImageCodec::Jpeg(95),
            depth: DepthCodec::Png,
        },
    }
}

/// Publish one recording (looped with `--loop`); `false` when Ctrl-C
/// ended it.
fn play_file(
    node: &Node,
    file: &Path,
    args: &Args,
    controls: &Controls,
    published: &mut BTreeMap<String, u64>,
) -> Result<bool> {
    let recording = Recording::open(file)?;
    let chosen = select::streams(|n| recording.find_streams(n), &args.streams)?;
    let unite = args.unite_imu.map(UniteImuArg::method);
    let mut layout =
        Ros2Layout::of_recording(&recording, &args.namespace, (transport(args), unite), |s| {
            chosen.as_ref().is_none_or(|c| c.contains(s))
        })?;
    for (stream, reason) in layout.skipped() {
        eprintln!("rsbag: warning: {stream} is not published: {reason}");
    }
    let qos = match args.qos {
        QosArg::SensorData => Qos::sensor_data(),
        QosArg::Reliable => Qos::reliable(),
    };
    let publishers = publishers(node, layout.topics(), qos)?;
    let clock = match args.clock {
        Some(_) => Some(
            node.publisher("/clock", msgs::CLOCK, Qos::clock())
                .map_err(ros2_error)?,
        ),
        None => None,
    };
    if args.wait_for_subscribers
        && !wait_for_subscribers(&layout, &publishers, args.timeout, controls)?
    {
        return Ok(false);
    }
    for message in layout.start_messages() {
        if let Some(p) = &publishers[message.topic] {
            p.publish(&message.data).map_err(ros2_error)?;
        }
    }
    if !controls.sleep_until(Instant::now() + select::seconds("delay", args.delay)?) {
        return Ok(false);
    }
    let window = select::Window::new(recording.duration(), Some(args.start), args.duration)?;
    let span = window.bag_times(recording.start_time());
    let mut pacer = Pacer::new(args, clock)?;
    loop {
        let events = recording
            .select()
            .controls(false)
            .time(span.clone())
            .events();
        for event in events {
            let event = event?;
            let Event::Frame { frame, .. } = event.event else {
                continue;
            };
            let messages = layout.frame_messages(&frame)?;
            if messages.is_empty() {
                continue;
            }
            if !pacer.until(event.time, frame.timestamp, controls)? {
                return Ok(false);
            }
            for message in messages {
                if let Some(p) = &publishers[message.topic] {
                    p.publish(&message.data).map_err(ros2_error)?;
                    *published.entry(p.topic().to_owned()).or_default() += 1;
                }
            }
        }
        if !args.repeat {
            return Ok(true);
        }
        pacer.restart();
    }
}

/// How long a subscriber is given to match back once this publisher has
/// seen it.
const MATCH_SETTLE: Duration = Duration::from_secs(1);

/// Wait until every image topic (every data topic when there are no
/// images) has a matched subscriber, up to `timeout` seconds, then
/// [`MATCH_SETTLE`]; `false` on Ctrl-C.
fn wait_for_subscribers(
    layout: &Ros2Layout,
    publishers: &[Option<Publisher>],
    timeout: f64,
    controls: &Controls,
) -> Result<bool> {
    let deadline = Instant::now() + select::seconds("timeout", timeout)?;
    let is_image = |topic: usize| layout.topics()[topic].msg_type.contains("Image");
    let data: Vec<usize> = layout.streams().map(|(_, t)| t).collect();
    let waited: Vec<&Publisher> = {
        let images: Vec<usize> = data.iter().copied().filter(|&t| is_image(t)).collect();
        let topics = if images.is_empty() { data } else { images };
        topics
            .into_iter()
            .filter_map(|t| publishers[t].as_ref())
            .collect()
    };
    loop {
        let mut unmatched = Vec::new();
        for p in &waited {
            if p.subscription_count().map_err(ros2_error)? == 0 {
                unmatched.push(p.topic());
            }
        }
        if unmatched.is_empty() {
            // Discovery is two-sided: the subscriber matches this
            // publisher a moment after this publisher has seen it, and
            // what is published before then does not reach it.
            return Ok(controls.sleep_until(Instant::now() + MATCH_SETTLE));
        }
        if Instant::now() >= deadline {
            return Err(Error::InvalidArgument(format!(
                "no subscriber matched {} within --timeout {timeout} s",
                unmatched.join(", ")
            )));
        }
        if !controls.sleep_until(Instant::now() + Duration::from_millis(20)) {
            return Ok(false);
        }
    }
}

/// The recorded pace at `--speed`, and `/clock`.
struct Pacer {
    real_time: bool,
    speed: f64,
    clock: Option<(Publisher, Duration)>,
    /// The wall time and the recording time (ns) of the pass's first
    /// frame.
    origin: Option<(Instant, u64)>,
    /// The stamps' clock minus the recording's (ns), from the first frame:
    /// `/clock` runs on the stamps' clock.
    stamp_offset: Option<i128>,
    next_tick: Option<Instant>,
}

impl Pacer {
    fn new(args: &Args, clock: Option<Publisher>) -> Result<Pacer> {
        if !(args.speed.is_finite() && args.speed > 0.0) {
            return Err(Error::InvalidArgument(format!(
                "--speed must be a positive number, not {}",
                args.speed
            )));
        }
        let hz = args.clock.unwrap_or(0.0);
        let period = match clock {
            Some(_) if !(hz.is_finite() && hz > 0.0 && hz <= 10_000.0) => {
                return Err(Error::InvalidArgument(format!(
                    "--clock must be a rate in Hz from above 0 to 10000, not {hz}"
                )))
            }
            Some(_) => Duration::from_secs_f64(1.0 / hz),
            None => Duration::ZERO,
        };
        Ok(Pacer {
            real_time: !args.no_realtime,
            speed: args.speed,
            clock: clock.map(|c| (c, period)),
            origin: None,
            stamp_offset: None,
            next_tick: None,
        })
    }

    /// A new pass over the recording (`--loop`): paced from its first
    /// frame again.
    fn restart(&mut self) {
        self.origin = None;
    }

    /// Wait until the frame at recording time `time`, stamped `stamp_ms`,
    /// is due, publishing `/clock` on the way (and staying while paused);
    /// `false` on Ctrl-C.
    fn until(&mut self, time: BagTime, stamp_ms: f64, controls: &Controls) -> Result<bool> {
        let time = time.as_nanos();
        let stamp = stamp_ms
            .is_finite()
            .then_some((stamp_ms * 1e6).round() as i128);
        self.stamp_offset
            .get_or_insert(stamp.unwrap_or(0) - i128::from(time));
        if controls.pause_pressed() {
            let Some(paused) = controls.wait_for_resume() else {
                return Ok(false);
            };
            if let Some((start, _)) = &mut self.origin {
                *start += paused;
            }
            if let Some(tick) = &mut self.next_tick {
                *tick += paused;
            }
        }
        let (start, first) = *self.origin.get_or_insert((Instant::now(), time));
        if !self.real_time {
            self.tick(time)?;
            return Ok(!controls.interrupted());
        }
        let offset = Duration::from_nanos(time.saturating_sub(first)).div_f64(self.speed);
        let due = start + offset;
        if self.clock.is_some() {
            loop {
                let tick = *self.next_tick.get_or_insert(start);
                if tick > due {
                    break;
                }
                if !controls.sleep_until(tick) {
                    return Ok(false);
                }
                let played = tick.duration_since(start).mul_f64(self.speed);
                self.tick(first + played.as_nanos() as u64)?;
                let period = self.clock.as_ref().map_or(Duration::ZERO, |c| c.1);
                self.next_tick = Some(tick + period);
            }
        }
        Ok(controls.sleep_until(due))
    }

    /// Publish `/clock` at recording time `time` (ns), on the stamps'
    /// clock.
    fn tick(&self, time: u64) -> Result<()> {
        let Some((clock, _)) = &self.clock else {
            return Ok(());
        };
        let now = i128::from(time) + self.stamp_offset.unwrap_or(0);
        let now = u64::try_from(now.max(0)).unwrap_or(u64::MAX);
        clock.publish(&msgs::encode_clock(now)).map_err(ros2_error)
    }
}

/// What the user does while playing: Ctrl-C ends the playback (the
/// report is still printed); on a terminal, space pauses and resumes.
struct Controls {
    interrupted: Receiver<()>,
    presses: Receiver<()>,
    /// The terminal's settings, put back when playing ends.
    terminal: Option<libc::termios>,
}

impl Controls {
    fn new() -> Controls {
        let interrupted = interrupt::handle();
        let (press, presses) = crossbeam_channel::bounded(16);
        if !std::io::stdin().is_terminal() {
            return Controls {
                interrupted,
                presses,
                terminal: None,
            };
        }
        // SAFETY: termios of standard input, read then written back with
        // key-at-a-time input and no echo; put back on drop.
        let terminal = unsafe {
            let mut settings: libc::termios = std::mem::zeroed();
            (libc::tcgetattr(libc::STDIN_FILENO, &mut settings) == 0).then(|| {
                let saved = settings;
                settings.c_lflag &= !(libc::ICANON | libc::ECHO);
                settings.c_cc[libc::VMIN] = 1;
                settings.c_cc[libc::VTIME] = 0;
                libc::tcsetattr(libc::STDIN_FILENO, libc::TCSANOW, &settings);
                saved
            })
        };
        if terminal.is_some() {
            eprintln!("rsbag: space pauses and resumes, Ctrl-C stops");
            // Reads the keys until the process ends (it holds no lock).
            std::thread::spawn(move || {
                let mut key = [0u8; 1];
                while let Ok(1) = std::io::stdin().lock().read(&mut key) {
                    if key[0] == b' ' && press.send(()).is_err() {
                        break;
                    }
                }
            });
        }
        Controls {
            interrupted,
            presses,
            terminal,
        }
    }

    /// Whether space was pressed since last asked.
    fn pause_pressed(&self) -> bool {
        self.presses.try_recv().is_ok()
    }

    /// Stay paused until space again (how long), `None` on Ctrl-C.
    fn wait_for_resume(&self) -> Option<Duration> {
        let paused = Instant::now();
        eprintln!("rsbag: paused (space resumes)");
        crossbeam_channel::select! {
            recv(self.presses) -> _ => Some(paused.elapsed()),
            recv(self.interrupted) -> _ => None,
        }
    }

    /// Whether Ctrl-C was pressed (and not yet seen).
    fn interrupted(&self) -> bool {
        self.interrupted.try_recv().is_ok()
    }

    /// Sleep until `when`; `false` when Ctrl-C ends the wait.
    fn sleep_until(&self, when: Instant) -> bool {
        let left = when.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return !self.interrupted();
        }
        self.interrupted.recv_timeout(left).is_err()
    }
}

impl Drop for Controls {
    fn drop(&mut self) {
        if let Some(saved) = &self.terminal {
            // SAFETY: the settings read in `new`, written back.
            unsafe {
                libc::tcsetattr(libc::STDIN_FILENO, libc::TCSANOW, saved);
            }
        }
    }
}
