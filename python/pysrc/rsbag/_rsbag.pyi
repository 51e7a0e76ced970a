"""Type stubs of the extension module (see rsbag/__init__.py).

Checked against the module by mypy's stubtest, and against the README's
examples by mypy --strict (python/tests/check_typing.py)."""

import datetime
import os
from types import TracebackType
from typing import (
    Any,
    Callable,
    Dict,
    Iterable,
    Iterator,
    List,
    Optional,
    Sequence,
    SupportsIndex,
    Tuple,
    Type,
    Union,
    final,
    overload,
)

import numpy as np

__version__: str
__all__ = [
    "Filter",
    "open",
    "info",
    "check",
    "open_session",
    "Session",
    "SessionFrame",
    "SessionFrameIterator",
    "SessionFrameSet",
    "SessionFrameSetIterator",
    "Recording",
    "Pieces",
    "PieceFrameIterator",
    "PieceFrameSetIterator",
    "Frame",
    "FrameIterator",
    "FrameSet",
    "Writer",
    "FrameSetIterator",
    "Playback",
    "PlaybackSensor",
    "Pipeline",
    "LiveContext",
    "LiveDevice",
    "LiveStream",
    "_stop_all",
    "Alignment",
    "PointCloud",
    "deproject",
    "project",
    "Error",
    "IoError",
    "WrongFormatError",
    "DamagedError",
    "UnsupportedError",
    "NotARecordingError",
    "InvalidArgumentError",
    "ThreadError",
    "RsbagWarning",
    "FrameTimeoutError",
    "RecordingEndedError",
    "__version__",
]

class Error(Exception):
    """Anything rsbag could not do; the message names the file and what is wrong."""

class IoError(Error):
    """A file could not be read or written. A missing file whose
    NAME.partial exists says so (`rsbag reindex NAME.partial` recovers it)."""

class WrongFormatError(Error): ...
class DamagedError(Error): ...
class UnsupportedError(Error): ...
class NotARecordingError(Error): ...
class InvalidArgumentError(Error): ...
class ThreadError(Error): ...

class RsbagWarning(UserWarning):
    """What the rsbag tool warns of: a bag read by scanning its records,
    its index missing or unusable (`rsbag reindex` writes a new one)."""

class FrameTimeoutError(TimeoutError, RuntimeError):
    """No frameset arrived within the time given ("Frame didn't arrive
    within 5000", as pyrealsense2's RuntimeError)."""

class RecordingEndedError(EOFError, RuntimeError):
    """The recording has ended and every frameset was taken."""

@overload
def open(path: Union[str, os.PathLike[str]]) -> Recording:
    """Open a RealSense recording (.bag, .db3) or a camera bag recorded from
    ROS (ROS1 .bag, rosbag2 directory, .db3, .mcap)."""
@overload
def open(path: Sequence[Union[str, os.PathLike[str]]]) -> Union[Recording, Pieces]:
    """The pieces of one split recording (NAME_0.bag, NAME_1.bag, ...; in
    any order) read as one recording; one path opens that recording."""

@final
class Pieces:
    """The pieces of a split recording read as one: frames indexed and
    timed across the pieces, every frame once."""
    @property
    def paths(self) -> List[str]:
        """The pieces' files, in recorded order."""
    @property
    def gaps(self) -> List[str]:
        """Where a stream's frame numbers jump at a cut (a piece missing)."""
    @property
    def info(self) -> Dict[str, str]: ...
    @property
    def sensors(self) -> List[Dict[str, Any]]:
        """Each sensor as the first piece describes it (as Recording.sensors)."""
    @property
    def streams(self) -> List[str]: ...
    @property
    def duration(self) -> float:
        """Seconds from the first piece's first frame to the last's last."""
    def extrinsics(self, source: str, target: str) -> Optional[Dict[str, List[float]]]:
        """{"rotation": 9 floats column-major, "translation": 3 floats, m}."""
    def depth_units(self, depth: str = "Depth") -> float:
        """Metres per raw depth unit (0.001 when none was recorded)."""
    def frame_count(self, stream: str) -> int: ...
    def frame(self, stream: str, index: int) -> Frame:
        """Frame `index` of `stream`, counted from 0 across the pieces."""
    def frames(
        self,
        streams: Optional[Sequence[str]] = None,
        start: Optional[float] = None,
        end: Optional[float] = None,
        duration: Optional[float] = None,
    ) -> PieceFrameIterator: ...
    def columns(
        self,
        stream: str,
        start: Optional[float] = None,
        end: Optional[float] = None,
        duration: Optional[float] = None,
    ) -> Dict[str, Any]:
        """As Recording.columns; "index" and "time" count across the pieces."""
    def framesets(
        self,
        streams: Optional[Sequence[str]] = None,
        start: Optional[float] = None,
        end: Optional[float] = None,
        duration: Optional[float] = None,
    ) -> PieceFrameSetIterator:
        """As Recording.framesets, the pieces' frames one run: a frameset
        at a cut holds frames of both pieces."""

