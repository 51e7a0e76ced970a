#!/usr/bin/env bash
# The project's test command: install what the interop tests need (the real
# librealsense 2.55 and 2.59 through pyrealsense2, libusb, rosbags, mcap)
# while the tests compile, then run every test: `cargo test`, four tests
# at a time, with the Python package's pytest suite (scripts/test-python.sh)
# beside it, and Python's tests of cameras streamed in real time last,
# alone. Works on a fresh machine with Rust and Python; extra arguments go
# to `cargo test` alone (e.g. `scripts/test.sh --test playback_stress`).
#
# `scripts/test.sh --quick` is what to run between changes (about 3
# minutes once built): the library's and the tool's own tests, without the
# interop tests against librealsense and ROS, cameras simulated through
# librealsense, the killed-process tests, the servers, the browser, the
# guide's examples, the doc tests and Python. Some of those it runs make
# their recordings with librealsense or check a file with it, so it first
# installs what the tests need when it is missing (a few seconds once
# installed).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = "--quick" ]; then
    bash scripts/install-test-deps.sh > /dev/null
    exec cargo test -p rsbag -p rsbag-cli --lib --bins --test library --test cli -- \
        --skip interop --skip librealsense --skip camera_recording --skip devices \
        --skip crash_safety --skip view --skip remote --skip ros2 --skip guide --skip readme
fi
# The interop tests' dependencies and the Python test environment install
# (downloads, mostly) while the tests compile (the processor, mostly);
# neither needs the other.
all=$([ $# -eq 0 ] && echo 1 || echo 0)
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

# Wait for the background step NAME (pid, log file), print its log, and
# stop here with its exit status if it failed.
finish() {
    local name=$1 pid=$2 log=$3 status=0
    wait "$pid" || status=$?
    cat "$log"
    if [ "$status" -ne 0 ]; then
        echo "$name failed (exit $status)" >&2
        exit "$status"
    fi
}

bash scripts/install-test-deps.sh > "$logs/deps" 2>&1 &
deps=$!
if [ "$all" = 1 ]; then
    bash scripts/test-python.sh --venv > "$logs/venv" 2>&1 &
    venv=$!
fi
compiled=0
cargo test --no-run "$@" || compiled=$?
finish scripts/install-test-deps.sh "$deps" "$logs/deps"
if [ "$compiled" -ne 0 ]; then
    exit "$compiled"
fi
if [ "$all" = 1 ]; then
    finish "scripts/test-python.sh --venv" "$venv" "$logs/venv"
fi
# Python's tests run beside the Rust ones, all but those of a camera
# streamed in real time (marked `realtime`: librealsense's and rsbag's
# syncers grouping frames as they arrive, librealsense's recorder stamping
# arrival), which run after them on a machine no longer busy. Four Python
# tests at a time: most of the suite's time is librealsense's waits (45 s
# for a device that is not there). The package is built first: its build
# takes cargo's lock on the target directory.
if [ "$all" = 1 ]; then
    bash scripts/test-python.sh --build
    bash scripts/test-python.sh --run -m "not realtime" -n 4 > "$logs/python" 2>&1 &
    python=$!
fi
# Four tests at a time: the tool's tests wait on the processes they run
# (half a core each on average), and the synthetic camera they record
# waits for the disk instead of dropping frames on a busy machine.
rust=0
RUST_TEST_THREADS=${RUST_TEST_THREADS:-4} cargo test "$@" || rust=$?
if [ "$all" = 1 ]; then
    finish "scripts/test-python.sh --run" "$python" "$logs/python"
fi
if [ "$rust" -ne 0 ]; then
    exit "$rust"
fi
if [ "$all" = 1 ]; then
    bash scripts/test-python.sh --pytest -m realtime
fi
