"""Writing bytes the fastest ways a file can be written here: the floors
the conversion benchmarks measure their outputs against."""

import mmap
import os
import time


def write_floor(path, size, direct=False):
    """Seconds to write `size` bytes to a new file, 4 MB at a time, the
    file removed afterwards. Through the page cache, not synced (`direct`
    False): the page cache's speed this round. Straight to the disk
    (`direct`: O_DIRECT from one buffer, the size rounded up to 4 KiB),
    synced as it goes: the disk's speed, the least time in which any
    converter can put this output on the disk."""
    block = mmap.mmap(-1, 4 << 20)  # page-aligned, as O_DIRECT needs
    block.write(b"\x5a" * len(block))
    if direct:
        size = -(-size // 4096) * 4096
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | (os.O_DIRECT if direct else 0)
    os.sync()
    start = time.perf_counter()
    fd = os.open(path, flags)
    try:
        for _ in range(size // len(block)):
            os.write(fd, block)
        if size % len(block):
            os.write(fd, memoryview(block)[: size % len(block)])
    finally:
        os.close(fd)
    elapsed = time.perf_counter() - start
    path.unlink()
    return elapsed
