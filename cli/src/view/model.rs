//! What the viewer's page knows of a recording, as one JSON document: the
//! summary of `rsbag info`, the findings of `rsbag check`, every frame's
//! place on the timeline, IMU and pose samples for the plots, option
//! changes, notifications and the chunks of the file.
//!
//! Times on the page are seconds since the recording's first frame (as
//! `rsbag frames --start` and playback's seek count them).

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use rsbag::device::{Frame, StreamId, StreamKind};
use rsbag::processing::filters::SensorFacts;
use rsbag::processing::image_supported;
use rsbag::recording::check::{check_file, CheckReport, FindingKind};
use rsbag::recording::summary::Summary;
use rsbag::recording::{Event, FrameReader, Pieces, RecordedFrame, Recording};
use rsbag::storage::{ConnectionExt, Storage};
use rsbag::{BagTime, Error, Result};
use serde_json::{json, Value};

/// A stream's name on the page and in the API (`Depth 0`).
pub fn stream_key(stream: StreamId) -> String {
    stream.to_string()
}

/// The page's document for the recording `reader` reads from `path`.
/// `progress` is told of every frame read (each frame is read twice: for
/// the timeline and by the check).
pub fn describe(path: &Path, reader: &FrameReader, progress: &(dyn Fn() + Sync)) -> Result<Value> {
    describe_timed(path, reader, progress, None)
}

/// The page's document for the pieces of one split recording, read as
/// one: each piece described as one recording is, its times moved by
/// where the piece starts, and the pieces put one after another (the
/// device, sensors and summary of the first piece, which each repeats; a
/// stream's frame numbers jumping at a cut is a gap on its lane).
pub fn describe_pieces(pieces: &Pieces, progress: &(dyn Fn() + Sync)) -> Result<Value> {
    let mut whole = Value::Null;
    for piece in pieces.pieces() {
        let path = piece.path();
        let mut part = describe(path, piece.reader(), progress).map_err(|e| e.in_file(path))?;
        shift(&mut part, piece.offset(), path);
        whole = match whole {
            Value::Null => part,
            whole => join(whole, part),
        };
    }
    for gap in pieces.gaps() {
        mark_gap(&mut whole, gap);
    }
    let name = |p: &rsbag::recording::Piece| -> String {
        (p.path().file_name()).map_or_else(String::new, |n| n.to_string_lossy().into_owned())
    };
    let all = pieces.pieces();
    whole["file"] = json!(format!(
        "{} … {} ({} pieces of one recording)",
        name(&all[0]),
        name(&all[all.len() - 1]),
        all.len()
    ));
    whole["duration_s"] = json!(pieces.duration().as_secs_f64());
    Ok(whole)
}

/// A piece's document (see [`describe`]) on the pieces' timeline: every
/// time `by` later, and its damage named after its file.
fn shift(document: &mut Value, by: Duration, path: &Path) {
    let later = |v: &mut Value| {
        if let Some(t) = v.as_f64() {
            *v = json!(shifted(t, by));
        }
    };
    for stream in document["streams"].as_array_mut().into_iter().flatten() {
        for t in stream["frames"]["t"].as_array_mut().into_iter().flatten() {
            later(t);
        }
    }
    for list in ["options", "notifications"] {
        for event in document[list].as_array_mut().into_iter().flatten() {
            later(&mut event["t"]);
        }
    }
    for chunk in document["chunks"].as_array_mut().into_iter().flatten() {
        later(&mut chunk["start"]);
        later(&mut chunk["end"]);
    }
    let checked = document["check"]["streams"].as_object_mut();
    for stream in checked.into_iter().flat_map(|s| s.values_mut()) {
        for finding in stream["findings"].as_array_mut().into_iter().flatten() {
            later(&mut finding["t"]);
        }
    }
    let named = |list: &mut Value| {
        for what in list.as_array_mut().into_iter().flatten() {
            *what = json!(format!(
                "{}: {}",
                path.display(),
                what.as_str().unwrap_or_default()
            ));
        }
    };
    named(&mut document["check"]["damage"]);
    named(&mut document["read_errors"]);
}

