#!/usr/bin/env python3
"""The point clouds of a ROS 2 export (`rsbag convert --to ros2
--pointcloud`), read back by rosbags (and, from an MCAP file, by the mcap
library too), against librealsense and against `convert --to ply`.

Usage:
    python3 ros2_points.py BAG_DIR REF.npz unordered|ordered PLY_DIR
    python3 ros2_points.py BAG_DIR REF.npz plain

REF.npz is rs_process.py process's: for each frameset, librealsense
2.55's rs.pointcloud vertices and texture coordinates (map_to colour,
calculate depth) and the colour frame. The expected cloud is what the
RealSense ROS wrapper (realsense-ros 4.x, realsense2_camera
src/named_filter.cpp, PointcloudFilter::Publish, with its defaults
pointcloud.stream_filter 2 (colour), allow_no_texture_points false and
ordered_pc as given) makes of them: fields x, y, z (float32 at 0, 4, 8,
setPointCloud2FieldsByString(1, "xyz") padding the point to 16 bytes) and
rgb (float32 at 16, point_step 20); a point's texture coordinates (u, v)
are valid in [0, 1]; its colour is the pixel (int(u * width), int(v *
height)) copied bytes reversed (blue, green, red), the fourth byte 0, so
that rgb's bits are 0x00RRGGBB; unordered: height 1, the points with z > 0
and valid coordinates, is_dense; ordered: the depth image's width x
height, every point, colour 0 where the coordinates are not valid, not
is_dense. Vertices are compared within 1e-5 (as the PLY check), colours
exactly. PLY_DIR holds `convert --to ply` of the same recording: the
cloud's points with z > 0 are, in order, exactly (bit for bit) the PLY's
vertices (ordered), or a subsequence of them (unordered: the PLY also
keeps the points outside the colour image). plain: an export without a
colour stream (the wrapper with pointcloud.stream_filter 0): fields x, y,
z only (point_step 16), the points with z > 0 of rs.pointcloud not mapped
to colour (the reference's `plain_vertices`: no occlusion scan), within
1e-5 (`convert --to ply` maps to a colour stream whenever the recording
has one, so it is not compared here).

Each cloud is matched to its frameset by the depth frame number (the depth
metadata at the same bag time); its stamp must equal the depth image's of
that bag time and its frame_id be camera_depth_optical_frame (the wrapper's
publishPointCloud: OPTICAL_FRAME_ID(DEPTH)). Prints one JSON object:
{"clouds": n, "points": [per cloud compared], "storage", "mcap_clouds": n
(MCAP only)}; exit 1 naming the first difference. A cloud of a depth frame
librealsense's playback did not pair with a colour frame is not compared;
every frameset of the reference must have its cloud.
"""

import json
import sys
from pathlib import Path

import numpy as np
from rosbags.rosbag2 import Reader
from rosbags.typesys import Stores, get_typestore

NS = "/camera/camera"
POINTS = f"{NS}/depth/color/points"
FLOAT32 = 7
FIELDS = [("x", 0, FLOAT32, 1), ("y", 4, FLOAT32, 1), ("z", 8, FLOAT32, 1), ("rgb", 16, FLOAT32, 1)]
POINT = np.dtype({"names": ["x", "y", "z", "rgb"], "formats": ["<f4", "<f4", "<f4", "<u4"],
                  "offsets": [0, 4, 8, 16], "itemsize": 20})


def fail(message):
    print(f"ros2_points.py: {message}", file=sys.stderr)
    sys.exit(1)


def read_ply_vertices(path):
    data = Path(path).read_bytes()
    end = data.index(b"end_header\n") + len(b"end_header\n")
    count = int(data[:end].decode().split("element vertex ")[1].split()[0])
    colour = [("r", "u1"), ("g", "u1"), ("b", "u1")] if b"property uchar red" in data[:end] else []
    row = np.dtype([("x", "<f4"), ("y", "<f4"), ("z", "<f4")] + colour)
    rows = np.frombuffer(data[end:], dtype=row, count=count)
    return np.stack([rows["x"], rows["y"], rows["z"]], 1)


