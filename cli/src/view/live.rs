//! `rsbag view --camera`: a camera's streams live on the viewer's page
//! (the latest frame of each stream, rates, drops, IMU plots scrolling),
//! with recordings started and stopped from the page through rsbag's
//! recorder.
//!
//! Every sensor streams from the start to the end; librealsense's callback
//! only swaps the stream's latest frame (the page takes the newest when it
//! is ready for one; frames it never took are counted) and hands the frame
//! to a recorder when one listens. A recorder sees the camera through
//! [`TapDevice`], whose sensors are already streaming: recording starts and
//! stops without restarting the camera.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use parking_lot::Mutex;
use rsbag::device::{
    depth_units_of, CameraInfo, Device, Extrinsics, Frame, FrameCallback, Sensor, StreamId,
    StreamProfile,
};
use rsbag::record::{RecordOptions, RecordReport, Recorder};
use rsbag::recording::RecordedFrame;
use rsbag::storage::FileFormat;
use rsbag::{BagTime, Error, Result};
use rsbag_librealsense::{Context, LibrealsenseDevice};
use serde_json::{json, Map, Value};

use super::model::{kind_of_stream, stream_key};
use super::server::{body, query_value, reads, text, Api, Method, Reply};

/// IMU samples kept per stream for the plots (seconds at 400 Hz: more
/// than the page's window).
const SAMPLES_KEPT: usize = 4000;

/// One stream as the page sees it live.
struct LiveStream {
    key: String,
    stream: StreamId,
    profile: StreamProfile,
    /// How the page shows it (see [`kind_of_stream`]).
    kind: &'static str,
    sensor: usize,
    depth_units: Option<f32>,
    state: Mutex<StreamState>,
}

/// What came of a stream so far.
#[derive(Default)]
struct StreamState {
    /// The latest frame, its position in the stream (from 0) and when it
    /// came (seconds since the view started).
    latest: Option<(Frame, u64, f64)>,
    /// Frames delivered by librealsense.
    received: u64,
    /// Whether the page took the latest frame.
    taken: bool,
    /// Whether a page took a frame of the stream yet.
    watched: bool,
    /// Pictures replaced by a newer one before the page took them.
    not_shown: u64,
    last_number: Option<u64>,
    /// Frame numbers skipped: frames the camera dropped.
    missed: u64,
    /// IMU samples: time and x, y, z.
    samples: VecDeque<(f64, [f32; 3])>,
}

impl LiveStream {
    /// Note a frame (in librealsense's callback: nothing here waits).
    fn on_frame(&self, frame: &Frame, t: f64) {
        let mut state = self.state.lock();
        if let Some(last) = state.last_number {
            state.missed += frame.number.saturating_sub(last + 1);
        }
        state.last_number = Some(frame.number);
        if let Some(sample) = frame.motion() {
            if state.samples.len() == SAMPLES_KEPT {
                state.samples.pop_front();
            }
            state.samples.push_back((t, sample));
        }
        let picture = matches!(self.kind, "depth" | "image");
        // Counted once a page watches: frames before it came were not
        // missed by anyone.
        if picture && state.watched && !state.taken {
            state.not_shown += 1;
        }
        if picture {
            state.latest = Some((frame.clone(), state.received, t));
            state.taken = false;
        }
        state.received += 1;
    }

    /// The latest frame, its position and time, for the page, if it is
    /// newer than the one at position `after`.
    fn take_newer(&self, after: Option<u64>) -> Option<(Frame, u64, f64)> {
        let mut state = self.state.lock();
        let newer = state
            .latest
            .clone()
            .filter(|(_, index, _)| after.is_none_or(|a| *index > a));
        if newer.is_some() {
            state.taken = true;
            state.watched = true;
        }
        newer
    }

    /// The stream's counts, and its IMU samples after `since` seconds.
    fn status(&self, since: f64) -> Value {
        let state = self.state.lock();
        let samples: Vec<&(f64, [f32; 3])> =
            state.samples.iter().filter(|(t, _)| *t > since).collect();
        let column = |k: usize| samples.iter().map(|(_, v)| v[k]).collect::<Vec<f32>>();
        json!({
            "received": state.received,
            "missed": state.missed,
            "not_shown": state.not_shown,
            "number": state.last_number,
            "samples": (self.kind == "motion").then(|| json!({
                "t": samples.iter().map(|(t, _)| *t).collect::<Vec<f64>>(),
                "x": column(0), "y": column(1), "z": column(2),
            })),
        })
    }
}

