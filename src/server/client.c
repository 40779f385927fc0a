/* A client of cuzk.v1.ProvingEngine over gRPC's C core: one channel, and each call a unary
 * exchange on its own completion queue, so any number of threads may call at once. */
#include <grpc/byte_buffer_reader.h>
#include <grpc/grpc_security.h>
#include <grpc/support/alloc.h>
#include <grpc/support/time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/v1/proving.pb-c.h"
#include "server_internal.h"

struct cuzk_client {
    grpc_channel *ch;
    char addr[600];
};

const char *cuzk_grpc_code_name(int code)
{
    static const char *const names[] = {
        "OK",        "CANCELLED",      "UNKNOWN",           "INVALID_ARGUMENT",   "DEADLINE_EXCEEDED",
        "NOT_FOUND", "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION",
        "ABORTED",   "OUT_OF_RANGE",   "UNIMPLEMENTED",     "INTERNAL",           "UNAVAILABLE",
        "DATA_LOSS", "UNAUTHENTICATED"};
    return code >= 0 && code <= 16 ? names[code] : "UNKNOWN";
}

const char *cuzk_rpc_status_name(cuzk_rpc_status s)
{
    static const char *const names[] = {"UNKNOWN", "COMPLETED", "FAILED", "CANCELLED", "TIMEOUT"};
    return (unsigned)s <= 4 ? names[s] : "UNKNOWN";
}

void cuzk_rpc_result_free(cuzk_rpc_result *r)
{
    if (!r) return;
    free(r->proof);
    r->proof = NULL;
    r->proof_len = 0;
}

cuzk_status cuzk_client_open(cuzk_client **out, const char *addr, uint64_t max_message_bytes)
{
    return cuzk_client_open_tls(out, addr, max_message_bytes, NULL);
}

cuzk_status cuzk_client_open_tls(cuzk_client **out, const char *addr, uint64_t max_message_bytes,
                                 const cuzk_client_tls *tls)
{
    *out = NULL;
    if (!addr || !addr[0]) return cuzk_fail(CUZK_EINVAL, "addr: empty (unix:///PATH or HOST:PORT)");
    cuzk_client *c = calloc(1, sizeof *c);
    if (!c) return cuzk_fail(CUZK_ENOMEM, "out of memory");
    /* a bare HOST:PORT is a DNS name to gRPC; unix:... goes as it is; a bare absolute path is
     * a Unix socket (gRPC's resolver would take it for a host name) */
    if (addr[0] == '/') snprintf(c->addr, sizeof c->addr, "unix://%s", addr);
    else if (strstr(addr, "://") || !strncmp(addr, "unix:", 5)) snprintf(c->addr, sizeof c->addr, "%s", addr);
    else snprintf(c->addr, sizeof c->addr, "dns:///%s", addr);
    grpc_init();
    grpc_channel_credentials *creds = NULL;
    cuzk_status st = client_tls_credentials(tls, &creds);
    if (st) {
        free(c);
        grpc_shutdown();
        return st;
    }
    int max = max_message_bytes > INT32_MAX ? INT32_MAX : (int)max_message_bytes;
    grpc_arg args[3] = {
        {GRPC_ARG_INTEGER, GRPC_ARG_MAX_RECEIVE_MESSAGE_LENGTH, {.integer = max}},
        {GRPC_ARG_INTEGER, GRPC_ARG_MAX_SEND_MESSAGE_LENGTH, {.integer = max}},
        {GRPC_ARG_STRING, GRPC_SSL_TARGET_NAME_OVERRIDE_ARG, {.string = NULL}},
    };
    grpc_channel_args ca = {2, args};
    if (creds && tls->server_name && tls->server_name[0]) {
        args[2].value.string = (char *)tls->server_name;
        ca.num_args = 3;
    }
    if (!creds) creds = grpc_insecure_credentials_create();
    c->ch = grpc_channel_create(c->addr, creds, &ca);
    grpc_channel_credentials_release(creds);
    if (!c->ch) {
        free(c);
        grpc_shutdown();
        return cuzk_fail(CUZK_EINVAL, "addr: cannot make a channel to %s", addr);
    }
    *out = c;
    return CUZK_OK;
}

