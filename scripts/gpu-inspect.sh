#!/usr/bin/env bash
# Tool-assisted looks at the GPU code on a device host (repository root, prebuilt binaries):
#   1. compute-sanitizer memcheck over test_gpu's resident-circuit part (device SpMV, proofs
#      through the resident circuit, the GPU pipeline) at small sizes;
#   2. Nsight Compute on the kernels that decide the MSM's speed (G1 and G2 first-round
#      accumulation) and on one NTT pass: occupancy, warp stall reasons, issue rates.
# Usage: scripts/gpu-inspect.sh BIN_DIR   (logs under $OUT or /tmp/gpu-inspect)
set -uo pipefail
bin=${1:?usage: gpu-inspect.sh BIN_DIR}
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-/tmp/gpu-inspect}
mkdir -p "$out"
export LD_LIBRARY_PATH=$root/.devdeps/jansson/lib:$root/.devdeps/lib:${LD_LIBRARY_PATH:-}
[ "${GPU_INSPECT_SKIP_MEMCHECK:-0}" = 1 ] || {
echo "== memcheck: test_gpu resident-circuit part"
CUZK_GPU_TEST_LARGE=0 CUZK_GPU_TEST_ONLY=pce timeout 200 compute-sanitizer --tool memcheck --leak-check no \
  "$bin/test_gpu" >"$out/memcheck.log" 2>&1
echo "rc=$? $(grep -E "ERROR SUMMARY|checks," "$out/memcheck.log" | tr '\n' ' ')"
grep -m 5 -E "Invalid|out of bounds" "$out/memcheck.log"
}
sections="--section LaunchStats --section Occupancy --section WarpStateStats --section SchedulerStats --section ComputeWorkloadAnalysis"
prof() { # name kernel-regex args...
  local name=$1 re=$2; shift 2
  timeout 150 ncu --clock-control none --kernel-name-base demangled --kernel-name "regex:$re" --launch-skip 1 --launch-count 1 $sections \
    "$bin/cuzk" bench "$@" >"$out/ncu-$name.txt" 2>&1
  echo "== ncu $name (rc $?)"
  grep -E "Registers Per|Achieved Occupancy|Theoretical Occupancy|Warp Cycles Per Issued|Issue Slots Busy|Executed Ipc A|No Eligible|highest-utilized|stalled" "$out/ncu-$name.txt" | head -16
}
prof accum-g1 'k_parallel_lb<k_accum<fp_t, \(bool\)1>' gpu-msm --log2 22 --reps 2
prof accum-g2 'k_accum<fp2_t, \(bool\)1>' gpu-msm --g2 --log2 20 --reps 2
prof ntt-pass 'k_ntt_pass' gpu-ntt --log2 24 --reps 2
