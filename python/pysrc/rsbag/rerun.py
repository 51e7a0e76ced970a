"""Recordings and sessions opened in Rerun (https://rerun.io): `pip
install rsbag[rerun]`.

    import rerun as rr
    import rsbag, rsbag.rerun

    rr.init("rsbag", spawn=True)              # or rr.save("out.rrd")
    rsbag.rerun.log(rsbag.open("session.bag"), pointcloud=True)

or from the command line, `python -m rsbag.rerun FILE... [--save
out.rrd | --spawn]` (several files are one session).

What is logged, under `/CAMERA` (the serial number, or the file's name;
a session's camera name): each video stream `S` (`depth`, `color`,
`infrared_1`...) as `/CAMERA/S` with a `Transform3D` from the recorded
extrinsics to the first video stream (depth where there is one), and
`/CAMERA/S/image` with its `Pinhole` (intrinsics, RDF) and the frames
(`DepthImage` with meter = 1 / depth units, or `Image`); with
`pointcloud`, `/CAMERA/depth/points`, rsbag's point cloud (`Points3D`,
coloured from the colour stream or else by depth); IMU samples as
`Scalars` `/CAMERA/gyro/x` ... `/CAMERA/accel/z`; pose streams as a
`Transform3D` of `/CAMERA/pose` and its trajectory (`LineStrips3D`,
`/CAMERA/pose_trajectory`);
option changes and notifications as a `TextLog`, `/CAMERA/events`.

Timelines: `timestamp`, the frame's timestamp (a session's: its clock),
a Rerun timestamp where the clock is the Unix epoch's (System or Global
Time), a duration otherwise (a camera's Hardware Clock); `time`, seconds
from the first frame (a session's first frame); `frame_number`, each
stream's frame numbers. Frames go to Rerun a batch at a time
(`rerun.send_columns`).
"""

from __future__ import annotations

import argparse
import os
import sys
import warnings
import collections.abc as _abc
import typing as _t
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Tuple, Union

import numpy as np
import pyarrow as pa

try:
    import rerun as rr
except ImportError:  # the Rerun SDK's own error follows as the cause
    raise ImportError("rsbag.rerun needs the Rerun SDK: pip install rsbag[rerun] (rerun-sdk)")

from ._rsbag import DamagedError, Error, Frame, Recording, Session, open, open_session

__all__ = ["log", "main"]

# A stream's frames are sent once this many bytes, or frames, wait.
BATCH_BYTES = 64 << 20
BATCH_FRAMES = 2048

# Image formats Rerun shows as they are: (color model or pixel format,
# channel datatype).
_IMAGE_FORMATS: Dict[str, Tuple[_t.Any, _t.Any]] = {
    "RGB8": (rr.ColorModel.RGB, rr.ChannelDatatype.U8),
    "BGR8": (rr.ColorModel.BGR, rr.ChannelDatatype.U8),
    "RGBA8": (rr.ColorModel.RGBA, rr.ChannelDatatype.U8),
    "BGRA8": (rr.ColorModel.BGRA, rr.ChannelDatatype.U8),
    "Y8": (rr.ColorModel.L, rr.ChannelDatatype.U8),
    "Y16": (rr.ColorModel.L, rr.ChannelDatatype.U16),
    "YUYV": (rr.PixelFormat.YUY2, None),
}
_AXES = ("x", "y", "z")
# rs2_pose, as rsbag's Frame.as_array gives its 84 bytes.
_POSE = np.dtype([("translation", "<f4", 3), ("velocity", "<f4", 3),
                  ("acceleration", "<f4", 3), ("rotation", "<f4", 4),
                  ("angular_velocity", "<f4", 3), ("angular_acceleration", "<f4", 3),
                  ("tracker_confidence", "<u4"), ("mapper_confidence", "<u4")])
_LEVELS = {"Info": "INFO", "Warn": "WARN", "Error": "ERROR", "Fatal": "CRITICAL"}


def entity_name(stream: str) -> str:
    """A stream's entity name: "Infrared 1" is "infrared_1"."""
    return stream.lower().replace(" ", "_")


