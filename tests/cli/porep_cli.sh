#!/usr/bin/env bash
# TIER slow (alone on 2 cores: 300 s: five 2 KiB PoRep proofs, and bench e2e with and without failed sectors)
# TIMEOUT 2400
# PoRep C2 end to end at 2 KiB: seal -> C1 JSON -> prove porep -> verify porep (ours and the
# independent npm verifier); bad C1 files and mismatched parameters get a clear error and no
# proof. Parameters for porep:2KiB are generated once and cached in the build tree.
. "$(dirname "$0")/lib.bash"

cached_params porep:2KiB
P=$PARAMS V=$VK

# the real devnet sector's public data (porep-circuit.md §4): comm_d and comm_r reproduced
seal_sector s 1 --prover-id t01002 \
  --ticket c3a1ca12b981a8a59f9a4764edf3398edd239b2afa8ca2bbd57e0091ec193aa0 \
  --seed 62a9ec8794bdb9cf9899e3e1fde9dd3c84ecb285bfeeace7fdbf4924b25eba85
grep -q '"comm_d": "fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833"' s/sector.json || fail "devnet comm_d"
grep -q '"comm_r": "b70cfe76f30bdc2abb6b495b6c999f692061800dbc8ac916c66cb5ec3c6f6528"' s/sector.json || fail "devnet comm_r"

expect_ok "prove porep" "$CUZK" prove porep --c1 s/c1.json --params "$P" --vk "$V" --out s.proof --inputs s.json --quiet \
  --trace porep.trace.json
expect_ok "prove porep's trace" python3 "$(dirname "$0")/trace_check.py" porep.trace.json --jobs 1 \
  --process 'cuzk prove porep' --track 'witness lane' --span 'partition 0'
[ "$(stat -c %s s.proof 2>/dev/null)" = 192 ] || fail "proof is not 192 bytes"
expect_ok "verify porep --c1" "$CUZK" verify porep --c1 s/c1.json --vk "$V" --proof s.proof
expect_ok "verify porep --public" "$CUZK" verify porep --public s/sector.json --vk "$V" --proof s.proof --inputs s.json
expect_ok "verify porep --inputs" "$CUZK" verify porep --inputs s.json --vk "$V" --proof s.proof
expect_ok "verify (generic) with the inputs" "$CUZK" verify --vk "$V" --proof s.proof --inputs s.json
if [ -d "$CUZK_SOURCE_DIR/tests/interop/node_modules/@noble/curves" ]; then
  expect_ok "independent npm verifier" node "$CUZK_SOURCE_DIR/tests/interop/verify.mjs" --vk "$V" --proof s.proof --inputs s.json
else
  fail "@noble/curves is not installed (scripts/install-interop.sh)"
fi

# the fast path: parallel witness + precompiled circuit (recorded on first use, then loaded)
expect_ok "prove porep --pce (record)" "$CUZK" prove porep --c1 s/c1.json --params "$P" --out p1.proof --pce s.pce --quiet
expect_ok "prove porep --pce (load)" "$CUZK" prove porep --c1 s/c1.json --params "$P" --out p2.proof --pce s.pce --quiet
expect_ok "verify the pce proofs" "$CUZK" verify porep --c1 s/c1.json --vk "$V" --proof p2.proof
python3 -c "d=bytearray(open('s.pce','rb').read()); d[len(d)//3]^=1; open('bad.pce','wb').write(d)"
expect_fail "corrupted pce" 1 "checksum" "$CUZK" prove porep --c1 s/c1.json --params "$P" --out x.proof --pce bad.pce --quiet
no_file "no proof with a corrupted pce" x.proof

# on the GPU: a verified proof where there is a device, otherwise a clear error and no proof
CHECKS=$((CHECKS + 1))
if "$CUZK" prove porep --c1 s/c1.json --params "$P" --out g.proof --pce s.pce --gpu --quiet >out.txt 2>err.txt; then
  expect_ok "verify the GPU proof" "$CUZK" verify porep --c1 s/c1.json --vk "$V" --proof g.proof