@final
class PieceFrameIterator(Iterator[Frame]):
    def __iter__(self) -> PieceFrameIterator: ...
    def __next__(self) -> Frame: ...

@final
class PieceFrameSetIterator(Iterator[FrameSet]):
    def __iter__(self) -> PieceFrameSetIterator: ...
    def __next__(self) -> FrameSet: ...

def info(path: Union[str, os.PathLike[str]]) -> Dict[str, Any]:
    """What `rsbag info` reports: format, size, index, time span, chunks,
    topics, and for a recording its device, sensors and streams."""

def check(path: Union[str, os.PathLike[str]]) -> Dict[str, Any]:
    """What `rsbag check` finds: "damage", "scanned", and per stream
    "frames", "first_number", "last_number", "dropped", "out_of_order",
    "duplicates", "findings"."""

@final
class Recording:
    @property
    def path(self) -> str: ...
    @property
    def info(self) -> Dict[str, str]:
        """The device's camera info, under librealsense's names."""
    @property
    def sensors(self) -> List[Dict[str, Any]]:
        """Each sensor: name, info, options and stream profiles."""
    @property
    def streams(self) -> List[str]:
        """The recorded streams: "Depth", "Color", "Infrared 1", ..."""
    @property
    def duration(self) -> float:
        """Seconds from the first frame to the last."""
    @property
    def is_camera_bag(self) -> bool: ...
    def extrinsics(self, source: str, target: str) -> Optional[Dict[str, List[float]]]:
        """{"rotation": 9 floats column-major, "translation": 3 floats, m}."""
    def controls(
        self, start: Optional[float] = None, end: Optional[float] = None
    ) -> List[Dict[str, Any]]:
        """Option changes and notifications from `start` to `end` seconds
        after the first frame, in time order: {"time" (s since the first
        frame), "sensor", "kind": "option", "name", "value"} or {"time",
        "sensor", "kind": "notification", "category", "severity",
        "description", "timestamp" (ms since the Unix epoch),
        "serialized_data"}."""
    def frame_count(self, stream: str) -> int: ...
    def frame(self, stream: str, index: int) -> Frame:
        """Frame `index` (from 0, in recorded order) of `stream`."""
    def frames(
        self,
        streams: Optional[Sequence[str]] = None,
        start: Optional[float] = None,
        end: Optional[float] = None,
        duration: Optional[float] = None,
        filters: Optional[Iterable[object]] = None,
    ) -> FrameIterator:
        """Every frame of `streams` from `start` to `end` seconds after the
        first frame (or `duration` seconds from `start`, as the command
        line's --start/--duration), in recorded order; nothing is dropped."""

    def columns(
        self,
        stream: str,
        start: Optional[float] = None,
        end: Optional[float] = None,
        duration: Optional[float] = None,
    ) -> Dict[str, Any]:
        """Every frame of `stream` from `start` to `end` seconds as numpy
        arrays in one call: "index", "frame_number" (uint64), "timestamp",
        "system_time" (ms), "time" (s) (float64), "domain" (uint8,
        rs2_timestamp_domain), "metadata" (int64 arrays by name, numpy.ma
        masked where a frame has none) and "data" (an IMU stream's samples:
        Nx3 float32 or Nx10 float64 for COMBINED_MOTION; None otherwise)."""

    def framesets(
        self,
        streams: Optional[Sequence[str]] = None,
        start: Optional[float] = None,
        end: Optional[float] = None,
        duration: Optional[float] = None,
    ) -> FrameSetIterator:
        """Frames of one moment grouped as librealsense's pipeline groups
        them; every frame in exactly one frameset."""
    def frame_by_number(self, stream: str, number: int) -> Optional[Frame]: ...
    def alignment(self, depth: str, other: str) -> Alignment:
        """How depth aligns with `other` (rs.align), from the recording."""
    def pointcloud(self, depth: str = "Depth", map_to: Optional[str] = None) -> PointCloud:
        """Point clouds of `depth` (rs.pointcloud), mapped to `map_to`."""
    def depth_units(self, depth: str = "Depth") -> float:
        """Metres per raw depth unit (0.001 when none was recorded)."""
    def depth_metres(self, frame: Frame) -> np.ndarray:
        """HxW float32 metres of a Z16 frame (get_distance's values)."""
    def frame_at(self, stream: str, time: float) -> Optional[Frame]:
        """The frame nearest `time` seconds after the first frame."""

