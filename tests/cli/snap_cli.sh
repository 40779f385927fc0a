#!/usr/bin/env bash
# TIER fast (alone on 2 cores: 4 s)
# SnapDeals encoding from the CLI: seal a 2 KiB sector, `cuzk snap encode` it with random data
# and with a data file; the outputs have the sizes and contents expected, the same data gives the
# same commitments; bad options, missing or wrong-size inputs and non-Fr32 data fail with a
# nonzero exit and leave no output behind, and so does an encoding whose partition proof fails
# the final check (made to fail by the test binary cuzk-faults).
. "$(dirname "$0")/lib.bash"

seal_sector s 1
expect_ok "snap encode --random-data" "$CUZK" snap encode --sector s --random-data 7 --out u
[ "$(stat -c %s u/sealed-new 2>/dev/null)" = 2048 ] || fail "sealed-new is not 2048 bytes"
[ -s u/partition-0.bin ] || fail "no partition-0.bin"
[ ! -e u/partition-1.bin ] || fail "a 2 KiB sector has one partition"
# 32 comm_c + 8 + 8 apex leaves + 8 + 10 challenges x (two 8-0-0 TreeR proofs + one depth-6 TreeD proof)
want=$((32 + 8 + 8 * 32 + 8 + 10 * (2 * (4 + 64 + 8 + 2 * (16 + 7 * 32)) + (4 + 64 + 8 + 6 * (16 + 32)))))
[ "$(stat -c %s u/partition-0.bin 2>/dev/null)" = "$want" ] || fail "partition-0.bin is not $want bytes"
grep -q '"update_proof": 0' u/update.json || fail "update.json: update_proof id"
grep -q '"update_proof_name": "StackedDrg2KiBV1"' u/update.json || fail "update.json: name"
comm_r=$(sed -n 's/.*"comm_r": "\([0-9a-f]*\)".*/\1/p' s/sector.json)
grep -q "\"comm_r_old\": \"$comm_r\"" u/update.json || fail "update.json: comm_r_old is not the sector's comm_r"
grep -Eq '"comm_d_new": "[0-9a-f]{64}"' u/update.json || fail "update.json: comm_d_new"
grep -Eq '"comm_r_new": "[0-9a-f]{64}"' u/update.json || fail "update.json: comm_r_new"
cmp -s u/sealed-new s/sealed && fail "the new replica equals the old one"

# the same data given as a file gives the same outputs; other data other commitments
expect_ok "snap encode --random-data again" "$CUZK" snap encode --sector s --random-data 7 --out u2
cmp -s u/update.json u2/update.json || fail "encoding is not deterministic"
cmp -s u/partition-0.bin u2/partition-0.bin || fail "partition proof is not deterministic"
expect_ok "snap encode --data unsealed (zeros)" "$CUZK" snap encode --sector s --data s/unsealed --out z
cmp -s z/update.json u/update.json && fail "other data, same commitments"
# zero data: the replica does not change
cmp -s z/sealed-new s/sealed || fail "encoding zeros changed the replica"

# bad options and inputs: nonzero exit, nothing written
expect_fail "no --sector" 2 "sector" "$CUZK" snap encode --random-data 1 --out bad1
no_file "no --sector" bad1
expect_fail "no --out" 2 "out" "$CUZK" snap encode --sector s --random-data 1
expect_fail "both data options" 2 "exactly one" "$CUZK" snap encode --sector s --random-data 1 --data s/unsealed --out bad2
no_file "both data options" bad2
expect_fail "unknown subcommand" 2 "usage" "$CUZK" snap decode
expect_fail "missing sector dir" 1 "sector.json" "$CUZK" snap encode --sector nowhere --random-data 1 --out bad3
no_file "missing sector dir" bad3
expect_fail "missing data file" 1 "nofile" "$CUZK" snap encode --sector s --data nofile --out bad4
no_file "missing data file" bad4
head -c 1024 s/unsealed >short
expect_fail "wrong data size" 1 "1024 bytes" "$CUZK" snap encode --sector s --data short --out bad5
no_file "wrong data size" bad5
cp s/unsealed notfr32
printf '\xff' | dd of=notfr32 bs=1 seek=$((3 * 32 + 31)) conv=notrunc status=none
expect_fail "non-Fr32 data" 1 "node 3" "$CUZK" snap encode --sector s --data notfr32 --out bad6
no_file "non-Fr32 data" bad6
mkdir -p t && cp s/sector.json s/p_aux t/ && head -c 100 s/sealed >t/sealed
expect_fail "truncated replica" 1 "sealed has 100 bytes" "$CUZK" snap encode --sector t --random-data 1 --out bad7
no_file "truncated replica" bad7
cp s/sealed t/sealed && head -c 63 s/p_aux >t/p_aux
expect_fail "short p_aux" 1 "p_aux" "$CUZK" snap encode --sector t --random-data 1 --out bad8
no_file "short p_aux" bad8
cp s/p_aux t/p_aux && flip_bit t/p_aux 40
expect_fail "p_aux of another replica" 1 "comm_r_last" "$CUZK" snap encode --sector t --random-data 1 --out bad9
no_file "p_aux of another replica" bad9
expect_ok "snap --help" "$CUZK" snap --help
expect_ok "snap encode --help" "$CUZK" snap encode --help

# The final check of what it writes (the blobs parsed and checked as cuzk prove snap would): no
# real input trips it, so cuzk-faults, the CLI built for tests beside cuzk (src/cli/faults.h),
# flips one bit of partition 0's comm_c once the blob is made. The command that succeeded above
# (--random-data 7) must then refuse with the check's reason, exit 1 and write nothing: no
# folder, no temporary, nothing in a folder that exists.
FAULTS=$(dirname "$CUZK")/cuzk-faults
CHECKS=$((CHECKS + 1))
if [ -x "$FAULTS" ]; then
  expect_fail "snap encode whose partition proof fails the final check" 1 \
    'checked as cuzk prove snap checks them: snap vanilla proof blob 0: comm_r_old != H\(comm_c' \
    "$FAULTS" snap encode --sector s --random-data 7 --out fault
  no_file "the refused encoding's folder" fault
  mkdir -p fault2
  expect_fail "snap encode into a folder, the final check failing" 1 "comm_r_old != H\(comm_c" \
    "$FAULTS" snap encode --sector s --random-data 7 --out fault2
  [ -z "$(ls -A fault2)" ] || fail "the refused encoding left files in fault2: $(ls -A fault2)"
else
  fail "no test binary $FAULTS (the build makes it beside cuzk)"
fi

finish
