//! `rsbag.Writer`: a recording written from Python frames (numpy arrays
//! or bytes) for any camera, in librealsense's layout: a `.bag` that
//! librealsense 2.55 plays or a `.db3` that 2.59 plays (by the extension).
//! Like every rsbag writer it writes `NAME.partial` and renames the file
//! when closed: a crash leaves a partial file `rsbag reindex` recovers,
//! never a half-written file under the name.

use std::collections::BTreeMap;
use std::path::PathBuf;

use numpy::{PyArrayDescr, PyArrayDescrMethods, PyUntypedArray, PyUntypedArrayMethods};
use parking_lot::Mutex;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use rsbag::device::{
    depth_units_of, option_name, CameraInfo, DeviceSnapshot, Extrinsics, Format, Frame, Intrinsics,
    MotionIntrinsics, OptionRange, ProfileKind, SensorOption, SensorSnapshot, StreamId, StreamKind,
    StreamProfile, TimestampDomain,
};
use rsbag::realsense::topics::StreamTopic;
use rsbag::record::{create_sink, write_description, Db3Options, RecordingSink};
use rsbag::storage::FileFormat;

use crate::errors::to_py;
use crate::locked;

fn invalid(message: String) -> PyErr {
    to_py(rsbag::Error::InvalidArgument(message))
}

/// A stream added to the writer.
struct WriterStream {
    sensor: usize,
    profile: StreamProfile,
    /// From the first stream added (the extrinsics group's reference).
    extrinsics: Extrinsics,
}

struct WriterState {
    sink: Option<Box<dyn RecordingSink>>,
    snapshot: DeviceSnapshot,
    streams: BTreeMap<String, WriterStream>,
    /// Whether the description is written (streams can no longer be added).
    started: bool,
    /// The first frame's timestamp (ms): capture times count from it.
    first_timestamp: Option<f64>,
    /// Capture time of the last frame written (ns since the start).
    last_capture_ns: u64,
}

/// Writes a recording from frames given in Python.
///
/// ```python
/// with rsbag.Writer("out.bag", info={"Name": "My camera"}) as w:
///     w.add_video_stream("Depth", "Z16", 640, 480, 30, sensor="Stereo Module",
///                        depth_units=0.001)
///     for n, depth in enumerate(depth_images, 1):
///         w.write("Depth", depth, timestamp=n * 33.3, frame_number=n)
/// ```
#[pyclass(module = "rsbag")]
pub struct Writer {
    path: PathBuf,
    state: Mutex<WriterState>,
}

#[pymethods]
impl Writer {
    /// Start writing `path` (`.bag`: librealsense 2.55's format; `.db3`:
    /// librealsense 2.59's; any other name is an error); `info` is the
    /// device's camera info; an existing file is an error unless
    /// `overwrite`.
    #[new]
    #[pyo3(signature = (path, info=None, overwrite=false))]
    fn new(
        path: PathBuf,
        info: Option<BTreeMap<String, String>>,
        overwrite: bool,
    ) -> PyResult<Writer> {
        let format = FileFormat::of_recording_path(&path).map_err(to_py)?;
        let sink = create_sink(
            path.clone(),
            format,
            Default::default(),
            Db3Options::default(),
            overwrite,
        )
        .map_err(to_py)?;
        let info = info.unwrap_or_else(|| BTreeMap::from([("Name".into(), "rsbag Writer".into())]));
        Ok(Writer {
            path,
            state: Mutex::new(WriterState {
                sink: Some(sink),
                snapshot: DeviceSnapshot {
                    info: CameraInfo::new(info),
                    sensors: Vec::new(),
                },
                streams: BTreeMap::new(),
                started: false,
                first_timestamp: None,
                last_capture_ns: 0,
            }),
        })
    }

