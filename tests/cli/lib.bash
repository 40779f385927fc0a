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

finish() {
  echo "$(basename "$0"): $CHECKS checks, $FAILS failed"
  [ "$FAILS" -eq 0 ]
}
