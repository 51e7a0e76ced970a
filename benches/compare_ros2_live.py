#!/usr/bin/env python3
"""`rsbag play --ros2` and `rsbag record --ros2` against rclpy doing the
same, with the real ROS 2 of target/venv-ros2 (scripts/install-test-deps.sh
makes it), in one run; prints median of per-round ratios with the spread.

Usage (from the crate root, after `cargo build --release -p rsbag-cli`;
the record part also needs rosbags in the ROS 2 venv:
`target/venv-ros2/bin/pip install rosbags==0.11.9`):
    python3 benches/compare_ros2_live.py [--rounds 3] [--seconds 10] [--dir DIR] [--only play|record]

Everything runs in a private network namespace (the script starts itself
again under `unshare -n` with loopback up, ROS_AUTOMATIC_DISCOVERY_RANGE=
LOCALHOST, a domain of its own): no DDS traffic leaves the machine.

play: a D435's rate (depth 1280x720 Z16 and colour 1920x1080 RGB8 at 30 fps,
accel 200 Hz, gyro 400 Hz), a recording librealsense 2.55 writes
(tests/interop/rs_camera_sources.py --camera d435-full), `--seconds` long.
  - rsbag: `rsbag play --ros2 FILE --wait-for-subscribers`;
  - rclpy: a node publishing images of the same sizes at 30 fps from numpy
    (a pool of 8 frames per stream, built before the clock starts; the
    sensor_msgs/Image built per frame as rclpy users do), a camera_info
    per image as the wrapper publishes, and gyro and accel samples at 400
    and 200 Hz, paced by sleeps.
  Lateness is each publisher's own: how long after its due time each
  publish began (rsbag's report line, the rclpy node's clock), p99,
  against one frame period (33.3 ms). A listener (rclpy, reliable) takes
  every image as a subscriber would; its arrival lateness (against the
  stamps' schedule from the first arrival) is printed too, and on two
  cores it is the listener's own delay. The cost is the publisher's CPU
  seconds (user + system, getrusage of the child).

record: depth 848x480 Z16 and colour 848x480 RGB8 at 30 fps, published by
an rclpy node as the wrapper does, `--seconds` long.
  - rsbag: `rsbag record --ros2 --out DIR/rec.bag --duration S+8` (frames
    lost: published minus written), LZ4 (its default) and with
    `--no-compression`;
  - rclpy + rosbags: a node subscribing raw (serialized) to the same topics
    and writing each message with rosbags' rosbag2 writer (.db3,
    uncompressed: rosbags' default).
  Both subscribe reliable (as `record --ros2` does by default), each is
  started before the publisher, which waits for them to match. The cost is
  the recorder's CPU seconds (its own, os.wait4) per recorded second.
"""

import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = Path(os.environ.get("RSBAG_VENV_ROS2", ROOT / "target/venv-ros2"))
PY = VENV / "bin/python"
NS = "/camera/camera"

LISTENER = r'''
import json, sys, time, rclpy
from rclpy.qos import QoSProfile, ReliabilityPolicy, HistoryPolicy
from sensor_msgs.msg import Image
topics, seconds = sys.argv[1].split(","), float(sys.argv[2])
rclpy.init(); node = rclpy.create_node("bench_listener")
qos = QoSProfile(history=HistoryPolicy.KEEP_LAST, depth=100, reliability=ReliabilityPolicy.RELIABLE)
got = []
for t in topics:
    node.create_subscription(Image, t, lambda m, t=t: got.append((t, m.header.stamp.sec * 10**9 + m.header.stamp.nanosec, time.monotonic_ns())), qos)
print("ready", file=sys.stderr, flush=True)
end = time.monotonic() + seconds
while time.monotonic() < end:
    rclpy.spin_once(node, timeout_sec=0.05)
print(json.dumps(got))
'''

