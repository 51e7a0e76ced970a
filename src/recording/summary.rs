//! What a recording holds, from its index and device description alone:
//! the typed result behind `rsbag info` (with serde, the JSON it prints).

use std::collections::BTreeMap;
use std::path::Path;

use super::calibration::Calibration;
use super::recording::Recording;
use crate::device::{camera_info, CameraInfo, Intrinsics};
use crate::msg::ros2;
use crate::storage::bag::{Bag, Chunk};
use crate::storage::rosbag2::Db3;
use crate::storage::{FileFormat, Storage};
use crate::Result;

/// At most this many chunk headers are read for the compression: each one
/// is a read from a different place in the file.
const COMPRESSION_SAMPLE: usize = 32;

/// A description of a bag and, where it is one, of the RealSense recording
/// in it. Reading it touches the index, the device description, the
/// chunks at either end and at most 32 chunk headers, whatever the file's
/// length.
///
/// ```
/// use rsbag::recording::summary::Summary;
/// # fn main() -> rsbag::Result<()> {
/// let summary = Summary::of("sample_bags/librealsense-motion-lz4.bag")?;
/// let realsense = summary.realsense.as_ref().expect("a RealSense recording");
/// assert_eq!(realsense.streams.len(), 3);
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Summary {
    /// The file, as given.
    pub file: String,
    /// Its storage format (`bag`, `db3` or `mcap` in serde's form).
    pub format: FileFormat,
    /// Its size, bytes.
    pub size: u64,
    /// `indexed`, or `scanned` when the index was unusable.
    pub index: &'static str,
    /// What a scan recovered, when the index was unusable.
    pub scan: Option<ScanSummary>,
    /// Chunks whose index data records could not be read, read from their
    /// own records instead (none of their messages missing): those that
    /// describing the file read.
    pub repaired_chunks: Vec<Place>,
    /// Bag time of the first message, ns.
    pub start_ns: u64,
    /// Bag time of the last message, ns.
    pub end_ns: u64,
    /// Chunks in the file (a `.db3` has none).
    pub chunks: usize,
    /// Chunks per compression, among the chunks read for it (for a `.db3`,
    /// image data topics per message type: compressed or not).
    pub compression: BTreeMap<String, u64>,
    /// How many chunk headers were read for `compression`: all, or 32
    /// spread over a larger file.
    pub compression_chunks_read: usize,
    /// Messages in the file.
    pub messages: u64,
    /// Every topic.
    pub topics: Vec<TopicSummary>,
    /// The RealSense recording; `None` when the bag is not one.
    pub realsense: Option<RealSenseSummary>,
    /// Why the bag is not read as a RealSense recording.
    pub not_realsense: Option<String>,
}

/// What a scan recovered from a bag whose index was unusable.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ScanSummary {
    /// Chunks read whole.
    pub complete_chunks: u64,
    /// Chunks that could not be read.
    pub damaged_chunks: Vec<Place>,
    /// Messages outside any chunk.
    pub orphan_messages: u64,
    /// Where the records stopped making sense, if they did.
    pub stopped_at: Option<Place>,
    /// Messages recovered from the chunk the file ends in (cut off).
    pub cut_chunk_messages: u64,
}

/// A place in the file and what is wrong there.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Place {
    /// Byte offset.
    pub offset: u64,
    /// What is wrong.
    pub reason: String,
}

/// One topic of the bag.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct TopicSummary {
    /// The topic name.
    pub topic: String,
    /// The ROS type.
    #[cfg_attr(feature = "serde", serde(rename = "type"))]
    pub msg_type: String,
    /// Messages on it.
    pub messages: u64,
}

/// The RealSense part: device, sensors and streams.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct RealSenseSummary {
    /// The RealSense file version (0 for a camera bag recorded from ROS).
    pub file_version: u32,
    /// For a camera bag recorded from ROS: what is not played, or
    /// missing, in words.
    pub notes: Vec<String>,
    /// Bag time of the first frame, ns.
    pub start_ns: u64,
    /// Bag time of the last frame, ns.
    pub end_ns: u64,
    /// From the first frame to the last, s.
    pub duration_s: f64,
    /// The device's camera info.
    pub device: BTreeMap<String, String>,
    /// The sensors.
    pub sensors: Vec<SensorSummary>,
    /// The streams.
    pub streams: Vec<StreamSummary>,
    /// The transform between every ordered pair of distinct streams the
    /// recording relates (librealsense's `get_extrinsics_to`).
    pub extrinsics: Vec<ExtrinsicsSummary>,
}

