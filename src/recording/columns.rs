//! One stream's frames over a time range as columns: a vector per field
//! (numbers, timestamps, metadata, IMU samples) with one entry per frame,
//! for readers that want every frame's numbers at once rather than frames.

use std::collections::HashMap;

use crate::device::{CombinedMotion, Format, Frame, MotionSample, StreamId, TimestampDomain};
use crate::Result;

use super::{FrameQuery, RecordedFrame};

/// The frames of one stream as columns; entry `i` of every column is the
/// `i`-th frame read, in recorded order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Columns {
    /// Each frame's position in its stream ([`RecordedFrame::index`]).
    pub index: Vec<u64>,
    /// Frame numbers.
    pub number: Vec<u64>,
    /// Timestamps in milliseconds, in `domain`.
    pub timestamp: Vec<f64>,
    /// The clock of each timestamp.
    pub domain: Vec<TimestampDomain>,
    /// Host times in milliseconds when the frames arrived.
    pub system_time: Vec<f64>,
    /// Seconds since the recording's first frame.
    pub time: Vec<f64>,
    /// Every metadata key any frame has, in the order first met.
    pub metadata: Vec<MetadataColumn>,
    /// The samples of an IMU stream; `None` for other formats. A frame too
    /// short to hold a sample makes the whole read an error, not a made-up
    /// sample.
    pub samples: Option<Samples>,
}

/// The samples of an IMU stream, one per frame.
#[derive(Debug, Clone, PartialEq)]
pub enum Samples {
    /// `MOTION_XYZ32F` (a gyro or an accelerometer): x, y, z.
    Xyz(Vec<MotionSample>),
    /// `COMBINED_MOTION`: orientation x, y, z, w, angular velocity x, y, z,
    /// linear acceleration x, y, z (see [`CombinedMotion`]).
    Combined(Vec<[f64; 10]>),
}

impl Samples {
    /// No samples yet, room for `capacity`, for a stream of `format`;
    /// `None` for a format that is not an IMU sample.
    fn for_format(format: Format, capacity: usize) -> Option<Samples> {
        match format {
            Format::MotionXyz32f => Some(Samples::Xyz(Vec::with_capacity(capacity))),
            Format::CombinedMotion => Some(Samples::Combined(Vec::with_capacity(capacity))),
            _ => None,
        }
    }

    /// Add the sample of `recorded`.
    fn push(&mut self, recorded: &RecordedFrame) -> Result<()> {
        let frame = &recorded.frame;
        let pushed = match self {
            Samples::Xyz(samples) => frame.motion().map(|s| samples.push(s)),
            Samples::Combined(samples) => {
                CombinedMotion::from_bytes(&frame.data).map(|m| samples.push(combined_row(&m)))
            }
        };
        pushed.ok_or_else(|| crate::Error::Corrupt {
            offset: 0,
            record: "motion frame",
            reason: format!(
                "frame {} of stream {} has {} bytes: too short for its {} sample",
                recorded.index,
                recorded.stream,
                frame.data.len(),
                frame.profile.format
            ),
        })
    }
}

/// One metadata key's values, one entry per frame.
#[derive(Debug, Clone, PartialEq)]
pub struct MetadataColumn {
    /// librealsense's name of the key (`"Frame Counter"`).
    pub name: String,
    /// The values; 0 where the frame has none (see `present`).
    pub values: Vec<i64>,
    /// Whether each frame has the key; `None` when every frame has it.
    pub present: Option<Vec<bool>>,
}

impl Columns {
    /// The number of frames.
    pub fn len(&self) -> usize {
        self.index.len()
    }

    /// Whether no frame was read.
    pub fn is_empty(&self) -> bool {
        self.index.is_empty()
    }
}

