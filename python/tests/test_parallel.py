"""rsbag.parallel with Dask: a folder of recordings processed in work
items on threads and on processes gives exactly what one loop over the
files gives."""

import hashlib

import pytest

import rsbag
import rsbag.parallel
from references import DB3, SAMPLES

FOLDER = sorted(SAMPLES.glob("*.bag")) + sorted(DB3.glob("*.db3"))


def digest(frame):
    return (frame.stream_name, frame.frame_number, frame.timestamp,
            hashlib.sha256(frame.get_data()).hexdigest())


def single_process():
    return [digest(f) for path in FOLDER for f in rsbag.open(path).frames()]


@pytest.mark.parametrize("scheduler", ["threads", "processes"])
@pytest.mark.parametrize("seconds", [None, 0.05])
def test_dask_gives_what_one_loop_gives(scheduler, seconds):
    items = rsbag.parallel.work_items(FOLDER, seconds=seconds)
    if seconds:
        assert len(items) > len(FOLDER)  # files split into time windows
    result = rsbag.parallel.map_frames(items, digest).compute(scheduler=scheduler)
    assert result == single_process()


def test_work_items_cover_a_recording_without_overlap():
    path = SAMPLES / "librealsense-depth-color-lz4.bag"
    items = rsbag.parallel.work_items([path], streams=["Depth"], seconds=0.1)
    numbers = [f.frame_number for item in items for f in rsbag.parallel.read_item(item)]
    assert numbers == [f.frame_number for f in rsbag.open(path).frames(streams=["Depth"])]
    assert all(item["streams"] == ["Depth"] for item in items)
