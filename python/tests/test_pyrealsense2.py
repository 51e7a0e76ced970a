"""rsbag.pyrealsense2 against librealsense's pyrealsense2 2.55: each
script of pyrealsense2_corpus/ (pyrealsense2 code written from its
documented API and examples) runs twice on the same librealsense-written
recording, once with pyrealsense2 (in the judge's interpreter) and once
with `import pyrealsense2` meaning rsbag.pyrealsense2, and every result
must be the same: arrays and bytes exactly, numbers to 1e-6 relative,
strings (the enums' str(), reprs, errors' kinds) exactly.

The recordings: librealsense's reference depth and colour bag and motion
(accel and pose) bag in tests/fixtures, and what tests/interop records
with rs.software_device and rs.recorder: depth and colour with real
extrinsics and distortion (rs_process.py), depth with gyro and accel,
metadata, a stereo pair and HDR's two exposures (rs_record.py), and noisy
depth with a stereo baseline for the filters (rs_filters.py).
"""

import json
import math
import os
import pickle
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

from references import PYTHON_255, ROOT

CORPUS = ROOT / "python/tests/pyrealsense2_corpus"
INTEROP = ROOT / "tests/interop"


@pytest.fixture(scope="module")
def bags(tmp_path_factory):
    """Recordings by name, made once for the module."""
    d = tmp_path_factory.mktemp("recordings")
    made = {"reference": ROOT / "tests/fixtures/reference/librealsense-2.55-depth-color.bag",
            "motion_fixture": ROOT / "tests/fixtures/librealsense-2.55.1-motion.bag"}
    for scenario in ("motion", "metadata", "stereo", "media", "hdr"):
        made[scenario] = d / f"{scenario}.bag"
        subprocess.run([PYTHON_255, str(INTEROP / "rs_record.py"), str(made[scenario]),
                        "--scenario", scenario], check=True, capture_output=True)
    made["process"] = d / "process.bag"
    subprocess.run([PYTHON_255, str(INTEROP / "rs_process.py"), "record", str(made["process"]),
                    "--depth-size", "64x48", "--color-size", "96x54"], check=True,
                   capture_output=True)
    made["process_kb4"] = d / "process_kb4.bag"
    subprocess.run([PYTHON_255, str(INTEROP / "rs_process.py"), "record",
                    str(made["process_kb4"]), "--depth-model", "kannala_brandt4",
                    "--color-model", "brown_conrady", "--depth-size", "80x60",
                    "--color-size", "64x48"], check=True, capture_output=True)
    made["filters"] = d / "filters.bag"
    subprocess.run([PYTHON_255, str(INTEROP / "rs_filters.py"), "record", str(made["filters"]),
                    "--size", "64x48", "--frames", "5"], check=True, capture_output=True)
    return made


def run(mode, script, bag, tmp_path, crash_ok=False):
    """What `script` gives through `mode`; with `crash_ok`, None when the
    process died of a signal."""
    python = PYTHON_255 if mode == "pyrealsense2" else sys.executable
    out = tmp_path / f"{mode}.pickle"
    work = tmp_path / mode
    work.mkdir(parents=True)
    done = subprocess.run([python, str(CORPUS / "run.py"), mode, str(CORPUS / script), str(out),
                           str(bag), str(work)], capture_output=True, text=True, timeout=300)
    if crash_ok and done.returncode < 0:
        return None
    assert done.returncode == 0, f"{script} with {mode}:\n{done.stderr}"
    with open(out, "rb") as f:
        return pickle.load(f)


def assert_same(ours, theirs, where="results"):
    """Equal as the module's docstring says, with where they differ."""
    if isinstance(theirs, np.ndarray):
        assert isinstance(ours, np.ndarray), f"{where}: {type(ours)} is not an array"
        assert ours.dtype == theirs.dtype and ours.shape == theirs.shape, (
            f"{where}: {ours.dtype}{ours.shape} != {theirs.dtype}{theirs.shape}")
        assert np.array_equal(ours, theirs, equal_nan=ours.dtype.kind == "f"), (
            f"{where}: {np.count_nonzero(ours != theirs)} elements differ")
    elif isinstance(theirs, dict):
        assert isinstance(ours, dict) and sorted(map(repr, ours)) == sorted(map(repr, theirs)), (
            f"{where}: keys {sorted(map(repr, ours))} != {sorted(map(repr, theirs))}")
        for key in theirs:
            assert_same(ours[key], theirs[key], f"{where}[{key!r}]")
    elif isinstance(theirs, (list, tuple)):
        assert isinstance(ours, (list, tuple)) and len(ours) == len(theirs), (
            f"{where}: {ours!r} != {theirs!r}")
        for k, (a, b) in enumerate(zip(ours, theirs)):
            assert_same(a, b, f"{where}[{k}]")
    elif isinstance(theirs, float):
        assert isinstance(ours, (float, int)) and not isinstance(ours, bool), (
            f"{where}: {ours!r} != {theirs!r}")
        assert math.isclose(ours, theirs, rel_tol=1e-6, abs_tol=1e-12) or (
            math.isnan(ours) and math.isnan(theirs)), f"{where}: {ours!r} != {theirs!r}"
    else:
        assert type(ours) is type(theirs) and ours == theirs, f"{where}: {ours!r} != {theirs!r}"


