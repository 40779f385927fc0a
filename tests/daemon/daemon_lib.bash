# Helpers for the daemon tests (sourced after tests/cli/lib.bash, whose test_params makes their
# parameter folders): the two clients, daemons started and always
# stopped.
DAEMON_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SRC=${CUZK_SOURCE_DIR:-$(cd "$DAEMON_DIR/../.." && pwd)}
CLIENT_PY=$DAEMON_DIR/client_py.py
CLIENT_NODE=$DAEMON_DIR/client_node.mjs

# the clients: Python with grpcio (Debian's python3-grpcio; the python3 first on PATH may be
# another one) and Node with the packages pinned in tests/interop
PY=
for p in python3 /usr/bin/python3; do
  if command -v "$p" >/dev/null && "$p" -c 'import grpc, google.protobuf' 2>/dev/null; then PY=$p; break; fi
done
need_clients() {
  if [ -z "$PY" ]; then echo "FAIL: no python3 with grpcio and protobuf (apt install python3-grpcio)" >&2; exit 1; fi
  if [ ! -d "$SRC/tests/interop/node_modules/@grpc/grpc-js" ] || [ ! -d "$SRC/tests/interop/node_modules/@grpc/proto-loader" ]; then
    "$SRC/scripts/install-interop.sh" >/dev/null 2>&1 ||
      { echo "FAIL: cannot install the npm packages of tests/interop (scripts/install-interop.sh)" >&2; exit 1; }
  fi
}
# py ARGS / node_client ARGS: one client run, never longer than $CLIENT_LIMIT seconds
CLIENT_LIMIT=${CLIENT_LIMIT:-900}
py() { timeout -k 5 "$CLIENT_LIMIT" "$PY" "$CLIENT_PY" "$@"; }
node_client() { timeout -k 5 "$CLIENT_LIMIT" node "$CLIENT_NODE" "$@"; }

# A Unix socket path short enough for sun_path (108 bytes), in a folder removed on exit.
SOCK_DIR=$(mktemp -d /tmp/cuzk-sock.XXXXXX)

# What the daemons write while they run (their NAME.out and NAME.log): a failing command is not
# held to account for it (expect_fail, tests/cli/lib.bash).
BACKGROUND_FILES='^[^/]+\.(out|log)$'

# Daemons started by start_daemon; cleanup stops each (SIGTERM, then SIGKILL after 10 s).
DAEMON_PIDS=()
cleanup() {
  local pid k
  for pid in "${DAEMON_PIDS[@]}"; do
    kill -0 "$pid" 2>/dev/null || continue
    kill -TERM "$pid" 2>/dev/null
    for k in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null
  done
  for pid in "${CLIENT_PIDS[@]}"; do kill -KILL "$pid" 2>/dev/null; done
  if [ "${FAILS:-0}" -gt 0 ]; then
    for f in "$WORK"/*.log; do
      [ -f "$f" ] && { echo "--- the end of $(basename "$f"):"; tail -n 15 "$f" | cut -c1-300; }
    done >&2
  fi
  rm -rf "$WORK" "$SOCK_DIR"
}
CLIENT_PIDS=()
trap cleanup EXIT
trap 'echo "FAIL: interrupted" >&2; exit 1' INT TERM

# start_daemon NAME ARGS...: starts `cuzk daemon ARGS` (environment from the caller), its
# stderr in NAME.log; waits (30 s at most) for its "listening on" line. Sets DAEMON_PID and
# DAEMON_ADDR (the bound address: TCP port 0 becomes the port given). Nonzero when it did
# not come up (the log is shown).
start_daemon() {
  local name=$1 k
  shift
  "$CUZK" daemon "$@" >"$name.out" 2>"$name.log" &
  DAEMON_PID=$!
  DAEMON_PIDS+=("$DAEMON_PID")
  # a watcher kills the daemon if this script dies without its cleanup (e.g. SIGKILL at a timeout)
  (
    trap '' TERM INT HUP
    while kill -0 $$ 2>/dev/null; do kill -0 "$DAEMON_PID" 2>/dev/null || exit 0; sleep 1; done
    kill -KILL "$DAEMON_PID" 2>/dev/null
  ) >/dev/null 2>&1 &
  DAEMON_ADDR=
  for k in $(seq 300); do
    DAEMON_ADDR=$(sed -n 's/^cuzk daemon: listening on \([^;,]*\).*/\1/p' "$name.log")
    [ -n "$DAEMON_ADDR" ] && return 0
    kill -0 "$DAEMON_PID" 2>/dev/null || break
    sleep 0.1
  done
  echo "FAIL: daemon $name did not start: $(tail -c 600 "$name.log")" >&2
  return 1
}

