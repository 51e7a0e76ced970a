"""rsbag.open([...]): the pieces of a split recording read as one
recording. The pieces are written with rsbag.Writer as the recorder writes
them (one device, frame numbers and timestamps running on); the truth is
what pyrealsense2 2.55 plays from each piece."""

import hashlib
import json

import numpy as np
import pytest

import rsbag
from references import PYTHON_255, judge, played

PER_PIECE = 10


def write_piece(path, first, serial="42", color=False):
    """A piece holding frames `first`..`first + PER_PIECE - 1` of depth and
    gyro (and colour)."""
    rng = np.random.default_rng(first)
    with rsbag.Writer(path, info={"Name": "numpy camera", "Serial Number": serial}) as w:
        w.add_video_stream("Depth", "Z16", 64, 48, 30, sensor="Stereo Module",
                           depth_units=0.001)
        if color:
            w.add_video_stream("Color", "RGB8", 64, 48, 30, sensor="RGB Camera")
        w.add_motion_stream("Gyro", 200)
        for n in range(first, first + PER_PIECE):
            ts = 1000.0 + (n - 1) * 33.25
            w.write("Depth", rng.integers(0, 4000, (48, 64), dtype=np.uint16), ts, n)
            if color:
                w.write("Color", rng.integers(0, 255, (48, 64, 3), dtype=np.uint8), ts + 0.5, n)
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


def test_pieces_describe_the_device_and_read_columns_and_framesets(pieces):
    """What a one-file recording's object gives, over the pieces: the
    sensors pyrealsense2 2.55 describes in each piece, one stream's frames
    as columns, and framesets holding every frame it plays once."""
    recording = rsbag.open([str(p) for p in pieces])
    for piece in pieces:
        device = json.loads(judge(PYTHON_255, str(piece), "--device-json"))
        assert [s["name"] for s in recording.sensors] == [s["name"] for s in device["sensors"]]
        for ours, theirs in zip(recording.sensors, device["sensors"]):
            profile = lambda p: (p["stream"], p["index"], p["format"], p["fps"])
            assert sorted(map(profile, ours["profiles"])) == sorted(map(profile, theirs["profiles"]))
    assert recording.sensors == rsbag.open(str(pieces[0])).sensors
    assert recording.depth_units("Depth") == pytest.approx(0.001)

    theirs = [f for piece in pieces for f in played(PYTHON_255, piece)]
    gyro = [f for f in theirs if f["stream"] == "Gyro"]
    columns = recording.columns("Gyro")
    assert list(columns["index"]) == list(range(3 * PER_PIECE))
    assert list(columns["frame_number"]) == [f["frame_number"] for f in gyro]
    assert [hashlib.sha256(row.tobytes()).hexdigest() for row in columns["data"]] == \
        [f["sha256"] for f in gyro]
    assert list(columns["timestamp"]) == pytest.approx([f["timestamp"] for f in gyro])
    assert all(b > a for a, b in zip(columns["time"], columns["time"][1:]))
    # From a time in the second piece: the frames from there on.
    depth = recording.columns("Depth")
    later = recording.columns("Depth", start=depth["time"][PER_PIECE + 2])
    assert list(later["frame_number"]) == list(range(PER_PIECE + 3, 3 * PER_PIECE + 1))

    sets = list(recording.framesets())
    keys = sorted(key(f.stream, f.frame_number, f.get_data()) for s in sets for f in s)
    assert keys == sorted((f["stream"], f["frame_number"], f["sha256"]) for f in theirs), \
        "every frame of every piece in one frameset"
    # Each moment's depth frame with the gyro sample recorded with it,
    # the cuts too.
    pairs = [(s.get_depth_frame().frame_number, [f.frame_number for f in s if f.stream == "Gyro"])
             for s in sets if s.get_depth_frame() is not None]
    assert pairs == [(n, [n]) for n in range(1, 3 * PER_PIECE + 1)]
    # Within the first piece, the framesets of the first piece alone.
    first = rsbag.open(str(pieces[0]))
    alone = [[(f.stream, f.frame_number) for f in s] for s in first.framesets()]
    within = [[(f.stream, f.frame_number) for f in s]
              for s in recording.framesets(end=first.duration + 1e-6)]
    assert within == alone
