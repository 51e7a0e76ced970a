#!/usr/bin/env python3
"""What the real librealsense (pyrealsense2 2.55.1) makes of a depth
recording with its post-processing filters; the reference rsbag's filters
are compared against.

Usage:
    python3 rs_filters.py record OUT.bag [--size WxH] [--frames N]
    python3 rs_filters.py process BAG OUT.npz [--filter SPEC ...]
    python3 rs_filters.py process-each BAG OUTDIR CHAIN [CHAIN ...]
    python3 rs_filters.py compare REF.npz GOT.npz
    python3 rs_filters.py compare-dir REF.npz DIR [REF.npz DIR ...]

record: a software_device with a "Stereo Module" (Depth Z16 at 30 fps,
Depth Units 0.001, Stereo Baseline 49.9 mm; Brown-Conrady intrinsics off
centre), recorded with rs.recorder. Each frame is a slanted, wavy wall
(0.9-5.5 m, beyond the threshold's default 4 m at one side) with noise of
a few depth units, a box at 0.7 m moving 3 pixels a frame (edges), a few
near-zero values (1 and 2), 65535s, 6 % random holes and a hole block that
flickers (on every third frame): noise, holes and motion for every filter
and for the temporal filter's persistence. Frame n has number n and
timestamp 1000 + 33.3 n ms.

process: plays BAG (real time off) through a chain of librealsense filters
built from SPECs (`NAME[:key=value,...]`, the names and keys of
`rsbag convert --filter`; options set in the order given, after the
defaults rs.<filter>() sets), processing each depth frame once in recorded
order in the sensor's callback, and stores per frame k: `f<k>_number`,
`f<k>_data` (the output's bytes), `f<k>_format` (0 Z16, 1 DISPARITY32,
2 RGB8: the colorizer's),
`f<k>_size` (width, height) and `f<k>_intrinsics` (the output profile's
width, height, ppx, ppy, fx, fy).

process-each: `process` of each CHAIN (its SPECs separated by spaces) into
OUTDIR/ref<k>.npz, in one process.

compare: two such files equal frame for frame (numbers, bytes, format,
size, intrinsics). compare-dir: DIR (`rsbag convert --to raw`) holds
`Depth_<number>.raw` equal to each reference frame's bytes, and its
frames.csv the same format and size.
"""

import argparse
import sys
import threading
import time

import numpy as np
import pyrealsense2 as rs

OPTIONS = {
    "magnitude": rs.option.filter_magnitude,
    "alpha": rs.option.filter_smooth_alpha,
    "delta": rs.option.filter_smooth_delta,
    "holes-fill": rs.option.holes_fill,
    "persistence": rs.option.holes_fill,
    "mode": rs.option.holes_fill,
    "min": rs.option.min_distance,
    "max": rs.option.max_distance,
    "color-scheme": rs.option.color_scheme,
    "histogram-equalization": rs.option.histogram_equalization_enabled,
    "visual-preset": rs.option.visual_preset,
}

FORMATS = {rs.format.z16: 0, rs.format.disparity32: 1, rs.format.rgb8: 2}
FORMAT_NAMES = ["Z16", "DISPARITY32", "RGB8"]


def make_filter(spec):
    name, _, rest = spec.partition(":")
    block = {
        "decimation": rs.decimation_filter,
        "threshold": rs.threshold_filter,
        "depth-to-disparity": lambda: rs.disparity_transform(True),
        "disparity-to-depth": lambda: rs.disparity_transform(False),
        "spatial": rs.spatial_filter,
        "temporal": rs.temporal_filter,
        "hole-filling": rs.hole_filling_filter,
        "colorizer": rs.colorizer,
    }[name]()
    for item in filter(None, rest.split(",")):
        key, value = item.split("=")
        block.set_option(OPTIONS[key], float(value))
    return block


