//! `rsbag info`: what a bag holds, from its index alone.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use rsbag::bag::{Bag, Chunk};
use rsbag::device::{camera_info, CameraInfo, StreamId};
use rsbag::playback::Recording;
use rsbag::record::topics::FILE_VERSION;
use rsbag::{Error, Result};

/// Describe a bag: device, streams and topics, from the index alone.
///
/// Shows the size, times, chunks and compression, the recorded device and
/// sensors (camera info, options), every stream (format, resolution, fps,
/// frames, measured rate) and every topic with its type and message count,
/// read from the index and the device description without reading frames
/// (a bag without a usable index is scanned).
///
/// The measured rate of a stream is (frames - 1) / (last - first) over
/// the bag times of its frames. Times are bag times (ns since the
/// recording started); the duration is from the first frame to the last.
///
/// `--json` prints one object with the keys: `file`, `size` (bytes),
/// `index` ("indexed", or "scanned" when the index was unusable), `scan`
/// (null, or what a scan recovered: `complete_chunks`, `damaged_chunks`
/// [{`offset`, `reason`}], `orphan_messages`, `stopped_at` {`offset`,
/// `reason`} or null), `start_ns` and `end_ns` (bag times of the first and
/// last message), `chunks`, `compression` ({name: chunks} among the
/// chunks read for it), `compression_chunks_read` (all the chunks, or
/// 32 spread over a larger file, so that `info` reads the index and a
/// bounded number of places whatever the file's length), `messages`,
/// `topics` [{`topic`, `type`, `messages`}], `not_realsense` (null, or why
/// the bag is not read as a RealSense recording: no `/file_version`
/// topic, or a device description that cannot be read), and `realsense`:
/// null for such a bag, otherwise {`file_version`,
/// `start_ns`, `end_ns` and `duration_s` (of the frames), `device`
/// {camera-info key: value}, `sensors` [{`name`, `info` {key: value},
/// `options` {name: value}}], `streams` [{`stream`, `index`, `sensor`,
/// `format`, `fps`, `width` and `height` (null unless video), `frames`,
/// `measured_fps` (null under two frames), `intrinsics` (null, or {`fx`,
/// `fy`, `ppx`, `ppy`, `model`, `coeffs`})}]}.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The bag to describe.
    file: PathBuf,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<()> {
    let bag = Bag::open_or_scan(&args.file)?;
    let info = if bag.connections_on(FILE_VERSION).next().is_some() {
        match Recording::from_bag(bag) {
            Ok(recording) => describe(&args.file, recording.bag(), Ok(&recording))?,
            // A damaged description still leaves the bag to describe.
            Err(e) => describe(&args.file, &Bag::open_or_scan(&args.file)?, Err(e))?,
        }
    } else {
        describe(
            &args.file,
            &bag,
            Err(Error::InvalidArgument("no /file_version topic".into())),
        )?
    };
    let text = if args.json {
        format!("{info}\n")
    } else {
        text(&info)
    };
    super::emit(&text);
    Ok(())
}

/// Everything `info` prints, as the JSON object `--json` prints.
fn describe(file: &Path, bag: &Bag, recording: Result<&Recording>) -> Result<Value> {
    let mut compression: BTreeMap<&str, u64> = BTreeMap::new();
    let sampled = sample_chunks(bag.chunks());
    for chunk in &sampled {
        let name = bag
            .chunk_compression(chunk)
            .map_err(|e| e.in_file(file))?
            .as_str();
        *compression.entry(name).or_default() += 1;
    }
    let topics: Vec<Value> = bag
        .connections()
        .iter()
        .map(|c| json!({"topic": c.topic, "type": c.msg_type, "messages": bag.message_count(c.id)}))
        .collect();
    let scan = bag.scan_report().map(|r| {
        json!({
            "complete_chunks": r.complete_chunks,
            "damaged_chunks": r.damaged_chunks.iter()
                .map(|(offset, reason)| json!({"offset": offset, "reason": reason}))
                .collect::<Vec<_>>(),
            "orphan_messages": r.orphan_messages,
            "stopped_at": r.stopped_at.as_ref()
                .map(|(offset, reason)| json!({"offset": offset, "reason": reason})),
        })
    });
    Ok(json!({
        "file": file.display().to_string(),
        "size": bag.file_size(),
        "index": if scan.is_some() { "scanned" } else { "indexed" },
        "scan": scan,
        "start_ns": bag.start_time(),
        "end_ns": bag.end_time(),
        "chunks": bag.chunks().len(),
        "compression": compression,
        "compression_chunks_read": sampled.len(),
        "messages": bag.total_message_count(),
        "topics": topics,
        "realsense": recording.as_ref().ok().map(|r| realsense(r)),
        "not_realsense": recording.err().map(|e| e.to_string()),
    }))
}

/// At most this many chunk headers are read for the compression: each one
/// is a read from a different place in the file.
const COMPRESSION_SAMPLE: usize = 32;

