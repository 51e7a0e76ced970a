//! Several recordings read as one session: `rsbag.open_session(paths)`,
//! the library's [`rsbag::recording::Session`] for Python.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use parking_lot::Mutex;
use pyo3::exceptions::PyKeyError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use rsbag::device::StreamId;
use rsbag::recording::{
    FramesetOptions, Session as RsSession, SessionClock, SessionFrame as RsSessionFrame,
    SessionFrameSets, SessionFrames, SessionOptions, SessionQuery,
};

use super::errors::{self, to_py};
use super::frame::Frame;
use super::{end_of, filters, locked, seconds, Recording};

/// Several recordings (one per camera) read as one session on the best
/// clock they share: `rsbag.open_session(paths)`.
#[pyclass(module = "rsbag", frozen)]
pub struct Session {
    session: Arc<RsSession>,
}

/// Open recordings (`.bag`, `.db3`, camera bags, in any mix) as one
/// session. `offsets` maps a file, as given in `paths`, to seconds added
/// to its times; `clock` (`"global"`, `"arrival"` or `"start"`) chooses
/// the clock instead of the best one they all share.
#[pyfunction]
#[pyo3(signature = (paths, offsets=None, clock=None))]
pub fn open_session(
    py: Python<'_>,
    paths: Vec<PathBuf>,
    offsets: Option<HashMap<PathBuf, f64>>,
    clock: Option<String>,
) -> PyResult<Session> {
    let clock = match clock {
        None => None,
        Some(name) => Some(SessionClock::from_name(&name).ok_or_else(|| {
            to_py(rsbag::Error::InvalidArgument(format!(
                "clock {name:?}: not a clock (global, arrival or start)"
            )))
        })?),
    };
    let options = SessionOptions {
        clock,
        offsets: offsets.unwrap_or_default().into_iter().collect(),
    };
    let session = py
        .detach(|| RsSession::open_with(&paths, options))
        .map_err(to_py)?;
    for file in session.files() {
        errors::warn_of_damage(py, file.reader().recording(), file.path())?;
    }
    let verdict = session.verdict();
    if !verdict.one_session {
        errors::warn_all(
            py,
            vec![format!(
                "not one session: {}; read on one timeline as given",
                verdict.reason
            )],
        )?;
    }
    Ok(Session {
        session: Arc::new(session),
    })
}

#[pymethods]
impl Session {
    /// The files, as given.
    #[getter]
    fn paths(&self) -> Vec<String> {
        (self.session.files().iter())
            .map(|f| f.path().display().to_string())
            .collect()
    }

