#!/usr/bin/env bash
# The Python package's tests: build and install `./python` (maturin, through
# pip) into its own virtual environment target/venv-python, with pytest
# and pytest-xdist (several tests at a time: `-n 4`), numpy, pyrealsense2
# 2.55 (whose software_device the DeviceRecorder test records), dask
# (rsbag.parallel), rerun-sdk with its DataFusion reader (rsbag.rerun,
# whose tests read the .rrd back) and mypy (pinned: the type stubs'
# checks, `mypy --strict` on the Python examples of README.md and the guide
# (docs/src), which test_guide_examples.py also runs, and stubtest
# against the built module, python/tests/check_typing.py), and run
# python/tests. The judges (pyrealsense2 2.55 and 2.59) are the ones
# scripts/install-test-deps.sh installs; the tests run them in their own
# interpreters. Exits non-zero on failure.
#
# One step alone: `--venv` (the environment and its packages, downloads
# mostly), `--build` (the package), `--run` (the checks and the tests) or
# `--pytest` (the tests alone), both passing further arguments to pytest;
# scripts/test.sh runs them beside the Rust build and tests.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=target/venv-python
RERUN=0.41.0
MYPY=1.18.2

venv() {
    if ! "$VENV/bin/python" -c "import pytest, xdist, numpy, pyrealsense2, dask.bag" 2>/dev/null; then
        python3 -m venv "$VENV"
        "$VENV/bin/pip" install --quiet --disable-pip-version-check pytest==8.4.2 \
            pytest-xdist==3.8.0 numpy pyrealsense2==2.55.1.6486 dask==2025.9.1
    fi
    if [ "$("$VENV/bin/python" -c 'import rerun, datafusion; print(rerun.__version__)' 2>/dev/null)" != "$RERUN" ]; then
        "$VENV/bin/pip" install --quiet --disable-pip-version-check "rerun-sdk[catalog]==$RERUN"
    fi
    if [ "$("$VENV/bin/python" -c 'from mypy.version import __version__ as v; print(v)' 2>/dev/null)" != "$MYPY" ]; then
        "$VENV/bin/pip" install --quiet --disable-pip-version-check "mypy==$MYPY"
    fi
}

# Always rebuilt: the package is what this checkout holds. It is built with
# the profile `cargo test` used (dev), which leaves nothing of the library
# and its dependencies to compile again; a release build would compile
# them all once more. Users' builds (`pip install ./python`) are release.
build() {
    MATURIN_PEP517_ARGS="--profile dev" \
        "$VENV/bin/pip" install --quiet --disable-pip-version-check --force-reinstall --no-deps ./python
}

# The stubs first: they must type the README's and the guide's examples and
# match the module (test_typing.py checks the same inside the suite).
run() {
    "$VENV/bin/python" python/tests/check_typing.py
    run_pytest "$@"
}

run_pytest() {
    "$VENV/bin/python" -m pytest -q python/tests "$@"
}

case "${1:-}" in
    "")
        venv
        build
        run
        ;;
    --venv) venv ;;
    --build) build ;;
    --run) shift; run "$@" ;;
    --pytest) shift; run_pytest "$@" ;;
    *) echo "usage: scripts/test-python.sh [--venv | --build | --run | --pytest] [PYTEST ARGS]" >&2; exit 2 ;;
esac