    /// Add a video stream (`stream`: `"Depth"`, `"Color"`, `"Infrared"`...;
    /// `format`: `"Z16"`, `"RGB8"`, `"Y8"`...) on sensor `sensor` (made
    /// when new); `intrinsics` as `{"fx", "fy", "ppx", "ppy", "model",
    /// "coeffs"}`; `depth_units` (metres per unit) for depth. Returns the
    /// stream's name for `write` (`"Infrared 1"`).
    #[pyo3(signature = (stream, format, width, height, fps, sensor="Camera", index=0, intrinsics=None, depth_units=None, extrinsics=None))]
    #[allow(clippy::too_many_arguments)]
    fn add_video_stream(
        &self,
        py: Python<'_>,
        stream: &str,
        format: &str,
        width: u32,
        height: u32,
        fps: u32,
        sensor: &str,
        index: u32,
        intrinsics: Option<Bound<'_, PyDict>>,
        depth_units: Option<f32>,
        extrinsics: Option<Bound<'_, PyDict>>,
    ) -> PyResult<String> {
        let id = StreamId::new(stream.parse().map_err(to_py)?, index);
        let format: Format = format.parse().map_err(to_py)?;
        if format.bytes_per_pixel().is_none() {
            return Err(invalid(format!("{format} is not a format of raw pixels")));
        }
        let mut profile = StreamProfile::video(id, format, width, height, fps);
        if let Some(i) = intrinsics {
            profile = profile.with_intrinsics(intrinsics_of(&i, width, height)?);
        }
        self.add(py, sensor, profile, depth_units, extrinsics_of(extrinsics)?)
    }

    /// Add an IMU stream (`"Gyro"` or `"Accel"`, MOTION_XYZ32F samples)
    /// on sensor `sensor`, with its IMU intrinsics (`data`: 3x4 scale and
    /// bias, `noise_variances`, `bias_variances`; identity and zeros when
    /// not given: librealsense 2.59 crashes on a motion stream without
    /// them). Returns the stream's name for `write`.
    #[pyo3(signature = (stream, fps, sensor="Motion Module", index=0, data=None, noise_variances=None, bias_variances=None, extrinsics=None))]
    #[allow(clippy::too_many_arguments)]
    fn add_motion_stream(
        &self,
        py: Python<'_>,
        stream: &str,
        fps: u32,
        sensor: &str,
        index: u32,
        data: Option<[[f32; 4]; 3]>,
        noise_variances: Option<[f32; 3]>,
        bias_variances: Option<[f32; 3]>,
        extrinsics: Option<Bound<'_, PyDict>>,
    ) -> PyResult<String> {
        let kind: StreamKind = stream.parse().map_err(to_py)?;
        if !matches!(kind, StreamKind::Gyro | StreamKind::Accel) {
            return Err(invalid(format!(
                "{kind} is not an IMU stream (Gyro or Accel)"
            )));
        }
        let intrinsics = MotionIntrinsics {
            data: data.unwrap_or([
                [1.0, 0.0, 0.0, 0.0],
                [0.0, 1.0, 0.0, 0.0],
                [0.0, 0.0, 1.0, 0.0],
            ]),
            noise_variances: noise_variances.unwrap_or_default(),
            bias_variances: bias_variances.unwrap_or_default(),
        };
        let profile = StreamProfile::motion(StreamId::new(kind, index), Format::MotionXyz32f, fps)
            .with_motion_intrinsics(intrinsics);
        self.add(py, sensor, profile, None, extrinsics_of(extrinsics)?)
    }

    /// Add (or set) option `name` (librealsense's name: `"Exposure"`) of
    /// sensor `sensor` (made when new), as it is when recording starts.
    #[pyo3(signature = (sensor, name, value, min=None, max=None, step=0.0, default=None, description="", read_only=false))]
    #[allow(clippy::too_many_arguments)]
    fn add_option(
        &self,
        py: Python<'_>,
        sensor: &str,
        name: &str,
        value: f32,
        min: Option<f32>,
        max: Option<f32>,
        step: f32,
        default: Option<f32>,
        description: &str,
        read_only: bool,
    ) -> PyResult<()> {
        let mut state = locked(py, &self.state);
        if state.started {
            return Err(invalid(
                "options are added before the first frame is written".into(),
            ));
        }
        let position = sensor_position(&mut state.snapshot, sensor);
        let options = &mut state.snapshot.sensors[position].options;
        options.retain(|o| o.name != name);
        options.push(SensorOption {
            name: name.to_owned(),
            value,
            range: OptionRange {
                min: min.unwrap_or(value),
                max: max.unwrap_or(value),
                step,
                default: default.unwrap_or(value),
            },
            description: description.to_owned(),
            read_only,
        });
        Ok(())
    }

