//! `rsbag play --ros2`: publish recordings into a ROS 2 graph as the
//! RealSense ROS wrapper publishes a camera, at the recorded pace.

use std::collections::BTreeMap;
use std::io::{IsTerminal, Read};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use rsbag::msg::ros2 as msgs;
use rsbag::record::{session_camera_names, session_stamp_ns, Ros2Layout, Ros2Message, Ros2Topic};
use rsbag::recording::{Event, Recording, Session};
use rsbag::ros_camera::DEFAULT_NAMESPACE;
use rsbag::{BagTime, Error, Result};
use rsbag_ros2::{Node, Publisher, Qos};

use crossbeam_channel::Receiver;

use super::convert::UniteImuArg;
use super::interrupt;
use super::lateness::Lateness;
use super::play::{Args, QosArg};
use super::{files, select};

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

/// Play the recordings of `args` into the graph: one after the other, or
/// several as one session of cameras.
pub fn run(args: &Args) -> Result<ExitCode> {
    start_with_ros2_libraries()?;
    // Options that do not go together are told before ROS 2 is started.
    args.transport.transport()?;
    let files = files::recordings(&args.files)?;
    let as_session = !args.each
        && match files.as_slice() {
            [one] => super::session::several_cameras(one),
            _ => files.len() > 1,
        };
    if !as_session && args.namespace.len() > 1 {
        return Err(Error::InvalidArgument(
            "several --namespace go with several recordings or cameras played as one session (without --each)"
                .into(),
        ));
    }
    let node = Node::new("rsbag_play", "/").map_err(ros2_error)?;
    let mut published: BTreeMap<String, u64> = BTreeMap::new();
    let mut pacer = Pacer::new(args, clock_publisher(&node, args)?)?;
    let controls = Controls::new();
    let mut playing = (&mut pacer, &controls);
    if as_session {
        play_session(&node, &files, args, &mut playing, &mut published)?;
    } else {
        for file in &files {
            let go_on = play_file(&node, file, args, &mut playing, &mut published)
                .map_err(|e| e.in_file(file))?;
            if !go_on {
                break;
            }
        }
    }
    drop(controls);
    let mut text = String::new();
    outln!(text, "{:<56} {:>8}", "topic", "messages");
    for (topic, count) in &published {
        outln!(text, "{topic:<56} {count:>8}");
    }
    if let Some(lateness) = pacer.lateness.summary() {
        outln!(text, "{lateness}");
    }
    super::emit(&text);
    Ok(ExitCode::SUCCESS)
}

/// The least history of an IMU topic's publisher: a second of a D435i's
/// gyro samples, which are small and come in bursts (ten would hold 25 ms).
const IMU_HISTORY: usize = 400;

