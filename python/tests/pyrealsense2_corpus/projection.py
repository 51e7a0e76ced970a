"""rsutil's projections: depth pixels deprojected to points, moved into
the colour camera and projected onto its image."""
import sys

import pyrealsense2 as rs

pipeline = rs.pipeline()
config = rs.config()
config.enable_device_from_file(sys.argv[1], repeat_playback=False)
profile = pipeline.start(config)
profile.get_device().as_playback().set_real_time(False)
depth_profile = profile.get_stream(rs.stream.depth).as_video_stream_profile()
color_profile = profile.get_stream(rs.stream.color).as_video_stream_profile()
depth_intrinsics = depth_profile.get_intrinsics()
color_intrinsics = color_profile.get_intrinsics()
to_color = depth_profile.get_extrinsics_to(color_profile)

frames = pipeline.wait_for_frames()
depth = frames.get_depth_frame()
results = {"points": [], "pixels": [], "moved": []}
for y in range(0, depth.get_height(), 5):
    for x in range(0, depth.get_width(), 7):
        d = depth.get_distance(x, y)
        point = rs.rs2_deproject_pixel_to_point(depth_intrinsics, [x, y], d)
        moved = rs.rs2_transform_point_to_point(to_color, point)
        results["points"].append(point)
        results["moved"].append(moved)
        if d > 0:
            results["pixels"].append(rs.rs2_project_point_to_pixel(color_intrinsics, moved))
pipeline.stop()