/// The chunks whose compression `info` reads: all of them in a small file,
/// the first, the last and others evenly spread between in a large one, so
/// that describing a file takes the same time whatever its length.
fn sample_chunks(chunks: &[Chunk]) -> Vec<&Chunk> {
    if chunks.len() <= COMPRESSION_SAMPLE {
        return chunks.iter().collect();
    }
    let last = chunks.len() - 1;
    (0..COMPRESSION_SAMPLE)
        .map(|k| &chunks[k * last / (COMPRESSION_SAMPLE - 1)])
        .collect()
}

/// The RealSense part: device, sensors and streams.
fn realsense(recording: &Recording) -> Value {
    let snapshot = recording.snapshot();
    let sensors: Vec<Value> = snapshot
        .sensors
        .iter()
        .map(|s| {
            let options: serde_json::Map<String, Value> = s
                .options
                .iter()
                .map(|o| (o.name.clone(), float(o.value)))
                .collect();
            json!({"name": sensor_name(&s.info), "info": pairs(&s.info), "options": options})
        })
        .collect();
    let rates = measured_rates(recording);
    let streams: Vec<Value> = recording
        .streams()
        .iter()
        .map(|(id, s)| {
            let (width, height) = s.profile.resolution().unzip();
            let intrinsics = s.profile.intrinsics().map(|i| {
                json!({
                    "fx": float(i.fx), "fy": float(i.fy), "ppx": float(i.ppx), "ppy": float(i.ppy),
                    "model": i.model.name(),
                    "coeffs": i.coeffs.iter().map(|&c| float(c)).collect::<Vec<_>>(),
                })
            });
            json!({
                "stream": id.kind.name(),
                "index": id.index,
                "sensor": snapshot.sensors.get(s.sensor).map(|x| sensor_name(&x.info)),
                "format": s.profile.format.name(),
                "fps": s.profile.fps,
                "width": width,
                "height": height,
                "frames": s.frame_count,
                "measured_fps": rates.get(id),
                "intrinsics": intrinsics,
            })
        })
        .collect();
    json!({
        "file_version": recording.file_version(),
        "start_ns": recording.start_time(),
        "end_ns": recording.end_time(),
        "duration_s": recording.duration() as f64 / 1e9,
        "device": pairs(&snapshot.info),
        "sensors": sensors,
        "streams": streams,
    })
}

/// Frames per second of each stream with two frames or more, from the
/// bag times in the index (no frame is read).
fn measured_rates(recording: &Recording) -> BTreeMap<StreamId, f64> {
    recording
        .streams()
        .iter()
        .filter(|(_, s)| s.frame_count > 1)
        .filter_map(|(&id, s)| {
            let (first, last) = time_span(recording.bag(), s.data_connections())?;
            let rate = (s.frame_count - 1) as f64 * 1e9 / (last - first) as f64;
            (last > first).then_some((id, rate))
        })
        .collect()
}

/// Bag times of the first and last message on `conns`, from the index
/// entries of only the chunks that can hold them (a handful, whatever the
/// length of the file: reading every chunk's entries of a large file not
/// in the page cache takes seconds).
fn time_span(bag: &Bag, conns: &[u32]) -> Option<(u64, u64)> {
    let holding: Vec<&Chunk> = bag
        .chunks()
        .iter()
        .filter(|c| {
            c.info
                .connection_counts
                .iter()
                .any(|(id, n)| *n > 0 && conns.contains(id))
        })
        .collect();
    // The first message is no later than the earliest chunk end, and lies
    // in a chunk that starts no later than that; the same for the last.
    let first_end = holding.iter().map(|c| c.info.end_time).min()?;
    let last_start = holding.iter().map(|c| c.info.start_time).max()?;
    let mut span: Option<(u64, u64)> = None;
    for chunk in holding
        .into_iter()
        .filter(|c| c.info.start_time <= first_end || c.info.end_time >= last_start)
    {
        let entries = match bag.chunk_entries(chunk) {
            Ok(entries) => entries,
            Err(e) => {
                tracing::warn!("index of the chunk at {}: {e}", chunk.info.chunk_pos);
                return None;
            }
        };
        for e in entries.iter().filter(|e| conns.contains(&e.conn)) {
            span = Some(span.map_or((e.time, e.time), |(a, b)| (a.min(e.time), b.max(e.time))));
        }
    }
    span
}

fn sensor_name(info: &CameraInfo) -> String {
    info.get(camera_info::NAME).unwrap_or("?").to_owned()
}

fn pairs(info: &CameraInfo) -> Value {
    Value::Object(
        info.iter()
            .map(|(k, v)| (k.to_owned(), Value::from(v)))
            .collect(),
    )
}

/// An `f32` as JSON with the digits it was written with (`0.001`, not
/// `0.0010000000474974513`).
fn float(v: f32) -> Value {
    v.to_string()
        .parse::<f64>()
        .ok()
        .and_then(serde_json::Number::from_f64)
        .map_or(Value::Null, Value::Number)
}

