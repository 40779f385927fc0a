/* What the engine tells its clients: status (queues, devices, residency, memory) and the status
 * as JSON (the metrics, engine_metrics.c, are made from the same snapshot), and the preload /
 * evict calls that change residency on request. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/filecoin.h"
#include "engine_internal.h"

void cuzk_engine_get_status(cuzk_engine *e, cuzk_engine_status *out)
{
    memset(out, 0, sizeof *out);
    engine_mutex_lock(&e->mu);
    engine_prune_results(e);
    double now = cuzk_now();
    for (engine_job *j = e->jobs; j; j = j->next) {
        int k = cuzk_kind_index(j->kind);
        if (j->state == CUZK_JOB_QUEUED) out->queued[k]++;
        else if (j->state == CUZK_JOB_RUNNING) out->running[k]++;
        else out->results_kept++;
    }
    for (const ready_item *r = e->ready; r; r = r->next) out->witnesses_ready++;
    memcpy(out->completed, e->completed, sizeof out->completed);
    memcpy(out->failed, e->failed, sizeof out->failed);
    memcpy(out->cancelled, e->cancelled, sizeof out->cancelled);
    const unsigned cap = sizeof out->devices / sizeof out->devices[0];
    for (unsigned i = 0; i < e->ndev && out->ndevices < cap; i++) {
        const engine_device *d = &e->dev[i];
        if (d->ordinal < 0 && e->cpu_fallback) {
            bool gpu = false;
            for (unsigned g = 0; g < e->ndev; g++) gpu |= e->dev[g].ordinal >= 0 && e->dev[g].in_service;
            if (gpu) continue; /* the fallback, idle while GPUs serve */
        }
        cuzk_engine_device_status *s = &out->devices[out->ndevices++];
        s->ordinal = d->ordinal;
        s->context = d->context;
        snprintf(s->name, sizeof s->name, "%s", d->name);
        s->in_service = d->in_service;
        snprintf(s->out_of_service_reason, sizeof s->out_of_service_reason, "%s", d->out_reason);
        s->running_job = d->running_job;
        s->running_partition = d->running_part;
        if (d->running_job) {
            const engine_job *j = find_job_locked(e, d->running_job);
            if (j) {
                snprintf(s->running_request, sizeof s->running_request, "%s", j->request_id);
                s->running_kind = j->kind;
            }
            if (d->ordinal < 0)
                snprintf(s->prove_stage, sizeof s->prove_stage, "%s",
                         device_stage_name(__atomic_load_n(&d->prove_stage, __ATOMIC_RELAXED)));
        }
        s->partitions_proved = d->proved;
        s->batches = d->batches;
        s->partitions_batched = d->batched;
        s->upload_bytes = d->uploaded;
        s->busy_s = d->busy_s;
        s->idle_s = (now - (d->started_t ? d->started_t : now)) - d->busy_s;
        if (s->idle_s < 0) s->idle_s = 0;
        s->gap_max_s = d->gap_max_s;
        s->gap_total_s = d->gap_total_s;
        s->gaps = d->gaps;
        for (const engine_circuit *c = e->circuits; c; c = c->next) s->resident_bytes += c->dev[i].bytes;
        s->budget_bytes = d->budget;
        s->mem_total = d->mem_total;
        size_t fr = 0, tot = 0;
        if (d->gpu && !cuzk_gpu_mem_info(d->gpu, &fr, &tot)) s->mem_free = fr;
    }
    for (const engine_circuit *c = e->circuits; c && out->ncircuits < CUZK_ENGINE_MAX_CIRCUITS; c = c->next) {
        cuzk_engine_circuit_status *s = &out->circuits[out->ncircuits++];
        snprintf(s->id, sizeof s->id, "%s", c->id);
        s->host_params = c->has_params;
        s->host_pce = c->host_ready;
        s->loading = c->host_loading;
        s->host_bytes = c->params_bytes + c->pce_bytes;
        for (unsigned i = 0; i < e->ndev && i < CUZK_ENGINE_MAX_DEVICES; i++) {
            const circuit_on_device *cd = &c->dev[i];
            s->device[i] = cd->prover != NULL;
            s->loading |= cd->loading;
            s->device_bytes += cd->bytes;
            if (!cd->prover && !cd->loading) continue;
            s->streamed[i] = cuzk_gpu_placement_streams(&cd->pl);
            s->mapped[i] = cd->pl.kind == CUZK_GPU_MAPPED;
            s->pinned_bytes += cd->host_bytes;
            if (!s->placement[0]) snprintf(s->placement, sizeof s->placement, "%s", cd->pl.why);
        }
        s->refs = c->refs;
        s->idle_s = now - c->last_used;
    }
    out->host_bytes = e->host_used;
    out->host_budget = e->host_budget;
    out->pinned_bytes = e->pinned_bytes;
    out->uptime_s = now - e->start_t;
    out->reclaimed_bytes = e->reclaimed_bytes;
    out->reclaim_s = e->reclaim_s;
    engine_mutex_unlock(&e->mu);
}

