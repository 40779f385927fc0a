#!/usr/bin/env bash
# TIMEOUT 1500
# TIER slow (alone on 2 cores: 145 s)
# Curio's request stream through the daemon at 2 KiB (tests/daemon/curio_shapes.py): Curio's id
# scheme for all four kinds, with the fields Curio sets: two WindowPoSt partitions of one
# deadline under one id (each its own proof), a retry joining, a WinningPoSt with
# registered_proof 0 and under the WindowPoSt's id, a SnapDeals request that FAILED and the
# corrected one under the same id, ids with a NUL or invalid UTF-8 refused, and a PoRep sector
# proved, resealed under the same id (another miner's id, a 32 GiB claim and a tampered C1
# refused before proving), cancelled while running and proved again with Curio's proofshare
# fields (sector_size 0, a rewritten registered_proof noted). Every answer is verified with
# `cuzk verify` against the public data it was asked for.
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../cli/lib.bash"
. "$HERE/daemon_lib.bash"
need_clients

quick=
[ -n "${CUZK_TEST_QUICK:-}" ] && quick=--no-porep # the sanitized pass leaves out the minutes of PoRep
mkdir -p data/vk
circuits="window-post:2KiB winning-post:2KiB snap:2KiB"
[ -z "$quick" ] && circuits="porep:2KiB $circuits"
test_params "$WORK/params" $circuits || { finish; exit 1; }
for c in $circuits; do
  cached_params "$c" && ln -sf "$VK" "data/vk/${c%%:*}.vk"
done

# sector 5 of miner 1000 sealed, then resealed with another ticket and seed
T1=0101010101010101010101010101010101010101010101010101010101010101
T2=0202020202020202020202020202020202020202020202020202020202020202
seal_sector data/a 5 --prover-id t01000 --ticket $T1 --seed $T1
seal_sector data/b 5 --prover-id t01000 --ticket $T2 --seed $T2
expect_ok "a tampered C1" "$PY" "$SRC/tests/cli/flip_path.py" data/b/c1.json data/b-bad.json
# four sectors for two WindowPoSt partitions of one deadline, one WinningPoSt, one SnapDeals
R=3b2c2d2e2f303132333435363738393a3b3c3d3e3f404142434445464748494a
for id in 31 32 33 34; do
  seal_sector "s$id" $id --prover-id t01000
done
expect_ok "WindowPoSt partition 1" "$CUZK" post vanilla --kind window --sector s31 --sector s32 --randomness $R --out data/w1
expect_ok "WindowPoSt partition 2" "$CUZK" post vanilla --kind window --sector s33 --sector s34 --randomness $R --out data/w2
expect_ok "WinningPoSt" "$CUZK" post vanilla --kind winning --sector s32 --randomness $R --out data/n
expect_ok "SnapDeals" "$CUZK" snap encode --sector s31 --random-data 3 --out data/u

FIL_PROOFS_PARAMETER_CACHE=$WORK/params start_daemon curio --test-params --listen "unix://$SOCK_DIR/c.sock" || { finish; exit 1; }
t0=$SECONDS
timeout -k 5 "$CLIENT_LIMIT" "$PY" "$HERE/curio_shapes.py" --addr "$DAEMON_ADDR" --cuzk "$CUZK" --data "$WORK/data" $quick \
  >shapes.txt 2>&1
rc=$?
cat shapes.txt
CHECKS=$((CHECKS + 1))
[ $rc = 0 ] || fail "Curio's request shapes (exit $rc): $(grep FAIL shapes.txt | head -5)"
echo "  the shapes: $((SECONDS - t0)) s"

stop_daemon "$DAEMON_PID" TERM
CHECKS=$((CHECKS + 1))
[ "$STOP_RC" = 0 ] || fail "daemon: SIGTERM exit $STOP_RC"
finish
