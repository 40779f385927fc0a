/* The nine RPCs of cuzk.v1.ProvingEngine (GetTrace cuzk's own): each decodes its request (protobuf-c), checks it
 * (a malformed one is INVALID_ARGUMENT naming the field), calls the engine and encodes the
 * answer. A proof that fails is an answer (status FAILED with the reason), not an RPC error. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "cuzk/filecoin.h"
#include "cuzk/filecoin_post.h"
#include "cuzk/filecoin_snap.h"
#include "cuzk/v1/proving.pb-c.h"
#include "job_trace.h"
#include "server_internal.h"
#include "wire_field.h"

static const char *const method_names[] = {"SubmitProof", "AwaitProof", "Prove",    "CancelProof", "GetStatus",
                                           "GetMetrics",  "PreloadSRS", "EvictSRS", "GetTrace"};
enum { M_SUBMIT, M_AWAIT, M_PROVE, M_CANCEL, M_STATUS, M_METRICS, M_PRELOAD, M_EVICT, M_TRACE, M_COUNT };

int rpc_method_index(const char *path, size_t len)
{
    static const char prefix[] = "/cuzk.v1.ProvingEngine/";
    size_t pl = sizeof prefix - 1;
    if (len <= pl || memcmp(path, prefix, pl)) return -1;
    for (int i = 0; i < M_COUNT; i++)
        if (strlen(method_names[i]) == len - pl && !memcmp(path + pl, method_names[i], len - pl)) return i;
    return -1;
}

rpc_call_class rpc_classify(int m, const uint8_t *in, size_t len)
{
    switch (m) {
    case M_AWAIT: return CALL_WAIT;
    case M_CANCEL:
    case M_STATUS:
    case M_METRICS:
    case M_TRACE: return CALL_CONTROL;
    case M_SUBMIT:
    case M_PROVE: break;
    default: return CALL_WORK;
    }
    /* SubmitProofRequest.priority (5) and proof_kind (2); in Prove, inside submit (1) */
    const unsigned prio_path[] = {1, 5}, kind_path[] = {1, 2};
    size_t at = m == M_PROVE ? 0 : 1, depth = m == M_PROVE ? 2 : 1;
    uint64_t prio64 = 0, kind64 = 0;
    cuzk_wire_varint(in, len, prio_path + at, depth, &prio64);
    cuzk_wire_varint(in, len, kind_path + at, depth, &kind64);
    uint32_t prio = (uint32_t)prio64, kind = (uint32_t)kind64; /* as protobuf reads an enum */
    if (prio == CUZK__V1__PRIORITY__PRIORITY_UNSPECIFIED)
        return kind == CUZK__V1__PROOF_KIND__WINNING_POST || kind == CUZK__V1__PROOF_KIND__WINDOW_POST_PARTITION
            ? CALL_URGENT
            : CALL_WORK;
    return prio >= CUZK__V1__PRIORITY__HIGH ? CALL_URGENT : CALL_WORK;
}

const char *rpc_call_class_name(rpc_call_class k)
{
    static const char *const names[CALL_CLASSES] = {"LOW/NORMAL SubmitProof, Prove, PreloadSRS and EvictSRS",
                                                    "HIGH/CRITICAL SubmitProof and Prove", "AwaitProof",
                                                    "CancelProof, GetStatus, GetMetrics and GetTrace"};
    return k < CALL_CLASSES ? names[k] : "?";
}

void rpc_fail(rpc_reply *r, int code, const char *fmt, ...)
{
    r->code = code;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->message, sizeof r->message, fmt, ap);
    va_end(ap);
}

/* Packs a message into r->out. */
static void reply_with(rpc_reply *r, const ProtobufCMessage *m)
{
    size_t n = protobuf_c_message_get_packed_size(m);
    r->out = malloc(n ? n : 1);
    if (!r->out) return rpc_fail(r, RPC_RESOURCE_EXHAUSTED, "out of memory for a %zu-byte response", n);
    r->out_len = protobuf_c_message_pack(m, r->out);
}

const char *rpc_kind_label(uint32_t kind)
{
    switch (kind) {
    case CUZK_KIND_POREP: return "porep-c2";
    case CUZK_KIND_SNAP: return "snap-update";
    case CUZK_KIND_WINDOW_POST: return "window-post";
    case CUZK_KIND_WINNING_POST: return "winning-post";
    case CUZK_KIND_CIRCUIT: return "test-circuit";
    default: return "";
    }
}

