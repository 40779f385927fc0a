#!/usr/bin/env python3
"""Curio's request stream against `cuzk daemon`: the ids, fields and retries Curio sends.

Curio (lib/ffi/cuzk_funcs.go) names its requests porep-<miner>-<sector>, snap-<miner>-<sector>,
wdpost-<miner>-<partition>-<randomness[:8] as Go's %d prints a byte slice> with the partition
always 0 (each deadline partition is its own task), and winpost-<miner>-<randomness[:8] hex>; a
retry sends the same id again, after a timeout, a failure or a reseal. Every answer here is
checked with `cuzk verify` against the public data it was asked for, so an answer that belongs
to another request fails.

  curio_shapes.py --addr ADDR --cuzk CUZK --data DIR

DIR (made by daemon_curio_shapes.sh) holds: a/ and b/ (sector 5 of miner 1000 sealed twice,
with different tickets and seeds: a reseal), b-bad.json (b's C1 with one path byte flipped),
w1/ and w2/ (the vanilla proofs of two WindowPoSt partitions of one deadline), n/ (WinningPoSt),
u/ (SnapDeals) and vk/ (the verifying keys, KIND.vk). Exit 0 when every check passed.
"""
import argparse
import base64
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import client_py  # noqa: E402
from client_py import Checks, grpc  # noqa: E402

MINER = 1000
SECTOR = 5
# RegisteredSealProof numbers (filecoin-proofs-api): StackedDrg2KiBV1_1 is 5, StackedDrg32GiBV1_1 8
SEAL_PROOF = {"StackedDrg2KiBV1": 0, "StackedDrg2KiBV1_1": 5, "StackedDrg32GiBV1_1": 8}