/// The streams of the camera, fed by librealsense's callbacks.
struct Streams {
    started: Instant,
    streams: Vec<LiveStream>,
}

impl Streams {
    fn on_frame(&self, frame: &Frame) {
        let t = self.started.elapsed().as_secs_f64();
        if let Some(stream) = self
            .streams
            .iter()
            .find(|s| s.stream == frame.profile.stream)
        {
            stream.on_frame(frame, t);
        }
    }
}

/// A sensor of the live camera as a recorder sees it: already streaming;
/// starting it subscribes to its frames, stopping it unsubscribes.
struct TapSensor {
    inner: Arc<dyn Sensor>,
    listener: Mutex<Option<FrameCallback>>,
}

impl TapSensor {
    /// Hand `frame` to the recorder listening, if one is (the lock is not
    /// held while it runs).
    fn forward(&self, frame: Frame) {
        let listener = self.listener.lock().clone();
        if let Some(listener) = listener {
            listener(frame);
        }
    }
}

impl Sensor for TapSensor {
    rsbag::forward_sensor_description!(inner);

    /// The profiles streaming already: anything else cannot be recorded
    /// without restarting the camera.
    fn open(&self, profiles: &[StreamProfile]) -> Result<()> {
        let active = self.inner.active_profiles();
        match profiles
            .iter()
            .find(|p| !active.iter().any(|a| a.unique_id == p.unique_id))
        {
            Some(p) => Err(Error::InvalidArgument(format!(
                "the live view does not stream {} {}: it records what it shows",
                p.stream, p.format
            ))),
            None => Ok(()),
        }
    }

    fn start(&self, callback: FrameCallback) -> Result<()> {
        *self.listener.lock() = Some(callback);
        Ok(())
    }

    fn stop(&self) -> Result<()> {
        *self.listener.lock() = None;
        Ok(())
    }

    fn close(&self) -> Result<()> {
        Ok(())
    }

    fn active_profiles(&self) -> Vec<StreamProfile> {
        self.inner.active_profiles()
    }
}

/// The live camera as a recorder sees it (see [`TapSensor`]).
struct TapDevice {
    inner: Arc<LibrealsenseDevice>,
    sensors: Vec<Arc<TapSensor>>,
}

impl Device for TapDevice {
    fn info(&self) -> CameraInfo {
        self.inner.info()
    }

    fn sensors(&self) -> Vec<Arc<dyn Sensor>> {
        self.sensors
            .iter()
            .map(|s| s.clone() as Arc<dyn Sensor>)
            .collect()
    }

    fn extrinsics(&self, from: StreamId, to: StreamId) -> Option<Extrinsics> {
        self.inner.extrinsics(from, to)
    }
}

/// The camera, every sensor streaming its default profiles while the view
/// runs.
struct LiveCamera {
    device: Arc<LibrealsenseDevice>,
    tap: Arc<TapDevice>,
    streams: Arc<Streams>,
    /// The profiles streaming.
    profiles: Vec<StreamProfile>,
}

