#!/usr/bin/env bash
# TIER fast (alone on 2 cores: 16 s; minutes more where porep:2KiB's parameters are not cached)
# Help and messages: every command and verb answers --help (and -h) on stdout with exit status
# 0, what it does, its options and an example whose command exists; the top level lists every
# command and bench kind; no source file name shows. Recognisable mistakes are named: a
# sector.json given as --c1 and the reverse, a .vk given as --params and the reverse, PoRep
# parameters of another sector size than the C1's; errors name the whole command with one
# separator.
. "$(dirname "$0")/lib.bash"

COMMANDS=(seal setup prove "prove porep" "prove window-post" "prove winning-post" "prove snap"
  verify "verify porep" "verify window-post" "verify winning-post" "verify snap" post "post vanilla"
  snap "snap encode" circuit-info bench demo daemon client config)
BENCH_KINDS=(msm ntt prove synth engine cancel e2e params throughput gpu-msm gpu-ntt gpu-prove gpu-field gpu-place gpu-hold)
CLIENT_VERBS=(prove submit await cancel status jobs top metrics preload evict)
for k in "${BENCH_KINDS[@]}"; do COMMANDS+=("bench $k"); done
for v in "${CLIENT_VERBS[@]}"; do COMMANDS+=("client $v"); done

# help_ok CMD: --help and -h print the same help on stdout (nothing on stderr), exit 0
help_ok() {
  local cmd=$1
  # shellcheck disable=SC2086
  expect_ok "$cmd --help" "$CUZK" $cmd --help
  [ -s out.txt ] || fail "$cmd --help: nothing on stdout"
  [ -s err.txt ] && fail "$cmd --help wrote to stderr: $(head -c 200 err.txt)"
  grep -q "^usage: cuzk $cmd" out.txt || fail "$cmd --help: no usage line naming cuzk $cmd: $(head -c 200 out.txt)"
  grep -Eq "^examples?:" out.txt || fail "$cmd --help: no example"
  grep -Eq "[A-Za-z0-9_]\.(c|cu)\b" out.txt && fail "$cmd --help names a source file: $(grep -E '[A-Za-z0-9_]\.(c|cu)\b' out.txt)"
  # every example line runs a command that exists
  local line words sub
  while read -r line; do
    read -ra words <<<"$line"
    sub=()
    for w in "${words[@]:1}"; do
      case $w in -* | *'>'* | *'&'*) break ;; *) sub+=("$w") ;; esac
    done
    CHECKS=$((CHECKS + 1))
    "$CUZK" "${sub[@]}" --help >/dev/null 2>&1 || fail "$cmd --help: the example '$line' names no command"
  done < <(sed -n '/^examples\?:/,$p' out.txt | grep '^  cuzk ')
  cp out.txt help.txt
  # shellcheck disable=SC2086
  expect_ok "$cmd -h" "$CUZK" $cmd -h
  cmp -s out.txt help.txt || fail "$cmd -h differs from $cmd --help"
}
for c in "${COMMANDS[@]}"; do help_ok "$c"; done

# the leaf commands list their options, each with a line of help
for c in "${COMMANDS[@]}"; do
  case $c in prove | verify | post | snap | bench | client) continue ;; esac
  # shellcheck disable=SC2086
  "$CUZK" $c --help >out.txt 2>&1
  CHECKS=$((CHECKS + 1))
  grep -q "^options:" out.txt || fail "$c --help lists no options"
  grep -Eq "^  --[a-z0-9-]+( [^ ]+)? *$" out.txt && fail "$c --help: an option without a line of help: $(grep -E '^  --[a-z0-9-]+( [^ ]+)? *$' out.txt)"
done

# the top level: every command and every bench kind with a line each; cuzk help, -h, no command
expect_ok "cuzk --help" "$CUZK" --help
cp out.txt top.txt
for c in seal setup prove verify post snap circuit-info bench demo daemon client config; do
  grep -Eq "^  $c +[a-z]" top.txt || fail "cuzk --help does not list $c"
