"""A recording played with repeat_playback (the default): the framesets
through the end of the file and on from its start again, each frame's
stream, number and timestamp."""
import sys

import pyrealsense2 as rs

pipeline = rs.pipeline()
config = rs.config()
rs.config.enable_device_from_file(config, sys.argv[1])
profile = pipeline.start(config)
playback = profile.get_device().as_playback()
playback.set_real_time(False)
framesets = []
for _ in range(int(sys.argv[3]) if len(sys.argv) > 3 else 30):
    frames = pipeline.wait_for_frames()
    framesets.append([[str(f.get_profile().stream_type()), f.get_frame_number(),
                       f.get_timestamp()] for f in frames])
results = {"framesets": framesets, "status": str(playback.current_status())}
pipeline.stop()
