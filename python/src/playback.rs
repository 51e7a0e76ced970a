//! The playback device and the pipeline in Python: a recording replayed
//! as the camera that made it, with callbacks on the library's delivery
//! threads, or as framesets to wait for.
//!
//! The GIL is held only while Python code runs: every control that may
//! wait (stop, seek, pause, waiting for frames) releases it, and a
//! callback takes it just for the call. A callback's exception goes to
//! `sys.unraisablehook` (printed by default) and playback goes on, as an
//! exception in a `threading.Thread` does.

use std::sync::{Arc, Weak};
use std::time::{Duration, Instant};

use parking_lot::Mutex;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use rsbag::device::{Device, Notification, Sensor, StreamId, StreamKind, StreamProfile};
use rsbag::playback::{
    Pipeline as RsPipeline, PipelineConfig, Playback as RsPlayback, PlaybackOptions, PlaybackStatus,
};

use rsbag::processing::filters::SensorFacts;

use crate::errors::{self, to_py};
use crate::frame::Frame;
use crate::{convert, seconds, FrameSet};

/// How long a wait releases the GIL before it looks for a signal
/// (Ctrl-C), so that waiting never makes the interpreter deaf.
const SIGNAL_CHECK: Duration = Duration::from_millis(100);

/// Playbacks alive, so that the interpreter can stop them before it
/// exits (`rsbag._stop_all`, registered with `atexit`): a delivery thread
/// must not call into an interpreter that is shutting down.
static LIVE: Mutex<Vec<Weak<RsPlayback>>> = Mutex::new(Vec::new());

/// A recording played back as the device that recorded it:
/// `rsbag.Playback(path, real_time=True, queue_size=16)`.
#[pyclass(module = "rsbag", frozen)]
pub struct Playback {
    inner: Arc<RsPlayback>,
    path: String,
    /// Chunks read from their own records warned of so far.
    warned: Mutex<usize>,
}

#[pymethods]
impl Playback {
    #[new]
    #[pyo3(signature = (path, real_time=true, queue_size=16))]
    fn new(
        py: Python<'_>,
        path: std::path::PathBuf,
        real_time: bool,
        queue_size: usize,
    ) -> PyResult<Playback> {
        let options = PlaybackOptions {
            queue_size,
            real_time,
        };
        let playback = py
            .detach(|| RsPlayback::with_options(&path, options))
            .map_err(to_py)?;
        errors::warn_of_damage(py, playback.recording(), &path)?;
        let playback = Arc::new(playback);
        let mut live = LIVE.lock();
        live.retain(|p| p.strong_count() > 0);
        live.push(Arc::downgrade(&playback));
        Ok(Playback {
            warned: Mutex::new(errors::repairs_so_far(playback.recording())),
            inner: playback,
            path: path.display().to_string(),
        })
    }

    /// The file's path, as given.
    #[getter]
    fn path(&self) -> &str {
        &self.path
    }