def depth_image(width, height, n, rng):
    x = np.arange(width)[None, :]
    y = np.arange(height)[:, None]
    wall = 900 + 4600 * x / width + 120 * np.sin(x / 5.0 + n / 3.0) * np.cos(y / 7.0)
    wall = wall + rng.integers(-4, 5, (height, width))
    depth = np.broadcast_to(wall, (height, width)).astype(np.uint16).copy()
    bx, by = (3 * n) % width, height // 3
    depth[by:by + height // 3, bx:bx + width // 5] = 700 + rng.integers(0, 6, (height // 3, 1)).astype(np.uint16)
    depth[rng.random((height, width)) < 0.01] = 1
    depth[rng.random((height, width)) < 0.01] = 2
    depth[rng.random((height, width)) < 0.005] = 65535
    depth[rng.random((height, width)) < 0.06] = 0
    if n % 3 == 0:
        depth[height // 2:height // 2 + 6, width // 2:width // 2 + 9] = 0
    return depth


def record(args):
    width, height = map(int, args.size.split("x"))
    dev = rs.software_device()
    dev.register_info(rs.camera_info.name, "rsbag filters reference")
    dev.register_info(rs.camera_info.serial_number, "29")
    stereo = dev.add_sensor("Stereo Module")
    stereo.add_read_only_option(rs.option.depth_units, 0.001)
    stereo.add_read_only_option(rs.option.stereo_baseline, 49.9)
    stream = rs.video_stream()
    stream.type, stream.index, stream.uid = rs.stream.depth, 0, 1
    stream.width, stream.height, stream.fps = width, height, 30
    stream.bpp, stream.fmt = 2, rs.format.z16
    i = rs.intrinsics()
    i.width, i.height = width, height
    i.ppx, i.ppy = width / 2 + 1.37, height / 2 - 0.81
    i.fx, i.fy = width * 0.93, width * 0.93 * 1.004
    i.model = rs.distortion.brown_conrady
    i.coeffs = [0.08, -0.11, 0.0012, -0.0009, 0.03]
    stream.intrinsics = i
    profile = stereo.add_video_stream(stream, True)
    recorder = rs.recorder(args.out, dev)
    stereo.open(profile)
    stereo.start(lambda frame: None)
    rng = np.random.default_rng(29)
    for n in range(1, args.frames + 1):
        f = rs.software_video_frame()
        f.pixels, f.stride, f.bpp = depth_image(width, height, n, rng).tobytes(), width * 2, 2
        f.timestamp, f.domain, f.frame_number = 1000.0 + 33.3 * n, rs.timestamp_domain.hardware_clock, n
        f.profile = profile.as_video_stream_profile()
        stereo.on_video_frame(f)
        time.sleep(0.01)
    time.sleep(0.1)
    stereo.stop()
    stereo.close()
    recorder.pause()
    del recorder


def filtered(bag, specs):
    """Every depth frame of `bag` through the chain of filters `specs`."""
    chain = [make_filter(spec) for spec in specs]
    ctx = rs.context()
    device = ctx.load_device(bag)
    playback = device.as_playback()
    playback.set_real_time(False)
    sensor = next(s for s in device.query_sensors()
                  if any(p.stream_type() == rs.stream.depth for p in s.get_stream_profiles()))
    profile = next(p for p in sensor.get_stream_profiles() if p.stream_type() == rs.stream.depth)
    results, seen, failures = [], set(), []
    done = threading.Event()

    def on_frame(frame):
        try:
            number = frame.get_frame_number()
            if number in seen:  # a frame handed over twice is filtered once
                return
            seen.add(number)
            for block in chain:
                frame = block.process(frame)
            vp = frame.get_profile().as_video_stream_profile()
            intr = vp.get_intrinsics()
            results.append((
                number,
                np.frombuffer(bytes(frame.get_data()), dtype=np.uint8).copy(),
                FORMATS[vp.format()],
                (frame.as_video_frame().get_width(), frame.as_video_frame().get_height()),
                np.array([intr.width, intr.height, intr.ppx, intr.ppy, intr.fx, intr.fy], dtype=np.float64),
            ))
        except Exception as e:  # noqa: BLE001 - reported after playback
            failures.append(repr(e))

    playback.set_status_changed_callback(
        lambda status: done.set() if status == rs.playback_status.stopped else None)
    sensor.open(profile)
    sensor.start(on_frame)
    done.wait(120)
    time.sleep(0.2)
    sensor.stop()
    sensor.close()
    if failures:
        sys.exit(f"librealsense failed: {failures[0]}")
    if not results:
        sys.exit(f"{bag}: no depth frame played")
    return results


def save(results, path):
    out = {}
    for k, (number, data, fmt, size, intr) in enumerate(results):
        out[f"f{k}_number"] = np.array(number)
        out[f"f{k}_data"] = data
        out[f"f{k}_format"] = np.array(fmt)
        out[f"f{k}_size"] = np.array(size)
        out[f"f{k}_intrinsics"] = intr
    np.savez(path, **out)
    print(f"{len(results)} frames")


def process(args):
    save(filtered(args.bag, args.filter), args.out)


def process_each(args):
    """Each chain in one process: librealsense starts once, not per chain."""
    for k, chain in enumerate(args.chains):
        save(filtered(args.bag, chain.split()), f"{args.out_dir}/ref{k}.npz")


def frames(npz):
    k = 0
    while f"f{k}_number" in npz:
        yield {key: npz[f"f{k}_{key}"] for key in ("number", "data", "format", "size", "intrinsics")}
        k += 1


def compare(args):
    ref, got = list(frames(np.load(args.ref))), list(frames(np.load(args.got)))
    if len(ref) != len(got):
        sys.exit(f"{len(got)} frames, librealsense made {len(ref)}")
    for r, g in zip(ref, got):
        for key in ("number", "format", "size", "intrinsics"):
            if not np.array_equal(r[key], g[key]):
                sys.exit(f"frame #{r['number']}: {key} {g[key]} differs from librealsense's {r[key]}")
        if not np.array_equal(r["data"], g["data"]):
            first = int(np.flatnonzero(r["data"] != g["data"])[0]) if len(r["data"]) == len(g["data"]) else -1
            sys.exit(f"frame #{r['number']}: bytes differ from librealsense's (first at byte {first})")
    print(f"{len(ref)} frames equal")


def compare_dir(args):
    if len(args.pairs) % 2:
        sys.exit("compare-dir takes REF.npz DIR pairs")
    for ref, out_dir in zip(args.pairs[::2], args.pairs[1::2]):
        compare_one_dir(ref, out_dir)


def compare_one_dir(ref_path, out_dir):
    ref = list(frames(np.load(ref_path)))
    index = {}
    with open(f"{out_dir}/frames.csv") as f:
        header = f.readline().strip().split(",")
        for line in f:
            row = dict(zip(header, line.strip().split(",")))
            index[row["file"]] = row
    for r in ref:
        name = f"Depth_{int(r['number']):06d}.raw"
        if name not in index:
            sys.exit(f"{ref_path}: {name} missing from {out_dir}/frames.csv")
        row = index[name]
        want_format = FORMAT_NAMES[int(r["format"])]
        size = (int(row["width"]), int(row["height"]))
        if row["format"] != want_format or size != tuple(int(v) for v in r["size"]):
            sys.exit(f"{ref_path}: {name}: {row['format']} {size}, librealsense made {want_format} {tuple(r['size'])}")
        data = np.fromfile(f"{out_dir}/{name}", dtype=np.uint8)
        if not np.array_equal(data, r["data"]):
            first = int(np.flatnonzero(data != r["data"])[0]) if len(data) == len(r["data"]) else -1
            sys.exit(f"{ref_path}: {name}: bytes differ from librealsense's (first at byte {first} of {len(data)})")
    if len(index) != len(ref):
        sys.exit(f"{ref_path}: {len(index)} files, librealsense made {len(ref)} frames")
    print(f"{len(ref)} frames equal")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    r = commands.add_parser("record")
    r.add_argument("out")
    r.add_argument("--size", default="101x77")
    r.add_argument("--frames", type=int, default=30)
    p = commands.add_parser("process")
    p.add_argument("bag")
    p.add_argument("out")
    p.add_argument("--filter", action="append", default=[])
    e = commands.add_parser("process-each")
    e.add_argument("bag")
    e.add_argument("out_dir")
    e.add_argument("chains", nargs="+", metavar="CHAIN")
    c = commands.add_parser("compare")
    c.add_argument("ref")
    c.add_argument("got")
    d = commands.add_parser("compare-dir")
    d.add_argument("pairs", nargs="+", metavar="REF.npz DIR")
    args = parser.parse_args()
    {"record": record, "process": process, "process-each": process_each, "compare": compare,
     "compare-dir": compare_dir}[args.command](args)


if __name__ == "__main__":
    main()
