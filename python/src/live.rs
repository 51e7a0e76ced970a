//! Cameras in Python through librealsense (the `rsbag-librealsense`
//! crate, which loads librealsense's C API at run time): the devices
//! connected, described as a recording describes its device, and a
//! device's streams grouped into framesets as a [`Pipeline`](crate::playback::Pipeline)
//! groups a recording's, for `rsbag.pyrealsense2`'s pipeline.
//!
//! librealsense's callback only copies its frame into a bounded queue
//! (a frame that finds it full is dropped and counted); framesets are made
//! in the thread that asks for them, and every wait wakes on `stop()`.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender};
use parking_lot::Mutex;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use rsbag::device::{
    Device, DeviceSnapshot, Frame as DeviceFrame, ProfileKind, Sensor, StreamId, StreamKind,
    StreamProfile,
};
use rsbag::processing::filters::SensorFacts;
use rsbag::recording::{SyncOptions, Syncer};
use rsbag_librealsense::{Context, LibrealsenseDevice};

use crate::errors::to_py;
use crate::frame::Frame;
use crate::{convert, processing, FrameSet};

/// How long a wait releases the GIL before it looks for a signal.
const SIGNAL_CHECK: Duration = Duration::from_millis(100);

/// A librealsense error as Python's `RuntimeError` (pyrealsense2 raises
/// that for librealsense's errors).
fn runtime(e: rsbag_librealsense::Error) -> PyErr {
    PyRuntimeError::new_err(e.to_string())
}

/// A librealsense context shared between threads.
struct SharedContext(Context);

// SAFETY: librealsense's contexts may be used from any thread; this one
// is only used under the `LiveContext`'s mutex.
unsafe impl Send for SharedContext {}

/// librealsense, loaded, and its context: the cameras connected and the
/// recordings added as cameras: `rsbag.LiveContext(library=None)` loads
/// `library`, else `RSBAG_LIBREALSENSE`, else the system's librealsense2.
#[pyclass(module = "rsbag", frozen)]
pub struct LiveContext {
    context: Mutex<SharedContext>,
}

#[pymethods]
impl LiveContext {
    #[new]
    #[pyo3(signature = (library=None))]
    fn new(py: Python<'_>, library: Option<std::path::PathBuf>) -> PyResult<LiveContext> {
        let context = py
            .detach(|| {
                match &library {
                    Some(path) => Context::from_library(path),
                    None => Context::new(),
                }
                .map(SharedContext)
            })
            .map_err(|e| match e {
                // Its own text tells the command-line tool's users what
                // to install; rsbag.pyrealsense2 tells Python's.
                rsbag_librealsense::Error::NotInstalled(reasons) => {
                    PyRuntimeError::new_err(format!("no librealsense2 on this system ({reasons})"))
                }
                e => runtime(e),
            })?;
        Ok(LiveContext {
            context: Mutex::new(context),
        })
    }

    /// The loaded librealsense's version (`2.55.1`).
    #[getter]
    fn library_version(&self) -> String {
        self.context.lock().0.library_version()
    }

    /// Add the recording `path` as a device of this context, played by
    /// librealsense as if its camera were connected (for as long as the
    /// context lives).
    fn simulate(&self, py: Python<'_>, path: std::path::PathBuf) -> PyResult<()> {
        let context = &self.context;
        py.detach(|| context.lock().0.simulate(&path))
            .map_err(runtime)
    }

    /// Every device connected, in librealsense's order.
    fn devices(&self, py: Python<'_>) -> PyResult<Vec<LiveDevice>> {
        let context = &self.context;
        py.detach(|| {
            let context = context.lock();
            let mut devices = Vec::new();
            for described in context.0.devices()? {
                let serial = described
                    .info
                    .get("Serial Number")
                    .cloned()
                    .unwrap_or_default();
                let device = Arc::new(context.0.device(&serial)?);
                let snapshot = DeviceSnapshot::of(device.as_ref());
                devices.push(LiveDevice { device, snapshot });
            }
            Ok(devices)
        })
        .map_err(runtime)
    }

    fn __repr__(&self) -> String {
        format!(
            "<rsbag.LiveContext librealsense {}>",
            self.library_version()
        )
    }
}

/// A device of a [`LiveContext`], described as `Recording` describes a
/// recorded device (`info`, `sensors`, `extrinsics`, `depth_units`,
/// `alignment`, `pointcloud`), whose streams `start` groups into framesets.
#[pyclass(module = "rsbag", frozen)]
pub struct LiveDevice {
    device: Arc<LibrealsenseDevice>,
    /// What the device was when listed: its info, sensors and profiles.
    snapshot: DeviceSnapshot,
}