impl LiveCamera {
    /// Start every sensor of `device` with its default profile of each
    /// stream (a played recording is held until all are started).
    fn start(device: Arc<LibrealsenseDevice>) -> Result<LiveCamera> {
        let sensors = device.sensors();
        let chosen: Vec<Vec<StreamProfile>> =
            sensors.iter().map(|s| defaults(s.as_ref())).collect();
        let mut streams = Vec::new();
        for (i, (sensor, profiles)) in sensors.iter().zip(&chosen).enumerate() {
            let units = depth_units_of(&sensor.options());
            for profile in profiles {
                let kind = kind_of_stream(profile.stream, profile.format);
                streams.push(LiveStream {
                    key: stream_key(profile.stream),
                    stream: profile.stream,
                    profile: *profile,
                    kind,
                    sensor: i,
                    depth_units: (kind == "depth").then_some(units),
                    state: Mutex::default(),
                });
            }
        }
        if streams.is_empty() {
            return Err(Error::InvalidArgument(
                "the camera has no stream to show".into(),
            ));
        }
        let streams = Arc::new(Streams {
            started: Instant::now(),
            streams,
        });
        let tap = Arc::new(TapDevice {
            inner: device.clone(),
            sensors: sensors
                .iter()
                .map(|s| {
                    Arc::new(TapSensor {
                        inner: s.clone(),
                        listener: Mutex::new(None),
                    })
                })
                .collect(),
        });
        let camera = LiveCamera {
            profiles: chosen.iter().flatten().copied().collect(),
            device,
            tap,
            streams,
        };
        // A played recording holds its frames until every sensor started.
        let paused = camera.device.pause().is_ok();
        for ((sensor, tap), profiles) in sensors.iter().zip(&camera.tap.sensors).zip(&chosen) {
            if profiles.is_empty() {
                continue;
            }
            sensor.open(profiles)?;
            let (streams, tap) = (camera.streams.clone(), tap.clone());
            sensor.start(Arc::new(move |frame: Frame| {
                streams.on_frame(&frame);
                tap.forward(frame);
            }))?;
        }
        if paused {
            camera
                .device
                .resume()
                .map_err(crate::devices::librealsense_error)?;
        }
        Ok(camera)
    }

    fn stream(&self, key: &str) -> Option<&LiveStream> {
        self.streams.streams.iter().find(|s| s.key == key)
    }
}

impl Drop for LiveCamera {
    fn drop(&mut self) {
        for sensor in self.device.sensors() {
            if !sensor.active_profiles().is_empty() {
                let _ = sensor.stop();
                let _ = sensor.close();
            }
        }
    }
}

/// A sensor's default profile of each of its streams.
fn defaults(sensor: &dyn Sensor) -> Vec<StreamProfile> {
    let mut chosen: Vec<StreamProfile> = Vec::new();
    for profile in sensor.profiles().into_iter().filter(|p| p.is_default) {
        if !chosen.iter().any(|c| c.stream == profile.stream) {
            chosen.push(profile);
        }
    }
    chosen
}

/// A recording made from the page.
enum Recording {
    Idle,
    /// Being started or finished.
    Busy,
    Active {
        recorder: Recorder,
        path: PathBuf,
        began: Instant,
    },
}

/// Where recordings made from the page go.
pub struct RecordTo {
    /// The directory.
    pub dir: PathBuf,
    /// Their format.
    pub format: FileFormat,
}

/// What the server of a live view serves.
pub struct LiveSite {
    camera: LiveCamera,
    document: String,
    record_to: RecordTo,
    recording: Mutex<Recording>,
    /// What each recording made from the page wrote (or why it failed).
    finished: Mutex<Vec<Value>>,
}

impl LiveSite {
    /// Start the camera `serial` (the only one connected when empty) of
    /// `context` streaming.
    pub fn start(context: &Context, serial: &str, record_to: RecordTo) -> Result<LiveSite> {
        let serial = match serial {
            "" => only_serial(context)?,
            serial => serial.to_owned(),
        };
        let device = Arc::new(
            context
                .device(&serial)
                .map_err(crate::devices::librealsense_error)?,
        );
        let camera = LiveCamera::start(device)?;
        let document = document(context, &camera, &record_to).to_string();
        Ok(LiveSite {
            camera,
            document,
            record_to,
            recording: Mutex::new(Recording::Idle),
            finished: Mutex::new(Vec::new()),
        })
    }

    /// The camera's serial number.
    pub fn serial(&self) -> String {
        serial_of(&self.camera.device.info())
    }

    /// Finish a running recording once the simulated camera has played its
    /// file to the end (as `rsbag record --simulate` ends with the file).
    pub fn finish_if_played(&self) {
        let recording = matches!(*self.recording.lock(), Recording::Active { .. });
        if recording && self.camera.device.playback_finished() {
            if let Some(Err(e)) = self.stop_recording() {
                eprintln!("rsbag: {e}");
            }
        }
    }

