#!/usr/bin/env bash
# PoRep benchmarks for docs/BENCHMARKS.md: per sector size, seal (cuzk seal), synthesis in
# PROVE and WITNESS + PCE modes (bench synth, synthetic vanilla data of the size's shape), and
# the whole C2 (prove porep --pce; parameters made once by cuzk setup and cached).
# Usage: scripts/bench-porep.sh [path/to/cuzk] [cache dir] [sizes...]   (default 2KiB 8MiB)
set -euo pipefail
CUZK=$(realpath "${1:-build/cuzk}")
CACHE=$(mkdir -p "${2:-build/bench-cache}" && realpath "${2:-build/bench-cache}")
shift 2 || true
SIZES=("$@")
[ ${#SIZES[@]} -gt 0 ] || SIZES=(2KiB 8MiB)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for size in "${SIZES[@]}"; do
  t0=$(date +%s.%N)
  "$CUZK" seal --sector-size "$size" --out "$work/$size" --quiet >/dev/null
  t1=$(date +%s.%N)
  echo "{\"bench\":\"seal\",\"size\":\"$size\",\"threads\":$(nproc),\"seconds\":$(python3 -c "print(round($t1 - $t0, 3))")}"
  for mode in prove pce; do
    "$CUZK" bench synth --circuit "porep:$size" --synthetic --mode $mode --reps 3 --json
  done
  if [ ! -f "$CACHE/porep-$size.params" ]; then
    t0=$(date +%s.%N)
    "$CUZK" setup --circuit "porep:$size" --params "$CACHE/porep-$size.params" --vk "$CACHE/porep-$size.vk" --quiet
    t1=$(date +%s.%N)
    echo "{\"bench\":\"setup\",\"size\":\"$size\",\"seconds\":$(python3 -c "print(round($t1 - $t0, 3))")}"
  fi
  for rep in 1 2; do # the first run records the precompiled circuit; the second loads it
    t0=$(date +%s.%N)
    "$CUZK" prove porep --c1 "$work/$size/c1.json" --params "$CACHE/porep-$size.params" --pce "$CACHE/porep-$size.pce" \
      --out "$work/$size.proof" --quiet 2>"$work/timeline.txt"
    t1=$(date +%s.%N)
    echo "{\"bench\":\"prove porep\",\"size\":\"$size\",\"run\":$rep,\"seconds\":$(python3 -c "print(round($t1 - $t0, 3))")}"
  done
  "$CUZK" verify porep --c1 "$work/$size/c1.json" --vk "$CACHE/porep-$size.vk" --proof "$work/$size.proof" >&2
done
