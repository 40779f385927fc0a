# Helpers for the CLI tests: each test script sources this with the cuzk binary as $1.
set -u
CUZK=$(realpath "${1:?usage: test.sh /path/to/cuzk}")
WORK=$(mktemp -d "${TMPDIR:-/tmp}/cuzk-cli.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"
# the commands' own temporaries (a device's or FIFO's output goes through one) land in the
# tree that expect_fail lists, so a failing command's leftover there is caught too
export TMPDIR=$WORK/tmp
mkdir -p "$TMPDIR"
# Paths (an ERE on the path below $WORK, e.g. '^(d1\.log|jobs\.log)$') that a process the
# script runs in the background (a daemon and its logs) writes at any time: expect_fail does
# not hold a failing command to account for them. Empty: none.
BACKGROUND_FILES=
FAILS=0
CHECKS=0

fail() { echo "FAIL: $*" >&2; FAILS=$((FAILS + 1)); }

# expect_ok DESC CMD...: the command must exit 0; nonzero when it did not (a FAIL counted)
expect_ok() {
  local desc=$1 rc; shift
  CHECKS=$((CHECKS + 1))
  "$@" >out.txt 2>err.txt
  rc=$?
  if [ $rc -ne 0 ]; then fail "$desc: exit $rc ($(head -c 400 err.txt))"; return 1; fi
}

# work_tree: every entry below $WORK but the helpers' own out.txt and err.txt, a line each,
# "PATH<tab>WHAT": a regular file's inode, size and modification time (so that one replaced or
# written in place shows), a link's target, any other node's type and inode (a FIFO's or
# device's times change when another process writes to it)
work_tree() {
  find . -mindepth 1 \( -path ./out.txt -o -path ./err.txt \) -prune -o \
    -type f -printf '%P\tf %i %s %T@\n' -o -type l -printf '%P\tl %i %l\n' -o -printf '%P\t%y %i\n' | LC_ALL=C sort
}

# tree_unchanged DESC BEFORE ALLOWED: $WORK's listing is still BEFORE (a work_tree output), but
# for paths matching the ERE ALLOWED and $BACKGROUND_FILES; each new entry (a temporary
# named so), removed entry and changed file is a FAIL naming its path
tree_unchanged() {
  local desc=$1 before=$2 allowed=$3 path
  local -A was=() now=()
  local line
  while IFS= read -r line; do [ -n "$line" ] && was[${line%%$'\t'*}]=${line#*$'\t'}; done <<<"$before"
  while IFS= read -r line; do [ -n "$line" ] && now[${line%%$'\t'*}]=${line#*$'\t'}; done <<<"$(work_tree)"
  while IFS= read -r path; do
    [ -n "$path" ] || continue
    [ -n "$allowed" ] && [[ $path =~ $allowed ]] && continue
    [ -n "$BACKGROUND_FILES" ] && [[ $path =~ $BACKGROUND_FILES ]] && continue
    if [ -z "${was[$path]+x}" ]; then
      case ${path##*/} in
      *.tmp.*) fail "$desc: a temporary left behind: $path" ;;
      *)
        local what=${now[$path]%% *}
        case $what in f) what=file ;; d) what=folder ;; l) what=link ;; p) what=FIFO ;; s) what=socket ;; esac
        fail "$desc: the failed command left a new $what: $path"
        ;;
      esac
    elif [ -z "${now[$path]+x}" ]; then
      fail "$desc: the failed command removed $path"
    elif [ "${was[$path]}" != "${now[$path]}" ]; then
      fail "$desc: the failed command changed $path (${was[$path]} -> ${now[$path]})"
    fi
  done < <(printf '%s\n' "${!was[@]}" "${!now[@]}" | LC_ALL=C sort -u)
}

# expect_fail DESC CODE PATTERN CMD...: exit status CODE and PATTERN (grep -E) in stderr+stdout,
# and the command left the folder tree as it found it: no new file or folder (no temporary),
# none removed, no file written
expect_fail() {
  expect_fail_writes "$1" "$2" "$3" "" "${@:4}"
}

