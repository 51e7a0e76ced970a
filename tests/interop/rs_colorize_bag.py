#!/usr/bin/env python3
"""What librealsense's colorizer (pyrealsense2 2.55 `rs.colorizer`) makes of
one depth frame of a recording, in each colour scheme: the reference the
viewer's depth colours are compared against (cli/tests/view_cloud.rs).

Usage:
    python3 rs_colorize_bag.py BAG FRAME_NUMBER MIN MAX OUT_DIR

The recording is played by librealsense (not in real time, so every
frame comes); the depth frame numbered FRAME_NUMBER goes through a fresh
`rs.colorizer` per case, options set in this order: color_scheme,
min_distance MIN, max_distance MAX, histogram_equalization_enabled.
Writes OUT_DIR/rgb_<scheme>_<0|1>.raw (RGB8, 1 = equalized) for the ten
schemes, and OUT_DIR/depth.raw (the frame's bytes).
"""

import sys
from pathlib import Path

import numpy as np
import pyrealsense2 as rs


def depth_frame(bag, number):
    config = rs.config()
    config.enable_device_from_file(bag, repeat_playback=False)
    pipeline = rs.pipeline()
    profile = pipeline.start(config)
    profile.get_device().as_playback().set_real_time(False)
    try:
        while True:
            frames = pipeline.wait_for_frames(5000)
            depth = frames.get_depth_frame()
            if depth and depth.get_frame_number() == number:
                depth.keep()
                return pipeline, depth
    except RuntimeError as error:
        pipeline.stop()
        raise SystemExit(f"{bag}: no depth frame #{number} ({error})")


def main():
    bag, number, near, far, out = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), Path(sys.argv[5])
    out.mkdir(parents=True, exist_ok=True)
    pipeline, depth = depth_frame(bag, number)
    (out / "depth.raw").write_bytes(np.asanyarray(depth.get_data()).tobytes())
    for scheme in range(10):
        for equalize in (0, 1):
            colorizer = rs.colorizer()
            colorizer.set_option(rs.option.color_scheme, scheme)
            colorizer.set_option(rs.option.min_distance, near)
            colorizer.set_option(rs.option.max_distance, far)
            colorizer.set_option(rs.option.histogram_equalization_enabled, equalize)
            rgb = colorizer.process(depth)
            (out / f"rgb_{scheme}_{equalize}.raw").write_bytes(np.asanyarray(rgb.get_data()).tobytes())
    pipeline.stop()


if __name__ == "__main__":
    main()