/* ---------------------------------------------------------------- submit */
static bool check_bytes(rpc_reply *r, const char *field, ProtobufCBinaryData b, size_t want, bool required)
{
    if (!b.len && !required) return true;
    if (b.len == want) return true;
    rpc_fail(r, RPC_INVALID_ARGUMENT, "%s: %zu bytes, %zu expected", field, b.len, want);
    return false;
}

/* The PoSt and SnapDeals kinds' blobs: each vanilla proof where the message holds it. */
static bool list_blobs(const Cuzk__V1__SubmitProofRequest *q, rpc_submit *sub)
{
    size_t n = q->n_vanilla_proofs ? q->n_vanilla_proofs : 1;
    sub->blobs = calloc(n, sizeof *sub->blobs);
    sub->lens = calloc(n, sizeof *sub->lens);
    if (!sub->blobs || !sub->lens) return false;
    for (size_t i = 0; i < q->n_vanilla_proofs; i++) {
        sub->blobs[i] = q->vanilla_proofs[i].data;
        sub->lens[i] = q->vanilla_proofs[i].len;
    }
    return true;
}

void rpc_submit_free(rpc_submit *sub)
{
    free(sub->blobs);
    free(sub->lens);
    memset(sub, 0, sizeof *sub);
}

bool rpc_decode_submit(const Cuzk__V1__SubmitProofRequest *q, const rpc_wire_bytes *raw_id, bool test_kinds,
                       rpc_submit *sub, rpc_reply *r)
{
    memset(sub, 0, sizeof *sub);
    char *job_id = sub->job_id, *circuit = sub->circuit;
    uint32_t kind = (uint32_t)q->proof_kind;
    if (kind == 0) {
        rpc_fail(r, RPC_INVALID_ARGUMENT,
                 "proof_kind: PROOF_KIND_UNSPECIFIED (set 1 PoRep, 2 SnapDeals, 3 WindowPoSt or 4 WinningPoSt)");
        return false;
    }
    bool test = kind == CUZK_SERVER_TEST_KIND && test_kinds;
    if (kind > 4 && !test) {
        rpc_fail(r, RPC_INVALID_ARGUMENT,
                 "proof_kind: %u is not a ProofKind (1 PoRep, 2 SnapDeals, 3 WindowPoSt, "
                 "4 WinningPoSt)%s",
                 kind, kind == CUZK_SERVER_TEST_KIND ? "; the test kind is off (daemon.test_kinds)" : "");
        return false;
    }
    if ((uint32_t)q->priority > 4) {
        rpc_fail(r, RPC_INVALID_ARGUMENT, "priority: %u is not a Priority (0 the kind's default, 1 LOW .. 4 CRITICAL)",
                 (unsigned)q->priority);
        return false;
    }
    /* the id as it came on the wire when known (a NUL inside shows there only) */
    const char *rid = raw_id ? (const char *)raw_id->bytes : q->request_id ? q->request_id : "";
    size_t rl = raw_id ? raw_id->len : strlen(rid);
    if (cuzk_check_client_id("request_id", rid, rl, CUZK_REQUEST_ID_MAX)) {
        rpc_fail(r, RPC_INVALID_ARGUMENT, "%s", cuzk_last_error());
        return false;
    }
    if (rl) snprintf(job_id, 256, "%.*s", (int)rl, rid);
    else {
        uint8_t rnd[16];
        if (getrandom(rnd, sizeof rnd, 0) != (ssize_t)sizeof rnd) {
            rpc_fail(r, RPC_INTERNAL, "no random bytes for a job id");
            return false;
        }
        int k = snprintf(job_id, 256, "job-");
        for (int i = 0; i < 16; i++) k += snprintf(job_id + k, 256 - (size_t)k, "%02x", rnd[i]);
    }

    cuzk_job_request req = {.kind = (cuzk_job_kind)kind, .priority = (cuzk_priority)q->priority, .request_id = job_id};
    if (kind == CUZK_KIND_POREP) {
        if (!q->vanilla_proof.len) {
            rpc_fail(r, RPC_INVALID_ARGUMENT, "vanilla_proof: empty (a PoRep C2 request carries the C1 output)");
            return false;
        }
        if (q->n_vanilla_proofs) {
            rpc_fail(r, RPC_INVALID_ARGUMENT, "vanilla_proofs: PoRep takes its C1 output in vanilla_proof, not here");
            return false;
        }
        /* The C1's registered proof governs, as in upstream's commit phase 2 (Curio's supraseal
         * path rewrites it): the engine notes a different one, and checks sector_size against
         * the C1's. 0 (StackedDrg2KiBV1, retired) reads as not given: proto3 cannot tell them
         * apart. */
        req.has_registered_proof = q->registered_proof != 0;
        req.registered_proof = q->registered_proof;
        req.sector_size = q->sector_size;
        req.input = q->vanilla_proof.data;
        req.input_len = q->vanilla_proof.len;
        req.sector_number = q->sector_number;
        req.miner_id = q->miner_id;
    } else if (kind == CUZK_SERVER_TEST_KIND) {
        if (!q->vanilla_proof.len || q->vanilla_proof.len >= sizeof sub->circuit) {
            rpc_fail(r, RPC_INVALID_ARGUMENT, "vanilla_proof: the test kind names a built-in circuit (1 to %zu bytes)",
                     sizeof sub->circuit - 1);
            return false;
        }
        memcpy(circuit, q->vanilla_proof.data, q->vanilla_proof.len);
        if (strlen(circuit) != q->vanilla_proof.len) {
            rpc_fail(r, RPC_INVALID_ARGUMENT, "vanilla_proof: a circuit name with a NUL byte");
            return false;
        }
        if (q->partition_index >= 1000) {
            rpc_fail(r, RPC_INVALID_ARGUMENT,
                     "partition_index: %u; the test kind makes partition_index + 1 <= 1000 proofs", q->partition_index);
            return false;
        }
        req.circuit = circuit;
        req.miner_id = q->miner_id; /* for the job log, as with the official kinds */
        req.partitions = q->partition_index + 1;
        req.seed = q->sector_number;
    } else {
        if (!q->n_vanilla_proofs) {
            rpc_fail(r, RPC_INVALID_ARGUMENT, "vanilla_proofs: empty (a %s request carries one blob per %s)",
                     rpc_kind_label(kind), kind == CUZK_KIND_SNAP ? "partition" : "sector");
            return false;
        }
        if (q->vanilla_proof.len) {
            rpc_fail(r, RPC_INVALID_ARGUMENT, "vanilla_proof: only PoRep uses it (this kind takes vanilla_proofs)");
            return false;
        }
        /* the wire's byte fields have their lengths; the proof rules are the engine's check */
        bool post = kind == CUZK_KIND_WINDOW_POST || kind == CUZK_KIND_WINNING_POST;
        if (post && !check_bytes(r, "randomness", q->randomness, 32, true)) return false;
        if (kind == CUZK_KIND_SNAP &&
            (!check_bytes(r, "comm_r_old", q->comm_r_old, 32, true) ||
             !check_bytes(r, "comm_r_new", q->comm_r_new, 32, true) ||
             !check_bytes(r, "comm_d_new", q->comm_d_new, 32, true)))
            return false;
        if (!list_blobs(q, sub)) {
            rpc_fail(r, RPC_RESOURCE_EXHAUSTED, "out of memory for the vanilla proofs");
            return false;
        }
        req.blobs = sub->blobs;
        req.blob_lens = sub->lens;
        req.nblobs = q->n_vanilla_proofs;
        /* whose sector: the job log names them (the engine checks them against PoRep's C1 only) */
        req.miner_id = q->miner_id;
        if (kind == CUZK_KIND_SNAP) req.sector_number = q->sector_number;
        req.has_registered_proof = true; /* 0 is a proof id of PoSt and SnapDeals */
        req.registered_proof = q->registered_proof;
        req.sector_size = q->sector_size;
        if (post) {
            req.randomness = q->randomness.data;
            req.partition_index = q->partition_index;
        } else {
            req.comm_r_old = q->comm_r_old.data;
            req.comm_r_new = q->comm_r_new.data;
            req.comm_d_new = q->comm_d_new.data;
        }
    }
    sub->req = req;
    return true;
}