/// Where stream `to` is seen from stream `from`: the transform that maps a
/// point in `from`'s coordinates to `to`'s.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ExtrinsicsSummary {
    /// librealsense's name of the stream transformed from (`Depth`,
    /// `Infrared 1`).
    pub from: String,
    /// librealsense's name of the stream transformed to.
    pub to: String,
    /// Rotation, a column-major 3x3 matrix as librealsense gives it.
    #[cfg_attr(feature = "serde", serde(serialize_with = "short_float_list"))]
    pub rotation: [f32; 9],
    /// Translation, metres.
    #[cfg_attr(feature = "serde", serde(serialize_with = "short_float_list"))]
    pub translation: [f32; 3],
}

/// One recorded sensor.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SensorSummary {
    /// Its name.
    pub name: String,
    /// Its camera info.
    pub info: BTreeMap<String, String>,
    /// Its options' recorded values.
    #[cfg_attr(feature = "serde", serde(serialize_with = "short_floats"))]
    pub options: BTreeMap<String, f32>,
}

/// One recorded stream.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct StreamSummary {
    /// librealsense's stream name (`Depth`, `Infrared`…).
    pub stream: &'static str,
    /// The stream index.
    pub index: u32,
    /// The name of the sensor it belongs to.
    pub sensor: Option<String>,
    /// librealsense's format name.
    pub format: &'static str,
    /// Frames per second, as recorded.
    pub fps: u32,
    /// Width, for video streams.
    pub width: Option<u32>,
    /// Height, for video streams.
    pub height: Option<u32>,
    /// Frames recorded.
    pub frames: u64,
    /// Frames per second measured over the bag times of its frames; `None`
    /// under two frames.
    pub measured_fps: Option<f64>,
    /// The intrinsics of a video stream.
    pub intrinsics: Option<IntrinsicsSummary>,
}

/// Video intrinsics, as recorded.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct IntrinsicsSummary {
    /// Focal length, pixels.
    #[cfg_attr(feature = "serde", serde(serialize_with = "short_float"))]
    pub fx: f32,
    /// Focal length, pixels.
    #[cfg_attr(feature = "serde", serde(serialize_with = "short_float"))]
    pub fy: f32,
    /// Principal point, pixels.
    #[cfg_attr(feature = "serde", serde(serialize_with = "short_float"))]
    pub ppx: f32,
    /// Principal point, pixels.
    #[cfg_attr(feature = "serde", serde(serialize_with = "short_float"))]
    pub ppy: f32,
    /// librealsense's distortion model name.
    pub model: &'static str,
    /// Distortion coefficients.
    #[cfg_attr(feature = "serde", serde(serialize_with = "short_float_list"))]
    pub coeffs: [f32; 5],
}

impl Summary {
    /// Describe the bag at `path` (a bag without a usable index is
    /// scanned). A bag that is not a RealSense recording is described too,
    /// with `realsense: None` and the reason in `not_realsense`.
    pub fn of(path: impl AsRef<Path>) -> Result<Summary> {
        let path = path.as_ref();
        let storage = Storage::open(path)?;
        match Recording::from_storage(storage) {
            Ok(recording) => Summary::describe(path, recording.storage(), Ok(&recording)),
            // A damaged description still leaves the file to describe;
            // opened again, it has already been warned about.
            Err(e) => {
                let quiet = tracing::subscriber::NoSubscriber::default();
                let storage = tracing::subscriber::with_default(quiet, || Storage::open(path))?;
                Summary::describe(path, &storage, Err(e.to_string()))
            }
        }
        .map_err(|e| e.in_file(path))
    }

    /// The summary of a recording already open, read from `path` (its
    /// storage is not opened again).
    pub fn of_recording(path: impl AsRef<Path>, recording: &Recording) -> Result<Summary> {
        let path = path.as_ref();
        Summary::describe(path, recording.storage(), Ok(recording)).map_err(|e| e.in_file(path))
    }

