/* GetStatus on the client side: rendered as one JSON object (jansson) for people and scripts,
 * or as the jobs' progress (cuzk_client_jobs) for the CLI's job list, its live view and the
 * line `client prove` and `client await` draw while they wait. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/v1/proving.pb-c.h"
#include "server_internal.h"

static const char *tier_name(Cuzk__V1__SRSStatus__Tier t)
{
    return t == CUZK__V1__SRSSTATUS__TIER__HOT ? "HOT" : t == CUZK__V1__SRSSTATUS__TIER__WARM ? "WARM" : "COLD";
}

/* GetStatus for job_id ("": every job) into *out (free it with
 * protobuf_c_message_free_unpacked). */
static cuzk_status get_status(cuzk_client *c, const char *job_id, double deadline_s, Cuzk__V1__GetStatusResponse **out,
                              int *code)
{
    *out = NULL;
    Cuzk__V1__GetStatusRequest q = CUZK__V1__GET_STATUS_REQUEST__INIT;
    q.job_id = (char *)job_id;
    uint8_t *resp;
    size_t len;
    cuzk_status st = client_call(c, "GetStatus", &q.base, deadline_s, &resp, &len, code);
    if (st) return st;
    *out = (Cuzk__V1__GetStatusResponse *)protobuf_c_message_unpack(&cuzk__v1__get_status_response__descriptor, NULL,
                                                                    len, resp);
    free(resp);
    if (!*out) return cuzk_fail(CUZK_EIO, "GetStatus: the response is not a valid GetStatusResponse message");
    return CUZK_OK;
}

static void job_of(cuzk_rpc_job *j, const Cuzk__V1__JobStatus *m)
{
    memset(j, 0, sizeof *j);
    snprintf(j->job_id, sizeof j->job_id, "%s", m->job_id);
    j->engine_job = m->engine_job;
    snprintf(j->proof_kind, sizeof j->proof_kind, "%s", m->proof_kind);
    snprintf(j->priority, sizeof j->priority, "%s", m->priority);
    snprintf(j->circuit_id, sizeof j->circuit_id, "%s", m->circuit_id);
    snprintf(j->state, sizeof j->state, "%s", m->state);
    snprintf(j->stage, sizeof j->stage, "%s", m->stage);
    snprintf(j->prove_stage, sizeof j->prove_stage, "%s", m->prove_stage);
    j->partitions = m->partitions;
    j->partitions_proved = m->partitions_proved;
    j->partitions_witnessed = m->partitions_witnessed;
    j->devices = m->devices;
    j->fraction_done = m->fraction_done;
    j->elapsed_ms = m->elapsed_ms;
    j->queue_ms = m->queue_ms;
    j->expected_left_ms = m->expected_left_ms;
    snprintf(j->error_message, sizeof j->error_message, "%s", m->error_message);
}

cuzk_status cuzk_client_jobs(cuzk_client *c, const char *job_id, double deadline_s, cuzk_rpc_job **jobs, size_t *n,
                             size_t *total, int *code)
{
    *jobs = NULL;
    *n = 0;
    if (total) *total = 0;
    Cuzk__V1__GetStatusResponse *a;
    cuzk_status st = get_status(c, job_id ? job_id : "", deadline_s, &a, code);
    if (st) return st;
    *jobs = calloc(a->n_jobs ? a->n_jobs : 1, sizeof **jobs);
    if (!*jobs) {
        protobuf_c_message_free_unpacked(&a->base, NULL);
        return cuzk_fail(CUZK_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < a->n_jobs; i++) job_of(&(*jobs)[i], a->jobs[i]);
    *n = a->n_jobs;
    if (total) *total = a->jobs_total;
    protobuf_c_message_free_unpacked(&a->base, NULL);
    return CUZK_OK;
}

static json_t *job_json(const Cuzk__V1__JobStatus *m)
{
    json_t *o = json_pack("{s:s,s:I,s:s,s:s,s:s,s:s,s:s,s:s,s:I,s:I,s:I,s:I,s:f,s:I,s:I,s:I,s:s}", "job_id", m->job_id,
                          "engine_job", (json_int_t)m->engine_job, "proof_kind", m->proof_kind, "priority", m->priority,
                          "circuit_id", m->circuit_id, "state", m->state, "stage", m->stage, "prove_stage",
                          m->prove_stage, "partitions", (json_int_t)m->partitions, "partitions_proved",
                          (json_int_t)m->partitions_proved, "partitions_witnessed", (json_int_t)m->partitions_witnessed,
                          "devices", (json_int_t)m->devices, "fraction_done", m->fraction_done, "elapsed_ms",
                          (json_int_t)m->elapsed_ms, "queue_ms", (json_int_t)m->queue_ms, "expected_left_ms",
                          (json_int_t)m->expected_left_ms, "error_message", m->error_message);
    return o ? o : json_null();
}

/* "jobs" (each as job_json) and "jobs_total" of a GetStatus answer, into o */
static void add_jobs(json_t *o, const Cuzk__V1__GetStatusResponse *a)
{
    json_t *jobs = json_array();
    for (size_t i = 0; i < a->n_jobs; i++) json_array_append_new(jobs, job_json(a->jobs[i]));
    json_object_set_new(o, "jobs", jobs);
    json_object_set_new(o, "jobs_total", json_integer((json_int_t)a->jobs_total));
}

cuzk_status cuzk_client_status(cuzk_client *c, double deadline_s, char **json, int *code)
{
    *json = NULL;
    Cuzk__V1__GetStatusResponse *a;
    cuzk_status st = get_status(c, "", deadline_s, &a, code);
    if (st) return st;
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
                              json_pack("{s:s,s:s,s:I,s:I,s:s}", "circuit_id", s->circuit_id, "tier",
                                        tier_name(s->tier), "size_bytes", (json_int_t)s->size_bytes, "ref_count",
                                        (json_int_t)s->ref_count, "placement", s->placement));
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
    add_jobs(o, a);
    protobuf_c_message_free_unpacked(&a->base, NULL);
    *json = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(o);
    return *json ? CUZK_OK : cuzk_fail(CUZK_ENOMEM, "out of memory");
}

cuzk_status cuzk_client_jobs_json(cuzk_client *c, const char *job_id, double deadline_s, char **json, int *code)
{
    *json = NULL;
    Cuzk__V1__GetStatusResponse *a;
    cuzk_status st = get_status(c, job_id ? job_id : "", deadline_s, &a, code);
    if (st) return st;
    json_t *o = json_object();
    add_jobs(o, a);
    protobuf_c_message_free_unpacked(&a->base, NULL);
    *json = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(o);
    return *json ? CUZK_OK : cuzk_fail(CUZK_ENOMEM, "out of memory");
}