@dataclass
class _Batch:
    """Frames of one stream waiting to be sent."""

    timestamps: List[float] = field(default_factory=list)
    times: List[float] = field(default_factory=list)
    numbers: List[int] = field(default_factory=list)
    arrays: List[np.ndarray] = field(default_factory=list)
    depth: List[Frame] = field(default_factory=list)
    nbytes: int = 0


@dataclass
class _Camera:
    """One camera's recording and what has been logged of it."""

    name: str
    recording: Recording
    reference: Optional[str]
    color: Optional[str]
    pointcloud: bool
    # The camera's first frame read: (its time in its file, its time on
    # the `time` timeline), to place option changes and notifications.
    first: Optional[Tuple[float, float]] = None
    ready: Dict[str, Optional[str]] = field(default_factory=dict)
    trajectories: Dict[str, List[np.ndarray]] = field(default_factory=dict)


class _Logger:
    """Frames in, batches of columns out to the current Rerun recording."""

    def __init__(self, cameras: List[_Camera], epoch: bool) -> None:
        self.cameras = {camera.name: camera for camera in cameras}
        self.epoch = epoch
        self.batches: Dict[Tuple[str, str], _Batch] = {}

    def add(self, camera: _Camera, frame: Frame, timestamp: float, time: float) -> None:
        stream = frame.stream_name
        if camera.first is None:
            camera.first = (frame.time or 0.0, time)
        if stream not in camera.ready:
            camera.ready[stream] = self.describe(camera, frame)
        kind = camera.ready[stream]
        if kind is None:
            return
        batch = self.batches.setdefault((camera.name, stream), _Batch())
        array = frame.as_array()
        if kind == "pose" and array.nbytes < _POSE.itemsize:
            raise DamagedError(f"{camera.recording.path}: {stream} frame {frame.frame_number} "
                               f"holds {array.nbytes} bytes, not a pose's {_POSE.itemsize}")
        batch.timestamps.append(timestamp)
        batch.times.append(time)
        batch.numbers.append(frame.frame_number)
        batch.arrays.append(array)
        if kind == "depth" and camera.pointcloud:
            batch.depth.append(frame)
        batch.nbytes += array.nbytes
        if batch.nbytes >= BATCH_BYTES or len(batch.numbers) >= BATCH_FRAMES:
            self.send(camera, stream)

    def finish(self) -> None:
        for name, stream in list(self.batches):
            self.send(self.cameras[name], stream)
        for camera in self.cameras.values():
            for stream, positions in camera.trajectories.items():
                if positions:
                    # Beside the pose, not under it: the path stays where it was.
                    rr.log(f"{camera.name}/{entity_name(stream)}_trajectory",
                           rr.LineStrips3D([np.concatenate(positions)]), static=True)

    def describe(self, camera: _Camera, frame: Frame) -> Optional[str]:
        """Log what does not change of `frame`'s stream (static); its kind,
        or None for a stream Rerun is not given."""
        stream, fmt = frame.stream_name, frame.format
        base = f"{camera.name}/{entity_name(stream)}"
        if frame.stream in ("Gyro", "Accel") and fmt == "MOTION_XYZ32F":
            return "imu"
        if frame.stream == "Pose" and fmt == "6DOF":
            camera.trajectories[stream] = []
            return "pose"
        if frame.size is None:
            warnings.warn(f"{camera.recording.path}: stream {stream} ({fmt}) is not "
                          "logged to Rerun: not an image, an IMU sample or a pose",
                          stacklevel=3)
            return None
        width, height = frame.size
        if fmt == "Z16":
            image: _t.Any = rr.DepthImage.from_fields(
                format=rr.components.ImageFormat(width, height,
                                                 channel_datatype=rr.ChannelDatatype.U16),
                meter=1.0 / camera.recording.depth_units(stream), colormap="turbo")
            kind = "depth"
        elif fmt in _IMAGE_FORMATS:
            model, datatype = _IMAGE_FORMATS[fmt]
            if isinstance(model, rr.PixelFormat):
                image_format = rr.components.ImageFormat(width, height, pixel_format=model)
            else:
                image_format = rr.components.ImageFormat(width, height, color_model=model,
                                                         channel_datatype=datatype)
            image = rr.Image.from_fields(format=image_format)
            kind = "image"
        else:
            warnings.warn(f"{camera.recording.path}: stream {stream} is not logged "
                          f"to Rerun: Rerun shows no {fmt} images", stacklevel=3)
            return None
        rr.log(f"{base}/image", image, static=True)
        intrinsics = _intrinsics(camera.recording, frame)
        if intrinsics is not None:
            rr.log(f"{base}/image", rr.Pinhole(
                image_from_camera=[[intrinsics["fx"], 0.0, intrinsics["ppx"]],
                                   [0.0, intrinsics["fy"], intrinsics["ppy"]],
                                   [0.0, 0.0, 1.0]],
                resolution=[width, height], camera_xyz=rr.ViewCoordinates.RDF,
                image_plane_distance=0.2), static=True)
        if camera.reference is not None:
            extrinsics = camera.recording.extrinsics(stream, camera.reference)
            if extrinsics is not None:
                rotation = np.asarray(extrinsics["rotation"], dtype=np.float32)
                rr.log(base, rr.Transform3D(
                    translation=extrinsics["translation"],
                    # librealsense's rotation is column-major.
                    mat3x3=rotation.reshape(3, 3).T), static=True)
        return kind

    def send(self, camera: _Camera, stream: str) -> None:
        batch = self.batches.pop((camera.name, stream), None)
        if batch is None or not batch.numbers:
            return
        kind = camera.ready[stream]
        base = f"{camera.name}/{entity_name(stream)}"
        stamps = _nanoseconds(batch.timestamps, 1e6)
        indexes = [
            rr.TimeColumn("timestamp", timestamp=stamps.astype("datetime64[ns]")) if self.epoch
            else rr.TimeColumn("timestamp", duration=stamps.astype("timedelta64[ns]")),
            rr.TimeColumn("time", duration=_nanoseconds(batch.times, 1e9).astype("timedelta64[ns]")),
            rr.TimeColumn("frame_number", sequence=np.asarray(batch.numbers, dtype=np.int64)),
        ]
        if kind in ("depth", "image"):
            archetype = rr.DepthImage if kind == "depth" else rr.Image
            rr.send_columns(f"{base}/image", indexes=indexes,
                            columns=archetype.columns(buffer=_blobs(batch.arrays)))
            if batch.depth:
                self.send_points(camera, stream, batch.depth, indexes)
        elif kind == "imu":
            samples = np.stack(batch.arrays).astype(np.float64)
            for axis, name in enumerate(_AXES):
                rr.send_columns(f"{base}/{name}", indexes=indexes,
                                columns=rr.Scalars.columns(scalars=samples[:, axis]))
        elif kind == "pose":
            poses = np.frombuffer(b"".join(a.tobytes()[:_POSE.itemsize] for a in batch.arrays),
                                  dtype=_POSE)
            rr.send_columns(base, indexes=indexes, columns=rr.Transform3D.columns(
                translation=poses["translation"], quaternion=poses["rotation"]))
            camera.trajectories[stream].append(poses["translation"].copy())

    def send_points(self, camera: _Camera, stream: str, frames: List[Frame],
                    indexes: List[_t.Any]) -> None:
        """rsbag's point cloud of each depth frame, coloured from the colour
        stream's nearest frame, or by depth where the recording has no
        colour stream or no extrinsics to it."""
        color = camera.color
        if color is not None and camera.recording.extrinsics(stream, color) is None:
            color = None  # nothing says where its pixels fall
        cloud = camera.recording.pointcloud(stream, map_to=color)
        positions, colors, lengths = [], [], []
        for frame in frames:
            vertices, texture = cloud.calculate(frame)
            keep = vertices[:, 2] > 0
            other = (camera.recording.frame_at(color, frame.time or 0.0)
                     if color is not None and texture is not None else None)
            if other is not None and texture is not None:
                rgb = cloud.colors(texture, other)[keep]
            else:
                rgb = _depth_colors(vertices[keep, 2])
            positions.append(vertices[keep])
            colors.append(rgb)
            lengths.append(int(keep.sum()))
        rr.send_columns(f"{camera.name}/{entity_name(stream)}/points", indexes=indexes,
                        columns=rr.Points3D.columns(
                            positions=np.concatenate(positions),
                            colors=np.concatenate(colors)).partition(lengths))

    def controls(self, camera: _Camera, start: Optional[float], end: Optional[float]) -> None:
        """The camera's option changes and notifications as text, on the
        `time` timeline (placed from the camera's first frame logged)."""
        if camera.first is None:
            return
        in_file, on_timeline = camera.first
        texts, levels, times = [], [], []
        for event in camera.recording.controls(start, end):
            if event["kind"] == "option":
                texts.append(f"{event['sensor']}: {event['name']} = {event['value']:g}")
                levels.append("INFO")
            else:
                texts.append(f"{event['sensor']}: {event['category']} "
                             f"({event['severity']}): {event['description']}")
                levels.append(_LEVELS.get(event["severity"], "INFO"))
            times.append(on_timeline + event["time"] - in_file)
        if texts:
            rr.send_columns(f"{camera.name}/events", indexes=[rr.TimeColumn(
                "time", duration=_nanoseconds(times, 1e9).astype("timedelta64[ns]"))],
                            columns=rr.TextLog.columns(text=texts, level=levels))