void cuzk_client_close(cuzk_client *c)
{
    if (!c) return;
    grpc_channel_destroy(c->ch);
    free(c);
    grpc_shutdown();
}

/* One unary call of method with the packed request; *resp (malloc'd) gets the response bytes
 * (shared with client_status.c). */
cuzk_status client_call(cuzk_client *c, const char *method, const ProtobufCMessage *req, double deadline_s,
                        uint8_t **resp, size_t *resp_len, int *code)
{
    *resp = NULL;
    *resp_len = 0;
    if (code) *code = -1;
    size_t n = protobuf_c_message_get_packed_size(req);
    uint8_t *buf = malloc(n ? n : 1);
    if (!buf) return cuzk_fail(CUZK_ENOMEM, "out of memory for a %zu-byte request", n);
    protobuf_c_message_pack(req, buf);
    grpc_slice sl = grpc_slice_new(buf, n, free);
    grpc_byte_buffer *send = grpc_raw_byte_buffer_create(&sl, 1);
    grpc_slice_unref(sl);

    char path[96];
    snprintf(path, sizeof path, "/cuzk.v1.ProvingEngine/%s", method);
    grpc_completion_queue *cq = grpc_completion_queue_create_for_pluck(NULL);
    gpr_timespec dl = deadline_s > 0
        ? gpr_time_add(gpr_now(GPR_CLOCK_MONOTONIC), gpr_time_from_millis((int64_t)(deadline_s * 1000), GPR_TIMESPAN))
        : gpr_inf_future(GPR_CLOCK_MONOTONIC);
    grpc_slice ps = grpc_slice_from_static_string(path);
    grpc_call *gc = grpc_channel_create_call(c->ch, NULL, GRPC_PROPAGATE_DEFAULTS, cq, ps, NULL, dl, NULL);
    grpc_metadata_array init_md, trail_md;
    grpc_metadata_array_init(&init_md);
    grpc_metadata_array_init(&trail_md);
    grpc_byte_buffer *recv = NULL;
    grpc_status_code status = GRPC_STATUS_UNKNOWN;
    grpc_slice details = grpc_empty_slice();
    grpc_op ops[6];
    memset(ops, 0, sizeof ops);
    ops[0].op = GRPC_OP_SEND_INITIAL_METADATA;
    ops[1].op = GRPC_OP_SEND_MESSAGE;
    ops[1].data.send_message.send_message = send;
    ops[2].op = GRPC_OP_SEND_CLOSE_FROM_CLIENT;
    ops[3].op = GRPC_OP_RECV_INITIAL_METADATA;
    ops[3].data.recv_initial_metadata.recv_initial_metadata = &init_md;
    ops[4].op = GRPC_OP_RECV_MESSAGE;
    ops[4].data.recv_message.recv_message = &recv;
    ops[5].op = GRPC_OP_RECV_STATUS_ON_CLIENT;
    ops[5].data.recv_status_on_client.trailing_metadata = &trail_md;
    ops[5].data.recv_status_on_client.status = &status;
    ops[5].data.recv_status_on_client.status_details = &details;
    cuzk_status st = CUZK_OK;
    static int tag;
    if (grpc_call_start_batch(gc, ops, 6, &tag, NULL) != GRPC_CALL_OK)
        st = cuzk_fail(CUZK_EIO, "%s: the call could not start", method);
    else grpc_completion_queue_pluck(cq, &tag, gpr_inf_future(GPR_CLOCK_REALTIME), NULL);
    if (!st && status != GRPC_STATUS_OK) {
        char *d = grpc_slice_to_c_string(details);
        st = cuzk_fail(CUZK_EIO, "%s: %s: %s", method, cuzk_grpc_code_name((int)status), d);
        gpr_free(d);
    }
    if (!st && recv) {
        grpc_byte_buffer_reader rd;
        if (grpc_byte_buffer_reader_init(&rd, recv)) {
            grpc_slice all = grpc_byte_buffer_reader_readall(&rd);
            grpc_byte_buffer_reader_destroy(&rd);
            *resp_len = GRPC_SLICE_LENGTH(all);
            *resp = malloc(*resp_len ? *resp_len : 1);
            if (*resp) memcpy(*resp, GRPC_SLICE_START_PTR(all), *resp_len);
            else st = cuzk_fail(CUZK_ENOMEM, "out of memory for a %zu-byte response", *resp_len);
            grpc_slice_unref(all);
        }
    } else if (!st) {
        st = cuzk_fail(CUZK_EIO, "%s: the server answered OK without a message", method);
    }
    if (code) *code = (int)status;
    if (recv) grpc_byte_buffer_destroy(recv);
    grpc_byte_buffer_destroy(send);
    grpc_slice_unref(details);
    grpc_metadata_array_destroy(&init_md);
    grpc_metadata_array_destroy(&trail_md);
    grpc_call_unref(gc);
    grpc_completion_queue_shutdown(cq);
    while (grpc_completion_queue_pluck(cq, NULL, gpr_inf_future(GPR_CLOCK_REALTIME), NULL).type !=
           GRPC_QUEUE_SHUTDOWN) {}
    grpc_completion_queue_destroy(cq);
    return st;
}

