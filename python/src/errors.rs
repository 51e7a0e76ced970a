//! rsbag's errors as Python exceptions: `rsbag.Error`, and a subclass per
//! kind of error (`rsbag.NotABagError`, `rsbag.DamagedError`, ...). The
//! message is the library's, which names the file and what is wrong.
//!
//! Two kinds are not failures and map to Python's own exceptions, as
//! `Pipeline.wait_for_frames` raises them: a wait that timed out is a
//! `TimeoutError`, the end of a recording an `EOFError`.

use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;

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
    NotABagError,
    Error,
    "The file is not a recording rsbag reads."
);
create_exception!(rsbag, DamagedError, Error, "The file is damaged.");
create_exception!(
    rsbag,
    UnsupportedError,
    Error,
    "The file uses something rsbag does not read."
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

/// The Python exception of an rsbag error.
pub fn to_py(e: rsbag::Error) -> PyErr {
    let message = e.to_string();
    match e.kind() {
        ErrorKind::Io => IoError::new_err(message),
        ErrorKind::NotABag => NotABagError::new_err(message),
        ErrorKind::Damaged => DamagedError::new_err(message),
        ErrorKind::Unsupported => UnsupportedError::new_err(message),
        ErrorKind::NotARecording => NotARecordingError::new_err(message),
        ErrorKind::InvalidArgument => InvalidArgumentError::new_err(message),
        ErrorKind::Thread => ThreadError::new_err(message),
        ErrorKind::Timeout => pyo3::exceptions::PyTimeoutError::new_err(message),
        ErrorKind::Ended => pyo3::exceptions::PyEOFError::new_err(message),
        _ => Error::new_err(message),
    }
}

/// Add the exception classes to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("Error", py.get_type::<Error>())?;
    m.add("IoError", py.get_type::<IoError>())?;
    m.add("NotABagError", py.get_type::<NotABagError>())?;
    m.add("DamagedError", py.get_type::<DamagedError>())?;
    m.add("UnsupportedError", py.get_type::<UnsupportedError>())?;
    m.add("NotARecordingError", py.get_type::<NotARecordingError>())?;
    m.add(
        "InvalidArgumentError",
        py.get_type::<InvalidArgumentError>(),
    )?;
    m.add("ThreadError", py.get_type::<ThreadError>())?;
    Ok(())
}
