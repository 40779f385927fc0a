/* GetStatus's own fields of cuzk (proving.proto: GetStatusRequest.job_id, GetStatusResponse.jobs
 * and jobs_total): the job asked for read from the request's wire bytes and checked, and the
 * jobs' progress (cuzk_engine_jobs) turned into JobStatus messages. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/v1/proving.pb-c.h"
#include "server_internal.h"
#include "wire_field.h"

bool rpc_status_job_id(const uint8_t *in, size_t len, char id[CUZK_REQUEST_ID_MAX + 1], rpc_reply *r)
{
    static const unsigned job_id_path[] = {100}; /* GetStatusRequest.job_id */
    const uint8_t *raw = NULL;
    size_t raw_len = 0;
    id[0] = 0;
    if (!cuzk_wire_field(in, len, job_id_path, 1, &raw, &raw_len) || !raw_len) return true;
    if (cuzk_check_client_id("job_id", (const char *)raw, raw_len, CUZK_REQUEST_ID_MAX)) {
        rpc_fail(r, RPC_INVALID_ARGUMENT, "%s", cuzk_last_error());
        return false;
    }
    memcpy(id, raw, raw_len);
    id[raw_len] = 0;
    return true;
}

static uint64_t ms_of(double s) { return s > 0 ? (uint64_t)(s * 1000 + 0.5) : 0; }

/* One JobStatus from p (its strings point into p, which outlives it). */
static void job_status(Cuzk__V1__JobStatus *m, cuzk_job_progress *p, const cuzk_server_config *cfg)
{
    *m = (Cuzk__V1__JobStatus)CUZK__V1__JOB_STATUS__INIT;
    m->job_id = p->request_id;
    m->engine_job = p->job_id;
    m->proof_kind = (char *)rpc_kind_label((uint32_t)p->kind);
    m->priority = (char *)cuzk_priority_name(p->priority);
    m->circuit_id = p->circuit;
    m->state = (char *)cuzk_job_state_name(p->state);
    m->stage = (char *)cuzk_job_stage_name(p->stage);
    m->prove_stage = p->prove_stage;
    m->partitions = p->partitions;
    m->partitions_proved = p->proved;
    m->partitions_witnessed = p->witnessed;
    m->devices = p->devices;
    m->fraction_done = p->partitions ? (double)p->proved / p->partitions : 0;
    m->elapsed_ms = ms_of(p->elapsed_s);
    m->queue_ms = ms_of(p->queue_s);
    m->expected_left_ms = p->left_s < 0 ? -1 : (int64_t)ms_of(p->left_s);
    rpc_client_text(cfg, p->error, sizeof p->error); /* the daemon's paths as the client may see them */
    m->error_message = p->error;
}

bool rpc_jobs_fill(cuzk_engine *e, const cuzk_server_config *cfg, const char *job_id, rpc_jobs *out, rpc_reply *r)
{
    memset(out, 0, sizeof *out);
    size_t cap = job_id[0] ? 1 : CUZK_STATUS_JOBS_MAX;
    out->progress = calloc(cap, sizeof *out->progress);
    out->msgs = calloc(cap, sizeof *out->msgs);
    out->ptrs = calloc(cap, sizeof *out->ptrs);
    if (!out->progress || !out->msgs || !out->ptrs) {
        rpc_fail(r, RPC_RESOURCE_EXHAUSTED, "out of memory");
        return false;
    }
    cuzk_status st;
    if (job_id[0]) {
        uint64_t eid = 0;
        st = cuzk_engine_find(e, job_id, &eid);
        if (!st) st = cuzk_engine_job_progress(e, eid, &out->progress[0]);
        out->n = out->total = !st;
    } else {
        st = cuzk_engine_jobs(e, CUZK_JOBS_ALL, out->progress, cap, &out->n, &out->total);
    }
    if (st) {
        rpc_fail(r, rpc_code_of(st), "job_id: %s", cuzk_last_error());
        return false;
    }
    for (size_t i = 0; i < out->n; i++) {
        job_status(&out->msgs[i], &out->progress[i], cfg);
        out->ptrs[i] = &out->msgs[i];
    }
    return true;
}

void rpc_jobs_free(rpc_jobs *j)
{
    free(j->progress);
    free(j->msgs);
    free(j->ptrs);
    memset(j, 0, sizeof *j);
}
