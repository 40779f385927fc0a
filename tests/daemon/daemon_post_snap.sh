#!/usr/bin/env bash
# TIMEOUT 1500
# TIER slow (alone on 2 cores: 78 s)
# WindowPoSt, WinningPoSt and SnapDeals through the daemon at 2 KiB, as Curio asks for them:
# the bincode vanilla proofs of sealed test sectors (`cuzk post vanilla`, `cuzk snap encode`) in
# vanilla_proofs with their public fields, sent by the Python client (grpcio); each 192-byte
# proof verifies with `cuzk verify KIND --vanilla` and the independent npm verifier. The daemon
# runs with --test-params and finds the parameters under the demo's names (cuzk-test-*): under
# the official names, test parameters fail the published digest, as they should.
# Bad requests (a wrong proof type for the kind, a wrong sector size, a flipped blob byte) are
# refused or FAILED naming the field or blob.
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../cli/lib.bash"
. "$HERE/daemon_lib.bash"
need_clients
if [ -n "${CUZK_TEST_QUICK:-}" ]; then
  echo "SKIPPED: PoSt and SnapDeals through the daemon are not run in the quick (sanitized) pass; make test runs them"
  exit 77
fi

test_params "$WORK/params" window-post:2KiB winning-post:2KiB snap:2KiB || { finish; exit 1; }
R=3b2c2d2e2f303132333435363738393a3b3c3d3e3f404142434445464748494a
seal_sector s1 31
seal_sector s2 32
expect_ok "window vanilla" "$CUZK" post vanilla --kind window --sector s1 --sector s2 --randomness $R --out w
expect_ok "winning vanilla" "$CUZK" post vanilla --kind winning --sector s2 --randomness $R --out n
expect_ok "snap encode" "$CUZK" snap encode --sector s1 --random-data 3 --out u

FIL_PROOFS_PARAMETER_CACHE=$WORK/params start_daemon post --test-params --listen "unix://$SOCK_DIR/p.sock" || { finish; exit 1; }
addr=$DAEMON_ADDR
field() { "$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2"; }

prove_case() { # prove_case KIND DIR VK ARGS...: Prove through the daemon, then verify
  local kind=$1 dir=$2 vk=$3 t0=$SECONDS
  shift 3
  py --addr "$addr" prove-vanilla --id "py-$kind" --kind "$kind" "$@" --out "$kind.proof" >prove.txt 2>&1
  CHECKS=$((CHECKS + 1))
  if [ "$(json_field prove.txt status)" != COMPLETED ] || [ "$(stat -c %s "$kind.proof" 2>/dev/null)" != 192 ]; then
    fail "$kind through the daemon: $(cat prove.txt)"
    return
  fi
  echo "  $kind through the daemon: $((SECONDS - t0)) s"
  expect_ok "$kind proof: cuzk verify $kind --vanilla" "$CUZK" verify "$kind" --vanilla "$dir" --vk "$vk" --proof "$kind.proof"
  # the npm verifier needs the inputs: `cuzk prove KIND --inputs` writes them (it proves too)
  expect_ok "$kind inputs" "$CUZK" prove "$kind" --vanilla "$dir" --params "$(dirname "$vk")/$(basename "$vk" .vk).params" \
    --out cli.proof --inputs "$kind.json" --quiet
  expect_ok "$kind proof: npm verifier" node "$SRC/tests/interop/verify.mjs" --vk "$vk" --proof "$kind.proof" --inputs "$kind.json"
}
blobs() { local f; for f in "$@"; do printf -- '--blob\n%s\n' "$f"; done; }
mapfile -t wb < <(blobs w/vanilla-0.bin w/vanilla-1.bin)
prove_case window-post w "$TEST_CACHE/window-post-2KiB.vk" --registered-proof "$(field w/post.json registered_proof)" \
  --randomness $R --sector-size 2048 "${wb[@]}"
prove_case winning-post n "$TEST_CACHE/winning-post-2KiB.vk" --registered-proof "$(field n/post.json registered_proof)" \
  --randomness $R --sector-size 2048 --blob n/vanilla-0.bin
prove_case snap u "$TEST_CACHE/snap-2KiB.vk" --registered-proof "$(field u/update.json update_proof)" --sector-size 2048 \
  --comm-r-old "$(field u/update.json comm_r_old)" --comm-r-new "$(field u/update.json comm_r_new)" \
  --comm-d-new "$(field u/update.json comm_d_new)" --blob u/partition-0.bin

# bad requests: refused naming the field, or FAILED in-band naming the blob
py --addr "$addr" prove-vanilla --id bad-kind --kind window-post --registered-proof 0 --randomness $R --blob w/vanilla-0.bin >bad.txt 2>&1
CHECKS=$((CHECKS + 1))
grep -q INVALID_ARGUMENT bad.txt && grep -q "registered_proof" bad.txt || fail "a Winning proof id for WindowPoSt: $(cat bad.txt)"
py --addr "$addr" prove-vanilla --id bad-size --kind window-post --registered-proof 10 --sector-size 8388608 --randomness $R \
  --blob w/vanilla-0.bin >bad.txt 2>&1
CHECKS=$((CHECKS + 1))
grep -q INVALID_ARGUMENT bad.txt && grep -q "sector_size" bad.txt || fail "a wrong sector size: $(cat bad.txt)"
cp w/vanilla-1.bin flip.bin && "$PY" -c 'import sys; b=bytearray(open(sys.argv[1],"rb").read()); b[700]^=1; open(sys.argv[1],"wb").write(b)' flip.bin
py --addr "$addr" prove-vanilla --id bad-blob --kind window-post --registered-proof 10 --randomness $R \
  --blob w/vanilla-0.bin --blob flip.bin >bad.txt 2>&1
CHECKS=$((CHECKS + 1))
[ "$(json_field bad.txt status)" = FAILED ] && grep -q "blob 1" bad.txt || fail "a flipped blob byte: $(cat bad.txt)"
py --addr "$addr" prove-vanilla --id bad-snap --kind snap --registered-proof 0 --comm-r-old "$(field u/update.json comm_r_new)" \
  --comm-r-new "$(field u/update.json comm_r_new)" --comm-d-new "$(field u/update.json comm_d_new)" --blob u/partition-0.bin >bad.txt 2>&1
CHECKS=$((CHECKS + 1))
[ "$(json_field bad.txt status)" = FAILED ] && grep -q "comm_r_old" bad.txt || fail "a wrong comm_r_old: $(cat bad.txt)"

stop_daemon "$DAEMON_PID" TERM
CHECKS=$((CHECKS + 1))
[ "$STOP_RC" = 0 ] || fail "daemon: SIGTERM exit $STOP_RC"
finish
