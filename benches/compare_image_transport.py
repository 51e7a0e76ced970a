#!/usr/bin/env python3
"""image_transport's compressed camera topics, read into pixels and written,
against rosbags + OpenCV (what a Python user of ROS 2 bags does), in the
same run.

Usage (from the crate root, after `cargo build --release -p rsbag-cli`,
the Python package built in release into its own environment:
`python3 -m venv --system-site-packages target/venv-bench &&
target/venv-bench/bin/pip install ./python`, and
`bash scripts/install-test-deps.sh` for rosbags and OpenCV):
    python3 benches/compare_image_transport.py [--mb 1024]
        [--write-frames 300] [--runs 3] [--dir target/bench-data]

The bags are a RealSense ROS 2 wrapper's (realsense-ros 4.x) topics as
`ros2 bag record` writes them (rosbags' writer, sqlite3): colour 1280x720
rgb8 and depth 848x480 16UC1 at 30 fps, each with its camera_info, the
images through image_transport as its plugins publish them:
`/camera/camera/color/image_raw/compressed` ("rgb8; jpeg compressed
bgr8": the picture made BGR, then `cv2.imencode` JPEG at the plugin's
default quality 95) and `/camera/camera/depth/image_rect_raw/compressedDepth`
("16UC1; compressedDepth png": the 12-byte ConfigHeader, then
`cv2.imencode` PNG at the plugin's default png_level 9), encoded by
tests/interop/image_transport.py. The pictures are camera-like (smooth
gradients, a moving disc, sensor noise, depth holes), 30 of them cycled:
encoding a gigabyte of them one by one would dominate the run, and
decoding costs the same whichever frame it is.

- reading: every image of the --mb megabyte compressed bag into pixels,
  with a consumer that reads every byte (the array's maximum), each in an
  interpreter of its own: rsbag's Python package
  (`for frame in rsbag.open(bag).frames(): frame.as_array()`, decoded on
  the reader's decode threads) against rosbags' Reader,
  `deserialize_cdr` and the plugins' subscribers' decoding
  (`cv2.imdecode`, then `cvtColor` to the rgb8 the format names; depth's
  header skipped, as compressed_depth_image_transport does). Both must
  give as many frames of as many bytes, and the same depth.
- writing: a raw bag of --write-frames frames of the same pictures
  (sensor_msgs/Image on image_raw and image_rect_raw, camera_info) into
  the compressed topics: `rsbag convert --to ros2 --image-transport
  compressed` (JPEG quality 95, PNG depth) against a Python process that
  reads it with rosbags, encodes as the plugins' publishers do
  (`cv2.imencode`, as above) and writes the same topics and camera_info
  with rosbags' writer (sqlite3, as rsbag). Timed as whole processes;
  the output sizes are printed: rsbag's PNG is zlib's fastest level
  (fdeflate), the plugin's is level 9, so the Python writer is also run
  at png_level 1, the plugin's cheapest, to show what that level costs.

Each run starts with the input in the page cache, nothing waiting to be
written back (`sync`) and --settle seconds waited (see
compare_rosbags_convert.py: on this VM freed memory is taken back by the
host, and a run right after another writes into memory in another
state). The tools alternate; the median of per-round ratios counts, with
their spread (never a best-of).
"""

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
from rosbags.rosbag2 import Writer
from rosbags.typesys import Stores, get_typestore

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests/interop"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_rosbags_convert import describe, fmt, read_through  # noqa: E402
from image_transport import encode_depth, encode_image  # noqa: E402

COLOR, DEPTH = (1280, 720), (848, 480)
NS = "/camera/camera"
COLOR_TOPIC, DEPTH_TOPIC = f"{NS}/color/image_raw", f"{NS}/depth/image_rect_raw"
SCENES = 30
PERIOD_NS = 33_333_333
JPEG_QUALITY = 95  # compressed_image_transport's default jpeg_quality

