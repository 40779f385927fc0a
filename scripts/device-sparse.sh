#!/usr/bin/env bash
# Sparse test sectors of small sizes proved and verified on a GPU host, one call:
#   scripts/device-sparse.sh CUZK OUT SIZE...   (e.g. 8MiB 512MiB)
# For each size: `seal --sparse`, GPU-made parameters (`setup --gpu`), `prove porep --gpu`,
# `verify porep` of the proof, and a C1 with one flipped Merkle path byte refused by both
# `verify porep --vanilla-only` and `prove porep`. The key, proof and public inputs of each
# size are left in OUT (for the independent npm verifier); CUZK_SPARSE_BENCH=1 adds `bench params`
# of each size's parameters with and without subgroup checks. Work files go under WORK (default
# /tmp/cuzk-sparse) and are removed at the end.
set -uo pipefail
cuzk=${1:?usage: device-sparse.sh CUZK OUT SIZE...}
out=${2:?usage: device-sparse.sh CUZK OUT SIZE...}
shift 2
here=$(cd "$(dirname "$0")/.." && pwd)
work=${CUZK_SPARSE_WORK:-/tmp/cuzk-sparse}
gpu=${CUZK_SPARSE_GPU---gpu} # CUZK_SPARSE_GPU= (empty): the same on the CPU
mkdir -p "$out" "$work"
fails=0
run() { # run NAME CMD...: time and status, the last lines of its output
  local name=$1
  shift
  local t0=$(date +%s%N)
  "$@" >"$work/$name.log" 2>&1
  local rc=$?
  local ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  printf '   %-28s rc %d in %d.%03d s\n' "$name" "$rc" $((ms / 1000)) $((ms % 1000))
  [ $rc -ne 0 ] && tail -n 5 "$work/$name.log"
  return $rc
}
refused() { # refused NAME PATTERN CMD...: must fail with PATTERN in its output
  local name=$1 pat=$2
  shift 2
  if "$@" >"$work/$name.log" 2>&1; then echo "   $name: NOT refused"; fails=$((fails + 1)); return; fi
  if grep -Eq -- "$pat" "$work/$name.log"; then echo "   $name: refused ($(grep -Eo -- "$pat" "$work/$name.log" | head -1))"
  else echo "   $name: refused without /$pat/: $(tail -c 200 "$work/$name.log")"; fails=$((fails + 1)); fi
}
for size in "$@"; do
  echo "== $size"
  d=$work/$size
  rm -rf "$d"
  run "seal-$size" "$cuzk" seal --sector-size "$size" --sparse --out "$d" --quiet || { fails=$((fails + 1)); continue; }
  run "setup-$size" "$cuzk" setup --circuit "porep:$size" $gpu --params "$work/$size.params" --vk "$out/$size.vk" \
    --quiet || { fails=$((fails + 1)); continue; }
  run "prove-$size" "$cuzk" prove porep --c1 "$d/c1.json" --params "$work/$size.params" --vk "$out/$size.vk" $gpu \
    --out "$out/$size.proof" --inputs "$out/$size.json" || fails=$((fails + 1))
  grep -E "partition|proofs|verified" "$work/prove-$size.log" | head -3
  run "verify-$size" "$cuzk" verify porep --c1 "$d/c1.json" --vk "$out/$size.vk" --proof "$out/$size.proof" \
    --inputs "$out/$size.json" || fails=$((fails + 1))
  run "vanilla-$size" "$cuzk" verify porep --c1 "$d/c1.json" --vanilla-only || fails=$((fails + 1))
  python3 "$here/tests/cli/flip_path.py" "$d/c1.json" "$d/flip.json"
  refused "vanilla-flipped-$size" "tree C path" "$cuzk" verify porep --c1 "$d/flip.json" --vanilla-only
  refused "prove-flipped-$size" "tree C path" "$cuzk" prove porep --c1 "$d/flip.json" --params "$work/$size.params" \
    $gpu --out "$work/flip.proof" --quiet
  [ -e "$work/flip.proof" ] && { echo "   a proof was written for the flipped C1"; fails=$((fails + 1)); }
  if [ -n "${CUZK_SPARSE_BENCH:-}" ]; then # the cost of subgroup checks on this size's parameters
    "$cuzk" bench params --params "$work/$size.params" | tail -3
    "$cuzk" bench params --params "$work/$size.params" --checked | tail -3
  fi
  rm -f "$work/$size.params"
done
rm -rf "$work"
echo "device-sparse: $fails failed"
[ $fails -eq 0 ]
