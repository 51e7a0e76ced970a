"""pyrealsense2's API over rsbag, for recordings: code written for
pyrealsense2 runs on rsbag by changing one import.

    import numpy as np
    import rsbag.pyrealsense2 as rs        # was: import pyrealsense2 as rs

    pipeline = rs.pipeline()
    config = rs.config()
    config.enable_device_from_file("session.bag", repeat_playback=False)
    profile = pipeline.start(config)
    profile.get_device().as_playback().set_real_time(False)
    while True:
        ok, frames = pipeline.try_wait_for_frames(1000)
        if not ok:
            break
        depth = np.asanyarray(frames.get_depth_frame().get_data())   # HxW uint16, no copy

The playback and processing subset of pyrealsense2 2.55 with its names,
signatures, enums and behaviour: the pipeline over a file and its framesets
(librealsense's pipeline hands out the latest frame of every enabled stream
once all have arrived, IMU and pose streams one sample each), the playback
device (also loaded from the file, its sensors streaming into callbacks
and frame queues), frames and their data, profiles with intrinsics and
extrinsics, `align`, `colorizer`, `pointcloud`, `save_to_ply`,
`hdr_merge`, `sequence_id_filter`, the depth filters and rsutil's
projections, each computing what librealsense computes.

Differences: `get_data()` is a read-only numpy array over the frame's bytes
(pyrealsense2's `BufData` is writable: copy before writing into it); at the
end of a file played without repeat, `wait_for_frames` raises at once
(`rsbag.RecordingEndedError`, a `RuntimeError`) rather than after its
timeout.

Cameras go through librealsense itself (rsbag's librealsense backend,
which loads librealsense's C API when first asked for a camera):
`rs.context().query_devices()` lists the devices connected (their info,
sensors, profiles with intrinsics), `config.enable_device(serial)` and
`pipeline.start(config)` stream one (a pipeline started without a file or
serial streams the first), its frames grouped into framesets by the same
pipeline as a recording's; no device connected raises pyrealsense2's
`RuntimeError("No device connected")`. The library is the one
`RSBAG_LIBREALSENSE` names, else the system's librealsense2, else the one
inside pyrealsense2 (`pip install pyrealsense2`); with none a
`RuntimeError` says what to install. librealsense's callback only copies
each frame into a bounded queue (a frame that finds it full, its
framesets not taken in time, is dropped and counted). A device's sensors cannot be started one
by one (`sensor.start`) nor its options set through this module.

A test hook: `RSBAG_PYREALSENSE2_CAMERA=FILE` makes librealsense play the
recording FILE as a connected camera (librealsense's
`rs2_context_add_device`), which is how cameras are tested on machines
without one.
"""

from __future__ import annotations

import datetime
import enum
import collections
import importlib.machinery
import os
import struct
import threading
import time
from typing import (Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple, Type,
                    TypeVar, Union, cast)

import numpy as np
import numpy.typing as npt

from . import _rsbag

__all__ = [
    "align", "camera_info", "colorizer", "composite_frame", "config", "context",
    "decimation_filter", "depth_frame", "depth_sensor", "device", "disparity_frame",
    "disparity_transform", "distortion", "extrinsics", "filter", "format", "frame",
    "frame_metadata_value", "frame_queue", "hdr_merge", "hole_filling_filter", "intrinsics",
    "motion_device_intrinsic", "motion_frame", "motion_stream_profile", "option",
    "option_range", "pipeline", "pipeline_profile", "playback", "playback_status",
    "pointcloud", "points", "pose", "pose_frame", "pose_stream_profile", "quaternion",
    "rs2_deproject_pixel_to_point", "rs2_fov", "rs2_project_point_to_pixel",
    "rs2_transform_point_to_point", "save_to_ply", "sensor", "sequence_id_filter",
    "spatial_filter", "stream", "stream_profile", "temporal_filter", "texture_coordinate",
    "threshold_filter", "timestamp_domain", "vector", "vertex", "video_frame",
    "video_stream_profile",
]

NO_LIBREALSENSE = (
    "a camera needs librealsense: pip install pyrealsense2 (rsbag.pyrealsense2 then uses the "
    "librealsense inside it), or install librealsense2 (Intel's packages, or built from "
    "source), or set RSBAG_LIBREALSENSE to librealsense2's library")


class _Enum(enum.IntEnum):
    """An enum printed as pyrealsense2 prints its enums (`stream.depth`)."""

    def __str__(self) -> str:
        return f"{type(self).__name__}.{self.name}"

    def __repr__(self) -> str:
        return f"<{type(self).__name__}.{self.name}: {int(self)}>"


_O = TypeVar("_O", bound="_Option")


class _Option(int, enum.Enum):
    """rs.option's values: a number and librealsense's name, which `str()`
    gives (as pyrealsense2's)."""

    _label: str

    def __new__(cls, value: int, label: str) -> "_Option":
        member = int.__new__(cls, value)
        member._value_ = value
        member._label = label
        return member

    def __str__(self) -> str:
        return self._label

    def __repr__(self) -> str:
        return f"<option {int(self)} {self._label!r}>"

    @classmethod
    def _missing_(cls, value: object) -> Optional["_Option"]:
        if not isinstance(value, int) or value < 0:
            return None
        return cls._unnamed(value)

    @classmethod
    def _unnamed(cls: Type[_O], value: int) -> _O:
        """A processing block's own option (save_to_ply's, numbered past
        librealsense's options): an rs.option that is no member, named
        UNKNOWN, as pyrealsense2 gives it."""
        member = int.__new__(cls, value)
        member._value_, member._name_, member._label = value, "UNKNOWN", "UNKNOWN"
        return member


class stream(_Enum):
    """librealsense's rs2_stream (pyrealsense2's `rs.stream`)."""

    any = 0
    depth = 1
    color = 2
    infrared = 3
    fisheye = 4
    gyro = 5
    accel = 6
    gpio = 7
    pose = 8
    confidence = 9
    motion = 10


class format(_Enum):
    """librealsense's rs2_format (pyrealsense2's `rs.format`)."""

    any = 0
    z16 = 1
    disparity16 = 2
    xyz32f = 3
    yuyv = 4
    rgb8 = 5
    bgr8 = 6
    rgba8 = 7
    bgra8 = 8
    y8 = 9
    y16 = 10
    raw10 = 11
    raw16 = 12
    raw8 = 13
    uyvy = 14
    motion_raw = 15
    motion_xyz32f = 16
    gpio_raw = 17
    six_dof = 18
    disparity32 = 19
    y10bpack = 20
    distance = 21
    mjpeg = 22
    y8i = 23
    y12i = 24
    inzi = 25
    invi = 26
    w10 = 27
    z16h = 28
    fg = 29
    y411 = 30
    y16i = 31
    m420 = 32
    combined_motion = 33


class camera_info(_Enum):
    """librealsense's rs2_camera_info (pyrealsense2's `rs.camera_info`)."""

    name = 0  # type: ignore[assignment]  # (a member, as pyrealsense2's; .name still works)
    serial_number = 1
    firmware_version = 2
    recommended_firmware_version = 3
    physical_port = 4
    debug_op_code = 5
    advanced_mode = 6
    product_id = 7
    camera_locked = 8
    usb_type_descriptor = 9
    product_line = 10
    asic_serial_number = 11
    firmware_update_id = 12
    ip_address = 13
    dfu_device_path = 14


class distortion(_Enum):
    """librealsense's rs2_distortion (pyrealsense2's `rs.distortion`)."""

    none = 0
    modified_brown_conrady = 1
    inverse_brown_conrady = 2
    ftheta = 3
    brown_conrady = 4
    kannala_brandt4 = 5


class timestamp_domain(_Enum):
    """librealsense's rs2_timestamp_domain (pyrealsense2's `rs.timestamp_domain`)."""

    hardware_clock = 0
    system_time = 1
    global_time = 2


class frame_metadata_value(_Enum):
    """librealsense's rs2_frame_metadata_value (pyrealsense2's `rs.frame_metadata_value`)."""

    frame_counter = 0
    frame_timestamp = 1
    sensor_timestamp = 2
    actual_exposure = 3
    gain_level = 4
    auto_exposure = 5
    white_balance = 6
    time_of_arrival = 7
    temperature = 8
    backend_timestamp = 9
    actual_fps = 10
    frame_laser_power = 11
    frame_laser_power_mode = 12
    exposure_priority = 13
    exposure_roi_left = 14
    exposure_roi_right = 15
    exposure_roi_top = 16
    exposure_roi_bottom = 17
    brightness = 18
    contrast = 19
    saturation = 20
    sharpness = 21
    auto_white_balance_temperature = 22
    backlight_compensation = 23
    hue = 24
    gamma = 25
    manual_white_balance = 26
    power_line_frequency = 27
    low_light_compensation = 28
    frame_emitter_mode = 29
    frame_led_power = 30
    raw_frame_size = 31
    gpio_input_data = 32
    sequence_name = 33
    sequence_id = 34
    sequence_size = 35
    trigger = 36
    preset = 37
    input_width = 38
    input_height = 39
    sub_preset_info = 40
    calib_info = 41
    crc = 42


class playback_status(_Enum):
    """librealsense's rs2_playback_status (pyrealsense2's `rs.playback_status`)."""

    unknown = 0
    playing = 1
    paused = 2
    stopped = 3


class option(_Option):
    """librealsense's rs2_option (pyrealsense2's `rs.option`); `str()` is
    librealsense's name ("Depth Units")."""

    backlight_compensation = 0, 'Backlight Compensation'
    brightness = 1, 'Brightness'
    contrast = 2, 'Contrast'
    exposure = 3, 'Exposure'
    gain = 4, 'Gain'
    gamma = 5, 'Gamma'
    hue = 6, 'Hue'
    saturation = 7, 'Saturation'
    sharpness = 8, 'Sharpness'
    white_balance = 9, 'White Balance'
    enable_auto_exposure = 10, 'Enable Auto Exposure'
    enable_auto_white_balance = 11, 'Enable Auto White Balance'
    visual_preset = 12, 'Visual Preset'
    laser_power = 13, 'Laser Power'
    accuracy = 14, 'Accuracy'
    motion_range = 15, 'Motion Range'
    filter_option = 16, 'Filter Option'
    confidence_threshold = 17, 'Confidence Threshold'
    emitter_enabled = 18, 'Emitter Enabled'
    frames_queue_size = 19, 'Frames Queue Size'
    total_frame_drops = 20, 'Total Frame Drops'
    fisheye_auto_exposure_mode = 21, 'Fisheye Auto Exposure Mode'
    power_line_frequency = 22, 'Power Line Frequency'
    asic_temperature = 23, 'Asic Temperature'
    error_polling_enabled = 24, 'Error Polling Enabled'
    projector_temperature = 25, 'Projector Temperature'
    output_trigger_enabled = 26, 'Output Trigger Enabled'
    motion_module_temperature = 27, 'Motion Module Temperature'
    depth_units = 28, 'Depth Units'
    enable_motion_correction = 29, 'Enable Motion Correction'
    auto_exposure_priority = 30, 'Auto Exposure Priority'
    color_scheme = 31, 'Color Scheme'
    histogram_equalization_enabled = 32, 'Histogram Equalization Enabled'
    min_distance = 33, 'Min Distance'
    max_distance = 34, 'Max Distance'
    texture_source = 35, 'Texture Source'
    filter_magnitude = 36, 'Filter Magnitude'
    filter_smooth_alpha = 37, 'Filter Smooth Alpha'
    filter_smooth_delta = 38, 'Filter Smooth Delta'
    holes_fill = 39, 'Holes Fill'
    stereo_baseline = 40, 'Stereo Baseline'
    auto_exposure_converge_step = 41, 'Auto Exposure Converge Step'
    inter_cam_sync_mode = 42, 'Inter Cam Sync Mode'
    stream_filter = 43, 'Stream Filter'
    stream_format_filter = 44, 'Stream Format Filter'
    stream_index_filter = 45, 'Stream Index Filter'
    emitter_on_off = 46, 'Emitter On Off'
    zero_order_point_x = 47, 'Zero Order Point X'
    zero_order_point_y = 48, 'Zero Order Point Y'
    ldd_temperature = 49, 'LDD temperature'
    mc_temperature = 50, 'Mc Temperature'
    ma_temperature = 51, 'Ma Temperature'
    hardware_preset = 52, 'Hardware Preset'
    global_time_enabled = 53, 'Global Time Enabled'
    apd_temperature = 54, 'Apd Temperature'
    enable_mapping = 55, 'Enable Mapping'
    enable_relocalization = 56, 'Enable Relocalization'
    enable_pose_jumping = 57, 'Enable Pose Jumping'
    enable_dynamic_calibration = 58, 'Enable Dynamic Calibration'
    depth_offset = 59, 'Depth Offset'
    led_power = 60, 'Led Power'
    zero_order_enabled = 61, 'Zero Order Enabled'
    enable_map_preservation = 62, 'Enable Map Preservation'
    freefall_detection_enabled = 63, 'Freefall Detection Enabled'
    receiver_gain = 64, 'Receiver Gain'
    post_processing_sharpening = 65, 'Post Processing Sharpening'
    pre_processing_sharpening = 66, 'Pre Processing Sharpening'
    noise_filtering = 67, 'Noise Filtering'
    invalidation_bypass = 68, 'Invalidation Bypass'
    digital_gain = 69, 'Digital Gain'
    sensor_mode = 70, 'Sensor Mode'
    emitter_always_on = 71, 'Emitter Always On'
    thermal_compensation = 72, 'Thermal Compensation'
    trigger_camera_accuracy_health = 73, 'Trigger Camera Accuracy Health'
    reset_camera_accuracy_health = 74, 'Reset Camera Accuracy Health'
    host_performance = 75, 'Host Performance'
    hdr_enabled = 76, 'Hdr Enabled'
    sequence_name = 77, 'Sequence Name'
    sequence_size = 78, 'Sequence Size'
    sequence_id = 79, 'Sequence Id'
    humidity_temperature = 80, 'Humidity Temperature'
    enable_max_usable_range = 81, 'Enable Max Usable Range'
    alternate_ir = 82, 'Alternate IR'
    noise_estimation = 83, 'Noise Estimation'
    enable_ir_reflectivity = 84, 'Enable IR Reflectivity'
    auto_exposure_limit = 85, 'Auto Exposure Limit'
    auto_gain_limit = 86, 'Auto Gain Limit'
    auto_rx_sensitivity = 87, 'Auto Rx Sensitivity'
    transmitter_frequency = 88, 'Transmitter Frequency'
    vertical_binning = 89, 'Vertical Binning'
    receiver_sensitivity = 90, 'Receiver Sensitivity'
    auto_exposure_limit_toggle = 91, 'Auto Exposure Limit Toggle'
    auto_gain_limit_toggle = 92, 'Auto Gain Limit Toggle'
    emitter_frequency = 93, 'Emitter Frequency'
    auto_exposure_mode = 94, 'Auto Exposure Mode'
    ohm_temperature = 95, 'Ohm Temperature'
    soc_pvt_temperature = 96, 'Soc Pvt Temperature'
    gyro_sensitivity = 97, 'Gyro Sensitivity'
    unknown = 98, 'UNKNOWN'
    ambient_light = 69, 'Digital Gain'
    lld_temperature = 49, 'LDD temperature'


