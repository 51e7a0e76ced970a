//! The topics of a rosbag2 storage file (`.db3` or MCAP) with what its
//! index says of each: message count and time span, read once at open.

use crate::storage::connection::position_of;
use crate::storage::Connection;

/// What a rosbag2 index says of one topic's messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) struct TopicStats {
    /// Messages on the topic.
    pub(super) count: u64,
    /// The first and last timestamp of its messages, if it has any.
    pub(super) span: Option<(u64, u64)>,
}

/// Every topic of a file, by id, each with its [`TopicStats`].
#[derive(Debug, Default)]
pub(super) struct Topics {
    connections: Vec<Connection>,
    stats: Vec<TopicStats>,
}

impl Topics {
    /// The table of `topics`, in any order.
    pub(super) fn new(mut topics: Vec<(Connection, TopicStats)>) -> Topics {
        topics.sort_by_key(|(c, _)| c.id);
        let (connections, stats) = topics.into_iter().unzip();
        Topics { connections, stats }
    }

    pub(super) fn all(&self) -> &[Connection] {
        &self.connections
    }

    pub(super) fn get(&self, id: u32) -> Option<&Connection> {
        position_of(&self.connections, id).map(|i| &self.connections[i])
    }

    pub(super) fn count(&self, id: u32) -> u64 {
        position_of(&self.connections, id).map_or(0, |i| self.stats[i].count)
    }

    pub(super) fn total_count(&self) -> u64 {
        self.stats.iter().map(|s| s.count).sum()
    }

    /// The first and last timestamp of the messages on `ids`.
    pub(super) fn span(&self, ids: &[u32]) -> Option<(u64, u64)> {
        ids.iter()
            .filter_map(|&id| self.stats[position_of(&self.connections, id)?].span)
            .reduce(|(a, b), (c, d)| (a.min(c), b.max(d)))
    }
}
