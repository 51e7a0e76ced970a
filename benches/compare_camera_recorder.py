#!/usr/bin/env python3
"""rsbag's camera recorder against librealsense's own, recording the same
simulated camera at a D435's full rate; prints frames dropped and CPU
seconds per recorded second, median of per-round ratios with their spread.

Usage (from the crate root, after `cargo build --release -p rsbag-cli`):
    python3 benches/compare_camera_recorder.py [--rounds 3] [--seconds 10] [--dir DIR]

The camera: a recording librealsense 2.55 writes (tests/interop/
rs_camera_sources.py --camera d435-full: depth 1280x720 Z16 and colour
1920x1080 RGB8 at 30 fps, accel 200 Hz and gyro 400 Hz, `--seconds` long,
uncompressed), played by librealsense as a device in real time.

Each round, for `.bag` (librealsense 2.55, LZ4) and `.db3` (librealsense
2.59, compressed), one process each, in turn:
  - rsbag: `rsbag record --camera SERIAL --simulate SOURCE` with
    librealsense loaded (libpython preloaded, RSBAG_LIBREALSENSE);
  - librealsense: its recorder cannot wrap a played device (2.55 and 2.59
    abort when the record device is destroyed: playback_sensor::
    unregister_before_start_callback is not implemented), and a pipeline
    refuses to record a device it plays from a file. So a pyrealsense2
    process plays SOURCE in real time and hands every frame (bytes,
    number, timestamp, domain) to an `rs.software_device` with the same
    streams, which `rs.recorder(OUT, device, True)` records;
  - two baselines without a recorder: the same process only playing
    SOURCE ("play"), and playing and handing frames over ("forward").
CPU is each process's user + system time. On a busy machine librealsense's
real-time playback hands each process a different share of the source's
frames, so a recorder's cost is taken per video frame handed over: rsbag's
process per frame less "play" per frame (the playback in it),
librealsense's process per frame less "forward" per frame; times 60 video
frames (a second of the full-rate camera): CPU seconds per recorded second.
Dropped: frames the recorder was handed minus frames in its file (rsbag:
its report, checked against the file; librealsense: frames handed over,
counted in the process, against `rsbag info` of its file). Frames the
playback itself did not hand over are shown apart.
"""

import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RSBAG = os.environ.get("RSBAG_BIN", os.path.join(ROOT, "target", "release", "rsbag"))
SOURCES = os.path.join(ROOT, "tests", "interop", "rs_camera_sources.py")
PYTHON_259 = os.environ.get("RSBAG_PYTHON_259",
                            os.path.join(ROOT, "target", "venv-librealsense-2.59", "bin", "python"))
STREAMS = "depth,color,accel,gyro"


# ---- the librealsense side (run in a child process) ------------------------

def stream_key(profile):
    name = str(profile.stream_type()).split(".")[-1]
    return f"{name[:1].upper()}{name[1:]}_{profile.stream_index()}"


def mirror(rs, device):
    """A software device with `device`'s sensors and streams; the software
    profile (and its sensor) for each played profile's unique id."""
    soft = rs.software_device()
    for info in (rs.camera_info.name, rs.camera_info.serial_number):
        if device.supports(info):
            soft.register_info(info, device.get_info(info))
    targets, sensors = {}, []
    for sensor in device.query_sensors():
        ss = soft.add_sensor(sensor.get_info(rs.camera_info.name))
        profiles = []
        for p in sensor.get_stream_profiles():
            if p.is_video_stream_profile():
                v = p.as_video_stream_profile()
                vs = rs.video_stream()
                vs.type, vs.index, vs.uid = p.stream_type(), p.stream_index(), p.unique_id()
                vs.width, vs.height, vs.fps, vs.fmt = v.width(), v.height(), p.fps(), p.format()
                vs.bpp = {rs.format.z16: 2, rs.format.rgb8: 3}.get(p.format(), 1)
                vs.intrinsics = v.get_intrinsics()
                made = ss.add_video_stream(vs, p.is_default())
            elif p.is_motion_stream_profile():
                ms = rs.motion_stream()
                ms.type, ms.index, ms.uid = p.stream_type(), p.stream_index(), p.unique_id()
                ms.fps, ms.fmt = p.fps(), p.format()
                ms.intrinsics = p.as_motion_stream_profile().get_motion_intrinsics()
                made = ss.add_motion_stream(ms, p.is_default())
            else:
                continue
            targets[p.unique_id()] = (ss, made)
            profiles.append(made)
        sensors.append((ss, profiles))
    return soft, targets, sensors


