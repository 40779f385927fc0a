#!/usr/bin/env bash
# Installs the Debian packages the build and tests need, only those that are missing.
# Runs apt-get directly as root, through sudo otherwise. `install-deps.sh fuzz` adds clang and
# its libFuzzer runtime (`make fuzz`).
set -euo pipefail
pkgs=(build-essential cmake pkg-config libjansson-dev libxxhash-dev libssl-dev libinih-dev libgrpc-dev libprotobuf-c-dev protobuf-c-compiler libmicrohttpd-dev python3-grpcio nodejs npm openssl ca-certificates
  clang-format) # clang-format: scripts/check-format.sh (the check_format test) runs it
if [ "${1:-}" = fuzz ]; then
  pkgs+=(clang-14 libclang-rt-14-dev)
fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# node and npm may come from elsewhere than Debian (a preinstalled Node.js); accept those.
if command -v node >/dev/null && command -v npm >/dev/null; then
  filtered=()
  for p in "${missing[@]}"; do [ "$p" = nodejs ] || [ "$p" = npm ] || filtered+=("$p"); done
  missing=("${filtered[@]+"${filtered[@]}"}")
fi
[ ${#missing[@]} -eq 0 ] && exit 0
echo "install-deps: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get install -y --no-install-recommends "${missing[@]}" \
  || { $sudo apt-get update && $sudo apt-get install -y --no-install-recommends "${missing[@]}"; }
