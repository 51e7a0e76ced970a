#!/usr/bin/env python3
"""librealsense's post-processing chain over every depth frame of a 1 GB
recording: the rsbag Python package against pyrealsense2 2.55's
`filter.process`, in one run, on the same frames.

Usage (from the crate root, with the system's python3 that has
pyrealsense2 2.55, after `bash scripts/test-python.sh`, which builds rsbag
into target/venv-python):
    python3 benches/compare_filters.py [--frames 1300] [--rounds 5]

The recording (target/bench-filters/depth.bag, written once) is written by
librealsense itself (`rs.recorder`, LZ4) from a software_device shaped like
a D435's depth: 848x480 Z16, Depth Units 1 mm, Stereo Baseline 50 mm,
--frames frames (1300: 1.06 GB of depth), each a slanted wavy wall with
noise, a moving box and 6 % holes.

The chain, both sides: decimation (magnitude 2) -> depth-to-disparity ->
spatial -> temporal -> disparity-to-depth -> hole-filling, librealsense's
defaults.
- pyrealsense2: the file played by its playback device (real time off, so
  no frame is dropped), each frame through the six filters' `process` in
  the sensor's callback;
- rsbag: `recording.frames(streams=["Depth"], filters=chain)`.
The consumer is the same: the sum of each output frame's values; the two
sums must be equal (the outputs are the same, bit for bit). Each side runs
in its own interpreter, the recording in the page cache, the two
alternating for --rounds rounds. Prints each round's times (and the CPU
time each interpreter used, all threads) and ratio, then the median ratio
(librealsense time / rsbag time) with its spread.
"""

import argparse
import resource
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VENV = ROOT / "target/venv-python/bin/python"
sys.path.insert(0, str(ROOT / "tests/interop"))

RSBAG = r'''
import sys, time, numpy as np, rsbag
from rsbag import filters as f
start = time.perf_counter()
recording = rsbag.open(sys.argv[1])
chain = [f.Decimation(), f.DepthToDisparity(), f.Spatial(), f.Temporal(),
         f.DisparityToDepth(), f.HoleFilling()]
n = total = 0
for frame in recording.frames(streams=["Depth"], filters=chain):
    total += int(frame.as_array().sum(dtype=np.uint64)); n += 1
print(time.perf_counter() - start, n, total)
'''

PYREALSENSE2 = r'''
import sys, threading, time, numpy as np, pyrealsense2 as rs
start = time.perf_counter()
chain = [rs.decimation_filter(), rs.disparity_transform(True), rs.spatial_filter(),
         rs.temporal_filter(), rs.disparity_transform(False), rs.hole_filling_filter()]
device = rs.context().load_device(sys.argv[1])
playback = device.as_playback()
playback.set_real_time(False)
sensor = device.query_sensors()[0]
profile = next(p for p in sensor.get_stream_profiles() if p.stream_type() == rs.stream.depth)
done, seen, result = threading.Event(), set(), [0, 0]
def on_frame(frame):
    number = frame.get_frame_number()
    if number in seen:
        return
    seen.add(number)
    for block in chain:
        frame = block.process(frame)
    result[0] += 1
    result[1] += int(np.asanyarray(frame.get_data()).sum(dtype=np.uint64))
playback.set_status_changed_callback(
    lambda s: done.set() if s == rs.playback_status.stopped else None)
sensor.open(profile)
sensor.start(on_frame)
done.wait()
elapsed = time.perf_counter() - start
sensor.stop(); sensor.close()
print(elapsed, result[0], result[1])
'''


def record(path, frames):
    import numpy as np
    import pyrealsense2 as rs
    import rs_filters

    path.parent.mkdir(parents=True, exist_ok=True)
    dev = rs.software_device()
    dev.register_info(rs.camera_info.name, "rsbag filters benchmark")
    dev.register_info(rs.camera_info.serial_number, "29")
    stereo = dev.add_sensor("Stereo Module")
    stereo.add_read_only_option(rs.option.depth_units, 0.001)
    stereo.add_read_only_option(rs.option.stereo_baseline, 50.0)
    stream = rs.video_stream()
    stream.type, stream.index, stream.uid = rs.stream.depth, 0, 1
    stream.width, stream.height, stream.fps = 848, 480, 30
    stream.bpp, stream.fmt = 2, rs.format.z16
    i = rs.intrinsics()
    i.width, i.height, i.ppx, i.ppy, i.fx, i.fy = 848, 480, 424.3, 239.6, 421.0, 421.0
    i.model = rs.distortion.brown_conrady
    stream.intrinsics = i
    profile = stereo.add_video_stream(stream, True)
    recorder = rs.recorder(str(path), dev)
    stereo.open(profile)
    stereo.start(lambda frame: None)
    rng = np.random.default_rng(29)
    import time
    for n in range(1, frames + 1):
        f = rs.software_video_frame()
        f.pixels, f.stride, f.bpp = rs_filters.depth_image(848, 480, n, rng).tobytes(), 848 * 2, 2
        f.timestamp, f.domain, f.frame_number = 1000.0 + 33.3 * n, rs.timestamp_domain.hardware_clock, n
        f.profile = profile.as_video_stream_profile()
        stereo.on_video_frame(f)
        time.sleep(0.005)
    time.sleep(0.5)
    stereo.stop()
    stereo.close()
    recorder.pause()
    del recorder


def cpu_seconds():
    """User and system CPU time of this process's finished children."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(python, code, bag):
    """The time one side takes (as it measures it), its frames and sum,
    and the CPU time its interpreter used (all its threads)."""
    before = cpu_seconds()
    out = subprocess.run([str(python), "-c", code, str(bag)], check=True,
                         capture_output=True, text=True).stdout.split()
    return float(out[0]), int(out[1]), int(out[2]), cpu_seconds() - before


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--frames", type=int, default=1300)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    bag = ROOT / f"target/bench-filters/depth-{args.frames}.bag"
    if not bag.exists():
        record(bag, args.frames)
    ratios = []
    for k in range(args.rounds):
        rs_time, rs_n, rs_sum, rs_cpu = run(sys.executable, PYREALSENSE2, bag)
        ours, n, total, our_cpu = run(VENV, RSBAG, bag)
        if (n, total) != (rs_n, rs_sum):
            sys.exit(f"outputs differ: rsbag {n} frames sum {total}, pyrealsense2 {rs_n} frames sum {rs_sum}")
        ratios.append(rs_time / ours)
        print(f"round {k + 1}: pyrealsense2 {rs_time:.2f} s ({rs_cpu:.2f} s CPU), "
              f"rsbag {ours:.2f} s ({our_cpu:.2f} s CPU), {n} frames, x{ratios[-1]:.2f}")
    print(f"median x{statistics.median(ratios):.2f} (min x{min(ratios):.2f}, "
          f"max x{max(ratios):.2f}) over {len(ratios)} rounds; outputs equal")


if __name__ == "__main__":
    main()
