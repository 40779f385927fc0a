#!/usr/bin/env bash
# The small-GPU rows of docs/BENCHMARKS.md on a large GPU: another process (`cuzk bench gpu-hold`)
# holds all but FREE GiB of the device, so that the driver itself reports FREE GiB free, and the
# run sees the card it stands in for. Each variant is a list of settings for the run's
# environment (e.g. CUZK_GPU_STREAM_LAB_CONCURRENT=1), run one after another in this one process
# tree on the same warm machine, so that their times compare ("-" is the default settings).
#   scripts/device-smaller-gpu.sh CUZK OUT FREE sector [VARIANT...]
#       verified 32 GiB PoRep sectors (`bench e2e`, then `cuzk verify porep`) from the sector and
#       parameters that `scripts/device-porep32.sh CUZK OUT setup` left in WORK; SECTORS (3) and
#       CONCURRENCY (1) as in the environment; the proofs and public inputs stay in OUT for the
#       npm verifier (tests/interop/verify.mjs)
#   scripts/device-smaller-gpu.sh CUZK OUT FREE partition BATCH [VARIANT...]
#       `bench gpu-prove --circuit porep:32GiB --batch BATCH --reps 2` (synthetic data: timed, not
#       verified): the best call's stages
#   scripts/device-smaller-gpu.sh CUZK OUT FREE kind KIND [VARIANT...]
#       `bench engine --kind KIND --synthetic --sector-size 32GiB --jobs JOBS (3)`
# FREE "all" holds nothing. The precompiled circuit is kept in WORK (default /tmp/cuzk-porep32,
# CUZK_POREP32_WORK) between runs. Each run prints its time and peak RSS.
set -uo pipefail
usage="usage: device-smaller-gpu.sh CUZK OUT FREE sector|partition BATCH|kind KIND [VARIANT...]"
cuzk=${1:?$usage}
out=${2:?$usage}
free_gib=${3:?$usage}
mode=${4:?$usage}
shift 4
work=${CUZK_POREP32_WORK:-/tmp/cuzk-porep32}
size=32GiB
mkdir -p "$out" "$work"
case $mode in
sector | partition | kind) ;;
*)
  echo "device-smaller-gpu: mode sector, partition or kind, not '$mode'" >&2
  exit 2
  ;;
esac
arg=
if [ "$mode" = partition ] || [ "$mode" = kind ]; then
  arg=${1:?$usage}
  shift
fi
[ $# -gt 0 ] || set -- -

room="$free_gib GiB"
[ "$free_gib" = all ] && room="all memory"
hold_pid=
release() { [ -n "$hold_pid" ] && kill "$hold_pid" 2>/dev/null && wait "$hold_pid" 2>/dev/null; hold_pid=; }
trap release EXIT
if [ "$free_gib" != all ]; then
  "$cuzk" bench gpu-hold --free-gib "$free_gib" >"$out/hold.txt" 2>&1 &
  hold_pid=$!
  for _ in $(seq 300); do # the hold prints one line once it holds (up to a minute)
    grep -q holding "$out/hold.txt" && break
    kill -0 "$hold_pid" 2>/dev/null || break
    sleep 0.2
  done
  grep holding "$out/hold.txt" || {
    echo "device-smaller-gpu: could not hold all but $free_gib GiB:" >&2
    cat "$out/hold.txt" >&2
    exit 1
  }
fi

timed() { # timed LIMIT CMD...: the command's output, then its exit status, time and peak RSS
  /usr/bin/time -f "   rc %x in %e s, peak RSS %M KiB" timeout "$1" "${@:2}" 2>&1
}

i=0
rc=0
for variant in "$@"; do
  i=$((i + 1))
  settings=()
  [ "$variant" != - ] && read -r -a settings <<<"$variant"
  echo "== variant $i (${variant}), free: $room: $mode $arg"
  case $mode in
  sector)
    proof=$out/sector-$free_gib-$i.proof inputs=$out/sector-$free_gib-$i.json
    [ -f "$work/porep-$size.pce" ] ||
      echo "   (no precompiled circuit in $work yet: this run records it, so its load and host memory are not comparable)"
    timed 560 env "${settings[@]}" "$cuzk" bench e2e --c1 "$work/s/c1.json" --params "$work/porep-$size.params" \
      --vk "$work/porep-$size.vk" --gpu --pce "$work/porep-$size.pce" --sectors "${SECTORS:-3}" \
      --concurrency "${CONCURRENCY:-1}" --brief --proof "$proof" --inputs "$inputs" || rc=1
    timed 120 "$cuzk" verify porep --c1 "$work/s/c1.json" --vk "$work/porep-$size.vk" --proof "$proof" \
      --inputs "$inputs" || rc=1
    ;;
  partition)
    timed 400 env "${settings[@]}" "$cuzk" bench gpu-prove --circuit "porep:$size" --pce "$work/porep-$size.pce" \
      --batch "$arg" --reps 2 || rc=1
    ;;
  kind)
    pce=()
    [ "$arg" = porep ] && pce=(--pce "$work/porep-$size.pce")
    timed 400 env "${settings[@]}" "$cuzk" bench engine --kind "$arg" --synthetic --sector-size "$size" --gpu \
      --jobs "${JOBS:-3}" --concurrency 1 "${pce[@]}" || rc=1
    ;;
  esac
done
exit $rc
