#!/usr/bin/env bash
# Where the time goes: profiled MSM, NTT and prover runs (CUZK_GPU_PROFILE=1 prints each
# stage, synchronized), and the accumulation kernel's register-cap variants side by side.
# Usage (on the GPU host, from the repository root): scripts/gpu-explore.sh BIN_DIR
set -uo pipefail
bin=${1:?usage: gpu-explore.sh BIN_DIR}
out=${OUT:-/tmp/gpu-explore}
mkdir -p "$out"
export LD_LIBRARY_PATH=$(cd "$(dirname "$0")/.." && pwd)/.devdeps/jansson/lib:${LD_LIBRARY_PATH:-}
c=$bin/cuzk
echo "== quick correctness"
CUZK_GPU_TEST_LARGE=0 timeout 200 "$bin/test_gpu" > "$out/test_gpu.log" 2>&1; echo "test_gpu rc=$?"; grep -E "FAIL|differs|checks" "$out/test_gpu.log" | head
echo "== accumulation variants (G1)"
for lg in 24 26; do for m in 1 3 4; do
  printf 'minb=%s ' $m; CUZK_GPU_ACCUM_MINB=$m timeout 120 $c bench gpu-msm --log2 $lg --reps 3 | tail -2 | head -1
done; done
echo "== profiles"
CUZK_GPU_PROFILE=1 timeout 120 $c bench gpu-msm --log2 26 --reps 1 2>&1 | grep "\[gpu\]" | tail -12
CUZK_GPU_PROFILE=1 timeout 120 $c bench gpu-ntt --log2 27 --reps 1 2>&1 | grep "\[gpu\]" | tail -5
timeout 120 $c bench gpu-msm --g2 --log2 22 --reps 3 | tail -2 | head -1
CUZK_GPU_PROFILE=1 timeout 120 $c bench gpu-msm --g2 --log2 22 --reps 1 2>&1 | grep "\[gpu\]" | tail -8
CUZK_GPU_PROFILE=1 timeout 300 $c bench gpu-prove --log2 27 --reps 2 > "$out/prove27.log" 2>&1
echo "(profile summed over the two proofs)"
grep "\[gpu\]" "$out/prove27.log" | awk '{lab=substr($0,7,28); a[lab]+=$(NF-1)} END {for (k in a) printf "%s %10.1f ms\n", k, a[k]}' | sort -t'|' -k1 | head -20
tail -25 "$out/prove27.log"
