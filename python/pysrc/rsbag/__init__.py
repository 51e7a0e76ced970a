"""rsbag: RealSense recordings (.bag, .db3) and camera bags recorded from
ROS, read as Python objects and numpy arrays.

    import rsbag
    recording = rsbag.open("session.bag")
    for frame in recording.frames(streams=["Depth"]):
        depth = frame.as_array()        # HxW uint16, no copy
        print(frame.frame_number, frame.timestamp, depth[240, 320])

Playback as a device (callbacks on delivery threads, pause/seek/speed) is
`rsbag.Playback`; framesets to wait for, as pyrealsense2's pipeline gives
them, `rsbag.Pipeline`.
"""

import atexit

from ._rsbag import (
    Alignment,
    DamagedError,
    Error,
    Frame,
    FrameIterator,
    FrameSet,
    FrameSetIterator,
    InvalidArgumentError,
    IoError,
    NotABagError,
    NotARecordingError,
    Pipeline,
    Playback,
    PlaybackSensor,
    PointCloud,
    Recording,
    ThreadError,
    UnsupportedError,
    Writer,
    _stop_all,
    check,
    deproject,
    info,
    open,
    project,
)

__all__ = [
    "Alignment",
    "DamagedError",
    "Error",
    "Frame",
    "FrameIterator",
    "FrameSet",
    "FrameSetIterator",
    "InvalidArgumentError",
    "IoError",
    "NotABagError",
    "NotARecordingError",
    "Pipeline",
    "Playback",
    "PlaybackSensor",
    "PointCloud",
    "Recording",
    "ThreadError",
    "UnsupportedError",
    "Writer",
    "check",
    "deproject",
    "info",
    "open",
    "project",
]

# A playback's delivery threads must not call into an interpreter that is
# shutting down: stop them first.
atexit.register(_stop_all)
