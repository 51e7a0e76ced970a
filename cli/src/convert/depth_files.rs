//! Depth frames as numbers: `--to csv` (a matrix of meters, as rs-convert
//! `-v` writes) and `--to npy` (NumPy arrays of meters or raw units).

use std::fmt::Write as _;
use std::io::Write;

use rsbag::device::Frame;
use rsbag::playback::RecordedFrame;
use rsbag::processing::{depth_meters, depth_raw};
use rsbag::Result;

use super::{npy, Writer, INDEX};

/// The header of `frames.csv` when its files hold depth values: the
/// usual columns and the depth units they were made with.
const DEPTH_INDEX_HEADER: &str =
    "file,stream,frame_number,timestamp_ms,domain,format,width,height,stride,depth_units_m";

impl Writer<'_> {
    /// `Depth_NUMBER.csv`: one line per image row, meters.
    pub(super) fn depth_csv(&mut self, recorded: &RecordedFrame) -> Result<()> {
        let frame = &recorded.frame;
        let units = self.depth_units(recorded.sensor);
        let depth = depth_meters(frame, units)?;
        let name = self.file_name(frame, "", "csv");
        let mut file = self.dir.create_file(&name)?;
        let mut line = String::new();
        let mut write = || -> std::io::Result<()> {
            for row in depth.values.chunks(depth.width as usize) {
                line.clear();
                for (i, meters) in row.iter().enumerate() {
                    let comma = if i == 0 { "" } else { "," };
                    let _ = write!(line, "{comma}{meters}");
                }
                line.push('\n');
                file.write_all(line.as_bytes())?;
            }
            file.flush()
        };
        write().map_err(|e| self.dir.error(&name, e))?;
        self.indexed_depth(&name, frame, units)
    }

    /// `Depth_NUMBER.npy`: float32 meters, or uint16 raw with `--npy-raw`.
    pub(super) fn depth_npy(&mut self, recorded: &RecordedFrame) -> Result<()> {
        let frame = &recorded.frame;
        let units = self.depth_units(recorded.sensor);
        let (shape, descr, bytes): (_, _, Vec<u8>) = if self.npy_raw {
            let raw = depth_raw(frame)?;
            let shape = [raw.height as usize, raw.width as usize];
            (
                shape,
                "<u2",
                raw.values.iter().flat_map(|v| v.to_le_bytes()).collect(),
            )
        } else {
            let meters = depth_meters(frame, units)?;
            let shape = [meters.height as usize, meters.width as usize];
            (
                shape,
                "<f4",
                meters.values.iter().flat_map(|v| v.to_le_bytes()).collect(),
            )
        };
        let name = self.file_name(frame, "", "npy");
        let mut file = self.dir.create_file(&name)?;
        file.write_all(&npy::header(descr, &shape))
            .and_then(|()| file.write_all(&bytes))
            .and_then(|()| file.flush())
            .map_err(|e| self.dir.error(&name, e))?;
        self.indexed_depth(&name, frame, units)
    }

    /// Add a line for depth file `name` to `frames.csv`, with the depth
    /// units (a run writes either depth files or images, never both, so
    /// the index has one header).
    fn indexed_depth(&mut self, name: &str, frame: &Frame, units: f32) -> Result<()> {
        let mut index = match self.index.take() {
            Some(index) => index,
            None => self.dir.create_csv(INDEX, DEPTH_INDEX_HEADER)?,
        };
        let (width, height) = frame.resolution().unwrap_or((0, 0));
        let line = writeln!(
            index,
            "{name},{},{},{},{},{},{width},{height},{},{units}",
            frame.profile.stream,
            frame.number,
            frame.timestamp,
            frame.domain,
            frame.profile.format,
            frame.stride
        );
        self.index = Some(index);
        line.map_err(|e| self.dir.error(INDEX, e))
    }
}
