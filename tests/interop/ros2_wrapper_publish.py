#!/usr/bin/env python3
"""Publish as the RealSense ROS wrapper publishes a D400 camera, with rclpy,
for the tests of `rsbag record --ros2`. Runs with the Python of the ROS 2
virtual environment (scripts/install-test-deps.sh makes target/venv-ros2),
inside the test's private network namespace.

Usage:
    ros2_wrapper_publish.py FRAMES [--namespace NS] [--wait S]
                            [--compressed COLOR_CODEC DEPTH_CODEC]

Under NS (default /camera/camera): depth on `depth/image_rect_raw`
(16UC1, 64x48, millimetres) and colour on `color/image_raw` (rgb8, 64x48),
each with a `camera_info` (fx 50, fy 51, cx 32, cy 24, plumb_bob) per frame,
FRAMES frames each at 30 fps, reliable, keep last 100 (the wrapper's
default QoS is reliable). Before publishing it waits up to S seconds
(default 30) for every topic to have a subscriber, and a second more for
the subscribers to match it in turn. Each frame's pixels are
a pattern of its number. With --compressed, the images go on
image_transport's `compressed` (colour: COLOR_CODEC png or jpeg) and
`compressedDepth` (DEPTH_CODEC png or rvl) topics instead, encoded with
OpenCV as the plugins encode (image_transport.py). It prints one JSON
line per published image, with the size and hash of its pixels (of
OpenCV's decode, where the codec loses):

    {"stream": "Depth", "frame": 3, "stamp_ns": ..., "size": 6144, "sha256": "<hex>"}
"""

import hashlib
import json
import sys
import time

import numpy as np
import rclpy
from rclpy.qos import QoSProfile, ReliabilityPolicy, HistoryPolicy
from sensor_msgs.msg import CameraInfo, CompressedImage, Image

from image_transport import decode_compressed, encode_depth, encode_image

W, H = 64, 48


def pixels(stream, n):
    if stream == "Depth":
        return b"".join(((x * 7 + y * 13 + n * 101) % 4000 + 300).to_bytes(2, "little")
                        for y in range(H) for x in range(W))
    return bytes((x * 3 + y * 5 + n * 11 + c * 60) % 256 for y in range(H) for x in range(W) for c in range(3))


def compressed(topic, stream, encoding, codec, data):
    """The CompressedImage of `data` as image_transport's plugin writes it,
    and the pixels its subscriber decodes."""
    if stream == "Depth":
        depth = np.frombuffer(data, "<u2").reshape(H, W)
        fmt, body, _ = encode_depth(depth, codec, encoding)
    else:
        fmt, body = encode_image(np.frombuffer(data, np.uint8).reshape(H, W, 3), encoding, codec)
    msg = CompressedImage()
    msg.format, msg.data = fmt, body
    _, decoded = decode_compressed(topic, fmt, body)
    return msg, np.ascontiguousarray(decoded).tobytes()


def main():
    args = sys.argv[1:]
    frames = int(args.pop(0))
    namespace, wait, codecs = "/camera/camera", 30.0, None
    while args:
        flag = args.pop(0)
        if flag == "--namespace":
            namespace = args.pop(0)
        elif flag == "--wait":
            wait = float(args.pop(0))
        elif flag == "--compressed":
            codecs = {"Color": args.pop(0), "Depth": args.pop(0)}
    rclpy.init()
    node = rclpy.create_node("realsense2_camera_stand_in")
    qos = QoSProfile(history=HistoryPolicy.KEEP_LAST, depth=100, reliability=ReliabilityPolicy.RELIABLE)
    streams = {
        "Depth": ("depth", "image_rect_raw", "16UC1", 2, "camera_depth_optical_frame"),
        "Color": ("color", "image_raw", "rgb8", 3, "camera_color_optical_frame"),
    }
    publishers = {}
    for stream, (folder, leaf, encoding, bpp, frame_id) in streams.items():
        topic = f"{namespace}/{folder}/{leaf}"
        if codecs:
            topic += "/compressedDepth" if stream == "Depth" else "/compressed"
        image = node.create_publisher(CompressedImage if codecs else Image, topic, qos)
        info = node.create_publisher(CameraInfo, f"{namespace}/{folder}/camera_info", qos)
        publishers[stream] = (image, info)
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        if all(p.get_subscription_count() > 0 for pair in publishers.values() for p in pair):
            break
        time.sleep(0.05)
    else:
        print("no subscriber matched", file=sys.stderr)
        sys.exit(1)
    # The publisher sees a subscriber before that subscriber has matched
    # the publisher in turn (discovery runs both ways); what is published
    # in between is lost to it.
    time.sleep(1.0)
    start = time.time_ns()
    for n in range(frames):
        stamp_ns = start + n * 33_333_333
        for stream, (folder, leaf, encoding, bpp, frame_id) in streams.items():
            image_pub, info_pub = publishers[stream]
            data = pixels(stream, n)
            if codecs:
                msg, data = compressed(image_pub.topic_name, stream, encoding, codecs[stream], data)
            else:
                msg = Image()
                msg.height, msg.width, msg.encoding = H, W, encoding
                msg.is_bigendian, msg.step, msg.data = 0, W * bpp, data
            msg.header.stamp.sec, msg.header.stamp.nanosec = divmod(stamp_ns, 1_000_000_000)
            msg.header.frame_id = frame_id
            info = CameraInfo()
            info.header = msg.header
            info.height, info.width = H, W
            info.distortion_model = "plumb_bob"
            info.d = [0.0] * 5
            info.k = [50.0, 0.0, 32.0, 0.0, 51.0, 24.0, 0.0, 0.0, 1.0]
            info.r = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]
            info.p = [50.0, 0.0, 32.0, 0.0, 0.0, 51.0, 24.0, 0.0, 0.0, 0.0, 1.0, 0.0]
            info_pub.publish(info)
            image_pub.publish(msg)
            print(json.dumps({"stream": stream, "frame": n, "stamp_ns": stamp_ns, "size": len(data),
                              "sha256": hashlib.sha256(data).hexdigest()}), flush=True)
        time.sleep(1 / 30)
    # Reliable delivery of the last ones before the node goes away.
    time.sleep(1.0)
    node.destroy_node()
    rclpy.shutdown()


if __name__ == "__main__":
    main()
