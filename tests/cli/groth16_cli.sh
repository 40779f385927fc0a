#!/usr/bin/env bash
# TIER fast (alone on 2 cores: 9 s)
# setup / prove / verify through the CLI: honest proofs verify, wrong ones fail, and bad
# input of every kind gets a clear message, a nonzero exit and no output file.
. "$(dirname "$0")/lib.bash"

expect_ok "setup cubic" "$CUZK" setup --circuit cubic --params c.params --vk c.vk --quiet
expect_ok "prove cubic" "$CUZK" prove --circuit cubic --params c.params --proof c.proof --inputs c.json --quiet
grep -q '^\["35"\]$' c.json || fail "cubic inputs are not [\"35\"]: $(cat c.json)"
expect_ok "verify cubic" "$CUZK" verify --vk c.vk --proof c.proof --inputs c.json
expect_ok "setup random" "$CUZK" setup --circuit random:3000 --params r.params --vk r.vk --quiet --seed 5
expect_ok "prove random x3" "$CUZK" prove --circuit random:3000 --params r.params --proof r.proof --inputs r.json --count 3 --quiet
expect_ok "verify random x3" "$CUZK" verify --vk r.vk --proof r.proof --inputs r.json
expect_ok "verify --json" "$CUZK" verify --vk r.vk --proof r.proof --inputs r.json --json
grep -q '"ok":true,"proofs":3' out.txt || fail "verify --json output: $(cat out.txt)"

# soundness through the CLI
echo '["36"]' > wrong.json
expect_fail "changed input" 1 "FAILED: 1 of 1" "$CUZK" verify --vk c.vk --proof c.proof --inputs wrong.json
expect_ok "second cubic setup" "$CUZK" setup --circuit cubic --params c2.params --vk c2.vk --quiet
expect_fail "proof from other params" 1 "FAILED" "$CUZK" verify --vk c2.vk --proof c.proof --inputs c.json
python3 - <<'PY'
import json
v = json.load(open("r.json")); v[1][0] = str(int(v[1][0]) + 1); json.dump(v, open("r_bad.json", "w"))
PY
expect_fail "one bad of three" 1 'FAILED: 1 of 3 proof\(s\) do not verify: \[1\]' "$CUZK" verify --vk r.vk --proof r.proof --inputs r_bad.json
head -c 192 r.proof > r1.proof
expect_fail "3 inputs for 1 proof" 1 "holds 1 proofs but" "$CUZK" verify --vk r.vk --proof r1.proof --inputs r.json
python3 -c "import sys; d=bytearray(open('c.proof','rb').read()); d[0:48], d[144:192] = d[144:192], d[0:48]; open('swap.proof','wb').write(d)"
expect_fail "A and C swapped" 1 "FAILED" "$CUZK" verify --vk c.vk --proof swap.proof --inputs c.json
python3 -c "d=bytearray(open('c.proof','rb').read()); d[100]^=4; open('flip.proof','wb').write(d)"
CHECKS=$((CHECKS + 1)); "$CUZK" verify --vk c.vk --proof flip.proof --inputs c.json >/dev/null 2>&1 && fail "flipped bit verified"

# bad proof files
head -c 191 c.proof > short.proof
expect_fail "191-byte proof" 1 "not a whole number of 192-byte proofs" "$CUZK" verify --vk c.vk --proof short.proof --inputs c.json
: > empty.proof
expect_fail "empty proof" 1 "0 bytes is not a whole number" "$CUZK" verify --vk c.vk --proof empty.proof --inputs c.json
python3 -c "d=bytearray(open('c.proof','rb').read()); d[0:48]=bytes([0xc0])+bytes(47); open('inf.proof','wb').write(d)"
expect_fail "identity A" 1 "proof 0.*proof A.*infinity" "$CUZK" verify --vk c.vk --proof inf.proof --inputs c.json
python3 -c "d=bytearray(open('c.proof','rb').read()); d[47]^=1; open('oc.proof','wb').write(d)"
expect_fail "A off the curve" 1 "proof A.*(not on the curve|subgroup|bad G1)" "$CUZK" verify --vk c.vk --proof oc.proof --inputs c.json