    fn describe(
        file: &Path,
        storage: &Storage,
        recording: std::result::Result<&Recording, String>,
    ) -> Result<Summary> {
        let topics = storage
            .topics()
            .iter()
            .map(|t| TopicSummary {
                topic: t.topic.clone(),
                msg_type: t.msg_type.to_owned(),
                messages: storage.message_count(t.id),
            })
            .collect();
        let (realsense, not_realsense) = match recording {
            Ok(recording) => (Some(RealSenseSummary::of(recording)?), None),
            Err(why) => (None, Some(why)),
        };
        let summary = Summary {
            file: file.display().to_string(),
            format: FileFormat::Bag,
            size: 0,
            index: "indexed",
            scan: None,
            repaired_chunks: Vec::new(),
            start_ns: 0,
            end_ns: 0,
            chunks: 0,
            compression: BTreeMap::new(),
            compression_chunks_read: 0,
            messages: 0,
            topics,
            realsense,
            not_realsense,
        };
        match storage {
            Storage::Bag(bag) => summary.with_bag(bag),
            Storage::Db3(db3) => Ok(summary.with_db3(db3)),
            Storage::Mcap(mcap) => Ok(summary.with_mcap(mcap)),
        }
    }

    /// The parts of a `.bag`: size, index, chunks and their compression.
    fn with_bag(self, bag: &Bag) -> Result<Summary> {
        let sampled = sample_chunks(bag.chunks());
        bag.will_read_headers(&sampled);
        let mut compression: BTreeMap<String, u64> = BTreeMap::new();
        for chunk in &sampled {
            let name = bag.chunk_compression(chunk)?.as_str();
            *compression.entry(name.to_owned()).or_default() += 1;
        }
        let scan = bag.scan_report().map(|r| ScanSummary {
            complete_chunks: r.complete_chunks as u64,
            damaged_chunks: r.damaged_chunks.iter().map(Place::from).collect(),
            orphan_messages: r.orphan_messages,
            stopped_at: r.stopped_at.as_ref().map(Place::from),
            cut_chunk_messages: r.cut_chunk_messages,
        });
        Ok(Summary {
            size: bag.file_size(),
            index: if scan.is_some() { "scanned" } else { "indexed" },
            scan,
            repaired_chunks: bag
                .chunk_repairs()
                .chunks()
                .iter()
                .map(Place::from)
                .collect(),
            start_ns: bag.start_time(),
            end_ns: bag.end_time(),
            chunks: bag.chunks().len(),
            compression,
            compression_chunks_read: sampled.len(),
            messages: bag.total_message_count(),
            ..self
        })
    }

    /// The parts of a `.db3`: size, time span, and whether its images are
    /// compressed (by librealsense, as PNG or zstd; in a camera bag
    /// recorded from ROS, by image_transport's plugins, as JPEG, PNG or
    /// RVL).
    fn with_db3(self, db3: &Db3) -> Summary {
        let ids: Vec<u32> = db3.topics().iter().map(|t| t.id).collect();
        let (start_ns, end_ns) = db3.time_span(&ids).unwrap_or((0, 0));
        let compressed = match &self.realsense {
            Some(r) if r.file_version > 0 => "png/zstd",
            _ => "compressed (image_transport)",
        };
        let mut compression: BTreeMap<String, u64> = BTreeMap::new();
        for t in db3.topics() {
            let name = match t.msg_type.as_str() {
                ros2::COMPRESSED_IMAGE => compressed,
                ros2::IMAGE => "none",
                _ => continue,
            };
            *compression.entry(name.to_owned()).or_default() += 1;
        }
        let size = db3.file_size();
        Summary {
            format: FileFormat::Db3,
            size,
            start_ns,
            end_ns,
            compression,
            messages: db3.total_message_count(),
            ..self
        }
    }
}

impl Summary {
    /// The parts of an MCAP file: size, time span, chunk compression.
    fn with_mcap(self, mcap: &crate::storage::rosbag2::McapFile) -> Summary {
        let ids: Vec<u32> = mcap.topics().iter().map(|t| t.id).collect();
        let (start_ns, end_ns) = mcap.time_span(&ids).unwrap_or((0, 0));
        let size = mcap.file_size();
        Summary {
            format: FileFormat::Mcap,
            size,
            start_ns,
            end_ns,
            chunks: mcap.chunk_compressions().values().sum::<u64>() as usize,
            compression: mcap.chunk_compressions(),
            messages: mcap.total_message_count(),
            ..self
        }
    }
}

impl From<&(u64, String)> for Place {
    fn from((offset, reason): &(u64, String)) -> Place {
        Place {
            offset: *offset,
            reason: reason.clone(),
        }
    }
}

