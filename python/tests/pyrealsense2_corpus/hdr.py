"""HDR recordings: rs.hdr_merge on every frameset, rs.sequence_id_filter
with each sequence id on framesets and on single frames, their options.
Frames are listed by stream (a frameset's order within one sensor is
compared elsewhere)."""
import sys

import numpy as np
import pyrealsense2 as rs

MD = rs.frame_metadata_value


def described(f):
    p = f.get_profile()
    return [str(p.stream_type()), p.stream_index(), str(p.format()), f.get_frame_number(),
            f.get_timestamp(), f.get_frame_metadata(MD.sequence_id),
            np.asanyarray(f.get_data()).copy()]


def listed(fs):
    if not fs.is_frameset():
        return [described(fs)]
    return sorted((described(f) for f in fs.as_frameset()), key=lambda d: d[:3])


pipeline = rs.pipeline()
config = rs.config()
config.enable_device_from_file(sys.argv[1], repeat_playback=False)
profile = pipeline.start(config)
profile.get_device().as_playback().set_real_time(False)
merge = rs.hdr_merge()
filters = {k: rs.sequence_id_filter(k) for k in (0.0, 1.0, 2.0)}
default = rs.sequence_id_filter()
singles = rs.sequence_id_filter(2)
results = {"options": [str(default.get_option(rs.option.sequence_id)),
                       repr(default.get_option_range(rs.option.sequence_id))],
           "merged": [], "filtered": {str(k): [] for k in filters}, "singles": []}
while True:
    ok, frames = pipeline.try_wait_for_frames(1000)
    if not ok:
        break
    merged = merge.process(frames)
    results["merged"].append([merged.is_frameset(), listed(merged)])
    for k, f in filters.items():
        results["filtered"][str(k)].append(listed(f.process(frames)))
    results["singles"].append(described(singles.process(frames.get_depth_frame())))
    # A frame alone passes hdr_merge as it is.
    alone = merge.process(frames.get_depth_frame())
    results.setdefault("alone", []).append(described(alone))
pipeline.stop()
