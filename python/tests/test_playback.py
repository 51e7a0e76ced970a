"""rsbag.Playback and rsbag.Pipeline: a recording played back as a device
from Python. Not in real time every frame is delivered exactly once and
equals what the real librealsense plays (2.55 for .bag, 2.59 for .db3);
the controls work and may be called from any thread, also from a
callback; a callback's exception does not stop playback; nothing hangs
when a playback is dropped or the interpreter exits while frames flow
(those run in a child interpreter with a time limit, so a hang fails the
test instead of the suite)."""

import subprocess
import sys
import threading
import time

import pytest

import rsbag
from references import BAGS, DB3, PYTHON_255, PYTHON_259, SAMPLES, in_judge_order, judge_line, played

DEPTH_COLOR = SAMPLES / "librealsense-depth-color-lz4.bag"


def wait_for(condition, timeout=30.0):
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def play_everything(path, **start):
    delivered = []
    with rsbag.Playback(path, real_time=False) as playback:
        playback.start(lambda frame: delivered.append(judge_line(frame)), **start)
        assert playback.wait_until_stopped(timeout=120)
        assert playback.status == "stopped"
        assert playback.dropped_frames == 0
    return delivered


@pytest.mark.parametrize("name", BAGS)
def test_playback_delivers_every_frame_librealsense_255_plays(name):
    path = SAMPLES / name
    theirs = played(PYTHON_255, path)
    assert len(theirs) > 0
    assert in_judge_order(play_everything(path)) == theirs


@pytest.mark.parametrize("name", ["rec259_dc.db3", "rec259_imu.db3"])
def test_playback_delivers_every_db3_frame_librealsense_259_plays(name):
    path = DB3 / name
    theirs = played(PYTHON_259, path)
    assert len(theirs) > 0
    assert in_judge_order(play_everything(path)) == theirs


def test_the_pipeline_puts_every_frame_librealsense_plays_in_one_frameset():
    theirs = played(PYTHON_255, DEPTH_COLOR)
    with rsbag.Pipeline(DEPTH_COLOR) as pipeline:
        assert sorted(pipeline.streams) == ["Color", "Depth"]
        sets = list(pipeline)
        assert pipeline.finished
        with pytest.raises(EOFError):
            pipeline.wait_for_frames(timeout_ms=1000)
    frames = [judge_line(f) for s in sets for f in s.frames]
    assert in_judge_order(frames) == theirs
    # Both streams run at 30 fps from the same moment: each frameset pairs
    # a depth with a colour frame within half a frame interval.
    paired = [s for s in sets if s.get("Depth") and s.get("Color")]
    assert len(paired) >= len(sets) - 2
    assert all(abs(s.get("Depth").timestamp - s.get("Color").timestamp) < 500 / 30
               for s in paired)


def test_a_pipeline_of_one_stream_and_wait_for_frames():
    theirs = [f for f in played(PYTHON_255, DEPTH_COLOR) if f["stream"] == "Depth"]
    pipeline = rsbag.Pipeline(DEPTH_COLOR, streams=["Depth"])
    frames = []
    while True:
        try:
            frameset = pipeline.wait_for_frames(timeout_ms=10000)
        except EOFError:
            break
        assert len(frameset) == 1
        frames.append(judge_line(frameset.frames[0]))
    assert in_judge_order(frames) == theirs


def test_a_paused_pipeline_times_out_and_an_ended_one_raises_eof():
    # Room for one frame: the playback waits for the consumer, so it cannot
    # read this 0.3 s recording to its end before the pause.
    with rsbag.Pipeline(DEPTH_COLOR, queue_size=1) as pipeline:
        pipeline.pause()
        # What was under way when it paused still comes, then nothing.
        taken = 0
        with pytest.raises(TimeoutError, match="Frame didn't arrive within 200"):
            while taken < 1000:
                pipeline.wait_for_frames(timeout_ms=200)
                taken += 1
        assert taken < 20
        pipeline.resume()
        taken += sum(len(s) for s in pipeline)
        assert taken > 0
        for _ in range(2):
            with pytest.raises(EOFError, match="ended"):
                pipeline.wait_for_frames(timeout_ms=200)


