//! `rsbag record --ros2`: record a camera the RealSense ROS wrapper drives
//! into a librealsense recording.
//!
//! The topics' messages are taken as they arrive (one thread waits on
//! every subscription and only takes and queues) and written by the main
//! thread into a rosbag2 `.db3` capture beside the output, crash-safe as
//! rosbag2 writes it; at the end the capture is converted as `rsbag
//! convert` converts a camera bag, and removed. The queue between the two
//! is bounded, in messages and in bytes (`--max-cache-size`): when it is
//! full a message is dropped and counted, never waited for, so the
//! subscriptions are never held up.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use crossbeam_channel::{Receiver, Sender, TrySendError};

use rsbag::device::{StreamId, StreamKind};
use rsbag::msg::ros2 as msgs;
use rsbag::record::{copy_recording, create_sink, CopySelection, Db3Options};
use rsbag::recording::Recording;
use rsbag::ros_camera;
use rsbag::storage::bag::{Compression, WriterOptions};
use rsbag::storage::rosbag2::{BagDirWriter, Durability, McapCompression};
use rsbag::storage::FileFormat;
use rsbag::{Error, Result};
use rsbag_ros2::{Node, Qos, Subscription, WaitSet};

use super::interrupt::{self, on_interrupt, Undo};
use super::play_ros2::{ros2_error, start_with_ros2_libraries};

/// Messages queued between the subscriptions and the writer; past it they
/// are dropped (a second of a 30 fps camera's images, camera info and
/// metadata, twice over).
const QUEUE: usize = 256;

/// What `record --ros2` is asked.
#[derive(Debug)]
pub struct Request<'a> {
    /// The wrapper's namespaces (one camera each).
    pub namespaces: &'a [String],
    /// The topics, when named (else the wrapper's under each namespace).
    pub topics: &'a [String],
    /// The recording to write (`.bag` or `.db3`).
    pub out: &'a Path,
    /// Replace `out` if it exists.
    pub force: bool,
    /// How long to record.
    pub duration: Duration,
    /// Subscribe reliable (else best effort).
    pub reliable: bool,
    /// The most bytes of messages queued for the writer.
    pub max_cache_bytes: usize,
    /// The compression of a `.bag`'s chunks and the options of a `.db3`,
    /// as `record` writes them.
    pub compression: (Compression, Db3Options),
}

/// A message taken: its topic's index, when it arrived (ns since the
/// epoch) and its CDR bytes.
struct Taken {
    topic: usize,
    time: u64,
    data: Vec<u8>,
}

/// The message type of a wrapper topic, by its last part.
fn type_of(topic: &str) -> Option<&'static str> {
    let leaf = topic.rsplit('/').next().unwrap_or(topic);
    Some(match leaf {
        "image_raw" | "image_rect_raw" => msgs::IMAGE,
        "compressed" | "compressedDepth" => msgs::COMPRESSED_IMAGE,
        "camera_info" => msgs::CAMERA_INFO,
        "sample" | "imu" => msgs::IMU,
        "tf_static" => msgs::TF_MESSAGE,
        "metadata" => msgs::RS_METADATA,
        _ => return None,
    })
}

/// The wrapper's topics under namespace `ns`: each stream's images (raw
/// and compressed) and camera info, the IMU topics, and `/tf_static`.
fn wrapper_topics(ns: &str) -> Vec<String> {
    let mut topics = Vec::new();
    let images = [
        StreamId::new(StreamKind::Depth, 0),
        StreamId::new(StreamKind::Color, 0),
        StreamId::new(StreamKind::Infrared, 1),
        StreamId::new(StreamKind::Infrared, 2),
    ];
    for id in images {
        let image = ros_camera::data_topic(ns, id);
        let compressed = if id.kind == StreamKind::Depth {
            "compressedDepth"
        } else {
            "compressed"
        };
        topics.push(format!("{image}/{compressed}"));
        topics.push(image);
        topics.push(ros_camera::stream_topic(ns, id, "camera_info"));
        topics.push(ros_camera::stream_topic(ns, id, "metadata"));
    }
    for id in [
        StreamId::new(StreamKind::Gyro, 0),
        StreamId::new(StreamKind::Accel, 0),
    ] {
        topics.push(ros_camera::data_topic(ns, id));
    }
    topics.push(format!("{}/imu", ns.trim_end_matches('/')));
    topics.push("/tf_static".into());
    topics
}

