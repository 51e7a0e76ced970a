"""rsbag.rerun: recordings logged to Rerun, saved as .rrd and read back
with Rerun's own reader (rerun.chunk's RrdReader and its DataFusion
dataframes), checked against what librealsense wrote and plays: frames
(librealsense 2.55's SHA-256 of each frame's bytes where it was recorded,
rsbag's frames otherwise), timestamps, and the calibration librealsense
2.55 gives (tests/interop/rs_calib.py)."""

import hashlib
import json
import subprocess
import sys

import numpy as np
import pyarrow as pa
import pytest
import rerun as rr
from rerun.chunk import RrdReader

import rsbag
import rsbag.rerun
from references import DB3, PYTHON_255, ROOT, SAMPLES

REFERENCE = ROOT / "tests/fixtures/reference/librealsense-2.55-depth-color.bag"
MOTION = ROOT / "tests/fixtures/librealsense-2.55.1-motion.bag"
INTEROP = ROOT / "tests/interop"


def save(path, source, **options):
    """Log `source` into a new Rerun recording saved at `path`."""
    rr.init("rsbag-test")
    rr.save(path)
    rsbag.rerun.log(source, **options)
    rr.disconnect()
    return RrdReader(path).stream().collect()


def rows(store, entity, component, index="time"):
    """Each row of `entity`'s `component` on timeline `index`, as dicts of
    the timelines' raw values (ns, frame numbers) and the component."""
    table = store.reader(index=index, contents=entity).to_arrow_table()
    column = f"{entity}:{component}"
    out = []
    for i in range(table.num_rows):
        value = table.column(column)[i].as_py()
        if value is None:
            continue
        row = {"value": value}
        for timeline in ("timestamp", "time", "frame_number"):
            raw = table.column(timeline).cast(pa.int64())[i].as_py()
            row[timeline] = raw
        out.append(row)
    return out


def static(store, entity, component):
    table = store.reader(index=None, contents=entity).to_arrow_table()
    return table.column(f"{entity}:{component}")[0].as_py()


def ns(ms):
    """Milliseconds as the nanoseconds of a Rerun timeline."""
    return int(np.round(np.float64(ms) * 1e6))


def camera_of(recording):
    return "/" + (recording.info.get("Serial Number") or recording.path.rsplit("/", 1)[-1]
                  .rsplit(".", 1)[0])


def check_images(store, recording, camera, streams, jsonl=None):
    """Every frame of `streams` is in the .rrd, in order, with its bytes,
    timestamp, time and frame number."""
    played = {}
    if jsonl is not None:
        for line in jsonl.read_text().splitlines():
            f = json.loads(line)
            played.setdefault(f["stream"], []).append(f)
    for stream in streams:
        entity = f"{camera}/{rsbag.rerun.entity_name(stream)}/image"
        component = "DepthImage:buffer" if stream == "Depth" else "Image:buffer"
        logged = rows(store, entity, component)
        frames = list(recording.frames(streams=[stream]))
        assert len(logged) == len(frames) > 0
        for row, frame in zip(logged, frames):
            data = bytes(row["value"][0])
            assert data == frame.as_array().tobytes()
            assert row["timestamp"] == ns(frame.timestamp)
            assert row["time"] == int(np.round(np.float64(frame.time) * 1e9))
            assert row["frame_number"] == frame.frame_number
        if stream in played:
            reference = played[stream]
            assert [hashlib.sha256(bytes(r["value"][0])).hexdigest() for r in logged] == \
                [f["sha256"] for f in reference]
            assert [r["timestamp"] for r in logged] == [ns(f["timestamp"]) for f in reference]
            assert [r["frame_number"] for r in logged] == [f["frame_number"] for f in reference]


