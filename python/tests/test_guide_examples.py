"""Every ```python example of README.md and of the guide (docs/src) that
uses rsbag runs, as written, in a directory holding `session.bag` and its copy `camera_b.bag` (the
synthetic sample recording, which has depth, colour, infrared and IMU
streams), session.bag also played by librealsense as a connected camera,
and the pieces `run_0.bag`..`run_3.bag` of a split recording for the
examples that read them. The examples are the ones check_typing.py types with mypy; as
there, an example may use `rsbag` as imported by the page's first one, and
an example that records frames it does not make itself (`frames`) is given
a few."""

import os
import shutil
import subprocess
import sys

import pytest

import check_typing
from test_pieces import PER_PIECE, write_piece

SAMPLE = check_typing.ROOT / "sample_bags" / "rsbag-synthetic-lz4.bag"

# What an example may use without making it: a few depth and colour frames
# of the size its streams are declared with.
IMPORTS = "import rsbag\nimport rsbag.parallel\n"
GIVEN = """\
import numpy as np
frames = [(np.full((480, 640), n, np.uint16), np.full((480, 640, 3), n, np.uint8))
          for n in range(3)]
"""

EXAMPLES = check_typing.examples()


def test_there_are_examples_to_run():
    pages = {page.name for page, _, _ in EXAMPLES}
    assert {"README.md", "reading-python.md", "processing.md"} <= pages


@pytest.mark.parametrize(
    "page, line, code", EXAMPLES,
    ids=[f"{page.name}:{line}" for page, line, _ in EXAMPLES])
def test_the_example_runs(tmp_path, page, line, code):
    shutil.copy(SAMPLE, tmp_path / "session.bag")
    # The second camera of the sessions page's examples.
    shutil.copy(SAMPLE, tmp_path / "camera_b.bag")
    if "run_0.bag" in code:
        for i in range(4):
            write_piece(tmp_path / f"run_{i}.bag", 1 + i * PER_PIECE, color=True)
    script = tmp_path / "example.py"
    given = GIVEN if check_typing.given_names(code) else ""
    script.write_text(IMPORTS + given + code)
    # A child interpreter: an example's playback threads and Dask workers
    # end with it, and a hang is a failure, not a stuck suite.
    # The camera of the cameras' examples: session.bag, played by
    # librealsense as a connected device (rsbag.pyrealsense2's test hook).
    env = {**os.environ, "RSBAG_PYREALSENSE2_CAMERA": str(tmp_path / "session.bag")}
    run = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True,
                         text=True, timeout=120, env=env)
    assert run.returncode == 0, f"{page.name}, line {line}:\n{run.stdout}\n{run.stderr}"
