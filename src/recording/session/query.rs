//! Choosing a session's frames: streams and a time range.

use std::ops::{Bound, RangeBounds};
use std::time::Duration;

use crate::device::StreamId;
use crate::recording::reader::FrameQuery;
use crate::storage::Decompressors;
use crate::{Error, Result};

use super::frames::{FileCursor, Head, ReadFront};
use super::{
    duration_ms, ms, FramesetOptions, Session, SessionClock, SessionFrame, SessionFrameSets,
    SessionFrames, REORDER_WINDOW,
};

/// Which frames of a session to read: streams and a time range.
#[derive(Debug, Clone)]
pub struct SessionQuery<'s> {
    pub(super) session: &'s Session,
    pub(super) streams: Option<Vec<StreamId>>,
    pub(super) start: Bound<Duration>,
    pub(super) end: Bound<Duration>,
}

impl<'s> SessionQuery<'s> {
    /// Only these streams, in every file that has them (all streams if
    /// never called). A stream no file has is an error when reading.
    pub fn streams(mut self, streams: impl IntoIterator<Item = StreamId>) -> Self {
        self.streams = Some(streams.into_iter().collect());
        self
    }

    /// Only frames in `range`, times since the session's first frame on
    /// its clock.
    pub fn time(mut self, range: impl RangeBounds<Duration>) -> Self {
        self.start = range.start_bound().cloned();
        self.end = range.end_bound().cloned();
        self
    }

    /// The frames, in time order on the session's clock.
    pub fn frames(self) -> Result<SessionFrames<'s>> {
        let session = self.session;
        let (start, end) = self.bounds_ms();
        let window = self.window_ms();
        // One set of threads decompresses ahead for all the files: a set
        // each would run more threads than cores, each with its buffers.
        let decompressors = Decompressors::default();
        let mut cursors = Vec::new();
        for (index, query) in self.file_queries()? {
            let file = &session.files[index];
            let query = query.decompressors(decompressors.clone());
            let streams = ReadFront::new(query.frame_counts()?);
            let frames = query.frames()?;
            cursors.push(FileCursor {
                file: index,
                path: &file.path,
                clock: session.clock,
                offset_ms: file.offset_ms,
                window_ms: window,
                frames,
                streams,
                held: Vec::new(),
                earliest: None,
                read_to: f64::NEG_INFINITY,
                order: 0,
                done: false,
            });
        }
        Ok(SessionFrames {
            heads: vec![Head::Unread; cursors.len()],
            cursors,
            start,
            end,
            last_ms: f64::NEG_INFINITY,
            out_of_order: 0,
        })
    }

    /// At most how many frames [`frames`](Self::frames) delivers: each
    /// file's frames of the chosen streams (by its index) at the file's
    /// times that can hold frames of the range, which take in up to
    /// [`REORDER_WINDOW`] either side. A progress bar's length; the whole
    /// session's count without a range.
    pub fn frame_count_bound(&self) -> Result<u64> {
        let mut count = 0;
        for (_, query) in self.file_queries()? {
            count += query.frame_counts()?.values().sum::<u64>();
        }
        Ok(count)
    }

    /// The range on the session's clock (offset included), in ms.
    fn bounds_ms(&self) -> (Bound<f64>, Bound<f64>) {
        let origin = self.session.start_ms().unwrap_or(0.0);
        let bound_ms = |b: Bound<Duration>| b.map(|d| origin + ms(d));
        (bound_ms(self.start), bound_ms(self.end))
    }

    /// How far a file's frames can be out of time order, in ms of the
    /// file: none on the recording-start clock (its time is the file's).
    fn window_ms(&self) -> f64 {
        match self.session.clock {
            SessionClock::RecordingStart => 0.0,
            _ => ms(REORDER_WINDOW),
        }
    }

    /// The query of each file with frames to read (by its place in the
    /// session): its chosen streams, at its own times that can hold frames
    /// of the range.
    fn file_queries(&self) -> Result<Vec<(usize, FrameQuery<'s>)>> {
        let session = self.session;
        if let Some(streams) = &self.streams {
            for &s in streams {
                if !session
                    .files
                    .iter()
                    .any(|f| f.reader.streams().contains(&s))
                {
                    return Err(Error::InvalidArgument(format!(
                        "no recording of the session has a {s} stream"
                    )));
                }
            }
        }
        let (start, end) = self.bounds_ms();
        let window = self.window_ms();
        let mut queries = Vec::new();
        for (index, file) in session.files.iter().enumerate() {
            let reader = &file.reader;
            let mut query = reader.select();
            if let Some(streams) = &self.streams {
                let mine: Vec<StreamId> = (reader.streams().into_iter())
                    .filter(|s| streams.contains(s))
                    .collect();
                if mine.is_empty() {
                    continue;
                }
                query = query.streams(mine);
            }
            // The file's own times that can hold frames of the range.
            let (lo, hi) = file.lead_ms;
            let from = match start {
                Bound::Unbounded => Bound::Unbounded,
                Bound::Included(t) | Bound::Excluded(t) => {
                    Bound::Included(duration_ms(t - hi - window))
                }
            };
            let to = match end {
                Bound::Unbounded => Bound::Unbounded,
                Bound::Included(t) | Bound::Excluded(t) => {
                    let t = t - lo + window;
                    if t < 0.0 {
                        continue;
                    }
                    Bound::Included(duration_ms(t))
                }
            };
            queries.push((index, query.time((from, to))));
        }
        Ok(queries)
    }

    /// Frames grouped by moment across cameras (see [`SessionFrameSets`]);
    /// `options.streams` chooses the streams, this query's streams are
    /// not used.
    pub fn framesets(self, options: FramesetOptions) -> Result<SessionFrameSets<'s>> {
        SessionFrameSets::new(self, options, None)
    }

    /// [`framesets`](Self::framesets) whose every frame read first goes
    /// through `each`, which may change it: those that join no set too,
    /// each stream's in its recorded order, as a chain of filters for each
    /// camera needs them (librealsense filters each file's every frame, in
    /// order). An error of `each` is yielded, and the sets go on.
    ///
    /// ```no_run
    /// # use rsbag::recording::{FramesetOptions, Session};
    /// # use rsbag::processing::filters::FilterSpec;
    /// # fn main() -> rsbag::Result<()> {
    /// let session = Session::open(["left.bag", "right.bag"])?;
    /// let filtered = session.filter_each_camera(&[FilterSpec::parse("temporal")?]);
    /// for set in session.select().framesets_with(FramesetOptions::default(), filtered)? {
    ///     let set = set?;
    ///     println!("{} frames at {:.3} ms", set.frames.len(), set.time_ms);
    /// }
    /// # Ok(())
    /// # }
    /// ```
    pub fn framesets_with(
        self,
        options: FramesetOptions,
        each: impl FnMut(SessionFrame) -> Result<SessionFrame> + Send + 's,
    ) -> Result<SessionFrameSets<'s>> {
        SessionFrameSets::new(self, options, Some(Box::new(each)))
    }
}
