#!/usr/bin/env bash
# A verified PoRep C2 of a sparse 32 GiB (or 64 GiB) test sector on a GPU host, in steps small
# enough for one call each (CUZK_POREP_SIZE=64GiB for the other size):
#   scripts/device-porep32.sh CUZK OUT setup  - a sparse test sector (its C1) and GPU-made
#       porep:SIZE parameters (about 47 GB) under WORK (default /tmp/cuzk-porep32)
#   scripts/device-porep32.sh CUZK OUT prove [K]  - the disk's raw read rate on the parameter
#       file, the page cache dropped, then `bench e2e`: load once (the precompiled circuit
#       recorded into WORK on the first run, read from there after), K sectors (default 3)
#       proved and verified, the last one's proofs and public inputs left in OUT with the key,
#       for the npm verifier; then `bench params` from the page cache
#   scripts/device-porep32.sh CUZK OUT clean  - removes WORK
# Each step prints its time and peak RSS (getrusage of the child).
set -uo pipefail
cuzk=${1:?usage: device-porep32.sh CUZK OUT setup|prove|clean}
out=${2:?usage: device-porep32.sh CUZK OUT setup|prove|clean}
mode=${3:?usage: device-porep32.sh CUZK OUT setup|prove|clean}
work=${CUZK_POREP32_WORK:-/tmp/cuzk-porep32}
size=${CUZK_POREP_SIZE:-32GiB}
mkdir -p "$out" "$work"

step() { # step NAME TIMEOUT CMD...
  local name=$1 limit=$2
  shift 2
  echo "== $name: $*"
  python3 - "$limit" "$out/$name.txt" "$@" <<'PY'
import resource, subprocess, sys, time
limit, log, cmd = float(sys.argv[1]), sys.argv[2], sys.argv[3:]
t0 = time.time()
with open(log, "w") as f:
    try:
        rc = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, timeout=limit).returncode
    except subprocess.TimeoutExpired:
        rc = 124
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 2**20
print(f"   rc {rc} in {time.time() - t0:.1f} s, peak RSS {peak:.2f} GiB")
sys.exit(rc)
PY
  local rc=$?
  tail -n 40 "$out/$name.txt"
  return $rc
}

case "$mode" in
setup)
  free -g | head -2
  df -h "$work" | tail -1
  rm -rf "$work/s"
  step seal-sparse 120 "$cuzk" seal --sector-size "$size" --sparse --out "$work/s" || exit 1
  ls -la "$work/s"
  step setup-gpu 560 "$cuzk" setup --circuit "porep:$size" --gpu --params "$work/porep-$size.params" \
    --vk "$work/porep-$size.vk" || exit 1
  ls -la "$work"
  cp "$work/porep-$size.vk" "$out/"
  ;;
prove)
  k=${4:-3}
  f="$work/porep-$size.params"
  free -g | head -2
  # the raw rate: direct I/O past the page cache, 8 GiB of the file
  dd if="$f" of=/dev/null bs=64M count=128 iflag=direct 2>&1 | tail -1
  sync
  echo 3 >/proc/sys/vm/drop_caches 2>/dev/null && echo "page cache dropped" || echo "page cache not dropped (no permission)"
  [ -f "$work/porep-$size.pce" ] && echo "precompiled circuit from $work/porep-$size.pce" || echo "precompiled circuit recorded"
  step e2e 560 "$cuzk" bench e2e --c1 "$work/s/c1.json" --params "$f" --vk "$work/porep-$size.vk" --gpu \
    --pce "$work/porep-$size.pce" --sectors "$k" --brief --proof "$out/porep-$size.proof" \
    --inputs "$out/porep-$size.json" || exit 1
  grep -E "parameters streamed|precompiled circuit|layout and key" "$out/e2e.txt" | head -5
  step verify 120 "$cuzk" verify porep --c1 "$work/s/c1.json" --vk "$work/porep-$size.vk" \
    --proof "$out/porep-$size.proof" --inputs "$out/porep-$size.json"
  step bench-params 200 "$cuzk" bench params --params "$f"
  ;;
clean)
  rm -rf "$work"
  df -h /tmp | tail -1
  ;;
*)
  echo "mode setup, prove or clean, not '$mode'" >&2
  exit 2
  ;;
esac