static const cuzk_job_kind all_kinds[CUZK_KINDS] = {CUZK_KIND_POREP, CUZK_KIND_SNAP, CUZK_KIND_WINDOW_POST,
                                                    CUZK_KIND_WINNING_POST, CUZK_KIND_CIRCUIT};

char *report_text(cuzk_engine *e, void (*body)(cuzk_engine *e, const cuzk_engine_status *s, FILE *f))
{
    cuzk_engine_status *s = malloc(sizeof *s);
    if (!s) return NULL;
    cuzk_engine_get_status(e, s);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (f) body(e, s, f);
    free(s);
    if (!f || fclose(f)) {
        free(buf);
        return NULL;
    }
    return buf;
}

static void jobs_body(cuzk_engine *e, FILE *f);

static void status_body(cuzk_engine *e, const cuzk_engine_status *s, FILE *f)
{
    fprintf(f, "{\"uptime_s\":%.3f,%s\"queues\":{", s->uptime_s, e->cfg.test_params ? "\"test_params\":true," : "");
    for (int k = 0; k < CUZK_KINDS; k++)
        fprintf(f, "%s\"%s\":{\"queued\":%u,\"running\":%u,\"completed\":%llu,\"failed\":%llu,\"cancelled\":%llu}",
                k ? "," : "", cuzk_kind_name(all_kinds[k]), s->queued[k], s->running[k],
                (unsigned long long)s->completed[k], (unsigned long long)s->failed[k],
                (unsigned long long)s->cancelled[k]);
    fputs("},\"devices\":[", f);
    for (unsigned i = 0; i < s->ndevices; i++) {
        const cuzk_engine_device_status *d = &s->devices[i];
        fprintf(f, "%s{\"ordinal\":%d,\"context\":%u,\"name\":", i ? "," : "", d->ordinal, d->context);
        cuzk_json_string(f, d->name);
        fprintf(f, ",\"in_service\":%s,\"out_of_service_reason\":", d->in_service ? "true" : "false");
        cuzk_json_string(f, d->out_of_service_reason);
        fputs(",\"running_request\":", f);
        cuzk_json_string(f, d->running_request);
        fprintf(f, ",\"prove_stage\":\"%s\"", d->prove_stage);
        fprintf(f,
                ",\"running_job\":%llu,\"running_partition\":%u,\"partitions_proved\":%llu,\"batches\":%llu,"
                "\"partitions_batched\":%llu,\"upload_bytes\":%llu,\"busy_s\":%.3f,"
                "\"idle_s\":%.3f,\"gap_max_s\":%.6f,\"gap_total_s\":%.6f,\"gaps\":%llu,\"resident_bytes\":%llu,"
                "\"budget_bytes\":%llu,\"mem_total\":%llu,\"mem_free\":%llu}",
                (unsigned long long)d->running_job, d->running_partition, (unsigned long long)d->partitions_proved,
                (unsigned long long)d->batches, (unsigned long long)d->partitions_batched,
                (unsigned long long)d->upload_bytes, d->busy_s, d->idle_s, d->gap_max_s, d->gap_total_s,
                (unsigned long long)d->gaps, (unsigned long long)d->resident_bytes, (unsigned long long)d->budget_bytes,
                (unsigned long long)d->mem_total, (unsigned long long)d->mem_free);
    }
    fputs("],\"circuits\":[", f);
    for (unsigned i = 0; i < s->ncircuits; i++) {
        const cuzk_engine_circuit_status *c = &s->circuits[i];
        fprintf(f, "%s{\"id\":", i ? "," : "");
        cuzk_json_string(f, c->id);
        fprintf(f, ",\"host_params\":%s,\"host_pce\":%s,\"loading\":%s,\"devices\":[",
                c->host_params ? "true" : "false", c->host_pce ? "true" : "false", c->loading ? "true" : "false");
        bool first = true;
        for (unsigned d = 0; d < CUZK_ENGINE_MAX_DEVICES; d++)
            if (c->device[d]) {
                fprintf(f, "%s%u", first ? "" : ",", d);
                first = false;
            }
        fputs("],\"streamed_on\":[", f);
        first = true;
        for (unsigned d = 0; d < CUZK_ENGINE_MAX_DEVICES; d++)
            if (c->streamed[d]) {
                fprintf(f, "%s%u", first ? "" : ",", d);
                first = false;
            }
        fputs("],\"placement\":", f);
        cuzk_json_string(f, c->placement);
        fprintf(f, ",\"pinned_bytes\":%llu,\"host_bytes\":%llu,\"device_bytes\":%llu,\"refs\":%u,\"idle_s\":%.3f}",
                (unsigned long long)c->pinned_bytes, (unsigned long long)c->host_bytes,
                (unsigned long long)c->device_bytes, c->refs, c->idle_s);
    }
    fprintf(f,
            "],\"host_bytes\":%llu,\"host_budget\":%llu,\"pinned_bytes\":%llu,\"results_kept\":%u,"
            "\"reclaimed_bytes\":%llu,\"reclaim_s\":%.3f,",
            (unsigned long long)s->host_bytes, (unsigned long long)s->host_budget, (unsigned long long)s->pinned_bytes,
            s->results_kept, (unsigned long long)s->reclaimed_bytes, s->reclaim_s);
    jobs_body(e, f);
    fputc('}', f);
}