def _blobs(arrays: List[np.ndarray]) -> _t.Any:
    """The frames' pixels as Rerun's blobs, copied once (Rerun's own
    conversion of a numpy array copies it twice)."""
    flat = np.concatenate([np.ascontiguousarray(a).reshape(-1).view(np.uint8) for a in arrays])
    offsets = np.concatenate([[0], np.cumsum([a.nbytes for a in arrays])]).astype(np.int32)
    return rr.encodings.BlobBatch(pa.ListArray.from_arrays(
        pa.array(offsets), pa.array(flat), type=rr.encodings.BlobBatch._ARROW_DATATYPE))


def _nanoseconds(values: List[float], per_unit: float) -> np.ndarray:
    """Times in nanoseconds, rounded to the nearest (Rerun's own conversion
    of float seconds truncates)."""
    return np.round(np.asarray(values, dtype=np.float64) * per_unit).astype(np.int64)


def _intrinsics(recording: Recording, frame: Frame) -> Optional[Dict[str, _t.Any]]:
    """The intrinsics of the profile `frame` was recorded with."""
    for sensor in recording.sensors:
        for profile in sensor["profiles"]:
            if (profile["stream"] == frame.stream and profile["index"] == frame.stream_index
                    and profile["format"] == frame.format
                    and (profile.get("width"), profile.get("height")) == frame.size
                    and profile.get("intrinsics") is not None):
                found: Dict[str, _t.Any] = profile["intrinsics"]
                return found
    return None


