#!/usr/bin/env python3
"""Recordings of simulated cameras written by the real librealsense
(pyrealsense2 2.55.1: an `rs.software_device` fed by `rs_record.Session`,
recorded by `rs.recorder`), the sources `rsbag record --camera SERIAL
--simulate FILE` is tested and benchmarked on.

Usage:
    python3 rs_camera_sources.py OUT.bag --camera NAME [--seconds S] [--no-compress]

Prints {"serial": ..., "streams": "depth,color,..." (rsbag record's
--streams for what the camera has), "frames": N} as JSON.

Cameras (every stream carries frame metadata set just before each frame;
options with ranges; nontrivial extrinsics, column-major as librealsense
keeps them):
  d435i   "Stereo Module" Depth Z16 64x48 @30 (hardware clock), "RGB Camera"
          Color RGB8 64x48 @30 (global time), "Motion Module" Accel @100 and
          Gyro @200 with motion intrinsics (system time); extrinsics Depth to
          Color, Accel and Gyro. --seconds of frames (default 1).
  stereo  "Stereo Module" Infrared 1 and 2 Y8 64x40 @30 and Depth Z16, the
          stereo pair 5 cm apart with a small rotation between them.
  t265    "Tracking Module" Pose 6DOF @200, Fisheye 1 and 2 Y8 32x32 @30,
          Accel @62 and Gyro @200: a T265-like tracking camera.
  d435-full  a D435i at full rate for the benchmark: Depth Z16 1280x720 @30,
          Color RGB8 1920x1080 @30, Accel @200, Gyro @400 (no metadata).
"""

import argparse
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import pyrealsense2 as rs  # noqa: E402

from rs_record import HW, SYSTEM, Session, less_screamy  # noqa: E402

GLOBAL = rs.timestamp_domain.global_time
MD = rs.frame_metadata_value


def rotation(angle):
    """A rotation about the y axis, column-major."""
    c, s = math.cos(angle), math.sin(angle)
    return [c, 0.0, -s, 0.0, 1.0, 0.0, s, 0.0, c]


class Camera(Session):
    """A Session that also has pose streams."""

    def add_pose(self, sensor, uid, fps):
        ps = rs.pose_stream()
        ps.type, ps.index, ps.uid, ps.fps, ps.fmt = rs.stream.pose, 0, uid, fps, rs.format.six_dof
        profile = sensor["handle"].add_pose_stream(ps, True)
        key = "Pose_0"
        spec = {"stream": "Pose", "index": 0, "uid": uid, "format": "6DOF", "fps": fps}
        sensor["profiles"].append(profile)
        sensor["streams"].append(spec)
        self.streams[key] = {"sensor": sensor, "profile": profile, "spec": spec}
        return key

    def pose_frame(self, key, n, number, timestamp, domain=HW):
        s = self.streams[key]
        pose = rs.pose()
        pose.translation = rs_vector(0.01 * n, -0.002 * n, 0.5)
        pose.velocity = rs_vector(0.25, -0.05, 0.0)
        pose.acceleration = rs_vector(0.0, 0.0, 0.125 * (n % 3))
        half = 0.005 * n
        q = rs.quaternion()
        q.x, q.y, q.z, q.w = 0.0, math.sin(half), 0.0, math.cos(half)
        pose.rotation = q
        pose.angular_velocity = rs_vector(0.0, 0.01, 0.0)
        pose.angular_acceleration = rs_vector(0.0, 0.0, 0.0)
        pose.tracker_confidence = 3
        pose.mapper_confidence = 1 + n % 3
        f = rs.software_pose_frame()
        f.data = pose
        f.timestamp = timestamp
        f.domain = domain
        f.frame_number = number
        f.profile = s["profile"].as_pose_stream_profile()
        s["sensor"]["handle"].on_pose_frame(f)
        self.record_frame(key, number, timestamp, domain, b"")


def rs_vector(x, y, z):
    v = rs.vector()
    v.x, v.y, v.z = x, y, z
    return v


def with_metadata(s, sensor, i, ts, exposure):
    """Metadata librealsense keeps for the sensor's next frame."""
    s.set_metadata(sensor, MD.frame_counter, i + 1)
    s.set_metadata(sensor, MD.sensor_timestamp, int(round(ts * 1000)) - 700)
    s.set_metadata(sensor, MD.actual_exposure, exposure + i)
    s.set_metadata(sensor, MD.actual_fps, 30)


def periodic(count, start, period, action):
    return [(start + i * period, lambda i=i, ts=start + i * period: action(i, ts))
            for i in range(count)]