    /// Finish a recording still running (at Ctrl-C).
    pub fn finish(&self) -> Result<()> {
        match self.stop_recording() {
            Some(Err(e)) => Err(e),
            _ => Ok(()),
        }
    }

    fn status(&self, since: f64) -> Value {
        let streams: Map<String, Value> = self
            .camera
            .streams
            .streams
            .iter()
            .map(|s| (s.key.clone(), s.status(since)))
            .collect();
        let recording = match &*self.recording.lock() {
            Recording::Idle => Value::Null,
            Recording::Busy => json!({ "busy": true }),
            Recording::Active {
                recorder,
                path,
                began,
            } => json!({
                "path": path,
                "began_s": began.saturating_duration_since(self.camera.streams.started).as_secs_f64(),
                "elapsed_s": began.elapsed().as_secs_f64(),
                "streams": counts_json(&recorder.counts()),
                "failure": recorder.failure(),
            }),
        };
        json!({
            "t": self.camera.streams.started.elapsed().as_secs_f64(),
            "streams": streams,
            "recording": recording,
            "finished": self.finished.lock().clone(),
            "playback_finished": self.camera.device.playback_finished(),
        })
    }

    /// `/api/live/frame?stream=KEY[&after=N][&max_width=W]`: the stream's
    /// latest frame (204 when it is not newer than frame N).
    fn frame(&self, query: &str) -> Reply {
        let Some(key) = query_value(query, "stream") else {
            return text(400, "give stream=NAME");
        };
        let Some(stream) = self.camera.stream(&key) else {
            return text(404, &format!("the camera streams no {key}"));
        };
        let after = query_value(query, "after").and_then(|v| v.parse::<u64>().ok());
        let max_width = query_value(query, "max_width")
            .and_then(|v| v.parse::<u32>().ok())
            .filter(|&w| w > 0);
        let Some((frame, index, t)) = stream.take_newer(after) else {
            return body(Vec::new(), "application/octet-stream").with_status_code(204);
        };
        let recorded = RecordedFrame {
            stream: stream.stream,
            sensor: stream.sensor,
            index,
            bag_time: BagTime::from_nanos((frame.system_time * 1e6) as u64),
            time: Duration::from_secs_f64(t),
            frame,
        };
        match super::payload::encode(&recorded, stream.depth_units, max_width) {
            Ok(Some(bytes)) => body(bytes, "application/octet-stream"),
            Ok(None) => text(404, &format!("{key} has no pictures")),
            Err(e) => text(500, &e.to_string()),
        }
    }

    fn start_recording(&self) -> Reply {
        {
            let mut recording = self.recording.lock();
            if !matches!(*recording, Recording::Idle) {
                return text(409, "a recording is running already");
            }
            *recording = Recording::Busy;
        }
        let started = self.new_recorder();
        let mut recording = self.recording.lock();
        match started {
            Ok((recorder, path)) => {
                let reply = json!({ "path": path });
                *recording = Recording::Active {
                    recorder,
                    path,
                    began: Instant::now(),
                };
                body(reply.to_string().into_bytes(), "application/json")
            }
            Err(e) => {
                *recording = Recording::Idle;
                text(500, &format!("cannot record: {e}"))
            }
        }
    }

    /// A recorder writing the camera's streams into a new file.
    fn new_recorder(&self) -> Result<(Recorder, PathBuf)> {
        let path = self.next_path();
        let options = RecordOptions {
            format: Some(self.record_to.format),
            ..RecordOptions::default()
        };
        let recorder = Recorder::new(&path, self.camera.tap.clone(), options)?;
        crate::record::start(&recorder, &self.camera.profiles)?;
        Ok((recorder, path))
    }

    /// `live-SERIAL-N.EXT` in the directory, N the first number free (the
    /// recorder never replaces a file).
    fn next_path(&self) -> PathBuf {
        let (serial, ext) = (self.serial(), self.record_to.format.extension());
        (1..)
            .map(|n| self.record_to.dir.join(format!("live-{serial}-{n}.{ext}")))
            .find(|p| p.symlink_metadata().is_err())
            .unwrap_or_default()
    }