/* "jobs": the jobs' progress, running, queued, then recently ended, at most
 * CUZK_STATUS_JOBS_MAX; "jobs_total": how many there are. */
static void jobs_body(cuzk_engine *e, FILE *f)
{
    cuzk_job_progress *jobs = malloc(CUZK_STATUS_JOBS_MAX * sizeof *jobs);
    size_t n = 0, total = 0;
    if (!jobs || cuzk_engine_jobs(e, CUZK_JOBS_ALL, jobs, CUZK_STATUS_JOBS_MAX, &n, &total)) n = total = 0;
    fprintf(f, "\"jobs_total\":%zu,\"jobs\":[", total);
    for (size_t i = 0; i < n; i++) {
        if (i) fputc(',', f);
        cuzk_job_progress_json(f, &jobs[i]);
    }
    fputc(']', f);
    free(jobs);
}

char *cuzk_engine_status_json(cuzk_engine *e) { return report_text(e, status_body); }

/* ---------------------------------------------------------------- preload / evict */
cuzk_status cuzk_engine_preload(cuzk_engine *e, const char *circuit, double *seconds)
{
    *seconds = 0;
    cuzk_status st = engine_enter(e);
    if (st) return st;
    engine_circuit *c = res_by_id(e, circuit);
    double t0 = cuzk_now();
    if (!c) st = cuzk_fail(CUZK_EINVAL, "circuit_id: unknown circuit '%s'", circuit);
    else {
        bool resident = c->host_ready;
        for (unsigned i = 0; i < e->ndev; i++)
            if (e->dev[i].ordinal >= 0 && e->dev[i].in_service && !c->dev[i].prover && !c->dev[i].unfit)
                resident = false;
        c->refs++; /* not evicted while it loads */
        st = res_preload(e, c);
        c->refs--;
        c->last_used = cuzk_now();
        *seconds = resident ? 0 : cuzk_now() - t0;
    }
    engine_leave(e);
    return st;
}

cuzk_status cuzk_engine_evict(cuzk_engine *e, const char *circuit, uint64_t *freed)
{
    *freed = 0;
    cuzk_status st = engine_enter(e);
    if (st) return st;
    engine_circuit *c = res_find_spelled(e, circuit);
    if (!c) st = cuzk_fail(CUZK_EINVAL, "circuit_id: unknown circuit '%s'", circuit);
    else if (c->refs) st = cuzk_fail(CUZK_EBUSY, "circuit %s is in use by %u job(s)", circuit, c->refs);
    else {
        bool busy = c->host_loading;
        for (unsigned i = 0; i < e->ndev; i++) busy |= c->dev[i].loading || c->dev[i].busy;
        if (busy) st = cuzk_fail(CUZK_EBUSY, "circuit %s is loading or proving", circuit);
        else *freed = res_evict_circuit(e, c);
    }
    engine_leave(e);
    return st;
}
