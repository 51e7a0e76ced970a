#!/usr/bin/env python3
"""LZ4 playback against its floor: decoding every chunk once with its
checksum verified, on both cores.

Usage (from the crate root, after `cargo build --release -p rsbag-cli` and
`bash scripts/test-python.sh`, which builds the Python package):
    python3 benches/lz4_playback.py [--frames 300] [--runs 5] [--dir DIR]

librealsense 2.55 writes an LZ4 `.bag` through a software device (depth
848x480 Z16 + colour 1280x720 RGB8, `--frames` frames each, camera-like
content: gradients with low-bit noise, as benches/compare_librealsense.py
writes them). Each round then measures, on that file and in an order that
alternates from round to round:
  - the floor: every LZ4 chunk decoded once by C LZ4 (python-lz4's
    `lz4.frame.decompress`, which verifies each frame's xxHash32 content
    checksum), the chunks shared between two threads (the call releases
    the GIL), so both cores decode; nothing reads the decoded bytes again;
  - `rsbag play FILE --no-realtime`: every stream, a callback that reads
    every byte of every frame (its own figure, "played in");
  - Python: `rsbag.open(FILE).frames()`, every frame's `as_array()` summed
    as 64-bit words (a consumer that reads every byte), in the Python
    package the tests build (target/venv-python).
Printed: each round's seconds and CPU seconds, and for each reader the
median of the per-round ratios reader / floor with the lowest and highest,
of time and of CPU time (on a machine shared with other work, time
measures the scheduler as much as the reader; CPU time does not). The issue's
targets: playback at least 0.9x the floor's speed (a ratio of at most
1.11), Python within 1.2x.
"""

import argparse
import os
import re
import statistics
import struct
import subprocess
import sys
import tempfile
import resource
import time
from concurrent.futures import ThreadPoolExecutor

import lz4.frame

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_librealsense import RSBAG, write_bag  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV_PYTHON = os.path.join(ROOT, "target", "venv-python", "bin", "python")

PYTHON_EVERY_FRAME = r'''
import sys, time, numpy as np, rsbag
start = time.perf_counter(); total = 0
for f in rsbag.open(sys.argv[1]).frames():
    a = np.asarray(f.as_array()).reshape(-1).view(np.uint8)
    total += len(a); a[: len(a) // 8 * 8].view(np.uint64).sum()
print(time.perf_counter() - start, total)
'''


def header_fields(header):
    """A bag record header's fields, as bytes to bytes."""
    fields, i = {}, 0
    while i < len(header):
        n = struct.unpack_from("<I", header, i)[0]
        key, value = header[i + 4:i + 4 + n].split(b"=", 1)
        fields[key] = value
        i += 4 + n
    return fields


def lz4_chunks(path):
    """The data of every LZ4 chunk record of a `.bag`, read into memory."""
    with open(path, "rb") as f:
        data = f.read()
    chunks, pos = [], 13
    while pos < len(data):
        header_len = struct.unpack_from("<I", data, pos)[0]
        header = header_fields(data[pos + 4:pos + 4 + header_len])
        data_len = struct.unpack_from("<I", data, pos + 4 + header_len)[0]
        if header[b"op"] == b"\x05" and header.get(b"compression") == b"lz4":
            chunks.append(data[pos + 8 + header_len:pos + 8 + header_len + data_len])
        pos += 8 + header_len + data_len
    if not chunks:
        sys.exit(f"{path}: no LZ4 chunks")
    return chunks


def cpu_seconds(who):
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def floor(chunks, pool):
    """Seconds and CPU seconds to decode (and verify) every chunk once on
    both cores, and the bytes decoded."""
    cpu, start = cpu_seconds(resource.RUSAGE_SELF), time.perf_counter()
    size = sum(pool.map(lambda c: len(lz4.frame.decompress(c)), chunks, chunksize=8))
    return time.perf_counter() - start, cpu_seconds(resource.RUSAGE_SELF) - cpu, size


def child(args):
    """A command's standard output and the CPU seconds it took."""
    cpu = cpu_seconds(resource.RUSAGE_CHILDREN)
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    return out, cpu_seconds(resource.RUSAGE_CHILDREN) - cpu


def rsbag_play(path):
    out, cpu = child([RSBAG, "play", path, "--no-realtime"])
    return float(re.search(r"played in ([0-9.]+) s", out).group(1)), cpu


def python_every_frame(path):
    out, cpu = child([VENV_PYTHON, "-c", PYTHON_EVERY_FRAME, path])
    return float(out.split()[0]), cpu


def spread(ratios):
    return f"{statistics.median(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f})"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=300)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--dir", default=None, help="where to keep the recording")
    args = parser.parse_args()
    for tool in (RSBAG, VENV_PYTHON):
        if not os.path.exists(tool):
            sys.exit(f"{tool} is missing: see this script's usage")
    work = args.dir or tempfile.mkdtemp(prefix="rsbag-lz4-playback-")
    path = os.path.join(work, f"librealsense-lz4-{args.frames}.bag")
    if not os.path.exists(path):
        print(f"writing {args.frames} frames per stream with librealsense (LZ4)...", flush=True)
        write_bag(path, args.frames, True)
    chunks = lz4_chunks(path)
    print(f"{path}: {os.path.getsize(path) / 1e9:.2f} GB, {len(chunks)} LZ4 chunks; "
          f"load average {os.getloadavg()[0]:.1f}", flush=True)
    readers = {"rsbag play": rsbag_play, "Python every frame": python_every_frame}
    times = {name: [] for name in ["floor", *readers]}  # (seconds, CPU seconds) a round
    with ThreadPoolExecutor(max_workers=2) as pool:
        for r in range(args.runs):
            order = ["floor", *readers] if r % 2 == 0 else [*reversed(readers), "floor"]
            for name in order:
                times[name].append(floor(chunks, pool)[:2] if name == "floor" else readers[name](path))
            print(f"round {r + 1}: " + ", ".join(f"{n} {t[-1][0]:.3f} s ({t[-1][1]:.3f} CPU s)"
                                                 for n, t in times.items()), flush=True)
        decoded = floor(chunks, pool)[2]
    print(f"decoded {decoded / 1e9:.2f} GB; load average {os.getloadavg()[0]:.1f}")
    for name in readers:
        for what, i in (("time", 0), ("CPU time", 1)):
            ratios = [t[i] / f[i] for t, f in zip(times[name], times["floor"])]
            print(f"{name} / floor, {what}: {spread(ratios)}")


if __name__ == "__main__":
    main()
