#!/usr/bin/env python3
"""read_bag_example.py's code, every frame to numpy, run unchanged through
librealsense's pyrealsense2 2.55 and through rsbag.pyrealsense2 (the one
import changed), on the same LZ4 recording librealsense wrote, in one run.

Usage (from the crate root, with the system's python3 that has
pyrealsense2 2.55, after `bash scripts/test-python.sh`, which builds rsbag
into target/venv-python):
    python3 benches/compare_pyrealsense2.py [--frames 100] [--runs 3]

The recording: depth 848x480 Z16 + colour 1280x720 RGB8, --frames each,
camera-like content, LZ4 (benches/compare_librealsense.py's write_bag,
through rs.recorder). The code (below, READ) starts a pipeline on the file
with real time off and takes framesets with try_wait_for_frames until the
end; each frame's data goes to numpy (`np.asanyarray(frame.get_data())`)
and the consumer reads every byte (its maximum). Each runs in its own
interpreter, the recording in the page cache, alternating, --runs rounds;
the ratio is the median of the per-round ratios, with its spread. Both
must see the same number of frames.
"""

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VENV = ROOT / "target/venv-python/bin/python"

READ = r'''
import sys, time
import numpy as np
import {module} as rs

start = time.perf_counter()
pipeline = rs.pipeline()
config = rs.config()
rs.config.enable_device_from_file(config, sys.argv[1], repeat_playback=False)
profile = pipeline.start(config)
profile.get_device().as_playback().set_real_time(False)
frames_seen, total = 0, 0
while True:
    ok, frames = pipeline.try_wait_for_frames(1000)
    if not ok:
        break
    for frame in frames:
        image = np.asanyarray(frame.get_data())
        total += int(image.max())
        frames_seen += 1
pipeline.stop()
print(time.perf_counter() - start, frames_seen, total)
'''


def run(python, module, path):
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    out = subprocess.run([str(python), "-c", READ.format(module=module), str(path)], check=True,
                         capture_output=True, text=True, env=env).stdout.split()
    return float(out[0]), int(out[1]), int(out[2])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--frames", type=int, default=100)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--dir", default="target/bench-pyrealsense2")
    args = ap.parse_args()
    work = ROOT / args.dir
    work.mkdir(parents=True, exist_ok=True)
    bag = work / f"session-{args.frames}.bag"
    if not bag.exists():
        sys.path.insert(0, str(ROOT / "benches"))
        from compare_librealsense import write_bag

        write_bag(str(bag), args.frames, True)
    readers = {"pyrealsense2": (Path(sys.executable), "pyrealsense2"),
               "rsbag.pyrealsense2": (VENV, "rsbag.pyrealsense2")}
    times = {name: [] for name in readers}
    seen = {}
    for r in range(args.runs):
        for name in (list(readers) if r % 2 == 0 else list(reversed(readers))):
            with open(bag, "rb") as f:  # the recording in the page cache, for each alike
                while f.read(1 << 24):
                    pass
            python, module = readers[name]
            seconds, n, total = run(python, module, bag)
            seen[name] = (n, total)
            times[name].append(seconds)
    for name, seconds in times.items():
        print(f"{name:20} {' '.join(f'{x:.3f}' for x in seconds)} s "
              f"(median {statistics.median(seconds):.3f}), {seen[name][0]} frames")
    if seen["pyrealsense2"] != seen["rsbag.pyrealsense2"]:
        sys.exit(f"the two saw different frames: {seen}")
    ratios = [a / b for a, b in zip(times["pyrealsense2"], times["rsbag.pyrealsense2"])]
    print(f"{bag.stat().st_size / 1e9:.2f} GB LZ4 recording, {args.runs} rounds: "
          f"rsbag.pyrealsense2 {statistics.median(ratios):.2f}x "
          f"({min(ratios):.2f}-{max(ratios):.2f}) pyrealsense2's speed (median of per-round "
          "ratios, lowest-highest)")


if __name__ == "__main__":
    main()