#[pymethods]
impl LiveDevice {
    /// The camera info (`{"Name": ..., "Serial Number": ...}`).
    #[getter]
    fn info<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        convert::camera_info(py, &self.snapshot.info)
    }

    /// Each sensor as `Recording.sensors` gives it (every profile the
    /// device offers; options as they were when listed).
    #[getter]
    fn sensors<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        convert::sensors(py, &self.snapshot)
    }

    /// The transform from stream `source` to stream `target` (as
    /// `Recording.extrinsics`), or None where librealsense has none.
    fn extrinsics<'py>(
        &self,
        py: Python<'py>,
        source: &str,
        target: &str,
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        let (from, to) = (self.stream(source)?, self.stream(target)?);
        match self.device.extrinsics(from, to) {
            Some(e) => convert::extrinsics(py, &e).map(Some),
            None => Ok(None),
        }
    }

    /// Metres per raw unit of the depth stream `depth` (its sensor's
    /// Depth Units option).
    #[pyo3(signature = (depth="Depth"))]
    fn depth_units(&self, depth: &str) -> PyResult<f32> {
        let stream = self.stream(depth)?;
        Ok(self.facts(stream).depth_units)
    }

    /// How the depth stream `depth` aligns with the video stream `other`
    /// (`rs.align`), from the profiles streaming (else the first of each
    /// stream), librealsense's extrinsics and the depth units.
    fn alignment(&self, depth: &str, other: &str) -> PyResult<processing::Alignment> {
        let (depth, other) = (self.stream(depth)?, self.stream(other)?);
        let extrinsics = self.device.extrinsics(depth, other).ok_or_else(|| {
            PyRuntimeError::new_err(format!("no extrinsics from {depth} to {other}"))
        })?;
        let inner = rsbag::processing::Alignment::new(
            &self.intrinsics(depth)?,
            self.facts(depth).depth_units,
            &self.intrinsics(other)?,
            &extrinsics,
        );
        Ok(processing::Alignment { inner })
    }

    /// Point clouds of the depth stream `depth` (`rs.pointcloud`), mapped
    /// to the video stream `map_to` when given.
    #[pyo3(signature = (depth="Depth", map_to=None))]
    fn pointcloud(&self, depth: &str, map_to: Option<&str>) -> PyResult<processing::PointCloud> {
        let depth = self.stream(depth)?;
        let mut inner = rsbag::processing::PointCloudMaker::new(
            &self.intrinsics(depth)?,
            self.facts(depth).depth_units,
        );
        if let Some(other) = map_to {
            let other = self.stream(other)?;
            let extrinsics = self.device.extrinsics(depth, other).ok_or_else(|| {
                PyRuntimeError::new_err(format!("no extrinsics from {depth} to {other}"))
            })?;
            inner = inner.map_to(&self.intrinsics(other)?, &extrinsics);
        }
        Ok(processing::PointCloud { inner })
    }

    /// Open and start the profiles whose librealsense ids are
    /// `unique_ids`, their frames grouped into framesets; at most
    /// `queue_size` frames wait to be grouped (more are dropped, and
    /// counted).
    #[pyo3(signature = (unique_ids, queue_size=64))]
    fn start(
        &self,
        py: Python<'_>,
        unique_ids: Vec<u32>,
        queue_size: usize,
    ) -> PyResult<LiveStream> {
        let device = self.device.clone();
        py.detach(|| LiveStream::start(device, &unique_ids, queue_size.max(1)))
            .map_err(to_py)
    }

    fn __repr__(&self) -> String {
        format!(
            "<rsbag.LiveDevice {} {}>",
            self.snapshot.info.get("Name").unwrap_or_default(),
            self.snapshot.info.get("Serial Number").unwrap_or_default()
        )
    }
}

impl LiveDevice {
    /// The stream named `name` (`"Depth"`, `"Infrared 1"`).
    fn stream(&self, name: &str) -> PyResult<StreamId> {
        self.snapshot
            .sensors
            .iter()
            .flat_map(|s| &s.profiles)
            .map(|p| p.stream)
            .find(|s| s.name() == name)
            .ok_or_else(|| PyRuntimeError::new_err(format!("the device has no stream {name:?}")))
    }

    /// The facts of the sensor that streams `stream` (its options now).
    fn facts(&self, stream: StreamId) -> SensorFacts {
        let sensor = self
            .device
            .sensors()
            .into_iter()
            .find(|s| s.profiles().iter().any(|p| p.stream == stream));
        SensorFacts::from_options(&sensor.map(|s| s.options()).unwrap_or_default())
    }