def open_session(
    paths: Sequence[Union[str, os.PathLike[str]]],
    offsets: Optional[Dict[Union[str, os.PathLike[str]], float]] = None,
    clock: Optional[str] = None,
) -> Session:
    """Open recordings (one per camera, any mix of .bag, .db3 and camera
    bags) as one session on the best clock they all share. `offsets` maps
    a file, as given in `paths`, to seconds added to its times; `clock`
    ("global", "arrival" or "start") chooses the clock."""

@final
class Session:
    @property
    def paths(self) -> List[str]: ...
    @property
    def clock(self) -> str:
        """"global time", "arrival time" or "recording start"."""
    @property
    def verdict(self) -> Dict[str, Any]:
        """Whether the recordings are one session (every camera recording
        at once on a clock they share): {"one_session", "reason"}."""
    @property
    def cameras(self) -> List[Dict[str, Any]]:
        """Each camera: file, serial, name, namespace (the ROS namespace
        of one of several cameras of a camera bag, else None), offset (s),
        streams."""
    @property
    def streams(self) -> List[str]:
        """The streams any recording has: "Depth", "Color", ..."""
    @property
    def duration(self) -> float:
        """Seconds from the session's first frame to its last."""
    def frame_count(self, stream: str) -> int:
        """Frames of `stream` in all the files."""
    @property
    def recordings(self) -> List[Recording]:
        """Each camera's recording, in the order given: the whole API of a
        recording opened alone, on the file's own times."""
    def recording(self, camera: str) -> Recording:
        """The recording of `camera`: its name in the session or its file,
        as given (KeyError otherwise)."""
    def frames(
        self,
        streams: Optional[Sequence[str]] = None,
        start: Optional[float] = None,
        end: Optional[float] = None,
        duration: Optional[float] = None,
        filters: Optional[Iterable[object]] = None,
    ) -> SessionFrameIterator:
        """Every frame of every file in time order on the session's clock,
        from `start` to `end` seconds after the session's first frame;
        with `filters`, each camera's depth frames through a chain of its
        own."""
    def framesets(
        self,
        streams: Optional[Sequence[str]] = None,
        tolerance_ms: float = 10.0,
        start: Optional[float] = None,
        end: Optional[float] = None,
        duration: Optional[float] = None,
        filters: Optional[Iterable[object]] = None,
    ) -> SessionFrameSetIterator:
        """Frames of all cameras grouped by moment: each frame of the first
        camera's first chosen stream makes a set; another camera's frame
        joins it when each is the other's nearest, within `tolerance_ms`;
        with `filters`, each camera's depth frames through a chain of its
        own, every frame in recorded order."""
    def sync_report(self, tolerance_ms: Optional[float] = None) -> Dict[str, Any]:
        """How well the cameras keep together, pair by pair: {"clock",
        "tolerance_ms", "pairs": [{"cameras", "streams", "overlap_s",
        "offset_ms", "drift_ppm", "drift_ppm_error" (its standard error),
        "clock_domains", "frames", "without_partner", "gaps":
        [{"camera", "from_s", "to_s"}]}], "read_errors", "verdict":
        {"one_session", "reason"}}; times in seconds from the session's
        first frame (no pairs when the recordings are not one session)."""

