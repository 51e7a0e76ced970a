"""The references the Python tests compare against: the real librealsense
(pyrealsense2 2.55 for .bag, 2.59 for .db3), each in its own interpreter
(tests/interop/rs_play.py, as the Rust interop tests run it): 2.55 in the
system's python3 (RSBAG_PYTHON_255), 2.59 in target/venv-librealsense-2.59
(RSBAG_PYTHON_259); scripts/install-test-deps.sh installs both. What a
judge says of a file is asked once per test session.
"""

import functools
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests/interop"))
from stamps import as_recorded  # noqa: E402
SAMPLES = ROOT / "sample_bags"
DB3 = ROOT / "tests/fixtures/reference/db3"
PYTHON_255 = os.environ.get("RSBAG_PYTHON_255", "python3")
PYTHON_259 = os.environ.get(
    "RSBAG_PYTHON_259", str(ROOT / "target/venv-librealsense-2.59/bin/python"))

BAGS = [
    "librealsense-depth-color-lz4.bag",
    "librealsense-stereo-none.bag",
    "librealsense-motion-lz4.bag",
    "librealsense-metadata-lz4.bag",
    "rsbag-synthetic-lz4.bag",
]


@functools.lru_cache(maxsize=None)
def judge(python, *args):
    """What pyrealsense2 says (tests/interop/rs_play.py)."""
    out = subprocess.run([python, str(ROOT / "tests/interop/rs_play.py"), *args],
                         check=True, capture_output=True, text=True)
    return out.stdout


def played(python, path, metadata=False):
    args = [str(path), "--metadata"] if metadata else [str(path)]
    return [json.loads(line) for line in judge(python, *args).splitlines()]


def judge_line(frame):
    """An rsbag frame as rs_play.py prints librealsense's; its
    "frame_index" is counted by `in_judge_order`."""
    data = frame.get_data()
    return {"stream": frame.stream, "stream_index": frame.stream_index, "frame_index": None,
            "frame_number": frame.frame_number, "timestamp": as_recorded(frame.timestamp),
            "domain": frame.domain, "size": len(data),
            "sha256": hashlib.sha256(data).hexdigest()}


def in_judge_order(lines):
    """`judge_line`s in the order they came (a stream's in recorded order),
    each with its position in its stream, sorted as rs_play.py sorts them
    (stream, stream index, frame number; ties as they came)."""
    counts = {}
    for line in lines:
        stream = (line["stream"], line["stream_index"])
        line["frame_index"] = counts.get(stream, 0)
        counts[stream] = line["frame_index"] + 1
    return sorted(lines, key=lambda f: (f["stream"], f["stream_index"], f["frame_number"]))
