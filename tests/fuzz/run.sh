#!/usr/bin/env bash
# Runs every fuzz target of a CUZK_FUZZ build for SECONDS each on its seed corpus (made here by
# fuzz_corpus_gen) and the corpus it grew in earlier runs. A crash, a failed invariant, a leak,
# a timeout (10 s) or an allocation beyond 2 GiB stops that target; the script runs the others,
# then exits 1 naming the ones that failed, with the inputs that did under BUILD/fuzz/crashes.
# Usage: tests/fuzz/run.sh BUILD_DIR [SECONDS] [TARGET...]
set -uo pipefail
build=$(realpath "${1:?usage: run.sh BUILD_DIR [SECONDS] [TARGET...]}")
secs=${2:-60}
shift $(($# < 2 ? $# : 2))
here=$(cd "$(dirname "$0")" && pwd)
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  mapfile -t targets < <(cd "$here" && ls fuzz_*.c | sed 's/\.c$//')
fi
seeds=$build/fuzz/seeds
rm -rf "$seeds"
mkdir -p "$build/fuzz"
"$build/fuzz_corpus_gen" "$seeds" || { echo "fuzz: the seed corpus could not be made" >&2; exit 1; }
mkdir -p "$build/fuzz/crashes"
failed=()
t0=$SECONDS
for t in "${targets[@]}"; do
  [ -x "$build/$t" ] || { echo "fuzz: $build/$t is not built" >&2; failed+=("$t"); continue; }
  corpus=$build/fuzz/corpus/$t
  mkdir -p "$corpus" "$seeds/$t"
  dict=()
  [ -f "$here/$t.dict" ] && dict=(-dict="$here/$t.dict")
  log=$build/fuzz/$t.log
  s0=$SECONDS
  "$build/$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$build/fuzz/crashes/$t-" "${dict[@]}" "$corpus" "$seeds/$t" >"$log" 2>&1
  rc=$?
  runs=$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -Eo '[0-9]+$' | tail -1)
  if [ $rc -ne 0 ]; then
    failed+=("$t")
    echo "fuzz: $t FAILED after $((SECONDS - s0)) s (exit $rc); $log:"
    grep -E "ERROR|invariant failed|SUMMARY|Test unit written|runtime error" "$log" | head -12 | sed 's/^/  /'
  else
    echo "fuzz: $t ok: ${runs:-?} runs in $((SECONDS - s0)) s, corpus $(ls "$corpus" | wc -l) inputs"
  fi
done
echo "fuzz: ${#targets[@]} targets in $((SECONDS - t0)) s"
if [ ${#failed[@]} -ne 0 ]; then
  echo "fuzz: failed: ${failed[*]} (inputs in $build/fuzz/crashes; rerun one with $build/TARGET FILE)" >&2
  exit 1
fi
