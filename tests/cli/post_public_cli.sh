#!/usr/bin/env bash
# TIER fast (alone on 2 cores: 29 s)
# The public sectors of a PoSt vanilla folder: post.json's sector ids and comm_r are the
# statement `cuzk verify` and `cuzk prove` check the vanilla proofs against and make the public
# inputs of, not a note beside the blobs. `cuzk post vanilla` lists the sectors in ascending id
# order (whatever the --sector order). A post.json naming another sector, a zero comm_r, the
# sectors out of order, one sector twice, blobs in another order than their sectors or a
# malformed sector entry is refused by verify and by prove, naming the field, the position and
# both values; the untouched folders prove and verify. 2 KiB sectors; parameters come from the
# shared test cache.
. "$(dirname "$0")/lib.bash"

cached_params window-post:2KiB
WP=$PARAMS WV=$VK
cached_params winning-post:2KiB
NP=$PARAMS NV=$VK
R=3b3c3d3e3f404142434445464748494a4b4c4d4e4f505152535455565758590a
seal_sector s1 21
seal_sector s2 22
comm_r1=$(sed -n 's/.*"comm_r": "\([0-9a-f]*\)".*/\1/p' s1/sector.json)
comm_r2=$(sed -n 's/.*"comm_r": "\([0-9a-f]*\)".*/\1/p' s2/sector.json)

# the sectors given in descending order: post.json lists them by ascending id (post_cli.sh
# checks the folder is the one the ascending order gives)
expect_ok "window vanilla, sectors given 22 then 21" \
  "$CUZK" post vanilla --kind window --sector s2 --sector s1 --randomness $R --out w
CHECKS=$((CHECKS + 1))
grep -q "{\"sector_id\": 21, \"comm_r\": \"$comm_r1\", \"vanilla_proof\": \"vanilla-0.bin\"}" w/post.json ||
  fail "post.json: sector 21 is not first: $(cat w/post.json)"
grep -q "{\"sector_id\": 22, \"comm_r\": \"$comm_r2\", \"vanilla_proof\": \"vanilla-1.bin\"}" w/post.json ||
  fail "post.json: sector 22 is not second"
expect_ok "winning vanilla" "$CUZK" post vanilla --kind winning --sector s2 --randomness $R --out n

# the untouched folders prove and verify
expect_ok "prove window-post" "$CUZK" prove window-post --vanilla w --params "$WP" --vk "$WV" --out w.proof --quiet
expect_ok "verify window-post" "$CUZK" verify window-post --vanilla w --vk "$WV" --proof w.proof
grep -q "^OK: 1 partition proof" out.txt || fail "verify window-post: $(cat out.txt)"
expect_ok "prove winning-post" "$CUZK" prove winning-post --vanilla n --params "$NP" --vk "$NV" --out n.proof --quiet
expect_ok "verify winning-post" "$CUZK" verify winning-post --vanilla n --vk "$NV" --proof n.proof
grep -q "^OK: 1 partition proof" out.txt || fail "verify winning-post: $(cat out.txt)"

# edit SRC DST STATEMENT: DST is SRC with post.json (as d) changed by the Python statement
edit() {
  cp -r "$1" "$2" && python3 - "$2/post.json" "$3" <<'PY'
import json, sys
p = sys.argv[1]
d = json.load(open(p))
exec(sys.argv[2])
open(p, "w").write(json.dumps(d, indent=2))
PY
}
# refused DESC PATTERN KIND DIR: verify (against the untouched folder's proof) and prove refuse
# DIR with PATTERN in their message, and prove writes nothing
refused() {
  local desc=$1 pattern=$2 kind=$3 dir=$4 P V proof
  if [ "$kind" = window ]; then P=$WP V=$WV proof=w.proof; else P=$NP V=$NV proof=n.proof; fi
  expect_fail "verify: $desc" 1 "$pattern" "$CUZK" verify $kind-post --vanilla "$dir" --vk "$V" --proof $proof
  grep -q "^OK" out.txt && fail "verify: $desc: said OK"
  expect_fail "prove: $desc" 1 "$pattern" "$CUZK" prove $kind-post --vanilla "$dir" --params "$P" --out bad.proof --quiet
  no_file "prove: $desc" bad.proof
}
Z=0000000000000000000000000000000000000000000000000000000000000000
HEX='[0-9a-f]{64}'

edit w w_id 'd["sectors"][1]["sector_id"] = 23'
refused "window: another sector id" "sector_id is 22, but public sectors\[1\]\.sector_id is 23" window w_id
edit w w_zero 'd["sectors"][0]["comm_r"] = "00" * 32'
refused "window: zero comm_r" "blob 0 \(sector 21\): comm_r is $comm_r1, but public sectors\[0\]\.comm_r is $Z" \
  window w_zero
edit w w_cr 'd["sectors"][1]["comm_r"] = d["sectors"][0]["comm_r"]'
refused "window: another sector's comm_r" "blob 1 \(sector 22\): comm_r is $comm_r2, but public sectors\[1\]\.comm_r is $comm_r1" \
  window w_cr
# the issue's case: other sectors, zero comm_r
edit w w_other 'for i, s in enumerate(d["sectors"]): s.update(sector_id=100 + i, comm_r="00" * 32)'
refused "window: other sectors with zero comm_r" "sector_id is 21, but public sectors\[0\]\.sector_id is 100" window w_other
edit w w_swap 'd["sectors"].reverse()'
refused "window: sectors in descending order" \
  "public sectors\[1\]\.sector_id is 21, after 22 in sectors\[0\]: .*ascending" window w_swap
edit w w_blobs 's = d["sectors"]; s[0]["vanilla_proof"], s[1]["vanilla_proof"] = s[1]["vanilla_proof"], s[0]["vanilla_proof"]'
refused "window: blobs swapped under their sectors" "blob 0: sector_id is 22, but public sectors\[0\]\.sector_id is 21" \
  window w_blobs
edit w w_dup 'd["sectors"][1]["sector_id"] = 21'
refused "window: one sector id twice" "public sectors\[0\] and sectors\[1\] both have sector_id 21" window w_dup
edit w w_big 'd["sectors"][1]["sector_id"] = "18446744073709551615"'
refused "window: the largest sector id" "sector_id is 22, but public sectors\[1\]\.sector_id is 18446744073709551615" \
  window w_big
edit w w_neg 'd["sectors"][0]["sector_id"] = -1'
refused "window: a negative sector id" "sectors\[0\]\.sector_id must be an integer" window w_neg
edit w w_nocr 'del d["sectors"][0]["comm_r"]'
refused "window: no comm_r" "sectors\[0\]\.comm_r missing" window w_nocr
edit w w_short 'd["sectors"][0]["comm_r"] = "00" * 31'
refused "window: a short comm_r" "sectors\[0\]\.comm_r" window w_short

edit n n_id 'd["sectors"][0]["sector_id"] = 99'
refused "winning: another sector id" "sector_id is 22, but public sectors\[0\]\.sector_id is 99" winning n_id
edit n n_zero 'd["sectors"][0]["comm_r"] = "00" * 32'
refused "winning: zero comm_r" "comm_r is $HEX, but public sectors\[0\]\.comm_r is $Z" winning n_zero

# the untouched folders still verify (nothing above changed them)
expect_ok "verify window-post again" "$CUZK" verify window-post --vanilla w --vk "$WV" --proof w.proof
expect_ok "verify winning-post again" "$CUZK" verify winning-post --vanilla n --vk "$NV" --proof n.proof
finish