    /// The recorded device's camera info.
    #[getter]
    fn info<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        convert::camera_info(py, &self.playback().info())
    }

    /// The sensors, each to open and start with a callback.
    #[getter]
    fn sensors(slf: &Bound<'_, Self>) -> Vec<PlaybackSensor> {
        slf.get()
            .playback()
            .sensors()
            .into_iter()
            .map(|sensor| PlaybackSensor {
                sensor,
                playback: slf.clone().unbind(),
            })
            .collect()
    }

    /// The recorded streams' names (`"Depth"`, `"Infrared 1"`).
    #[getter]
    fn streams(&self) -> Vec<String> {
        let recording = self.playback().recording();
        recording
            .streams()
            .keys()
            .copied()
            .map(StreamId::name)
            .collect()
    }

    /// Open and start every sensor that recorded one of `streams` (names;
    /// all when None) with `callback(frame)`, which runs on the stream's
    /// delivery thread. Every sensor starts before delivery does; playback
    /// begins at once unless paused.
    #[pyo3(signature = (callback, streams=None))]
    fn start(
        &self,
        py: Python<'_>,
        callback: Py<PyAny>,
        streams: Option<Vec<String>>,
    ) -> PyResult<()> {
        let wanted = self.stream_ids(streams)?;
        let playback = self.playback().clone();
        let callback = frame_callback(py, callback)?;
        py.detach(|| playback.start_streams(&wanted, callback))
            .map(|_| ())
            .map_err(to_py)
    }

    /// Hold delivery until `resume()`; a callback running finishes.
    fn pause(&self, py: Python<'_>) {
        let playback = self.playback();
        py.detach(|| playback.pause());
    }

    /// Continue after `pause()`.
    fn resume(&self, py: Python<'_>) {
        let playback = self.playback();
        py.detach(|| playback.resume());
    }

    /// Whether delivery is held by `pause()` (also before any start).
    #[getter]
    fn paused(&self) -> bool {
        self.playback().is_paused()
    }

    /// Continue from `time` seconds after the first frame (a number, or a
    /// `datetime.timedelta` as pyrealsense2's `seek` takes); frames queued
    /// before are discarded.
    fn seek(&self, py: Python<'_>, time: &Bound<'_, PyAny>) -> PyResult<()> {
        let time = position(time)?;
        let playback = self.playback();
        py.detach(|| playback.seek(time)).map_err(to_py)
    }

    /// Times the recorded pace (real time only); positive.
    #[getter]
    fn get_speed(&self) -> f64 {
        self.playback().playback_speed()
    }

    #[setter]
    fn set_speed(&self, py: Python<'_>, speed: f64) -> PyResult<()> {
        let playback = self.playback();
        py.detach(|| playback.set_playback_speed(speed))
            .map_err(to_py)
    }

    /// Deliver at the recorded pace, dropping frames a slow callback cannot
    /// take (True), or as fast as the callbacks take them, every frame
    /// exactly once (False).
    #[getter]
    fn get_real_time(&self) -> bool {
        self.playback().is_real_time()
    }

    #[setter]
    fn set_real_time(&self, py: Python<'_>, real_time: bool) {
        let playback = self.playback();
        py.detach(|| playback.set_real_time(real_time));
    }

    /// Start again from the beginning at the end of the file.
    #[getter]
    fn get_repeat(&self) -> bool {
        self.playback().is_repeating()
    }

    #[setter]
    fn set_repeat(&self, py: Python<'_>, repeat: bool) {
        let playback = self.playback();
        py.detach(|| playback.set_repeat(repeat));
    }

    /// Seconds from the first frame to the last event delivered.
    #[getter]
    fn position(&self) -> f64 {
        self.playback().position().as_secs_f64()
    }

    /// Seconds from the first frame to the last.
    #[getter]
    fn duration(&self) -> f64 {
        self.playback().duration().as_secs_f64()
    }

    /// `"playing"`, `"paused"` or `"stopped"`.
    #[getter]
    fn status(&self) -> &'static str {
        status_name(self.playback().status())
    }

    /// Frames dropped in real time because a callback fell behind.
    #[getter]
    fn dropped_frames(&self) -> u64 {
        self.playback().dropped_frames()
    }

    /// Damaged parts of the file skipped so far.
    #[getter]
    fn read_errors(&self) -> u64 {
        self.playback().read_errors()
    }

    /// What was skipped since the last call, as messages.
    fn take_read_errors(&self) -> Vec<String> {
        let errors = self.playback().take_read_errors();
        errors.iter().map(|e| e.to_string()).collect()
    }

    /// Call `listener(status)` (`"playing"`, `"paused"`, `"stopped"`) on
    /// every change, on the thread that made it.
    fn add_status_listener(&self, py: Python<'_>, listener: Py<PyAny>) -> PyResult<()> {
        let listener = callable(py, listener)?;
        self.playback()
            .add_status_listener(Arc::new(move |status: PlaybackStatus| {
                call(&listener, |py| (status_name(status),).into_pyobject(py))
            }));
        Ok(())
    }

    /// Stop every sensor; returns once no callback runs (at once when
    /// called from a callback). The next start plays from the beginning.
    /// Chunks read from their own records, their index data damaged, are
    /// warned of (`rsbag.RsbagWarning`) here and when `wait_until_stopped`
    /// sees playback stopped.
    fn stop(&self, py: Python<'_>) -> PyResult<()> {
        let playback = self.playback();
        py.detach(|| playback.stop());
        errors::warn_of_new_repairs(py, playback.recording(), &self.warned)
    }

    /// Wait until playback stops (end of file, or `stop()`) or `timeout`
    /// seconds pass (None: no limit); returns whether it stopped. Ctrl-C
    /// interrupts the wait.
    #[pyo3(signature = (timeout=None))]
    fn wait_until_stopped(&self, py: Python<'_>, timeout: Option<f64>) -> PyResult<bool> {
        let deadline = deadline(timeout)?;
        let playback = self.playback();
        loop {
            let slice = slice_until(deadline);
            if py.detach(|| playback.wait_until_stopped(slice)) {
                errors::warn_of_new_repairs(py, playback.recording(), &self.warned)?;
                return Ok(true);
            }
            py.check_signals()?;
            if deadline.is_some_and(|d| Instant::now() >= d) {
                return Ok(false);
            }
        }
    }

    fn __enter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    #[pyo3(signature = (*_exc))]
    fn __exit__(&self, py: Python<'_>, _exc: &Bound<'_, pyo3::types::PyTuple>) -> PyResult<()> {
        self.stop(py)
    }

    fn __repr__(&self) -> String {
        format!(
            "<rsbag.Playback {:?}: {}, at {:.3} of {:.3} s>",
            self.path,
            self.status(),
            self.position(),
            self.duration()
        )
    }
}

