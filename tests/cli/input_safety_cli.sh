#!/usr/bin/env bash
# TIER fast (alone on 2 cores: 2 s)
# Integers are parsed exactly: an option or field beyond 2^64 - 1 is an error naming it (never
# a clamp to 2^64 - 1), and the largest sector ids round-trip through sector.json (above
# 2^63 - 1 as a decimal string) into the commands that read it. C1 errors name the file and the
# JSON path once, without doubled separators. A path too long for a reader is refused, never cut.
. "$(dirname "$0")/lib.bash"

R=0102030405060708091011121314151617181920212223242526272829303132
BIG=18446744073709551615

expect_fail "--sector-id beyond 2^64 - 1" 2 "--sector-id .*99999999999999999999 is larger than 2\^64 - 1" \
  "$CUZK" seal --sector-size 2KiB --out o1 --sector-id 99999999999999999999 --quiet
no_file "nothing sealed for a sector id out of range" o1
expect_fail "--sector-id not a number" 2 "--sector-id .*'12x'" "$CUZK" seal --sector-size 2KiB --out o1 --sector-id 12x
expect_fail "--sector-id negative" 2 "--sector-id" "$CUZK" seal --sector-size 2KiB --out o1 --sector-id -1
expect_fail "2^64" 2 "--sector-id expects 2\^K" "$CUZK" seal --sector-size 2KiB --out o1 --sector-id 2^64
expect_fail "prover id beyond 2^64 - 1" 2 "prover id 't099999999999999999999'" \
  "$CUZK" seal --sector-size 2KiB --out o1 --prover-id t099999999999999999999 --quiet
no_file "nothing sealed for a prover id out of range" o1

# the largest ids: sealed, written, read back exactly
expect_ok "seal with the largest ids" "$CUZK" seal --sector-size 2KiB --out s --prover-id t0$BIG --sector-id $BIG --quiet
grep -q "\"sector_id\": \"$BIG\"" s/sector.json || fail "sector.json: sector_id $BIG as a string: $(grep sector_id s/sector.json)"
expect_ok "seal 2^63 - 1" "$CUZK" seal --sector-size 2KiB --out m --sector-id 9223372036854775807 --quiet
grep -q '"sector_id": 9223372036854775807,' m/sector.json || fail "sector.json: 2^63 - 1 as a number"
# t0<2^64 - 1> is its own prover id, not a clamp of a larger one
expect_ok "seal with prover id 2^64 - 2" "$CUZK" seal --sector-size 2KiB --out p --prover-id t018446744073709551614 \
  --sector-id $BIG --quiet
[ "$(grep replica_id s/sector.json)" != "$(grep replica_id p/sector.json)" ] || fail "prover ids 2^64 - 1, 2^64 - 2 agree"

expect_ok "post vanilla reads the sector" "$CUZK" post vanilla --kind winning --sector s --randomness $R --out v
grep -q "\"sector_id\": \"$BIG\"" v/post.json || fail "post.json: sector_id $BIG as a string"
# post.json and the blob read back: the command gets as far as the (missing) key
expect_fail "verify winning-post reads post.json" 1 "missing.vk" \
  "$CUZK" verify winning-post --vanilla v --vk missing.vk --proof missing.proof
expect_ok "snap encode reads the sector" "$CUZK" snap encode --sector s --random-data 3 --out u

# a hand-edited sector.json: ids out of range or malformed are errors naming the field
sed "s/\"sector_id\": \"$BIG\"/\"sector_id\": \"18446744073709551616\"/" s/sector.json >big.json
expect_fail "sector_id string beyond 2^64 - 1" 1 'big.json: "sector_id": 18446744073709551616 is larger than 2\^64 - 1' \
  "$CUZK" verify porep --public big.json --vk missing.vk --proof missing.proof
sed "s/\"sector_id\": \"$BIG\"/\"sector_id\": -1/" s/sector.json >neg.json
expect_fail "negative sector_id" 1 'neg.json: "sector_id" must be an integer' \
  "$CUZK" verify porep --public neg.json --vk missing.vk --proof missing.proof
sed "s/\"sector_id\": \"$BIG\"/\"sector_id\": \"007\"/" s/sector.json >zeros.json
expect_fail "sector_id with leading zeros" 1 'zeros.json: "sector_id": .007. has leading zeros' \
  "$CUZK" verify porep --public zeros.json --vk missing.vk --proof missing.proof

# C1 errors: the file, then the JSON path, each once
echo '[]' >top.json
expect_fail "C1 that is no object" 1 "top.json: \(top\): expected an object" \
  "$CUZK" verify porep --c1 top.json --vk missing.vk --proof missing.proof
CHECKS=$((CHECKS + 1))
grep -q ': : ' err.txt && fail "doubled separator: $(head -c 300 err.txt)"
printf '{"SectorNum":1,"Phase1Out":"W10=","SectorSize":2048}' >wrap.json
expect_fail "wrapped C1 that is no object" 1 "wrap.json: Phase1Out \(decoded\): \(top\): expected an object" \
  "$CUZK" verify porep --c1 wrap.json --vk missing.vk --proof missing.proof
CHECKS=$((CHECKS + 1))
grep -q ': : ' err.txt && fail "doubled separator: $(head -c 300 err.txt)"

# a vanilla folder whose path with "/post.json" passes 4095 bytes is refused naming the bound;
# it was cut to ".../post.jso", and a decoy file of that name was read as the descriptor
long=$WORK/l
while [ ${#long} -lt 3900 ]; do long=$long/$(head -c 200 /dev/zero | tr '\0' d); done
long=$long/$(head -c $((4086 - ${#long} - 1)) /dev/zero | tr '\0' e)
mkdir -p "$long"
echo '{"kind":"window"}' >"$long/post.jso"
expect_fail "a vanilla folder path one byte too long for its descriptor" 1 "longer than the 4095 this reader takes" \
  "$CUZK" verify window-post --vanilla "$long" --vk missing.vk --proof missing.proof
# the sector folders of post vanilla and snap encode: too long for their files is an error
# naming the path (the cause kept after the long folder's name), and nothing is written
expect_fail "post vanilla: a --sector path too long for sector.json" 1 "/sector.json is 4098 bytes, longer than the 4095 this reader takes" \
  "$CUZK" post vanilla --kind window --sector "$long" --randomness 0102030405060708091011121314151617181920212223242526272829303132 --out pv
no_file "post vanilla: a --sector path too long" pv
expect_fail "snap encode: a --sector path too long for sector.json" 1 "/sector.json is 4098 bytes, longer than the 4095 this reader takes" \
  "$CUZK" snap encode --sector "$long" --random-data 1 --out se
no_file "snap encode: a --sector path too long" se
rm -rf "$WORK/l"
finish
