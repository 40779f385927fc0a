#!/usr/bin/env bash
# TIER fast (alone on 2 cores: 2 s)
# `make install` as CMake does it, into a DESTDIR under the test's own folder: the binary runs,
# the library and the API's headers are there and nothing else (docs/API.md; testcircuits left
# out, blst merged in), the archive exports cuzk_ names alone (nm), a C program of the API
# builds against them with `pkg-config --cflags --libs --static cuzk` alone and runs (an engine,
# a server's configuration, the version, and cuzk/verify.h on a proof the installed cuzk made:
# it verifies, and with a changed input it does not); the systemd
# component writes a unit naming the installed binary, which `systemd-analyze verify` accepts
# where that command works; the example configuration reads back where the CLI knows [daemon].
# (the trees are resolved before lib.bash moves into the test's folder)
BUILD=$(realpath "${CUZK_BUILD_DIR:?CUZK_BUILD_DIR names the build tree}")
SRC=$(realpath "${CUZK_SOURCE_DIR:?CUZK_SOURCE_DIR names the source tree}")
. "$(dirname "$0")/lib.bash"

# cmake --install writes its manifest into the build tree; put back what was there, so the
# test leaves nothing behind outside its folder.
mkdir saved
for m in install_manifest.txt install_manifest_systemd.txt; do
  [ -e "$BUILD/$m" ] && cp -p "$BUILD/$m" saved/
done
restore() {
  for m in install_manifest.txt install_manifest_systemd.txt; do
    if [ -e "$WORK/saved/$m" ]; then cp -p "$WORK/saved/$m" "$BUILD/$m"; else rm -f "$BUILD/$m"; fi
  done
  rm -rf "$WORK"
}
trap restore EXIT

DEST=$WORK/dest
PREFIX=/usr/local
ROOT=$DEST$PREFIX
expect_ok "cmake --install into DESTDIR" env DESTDIR="$DEST" cmake --install "$BUILD" --prefix "$PREFIX"
[ "$FAILS" -eq 0 ] || { cat err.txt >&2; finish; exit 1; }
CHECKS=$((CHECKS + 1))
outside=$(grep -v "^-- \(Install configuration\|Installing: $DEST/\|Up-to-date: $DEST/\)" out.txt)
[ -z "$outside" ] || fail "install wrote outside DESTDIR: $outside"

expect_ok "installed cuzk --help" "$ROOT/bin/cuzk" --help
grep -q 'setup' out.txt || fail "cuzk --help lists no commands: $(head -c 200 out.txt)"
expect_ok "installed cuzk --version" "$ROOT/bin/cuzk" --version
grep -qx "cuzk $(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$BUILD/CMakeCache.txt")" out.txt ||
  fail "cuzk --version: $(head -c 200 out.txt)"
grep -q '^CUDA: \(yes\|no\)' out.txt || fail "cuzk --version does not say whether CUDA is built in"

lib=$(find "$DEST" -name libcuzk.a)
pc=$(find "$DEST" -name cuzk.pc)
CHECKS=$((CHECKS + 1))
[ -n "$lib" ] && [ -n "$pc" ] || fail "libcuzk.a ($lib) or cuzk.pc ($pc) not installed"
# the API's headers (cmake/install.cmake's list), and nothing beside them
api="config.h engine.h progress.h server.h status.h verify.h version.h"
for h in $api; do
  CHECKS=$((CHECKS + 1))
  [ -f "$ROOT/include/cuzk/$h" ] || fail "header include/cuzk/$h not installed"
done
CHECKS=$((CHECKS + 1))
installed=$(cd "$ROOT/include/cuzk" && find . -type f | sed 's|^\./||' | sort | tr '\n' ' ')
[ "$installed" = "$api " ] || fail "installed headers: $installed(the API is: $api)"
CHECKS=$((CHECKS + 1))
[ -f "$ROOT/share/doc/cuzk/cuzk.ini.example" ] || fail "cuzk.ini.example not installed"
CHECKS=$((CHECKS + 1))
if grep -q '^CUZK_INSTALL_SYSTEMD:BOOL=ON' "$BUILD/CMakeCache.txt"; then
  [ -f "$ROOT/lib/systemd/system/cuzk.service" ] || fail "CUZK_INSTALL_SYSTEMD=ON but no unit installed"
else
  [ ! -e "$ROOT/lib/systemd/system/cuzk.service" ] || fail "unit installed with CUZK_INSTALL_SYSTEMD off"
fi

# One archive: the layers' code and blst's, none of the test circuits; every symbol it exports
# is a cuzk_ name (the layers' internal ones and blst's are local to it).
nm -g --defined-only "$lib" > syms.txt 2>/dev/null
for s in cuzk_last_error cuzk_version cuzk_engine_create cuzk_server_config_default cuzk_verifier_check; do
  CHECKS=$((CHECKS + 1))
  grep -q " T $s\$" syms.txt || fail "libcuzk.a does not define $s"