def _depth_colors(z: np.ndarray) -> np.ndarray:
    """Nx3 uint8: near red to far blue, over the cloud's own range."""
    span = float(z.max() - z.min()) if len(z) else 0.0
    t = (z - z.min()) / span if span > 0 else np.zeros_like(z)
    return (np.stack([1.0 - t, 0.5 * np.ones_like(t), t], axis=1) * 255).astype(np.uint8)


def _streams_of(recording: Recording) -> Tuple[Optional[str], Optional[str]]:
    """The stream the others are placed from (depth, else the first
    image stream), and the colour stream, if any."""
    names = recording.streams
    images = [n for n in names
              if recording.frame_count(n) > 0 and recording.frame(n, 0).size is not None]
    reference = "Depth" if "Depth" in images else (images[0] if images else None)
    return reference, ("Color" if "Color" in images else None)


def _camera(name: str, recording: Recording, pointcloud: bool) -> _Camera:
    reference, color = _streams_of(recording)
    rr.log(name, rr.ViewCoordinates.RDF, static=True)
    return _Camera(name, recording, reference, color, pointcloud)


def log(source: Union[Recording, Session], streams: Optional[_abc.Sequence[str]] = None,
        start: Optional[float] = None, end: Optional[float] = None,
        pointcloud: bool = False) -> None:
    """Log a recording, or a session of several cameras, to the current
    Rerun recording: `streams` (all when None) from `start` to `end`
    seconds after the first frame; with `pointcloud`, also each depth
    frame's point cloud."""
    if isinstance(source, Session):
        _log_session(source, streams, start, end, pointcloud)
    else:
        _log_recording(source, streams, start, end, pointcloud)


