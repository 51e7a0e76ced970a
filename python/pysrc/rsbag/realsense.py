"""Record a pyrealsense2 device (a live camera, or a `software_device`)
through rsbag's writer, as `rs.recorder` does.

    import pyrealsense2 as rs
    import rsbag.realsense

    device = rs.context().query_devices()[0]
    with rsbag.realsense.DeviceRecorder("session.bag", device) as recorder:
        for sensor in device.query_sensors():
            recorder.open(sensor, sensor.get_stream_profiles()[:1])
            recorder.start(sensor, lambda frame: None)   # your callback, if any
        time.sleep(10)

The sensors are opened and started through the recorder, which writes the
device's camera info, the opened sensors' options (as they are when opened,
and each change made through `recorder.set_option(sensor, option, value)`),
the profiles with their intrinsics and extrinsics, and every frame with its
number, timestamp, domain and metadata. librealsense's callback only copies
the frame into a queue; a thread of the recorder's own writes it, so a slow
disk never holds up the camera (the queue grows instead). The file is
written as NAME.partial and renamed when the recorder closes; an error
inside the `with` deletes it, a crash leaves a partial file `rsbag reindex`
recovers. `.db3` paths write librealsense 2.59's format.
"""

import queue
import struct
import threading
import time

from ._rsbag import Writer

_STOP = object()
_OPTION = object()


def _name(enum_value):
    """librealsense's name of a pyrealsense2 enum value: `frame_counter` is
    "Frame Counter", `hardware_clock` "Hardware Clock"."""
    return str(enum_value).split(".")[-1].replace("_", " ").title()