def wrapper_cloud(vertices, texcoords, color, ordered):
    """named_filter.cpp's PointcloudFilter::Publish on librealsense's points."""
    height, width = color.shape[:2]
    u, v = texcoords[:, 0], texcoords[:, 1]
    valid_color = (u >= 0) & (u <= 1) & (v >= 0) & (v <= 1)
    # `color_pixel[0] = i * texture_width`: a float product, then int().
    x = (u * np.float32(width)).astype(np.int64)
    y = (v * np.float32(height)).astype(np.int64)
    x, y = np.where(valid_color, x, 0), np.where(valid_color, y, 0)
    rgb = color[y, x].astype(np.uint32)
    packed = np.where(valid_color, (rgb[:, 0] << 16) | (rgb[:, 1] << 8) | rgb[:, 2], 0)
    keep = np.ones(len(vertices), bool) if ordered else (vertices[:, 2] > 0) & valid_color
    return vertices[keep], packed[keep].astype(np.uint32)


def stamp(message):
    return message.header.stamp.sec * 1_000_000_000 + message.header.stamp.nanosec


def read_bag(path):
    """Cloud messages (time, raw), depth numbers and stamps by bag time."""
    clouds, numbers, depth_stamps, frame_ids = [], {}, {}, set()
    ts = get_typestore(Stores.ROS2_JAZZY)
    with Reader(path) as reader:
        storage = "mcap" if any(Path(path).glob("*.mcap")) else "sqlite3"
        wanted = {POINTS, f"{NS}/depth/metadata", f"{NS}/depth/image_rect_raw"}
        conns = [c for c in reader.connections if c.topic in wanted]
        types = {c.topic: c.msgtype for c in conns}
        if types.get(POINTS) != "sensor_msgs/msg/PointCloud2":
            fail(f"{POINTS}: type {types.get(POINTS)}")
        for conn, time, raw in reader.messages(connections=conns):
            if conn.topic == POINTS:
                clouds.append((time, bytes(raw), ts.deserialize_cdr(raw, conn.msgtype)))
            elif conn.topic.endswith("/metadata"):
                text = raw[raw.index(b"{"):].split(b"\0")[0]
                numbers[time] = json.loads(text)["frame_number"]
            else:
                depth_stamps[time] = stamp(ts.deserialize_cdr(raw, conn.msgtype))
    return storage, clouds, numbers, depth_stamps


def mcap_clouds(path):
    """The cloud messages' bytes as the mcap library reads them, with the
    schema and encodings of their channel."""
    from mcap.reader import make_reader

    (file,) = Path(path).glob("*.mcap")
    with open(file, "rb") as f:
        out = []
        for schema, channel, message in make_reader(f).iter_messages(topics=[POINTS]):
            if (schema.name, schema.encoding, channel.message_encoding) != \
                    ("sensor_msgs/msg/PointCloud2", "ros2msg", "cdr"):
                fail(f"mcap: {POINTS} is {schema.name} ({schema.encoding}, {channel.message_encoding})")
            out.append((message.log_time, bytes(message.data)))
    return out


def check_message(where, msg, depth_stamp, fields, step):
    if msg.header.frame_id != "camera_depth_optical_frame":
        fail(f"{where}: frame_id {msg.header.frame_id}")
    if stamp(msg) != depth_stamp:
        fail(f"{where}: stamp {stamp(msg)}, the depth image's is {depth_stamp}")
    got = [(f.name, f.offset, f.datatype, f.count) for f in msg.fields]
    if got != fields or msg.point_step != step or msg.is_bigendian:
        fail(f"{where}: fields {got}, point_step {msg.point_step}")
    if msg.row_step != msg.width * msg.point_step or len(msg.data) != msg.row_step * msg.height:
        fail(f"{where}: {len(msg.data)} bytes, row_step {msg.row_step}, {msg.width}x{msg.height}")


def check_plain(where, k, msg, ref, depth_stamp):
    check_message(where, msg, depth_stamp, FIELDS[:3], 16)
    if msg.height != 1 or not msg.is_dense:
        fail(f"{where}: unordered cloud is {msg.width}x{msg.height}, is_dense {msg.is_dense}")
    points = np.frombuffer(bytes(msg.data), dtype=np.dtype(
        {"names": ["x", "y", "z"], "formats": ["<f4"] * 3, "offsets": [0, 4, 8], "itemsize": 16}))
    got = np.stack([points["x"], points["y"], points["z"]], 1)
    want = ref[f"f{k}_plain_vertices"]
    want = want[want[:, 2] > 0]
    if got.shape != want.shape or not np.allclose(got, want, rtol=0, atol=1e-5):
        fail(f"{where}: {len(got)} points differ from rs.pointcloud's {len(want)} with depth")
    return len(got)


