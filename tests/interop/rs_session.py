#!/usr/bin/env python3
"""Record a multi-camera session with the real librealsense: one
`rs.software_device` per camera (rs_record.py's Session), all recorded at
once by `rs.recorder`, one file per camera, fed at real-time pace on the
host's clock.

Usage:
    python3 rs_session.py OUTDIR --cameras CAM-A,CAM-B,CAM-C --clock global|hardware
                          [--t0 HOST_MS] [--ext bag|db3]

--clock global    every frame's timestamp is in the Global Time domain: the
                  host time (ms since the epoch) it was planned for.
--clock hardware  every frame's timestamp is in the Hardware Clock domain,
                  on the camera's own clock (its own origin, and a rate a
                  little off the host's); only the host time each frame
                  arrived is shared: its Time Of Arrival metadata, set to
                  the host's ms as it is fed (a software device's system
                  time is 0).
--t0 HOST_MS      the host time (ms since the epoch) of the session's
                  moment 0 (default: now + 0.3 s); two processes given the
                  same t0 (e.g. librealsense 2.55 and 2.59) record one
                  session together.
--ext             the files' extension: pyrealsense2 2.58 and later write
                  only .db3.

Cameras (moment 0 is t0; depth Z16 32x24 @30 on sensor "Stereo Module",
Depth Units 1 mm unless said):
  CAM-A  from 0 ms, 45 frames, also Color RGB8 @30 ("RGB Camera"), clock
         origin 1000 ms, rate 1.
  CAM-B  from 340 ms, 45 frames, clock origin 770000 ms, rate 1.0005,
         Depth Units 100 µm (as a D405's).
  CAM-C  from 200 ms, 45 frames with frames 15..24 dropped (a third of a
         second where the camera stopped), origin 5000 ms, rate 0.9998.
  CAM-D  from 120 ms, 40 frames, origin 90000 ms, rate 1.
  CAM-E  from 100 ms, 30 frames, origin 3000 ms, rate 1, and an IMU
         ("Motion Module": Accel @100 and Gyro @200, MOTION_XYZ32F, over
         the depth frames' span, each gyro sample fed just after an accel
         sample of its time), as a D435i's.

Output (stdout, one JSON object): {"t0": ..., "clock": ..., "pyrealsense2":
..., "cameras": [{"serial": "CAM-A", "file": PATH, "start_ms": 0,
"rate": 1.0, "origin_ms": 1000, "depth_units": 0.001, "frames": [{"stream":
"Depth", "index": 0, "frame_number": 1, "timestamp": ..., "domain": ...,
"host_ms": ..., "size": ..., "sha256": ..., "fed_ms": ...}]}]}: `host_ms` is the host time
each frame was planned for, the truth a session's clock is checked
against; `fed_ms` the host time it was fed at (its Time Of Arrival on the
hardware clock), within the scheduler's few ms of `host_ms` on an idle
host, later on a loaded one.
"""

import argparse
import importlib.metadata
import json
import os
import sys
import time

import pyrealsense2 as rs

from rs_record import HW, Session

PERIOD = 1000.0 / 30
CAMERAS = {
    "CAM-A": {"start": 0.0, "frames": 45, "color": True, "origin": 1000.0, "rate": 1.0,
              "drop": ()},
    "CAM-B": {"start": 340.0, "frames": 45, "color": False, "origin": 770000.0, "rate": 1.0005,
              "drop": (), "depth_units": 0.0001},
    "CAM-C": {"start": 200.0, "frames": 45, "color": False, "origin": 5000.0, "rate": 0.9998,
              "drop": tuple(range(15, 25))},
    "CAM-D": {"start": 120.0, "frames": 40, "color": False, "origin": 90000.0, "rate": 1.0,
              "drop": ()},
    "CAM-E": {"start": 100.0, "frames": 30, "color": False, "origin": 3000.0, "rate": 1.0,
              "drop": (), "imu": True},
}


def depth_units(spec):
    """The camera's Depth Units (meters per depth unit)."""
    return spec.get("depth_units", 0.001)