    /// Write a frame of `stream`: `data` a numpy array of the format's
    /// element type and shape (as `Frame.as_array` gives it: Z16 uint16
    /// (h, w), RGB8 uint8 (h, w, 3), an IMU sample float32 (3,), which may
    /// also be 3 floats), or bytes holding exactly the frame's pixels
    /// (rows without padding); `timestamp` in ms in `domain`; `metadata` as
    /// `{"Frame Counter": 7, ...}` under librealsense's names; `time`: the
    /// capture time in seconds since the recording started (by default
    /// the time since the first frame's timestamp).
    #[pyo3(signature = (stream, data, timestamp, frame_number, domain="Hardware Clock", metadata=None, time=None, system_time=None))]
    #[allow(clippy::too_many_arguments)]
    fn write(
        &self,
        py: Python<'_>,
        stream: &str,
        data: Bound<'_, PyAny>,
        timestamp: f64,
        frame_number: u64,
        domain: &str,
        metadata: Option<BTreeMap<String, i64>>,
        time: Option<f64>,
        system_time: Option<f64>,
    ) -> PyResult<()> {
        let domain: TimestampDomain = domain.parse().map_err(to_py)?;
        // Streams are never changed once added: look the stream up, check
        // the data against its format without the lock, then write.
        let (sensor, profile) = {
            let state = locked(py, &self.state);
            let Some(target) = state.streams.get(stream) else {
                return Err(invalid(format!(
                    "no stream {stream:?} was added (streams: {})",
                    state.streams.keys().cloned().collect::<Vec<_>>().join(", ")
                )));
            };
            (target.sensor, target.profile)
        };
        let bytes = frame_bytes(stream, &profile, &data)?;
        let mut state = locked(py, &self.state);
        let state = &mut *state;
        if !timestamp.is_finite() {
            return Err(invalid(format!("timestamp {timestamp} is not a number")));
        }
        let first = *state.first_timestamp.get_or_insert(timestamp);
        let seconds = time.unwrap_or((timestamp - first) / 1000.0);
        if !seconds.is_finite() || seconds < 0.0 {
            return Err(invalid(format!(
                "capture time {seconds} s: frames go at or after the recording's start"
            )));
        }
        let depth_units = state
            .snapshot
            .sensors
            .get(sensor)
            .map_or(0.0, |s| depth_units_of(&s.options));
        let frame = Frame {
            profile,
            number: frame_number,
            timestamp,
            domain,
            system_time: system_time.unwrap_or(timestamp),
            metadata: (metadata.unwrap_or_default().into_iter())
                .map(|(k, v)| (k.into(), v))
                .collect(),
            stride: match profile.kind {
                ProfileKind::Video { width, .. } => {
                    width * profile.format.bytes_per_pixel().unwrap_or(1)
                }
                _ => 0,
            },
            data: bytes.into(),
        };
        let capture_ns = (seconds * 1e9).round() as u64;
        let result = state.with_sink(py, &self.path, |sink| {
            sink.write_frame(sensor as u32, &frame, depth_units, capture_ns)
        });
        state.last_capture_ns = state.last_capture_ns.max(capture_ns);
        result
    }

