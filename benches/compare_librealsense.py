#!/usr/bin/env python3
"""rsbag against the real librealsense 2.55 (pyrealsense2), side by side on
the same files and the same disk; prints the median ratios.

Usage (from the crate root, after `cargo build --release --examples`):
    python3 benches/compare_librealsense.py [--runs 5] [--frames 300] [--dir DIR]
    python3 benches/compare_librealsense.py --floor 1000 [--runs 5] [--dir DIR]

--floor FRAMES: the same uncompressed bag of FRAMES frames per stream (1000:
3.6 GB), as librealsense writes it and rewritten by `rsbag trim`, each
played by `rsbag play --no-realtime` against the read floor measured on the
same file in the same round (numpy reading every byte of `np.memmap` once),
with the page faults of each playback (`perf stat`, where perf is).

Playback: librealsense writes two bags through a software device (depth
848x480 Z16 + color 1280x720 RGB8, `--frames` frames each, camera-like
content: gradients with low-bit noise): one uncompressed, one LZ4
(`rs.recorder(path, dev, compress)`). Each is then played, alternately and
`--runs` times, by
  - librealsense: `load_device`, `set_real_time(False)`, every sensor
    started, a callback that reads every byte (numpy sum of 64-bit words);
    timed from start to the `stopped` status;
  - rsbag: `rsbag play FILE --no-realtime` (every stream, a callback that
    reads every byte; it prints the time from start to stopped);
  - `cat FILE > /dev/null` (from the page cache).
Recording: `dd if=/dev/zero bs=4M conv=fsync` of 1 GiB against
`examples/record_throughput` recording 1 GiB of camera-like 1280x720 RGB8
frames through the Recorder as fast as it writes them (uncompressed; the
file is fsynced when it is closed, like dd's), alternately; and the LZ4 recorder at
a D435's maximum data rate (1280x720 Z16 + 1920x1080 RGB8 at 30 fps,
~242 MB/s) and at 1.5x that, checking that no frame is dropped.
"""

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import numpy as np
import pyrealsense2 as rs

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RSBAG = os.path.join(ROOT, "target", "release", "rsbag")
RECORD = os.path.join(ROOT, "target", "release", "examples", "record_throughput")


