#!/usr/bin/env bash
# The project's test command: install what the interop tests need (the real
# librealsense 2.55 and 2.59 through pyrealsense2, libusb, rosbags, mcap),
# then run every test: `cargo test`, then the Python package's pytest suite
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
bash scripts/install-test-deps.sh
cargo test "$@"
if [ $# -eq 0 ]; then
    bash scripts/test-python.sh
fi
