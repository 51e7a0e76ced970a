"""rsbag.open([...]): the pieces of a split recording read as one
recording. The pieces are written with rsbag.Writer as the recorder writes
them (one device, frame numbers and timestamps running on); the truth is
what pyrealsense2 2.55 plays from each piece."""

import hashlib

import numpy as np
import pytest

import rsbag
from references import PYTHON_255, played

PER_PIECE = 10


def write_piece(path, first, serial="42"):
    """A piece holding frames `first`..`first + PER_PIECE - 1`."""
    rng = np.random.default_rng(first)
    with rsbag.Writer(path, info={"Name": "numpy camera", "Serial Number": serial}) as w:
        w.add_video_stream("Depth", "Z16", 64, 48, 30, sensor="Stereo Module",
                           depth_units=0.001)
        w.add_motion_stream("Gyro", 200)
        for n in range(first, first + PER_PIECE):
            ts = 1000.0 + (n - 1) * 33.25
            w.write("Depth", rng.integers(0, 4000, (48, 64), dtype=np.uint16), ts, n)
            w.write("Gyro", np.array([0.01 * n, -0.02, 0.03], dtype=np.float32), ts + 0.25, n)


def key(stream, number, data):
    return (stream, number, hashlib.sha256(data).hexdigest())


@pytest.fixture
def pieces(tmp_path):
    paths = [tmp_path / f"run_{i}.bag" for i in range(3)]
    for i, path in enumerate(paths):
        write_piece(path, 1 + i * PER_PIECE)
    return paths


def test_pieces_read_as_one_recording(pieces):
    # Given out of order: the frames put the pieces in order.
    recording = rsbag.open([str(pieces[2]), str(pieces[0]), str(pieces[1])])
    assert isinstance(recording, rsbag.Pieces)
    assert recording.paths == [str(p) for p in pieces]
    assert recording.gaps == []
    assert recording.info["Serial Number"] == "42"
    assert recording.frame_count("Depth") == 3 * PER_PIECE
    ours = [key(f.stream, f.frame_number, f.get_data()) for f in recording.frames()]
    theirs = []
    for piece in pieces:
        theirs += [(f["stream"], f["frame_number"],
                    f["sha256"]) for f in played(PYTHON_255, piece)]
    assert sorted(ours) == sorted(theirs), "every frame of every piece, once"
    depth = [n for (s, n, _) in ours if s == "Depth"]
    assert depth == list(range(1, 3 * PER_PIECE + 1)), "in recorded order across the pieces"
    # Frame K counted across the pieces, and times running on.
    frame = recording.frame("Depth", PER_PIECE + 3)
    assert frame.frame_number == PER_PIECE + 4
    assert frame.depth_units == pytest.approx(0.001)
    times = [f.time for f in recording.frames(streams=["Depth"])]
    assert all(b > a for a, b in zip(times, times[1:]))
    late = list(recording.frames(streams=["Depth"], start=times[PER_PIECE + 1]))
    assert [f.frame_number for f in late] == list(range(PER_PIECE + 2, 3 * PER_PIECE + 1))


def test_a_missing_piece_is_a_gap_and_another_recording_no_piece(pieces, tmp_path):
    recording = rsbag.open([str(pieces[0]), str(pieces[2])])
    assert len(recording.gaps) == 2, recording.gaps
    assert "jump from 10 to 21" in recording.gaps[0]
    other = tmp_path / "other.bag"
    write_piece(other, 1)
    with pytest.raises(rsbag.InvalidArgumentError, match="do not run on"):
        rsbag.open([str(pieces[0]), str(other)])
    stranger = tmp_path / "stranger.bag"
    write_piece(stranger, 1 + PER_PIECE, serial="43")
    with pytest.raises(rsbag.InvalidArgumentError, match="different devices"):
        rsbag.open([str(pieces[0]), str(stranger)])
