//! How late `play --ros2` publishes against the recorded pace: a
//! histogram of fixed size however long the playback.

use std::time::Duration;

/// The histogram's resolution.
const BUCKET: Duration = Duration::from_micros(100);
/// Buckets up to a second; later publishes count in the last one.
const BUCKETS: usize = 10_000;

/// Publishes counted by how late they were.
pub struct Lateness {
    buckets: Vec<u64>,
    count: u64,
    max: Duration,
}

impl Default for Lateness {
    fn default() -> Self {
        Lateness {
            buckets: vec![0; BUCKETS],
            count: 0,
            max: Duration::ZERO,
        }
    }
}

impl Lateness {
    /// Count a publish `late` after its time.
    pub fn add(&mut self, late: Duration) {
        let bucket = (late.as_nanos() / BUCKET.as_nanos()) as usize;
        self.buckets[bucket.min(BUCKETS - 1)] += 1;
        self.count += 1;
        self.max = self.max.max(late);
    }

    /// The lateness at or under which a share `q` of the publishes were
    /// (to the bucket's upper bound, at most the largest seen).
    fn quantile(&self, q: f64) -> Duration {
        let wanted = ((self.count as f64 * q).ceil() as u64).max(1);
        let mut seen = 0;
        for (i, n) in self.buckets.iter().enumerate() {
            seen += n;
            if seen >= wanted && i < BUCKETS - 1 {
                return (BUCKET * (i as u32 + 1)).min(self.max);
            }
        }
        self.max
    }

    /// One line for the report, when anything was published on a
    /// schedule.
    pub fn summary(&self) -> Option<String> {
        (self.count > 0).then(|| {
            let ms = |d: Duration| d.as_secs_f64() * 1000.0;
            format!(
                "frames published against the recorded pace: median {:.1} ms, p99 {:.1} ms, max {:.1} ms late ({} frames)",
                ms(self.quantile(0.5)),
                ms(self.quantile(0.99)),
                ms(self.max),
                self.count
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_come_from_the_buckets_and_never_pass_the_largest() {
        let mut lateness = Lateness::default();
        assert_eq!(lateness.summary(), None);
        for us in 0..100 {
            lateness.add(Duration::from_micros(us * 10));
        }
        lateness.add(Duration::from_secs(3));
        assert_eq!(lateness.quantile(0.5), Duration::from_micros(600));
        assert_eq!(lateness.quantile(0.99), Duration::from_micros(1000));
        assert_eq!(lateness.quantile(1.0), Duration::from_secs(3));
        let summary = lateness.summary().expect("a summary");
        assert!(
            summary.contains("median 0.6 ms, p99 1.0 ms, max 3000.0 ms late (101 frames)"),
            "{summary}"
        );
    }
}
