"""Intrinsics, extrinsics and motion intrinsics of every stream, and the
field of view, as the calibration examples print them."""
import sys

import pyrealsense2 as rs

pipeline = rs.pipeline()
config = rs.config()
config.enable_device_from_file(sys.argv[1], repeat_playback=False)
profile = pipeline.start(config)
streams = profile.get_streams()

results = {"streams": {}, "extrinsics": {}}
for p in streams:
    entry = {"type": str(p.stream_type()), "format": str(p.format()), "fps": p.fps(),
             "index": p.stream_index(), "name": p.stream_name(), "default": p.is_default()}
    if p.is_video_stream_profile():
        v = p.as_video_stream_profile()
        i = v.get_intrinsics()
        entry["intrinsics"] = [i.width, i.height, i.ppx, i.ppy, i.fx, i.fy, str(i.model),
                               list(i.coeffs), repr(i), v.width(), v.height()]
        entry["fov"] = rs.rs2_fov(i)
        same = v.intrinsics
        entry["property"] = [same.fx, same.fy]
    if p.is_motion_stream_profile():
        m = p.as_motion_stream_profile().get_motion_intrinsics()
        entry["motion"] = [m.data, m.noise_variances, m.bias_variances]
    results["streams"][p.stream_name()] = entry
for a in streams:
    for b in streams:
        try:
            e = a.get_extrinsics_to(b)
            results["extrinsics"][a.stream_name(), b.stream_name()] = [list(e.rotation),
                                                                      list(e.translation)]
        except RuntimeError as error:
            results["extrinsics"][a.stream_name(), b.stream_name()] = "RuntimeError"
pipeline.stop()