PUBLISHER = r'''
import sys, time, numpy as np, rclpy
from rclpy.qos import QoSProfile, ReliabilityPolicy, HistoryPolicy
from sensor_msgs.msg import CameraInfo, Image, Imu
dw, dh, cw, ch, seconds, ns = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5]), sys.argv[6]
with_imu = len(sys.argv) > 7 and sys.argv[7] == "imu"
rclpy.init(); node = rclpy.create_node("bench_publisher")
qos = QoSProfile(history=HistoryPolicy.KEEP_LAST, depth=10, reliability=ReliabilityPolicy.RELIABLE)
depth = node.create_publisher(Image, ns + "/depth/image_rect_raw", qos)
color = node.create_publisher(Image, ns + "/color/image_raw", qos)
infos = {depth: node.create_publisher(CameraInfo, ns + "/depth/camera_info", qos),
         color: node.create_publisher(CameraInfo, ns + "/color/camera_info", qos)}
gyro = node.create_publisher(Imu, ns + "/gyro/sample", qos)
accel = node.create_publisher(Imu, ns + "/accel/sample", qos)
rng = np.random.default_rng(1)
depths = [rng.integers(300, 4000, (dh, dw), dtype=np.uint16) for _ in range(8)]
colors = [rng.integers(0, 255, (ch, cw, 3), dtype=np.uint8) for _ in range(8)]
# A D435i's schedule: frames at 30 Hz, gyro at 400 Hz, accel at 200 Hz.
schedule = sorted([(n / 30, "frame", n) for n in range(int(seconds * 30))]
                  + ([(k / 400, "gyro", k) for k in range(int(seconds * 400))]
                     + [(k / 200, "accel", k) for k in range(int(seconds * 200))] if with_imu else []))
while depth.get_subscription_count() == 0 or color.get_subscription_count() == 0:
    time.sleep(0.02)
# The subscribers match this publisher a moment after it sees them.
time.sleep(1.0)
start, frames, late = time.monotonic(), 0, []
for at, kind, n in schedule:
    due = start + at
    time.sleep(max(0.0, due - time.monotonic()))
    late.append(time.monotonic() - due)
    stamp = int(due * 1e9)
    if kind == "frame":
        for pub, frame, enc, bpp, fid in ((depth, depths[n % 8], "16UC1", 2, "camera_depth_optical_frame"),
                                          (color, colors[n % 8], "rgb8", 3, "camera_color_optical_frame")):
            m = Image()
            m.header.stamp.sec, m.header.stamp.nanosec = divmod(stamp, 10**9)
            m.header.frame_id = fid
            m.height, m.width = frame.shape[0], frame.shape[1]
            m.encoding, m.step = enc, frame.shape[1] * bpp
            m.data = frame.tobytes()
            pub.publish(m)
            # A camera_info per image, as the wrapper (and rsbag) publish.
            info = CameraInfo()
            info.header = m.header
            info.height, info.width = m.height, m.width
            info.distortion_model = "plumb_bob"
            info.d = [0.0] * 5
            info.k = [600.0, 0.0, m.width / 2, 0.0, 600.0, m.height / 2, 0.0, 0.0, 1.0]
            info.r = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]
            info.p = [600.0, 0.0, m.width / 2, 0.0, 0.0, 600.0, m.height / 2, 0.0, 0.0, 0.0, 1.0, 0.0]
            infos[pub].publish(info)
        frames += 1
    else:
        m = Imu()
        m.header.stamp.sec, m.header.stamp.nanosec = divmod(stamp, 10**9)
        m.header.frame_id = "camera_" + kind + "_optical_frame"
        v = m.angular_velocity if kind == "gyro" else m.linear_acceleration
        v.x, v.y, v.z = 0.01 * (n % 7), 9.8, -0.02 * (n % 5)
        m.orientation_covariance[0] = -1.0
        (gyro if kind == "gyro" else accel).publish(m)
time.sleep(1.0)
late.sort()
print(frames, 1000 * late[min(len(late) - 1, int(len(late) * 0.99))])
'''

