#!/usr/bin/env bash
# What the hot kernels execute: a static SASS opcode histogram per kernel (cuobjdump), and
# Nsight Compute's issue and pipe utilization for one launch of each (NTT pass, G1 and G2
# first-round accumulation). Multiplications run on the FMA pipe, and so do the IMAD forms
# the compiler uses for moves, shifts and adds (IMAD.MOV, IMAD.SHL, IMAD.IADD): their share
# is what separates a kernel's multiplication rate from the field benchmark's.
# Usage (GPU host, repository root): scripts/gpu-mix.sh BIN_DIR   (logs under $OUT or /tmp/gpu-mix)
set -uo pipefail
bin=${1:?usage: gpu-mix.sh BIN_DIR}
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-/tmp/gpu-mix}
mkdir -p "$out"
export LD_LIBRARY_PATH=$root/.devdeps/jansson/lib:$root/.devdeps/lib:${LD_LIBRARY_PATH:-}

# opcode histogram of the functions whose mangled name matches a pattern (first 2 name parts)
hist() { # label name-pattern
  awk -v pat="$2" '
    /Function :/ { on = ($0 ~ pat); if (on) nf++; next }
    on && /\/\*[0-9a-f]+\*\// {
      line = $0; sub(/^[^*]*\/\*[0-9a-f]+\*\/[ \t]*/, "", line); sub(/^@!?U?P[0-9T] /, "", line)
      split(line, w, /[ ;]/); n = split(w[1], part, ".")
      op = part[1]; if (n > 1 && (op == "IMAD" || op == "LDS" || op == "STS" || op == "LDG" || op == "STG")) op = op "." part[2]
      if (op != "" && op != "NOP") { c[op]++; tot++ }
    }
    END { printf "%s: %d functions, %d instructions\n", "'"$1"'", nf, tot
          for (o in c) printf "  %-12s %6d %5.1f%%\n", o, c[o], 100 * c[o] / tot | "sort -k2 -nr | head -24" }' "$out/sass.txt"
}
cuobjdump --dump-sass "$bin/cuzk" >"$out/sass.txt" 2>"$out/sass.err" || echo "cuobjdump failed: $(head -2 "$out/sass.err")"
hist "ntt pass" 'k_ntt_pass'
hist "G1 accumulation" 'k_accumI4fp_tLb1'
hist "G2 accumulation" 'k_accumI5fp2_tLb1'

metrics=smsp__issue_active.avg.pct_of_peak_sustained_active
for p in fma fmaheavy alu lsu; do
  metrics+=,sm__inst_executed_pipe_$p.avg.pct_of_peak_sustained_active
done
metrics+=,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_shared_cycles_active.avg.pct_of_peak_sustained_active
metrics+=,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active
prof() { # name kernel-regex args...
  local name=$1 re=$2; shift 2
  timeout 150 ncu --clock-control none --kernel-name-base demangled --kernel-name "regex:$re" --launch-skip 1 --launch-count 1 \
    --metrics "$metrics" "$bin/cuzk" bench "$@" >"$out/ncu-$name.txt" 2>&1
  echo "== ncu $name (rc $?)"
  grep -E "pct|sum|ERR" "$out/ncu-$name.txt" | sed 's/  */ /g' | head -14
}
prof ntt-pass 'k_ntt_pass' gpu-ntt --log2 24 --reps 2
prof accum-g1 'k_parallel_lb<k_accum<fp_t, \(bool\)1>' gpu-msm --log2 22 --reps 2
prof accum-g2 'k_accum<fp2_t, \(bool\)1>' gpu-msm --g2 --log2 20 --reps 2
