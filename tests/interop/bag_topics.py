"""The topics of a bag as independent readers see them, for comparing
copies: rosbags reads a ROS1 .bag and a rosbag2 directory (sqlite3 or
MCAP), Python's sqlite3 a bare rosbag2 .db3 (rosbags wants its
metadata.yaml).

usage: bag_topics.py BAG [--topics /a,/b] [--window START_NS END_NS]
                         [--ros2-form]

Prints one JSON object: {topic: {"type", "serialization_format",
"offered_qos_profiles" (the YAML text as stored), "messages": [[time_ns, sha256 of the bytes]]}}
for the topics named (every topic by default), the messages with a time
in [START_NS, END_NS) when --window is given. --ros2-form: a ROS1 bag's
messages as rosbags converts them to CDR (`ros1_to_cdr` with ROS 2's
types, whose std_msgs/Header has no seq), the types as ROS 2 names them.
"""

import argparse
import hashlib
import json
import sqlite3
from pathlib import Path


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("bag")
    parser.add_argument("--topics", default="")
    parser.add_argument("--window", nargs=2, type=int)
    parser.add_argument("--ros2-form", action="store_true")
    args = parser.parse_args()
    wanted = set(filter(None, args.topics.split(",")))
    path = Path(args.bag)
    if path.is_file() and path.suffix == ".db3":
        topics = read_bare_db3(path)
    elif path.is_file():
        topics = read_ros1(path, args.ros2_form)
    else:
        topics = read_rosbag2(path)
    out = {}
    for name, topic in topics.items():
        if wanted and name not in wanted:
            continue
        if args.window:
            start, end = args.window
            topic["messages"] = [m for m in topic["messages"] if start <= m[0] < end]
        out[name] = topic
    print(json.dumps(out))


def sha(data):
    return hashlib.sha256(bytes(data)).hexdigest()


def read_ros1(path, ros2_form):
    from rosbags.rosbag1 import Reader
    from rosbags.typesys import Stores, get_typestore

    ros2 = get_typestore(Stores.LATEST)
    topics = {}
    with Reader(path) as reader:
        for conn in reader.connections:
            msgtype = conn.msgtype if ros2_form else conn.msgtype.replace("/msg/", "/")
            topics.setdefault(conn.topic, {
                "type": msgtype,
                "serialization_format": "cdr" if ros2_form else "ros1",
                "offered_qos_profiles": "",
                "messages": [],
            })
        for conn, time, raw in reader.messages():
            data = ros2.ros1_to_cdr(raw, conn.msgtype) if ros2_form else raw
            topics[conn.topic]["messages"].append([time, sha(data)])
    return topics


def read_rosbag2(path):
    from rosbags.rosbag2 import Reader
    from ruamel.yaml import YAML

    # The QoS profiles as written (rosbags parses them).
    info = YAML(typ="safe").load((path / "metadata.yaml").read_text())
    qos = {t["topic_metadata"]["name"]: t["topic_metadata"].get("offered_qos_profiles", "")
           for t in info["rosbag2_bagfile_information"]["topics_with_message_count"]}
    topics = {}
    with Reader(path) as reader:
        for conn in reader.connections:
            topics[conn.topic] = {
                "type": conn.msgtype,
                "serialization_format": conn.ext.serialization_format,
                "offered_qos_profiles": qos[conn.topic] or "",
                "messages": [],
            }
        for conn, time, raw in reader.messages():
            topics[conn.topic]["messages"].append([time, sha(raw)])
    return topics


def read_bare_db3(path):
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    topics, names = {}, {}
    for tid, name, msgtype, fmt, qos in db.execute(
            "SELECT id, name, type, serialization_format, offered_qos_profiles FROM topics"):
        names[tid] = name
        topics[name] = {"type": msgtype, "serialization_format": fmt,
                        "offered_qos_profiles": qos or "", "messages": []}
    for tid, time, data in db.execute(
            "SELECT topic_id, timestamp, data FROM messages ORDER BY timestamp, id"):
        topics[names[tid]]["messages"].append([time, sha(data)])
    return topics


if __name__ == "__main__":
    main()