def camera(serial, spec, clock, t0):
    """A software device for camera `serial` and its schedule of
    (host_ms, action)."""
    s = Session(f"rsbag Session {serial}", serial)
    stereo = s.add_sensor("Stereo Module")
    s.read_only_option(stereo, rs.option.depth_units, depth_units(spec))
    uid = 100 * (list(CAMERAS).index(serial) + 1)
    keys = [s.add_video(stereo, rs.stream.depth, 0, uid + 1, rs.format.z16, 32, 24, 30,
                        rs.distortion.brown_conrady)]
    if spec["color"]:
        rgb = s.add_sensor("RGB Camera")
        keys.append(s.add_video(rgb, rs.stream.color, 0, uid + 2, rs.format.rgb8, 32, 24, 30,
                                rs.distortion.inverse_brown_conrady))
    truth, fed, schedule = [], [], []

    def stamp_of(host):
        if clock == "global":
            return host, rs.timestamp_domain.global_time
        return spec["origin"] + (host - t0 - spec["start"]) * spec["rate"], HW

    def fed_at(host, key, deliver):
        """Deliver a frame of `key` planned for host time `host`, noting
        when (a camera's driver stamps its arrival: a software device's
        frames have system time 0)."""
        def feed():
            now = time.time() * 1000.0
            if clock != "global":
                sensor = s.streams[key]["sensor"]
                sensor["handle"].set_metadata(rs.frame_metadata_value.time_of_arrival, int(now))
            truth.append(host)
            fed.append(now)
            deliver()
        return feed

    for i in range(spec["frames"]):
        if i in spec["drop"]:
            continue
        host = t0 + spec["start"] + i * PERIOD
        stamp, domain = stamp_of(host)
        for k, key in enumerate(keys):
            # Colour 1 ms after depth, as a camera's sensors deliver apart.
            deliver = lambda key=key, i=i, stamp=stamp, domain=domain: \
                s.video_frame(key, i, i + 1, stamp, domain)  # noqa: E731
            schedule.append((host + k, fed_at(host, key, deliver)))
    if spec.get("imu"):
        schedule.extend(imu_schedule(s, uid, spec, t0, stamp_of, fed_at))
    return s, schedule, truth, fed


def imu_schedule(s, uid, spec, t0, stamp_of, fed_at):
    """A D435i's IMU over the camera's depth frames: accel every 10 ms,
    gyro every 5 ms, each gyro sample fed just after the accel sample of
    its time."""
    module = s.add_sensor("Motion Module")
    accel = s.add_motion(module, rs.stream.accel, uid + 3, 100, 1.0)
    gyro = s.add_motion(module, rs.stream.gyro, uid + 4, 200, 0.5)
    span = spec["frames"] * PERIOD
    schedule = []
    for key, period, after in ((accel, 10.0, 0.0), (gyro, 5.0, 0.1)):
        for i in range(int(span / period)):
            host = t0 + spec["start"] + i * period
            stamp, domain = stamp_of(host)
            deliver = lambda key=key, i=i, stamp=stamp, domain=domain: \
                s.motion_frame(key, i, i + 1, stamp, domain)  # noqa: E731
            schedule.append((host + after, fed_at(host, key, deliver)))
    return schedule


def play(schedule):
    """Feed (host_ms, action) in order, each at its host time."""
    for at, action in sorted(schedule, key=lambda item: item[0]):
        delay = (at - time.time() * 1000.0) / 1000.0
        if delay > 0:
            time.sleep(delay)
        action()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", help="the directory to write the files in")
    parser.add_argument("--cameras", required=True, help="comma-separated, of " + ",".join(CAMERAS))
    parser.add_argument("--clock", required=True, choices=["global", "hardware"])
    parser.add_argument("--t0", type=float, help="host ms of moment 0")
    parser.add_argument("--ext", default="bag", choices=["bag", "db3"])
    args = parser.parse_args()
    t0 = args.t0 if args.t0 is not None else time.time() * 1000.0 + 300.0
    os.makedirs(args.out, exist_ok=True)
    sessions, schedule, cameras = [], [], []
    for serial in args.cameras.split(","):
        spec = CAMERAS[serial]
        s, steps, truth, fed = camera(serial, spec, args.clock, t0)
        path = os.path.join(args.out, f"{serial}.{args.ext}")
        sessions.append((s, path, truth, fed, serial, spec))
        schedule.extend(steps)
    for s, path, *_ in sessions:
        s.start_recording(path, True)
    play(schedule)
    time.sleep(0.05)
    for s, *_ in sessions:
        s.stop_recording()
    for s, path, truth, fed, serial, spec in sessions:
        frames = []
        for frame, host, fed_ms in zip(s.frames, truth, fed):
            frames.append(dict(frame, host_ms=host, fed_ms=fed_ms))
        frames.sort(key=lambda r: (r["stream"], r["index"], r["frame_number"]))
        cameras.append({"serial": serial, "file": path, "start_ms": spec["start"],
                        "rate": spec["rate"], "origin_ms": spec["origin"],
                        "depth_units": depth_units(spec), "frames": frames})
    json.dump({"t0": t0, "clock": args.clock,
               "pyrealsense2": importlib.metadata.version("pyrealsense2"),
               "cameras": cameras}, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