/* Checks the request and submits it; job_id gets the request id (made when empty). */
static bool submit(const rpc_call *call, const Cuzk__V1__SubmitProofRequest *q, const rpc_wire_bytes *raw_id,
                   rpc_reply *r, char job_id[256], uint64_t *eid)
{
    cuzk_server *s = call->s;
    if (atomic_load(&s->stopping)) {
        rpc_fail(r, RPC_UNAVAILABLE, "the daemon is shutting down");
        return false;
    }
    rpc_submit sub;
    if (!rpc_decode_submit(q, raw_id, s->cfg.test_kinds, &sub, r)) {
        rpc_submit_free(&sub);
        return false;
    }
    snprintf(job_id, 256, "%s", sub.job_id);
    if (sub.req.kind == (cuzk_job_kind)CUZK_SERVER_TEST_KIND) {
        pthread_mutex_lock(&s->test_mu);
        cuzk_status st = s->hooks.test_circuit ? s->hooks.test_circuit(s->hooks.ctx, s->e, sub.circuit)
                                               : cuzk_fail(CUZK_EINVAL, "this daemon proves no test circuits");
        pthread_mutex_unlock(&s->test_mu);
        if (st) {
            /* an unknown name is the request's fault; missing parameters the daemon's */
            rpc_fail(r, rpc_code_of(st), "vanilla_proof: %s", cuzk_last_error());
            rpc_submit_free(&sub);
            return false;
        }
    }
    bool joined = false;
    cuzk_status st = cuzk_engine_submit(s->e, &sub.req, eid, &joined);
    rpc_submit_free(&sub);
    if (st) {
        /* the engine refuses malformed requests, a full queue, unknown circuits, its shutdown */
        rpc_fail(r, rpc_code_of(st), "%s", cuzk_last_error());
        return false;
    }
    return true;
}

