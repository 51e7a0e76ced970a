"""The rsbag Python package against the real librealsense: every frame
rsbag reads equals what pyrealsense2 plays (2.55 for .bag, 2.59 for .db3),
bytes, numbers, timestamps and metadata; the device description equals
pyrealsense2's; numpy views share the frame's memory (references.py says
how the judges run).
"""

import hashlib
import json
import struct
import subprocess

import numpy as np
import pytest

import rsbag
from references import (BAGS, DB3, PYTHON_255, PYTHON_259, ROOT, SAMPLES, in_judge_order, judge,
                        judge_line, played)


def ours(path, metadata=False):
    """rsbag's frames in rs_play.py's shape and order."""
    lines = []
    for frame in rsbag.open(path).frames():
        line = judge_line(frame)
        if metadata:
            line["metadata"] = frame.metadata
        lines.append(line)
    return in_judge_order(lines)


@pytest.mark.parametrize("name", BAGS)
def test_every_frame_equals_what_librealsense_255_plays(name):
    path = SAMPLES / name
    theirs = played(PYTHON_255, path)
    assert len(theirs) > 0
    assert ours(path) == theirs


@pytest.mark.parametrize("name", ["rec259_dc.db3", "rec259_dc_raw.db3", "rec259_imu.db3"])
def test_every_db3_frame_equals_what_librealsense_259_plays(name):
    path = DB3 / name
    theirs = played(PYTHON_259, path)
    assert len(theirs) > 0
    assert ours(path) == theirs


def test_metadata_equals_what_librealsense_plays():
    path = SAMPLES / "librealsense-metadata-lz4.bag"
    theirs = played(PYTHON_255, path, metadata=True)
    assert all(len(f["metadata"]) > 1 for f in theirs)
    assert ours(path, metadata=True) == theirs


def test_the_device_is_what_librealsense_sees():
    path = SAMPLES / "librealsense-depth-color-lz4.bag"
    theirs = json.loads(judge(PYTHON_255, str(path), "--device-json"))
    recording = rsbag.open(path)
    assert recording.info == theirs["camera_info"]
    assert len(recording.sensors) == len(theirs["sensors"])
    for sensor, their in zip(recording.sensors, theirs["sensors"]):
        assert sensor["name"] == their["name"]
        assert sensor["info"] == their["camera_info"]
        values = {o["name"]: o["value"] for o in sensor["options"]}
        for option in their["options"]:
            assert values[option["option"]] == pytest.approx(option["value"])
        for profile, their_profile in zip(sensor["profiles"], their["profiles"]):
            for key in ("stream", "index", "format", "fps", "width", "height"):
                assert profile[key] == their_profile[key], key
            ours_i, theirs_i = profile["intrinsics"], their_profile["intrinsics"]
            assert ours_i["model"] == theirs_i["model"]
            for key in ("ppx", "ppy", "fx", "fy"):
                assert ours_i[key] == pytest.approx(theirs_i[key])
            assert ours_i["coeffs"] == pytest.approx(theirs_i["coeffs"])
    depth_to_color = next(e for e in theirs["extrinsics"]
                          if ":Depth_0:" in e["from"] and ":Color_0:" in e["to"])
    e = recording.extrinsics("Depth", "Color")
    assert e["rotation"] == pytest.approx(depth_to_color["rotation"])
    assert e["translation"] == pytest.approx(depth_to_color["translation"])


def test_numpy_views_share_the_frames_memory():
    recording = rsbag.open(SAMPLES / "librealsense-stereo-none.bag")
    for frame in recording.frames():
        array = frame.as_array()
        width, height = frame.size
        expected_dtype = np.uint16 if frame.format == "Z16" else np.uint8
        assert array.dtype == expected_dtype
        assert array.shape == (height, width)
        # No copy: the array does not own its data, which is the frame's,
        # and two views of the frame are the same memory.
        assert not array.flags.owndata
        assert not array.flags.writeable
        assert np.shares_memory(array, frame.as_array())
        rows = np.frombuffer(frame.get_data(), dtype=expected_dtype)
        assert np.array_equal(array.reshape(-1), rows[: width * height])