/// The text form of [`describe`]'s object.
fn text(info: &Value) -> String {
    let mut out = String::new();
    let seconds = |v: &Value| v.as_u64().unwrap_or(0) as f64 / 1e9;
    outln!(
        out,
        "file:          {}",
        info["file"].as_str().unwrap_or("")
    );
    outln!(out, "size:          {} bytes", info["size"]);
    let rs = &info["realsense"];
    match info["not_realsense"].as_str() {
        None => outln!(out, "file version:  {} (RealSense)", rs["file_version"]),
        Some(why) => outln!(out, "realsense:     not a RealSense recording ({why})"),
    }
    match info["scan"].as_object() {
        None => outln!(out, "index:         ok"),
        Some(scan) => outln!(
            out,
            "index:         missing or damaged; recovered by scanning: {} complete chunks, {} damaged{}",
            scan["complete_chunks"],
            scan["damaged_chunks"].as_array().map_or(0, Vec::len),
            scan["stopped_at"]
                .get("offset")
                .map_or(String::new(), |o| format!(", cut off at byte {o}"))
        ),
    }
    if !rs.is_null() {
        outln!(
            out,
            "duration:      {:.3} s (frames from {:.6} s to {:.6} s)",
            rs["duration_s"].as_f64().unwrap_or(0.0),
            seconds(&rs["start_ns"]),
            seconds(&rs["end_ns"])
        );
    }
    outln!(
        out,
        "bag time:      {:.6} s .. {:.6} s",
        seconds(&info["start_ns"]),
        seconds(&info["end_ns"])
    );
    let compression: Vec<String> = info["compression"]
        .as_object()
        .into_iter()
        .flatten()
        .map(|(name, n)| format!("{n} {name}"))
        .collect();
    let read = &info["compression_chunks_read"];
    let compression = match (compression.is_empty(), read == &info["chunks"]) {
        (true, _) => String::new(),
        (false, true) => format!(" ({})", compression.join(", ")),
        (false, false) => format!(
            " (of {read} read, spread over the file: {})",
            compression.join(", ")
        ),
    };
    outln!(out, "chunks:        {}{compression}", info["chunks"]);
    outln!(out, "messages:      {}", info["messages"]);
    if !rs.is_null() {
        device_text(&mut out, rs);
    }
    outln!(out, "topics:");
    let topics = info["topics"].as_array().map_or(&[][..], Vec::as_slice);
    let width = topics
        .iter()
        .map(|t| t["topic"].as_str().map_or(0, str::len))
        .max()
        .unwrap_or(0);
    for t in topics {
        outln!(
            out,
            "  {:<width$} {:>7}  {}",
            t["topic"].as_str().unwrap_or(""),
            t["messages"].to_string(),
            t["type"].as_str().unwrap_or("")
        );
    }
    out
}

fn device_text(out: &mut String, rs: &Value) {
    // Numbers as Rust prints them (`0.001`, `166`), strings unquoted.
    let str_of = |v: &Value| match (v.as_str(), v.as_f64()) {
        (Some(s), _) => s.to_owned(),
        (None, Some(f)) => f.to_string(),
        _ => v.to_string(),
    };
    outln!(out, "device:");
    for (key, value) in rs["device"].as_object().into_iter().flatten() {
        outln!(out, "  {key:<28} {}", str_of(value));
    }
    outln!(out, "sensors:");
    for sensor in rs["sensors"].as_array().into_iter().flatten() {
        outln!(out, "  {}", str_of(&sensor["name"]));
        for (key, value) in sensor["info"].as_object().into_iter().flatten() {
            if key != camera_info::NAME {
                outln!(out, "    {key:<26} {}", str_of(value));
            }
        }
        for (name, value) in sensor["options"].as_object().into_iter().flatten() {
            outln!(out, "    option {name:<19} {}", str_of(value));
        }
    }
    outln!(out, "streams:");
    outln!(
        out,
        "  {:<12} {:<20} {:<14} {:>10} {:>5} {:>8} {:>12}",
        "stream",
        "sensor",
        "format",
        "size",
        "fps",
        "frames",
        "measured"
    );
    for s in rs["streams"].as_array().into_iter().flatten() {
        let size = match (s["width"].as_u64(), s["height"].as_u64()) {
            (Some(w), Some(h)) => format!("{w}x{h}"),
            _ => "-".into(),
        };
        let measured = s["measured_fps"]
            .as_f64()
            .map_or_else(|| "-".into(), |r| format!("{r:.2} Hz"));
        outln!(
            out,
            "  {:<12} {:<20} {:<14} {:>10} {:>5} {:>8} {:>12}",
            format!("{} {}", str_of(&s["stream"]), str_of(&s["index"])),
            str_of(&s["sensor"]),
            str_of(&s["format"]),
            size,
            str_of(&s["fps"]),
            str_of(&s["frames"]),
            measured
        );
    }
}