# The readers. Each prints: seconds, frames, pixel bytes, and a hash of
# the first depth image (the codecs are lossless for depth, so both
# readers must agree on it).
RSBAG_READ = r'''
import hashlib, sys, time, numpy as np, rsbag
start = time.perf_counter(); n = size = 0; depth = None
for frame in rsbag.open(sys.argv[1]).frames():
    a = frame.as_array()
    if depth is None and a.dtype == np.uint16:
        depth = hashlib.sha256(a.tobytes()).hexdigest()
    a.max(); n += 1; size += a.nbytes
print(time.perf_counter() - start, n, size, depth)
'''

OPENCV_READ = r'''
import hashlib, sys, time, numpy as np
sys.path.insert(0, sys.argv[2])
from rosbags.rosbag2 import Reader
from rosbags.typesys import Stores, get_typestore
from image_transport import decode_compressed
ts = get_typestore(Stores.ROS2_HUMBLE)
start = time.perf_counter(); n = size = 0; depth = None
with Reader(sys.argv[1]) as r:
    conns = [c for c in r.connections if c.msgtype == "sensor_msgs/msg/CompressedImage"]
    for conn, _, raw in r.messages(connections=conns):
        msg = ts.deserialize_cdr(raw, conn.msgtype)
        _, a = decode_compressed(conn.topic, msg.format, msg.data.tobytes())
        if depth is None and a.dtype == np.uint16:
            depth = hashlib.sha256(a.tobytes()).hexdigest()
        a.max(); n += 1; size += a.nbytes
print(time.perf_counter() - start, n, size, depth)
'''

# The Python writer: the raw bag's images encoded as the plugins'
# publishers do, written with their camera_info.
OPENCV_WRITE = r'''
import sys, numpy as np
sys.path.insert(0, sys.argv[3])
import image_transport
from rosbags.rosbag2 import Reader, Writer
from rosbags.typesys import Stores, get_typestore
png_level = int(sys.argv[4])
ts = get_typestore(Stores.ROS2_HUMBLE)
Compressed = ts.types["sensor_msgs/msg/CompressedImage"]
with Reader(sys.argv[1]) as r, Writer(sys.argv[2], version=8) as w:
    out = {}
    for conn, t, raw in r.messages():
        if conn.msgtype != "sensor_msgs/msg/Image":
            if conn.topic not in out:
                out[conn.topic] = w.add_connection(conn.topic, conn.msgtype, typestore=ts)
            w.write(out[conn.topic], t, raw)
            continue
        msg = ts.deserialize_cdr(raw, conn.msgtype)
        if msg.encoding == "16UC1":
            depth = msg.data.view("<u2").reshape(msg.height, msg.width)
            fmt, data, _ = image_transport.encode_depth(depth, "png", "16UC1", png_level)
            topic = conn.topic + "/compressedDepth"
        else:
            picture = msg.data.reshape(msg.height, msg.width, 3)
            fmt, data = image_transport.encode_image(picture, msg.encoding, "jpeg", quality=95)
            topic = conn.topic + "/compressed"
        if topic not in out:
            out[topic] = w.add_connection(topic, "sensor_msgs/msg/CompressedImage", typestore=ts)
        m = Compressed(header=msg.header, format=fmt, data=np.frombuffer(data, np.uint8))
        w.write(out[topic], t, ts.serialize_cdr(m, "sensor_msgs/msg/CompressedImage"))
'''


