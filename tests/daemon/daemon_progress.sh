#!/usr/bin/env bash
# TIMEOUT 300
# TIER fast (alone on 2 cores: 25 s, parameters cached)
# The jobs' progress through the daemon: with a long job running and one queued behind it,
# `cuzk client jobs` (table and --json) lists both by request id with state, stage and
# partitions; `cuzk client top --once` prints one frame of devices, circuits, queues and jobs,
# and on a pseudo-terminal redraws it until q or Ctrl-C, giving the screen and cursor back;
# GetStatus with job_id (Python grpcio) answers that job alone and NOT_FOUND for an unknown
# one; GET /status names the device's running job by request id and lists the jobs, and
# GET /status?job=ID answers one job (404 unknown, 400 empty). `cuzk client await` on a
# pseudo-terminal draws the updating line (stage, partitions proved, time left) and clears it
# before the result; on a pipe it draws nothing. Once ended (completed, cancelled), the jobs are
# listed as ended.
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../cli/lib.bash"
. "$HERE/daemon_lib.bash"
command -v script >/dev/null || { echo "SKIPPED: script (util-linux) is not installed"; exit 77; }
need_clients

test_params "$WORK/params" random:1024 random:16384 || { finish; exit 1; }
printf '[daemon]\nlisten = unix://%s/d.sock\nhttp_listen = 127.0.0.1:0\ntest_kinds = true\n' "$SOCK_DIR" >d.ini
FIL_PROOFS_PARAMETER_CACHE=$WORK/params start_daemon d --config d.ini || { finish; exit 1; }
A=$DAEMON_ADDR
PORT=$(sed -n 's/.*HTTP \/metrics, \/status and \/trace on port \([0-9]*\).*/\1/p' d.log)
[ -n "$PORT" ] || fail "the daemon does not say its HTTP port: $(head -c 300 d.log)"


# a long job (24 partitions of random:16384 on the CPU) and a short one queued behind it
expect_ok "client submit (long)" "$CUZK" client submit --addr "$A" --kind test --circuit random:16384 \
  --partition 23 --request-id long-1
expect_ok "client submit (short)" "$CUZK" client submit --addr "$A" --kind test --circuit random:1024 \
  --request-id short-2
# wait until the long job has a partition on the device
for _ in $(seq 300); do
  "$CUZK" client jobs --addr "$A" --json >jobs.json 2>/dev/null &&
    python3 -c 'import json,sys; j={x["job_id"]: x for x in json.load(open("jobs.json"))["jobs"]}; sys.exit(0 if j["long-1"]["stage"] == "proving" else 1)' 2>/dev/null && break
  sleep 0.1
done

expect_ok "client jobs" "$CUZK" client jobs --addr "$A"
CHECKS=$((CHECKS + 1))
grep -Eq '^REQUEST ID +KIND +STATE +STAGE +PROVED +ELAPSED +LEFT' out.txt || fail "client jobs: no header: $(cat out.txt)"
CHECKS=$((CHECKS + 1))
grep -Eq '^long-1 +test-circuit +RUNNING +proving' out.txt || fail "client jobs: long-1 is not RUNNING/proving: $(cat out.txt)"
CHECKS=$((CHECKS + 1))
grep -Eq '^long-1 .* [0-9]+/24 ' out.txt || fail "client jobs: long-1 has no N/24 partitions: $(cat out.txt)"
CHECKS=$((CHECKS + 1))
grep -Eq '^short-2 +test-circuit +(QUEUED|RUNNING) ' out.txt || fail "client jobs: short-2 missing: $(cat out.txt)"

expect_ok "client jobs --json" "$CUZK" client jobs --addr "$A" --json
cp out.txt list.json
expect_ok "client jobs --json: the fields" python3 - list.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
jobs = {j["job_id"]: j for j in d["jobs"]}
assert d["jobs_total"] == len(d["jobs"]) == 2, d
l = jobs["long-1"]
assert l["proof_kind"] == "test-circuit" and l["circuit_id"] == "random:16384", l
assert l["state"] == "RUNNING" and l["stage"] == "proving" and l["partitions"] == 24, l
assert 0 <= l["partitions_proved"] < 24 and l["partitions_witnessed"] >= 1 and l["engine_job"] >= 1, l
assert l["elapsed_ms"] >= l["queue_ms"] >= 0 and l["priority"] == "normal", l
assert d["jobs"][0]["job_id"] == "long-1", "the running job is listed first"
s = jobs["short-2"]
assert s["partitions"] == 1 and s["partitions_proved"] == 0 and s["state"] in ("QUEUED", "RUNNING"), s
PY