    /// Finish the running recording, if one runs, and tell what it wrote.
    fn stop_recording(&self) -> Option<Result<RecordReport>> {
        let (recorder, path) = {
            let mut recording = self.recording.lock();
            match std::mem::replace(&mut *recording, Recording::Busy) {
                Recording::Active { recorder, path, .. } => (recorder, path),
                other => {
                    *recording = other;
                    return None;
                }
            }
        };
        let finished = recorder.finish();
        *self.recording.lock() = Recording::Idle;
        let note = match &finished {
            Ok(report) => {
                let elapsed = report.duration.as_secs_f64();
                crate::emit(&crate::record::report_text(report, elapsed));
                json!({
                    "path": report.path, "bytes": report.file_size,
                    "duration_s": report.duration.as_secs_f64(),
                    "streams": counts_json(&report.streams),
                })
            }
            Err(e) => json!({ "path": path, "error": e.to_string() }),
        };
        self.finished.lock().push(note);
        Some(finished)
    }

    fn record(&self, query: &str) -> Reply {
        match query_value(query, "action").as_deref() {
            Some("start") => self.start_recording(),
            Some("stop") => match self.stop_recording() {
                None => text(409, "no recording is running"),
                Some(Ok(_)) => {
                    let last = self.finished.lock().last().cloned().unwrap_or_default();
                    body(last.to_string().into_bytes(), "application/json")
                }
                Some(Err(e)) => text(500, &e.to_string()),
            },
            _ => text(400, "give action=start or action=stop"),
        }
    }
}

impl Api for LiveSite {
    fn page(&self) -> String {
        super::page::served_live()
    }

    fn takes_post(&self, path: &str) -> bool {
        path == "/api/live/record"
    }

    fn answer(&self, method: &Method, path: &str, query: &str) -> Reply {
        let get = reads(method);
        match (path, get) {
            ("/api/live", true) => body(self.document.clone().into_bytes(), "application/json"),
            ("/api/live/status", true) => {
                let since = query_value(query, "since")
                    .and_then(|v| v.parse::<f64>().ok())
                    .unwrap_or(f64::NEG_INFINITY);
                body(
                    self.status(since).to_string().into_bytes(),
                    "application/json",
                )
            }
            ("/api/live/frame", true) => self.frame(query),
            ("/api/live/record", false) if *method == Method::POST => self.record(query),
            ("/api/live/record", _) => text(405, "POST starts and stops a recording"),
            (_, false) => text(405, "only GET is served here"),
            _ => text(404, "not found"),
        }
    }
}

impl Drop for LiveSite {
    fn drop(&mut self) {
        if let Some(Err(e)) = self.stop_recording() {
            eprintln!("rsbag: {e}");
        }
    }
}

/// Written and dropped frames and bytes per stream, by stream key.
fn counts_json(
    counts: &std::collections::BTreeMap<StreamId, rsbag::record::StreamCounts>,
) -> Value {
    Value::Object(
        counts
            .iter()
            .map(|(stream, c)| {
                let value = json!({ "written": c.written, "dropped": c.dropped, "bytes": c.bytes });
                (stream_key(*stream), value)
            })
            .collect(),
    )
}

fn serial_of(info: &CameraInfo) -> String {
    info.get("Serial Number").unwrap_or("camera").to_owned()
}

/// The serial number of the only device connected.
fn only_serial(context: &Context) -> Result<String> {
    let devices = context
        .devices()
        .map_err(crate::devices::librealsense_error)?;
    let serials: Vec<String> = devices
        .iter()
        .map(|d| d.info.get("Serial Number").cloned().unwrap_or_default())
        .collect();
    match serials.as_slice() {
        [only] => Ok(only.clone()),
        [] => Err(Error::InvalidArgument(
            "--camera: no RealSense device is connected".into(),
        )),
        several => Err(Error::InvalidArgument(format!(
            "--camera: {} devices are connected; name one: --camera {}",
            several.len(),
            several.join(" or --camera ")
        ))),
    }
}