done
for k in "${BENCH_KINDS[@]}"; do grep -Eq "^    $k +[A-Za-z]" top.txt || fail "cuzk --help does not list bench $k"; done
grep -q "built-in circuit, printing" top.txt && fail "cuzk --help: demo is described as a built-in circuit"
grep -Eq "[A-Za-z0-9_]\.(c|cu)\b" top.txt && fail "cuzk --help names a source file"
expect_ok "cuzk -h" "$CUZK" -h
cmp -s out.txt top.txt || fail "cuzk -h differs from cuzk --help"
expect_ok "cuzk help" "$CUZK" help
expect_fail "cuzk without a command" 2 "^usage: cuzk" "$CUZK"
expect_fail "an unknown command" 2 "^cuzk: unknown command 'frobnicate' \(cuzk --help lists them\)" "$CUZK" frobnicate
expect_ok "--version" "$CUZK" --version
grep -Eq "^cuzk [0-9]" out.txt && grep -q "^CUDA: " out.txt || fail "--version: $(cat out.txt)"
cuda=yes
grep -q "^CUDA: no" out.txt && cuda=no
expect_ok "--help-env" "$CUZK" --help-env
[ -s out.txt ] || fail "--help-env printed nothing"

# the bench kinds and client verbs each name themselves in their group's help
expect_ok "bench --help" "$CUZK" bench --help
for k in "${BENCH_KINDS[@]}"; do grep -Eq "^  $k +[A-Za-z]" out.txt || fail "bench --help does not list $k"; done
expect_ok "client --help" "$CUZK" client --help
for v in "${CLIENT_VERBS[@]}"; do grep -Eq "^  $v +[A-Za-z]" out.txt || fail "client --help does not list $v"; done
expect_fail "an unknown bench kind" 2 "^cuzk bench: unknown benchmark 'nope' \(msm, ntt, .*gpu-hold; cuzk bench --help\)" \
  "$CUZK" bench nope
expect_fail "an unknown gpu kind" 2 "^cuzk bench: unknown benchmark 'gpu-nope'" "$CUZK" bench gpu-nope
expect_fail "an unknown client verb" 2 "^cuzk client: unknown verb 'nope'" "$CUZK" client nope --addr x
expect_fail "a client option of another verb" 2 "^cuzk client status: unknown option '--job'" \
  "$CUZK" client status --addr x --job 1

# the GPU kinds: their help in any build, and without CUDA a clear error
for k in gpu-msm gpu-ntt gpu-prove gpu-field; do
  "$CUZK" bench $k --help >out.txt 2>&1
  CHECKS=$((CHECKS + 1))
  grep -q "CUDA" out.txt || fail "bench $k --help does not say it runs on CUDA"
done
expect_fail "bench gpu-prove --circuit without --pce" 2 "go together" "$CUZK" bench gpu-prove --circuit porep:2KiB
expect_fail "bench gpu-prove --batch 0" 2 "--batch must be from 1 to 64" "$CUZK" bench gpu-prove --circuit cubic --pce c.pce --batch 0
expect_fail "bench gpu-prove --batch without --circuit" 2 "with --circuit" "$CUZK" bench gpu-prove --batch 2
expect_fail "bench gpu-prove --batch 65" 2 "from 1 to 64" "$CUZK" bench gpu-prove --circuit cubic --pce c.pce --batch 65
expect_fail "bench gpu-msm --log2 29" 2 "at most 28" "$CUZK" bench gpu-msm --log2 29
expect_fail "bench gpu-msm --ones-fraction 2" 2 "from 0 to 1" "$CUZK" bench gpu-msm --ones-fraction 2
if [ "$cuda" = no ]; then
  expect_fail "bench gpu-field without CUDA" 1 "^cuzk bench gpu-field: .*needs a CUDA build" "$CUZK" bench gpu-field
fi

