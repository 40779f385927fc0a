#!/usr/bin/env bash
# TIER fast (alone on 2 cores: 4 s)
# `cuzk setup --into-cache DIR`: the parameters and key land in DIR under the names a daemon
# looks up there (cuzk-test-NAME for a built-in circuit; porep:SIZE's official stem, checked
# with --print-paths, which sets nothing up), the folder is made when missing, and the files
# prove and verify, through the CLI and through a daemon whose parameter folder DIR is. Conflicting or incomplete options are usage errors; a missing parent, a
# file in the folder's place and unknown circuits fail without leaving anything behind.
. "$(dirname "$0")/lib.bash"

expect_ok "setup into a new folder" "$CUZK" setup --circuit random:64 --into-cache cache --seed 7 --quiet
P=cache/cuzk-test-random-64.params
V=cache/cuzk-test-random-64.vk
CHECKS=$((CHECKS + 1))
[ -f "$P" ] && [ -f "$V" ] || fail "no $P / $V: $(ls cache 2>&1)"
CHECKS=$((CHECKS + 1))
[ "$(ls cache | wc -l)" -eq 2 ] || fail "cache holds more than the two files: $(ls cache)"
CHECKS=$((CHECKS + 1))
grep -qF "wrote $P and $V" err.txt || fail "setup does not say where the files went: $(cat err.txt)"
CHECKS=$((CHECKS + 1))
mode=$(stat -c %a cache)
[ $((8#$mode & 8#700)) -eq $((8#700)) ] && [ $((8#$mode & 8#022)) -eq 0 ] || fail "cache folder mode $mode"
expect_ok "prove with the cached parameters" "$CUZK" prove --circuit random:64 --params "$P" --proof r.proof \
  --inputs r.json --quiet
expect_ok "verify with the cached key" "$CUZK" verify --vk "$V" --proof r.proof --inputs r.json

# An existing folder is used as it is (trailing slash or not); the files are replaced whole.
expect_ok "setup into an existing folder" "$CUZK" setup --circuit cubic --into-cache cache/ --quiet
CHECKS=$((CHECKS + 1))
[ -f cache/cuzk-test-cubic.params ] && [ -f cache/cuzk-test-cubic.vk ] || fail "no cubic files: $(ls cache)"
grep -qF "wrote cache/cuzk-test-cubic.params and" err.txt || fail "path printed with '//': $(cat err.txt)"
expect_ok "a name with ':' and digits" "$CUZK" setup --circuit random-parts:2:64 --into-cache cache --quiet
CHECKS=$((CHECKS + 1))
[ -f cache/cuzk-test-random-parts-2-64.params ] || fail "no random-parts file: $(ls cache)"

# The official PoRep names, without running the (minutes-long) setup: the 2 KiB file is
# published as this stem in Filecoin's parameters.json.
stem2k=v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f
expect_ok "print-paths porep:2KiB" "$CUZK" setup --circuit porep:2KiB --into-cache pc --print-paths
printf 'pc/%s.params\npc/%s.vk\n' "$stem2k" "$stem2k" | diff - out.txt >/dev/null ||
  fail "porep:2KiB paths: $(cat out.txt)"
no_file "print-paths makes no folder" pc
stem32g=v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-0-sha256_hasher-82a357d2f2ca81dc61bb45f4a762807aedee1b0a53fd6c4e77b46a01bfef7820
expect_ok "print-paths porep:32GiB" "$CUZK" setup --circuit porep:32GiB --into-cache /p --print-paths
printf '/p/%s.params\n/p/%s.vk\n' "$stem32g" "$stem32g" | diff - out.txt >/dev/null ||
  fail "porep:32GiB paths: $(cat out.txt)"
expect_ok "print-paths random:64" "$CUZK" setup --circuit random:64 --into-cache cache --print-paths
printf '%s\n%s\n' "$P" "$V" | diff - out.txt >/dev/null || fail "random:64 paths: $(cat out.txt)"

# A daemon whose parameter folder is the cache finds the files by the circuit's name alone
# (the test kind: proofs of a built-in circuit, verified by the engine before they return).
A=unix://$WORK/run/cuzk.sock
FIL_PROOFS_PARAMETER_CACHE=$WORK/cache "$CUZK" daemon --listen "$A" --test-kinds --threads 1 >daemon.log 2>&1 &
BACKGROUND_FILES='^daemon\.log$'
dpid=$!
trap 'kill -9 $dpid 2>/dev/null; rm -rf "$WORK"' EXIT
for _ in $(seq 1 100); do
  grep -q "listening on" daemon.log && break
  kill -0 $dpid 2>/dev/null || break
  sleep 0.1
done
expect_ok "the daemon proves random:64 from the cache" "$CUZK" client prove --addr "$A" --kind test \
  --circuit random:64 --partition 1 --proof d.proof
CHECKS=$((CHECKS + 1))
[ "$(stat -c %s d.proof 2>/dev/null)" = 384 ] || fail "the daemon's proof is not 2 x 192 bytes"
expect_fail "a circuit not in the cache" 1 "cuzk-test-random-128" "$CUZK" client prove --addr "$A" --kind test \
  --circuit random:128 --partition 0 --proof e.proof
kill -TERM $dpid
CHECKS=$((CHECKS + 1))
wait $dpid || fail "daemon exit $? ($(head -c 300 daemon.log))"

# Usage errors (2) name the options; failures (1) leave no folder and no file.
expect_fail "--into-cache with --params" 2 "--into-cache.*--params and --vk, not both" \
  "$CUZK" setup --circuit cubic --into-cache x --params x.params
expect_fail "--into-cache with --vk" 2 "--into-cache.*not both" "$CUZK" setup --circuit cubic --into-cache x --vk x.vk
no_file "no folder after a usage error" x
expect_fail "--print-paths alone" 2 "--print-paths needs --into-cache" \
  "$CUZK" setup --circuit cubic --params x.params --vk x.vk --print-paths
expect_fail "neither --params nor --into-cache" 2 "missing required option --params" "$CUZK" setup --circuit cubic
expect_fail "missing parent" 1 "cannot make folder nope/cache: its parent folder does not exist" \
  "$CUZK" setup --circuit cubic --into-cache nope/cache
no_file "no parent made" nope
: > plain
expect_fail "a file in the folder's place" 1 "plain exists and is not a folder" \
  "$CUZK" setup --circuit cubic --into-cache plain
expect_fail "unknown circuit" 1 "unknown circuit 'nope'" "$CUZK" setup --circuit nope --into-cache y
no_file "no folder for an unknown circuit" y
expect_fail "not a PoRep size" 1 "porep:4KiB.*SIZE must be" "$CUZK" setup --circuit porep:4KiB --into-cache y --print-paths
expect_ok "setup --help" "$CUZK" setup --help
grep -q -- '--into-cache DIR' out.txt && grep -q -- '--print-paths' out.txt || fail "setup --help: $(cat out.txt)"

finish