_OPTION_BY_NAME = {str(o): o for o in option}
_F = TypeVar("_F", bound="frame")


def _key(name: str) -> str:
    """librealsense's name of a thing ("Depth Units", "Frame Counter",
    "Hardware Clock") as the enum member's name (depth_units)."""
    return name.strip().lower().replace(" ", "_").replace("-", "_")


def _stream_of(name: str) -> stream:
    return stream[_key(name)]


def _format_of(name: str) -> format:
    return format.six_dof if name == "6DOF" else format[_key(name)]


def _distortion_name(model: distortion) -> str:
    return model.name.replace("_", " ").title()


# Bytes per pixel of the video formats (librealsense's, for get_data's
# element and get_bytes_per_pixel).
_BYTES_PER_PIXEL = {
    format.z16: 2, format.disparity16: 2, format.yuyv: 2, format.uyvy: 2, format.y16: 2,
    format.raw16: 2, format.rgb8: 3, format.bgr8: 3, format.rgba8: 4, format.bgra8: 4,
    format.y8: 1, format.raw8: 1, format.disparity32: 4, format.distance: 4,
    format.xyz32f: 12, format.z16h: 2, format.y10bpack: 2, format.raw10: 1,
}
_ELEMENT: Dict[int, "np.dtype[Any]"] = {1: np.dtype(np.uint8), 2: np.dtype(np.uint16), 3: np.dtype(np.uint32),
            4: np.dtype(np.uint32)}


# ---------------------------------------------------------------- values


class intrinsics:
    """A camera's intrinsics (pyrealsense2's `rs.intrinsics`): size,
    principal point, focal lengths, distortion model and coefficients."""

    def __init__(self) -> None:
        self.width = 0
        self.height = 0
        self.ppx = 0.0
        self.ppy = 0.0
        self.fx = 0.0
        self.fy = 0.0
        self.model = distortion.none
        self.coeffs: List[float] = [0.0] * 5

    @classmethod
    def _of(cls, d: Dict[str, Any]) -> "intrinsics":
        i = cls()
        i.width, i.height = int(d["width"]), int(d["height"])
        i.ppx, i.ppy, i.fx, i.fy = d["ppx"], d["ppy"], d["fx"], d["fy"]
        i.model = distortion[_key(d["model"])]
        i.coeffs = list(d["coeffs"])
        return i

    def _dict(self) -> Dict[str, Any]:
        return {"width": self.width, "height": self.height, "ppx": self.ppx, "ppy": self.ppy,
                "fx": self.fx, "fy": self.fy, "model": _distortion_name(self.model),
                "coeffs": list(self.coeffs)}

    def __repr__(self) -> str:
        coeffs = " ".join(f"{c:g}" for c in self.coeffs)
        return (f"[ {self.width}x{self.height}  p[{self.ppx:g} {self.ppy:g}]  "
                f"f[{self.fx:g} {self.fy:g}]  {_distortion_name(self.model)} [{coeffs}] ]")


class extrinsics:
    """The transform between two streams (`rs.extrinsics`): `rotation` (9,
    column-major) and `translation` (3, metres)."""

    def __init__(self) -> None:
        self.rotation: List[float] = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]
        self.translation: List[float] = [0.0, 0.0, 0.0]

    def __repr__(self) -> str:
        r = ", ".join(f"{v:g}" for v in self.rotation)
        t = ", ".join(f"{v:g}" for v in self.translation)
        return f"rotation: [{r}]\ntranslation: [{t}]"


class motion_device_intrinsic:
    """An IMU stream's intrinsics (`rs.motion_device_intrinsic`): `data`
    (3x4 scale and bias), `noise_variances`, `bias_variances`."""

    def __init__(self) -> None:
        self.data: List[List[float]] = [[0.0] * 4 for _ in range(3)]
        self.noise_variances: List[float] = [0.0] * 3
        self.bias_variances: List[float] = [0.0] * 3

    def __repr__(self) -> str:
        return (f"data: {self.data}, noise_variances: {self.noise_variances}, "
                f"bias_variances: {self.bias_variances}")


class vector:
    """Three floats (`rs.vector`): a motion sample, a position."""

    def __init__(self, x: float = 0.0, y: float = 0.0, z: float = 0.0) -> None:
        self.x, self.y, self.z = x, y, z

    def __repr__(self) -> str:
        return f"x: {self.x:g}, y: {self.y:g}, z: {self.z:g}"


class quaternion:
    """A rotation (`rs.quaternion`)."""

    def __init__(self, x: float = 0.0, y: float = 0.0, z: float = 0.0, w: float = 0.0) -> None:
        self.x, self.y, self.z, self.w = x, y, z, w

    def __repr__(self) -> str:
        return f"x: {self.x:g}, y: {self.y:g}, z: {self.z:g}, w: {self.w:g}"


class pose:
    """A pose sample (`rs.pose`, librealsense's rs2_pose)."""

    def __init__(self) -> None:
        self.translation = vector()
        self.velocity = vector()
        self.acceleration = vector()
        self.rotation = quaternion()
        self.angular_velocity = vector()
        self.angular_acceleration = vector()
        self.tracker_confidence = 0
        self.mapper_confidence = 0


class vertex:
    """A point of a point cloud (`rs.vertex`)."""

    def __init__(self, x: float = 0.0, y: float = 0.0, z: float = 0.0) -> None:
        self.x, self.y, self.z = x, y, z


class texture_coordinate:
    """A point's place in the mapped image (`rs.texture_coordinate`)."""

    def __init__(self, u: float = 0.0, v: float = 0.0) -> None:
        self.u, self.v = u, v


class option_range:
    """An option's range (`rs.option_range`)."""

    def __init__(self, min: float = 0.0, max: float = 0.0, step: float = 0.0,
                 default: float = 0.0) -> None:
        self.min, self.max, self.step, self.default = min, max, step, default

    def __repr__(self) -> str:
        return (f"<pyrealsense2.option_range: {self.min:g}-{self.max:g}/{self.step:g} "
                f"[{self.default:g}]>")


# ---------------------------------------------------------------- the recording


class _Source:
    """A device as the objects of one device share it: a recording's
    `rsbag.Recording` (or a camera's `rsbag.LiveDevice`, which describes
    its device the same way), profiles (by stream name) and processing
    objects."""

    def __init__(self, path: str, camera: Optional[_rsbag.LiveDevice] = None) -> None:
        self.path = path
        self.camera = camera
        self.recording: Union[_rsbag.Recording, _rsbag.LiveDevice] = (
            _rsbag.open(path) if camera is None else camera)
        self.sensors = self.recording.sensors
        self.profiles: List[stream_profile] = []
        # A stream's profile: a recording's one, or a camera's default.
        self.by_stream: Dict[str, stream_profile] = {}
        self.by_uid: Dict[int, stream_profile] = {}
        # Where librealsense's playback lists a stream: by sensor, then
        # stream type, then (in a pipeline's profile) index.
        self.order: Dict[str, Tuple[int, int, int]] = {}
        for position, s in enumerate(self.sensors):
            offered = s["profiles"] if camera is None else sorted(
                s["profiles"], key=lambda p: not p["is_default"])
            for p in offered:
                profile = stream_profile._of(p, self)
                self.profiles.append(profile)
                self.by_uid.setdefault(profile.unique_id(), profile)
                self.by_stream.setdefault(profile._name, profile)
                self.order.setdefault(profile._name, (position, int(profile.stream_type()),
                                                      profile.stream_index()))
        self.alignments: Dict[Tuple[str, str], Any] = {}
        self.clouds: Dict[Tuple[str, Optional[str]], Any] = {}
        self._playback: Optional[_rsbag.Playback] = None

    def recorded(self) -> _rsbag.Recording:
        """The recording (a camera is none)."""
        if not isinstance(self.recording, _rsbag.Recording):
            raise RuntimeError("a camera is not a recording")
        return self.recording

    def playback(self) -> _rsbag.Playback:
        """The playback a loaded device's sensors stream from (made when
        first asked for; librealsense's plays in real time until told)."""
        if self.camera is not None:
            raise RuntimeError("rsbag.pyrealsense2 streams a camera through a pipeline, not "
                               "sensor by sensor")
        if self._playback is None:
            self._playback = _rsbag.Playback(self.path)
        return self._playback

    def extrinsics(self, source: str, target: str) -> extrinsics:
        e = self.recording.extrinsics(source, target) if source != target else {
            "rotation": [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0],
            "translation": [0.0, 0.0, 0.0]}
        if e is None:
            raise RuntimeError("Requested extrinsics are not available!")
        out = extrinsics()
        out.rotation, out.translation = list(e["rotation"]), list(e["translation"])
        return out


def _frameset_place(source: _Source, profile: "stream_profile") -> Tuple[int, int, int]:
    """Where a stream's frame is in librealsense's framesets (and a
    sensor's profile list): by sensor, stream type, then the higher index
    first."""
    sensor, kind, index = source.order.get(profile._name, (0, 0, 0))
    return sensor, kind, -index


def _stream_name(kind: str, index: int) -> str:
    return f"{kind} {index}" if index else kind


# ---------------------------------------------------------------- cameras

_LIBREALSENSE: Optional[_rsbag.LiveContext] = None
_LIBREALSENSE_LOCK = threading.Lock()


def _librealsense() -> _rsbag.LiveContext:
    """librealsense's context, one for the process (made when first asked
    for): RSBAG_LIBREALSENSE's library, else the system's, else
    pyrealsense2's; RSBAG_PYREALSENSE2_CAMERA's recording played as a
    camera connected."""
    global _LIBREALSENSE
    with _LIBREALSENSE_LOCK:
        if _LIBREALSENSE is None:
            context = _load_librealsense()
            camera = os.environ.get("RSBAG_PYREALSENSE2_CAMERA")
            if camera:
                context.simulate(camera)
            _LIBREALSENSE = context
        return _LIBREALSENSE


def _load_librealsense() -> _rsbag.LiveContext:
    try:
        return _rsbag.LiveContext()
    except RuntimeError as e:
        bundled = None if "RSBAG_LIBREALSENSE" in os.environ else _pyrealsense2_library()
        if bundled is None:
            raise RuntimeError(f"{NO_LIBREALSENSE} ({e})") from None
    return _rsbag.LiveContext(bundled)


def _pyrealsense2_library() -> Optional[str]:
    """pyrealsense2's extension module, which holds librealsense and
    exports its C API (found, not imported), or None."""
    # Looked for on the path: "pyrealsense2" may be this module's name
    # in sys.modules.
    spec = importlib.machinery.PathFinder.find_spec("pyrealsense2")
    for folder in (spec.submodule_search_locations or []) if spec else []:
        for name in sorted(os.listdir(folder)):
            if name.startswith("pyrealsense2.") and name.endswith((".so", ".pyd", ".dylib")):
                return os.path.join(folder, name)
    return None