else
  grep -Eq "CUDA|GPU" err.txt || fail "prove porep --gpu without a device: $(head -c 300 err.txt)"
  no_file "no GPU proof without a device" g.proof
fi

# the GPU partition benchmark on a real circuit: usage errors, then a run (or a clear error)
expect_fail "bench gpu-prove --circuit without --pce" 2 "usage" "$CUZK" bench gpu-prove --circuit porep:2KiB
expect_fail "bench gpu-prove --pce without --circuit" 2 "usage" "$CUZK" bench gpu-prove --pce s.pce
expect_fail "bench gpu-msm --circuit" 2 "usage" "$CUZK" bench gpu-msm --circuit porep:2KiB --pce s.pce
CHECKS=$((CHECKS + 1))
if "$CUZK" bench gpu-prove --circuit porep:2KiB --pce s.pce --partitions 2 --reps 2 >out.txt 2>err.txt; then
  grep -q "s/partition" out.txt || fail "bench gpu-prove --circuit: no table: $(head -c 300 out.txt)"
  expect_fail "bench gpu-prove --circuit unknown" 1 "unknown|nope" "$CUZK" bench gpu-prove --circuit nope:1 --pce n.pce
  no_file "no pce for an unknown circuit" n.pce
else
  grep -Eq "CUDA|GPU|device" err.txt || fail "bench gpu-prove --circuit without a device: $(head -c 300 err.txt)"
fi

# a different sector does not verify against this proof
seal_sector t 2
expect_fail "other sector's public data" 1 "FAILED" "$CUZK" verify porep --public t/sector.json --vk "$V" --proof s.proof

# bench e2e: two sectors' C1 files proved in turn through the engine, every proof verified; the
# last sector's (t) proofs and inputs written and checked by verify porep
expect_ok "bench e2e" "$CUZK" bench e2e --c1 s/c1.json,t/c1.json --params "$P" --vk "$V" --sectors 2 --brief \
  --proof e.proof --inputs e.json --trace e2e.trace.json
grep -q "porep-2k, 2 sector(s) from 2 C1 file(s), 1 at a time, 0 failed" out.txt || fail "bench e2e: $(cat out.txt)"
[ "$(grep -c 'COMPLETED in .* every proof verified' out.txt)" = 2 ] || fail "bench e2e sectors: $(cat out.txt)"
grep -Eq "^  load \(parameters, circuit\) [0-9.]+ s" out.txt || fail "bench e2e load time: $(cat out.txt)"
expect_ok "bench e2e's trace: both sectors, nested" python3 "$(dirname "$0")/trace_check.py" e2e.trace.json --jobs 2 \
  --process 'cuzk bench e2e' --track 'witness lane' --track '^job 2$' --span 'verify (batch, CPU)'
expect_ok "bench e2e's proof" "$CUZK" verify porep --c1 t/c1.json --vk "$V" --proof e.proof --inputs e.json
expect_fail "bench e2e --sectors 0" 2 "sectors 1..10000" "$CUZK" bench e2e --c1 s/c1.json --params "$P" --sectors 0
expect_fail "bench e2e without params" 2 "missing required option --params" "$CUZK" bench e2e --c1 s/c1.json
expect_fail "bench e2e of a missing C1" 1 "nope.json" "$CUZK" bench e2e --c1 s/c1.json,nope.json --params "$P"
expect_fail "bench e2e --proof over the parameters" 1 "is the input file given as --params" "$CUZK" bench e2e \
  --c1 s/c1.json --params "$P" --proof "$P"

