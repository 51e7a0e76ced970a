#!/usr/bin/env python3
"""Every frame of a 1 GB LZ4 RealSense recording into numpy, with a
consumer that reads every byte: the rsbag Python package against
pyrealsense2 2.55's offline playback and the rosbags library, in one run.

Usage (from the crate root, with the system's python3 that has
pyrealsense2 2.55, rosbags and xxhash (`pip install xxhash`), after
`bash scripts/test-python.sh`, which builds rsbag into
target/venv-python):
    python3 benches/compare_python_readers.py [--frames 300] [--runs 3]

The recording is written by librealsense itself (`rs.recorder`, LZ4, as
benches/compare_librealsense.py writes it): depth 848x480 Z16 + colour
1280x720 RGB8, --frames each (300: 1.07 GB of frames), camera-like content
(gradients with noise, which LZ4 barely compresses). Each reader runs in
its own interpreter, the recording in the page cache, the three
alternating, best of --runs:

- rsbag: `for frame in rsbag.open(path).frames(): frame.as_array()`;
- pyrealsense2: `ctx.load_device(path)`, `set_real_time(False)`, every
  sensor opened with its recorded profiles and started paused, each frame
  as `np.asanyarray(frame.get_data())` in the callback, until stopped;
- rosbags: `rosbags.rosbag1.Reader` over the image topics, each message
  deserialized (`deserialize_ros1`, with librealsense's Image layout: the
  standard fields and a trailing float32 depth_units, which rosbags'
  own sensor_msgs/Image refuses) and its data as a numpy array.

The consumer is the same for all: the maximum of the frame's bytes
(numpy reads each byte once). Prints times, frames, GB/s and the ratios.

Two floors, timed the same way, bound what any reader can do here:
- reading: the consumer over the whole file at once (`np.memmap(path)`,
  one `max()`), i.e. every byte mapped and read once, nothing decoded;
- checking: xxHash32 over the whole file, mapped before the clock
  starts (the `xxhash` package: the reference C library), the LZ4
  content checksum every LZ4 frame of the recording carries and that
  rosbags (python-lz4's LZ4F_decompress) and rsbag both verify.
A reader that verifies the checksums needs at least both, shared
between this machine's two cores: (reading + checking) / 2.
"""

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

from compare_rosbags_convert import read_through  # benches/ is on the path

ROOT = Path(__file__).resolve().parents[1]
VENV = ROOT / "target/venv-python/bin/python"

RSBAG = r'''
import sys, time, numpy as np, rsbag
start = time.perf_counter(); n = size = 0
for frame in rsbag.open(sys.argv[1]).frames():
    a = frame.as_array().reshape(-1).view(np.uint8)
    a.max(); n += 1; size += a.size
print(time.perf_counter() - start, n, size)
'''

PYREALSENSE2 = r'''
import sys, threading, time, numpy as np, pyrealsense2 as rs
ctx = rs.context(); dev = ctx.load_device(sys.argv[1])
playback = dev.as_playback(); playback.set_real_time(False)
lock = threading.Lock(); counts = [0, 0]
stopped, playing = threading.Event(), threading.Event()
def on_status(status):
    if status == rs.playback_status.playing:
        playing.set()
    elif status == rs.playback_status.stopped and playing.is_set():
        stopped.set()
def on_frame(f):
    a = np.asanyarray(f.get_data()).reshape(-1).view(np.uint8)
    a.max()
    with lock:
        counts[0] += 1; counts[1] += a.size
playback.set_status_changed_callback(on_status)
sensors = [s for s in dev.query_sensors() if s.get_stream_profiles()]
start = time.perf_counter()
for s in sensors:
    s.open(s.get_stream_profiles()); s.start(on_frame)
stopped.wait(600)
elapsed = time.perf_counter() - start
for s in sensors:
    s.stop(); s.close()
print(elapsed, counts[0], counts[1])
'''

