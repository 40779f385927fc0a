#!/usr/bin/env bash
# Checks the installed API (docs/API.md): the public headers are cmake/install.cmake's
# CUZK_PUBLIC_HEADERS; each may include only system headers and other public ones, and every
# function it declares has a contract: the comment above it (or above the group of declarations
# it belongs to) says "Thread:", or names the function whose contract it shares. Prints
# file:line for each violation.
set -euo pipefail
root=${CUZK_SOURCE_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root"
list=$(sed -n '/^set(CUZK_PUBLIC_HEADERS/,/)/p' cmake/install.cmake | tr -s ' ()\n' '\n' | grep '/cuzk/.*\.h$' || true)
[ -n "$list" ] || { echo "check-api: no CUZK_PUBLIC_HEADERS in cmake/install.cmake" >&2; exit 2; }
declare -A public
for h in $list; do public[$(basename "$h")]=1; done

fail=0
for h in $list; do
  f=include/$h
  [ -f "$f" ] || { echo "$f: listed as public, not there" >&2; fail=1; continue; }
  while IFS=: read -r n inc; do
    name=${inc#*\"cuzk/}
    name=${name%%\"*}
    [ -n "${public[$name]:-}" ] || { echo "$f:$n: includes cuzk/$name, which is not installed" >&2; fail=1; }
  done < <(grep -n '^#include "cuzk/' "$f" || true)
  # awk: remember the last comment; a declaration "TYPE cuzk_NAME(" at the start of a line is
  # covered by it when it says "Thread:" or names another cuzk_ function
  awk -v file="$f" '
    /^\/\*/ { c = ""; incomment = 1 }
    incomment { c = c " " $0; if ($0 ~ /\*\//) incomment = 0; next }
    /^[a-z].*[ *]cuzk_[a-z0-9_]+\(/ && !/^typedef/ {
        match($0, /cuzk_[a-z0-9_]+\(/); fn = substr($0, RSTART, RLENGTH - 1)
        ok = c ~ /Thread:/
        if (!ok) { t = c; while (match(t, /cuzk_[a-z0-9_]+/)) { if (substr(t, RSTART, RLENGTH) != fn) ok = 1; t = substr(t, RSTART + RLENGTH) } }
        if (!ok) { printf "%s:%d: %s has no contract (a comment saying Thread:, or naming the call whose contract it shares)\n", file, NR, fn; bad = 1 }
        next
    }
    /^typedef/ || /^}/ || /^#define/ { c = ""; next }
    END { exit bad }
  ' "$f" >&2 || fail=1
done
[ $fail -eq 0 ] && echo "check-api: $(echo $list | wc -w) public headers, every function with its contract"
exit $fail