/// Seconds `t` (as [`seconds`] gives them) made `by` later, summed in
/// nanoseconds: a float sum can land a frame past the pieces' duration,
/// so that the end of the timeline would not show the last frame.
fn shifted(t: f64, by: Duration) -> f64 {
    let nanos = (t * 1e9).round() as i128 + by.as_nanos() as i128;
    let whole = Duration::from_nanos(nanos.unsigned_abs() as u64).as_secs_f64();
    if nanos < 0 {
        -whole
    } else {
        whole
    }
}

/// `whole` with the next piece's document `part` after it.
fn join(mut whole: Value, mut part: Value) -> Value {
    let append = |to: &mut Value, from: &mut Value| {
        if let (Some(to), Some(from)) = (to.as_array_mut(), from.as_array_mut()) {
            to.append(from);
        }
    };
    let streams = whole["streams"].as_array_mut().into_iter().flatten();
    for (stream, next) in streams.zip(part["streams"].as_array_mut().into_iter().flatten()) {
        for column in ["t", "number", "timestamp"] {
            append(&mut stream["frames"][column], &mut next["frames"][column]);
        }
        if let Some(samples) = stream["samples"].as_object_mut() {
            for (name, column) in samples.iter_mut() {
                append(column, &mut next["samples"][name]);
            }
        }
    }
    for list in ["options", "notifications", "chunks", "read_errors"] {
        append(&mut whole[list], &mut part[list]);
    }
    append(&mut whole["check"]["damage"], &mut part["check"]["damage"]);
    let scanned = part["check"]["scanned"].as_bool().unwrap_or(false);
    whole["check"]["scanned"] =
        json!(whole["check"]["scanned"].as_bool().unwrap_or(false) && scanned);
    let checked = whole["check"]["streams"].as_object_mut();
    for (key, check) in checked.into_iter().flat_map(|s| s.iter_mut()) {
        let next = &mut part["check"]["streams"][key];
        for count in ["frames", "numbers", "dropped", "out_of_order", "duplicates"] {
            let sum = check[count].as_u64().unwrap_or(0) + next[count].as_u64().unwrap_or(0);
            check[count] = json!(sum);
        }
        append(&mut check["findings"], &mut next["findings"]);
    }
    whole
}

/// The frames `gap` says are missing at a cut, on its stream's lane as
/// the check's own gaps are: before the first frame after the cut.
fn mark_gap(document: &mut Value, gap: &rsbag::recording::PieceGap) {
    let [last, next] = gap.numbers;
    let lane = (document["streams"].as_array().into_iter().flatten())
        .find(|s| s["key"] == gap.stream.as_str());
    let Some(frames) = lane.map(|l| &l["frames"]) else {
        return;
    };
    let at =
        (frames["number"].as_array().into_iter().flatten()).position(|n| n.as_u64() == Some(next));
    let Some(at) = at else {
        return;
    };
    let (t, timestamp) = (frames["t"][at].clone(), frames["timestamp"][at].clone());
    let check = &mut document["check"]["streams"][gap.stream.as_str()];
    check["dropped"] = json!(check["dropped"].as_u64().unwrap_or(0) + (next - last - 1));
    if let Some(findings) = check["findings"].as_array_mut() {
        findings.push(json!({
            "kind": "gap", "missing": next - last - 1, "t": t, "number": next,
            "timestamp": timestamp, "previous_number": last,
            "previous_timestamp": Value::Null,
        }));
    }
}

/// A frame's time on a session's clock, ms (see [`describe_timed`]).
pub type SessionTime<'a> = &'a (dyn Fn(&RecordedFrame) -> f64 + Sync);