# bad inputs JSON
echo '["52435875175126190479447740508185965837690552500527637822603658699938581184513"]' > big.json
expect_fail "input >= r" 1 "not below the field modulus" "$CUZK" verify --vk c.vk --proof c.proof --inputs big.json
echo '["35", "1"]' > two.json
expect_fail "wrong input count" 1 "2 public inputs per proof, but the verifying key expects 1" "$CUZK" verify --vk c.vk --proof c.proof --inputs two.json
echo '[35]' > num.json
expect_fail "number not string" 1 '\[0\]: expected a decimal string' "$CUZK" verify --vk c.vk --proof c.proof --inputs num.json
echo '["35"' > broken.json
expect_fail "malformed JSON" 1 "not valid JSON" "$CUZK" verify --vk c.vk --proof c.proof --inputs broken.json
echo '["0035"]' > lead.json
expect_fail "leading zeros" 1 "leading zeros" "$CUZK" verify --vk c.vk --proof c.proof --inputs lead.json

# bad keys and parameters
head -c 1000 c.vk > short.vk
expect_fail "truncated vk" 1 "short.vk.*truncated|short.vk.*claims" "$CUZK" verify --vk short.vk --proof c.proof --inputs c.json
python3 -c "d=bytearray(open('c.vk','rb').read()); d[96+47]^=1; open('bad.vk','wb').write(d)"
expect_fail "vk point off the curve" 1 "bad.vk: beta_g1 at offset 96" "$CUZK" verify --vk bad.vk --proof c.proof --inputs c.json
expect_fail "missing vk" 1 "cannot open" "$CUZK" verify --vk nope.vk --proof c.proof --inputs c.json
head -c 5000 r.params > short.params
expect_fail "truncated params" 1 "short.params" "$CUZK" prove --circuit random:3000 --params short.params --proof x.proof --inputs x.json --quiet
no_file "no proof after bad params" x.proof
no_file "no inputs after bad params" x.json
expect_fail "params of another circuit" 1 "parameters for .* but the circuit" "$CUZK" prove --circuit cubic --params r.params --proof x.proof --inputs x.json --quiet
no_file "no proof after shape mismatch" x.proof
expect_fail "unknown circuit" 1 "unknown circuit 'nope'" "$CUZK" prove --circuit nope --params c.params --proof x.proof --inputs x.json
expect_fail "bad random size" 1 "N must be" "$CUZK" setup --circuit random:3 --params x.params --vk x.vk
no_file "no params after bad circuit" x.params
expect_fail "missing option" 2 "missing required option --vk" "$CUZK" setup --circuit cubic --params x.params
expect_fail "unknown option" 2 "unknown option '--bogus'" "$CUZK" prove --bogus
expect_fail "bad number" 2 "expects a non-negative integer" "$CUZK" prove --circuit cubic --params c.params --proof x.proof --inputs x.json --seed abc
expect_fail "unknown command" 2 "unknown command" "$CUZK" frobnicate
expect_ok "help" "$CUZK" prove --help
expect_ok "circuit-info" "$CUZK" circuit-info --circuit random:1000 --json
grep -q '"constraints": 1000, "inputs": 5' out.txt || fail "circuit-info output: $(cat out.txt)"

# bench params: the file streamed as the engine loads it, checked or not, from the page cache or
# the disk; a key given as parameters is refused by its layout
expect_ok "bench params" "$CUZK" bench params --params c.params --cold
grep -Eq "read and decode +[0-9.]+ s +[0-9.]+ GB/s .*page cache dropped first" out.txt || fail "bench params: $(cat out.txt)"
expect_ok "bench params --checked --json" "$CUZK" bench params --params c.params --checked --json
grep -q '"bench":"params".*"checked":true' out.txt || fail "bench params --json: $(cat out.txt)"
expect_fail "bench params of a vk" 1 "missing the h count" "$CUZK" bench params --params c.vk
expect_fail "bench params of a folder" 1 "not a regular file" "$CUZK" bench params --params .

# bench engine: jobs through the engine on the CPU backend, every proof verified, a log line each
expect_ok "bench engine" "$CUZK" bench engine --kind circuit --circuit random:3000 --params r.params --jobs 4 \
  --concurrency 2 --partitions 2 --log jobs.log
