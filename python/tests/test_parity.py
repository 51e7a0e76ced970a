"""Parity with pyrealsense2 (issue 32): what its users write works, or
says clearly why not. FrameSet as composite_frame, wait_for_frames in
milliseconds, __version__, Writer.write's dtype and shape, the extras'
ImportErrors, and the command-line tool's warnings and hints."""

import importlib.metadata
import re
import shutil
import sys
import threading
import time
import warnings

import numpy as np
import pytest

import rsbag
import rsbag.parallel
from references import ROOT, SAMPLES

DEPTH_COLOR = SAMPLES / "librealsense-depth-color-lz4.bag"
STEREO = SAMPLES / "librealsense-stereo-none.bag"
SYNTHETIC = SAMPLES / "rsbag-synthetic-lz4.bag"


def first_set(path):
    return next(iter(rsbag.open(path).framesets()))


# FrameSet: iterable, len(), indexable by position and stream name.

def test_a_frameset_iterates_its_frames_and_has_a_length():
    frames = first_set(STEREO)
    names = [f.stream_name for f in frames]
    assert names == ["Depth", "Infrared 1", "Infrared 2"]
    assert len(frames) == frames.size() == 3
    assert [f.stream_name for f in frames.frames] == names


def test_a_frameset_is_indexed_by_position_and_by_stream_name():
    frames = first_set(STEREO)
    assert frames[0].stream_name == "Depth"
    assert frames[-1].stream_name == "Infrared 2"
    assert frames[-3].stream_name == "Depth"
    assert [f.stream_name for f in frames[1:]] == ["Infrared 1", "Infrared 2"]
    for bad in (3, -4):
        with pytest.raises(IndexError, match="3 frames"):
            frames[bad]
    assert frames["Depth"].stream_name == "Depth"
    assert frames["infrared 2"].stream_name == "Infrared 2"
    assert frames["DEPTH"].get_data() == frames[0].get_data()
    with pytest.raises(KeyError, match="Depth, Infrared 1, Infrared 2"):
        frames["Color"]
    with pytest.raises(TypeError):
        frames[1.5]
    assert "Depth" in frames and "depth" in frames and "Color" not in frames


def test_a_frameset_has_pyrealsense2s_getters_and_none_for_an_absent_stream():
    stereo = first_set(STEREO)
    assert stereo.get_depth_frame().format == "Z16"
    assert stereo.get_color_frame() is None
    assert stereo.get_infrared_frame().stream_name == "Infrared 1"
    assert stereo.get_infrared_frame(0).stream_name == "Infrared 1"
    assert stereo.get_infrared_frame(2).stream_name == "Infrared 2"
    assert stereo.get_infrared_frame(index=1).stream_name == "Infrared 1"
    assert stereo.get_infrared_frame(3) is None
    color = first_set(DEPTH_COLOR)
    assert color.get_color_frame().format == "RGB8"
    assert color.get_infrared_frame() is None
    # Many IMU samples in one frameset: the name gives the first, as
    # pyrealsense2's first_or_default does.
    synthetic = first_set(SYNTHETIC)
    gyros = [f for f in synthetic if f.stream == "Gyro"]
    assert len(gyros) > 1
    assert synthetic["Gyro"].frame_number == gyros[0].frame_number


def test_a_pipelines_framesets_index_as_a_recordings_do():
    with rsbag.Pipeline(DEPTH_COLOR) as pipeline:
        frames = pipeline.wait_for_frames()
        assert {f.stream for f in frames} <= {"Depth", "Color"}
        assert frames[0].stream_name == frames.frames[0].stream_name
        if frames.get_depth_frame() is not None:
            assert frames["Depth"].frame_number == frames.get_depth_frame().frame_number


# Pipeline.wait_for_frames: milliseconds, as pyrealsense2.