/// [`describe`], with each frame's time on a session's clock too (the
/// frames of each stream get a `session_ms` column) when `session_time`
/// is given.
pub fn describe_timed(
    path: &Path,
    reader: &FrameReader,
    progress: &(dyn Fn() + Sync),
    session_time: Option<SessionTime>,
) -> Result<Value> {
    let recording = reader.recording();
    // The check reads the file on its own; both passes run at once.
    let (timeline, check) = std::thread::scope(|scope| {
        let check = scope.spawn(|| check_file(path, |_, _| progress()));
        let timeline = timelines(reader, progress, session_time);
        let check = check
            .join()
            .unwrap_or_else(|_| Err(Error::InvalidArgument("the check failed".into())));
        (timeline, check)
    });
    let (streams, read_errors) = timeline?;
    let summary = serde_json::to_value(Summary::of_recording(path, recording)?)
        .map_err(|e| Error::InvalidArgument(format!("cannot describe the recording: {e}")))?;
    let check = match check {
        Ok(report) => check_json(&report, recording.start_time()),
        Err(e) => {
            json!({ "damage": [format!("the check could not run: {e}")], "scanned": false, "streams": {} })
        }
    };
    let (options, notifications) = controls(recording);
    Ok(json!({
        "file": path.file_name().map(|n| n.to_string_lossy().into_owned()),
        "summary": summary,
        "duration_s": reader.duration().as_secs_f64(),
        "streams": streams,
        "options": options,
        "notifications": notifications,
        "check": check,
        "extrinsics": extrinsics(recording),
        "chunks": chunks(recording),
        "connections": connections(recording),
        "read_errors": read_errors,
    }))
}

/// The depth units (metres) of a depth stream the page colourises.
pub fn depth_units_of(recording: &Recording, stream: StreamId) -> Option<f32> {
    (kind_of(recording, stream) == "depth").then(|| recording.depth_units(stream))
}

/// Whether the document lists damage: what the check found, or parts that
/// could not be read.
pub fn is_damaged(document: &Value) -> bool {
    let listed = |v: &Value| v.as_array().is_some_and(|a| !a.is_empty());
    listed(&document["check"]["damage"]) || listed(&document["read_errors"])
}

/// What a stream is on the page: how its frames are shown.
fn kind_of(recording: &Recording, stream: StreamId) -> &'static str {
    match recording.streams().get(&stream) {
        Some(recorded) => kind_of_stream(stream, recorded.profile.format),
        None => "other",
    }
}

/// What a stream of `format` is on the page (recorded or live): `motion`
/// (IMU), `pose`, `depth` (colourised), `image`, or `other` (not shown).
pub fn kind_of_stream(stream: StreamId, format: rsbag::device::Format) -> &'static str {
    match stream.kind {
        StreamKind::Gyro | StreamKind::Accel => "motion",
        StreamKind::Pose => "pose",
        StreamKind::Depth if format == rsbag::device::Format::Z16 => "depth",
        _ if image_supported(format) => "image",
        _ => "other",
    }
}

/// Seconds since the recording's first frame.
fn seconds(time: BagTime, start: BagTime) -> f64 {
    if time >= start {
        time.since(start).as_secs_f64()
    } else {
        -start.since(time).as_secs_f64()
    }
}

/// Per stream: its description, and every frame's time, number and
/// timestamp (with the samples of IMU and pose streams); the errors met
/// reading, as text.
fn timelines(
    reader: &FrameReader,
    progress: &(dyn Fn() + Sync),
    session_time: Option<SessionTime>,
) -> Result<(Vec<Value>, Vec<String>)> {
    let recording = reader.recording();
    let new_lane = |id| Lane::new(kind_of(recording, id), session_time.is_some());
    let mut lanes: BTreeMap<StreamId, Lane> = recording
        .streams()
        .keys()
        .map(|&id| (id, new_lane(id)))
        .collect();
    let mut errors = Vec::new();
    for frame in reader.frames()? {
        match frame {
            Ok(recorded) => {
                progress();
                if let Some(lane) = lanes.get_mut(&recorded.stream) {
                    let session_ms = session_time.map(|time_of| time_of(&recorded));
                    lane.push(recorded.time.as_secs_f64(), session_ms, &recorded.frame);
                }
            }
            Err(e) => errors.push(e.to_string()),
        }
    }
    let streams = recording
        .streams()
        .iter()
        .map(|(&id, recorded)| {
            let kind = kind_of(recording, id);
            let lane = lanes.remove(&id).unwrap_or_else(|| new_lane(id));
            let profile = &recorded.profile;
            json!({
                "key": stream_key(id),
                "name": id.kind.to_string(),
                "index": id.index,
                "sensor": recorded.sensor,
                "kind": kind,
                "format": profile.format.to_string(),
                "fps": profile.fps,
                "width": profile.resolution().map(|r| r.0),
                "height": profile.resolution().map(|r| r.1),
                "depth_units": depth_units_of(recording, id),
                // Whether depth filters can run in disparity (a stereo
                // depth sensor's baseline, millimetres).
                "stereo_baseline_mm": depth_units_of(recording, id)
                    .and_then(|_| SensorFacts::of_stream(recording, id).stereo_baseline_mm),
                "frames": lane.frames(),
                "samples": lane.samples(),
            })
        })
        .collect();
    Ok((streams, errors))
}

