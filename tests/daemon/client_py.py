#!/usr/bin/env python3
"""A cuzk.v1.ProvingEngine client on Python's grpcio, for the daemon's interop tests.

It shares nothing with the daemon: the message classes are built at run time from
proto/cuzk/v1/proving.proto (a small parser turns the file into a FileDescriptorProto, which
google.protobuf's descriptor pool and message factory make into classes), and each method is
called by the path the proto gives it ("/" package "." service "/" method).

  client_py.py --addr ADDR checks --fast CIRCUIT --slow CIRCUIT --slow-parts N [--tag T]
  client_py.py --addr ADDR limits            (a daemon with a 1 MiB message limit, no test kinds)
  client_py.py --addr ADDR prove --id ID --circuit C [--parts N] [--seed S] [--priority P]
                                  [--timeout S] [--out FILE]
  client_py.py --addr ADDR prove-porep --id ID --c1 FILE [--out FILE] [--timeout S]
  client_py.py --addr ADDR prove-vanilla --id ID --kind snap|window-post|winning-post
                                  --registered-proof N --blob FILE [--blob FILE ...]
                                  [--randomness HEX] [--partition K] [--sector-size BYTES]
                                  [--comm-r-old HEX --comm-r-new HEX --comm-d-new HEX] [--out FILE]
  client_py.py --addr ADDR status [--job ID] | metrics
  client_py.py --addr ADDR --tls-ca CA.pem [--tls-cert C.pem --tls-key C.key] status  (any command over TLS)
  client_py.py --addr ADDR wait-running [--timeout S]
  client_py.py --addr ADDR load --spec FILE --out FILE [--critical K]

Exit status: 0 when every check passed (or the call returned COMPLETED), 1 otherwise, 2 for
usage errors and 3 when the client cannot run (grpcio or the proto missing).
"""
import argparse
import json
import os
import re
import sys
import threading
import time

try:
    import grpc
    from google.protobuf import descriptor_pb2, descriptor_pool, json_format, message_factory
except ImportError as e:  # pragma: no cover - the driver checks this first
    print("client_py: cannot run: %s (needs python3-grpcio and python3-protobuf)" % e, file=sys.stderr)
    sys.exit(3)

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_PROTO = os.path.join(HERE, "..", "..", "proto", "cuzk", "v1", "proving.proto")

# The daemon's test proof kind (not in the proto: it exists only with --test-kinds).
TEST_KIND = 100


# ------------------------------------------------------------------------- the proto parser
class ProtoError(Exception):
    pass


FDP = descriptor_pb2.FieldDescriptorProto
SCALARS = {
    "double": FDP.TYPE_DOUBLE, "float": FDP.TYPE_FLOAT, "int64": FDP.TYPE_INT64,
    "uint64": FDP.TYPE_UINT64, "int32": FDP.TYPE_INT32, "fixed64": FDP.TYPE_FIXED64,
    "fixed32": FDP.TYPE_FIXED32, "bool": FDP.TYPE_BOOL, "string": FDP.TYPE_STRING,
    "bytes": FDP.TYPE_BYTES, "uint32": FDP.TYPE_UINT32, "sfixed32": FDP.TYPE_SFIXED32,
    "sfixed64": FDP.TYPE_SFIXED64, "sint32": FDP.TYPE_SINT32, "sint64": FDP.TYPE_SINT64,
}
TOKEN = re.compile(r'\s+|//[^\n]*|/\*.*?\*/|("(?:[^"\\]|\\.)*")|([A-Za-z_.][A-Za-z0-9_.]*)|(-?\d+)|(.)', re.S)


def tokenize(text):
    out = []
    for m in TOKEN.finditer(text):
        tok = m.group(1) or m.group(2) or m.group(3) or m.group(4)
        if tok:
            out.append(tok)
    return out


