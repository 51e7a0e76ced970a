#!/usr/bin/env python3
"""The calibration of recordings as the real librealsense (pyrealsense2
2.55.1) gives it, and the files of `rsbag calib` read back by the tools'
own readers and compared with it.

Usage:
    python3 rs_calib.py record OUT.bag
    python3 rs_calib.py values BAG OUT.json
    python3 rs_calib.py check FORMAT PATH VALUES.json [STREAMS]

record: a software_device with a "Stereo Module" (Depth Z16 with depth
units 0.00025, Infrared 1 and 2 Y8), an "RGB Camera" (Color RGB8, Brown-
Conrady without k3), a "Motion Module" (Accel at 100 Hz and Gyro at 200 Hz
with IMU intrinsics) and a "Fisheye Camera" (Fisheye 1, Kannala-Brandt),
extrinsics from depth to each other stream and from colour to fisheye
(rotations of a few tenths of a degree, translations of millimetres), a
few frames of each, recorded with rs.recorder.

values: plays BAG with librealsense and writes, per stream (key: the
stream's name, `Infrared 1`), `intrinsics` (get_intrinsics: width, height,
fx, fy, ppx, ppy, model, coeffs) or `motion` (get_motion_intrinsics: data,
noise_variances, bias_variances), `depth_units` (the depth sensor's
get_depth_scale), and `extrinsics` {"FROM>TO": {rotation, translation}}
from get_extrinsics_to for every ordered pair of streams.

check (FORMAT `info` for the output of `rsbag info --json`, whose
extrinsics are compared): reads the file(s) `rsbag calib --format FORMAT` wrote at PATH with
the tool's own reader (cv2.FileStorage for opencv, Open3D's
read_pinhole_camera_intrinsic for open3d when importable, yaml for kalibr
and ros against their documented keys, COLMAP's documented cameras.txt
layout, json) and compares every number with VALUES as float32; prints
"calibration equal: N values" or exits non-zero naming the first
difference.
"""

import json
import math
import sys
import time
from pathlib import Path

import numpy as np

try:
    import pyrealsense2 as rs
except ImportError:  # `check` runs in Open3D's environment too
    rs = None


def rotation(ax, ay, az):
    """Column-major rotation matrix of small angles (radians) about x, y, z."""
    cx, sx, cy, sy, cz, sz = (math.cos(ax), math.sin(ax), math.cos(ay), math.sin(ay),
                              math.cos(az), math.sin(az))
    rx = np.array([[1, 0, 0], [0, cx, -sx], [0, sx, cx]])
    ry = np.array([[cy, 0, sy], [0, 1, 0], [-sy, 0, cy]])
    rz = np.array([[cz, -sz, 0], [sz, cz, 0], [0, 0, 1]])
    return [float(v) for v in (rz @ ry @ rx).flatten(order="F")]


def extrinsics(angles, translation):
    e = rs.extrinsics()
    e.rotation = rotation(*angles)
    e.translation = translation
    return e


def video(sensor, kind, index, uid, fmt, bpp, size, fx, model, coeffs):
    s = rs.video_stream()
    s.type, s.index, s.uid = kind, index, uid
    s.width, s.height, s.fps, s.bpp, s.fmt = size[0], size[1], 30, bpp, fmt
    i = rs.intrinsics()
    i.width, i.height = size
    i.ppx, i.ppy = size[0] / 2 + 1.37, size[1] / 2 - 0.81
    i.fx, i.fy = fx, fx * 1.004
    i.model, i.coeffs = model, coeffs
    s.intrinsics = i
    return sensor.add_video_stream(s, True)


def motion(sensor, kind, uid, fps, scale):
    s = rs.motion_stream()
    s.type, s.index, s.uid, s.fps, s.fmt = kind, 0, uid, fps, rs.format.motion_xyz32f
    i = rs.motion_device_intrinsic()
    i.data = [[1.0 + scale, 0.002, -0.003, 0.01 * scale],
              [0.001, 1.0 - scale, 0.004, -0.02 * scale],
              [-0.002, 0.003, 1.0 + scale / 2, 0.03 * scale]]
    i.noise_variances = [1e-4 * scale, 2e-4 * scale, 3e-4 * scale]
    i.bias_variances = [5e-6 * scale, 6e-6 * scale, 7e-6 * scale]
    s.intrinsics = i
    return sensor.add_motion_stream(s)