expect_ok "client top --once" "$CUZK" client top --addr "$A" --once
for what in "^cuzk daemon " "^devices" "no GPU: the CPU backend proves" "^circuits" "random:16384" "^queues" \
  "test-circuit +[0-9]+ queued +[0-9]+ running" "^jobs" "^long-1 +test-circuit +RUNNING" "^short-2"; do
  CHECKS=$((CHECKS + 1))
  grep -Eq -- "$what" out.txt || fail "client top --once lacks /$what/: $(head -c 600 out.txt)"
done
CHECKS=$((CHECKS + 1))
grep -q $'\e' out.txt && fail "client top --once on a pipe wrote terminal controls"
expect_fail "client top --interval 0" 2 "interval" "$CUZK" client top --addr "$A" --interval 0

# GetStatus by job id, from an independent client
expect_ok "GetStatus job_id=long-1 (grpcio)" py --addr "$A" status --job long-1
cp out.txt one.json
expect_ok "... its one job" python3 - one.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert len(d["jobs"]) == 1 and d["jobs_total"] == 1, d
j = d["jobs"][0]
assert j["job_id"] == "long-1" and j["partitions"] == 24 and j["stage"] in ("proving", "verifying", "ended"), j
assert isinstance(j["fraction_done"], float) and 0 <= j["fraction_done"] <= 1, j
assert int(j["expected_left_ms"]) >= -1, j
# upstream's fields are all still there
for k in ("gpus", "loaded_srs", "queues", "total_proofs_completed", "uptime_seconds", "pinned_memory_bytes"):
    assert k in d, k
PY
expect_fail "GetStatus of an unknown job (grpcio)" 1 "NOT_FOUND" py --addr "$A" status --job no-such-job

# /status: the device's job by request id, the jobs; /status?job=
CHECKS=$((CHECKS + 1))
code=$(http_get "/status" s.json)
[ "$code" = 200 ] || fail "GET /status: $code"
expect_ok "GET /status: running_request and jobs" python3 - s.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
# each busy device names its job by request id (the long job is still running on 2 cores)
for x in d["devices"]:
    assert "running_request" in x and (x["running_job"] == 0) == (x["running_request"] == ""), x
assert any(x["running_request"] == "long-1" for x in d["devices"]) or \
    any(j["request_id"] == "long-1" and j["state"] == "COMPLETED" for j in d["jobs"]), d["devices"]
ids = [j["request_id"] for j in d["jobs"]]
assert "long-1" in ids and "short-2" in ids and d["jobs_total"] == 2, ids
PY
CHECKS=$((CHECKS + 1))
code=$(http_get "/status?job=long-1" j.json)
[ "$code" = 200 ] && python3 -c 'import json,sys; j=json.load(open("j.json")); sys.exit(0 if j["request_id"]=="long-1" and j["partitions"]==24 and j["kind"]=="circuit" else 1)' ||
  fail "GET /status?job=long-1: $code $(head -c 300 j.json)"
CHECKS=$((CHECKS + 1))
code=$(http_get "/status?job=no-such-job" nf.txt)
[ "$code" = 404 ] || fail "GET /status?job=no-such-job: $code, not 404 ($(cat nf.txt))"
CHECKS=$((CHECKS + 1))
code=$(http_get "/status?job=" e.txt)
[ "$code" = 400 ] || fail "GET /status?job=: $code, not 400 ($(cat e.txt))"