def check_cloud(where, k, msg, ref, ply, ordered, depth_stamp):
    check_message(where, msg, depth_stamp, FIELDS, 20)
    want_vertices, want_rgb = wrapper_cloud(ref[f"f{k}_vertices"], ref[f"f{k}_texcoords"],
                                            ref[f"f{k}_color"], ordered)
    if ordered:
        if msg.height * msg.width != len(ref[f"f{k}_vertices"]) or msg.height == 1 or msg.is_dense:
            fail(f"{where}: ordered cloud is {msg.width}x{msg.height}, is_dense {msg.is_dense}")
    elif msg.height != 1 or not msg.is_dense:
        fail(f"{where}: unordered cloud is {msg.width}x{msg.height}, is_dense {msg.is_dense}")
    points = np.frombuffer(bytes(msg.data), dtype=POINT)
    got = np.stack([points["x"], points["y"], points["z"]], 1)
    if got.shape != want_vertices.shape:
        fail(f"{where}: {len(got)} points, the wrapper's rule on librealsense's keeps {len(want_vertices)}")
    if not np.allclose(got, want_vertices, rtol=0, atol=1e-5):
        fail(f"{where}: vertices differ from rs.pointcloud's")
    # The packed colour: the float32 field's bits, read as the wrapper's
    # subscribers (PCL's PointXYZRGB) read them.
    rgb_float = np.frombuffer(bytes(msg.data), dtype=np.dtype(
        {"names": ["rgb"], "formats": ["<f4"], "offsets": [16], "itemsize": 20}))["rgb"]
    if not np.array_equal(rgb_float.view(np.uint32), want_rgb):
        bad = int(np.argmax(rgb_float.view(np.uint32) != want_rgb))
        fail(f"{where}: point {bad} rgb {int(rgb_float.view(np.uint32)[bad]):#010x}, "
             f"the wrapper's {int(want_rgb[bad]):#010x}")
    # The same points as `convert --to ply`'s, bit for bit.
    with_depth = got[got[:, 2] > 0]
    if ordered:
        if not np.array_equal(with_depth, ply):
            fail(f"{where}: points with depth differ from convert --to ply's vertices")
    else:
        at = 0
        for p in with_depth:
            while at < len(ply) and not np.array_equal(ply[at], p):
                at += 1
            if at == len(ply):
                fail(f"{where}: point {p} not among convert --to ply's vertices in order")
            at += 1
    return len(got)


def main():
    bag, ref_path, layout = sys.argv[1:4]
    ply_dir = sys.argv[4] if layout != "plain" else None
    ordered = layout == "ordered"
    if layout not in ("unordered", "ordered", "plain"):
        fail(f"layout {layout}: unordered, ordered or plain")
    ref = np.load(ref_path)
    storage, clouds, numbers, depth_stamps = read_bag(bag)
    frameset = {int(ref[f"f{k}_numbers"][0]): k for k in range(len(ref.files)) if f"f{k}_numbers" in ref}
    out = {"storage": storage, "clouds": len(clouds), "points": []}
    compared = set()
    for time, _, msg in clouds:
        number = numbers.get(time)
        if number is None:
            fail(f"cloud at bag time {time}: no depth frame at that time")
        if number not in frameset:
            # librealsense's playback delivered this depth frame without
            # its colour frame (its syncer's timing): nothing to compare.
            continue
        compared.add(number)
        k = frameset[number]
        where = f"cloud of depth frame {number}"
        if layout == "plain":
            out["points"].append(check_plain(where, k, msg, ref, depth_stamps[time]))
        else:
            ply = read_ply_vertices(f"{ply_dir}/Depth_{number:06d}.ply")
            out["points"].append(check_cloud(where, k, msg, ref, ply, ordered, depth_stamps[time]))
    if compared != set(frameset):
        fail(f"no cloud of depth frames {sorted(set(frameset) - compared)}, which librealsense "
             "paired with colour")
    if storage == "mcap":
        read = mcap_clouds(bag)
        if read != [(time, raw) for time, raw, _ in clouds]:
            fail("the mcap library reads other cloud messages than rosbags")
        out["mcap_clouds"] = len(read)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
