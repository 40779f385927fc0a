/* The daemon's request decoding: SubmitProofRequest and ProveRequest bytes (protobuf) through
 * rpc_decode_submit, which turns them into an engine request, then the engine's
 * cuzk_engine_check_request; and a GetStatusRequest's job id (rpc_status_job_id). Input: one
 * byte (bit 0: the daemon takes test kinds; bit 1: a ProveRequest around the submit; bit 2: a
 * GetStatusRequest instead), then the message. A
 * refusal names the field and is no success; an accepted request is of a known kind, its
 * request id (read from the wire, as the daemon does) bounded clean UTF-8, its input exactly the request's (PoRep: the C1 bytes; PoSt and SnapDeals:
 * the blobs, packed, unpacking to the same blobs), its call class (read from the wire before
 * decoding) the one its decoded priority and kind give, and decoding the message packed again
 * gives the same request. The parsers the engine then runs on the input (C1, PoSt or SnapDeals
 * blobs) run here too. */
#include <string.h>

#include "cuzk/engine.h"
#include "cuzk/filecoin_c1.h"
#include "cuzk/filecoin_post.h"
#include "cuzk/filecoin_snap.h"
#include "cuzk/v1/proving.pb-c.h"
#include "server/server_internal.h"
#include "server/wire_field.h"
#include "support.h"

static void downstream(const cuzk_job_request *q)
{
    if ((unsigned)q->kind == CUZK_SERVER_TEST_KIND) return;
    if (q->kind == CUZK_KIND_POREP) {
        cuzk_c1 *c1;
        if (!cuzk_c1_parse_any(&c1, q->input, q->input_len, NULL, NULL)) cuzk_c1_free(c1);
        return;
    }
    for (size_t i = 0; i < q->nblobs && i < 4; i++) {
        if (q->kind == CUZK_KIND_SNAP) {
            cuzk_snap_proofs *sp;
            if (!cuzk_snap_parse_blob(&sp, (cuzk_update_proof)q->registered_proof, q->blobs[i], q->blob_lens[i],
                                      (unsigned)i))
                cuzk_snap_proofs_free(sp);
        } else if (q->kind == CUZK_KIND_WINDOW_POST || q->kind == CUZK_KIND_WINNING_POST) {
            cuzk_post_sector_proof *pp;
            if (!cuzk_post_sector_proof_parse(&pp, (cuzk_post_proof)q->registered_proof, i, q->blobs[i],
                                              q->blob_lens[i]))
                cuzk_post_sector_proof_free(pp);
        }
    }
}

static void check_accepted(const Cuzk__V1__SubmitProofRequest *m, const rpc_submit *s, bool test_kinds)
{
    const cuzk_job_request *q = &s->req;
    unsigned kind = (unsigned)q->kind;
    FUZZ_CHECK((kind >= 1 && kind <= 4) || (test_kinds && kind == CUZK_SERVER_TEST_KIND), "kind %u accepted", kind);
    FUZZ_CHECK(q->request_id == s->job_id && strlen(s->job_id) >= 1 && strlen(s->job_id) <= CUZK_REQUEST_ID_MAX,
               "request id");
    FUZZ_CHECK(!cuzk_check_client_id("request_id", s->job_id, strlen(s->job_id), CUZK_REQUEST_ID_MAX),
               "an accepted request id that is not clean UTF-8: %s", cuzk_last_error());
    FUZZ_CHECK((unsigned)q->priority <= 4, "priority %u", (unsigned)q->priority);
    if (kind == CUZK_KIND_POREP) {
        FUZZ_CHECK(q->input == m->vanilla_proof.data && q->input_len == m->vanilla_proof.len && q->input_len > 0,
                   "PoRep input is not the C1 bytes");
    } else if (kind == CUZK_SERVER_TEST_KIND) {
        FUZZ_CHECK(q->circuit == s->circuit && strlen(s->circuit) == m->vanilla_proof.len, "circuit name");
    } else {
        size_t n = q->nblobs;
        FUZZ_CHECK(n == m->n_vanilla_proofs && q->input == NULL && q->input_len == 0, "%zu blobs of %zu", n,
                   m->n_vanilla_proofs);
        for (size_t i = 0; i < n; i++)
            FUZZ_CHECK(q->blob_lens[i] == m->vanilla_proofs[i].len && q->blobs[i] == m->vanilla_proofs[i].data,
                       "blob %zu is not the message's vanilla_proofs[%zu]", i, i);
        FUZZ_CHECK(q->has_registered_proof && q->registered_proof == m->registered_proof, "registered proof");
        if (kind == CUZK_KIND_SNAP)
            FUZZ_CHECK(q->comm_r_old && q->comm_r_new && q->comm_d_new && m->comm_r_old.len == 32, "commitments");
        else FUZZ_CHECK(q->randomness && m->randomness.len == 32, "randomness");
    }
}

/* A GetStatusRequest: the job id read from the wire (field 100) is refused with
 * INVALID_ARGUMENT naming job_id, or accepted as the clean id protobuf-c decodes (empty: every
 * job), which packs and reads back the same. */