ROSBAGS_RECORDER = r'''
import sys, time, rclpy
from pathlib import Path
from rclpy.qos import QoSProfile, ReliabilityPolicy, HistoryPolicy
from sensor_msgs.msg import Image
from rosbags.rosbag2 import Writer
from rosbags.typesys import Stores, get_typestore
out, seconds, ns = Path(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
store = get_typestore(Stores.ROS2_HUMBLE)
rclpy.init(); node = rclpy.create_node("bench_rosbags_recorder")
qos = QoSProfile(history=HistoryPolicy.KEEP_LAST, depth=100, reliability=ReliabilityPolicy.RELIABLE)
count = 0
with Writer(out, version=8) as writer:
    for topic in (ns + "/depth/image_rect_raw", ns + "/color/image_raw"):
        conn = writer.add_connection(topic, "sensor_msgs/msg/Image", typestore=store)
        def on_message(raw, conn=conn):
            global count
            writer.write(conn, time.time_ns(), raw); count += 1
        node.create_subscription(Image, topic, on_message, qos, raw=True)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        rclpy.spin_once(node, timeout_sec=0.05)
print(count)
'''


def libpython():
    return subprocess.check_output(
        [str(PY), "-c", "import sysconfig as s; print(s.get_config_var('LIBDIR') + '/' + s.get_config_var('INSTSONAME'))"],
        text=True).strip()


def rsbag_env():
    env = dict(os.environ, RSBAG_ROS2=str(VENV), LD_PRELOAD=libpython())
    env.pop("LD_LIBRARY_PATH", None)
    return env


def cpu_of(proc):
    """Wait for `proc`; its own CPU seconds (user + system) and stdout."""
    stdout = proc.stdout.read() if proc.stdout else ""
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0 and proc.stderr:
        sys.stderr.write(proc.stderr.read())
    return usage.ru_utime + usage.ru_stime, stdout


