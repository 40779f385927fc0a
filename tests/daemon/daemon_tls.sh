#!/usr/bin/env bash
# TIMEOUT 300
# TIER fast (alone on 2 cores: about 20 s, most of it the first-call deadline waited out)
# Who may call: TLS on the daemon's TCP listen and what a client is told. A throwaway CA, server
# and client certificates are made with the openssl command; the daemon listens on loopback TCP
# (port 0) with daemon.tls_cert and tls_key, then with tls_client_ca too. Checked:
#  - `cuzk client --tls-ca` and Python grpcio's own TLS (grpc.ssl_channel_credentials) are
#    served (a Prove, a 20 MB request); a plaintext client, a client trusting another CA and one expecting another name
#    are not;
#  - with tls_client_ca: a client without a certificate is refused, one with a certificate of
#    the CA served (both clients), one with a certificate of another CA refused;
#  - daemon.allow still holds for TLS connections; a connection that never finishes its
#    handshake is closed at the first-call deadline; SIGTERM ends the daemon with relays open;
#  - bad TLS configuration stops the daemon at start with a message naming the key and file:
#    a missing file, a file that is not PEM, a key of another certificate, a key without its
#    certificate, a client CA without TLS; on a Unix socket the files are checked and the
#    socket stays plaintext, with a warning saying so;
#  - a failing request's message reaches the client with the daemon's parameter folder as
#    [param_dir] and no raw newline, while the job log keeps the full path.
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../cli/lib.bash"
. "$HERE/daemon_lib.bash"
if [ -z "$PY" ]; then echo "FAIL: no python3 with grpcio and protobuf (apt install python3-grpcio)" >&2; exit 1; fi
command -v openssl >/dev/null || { echo "FAIL: no openssl command (scripts/install-deps.sh installs it)" >&2; exit 1; }

# --- the certificates: a CA, the server's (loopback's address and name), a client's; and
# another CA with a client certificate of its own, which the daemon must not trust
cert() { # cert NAME CN CA [SAN]: NAME.pem and NAME.key, issued by CA (or self-signed when CA is "")
  local name=$1 cn=$2 ca=$3 san=${4:-}
  if [ -z "$ca" ]; then
    openssl req -x509 -newkey rsa:2048 -nodes -keyout "$name.key" -out "$name.pem" -days 2 -subj "/CN=$cn" 2>>openssl.log
    return
  fi
  openssl req -newkey rsa:2048 -nodes -keyout "$name.key" -out "$name.csr" -subj "/CN=$cn" 2>>openssl.log &&
    { [ -z "$san" ] && : >"$name.ext" || echo "subjectAltName=$san" >"$name.ext"; } &&
    openssl x509 -req -in "$name.csr" -CA "$ca.pem" -CAkey "$ca.key" -CAcreateserial -out "$name.pem" -days 2 \
      -extfile "$name.ext" 2>>openssl.log
}
mkdir -p tls && cd tls || exit 1
{ cert ca "cuzk test CA" "" && cert server localhost ca "IP:127.0.0.1,DNS:localhost" && cert client "cuzk client" ca &&
  cert other "another CA" "" && cert stranger "a stranger" other; } ||
  { fail "openssl could not make the certificates: $(tail -c 400 openssl.log)"; finish; exit 1; }
cd "$WORK" || exit 1
T=$WORK/tls

test_params "$WORK/params" random:1024 || { fail "parameters"; finish; exit 1; }
export FIL_PROOFS_PARAMETER_CACHE=$WORK/params
export CUZK_DAEMON_TLS_CERT=$T/server.pem CUZK_DAEMON_TLS_KEY=$T/server.key