    /// The clock frames are ordered on: `"global time"`, `"arrival time"`
    /// or `"recording start"`.
    #[getter]
    fn clock(&self) -> &'static str {
        self.session.clock().name()
    }

    /// Whether the recordings are one session (every camera recording at
    /// once on a clock they share): `{"one_session": bool, "reason": str}`.
    #[getter]
    fn verdict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let verdict = self.session.verdict();
        let out = PyDict::new(py);
        out.set_item("one_session", verdict.one_session)?;
        out.set_item("reason", verdict.reason)?;
        Ok(out)
    }

    /// Each camera: `{"file", "serial", "name", "namespace", "offset",
    /// "streams"}` (`name` is the serial, made unique within the session;
    /// of one of several cameras of a camera bag, what tells its ROS
    /// `namespace` from the others', else `namespace` is None).
    #[getter]
    fn cameras<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let mut cameras = Vec::new();
        for file in self.session.files() {
            let camera = PyDict::new(py);
            camera.set_item("file", file.path().display().to_string())?;
            camera.set_item("serial", file.serial())?;
            camera.set_item("name", file.name())?;
            camera.set_item("namespace", file.namespace())?;
            camera.set_item("offset", file.offset())?;
            let streams: Vec<String> = (file.reader().streams().into_iter())
                .map(StreamId::name)
                .collect();
            camera.set_item("streams", streams)?;
            cameras.push(camera);
        }
        Ok(cameras)
    }

    /// The streams any recording has (`"Depth"`, `"Infrared 1"`), in order.
    #[getter]
    fn streams(&self) -> Vec<String> {
        let mut all: Vec<StreamId> = (self.session.files().iter())
            .flat_map(|f| f.reader().streams())
            .collect();
        all.sort();
        all.dedup();
        all.into_iter().map(StreamId::name).collect()
    }

    /// Seconds from the session's first frame to its last.
    #[getter]
    fn duration(&self) -> f64 {
        self.session.duration().as_secs_f64()
    }

    /// Frames of `stream` recorded, in all the files.
    fn frame_count(&self, stream: &str) -> PyResult<u64> {
        let ids = self.session.find_streams(stream).map_err(to_py)?;
        let mut count = 0;
        for file in self.session.files() {
            for &id in &ids {
                if file.reader().streams().contains(&id) {
                    count += file.reader().frame_count(id).map_err(to_py)?;
                }
            }
        }
        Ok(count)
    }

    /// Each camera's recording (an `rsbag.Recording`), in the order
    /// given: everything a recording opened alone has (its info, sensors,
    /// frames by index or time, columns, alignment, point clouds), on the
    /// file's own times (seconds from its first frame), sharing the
    /// session's reader rather than opening the file again.
    #[getter]
    fn recordings(&self) -> Vec<Recording> {
        (0..self.session.files().len())
            .map(|k| self.recording_of(k))
            .collect()
    }

    /// The recording of `camera`: its name in the session (see `cameras`)
    /// or its file, as given.
    fn recording(&self, camera: &str) -> PyResult<Recording> {
        let files = self.session.files();
        let found = (files.iter().position(|f| f.name() == camera))
            .or_else(|| files.iter().position(|f| f.path() == Path::new(camera)));
        match found {
            Some(k) => Ok(self.recording_of(k)),
            None => Err(PyKeyError::new_err(format!(
                "no camera {camera:?} in the session: its cameras are {}",
                (files.iter().map(|f| format!("{:?}", f.name())))
                    .collect::<Vec<_>>()
                    .join(", ")
            ))),
        }
    }

    /// Every frame of `streams` (names; all when None) of every file, in
    /// time order on the session's clock, from `start` to `end` seconds
    /// after the session's first frame (or for `duration` seconds): each a
    /// `SessionFrame` naming its camera. With `filters` (`rsbag.filters`
    /// objects), every depth frame comes through that chain, applied in
    /// order with a state of its own for each camera's stream (the
    /// objects' own state is not touched), as `Recording.frames` applies
    /// it to each file alone.
    #[pyo3(signature = (streams=None, start=None, end=None, duration=None, filters=None))]
    fn frames(
        &self,
        streams: Option<Vec<String>>,
        start: Option<f64>,
        end: Option<f64>,
        duration: Option<f64>,
        filters: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<SessionFrameIterator> {
        let specs = filters.map(filters::specs).transpose()?.unwrap_or_default();
        let session = self.session.clone();
        let frames = query(&session, streams, start, end_of(start, end, duration)?)?
            .frames()
            .map_err(to_py)?;
        // SAFETY: `frames` borrows the session inside the `Arc` kept
        // beside it: the session does not move (it is on the heap) and
        // lives as long as the iterator holds the `Arc`; the fields drop
        // in declaration order, the borrowing iterator first.
        let frames: SessionFrames<'static> = unsafe { std::mem::transmute(frames) };
        let filters = Box::new(session.filter_each_camera(&specs));
        Ok(SessionFrameIterator {
            state: Mutex::new(SessionReading {
                frames,
                filters,
                warned: repairs_so_far(&session),
                session,
            }),
        })
    }

    /// Frames of all cameras grouped by moment: each frame of the first
    /// camera's first chosen stream makes a set, and a frame of another
    /// camera's stream joins it when each is the other's nearest and they
    /// are at most `tolerance_ms` apart, so each frame is in at most one
    /// set. `streams` names the streams (all when None); `start`, `end`
    /// and `duration` choose the frames as in `frames`. With `filters`
    /// (`rsbag.filters` objects), each camera's depth frames come through
    /// a chain of their own, every frame in its recorded order (those in
    /// no set too), as `frames` filters them.
    #[pyo3(signature = (streams=None, tolerance_ms=10.0, start=None, end=None, duration=None, filters=None))]
    fn framesets(
        &self,
        streams: Option<Vec<String>>,
        tolerance_ms: f64,
        start: Option<f64>,
        end: Option<f64>,
        duration: Option<f64>,
        filters: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<SessionFrameSetIterator> {
        let specs = filters.map(filters::specs).transpose()?.unwrap_or_default();
        let session = self.session.clone();
        if !(tolerance_ms.is_finite() && tolerance_ms >= 0.0) {
            return Err(to_py(rsbag::Error::InvalidArgument(format!(
                "a tolerance of {tolerance_ms} ms: give a number of ms, not negative"
            ))));
        }
        let options = FramesetOptions {
            streams: match streams {
                Some(names) => stream_ids(&session, &names)?,
                None => Vec::new(),
            },
            tolerance: Duration::from_secs_f64(tolerance_ms / 1000.0),
        };
        // Without `filters`, each camera's chain is empty and lets frames by.
        let each = session.filter_each_camera(&specs);
        let sets = query(&session, None, start, end_of(start, end, duration)?)?
            .framesets_with(options, each)
            .map_err(to_py)?;
        // SAFETY: as in `frames`.
        let sets: SessionFrameSets<'static> = unsafe { std::mem::transmute(sets) };
        let warned = repairs_so_far(&session);
        Ok(SessionFrameSetIterator {
            state: Mutex::new((sets, session, warned)),
        })
    }

    /// How well the cameras keep together, pair by pair (what `rsbag
    /// check` prints for a session): a dict `{"clock", "tolerance_ms",
    /// "pairs": [{"cameras": [a, b], "streams": [a, b], "overlap_s":
    /// [from, to] or None, "offset_ms" (b's timestamp minus a's at the
    /// overlap's start) or None, "drift_ppm" or None, "drift_ppm_error"
    /// (its standard error) or None, "frames": [a, b],
    /// "without_partner": [a, b], "gaps": [{"camera", "from_s",
    /// "to_s"}]}], "read_errors", "verdict": {"one_session", "reason"}}`,
    /// times in seconds from the session's first frame (no pairs when the
    /// recordings are not one session). Frames are partners within `tolerance_ms` (None: half
    /// the slower compared stream's frame period).
    #[pyo3(signature = (tolerance_ms=None))]
    fn sync_report<'py>(
        &self,
        py: Python<'py>,
        tolerance_ms: Option<f64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let tolerance = match tolerance_ms {
            None => None,
            Some(ms) if ms.is_finite() && ms >= 0.0 => Some(Duration::from_secs_f64(ms / 1000.0)),
            Some(ms) => {
                return Err(to_py(rsbag::Error::InvalidArgument(format!(
                    "a tolerance of {ms} ms: give a number of ms, not negative"
                ))))
            }
        };
        let session = self.session.clone();
        let report = py
            .detach(|| session.sync_report(tolerance))
            .map_err(to_py)?;
        // The report's one JSON form, as `rsbag check --json` prints it.
        let text = serde_json::to_string(&report)
            .map_err(|e| to_py(rsbag::Error::InvalidArgument(e.to_string())))?;
        py.import("json")?.call_method1("loads", (text,))
    }

    fn __repr__(&self) -> String {
        format!(
            "<rsbag.Session {} recordings, clock {:?}, {:.3} s>",
            self.session.files().len(),
            self.session.clock().name(),
            self.session.duration().as_secs_f64()
        )
    }
}

