#!/usr/bin/env bash
# Fails when an #include in src/ or include/ reaches a layer the layer table does not allow.
#
# The table is the one in docs/DESIGN.md ("Layers"): rows | name | `src/NAME` | headers | may use |.
# For every file of src/NAME/ and include/NAME/:
#   #include "cuzk/v1/X" generated from proto/cuzk/v1 (build tree): the server layer only;
#   #include "cuzk/X"  the layer owning include/*/cuzk/X must be NAME or one NAME may use;
#   #include "D/X"     (a private header spelled from src/) D must be NAME itself.
# It also checks the cuzk_layer(NAME PUBLIC ... PRIVATE ...) lines of cmake/*.cmake against the
# same table, and that every folder under src/ has a row. Prints file:line for each violation.
set -euo pipefail
root=${CUZK_SOURCE_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root"
table=docs/DESIGN.md

# "name: used used ..." for every row of the table
rows=$(awk -F'|' '$3 ~ /`src\/[a-z0-9_]+`/ {
    name = $2; gsub(/[ `]/, "", name)
    uses = $5; gsub(/`|—|,/, " ", uses)
    print name ":" uses
}' "$table")
[ -n "$rows" ] || { echo "check-layers: no layer table found in $table" >&2; exit 2; }

declare -A allowed
while IFS=: read -r name uses; do allowed[$name]=" $name $(echo $uses) "; done <<<"$rows"

fail=0
violation() { echo "$1: $2" >&2; fail=1; }

for dir in src/*/; do
    d=$(basename "$dir")
    [ -n "${allowed[$d]:-}" ] || violation "$dir" "folder '$d' has no row in the layer table ($table)"
done

# the layer owning a public header, from where it lies: include/LAYER/cuzk/...
owner_of() {
    local f
    for f in include/*/"$1"; do
        [ -e "$f" ] && { f=${f#include/}; echo "${f%%/*}"; return; }
    done
    echo ""
}

while IFS= read -r hit; do
    file=${hit%%:*}; rest=${hit#*:}; line=${rest%%:*}; text=${rest#*:}
    layer=${file#*/}; layer=${layer%%/*}
    [ -n "${allowed[$layer]:-}" ] || continue
    inc=$(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' <<<"$text")
    [ -n "$inc" ] || continue
    case $inc in
    cuzk/v1/*)
        # the message code protoc-c generates from proto/cuzk/v1/ at build time: the server's own
        [ "$layer" = server ] || violation "$file:$line" "layer $layer includes $inc, the server's generated code" ;;
    cuzk/*)
        owner=$(owner_of "$inc")
        if [ -z "$owner" ]; then
            violation "$file:$line" "$inc is no public header (include/*/$inc)"
        elif [[ ${allowed[$layer]} != *" $owner "* ]]; then
            violation "$file:$line" "layer $layer includes $inc of layer $owner, which $layer may not use ($table)"
        fi ;;
    */*)
        top=${inc%%/*}
        if [ -n "${allowed[$top]:-}" ] && [ "$top" != "$layer" ]; then
            violation "$file:$line" "layer $layer includes $inc, a private header of layer $top"
        fi ;;
    esac
done < <(grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' src include)

# cuzk_layer(NAME [PUBLIC ...] [PRIVATE ...] [SOURCES ...]) in the build files
while IFS= read -r hit; do
    file=${hit%%:*}; rest=${hit#*:}; line=${rest%%:*}; text=${rest#*:}
    words=$(sed 's/.*cuzk_layer(\([^)]*\)).*/\1/' <<<"$text")
    set -- $words
    name=$1; shift
    [ -n "${allowed[$name]:-}" ] || { violation "$file:$line" "layer $name has no row in $table"; continue; }
    for w in "$@"; do
        case $w in PUBLIC|PRIVATE) continue ;; SOURCES) break ;; esac
        [[ ${allowed[$name]} == *" $w "* ]] || violation "$file:$line" "layer $name links layer $w, which $name may not use ($table)"
    done
done < <(grep -nE '^[[:space:]]*cuzk_layer\(' cmake/*.cmake)

[ $fail = 0 ] && echo "check-layers: every include and link follows the layer table"
exit $fail