@final
class SessionFrame:
    @property
    def frame(self) -> Frame: ...
    @property
    def file(self) -> str: ...
    @property
    def serial(self) -> str:
        """The camera's serial number (the file's name where there is none)."""
    @property
    def name(self) -> str:
        """The camera's name in the session (the serial, made unique)."""
    @property
    def time_ms(self) -> float:
        """Milliseconds on the session's clock, the file's offset included."""

@final
class SessionFrameIterator(Iterator[SessionFrame]):
    def __iter__(self) -> SessionFrameIterator: ...
    def __next__(self) -> SessionFrame: ...

@final
class SessionFrameSet:
    @property
    def time_ms(self) -> float:
        """The reference frame's time on the session's clock, ms."""
    @property
    def frames(self) -> List[SessionFrame]:
        """The set's frames, the reference first."""
    def get(self, camera: str, stream: Optional[str] = None) -> Optional[Frame]:
        """The frame of `camera` (name or serial) and `stream`, or None."""
    def __len__(self) -> int: ...

@final
class SessionFrameSetIterator(Iterator[SessionFrameSet]):
    def __iter__(self) -> SessionFrameSetIterator: ...
    def __next__(self) -> SessionFrameSet: ...
    @property
    def unmatched(self) -> int:
        """Frames of other cameras that joined no set, so far."""

@final
class FrameSetIterator(Iterator[FrameSet]):
    def __iter__(self) -> FrameSetIterator: ...
    def __next__(self) -> FrameSet: ...

@final
class FrameSet:
    """Frames of one moment, as pyrealsense2's composite_frame: iterable,
    len(), indexed by position (`frames[0]`, `frames[-1]`, slices) or by
    stream name (`frames["Depth"]`, any case: the first frame of that
    stream; KeyError naming the streams there are). The getters return
    None for a stream the frameset lacks (pyrealsense2: an empty frame)."""
    @property
    def timestamp(self) -> float:
        """Milliseconds: the timestamp of the frame that opened the set."""
    @property
    def frames(self) -> List[Frame]: ...
    def get(self, name: str) -> Optional[Frame]:
        """The first frame of stream `name` (any case), or None."""
    def size(self) -> int: ...
    def get_depth_frame(self) -> Optional[Frame]: ...
    def get_color_frame(self) -> Optional[Frame]:
        """The first Color frame, else an RGB8 infrared frame, else None."""
    def get_infrared_frame(self, index: int = 0) -> Optional[Frame]:
        """The infrared frame of stream index `index` (0: the first), or None."""
    def get_fisheye_frame(self, index: int = 0) -> Optional[Frame]: ...
    def get_pose_frame(self, index: int = 0) -> Optional[Frame]: ...
    def __len__(self) -> int: ...
    def __iter__(self) -> Iterator[Frame]: ...
    @overload
    def __getitem__(self, key: SupportsIndex) -> Frame: ...
    @overload
    def __getitem__(self, key: str) -> Frame: ...
    @overload
    def __getitem__(self, key: slice) -> List[Frame]: ...
    def __contains__(self, item: object) -> bool:
        """A stream name (any case), or a frame."""

@final
class FrameIterator(Iterator[Frame]):
    def __iter__(self) -> FrameIterator: ...
    def __next__(self) -> Frame: ...

@final
class Frame:
    @property
    def stream(self) -> str:
        """librealsense's stream type name: "Depth", "Color", "Infrared", ..."""
    @property
    def stream_index(self) -> int: ...
    @property
    def stream_name(self) -> str: ...
    @property
    def unique_id(self) -> int:
        """librealsense's id of the stream profile the frame is of."""
    @property
    def frame_number(self) -> int: ...
    @property
    def index(self) -> Optional[int]:
        """Position in its stream from 0; None for a frame a playback delivered."""
    @property
    def timestamp(self) -> float:
        """Milliseconds, in `domain`."""
    @property
    def domain(self) -> str:
        """"Hardware Clock", "System Time" or "Global Time"."""
    @property
    def system_time(self) -> float: ...
    @property
    def time(self) -> Optional[float]:
        """Seconds since the recording's first frame; None for a frame a
        playback delivered."""
    @property
    def format(self) -> str: ...
    @property
    def size(self) -> Optional[Tuple[int, int]]: ...
    @property
    def stride(self) -> int: ...
    @property
    def profile(self) -> Dict[str, Any]:
        """The stream profile (as `Recording.sensors` gives profiles); a
        filtered or aligned frame's is the output's."""
    @property
    def depth_units(self) -> Optional[float]:
        """Metres per raw depth unit, for a depth frame read from a
        recording or a pipeline; else None."""
    @property
    def metadata(self) -> Dict[str, int]: ...
    def get_data(self) -> bytes:
        """The frame's bytes, as pyrealsense2's frame.get_data() holds them."""
    def as_array(self) -> np.ndarray:
        """A read-only numpy view of the frame (no copy when aligned)."""

