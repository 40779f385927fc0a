#!/usr/bin/env bash
# ctest entry for the independent verifier's self-test (kat.mjs). The argument (the cuzk binary)
# is not used: this checks the verifier itself against bellman's vectors and malformed input.
# Exit 77 (skipped) when the bellman vectors are not available.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
if ! command -v node >/dev/null; then
  echo "kat.sh: node not found (scripts/install-deps.sh installs nodejs and npm)" >&2
  exit 1
fi
if [ ! -f "$here/node_modules/@noble/curves/package.json" ]; then
  "$here/../../scripts/install-interop.sh"
fi
exec node "$here/kat.mjs"
