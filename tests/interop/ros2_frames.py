#!/usr/bin/env python3
"""The frame ids of a ROS 2 bag as rosbags reads them: what a ROS 2 tool
(RViz, Foxglove, tf2) finds in it.

Usage:
    python3 ros2_frames.py BAG_DIR

Prints one JSON object: {"frame_ids": {topic: [frame ids of its messages'
headers, each once]}, "tf_static": [[parent, child]...] (in the order of
the messages), "chains": {frame: [frame, its parent, ..., the root]} for
every child frame of /tf_static, "translations": {child: its translation
in its parent}, "projections": {camera_info topic: [fx, P's Tx, Ty] of its
first message}}. The wrapper's own types
(realsense2_camera_msgs) are registered from the definitions in the bag.
"""

import json
import sys

from rosbags.rosbag2 import Reader
from rosbags.typesys import Stores, get_types_from_msg, get_typestore


def main():
    typestore = get_typestore(Stores.ROS2_JAZZY)
    frame_ids, tf_static, translations, projections = {}, [], {}, {}
    with Reader(sys.argv[1]) as reader:
        extra = {}
        for conn in reader.connections:
            if conn.msgtype.startswith("realsense2_camera_msgs/"):
                extra.update(get_types_from_msg(conn.msgdef.data.split("=" * 80)[0], conn.msgtype))
        typestore.register(extra)
        for conn, _, raw in reader.messages():
            msg = typestore.deserialize_cdr(raw, conn.msgtype)
            if conn.msgtype == "tf2_msgs/msg/TFMessage":
                tf_static += [[t.header.frame_id, t.child_frame_id] for t in msg.transforms]
                for t in msg.transforms:
                    v = t.transform.translation
                    translations[t.child_frame_id] = [v.x, v.y, v.z]
            if conn.msgtype == "sensor_msgs/msg/CameraInfo" and conn.topic not in projections:
                projections[conn.topic] = [msg.k[0], msg.p[3], msg.p[7]]
            if hasattr(msg, "header"):
                ids = frame_ids.setdefault(conn.topic, [])
                if msg.header.frame_id not in ids:
                    ids.append(msg.header.frame_id)
    parents = {child: parent for parent, child in tf_static}
    chains = {}
    for child in parents:
        chain = [child]
        while chain[-1] in parents and len(chain) <= len(parents):
            chain.append(parents[chain[-1]])
        chains[child] = chain
    print(json.dumps({"frame_ids": frame_ids, "tf_static": tf_static, "chains": chains,
                      "translations": translations, "projections": projections}))


if __name__ == "__main__":
    main()