@final
class Writer:
    """A recording written from frames given in Python (numpy arrays or
    bytes): a .bag librealsense 2.55 plays, or (path ending .db3) a .db3
    librealsense 2.59 plays. Written as NAME.partial, renamed on close."""
    def __new__(
        cls,
        path: Union[str, os.PathLike[str]],
        info: Optional[Dict[str, str]] = None,
        overwrite: bool = False,
    ) -> Writer: ...
    def add_video_stream(
        self,
        stream: str,
        format: str,
        width: int,
        height: int,
        fps: int,
        sensor: str = "Camera",
        index: int = 0,
        intrinsics: Optional[Dict[str, Any]] = None,
        depth_units: Optional[float] = None,
        extrinsics: Optional[Dict[str, Sequence[float]]] = None,
    ) -> str:
        """A video stream; returns its name for `write` ("Infrared 1").
        `extrinsics`: {"rotation": 9 floats column-major, "translation": 3
        floats, m} from the first stream added (identity when None)."""
    def add_motion_stream(
        self,
        stream: str,
        fps: int,
        sensor: str = "Motion Module",
        index: int = 0,
        data: Optional[Sequence[Sequence[float]]] = None,
        noise_variances: Optional[Sequence[float]] = None,
        bias_variances: Optional[Sequence[float]] = None,
        extrinsics: Optional[Dict[str, Sequence[float]]] = None,
    ) -> str:
        """A Gyro or Accel stream (MOTION_XYZ32F samples)."""
    def add_option(
        self,
        sensor: str,
        name: str,
        value: float,
        min: Optional[float] = None,
        max: Optional[float] = None,
        step: float = 0.0,
        default: Optional[float] = None,
        description: str = "",
        read_only: bool = False,
    ) -> None:
        """Add (or set) option `name` of `sensor` as it is when recording starts."""
    def write(
        self,
        stream: str,
        data: Union[np.ndarray, bytes, Sequence[float]],
        timestamp: float,
        frame_number: int,
        domain: str = "Hardware Clock",
        metadata: Optional[Dict[str, int]] = None,
        time: Optional[float] = None,
        system_time: Optional[float] = None,
    ) -> None:
        """`data`: a numpy array of the stream's format (Z16: uint16 (h, w);
        RGB8/BGR8: uint8 (h, w, 3); Y8: uint8 (h, w); an IMU sample:
        float32 (3,) or 3 floats; as `Frame.as_array` gives it) or bytes
        of the frame's size. `timestamp` and `system_time` in ms; `time`
        in s since the recording started."""
    def set_option(
        self, sensor: str, name: str, value: float, time: Optional[float] = None
    ) -> None:
        """Record an option change `time` s after the start (default: at the
        last frame written); before the first frame, set the starting value."""
    def close(self) -> int: ...
    def abandon(self) -> None: ...
    def __enter__(self) -> Writer: ...
    def __exit__(
        self,
        error: Optional[Type[BaseException]],
        _value: Optional[BaseException],
        _traceback: Optional[TracebackType],
    ) -> bool: ...

def _stop_all() -> None:
    """Stop every live playback (registered with atexit)."""