def test_librealsense_depth_colour_bag_is_logged_frame_for_frame(tmp_path):
    recording = rsbag.open(REFERENCE)
    store = save(tmp_path / "out.rrd", recording)
    camera = camera_of(recording)
    check_images(store, recording, camera, ["Depth", "Color"],
                 REFERENCE.with_name("librealsense-2.55-depth-color.frames.jsonl"))
    # The hardware clock is a duration; the depth image's metres.
    depth_units = recording.depth_units("Depth")
    meter = static(store, f"{camera}/depth/image", "DepthImage:meter")
    assert meter == [pytest.approx(1.0 / depth_units, rel=1e-6)]
    fmt = static(store, f"{camera}/color/image", "Image:format")[0]
    assert (fmt["width"], fmt["height"]) == recording.frame("Color", 0).size


@pytest.mark.parametrize("name", ["rec259_dc.db3", "rec259_dc_raw.db3"])
def test_librealsense_db3_is_logged_frame_for_frame(tmp_path, name):
    recording = rsbag.open(DB3 / name)
    store = save(tmp_path / "out.rrd", recording)
    images = [s for s in recording.streams if recording.frame(s, 0).size is not None]
    assert images
    check_images(store, recording, camera_of(recording), images)


@pytest.mark.parametrize("path", [MOTION, DB3 / "rec259_imu.db3"], ids=["bag", "db3"])
def test_imu_samples_are_scalars_on_the_timestamps(tmp_path, path):
    recording = rsbag.open(path)
    store = save(tmp_path / "out.rrd", recording)
    camera = camera_of(recording)
    imu = [s for s in recording.streams if s.startswith(("Gyro", "Accel"))]
    assert imu
    for stream in imu:
        columns = recording.columns(stream)
        for axis, name in enumerate("xyz"):
            logged = rows(store, f"{camera}/{rsbag.rerun.entity_name(stream)}/{name}",
                          "Scalars:scalars")
            assert [r["value"][0] for r in logged] == columns["data"][:, axis].astype(
                np.float64).tolist()
            assert [r["timestamp"] for r in logged] == [ns(t) for t in columns["timestamp"]]
            assert [r["frame_number"] for r in logged] == columns["frame_number"].tolist()


@pytest.fixture(scope="module")
def calibrated(tmp_path_factory):
    """A recording with rotated and shifted streams, and what librealsense
    2.55 gives of its calibration."""
    directory = tmp_path_factory.mktemp("calib")
    bag, values = directory / "calib.bag", directory / "values.json"
    script = str(INTEROP / "rs_calib.py")
    subprocess.run([PYTHON_255, script, "record", str(bag)], check=True, capture_output=True)
    subprocess.run([PYTHON_255, script, "values", str(bag), str(values)], check=True,
                   capture_output=True)
    return bag, json.loads(values.read_text())


def test_pinholes_and_transforms_are_librealsense_calibration(tmp_path, calibrated):
    bag, values = calibrated
    recording = rsbag.open(bag)
    store = save(tmp_path / "out.rrd", recording)
    camera = camera_of(recording)
    f32 = np.float32
    checked = 0
    for stream, facts in values["streams"].items():
        if "intrinsics" not in facts:
            continue
        entity = f"{camera}/{rsbag.rerun.entity_name(stream)}"
        i = facts["intrinsics"]
        # Column-major, as Rerun stores a Mat3x3.
        assert static(store, f"{entity}/image", "Pinhole:image_from_camera") == [
            [f32(i["fx"]), 0.0, 0.0, 0.0, f32(i["fy"]), 0.0, f32(i["ppx"]), f32(i["ppy"]), 1.0]]
        assert static(store, f"{entity}/image", "Pinhole:resolution") == [
            [i["width"], i["height"]]]
        if stream == "Depth":
            assert static(store, f"{entity}/image", "DepthImage:meter") == [
                f32(1.0 / f32(facts["depth_units"]))]
            continue
        extrinsics = values["extrinsics"][f"{stream}>Depth"]
        assert static(store, entity, "Transform3D:mat3x3") == [
            [f32(v) for v in extrinsics["rotation"]]]
        assert static(store, entity, "Transform3D:translation") == [
            [f32(v) for v in extrinsics["translation"]]]
        checked += 1
    assert checked >= 3  # colour, both infrared, fisheye