/// The frames of `streams` in `start..end` (seconds from the session's
/// first frame), as a query.
fn query<'s>(
    session: &'s RsSession,
    streams: Option<Vec<String>>,
    start: Option<f64>,
    end: Option<f64>,
) -> PyResult<SessionQuery<'s>> {
    let mut query = session.select();
    if let Some(names) = streams {
        query = query.streams(stream_ids(session, &names)?);
    }
    let from = start.map(seconds).transpose()?.unwrap_or_default();
    Ok(match end.map(seconds).transpose()? {
        Some(until) => query.time(from..until),
        None => query.time(from..),
    })
}

impl Session {
    /// File `k`'s recording, sharing the session's reader.
    fn recording_of(&self, k: usize) -> Recording {
        let file = &self.session.files()[k];
        Recording {
            reader: file.reader().clone(),
            path: file.path().display().to_string(),
        }
    }
}

/// For each file, the chunks read around damaged index data so far.
fn repairs_so_far(session: &RsSession) -> Vec<usize> {
    (session.files().iter())
        .map(|f| errors::repairs_so_far(f.reader().recording()))
        .collect()
}

/// The warnings of the chunks each file's reading found damaged index
/// data in, past those `warned` counts (see `errors::repair_warnings`).
fn repair_warnings(session: &RsSession, warned: &mut [usize]) -> Vec<String> {
    (session.files().iter().zip(warned))
        .flat_map(|(f, warned)| errors::repair_warnings(f.reader().recording(), warned))
        .collect()
}

