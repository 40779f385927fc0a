#!/usr/bin/env python3
"""The traffic of the daemon's soak (tests/daemon/daemon_soak.sh): for --seconds, a well-behaved
client proving test-kind jobs beside hostile ones, each a thread of its own.

  soak_client.py --addr unix:///PATH --socket PATH --seconds S --out RESULTS.json
                 [--max-message-bytes N]

- steady: Prove calls of random:1024, random:2048 and random:4096 (1 to 3 partitions),
  priorities LOW, NORMAL, HIGH and CRITICAL in turn, at most 6 in flight; each request id used once, the seeds
  of one circuit consecutive (so that one `cuzk prove --seed S --count N` gives the public
  inputs of all of them); every answer recorded with its latency.
- flood: 200 connections opened at once on the socket, closed half a second later, again and
  again (below daemon.max_connections, so the steady client's connection is never the one let
  go).
- oversized: SubmitProof of max_message_bytes + 4 MiB (RESOURCE_EXHAUSTED expected), and of
  200,000 empty vanilla_proofs entries (under the size limit, over the field bound:
  INVALID_ARGUMENT expected).
- malformed: random bytes as the request of each method, and raw bytes that are not HTTP/2
  written to the socket.
- storm: 8 LOW jobs of random:4096 x 20 partitions submitted and cancelled at once, CancelProof
  of ids nobody submitted, each storm job then awaited (CANCELLED, or COMPLETED when it ended
  first).
- status: GetStatus every second (a control call must always be answered).

The idle and preface-only connections and the signals come from the shell (daemon_lib.bash's
hold, kill -HUP). Writes one JSON object: every steady call, and per hostile thread the count of
each outcome and of the unexpected ones. Exit status 0 unless the client itself failed (the
shell judges the results).
"""
import argparse
import collections
import json
import os
import random
import socket
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import client_py as cp  # noqa: E402
import grpc  # noqa: E402

CIRCUITS = ["random:1024", "random:2048", "random:4096"]