@pytest.mark.parametrize("path", [SAMPLES / "librealsense-depth-color-lz4.bag", REFERENCE],
                         ids=["extrinsics", "no-extrinsics"])
def test_point_clouds_are_rsbags(tmp_path, path):
    """Coloured from the colour frame nearest in time where the recording
    relates depth and colour; by depth where it does not (the reference
    bag records no extrinsics)."""
    recording = rsbag.open(path)
    store = save(tmp_path / "out.rrd", recording, pointcloud=True)
    entity = f"{camera_of(recording)}/depth/points"
    positions = rows(store, entity, "Points3D:positions")
    colors = rows(store, entity, "Points3D:colors")
    mapped = recording.extrinsics("Depth", "Color") is not None
    cloud = recording.pointcloud("Depth", map_to="Color" if mapped else None)
    frames = list(recording.frames(streams=["Depth"]))
    assert len(positions) == len(colors) == len(frames)
    assert sum(len(p["value"]) for p in positions) > 0
    for p, c, frame in zip(positions, colors, frames):
        vertices, texture = cloud.calculate(frame)
        keep = vertices[:, 2] > 0
        logged = np.asarray(p["value"], dtype=np.float32).reshape(-1, 3)
        assert np.array_equal(logged, vertices[keep])
        assert len(c["value"]) == int(keep.sum())
        if mapped:
            rgb = rsbag.PointCloud.colors(texture, recording.frame_at("Color", frame.time))[keep]
            packed = (rgb[:, 0].astype(np.uint32) << 24) | (rgb[:, 1].astype(np.uint32) << 16) \
                | (rgb[:, 2].astype(np.uint32) << 8) | 0xFF
            assert c["value"] == packed.tolist()


def test_option_changes_are_text_on_the_time_timeline(tmp_path):
    path = tmp_path / "options.bag"
    with rsbag.Writer(path) as w:
        w.add_video_stream("Depth", "Z16", 4, 3, 30, sensor="Stereo Module", depth_units=0.001)
        w.add_option("Stereo Module", "Laser Power", 150.0, min=0.0, max=360.0, step=30.0)
        for n in range(1, 11):
            w.write("Depth", np.full((3, 4), n, np.uint16), timestamp=n * 33.3, frame_number=n)
            if n == 5:
                w.set_option("Stereo Module", "Laser Power", 240.0)
    recording = rsbag.open(path)
    [change] = recording.controls()
    assert (change["sensor"], change["name"], change["value"]) == (
        "Stereo Module", "Laser Power", 240.0)
    store = save(tmp_path / "out.rrd", recording)
    [logged] = rows(store, f"{camera_of(recording)}/events", "TextLog:text")
    assert logged["value"] == ["Stereo Module: Laser Power = 240"]
    assert logged["time"] == int(np.round(np.float64(change["time"]) * 1e9))
    fifth = recording.frame("Depth", 4)
    assert abs(change["time"] - fifth.time) < 0.034


@pytest.fixture(scope="module")
def two_cameras(tmp_path_factory):
    """Two cameras recorded at once by librealsense 2.55 on the host's
    clock (tests/interop/rs_session.py): what it fed, by serial."""
    directory = tmp_path_factory.mktemp("session")
    out = subprocess.run([PYTHON_255, str(INTEROP / "rs_session.py"), str(directory),
                          "--cameras", "CAM-A,CAM-B", "--clock", "global"],
                         check=True, capture_output=True, text=True).stdout
    return {c["serial"]: c for c in json.loads(out)["cameras"]}


