#!/usr/bin/env bash
# Fails when a C or CUDA file of the tree is not as the root .clang-format lays it out;
# `scripts/check-format.sh --fix` rewrites them. Skips (exit 77) where clang-format is absent.
set -uo pipefail
root=${CUZK_SOURCE_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root" || exit 1
command -v clang-format >/dev/null || { echo "SKIPPED: clang-format is not installed"; exit 77; }
mapfile -t files < <(find src include tests bench -type f \( -name '*.c' -o -name '*.h' -o -name '*.cu' -o -name '*.cuh' \) \
                     -not -path '*/node_modules/*' | sort)
if [ "${1:-}" = --fix ]; then
  clang-format -i "${files[@]}"
  exit 0
fi
bad=0
for f in "${files[@]}"; do
  if ! clang-format --dry-run --Werror "$f" >/dev/null 2>&1; then
    echo "$f: not formatted ($(clang-format "$f" | diff "$f" - | grep -c '^>') lines differ; scripts/check-format.sh --fix)"
    bad=1
  fi
done
[ $bad -eq 0 ] && echo "check-format: ${#files[@]} files as .clang-format lays them out"
exit $bad