static int status_request(const uint8_t *data, size_t size)
{
    Cuzk__V1__GetStatusRequest *q = cuzk__v1__get_status_request__unpack(NULL, size, data);
    if (!q) return 0;
    char id[CUZK_REQUEST_ID_MAX + 1];
    rpc_reply r = {0};
    if (!rpc_status_job_id(data, size, id, &r)) {
        FUZZ_CHECK(r.code == RPC_INVALID_ARGUMENT && strstr(r.message, "job_id"), "refusal %d: %s", r.code, r.message);
    } else {
        FUZZ_CHECK(r.code == 0, "accepted with status %d", r.code);
        FUZZ_CHECK(!strcmp(id, q->job_id ? q->job_id : ""), "the wire's id '%s' is not the decoded '%s'", id,
                   q->job_id ? q->job_id : "");
        FUZZ_CHECK(!id[0] || !cuzk_check_client_id("job_id", id, strlen(id), CUZK_REQUEST_ID_MAX),
                   "an accepted job id that is not clean: %s", cuzk_last_error());
        size_t n = cuzk__v1__get_status_request__get_packed_size(q);
        uint8_t *again = malloc(n ? n : 1);
        cuzk__v1__get_status_request__pack(q, again);
        char id2[CUZK_REQUEST_ID_MAX + 1];
        rpc_reply r2 = {0};
        FUZZ_CHECK(rpc_status_job_id(again, n, id2, &r2) && !strcmp(id, id2), "the id changed through pack");
        free(again);
    }
    cuzk__v1__get_status_request__free_unpacked(q, NULL);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return -1;
    bool test_kinds = data[0] & 1, prove = data[0] & 2;
    if (data[0] & 4) return status_request(data + 1, size - 1);
    data++;
    size--;
    Cuzk__V1__ProveRequest *pr = NULL;
    Cuzk__V1__SubmitProofRequest *m;
    if (prove) {
        pr = cuzk__v1__prove_request__unpack(NULL, size, data);
        if (!pr) return 0;
        m = pr->submit;
        if (!m) {
            cuzk__v1__prove_request__free_unpacked(pr, NULL);
            return 0;
        }
    } else {
        m = cuzk__v1__submit_proof_request__unpack(NULL, size, data);
        if (!m) return 0;
    }
    /* the request id as the daemon reads it, from the wire (a NUL inside shows there only) */
    static const unsigned submit_path[] = {1}, prove_path[] = {1, 1};
    rpc_wire_bytes raw = {(const uint8_t *)"", 0};
    if (!cuzk_wire_field(data, size, prove ? prove_path : submit_path, prove ? 2 : 1, &raw.bytes, &raw.len))
        raw = (rpc_wire_bytes){(const uint8_t *)"", 0};
    rpc_submit s;
    rpc_reply r = {0};
    bool ok = rpc_decode_submit(m, &raw, test_kinds, &s, &r);
    if (!ok) {
        FUZZ_CHECK(r.code != 0 && r.message[0], "a refusal without a status or message");
    } else {
        FUZZ_CHECK(r.code == 0, "accepted with status %d", r.code);
        check_accepted(m, &s, test_kinds);
        /* the engine's check of the request's fields, as the daemon's submit makes it; its
         * parsers run on what passes */
        if ((unsigned)s.req.kind == CUZK_SERVER_TEST_KIND || !cuzk_engine_check_request(NULL, &s.req))
            downstream(&s.req);
        else FUZZ_CHECK(cuzk_last_error()[0] != 0, "a refused request without a message");
        /* the call's class, read from the wire before decoding, agrees with the decoded request */
        static const char submit_m[] = "/cuzk.v1.ProvingEngine/SubmitProof", prove_m[] = "/cuzk.v1.ProvingEngine/Prove";
        int method =
            prove ? rpc_method_index(prove_m, sizeof prove_m - 1) : rpc_method_index(submit_m, sizeof submit_m - 1);
        bool post = m->proof_kind == CUZK__V1__PROOF_KIND__WINDOW_POST_PARTITION ||
            m->proof_kind == CUZK__V1__PROOF_KIND__WINNING_POST;
        bool urgent = m->priority == 0 ? post : m->priority >= CUZK__V1__PRIORITY__HIGH;
        FUZZ_CHECK(rpc_classify(method, data, size) == (urgent ? CALL_URGENT : CALL_WORK),
                   "class from the wire differs from the decoded priority %d, kind %d", (int)m->priority,
                   (int)m->proof_kind);
        /* the message packed again decodes to the same request */
        size_t n = cuzk__v1__submit_proof_request__get_packed_size(m);
        uint8_t *again = malloc(n ? n : 1);
        cuzk__v1__submit_proof_request__pack(m, again);
        Cuzk__V1__SubmitProofRequest *m2 = cuzk__v1__submit_proof_request__unpack(NULL, n, again);
        FUZZ_CHECK(m2 != NULL, "a packed request does not unpack");
        rpc_submit s2;
        rpc_reply r2 = {0};
        FUZZ_CHECK(rpc_decode_submit(m2, NULL, test_kinds, &s2, &r2), "the same request refused: %s", r2.message);
        FUZZ_CHECK(s2.req.kind == s.req.kind && s2.req.input_len == s.req.input_len &&
                       (!s.req.input_len || !memcmp(s2.req.input, s.req.input, s.req.input_len)) &&
                       s2.req.priority == s.req.priority && s2.req.sector_number == s.req.sector_number &&
                       s2.req.partition_index == s.req.partition_index,
                   "decoding changed through pack");
        if (m->request_id && m->request_id[0]) FUZZ_CHECK(!strcmp(s.job_id, s2.job_id), "request id changed");
        rpc_submit_free(&s2);
        cuzk__v1__submit_proof_request__free_unpacked(m2, NULL);
        free(again);
    }
    rpc_submit_free(&s);
    if (pr) cuzk__v1__prove_request__free_unpacked(pr, NULL);
    else cuzk__v1__submit_proof_request__free_unpacked(m, NULL);
    return 0;
}
