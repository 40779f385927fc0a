#!/usr/bin/env bash
# TIER fast (alone on 2 cores: 6 s)
# Traces in the Chrome trace event format (docs/DESIGN.md, "Traces"): `prove --trace` and
# `bench engine --trace` write valid JSON whose spans nest on their tracks (a track per device,
# witness lane and job; tests/cli/trace_check.py checks it), atomically and only where the path
# is a writable file no other output or input is, for a job that fails too; the checker itself
# fails on a trace whose spans overlap without nesting.
. "$(dirname "$0")/lib.bash"
CHECK=$(dirname "$0")/trace_check.py
[ "${CHECK:0:1}" = / ] || CHECK=$OLDPWD/$CHECK

expect_ok "setup random" "$CUZK" setup --circuit random:3000 --params r.params --vk r.vk --quiet

# a job of three partitions: its own track, the witness lane's, the CPU's; partitions proved
# one after another while the next witness is made overlap, so a second row of the job's track
expect_ok "prove --trace" "$CUZK" prove --circuit random:3000 --params r.params --proof r.proof --inputs r.json \
  --count 3 --quiet --trace t.json
grep -q "trace of 1 job(s) written to t.json" err.txt || fail "prove --trace says nothing of the trace: $(cat err.txt)"
expect_ok "prove's trace is valid and nested" python3 "$CHECK" t.json --jobs 1 --process '^cuzk prove$' \
  --track '^CPU$' --track '^witness lane \(bulk\)$' --track '^job 1$' --span 'partition 2' --span 'prove on the CPU' \
  --span 'witness' --span 'msm h' --span 'verify (batch, CPU)'
cat out.txt
no_file "prove --trace's temporary" t.json.tmp
python3 - <<'PY' || fail "prove's trace: the spans are not on the tracks they ran on"
import json
d = json.load(open("t.json"))
names = {e["tid"]: e["args"]["name"] for e in d["traceEvents"] if e["ph"] == "M" and e["name"] == "thread_name"}
on = {}
for e in d["traceEvents"]:
    if e["ph"] == "X":
        on.setdefault(e["name"], set()).add(names[e["tid"]])
assert on["prove on the CPU"] == {"CPU"}, on["prove on the CPU"]
assert on["msm h"] == {"CPU"}, on["msm h"]  # a child inherits its parent's track
assert on["witness"] == {"witness lane (bulk)"}, on["witness"]
assert all(t.startswith("job 1") for t in on["partition 0"] | on["verify (batch, CPU)"] | on["queue wait"])
PY

# the checker fails on spans that overlap without nesting, and on a file that is no trace
python3 - <<'PY'
import json
d = json.load(open("t.json"))
x = [e for e in d["traceEvents"] if e["ph"] == "X" and e["name"] == "msm h"][0]
x["dur"] += 10**9  # now it outlasts its parent
json.dump(d, open("bad.json", "w"))
PY
expect_fail "the checker: a child outlasting its parent" 1 "not within its parent|without nesting" python3 "$CHECK" bad.json
echo '{"traceEvents": 3}' >notrace.json
expect_fail "the checker: no traceEvents array" 1 "no traceEvents array" python3 "$CHECK" notrace.json

# bench engine: every job, on one clock
expect_ok "bench engine --trace" "$CUZK" bench engine --kind circuit --circuit random:3000 --params r.params --jobs 3 \
  --concurrency 2 --trace b.json
expect_ok "bench engine's trace" python3 "$CHECK" b.json --jobs 3 --process '^cuzk bench engine$' --track '^job 3$' \
  --track '^CPU$'
cat out.txt

# a job that fails (its precompiled circuit corrupted) still gets its trace; nothing else is written
expect_ok "prove --pce (record)" "$CUZK" prove --circuit random:3000 --params r.params --proof k.proof --inputs k.json \
  --pce r.pce --quiet
python3 -c "d=bytearray(open('r.pce','rb').read()); d[len(d)//2]^=1; open('bad.pce','wb').write(d)"
expect_fail_writes "prove of a corrupted circuit: FAILED, with its trace" 1 "checksum" '^failed\.trace\.json$' \
  "$CUZK" prove --circuit random:3000 --params r.params --proof f.proof --inputs f.json --pce bad.pce --quiet \
  --trace failed.trace.json
expect_ok "the failed job's trace" python3 "$CHECK" failed.trace.json --jobs 1 --span 'check input'
no_file "a failed prove's proof" f.proof

# bad --trace paths: refused before the work, nothing written
expect_fail "prove --trace into a missing folder" 1 "trace.*nodir" "$CUZK" prove --circuit random:3000 \
  --params r.params --proof p.proof --inputs p.json --quiet --trace nodir/t.json
mkdir adir
expect_fail "prove --trace of a folder" 1 "trace.*adir" "$CUZK" prove --circuit random:3000 --params r.params \
  --proof p.proof --inputs p.json --quiet --trace adir
expect_fail "prove --trace over --proof" 1 "trace" "$CUZK" prove --circuit random:3000 --params r.params \
  --proof p.proof --inputs p.json --quiet --trace p.proof
expect_fail "prove --trace over --params" 1 "params" "$CUZK" prove --circuit random:3000 --params r.params \
  --proof p.proof --inputs p.json --quiet --trace r.params
expect_fail "bench engine --trace into a missing folder" 1 "trace.*nodir" "$CUZK" bench engine --kind circuit \
  --circuit random:3000 --params r.params --jobs 1 --trace nodir/b.json
expect_fail "prove --trace without a value" 2 "needs a value" "$CUZK" prove --circuit random:3000 --params r.params \
  --proof p.proof --inputs p.json --trace
finish
