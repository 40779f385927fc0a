#!/usr/bin/env bash
# TIER fast
# cuzk params check and the daemon's digest check: a tiny file under an official name (the
# wrong digest: WRONG, exit 1) and a file of one's own with its right digest (--expect), the
# missing ones listed, the digest record making a second run hash nothing, a missing folder and
# a FIFO under an official name (an error, never a hang); the daemon refusing the wrong file at
# load with both digests named, and --test-params pointing the official kinds at cuzk-test-*.
. "$(dirname "$0")/lib.bash"

POREP=v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f
PUBLISHED=434fb1338ecfaf0f59256f30dde4968f
mkdir -p p c
printf 'not the parameters' >"p/$POREP.params"
printf 'a file of our own' >p/own.bin
OWN=$(b2sum p/own.bin | cut -c1-32) # the published digest's form: BLAKE2b-512, its first 16 bytes
FOUND=$(b2sum "p/$POREP.params" | cut -c1-32)

expect_fail_writes "a wrong official file" 1 "^WRONG .*$POREP\.params \(porep:2KiB\): digest $FOUND, published $PUBLISHED" \
  '^c/param-digests\.txt$' "$CUZK" params check --dir p --cache c --expect "own.bin=$OWN" --quiet
"$CUZK" params check --dir p --cache c --expect "own.bin=$OWN" --quiet >out1.txt 2>err1.txt
[ $? -eq 1 ] || fail "a wrong official file: exit 0"
grep -q "^ok .* own.bin (not official)" out1.txt || fail "own.bin with its right digest not ok: $(cat out1.txt)"
grep -q "^missing .*$POREP\.vk (porep:2KiB)" out1.txt || fail "the missing .vk not listed"
[ "$(grep -c '^missing' out1.txt)" = 39 ] || fail "not 39 missing files listed: $(grep -c '^missing' out1.txt)"
grep -q "circuits that can be served: none" out1.txt || fail "a circuit said servable"
[ -f c/param-digests.txt ] || fail "no digest record in the cache folder"

"$CUZK" params check --dir p --cache c --expect "own.bin=$OWN" --quiet >out2.txt 2>err2.txt
grep -q "; 0 hashed, 2 from the record" out2.txt || fail "second run hashed again: $(tail -1 out2.txt)"
touch -d '2001-01-01' p/own.bin
"$CUZK" params check --dir p --cache c --expect "own.bin=$OWN" --quiet >out3.txt 2>err3.txt
grep -q "; 1 hashed, 1 from the record" out3.txt || fail "a changed mtime not hashed again: $(tail -1 out3.txt)"

"$CUZK" params check --dir p --cache c --json --quiet >out.json 2>/dev/null
python3 - out.json "$POREP" "$FOUND" <<'PY' || fail "--json"
import json, sys
d = json.load(open(sys.argv[1]))
f = {x["name"]: x for x in d["files"]}
w = f[sys.argv[2] + ".params"]
assert w["state"] == "wrong" and w["found"] == sys.argv[3] and w["circuit"] == "porep:2KiB", w
assert f[sys.argv[2] + ".vk"]["state"] == "missing" and d["servable"] == [] and d["wrong"] == 1
PY

# a missing official file is an error only with --all
rm "p/$POREP.params"
expect_ok "missing files only" "$CUZK" params check --dir p --cache c --quiet
expect_fail "missing files with --all" 1 "40 missing" "$CUZK" params check --dir p --cache c --all --quiet

expect_fail "a folder that does not exist" 1 "the parameter folder nowhere: No such file" \
  "$CUZK" params check --dir nowhere --quiet
expect_fail "an official name in --expect" 2 "official" "$CUZK" params check --dir p --expect "$POREP.vk=$OWN"
mkfifo "p/$POREP.vk"
expect_fail "a FIFO under an official name" 1 "^ERROR .*$POREP\.vk.*not a regular file" \
  timeout 20 "$CUZK" params check --dir p --cache c --quiet
rm "p/$POREP.vk"

# the daemon: the wrong file refused at its first load, the expected and the found digest named
printf 'not the parameters' >"p/$POREP.params"
printf 'not the key' >"p/$POREP.vk"
DPID=""
cleanup() { [ -n "$DPID" ] && kill -9 "$DPID" 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT
start_daemon() {
  local log=$1; shift
  CUZK_DAEMON_CACHE_DIR=$WORK/dc FIL_PROOFS_PARAMETER_CACHE=$WORK/p "$CUZK" daemon --listen "unix://$WORK/d.sock" "$@" >"$log" 2>&1 &
  DPID=$!
  wait_listening "$DPID" "$log"
}
stop_daemon() { kill -TERM "$DPID"; wait "$DPID"; DPID=""; }
mkdir -p dc
if start_daemon d1.log; then
  "$CUZK" client preload --addr "unix://$WORK/d.sock" --circuit-id porep-2k >pre.out 2>&1 &&
    fail "the daemon loaded a wrong official file"
  grep -q "$POREP\.params: digest $FOUND, but Filecoin publishes $PUBLISHED" pre.out ||
    fail "the refusal lacks the file and digests: $(head -c 400 pre.out)"
  grep -q "$FOUND" dc/param-digests.txt || fail "the daemon kept no digest record in its cache folder"
  stop_daemon
fi
if start_daemon d2.log --test-params; then
  grep -q "TEST PARAMETERS" d2.log || fail "the start line does not say test parameters: $(cat d2.log)"
  "$CUZK" client preload --addr "unix://$WORK/d.sock" --circuit-id porep-2k >pre2.out 2>&1 &&
    fail "test parameters loaded though there are none"
  grep -q "cuzk-test-porep-2KiB\.params" pre2.out || fail "--test-params: not the test file: $(head -c 400 pre2.out)"
  stop_daemon
fi

echo "params_cli: $CHECKS checks, $FAILS failed"
[ "$FAILS" -eq 0 ]
