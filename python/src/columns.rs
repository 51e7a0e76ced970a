//! `Recording.columns`: one stream's frames over a time range as numpy
//! arrays, one per field, in one call.

use numpy::{IntoPyArray, PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use rsbag::recording::{Columns, MetadataColumn, Samples};

/// `columns` as Python sees it: a dict of numpy arrays named as
/// `Frame`'s attributes (`index`, `frame_number`, `timestamp`, `domain`,
/// `system_time`, `time`), `metadata` (a dict of int64 arrays, masked
/// where a frame has no value) and `data` (the IMU samples, or None).
/// The arrays own the vectors read: nothing is copied.
pub fn to_dict<'py>(py: Python<'py>, columns: Columns) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    // The variants are in librealsense's order: `rs2_timestamp_domain`.
    let domain: Vec<u8> = columns.domain.iter().map(|&d| d as u8).collect();
    dict.set_item("index", columns.index.into_pyarray(py))?;
    dict.set_item("frame_number", columns.number.into_pyarray(py))?;
    dict.set_item("timestamp", columns.timestamp.into_pyarray(py))?;
    dict.set_item("domain", domain.into_pyarray(py))?;
    dict.set_item("system_time", columns.system_time.into_pyarray(py))?;
    dict.set_item("time", columns.time.into_pyarray(py))?;
    let metadata = PyDict::new(py);
    for column in columns.metadata {
        let name = column.name.clone();
        metadata.set_item(name, metadata_array(py, column)?)?;
    }
    dict.set_item("metadata", metadata)?;
    let data = match columns.samples {
        None => None,
        Some(Samples::Xyz(samples)) => Some(rows(py, samples.into_flattened(), 3)?),
        Some(Samples::Combined(samples)) => Some(rows(py, samples.into_flattened(), 10)?),
    };
    dict.set_item("data", data)?;
    Ok(dict)
}

/// `values`, `width` to a row, as an Nx`width` array.
fn rows<'py, T: numpy::Element>(
    py: Python<'py>,
    values: Vec<T>,
    width: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let n = values.len() / width;
    Ok(values.into_pyarray(py).reshape([n, width])?.into_any())
}

/// A metadata column as an int64 array, or a `numpy.ma` masked array
/// masking the frames that have no value.
fn metadata_array<'py>(py: Python<'py>, column: MetadataColumn) -> PyResult<Bound<'py, PyAny>> {
    let values = PyArray1::from_vec(py, column.values).into_any();
    let Some(present) = column.present else {
        return Ok(values);
    };
    let missing: Vec<bool> = present.iter().map(|p| !p).collect();
    let masked = py.import("numpy.ma")?.getattr("masked_array")?;
    masked.call1((values, missing.into_pyarray(py)))
}