def record(out):
    dev = rs.software_device()
    dev.register_info(rs.camera_info.name, "rsbag calibration reference")
    dev.register_info(rs.camera_info.serial_number, "29")
    stereo = dev.add_sensor("Stereo Module")
    stereo.add_read_only_option(rs.option.depth_units, 0.00025)
    rgb = dev.add_sensor("RGB Camera")
    imu = dev.add_sensor("Motion Module")
    fish = dev.add_sensor("Fisheye Camera")
    bc = rs.distortion.brown_conrady
    depth = video(stereo, rs.stream.depth, 0, 1, rs.format.z16, 2, (64, 48), 52.5, bc, [0.0] * 5)
    ir1 = video(stereo, rs.stream.infrared, 1, 2, rs.format.y8, 1, (64, 48), 52.5, bc, [0.0] * 5)
    ir2 = video(stereo, rs.stream.infrared, 2, 3, rs.format.y8, 1, (64, 48), 52.75, bc, [0.0] * 5)
    color = video(rgb, rs.stream.color, 0, 4, rs.format.rgb8, 3, (96, 54), 70.25, bc,
                  [0.08, -0.11, 0.0012, -0.0009, 0.0])
    fisheye = video(fish, rs.stream.fisheye, 1, 7, rs.format.y8, 1, (80, 80), 28.5,
                    rs.distortion.kannala_brandt4, [0.35, -0.12, 0.03, -0.004, 0.0])
    accel = motion(imu, rs.stream.accel, 5, 100, 0.01)
    gyro = motion(imu, rs.stream.gyro, 6, 200, 0.02)
    depth.register_extrinsics_to(ir1, extrinsics((0, 0, 0), [0.0, 0.0, 0.0]))
    depth.register_extrinsics_to(ir2, extrinsics((0.0002, -0.0001, 0.0003), [-0.0501, 0.0, 0.0001]))
    depth.register_extrinsics_to(color, extrinsics((0.004, -0.006, 0.003), [0.015, 0.0005, -0.0003]))
    color.register_extrinsics_to(fisheye, extrinsics((0.01, 0.02, -0.005), [0.02, -0.001, 0.003]))
    depth.register_extrinsics_to(accel, extrinsics((0.001, 0.002, -0.001), [-0.0117, -0.0055, 0.0051]))
    depth.register_extrinsics_to(gyro, extrinsics((0.001, 0.002, -0.001), [-0.0117, -0.0055, 0.0051]))

    recorder = rs.recorder(out, dev)
    sensors = ((stereo, [depth, ir1, ir2]), (rgb, [color]), (imu, [accel, gyro]), (fish, [fisheye]))
    for sensor, profiles in sensors:
        sensor.open(profiles)
        sensor.start(lambda frame: None)
    for n in range(1, 4):
        ts = 1000.0 + 33.3 * n
        for sensor, profile, bpp in ((stereo, depth, 2), (stereo, ir1, 1), (stereo, ir2, 1),
                                     (rgb, color, 3), (fish, fisheye, 1)):
            p = profile.as_video_stream_profile()
            f = rs.software_video_frame()
            f.pixels = bytes(p.width() * p.height() * bpp)
            f.stride, f.bpp = p.width() * bpp, bpp
            f.timestamp, f.domain, f.frame_number = ts, rs.timestamp_domain.hardware_clock, n
            f.profile = p
            sensor.on_video_frame(f)
        for profile in (accel, gyro):
            f = rs.software_motion_frame()
            v = rs.vector()
            v.x, v.y, v.z = 0.1 * n, -9.8, 0.2
            f.data = v
            f.timestamp, f.domain, f.frame_number = ts, rs.timestamp_domain.hardware_clock, n
            f.profile = profile.as_motion_stream_profile()
            imu.on_motion_frame(f)
        time.sleep(0.02)
    time.sleep(0.1)
    for sensor, _ in sensors:
        sensor.stop()
        sensor.close()
    recorder.pause()
    del recorder


