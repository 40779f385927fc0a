#!/usr/bin/env bash
# TIER fast (alone on 2 cores: 29 s)
# Fallback PoSt at 2 KiB: seal sectors -> `cuzk post vanilla` for Window and Winning (blob sizes,
# post.json, determinism, sectors in ascending id order, partition and proof type); bad options
# and inputs exit nonzero and leave no output. The built-in window-post:2KiB /
# winning-post:2KiB circuits prove and verify.
. "$(dirname "$0")/lib.bash"

R=0102030405060708091011121314151617181920212223242526272829303132
seal_sector s1 5
seal_sector s2 6
seal_sector s3 9
seal_sector s8 7 --sector-size 8MiB

expect_ok "window vanilla" "$CUZK" post vanilla --kind window --sector s1 --sector s2 --randomness $R --out w
[ "$(stat -c %s w/vanilla-0.bin 2>/dev/null)" = 5680 ] || fail "window blob 0 is not 5680 bytes"
[ "$(stat -c %s w/vanilla-1.bin 2>/dev/null)" = 5680 ] || fail "window blob 1 is not 5680 bytes"
grep -q '"registered_proof": 10,' w/post.json || fail "post.json: registered proof 10"
grep -q '"registered_proof_name": "StackedDrgWindow2KiBV1_2"' w/post.json || fail "post.json: proof name"
grep -q "\"randomness\": \"$R\"" w/post.json || fail "post.json: randomness"
grep -q '"partition_index": 0' w/post.json || fail "post.json: partition"
comm_r=$(sed -n 's/.*"comm_r": "\([0-9a-f]*\)".*/\1/p' s2/sector.json)
grep -q "{\"sector_id\": 6, \"comm_r\": \"$comm_r\", \"vanilla_proof\": \"vanilla-1.bin\"}" w/post.json || fail "post.json: sector 6"
# the sectors in ascending id order, whatever the --sector order; one sector twice is refused
expect_ok "window vanilla, sectors given 6 then 5" "$CUZK" post vanilla --kind window --sector s2 --sector s1 --randomness $R --out wr
CHECKS=$((CHECKS + 1))
cmp -s w/post.json wr/post.json && cmp -s w/vanilla-0.bin wr/vanilla-0.bin && cmp -s w/vanilla-1.bin wr/vanilla-1.bin ||
  fail "the --sector order changed the folder"
expect_fail "one sector twice" 1 "--sector s1 and --sector s1 are both sector 5" \
  "$CUZK" post vanilla --kind window --sector s1 --sector s1 --randomness $R --out bad
no_file "one sector twice" bad
# V1_1 challenges do not depend on the sector's position: sector 6 alone gives the same blob
expect_ok "window vanilla, one sector" "$CUZK" post vanilla --kind window --sector s2 --randomness $R --out w1
cmp -s w/vanilla-1.bin w1/vanilla-0.bin || fail "V1_1 blob of sector 6 depends on its position"
# V1 challenges do (partition and position)
expect_ok "window V1 partition 1" "$CUZK" post vanilla --kind window --proof-type V1 --partition 1 --sector s2 \
  --randomness $R --out w2
grep -q '"registered_proof": 5,' w2/post.json || fail "V1 post.json: registered proof 5"
grep -q '"partition_index": 1' w2/post.json || fail "V1 post.json: partition 1"
cmp -s w1/vanilla-0.bin w2/vanilla-0.bin && fail "V1 partition 1 has the V1_1 partition 0 challenges"

expect_ok "winning vanilla" "$CUZK" post vanilla --kind winning --sector s1 --randomness $R --out win
[ "$(stat -c %s win/vanilla-0.bin 2>/dev/null)" = 36816 ] || fail "winning blob is not 36816 bytes"
grep -q '"registered_proof": 0,' win/post.json || fail "winning post.json: registered proof 0"
expect_ok "winning vanilla 8MiB" "$CUZK" post vanilla --kind winning --sector s8 --randomness $R --out win8
grep -q '"registered_proof_name": "StackedDrgWinning8MiBV1"' win8/post.json || fail "8MiB winning proof name"

# bad options and inputs: nonzero, a clear message, nothing written
expect_fail "winning with two sectors" 1 "2 sectors, but a partition holds at most 1 sector" \
  "$CUZK" post vanilla --kind winning --sector s1 --sector s2 --randomness $R --out bad
no_file "winning with two sectors" bad
expect_fail "winning V1_1" 1 "WinningPoSt has only V1" \
  "$CUZK" post vanilla --kind winning --proof-type V1_1 --sector s1 --randomness $R --out bad
no_file "winning V1_1" bad
expect_fail "winning partition 1" 1 "only partition 0" \
  "$CUZK" post vanilla --kind winning --partition 1 --sector s1 --randomness $R --out bad
