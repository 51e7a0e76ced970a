//! `rsbag._rsbag`: the Python extension. Recordings open as
//! [`Recording`]s (a RealSense `.bag` or `.db3`, or a camera bag recorded
//! from ROS); their frames come out in recorded order as [`Frame`]s whose
//! pixels numpy sees without a copy. The Python package (`pysrc/rsbag`)
//! re-exports these with type stubs.

mod columns;
mod convert;
mod errors;
mod filters;
mod frame;
mod live;
mod pieces;
mod playback;
mod processing;
mod session;
mod writer;

use std::collections::VecDeque;
use std::sync::Arc;

use numpy::PyArrayMethods;
use parking_lot::{Mutex, MutexGuard};
use pyo3::exceptions::{PyIndexError, PyKeyError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyIterator, PyList, PySlice, PyString};

use rsbag::device::{Format, StreamId, StreamKind};
use rsbag::processing::filters::{SensorFacts, StreamFilters};
use rsbag::recording::{FrameReader, FrameSets, Frames, RecordedFrame, SyncOptions};

use errors::to_py;
use frame::Frame;

/// A recording opened for reading: `rsbag.open(path)`.
#[pyclass(module = "rsbag", frozen)]
struct Recording {
    reader: Arc<FrameReader>,
    path: String,
}

/// Open a RealSense recording (`.bag`, `.db3`) or a camera bag recorded
/// from ROS (ROS1 `.bag`, rosbag2 directory, `.db3`, `.mcap`); a list of
/// paths opens the pieces of one split recording as one
/// ([`pieces::PyPieces`]).
#[pyfunction]
fn open(py: Python<'_>, path: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    if let Ok(path) = path.extract::<std::path::PathBuf>() {
        return Ok(open_one(py, path)?.into_pyobject(py)?.into_any().unbind());
    }
    let mut paths: Vec<std::path::PathBuf> = path.extract()?;
    if paths.len() == 1 {
        let one = paths.remove(0);
        return Ok(open_one(py, one)?.into_pyobject(py)?.into_any().unbind());
    }
    let pieces = pieces::open(py, paths)?;
    Ok(pieces.into_pyobject(py)?.into_any().unbind())
}

/// Open one recording.
fn open_one(py: Python<'_>, path: std::path::PathBuf) -> PyResult<Recording> {
    let shown = path.display().to_string();
    let reader = py.detach(|| FrameReader::open(&path)).map_err(to_py)?;
    errors::warn_of_damage(py, reader.recording(), &path)?;
    Ok(Recording {
        reader: Arc::new(reader),
        path: shown,
    })
}

#[pymethods]
impl Recording {
    /// The file's path, as given.
    #[getter]
    fn path(&self) -> &str {
        &self.path
    }

