"""Many recordings, many cores or machines: split recordings into
independent work items and process them with Dask.

    import rsbag.parallel

    items = rsbag.parallel.work_items(["a.bag", "b.db3"], seconds=10)
    depth_means = rsbag.parallel.map_frames(
        items, lambda frame: float(frame.as_array().mean()), streams=["Depth"])
    print(depth_means.compute())   # a dask.bag; .compute() runs it

A work item is a plain dict, `{"path", "streams", "start", "end"}` (seconds
from the recording's first frame; `end` None for the last), so it pickles
to any worker, which opens the file itself: a recording is read where it
is processed, and no frame crosses a process unless the function returns
it. The items of one recording cover it without overlap (time windows are
half-open), so the results are those of a single-process loop over the
same files, in the same order.

Why Dask: `dask.bag` is plain Python installed with pip, runs the same
code on threads, on local processes or on a cluster (`dask.distributed`)
by choice of scheduler, and needs no server for a laptop; Ray Data would
add a runtime of its own for the same work.
"""

# Imported under private names: stubtest takes this module's public names
# for its API.
import os as _os
import typing as _t

from . import _rsbag
from ._rsbag import open as _open

# A work item: {"path", "streams", "start", "end"} (see the module's doc).
_WorkItem = _t.Dict[str, _t.Any]
_Streams = _t.Optional[_t.Sequence[str]]
_T = _t.TypeVar("_T")


def work_items(paths: _t.Iterable[_t.Union[str, "_os.PathLike[str]"]],
               streams: _Streams = None,
               seconds: _t.Optional[float] = None) -> _t.List[_WorkItem]:
    """Split recordings into work items: one per file, or per `seconds` of
    recording time when given. `streams` (names, all when None) is kept in
    each item."""
    items: _t.List[_WorkItem] = []
    for source in paths:
        path = str(source)
        duration = _open(path).duration
        if not seconds or seconds <= 0:
            items.append({"path": path, "streams": streams, "start": 0.0, "end": None})
            continue
        start = 0.0
        while True:
            end = start + seconds
            last = end > duration
            items.append({"path": path, "streams": streams, "start": start,
                          "end": None if last else end})
            if last:
                break
            start = end
    return items


def read_item(item: _WorkItem, streams: _Streams = None) -> _rsbag.FrameIterator:
    """The frames of a work item, in recorded order (`streams` narrows the
    item's streams)."""
    chosen = streams if streams is not None else item["streams"]
    recording = _open(item["path"])
    return recording.frames(streams=chosen, start=item["start"], end=item["end"])


def map_frames(items: _t.Sequence[_WorkItem], fn: _t.Callable[[_rsbag.Frame], _T],
               streams: _Streams = None) -> _t.Any:
    """A `dask.bag` of `fn(frame)` for every frame of the work items, in
    item order (one partition per item). Needs Dask: `pip install
    rsbag[dask]`."""
    try:
        import dask.bag
    except ImportError as e:
        raise ImportError(
            "rsbag.parallel.map_frames runs on Dask, which is not installed: "
            "pip install rsbag[dask] (or pip install dask)", name=e.name) from e

    def run(partition: _t.Sequence[_WorkItem]) -> _t.List[_T]:
        return [fn(frame) for item in partition for frame in read_item(item, streams)]

    bag = dask.bag.from_sequence(items, partition_size=1)  # type: ignore[no-untyped-call]
    return bag.map_partitions(run)
