"""A device loaded from the file (no pipeline), its sensors streamed into
callbacks and a frame queue: `rs.context().load_device`, `sensor.open`
(one profile, a list), `start`, `stop`, `close`, `get_active_streams`,
the playback's status before and after (paused while the sensors start),
every frame each stream gets."""
import sys
import threading
import time

import numpy as np
import pyrealsense2 as rs

ctx = rs.context()
device = ctx.load_device(sys.argv[1])
playback = device.as_playback()
playback.set_real_time(False)
results = {"status_loaded": str(playback.current_status()), "real_time": playback.is_real_time()}

lock = threading.Lock()
got = {}


def on_frame(f):
    p = f.get_profile()
    data = np.asanyarray(f.get_data())
    with lock:
        got.setdefault(f"{p.stream_name()} {p.format()}", []).append(
            [f.get_frame_number(), f.get_timestamp(), str(f.get_frame_timestamp_domain()),
             data.dtype.str, list(data.shape), int(data.astype(np.int64).sum()),
             f.is_depth_frame(), f.is_video_frame(), f.is_motion_frame()])


sensors = device.query_sensors()
# The first sensor's streams into a queue large enough to keep them all,
# the others into the callback; a sensor with one stream opens that
# profile alone, the others their list.
queue = rs.frame_queue(100000)
for k, s in enumerate(sensors):
    profiles = s.get_stream_profiles()
    s.open(profiles[0] if len(profiles) == 1 else profiles)
results["active"] = [[repr(p) for p in s.get_active_streams()] for s in sensors]
# Paused while the sensors start: the first sensor started starts the
# reader, which plays as fast as it can and would pass the frames of a
# sensor not started yet.
playback.pause()
for k, s in enumerate(sensors):
    s.start(queue if k == 0 else on_frame)
playback.resume()

deadline = time.monotonic() + 60
while time.monotonic() < deadline:
    with lock:
        some = bool(got) or queue.size() > 0
    if some and playback.current_status() == rs.playback_status.stopped:
        break
    time.sleep(0.01)
results["status_end"] = str(playback.current_status())
queued = []
while True:
    ok, f = queue.try_wait_for_frame(100)
    if not ok:
        break
    p = f.get_profile()
    queued.append([str(p.stream_type()), p.stream_index(), f.get_frame_number(),
                   f.get_timestamp(), np.asanyarray(f.get_data()).copy()])
# Each stream's frames come in order, the streams' on threads of their own.
results["queued"] = sorted(queued, key=lambda q: q[:4])
results["polled_empty"] = bool(queue.poll_for_frame())
for s in sensors:
    s.stop()
    s.close()
results["active_closed"] = [[repr(p) for p in s.get_active_streams()] for s in sensors]
with lock:
    results["frames"] = got