    /// The device's camera info (`{"Name": ..., "Serial Number": ...}`).
    #[getter]
    fn info<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        convert::camera_info(py, &self.reader.recording().snapshot().info)
    }

    /// Each sensor: `{"name", "info", "options", "profiles"}`; options as
    /// `{"name", "value", "min", "max", "step", "default", "description",
    /// "read_only"}`, profiles as `{"stream", "index", "format", "fps",
    /// "unique_id", "width", "height", "intrinsics", "motion_intrinsics"}`.
    #[getter]
    fn sensors<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        convert::sensors(py, self.reader.recording().snapshot())
    }

    /// The recorded streams' names (`"Depth"`, `"Infrared 1"`), in order.
    #[getter]
    fn streams(&self) -> Vec<String> {
        self.reader
            .streams()
            .into_iter()
            .map(StreamId::name)
            .collect()
    }

    /// Seconds from the first frame to the last.
    #[getter]
    fn duration(&self) -> f64 {
        self.reader.duration().as_secs_f64()
    }

    /// Whether this is a camera bag recorded from ROS, not a librealsense
    /// recording.
    #[getter]
    fn is_camera_bag(&self) -> bool {
        self.reader.recording().is_camera_bag()
    }

    /// The transform from stream `source` to stream `target`
    /// (`{"rotation": [9, column-major], "translation": [3, metres]}`), or
    /// None where the recording does not relate them.
    fn extrinsics<'py>(
        &self,
        py: Python<'py>,
        source: &str,
        target: &str,
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        let from = self.one_stream(source)?;
        let to = self.one_stream(target)?;
        match self.reader.recording().extrinsics(from, to) {
            Some(e) => convert::extrinsics(py, &e).map(Some),
            None => Ok(None),
        }
    }

    /// Option changes and notifications recorded from `start` to `end`
    /// seconds after the first frame, in time order: dicts with `time` (s
    /// since the first frame), `sensor` (its name), `kind` (`"option"` or
    /// `"notification"`) and, for an option, `name` and `value`; for a
    /// notification, `category`, `severity`, `description`, `timestamp`
    /// (ms since the Unix epoch) and `serialized_data`.
    #[pyo3(signature = (start=None, end=None))]
    fn controls<'py>(
        &self,
        py: Python<'py>,
        start: Option<f64>,
        end: Option<f64>,
    ) -> PyResult<Bound<'py, PyList>> {
        let recording = self.reader.recording();
        let first = recording.start_time();
        let from = first.saturating_add(start.map(seconds).transpose()?.unwrap_or_default());
        let query = recording
            .select()
            .streams(std::iter::empty())
            .controls(true);
        let query = match end.map(seconds).transpose()? {
            Some(until) => query.time(from..first.saturating_add(until)),
            None => query.time(from..),
        };
        let events = py
            .detach(|| query.events().collect::<rsbag::Result<Vec<_>>>())
            .map_err(to_py)?;
        convert::controls(py, recording.snapshot(), first, &events)
    }

    /// Frames of `stream` recorded.
    fn frame_count(&self, stream: &str) -> PyResult<u64> {
        let id = self.one_stream(stream)?;
        self.reader.frame_count(id).map_err(to_py)
    }

    /// Frame `index` (from 0, in recorded order) of `stream`.
    fn frame(&self, py: Python<'_>, stream: &str, index: u64) -> PyResult<Frame> {
        let id = self.one_stream(stream)?;
        let reader = self.reader.clone();
        let frame = py.detach(|| reader.frame(id, index)).map_err(to_py)?;
        Ok(Frame::of(frame))
    }

    /// The frames of `streams` (names; all when None) recorded from
    /// `start` to `end` seconds after the first frame (or for `duration`
    /// seconds from `start`, as the command line's `--start`/`--duration`),
    /// in recorded order. With `filters` (`rsbag.filters` objects), every
    /// depth frame comes through that chain of filters, applied in order
    /// with state of its own (the objects' own state is not touched).
    #[pyo3(signature = (streams=None, start=None, end=None, duration=None, filters=None))]
    fn frames(
        &self,
        streams: Option<Vec<String>>,
        start: Option<f64>,
        end: Option<f64>,
        duration: Option<f64>,
        filters: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<FrameIterator> {
        let specs = filters.map(filters::specs).transpose()?.unwrap_or_default();
        let reader = self.reader.clone();
        let frames = self
            .query(&reader, streams, start, end_of(start, end, duration)?)?
            .frames()
            .map_err(to_py)?;
        // SAFETY: `frames` borrows the reader inside the `Arc` kept beside
        // it in the iterator: the reader does not move (it is on the heap)
        // and lives as long as the iterator holds the `Arc`; the fields
        // drop in declaration order, the borrowing iterator first.
        let frames: Frames<'static> = unsafe { std::mem::transmute(frames) };
        let filters = StreamFilters::of_recording(reader.recording(), &specs);
        Ok(FrameIterator {
            state: Mutex::new(FrameState {
                frames: Source::Frames(Box::new(frames)),
                filters,
                ahead: VecDeque::new(),
                read_ahead: Vec::new(),
                warned: errors::repairs_so_far(reader.recording()),
                reader,
            }),
        })
    }

    /// Every frame of the one stream `stream` from `start` to `end` seconds
    /// (or for `duration` seconds from `start`) as numpy arrays, one entry
    /// per frame, in one call: a dict with `index`, `frame_number`
    /// (uint64), `timestamp`, `system_time` (ms), `time` (s) (float64),
    /// `domain` (uint8, `rs2_timestamp_domain`), `metadata` (a dict of
    /// int64 arrays by librealsense's names, masked (`numpy.ma`) where a
    /// frame has no value) and `data`: an IMU stream's samples (Nx3
    /// float32 for MOTION_XYZ32F, Nx10 float64 for COMBINED_MOTION), None
    /// for other streams.
    #[pyo3(signature = (stream, start=None, end=None, duration=None))]
    fn columns<'py>(
        &self,
        py: Python<'py>,
        stream: &str,
        start: Option<f64>,
        end: Option<f64>,
        duration: Option<f64>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let names = Some(vec![self.one_stream(stream)?.name()]);
        let query = self.query(&self.reader, names, start, end_of(start, end, duration)?)?;
        let read = py.detach(|| query.columns()).map_err(to_py)?;
        columns::to_dict(py, read)
    }

    /// Synchronized framesets of `streams` (all when None) from `start` to
    /// `end` seconds: frames of one moment grouped by timestamp as
    /// librealsense's pipeline groups them (video streams synced, IMU and
    /// pose samples attached to the nearest frameset); every frame is in
    /// exactly one frameset.
    #[pyo3(signature = (streams=None, start=None, end=None, duration=None))]
    fn framesets(
        &self,
        streams: Option<Vec<String>>,
        start: Option<f64>,
        end: Option<f64>,
        duration: Option<f64>,
    ) -> PyResult<FrameSetIterator> {
        let reader = self.reader.clone();
        let sets = self
            .query(&reader, streams, start, end_of(start, end, duration)?)?
            .framesets(SyncOptions::default())
            .map_err(to_py)?;
        // SAFETY: as in `frames`: the iterator borrows the reader in the
        // `Arc` it keeps, and drops first.
        let sets: FrameSets<'static> = unsafe { std::mem::transmute(sets) };
        Ok(FrameSetIterator {
            state: Mutex::new(FrameState {
                frames: Source::Sets(sets),
                filters: StreamFilters::default(),
                ahead: VecDeque::new(),
                read_ahead: Vec::new(),
                warned: errors::repairs_so_far(reader.recording()),
                reader,
            }),
        })
    }

    /// The frame of `stream` numbered `number`, or None.
    fn frame_by_number(
        &self,
        py: Python<'_>,
        stream: &str,
        number: u64,
    ) -> PyResult<Option<Frame>> {
        let id = self.one_stream(stream)?;
        let reader = self.reader.clone();
        let frame = py
            .detach(|| reader.frame_by_number(id, number))
            .map_err(to_py)?;
        Ok(frame.map(Frame::of))
    }

    /// The frame of `stream` nearest `time` seconds after the first frame,
    /// or None when the stream has none.
    fn frame_at(&self, py: Python<'_>, stream: &str, time: f64) -> PyResult<Option<Frame>> {
        let id = self.one_stream(stream)?;
        let time = seconds(time)?;
        let reader = self.reader.clone();
        let frame = py
            .detach(|| reader.frame_nearest(id, time))
            .map_err(to_py)?;
        Ok(frame.map(Frame::of))
    }

    /// How the Z16 stream `depth` aligns with the video stream `other`
    /// (`rs.align`), from the recorded intrinsics, extrinsics and depth
    /// units.
    fn alignment(&self, depth: &str, other: &str) -> PyResult<processing::Alignment> {
        let (depth, other) = (self.one_stream(depth)?, self.one_stream(other)?);
        let inner = rsbag::processing::Alignment::of_streams(self.reader.recording(), depth, other)
            .map_err(to_py)?;
        Ok(processing::Alignment { inner })
    }

    /// Point clouds of the Z16 stream `depth` (`rs.pointcloud`), mapped to
    /// the video stream `map_to` when given.
    #[pyo3(signature = (depth="Depth", map_to=None))]
    fn pointcloud(&self, depth: &str, map_to: Option<&str>) -> PyResult<processing::PointCloud> {
        let depth = self.one_stream(depth)?;
        let map_to = map_to.map(|s| self.one_stream(s)).transpose()?;
        let inner =
            rsbag::processing::PointCloudMaker::of_streams(self.reader.recording(), depth, map_to)
                .map_err(to_py)?;
        Ok(processing::PointCloud { inner })
    }

    /// Metres per raw unit of the Z16 stream `depth` (its sensor's Depth
    /// Units option; 0.001 when none was recorded).
    #[pyo3(signature = (depth="Depth"))]
    fn depth_units(&self, depth: &str) -> PyResult<f32> {
        let depth = self.one_stream(depth)?;
        Ok(self.reader.recording().depth_units(depth))
    }

    /// A Z16 frame's depth in metres: HxW float32 (raw value times the
    /// depth units, as librealsense's `get_distance`; 0 for no depth).
    fn depth_metres<'py>(
        &self,
        py: Python<'py>,
        frame: PyRef<'py, Frame>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let inner = frame.frame();
        let units = self.reader.recording().depth_units(inner.profile.stream);
        let map = py
            .detach(|| rsbag::processing::depth_meters(inner, units))
            .map_err(to_py)?;
        let shape = [map.height as usize, map.width as usize];
        Ok(numpy::PyArray1::from_vec(py, map.values)
            .reshape(shape)?
            .into_any())
    }

    fn __repr__(&self) -> String {
        format!(
            "<rsbag.Recording {:?}: {} streams, {:.3} s>",
            self.path,
            self.reader.streams().len(),
            self.duration()
        )
    }
}

