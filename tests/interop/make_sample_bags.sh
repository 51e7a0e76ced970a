#!/usr/bin/env bash
# Regenerate sample_bags/ with the real librealsense 2.55 and check each bag:
# librealsense must play back exactly the frames that were fed.
#
# Usage: bash tests/interop/make_sample_bags.sh   (from the crate root)
#
# For each NAME it writes
#   sample_bags/NAME.bag            the bag (rs_record.py)
#   sample_bags/NAME.recorded.json  what rs_record.py fed (its JSON)
#   sample_bags/NAME.frames.jsonl   what librealsense plays back (rs_play.py),
#                                   the shape of `rsbag frames FILE --json`
# The bags' receive times differ on every run; their frames do not.
set -euo pipefail
cd "$(dirname "$0")/../.."

interop=tests/interop
out=sample_bags
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

make_one() {
    local name=$1 scenario=$2
    shift 2
    echo "== $name ($scenario $*)"
    python3 "$interop/rs_record.py" "$out/$name.bag" --scenario "$scenario" "$@" \
        --json "$out/$name.recorded.json" >/dev/null
    python3 "$interop/rs_play.py" "$out/$name.bag" >"$out/$name.frames.jsonl"
    python3 "$interop/compare_frames.py" "$out/$name.recorded.json" "$out/$name.frames.jsonl"
    # Again with frame metadata (compared where rs_record.py set some).
    python3 "$interop/rs_play.py" --metadata "$out/$name.bag" >"$tmp/$name.metadata.jsonl"
    python3 "$interop/compare_frames.py" "$out/$name.recorded.json" "$tmp/$name.metadata.jsonl" >/dev/null
    python3 "$interop/rosbags_dump.py" --deserialize "$out/$name.bag" >/dev/null
    echo "   $(stat -c %s "$out/$name.bag") bytes"
}

make_one librealsense-depth-color-lz4 depth-color
make_one librealsense-stereo-none stereo --no-compress
make_one librealsense-motion-lz4 motion
make_one librealsense-metadata-lz4 metadata
