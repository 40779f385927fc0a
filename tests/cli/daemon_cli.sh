#!/usr/bin/env bash
# TIER fast (alone on 2 cores: 12 s)
# The daemon as an operator meets it: start, config keys, the job log (one JSON line per job,
# reopened by SIGHUP), bad addresses, a path that is no socket, a second daemon, the client's
# verbs and exit codes, bench throughput, SIGTERM drain (exit 0, socket removed), SIGHUP and a
# second SIGTERM during the drain, a file put at the socket path left alone, socket folders
# other users can write to, kill -9 and a restart on the same socket.
. "$(dirname "$0")/lib.bash"

P=$WORK/params
test_params "$P" random:1024
SOCK=$WORK/run/cuzk.sock
A=unix://$SOCK
DPID=""
cleanup() { [ -n "$DPID" ] && kill -9 "$DPID" 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT

# start_daemon LOG ARGS...: runs the daemon in the background until it says it listens
start_daemon() {
  local log=$1; shift
  FIL_PROOFS_PARAMETER_CACHE=$P "$CUZK" daemon "$@" >"$log" 2>&1 &
  DPID=$!
  wait_listening "$DPID" "$log"
}

expect_ok "daemon --help" "$CUZK" daemon --help
grep -q -- "--listen" out.txt || fail "daemon --help lacks --listen"
expect_ok "client --help" "$CUZK" client --help
expect_ok "config lists [daemon]" "$CUZK" config --print-defaults
grep -q '^\[daemon\]' out.txt && grep -q '^listen = unix:///run/cuzk/cuzk.sock' out.txt ||
  fail "config --print-defaults lacks the [daemon] section"
grep -q 'FIL_PROOFS_PARAMETER_CACHE' out.txt || fail "param_dir's env override is not listed"

# bad addresses and files in the way
expect_fail "relative socket path" 1 "absolute" "$CUZK" daemon --listen unix://relative.sock
expect_fail "not an address" 1 "neither unix:///PATH nor HOST:PORT" "$CUZK" daemon --listen nonsense
expect_fail "port out of range" 1 "outside 0..65535" "$CUZK" daemon --listen 127.0.0.1:70000
touch plain
expect_fail "a regular file at the socket path" 1 "not a socket" "$CUZK" daemon --listen "unix://$WORK/plain"
[ -f plain ] || fail "the regular file was replaced"
printf '[daemon]\nmax_calls = 0\n' >bad.ini
expect_fail "max_calls out of range" 2 "daemon.max_calls" "$CUZK" daemon --config bad.ini
printf '[daemon]\nlisten = unix://%s\nlog_file = %s/jobs.log\ntest_kinds = true\n' "$SOCK" "$WORK" >d.ini
# what the daemons write while they run: their output and the job log (a line for every job,
# the failed ones too)
BACKGROUND_FILES='^(d[0-9]\.log|jobs\.log(\.1)?)$'

start_daemon d1.log --config d.ini
[ "$(stat -c %a "$SOCK" 2>/dev/null)" = 600 ] || fail "socket mode is $(stat -c %a "$SOCK" 2>/dev/null), not 600"
expect_fail "a second daemon on the socket" 1 "another daemon is listening" "$CUZK" daemon --listen "$A"

expect_ok "client prove" "$CUZK" client prove --addr "$A" --kind test --circuit random:1024 --partition 1 \
  --request-id one --proof one.proof
[ "$(stat -c %s one.proof 2>/dev/null)" = 384 ] || fail "the proof is not 2 x 192 bytes"
expect_ok "client submit" "$CUZK" client submit --addr "$A" --kind test --circuit random:1024 --request-id two
expect_ok "client await" "$CUZK" client await --addr "$A" --job two --proof two.proof
grep -q COMPLETED out.txt || fail "await did not say COMPLETED"
expect_fail "await an unknown job" 1 "NOT_FOUND" "$CUZK" client await --addr "$A" --job nope
echo 'not a C1 at all' >garbage.json
expect_fail "PoRep of garbage: FAILED in-band" 1 "FAILED: the C1 output" "$CUZK" client prove --addr "$A" \
  --kind porep --c1 garbage.json
expect_fail "kind 0" 1 "INVALID_ARGUMENT: proof_kind" "$CUZK" client prove --addr "$A" --kind 0 --c1 d.ini
echo '["AAEC"]' >blob3.json
expect_fail "WinningPoSt of a 3-byte blob: FAILED in-band" 1 "FAILED: vanilla proof blob 0" "$CUZK" client prove --addr "$A" --kind winning-post \
  --vanilla blob3.json --randomness "$(printf '%064d' 0)"
CUZK_DAEMON_LISTEN=unix://$WORK/none.sock expect_fail "no daemon at the configured address" 1 \
  "none.sock" "$CUZK" client status
expect_fail "unknown verb" 2 "unknown verb" "$CUZK" client frobnicate --addr "$A"
expect_ok "client status" "$CUZK" client status --addr "$A"
grep -q '"total_proofs_completed": 2' out.txt || fail "status does not count 2 proofs: $(head -c 300 out.txt)"
expect_ok "client metrics" "$CUZK" client metrics --addr "$A"
grep -q '^cuzk_jobs_completed_total{kind="circuit",status="completed"} 2' out.txt || fail "metrics lack the 2 jobs"
expect_ok "client preload" "$CUZK" client preload --addr "$A" --circuit-id random:1024
expect_ok "client evict" "$CUZK" client evict --addr "$A" --circuit-id random:1024
grep -q "evicted" out.txt || fail "evict did not evict"
expect_ok "bench throughput" "$CUZK" bench throughput --addr "$A" --kind test --circuit random:1024 --jobs 20 \
  --concurrency 4 --json
grep -q '"completed":20' out.txt || fail "bench throughput: $(cat out.txt)"

# the job log: one JSON object per line, every job there; SIGHUP reopens it after a rotation
python3 - "$WORK/jobs.log" <<'PY' || fail "the job log is not one JSON object per line"
import json, sys
lines = open(sys.argv[1]).read().splitlines()
assert len(lines) >= 24, len(lines)
for l in lines:
    j = json.loads(l)
    assert "timeline" in j and "state" in j
PY
mv jobs.log jobs.log.1
kill -HUP "$DPID"
sleep 0.3
expect_ok "prove after SIGHUP" "$CUZK" client prove --addr "$A" --kind test --circuit random:1024 --request-id three
# the address as a bare path, and from the config file's daemon.listen when --addr is left out
expect_ok "client status at a bare socket path" "$CUZK" client status --addr "$SOCK"
expect_ok "client status at the config's address" "$CUZK" --config d.ini client status
CUZK_DAEMON_LISTEN=$A expect_ok "client status at the environment's address" "$CUZK" client status
sleep 0.3
[ -s jobs.log ] && grep -q '"request_id":"three"' jobs.log || fail "SIGHUP did not reopen the job log"
grep -q '"request_id":"three"' jobs.log.1 && fail "the rotated log got the new line"

# SIGTERM with a job in flight: it finishes (grace 60 s), exit 0, the socket goes
expect_ok "submit before SIGTERM" "$CUZK" client submit --addr "$A" --kind test --circuit random:1024 \
  --partition 7 --request-id four
kill -TERM "$DPID"
wait "$DPID"
rc=$?
DPID=""
[ "$rc" = 0 ] || fail "the daemon exited $rc on SIGTERM"
[ -e "$SOCK" ] && fail "the socket is still there after SIGTERM"
grep -q '"request_id":"four".*"state":"COMPLETED"\|"state":"COMPLETED".*"request_id":"four"' jobs.log ||
  fail "the job in flight did not complete in the drain"
grep -q "stopped" d1.log || fail "no stop message: $(tail -c 300 d1.log)"
# every job log line is one JSON object with its end and submit times in RFC 3339 (UTC); these
# requests name no miner, so no miner_id (0 reads as none)
CHECKS=$((CHECKS + 1))
python3 - jobs.log <<'PY' || fail "the job log's lines: $(head -c 300 jobs.log)"
import json, re, sys
t = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")
lines = open(sys.argv[1]).read().splitlines()
assert lines
for l in lines:
    j = json.loads(l)
    assert t.match(j["time"]) and t.match(j["submitted"]) and j["submitted"] <= j["time"], l[:200]
    assert "miner_id" not in j and j["state"] and j["request_id"], l[:200]
PY

# kill -9 leaves a stale socket: a restart replaces it and serves
start_daemon d2.log --config d.ini
kill -9 "$DPID"
wait "$DPID" 2>/dev/null
DPID=""
[ -S "$SOCK" ] || fail "no stale socket after kill -9"
start_daemon d3.log --config d.ini
expect_ok "prove after a restart" "$CUZK" client prove --addr "$A" --kind test --circuit random:1024 --request-id five
# a file put at the socket path while the daemon runs is not the daemon's to remove
rm -f "$SOCK"
echo "not the daemon's" >"$SOCK"
kill -TERM "$DPID"
wait "$DPID"
DPID=""
[ -f "$SOCK" ] || fail "shutdown removed a file put at the socket path after the bind"
rm -f "$SOCK"

# the drain: SIGHUP reopens the log and the daemon goes on; a second SIGTERM ends the grace
# (600 s here) at once and the job in flight ends CANCELLED
printf '[daemon]\nlisten = unix://%s\nlog_file = %s/jobs.log\ntest_kinds = true\ndrain_grace_s = 600\n' \
  "$SOCK" "$WORK" >long.ini
start_daemon d5.log --config long.ini
expect_ok "submit a long job" "$CUZK" client submit --addr "$A" --kind test --circuit random:1024 \
  --partition 999 --request-id long
kill -TERM "$DPID"
sleep 0.5
kill -HUP "$DPID"
sleep 0.5
kill -0 "$DPID" 2>/dev/null || fail "SIGHUP during the drain killed the daemon: $(tail -c 300 d5.log)"
grep -q "SIGHUP: reopened" d5.log || fail "SIGHUP during the drain did not reopen the log"
kill -TERM "$DPID"
for _ in $(seq 1 100); do kill -0 "$DPID" 2>/dev/null || break; sleep 0.1; done
kill -0 "$DPID" 2>/dev/null && fail "a second SIGTERM did not end the drain within 10 s"
wait "$DPID"
rc=$?
DPID=""
[ "$rc" = 0 ] || fail "the daemon exited $rc after a second SIGTERM"
grep -q "the grace ends now" d5.log || fail "no message for the second SIGTERM: $(tail -c 300 d5.log)"
grep -q '"request_id":"long".*"state":"CANCELLED"\|"state":"CANCELLED".*"request_id":"long"' jobs.log ||
  fail "the job in flight did not end CANCELLED"

# the socket's folder: writable by other users without the sticky bit is refused (they could
# replace the socket); with it, a warning
# the folders: cache_dir made when missing, refused when it cannot be written; a missing
# param_dir is warned about
printf '[daemon]\ncache_dir = %s/plain/cache\n' "$WORK" >rocache.ini
expect_fail "a cache_dir that cannot be made" 1 "daemon.cache_dir .*/plain/cache: cannot make it" timeout 20 \
  "$CUZK" daemon --config rocache.ini --listen "unix://$WORK/rc.sock"
if [ "$(id -u)" != 0 ]; then
  mkdir -p ro && chmod 0555 ro
  printf '[daemon]\ncache_dir = %s/ro\n' "$WORK" >rodir.ini
  expect_fail "a cache_dir this user cannot write" 1 "cannot write there" timeout 20 "$CUZK" daemon \
    --config rodir.ini --listen "unix://$WORK/rc.sock"
  chmod 0755 ro
else
  echo "not checked as root (root writes anywhere): a cache_dir this user cannot write"
fi
printf '[daemon]\ncache_dir = %s/made/cache\n' "$WORK" >made.ini
mkdir made
FIL_PROOFS_PARAMETER_CACHE=$WORK/noparams timeout -s TERM 3 "$CUZK" daemon --config made.ini \
  --listen "unix://$WORK/made.sock" >d7.log 2>&1
[ -d made/cache ] || fail "cache_dir was not made"
grep -q "warning: daemon.param_dir .*/noparams is not a folder" d7.log || fail "no warning for a missing param_dir"
grep -q "stopped" d7.log || fail "the daemon with a missing param_dir did not run: $(head -c 300 d7.log)"

mkdir -m 0777 open
expect_fail "socket folder writable by others" 1 "writable by other users" "$CUZK" daemon --listen \
  "unix://$WORK/open/s.sock"
mkdir -m 1777 sticky
start_daemon d6.log --listen "unix://$WORK/sticky/s.sock"
grep -q "warning: the socket's folder .* sticky" d6.log || fail "no warning for a sticky shared folder"
kill -TERM "$DPID"
wait "$DPID"
DPID=""

# loopback TCP, port 0
start_daemon d4.log --listen 127.0.0.1:0 --test-kinds
TA=$(sed -n 's/.*listening on \([0-9.]*:[0-9]*\).*/\1/p' d4.log)
[ -n "$TA" ] || fail "no TCP address in: $(head -c 300 d4.log)"
expect_ok "prove over TCP" "$CUZK" client prove --addr "$TA" --kind test --circuit random:1024
expect_fail "a second daemon on the port" 1 "cannot bind" "$CUZK" daemon --listen "$TA"
kill -TERM "$DPID"
wait "$DPID"
DPID=""
finish