def start(cmd, env=None):
    return subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def listen(dir, topics, seconds):
    script = dir / "listener.py"
    script.write_text(LISTENER)
    proc = subprocess.Popen([str(PY), str(script), ",".join(topics), str(seconds)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    while proc.stderr.readline().strip() != "ready":
        pass
    return proc


def lateness_p99(got):
    """p99 of arrival against the stamps' schedule from the first arrival
    of each topic, in ms."""
    late = []
    for topic in {t for t, _, _ in got}:
        mine = [(s, a) for t, s, a in got if t == topic]
        s0, a0 = mine[0]
        late.extend((a - (a0 + (s - s0))) / 1e6 for s, a in mine)
    late.sort()
    return late[min(len(late) - 1, int(len(late) * 0.99))] if late else float("nan")


def bench_play(args, dir, rsbag):
    source = dir / "d435.bag"
    if not source.exists():
        subprocess.run([sys.executable, str(ROOT / "tests/interop/rs_camera_sources.py"), str(source),
                        "--camera", "d435-full", "--seconds", str(args.seconds), "--no-compress"], check=True)
    topics = [NS + "/depth/image_rect_raw", NS + "/color/image_raw"]
    pub_script = dir / "publisher.py"
    pub_script.write_text(PUBLISHER)
    ratios, rows = [], []
    for round in range(args.rounds):
        listener = listen(dir, topics, args.seconds + 15)
        ours, out = cpu_of(start([rsbag, "play", "--ros2", str(source), "--wait-for-subscribers"], rsbag_env()))
        our_publish = float(re.search(r"p99 ([0-9.]+) ms", out).group(1))
        our_arrival = lateness_p99(json.loads(listener.communicate()[0]))
        listener = listen(dir, topics, args.seconds + 15)
        theirs, out = cpu_of(start([str(PY), str(pub_script), "1280", "720", "1920", "1080", str(args.seconds), NS,
                                    "imu"]))
        their_publish = float(out.split()[1])
        their_arrival = lateness_p99(json.loads(listener.communicate()[0]))
        ratios.append(ours / theirs)
        rows.append((our_publish, their_publish))
        print(f"play round {round + 1}: rsbag {ours:.2f} s CPU, p99 publish lateness {our_publish:.1f} ms "
              f"(arrival at the listener {our_arrival:.1f} ms); rclpy {theirs:.2f} s CPU, p99 publish lateness "
              f"{their_publish:.1f} ms (arrival {their_arrival:.1f} ms); ratio {ours / theirs:.2f}", flush=True)
    print(f"play: CPU rsbag/rclpy median {statistics.median(ratios):.2f} "
          f"(spread {min(ratios):.2f}-{max(ratios):.2f}); p99 publish lateness, median of the rounds: rsbag "
          f"{statistics.median(r[0] for r in rows):.1f} ms, rclpy {statistics.median(r[1] for r in rows):.1f} ms, "
          f"against a 33.3 ms frame period")


def bench_record(args, dir, rsbag):
    pub_script = dir / "publisher.py"
    pub_script.write_text(PUBLISHER)
    rec_script = dir / "rosbags_recorder.py"
    rec_script.write_text(ROSBAGS_RECORDER)
    publish = [str(PY), str(pub_script), "848", "480", "848", "480", str(args.seconds), NS]
    ratios = {"lz4": [], "none": []}
    for round in range(args.rounds):
        ours = {name: record_with_rsbag(args, dir, rsbag, publish, extra)
                for name, extra in [("lz4", []), ("none", ["--no-compression"])]}
        db = dir / "rosbags-rec"
        subprocess.run(["rm", "-rf", str(db)], check=True)
        theirs_proc = start([str(PY), str(rec_script), str(db), str(args.seconds + 8), NS])
        subprocess.check_output(publish, text=True)
        theirs, their_out = cpu_of(theirs_proc)
        theirs /= args.seconds
        for name, (cpu, text) in ours.items():
            ratios[name].append(cpu / theirs)
            print(f"record round {round + 1}, rsbag {name}: {text}; ratio {cpu / theirs:.2f}", flush=True)
        print(f"record round {round + 1}: rclpy + rosbags {theirs:.3f} CPU s per recorded s "
              f"({their_out.strip()} messages)", flush=True)
    for name, values in ratios.items():
        print(f"record: CPU per recorded second rsbag ({name})/(rclpy + rosbags) median "
              f"{statistics.median(values):.2f} (spread {min(values):.2f}-{max(values):.2f})")


def record_with_rsbag(args, dir, rsbag, publish, extra):
    """One `rsbag record --ros2` of the publisher: its CPU per recorded
    second and what it wrote, in words."""
    out = dir / "rec.bag"
    out.unlink(missing_ok=True)
    recorder = start([rsbag, "record", "--ros2", *extra, "--out", str(out), "--duration", str(args.seconds + 8)],
                     rsbag_env())
    published = 2 * int(subprocess.check_output(publish, text=True).split()[0])
    cpu, stdout = cpu_of(recorder)
    written = next((int(line.split(" frames")[0].split(": ")[-1]) for line in stdout.splitlines()
                    if line.startswith("wrote ")), 0)
    cpu /= args.seconds
    return cpu, (f"{cpu:.3f} CPU s per recorded s ({written} of {published} frames, {published - written} lost, "
                 f"exit {recorder.returncode})")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--dir", type=Path, default=ROOT / "target/bench-ros2")
    parser.add_argument("--only", choices=["play", "record"])
    parser.add_argument("--rsbag", default=str(ROOT / "target/release/rsbag"))
    args = parser.parse_args()
    if os.environ.get("RSBAG_BENCH_NETNS") != "1":
        env = dict(os.environ, RSBAG_BENCH_NETNS="1", ROS_AUTOMATIC_DISCOVERY_RANGE="LOCALHOST",
                   ROS_DOMAIN_ID="99")
        command = "ip link set lo up && exec \"$@\""
        os.execvpe("unshare", ["unshare", "-n", "bash", "-c", command, "bash", sys.executable, *sys.argv], env)
    args.dir.mkdir(parents=True, exist_ok=True)
    if args.only in (None, "play"):
        bench_play(args, args.dir, args.rsbag)
    if args.only in (None, "record"):
        bench_record(args, args.dir, args.rsbag)


if __name__ == "__main__":
    main()
