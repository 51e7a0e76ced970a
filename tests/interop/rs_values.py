#!/usr/bin/env python3
"""The values in a recording as the real librealsense (pyrealsense2 2.55.1)
plays them, the reference for `rsbag convert --to csv|npy|kalibr`.

Usage:
    python3 rs_values.py BAG --depth    # one JSON line per depth frame
    python3 rs_values.py BAG --kalibr   # the rows imu.csv should hold

--depth: {"frame_number", "timestamp", "units", "width", "height",
"meters": [...], "raw": [...]}, sorted by frame number: `units` is
depth_frame.get_units(), `meters` every pixel's depth_frame.get_distance(x,
y) row by row (librealsense's own raw x units, a float32), `raw` the Z16
values (numpy over frame.get_data()).

--kalibr: {"ns", "gyro": [3], "accel": [3]} per gyro sample inside the accel
samples' time range, in time order: ns is the gyro timestamp (ms) x 1e6
rounded, gyro the motion data as played, accel numpy.interp of the played
accel samples at the gyro timestamp, per axis.
"""

import argparse
import json
import sys

import numpy as np
import pyrealsense2 as rs

from rs_play import play_frames


def depth_values(frame):
    if not frame.is_depth_frame():
        return {}
    depth = frame.as_depth_frame()
    width, height = depth.get_width(), depth.get_height()
    return {
        "units": depth.get_units(),
        "width": width,
        "height": height,
        "meters": [depth.get_distance(x, y) for y in range(height) for x in range(width)],
        "raw": np.asanyarray(depth.get_data()).ravel().tolist(),
    }


def motion_values(frame):
    if not frame.is_motion_frame():
        return {}
    data = frame.as_motion_frame().get_motion_data()
    return {"xyz": [data.x, data.y, data.z]}


def kalibr_rows(frames):
    def samples(stream):
        chosen = sorted((f for f in frames if f["stream"] == stream), key=lambda f: f["timestamp"])
        return (np.array([f["timestamp"] for f in chosen]),
                np.array([f["xyz"] for f in chosen], dtype=np.float64))

    gyro_t, gyro = samples("Gyro")
    accel_t, accel = samples("Accel")
    inside = (gyro_t >= accel_t[0]) & (gyro_t <= accel_t[-1])
    times = gyro_t[inside]
    united = np.stack([np.interp(times, accel_t, accel[:, axis]) for axis in range(3)], axis=1)
    for t, g, a in zip(times, gyro[inside], united):
        yield {"ns": int(round(t * 1e6)), "gyro": g.tolist(), "accel": a.tolist()}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("bag")
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--depth", action="store_true", help="depth frames' values")
    what.add_argument("--kalibr", action="store_true", help="gyro with interpolated accel")
    args = parser.parse_args()
    if args.depth:
        lines = [f for f in play_frames(args.bag, extra=depth_values) if f["stream"] == "Depth"]
    else:
        lines = kalibr_rows(play_frames(args.bag, extra=motion_values))
    for line in lines:
        sys.stdout.write(json.dumps(line) + "\n")


if __name__ == "__main__":
    main()