class Parser:
    """The proto3 subset a service file uses: syntax, package, option, messages (scalar,
    message and enum fields, repeated, nested messages and enums, reserved), enums and
    services of unary methods. Anything else is refused by name."""

    def __init__(self, text, name):
        self.t = tokenize(text)
        self.i = 0
        self.fd = descriptor_pb2.FileDescriptorProto(name=name)
        self.fields = []  # (field proto, scope) whose type names are resolved at the end
        self.kinds = {}  # every message and enum, fully qualified with a leading dot: "message" or "enum"
        self.methods = []  # (method proto) whose input and output types are resolved at the end

    def peek(self):
        return self.t[self.i] if self.i < len(self.t) else None

    def next(self):
        if self.i >= len(self.t):
            raise ProtoError("unexpected end of file")
        self.i += 1
        return self.t[self.i - 1]

    def expect(self, tok):
        got = self.next()
        if got != tok:
            raise ProtoError("expected %r, got %r (token %d)" % (tok, got, self.i))

    def skip_options(self):
        if self.peek() == "[":
            depth = 0
            while True:
                tok = self.next()
                depth += tok == "["
                depth -= tok == "]"
                if depth == 0:
                    break

    def skip_statement(self):
        while self.next() != ";":
            pass

    def parse(self):
        while self.peek() is not None:
            tok = self.next()
            if tok == "syntax":
                self.expect("=")
                self.fd.syntax = self.next().strip('"')
                self.expect(";")
            elif tok == "package":
                self.fd.package = self.next()
                self.expect(";")
            elif tok == "option":
                self.skip_statement()
            elif tok == "message":
                self.message(self.fd.message_type.add(), self.scope())
            elif tok == "enum":
                self.enum(self.fd.enum_type.add(), self.scope())
            elif tok == "service":
                self.service()
            elif tok == ";":
                pass
            else:
                raise ProtoError("unsupported top-level statement %r" % tok)
        if self.fd.syntax != "proto3":
            raise ProtoError("syntax %r: only proto3 is read" % self.fd.syntax)
        for f, scope in self.fields:
            f.type_name = self.resolve(f.type_name, scope)
            f.type = FDP.TYPE_ENUM if self.kinds[f.type_name] == "enum" else FDP.TYPE_MESSAGE
        for meth in self.methods:
            meth.input_type = self.resolve(meth.input_type, self.scope())
            meth.output_type = self.resolve(meth.output_type, self.scope())
            if self.kinds[meth.input_type] != "message" or self.kinds[meth.output_type] != "message":
                raise ProtoError("method %s: its types must be messages" % meth.name)
        return self.fd

    def scope(self):
        return "." + self.fd.package if self.fd.package else ""

    def enum(self, e, scope):
        e.name = self.next()
        self.kinds[scope + "." + e.name] = "enum"
        self.expect("{")
        while self.peek() != "}":
            tok = self.next()
            if tok == "option" or tok == "reserved":
                self.skip_statement()
                continue
            if tok == ";":
                continue
            self.expect("=")
            e.value.add(name=tok, number=int(self.next()))
            self.skip_options()
            self.expect(";")
        self.expect("}")

    def message(self, m, scope):
        m.name = self.next()
        full = scope + "." + m.name
        self.kinds[full] = "message"
        self.expect("{")
        while self.peek() != "}":
            tok = self.next()
            if tok == "message":
                self.message(m.nested_type.add(), full)
            elif tok == "enum":
                self.enum(m.enum_type.add(), full)
            elif tok in ("option", "reserved"):
                self.skip_statement()
            elif tok == ";":
                pass
            elif tok in ("oneof", "map", "extensions", "extend", "group"):
                raise ProtoError("message %s: %r is not supported by this parser" % (m.name, tok))
            else:
                label = FDP.LABEL_OPTIONAL
                if tok == "repeated":
                    label = FDP.LABEL_REPEATED
                    tok = self.next()
                elif tok == "optional":
                    raise ProtoError("message %s: proto3 'optional' is not supported by this parser" % m.name)
                f = m.field.add(name=self.next(), label=label)
                self.expect("=")
                f.number = int(self.next())
                f.json_name = re.sub(r"_([a-z])", lambda x: x.group(1).upper(), f.name)
                if tok in SCALARS:
                    f.type = SCALARS[tok]
                else:
                    f.type_name = tok
                    self.fields.append((f, full))
                self.skip_options()
                self.expect(";")
        self.expect("}")

    def service(self):
        s = self.fd.service.add(name=self.next())
        self.expect("{")
        while self.peek() != "}":
            tok = self.next()
            if tok == "option":
                self.skip_statement()
                continue
            if tok == ";":
                continue
            if tok != "rpc":
                raise ProtoError("service %s: unexpected %r" % (s.name, tok))
            meth = s.method.add(name=self.next())
            self.expect("(")
            arg = self.next()
            if arg == "stream":
                raise ProtoError("%s.%s: streaming methods are not supported" % (s.name, meth.name))
            meth.input_type = arg
            self.methods.append(meth)
            self.expect(")")
            self.expect("returns")
            self.expect("(")
            res = self.next()
            if res == "stream":
                raise ProtoError("%s.%s: streaming methods are not supported" % (s.name, meth.name))
            meth.output_type = res
            self.expect(")")
            if self.peek() == "{":
                while self.next() != "}":
                    pass
            else:
                self.expect(";")
        self.expect("}")

    def resolve(self, name, scope):
        """A type name as protoc resolves it: absolute with a leading dot, else looked up from
        the innermost enclosing scope outwards (called once the whole file is read)."""
        if name.startswith("."):
            cands = [name]
        else:
            parts = scope.split(".")
            cands = [".".join(parts[:k]) + "." + name for k in range(len(parts), 0, -1)] + ["." + name]
        for cand in cands:
            if cand in self.kinds:
                return cand
        raise ProtoError("type %r (in %s) is not defined in this file" % (name, scope or "the file"))