/* ---------------------------------------------------------------- await */
static Cuzk__V1__AwaitProofResponse__Status rpc_status_of(cuzk_job_state st)
{
    switch (st) {
    case CUZK_JOB_COMPLETED: return CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED;
    case CUZK_JOB_FAILED: return CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__FAILED;
    case CUZK_JOB_CANCELLED: return CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__CANCELLED;
    case CUZK_JOB_TIMEOUT: return CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__TIMEOUT;
    default: return CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__UNKNOWN;
    }
}

static uint64_t ms(double s) { return s > 0 ? (uint64_t)(s * 1000 + 0.5) : 0; }

/* Waits for the job until it ends, timeout_s passes (< 0: no limit), the call's deadline passes
 * or its client is gone (the server sets call->gone and wakes the engine's waits: no polling);
 * res gets the state (TIMEOUT when the wait ended first) and *by_deadline whether the call's
 * deadline (not timeout_s) ended the wait. */
static cuzk_status wait_job(const rpc_call *call, uint64_t eid, double timeout_s, cuzk_job_result *res,
                            bool *by_deadline)
{
    double now = cuzk_now(), end = timeout_s >= 0 ? now + timeout_s : 0;
    bool deadline_first = call->deadline && (!end || call->deadline < end);
    if (deadline_first) end = call->deadline;
    *by_deadline = false;
    double wait_s = !end ? -1 : end > now ? end - now : 0;
    cuzk_status st = cuzk_engine_await_until(call->s->e, eid, wait_s, call->gone, res);
    if (!st && res->state == CUZK_JOB_TIMEOUT) *by_deadline = deadline_first && !cuzk_cancel_requested(call->gone);
    return st;
}

/* The AwaitProofResponse of a result (proof bytes borrowed from res). */
static void fill_await(Cuzk__V1__AwaitProofResponse *a, const char *job_id, const cuzk_job_result *res)
{
    a->job_id = (char *)job_id;
    a->status = rpc_status_of(res->state);
    if (res->state == CUZK_JOB_COMPLETED) {
        a->proof.data = res->proof;
        a->proof.len = res->proof_len;
    }
    /* a COMPLETED job's note: where the request differed from what was proved (Curio reads
     * error_message only when the status is not COMPLETED) */
    a->error_message = (char *)(res->state == CUZK_JOB_COMPLETED     ? res->note
                                    : res->state == CUZK_JOB_TIMEOUT ? "the wait ended before the job (it goes on)"
                                                                     : res->error);
    /* the parts of the job's wall clock, which add up to it (verifying is the rest) */
    a->queue_wait_ms = ms(res->wall_wait_s);
    a->srs_load_ms = ms(res->wall_load_s);
    a->synthesis_ms = ms(res->wall_witness_s);
    a->gpu_compute_ms = ms(res->wall_prove_s);
    a->total_ms = ms(res->queue_s + res->run_s);
}

static void await_reply(const rpc_call *call, const char *job_id, uint64_t eid, double timeout_s, rpc_reply *r,
                        bool nested)
{
    cuzk_job_result res;
    bool by_deadline;
    cuzk_status st = wait_job(call, eid, timeout_s, &res, &by_deadline);
    if (st) return rpc_fail(r, rpc_code_of(st), "job_id: %s", cuzk_last_error());
    if (by_deadline) {
        /* the call's deadline is the client's: it ends the call as gRPC ends it, not with TIMEOUT */
        cuzk_job_result_free(&res);
        return rpc_fail(r, RPC_DEADLINE_EXCEEDED,
                        "the call's deadline passed before job %s ended (the job goes on; AwaitProof it)", job_id);
    }
    rpc_client_text(&call->s->cfg, res.error, sizeof res.error);
    rpc_client_text(&call->s->cfg, res.note, sizeof res.note);
    Cuzk__V1__AwaitProofResponse a = CUZK__V1__AWAIT_PROOF_RESPONSE__INIT;
    fill_await(&a, job_id, &res);
    if (nested) {
        Cuzk__V1__ProveResponse p = CUZK__V1__PROVE_RESPONSE__INIT;
        p.result = &a;
        reply_with(r, &p.base);
    } else {
        reply_with(r, &a.base);
    }
    cuzk_job_result_free(&res);
}

