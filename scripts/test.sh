#!/usr/bin/env bash
# The project's test command: install what the interop tests need (the real
# librealsense 2.55 through pyrealsense2, libusb, rosbags), then run every
# test. Works on a fresh machine with Rust and Python; extra arguments go to
# `cargo test` (e.g. `scripts/test.sh --test playback_stress`).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-test-deps.sh
cargo test "$@"
