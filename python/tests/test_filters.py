"""rsbag.filters against the real librealsense 2.55: a depth recording it
writes (tests/interop/rs_filters.py record: noise, holes, motion), the
same filters run by pyrealsense2 over its frames in recorded order
(rs_filters.py process, in the 2.55 interpreter), and rsbag's frames
compared byte for byte, with their format, size and intrinsics: one
filter at a time with `.process(frame)`, and a chain on reading with
`recording.frames(filters=...)`.
"""

import subprocess

import numpy as np
import pytest

import rsbag
from rsbag import filters
from references import PYTHON_255, ROOT

SCRIPT = str(ROOT / "tests/interop/rs_filters.py")

CHAIN = ["decimation:magnitude=3", "depth-to-disparity", "spatial:alpha=0.6,delta=8",
         "temporal:persistence=2", "disparity-to-depth", "hole-filling:mode=2"]


def objects():
    return [filters.Decimation(magnitude=3), filters.DepthToDisparity(),
            filters.Spatial(alpha=0.6, delta=8), filters.Temporal(persistence=2),
            filters.DisparityToDepth(), filters.HoleFilling(mode=2)]


@pytest.fixture(scope="module")
def recording(tmp_path_factory):
    bag = tmp_path_factory.mktemp("filters") / "depth.bag"
    subprocess.run([PYTHON_255, SCRIPT, "record", str(bag), "--frames", "15"], check=True)
    return bag


def reference(bag, specs, out):
    args = [a for spec in specs for a in ("--filter", spec)]
    subprocess.run([PYTHON_255, SCRIPT, "process", str(bag), str(out), *args],
                   check=True, capture_output=True)
    data = np.load(out)
    k = 0
    while f"f{k}_number" in data:
        yield {key: data[f"f{k}_{key}"] for key in ("number", "data", "format", "size")}
        k += 1


def check(frames, want):
    got = list(frames)
    want = list(want)
    assert len(got) == len(want) > 0
    for frame, ref in zip(got, want):
        assert frame.frame_number == int(ref["number"])
        assert frame.size == tuple(int(v) for v in ref["size"])
        assert frame.format == ("Z16", "DISPARITY32", "RGB8")[int(ref["format"])]
        assert frame.as_array().tobytes() == ref["data"].tobytes(), f"frame #{frame.frame_number}"


def test_a_chain_on_reading_equals_librealsense(recording, tmp_path):
    opened = rsbag.open(str(recording))
    check(opened.frames(streams=["Depth"], filters=objects()),
          reference(recording, CHAIN, tmp_path / "ref.npz"))


def test_filters_one_frame_at_a_time_equal_librealsense(recording, tmp_path):
    opened = rsbag.open(str(recording))
    chain = objects()

    def filtered():
        for frame in opened.frames(streams=["Depth"]):
            for f in chain:
                frame = f.process(frame)
            yield frame

    check(filtered(), reference(recording, CHAIN, tmp_path / "ref.npz"))
    # Disparity comes out as float32.
    disparity = filters.DepthToDisparity().process(next(iter(opened.frames(streams=["Depth"]))))
    assert disparity.format == "DISPARITY32"
    assert disparity.as_array().dtype == np.float32