impl RealSenseSummary {
    fn of(recording: &Recording) -> Result<RealSenseSummary> {
        let snapshot = recording.snapshot();
        let sensors = snapshot
            .sensors
            .iter()
            .map(|s| SensorSummary {
                name: sensor_name(&s.info),
                info: pairs(&s.info),
                options: s
                    .options
                    .iter()
                    .map(|o| (o.name.clone(), o.value))
                    .collect(),
            })
            .collect();
        let mut streams = Vec::new();
        if let Storage::Bag(bag) = recording.storage() {
            // The chunk indexes of every stream's time span, in one go.
            bag.will_read_time_spans(recording.streams().values().map(|s| s.data_connections()));
        }
        for (id, s) in recording.streams() {
            let (width, height) = s.profile.resolution().unzip();
            streams.push(StreamSummary {
                stream: id.kind.name(),
                index: id.index,
                sensor: snapshot.sensors.get(s.sensor).map(|x| sensor_name(&x.info)),
                format: s.profile.format.name(),
                fps: s.profile.fps,
                width,
                height,
                frames: s.frame_count,
                measured_fps: measured_rate(
                    recording.storage(),
                    s.data_connections(),
                    s.frame_count,
                ),
                intrinsics: s.profile.intrinsics().as_ref().map(IntrinsicsSummary::from),
            });
        }
        Ok(RealSenseSummary {
            file_version: recording.file_version(),
            notes: recording.notes().to_vec(),
            start_ns: recording.start_time().as_nanos(),
            end_ns: recording.end_time().as_nanos(),
            duration_s: recording.duration().as_secs_f64(),
            device: pairs(&snapshot.info),
            sensors,
            streams,
            extrinsics: Calibration::of(recording)
                .extrinsics
                .iter()
                .map(|e| ExtrinsicsSummary {
                    from: e.from.name(),
                    to: e.to.name(),
                    rotation: e.extrinsics.rotation,
                    translation: e.extrinsics.translation,
                })
                .collect(),
        })
    }
}

impl From<&Intrinsics> for IntrinsicsSummary {
    fn from(i: &Intrinsics) -> IntrinsicsSummary {
        IntrinsicsSummary {
            fx: i.fx,
            fy: i.fy,
            ppx: i.ppx,
            ppy: i.ppy,
            model: i.model.name(),
            coeffs: i.coeffs,
        }
    }
}

/// Frames per second of a stream with two frames or more, (frames - 1)
/// over the time from its first frame to its last, from the index.
fn measured_rate(storage: &Storage, conns: &[u32], frames: u64) -> Option<f64> {
    if frames < 2 {
        return None;
    }
    storage
        .time_span(conns)
        .filter(|(first, last)| last > first)
        .map(|(first, last)| (frames - 1) as f64 * 1e9 / (last - first) as f64)
}

/// The chunks whose compression is read: all of them in a small file, the
/// first, the last and others evenly spread between in a large one, so
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

fn sensor_name(info: &CameraInfo) -> String {
    info.get(camera_info::NAME).unwrap_or("?").to_owned()
}

fn pairs(info: &CameraInfo) -> BTreeMap<String, String> {
    info.iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect()
}

/// An `f32` as the shortest decimal that reads back as it (`0.001`, not
/// `0.0010000000474974513`), for output as `f64`.
pub fn short_f64(v: f32) -> f64 {
    v.to_string().parse().unwrap_or(f64::NAN)
}

#[cfg(feature = "serde")]
fn short_float<S: serde::Serializer>(v: &f32, s: S) -> std::result::Result<S::Ok, S::Error> {
    let v = short_f64(*v);
    if v.is_finite() {
        s.serialize_f64(v)
    } else {
        s.serialize_none()
    }
}

#[cfg(feature = "serde")]
fn short_float_list<S: serde::Serializer, const N: usize>(
    v: &[f32; N],
    s: S,
) -> std::result::Result<S::Ok, S::Error> {
    use serde::ser::SerializeSeq;
    let mut seq = s.serialize_seq(Some(v.len()))?;
    for &x in v {
        let x = short_f64(x);
        seq.serialize_element(&x.is_finite().then_some(x))?;
    }
    seq.end()
}

#[cfg(feature = "serde")]
fn short_floats<S: serde::Serializer>(
    v: &BTreeMap<String, f32>,
    s: S,
) -> std::result::Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    let mut map = s.serialize_map(Some(v.len()))?;
    for (name, &x) in v {
        let x = short_f64(x);
        map.serialize_entry(name, &x.is_finite().then_some(x))?;
    }
    map.end()
}
