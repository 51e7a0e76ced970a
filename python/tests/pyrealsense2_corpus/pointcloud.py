"""export_ply_example.py and the point cloud examples: vertices and
texture coordinates to numpy, and the PLY file."""
import os
import sys

import numpy as np
import pyrealsense2 as rs

pipeline = rs.pipeline()
config = rs.config()
config.enable_device_from_file(sys.argv[1], repeat_playback=False)
profile = pipeline.start(config)
profile.get_device().as_playback().set_real_time(False)
pc = rs.pointcloud()
plain = rs.pointcloud()

results = {"frames": []}
for k in range(3):
    ok, frames = pipeline.try_wait_for_frames(1000)
    if not ok:
        break
    depth = frames.get_depth_frame()
    color = frames.get_color_frame()
    pc.map_to(color)
    points = pc.calculate(depth)
    v = np.asanyarray(points.get_vertices())
    t = np.asanyarray(points.get_texture_coordinates())
    verts = v.view(np.float32).reshape(-1, 3)
    texcoords = t.view(np.float32).reshape(-1, 2)
    ply = os.path.join(sys.argv[2], f"cloud{k}.ply")
    points.export_to_ply(ply, color)
    with open(ply, "rb") as f:
        written = f.read()
    unmapped = plain.calculate(depth)
    results["frames"].append({
        "size": points.size(), "dtype": str(v.dtype), "shape": v.shape,
        "verts": verts.copy(), "texcoords": texcoords.copy(),
        "dims2": np.asanyarray(points.get_vertices(2)).copy(),
        "dims3": np.asanyarray(points.get_vertices(3)).copy(),
        "uv2": np.asanyarray(points.get_texture_coordinates(2)).copy(),
        "ply": written, "number": points.get_frame_number(),
        "unmapped": np.asanyarray(unmapped.get_vertices(2)).copy(),
    })
pipeline.stop()
