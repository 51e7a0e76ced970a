#!/usr/bin/env bash
# Record what a build of the `rsbag` tool makes of the sample recordings
# and the reference files, as one line per output file with its SHA-256,
# to compare two builds byte for byte (a refactoring changes no output):
#
#   scripts/compare-outputs.sh BEFORE_BINARY before.txt
#   scripts/compare-outputs.sh AFTER_BINARY after.txt
#   diff before.txt after.txt
#
# Build both with the same profile (`cargo test --no-run -p rsbag-cli`
# makes target/debug/rsbag as the tests do): a `.db3` writer also commits
# each second, and its header counts commits, so a slower build writes a
# file with other header bytes.
#
# Covers `info --json`, `frames --json`, `check`, every `convert --to`
# target (ros2 in each storage and MCAP compression), and `info`/`frames`
# of the converted files read back. Each command's exit status and stderr
# are recorded too (with the scratch directory's path replaced in both), so an
# error that changes is a difference.
set -uo pipefail
if [ $# -ne 2 ]; then
    echo "usage: $0 RSBAG_BINARY OUTPUT.txt" >&2
    exit 2
fi
bin=$(realpath "$1")
out=$(realpath -m "$2")
cd "$(dirname "$0")/.."
# Absolute paths: the tool runs inside the scratch directory. The
# reference files are read from REFERENCE_DIR where there is one.
inputs=("$PWD"/sample_bags/*.bag "$PWD"/tests/fixtures/*.bag)
reference=${REFERENCE_DIR:-../shared/reference}
if [ -d "$reference" ]; then
    reference=$(realpath "$reference")
    inputs+=("$reference"/*.bag "$reference"/db3/*.db3)
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# run NAME ARGS...: run the tool, keep stdout, stderr and status as files.
run() {
    local name=$1
    shift
    mkdir -p "$scratch/out/$name"
    (cd "$scratch" && "$bin" "$@") >"$scratch/out/$name/stdout" 2>"$scratch/out/$name/stderr"
    echo $? >"$scratch/out/$name/status"
    sed -i "s|$scratch|SCRATCH|g" "$scratch/out/$name/stdout" "$scratch/out/$name/stderr"
}

targets=(png raw csv npy ply mp4 kalibr db3 bag)
for input in "${inputs[@]}"; do
    name=$(basename "$input")
    run "$name/info" info --json "$input"
    run "$name/frames" frames --json "$input"
    run "$name/check" check "$input"
    for to in "${targets[@]}"; do
        dest="$scratch/out/$name/convert-$to/result"
        case $to in db3 | bag) dest="$dest.$to" ;; esac
        run "$name/convert-$to" convert --to "$to" --out "$dest" "$input"
    done
    run "$name/convert-png-colorize" convert --to png --colorize --out "$scratch/out/$name/convert-png-colorize/result" "$input"
    run "$name/convert-db3-uncompressed" convert --to db3 --uncompressed --out "$scratch/out/$name/convert-db3-uncompressed/result.db3" "$input"
    run "$name/convert-ros2-sqlite3" convert --to ros2 --out "$scratch/out/$name/convert-ros2-sqlite3/result" "$input"
    for c in zstd lz4 none; do
        run "$name/convert-ros2-mcap-$c" convert --to ros2 --storage mcap --mcap-compression "$c" --out "$scratch/out/$name/convert-ros2-mcap-$c/result" "$input"
    done
    # The converted files, read back.
    for made in db3/result.db3 bag/result.bag ros2-sqlite3/result ros2-mcap-zstd/result ros2-mcap-none/result; do
        path="$scratch/out/$name/convert-$made"
        [ -e "$path" ] || continue
        tag=$(dirname "$made")
        run "$name/readback-$tag/info" info --json "$path"
        run "$name/readback-$tag/frames" frames --json "$path"
        run "$name/readback-$tag/check" check "$path"
    done
done
(cd "$scratch/out" && find . -type f | LC_ALL=C sort | xargs sha256sum) >"$out"
echo "$(wc -l <"$out") outputs hashed into $out"
