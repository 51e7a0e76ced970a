"""The aligned depth of a ROS 2 export (`rsbag convert --to ros2
--aligned-depth`), read back by rosbags.

usage: ros2_aligned.py BAG_DIR OUT_DIR [--namespace /camera/camera]

Writes each aligned_depth_to_color/image_raw image to
OUT_DIR/Depth_<n>.raw (n the depth frame's number, from the depth
metadata of the same bag time), as `convert --to raw --align-to Color`
names its files, and prints one JSON object: {"images": count,
"frame_ids": [...], "encodings": [...], "sizes": [[w, h]...],
"info_is_colours": whether each aligned camera_info equals the colour
camera_info of the nearest bag time but for its header, "stamps_are_depths":
whether each image is stamped as the depth image of its bag time}.
"""

import argparse
import json
from pathlib import Path

from rosbags.rosbag2 import Reader
from rosbags.typesys import Stores, get_typestore


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("bag")
    parser.add_argument("out")
    parser.add_argument("--namespace", default="/camera/camera")
    args = parser.parse_args()
    ns = args.namespace
    ts = get_typestore(Stores.LATEST)
    wanted = {f"{ns}/aligned_depth_to_color/image_raw", f"{ns}/aligned_depth_to_color/camera_info",
              f"{ns}/depth/metadata", f"{ns}/depth/image_rect_raw", f"{ns}/color/camera_info"}
    by_topic = {t: [] for t in wanted}
    with Reader(args.bag) as reader:
        conns = [c for c in reader.connections if c.topic in wanted]
        for conn, time, raw in reader.messages(connections=conns):
            if conn.topic.endswith("/metadata"):
                # realsense2_camera_msgs/Metadata: header, then a JSON string.
                text = raw[raw.index(b"{"):].split(b"\0")[0]
                by_topic[conn.topic].append((time, json.loads(text)))
            else:
                by_topic[conn.topic].append((time, ts.deserialize_cdr(raw, conn.msgtype)))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    numbers = {t: m["frame_number"] for t, m in by_topic[f"{ns}/depth/metadata"]}
    depth_stamps = {t: stamp(m) for t, m in by_topic[f"{ns}/depth/image_rect_raw"]}
    colour_infos = by_topic[f"{ns}/color/camera_info"]
    images = by_topic[f"{ns}/aligned_depth_to_color/image_raw"]
    infos = dict(by_topic[f"{ns}/aligned_depth_to_color/camera_info"])
    summary = {"images": len(images), "frame_ids": sorted({m.header.frame_id for _, m in images}),
               "encodings": sorted({m.encoding for _, m in images}),
               "sizes": sorted({(m.width, m.height) for _, m in images}),
               "info_is_colours": True, "stamps_are_depths": True}
    for time, image in images:
        (out / f"Depth_{numbers[time]:06d}.raw").write_bytes(bytes(image.data))
        summary["stamps_are_depths"] &= stamp(image) == depth_stamps[time]
        colour = min(colour_infos, key=lambda c: abs(c[0] - time))[1]
        info = infos[time]
        summary["info_is_colours"] &= (
            info.header.frame_id == colour.header.frame_id
            and (info.width, info.height) == (colour.width, colour.height)
            and info.distortion_model == colour.distortion_model
            and list(info.d) == list(colour.d) and list(info.k) == list(colour.k)
            and list(info.p) == list(colour.p))
    print(json.dumps(summary))


def stamp(message):
    return (message.header.stamp.sec, message.header.stamp.nanosec)


if __name__ == "__main__":
    main()