impl Playback {
    fn playback(&self) -> &Arc<RsPlayback> {
        &self.inner
    }

    /// The streams `names` stand for (every recorded one for None).
    fn stream_ids(&self, names: Option<Vec<String>>) -> PyResult<Vec<StreamId>> {
        let recording = self.playback().recording();
        match names {
            None => Ok(recording.streams().keys().copied().collect()),
            Some(names) => {
                let mut ids = Vec::new();
                for name in names {
                    ids.extend(recording.find_streams(&name).map_err(to_py)?);
                }
                Ok(ids)
            }
        }
    }
}

impl Drop for Playback {
    fn drop(&mut self) {
        // Stopping waits for the delivery threads, which may be waiting
        // for the GIL to run a callback: stop without it (dropping the
        // stopped playback then waits for nothing).
        let playback = &self.inner;
        Python::attach(|py| py.detach(|| playback.stop()));
    }
}

/// Stop every playback still alive (registered with `atexit`).
#[pyfunction]
pub fn _stop_all(py: Python<'_>) {
    let live: Vec<Arc<RsPlayback>> = LIVE.lock().drain(..).filter_map(|p| p.upgrade()).collect();
    py.detach(|| live.iter().for_each(|p| p.stop()));
}

/// A sensor of a [`Playback`]: its recorded description, options as they
/// change, and streaming with a callback.
#[pyclass(module = "rsbag", frozen)]
pub struct PlaybackSensor {
    sensor: Arc<dyn Sensor>,
    /// Keeps the playback alive as long as one of its sensors is.
    playback: Py<Playback>,
}

#[pymethods]
impl PlaybackSensor {
    /// The sensor's name (`"Stereo Module"`).
    #[getter]
    fn name(&self) -> String {
        self.sensor.name()
    }

