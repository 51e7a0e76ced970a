"""IMU and pose frames: motion data, pose data and motion intrinsics, as
the motion examples read them from framesets."""
import sys

import pyrealsense2 as rs

pipeline = rs.pipeline()
config = rs.config()
config.enable_device_from_file(sys.argv[1], repeat_playback=False)
profile = pipeline.start(config)
profile.get_device().as_playback().set_real_time(False)

results = {"samples": {}, "intrinsics": {}}
while True:
    ok, frames = pipeline.try_wait_for_frames(1000)
    if not ok:
        break
    for f in frames:
        p = f.get_profile()
        key = (str(p.stream_type()), f.get_frame_number())
        if f.is_motion_frame():
            m = f.as_motion_frame().get_motion_data()
            results["samples"][key] = [m.x, m.y, m.z, f.get_timestamp(),
                                       str(f.get_frame_timestamp_domain())]
            mi = p.as_motion_stream_profile().get_motion_intrinsics()
            results["intrinsics"][str(p.stream_type())] = [mi.data, mi.noise_variances,
                                                           mi.bias_variances]
        elif f.is_pose_frame():
            d = f.as_pose_frame().get_pose_data()
            results["samples"][key] = [
                [d.translation.x, d.translation.y, d.translation.z],
                [d.velocity.x, d.velocity.y, d.velocity.z],
                [d.acceleration.x, d.acceleration.y, d.acceleration.z],
                [d.rotation.x, d.rotation.y, d.rotation.z, d.rotation.w],
                [d.angular_velocity.x, d.angular_velocity.y, d.angular_velocity.z],
                [d.angular_acceleration.x, d.angular_acceleration.y, d.angular_acceleration.z],
                d.tracker_confidence, d.mapper_confidence, f.get_timestamp()]
    pose = frames.get_pose_frame()
    results.setdefault("pose_in_framesets", []).append(bool(pose))
pipeline.stop()
