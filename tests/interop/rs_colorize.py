#!/usr/bin/env python3
"""What librealsense's colorizer (pyrealsense2 2.55.1 `rs.colorizer`) makes
of depth frames, the reference rsbag's colorizer is compared against.

Usage:
    python3 rs_colorize.py OUT_DIR

Writes into OUT_DIR:
- `depth_<k>.raw`: depth frame k (little-endian u16, WIDTH x HEIGHT), fed
  to librealsense through a software_device whose depth sensor has the
  frame's depth units;
- `cases.json`: {"width", "height", "frames": [{"units"}], "cases":
  [{"options": [[key, value], ...]}]}, option keys in rsbag's kebab case,
  set on a fresh `rs.colorizer` in the order given (librealsense's side
  effects included: setting min or max turns equalization off, a max below
  min resets min, a min above max resets max);
- `rgb_<case>_<k>.raw`: the colorizer's RGB8 output for case and frame;
- `disparity_<k>.raw`: frame k through `rs.disparity_transform(True)`
  (float32 DISPARITY32), and `rgbd_<case>_<k>.raw` the colorizer's output
  for it.

Depth: a wavy wall with a box, noise of a few units, 5 % holes, a stripe of
far values up to 65535, a frame without any depth, and a frame of one value.
"""

import json
import sys
import time
from pathlib import Path

import numpy as np
import pyrealsense2 as rs

WIDTH, HEIGHT = 64, 48

OPTIONS = {
    "color-scheme": rs.option.color_scheme,
    "histogram-equalization": rs.option.histogram_equalization_enabled,
    "min": rs.option.min_distance,
    "max": rs.option.max_distance,
    "visual-preset": rs.option.visual_preset,
}


def cases():
    out = []
    for scheme in range(10):
        out.append([["color-scheme", scheme]])
        out.append([["color-scheme", scheme], ["histogram-equalization", 0]])
        out.append([["color-scheme", scheme], ["min", 0.3], ["max", 2.9]])
    for lo, hi in ((0, 16), (0, 0.1), (1.5, 1.5), (2.0, 1.0), (0.7, 1.9), (16, 16)):
        out.append([["histogram-equalization", 0], ["min", lo], ["max", hi]])
    # Min and max turn equalization off; turning it back on after them.
    out.append([["min", 0.5], ["max", 3.0], ["histogram-equalization", 1]])
    out.append([["max", 1.0], ["min", 2.5]])
    out.append([["min", 3.0], ["max", 2.0], ["color-scheme", 9]])
    for preset in range(4):
        out.append([["visual-preset", preset]])
    out.append([["color-scheme", 2.7], ["histogram-equalization", 0.5]])
    return [{"options": c} for c in out]


def depth_frames(rng):
    x = np.arange(WIDTH)[None, :]
    y = np.arange(HEIGHT)[:, None]
    frames = []
    for n in range(3):
        wall = 1500 + 700 * np.sin(x / 7.0 + n) * np.cos(y / 11.0)
        depth = np.broadcast_to(wall, (HEIGHT, WIDTH)).astype(np.int64).copy()
        depth[HEIGHT // 3:HEIGHT // 2, WIDTH // 3:WIDTH // 2] = 450 + n
        depth += rng.integers(-4, 5, depth.shape)
        depth[:, WIDTH - 3:] = rng.integers(1, 65536, (HEIGHT, 3))
        depth[rng.random(depth.shape) < 0.05] = 0
        frames.append((depth.astype(np.uint16), 0.001))
    frames.append((np.full((HEIGHT, WIDTH), 0, np.uint16), 0.001))
    frames.append((np.full((HEIGHT, WIDTH), 1234, np.uint16), 0.001))
    fine = rng.integers(0, 40000, (HEIGHT, WIDTH)).astype(np.uint16)
    frames.append((fine, 0.0001))
    return frames


def librealsense_frames(frames):
    """The depth frames as librealsense depth frames (software_device)."""
    got = []
    for k, (depth, units) in enumerate(frames):
        dev = rs.software_device()
        sensor = dev.add_sensor("Stereo Module")
        sensor.add_read_only_option(rs.option.depth_units, units)
        # A stereo baseline makes the depth stereoscopic: disparity_transform
        # turns it into disparity.
        sensor.add_read_only_option(rs.option.stereo_baseline, 50.0)
        stream = rs.video_stream()
        stream.type, stream.index, stream.uid = rs.stream.depth, 0, 1
        stream.width, stream.height, stream.fps = WIDTH, HEIGHT, 30
        stream.bpp, stream.fmt = 2, rs.format.z16
        intrinsics = rs.intrinsics()
        intrinsics.width, intrinsics.height = WIDTH, HEIGHT
        intrinsics.ppx, intrinsics.ppy, intrinsics.fx, intrinsics.fy = 32, 24, 50, 50
        stream.intrinsics = intrinsics
        profile = sensor.add_video_stream(stream, True)
        queue = rs.frame_queue(4, keep_frames=True)
        sensor.open(profile)
        sensor.start(queue)
        f = rs.software_video_frame()
        f.pixels, f.stride, f.bpp = depth.tobytes(), WIDTH * 2, 2
        f.timestamp, f.domain, f.frame_number = 1000.0 + k, rs.timestamp_domain.hardware_clock, k + 1
        f.profile = profile.as_video_stream_profile()
        sensor.on_video_frame(f)
        frame = queue.wait_for_frame(5000)
        got.append((frame, dev, sensor))
    return got


def main():
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    frames = depth_frames(np.random.default_rng(29))
    described = {"width": WIDTH, "height": HEIGHT, "frames": [], "cases": cases()}
    held = librealsense_frames(frames)
    to_disparity = rs.disparity_transform(True)
    disparities = []
    for k, ((depth, units), (frame, _, _)) in enumerate(zip(frames, held)):
        assert abs(frame.as_depth_frame().get_units() - units) < 1e-9
        (out / f"depth_{k}.raw").write_bytes(depth.tobytes())
        disparity = to_disparity.process(frame)
        assert disparity.get_profile().format() == rs.format.disparity32
        (out / f"disparity_{k}.raw").write_bytes(np.asanyarray(disparity.get_data()).tobytes())
        disparities.append(disparity)
        described["frames"].append({"units": units})
    for c, case in enumerate(described["cases"]):
        for kind, inputs in (("rgb", [f for f, _, _ in held]), ("rgbd", disparities)):
            for k, frame in enumerate(inputs):
                colorizer = rs.colorizer()
                for key, value in case["options"]:
                    colorizer.set_option(OPTIONS[key], float(value))
                rgb = colorizer.process(frame)
                data = np.asanyarray(rgb.get_data()).tobytes()
                assert len(data) == WIDTH * HEIGHT * 3
                (out / f"{kind}_{c}_{k}.raw").write_bytes(data)
    (out / "cases.json").write_text(json.dumps(described))
    for _, dev, sensor in held:
        sensor.stop()
        sensor.close()
    time.sleep(0.05)
    print(f"{len(described['cases'])} cases x {len(frames)} frames")


if __name__ == "__main__":
    main()