# expect_fail_writes DESC CODE PATTERN PATHS CMD...: expect_fail for a command that may make or
# change the paths matching the ERE PATHS (a log it appends to) even when it fails
expect_fail_writes() {
  local desc=$1 code=$2 pattern=$3 allowed=$4; shift 4
  CHECKS=$((CHECKS + 1))
  local before
  before=$(work_tree)
  "$@" >out.txt 2>err.txt
  local rc=$?
  tree_unchanged "$desc" "$before" "$allowed"
  if [ "$rc" -ne "$code" ]; then fail "$desc: exit $rc, expected $code ($(head -c 300 err.txt))"; return; fi
  if ! cat out.txt err.txt | grep -Eq -- "$pattern"; then fail "$desc: output lacks /$pattern/: $(head -c 300 err.txt)"; fi
  if grep -Eq "Segmentation|Aborted|AddressSanitizer|runtime error" err.txt; then fail "$desc: crashed: $(head -c 300 err.txt)"; fi
}

# no_file DESC PATH: nothing (not even a temporary) was left at PATH
no_file() {
  CHECKS=$((CHECKS + 1))
  if [ -e "$2" ] || ls "$2".tmp.* >/dev/null 2>&1; then fail "$1: $2 exists"; fi
}

# flip_bit FILE OFFSET: the low bit of the byte at OFFSET flipped in place (a byte written over
# instead would leave the file as it was where it already held that value: 1 run in 256)
flip_bit() {
  local b
  b=$(od -An -tu1 -j"$2" -N1 "$1") || return 1
  printf "\\x$(printf %02x $((b ^ 1)))" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
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

# The test sectors and parameters every Filecoin test starts from (one place for them):
# seal_sector DIR ID [ARGS...]: a 2 KiB test sector numbered ID sealed into DIR (`cuzk seal
# --quiet`; ARGS follow the defaults, so --sector-size 8MiB, --prover-id, --ticket... win); one
# check, nonzero when it failed.
seal_sector() {
  local dir=$1 id=$2
  shift 2
  expect_ok "seal sector $id into $dir" "$CUZK" seal --sector-size 2KiB --out "$dir" --sector-id "$id" --quiet "$@"
}

# cached_params CIRCUIT: CIRCUIT's parameters, made once into the test cache (test_cache_setup,
# named CIRCUIT with ':' as '-'); one check. Sets PARAMS and VK to their paths and prints the
# setup's time when it ran; nonzero when the setup failed.
cached_params() {
  local name=${1//:/-}
  PARAMS=$TEST_CACHE/$name.params VK=$TEST_CACHE/$name.vk
  expect_ok "setup $1 (cached)" test_cache_setup "$1" "$name" || return 1
  cat out.txt
}

# test_params DIR CIRCUIT...: a daemon's parameter folder DIR gets links to the cached parameters
# of each built-in circuit under the names its test kinds look for (cuzk-test-NAME, ':' as '-').
test_params() {
  local dir=$1 c
  shift
  mkdir -p "$dir"
  for c in "$@"; do
    cached_params "$c" || return 1
    ln -sf "$PARAMS" "$dir/cuzk-test-${c//:/-}.params"
    ln -sf "$VK" "$dir/cuzk-test-${c//:/-}.vk"
  done
}

# wait_listening PID LOG: waits (up to 10 s) for the daemon PID to write "listening on" to LOG;
# a failure (it exited, or never said so) shows the log's start
wait_listening() {
  local pid=$1 log=$2
  for _ in $(seq 1 100); do
    grep -q "listening on" "$log" 2>/dev/null && return 0
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  fail "daemon did not start: $(head -c 400 "$log")"
  return 1
}

finish() {
  echo "$(basename "$0"): $CHECKS checks, $FAILS failed"
  [ "$FAILS" -eq 0 ]
}
