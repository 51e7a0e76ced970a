//! What the viewer's page knows of several recordings viewed as one
//! session (`rsbag view A.bag B.db3 ...`): a lane per camera and stream,
//! every frame placed on the session's clock, the findings of `rsbag
//! check` of each file, and the session's clock, cameras and sync report.
//!
//! The document has the shape of one recording's (see [`super::model`]),
//! so the page draws it the same way: its streams are the lanes, named
//! `CAMERA/STREAM` (`CAM-A/Depth 0`), their frames in time order on the
//! session's clock, times in seconds since the session's first frame.
//! Each camera's option changes and notifications carry its name and are
//! placed on the session's clock by the camera's frames. `session` adds
//! what only a session has.

use std::collections::HashMap;
use std::time::Duration;

use rsbag::device::StreamId;
use rsbag::recording::Session;
use rsbag::{Error, Result};
use serde_json::{json, Map, Value};

use super::model;
use super::server::Lane;

/// The page's document for `session`, and its lanes; its sync report's
/// partners are within `tolerance` (`None`: the report's default).
/// `progress` is told of every frame read.
pub fn describe(
    session: &Session,
    tolerance: Option<Duration>,
    progress: &(dyn Fn() + Sync),
) -> Result<(Value, Vec<Lane>)> {
    let origin_ms = session.start_ms().unwrap_or(0.0);
    let (mut streams, mut lanes, mut cameras) = (Vec::new(), Vec::new(), Vec::new());
    let mut check_streams = Map::new();
    let (mut damage, mut read_errors) = (Vec::new(), Vec::new());
    let (mut options, mut notifications) = (Vec::new(), Vec::new());
    let mut scanned = true;
    for (camera, file) in session.files().iter().enumerate() {
        let time_of = |frame: &_| session.time_ms(camera, frame);
        let document = model::describe_timed(file.path(), file.reader(), progress, Some(&time_of))
            .map_err(|e| e.in_file(file.path()))?;
        let name = file.name();
        let mut clock = ClockShift::default();
        for stream in document["streams"].as_array().into_iter().flatten() {
            let key = stream["key"].as_str().unwrap_or_default();
            let findings = &document["check"]["streams"][key];
            let (stream_json, check, order) = lane_of(name, stream, findings, origin_ms);
            let lane_key = lane_key(name, key);
            let id = stream_id(file.reader(), key)?;
            lanes.push(Lane {
                key: lane_key.clone(),
                camera,
                stream: id,
                units: model::depth_units_of(file.reader().recording(), id),
                order: Some(order),
            });
            clock.add_frames(&stream_json["frames"]);
            streams.push(stream_json);
            check_streams.insert(lane_key, check);
        }
        clock.sort();
        options.extend(clock.place(name, &document["options"]));
        notifications.extend(clock.place(name, &document["notifications"]));
        let said = |list: &Value| -> Vec<Value> {
            (list.as_array().into_iter().flatten())
                .map(|d| json!(format!("{name}: {}", d.as_str().unwrap_or_default())))
                .collect()
        };
        damage.extend(said(&document["check"]["damage"]));
        read_errors.extend(said(&document["read_errors"]));
        scanned &= document["check"]["scanned"].as_bool().unwrap_or(false);
        cameras.push(json!({
            "name": name,
            "serial": file.serial(),
            "file": file.path().display().to_string(),
            "summary": document["summary"],
        }));
    }
    // The last frame's time as the lanes count it (the session's duration,
    // rounded to nanoseconds, can fall just short of it).
    let last_s = (streams.iter())
        .filter_map(|s| s["frames"]["t"].as_array()?.last()?.as_f64())
        .fold(session.duration().as_secs_f64(), f64::max);
    let sync = session.sync_report(tolerance)?;
    let cannot =
        |e: serde_json::Error| Error::InvalidArgument(format!("cannot describe the session: {e}"));
    let document = json!({
        "file": format!("session of {} recordings", session.files().len()),
        "session": {
            "summary": serde_json::to_value(session.summary()).map_err(cannot)?,
            "sync": serde_json::to_value(&sync).map_err(cannot)?,
            "cameras": cameras,
        },
        "summary": Value::Null,
        "duration_s": last_s,
        "streams": streams,
        "options": options,
        "notifications": notifications,
        "check": { "damage": damage, "scanned": scanned, "streams": check_streams },
        "extrinsics": [],
        "chunks": Value::Null,
        "connections": Value::Null,
        "read_errors": read_errors,
    });
    Ok((document, lanes))
}

/// Where a camera's moments lie on the session's clock: each of its
/// frames' time in its recording against its time in the session (both
/// seconds), in recording order.
#[derive(Default)]
struct ClockShift {
    frames: Vec<(f64, f64)>,
}

impl ClockShift {
    /// The frames of one of the camera's lanes (see [`lane_of`]).
    fn add_frames(&mut self, frames: &Value) {
        let column =
            |name: &str| (frames[name].as_array().into_iter().flatten()).map(Value::as_f64);
        let pairs = (column("recording_t").zip(column("t"))).filter_map(|(r, t)| Some((r?, t?)));
        self.frames.extend(pairs);
    }

    fn sort(&mut self) {
        self.frames.sort_by(|a, b| a.0.total_cmp(&b.0));
    }

