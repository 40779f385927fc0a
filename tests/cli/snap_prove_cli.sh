#!/usr/bin/env bash
# TIER slow (alone on 2 cores: 46 s: SnapDeals proofs with 625 MiB of parameters)
# SnapDeals end to end at 2 KiB: seal -> `cuzk snap encode` -> `cuzk prove snap` (through the
# engine, as the daemon proves) -> `cuzk verify snap` (ours, the public inputs recomputed from
# the folder) and the independent npm verifier. Bad input (a flipped path byte, a wrong
# comm_r_old / comm_r_new / comm_d_new, a truncated blob, another sector's blob, a PoSt folder)
# fails naming what is wrong, and no proof is written. Parameters are made once into the test
# cache (about a minute here).
. "$(dirname "$0")/lib.bash"

cached_params snap:2KiB
P=$PARAMS V=$VK
seal_sector s1 21
seal_sector s2 22
expect_ok "encode into sector 21" "$CUZK" snap encode --sector s1 --random-data 7 --out u
expect_ok "encode into sector 22" "$CUZK" snap encode --sector s2 --random-data 8 --out u2

expect_ok "prove snap" "$CUZK" prove snap --vanilla u --params "$P" --vk "$V" --out u.proof --inputs u.json --quiet
[ "$(stat -c %s u.proof 2>/dev/null)" = 192 ] || fail "snap 2KiB proof is not 192 bytes (one partition)"
expect_ok "verify snap --vanilla" "$CUZK" verify snap --vanilla u --vk "$V" --proof u.proof
grep -q "^OK: 1 partition proof" out.txt || fail "verify snap: $(cat out.txt)"
expect_ok "verify snap --vanilla --inputs" "$CUZK" verify snap --vanilla u --vk "$V" --proof u.proof --inputs u.json
[ "$(grep -o '"[0-9]*"' u.json | wc -l)" = 4 ] || fail "snap has 4 public inputs"
if command -v node >/dev/null && [ -f "$CUZK_SOURCE_DIR/tests/interop/node_modules/@noble/curves/package.json" ]; then
  expect_ok "independent npm verifier" node "$CUZK_SOURCE_DIR/tests/interop/verify.mjs" --vk "$V" --proof u.proof --inputs u.json
else
  echo "note: the npm verifier is not installed (scripts/install-interop.sh): its check is not run"
fi
expect_fail "proof against another sector's update" 1 "FAILED" "$CUZK" verify snap --vanilla u2 --vk "$V" --proof u.proof

bad() { # bad DESC PATTERN DIR
  expect_fail "$1" 1 "$2" "$CUZK" prove snap --vanilla "$3" --params "$P" --out bad.proof --quiet
  no_file "$1" bad.proof
}
cp -r u flip && python3 - flip/partition-0.bin <<'PY'
import sys
p = sys.argv[1]; b = bytearray(open(p, 'rb').read()); b[len(b) // 2] ^= 1; open(p, 'wb').write(b)
PY
bad "flipped byte" "blob 0|partition 0" flip
for f in comm_r_old comm_r_new comm_d_new; do
  cp -r u "w-$f"
  other=$(sed -n "s/.*\"$f\": \"\\([0-9a-f]*\\)\".*/\\1/p" u2/update.json)
  sed -i "s/\"$f\": \"[0-9a-f]*\"/\"$f\": \"$other\"/" "w-$f/update.json"
  bad "wrong $f" "comm_|root|apex" "w-$f"
done
cp -r u tr && head -c 1000 u/partition-0.bin > tr/partition-0.bin
bad "truncated blob" "blob 0|partition 0" tr
cp -r u other && cp u2/partition-0.bin other/partition-0.bin
bad "another sector's blob" "comm_|root|apex|challenge" other
expect_ok "winning vanilla" "$CUZK" post vanilla --kind winning --sector s1 --randomness "$(printf '%064d' 0)" --out n
bad "a PoSt folder" "update.json" n
expect_fail "missing --params" 2 "params" "$CUZK" prove snap --vanilla u --out bad.proof
no_file "missing --params" bad.proof
finish
