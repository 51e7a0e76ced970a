#!/usr/bin/env python3
"""The floor under any LZ4 `.bag` recorder of the full-rate camera that
benches/compare_camera_recorder.py records: the CPU C LZ4 (python's `lz4`,
default level) takes to compress the same bytes once, per recorded second.

Usage (from the crate root):
    python3 benches/lz4_floor.py [--seconds 3] [--repeat 5]

It writes the camera with librealsense 2.55 (tests/interop/
rs_camera_sources.py --camera d435-full, uncompressed: nearly all of the
file is frame bytes), reads the file into memory and compresses it
  - as one LZ4 frame of independent 1 MiB blocks with a content checksum,
    no block checksums, no content size: the only frame ROS's and
    librealsense's decoder (roslz4) reads, so what every `.bag` LZ4 chunk
    must be;
  - as bare 1 MiB LZ4 blocks, without the frame's checksum.
CPU is this process's time around each call, median of `--repeat`, divided
by the seconds the file holds.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import lz4.block
import lz4.frame

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCES = os.path.join(ROOT, "tests", "interop", "rs_camera_sources.py")
BLOCK = 1 << 20


def cpu_per_second(run, repeat, seconds):
    times = []
    for _ in range(repeat):
        start = time.process_time()
        run()
        times.append(time.process_time() - start)
    per = [t / seconds for t in times]
    return f"{statistics.median(per):.3f} (min {min(per):.3f}, max {max(per):.3f})"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="rsbag-lz4-floor-") as work:
        source = os.path.join(work, "d435-full.bag")
        subprocess.run([sys.executable, SOURCES, source, "--camera", "d435-full", "--seconds",
                        str(args.seconds), "--no-compress"], check=True, capture_output=True)
        with open(source, "rb") as f:
            data = f.read()
    view = memoryview(data)
    print(f"{len(data) / 1e6:.0f} MB for {args.seconds:g} s of the camera; "
          f"C LZ4 CPU s per recorded s, median of {args.repeat} (min, max):")
    frame = cpu_per_second(lambda: lz4.frame.compress(
        data, block_size=lz4.frame.BLOCKSIZE_MAX1MB, block_linked=False,
        content_checksum=True), args.repeat, args.seconds)
    print(f"  LZ4 frame as a .bag chunk holds it (roslz4's flags): {frame}")
    blocks = cpu_per_second(lambda: [lz4.block.compress(view[i:i + BLOCK], store_size=False)
                                     for i in range(0, len(data), BLOCK)],
                            args.repeat, args.seconds)
    print(f"  bare 1 MiB blocks, no checksum: {blocks}")


if __name__ == "__main__":
    main()