/* Decodes a response into a message of desc (freed by the caller). */
static cuzk_status decode(const char *method, const ProtobufCMessageDescriptor *desc, uint8_t *bytes, size_t len,
                          ProtobufCMessage **out)
{
    *out = protobuf_c_message_unpack(desc, NULL, len, bytes);
    free(bytes);
    if (!*out) return cuzk_fail(CUZK_EIO, "%s: the response is not a valid %s message", method, desc->name);
    return CUZK_OK;
}

/* A call and its decoded response (*out freed by the caller with protobuf_c_message_free_unpacked). */
static cuzk_status unary(cuzk_client *c, const char *method, const ProtobufCMessage *req,
                         const ProtobufCMessageDescriptor *desc, double deadline_s, ProtobufCMessage **out, int *code)
{
    uint8_t *resp;
    size_t len;
    *out = NULL;
    cuzk_status st = client_call(c, method, req, deadline_s, &resp, &len, code);
    return st ? st : decode(method, desc, resp, len, out);
}

/* q from r; *blobs (malloc'd, the caller frees it) holds q's vanilla_proofs. */
static cuzk_status fill_submit(Cuzk__V1__SubmitProofRequest *q, const cuzk_rpc_request *r, ProtobufCBinaryData **blobs)
{
    *blobs = NULL;
    if (r->nvanilla && !(*blobs = calloc(r->nvanilla, sizeof **blobs))) return cuzk_fail(CUZK_ENOMEM, "out of memory");
    for (size_t i = 0; i < r->nvanilla; i++)
        (*blobs)[i] = (ProtobufCBinaryData){r->vanilla_proofs_len[i], (uint8_t *)r->vanilla_proofs[i]};
    q->n_vanilla_proofs = r->nvanilla;
    q->vanilla_proofs = *blobs;
    q->request_id = (char *)(r->request_id ? r->request_id : "");
    q->proof_kind = (Cuzk__V1__ProofKind)r->proof_kind;
    q->sector_size = r->sector_size;
    q->registered_proof = r->registered_proof;
    q->priority = (Cuzk__V1__Priority)r->priority;
    q->vanilla_proof.data = (uint8_t *)r->vanilla_proof;
    q->vanilla_proof.len = r->vanilla_proof_len;
    q->sector_number = r->sector_number;
    q->miner_id = r->miner_id;
    q->randomness.data = (uint8_t *)r->randomness;
    q->randomness.len = r->randomness_len;
    q->partition_index = r->partition_index;
    if (r->comm_r_old) q->comm_r_old = (ProtobufCBinaryData){32, (uint8_t *)r->comm_r_old};
    if (r->comm_r_new) q->comm_r_new = (ProtobufCBinaryData){32, (uint8_t *)r->comm_r_new};
    if (r->comm_d_new) q->comm_d_new = (ProtobufCBinaryData){32, (uint8_t *)r->comm_d_new};
    return CUZK_OK;
}

