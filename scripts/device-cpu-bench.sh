#!/usr/bin/env bash
# The CPU benchmark suite for docs/BENCHMARKS.md in one run (made for the 16-core device
# host): MSM (our layer at 1 thread beside blst's Pippenger, and at all threads), NTT, proving
# random:N, synthesis scaling on a SHA-heavy circuit of about 2^22 constraints, PoRep seal /
# synthesis / C2 per sector size, and one 32 GiB partition's witness (synthetic vanilla data).
# Prints one JSON object per measurement.
# Usage: scripts/device-cpu-bench.sh CUZK [sizes...]     (sizes default: 2KiB 8MiB)
set -uo pipefail
CUZK=$(realpath "${1:?usage: device-cpu-bench.sh CUZK [sizes...]}")
shift
SIZES=("$@")
[ ${#SIZES[@]} -gt 0 ] || SIZES=(2KiB 8MiB)
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
T=$(nproc)
echo "{\"machine\":\"$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')\",\"cpus\":$T}"

for lg in 16 18 20; do
  "$CUZK" bench msm --log2 $lg --threads 1 --reps 1 --json
  "$CUZK" bench msm --log2 $lg --threads 1 --reps 1 --g2 --json
done
for lg in 16 18 20 22; do
  "$CUZK" bench msm --log2 $lg --reps 3 --no-blst --json
  "$CUZK" bench msm --log2 $lg --reps 3 --no-blst --g2 --json
done
for lg in 16 18 20 22 24; do "$CUZK" bench ntt --log2 $lg --reps 3 --json; done
for lg in 16 18 20; do "$CUZK" bench prove --circuit "random:$((1 << lg))" --reps 3 --json; done

# synthesis on a SHA-heavy circuit of about 2^22 constraints, 1..T threads
for t in 1 2 4 8 16; do
  [ "$t" -le "$T" ] || continue
  "$CUZK" bench synth --circuit parts:16:sha256:576 --mode witness --threads $t --reps 3 --json
  "$CUZK" bench synth --circuit parts:16:sha256:576 --mode pce --threads $t --reps 3 --json
done
"$CUZK" bench synth --circuit parts:16:sha256:576 --mode prove --reps 3 --json

# one 32 GiB partition's witness, synthetic vanilla data of that shape
"$CUZK" bench synth --circuit porep:32GiB --synthetic --mode witness --reps 3 --json

# PoRep per sector size: seal, synthesis, setup (once), C2 through the precompiled circuit
"$here/bench-porep.sh" "$CUZK" "$work/cache" "${SIZES[@]}"