/* A request's id as its wire bytes: the field at path (field numbers from the top) of the
 * message in[0 .. len), or the empty id when the field is absent. */
static rpc_wire_bytes wire_id(const uint8_t *in, size_t len, const unsigned *path, size_t depth)
{
    rpc_wire_bytes w = {(const uint8_t *)"", 0};
    if (!cuzk_wire_field(in, len, path, depth, &w.bytes, &w.len)) w = (rpc_wire_bytes){(const uint8_t *)"", 0};
    return w;
}

/* The job a request's job_id names; in, len: the request's bytes (job_id is its field 1 in
 * AwaitProofRequest and CancelProofRequest), where a NUL inside the id shows. */
static bool find_job(const rpc_call *call, const char *job_id, const uint8_t *in, size_t len, uint64_t *eid,
                     rpc_reply *r)
{
    static const unsigned job_id_path[] = {1};
    rpc_wire_bytes raw = wire_id(in, len, job_id_path, 1);
    if (!job_id || !job_id[0]) {
        rpc_fail(r, RPC_INVALID_ARGUMENT, "job_id: empty");
        return false;
    }
    if (cuzk_check_client_id("job_id", (const char *)raw.bytes, raw.len, CUZK_REQUEST_ID_MAX)) {
        rpc_fail(r, RPC_INVALID_ARGUMENT, "%s", cuzk_last_error());
        return false;
    }
    cuzk_status st = cuzk_engine_find(call->s->e, job_id, eid);
    if (st) {
        rpc_fail(r, rpc_code_of(st), "job_id: %s", cuzk_last_error());
        return false;
    }
    return true;
}

/* ---------------------------------------------------------------- handlers */
/* Decodes the request of a handler (in, len) into var, or fails the call naming the message. */
/* Fields a request may have, counted on the wire before decoding: protobuf-c allocates for each
 * one (an empty vanilla_proofs entry costs it 16 bytes of array and a 2-byte field on the wire,
 * an unknown field more), so 128 MB of empty entries took 3.2 GB to decode. The largest real
 * request, a WindowPoSt partition of 2349 sectors, has about 2360. */
#define REQUEST_FIELDS_MAX 8192

/* Refuses a request with more fields than REQUEST_FIELDS_MAX, at its top or inside a Prove's
 * submit (field 1), before protobuf-c sees it. */
static bool fields_bounded(const uint8_t *in, size_t len, bool nested, rpc_reply *r)
{
    size_t n = cuzk_wire_count(in, len, REQUEST_FIELDS_MAX);
    static const unsigned submit_path[] = {1};
    const uint8_t *sub;
    size_t sub_len;
    if (nested && n <= REQUEST_FIELDS_MAX && cuzk_wire_field(in, len, submit_path, 1, &sub, &sub_len))
        n = cuzk_wire_count(sub, sub_len, REQUEST_FIELDS_MAX);
    if (n <= REQUEST_FIELDS_MAX) return true;
    rpc_fail(r, RPC_INVALID_ARGUMENT,
             "the request has more than %d fields (vanilla_proofs: one blob per sector, at most %d fields in all)",
             REQUEST_FIELDS_MAX, REQUEST_FIELDS_MAX);
    return false;
}

#define UNPACK(type, desc, var)                                                             \
    if (!fields_bounded(in, len, &desc == &cuzk__v1__prove_request__descriptor, r)) return; \
    type *var = (type *)protobuf_c_message_unpack(&desc, NULL, len, in);                    \
    if (!var) return rpc_fail(r, RPC_INVALID_ARGUMENT, "the request is not a valid %s message", desc.name)

/* The jobs queued now (this one among them): a count, no status snapshot. */
static unsigned queue_position(cuzk_engine *e)
{
    unsigned queued, running;
    cuzk_engine_job_counts(e, &queued, &running);
    return queued;
}