class Tally:
    """Outcomes of a hostile thread: name -> count; unexpected ones kept (the first 20)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.counts = collections.Counter()
        self.unexpected = []
        self.n_unexpected = 0

    def add(self, outcome, expected=True, detail=""):
        with self.lock:
            self.counts[outcome] += 1
            if not expected:
                self.n_unexpected += 1
                if len(self.unexpected) < 20:
                    self.unexpected.append("%s: %s" % (outcome, detail[:300]))

    def json(self):
        return {"counts": dict(self.counts), "unexpected": self.n_unexpected, "examples": self.unexpected}


def code_of(e):
    return e.code().name if isinstance(e, grpc.RpcError) else type(e).__name__


def steady(eng, end, results):
    prios = [eng.enum("SubmitProofRequest", "priority", p) for p in ("LOW", "NORMAL", "HIGH", "CRITICAL")]
    names = {v: k for k, v in zip(("LOW", "NORMAL", "HIGH", "CRITICAL"), prios)}
    completed = eng.enum("AwaitProofResponse", "status", "COMPLETED")
    seeds = {c: 1000 * (k + 1) for k, c in enumerate(CIRCUITS)}
    slots = threading.Semaphore(6)
    threads = []
    k = 0
    while time.time() < end:
        slots.acquire()
        circuit = CIRCUITS[k % len(CIRCUITS)]
        parts = 1 + (k // len(CIRCUITS)) % 3
        prio = prios[k % len(prios)]
        rec = {"id": "soak-%05d" % k, "circuit": circuit, "parts": parts, "seed": seeds[circuit],
               "priority": names[prio]}
        seeds[circuit] += parts
        results.append(rec)

        def one(rec=rec, prio=prio):
            t0 = time.time()
            try:
                r = eng.call("Prove", timeout=600, submit=cp.test_request(
                    eng, rec["id"], rec["circuit"], rec["parts"], rec["seed"], prio)).result
                rec.update(status=eng.enum_name("AwaitProofResponse", "status", r.status), job_id=r.job_id,
                           proof=r.proof.hex() if r.status == completed else "", error=r.error_message)
            except Exception as e:  # noqa: BLE001 - every failure is the record's
                rec.update(status=code_of(e), error=cp.details_of(e))
            rec["seconds"] = time.time() - t0
            rec["answers"] = rec.get("answers", 0) + 1
            slots.release()

        t = threading.Thread(target=one, daemon=True)
        t.start()
        threads.append(t)
        k += 1
        time.sleep(0.15)
    for t in threads:
        t.join(timeout=660)
    return sum(t.is_alive() for t in threads)


def flood(path, end, tally):
    while time.time() < end:
        socks = []
        for _ in range(200):
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                s.connect(path)
                socks.append(s)
            except OSError as e:
                tally.add("connect refused", False, str(e))
                s.close()
        tally.add("connections", True)
        time.sleep(0.5)
        for s in socks:
            s.close()
        time.sleep(1.5)


def oversized(eng, end, tally, limit):
    big = b"\x10\x03" + b"\x5a\x00" * 100000  # proof_kind 3, empty vanilla_proofs entries
    while time.time() < end:
        try:
            eng.raw("/cuzk.v1.ProvingEngine/SubmitProof", b"\x00" * (limit + (4 << 20)), timeout=30)
            tally.add("over the message limit: OK", False, "a message over the limit was taken")
        except grpc.RpcError as e:
            tally.add("over the message limit: " + e.code().name, e.code().name == "RESOURCE_EXHAUSTED", e.details())
        try:
            eng.raw("/cuzk.v1.ProvingEngine/SubmitProof", big * 2, timeout=30)
            tally.add("200000 fields: OK", False, "taken")
        except grpc.RpcError as e:
            ok = e.code().name == "INVALID_ARGUMENT" and "fields" in (e.details() or "")
            tally.add("200000 fields: " + e.code().name, ok, e.details())
        time.sleep(2)


def malformed(eng, path, end, tally):
    methods = ["SubmitProof", "Prove", "AwaitProof", "CancelProof", "GetStatus", "PreloadSRS"]
    rng = random.Random(7)
    lost = 0  # calls in a row that found no connection
    while time.time() < end:
        m = rng.choice(methods)
        data = bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 4096)))
        try:
            eng.raw("/cuzk.v1.ProvingEngine/" + m, data, timeout=10)
            tally.add("random bytes: OK", True)  # random bytes may be a valid message
            lost = 0
        except grpc.RpcError as e:
            # UNAVAILABLE: this channel's connection was lost and not yet made again (seen a
            # few times a run, "failed to connect to all addresses ... recvmsg: Invalid
            # argument"; the cause is not known): counted, and unexpected once it lasts 10 calls
            lost = lost + 1 if e.code().name == "UNAVAILABLE" else 0
            tally.add("random bytes: " + e.code().name, lost < 10, e.details())
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            s.connect(path)
            s.sendall(b"GET / HTTP/1.1\r\n\r\n" + bytes(rng.getrandbits(8) for _ in range(512)))
            s.settimeout(5)
            try:
                s.recv(4096)
            except OSError:
                pass
            tally.add("raw garbage on the socket", True)
        except OSError as e:
            tally.add("raw garbage: " + type(e).__name__, False, str(e))
        finally:
            s.close()
        time.sleep(0.3)


def storm(eng, end, tally):
    low = eng.enum("SubmitProofRequest", "priority", "LOW")
    cancelled = eng.enum("AwaitProofResponse", "status", "CANCELLED")
    completed = eng.enum("AwaitProofResponse", "status", "COMPLETED")
    k = 0
    while time.time() < end:
        ids = []
        for _ in range(8):
            rid = "storm-%05d" % k
            k += 1
            try:
                submit = eng.methods["SubmitProof"][0]
                submit(cp.test_request(eng, rid, "random:4096", 20, 5000 + k, low), timeout=30)
                ids.append(rid)
            except grpc.RpcError as e:
                tally.add("storm submit: " + e.code().name, False, e.details())
        for rid in ids:
            try:
                eng.call("CancelProof", timeout=30, job_id=rid)
                tally.add("cancel", True)
            except grpc.RpcError as e:
                tally.add("cancel: " + e.code().name, False, e.details())
        for j in range(8):
            try:
                eng.call("CancelProof", timeout=30, job_id="nobody-%d-%d" % (k, j))
                tally.add("cancel of an unknown id: OK", False, "answered as if it existed")
            except grpc.RpcError as e:
                tally.add("cancel of an unknown id: " + e.code().name, e.code().name == "NOT_FOUND", e.details())
        for rid in ids:
            try:
                r = eng.call("AwaitProof", timeout=60, job_id=rid)
                ok = r.status in (cancelled, completed)
                tally.add("storm job " + eng.enum_name("AwaitProofResponse", "status", r.status), ok,
                          "%s: %s" % (rid, r.error_message))
            except grpc.RpcError as e:
                tally.add("storm await: " + e.code().name, False, "%s: %s" % (rid, e.details()))
        time.sleep(1.5)


def status(eng, end, tally):
    while time.time() < end:
        t0 = time.time()
        try:
            eng.call("GetStatus", timeout=10)
            tally.add("GetStatus", True)
            tally.counts["GetStatus max ms"] = max(tally.counts["GetStatus max ms"], int((time.time() - t0) * 1000))
        except grpc.RpcError as e:
            tally.add("GetStatus: " + e.code().name, False, e.details())
        time.sleep(1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--addr", required=True)
    ap.add_argument("--socket", required=True)
    ap.add_argument("--seconds", type=float, required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--max-message-bytes", type=int, default=16 << 20)
    a = ap.parse_args()
    end = time.time() + a.seconds
    # one channel (connection) per thread: the steady client's is its own
    engines = {n: cp.Engine(a.addr) for n in ("steady", "oversized", "malformed", "storm", "status")}
    tallies = {n: Tally() for n in ("flood", "oversized", "malformed", "storm", "status")}
    steady_results = []
    hostile = [
        threading.Thread(target=flood, args=(a.socket, end, tallies["flood"]), daemon=True),
        threading.Thread(target=oversized, args=(engines["oversized"], end, tallies["oversized"],
                                                 a.max_message_bytes), daemon=True),
        threading.Thread(target=malformed, args=(engines["malformed"], a.socket, end, tallies["malformed"]),
                         daemon=True),
        threading.Thread(target=storm, args=(engines["storm"], end, tallies["storm"]), daemon=True),
        threading.Thread(target=status, args=(engines["status"], end, tallies["status"]), daemon=True),
    ]
    for t in hostile:
        t.start()
    left = steady(engines["steady"], end, steady_results)
    for t in hostile:
        t.join(timeout=120)
    out = {"steady": steady_results, "steady_threads_left": left,
           "hostile_threads_left": sum(t.is_alive() for t in hostile),
           "hostile": {n: t.json() for n, t in tallies.items()}}
    with open(a.out + ".tmp", "w") as f:
        json.dump(out, f)
    os.replace(a.out + ".tmp", a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