def test_wait_for_frames_takes_milliseconds_and_times_out_as_pyrealsense2():
    # Room for one frame: the playback waits for the consumer, so it cannot
    # read this 0.3 s recording to its end (after which a wait raises that
    # it ended, not a timeout) before the pause, however the threads are
    # scheduled.
    with rsbag.Pipeline(DEPTH_COLOR, queue_size=1) as pipeline:
        pipeline.pause()
        # What was under way when it paused still comes, then nothing.
        start = time.monotonic()
        with pytest.raises(RuntimeError, match="^Frame didn't arrive within 300$") as raised:
            for _ in range(1000):
                pipeline.wait_for_frames(timeout_ms=300)
        assert time.monotonic() - start < 30
        assert isinstance(raised.value, TimeoutError)
        ok, frames = pipeline.try_wait_for_frames(100)
        assert (ok, frames) == (False, None)
        pipeline.resume()
        ok, frames = pipeline.try_wait_for_frames(timeout_ms=5000)
        assert ok and len(frames) > 0
        assert len(list(pipeline)) > 0
        assert pipeline.try_wait_for_frames(100) == (False, None)


def test_wait_for_frames_positional_timeout_is_milliseconds():
    # Room for one frame, so that the pause comes before the end (above).
    with rsbag.Pipeline(DEPTH_COLOR, queue_size=1) as pipeline:
        pipeline.pause()
        outcome = []

        def wait():
            try:
                while True:
                    pipeline.wait_for_frames(200)
            except BaseException as e:  # noqa: BLE001
                outcome.append(e)

        waiter = threading.Thread(target=wait, daemon=True)
        waiter.start()
        waiter.join(30)
        alive = waiter.is_alive()
        pipeline.stop()
        waiter.join(30)
        assert not alive, "wait_for_frames(200) waited more than 30 s"
        assert "within 200" in str(outcome[0])


# __version__

def test_the_package_has_a_version():
    cargo = (ROOT / "Cargo.toml").read_text()
    version = re.search(r'^\[workspace\.package\][^\[]*?^version = "([^"]+)"', cargo,
                        re.MULTILINE | re.DOTALL).group(1)
    assert rsbag.__version__ == version == importlib.metadata.version("rsbag")


# Writer.write: dtype and shape

@pytest.mark.parametrize("stream,fmt,good,bad,expected", [
    ("Depth", "Z16", np.zeros((48, 64), np.uint16), np.zeros((48, 32), np.float32),
     "uint16 array of shape (48, 64)"),
    ("Depth", "Z16", np.zeros((48, 64), np.uint16), np.zeros((64, 48), np.uint16),
     "uint16 array of shape (48, 64)"),
    ("Depth", "Z16", np.zeros((48, 64), np.uint16), np.zeros((48, 64), np.int16),
     "uint16 array of shape (48, 64)"),
    ("Color", "RGB8", np.zeros((48, 64, 3), np.uint8), np.zeros((48, 96), np.uint16),
     "uint8 array of shape (48, 64, 3)"),
    ("Color", "BGR8", np.zeros((48, 64, 3), np.uint8), np.zeros((48, 192), np.uint8),
     "uint8 array of shape (48, 64, 3)"),
    ("Infrared", "Y8", np.zeros((48, 64), np.uint8), np.zeros((24, 64), np.uint16),
     "uint8 array of shape (48, 64)"),
])
def test_write_checks_dtype_and_shape_against_the_format(tmp_path, stream, fmt, good, bad,
                                                          expected):
    with rsbag.Writer(tmp_path / "out.bag") as w:
        w.add_video_stream(stream, fmt, 64, 48, 30)
        assert good.nbytes == bad.nbytes     # the byte count alone cannot tell
        with pytest.raises(rsbag.InvalidArgumentError) as raised:
            w.write(stream, bad, 1.0, 1)
        message = str(raised.value)
        assert expected in message, message
        assert f"{bad.dtype} of shape {bad.shape}" in message, message
        w.write(stream, good, 1.0, 1)
        w.write(stream, good.tobytes(), 2.0, 2)     # bytes: the count is checked
        with pytest.raises(rsbag.InvalidArgumentError, match=f"{good.nbytes} bytes"):
            w.write(stream, good.tobytes()[1:], 3.0, 3)
    assert rsbag.open(tmp_path / "out.bag").frame_count(stream) == 2