    /// Record that option `name` of sensor `sensor` changed to `value`,
    /// `time` seconds after the recording started (by default at the last
    /// frame written), as librealsense records an option set while
    /// recording. Before the first frame it sets the value recorded at the
    /// start. The option must have been added (`add_option`).
    #[pyo3(signature = (sensor, name, value, time=None))]
    fn set_option(
        &self,
        py: Python<'_>,
        sensor: &str,
        name: &str,
        value: f32,
        time: Option<f64>,
    ) -> PyResult<()> {
        let mut state = locked(py, &self.state);
        let state = &mut *state;
        let position = state
            .snapshot
            .sensors
            .iter()
            .position(|s| s.info.get("Name") == Some(sensor))
            .ok_or_else(|| invalid(format!("no sensor {sensor:?} was added")))?;
        let options = &mut state.snapshot.sensors[position].options;
        let option = options.iter_mut().find(|o| o.name == name).ok_or_else(|| {
            invalid(format!(
                "sensor {sensor:?} has no option {name:?}; add it with add_option first"
            ))
        })?;
        option.value = value;
        let option = option.clone();
        if !state.started {
            return Ok(());
        }
        let capture_ns = match time {
            None => state.last_capture_ns,
            Some(t) if t.is_finite() && t >= 0.0 => (t * 1e9).round() as u64,
            Some(t) => {
                return Err(invalid(format!(
                    "time {t} s: option changes go at or after the recording's start"
                )))
            }
        };
        state.with_sink(py, &self.path, |sink| {
            sink.write_option(position as u32, &option, capture_ns)
        })
    }

    /// Finish the file and give it its name; returns its size in bytes.
    fn close(&self, py: Python<'_>) -> PyResult<u64> {
        let sink = locked(py, &self.state).sink.take();
        match sink {
            Some(sink) => py.detach(|| sink.finish()).map_err(to_py),
            None => Ok(0),
        }
    }

    /// Stop writing and delete the unfinished file.
    fn abandon(&self, py: Python<'_>) {
        if let Some(sink) = locked(py, &self.state).sink.take() {
            sink.abandon();
        }
    }

    fn __enter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// Closes the file; after an exception, deletes it.
    fn __exit__(
        &self,
        py: Python<'_>,
        error: Option<Bound<'_, PyAny>>,
        _value: Option<Bound<'_, PyAny>>,
        _traceback: Option<Bound<'_, PyAny>>,
    ) -> PyResult<bool> {
        if error.is_some() {
            self.abandon(py);
        } else {
            self.close(py)?;
        }
        Ok(false)
    }
}

impl Writer {
    fn add(
        &self,
        py: Python<'_>,
        sensor: &str,
        profile: StreamProfile,
        depth_units: Option<f32>,
        extrinsics: Extrinsics,
    ) -> PyResult<String> {
        let mut state = locked(py, &self.state);
        if state.started {
            return Err(invalid(
                "streams are added before the first frame is written".into(),
            ));
        }
        let name = profile.stream.name();
        if state.streams.contains_key(&name) {
            return Err(invalid(format!("stream {name:?} was added already")));
        }
        let position = sensor_position(&mut state.snapshot, sensor);
        let unique_id = u32::try_from(state.streams.len()).unwrap_or(u32::MAX);
        let profile = profile.with_unique_id(unique_id).as_default();
        let sensor_snapshot = &mut state.snapshot.sensors[position];
        sensor_snapshot.profiles.push(profile);
        if let Some(units) = depth_units {
            sensor_snapshot
                .options
                .retain(|o| o.name != option_name::DEPTH_UNITS);
            sensor_snapshot.options.push(SensorOption {
                name: option_name::DEPTH_UNITS.into(),
                value: units,
                range: OptionRange::fixed(units),
                description: "Number of meters represented by a single depth unit".into(),
                read_only: true,
            });
        }
        state.streams.insert(
            name.clone(),
            WriterStream {
                sensor: position,
                profile,
                extrinsics,
            },
        );
        Ok(name)
    }
}

impl Drop for Writer {
    /// A writer dropped without `close` leaves no file under its name.
    fn drop(&mut self) {
        if let Some(sink) = self.state.get_mut().sink.take() {
            sink.abandon();
        }
    }
}

