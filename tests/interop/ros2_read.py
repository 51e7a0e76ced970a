#!/usr/bin/env python3
"""Read a ROS 2 bag directory with the rosbags library (and, for MCAP, the
mcap library) and print what a ROS 2 user gets, as one JSON object.

Usage:
    python3 ros2_read.py BAG_DIR [--decoded DIR]

Every message is deserialized with rosbags' own definitions of the standard
types (ROS 2 Jazzy typestore); the RealSense wrapper's types
(realsense2_camera_msgs) are registered from the definitions stored in the
bag itself. rosbags' CDR deserializer checks that each message is consumed
to its end. The script fails (exit 1) when:
- a connection's type hash (RIHS01) differs from the one rosbags computes
  for the type, or its stored definition does not parse to the same fields
  as rosbags' own;
- a message does not deserialize;
- an Image's data length is not step x height, or its step not width x
  bytes per pixel of its encoding;
- a CompressedImage does not decode as image_transport's subscribers
  decode it (image_transport.py's decode_compressed: cv2.imdecode and the
  compressed subscriber's colour conversion, or the compressedDepth
  subscriber's PNG (cv2.imdecode) or RVL).

Output:
    {"storage": "sqlite3"|"mcap", "counts": {topic: n},
     "types": {topic: type},
     "images": [{"topic", "time_ns" (the bag's time), "stamp_ns", "frame_id",
                 "encoding", "width", "height", "step", "size", "sha256"}...]
               (in the order rosbags reads them; a CompressedImage's
               entry has "format", "compressed_size" and the decoded
               image's encoding, size and sha256; --decoded DIR: its
               decoded pixels appended to DIR/<topic, / as _>.raw),
     "imu": [{"topic", "stamp_ns", "frame_id", "angular_velocity": [3],
              "linear_acceleration": [3], "orientation": [4], "covariances":
              [orientation, angular velocity, linear acceleration: 9 each]}...],
     "camera_info": {topic: {"width", "height", "distortion_model", "d",
                             "k", "frame_id"}} (the first of each topic),
     "metadata": {topic: first json_data parsed},
     "tf_static": [{"parent", "child", "translation", "rotation"}],
     "odometry": [{"topic", "position", "orientation"}],
     "mcap": {"profile", "schemas": {name: encoding}, "channels":
              {topic: [schema name, message encoding]}, "messages": n,
              "statistics_messages": n, "chunk_compressions": ["zstd"...]}}
"""

import hashlib
import json
import sys
from pathlib import Path

import numpy as np

from rosbags.rosbag2 import Reader
from rosbags.typesys import Stores, get_types_from_msg, get_typestore
from ruamel.yaml import YAML

BYTES_PER_PIXEL = {
    "16UC1": 2, "mono16": 2, "mono8": 1, "8UC1": 1, "rgb8": 3, "bgr8": 3,
    "rgba8": 4, "bgra8": 4, "yuv422_yuy2": 2, "uyvy": 2, "32FC1": 4,
}


def fail(message):
    print(f"ros2_read.py: {message}", file=sys.stderr)
    sys.exit(1)


def fields_of(typestore, msgtype):
    """The (name, type) fields of a type, as rosbags models them."""
    return repr(typestore.get_msgdef(msgtype).fields)


def stamp_ns(header):
    return header.stamp.sec * 1_000_000_000 + header.stamp.nanosec


def main():
    path = Path(sys.argv[1])
    decoded = Path(sys.argv[3]) if sys.argv[2:3] == ["--decoded"] else None
    if decoded:
        decoded.mkdir(parents=True, exist_ok=True)
    typestore = get_typestore(Stores.ROS2_JAZZY)
    out = {"counts": {}, "types": {}, "images": [], "imu": [], "camera_info": {},
           "metadata": {}, "tf_static": [], "odometry": []}
    with Reader(path) as reader:
        info = YAML(typ="safe").load(path / "metadata.yaml")["rosbag2_bagfile_information"]
        out["storage"] = info["storage_identifier"]
        out["metadata_yaml"] = {"version": info["version"], "message_count": info["message_count"],
                                "files": [f["path"] for f in info["files"]]}
        # The wrapper's own types, from the definitions the bag carries.
        extra = {}
        for conn in reader.connections:
            if conn.msgtype.startswith("realsense2_camera_msgs/"):
                main_def = conn.msgdef.data.split("=" * 80)[0]
                extra.update(get_types_from_msg(main_def, conn.msgtype))
        typestore.register(extra)
        for conn in reader.connections:
            out["types"][conn.topic] = conn.msgtype
            want = typestore.hash_rihs01(conn.msgtype)
            if conn.digest != want:
                fail(f"{conn.topic}: type hash {conn.digest}, rosbags computes {want}")
            # The stored definition describes the type as rosbags knows it.
            stored = get_typestore(Stores.EMPTY)
            stored.register(parse_full_definition(conn.msgdef.data, conn.msgtype))
            if fields_of(stored, conn.msgtype) != fields_of(typestore, conn.msgtype):
                fail(f"{conn.topic}: stored definition differs from {conn.msgtype}")
        for conn, timestamp, raw in reader.messages():
            out["counts"][conn.topic] = out["counts"].get(conn.topic, 0) + 1
            try:
                msg = typestore.deserialize_cdr(raw, conn.msgtype)
            except Exception as e:  # noqa: BLE001 (report any failure)
                fail(f"{conn.topic}: does not deserialize: {e}")
            record(out, conn, msg, timestamp, decoded)
    if out["storage"] == "mcap":
        out["mcap"] = read_mcap(path)
    print(json.dumps(out, sort_keys=True))


