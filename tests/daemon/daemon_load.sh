#!/usr/bin/env bash
# TIMEOUT 1200
# TIER slow (alone on 2 cores: 73 s)
# Load: 200 Prove calls at once from the Python client (one thread each) over a Unix socket,
# of the test kind with three circuits, 1 to 3 partitions and every priority but CRITICAL;
# some calls repeat an earlier call's request id. While they run, CRITICAL calls are sent one
# after another and timed. Checks: every call answered once, COMPLETED, with 192 bytes per
# partition; a repeated request id gets its job's proof; total_proofs_completed (and the
# submitted counter of the metrics) equals the number of distinct jobs; every proof verifies
# (`cuzk verify` with the public inputs `cuzk prove` derives from the same seeds); the daemon's
# peak RSS (VmHWM) and the CRITICAL latencies are printed and bounded.
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../cli/lib.bash"
. "$HERE/daemon_lib.bash"
need_clients

CALLS=${LOAD_CALLS:-200} REPEATS=${LOAD_REPEATS:-20} CRITICAL=${LOAD_CRITICAL:-4}
# bounds (generous; the numbers measured on 2 busy cores are in tests/daemon/README.md)
RSS_LIMIT_KB=$((2 * 1024 * 1024))
CRITICAL_LIMIT_S=${LOAD_CRITICAL_LIMIT_S:-5}
CIRCUITS="random:1024 random:2048 random:4096"
# shellcheck disable=SC2086
test_params "$WORK/params" $CIRCUITS || { fail "parameters"; finish; exit 1; }
export FIL_PROOFS_PARAMETER_CACHE=$WORK/params

