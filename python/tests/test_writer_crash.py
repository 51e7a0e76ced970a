"""rsbag.Writer killed at seeded random moments (kill -9) while writing
numpy frames: nothing appears under the final name, and `rsbag reindex`
recovers the `.partial` into frames that were all really written (the
bytes given for that frame number, numbers rising one by one from 1).
RSBAG_KILL_SEEDS (default 3) kill moments per format."""

import json
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import rsbag

ROOT = Path(__file__).resolve().parents[2]

WRITER = r"""
import sys
import numpy as np
import rsbag
from test_writer_crash import depth_frame, gyro_sample
with rsbag.Writer(sys.argv[1]) as w:
    w.add_video_stream("Depth", "Z16", 160, 120, 30, sensor="Stereo Module", depth_units=0.001)
    w.add_motion_stream("Gyro", 200)
    n = 0
    while True:
        n += 1
        w.write("Depth", depth_frame(n), 1000.0 + n * 33.25, n)
        w.write("Gyro", gyro_sample(n), 1000.0 + n * 33.25 + 1.0, n)
        if n == 3:
            print("writing", flush=True)
"""


def depth_frame(n):
    """Frame n's depth: a function of n alone."""
    return ((np.arange(160 * 120, dtype=np.uint32) * 7 + n * 131) % 65536).astype(
        np.uint16).reshape(120, 160)


def gyro_sample(n):
    return np.array([0.001 * n, -0.002 * n, 0.5], dtype=np.float32)


def rsbag_cli():
    """The command-line tool `cargo test` built (scripts/test.sh runs it
    first), in the target directory cargo uses (CARGO_TARGET_DIR or the
    configured one, as `cargo metadata` says); built here when missing."""
    metadata = subprocess.run(
        ["cargo", "metadata", "--format-version", "1", "--no-deps"], cwd=ROOT,
        check=True, capture_output=True, text=True)
    target = Path(json.loads(metadata.stdout)["target_directory"])
    for profile in ("debug", "release"):
        exe = target / profile / "rsbag"
        if exe.exists():
            return exe
    subprocess.run(["cargo", "build", "-q", "-p", "rsbag-cli"], cwd=ROOT, check=True)
    return target / "debug" / "rsbag"


def seeds():
    first = int(os.environ.get("RSBAG_KILL_SEED0", "1"))
    return range(first, first + int(os.environ.get("RSBAG_KILL_SEEDS", "3")))


@pytest.mark.parametrize("suffix", [".bag", ".db3"])
def test_a_killed_writer_leaves_a_partial_of_real_frames(tmp_path, suffix):
    recovered_any = False
    for seed in seeds():
        case = tmp_path / f"seed{seed}"
        case.mkdir()
        out = case / f"numpy{suffix}"
        child = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(out)], stdout=subprocess.PIPE,
            env={**os.environ, "PYTHONPATH": str(Path(__file__).parent)})
        assert child.stdout.readline() == b"writing\n"
        delay = random.Random(seed).uniform(0.1, 2.5)
        try:
            child.wait(timeout=delay)
            pytest.fail(f"the writer stopped by itself: {child.returncode}")
        except subprocess.TimeoutExpired:
            child.send_signal(signal.SIGKILL)
            child.wait()
        assert not out.exists(), f"seed {seed}: nothing under the final name"
        partial = Path(f"{out}.partial")
        assert partial.exists(), f"seed {seed}"
        done = subprocess.run([rsbag_cli(), "reindex", partial], capture_output=True, text=True)
        if done.returncode == 1 and "nothing to recover" in done.stderr:
            assert not out.exists()
            continue
        assert done.returncode == 0, f"seed {seed}: {done.stderr}"
        expected = {"Depth": 1, "Gyro": 1}
        for frame in rsbag.open(out).frames():
            n = frame.frame_number
            assert n == expected[frame.stream], f"seed {seed}: {frame.stream} #{n}"
            expected[frame.stream] += 1
            want = depth_frame(n) if frame.stream == "Depth" else gyro_sample(n)
            assert np.array_equal(frame.as_array(), want), f"seed {seed}: {frame.stream} #{n}"
        recovered_any |= expected["Depth"] > 1
    assert recovered_any, "no seed recovered a frame"
