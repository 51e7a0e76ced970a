//! `rsbag.open([piece, ...])`: the pieces of a split recording read as
//! one recording.

use std::path::PathBuf;
use std::sync::Arc;

use parking_lot::Mutex;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use rsbag::device::{StreamId, StreamKind};
use rsbag::processing::filters::SensorFacts;
use rsbag::recording::{FrameSets, PieceFrames, Pieces, SyncOptions};

use super::errors::to_py;
use super::frame::Frame;
use super::{columns, convert, end_of, locked, one_stream, selection, FrameSet, TimeRange};

/// The pieces of one split recording (`NAME_0.bag`, `NAME_1.bag`, …) read
/// as one recording: `rsbag.open([paths])`. Frames are indexed and timed
/// across the pieces, every frame once.
#[pyclass(module = "rsbag", name = "Pieces", frozen)]
pub struct PyPieces {
    pieces: Arc<Pieces>,
}

/// Open `paths` as the pieces of one recording (in any order); an error
/// says why they are not.
pub fn open(py: Python<'_>, paths: Vec<PathBuf>) -> PyResult<PyPieces> {
    let pieces = py.detach(|| Pieces::open(&paths)).map_err(to_py)?;
    Ok(PyPieces {
        pieces: Arc::new(pieces),
    })
}

#[pymethods]
impl PyPieces {
    /// The pieces' files, in recorded order.
    #[getter]
    fn paths(&self) -> Vec<String> {
        (self.pieces.pieces().iter())
            .map(|p| p.path().display().to_string())
            .collect()
    }

    /// Where a stream's frame numbers jump at a cut (a piece missing), in
    /// words; empty when every stream runs on.
    #[getter]
    fn gaps(&self) -> Vec<String> {
        self.pieces.gaps().iter().map(|g| g.to_string()).collect()
    }

    /// The device's camera info (`{"Name": ..., "Serial Number": ...}`).
    #[getter]
    fn info<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        convert::camera_info(py, &self.pieces.recording().snapshot().info)
    }

    /// The recorded streams' names (`"Depth"`, `"Infrared 1"`), in order.
    #[getter]
    fn streams(&self) -> Vec<String> {
        (self.pieces.streams().into_iter())
            .map(StreamId::name)
            .collect()
    }

    /// Seconds from the first frame of the first piece to the last of the
    /// last.
    #[getter]
    fn duration(&self) -> f64 {
        self.pieces.duration().as_secs_f64()
    }

    /// Each sensor, as the first piece describes it (each piece repeats
    /// the description): as `Recording.sensors`.
    #[getter]
    fn sensors<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        convert::sensors(py, self.pieces.recording().snapshot())
    }

    /// The transform from stream `source` to stream `target`, as
    /// `Recording.extrinsics`.
    fn extrinsics<'py>(
        &self,
        py: Python<'py>,
        source: &str,
        target: &str,
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        let (from, to) = (self.one_stream(source)?, self.one_stream(target)?);
        match self.pieces.recording().extrinsics(from, to) {
            Some(e) => convert::extrinsics(py, &e).map(Some),
            None => Ok(None),
        }
    }

    /// Metres per raw unit of the Z16 stream `depth`, as
    /// `Recording.depth_units`.
    #[pyo3(signature = (depth="Depth"))]
    fn depth_units(&self, depth: &str) -> PyResult<f32> {
        let depth = self.one_stream(depth)?;
        Ok(self.pieces.recording().depth_units(depth))
    }

    /// Frames of `stream` in all the pieces.
    fn frame_count(&self, stream: &str) -> PyResult<u64> {
        let id = self.one_stream(stream)?;
        self.pieces.frame_count(id).map_err(to_py)
    }

    /// Frame `index` of `stream`, counted from 0 across the pieces.
    fn frame(&self, py: Python<'_>, stream: &str, index: u64) -> PyResult<Frame> {
        let id = self.one_stream(stream)?;
        let pieces = self.pieces.clone();
        let frame = py.detach(|| pieces.frame(id, index)).map_err(to_py)?;
        Ok(self.frame_of(frame))
    }

    /// The frames of `streams` (names; all when None) recorded from
    /// `start` to `end` seconds after the first piece's first frame (or
    /// for `duration` seconds from `start`), in recorded order.
    #[pyo3(signature = (streams=None, start=None, end=None, duration=None))]
    fn frames(
        &self,
        streams: Option<Vec<String>>,
        start: Option<f64>,
        end: Option<f64>,
        duration: Option<f64>,
    ) -> PyResult<PieceFrameIterator> {
        let (chosen, range) = self.selection(streams, start, end_of(start, end, duration)?)?;
        let pieces = self.pieces.clone();
        let frames = pieces.select(Some(chosen), range).map_err(to_py)?;
        // SAFETY: `frames` borrows the pieces inside the `Arc` kept beside
        // it in the iterator: they do not move (they are on the heap) and
        // live as long as the iterator holds the `Arc`; the fields drop in
        // declaration order, the borrowing iterator first.
        let frames: PieceFrames<'static> = unsafe { std::mem::transmute(frames) };
        Ok(PieceFrameIterator {
            state: Mutex::new(IterState { frames, pieces }),
        })
    }

    /// Every frame of the one stream `stream` from `start` to `end`
    /// seconds (or for `duration` seconds from `start`) as numpy arrays,
    /// as `Recording.columns`; `index` and `time` count across the pieces.
    #[pyo3(signature = (stream, start=None, end=None, duration=None))]
    fn columns<'py>(
        &self,
        py: Python<'py>,
        stream: &str,
        start: Option<f64>,
        end: Option<f64>,
        duration: Option<f64>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let name = Some(vec![self.one_stream(stream)?.name()]);
        let (chosen, range) = self.selection(name, start, end_of(start, end, duration)?)?;
        let pieces = self.pieces.clone();
        let read = py
            .detach(|| pieces.columns(chosen[0], range))
            .map_err(to_py)?;
        columns::to_dict(py, read)
    }

    /// Synchronized framesets of `streams` (all when None) from `start` to
    /// `end` seconds, as `Recording.framesets`: the pieces' frames are one
    /// run, so a frameset at a cut holds frames of both pieces.
    #[pyo3(signature = (streams=None, start=None, end=None, duration=None))]
    fn framesets(
        &self,
        streams: Option<Vec<String>>,
        start: Option<f64>,
        end: Option<f64>,
        duration: Option<f64>,
    ) -> PyResult<PieceFrameSetIterator> {
        let (chosen, range) = self.selection(streams, start, end_of(start, end, duration)?)?;
        let pieces = self.pieces.clone();
        let sets =
            (pieces.framesets(Some(chosen), range, SyncOptions::default())).map_err(to_py)?;
        // SAFETY: as in `frames`: the iterator borrows the pieces in the
        // `Arc` it keeps, and drops first.
        let sets: FrameSets<'static> = unsafe { std::mem::transmute(sets) };
        Ok(PieceFrameSetIterator {
            state: Mutex::new(SetState { sets, pieces }),
        })
    }

    fn __repr__(&self) -> String {
        format!(
            "<rsbag.Pieces {} pieces, {:.3} s>",
            self.pieces.pieces().len(),
            self.pieces.duration().as_secs_f64()
        )
    }
}

