#!/usr/bin/env bash
# Where the time goes: the accumulation kernel with and without its register cap, checked
# and timed side by side, then profiled MSM and prover runs (CUZK_GPU_PROFILE=1 prints each
# stage, synchronized). Usage (GPU host, repository root): scripts/gpu-explore.sh BIN_DIR
set -uo pipefail
bin=${1:?usage: gpu-explore.sh BIN_DIR}
out=${OUT:-/tmp/gpu-explore}
mkdir -p "$out"
export LD_LIBRARY_PATH=$(cd "$(dirname "$0")/.." && pwd)/.devdeps/jansson/lib:${LD_LIBRARY_PATH:-}
c=$bin/cuzk
for m in 1 4; do
  echo "== CUZK_GPU_ACCUM_MINB=$m"
  CUZK_GPU_ACCUM_MINB=$m CUZK_GPU_TEST_LARGE=0 CUZK_GPU_TEST_ONLY=msm timeout 100 "$bin/test_gpu" > "$out/test_$m.log" 2>&1
  echo "test_gpu msm rc=$? $(grep -c differs "$out/test_$m.log") differ"
  for lg in 24 26; do
    CUZK_GPU_ACCUM_MINB=$m timeout 100 $c bench gpu-msm --log2 $lg --reps 3 | tail -2 | head -1
  done
done
echo "== profiles"
CUZK_GPU_PROFILE=1 timeout 100 $c bench gpu-msm --log2 26 --reps 1 2>&1 | grep "\[gpu\]" | tail -13
timeout 100 $c bench gpu-msm --g2 --log2 22 --reps 3 | tail -2 | head -1
CUZK_GPU_TEST_LARGE=0 CUZK_GPU_TEST_ONLY=prover timeout 100 "$bin/test_gpu" > "$out/test_prover.log" 2>&1; echo "test_gpu prover rc=$?"
CUZK_GPU_PROFILE=1 timeout 200 $c bench gpu-prove --log2 27 --reps 2 > "$out/prove27.log" 2>&1
echo "(profile summed over the two proofs)"
grep "\[gpu\]" "$out/prove27.log" | awk '{lab=substr($0,7,28); a[lab]+=$(NF-1)} END {for (k in a) printf "%s %10.1f ms\n", k, a[k]}' | sort | head -24
tail -22 "$out/prove27.log"
