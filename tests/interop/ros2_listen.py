#!/usr/bin/env python3
"""Listen on ROS 2 topics with rclpy and print what arrives, for the tests
of `rsbag play --ros2`. Runs with the Python of the ROS 2 virtual
environment (scripts/install-test-deps.sh makes target/venv-ros2), inside
the test's private network namespace.

Usage:
    ros2_listen.py --seconds S [--until-idle S] [--best-effort] [--decoded DIR] TOPIC=TYPE[:COUNT]...

TYPE is `image`, `compressed` (a CompressedImage of image_transport's
`compressed` or `compressedDepth` topic, by the topic's name), `camera_info`,
`imu` or `clock`. The script subscribes
(reliable, keep last 1000, or best effort with --best-effort; /clock
always best effort), prints
`ready` on stderr once its subscriptions exist, and ends when every topic
with a COUNT has received that many messages (then waits --until-idle
seconds more for extra ones, default 0.5), or after S seconds. It prints one
JSON line per message, in arrival order:

    {"topic": "/camera/camera/depth/image_rect_raw", "stamp_ns": 33300000,
     "frame_id": "camera_depth_optical_frame", "width": 80, "height": 60,
     "encoding": "16UC1", "step": 160, "size": 9600, "sha256": "<hex>"}

compressed lines have the format and compressed_size, and width, height,
encoding, size and sha256 of the pixels as image_transport's subscriber
decodes them (OpenCV; image_transport.py), which --decoded appends to
DIR/<topic, its slashes underscores>.raw. camera_info lines have width, height, k and d; imu lines the angular
velocity, linear acceleration, orientation and the three covariances; clock lines only `stamp_ns`.
"""

import hashlib
import json
import sys
import time

import numpy as np
import rclpy
from rclpy.qos import QoSProfile, ReliabilityPolicy, HistoryPolicy
from rosgraph_msgs.msg import Clock
from sensor_msgs.msg import CameraInfo, CompressedImage, Image, Imu

from image_transport import decode_compressed

TYPES = {"image": Image, "compressed": CompressedImage, "camera_info": CameraInfo, "imu": Imu,
         "clock": Clock}


def stamp_ns(stamp):
    return stamp.sec * 1_000_000_000 + stamp.nanosec


def line(topic, kind, msg, decoded):
    if kind == "clock":
        return {"topic": topic, "stamp_ns": stamp_ns(msg.clock)}
    out = {"topic": topic, "stamp_ns": stamp_ns(msg.header.stamp), "frame_id": msg.header.frame_id}
    if kind == "image":
        data = bytes(msg.data)
        out.update(width=msg.width, height=msg.height, encoding=msg.encoding, step=msg.step,
                   size=len(data), sha256=hashlib.sha256(data).hexdigest())
    elif kind == "compressed":
        data = bytes(msg.data)
        encoding, pixels = decode_compressed(topic, msg.format, data)
        raw = np.ascontiguousarray(pixels).tobytes()
        out.update(format=msg.format, compressed_size=len(data), width=pixels.shape[1],
                   height=pixels.shape[0], encoding=encoding, size=len(raw),
                   sha256=hashlib.sha256(raw).hexdigest())
        if decoded:
            with open(f"{decoded}/{topic.strip('/').replace('/', '_')}.raw", "ab") as f:
                f.write(raw)
    elif kind == "camera_info":
        out.update(width=msg.width, height=msg.height, k=list(msg.k), d=list(msg.d),
                   distortion_model=msg.distortion_model)
    elif kind == "imu":
        v, a = msg.angular_velocity, msg.linear_acceleration
        q = msg.orientation
        out.update(angular_velocity=[v.x, v.y, v.z], linear_acceleration=[a.x, a.y, a.z],
                   orientation=[q.x, q.y, q.z, q.w],
                   orientation_covariance=list(msg.orientation_covariance),
                   angular_velocity_covariance=list(msg.angular_velocity_covariance),
                   linear_acceleration_covariance=list(msg.linear_acceleration_covariance))
    return out


def main():
    args = sys.argv[1:]
    seconds, idle, reliability, decoded = 30.0, 0.5, ReliabilityPolicy.RELIABLE, None
    specs = []
    while args:
        arg = args.pop(0)
        if arg == "--seconds":
            seconds = float(args.pop(0))
        elif arg == "--until-idle":
            idle = float(args.pop(0))
        elif arg == "--decoded":
            decoded = args.pop(0)
        elif arg == "--best-effort":
            reliability = ReliabilityPolicy.BEST_EFFORT
        else:
            topic, _, rest = arg.partition("=")
            kind, _, count = rest.partition(":")
            specs.append((topic, kind, int(count) if count else None))
    rclpy.init()
    node = rclpy.create_node("rsbag_test_listener")
    qos = QoSProfile(history=HistoryPolicy.KEEP_LAST, depth=1000, reliability=reliability)
    got = {topic: 0 for topic, _, _ in specs}
    lines = []

    def callback(topic, kind):
        def on_message(msg):
            got[topic] += 1
            lines.append(line(topic, kind, msg, decoded))
        return on_message

    # /clock is published best effort (rclcpp's ClockQoS), as time sources
    # subscribe to it.
    clock_qos = QoSProfile(history=HistoryPolicy.KEEP_LAST, depth=1000,
                           reliability=ReliabilityPolicy.BEST_EFFORT)
    for topic, kind, _ in specs:
        node.create_subscription(TYPES[kind], topic, callback(topic, kind),
                                 clock_qos if kind == "clock" else qos)
    print("ready", file=sys.stderr, flush=True)
    deadline = time.monotonic() + seconds
    done_at = None
    while time.monotonic() < deadline:
        rclpy.spin_once(node, timeout_sec=0.05)
        complete = all(got[t] >= c for t, _, c in specs if c is not None)
        if complete and done_at is None:
            done_at = time.monotonic()
        if done_at is not None and time.monotonic() - done_at >= idle:
            break
    for entry in lines:
        print(json.dumps(entry))
    node.destroy_node()
    rclpy.shutdown()


if __name__ == "__main__":
    main()
