//! A frame as Python sees it: its stream, number, timestamps, metadata,
//! bytes, and a numpy array over those bytes.

use std::time::Duration;

use numpy::npyffi::{get_type_object, npy_intp, NpyTypes, PyArrayObject, PY_ARRAY_API};
use numpy::PyArrayDescrMethods;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use rsbag::device::{Format, ProfileKind};
use rsbag::processing::filters::SensorFacts;
use rsbag::recording::RecordedFrame;

/// One frame: its stream, number, timestamp, metadata and bytes.
///
/// Frames read from a recording know where they are in it (`index`,
/// `time`); frames a playback delivers do not (those are None), as a
/// camera's frames do not.
#[pyclass(module = "rsbag", frozen)]
pub struct Frame {
    frame: rsbag::device::Frame,
    position: Option<Position>,
    /// What the depth filters need of the sensor of a depth frame read
    /// from a recording.
    facts: Option<SensorFacts>,
}

/// Where a frame read from a recording lies in it.
#[derive(Debug, Clone, Copy)]
struct Position {
    index: u64,
    time: Duration,
}

impl Frame {
    /// A frame read from a recording.
    pub fn of(recorded: RecordedFrame) -> Frame {
        Frame {
            frame: recorded.frame,
            position: Some(Position {
                index: recorded.index,
                time: recorded.time,
            }),
            facts: None,
        }
    }

    /// A frame a playback delivered.
    pub fn played(frame: rsbag::device::Frame) -> Frame {
        Frame {
            frame,
            position: None,
            facts: None,
        }
    }

    /// The frame, its sensor's facts known.
    pub fn with_facts(mut self, facts: SensorFacts) -> Frame {
        self.facts = Some(facts);
        self
    }

    /// Its sensor's facts, where known.
    pub fn facts(&self) -> Option<SensorFacts> {
        self.facts
    }

    /// The library's frame.
    pub fn frame(&self) -> &rsbag::device::Frame {
        &self.frame
    }

    /// Another Python object for the same frame (the bytes are shared).
    pub fn share(&self) -> Frame {
        Frame {
            frame: self.frame.clone(),
            position: self.position,
            facts: self.facts,
        }
    }
}

#[pymethods]
impl Frame {
    /// librealsense's stream type name (`"Depth"`, `"Color"`,
    /// `"Infrared"`, `"Gyro"`).
    #[getter]
    fn stream(&self) -> &'static str {
        self.frame.profile.stream.kind.name()
    }

    /// The stream's index (1 and 2 for the two infrared streams).
    #[getter]
    fn stream_index(&self) -> u32 {
        self.frame.profile.stream.index
    }

    /// The stream's name with its index (`"Infrared 1"`).
    #[getter]
    pub fn stream_name(&self) -> String {
        self.frame.profile.stream.name()
    }

    /// librealsense's id of the stream profile the frame is of.
    #[getter]
    fn unique_id(&self) -> u32 {
        self.frame.profile.unique_id
    }

    /// The frame number.
    #[getter]
    fn frame_number(&self) -> u64 {
        self.frame.number
    }

    /// The frame's position in its stream, from 0 (None for a frame a
    /// playback delivered).
    #[getter]
    fn index(&self) -> Option<u64> {
        self.position.map(|p| p.index)
    }

    /// The timestamp in milliseconds, in `domain`.
    #[getter]
    fn timestamp(&self) -> f64 {
        self.frame.timestamp
    }

    /// librealsense's name of the timestamp domain (`"Hardware Clock"`).
    #[getter]
    fn domain(&self) -> &'static str {
        self.frame.domain.name()
    }

    /// The host time in milliseconds when the frame arrived.
    #[getter]
    fn system_time(&self) -> f64 {
        self.frame.system_time
    }

    /// Seconds since the recording's first frame (None for a frame a
    /// playback delivered).
    #[getter]
    fn time(&self) -> Option<f64> {
        self.position.map(|p| p.time.as_secs_f64())
    }

    /// librealsense's name of the pixel format (`"Z16"`, `"RGB8"`).
    #[getter]
    fn format(&self) -> &'static str {
        self.frame.profile.format.name()
    }

    /// Width and height in pixels, for images (None otherwise).
    #[getter]
    fn size(&self) -> Option<(u32, u32)> {
        self.frame.resolution()
    }

    /// Bytes per row, for images.
    #[getter]
    fn stride(&self) -> u32 {
        self.frame.stride
    }

    /// The frame's stream profile, as `Recording.sensors` gives profiles
    /// (a filtered or aligned frame's is the output's: its size and
    /// intrinsics).
    #[getter]
    fn profile<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        crate::convert::profile(py, &self.frame.profile)
    }

    /// Metres per raw depth unit of the sensor of a depth frame read from
    /// a recording or a pipeline (None when not known).
    #[getter]
    fn depth_units(&self) -> Option<f32> {
        self.facts.map(|f| f.depth_units)
    }

    /// The frame's metadata under librealsense's names
    /// (`{"Frame Counter": 1, ...}`).
    #[getter]
    fn metadata<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (key, value) in &self.frame.metadata {
            dict.set_item(key, value)?;
        }
        Ok(dict)
    }

    /// The frame's bytes, exactly as pyrealsense2's `frame.get_data()`
    /// holds them (a copy, as `bytes`).
    fn get_data<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.frame.data)
    }

    /// The frame as a read-only numpy array over its bytes, never a copy
    /// (numpy reads elements that are not aligned itself): HxW uint16 for Z16, Y16
    /// and RAW16, HxW uint8 for Y8, HxWx3 / HxWx4 uint8 for RGB8/BGR8 and
    /// RGBA8/BGRA8, HxWx2 uint8 for YUYV/UYVY, HxW float32 for DISTANCE and
    /// DISPARITY32, 3 float32 for IMU samples, 10 float64 for
    /// COMBINED_MOTION; the bytes (uint8) for anything else. Read-only.
    fn as_array<'py>(slf: Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let (layout, data) = {
            let this = slf.get();
            let frame = &this.frame;
            (Layout::of(frame), frame.data.clone())
        };
        match layout.element {
            Element::U8 => view::<u8>(&slf, &data, &layout),
            Element::U16 => view::<u16>(&slf, &data, &layout),
            Element::F32 => view::<f32>(&slf, &data, &layout),
            Element::F64 => view::<f64>(&slf, &data, &layout),
        }
    }

    fn __repr__(&self) -> String {
        format!(
            "<rsbag.Frame {} #{} at {} ms ({}), {} bytes>",
            self.stream_name(),
            self.frame_number(),
            self.timestamp(),
            self.domain(),
            self.frame.data.len()
        )
    }
}

