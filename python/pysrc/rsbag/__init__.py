"""rsbag: RealSense recordings (.bag, .db3) and camera bags recorded from
ROS, read as Python objects and numpy arrays.

    import rsbag
    recording = rsbag.open("session.bag")
    for frame in recording.frames(streams=["Depth"]):
        depth = frame.as_array()        # HxW uint16, no copy
        print(frame.frame_number, frame.timestamp, depth[240, 320])

The pieces of a split recording (`record --split-duration`) are one
recording: `rsbag.open(["run_0.bag", "run_1.bag", ...])`.

Several recordings, one per camera, read as one session on one timeline
are `rsbag.open_session(paths)`: `frames()` in time order on the clock
they share, `framesets(streams=..., tolerance_ms=...)` across cameras.

Playback as a device (callbacks on delivery threads, pause/seek/speed) is
`rsbag.Playback`; framesets to wait for, as pyrealsense2's pipeline gives
them, `rsbag.Pipeline`.

Units: a frame's `timestamp` and `system_time` are milliseconds (as
pyrealsense2's); `Pipeline.wait_for_frames(timeout_ms)` and
`try_wait_for_frames(timeout_ms)` take milliseconds (as pyrealsense2's);
positions in a recording (`start`, `end`, `seek`, `frame_at`, `duration`,
`position`, `Frame.time`) are seconds from its first frame, and waits
that are not pyrealsense2's (`Playback.wait_until_stopped`) seconds, as
Python's own.
"""

import atexit

from ._rsbag import (
    Alignment,
    DamagedError,
    Error,
    Filter,
    Frame,
    FrameIterator,
    FrameSet,
    FrameSetIterator,
    FrameTimeoutError,
    InvalidArgumentError,
    IoError,
    WrongFormatError,
    NotARecordingError,
    PieceFrameIterator,
    PieceFrameSetIterator,
    Pieces,
    Pipeline,
    Playback,
    PlaybackSensor,
    PointCloud,
    Recording,
    RecordingEndedError,
    RsbagWarning,
    Session,
    SessionFrame,
    SessionFrameIterator,
    SessionFrameSet,
    SessionFrameSetIterator,
    ThreadError,
    UnsupportedError,
    Writer,
    __version__,
    _stop_all,
    check,
    deproject,
    info,
    open,
    open_session,
    project,
)

from . import filters

__all__ = [
    "filters",
    "Alignment",
    "DamagedError",
    "Error",
    "Filter",
    "Frame",
    "FrameIterator",
    "FrameSet",
    "FrameSetIterator",
    "FrameTimeoutError",
    "InvalidArgumentError",
    "IoError",
    "WrongFormatError",
    "NotARecordingError",
    "PieceFrameIterator",
    "PieceFrameSetIterator",
    "Pieces",
    "Pipeline",
    "Playback",
    "PlaybackSensor",
    "PointCloud",
    "Recording",
    "RecordingEndedError",
    "RsbagWarning",
    "Session",
    "SessionFrame",
    "SessionFrameIterator",
    "SessionFrameSet",
    "SessionFrameSetIterator",
    "ThreadError",
    "UnsupportedError",
    "Writer",
    "check",
    "deproject",
    "info",
    "open",
    "open_session",
    "project",
]

# A playback's delivery threads must not call into an interpreter that is
# shutting down: stop them first.
atexit.register(_stop_all)