impl FrameQuery<'_> {
    /// The frames of the one selected stream in the time range, as
    /// columns. Selecting no stream or more than one is an
    /// [`crate::Error::InvalidArgument`]; a frame that cannot be read is the
    /// error it is, not a gap.
    pub fn columns(self) -> Result<Columns> {
        let stream = self.one_selected()?;
        let expected = self.frame_counts()?.get(&stream).copied().unwrap_or(0);
        let recording = self.reader.recording();
        columns_of(recording, stream, expected, self.frames()?)
    }

    fn one_selected(&self) -> Result<StreamId> {
        let selected = self.selected()?;
        let mut streams = selected.iter();
        match (streams.next(), streams.next()) {
            (Some(&one), None) => Ok(one),
            _ => Err(crate::Error::InvalidArgument(format!(
                "columns are read from one stream, not {}",
                selected.len()
            ))),
        }
    }
}

/// The columns of `frames`, `expected` frames of `stream` (described by
/// `recording`).
pub(crate) fn columns_of(
    recording: &super::Recording,
    stream: StreamId,
    expected: u64,
    frames: impl Iterator<Item = Result<RecordedFrame>>,
) -> Result<Columns> {
    let format = recording.streams().get(&stream).map(|s| s.profile.format);
    let expected = usize::try_from(expected).unwrap_or(0);
    let samples = format.and_then(|f| Samples::for_format(f, expected));
    let mut builder = Builder::new(expected, samples);
    for frame in frames {
        builder.push(&frame?)?;
    }
    Ok(builder.finish())
}

/// Columns being filled frame by frame.
struct Builder {
    columns: Columns,
    /// Position in `columns.metadata` of each key.
    keys: HashMap<String, usize>,
}

impl Builder {
    fn new(capacity: usize, samples: Option<Samples>) -> Builder {
        Builder {
            columns: Columns {
                index: Vec::with_capacity(capacity),
                number: Vec::with_capacity(capacity),
                timestamp: Vec::with_capacity(capacity),
                domain: Vec::with_capacity(capacity),
                system_time: Vec::with_capacity(capacity),
                time: Vec::with_capacity(capacity),
                metadata: Vec::new(),
                samples,
            },
            keys: HashMap::new(),
        }
    }

    fn push(&mut self, recorded: &RecordedFrame) -> Result<()> {
        let frame = &recorded.frame;
        let c = &mut self.columns;
        let row = c.index.len();
        if let Some(samples) = &mut c.samples {
            samples.push(recorded)?;
        }
        c.index.push(recorded.index);
        c.number.push(frame.number);
        c.timestamp.push(frame.timestamp);
        c.domain.push(frame.domain);
        c.system_time.push(frame.system_time);
        c.time.push(recorded.time.as_secs_f64());
        self.push_metadata(row, frame);
        Ok(())
    }

    /// Frame `row`'s metadata: each key's column gets its value; a column
    /// this frame has no value for gets a gap.
    fn push_metadata(&mut self, row: usize, frame: &Frame) {
        let metadata = &mut self.columns.metadata;
        for (at, (key, value)) in frame.metadata.iter().enumerate() {
            // Frames of a stream mostly list the same keys in the same
            // order: the column at the same place is tried first.
            let column = match metadata.get(at) {
                Some(c) if c.name == *key => at,
                _ => *self.keys.entry(key.to_string()).or_insert_with(|| {
                    metadata.push(MetadataColumn::new(key.to_string(), row));
                    metadata.len() - 1
                }),
            };
            let column = &mut metadata[column];
            // A key listed twice in one frame keeps its first value.
            if column.values.len() == row {
                column.push(*value);
            }
        }
        for column in metadata.iter_mut() {
            if column.values.len() == row {
                column.push_gap();
            }
        }
    }

    fn finish(self) -> Columns {
        self.columns
    }
}

impl MetadataColumn {
    /// A column first met at frame `row`: the frames before have no value.
    fn new(name: String, row: usize) -> MetadataColumn {
        MetadataColumn {
            name,
            values: vec![0; row],
            present: (row > 0).then(|| vec![false; row]),
        }
    }

    fn push(&mut self, value: i64) {
        self.values.push(value);
        if let Some(present) = &mut self.present {
            present.push(true);
        }
    }

    fn push_gap(&mut self) {
        let present = (self.present).get_or_insert_with(|| vec![true; self.values.len()]);
        present.push(false);
        self.values.push(0);
    }
}

