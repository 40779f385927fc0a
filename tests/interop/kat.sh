#!/usr/bin/env bash
# TIER slow (alone on 2 cores: 35 s of pairings in JavaScript; in the fast tier,
# test_bellman_kat holds our own verifier to the same vectors)
# ctest entry for the independent verifier's self-test (kat.mjs): it checks the verifier itself
# against bellman's vectors and malformed input, and the vectors through `cuzk verify` too when
# given the cuzk binary (ctest gives it). Exit 77 (skipped) when the bellman vectors are not
# available.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
if ! command -v node >/dev/null; then
  echo "kat.sh: node not found (scripts/install-deps.sh installs nodejs and npm)" >&2
  exit 1
fi
if [ ! -f "$here/node_modules/@noble/curves/package.json" ]; then
  "$here/../../scripts/install-interop.sh"
fi
CUZK_BIN=${1:+$(realpath "$1")} exec node "$here/kat.mjs"
