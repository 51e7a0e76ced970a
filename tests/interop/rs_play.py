#!/usr/bin/env python3
"""Play a RealSense .bag with the real librealsense (pyrealsense2 2.55.1)
and print what it sees.

Usage:
    python3 rs_play.py BAG               # frames, one JSON line each
    python3 rs_play.py BAG --device-json # the device, one JSON object

Frames (default): the bag is loaded with `rs.context().load_device(BAG)`,
played non-real-time (`set_real_time(False)`: librealsense then hands over
every frame and waits for each callback), every sensor opened with all of
its stream profiles and started while the playback is paused (otherwise the
first frames of a sensor started after the first one can be dropped), then
resumed. Each frame is copied in its callback; the script waits
until the playback status is `stopped` (plus a short grace), then prints one
line per frame, sorted by (stream, stream_index, frame_number), ties in
arrival order, exactly in the shape of
`tests/fixtures/reference/librealsense-2.55-depth-color.frames.jsonl`:

    {"stream": "Depth", "stream_index": 0, "frame_index": 2, "frame_number": 3,
     "timestamp": 99.9, "domain": "Hardware Clock", "size": 9600, "sha256": "<hex>"}

`stream` is librealsense's stream-type name (Depth, Color, Infrared, Accel,
Gyro, Pose, ...), `stream_index` the stream index, `frame_index` the frame's
position among its stream's frames in arrival order, `timestamp`
frame.get_timestamp() in ms as recorded (see `as_recorded`; a Python float,
printed by json), `domain` the timestamp domain as
librealsense names it (Hardware Clock, System Time, Global Time), `size`
frame.get_data_size() and `sha256` the hash of those bytes.

--metadata: each line also gets "metadata": {"Frame Counter": 1, ...}, every
frame-metadata value the frame supports, under librealsense's names.
(librealsense 2.55 playback reports {"Frame Counter": 0} for a frame whose
bag has no metadata besides system_time and timestamp_domain.)

--options: each line also gets "options": {"Exposure": 100.0, ...}, the
values of the options of the frame's sensor as the playback device reports
them inside the frame's callback (recorded option changes are applied in
recorded order, before the frames recorded after them).

--device-json: the device as librealsense sees it, without streaming:

    {"camera_info": {"Name": "...", ...},
     "playback": {"duration_ns": int, "real_time": bool},
     "sensors": [
       {"name": "...", "camera_info": {...},
        "options": [{"option": "Exposure", "value": 100.0, "min": ...,
                     "max": ..., "step": ..., "default": ...,
                     "description": "...", "read_only": true}, ...],
        "profiles": [
          {"key": "s0:Depth_0:Z16:64x48@30", "stream": "Depth", "index": 0,
           "unique_id": 12, "format": "Z16", "fps": 30, "is_default": true,
           "width": 64, "height": 48,                      # video only
           "intrinsics": {"width", "height", "ppx", "ppy", "fx", "fy",
                          "model": "Brown Conrady", "coeffs": [5 floats]},
           "motion_intrinsics": {"data": [[4 floats] x 3],
                                 "noise_variances": [3], "bias_variances": [3]}
          }, ...]}],
     "extrinsics": [{"from": key, "to": key, "rotation": [9 floats,
                     column-major as librealsense stores it], "translation": [3]}, ...]}

Camera-info keys and option names are librealsense's own strings. A value
that librealsense refuses to give (an exception, e.g. no intrinsics, no
extrinsics between two streams) is null, or the field is absent for
`intrinsics`/`motion_intrinsics` when the profile is not of that kind.
`extrinsics` lists every ordered pair of distinct profiles (by `key`).
Option values and the extrinsics are as the playback device reports them;
a playback sensor turns every recorded option into a read-only constant
(min = max = default = value, step 0). `unique_id`s are handed out by the
playback from a process-wide counter (0, 1, 2, ... in a fresh process), not
the recorded uids, and the profile order within a sensor need not be the
recording's. Motion profiles have an empty size in their key
("s0:Accel_0:MOTION_XYZ32F:@200").
"""

import argparse
import hashlib
import json
import sys
import threading
import time

import pyrealsense2 as rs

from stamps import as_recorded


def enum_name(value):
    """The Python name of a pyrealsense2 enum value (`.name` is shadowed in
    some enums, e.g. rs.camera_info.name is itself a value)."""
    text = str(value)
    return text.split(".", 1)[1] if "." in text else text


