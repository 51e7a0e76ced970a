#!/usr/bin/env python3
"""Dump a ROS1 bag as JSON, read by an independent reader: the `rosbags`
library (rosbags.rosbag1.Reader, checked against rosbags 0.11.9).

Usage:
    python3 rosbags_dump.py BAG [--deserialize]

Prints one JSON object on stdout:

    {
      "chunk_count": 3,
      "message_count": 120,
      "connections": [
        {"id": 0, "topic": "/file_version", "msgtype": "std_msgs/UInt32",
         "md5sum": "304a...", "msgdef": "uint32 data\\n",
         "callerid": null, "latching": null}, ...],
      "messages": [
        {"topic": "/file_version", "time": 1, "size": 4,
         "sha256": "<hex of the raw serialized message bytes>"}, ...]
    }

`connections` are in the order of the bag's index (connection records after
index_pos); `msgtype` is in ROS1 form (`pkg/Type`); `callerid` and `latching`
are null when the connection header has no such field (latching is an int
otherwise). `messages` are in the reader's order: by bag time (ns), ties by
chunk position and offset in the chunk. Note that rosbags normalizes topic
names (`//` collapsed to `/`).

--deserialize: additionally deserialize every message with rosbags' type
system. An empty type store is filled from each connection's message
definition (get_types_from_msg + Typestore.register), then every message is
deserialized as ROS1. Each message entry gets `"deserialized": true`; for
`sensor_msgs/Image` also `"image": {"height", "width", "encoding", "step",
"data_len", "seq", "stamp_ns", "frame_id", "depth_units"}`. librealsense extends
sensor_msgs/Image: when header.frame_id is "1" it serializes one float32
`depth_units` after `data`, which is not in the message definition; such a
message is accepted when the rest deserializes exactly, and `depth_units`
gives that float (null when absent). For `sensor_msgs/Imu`:
`"imu": {"seq", "stamp_ns", "frame_id", "linear_acceleration": [x, y, z],
"angular_velocity": [x, y, z]}`. If a definition cannot be
parsed or a message cannot be deserialized (or leaves bytes over), the
script prints the error naming the topic, the message's index and time on
stderr and exits with status 1.
"""

import argparse
import hashlib
import json
import struct
import sys

from rosbags.rosbag1 import Reader
from rosbags.typesys import Stores, get_types_from_msg, get_typestore
from rosbags.typesys.msg import denormalize_msgtype


def ros1_name(msgtype):
    return denormalize_msgtype(msgtype) if "/msg/" in msgtype else msgtype


def build_typestore(connections):
    store = get_typestore(Stores.EMPTY)
    for conn in connections:
        if conn.msgtype in store.fielddefs:
            continue
        try:
            types = get_types_from_msg(conn.msgdef.data, conn.msgtype)
            # Nested types repeat across definitions; register() accepts an
            # identical redefinition and refuses a conflicting one.
            store.register(types)
        except Exception as err:  # noqa: BLE001
            raise SystemExit(
                f"cannot register message definition of {ros1_name(conn.msgtype)} "
                f"(connection {conn.id}, topic {conn.topic}): {err}"
            ) from err
    return store


def exact_ros1(store, raw, msgtype):
    """Deserialize `raw`; rosbags raises when the message does not use up
    exactly all of the bytes. (No re-serialization check: librealsense
    stores bools as other non-zero bytes, e.g. StreamInfo.is_recommended is
    0x02 for a default profile, which rosbags reads as True and writes as 1.)"""
    return store.deserialize_ros1(raw, msgtype)


def deserialize(store, conn, raw):
    """Return (message, depth_units). depth_units is the librealsense
    extension of sensor_msgs/Image: when header.frame_id is "1", librealsense
    serializes a float32 depth_units after `data` (not in the definition).
    It is None for every other message."""
    try:
        return exact_ros1(store, raw, conn.msgtype), None
    except Exception as err:  # noqa: BLE001
        if ros1_name(conn.msgtype) != "sensor_msgs/Image" or len(raw) < 4:
            raise
        try:
            msg = exact_ros1(store, raw[:-4], conn.msgtype)
        except Exception:  # noqa: BLE001
            raise err from None
        if msg.header.frame_id != "1":
            raise ValueError(
                "4 bytes after the Image data but header.frame_id is "
                f"{msg.header.frame_id!r}, not '1'"
            ) from err
        return msg, struct.unpack("<f", bytes(raw[-4:]))[0]


def image_summary(msg, depth_units):
    return {
        "height": int(msg.height),
        "width": int(msg.width),
        "encoding": msg.encoding,
        "step": int(msg.step),
        "data_len": len(msg.data),
        "seq": int(msg.header.seq),
        "stamp_ns": int(msg.header.stamp.sec) * 1_000_000_000 + int(msg.header.stamp.nanosec),
        "frame_id": msg.header.frame_id,
        "depth_units": depth_units,
    }


def vec3(v):
    return [float(v.x), float(v.y), float(v.z)]


def imu_summary(msg):
    return {
        "seq": int(msg.header.seq),
        "stamp_ns": int(msg.header.stamp.sec) * 1_000_000_000 + int(msg.header.stamp.nanosec),
        "frame_id": msg.header.frame_id,
        "linear_acceleration": vec3(msg.linear_acceleration),
        "angular_velocity": vec3(msg.angular_velocity),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("bag")
    parser.add_argument("--deserialize", action="store_true")
    args = parser.parse_args()

    with Reader(args.bag) as reader:
        connections = [
            {
                "id": c.id,
                "topic": c.topic,
                "msgtype": ros1_name(c.msgtype),
                "md5sum": c.digest,
                "msgdef": c.msgdef.data,
                "callerid": c.ext.callerid,
                "latching": c.ext.latching,
            }
            for c in reader.connections
        ]
        store = build_typestore(reader.connections) if args.deserialize else None
        messages = []
        for index, (conn, time, raw) in enumerate(reader.messages()):
            entry = {
                "topic": conn.topic,
                "time": int(time),
                "size": len(raw),
                "sha256": hashlib.sha256(raw).hexdigest(),
            }
            if store is not None:
                try:
                    msg, depth_units = deserialize(store, conn, raw)
                except Exception as err:  # noqa: BLE001
                    print(
                        f"message {index} on {conn.topic} ({ros1_name(conn.msgtype)}) "
                        f"at {time} ns does not deserialize: {type(err).__name__}: {err}",
                        file=sys.stderr,
                    )
                    sys.exit(1)
                entry["deserialized"] = True
                if ros1_name(conn.msgtype) == "sensor_msgs/Image":
                    entry["image"] = image_summary(msg, depth_units)
                elif ros1_name(conn.msgtype) == "sensor_msgs/Imu":
                    entry["imu"] = imu_summary(msg)
            messages.append(entry)
        out = {
            "chunk_count": len(reader.chunk_infos),
            "message_count": len(messages),
            "connections": connections,
            "messages": messages,
        }
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