def stream_name(profile):
    name = {rs.stream.depth: "Depth", rs.stream.color: "Color", rs.stream.infrared: "Infrared",
            rs.stream.fisheye: "Fisheye", rs.stream.gyro: "Gyro", rs.stream.accel: "Accel",
            rs.stream.pose: "Pose", rs.stream.confidence: "Confidence"}[profile.stream_type()]
    return name if profile.stream_index() == 0 else f"{name} {profile.stream_index()}"


def values(bag, out):
    ctx = rs.context()
    dev = ctx.load_device(bag)
    dev.as_playback().set_real_time(False)
    result = {"streams": {}, "extrinsics": {}}
    profiles = []
    for sensor in dev.query_sensors():
        scale = sensor.as_depth_sensor().get_depth_scale() if sensor.is_depth_sensor() else None
        for p in sensor.get_stream_profiles():
            name = stream_name(p)
            entry = {}
            if p.is_video_stream_profile():
                try:
                    i = p.as_video_stream_profile().get_intrinsics()
                    entry["intrinsics"] = {
                        "width": i.width, "height": i.height, "fx": i.fx, "fy": i.fy,
                        "ppx": i.ppx, "ppy": i.ppy, "model": str(i.model).split(".")[-1],
                        "coeffs": list(i.coeffs)}
                except RuntimeError:
                    pass
            if p.is_motion_stream_profile():
                m = p.as_motion_stream_profile().get_motion_intrinsics()
                entry["motion"] = {"data": [list(r) for r in m.data],
                                   "noise_variances": list(m.noise_variances),
                                   "bias_variances": list(m.bias_variances)}
            if p.stream_type() == rs.stream.depth and scale is not None:
                entry["depth_units"] = scale
            result["streams"][name] = entry
            profiles.append((name, p))
    for a, pa in profiles:
        for b, pb in profiles:
            if a == b:
                continue
            try:
                e = pa.get_extrinsics_to(pb)
            except RuntimeError:
                continue
            result["extrinsics"][f"{a}>{b}"] = {"rotation": list(e.rotation),
                                                "translation": list(e.translation)}
    Path(out).write_text(json.dumps(result))


class Compare:
    def __init__(self):
        self.count = 0

    def eq(self, what, ours, theirs):
        ours = np.asarray(ours, dtype=np.float64).ravel()
        theirs = np.asarray(theirs, dtype=np.float64).ravel()
        if ours.shape != theirs.shape:
            sys.exit(f"{what}: {ours.size} values, librealsense {theirs.size}")
        # Every number written must read back as librealsense's float32.
        if not np.array_equal(ours.astype(np.float32), theirs.astype(np.float32)):
            sys.exit(f"{what}: {ours.tolist()} != librealsense {theirs.tolist()}")
        self.count += ours.size

    def same(self, what, ours, theirs):
        if ours != theirs:
            sys.exit(f"{what}: {ours!r} != {theirs!r}")
        self.count += 1


def file_key(name):
    return name.replace(" ", "_")


def row_major(column_major):
    return np.asarray(column_major, dtype=np.float64).reshape(3, 3, order="F")


def camera_matrix(i):
    return [[i["fx"], 0, i["ppx"]], [0, i["fy"], i["ppy"]], [0, 0, 1]]


def cameras(values):
    """Video streams with intrinsics, in rsbag's stream order."""
    return [(n, s["intrinsics"]) for n, s in values["streams"].items() if "intrinsics" in s]


def commented_names(lines):
    """The stream names of the `# STREAM` comment line before each camera."""
    return [l[2:] for l in lines if l.startswith("# ") and l[2:].split(" ")[0] in
            ("Color", "Infrared", "Fisheye", "Depth", "Confidence")]