def less_screamy(name):
    """librealsense's own enum spelling: hardware_clock -> Hardware Clock."""
    name = name if isinstance(name, str) else enum_name(name)
    return " ".join(w[:1].upper() + w[1:].lower() for w in name.split("_") if w)


def stream_name(stream):
    return less_screamy(stream)


def format_name(fmt):
    return enum_name(fmt).upper()


def load(path):
    ctx = rs.context()
    dev = ctx.load_device(path)
    playback = dev.as_playback()
    playback.set_real_time(False)
    return ctx, dev, playback


METADATA = list(rs.frame_metadata_value.__members__.items())


def frame_metadata(frame):
    out = {}
    for name, key in METADATA:
        if frame.supports_frame_metadata(key):
            out[less_screamy(name)] = frame.get_frame_metadata(key)
    return out


OPTIONS = list(rs.option.__members__.items())


def option_values(sensor):
    out = {}
    for name, key in OPTIONS:
        if sensor.supports(key):
            out[less_screamy(name)] = safe(sensor.get_option, key)
    return out


def play_frames(path, timeout_s=120.0, metadata=False, options=False, extra=None):
    """The frames librealsense plays from `path`, one dict each (see the
    module's docstring); `extra(frame)`, if given, returns more fields for
    a frame's dict, read inside its callback while the frame is valid."""
    ctx, dev, playback = load(path)
    lock = threading.Lock()
    frames = []  # (arrival, record) in arrival order

    def on_frame(frame, sensor=None):
        data = bytes(frame.get_data())
        profile = frame.get_profile()
        record = {
            "stream": stream_name(profile.stream_type()),
            "stream_index": profile.stream_index(),
            "frame_index": None,  # counted below, in arrival order
            "frame_number": frame.get_frame_number(),
            "timestamp": as_recorded(frame.get_timestamp()),
            "domain": less_screamy(frame.get_frame_timestamp_domain()),
            "size": frame.get_data_size(),
            "sha256": hashlib.sha256(data).hexdigest(),
        }
        if metadata:
            record["metadata"] = frame_metadata(frame)
        if options:
            record["options"] = option_values(sensor)
        if extra is not None:
            record.update(extra(frame))
        if record["size"] != len(data):
            record["size_mismatch"] = len(data)
        with lock:
            frames.append(record)

    # Start every sensor while the playback is paused, then resume: the
    # first sensor.start() starts the reader thread at once, and a frame it
    # reads for a sensor that is not started yet is dropped ("stream is not
    # longer active, frame dropped!"). Started while paused, the reader reads
    # one item only; resume() seeks back to the last frame it delivered (or
    # to the start) and plays everything from there.
    playback.pause()
    sensors = list(dev.query_sensors())
    started = []
    for sensor in sensors:
        profiles = sensor.get_stream_profiles()
        if not profiles:
            continue
        sensor.open(profiles)
        sensor.start(lambda frame, sensor=sensor: on_frame(frame, sensor))
        started.append(sensor)
    playback.resume()

    # resume() returns once the reader thread has taken it: the status is
    # then `playing` until the end of the file, then `stopped`. (No status
    # callback: pause() waits for the reader thread while holding the GIL,
    # and a Python status callback there deadlocks until librealsense's 10 s
    # timeout.)
    begin = time.monotonic()
    while playback.current_status() != rs.playback_status.stopped:
        if time.monotonic() - begin > timeout_s:
            raise SystemExit(f"playback of {path} did not stop within {timeout_s} s")
        time.sleep(0.01)
    # Grace for a callback that is still running.
    last = -1
    while True:
        time.sleep(0.2)
        with lock:
            n = len(frames)
        if n == last:
            break
        last = n

    for sensor in started:
        for action in (sensor.stop, sensor.close):
            try:
                action()
            except RuntimeError:
                pass  # playback already stopped the sensor at end of file
    with lock:
        out = list(frames)
    del dev, playback, ctx
    counts = {}
    for record in out:
        stream = (record["stream"], record["stream_index"])
        record["frame_index"] = counts.get(stream, 0)
        counts[stream] = record["frame_index"] + 1
    out.sort(key=lambda r: (r["stream"], r["stream_index"], r["frame_number"]))
    return out



