#!/usr/bin/env python3
"""The RealSense ROS wrapper's united IMU samples (`unite_imu_method`) of a
recording's gyro and accel samples as the real librealsense (pyrealsense2
2.55.1) plays them: the reference for `rsbag play --ros2 --unite-imu` and
`rsbag convert --to ros2 --unite-imu`.

Usage:
    python3 rs_united_imu.py BAG linear_interpolation|copy

The wrapper unites samples in the order the camera delivers them. The
recordings of rs_record.py are fed in timestamp order, so that order is
the samples' timestamp order here. Each sample's time is its timestamp (ms)
in ns, whole milliseconds and their fraction apart, rounded (the header
stamp rsbag gives it; an f64 of ms since the epoch holds no finer). The uniting is
realsense-ros 4.x's, transcribed from BaseRealSenseNode (base_realsense_node.cpp):

- copy (FillImuData_Copy): an accel sample becomes the latest; a gyro
  sample, once an accel sample with a positive time exists, gives one
  message with the latest accel vector;
- linear_interpolation (FillImuData_LinearInterpolation): samples go into a
  history; on an accel sample, with at least 3 in the history, it is walked
  in order: the first accel sample is accel0, gyro samples at or after
  accel0 are held, the next accel sample (accel1) gives each held gyro
  sample accel0 * (1 - a) + accel1 * a, a = (t_gyro - t_accel0) /
  (t_accel1 - t_accel0), and becomes accel0; the last sample walked stays
  in the history.

Prints one JSON line per message, in publishing order: {"stamp_ns",
"angular_velocity": [3], "linear_acceleration": [3]}.
"""

import json
import math
import sys
from collections import deque

import pyrealsense2 as rs  # noqa: F401  (the reference is this version's playback)

from rs_play import play_frames


def motion(frame):
    if not frame.is_motion_frame():
        return {}
    d = frame.as_motion_frame().get_motion_data()
    return {"xyz": [d.x, d.y, d.z]}


def stamp_ns(ms):
    """Timestamp `ms` in ns: whole ms and their fraction apart, the
    fraction's ns rounded half away from zero."""
    whole = math.floor(ms)
    ns = (ms - whole) * 1e6
    below = math.floor(ns)
    return whole * 1_000_000 + below + (1 if ns - below >= 0.5 else 0)


def message(gyro, accel_xyz):
    return {"stamp_ns": gyro["ns"], "angular_velocity": list(gyro["xyz"]),
            "linear_acceleration": list(accel_xyz)}


def copy(samples):
    accel = None
    for s in samples:
        if s["kind"] == "Accel":
            accel = s
        elif accel is not None and accel["t"] > 0:
            yield message(s, accel["xyz"])


def linear_interpolation(samples):
    history = deque()
    for s in samples:
        history.append(s)
        if s["kind"] != "Accel" or len(history) < 3:
            continue
        gyros, accel0, current = deque(), None, None
        while history:
            current = history.popleft()
            is_set = accel0 is not None and accel0["t"] > 0
            if not is_set and current["kind"] == "Accel":
                accel0 = current
            elif is_set and current["kind"] == "Accel":
                accel1 = current
                dt = accel1["t"] - accel0["t"]
                while gyros:
                    g = gyros.popleft()
                    a = (g["t"] - accel0["t"]) / dt
                    yield message(g, [x0 * (1.0 - a) + x1 * a
                                      for x0, x1 in zip(accel0["xyz"], accel1["xyz"])])
                accel0 = accel1
            elif is_set and current["t"] >= accel0["t"] and current["kind"] == "Gyro":
                gyros.append(current)
        history.append(current)


def main():
    bag, method = sys.argv[1], sys.argv[2]
    frames = [f for f in play_frames(bag, extra=motion) if f["stream"] in ("Gyro", "Accel")]
    samples = []
    for f in frames:
        ns = stamp_ns(f["timestamp"])
        samples.append({"kind": f["stream"], "ns": ns, "t": float(ns),
                        "xyz": [float(v) for v in f["xyz"]]})
    samples.sort(key=lambda s: s["ns"])
    unite = {"copy": copy, "linear_interpolation": linear_interpolation}[method]
    for line in unite(samples):
        sys.stdout.write(json.dumps(line) + "\n")


if __name__ == "__main__":
    main()
