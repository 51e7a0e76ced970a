//! rsbag's errors as Python exceptions: `rsbag.Error`, and a subclass per
//! kind of error (`rsbag.WrongFormatError`, `rsbag.DamagedError`, ...). The
//! message is the library's, which names the file and what is wrong.
//!
//! Two kinds are not failures and map to exceptions of Python's own
//! kinds, as `Pipeline.wait_for_frames` raises them: a wait that timed
//! out is a `rsbag.FrameTimeoutError` (a `TimeoutError`), the end of a
//! recording a `rsbag.RecordingEndedError` (an `EOFError`); both are
//! `RuntimeError`s too, as pyrealsense2 raises `RuntimeError` for either.
//!
//! What the command-line tool says besides its errors is said here too: a
//! missing file whose `NAME.partial` exists names `rsbag reindex` in the
//! error, and a bag read without a usable index gives a warning
//! (`rsbag.RsbagWarning`).

use std::ffi::CString;
use std::path::Path;

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyUserWarning};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyTuple, PyType};

use rsbag::ErrorKind;

create_exception!(rsbag, Error, PyException, "Anything rsbag could not do.");
create_exception!(
    rsbag,
    IoError,
    Error,
    "A file could not be read or written."
);
create_exception!(
    rsbag,
    WrongFormatError,
    Error,
    "The file is not a recording rsbag reads."
);
create_exception!(rsbag, DamagedError, Error, "The file is damaged.");
create_exception!(
    rsbag,
    UnsupportedError,
    Error,
    "Something rsbag does not do: a conversion, a format or a file it cannot read or write."
);
create_exception!(
    rsbag,
    NotARecordingError,
    Error,
    "The file is readable, but not a RealSense recording or a camera bag."
);
create_exception!(
    rsbag,
    InvalidArgumentError,
    Error,
    "An argument is not valid."
);
create_exception!(rsbag, ThreadError, Error, "A worker thread failed.");
create_exception!(
    rsbag,
    RsbagWarning,
    PyUserWarning,
    "What the rsbag tool warns of: a file read without its index."
);

/// `rsbag.FrameTimeoutError(TimeoutError, RuntimeError)`.
static FRAME_TIMEOUT: PyOnceLock<Py<PyType>> = PyOnceLock::new();
/// `rsbag.RecordingEndedError(EOFError, RuntimeError)`.
static RECORDING_ENDED: PyOnceLock<Py<PyType>> = PyOnceLock::new();

/// `rsbag.FrameTimeoutError`: no frameset arrived within the time given.
pub fn frame_timeout(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    FRAME_TIMEOUT
        .get_or_try_init(py, || {
            two_bases(
                py,
                "FrameTimeoutError",
                ("TimeoutError", "RuntimeError"),
                "No frameset arrived within the time given (pyrealsense2 raises RuntimeError).",
            )
        })
        .map(|class| class.bind(py))
}

/// `rsbag.RecordingEndedError`: the recording has ended and every
/// frameset was taken.
pub fn recording_ended(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    RECORDING_ENDED
        .get_or_try_init(py, || {
            two_bases(
                py,
                "RecordingEndedError",
                ("EOFError", "RuntimeError"),
                "The recording has ended: no more framesets (pyrealsense2 raises RuntimeError).",
            )
        })
        .map(|class| class.bind(py))
}

/// An exception class `rsbag.NAME` deriving from two of Python's own.
fn two_bases(py: Python<'_>, name: &str, bases: (&str, &str), doc: &str) -> PyResult<Py<PyType>> {
    let builtins = py.import("builtins")?;
    let bases = PyTuple::new(py, [builtins.getattr(bases.0)?, builtins.getattr(bases.1)?])?;
    let namespace = PyDict::new(py);
    namespace.set_item("__module__", "rsbag")?;
    namespace.set_item("__doc__", doc)?;
    let class = builtins
        .getattr("type")?
        .call1((name, bases, namespace))?
        .cast_into::<PyType>()?;
    Ok(class.unbind())
}

/// An exception of `class` (made by the functions above) with `message`.
pub fn raise(class: PyResult<&Bound<'_, PyType>>, message: String) -> PyErr {
    match class {
        Ok(class) => PyErr::from_type(class.clone(), message),
        Err(e) => e,
    }
}

