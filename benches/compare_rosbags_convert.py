#!/usr/bin/env python3
"""ROS1 camera bag → ROS 2 bag: `rsbag convert --to ros2` against
`rosbags-convert` (the rosbags library's converter) on the same bag, in
the same run.

Usage (from the crate root, after `cargo build --release` and
`bash scripts/install-test-deps.sh`):
    python3 benches/compare_rosbags_convert.py [--mb 1024] [--runs 2]
        [--dir target/bench-ros2]

The bag is a RealSense ROS1 wrapper recording as a camera driver writes
it, made with rosbags' ROS1 writer: /camera/color/image_raw (rgb8
848x480) and /camera/depth/image_rect_raw (16UC1 848x480) with a
camera_info each per frame, /camera/gyro/sample and /camera/accel/sample
(sensor_msgs/Imu) at 200 Hz; LZ4 chunks (or none: --compression), about
--mb megabytes of messages. Standard
messages only, so rosbags-convert converts every one.

Both tools write an sqlite3 bag directory (their default); each run
starts from the page cache (the input is read once first) with nothing
waiting to be written back (`sync` first), and the two tools alternate;
the median of the per-round ratios counts, with their spread (the
lowest and highest). Before each run it waits --settle seconds (15):
on this kind of VM memory that was freed (the previous output removed)
is handed back to the host within seconds, and writing into it again
costs about 10x writing into memory freed a moment ago; waiting puts
every run in the same state, the one after any idle moment (without it
rounds differed by up to 5x). Neither time includes writing the output to
the disk (rsbag does not sync a conversion; rosbags-convert commits with
SQLite's default synchronous mode, so its time includes flushing what
the kernel had not yet written back). Both outputs are checked to hold the same images (count
and bytes of the first and last). Prints the times, the per-round
ratios and their median and spread, without and with the output synced,
and two floors per round: writing as many bytes as rsbag wrote into a new
file through the page cache (not synced), from the same state, which
shows how fast this round's page cache was; and straight to the disk
(O_DIRECT), the least time in which any converter can put this output on
the disk: rosbags-convert's synced time over it bounds the ratio any
converter could reach.
"""

import argparse
import hashlib
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
from rosbags.rosbag1 import Writer
from rosbags.rosbag2 import Reader
from rosbags.typesys import Stores, get_typestore

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from write_floor import write_floor  # noqa: E402

W, H = 848, 480


