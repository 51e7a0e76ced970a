#!/usr/bin/env python3
"""Record a small, deterministic .bag with the real librealsense
(pyrealsense2 2.55.1): an `rs.software_device` whose sensors are fed
synthetic frames while `rs.recorder(OUT, device, compress)` writes the file.

Usage:
    python3 rs_record.py OUT.bag --scenario NAME [--no-compress] [--json PATH]

--no-compress  chunks are written uncompressed (`rs.recorder(..., False)`);
               by default librealsense writes lz4 chunks.
--json PATH    also write the JSON below to PATH (it is always printed).
--recorder rsbag  record through rsbag.realsense.DeviceRecorder (the rsbag
               Python package, which must be importable) instead of
               rs.recorder; chunks then are rsbag's (lz4).

Scenarios (all timestamps in the hardware-clock domain unless said):
  depth-color  sensor "Stereo Module": Depth Z16 64x48 @30 (+ read-only
               option Depth Units 0.001); sensor "RGB Camera": Color RGB8
               64x48 @30 (+ option Exposure). 10 frames each, frame i has
               number i+1 and timestamp 1000 + i*33.3 ms. Extrinsics
               Depth->Color: identity rotation, translation (0.015, 0, 0).
  stereo       one sensor "Stereo Module": Infrared 1 and Infrared 2 Y8 and
               Depth Z16, all 50x30 @15, 6 frames each at 1000 + i*66.6 ms.
               Extrinsics Depth->Infrared 1 identity, Infrared 1->Infrared 2
               translation (-0.05, 0, 0).
  motion       sensor "Motion Module": Accel @200 (10 frames, every 5 ms) and
               Gyro @400 (20 frames, every 2.5 ms), MOTION_XYZ32F, with motion
               intrinsics; sensor "Stereo Module": Depth Z16 16x12 @30,
               3 frames. Extrinsics Depth->Accel and Depth->Gyro registered.
  metadata     sensor "Stereo Module": Depth Z16 32x24 @30, 6 frames in the
               System Time domain; before each frame set_metadata sets Frame
               Counter, Sensor Timestamp, Actual Exposure, Gain Level, and
               Actual Fps. Options: read-only Depth Units 0.001 and Stereo
               Baseline 50 (add_read_only_option), writable Exposure 1..10000
               step 1 default 100 (add_option) changed to 250 after frame 2,
               read-only-range Gain (add_option(..., False)).
               No notification: pyrealsense2 2.55 stores dangling pointers for
               software_notification.description/serialized_data (pybind11
               converts the str to a temporary), so the bag would get garbage.
  hdr          for rs.hdr_merge and rs.sequence_id_filter: sensor "Stereo
               Module": Depth Z16 and Infrared 1 Y8 32x24 @30, 8 frames each
               at 1000 + i*33.3 ms with metadata Frame Counter i+1, Sequence
               Size 2 and Sequence Id i % 2 (the two exposures of HDR): depth
               holes and infrared saturated (id 0) or dark (id 1) in
               different places.
  media        for `convert --to csv|npy|mp4|kalibr`: sensor "Stereo Module":
               Depth Z16 64x48 @30 with read-only Depth Units 0.00025, 12
               frames of smooth depth (raw 1000 + 40 (x + y) + 200 i) at
               1000 + i*33.3 ms, frames 5 and 6 (i = 4, 5) dropped; sensor
               "RGB Camera": Color RGB8 64x48 @30, 10 smooth gradient frames,
               frame 8 (i = 7) dropped; sensor "Motion Module": Accel @100 at
               1002 + 10 i ms (9 samples) and Gyro @200 at 1000 + 5 i ms (20
               samples, the first before and the last three after the accel
               samples).
  live         for `rsbag view --camera --simulate`: 20 s of depth Z16 and
               colour RGB8 64x48 @30 (sensors "Stereo Module", "RGB Camera";
               600 frames each), Accel @100 and Gyro @200 ("Motion Module").
  formats      ten sensors "Sensor 0".."Sensor 9", one 16x8 @30 stream each, in
               every video format librealsense 2.59 compresses its own way:
               Depth Z16, Infrared 1-3 Y8/Y16/RAW16, Color 0-5
               RGB8/BGR8/RGBA8/BGRA8/YUYV/UYVY; 3 frames each.

Output (stdout, one JSON object):
    {"scenario": "depth-color", "pyrealsense2": "2.55.1.6486",
     "compressed": true, "bag": "OUT.bag",
     "camera_info": {"Name": ..., "Serial Number": ..., ...},
     "sensors": [{"name": ..., "options": [{"option": "Exposure",
                  "value": 100.0, "min", "max", "step", "default",
                  "read_only": false, "kind": "add_option"|"add_read_only_option"}],
                  "streams": [{"stream": "Depth", "index": 0, "uid": 101,
                   "format": "Z16", "fps": 30, "width": 64, "height": 48,
                   "bpp": 2, "intrinsics": {...}} or motion_intrinsics]}],
     "extrinsics": [{"from": "Depth_0", "to": "Color_0",
                     "rotation": [9], "translation": [3]}],
     "option_changes": [{"sensor": "...", "option": "Exposure", "value": 250.0,
                         "after_frame": {"stream": ..., "frame_number": ...}}],
     "frames": [{"stream": "Color", "index": 0, "frame_number": 1,
                 "timestamp": 1000.0, "domain": "Hardware Clock",
                 "size": 9216, "sha256": "<hex>"}, ...]}

`frames` lists every frame fed, sorted by (stream, index, frame_number) like
rs_play.py prints them; `size`/`sha256` describe the bytes fed (motion frames:
three little-endian float32). In the metadata scenario each frame entry also
has "metadata": {"Frame Counter": 1, ...} (librealsense's names), the values
set just before it. Frames are fed at their timestamps' pace (real time), so
bag receive times differ between runs; all content is the same every run.
"""

