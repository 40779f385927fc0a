#!/usr/bin/env bash
# The daemon against the engine on a GPU host, in one run: 32 GiB-shaped PoRep jobs (synthetic
# data and parameters, as `bench engine --synthetic`) first in-process through `bench engine`,
# then through `cuzk daemon --test-synthetic` with `bench throughput` as the client, /metrics
# scraped every 2 s during the daemon's run. Both record or load the same precompiled circuit.
#   scripts/device-daemon.sh CUZK OUT [JOBS]
set -uo pipefail
cuzk=${1:?usage: device-daemon.sh CUZK OUT [JOBS]}
out=${2:?usage: device-daemon.sh CUZK OUT [JOBS]}
jobs=${3:-4}
mkdir -p "$out"
export CUZK_ENGINE_WITNESS_BUFFER_BYTES=4200000000
pce=/tmp/cuzk-test-porep-32GiB-synthetic.pce

t0=$(date +%s)
timeout 480 "$cuzk" bench engine --kind porep --synthetic --sector-size 32GiB --pce "$pce" --jobs "$jobs" \
  --concurrency 2 --gpu >"$out/engine.txt" 2>&1
echo "bench engine rc $? in $(($(date +%s) - t0)) s"
cat "$out/engine.txt"

sock=/tmp/cuzk-daemon.sock
# the precompiled circuit: the daemon keeps it in its cache folder under the same name
export CUZK_DAEMON_CACHE_DIR=/tmp
t0=$(date +%s)
"$cuzk" daemon --listen "unix://$sock" --http 127.0.0.1:0 --test-synthetic >"$out/daemon.txt" 2>&1 &
dpid=$!
trap 'kill -9 $dpid 2>/dev/null' EXIT
for _ in $(seq 1 300); do grep -q "listening on" "$out/daemon.txt" && break; sleep 0.1; done
head -1 "$out/daemon.txt"
port=$(sed -n 's/.*HTTP \/metrics and \/status on port \([0-9]*\).*/\1/p' "$out/daemon.txt")
# warm-up: the first job loads (synthetic parameters on the GPU, the precompiled circuit)
"$cuzk" client prove --addr "unix://$sock" --kind test --circuit porep:32GiB --partition 9 --request-id warm \
  >"$out/warm.txt" 2>&1
echo "warm-up rc $? in $(($(date +%s) - t0)) s"
cat "$out/warm.txt"
(
  while kill -0 $dpid 2>/dev/null; do
    python3 -c "import urllib.request,sys; sys.stdout.write(urllib.request.urlopen('http://127.0.0.1:$port/metrics').read().decode())" \
      >"$out/metrics.last" 2>/dev/null && echo "$(date +%s.%N) scraped" \
      >>"$out/scrapes.txt"
    sleep 2
  done
) &
spid=$!
t1=$(date +%s)
timeout 480 "$cuzk" bench throughput --addr "unix://$sock" --kind test --circuit porep:32GiB --partition 9 \
  --jobs "$jobs" --concurrency 2 >"$out/throughput.txt" 2>&1
echo "bench throughput rc $? in $(($(date +%s) - t1)) s"
cat "$out/throughput.txt"
python3 -c "import urllib.request,sys; sys.stdout.write(urllib.request.urlopen('http://127.0.0.1:$port/status').read().decode())" \
  >"$out/status.json"
kill $spid 2>/dev/null
echo "metrics scrapes: $(wc -l <"$out/scrapes.txt" 2>/dev/null)"
grep -E '^cuzk_(job_duration_seconds_(count|sum)|jobs_completed_total|device_busy)' "$out/metrics.last" | head -20
kill -TERM $dpid
wait $dpid
echo "daemon exit $?"
tail -2 "$out/daemon.txt"
