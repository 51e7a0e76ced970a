#!/usr/bin/env bash
# The project's test command: install what the interop tests need (the real
# librealsense 2.55 and 2.59 through pyrealsense2, libusb, rosbags, mcap)
# while the tests compile, then run every test, in two lanes (below):
# `cargo test` and the Python package's pytest suite
# (scripts/test-python.sh). Works on a fresh
# machine with Rust and Python; extra arguments go to `cargo test` alone
# (e.g. `scripts/test.sh --test playback_stress`).
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
if [ "$all" = 0 ]; then
    cargo test "$@"
    exit 0
fi
finish "scripts/test-python.sh --venv" "$venv" "$logs/venv"
# The tests run in two lanes at once. Most of them wait on child
# processes (the tool, librealsense, ROS's readers, servers, a browser)
# and run three at a time at a lower priority (nice 10). The tests of
# cameras streamed in real time (the command line's recorders that must
# drop no frame, live views, live ROS 2, sessions recorded as they happen,
# the guide's tour, recordings killed mid-way; then the Python suite,
# whose syncers group frames as they arrive) run at normal priority beside
# them, so that the others take only the processor they leave.
# The guide's tour runs first, alone in its lane: it checks that its
# recording dropped no frame, and the lane's other tests, converting at
# full speed beside it, made it drop some.
realtime=(camera_recording:: cli_record_play:: crash_safety:: devices:: long_recording::
    ros2_live:: sessions:: view_live::)
skip=(--skip readme::)
for module in "${realtime[@]}"; do
    skip+=(--skip "$module")
done
(
    cargo test --test cli -- readme:: --test-threads 1 &&
        cargo test --test cli -- "${realtime[@]}" --test-threads 2 &&
        bash scripts/test-python.sh --build &&
        bash scripts/test-python.sh --run
) > "$logs/realtime" 2>&1 &
realtime_lane=$!
others=0
nice -n 10 cargo test -- "${skip[@]}" --test-threads 3 || others=$?
finish "the real-time lane (cargo test --test cli -- readme:: / ${realtime[*]}; the Python suite)" \
    "$realtime_lane" "$logs/realtime"
exit "$others"
