//! The device description as plain Python values (dicts, lists, numbers),
//! with librealsense's names.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use rsbag::device::{
    CameraInfo, DeviceSnapshot, Extrinsics, ProfileKind, SensorOption, StreamProfile,
};
use rsbag::recording::check::{CheckReport, FindingKind};
use rsbag::recording::{Event, TimedEvent};
use rsbag::time::BagTime;

pub fn camera_info<'py>(py: Python<'py>, info: &CameraInfo) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    for (key, value) in info.iter() {
        dict.set_item(key, value)?;
    }
    Ok(dict)
}

pub fn sensors<'py>(py: Python<'py>, snapshot: &DeviceSnapshot) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    for sensor in &snapshot.sensors {
        let dict = PyDict::new(py);
        dict.set_item("name", sensor.info.get("Name").unwrap_or_default())?;
        dict.set_item("info", camera_info(py, &sensor.info)?)?;
        dict.set_item("options", options(py, &sensor.options)?)?;
        let profiles = PyList::empty(py);
        for p in &sensor.profiles {
            profiles.append(profile(py, p)?)?;
        }
        dict.set_item("profiles", profiles)?;
        list.append(dict)?;
    }
    Ok(list)
}

/// Options as `{"name", "value", "min", "max", "step", "default",
/// "description", "read_only"}`.
pub fn options<'py>(py: Python<'py>, options: &[SensorOption]) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    for o in options {
        let option = PyDict::new(py);
        option.set_item("name", &o.name)?;
        option.set_item("value", o.value)?;
        option.set_item("min", o.range.min)?;
        option.set_item("max", o.range.max)?;
        option.set_item("step", o.range.step)?;
        option.set_item("default", o.range.default)?;
        option.set_item("description", &o.description)?;
        option.set_item("read_only", o.read_only)?;
        list.append(option)?;
    }
    Ok(list)
}

pub fn profile<'py>(py: Python<'py>, p: &StreamProfile) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("stream", p.stream.kind.name())?;
    dict.set_item("index", p.stream.index)?;
    dict.set_item("format", p.format.name())?;
    dict.set_item("fps", p.fps)?;
    dict.set_item("unique_id", p.unique_id)?;
    dict.set_item("is_default", p.is_default)?;
    match p.kind {
        ProfileKind::Video {
            width,
            height,
            intrinsics,
        } => {
            dict.set_item("width", width)?;
            dict.set_item("height", height)?;
            match intrinsics {
                Some(i) => {
                    let d = PyDict::new(py);
                    d.set_item("width", i.width)?;
                    d.set_item("height", i.height)?;
                    d.set_item("ppx", i.ppx)?;
                    d.set_item("ppy", i.ppy)?;
                    d.set_item("fx", i.fx)?;
                    d.set_item("fy", i.fy)?;
                    d.set_item("model", i.model.name())?;
                    d.set_item("coeffs", i.coeffs.to_vec())?;
                    dict.set_item("intrinsics", d)?;
                }
                None => dict.set_item("intrinsics", py.None())?,
            }
        }
        ProfileKind::Motion { intrinsics } => match intrinsics {
            Some(m) => {
                let d = PyDict::new(py);
                d.set_item(
                    "data",
                    m.data.iter().map(|r| r.to_vec()).collect::<Vec<_>>(),
                )?;
                d.set_item("noise_variances", m.noise_variances.to_vec())?;
                d.set_item("bias_variances", m.bias_variances.to_vec())?;
                dict.set_item("motion_intrinsics", d)?;
            }
            None => dict.set_item("motion_intrinsics", py.None())?,
        },
        ProfileKind::Pose => {}
    }
    Ok(dict)
}

pub fn extrinsics<'py>(py: Python<'py>, e: &Extrinsics) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("rotation", e.rotation.to_vec())?;
    dict.set_item("translation", e.translation.to_vec())?;
    Ok(dict)
}

pub fn check_report<'py>(py: Python<'py>, report: &CheckReport) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("damage", report.damage.clone())?;
    dict.set_item("scanned", report.scanned)?;
    let streams = PyDict::new(py);
    for (id, s) in &report.streams {
        let d = PyDict::new(py);
        d.set_item("frames", s.frames)?;
        d.set_item("first_number", s.numbers.map(|n| n.0))?;
        d.set_item("last_number", s.numbers.map(|n| n.1))?;
        d.set_item("dropped", s.dropped)?;
        d.set_item("out_of_order", s.out_of_order)?;
        d.set_item("duplicates", s.duplicates)?;
        let findings = PyList::empty(py);
        for f in &s.findings {
            let finding = PyDict::new(py);
            let (kind, missing) = match f.kind {
                FindingKind::Gap { missing } => ("gap", missing),
                FindingKind::OutOfOrder => ("out_of_order", 0),
                FindingKind::Duplicate => ("duplicate", 0),
            };
            finding.set_item("kind", kind)?;
            finding.set_item("missing", missing)?;
            finding.set_item("number", f.number)?;
            finding.set_item("timestamp", f.timestamp)?;
            finding.set_item("previous_number", f.previous_number)?;
            findings.append(finding)?;
        }
        d.set_item("findings", findings)?;
        streams.set_item(id.name(), d)?;
    }
    dict.set_item("streams", streams)?;
    Ok(dict)
}

/// Option changes and notifications (`Recording.controls`) as dicts, their
/// `time` in seconds since `first` and their sensor by name.
pub fn controls<'py>(
    py: Python<'py>,
    snapshot: &DeviceSnapshot,
    first: BagTime,
    events: &[TimedEvent],
) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    let sensor_name = |sensor: usize| {
        snapshot
            .sensors
            .get(sensor)
            .and_then(|s| s.info.get("Name"))
            .unwrap_or_default()
    };
    for event in events {
        let dict = PyDict::new(py);
        dict.set_item("time", event.time.since(first).as_secs_f64())?;
        match &event.event {
            Event::OptionChanged {
                sensor,
                name,
                value,
            } => {
                dict.set_item("sensor", sensor_name(*sensor))?;
                dict.set_item("kind", "option")?;
                dict.set_item("name", name)?;
                dict.set_item("value", value)?;
            }
            Event::Notification {
                sensor,
                notification: n,
            } => {
                dict.set_item("sensor", sensor_name(*sensor))?;
                dict.set_item("kind", "notification")?;
                dict.set_item("category", &n.category)?;
                dict.set_item("severity", &n.severity)?;
                dict.set_item("description", &n.description)?;
                dict.set_item("timestamp", n.timestamp)?;
                dict.set_item("serialized_data", &n.serialized_data)?;
            }
            Event::Frame { .. } => continue,
        }
        list.append(dict)?;
    }
    Ok(list)
}