/// The publishers of a layout's topics (`None` where the install lacks
/// the message type: told once per type, the rest is published).
fn publishers(node: &Node, topics: &[Ros2Topic], qos: Qos) -> Result<Vec<Option<Publisher>>> {
    let mut missing_types = Vec::new();
    let mut out = Vec::with_capacity(topics.len());
    for topic in topics {
        let qos = if topic.latched {
            Qos::latched()
        } else if topic.msg_type == msgs::IMU {
            Qos {
                depth: qos.depth.max(IMU_HISTORY),
                ..qos
            }
        } else {
            qos
        };
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

/// `--unite-imu`'s method.
fn unite_imu(args: &Args) -> Option<rsbag::ros_camera::imu::UniteImu> {
    args.unite_imu.map(UniteImuArg::method)
}

/// One camera published: its layout and the publishers of its topics.
struct Camera {
    layout: Ros2Layout,
    publishers: Vec<Option<Publisher>>,
}

impl Camera {
    /// Publish `layout` with the QoS of `args`.
    fn new(node: &Node, layout: Ros2Layout, args: &Args) -> Result<Camera> {
        for (stream, reason) in layout.skipped() {
            eprintln!("rsbag: warning: {stream} is not published: {reason}");
        }
        let mut qos = match args.qos {
            QosArg::SensorData => Qos::sensor_data(),
            QosArg::Reliable => Qos::reliable(),
        };
        if let Some(depth) = args.qos_depth {
            qos.depth = usize::from(depth);
        }
        let publishers = publishers(node, layout.topics(), qos)?;
        Ok(Camera { layout, publishers })
    }

    /// Give reliable subscribers up to [`ACK_WAIT`] to acknowledge the
    /// last messages before the publishers go away with them.
    fn finish(&self) -> Result<()> {
        for p in self.publishers.iter().flatten() {
            p.wait_for_all_acked(ACK_WAIT).map_err(ros2_error)?;
        }
        Ok(())
    }

    /// Publish `messages` of this camera, counted in `published`.
    fn publish(
        &self,
        messages: Vec<Ros2Message>,
        published: &mut BTreeMap<String, u64>,
    ) -> Result<()> {
        for message in messages {
            if let Some(p) = &self.publishers[message.topic] {
                p.publish(&message.data).map_err(ros2_error)?;
                *published.entry(p.topic().to_owned()).or_default() += 1;
            }
        }
        Ok(())
    }
}

/// `/clock`'s publisher, with `--clock`.
fn clock_publisher(node: &Node, args: &Args) -> Result<Option<Publisher>> {
    args.clock
        .map(|_| node.publisher("/clock", msgs::CLOCK, Qos::clock()))
        .transpose()
        .map_err(ros2_error)
}

/// Before the first frame: wait for subscribers (`--wait-for-subscribers`),
/// publish the latched messages, wait `--delay`; `false` on Ctrl-C.
fn begin(cameras: &[Camera], args: &Args, controls: &Controls) -> Result<bool> {
    if args.wait_for_subscribers && !wait_for_subscribers(cameras, args.timeout, controls)? {
        return Ok(false);
    }
    for camera in cameras {
        for message in camera.layout.start_messages() {
            if let Some(p) = &camera.publishers[message.topic] {
                p.publish(&message.data).map_err(ros2_error)?;
            }
        }
    }
    Ok(controls.sleep_until(Instant::now() + select::seconds("delay", args.delay)?))
}

/// Publish one recording (looped with `--loop`); `false` when Ctrl-C
/// ended it.
fn play_file(
    node: &Node,
    file: &Path,
    args: &Args,
    (pacer, controls): &mut (&mut Pacer, &Controls),
    published: &mut BTreeMap<String, u64>,
) -> Result<bool> {
    let recording = Recording::open(file)?;
    super::session::one_camera(
        &recording,
        "without --each they play as a session, each camera under its own namespace",
    )?;
    let chosen = select::streams(|n| recording.find_streams(n), &args.streams)?;
    let ns = args
        .namespace
        .first()
        .map_or(DEFAULT_NAMESPACE, String::as_str);
    let layout = Ros2Layout::of_recording(
        &recording,
        (ns, "camera"),
        (args.transport.transport()?, unite_imu(args)),
        |s| chosen.as_ref().is_none_or(|c| c.contains(s)),
    )?;
    let mut camera = Camera::new(node, layout, args)?;
    if !begin(std::slice::from_ref(&camera), args, controls)? {
        return Ok(false);
    }
    let window = select::Window::new(recording.duration(), Some(args.start), args.duration)?;
    let span = window.bag_times(recording.start_time());
    loop {
        pacer.restart();
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
            let messages = camera.layout.frame_messages(&frame)?;
            if messages.is_empty() {
                continue;
            }
            let ms = frame.timestamp;
            let stamp = ms.is_finite().then_some((ms * 1e6).round() as i128);
            if !pacer.until(event.time, stamp, controls)? {
                return Ok(false);
            }
            camera.publish(messages, published)?;
        }
        if !args.repeat {
            camera.finish()?;
            return Ok(true);
        }
    }
}

/// The namespace and camera name of each recording of a session: the
/// `--namespace`s given, one per recording (the camera named for its
/// last part), or `/<camera>` by [`session_camera_names`].
fn session_names(session: &Session, given: &[String]) -> Result<Vec<(String, String)>> {
    let files = session.files().len();
    if given.is_empty() {
        let names = session_camera_names(session);
        return Ok(names.into_iter().map(|n| (format!("/{n}"), n)).collect());
    }
    if given.len() != files {
        return Err(Error::InvalidArgument(format!(
            "{} --namespace for a session of {files} recordings: give one per recording, in order, or none",
            given.len()
        )));
    }
    given
        .iter()
        .map(|ns| {
            let camera = ns.trim_end_matches('/').rsplit('/').next().unwrap_or("");
            if camera.is_empty() {
                return Err(Error::InvalidArgument(format!(
                    "--namespace {ns:?}: give a namespace such as /cam1 (its last part names the camera)"
                )));
            }
            Ok((ns.clone(), camera.to_owned()))
        })
        .collect()
}

/// Publish several recordings as one session (looped with `--loop`):
/// each camera under its own namespace, every frame in time order on the
/// session's clock and stamped with its session time.
fn play_session(
    node: &Node,
    files: &[PathBuf],
    args: &Args,
    (pacer, controls): &mut (&mut Pacer, &Controls),
    published: &mut BTreeMap<String, u64>,
) -> Result<()> {
    let clock_args = super::session::ClockArgs {
        offset: Vec::new(),
        clock: None,
    };
    let opened = super::session::open(files, &clock_args)?;
    if opened.failed {
        return Err(Error::InvalidArgument(
            "a recording of the session could not be opened (said above)".into(),
        ));
    }
    let session = &opened.session;
    let chosen = select::streams(|n| session.find_streams(n), &args.streams)?;
    let names = session_names(session, &args.namespace)?;
    let layouts = Ros2Layout::of_session(
        session,
        &names,
        (args.transport.transport()?, unite_imu(args)),
        |s| chosen.as_ref().is_none_or(|c| c.contains(s)),
    )?;
    let mut cameras = (layouts.into_iter())
        .map(|layout| Camera::new(node, layout, args))
        .collect::<Result<Vec<_>>>()?;
    if !begin(&cameras, args, controls)? {
        return Ok(());
    }
    let window = select::Window::of_session(session.duration(), Some(args.start), args.duration)?;
    loop {
        pacer.restart();
        let mut query = session.select().time(window.bounds());
        if let Some(chosen) = &chosen {
            query = query.streams(chosen.iter().copied());
        }
        for frame in query.frames()? {
            let frame = frame?;
            let camera = &mut cameras[frame.file];
            let stamp = session_stamp_ns(session, frame.time_ms);
            let messages = camera
                .layout
                .frame_messages_at(&frame.recorded.frame, stamp)?;
            if messages.is_empty() {
                continue;
            }
            if !pacer.until(
                BagTime::from_nanos(stamp),
                Some(i128::from(stamp)),
                controls,
            )? {
                return Ok(());
            }
            camera.publish(messages, published)?;
        }
        if !args.repeat {
            return cameras.iter().try_for_each(Camera::finish);
        }
    }
}

/// How long reliable subscribers are given at the end to acknowledge the
/// last messages.
const ACK_WAIT: Duration = Duration::from_secs(2);

/// How long a subscriber is given to match back once this publisher has
/// seen it (one second lost a first frame on a loaded two-core machine).
const MATCH_SETTLE: Duration = Duration::from_secs(2);

/// Wait until every image topic (every data topic when there are no
/// images) of every camera has a matched subscriber, up to `timeout`
/// seconds, then [`MATCH_SETTLE`]; `false` on Ctrl-C.
fn wait_for_subscribers(cameras: &[Camera], timeout: f64, controls: &Controls) -> Result<bool> {
    let deadline = Instant::now() + select::seconds("timeout", timeout)?;
    let mut waited: Vec<&Publisher> = Vec::new();
    for camera in cameras {
        let layout = &camera.layout;
        let is_image = |topic: usize| layout.topics()[topic].msg_type.contains("Image");
        let mut data: Vec<usize> = layout.streams().map(|(_, t)| t).collect();
        data.sort_unstable();
        data.dedup();
        let images: Vec<usize> = data.iter().copied().filter(|&t| is_image(t)).collect();
        let topics = if images.is_empty() { data } else { images };
        waited.extend(
            topics
                .into_iter()
                .filter_map(|t| camera.publishers[t].as_ref()),
        );
    }
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
    /// How late each publish was against the recorded pace.
    lateness: Lateness,
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
            lateness: Lateness::default(),
        })
    }

    /// A new pass (`--loop`, or the next recording with `--each`): paced
    /// from its first frame again, `/clock` on its stamps' clock from
    /// there.
    fn restart(&mut self) {
        self.origin = None;
        self.stamp_offset = None;
        self.next_tick = None;
    }

    /// Wait until the frame at recording time `time`, stamped `stamp`
    /// (ns, if known), is due, publishing `/clock` on the way (and staying
    /// while paused); `false` on Ctrl-C.
    fn until(&mut self, time: BagTime, stamp: Option<i128>, controls: &Controls) -> Result<bool> {
        let time = time.as_nanos();
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
        if !controls.sleep_until(due) {
            return Ok(false);
        }
        self.lateness
            .add(Instant::now().saturating_duration_since(due));
        Ok(true)
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