def test_pause_holds_delivery_and_resume_continues():
    delivered = []
    statuses = []
    playback = rsbag.Playback(DEPTH_COLOR, real_time=False)
    playback.add_status_listener(statuses.append)
    playback.pause()
    assert playback.paused
    playback.start(lambda f: delivered.append(judge_line(f)))
    time.sleep(0.3)
    assert delivered == [] and playback.status == "paused"
    playback.resume()
    assert playback.wait_until_stopped(timeout=60)
    assert in_judge_order(delivered) == played(PYTHON_255, DEPTH_COLOR)
    assert statuses[0] == "paused" and statuses[-1] == "stopped"
    assert "playing" in statuses


def test_seek_continues_from_the_time_sought():
    recording = rsbag.open(DEPTH_COLOR)
    middle = recording.duration / 2
    later = {(f.stream_name, f.frame_number) for f in recording.frames(start=middle)}
    delivered = []
    playback = rsbag.Playback(DEPTH_COLOR, real_time=False)
    playback.pause()
    playback.seek(middle)
    playback.start(lambda f: delivered.append((f.stream_name, f.frame_number)))
    playback.resume()
    assert playback.wait_until_stopped(timeout=60)
    assert sorted(delivered) == sorted(later)
    assert playback.position == pytest.approx(recording.duration, abs=1e-6)
    with pytest.raises(rsbag.InvalidArgumentError, match="lasts"):
        playback.seek(recording.duration + 1.0)


def test_real_time_follows_the_speed():
    duration = rsbag.open(DEPTH_COLOR).duration
    counted = []
    playback = rsbag.Playback(DEPTH_COLOR)
    assert playback.real_time and playback.speed == 1.0 and not playback.repeat
    playback.speed = 4.0
    assert playback.speed == 4.0
    began = time.monotonic()
    playback.start(lambda f: counted.append(1))
    assert playback.wait_until_stopped(timeout=60)
    took = time.monotonic() - began
    # The recording's span at four times its pace (plus start-up).
    assert duration / 4 * 0.8 <= took <= duration / 4 + 2.0
    assert len(counted) + playback.dropped_frames == sum(1 for _ in rsbag.open(DEPTH_COLOR).frames())
    with pytest.raises(rsbag.InvalidArgumentError, match="positive"):
        playback.speed = 0.0


def test_repeat_plays_the_file_again_until_stopped():
    total = sum(1 for _ in rsbag.open(DEPTH_COLOR).frames())
    count = [0]
    done = threading.Event()
    playback = rsbag.Playback(DEPTH_COLOR, real_time=False)
    playback.repeat = True
    assert playback.repeat

    def callback(frame):
        count[0] += 1
        if count[0] >= 2 * total + 5:
            done.set()

    playback.start(callback)
    assert done.wait(timeout=60)
    playback.stop()
    assert playback.status == "stopped"


def test_stop_from_a_callback_ends_delivery():
    delivered = []
    playback = rsbag.Playback(DEPTH_COLOR, real_time=False)

    def callback(frame):
        delivered.append(frame.frame_number)
        if len(delivered) == 5:
            playback.stop()   # returns at once from a callback

    playback.start(callback, streams=["Depth"])
    assert playback.wait_until_stopped(timeout=30)
    settled = len(delivered)
    time.sleep(0.2)
    assert 5 <= settled == len(delivered) < rsbag.open(DEPTH_COLOR).frame_count("Depth")


def test_controls_from_many_threads_while_frames_flow():
    playback = rsbag.Playback(DEPTH_COLOR, real_time=False, queue_size=2)
    playback.repeat = True
    seen = []

    def slow(frame):
        seen.append(frame.frame_number)
        time.sleep(0.001)

    playback.start(slow)
    wait_for(lambda: len(seen) > 0)
    errors = []

    def hammer(k):
        try:
            for i in range(40):
                playback.pause()
                playback.seek((i * 0.017 * (k + 1)) % playback.duration)
                playback.resume()
                _ = (playback.position, playback.status, playback.dropped_frames)
        except Exception as e:   # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=hammer, args=(k,)) for k in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
        assert not t.is_alive(), "a control hung"
    assert errors == []
    # Still playing after the storm.
    playback.resume()
    before = len(seen)
    wait_for(lambda: len(seen) > before)
    playback.stop()
    assert playback.status == "stopped"
    settled = len(seen)
    time.sleep(0.1)
    assert len(seen) == settled


