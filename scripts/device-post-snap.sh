#!/usr/bin/env bash
# WindowPoSt, WinningPoSt and SnapDeals on a GPU host, in one of two runs:
#   scripts/device-post-snap.sh CUZK OUT bench  - 32 GiB shapes through `bench engine --synthetic`
#       (random vanilla data of the exact shape, synthetic parameters made on the GPU: timed, not
#       verified): WinningPoSt warm latency, a WindowPoSt partition (and its witness), a SnapDeals
#       proof of 16 partitions; peak host RSS and device memory.
#   scripts/device-post-snap.sh CUZK OUT e2e [SIZE]  - seal -> vanilla -> setup -> prove on the GPU
#       -> verify for all three kinds at SIZE (default 8MiB); the keys, proofs and public inputs
#       are left in OUT for the independent npm verifier (tests/interop/verify.mjs) to check.
set -uo pipefail
cuzk=${1:?usage: device-post-snap.sh CUZK OUT bench|e2e [SIZE]}
out=${2:?usage: device-post-snap.sh CUZK OUT bench|e2e [SIZE]}
mode=${3:?usage: device-post-snap.sh CUZK OUT bench|e2e [SIZE]}
mkdir -p "$out"

step() { # step NAME TIMEOUT CMD...: runs CMD, its output in OUT/NAME.txt, and says how it went
  local name=$1 limit=$2 t0=$SECONDS
  shift 2
  timeout "$limit" "$@" >"$out/$name.txt" 2>&1
  local rc=$?
  echo "== $name: rc $rc in $((SECONDS - t0)) s: $*"
  cat "$out/$name.txt"
  return $rc
}

if [ "$mode" = bench ]; then
  step winning 240 "$cuzk" bench engine --kind winning-post --synthetic --sector-size 32GiB --gpu --jobs 20 \
    --concurrency 1
  step window 300 "$cuzk" bench engine --kind window-post --synthetic --sector-size 32GiB --gpu --jobs 6 \
    --concurrency 1
  step snap 300 "$cuzk" bench engine --kind snap --synthetic --sector-size 32GiB --gpu --jobs 3 --concurrency 1
  exit 0
fi

[ "$mode" = e2e ] || { echo "mode bench or e2e, not '$mode'" >&2; exit 2; }
size=${4:-8MiB}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
R=2b2c2d2e2f303132333435363738393a3b3c3d3e3f404142434445464748494a
fails=0
run() { step "$@" || fails=$((fails + 1)); }
run seal-11 300 "$cuzk" seal --sector-size "$size" --out s1 --sector-id 11 --quiet
run seal-12 300 "$cuzk" seal --sector-size "$size" --out s2 --sector-id 12 --quiet
run vanilla-window 120 "$cuzk" post vanilla --kind window --sector s1 --sector s2 --randomness $R --out window
run vanilla-winning 120 "$cuzk" post vanilla --kind winning --sector s2 --randomness $R --out winning
run encode 300 "$cuzk" snap encode --sector s1 --random-data 7 --out snap
for k in window-post winning-post snap; do
  d=${k%-post}
  run "setup-$k" 420 "$cuzk" setup --circuit "$k:$size" --params "$k.params" --vk "$out/$k.vk" --quiet
  run "prove-$k" 300 "$cuzk" prove "$k" --vanilla "$d" --params "$k.params" --vk "$out/$k.vk" --gpu \
    --out "$out/$k.proof" --inputs "$out/$k.json"
  run "verify-$k" 120 "$cuzk" verify "$k" --vanilla "$d" --vk "$out/$k.vk" --proof "$out/$k.proof"
  run "verify-inputs-$k" 120 "$cuzk" verify --vk "$out/$k.vk" --proof "$out/$k.proof" --inputs "$out/$k.json"
  rm -f "$k.params"
done
echo "e2e $size: $fails step(s) failed"
[ $fails -eq 0 ]
