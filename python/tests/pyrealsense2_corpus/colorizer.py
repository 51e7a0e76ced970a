"""rs.colorizer: the default picture, every colour scheme, a fixed range
without histogram equalization, and the visual presets."""
import sys

import numpy as np
import pyrealsense2 as rs

pipeline = rs.pipeline()
config = rs.config()
config.enable_device_from_file(sys.argv[1], repeat_playback=False)
profile = pipeline.start(config)
profile.get_device().as_playback().set_real_time(False)

colorizer = rs.colorizer()
schemes = [rs.colorizer(scheme) for scheme in range(10)]
fixed = rs.colorizer()
fixed.set_option(rs.option.histogram_equalization_enabled, 0)
fixed.set_option(rs.option.min_distance, 0.5)
fixed.set_option(rs.option.max_distance, 2.5)
presets = []
for preset in range(4):
    c = rs.colorizer()
    c.set_option(rs.option.visual_preset, preset)
    presets.append(c)

results = {"frames": [], "options": [colorizer.get_option(rs.option.color_scheme),
                                     fixed.get_option(rs.option.max_distance)]}
for _ in range(3):
    ok, frames = pipeline.try_wait_for_frames(1000)
    if not ok:
        break
    depth = frames.get_depth_frame()
    picture = colorizer.colorize(depth)
    entry = {"default": np.asanyarray(picture.get_data()).copy(),
             "format": str(picture.get_profile().format()),
             "size": [picture.get_width(), picture.get_height()],
             "processed": np.asanyarray(colorizer.process(depth).get_data()).copy(),
             "schemes": [np.asanyarray(c.colorize(depth).get_data()).copy() for c in schemes],
             "fixed": np.asanyarray(fixed.colorize(depth).get_data()).copy(),
             "presets": [np.asanyarray(c.colorize(depth).get_data()).copy() for c in presets]}
    results["frames"].append(entry)
pipeline.stop()
