#!/usr/bin/env bash
# TIMEOUT 1500
# TIER slow (alone on 2 cores: 160 s)
# PoRep C2 through the daemon at 2 KiB: a sealed sector's C1 sent by the Python and by the Node
# client; each 192-byte proof verifies with `cuzk verify porep --c1` and the independent npm
# verifier. The porep:2KiB parameters are made once into the test cache (about 4-7 minutes here).
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../cli/lib.bash"
. "$HERE/daemon_lib.bash"
need_clients
porep_case 2KiB
finish
