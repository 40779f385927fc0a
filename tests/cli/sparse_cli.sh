#!/usr/bin/env bash
# TIER slow (alone on 2 cores: 100 s: a 2 KiB PoRep proof, 32 and 64 GiB sparse seals)
# Sparse test sectors (cuzk seal --sparse). At 2 KiB: sparse seal -> prove porep -> verify
# porep (ours and the independent npm verifier), a tampered C1 refused. At 32 GiB and 64 GiB:
# sparse seals in moments, their C1s checked natively (verify porep --vanilla-only; no
# parameters, those are far too large for tests) and a tampered one refused. Options that do
# not go with --sparse are refused and leave nothing behind. Parameters for porep:2KiB come
# from the shared test cache (made once, as porep_cli.sh makes them).
FLIP_PATH_PY=$(cd "$(dirname "$0")" && pwd)/flip_path.py
. "$(dirname "$0")/lib.bash"

cached_params porep:2KiB
P=$PARAMS V=$VK
ticket=c3a1ca12b981a8a59f9a4764edf3398edd239b2afa8ca2bbd57e0091ec193aa0
seed=62a9ec8794bdb9cf9899e3e1fde9dd3c84ecb285bfeeace7fdbf4924b25eba85

# check_sector DIR PROOF SECTOR_ID: DIR holds c1.json and sector.json only, the latter a sparse
# sector's public data agreeing with the C1
check_sector() {
  CHECKS=$((CHECKS + 1))
  [ "$(ls "$1" | tr '\n' ' ')" = "c1.json sector.json " ] || fail "$1 holds $(ls "$1" | tr '\n' ' ')"
  python3 - "$1" "$2" "$3" <<'PY' || fail "$1/sector.json"
import json, sys
d, proof, sid = sys.argv[1], sys.argv[2], int(sys.argv[3])
s = json.load(open(d + "/sector.json"))
c1 = json.load(open(d + "/c1.json"))
hexs = lambda a: bytes(a).hex()
assert s["test_sector"] == "sparse", s
assert s["registered_proof"] == proof == c1["registered_proof"], (s["registered_proof"], c1["registered_proof"])
assert s["sector_id"] == sid, s
for k in ("comm_d", "comm_r", "replica_id", "seed", "ticket"):
    assert s[k] == hexs(c1[k]), k
PY
}

flip_path() { python3 "$FLIP_PATH_PY" "$@"; }

# ---------------------------------------------------------------- 2 KiB: proved and verified
t0=$SECONDS
seal_sector s 3 --sparse --prover-id t01002 --ticket "$ticket" --seed "$seed"
grep -q "sparse test sector StackedDrg2KiBV1_1 sector 3 (2KiB)" out.txt || fail "sparse seal summary: $(head -c 300 out.txt)"
grep -q "c1.json .* MiB" out.txt || fail "sparse seal summary lacks the C1 size: $(head -c 300 out.txt)"
check_sector s StackedDrg2KiBV1_1 3
# zero data: a CC sector's comm_d (the devnet sector of porep_cli.sh is one too)
grep -q '"comm_d": "fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833"' s/sector.json || fail "sparse comm_d"
seal_sector s2 3 --sparse --prover-id t01002 --ticket "$ticket" --seed "$seed"
cmp -s s/c1.json s2/c1.json || fail "the same sparse sector twice differs"

expect_ok "prove porep (sparse)" "$CUZK" prove porep --c1 s/c1.json --params "$P" --vk "$V" --out s.proof --inputs s.json --quiet
[ "$(stat -c %s s.proof 2>/dev/null)" = 192 ] || fail "proof is not 192 bytes"
expect_ok "verify porep --c1" "$CUZK" verify porep --c1 s/c1.json --vk "$V" --proof s.proof
expect_ok "verify porep --public" "$CUZK" verify porep --public s/sector.json --vk "$V" --proof s.proof --inputs s.json
expect_ok "verify (generic) with the inputs" "$CUZK" verify --vk "$V" --proof s.proof --inputs s.json
if [ -d "$CUZK_SOURCE_DIR/tests/interop/node_modules/@noble/curves" ]; then
  expect_ok "independent npm verifier" node "$CUZK_SOURCE_DIR/tests/interop/verify.mjs" --vk "$V" --proof s.proof --inputs s.json
else
  fail "@noble/curves is not installed (scripts/install-interop.sh)"
fi
expect_ok "verify porep --vanilla-only" "$CUZK" verify porep --c1 s/c1.json --public s/sector.json --vanilla-only
grep -q "^OK" out.txt || fail "verify porep --vanilla-only: $(head -c 300 out.txt)"
echo "2KiB sparse seal, prove and verify: $((SECONDS - t0)) s"

# a tampered sparse C1: refused natively before any proving, and by the vanilla check
flip_path s/c1.json flip.json
expect_fail "prove porep: flipped Merkle path byte" 1 "drg_parents\[0\]: tree C path" \
  "$CUZK" prove porep --c1 flip.json --params "$P" --out x.proof --quiet
no_file "no proof for a flipped byte" x.proof
expect_fail "verify porep --vanilla-only: flipped byte" 1 "drg_parents\[0\]: tree C path" \
  "$CUZK" verify porep --c1 flip.json --vanilla-only
