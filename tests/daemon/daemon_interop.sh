#!/usr/bin/env bash
# TIMEOUT 1800
# TIER slow (alone on 2 cores: 160 s)
# The daemon driven by two clients nobody here wrote, both loading proto/cuzk/v1/proving.proto
# at run time: Python grpcio (client_py.py) and Node @grpc/grpc-js (client_node.mjs). Over a
# Unix socket and over loopback TCP (port 0), each client runs its checks (every RPC, one job
# per request id, AwaitProof TIMEOUT, a Prove deadline, cancel of a running job, unknown
# methods, garbage request bytes, a garbage C1, bad proof kinds); then, driven from here: the
# message size limit (environment and config file), the test kind off, a client killed in the
# middle of its Prove, a second daemon on the same socket, the socket's mode, SIGTERM's drain
# and a restart after kill -9 on the stale socket. Proofs the clients got are verified.
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../cli/lib.bash"
. "$HERE/daemon_lib.bash"
need_clients

# circuits: FAST proves in a fraction of a second; SLOW x SLOW_PARTS takes several seconds
# (about 2-5 s a partition on 2 cores), long next to the 0.3 s await and the 1 s deadline
FAST=random:1024 SLOW=random:65536 SLOW_PARTS=${SLOW_PARTS:-4}
test_params "$WORK/params" "$FAST" "$SLOW" || { fail "parameters"; finish; exit 1; }
export FIL_PROOFS_PARAMETER_CACHE=$WORK/params

