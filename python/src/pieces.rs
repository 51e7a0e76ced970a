//! `rsbag.open([piece, ...])`: the pieces of a split recording read as
//! one recording.

use std::path::PathBuf;
use std::sync::Arc;

use parking_lot::Mutex;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use rsbag::device::{StreamId, StreamKind};
use rsbag::processing::filters::SensorFacts;
use rsbag::recording::{PieceFrames, Pieces};

use super::errors::to_py;
use super::frame::Frame;
use super::{convert, end_of, locked, seconds};

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
        let chosen = match streams {
            None => self.pieces.streams(),
            Some(names) => {
                let mut ids = Vec::new();
                for name in names {
                    ids.extend(self.pieces.find_streams(&name).map_err(to_py)?);
                }
                ids
            }
        };
        let from = start.map(seconds).transpose()?.unwrap_or_default();
        let until = end_of(start, end, duration)?.map(seconds).transpose()?;
        let pieces = self.pieces.clone();
        let frames = match until {
            Some(until) => pieces.select(Some(chosen), from..until),
            None => pieces.select(Some(chosen), from..),
        }
        .map_err(to_py)?;
        // SAFETY: `frames` borrows the pieces inside the `Arc` kept beside
        // it in the iterator: they do not move (they are on the heap) and
        // live as long as the iterator holds the `Arc`; the fields drop in
        // declaration order, the borrowing iterator first.
        let frames: PieceFrames<'static> = unsafe { std::mem::transmute(frames) };
        Ok(PieceFrameIterator {
            state: Mutex::new(IterState { frames, pieces }),
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
        let ids = self.pieces.find_streams(name).map_err(to_py)?;
        match ids.as_slice() {
            [one] => Ok(*one),
            _ => Err(to_py(rsbag::Error::InvalidArgument(format!(
                "{name} stands for several streams; name one"
            )))),
        }
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