# bad C1 files: nothing written
python3 - <<'PY'
import json
c1 = json.load(open("s/c1.json"))
proof = c1["vanilla_proofs"]["StackedDrg2KiBV1"][0][0]
h = proof["replica_column_proofs"]["drg_parents"][0]["inclusion_proof"]["data"]["Single"]["path"]["path"][0]["hashes"]
h[0][3] ^= 0x10                      # one flipped bit in a Merkle path
json.dump(c1, open("flip.json", "w"), separators=(",", ":"))
c1 = json.load(open("s/c1.json")); c1["comm_r"][0] ^= 1
json.dump(c1, open("commr.json", "w"), separators=(",", ":"))
c1 = json.load(open("s/c1.json")); c1["registered_proof"] = "StackedDrg2KiBV2"
json.dump(c1, open("type.json", "w"), separators=(",", ":"))
data = open("s/c1.json", "rb").read(); open("trunc.json", "wb").write(data[: len(data) // 2])
PY
expect_fail "flipped Merkle path bit" 1 "drg_parents|drg parent|inclusion|tree C" "$CUZK" prove porep --c1 flip.json --params "$P" --out x.proof --quiet
no_file "no proof for a flipped bit" x.proof
# bench e2e with a bad sector among good ones: it fails, and its median is the verified sectors' only
expect_fail "bench e2e with a failed sector" 1 "median [0-9.]+ s each \(min [0-9.]+, max [0-9.]+\) of the 1 verified; 1 failed, left out" \
  "$CUZK" bench e2e --c1 flip.json,s/c1.json --params "$P" --vk "$V" --sectors 3 --brief
grep -q "3 sector(s) from 2 C1 file(s), 1 at a time, 2 failed" out.txt || fail "bench e2e with a failed sector: $(cat out.txt)"
grep -q "first sector after load   none: it failed" out.txt || fail "bench e2e's failed first sector: $(cat out.txt)"
expect_fail "bench e2e, every sector failed" 1 "no median: none of them was proved and verified" \
  "$CUZK" bench e2e --c1 flip.json --params "$P" --vk "$V" --sectors 2 --brief
expect_fail "--check names the constraint" 1 "challenge_0/drg_parent_0_inclusion/" "$CUZK" prove porep --c1 flip.json --params "$P" --out x.proof --check --quiet
no_file "no proof with --check" x.proof
expect_ok "--check on a good C1" "$CUZK" prove porep --c1 s/c1.json --params "$P" --out c.proof --check --quiet
expect_fail "wrong comm_r" 1 "comm_r" "$CUZK" prove porep --c1 commr.json --params "$P" --out x.proof --quiet
no_file "no proof for a wrong comm_r" x.proof
expect_fail "truncated C1" 1 "trunc.json" "$CUZK" prove porep --c1 trunc.json --params "$P" --out x.proof --quiet
expect_fail "unsupported proof type" 1 "StackedDrg2KiBV2" "$CUZK" prove porep --c1 type.json --params "$P" --out x.proof --quiet
expect_ok "cubic params" "$CUZK" setup --circuit cubic --params c.params --vk c.vk --quiet
expect_fail "parameters of another circuit" 1 "which fit no PoRep partition, but the C1 is of a 2KiB sector" "$CUZK" prove porep --c1 s/c1.json --params c.params --out x.proof --quiet
no_file "no proof for wrong params" x.proof
expect_fail "wrong vk" 1 "FAILED|does not verify|wrong number of public inputs" "$CUZK" verify porep --c1 s/c1.json --vk c.vk --proof s.proof
head -c 100 s.proof > short.proof
expect_fail "short proof" 1 "192" "$CUZK" verify porep --c1 s/c1.json --vk "$V" --proof short.proof
expect_fail "missing c1" 1 "cannot open" "$CUZK" prove porep --c1 nope.json --params "$P" --out x.proof
expect_fail "bad sector size" 2 "2KiB, 8MiB or 512MiB" "$CUZK" seal --sector-size 3KiB --out z
expect_fail "bad ticket" 2 "ticket" "$CUZK" seal --sector-size 2KiB --out z --ticket 12
expect_fail "bad prover id" 2 "prover id" "$CUZK" seal --sector-size 2KiB --out z --prover-id bogus
finish