/// The end of a time range given as `end` or as `duration` from `start`
/// (seconds), not both.
fn end_of(start: Option<f64>, end: Option<f64>, duration: Option<f64>) -> PyResult<Option<f64>> {
    match (end, duration) {
        (Some(_), Some(_)) => Err(to_py(rsbag::Error::InvalidArgument(
            "give end or duration, not both".into(),
        ))),
        (None, Some(duration)) => Ok(Some(start.unwrap_or(0.0) + duration)),
        (end, None) => Ok(end),
    }
}

impl Recording {
    /// The frames of `streams` in `start..end` (seconds), as a query.
    fn query<'r>(
        &self,
        reader: &'r FrameReader,
        streams: Option<Vec<String>>,
        start: Option<f64>,
        end: Option<f64>,
    ) -> PyResult<rsbag::recording::FrameQuery<'r>> {
        let find = |name: &str| reader.find_streams(name);
        let (chosen, range) = selection(reader.streams(), find, streams, start, end)?;
        Ok(reader.select().streams(chosen).time(range))
    }

    /// The one stream `name` stands for.
    fn one_stream(&self, name: &str) -> PyResult<StreamId> {
        one_stream(name, self.reader.find_streams(name))
    }
}

/// The streams `names` stand for (`all` when None), found by `find`, and
/// the time range `start..end` (seconds since the first frame).
pub(crate) fn selection(
    all: Vec<StreamId>,
    find: impl Fn(&str) -> rsbag::Result<Vec<StreamId>>,
    names: Option<Vec<String>>,
    start: Option<f64>,
    end: Option<f64>,
) -> PyResult<(Vec<StreamId>, TimeRange)> {
    let chosen = match names {
        None => all,
        Some(names) => {
            let mut ids = Vec::new();
            for name in names {
                ids.extend(find(&name).map_err(to_py)?);
            }
            ids
        }
    };
    let from = start.map(seconds).transpose()?.unwrap_or_default();
    let until = match end.map(seconds).transpose()? {
        Some(until) => std::ops::Bound::Excluded(until),
        None => std::ops::Bound::Unbounded,
    };
    Ok((chosen, (std::ops::Bound::Included(from), until)))
}