# verify_test_proof PROOF CIRCUIT SEED PARTS: the proof bytes verify (ours and the npm verifier)
verify_test_proof() {
  CHECKS=$((CHECKS + 1))
  local stem=cuzk-test-${2//:/-}
  inputs_of "$2" "$3" "$4" "v.json" || { fail "inputs of $2 seed $3"; return; }
  "$CUZK" verify --vk "$WORK/params/$stem.vk" --proof "$1" --inputs v.json >v.out 2>&1 ||
    fail "cuzk verify $1 ($2 seed $3 x$4): $(head -c 300 v.out)"
  node "$SRC/tests/interop/verify.mjs" --vk "$WORK/params/$stem.vk" --proof "$1" --inputs v.json >v.out 2>&1 ||
    fail "npm verifier on $1 ($2 seed $3 x$4): $(head -c 300 v.out)"
}

# run_checks ADDR TAG: both clients' checks against one daemon
run_checks() {
  local addr=$1 tag=$2 who
  for who in py node; do
    CHECKS=$((CHECKS + 1))
    local t0=$SECONDS
    if [ $who = py ]; then
      py --addr "$addr" --tag "$who-$tag" checks --fast "$FAST" --slow "$SLOW" --slow-parts "$SLOW_PARTS" >checks.txt 2>&1
    else
      node_client --addr "$addr" --tag "$who-$tag" checks --fast "$FAST" --slow "$SLOW" --slow-parts "$SLOW_PARTS" >checks.txt 2>&1
    fi
    local rc=$?
    grep -E '^(FAIL|.* checks, |   \(the long job)' checks.txt
    [ $rc -eq 0 ] || fail "$who checks over $tag: exit $rc: $(grep -E 'FAIL|Error|Traceback' checks.txt | head -c 1500)"
    echo "  ($who checks over $tag: $((SECONDS - t0)) s)"
  done
}

# killed_client ADDR VICTIM OTHER TAG: VICTIM's Prove of a long job is killed (kill -9) while
# the job runs; the daemon goes on serving, the job completes, and OTHER re-submitting the
# request id joins it (one job) and gets its proof.
killed_client() {
  local addr=$1 victim=$2 other=$3 id=$4-$2-killed-client seed=$5
  local before
  before=$(total_completed "$addr") || { fail "status before the killed client"; return; }
  CHECKS=$((CHECKS + 1))
  if [ "$victim" = py ]; then
    "$PY" "$CLIENT_PY" --addr "$addr" prove --id "$id" --circuit "$SLOW" --parts "$SLOW_PARTS" --seed "$seed" >victim.txt 2>&1 &
  else
    node "$CLIENT_NODE" --addr "$addr" prove --id "$id" --circuit "$SLOW" --parts "$SLOW_PARTS" --seed "$seed" >victim.txt 2>&1 &
  fi
  local vpid=$!
  CLIENT_PIDS+=("$vpid")
  py --addr "$addr" --timeout 60 wait-running >wait.txt 2>&1 || fail "$victim's job never ran: $(cat wait.txt)"
  kill -KILL "$vpid"
  wait "$vpid" 2>/dev/null
  [ -s victim.txt ] && fail "the killed $victim client answered: $(head -c 300 victim.txt)"
  expect_ok "status after the $victim client was killed" py --addr "$addr" status
  if [ "$other" = py ]; then
    py --addr "$addr" prove --id "$id" --circuit "$SLOW" --parts "$SLOW_PARTS" --seed "$seed" --out killed.proof >rejoin.txt 2>&1
  else
    node_client --addr "$addr" prove --id "$id" --circuit "$SLOW" --parts "$SLOW_PARTS" --seed "$seed" --out killed.proof >rejoin.txt 2>&1
  fi
  [ "$(json_field rejoin.txt status)" = COMPLETED ] || fail "the killed $victim client's job, rejoined by $other: $(cat rejoin.txt)"
  local after
  after=$(total_completed "$addr")
  [ "$after" = $((before + 1)) ] || fail "killed $victim client: $before -> $after jobs completed, one job expected"
  verify_test_proof killed.proof "$SLOW" "$seed" "$SLOW_PARTS"
  echo "  (killed $victim client: its job completed and $other got its proof)"
}

# ---------------------------------------------------------------- over a Unix socket
SOCK=$SOCK_DIR/d.sock
start_daemon unix --listen "unix://$SOCK" --test-kinds || { finish; exit 1; }
U_PID=$DAEMON_PID U_ADDR=$DAEMON_ADDR
[ "$U_ADDR" = "unix://$SOCK" ] || fail "unix daemon address: $U_ADDR"
CHECKS=$((CHECKS + 1))
[ "$(stat -c %a "$SOCK")" = 600 ] || fail "socket mode $(stat -c %a "$SOCK"), 600 expected"
[ -S "$SOCK" ] || fail "$SOCK is not a socket"
run_checks "$U_ADDR" unix

# a proof each client got verifies
expect_ok "py prove" py --addr "$U_ADDR" prove --id py-verify --circuit "$FAST" --parts 3 --seed 101 --out py.proof
verify_test_proof py.proof "$FAST" 101 3
expect_ok "node prove" node_client --addr "$U_ADDR" prove --id node-verify --circuit "$FAST" --parts 2 --seed 201 --out node.proof
verify_test_proof node.proof "$FAST" 201 2

killed_client "$U_ADDR" py node unix 301
killed_client "$U_ADDR" node py unix 401

# a second daemon on the same socket path is refused; the first one goes on
echo "second daemon on the socket, SIGTERM drain"
expect_fail "second daemon on the socket" 1 "another daemon is listening" timeout 30 "$CUZK" daemon --listen "unix://$SOCK" --test-kinds
CHECKS=$((CHECKS + 1))
[ -S "$SOCK" ] || fail "the refused daemon removed the first one's socket"
expect_ok "the first daemon still serves" node_client --addr "$U_ADDR" status

# SIGTERM drains: a Prove in flight completes, exit 0, the socket removed
"$PY" "$CLIENT_PY" --addr "$U_ADDR" prove --id drain-job --circuit "$SLOW" --parts 2 --seed 501 --out drain.proof >drain.txt 2>&1 &
DRAIN_CLIENT=$!
CLIENT_PIDS+=("$DRAIN_CLIENT")
py --addr "$U_ADDR" --timeout 60 wait-running >wait.txt 2>&1 || fail "the drain job never ran: $(cat wait.txt)"
CHECKS=$((CHECKS + 1))
stop_daemon "$U_PID" TERM || fail "SIGTERM: the daemon did not exit in 60 s"
[ "$STOP_RC" = 0 ] || fail "SIGTERM: exit $STOP_RC, 0 expected ($(tail -c 300 unix.log))"
[ -e "$SOCK" ] && fail "SIGTERM: the socket $SOCK is left"
grep -q "SIGTERM: draining" unix.log || fail "SIGTERM: no drain line in the log: $(tail -c 300 unix.log)"
timeout 30 tail --pid="$DRAIN_CLIENT" -f /dev/null
wait "$DRAIN_CLIENT" 2>/dev/null
[ "$(json_field drain.txt status)" = COMPLETED ] || fail "SIGTERM: the Prove in flight did not complete: $(cat drain.txt)"
grep -E "stopped \([0-9]+ proofs completed" unix.log | tail -1

# ---------------------------------------------------------------- over loopback TCP, port 0
start_daemon tcp --listen 127.0.0.1:0 --test-kinds || { finish; exit 1; }
T_PID=$DAEMON_PID T_ADDR=$DAEMON_ADDR
CHECKS=$((CHECKS + 1))
[[ "$T_ADDR" =~ ^127\.0\.0\.1:[1-9][0-9]*$ ]] || fail "tcp daemon address: $T_ADDR (the bound port expected)"
run_checks "$T_ADDR" tcp
killed_client "$T_ADDR" node py tcp 601
expect_fail "second daemon on the TCP port" 1 "cannot bind" timeout 30 "$CUZK" daemon --listen "$T_ADDR" --test-kinds
stop_daemon "$T_PID" TERM
CHECKS=$((CHECKS + 1))
[ "$STOP_RC" = 0 ] || fail "tcp daemon SIGTERM: exit $STOP_RC"

# ---------------------------------------------------------------- limits, test kind off
# 1 MiB messages from the environment (TCP) and from a config file (Unix socket)
echo "message limit (environment, config file), test kind off"
CUZK_DAEMON_MAX_MESSAGE_BYTES=1048576 start_daemon limit-env --listen 127.0.0.1:0 || { finish; exit 1; }
L_PID=$DAEMON_PID
expect_ok "py limits (environment)" py --addr "$DAEMON_ADDR" --tag py-env limits
expect_ok "node limits (environment)" node_client --addr "$DAEMON_ADDR" --tag node-env limits
stop_daemon "$L_PID" TERM
printf '[daemon]\nmax_message_bytes = 1048576\nlisten = unix://%s\n' "$SOCK_DIR/l.sock" >limits.ini
start_daemon limit-config --config limits.ini || { finish; exit 1; }
L_PID=$DAEMON_PID
CHECKS=$((CHECKS + 1))
[ "$DAEMON_ADDR" = "unix://$SOCK_DIR/l.sock" ] || fail "the config file's listen address: $DAEMON_ADDR"
expect_ok "py limits (config file)" py --addr "$DAEMON_ADDR" --tag py-cfg limits
expect_ok "node limits (config file)" node_client --addr "$DAEMON_ADDR" --tag node-cfg limits
stop_daemon "$L_PID" TERM

# ---------------------------------------------------------------- kill -9, then a restart on the stale socket
echo "kill -9, restart on the stale socket"
SOCK2=$SOCK_DIR/k.sock
start_daemon kill1 --listen "unix://$SOCK2" --test-kinds || { finish; exit 1; }
expect_ok "prove before kill -9" py --addr "$DAEMON_ADDR" prove --id restart-job --circuit "$FAST" --parts 2 --seed 701
stop_daemon "$DAEMON_PID" KILL
CHECKS=$((CHECKS + 1))
[ -S "$SOCK2" ] || fail "kill -9 left no stale socket to replace (the test means nothing)"
start_daemon kill2 --listen "unix://$SOCK2" --test-kinds || { finish; exit 1; }
CHECKS=$((CHECKS + 1))
[ "$(stat -c %a "$SOCK2")" = 600 ] || fail "restarted daemon's socket mode $(stat -c %a "$SOCK2")"
expect_ok "node prove with the same request id after the restart" \
  node_client --addr "$DAEMON_ADDR" prove --id restart-job --circuit "$FAST" --parts 2 --seed 701 --out restart.proof
verify_test_proof restart.proof "$FAST" 701 2
expect_ok "py prove with the same request id again" py --addr "$DAEMON_ADDR" prove --id restart-job --circuit "$FAST" --parts 2 --seed 701
stop_daemon "$DAEMON_PID" TERM
CHECKS=$((CHECKS + 1))
[ "$STOP_RC" = 0 ] && [ ! -e "$SOCK2" ] || fail "restarted daemon: SIGTERM exit $STOP_RC, socket left: $([ -e "$SOCK2" ] && echo yes || echo no)"

finish