# usage errors: the whole command, one separator, the synopsis and where the help is
expect_fail "an unknown option" 2 "^cuzk prove porep: unknown option '--bogus'" "$CUZK" prove porep --bogus
grep -q "^usage: cuzk prove porep --c1 FILE" err.txt || fail "unknown option: no synopsis: $(cat err.txt)"
grep -q "cuzk prove porep --help" err.txt || fail "unknown option: no pointer to --help: $(cat err.txt)"
grep -q "^options:" err.txt && fail "a usage error printed the whole help"
expect_fail "a missing option" 2 "^cuzk verify porep: missing required option --vk" "$CUZK" verify porep --c1 x.json

# --- the files of the mistakes below
seal_sector s 1
[ "$(tail -c 1 s/sector.json | od -An -c | tr -d ' ')" = '\n' ] || fail "sector.json lacks its final newline"
expect_ok "setup cubic" "$CUZK" setup --circuit cubic --params c.params --vk c.vk --quiet
expect_ok "prove cubic" "$CUZK" prove --circuit cubic --params c.params --proof c.proof --inputs c.json --quiet
grep -q '^\*\.tmp\.\*$' "$CUZK_SOURCE_DIR/.gitignore" || fail ".gitignore does not match the PATH.tmp.PID temporaries"

# no_double_separator DESC: the message has one separator between its parts
no_double_separator() {
  CHECKS=$((CHECKS + 1))
  if grep -Eq ': *:' err.txt; then fail "$1: a doubled separator: $(head -c 300 err.txt)"; fi
}

# (a) a sector.json given as the C1
expect_fail "prove porep --c1 sector.json" 1 \
  "^cuzk prove porep: --c1 s/sector.json is a sector.json \(the public data cuzk seal writes\), not a C1 output: the C1 is the c1.json beside it; to check proofs against this file, use cuzk verify porep --public s/sector.json" \
  "$CUZK" prove porep --c1 s/sector.json --params c.params --out x.proof --quiet
no_double_separator "prove porep --c1 sector.json"
no_file "no proof for a sector.json C1" x.proof
expect_fail "verify porep --c1 sector.json" 1 "^cuzk verify porep: --c1 s/sector.json is a sector.json.*cuzk verify porep --public s/sector.json" \
  "$CUZK" verify porep --c1 s/sector.json --vk c.vk --proof c.proof
expect_fail "verify porep --vanilla-only --c1 sector.json" 1 "^cuzk verify porep: --c1 s/sector.json is a sector.json" \
  "$CUZK" verify porep --c1 s/sector.json --vanilla-only
# ... and the reverse: a C1 given as sector.json
expect_fail "verify porep --public c1.json" 1 \
  "^cuzk verify porep: --public s/c1.json is a C1 output, not a sector.json \(the public data cuzk seal writes beside the c1.json\): give it as --c1 s/c1.json" \
  "$CUZK" verify porep --public s/c1.json --vk c.vk --proof c.proof
expect_fail "verify porep --vanilla-only --public c1.json" 1 "^cuzk verify porep: --public s/c1.json is a C1 output" \
  "$CUZK" verify porep --c1 s/c1.json --public s/c1.json --vanilla-only
# a C1 that is simply bad keeps its own message
echo '{"registered_proof": 5}' >bad.json
expect_fail "a bad C1 keeps its message" 1 "^cuzk prove porep: bad.json: " \
  "$CUZK" prove porep --c1 bad.json --params c.params --out x.proof --quiet
CHECKS=$((CHECKS + 1))
grep -q "sector.json" err.txt && fail "a bad C1 was called a sector.json: $(cat err.txt)"

# (b) a verifying key given as parameters
VK_AS_PARAMS="--params c.vk is a verifying key \(\.vk\), not a parameter file \(\.params\): --params takes the .params file \(cuzk setup writes the two side by side; the .vk goes to --vk\)"
expect_fail "prove --params VK" 1 "^cuzk prove: $VK_AS_PARAMS" \
  "$CUZK" prove --circuit cubic --params c.vk --proof x.proof --inputs x.json --quiet