def test_arrays_are_shaped_by_format():
    color = rsbag.open(SAMPLES / "librealsense-depth-color-lz4.bag").frame("Color", 0)
    width, height = color.size
    assert color.as_array().shape == (height, width, 3)
    assert color.as_array().tobytes() == color.get_data()
    gyro = rsbag.open(SAMPLES / "librealsense-motion-lz4.bag").frame("Gyro", 0)
    sample = gyro.as_array()
    assert sample.dtype == np.float32 and sample.shape == (3,)
    assert tuple(sample) == struct.unpack("<3f", gyro.get_data()[:12])


def test_random_access_gives_the_frames_iteration_gives():
    recording = rsbag.open(SAMPLES / "librealsense-depth-color-lz4.bag")
    depth = [f for f in recording.frames(streams=["Depth"])]
    assert len(depth) == recording.frame_count("Depth")
    for k, frame in enumerate(depth):
        again = recording.frame("Depth", k)
        assert (again.frame_number, again.get_data()) == (frame.frame_number, frame.get_data())
    # A time window: frames from 0.1 s after the first on.
    later = list(recording.frames(streams=["Depth"], start=0.1))
    assert [f.frame_number for f in later] == [f.frame_number for f in depth if f.time >= 0.1]


def test_bad_input_raises_an_exception_of_its_kind(tmp_path):
    with pytest.raises(rsbag.IoError, match="missing.bag"):
        rsbag.open(tmp_path / "missing.bag")
    not_a_bag = tmp_path / "notes.bag"
    not_a_bag.write_text("hello")
    with pytest.raises(rsbag.WrongFormatError):
        rsbag.open(not_a_bag)
    recording = rsbag.open(SAMPLES / "librealsense-depth-color-lz4.bag")
    with pytest.raises(rsbag.InvalidArgumentError, match="Fisheye"):
        recording.frame_count("Fisheye")
    with pytest.raises(rsbag.InvalidArgumentError):
        recording.frame("Depth", 10_000)
    with pytest.raises(rsbag.InvalidArgumentError):
        recording.frames(start=-1.0)
    assert issubclass(rsbag.DamagedError, rsbag.Error)


def test_a_camera_bag_recorded_from_ros_reads_too(tmp_path):
    bag = tmp_path / "wrapper.bag"
    written = json.loads(subprocess.run(
        [PYTHON_255, str(ROOT / "tests/interop/ros_camera_bag.py"), str(bag), "--format", "ros1"],
        check=True, capture_output=True, text=True).stdout)
    recording = rsbag.open(bag)
    assert recording.is_camera_bag
    color = written["streams"]["/camera/color/image_raw"]["frames"]
    frames = list(recording.frames(streams=["Color"]))
    assert [hashlib.sha256(f.get_data()).hexdigest() for f in frames] == [c["sha256"] for c in color]
    assert [f.frame_number for f in frames] == list(range(1, len(color) + 1))


def test_framesets_hold_every_frame_once_and_pair_depth_with_color():
    recording = rsbag.open(SAMPLES / "librealsense-depth-color-lz4.bag")
    sets = list(recording.framesets())
    seen = [(f.stream_name, f.frame_number) for s in sets for f in s.frames]
    everything = [(f.stream_name, f.frame_number) for f in recording.frames()]
    assert sorted(seen) == sorted(everything) and len(seen) == len(set(seen))
    # 30 fps each, recorded together: every frameset holds both, with
    # timestamps within half a frame interval.
    for s in sets:
        depth, color = s.get("Depth"), s.get("Color")
        assert depth is not None and color is not None
        assert abs(depth.timestamp - color.timestamp) < 500 / 30
        assert s.timestamp == min(depth.timestamp, color.timestamp)


