"""Depth in metres: get_distance over a grid of pixels and get_units, as
the distance examples read it, and numpy's view of the same frame."""
import sys

import numpy as np
import pyrealsense2 as rs

pipeline = rs.pipeline()
config = rs.config()
config.enable_device_from_file(sys.argv[1], repeat_playback=False)
config.enable_stream(rs.stream.depth)
profile = pipeline.start(config)
profile.get_device().as_playback().set_real_time(False)
scale = profile.get_device().first_depth_sensor().get_depth_scale()

results = {"scale": scale, "frames": []}
while True:
    ok, frames = pipeline.try_wait_for_frames(1000)
    if not ok:
        break
    depth = frames.get_depth_frame()
    if not depth:
        continue
    w, h = depth.get_width(), depth.get_height()
    grid = [(x, y) for y in range(0, h, max(1, h // 7)) for x in range(0, w, max(1, w // 9))]
    metres = np.asanyarray(depth.get_data()) * scale
    results["frames"].append({
        "number": depth.get_frame_number(),
        "units": depth.get_units(),
        "distances": [depth.get_distance(x, y) for x, y in grid],
        "centre": depth.as_depth_frame().get_distance(w // 2, h // 2),
        "metres": metres,
        "mean": float(metres.mean()),
    })
try:
    depth.get_distance(w, 0)
    results["outside"] = "no error"
except RuntimeError:
    results["outside"] = "RuntimeError"
pipeline.stop()
