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

`filters.Colorizer(...)` ends a chain: it makes librealsense's RGB8
picture of the depth (`as_array()`: height x width x 3 uint8). Or one
filter at a time: `filters.Spatial(alpha=0.6).process(frame)`
returns the filtered frame (the temporal filter remembers the frames it
processed, in the order given). A value out of librealsense's range raises
`rsbag.InvalidArgumentError` naming the filter, the option and its range.
"""

from typing import Dict, Optional

from ._rsbag import Filter, Frame

__all__ = [
    "Colorizer",
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


class Colorizer(DepthFilter):
    """`rs.colorizer`: depth (or disparity) as librealsense's RGB8 picture,
    the last of a chain. `color_scheme` 0-9 (0 Jet, 1 Classic, 2 White to
    Black, 3 Black to White, 4 Bio, 5 Cold, 6 Warm, 7 Quantized, 8 Pattern,
    9 Hue); with `histogram_equalization` (the default) a depth's colour is
    its rank in the frame, else its place between `min` and `max` metres
    (0-16). `visual_preset` 0-3 sets the others (0 dynamic, 1 fixed 0-6 m,
    2 near 0.3-1.5 m, 3 far 1-16 m). Options are set as librealsense's
    `set_option` would be, in this order: the preset, the scheme, `min`,
    `max` (either turns equalization off), then equalization; options
    left at None keep librealsense's defaults."""

    def __init__(
        self,
        color_scheme: Optional[int] = None,
        histogram_equalization: Optional[bool] = None,
        min: Optional[float] = None,
        max: Optional[float] = None,
        visual_preset: Optional[int] = None,
    ) -> None:
        given = [
            ("visual_preset", visual_preset),
            ("color_scheme", color_scheme),
            ("min", min),
            ("max", max),
            ("histogram_equalization", histogram_equalization),
        ]
        super().__init__(
            "colorizer", **{key: float(value) for key, value in given if value is not None}
        )

    def process(self, frame: Frame) -> Frame:
        """`frame` (Z16 depth or DISPARITY32) colorized: an RGB8 frame of
        the same size."""
        return self._inner.process(frame)
