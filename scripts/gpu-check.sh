#!/usr/bin/env bash
# Checks and times the GPU layer in one call, on a machine with a CUDA device:
#   1. environment (GPU, tools), 2. build (skipped when prebuilt binaries in .prebuilt run),
#   3. correctness: test_gpu (NTT vs CPU, MSM vs CPU incl. adversarial scalars, 2^24 MSM by
#      linearity, GPU proof bytes = CPU proof bytes, device SpMV = CPU, the GPU pipeline),
#   4. the steps named in GPU_CHECK_STEPS (default "bench circuit"):
#      bench   field, NTT, MSM G1/G2, synthetic partition prover
#      circuit a PoRep partition (porep:32GiB in full mode, 512MiB in quick) through its
#              resident precompiled circuit, then 10 partitions through the pipeline
#      cpu     CPU MSM on all cores
#      porep   PoRep C2 end to end (seal, setup, prove on CPU and GPU, verify) at 2KiB, 8MiB
#   5. a summary table, printed last.
# Logs and JSON lines go to $OUT (or /tmp/gpu-check).  Usage: scripts/gpu-check.sh [quick|full]
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-/tmp/gpu-check}
mode=${1:-full}
mkdir -p "$out"
jl=$out/bench.jsonl
: > "$jl"
t_start=$(date +%s)
echo "== environment"
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,driver_version --format=csv,noheader 2>&1 | head -2
for t in cmake nvcc pkg-config python3; do printf '%-11s %s\n' "$t" "$(command -v $t || echo missing)"; done
nproc
export LD_LIBRARY_PATH=$root/.devdeps/jansson/lib:$root/.devdeps/inih/lib:$root/.devdeps/lib:${LD_LIBRARY_PATH:-}
steps=" ${GPU_CHECK_STEPS:-bench circuit} "
want() { [[ "$steps" == *" $1 "* ]]; }
export CUZK_THREADS=${CUZK_THREADS:-0}

bin=""
if [ -x "$root/.prebuilt/cuzk" ] && "$root/.prebuilt/cuzk" --help >/dev/null 2>&1; then
  bin=$root/.prebuilt
  echo "== using prebuilt binaries"
else
  echo "== build"
  build=$root/build-dev
  nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
  export PKG_CONFIG_PATH=$root/.devdeps/jansson/lib/pkgconfig:$root/.devdeps/inih/lib/pkgconfig
  if ! cmake -S "$root" -B "$build" -DBLST_DIR="$root/.devdeps/blst" -DCMAKE_CUDA_COMPILER="$nvcc" \
       -DCUZK_CUDA=ON -DCUZK_CUDA_ARCHS=90 >"$out/cmake.log" 2>&1; then tail -20 "$out/cmake.log"; exit 1; fi
  if ! cmake --build "$build" -j"$(nproc)" --target cuzk test_gpu >"$out/build.log" 2>&1; then
    grep -E "error" "$out/build.log" | head -20; exit 1; fi
  bin=$build
fi
echo "   build/setup done at $(( $(date +%s) - t_start )) s"

echo "== correctness (test_gpu)"
large=1
[ "$mode" = quick ] && large=0
CUZK_GPU_TEST_LARGE=$large timeout ${GPU_CHECK_TEST_TIMEOUT:-300} "$bin/test_gpu" >"$out/test_gpu.log" 2>&1
test_rc=$?
grep -E "FAIL|differs|SKIPPED|done in|prover |device:|checks" "$out/test_gpu.log" | head -40
echo "   test_gpu exit $test_rc at $(( $(date +%s) - t_start )) s"

budget=${GPU_CHECK_BUDGET:-570} # seconds for the whole script (one device call is 600 at most)
bench() { # name timeout args...: skipped when the budget is spent
  local name=$1 to=$2
  shift 2
  local left=$(( budget - ($(date +%s) - t_start) ))
  if [ "$left" -lt 20 ]; then echo "   bench $name skipped (time budget)"; return; fi
  [ "$to" -gt "$left" ] && to=$left
  timeout "$to" "$bin/cuzk" bench "$@" --json >>"$jl" 2>>"$out/bench.err" || echo "   bench $name failed (rc $?)" | tee -a "$out/bench.err"
}
echo "== benchmarks"
if want bench; then
  bench field 60 gpu-field
  for lg in 20 24 27; do bench ntt$lg 120 gpu-ntt --log2 $lg --reps 5; done
  for lg in 20 22 24 26; do bench msm$lg 180 gpu-msm --log2 $lg --reps 5; done
  for lg in 20 22 24; do bench g2msm$lg 240 gpu-msm --g2 --log2 $lg --reps 3; done
  bench prove20 240 gpu-prove --log2 20 --reps 2
  [ "$mode" = full ] && bench prove27 480 gpu-prove --log2 27 --reps 3
  bench msm26-075 180 gpu-msm --log2 26 --reps 3 --ones-fraction 0.75
  bench ntt26 120 gpu-ntt --log2 26 --reps 5
  [ "$mode" = full ] && bench msm27 240 gpu-msm --log2 27 --reps 3