    /// The intrinsics of `stream`'s profile streaming, else of its first.
    fn intrinsics(&self, stream: StreamId) -> PyResult<rsbag::device::Intrinsics> {
        let sensors = self.device.sensors();
        let active = sensors.iter().flat_map(|s| s.active_profiles());
        let offered = sensors.iter().flat_map(|s| s.profiles());
        active
            .chain(offered)
            .filter(|p| p.stream == stream)
            .find_map(|p| match p.kind {
                ProfileKind::Video { intrinsics, .. } => intrinsics,
                _ => None,
            })
            .ok_or_else(|| PyRuntimeError::new_err(format!("no intrinsics for {stream}")))
    }
}

/// A device's streams started, their frames grouped into framesets (what
/// `LiveDevice.start` gives): `try_wait_for_frames`, `poll_for_frames`,
/// `stop`.
#[pyclass(module = "rsbag", frozen)]
pub struct LiveStream {
    device: Arc<LibrealsenseDevice>,
    /// The sensors started, to stop.
    started: Mutex<Vec<Arc<dyn Sensor>>>,
    profiles: Vec<StreamProfile>,
    frames: Receiver<DeviceFrame>,
    /// Dropped by `stop()`: every wait on `stopped` then wakes.
    stop: Mutex<Option<Sender<()>>>,
    stopped: Receiver<()>,
    syncer: Mutex<Syncer<DeviceFrame>>,
    dropped: Arc<AtomicU64>,
    /// What a depth frame of each depth stream carries (depth units).
    facts: Vec<(StreamId, SensorFacts)>,
}

impl LiveStream {
    fn start(
        device: Arc<LibrealsenseDevice>,
        unique_ids: &[u32],
        queue_size: usize,
    ) -> rsbag::Result<LiveStream> {
        let (sender, frames) = crossbeam_channel::bounded(queue_size);
        let (stop, stopped) = crossbeam_channel::bounded(0);
        let dropped = Arc::new(AtomicU64::new(0));
        let mut chosen = Vec::new();
        let mut opened: Vec<(Arc<dyn Sensor>, Vec<StreamProfile>)> = Vec::new();
        for sensor in device.sensors() {
            let wanted: Vec<StreamProfile> = sensor
                .profiles()
                .into_iter()
                .filter(|p| unique_ids.contains(&p.unique_id))
                .collect();
            if !wanted.is_empty() {
                chosen.extend(wanted.iter().copied());
                opened.push((sensor, wanted));
            }
        }
        if chosen.is_empty() {
            return Err(rsbag::Error::InvalidArgument(format!(
                "the device has no profile with a unique id among {unique_ids:?}"
            )));
        }
        let facts = opened
            .iter()
            .flat_map(|(sensor, profiles)| {
                let facts = SensorFacts::from_options(&sensor.options());
                profiles
                    .iter()
                    .filter(|p| p.stream.kind == StreamKind::Depth)
                    .map(move |p| (p.stream, facts))
            })
            .collect();
        let stream = LiveStream {
            device: device.clone(),
            started: Mutex::new(Vec::new()),
            profiles: chosen.clone(),
            frames,
            stop: Mutex::new(Some(stop)),
            stopped,
            syncer: Mutex::new(Syncer::new(chosen, SyncOptions::default())),
            dropped: dropped.clone(),
            facts,
        };
        // A recording played as a camera holds its frames until every
        // sensor has started (a camera refuses the pause: it streams).
        let held = device.pause().is_ok();
        let callback: rsbag::device::FrameCallback = Arc::new(move |frame| {
            if sender.try_send(frame).is_err() {
                dropped.fetch_add(1, Ordering::Relaxed);
            }
        });
        let started = opened.into_iter().try_for_each(|(sensor, profiles)| {
            sensor.open(&profiles)?;
            if let Err(e) = sensor.start(callback.clone()) {
                let _ = sensor.close();
                return Err(e);
            }
            stream.started.lock().push(sensor);
            Ok(())
        });
        if held {
            let _ = device.resume();
        }
        if let Err(e) = started {
            stream.stop_sensors();
            return Err(e);
        }
        Ok(stream)
    }

    /// Stop and close every sensor started (librealsense returns once no
    /// callback of a sensor runs).
    fn stop_sensors(&self) {
        let started = std::mem::take(&mut *self.started.lock());
        for sensor in started {
            let _ = sensor.stop();
            let _ = sensor.close();
        }
    }

    /// A frameset the syncer has ready, after taking in what arrived;
    /// with `ended`, everything it holds (no frame will come to complete
    /// it).
    fn ready(&self, ended: bool) -> Option<rsbag::recording::FrameSet> {
        let mut syncer = self.syncer.lock();
        for frame in self.frames.try_iter() {
            syncer.push(frame);
        }
        if ended {
            syncer.finish();
        }
        syncer.pop()
    }