/// The sample columns of IMU and pose streams, as the plots name them.
const MOTION_COLUMNS: &[&str] = &["x", "y", "z"];
const POSE_COLUMNS: &[&str] = &["tx", "ty", "tz", "qx", "qy", "qz", "qw"];

/// The frames of one stream, as columns.
struct Lane {
    time: Vec<f64>,
    number: Vec<u64>,
    timestamp: Vec<f64>,
    /// Each frame's time on a session's clock, ms (`None` outside a
    /// session).
    session_ms: Option<Vec<f64>>,
    /// The names of the sample columns (none for a video stream).
    names: &'static [&'static str],
    /// IMU x, y, z, or pose translation x, y, z and rotation x, y, z, w; a
    /// frame whose payload does not hold a sample has none (null on the
    /// page), so every column stays as long as `time`.
    samples: Vec<Vec<Option<f32>>>,
}

impl Lane {
    fn new(kind: &str, in_session: bool) -> Lane {
        let names = match kind {
            "motion" => MOTION_COLUMNS,
            "pose" => POSE_COLUMNS,
            _ => &[],
        };
        Lane {
            time: Vec::new(),
            number: Vec::new(),
            timestamp: Vec::new(),
            session_ms: in_session.then(Vec::new),
            names,
            samples: vec![Vec::new(); names.len()],
        }
    }

    fn push(&mut self, time: f64, session_ms: Option<f64>, frame: &Frame) {
        self.time.push(time);
        if let (Some(column), Some(t)) = (self.session_ms.as_mut(), session_ms) {
            column.push(t);
        }
        self.number.push(frame.number);
        self.timestamp.push(frame.timestamp);
        let values: Vec<f32> = match self.names.len() {
            3 => frame.motion().map(|m| m.to_vec()),
            7 => frame
                .pose()
                .map(|p| p.translation.iter().chain(&p.rotation).copied().collect()),
            _ => None,
        }
        .unwrap_or_default();
        for (k, column) in self.samples.iter_mut().enumerate() {
            column.push(values.get(k).copied());
        }
    }

    fn frames(&self) -> Value {
        let mut frames =
            json!({ "t": self.time, "number": self.number, "timestamp": self.timestamp });
        if let Some(session_ms) = &self.session_ms {
            frames["session_ms"] = json!(session_ms);
        }
        frames
    }

    /// The samples, by column name; `null` for a video stream.
    fn samples(&self) -> Value {
        if self.names.is_empty() {
            return Value::Null;
        }
        Value::Object(
            self.names
                .iter()
                .zip(&self.samples)
                .map(|(name, column)| ((*name).to_owned(), json!(column)))
                .collect(),
        )
    }
}

/// The extrinsics between every two streams the recording relates.
fn extrinsics(recording: &Recording) -> Vec<Value> {
    let streams: Vec<StreamId> = recording.streams().keys().copied().collect();
    let mut pairs = Vec::new();
    for &from in &streams {
        for &to in streams.iter().filter(|&&to| to != from) {
            if let Some(e) = recording.extrinsics(from, to) {
                pairs.push(json!({
                    "from": stream_key(from), "to": stream_key(to),
                    "rotation": e.rotation, "translation": e.translation,
                }));
            }
        }
    }
    pairs
}