CASES = [
    # Not read_bag.py on the motion fixture (accel and pose only): there
    # librealsense's pipeline makes a frameset per frame in the order the
    # file holds them, rsbag.pyrealsense2 in timestamp order (its pose
    # sample at 5 ms is after the accel sample at 10 ms in the file), as the
    # guide says; its samples are compared (motion.py).
    ("read_bag.py", "reference"), ("read_bag.py", "motion"),
    ("read_bag.py", "metadata"), ("read_bag.py", "stereo"), ("read_bag.py", "process"),
    ("read_bag.py", "media"),
    ("device_info.py", "reference"), ("device_info.py", "metadata"),
    ("device_info.py", "process"), ("device_info.py", "motion_fixture"),
    ("device_info.py", "stereo"),
    ("distances.py", "reference"), ("distances.py", "filters"), ("distances.py", "metadata"),
    ("calibration.py", "reference"), ("calibration.py", "process"),
    ("calibration.py", "motion"), ("calibration.py", "motion_fixture"),
    ("calibration.py", "process_kb4"),
    ("projection.py", "process"), ("projection.py", "process_kb4"),
    ("align.py", "process"), ("align.py", "process_kb4"),
    ("colorizer.py", "reference"), ("colorizer.py", "filters"),
    ("pointcloud.py", "process"), ("pointcloud.py", "process_kb4"),
    ("filters.py", "filters"), ("filters.py", "metadata"),
    ("motion.py", "motion_fixture"), ("motion.py", "motion"), ("motion.py", "media"),
    ("sensors.py", "reference"), ("sensors.py", "motion_fixture"), ("sensors.py", "metadata"),
    ("sensors.py", "stereo"), ("sensors.py", "motion"),
    ("save_to_ply.py", "process"), ("save_to_ply.py", "process_kb4"),
    # Not repeat.py on the metadata recording (one stream of 6 frames, 5
    # times round in 30 framesets): pyrealsense2 2.55 crashes there (SIGSEGV)
    # about one run in six.
    ("repeat.py", "reference"), ("repeat.py", "process"), ("repeat.py", "stereo"),
    ("hdr.py", "hdr"),
]


# Results pyrealsense2 2.55 gives by how its threads ran, not compared: on
# the motion fixture (5 samples) its reader is at the end of the file when
# pause() comes, and its playback then says paused or (about one run in
# eight) playing.
RACY = {("device_info.py", "motion_fixture"): {"status_paused"}}

# Scripts whose whole result pyrealsense2 2.55 varies from run to run: at
# repeat playback's wrap its syncer sometimes pairs the first depth frame of
# the new round with the last colour frame of the old one, and sometimes
# drops a pairing (on the process recording, 2 runs in 10 differ). Ours must
# equal one of up to RACY_RUNS of its runs. Every other script gets
# LOADED_RUNS: a pipeline plays in real time from start() until the script
# calls set_real_time(False), and on a busy machine pyrealsense2's syncer
# then can lose the first frameset (align.py, seen with the tool's tests
# running beside).
RACY_RUNS = 6
RACY_SCRIPTS = {"repeat.py"}
LOADED_RUNS = 3


@pytest.mark.parametrize("script,bag", CASES, ids=[f"{s[:-3]}-{b}" for s, b in CASES])
def test_the_script_gives_what_pyrealsense2_gives(script, bag, bags, tmp_path):
    ours = run("rsbag", script, bags[bag], tmp_path)
    for key in RACY.get((script, bag), ()):
        assert ours.pop(key)
    runs = RACY_RUNS if script in RACY_SCRIPTS else LOADED_RUNS
    for attempt in range(runs):
        # librealsense 2.55 itself now and then dies of a signal (CI saw a
        # SIGSEGV in calibration.py): such a run of the judge says nothing.
        theirs = run("pyrealsense2", script, bags[bag], tmp_path / f"judge{attempt}", crash_ok=True)
        if theirs is None and attempt < runs - 1:
            continue
        assert theirs is not None, f"{script}: pyrealsense2 crashed in each of {runs} runs"
        for key in RACY.get((script, bag), ()):
            assert theirs.pop(key)
        try:
            assert_same(ours, theirs)
            return
        except AssertionError:
            if attempt == runs - 1:
                raise


