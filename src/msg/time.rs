//! The ROS1 `time` primitive.

/// A ROS1 `time`: seconds and nanoseconds, each a `u32` on the wire.
///
/// librealsense stores frame timestamps (milliseconds in the device's time
/// domain) in `Header::stamp` this way: 5011.111 ms is 5 s 11111000 ns.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Time {
    /// Whole seconds.
    pub sec: u32,
    /// Nanoseconds within the second (not checked to be below 10⁹).
    pub nsec: u32,
}

impl Time {
    /// A time of `sec` seconds and `nsec` nanoseconds.
    pub const fn new(sec: u32, nsec: u32) -> Self {
        Time { sec, nsec }
    }

    /// The time as nanoseconds.
    pub const fn as_nanos(self) -> u64 {
        self.sec as u64 * 1_000_000_000 + self.nsec as u64
    }

    /// The time `nanos` nanoseconds after zero, or `None` if the seconds do
    /// not fit in a `u32`.
    pub fn from_nanos(nanos: u64) -> Option<Self> {
        let sec = u32::try_from(nanos / 1_000_000_000).ok()?;
        // The remainder is below 10⁹ and fits.
        let nsec = (nanos % 1_000_000_000) as u32;
        Some(Time { sec, nsec })
    }
}

#[cfg(test)]
mod tests {
    use super::Time;

    #[test]
    fn nanos_round_trip() {
        let t = Time::new(5, 11_111_000);
        assert_eq!(t.as_nanos(), 5_011_111_000);
        assert_eq!(Time::from_nanos(5_011_111_000), Some(t));
        assert_eq!(Time::from_nanos(u64::MAX), None);
        let max = Time::new(u32::MAX, 999_999_999);
        assert_eq!(Time::from_nanos(max.as_nanos()), Some(max));
    }
}