# live on a terminal: frames redrawn on the alternate screen until q (or Ctrl-C) ends it, the
# cursor and the screen given back
for key in q $'\003'; do
  CHECKS=$((CHECKS + 1))
  # exec: script runs the command through $SHELL or /bin/sh; dash stays as its parent and, in
  # the terminal's process group, is killed by the ^C (exit 130) that cuzk handles
  (sleep 2; printf '%s' "$key") | timeout 30 script -qec "exec '$CUZK' client top --addr '$A' --interval 0.5" /dev/null \
    >top.txt 2>&1
  rc=$?
  [ $rc = 0 ] || fail "client top on a terminal, ended by $(printf '%q' "$key"): exit $rc ($(tail -c 200 top.txt))"
  CHECKS=$((CHECKS + 1))
  [ "$(grep -ac '^devices' top.txt)" -ge 2 ] || fail "client top on a terminal drew fewer than 2 frames in 2 s"
  CHECKS=$((CHECKS + 1))
  head -c 16 top.txt | grep -aqF $'\e[?1049h' && tail -c 32 top.txt | grep -aqF $'\e[?25h\e[?1049l' ||
    fail "client top did not enter and leave the alternate screen: $(od -c top.txt | tail -3)"
done

# await on a terminal: the updating line, cleared before the result; on a pipe: none (a job of
# its own, submitted now, so that it runs for seconds whatever the checks above took)
# long-1 is not needed any more: cancelled (unless it already completed), the device freed
expect_ok "client cancel (long-1)" "$CUZK" client cancel --addr "$A" --job long-1
expect_ok "client submit (long-3)" "$CUZK" client submit --addr "$A" --kind test --circuit random:16384 \
  --partition 11 --request-id long-3
CHECKS=$((CHECKS + 1))
script -qec "exec '$CUZK' client await --addr '$A' --job long-3" /dev/null </dev/null >tty.txt 2>&1 ||
  fail "client await under a terminal failed: $(tail -c 300 tty.txt)"
CHECKS=$((CHECKS + 1))
grep -aqE $'\r''job long-3: (queued|witness|proving|verifying)[^\r]*/12 partitions proved' tty.txt ||
  fail "client await drew no progress line on a terminal: $(head -c 400 tty.txt | od -c | head -20)"
CHECKS=$((CHECKS + 1))
grep -aq "job long-3: COMPLETED" tty.txt || fail "client await under a terminal lost its result: $(tail -c 300 tty.txt)"
expect_ok "client await (short), stderr a pipe" bash -c "'$CUZK' client await --addr '$A' --job short-2 2>&1 | cat >pipe.txt"
CHECKS=$((CHECKS + 1))
{ grep -q $'\r' pipe.txt || grep -q "partitions proved" pipe.txt; } && fail "client await drew progress on a pipe: $(cat pipe.txt)"
grep -q "job short-2: COMPLETED" pipe.txt || fail "client await on a pipe: $(cat pipe.txt)"

# prove on a terminal without a request id: the client names the job and draws its line
CHECKS=$((CHECKS + 1))
script -qec "exec '$CUZK' client prove --addr '$A' --kind test --circuit random:16384 --partition 5" /dev/null </dev/null \
  >prove.txt 2>&1 || fail "client prove under a terminal failed: $(tail -c 300 prove.txt)"
CHECKS=$((CHECKS + 1))
grep -aqE $'\r''job job-[0-9a-f]{32}: ' prove.txt || fail "client prove drew no line: $(head -c 400 prove.txt | od -c | head)"
CHECKS=$((CHECKS + 1))
grep -aqE "job job-[0-9a-f]{32}: COMPLETED" prove.txt || fail "client prove: $(tail -c 300 prove.txt)"

# ended: listed as such, with no time left
expect_ok "client jobs (ended)" "$CUZK" client jobs --addr "$A"
CHECKS=$((CHECKS + 1))
grep -Eq '^long-3 +test-circuit +COMPLETED +ended +12/12 .* -$' out.txt || fail "client jobs after the end: $(cat out.txt)"
CHECKS=$((CHECKS + 1))
grep -Eq '^long-1 +test-circuit +(CANCELLED|COMPLETED) +ended ' out.txt || fail "client jobs: long-1 not ended: $(cat out.txt)"
finish