def check_json(path, values, c):
    ours = json.loads(Path(path).read_text())
    streams = {s["name"]: s for s in ours["streams"]}
    c.same("streams", sorted(streams), sorted(values["streams"]))
    for name, theirs in values["streams"].items():
        s = streams[name]
        if "intrinsics" in theirs:
            t, o = theirs["intrinsics"], s["intrinsics"]
            for k in ("width", "height", "fx", "fy", "ppx", "ppy", "coeffs"):
                c.eq(f"{name} {k}", o[k], t[k])
            c.same(f"{name} model", o["model"], t["model"])
        if "motion" in theirs:
            for k in ("data", "noise_variances", "bias_variances"):
                c.eq(f"{name} {k}", s["motion_intrinsics"][k], theirs["motion"][k])
        if "depth_units" in theirs:
            c.eq(f"{name} depth units", s["depth_units"], theirs["depth_units"])
    pairs = {f"{e['from']}>{e['to']}": e for e in ours["extrinsics"]}
    c.same("extrinsics pairs", sorted(pairs), sorted(values["extrinsics"]))
    for key, theirs in values["extrinsics"].items():
        c.eq(f"{key} rotation", pairs[key]["rotation"], theirs["rotation"])
        c.eq(f"{key} translation", pairs[key]["translation"], theirs["translation"])


def check_opencv(path, values, c):
    import cv2
    fs = cv2.FileStorage(str(path), cv2.FILE_STORAGE_READ)
    if not fs.isOpened():
        sys.exit(f"cv2.FileStorage cannot open {path}")
    for name, theirs in values["streams"].items():
        node = fs.getNode(file_key(name))
        if node.empty():
            sys.exit(f"{path}: no node {file_key(name)}")
        if "intrinsics" in theirs:
            t = theirs["intrinsics"]
            c.eq(f"{name} camera_matrix", node.getNode("camera_matrix").mat(), camera_matrix(t))
            c.eq(f"{name} distortion", node.getNode("distortion_coefficients").mat(), t["coeffs"])
            c.same(f"{name} model", node.getNode("distortion_model").string(), t["model"])
            c.eq(f"{name} size", [node.getNode("image_width").real(),
                                  node.getNode("image_height").real()], [t["width"], t["height"]])
        if "motion" in theirs:
            m = theirs["motion"]
            c.eq(f"{name} imu_intrinsics", node.getNode("imu_intrinsics").mat(), m["data"])
            c.eq(f"{name} noise", node.getNode("noise_variances").mat(), m["noise_variances"])
            c.eq(f"{name} bias", node.getNode("bias_variances").mat(), m["bias_variances"])
        if "depth_units" in theirs:
            c.eq(f"{name} depth units", node.getNode("depth_units").real(), theirs["depth_units"])
    extrinsics = fs.getNode("extrinsics")
    for key, theirs in values["extrinsics"].items():
        a, b = key.split(">")
        node = extrinsics.getNode(f"{file_key(a)}_to_{file_key(b)}")
        if node.empty():
            sys.exit(f"{path}: no extrinsics {a} to {b}")
        c.eq(f"{key} R", node.getNode("R").mat(), row_major(theirs["rotation"]))
        c.eq(f"{key} T", node.getNode("T").mat(), theirs["translation"])
    fs.release()


def homogeneous(e):
    m = np.eye(4)
    m[:3, :3] = row_major(e["rotation"])
    m[:3, 3] = e["translation"]
    return m