def load_proto(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    fdp = Parser(text, os.path.basename(path)).parse()
    pool = descriptor_pool.DescriptorPool()
    pool.Add(fdp)
    fd = pool.FindFileByName(fdp.name)
    if hasattr(message_factory, "GetMessageClass"):
        make = message_factory.GetMessageClass
    else:
        factory = message_factory.MessageFactory(pool)
        make = factory.GetPrototype
    return fd, make


# ------------------------------------------------------------------------- the client
class Engine:
    def __init__(self, addr, proto=DEFAULT_PROTO, tls=None):
        self.fd, make = load_proto(proto)
        if len(self.fd.services_by_name) != 1:
            raise ProtoError("%s: one service expected" % proto)
        (self.svc,) = self.fd.services_by_name.values()
        self.make = make
        # a connection of its own (grpcio shares one between channels to the same address by
        # default): in the soak, a connection the malformed-bytes thread lost ("recvmsg: Invalid
        # argument", UNAVAILABLE) failed the storm thread's calls on it too
        opts = [("grpc.max_receive_message_length", 64 << 20), ("grpc.max_send_message_length", 64 << 20),
                ("grpc.enable_retries", 0), ("grpc.use_local_subchannel_pool", 1)]
        self.addr = addr
        if tls:  # (CA file, certificate file or None, key file or None): grpcio's own TLS
            ca, cert, key = (open(f, "rb").read() if f else None for f in tls)
            creds = grpc.ssl_channel_credentials(root_certificates=ca, private_key=key, certificate_chain=cert)
            self.channel = grpc.secure_channel(addr, creds, options=opts)
        else:
            self.channel = grpc.insecure_channel(addr, options=opts)
        self.methods = {}
        for m in self.svc.methods:
            path = "/%s/%s" % (self.svc.full_name, m.name)
            req, resp = make(m.input_type), make(m.output_type)
            self.methods[m.name] = (self.channel.unary_unary(
                path, request_serializer=req.SerializeToString, response_deserializer=resp.FromString), req, resp)

    def cls(self, name):
        return self.make(self.fd.message_types_by_name[name])

    def enum(self, message, field, value):
        """The number of an enum value, looked up through a field of a message."""
        return self.cls(message).DESCRIPTOR.fields_by_name[field].enum_type.values_by_name[value].number

    def enum_name(self, message, field, number):
        e = self.cls(message).DESCRIPTOR.fields_by_name[field].enum_type
        v = e.values_by_number.get(number)
        return v.name if v else str(number)

    def call(self, method, timeout=None, **fields):
        stub, req, _ = self.methods[method]
        return stub(req(**fields), timeout=timeout)

    def submit_request(self, **fields):
        return self.cls("SubmitProofRequest")(**fields)

    def raw(self, path, data, timeout=10):
        """A call with raw request bytes (identity serializers)."""
        return self.channel.unary_unary(path)(data, timeout=timeout)

    def close(self):
        self.channel.close()


def test_request(eng, rid, circuit, parts=1, seed=1, priority=0):
    return eng.submit_request(request_id=rid, proof_kind=TEST_KIND, vanilla_proof=circuit.encode(),
                              sector_number=seed, partition_index=parts - 1, priority=priority)


def code_of(e):
    return e.code().name if isinstance(e, grpc.RpcError) else type(e).__name__


def details_of(e):
    return e.details() if isinstance(e, grpc.RpcError) else str(e)


# ------------------------------------------------------------------------- checks
class Checks:
    def __init__(self, name):
        self.name = name
        self.fails = 0
        self.n = 0

    def ok(self, cond, desc, why=""):
        self.n += 1
        if cond:
            print("ok: %s" % desc, flush=True)
        else:
            self.fails += 1
            print("FAIL: %s%s" % (desc, (": " + why) if why else ""), flush=True)
        return cond

    def rpc_error(self, desc, fn, code, pattern=None):
        """fn() must raise an RpcError with this code (and details matching pattern)."""
        try:
            r = fn()
        except grpc.RpcError as e:
            good = e.code().name == code and (pattern is None or re.search(pattern, e.details() or ""))
            return self.ok(good, desc, "got %s %r, expected %s%s" % (
                e.code().name, e.details(), code, " /%s/" % pattern if pattern else ""))
        return self.ok(False, desc, "the call succeeded (%s), expected %s" % (short(r), code))

    def done(self):
        print("%s: %d checks, %d failed" % (self.name, self.n, self.fails), flush=True)
        return 0 if self.fails == 0 else 1


def short(msg):
    try:
        d = json_format.MessageToDict(msg, preserving_proto_field_name=True)
    except Exception:  # raw bytes
        return repr(msg)[:200]
    if "proof" in d:
        d["proof"] = "<%d bytes>" % len(msg.proof)
    if "result" in d and "proof" in d["result"]:
        d["result"]["proof"] = "<%d bytes>" % len(msg.result.proof)
    return json.dumps(d)[:400]


def counters(eng):
    st = eng.call("GetStatus", timeout=10)
    text = eng.call("GetMetrics", timeout=10).prometheus_text
    m = re.search(r'^cuzk_jobs_submitted_total\{kind="circuit"\} (\d+)$', text, re.M)
    return st.total_proofs_completed, int(m.group(1)) if m else -1


def test_queue(st):
    for q in st.queues:
        if q.proof_kind == "test-circuit":
            return q
    return None


def wait_running(eng, timeout):
    """Until the test kind's queue shows a job in progress; False when timeout passes first."""
    end = time.time() + timeout
    while time.time() < end:
        q = test_queue(eng.call("GetStatus", timeout=10))
        if q is not None and q.in_progress > 0:
            return True
        time.sleep(0.02)
    return False


def cmd_checks(eng, a):
    c = Checks("client_py checks (%s)" % eng.addr)
    tag = a.tag
    St = lambda v: eng.enum("AwaitProofResponse", "status", v)  # noqa: E731
    COMPLETED, FAILED, CANCELLED, TIMEOUT = St("COMPLETED"), St("FAILED"), St("CANCELLED"), St("TIMEOUT")
    status_name = lambda n: eng.enum_name("AwaitProofResponse", "status", n)  # noqa: E731
    fast, slow, sp = a.fast, a.slow, a.slow_parts

    # GetStatus, GetMetrics
    st = eng.call("GetStatus", timeout=10)
    c.ok(test_queue(st) is not None, "GetStatus lists the test kind's queue", short(st))
    c.ok(any(q.proof_kind == "porep-c2" for q in st.queues), "GetStatus lists the porep-c2 queue", short(st))
    text = eng.call("GetMetrics", timeout=10).prometheus_text
    c.ok("# TYPE cuzk_jobs_submitted_total counter" in text and "cuzk_daemon_calls" in text,
         "GetMetrics is Prometheus text", text[:200])

    # Prove: one proof per partition, the job id is the request id
    rid = tag + "-prove"
    r = eng.call("Prove", timeout=120, submit=test_request(eng, rid, fast, parts=3, seed=11)).result
    c.ok(r.status == COMPLETED and len(r.proof) == 3 * 192 and r.job_id == rid,
         "Prove of %s x3: COMPLETED, 576 bytes, job id = request id" % fast, short(r))
    c.ok(r.total_ms >= r.gpu_compute_ms, "Prove reports its times", short(r))

    # SubmitProof + AwaitProof
    rid = tag + "-submit"
    s = eng.call("SubmitProof", timeout=10, request_id=rid, proof_kind=TEST_KIND, vanilla_proof=fast.encode(),
                 sector_number=5, partition_index=1)
    c.ok(s.job_id == rid, "SubmitProof returns the request id as job id", short(s))
    w = eng.call("AwaitProof", timeout=120, job_id=rid)
    c.ok(w.status == COMPLETED and len(w.proof) == 2 * 192, "AwaitProof: COMPLETED, 384 bytes", short(w))

    # the same request id twice: one job
    done0, sub0 = counters(eng)
    rid = tag + "-twice"
    req = dict(request_id=rid, proof_kind=TEST_KIND, vanilla_proof=fast.encode(), sector_number=7, partition_index=0)
    s1 = eng.call("SubmitProof", timeout=10, **req)
    s2 = eng.call("SubmitProof", timeout=10, **req)
    c.ok(s1.job_id == s2.job_id == rid, "SubmitProof twice: the same job", "%s / %s" % (short(s1), short(s2)))
    w = eng.call("AwaitProof", timeout=120, job_id=rid)
    p = eng.call("Prove", timeout=120, submit=eng.submit_request(**req)).result
    done1, sub1 = counters(eng)
    c.ok(w.status == COMPLETED and p.status == COMPLETED and w.proof == p.proof,
         "the same request id through Prove joins the ended job (same proof bytes)", short(p))
    c.ok(done1 - done0 == 1, "one job ran for the three calls (total_proofs_completed +1)",
         "before %d, after %d" % (done0, done1))
    c.ok(sub1 - sub0 == 1, "metrics: cuzk_jobs_submitted_total{kind=circuit} +1", "before %d, after %d" % (sub0, sub1))

    # PreloadSRS, EvictSRS (the circuit is known to the engine once a job used it)
    e1 = eng.call("EvictSRS", timeout=60, circuit_id=fast)
    c.ok(e1.was_loaded, "EvictSRS of a used circuit: was_loaded", short(e1))
    p1 = eng.call("PreloadSRS", timeout=120, circuit_id=fast)
    c.ok(not p1.already_loaded, "PreloadSRS after the evict: loaded anew", short(p1))
    p2 = eng.call("PreloadSRS", timeout=120, circuit_id=fast)
    c.ok(p2.already_loaded, "PreloadSRS again: already_loaded", short(p2))
    e2 = eng.call("EvictSRS", timeout=60, circuit_id="never-used-circuit")
    c.ok(not e2.was_loaded and e2.freed_bytes == 0, "EvictSRS of an unknown circuit: nothing", short(e2))
    c.rpc_error("PreloadSRS of an unknown circuit", lambda: eng.call("PreloadSRS", timeout=60, circuit_id="nope:1"),
                "INVALID_ARGUMENT")
    c.rpc_error("PreloadSRS without a circuit id", lambda: eng.call("PreloadSRS", timeout=60), "INVALID_ARGUMENT",
                "circuit_id")

    # AwaitProof shorter than the job: TIMEOUT, the job goes on
    rid = tag + "-await-timeout"
    eng.call("SubmitProof", timeout=10, request_id=rid, proof_kind=TEST_KIND, vanilla_proof=slow.encode(),
             sector_number=21, partition_index=sp - 1)
    t0 = time.time()
    w = eng.call("AwaitProof", timeout=30, job_id=rid, timeout_ms=300)
    dt = time.time() - t0
    c.ok(w.status == TIMEOUT and len(w.proof) == 0, "AwaitProof timeout_ms=300 on a long job: TIMEOUT", short(w))
    c.ok(0.25 <= dt < 5, "the TIMEOUT came after about 300 ms", "%.3f s" % dt)
    w = eng.call("AwaitProof", timeout=300, job_id=rid)
    c.ok(w.status == COMPLETED and len(w.proof) == sp * 192, "the job completes after the TIMEOUT", short(w))
    print("   (the long job, %s x%d: %d ms in all, %d ms queued)" % (slow, sp, w.total_ms, w.queue_wait_ms), flush=True)

    # a client deadline shorter than the job: DEADLINE_EXCEEDED, the job goes on
    rid = tag + "-deadline"
    t0 = time.time()
    c.rpc_error("Prove with a 1 s deadline on a long job",
                lambda: eng.call("Prove", timeout=1.0, submit=test_request(eng, rid, slow, parts=sp, seed=31)),
                "DEADLINE_EXCEEDED")
    dt = time.time() - t0
    c.ok(dt < 5, "the deadline ended the call in time", "%.3f s" % dt)
    w = eng.call("AwaitProof", timeout=300, job_id=rid)
    c.ok(w.status == COMPLETED and len(w.proof) == sp * 192, "the job of the timed-out Prove completes", short(w))

    # CancelProof of a running job
    rid = tag + "-cancel"
    eng.call("SubmitProof", timeout=10, request_id=rid, proof_kind=TEST_KIND, vanilla_proof=slow.encode(),
             sector_number=41, partition_index=sp - 1)
    running = wait_running(eng, 60)
    c.ok(running, "the job to cancel is running")
    x = eng.call("CancelProof", timeout=10, job_id=rid)
    c.ok(x.was_running, "CancelProof of a running job: was_running", short(x))
    w = eng.call("AwaitProof", timeout=120, job_id=rid)
    c.ok(w.status == CANCELLED and w.error_message != "", "the cancelled job ends CANCELLED with a reason", short(w))
    c.rpc_error("CancelProof of an unknown job", lambda: eng.call("CancelProof", timeout=10, job_id=tag + "-nope"),
                "NOT_FOUND")
    c.rpc_error("AwaitProof of an unknown job", lambda: eng.call("AwaitProof", timeout=10, job_id=tag + "-nope"),
                "NOT_FOUND")
    c.rpc_error("CancelProof without a job id", lambda: eng.call("CancelProof", timeout=10), "INVALID_ARGUMENT",
                "job_id")

    # methods the service does not have; request bytes that are no message
    pkg_svc = eng.svc.full_name
    c.rpc_error("unknown method /%s/Nope" % pkg_svc, lambda: eng.raw("/%s/Nope" % pkg_svc, b""), "UNIMPLEMENTED")
    c.rpc_error("unknown service /other.Service/X", lambda: eng.raw("/other.Service/X", b""), "UNIMPLEMENTED")
    garbage = b"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff"
    for m in ("SubmitProof", "Prove", "AwaitProof", "GetStatus"):
        c.rpc_error("garbage bytes as the %s request" % m, lambda m=m: eng.raw("/%s/%s" % (pkg_svc, m), garbage),
                    "INVALID_ARGUMENT", "not a valid")

    # a PoRep whose C1 is garbage: an answer with FAILED, not an RPC error
    porep = eng.enum("SubmitProofRequest", "proof_kind", "POREP_SEAL_COMMIT")
    r = eng.call("Prove", timeout=60, submit=eng.submit_request(
        request_id=tag + "-bad-c1", proof_kind=porep, vanilla_proof=b"{\"this is\": not a C1 output"))
    c.ok(r.result.status == FAILED and r.result.error_message != "",
         "PoRep with garbage C1 bytes: FAILED with an error message", short(r))
    print("   (%s: %s)" % (status_name(r.result.status), r.result.error_message[:160]), flush=True)

    # proof kinds the daemon does not take; a priority out of range
    for kind in (0, 7):
        c.rpc_error("proof_kind %d" % kind, lambda kind=kind: eng.call(
            "SubmitProof", timeout=10, request_id="%s-kind%d" % (tag, kind), proof_kind=kind,
            vanilla_proof=b"x"), "INVALID_ARGUMENT", "proof_kind")
    c.rpc_error("priority 9", lambda: eng.call(
        "SubmitProof", timeout=10, request_id=tag + "-prio9", proof_kind=TEST_KIND, vanilla_proof=fast.encode(),
        priority=9), "INVALID_ARGUMENT", "priority")
    c.rpc_error("Prove without its submit", lambda: eng.call("Prove", timeout=10), "INVALID_ARGUMENT", "submit")
    c.rpc_error("unknown test circuit", lambda: eng.call("Prove", timeout=10, submit=test_request(
        eng, tag + "-nocircuit", "nope:1")), "INVALID_ARGUMENT", "vanilla_proof")

    # still serving after all that
    st = eng.call("GetStatus", timeout=10)
    c.ok(st.uptime_seconds >= 0 and test_queue(st) is not None, "GetStatus still answers", short(st))
    return c.done()


def cmd_limits(eng, a):
    """A daemon with daemon.max_message_bytes = 1 MiB and without the test kind."""
    c = Checks("client_py limits (%s)" % eng.addr)
    porep = eng.enum("SubmitProofRequest", "proof_kind", "POREP_SEAL_COMMIT")
    big = b"{" + b" " * (2 << 20)
    c.rpc_error("a 2 MiB request to a daemon taking 1 MiB", lambda: eng.call(
        "Prove", timeout=30, submit=eng.submit_request(request_id=a.tag + "-big", proof_kind=porep,
                                                       vanilla_proof=big)), "RESOURCE_EXHAUSTED")
    c.rpc_error("test kind 100 without --test-kinds", lambda: eng.call(
        "SubmitProof", timeout=10, request_id=a.tag + "-k100", proof_kind=TEST_KIND, vanilla_proof=b"random:1024"),
        "INVALID_ARGUMENT", "proof_kind.*test kind is off")
    st = eng.call("GetStatus", timeout=10)
    c.ok(test_queue(st) is None, "GetStatus lists no test queue without --test-kinds", short(st))
    small = eng.call("Prove", timeout=60, submit=eng.submit_request(
        request_id=a.tag + "-small", proof_kind=porep, vanilla_proof=b"{" + b" " * 1000))
    c.ok(small.result.status == eng.enum("AwaitProofResponse", "status", "FAILED"),
         "a small request is still served after the big one", short(small))
    return c.done()


# ------------------------------------------------------------------------- single calls
def single_prove(eng, a, submit):
    St = lambda v: eng.enum("AwaitProofResponse", "status", v)  # noqa: E731
    t0 = time.time()
    try:
        r = eng.call("Prove", timeout=a.timeout, submit=submit).result
    except grpc.RpcError as e:
        print(json.dumps({"code": e.code().name, "details": e.details(), "seconds": round(time.time() - t0, 3)}),
              flush=True)
        return 1
    out = {"job_id": r.job_id, "status": eng.enum_name("AwaitProofResponse", "status", r.status),
           "proof_len": len(r.proof), "error_message": r.error_message, "seconds": round(time.time() - t0, 3)}
    if a.out and r.status == St("COMPLETED"):
        with open(a.out + ".tmp", "wb") as f:
            f.write(r.proof)
        os.replace(a.out + ".tmp", a.out)
    print(json.dumps(out), flush=True)
    return 0 if r.status == St("COMPLETED") else 1


def cmd_prove(eng, a):
    return single_prove(eng, a, test_request(eng, a.id, a.circuit, a.parts, a.seed, a.priority))


def cmd_prove_porep(eng, a):
    with open(a.c1, "rb") as f:
        c1 = f.read()
    porep = eng.enum("SubmitProofRequest", "proof_kind", "POREP_SEAL_COMMIT")
    return single_prove(eng, a, eng.submit_request(request_id=a.id, proof_kind=porep, vanilla_proof=c1,
                                                   sector_number=a.sector))


VANILLA_KINDS = {"snap": "SNAP_DEALS_UPDATE", "window-post": "WINDOW_POST_PARTITION", "winning-post": "WINNING_POST"}


def cmd_prove_vanilla(eng, a):
    """A PoSt or SnapDeals proof as Curio asks for it: the bincode vanilla proofs as
    vanilla_proofs, the public values in their fields."""
    blobs = []
    for path in a.blob:
        with open(path, "rb") as f:
            blobs.append(f.read())
    kind = eng.enum("SubmitProofRequest", "proof_kind", VANILLA_KINDS[a.kind])
    fields = dict(request_id=a.id, proof_kind=kind, registered_proof=a.registered_proof, vanilla_proofs=blobs,
                  sector_size=a.sector_size)
    if a.randomness:
        fields["randomness"] = bytes.fromhex(a.randomness)
    if a.partition:
        fields["partition_index"] = a.partition
    for name in ("comm_r_old", "comm_r_new", "comm_d_new"):
        v = getattr(a, name)
        if v:
            fields[name] = bytes.fromhex(v)
    return single_prove(eng, a, eng.submit_request(**fields))


def cmd_status(eng, a):
    """GetStatus as JSON; --job ID: that job's progress alone (cuzk's own job_id field), and for
    a call that fails its gRPC code on stderr, exit 1."""
    try:
        st = eng.call("GetStatus", timeout=a.timeout or 10, **({"job_id": a.job} if a.job else {}))
    except grpc.RpcError as e:
        print("client_py: GetStatus: %s: %s" % (code_of(e), details_of(e)), file=sys.stderr)
        return 1
    print(json_format.MessageToJson(st, preserving_proto_field_name=True, including_default_value_fields=True))
    return 0


def cmd_metrics(eng, a):
    print(eng.call("GetMetrics", timeout=a.timeout or 10).prometheus_text, end="")
    return 0


def cmd_wait_running(eng, a):
    if wait_running(eng, a.timeout or 60):
        return 0
    print("client_py: no job in progress after %s s" % (a.timeout or 60), file=sys.stderr)
    return 1


# ------------------------------------------------------------------------- load
def cmd_load(eng, a):
    """Every call of the spec at once, one thread each (the spec is a JSON list of
    {"id", "circuit", "parts", "seed", "priority"}); while they run, --critical CRITICAL calls
    one after another, timed. Writes each call's outcome and the proofs to --out."""
    with open(a.spec) as f:
        spec = json.load(f)
    results = [None] * len(spec)
    start = threading.Barrier(len(spec) + 1)

    def one(i, s):
        try:
            start.wait(timeout=60)
        except threading.BrokenBarrierError:
            pass
        t0 = time.time()
        try:
            r = eng.call("Prove", timeout=a.timeout, submit=test_request(
                eng, s["id"], s["circuit"], s["parts"], s["seed"], s["priority"])).result
            results[i] = {"id": s["id"], "job_id": r.job_id, "status": eng.enum_name(
                "AwaitProofResponse", "status", r.status), "proof": r.proof.hex(), "error": r.error_message,
                "seconds": time.time() - t0}
        except grpc.RpcError as e:
            results[i] = {"id": s["id"], "code": e.code().name, "details": e.details(), "seconds": time.time() - t0}
        except Exception as e:  # noqa: BLE001
            results[i] = {"id": s["id"], "code": type(e).__name__, "details": str(e), "seconds": time.time() - t0}

    threads = [threading.Thread(target=one, args=(i, s), daemon=True) for i, s in enumerate(spec)]
    for t in threads:
        t.start()
    t_start = time.time()
    start.wait(timeout=60)
    critical = []
    time.sleep(a.critical_delay)
    for k in range(a.critical):
        rid = "%s-critical-%d" % (a.tag, k)
        pending = sum(r is None for r in results)
        t0 = time.time()
        try:
            r = eng.call("Prove", timeout=a.timeout, submit=test_request(
                eng, rid, a.critical_circuit, 1, 900000 + k, eng.enum("SubmitProofRequest", "priority",
                                                                      "CRITICAL"))).result
            critical.append({"id": rid, "status": eng.enum_name("AwaitProofResponse", "status", r.status),
                             "proof_len": len(r.proof), "seconds": time.time() - t0, "queue_wait_ms": r.queue_wait_ms,
                             "total_ms": r.total_ms, "seed": 900000 + k, "proof": r.proof.hex(),
                             "load_in_flight": pending})
        except grpc.RpcError as e:
            critical.append({"id": rid, "code": e.code().name, "details": e.details(), "seconds": time.time() - t0,
                             "load_in_flight": pending})
        time.sleep(a.critical_gap)
    for t in threads:
        t.join(timeout=a.timeout + 30)
    alive = sum(t.is_alive() for t in threads)
    wall = time.time() - t_start
    with open(a.out, "w") as f:
        json.dump({"results": results, "critical": critical, "wall_s": wall, "threads_left": alive}, f)
    ok = alive == 0 and all(r is not None and r.get("status") == "COMPLETED" for r in results)
    print("client_py load: %d calls in %.1f s, %d COMPLETED, %d threads left; CRITICAL calls: %s" % (
        len(spec), wall, sum(1 for r in results if r and r.get("status") == "COMPLETED"), alive,
        ", ".join("%.3f s (%d load calls in flight)" % (c["seconds"], c["load_in_flight"]) for c in critical)),
        flush=True)
    return 0 if ok else 1


def main():
    ap = argparse.ArgumentParser(description="cuzk.v1 client on Python grpcio (the proto read at run time)")
    ap.add_argument("--addr", required=True, help="unix:///PATH or HOST:PORT")
    ap.add_argument("--proto", default=DEFAULT_PROTO)
    ap.add_argument("--tag", default="py", help="prefix of the request ids this run makes")
    ap.add_argument("--timeout", type=float, default=600, help="the call's deadline in seconds")
    ap.add_argument("--tls-ca", help="speak TLS, trusting this PEM CA (default: plaintext)")
    ap.add_argument("--tls-cert", help="with --tls-ca: the client's PEM certificate (and --tls-key)")
    ap.add_argument("--tls-key", help="with --tls-cert: its PEM private key")
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("checks")
    p.add_argument("--fast", default="random:1024")
    p.add_argument("--slow", default="random:65536")
    p.add_argument("--slow-parts", type=int, default=4)
    sub.add_parser("limits")
    p = sub.add_parser("prove")
    p.add_argument("--id", required=True)
    p.add_argument("--circuit", required=True)
    p.add_argument("--parts", type=int, default=1)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--priority", type=int, default=0)
    p.add_argument("--out")
    p = sub.add_parser("prove-porep")
    p.add_argument("--id", required=True)
    p.add_argument("--c1", required=True)
    p.add_argument("--sector", type=int, default=0)
    p.add_argument("--out")
    p = sub.add_parser("prove-vanilla")
    p.add_argument("--id", required=True)
    p.add_argument("--kind", required=True, choices=sorted(VANILLA_KINDS))
    p.add_argument("--registered-proof", type=int, required=True)
    p.add_argument("--blob", action="append", required=True)
    p.add_argument("--randomness")
    p.add_argument("--partition", type=int, default=0)
    p.add_argument("--sector-size", type=int, default=0)
    p.add_argument("--comm-r-old")
    p.add_argument("--comm-r-new")
    p.add_argument("--comm-d-new")
    p.add_argument("--out")
    p = sub.add_parser("status")
    p.add_argument("--job", default="", help="one job's progress, by its request id")
    sub.add_parser("metrics")
    sub.add_parser("wait-running")
    p = sub.add_parser("load")
    p.add_argument("--spec", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--critical", type=int, default=3)
    p.add_argument("--critical-circuit", default="random:1024")
    p.add_argument("--critical-delay", type=float, default=2.0)
    p.add_argument("--critical-gap", type=float, default=1.0)
    a = ap.parse_args()
    try:
        eng = Engine(a.addr, a.proto, (a.tls_ca, a.tls_cert, a.tls_key) if a.tls_ca else None)
    except (OSError, ProtoError, TypeError, KeyError) as e:
        print("client_py: cannot read %s: %s" % (a.proto, e), file=sys.stderr)
        return 3
    fn = {"checks": cmd_checks, "limits": cmd_limits, "prove": cmd_prove, "prove-porep": cmd_prove_porep,
          "prove-vanilla": cmd_prove_vanilla,
          "status": cmd_status, "metrics": cmd_metrics, "wait-running": cmd_wait_running, "load": cmd_load}[a.cmd]
    try:
        return fn(eng, a)
    except grpc.RpcError as e:
        print("FAIL: client_py %s: unexpected RPC error %s: %s" % (a.cmd, e.code().name, e.details()), flush=True)
        return 1
    finally:
        eng.close()


if __name__ == "__main__":
    sys.exit(main())