def hand_over(rs, frame, target):
    """`frame` (valid inside its callback) fed to the software sensor."""
    sensor, profile = target
    if frame.is_video_frame():
        v = frame.as_video_frame()
        f = rs.software_video_frame()
        f.pixels = frame.get_data()  # copied by pyrealsense2
        f.stride, f.bpp = v.get_stride_in_bytes(), v.get_bytes_per_pixel()
        f.profile = profile.as_video_stream_profile()
        put = sensor.on_video_frame
    else:
        f = rs.software_motion_frame()
        f.data = frame.as_motion_frame().get_motion_data()
        f.profile = profile.as_motion_stream_profile()
        put = sensor.on_motion_frame
    f.timestamp = frame.get_timestamp()
    f.domain = frame.get_frame_timestamp_domain()
    f.frame_number = frame.get_frame_number()
    put(f)


def child(mode, source, out):
    """Play `source` in real time; `forward`: hand every frame to a software
    device; `record`: and record that with rs.recorder into `out`. Prints
    the frames delivered per stream."""
    import threading

    import pyrealsense2 as rs

    ctx = rs.context()
    device = ctx.load_device(source)
    playback = device.as_playback()
    playback.pause()
    counts, lock = Counter(), threading.Lock()
    targets, started_soft, recorder = {}, [], None
    if mode in ("forward", "record"):
        soft, targets, soft_sensors = mirror(rs, device)
        if mode == "record":
            recorder = rs.recorder(out, soft, True)
        for ss, profiles in soft_sensors:
            if profiles:
                ss.open(profiles)
                ss.start(lambda f: None)
                started_soft.append(ss)

    def on_frame(frame):
        profile = frame.get_profile()
        with lock:
            counts[stream_key(profile)] += 1
        target = targets.get(profile.unique_id())
        if target is not None:
            hand_over(rs, frame, target)

    started = []
    for sensor in device.query_sensors():
        profiles = sensor.get_stream_profiles()
        if profiles:
            sensor.open(profiles)
            sensor.start(on_frame)
            started.append(sensor)
    playback.resume()
    while playback.current_status() != rs.playback_status.stopped:
        time.sleep(0.02)
    time.sleep(0.3)  # a callback still running
    for sensor in started:
        for action in (sensor.stop, sensor.close):
            try:
                action()
            except RuntimeError:
                pass
    for ss in started_soft:
        ss.stop()
        ss.close()
    if recorder is not None:
        recorder.pause()
        del recorder  # writes the index
    print(json.dumps(dict(counts)))


# ---- the parent ------------------------------------------------------------

