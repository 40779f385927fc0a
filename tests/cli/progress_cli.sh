#!/usr/bin/env bash
# TIER fast (alone on 2 cores: 9 s)
# The progress line: drawn on stderr (redrawn in place with \r) only when stderr is a terminal
# (here a pseudo-terminal made by util-linux's `script`), and never with --quiet, with --json
# or when stderr is a pipe or a file; stdout is the same either way.
. "$(dirname "$0")/lib.bash"
command -v script >/dev/null || { echo "SKIPPED: script (util-linux) is not installed"; exit 77; }

# pty OUT CMD: CMD run with stdin, stdout and stderr on a pseudo-terminal, all it wrote in OUT
pty() {
  local out=$1; shift
  CHECKS=$((CHECKS + 1))
  script -qec "$*" /dev/null </dev/null >"$out" 2>&1 || fail "under a terminal: $* failed: $(tail -c 300 "$out")"
}

SETUP="$CUZK setup --circuit random:4096 --params a.params --vk a.vk --seed 5"

# on a terminal: every section of the setup draws its line, redrawn with \r, percent included
pty tty.txt "$SETUP"
for what in "record random:4096" "setup: qap at tau" "setup: l" "setup: h" "setup: a" "setup: b g1" "setup: b g2" \
  "writing the parameter files"; do
  CHECKS=$((CHECKS + 1))
  grep -aqF "$what" tty.txt || fail "no progress line for '$what' on a terminal: $(head -c 300 tty.txt | od -c | head)"
done
CHECKS=$((CHECKS + 1))
grep -aqE $'\r''setup: h .*[0-9.kMG]+/[0-9.kMG]+ +[0-9]+%' tty.txt || fail "no 'setup: h done/total pct%' redrawn with \\r"
CHECKS=$((CHECKS + 1))
grep -aqF "wrote a.params and a.vk" tty.txt || fail "setup's own message is missing under a terminal"

# progress FILE: FILE holds a progress line (the erase-to-end-of-line of a redraw, or "done/total
# pct%"); under a terminal every newline is \r\n, so a bare \r is not the mark
progress() { grep -aqE $'\e\\[K|[0-9.kMG]+/[0-9.kMG]+ +[0-9]+%' "$1"; }

# --quiet on a terminal: no progress line (and no timeline)
pty quiet.txt "$SETUP --quiet"
CHECKS=$((CHECKS + 1))
progress quiet.txt && fail "--quiet drew progress: $(head -c 300 quiet.txt)"
CHECKS=$((CHECKS + 1))
grep -aqF "wrote a.params and a.vk" quiet.txt || fail "setup --quiet under a terminal lost its message"

# stderr a file or a pipe: nothing, not even a \r
expect_ok "setup, stderr a file" $SETUP
CHECKS=$((CHECKS + 1))
{ progress err.txt || grep -q $'\r' err.txt; } && fail "progress written to a file: $(head -c 300 err.txt)"
CHECKS=$((CHECKS + 1))
$SETUP 2>&1 | cat >pipe.txt
{ progress pipe.txt || grep -q $'\r' pipe.txt; } && fail "progress written to a pipe: $(head -c 300 pipe.txt)"

# --json on a terminal: no progress line; stdout is one JSON document as without a terminal
BENCH="$CUZK bench prove --circuit random:4096 --reps 1"
pty bench.txt "$BENCH"
CHECKS=$((CHECKS + 1))
progress bench.txt && grep -aqF "setup: h" bench.txt || fail "bench prove draws no progress line for its setup"
pty json.txt "$BENCH --json"
CHECKS=$((CHECKS + 1))
progress json.txt && fail "--json drew progress: $(head -c 300 json.txt)"
CHECKS=$((CHECKS + 1))
tr -d '\r' <json.txt | python3 -c 'import json, sys; json.load(sys.stdin)' 2>/dev/null || fail "--json output on a terminal is not JSON alone: $(head -c 300 json.txt)"
expect_ok "bench prove --json, not a terminal" $BENCH --json
CHECKS=$((CHECKS + 1))
python3 -c 'import json, sys; json.load(open("out.txt"))' || fail "bench prove --json stdout is not JSON"
CHECKS=$((CHECKS + 1))
{ progress err.txt || grep -q $'\r' err.txt; } && fail "bench prove --json wrote progress off a terminal"

# a proof of one partition through the engine: its witness, NTT and MSM stages each draw a line
# (a PoRep of one partition drew nothing for a minute); several partitions: partitions proved
expect_ok "setup random:16384" $CUZK setup --circuit random:16384 --params b.params --vk b.vk --seed 6
PROVE="$CUZK prove --circuit random:16384 --params b.params --proof b.proof --inputs b.json"
pty prove1.txt "$PROVE"
for what in "random:16384: witness" "random:16384: NTT" "random:16384: MSM"; do
  CHECKS=$((CHECKS + 1))
  grep -aqF "$what" prove1.txt || fail "prove of one partition drew no '$what': $(head -c 400 prove1.txt | od -c | head)"
done
CHECKS=$((CHECKS + 1))
grep -aqE 'random:16384: NTT .*[0-9]/7 ' prove1.txt || fail "the NTT line does not count 7 transforms: $(head -c 400 prove1.txt)"
pty prove3.txt "$PROVE --count 3"
CHECKS=$((CHECKS + 1))
grep -aqF "random:16384: partitions proved" prove3.txt || fail "prove --count 3 drew no partitions line"
CHECKS=$((CHECKS + 1))
grep -aqF "random:16384: NTT" prove3.txt && fail "prove --count 3 drew the one-partition stages too"
expect_ok "prove of one partition, stderr a file" $PROVE
CHECKS=$((CHECKS + 1))
{ progress err.txt || grep -q $'\r' err.txt; } && fail "prove wrote progress to a file: $(head -c 300 err.txt)"

finish
