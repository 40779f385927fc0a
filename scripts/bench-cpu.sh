#!/usr/bin/env bash
# CPU benchmarks for docs/BENCHMARKS.md: MSM G1/G2 beside blst's own Pippenger, NTT, and
# proving random:N. Prints one JSON object per line (bench --json) and a markdown table last.
# Usage: scripts/bench-cpu.sh [path/to/cuzk] [max_log2_msm] [max_log2_ntt] [max_log2_prove]
set -euo pipefail
CUZK=${1:-build/cuzk}
MSM_MAX=${2:-22}
NTT_MAX=${3:-24}
PROVE_MAX=${4:-20}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for g in "" "--g2"; do
  for lg in $(seq 16 2 "$MSM_MAX"); do
    reps=3; [ "$lg" -ge 22 ] && reps=1
    "$CUZK" bench msm --log2 "$lg" $g --reps $reps --json | tee -a "$out"
  done
done
for lg in $(seq 16 2 "$NTT_MAX"); do "$CUZK" bench ntt --log2 "$lg" --json | tee -a "$out"; done
for lg in $(seq 16 2 "$PROVE_MAX"); do
  reps=3; [ "$lg" -ge 20 ] && reps=1
  "$CUZK" bench prove --circuit "random:$((1 << lg))" --reps $reps --json | tee -a "$out"
done
python3 - "$out" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
print("\n| benchmark | size | threads | cuzk | per core | blst 1 call | ratio |")
print("|---|---|---|---|---|---|---|")
for r in rows:
    if r["bench"] == "msm":
        print(f"| MSM {r['group']} | 2^{r['log2']} | {r['threads']} | {r['cuzk_seconds']*1e3:.1f} ms | "
              f"{r['cuzk_points_per_s_per_core']/1e3:.0f} k pts/s | {r['blst_1thread_seconds']*1e3:.1f} ms "
              f"({r['blst_points_per_s']/1e3:.0f} k pts/s) | {r['ratio']:.3f} |")
print("\n| NTT | threads | forward | inverse | coset forward |")
print("|---|---|---|---|---|")
for r in rows:
    if r["bench"] == "ntt":
        print(f"| 2^{r['log2']} | {r['threads']} | {r['forward_seconds']*1e3:.1f} ms | {r['inverse_seconds']*1e3:.1f} ms | "
              f"{r['coset_forward_seconds']*1e3:.1f} ms |")
print("\n| prove | constraints | threads | setup | synthesize | prove |")
print("|---|---|---|---|---|---|")
for r in rows:
    if r["bench"] == "prove":
        print(f"| {r['circuit']} | {r['constraints']} | {r['threads']} | {r['setup_seconds']:.2f} s | "
              f"{r['synthesize_seconds']*1e3:.1f} ms | {r['prove_seconds']*1e3:.1f} ms |")
PY