static void do_submit(const rpc_call *call, const uint8_t *in, size_t len, rpc_reply *r)
{
    UNPACK(Cuzk__V1__SubmitProofRequest, cuzk__v1__submit_proof_request__descriptor, q);
    static const unsigned request_id_path[] = {1}; /* SubmitProofRequest.request_id */
    rpc_wire_bytes raw = wire_id(in, len, request_id_path, 1);
    char job_id[256];
    uint64_t eid;
    if (submit(call, q, &raw, r, job_id, &eid)) {
        Cuzk__V1__SubmitProofResponse a = CUZK__V1__SUBMIT_PROOF_RESPONSE__INIT;
        a.job_id = job_id;
        a.queue_position = queue_position(call->s->e);
        a.assigned_gpu = "";
        reply_with(r, &a.base);
    }
    protobuf_c_message_free_unpacked(&q->base, NULL);
}

static void do_await(const rpc_call *call, const uint8_t *in, size_t len, rpc_reply *r)
{
    UNPACK(Cuzk__V1__AwaitProofRequest, cuzk__v1__await_proof_request__descriptor, q);
    uint64_t eid;
    if (find_job(call, q->job_id, in, len, &eid, r))
        await_reply(call, q->job_id, eid, q->timeout_ms ? (double)q->timeout_ms / 1000 : -1, r, false);
    protobuf_c_message_free_unpacked(&q->base, NULL);
}

static void do_prove(const rpc_call *call, const uint8_t *in, size_t len, rpc_reply *r)
{
    UNPACK(Cuzk__V1__ProveRequest, cuzk__v1__prove_request__descriptor, q);
    static const unsigned request_id_path[] = {1, 1}; /* ProveRequest.submit.request_id */
    rpc_wire_bytes raw = wire_id(in, len, request_id_path, 2);
    char job_id[256];
    uint64_t eid;
    bool ok = false;
    if (!q->submit) rpc_fail(r, RPC_INVALID_ARGUMENT, "submit: missing (Prove carries a SubmitProofRequest)");
    else ok = submit(call, q->submit, &raw, r, job_id, &eid);
    /* the engine keeps what it needs of the input (a copy, or a PoRep's C1 parsed, never its
     * text): the decoded request and its bytes (in, len and raw point into them) go before the
     * wait, which lasts as long as the proof */
    protobuf_c_message_free_unpacked(&q->base, NULL);
    if (call->in) {
        grpc_slice_unref(*call->in);
        *call->in = grpc_empty_slice();
    }
    if (ok) await_reply(call, job_id, eid, -1, r, true);
}

static void do_cancel(const rpc_call *call, const uint8_t *in, size_t len, rpc_reply *r)
{
    UNPACK(Cuzk__V1__CancelProofRequest, cuzk__v1__cancel_proof_request__descriptor, q);
    uint64_t eid;
    bool was_running = false;
    if (find_job(call, q->job_id, in, len, &eid, r)) {
        cuzk_status st = cuzk_engine_cancel(call->s->e, eid, &was_running);
        if (st) rpc_fail(r, rpc_code_of(st), "job_id: %s", cuzk_last_error());
        else {
            Cuzk__V1__CancelProofResponse a = CUZK__V1__CANCEL_PROOF_RESPONSE__INIT;
            a.was_running = was_running;
            reply_with(r, &a.base);
        }
    }
    protobuf_c_message_free_unpacked(&q->base, NULL);
}

