#!/usr/bin/env bash
# TIER fast (alone on 2 cores: 17 s)
# Interop: proofs made by the cuzk CLI (through PROVE synthesis and through the precompiled
# circuit) verify with an independent verifier written on @noble/curves
# (tests/interop/verify.mjs), which reads our .vk, proof bytes and inputs JSON; and a wrong
# input makes it fail.
set -u
CUZK=$(realpath "${1:?usage: prove_verify.sh /path/to/cuzk}")
HERE=$(cd "$(dirname "$0")" && pwd)
if [ ! -d "$HERE/node_modules/@noble/curves" ]; then
  "$HERE/../../scripts/install-interop.sh" || { echo "cannot install @noble/curves"; exit 1; }
fi
WORK=$(mktemp -d "${TMPDIR:-/tmp}/cuzk-interop.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"
fails=0
run() { "$@" >log.txt 2>&1 || { echo "FAIL: $*"; cat log.txt; fails=$((fails + 1)); }; }
for circuit in cubic random:4000 sha256:64; do
  run "$CUZK" setup --circuit "$circuit" --params p.params --vk p.vk --quiet
  run "$CUZK" prove --circuit "$circuit" --params p.params --proof p.proof --inputs p.json --count 2 --quiet
  run node "$HERE/verify.mjs" --vk p.vk --proof p.proof --inputs p.json
  # the same through the precompiled circuit (parallel witness + matrices)
  rm -f p.pce
  run "$CUZK" prove --circuit "$circuit" --params p.params --proof q.proof --inputs q.json --count 2 --pce p.pce --quiet
  run node "$HERE/verify.mjs" --vk p.vk --proof q.proof --inputs q.json
  python3 -c "import json; v=json.load(open('p.json')); v[1][0]=str(int(v[1][0])+1); json.dump(v,open('bad.json','w'))"
  if node "$HERE/verify.mjs" --vk p.vk --proof p.proof --inputs bad.json >log.txt 2>&1; then
    echo "FAIL: $circuit: the independent verifier accepted a wrong input"; fails=$((fails + 1))
  fi
done
echo "prove_verify: $fails failed"
[ "$fails" -eq 0 ]
