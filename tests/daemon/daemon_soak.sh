#!/usr/bin/env bash
# Registered by hand in cmake/tests.cmake (not by the daemon tests' glob): daemon_soak_short in
# the slow tier (SOAK_SECONDS=20: about 35 s alone on 2 cores), daemon_soak for `make soak`.
# The soak: for SOAK_SECONDS (default 600) a daemon serves a well-behaved client's steady
# stream of test-kind proofs (random:1024, 2048 and 4096, 1-3 partitions, LOW to CRITICAL) beside
# hostile traffic (tests/daemon/soak_client.py: connection floods, messages over the size limit
# and over the field bound, random bytes as requests and on the socket, a cancel storm with
# unknown ids; from here: idle and preface-only connections held past the first-call deadline,
# the job log rotated and SIGHUP every 5 s). Then it asserts: the daemon never died (the pid
# it started answered every second), every steady request id answered exactly once, COMPLETED,
# with 192 bytes a partition, and ended once in the job log; the proofs verify with `cuzk
# verify` (public inputs from the same seeds; SOAK_VERIFY_MAX a circuit, default 200, 0: all,
# the engine having verified every one); the hostile calls got the refusals expected and
# GetStatus never failed; the daemon's resident memory, sampled every second, stayed under
# engine.host_budget plus a margin; CRITICAL latency is reported (median, max) and bounded.
# A final SIGTERM ends it with exit 0 within the drain grace. A summary block closes the run.
# `make soak` runs it (SOAK_SECONDS, default 600); `make test` runs it for 20 s (daemon_soak_short,
# SOAK_VERIFY_MAX=15: 15 proofs a circuit checked by `cuzk verify`, all of them by the engine).
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../cli/lib.bash"
. "$HERE/daemon_lib.bash"
need_clients

SOAK_SECONDS=${SOAK_SECONDS:-600}
HOST_BUDGET=$((256 << 20))  # engine.host_budget of the soak's daemon
RSS_MARGIN=$((256 << 20))   # beside it: code, gRPC's buffers, thread stacks, the allocator's slack
MAX_MESSAGE=$((16 << 20))   # daemon.max_message_bytes: the oversized requests are 4 MiB over
DRAIN_GRACE=20
CRITICAL_LIMIT_S=${SOAK_CRITICAL_LIMIT_S:-15}
# proofs of each circuit checked again by `cuzk verify` (0: all), the first ones in seed order:
# the engine verified every one before answering COMPLETED, and `cuzk prove --count` (the public
# inputs) proves them all again on the CPU, 15 minutes for the 3600 proofs of 600 s; so 200 a
# circuit by default, 15 in the short run of make test
VERIFY_MAX=${SOAK_VERIFY_MAX:-200}
test_params "$WORK/params" random:1024 random:2048 random:4096 || { fail "parameters"; finish; exit 1; }
export FIL_PROOFS_PARAMETER_CACHE=$WORK/params

cat >soak.ini <<EOF
[daemon]
test_kinds = true
max_message_bytes = $MAX_MESSAGE
drain_grace_s = $DRAIN_GRACE
log_file = $WORK/jobs.log
[engine]
host_budget = $HOST_BUDGET
EOF
start_daemon soak --config soak.ini --listen "unix://$SOCK_DIR/soak.sock" || { finish; exit 1; }
PID=$DAEMON_PID ADDR=$DAEMON_ADDR SOCK=$SOCK_DIR/soak.sock
T_START=$SECONDS

# the daemon's pid and resident memory every second, for as long as the traffic lasts
(
  while :; do
    if kill -0 "$PID" 2>/dev/null; then echo "$SECONDS $(vmrss_kb "$PID")"; else echo "$SECONDS dead"; fi
    sleep 1
  done
) >rss.txt &
SAMPLER=$!
CLIENT_PIDS+=("$SAMPLER")

# idle and preface-only connections, 10 of each, held 13 s (the first-call deadline closes them
# at 10 s), again and again
(
  end=$((SECONDS + SOAK_SECONDS))
  while [ $SECONDS -lt $end ]; do
    hold 10 "$SOCK" 13 >>idle.out &
    hold 10 "$SOCK" 13 preface >>preface.out
    wait
  done
) &
IDLER=$!
CLIENT_PIDS+=("$IDLER")