    /// `recording_t`, seconds in the recording, on the session's clock:
    /// moved as the camera's frame nearest it in the recording was (the
    /// clocks can run apart over a session; near a moment they agree).
    /// `None` for a camera without frames.
    fn at(&self, recording_t: f64) -> Option<f64> {
        let after = self.frames.partition_point(|f| f.0 < recording_t);
        let apart = |frame: &&(f64, f64)| (frame.0 - recording_t).abs();
        let nearest = ([after.checked_sub(1), Some(after)].into_iter().flatten())
            .filter_map(|i| self.frames.get(i))
            .min_by(|a, b| apart(a).total_cmp(&apart(b)))?;
        Some(recording_t + nearest.1 - nearest.0)
    }

    /// The camera `camera`'s option changes or notifications (as [`model`]
    /// lists them, `t` in the recording) on the session's clock: `t` in
    /// the session, `recording_t` as it was, and the camera's name.
    fn place(&self, camera: &str, events: &Value) -> Vec<Value> {
        let placed = |event: &Value| {
            let recording_t = event["t"].as_f64()?;
            let mut event = event.clone();
            event["t"] = json!(self.at(recording_t)?);
            event["recording_t"] = json!(recording_t);
            event["camera"] = json!(camera);
            Some(event)
        };
        (events.as_array().into_iter().flatten())
            .filter_map(placed)
            .collect()
    }
}

/// A lane's name on the page: the camera's, then the stream's.
pub fn lane_key(camera: &str, stream: &str) -> String {
    format!("{camera}/{stream}")
}

/// The stream the recording names `key` on the page.
fn stream_id(reader: &rsbag::recording::FrameReader, key: &str) -> Result<StreamId> {
    (reader.streams().into_iter())
        .find(|&s| model::stream_key(s) == key)
        .ok_or_else(|| Error::InvalidArgument(format!("the recording has no stream {key}")))
}

/// A recording's stream (as [`model`] describes it, with each frame's
/// `session_ms`) as a lane of the session: its frames in time order on
/// the session's clock (seconds since `origin_ms`), each with its position
/// in the stream (`index`) and its time in the recording
/// (`recording_t`); its `check` findings placed on that clock; and the
/// stream positions in lane order.
fn lane_of(
    camera: &str,
    stream: &Value,
    check: &Value,
    origin_ms: f64,
) -> (Value, Value, Vec<u64>) {
    let frames = &stream["frames"];
    let column =
        |name: &str| -> Vec<Value> { frames[name].as_array().cloned().unwrap_or_default() };
    let (t, number, timestamp) = (column("t"), column("number"), column("timestamp"));
    let session_s: Vec<f64> = (column("session_ms").iter())
        .map(|ms| (ms.as_f64().unwrap_or(f64::NAN) - origin_ms) / 1000.0)
        .collect();
    let mut order: Vec<usize> = (0..session_s.len()).collect();
    // Stable: frames at one moment keep their recorded order.
    order.sort_by(|&a, &b| session_s[a].total_cmp(&session_s[b]));
    let reorder = |values: &[Value]| -> Vec<Value> {
        order
            .iter()
            .map(|&i| values.get(i).cloned().unwrap_or(Value::Null))
            .collect()
    };
    let mut lane = stream.clone();
    let key = stream["key"].as_str().unwrap_or_default();
    lane["key"] = json!(lane_key(camera, key));
    lane["camera"] = json!(camera);
    lane["stream"] = json!(key);
    lane["frames"] = json!({
        "t": order.iter().map(|&i| session_s[i]).collect::<Vec<f64>>(),
        "number": reorder(&number),
        "timestamp": reorder(&timestamp),
        "index": order,
        "recording_t": reorder(&t),
    });
    if let Some(samples) = stream["samples"].as_object() {
        let columns: Map<String, Value> = (samples.iter())
            .map(|(name, values)| {
                let values = values.as_array().map_or_else(Vec::new, |v| reorder(v));
                (name.clone(), Value::Array(values))
            })
            .collect();
        lane["samples"] = Value::Object(columns);
    }
    let mut check = check.clone();
    if let Some(findings) = check["findings"].as_array_mut() {
        let mut by_number: HashMap<u64, Vec<usize>> = HashMap::new();
        for (i, n) in number.iter().enumerate() {
            by_number
                .entry(n.as_u64().unwrap_or(0))
                .or_default()
                .push(i);
        }
        for finding in findings.iter_mut() {
            let at = frame_of(&t, &by_number, finding);
            finding["recording_t"] = finding["t"].clone();
            finding["t"] = json!(at.and_then(|i| session_s.get(i)));
        }
        // A finding about no frame of the stream has no place on the clock.
        findings.retain(|f| !f["t"].is_null());
    }
    (lane, check, order.into_iter().map(|i| i as u64).collect())
}

/// The position in the stream of the frame a finding is about: of the
/// frames with its number, the one nearest its time (`t`: each frame's
/// time in its recording, as the finding's).
fn frame_of(t: &[Value], by_number: &HashMap<u64, Vec<usize>>, finding: &Value) -> Option<usize> {
    let at = finding["t"].as_f64()?;
    let apart = |i: &usize| (t[*i].as_f64().unwrap_or(f64::INFINITY) - at).abs();
    let same_number = by_number.get(&finding["number"].as_u64()?)?;
    same_number
        .iter()
        .copied()
        .min_by(|a, b| apart(a).total_cmp(&apart(b)))
}
