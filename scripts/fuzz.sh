#!/usr/bin/env bash
# Fuzz rsbag's readers: scripts/fuzz.sh [libfuzzer|afl] TARGET [SECONDS]
#   TARGET: bag_reader (the bag layer: index and scan), recording_reader
#   (the RealSense layer: description, events, frames by index, number and
#   time, framesets, check, images), db3_reader (the same from a .db3) or
#   db3_messages (the .db3 decoders: CDR types, key=value strings, PNG and
#   zstd images), image_transport (image_transport's compressed images:
#   JPEG, PNG, compressedDepth PNG and RVL), rvl (RVL depth alone, and its
#   round trip) or ros1_to_cdr (a robot bag's ROS1 messages to CDR).
# The corpus (fuzz/corpus/TARGET, or fuzz/afl-out/TARGET for AFL++) starts
# from the small sample recordings in fuzz/seeds. Findings land in
# fuzz/artifacts/TARGET (libFuzzer) or fuzz/afl-out/TARGET/default/crashes.
# Needs a nightly toolchain for libFuzzer (`rustup toolchain install
# nightly`); installs cargo-fuzz or cargo-afl when missing.
set -euo pipefail
cd "$(dirname "$0")/../fuzz"

engine=${1:?usage: scripts/fuzz.sh [libfuzzer|afl] TARGET [SECONDS]}
target=${2:?usage: scripts/fuzz.sh [libfuzzer|afl] TARGET [SECONDS]}
seconds=${3:-600}
case "$target" in
    bag_reader | recording_reader | db3_reader | db3_messages | image_transport | rvl | ros1_to_cdr) ;;
    *) echo "unknown target $target (bag_reader, recording_reader, db3_reader, db3_messages, image_transport, rvl or ros1_to_cdr)" >&2; exit 2 ;;
esac

case "$engine" in
    libfuzzer)
        command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz
        mkdir -p "corpus/$target"
        # -rss_limit_mb: a runaway allocation is a finding, as is a slow
        # input (-timeout, seconds).
        # -a: overflow checks and debug assertions on, as in the tests.
        cargo +nightly fuzz run -O -a "$target" "corpus/$target" seeds -- \
            -max_total_time="$seconds" -max_len=200000 -rss_limit_mb=1024 -timeout=10
        ;;
    afl)
        command -v cargo-afl >/dev/null || cargo install cargo-afl
        cargo afl config --build >/dev/null 2>&1 || true
        (cd afl && cargo afl build --release --bin "$target")
        export AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1
        mkdir -p afl-out
        # Resume where a previous run stopped.
        input=seeds
        [ -d "afl-out/$target/default/queue" ] && input=-
        cargo afl fuzz -V "$seconds" -t 10000 -m 1024 -i "$input" -o "afl-out/$target" \
            "target/release/$target"
        ;;
    *) echo "unknown engine $engine (libfuzzer or afl)" >&2; exit 2 ;;
esac