no_file "winning partition 1" bad
# what cuzk prove would refuse is not written: the prover's own check runs first (a 2 KiB
# Window partition holds 2 sectors, so its first slot, K x 2, fits in 32 bits up to K = 2^31 - 1)
expect_fail "window partition 2^32 - 1" 1 "partition index 4294967295 is out of range: its first sector slot, 4294967295 x 2 sectors a partition, must fit in 32 bits \(partition at most 2147483647\)" \
  "$CUZK" post vanilla --kind window --partition 4294967295 --sector s1 --randomness $R --out bad
no_file "window partition 2^32 - 1" bad
expect_fail "window partition 2^31" 1 "partition index 2147483648 is out of range" \
  "$CUZK" post vanilla --kind window --partition 2147483648 --sector s1 --randomness $R --out bad
no_file "window partition 2^31" bad
expect_fail "window, three sectors at 2 KiB" 1 "3 sectors, but a partition holds at most 2 sectors" \
  "$CUZK" post vanilla --kind window --sector s1 --sector s2 --sector s3 --randomness $R --out bad
no_file "window, three sectors at 2 KiB" bad
expect_fail "non-canonical randomness" 2 "not a canonical field element" \
  "$CUZK" post vanilla --kind window --sector s1 --randomness "$(printf 'f%.0s' $(seq 64))" --out bad
no_file "non-canonical randomness" bad
expect_fail "bad hex" 2 "randomness" "$CUZK" post vanilla --kind window --sector s1 --randomness 12zz --out bad
expect_fail "short hex" 2 "randomness" "$CUZK" post vanilla --kind window --sector s1 --randomness 0102 --out bad
no_file "bad hex" bad
expect_fail "bad kind" 2 "winning or window" "$CUZK" post vanilla --kind daily --sector s1 --randomness $R --out bad
expect_fail "bad proof type" 2 "V1 or V1_1" \
  "$CUZK" post vanilla --kind window --proof-type V2 --sector s1 --randomness $R --out bad
expect_fail "missing --sector" 2 "sector" "$CUZK" post vanilla --kind window --randomness $R --out bad
expect_fail "missing --randomness" 2 "randomness" "$CUZK" post vanilla --kind window --sector s1 --out bad
expect_fail "--sector without value" 2 "needs a value" "$CUZK" post vanilla --kind window --randomness $R --out bad --sector
expect_fail "missing folder" 1 "nosuch" "$CUZK" post vanilla --kind window --sector nosuch --randomness $R --out bad
no_file "missing folder" bad
expect_fail "mixed sizes" 1 "another size" \
  "$CUZK" post vanilla --kind window --sector s1 --sector s8 --randomness $R --out bad
no_file "mixed sizes" bad
cp -r s1 t && head -c 1024 s1/sealed >t/sealed
expect_fail "short replica" 1 "sealed: 1024 bytes" "$CUZK" post vanilla --kind window --sector t --randomness $R --out bad
no_file "short replica" bad
cp s1/sealed t/sealed && head -c 63 s1/p_aux >t/p_aux
expect_fail "short p_aux" 1 "p_aux is 64" "$CUZK" post vanilla --kind window --sector t --randomness $R --out bad
cp s2/p_aux t/p_aux
expect_fail "p_aux of another sector" 1 "Poseidon2" "$CUZK" post vanilla --kind window --sector t --randomness $R --out bad
cp s1/p_aux t/p_aux && flip_bit t/sealed 100
expect_fail "changed replica" 1 "comm_r_last" "$CUZK" post vanilla --kind window --sector t --randomness $R --out bad
no_file "changed replica" bad
rm -f t/p_aux
expect_fail "missing p_aux" 1 "p_aux" "$CUZK" post vanilla --kind window --sector t --randomness $R --out bad
no_file "missing p_aux" bad
expect_fail "post without subcommand" 2 "usage" "$CUZK" post
expect_ok "post vanilla --help" "$CUZK" post vanilla --help

# the named circuits: counts, and their built-in witness (a sealed CC sector) proves and verifies
expect_ok "circuit-info window-post:2KiB" "$CUZK" circuit-info --circuit window-post:2KiB --json
grep -q '"constraints": 21866' out.txt || fail "window-post:2KiB constraints"
expect_ok "circuit-info --list" "$CUZK" circuit-info --list
grep -q "winning-post:SIZE" out.txt || fail "circuit-info --list lacks winning-post"
for c in window-post:2KiB winning-post:2KiB; do
  cached_params $c
  expect_ok "prove $c" "$CUZK" prove --circuit $c --params "$PARAMS" --proof $c.proof --inputs $c.json --quiet
  expect_ok "verify $c" "$CUZK" verify --vk "$VK" --proof $c.proof --inputs $c.json
done
finish