/// The Python exception of an rsbag error. A missing file whose
/// `NAME.partial` exists says so, as the command-line tool does.
pub fn to_py(e: rsbag::Error) -> PyErr {
    let message = format!("{e}{}", rsbag::storage::recovery_hint(&e));
    match e.kind() {
        ErrorKind::Io => IoError::new_err(message),
        ErrorKind::WrongFormat => WrongFormatError::new_err(message),
        ErrorKind::Damaged => DamagedError::new_err(message),
        ErrorKind::Unsupported => UnsupportedError::new_err(message),
        ErrorKind::NotARecording => NotARecordingError::new_err(message),
        ErrorKind::InvalidArgument => InvalidArgumentError::new_err(message),
        ErrorKind::Thread => ThreadError::new_err(message),
        ErrorKind::Timeout => Python::attach(|py| raise(frame_timeout(py), message)),
        ErrorKind::Ended => Python::attach(|py| raise(recording_ended(py), message)),
        _ => Error::new_err(message),
    }
}

/// Warn (`rsbag.RsbagWarning`) of damage found in opening `recording`
/// from `path`: read by scanning its records because its index is missing
/// or unusable (what follows may be less than the file held), or chunks
/// read from their own records because their index data is damaged
/// (nothing is missing); `rsbag reindex` writes a new index. The
/// command-line tool warns alike.
pub fn warn_of_damage(
    py: Python<'_>,
    recording: &rsbag::recording::Recording,
    path: &Path,
) -> PyResult<()> {
    warn_all(py, repair_warnings(recording, &mut 0))?;
    let Some(scan) = recording.bag().and_then(|bag| bag.scan_report()) else {
        return Ok(());
    };
    // Why the index is unusable, as opening through it says.
    let why = match py.detach(|| rsbag::storage::bag::Bag::open(path).err()) {
        Some(e) => match e.root() {
            rsbag::Error::MissingIndex { reason } => format!(" ({reason})"),
            other => format!(" ({other})"),
        },
        None => String::new(),
    };
    warn_all(
        py,
        vec![format!(
            "{}: no usable index{why}; read by scanning the records ({} complete chunks; `rsbag reindex` writes a new index)",
            path.display(),
            scan.complete_chunks
        )],
    )
}

/// The warnings of the chunks of `recording`'s bag read from their own
/// records, their index data damaged, past the first `warned` of them
/// (which then counts them all): made under a lock, given with
/// [`warn_all`] after it, since a warning runs the program's filters.
pub fn repair_warnings(recording: &rsbag::recording::Recording, warned: &mut usize) -> Vec<String> {
    let Some(bag) = recording.bag() else {
        return Vec::new();
    };
    let repairs = bag.chunk_repairs().chunks();
    let file = bag
        .path()
        .map(|p| p.display().to_string())
        .unwrap_or_default();
    let new = repairs.iter().skip(*warned).map(|(_, why)| {
        format!("{file}: {why}; the chunk's messages were read from its own records, none missing (`rsbag reindex` writes a new index)")
    });
    let new: Vec<String> = new.collect();
    *warned = repairs.len();
    new
}

/// Warn of the chunks of `recording`'s bag read from their own records
/// past the `warned` of them (see [`repair_warnings`]), the lock let go
/// before warning.
pub fn warn_of_new_repairs(
    py: Python<'_>,
    recording: &rsbag::recording::Recording,
    warned: &parking_lot::Mutex<usize>,
) -> PyResult<()> {
    let messages = repair_warnings(recording, &mut warned.lock());
    warn_all(py, messages)
}

/// How many chunks of `recording`'s bag were read from their own records
/// so far (see [`repair_warnings`]).
pub fn repairs_so_far(recording: &rsbag::recording::Recording) -> usize {
    recording.bag().map_or(0, |bag| bag.chunk_repairs().count())
}

/// Give each of `messages` as an `rsbag.RsbagWarning`.
pub fn warn_all(py: Python<'_>, messages: Vec<String>) -> PyResult<()> {
    for message in messages {
        let message = CString::new(message.replace('\0', " ")).unwrap_or_default();
        PyErr::warn(py, &py.get_type::<RsbagWarning>(), &message, 1)?;
    }
    Ok(())
}

/// Add the exception classes to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("Error", py.get_type::<Error>())?;
    m.add("IoError", py.get_type::<IoError>())?;
    m.add("WrongFormatError", py.get_type::<WrongFormatError>())?;
    m.add("DamagedError", py.get_type::<DamagedError>())?;
    m.add("UnsupportedError", py.get_type::<UnsupportedError>())?;
    m.add("NotARecordingError", py.get_type::<NotARecordingError>())?;
    m.add(
        "InvalidArgumentError",
        py.get_type::<InvalidArgumentError>(),
    )?;
    m.add("ThreadError", py.get_type::<ThreadError>())?;
    m.add("RsbagWarning", py.get_type::<RsbagWarning>())?;
    m.add("FrameTimeoutError", frame_timeout(py)?)?;
    m.add("RecordingEndedError", recording_ended(py)?)?;
    Ok(())
}