def test_a_callbacks_exception_is_reported_and_playback_goes_on(monkeypatch):
    reported = []
    monkeypatch.setattr(sys, "unraisablehook", lambda u: reported.append(u.exc_value))
    numbers = []

    def callback(frame):
        numbers.append(frame.frame_number)
        if len(numbers) % 10 == 0:
            raise ValueError(f"frame {frame.frame_number} displeases me")

    playback = rsbag.Playback(DEPTH_COLOR, real_time=False)
    playback.start(callback, streams=["Depth"])
    assert playback.wait_until_stopped(timeout=60)
    total = rsbag.open(DEPTH_COLOR).frame_count("Depth")
    assert len(numbers) == total
    assert len(reported) == total // 10
    assert all(isinstance(e, ValueError) and "displeases" in str(e) for e in reported)


def test_sensors_open_chosen_streams_and_describe_the_recording():
    playback = rsbag.Playback(DEPTH_COLOR, real_time=False)
    recording = rsbag.open(DEPTH_COLOR)
    sensors = playback.sensors
    assert [s.name for s in sensors] == [s["name"] for s in recording.sensors]
    assert [s.profiles for s in sensors] == [s["profiles"] for s in recording.sensors]
    assert [s.options for s in sensors] == [s["options"] for s in recording.sensors]
    stereo = next(s for s in sensors if any(p["stream"] == "Depth" for p in s.profiles))
    stereo.open(["Depth"])
    assert stereo.active_streams == ["Depth"]
    depth = []
    playback.pause()
    stereo.start(lambda f: depth.append(f.frame_number))
    playback.resume()
    assert playback.wait_until_stopped(timeout=60)
    theirs = [f["frame_number"] for f in played(PYTHON_255, DEPTH_COLOR) if f["stream"] == "Depth"]
    assert depth == theirs
    stereo.close()
    assert stereo.active_streams == []
    # A sensor keeps its playback alive.
    del playback
    assert stereo.playback.duration == pytest.approx(recording.duration)


def test_recorded_option_changes_reach_the_option_listeners(tmp_path):
    path = tmp_path / "options.bag"
    with rsbag.Writer(path) as w:
        w.add_video_stream("Depth", "Z16", 8, 4, 30, sensor="Stereo Module", depth_units=0.001)
        w.add_option("Stereo Module", "Exposure", 100.0, min=1.0, max=1000.0)
        for n in range(1, 11):
            if n == 6:
                w.set_option("Stereo Module", "Exposure", 250.0)
            w.write("Depth", bytes(64), 1000.0 + 33.3 * n, n)
    changes = []
    playback = rsbag.Playback(path, real_time=False)
    sensor = playback.sensors[0]
    sensor.add_option_listener(lambda name, value: changes.append((name, value)))
    playback.start(lambda f: None)
    assert playback.wait_until_stopped(timeout=30)
    assert ("Exposure", 250.0) in changes
    exposure = next(o for o in sensor.options if o["name"] == "Exposure")
    assert exposure["value"] == 250.0


def test_bad_input_raises_clear_errors(tmp_path):
    with pytest.raises(rsbag.IoError, match="missing.bag"):
        rsbag.Playback(tmp_path / "missing.bag")
    playback = rsbag.Playback(DEPTH_COLOR)
    with pytest.raises(rsbag.InvalidArgumentError, match="Fisheye"):
        playback.start(print, streams=["Fisheye"])
    with pytest.raises(TypeError, match="callable"):
        playback.start(42)
    with pytest.raises(rsbag.InvalidArgumentError):
        playback.seek(-1.0)
    with pytest.raises(rsbag.InvalidArgumentError, match="no stream"):
        playback.sensors[0].open(["Gyro"])
    with pytest.raises(rsbag.InvalidArgumentError, match="no opened profiles"):
        playback.sensors[0].start(print)
    with pytest.raises(rsbag.InvalidArgumentError, match="Fisheye"):
        rsbag.Pipeline(DEPTH_COLOR, streams=["Fisheye"])


CHILD_DROPS_A_PLAYING_PLAYBACK = """
import gc, sys, time, rsbag
path = sys.argv[1]
for _ in range(3):
    playback = rsbag.Playback(path, real_time=False, queue_size=1)
    playback.start(lambda frame: time.sleep(0.01))
    time.sleep(0.1)
    del playback          # stops it: waits for callbacks that wait for the GIL
    gc.collect()
playback = rsbag.Playback(path, real_time=False, queue_size=1)
playback.start(lambda frame: time.sleep(0.01))
time.sleep(0.1)
print("exiting with a playback playing", flush=True)
"""


def test_dropping_a_playing_playback_or_exiting_does_not_hang():
    done = subprocess.run([sys.executable, "-c", CHILD_DROPS_A_PLAYING_PLAYBACK, str(DEPTH_COLOR)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "exiting with a playback playing" in done.stdout