@final
class Playback:
    """A recording played back as the device that recorded it. Callbacks
    run on the library's delivery threads (one per stream) and hold the GIL
    only while they run; every control may be called from any thread,
    also from a callback. Not in real time, every frame is delivered
    exactly once; in real time a frame a slow callback cannot take is
    dropped (dropped_frames)."""
    def __new__(
        cls, path: Union[str, os.PathLike[str]], real_time: bool = True, queue_size: int = 16
    ) -> Playback: ...
    @property
    def path(self) -> str: ...
    @property
    def info(self) -> Dict[str, str]: ...
    @property
    def sensors(self) -> List[PlaybackSensor]: ...
    @property
    def streams(self) -> List[str]: ...
    def start(
        self, callback: Callable[[Frame], Any], streams: Optional[Sequence[str]] = None
    ) -> None:
        """Open and start every sensor recording one of `streams` (all when None)."""
    def pause(self) -> None: ...
    def resume(self) -> None: ...
    @property
    def paused(self) -> bool: ...
    def seek(self, time: Union[float, datetime.timedelta]) -> None:
        """Continue from `time` seconds (or a timedelta) after the first frame."""
    speed: float
    real_time: bool
    repeat: bool
    @property
    def position(self) -> float: ...
    @property
    def duration(self) -> float: ...
    @property
    def status(self) -> str:
        """"playing", "paused" or "stopped"."""
    @property
    def dropped_frames(self) -> int: ...
    @property
    def read_errors(self) -> int: ...
    def take_read_errors(self) -> List[str]: ...
    def add_status_listener(self, listener: Callable[[str], Any]) -> None: ...
    def stop(self) -> None:
        """Stop; returns once no callback runs (at once from a callback).
        Chunks read from their own records, their index data damaged, met
        since the last warning are warned of (RsbagWarning), here and when
        wait_until_stopped sees playback stopped."""
    def wait_until_stopped(self, timeout: Optional[float] = None) -> bool:
        """Wait at most `timeout` seconds (None: no limit); whether it stopped."""
    def __enter__(self) -> Playback: ...
    def __exit__(self, *_exc: object) -> None: ...

@final
class PlaybackSensor:
    @property
    def name(self) -> str: ...
    @property
    def info(self) -> Dict[str, str]: ...
    @property
    def profiles(self) -> List[Dict[str, Any]]: ...
    @property
    def options(self) -> List[Dict[str, Any]]:
        """Options with their values as played so far."""
    @property
    def active_streams(self) -> List[str]: ...
    @property
    def playback(self) -> Playback: ...
    def open(self, streams: Optional[Sequence[str]] = None) -> None: ...
    def start(self, callback: Callable[[Frame], Any]) -> None: ...
    def stop(self) -> None: ...
    def close(self) -> None: ...
    def add_option_listener(self, listener: Callable[[str, float], Any]) -> None: ...
    def add_notification_listener(self, listener: Callable[[Dict[str, Any]], Any]) -> None: ...

@final
class Pipeline(Iterator[FrameSet]):
    """Framesets as pyrealsense2's pipeline gives them over a file; not in
    real time (the default) every frame is in exactly one frameset.
    Iterating ends at the end of the recording."""
    def __new__(
        cls,
        path: Union[str, os.PathLike[str]],
        streams: Optional[Sequence[str]] = None,
        real_time: bool = False,
        queue_size: int = 64,
    ) -> Pipeline: ...
    @property
    def streams(self) -> List[str]: ...
    def wait_for_frames(self, timeout_ms: int = 5000) -> FrameSet:
        """Wait at most `timeout_ms` milliseconds, as pyrealsense2's: raises
        FrameTimeoutError ("Frame didn't arrive within 5000", a
        RuntimeError and a TimeoutError) after that, RecordingEndedError
        (a RuntimeError and an EOFError) at the end."""
    def try_wait_for_frames(self, timeout_ms: int = 5000) -> Tuple[bool, Optional[FrameSet]]:
        """(True, frameset), or (False, None) after `timeout_ms` ms or at the end."""
    def poll_for_frames(self) -> Optional[FrameSet]:
        """A frameset if one is ready now, else None."""
    @property
    def finished(self) -> bool: ...
    def seek(self, time: Union[float, datetime.timedelta]) -> None:
        """Continue from `time` seconds (or a timedelta) after the first frame."""
    def pause(self) -> None: ...
    def resume(self) -> None: ...
    @property
    def position(self) -> float: ...
    @property
    def duration(self) -> float:
        """Seconds from the first frame to the last."""
    @property
    def status(self) -> str:
        """"playing" or "paused" until every frameset was taken, then
        "stopped" (as librealsense's pipeline says)."""
    @property
    def paused(self) -> bool: ...
    speed: float
    @property
    def real_time(self) -> bool:
        """Played at the recorded pace (may change while playing)."""
    @real_time.setter
    def real_time(self, real_time: bool) -> None: ...
    def stop(self) -> None:
        """Stop; framesets not yet taken are discarded. Chunks read from
        their own records, their index data damaged, met since the last
        warning are warned of (RsbagWarning), here and at the end of the
        recording."""
    def __iter__(self) -> Pipeline: ...
    def __next__(self) -> FrameSet: ...
    def __enter__(self) -> Pipeline: ...
    def __exit__(self, *_exc: object) -> None: ...

