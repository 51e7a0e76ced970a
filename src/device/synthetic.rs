//! The synthetic device (being written).