/// Record until `duration` has passed or Ctrl-C; the report.
pub fn run(request: &Request<'_>) -> Result<String> {
    start_with_ros2_libraries()?;
    let format = FileFormat::of_recording_path(request.out)?;
    if request.out.exists() && !request.force {
        return Err(Error::InvalidArgument(format!(
            "{} exists (--force replaces it)",
            request.out.display()
        )));
    }
    let topics: Vec<String> = if request.topics.is_empty() {
        request
            .namespaces
            .iter()
            .flat_map(|ns| wrapper_topics(ns))
            .collect()
    } else {
        request.topics.to_vec()
    };
    let node = Node::new("rsbag_record", "/").map_err(ros2_error)?;
    let (topics, subscriptions): (Vec<String>, Vec<Subscription>) =
        subscribe(&node, &topics, !request.topics.is_empty(), request.reliable)?
            .into_iter()
            .unzip();
    let capture_path = capture_dir(request.out);
    let writer =
        BagDirWriter::create_with(&capture_path, FileFormat::Db3, McapCompression::default())
            .map_err(|e| e.in_file(&capture_path))?;
    let _remove_capture = on_interrupt(Undo::RemoveDir(capture_path.clone()));
    let queued_bytes = Arc::new(AtomicUsize::new(0));
    let mut capture = Capture {
        writer,
        handles: vec![None; topics.len()],
        topics,
        queued_bytes: queued_bytes.clone(),
    };
    let interrupted = interrupt::handle();
    let stop = Arc::new(AtomicBool::new(false));
    let (sender, queued) = crossbeam_channel::bounded::<Taken>(QUEUE);
    let queue = Queue {
        sender,
        bytes: queued_bytes,
        max_bytes: request.max_cache_bytes,
    };
    let wait_set = WaitSet::new(&node, subscriptions.len()).map_err(ros2_error)?;
    let taker = {
        let stop = stop.clone();
        std::thread::spawn(move || take(subscriptions, wait_set, &queue, &stop))
    };
    let written = write(&mut capture, &queued, &interrupted, request.duration);
    stop.store(true, Ordering::Release);
    let taken = taker
        .join()
        .map_err(|_| Error::InvalidArgument("the ROS 2 subscriptions' thread failed".into()))?;
    // What was queued when the taker stopped.
    let drained = queued.try_iter().try_for_each(|m| capture.write(m));
    let Capture { writer, topics, .. } = capture;
    let dropped = match (written, drained, taken) {
        (Ok(()), Ok(()), Ok(dropped)) => dropped,
        (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => {
            writer.abandon();
            return Err(e);
        }
    };
    let messages = writer.message_counts();
    if messages.is_empty() {
        writer.abandon();
        return Err(Error::InvalidArgument(format!(
            "no message arrived on any of {} topics (is the camera running, under the \
             namespace given?)",
            topics.len()
        )));
    }
    writer.finish().map_err(|e| e.in_file(&capture_path))?;
    let mut text = convert(&capture_path, request, format).map_err(|e| {
        Error::InvalidArgument(format!(
            "{e}; what was received is kept in {} (a rosbag2 directory `rsbag convert` reads)",
            capture_path.display()
        ))
    })?;
    let _ = std::fs::remove_dir_all(&capture_path);
    for (topic, count) in &messages {
        text.push_str(&format!("{topic}: {count} messages\n"));
    }
    let lost: Vec<String> = (dropped.iter().filter(|(_, n)| **n > 0))
        .map(|(topic, n)| format!("{} {n}", topics[*topic]))
        .collect();
    if !lost.is_empty() {
        super::emit(&text);
        return Err(Error::InvalidArgument(format!(
            "messages were dropped (writing could not keep up): {}",
            lost.join(", ")
        )));
    }
    Ok(text)
}

/// The capture's directory beside `out` (`x.bag` → `x.bag.ros2-capture`).
fn capture_dir(out: &Path) -> PathBuf {
    let mut name = out.file_name().unwrap_or_default().to_owned();
    name.push(".ros2-capture");
    out.with_file_name(name)
}

/// A subscription per topic, reliable or best effort (`reliable`), keeping
/// up to 100 messages; `/tf_static` reliable and transient local. Of the
/// wrapper's topics, those of types the install lacks are left out, told
/// once per type; a topic named with `--topics` must be recordable.
fn subscribe(
    node: &Node,
    topics: &[String],
    named: bool,
    reliable: bool,
) -> Result<Vec<(String, Subscription)>> {
    let mut missing = Vec::new();
    let mut out = Vec::new();
    for topic in topics {
        let Some(msg_type) = type_of(topic) else {
            return Err(Error::InvalidArgument(format!(
                "--topics {topic}: not a topic of the wrapper's (an image_raw, image_rect_raw, \
                 compressed, compressedDepth, camera_info, sample, imu, metadata or /tf_static)"
            )));
        };
        let qos = if msg_type == msgs::TF_MESSAGE {
            Qos::latched()
        } else {
            Qos {
                reliable,
                transient_local: false,
                depth: 100,
            }
        };
        match node.subscription(topic, msg_type, qos) {
            Ok(s) => out.push((topic.clone(), s)),
            Err(e @ rsbag_ros2::Error::MissingType { .. }) if !named => {
                if !missing.contains(&msg_type) {
                    eprintln!("rsbag: warning: not recording its topics: {e}");
                    missing.push(msg_type);
                }
            }
            Err(e) => return Err(ros2_error(e)),
        }
    }
    Ok(out)
}

/// The queue's sending end, with the bytes it holds.
struct Queue {
    sender: Sender<Taken>,
    /// The bytes of the messages queued, taken off by [`Capture::write`].
    bytes: Arc<AtomicUsize>,
    max_bytes: usize,
}

impl Queue {
    /// Queue `message` if there is room for it; `Ok(false)` when it is
    /// full, an error once the writer is gone.
    fn offer(&self, message: Taken) -> std::result::Result<bool, ()> {
        let len = message.data.len();
        // The taker is the only one adding, so the room seen stays.
        if self.bytes.load(Ordering::Acquire).saturating_add(len) > self.max_bytes {
            return Ok(false);
        }
        self.bytes.fetch_add(len, Ordering::AcqRel);
        match self.sender.try_send(message) {
            Ok(()) => Ok(true),
            Err(e) => {
                self.bytes.fetch_sub(len, Ordering::AcqRel);
                match e {
                    TrySendError::Full(_) => Ok(false),
                    TrySendError::Disconnected(_) => Err(()),
                }
            }
        }
    }
}

/// Take every message as it arrives and queue it, until `stop`; the
/// messages dropped per topic index.
fn take(
    subscriptions: Vec<Subscription>,
    mut wait_set: WaitSet,
    queue: &Queue,
    stop: &AtomicBool,
) -> Result<BTreeMap<usize, u64>> {
    let mut dropped = BTreeMap::new();
    let all: Vec<&Subscription> = subscriptions.iter().collect();
    while !stop.load(Ordering::Acquire) {
        let ready = wait_set
            .wait(&all, Duration::from_millis(50))
            .map_err(ros2_error)?;
        for topic in ready {
            while let Some(data) = all[topic].take().map_err(ros2_error)? {
                let time = SystemTime::now()
                    .duration_since(SystemTime::UNIX_EPOCH)
                    .map_or(0, |d| d.as_nanos() as u64);
                match queue.offer(Taken { topic, time, data }) {
                    Ok(true) => {}
                    Ok(false) => *dropped.entry(topic).or_default() += 1,
                    Err(()) => return Ok(dropped),
                }
            }
        }
    }
    Ok(dropped)
}

/// Write what is queued until `duration` has passed or Ctrl-C.
fn write(
    capture: &mut Capture,
    queued: &Receiver<Taken>,
    interrupted: &Receiver<()>,
    duration: Duration,
) -> Result<()> {
    let deadline = Instant::now() + duration;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Ok(());
        }
        crossbeam_channel::select! {
            recv(queued) -> message => match message {
                Ok(message) => capture.write(message)?,
                Err(_) => return Ok(()),
            },
            recv(interrupted) -> _ => return Ok(()),
            default(left) => return Ok(()),
        }
    }
}