# logrotate's way every 5 s: the job log moved aside, SIGHUP (the daemon reopens it)
(
  end=$((SECONDS + SOAK_SECONDS)) k=0
  while [ $SECONDS -lt $end ]; do
    sleep 5
    k=$((k + 1))
    mv jobs.log "jobs.log.$k" 2>/dev/null
    kill -HUP "$PID" 2>/dev/null
  done
) &
ROTATOR=$!
CLIENT_PIDS+=("$ROTATOR")

timeout -k 10 $((SOAK_SECONDS + 900)) "$PY" "$HERE/soak_client.py" --addr "$ADDR" --socket "$SOCK" \
  --seconds "$SOAK_SECONDS" --out results.json --max-message-bytes "$MAX_MESSAGE" >client.out 2>&1
client_rc=$?
wait "$IDLER" "$ROTATOR" 2>/dev/null
kill "$SAMPLER" 2>/dev/null
wait "$SAMPLER" 2>/dev/null
T_TRAFFIC=$((SECONDS - T_START))
CHECKS=$((CHECKS + 1))
[ $client_rc -eq 0 ] && [ -s results.json ] || fail "the soak's client: exit $client_rc: $(tail -c 600 client.out)"

# the daemon alive throughout: every sample found the pid it started
CHECKS=$((CHECKS + 1))
dead=$(grep -c ' dead$' rss.txt)
[ "$dead" = 0 ] && kill -0 "$PID" 2>/dev/null || fail "the daemon (pid $PID) died during the soak: $dead samples without it"
[ "$(grep -c 'listening on' soak.log)" = 1 ] || fail "the daemon started more than once: $(grep 'listening on' soak.log)"
# resident memory under the budget plus the margin
max_rss_kb=$(awk '$2 != "dead" && $2 > m { m = $2 } END { print m + 0 }' rss.txt)
samples=$(grep -vc ' dead$' rss.txt)
CHECKS=$((CHECKS + 1))
[ "$max_rss_kb" -gt 0 ] && [ "$max_rss_kb" -lt $(((HOST_BUDGET + RSS_MARGIN) / 1024)) ] ||
  fail "the daemon's RSS reached $max_rss_kb kB, over engine.host_budget + margin ($(((HOST_BUDGET + RSS_MARGIN) / 1024)) kB)"
# the idle and preface-only connections closed by the daemon, never before the deadline
idle_rounds=$(grep -c '^closed 10 after' idle.out preface.out | awk -F: '{ s += $2 } END { print s + 0 }')
idle_open=$(grep '^closed' idle.out preface.out | grep -vc 'closed 10 after')
CHECKS=$((CHECKS + 1))
[ "$idle_rounds" -gt 0 ] && [ "$idle_open" = 0 ] ||
  fail "idle and preface-only connections: $idle_rounds rounds closed, $idle_open rounds not all closed within 13 s"

# the job log: every steady job ended once, COMPLETED (checked below); after each move and
# SIGHUP the daemon wrote to a new jobs.log (it reopened the file), so the files moved aside
# have lines, and jobs.log is there at the end
rotations=$(ls jobs.log.* 2>/dev/null | wc -l)
rotated_with_lines=$(for f in jobs.log.*; do [ -s "$f" ] && echo "$f"; done 2>/dev/null | wc -l)
CHECKS=$((CHECKS + 1))
[ "$rotations" -gt 0 ] && [ -f jobs.log ] && [ "$rotated_with_lines" -ge $((rotations - 1)) ] ||
  fail "the job log across SIGHUP: $rotations moved aside, $rotated_with_lines with lines, jobs.log $([ -f jobs.log ] && echo there || echo missing) at the end"
cat $(ls jobs.log.* 2>/dev/null | sort -t. -k3 -n) jobs.log 2>/dev/null >alljobs.log

