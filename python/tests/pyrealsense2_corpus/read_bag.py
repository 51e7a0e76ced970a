"""read_bag_example.py's way: every frameset of a recording, every frame
to numpy, with what a frame tells of itself."""
import sys

import numpy as np
import pyrealsense2 as rs

pipeline = rs.pipeline()
config = rs.config()
rs.config.enable_device_from_file(config, sys.argv[1], repeat_playback=False)
config.enable_all_streams()
profile = pipeline.start(config)
profile.get_device().as_playback().set_real_time(False)

results = {"streams": [repr(p) for p in profile.get_streams()], "framesets": []}
while True:
    ok, frames = pipeline.try_wait_for_frames(1000)
    if not ok:
        break
    entry = {"size": frames.size(), "repr": repr(frames), "timestamp": frames.get_timestamp(),
             "number": frames.get_frame_number(), "frames": []}
    for f in frames:
        p = f.get_profile()
        data = np.asanyarray(f.get_data())
        item = {"stream": str(p.stream_type()), "index": p.stream_index(),
                "format": str(p.format()), "fps": p.fps(), "number": f.get_frame_number(),
                "timestamp": f.get_timestamp(), "domain": str(f.get_frame_timestamp_domain()),
                "property_number": f.frame_number, "property_timestamp": f.timestamp,
                "data": data.copy(), "dtype": str(data.dtype), "shape": data.shape,
                "data_size": f.get_data_size(), "bool": bool(f), "repr": repr(f),
                "kinds": [f.is_video_frame(), f.is_depth_frame(), f.is_motion_frame(),
                          f.is_pose_frame(), f.is_frameset()]}
        if f.is_video_frame():
            v = f.as_video_frame()
            item["video"] = [v.get_width(), v.get_height(), v.get_stride_in_bytes(),
                             v.get_bytes_per_pixel(), v.get_bits_per_pixel(), v.width, v.height]
        item["metadata"] = {str(m): f.get_frame_metadata(m)
                            for m in rs.frame_metadata_value.__members__.values()
                            if f.supports_frame_metadata(m)}
        entry["frames"].append(item)
    for name, got in [("depth", frames.get_depth_frame()), ("color", frames.get_color_frame()),
                      ("infrared", frames.get_infrared_frame()),
                      ("infrared2", frames.get_infrared_frame(2)),
                      ("pose", frames.get_pose_frame()),
                      ("gyro", frames.first_or_default(rs.stream.gyro)),
                      ("accel", frames.first_or_default(rs.stream.accel))]:
        entry[name] = (bool(got), got.get_frame_number() if got else None)
    results["framesets"].append(entry)
pipeline.stop()