/// Option changes and notifications during the recording.
fn controls(recording: &Recording) -> (Vec<Value>, Vec<Value>) {
    let (mut options, mut notifications) = (Vec::new(), Vec::new());
    let start = recording.start_time();
    let events = recording
        .select()
        .streams(std::iter::empty())
        .controls(true)
        .events();
    for event in events.flatten() {
        let t = seconds(event.time, start);
        match event.event {
            Event::OptionChanged {
                sensor,
                name,
                value,
            } => options.push(json!({ "t": t, "sensor": sensor, "name": name, "value": value })),
            Event::Notification {
                sensor,
                notification: n,
            } => notifications.push(json!({
                "t": t, "sensor": sensor, "category": n.category, "severity": n.severity,
                "description": n.description, "timestamp": n.timestamp,
                "serialized_data": n.serialized_data,
            })),
            Event::Frame { .. } => {}
        }
    }
    (options, notifications)
}

/// The findings of `rsbag check`, per stream, placed on the timeline.
fn check_json(report: &CheckReport, start: BagTime) -> Value {
    let streams: serde_json::Map<String, Value> = report
        .streams
        .iter()
        .map(|(&stream, check)| {
            let findings: Vec<Value> = check
                .findings
                .iter()
                .map(|f| {
                    let (kind, missing) = match f.kind {
                        FindingKind::Gap { missing } => ("gap", missing),
                        FindingKind::OutOfOrder => ("out of order", 0),
                        FindingKind::Duplicate => ("duplicate", 0),
                    };
                    json!({
                        "kind": kind, "missing": missing, "t": seconds(f.time, start),
                        "number": f.number, "timestamp": f.timestamp,
                        "previous_number": f.previous_number,
                        "previous_timestamp": f.previous_timestamp,
                    })
                })
                .collect();
            let value = json!({
                "frames": check.frames, "numbers": check.numbers, "dropped": check.dropped,
                "out_of_order": check.out_of_order, "duplicates": check.duplicates,
                "findings": findings,
            });
            (stream_key(stream), value)
        })
        .collect();
    json!({ "damage": report.damage, "scanned": report.scanned, "streams": streams })
}

/// The connection records of a ROS1 bag (several may share a topic): id,
/// topic, type, md5sum, publisher and message count; `null` for other
/// storage, whose topics are its connections.
fn connections(recording: &Recording) -> Value {
    let Storage::Bag(bag) = recording.storage() else {
        return Value::Null;
    };
    Value::Array(
        bag.connections()
            .iter()
            .map(|c| {
                let (callerid, latching) = match &c.ext {
                    ConnectionExt::Ros1 { callerid, latching } => (callerid.as_deref(), *latching),
                    ConnectionExt::Rosbag2 { .. } => (None, None),
                };
                json!({
                    "id": c.id, "topic": c.topic, "type": c.msg_type, "md5sum": c.digest,
                    "callerid": callerid, "latching": latching,
                    "messages": bag.message_count(c.id),
                })
            })
            .collect(),
    )
}

/// The chunks of a ROS1 bag: where each lies, its time span, messages
/// and compression; `null` for other storage.
fn chunks(recording: &Recording) -> Value {
    let Storage::Bag(bag) = recording.storage() else {
        return Value::Null;
    };
    let start = recording.start_time();
    let chunks: Vec<Value> = bag
        .chunks()
        .iter()
        .map(|chunk| {
            let info = &chunk.info;
            let compression = bag
                .chunk_compression(chunk)
                .map_or_else(|e| format!("unreadable: {e}"), |c| c.to_string());
            json!({
                "offset": info.chunk_pos,
                "start": seconds(BagTime::from_nanos(info.start_time), start),
                "end": seconds(BagTime::from_nanos(info.end_time), start),
                "messages": info.message_count(),
                "compression": compression,
            })
        })
        .collect();
    Value::Array(chunks)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shifted_time_is_the_time_the_summed_duration_gives() {
        // 0.2 + 0.1 is 0.30000000000000004 in floats: past a duration of
        // 0.3 s, where the pieces' last frame must be.
        let end = Duration::from_millis(300).as_secs_f64();
        assert_eq!(shifted(0.2, Duration::from_millis(100)), end);
        assert_eq!(shifted(-0.1, Duration::from_millis(400)), end);
        assert_eq!(shifted(-0.3, Duration::from_millis(100)), -0.2);
    }
}