/// The position of sensor `name`, added when new. librealsense 2.59
/// crashes reading a .db3 sensor without options: a new sensor has Frames
/// Queue Size, which every librealsense sensor has.
impl WriterState {
    /// Run `write` on the open sink without the GIL, the description
    /// written first when nothing was yet.
    fn with_sink(
        &mut self,
        py: Python<'_>,
        path: &std::path::Path,
        write: impl FnOnce(&mut dyn RecordingSink) -> rsbag::Result<()> + Send,
    ) -> PyResult<()> {
        let started = self.started;
        let snapshot = &self.snapshot;
        let streams = &self.streams;
        let Some(sink) = self.sink.as_mut() else {
            return Err(invalid(format!("{} is closed", path.display())));
        };
        let result = py.detach(|| -> rsbag::Result<()> {
            if !started {
                write_description(sink.as_mut(), snapshot)?;
                for s in streams.values() {
                    sink.write_stream_info(s.sensor as u32, &s.profile, 0)?;
                }
                // Every stream relates to the first (librealsense 2.59
                // crashes on streams without extrinsics).
                for s in streams.values() {
                    let topic = StreamTopic::new(0, s.sensor as u32, s.profile.stream);
                    sink.write_extrinsics(topic, 0, &s.extrinsics)?;
                }
            }
            write(sink.as_mut())
        });
        self.started = true;
        result.map_err(to_py)
    }
}

fn sensor_position(snapshot: &mut DeviceSnapshot, name: &str) -> usize {
    if let Some(p) = snapshot
        .sensors
        .iter()
        .position(|s| s.info.get("Name") == Some(name))
    {
        return p;
    }
    snapshot.sensors.push(SensorSnapshot {
        info: CameraInfo::new([("Name", name)]),
        options: vec![SensorOption::frames_queue_size()],
        profiles: Vec::new(),
    });
    snapshot.sensors.len() - 1
}

/// The numpy array a frame of `profile` is: element type and shape (as
/// `Frame.as_array` gives it back); None for a format read as bytes.
fn array_of(profile: &StreamProfile) -> Option<(Element, Vec<usize>)> {
    let ProfileKind::Video { width, height, .. } = profile.kind else {
        return (profile.format == Format::MotionXyz32f).then(|| (Element::F32, vec![3]));
    };
    let (element, channels) = match profile.format {
        Format::Z16 | Format::Y16 | Format::Raw16 | Format::Disparity16 => (Element::U16, 1),
        Format::Y8 | Format::Raw8 => (Element::U8, 1),
        Format::Rgb8 | Format::Bgr8 => (Element::U8, 3),
        Format::Rgba8 | Format::Bgra8 => (Element::U8, 4),
        Format::Yuyv | Format::Uyvy => (Element::U8, 2),
        Format::Distance | Format::Disparity32 => (Element::F32, 1),
        _ => return None,
    };
    let mut shape = vec![height as usize, width as usize];
    if channels > 1 {
        shape.push(channels);
    }
    Some((element, shape))
}

/// An array element type.
#[derive(Debug, Clone, Copy)]
enum Element {
    U8,
    U16,
    F32,
}

impl Element {
    fn dtype<'py>(self, py: Python<'py>) -> Bound<'py, PyArrayDescr> {
        match self {
            Element::U8 => numpy::dtype::<u8>(py),
            Element::U16 => numpy::dtype::<u16>(py),
            Element::F32 => numpy::dtype::<f32>(py),
        }
    }

    fn name(self) -> &'static str {
        match self {
            Element::U8 => "uint8",
            Element::U16 => "uint16",
            Element::F32 => "float32",
        }
    }
}