def run_measured(args, env=None):
    """Run `args` (the only child running); its stdout and its user +
    system CPU seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(args, capture_output=True, text=True, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"{args[0]} failed: {done.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return done.stdout, cpu


def frames_in(path):
    """Frames per stream ("Depth_0") in a recording, as rsbag reads it."""
    info = json.loads(subprocess.run([RSBAG, "info", "--json", path], check=True,
                                     capture_output=True, text=True).stdout)
    return {f"{s['stream']}_{s['index']}": s["frames"] for s in info["realsense"]["streams"]}


def librealsense_paths(python):
    code = ("import json, os, sysconfig, pyrealsense2 as rs; print(json.dumps({'library': "
            "rs.pyrealsense2.__file__, 'libpython': os.path.join(sysconfig.get_config_var('LIBDIR'),"
            " sysconfig.get_config_var('INSTSONAME'))}))")
    return json.loads(subprocess.run([python, "-c", code], check=True, capture_output=True,
                                     text=True).stdout)


def rsbag_round(python, serial, source, out):
    paths = librealsense_paths(python)
    env = dict(os.environ, LD_PRELOAD=paths["libpython"], RSBAG_LIBREALSENSE=paths["library"])
    report, cpu = run_measured([RSBAG, "record", "--camera", serial, "--simulate", source,
                                "--streams", STREAMS, "--duration", "600", "--out", out], env)
    written, delivered, dropped = Counter(), Counter(), 0
    for line in report.splitlines():
        m = re.match(r"^(\w+) (\d+)\s+(\d+)\s+(\d+)\s+\d+$", line)
        if m:
            stream = f"{m.group(1)}_{m.group(2)}"
            written[stream] = int(m.group(3))
            delivered[stream] = int(m.group(3)) + int(m.group(4))
            dropped += int(m.group(4))
    in_file = frames_in(out)
    if in_file != dict(written):
        sys.exit(f"rsbag's report {dict(written)} is not its file's {in_file}")
    os.remove(out)
    return {"cpu": cpu, "delivered": delivered, "dropped": dropped}


def librealsense_round(python, mode, source, out=None):
    args = [python, os.path.abspath(__file__), "--child", mode, source] + ([out] if out else [])
    printed, cpu = run_measured(args)
    delivered = Counter(json.loads(printed.strip().splitlines()[-1]))
    result = {"cpu": cpu, "delivered": delivered}
    if out is not None:
        result["dropped"] = sum(delivered.values()) - sum(frames_in(out).values())
        os.remove(out)
    return result


VIDEO = ("Depth_0", "Color_0")
VIDEO_FPS = 30


def full_rate(measured, baseline):
    """A recorder's CPU seconds per second of the full-rate camera: its
    process's CPU per video frame it was handed, less the baseline's (the
    same process without the recorder) per frame it got, times the video
    frames of a second. (Per frame: the real-time playback hands each
    process a different share of the frames on a busy machine.)"""
    def per_frame(run):
        return run["cpu"] / sum(run["delivered"][s] for s in VIDEO)
    return (per_frame(measured) - per_frame(baseline)) * VIDEO_FPS * len(VIDEO)


def spread(values):
    return f"{statistics.median(values):.3f} (min {min(values):.3f}, max {max(values):.3f})"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--dir", default=None, help="where to put the recordings")
    parser.add_argument("--only", choices=["bag", "db3"], help="one format only")
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child[0], args.child[1], args.child[2] if len(args.child) > 2 else None)
        return
    if not os.path.exists(RSBAG):
        sys.exit(f"{RSBAG} is missing: run `cargo build --release -p rsbag-cli` first")
    work = args.dir or tempfile.mkdtemp(prefix="rsbag-camera-")
    os.makedirs(work, exist_ok=True)
    try:
        source = os.path.join(work, "d435-full.bag")
        print(f"writing the camera with librealsense 2.55 ({args.seconds:g} s)...", flush=True)
        said = json.loads(subprocess.run(
            [sys.executable, SOURCES, source, "--camera", "d435-full", "--seconds",
             str(args.seconds), "--no-compress"], check=True, capture_output=True, text=True).stdout)
        in_source = sum(frames_in(source).values())
        print(f"  {os.path.getsize(source) / 1e9:.2f} GB, {in_source} frames "
              f"({said['frames']} fed)", flush=True)
        formats = [("bag", sys.executable, "2.55"), ("db3", PYTHON_259, "2.59")]
        for ext, python, version in formats:
            if args.only and ext != args.only:
                continue
            rows = []
            for n in range(args.rounds):
                subprocess.run(["cat", source], check=True, stdout=subprocess.DEVNULL)
                out = os.path.join(work, f"out.{ext}")
                row = {
                    "play": librealsense_round(python, "play", source),
                    "forward": librealsense_round(python, "forward", source),
                    "librealsense": librealsense_round(python, "record", source, out),
                    "rsbag": rsbag_round(python, said["serial"], source, out),
                }
                rows.append(row)
                print(f"  round {n + 1} ({ext}): " + ", ".join(
                    f"{k} {v['cpu']:.2f} s CPU, {sum(v['delivered'].values())} delivered"
                    + (f", {v['dropped']} dropped" if "dropped" in v else "")
                    for k, v in row.items()), flush=True)
            ours = [full_rate(r["rsbag"], r["play"]) for r in rows]
            theirs = [full_rate(r["librealsense"], r["forward"]) for r in rows]
            print(f"{ext} (librealsense {version}), {args.rounds} rounds, {in_source} frames in "
                  f"the source:")
            print(f"  frames dropped by the recorder: rsbag {[r['rsbag']['dropped'] for r in rows]}, "
                  f"librealsense {[r['librealsense']['dropped'] for r in rows]}; handed to it by "
                  f"the real-time playback: rsbag "
                  f"{[sum(r['rsbag']['delivered'].values()) for r in rows]}, librealsense "
                  f"{[sum(r['librealsense']['delivered'].values()) for r in rows]}")
            print(f"  recorder CPU s per recorded s at the full rate: rsbag {spread(ours)}, "
                  f"librealsense {spread(theirs)}")
            print(f"  rsbag / librealsense, per round: "
                  f"{spread([a / b for a, b in zip(ours, theirs)])}", flush=True)
    finally:
        if args.dir is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
