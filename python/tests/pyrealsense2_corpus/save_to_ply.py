"""rs.save_to_ply: a frameset's point cloud written as PLY with each of
its options (binary or ASCII, mesh, normals, colour ignored, a
threshold), from a frameset, a depth frame and a point cloud; the
options' values and ranges."""
import os
import sys

import pyrealsense2 as rs

pipeline = rs.pipeline()
config = rs.config()
config.enable_device_from_file(sys.argv[1], repeat_playback=False)
profile = pipeline.start(config)
profile.get_device().as_playback().set_real_time(False)
frames = pipeline.wait_for_frames()
pipeline.wait_for_frames()  # the first frameset, kept, and one more taken
O = rs.save_to_ply
SETTINGS = {
    "default": {},
    "ascii": {O.option_ply_binary: 0},
    "normals": {O.option_ply_normals: 1},
    "ascii_normals": {O.option_ply_binary: 0, O.option_ply_normals: 1},
    "no_mesh": {O.option_ply_mesh: 0},
    "no_mesh_normals": {O.option_ply_mesh: 0, O.option_ply_normals: 1},
    "no_color": {O.option_ignore_color: 1},
    "ascii_no_color": {O.option_ignore_color: 1, O.option_ply_binary: 0},
}
OPTIONS = [O.option_ignore_color, O.option_ply_mesh, O.option_ply_binary,
           O.option_ply_normals, O.option_ply_threshold]
results = {"options": [[repr(o), int(o), str(o)] for o in OPTIONS]}
written = {}
for name, settings in SETTINGS.items():
    path = os.path.join(sys.argv[2], f"{name}.ply")
    block = rs.save_to_ply(path)
    if name == "default":
        results["defaults"] = [[block.get_option(o), repr(block.get_option_range(o))]
                               for o in OPTIONS]
    # librealsense takes the threshold the first block in a process wrote
    # with for every block after (a static in save_to_ply): one value here.
    block.set_option(O.option_ply_threshold, 0.02)
    for option, value in settings.items():
        block.set_option(option, value)
    out = block.process(frames)
    results[name + "_passed"] = [out.is_frameset(), out.as_frameset().size(),
                                out.get_frame_number()]
    with open(path, "rb") as f:
        written[name] = f.read()
# A depth frame alone, and a point cloud (no colour either way).
depth = frames.get_depth_frame()
for name, what in (("depth", depth), ("points", rs.pointcloud().calculate(depth))):
    path = os.path.join(sys.argv[2], f"{name}.ply")
    block = rs.save_to_ply(path)
    block.set_option(O.option_ply_threshold, 0.02)
    block.process(what)
    with open(path, "rb") as f:
        written[name] = f.read()
try:
    rs.save_to_ply(os.path.join(sys.argv[2], "none.ply")).process(frames.get_color_frame())
    results["colour_alone"] = "written"
except RuntimeError:
    results["colour_alone"] = "RuntimeError"
results["written"] = written
pipeline.stop()