def test_write_takes_a_motion_sample_as_three_floats(tmp_path):
    with rsbag.Writer(tmp_path / "imu.bag") as w:
        w.add_motion_stream("Gyro", 200)
        w.write("Gyro", np.array([1.0, 2.0, 3.0], np.float32), 1.0, 1)
        w.write("Gyro", [4.0, 5.0, 6.0], 2.0, 2)
        with pytest.raises(rsbag.InvalidArgumentError,
                           match=re.escape("float32 array of shape (3,)") + ".*float64 of shape"):
            w.write("Gyro", np.array([1.0, 2.0, 3.0]), 3.0, 3)
        with pytest.raises(rsbag.InvalidArgumentError, match=re.escape("(3,)")):
            w.write("Gyro", np.zeros((1, 3), np.float32), 3.0, 3)
        with pytest.raises(rsbag.InvalidArgumentError, match="3 floats"):
            w.write("Gyro", [1.0, 2.0], 3.0, 3)
    samples = [f.as_array().tolist() for f in rsbag.open(tmp_path / "imu.bag").frames()]
    assert samples == [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]


# Optional extras

def test_map_frames_without_dask_says_which_extra_to_install(monkeypatch):
    for name in [m for m in sys.modules if m == "dask" or m.startswith("dask.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "dask", None)
    monkeypatch.setitem(sys.modules, "dask.bag", None)
    items = rsbag.parallel.work_items([DEPTH_COLOR])
    with pytest.raises(ImportError, match=re.escape("pip install rsbag[dask]")):
        rsbag.parallel.map_frames(items, lambda frame: frame.frame_number)


def test_device_recorder_without_pyrealsense2_says_which_extra_to_install(monkeypatch,
                                                                           tmp_path):
    import rsbag.realsense

    monkeypatch.setitem(sys.modules, "pyrealsense2", None)
    with pytest.raises(ImportError, match=re.escape("pip install rsbag[realsense]")):
        rsbag.realsense.DeviceRecorder(tmp_path / "x.bag", device=None)
    assert list(tmp_path.iterdir()) == []


# The command-line tool's warnings and hints

def cut_off(tmp_path):
    """A recording cut off before its index was written."""
    data = DEPTH_COLOR.read_bytes()
    path = tmp_path / "cut.bag"
    path.write_bytes(data[: len(data) * 3 // 4])
    return path


def test_opening_a_bag_without_a_usable_index_warns(tmp_path):
    path = cut_off(tmp_path)
    with pytest.warns(rsbag.RsbagWarning, match=r"cut\.bag: no usable index.*rsbag reindex"):
        recording = rsbag.open(path)
    assert recording.frame_count("Depth") > 0
    with pytest.warns(rsbag.RsbagWarning, match="no usable index"):
        rsbag.Pipeline(path).stop()
    with pytest.warns(rsbag.RsbagWarning, match="no usable index"):
        rsbag.Playback(path).stop()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(rsbag.RsbagWarning):
            rsbag.open(path)
        rsbag.open(DEPTH_COLOR)        # an indexed bag: nothing to say



def with_bad_index_data(source, path, chunks):
    """A copy of `source` whose index data record right after each of the
    chunks numbered `chunks` (in file order) counts one entry more than it
    holds."""
    data = bytearray(source.read_bytes())
    pos, k = len(b"#ROSBAG V2.0\n"), 0
    while pos < len(data):
        header_len = int.from_bytes(data[pos:pos + 4], "little")
        header = bytes(data[pos + 4:pos + 4 + header_len])
        data_len = int.from_bytes(data[pos + 4 + header_len:pos + 8 + header_len], "little")
        end = pos + 8 + header_len + data_len
        if b"op=\x05" in header:  # a chunk: the record after it is its index data
            if k in chunks:
                next_len = int.from_bytes(data[end:end + 4], "little")
                at = data.index(b"count=", end + 4, end + 4 + next_len) + 6
                count = int.from_bytes(data[at:at + 4], "little")
                data[at:at + 4] = (count + 1).to_bytes(4, "little")
            k += 1
        pos = end
    assert k > max(chunks), f"{k} chunks"
    path.write_bytes(bytes(data))
    return path


def test_a_chunk_whose_index_data_is_damaged_is_read_whole_and_warned_of(tmp_path):
    import hashlib

    def frames(path):
        return [(f.stream, f.frame_number, hashlib.sha256(f.get_data()).hexdigest())
                for f in rsbag.open(path).frames()]

    intact = frames(SYNTHETIC)
    # The first chunk holds the description, read in opening.
    bad = with_bad_index_data(SYNTHETIC, tmp_path / "bad.bag", {0, 4})
    with pytest.warns(rsbag.RsbagWarning) as warned:
        assert frames(bad) == intact
    said = [str(w.message) for w in warned]
    assert len(said) == 2 and all(
        "bad.bag: corrupt index data record" in m and "read from its own records, none missing" in m
        for m in said), said
    with pytest.warns(rsbag.RsbagWarning, match="read from its own records"):
        session = rsbag.open_session([bad, SYNTHETIC])
        assert sum(1 for _ in session.frames()) == 2 * len(intact)
    # Played: a chunk past the first is met while playing, and warned of
    # once, when the recording ends.
    late = with_bad_index_data(SYNTHETIC, tmp_path / "late.bag", {4})
    expected = sorted((s, n) for s, n, _ in intact)

    def warned_once(said):
        messages = [str(w.message) for w in said]
        assert len(messages) == 1 and "late.bag: corrupt index data record" in messages[0], messages

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        pipeline = rsbag.Pipeline(late)
    with pytest.warns(rsbag.RsbagWarning) as said:
        played = sorted((f.stream, f.frame_number) for s in pipeline for f in s.frames)
    warned_once(said)
    assert played == expected
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        playback = rsbag.Playback(late, real_time=False)
    got = []
    playback.start(lambda f: got.append((f.stream, f.frame_number)))
    with pytest.warns(rsbag.RsbagWarning) as said:
        assert playback.wait_until_stopped(60)
    warned_once(said)
    assert sorted(got) == expected

def test_a_missing_file_whose_partial_exists_names_the_reindex(tmp_path):
    shutil.copy(DEPTH_COLOR, tmp_path / "session.bag.partial")
    hint = re.escape(f"but {tmp_path / 'session.bag.partial'} exists") + ".*" + \
        re.escape(f"`rsbag reindex {tmp_path / 'session.bag.partial'}` recovers it")
    for opener in (rsbag.open, rsbag.Playback, rsbag.Pipeline, rsbag.info):
        with pytest.raises(rsbag.IoError, match=hint):
            opener(tmp_path / "session.bag")
    with pytest.raises(rsbag.IoError) as raised:
        rsbag.open(tmp_path / "other.bag")
    assert "reindex" not in str(raised.value)


def test_seek_takes_seconds_or_a_timedelta_as_pyrealsense2s():
    import datetime

    first = rsbag.open(DEPTH_COLOR).frame("Depth", 0).timestamp
    for seek in (0.2, datetime.timedelta(milliseconds=200)):
        # Room for one frame: the playback waits for the consumer, so it
        # cannot read this 0.3 s recording to its end (after which seeking
        # is refused) before the seek, however the threads are scheduled.
        with rsbag.Pipeline(DEPTH_COLOR, queue_size=1) as pipeline:
            pipeline.seek(seek)
            frames = pipeline.wait_for_frames()
            assert min(f.timestamp for f in frames.frames) >= first + 150
    playback = rsbag.Playback(DEPTH_COLOR, real_time=False)
    playback.seek(datetime.timedelta(seconds=0.1))
    with pytest.raises(rsbag.InvalidArgumentError):
        playback.seek(datetime.timedelta(seconds=-1))


def test_a_time_range_is_given_as_on_the_command_line():
    """`start`/`duration` as the CLI's --start/--duration, or `start`/`end`."""
    rec = rsbag.open(SYNTHETIC)
    by_duration = [(f.stream, f.frame_number) for f in rec.frames(start=0.1, duration=0.2)]
    by_end = [(f.stream, f.frame_number) for f in rec.frames(start=0.1, end=0.3)]
    assert by_duration == by_end and by_duration
    with pytest.raises(rsbag.InvalidArgumentError, match="end or duration"):
        rec.frames(end=0.3, duration=0.2)
