#!/usr/bin/env bash
# Builds two source trees on the GPU host and times them against each other in one call,
# alternating old and new so that clock and thermal drift fall on both alike.
#   scripts/device-compare.sh OLD_SRC build|micro|partition [REPS]
#   build      cmake + build cuzk and test_gpu of both trees (OLD_SRC and this tree)
#   micro      G1 MSM 2^26, G2 MSM 2^24, NTT 2^27: REPS rounds, old then new each round
#   partition  the 32 GiB PoRep partition through the pipeline (10 partitions), old, new, old, new
#   test       test_gpu of this tree (quick: CUZK_GPU_TEST_LARGE=0)
#   engine     this tree's engine on the GPU: verified proofs of random:65536 through
#              `bench engine`, then the 32 GiB PoRep shape (synthetic data and parameters) with a
#              CRITICAL random:524288 job mid-run; then old and new `bench gpu-prove` (REPS jobs)
# JSON lines go to $OUT/compare.jsonl, logs to $OUT. Needs .devdeps from scripts/device-prep.sh.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
old=$(cd "${1:?usage: device-compare.sh OLD_SRC build|micro|partition|test [REPS]}" && pwd)
what=${2:?}
reps=${3:-2}
out=${OUT:-/tmp/compare}
mkdir -p "$out"
export LD_LIBRARY_PATH=$root/.devdeps/jansson/lib:$root/.devdeps/inih/lib:$root/.devdeps/lib:${LD_LIBRARY_PATH:-}
export PKG_CONFIG_PATH=$root/.devdeps/jansson/lib/pkgconfig:$root/.devdeps/inih/lib/pkgconfig:$root/.devdeps/ssl/lib/pkgconfig
bo=/tmp/build-old bn=/tmp/build-new
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
build_one() { # src dir log
  cmake -S "$1" -B "$2" -DBLST_DIR="$root/.devdeps/blst" -DXXHASH_INCLUDE="$root/.devdeps/xxhash" \
    -DCMAKE_CUDA_COMPILER="$nvcc" -DCUZK_CUDA=ON -DCUZK_CUDA_ARCHS=90 >"$3" 2>&1 &&
    cmake --build "$2" -j8 --target cuzk test_gpu >>"$3" 2>&1
}
case $what in
build)
  t0=$(date +%s)
  build_one "$old" $bo "$out/build-old.log" & p1=$!
  build_one "$root" $bn "$out/build-new.log" & p2=$!
  wait $p1; r1=$?; wait $p2; r2=$?
  echo "build old rc $r1, new rc $r2 in $(( $(date +%s) - t0 )) s"
  [ $r1 -eq 0 ] && [ $r2 -eq 0 ] || fail=1
  [ $r1 -eq 0 ] || grep -E "error" "$out/build-old.log" | head
  [ $r2 -eq 0 ] || grep -E "error" "$out/build-new.log" | head
  exit ${fail:-0}
  ;;
test)
  CUZK_GPU_TEST_LARGE=0 timeout 400 $bn/test_gpu >"$out/test_gpu.txt" 2>&1
  echo "test_gpu exit $?"
  grep -E "FAIL|differs|contexts|done in|checks" "$out/test_gpu.txt" | head -30
  ;;
micro)
  for r in $(seq "$reps"); do
    for b in old new; do
      d=/tmp/build-$b
      for args in "gpu-msm --log2 26 --reps 5" "gpu-msm --g2 --log2 24 --reps 3" "gpu-ntt --log2 27 --reps 5"; do
        line=$($d/cuzk bench $args --json 2>>"$out/bench.err" | tail -1)
        echo "{\"build\":\"$b\",\"round\":$r,\"args\":\"$args\",\"result\":$line}" >>"$out/compare.jsonl"
        echo "$b $args: $(echo "$line" | python3 -c 'import json,sys; r=json.load(sys.stdin); print("%.3f ms" % (r.get("median_s", r.get("forward_s", 0)) * 1e3), "ns/pt %.3f" % r["ns_per_point"] if "ns_per_point" in r else "fwd %.3f inv %.3f cfwd %.3f cinv %.3f ms" % (r["forward_s"]*1e3, r["inverse_s"]*1e3, r["coset_forward_s"]*1e3, r["coset_inverse_s"]*1e3))' 2>/dev/null)"
      done
    done
  done
  ;;
partition)
  pce=/tmp/porep32.pce
  for b in old new old new; do
    d=/tmp/build-$b
    t0=$(date +%s)
    timeout 300 $d/cuzk bench gpu-prove --circuit porep:32GiB --pce $pce --partitions 10 --reps 2 \
      >"$out/partition-$b.txt" 2>&1
    echo "$b rc $? in $(( $(date +%s) - t0 )) s"
    grep -E "partition [0-9]+: prove" "$out/partition-$b.txt" | awk '{print $NF, $0}' | head -12 >"$out/partition-$b-lines.txt"
    grep -E "^ *partition [0-9]+: prove" "$out/partition-$b.txt" | head -10
    cat "$out/partition-$b.txt" >>"$out/partition-all.txt"
  done
  ;;
engine)
  bin=$bn/cuzk
  t0=$(date +%s)
  $bin setup --circuit random:65536 --params /tmp/r64k.params --vk /tmp/r64k.vk --quiet >"$out/setup.txt" 2>&1
  echo "setup random:65536 rc $? in $(( $(date +%s) - t0 )) s"
  timeout 120 $bin bench engine --kind circuit --circuit random:65536 --params /tmp/r64k.params --jobs 12 \
    --concurrency 3 --partitions 3 --gpu >"$out/engine-small.txt" 2>&1
  echo "engine random:65536 rc $?"; cat "$out/engine-small.txt"
  t0=$(date +%s)
  CUZK_ENGINE_WITNESS_BUFFER_BYTES=4200000000 timeout 420 $bin bench engine --kind porep --synthetic \
    --sector-size 32GiB --pce /tmp/porep32.pce --jobs "$reps" --concurrency 2 --gpu --critical random:524288 \
    >"$out/engine-32g.txt" 2>&1
  echo "engine porep 32GiB rc $? in $(( $(date +%s) - t0 )) s"; cat "$out/engine-32g.txt"
  ;;
gpuprove) # the pipeline's partition, old and new builds alternating
  for b in old new old new; do
    timeout 200 /tmp/build-$b/cuzk bench gpu-prove --circuit porep:32GiB --pce /tmp/porep32.pce --partitions 10 \
      --reps 2 >"$out/gpuprove-$b.txt" 2>&1
    echo "$b rc $?: $(grep -E "^ *partition [0-9]+: prove" "$out/gpuprove-$b.txt" | awk '{print $(NF-1)}' | sort -n | \
      awk '{a[NR]=$1} END {print "partitions", NR, "median", a[int((NR+1)/2)], "ms"}')"
  done
  ;;
esac
