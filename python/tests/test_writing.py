"""rsbag.Writer: recordings written from numpy frames play in the real
librealsense (2.55 for .bag, 2.59 for .db3) with every frame, bytes,
numbers and timestamps as written."""

import hashlib
import json

import numpy as np
import pytest

import rsbag
from references import PYTHON_255, PYTHON_259, judge, played


def frames_to_write():
    rng = np.random.default_rng(3)
    for n in range(1, 11):
        depth = rng.integers(0, 4000, (48, 64), dtype=np.uint16)
        color = rng.integers(0, 256, (48, 64, 3), dtype=np.uint8)
        yield n, 1000.0 + (n - 1) * 33.25, depth, color


def write(path):
    with rsbag.Writer(path, info={"Name": "numpy camera", "Serial Number": "42"}) as w:
        assert w.add_video_stream("Depth", "Z16", 64, 48, 30, sensor="Stereo Module",
                                  depth_units=0.001,
                                  intrinsics={"fx": 60.0, "fy": 61.0, "ppx": 32.0, "ppy": 24.0,
                                              "model": "Brown Conrady",
                                              "coeffs": [0.1, 0.0, 0.0, 0.0, 0.0]}) == "Depth"
        w.add_video_stream("Color", "RGB8", 64, 48, 30, sensor="RGB Camera")
        w.add_motion_stream("Gyro", 200)
        written = []
        for n, ts, depth, color in frames_to_write():
            w.write("Depth", depth, ts, n, metadata={"Frame Counter": n})
            w.write("Color", color, ts + 0.5, n)
            gyro = np.array([0.01 * n, -0.02, 0.03], dtype=np.float32)
            w.write("Gyro", gyro, ts + 0.25, n)
            written += [("Depth", n, ts, depth.tobytes()), ("Color", n, ts + 0.5, color.tobytes()),
                        ("Gyro", n, ts + 0.25, gyro.tobytes())]
    return written


@pytest.mark.parametrize("suffix,python", [(".bag", PYTHON_255), (".db3", PYTHON_259)])
def test_numpy_frames_play_in_librealsense(tmp_path, suffix, python):
    path = tmp_path / f"numpy{suffix}"
    written = write(path)
    assert path.exists() and not (tmp_path / f"numpy{suffix}.partial").exists()
    theirs = played(python, path)
    expected = sorted(
        ({"stream": s, "stream_index": 0, "frame_number": n, "size": len(data),
          "sha256": hashlib.sha256(data).hexdigest()} for s, n, _, data in written),
        key=lambda f: (f["stream"], f["frame_number"]))
    assert [{k: f[k] for k in ("stream", "stream_index", "frame_number", "size", "sha256")}
            for f in theirs] == expected
    times = {(s, n): ts for s, n, ts, _ in written}
    for f in theirs:
        assert f["timestamp"] == pytest.approx(times[(f["stream"], f["frame_number"])], abs=1e-6)
        assert f["domain"] == "Hardware Clock"
    device = json.loads(judge(python, path, "--device-json"))
    assert device["camera_info"]["Name"] == "numpy camera"
    assert [s["name"] for s in device["sensors"]] == ["Stereo Module", "RGB Camera", "Motion Module"]
    depth_profile = device["sensors"][0]["profiles"][0]
    assert depth_profile["intrinsics"]["fx"] == pytest.approx(60.0)
    units = {o["option"]: o["value"] for o in device["sensors"][0]["options"]}
    assert units["Depth Units"] == pytest.approx(0.001)


def test_bad_frames_are_refused_and_an_error_leaves_no_file(tmp_path):
    path = tmp_path / "bad.bag"
    with pytest.raises(rsbag.InvalidArgumentError, match="bytes"):
        with rsbag.Writer(path) as w:
            w.add_video_stream("Depth", "Z16", 64, 48, 30)
            w.write("Depth", np.zeros((48, 64), np.uint16), 1.0, 1)
            w.write("Depth", np.zeros((48, 63), np.uint16), 2.0, 2)
    assert list(tmp_path.iterdir()) == []
    with rsbag.Writer(path) as w:
        with pytest.raises(rsbag.InvalidArgumentError, match="no stream"):
            w.write("Color", b"", 1.0, 1)
    existing = tmp_path / "existing.bag"
    existing.write_bytes(b"mine")
    with pytest.raises(rsbag.IoError, match="exists"):
        rsbag.Writer(existing)
    assert existing.read_bytes() == b"mine"


def test_threads_write_and_read_one_file_at_once(tmp_path):
    """Locks are taken without the GIL: threads sharing a writer (or an
    iterator) never wait for each other's lock while holding it."""
    import threading

    path = tmp_path / "threads.bag"
    names = ["Infrared 1", "Infrared 2", "Infrared 3", "Infrared 4"]
    with rsbag.Writer(path) as w:
        for k in range(1, 5):
            w.add_video_stream("Infrared", "Y8", 320, 240, 30, index=k)

        def feed(name):
            for n in range(1, 51):
                w.write(name, np.full((240, 320), n, np.uint8), 1000.0 + n * 33.3, n)

        threads = [threading.Thread(target=feed, args=(name,)) for name in names]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
            assert not t.is_alive(), "a writing thread is stuck"
    frames = rsbag.open(path).frames()
    seen = []

    def drain():
        for frame in frames:
            seen.append((frame.stream_name, frame.frame_number))

    readers = [threading.Thread(target=drain) for _ in range(3)]
    for t in readers:
        t.start()
    for t in readers:
        t.join(60)
        assert not t.is_alive(), "a reading thread is stuck"
    assert sorted(seen) == sorted((name, n) for name in names for n in range(1, 51))


@pytest.mark.parametrize("suffix", [".bag", ".db3"])
def test_option_changes_play_in_librealsense_at_their_frame(tmp_path, suffix):
    path = tmp_path / f"options{suffix}"
    with rsbag.Writer(path) as w:
        w.add_video_stream("Depth", "Z16", 8, 4, 30, sensor="Stereo Module", depth_units=0.001)
        w.add_option("Stereo Module", "Exposure", 100.0, min=1.0, max=1000.0)
        w.add_option("Stereo Module", "Gain", 16.0, min=16.0, max=248.0)
        w.set_option("Stereo Module", "Gain", 32.0)       # before any frame: the start value
        for n in range(1, 11):
            if n == 6:
                w.set_option("Stereo Module", "Exposure", 250.0)   # after frame 5
            w.write("Depth", bytes(64), 1000.0 + 33.3 * n, n)
        with pytest.raises(rsbag.InvalidArgumentError, match="add_option"):
            w.set_option("Stereo Module", "Laser Power", 1.0)
        with pytest.raises(rsbag.InvalidArgumentError, match="no sensor"):
            w.set_option("RGB Camera", "Exposure", 1.0)
    python = PYTHON_255 if suffix == ".bag" else PYTHON_259
    frames = [json.loads(line) for line in judge(python, str(path), "--options").splitlines()]
    assert [f["options"]["Exposure"] for f in frames] == [100.0] * 5 + [250.0] * 5
    assert all(f["options"]["Gain"] == 32.0 for f in frames)