# The calls: call i proves circuit i mod 3 with 1 to 3 partitions at priority i mod 4
# (0, the kind's default, then LOW, NORMAL, HIGH); the last REPEATS calls repeat earlier ones
# (same request id, same request). Each circuit's jobs take consecutive seeds, so one
# `cuzk prove --seed BASE --count N` gives the public inputs of all of them in order.
"$PY" - "$CALLS" "$REPEATS" "$CIRCUITS" >spec.json <<'PY'
import json, sys
calls, repeats, circuits = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3].split()
base = {c: 1000 * (k + 1) for k, c in enumerate(circuits)}
next_seed = dict(base)
spec = []
for i in range(calls - repeats):
    c = circuits[i % len(circuits)]
    parts = 1 + (i // len(circuits)) % (3 if c == circuits[0] else 2 if c == circuits[1] else 1)
    spec.append({"id": "load-%03d" % i, "circuit": c, "parts": parts, "seed": next_seed[c], "priority": i % 4})
    next_seed[c] += parts
for k in range(repeats):
    spec.append(dict(spec[(k * 7) % len(spec)]))
# the repeats go in among the others, not at the end
order = sorted(range(len(spec)), key=lambda i: (i * 37) % len(spec))
json.dump([spec[i] for i in order], sys.stdout)
PY

start_daemon load --listen "unix://$SOCK_DIR/load.sock" --test-kinds || { finish; exit 1; }
PID=$DAEMON_PID ADDR=$DAEMON_ADDR
# the parameters are loaded once before the load, so the latencies are not the first load's
for c in $CIRCUITS; do
  expect_ok "warm-up $c" py --addr "$ADDR" prove --id "warm-$c" --circuit "$c" --seed 1
done
before=$(total_completed "$ADDR")
t0=$SECONDS
py --addr "$ADDR" --tag load --timeout 600 load --spec spec.json --out results.json --critical "$CRITICAL" \
  --critical-circuit random:1024 --critical-delay 1.5 --critical-gap 1.0 >load.txt 2>&1
rc=$?
cat load.txt
CHECKS=$((CHECKS + 1))
[ $rc -eq 0 ] || fail "load: exit $rc"
echo "  load: $CALLS calls answered in $((SECONDS - t0)) s"
after=$(total_completed "$ADDR")
py --addr "$ADDR" metrics >metrics.txt 2>&1 || fail "metrics after the load"
hwm=$(awk '/VmHWM/ {print $2}' "/proc/$PID/status")
rss=$(awk '/VmRSS/ {print $2}' "/proc/$PID/status")
echo "  daemon peak RSS (VmHWM): $((hwm / 1024)) MiB (now $((rss / 1024)) MiB)"
CHECKS=$((CHECKS + 1))
[ "$hwm" -lt "$RSS_LIMIT_KB" ] || fail "daemon peak RSS $hwm kB, over $RSS_LIMIT_KB kB"

# every call answered once and right; the proofs of each circuit in seed order for cuzk verify
"$PY" - "$before" "$after" "$CRITICAL_LIMIT_S" <<'PY' >check.txt 2>&1
import collections, json, re, sys
before, after, limit = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
spec = json.load(open("spec.json"))
out = json.load(open("results.json"))
res, crit = out["results"], out["critical"]
fails = []
def fail(m):
    fails.append(m)
if len(res) != len(spec):
    fail("%d results for %d calls" % (len(res), len(spec)))
by_id = collections.defaultdict(list)
for s, r in zip(spec, res):
    if r is None:
        fail("%s: no answer" % s["id"]); continue
    if r.get("id") != s["id"]:
        fail("answer of %s recorded for %s" % (r.get("id"), s["id"])); continue
    if r.get("status") != "COMPLETED":
        fail("%s: %s" % (s["id"], {k: v for k, v in r.items() if k != "proof"})); continue
    if r.get("job_id") != s["id"]:
        fail("%s: job id %s" % (s["id"], r.get("job_id")))
    if len(r["proof"]) != 2 * 192 * s["parts"]:
        fail("%s: %d proof bytes, %d expected" % (s["id"], len(r["proof"]) // 2, 192 * s["parts"]))
    by_id[s["id"]].append((s, r))
distinct = len({s["id"] for s in spec})
answered = sum(len(v) for v in by_id.values())
for rid, v in by_id.items():
    if len({x[1]["proof"] for x in v}) != 1:
        fail("%s: the calls of one request id got different proofs" % rid)
for c in crit:
    if c.get("status") != "COMPLETED" or c.get("proof_len") != 192:
        fail("CRITICAL call %s: %s" % (c["id"], {k: v for k, v in c.items() if k != "proof"}))
jobs = distinct + len(crit)
if after - before != jobs:
    fail("total_proofs_completed went %d -> %d: %d distinct jobs expected" % (before, after, jobs))
m = re.search(r'^cuzk_jobs_submitted_total\{kind="circuit"\} (\d+)$', open("metrics.txt").read(), re.M)
# the warm-up jobs are submitted too
if not m or int(m.group(1)) != before + jobs:
    fail("metrics: cuzk_jobs_submitted_total{kind=circuit} %s, %d expected" % (m.group(1) if m else "missing", before + jobs))
# proofs of each circuit, in seed order, and the seed range for the inputs
groups = collections.defaultdict(dict)
for rid, v in by_id.items():
    s, r = v[0]
    groups[s["circuit"]][s["seed"]] = (s["parts"], bytes.fromhex(r["proof"]))
with open("groups.txt", "w") as g:
    for circuit, seeds in sorted(groups.items()):
        order = sorted(seeds)
        total = 0
        for seed in order:  # consecutive seeds, no gap
            if seed != order[0] + total:
                fail("%s: seeds not consecutive at %d" % (circuit, seed))
            total += seeds[seed][0]
        stem = circuit.replace(":", "-")
        with open("all-%s.proof" % stem, "wb") as f:
            for seed in order:
                f.write(seeds[seed][1])
        g.write("%s %d %d all-%s.proof\n" % (circuit, order[0], total, stem))
    for c in crit:
        if c.get("status") == "COMPLETED":
            open("%s.proof" % c["id"], "wb").write(bytes.fromhex(c["proof"]))
            g.write("random:1024 %d 1 %s.proof\n" % (c["seed"], c["id"]))
lat = [c["seconds"] for c in crit if "seconds" in c]
normal = sorted(r["seconds"] for r in res if r and "seconds" in r)
print("  %d calls, %d distinct request ids, %d answers, %d CRITICAL calls; %d jobs completed" % (
    len(spec), distinct, answered, len(crit), after - before))
if normal:
    print("  latency of the load's calls: median %.2f s, max %.2f s" % (normal[len(normal) // 2], normal[-1]))
print("  CRITICAL latencies: %s (queue wait %s ms; load calls in flight when sent: %s)" % (
    ", ".join("%.3f s" % x for x in lat), ", ".join(str(c.get("queue_wait_ms", "?")) for c in crit),
    ", ".join(str(c.get("load_in_flight", "?")) for c in crit)))
if crit and not any(c.get("load_in_flight", 0) > 0 for c in crit):
    fail("no CRITICAL call was sent while the load ran (the load ended too soon to measure)")
if lat and max(lat) > limit:
    fail("a CRITICAL call took %.3f s, over %.1f s" % (max(lat), limit))
for f in fails[:30]:
    print("FAIL: " + f)
sys.exit(1 if fails else 0)
PY
rc=$?
cat check.txt
CHECKS=$((CHECKS + 1))
[ $rc -eq 0 ] || fail "load results: $(grep -c FAIL check.txt) problems"
stop_daemon "$PID" TERM
CHECKS=$((CHECKS + 1))
[ "$STOP_RC" = 0 ] || fail "load daemon: SIGTERM exit $STOP_RC"

# every proof verifies: one `cuzk verify` per circuit over all its jobs' proofs
t0=$SECONDS
nproofs=0
while read -r circuit seed count file; do
  CHECKS=$((CHECKS + 1))
  stem=cuzk-test-${circuit//:/-}
  inputs_of "$circuit" "$seed" "$count" "$file.json" || { fail "inputs of $circuit seeds $seed+$count"; continue; }
  "$CUZK" verify --vk "$WORK/params/$stem.vk" --proof "$file" --inputs "$file.json" >v.out 2>&1 ||
    fail "cuzk verify $file ($circuit, seeds $seed..$((seed + count - 1))): $(head -c 300 v.out)"
  nproofs=$((nproofs + count))
done <groups.txt
echo "  $nproofs proofs verified with cuzk verify in $((SECONDS - t0)) s"
finish