/// The capture being written: each topic added on its first message.
struct Capture {
    writer: BagDirWriter,
    topics: Vec<String>,
    handles: Vec<Option<usize>>,
    /// The bytes queued for it ([`Queue::bytes`]).
    queued_bytes: Arc<AtomicUsize>,
}

impl Capture {
    /// Write a message taken off the queue.
    fn write(&mut self, message: Taken) -> Result<()> {
        self.queued_bytes
            .fetch_sub(message.data.len(), Ordering::AcqRel);
        let handle = match self.handles[message.topic] {
            Some(handle) => handle,
            None => {
                let name = &self.topics[message.topic];
                let msg_type = type_of(name).unwrap_or(msgs::IMAGE);
                let durability = if msg_type == msgs::TF_MESSAGE {
                    Durability::Latched
                } else {
                    Durability::Volatile
                };
                let msg_type = rsbag::msg::ros2_definitions::message_type(msg_type);
                let handle = self.writer.add_topic(name, &msg_type, durability)?;
                self.handles[message.topic] = Some(handle);
                handle
            }
        };
        self.writer.write(handle, message.time, &message.data)
    }
}

/// Convert the capture as `rsbag convert` converts a camera bag.
fn convert(capture: &Path, request: &Request<'_>, format: FileFormat) -> Result<String> {
    let recording = Recording::open(capture)?;
    let out = request.out;
    let (compression, db3) = request.compression;
    let sink = create_sink(
        out.to_path_buf(),
        format,
        WriterOptions::default().compression(compression),
        db3,
        request.force,
    )?;
    let report = copy_recording(&recording, sink, &CopySelection::default(), |_| {})
        .map_err(|e| e.in_file(capture))?;
    let frames: Vec<String> = (report.frames.iter())
        .map(|(s, n)| format!("{s} {n}"))
        .collect();
    Ok(format!(
        "wrote {} ({} bytes): {} frames ({})\n",
        out.display(),
        report.size,
        report.frames.values().sum::<u64>(),
        frames.join(", ")
    ))
}
