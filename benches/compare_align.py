#!/usr/bin/env python3
"""Every depth frame of a 1 GB LZ4 RealSense recording aligned to colour:
the rsbag Python package against pyrealsense2 2.55's `rs.align`, in one
run, on the same frames.

Usage (from the crate root, with the system's python3 that has
pyrealsense2 2.55, after `bash scripts/test-python.sh`, which builds rsbag
into target/venv-python):
    python3 benches/compare_align.py [--frames 300] [--runs 3]

The recording (target/bench-align/session.bag, written once) is written by
librealsense itself (`rs.recorder`, LZ4) from a software_device shaped like
a D435: depth 848x480 Z16 (Brown-Conrady, fx 421) and colour 1280x720 RGB8
(inverse Brown-Conrady, fx 910), colour 15 mm beside depth, --frames each
(300: 1.07 GB of frames). Depth frames are a wavy wall 1.2-1.8 m away with
a box in front and 3 % holes; colour frames camera-like noise.

- pyrealsense2: a pipeline over the file (`enable_device_from_file`, real
  time off, so no frame is dropped), `rs.align(rs.stream.color)` on every
  frameset, the aligned depth as numpy;
- rsbag: `recording.frames(streams=["Depth"])`,
  `alignment.depth_to_other(depth)` for each, on a thread per core (the
  call releases the GIL; librealsense's pipeline also reads and decodes on
  threads of its own). Aligning depth to colour needs the colour camera's
  intrinsics, not its pixels: rsbag does not read the colour frames, while
  `rs.align` needs each depth frame in a frameset with a colour frame, so
  pyrealsense2 reads and decodes them too. `--framesets` makes rsbag read
  framesets of both streams as well, for the like-for-like figure.

The consumer is the same for both: the maximum of the aligned depth. Each
runs in its own interpreter, the recording in the page cache, the two
alternating, best of --runs. Prints times, frames and the ratio.
"""

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VENV = ROOT / "target/venv-python/bin/python"

RSBAG = r'''
import os, sys, time, numpy as np, rsbag
from concurrent.futures import ThreadPoolExecutor
start = time.perf_counter()
recording = rsbag.open(sys.argv[1])
alignment = recording.alignment("Depth", "Color")
def align(depth):
    return None if depth is None else int(alignment.depth_to_other(depth).max())
if sys.argv[2] == "framesets":
    depths = (s.get("Depth") for s in recording.framesets(streams=["Depth", "Color"]))
else:
    depths = recording.frames(streams=["Depth"])
with ThreadPoolExecutor(os.cpu_count()) as pool:
    results = [r for r in pool.map(align, depths) if r is not None]
print(time.perf_counter() - start, len(results), sum(results))
'''

PYREALSENSE2 = r'''
import sys, time, numpy as np, pyrealsense2 as rs
start = time.perf_counter()
pipeline = rs.pipeline()
config = rs.config()
config.enable_device_from_file(sys.argv[1], repeat_playback=False)
profile = pipeline.start(config)
profile.get_device().as_playback().set_real_time(False)
align = rs.align(rs.stream.color)
n = total = 0
while True:
    ok, frames = pipeline.try_wait_for_frames(1000)
    if not ok:
        break
    aligned = align.process(frames).get_depth_frame()
    if aligned:
        total += int(np.asanyarray(aligned.get_data()).max()); n += 1
pipeline.stop()
# The last wait timed out after the end: not part of the work.
print(time.perf_counter() - start - 1.0, n, total)
'''


