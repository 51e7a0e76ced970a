#!/usr/bin/env bash
# The viewer's page is bundled into the binary from cli/src/view/assets,
# which `npm run build` in viewer/ makes from viewer/src. Rebuild it and
# fail if the committed bundle differs: what ships is what the sources say.
# (After scripts/install-test-deps.sh, which installs viewer/node_modules.)
set -euo pipefail
cd "$(dirname "$0")/.."
(cd viewer && npm run --silent build >/dev/null 2>&1)
git diff --exit-code -- cli/src/view/assets
echo "viewer bundle: up to date"