    fn is_stopped(&self) -> bool {
        self.stop.lock().is_none()
    }

    /// The next frameset within `timeout` (None: poll); None once stopped
    /// or when none came in time.
    fn next(&self, py: Python<'_>, timeout: Option<Duration>) -> PyResult<Option<FrameSet>> {
        let deadline = timeout.and_then(|t| Instant::now().checked_add(t));
        loop {
            if let Some(set) = self.ready(false) {
                return Ok(Some(self.frameset(set)));
            }
            if timeout.is_none() || self.is_stopped() {
                return Ok(None);
            }
            let slice = deadline.map_or(SIGNAL_CHECK, |d| {
                d.saturating_duration_since(Instant::now())
                    .min(SIGNAL_CHECK)
            });
            let (frames, stopped) = (&self.frames, &self.stopped);
            // No lock is held while waiting: a frame or stop() wakes it.
            let arrived = py.detach(|| {
                crossbeam_channel::select! {
                    recv(frames) -> frame => frame.ok(),
                    recv(stopped) -> _ => None,
                    default(slice) => None,
                }
            });
            if let Some(frame) = arrived {
                self.syncer.lock().push(frame);
                continue;
            }
            // A recording played as the camera has ended, and a slice went
            // by without a frame: every frame it gave has arrived.
            if !self.is_stopped() && self.device.playback_finished() {
                if let Some(set) = self.ready(true) {
                    return Ok(Some(self.frameset(set)));
                }
            }
            py.check_signals()?;
            if deadline.is_some_and(|d| Instant::now() >= d) {
                return Ok(None);
            }
        }
    }

    /// rsbag's frameset in Python, depth frames carrying their depth units.
    fn frameset(&self, set: rsbag::recording::FrameSet) -> FrameSet {
        let frames = set
            .frames()
            .iter()
            .cloned()
            .map(|frame| {
                let facts = self
                    .facts
                    .iter()
                    .find(|(stream, _)| *stream == frame.profile.stream)
                    .map(|(_, facts)| *facts);
                let frame = Frame::played(frame);
                match facts {
                    Some(facts) => frame.with_facts(facts),
                    None => frame,
                }
            })
            .collect();
        FrameSet::new(set.timestamp(), frames)
    }
}

#[pymethods]
impl LiveStream {
    /// `(True, frameset)`, or `(False, None)` when none came within
    /// `timeout_ms` milliseconds or the stream was stopped.
    #[pyo3(signature = (timeout_ms=5000))]
    fn try_wait_for_frames(
        &self,
        py: Python<'_>,
        timeout_ms: u64,
    ) -> PyResult<(bool, Option<FrameSet>)> {
        let set = self.next(py, Some(Duration::from_millis(timeout_ms)))?;
        Ok((set.is_some(), set))
    }

    /// A frameset if one is ready now, else None.
    fn poll_for_frames(&self, py: Python<'_>) -> PyResult<Option<FrameSet>> {
        self.next(py, None)
    }

    /// Whether the stream was stopped (a camera's streams end no other
    /// way).
    #[getter]
    fn finished(&self) -> bool {
        self.is_stopped()
    }

    /// The profiles streaming, as `Recording.sensors` gives profiles.
    #[getter]
    fn profiles<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        for profile in &self.profiles {
            list.append(convert::profile(py, profile)?)?;
        }
        Ok(list)
    }

    /// Frames librealsense handed over since the start: each is in a
    /// frameset, waiting, or dropped.
    #[getter]
    fn delivered_frames(&self) -> u64 {
        self.device.delivered().values().sum()
    }

    /// Frames dropped because the queue to the syncer was full (framesets
    /// not taken in time).
    #[getter]
    fn dropped_frames(&self) -> u64 {
        self.dropped.load(Ordering::Relaxed)
    }

    /// Stop streaming: waits wake, framesets not taken are discarded.
    fn stop(&self, py: Python<'_>) {
        drop(self.stop.lock().take());
        py.detach(|| self.stop_sensors());
        self.syncer.lock().reset();
        self.frames.try_iter().for_each(drop);
    }

    fn __repr__(&self) -> String {
        let streams: Vec<String> = self.profiles.iter().map(|p| p.stream.name()).collect();
        format!(
            "<rsbag.LiveStream {} {}: {}>",
            self.device.info().get("Name").unwrap_or_default(),
            self.device.info().get("Serial Number").unwrap_or_default(),
            streams.join(", ")
        )
    }
}

impl Drop for LiveStream {
    fn drop(&mut self) {
        drop(self.stop.lock().take());
        self.stop_sensors();
    }
}
