"""rsbag: RealSense recordings (.bag, .db3) and camera bags recorded from
ROS, read as Python objects and numpy arrays.

    import rsbag
    recording = rsbag.open("session.bag")
    for frame in recording.frames(streams=["Depth"]):
        depth = frame.as_array()        # HxW uint16, no copy
        print(frame.frame_number, frame.timestamp, depth[240, 320])
"""

from ._rsbag import (
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
    Recording,
    ThreadError,
    UnsupportedError,
    Writer,
    check,
    info,
    open,
)

__all__ = [
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
    "Recording",
    "ThreadError",
    "UnsupportedError",
    "Writer",
    "check",
    "info",
    "open",
]
