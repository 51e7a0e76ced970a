"""The playback device: camera info, sensors, options, depth scale,
profiles, and the playback's controls."""
import sys
import time

import pyrealsense2 as rs

pipeline = rs.pipeline()
config = rs.config()
config.enable_device_from_file(sys.argv[1], repeat_playback=False)
profile = pipeline.start(config)
device = profile.get_device()
playback = device.as_playback()
playback.set_real_time(False)

try:
    name = device.get_info(rs.camera_info.name)
except RuntimeError:
    name = "RuntimeError"
results = {"name": name, "is_playback": device.is_playback(),
           "duration": playback.get_duration().total_seconds(),
           "file_name": playback.file_name(), "real_time": playback.is_real_time(),
           "info": {str(k): device.get_info(k) for k in rs.camera_info.__members__.values()
                    if device.supports(k)},
           "sensors": []}
for sensor in device.query_sensors():
    entry = {"repr": repr(sensor), "name": sensor.name,
             "info": {str(k): sensor.get_info(k) for k in rs.camera_info.__members__.values()
                      if sensor.supports(k)},
             "depth": sensor.is_depth_sensor(),
             "profiles": [repr(p) for p in sensor.get_stream_profiles()],
             "options": {}}
    for option in sensor.get_supported_options():
        r = sensor.get_option_range(option)
        entry["options"][str(option)] = [sensor.supports(option), sensor.get_option(option),
                                         r.min, r.max, r.step, r.default,
                                         sensor.is_option_read_only(option)]
    if sensor.is_depth_sensor():
        entry["depth_scale"] = sensor.as_depth_sensor().get_depth_scale()
    results["sensors"].append(entry)
try:
    results["first_depth_sensor"] = device.first_depth_sensor().get_depth_scale()
except RuntimeError as e:
    results["first_depth_sensor"] = "error"

for kind in rs.stream.__members__.values():
    try:
        p = profile.get_stream(kind)
        results[str(kind)] = [repr(p), str(p.stream_type()), str(p.format()), p.fps(),
                              p.stream_index(), p.stream_name(), p.is_video_stream_profile(),
                              p.is_motion_stream_profile()]
    except RuntimeError:
        pass

frames = pipeline.wait_for_frames()
results["status_playing"] = str(playback.current_status())
playback.pause()
results["status_paused"] = str(playback.current_status())
# Not compared right after resume(): librealsense's playback resumes on
# its reader thread, which may still wait for room, so it says `paused`
# or `playing` by how the threads ran.
playback.resume()
# Every frameset taken: the playback has stopped.
while pipeline.try_wait_for_frames(1000)[0]:
    pass
results["status_ended"] = str(playback.current_status())
pipeline.stop()
results["status_stopped"] = str(playback.current_status())
