"""The references the Python tests compare against: the real librealsense
(pyrealsense2 2.55 for .bag, 2.59 for .db3), each in its own interpreter
(tests/interop/rs_play.py, as the Rust interop tests run it): 2.55 in the
system's python3 (RSBAG_PYTHON_255), 2.59 in target/venv-librealsense-2.59
(RSBAG_PYTHON_259); scripts/install-test-deps.sh installs both. What a
judge says of a file is asked once per test session.
"""

import functools
import json
import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
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
