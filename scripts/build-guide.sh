#!/usr/bin/env bash
# Build the user guide (docs/, an mdBook) into docs/book, failing on a
# warning or error of mdBook and on a broken link (between its pages, to an
# anchor, or from README.md; scripts/check-guide-links.py). Debian 12 has no
# mdbook package, so mdBook MDBOOK_VERSION is built with `cargo install
# --locked` into target/tools when that version is not there (135 s of
# CPU time; 5.4 minutes on the project's 2 cores while other builds shared
# them; later runs reuse it). The guide's examples are tested by
# `cargo test` and the Python suite, not here.
set -euo pipefail
cd "$(dirname "$0")/.."
MDBOOK_VERSION=0.5.4
MDBOOK=target/tools/bin/mdbook
if [ "$("$MDBOOK" --version 2>/dev/null)" != "mdbook v$MDBOOK_VERSION" ]; then
    echo "installing mdbook $MDBOOK_VERSION into target/tools"
    cargo install mdbook --version "$MDBOOK_VERSION" --locked --quiet \
        --no-default-features --features search --root target/tools
fi
mkdir -p target
# mdBook reports some problems (a file it cannot read, a bad link in
# SUMMARY.md) as warnings and still succeeds: any WARN or ERROR fails.
"$MDBOOK" build docs 2>&1 | tee target/guide-build.log
if grep -E "WARN|ERROR" target/guide-build.log >/dev/null; then
    echo "mdbook build: warnings or errors (above)" >&2
    exit 1
fi
python3 scripts/check-guide-links.py docs/book README.md
echo "guide built: docs/book/index.html"