def d435i(seconds):
    s = Camera("Intel RealSense D435I", "233522070001")
    s.register_info(rs.camera_info.usb_type_descriptor, "3.2")
    stereo, rgb = s.add_sensor("Stereo Module"), s.add_sensor("RGB Camera")
    motion = s.add_sensor("Motion Module")
    s.read_only_option(stereo, rs.option.depth_units, 0.001)
    s.option(stereo, rs.option.exposure, 1.0, 165000.0, 1.0, 8500.0)
    s.option(stereo, rs.option.laser_power, 0.0, 360.0, 30.0, 150.0)
    s.option(rgb, rs.option.exposure, 1.0, 10000.0, 1.0, 166.0)
    s.option(rgb, rs.option.gain, 0.0, 128.0, 1.0, 64.0, writable=False)
    s.read_only_option(motion, rs.option.frames_queue_size, 16.0)
    depth = s.add_video(stereo, rs.stream.depth, 0, 11, rs.format.z16, 64, 48, 30,
                        rs.distortion.brown_conrady)
    color = s.add_video(rgb, rs.stream.color, 0, 12, rs.format.rgb8, 64, 48, 30,
                        rs.distortion.inverse_brown_conrady)
    accel = s.add_motion(motion, rs.stream.accel, 13, 100, 1.0)
    gyro = s.add_motion(motion, rs.stream.gyro, 14, 200, 0.5)
    s.link(depth, color, rotation(0.02), [0.0148, 0.0001, 0.0003])
    s.link(depth, accel, [1.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, -1.0],
           [-0.0053, -0.0051, -0.0112])
    s.link(depth, gyro, [1.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, -1.0],
           [-0.0053, -0.0051, -0.0112])

    def depth_frame(i, ts):
        with_metadata(s, stereo, i, ts, 8500)
        s.set_metadata(stereo, MD.frame_laser_power, 150)
        s.video_frame(depth, i, i + 1, ts)

    def color_frame(i, ts):
        with_metadata(s, rgb, i, ts, 166)
        s.video_frame(color, i, i + 1, ts, GLOBAL)

    def imu(key):
        def frame(i, ts):
            s.set_metadata(motion, MD.frame_counter, i + 1)
            s.motion_frame(key, i, i + 1, ts, SYSTEM)
        return frame

    frames = int(30 * seconds)
    return s, (periodic(frames, 1000.0, 1000 / 30, depth_frame)
               + periodic(frames, 1000.4, 1000 / 30, color_frame)
               + periodic(int(100 * seconds), 1000.1, 10.0, imu(accel))
               + periodic(int(200 * seconds), 1000.2, 5.0, imu(gyro)))


def stereo(seconds):
    s = Camera("Intel RealSense D415", "821312060002")
    module = s.add_sensor("Stereo Module")
    s.read_only_option(module, rs.option.depth_units, 0.0001)
    s.read_only_option(module, rs.option.stereo_baseline, 55.0)
    s.option(module, rs.option.exposure, 1.0, 165000.0, 1.0, 33000.0)
    ir1 = s.add_video(module, rs.stream.infrared, 1, 21, rs.format.y8, 64, 40, 30,
                      rs.distortion.brown_conrady)
    ir2 = s.add_video(module, rs.stream.infrared, 2, 22, rs.format.y8, 64, 40, 30,
                      rs.distortion.brown_conrady)
    depth = s.add_video(module, rs.stream.depth, 0, 23, rs.format.z16, 64, 40, 30,
                        rs.distortion.brown_conrady)
    s.link(depth, ir1, [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 0.0])
    s.link(ir1, ir2, rotation(-0.003), [-0.0549, 0.0002, -0.0001])

    def frames(i, ts):
        with_metadata(s, module, i, ts, 33000)
        for k, key in enumerate((ir1, ir2, depth)):
            s.video_frame(key, i, i + 1, ts + 0.01 * k)

    return s, periodic(int(30 * seconds), 5000.0, 1000 / 30, frames)