def _log_recording(recording: Recording, streams: Optional[_abc.Sequence[str]],
                   start: Optional[float], end: Optional[float], pointcloud: bool) -> None:
    name = recording.info.get("Serial Number") or Path(recording.path).stem
    camera = _camera(name, recording, pointcloud)
    epoch = all(recording.frame(s, 0).domain != "Hardware Clock"
                for s in recording.streams if recording.frame_count(s) > 0)
    logger = _Logger([camera], epoch)
    for frame in recording.frames(streams=streams, start=start, end=end):
        logger.add(camera, frame, frame.timestamp, frame.time or 0.0)
    logger.finish()
    logger.controls(camera, start, end)


def _log_session(session: Session, streams: Optional[_abc.Sequence[str]],
                 start: Optional[float], end: Optional[float], pointcloud: bool) -> None:
    cameras = [_camera(c["name"], session.recording(c["name"]), pointcloud)
               for c in session.cameras]
    logger = _Logger(cameras, session.clock != "recording start")
    zero = next(iter(session.frames()), None)
    if zero is None:
        return
    for item in session.frames(streams=streams, start=start, end=end):
        logger.add(logger.cameras[item.name], item.frame, item.time_ms,
                   (item.time_ms - zero.time_ms) / 1e3)
    logger.finish()
    for camera in cameras:
        logger.controls(camera, None, None)


def main(argv: Optional[_abc.Sequence[str]] = None) -> int:
    """`python -m rsbag.rerun FILE... [--save out.rrd | --spawn]`."""
    parser = argparse.ArgumentParser(
        prog="python -m rsbag.rerun",
        description="Open recordings in Rerun (several files: one session).")
    parser.add_argument("files", nargs="+", metavar="FILE",
                        help="recordings (.bag, .db3, camera bags), paths or URLs")
    out = parser.add_mutually_exclusive_group()
    out.add_argument("--save", metavar="OUT.rrd", help="write an .rrd file")
    out.add_argument("--spawn", action="store_true", help="open the Rerun viewer (the default)")
    parser.add_argument("--overwrite", action="store_true", help="replace an existing --save file")
    parser.add_argument("--streams", nargs="+", metavar="STREAM", help="only these streams")
    parser.add_argument("--start", type=float, help="seconds after the first frame")
    parser.add_argument("--end", type=float, help="seconds after the first frame")
    parser.add_argument("--pointcloud", action="store_true", help="also each depth point cloud")
    args = parser.parse_args(argv)
    if args.save and os.path.exists(args.save) and not args.overwrite:
        print(f"error: {args.save} exists; --overwrite replaces it", file=sys.stderr)
        return 1
    try:
        source: Union[Recording, Session] = (open(args.files[0]) if len(args.files) == 1
                                             else open_session(args.files))
        rr.init("rsbag", spawn=not args.save)
        if args.save:
            rr.save(args.save)
        log(source, streams=args.streams, start=args.start, end=args.end,
            pointcloud=args.pointcloud)
    except Error as error:
        rr.disconnect()
        if args.save and os.path.exists(args.save):
            os.remove(args.save)  # ours, and not the whole recording
        print(f"error: {error}", file=sys.stderr)
        return 1
    rr.disconnect()
    return 0


if __name__ == "__main__":
    sys.exit(main())
