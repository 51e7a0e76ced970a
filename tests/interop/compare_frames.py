#!/usr/bin/env python3
"""Compare the frames rs_record.py fed with the frames a player reports.

Usage:
    python3 compare_frames.py RECORDED.json PLAYED.jsonl

RECORDED.json is rs_record.py's output (its "frames" list); PLAYED.jsonl is
one JSON frame per line (rs_play.py, or `rsbag frames FILE --json`).

Frames are matched by (stream, stream_index, frame_number). The check fails (exit
1, one line per problem on stdout) when a frame is missing or extra, or its
domain, size or sha256 differ, or its timestamp is not exactly the one
librealsense 2.55 plays back for the fed timestamp T (ms):

    t = T / 1000;  sec = floor(t);  nsec = round_half_away((t - sec) * 1e9)
    (carried so that nsec < 1e9)   # ros::Time::fromSec, in the Image/Imu header

printed as recorded: the float nearest sec * 1000 + nsec / 1e6 (librealsense
itself reads (sec + 1e-9 * nsec) * 1000.0; rs_play.py and `rsbag frames
--json` print the stamp).

With --exact-timestamps the played timestamp must equal T itself.
If both files have "metadata" on a frame, the maps must be equal.
Prints a one-line summary: "N frames fed, M played, K problems".
"""

import argparse
import json
import math
import sys


def ros_round(x):
    """C's round(): halves away from zero (Python's round() is banker's)."""
    return math.floor(x + 0.5) if x >= 0 else -math.floor(-x + 0.5)


def played_timestamp(ms):
    t = ms / 1000.0
    sec = math.floor(t)
    nsec = ros_round((t - sec) * 1e9)
    sec += nsec // 1_000_000_000
    nsec %= 1_000_000_000
    return float(f"{sec * 1000 + nsec // 10**6}.{nsec % 10**6:06d}")


def key(frame):
    return (frame["stream"], frame["stream_index"], frame["frame_number"])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("recorded")
    parser.add_argument("played")
    parser.add_argument("--exact-timestamps", action="store_true")
    args = parser.parse_args()

    with open(args.recorded, encoding="utf-8") as f:
        # rs_record.py names the stream index "index", as in its stream specs.
        fed = [dict(frame, stream_index=frame["index"]) for frame in json.load(f)["frames"]]
    with open(args.played, encoding="utf-8") as f:
        played = [json.loads(line) for line in f if line.strip()]

    problems = []
    fed_by_key, played_by_key = {}, {}
    for name, frames, by_key in (("fed", fed, fed_by_key), ("played", played, played_by_key)):
        for frame in frames:
            if key(frame) in by_key:
                problems.append(f"{name} twice: {key(frame)}")
            by_key[key(frame)] = frame
    for k in sorted(set(fed_by_key) | set(played_by_key)):
        a, b = fed_by_key.get(k), played_by_key.get(k)
        if b is None:
            problems.append(f"not played: {k}")
            continue
        if a is None:
            problems.append(f"played but never fed: {k}")
            continue
        for field in ("domain", "size", "sha256"):
            if a[field] != b[field]:
                problems.append(f"{k}: {field} fed {a[field]!r}, played {b[field]!r}")
        want = a["timestamp"] if args.exact_timestamps else played_timestamp(a["timestamp"])
        if b["timestamp"] != want:
            problems.append(
                f"{k}: timestamp fed {a['timestamp']!r}, expected {want!r}, played {b['timestamp']!r}"
            )
        if "metadata" in a and "metadata" in b and a["metadata"] != b["metadata"]:
            problems.append(f"{k}: metadata fed {a['metadata']}, played {b['metadata']}")
    for p in problems:
        print(p)
    print(f"{len(fed)} frames fed, {len(played)} played, {len(problems)} problems")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
