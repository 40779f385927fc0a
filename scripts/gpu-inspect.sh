#!/usr/bin/env bash
# Tool-assisted looks at the GPU code on a device host (repository root, prebuilt binaries):
#   1. compute-sanitizer memcheck over test_gpu's resident-circuit part (device SpMV, proofs
#      through the resident circuit, the GPU pipeline) at small sizes;
#   2. Nsight Compute on the kernels that decide the MSM's speed (G1 and G2 first-round
#      accumulation) and on one NTT pass: occupancy, warp stall reasons, issue rates.
# With `mix` instead: what those kernels execute, a static SASS opcode histogram per kernel
# (cuobjdump) and Nsight Compute's issue and pipe use. Multiplications run on the FMA-heavy
# pipe, and so do the IMAD forms the compiler uses for moves, shifts and adds (IMAD.MOV,
# IMAD.SHL, IMAD.IADD): their share separates a kernel's multiplication rate from the field
# benchmark's.
# Usage: scripts/gpu-inspect.sh BIN_DIR [mix]   (logs under $OUT or /tmp/gpu-inspect)
set -uo pipefail
bin=${1:?usage: gpu-inspect.sh BIN_DIR [mix]}
mode=${2:-}
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-/tmp/gpu-inspect}
mkdir -p "$out"
export LD_LIBRARY_PATH=$root/.devdeps/jansson/lib:$root/.devdeps/lib:${LD_LIBRARY_PATH:-}
if [ "$mode" = mix ]; then
  # opcode histogram of the functions whose mangled name matches a pattern
  hist() { # label name-pattern
    awk -v pat="$2" -v label="$1" '
      /Function :/ { on = ($0 ~ pat); if (on) nf++; next }
      on && /\/\*[0-9a-f]+\*\// {
        line = $0; sub(/^[^*]*\/\*[0-9a-f]+\*\/[ \t]*/, "", line); sub(/^@!?U?P[0-9T] /, "", line)
        split(line, w, /[ ;]/); n = split(w[1], part, ".")
        op = part[1]; if (n > 1 && (op == "IMAD" || op == "LDS" || op == "STS" || op == "LDG" || op == "STG")) op = op "." part[2]
        if (op != "" && op != "NOP") { c[op]++; tot++ }
      }
      END { printf "%s: %d functions, %d instructions\n", label, nf, tot
            for (o in c) printf "  %-12s %6d %5.1f%%\n", o, c[o], 100 * c[o] / tot | "sort -k2 -nr | head -24" }' "$out/sass.txt"
  }
  cuobjdump --dump-sass "$bin/cuzk" >"$out/sass.txt" 2>"$out/sass.err" || echo "cuobjdump failed: $(head -2 "$out/sass.err")"
  hist "ntt pass" 'k_ntt_pass'
  hist "G1 accumulation" 'k_accumI4fp_tLb1'
  hist "G2 accumulation" 'k_accumI5fp2_tLb1'
  rm -f "$out/sass.txt"
  what=--metrics
  sections=smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active
  for p in fma fmaheavy alu lsu; do sections+=,sm__inst_executed_pipe_$p.avg.pct_of_peak_sustained_active; done
  sections+=,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum
  show="pct|sum|ERR"
else
  [ "${GPU_INSPECT_SKIP_MEMCHECK:-0}" = 1 ] || {
    echo "== memcheck: test_gpu resident-circuit part"
    CUZK_GPU_TEST_LARGE=0 CUZK_GPU_TEST_ONLY=pce timeout 200 compute-sanitizer --tool memcheck --leak-check no \
      "$bin/test_gpu" >"$out/memcheck.log" 2>&1
    echo "rc=$? $(grep -E "ERROR SUMMARY|checks," "$out/memcheck.log" | tr '\n' ' ')"
    grep -m 5 -E "Invalid|out of bounds" "$out/memcheck.log"
  }
  what=
  sections="--section LaunchStats --section Occupancy --section WarpStateStats --section SchedulerStats --section ComputeWorkloadAnalysis"
  show="Registers Per|Achieved Occupancy|Theoretical Occupancy|Warp Cycles Per Issued|Issue Slots Busy|Executed Ipc A|No Eligible|highest-utilized|stalled"
fi
prof() { # name kernel-regex args...
  local name=$1 re=$2; shift 2
  timeout 150 ncu --clock-control none --kernel-name-base demangled --kernel-name "regex:$re" --launch-skip 1 --launch-count 1 $what $sections \
    "$bin/cuzk" bench "$@" >"$out/ncu-$name.txt" 2>&1
  echo "== ncu $name (rc $?)"
  grep -E "$show" "$out/ncu-$name.txt" | sed 's/  */ /g' | head -16
}
prof accum-g1 'k_parallel_lb<k_accum<fp_t, \(bool\)1>' gpu-msm --log2 22 --reps 2
prof accum-g2 'k_accum<fp2_t, \(bool\)1>' gpu-msm --g2 --log2 20 --reps 2
prof ntt-pass 'k_ntt_pass' gpu-ntt --log2 24 --reps 2