@final
class LiveContext:
    """librealsense loaded (`library`, else RSBAG_LIBREALSENSE's, else the
    system's librealsense2) and its context: the cameras connected."""
    def __new__(cls, library: Optional[Union[str, os.PathLike[str]]] = None) -> LiveContext: ...
    @property
    def library_version(self) -> str: ...
    def simulate(self, path: Union[str, os.PathLike[str]]) -> None:
        """Add the recording `path` as a connected device, played by
        librealsense, for as long as this context lives."""
    def devices(self) -> List[LiveDevice]:
        """Every device connected, in librealsense's order."""

@final
class LiveDevice:
    """A device of a LiveContext, described as a Recording describes its
    device."""
    @property
    def info(self) -> Dict[str, str]: ...
    @property
    def sensors(self) -> List[Dict[str, Any]]:
        """Each sensor: name, info, options and every profile offered."""
    def extrinsics(self, source: str, target: str) -> Optional[Dict[str, List[float]]]: ...
    def depth_units(self, depth: str = "Depth") -> float: ...
    def alignment(self, depth: str, other: str) -> Alignment: ...
    def pointcloud(self, depth: str = "Depth", map_to: Optional[str] = None) -> PointCloud: ...
    def start(self, unique_ids: Sequence[int], queue_size: int = 64) -> LiveStream:
        """Stream the profiles with these librealsense ids, grouped into
        framesets; at most `queue_size` frames wait (more are dropped)."""

@final
class LiveStream:
    """A device's streams started, grouped into framesets."""
    def try_wait_for_frames(self, timeout_ms: int = 5000) -> Tuple[bool, Optional[FrameSet]]:
        """(True, frameset), or (False, None) after `timeout_ms` ms or once stopped."""
    def poll_for_frames(self) -> Optional[FrameSet]: ...
    @property
    def finished(self) -> bool:
        """Whether stop() was called."""
    @property
    def profiles(self) -> List[Dict[str, Any]]: ...
    @property
    def delivered_frames(self) -> int:
        """Frames librealsense handed over since the start."""
    @property
    def dropped_frames(self) -> int:
        """Frames dropped because the queue was full."""
    def stop(self) -> None:
        """Stop streaming; every wait wakes."""

@final
class Alignment:
    """rs.align's result from recorded frames, byte for byte."""
    def depth_to_other(self, depth: Frame) -> np.ndarray:
        """HxW uint16 raw depth of the other image's size."""
    def other_to_depth(self, depth: Frame, other: Frame) -> np.ndarray:
        """The other frame at the depth image's size, shaped by its format."""

@final
class Filter:
    """One librealsense depth filter, or the colorizer (`rsbag.filters` makes these)."""

    def __new__(cls, name: str, **options: float) -> Filter: ...
    @property
    def name(self) -> str: ...
    @property
    def options(self) -> Dict[str, float]: ...
    def process(self, frame: Frame) -> Frame:
        """`frame` filtered."""

@final
class PointCloud:
    """rs.pointcloud's vertices and texture coordinates."""
    def calculate(self, depth: Frame) -> Tuple[np.ndarray, Optional[np.ndarray]]:
        """(Nx3 float32 vertices, Nx2 float32 texture coordinates or None)."""
    @staticmethod
    def colors(texture_coordinates: np.ndarray, frame: Frame) -> np.ndarray:
        """Nx3 uint8 RGB, as points.export_to_ply colours vertices."""

def deproject(intrinsics: Dict[str, Any], pixel: Tuple[float, float], depth: float) -> Tuple[float, float, float]:
    """rs2_deproject_pixel_to_point."""

def project(intrinsics: Dict[str, Any], point: Tuple[float, float, float]) -> Tuple[float, float]:
    """rs2_project_point_to_pixel."""