/// The page's document of the live camera: the device and its sensors (as
/// a recording's summary describes them, for the device panel), the
/// streams shown, and where recordings go.
fn document(context: &Context, camera: &LiveCamera, record_to: &RecordTo) -> Value {
    let info = |info: &CameraInfo| -> Map<String, Value> {
        info.iter().map(|(k, v)| (k.to_owned(), json!(v))).collect()
    };
    let sensors: Vec<Value> = camera
        .device
        .sensors()
        .iter()
        .map(|s| {
            let options: Map<String, Value> = s
                .options()
                .iter()
                .map(|o| (o.name.clone(), json!(o.value)))
                .collect();
            json!({ "name": s.name(), "info": info(&s.info()), "options": options })
        })
        .collect();
    let streams: Vec<Value> = camera
        .streams
        .streams
        .iter()
        .map(|s| {
            let resolution = s.profile.resolution();
            json!({
                "key": s.key, "name": s.stream.kind.to_string(), "index": s.stream.index,
                "sensor": s.sensor, "kind": s.kind, "format": s.profile.format.to_string(),
                "fps": s.profile.fps, "width": resolution.map(|r| r.0),
                "height": resolution.map(|r| r.1), "depth_units": s.depth_units,
            })
        })
        .collect();
    let device_info = info(&camera.device.info());
    json!({
        "live": true,
        "library": { "path": context.library_path(), "version": context.library_version() },
        "device": device_info,
        "streams": streams,
        "summary": { "realsense": { "device": device_info, "notes": [], "sensors": sensors } },
        "options": [],
        "record_to": { "dir": record_to.dir, "format": record_to.format.extension() },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rsbag::device::synthetic::{DEPTH, GYRO};
    use rsbag::device::{motion_bytes, Format, TimestampDomain};

    fn live(profile: StreamProfile) -> LiveStream {
        LiveStream {
            key: stream_key(profile.stream),
            stream: profile.stream,
            profile,
            kind: kind_of_stream(profile.stream, profile.format),
            sensor: 0,
            depth_units: None,
            state: Mutex::default(),
        }
    }

    fn frame(profile: StreamProfile, number: u64, data: Vec<u8>) -> Frame {
        Frame {
            profile,
            number,
            timestamp: number as f64,
            domain: TimestampDomain::HardwareClock,
            system_time: 0.0,
            metadata: Vec::new(),
            stride: 0,
            data: data.into(),
        }
    }

    #[test]
    fn a_picture_stream_keeps_its_latest_frame_and_counts_the_skipped_ones() {
        let profile = StreamProfile::video(DEPTH, Format::Z16, 2, 1, 30);
        let stream = live(profile);
        let take = |after| stream.take_newer(after).map(|(f, i, _)| (f.number, i));
        // Before a page watches, nothing counts as not shown.
        for number in [1, 2, 3] {
            stream.on_frame(&frame(profile, number, vec![0; 4]), 0.0);
        }
        assert_eq!(take(None), Some((3, 2)));
        assert_eq!(take(Some(2)), None, "no newer frame");
        // Frames 5 and 6 never taken: #4 missing (the camera dropped it),
        // #5 replaced by #6 before the page took it.
        stream.on_frame(&frame(profile, 5, vec![0; 4]), 0.1);
        stream.on_frame(&frame(profile, 6, vec![0; 4]), 0.2);
        assert_eq!(take(Some(2)), Some((6, 4)));
        let status = stream.status(f64::NEG_INFINITY);
        assert_eq!(status["received"], 5);
        assert_eq!(status["missed"], 1);
        assert_eq!(status["not_shown"], 1);
        assert_eq!(status["samples"], Value::Null);
    }

    #[test]
    fn an_imu_stream_keeps_its_samples_after_the_time_asked() {
        let profile = StreamProfile::motion(GYRO, Format::MotionXyz32f, 200);
        let stream = live(profile);
        for n in 0..3u64 {
            let sample = [n as f32, 2.0 * n as f32, -1.0];
            stream.on_frame(&frame(profile, n + 1, motion_bytes(sample)), n as f64);
        }
        let status = stream.status(0.5);
        assert_eq!(status["samples"]["t"], json!([1.0, 2.0]));
        assert_eq!(status["samples"]["y"], json!([2.0, 4.0]));
        assert_eq!(status["not_shown"], 0);
        assert!(stream.state.lock().latest.is_none(), "no picture kept");
    }
}
