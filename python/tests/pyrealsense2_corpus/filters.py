"""The post-processing filters, as the depth filters notebook chains them,
and each alone with its options set."""
import sys

import numpy as np
import pyrealsense2 as rs

pipeline = rs.pipeline()
config = rs.config()
config.enable_device_from_file(sys.argv[1], repeat_playback=False)
config.enable_stream(rs.stream.depth)
profile = pipeline.start(config)
profile.get_device().as_playback().set_real_time(False)

decimation = rs.decimation_filter()
decimation.set_option(rs.option.filter_magnitude, 2)
depth_to_disparity = rs.disparity_transform(True)
spatial = rs.spatial_filter()
spatial.set_option(rs.option.filter_magnitude, 3)
spatial.set_option(rs.option.filter_smooth_alpha, 0.6)
spatial.set_option(rs.option.filter_smooth_delta, 8)
temporal = rs.temporal_filter()
disparity_to_depth = rs.disparity_transform(False)
hole_filling = rs.hole_filling_filter()

singles = {
    "decimation3": rs.decimation_filter(3),
    "decimation4": rs.decimation_filter(4),
    "threshold": rs.threshold_filter(0.5, 2.0),
    "threshold_default": rs.threshold_filter(),
    "spatial_default": rs.spatial_filter(),
    "spatial_args": rs.spatial_filter(0.4, 30, 2, 0),
    "temporal_args": rs.temporal_filter(0.3, 40, 5),
    "hole0": rs.hole_filling_filter(0),
    "hole1": rs.hole_filling_filter(1),
    "hole2": rs.hole_filling_filter(2),
}
threshold = rs.threshold_filter()
threshold.set_option(rs.option.min_distance, 1.0)
threshold.set_option(rs.option.max_distance, 3.0)
singles["threshold_set"] = threshold
temporal_set = rs.temporal_filter()
temporal_set.set_option(rs.option.filter_smooth_alpha, 0.5)
temporal_set.set_option(rs.option.holes_fill, 8)
singles["temporal_set"] = temporal_set

results = {"frames": [], "options": [decimation.get_option(rs.option.filter_magnitude),
                                     spatial.get_option(rs.option.filter_smooth_alpha),
                                     temporal.get_option(rs.option.holes_fill)]}
while True:
    ok, frames = pipeline.try_wait_for_frames(1000)
    if not ok:
        break
    depth = frames.get_depth_frame()
    if not depth:
        continue
    filtered = decimation.process(depth)
    filtered = depth_to_disparity.process(filtered)
    disparity = np.asanyarray(filtered.get_data()).copy()
    filtered = spatial.process(filtered)
    filtered = temporal.process(filtered)
    filtered = disparity_to_depth.process(filtered)
    filtered = hole_filling.process(filtered)
    out = filtered.as_depth_frame()
    i = out.get_profile().as_video_stream_profile().get_intrinsics()
    entry = {"number": depth.get_frame_number(), "disparity": disparity,
             "chain": np.asanyarray(out.get_data()).copy(),
             "chain_size": [out.get_width(), out.get_height()],
             "chain_intrinsics": [i.width, i.height, i.ppx, i.ppy, i.fx, i.fy],
             "chain_distance": out.get_distance(out.get_width() // 3, out.get_height() // 3)}
    for name, f in singles.items():
        got = f.process(depth).as_depth_frame()
        entry[name] = np.asanyarray(got.get_data()).copy()
    results["frames"].append(entry)
pipeline.stop()