class Shapes:
    def __init__(self, a):
        self.a = a
        self.eng = client_py.Engine(a.addr)
        self.c = Checks("curio shapes")
        self.kind = lambda v: self.eng.enum("SubmitProofRequest", "proof_kind", v)  # noqa: E731
        self.status = lambda v: self.eng.enum("AwaitProofResponse", "status", v)  # noqa: E731

    def path(self, *p):
        return os.path.join(self.a.data, *p)

    def read(self, *p):
        with open(self.path(*p), "rb") as f:
            return f.read()

    def json(self, *p):
        with open(self.path(*p)) as f:
            return json.load(f)

    # --------------------------------------------------------------- calls
    def prove(self, timeout=900, **fields):
        """Prove as Curio calls it; (result, seconds), or (RpcError, seconds)."""
        t0 = time.time()
        try:
            r = self.eng.call("Prove", timeout=timeout, submit=self.eng.submit_request(**fields)).result
        except grpc.RpcError as e:
            return e, time.time() - t0
        return r, time.time() - t0

    def completed(self, r, what):
        ok = not isinstance(r, grpc.RpcError) and r.status == self.status("COMPLETED") and len(r.proof) % 192 == 0 \
            and len(r.proof) > 0
        return self.c.ok(ok, "%s: COMPLETED with a proof" % what, client_py.short(r) if not isinstance(
            r, grpc.RpcError) else "%s %s" % (r.code().name, r.details()))

    def failed_naming(self, r, what, pattern):
        ok = not isinstance(r, grpc.RpcError) and r.status == self.status("FAILED") and pattern in r.error_message
        return self.c.ok(ok, "%s: FAILED naming %s" % (what, pattern), client_py.short(r) if not isinstance(
            r, grpc.RpcError) else "%s %s" % (r.code().name, r.details()))

    def verify(self, what, proof, *args):
        """`cuzk verify ARGS --proof PROOF` must accept the proof (and did, before, fail others)."""
        out = self.path("answer.proof")
        with open(out, "wb") as f:
            f.write(proof)
        p = subprocess.run([self.a.cuzk, "verify", *args, "--proof", out], capture_output=True, text=True)
        return self.c.ok(p.returncode == 0, "%s: cuzk verify %s accepts it" % (what, args[0]),
                         (p.stdout + p.stderr).strip()[-300:])

    def refuses(self, what, proof, *args):
        out = self.path("answer.proof")
        with open(out, "wb") as f:
            f.write(proof)
        p = subprocess.run([self.a.cuzk, "verify", *args, "--proof", out], capture_output=True, text=True)
        return self.c.ok(p.returncode != 0, "%s: cuzk verify %s refuses it" % (what, args[0]))

    # --------------------------------------------------------------- WindowPoSt and WinningPoSt
    def post_request(self, folder, rid, kind):
        post = self.json(folder, "post.json")
        blobs = [self.read(folder, "vanilla-%d.bin" % i) for i in range(len(post["sectors"]))]
        fields = dict(request_id=rid, proof_kind=self.kind(kind), sector_size=2048,
                      registered_proof=post["registered_proof"], vanilla_proofs=blobs,
                      randomness=bytes.fromhex(post["randomness"]), miner_id=MINER,
                      priority=self.eng.enum("SubmitProofRequest", "priority",
                                             "HIGH" if kind == "WINDOW_POST_PARTITION" else "CRITICAL"))
        return fields

    def window_deadline(self):
        """Two partitions of one deadline under Curio's one id, then a retry of the second."""
        rnd = bytes.fromhex(self.json("w1", "post.json")["randomness"])
        rid = "wdpost-%d-0-[%s]" % (MINER, " ".join(str(b) for b in rnd[:8]))
        vk = self.path("vk", "window-post.vk")
        p0 = self.post_request("w1", rid, "WINDOW_POST_PARTITION")
        p1 = self.post_request("w2", rid, "WINDOW_POST_PARTITION")
        r0, _ = self.prove(**p0)
        r1, _ = self.prove(**p1)
        if not (self.completed(r0, "WindowPoSt partition 1 of the deadline") and
                self.completed(r1, "WindowPoSt partition 2 under the same id")):
            return rid
        self.c.ok(r0.proof != r1.proof, "the two partitions under one id get different proofs")
        self.verify("partition 1's proof", r0.proof, "window-post", "--vanilla", self.path("w1"), "--vk", vk)
        self.verify("partition 2's proof", r1.proof, "window-post", "--vanilla", self.path("w2"), "--vk", vk)
        self.refuses("partition 2's proof against partition 1's sectors", r1.proof, "window-post", "--vanilla",
                     self.path("w1"), "--vk", vk)
        # a retry of partition 2 (Curio's harmony task after a timeout): the same proof
        r2, secs = self.prove(**p1)
        if self.completed(r2, "partition 2 retried under the same id"):
            self.c.ok(r2.proof == r1.proof, "the retry of partition 2 gets partition 2's proof (joined, %.2f s)" % secs)
        # and partition 1 again after partition 2 took the id: its own proof, not 2's
        r3, _ = self.prove(**p0)
        if self.completed(r3, "partition 1 again after partition 2 took the id"):
            self.c.ok(r3.proof == r0.proof, "partition 1 again: partition 1's proof")
        return rid

    def winning(self, window_id):
        """WinningPoSt as Curio sends it (registered_proof 0: StackedDrgWinning2KiBV1), and under
        the WindowPoSt's id: a WinningPoSt proof either way."""
        vk = self.path("vk", "winning-post.vk")
        rnd = bytes.fromhex(self.json("n", "post.json")["randomness"])
        req = self.post_request("n", "winpost-%d-%s" % (MINER, rnd[:8].hex()), "WINNING_POST")
        self.c.ok(req["registered_proof"] == 0, "the 2 KiB WinningPoSt's registered proof is 0, as Curio sends it")
        r, _ = self.prove(**req)
        if self.completed(r, "WinningPoSt with registered_proof 0"):
            self.verify("the WinningPoSt proof", r.proof, "winning-post", "--vanilla", self.path("n"), "--vk", vk)
        req["request_id"] = window_id
        r2, _ = self.prove(**req)
        if self.completed(r2, "WinningPoSt under the WindowPoSt's id"):
            self.c.ok(len(r2.proof) == 192, "a WinningPoSt's 192 bytes under the WindowPoSt's id")
            self.verify("the WinningPoSt proof under the WindowPoSt's id", r2.proof, "winning-post", "--vanilla",
                        self.path("n"), "--vk", vk)

    # --------------------------------------------------------------- PoRep
    def wrapper(self, c1_bytes, sector=SECTOR):
        """The C1 wrapper as Go's encoding/json writes Curio's struct (keys in field order)."""
        return json.dumps({"SectorNum": sector, "Phase1Out": base64.b64encode(c1_bytes).decode(),
                           "SectorSize": 2048}, separators=(",", ":")).encode()

    def porep(self):
        """A sector proved, resealed, a bad C1, a cancel and a retry, all as porep-<miner>-<sector>."""
        rid = "porep-%d-%d" % (MINER, SECTOR)
        vk = self.path("vk", "porep.vk")
        c1a, c1b = self.read("a", "c1.json"), self.read("b", "c1.json")
        rp = SEAL_PROOF[json.loads(c1a)["registered_proof"]]
        curio = dict(request_id=rid, proof_kind=self.kind("POREP_SEAL_COMMIT"), sector_size=2048, registered_proof=rp,
                     sector_number=SECTOR, miner_id=MINER)
        ra, secs = self.prove(vanilla_proof=self.wrapper(c1a), **curio)
        if self.completed(ra, "PoRep of sector %d (%.0f s)" % (SECTOR, secs)):
            self.verify("the sector's proof", ra.proof, "porep", "--public", self.path("a", "sector.json"), "--vk", vk)
        # the checks upstream makes before proving, each under the same id, each at once
        other = dict(curio, miner_id=MINER + 1)
        r, secs = self.prove(vanilla_proof=self.wrapper(c1b), **other)
        self.failed_naming(r, "the resealed C1 sent as another miner's", "replica_id")
        self.c.ok(secs < 30, "the replica id is checked before proving (%.1f s)" % secs)
        big = dict(curio, registered_proof=0, sector_size=32 << 30)
        r, _ = self.prove(vanilla_proof=self.wrapper(c1b), **big)
        self.failed_naming(r, "a 2 KiB C1 in a request claiming 32 GiB (registered_proof 0)", "sector_size")
        r, _ = self.prove(vanilla_proof=self.wrapper(self.read("b-bad.json")), **curio)
        self.failed_naming(r, "the resealed C1 with a flipped path byte", "C1")
        # the resealed sector (new ticket and seed): submitted, cancelled while it runs
        sub = self.eng.call("SubmitProof", timeout=30, **dict(curio, vanilla_proof=self.wrapper(c1b)))
        self.c.ok(sub.job_id == rid, "SubmitProof answers with the request id")
        running = self.wait_running("porep-c2", 120)
        self.c.ok(running, "the resealed sector's job runs")
        t0 = time.time()
        cancel = self.eng.call("CancelProof", timeout=30, job_id=rid)
        self.c.ok(cancel.was_running, "CancelProof of the running job: was_running")
        aw = self.eng.call("AwaitProof", timeout=300, job_id=rid)
        print("  CancelProof to CANCELLED: %.2f s" % (time.time() - t0), flush=True)
        self.c.ok(aw.status == self.status("CANCELLED"), "the cancelled job ends CANCELLED",
                  client_py.short(aw))
        # Curio's proofshare path: registered_proof rewritten, sector_size 0; a cancelled job is
        # never joined, so this proves, and the C1's registered proof governs
        share = dict(curio, sector_size=0, registered_proof=SEAL_PROOF["StackedDrg32GiBV1_1"])
        rb, secs = self.prove(vanilla_proof=self.wrapper(c1b), **share)
        if self.completed(rb, "the resealed sector after the cancel, proofshare fields (%.0f s)" % secs):
            self.c.ok("registered_proof" in rb.error_message and "8" in rb.error_message,
                      "the rewritten registered_proof is noted in the answer", repr(rb.error_message))
            self.verify("the resealed sector's proof", rb.proof, "porep", "--public", self.path("b", "sector.json"),
                        "--vk", vk)
            self.refuses("the resealed sector's proof against the first seal", rb.proof, "porep", "--public",
                         self.path("a", "sector.json"), "--vk", vk)
            if not isinstance(ra, grpc.RpcError):
                self.c.ok(rb.proof != ra.proof, "the reseal gets a new proof, not the old one")
            again, secs = self.prove(vanilla_proof=self.wrapper(c1b), **share)
            if self.completed(again, "the same request again"):
                self.c.ok(again.proof == rb.proof and secs < 20, "the same request again joins (%.2f s)" % secs)

    def wait_running(self, label, timeout):
        end = time.time() + timeout
        while time.time() < end:
            for q in self.eng.call("GetStatus", timeout=10).queues:
                if q.proof_kind == label and q.in_progress > 0:
                    return True
            time.sleep(0.05)
        return False

    # --------------------------------------------------------------- SnapDeals
    def snap(self):
        """A bad request (wrong comm_r_old) FAILED, then the corrected one under the same id."""
        u = self.json("u", "update.json")
        rid = "snap-%d-%d" % (MINER, 31)
        fields = dict(request_id=rid, proof_kind=self.kind("SNAP_DEALS_UPDATE"), sector_size=2048,
                      registered_proof=u["update_proof"], vanilla_proofs=[self.read("u", "partition-0.bin")],
                      sector_number=31, miner_id=MINER, comm_r_old=bytes.fromhex(u["comm_r_new"]),
                      comm_r_new=bytes.fromhex(u["comm_r_new"]), comm_d_new=bytes.fromhex(u["comm_d_new"]))
        r, _ = self.prove(**fields)
        self.failed_naming(r, "SnapDeals with a wrong comm_r_old", "comm_r_old")
        fields["comm_r_old"] = bytes.fromhex(u["comm_r_old"])
        r, secs = self.prove(**fields)
        if self.completed(r, "the corrected SnapDeals under the same id (%.0f s)" % secs):
            self.verify("the SnapDeals proof", r.proof, "snap", "--vanilla", self.path("u"), "--vk",
                        self.path("vk", "snap.vk"))

    # --------------------------------------------------------------- ids
    def ids(self, some_id):
        """An id with a NUL inside is refused (it named the job of its prefix); so is invalid
        UTF-8, which Python's protobuf will not send: raw bytes."""
        req = self.post_request("n", some_id + "\x00x", "WINNING_POST")
        self.c.rpc_error("a request id with a NUL inside", lambda: self.eng.call(
            "Prove", timeout=30, submit=self.eng.submit_request(**req)), "INVALID_ARGUMENT", "request_id.*NUL")
        self.c.rpc_error("AwaitProof of a job id with a NUL inside", lambda: self.eng.call(
            "AwaitProof", timeout=30, job_id=some_id + "\x00x"), "INVALID_ARGUMENT", "job_id.*NUL")
        req["request_id"] = "ok"
        wire = self.eng.submit_request(**req).SerializeToString()
        self.c.ok(wire[:4] == b"\x0a\x02ok", "the request id is the message's first field on the wire")
        bad = b"\x0a\x03\xff\xfe\x41" + wire[4:]  # the id's bytes replaced by invalid UTF-8
        self.c.rpc_error("a request id that is not UTF-8", lambda: self.eng.raw(
            "/cuzk.v1.ProvingEngine/SubmitProof", bad), "INVALID_ARGUMENT", "request_id.*UTF-8")

    def run(self):
        window_id = self.window_deadline()
        self.winning(window_id)
        self.ids(window_id)
        self.snap()
        if not self.a.no_porep:
            self.porep()
        return self.c.done()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--addr", required=True)
    ap.add_argument("--cuzk", required=True)
    ap.add_argument("--data", required=True)
    ap.add_argument("--no-porep", action="store_true", help="leave out the PoRep shapes (minutes on a CPU)")
    return Shapes(ap.parse_args()).run()


if __name__ == "__main__":
    sys.exit(main())
