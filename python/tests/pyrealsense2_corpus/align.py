"""align-depth2color.py's way: depth aligned to colour (and colour to
depth), to numpy, with the background removed beyond a distance."""
import sys

import numpy as np
import pyrealsense2 as rs

pipeline = rs.pipeline()
config = rs.config()
config.enable_device_from_file(sys.argv[1], repeat_playback=False)
config.enable_stream(rs.stream.depth, rs.format.z16, 30)
config.enable_stream(rs.stream.color, rs.format.rgb8, 30)
profile = pipeline.start(config)
profile.get_device().as_playback().set_real_time(False)
depth_scale = profile.get_device().first_depth_sensor().get_depth_scale()
clipping_distance = 1.5 / depth_scale

align = rs.align(rs.stream.color)
to_depth = rs.align(rs.stream.depth)
results = {"framesets": []}
while True:
    ok, frames = pipeline.try_wait_for_frames(1000)
    if not ok:
        break
    aligned_frames = align.process(frames)
    aligned_depth_frame = aligned_frames.get_depth_frame()
    color_frame = aligned_frames.get_color_frame()
    if not aligned_depth_frame or not color_frame:
        continue
    depth_image = np.asanyarray(aligned_depth_frame.get_data())
    color_image = np.asanyarray(color_frame.get_data())
    grey_color = 153
    depth_image_3d = np.dstack((depth_image, depth_image, depth_image))
    bg_removed = np.where((depth_image_3d > clipping_distance) | (depth_image_3d <= 0),
                          grey_color, color_image)
    i = aligned_depth_frame.get_profile().as_video_stream_profile().get_intrinsics()
    back = to_depth.process(frames)
    results["framesets"].append({
        "size": aligned_frames.size(),
        "depth": depth_image.copy(), "bg_removed": bg_removed,
        "depth_number": aligned_depth_frame.get_frame_number(),
        "depth_size": [aligned_depth_frame.get_width(), aligned_depth_frame.get_height()],
        "depth_intrinsics": [i.width, i.height, i.ppx, i.ppy, i.fx, i.fy],
        "distance": aligned_depth_frame.get_distance(i.width // 2, i.height // 2),
        "color_to_depth": np.asanyarray(back.get_color_frame().get_data()).copy(),
        "color_to_depth_size": [back.get_color_frame().get_width(),
                                back.get_color_frame().get_height()],
    })
pipeline.stop()
