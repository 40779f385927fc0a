#!/usr/bin/env bash
# Fetches blst v0.3.10 from the npm package @chainsafe/blst@0.2.11 (its package/blst folder),
# verifies the tarball's sha512 integrity and builds libblst.a with blst's own build.sh.
# Usage: scripts/fetch-blst.sh DEST_DIR   -> DEST_DIR/lib/libblst.a, DEST_DIR/include/blst.h
set -euo pipefail
dest=${1:?usage: fetch-blst.sh DEST_DIR}
want_integrity='URyOLq5GtxBoxibOnd2pgLydCy0UZzbiIIBcsRAvGxAsRzjZL04TsQfwRkz5aphU3a1ebeRoMmI/HHyMCiFSQg=='
pkg='@chainsafe/blst@0.2.11'

if [ -f "$dest/lib/libblst.a" ] && [ -f "$dest/include/blst.h" ]; then
  exit 0
fi
mkdir -p "$dest"
work=$(mktemp -d "$dest/fetch.XXXXXX")
trap 'rm -rf "$work"' EXIT

(cd "$work" && npm pack "$pkg" --silent >/dev/null)
tarball=$(ls "$work"/*.tgz)
got=$(openssl dgst -sha512 -binary "$tarball" | base64 -w0)
if [ "$got" != "$want_integrity" ]; then
  echo "fetch-blst: integrity mismatch for $pkg" >&2
  echo "  expected sha512-$want_integrity" >&2
  echo "  got      sha512-$got" >&2
  exit 1
fi
tar -xzf "$tarball" -C "$work" package/blst
# -fPIC so the library can also go into a shared object; build.sh picks ADX/asm itself.
(cd "$work/package/blst" && ./build.sh -O3 -fPIC >/dev/null)
mkdir -p "$dest/lib" "$dest/include"
cp "$work/package/blst/libblst.a" "$dest/lib/"
cp "$work/package/blst/bindings/blst.h" "$work/package/blst/bindings/blst_aux.h" "$dest/include/"
cp "$work/package/blst/LICENSE" "$dest/LICENSE.blst"
echo "fetch-blst: built blst v0.3.10 into $dest"
