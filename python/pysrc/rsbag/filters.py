"""librealsense's depth post-processing filters, computed as librealsense
2.55 computes them, bit for bit, with its option names, ranges and
defaults:

    import rsbag
    from rsbag import filters
    recording = rsbag.open("session.bag")
    chain = [filters.Decimation(magnitude=2), filters.DepthToDisparity(),
             filters.Spatial(alpha=0.6, delta=8), filters.Temporal(),
             filters.DisparityToDepth(), filters.HoleFilling(mode=2)]
    for frame in recording.frames(streams=["Depth"], filters=chain):
        depth = frame.as_array()        # decimated, filtered, uint16

or one filter at a time: `filters.Spatial(alpha=0.6).process(frame)`
returns the filtered frame (the temporal filter remembers the frames it
processed, in the order given). A value out of librealsense's range raises
`rsbag.InvalidArgumentError` naming the filter, the option and its range.
"""

from typing import Dict

from ._rsbag import Filter, Frame

__all__ = [
    "Decimation",
    "DepthFilter",
    "DepthToDisparity",
    "DisparityToDepth",
    "Filter",
    "HoleFilling",
    "Spatial",
    "Temporal",
    "Threshold",
]


class DepthFilter:
    """A librealsense depth filter; `process(frame)` filters one frame."""

    _inner: Filter

    def __init__(self, name: str, **options: float) -> None:
        self._inner = Filter(name, **options)

    @property
    def name(self) -> str:
        """The filter's name (`spatial`, `hole-filling`...)."""
        return self._inner.name

    @property
    def options(self) -> Dict[str, float]:
        """Every option's value, given or default."""
        return self._inner.options

    def process(self, frame: Frame) -> Frame:
        """`frame` filtered: a new frame (Z16 depth, or DISPARITY32 after
        `DepthToDisparity`), with the output's size and intrinsics."""
        return self._inner.process(frame)

    def __repr__(self) -> str:
        return repr(self._inner)


class Decimation(DepthFilter):
    """`rs.decimation_filter`: `magnitude` (1-8) x `magnitude` blocks
    become one pixel (median of the non-zero depths for 2 and 3, mean from
    4), the size padded to a multiple of 4."""

    def __init__(self, magnitude: int = 2) -> None:
        super().__init__("decimation", magnitude=magnitude)


class Threshold(DepthFilter):
    """`rs.threshold_filter`: depths outside `min`..`max` metres (0-16)
    become 0."""

    def __init__(self, min: float = 0.15, max: float = 4.0) -> None:
        super().__init__("threshold", min=min, max=max)


class DepthToDisparity(DepthFilter):
    """`rs.disparity_transform(True)`: depth to disparity (float32)."""

    def __init__(self) -> None:
        super().__init__("depth-to-disparity")


class DisparityToDepth(DepthFilter):
    """`rs.disparity_transform(False)`: disparity back to Z16 depth."""

    def __init__(self) -> None:
        super().__init__("disparity-to-depth")


class Spatial(DepthFilter):
    """`rs.spatial_filter`: edge-preserving smoothing. `alpha` 0.25-1,
    `delta` 1-50, `magnitude` (iterations) 1-5, `holes_fill` 0-5
    (accepted, and as in librealsense 2.55 not applied)."""

    def __init__(
        self, alpha: float = 0.5, delta: int = 20, magnitude: int = 2, holes_fill: int = 0
    ) -> None:
        super().__init__(
            "spatial", alpha=alpha, delta=delta, magnitude=magnitude, holes_fill=holes_fill
        )


class Temporal(DepthFilter):
    """`rs.temporal_filter`: averaging with the last frames. `alpha` 0-1,
    `delta` 1-100, `persistence` 0-8 (when a hole keeps the last value)."""

    def __init__(self, alpha: float = 0.4, delta: int = 20, persistence: int = 3) -> None:
        super().__init__("temporal", alpha=alpha, delta=delta, persistence=persistence)


class HoleFilling(DepthFilter):
    """`rs.hole_filling_filter`: `mode` 0 fill from the left, 1 farthest
    neighbour, 2 nearest neighbour."""

    def __init__(self, mode: int = 1) -> None:
        super().__init__("hole-filling", mode=mode)
