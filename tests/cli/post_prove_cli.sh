#!/usr/bin/env bash
# TIER fast (alone on 2 cores: 17 s)
# WindowPoSt and WinningPoSt end to end at 2 KiB: seal -> `cuzk post vanilla` -> `cuzk prove
# window-post|winning-post` (through the engine, as the daemon proves) -> `cuzk verify` (ours,
# with the public inputs recomputed from the vanilla folder) and the independent npm verifier.
# Bad input (a flipped byte of a Merkle path, a wrong comm_r, a wrong randomness, a truncated
# blob, too many sectors, another kind's folder) fails with the blob and field named and no
# proof written. Parameters are made once into the test cache.
. "$(dirname "$0")/lib.bash"

cached_params window-post:2KiB
WP=$PARAMS WV=$VK
cached_params winning-post:2KiB
NP=$PARAMS NV=$VK
R=2b2c2d2e2f303132333435363738393a3b3c3d3e3f404142434445464748494a
R2=1b2c2d2e2f303132333435363738393a3b3c3d3e3f404142434445464748494a
seal_sector s1 11
seal_sector s2 12
expect_ok "window vanilla" "$CUZK" post vanilla --kind window --sector s1 --sector s2 --randomness $R --out w
expect_ok "winning vanilla" "$CUZK" post vanilla --kind winning --sector s2 --randomness $R --out n

npm_verify() { node "$CUZK_SOURCE_DIR/tests/interop/verify.mjs" "$@"; }
have_npm=false
if command -v node >/dev/null && [ -f "$CUZK_SOURCE_DIR/tests/interop/node_modules/@noble/curves/package.json" ]; then
  have_npm=true
fi

for k in window winning; do
  if [ $k = window ]; then P=$WP V=$WV d=w; else P=$NP V=$NV d=n; fi
  expect_ok "prove $k-post" "$CUZK" prove $k-post --vanilla $d --params "$P" --vk "$V" --out $d.proof --inputs $d.json --quiet
  [ "$(stat -c %s $d.proof 2>/dev/null)" = 192 ] || fail "$k-post proof is not 192 bytes"
  expect_ok "verify $k-post --vanilla" "$CUZK" verify $k-post --vanilla $d --vk "$V" --proof $d.proof
  grep -q "^OK: 1 partition proof" out.txt || fail "verify $k-post: $(cat out.txt)"
  expect_ok "verify $k-post --vanilla --inputs" "$CUZK" verify $k-post --vanilla $d --vk "$V" --proof $d.proof --inputs $d.json
  expect_ok "generic verify of $k-post" "$CUZK" verify --vk "$V" --proof $d.proof --inputs $d.json
  if $have_npm; then
    expect_ok "independent npm verifier, $k-post" npm_verify --vk "$V" --proof $d.proof --inputs $d.json
  else
    echo "note: the npm verifier is not installed (scripts/install-interop.sh): its check of $k-post is not run"
  fi
done
# the public inputs: per sector comm_r then 10 challenges; winning: 66 slots of (comm_r, challenge)
[ "$(grep -o '"[0-9]*"' w.json | wc -l)" = 22 ] || fail "window-post 2KiB has 22 public inputs"
[ "$(grep -o '"[0-9]*"' n.json | wc -l)" = 132 ] || fail "winning-post 2KiB has 132 public inputs"

# a proof does not verify against another randomness's public inputs
expect_ok "window vanilla, other randomness" "$CUZK" post vanilla --kind window --sector s1 --sector s2 --randomness $R2 --out w2
expect_fail "proof against other randomness" 1 "FAILED" "$CUZK" verify window-post --vanilla w2 --vk "$WV" --proof w.proof
expect_fail "inputs of other randomness" 1 "differ" "$CUZK" verify window-post --vanilla w2 --vk "$WV" --proof w.proof --inputs w.json

# bad vanilla folders: each refused naming the blob and field, and no proof written
bad() { # bad DESC PATTERN DIR: prove refuses DIR
  expect_fail "$1" 1 "$2" "$CUZK" prove window-post --vanilla "$3" --params "$WP" --out bad.proof --quiet
  no_file "$1" bad.proof
}
cp -r w flip && python3 - flip/vanilla-1.bin <<'PY'
import sys
p = sys.argv[1]; b = bytearray(open(p, 'rb').read()); b[600] ^= 1; open(p, 'wb').write(b)
PY
bad "flipped path byte" "vanilla proof 1|blob 1" flip
cp -r w rnd && sed -i "s/\"randomness\": \"$R\"/\"randomness\": \"$R2\"/" rnd/post.json
bad "wrong randomness" "challenge|leaf" rnd
cp -r w cr
python3 - w/vanilla-0.bin cr/vanilla-0.bin <<'PY'
import sys
b = bytearray(open(sys.argv[1], 'rb').read()); b[8] ^= 0x10; open(sys.argv[2], 'wb').write(b)  # comm_r follows the u64 sector id
PY
bad "wrong comm_r" "comm_r" cr
cp -r w tr && head -c 3000 w/vanilla-0.bin > tr/vanilla-0.bin
bad "truncated blob" "vanilla proof 0|blob 0" tr
cp -r w many && python3 - many/post.json <<'PY'
import json, sys
p = sys.argv[1]; d = json.load(open(p)); d["sectors"].append(dict(d["sectors"][0])); open(p, "w").write(json.dumps(d))
PY
bad "three sectors in a 2-sector partition" "1 to 2 sectors" many
bad "a winning folder given as window" "WinningPoSt" n
expect_fail "missing folder" 1 "cannot open" "$CUZK" prove window-post --vanilla nowhere --params "$WP" --out bad.proof
no_file "missing folder" bad.proof
expect_fail "missing --vanilla" 2 "vanilla" "$CUZK" prove window-post --params "$WP" --out bad.proof
finish