class DeviceRecorder:
    """Records what the sensors opened and started through it stream."""

    def __init__(self, path, device, overwrite=False):
        try:
            import pyrealsense2 as rs
        except ImportError as e:
            raise ImportError(
                "rsbag.realsense records through pyrealsense2, which is not installed: "
                "pip install rsbag[realsense] (or pip install pyrealsense2)", name=e.name) from e

        self._rs = rs
        info = {}
        for key in rs.camera_info.__members__.values():
            if device.supports(key):
                info[_name(key)] = device.get_info(key)
        self._writer = Writer(path, info=info, overwrite=overwrite)
        self._names = {}  # profile unique id -> stream name in the writer
        self._reference = None  # the first profile: extrinsics are from it
        self._queue = queue.SimpleQueue()
        self._error = None
        self._started = time.monotonic()
        self._thread = threading.Thread(target=self._drain, name="rsbag-recorder", daemon=True)
        self._thread.start()
        self._sensors = []

    def open(self, sensor, profiles):
        """Describe `profiles` in the recording, then open them on `sensor`."""
        rs = self._rs
        name = sensor.get_info(rs.camera_info.name)
        for option in rs.option.__members__.values():
            if not sensor.supports(option):
                continue
            try:
                value = sensor.get_option(option)
                r = sensor.get_option_range(option)
            except RuntimeError:
                continue  # an option that cannot be read now is not recorded
            self._writer.add_option(name, _name(option), value, r.min, r.max, r.step, r.default,
                                    sensor.get_option_description(option),
                                    sensor.is_option_read_only(option))
        units = sensor.get_option(rs.option.depth_units) if sensor.supports(rs.option.depth_units) else None
        for profile in profiles:
            self._describe(name, profile, units)
        sensor.open(profiles)
        self._sensors.append(sensor)

    def _describe(self, sensor_name, profile, depth_units):
        rs = self._rs
        stream, fmt = _name(profile.stream_type()), str(profile.format()).split(".")[-1].upper()
        if self._reference is None:
            self._reference = profile
        try:
            e = self._reference.get_extrinsics_to(profile)
            extrinsics = {"rotation": list(e.rotation), "translation": list(e.translation)}
        except RuntimeError:
            extrinsics = None  # not related: identity, as librealsense records none
        if profile.is_video_stream_profile():
            video = profile.as_video_stream_profile()
            i = video.get_intrinsics()
            intrinsics = {"fx": i.fx, "fy": i.fy, "ppx": i.ppx, "ppy": i.ppy,
                          "model": _name(i.model), "coeffs": list(i.coeffs)}
            written = self._writer.add_video_stream(
                stream, fmt, video.width(), video.height(), profile.fps(), sensor=sensor_name,
                index=profile.stream_index(), intrinsics=intrinsics,
                depth_units=depth_units if profile.stream_type() == rs.stream.depth else None,
                extrinsics=extrinsics)
        else:
            motion = profile.as_motion_stream_profile()
            m = motion.get_motion_intrinsics()
            written = self._writer.add_motion_stream(
                stream, profile.fps(), sensor=sensor_name, index=profile.stream_index(),
                data=[list(row) for row in m.data], noise_variances=list(m.noise_variances),
                bias_variances=list(m.bias_variances), extrinsics=extrinsics)
        self._names[profile.unique_id()] = written

    def start(self, sensor, callback=None):
        """Start `sensor`; each frame is recorded, then given to `callback`."""

        def on_frame(frame):
            self._queue.put(self._copy(frame))
            if callback is not None:
                callback(frame)

        sensor.start(on_frame)

    def set_option(self, sensor, option, value):
        """Set `option` (an `rs.option`) of `sensor` (opened through the
        recorder) to `value`, and record the change at this moment, among
        the frames, as librealsense records an option set while recording."""
        sensor.set_option(option, value)
        name = sensor.get_info(self._rs.camera_info.name)
        self._queue.put((_OPTION, name, _name(option), sensor.get_option(option),
                         time.monotonic() - self._started))

    def _copy(self, frame):
        rs = self._rs
        metadata = {}
        for key in rs.frame_metadata_value.__members__.values():
            if frame.supports_frame_metadata(key):
                metadata[_name(key)] = frame.get_frame_metadata(key)
        if frame.is_motion_frame():
            # A motion frame's buffer can be empty (software frames); its
            # sample is the three floats librealsense reports.
            v = frame.as_motion_frame().get_motion_data()
            data = struct.pack("<3f", v.x, v.y, v.z)
        else:
            data = bytes(frame.get_data())
        return (self._names.get(frame.get_profile().unique_id()), data,
                frame.get_timestamp(), frame.get_frame_number(),
                _name(frame.get_frame_timestamp_domain()), metadata,
                time.monotonic() - self._started)

    def _drain(self):
        while True:
            item = self._queue.get()
            if item is _STOP:
                return
            if self._error is not None:
                continue
            try:
                self._write(item)
            except Exception as e:  # noqa: BLE001 (kept, raised by close)
                self._error = e

    def _write(self, item):
        if item[0] is _OPTION:
            _, sensor, option, value, arrived = item
            self._writer.set_option(sensor, option, value, time=arrived)
            return
        stream, data, timestamp, number, domain, metadata, arrived = item
        if stream is not None:
            self._writer.write(stream, data, timestamp, number, domain=domain,
                               metadata=metadata, time=arrived)

    def _stop(self):
        """Stop and close the sensors opened through the recorder, and let
        the writing thread finish what is queued."""
        for sensor in self._sensors:
            try:
                sensor.stop()
            except RuntimeError:
                pass  # opened, never started
            sensor.close()
        self._sensors.clear()
        self._queue.put(_STOP)
        self._thread.join()

    def close(self):
        """Stop and close the sensors started through the recorder, write
        what is queued and finish the file."""
        self._stop()
        if self._error is not None:
            self._writer.abandon()
            raise self._error
        return self._writer.close()

    def abandon(self):
        """Stop, and delete the unfinished file."""
        self._stop()
        self._writer.abandon()

    def __enter__(self):
        return self

    def __exit__(self, error, value, traceback):
        if error is None:
            self.close()
        else:
            self.abandon()
        return False