    /// The sensor's camera info.
    #[getter]
    fn info<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        convert::camera_info(py, &self.sensor.info())
    }

    /// The recorded stream profiles (as `Recording.sensors` gives them).
    #[getter]
    fn profiles<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        for profile in self.sensor.profiles() {
            list.append(convert::profile(py, &profile)?)?;
        }
        Ok(list)
    }

    /// The options with their values as played so far.
    #[getter]
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        convert::options(py, &self.sensor.options())
    }

    /// The streams opened (names).
    #[getter]
    fn active_streams(&self) -> Vec<String> {
        let active = self.sensor.active_profiles();
        active.iter().map(|p| p.stream.name()).collect()
    }

    /// Choose the streams to play: `streams` (names or stream types; every
    /// stream of the sensor when None).
    #[pyo3(signature = (streams=None))]
    fn open(&self, py: Python<'_>, streams: Option<Vec<String>>) -> PyResult<()> {
        let profiles = self.sensor.profiles();
        let chosen: Vec<StreamProfile> = match streams {
            None => profiles,
            Some(names) => {
                let mut chosen = Vec::new();
                for name in names {
                    let found = profiles.iter().find(|p| {
                        p.stream.name().eq_ignore_ascii_case(&name)
                            || p.stream.kind.name().eq_ignore_ascii_case(&name)
                    });
                    match found {
                        Some(p) => chosen.push(*p),
                        None => {
                            return Err(to_py(rsbag::Error::InvalidArgument(format!(
                                "sensor {:?} has no stream {name:?}",
                                self.sensor.name()
                            ))))
                        }
                    }
                }
                chosen
            }
        };
        let sensor = self.sensor.clone();
        py.detach(|| sensor.open(&chosen)).map_err(to_py)
    }

    /// Stream the opened streams into `callback(frame)`, called on each
    /// stream's delivery thread, one frame at a time per stream.
    fn start(&self, py: Python<'_>, callback: Py<PyAny>) -> PyResult<()> {
        let callback = frame_callback(py, callback)?;
        let sensor = self.sensor.clone();
        py.detach(|| sensor.start(callback)).map_err(to_py)
    }

    /// Stop streaming; returns once no callback of this sensor runs.
    fn stop(&self, py: Python<'_>) -> PyResult<()> {
        let sensor = self.sensor.clone();
        py.detach(|| sensor.stop()).map_err(to_py)
    }

    /// Stop and forget the opened streams.
    fn close(&self, py: Python<'_>) -> PyResult<()> {
        let sensor = self.sensor.clone();
        py.detach(|| sensor.close()).map_err(to_py)
    }

    /// Call `listener(name, value)` when a recorded option change is
    /// played.
    fn add_option_listener(&self, py: Python<'_>, listener: Py<PyAny>) -> PyResult<()> {
        let listener = callable(py, listener)?;
        self.sensor
            .add_option_listener(Arc::new(move |name: &str, value: f32| {
                call(&listener, |py| (name, value).into_pyobject(py))
            }));
        Ok(())
    }

    /// Call `listener(notification)` (a dict: category, severity,
    /// description, timestamp, serialized_data) for each recorded
    /// notification, and for each damaged part skipped.
    fn add_notification_listener(&self, py: Python<'_>, listener: Py<PyAny>) -> PyResult<()> {
        let listener = callable(py, listener)?;
        self.sensor
            .add_notification_listener(Arc::new(move |n: &Notification| {
                call(&listener, |py| (notification(py, n)?,).into_pyobject(py))
            }));
        Ok(())
    }

    /// The playback this sensor belongs to.
    #[getter]
    fn playback(&self, py: Python<'_>) -> Py<Playback> {
        self.playback.clone_ref(py)
    }

    fn __repr__(&self) -> String {
        format!("<rsbag.PlaybackSensor {:?}>", self.sensor.name())
    }
}

/// Framesets of a recording as librealsense's pipeline hands them out:
/// `rsbag.Pipeline(path, streams=None, real_time=False, queue_size=64)`.
/// Not in real time (the default) every frame is in exactly one frameset.
#[pyclass(module = "rsbag", frozen)]
pub struct Pipeline {
    inner: RsPipeline,
    path: String,
    /// Chunks read from their own records warned of so far.
    warned: Mutex<usize>,
}