def parse_full_definition(text, msgtype):
    """Types from a ros2msg definition with its `MSG:` dependencies."""
    types = {}
    parts = text.split("=" * 80 + "\n")
    types.update(get_types_from_msg(parts[0], msgtype))
    for part in parts[1:]:
        head, _, body = part.partition("\n")
        name = head.removeprefix("MSG: ")
        pkg, _, leaf = name.partition("/")
        types.update(get_types_from_msg(body, f"{pkg}/msg/{leaf}"))
    return types


def record(out, conn, msg, timestamp, decoded):
    t = conn.msgtype
    if t == "sensor_msgs/msg/Image":
        data = bytes(msg.data)
        bpp = BYTES_PER_PIXEL.get(msg.encoding)
        if bpp is None:
            fail(f"{conn.topic}: unknown encoding {msg.encoding}")
        if len(data) != msg.step * msg.height or msg.step != msg.width * bpp:
            fail(f"{conn.topic}: {len(data)} bytes for step {msg.step} x height {msg.height}")
        out["images"].append({
            "topic": conn.topic, "time_ns": timestamp, "stamp_ns": stamp_ns(msg.header),
            "frame_id": msg.header.frame_id, "encoding": msg.encoding,
            "width": msg.width, "height": msg.height, "step": msg.step,
            "size": len(data), "sha256": hashlib.sha256(data).hexdigest()})
    elif t == "sensor_msgs/msg/CompressedImage":
        from image_transport import decode_compressed
        data = bytes(msg.data)
        try:
            encoding, pixels = decode_compressed(conn.topic, msg.format, data)
        except Exception as e:  # noqa: BLE001 (report any failure)
            fail(f"{conn.topic}: {msg.format!r} does not decode: {e}")
        raw = np.ascontiguousarray(pixels).tobytes()
        height, width = pixels.shape[:2]
        out["images"].append({
            "topic": conn.topic, "time_ns": timestamp, "stamp_ns": stamp_ns(msg.header),
            "frame_id": msg.header.frame_id, "format": msg.format, "encoding": encoding,
            "width": width, "height": height, "size": len(raw), "compressed_size": len(data),
            "sha256": hashlib.sha256(raw).hexdigest()})
        if decoded:
            with open(decoded / (conn.topic.strip("/").replace("/", "_") + ".raw"), "ab") as f:
                f.write(raw)
    elif t == "sensor_msgs/msg/Imu":
        v = lambda x: [x.x, x.y, x.z]  # noqa: E731
        out["imu"].append({
            "topic": conn.topic, "stamp_ns": stamp_ns(msg.header),
            "frame_id": msg.header.frame_id,
            "angular_velocity": v(msg.angular_velocity),
            "linear_acceleration": v(msg.linear_acceleration),
            "angular_velocity_covariance0": float(msg.angular_velocity_covariance[0]),
            "linear_acceleration_covariance0": float(msg.linear_acceleration_covariance[0]),
            "orientation_covariance0": float(msg.orientation_covariance[0]),
            "orientation": [msg.orientation.x, msg.orientation.y, msg.orientation.z,
                            msg.orientation.w],
            "covariances": [[float(c) for c in m] for m in (
                msg.orientation_covariance, msg.angular_velocity_covariance,
                msg.linear_acceleration_covariance)]})
    elif t == "sensor_msgs/msg/CameraInfo":
        out["camera_info"].setdefault(conn.topic, {
            "width": msg.width, "height": msg.height,
            "distortion_model": msg.distortion_model,
            "d": [float(x) for x in msg.d], "k": [float(x) for x in msg.k],
            "frame_id": msg.header.frame_id})
    elif t == "realsense2_camera_msgs/msg/Metadata":
        out["metadata"].setdefault(conn.topic, json.loads(msg.json_data))
    elif t == "tf2_msgs/msg/TFMessage":
        for tf in msg.transforms:
            tr, q = tf.transform.translation, tf.transform.rotation
            out["tf_static"].append({
                "parent": tf.header.frame_id, "child": tf.child_frame_id,
                "translation": [tr.x, tr.y, tr.z], "rotation": [q.x, q.y, q.z, q.w]})
    elif t == "nav_msgs/msg/Odometry":
        p, q = msg.pose.pose.position, msg.pose.pose.orientation
        out["odometry"].append({"topic": conn.topic, "position": [p.x, p.y, p.z],
                                "orientation": [q.x, q.y, q.z, q.w]})


def read_mcap(path):
    """Schemas, channels and message count as the mcap library reads them."""
    from mcap.reader import make_reader

    (file,) = path.glob("*.mcap")
    with open(file, "rb") as f:
        reader = make_reader(f)
        header = reader.get_header()
        summary = reader.get_summary()
        schemas = {s.name: s.encoding for s in summary.schemas.values()}
        channels = {c.topic: [summary.schemas[c.schema_id].name, c.message_encoding]
                    for c in summary.channels.values()}
        count = sum(1 for _ in reader.iter_messages())
        compressions = sorted({c.compression for c in summary.chunk_indexes})
    return {"profile": header.profile, "schemas": schemas, "channels": channels,
            "messages": count, "statistics_messages": summary.statistics.message_count,
            "chunk_compressions": compressions}


if __name__ == "__main__":
    main()
