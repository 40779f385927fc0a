#!/usr/bin/env bash
# Fails when a C or CUDA file of the tree is not as the root .clang-format lays it out;
# `scripts/check-format.sh --fix` rewrites them. Fails where clang-format is absent (never a
# skip: a check that does not run would pass unformatted code); scripts/install-deps.sh
# installs it (Debian's clang-format package).
set -uo pipefail
root=${CUZK_SOURCE_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root" || exit 1
if ! command -v clang-format >/dev/null; then
  echo "check-format: FAIL: clang-format is not installed, so the layout cannot be checked;" \
    "scripts/install-deps.sh installs it (or: apt-get install clang-format)" >&2
  exit 1
fi
mapfile -t files < <(find src include tests bench -type f \( -name '*.c' -o -name '*.h' -o -name '*.cu' -o -name '*.cuh' \) \
                     -not -path '*/node_modules/*' | sort)
if [ "${1:-}" = --fix ]; then
  clang-format -i "${files[@]}"
  exit 0
fi
# one clang-format over every file (a second or two; one process a file took half a minute),
# then each file it names with the count of lines that differ
report=$(clang-format --dry-run --Werror "${files[@]}" 2>&1 >/dev/null)
rc=$?
mapfile -t bad < <(sed -n 's/^\(.*\):[0-9]*:[0-9]*: error: code should be clang-formatted.*/\1/p' <<<"$report" | sort -u)
if [ $rc -ne 0 ] && [ ${#bad[@]} -eq 0 ]; then
  echo "check-format: FAIL: clang-format exit $rc: $(head -c 600 <<<"$report")" >&2
  exit 1
fi
for f in "${bad[@]}"; do
  echo "$f: not formatted ($(clang-format "$f" | diff "$f" - | grep -c '^>') lines differ; scripts/check-format.sh --fix)"
done
[ ${#bad[@]} -eq 0 ] && echo "check-format: ${#files[@]} files as .clang-format lays them out"
[ ${#bad[@]} -eq 0 ]