def check_kalibr(path, values, c):
    import yaml
    text = (Path(path) / "camchain.yaml").read_text()
    chain = yaml.safe_load(text)
    names = commented_names(text.splitlines())
    c.same("kalibr cameras", sorted(names), sorted(n for n, _ in cameras(values) if n != "Depth"))
    c.same("kalibr keys", sorted(chain), sorted(f"cam{k}" for k in range(len(names))))
    imu = "Gyro" if "Gyro" in values["streams"] else None
    for k, name in enumerate(names):
        cam = chain[f"cam{k}"]
        t = values["streams"][name]["intrinsics"]
        c.same(f"{name} camera_model", cam["camera_model"], "pinhole")
        c.eq(f"{name} intrinsics", cam["intrinsics"], [t["fx"], t["fy"], t["ppx"], t["ppy"]])
        c.eq(f"{name} resolution", cam["resolution"], [t["width"], t["height"]])
        model = "equidistant" if t["model"] == "kannala_brandt4" else "radtan"
        c.same(f"{name} distortion_model", cam["distortion_model"], model)
        c.eq(f"{name} distortion_coeffs", cam["distortion_coeffs"], t["coeffs"][:4])
        c.same(f"{name} rostopic", cam["rostopic"], f"/cam{k}/image_raw")
        if k > 0:
            e = values["extrinsics"][f"{names[k - 1]}>{name}"]
            c.eq(f"{name} T_cn_cnm1", cam["T_cn_cnm1"], homogeneous(e))
        if f"{imu}>{name}" in values["extrinsics"]:
            c.eq(f"{name} T_cam_imu", cam["T_cam_imu"],
                 homogeneous(values["extrinsics"][f"{imu}>{name}"]))
        else:
            c.same(f"{name} T_cam_imu", "T_cam_imu" in cam, False)
    if imu:
        spec = yaml.safe_load((Path(path) / "imu.yaml").read_text())
        keys = {"accelerometer_noise_density", "accelerometer_random_walk",
                "gyroscope_noise_density", "gyroscope_random_walk", "rostopic", "update_rate"}
        c.same("imu.yaml keys", keys - set(spec), set())
        gyro, accel = values["streams"]["Gyro"]["motion"], values["streams"]["Accel"]["motion"]
        rate = spec["update_rate"]
        c.eq("update_rate", rate, 200)
        f32 = np.float32
        # Kalibr's continuous-time noise from per-sample variances at each
        # stream's rate (200 Hz gyro, 100 Hz accel).
        expect = {
            "gyroscope_noise_density": math.sqrt(max(map(f32, gyro["noise_variances"])) / 200),
            "gyroscope_random_walk": math.sqrt(max(map(f32, gyro["bias_variances"])) * 200),
            "accelerometer_noise_density": math.sqrt(max(map(f32, accel["noise_variances"])) / 100),
            "accelerometer_random_walk": math.sqrt(max(map(f32, accel["bias_variances"])) * 100),
        }
        for k, v in expect.items():
            if not math.isclose(spec[k], v, rel_tol=1e-6):
                sys.exit(f"imu.yaml {k}: {spec[k]} != {v}")
            c.count += 1


def check_colmap(path, values, c):
    # COLMAP's text format: comment lines start with '#', then
    # CAMERA_ID MODEL WIDTH HEIGHT PARAMS[]; pixel centres at +0.5.
    text = Path(path).read_text().splitlines()
    lines = [l.split() for l in text if l and not l.startswith("#")]
    names = commented_names(text)
    c.same("colmap cameras", sorted(names), sorted(n for n, _ in cameras(values) if n != "Depth"))
    c.same("colmap lines", len(lines), len(names))
    for k, (name, line) in enumerate(zip(names, lines)):
        t = values["streams"][name]["intrinsics"]
        c.same(f"{name} id", int(line[0]), k + 1)
        model = line[1]
        c.eq(f"{name} size", [int(line[2]), int(line[3])], [t["width"], t["height"]])
        params = [float(v) for v in line[4:]]
        half = np.float32(0.5)
        expect = [t["fx"], t["fy"], np.float32(t["ppx"]) + half, np.float32(t["ppy"]) + half]
        if t["model"] == "kannala_brandt4" and any(t["coeffs"]):
            c.same(f"{name} model", model, "OPENCV_FISHEYE")
            expect += t["coeffs"][:4]
        elif any(t["coeffs"]):
            c.same(f"{name} model", model, "FULL_OPENCV" if t["coeffs"][4] else "OPENCV")
            expect += t["coeffs"][:4] + ([t["coeffs"][4], 0, 0, 0] if t["coeffs"][4] else [])
        else:
            c.same(f"{name} model", model, "PINHOLE")
        c.eq(f"{name} params", params, expect)