def _cameras() -> List[_Source]:
    """Every device librealsense has connected."""
    return [_Source(d.info.get("Name", ""), d) for d in _librealsense().devices()]


def _camera(serial: Optional[str]) -> _Source:
    """The device with `serial` (the first without one), or
    pyrealsense2's error."""
    for source in _cameras():
        if serial is None or source.recording.info.get("Serial Number") == serial:
            return source
    raise RuntimeError("No device connected")


# ---------------------------------------------------------------- profiles


class stream_profile:
    """A stream's profile (`rs.stream_profile`)."""

    _d: Dict[str, Any]
    _source: Optional[_Source]
    _name: str

    def __init__(self) -> None:
        self._d, self._source, self._name = {}, None, ""

    @staticmethod
    def _of(d: Dict[str, Any], source: Optional[_Source]) -> "stream_profile":
        kind = d["stream"]
        cls: type = stream_profile
        if "width" in d:
            cls = video_stream_profile
        elif "motion_intrinsics" in d:
            cls = motion_stream_profile
        elif kind == "Pose":
            cls = pose_stream_profile
        p: stream_profile = cls()
        p._d, p._source, p._name = d, source, _stream_name(kind, d["index"])
        return p

    def stream_type(self) -> stream:
        return _stream_of(self._d["stream"]) if self._d else stream.any

    def stream_index(self) -> int:
        return int(self._d.get("index", 0))

    def stream_name(self) -> str:
        return self._name

    def format(self) -> format:
        return _format_of(self._d["format"]) if self._d else format.any

    def fps(self) -> int:
        return int(self._d.get("fps", 0))

    def unique_id(self) -> int:
        return int(self._d.get("unique_id", 0))

    def is_default(self) -> bool:
        # librealsense 2.55's playback reports every recorded profile as a
        # default one, whatever the file says.
        if self._source is not None and self._source.camera is not None:
            return bool(self._d["is_default"])
        return bool(self._d)

    def is_stream_profile(self) -> bool:
        return True

    def is_video_stream_profile(self) -> bool:
        return isinstance(self, video_stream_profile)

    def is_motion_stream_profile(self) -> bool:
        return isinstance(self, motion_stream_profile)

    def is_pose_stream_profile(self) -> bool:
        return isinstance(self, pose_stream_profile)

    def as_stream_profile(self) -> "stream_profile":
        return self

    def as_video_stream_profile(self) -> "video_stream_profile":
        if not isinstance(self, video_stream_profile):
            raise RuntimeError(f"{self!r} is not a video stream profile")
        return self

    def as_motion_stream_profile(self) -> "motion_stream_profile":
        if not isinstance(self, motion_stream_profile):
            raise RuntimeError(f"{self!r} is not a motion stream profile")
        return self

    def as_pose_stream_profile(self) -> "pose_stream_profile":
        if not isinstance(self, pose_stream_profile):
            raise RuntimeError(f"{self!r} is not a pose stream profile")
        return self

    def get_extrinsics_to(self, to: "stream_profile") -> extrinsics:
        """The transform from this stream to `to`'s, as recorded."""
        source = self._source or to._source
        if source is None:
            raise RuntimeError("Requested extrinsics are not available!")
        return source.extrinsics(self._name, to._name)

    def __bool__(self) -> bool:
        return bool(self._d)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, stream_profile):
            return NotImplemented
        return self._d == other._d

    def __hash__(self) -> int:
        return hash((self._name, self._d.get("format"), self._d.get("unique_id")))

    def __repr__(self) -> str:
        return (f"<pyrealsense2.stream_profile: {self._d.get('stream')}({self.stream_index()}) "
                f"@ {self.fps()}fps {self._d.get('format')}>")


class video_stream_profile(stream_profile):
    """A video stream's profile (`rs.video_stream_profile`)."""

    def width(self) -> int:
        return int(self._d["width"])

    def height(self) -> int:
        return int(self._d["height"])

    def get_intrinsics(self) -> intrinsics:
        """The recorded intrinsics (an error where none were recorded)."""
        d = self._d.get("intrinsics")
        if d is None:
            raise RuntimeError(f"no intrinsics recorded for {self._name}")
        return intrinsics._of(d)

    @property
    def intrinsics(self) -> intrinsics:
        return self.get_intrinsics()

    def __repr__(self) -> str:
        return (f"<pyrealsense2.[video_]stream_profile: {self._d['stream']}({self.stream_index()}) "
                f"{self.width()}x{self.height()} @ {self.fps()}fps {self._d['format']}>")


class motion_stream_profile(stream_profile):
    """An IMU stream's profile (`rs.motion_stream_profile`)."""

    def get_motion_intrinsics(self) -> motion_device_intrinsic:
        d = self._d.get("motion_intrinsics")
        if d is None:
            raise RuntimeError(f"no motion intrinsics recorded for {self._name}")
        m = motion_device_intrinsic()
        m.data = [list(row) for row in d["data"]]
        m.noise_variances = list(d["noise_variances"])
        m.bias_variances = list(d["bias_variances"])
        return m


class pose_stream_profile(stream_profile):
    """A pose stream's profile (`rs.pose_stream_profile`)."""


# ---------------------------------------------------------------- frames


class frame:
    """A frame (`rs.frame`); an empty one (`rs.frame()`) is falsy."""

    # Made by align or hdr_merge from another frame (rsbag's filters take
    # frames read or filtered, not these).
    _aligned = False

    _f: Optional[_rsbag.Frame]
    _source: Optional[_Source]
    _profile: stream_profile
    _data: Optional[npt.NDArray[Any]]

    def __init__(self, other: Optional["frame"] = None) -> None:
        if other is None:
            self._f, self._source, self._profile, self._data = None, None, stream_profile(), None
        else:
            self._f, self._source = other._f, other._source
            self._profile, self._data = other._profile, other._data

    def _as(self, cls: Type[_F]) -> _F:
        out = cls.__new__(cls)
        out._f, out._source, out._profile, out._data = (
            self._f, self._source, self._profile, self._data)
        out._aligned = self._aligned
        if isinstance(self, composite_frame) and isinstance(out, composite_frame):
            out._frames = self._frames
        if isinstance(self, points) and isinstance(out, points):
            out._vertices, out._uv = self._vertices, self._uv
        return out

    def _frame(self) -> _rsbag.Frame:
        if self._f is None:
            raise RuntimeError("null pointer passed for argument \"frame\"")
        return self._f

    def __bool__(self) -> bool:
        return self._f is not None

    def get_timestamp(self) -> float:
        return self._frame().timestamp

    def get_frame_timestamp_domain(self) -> timestamp_domain:
        return timestamp_domain[_key(self._frame().domain)]

    def get_frame_number(self) -> int:
        return self._frame().frame_number

    def supports_frame_metadata(self, frame_metadata: frame_metadata_value) -> bool:
        return _key_in(self._frame().metadata, frame_metadata)

    def get_frame_metadata(self, frame_metadata: frame_metadata_value) -> int:
        metadata = self._frame().metadata
        for name, value in metadata.items():
            if _key(name) == frame_metadata.name:
                return int(value)
        if frame_metadata == frame_metadata_value.frame_counter:
            return 0
        raise RuntimeError(f"metadata {frame_metadata} is not supported by this frame")

    def get_data(self) -> npt.NDArray[Any]:
        """The frame's data as pyrealsense2 shapes it, a read-only numpy
        array over the frame's bytes (no copy): HxW uint16 for Z16, HxWx3
        uint8 for RGB8, HxW of the pixel's size for other images, the
        bytes (uint8) for other frames."""
        if self._data is None:
            self._data = _data_of(self._frame(), self._profile)
        return self._data

    def get_data_size(self) -> int:
        return int(self.get_data().nbytes)

    def get_profile(self) -> stream_profile:
        return self._profile

    def keep(self) -> None:
        """Frames stay as long as they are referenced: nothing to do."""

    def swap(self, other: "frame") -> None:
        mine = (self._f, self._source, self._profile, self._data)
        self._f, self._source, self._profile, self._data = (
            other._f, other._source, other._profile, other._data)
        other._f, other._source, other._profile, other._data = mine

    @property
    def timestamp(self) -> float:
        return self.get_timestamp()

    @property
    def frame_timestamp_domain(self) -> timestamp_domain:
        return self.get_frame_timestamp_domain()

    @property
    def frame_number(self) -> int:
        return self.get_frame_number()

    @property
    def profile(self) -> stream_profile:
        return self.get_profile()

    @property
    def data(self) -> npt.NDArray[Any]:
        return self.get_data()

    def is_frame(self) -> bool:
        return True

    def is_video_frame(self) -> bool:
        return bool(self) and isinstance(self._profile, video_stream_profile)

    def is_depth_frame(self) -> bool:
        return self.is_video_frame() and self._profile.format() in (
            format.z16, format.disparity32, format.disparity16)

    def is_disparity_frame(self) -> bool:
        return self.is_video_frame() and self._profile.format() in (
            format.disparity32, format.disparity16)

    def is_motion_frame(self) -> bool:
        return bool(self) and self._profile.stream_type() in (stream.gyro, stream.accel)

    def is_pose_frame(self) -> bool:
        return bool(self) and self._profile.stream_type() == stream.pose

    def is_frameset(self) -> bool:
        return isinstance(self, composite_frame)

    def is_composite_frame(self) -> bool:
        return self.is_frameset()

    def is_points(self) -> bool:
        return isinstance(self, points)

    def as_frame(self) -> "frame":
        return self._as(frame)

    def as_video_frame(self) -> "video_frame":
        return self._checked(self.is_video_frame(), video_frame)

    def as_depth_frame(self) -> "depth_frame":
        if self.is_disparity_frame():
            return self._checked(True, disparity_frame)
        return self._checked(self.is_depth_frame(), depth_frame)

    def as_disparity_frame(self) -> "disparity_frame":
        return self._checked(self.is_disparity_frame(), disparity_frame)

    def as_motion_frame(self) -> "motion_frame":
        return self._checked(self.is_motion_frame(), motion_frame)

    def as_pose_frame(self) -> "pose_frame":
        return self._checked(self.is_pose_frame(), pose_frame)

    def as_frameset(self) -> "composite_frame":
        return self._checked(self.is_frameset(), composite_frame)

    def as_points(self) -> "points":
        return self._checked(self.is_points(), points)

    def _checked(self, ok: bool, cls: Type[_F]) -> _F:
        # pyrealsense2 gives an empty frame of the type asked for when the
        # frame is not one.
        return self._as(cls) if ok else cls()

    def __repr__(self) -> str:
        if self._f is None:
            return "<pyrealsense2.frame NULL>"
        return (f"<pyrealsense2.frame {self._f.format} "
                f"#{self._f.frame_number} @{_shown(self._f.timestamp)}>")


def _shown(timestamp: float) -> str:
    """A timestamp as pyrealsense2's reprs show it (1033.3, 1030., 0)."""
    shown = f"{timestamp:.6f}".rstrip("0")
    return "0" if shown == "0." else shown


def _key_in(metadata: Dict[str, int], which: frame_metadata_value) -> bool:
    # librealsense's playback gives every frame a frame counter (0 where
    # none was recorded).
    return which == frame_metadata_value.frame_counter or any(
        _key(name) == which.name for name in metadata)


