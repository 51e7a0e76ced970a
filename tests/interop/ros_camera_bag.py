#!/usr/bin/env python3
"""Write camera bags as ROS records them, with the rosbags library, and
print what they hold.

Usage:
    python3 ros_camera_bag.py OUT --format ros1|sqlite3|mcap|db3
        [--scenario wrapper|native|bad-size|no-info|no-camera|compressed|damaged-compressed|robot]
        [--frames N] [--size WxH] [--base-ns NS]
        [--color-codec jpeg|png|bare-jpeg] [--depth-codec png|rvl] [--depth-encoding 16UC1|32FC1]
        [--reference DIR] [--namespaces NS,NS...]

--format: ros1 writes the ROS1 bag OUT (RealSense ROS1 wrapper topics:
/camera/color/image_raw ...); sqlite3 and mcap write the rosbag2 directory
OUT (ROS 2 wrapper topics: /camera/camera/color/image_raw ...); db3 writes
the bare SQLite file OUT (the storage file of an sqlite3 bag, as
librealsense 2.59 opens it).

Scenarios:
- wrapper: colour rgb8 + depth 16UC1 + infra1/infra2 mono8, each with a
  camera_info per frame; gyro/sample and accel/sample (sensor_msgs/Imu);
  odometry (odom/sample in ROS1, pose/sample in ROS 2: nav_msgs/Odometry);
  /tf_static placing colour 15 mm right of depth.
- native: colour, depth and infra1 Image + CameraInfo pairs and a combined
  /camera/camera/imu: the "native ROS2" recording librealsense 2.59 plays.
- bad-size: wrapper, with one depth image whose data is 2 bytes short.
- no-info: wrapper without the colour camera_info topic.
- no-camera: only a std_msgs String topic.
- compressed: the wrapper's camera topics through image_transport, as its
  plugins write them (OpenCV's cv2.imencode; image_transport_plugins'
  codec.cpp layout): colour <image>/compressed (--color-codec: jpeg
  "rgb8; jpeg compressed bgr8" quality 90, png "rgb8; png compressed
  bgr8", or bare-jpeg: an old publisher's "jpeg" of a bgr8 image), infra1
  "mono8; jpeg compressed mono8", infra2 "mono8; png compressed ", depth
  <image>/compressedDepth (--depth-codec png or rvl; --depth-encoding
  16UC1 millimetres, or 32FC1 metres as the plugin's inverse-depth
  quantisation, depth_max 10 m, depth_quantization 100), camera_info, IMU
  and /tf_static as in wrapper. --reference DIR: each stream's frames as
  the plugin's subscriber decodes them (cv2.imdecode, then its colour
  conversion; RVL by this file's own decoder; 32FC1 as A / (v - B) with no
  depth 0, not NaN) are written to DIR/<folder>.raw, frame after frame.
- damaged-compressed: compressed, with colour frame 2 cut in half and
  depth frame 3's RVL/PNG bytes overwritten.
--namespaces: the cameras' namespaces (default /camera in ROS1,
/camera/camera in ROS 2): each writes the scenario's camera topics (images,
camera_info, IMU) under its own, as several wrapper nodes do
(camera_namespace:=cam_front ...: /cam_front/camera/color/image_raw), with
pictures and samples of its own and its messages 0.15 ms after the
previous camera's; odometry, /tf_static and the robot's topics once. With
several, --reference DIR has a folder per camera, named for its namespace
with "/" made "_" (cam_front_camera/color.raw).

- robot: wrapper, on a robot: a second camera (<ns>2: colour only, as
  /camera2/camera/color/image_raw in ROS 2), a lidar's /scan
  (sensor_msgs/LaserScan), /tf and the robot's /odom (nav_msgs/Odometry)
  per frame.

Prints one JSON object: {"streams": {topic: {"encoding", "width",
"height", "frames": [{"sha256", "stamp_ns", "time_ns"}]}} (compressed
topics: also "format", "codec" (jpeg, png, rvl), the sha256 of the
reference decode, "damaged": true for a damaged frame), "imu": {topic:
[{"angular_velocity": [3], "linear_acceleration": [3]}]}, "odometry":
{topic: [{"position": [3], "orientation": [4]}]}} — the data as written,
the judge of what rsbag plays.
"""