# stop_daemon PID [SIGNAL]: signals it and waits (60 s at most) for its exit; sets STOP_RC.
stop_daemon() {
  local pid=$1 sig=${2:-TERM} k
  kill "-$sig" "$pid" 2>/dev/null
  STOP_RC=timeout
  for k in $(seq 600); do
    if ! kill -0 "$pid" 2>/dev/null; then
      wait "$pid" 2>/dev/null
      STOP_RC=$?
      return 0
    fi
    sleep 0.1
  done
  return 1
}

# json_field FILE KEY: a top-level field of the one-line JSON a client printed last
json_field() { "$PY" -c 'import json,sys; print(json.loads(open(sys.argv[1]).read().strip().splitlines()[-1]).get(sys.argv[2], ""))' "$1" "$2"; }

# total_completed ADDR: GetStatus' total_proofs_completed
total_completed() {
  py --addr "$1" status >status.json 2>status.err &&
    "$PY" -c 'import json,sys; print(json.load(open("status.json")).get("total_proofs_completed", "0"))'
}

# inputs_of CIRCUIT SEED COUNT OUT.json: the public inputs of proofs SEED .. SEED+COUNT-1 of a
# built-in circuit (`cuzk prove` derives them from the seed as the daemon's test kind does)
inputs_of() {
  "$CUZK" prove --circuit "$1" --params "$TEST_CACHE/${1//:/-}.params" --seed "$2" --count "$3" \
    --proof "$4.proof" --inputs "$4" --quiet >inputs.log 2>&1 || { echo "inputs of $1: $(tail -c 300 inputs.log)" >&2; return 1; }
  rm -f "$4.proof"
}

# porep_case SIZE: a PoRep C2 of a freshly sealed SIZE sector through the daemon, once with each
# client; both 192-byte proofs must verify with `cuzk verify porep --c1` and with the
# independent npm verifier. The parameters (porep:SIZE, made once into the test cache) are
# linked into the daemon's parameter folder under the name the daemon's answer for the missing
# file gives (an in-band FAILED naming it: the demo's test name, the daemon running with
# --test-params). Prints each step's time.
porep_case() {
  # the sanitized build (make asan: CUZK_TEST_QUICK) would take an hour for these proofs; the
  # daemon's code runs under the sanitizers in daemon_interop, daemon_load and test_server, and
  # these PoRep proofs through the daemon in the plain `make test`
  if [ -n "${CUZK_TEST_QUICK:-}" ]; then
    echo "SKIPPED: PoRep $1 through the daemon is not run in the quick (sanitized) pass; make test runs it"
    exit 77
  fi
  local size=$1 t0 who
  t0=$SECONDS
  cached_params "porep:$size" || return
  echo "  parameters of porep:$size ready: $((SECONDS - t0)) s"
  local P=$PARAMS V=$VK
  t0=$SECONDS
  seal_sector sector 1 --sector-size "$size" || return
  echo "  seal $size: $((SECONDS - t0)) s, C1 $(stat -c %s sector/c1.json) bytes"

  mkdir -p porep-params
  # the test's parameters under the demo's names (--test-params): under the official name they
  # would fail the published digest, as they should
  FIL_PROOFS_PARAMETER_CACHE=$WORK/porep-params start_daemon "porep-$size" --test-params \
    --listen "unix://$SOCK_DIR/p.sock" || return
  local pid=$DAEMON_PID addr=$DAEMON_ADDR
  # no parameters yet: FAILED in the answer, naming the file it looked for under the key of its
  # folder (a client is not shown the server's paths)
  py --addr "$addr" prove-porep --id "no-params-$size" --c1 sector/c1.json >missing.txt 2>&1
  CHECKS=$((CHECKS + 1))
  local missing
  missing=$("$PY" -c 'import json,re,sys; m=re.search(r"cannot open (\S+)\.params", json.loads(open(sys.argv[1]).read())["error_message"]); print(m.group(1) if m else "")' missing.txt 2>/dev/null)
  if [ "$(json_field missing.txt status)" != FAILED ] || [ "$(dirname "$missing")" != "[param_dir]" ]; then
    fail "PoRep $size without parameters: FAILED naming the parameter file expected: $(cat missing.txt)"
    return
  fi
  missing=$(basename "$missing")
  echo "  official name: $missing"
  ln -s "$P" "$WORK/porep-params/$missing.params"
  ln -s "$V" "$WORK/porep-params/$missing.vk"

  for who in py node; do
    t0=$SECONDS
    if [ $who = py ]; then
      py --addr "$addr" prove-porep --id "$who-porep-$size" --c1 sector/c1.json --out "$who.proof" >prove.txt 2>&1
    else
      node_client --addr "$addr" prove-porep --id "$who-porep-$size" --c1 sector/c1.json --out "$who.proof" >prove.txt 2>&1
    fi
    CHECKS=$((CHECKS + 1))
    if [ "$(json_field prove.txt status)" != COMPLETED ] || [ "$(stat -c %s "$who.proof" 2>/dev/null)" != 192 ]; then
      fail "PoRep $size through the $who client: $(cat prove.txt)"
      continue
    fi
    echo "  Prove of the $size C1 through the $who client: $((SECONDS - t0)) s"
    expect_ok "$who's $size proof: cuzk verify porep --c1" "$CUZK" verify porep --c1 sector/c1.json --vk "$V" --proof "$who.proof"
  done
  echo "  daemon peak RSS (VmHWM): $(awk '/VmHWM/ {print $2, $3}' "/proc/$pid/status")"
  stop_daemon "$pid" TERM
  CHECKS=$((CHECKS + 1))
  [ "$STOP_RC" = 0 ] || fail "PoRep daemon: SIGTERM exit $STOP_RC"

  # the public inputs for the npm verifier: `cuzk prove porep --inputs` writes them (it proves too)
  t0=$SECONDS
  expect_ok "public inputs of the $size C1" "$CUZK" prove porep --c1 sector/c1.json --params "$P" --out cli.proof --inputs inputs.json --quiet || return
  echo "  public inputs (cuzk prove porep --inputs): $((SECONDS - t0)) s"
  for who in py node; do
    [ -f "$who.proof" ] || continue
    expect_ok "$who's $size proof: npm verifier" node "$SRC/tests/interop/verify.mjs" --vk "$V" --proof "$who.proof" --inputs inputs.json
    expect_ok "$who's $size proof: cuzk verify porep --c1 --inputs" "$CUZK" verify porep --c1 sector/c1.json --inputs inputs.json --vk "$V" --proof "$who.proof"
  done
  # and not against other inputs
  "$PY" -c 'import json; v=json.load(open("inputs.json")); v[0][0]=str(int(v[0][0])+1); json.dump(v,open("bad.json","w"))'
  expect_fail "the $size proof against a changed input: npm verifier" 1 "" node "$SRC/tests/interop/verify.mjs" --vk "$V" --proof py.proof --inputs bad.json
}

