#!/usr/bin/env python3
"""What the real librealsense (pyrealsense2 2.55.1) computes from a
recording: aligned images, point clouds and their colours, and rsutil's
projections; the reference rsbag's processing is compared against.

Usage:
    python3 rs_process.py record OUT.bag [--depth-model M] [--color-model M]
                          [--depth-size WxH] [--color-size WxH] [--frames N]
    python3 rs_process.py process BAG OUT.npz
    python3 rs_process.py project OUT.npz

record: a software_device with a "Stereo Module" (Depth Z16, Depth Units
0.001) and an "RGB Camera" (Color RGB8), both at 30 fps, recorded with
rs.recorder. Intrinsics: ppx/ppy off centre, fx != fy, the given distortion
models (librealsense's names with underscores: none, brown_conrady,
inverse_brown_conrady, modified_brown_conrady, kannala_brandt4, ftheta)
with non-zero coefficients. Depth to colour: a rotation of a few tenths
of a degree about each axis and a translation of (15, 0.5, -0.3) mm, as a
D400's. Each depth frame is a wavy wall 1.2-1.8 m away with a box at
0.6 m in front of it (moving a pixel each frame: occlusion at its edges)
and 3 % of pixels without depth; colour frames are noise. Depth and
colour frame n both have number n and timestamp 1000 + 33.3 n ms.

process: plays BAG through a pipeline (real time off, every frame) and,
for each frameset with depth and colour, stores under key `f<k>`:
`numbers` (depth, colour frame numbers), `depth_to_color`
(rs.align(color)), `color_to_depth` (rs.align(depth)), `vertices` and
`texcoords` (rs.pointcloud map_to colour, calculate depth),
`ply_vertices`/`ply_colors` (points.export_to_ply with the colour frame,
read back), `color` (the colour frame's pixels, height x width x 3) and
`plain_vertices` (rs.pointcloud calculate depth, not mapped to colour: no
occlusion scan).

project: for each distortion model, rs2_deproject_pixel_to_point and
rs2_project_point_to_pixel on a grid of pixels and depths
(`<model>_pixels`, `<model>_depths`, `<model>_points`,
`<model>_projected`, `<model>_intrinsics` as ppx, ppy, fx, fy, coeffs).
"""

import argparse
import struct
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pyrealsense2 as rs

COEFFS = {
    "none": [0.0] * 5,
    "brown_conrady": [0.08, -0.11, 0.0012, -0.0009, 0.03],
    "inverse_brown_conrady": [-0.06, 0.07, 0.0011, 0.0006, -0.02],
    "modified_brown_conrady": [0.12, -0.2, -0.0015, 0.0008, 0.05],
    "kannala_brandt4": [0.35, -0.12, 0.03, -0.004, 0.0],
    "ftheta": [0.92, 0.0, 0.0, 0.0, 0.0],
}


def intrinsics(width, height, model, scale):
    i = rs.intrinsics()
    i.width, i.height = width, height
    i.ppx, i.ppy = width / 2 + 1.37, height / 2 - 0.81
    i.fx, i.fy = width * scale, width * scale * 1.004
    i.model = getattr(rs.distortion, model)
    i.coeffs = COEFFS[model]
    return i


def rotation(ax, ay, az):
    """Column-major rotation matrix of small angles (radians) about x, y, z."""
    cx, sx, cy, sy, cz, sz = np.cos(ax), np.sin(ax), np.cos(ay), np.sin(ay), np.cos(az), np.sin(az)
    rx = np.array([[1, 0, 0], [0, cx, -sx], [0, sx, cx]])
    ry = np.array([[cy, 0, sy], [0, 1, 0], [-sy, 0, cy]])
    rz = np.array([[cz, -sz, 0], [sz, cz, 0], [0, 0, 1]])
    return [float(v) for v in (rz @ ry @ rx).flatten(order="F")]