#[derive(Debug, Clone, Copy)]
enum Element {
    U8,
    U16,
    F32,
    F64,
}

impl Element {
    fn size(self) -> usize {
        match self {
            Element::U8 => 1,
            Element::U16 => 2,
            Element::F32 => 4,
            Element::F64 => 8,
        }
    }
}

/// How a frame's bytes are laid out as an array: element type, shape and
/// strides in bytes.
#[derive(Debug)]
struct Layout {
    element: Element,
    shape: Vec<usize>,
    strides: Vec<usize>,
}

impl Layout {
    fn of(frame: &rsbag::device::Frame) -> Layout {
        let flat = |element: Element| Layout {
            element,
            shape: vec![frame.data.len() / element.size()],
            strides: vec![element.size()],
        };
        let ProfileKind::Video { width, height, .. } = frame.profile.kind else {
            return match frame.profile.format {
                Format::MotionXyz32f if frame.data.len() >= 12 => Layout {
                    element: Element::F32,
                    shape: vec![3],
                    strides: vec![4],
                },
                Format::CombinedMotion => flat(Element::F64),
                _ => flat(Element::U8),
            };
        };
        let (element, channels) = match frame.profile.format {
            Format::Z16 | Format::Y16 | Format::Raw16 | Format::Disparity16 => (Element::U16, 1),
            Format::Y8 | Format::Raw8 => (Element::U8, 1),
            Format::Rgb8 | Format::Bgr8 => (Element::U8, 3),
            Format::Rgba8 | Format::Bgra8 => (Element::U8, 4),
            Format::Yuyv | Format::Uyvy => (Element::U8, 2),
            Format::Distance | Format::Disparity32 => (Element::F32, 1),
            _ => return flat(Element::U8),
        };
        let (w, h) = (width as usize, height as usize);
        let pixel = element.size() * channels;
        let row = if frame.stride > 0 {
            frame.stride as usize
        } else {
            w * pixel
        };
        // A frame shorter than its rows, or rows shorter than a pixel row,
        // are shown as the bytes they are.
        if row < w * pixel || h == 0 || frame.data.len() < row * (h - 1) + w * pixel {
            return flat(Element::U8);
        }
        let mut shape = vec![h, w];
        let mut strides = vec![row, pixel];
        if channels > 1 {
            shape.push(channels);
            strides.push(element.size());
        }
        Layout {
            element,
            shape,
            strides,
        }
    }
}

/// `data` as a read-only numpy array of `layout` over the frame's own bytes
/// (never a copy; numpy reads unaligned elements itself), with `owner`
/// (the Python frame) as its base.
fn view<'py, T: numpy::Element>(
    owner: &Bound<'py, Frame>,
    data: &bytes::Bytes,
    layout: &Layout,
) -> PyResult<Bound<'py, PyAny>> {
    let py = owner.py();
    let to_intp = |v: &usize| npy_intp::try_from(*v).unwrap_or(npy_intp::MAX);
    let mut dims: Vec<npy_intp> = layout.shape.iter().map(to_intp).collect();
    let mut strides: Vec<npy_intp> = layout.strides.iter().map(to_intp).collect();
    let nd = std::ffi::c_int::try_from(dims.len()).unwrap_or(0);
    // SAFETY: every element the shape and strides reach lies inside `data`
    // (checked by `Layout::of`); `data` is the frame's own `Bytes`, which
    // never changes or moves while the frame, the array's base (a new
    // reference handed to numpy), is alive; flags 0: read-only.
    unsafe {
        let array = PY_ARRAY_API.PyArray_NewFromDescr(
            py,
            get_type_object(py, NpyTypes::PyArray_Type),
            T::get_dtype(py).into_dtype_ptr(),
            nd,
            dims.as_mut_ptr(),
            strides.as_mut_ptr(),
            data.as_ptr() as *mut std::ffi::c_void,
            0,
            std::ptr::null_mut(),
        );
        if array.is_null() {
            return Err(PyErr::fetch(py));
        }
        let array = Bound::from_owned_ptr(py, array);
        if PY_ARRAY_API.PyArray_SetBaseObject(
            py,
            array.as_ptr().cast::<PyArrayObject>(),
            owner.clone().into_any().into_ptr(),
        ) < 0
        {
            return Err(PyErr::fetch(py));
        }
        Ok(array)
    }
}
