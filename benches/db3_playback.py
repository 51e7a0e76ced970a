#!/usr/bin/env python3
"""`.db3` playback against its floors: SQLite reading every message once,
and inflating every PNG image once with C zlib on both cores.

Usage (from the crate root, after `cargo build --release -p rsbag-cli`):
    python3 benches/db3_playback.py FILE.db3 [--runs 5]

FILE is a compressed `.db3` as librealsense 2.59 records it (PNG images:
`sensor_msgs/CompressedImage` for colour, `compressedDepth` for depth);
benches/compare_librealsense_db3.py writes one, or, with numpy installed in
the 2.59 virtual environment, from benches/:
    ../target/venv-librealsense-2.59/bin/python -c \\
        "from compare_librealsense import write_bag; write_bag('F.db3', 300, True)"
Each round, in an order alternating from round to round:
  - `rsbag play FILE --no-realtime` (every stream, a callback reading every
    byte);
  - the SQLite floor: Python's sqlite3 (the C library) reading every
    message's data once, in the order of their timestamps;
  - the inflate floor: the zlib stream of every PNG (its IDAT chunks,
    gathered beforehand) inflated once by C zlib, shared by two threads
    (`zlib.decompress` releases the GIL); PNG's row filters are left out.
Printed per round: seconds and CPU seconds; then rsbag's time and CPU time
against the sum of the two floors, median of per-round ratios with the
lowest and highest.
"""

import argparse
import os
import re
import resource
import sqlite3
import statistics
import struct
import subprocess
import sys
import time
import zlib
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RSBAG = os.path.join(ROOT, "target", "release", "rsbag")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def cpu_seconds(who):
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def timed(run, who=resource.RUSAGE_SELF):
    """`run()`'s result, seconds and CPU seconds (of this process, or of
    its children)."""
    cpu, start = cpu_seconds(who), time.perf_counter()
    result = run()
    return result, time.perf_counter() - start, cpu_seconds(who) - cpu


def read_messages(path):
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    total = 0
    for (data,) in connection.execute("SELECT data FROM messages ORDER BY timestamp"):
        total += len(data)
    connection.close()
    return total


def zlib_stream(message, where):
    """The concatenated IDAT data of the PNG inside a CDR message."""
    start = message.find(PNG_SIGNATURE)
    if start < 0:
        sys.exit(f"{where}: no PNG in the message")
    pos, parts = start + len(PNG_SIGNATURE), []
    while pos + 8 <= len(message):
        length, kind = struct.unpack_from(">I4s", message, pos)
        if kind == b"IDAT":
            parts.append(message[pos + 8:pos + 8 + length])
        if kind == b"IEND":
            break
        pos += 12 + length
    return b"".join(parts)


def png_streams(path):
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    rows = connection.execute(
        "SELECT m.id, m.data FROM messages m JOIN topics t ON t.id = m.topic_id "
        "WHERE t.type = 'sensor_msgs/msg/CompressedImage'")
    streams = [zlib_stream(data, f"{path}: message {id}") for id, data in rows]
    connection.close()
    if not streams:
        sys.exit(f"{path}: no compressed images")
    return streams


def rsbag_play(path):
    out = subprocess.run([RSBAG, "play", path, "--no-realtime"], check=True, capture_output=True,
                         text=True).stdout
    return float(re.search(r"played in ([0-9.]+) s", out).group(1))


def spread(ratios):
    return f"{statistics.median(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f})"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    if not os.path.exists(RSBAG):
        sys.exit(f"{RSBAG} is missing: cargo build --release -p rsbag-cli")
    streams = png_streams(args.file)
    print(f"{args.file}: {os.path.getsize(args.file) / 1e6:.0f} MB, {len(streams)} PNG images; "
          f"load average {os.getloadavg()[0]:.1f}", flush=True)
    rounds = {"rsbag play": [], "SQLite": [], "inflate": []}
    with ThreadPoolExecutor(max_workers=2) as pool:
        measures = {
            "rsbag play": lambda: timed(lambda: rsbag_play(args.file), resource.RUSAGE_CHILDREN),
            "SQLite": lambda: timed(lambda: read_messages(args.file)),
            "inflate": lambda: timed(lambda: sum(pool.map(lambda s: len(zlib.decompress(s)), streams))),
        }
        for r in range(args.runs):
            for name in (list(measures) if r % 2 == 0 else list(reversed(measures))):
                result, seconds, cpu = measures[name]()
                # rsbag reports its own time from start to stopped.
                rounds[name].append((result if name == "rsbag play" else seconds, cpu))
            print(f"round {r + 1}: " + ", ".join(f"{n} {v[-1][0]:.3f} s ({v[-1][1]:.3f} CPU s)"
                                                 for n, v in rounds.items()), flush=True)
    print(f"load average {os.getloadavg()[0]:.1f}")
    for what, i in (("time", 0), ("CPU time", 1)):
        ratios = [p[i] / (s[i] + z[i]) for p, s, z in zip(*rounds.values())]
        print(f"rsbag play / (SQLite + inflate), {what}: {spread(ratios)}")


if __name__ == "__main__":
    main()