#[pymethods]
impl Pipeline {
    #[new]
    #[pyo3(signature = (path, streams=None, real_time=false, queue_size=64))]
    fn new(
        py: Python<'_>,
        path: std::path::PathBuf,
        streams: Option<Vec<String>>,
        real_time: bool,
        queue_size: usize,
    ) -> PyResult<Pipeline> {
        let inner = py
            .detach(|| {
                let recording = rsbag::recording::Recording::open(&path)?;
                let streams = match streams {
                    None => None,
                    Some(names) => {
                        let mut ids = Vec::new();
                        for name in names {
                            ids.extend(recording.find_streams(&name)?);
                        }
                        Some(ids)
                    }
                };
                let config = PipelineConfig {
                    streams,
                    real_time,
                    queue_size,
                    ..PipelineConfig::default()
                };
                let options = PlaybackOptions {
                    real_time,
                    ..PlaybackOptions::default()
                };
                RsPipeline::start(RsPlayback::from_recording(recording, options), config)
            })
            .map_err(to_py)?;
        errors::warn_of_damage(py, inner.playback().recording(), &path)?;
        Ok(Pipeline {
            warned: Mutex::new(errors::repairs_so_far(inner.playback().recording())),
            inner,
            path: path.display().to_string(),
        })
    }

    /// The streams playing (names).
    #[getter]
    fn streams(&self) -> Vec<String> {
        let profiles = self.inner.profiles();
        profiles.iter().map(|p| p.stream.name()).collect()
    }

    /// The next frameset, waiting at most `timeout_ms` milliseconds (as
    /// pyrealsense2's): raises `rsbag.FrameTimeoutError` ("Frame didn't
    /// arrive within 5000", a `RuntimeError` and a `TimeoutError`) after
    /// that, `rsbag.RecordingEndedError` (a `RuntimeError` and an
    /// `EOFError`) once the recording has ended and every frameset was
    /// taken.
    #[pyo3(signature = (timeout_ms=5000))]
    fn wait_for_frames(&self, py: Python<'_>, timeout_ms: u64) -> PyResult<FrameSet> {
        match self.next(py, Some(timeout_ms))? {
            Some(set) => Ok(set),
            None => Err(errors::raise(
                errors::recording_ended(py),
                format!(
                    "{:?}: the recording has ended, no more framesets",
                    self.path
                ),
            )),
        }
    }

    /// `(True, frameset)`, or `(False, None)` when none arrived within
    /// `timeout_ms` milliseconds or the recording has ended (pyrealsense2's
    /// `try_wait_for_frames`).
    #[pyo3(signature = (timeout_ms=5000))]
    fn try_wait_for_frames(
        &self,
        py: Python<'_>,
        timeout_ms: u64,
    ) -> PyResult<(bool, Option<FrameSet>)> {
        match self.next(py, Some(timeout_ms)) {
            Ok(Some(set)) => Ok((true, Some(set))),
            Ok(None) => Ok((false, None)),
            Err(e) if e.is_instance(py, errors::frame_timeout(py)?) => Ok((false, None)),
            Err(e) => Err(e),
        }
    }

    /// A frameset if one is ready now, else None.
    fn poll_for_frames(&self, py: Python<'_>) -> Option<FrameSet> {
        let pipeline = &self.inner;
        py.detach(|| pipeline.poll_for_frames())
            .map(|set| frameset(set, pipeline.playback().recording()))
    }

    /// Whether the recording has ended and every frameset was taken.
    #[getter]
    fn finished(&self) -> bool {
        self.inner.is_finished()
    }

    /// Continue from `time` seconds after the first frame (a number or a
    /// `datetime.timedelta`); framesets not yet taken are discarded.
    fn seek(&self, py: Python<'_>, time: &Bound<'_, PyAny>) -> PyResult<()> {
        let time = position(time)?;
        let pipeline = &self.inner;
        py.detach(|| pipeline.seek(time)).map_err(to_py)
    }

