#!/usr/bin/env bash
# The project's test command: install what the interop tests need (the real
# librealsense 2.55 and 2.59 through pyrealsense2, libusb, rosbags, mcap),
# then run every test: `cargo test`, then the Python package's pytest suite
# (scripts/test-python.sh). Works on a fresh machine with Rust and Python;
# extra arguments go to `cargo test` alone (e.g. `scripts/test.sh --test
# playback_stress`).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-test-deps.sh
cargo test "$@"
if [ $# -eq 0 ]; then
    bash scripts/test-python.sh
fi
