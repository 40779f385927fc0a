/* GetStatus on the client side, rendered as one JSON object (jansson) for people and scripts. */
#include <jansson.h>
#include <stdlib.h>

#include "cuzk/v1/proving.pb-c.h"
#include "server_internal.h"

static const char *tier_name(Cuzk__V1__SRSStatus__Tier t)
{
    return t == CUZK__V1__SRSSTATUS__TIER__HOT ? "HOT" : t == CUZK__V1__SRSSTATUS__TIER__WARM ? "WARM" : "COLD";
}

cuzk_status cuzk_client_status(cuzk_client *c, double deadline_s, char **json, int *code)
{
    *json = NULL;
    Cuzk__V1__GetStatusRequest q = CUZK__V1__GET_STATUS_REQUEST__INIT;
    uint8_t *resp;
    size_t len;
    cuzk_status st = client_call(c, "GetStatus", &q.base, deadline_s, &resp, &len, code);
    if (st) return st;
    Cuzk__V1__GetStatusResponse *a = (Cuzk__V1__GetStatusResponse *)protobuf_c_message_unpack(
        &cuzk__v1__get_status_response__descriptor, NULL, len, resp);
    free(resp);
    if (!a) return cuzk_fail(CUZK_EIO, "GetStatus: the response is not a valid GetStatusResponse message");
    json_t *o = json_object(), *gpus = json_array(), *srs = json_array(), *queues = json_array();
    for (size_t i = 0; i < a->n_gpus; i++) {
        const Cuzk__V1__GPUStatus *g = a->gpus[i];
        json_array_append_new(gpus,
                              json_pack("{s:I,s:s,s:I,s:I,s:s,s:s}", "ordinal", (json_int_t)g->ordinal, "name", g->name,
                                        "vram_total_bytes", (json_int_t)g->vram_total_bytes, "vram_free_bytes",
                                        (json_int_t)g->vram_free_bytes, "current_job_id", g->current_job_id,
                                        "current_proof_kind", g->current_proof_kind));
    }
    for (size_t i = 0; i < a->n_loaded_srs; i++) {
        const Cuzk__V1__SRSStatus *s = a->loaded_srs[i];
        json_array_append_new(srs,
                              json_pack("{s:s,s:s,s:I,s:I}", "circuit_id", s->circuit_id, "tier", tier_name(s->tier),
                                        "size_bytes", (json_int_t)s->size_bytes, "ref_count",
                                        (json_int_t)s->ref_count));
    }
    for (size_t i = 0; i < a->n_queues; i++) {
        const Cuzk__V1__QueueStatus *x = a->queues[i];
        json_array_append_new(queues,
                              json_pack("{s:s,s:I,s:I}", "proof_kind", x->proof_kind, "pending", (json_int_t)x->pending,
                                        "in_progress", (json_int_t)x->in_progress));
    }
    json_object_set_new(o, "gpus", gpus);
    json_object_set_new(o, "loaded_srs", srs);
    json_object_set_new(o, "queues", queues);
    json_object_set_new(o, "total_proofs_completed", json_integer((json_int_t)a->total_proofs_completed));
    json_object_set_new(o, "total_proofs_failed", json_integer((json_int_t)a->total_proofs_failed));
    json_object_set_new(o, "uptime_seconds", json_integer((json_int_t)a->uptime_seconds));
    json_object_set_new(o, "pinned_memory_bytes", json_integer((json_int_t)a->pinned_memory_bytes));
    json_object_set_new(o, "pinned_memory_limit_bytes", json_integer((json_int_t)a->pinned_memory_limit_bytes));
    protobuf_c_message_free_unpacked(&a->base, NULL);
    *json = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(o);
    return *json ? CUZK_OK : cuzk_fail(CUZK_ENOMEM, "out of memory");
}
