#!/usr/bin/env python3
"""Every frame of a 1 GB LZ4 RealSense recording into numpy, with a
consumer that reads every byte: the rsbag Python package against
pyrealsense2 2.55's offline playback and the rosbags library, in one run.

Usage (from the crate root, with the system's python3 that has
pyrealsense2 2.55, rosbags and xxhash (`pip install xxhash`), after
`bash scripts/test-python.sh`, which builds rsbag into
target/venv-python):
    python3 benches/compare_python_readers.py [--frames 300] [--runs 3]
    python3 benches/compare_python_readers.py --imu 60 [--runs 5]

The recording is written by librealsense itself (`rs.recorder`, LZ4, as
benches/compare_librealsense.py writes it): depth 848x480 Z16 + colour
1280x720 RGB8, --frames each (300: 1.07 GB of frames), camera-like content
(gradients with noise, which LZ4 barely compresses). Each reader runs in
its own interpreter, the recording in the page cache, the three
alternating, --runs rounds; ratios are the median of the per-round
ratios, with their spread:

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

--imu SECONDS: every gyro sample of an LZ4 IMU recording (`rsbag record
--synthetic --streams accel,gyro`, gyro at 400 Hz, accel at 200 Hz) with
its frame number and timestamp: `Recording.columns("Gyro")` in one call,
rsbag frame by frame, rosbags deserializing each sensor_msgs/Imu, and the
floor: decoding every LZ4 chunk of the file once (python-lz4, content
checksum verified), which any reader of the samples does, since the gyro's
messages share chunks with the accelerometer's and with their metadata.
"""

import argparse
import os
import statistics
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
    ap.add_argument("--imu", type=int, default=0, metavar="SECONDS",
                    help="instead: every gyro sample of an IMU recording of SECONDS seconds "
                         "(rsbag record --synthetic --streams accel,gyro) as columns")
    args = ap.parse_args()
    if args.imu:
        imu_main(args)
        return
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
    times = {name: [] for name in readers}
    frames = {}
    for r in range(args.runs):
        order = list(readers) if r % 2 == 0 else list(reversed(readers))
        for name in order:
            read_through(bag)  # the recording in the page cache, for each alike
            python, code = readers[name]
            seconds, n, size = run(python, code, bag)
            frames[name] = (n, size)
            times[name].append(seconds)
    size = bag.stat().st_size
    for name, seconds in times.items():
        n, data = frames[name]
        what = f"{n} frames" if n else "the file"
        med = statistics.median(seconds)
        print(f"{name:16} {' '.join(f'{x:.3f}' for x in seconds)} s (median {med:.3f}), {what}, "
              f"{data / med / 1e9:.2f} GB/s")
    bound = [(a + b) / 2 for a, b in zip(times["floor: reading"], times["floor: checking"])]
    print(f"{size / 1e9:.2f} GB LZ4 recording, {args.runs} rounds, medians of per-round ratios "
          f"(spread): rsbag {spread(ratios(times['pyrealsense2'], times['rsbag']))} pyrealsense2, "
          f"{spread(ratios(times['rosbags'], times['rsbag']))} rosbags; rsbag against a verifying "
          f"reader on two cores (reading + checking) / 2: {spread(ratios(times['rsbag'], bound))}")


def ratios(a, b):
    return [x / y for x, y in zip(a, b)]


def spread(values):
    """The median of per-round values, with the lowest and highest."""
    return f"{statistics.median(values):.2f}x ({min(values):.2f}-{max(values):.2f})"


# Every gyro sample of an IMU recording, its numbers and timestamps: rsbag's
# columnar read, rsbag frame by frame, rosbags, and the floor of decoding
# the recording's LZ4 chunks (python-lz4, the C library, content checksum
# verified, as both readers verify it). Each prints seconds and samples.
IMU_COLUMNS = r'''
import sys, time, rsbag
start = time.perf_counter()
c = rsbag.open(sys.argv[1]).columns("Gyro")
assert c["data"].shape[1] == 3
print(time.perf_counter() - start, len(c["index"]), 0)
'''

IMU_FRAMES = r'''
import sys, time, rsbag
start = time.perf_counter(); n = 0
for f in rsbag.open(sys.argv[1]).frames(streams=["Gyro"]):
    f.as_array(); f.timestamp; f.frame_number; n += 1
print(time.perf_counter() - start, n, 0)
'''