def depth_image(width, height, n, rng):
    x = np.arange(width)[None, :]
    y = np.arange(height)[:, None]
    wall = 1500 + 300 * np.sin(x / 7.0 + n) * np.cos(y / 11.0)
    depth = np.broadcast_to(wall, (height, width)).astype(np.uint16).copy()
    bx, by = width // 3 + n, height // 3
    depth[by:by + height // 3, bx:bx + width // 4] = 600 + (x[:, : width // 4] % 5).astype(np.uint16)
    depth[rng.random((height, width)) < 0.03] = 0
    return depth


def record(args):
    dw, dh = map(int, args.depth_size.split("x"))
    cw, ch = map(int, args.color_size.split("x"))
    dev = rs.software_device()
    dev.register_info(rs.camera_info.name, "rsbag processing reference")
    dev.register_info(rs.camera_info.serial_number, "16")
    stereo = dev.add_sensor("Stereo Module")
    stereo.add_read_only_option(rs.option.depth_units, 0.001)
    rgb = dev.add_sensor("RGB Camera")
    depth_stream = rs.video_stream()
    depth_stream.type, depth_stream.index, depth_stream.uid = rs.stream.depth, 0, 1
    depth_stream.width, depth_stream.height, depth_stream.fps = dw, dh, 30
    depth_stream.bpp, depth_stream.fmt = 2, rs.format.z16
    depth_stream.intrinsics = intrinsics(dw, dh, args.depth_model, 0.9)
    color_stream = rs.video_stream()
    color_stream.type, color_stream.index, color_stream.uid = rs.stream.color, 0, 2
    color_stream.width, color_stream.height, color_stream.fps = cw, ch, 30
    color_stream.bpp, color_stream.fmt = 3, rs.format.rgb8
    color_stream.intrinsics = intrinsics(cw, ch, args.color_model, 0.75)
    depth_profile = stereo.add_video_stream(depth_stream, True)
    color_profile = rgb.add_video_stream(color_stream, True)
    e = rs.extrinsics()
    e.rotation = rotation(0.004, -0.006, 0.003)
    e.translation = [0.015, 0.0005, -0.0003]
    depth_profile.register_extrinsics_to(color_profile, e)

    recorder = rs.recorder(args.out, dev)
    for sensor, profile in ((stereo, depth_profile), (rgb, color_profile)):
        sensor.open(profile)
        sensor.start(lambda frame: None)
    rng = np.random.default_rng(16)
    for n in range(1, args.frames + 1):
        ts = 1000.0 + 33.3 * n
        for sensor, profile, data, bpp, width in (
                (stereo, depth_profile, depth_image(dw, dh, n, rng).tobytes(), 2, dw),
                (rgb, color_profile, rng.integers(0, 256, ch * cw * 3, dtype=np.uint8).tobytes(),
                 3, cw)):
            f = rs.software_video_frame()
            f.pixels, f.stride, f.bpp = data, width * bpp, bpp
            f.timestamp, f.domain, f.frame_number = ts, rs.timestamp_domain.hardware_clock, n
            f.profile = profile.as_video_stream_profile()
            sensor.on_video_frame(f)
        time.sleep(0.02)
    time.sleep(0.1)
    for sensor in (stereo, rgb):
        sensor.stop()
        sensor.close()
    recorder.pause()
    del recorder


def read_ply(path):
    """Vertices and colours of a binary PLY as export_to_ply writes it."""
    data = Path(path).read_bytes()
    header_end = data.index(b"end_header\n") + len(b"end_header\n")
    header = data[:header_end].decode()
    count = int(header.split("element vertex ")[1].split("\n")[0])
    row = np.dtype([("x", "<f4"), ("y", "<f4"), ("z", "<f4"),
                    ("r", "u1"), ("g", "u1"), ("b", "u1")])
    rows = np.frombuffer(data[header_end:header_end + count * row.itemsize], dtype=row)
    vertices = np.stack([rows["x"], rows["y"], rows["z"]], axis=1)
    colors = np.stack([rows["r"], rows["g"], rows["b"]], axis=1)
    return vertices, colors


def process(args):
    pipeline = rs.pipeline()
    config = rs.config()
    config.enable_device_from_file(args.bag, repeat_playback=False)
    profile = pipeline.start(config)
    profile.get_device().as_playback().set_real_time(False)
    to_color, to_depth = rs.align(rs.stream.color), rs.align(rs.stream.depth)
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        k = 0
        while True:
            ok, frames = pipeline.try_wait_for_frames(1000)
            if not ok:
                break
            depth, color = frames.get_depth_frame(), frames.get_color_frame()
            if not depth or not color:
                continue
            aligned_depth = to_color.process(frames).get_depth_frame()
            aligned_color = to_depth.process(frames).get_color_frame()
            pc = rs.pointcloud()
            pc.map_to(color)
            points = pc.calculate(depth)
            vertices = np.asanyarray(points.get_vertices()).view(np.float32).reshape(-1, 3)
            texcoords = np.asanyarray(points.get_texture_coordinates()).view(np.float32).reshape(-1, 2)
            ply = f"{tmp}/{k}.ply"
            points.export_to_ply(ply, color)
            ply_vertices, ply_colors = read_ply(ply)
            out[f"f{k}_numbers"] = np.array([depth.get_frame_number(), color.get_frame_number()])
            out[f"f{k}_depth_to_color"] = np.asanyarray(aligned_depth.get_data()).copy()
            out[f"f{k}_color_to_depth"] = np.asanyarray(aligned_color.get_data()).copy()
            out[f"f{k}_vertices"] = vertices.copy()
            out[f"f{k}_texcoords"] = texcoords.copy()
            out[f"f{k}_ply_vertices"] = ply_vertices
            out[f"f{k}_ply_colors"] = ply_colors
            out[f"f{k}_color"] = np.asanyarray(color.get_data()).copy()
            plain = rs.pointcloud().calculate(depth)
            out[f"f{k}_plain_vertices"] = np.asanyarray(plain.get_vertices()).view(np.float32).reshape(-1, 3).copy()
            k += 1
    pipeline.stop()
    if k == 0:
        sys.exit(f"{args.bag}: no frameset with depth and colour")
    np.savez(args.out, **out)


def project(args):
    out = {}
    rng = np.random.default_rng(7)
    for model in COEFFS:
        i = intrinsics(640, 480, model, 0.6)
        pixels = np.column_stack([rng.uniform(0, 640, 50), rng.uniform(0, 480, 50)]).astype(np.float32)
        depths = rng.uniform(0.2, 5.0, 50).astype(np.float32)
        points = np.array([rs.rs2_deproject_pixel_to_point(i, [float(p[0]), float(p[1])], float(d))
                           for p, d in zip(pixels, depths)], dtype=np.float32)
        projected = np.array([rs.rs2_project_point_to_pixel(i, [float(v) for v in p])
                              for p in points], dtype=np.float32)
        out[f"{model}_pixels"], out[f"{model}_depths"] = pixels, depths
        out[f"{model}_points"], out[f"{model}_projected"] = points, projected
        out[f"{model}_intrinsics"] = np.array([i.ppx, i.ppy, i.fx, i.fy, *i.coeffs], dtype=np.float32)
    np.savez(args.out, **out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    r = commands.add_parser("record")
    r.add_argument("out")
    r.add_argument("--depth-model", default="brown_conrady", choices=sorted(COEFFS))
    r.add_argument("--color-model", default="inverse_brown_conrady", choices=sorted(COEFFS))
    r.add_argument("--depth-size", default="64x48")
    r.add_argument("--color-size", default="96x54")
    r.add_argument("--frames", type=int, default=4)
    p = commands.add_parser("process")
    p.add_argument("bag")
    p.add_argument("out")
    j = commands.add_parser("project")
    j.add_argument("out")
    args = parser.parse_args()
    {"record": record, "process": process, "project": project}[args.command](args)


if __name__ == "__main__":
    main()