/// A `COMBINED_MOTION` sample's ten numbers, in its bytes' order.
fn combined_row(m: &CombinedMotion) -> [f64; 10] {
    let mut row = [0.0; 10];
    row[..4].copy_from_slice(&m.orientation);
    row[4..7].copy_from_slice(&m.angular_velocity);
    row[7..].copy_from_slice(&m.linear_acceleration);
    row
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::device::{motion_bytes, StreamKind, StreamProfile};
    use crate::time::BagTime;

    const GYRO: StreamId = StreamId::new(StreamKind::Gyro, 0);

    fn gyro(index: u64, metadata: &[(&str, i64)], data: Vec<u8>) -> RecordedFrame {
        RecordedFrame {
            stream: GYRO,
            sensor: 0,
            index,
            bag_time: BagTime::from_nanos(index),
            time: Duration::from_millis(index * 5),
            frame: Frame {
                profile: StreamProfile::motion(GYRO, Format::MotionXyz32f, 200),
                number: index + 1,
                timestamp: index as f64 * 5.0,
                domain: TimestampDomain::GlobalTime,
                system_time: 1e12 + index as f64,
                metadata: metadata
                    .iter()
                    .map(|&(k, v)| (k.to_owned().into(), v))
                    .collect(),
                stride: 0,
                data: data.into(),
            },
        }
    }

    fn build(frames: &[RecordedFrame]) -> Result<Columns> {
        let samples = Samples::for_format(Format::MotionXyz32f, frames.len());
        let mut builder = Builder::new(frames.len(), samples);
        for frame in frames {
            builder.push(frame)?;
        }
        Ok(builder.finish())
    }

    #[test]
    fn a_key_some_frames_lack_is_masked_there() {
        let frames = [
            gyro(0, &[("Frame Counter", 1)], motion_bytes([1.0, 2.0, 3.0])),
            // A key first met here, the earlier key missing, and a key
            // listed twice (its first value counts).
            gyro(
                1,
                &[("Actual Fps", 200), ("Actual Fps", 7)],
                motion_bytes([4.0, 5.0, 6.0]),
            ),
            gyro(
                2,
                &[("Frame Counter", 3), ("Actual Fps", 201)],
                motion_bytes([7.0, 8.0, 9.0]),
            ),
        ];
        let columns = build(&frames).expect("columns");
        assert_eq!(columns.len(), 3);
        assert_eq!(columns.index, [0, 1, 2]);
        assert_eq!(columns.number, [1, 2, 3]);
        assert_eq!(columns.timestamp, [0.0, 5.0, 10.0]);
        assert_eq!(columns.time, [0.0, 0.005, 0.01]);
        assert_eq!(columns.domain, [TimestampDomain::GlobalTime; 3]);
        let counter = &columns.metadata[0];
        assert_eq!(counter.name, "Frame Counter");
        assert_eq!(counter.values, [1, 0, 3]);
        assert_eq!(counter.present.as_deref(), Some(&[true, false, true][..]));
        let fps = &columns.metadata[1];
        assert_eq!(fps.name, "Actual Fps");
        assert_eq!(fps.values, [0, 200, 201]);
        assert_eq!(fps.present.as_deref(), Some(&[false, true, true][..]));
        let Some(Samples::Xyz(samples)) = columns.samples else {
            panic!("gyro samples expected");
        };
        assert_eq!(samples, [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]);
    }

    #[test]
    fn a_key_every_frame_has_is_not_masked() {
        let frames: Vec<_> = (0..3)
            .map(|i| gyro(i, &[("Frame Counter", i as i64)], motion_bytes([0.0; 3])))
            .collect();
        let columns = build(&frames).expect("columns");
        assert_eq!(columns.metadata.len(), 1);
        assert_eq!(columns.metadata[0].present, None);
    }

    #[test]
    fn a_sample_too_short_is_an_error_not_a_made_up_value() {
        let frames = [gyro(0, &[], vec![0; 8])];
        let error = build(&frames).expect_err("8 bytes are no sample");
        assert!(error.to_string().contains("8 bytes"), "{error}");
    }
}