/// A time range, times since the first frame.
pub(crate) type TimeRange = (
    std::ops::Bound<std::time::Duration>,
    std::ops::Bound<std::time::Duration>,
);

/// The one stream `name` stands for, of the streams `found` for it.
pub(crate) fn one_stream(name: &str, found: rsbag::Result<Vec<StreamId>>) -> PyResult<StreamId> {
    let ids = found.map_err(to_py)?;
    match ids.as_slice() {
        [one] => Ok(*one),
        _ => Err(to_py(rsbag::Error::InvalidArgument(format!(
            "{name:?} stands for {} streams; name one ({})",
            ids.len(),
            ids.iter().map(|s| s.name()).collect::<Vec<_>>().join(", ")
        )))),
    }
}

/// Lock `mutex` without holding the GIL: a thread that holds the lock may
/// need the GIL back to finish (it releases the GIL while it reads or
/// writes), so no thread may wait for the lock while it holds the GIL.
pub(crate) fn locked<'m, T: Send>(py: Python<'_>, mutex: &'m Mutex<T>) -> MutexGuard<'m, T> {
    py.detach(|| mutex.lock())
}

/// `s` seconds as a duration; negative or not a number is an error.
fn seconds(s: f64) -> PyResult<std::time::Duration> {
    if s.is_finite() && s >= 0.0 {
        Ok(std::time::Duration::from_secs_f64(s))
    } else {
        Err(to_py(rsbag::Error::InvalidArgument(format!(
            "a time of {s} s: times are seconds from the first frame, not negative"
        ))))
    }
}