# as_array's own cost: the same gyro frame made an array again and again.
AS_ARRAY = r'''
import sys, time, rsbag
frame = rsbag.open(sys.argv[1]).frame("Gyro", 0)
n = 200000
start = time.perf_counter()
for _ in range(n):
    frame.as_array()
print(time.perf_counter() - start, n, 0)
'''

IMU_ROSBAGS = r'''
import sys, time, numpy as np
from rosbags.rosbag1 import Reader
from rosbags.typesys import Stores, get_typestore
ts = get_typestore(Stores.ROS1_NOETIC)
start = time.perf_counter(); n = 0
with Reader(sys.argv[1]) as r:
    conns = [c for c in r.connections if c.msgtype == "sensor_msgs/msg/Imu" and "Gyro" in c.topic]
    for c, t, raw in r.messages(connections=conns):
        m = ts.deserialize_ros1(raw, c.msgtype)
        v = m.angular_velocity; (v.x, v.y, v.z, m.header.stamp.sec, m.header.seq); n += 1
print(time.perf_counter() - start, n, 0)
'''

IMU_FLOOR = r'''
import mmap, struct, sys, time, lz4.frame
def fields(h):
    d, i = {}, 0
    while i < len(h):
        n = struct.unpack_from("<I", h, i)[0]; k, v = h[i + 4:i + 4 + n].split(b"=", 1)
        d[k] = v; i += 4 + n
    return d
with open(sys.argv[1], "rb") as f:
    m = mmap.mmap(f.fileno(), 0, prot=mmap.PROT_READ)
    chunks, pos = [], 13
    while pos < len(m):
        hl = struct.unpack_from("<I", m, pos)[0]; h = fields(m[pos + 4:pos + 4 + hl])
        dl = struct.unpack_from("<I", m, pos + 4 + hl)[0]
        if h[b"op"] == b"\x05" and h[b"compression"] == b"lz4":
            chunks.append(m[pos + 8 + hl:pos + 8 + hl + dl])
        pos += 8 + hl + dl
start = time.perf_counter()
size = sum(len(lz4.frame.decompress(c)) for c in chunks)
print(time.perf_counter() - start, 0, size)
'''


def imu_main(args):
    """The columnar read against its floor and the other readers."""
    work = ROOT / args.dir
    work.mkdir(parents=True, exist_ok=True)
    bag = work / f"imu-{args.imu}s.bag"
    if not bag.exists():
        subprocess.run([str(ROOT / "target/release/rsbag"), "record", "--synthetic",
                        "--streams", "accel,gyro", "--duration", str(args.imu), "--out", str(bag)],
                       check=True, stdout=subprocess.DEVNULL)
    readers = {"rsbag columns": (VENV, IMU_COLUMNS), "rsbag frames": (VENV, IMU_FRAMES),
               "rosbags": (Path(sys.executable), IMU_ROSBAGS),
               "floor: LZ4 decoding": (Path(sys.executable), IMU_FLOOR),
               "as_array": (VENV, AS_ARRAY)}
    times = {name: [] for name in readers}
    calls = 0
    samples = 0
    for r in range(args.runs):
        order = list(readers) if r % 2 == 0 else list(reversed(readers))
        for name in order:
            read_through(bag)
            python, code = readers[name]
            seconds, n, _ = run(python, code, bag)
            if name == "as_array":
                calls = n
            else:
                samples = max(samples, n)
            times[name].append(seconds)
    per_call = [s / calls * 1e6 for s in times.pop("as_array")]
    print(f"{'as_array':20} {statistics.median(per_call):.3f} us a call "
          f"({min(per_call):.3f}-{max(per_call):.3f}), a gyro frame {calls} times")
    for name, seconds in times.items():
        rates = [samples / s / 1e6 for s in seconds]
        print(f"{name:20} {' '.join(f'{x:.4f}' for x in seconds)} s: {samples} gyro samples, "
              f"median {statistics.median(rates):.2f} M samples/s ({min(rates):.2f}-{max(rates):.2f})")
    cols = times["rsbag columns"]
    print(f"{bag.stat().st_size / 1e6:.1f} MB IMU recording, {args.runs} rounds, medians of "
          f"per-round ratios (spread): columns {spread(ratios(times['rsbag frames'], cols))} "
          f"faster than frame by frame, {spread(ratios(times['rosbags'], cols))} rosbags; "
          f"columns / LZ4-decoding floor {spread(ratios(cols, times['floor: LZ4 decoding']))}")

if __name__ == "__main__":
    main()
