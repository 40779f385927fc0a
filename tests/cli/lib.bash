# Helpers for the CLI tests: each test script sources this with the cuzk binary as $1.
set -u
CUZK=$(realpath "${1:?usage: test.sh /path/to/cuzk}")
WORK=$(mktemp -d "${TMPDIR:-/tmp}/cuzk-cli.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"
FAILS=0
CHECKS=0

fail() { echo "FAIL: $*" >&2; FAILS=$((FAILS + 1)); }

# expect_ok DESC CMD...: the command must exit 0
expect_ok() {
  local desc=$1; shift
  CHECKS=$((CHECKS + 1))
  if ! "$@" >out.txt 2>err.txt; then fail "$desc: exit $? ($(head -c 400 err.txt))"; fi
}

# expect_fail DESC CODE PATTERN CMD...: exit status CODE and PATTERN (grep -E) in stderr+stdout
expect_fail() {
  local desc=$1 code=$2 pattern=$3; shift 3
  CHECKS=$((CHECKS + 1))
  "$@" >out.txt 2>err.txt
  local rc=$?
  if [ "$rc" -ne "$code" ]; then fail "$desc: exit $rc, expected $code ($(head -c 300 err.txt))"; return; fi
  if ! cat out.txt err.txt | grep -Eq -- "$pattern"; then fail "$desc: output lacks /$pattern/: $(head -c 300 err.txt)"; fi
  if grep -Eq "Segmentation|Aborted|AddressSanitizer|runtime error" err.txt; then fail "$desc: crashed: $(head -c 300 err.txt)"; fi
}

# no_file DESC PATH: nothing (not even a temporary) was left at PATH
no_file() {
  CHECKS=$((CHECKS + 1))
  if [ -e "$2" ] || ls "$2".tmp.* >/dev/null 2>&1; then fail "$1: $2 exists"; fi
}

# test_cache_setup CIRCUIT NAME: CIRCUIT's parameters, made once into the test cache
# ($CUZK_TEST_CACHE, else the build tree's test-cache) as NAME.params and NAME.vk. A lock keeps
# tests running at once from making them twice or pairing one run's params with another's vk.
# Prints the setup's time when it ran; nonzero and a message when it fails.
TEST_CACHE=${CUZK_TEST_CACHE:-${CUZK_BUILD_DIR:-$WORK}/test-cache}
test_cache_setup() {
  local circuit=$1 name=$2
  mkdir -p "$TEST_CACHE" || return 1
  (
    flock -w 3600 9 || { echo "cannot lock $TEST_CACHE/.lock-$name" >&2; exit 1; }
    [ -f "$TEST_CACHE/$name.params" ] && [ -f "$TEST_CACHE/$name.vk" ] && exit 0
    t0=$SECONDS tmp="$TEST_CACHE/.tmp.$$.$name"
    if ! "$CUZK" setup --circuit "$circuit" --params "$tmp.params" --vk "$tmp.vk" --quiet >"$tmp.log" 2>&1; then
      echo "setup $circuit failed: $(tail -c 300 "$tmp.log")" >&2
      rm -f "$tmp.params" "$tmp.vk" "$tmp.log"
      exit 1
    fi
    rm -f "$TEST_CACHE/$name.params" "$tmp.log"
    mv "$tmp.vk" "$TEST_CACHE/$name.vk" && mv "$tmp.params" "$TEST_CACHE/$name.params" || exit 1
    echo "setup $circuit: $((SECONDS - t0)) s (cached in $TEST_CACHE as $name)"
  ) 9>"$TEST_CACHE/.lock-$name"
}

finish() {
  echo "$(basename "$0"): $CHECKS checks, $FAILS failed"
  [ "$FAILS" -eq 0 ]
}
