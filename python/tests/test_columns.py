"""Recording.columns: a stream's frames as numpy arrays in one call hold
what the frames hold one by one, and what pyrealsense2 plays from a
librealsense-written recording (2.55 for .bag, 2.59 for .db3) (numbers, timestamps, domains, metadata,
the IMU samples' bytes)."""

import hashlib

import numpy as np
import pytest

import rsbag
from references import DB3, PYTHON_255, PYTHON_259, SAMPLES, as_recorded, played

DOMAINS = ["Hardware Clock", "System Time", "Global Time"]


def metadata_of(columns, row):
    """Frame `row`'s metadata from the columns: the keys it has."""
    out = {}
    for key, values in columns["metadata"].items():
        if not np.ma.is_masked(values[row]):
            out[key] = int(values[row])
    return out


@pytest.mark.parametrize("judge, path", [
    (PYTHON_255, SAMPLES / "librealsense-motion-lz4.bag"),
    (PYTHON_255, SAMPLES / "librealsense-metadata-lz4.bag"),
    (PYTHON_259, DB3 / "rec259_imu.db3"),
])
def test_columns_equal_what_librealsense_plays(judge, path):
    theirs = played(judge, path, metadata=True)
    recording = rsbag.open(path)
    checked = 0
    for stream in recording.streams:
        columns = recording.columns(stream)
        kind, _, index = stream.partition(" ")
        judged = [f for f in theirs
                  if f["stream"] == kind and f["stream_index"] == int(index or 0)]
        assert len(judged) == len(columns["frame_number"]) > 0
        # rs_play.py lists a stream's frames by frame number, ties as played.
        rows = sorted(range(len(judged)), key=lambda r: int(columns["frame_number"][r]))
        for row, frame in zip(rows, judged):
            assert int(columns["frame_number"][row]) == frame["frame_number"]
            assert as_recorded(float(columns["timestamp"][row])) == frame["timestamp"]
            assert DOMAINS[columns["domain"][row]] == frame["domain"]
            # librealsense reports "Frame Counter" 0 where a frame
            # recorded none: 2.55 for a frame without metadata
            # (tests/interop/rs_play.py), 2.59 for every frame
            # (cli/tests/interop_db3.rs).
            ours = metadata_of(columns, row)
            if judge == PYTHON_259 or not ours:
                ours.setdefault("Frame Counter", 0)
            assert ours == frame["metadata"]
            if columns["data"] is not None:
                sample = columns["data"][row].tobytes()
                assert (len(sample), hashlib.sha256(sample).hexdigest()) == (
                    frame["size"], frame["sha256"])
            checked += 1
    assert checked == sum(1 for _ in theirs)


@pytest.mark.parametrize("stream", ["Depth", "Color", "Gyro", "Accel"])
def test_columns_hold_what_the_frames_hold_over_a_time_range(stream):
    recording = rsbag.open(SAMPLES / "rsbag-synthetic-lz4.bag")
    start, end = 0.1, 0.6
    frames = list(recording.frames(streams=[stream], start=start, end=end))
    columns = recording.columns(stream, start=start, end=end)
    assert len(frames) > 2
    assert columns["index"].tolist() == [f.index for f in frames]
    assert columns["frame_number"].tolist() == [f.frame_number for f in frames]
    assert columns["timestamp"].tolist() == [f.timestamp for f in frames]
    assert columns["system_time"].tolist() == [f.system_time for f in frames]
    assert columns["time"].tolist() == [f.time for f in frames]
    assert [DOMAINS[d] for d in columns["domain"]] == [f.domain for f in frames]
    assert [metadata_of(columns, r) for r in range(len(frames))] == [f.metadata for f in frames]
    if stream in ("Gyro", "Accel"):
        assert columns["data"].dtype == np.float32 and columns["data"].shape == (len(frames), 3)
        assert np.array_equal(columns["data"], np.stack([f.as_array() for f in frames]))
    else:
        assert columns["data"] is None
    # duration= is end - start, as for frames().
    again = recording.columns(stream, start=start, duration=end - start)
    assert again["index"].tolist() == columns["index"].tolist()


def test_columns_of_an_empty_range_are_empty_arrays():
    recording = rsbag.open(SAMPLES / "rsbag-synthetic-lz4.bag")
    columns = recording.columns("Gyro", start=recording.duration + 1)
    assert columns["index"].shape == (0,) and columns["data"].shape == (0, 3)


def test_columns_come_from_one_stream():
    recording = rsbag.open(SAMPLES / "librealsense-stereo-none.bag")
    with pytest.raises(rsbag.InvalidArgumentError, match="stands for 2 streams"):
        recording.columns("Infrared")
    with pytest.raises(rsbag.InvalidArgumentError, match="no stream"):
        recording.columns("Pose")