# hold N SOCKET_PATH SECONDS [PREFACE]: N raw connections to the Unix socket, kept open for
# SECONDS (or until killed), each sending the HTTP/2 preface and nothing more when PREFACE is
# given, nothing otherwise; prints how many connected and, at the end, how many the server
# closed meanwhile (daemon_hostile, daemon_soak)
hold() {
  "$PY" - "$@" <<'PY'
import socket, sys, time, select
n, path, secs = int(sys.argv[1]), sys.argv[2], float(sys.argv[3])
preface = len(sys.argv) > 4
socks = []
for _ in range(n):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.connect(path)
        if preface:
            s.sendall(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n")
        socks.append(s)
    except OSError:
        s.close()
print("connected", len(socks), flush=True)
end = time.time() + secs
closed = set()
while time.time() < end and len(closed) < len(socks):
    r, _, _ = select.select([s for s in socks if s not in closed], [], [], 0.2)
    for s in r:
        try:
            if not s.recv(4096):
                closed.add(s)
        except OSError:
            closed.add(s)
print("closed", len(closed), "after", round(time.time() - end + secs, 1), flush=True)
PY
}

# vmhwm_kb PID / vmrss_kb PID: the peak and the current resident memory of a process, in kB
vmhwm_kb() { sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/$1/status"; }
vmrss_kb() { sed -n 's/^VmRSS:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/$1/status" 2>/dev/null; }

# http_get PATH OUT: GET PATH from the daemon's HTTP port $PORT on loopback: the status code
# on stdout, the body into OUT
http_get() {
  python3 - "$PORT" "$1" "$2" <<'PY'
import sys, urllib.request, urllib.error
port, path, out = sys.argv[1:]
try:
    r = urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10)
    code, body = r.status, r.read()
except urllib.error.HTTPError as e:
    code, body = e.code, e.read()
open(out, "wb").write(body)
print(code)
PY
}