# cli_status DESC ADDR ARGS...: `cuzk client status` must answer; cli_refused: must fail (exit 1)
cli_status() { expect_ok "$1" "$CUZK" client status --addr "$2" --deadline 20 "${@:3}"; }
cli_refused() { expect_fail "$1" 1 "GetStatus: (UNAVAILABLE|DEADLINE_EXCEEDED)" "$CUZK" client status --addr "$2" --deadline 10 "${@:3}"; }
py_status() {
  CHECKS=$((CHECKS + 1))
  py --addr "$2" --timeout 20 "${@:3}" status >py.out 2>&1 && grep -q '"queues"' py.out || fail "$1: $(head -c 300 py.out)"
}
py_refused() {
  CHECKS=$((CHECKS + 1))
  if py --addr "$2" --timeout 10 "${@:3}" status >py.out 2>&1; then fail "$1: served: $(head -c 200 py.out)"; fi
  grep -q "UNAVAILABLE" py.out || fail "$1: not UNAVAILABLE: $(head -c 300 py.out)"
}

# --- TLS with a server certificate only
start_daemon tls --listen 127.0.0.1:0 --test-kinds || { finish; exit 1; }
PID=$DAEMON_PID A=$DAEMON_ADDR PORT=${DAEMON_ADDR##*:}
# a connection that never says a word: the relay waits in the handshake; the first-call
# deadline (10 s) must close it all the same
"$PY" - "$PORT" >stall.out 2>&1 <<'PY' &
import socket, sys, time
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
t = time.time()
s.settimeout(30)
try:
    data = s.recv(1)
except OSError:
    data = b""
print("closed after %.1f s" % (time.time() - t) if not data else "got bytes")
PY
STALL=$!
CLIENT_PIDS+=("$STALL")

cli_status "cuzk client --tls-ca: GetStatus over TLS" "$A" --tls-ca "$T/ca.pem"
grep -q '"queues"' out.txt || fail "GetStatus over TLS printed no status: $(head -c 200 out.txt)"
cli_status "cuzk client --tls-ca --tls-name localhost (by name)" "localhost:$PORT" --tls-ca "$T/ca.pem" --tls-name localhost
py_status "Python grpcio over ssl_channel_credentials" "$A" --tls-ca "$T/ca.pem"
cli_refused "a plaintext cuzk client" "$A"
py_refused "a plaintext Python client" "$A"
cli_refused "a client trusting another CA" "$A" --tls-ca "$T/other.pem"
grep -q "certificate verify failed" err.txt || fail "another CA: the reason is not the certificate: $(head -c 300 err.txt)"
cli_refused "a client expecting another name" "$A" --tls-ca "$T/ca.pem" --tls-name cuzk.example
expect_fail "a client certificate without its key" 1 "certificate and its key go together" \
  "$CUZK" client status --addr "$A" --tls-ca "$T/ca.pem" --tls-cert "$T/client.pem"
expect_fail "a client CA file that is not PEM" 1 "CA file .*ca.key: not a PEM certificate" \
  "$CUZK" client status --addr "$A" --tls-ca "$T/ca.key"
mkfifo "$T/ca-fifo.pem" # opening it would wait for a writer: refused unopened, no hang
expect_fail "a FIFO as the client's CA file" 1 "TLS CA file: .*ca-fifo.pem is not a regular file" \
  timeout 30 "$CUZK" client status --addr "$A" --tls-ca "$T/ca-fifo.pem"
# the [client] keys give the same as the options
CHECKS=$((CHECKS + 1))
CUZK_CLIENT_TLS_CA=$T/ca.pem "$CUZK" client status --addr "$A" --deadline 20 >out.txt 2>err.txt ||
  fail "client.tls_ca (CUZK_CLIENT_TLS_CA): $(head -c 300 err.txt)"

# a proof and a large request through the relay: a Prove completes with its 192 bytes, and a
# 20 MB C1 of random bytes arrives whole (its answer is about its content, in-band)
expect_ok "a Prove over TLS" "$CUZK" client prove --addr "$A" --tls-ca "$T/ca.pem" --kind test --circuit random:1024 \
  --proof tls.proof --deadline 120
CHECKS=$((CHECKS + 1))
[ "$(stat -c %s tls.proof 2>/dev/null)" = 192 ] || fail "the Prove over TLS wrote no 192-byte proof: $(head -c 300 out.txt)"
head -c 20000000 /dev/urandom >big.c1
expect_fail "a 20 MB C1 over TLS" 1 "FAILED: the C1 output" \
  "$CUZK" client prove --addr "$A" --tls-ca "$T/ca.pem" --kind porep --c1 big.c1 --deadline 120
rm -f big.c1

# a failing request: the client is told the file under [param_dir], no raw newline; the job
# log keeps the path (parameters of the wrong content: the job fails loading them)
mkdir -p "$WORK/badparams"
head -c 4096 /dev/urandom >"$WORK/badparams/cuzk-test-random-1024.params"
head -c 4096 /dev/urandom >"$WORK/badparams/cuzk-test-random-1024.vk"
FIL_PROOFS_PARAMETER_CACHE=$WORK/badparams CUZK_DAEMON_LOG_FILE=$WORK/jobs.log \
  start_daemon bad --listen 127.0.0.1:0 --test-kinds || { finish; exit 1; }
BADPID=$DAEMON_PID
expect_fail "a job failing on a bad parameter file, over TLS" 1 "FAILED: .*\[param_dir\]/cuzk-test-random-1024\.params" \
  "$CUZK" client prove --addr "$DAEMON_ADDR" --tls-ca "$T/ca.pem" --kind test --circuit random:1024 --deadline 60
CHECKS=$((CHECKS + 1))
! grep -q "$WORK" out.txt err.txt || fail "the client was told the daemon's folder: $(grep -h "$WORK" out.txt err.txt | head -c 300)"
py --addr "$DAEMON_ADDR" --tls-ca "$T/ca.pem" --timeout 60 prove --id bad-params --circuit random:1024 >py.out 2>&1
CHECKS=$((CHECKS + 1))
grep -q '\[param_dir\]/cuzk-test-random-1024.params' py.out && ! grep -q "$WORK" py.out ||
  fail "Python client: the message should name [param_dir] and not the folder: $(head -c 400 py.out)"
stop_daemon "$BADPID"
CHECKS=$((CHECKS + 1))
grep -q "\"error\":\"[^\"]*$WORK/badparams/cuzk-test-random-1024.params" "$WORK/jobs.log" ||
  fail "the job log lacks the full path: $(head -c 400 "$WORK/jobs.log")"
# a request whose echo holds a newline and an absolute path: one line, the path cut
expect_fail "an unknown circuit with a newline and a path in its name" 1 "INVALID_ARGUMENT: .*random:1024 second line \[param_dir\]/sub/f" \
  "$CUZK" client prove --addr "$A" --tls-ca "$T/ca.pem" --kind test --deadline 20 \
  --circuit "random:1024
second line $WORK/params/sub/f"
CHECKS=$((CHECKS + 1))
[ "$(cat err.txt | wc -l)" -eq 1 ] || fail "the message is not one line: $(cat -A err.txt | head -c 400)"

wait "$STALL"
CHECKS=$((CHECKS + 1))
grep -Eq "^closed after (9|1[0-9])\." stall.out ||
  fail "a connection without a handshake was not closed at the first-call deadline: $(cat stall.out)"
stop_daemon "$PID"
CHECKS=$((CHECKS + 1))
[ "$STOP_RC" = 0 ] || fail "SIGTERM of the TLS daemon: exit $STOP_RC"

# --- client certificates required
CUZK_DAEMON_TLS_CLIENT_CA=$T/ca.pem start_daemon mtls --listen 127.0.0.1:0 || { finish; exit 1; }
PID=$DAEMON_PID A=$DAEMON_ADDR
cli_refused "tls_client_ca: a client without a certificate" "$A" --tls-ca "$T/ca.pem"
cli_status "tls_client_ca: a client with the CA's certificate" "$A" --tls-ca "$T/ca.pem" --tls-cert "$T/client.pem" --tls-key "$T/client.key"
cli_refused "tls_client_ca: a client certificate of another CA" "$A" --tls-ca "$T/ca.pem" --tls-cert "$T/stranger.pem" --tls-key "$T/stranger.key"
py_refused "tls_client_ca: Python without a certificate" "$A" --tls-ca "$T/ca.pem"
py_status "tls_client_ca: Python with the CA's certificate" "$A" --tls-ca "$T/ca.pem" --tls-cert "$T/client.pem" --tls-key "$T/client.key"
stop_daemon "$PID"
CHECKS=$((CHECKS + 1))
[ "$STOP_RC" = 0 ] || fail "SIGTERM of the client-certificate daemon: exit $STOP_RC"

# --- the allowlist holds for TLS connections too
CUZK_DAEMON_ALLOW=192.0.2.0/24 start_daemon denied --listen 127.0.0.1:0 || { finish; exit 1; }
cli_refused "TLS from outside daemon.allow" "$DAEMON_ADDR" --tls-ca "$T/ca.pem"
stop_daemon "$DAEMON_PID"

# --- bad TLS configuration: the daemon does not start, and says which key and file
refuses() { # refuses DESC PATTERN ENV...: `cuzk daemon` with ENV exits 1 naming what is wrong
  local desc=$1 pattern=$2
  shift 2
  expect_fail "$desc" 1 "$pattern" env "$@" timeout 30 "$CUZK" daemon --listen 127.0.0.1:0
}
refuses "a missing certificate" "daemon\.tls_cert: cannot open $T/missing\.pem: No such file" CUZK_DAEMON_TLS_CERT="$T/missing.pem"
refuses "a missing key" "daemon\.tls_key: cannot open $T/missing\.key" CUZK_DAEMON_TLS_KEY="$T/missing.key"
refuses "a certificate that is not PEM" "daemon\.tls_cert: $T/server\.key is not a PEM certificate" CUZK_DAEMON_TLS_CERT="$T/server.key"
refuses "a key that is not PEM" "daemon\.tls_key: $T/server\.pem is not a PEM private key" CUZK_DAEMON_TLS_KEY="$T/server.pem"
mkfifo "$T/fifo.pem" # opening it would wait for a writer: refused unopened, no hang
refuses "a FIFO as the certificate" "daemon\.tls_cert: $T/fifo\.pem is not a regular file" CUZK_DAEMON_TLS_CERT="$T/fifo.pem"
refuses "a key of another certificate" "daemon\.tls_key: $T/client\.key is not the key of the certificate in daemon\.tls_cert" \
  CUZK_DAEMON_TLS_KEY="$T/client.key"
refuses "a key without its certificate" "daemon\.tls_cert and daemon\.tls_key go together" CUZK_DAEMON_TLS_CERT=
refuses "a client CA that is not PEM" "daemon\.tls_client_ca: $T/server\.ext holds no PEM certificate" \
  CUZK_DAEMON_TLS_CLIENT_CA="$T/server.ext"
refuses "a client CA without TLS" "daemon\.tls_client_ca .* is set without daemon\.tls_cert" \
  CUZK_DAEMON_TLS_CERT= CUZK_DAEMON_TLS_KEY= CUZK_DAEMON_TLS_CLIENT_CA="$T/ca.pem"
CHECKS=$((CHECKS + 1))
printf '[daemon]\ntls_cert = %s\ntls_key = %s\n' "$T/server.pem" "$T/missing.key" >bad.ini
env -u CUZK_DAEMON_TLS_CERT -u CUZK_DAEMON_TLS_KEY timeout 30 "$CUZK" daemon --config bad.ini --listen 127.0.0.1:0 >out.txt 2>err.txt &&
  fail "a config file with a missing key file: the daemon started"
grep -q "daemon.tls_key: cannot open $T/missing.key" err.txt || fail "config file: the message does not name the key file: $(head -c 300 err.txt)"

# --- a Unix socket stays plaintext (the files still checked), and the daemon says so
start_daemon unix --listen "unix://$SOCK_DIR/tls.sock" || { finish; exit 1; }
CHECKS=$((CHECKS + 1))
grep -q "TLS applies to TCP listens only" unix.log || fail "no warning that the socket is plaintext: $(head -c 300 unix.log)"
cli_status "plaintext on the Unix socket" "unix://$SOCK_DIR/tls.sock"
stop_daemon "$DAEMON_PID"

finish