def test_a_two_camera_session_is_logged_on_its_clock(tmp_path, two_cameras):
    session = rsbag.open_session([two_cameras[s]["file"] for s in sorted(two_cameras)])
    assert session.clock == "global time"
    store = save(tmp_path / "out.rrd", session)
    zero = next(iter(session.frames())).time_ms
    for serial, camera in two_cameras.items():
        streams = sorted({f["stream"] for f in camera["frames"]})
        assert "Depth" in streams
        for stream in streams:
            component = "DepthImage:buffer" if stream == "Depth" else "Image:buffer"
            logged = rows(store, f"/{serial}/{rsbag.rerun.entity_name(stream)}/image",
                          component)
            fed = [f for f in camera["frames"] if f["stream"] == stream]
            assert [hashlib.sha256(bytes(r["value"][0])).hexdigest() for r in logged] == \
                [f["sha256"] for f in fed]
            # Global time: the session's clock is the frames' timestamps.
            assert [r["timestamp"] for r in logged] == [ns(f["timestamp"]) for f in fed]
            # Seconds from the session's first frame (to the nanosecond).
            assert all(abs(r["time"] - ns(f["timestamp"] - zero)) <= 1
                       for r, f in zip(logged, fed))
            assert [r["frame_number"] for r in logged] == [f["frame_number"] for f in fed]
        depth_units = camera["depth_units"]
        assert static(store, f"/{serial}/depth/image", "DepthImage:meter") == [
            pytest.approx(1.0 / depth_units, rel=1e-6)]


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "rsbag.rerun", *map(str, args)],
                          capture_output=True, text=True, timeout=120)


def test_command_line_saves_what_log_saves_and_refuses_to_replace(tmp_path):
    out = tmp_path / "cli.rrd"
    done = run_cli(REFERENCE, "--save", out)
    assert done.returncode == 0, done.stderr
    recording = rsbag.open(REFERENCE)
    check_images(RrdReader(out).stream().collect(), recording, camera_of(recording), ["Depth"])
    size = out.stat().st_size
    again = run_cli(REFERENCE, "--save", out)
    assert again.returncode == 1 and "exists" in again.stderr
    assert out.stat().st_size == size


def test_command_line_names_a_file_it_cannot_read_and_leaves_no_rrd(tmp_path):
    bad = tmp_path / "not-a-recording.bag"
    bad.write_bytes(b"this is not a bag\n" * 10)
    out = tmp_path / "bad.rrd"
    done = run_cli(bad, "--save", out)
    assert done.returncode == 1
    assert str(bad) in done.stderr
    assert not out.exists()


def test_pose_stream_is_a_transform_with_its_trajectory(tmp_path):
    """A T265-like camera recorded by librealsense 2.55
    (tests/interop/rs_camera_sources.py): pose n fed as translation
    (0.01 n, -0.002 n, 0.5) and rotation sin/cos(0.005 n) about y."""
    bag = tmp_path / "t265.bag"
    subprocess.run([PYTHON_255, str(INTEROP / "rs_camera_sources.py"), str(bag),
                    "--camera", "t265", "--seconds", "0.5"], check=True, capture_output=True)
    recording = rsbag.open(bag)
    store = save(tmp_path / "out.rrd", recording)
    entity = f"{camera_of(recording)}/pose"
    translations = rows(store, entity, "Transform3D:translation")
    quaternions = rows(store, entity, "Transform3D:quaternion")
    frames = list(recording.frames(streams=["Pose"]))
    assert len(translations) == len(quaternions) == len(frames) > 10
    f32 = np.float32
    for t, q, frame in zip(translations, quaternions, frames):
        [(x, y, z)] = t["value"]
        n = round(x / 0.01)
        assert (x, y, z) == (f32(0.01 * n), f32(-0.002 * n), f32(0.5))
        assert q["value"] == [[0.0, f32(np.sin(0.005 * n)), 0.0, f32(np.cos(0.005 * n))]]
        assert t["timestamp"] == ns(frame.timestamp)
        assert t["frame_number"] == frame.frame_number
    [strip] = static(store, f"{entity}_trajectory", "LineStrips3D:strips")
    assert strip == [r["value"][0] for r in translations]
    # Its fisheye images and IMU samples are there too.
    check_images(store, recording, camera_of(recording), ["Fisheye 1", "Fisheye 2"])