/// What an iterator reads from: frames or framesets.
enum Source {
    Frames(Box<Frames<'static>>),
    Sets(FrameSets<'static>),
}

/// An iterator over a recording, with the reader it borrows.
struct FrameState {
    frames: Source,
    /// Depth filters applied to the frames read.
    filters: StreamFilters,
    /// Frames read (and filtered) but not yet handed out; an error ends
    /// what was read.
    ahead: VecDeque<rsbag::Result<RecordedFrame>>,
    /// With filters: the next batch, read while the last was filtered.
    read_ahead: Vec<rsbag::Result<RecordedFrame>>,
    /// The chunks read around damaged index data warned of (see
    /// `errors::repair_warnings`): those met before it, then its own.
    warned: usize,
    reader: Arc<FrameReader>,
}

/// Frames read ahead and filtered together by a filtered
/// [`Recording::frames`].
const FILTER_BATCH: usize = 16;

/// The next batch of frames, filtered: the batch read last time (or, the
/// first time, now) is filtered (the filters without state on every
/// core) while a thread of its own reads the next into `read_ahead`, so
/// that reading and decompressing overlap filtering.
fn filtered_batch(
    frames: &mut Frames<'static>,
    filters: &mut StreamFilters,
    read_ahead: &mut Vec<rsbag::Result<RecordedFrame>>,
) -> rsbag::Result<Vec<rsbag::Result<RecordedFrame>>> {
    let mut batch = std::mem::take(read_ahead);
    if batch.is_empty() {
        batch = read_batch(frames);
    }
    let (filtered, next) = std::thread::scope(|scope| {
        let reader = std::thread::Builder::new()
            .name("rsbag-read".into())
            .spawn_scoped(scope, || read_batch(frames))
            .ok();
        let read = batch.iter_mut().filter_map(|r| r.as_mut().ok());
        let filtered = filters.apply_all(read.map(|r| &mut r.frame));
        let next = reader.map(|r| r.join().unwrap_or_else(|p| std::panic::resume_unwind(p)));
        (filtered, next)
    });
    // Without a thread, the next batch is read after.
    *read_ahead = next.unwrap_or_else(|| read_batch(frames));
    filtered.map(|()| batch)
}

/// Up to [`FILTER_BATCH`] frames read in order; an error ends the batch.
fn read_batch(frames: &mut Frames<'static>) -> Vec<rsbag::Result<RecordedFrame>> {
    let mut batch = Vec::with_capacity(FILTER_BATCH);
    for recorded in frames.by_ref().take(FILTER_BATCH) {
        let failed = recorded.is_err();
        batch.push(recorded);
        if failed {
            break;
        }
    }
    batch
}

/// At the end of an iterator's frames: warn of the chunks its reading
/// found damaged index data in (after letting go of its lock, since a
/// warning runs the program's filters).
fn warn_at_end(py: Python<'_>, mut state: MutexGuard<'_, FrameState>) -> PyResult<()> {
    let FrameState { reader, warned, .. } = &mut *state;
    let messages = errors::repair_warnings(reader.recording(), warned);
    drop(state);
    errors::warn_all(py, messages)
}

/// The frames of [`Recording::frames`], one at a time.
#[pyclass(module = "rsbag")]
struct FrameIterator {
    state: Mutex<FrameState>,
}

#[pymethods]
impl FrameIterator {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Frame>> {
        let mut state = locked(py, &self.state);
        let FrameState {
            frames,
            filters,
            ahead,
            read_ahead,
            reader,
            ..
        } = &mut *state;
        let Source::Frames(frames) = frames else {
            return Ok(None);
        };
        // Reading (and decompressing, filtering) runs without the GIL.
        let next = py.detach(move || -> rsbag::Result<Option<Frame>> {
            if ahead.is_empty() {
                if filters.is_empty() {
                    ahead.extend(frames.next());
                } else {
                    ahead.extend(filtered_batch(frames, filters, read_ahead)?);
                }
            }
            let Some(recorded) = ahead.pop_front().transpose()? else {
                return Ok(None);
            };
            let facts = (recorded.stream.kind == StreamKind::Depth)
                .then(|| SensorFacts::of_stream(reader.recording(), recorded.stream));
            let frame = Frame::of(recorded);
            Ok(Some(match facts {
                Some(facts) => frame.with_facts(facts),
                None => frame,
            }))
        });
        if let Ok(None) = next {
            warn_at_end(py, state)?;
        }
        next.map_err(to_py)
    }
}

/// The framesets of [`Recording::framesets`], one at a time.
#[pyclass(module = "rsbag")]
struct FrameSetIterator {
    state: Mutex<FrameState>,
}

#[pymethods]
impl FrameSetIterator {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<FrameSet>> {
        let mut state = locked(py, &self.state);
        let Source::Sets(sets) = &mut state.frames else {
            return Ok(None);
        };
        match py.detach(move || sets.next()) {
            None => warn_at_end(py, state).map(|()| None),
            Some(Ok(set)) => Ok(Some(FrameSet::of(set, Frame::of))),
            Some(Err(e)) => Err(to_py(e)),
        }
    }
}

/// Frames of one moment (see `Recording.framesets`).
#[pyclass(module = "rsbag", frozen)]
struct FrameSet {
    timestamp: f64,
    frames: Vec<Frame>,
}

impl FrameSet {
    fn new(timestamp: f64, frames: Vec<Frame>) -> FrameSet {
        FrameSet { timestamp, frames }
    }

    /// The frameset `set` read, each frame made a Python frame by `frame`.
    pub(crate) fn of(
        set: rsbag::recording::FrameSet<RecordedFrame>,
        frame: impl Fn(RecordedFrame) -> Frame,
    ) -> FrameSet {
        let timestamp = set.timestamp();
        FrameSet::new(timestamp, set.frames().iter().cloned().map(frame).collect())
    }
}

#[pymethods]
impl FrameSet {
    /// The timestamp (ms) of the frame that opened the frameset.
    #[getter]
    fn timestamp(&self) -> f64 {
        self.timestamp
    }

    /// Every frame, synced streams first.
    #[getter]
    fn frames(&self) -> Vec<Frame> {
        self.frames.iter().map(Frame::share).collect()
    }

    /// The first frame of stream `name` (`"Depth"`, `"Infrared 1"`, any
    /// case), or None.
    fn get(&self, name: &str) -> Option<Frame> {
        self.named(name).map(Frame::share)
    }

    /// The number of frames (pyrealsense2's `size()`).
    fn size(&self) -> usize {
        self.frames.len()
    }

    /// The first depth frame, or None (pyrealsense2 returns an empty,
    /// falsy frame).
    fn get_depth_frame(&self) -> Option<Frame> {
        self.first_of(StreamKind::Depth, 0)
    }

    /// The first color frame; else an infrared frame in RGB8 (as
    /// pyrealsense2's); else None.
    fn get_color_frame(&self) -> Option<Frame> {
        self.first_of(StreamKind::Color, 0).or_else(|| {
            self.frames
                .iter()
                .find(|f| {
                    let profile = &f.frame().profile;
                    profile.stream.kind == StreamKind::Infrared && profile.format == Format::Rgb8
                })
                .map(Frame::share)
        })
    }

    /// The infrared frame of stream index `index` (0: the first infrared
    /// frame), or None.
    #[pyo3(signature = (index=0))]
    fn get_infrared_frame(&self, index: u32) -> Option<Frame> {
        self.first_of(StreamKind::Infrared, index)
    }

    /// The fisheye frame of stream index `index` (0: the first), or None.
    #[pyo3(signature = (index=0))]
    fn get_fisheye_frame(&self, index: u32) -> Option<Frame> {
        self.first_of(StreamKind::Fisheye, index)
    }

    /// The pose frame of stream index `index` (0: the first), or None.
    #[pyo3(signature = (index=0))]
    fn get_pose_frame(&self, index: u32) -> Option<Frame> {
        self.first_of(StreamKind::Pose, index)
    }

    fn __len__(&self) -> usize {
        self.frames.len()
    }

    /// The frames in order (`for frame in frameset`).
    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyIterator>> {
        PyList::new(py, self.frames.iter().map(Frame::share))?.try_iter()
    }

    /// `frameset[i]` (a position, negative from the end), `frameset[a:b]`
    /// (a list) or `frameset["Depth"]` (the first frame of that stream,
    /// any case).
    fn __getitem__<'py>(&self, key: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let py = key.py();
        if let Ok(name) = key.cast::<PyString>() {
            let name = name.to_cow()?;
            return match self.named(&name) {
                Some(frame) => Ok(Bound::new(py, frame.share())?.into_any()),
                None => Err(PyKeyError::new_err(format!(
                    "no frame of stream {name:?} in this frameset (streams: {})",
                    self.names().join(", ")
                ))),
            };
        }
        if let Ok(slice) = key.cast::<PySlice>() {
            let length = isize::try_from(self.frames.len()).unwrap_or(isize::MAX);
            let indices = slice.indices(length)?;
            // Every position `indices` yields lies within 0..len.
            let chosen = (0..indices.slicelength).map(|k| {
                let at = indices.start + k as isize * indices.step;
                self.frames[at as usize].share()
            });
            return Ok(PyList::new(py, chosen)?.into_any());
        }
        let Ok(position) = key.extract::<isize>() else {
            return Err(PyTypeError::new_err(format!(
                "a frameset is indexed by position (int), slice or stream name (str), not {}",
                key.get_type().name()?
            )));
        };
        let length = self.frames.len();
        let at = if position < 0 {
            length.checked_sub(position.unsigned_abs())
        } else {
            Some(position.unsigned_abs()).filter(|p| *p < length)
        };
        match at {
            Some(at) => Ok(Bound::new(py, self.frames[at].share())?.into_any()),
            None => Err(PyIndexError::new_err(format!(
                "frameset index {position} out of range: it has {length} frames"
            ))),
        }
    }

    /// `"Depth" in frameset`: whether it holds a frame of that stream (any
    /// case); `frame in frameset`: whether it holds that frame.
    fn __contains__(&self, item: &Bound<'_, PyAny>) -> PyResult<bool> {
        if let Ok(name) = item.cast::<PyString>() {
            return Ok(self.named(&name.to_cow()?).is_some());
        }
        if let Ok(frame) = item.cast::<Frame>() {
            let wanted = frame.get().frame();
            return Ok(self.frames.iter().any(|f| {
                let f = f.frame();
                f.profile.stream == wanted.profile.stream
                    && f.number == wanted.number
                    && f.timestamp == wanted.timestamp
            }));
        }
        Ok(false)
    }

    fn __repr__(&self) -> String {
        format!(
            "<rsbag.FrameSet at {} ms: {}>",
            self.timestamp,
            self.frames
                .iter()
                .map(|f| f.stream_name())
                .collect::<Vec<_>>()
                .join(", ")
        )
    }
}

impl FrameSet {
    /// The first frame of stream `name` (any case).
    fn named(&self, name: &str) -> Option<&Frame> {
        self.frames
            .iter()
            .find(|f| f.stream_name().eq_ignore_ascii_case(name))
    }