fi
if want circuit; then
  size=512MiB
  [ "$mode" = full ] && size=32GiB
  pce=${TMPDIR:-/tmp}/cuzk-check-porep-$size.pce
  timeout 420 "$bin/cuzk" bench gpu-prove --circuit porep:$size --pce "$pce" --partitions 10 --reps 3 \
    >"$out/circuit-$size.txt" 2>&1 || echo "   bench circuit-$size failed (rc $?)"
  rm -f "$pce"
fi
if want cpu; then
  for g in "" --g2; do for lg in 20 22; do
    timeout 120 "$bin/cuzk" bench msm --log2 $lg $g --no-blst --reps 3 --json >>"$jl" 2>>"$out/bench.err"
  done; done
fi
if want porep; then
  bash "$root/scripts/device-porep.sh" "$bin/cuzk" "$out" 2KiB 8MiB >>"$jl" 2>>"$out/bench.err"
fi
echo "   benchmarks done at $(( $(date +%s) - t_start )) s"
tail -5 "$out/bench.err" 2>/dev/null

echo "== summary ($(date -u +%Y-%m-%d), test_gpu exit $test_rc)"
python3 - "$jl" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
for r in rows:
    b = r["bench"]
    if b == "gpu-field":
        for f in r["forms"]:
            print("field  %-44s %6.2f Gmul/s" % (f["form"], f["mul_per_s"] / 1e9))
    elif b == "gpu-ntt":
        print("ntt    2^%-2d fwd %8.2f ms  inv %8.2f  coset fwd %8.2f  coset inv %8.2f" % (r["log2"], r["forward_s"] * 1e3, r["inverse_s"] * 1e3, r["coset_forward_s"] * 1e3, r["coset_inverse_s"] * 1e3))
    elif b == "gpu-msm":
        print("msm    %s 2^%-2d ones %.2f  %9.2f ms  %6.2f ns/pt  c=%d tail=%d" % (r["group"], r["log2"], r["ones_fraction"], r["median_s"] * 1e3, r["ns_per_point"], r["window_bits"], r["tail"]))
    elif b == "gpu-prove" and "circuit" in r:
        print("circuit %s  2^%d  first %.3f s  best %.3f s  %d partitions %.3f s/partition  witness %.3f s  device %.1f GiB (circuit %.1f)  peak RSS %.1f GiB" % (r["circuit"], r["log2"], r["first_s"], r["best_s"], r["partitions"], r["pipeline_s"] / max(r["partitions"], 1), r["witness_s"], r["device_bytes_used"] / 2**30, r["pce_device_bytes"] / 2**30, r["peak_rss_kib"] / 2**20))
        for s in r.get("timeline", []):
            if s.get("parent", -1) >= 0:
                print("         %-22s %8.1f ms" % (s["name"], s["seconds"] * 1e3))
    elif b == "msm":
        print("cpu msm %s" % json.dumps(r))
    elif b in ("seal", "setup", "prove porep", "synth"):
        print("porep  %s" % json.dumps(r))
    elif b == "gpu-prove":
        print("prove  2^%-2d first %.3f s  best %.3f s  device %.1f GiB  pinned host %.1f GiB  peak RSS %.1f GiB" % (r["log2"], r["first_s"], r["best_s"], r["device_bytes_used"] / 2**30, r["pinned_host_bytes"] / 2**30, r["peak_rss_kib"] / 2**20))
        for s in r.get("timeline", []):
            if s.get("parent", -1) >= 0:
                print("         %-22s %8.1f ms" % (s["name"], s["seconds"] * 1e3))
PY
for f in "$out"/circuit-*.txt; do [ -f "$f" ] && { echo "== $(basename "$f")"; cat "$f"; }; done
cp "$out/test_gpu.log" "$out/test_gpu.txt" 2>/dev/null
exit $test_rc
