#!/usr/bin/env bash
# TIER fast (alone on 2 cores: 3 s)
# The configuration file and the environment overrides: `config --print-defaults` writes a
# file every key of which reads back; bad keys, values out of range, malformed integers and
# unknown sections are refused with the file, line and key (the first bad line's, where there
# are several); lines longer than inih's 199 bytes read whole (up to 4096), a long comment
# sets nothing; environment overrides are checked
# the same way and listed by --help-env; --threads still sets the pool.
. "$(dirname "$0")/lib.bash"

# the defaults read back only without overrides: clear every one --help-env lists (a shell
# that sets FIL_PROOFS_PARAMETER_CACHE, as a Filecoin machine's often does, must not fail this)
for v in $("$CUZK" --help-env | grep -Eo '\b(CUZK|FIL)_[A-Z0-9_]+' | sort -u); do unset "$v"; done

expect_ok "print defaults" "$CUZK" config --print-defaults
cp out.txt defaults.ini
grep -q '^\[gpu\]$' defaults.ini || fail "no [gpu] section"
grep -q '^ntt_tile_bits = 10$' defaults.ini || fail "ntt_tile_bits default missing"
grep -q '^threads = 0$' defaults.ini || fail "threads default missing"
grep -q '; env CUZK_GPU_MSM_CHUNK' defaults.ini || fail "env names not listed"
expect_ok "the defaults read back" "$CUZK" --config defaults.ini config --print
diff <(grep -v '^#' defaults.ini) <(grep -v '^#' out.txt) >/dev/null || fail "defaults and current values differ"

printf '[gpu]\nntt_tile_bits = 9\nh_glv = off\n[cuzk]\nthreads = 3\n' > ok.ini
expect_ok "a config file" "$CUZK" --config ok.ini config --print
grep -q '^ntt_tile_bits = 9$' out.txt || fail "ntt_tile_bits from the file"
grep -q '^h_glv = false$' out.txt || fail "h_glv from the file"
CUZK_CONFIG=ok.ini expect_ok "CUZK_CONFIG names the file" "$CUZK" config --print
grep -q '^threads = 3$' out.txt || fail "threads from CUZK_CONFIG's file"
CUZK_GPU_NTT_TILE_BITS=8 expect_ok "environment over the file" "$CUZK" --config ok.ini config --print
grep -q '^ntt_tile_bits = 8$' out.txt || fail "the environment override"

printf '[gpu]\nntt_tile_bits = 10\nnot_a_key = 1\n' > bad1.ini
expect_fail "unknown key" 2 "bad1.ini:3: unknown key 'not_a_key' in section \[gpu\]" "$CUZK" --config bad1.ini config --print
printf '[gpu]\nntt_threads = 5000\n' > bad2.ini
expect_fail "out of range" 2 "bad2.ini:2: gpu.ntt_threads: 5000 is outside 32..1024" "$CUZK" --config bad2.ini config --print
printf '[engine]\ncpu_workers = 0\n' > bad2b.ini
expect_fail "no CPU worker" 2 "bad2b.ini:2: engine.cpu_workers: 0 is outside 1..8" "$CUZK" --config bad2b.ini config --print
CUZK_ENGINE_GPU_CONTEXTS=5 expect_fail "too many contexts per GPU" 2 \
  "environment CUZK_ENGINE_GPU_CONTEXTS: engine.gpu_contexts: 5 is outside 1..4" "$CUZK" config --print
printf '[gpu]\nmsm_chunk = 99999999999999999999999\n' > bad3.ini
expect_fail "integer overflow" 2 "bad3.ini:2: gpu.msm_chunk: .* is too large" "$CUZK" --config bad3.ini config --print
printf '[gpu]\nntt_threads = -4\n' > bad4.ini
expect_fail "negative" 2 "gpu.ntt_threads: '-4' is not a non-negative decimal integer" "$CUZK" --config bad4.ini config --print
printf '[gpu]\nh_glv = maybe\n' > bad5.ini
expect_fail "not a boolean" 2 "gpu.h_glv: 'maybe' is not a boolean" "$CUZK" --config bad5.ini config --print
printf '[nosuch]\nthreads = 1\n' > bad6.ini
expect_fail "unknown section" 2 "unknown key 'threads' in section \[nosuch\]" "$CUZK" --config bad6.ini config --print
printf 'garbage line\n' > bad7.ini
expect_fail "not INI" 2 "bad7.ini:1: not a valid INI line" "$CUZK" --config bad7.ini config --print
# two bad keys: the line and the key named are the first one's
printf '[deamon]\nlisten = x\n[daemon]\n\nmax_calls = 0\nnope = 1\n' > twobad.ini
expect_fail "the first of two bad keys" 2 "twobad.ini:2: unknown key 'listen' in section \[deamon\]" \
  "$CUZK" --config twobad.ini config --print
# a bad key, then a line that is not INI: the key's line
printf '[gpu]\nnope = 1\ngarbage\n' > keythen.ini
expect_fail "a bad key before a bad line" 2 "keythen.ini:2: unknown key 'nope'" "$CUZK" --config keythen.ini config --print
printf '[gpu]\ngarbage\nnope = 1\n' > linethen.ini
expect_fail "a bad line before a bad key" 2 "linethen.ini:2: not a valid INI line" "$CUZK" --config linethen.ini config --print
# long lines: a comment cannot set a key past inih's 199 bytes, a long path is read whole, a
# line over the stated bound is refused naming it
{
  echo '[daemon]'
  printf '; %s test_kinds = true\n' "$(head -c 250 /dev/zero | tr '\0' x)"
  printf 'log_file = /tmp/%s/jobs.log   ; a comment\n' "$(head -c 400 /dev/zero | tr '\0' a)"
} > long.ini
expect_ok "long lines" "$CUZK" --config long.ini config --print
grep -q '^test_kinds = false$' out.txt || fail "a long comment set test_kinds"
grep -q "^log_file = /tmp/a\{400\}/jobs.log$" out.txt || fail "a long path was not read whole"
{ echo '[daemon]'; printf 'log_file = %s\n' "$(head -c 5000 /dev/zero | tr '\0' a)"; } > toolong.ini
expect_fail "a line over 4096 bytes" 2 "toolong.ini:2: the line is longer than 4096 bytes" "$CUZK" --config toolong.ini config --print
expect_fail "missing file" 2 "cannot open the config file nosuch.ini" "$CUZK" --config nosuch.ini config --print
expect_fail "--config without a file" 2 "--config expects a file" "$CUZK" --config
CUZK_THREADS=x expect_fail "bad environment value" 2 "environment CUZK_THREADS: cuzk.threads: 'x'" "$CUZK" config --print
expect_fail "config needs a mode" 2 "give one of --print-defaults or --print" "$CUZK" config

expect_ok "help-env" "$CUZK" --help-env
for v in CUZK_CONFIG CUZK_THREADS CUZK_GPU_NTT_PASS_BITS CUZK_GPU_MSM_CHUNK CUZK_GPU_H_GLV CUZK_GPU_PROFILE; do
  grep -q "$v" out.txt || fail "--help-env lacks $v"
done

# the pool takes the configured and the --threads counts
CUZK_THREADS=1 expect_ok "bench msm with CUZK_THREADS=1" "$CUZK" bench msm --log2 8 --json
grep -q '"threads":1' out.txt || fail "CUZK_THREADS=1 not honoured: $(head -c 200 out.txt)"
expect_ok "bench msm --threads 2" "$CUZK" bench msm --log2 8 --threads 2 --json
grep -q '"threads":2' out.txt || fail "--threads 2 not honoured: $(head -c 200 out.txt)"
finish