python3 -c "
import json; c1 = json.load(open('s/c1.json')); c1['comm_r'][0] ^= 1
json.dump(c1, open('commr.json', 'w'), separators=(',', ':'))"
expect_fail "verify porep: tampered comm_r" 1 "FAILED" "$CUZK" verify porep --c1 commr.json --vk "$V" --proof s.proof
expect_fail "verify porep --vanilla-only: tampered comm_r" 1 "comm_r" "$CUZK" verify porep --c1 commr.json --vanilla-only
seal_sector t 4 --sparse
expect_fail "another sector's public data" 1 "FAILED" "$CUZK" verify porep --public t/sector.json --vk "$V" --proof s.proof
expect_fail "sector.json of another sector" 1 "differ" "$CUZK" verify porep --c1 s/c1.json --public t/sector.json --vanilla-only

# no replica: PoSt and SnapDeals refuse a sparse sector by name
expect_fail "post vanilla on a sparse sector" 1 "sparse" "$CUZK" post vanilla --kind winning --sector s \
  --randomness "$(printf '11%062d' 0)" --out pv
no_file "no PoSt output" pv
expect_fail "snap encode on a sparse sector" 1 "sparse" "$CUZK" snap encode --sector s --random-data 1 --out sv
no_file "no SnapDeals output" sv

# ---------------------------------------------------------------- 32 GiB and 64 GiB: no parameters
for case in "32GiB V1_1 StackedDrg32GiBV1_1" "64GiB V1 StackedDrg64GiBV1"; do
  set -- $case
  t0=$SECONDS
  seal_sector "l$1" 9 --sector-size "$1" --proof-type "$2" --sparse --ticket "$ticket" --seed "$seed"
  grep -q "$3 sector 9 ($1): 10 partition(s) of 18 challenges" out.txt || fail "$1 summary: $(head -c 300 out.txt)"
  echo "$1: $(head -1 out.txt) (wall $((SECONDS - t0)) s)"
  [ $((SECONDS - t0)) -lt 60 ] || fail "sparse seal $1 took $((SECONDS - t0)) s"
  check_sector "l$1" "$3" 9
  expect_ok "verify porep --vanilla-only $1" "$CUZK" verify porep --c1 "l$1/c1.json" --public "l$1/sector.json" --vanilla-only
  grep -q "^OK: the vanilla proofs of 10 partition(s)" out.txt || fail "vanilla-only $1: $(head -c 300 out.txt)"
done
flip_path l32GiB/c1.json flip32.json 5 10
expect_fail "verify porep --vanilla-only: flipped byte at 32GiB" 1 "\[5\]\[10\]: drg_parents\[0\]: tree C path" \
  "$CUZK" verify porep --c1 flip32.json --vanilla-only
expect_fail "prove porep at 32GiB without parameters" 1 "nope.params" \
  "$CUZK" prove porep --c1 l32GiB/c1.json --params nope.params --out x.proof --quiet
no_file "no 32GiB proof" x.proof

# ---------------------------------------------------------------- options that do not go with --sparse
expect_fail "--sparse with a non-interactive type" 2 "interactive proof type.*comm_r" \
  "$CUZK" seal --sector-size 2KiB --sparse --proof-type ni --out z
no_file "no output for ni" z
expect_fail "--sparse with a synthetic type" 2 "StackedDrg32GiBV1_1_Feat_SyntheticPoRep.*comm_r" \
  "$CUZK" seal --sector-size 32GiB --sparse --proof-type V1_1_Feat_SyntheticPoRep --out z
no_file "no output for synthetic" z
head -c 2048 /dev/zero >zeros
expect_fail "--sparse with --data" 2 "--data does not go with --sparse" \
  "$CUZK" seal --sector-size 2KiB --sparse --data zeros --out z
no_file "no output with --data" z
expect_fail "--sparse with an unknown size" 2 "not '16GiB'" "$CUZK" seal --sector-size 16GiB --sparse --out z
no_file "no output for an unknown size" z
expect_fail "32GiB without --sparse" 2 "needs --sparse" "$CUZK" seal --sector-size 32GiB --out z
no_file "no output without --sparse" z
expect_fail "--sparse with a zero seed" 2 "seed" "$CUZK" seal --sector-size 2KiB --sparse --seed "$(printf '0%.0s' {1..64})" --out z
no_file "no output for a zero seed" z
expect_fail "--sparse into a missing folder" 1 "cannot (create|make folder)" "$CUZK" seal --sector-size 2KiB --sparse --out no/such/z
no_file "no output in a missing folder" no
echo keep >file
expect_fail "--sparse onto a file" 1 "not a folder" "$CUZK" seal --sector-size 2KiB --sparse --out file
[ "$(cat file)" = keep ] || fail "the file given as --out was changed"
seal_sector full 1
cp full/c1.json full-c1.json
expect_fail "--sparse into a fully sealed sector's folder" 1 "fully sealed" "$CUZK" seal --sector-size 2KiB --sparse --out full
cmp -s full/c1.json full-c1.json || fail "the full seal's c1.json was changed"
expect_fail "--vanilla-only with --vk" 2 "drop --vk" "$CUZK" verify porep --c1 s/c1.json --vanilla-only --vk "$V" --proof s.proof
expect_fail "--vanilla-only without --c1" 2 "c1" "$CUZK" verify porep --public s/sector.json --vanilla-only
finish