no_file "no proof for a .vk as --params" x.proof
expect_fail "prove porep --params VK" 1 "^cuzk prove porep: $VK_AS_PARAMS" \
  "$CUZK" prove porep --c1 s/c1.json --params c.vk --out x.proof --quiet
no_double_separator "prove porep --params VK"
expect_fail "bench prove --params VK" 1 "^cuzk bench prove: $VK_AS_PARAMS" \
  "$CUZK" bench prove --circuit cubic --params c.vk --reps 1
expect_fail "bench engine --params VK" 1 "^cuzk bench engine: $VK_AS_PARAMS" \
  "$CUZK" bench engine --kind circuit --circuit cubic --params c.vk --jobs 1
# (c) parameters given as a verifying key
PARAMS_AS_VK="--vk c.params is a parameter file \(\.params\), not a verifying key \(\.vk\): --vk takes the .vk file \(cuzk setup writes the two side by side\)"
expect_fail "verify --vk PARAMS" 1 "^cuzk verify: $PARAMS_AS_VK" \
  "$CUZK" verify --vk c.params --proof c.proof --inputs c.json
no_double_separator "verify --vk PARAMS"
expect_fail "verify porep --vk PARAMS" 1 "^cuzk verify porep: $PARAMS_AS_VK" \
  "$CUZK" verify porep --c1 s/c1.json --vk c.params --proof c.proof
expect_fail "prove porep --vk PARAMS" 1 "^cuzk prove porep: $PARAMS_AS_VK" \
  "$CUZK" prove porep --c1 s/c1.json --params c.params --vk c.params --out x.proof --quiet
# the right files still go through
expect_ok "verify with the right files" "$CUZK" verify --vk c.vk --proof c.proof --inputs c.json
# a file of neither layout keeps the reader's own message
head -c 1000 c.params >trunc.params
expect_fail "truncated parameters" 1 "^cuzk prove: .*trunc.params" \
  "$CUZK" prove --circuit cubic --params trunc.params --proof x.proof --inputs x.json --quiet

# (d) PoRep parameters of another circuit or sector size than the C1's
expect_fail "prove porep with cubic parameters" 1 \
  "^cuzk prove porep: --params c.params: parameters for 1 public inputs and 4 private values, which fit no PoRep partition, but the C1 is of a 2KiB sector \(StackedDrg2KiBV1_1: 39 public inputs, 2685673 private values\): give the parameters of StackedDrg2KiBV1_1 \(test ones: cuzk setup --circuit porep:2KiB\)" \
  "$CUZK" prove porep --c1 s/c1.json --params c.params --out x.proof --quiet
no_double_separator "prove porep with cubic parameters"
cached_params porep:2KiB
P=$PARAMS
seal_sector s8 1 --sector-size 8MiB --sparse
seal_sector s32 1 --sector-size 32GiB --sparse
expect_fail "an 8MiB C1 with 2KiB parameters" 1 \
  "^cuzk prove porep: --params $P: parameters of a 2KiB sector's PoRep \(39 public inputs, 2685673 private values\), but the C1 is of a 8MiB sector \(StackedDrg8MiBV1_1: 39 public inputs, 3842449 private values\): give the parameters of StackedDrg8MiBV1_1 \(test ones: cuzk setup --circuit porep:8MiB\)" \
  "$CUZK" prove porep --c1 s8/c1.json --params "$P" --out x.proof --quiet
no_file "no proof for parameters of another size" x.proof
expect_fail "a 32GiB C1 with 2KiB parameters" 1 \
  "^cuzk prove porep: --params $P: parameters of a 2KiB sector's PoRep .*, but the C1 is of a 32GiB sector \(StackedDrg32GiBV1_1: 327 public inputs" \
  "$CUZK" prove porep --c1 s32/c1.json --params "$P" --out x.proof --quiet
expect_fail "bench e2e: an 8MiB C1 with 2KiB parameters" 1 "^cuzk bench e2e: --params .*but the C1 is of a 8MiB sector" \
  "$CUZK" bench e2e --c1 s8/c1.json --params "$P" --sectors 1

finish