ROSBAGS = r'''
import sys, time, numpy as np
from rosbags.rosbag1 import Reader
from rosbags.typesys import Stores, get_types_from_msg, get_typestore
ts = get_typestore(Stores.ROS1_NOETIC)
# librealsense's Image: the standard fields, then float32 depth_units.
ts.register(get_types_from_msg("""std_msgs/Header header
uint32 height
uint32 width
string encoding
uint8 is_bigendian
uint32 step
uint8[] data
float32 depth_units""", "realsense_msgs/msg/RsImage"))
start = time.perf_counter(); n = size = 0
with Reader(sys.argv[1]) as r:
    conns = [c for c in r.connections if c.msgtype == "sensor_msgs/msg/Image"]
    for c, t, raw in r.messages(connections=conns):
        m = ts.deserialize_ros1(raw, "realsense_msgs/msg/RsImage")
        a = np.asarray(m.data).reshape(-1).view(np.uint8)
        a.max(); n += 1; size += a.size
print(time.perf_counter() - start, n, size)
'''


READING_FLOOR = r'''
import sys, time, numpy as np
start = time.perf_counter()
a = np.memmap(sys.argv[1], dtype=np.uint8, mode="r")
a.max()
print(time.perf_counter() - start, 0, a.size)
'''

CHECKING_FLOOR = r'''
import mmap, sys, time, xxhash
with open(sys.argv[1], "rb") as f, mmap.mmap(f.fileno(), 0, prot=mmap.PROT_READ,
                                             flags=mmap.MAP_SHARED | mmap.MAP_POPULATE) as m:
    start = time.perf_counter()  # mapped already: reading's floor counts that
    xxhash.xxh32_intdigest(m)
    print(time.perf_counter() - start, 0, len(m))
'''


def run(python, code, path):
    # No reader uses BLAS; numpy's OpenBLAS threads would only spin beside
    # the readers' own threads (17% of a profile on two cores).
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    out = subprocess.run([str(python), "-c", code, str(path)], check=True,
                         capture_output=True, text=True, env=env).stdout.split()
    return float(out[0]), int(out[1]), int(out[2])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--frames", type=int, default=300)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--dir", default="target/bench-python")
    args = ap.parse_args()
    work = ROOT / args.dir
    work.mkdir(parents=True, exist_ok=True)
    bag = work / "session.bag"
    if not bag.exists():
        sys.path.insert(0, str(ROOT / "benches"))
        from compare_librealsense import write_bag

        write_bag(str(bag), args.frames, True)
    readers = {"rsbag": (VENV, RSBAG), "pyrealsense2": (Path(sys.executable), PYREALSENSE2),
               "rosbags": (Path(sys.executable), ROSBAGS),
               "floor: reading": (Path(sys.executable), READING_FLOOR),
               "floor: checking": (Path(sys.executable), CHECKING_FLOOR)}
    best = {}
    frames = {}
    for r in range(args.runs):
        order = list(readers) if r % 2 == 0 else list(reversed(readers))
        for name in order:
            read_through(bag)  # the recording in the page cache, for each alike
            python, code = readers[name]
            seconds, n, size = run(python, code, bag)
            frames[name] = (n, size)
            best[name] = min(best.get(name, seconds), seconds)
    size = bag.stat().st_size
    for name, seconds in best.items():
        n, data = frames[name]
        what = f"{n} frames" if n else "the file"
        print(f"{name:16} {seconds:6.3f} s  {what}, {data / seconds / 1e9:.2f} GB/s")
    print(f"{size / 1e9:.2f} GB LZ4 recording: rsbag {best['pyrealsense2'] / best['rsbag']:.1f}x "
          f"pyrealsense2, {best['rosbags'] / best['rsbag']:.1f}x rosbags")
    bound = (best["floor: reading"] + best["floor: checking"]) / 2
    print(f"a verifying reader on two cores takes at least {bound:.3f} s: "
          f"{best['rosbags'] / bound:.1f}x rosbags at most; reading alone, on one thread, "
          f"{best['rosbags'] / best['floor: reading']:.1f}x")


if __name__ == "__main__":
    main()
