#!/usr/bin/env bash
# PoRep C2 end to end on a GPU host, per sector size: seal a test sector, set up its
# parameters, prove through the precompiled circuit on the CPU and on the GPU, verify both,
# printing the timelines. Usage: scripts/device-porep.sh CUZK OUTDIR sizes...
set -uo pipefail
CUZK=$(realpath "$1")
OUTDIR=$2
shift 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
now() { date +%s.%N; }
el() { python3 -c "print(round($2 - $1, 3))"; }
for size in "$@"; do
  d=$work/$size
  t0=$(now); "$CUZK" seal --sector-size "$size" --out "$d" --quiet >/dev/null || exit 1; t1=$(now)
  echo "{\"bench\":\"seal\",\"size\":\"$size\",\"seconds\":$(el $t0 $t1)}"
  "$CUZK" bench synth --circuit "porep:$size" --synthetic --mode prove --reps 3 --json
  "$CUZK" bench synth --circuit "porep:$size" --synthetic --mode pce --reps 3 --json
  t0=$(now); "$CUZK" setup --circuit "porep:$size" --params "$d.params" --vk "$d.vk" --quiet 2>/dev/null || exit 1; t1=$(now)
  echo "{\"bench\":\"setup\",\"size\":\"$size\",\"seconds\":$(el $t0 $t1)}"
  for how in cpu gpu; do
    flag=""; [ $how = gpu ] && flag=--gpu
    t0=$(now)
    "$CUZK" prove porep --c1 "$d/c1.json" --params "$d.params" --pce "$d.pce" --out "$d.$how.proof" $flag \
      2>"$OUTDIR/timeline-$size-$how.txt"
    rc=$?; t1=$(now)
    "$CUZK" verify porep --public "$d/sector.json" --vk "$d.vk" --proof "$d.$how.proof" >/dev/null; v=$?
    echo "{\"bench\":\"prove porep\",\"size\":\"$size\",\"prover\":\"$how\",\"rc\":$rc,\"verified\":$([ $v = 0 ] && echo true || echo false),\"seconds\":$(el $t0 $t1)}"
  done
done