impl PyPieces {
    fn one_stream(&self, name: &str) -> PyResult<StreamId> {
        one_stream(name, self.pieces.find_streams(name))
    }

    /// The streams `names` stand for (all when None) and the range
    /// `start..end` (seconds).
    fn selection(
        &self,
        names: Option<Vec<String>>,
        start: Option<f64>,
        end: Option<f64>,
    ) -> PyResult<(Vec<StreamId>, TimeRange)> {
        let find = |name: &str| self.pieces.find_streams(name);
        selection(self.pieces.streams(), find, names, start, end)
    }

    fn frame_of(&self, recorded: rsbag::recording::RecordedFrame) -> Frame {
        frame_with_facts(&self.pieces, recorded)
    }
}

/// A frame read from the pieces, with its sensor's facts for a depth
/// frame (its depth units).
fn frame_with_facts(pieces: &Pieces, recorded: rsbag::recording::RecordedFrame) -> Frame {
    let facts = (recorded.stream.kind == StreamKind::Depth)
        .then(|| SensorFacts::of_stream(pieces.recording(), recorded.stream));
    let frame = Frame::of(recorded);
    match facts {
        Some(facts) => frame.with_facts(facts),
        None => frame,
    }
}

/// The frames of [`PyPieces::frames`], with the pieces they borrow.
struct IterState {
    frames: PieceFrames<'static>,
    pieces: Arc<Pieces>,
}

/// The frames of `Pieces.frames`, one at a time.
#[pyclass(module = "rsbag")]
pub struct PieceFrameIterator {
    state: Mutex<IterState>,
}

#[pymethods]
impl PieceFrameIterator {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Frame>> {
        let mut state = locked(py, &self.state);
        let IterState { frames, pieces } = &mut *state;
        py.detach(move || {
            frames
                .next()
                .transpose()
                .map(|f| f.map(|f| frame_with_facts(pieces, f)))
        })
        .map_err(to_py)
    }
}

/// The framesets of [`PyPieces::framesets`], with the pieces they borrow.
struct SetState {
    sets: FrameSets<'static>,
    pieces: Arc<Pieces>,
}

/// The framesets of `Pieces.framesets`, one at a time.
#[pyclass(module = "rsbag")]
pub struct PieceFrameSetIterator {
    state: Mutex<SetState>,
}

#[pymethods]
impl PieceFrameSetIterator {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<FrameSet>> {
        let mut state = locked(py, &self.state);
        let SetState { sets, pieces } = &mut *state;
        let set = py.detach(move || sets.next()).transpose().map_err(to_py)?;
        Ok(set.map(|set| FrameSet::of(set, |f| frame_with_facts(pieces, f))))
    }
}
