#!/usr/bin/env bash
# TIER fast (alone on 2 cores: 5 s, the random:1024 parameters cached)
# `cuzk bench gpu-place` places a circuit's parameters for a card of a given memory without a
# GPU: resident where they fit with a proof's workspace, streamed or mapped when [gpu] placement says so,
# L, A, B beside the H MSM where [gpu] stream_beside asks for it, the H MSM sorting a chunk ahead
# where it fits; compact witnesses where --witness-bits allows them; refused with the sizes named below the
# streamed workspace; JSON that parses; usage errors and
# files that are not parameters get exit status 2 and 1. `bench gpu-hold` needs a GPU.
. "$(dirname "$0")/lib.bash"

cached_params random:1024 || { finish; exit; }
expect_ok "place on a 16 GiB card" "$CUZK" bench gpu-place --params "$PARAMS" --memory-gib 16
grep -Eq "^random-1024.params +resident +[0-9.]+ " out.txt || fail "16 GiB: not resident: $(cat out.txt)"
grep -q "16.00 GiB the device may use" out.txt || fail "16 GiB: the room is not named: $(cat out.txt)"
expect_ok "place on a card too small" "$CUZK" bench gpu-place --params "$PARAMS" --memory-gib 0.01
grep -Eq "^random-1024.params +none +the device may use 0.01 GiB; .*needs at least" out.txt ||
  fail "0.01 GiB: no refusal naming the sizes: $(cat out.txt)"
printf '[gpu]\nplacement = streamed\nstream_chunk_log = 8\n' >streamed.ini
expect_ok "placement = streamed" "$CUZK" --config streamed.ini bench gpu-place --params "$PARAMS" --memory-gib 16 --json
python3 -c 'import json,sys; d=json.load(open("out.txt")); c=d["circuits"][0]
assert c["placement"]=="streamed" and c["chunk_points"]==256 and c["pinned_host_bytes"]>0, c
assert c["lab_beside_h"] is False and "beside" not in c["why"], c
assert c["h_sort_ahead"] is True and "H sorting a chunk ahead" in c["why"], c' 2>err.txt ||
  fail "streamed JSON: $(cat err.txt) $(cat out.txt)"
printf 'stream_beside = true\n' >>streamed.ini
expect_ok "stream_beside = true" "$CUZK" --config streamed.ini bench gpu-place --params "$PARAMS" --memory-gib 16 --json
python3 -c 'import json,sys; d=json.load(open("out.txt")); c=d["circuits"][0]
assert c["lab_beside_h"] is True and "L, A, B beside the H MSM" in c["why"], c' 2>err.txt ||
  fail "stream_beside = true: $(cat err.txt) $(cat out.txt)"
printf '[gpu]\nplacement = mapped\nstream_file_dir = /srv/scratch\n' >mapped.ini
expect_ok "placement = mapped" "$CUZK" --config mapped.ini bench gpu-place --params "$PARAMS" --memory-gib 16 --json
python3 -c 'import json,sys; d=json.load(open("out.txt")); c=d["circuits"][0]
assert c["placement"]=="mapped" and c["pinned_host_bytes"]==0 and c["file_bytes"]>0, c
assert "in a scratch file in /srv/scratch" in c["why"], c' 2>err.txt ||
  fail "mapped JSON: $(cat err.txt) $(cat out.txt)"
printf '[gpu]\nplacement = sideways\n' >bad.ini
expect_fail "an unknown placement" 1 'gpu.placement is "sideways": it must be auto, resident, streamed or mapped' \
  "$CUZK" --config bad.ini bench gpu-place --params "$PARAMS" --memory-gib 16
mkdir -p pdir && ln -sf "$PARAMS" pdir/a.params && ln -sf "$VK" pdir/a.vk
expect_ok "a folder" "$CUZK" bench gpu-place --dir pdir --memory-gib 16
[ "$(grep -c '^a.params ' out.txt)" = 1 ] || fail "--dir: not one row for its one .params file: $(cat out.txt)"

expect_fail "neither --params nor --dir" 2 "give --params FILE or --dir DIR" "$CUZK" bench gpu-place --memory-gib 16
expect_fail "--pce without --params" 2 "goes with --params" "$CUZK" bench gpu-place --dir pdir --pce x --memory-gib 16
expect_fail "a memory that is no number" 2 "--memory-gib must be a number of GiB above 0, not 'lots'" \
  "$CUZK" bench gpu-place --params "$PARAMS" --memory-gib lots
expect_fail "a key given as parameters" 1 "" "$CUZK" bench gpu-place --params "$VK" --memory-gib 16
expect_fail "a missing file" 1 "nope.params" "$CUZK" bench gpu-place --params nope.params --memory-gib 16
expect_fail "gpu-hold without --free-gib" 2 "free-gib" "$CUZK" bench gpu-hold
# compact witnesses for a circuit whose witnesses are nearly all 0 and 1 (--witness-bits; the
# engine knows its own circuits'), with the precompiled circuit (counted by its file's size): at
# 0.45 GiB they leave it room on the device, where full witnesses stream its matrices
if cached_params random:65536; then
  head -c 20000000 /dev/zero >pce.bin
  printf '[gpu]\nplacement = streamed\nstream_batch = 2\nstream_compact_permille = 40\n' >compact.ini
  for bits in --witness-bits ""; do
    expect_ok "compact witnesses ${bits:-not asked for}" "$CUZK" --config compact.ini bench gpu-place \
      --params "$PARAMS" --pce pce.bin --memory-gib 0.45 --json $bits
    python3 -c 'import json,sys; c=json.load(open("out.txt"))["circuits"][0]; bits=sys.argv[1]=="1"
assert c["placement"]=="streamed" and c["pce"]==("device" if bits else "streamed"), c
assert (c["compact_vals"]>0)==bits and ("compact form" in c["why"])==bits, c' "$([ -n "$bits" ] && echo 1 || echo 0)" \
      2>err.txt || fail "compact witnesses ${bits:-not asked for}: $(cat err.txt) $(cat out.txt)"
  done
fi
if ! "$CUZK" --version | grep -q "CUDA: yes"; then
  expect_fail "gpu-place without a GPU or --memory-gib" 1 "memory-gib G places for a card" \
    "$CUZK" bench gpu-place --params "$PARAMS"
  expect_fail "gpu-hold without CUDA" 1 "bench gpu-hold" "$CUZK" bench gpu-hold --free-gib 16
fi
finish
