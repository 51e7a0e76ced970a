#!/usr/bin/env bash
# The project's test command: install what the interop tests need (the real
# librealsense 2.55 and 2.59 through pyrealsense2, libusb, rosbags, mcap)
# while the tests compile, then run every test: `cargo test`, then the Python package's pytest suite
# (scripts/test-python.sh). Works on a fresh machine with Rust and Python;
# extra arguments go to `cargo test` alone (e.g. `scripts/test.sh --test
# playback_stress`).
#
# `scripts/test.sh --quick` is what to run between changes (about 3
# minutes once built): the library's and the tool's own tests, without the
# interop tests against librealsense and ROS, cameras simulated through
# librealsense, the killed-process tests, the servers, the browser, the
# guide's examples, the doc tests and Python. It installs nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = "--quick" ]; then
    exec cargo test -p rsbag -p rsbag-cli --lib --bins --test library --test cli -- \
        --skip interop --skip librealsense --skip camera_recording --skip devices \
        --skip crash_safety --skip view --skip remote --skip ros2 --skip guide --skip readme
fi
# The interop tests' dependencies install (downloads, mostly) while the
# tests compile (the processor, mostly); neither needs the other.
deps_log=$(mktemp)
bash scripts/install-test-deps.sh > "$deps_log" 2>&1 &
deps=$!
compiled=0
cargo test --no-run "$@" || compiled=$?
installed=0
wait "$deps" || installed=$?
cat "$deps_log"
rm -f "$deps_log"
if [ "$installed" -ne 0 ]; then
    echo "scripts/install-test-deps.sh failed (exit $installed)" >&2
    exit "$installed"
fi
if [ "$compiled" -ne 0 ]; then
    exit "$compiled"
fi
cargo test "$@"
if [ $# -eq 0 ]; then
    bash scripts/test-python.sh
fi