import argparse
import hashlib
import importlib.metadata
import json
import struct
import sys
import time

import pyrealsense2 as rs

HW = rs.timestamp_domain.hardware_clock
SYSTEM = rs.timestamp_domain.system_time


def enum_name(value):
    text = str(value)
    return text.split(".", 1)[1] if "." in text else text


def less_screamy(value):
    name = value if isinstance(value, str) else enum_name(value)
    return " ".join(w[:1].upper() + w[1:].lower() for w in name.split("_") if w)


BPP = {rs.format.z16: 2, rs.format.y8: 1, rs.format.rgb8: 3, rs.format.y16: 2, rs.format.raw16: 2,
       rs.format.bgr8: 3, rs.format.rgba8: 4, rs.format.bgra8: 4, rs.format.yuyv: 2, rs.format.uyvy: 2}


def pixels(code, n, size):
    """Deterministic frame bytes: stream `code`, frame index `n`."""
    return bytes((i * 7 + n * 13 + code * 31 + (i // 97)) & 0xFF for i in range(size))


def vector(x, y, z):
    v = rs.vector()
    v.x, v.y, v.z = x, y, z
    return v


def extrinsics(rotation, translation):
    e = rs.extrinsics()
    e.rotation = list(rotation)
    e.translation = list(translation)
    return e


IDENTITY = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]


class Session:
    """A software device, the streams on it and everything fed to it."""

    def __init__(self, name, serial):
        self.dev = rs.software_device()
        self.camera_info = {}
        self.register_info(rs.camera_info.name, name)
        self.register_info(rs.camera_info.serial_number, serial)
        self.register_info(rs.camera_info.firmware_version, "5.15.1.55")
        self.register_info(rs.camera_info.product_line, "D400")
        self.sensors = []  # dicts: name, handle, profiles, options, streams
        self.streams = {}  # key -> dict(sensor, profile, spec)
        self.extrinsics = []
        self.option_changes = []
        # How an option is set while recording: on the sensor (rs.recorder
        # sees it there), or through rsbag's DeviceRecorder.
        self.option_setter = lambda handle, option, value: handle.set_option(option, value)
        self.frames = []
        self.metadata_set = False

    def register_info(self, info, value):
        self.dev.register_info(info, value)
        self.camera_info[less_screamy(enum_name(info))] = value

    def add_sensor(self, name):
        sensor = {"name": name, "handle": self.dev.add_sensor(name), "profiles": [],
                  "options": [], "streams": [], "metadata": {}}
        self.sensors.append(sensor)
        return sensor

    def add_video(self, sensor, stream, index, uid, fmt, width, height, fps, model, default=True):
        intr = rs.intrinsics()
        intr.width, intr.height = width, height
        intr.ppx, intr.ppy = width / 2 - 0.5, height / 2 - 0.5
        intr.fx, intr.fy = width * 0.9, width * 0.9 + 0.5
        intr.model = model
        intr.coeffs = [0.0] * 5 if model == rs.distortion.none else [0.1, -0.05, 0.001, 0.002, 0.01]
        vs = rs.video_stream()
        vs.type, vs.index, vs.uid = stream, index, uid
        vs.width, vs.height, vs.fps = width, height, fps
        vs.bpp, vs.fmt, vs.intrinsics = BPP[fmt], fmt, intr
        profile = sensor["handle"].add_video_stream(vs, default)
        key = f"{less_screamy(stream)}_{index}"
        spec = {"stream": less_screamy(stream), "index": index, "uid": uid,
                "format": enum_name(fmt).upper(), "fps": fps, "width": width,
                "height": height, "bpp": BPP[fmt],
                "intrinsics": {"width": width, "height": height, "ppx": intr.ppx,
                               "ppy": intr.ppy, "fx": intr.fx, "fy": intr.fy,
                               "model": less_screamy(model), "coeffs": list(intr.coeffs)}}
        sensor["profiles"].append(profile)
        sensor["streams"].append(spec)
        self.streams[key] = {"sensor": sensor, "profile": profile, "spec": spec}
        return key

    def add_motion(self, sensor, stream, uid, fps, scale):
        mi = rs.motion_device_intrinsic()
        mi.data = [[scale, 0.0, 0.0, 0.01], [0.0, scale, 0.0, 0.02], [0.0, 0.0, scale, 0.03]]
        mi.noise_variances = [0.001, 0.002, 0.003]
        mi.bias_variances = [0.0005, 0.0006, 0.0007]
        ms = rs.motion_stream()
        ms.type, ms.index, ms.uid, ms.fps = stream, 0, uid, fps
        ms.fmt, ms.intrinsics = rs.format.motion_xyz32f, mi
        profile = sensor["handle"].add_motion_stream(ms, True)
        key = f"{less_screamy(stream)}_0"
        spec = {"stream": less_screamy(stream), "index": 0, "uid": uid,
                "format": "MOTION_XYZ32F", "fps": fps,
                "motion_intrinsics": {"data": [list(r) for r in mi.data],
                                      "noise_variances": list(mi.noise_variances),
                                      "bias_variances": list(mi.bias_variances)}}
        sensor["profiles"].append(profile)
        sensor["streams"].append(spec)
        self.streams[key] = {"sensor": sensor, "profile": profile, "spec": spec}
        return key

    def read_only_option(self, sensor, option, value):
        sensor["handle"].add_read_only_option(option, value)
        sensor["options"].append({"option": str(option), "value": value, "min": value,
                                  "max": value, "step": 0.0, "default": value,
                                  "read_only": True, "kind": "add_read_only_option"})

    def option(self, sensor, option, lo, hi, step, default, writable=True):
        rng = rs.option_range()
        rng.min, rng.max, rng.step, rng.default = lo, hi, step, default
        sensor["handle"].add_option(option, rng, writable)
        sensor["options"].append({"option": str(option), "value": default, "min": lo, "max": hi,
                                  "step": step, "default": default, "read_only": not writable,
                                  "kind": "add_option"})

    def link(self, a, b, rotation, translation):
        """Extrinsics from stream `a` to stream `b`."""
        pa, pb = self.streams[a]["profile"], self.streams[b]["profile"]
        pa.register_extrinsics_to(pb, extrinsics(rotation, translation))
        self.extrinsics.append({"from": a, "to": b, "rotation": list(rotation),
                                "translation": list(translation)})

    # ---- feeding -------------------------------------------------------

    def record_frame(self, key, number, timestamp, domain, data):
        spec = self.streams[key]["spec"]
        entry = {"stream": spec["stream"], "index": spec["index"], "frame_number": number,
                 "timestamp": timestamp, "domain": less_screamy(domain), "size": len(data),
                 "sha256": hashlib.sha256(data).hexdigest()}
        md = self.streams[key]["sensor"]["metadata"]
        if self.metadata_set:
            entry["metadata"] = dict(md)
        self.frames.append(entry)

    def video_frame(self, key, n, number, timestamp, domain=HW, data=None):
        s = self.streams[key]
        spec = s["spec"]
        if data is None:
            data = pixels(spec["uid"], n, spec["width"] * spec["height"] * spec["bpp"])
        f = rs.software_video_frame()  # a new one each time: it owns `pixels`
        f.pixels = data
        f.stride = spec["width"] * spec["bpp"]
        f.bpp = spec["bpp"]
        f.timestamp = timestamp
        f.domain = domain
        f.frame_number = number
        f.profile = s["profile"].as_video_stream_profile()
        s["sensor"]["handle"].on_video_frame(f)
        self.record_frame(key, number, timestamp, domain, data)

    def motion_frame(self, key, n, number, timestamp, domain=HW, xyz=None):
        s = self.streams[key]
        # Values exactly representable as float32.
        if xyz is None:
            xyz = (0.25 * n - 1.0, 9.75 + 0.125 * (n % 4), -0.5 * (n % 3)) \
                if key.startswith("Accel") else (0.0625 * n, -0.03125 * n, 1.5 - 0.25 * (n % 5))
        f = rs.software_motion_frame()
        f.data = vector(*xyz)
        f.timestamp = timestamp
        f.domain = domain
        f.frame_number = number
        f.profile = s["profile"].as_motion_stream_profile()
        s["sensor"]["handle"].on_motion_frame(f)
        self.record_frame(key, number, timestamp, domain, struct.pack("<3f", *xyz))

    def set_metadata(self, sensor, key, value):
        sensor["handle"].set_metadata(key, int(value))
        sensor["metadata"][less_screamy(enum_name(key))] = int(value)
        self.metadata_set = True

    def set_option(self, sensor, option, value, after):
        self.option_setter(sensor["handle"], option, value)
        self.option_changes.append({"sensor": sensor["name"], "option": str(option),
                                    "value": value, "after_frame": after})

    def record(self, path, compress, schedule):
        """Record `schedule`, a list of (timestamp_ms, callable), fed in
        timestamp order at real-time pace."""
        self.start_recording(path, compress)
        self.play(schedule)
        time.sleep(0.05)
        self.stop_recording()

    def start_recording(self, path, compress):
        """Start `rs.recorder` on the device and every sensor, to be fed
        and then ended by `stop_recording` (several devices can record at
        once)."""
        self.recorder = rs.recorder(path, self.dev, compress)
        for sensor in self.sensors:
            handle = sensor["handle"]
            handle.open(sensor["profiles"])
            # Release every frame at once: held frames exhaust the pool.
            handle.start(lambda frame: None)

    def stop_recording(self):
        """Stop the sensors and close the file `start_recording` began."""
        for sensor in self.sensors:
            sensor["handle"].stop()
            sensor["handle"].close()
        self.recorder.pause()
        del self.recorder  # the record device's destructor writes the index

    def record_with_rsbag(self, path, schedule):
        """`record`, through rsbag's DeviceRecorder instead of rs.recorder."""
        import rsbag.realsense

        with rsbag.realsense.DeviceRecorder(path, self.dev) as recorder:
            self.option_setter = recorder.set_option
            for sensor in self.sensors:
                recorder.open(sensor["handle"], sensor["profiles"])
                recorder.start(sensor["handle"], lambda frame: None)
            self.play(schedule)
            time.sleep(0.05)

    def play(self, schedule):
        """Feed `schedule` in timestamp order at real-time pace."""
        schedule = sorted(schedule, key=lambda item: item[0])
        t0, begin = schedule[0][0], time.monotonic()
        for at, action in schedule:
            delay = (at - t0) / 1000.0 - (time.monotonic() - begin)
            if delay > 0:
                time.sleep(delay)
            action()

    def describe(self, scenario, path, compress):
        frames = sorted(self.frames, key=lambda r: (r["stream"], r["index"], r["frame_number"]))
        return {
            "scenario": scenario,
            "pyrealsense2": importlib.metadata.version("pyrealsense2"),
            "compressed": compress,
            "bag": path,
            "camera_info": self.camera_info,
            "sensors": [{"name": s["name"], "options": s["options"], "streams": s["streams"]}
                        for s in self.sensors],
            "extrinsics": self.extrinsics,
            "option_changes": self.option_changes,
            "frames": frames,
        }


# ---- scenarios -------------------------------------------------------------

def depth_color():
    s = Session("rsbag Synthetic Depth Color", "0001")
    stereo, rgb = s.add_sensor("Stereo Module"), s.add_sensor("RGB Camera")
    s.read_only_option(stereo, rs.option.depth_units, 0.001)
    s.option(rgb, rs.option.exposure, 1.0, 10000.0, 1.0, 166.0)
    depth = s.add_video(stereo, rs.stream.depth, 0, 101, rs.format.z16, 64, 48, 30,
                        rs.distortion.brown_conrady)
    color = s.add_video(rgb, rs.stream.color, 0, 102, rs.format.rgb8, 64, 48, 30,
                        rs.distortion.inverse_brown_conrady)
    s.link(depth, color, IDENTITY, [0.015, 0.0, 0.0])
    schedule = []
    for i in range(10):
        ts = 1000.0 + i * 33.3
        schedule.append((ts, lambda i=i, ts=ts: s.video_frame(depth, i, i + 1, ts)))
        schedule.append((ts + 0.5, lambda i=i, ts=ts: s.video_frame(color, i, i + 1, ts)))
    return s, schedule


def stereo():
    s = Session("rsbag Synthetic Stereo", "0002")
    module = s.add_sensor("Stereo Module")
    s.read_only_option(module, rs.option.depth_units, 0.001)
    ir1 = s.add_video(module, rs.stream.infrared, 1, 201, rs.format.y8, 50, 30, 15,
                      rs.distortion.none)
    ir2 = s.add_video(module, rs.stream.infrared, 2, 202, rs.format.y8, 50, 30, 15,
                      rs.distortion.none)
    depth = s.add_video(module, rs.stream.depth, 0, 203, rs.format.z16, 50, 30, 15,
                        rs.distortion.brown_conrady)
    s.link(depth, ir1, IDENTITY, [0.0, 0.0, 0.0])
    s.link(ir1, ir2, IDENTITY, [-0.05, 0.0, 0.0])
    schedule = []
    for i in range(6):
        ts = 1000.0 + i * 66.6
        for k, key in enumerate((ir1, ir2, depth)):
            schedule.append((ts + 0.2 * k, lambda key=key, i=i, ts=ts: s.video_frame(key, i, i + 1, ts)))
    return s, schedule


def motion():
    s = Session("rsbag Synthetic Motion", "0003")
    module, stereo_module = s.add_sensor("Motion Module"), s.add_sensor("Stereo Module")
    accel = s.add_motion(module, rs.stream.accel, 301, 200, 1.0)
    gyro = s.add_motion(module, rs.stream.gyro, 302, 400, 0.5)
    s.read_only_option(stereo_module, rs.option.depth_units, 0.001)
    depth = s.add_video(stereo_module, rs.stream.depth, 0, 303, rs.format.z16, 16, 12, 30,
                        rs.distortion.brown_conrady)
    s.link(depth, accel, IDENTITY, [-0.0053, -0.0051, -0.0112])
    s.link(depth, gyro, IDENTITY, [-0.0053, -0.0051, -0.0112])
    schedule = []
    for i in range(10):
        ts = 1000.0 + i * 5.0
        schedule.append((ts, lambda i=i, ts=ts: s.motion_frame(accel, i, i + 1, ts)))
    for i in range(20):
        ts = 1000.0 + i * 2.5
        schedule.append((ts + 0.1, lambda i=i, ts=ts: s.motion_frame(gyro, i, i + 1, ts)))
    for i in range(3):
        ts = 1000.0 + i * 33.3
        schedule.append((ts + 0.2, lambda i=i, ts=ts: s.video_frame(depth, i, i + 1, ts)))
    return s, schedule


def metadata():
    s = Session("rsbag Synthetic Metadata", "0004")
    module = s.add_sensor("Stereo Module")
    s.read_only_option(module, rs.option.depth_units, 0.001)
    s.read_only_option(module, rs.option.stereo_baseline, 50.0)
    s.option(module, rs.option.exposure, 1.0, 10000.0, 1.0, 100.0)
    s.option(module, rs.option.gain, 16.0, 248.0, 1.0, 16.0, writable=False)
    depth = s.add_video(module, rs.stream.depth, 0, 401, rs.format.z16, 32, 24, 30,
                        rs.distortion.brown_conrady)
    exposure = {"value": 100.0}
    schedule = []

    def frame(i, ts):
        md = rs.frame_metadata_value
        s.set_metadata(module, md.frame_counter, i + 1)
        s.set_metadata(module, md.sensor_timestamp, int(round(ts * 1000)) - 500)
        s.set_metadata(module, md.actual_exposure, exposure["value"])
        s.set_metadata(module, md.gain_level, 16)
        s.set_metadata(module, md.actual_fps, 30)
        s.video_frame(depth, i, i + 1, ts, SYSTEM)
        if i == 2:
            exposure["value"] = 250.0
            s.set_option(module, rs.option.exposure, 250.0,
                         {"stream": "Depth", "index": 0, "frame_number": i + 1})

    for i in range(6):
        ts = 1_700_000_000_000.0 + i * 33.3
        schedule.append((ts, lambda i=i, ts=ts: frame(i, ts)))
    return s, schedule


def hdr():
    s = Session("rsbag Synthetic HDR", "0008")
    module = s.add_sensor("Stereo Module")
    s.read_only_option(module, rs.option.depth_units, 0.001)
    depth = s.add_video(module, rs.stream.depth, 0, 801, rs.format.z16, 32, 24, 30,
                        rs.distortion.brown_conrady)
    ir = s.add_video(module, rs.stream.infrared, 1, 802, rs.format.y8, 32, 24, 30,
                     rs.distortion.none)
    s.link(depth, ir, IDENTITY, [0.0, 0.0, 0.0])
    w, h = 32, 24

    def depth_pixels(i):
        # Holes where the exposure of sequence id i % 2 sees none: columns
        # 0-9 for id 0, 20-31 for id 1, and every 5th pixel of both.
        out = bytearray()
        for y in range(h):
            for x in range(w):
                hole = (x < 10 if i % 2 == 0 else x >= 20) or (x + y) % 5 == 0
                out += struct.pack("<H", 0 if hole else 900 + 10 * x + y + 3 * i)
        return bytes(out)

    def ir_pixels(i):
        # Saturated rows for id 0 (255, rows 0-5), dark rows for id 1 (3,
        # rows 18-23), otherwise valid.
        return bytes((255 if i % 2 == 0 and y < 6 else 3 if i % 2 == 1 and y >= 18
                      else 40 + x + 2 * y) for y in range(h) for x in range(w))

    def frame(i, ts):
        md = rs.frame_metadata_value
        s.set_metadata(module, md.frame_counter, i + 1)
        s.set_metadata(module, md.sequence_size, 2)
        s.set_metadata(module, md.sequence_id, i % 2)
        s.video_frame(depth, i, i + 1, ts, data=depth_pixels(i))
        s.video_frame(ir, i, i + 1, ts, data=ir_pixels(i))

    schedule = []
    for i in range(8):
        ts = 1000.0 + i * 33.3
        schedule.append((ts, lambda i=i, ts=ts: frame(i, ts)))
    return s, schedule


def media():
    s = Session("rsbag Synthetic Media", "0006")
    stereo, rgb = s.add_sensor("Stereo Module"), s.add_sensor("RGB Camera")
    module = s.add_sensor("Motion Module")
    s.read_only_option(stereo, rs.option.depth_units, 0.00025)
    depth = s.add_video(stereo, rs.stream.depth, 0, 601, rs.format.z16, 64, 48, 30,
                        rs.distortion.brown_conrady)
    color = s.add_video(rgb, rs.stream.color, 0, 602, rs.format.rgb8, 64, 48, 30,
                        rs.distortion.inverse_brown_conrady)
    accel = s.add_motion(module, rs.stream.accel, 603, 100, 1.0)
    gyro = s.add_motion(module, rs.stream.gyro, 604, 200, 0.5)

    # Smooth pictures, so that a video codec keeps them close.
    def depth_pixels(i):
        return struct.pack("<3072H", *(1000 + 40 * (x + y) + 200 * i
                                       for y in range(48) for x in range(64)))

    def color_pixels(i):
        return bytes(v for y in range(48) for x in range(64)
                     for v in (4 * x, 5 * y, (2 * x + 2 * y + 12 * i) & 0xFF))

    schedule = []
    for i in range(12):
        if i in (4, 5):
            continue
        ts = 1000.0 + i * 33.3
        schedule.append((ts, lambda i=i, ts=ts: s.video_frame(depth, i, i + 1, ts,
                                                              data=depth_pixels(i))))
    for i in range(10):
        if i == 7:
            continue
        ts = 1000.0 + i * 33.3 + 0.5
        schedule.append((ts, lambda i=i, ts=ts: s.video_frame(color, i, i + 1, ts,
                                                              data=color_pixels(i))))
    for i in range(9):
        ts = 1002.0 + i * 10.0
        xyz = (0.5 * i * i - 2.0, 9.8 - 0.25 * i, 0.125 * (i % 3))
        schedule.append((ts, lambda i=i, ts=ts, xyz=xyz: s.motion_frame(accel, i, i + 1, ts,
                                                                        xyz=xyz)))
    for i in range(20):
        ts = 1000.0 + i * 5.0
        xyz = (0.0625 * i, -0.03125 * i * i, 1.5 - 0.25 * (i % 5))
        schedule.append((ts + 0.1, lambda i=i, ts=ts, xyz=xyz: s.motion_frame(gyro, i, i + 1, ts,
                                                                              xyz=xyz)))
    return s, schedule


def live():
    """Depth, colour and IMU for seconds: a camera for `rsbag view --camera`."""
    s = Session("rsbag Synthetic Live", "0007")
    stereo, rgb = s.add_sensor("Stereo Module"), s.add_sensor("RGB Camera")
    module = s.add_sensor("Motion Module")
    s.read_only_option(stereo, rs.option.depth_units, 0.001)
    depth = s.add_video(stereo, rs.stream.depth, 0, 701, rs.format.z16, 64, 48, 30,
                        rs.distortion.brown_conrady)
    color = s.add_video(rgb, rs.stream.color, 0, 702, rs.format.rgb8, 64, 48, 30,
                        rs.distortion.inverse_brown_conrady)
    accel = s.add_motion(module, rs.stream.accel, 703, 100, 1.0)
    gyro = s.add_motion(module, rs.stream.gyro, 704, 200, 0.5)
    s.link(depth, color, IDENTITY, [0.015, 0.0, 0.0])
    seconds = 20
    schedule = []
    for i in range(30 * seconds):
        ts = 1000.0 + i * 1000.0 / 30
        schedule.append((ts, lambda i=i, ts=ts: s.video_frame(depth, i, i + 1, ts)))
        schedule.append((ts + 0.5, lambda i=i, ts=ts: s.video_frame(color, i, i + 1, ts)))
    for i in range(100 * seconds):
        ts = 1000.0 + i * 10.0 + 0.1
        schedule.append((ts, lambda i=i, ts=ts: s.motion_frame(accel, i, i + 1, ts)))
    for i in range(200 * seconds):
        ts = 1000.0 + i * 5.0 + 0.2
        schedule.append((ts, lambda i=i, ts=ts: s.motion_frame(gyro, i, i + 1, ts)))
    return s, schedule


def formats():
    s = Session("rsbag Format Zoo", "0005")
    # One sensor per format (a sensor holds one stream of a kind and index).
    table = [(rs.stream.depth, 0, rs.format.z16), (rs.stream.infrared, 1, rs.format.y8),
             (rs.stream.infrared, 2, rs.format.y16), (rs.stream.infrared, 3, rs.format.raw16),
             (rs.stream.color, 0, rs.format.rgb8), (rs.stream.color, 1, rs.format.bgr8),
             (rs.stream.color, 2, rs.format.rgba8), (rs.stream.color, 3, rs.format.bgra8),
             (rs.stream.color, 4, rs.format.yuyv), (rs.stream.color, 5, rs.format.uyvy)]
    keys = []
    for j, (stream, index, fmt) in enumerate(table):
        sensor = s.add_sensor(f"Sensor {j}")
        keys.append(s.add_video(sensor, stream, index, 500 + j, fmt, 16, 8, 30,
                                rs.distortion.brown_conrady))
    schedule = []
    for i in range(3):
        for j, key in enumerate(keys):
            ts = 1000.0 + i * 33.3 + j * 0.25
            schedule.append((ts, lambda i=i, key=key, ts=ts: s.video_frame(key, i, i + 1, ts)))
    return s, schedule


SCENARIOS = {"depth-color": depth_color, "stereo": stereo, "motion": motion, "metadata": metadata,
             "formats": formats, "media": media, "live": live, "hdr": hdr}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", help="the .bag to write")
    parser.add_argument("--scenario", required=True, choices=sorted(SCENARIOS))
    parser.add_argument("--no-compress", action="store_true", help="uncompressed chunks")
    parser.add_argument("--json", help="also write the JSON description here")
    parser.add_argument("--recorder", choices=["librealsense", "rsbag"], default="librealsense",
                        help="rsbag: record through rsbag.realsense.DeviceRecorder (the rsbag "
                             "Python package) instead of rs.recorder")
    args = parser.parse_args()
    session, schedule = SCENARIOS[args.scenario]()
    compress = not args.no_compress
    if args.recorder == "rsbag":
        session.record_with_rsbag(args.out, schedule)
    else:
        session.record(args.out, compress, schedule)
    text = json.dumps(session.describe(args.scenario, args.out, compress), indent=1) + "\n"
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            f.write(text)
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
