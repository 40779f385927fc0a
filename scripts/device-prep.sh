#!/usr/bin/env bash
# Prepares a self-contained copy of this tree for a machine that can fetch nothing (the GPU
# benchmark host): the sources, blst (built here), jansson's header and library, and
# optionally prebuilt binaries, so that scripts/gpu-check.sh runs there in one call.
#   scripts/device-prep.sh DEST [BUILD_DIR]
#   DEST/.devdeps/blst      lib/libblst.a, include/blst.h
#   DEST/.devdeps/jansson   include/jansson*.h, lib/libjansson.*, lib/pkgconfig/jansson.pc
#   DEST/.devdeps/inih      include/ini.h, lib/libinih.*, lib/pkgconfig/inih.pc (the config file)
#   DEST/.devdeps/lib       libcrypto, libinih (runtime)
#   DEST/.prebuilt          cuzk, test_gpu, test_gpu_emu from BUILD_DIR (used when they run there)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
dest=${1:?usage: device-prep.sh DEST [BUILD_DIR]}
build=${2:-}
# the tracked and untracked-but-not-ignored files (no build trees, no .git)
rm -rf "$dest"
mkdir -p "$dest"
(cd "$src" && git ls-files -co --exclude-standard -z | tar --null -T - -cf -) | (cd "$dest" && tar -xf -)

blst_src=""
for d in "${BLST_DIR:-}" "$src/build/_deps/blst" "$src/build-cuda/_deps/blst"; do
  if [ -n "$d" ] && [ -f "$d/lib/libblst.a" ]; then blst_src=$d; break; fi
done
if [ -z "$blst_src" ]; then
  echo "device-prep: no built blst found (build once here, or set BLST_DIR)" >&2
  exit 1
fi
mkdir -p "$dest/.devdeps/blst/lib" "$dest/.devdeps/blst/include"
cp "$blst_src/lib/libblst.a" "$dest/.devdeps/blst/lib/"
cp "$blst_src"/include/*.h "$dest/.devdeps/blst/include/"

j=$dest/.devdeps/jansson
mkdir -p "$j/include" "$j/lib/pkgconfig"
cp /usr/include/jansson.h /usr/include/jansson_config.h "$j/include/"
cp -a /usr/lib/x86_64-linux-gnu/libjansson.so* "$j/lib/"
[ -f /usr/lib/x86_64-linux-gnu/libjansson.a ] && cp /usr/lib/x86_64-linux-gnu/libjansson.a "$j/lib/"
ver=$(pkg-config --modversion jansson 2>/dev/null || echo 2.14)
cat > "$j/lib/pkgconfig/jansson.pc" <<PC
prefix=\${pcfiledir}/../..
includedir=\${prefix}/include
libdir=\${prefix}/lib
Name: Jansson
Description: Library for encoding, decoding and manipulating JSON data
Version: $ver
Libs: -L\${libdir} -ljansson
Cflags: -I\${includedir}
PC

i=$dest/.devdeps/inih
mkdir -p "$i/include" "$i/lib/pkgconfig"
cp /usr/include/ini.h "$i/include/"
cp -a /usr/lib/x86_64-linux-gnu/libinih.so* "$i/lib/"
cat > "$i/lib/pkgconfig/inih.pc" <<PC
prefix=\${pcfiledir}/../..
includedir=\${prefix}/include
libdir=\${prefix}/lib
Name: inih
Description: simple .INI file parser
Version: $(pkg-config --modversion inih 2>/dev/null || echo 55)
Libs: -L\${libdir} -linih
Cflags: -I\${includedir}
PC

# headers and link libraries a bare host lacks for building there: xxHash (header only) and
# libcrypto (OpenSSL's headers, the library and a pkg-config file)
mkdir -p "$dest/.devdeps/xxhash" "$dest/.devdeps/ssl/include" "$dest/.devdeps/ssl/lib/pkgconfig"
cp /usr/include/xxhash.h "$dest/.devdeps/xxhash/"
cp -a /usr/include/openssl "$dest/.devdeps/ssl/include/"
cp -a /usr/include/x86_64-linux-gnu/openssl/* "$dest/.devdeps/ssl/include/openssl/" 2>/dev/null || true
cp -L /usr/lib/x86_64-linux-gnu/libcrypto.so.3 "$dest/.devdeps/ssl/lib/"
ln -sf libcrypto.so.3 "$dest/.devdeps/ssl/lib/libcrypto.so"
cat > "$dest/.devdeps/ssl/lib/pkgconfig/libcrypto.pc" <<PC
prefix=\${pcfiledir}/../..
includedir=\${prefix}/include
libdir=\${prefix}/lib
Name: OpenSSL-libcrypto
Description: OpenSSL cryptography library
Version: $(pkg-config --modversion libcrypto 2>/dev/null || echo 3.0)
Libs: -L\${libdir} -lcrypto
Cflags: -I\${includedir}
PC

# other shared libraries the binaries need that a bare host may lack
mkdir -p "$dest/.devdeps/lib"
cp -L /usr/lib/x86_64-linux-gnu/libcrypto.so.3 "$dest/.devdeps/lib/" 2>/dev/null || true
cp -L /usr/lib/x86_64-linux-gnu/libinih.so.1 "$dest/.devdeps/lib/" 2>/dev/null || true

rm -rf "$dest/.prebuilt"
if [ -n "$build" ]; then
  mkdir -p "$dest/.prebuilt"
  for b in cuzk test_gpu test_gpu_emu; do
    [ -x "$build/$b" ] && cp "$build/$b" "$dest/.prebuilt/" && strip "$dest/.prebuilt/$b" 2>/dev/null || true
  done
fi
# every shared library the prebuilt cuzk needs beyond the C library and the driver (gRPC,
# abseil, protobuf-c, libmicrohttpd and theirs), for LD_LIBRARY_PATH=.devdeps/lib there
if [ -x "$dest/.prebuilt/cuzk" ]; then
  ldd "$build/cuzk" | awk '/=>/ {print $3}' | while read -r lib; do
    case "$(basename "$lib")" in
      libc.so* | libm.so* | libpthread.so* | libdl.so* | librt.so* | ld-linux* | libcuda.so*) continue ;;
    esac
    cp -L "$lib" "$dest/.devdeps/lib/"
  done
fi
du -sh "$dest" | sed 's/^/device-prep: /'