    /// The first frame of a `kind` stream, of stream index `index` unless
    /// 0 (librealsense's `first_or_default`).
    fn first_of(&self, kind: StreamKind, index: u32) -> Option<Frame> {
        self.frames
            .iter()
            .find(|f| {
                let stream = f.frame().profile.stream;
                stream.kind == kind && (index == 0 || stream.index == index)
            })
            .map(Frame::share)
    }

    /// The streams' names, each once, in order.
    fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = Vec::new();
        for name in self.frames.iter().map(|f| f.stream_name()) {
            if !names.contains(&name) {
                names.push(name);
            }
        }
        names
    }
}

/// What `rsbag info` reports of a file, as a dict (the library's typed
/// summary: format, size, index, time span, chunks, topics, and for a
/// recording its device, sensors and streams).
#[pyfunction]
fn info<'py>(py: Python<'py>, path: std::path::PathBuf) -> PyResult<Bound<'py, PyAny>> {
    let summary = py
        .detach(|| rsbag::recording::summary::Summary::of(&path))
        .map_err(to_py)?;
    let json = serde_json::to_string(&summary)
        .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))?;
    py.import("json")?.call_method1("loads", (json,))
}

/// What `rsbag check` finds in a file, as a dict: `damage` (sentences),
/// `scanned`, and per stream (`"Depth"`) `frames`, `first_number`,
/// `last_number`, `dropped`, `out_of_order`, `duplicates` and `findings`
/// (each `{"kind": "gap" | "out_of_order" | "duplicate", "missing",
/// "number", "timestamp", "previous_number"}`).
#[pyfunction]
fn check<'py>(py: Python<'py>, path: std::path::PathBuf) -> PyResult<Bound<'py, PyDict>> {
    let report = py
        .detach(|| rsbag::recording::check::check_file(&path, |_, _| {}))
        .map_err(to_py)?;
    convert::check_report(py, &report)
}