import argparse
import hashlib
import json
import shutil
from pathlib import Path

import numpy as np
from rosbags.typesys import Stores, get_types_from_msg, get_typestore

from image_transport import decode_depth, decode_image, encode_depth, encode_image


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--format", required=True, choices=["ros1", "sqlite3", "mcap", "db3"])
    ap.add_argument("--scenario", default="wrapper",
                    choices=["wrapper", "native", "bad-size", "no-info", "no-camera", "compressed",
                             "damaged-compressed", "robot"])
    ap.add_argument("--color-codec", default="jpeg", choices=["jpeg", "png", "bare-jpeg"])
    ap.add_argument("--depth-codec", default="png", choices=["png", "rvl"])
    ap.add_argument("--depth-encoding", default="16UC1", choices=["16UC1", "32FC1"])
    ap.add_argument("--reference", help="directory for the reference decodes of compressed topics")
    ap.add_argument("--namespaces", help="comma-separated camera namespaces")
    ap.add_argument("--frames", type=int, default=6)
    ap.add_argument("--size", default="32x24")
    ap.add_argument("--base-ns", type=int, default=1_700_000_000_000_000_000,
                    help="time of the first message (0: a bag that starts at zero)")
    args = ap.parse_args()
    ros1 = args.format == "ros1"
    ts = get_typestore(Stores.ROS1_NOETIC if ros1 else Stores.ROS2_HUMBLE)
    if "tf2_msgs/msg/TFMessage" not in ts.types:
        # Noetic's typestore lacks tf2_msgs; its one message, as ROS defines it.
        ts.register(get_types_from_msg("geometry_msgs/TransformStamped[] transforms",
                                       "tf2_msgs/msg/TFMessage"))
    width, height = (int(v) for v in args.size.split("x"))
    ns = "/camera" if ros1 else "/camera/camera"
    namespaces = args.namespaces.split(",") if args.namespaces else [ns]
    out = Path(args.out)
    if args.format == "db3":
        target = out.with_name(out.name + ".bagdir")
    else:
        target = out
    writer = open_writer(target, args.format)
    summary = {"streams": {}, "imu": {}}
    with writer:
        write(writer, ts, ros1, namespaces, args, width, height, summary)
    if args.format == "db3":
        (db3,) = target.glob("*.db3")
        shutil.move(str(db3), out)
        shutil.rmtree(target)
    print(json.dumps(summary, sort_keys=True))


def open_writer(path, fmt):
    if fmt == "ros1":
        from rosbags.rosbag1 import Writer
        return Writer(path)
    from rosbags.rosbag2 import StoragePlugin, Writer
    plugin = StoragePlugin.MCAP if fmt == "mcap" else StoragePlugin.SQLITE3
    return Writer(path, version=8, storage_plugin=plugin)


