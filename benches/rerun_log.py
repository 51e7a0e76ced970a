#!/usr/bin/env python3
"""Logging a 1 GB recording to Rerun: `rsbag.rerun.log` against Rerun
given the same arrays straight from numpy, in one run.

Usage (from the crate root, after `bash scripts/test-python.sh`, which
builds rsbag and installs rerun-sdk into target/venv-python):
    target/venv-python/bin/python benches/rerun_log.py [--frames 300] [--runs 3]

The recording (written once into a temporary directory by rsbag.Writer,
uncompressed .bag): depth 848x480 Z16 + colour 1280x720 RGB8, --frames
each (300: 1.07 GB of frames), camera-like content (gradients with
noise). Each side runs in its own interpreter, the recording in the page
cache, the two alternating (which goes first changes each round), --runs
rounds; the clock runs from the call
until the .rrd is written and closed:

- rsbag: `rr.save(out)`, `rsbag.rerun.log(rsbag.open(path))`;
- numpy: the same frames read into numpy arrays before the clock starts,
  then `rr.save(out)`, each stream's static image format, and
  `rr.send_columns` of the pixels with the same three timelines in
  batches of the same size (rsbag.rerun.BATCH_BYTES) — what any program
  that holds the arrays does at the least.

Prints each round's seconds and the median of the per-round ratios
rsbag / numpy, with their spread. Target: at most 1.5x.
"""

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

DEPTH = (480, 848)
COLOR = (720, 1280, 3)

RSBAG = """
import sys, time
import rerun as rr
import rsbag, rsbag.rerun
path, out = sys.argv[1:3]
rr.init("bench")
start = time.perf_counter()
rr.save(out)
rsbag.rerun.log(rsbag.open(path))
rr.disconnect()
print(time.perf_counter() - start)
"""

NUMPY = """
import sys, time
import numpy as np
import rerun as rr
import rsbag, rsbag.rerun
path, out = sys.argv[1:3]
recording = rsbag.open(path)
streams = {}
for name in ("Depth", "Color"):
    frames = list(recording.frames(streams=[name]))
    streams[name] = (np.stack([f.as_array() for f in frames]),
                     np.array([f.timestamp for f in frames]) / 1e3,
                     np.array([f.time for f in frames]),
                     np.array([f.frame_number for f in frames]))
rr.init("bench")
start = time.perf_counter()
rr.save(out)
for name, (pixels, stamps, times, numbers) in streams.items():
    h, w = pixels.shape[1:3]
    entity = f"cam/{name.lower()}/image"
    if name == "Depth":
        rr.log(entity, rr.DepthImage.from_fields(format=rr.components.ImageFormat(
            w, h, channel_datatype=rr.ChannelDatatype.U16), meter=1000.0), static=True)
    else:
        rr.log(entity, rr.Image.from_fields(format=rr.components.ImageFormat(
            w, h, color_model=rr.ColorModel.RGB, channel_datatype=rr.ChannelDatatype.U8)),
            static=True)
    per = max(1, rsbag.rerun.BATCH_BYTES // pixels[0].nbytes)
    for at in range(0, len(pixels), per):
        part = slice(at, at + per)
        buffers = pixels[part].reshape(len(pixels[part]), -1).view(np.uint8)
        columns = (rr.DepthImage if name == "Depth" else rr.Image).columns(buffer=buffers)
        rr.send_columns(entity, indexes=[
            rr.TimeColumn("timestamp", duration=stamps[part]),
            rr.TimeColumn("time", duration=times[part]),
            rr.TimeColumn("frame_number", sequence=numbers[part])], columns=columns)
rr.disconnect()
print(time.perf_counter() - start)
"""


def write_recording(path, frames):
    """Depth and colour of a moving gradient with noise."""
    import rsbag

    rng = np.random.default_rng(1)
    yy, xx = np.mgrid[0:DEPTH[0], 0:DEPTH[1]]
    cy, cx = np.mgrid[0:COLOR[0], 0:COLOR[1]]
    with rsbag.Writer(path, info={"Name": "bench", "Serial Number": "BENCH"}) as w:
        w.add_video_stream("Depth", "Z16", DEPTH[1], DEPTH[0], 30, sensor="Stereo Module",
                           depth_units=0.001,
                           intrinsics={"fx": 420.0, "fy": 420.0, "ppx": 424.0, "ppy": 240.0})
        w.add_video_stream("Color", "RGB8", COLOR[1], COLOR[0], 30, sensor="RGB Camera",
                           intrinsics={"fx": 640.0, "fy": 640.0, "ppx": 640.0, "ppy": 360.0},
                           extrinsics={"translation": [-0.015, 0.0, 0.0]})
        for n in range(1, frames + 1):
            depth = (800 + (xx + 3 * n) % 2000 + rng.integers(0, 16, DEPTH)).astype(np.uint16)
            color = np.stack([(cx + n) % 256, (cy + 2 * n) % 256, (cx + cy) % 256], axis=-1)
            color = (color + rng.integers(0, 12, COLOR)).astype(np.uint8)
            w.write("Depth", depth, timestamp=n * 33.3, frame_number=n)
            w.write("Color", color, timestamp=n * 33.3, frame_number=n)


def run(code, path, out):
    done = subprocess.run([sys.executable, "-c", code, str(path), str(out)],
                          check=True, capture_output=True, text=True)
    Path(out).unlink()
    return float(done.stdout.split()[-1])


def spread(values):
    """The median of per-round values, with the lowest and highest."""
    return f"{statistics.median(values):.2f}x ({min(values):.2f}-{max(values):.2f})"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--frames", type=int, default=300)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="rsbag-rerun-bench-") as tmp:
        path, out = Path(tmp) / "bench.bag", Path(tmp) / "out.rrd"
        start = time.perf_counter()
        write_recording(path, args.frames)
        size = path.stat().st_size
        print(f"{size / 1e9:.2f} GB recording written in {time.perf_counter() - start:.1f} s")
        path.read_bytes()  # into the page cache
        times = {"rsbag": [], "numpy": []}
        codes = {"rsbag": RSBAG, "numpy": NUMPY}
        for r in range(args.runs):
            # Alternating which goes first: the pair of a round sees the
            # same load.
            for name in (list(codes) if r % 2 == 0 else list(reversed(codes))):
                times[name].append(run(codes[name], path, out))
        for name, seconds in times.items():
            print(f"{name:6} {' '.join(f'{s:.2f}' for s in seconds)} s "
                  f"(median {statistics.median(seconds):.2f})")
        ratios = [a / b for a, b in zip(times["rsbag"], times["numpy"])]
        print(f"{size / 1e9:.2f} GB, {args.runs} rounds: rsbag.rerun.log takes "
              f"{spread(ratios)} the time of Rerun given the arrays from numpy (target <= 1.5x)")


if __name__ == "__main__":
    main()
