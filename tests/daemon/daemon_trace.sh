#!/usr/bin/env bash
# TIMEOUT 300
# TIER fast (alone on 2 cores: 5 s)
# A job's trace through the daemon, by the request id it was submitted with: GET /trace?job=ID
# on the HTTP endpoint (200 with the trace, 404 for an unknown id, 400 for a missing or
# malformed one) and `cuzk client trace` over gRPC (GetTrace: NOT_FOUND for an unknown id, a
# nonzero exit and no file). Both traces are valid, their spans nest (tests/cli/trace_check.py)
# and show the partitions on the CPU and the witness lane.
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../cli/lib.bash"
. "$HERE/daemon_lib.bash"
CHECK=$HERE/../cli/trace_check.py

test_params "$WORK/params" random:1024 || { finish; exit 1; }
printf '[daemon]\nlisten = unix://%s/d.sock\nhttp_listen = 127.0.0.1:0\ntest_kinds = true\n' "$SOCK_DIR" >d.ini
FIL_PROOFS_PARAMETER_CACHE=$WORK/params start_daemon d --config d.ini || { finish; exit 1; }
A=$DAEMON_ADDR
PORT=$(sed -n 's/.*HTTP \/metrics, \/status and \/trace on port \([0-9]*\).*/\1/p' d.log)
[ -n "$PORT" ] || fail "the daemon does not say its HTTP port: $(head -c 300 d.log)"

expect_ok "client prove (2 partitions)" "$CUZK" client prove --addr "$A" --kind test --circuit random:1024 \
  --partition 1 --request-id sector-42


CHECKS=$((CHECKS + 1))
code=$(http_get "/trace?job=sector-42" h.json)
[ "$code" = 200 ] || fail "GET /trace?job=sector-42: $code $(head -c 300 h.json)"
expect_ok "the HTTP trace is valid and nested" python3 "$CHECK" h.json --jobs 1 --process 'sector-42' \
  --track '^CPU$' --track '^witness lane' --span 'partition 1' --span 'prove on the CPU'
cat out.txt
CHECKS=$((CHECKS + 1))
code=$(http_get "/trace?job=no-such-job" nf.txt)
[ "$code" = 404 ] && grep -q "no-such-job" nf.txt || fail "GET /trace of an unknown job: $code $(cat nf.txt)"
for q in "/trace" "/trace?job=" "/trace?job=a%0Ab"; do
  CHECKS=$((CHECKS + 1))
  code=$(http_get "$q" bad.txt)
  [ "$code" = 400 ] && grep -q "job" bad.txt || fail "GET $q: $code, not 400 ($(cat bad.txt))"
done

expect_ok "client trace JOB_ID -o FILE" "$CUZK" client trace --addr "$A" sector-42 -o c.json
grep -q "trace of job sector-42 written to c.json" err.txt || fail "client trace says: $(cat err.txt)"
expect_ok "the gRPC trace is valid and nested" python3 "$CHECK" c.json --jobs 1 --process 'sector-42' \
  --track '^CPU$' --span 'partition 1'
expect_ok "client trace --job --out" "$CUZK" client trace --addr "$A" --job sector-42 --out c2.json
expect_ok "... the same trace" cmp c.json c2.json
expect_fail "client trace of an unknown job" 1 "NOT_FOUND.*nope" "$CUZK" client trace --addr "$A" nope -o n.json
expect_fail "client trace without -o" 2 "missing required option --out" "$CUZK" client trace --addr "$A" sector-42
expect_fail "client trace without a job" 2 "missing required option --job" "$CUZK" client trace --addr "$A" -o n.json
expect_fail "client trace into a missing folder" 1 "nodir" "$CUZK" client trace --addr "$A" sector-42 -o nodir/t.json
finish