/// The extension module.
#[pymodule]
fn _rsbag(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // The workspace's version, which maturin gives the package too.
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(open, m)?)?;
    m.add_function(wrap_pyfunction!(info, m)?)?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(session::open_session, m)?)?;
    m.add_class::<session::Session>()?;
    m.add_class::<session::SessionFrame>()?;
    m.add_class::<session::SessionFrameIterator>()?;
    m.add_class::<session::SessionFrameSet>()?;
    m.add_class::<session::SessionFrameSetIterator>()?;
    m.add_class::<Recording>()?;
    m.add_class::<pieces::PyPieces>()?;
    m.add_class::<pieces::PieceFrameIterator>()?;
    m.add_class::<pieces::PieceFrameSetIterator>()?;
    m.add_class::<Frame>()?;
    m.add_class::<FrameIterator>()?;
    m.add_class::<FrameSet>()?;
    m.add_class::<writer::Writer>()?;
    m.add_class::<FrameSetIterator>()?;
    m.add_class::<playback::Playback>()?;
    m.add_class::<playback::PlaybackSensor>()?;
    m.add_class::<playback::Pipeline>()?;
    m.add_class::<live::LiveContext>()?;
    m.add_class::<live::LiveDevice>()?;
    m.add_class::<live::LiveStream>()?;
    m.add_function(wrap_pyfunction!(playback::_stop_all, m)?)?;
    m.add_class::<processing::Alignment>()?;
    m.add_class::<processing::PointCloud>()?;
    m.add_class::<filters::Filter>()?;
    m.add_function(wrap_pyfunction!(processing::deproject, m)?)?;
    m.add_function(wrap_pyfunction!(processing::project, m)?)?;
    errors::register(m)?;
    Ok(())
}