def test_a_session_filters_each_camera_as_librealsense_filters_its_file(recording, tmp_path):
    """Two cameras' depth frames read as one session: each camera's
    frames come through a chain of its own, as librealsense filters each
    file alone, however the session interleaves them."""
    other = tmp_path / "other.bag"
    subprocess.run([PYTHON_255, SCRIPT, "record", str(other), "--frames", "12",
                    "--size", "64x48"], check=True)
    session = rsbag.open_session([str(recording), str(other)])
    read = [(item.file, item.frame) for item in session.frames(streams=["Depth"],
                                                                   filters=objects())]
    files = [file for file, _ in read]
    assert sum(1 for a, b in zip(files, files[1:]) if a != b) > 10, "interleaved"
    check((f for file, f in read if file == str(recording)),
          reference(recording, CHAIN, tmp_path / "first.npz"))
    check((f for file, f in read if file == str(other)),
          reference(other, CHAIN, tmp_path / "other.npz"))
    # Grouped by moment: the sets the frames make unfiltered (which of the
    # other camera's frames join one depends on when librealsense's
    # recorder received them), each camera's frames filtered as
    # librealsense filters its file alone.
    sets = list(session.framesets(streams=["Depth"], filters=objects()))
    grouped = [(item.file, item.frame) for s in sets for item in s.frames]
    plain = [[(item.file, item.frame.frame_number) for item in s.frames]
             for s in session.framesets(streams=["Depth"])]
    assert [[(item.file, item.frame.frame_number) for item in s.frames] for s in sets] == plain
    assert len(sets) == 15
    for bag, name in ((recording, "first-sets.npz"), (other, "other-sets.npz")):
        mine = [f for file, f in grouped if file == str(bag)]
        numbers = {f.frame_number for f in mine}
        check(mine, (r for r in reference(bag, CHAIN, tmp_path / name)
                     if int(r["number"]) in numbers))


COLORIZED = ["threshold:min=0.3,max=3", "spatial",
             "colorizer:color-scheme=2,min=0.3,max=2.9"]


def test_a_colorized_chain_equals_librealsense(recording, tmp_path):
    opened = rsbag.open(str(recording))
    chain = [filters.Threshold(min=0.3, max=3), filters.Spatial(),
             filters.Colorizer(color_scheme=2, min=0.3, max=2.9)]
    want = list(reference(recording, COLORIZED, tmp_path / "ref.npz"))
    check(opened.frames(streams=["Depth"], filters=chain), want)
    # One frame at a time, with equalization (the default) and disparity.
    colorizer = filters.Colorizer()
    depth = next(iter(opened.frames(streams=["Depth"])))
    picture = colorizer.process(depth)
    assert picture.format == "RGB8"
    assert picture.as_array().shape == (depth.size[1], depth.size[0], 3)
    assert picture.as_array().dtype == np.uint8
    ref = next(reference(recording, ["colorizer"], tmp_path / "plain.npz"))
    assert picture.as_array().tobytes() == ref["data"].tobytes()
    disparity = filters.DepthToDisparity().process(filters.Threshold().process(depth))
    ref = next(reference(recording, ["threshold", "depth-to-disparity", "colorizer:color-scheme=4"],
                         tmp_path / "disparity.npz"))
    assert (filters.Colorizer(color_scheme=4).process(disparity).as_array().tobytes()
            == ref["data"].tobytes())


def test_the_colorizer_ends_a_chain_and_checks_its_options(recording):
    with pytest.raises(rsbag.InvalidArgumentError, match="colorizer must end the chain"):
        next(iter(rsbag.open(str(recording)).frames(
            streams=["Depth"], filters=[filters.Colorizer(), filters.Spatial()])))
    with pytest.raises(rsbag.InvalidArgumentError,
                       match="color-scheme must be a whole number from 0 to 9"):
        filters.Colorizer(color_scheme=10)
    assert filters.Colorizer(max=2.5).options["max"] == pytest.approx(2.5)


def test_options_and_bad_values():
    spatial = filters.Spatial(alpha=0.6)
    assert spatial.options == pytest.approx({"alpha": 0.6, "delta": 20, "magnitude": 2,
                                             "holes-fill": 0})
    assert filters.Threshold().options == pytest.approx({"min": 0.15, "max": 4.0})
    with pytest.raises(rsbag.InvalidArgumentError, match="option alpha must be a number from 0.25 to 1"):
        filters.Spatial(alpha=0.2)
    with pytest.raises(rsbag.InvalidArgumentError, match="magnitude must be a whole number from 1 to 8"):
        filters.Decimation(magnitude=9)
    with pytest.raises(rsbag.InvalidArgumentError, match="unknown filter"):
        rsbag.Filter("median")
    with pytest.raises(TypeError):
        next(iter(rsbag.open(str(ROOT / "sample_bags/librealsense-depth-color-lz4.bag"))
                  .frames(filters=["spatial"])))