cuzk_status cuzk_client_submit(cuzk_client *c, const cuzk_rpc_request *r, double deadline_s, char job_id[256],
                               unsigned *queue_position, int *code)
{
    Cuzk__V1__SubmitProofRequest q = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
    ProtobufCBinaryData *blobs;
    if (fill_submit(&q, r, &blobs)) return CUZK_ENOMEM;
    ProtobufCMessage *m = NULL;
    cuzk_status st =
        unary(c, "SubmitProof", &q.base, &cuzk__v1__submit_proof_response__descriptor, deadline_s, &m, code);
    free(blobs);
    if (st) return st;
    Cuzk__V1__SubmitProofResponse *a = (Cuzk__V1__SubmitProofResponse *)m;
    snprintf(job_id, 256, "%s", a->job_id);
    if (queue_position) *queue_position = a->queue_position;
    protobuf_c_message_free_unpacked(m, NULL);
    return CUZK_OK;
}

static cuzk_status take_result(const Cuzk__V1__AwaitProofResponse *a, cuzk_rpc_result *out)
{
    snprintf(out->job_id, sizeof out->job_id, "%s", a->job_id);
    out->status = (cuzk_rpc_status)a->status;
    snprintf(out->error_message, sizeof out->error_message, "%s", a->error_message);
    out->queue_wait_ms = a->queue_wait_ms;
    out->srs_load_ms = a->srs_load_ms;
    out->synthesis_ms = a->synthesis_ms;
    out->gpu_compute_ms = a->gpu_compute_ms;
    out->total_ms = a->total_ms;
    if (a->proof.len) {
        if (!(out->proof = malloc(a->proof.len))) return cuzk_fail(CUZK_ENOMEM, "out of memory");
        memcpy(out->proof, a->proof.data, a->proof.len);
        out->proof_len = a->proof.len;
    }
    return CUZK_OK;
}

cuzk_status cuzk_client_await(cuzk_client *c, const char *job_id, uint64_t timeout_ms, double deadline_s,
                              cuzk_rpc_result *out, int *code)
{
    memset(out, 0, sizeof *out);
    Cuzk__V1__AwaitProofRequest q = CUZK__V1__AWAIT_PROOF_REQUEST__INIT;
    q.job_id = (char *)job_id;
    q.timeout_ms = timeout_ms;
    ProtobufCMessage *m = NULL;
    cuzk_status st = unary(c, "AwaitProof", &q.base, &cuzk__v1__await_proof_response__descriptor, deadline_s, &m, code);
    if (st) return st;
    st = take_result((Cuzk__V1__AwaitProofResponse *)m, out);
    protobuf_c_message_free_unpacked(m, NULL);
    return st;
}

cuzk_status cuzk_client_prove(cuzk_client *c, const cuzk_rpc_request *r, double deadline_s, cuzk_rpc_result *out,
                              int *code)
{
    memset(out, 0, sizeof *out);
    Cuzk__V1__SubmitProofRequest q = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
    ProtobufCBinaryData *blobs;
    if (fill_submit(&q, r, &blobs)) return CUZK_ENOMEM;
    Cuzk__V1__ProveRequest p = CUZK__V1__PROVE_REQUEST__INIT;
    p.submit = &q;
    ProtobufCMessage *m = NULL;
    cuzk_status st = unary(c, "Prove", &p.base, &cuzk__v1__prove_response__descriptor, deadline_s, &m, code);
    free(blobs);
    if (st) return st;
    Cuzk__V1__ProveResponse *a = (Cuzk__V1__ProveResponse *)m;
    st = a->result ? take_result(a->result, out) : cuzk_fail(CUZK_EIO, "Prove: the response has no result");
    protobuf_c_message_free_unpacked(m, NULL);
    return st;
}