def test_frames_by_number_and_nearest_a_time():
    recording = rsbag.open(SAMPLES / "librealsense-depth-color-lz4.bag")
    frames = list(recording.frames(streams=["Color"]))
    for frame in frames:
        again = recording.frame_by_number("Color", frame.frame_number)
        assert again.get_data() == frame.get_data()
        nearest = recording.frame_at("Color", frame.time)
        assert nearest.frame_number == frame.frame_number
    assert recording.frame_by_number("Color", 10_000) is None


def test_info_and_check_are_the_tools_reports():
    path = SAMPLES / "librealsense-depth-color-lz4.bag"
    summary = rsbag.info(path)
    assert summary["format"] == "bag"
    names = [s["name"] for s in summary["realsense"]["sensors"]]
    assert names == [s["name"] for s in rsbag.open(path).sensors]
    report = rsbag.check(path)
    assert report["damage"] == [] and not report["scanned"]
    played = played_counts(PYTHON_255, path)
    assert {k: v["frames"] for k, v in report["streams"].items()} == played
    assert all(v["dropped"] == 0 and v["findings"] == [] for v in report["streams"].values())


def played_counts(python, path):
    counts = {}
    for frame in played(python, path):
        name = (frame["stream"] if frame["stream_index"] == 0
                else f'{frame["stream"]} {frame["stream_index"]}')
        counts[name] = counts.get(name, 0) + 1
    return counts


# How far a JPEG sample decoded by rsbag (zune-jpeg) may be from OpenCV's
# (libjpeg-turbo) decode of the same bytes: both are conforming decoders
# that upsample 4:2:0 chroma each in its own way (measured at most 7 on
# these 32x24 frames; cli/tests/ros_camera_bags.rs's JPEG_DECODERS_DIFFER_BY).
JPEG_DECODERS_DIFFER_BY = 8


@pytest.mark.parametrize("storage, codecs", [
    ("sqlite3", ["--color-codec", "png", "--depth-codec", "rvl"]),
    ("mcap", ["--color-codec", "jpeg", "--depth-codec", "png"]),
])
def test_compressed_camera_bags_decode_as_the_plugins_subscribers_do(tmp_path, storage, codecs):
    """image_transport's compressed topics (written with OpenCV as its
    plugins write them, tests/interop/ros_camera_bag.py) read as frames
    whose pixels are the plugin subscriber's decode: depth and PNG bit for
    bit, JPEG within what two conforming decoders differ."""
    bag, reference = tmp_path / "compressed", tmp_path / "reference"
    written = json.loads(subprocess.run(
        [PYTHON_255, str(ROOT / "tests/interop/ros_camera_bag.py"), str(bag), "--format", storage,
         "--scenario", "compressed", *codecs, "--reference", str(reference)],
        check=True, capture_output=True, text=True).stdout)
    recording = rsbag.open(bag)
    assert recording.is_camera_bag
    streams = {"color": "Color", "depth": "Depth", "infra1": "Infrared 1", "infra2": "Infrared 2"}
    checked = 0
    for topic, stream in written["streams"].items():
        folder = topic.split("/")[-3]
        frames = list(recording.frames(streams=[streams[folder]]))
        assert len(frames) == len(stream["frames"]), topic
        want = np.fromfile(reference / f"{folder}.raw", np.uint8).reshape(len(frames), -1)
        for frame, theirs in zip(frames, want):
            ours = np.frombuffer(frame.get_data(), np.uint8)
            assert ours.shape == theirs.shape, topic
            if stream["codec"] == "jpeg":
                worst = np.abs(ours.astype(np.int16) - theirs.astype(np.int16)).max()
                assert worst <= JPEG_DECODERS_DIFFER_BY, f"{topic}: {worst}"
            else:
                assert np.array_equal(ours, theirs), topic
            checked += 1
    assert checked == sum(len(s["frames"]) for s in written["streams"].values()) > 0