ENUMS = ("stream", "format", "option", "camera_info", "distortion", "timestamp_domain",
         "frame_metadata_value", "playback_status")


def test_the_enums_are_pyrealsense2s():
    """Every member of each enum with pyrealsense2 2.55's name, value and
    str()."""
    script = ("import json, pyrealsense2 as rs\n"
              f"print(json.dumps({{e: [(k, int(v), str(v)) for k, v in "
              f"getattr(rs, e).__members__.items()] for e in {ENUMS!r}}}))\n")
    theirs = json.loads(subprocess.run([PYTHON_255, "-c", script], check=True,
                                       capture_output=True, text=True).stdout)
    import rsbag.pyrealsense2 as rs

    for name in ENUMS:
        ours = [(k, int(v), str(v)) for k, v in getattr(rs, name).__members__.items()]
        assert ours == [tuple(m) for m in theirs[name]], name


# Recordings librealsense plays as a connected camera for camera.py.
CAMERAS = ["reference", "stereo", "metadata", "process", "motion"]


@pytest.mark.realtime
@pytest.mark.parametrize("bag", CAMERAS)
def test_a_camera_streams_as_pyrealsense2_streams_it(bag, bags, tmp_path, monkeypatch):
    """camera.py with the recording played by librealsense 2.55 as a
    connected camera (RSBAG_PYREALSENSE2_CAMERA; run.py gives pyrealsense2
    the same): the devices, their sensors and profiles, the pipeline
    started by serial number, and every frame both got, with its framesets.
    A camera streams in real time, so a frame a loaded machine made either
    side lose (a sensor started late) is left out; at most one a stream."""
    monkeypatch.setenv("RSBAG_PYREALSENSE2_CAMERA", str(bags[bag]))
    ours = run("rsbag", "camera.py", bags[bag], tmp_path)
    theirs = run("pyrealsense2", "camera.py", bags[bag], tmp_path)
    ours_frames, theirs_frames = ours.pop("frames"), theirs.pop("frames")
    both = ours_frames.keys() & theirs_frames.keys()
    streams = {key.rsplit(" ", 1)[0] for key in theirs_frames}
    for frames in (ours_frames, theirs_frames):
        assert len(frames) - len(both) <= len(streams), (sorted(frames), sorted(both))
    assert_same({k: ours_frames[k] for k in both}, {k: theirs_frames[k] for k in both}, "frames")

    def complete(framesets):
        return [s for s in framesets if all(f"{name} {number}" in both for name, number in s)]

    assert complete(ours.pop("framesets")) == complete(theirs.pop("framesets"))
    assert_same(ours, theirs)


def test_no_camera_connected_is_pyrealsense2s_error(tmp_path, monkeypatch):
    """No device: an empty list, and pyrealsense2's RuntimeError for a
    pipeline started without a file (librealsense named by
    RSBAG_LIBREALSENSE: pyrealsense2 2.55's extension module)."""
    import rsbag.pyrealsense2 as rs

    monkeypatch.delenv("RSBAG_PYREALSENSE2_CAMERA", raising=False)
    monkeypatch.setenv("RSBAG_LIBREALSENSE", rs._pyrealsense2_library())
    bag = ROOT / "tests/fixtures/reference/librealsense-2.55-depth-color.bag"
    ours = run("rsbag", "no_camera.py", bag, tmp_path)
    assert ours["start"] == ("RuntimeError", "No device connected")
    assert_same(ours, run("pyrealsense2", "no_camera.py", bag, tmp_path))


def test_without_librealsense_the_error_says_what_to_install():
    """Each call that needs a camera raises one RuntimeError naming
    pyrealsense2, librealsense2 and RSBAG_LIBREALSENSE (here naming a
    library that is not there)."""
    script = ("import rsbag.pyrealsense2 as rs\n"
              "config = rs.config()\n"
              "config.enable_device('123456789')\n"
              "for call in (lambda: rs.context().query_devices(), lambda: rs.pipeline().start(),\n"
              "             lambda: rs.pipeline().start(config)):\n"
              "    try:\n"
              "        call()\n"
              "    except RuntimeError as e:\n"
              "        print(e)\n")
    env = {**os.environ, "RSBAG_LIBREALSENSE": "/nonexistent/librealsense2.so"}
    env.pop("RSBAG_PYREALSENSE2_CAMERA", None)
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    errors = done.stdout.splitlines()
    assert len(errors) == 3 and len(set(errors)) == 1, errors
    for words in ("pip install pyrealsense2", "install librealsense2", "RSBAG_LIBREALSENSE",
                  "/nonexistent/librealsense2.so"):
        assert words in errors[0]