def scenes():
    """SCENES camera-like (colour rgb8, depth mm) pairs: smooth gradients,
    a disc moving across, sensor noise; depth a slanted plane with holes
    of no depth, as stereo depth has."""
    out = []
    for i in range(SCENES):
        pair = []
        for (width, height), depth in ((COLOR, False), (DEPTH, True)):
            y, x = np.mgrid[0:height, 0:width].astype(np.float64)
            cx, cy = width * (0.2 + 0.02 * i), height * 0.5
            disc = ((x - cx) ** 2 + (y - cy) ** 2) < (height * 0.25) ** 2
            noise = np.random.default_rng(2 * i + depth).normal(0, 2, (height, width))
            if depth:
                d = 700 + 3 * x + 2 * y + np.where(disc, -250, 0) + noise
                d[(x // 97 + y // 83 + i) % 7 == 0] = 0
                pair.append(np.clip(d, 0, 65535).astype(np.uint16))
            else:
                r = 40 + 150 * x / width + 50 * y / height + np.where(disc, 80, 0) + noise
                g = 200 - 120 * y / height + noise
                b = 60 + 60 * np.sin(x / 23.0) + np.where(disc, -40, 0) + noise
                pair.append(np.clip(np.dstack([r, g, b]), 0, 255).astype(np.uint8))
        out.append(pair)
    return out


def write_bag(path, frames, images):
    """A wrapper's bag of `frames` colour + depth frames; `images(i)` gives
    frame i's ((colour type, message), (depth type, message)) builders."""
    ts = get_typestore(Stores.ROS2_HUMBLE)
    T = ts.types
    Header, Time, Info = T["std_msgs/msg/Header"], T["builtin_interfaces/msg/Time"], T["sensor_msgs/msg/CameraInfo"]
    roi = T["sensor_msgs/msg/RegionOfInterest"](x_offset=0, y_offset=0, height=0, width=0, do_rectify=False)
    base = 1_700_000_000_000_000_000
    conns = {}
    with Writer(path, version=8) as w:
        def put(topic, msgtype, t, msg):
            if topic not in conns:
                conns[topic] = w.add_connection(topic, msgtype, typestore=ts)
            w.write(conns[topic], t, ts.serialize_cdr(msg, msgtype))

        for i in range(frames):
            t = base + i * PERIOD_NS
            for k, (name, (width, height), (topic, msgtype, make)) in enumerate(
                    zip(("color", "depth"), (COLOR, DEPTH), images(i))):
                stamp = t - 2_000_000 + k * 100_000
                header = Header(stamp=Time(sec=stamp // 10**9, nanosec=stamp % 10**9),
                                frame_id=f"camera_{name}_optical_frame")
                put(topic, msgtype, t + k * 1_000_000, make(header))
                f = 600.0 if name == "color" else 420.0
                info = Info(header=header, height=height, width=width, distortion_model="plumb_bob",
                            d=np.zeros(5), k=np.array([f, 0, width / 2, 0, f, height / 2, 0, 0, 1]),
                            r=np.eye(3).flatten(), p=np.array([f, 0, width / 2, 0, 0, f, height / 2, 0, 0, 0, 1, 0]),
                            binning_x=0, binning_y=0, roi=roi)
                put(f"{NS}/{name}/camera_info", "sensor_msgs/msg/CameraInfo", t + k * 1_000_000, info)


def make_compressed(path, megabytes, pictures):
    """The compressed bag of about `megabytes`, as the plugins write it."""
    T = get_typestore(Stores.ROS2_HUMBLE).types
    Compressed = T["sensor_msgs/msg/CompressedImage"]
    encoded = []
    for colour, depth in pictures:
        jpeg = encode_image(colour, "rgb8", "jpeg", quality=JPEG_QUALITY)
        png = encode_depth(depth, "png", "16UC1")[:2]
        encoded.append((jpeg, png))
    pair = sum(len(j[1]) + len(p[1]) for j, p in encoded) / len(encoded)
    frames = max(1, int(megabytes * 1e6 / pair))

    def images(i):
        (jf, jd), (pf, pd) = encoded[i % SCENES]
        return [(f"{COLOR_TOPIC}/compressed", "sensor_msgs/msg/CompressedImage",
                 lambda h: Compressed(header=h, format=jf, data=np.frombuffer(jd, np.uint8))),
                (f"{DEPTH_TOPIC}/compressedDepth", "sensor_msgs/msg/CompressedImage",
                 lambda h: Compressed(header=h, format=pf, data=np.frombuffer(pd, np.uint8)))]

    write_bag(path, frames, images)
    return frames


def make_raw(path, frames, pictures):
    """The raw bag the writers compress: the same pictures as sensor_msgs/Image."""
    Image = get_typestore(Stores.ROS2_HUMBLE).types["sensor_msgs/msg/Image"]

    def images(i):
        colour, depth = pictures[i % SCENES]
        return [(COLOR_TOPIC, "sensor_msgs/msg/Image",
                 lambda h: Image(header=h, height=COLOR[1], width=COLOR[0], encoding="rgb8", is_bigendian=0,
                                 step=COLOR[0] * 3, data=colour.reshape(-1))),
                (DEPTH_TOPIC, "sensor_msgs/msg/Image",
                 lambda h: Image(header=h, height=DEPTH[1], width=DEPTH[0], encoding="16UC1", is_bigendian=0,
                                 step=DEPTH[0] * 2, data=depth.reshape(-1).view(np.uint8)))]

    write_bag(path, frames, images)


def compressed_images(path):
    """How many CompressedImage messages a bag holds, per topic."""
    from rosbags.rosbag2 import Reader
    with Reader(path) as r:
        return {c.topic: c.msgcount for c in r.connections
                if c.msgtype == "sensor_msgs/msg/CompressedImage"}


def bag_bytes(path):
    return sum(f.stat().st_size for f in Path(path).rglob("*") if f.is_file())


def prepare(bag, settle):
    """The input in the page cache, nothing to write back, the memory in
    the state after an idle moment."""
    for f in Path(bag).rglob("*"):
        if f.is_file():
            read_through(f)
    os.sync()
    time.sleep(settle)


def children_cpu():
    """CPU seconds (user and system) of the finished child processes."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def read_round(args, bag, order):
    """One round of the reading benchmark: {tool: (seconds, frames, bytes,
    depth hash, CPU seconds)}."""
    out = {}
    interop = str(ROOT / "tests/interop")
    for tool in order:
        prepare(bag, args.settle)
        if tool == "rsbag":
            cmd = [args.rsbag_python, "-c", RSBAG_READ, str(bag)]
        else:
            cmd = [sys.executable, "-c", OPENCV_READ, str(bag), interop]
        before = children_cpu()
        seconds, frames, size, depth = subprocess.run(
            cmd, check=True, capture_output=True, text=True).stdout.split()
        out[tool] = (float(seconds), int(frames), int(size), depth, children_cpu() - before)
    return out


def write_round(args, raw, work, order):
    """One round of the writing benchmark: {tool: (seconds, output bytes, CPU seconds)}."""
    out = {}
    interop = str(ROOT / "tests/interop")
    for tool in order:
        dst = work / f"out-{tool}"
        shutil.rmtree(dst, ignore_errors=True)
        prepare(raw, args.settle)
        if tool == "rsbag":
            cmd = [args.rsbag, "convert", str(raw), "--to", "ros2", "--image-transport", "compressed",
                   "--out", str(dst)]
        else:
            level = "9" if tool == "opencv" else "1"
            cmd = [sys.executable, "-c", OPENCV_WRITE, str(raw), str(dst), interop, level]
        start, before = time.perf_counter(), children_cpu()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        out[tool] = (time.perf_counter() - start, bag_bytes(dst), children_cpu() - before)
    counts = {tool: compressed_images(work / f"out-{tool}") for tool in order}
    if len({tuple(sorted(c.items())) for c in counts.values()}) != 1:
        sys.exit(f"the writers wrote different images: {counts}")
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mb", type=int, default=1024, help="size of the compressed bag read")
    ap.add_argument("--write-frames", type=int, default=300,
                    help="colour + depth frames of the raw bag written compressed")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--settle", type=float, default=15,
                    help="seconds to wait before each run (see compare_rosbags_convert.py)")
    ap.add_argument("--dir", default="target/bench-data")
    ap.add_argument("--rsbag", default="target/release/rsbag")
    ap.add_argument("--rsbag-python", default="target/venv-bench/bin/python",
                    help="a Python with rsbag's package built in release")
    ap.add_argument("--only", choices=["read", "write"], help="one benchmark of the two")
    args = ap.parse_args()
    work = Path(args.dir)
    work.mkdir(parents=True, exist_ok=True)
    compressed, raw = work / "compressed", work / "raw"
    pictures = None
    if not compressed.exists() and args.only != "write":
        pictures = scenes()
        frames = make_compressed(compressed, args.mb, pictures)
        print(f"made {compressed}: {frames} colour + depth frames", file=sys.stderr)
    if not raw.exists() and args.only != "read":
        make_raw(raw, args.write_frames, pictures or scenes())
        print(f"made {raw}: {args.write_frames} colour + depth frames", file=sys.stderr)
    os.system("uptime")
    reads, writes = [], []
    for run in range(args.runs):
        if args.only != "write":
            order = ["opencv", "rsbag"] if run % 2 == 0 else ["rsbag", "opencv"]
            reads.append(read_round(args, compressed, order))
            print(f"read round {run}: " + ", ".join(f"{k} {v[0]:.2f} s" for k, v in reads[-1].items()),
                  file=sys.stderr)
        if args.only != "read":
            order = ["opencv", "rsbag", "opencv-level1"] if run % 2 == 0 else ["opencv-level1", "rsbag", "opencv"]
            writes.append(write_round(args, raw, work, order))
            print(f"write round {run}: " + ", ".join(f"{k} {v[0]:.2f} s" for k, v in writes[-1].items()),
                  file=sys.stderr)
    os.system("uptime")
    if reads:
        report_reads(reads, bag_bytes(compressed))
    if writes:
        report_writes(writes, bag_bytes(raw), args.write_frames)


def report_reads(rounds, size):
    for tool in ("rsbag", "opencv"):
        results = [r[tool] for r in rounds]
        _, frames, pixels, _, _ = results[0]
        print(f"read {tool:8} {' '.join(f'{r[0]:.2f}' for r in results)} s, CPU "
              f"{' '.join(f'{r[4]:.2f}' for r in results)} s; {frames} images, "
              f"{pixels / 1e9:.2f} GB of pixels, {frames / statistics.median(r[0] for r in results):.0f} images/s")
    for r in rounds:
        if r["rsbag"][1:4] != r["opencv"][1:4]:
            sys.exit(f"the readers disagree: rsbag {r['rsbag'][1:4]}, rosbags + OpenCV {r['opencv'][1:4]}")
    ratios = [r["opencv"][0] / r["rsbag"][0] for r in rounds]
    cpu = [r["opencv"][4] / r["rsbag"][4] for r in rounds]
    print(f"reading a {size / 1e6:.0f} MB compressed bag into pixels, {len(rounds)} rounds: "
          f"rosbags + OpenCV / rsbag per round {fmt(ratios)}; {describe(ratios)}; "
          f"CPU time {fmt(cpu)}; {describe(cpu)}")


def report_writes(rounds, size, frames):
    for tool in ("rsbag", "opencv", "opencv-level1"):
        results = [r[tool] for r in rounds]
        print(f"write {tool:14} {' '.join(f'{r[0]:.2f}' for r in results)} s, CPU "
              f"{' '.join(f'{r[2]:.2f}' for r in results)} s; "
              f"output {statistics.median(r[1] for r in results) / 1e6:.0f} MB")
    for baseline in ("opencv", "opencv-level1"):
        ratios = [r[baseline][0] / r["rsbag"][0] for r in rounds]
        cpu = [r[baseline][2] / r["rsbag"][2] for r in rounds]
        print(f"writing {frames} colour + depth frames ({size / 1e6:.0f} MB raw) compressed, "
              f"{len(rounds)} rounds: {baseline} / rsbag per round {fmt(ratios)}; {describe(ratios)}; "
              f"CPU time {fmt(cpu)}; {describe(cpu)}")


if __name__ == "__main__":
    main()