grep -q "4 jobs x 2 partitions, 2 at a time, 0 failed (every proof verified)" out.txt || fail "bench engine: $(cat out.txt)"
grep -Eq "witness per partition +median [0-9.]+ ms, max [0-9.]+ ms over 8$" out.txt || fail "bench engine witness: $(cat out.txt)"
CHECKS=$((CHECKS + 1))
[ "$(grep -c '"state":"COMPLETED"' jobs.log)" = 4 ] || fail "bench engine --log: $(head -c 300 jobs.log)"
expect_ok "bench engine --json" "$CUZK" bench engine --kind circuit --circuit random:3000 --params r.params --jobs 2 --json
grep -q '"bench":"engine".*"failed":0.*"verified":true' out.txt || fail "bench engine --json: $(cat out.txt)"
CHECKS=$((CHECKS + 1))
grep -q '"placements":{}' out.txt || fail "bench engine --json placements (no GPU: none): $(cat out.txt)"
expect_fail "bench engine: synthetic without a GPU" 2 "add --gpu" "$CUZK" bench engine --kind porep --synthetic
expect_fail "bench engine: unknown kind" 2 "circuit, porep, window-post, winning-post or snap" "$CUZK" bench engine \
  --kind proof-of-work
expect_fail "bench engine: a proof kind without --synthetic" 2 "timed with --synthetic" "$CUZK" bench engine --kind snap
expect_fail "bench engine: --partitions of a proof kind" 2 "its own" "$CUZK" bench engine --kind window-post \
  --synthetic --gpu --partitions 3
expect_fail "bench engine: --sector-size of a circuit" 2 "goes with --synthetic and a proof kind" "$CUZK" bench engine \
  --kind circuit --circuit random:3000 --synthetic --gpu --sector-size 2KiB
expect_fail "bench engine: params of another circuit" 1 "parameters for" "$CUZK" bench engine --kind circuit \
  --circuit cubic --params r.params --jobs 1
# bench synth --values: each section's zeros, ones and the rest add up to its bases, L's are every
# aux value, and the split needs the circuit's densities (--mode pce)
expect_ok "bench synth --values" "$CUZK" bench synth --circuit random:3000 --values --reps 1 --json
for k in l a b; do
  read -r n z o r < <(sed -n "s/.*\"$k\":{\"bases\":\([0-9]*\),\"zeros\":\([0-9]*\),\"ones\":\([0-9]*\),\"other\":\([0-9]*\)}.*/\1 \2 \3 \4/p" out.txt)
  CHECKS=$((CHECKS + 1))
  [ -n "$n" ] && [ "$n" -gt 0 ] && [ $((z + o + r)) = "$n" ] || fail "bench synth --values $k: $(cat out.txt)"
done
expect_ok "bench synth --values (table)" "$CUZK" bench synth --circuit random:3000 --values --reps 1
grep -Eq "^  L +3245 bases: " out.txt || fail "bench synth --values table: $(cat out.txt)"
CHECKS=$((CHECKS + 1))
expect_fail "bench synth --values without the circuit" 2 "needs --mode pce" "$CUZK" bench synth --circuit random:3000 \
  --mode witness --values
# --values-pair: a second partition's synthetic data; the bases zero in both are among the first's
# zeros, some but not all of them (the two partitions' data differ), and the runs among those
expect_ok "bench synth --values-pair" "$CUZK" bench synth --circuit porep:2KiB --synthetic --values --values-pair \
  --reps 1 --json
for k in l a b; do
  read -r z zb zr < <(sed -n "s/.*\"$k\":{\"bases\":[0-9]*,\"zeros\":\([0-9]*\),\"ones\":[0-9]*,\"other\":[0-9]*,\"zeros_both\":\([0-9]*\),\"zeros_both_in_runs\":\([0-9]*\),.*/\1 \2 \3/p" out.txt)
  CHECKS=$((CHECKS + 1))
  [ -n "$zr" ] && [ "$zb" -gt 0 ] && [ "$zb" -lt "$z" ] && [ "$zr" -le "$zb" ] || fail "bench synth --values-pair $k: $(cat out.txt)"
done
expect_fail "bench synth --values-pair without synthetic data" 2 "needs --values and --synthetic" "$CUZK" bench synth \
  --circuit random:3000 --values --values-pair
finish
