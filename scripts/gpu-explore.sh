#!/usr/bin/env bash
# Where the time goes: the accumulation kernel with and without its register cap, checked
# and timed side by side, then profiled MSM and prover runs (CUZK_GPU_PROFILE=1 prints each
# stage, synchronized). With `sweep`: the MSM tuning knobs (window bits, points per thread
# in the first accumulation round, chunk size) swept for G1 2^26 and G2 2^24 instead. With
# `ab OTHER_BIN_DIR`: the same benchmarks from two builds side by side (a code change
# measured against the build before it, in one call).
# Usage (GPU host, repository root): scripts/gpu-explore.sh BIN_DIR [sweep | ab OTHER_BIN_DIR]
set -uo pipefail
bin=${1:?usage: gpu-explore.sh BIN_DIR [sweep]}
out=${OUT:-/tmp/gpu-explore}
mkdir -p "$out"
export LD_LIBRARY_PATH=$(cd "$(dirname "$0")/.." && pwd)/.devdeps/jansson/lib:$(cd "$(dirname "$0")/.." && pwd)/.devdeps/lib:${LD_LIBRARY_PATH:-}
c=$bin/cuzk
if [ "${2:-}" = ab ]; then
  other=${3:?usage: gpu-explore.sh BIN_DIR ab OTHER_BIN_DIR}
  "$c" bench gpu-field
  row() { # label args...: one benchmark from both builds, alternating, best median of each
    local label=$1; shift
    local a b
    a=$(timeout 200 "$c" bench "$@" --json 2>>"$out/ab.err")
    b=$(timeout 200 "$other/cuzk" bench "$@" --json 2>>"$out/ab.err")
    python3 - "$label" "$a" "$b" <<'PY'
import json, sys
def val(s):
    try:
        r = json.loads(s)
    except Exception:
        return None
    if r["bench"] == "gpu-ntt": return r["forward_s"] * 1e3
    if r["bench"] == "gpu-msm": return r["ns_per_point"]
    if r["bench"] == "gpu-prove": return r["best_s"] * 1e3
a, b = val(sys.argv[2]), val(sys.argv[3])
f = lambda v: "failed" if v is None else "%.2f" % v
print("%-22s %12s %12s %8s" % (sys.argv[1], f(a), f(b), "%.3f" % (a / b) if a and b else "-"))
PY
  }
  echo "benchmark (ms or ns/pt)        this        other   ratio"
  row "ntt 2^24 ms" gpu-ntt --log2 24 --reps 5
  row "ntt 2^27 ms" gpu-ntt --log2 27 --reps 5
  row "msm g1 2^24 ns/pt" gpu-msm --log2 24 --reps 5
  row "msm g1 2^26 ns/pt" gpu-msm --log2 26 --reps 5
  row "msm g2 2^24 ns/pt" gpu-msm --g2 --log2 24 --reps 3
  row "prove 2^27 ms" gpu-prove --log2 27 --reps 2
  exit 0
fi
if [ "${2:-}" = sweep ]; then
  one() { # label env... -- bench args...: prints label, ns/point, window bits
    local label=$1; shift
    local envs=()
    while [ "$1" != -- ]; do envs+=("$1"); shift; done
    shift
    env "${envs[@]}" timeout 120 "$c" bench gpu-msm "$@" --json 2>>"$out/sweep.err" |
      python3 -c 'import json,sys; r=json.loads(sys.stdin.read()); print("%-34s %8.2f ns/pt  %9.2f ms  c=%d" % (sys.argv[1], r["ns_per_point"], r["median_s"]*1e3, r["window_bits"]))' "$label" ||
      echo "$label failed"
  }
  CUZK_GPU_PROFILE=1 timeout 100 $c bench gpu-msm --log2 26 --reps 1 2>&1 | grep "\[gpu\]" | tail -14
  one "G1 2^26 default" -- --log2 26 --reps 5
  for s1 in 64 256 512 1024 3072; do one "G1 2^26 S1=$s1" CUZK_GPU_MSM_S1=$s1 -- --log2 26 --reps 5; done
  for cc in 18 19 21; do one "G1 2^26 c=$cc" CUZK_GPU_MSM_C=$cc -- --log2 26 --reps 5; done
  for ch in 16777216 67108864; do one "G1 2^26 chunk=$ch" CUZK_GPU_MSM_CHUNK=$ch -- --log2 26 --reps 5; done
  one "G2 2^24 default" -- --g2 --log2 24 --reps 3
  for cc in 16 18; do one "G2 2^24 c=$cc" CUZK_GPU_MSM_C=$cc -- --g2 --log2 24 --reps 3; done
  for s1 in 64 256 1024; do one "G2 2^24 S1=$s1" CUZK_GPU_MSM_S1=$s1 -- --g2 --log2 24 --reps 3; done
  exit 0
fi
for m in false true; do
  echo "== CUZK_GPU_MSM_ACCUM_REG_CAP=$m"
  for lg in 24 26; do
    CUZK_GPU_MSM_ACCUM_REG_CAP=$m timeout 100 $c bench gpu-msm --log2 $lg --reps 3 | tail -2 | head -1
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