def t265(seconds):
    s = Camera("Intel RealSense T265", "905312110003")
    module = s.add_sensor("Tracking Module")
    s.option(module, rs.option.enable_mapping, 0.0, 1.0, 1.0, 1.0)
    s.option(module, rs.option.enable_relocalization, 0.0, 1.0, 1.0, 1.0)
    fish1 = s.add_video(module, rs.stream.fisheye, 1, 31, rs.format.y8, 32, 32, 30,
                        rs.distortion.kannala_brandt4)
    fish2 = s.add_video(module, rs.stream.fisheye, 2, 32, rs.format.y8, 32, 32, 30,
                        rs.distortion.kannala_brandt4)
    accel = s.add_motion(module, rs.stream.accel, 33, 62, 1.0)
    gyro = s.add_motion(module, rs.stream.gyro, 34, 200, 1.0)
    pose = s.add_pose(module, 35, 200)
    s.link(pose, fish1, rotation(3.14159), [0.0321, 0.0, 0.0])
    s.link(fish1, fish2, rotation(0.01), [-0.064, 0.0, 0.0])
    s.link(pose, accel, [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0], [0.0107, 0.0, 0.0])
    s.link(pose, gyro, [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0], [0.0107, 0.0, 0.0])

    def fisheyes(i, ts):
        with_metadata(s, module, i, ts, 5000)
        s.video_frame(fish1, i, i + 1, ts)
        s.video_frame(fish2, i, i + 1, ts + 0.01)

    def motion(key):
        return lambda i, ts: s.motion_frame(key, i, i + 1, ts)

    return s, (periodic(int(30 * seconds), 2000.0, 1000 / 30, fisheyes)
               + periodic(int(62 * seconds), 2000.1, 1000 / 62, motion(accel))
               + periodic(int(200 * seconds), 2000.2, 5.0, motion(gyro))
               + periodic(int(200 * seconds), 2000.3, 5.0,
                          lambda i, ts: s.pose_frame(pose, i, i + 1, ts)))


def d435_full(seconds):
    """The benchmark's camera: frame bytes made once per stream and reused
    (making 8 MB of pixels per frame in Python would not keep 30 fps)."""
    s = Camera("Intel RealSense D435I", "233522070004")
    stereo_module, rgb = s.add_sensor("Stereo Module"), s.add_sensor("RGB Camera")
    motion = s.add_sensor("Motion Module")
    s.read_only_option(stereo_module, rs.option.depth_units, 0.001)
    depth = s.add_video(stereo_module, rs.stream.depth, 0, 41, rs.format.z16, 1280, 720, 30,
                        rs.distortion.brown_conrady)
    color = s.add_video(rgb, rs.stream.color, 0, 42, rs.format.rgb8, 1920, 1080, 30,
                        rs.distortion.inverse_brown_conrady)
    accel = s.add_motion(motion, rs.stream.accel, 43, 200, 1.0)
    gyro = s.add_motion(motion, rs.stream.gyro, 44, 400, 0.5)
    s.link(depth, color, rotation(0.02), [0.0148, 0.0001, 0.0003])
    s.link(depth, accel, [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0], [-0.005, -0.005, -0.011])
    s.link(depth, gyro, [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0], [-0.005, -0.005, -0.011])
    # A scene-like depth ramp and colour gradient, a few variants: an LZ4
    # chunk compresses them about as it would a camera's.
    ramp = [bytes(((x * 3 + v * 17) >> 2) & 0xFF for x in range(2560)) for v in range(4)]
    depth_pixels = [b"".join(ramp[(y // 90 + v) % 4] for y in range(720)) for v in range(4)]
    row = bytes((x * 5 + c * 80) & 0xFF for x in range(1920) for c in range(3))
    color_pixels = [bytes(row[v * 7:] + row[:v * 7]) * 1080 for v in range(4)]
    s.record_frame = lambda *args: None  # hashing 8 MB a frame would not keep up
    frames = int(30 * seconds)
    return s, (periodic(frames, 1000.0, 1000 / 30,
                        lambda i, ts: s.video_frame(depth, i, i + 1, ts, data=depth_pixels[i % 4]))
               + periodic(frames, 1000.4, 1000 / 30,
                          lambda i, ts: s.video_frame(color, i, i + 1, ts,
                                                      data=color_pixels[i % 4]))
               + periodic(int(200 * seconds), 1000.1, 5.0,
                          lambda i, ts: s.motion_frame(accel, i, i + 1, ts))
               + periodic(int(400 * seconds), 1000.2, 2.5,
                          lambda i, ts: s.motion_frame(gyro, i, i + 1, ts)))


CAMERAS = {"d435i": d435i, "stereo": stereo, "t265": t265, "d435-full": d435_full}

# rsbag record's --streams names, by librealsense stream key.
STREAM_NAMES = {"Depth_0": "depth", "Color_0": "color", "Infrared_1": "infrared1",
                "Fisheye_1": "fisheye1", "Fisheye_2": "fisheye2",
                "Infrared_2": "infrared2", "Accel_0": "accel", "Gyro_0": "gyro", "Pose_0": "pose"}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", help="the .bag to write")
    parser.add_argument("--camera", required=True, choices=sorted(CAMERAS))
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--no-compress", action="store_true", help="uncompressed chunks")
    args = parser.parse_args()
    session, schedule = CAMERAS[args.camera](args.seconds)
    session.record(args.out, not args.no_compress, schedule)
    streams = [STREAM_NAMES[k] for k in session.streams if k in STREAM_NAMES]
    json.dump({"serial": session.camera_info[less_screamy("serial_number")],
               "streams": ",".join(streams), "frames": len(schedule)}, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
