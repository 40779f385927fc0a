#!/usr/bin/env bash
# Every row of the small-GPU table (docs/BENCHMARKS.md; 16, 24 and 48 GiB free beside all memory)
# on one large GPU, in four parts that each fit one command of at most ten minutes on an H200 or
# H100, run one after another on the same warm machine (part 1 leaves the sector, the parameters
# and the precompiled circuit in WORK for the others):
#   scripts/device-small-gpu-rows.sh CUZK OUT 1  - setup (a sparse 32 GiB sector, GPU-made
#       parameters), the precompiled circuit recorded by a sector of its own (its load and host
#       memory are not a row's), then verified PoRep sectors one at a time: all memory, 48 GiB
#   scripts/device-small-gpu-rows.sh CUZK OUT 2  - PoRep one at a time at all memory (this call's
#       resident baseline), 24 and 16 GiB, two in flight at 24 GiB
#   scripts/device-small-gpu-rows.sh CUZK OUT 3  - PoRep two in flight at 16 GiB and all memory;
#       WindowPoSt at 16, 24 GiB and all memory
#   scripts/device-small-gpu-rows.sh CUZK OUT 4  - SnapDeals and WinningPoSt at 16, 24 GiB and
#       all memory
# Each part has its resident row, so that every row compares with the resident path of the same
# call (the issue's condition).
# Sectors: 4 one at a time (the median of sectors 2-4), 5 two in flight (the interval between
# sector ends, sectors 2-5); every sector verified by the engine, then `cuzk verify porep` on the
# last one's proofs (scripts/device-smaller-gpu.sh), which stay in OUT/ROW with their public
# inputs, the key in OUT/setup, for the npm verifier: `node tests/interop/verify.mjs --vk
# OUT/setup/porep-32GiB.vk --proof OUT/ROW/sector-FREE-1.proof --inputs OUT/ROW/sector-FREE-1.json`.
# Each row's full output is in OUT/ROW.txt; the lines that carry its result are printed.
set -uo pipefail
usage="usage: device-small-gpu-rows.sh CUZK OUT 1|2|3|4"
cuzk=${1:?$usage}
out=${2:?$usage}
part=${3:?$usage}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"

rc=0
row() { # row NAME ENV... -- FREE MODE [ARG]: one row through device-smaller-gpu.sh
  local name=$1 settings=()
  shift
  while [ "$1" != -- ]; do
    settings+=("$1")
    shift
  done
  shift
  echo "== $name ($(date +%T))"
  env "${settings[@]}" "$here/device-smaller-gpu.sh" "$cuzk" "$out/$name" "$@" >"$out/$name.txt" 2>&1 || rc=1
  grep -E "placement|sectors 2\.\.|interval between|latency per job|device time per partition|rc [0-9]+ in|OK|FAIL|rror" \
    "$out/$name.txt" | head -20
}

case $part in
1)
  "$here/device-porep32.sh" "$cuzk" "$out/setup" setup 2>&1 | grep -E "^==|rc [0-9]+ in" || exit 1
  row record SECTORS=1 -- all sector
  row porep-all SECTORS=4 -- all sector
  row porep-48 SECTORS=4 -- 48 sector
  ;;
2)
  row porep-all SECTORS=4 -- all sector
  row porep-24 SECTORS=4 -- 24 sector
  row porep-16 SECTORS=4 -- 16 sector
  row porep-24-two SECTORS=5 CONCURRENCY=2 -- 24 sector
  ;;
3)
  row porep-16-two SECTORS=5 CONCURRENCY=2 -- 16 sector
  row porep-all-two SECTORS=5 CONCURRENCY=2 -- all sector
  for free in 16 24 all; do row "window-post-$free" JOBS=3 -- "$free" kind window-post; done
  ;;
4)
  for free in 16 24 all; do row "snap-$free" JOBS=3 -- "$free" kind snap; done
  for free in 16 24 all; do row "winning-post-$free" JOBS=20 -- "$free" kind winning-post; done
  ;;
*)
  echo "device-small-gpu-rows: part 1, 2, 3 or 4, not '$part'" >&2
  exit 2
  ;;
esac
exit $rc