    /// Hold playback (framesets already made can still be taken).
    fn pause(&self, py: Python<'_>) {
        let playback = self.inner.playback();
        py.detach(|| playback.pause());
    }

    /// Continue after `pause()`.
    fn resume(&self, py: Python<'_>) {
        let playback = self.inner.playback();
        py.detach(|| playback.resume());
    }

    /// Seconds from the first frame to the last event played.
    #[getter]
    fn position(&self) -> f64 {
        self.inner.playback().position().as_secs_f64()
    }

    /// Seconds from the first frame to the last.
    #[getter]
    fn duration(&self) -> f64 {
        self.inner.playback().duration().as_secs_f64()
    }

    /// `"playing"` or `"paused"` until every frameset was taken (also when
    /// the file was read to its end before), then `"stopped"`, as
    /// librealsense's pipeline says.
    #[getter]
    fn status(&self) -> &'static str {
        status_name(self.inner.status())
    }

    /// Whether `pause()` holds playback.
    #[getter]
    fn paused(&self) -> bool {
        self.inner.playback().is_paused()
    }

    /// Times the recorded pace (real time only); positive.
    #[getter]
    fn get_speed(&self) -> f64 {
        self.inner.playback().playback_speed()
    }

    #[setter]
    fn set_speed(&self, py: Python<'_>, speed: f64) -> PyResult<()> {
        let playback = self.inner.playback();
        py.detach(|| playback.set_playback_speed(speed))
            .map_err(to_py)
    }

    /// Play at the recorded pace, dropping frames not taken in time
    /// (True), or as fast as framesets are taken, every frame in one
    /// (False); may change while playing (pyrealsense2's
    /// `playback.set_real_time`).
    #[getter]
    fn get_real_time(&self) -> bool {
        self.inner.playback().is_real_time()
    }

    #[setter]
    fn set_real_time(&self, py: Python<'_>, real_time: bool) {
        let playback = self.inner.playback();
        py.detach(|| playback.set_real_time(real_time));
    }

    /// Stop; framesets not yet taken are discarded. Chunks read from
    /// their own records, their index data damaged, are warned of
    /// (`rsbag.RsbagWarning`) here and at the recording's end.
    fn stop(&self, py: Python<'_>) -> PyResult<()> {
        let pipeline = &self.inner;
        py.detach(|| pipeline.stop());
        errors::warn_of_new_repairs(py, pipeline.playback().recording(), &self.warned)
    }

    fn __iter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    /// The next frameset, waiting as long as it takes; the end of the
    /// recording ends the iteration.
    fn __next__(&self, py: Python<'_>) -> PyResult<Option<FrameSet>> {
        self.next(py, None)
    }

    fn __enter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    #[pyo3(signature = (*_exc))]
    fn __exit__(&self, py: Python<'_>, _exc: &Bound<'_, pyo3::types::PyTuple>) -> PyResult<()> {
        self.stop(py)
    }

    fn __repr__(&self) -> String {
        format!(
            "<rsbag.Pipeline {:?}: {}>",
            self.path,
            self.streams().join(", ")
        )
    }
}

impl Pipeline {
    /// The next frameset within `timeout_ms` milliseconds (None: no
    /// limit), None at the end; the wait releases the GIL and hears Ctrl-C.
    fn next(&self, py: Python<'_>, timeout_ms: Option<u64>) -> PyResult<Option<FrameSet>> {
        let deadline =
            timeout_ms.and_then(|ms| Instant::now().checked_add(Duration::from_millis(ms)));
        let pipeline = &self.inner;
        loop {
            let slice = slice_until(deadline);
            match py.detach(|| pipeline.try_wait_for_frames(slice)) {
                Ok(Some(set)) => return Ok(Some(frameset(set, pipeline.playback().recording()))),
                Ok(None) => {
                    let recording = pipeline.playback().recording();
                    errors::warn_of_new_repairs(py, recording, &self.warned)?;
                    return Ok(None);
                }
                // A slice of the wait: the deadline decides below.
                Err(e) if e.kind() == rsbag::ErrorKind::Timeout => {}
                Err(e) => return Err(to_py(e)),
            }
            py.check_signals()?;
            if let (Some(ms), Some(d)) = (timeout_ms, deadline) {
                if Instant::now() >= d {
                    // pyrealsense2's words.
                    return Err(errors::raise(
                        errors::frame_timeout(py),
                        format!("Frame didn't arrive within {ms}"),
                    ));
                }
            }
        }
    }
}

