//! librealsense's depth filters as Python objects: `rsbag.filters.Spatial(
//! alpha=0.6).process(frame)`, and chains applied while reading
//! (`recording.frames(streams=["Depth"], filters=[...])`). The arithmetic
//! is the library's (`rsbag::processing::filters`), which equals
//! librealsense 2.55's bit for bit.

use parking_lot::Mutex;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use rsbag::processing::filters::{check_chain, FilterKind, FilterSpec};

use crate::errors::to_py;
use crate::frame::Frame;

/// One filter with its options and (for the temporal filter) its state:
/// `rsbag.Filter("spatial", alpha=0.6)`; the classes of `rsbag.filters`
/// make these.
#[pyclass(module = "rsbag", frozen)]
pub struct Filter {
    pub(crate) spec: FilterSpec,
    inner: Mutex<rsbag::processing::filters::Filter>,
}

#[pymethods]
impl Filter {
    /// The filter `name` (`decimation`, `threshold`, `depth-to-disparity`,
    /// `disparity-to-depth`, `spatial`, `temporal`, `hole-filling`,
    /// `colorizer`) with
    /// `options` (librealsense's option names, `_` or `-`), checked
    /// against librealsense's ranges; the others keep their defaults.
    #[new]
    #[pyo3(signature = (name, **options))]
    fn new(name: &str, options: Option<&Bound<'_, PyDict>>) -> PyResult<Filter> {
        let kind = FilterKind::from_name(name).map_err(to_py)?;
        let mut given: Vec<(String, f32)> = Vec::new();
        for (key, value) in options.into_iter().flat_map(|d| d.iter()) {
            let key: String = key.extract()?;
            let value: f64 = value.extract().map_err(|_| {
                PyTypeError::new_err(format!("filter {kind}: option {key} takes a number"))
            })?;
            given.push((key, value as f32));
        }
        let spec =
            FilterSpec::new(kind, given.iter().map(|(k, v)| (k.as_str(), *v))).map_err(to_py)?;
        Ok(Filter::of(spec))
    }

    /// The filter's name.
    #[getter]
    fn name(&self) -> &'static str {
        self.spec.kind.name()
    }

    /// Every option's value (given or default), by key.
    #[getter]
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for option in self.spec.kind.options() {
            dict.set_item(option.key, self.spec.value(option.key))?;
        }
        Ok(dict)
    }

    /// `frame` filtered: a new Z16 (or DISPARITY32; RGB8 from the
    /// colorizer) frame, its size and intrinsics those of the output. The temporal filter takes frames
    /// in recorded order and remembers them. Depth to disparity and back
    /// need the depth sensor's Depth Units and Stereo Baseline, which
    /// frames read from a recording carry.
    fn process(&self, py: Python<'_>, frame: PyRef<'_, Frame>) -> PyResult<Frame> {
        let facts = frame.facts().unwrap_or_default();
        let input = frame.frame().clone();
        let output = py
            .detach(|| self.inner.lock().apply_frame(&input, &facts))
            .map_err(to_py)?;
        Ok(Frame::played(output).with_facts(facts))
    }

    fn __repr__(&self) -> String {
        let options: Vec<String> = self
            .spec
            .kind
            .options()
            .iter()
            .map(|o| format!("{}={}", o.key.replace('-', "_"), self.spec.value(o.key)))
            .collect();
        format!(
            "rsbag.Filter({:?}, {})",
            self.spec.kind.name(),
            options.join(", ")
        )
    }
}

impl Filter {
    fn of(spec: FilterSpec) -> Filter {
        let inner = Mutex::new(rsbag::processing::filters::Filter::new(&spec));
        Filter { spec, inner }
    }
}

/// The specs of `filters`: `rsbag.Filter`s or objects holding one as
/// `_inner` (the classes of `rsbag.filters`), the colorizer, if there,
/// last.
pub fn specs(filters: &Bound<'_, PyAny>) -> PyResult<Vec<FilterSpec>> {
    let mut specs = Vec::new();
    for item in filters.try_iter()? {
        let item = item?;
        let filter = match item.extract::<PyRef<'_, Filter>>() {
            Ok(filter) => filter,
            Err(_) => item
                .getattr("_inner")
                .and_then(|inner| Ok(inner.extract::<PyRef<'_, Filter>>()?))
                .map_err(|_| {
                    PyTypeError::new_err("filters must be rsbag.filters objects (rsbag.Filter)")
                })?,
        };
        specs.push(filter.spec.clone());
    }
    check_chain(&specs).map_err(to_py)?;
    Ok(specs)
}