# the checks of the results; the proofs of each circuit in seed order for cuzk verify
"$PY" - "$CRITICAL_LIMIT_S" "$VERIFY_MAX" <<'PY' >check.txt 2>&1
import collections, json, statistics, sys
limit, verify_max = float(sys.argv[1]), int(sys.argv[2])
out = json.load(open("results.json"))
steady, hostile = out["steady"], out["hostile"]
fails = []
def fail(m):
    fails.append(m)
ids = [r["id"] for r in steady]
if len(set(ids)) != len(ids):
    fail("request ids used twice by the steady client")
ended = collections.defaultdict(list)
for line in open("alljobs.log"):
    line = line.strip()
    if not line.startswith("{"):
        continue
    try:
        j = json.loads(line)
    except ValueError:
        fail("a job log line that is not JSON: %s" % line[:200]); continue
    if j.get("request_id"):
        ended[j["request_id"]].append(j.get("state"))
completed = 0
for r in steady:
    if r.get("answers") != 1:
        fail("%s: answered %s times" % (r["id"], r.get("answers", 0))); continue
    if r.get("status") != "COMPLETED":
        fail("%s (%s): %s %s" % (r["id"], r["priority"], r.get("status"), r.get("error", "")[:200])); continue
    if r.get("job_id") != r["id"]:
        fail("%s: job id %s" % (r["id"], r.get("job_id")))
    if len(r["proof"]) != 2 * 192 * r["parts"]:
        fail("%s: %d proof bytes for %d partitions" % (r["id"], len(r["proof"]) // 2, r["parts"]))
    if ended.get(r["id"]) != ["COMPLETED"]:
        fail("%s: ended in the job log as %s" % (r["id"], ended.get(r["id"])))
    completed += 1
if out["steady_threads_left"] or out["hostile_threads_left"]:
    fail("client threads still running: %d steady, %d hostile" % (out["steady_threads_left"], out["hostile_threads_left"]))
for name, t in sorted(hostile.items()):
    if t["unexpected"]:
        fail("%s: %d unexpected outcomes, e.g. %s" % (name, t["unexpected"], t["examples"][:3]))
for need in (("oversized", "over the message limit: RESOURCE_EXHAUSTED"), ("oversized", "200000 fields: INVALID_ARGUMENT"),
             ("storm", "cancel"), ("status", "GetStatus"), ("flood", "connections")):
    if not hostile[need[0]]["counts"].get(need[1]):
        fail("%s: no '%s' in the run" % need)
# proofs of each circuit in seed order: consecutive seeds, one cuzk verify a run
groups = collections.defaultdict(list)
for r in steady:
    if r.get("status") == "COMPLETED":
        groups[r["circuit"]].append(r)
with open("groups.txt", "w") as g:
    for circuit, rs in sorted(groups.items()):
        rs.sort(key=lambda r: r["seed"])
        runs, cur = [], [rs[0]]
        for r in rs[1:]:
            if r["seed"] == cur[-1]["seed"] + cur[-1]["parts"]:
                cur.append(r)
            else:
                runs.append(cur); cur = [r]
        runs.append(cur)
        # at most verify_max proofs of the circuit (0: all), whole runs from the first
        left = verify_max or sum(r["parts"] for r in rs)
        for i, run in enumerate(runs):
            while run and sum(r["parts"] for r in run) > left:
                run = run[:-1]
            if not run:
                break
            left -= sum(r["parts"] for r in run)
            name = "%s-%d.proof" % (circuit.replace(":", "-"), i)
            with open(name, "wb") as f:
                for r in run:
                    f.write(bytes.fromhex(r["proof"]))
            g.write("%s %d %d %s\n" % (circuit, run[0]["seed"], sum(r["parts"] for r in run), name))
crit = sorted(r["seconds"] for r in steady if r["priority"] == "CRITICAL" and r.get("status") == "COMPLETED")
allsec = sorted(r["seconds"] for r in steady if r.get("status") == "COMPLETED")
by_prio = collections.Counter(r["priority"] for r in steady)
summary = {
    "steady_calls": len(steady), "completed": completed, "by_priority": dict(by_prio),
    "critical_n": len(crit), "critical_median_s": statistics.median(crit) if crit else None,
    "critical_max_s": crit[-1] if crit else None,
    "all_median_s": statistics.median(allsec) if allsec else None, "all_max_s": allsec[-1] if allsec else None,
    "hostile": {n: t["counts"] for n, t in hostile.items()},
}
json.dump(summary, open("summary.json", "w"))
if not crit:
    fail("no CRITICAL call completed")
elif crit[-1] > limit:
    fail("a CRITICAL call took %.3f s, over %.1f s" % (crit[-1], limit))
for f in fails[:30]:
    print("FAIL: " + f)
print("%d problems" % len(fails))
sys.exit(1 if fails else 0)
PY
rc=$?
CHECKS=$((CHECKS + 1))
[ $rc -eq 0 ] || { cat check.txt; fail "soak results: $(tail -n 1 check.txt)"; }

# SIGTERM: exit 0 within the drain grace
t0=$SECONDS
stop_daemon "$PID" TERM
stop_s=$((SECONDS - t0))
CHECKS=$((CHECKS + 1))
[ "$STOP_RC" = 0 ] && [ $stop_s -le $DRAIN_GRACE ] || fail "SIGTERM: exit $STOP_RC after $stop_s s (grace $DRAIN_GRACE s)"

# the proofs verify: one cuzk verify per run of consecutive seeds (VERIFY_MAX a circuit)
t0=$SECONDS
nproofs=0
while read -r circuit seed count file; do
  CHECKS=$((CHECKS + 1))
  inputs_of "$circuit" "$seed" "$count" "$file.json" || { fail "inputs of $circuit seeds $seed+$count"; continue; }
  "$CUZK" verify --vk "$WORK/params/cuzk-test-${circuit//:/-}.vk" --proof "$file" --inputs "$file.json" >v.out 2>&1 ||
    fail "cuzk verify $file ($circuit, seeds $seed..$((seed + count - 1))): $(head -c 300 v.out)"
  nproofs=$((nproofs + count))
done <groups.txt
verify_s=$((SECONDS - t0))

"$PY" - "$T_TRAFFIC" "$samples" "$max_rss_kb" "$HOST_BUDGET" "$RSS_MARGIN" "$stop_s" "$STOP_RC" "$nproofs" \
  "$verify_s" "$idle_rounds" "$idle_open" "$PID" "$FAILS" "$rotations" "$(wc -l <alljobs.log)" <<'PY'
import json, sys
(t, samples, rss, budget, margin, stop_s, stop_rc, nproofs, verify_s, idle_rounds, idle_open, pid, fails, rotations,
 loglines) = sys.argv[1:16]
try:
    s = json.load(open("summary.json"))
except (OSError, ValueError):
    s = {}
f = lambda v: "%.3f s" % v if isinstance(v, float) else str(v)
print("==== soak summary ====")
print("traffic               %s s; daemon pid %s alive in all %s samples" % (t, pid, samples))
print("steady proofs         %s calls, %s COMPLETED and verified by the engine (%s); %s proofs verified again with cuzk verify in %s s" % (
    s.get("steady_calls"), s.get("completed"), ", ".join("%s %d" % kv for kv in sorted(s.get("by_priority", {}).items())),
    nproofs, verify_s))
print("latency               CRITICAL (%s calls): median %s, max %s; all calls: median %s, max %s" % (
    s.get("critical_n"), f(s.get("critical_median_s")), f(s.get("critical_max_s")), f(s.get("all_median_s")),
    f(s.get("all_max_s"))))
print("daemon RSS            max %.1f MiB sampled every second (bound: host_budget %d MiB + %d MiB)" % (
    int(rss) / 1024, int(budget) >> 20, int(margin) >> 20))
for name, counts in sorted(s.get("hostile", {}).items()):
    print("hostile %-13s %s" % (name, ", ".join("%s %s" % kv for kv in sorted(counts.items()))))
print("hostile idle/preface  %s rounds of 10 connections closed by the daemon, %s rounds not all closed" % (
    idle_rounds, idle_open))
print("SIGHUP                %s (job log moved aside each time; %s lines in all)" % (rotations, loglines))
print("SIGTERM               exit %s after %s s" % (stop_rc, stop_s))
print("failures              %s" % fails)
print("======================")
PY
finish