/// A shape as Python writes it: `(480, 640)`, `(3,)`.
fn shape_text(shape: &[usize]) -> String {
    match shape {
        [one] => format!("({one},)"),
        _ => format!(
            "({})",
            shape
                .iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// The bytes of a frame of `stream` (`profile`) given as `data`: a numpy
/// array of the format's element type and shape (`Frame.as_array`'s),
/// bytes of the frame's size, or for an IMU sample 3 floats.
fn frame_bytes(
    stream: &str,
    profile: &StreamProfile,
    data: &Bound<'_, PyAny>,
) -> PyResult<Vec<u8>> {
    let py = data.py();
    let array = array_of(profile);
    let (size, what) = match profile.kind {
        ProfileKind::Video { width, height, .. } => (
            (width * height * profile.format.bytes_per_pixel().unwrap_or(1)) as usize,
            format!("a {stream} frame ({}, {width}x{height})", profile.format),
        ),
        _ => (12, format!("a {stream} sample ({})", profile.format)),
    };
    if let (Ok(given), Some((element, shape))) = (data.cast::<PyUntypedArray>(), &array) {
        let dtype = given.dtype();
        if !dtype.is_equiv_to(&element.dtype(py)) || given.shape() != shape.as_slice() {
            return Err(invalid(format!(
                "{what} is a {} array of shape {} ({size} bytes); this one is {} of shape {}",
                element.name(),
                shape_text(shape),
                dtype.str()?,
                shape_text(given.shape())
            )));
        }
        return bytes_of(data);
    }
    let motion = !matches!(profile.kind, ProfileKind::Video { .. });
    let is_buffer = data.cast::<PyBytes>().is_ok() || data.hasattr("tobytes")?;
    if motion && !is_buffer {
        // A sequence of numbers: x, y, z.
        let sample: Vec<f32> =
            data.extract().map_err(|_| {
                invalid(format!(
                "{what} is 3 floats (a float32 array of shape (3,), or x, y, z); this one is a {}",
                data.get_type().name().map(|n| n.to_string()).unwrap_or_default()
            ))
            })?;
        if sample.len() != 3 {
            return Err(invalid(format!(
                "{what} is 3 floats (x, y, z); this one has {}",
                sample.len()
            )));
        }
        return Ok(sample.iter().flat_map(|v| v.to_le_bytes()).collect());
    }
    let bytes = bytes_of(data)?;
    if bytes.len() != size {
        let expected = match &array {
            Some((element, shape)) => {
                format!(
                    " (a {} array of shape {})",
                    element.name(),
                    shape_text(shape)
                )
            }
            None => String::new(),
        };
        return Err(invalid(format!(
            "{what} is {size} bytes{expected}; this one is {}",
            bytes.len()
        )));
    }
    Ok(bytes)
}

/// The bytes of a numpy array (C order) or a bytes-like object.
fn bytes_of(data: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    if let Ok(bytes) = data.cast::<PyBytes>() {
        return Ok(bytes.as_bytes().to_vec());
    }
    let bytes = data
        .call_method0("tobytes")
        .map_err(|_| invalid("frame data must be a numpy array or bytes".into()))?;
    Ok(bytes.cast::<PyBytes>()?.as_bytes().to_vec())
}

/// Extrinsics from the first stream added, `{"rotation": [9 floats,
/// column-major], "translation": [3 floats, metres]}`; identity when None.
fn extrinsics_of(d: Option<Bound<'_, PyDict>>) -> PyResult<Extrinsics> {
    let Some(d) = d else {
        return Ok(Extrinsics::IDENTITY);
    };
    let rotation: [f32; 9] = match d.get_item("rotation")? {
        Some(r) => r.extract()?,
        None => Extrinsics::IDENTITY.rotation,
    };
    let translation: [f32; 3] = match d.get_item("translation")? {
        Some(t) => t.extract()?,
        None => [0.0; 3],
    };
    Ok(Extrinsics {
        rotation,
        translation,
    })
}

fn intrinsics_of(d: &Bound<'_, PyDict>, width: u32, height: u32) -> PyResult<Intrinsics> {
    let get = |key: &str| -> PyResult<f32> {
        d.get_item(key)?
            .ok_or_else(|| invalid(format!("intrinsics need {key:?}")))?
            .extract()
    };
    let model = match d.get_item("model")? {
        Some(m) => m.extract::<String>()?.parse().map_err(to_py)?,
        None => rsbag::device::Distortion::None,
    };
    let coeffs: Vec<f32> = match d.get_item("coeffs")? {
        Some(c) => c.extract()?,
        None => vec![0.0; 5],
    };
    let mut five = [0.0f32; 5];
    for (slot, c) in five.iter_mut().zip(coeffs) {
        *slot = c;
    }
    Ok(Intrinsics {
        width,
        height,
        ppx: get("ppx")?,
        ppy: get("ppy")?,
        fx: get("fx")?,
        fy: get("fy")?,
        model,
        coeffs: five,
    })
}