def scene_images():
    """Eight colour and depth images like a camera's: smooth surfaces with
    sensor noise (LZ4 halves them, as it does real frames), cycled
    (making 1 GB of them one by one would dominate the run)."""
    rng = np.random.default_rng(7)
    y, x = np.mgrid[0:H, 0:W]
    colors, depths = [], []
    for k in range(8):
        depth = 800 + 3 * x + 2 * y + 40 * np.sin((x + 13 * k) / 37.0) + rng.normal(0, 2, (H, W))
        depth[(x // 97 + y // 83 + k) % 5 == 0] = 0  # holes, as stereo depth has
        depths.append(np.clip(depth, 0, 65535).astype("<u2").reshape(-1).view(np.uint8))
        base = np.stack([x * 255 // W, y * 255 // H, np.full_like(x, 40 * k)], axis=-1)
        noisy = base + rng.integers(-3, 4, base.shape)
        colors.append(np.clip(noisy, 0, 255).astype(np.uint8).reshape(-1))
    return colors, depths


def make_bag(path, megabytes, compression):
    ts = get_typestore(Stores.ROS1_NOETIC)
    T = ts.types
    Image, Info, Imu = T["sensor_msgs/msg/Image"], T["sensor_msgs/msg/CameraInfo"], T["sensor_msgs/msg/Imu"]
    Header, Time = T["std_msgs/msg/Header"], T["builtin_interfaces/msg/Time"]
    V3, Q = T["geometry_msgs/msg/Vector3"], T["geometry_msgs/msg/Quaternion"]
    roi = T["sensor_msgs/msg/RegionOfInterest"](x_offset=0, y_offset=0, height=0, width=0, do_rectify=False)
    pair = W * H * 5
    frames = max(1, megabytes * 1_000_000 // pair)
    colors, depths = scene_images()
    base = 1_700_000_000_000_000_000
    w = Writer(path)
    if compression == "lz4":
        w.set_compression(Writer.CompressionFormat.LZ4)
    with w:
        c = {name: w.add_connection(name, t, typestore=ts) for name, t in [
            ("/camera/color/image_raw", "sensor_msgs/msg/Image"),
            ("/camera/color/camera_info", "sensor_msgs/msg/CameraInfo"),
            ("/camera/depth/image_rect_raw", "sensor_msgs/msg/Image"),
            ("/camera/depth/camera_info", "sensor_msgs/msg/CameraInfo"),
            ("/camera/gyro/sample", "sensor_msgs/msg/Imu"),
            ("/camera/accel/sample", "sensor_msgs/msg/Imu")]}
        for i in range(frames):
            t = base + i * 33_333_333

            def header(frame_id, stamp=t):
                return Header(seq=i, stamp=Time(sec=stamp // 10**9, nanosec=stamp % 10**9), frame_id=frame_id)

            for name, enc, bpp, data in [("color", "rgb8", 3, colors[i % 8]), ("depth", "16UC1", 2, depths[i % 8])]:
                frame_id = f"camera_{name}_optical_frame"
                img = Image(header=header(frame_id), height=H, width=W, encoding=enc, is_bigendian=0,
                            step=W * bpp, data=data)
                w.write(c[f"/camera/{name}/{'image_raw' if name == 'color' else 'image_rect_raw'}"], t,
                        ts.serialize_ros1(img, "sensor_msgs/msg/Image"))
                info = Info(header=header(frame_id), height=H, width=W, distortion_model="plumb_bob",
                            D=np.zeros(5), K=np.array([600.0, 0, 424, 0, 600, 240, 0, 0, 1]), R=np.eye(3).flatten(),
                            P=np.array([600.0, 0, 424, 0, 0, 600, 240, 0, 0, 0, 1, 0]), binning_x=0, binning_y=0, roi=roi)
                w.write(c[f"/camera/{name}/camera_info"], t, ts.serialize_ros1(info, "sensor_msgs/msg/CameraInfo"))
            for k in range(7):
                s = t + k * 5_000_000
                for name in ("gyro", "accel"):
                    z = np.zeros(9)
                    imu = Imu(header=header(f"camera_{name}_optical_frame", s), orientation=Q(x=0.0, y=0.0, z=0.0, w=1.0),
                              orientation_covariance=z, angular_velocity=V3(x=0.01, y=0.02, z=0.03 * k),
                              angular_velocity_covariance=z, linear_acceleration=V3(x=0.1, y=9.8, z=0.2),
                              linear_acceleration_covariance=z)
                    w.write(c[f"/camera/{name}/sample"], s, ts.serialize_ros1(imu, "sensor_msgs/msg/Imu"))
    return frames


def images(bag_dir):
    """Count, and hashes of the first and last image, per image topic."""
    ts = get_typestore(Stores.ROS2_HUMBLE)
    out = {}
    with Reader(bag_dir) as r:
        conns = [c for c in r.connections if c.msgtype == "sensor_msgs/msg/Image"]
        for conn, _, raw in r.messages(connections=conns):
            msg = ts.deserialize_cdr(raw, conn.msgtype)
            folder = "color" if "color" in conn.topic else "depth"
            n, first, _ = out.get(folder, (0, None, None))
            h = hashlib.sha256(bytes(msg.data)).hexdigest()
            out[folder] = (n + 1, first or h, h)
    return out


def read_through(path):
    """Read the file into the page cache a megabyte at a time (reading it
    whole would take and free a gigabyte of this process's memory, which
    this kind of VM then charges to the next run's page cache)."""
    with open(path, "rb", buffering=0) as f:
        buf = bytearray(1 << 20)
        while f.readinto(buf):
            pass


def timed(cmd):
    """Seconds to run `cmd`, and to run it and write its output to the
    disk (`sync`)."""
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    done = time.perf_counter()
    os.sync()
    return done - start, time.perf_counter() - start


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mb", type=int, default=1024)
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--settle", type=float, default=15,
                    help="seconds to wait before each run, for the memory freed by the last "
                         "one to be taken back by the host (0: no wait)")
    ap.add_argument("--dir", default="target/bench-ros2")
    ap.add_argument("--rsbag", default="target/release/rsbag")
    ap.add_argument("--compression", choices=["none", "lz4"], default="lz4",
                    help="chunk compression of the bag (lz4: as `rosbag record --lz4` and "
                         "librealsense write)")
    args = ap.parse_args()
    work = Path(args.dir)
    work.mkdir(parents=True, exist_ok=True)
    bag = work / f"camera-{args.compression}.bag"
    if not bag.exists():
        frames = make_bag(bag, args.mb, args.compression)
        print(f"made {bag}: {frames} colour + depth frames", file=sys.stderr)
    size = bag.stat().st_size
    converter = shutil.which("rosbags-convert") or str(Path(sys.executable).parent / "rosbags-convert")
    times = {"rosbags-convert": [], "rsbag": []}
    synced = {"rosbags-convert": [], "rsbag": []}
    floor, disk_floor = [], []
    for run in range(args.runs):
        order = ["rosbags-convert", "rsbag"] if run % 2 == 0 else ["rsbag", "rosbags-convert"]
        for tool in order + ["floor", "disk floor"]:
            out = work / f"out-{tool}"
            shutil.rmtree(out, ignore_errors=True)
            read_through(bag)  # into the page cache, for both alike
            # Neither run pays for writing back what an earlier one wrote.
            os.sync()
            # Every run starts with the memory it will write into in the
            # same state. This VM's balloon reports freed memory to the
            # host, which takes it back: the same 1 GB write took 0.65 s
            # right after its memory was freed and 6.2-6.7 s 15 s later
            # (the host supplying every page again), so rounds differed
            # by up to 5x depending only on when the previous output was
            # removed. After --settle seconds every run writes into memory
            # the host has taken back, as after any idle moment.
            time.sleep(args.settle)
            if tool in ("floor", "disk floor"):
                written = sum(f.stat().st_size for f in (work / "out-rsbag").rglob("*") if f.is_file())
                direct = tool == "disk floor"
                (disk_floor if direct else floor).append(write_floor(work / "floor.bin", written, direct))
                continue
            if tool == "rsbag":
                cmd = [args.rsbag, "convert", str(bag), "--to", "ros2", "--out", str(out)]
            else:
                cmd = [converter, "--src", str(bag), "--dst", str(out)]
            t, t_synced = timed(cmd)
            times[tool].append(t)
            synced[tool].append(t_synced)
    theirs, ours = images(work / "out-rosbags-convert"), images(work / "out-rsbag")
    if theirs != ours:
        sys.exit(f"the outputs differ: rosbags-convert {theirs}, rsbag {ours}")
    for tool, t in times.items():
        print(f"{tool:16} {' '.join(f'{x:.2f}' for x in t)} s; with sync "
              f"{' '.join(f'{x:.2f}' for x in synced[tool])} s")
    print(f"{'write floor':16} {' '.join(f'{x:.2f}' for x in floor)} s (rsbag's output's bytes "
          f"written to a file, not synced); rsbag / floor per round "
          f"{fmt([r / f for r, f in zip(times['rsbag'], floor)])}")
    over_disk = [r / f for r, f in zip(synced['rsbag'], disk_floor)]
    print(f"{'disk floor':16} {' '.join(f'{x:.2f}' for x in disk_floor)} s (the same bytes written "
          f"straight to the disk, O_DIRECT); rsbag with sync / disk floor per round "
          f"{fmt(over_disk)}, {describe(over_disk)}; rosbags-convert with sync / "
          f"disk floor, the most any converter could reach, "
          f"{describe([r / f for r, f in zip(synced['rosbags-convert'], disk_floor)])}")
    ratios = per_round(times)
    ratios_synced = per_round(synced)
    print(f"{size / 1e6:.0f} MB {args.compression} bag, {sum(v[0] for v in ours.values())} images, "
          f"{args.runs} rounds: rosbags-convert / rsbag per round {fmt(ratios)}; "
          f"{describe(ratios)} (output not synced); with the output synced {fmt(ratios_synced)}; "
          f"{describe(ratios_synced)}")


def per_round(times):
    """rosbags-convert's time over rsbag's, round by round."""
    return [a / b for a, b in zip(times["rosbags-convert"], times["rsbag"])]


def fmt(values):
    return " ".join(f"{v:.1f}" for v in values)


def describe(ratios):
    """The median of per-round ratios with their spread (never a best-of:
    the machine is shared and its speed drifts)."""
    return f"median {statistics.median(ratios):.2f}x (spread {min(ratios):.2f}-{max(ratios):.2f})"

if __name__ == "__main__":
    main()