def header(ts, ros1, ns_time, frame_id, seq):
    T = ts.types
    if ros1:
        Time = T["builtin_interfaces/msg/Time"]
        return T["std_msgs/msg/Header"](seq=seq, stamp=Time(sec=ns_time // 10**9, nanosec=ns_time % 10**9),
                                       frame_id=frame_id)
    Time = T["builtin_interfaces/msg/Time"]
    return T["std_msgs/msg/Header"](stamp=Time(sec=ns_time // 10**9, nanosec=ns_time % 10**9),
                                   frame_id=frame_id)


def write(w, ts, ros1, namespaces, args, width, height, summary):
    T = ts.types
    Image, Info, Imu = (T["sensor_msgs/msg/Image"], T["sensor_msgs/msg/CameraInfo"],
                        T["sensor_msgs/msg/Imu"])
    conn = {}

    def add(topic, msgtype, qos=()):
        if topic not in conn:
            extra = {} if ros1 or not qos else {"offered_qos_profiles": qos}
            conn[topic] = w.add_connection(topic, msgtype, typestore=ts, **extra)
        return conn[topic]

    if args.scenario == "no-camera":
        c = add("/chatter", "std_msgs/msg/String")
        w.write(c, 1_000, ts.serialize_ros1(T["std_msgs/msg/String"](data="hi"), "std_msgs/msg/String")
                if ros1 else ts.serialize_cdr(T["std_msgs/msg/String"](data="hi"), "std_msgs/msg/String"))
        return
    ser = (lambda m, t: ts.serialize_ros1(m, t)) if ros1 else (lambda m, t: ts.serialize_cdr(m, t))
    compressed = args.scenario in ("compressed", "damaged-compressed")
    cameras = [("color", "image_raw", "rgb8", 3), ("depth", "image_rect_raw", "16UC1", 2),
               ("infra1", "image_rect_raw", "mono8", 1)]
    if args.scenario != "native":
        cameras.append(("infra2", "image_rect_raw", "mono8", 1))
    base = args.base_ns
    if args.scenario != "native":
        write_tf(w, ts, ros1, add, base)
    references = {ns: None for ns in namespaces}
    if args.reference:
        for ns in namespaces:
            references[ns] = Path(args.reference)
            if len(namespaces) > 1:
                references[ns] /= ns.strip("/").replace("/", "_")
            references[ns].mkdir(parents=True, exist_ok=True)
    roi = T["sensor_msgs/msg/RegionOfInterest"](x_offset=0, y_offset=0, height=0, width=0, do_rectify=False)
    for i, (n, ns) in ((i, c) for i in range(args.frames) for c in enumerate(namespaces)):
        ns_base = base + n * 150_000
        for k, (name, leaf, enc, bpp) in enumerate(cameras):
            topic = f"{ns}/{name}/{leaf}"
            t = ns_base + i * 33_333_333 + k * 1_000_000
            stamp = max(t - 2_000_000, 0)  # captured 2 ms before it was recorded
            frame_id = f"camera_{name}_optical_frame"
            h = header(ts, ros1, stamp, frame_id, i + 1)
            rng = np.random.default_rng(1000 * k + i + 100_000 * n)
            if compressed:
                write_compressed(w, ts, add, ser, args, summary, references[ns], ns, name, leaf,
                                 h, t, stamp, scene(name, i + 7 * n, width, height))
            else:
                data = rng.integers(0, 256, width * height * bpp, dtype=np.uint8)
                if args.scenario == "bad-size" and name == "depth" and i == 2:
                    data = data[:-2]
                msg = Image(header=h, height=height, width=width, encoding=enc, is_bigendian=0,
                            step=width * bpp, data=data)
                w.write(add(topic, "sensor_msgs/msg/Image"), t, ser(msg, "sensor_msgs/msg/Image"))
                entry = summary["streams"].setdefault(topic, {"encoding": enc, "width": width,
                                                              "height": height, "frames": []})
                entry["frames"].append({"sha256": hashlib.sha256(data.tobytes()).hexdigest(),
                                        "stamp_ns": stamp, "time_ns": t})
            if args.scenario == "no-info" and name == "color":
                continue
            fx = 30.0 + k
            d = np.array([0.1, -0.05, 0.001, 0.002, 0.01]) if name == "color" else np.zeros(5)
            kk = np.array([fx, 0, width / 2, 0, fx + 1, height / 2, 0, 0, 1])
            p = np.array([fx, 0, width / 2, 0, 0, fx + 1, height / 2, 0, 0, 0, 1, 0])
            matrices = ({"D": d, "K": kk, "R": np.eye(3).flatten(), "P": p} if ros1
                        else {"d": d, "k": kk, "r": np.eye(3).flatten(), "p": p})
            info = Info(header=h, height=height, width=width, distortion_model="plumb_bob",
                        binning_x=0, binning_y=0, roi=roi, **matrices)
            w.write(add(f"{ns}/{name}/camera_info", "sensor_msgs/msg/CameraInfo"), t,
                    ser(info, "sensor_msgs/msg/CameraInfo"))
        if args.scenario == "robot" and n == 0:
            write_robot(w, ts, ros1, ns, add, ser, i, base + i * 33_333_333 + 300_000, width,
                        height, summary)
        if args.scenario != "native" and n == 0:
            write_odometry(w, ts, ros1, ns, add, ser, i, base + i * 33_333_333 + 200_000, summary)
        imu_topics = ([f"{ns}/imu"] if args.scenario == "native"
                      else [f"{ns}/gyro/sample", f"{ns}/accel/sample"])
        for j in range(4):
            for m, topic in enumerate(imu_topics):
                t = ns_base + i * 33_333_333 + j * 8_000_000 + 500_000 + m * 100_000
                V3, Q = T["geometry_msgs/msg/Vector3"], T["geometry_msgs/msg/Quaternion"]
                av = [0.01 * (i * 4 + j), -0.25 - n, 0.5 + m]
                la = [0.1, 9.80665 - 0.001 * j, -0.3 * i]
                cov = np.zeros(9)
                msg = Imu(header=header(ts, ros1, t, "camera_imu_optical_frame", i * 4 + j + 1),
                          orientation=Q(x=0.0, y=0.0, z=0.0, w=1.0), orientation_covariance=cov,
                          angular_velocity=V3(x=av[0], y=av[1], z=av[2]), angular_velocity_covariance=cov,
                          linear_acceleration=V3(x=la[0], y=la[1], z=la[2]),
                          linear_acceleration_covariance=cov)
                w.write(add(topic, "sensor_msgs/msg/Imu"), t, ser(msg, "sensor_msgs/msg/Imu"))
                summary["imu"].setdefault(topic, []).append(
                    {"angular_velocity": av, "linear_acceleration": la, "time_ns": t})


def scene(name, i, width, height):
    """A camera-like picture of frame i: smooth gradients, a moving disc
    and a little noise (depth: a slanted plane in mm with a hole of no
    depth); rgb8 (H, W, 3), mono8 (H, W) or 16UC1 (H, W) uint16."""
    y, x = np.mgrid[0:height, 0:width].astype(np.float64)
    cx, cy = width * (0.3 + 0.05 * i), height * 0.5
    disc = ((x - cx) ** 2 + (y - cy) ** 2) < (min(width, height) * 0.25) ** 2
    noise = np.random.default_rng(sum(name.encode()) + i).normal(0, 3, (height, width))
    if name == "depth":
        depth = 600 + 8 * x + 5 * y + 40 * i + np.where(disc, -250, 0) + noise
        depth[2:5, 3:9] = 0
        return np.clip(depth, 0, 65535).astype(np.uint16)
    base = 40 + 150 * x / width + 50 * y / height + noise
    if name == "color":
        r = base + np.where(disc, 80, 0)
        g = 200 - 120 * y / height + noise
        b = 60 + 100 * np.sin(x / 5.0) + np.where(disc, -40, 0)
        return np.clip(np.dstack([r, g, b]), 0, 255).astype(np.uint8)
    return np.clip(base + np.where(disc, 60, 0), 0, 255).astype(np.uint8)


def write_compressed(w, ts, add, ser, args, summary, reference, ns, name, leaf, h, t, stamp,
                     picture):
    """One frame of a camera stream on its image_transport topic."""
    T = ts.types
    height, width = picture.shape[:2]
    damaged = False
    if name == "depth":
        fmt, data, _ = encode_depth(picture, args.depth_codec, args.depth_encoding)
        topic = f"{ns}/{name}/{leaf}/compressedDepth"
        codec = args.depth_codec
        pixels = decode_depth(data, codec, args.depth_encoding)
        assert pixels.shape == (height, width)
        encoding = args.depth_encoding
    else:
        codec = {"color": args.color_codec, "infra1": "jpeg", "infra2": "png"}[name]
        encoding = "rgb8" if name == "color" else "mono8"
        fmt, data = encode_image(picture, encoding, codec)
        topic = f"{ns}/{name}/{leaf}/compressed"
        encoding, pixels = decode_image(fmt, data)
        codec = "jpeg" if codec == "bare-jpeg" else codec
    frames = summary["streams"].setdefault(topic, {"encoding": encoding, "width": width,
                                                   "height": height, "format": fmt, "codec": codec,
                                                   "frames": []})["frames"]
    if args.scenario == "damaged-compressed":
        if name == "color" and len(frames) == 2:
            data, damaged = data[:len(data) // 2], True
        if name == "depth" and len(frames) == 3:
            data, damaged = data[:20] + bytes([0xFF]) * (len(data) - 20), True
    msg = T["sensor_msgs/msg/CompressedImage"](header=h, format=fmt,
                                              data=np.frombuffer(data, np.uint8))
    w.write(add(topic, "sensor_msgs/msg/CompressedImage"), t,
            ser(msg, "sensor_msgs/msg/CompressedImage"))
    entry = {"sha256": hashlib.sha256(pixels.tobytes()).hexdigest(), "stamp_ns": stamp,
             "time_ns": t}
    if damaged:
        entry["damaged"] = True
    frames.append(entry)
    if reference and not damaged:
        with open(reference / f"{name}.raw", "ab") as out:
            out.write(np.ascontiguousarray(pixels).tobytes())


def write_robot(w, ts, ros1, ns, add, ser, i, t, width, height, summary):
    """What else a robot records beside the camera: a second camera's
    colour, a lidar scan and the moving /tf."""
    T = ts.types
    topic = ns.replace("/camera", "/camera2", 1) + "/color/image_raw"
    data = np.random.default_rng(7000 + i).integers(0, 256, width * height * 3, dtype=np.uint8)
    h = header(ts, ros1, t, "camera2_color_optical_frame", i + 1)
    msg = T["sensor_msgs/msg/Image"](header=h, height=height, width=width, encoding="rgb8",
                                     is_bigendian=0, step=width * 3, data=data)
    w.write(add(topic, "sensor_msgs/msg/Image"), t, ser(msg, "sensor_msgs/msg/Image"))
    summary["streams"].setdefault(topic, {"encoding": "rgb8", "width": width, "height": height,
                                          "frames": []})["frames"].append(
        {"sha256": hashlib.sha256(data.tobytes()).hexdigest(), "stamp_ns": t, "time_ns": t})
    scan = T["sensor_msgs/msg/LaserScan"](
        header=header(ts, ros1, t, "laser", i + 1), angle_min=-1.5, angle_max=1.5,
        angle_increment=0.01, time_increment=0.0, scan_time=0.1, range_min=0.1, range_max=30.0,
        ranges=np.full(301, 2.0 + 0.1 * i, dtype=np.float32), intensities=np.zeros(301, np.float32))
    w.write(add("/scan", "sensor_msgs/msg/LaserScan"), t, ser(scan, "sensor_msgs/msg/LaserScan"))
    TS, TF = T["geometry_msgs/msg/TransformStamped"], T["tf2_msgs/msg/TFMessage"]
    Tr, V3, Q = T["geometry_msgs/msg/Transform"], T["geometry_msgs/msg/Vector3"], T["geometry_msgs/msg/Quaternion"]
    tf = TF(transforms=[TS(header=header(ts, ros1, t, "odom", 0), child_frame_id="base_link",
                           transform=Tr(translation=V3(x=0.1 * i, y=0.0, z=0.0),
                                        rotation=Q(x=0.0, y=0.0, z=0.0, w=1.0)))])
    w.write(add("/tf", "tf2_msgs/msg/TFMessage", robot_tf_qos()), t, ser(tf, "tf2_msgs/msg/TFMessage"))
    Odom, Pose = T["nav_msgs/msg/Odometry"], T["geometry_msgs/msg/Pose"]
    PWC, TWC, Tw = (T["geometry_msgs/msg/PoseWithCovariance"], T["geometry_msgs/msg/TwistWithCovariance"],
                    T["geometry_msgs/msg/Twist"])
    odom = Odom(header=header(ts, ros1, t, "odom", i + 1), child_frame_id="base_link",
                pose=PWC(pose=Pose(position=T["geometry_msgs/msg/Point"](x=0.1 * i, y=0.0, z=0.0),
                                   orientation=Q(x=0.0, y=0.0, z=0.0, w=1.0)),
                         covariance=np.full(36, 0.01)),
                twist=TWC(twist=Tw(linear=V3(x=0.3, y=0.0, z=0.0), angular=V3(x=0.0, y=0.0, z=0.1)),
                          covariance=np.zeros(36)))
    w.write(add("/odom", "nav_msgs/msg/Odometry"), t, ser(odom, "nav_msgs/msg/Odometry"))


def robot_tf_qos():
    """The QoS /tf is offered with (tf2's: reliable, keep last 100), which
    a copy keeps."""
    from rosbags.interfaces import (Qos, QosDurability, QosHistory, QosLiveliness,
                                    QosReliability, QosTime)
    zero = QosTime(sec=0, nsec=0)
    return [Qos(history=QosHistory.KEEP_LAST, depth=100, reliability=QosReliability.RELIABLE,
                durability=QosDurability.VOLATILE, deadline=zero, lifespan=zero,
                liveliness=QosLiveliness.AUTOMATIC, liveliness_lease_duration=zero,
                avoid_ros_namespace_conventions=False)]


def write_tf(w, ts, ros1, add, t):
    """camera_link → depth and colour optical frames; colour 15 mm to the
    right of depth (optical x), as the wrapper publishes them."""
    T = ts.types
    TS, TF = T["geometry_msgs/msg/TransformStamped"], T["tf2_msgs/msg/TFMessage"]
    Tr, V3, Q = T["geometry_msgs/msg/Transform"], T["geometry_msgs/msg/Vector3"], T["geometry_msgs/msg/Quaternion"]
    optical = Q(x=-0.5, y=0.5, z=-0.5, w=0.5)

    def tf(parent, child, xyz, q):
        return TS(header=header(ts, ros1, t, parent, 0), child_frame_id=child,
                  transform=Tr(translation=V3(x=xyz[0], y=xyz[1], z=xyz[2]), rotation=q))

    ident = Q(x=0.0, y=0.0, z=0.0, w=1.0)
    msg = TF(transforms=[
        tf("camera_link", "camera_depth_frame", (0, 0, 0), ident),
        tf("camera_depth_frame", "camera_depth_optical_frame", (0, 0, 0), optical),
        tf("camera_link", "camera_color_frame", (0, -0.015, 0), ident),
        tf("camera_color_frame", "camera_color_optical_frame", (0, 0, 0), optical),
    ])
    data = (ts.serialize_ros1 if ros1 else ts.serialize_cdr)(msg, "tf2_msgs/msg/TFMessage")
    w.write(add("/tf_static", "tf2_msgs/msg/TFMessage"), t, data)


def write_odometry(w, ts, ros1, ns, add, ser, i, t, summary):
    """A T265-like pose on the wrapper's odometry topic (`odom/sample` in
    ROS1, `pose/sample` in ROS 2), in the wrapper's axes."""
    T = ts.types
    Odom = T["nav_msgs/msg/Odometry"]
    P, Q, V3 = T["geometry_msgs/msg/Point"], T["geometry_msgs/msg/Quaternion"], T["geometry_msgs/msg/Vector3"]
    PWC, Tw, TWC = (T["geometry_msgs/msg/PoseWithCovariance"], T["geometry_msgs/msg/Twist"],
                    T["geometry_msgs/msg/TwistWithCovariance"])
    Pose = T["geometry_msgs/msg/Pose"]
    position = [0.5 + 0.01 * i, -0.25, 1.0]
    orientation = [0.0, 0.0, 0.38268343236509, 0.923879532511287]  # 45 degrees about z
    msg = Odom(header=header(ts, ros1, t, "odom_frame", i + 1), child_frame_id="camera_pose_frame",
               pose=PWC(pose=Pose(position=P(x=position[0], y=position[1], z=position[2]),
                                  orientation=Q(x=orientation[0], y=orientation[1], z=orientation[2],
                                                w=orientation[3])),
                        covariance=np.zeros(36)),
               twist=TWC(twist=Tw(linear=V3(x=0.1, y=0.0, z=0.0), angular=V3(x=0.0, y=0.0, z=0.2)),
                         covariance=np.zeros(36)))
    topic = f"{ns}/odom/sample" if ros1 else f"{ns}/pose/sample"
    w.write(add(topic, "nav_msgs/msg/Odometry"), t, ser(msg, "nav_msgs/msg/Odometry"))
    summary.setdefault("odometry", {}).setdefault(topic, []).append(
        {"position": position, "orientation": orientation, "time_ns": t})


if __name__ == "__main__":
    main()
