#!/usr/bin/env bash
# Prints why each skipped test of the last ctest run in BUILD_DIR skipped: ctest shows only
# "Skipped" for a test that exits 77, and the reason is the "SKIPPED: ..." line the test
# printed, kept in ctest's log.   Usage: scripts/ctest-skips.sh BUILD_DIR
log=${1:?usage: ctest-skips.sh BUILD_DIR}/Testing/Temporary/LastTest.log
[ -f "$log" ] || exit 0
awk '/^[0-9]+\/[0-9]+ Testing: / { name = $3 }
     /^SKIPPED/ && name != "" { printf "  skipped %s: %s\n", name, $0; name = "" }' "$log"