def check_open3d(path, values, c):
    try:
        import open3d as o3d
    except ImportError:
        o3d = None
    for name, t in cameras(values):
        if any(t["coeffs"]):
            continue
        file = Path(path) / f"{file_key(name)}.json"
        doc = json.loads(file.read_text())
        c.same(f"{name} class_name", doc["class_name"], "PinholeCameraIntrinsic")
        matrix = np.asarray(doc["intrinsic_matrix"]).reshape(3, 3, order="F")
        if o3d is not None:
            intrinsic = o3d.io.read_pinhole_camera_intrinsic(str(file))
            matrix = np.asarray(intrinsic.intrinsic_matrix)
            c.eq(f"{name} size", [intrinsic.width, intrinsic.height], [t["width"], t["height"]])
        else:
            c.eq(f"{name} size", [doc["width"], doc["height"]], [t["width"], t["height"]])
        c.eq(f"{name} intrinsic_matrix", matrix, camera_matrix(t))
    print("open3d reader:", "open3d " + o3d.__version__ if o3d else "none (JSON keys checked)")


def check_ros(path, values, c):
    import yaml
    for name, t in cameras(values):
        info = yaml.safe_load((Path(path) / f"{file_key(name)}.yaml").read_text())
        c.same(f"{name} camera_name", info["camera_name"], file_key(name).lower())
        c.eq(f"{name} size", [info["image_width"], info["image_height"]], [t["width"], t["height"]])
        k = info["camera_matrix"]
        c.same(f"{name} K shape", (k["rows"], k["cols"]), (3, 3))
        c.eq(f"{name} K", k["data"], camera_matrix(t))
        fisheye = t["model"] == "kannala_brandt4" and any(t["coeffs"])
        c.same(f"{name} model", info["distortion_model"], "equidistant" if fisheye else "plumb_bob")
        d = info["distortion_coefficients"]
        n = 4 if fisheye else 5
        c.same(f"{name} D shape", (d["rows"], d["cols"]), (1, n))
        c.eq(f"{name} D", d["data"], t["coeffs"][:n])
        c.eq(f"{name} R", info["rectification_matrix"]["data"], np.eye(3))
        p = np.zeros((3, 4))
        p[:, :3] = camera_matrix(t)
        c.eq(f"{name} P", info["projection_matrix"]["data"], p)


def check_info(path, values, c):
    """`rsbag info --json`'s extrinsics."""
    ours = json.loads(Path(path).read_text())["realsense"]["extrinsics"]
    pairs = {f"{e['from']}>{e['to']}": e for e in ours}
    c.same("info extrinsics pairs", sorted(pairs), sorted(values["extrinsics"]))
    for key, theirs in values["extrinsics"].items():
        c.eq(f"info {key} rotation", pairs[key]["rotation"], theirs["rotation"])
        c.eq(f"info {key} translation", pairs[key]["translation"], theirs["translation"])


def check(fmt, path, values_path, streams=None):
    """Check rsbag's file against librealsense's values; with `streams`
    (comma-separated names, as `rsbag calib --streams` was given them),
    against those streams' values and the extrinsics between them."""
    values = json.loads(Path(values_path).read_text())
    if streams:
        kept = streams.split(",")
        values["streams"] = {n: s for n, s in values["streams"].items() if n in kept}
        values["extrinsics"] = {k: e for k, e in values["extrinsics"].items()
                                if all(n in kept for n in k.split(">"))}
    c = Compare()
    {"json": check_json, "opencv": check_opencv, "kalibr": check_kalibr,
     "colmap": check_colmap, "open3d": check_open3d, "ros": check_ros,
     "info": check_info}[fmt](path, values, c)
    if c.count == 0:
        sys.exit("nothing compared")
    print(f"calibration equal: {c.count} values")


def main():
    command = sys.argv[1]
    if command == "record":
        record(sys.argv[2])
    elif command == "values":
        values(sys.argv[2], sys.argv[3])
    elif command == "check":
        check(sys.argv[2], sys.argv[3], sys.argv[4], *sys.argv[5:6])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