static void do_status(const rpc_call *call, const uint8_t *in, size_t len, rpc_reply *r)
{
    UNPACK(Cuzk__V1__GetStatusRequest, cuzk__v1__get_status_request__descriptor, q);
    protobuf_c_message_free_unpacked(&q->base, NULL);
    char job_id[CUZK_REQUEST_ID_MAX + 1];
    rpc_jobs jobs;
    if (!rpc_status_job_id(in, len, job_id, r)) return;
    if (!rpc_jobs_fill(call->s->e, &call->s->cfg, job_id, &jobs, r)) return rpc_jobs_free(&jobs);
    cuzk_engine_status *st = malloc(sizeof *st);
    Cuzk__V1__GPUStatus gpu[CUZK_ENGINE_MAX_DEVICES], *gpus[CUZK_ENGINE_MAX_DEVICES];
    Cuzk__V1__SRSStatus srs[CUZK_ENGINE_MAX_CIRCUITS], *srss[CUZK_ENGINE_MAX_CIRCUITS];
    Cuzk__V1__QueueStatus queue[CUZK_KINDS], *queues[CUZK_KINDS];
    if (!st) return rpc_jobs_free(&jobs), rpc_fail(r, RPC_RESOURCE_EXHAUSTED, "out of memory");
    cuzk_engine_get_status(call->s->e, st);
    Cuzk__V1__GetStatusResponse a = CUZK__V1__GET_STATUS_RESPONSE__INIT;
    a.n_jobs = jobs.n;
    a.jobs = jobs.ptrs;
    a.jobs_total = (uint32_t)jobs.total;
    for (unsigned i = 0; i < st->ndevices; i++) {
        const cuzk_engine_device_status *d = &st->devices[i];
        /* the CPU backend is no GPU; a GPU's extra contexts (engine.gpu_contexts) are the same GPU */
        if (d->ordinal < 0 || d->context) continue;
        Cuzk__V1__GPUStatus *g = &gpu[a.n_gpus];
        *g = (Cuzk__V1__GPUStatus)CUZK__V1__GPUSTATUS__INIT;
        g->ordinal = (uint32_t)d->ordinal;
        g->name = (char *)d->name;
        g->vram_total_bytes = d->mem_total;
        g->vram_free_bytes = d->mem_free;
        g->current_job_id = (char *)(d->running_job ? d->running_request : "");
        g->current_proof_kind = (char *)(d->running_job ? rpc_kind_label(d->running_kind) : "");
        gpus[a.n_gpus++] = g;
    }
    a.gpus = gpus;
    for (unsigned i = 0; i < st->ncircuits; i++) {
        const cuzk_engine_circuit_status *c = &st->circuits[i];
        bool hot = false;
        for (unsigned k = 0; k < CUZK_ENGINE_MAX_DEVICES; k++) hot |= c->device[k];
        Cuzk__V1__SRSStatus *x = &srs[i];
        *x = (Cuzk__V1__SRSStatus)CUZK__V1__SRSSTATUS__INIT;
        x->circuit_id = (char *)c->id;
        x->tier = hot                       ? CUZK__V1__SRSSTATUS__TIER__HOT
            : c->host_params || c->host_pce ? CUZK__V1__SRSSTATUS__TIER__WARM
                                            : CUZK__V1__SRSSTATUS__TIER__COLD;
        x->size_bytes = c->host_bytes + c->device_bytes;
        x->ref_count = c->refs;
        x->placement = (char *)c->placement;
        srss[a.n_loaded_srs++] = x;
    }
    a.loaded_srs = srss;
    static const uint32_t kinds[CUZK_KINDS] = {CUZK_KIND_POREP, CUZK_KIND_SNAP, CUZK_KIND_WINDOW_POST,
                                               CUZK_KIND_WINNING_POST, CUZK_KIND_CIRCUIT};
    for (int k = 0; k < CUZK_KINDS; k++) {
        int ix = cuzk_kind_index((cuzk_job_kind)kinds[k]);
        if (kinds[k] == CUZK_KIND_CIRCUIT && !call->s->cfg.test_kinds) continue;
        Cuzk__V1__QueueStatus *x = &queue[a.n_queues];
        *x = (Cuzk__V1__QueueStatus)CUZK__V1__QUEUE_STATUS__INIT;
        x->proof_kind = (char *)rpc_kind_label(kinds[k]);
        x->pending = st->queued[ix];
        x->in_progress = st->running[ix];
        queues[a.n_queues++] = x;
        a.total_proofs_completed += st->completed[ix];
        a.total_proofs_failed += st->failed[ix];
    }
    a.queues = queues;
    a.uptime_seconds = (uint64_t)(cuzk_now() - call->s->start_t);
    a.pinned_memory_bytes = st->pinned_bytes;
    /* page-locked buffers come out of the host budget: it is their limit */
    a.pinned_memory_limit_bytes = st->host_budget;
    reply_with(r, &a.base);
    free(st);
    rpc_jobs_free(&jobs);
}

static void do_metrics(const rpc_call *call, const uint8_t *in, size_t len, rpc_reply *r)
{
    UNPACK(Cuzk__V1__GetMetricsRequest, cuzk__v1__get_metrics_request__descriptor, q);
    protobuf_c_message_free_unpacked(&q->base, NULL);
    char *text = cuzk_engine_metrics(call->s->e);
    if (!text) return rpc_fail(r, RPC_RESOURCE_EXHAUSTED, "out of memory");
    size_t n = strlen(text);
    char *all = malloc(n + 256);
    if (all) {
        snprintf(all, n + 256,
                 "%s# HELP cuzk_daemon_calls Calls being handled now.\n# TYPE cuzk_daemon_calls gauge\n"
                 "cuzk_daemon_calls %u\n",
                 text, cuzk_server_calls(call->s));
        Cuzk__V1__GetMetricsResponse a = CUZK__V1__GET_METRICS_RESPONSE__INIT;
        a.prometheus_text = all;
        reply_with(r, &a.base);
    } else {
        rpc_fail(r, RPC_RESOURCE_EXHAUSTED, "out of memory");
    }
    free(all);
    free(text);
}