/// The streams `names` stand for in the session.
fn stream_ids(session: &RsSession, names: &[String]) -> PyResult<Vec<StreamId>> {
    let mut ids = Vec::new();
    for name in names {
        ids.extend(session.find_streams(name).map_err(to_py)?);
    }
    Ok(ids)
}

/// A frame of a session: the frame, its camera and its time on the
/// session's clock.
#[pyclass(module = "rsbag", frozen)]
pub struct SessionFrame {
    frame: Py<Frame>,
    file: String,
    serial: String,
    name: String,
    time_ms: f64,
}

impl SessionFrame {
    fn of(
        py: Python<'_>,
        session: &RsSession,
        frame: rsbag::recording::SessionFrame,
    ) -> PyResult<SessionFrame> {
        let file = &session.files()[frame.file];
        Ok(SessionFrame {
            frame: Py::new(py, Frame::of(frame.recorded))?,
            file: file.path().display().to_string(),
            serial: file.serial().to_owned(),
            name: file.name().to_owned(),
            time_ms: frame.time_ms,
        })
    }
}

#[pymethods]
impl SessionFrame {
    /// The frame (`rsbag.Frame`).
    #[getter]
    fn frame(&self, py: Python<'_>) -> Py<Frame> {
        self.frame.clone_ref(py)
    }

    /// The file it was read from, as given.
    #[getter]
    fn file(&self) -> &str {
        &self.file
    }

    /// The camera's serial number (the file's name where there is none).
    #[getter]
    fn serial(&self) -> &str {
        &self.serial
    }

    /// The camera's name in the session (the serial, made unique).
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    /// Its time on the session's clock, ms (the file's offset included).
    #[getter]
    fn time_ms(&self) -> f64 {
        self.time_ms
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let frame = self.frame.bind(py).borrow();
        format!(
            "<rsbag.SessionFrame {} {} #{} at {:.3} ms>",
            self.name,
            frame.stream_name(),
            frame.frame().number,
            self.time_ms
        )
    }
}

/// The frames of `Session.frames`, one at a time.
#[pyclass(module = "rsbag")]
pub struct SessionFrameIterator {
    state: Mutex<SessionReading>,
}

/// What `Session::filter_each_camera` makes.
type FilterEach = Box<dyn FnMut(RsSessionFrame) -> rsbag::Result<RsSessionFrame> + Send>;