done
CHECKS=$((CHECKS + 1))
grep -q " T cuzk_circuit_open\$" syms.txt && fail "libcuzk.a holds the test circuits (cuzk_circuit_open)"
CHECKS=$((CHECKS + 1))
exported=$(awk 'NF == 3 && $3 !~ /^cuzk_/ {print $3}' syms.txt | sort -u | head -20 | tr '\n' ' ')
[ -z "$exported" ] || fail "libcuzk.a exports names outside cuzk_: $exported"
CHECKS=$((CHECKS + 1))
nm "$lib" 2>/dev/null | grep -q " t blst_p1_add\$" || fail "libcuzk.a does not hold blst's code, local (blst_p1_add)"

# A program using the installed library, built with what pkg-config says and nothing else.
# The .pc finds its prefix from its own place, so it works from DESTDIR as installed. The
# server's gRPC code is reached too where the layer has it (cuzk_server_start defined).
server=0
grep -q " T cuzk_server_start\$" syms.txt && server=1
cat > user.c <<'EOF'
#include <stdio.h>
#include <string.h>

#include "cuzk/engine.h"
#include "cuzk/server.h"
#include "cuzk/verify.h"
#include "cuzk/version.h"

/* argv[1..3]: a .vk, a proof and its public inputs (binary, CUZK_INPUT_BYTES each) */
static const char *verdict(const char *vk, const char *proof_path, const char *inputs_path)
{
    static unsigned char proof[CUZK_PROOF_BYTES + 1], inputs[64 * CUZK_INPUT_BYTES + 1];
    FILE *pf = fopen(proof_path, "rb"), *inf = fopen(inputs_path, "rb");
    size_t np = pf ? fread(proof, 1, sizeof proof, pf) : 0, ni = inf ? fread(inputs, 1, sizeof inputs, inf) : 0;
    if (pf) fclose(pf);
    if (inf) fclose(inf);
    cuzk_verifier *v;
    if (np != CUZK_PROOF_BYTES || cuzk_verifier_open(&v, vk)) return "unreadable";
    cuzk_status st = ni == cuzk_verifier_num_inputs(v) * CUZK_INPUT_BYTES ? cuzk_verifier_check(v, proof, 1, inputs)
                                                                          : CUZK_EINVAL;
    cuzk_verifier_close(v);
    return st == CUZK_OK ? "verified" : st == CUZK_EVERIFY ? "rejected" : cuzk_status_name(st);
}

int main(int argc, char **argv)
{
    if (argc != 4 || strcmp(cuzk_version(), CUZK_VERSION_STRING)) {
        fprintf(stderr, "usage: user VK PROOF INPUTS (library %s, header %s)\n", cuzk_version(), CUZK_VERSION_STRING);
        return 2;
    }
    cuzk_engine_config cfg;
    cuzk_engine_config_default(&cfg);
    cfg.gpus = 0;
    cfg.threads = 1;
    cfg.urgent_threads = 1;
    cuzk_engine *e;
    if (cuzk_engine_create(&e, &cfg, NULL)) {
        fprintf(stderr, "engine: %s\n", cuzk_last_error());
        return 1;
    }
    cuzk_engine_destroy(e);
    cuzk_server_config scfg;
    cuzk_server_config_default(&scfg);
#ifdef USER_SERVER
    void *volatile reach = (void *)cuzk_server_start; /* pulls in the gRPC and HTTP code */
    (void)reach;
#endif
    printf("%s %s %s\n", cuzk_kind_name(CUZK_KIND_POREP), verdict(argv[1], argv[2], argv[3]),
           strstr(scfg.listen, "unix:") ? "unix" : scfg.listen);
    return 0;
}
EOF
export PKG_CONFIG_PATH=$(dirname "$pc")
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$BUILD/CMakeCache.txt")
expect_ok "pkg-config --modversion" pkg-config --modversion cuzk
[ "$(cat out.txt)" = "$version" ] || fail "cuzk.pc version '$(cat out.txt)', project version '$version'"
expect_ok "pkg-config --static" pkg-config --cflags --libs --static cuzk
flags=$(cat out.txt)
CHECKS=$((CHECKS + 1))
grep -q -- "-I$DEST" out.txt || fail "cuzk.pc does not point into DESTDIR: $flags"
defs=()
[ $server -eq 1 ] && defs=(-DUSER_SERVER)
# shellcheck disable=SC2086 # the flags are words
expect_ok "build against the installed library" ${CC:-cc} -std=c11 -Wall -Wextra -Werror "${defs[@]+"${defs[@]}"}" \
  user.c -o user $flags