cuzk_status cuzk_client_cancel(cuzk_client *c, const char *job_id, double deadline_s, bool *was_running, int *code)
{
    Cuzk__V1__CancelProofRequest q = CUZK__V1__CANCEL_PROOF_REQUEST__INIT;
    q.job_id = (char *)job_id;
    ProtobufCMessage *m = NULL;
    cuzk_status st =
        unary(c, "CancelProof", &q.base, &cuzk__v1__cancel_proof_response__descriptor, deadline_s, &m, code);
    if (st) return st;
    *was_running = ((Cuzk__V1__CancelProofResponse *)m)->was_running;
    protobuf_c_message_free_unpacked(m, NULL);
    return CUZK_OK;
}

cuzk_status cuzk_client_metrics(cuzk_client *c, double deadline_s, char **text, int *code)
{
    *text = NULL;
    Cuzk__V1__GetMetricsRequest q = CUZK__V1__GET_METRICS_REQUEST__INIT;
    ProtobufCMessage *m = NULL;
    cuzk_status st = unary(c, "GetMetrics", &q.base, &cuzk__v1__get_metrics_response__descriptor, deadline_s, &m, code);
    if (st) return st;
    *text = strdup(((Cuzk__V1__GetMetricsResponse *)m)->prometheus_text);
    protobuf_c_message_free_unpacked(m, NULL);
    return *text ? CUZK_OK : cuzk_fail(CUZK_ENOMEM, "out of memory");
}

cuzk_status cuzk_client_preload(cuzk_client *c, const char *circuit_id, double deadline_s, bool *already_loaded,
                                uint64_t *load_time_ms, int *code)
{
    Cuzk__V1__PreloadSrsRequest q = CUZK__V1__PRELOAD_SRS_REQUEST__INIT;
    q.circuit_id = (char *)circuit_id;
    ProtobufCMessage *m = NULL;
    cuzk_status st = unary(c, "PreloadSRS", &q.base, &cuzk__v1__preload_srs_response__descriptor, deadline_s, &m, code);
    if (st) return st;
    *already_loaded = ((Cuzk__V1__PreloadSrsResponse *)m)->already_loaded;
    *load_time_ms = ((Cuzk__V1__PreloadSrsResponse *)m)->load_time_ms;
    protobuf_c_message_free_unpacked(m, NULL);
    return CUZK_OK;
}

cuzk_status cuzk_client_evict(cuzk_client *c, const char *circuit_id, double deadline_s, bool *was_loaded,
                              uint64_t *freed_bytes, int *code)
{
    Cuzk__V1__EvictSrsRequest q = CUZK__V1__EVICT_SRS_REQUEST__INIT;
    q.circuit_id = (char *)circuit_id;
    ProtobufCMessage *m = NULL;
    cuzk_status st = unary(c, "EvictSRS", &q.base, &cuzk__v1__evict_srs_response__descriptor, deadline_s, &m, code);
    if (st) return st;
    *was_loaded = ((Cuzk__V1__EvictSrsResponse *)m)->was_loaded;
    *freed_bytes = ((Cuzk__V1__EvictSrsResponse *)m)->freed_bytes;
    protobuf_c_message_free_unpacked(m, NULL);
    return CUZK_OK;
}

cuzk_status cuzk_client_trace(cuzk_client *c, const char *job_id, double deadline_s, char **json, int *code)
{
    *json = NULL;
    Cuzk__V1__GetTraceRequest q = CUZK__V1__GET_TRACE_REQUEST__INIT;
    q.job_id = (char *)job_id;
    ProtobufCMessage *m = NULL;
    cuzk_status st = unary(c, "GetTrace", &q.base, &cuzk__v1__get_trace_response__descriptor, deadline_s, &m, code);
    if (st) return st;
    *json = strdup(((Cuzk__V1__GetTraceResponse *)m)->trace_json);
    protobuf_c_message_free_unpacked(m, NULL);
    return *json ? CUZK_OK : cuzk_fail(CUZK_ENOMEM, "out of memory");
}