def write_bag(path, frames):
    import numpy as np
    import pyrealsense2 as rs

    sys.path.insert(0, str(ROOT / "tests/interop"))
    from rs_process import depth_image

    dev = rs.software_device()
    dev.register_info(rs.camera_info.name, "compare align")
    profiles = []
    for name, stream, fmt, w, h, bpp, uid, fx, model in [
        ("Stereo Module", rs.stream.depth, rs.format.z16, 848, 480, 2, 1, 421.0,
         rs.distortion.brown_conrady),
        ("RGB Camera", rs.stream.color, rs.format.rgb8, 1280, 720, 3, 2, 910.0,
         rs.distortion.inverse_brown_conrady),
    ]:
        sensor = dev.add_sensor(name)
        if stream == rs.stream.depth:
            sensor.add_read_only_option(rs.option.depth_units, 0.001)
        intr = rs.intrinsics()
        intr.width, intr.height, intr.ppx, intr.ppy = w, h, w / 2 + 2.3, h / 2 - 1.7
        intr.fx, intr.fy, intr.model, intr.coeffs = fx, fx + 0.4, model, [0.0] * 5
        vs = rs.video_stream()
        vs.type, vs.index, vs.uid, vs.width, vs.height, vs.fps = stream, 0, uid, w, h, 30
        vs.bpp, vs.fmt, vs.intrinsics = bpp, fmt, intr
        profiles.append((sensor, sensor.add_video_stream(vs, True), w, h, bpp))
    e = rs.extrinsics()
    e.rotation = [0.99999, 0.0035, -0.0028, -0.0035, 0.99999, 0.0012, 0.0028, -0.0012, 0.99999]
    e.translation = [0.0148, 0.0001, 0.0003]
    profiles[0][1].register_extrinsics_to(profiles[1][1], e)
    rng = np.random.default_rng(3)
    depth = [depth_image(848, 480, k, rng).tobytes() for k in range(4)]
    color = [rng.integers(0, 256, 1280 * 720 * 3, dtype=np.uint8).tobytes() for _ in range(4)]
    recorder = rs.recorder(str(path), dev, True)
    for sensor, profile, *_ in profiles:
        sensor.open(profile)
        sensor.start(lambda f: None)
    for n in range(frames):
        for (sensor, profile, w, h, bpp), pixels in zip(profiles, (depth, color)):
            f = rs.software_video_frame()
            f.pixels = pixels[n % 4]
            f.stride, f.bpp = w * bpp, bpp
            f.timestamp, f.domain, f.frame_number = n * 33.3, rs.timestamp_domain.hardware_clock, n + 1
            f.profile = profile.as_video_stream_profile()
            sensor.on_video_frame(f)
        time.sleep(1 / 30)  # librealsense's recorder drops frames it is fed faster
    for sensor, *_ in profiles:
        sensor.stop()
        sensor.close()
    recorder.pause()
    del recorder


def run(python, code, path, mode):
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    out = subprocess.run([str(python), "-c", code, str(path), mode], check=True,
                         capture_output=True, text=True, env=env).stdout.split()
    return float(out[0]), int(out[1]), int(out[2])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--frames", type=int, default=300)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--framesets", action="store_true",
                        help="rsbag reads depth+colour framesets, as the pipeline does")
    args = parser.parse_args()
    path = ROOT / "target/bench-align/session.bag"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        print(f"writing {path} ({args.frames} frames a stream) with librealsense...")
        write_bag(path.with_suffix(".partial.bag"), args.frames)
        path.with_suffix(".partial.bag").rename(path)
    subprocess.run(["cat", str(path)], stdout=subprocess.DEVNULL, check=True)
    best = {}
    for _ in range(args.runs):
        for name, python, code in (("rsbag", VENV, RSBAG), ("pyrealsense2", "python3", PYREALSENSE2)):
            seconds, n, total = run(python, code, path,
                                    "framesets" if args.framesets else "depth")
            if name not in best or seconds < best[name][0]:
                best[name] = (seconds, n, total)
    size = path.stat().st_size / 1e9
    for name, (seconds, n, total) in best.items():
        print(f"{name:13} {seconds:6.2f} s  {n} depth frames aligned  ({size:.2f} GB file)")
    ratio = best["pyrealsense2"][0] / best["rsbag"][0]
    print(f"rsbag is {ratio:.1f}x pyrealsense2's rs.align (target 2x)")
    if best["rsbag"][1:] != best["pyrealsense2"][1:]:
        print(f"note: frames/sums differ: rsbag {best['rsbag'][1:]}, "
              f"pyrealsense2 {best['pyrealsense2'][1:]}")


if __name__ == "__main__":
    main()