static void do_trace(const rpc_call *call, const uint8_t *in, size_t len, rpc_reply *r)
{
    UNPACK(Cuzk__V1__GetTraceRequest, cuzk__v1__get_trace_request__descriptor, q);
    uint64_t eid;
    char *json = NULL;
    if (find_job(call, q->job_id, in, len, &eid, r)) {
        cuzk_status st = server_trace_of(call->s->e, q->job_id, eid, &json);
        if (st) rpc_fail(r, rpc_code_of(st), "job_id: %s", cuzk_last_error());
        else {
            Cuzk__V1__GetTraceResponse a = CUZK__V1__GET_TRACE_RESPONSE__INIT;
            a.trace_json = json;
            reply_with(r, &a.base);
        }
    }
    free(json);
    protobuf_c_message_free_unpacked(&q->base, NULL);
}

/* A circuit id the engine knows, or a message naming why not. */
static bool check_circuit_id(const char *id, rpc_reply *r)
{
    if (!id || !id[0] || strlen(id) >= 64) {
        rpc_fail(r, RPC_INVALID_ARGUMENT, "circuit_id: 1 to 63 characters expected (e.g. porep-32g)");
        return false;
    }
    return true;
}

static bool resident(cuzk_engine *e, const char *id, bool *known)
{
    cuzk_engine_status *st = malloc(sizeof *st);
    bool res = false;
    *known = false;
    if (!st) return false;
    cuzk_engine_get_status(e, st);
    for (unsigned i = 0; i < st->ncircuits; i++) {
        if (strcmp(st->circuits[i].id, id)) continue;
        *known = true;
        for (unsigned k = 0; k < CUZK_ENGINE_MAX_DEVICES; k++) res |= st->circuits[i].device[k];
        res |= st->circuits[i].host_params && st->circuits[i].host_pce;
    }
    free(st);
    return res;
}

static void do_preload(const rpc_call *call, const uint8_t *in, size_t len, rpc_reply *r)
{
    UNPACK(Cuzk__V1__PreloadSrsRequest, cuzk__v1__preload_srs_request__descriptor, q);
    if (check_circuit_id(q->circuit_id, r)) {
        bool known;
        bool before = resident(call->s->e, q->circuit_id, &known);
        double secs = 0;
        cuzk_status st = cuzk_engine_preload(call->s->e, q->circuit_id, &secs);
        if (st) {
            rpc_fail(r, rpc_code_of(st), "%s", cuzk_last_error());
        } else {
            Cuzk__V1__PreloadSrsResponse a = CUZK__V1__PRELOAD_SRS_RESPONSE__INIT;
            a.already_loaded = before;
            a.load_time_ms = ms(secs);
            reply_with(r, &a.base);
        }
    }
    protobuf_c_message_free_unpacked(&q->base, NULL);
}

static void do_evict(const rpc_call *call, const uint8_t *in, size_t len, rpc_reply *r)
{
    UNPACK(Cuzk__V1__EvictSrsRequest, cuzk__v1__evict_srs_request__descriptor, q);
    if (check_circuit_id(q->circuit_id, r)) {
        bool known;
        bool before = resident(call->s->e, q->circuit_id, &known);
        uint64_t freed = 0;
        cuzk_status st;
        if (!known) {
            /* never loaded: nothing to evict */
            Cuzk__V1__EvictSrsResponse a = CUZK__V1__EVICT_SRS_RESPONSE__INIT;
            reply_with(r, &a.base);
        } else if ((st = cuzk_engine_evict(call->s->e, q->circuit_id, &freed))) {
            rpc_fail(r, rpc_code_of(st), "%s", cuzk_last_error());
        } else {
            Cuzk__V1__EvictSrsResponse a = CUZK__V1__EVICT_SRS_RESPONSE__INIT;
            a.was_loaded = before || freed > 0;
            a.freed_bytes = freed;
            reply_with(r, &a.base);
        }
    }
    protobuf_c_message_free_unpacked(&q->base, NULL);
}

void rpc_handle(const rpc_call *call, int m, const uint8_t *in, size_t len, rpc_reply *r)
{
    static void (*const handlers[M_COUNT])(const rpc_call *, const uint8_t *, size_t, rpc_reply *) = {
        do_submit, do_await, do_prove, do_cancel, do_status, do_metrics, do_preload, do_evict, do_trace};
    r->code = RPC_OK;
    if (m < 0 || m >= M_COUNT) return rpc_fail(r, RPC_UNIMPLEMENTED, "unknown method");
    handlers[m](call, in, len, r);
}
