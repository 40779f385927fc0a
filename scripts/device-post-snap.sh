#!/usr/bin/env bash
# WindowPoSt, WinningPoSt and SnapDeals on a GPU host, in one of two runs:
#   scripts/device-post-snap.sh CUZK OUT bench  - 32 GiB shapes through `bench engine --synthetic`
#       (random vanilla data of the exact shape, synthetic parameters made on the GPU: timed, not
#       verified): WinningPoSt warm latency, a WindowPoSt partition (and its witness), a SnapDeals
#       proof of 16 partitions; peak host RSS and device memory.
#   scripts/device-post-snap.sh CUZK OUT record OLD  - the recording of a circuit of parts by CUZK
#       and by the build OLD, alternately
#   scripts/device-post-snap.sh CUZK OUT e2e [SIZE]  - seal -> vanilla -> setup -> prove on the GPU
#       -> verify for all three kinds at SIZE (default 8MiB); the keys, proofs and public inputs
#       are left in OUT for the independent npm verifier (tests/interop/verify.mjs) to check.
set -uo pipefail
cuzk=${1:?usage: device-post-snap.sh CUZK OUT bench|record OLD|e2e [SIZE]}
out=${2:?usage: device-post-snap.sh CUZK OUT bench|record OLD|e2e [SIZE]}
mode=${3:?usage: device-post-snap.sh CUZK OUT bench|record OLD|e2e [SIZE]}
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
  # each run's job log lines (with their timelines: the first job's recording, the prover's
  # stages) go to OUT/NAME.log
  step winning 240 "$cuzk" bench engine --kind winning-post --synthetic --sector-size 32GiB --gpu --jobs 20 \
    --concurrency 1 --log "$out/winning.log"
  step window 300 "$cuzk" bench engine --kind window-post --synthetic --sector-size 32GiB --gpu --jobs 6 \
    --concurrency 1 --log "$out/window.log"
  step window-2 300 "$cuzk" bench engine --kind window-post --synthetic --sector-size 32GiB --gpu --jobs 8 \
    --concurrency 2 --log "$out/window-2.log"
  step snap 300 "$cuzk" bench engine --kind snap --synthetic --sector-size 32GiB --gpu --jobs 3 --concurrency 1 \
    --log "$out/snap.log"
  exit 0
fi

# record OLD: the recording of 200 sectors of the WindowPoSt 32 GiB shape by CUZK and by the
# build OLD, alternately, three times each (the command records and stops at the witness:
# post-test has none; its wall time is the recording's)
if [ "$mode" = record ]; then
  old=${4:?usage: device-post-snap.sh CUZK OUT record OLD}
  for i in 1 2 3; do
    for b in "$old" "$cuzk"; do
      t0=$(date +%s%N)
      "$b" bench synth --circuit post-test:8-8-0:1073741824:200:10 --mode pce --reps 1 >/dev/null 2>&1
      echo "record $b run $i: $((($(date +%s%N) - t0) / 1000000)) ms"
    done
  done
  exit 0
fi

[ "$mode" = e2e ] || { echo "mode bench, record or e2e, not '$mode'" >&2; exit 2; }
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
