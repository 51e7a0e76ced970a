#!/usr/bin/env python3
"""rsbag against the real librealsense 2.59 (pyrealsense2 2.59.1) on `.db3`
recordings, side by side on the same files; prints the median ratios.

Usage (from the repository root, after `cargo build --release --examples`,
`scripts/install-test-deps.sh` and `target/venv-librealsense-2.59/bin/pip
install numpy`):
    target/venv-librealsense-2.59/bin/python benches/compare_librealsense_db3.py \
        [--runs 5] [--frames 300] [--convert-mb 1024] [--dir DIR]

Playback: librealsense 2.59 records a compressed `.db3` (its default: PNG
for depth and color) through a software device, depth 848x480 Z16 + color
1280x720 RGB8, `--frames` frames each, camera-like content (the bag
benchmark's). It is then played, alternately and `--runs` times, by
  - librealsense 2.59: `load_device`, `set_real_time(False)`, every sensor
    started, a callback that reads every byte; from start to `stopped`;
  - rsbag: `rsbag play FILE --no-realtime` (every stream, a callback that
    reads every byte; it prints the time from start to stopped).
Conversion: rsbag's recorder writes a `--convert-mb` MB `.bag` of
camera-like 1280x720 RGB8 frames (examples/record_throughput); then
librealsense 2.59's own converter (`rs2_convert_bag_to_db3`, through
tests/interop/convert_bag_to_db3.py) and `rsbag convert --to db3` convert
it, alternately; both outputs are compressed `.db3` files.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_librealsense import RECORD, RSBAG, ROOT, librealsense_play, rsbag_play, write_bag  # noqa: E402

CONVERTER = os.path.join(ROOT, "tests", "interop", "convert_bag_to_db3.py")


def timed(args):
    os.sync()  # each run starts with no dirty pages of the one before
    start = time.perf_counter()
    subprocess.run(args, check=True, capture_output=True)
    return time.perf_counter() - start


def playback(work, frames, runs):
    path = os.path.join(work, "compressed.db3")
    print(f"writing a compressed .db3 with librealsense 2.59 ({frames} frames per stream)...", flush=True)
    write_bag(path, frames, True)
    rounds = []
    for _ in range(runs):
        t_lrs, n = librealsense_play(path)
        t_ours, m = rsbag_play(path)
        if n != m:
            print(f"  warning: librealsense delivered {n} bytes, rsbag {m}")
        rounds.append((t_lrs, t_ours))
    size = os.path.getsize(path)
    lrs = statistics.median(t for t, _ in rounds)
    ours = statistics.median(t for _, t in rounds)
    ratio = statistics.median(a / b for a, b in rounds)
    print(f"  playback of a {size / 1e6:.0f} MB compressed .db3 ({m / 1e9:.2f} GB of frames), {runs} rounds:")
    print(f"    librealsense 2.59 {lrs:.2f} s, rsbag {ours:.2f} s: rsbag {ratio:.2f}x as fast")


def conversion(work, mb, runs):
    bag = os.path.join(work, "big.bag")
    print(f"writing a {mb} MB .bag with rsbag's recorder...", flush=True)
    subprocess.run([RECORD, bag, "--mb", str(mb), "--rate", "0"], check=True, capture_output=True)
    rounds = []
    for k in range(runs):
        theirs, ours = os.path.join(work, f"theirs{k}.db3"), os.path.join(work, f"ours{k}.db3")
        # The converter's own time, without Python's start. It never syncs
        # its output (rsbag syncs its file once, before naming it).
        os.sync()
        out = subprocess.run([sys.executable, CONVERTER, bag, theirs], check=True, capture_output=True, text=True).stdout
        t_lrs = float(out.split("bytes in ")[1].split()[0])
        # Like for like: 2.59's converter writes uncompressed images.
        t_ours = timed([RSBAG, "convert", bag, "--to", "db3", "--uncompressed", "--out", ours])
        sizes = os.path.getsize(theirs), os.path.getsize(ours)
        os.remove(ours)
        # rsbag's default compresses as 2.59's recorder does (PNG).
        t_png = timed([RSBAG, "convert", bag, "--to", "db3", "--out", ours])
        png_size = os.path.getsize(ours)
        os.remove(theirs)
        os.remove(ours)
        rounds.append((t_lrs, t_ours, t_png))
    ratio = statistics.median(a / b for a, b, _ in rounds)
    print(f"  converting a {os.path.getsize(bag) / 1e9:.2f} GB .bag to .db3, {runs} rounds:")
    print(f"    librealsense 2.59 {statistics.median(a for a, _, _ in rounds):.2f} s ({sizes[0] / 1e6:.0f} MB), "
          f"rsbag --uncompressed {statistics.median(b for _, b, _ in rounds):.2f} s ({sizes[1] / 1e6:.0f} MB): "
          f"rsbag {ratio:.2f}x as fast")
    print(f"    rsbag compressed (PNG, its default) {statistics.median(c for _, _, c in rounds):.2f} s "
          f"({png_size / 1e6:.0f} MB)")
    os.remove(bag)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--frames", type=int, default=300)
    parser.add_argument("--convert-mb", type=int, default=1024)
    parser.add_argument("--dir", default=None)
    args = parser.parse_args()
    for binary in (RSBAG, RECORD):
        if not os.path.exists(binary):
            sys.exit(f"{binary} is missing: run `cargo build --release --examples` first")
    work = args.dir or tempfile.mkdtemp(prefix="rsbag-compare-db3-")
    os.makedirs(work, exist_ok=True)
    playback(work, args.frames, args.runs)
    conversion(work, args.convert_mb, args.runs)


if __name__ == "__main__":
    main()
