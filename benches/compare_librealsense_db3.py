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
it, alternately, each run after `--settle` seconds (15) with nothing
waiting to be written back: on this kind of virtual machine, memory freed
by the previous run's output is handed back to the host within seconds,
and filling it again costs about 10x (see compare_rosbags_convert.py);
waiting puts every run in the state after any idle moment. Each round
also writes as many bytes as rsbag's output straight to the disk
(O_DIRECT): the least time any converter needs to put that output on the
disk. Prints every round, the median of the per-round ratios and their spread (the lowest
and highest). `--only playback|conversion` runs one half.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_librealsense import RECORD, RSBAG, ROOT, librealsense_play, rsbag_play, write_bag  # noqa: E402
from write_floor import write_floor  # noqa: E402

CONVERTER = os.path.join(ROOT, "tests", "interop", "convert_bag_to_db3.py")


SETTLE = 15.0


def settle():
    """Start with no dirty pages of the run before, and memory in the
    state after an idle moment (see the module's text)."""
    os.sync()
    time.sleep(SETTLE)
    os.sync()


def timed(args):
    settle()
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


def convert_theirs(bag, out):
    """2.59's converter; its own time, without Python's start."""
    settle()
    text = subprocess.run([sys.executable, CONVERTER, bag, out], check=True, capture_output=True, text=True).stdout
    return float(text.split("bytes in ")[1].split()[0])


def sync_time(path):
    """What syncing a file takes once its converter returned (neither
    syncs its output; rsbag's is mostly on the disk already)."""
    start = time.perf_counter()
    fd = os.open(path, os.O_RDONLY)
    os.fsync(fd)
    os.close(fd)
    return time.perf_counter() - start


def conversion(work, mb, runs):
    bag = os.path.join(work, "big.bag")
    print(f"writing a {mb} MB .bag with rsbag's recorder...", flush=True)
    subprocess.run([RECORD, bag, "--mb", str(mb), "--rate", "0"], check=True, capture_output=True)
    out = os.path.join(work, "out.db3")
    ours_args = [RSBAG, "convert", bag, "--to", "db3", "--out", out]
    rounds, sizes, disk_floor = [], {}, []
    syncs = {"theirs": [], "ours": []}

    def run(who):
        if who == "theirs":
            t = convert_theirs(bag, out)
        else:
            # Like for like: 2.59's converter writes uncompressed images.
            t = timed(ours_args + ["--uncompressed"])
        syncs[who].append(sync_time(out))
        sizes[who] = os.path.getsize(out)
        os.remove(out)
        return t

    for k in range(runs):
        # Alternate who goes first: the second runs after the first's
        # writes, which the machine may still be absorbing.
        order = ["theirs", "ours"] if k % 2 == 0 else ["ours", "theirs"]
        times = {who: run(who) for who in order}
        rounds.append((times["theirs"], times["ours"]))
        settle()
        disk_floor.append(write_floor(Path(work) / "floor.bin", sizes["ours"], direct=True))
    # rsbag's default compresses as 2.59's recorder does (PNG).
    png = timed(ours_args)
    png_size = os.path.getsize(out)
    os.remove(out)
    ratios = [a / b for a, b in rounds]
    ratio = statistics.median(ratios)
    print("    per round: librealsense 2.59 " + " ".join(f"{a:.2f}" for a, _ in rounds)
          + " s; rsbag " + " ".join(f"{b:.2f}" for _, b in rounds)
          + " s; ratio " + " ".join(f"{r:.2f}" for r in ratios))
    synced = [(a + sa, b + sb) for (a, b), sa, sb in zip(rounds, syncs["theirs"], syncs["ours"])]
    ratios_synced = [a / b for a, b in synced]
    print("    with the output synced: librealsense 2.59 " + " ".join(f"{a:.2f}" for a, _ in synced)
          + " s; rsbag " + " ".join(f"{b:.2f}" for _, b in synced) + " s; ratio "
          + " ".join(f"{r:.2f}" for r in ratios_synced) + f": median {statistics.median(ratios_synced):.2f}x "
          f"(spread {min(ratios_synced):.2f}-{max(ratios_synced):.2f})")
    bound = [a / f for (a, _), f in zip(synced, disk_floor)]
    print("    disk floor (rsbag's output's bytes written straight to the disk, O_DIRECT) "
          + " ".join(f"{f:.2f}" for f in disk_floor) + " s: librealsense 2.59 with sync / disk floor, the most any "
          f"converter could reach, {statistics.median(bound):.2f}x (spread {min(bound):.2f}-{max(bound):.2f})")
    print(f"  converting a {os.path.getsize(bag) / 1e9:.2f} GB .bag to .db3, {runs} rounds (who goes first alternates):")
    print(f"    librealsense 2.59 {statistics.median(a for a, _ in rounds):.2f} s ({sizes['theirs'] / 1e6:.0f} MB; "
          f"a sync of it takes {statistics.median(syncs['theirs']):.2f} s more), rsbag --uncompressed "
          f"{statistics.median(b for _, b in rounds):.2f} s ({sizes['ours'] / 1e6:.0f} MB): rsbag {ratio:.2f}x as fast (spread {min(ratios):.2f}-{max(ratios):.2f}; output not synced)")
    print(f"    rsbag compressed (PNG, its default) {png:.2f} s ({png_size / 1e6:.0f} MB)")
    os.remove(bag)


def main():
    global SETTLE  # noqa: PLW0603 (one setting for the whole run)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--frames", type=int, default=300)
    parser.add_argument("--convert-mb", type=int, default=1024)
    parser.add_argument("--dir", default=None)
    parser.add_argument("--settle", type=float, default=SETTLE, help="seconds to wait before each conversion")
    parser.add_argument("--only", choices=["playback", "conversion"])
    args = parser.parse_args()
    SETTLE = args.settle
    for binary in (RSBAG, RECORD):
        if not os.path.exists(binary):
            sys.exit(f"{binary} is missing: run `cargo build --release --examples` first")
    work = args.dir or tempfile.mkdtemp(prefix="rsbag-compare-db3-")
    os.makedirs(work, exist_ok=True)
    if args.only != "conversion":
        playback(work, args.frames, args.runs)
    if args.only != "playback":
        conversion(work, args.convert_mb, args.runs)


if __name__ == "__main__":
    main()