/// A pipeline's frameset; its depth frames carry their sensor's facts
/// (depth units, stereo baseline), as frames read from a recording do.
fn frameset(set: rsbag::recording::FrameSet, recording: &rsbag::recording::Recording) -> FrameSet {
    let frames = set
        .frames()
        .iter()
        .cloned()
        .map(|frame| {
            let stream = frame.profile.stream;
            let played = Frame::played(frame);
            if stream.kind == StreamKind::Depth {
                played.with_facts(SensorFacts::of_stream(recording, stream))
            } else {
                played
            }
        })
        .collect();
    FrameSet::new(set.timestamp(), frames)
}

fn status_name(status: PlaybackStatus) -> &'static str {
    match status {
        PlaybackStatus::Playing => "playing",
        PlaybackStatus::Paused => "paused",
        PlaybackStatus::Stopped => "stopped",
    }
}

fn notification<'py>(py: Python<'py>, n: &Notification) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("category", &n.category)?;
    dict.set_item("severity", &n.severity)?;
    dict.set_item("description", &n.description)?;
    dict.set_item("timestamp", n.timestamp)?;
    dict.set_item("serialized_data", &n.serialized_data)?;
    Ok(dict)
}

/// `callback`, checked to be callable.
fn callable(py: Python<'_>, callback: Py<PyAny>) -> PyResult<Arc<Py<PyAny>>> {
    if !callback.bind(py).is_callable() {
        return Err(PyTypeError::new_err(format!(
            "a callback must be callable, not {}",
            callback.bind(py).get_type().name()?
        )));
    }
    Ok(Arc::new(callback))
}

/// A frame callback calling `callback(frame)` with the GIL.
fn frame_callback(py: Python<'_>, callback: Py<PyAny>) -> PyResult<rsbag::device::FrameCallback> {
    let callback = callable(py, callback)?;
    Ok(Arc::new(move |frame| {
        call(&callback, |py| (Frame::played(frame),).into_pyobject(py))
    }))
}

/// Call `callback` with the arguments `args` makes, holding the GIL just
/// for that. Its exception goes to `sys.unraisablehook`. Once the
/// interpreter is shutting down nothing is called.
fn call<F>(callback: &Py<PyAny>, args: F)
where
    F: for<'py> FnOnce(Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyTuple>>,
{
    Python::try_attach(|py| {
        let result = args(py).and_then(|args| callback.bind(py).call1(args));
        if let Err(e) = result {
            e.write_unraisable(py, Some(callback.bind(py)));
        }
    });
}

/// The moment `timeout` seconds from now; None for no limit.
fn deadline(timeout: Option<f64>) -> PyResult<Option<Instant>> {
    match timeout {
        None => Ok(None),
        Some(t) => Ok(Instant::now().checked_add(seconds(t)?)),
    }
}

/// A position in a recording: seconds after the first frame, or a
/// `datetime.timedelta` (what pyrealsense2's `playback.seek` takes).
fn position(time: &Bound<'_, PyAny>) -> PyResult<Duration> {
    if time.hasattr("total_seconds")? {
        return seconds(time.call_method0("total_seconds")?.extract()?);
    }
    seconds(time.extract()?)
}

/// How long to wait before looking for signals again.
fn slice_until(deadline: Option<Instant>) -> Duration {
    match deadline {
        None => SIGNAL_CHECK,
        Some(d) => d
            .saturating_duration_since(Instant::now())
            .min(SIGNAL_CHECK),
    }
}
