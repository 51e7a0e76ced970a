//! `--to kalibr`: the IMU samples as one `imu.csv` in the format of EuRoC
//! datasets (`imu0/data.csv`), which Kalibr's `kalibr_bagcreater` turns
//! into its bag: a header line, then nanoseconds, angular velocity and
//! linear acceleration per row, time-ordered.

use std::collections::BTreeSet;
use std::fs::File;
use std::io::{BufWriter, Write};

use rsbag::device::{Format, Frame, StreamId, StreamKind, StreamProfile};
use rsbag::processing::{combined_motion, Dropped, ImuRow, ImuUniter};
use rsbag::{Error, Result};

use super::{OutputDir, Writer};

/// The file written.
const NAME: &str = "imu.csv";

/// EuRoC's header, which Kalibr's tools expect (and skip).
pub(super) const HEADER: &str = "#timestamp [ns],w_RS_S_x [rad s^-1],w_RS_S_y [rad s^-1],w_RS_S_z [rad s^-1],a_RS_S_x [m s^-2],a_RS_S_y [m s^-2],a_RS_S_z [m s^-2]";

/// What `--to kalibr` reads: gyro and accel samples, or combined motion.
pub(super) fn accepts(profile: &StreamProfile) -> std::result::Result<(), &'static str> {
    match (profile.stream.kind, profile.format) {
        (StreamKind::Gyro | StreamKind::Accel, Format::MotionXyz32f) => Ok(()),
        (StreamKind::Motion, Format::CombinedMotion) => Ok(()),
        _ => Err("not gyro or accel samples"),
    }
}

/// An error unless `streams` are one Gyro and one Accel stream, or one
/// Motion stream: the rows of one IMU.
pub(super) fn check_streams(streams: &BTreeSet<StreamId>) -> Result<()> {
    let count = |kind| streams.iter().filter(|s| s.kind == kind).count();
    let (gyro, accel, motion) = (
        count(StreamKind::Gyro),
        count(StreamKind::Accel),
        count(StreamKind::Motion),
    );
    if (gyro, accel, motion) == (1, 1, 0) || (gyro, accel, motion) == (0, 0, 1) {
        return Ok(());
    }
    let names: Vec<String> = streams.iter().map(|s| s.to_string()).collect();
    Err(Error::InvalidArgument(format!(
        "--to kalibr needs one Gyro and one Accel stream, or one Motion stream \
         (choose with --streams); the recording has {}",
        names.join(", ")
    )))
}

impl Writer<'_> {
    /// Take an IMU sample; write the rows it completes.
    pub(super) fn imu_sample(&mut self, frame: &Frame) -> Result<()> {
        let imu = match &mut self.imu {
            Some(imu) => imu,
            None => self.imu.insert(ImuCsv::create(self.dir)?),
        };
        imu.add(frame, self.dir)
    }
}

/// `imu.csv` being written.
pub(super) struct ImuCsv {
    file: BufWriter<File>,
    uniter: ImuUniter,
    /// The last row's timestamp: rows go strictly forward.
    last_ns: Option<u64>,
    rows: u64,
    /// Combined-motion samples whose timestamp does not go forward.
    out_of_order: u64,
}

impl ImuCsv {
    fn create(dir: &OutputDir) -> Result<ImuCsv> {
        Ok(ImuCsv {
            file: dir.create_csv(NAME, HEADER)?,
            uniter: ImuUniter::new(),
            last_ns: None,
            rows: 0,
            out_of_order: 0,
        })
    }

    fn add(&mut self, frame: &Frame, dir: &OutputDir) -> Result<()> {
        let not_a_sample = || {
            Error::InvalidArgument(format!(
                "frame #{} of {} holds {} bytes, not a {} sample",
                frame.number,
                frame.profile.stream,
                frame.data.len(),
                frame.profile.format
            ))
        };
        match frame.profile.stream.kind {
            StreamKind::Motion => {
                let row = combined_motion(frame).ok_or_else(not_a_sample)?;
                self.write(&row, dir)?;
            }
            kind => {
                let sample = frame.motion().ok_or_else(not_a_sample)?;
                match kind {
                    StreamKind::Gyro => self.uniter.push_gyro(frame.timestamp, sample),
                    _ => self.uniter.push_accel(frame.timestamp, sample),
                }
            }
        }
        while let Some(row) = self.uniter.pop() {
            self.write(&row, dir)?;
        }
        Ok(())
    }

    fn write(&mut self, row: &ImuRow, dir: &OutputDir) -> Result<()> {
        let ns = row.timestamp_ns().ok_or_else(|| {
            Error::InvalidArgument(format!(
                "an IMU sample at {} ms: a timestamp Kalibr cannot take",
                row.timestamp_ms
            ))
        })?;
        if self.last_ns.is_some_and(|last| ns <= last) {
            self.out_of_order += 1;
            return Ok(());
        }
        self.last_ns = Some(ns);
        self.rows += 1;
        let [gx, gy, gz] = row.gyro;
        let [ax, ay, az] = row.accel;
        // kalibr_bagcreater takes the seconds as all but the last nine
        // digits: under 1 s it needs the zeros.
        writeln!(self.file, "{ns:010},{gx},{gy},{gz},{ax},{ay},{az}")
            .map_err(|e| dir.error(NAME, e))
    }

    /// Write the last rows; what the report says about the file.
    pub(super) fn finish(mut self, dir: &OutputDir) -> Result<String> {
        let uniter = std::mem::take(&mut self.uniter);
        let (rows, dropped) = uniter.finish();
        for row in &rows {
            self.write(row, dir)?;
        }
        self.file.flush().map_err(|e| dir.error(NAME, e))?;
        let Dropped {
            before_accel,
            after_accel,
            out_of_order,
        } = dropped;
        Ok(format!(
            "{NAME}: {} rows; dropped {before_accel} gyro samples before the first accel sample, \
             {after_accel} after the last, {} with a repeated or backward timestamp",
            self.rows,
            out_of_order + self.out_of_order
        ))
    }
}
