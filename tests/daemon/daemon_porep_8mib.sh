#!/usr/bin/env bash
# TIMEOUT 2400
# TIER slow (alone on 2 cores: 391 s, 4 min of it making the porep:8MiB parameters)
# PoRep C2 through the daemon at 8 MiB, as daemon_porep.sh does at 2 KiB. A test of its own so
# that ctest -j runs it beside the others: cold (porep:8MiB parameters not yet in the test
# cache) it takes about 15 minutes on 2 cores, about 5 once they are cached.
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../cli/lib.bash"
. "$HERE/daemon_lib.bash"
need_clients
porep_case 8MiB
finish
