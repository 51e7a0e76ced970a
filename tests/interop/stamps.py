"""Timestamps as recorded, shared by the scripts that print librealsense's
frames (rs_play.py) and the tests that compare them."""

import math


def as_recorded(ms):
    """A timestamp librealsense read from a ROS time as the time recorded.

    librealsense reads the stamp (sec, nsec) as (sec + 1e-9 * nsec) * 1000
    ms, so the stamp 1.005000000 s plays as 1004.9999999999999: where `ms` is
    such a reading, the float nearest the stamp's exact decimal; any other
    value as it is."""
    secs = ms / 1000.0
    if not math.isfinite(secs) or secs <= 0:
        return ms
    sec = math.floor(secs)
    nsec = math.floor((secs - sec) * 1e9 + 0.5)  # C's round(), as ros::Time
    sec, nsec = sec + nsec // 10**9, nsec % 10**9
    if (sec + 1e-9 * nsec) * 1000.0 != ms:
        return ms
    return float(f"{sec * 1000 + nsec // 10**6}.{nsec % 10**6:06d}")