def safe(fn, *args):
    try:
        return fn(*args)
    except Exception:  # noqa: BLE001
        return None


def camera_info(obj):
    info = {}
    for name, member in rs.camera_info.__members__.items():
        if safe(obj.supports, member):
            info[less_screamy(name)] = safe(obj.get_info, member)
    return info


def options(sensor):
    out = []
    for opt in sensor.get_supported_options():
        rng = safe(sensor.get_option_range, opt)
        out.append(
            {
                "option": str(opt),
                "value": safe(sensor.get_option, opt),
                "min": rng.min if rng else None,
                "max": rng.max if rng else None,
                "step": rng.step if rng else None,
                "default": rng.default if rng else None,
                "description": safe(sensor.get_option_description, opt),
                "read_only": safe(sensor.is_option_read_only, opt),
            }
        )
    return out


def intrinsics_json(i):
    return {
        "width": i.width,
        "height": i.height,
        "ppx": i.ppx,
        "ppy": i.ppy,
        "fx": i.fx,
        "fy": i.fy,
        "model": less_screamy(i.model),
        "coeffs": list(i.coeffs),
    }


def motion_intrinsics_json(m):
    return {
        "data": [list(row) for row in m.data],
        "noise_variances": list(m.noise_variances),
        "bias_variances": list(m.bias_variances),
    }


def profile_json(sensor_index, p):
    stream = stream_name(p.stream_type())
    out = {
        "key": None,
        "stream": stream,
        "index": p.stream_index(),
        "unique_id": p.unique_id(),
        "format": format_name(p.format()),
        "fps": p.fps(),
        "is_default": p.is_default(),
    }
    size = ""
    if p.is_video_stream_profile():
        v = p.as_video_stream_profile()
        out["width"], out["height"] = v.width(), v.height()
        size = f"{v.width()}x{v.height()}"
        intr = safe(v.get_intrinsics)
        out["intrinsics"] = intrinsics_json(intr) if intr is not None else None
    if p.is_motion_stream_profile():
        m = safe(p.as_motion_stream_profile().get_motion_intrinsics)
        out["motion_intrinsics"] = motion_intrinsics_json(m) if m is not None else None
    out["key"] = f"s{sensor_index}:{stream}_{out['index']}:{out['format']}:{size}@{out['fps']}"
    return out


def device_json(path):
    ctx, dev, playback = load(path)
    result = {
        "camera_info": camera_info(dev),
        "playback": {
            "duration_ns": safe(lambda: playback.get_duration().total_seconds() * 1e9),
            "real_time": playback.is_real_time(),
        },
        "sensors": [],
        "extrinsics": [],
    }
    all_profiles = []
    for index, sensor in enumerate(dev.query_sensors()):
        profiles = []
        for p in sensor.get_stream_profiles():
            pj = profile_json(index, p)
            profiles.append(pj)
            all_profiles.append((pj["key"], p))
        result["sensors"].append(
            {
                "name": safe(sensor.get_info, rs.camera_info.name),
                "camera_info": camera_info(sensor),
                "options": options(sensor),
                "profiles": profiles,
            }
        )
    for key_a, a in all_profiles:
        for key_b, b in all_profiles:
            if key_a == key_b:
                continue
            e = safe(a.get_extrinsics_to, b)
            result["extrinsics"].append(
                {
                    "from": key_a,
                    "to": key_b,
                    "rotation": list(e.rotation) if e is not None else None,
                    "translation": list(e.translation) if e is not None else None,
                }
            )
    duration = result["playback"]["duration_ns"]
    if duration is not None:
        result["playback"]["duration_ns"] = int(round(duration))
    del dev, playback, ctx
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("bag")
    parser.add_argument("--device-json", action="store_true", help="describe the device instead")
    parser.add_argument("--metadata", action="store_true",
                        help='add "metadata": {name: value} to each frame line')
    parser.add_argument("--options", action="store_true",
                        help='add "options": {name: value} of the frame\'s sensor to each line')
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds to wait for the end")
    args = parser.parse_args()
    if args.device_json:
        json.dump(device_json(args.bag), sys.stdout, indent=1)
        sys.stdout.write("\n")
        return
    for record in play_frames(args.bag, args.timeout, args.metadata, args.options):
        sys.stdout.write(json.dumps(record) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
