//! Message queries on a [`Bag`]: which connections, which time range,
//! read in order or at random.

use std::collections::BTreeSet;
use std::ops::{Bound, RangeBounds};

use super::index::ChunkInfo;
use super::reader::Bag;
use crate::storage::compression::pool::Decompressors;

impl Bag {
    /// Start a query: choose topics, connections and a time range, then
    /// call [`Query::messages`].
    pub fn query(&self) -> Query<'_> {
        Query {
            bag: self,
            connections: None,
            start: Bound::Unbounded,
            end: Bound::Unbounded,
            random_access: false,
            decompressors: None,
        }
    }
}

/// A message query: which connections, which time range.
#[derive(Debug, Clone)]
pub struct Query<'b> {
    pub(super) bag: &'b Bag,
    pub(super) connections: Option<BTreeSet<u32>>,
    pub(super) start: Bound<u64>,
    pub(super) end: Bound<u64>,
    /// Read for random access: see [`Query::random_access`].
    pub(super) random_access: bool,
    /// The threads to decompress ahead on, shared with other readers: see
    /// [`Query::decompressors`]; threads of its own when `None`.
    pub(super) decompressors: Option<Decompressors>,
}

impl<'b> Query<'b> {
    /// Only messages on these topics (all connections on each).
    pub fn topics<S: AsRef<str>>(self, topics: impl IntoIterator<Item = S>) -> Self {
        let ids: Vec<u32> = topics
            .into_iter()
            .flat_map(|t| {
                let t = t.as_ref().to_owned();
                self.bag
                    .connections()
                    .iter()
                    .filter(move |c| c.topic == t)
                    .map(|c| c.id)
            })
            .collect();
        self.connections(ids)
    }

    /// Only messages on these connection ids.
    pub fn connections(mut self, ids: impl IntoIterator<Item = u32>) -> Self {
        let ids: BTreeSet<u32> = ids.into_iter().collect();
        self.connections = Some(match self.connections {
            Some(existing) => existing.intersection(&ids).copied().collect(),
            None => ids,
        });
        self
    }

    /// Only messages whose time (ns) lies in `range`.
    pub fn time(mut self, range: impl RangeBounds<u64>) -> Self {
        self.start = range.start_bound().cloned();
        self.end = range.end_bound().cloned();
        self
    }

    /// Read the few messages of a random access (a frame fetched by index
    /// or time, then likely its neighbours): compressed chunks come from
    /// and go to the bag's small cache of the chunks decompressed last
    /// ([`RECENT_CHUNKS`]), and no chunk is decompressed ahead on other
    /// threads. Reading in order does without: it decompresses each chunk
    /// once anyway, ahead, into reused buffers.
    pub(crate) fn random_access(mut self) -> Self {
        self.random_access = true;
        self
    }

    /// Decompress ahead on the threads of `decompressors`, shared with
    /// the other readers that read at the same time (the files of a
    /// session), rather than on threads of this query's own.
    pub(crate) fn decompressors(mut self, decompressors: Decompressors) -> Self {
        self.decompressors = Some(decompressors);
        self
    }

    pub(super) fn wants_time(&self, t: u64) -> bool {
        (self.start, self.end).contains(&t)
    }

    pub(super) fn wants_chunk(&self, info: &ChunkInfo) -> bool {
        let ends_after_start = match self.start {
            Bound::Included(a) => info.end_time >= a,
            Bound::Excluded(a) => info.end_time > a,
            Bound::Unbounded => true,
        };
        let starts_before_end = match self.end {
            Bound::Included(b) => info.start_time <= b,
            Bound::Excluded(b) => info.start_time < b,
            Bound::Unbounded => true,
        };
        let has_connection = match &self.connections {
            None => true,
            Some(ids) => info
                .connection_counts
                .iter()
                .any(|(id, n)| *n > 0 && ids.contains(id)),
        };
        ends_after_start && starts_before_end && has_connection
    }
}