def _data_of(f: _rsbag.Frame, profile: stream_profile) -> npt.NDArray[Any]:
    """What pyrealsense2's get_data gives numpy, over the frame's bytes."""
    if not isinstance(profile, video_stream_profile):
        array = f.as_array()
        return array if array.dtype == np.uint8 else array.reshape(-1).view(np.uint8)
    fmt = profile.format()
    if fmt in (format.z16, format.y16, format.raw16, format.disparity16, format.y8, format.raw8,
               format.rgb8, format.bgr8, format.rgba8, format.bgra8):
        return f.as_array()
    width, height = profile.width(), profile.height()
    bpp = _BYTES_PER_PIXEL.get(fmt) or (f.stride // width if width else 1)
    flat = f.as_array()
    flat = flat if flat.dtype == np.uint8 and flat.ndim == 1 else flat.reshape(-1).view(np.uint8)
    if bpp not in _ELEMENT or f.stride * height > flat.size:
        return flat
    return np.ndarray((height, width), _ELEMENT[bpp], flat, 0, (f.stride, bpp))


class video_frame(frame):
    """An image (`rs.video_frame`)."""

    def get_width(self) -> int:
        return int(self.get_data().shape[1]) if self._data is not None else (
            self._profile.as_video_stream_profile().width())

    def get_height(self) -> int:
        return int(self.get_data().shape[0]) if self._data is not None else (
            self._profile.as_video_stream_profile().height())

    def get_stride_in_bytes(self) -> int:
        if self._data is not None and self._data.ndim >= 2:
            return int(self._data.strides[0])
        return self._frame().stride

    def get_bytes_per_pixel(self) -> int:
        fmt = self._profile.format()
        return _BYTES_PER_PIXEL.get(fmt) or self.get_stride_in_bytes() // max(self.get_width(), 1)

    def get_bits_per_pixel(self) -> int:
        return 8 * self.get_bytes_per_pixel()

    @property
    def width(self) -> int:
        return self.get_width()

    @property
    def height(self) -> int:
        return self.get_height()

    @property
    def stride_in_bytes(self) -> int:
        return self.get_stride_in_bytes()

    @property
    def bytes_per_pixel(self) -> int:
        return self.get_bytes_per_pixel()

    @property
    def bits_per_pixel(self) -> int:
        return self.get_bits_per_pixel()


class depth_frame(video_frame):
    """A depth image (`rs.depth_frame`): `get_distance(x, y)` in metres."""

    def get_units(self) -> float:
        """Metres per raw unit (the depth sensor's Depth Units)."""
        units = self._frame().depth_units
        if units is None and self._source is not None:
            units = self._source.recording.depth_units(self._profile.stream_name() or "Depth")
        return float(units if units is not None else 0.001)

    def get_distance(self, x: int, y: int) -> float:
        """The depth at pixel (x, y) in metres, as librealsense computes it
        (raw value times the depth units, in float32)."""
        data = self.get_data()
        height, width = data.shape[:2]
        if not 0 <= x < width:
            raise RuntimeError(f"out of range value for argument \"x\"")
        if not 0 <= y < height:
            raise RuntimeError(f"out of range value for argument \"y\"")
        return float(np.float32(data[y, x]) * np.float32(self.get_units()))


class disparity_frame(depth_frame):
    """A disparity image (`rs.disparity_frame`)."""

    def get_baseline(self) -> float:
        """The stereo baseline in millimetres, as recorded."""
        for s in (self._source.sensors if self._source else []):
            for o in s["options"]:
                if o["name"] == "Stereo Baseline":
                    return float(o["value"])
        raise RuntimeError("no stereo baseline recorded")


class motion_frame(frame):
    """An IMU sample (`rs.motion_frame`)."""

    def get_motion_data(self) -> vector:
        x, y, z = struct.unpack_from("<3f", self._frame().as_array().tobytes())
        return vector(x, y, z)

    @property
    def motion_data(self) -> vector:
        return self.get_motion_data()


class pose_frame(frame):
    """A pose sample (`rs.pose_frame`)."""

    def get_pose_data(self) -> pose:
        v = struct.unpack_from("<19f2I", bytes(self.get_data()))
        p = pose()
        p.translation, p.velocity, p.acceleration = vector(*v[0:3]), vector(*v[3:6]), vector(*v[6:9])
        p.rotation = quaternion(*v[9:13])
        p.angular_velocity, p.angular_acceleration = vector(*v[13:16]), vector(*v[16:19])
        p.tracker_confidence, p.mapper_confidence = v[19], v[20]
        return p

    @property
    def pose_data(self) -> pose:
        return self.get_pose_data()


class composite_frame(frame):
    """A frameset (`rs.composite_frame`): frames of one moment."""

    _frames: List[frame]

    def __init__(self, other: Optional[frame] = None) -> None:
        super().__init__(other)
        self._frames = list(other._frames) if isinstance(other, composite_frame) else []

    @staticmethod
    def _of(frames: List[frame]) -> "composite_frame":
        out = composite_frame()
        out._frames = frames
        if frames:
            first = frames[0]
            out._f, out._source, out._profile = first._f, first._source, first._profile
        return out

    def size(self) -> int:
        return len(self._frames)

    def __len__(self) -> int:
        return len(self._frames)

    def __iter__(self) -> Iterator[frame]:
        return iter(self._frames)

    def __getitem__(self, index: int) -> frame:
        return self._frames[index]

    def foreach(self, callable: Callable[[frame], Any]) -> None:
        for f in self._frames:
            callable(f)

    def first_or_default(self, s: stream, f: format = format.any) -> frame:
        for candidate in self._frames:
            p = candidate._profile
            if (s == stream.any or p.stream_type() == s) and (f == format.any or p.format() == f):
                return candidate
        return frame()

    def first(self, s: stream, f: format = format.any) -> frame:
        found = self.first_or_default(s, f)
        if not found:
            raise RuntimeError("Frame of requested stream type was not found!")
        return found

    def _indexed(self, s: stream, index: int, cls: Type[_F]) -> _F:
        for candidate in self._frames:
            p = candidate._profile
            if p.stream_type() == s and (index == 0 or p.stream_index() == index):
                return candidate._as(cls)
        return cls()

    def get_depth_frame(self) -> depth_frame:
        found = self.first_or_default(stream.depth, format.z16)
        return found._as(depth_frame) if found else depth_frame()

    def get_color_frame(self) -> video_frame:
        found = self.first_or_default(stream.color)
        if not found:
            found = self.first_or_default(stream.infrared, format.rgb8)
        return found._as(video_frame) if found else video_frame()

    def get_infrared_frame(self, index: int = 0) -> video_frame:
        return self._indexed(stream.infrared, index, video_frame)

    def get_fisheye_frame(self, index: int = 0) -> video_frame:
        return self._indexed(stream.fisheye, index, video_frame)

    def get_pose_frame(self, index: int = 0) -> pose_frame:
        return self._indexed(stream.pose, index, pose_frame)

    def __repr__(self) -> str:
        inner = "  ".join(f"{f._f.format} #{f._f.frame_number} @{_shown(f._f.timestamp)}"
                          for f in self._frames if f._f is not None)
        return f"<pyrealsense2.frameset  {inner}>"


frameset = composite_frame


def _frame_of(f: _rsbag.Frame, source: Optional[_Source],
              profile: Optional[stream_profile] = None) -> frame:
    """The frame of its kind (depth_frame, motion_frame...) for `f`."""
    if profile is None and source is not None and source.camera is not None:
        profile = source.by_uid.get(f.unique_id)
    if profile is None:
        found = source.by_stream.get(f.stream_name) if source else None
        profile = found if found is not None and found._d["format"] == f.format else (
            stream_profile._of(f.profile, source))
    kind = profile.stream_type()
    cls: type
    if isinstance(profile, video_stream_profile):
        fmt = profile.format()
        if fmt in (format.disparity32, format.disparity16):
            cls = disparity_frame
        elif fmt == format.z16:
            cls = depth_frame
        else:
            cls = video_frame
    elif kind in (stream.gyro, stream.accel):
        cls = motion_frame
    elif kind == stream.pose:
        cls = pose_frame
    else:
        cls = frame
    out: frame = cls.__new__(cls)
    out._f, out._source, out._profile, out._data = f, source, profile, None
    return out


class frame_queue:
    """Frames handed from a sensor's callback to the thread that takes them
    (`rs.frame_queue(capacity=1, keep_frames=False)`): when full, the
    oldest frame is dropped for the new one, as librealsense's queue
    does."""

    def __init__(self, capacity: int = 1, keep_frames: bool = False) -> None:
        if capacity < 1:
            raise RuntimeError(f"frame_queue capacity must be at least 1, not {capacity}")
        self._capacity, self._keep = int(capacity), bool(keep_frames)
        self._frames: "collections.deque[frame]" = collections.deque()
        self._arrived = threading.Condition()

    def enqueue(self, f: frame) -> None:
        with self._arrived:
            self._frames.append(f)
            if len(self._frames) > self._capacity:
                self._frames.popleft()
            self._arrived.notify()

    __call__ = enqueue

    def try_wait_for_frame(self, timeout_ms: int = 5000) -> Tuple[bool, frame]:
        """(True, the oldest frame), or (False, an empty frame) after
        `timeout_ms`."""
        with self._arrived:
            if not self._arrived.wait_for(lambda: bool(self._frames), timeout_ms / 1000):
                return False, frame()
            return True, self._frames.popleft()

    def wait_for_frame(self, timeout_ms: int = 5000) -> frame:
        ok, f = self.try_wait_for_frame(timeout_ms)
        if not ok:
            raise RuntimeError(f"Frame didn't arrive within {timeout_ms}")
        return f

    def poll_for_frame(self) -> frame:
        """The oldest frame, or an empty (falsy) one when none is queued."""
        with self._arrived:
            return self._frames.popleft() if self._frames else frame()

    def capacity(self) -> int:
        return self._capacity

    def size(self) -> int:
        with self._arrived:
            return len(self._frames)

    def keep_frames(self) -> bool:
        """Kept for pyrealsense2's signature: rsbag's frames stay as long
        as they are referenced."""
        return self._keep


def _derived(original: frame, data: npt.NDArray[Any], profile: stream_profile) -> frame:
    """A frame made from `original` (its number, timestamp, metadata) whose
    pixels are `data` and whose profile is `profile` (aligned frames)."""
    out = _frame_of(original._frame(), original._source, profile)
    out._data, out._aligned = data, True
    return out


# ---------------------------------------------------------------- devices


def _info_of(info: Dict[str, str], which: camera_info) -> Optional[str]:
    for name, value in info.items():
        if _key(name) == which._name_:
            return value
    return None


class sensor:
    """A recorded sensor (`rs.sensor`): its info, options and profiles,
    and, on a device loaded from a file (`rs.context().load_device`), its
    streams played into a callback (`open`, `start`, `stop`, `close`)."""

    def __init__(self, d: Dict[str, Any], source: _Source, index: int = 0,
                 pipe: Optional["pipeline"] = None) -> None:
        self._d, self._source, self._index, self._pipe = d, source, index, pipe

    def _played(self) -> _rsbag.PlaybackSensor:
        if self._pipe is not None and self._pipe._inner is not None:
            raise RuntimeError("the pipeline streams this device's sensors; they cannot be "
                               "opened or started while it does")
        return self._source.playback().sensors[self._index]

    def open(self, profiles: Union["stream_profile", Sequence["stream_profile"]]) -> None:
        """Choose the recorded profiles to stream (one, or a list)."""
        chosen = [profiles] if isinstance(profiles, stream_profile) else list(profiles)
        mine = {p._name for p in self.get_stream_profiles()}
        for p in chosen:
            if p._name not in mine:
                raise RuntimeError(f"{p!r} is not a profile of {self!r}")
        self._played().open([p._name for p in chosen])

    def start(self, callback: Callable[["frame"], Any]) -> None:
        """Play the opened streams into `callback(frame)` (a function or
        an `rs.frame_queue`), on each stream's own thread."""
        source = self._source

        def deliver(f: _rsbag.Frame) -> None:
            callback(_frame_of(f, source))

        self._played().start(deliver)

    def stop(self) -> None:
        """Stop streaming; returns once no callback of this sensor runs."""
        self._played().stop()

    def close(self) -> None:
        """Stop, and forget the opened profiles."""
        self._played().close()

    def get_active_streams(self) -> List["stream_profile"]:
        """The profiles opened."""
        if self._source._playback is None:
            return []
        active = set(self._source._playback.sensors[self._index].active_streams)
        return [p for p in self.get_stream_profiles() if p._name in active]

    @property
    def name(self) -> str:
        return str(self._d["name"])

    def get_info(self, info: camera_info) -> str:
        value = _info_of(self._d["info"], info)
        if value is None:
            raise RuntimeError(f"Selected camera info is not supported for this camera!")
        return value

    def supports(self, what: Union[camera_info, option]) -> bool:
        if isinstance(what, camera_info):
            return _info_of(self._d["info"], what) is not None
        return self._option(what) is not None

    def _option(self, which: option) -> Optional[Dict[str, Any]]:
        for o in self._d["options"]:
            if o["name"] == str(which):
                return dict(o)
        return None

    def _required(self, which: option) -> Dict[str, Any]:
        found = self._option(which)
        if found is None:
            raise RuntimeError(f"Device does not support option {which}!")
        return found

    def get_option(self, option: option) -> float:
        return float(self._required(option)["value"])

    def get_option_range(self, option: option) -> option_range:
        o = self._required(option)
        return option_range(o["min"], o["max"], o["step"], o["default"])

    def get_option_description(self, option: option) -> str:
        return str(self._required(option)["description"])

    def is_option_read_only(self, option: option) -> bool:
        return bool(self._required(option)["read_only"])

    def get_supported_options(self) -> List[option]:
        return [_OPTION_BY_NAME[o["name"]] for o in self._d["options"]
                if o["name"] in _OPTION_BY_NAME]

    def set_option(self, option: option, value: float) -> None:
        if self._source.camera is not None:
            raise RuntimeError(f"rsbag.pyrealsense2 does not set a camera's options ({option}): "
                               "pyrealsense2 does")
        raise RuntimeError(f"option {option} of a recording is read-only (as in pyrealsense2's "
                           "playback)")

    def get_stream_profiles(self) -> List[stream_profile]:
        profiles = [stream_profile._of(p, self._source) for p in self._d["profiles"]]
        return sorted(profiles, key=lambda p: _frameset_place(self._source, p))

    @property
    def profiles(self) -> List[stream_profile]:
        return self.get_stream_profiles()

    def is_depth_sensor(self) -> bool:
        return self._option(option.depth_units) is not None or any(
            p["stream"] == "Depth" for p in self._d["profiles"])

    def as_depth_sensor(self) -> "depth_sensor":
        if not self.is_depth_sensor():
            raise RuntimeError(f"{self!r} is not a depth sensor")
        return depth_sensor(self._d, self._source, self._index, self._pipe)

    def is_color_sensor(self) -> bool:
        return any(p["stream"] == "Color" for p in self._d["profiles"])

    def is_motion_sensor(self) -> bool:
        return any(p["stream"] in ("Gyro", "Accel") for p in self._d["profiles"])

    def is_pose_sensor(self) -> bool:
        return any(p["stream"] == "Pose" for p in self._d["profiles"])

    def __repr__(self) -> str:
        return f"<pyrealsense2.sensor: \"{self.name}\">"


class depth_sensor(sensor):
    """A recorded depth sensor (`rs.depth_sensor`)."""

    def get_depth_scale(self) -> float:
        """Metres per raw depth unit (the Depth Units option)."""
        o = self._option(option.depth_units)
        if o is not None:
            return float(o["value"])
        depth = next((p for p in self._d["profiles"] if p["stream"] == "Depth"), None)
        name = _stream_name("Depth", depth["index"]) if depth else "Depth"
        return float(self._source.recording.depth_units(name))


class device:
    """The device a recording was made with (`rs.device`)."""

    def __init__(self, source: _Source, pipe: Optional["pipeline"] = None) -> None:
        self._source, self._pipe = source, pipe

    def get_info(self, info: camera_info) -> str:
        value = _info_of(self._source.recording.info, info)
        if value is None:
            raise RuntimeError("Selected camera info is not supported for this camera!")
        return value

    def supports(self, info: camera_info) -> bool:
        return _info_of(self._source.recording.info, info) is not None

    def query_sensors(self) -> List[sensor]:
        return [depth_sensor(s, self._source, i, self._pipe)
                if sensor(s, self._source).is_depth_sensor()
                else sensor(s, self._source, i, self._pipe)
                for i, s in enumerate(self._source.sensors)]

    @property
    def sensors(self) -> List[sensor]:
        return self.query_sensors()

    def first_depth_sensor(self) -> depth_sensor:
        for s in self.query_sensors():
            if isinstance(s, depth_sensor):
                return s
        raise RuntimeError("Could not find requested sensor type!")

    def first_color_sensor(self) -> sensor:
        for s in self.query_sensors():
            if s.is_color_sensor():
                return s
        raise RuntimeError("Could not find requested sensor type!")

    def first_motion_sensor(self) -> sensor:
        for s in self.query_sensors():
            if s.is_motion_sensor():
                return s
        raise RuntimeError("Could not find requested sensor type!")

    def first_pose_sensor(self) -> sensor:
        for s in self.query_sensors():
            if s.is_pose_sensor():
                return s
        raise RuntimeError("Could not find requested sensor type!")

    def is_playback(self) -> bool:
        return self._source.camera is None

    def as_playback(self) -> "playback":
        if self._source.camera is not None:
            raise RuntimeError("Device is not of type playback")
        return playback(self._source, self._pipe)

    def hardware_reset(self) -> None:
        raise RuntimeError("rsbag.pyrealsense2 does not reset devices: pyrealsense2's "
                           "hardware_reset does")

    def __repr__(self) -> str:
        info = self._source.recording.info
        name = info.get("Name", "")
        serial = info.get("Serial Number")
        firmware = info.get("Firmware Version")
        shown = f"{serial}  FW: {firmware}" if firmware else serial
        return (f"<pyrealsense2.device: {name} (S/N: {shown})>" if serial
                else f"<pyrealsense2.device: {name}>")


class playback(device):
    """The device playing a recording (`rs.playback`): pause, resume,
    seek, real time, speed, position and duration; of a pipeline's
    playback, or of a device loaded from the file whose sensors stream."""

    def _controls(self) -> Union[_rsbag.Pipeline, _rsbag.Playback]:
        """What plays: the pipeline's playback, or the loaded device's."""
        if self._pipe is None:
            return self._source.playback()
        played = self._pipe._played()
        if played is None:
            raise RuntimeError("the playback is not streaming: start a pipeline first")
        return played

    def file_name(self) -> str:
        return self._source.path

    def get_duration(self) -> datetime.timedelta:
        # pyrealsense2 truncates its nanoseconds to microseconds.
        micros = int(self._source.recorded().duration * 1e6 + 1e-3)
        return datetime.timedelta(microseconds=micros)

    def get_position(self) -> int:
        """Nanoseconds from the first frame to the last played."""
        if self._pipe is not None and self._pipe._played() is None:
            return 0
        return int(round(self._controls().position * 1e9))

    def seek(self, time: datetime.timedelta) -> None:
        self._controls().seek(time)
        if self._pipe is not None:
            self._pipe._forget()

    def pause(self) -> None:
        self._controls().pause()

    def resume(self) -> None:
        self._controls().resume()

    def set_real_time(self, real_time: bool) -> None:
        if self._pipe is None:
            self._source.playback().real_time = bool(real_time)
            return
        self._pipe._real_time = bool(real_time)
        played = self._pipe._played()
        if played is not None:
            played.real_time = bool(real_time)

    def is_real_time(self) -> bool:
        if self._pipe is None:
            return self._source.playback().real_time
        return self._pipe._real_time

    def current_status(self) -> playback_status:
        """Playing (or paused) until every frameset was taken, as
        librealsense's playback says (its reader waits for the framesets
        to be taken; rsbag's may have read the whole file before)."""
        if self._pipe is None:
            return playback_status[self._source.playback().status]
        inner = self._pipe._played()
        if inner is None:
            return playback_status.stopped
        status = inner.status
        if status == "stopped" and (self._pipe._ready or self._pipe._repeat):
            status = "paused" if inner.paused else "playing"
        return playback_status[status]

    def set_playback_speed(self, speed: float) -> None:
        """Play at `speed` times the recorded pace (in real time)."""
        if not speed > 0:
            raise RuntimeError(f"playback speed must be positive, not {speed}")
        if self._pipe is None:
            self._source.playback().speed = float(speed)
            return
        self._pipe._speed = float(speed)
        played = self._pipe._played()
        if played is not None:
            played.speed = float(speed)

    def stop(self) -> None:
        if self._pipe is None:
            self._source.playback().stop()
        else:
            self._pipe.stop()


class context:
    """Devices (`rs.context`): recordings loaded with `load_device`, else
    the cameras librealsense has connected."""

    def __init__(self) -> None:
        self._loaded: List[device] = []

    def load_device(self, file_name: str) -> playback:
        dev = playback(_Source(str(file_name)))
        self._loaded.append(dev)
        return dev

    def query_devices(self, product_line: int = 0) -> List[device]:
        """The recordings loaded (`load_device`), else the devices
        librealsense has connected (see the module's documentation)."""
        if not self._loaded:
            return [device(source) for source in _cameras()]
        return list(self._loaded)

    @property
    def devices(self) -> List[device]:
        return self.query_devices()

    def query_all_sensors(self) -> List[sensor]:
        return [s for d in self.query_devices() for s in d.query_sensors()]


# ---------------------------------------------------------------- pipeline


class config:
    """What a pipeline streams (`rs.config`): a recording and its streams."""

    def __init__(self) -> None:
        self._file: Optional[str] = None
        self._repeat = True
        self._requests: List[Tuple[stream, int, int, int, format, int]] = []
        self._all = False
        self._serial: Optional[str] = None

    def enable_device_from_file(self, file_name: str, repeat_playback: bool = True) -> None:
        """Play `file_name` (repeating it at its end unless
        `repeat_playback` is False)."""
        self._file, self._repeat = str(file_name), bool(repeat_playback)

    def enable_stream(self, stream_type: stream, *args: Any, **kwargs: Any) -> None:
        """pyrealsense2's overloads: (stream, stream_index=-1), (stream,
        format, framerate=0), (stream, width, height, format=any,
        framerate=0), (stream, stream_index, format, framerate=0), (stream,
        stream_index, width, height, format=any, framerate=0)."""
        a = list(args)
        index, width, height, fmt, fps = -1, 0, 0, format.any, 0
        at = next((i for i, x in enumerate(a) if isinstance(x, format)), None)
        if at is None:
            if len(a) == 1:
                index = a[0]
            elif len(a) == 2:
                width, height = a
            elif len(a) >= 3:
                index, width, height = a[:3]
        elif at == 0:
            fmt, fps = a[0], (a[1] if len(a) > 1 else 0)
        elif at == 1:
            index, fmt, fps = a[0], a[1], (a[2] if len(a) > 2 else 0)
        elif at == 2:
            width, height, fmt, fps = a[0], a[1], a[2], (a[3] if len(a) > 3 else 0)
        else:
            index, width, height, fmt = a[:4]
            fps = a[4] if len(a) > 4 else 0
        index = int(kwargs.get("stream_index", index))
        width, height = int(kwargs.get("width", width)), int(kwargs.get("height", height))
        fmt, fps = kwargs.get("format", fmt), int(kwargs.get("framerate", fps))
        self._requests.append((stream_type, int(index), int(width), int(height), fmt, int(fps)))

    def enable_all_streams(self) -> None:
        self._all = True

    def disable_stream(self, stream: stream, index: int = -1) -> None:
        self._requests = [r for r in self._requests
                          if not (r[0] == stream and (index == -1 or r[1] == index))]

    def disable_all_streams(self) -> None:
        self._requests, self._all = [], False

    def enable_device(self, serial: str) -> None:
        self._serial = serial

    def enable_record_to_file(self, file_name: str) -> None:
        raise RuntimeError("recording: rsbag.realsense.DeviceRecorder, or rsbag.Writer")

    def can_resolve(self, p: "pipeline") -> bool:
        try:
            self._chosen(self._source())
        except RuntimeError:
            return False
        return True

    def resolve(self, p: "pipeline") -> "pipeline_profile":
        source = self._source()
        return pipeline_profile(source, self._chosen(source), None)

    def _source(self) -> _Source:
        """The recording enabled, else the camera (`enable_device`'s, or
        the first connected)."""
        if self._file is None:
            return _camera(self._serial)
        return _Source(self._file)

    def _chosen(self, source: _Source) -> List[stream_profile]:
        """The recorded profiles the requests choose (every stream when
        none), in the order of their unique ids (as librealsense lists
        them)."""
        recorded = list(source.by_stream.values())
        if self._all or not self._requests:
            return sorted(recorded, key=lambda p: source.order[p._name])
        # A camera offers many profiles of a stream, its defaults first.
        offered = recorded if source.camera is None else source.profiles
        chosen: List[stream_profile] = []
        for kind, index, width, height, fmt, fps in self._requests:
            found = [p for p in offered
                     if (kind == stream.any or p.stream_type() == kind)
                     and index in (-1, 0, p.stream_index())
                     and (fmt == format.any or p.format() == fmt)
                     and (fps == 0 or p.fps() == fps)
                     and (not width or (isinstance(p, video_stream_profile)
                                        and p.width() == width and p.height() == height))]
            if not found:
                raise RuntimeError("Couldn't resolve requests")
            if found[0] not in chosen:
                chosen.append(found[0])
        return sorted(chosen, key=lambda p: source.order[p._name])


_config = config


class pipeline_profile:
    """What a started pipeline streams (`rs.pipeline_profile`)."""

    def __init__(self, source: _Source, profiles: List[stream_profile],
                 pipe: Optional["pipeline"]) -> None:
        self._source, self._profiles, self._pipe = source, profiles, pipe

    def get_device(self) -> device:
        """The recording's playback, or the camera."""
        if self._source.camera is not None:
            return device(self._source, self._pipe)
        return playback(self._source, self._pipe)

    def get_streams(self) -> List[stream_profile]:
        return list(self._profiles)

    def get_stream(self, stream_type: stream, stream_index: int = -1) -> stream_profile:
        for p in self._profiles:
            if p.stream_type() == stream_type and stream_index in (-1, p.stream_index()):
                return p
        raise RuntimeError("Profile not found!")


class pipeline:
    """Framesets of a recording (`rs.pipeline`), as librealsense's pipeline
    gives them: each holds the latest frame of every enabled stream (one
    sample of each IMU and pose stream, the latest up to the frameset's
    time), made when the video streams' frames of a moment have arrived
    (every frame makes one when no video stream is enabled), the first once
    every stream has sent a frame. A frameset a video stream misses is
    given once that stream's next frame shows it missed it (or it has been
    silent for 7 frame intervals); at the end of the file, framesets still
    waiting so are not given, as librealsense's syncer never gives them."""

    def __init__(self, ctx: Optional[context] = None) -> None:
        self._inner: Optional[Union[_rsbag.Pipeline, _rsbag.LiveStream]] = None
        self._profile: Optional[pipeline_profile] = None
        self._source: Optional[_Source] = None
        self._real_time = True
        self._speed = 1.0
        self._repeat = False
        self._names: List[str] = []
        self._uids: List[int] = []
        self._video: Dict[int, float] = {}
        self._latest: Dict[int, frame] = {}
        self._samples: Dict[int, List[frame]] = {}
        self._last: Dict[int, float] = {}
        self._waiting: List[Tuple[float, List[frame], List[int]]] = []
        self._ready: List[composite_frame] = []
        self._first: Optional[float] = None
        self._wrapped = False
        self._opening: Optional[Dict[str, int]] = None

    def start(self, config: Optional[config] = None) -> pipeline_profile:
        """Start playing `config`'s recording, or streaming its camera (the
        first connected without a config)."""
        if self._inner is not None:
            raise RuntimeError("start() cannot be called before stop()")
        if config is None:
            config = _config()
        source = config._source()
        chosen = config._chosen(source)
        self._source, self._repeat = source, config._repeat
        self._names = [p._name for p in chosen]
        # A frameset lists its frames by sensor, stream type, and the
        # higher index first, as librealsense's playback does.
        in_set = sorted(chosen, key=lambda p: _frameset_place(source, p))
        self._uids = [p.unique_id() for p in in_set]
        # Video streams and how long each may be silent before a frameset
        # missing it is given (7 frame intervals).
        self._video = {p.unique_id(): 7000.0 / (p.fps() or 30) for p in chosen
                       if isinstance(p, video_stream_profile)}
        self._real_time, self._speed = True, 1.0
        self._wrapped, self._opening = False, None
        self._forget()
        self._inner = self._open(source)
        self._profile = pipeline_profile(source, chosen, self)
        return self._profile

    def _open(self, source: _Source,
              paused: bool = False) -> Union[_rsbag.Pipeline, _rsbag.LiveStream]:
        if source.camera is not None:
            return source.camera.start(self._uids)
        inner = _rsbag.Pipeline(source.path, streams=self._names, real_time=self._real_time)
        inner.speed = self._speed
        if paused:
            inner.pause()
        return inner

    def _forget(self) -> None:
        """Forget the frames held (at the start, after a seek)."""
        self._latest, self._samples, self._last = {}, {}, {}
        self._waiting, self._ready = [], []
        self._first = None

    def get_active_profile(self) -> pipeline_profile:
        if self._profile is None:
            raise RuntimeError("get_active_profile() can only be called between start() and stop()")
        return self._profile

    def stop(self) -> None:
        if self._inner is None:
            raise RuntimeError("stop() cannot be called before start()")
        self._inner.stop()
        self._inner, self._profile = None, None

    def _running(self) -> Union[_rsbag.Pipeline, _rsbag.LiveStream]:
        if self._inner is None:
            raise RuntimeError("wait_for_frames cannot be called before start()")
        return self._inner

    def _played(self) -> Optional[_rsbag.Pipeline]:
        """The recording's pipeline streaming (None for a camera's)."""
        return self._inner if isinstance(self._inner, _rsbag.Pipeline) else None

    def _take(self, got: _rsbag.FrameSet) -> None:
        """Take in one of rsbag's framesets (video synced, IMU and pose
        samples attached to the nearest)."""
        frames = [_frame_of(f, self._source) for f in got.frames]
        if not self._video:
            for f in frames:
                self._latest[f._profile.unique_id()] = f
                self._give(f.get_timestamp())
            return
        video = [f for f in frames if f._profile.unique_id() in self._video]
        for f in frames:
            if f._profile.unique_id() not in self._video:
                self._samples.setdefault(f._profile.unique_id(), []).append(f)
        if not video:
            return
        if self._wrapped:
            self._wrapped = False
            self._take_one_by_one(video)
            return
        at = max(f.get_timestamp() for f in video)
        if self._first is None:
            self._first = min(f.get_timestamp() for f in video)
        for f in video:
            self._last[f._profile.unique_id()] = f.get_timestamp()
        have = {f._profile.unique_id() for f in video}
        self._waiting.append((at, video, [uid for uid in self._video if uid not in have]))
        while self._waiting:
            when, video, missing = self._waiting[0]
            if any(self._last.get(uid, self._first) <= when
                   and at - self._last.get(uid, self._first) <= self._video[uid]
                   for uid in missing):
                break
            self._waiting.pop(0)
            for f in video:
                self._latest[f._profile.unique_id()] = f
            self._give(when)

    def _take_one_by_one(self, video: List[frame]) -> None:
        """The first moment after a repeat started the file again:
        librealsense's syncer, its timestamps gone back, gives each of its
        frames a frameset of its own (with the latest of the others), in
        the order the file holds them."""
        for f in sorted(video, key=lambda f: self._opening_order().get(f._profile._name, 0)):
            uid = f._profile.unique_id()
            self._latest[uid] = f
            self._last[uid] = f.get_timestamp()
            self._give(f.get_timestamp())
        self._first = min(f.get_timestamp() for f in video)

    def _opening_order(self) -> Dict[str, int]:
        """Where each video stream's first frame is in the file (read once)."""
        if self._opening is None:
            assert self._source is not None
            wanted = {p._name for p in self._source.by_stream.values()
                      if p.unique_id() in self._video}
            self._opening = {}
            for f in self._source.recorded().frames(streams=sorted(wanted)):
                self._opening.setdefault(f.stream_name, len(self._opening))
                if len(self._opening) == len(wanted):
                    break
        return self._opening

    def _give(self, at: float) -> None:
        """Make a frameset of the latest frames at time `at` (IMU and pose:
        the latest sample up to then), once every stream has one."""
        for uid, samples in self._samples.items():
            while samples and samples[0].get_timestamp() <= at:
                self._latest[uid] = samples.pop(0)
        if all(uid in self._latest for uid in self._uids):
            self._ready.append(composite_frame._of([self._latest[uid] for uid in self._uids]))

    def _next(self, timeout_ms: Optional[int]) -> Optional[composite_frame]:
        """The next frameset within `timeout_ms` (None: poll), None at the
        end; a timeout raises."""
        inner = self._running()
        deadline = None if timeout_ms is None else time.monotonic() + timeout_ms / 1000
        while not self._ready:
            if deadline is None:
                got = inner.poll_for_frames()
                if got is None:
                    return None
            else:
                left = max(0, int((deadline - time.monotonic()) * 1000))
                ok, got = inner.try_wait_for_frames(left)
                if not ok:
                    if not inner.finished:
                        raise RuntimeError(f"Frame didn't arrive within {timeout_ms}")
                    if self._repeat and isinstance(inner, _rsbag.Pipeline) and self._source:
                        # From the start again: the framesets still
                        # waiting are not given (as at the end).
                        inner.stop()
                        inner = self._inner = self._open(self._source, inner.paused)
                        self._waiting, self._last, self._first = [], {}, None
                        self._wrapped = True
                        continue
                    return None
            assert got is not None
            self._take(got)
        return self._ready.pop(0)

    def wait_for_frames(self, timeout_ms: int = 5000) -> composite_frame:
        """The next frameset; RuntimeError after `timeout_ms` without one,
        `rsbag.RecordingEndedError` (a RuntimeError) at the end of a file
        played without repeat."""
        got = self._next(timeout_ms)
        if got is None:
            raise _rsbag.RecordingEndedError(
                f"{self._source.path if self._source else ''}: the recording has ended, "
                "no more framesets")
        return got

    def try_wait_for_frames(self, timeout_ms: int = 5000) -> Tuple[bool, composite_frame]:
        """(True, frameset), or (False, an empty frameset) after
        `timeout_ms` or at the end."""
        try:
            got = self._next(timeout_ms)
        except RuntimeError as e:
            if isinstance(e, _rsbag.RecordingEndedError) or "didn't arrive" in str(e):
                return False, composite_frame()
            raise
        return (True, got) if got is not None else (False, composite_frame())

    def poll_for_frames(self) -> composite_frame:
        """A frameset if one is ready, else an empty (falsy) one."""
        got = self._next(None)
        return got if got is not None else composite_frame()

    def __del__(self) -> None:
        inner = getattr(self, "_inner", None)
        if inner is not None:
            inner.stop()


# ---------------------------------------------------------------- processing


class filter:
    """A processing block with options (`rs.filter`): `process(frame)`,
    `set_option(rs.option.*, value)`. The arithmetic is rsbag's
    (`rsbag.Filter`), which equals librealsense 2.55's."""

    _kind = ""

    def __init__(self) -> None:
        self._options: Dict[str, float] = {}
        self._inner: Optional[_rsbag.Filter] = None

    def _filter(self) -> _rsbag.Filter:
        # Options are given in the order they were set, as set_option
        # would have applied them one by one.
        if self._inner is None:
            try:
                self._inner = _rsbag.Filter(self._kind, **self._options)
            except _rsbag.Error as e:
                raise RuntimeError(str(e)) from e
        return self._inner

    def set_option(self, option: option, value: float) -> None:
        self._options.pop(option.name, None)
        self._options[option.name] = float(value)
        try:
            self._inner = None
            self._filter()
        except RuntimeError:
            del self._options[option.name]
            self._inner = None
            raise

    def get_option(self, option: option) -> float:
        return float(self._filter().options[self._known(option)])

    def supports(self, option: option) -> bool:
        try:
            self._known(option)
        except RuntimeError:
            return False
        return True

    def get_supported_options(self) -> List[option]:
        return [o for o in _FILTER_OPTIONS.get(self._kind, ()) if self.supports(o)]

    def _known(self, which: option) -> str:
        options = self._filter().options
        for key in options:
            if _FILTER_KEYS.get((self._kind, which.name)) == key:
                return key
        raise RuntimeError(f"Option {which} is not supported by this processing block")

    def process(self, frame: frame) -> frame:
        """`frame` processed: a depth frame, or each depth frame of a
        frameset (the others pass through)."""
        if isinstance(frame, composite_frame):
            return composite_frame._of([self._one(f) if f.is_depth_frame() else f
                                        for f in frame])
        return self._one(frame)

    def __call__(self, frame: frame) -> frame:
        return self.process(frame)

    def _one(self, f: frame) -> frame:
        if f._aligned:
            raise RuntimeError("rsbag.pyrealsense2 filters frames read from the recording or "
                               "filtered, not ones made by align or hdr_merge: filter before "
                               "those")
        try:
            out = self._filter().process(f._frame())
        except _rsbag.Error as e:
            raise RuntimeError(str(e)) from e
        return _frame_of(out, f._source, stream_profile._of(out.profile, f._source))


# (filter, rs.option name) -> rsbag's option key.
_FILTER_KEYS = {
    ("decimation", "filter_magnitude"): "magnitude",
    ("threshold", "min_distance"): "min",
    ("threshold", "max_distance"): "max",
    ("spatial", "filter_smooth_alpha"): "alpha",
    ("spatial", "filter_smooth_delta"): "delta",
    ("spatial", "filter_magnitude"): "magnitude",
    ("spatial", "holes_fill"): "holes-fill",
    ("temporal", "filter_smooth_alpha"): "alpha",
    ("temporal", "filter_smooth_delta"): "delta",
    ("temporal", "holes_fill"): "persistence",
    ("hole-filling", "holes_fill"): "mode",
    ("colorizer", "color_scheme"): "color-scheme",
    ("colorizer", "histogram_equalization_enabled"): "histogram-equalization",
    ("colorizer", "min_distance"): "min",
    ("colorizer", "max_distance"): "max",
    ("colorizer", "visual_preset"): "visual-preset",
}
_FILTER_OPTIONS: Dict[str, List[option]] = {}
for (_kind, _name) in _FILTER_KEYS:
    _FILTER_OPTIONS.setdefault(_kind, []).append(option[_name])


class decimation_filter(filter):
    """`rs.decimation_filter(magnitude=2)`."""

    _kind = "decimation"

    def __init__(self, magnitude: Optional[float] = None) -> None:
        super().__init__()
        if magnitude is not None:
            self.set_option(option.filter_magnitude, magnitude)


class threshold_filter(filter):
    """`rs.threshold_filter(min_dist=0.15, max_dist=4.0)`."""

    _kind = "threshold"

    def __init__(self, min_dist: float = 0.15, max_dist: float = 4.0) -> None:
        super().__init__()
        self.set_option(option.min_distance, min_dist)
        self.set_option(option.max_distance, max_dist)


class spatial_filter(filter):
    """`rs.spatial_filter()` or `rs.spatial_filter(smooth_alpha,
    smooth_delta, magnitude, hole_fill)`."""

    _kind = "spatial"

    def __init__(self, smooth_alpha: Optional[float] = None, smooth_delta: Optional[float] = None,
                 magnitude: Optional[float] = None, hole_fill: Optional[float] = None) -> None:
        super().__init__()
        for o, v in ((option.filter_smooth_alpha, smooth_alpha),
                     (option.filter_smooth_delta, smooth_delta),
                     (option.filter_magnitude, magnitude), (option.holes_fill, hole_fill)):
            if v is not None:
                self.set_option(o, v)


class temporal_filter(filter):
    """`rs.temporal_filter()` or `rs.temporal_filter(smooth_alpha,
    smooth_delta, persistence_control)`; it remembers the frames it
    processed."""

    _kind = "temporal"

    def __init__(self, smooth_alpha: Optional[float] = None, smooth_delta: Optional[float] = None,
                 persistence_control: Optional[int] = None) -> None:
        super().__init__()
        for o, v in ((option.filter_smooth_alpha, smooth_alpha),
                     (option.filter_smooth_delta, smooth_delta),
                     (option.holes_fill, persistence_control)):
            if v is not None:
                self.set_option(o, v)


class hole_filling_filter(filter):
    """`rs.hole_filling_filter(mode=1)`: 0 fill from the left, 1 farthest
    neighbour, 2 nearest."""

    _kind = "hole-filling"

    def __init__(self, mode: Optional[int] = None) -> None:
        super().__init__()
        if mode is not None:
            self.set_option(option.holes_fill, mode)


class disparity_transform(filter):
    """`rs.disparity_transform(transform_to_disparity=True)`: depth to
    disparity, or back."""

    def __init__(self, transform_to_disparity: bool = True) -> None:
        super().__init__()
        self._kind = "depth-to-disparity" if transform_to_disparity else "disparity-to-depth"

    def process(self, frame: frame) -> frame:
        if isinstance(frame, composite_frame):
            return composite_frame._of([self._one(f) if f.is_depth_frame() else f
                                        for f in frame])
        return self._one(frame)


class colorizer(filter):
    """`rs.colorizer(color_scheme=0)`: depth as librealsense's RGB8 picture."""

    _kind = "colorizer"

    def __init__(self, color_scheme: Optional[float] = None) -> None:
        super().__init__()
        if color_scheme is not None:
            self.set_option(option.color_scheme, color_scheme)

    def set_option(self, option_: option, value: float) -> None:
        # Setting the range turns histogram equalization off in
        # librealsense: a later explicit setting decides again.
        super().set_option(option_, value)
        if option_ in (option.min_distance, option.max_distance):
            self._options.pop("histogram_equalization_enabled", None)
            self._inner = None

    def colorize(self, depth: frame) -> video_frame:
        """The depth frame's picture (RGB8, the depth's size)."""
        out = self._one(depth)
        return out._as(video_frame)


class align(filter):
    """`rs.align(align_to)`: a frameset's depth aligned to the `align_to`
    stream's image, or (align_to=rs.stream.depth) the other images aligned
    to depth, as librealsense computes them."""

    def __init__(self, align_to: stream) -> None:
        super().__init__()
        self._to = align_to

    def process(self, frames: frame) -> composite_frame:
        if not isinstance(frames, composite_frame):
            raise RuntimeError("align processes framesets (wait_for_frames' framesets)")
        depth = frames.first_or_default(stream.depth, format.z16)
        if not depth:
            return frames
        source = depth._source
        assert source is not None
        out: List[frame] = []
        if self._to == stream.depth:
            for f in frames:
                if f is depth or not f.is_video_frame():
                    out.append(f)
                    continue
                a = _alignment(source, depth._profile._name, f._profile._name)
                data = a.other_to_depth(depth._frame(), f._frame())
                profile = _with_intrinsics(f._profile, depth._profile)
                out.append(_derived(f, data, profile))
            return composite_frame._of(out)
        target = frames.first_or_default(self._to)
        if not target:
            return frames
        for f in frames:
            if f is depth:
                a = _alignment(source, depth._profile._name, target._profile._name)
                data = a.depth_to_other(depth._frame())
                out.append(_derived(depth, data, _with_intrinsics(depth._profile,
                                                                  target._profile)))
            else:
                out.append(f)
        return composite_frame._of(out)


def _alignment(source: _Source, depth: str, other: str) -> Any:
    key = (depth, other)
    if key not in source.alignments:
        source.alignments[key] = source.recording.alignment(depth, other)
    return source.alignments[key]


def _with_intrinsics(profile: stream_profile, shape_of: stream_profile) -> stream_profile:
    """`profile` with `shape_of`'s size and intrinsics (an aligned frame's)."""
    d = dict(profile._d)
    for key in ("width", "height", "intrinsics"):
        d[key] = shape_of._d.get(key)
    return stream_profile._of(d, profile._source)


_VERTEX = np.dtype([("f0", "<f4"), ("f1", "<f4"), ("f2", "<f4")])
_TEXTURE = np.dtype([("f0", "<f4"), ("f1", "<f4")])


class points(frame):
    """A point cloud (`rs.points`): a vertex (metres) and a texture
    coordinate per depth pixel."""

    _vertices: npt.NDArray[np.float32]
    _uv: npt.NDArray[np.float32]

    def __init__(self, other: Optional[frame] = None) -> None:
        super().__init__(other)
        self._vertices = np.zeros((0, 3), np.float32)
        self._uv = np.zeros((0, 2), np.float32)

    def size(self) -> int:
        return int(len(self._vertices))

    def _shape(self) -> Tuple[int, int]:
        p = self._profile
        return (p.height(), p.width()) if isinstance(p, video_stream_profile) else (1, self.size())

    def get_vertices(self, dims: int = 1) -> npt.NDArray[Any]:
        """dims 1: N vertices (fields f0, f1, f2 float32); 2: Nx3; 3: HxWx3."""
        return _shaped(self._vertices, _VERTEX, dims, self._shape())

    def get_texture_coordinates(self, dims: int = 1) -> npt.NDArray[Any]:
        """dims 1: N (u, v) pairs (fields f0, f1); 2: Nx2; 3: HxWx2."""
        return _shaped(self._uv, _TEXTURE, dims, self._shape())

    def export_to_ply(self, fname: str, texture: frame) -> None:
        """Write the cloud to `fname` as librealsense's points::export_to_ply
        writes it: binary PLY of the points with a coordinate of at least
        1 µm as (x, -y, -z), coloured from `texture` where given, and two
        triangles for each 2x2 block of pixels whose depths all exist and
        differ by less than 5 cm."""
        _write_ply(fname, self, texture if texture else None)


def _write_ply(fname: str, cloud: points, texture: Optional[frame], binary: bool = True,
               mesh: bool = True, normals: bool = False, threshold: float = 0.05) -> None:
    """`cloud` as a PLY file, as librealsense writes one (points::export_to_ply,
    and save_to_ply with its options): the points with a coordinate of at
    least 1 µm as (x, -y, -z); with `mesh`, two triangles for each 2x2 block
    of pixels whose depths all exist and differ by less than `threshold`
    metres, and with `normals` each point's normal (the normalized sum of
    its triangles'); coloured from `texture`; binary or ASCII."""
    vertices = cloud._vertices
    kept = np.any(np.abs(vertices) >= 1e-6, axis=1)
    written = vertices[kept] * np.array([1, -1, -1], dtype=np.float32)
    colors = None
    if texture is not None:
        colors = _rsbag.PointCloud.colors(np.ascontiguousarray(cloud._uv[kept]),
                                          texture._frame())
    faces, blocks = _faces(cloud, kept, np.float32(threshold)) if mesh else (None, None)
    with_normals = mesh and normals
    header = ["ply", f"format {'binary_little_endian' if binary else 'ascii'} 1.0",
              "comment pointcloud saved from Realsense Viewer",
              f"element vertex {len(written)}", "property float32 x", "property float32 y",
              "property float32 z"]
    fields = [("x", "<f4"), ("y", "<f4"), ("z", "<f4")]
    if with_normals:
        header += ["property float32 nx", "property float32 ny", "property float32 nz"]
        fields += [("nx", "<f4"), ("ny", "<f4"), ("nz", "<f4")]
    if colors is not None:
        header += ["property uchar red", "property uchar green", "property uchar blue"]
        fields += [("red", "u1"), ("green", "u1"), ("blue", "u1")]
    if faces is not None:
        header += [f"element face {len(faces)}", "property list uchar int vertex_indices"]
    header.append("end_header")
    rows = np.empty(len(written), np.dtype(fields))
    rows["x"], rows["y"], rows["z"] = written[:, 0], written[:, 1], written[:, 2]
    if with_normals:
        assert blocks is not None
        n = _normals(cloud, kept, blocks)
        rows["nx"], rows["ny"], rows["nz"] = n[:, 0], n[:, 1], n[:, 2]
    if colors is not None:
        rows["red"], rows["green"], rows["blue"] = colors[:, 0], colors[:, 1], colors[:, 2]
    with open(fname, "wb") as out:
        out.write(("\n".join(header) + "\n").encode())
        if binary:
            out.write(rows.tobytes())
            if faces is not None:
                triangles = np.empty(len(faces), np.dtype([("n", "u1"), ("i", "<i4", (3,))]))
                triangles["n"], triangles["i"] = 3, faces
                out.write(triangles.tobytes())
        else:
            out.write(_ascii_rows(rows, with_normals, colors is not None).encode())
            if faces is not None:
                out.write("".join(f"3 {a} {b} {c} \n" for a, b, c in faces.tolist()).encode())


def _ascii_rows(rows: npt.NDArray[Any], normals: bool, colors: bool) -> str:
    """PLY ASCII lines as librealsense's save_to_ply writes them (C++
    streams: 6 significant digits), a line each for the point, its normal
    and its colour, each value followed by a space."""
    g = "{:g} {:g} {:g} \n".format
    lines = []
    for row in rows.tolist():
        lines.append(g(*row[0:3]))
        if normals:
            lines.append(g(*row[3:6]))
        if colors:
            lines.append("{} {} {} \n".format(*row[-3:]))
    return "".join(lines)


def _faces(cloud: points, kept: npt.NDArray[np.bool_], threshold: np.float32
           ) -> Tuple[npt.NDArray[np.int32], npt.NDArray[np.bool_]]:
    """The triangles (indices among the kept points), block by block along
    columns, then rows, as librealsense makes them, and which 2x2 blocks
    made them (rows x columns of blocks)."""
    height, width = cloud._shape()
    z = cloud._vertices[:, 2].reshape(height, width)
    have = (z != 0) & kept.reshape(height, width)
    a, b, c, d = z[:-1, :-1], z[:-1, 1:], z[1:, :-1], z[1:, 1:]
    ok = (have[:-1, :-1] & have[:-1, 1:] & have[1:, :-1] & have[1:, 1:]
          & (np.abs(a - b) < threshold) & (np.abs(a - c) < threshold)
          & (np.abs(b - d) < threshold) & (np.abs(c - d) < threshold))
    reduced = (np.cumsum(kept) - 1).astype(np.int32).reshape(height, width)
    xs, ys = np.nonzero(ok.T)
    ia, ib = reduced[ys, xs], reduced[ys, xs + 1]
    ic, id_ = reduced[ys + 1, xs], reduced[ys + 1, xs + 1]
    faces = np.empty((2 * len(xs), 3), np.int32)
    faces[0::2] = np.stack([ia, id_, ib], axis=1)
    faces[1::2] = np.stack([id_, ia, ic], axis=1)
    return faces, ok


def _normals(cloud: points, kept: npt.NDArray[np.bool_], blocks: npt.NDArray[np.bool_]
             ) -> npt.NDArray[np.float32]:
    """Each kept point's normal as librealsense's save_to_ply computes it,
    in float32 and in its order: the sum of the normals of the triangles
    the point is a corner of, blocks taken along columns, then rows
    (so: as the lower right corner of the block up and left, the lower
    left of the block to the left, the upper right of the block above,
    the upper left of its own), normalized; (0, 0, 0) for a point in no
    triangle."""
    height, width = cloud._shape()
    p = (cloud._vertices * np.array([1, -1, -1], dtype=np.float32)).reshape(height, width, 3)
    a, b, c, d = p[:-1, :-1], p[:-1, 1:], p[1:, :-1], p[1:, 1:]
    n1 = np.cross(d - a, b - a).astype(np.float32)
    n2 = np.cross(c - a, d - a).astype(np.float32)
    total = np.zeros((height, width, 3), np.float32)
    count = np.zeros((height, width), np.int32)

    def add(rows: slice, cols: slice, normal: npt.NDArray[np.float32]) -> None:
        # Only where a block made triangles: adding a zero would turn -0 into 0.
        where = blocks[..., None]
        total[rows, cols] = np.where(where, total[rows, cols] + normal, total[rows, cols])
        count[rows, cols] += blocks

    add(slice(1, None), slice(1, None), n1)   # as d of the block up-left
    add(slice(1, None), slice(1, None), n2)
    add(slice(None, -1), slice(1, None), n1)  # as b of the block to the left
    add(slice(1, None), slice(None, -1), n2)  # as c of the block above
    add(slice(None, -1), slice(None, -1), n1)  # as a of its own block
    add(slice(None, -1), slice(None, -1), n2)
    flat, counted = total.reshape(-1, 3)[kept], count.reshape(-1)[kept]
    length = np.sqrt(flat[:, 0] * flat[:, 0] + flat[:, 1] * flat[:, 1]
                     + flat[:, 2] * flat[:, 2])
    with np.errstate(divide="ignore", invalid="ignore"):
        out: npt.NDArray[np.float32] = (flat / length[:, None]).astype(np.float32)
    out[counted == 0] = 0
    return out


def _shaped(values: npt.NDArray[np.float32], record: np.dtype, dims: int,
            shape: Tuple[int, int]) -> npt.NDArray[Any]:
    if dims == 1:
        return values.view(record).reshape(-1)
    if dims == 2:
        return values
    if dims == 3:
        return values.reshape(shape[0], shape[1], values.shape[1])
    raise ValueError("dims arg only supports values of 1, 2 or 3")


class pointcloud(filter):
    """`rs.pointcloud()`: `map_to(frame)` chooses the image textures come
    from, `calculate(depth)` makes the points."""

    def __init__(self, stream: Optional[stream] = None, index: int = 0) -> None:
        super().__init__()
        self._texture: Optional[str] = None

    def map_to(self, mapped: frame) -> None:
        self._texture = mapped._profile._name

    def calculate(self, depth: frame) -> points:
        source = depth._source
        if source is None:
            raise RuntimeError("the depth frame is empty")
        key = (depth._profile._name, self._texture)
        if key not in source.clouds:
            source.clouds[key] = source.recording.pointcloud(key[0], map_to=key[1])
        vertices, uv = source.clouds[key].calculate(depth._frame())
        out = points()
        out._f, out._source, out._profile, out._data = depth._f, source, depth._profile, None
        out._vertices = vertices
        out._uv = uv if uv is not None else np.zeros((len(vertices), 2), np.float32)
        return out

    def process(self, frame: frame) -> frame:
        if isinstance(frame, composite_frame):
            depth = frame.first_or_default(stream.depth, format.z16)
            return self.calculate(depth)
        if frame.is_depth_frame():
            return self.calculate(frame)
        self.map_to(frame)
        return frame


_SHARED_PLY_CLOUD = pointcloud()
# rs.frame, where a parameter has its name (pyrealsense2's `process(frame)`).
_Frame = frame


class _OwnOptions(filter):
    """A processing block computed here, with options of its own: each
    (min, max, step, default), kept as float32 as librealsense keeps them."""

    _RANGES: Dict[int, Tuple[float, float, float, float]] = {}

    def __init__(self) -> None:
        super().__init__()
        self._values = {k: r[3] for k, r in self._RANGES.items()}

    def _own(self, which: option) -> int:
        if int(which) not in self._values:
            raise RuntimeError(f"Option {which} is not supported by this processing block")
        return int(which)

    def set_option(self, option: option, value: float) -> None:
        low, high = self._RANGES[self._own(option)][:2]
        if not low <= value <= high:
            raise RuntimeError(f"Value {value} is out of range of option {option} "
                               f"({low:g}-{high:g})")
        self._values[int(option)] = float(np.float32(value))

    def get_option(self, option: option) -> float:
        return self._values[self._own(option)]

    def get_option_range(self, option: option) -> option_range:
        return option_range(*self._RANGES[self._own(option)])

    def supports(self, option: option) -> bool:
        return int(option) in self._values

    def get_supported_options(self) -> List[option]:
        members = option._value2member_map_
        return [cast(option, members[k]) if k in members else option._unnamed(k)
                for k in self._values]


class save_to_ply(_OwnOptions):
    """`rs.save_to_ply(filename, pc=rs.pointcloud())`: `process(frames)`
    writes the frameset's point cloud to `filename` (its depth frame, or
    the points in it, coloured from its first other image) as
    librealsense's save_to_ply writes it, and returns `frames`. Options:
    `option_ignore_color` (0), `option_ply_mesh` (1), `option_ply_binary`
    (1), `option_ply_normals` (0), `option_ply_threshold` (0.05 m)."""

    option_ignore_color = option._unnamed(108)
    option_ply_mesh = option._unnamed(109)
    option_ply_binary = option._unnamed(110)
    option_ply_normals = option._unnamed(111)
    option_ply_threshold = option._unnamed(112)
    _RANGES = {108: (0.0, 1.0, 1.0, 0.0), 109: (0.0, 1.0, 1.0, 1.0), 110: (0.0, 1.0, 1.0, 1.0),
               111: (0.0, 1.0, 1.0, 0.0), 112: (0.0, 1.0, 0.0, float(np.float32(0.05)))}

    def __init__(self, filename: str = "RealSense Pointcloud ",
                 pc: Optional["pointcloud"] = None) -> None:
        super().__init__()
        self._fname = str(filename)
        # pyrealsense2's default `pc` is one pointcloud made once, which
        # every save_to_ply made without one shares (a frameset's colour
        # stays mapped for the next block's depth frame alone).
        self._pc = pc if pc is not None else _SHARED_PLY_CLOUD

    def process(self, frame: _Frame) -> _Frame:
        depth: Optional[_Frame] = None
        color: Optional[_Frame] = None
        if isinstance(frame, composite_frame):
            for f in frame:
                if isinstance(f, points):
                    depth = f
                elif depth is None and f.is_depth_frame():
                    depth = f
                elif color is None and f.is_video_frame():
                    color = f
        elif frame.is_depth_frame() or isinstance(frame, points):
            depth = frame
        if depth is None:
            raise RuntimeError("Need depth data to save PLY")
        if not isinstance(depth, points):
            if color is not None:
                self._pc.map_to(color)
            depth = self._pc.calculate(depth)
        use_color = color is not None and not self._values[108]
        _write_ply(self._fname, depth, color if use_color else None,
                   binary=bool(self._values[110]), mesh=bool(self._values[109]),
                   normals=bool(self._values[111]), threshold=self._values[112])
        return frame


def _hdr_metadata(f: frame, which: frame_metadata_value) -> Optional[int]:
    return f.get_frame_metadata(which) if f.supports_frame_metadata(which) else None


def _with_results(frames: composite_frame, results: List[frame]) -> composite_frame:
    """A block's framesets as librealsense's processing blocks make them:
    the results, then each frame of `frames` no result replaces (same
    stream, format and index); a Z16 result replaces disparity too."""
    depth_result = any(r._profile.format() == format.z16 for r in results)
    out = list(results)
    for f in frames:
        p = f._profile
        if depth_result and p.format() in (format.disparity32, format.disparity16):
            continue
        if not any(r._profile.stream_type() == p.stream_type() and
                   r._profile.format() == p.format() and
                   r._profile.stream_index() == p.stream_index() for r in results):
            out.append(f)
    return composite_frame._of(out)


class sequence_id_filter(_OwnOptions):
    """`rs.sequence_id_filter(sequence_id=1)`: of HDR frames (Sequence Size
    and Sequence Id metadata), those of the chosen exposure: a frame of
    sequence id `sequence_id - 1` passes, one of the other id is replaced by
    the last passed of its stream (0: every frame passes), as librealsense's
    filter does."""

    _RANGES = {int(option.sequence_id): (0.0, 2.0, 1.0, 1.0)}

    def __init__(self, sequence_id: Optional[float] = None) -> None:
        super().__init__()
        self._last: Dict[Tuple[int, int], frame] = {}
        if sequence_id is not None:
            self.set_option(option.sequence_id, sequence_id)

    def _one(self, f: frame) -> frame:
        size = _hdr_metadata(f, frame_metadata_value.sequence_size)
        seq = _hdr_metadata(f, frame_metadata_value.sequence_id)
        if not size or seq is None:
            return f
        uid = f._profile.unique_id()
        chosen = int(self._values[int(option.sequence_id)])
        if chosen == 0 or seq + 1 == chosen:
            self._last[(seq, uid)] = f
            return f
        return self._last.get((1 if seq == 0 else 0, uid), f)

    def process(self, frame: _Frame) -> _Frame:
        if isinstance(frame, composite_frame):
            results = [self._one(f) for f in frame
                       if _hdr_metadata(f, frame_metadata_value.sequence_size)
                       and _hdr_metadata(f, frame_metadata_value.sequence_id) is not None]
            return _with_results(frame, results) if results else frame
        return self._one(frame)


# Infrared values (exclusive bounds) an exposure is taken as valid between.
_IR_VALID = {format.y8: (5, 250), format.y16: (20, 1003)}
# A merged frame older than this many frame counters is not given again.
_HDR_STALE = 4


class hdr_merge(filter):
    """`rs.hdr_merge()`: framesets of the two HDR exposures (Sequence Size 2,
    Sequence Id 0 then 1, consecutive Frame Counters) merged into one depth
    frame as librealsense merges them: each pixel from the first exposure's
    depth where it has depth (and, when both exposures' infrared frames
    match the depth frames, its infrared is neither dark nor saturated),
    else from the second's; the frameset holds the latest merged frame
    with the other frames of the frameset given."""

    def __init__(self) -> None:
        super().__init__()
        self._pair: Dict[int, composite_frame] = {}
        self._merged: Optional[frame] = None

    def process(self, frame: _Frame) -> _Frame:
        if not isinstance(frame, composite_frame):
            return frame
        depth = frame.get_depth_frame()
        if not depth or _hdr_metadata(depth, frame_metadata_value.sequence_size) != 2:
            return frame
        seq = _hdr_metadata(depth, frame_metadata_value.sequence_id)
        if seq is None:
            return frame
        if len(self._pair) == seq:
            self._pair[seq] = frame
        self._forget_stale(depth)
        if len(self._pair) >= 2:
            first, second = self._pair[0], self._pair[1]
            self._pair = {}
            merged = self._merge(first, second)
            if merged is not None:
                self._merged = merged
        if self._merged is None:
            return frame
        return _with_results(frame, [self._merged])

    def _forget_stale(self, depth: frame) -> None:
        if self._merged is None:
            return
        counter = _hdr_metadata(self._merged, frame_metadata_value.frame_counter) or 0
        now = _hdr_metadata(depth, frame_metadata_value.frame_counter) or 0
        merged_shape = self._merged.get_data().shape
        if counter > now or now - counter >= _HDR_STALE or (
                merged_shape != depth.get_data().shape):
            self._merged = None

    def _merge(self, first: composite_frame, second: composite_frame) -> Optional[frame]:
        d0, d1 = first.get_depth_frame(), second.get_depth_frame()
        counter = frame_metadata_value.frame_counter
        if (_hdr_metadata(d0, counter) or 0) + 1 != (_hdr_metadata(d1, counter) or 0):
            return None
        a, b = np.asanyarray(d0.get_data()), np.asanyarray(d1.get_data())
        if a.shape != b.shape:
            return None
        i0, i1 = first.get_infrared_frame(), second.get_infrared_frame()
        use0, use1 = a != 0, b != 0
        if self._infrared_usable(d0, i0, d1, i1):
            low, high = _IR_VALID[i0._profile.format()]
            ir0, ir1 = np.asanyarray(i0.get_data()), np.asanyarray(i1.get_data())
            use0 &= (ir0 > low) & (ir0 < high)
            use1 &= (ir1 > low) & (ir1 < high)
        merged = np.where(use0, a, np.where(use1, b, 0)).astype(np.uint16)
        return _derived(d0, merged, d0._profile)

    @staticmethod
    def _infrared_usable(d0: frame, i0: frame, d1: frame, i1: frame) -> bool:
        if not i0 or not i1:
            return False
        shape = d0.get_data().shape
        if i0.get_data().shape[:2] != shape or i1.get_data().shape[:2] != shape:
            return False
        if i0._profile.format() != i1._profile.format() or i0._profile.format() not in _IR_VALID:
            return False
        for depth, ir in ((d0, i0), (d1, i1)):
            for which in (frame_metadata_value.frame_counter, frame_metadata_value.sequence_id):
                if _hdr_metadata(ir, which) is None or (
                        _hdr_metadata(ir, which) != _hdr_metadata(depth, which)):
                    return False
        return True


# ---------------------------------------------------------------- rsutil


def rs2_deproject_pixel_to_point(intrin: intrinsics, pixel: Sequence[float],
                                 depth: float) -> List[float]:
    """The point (metres) seen at `pixel` at `depth` metres (librealsense's
    rsutil)."""
    return list(_rsbag.deproject(intrin._dict(), (float(pixel[0]), float(pixel[1])),
                                 float(depth)))


def rs2_project_point_to_pixel(intrin: intrinsics, point: Sequence[float]) -> List[float]:
    """The pixel at which `point` (metres) is seen (librealsense's rsutil)."""
    return list(_rsbag.project(intrin._dict(), (float(point[0]), float(point[1]),
                                                float(point[2]))))


def rs2_transform_point_to_point(extrin: extrinsics, from_point: Sequence[float]) -> List[float]:
    """`from_point` moved by `extrin` (rotation column-major, in float32 as
    librealsense's rsutil)."""
    r = np.asarray(extrin.rotation, np.float32)
    t = np.asarray(extrin.translation, np.float32)
    p = np.asarray(from_point, np.float32)
    return [float(r[i] * p[0] + r[i + 3] * p[1] + r[i + 6] * p[2] + t[i]) for i in range(3)]


def rs2_fov(intrin: intrinsics) -> List[float]:
    """The horizontal and vertical field of view in degrees."""
    f32 = np.float32
    ppx, ppy = f32(intrin.ppx) + f32(0.5), f32(intrin.ppy) + f32(0.5)
    h = (np.arctan2(ppx, f32(intrin.fx)) + np.arctan2(f32(intrin.width) - ppx, f32(intrin.fx)))
    v = (np.arctan2(ppy, f32(intrin.fy)) + np.arctan2(f32(intrin.height) - ppy, f32(intrin.fy)))
    return [float(h * f32(57.2957795)), float(v * f32(57.2957795))]