def camera_like(size, seed):
    rng = np.random.default_rng(seed)
    base = (np.arange(size, dtype=np.uint32) // 64).astype(np.uint8)
    return (base + rng.integers(0, 16, size, dtype=np.uint8)).tobytes()


def write_bag(path, frames, compress):
    dev = rs.software_device()
    dev.register_info(rs.camera_info.name, "compare")
    streams = []
    for name, stream, fmt, w, h, bpp, uid in [
        ("Stereo Module", rs.stream.depth, rs.format.z16, 848, 480, 2, 1),
        ("RGB Camera", rs.stream.color, rs.format.rgb8, 1280, 720, 3, 2),
    ]:
        sensor = dev.add_sensor(name)
        intr = rs.intrinsics()
        intr.width, intr.height, intr.ppx, intr.ppy, intr.fx, intr.fy = w, h, w / 2, h / 2, w, w
        vs = rs.video_stream()
        vs.type, vs.index, vs.uid, vs.width, vs.height, vs.fps = stream, 0, uid, w, h, 30
        vs.bpp, vs.fmt, vs.intrinsics = bpp, fmt, intr
        profile = sensor.add_video_stream(vs, True)
        pixels = [camera_like(w * h * bpp, uid * 100 + k) for k in range(4)]
        streams.append((sensor, profile, w, bpp, pixels))
    recorder = rs.recorder(path, dev, compress)
    for sensor, profile, *_ in streams:
        sensor.open(profile)
        sensor.start(lambda f: None)
    for n in range(frames):
        for sensor, profile, w, bpp, pixels in streams:
            f = rs.software_video_frame()
            f.pixels = pixels[n % len(pixels)]
            f.stride, f.bpp = w * bpp, bpp
            f.timestamp, f.domain, f.frame_number = n * 33.3, rs.timestamp_domain.hardware_clock, n + 1
            f.profile = profile.as_video_stream_profile()
            sensor.on_video_frame(f)
        time.sleep(1 / 30)  # librealsense's recorder drops frames it is fed faster
    for sensor, *_ in streams:
        sensor.stop()
        sensor.close()
    recorder.pause()
    del recorder


def librealsense_play(path):
    ctx = rs.context()
    dev = ctx.load_device(path)
    playback = dev.as_playback()
    playback.set_real_time(False)
    lock = threading.Lock()
    total = [0, 0]  # bytes, checksum
    stopped, playing = threading.Event(), threading.Event()

    def on_status(status):
        if status == rs.playback_status.playing:
            playing.set()
        elif status == rs.playback_status.stopped and playing.is_set():
            stopped.set()

    def on_frame(frame):
        data = np.frombuffer(frame.get_data(), dtype=np.uint8)
        words = data[: len(data) // 8 * 8].view(np.uint64)
        s = int(words.sum())
        with lock:
            total[0] += len(data)
            total[1] ^= s

    playback.set_status_changed_callback(on_status)
    sensors = list(dev.query_sensors())
    start = time.perf_counter()
    for sensor in sensors:
        sensor.open(sensor.get_stream_profiles())
        sensor.start(on_frame)
    stopped.wait(600)
    elapsed = time.perf_counter() - start
    for sensor in sensors:
        try:
            sensor.stop()
            sensor.close()
        except RuntimeError:
            pass
    return elapsed, total[0]


def rsbag_play(path):
    out = subprocess.run([RSBAG, "play", path, "--no-realtime"], check=True, capture_output=True, text=True).stdout
    seconds = float(re.search(r"played in ([0-9.]+) s", out).group(1))
    total = int(re.search(r"^total\s+\d+\s+(\d+)", out, re.M).group(1))
    return seconds, total


def cat(path):
    start = time.perf_counter()
    with open(os.devnull, "wb") as null:
        subprocess.run(["cat", path], check=True, stdout=null)
    return time.perf_counter() - start


def dd(path, mib):
    start = time.perf_counter()
    subprocess.run(["dd", "if=/dev/zero", f"of={path}", "bs=4M", f"count={mib // 4}", "conv=fsync"],
                   check=True, capture_output=True)
    elapsed = time.perf_counter() - start
    os.remove(path)
    return mib * 1048576 / elapsed / 1e6


def record(path, mb, rate, lz4=False):
    args = [RECORD, path, "--mb", str(mb), "--rate", str(rate)] + (["--lz4"] if lz4 else [])
    out = json.loads(subprocess.run(args, check=True, capture_output=True, text=True).stdout)
    os.remove(path)
    return out


def median_ratio(pairs):
    return statistics.median(a / b for a, b in pairs)


def read_floor(path):
    """Seconds for numpy to read every byte of the mapped file once."""
    start = time.perf_counter()
    np.memmap(path, mode="r").max()
    return time.perf_counter() - start


def page_faults(cmd):
    """`cmd`'s standard output and its page faults (perf stat), or None
    for the faults where perf is missing."""
    if not shutil.which("perf"):
        return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout, None
    out = subprocess.run(["perf", "stat", "-x,", "-e", "page-faults"] + cmd, check=True,
                         capture_output=True, text=True)
    line = [x for x in out.stderr.splitlines() if "page-faults" in x]
    return out.stdout, int(line[-1].split(",")[0]) if line else None


def against_the_floor(args, work):
    """Uncompressed playback of a file as librealsense wrote it, and of the
    same frames rewritten by `rsbag trim`, each against the read floor
    measured on the same file in the same round (the files alternate)."""
    lrs = os.path.join(work, f"librealsense-{args.floor}.bag")
    if not os.path.exists(lrs):
        print(f"writing {args.floor} frames per stream with librealsense...", flush=True)
        write_bag(lrs, args.floor, False)
    trimmed = os.path.join(work, f"trimmed-{args.floor}.bag")
    if not os.path.exists(trimmed):
        subprocess.run([RSBAG, "trim", lrs, "--out", trimmed], check=True, capture_output=True)
    files = {"written by librealsense": lrs, "rewritten by rsbag trim": trimmed}
    rows = {name: ([], [], []) for name in files}
    for r in range(args.runs):
        for name in (list(files) if r % 2 == 0 else list(reversed(files))):
            floor = read_floor(files[name])
            out, faults = page_faults([RSBAG, "play", files[name], "--no-realtime"])
            played = float(re.search(r"played in ([0-9.]+) s", out).group(1))
            rows[name][0].append(played)
            rows[name][1].append(floor)
            rows[name][2].append(faults)
    for name, (played, floors, faults) in rows.items():
        ratios = [p / f for p, f in zip(played, floors)]
        print(f"{name} ({os.path.getsize(files[name]) / 1e9:.2f} GB): rsbag play "
              f"{' '.join(f'{x:.3f}' for x in played)} s, floor {' '.join(f'{x:.3f}' for x in floors)} s; "
              f"play / floor median {statistics.median(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f}); "
              f"page faults {faults}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--frames", type=int, default=300)
    parser.add_argument("--dir", default=None, help="where to put the bags (default: a temporary directory)")
    parser.add_argument("--floor", type=int, default=0, metavar="FRAMES",
                        help="instead: uncompressed playback of a librealsense-written recording of "
                             "FRAMES frames per stream, and of its `rsbag trim` copy, against the "
                             "read floor (numpy over the mapped file); keep the files with --dir")
    args = parser.parse_args()
    if args.floor:
        work = args.dir or tempfile.mkdtemp(prefix="rsbag-compare-")
        os.makedirs(work, exist_ok=True)
        against_the_floor(args, work)
        return
    for binary in (RSBAG, RECORD):
        if not os.path.exists(binary):
            sys.exit(f"{binary} is missing: run `cargo build --release --examples` first")
    work = args.dir or tempfile.mkdtemp(prefix="rsbag-compare-")
    os.makedirs(work, exist_ok=True)
    try:
        for compress in (False, True):
            name = "lz4" if compress else "uncompressed"
            path = os.path.join(work, f"{name}.bag")
            print(f"writing the {name} bag with librealsense ({args.frames} frames per stream)...", flush=True)
            write_bag(path, args.frames, compress)
            size = os.path.getsize(path)
            cat(path)  # into the page cache
            lrs, ours, cats = [], [], []
            for _ in range(args.runs):
                t, n = librealsense_play(path)
                lrs.append((n, t))
                t, m = rsbag_play(path)
                ours.append((m, t))
                cats.append(cat(path))
            if n != m:
                print(f"  warning: librealsense delivered {n} bytes, rsbag {m}")
            lrs_speed = statistics.median(b / t for b, t in lrs)
            our_speed = statistics.median(b / t for b, t in ours)
            cat_speed = statistics.median(size / t for t in cats)
            # The machine's speed drifts over minutes: each ratio is taken
            # within one round (runs seconds apart), and the median of those
            # is the figure.
            vs_lrs = statistics.median((b1 / t1) / (b0 / t0) for (b0, t0), (b1, t1) in zip(lrs, ours))
            vs_cat = statistics.median((b / t) / (size / c) for (b, t), c in zip(ours, cats))
            print(f"  {name}: {size / 1e9:.2f} GB file, {m / 1e9:.2f} GB of frames, {args.runs} rounds")
            print(f"    librealsense 2.55 {lrs_speed / 1e9:6.2f} GB/s (median)")
            print(f"    rsbag             {our_speed / 1e9:6.2f} GB/s (median)   x{vs_lrs:.1f} librealsense (median ratio)")
            print(f"    cat               {cat_speed / 1e9:6.2f} GB/s (median)   rsbag = {vs_cat:.2f} x cat (median ratio)")
            os.remove(path)

        print("recording, uncompressed, 1 GiB, against dd (both fsync)...", flush=True)
        rows = []
        for _ in range(args.runs):
            dd_speed = dd(os.path.join(work, "dd.bin"), 1024)
            rec = record(os.path.join(work, "rec.bag"), 1073, 0)
            rows.append((dd_speed, rec))
        dd_median = statistics.median(r[0] for r in rows)
        rec_median = statistics.median(r[1]["mb_per_s"] for r in rows)
        vs_dd = statistics.median(r[1]["mb_per_s"] / r[0] for r in rows)
        drops = sum(r[1]["dropped"] for r in rows)
        print(f"    dd                {dd_median:7.1f} MB/s (median)")
        print(f"    rsbag recorder    {rec_median:7.1f} MB/s (median)   = {vs_dd:.2f} x dd (median ratio), {drops} frames dropped")

        d435 = (1280 * 720 * 2 + 1920 * 1080 * 3) * 30 / 1e6
        for factor in (1.0, 1.5):
            rec = record(os.path.join(work, "lz4.bag"), int(d435 * 10), d435 * factor, lz4=True)
            print(f"    LZ4 recorder at {factor:.1f} x D435 max ({d435 * factor:.0f} MB/s, 10 s of data):"
                  f" {rec['mb_per_s']:.0f} MB/s, {rec['dropped']} dropped")
    finally:
        if args.dir is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