/// A session's frames being read, with the session they borrow.
struct SessionReading {
    frames: SessionFrames<'static>,
    /// Each camera's depth filters (none without `filters`).
    filters: FilterEach,
    /// For each file, the chunks read around damaged index data warned of.
    warned: Vec<usize>,
    session: Arc<RsSession>,
}

#[pymethods]
impl SessionFrameIterator {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<SessionFrame>> {
        let mut state = locked(py, &self.state);
        let SessionReading {
            frames,
            filters,
            session,
            ..
        } = &mut *state;
        let next = py.detach(|| frames.next().map(|read| filters(read?)));
        match next {
            None => {
                let SessionReading {
                    session, warned, ..
                } = &mut *state;
                let messages = repair_warnings(session, warned);
                drop(state);
                errors::warn_all(py, messages).map(|()| None)
            }
            Some(Ok(frame)) => SessionFrame::of(py, session, frame).map(Some),
            Some(Err(e)) => Err(to_py(e)),
        }
    }
}

/// Frames of several cameras at one moment (see `Session.framesets`).
#[pyclass(module = "rsbag", frozen)]
pub struct SessionFrameSet {
    time_ms: f64,
    frames: Vec<Py<SessionFrame>>,
}

#[pymethods]
impl SessionFrameSet {
    /// The reference frame's time on the session's clock, ms.
    #[getter]
    fn time_ms(&self) -> f64 {
        self.time_ms
    }

    /// The set's frames, the reference first.
    #[getter]
    fn frames(&self, py: Python<'_>) -> Vec<Py<SessionFrame>> {
        self.frames.iter().map(|f| f.clone_ref(py)).collect()
    }

    /// The frame of camera `camera` (its name or serial) and `stream`
    /// (e.g. `"Depth"`; any of the camera's when None), or None.
    #[pyo3(signature = (camera, stream=None))]
    fn get(&self, py: Python<'_>, camera: &str, stream: Option<&str>) -> Option<Py<Frame>> {
        self.frames.iter().find_map(|f| {
            let f = f.get();
            let frame = f.frame.bind(py).borrow();
            let stream_ok = stream.is_none_or(|s| {
                frame.stream_name() == s || frame.frame().profile.stream.kind.name() == s
            });
            ((f.name == camera || f.serial == camera) && stream_ok).then(|| f.frame.clone_ref(py))
        })
    }

    fn __len__(&self) -> usize {
        self.frames.len()
    }

    fn __repr__(&self) -> String {
        format!(
            "<rsbag.SessionFrameSet {} frames at {:.3} ms>",
            self.frames.len(),
            self.time_ms
        )
    }
}

/// The framesets of `Session.framesets`, one at a time.
#[pyclass(module = "rsbag")]
pub struct SessionFrameSetIterator {
    /// The sets, the session they borrow, and for each file the chunks
    /// read around damaged index data warned of.
    state: Mutex<(SessionFrameSets<'static>, Arc<RsSession>, Vec<usize>)>,
}

#[pymethods]
impl SessionFrameSetIterator {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<SessionFrameSet>> {
        let mut state = locked(py, &self.state);
        let (sets, session, warned) = &mut *state;
        match py.detach(|| sets.next()) {
            None => {
                let messages = repair_warnings(session, warned);
                drop(state);
                errors::warn_all(py, messages).map(|()| None)
            }
            Some(Ok(set)) => {
                let mut frames = Vec::new();
                for frame in set.frames {
                    frames.push(Py::new(py, SessionFrame::of(py, session, frame)?)?);
                }
                Ok(Some(SessionFrameSet {
                    time_ms: set.time_ms,
                    frames,
                }))
            }
            Some(Err(e)) => Err(to_py(e)),
        }
    }

    /// Frames of cameras other than the reference that joined no set, so
    /// far.
    #[getter]
    fn unmatched(&self, py: Python<'_>) -> u64 {
        locked(py, &self.state).0.unmatched()
    }
}