[ "$FAILS" -eq 0 ] || cat err.txt >&2
# a proof of the installed cuzk, its inputs as the API's bytes (the JSON's decimals, 32 bytes
# little-endian each), then one input changed
expect_ok "installed cuzk setup" "$ROOT/bin/cuzk" setup --circuit random:3000 --params r.params --vk r.vk --quiet
expect_ok "installed cuzk prove" "$ROOT/bin/cuzk" prove --circuit random:3000 --params r.params --proof r.proof \
  --inputs r.json --quiet
expect_ok "the inputs as bytes" python3 -c '
import json, sys
ins = json.load(open("r.json"))
open("r.in", "wb").write(b"".join(int(x).to_bytes(32, "little") for x in ins))
open("r.bad", "wb").write(b"".join((int(x) + (i == 0)).to_bytes(32, "little") for i, x in enumerate(ins)))'
expect_ok "run the program" ./user r.vk r.proof r.in
[ "$(cat out.txt)" = "porep verified unix" ] || fail "program output: $(cat out.txt)"
expect_ok "run the program, an input changed" ./user r.vk r.proof r.bad
[ "$(cat out.txt)" = "porep rejected unix" ] || fail "program output with a changed input: $(cat out.txt)"

# The systemd component: the unit, ExecStart naming the binary of this install's prefix.
SD=$WORK/sd
expect_ok "cmake --install --component systemd" env DESTDIR="$SD" cmake --install "$BUILD" --prefix /opt/cuzk \
  --component systemd
unit=$SD/opt/cuzk/lib/systemd/system/cuzk.service
CHECKS=$((CHECKS + 1))
if [ ! -f "$unit" ]; then
  fail "no unit at $unit"
else
  grep -qx 'ExecStart=/opt/cuzk/bin/cuzk daemon --config /etc/cuzk/cuzk.ini' "$unit" ||
    fail "unit ExecStart: $(grep ExecStart "$unit")"
  grep -v '^ExecStart=' "$unit" | diff - <(grep -v '^ExecStart=' "$SRC/contrib/cuzk.service") >/dev/null ||
    fail "the installed unit differs from contrib/cuzk.service beyond ExecStart"
fi

# systemd-analyze verify: where it runs at all (a container may lack it or a working systemd),
# on the unit with ExecStart at the binary installed above (verify checks it is executable).
# It returns 0 on unknown keys and bad values, printing them: any line about the unit fails.
mkdir -p units
printf '[Unit]\nDescription=probe\n[Service]\nExecStart=/bin/true\n' > units/probe.service
if ! command -v systemd-analyze >/dev/null; then
  echo "SKIPPED systemd-analyze verify: systemd-analyze is not installed"
elif ! systemd-analyze verify units/probe.service >probe.txt 2>&1; then
  echo "SKIPPED systemd-analyze verify: it fails on a minimal unit here ($(head -c 200 probe.txt))"
else
  sed "s#^ExecStart=[^ ]*#ExecStart=$ROOT/bin/cuzk#" "$unit" > units/cuzk.service
  CHECKS=$((CHECKS + 1))
  systemd-analyze verify units/cuzk.service >verify.txt 2>&1 || fail "systemd-analyze verify: $(cat verify.txt)"
  ! grep -q 'cuzk.service' verify.txt || fail "systemd-analyze verify: $(grep cuzk.service verify.txt)"
fi

# The example configuration: every key of it reads back, and the installed daemon starts with
# it (the socket and folders moved into the test's folder by option and environment), answers
# status and drains on SIGTERM with exit 0, as the unit stops it.
EX=$ROOT/share/doc/cuzk/cuzk.ini.example
if "$ROOT/bin/cuzk" config --print-defaults | grep -q '^\[daemon\]$'; then
  expect_ok "cuzk.ini.example reads back" "$ROOT/bin/cuzk" --config "$EX" config --print
  A=unix://$WORK/run/cuzk.sock
  CUZK_DAEMON_CACHE_DIR=$WORK/cache FIL_PROOFS_PARAMETER_CACHE=$WORK/params \
    "$ROOT/bin/cuzk" daemon --config "$EX" --listen "$A" --threads 1 >daemon.log 2>&1 &
  dpid=$!
  for _ in $(seq 1 100); do
    grep -q "listening on" daemon.log && break
    kill -0 $dpid 2>/dev/null || break
    sleep 0.1
  done
  expect_ok "client status against the example's daemon" "$ROOT/bin/cuzk" client status --addr "$A"
  kill -TERM $dpid 2>/dev/null
  CHECKS=$((CHECKS + 1))
  wait $dpid || fail "daemon with the example configuration: exit $? ($(head -c 400 daemon.log))"
else
  echo "SKIPPED cuzk.ini.example check: this cuzk has no [daemon] keys yet"
fi

finish