def test_a_camera_stream_counts_what_it_drops_and_wakes_on_stop():
    """librealsense's callback never waits: with room for one frame and
    nothing taken while the camera (the reference recording, 12 depth and
    12 colour frames) streams, every frame it handed over is either taken
    or counted as dropped. A wait with nothing to come returns as soon as stop() is
    called."""
    import rsbag._rsbag as _rsbag
    import rsbag.pyrealsense2 as rs

    bag = ROOT / "tests/fixtures/reference/librealsense-2.55-depth-color.bag"
    context = _rsbag.LiveContext(rs._pyrealsense2_library())
    context.simulate(str(bag))
    device, = context.devices()
    ids = [p["unique_id"] for s in device.sensors for p in s["profiles"]]
    stream = device.start(ids, queue_size=1)
    time.sleep(1.5)
    taken = 0
    while True:
        ok, frames = stream.try_wait_for_frames(1000)
        if not ok:
            break
        taken += len(frames.frames)
    # (librealsense plays the recording in real time: on a loaded machine
    # it may itself lose a frame before handing it over, or hand one over
    # twice: CI saw 25.)
    delivered = stream.delivered_frames
    assert 20 <= delivered <= 26 and stream.dropped_frames > 0, (delivered, stream.dropped_frames)
    assert taken + stream.dropped_frames == delivered, (taken, stream.dropped_frames, delivered)

    waited = []
    waiter = threading.Thread(target=lambda: waited.append(stream.try_wait_for_frames(60000)))
    waiter.start()
    time.sleep(0.3)
    start = time.monotonic()
    stream.stop()
    waiter.join(10)
    assert not waiter.is_alive() and time.monotonic() - start < 5
    assert waited == [(False, None)] and stream.finished


def test_frame_data_is_a_read_only_view():
    """pyrealsense2's BufData is writable (a write changes the frame);
    rsbag's get_data() views the recording's bytes without a copy (which
    the issue asks for), so a write raises instead of changing them."""
    import rsbag.pyrealsense2 as rs

    bag = ROOT / "tests/fixtures/reference/librealsense-2.55-depth-color.bag"
    pipeline = rs.pipeline()
    config = rs.config()
    config.enable_device_from_file(str(bag), repeat_playback=False)
    pipeline.start(config)
    depth = pipeline.wait_for_frames().get_depth_frame()
    data = np.asanyarray(depth.get_data())
    assert not data.flags.owndata and not data.flags.writeable
    assert np.shares_memory(data, np.asanyarray(depth.get_data()))
    before = data.copy()
    with pytest.raises(ValueError, match="read-only"):
        data[0, 0] = 7
    with pytest.raises(TypeError):
        memoryview(depth.get_data())[0, 0] = 7
    assert np.array_equal(np.asanyarray(depth.get_data()), before)
    writable = np.array(depth.get_data())
    writable[0, 0] = 7
    pipeline.stop()


def test_playback_speed_sets_the_real_time_pace():
    """set_playback_speed (librealsense's C++ playback has it; pyrealsense2
    2.55 and 2.59 do not bind it): at half speed in real time the
    recording's 12 framesets (0.38 s recorded) take at least twice their
    recorded span. Only the lower bound is checked: a loaded machine may
    play slower, never faster."""
    import rsbag.pyrealsense2 as rs

    bag = ROOT / "tests/fixtures/reference/librealsense-2.55-depth-color.bag"
    pipeline = rs.pipeline()
    config = rs.config()
    config.enable_device_from_file(str(bag), repeat_playback=False)
    playback = pipeline.start(config).get_device().as_playback()
    playback.set_playback_speed(0.5)
    # The pace is the file's: the time from its first frame to its last.
    span = playback.get_duration().total_seconds()
    pipeline.wait_for_frames()
    start = time.monotonic()
    while pipeline.try_wait_for_frames(2000)[0]:
        pass
    elapsed = time.monotonic() - start
    assert span > 0.3 and elapsed >= 2 * span * 0.95, (elapsed, span)
    for bad in (0, -1.0):
        with pytest.raises(RuntimeError, match="positive"):
            playback.set_playback_speed(bad)
    pipeline.stop()

    # So does a device loaded from the file whose sensors stream.
    device = rs.context().load_device(str(bag))
    device.set_playback_speed(0.5)
    times = []
    start = time.monotonic()
    for sensor in device.query_sensors():
        sensor.open(sensor.get_stream_profiles())
        sensor.start(lambda f: times.append((time.monotonic(), f.get_frame_number())))
    while device.current_status() != rs.playback_status.stopped:
        assert time.monotonic() - start < 30
        time.sleep(0.01)
    # The sensors start one after the other, and the playback takes its
    # pace again from the frame after a start: one frame interval less.
    assert max(times)[0] - min(times)[0] >= 2 * (span - 1 / 30) * 0.95
    for sensor in device.query_sensors():
        sensor.stop()
        sensor.close()
