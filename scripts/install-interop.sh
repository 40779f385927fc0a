#!/usr/bin/env bash
# Installs the npm packages the interop tests use (an independent verifier on @noble/curves)
# into tests/interop/node_modules, from the versions pinned in its package-lock.json.
set -euo pipefail
cd "$(dirname "$0")/../tests/interop"
[ -f package.json ] || exit 0
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules ]; then
  if [ -f package-lock.json ]; then npm ci --silent --no-audit --no-fund; else npm install --silent --no-audit --no-fund; fi
fi
