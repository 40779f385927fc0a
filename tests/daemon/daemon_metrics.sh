#!/usr/bin/env bash
# TIMEOUT 300
# TIER fast (alone on 2 cores: 5 s)
# What the daemon writes for the tools providers use: /metrics on an idle daemon is short and
# valid Prometheus text; after one small proof every metric name in contrib/grafana/cuzk.json's
# PromQL is a family /metrics exports (and a renamed one is caught); the job log is one JSON
# object per line with an RFC 3339 time, the miner id where the request gave one, and no line
# from a request id that is not UTF-8 (refused: INVALID_ARGUMENT).
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../cli/lib.bash"
. "$HERE/daemon_lib.bash"
CHECK=$HERE/metrics_check.py
DASH=$SRC/contrib/grafana/cuzk.json
IDLE_MAX=100 # README, "Metrics": about 80 lines at rest

test_params "$WORK/params" random:1024 || { finish; exit 1; }
printf '[daemon]\nlisten = unix://%s/d.sock\nhttp_listen = 127.0.0.1:0\ntest_kinds = true\nlog_file = %s/jobs.log\n' \
  "$SOCK_DIR" "$WORK" >d.ini
FIL_PROOFS_PARAMETER_CACHE=$WORK/params start_daemon d --config d.ini || { finish; exit 1; }
A=$DAEMON_ADDR
PORT=$(sed -n 's/.*HTTP \/metrics, \/status and \/trace on port \([0-9]*\).*/\1/p' d.log)
[ -n "$PORT" ] || fail "the daemon does not say its HTTP port: $(head -c 300 d.log)"

metrics_to() {
  python3 -c 'import sys, urllib.request; sys.stdout.buffer.write(urllib.request.urlopen(sys.argv[1], timeout=10).read())' \
    "http://127.0.0.1:$PORT/metrics" >"$1"
}
expect_ok "GET /metrics (idle)" metrics_to idle.txt
expect_ok "idle /metrics: valid, at most $IDLE_MAX lines" python3 "$CHECK" format idle.txt "$IDLE_MAX"
cat out.txt
CHECKS=$((CHECKS + 1))
grep -q '^cuzk_jobs_submitted_total{kind="circuit"} 0$' idle.txt || fail "idle: no zero count of submitted circuit jobs"
CHECKS=$((CHECKS + 1))
! grep -q '^cuzk_job_duration_seconds_bucket' idle.txt || fail "idle: histograms of kinds never submitted"

expect_ok "client prove with a miner id" "$CUZK" client prove --addr "$A" --kind test --circuit random:1024 \
  --request-id metrics-1 --miner-id 1234 --proof p.bin
# the client's time summary: parts that add up to the total
CHECKS=$((CHECKS + 1))
python3 - out.txt <<'PY' || fail "the client's time summary does not add up: $(grep 'total' out.txt)"
import re, sys
m = re.search(r"total (\d+) ms = waiting (\d+) \+ parameters (\d+) \+ witness (\d+) \+ proving (\d+) \+ verifying and the rest (\d+)", open(sys.argv[1]).read())
sys.exit(0 if m and int(m.group(1)) == sum(int(g) for g in m.groups()[1:]) and int(m.group(5)) > 0 else 1)
PY
expect_fail "a request id that is not UTF-8, with control characters" 1 "INVALID_ARGUMENT.*UTF-8" \
  "$CUZK" client prove --addr "$A" --kind test --circuit random:1024 --request-id $'bad\xff\x01\x1b'
expect_fail "a circuit name that is not UTF-8" 1 "INVALID_ARGUMENT" \
  "$CUZK" client prove --addr "$A" --kind test --circuit $'nope\xff\x01"' --request-id metrics-2

expect_ok "GET /metrics (after a proof)" metrics_to after.txt
expect_ok "/metrics after a proof: valid" python3 "$CHECK" format after.txt
CHECKS=$((CHECKS + 1))
grep -q '^cuzk_job_duration_seconds_count{kind="circuit"} 1$' after.txt || fail "no duration histogram of the job"
expect_ok "every metric of the dashboard is exported" python3 "$CHECK" dashboard "$DASH" after.txt
cat out.txt
# the check itself: a dashboard naming a metric the daemon lacks fails
sed 's/cuzk_queue_depth/cuzk_queue_depth_renamed/' "$DASH" >renamed.json
expect_fail "a dashboard with a metric the daemon lacks" 1 "cuzk_queue_depth_renamed" \
  python3 "$CHECK" dashboard renamed.json after.txt

expect_ok "the job log: JSON lines, the proof's with its miner id" python3 "$CHECK" joblog jobs.log \
  request_id=metrics-1 kind=circuit state=COMPLETED miner_id=1234 circuit=random:1024
CHECKS=$((CHECKS + 1))
[ "$(wc -l <jobs.log)" = 1 ] || fail "the job log has $(wc -l <jobs.log) lines: only the proof ends a job"
# ... and the checker refuses a line that is not JSON, and a time without milliseconds
printf '{"time":"2026-01-01T00:00:00Z","job":1}\n' >bad1.log
expect_fail "a job log time without milliseconds" 1 "RFC 3339" python3 "$CHECK" joblog bad1.log
printf '{"time":"2026-01-01T00:00:00.000Z","request_id":"a\xffb"}\n' >bad2.log
expect_fail "a job log line that is not UTF-8" 1 "not one JSON object" python3 "$CHECK" joblog bad2.log
finish
