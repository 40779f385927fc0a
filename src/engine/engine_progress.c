/* The jobs' progress (cuzk_engine_jobs, cuzk_engine_job_progress): where each job is (its
 * stage, and on the CPU backend its prover's), its partitions witnessed and proved, its times
 * and the time it is expected to take still. Everything is read from the job, its circuit and
 * the devices under the engine's lock, except the CPU prover's stage, which the device's thread
 * stores without it (an atomic int, one writer). A job by id costs the same whatever the
 * number of jobs; a list walks the job list once. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"

const char *cuzk_job_stage_name(cuzk_job_stage s)
{
    switch (s) {
    case CUZK_STAGE_QUEUED: return "queued";
    case CUZK_STAGE_LOADING: return "loading";
    case CUZK_STAGE_WITNESS: return "witness";
    case CUZK_STAGE_PROVING: return "proving";
    case CUZK_STAGE_VERIFYING: return "verifying";
    case CUZK_STAGE_ENDED: return "ended";
    }
    return "unknown";
}

const char *device_stage_name(int stage)
{
    return stage == DEVICE_STAGE_ABC ? "a, b, c" : cuzk_prove_stage_name(stage);
}

/* Recent times weigh more than old ones (a GPU taking over from the CPU, a circuit whose
 * parameters were streamed and are now resident), with one outlier damped. */
#define RECENT_WEIGHT 0.3

void recent_time(double *avg, double seconds)
{
    if (seconds <= 0) return;
    *avg = *avg > 0 ? *avg + RECENT_WEIGHT * (seconds - *avg) : seconds;
}

/* Whether j's circuit is being loaded where j needs it: into host memory, which its queued
 * partitions wait for, or onto a device or into a host copy of the parameters for the CPU,
 * which its made witnesses wait for. */
static bool circuit_loading(const cuzk_engine *e, const engine_job *j)
{
    const engine_circuit *c = j->circ;
    if (j->waiting_load) return true;
    if (!c) return false;
    if (j->state == CUZK_JOB_QUEUED) return c->host_loading;
    bool loading = c->params_loading;
    for (unsigned i = 0; i < e->ndev; i++) loading |= c->dev[i].loading;
    return loading;
}

static cuzk_job_stage stage_of(const cuzk_engine *e, const engine_job *j, unsigned on_devices)
{
    if (!engine_job_live(j)) return CUZK_STAGE_ENDED;
    if (j->finishing) return CUZK_STAGE_VERIFYING;
    if (on_devices) return CUZK_STAGE_PROVING;
    if (j->witnessing) return CUZK_STAGE_WITNESS;
    if (circuit_loading(e, j)) return CUZK_STAGE_LOADING;
    /* witnesses made and waiting for a device count as the witness stage */
    return j->state == CUZK_JOB_QUEUED ? CUZK_STAGE_QUEUED : CUZK_STAGE_WITNESS;
}

/* The expected time left of a live job (its progress's other fields filled), < 0 when its
 * circuit has no measured proof on this engine yet. The witnesses left are made one after
 * another (one lane), the proofs left spread over the devices proving it now (at least one);
 * whichever takes longer sets the time, less what its partitions on devices have run. */
static double time_left(const cuzk_engine *e, const engine_job *j, const cuzk_job_progress *p, double now)
{
    const engine_circuit *c = j->circ;
    if (!c || c->recent_prove_s <= 0) return -1;
    const double verify = c->recent_verify_s;
    if (p->stage == CUZK_STAGE_VERIFYING) return verify;
    const double n = p->devices ? (double)p->devices : 1.0, prove = c->recent_prove_s, witness = c->recent_witness_s;
    const unsigned unproved = p->partitions - p->proved, unwitnessed = p->partitions - p->witnessed;
    double witness_path = (double)unwitnessed * witness + (unproved ? prove / n : 0);
    double prove_path = (double)unproved * prove / n;
    double run = 0; /* what its partitions on devices have done already */
    for (unsigned i = 0; i < e->ndev; i++) {
        const engine_device *d = &e->dev[i];
        if (d->running_job != j->id) continue;
        double t = now - d->running_t;
        run += t < prove ? t : prove;
    }
    double left = (witness_path > prove_path ? witness_path : prove_path) - run / n;
    return (left > 0 ? left : 0) + verify;
}

void progress_of(cuzk_engine *e, engine_job *j, double now, cuzk_job_progress *out)
{
    ENGINE_LOCKED(e);
    memset(out, 0, sizeof *out);
    out->job_id = j->id;
    snprintf(out->request_id, sizeof out->request_id, "%s", j->request_id);
    out->kind = j->kind;
    out->priority = j->prio;
    out->state = j->state;
    if (j->circ) {
        snprintf(out->circuit, sizeof out->circuit, "%s", j->circ->id);
        out->partitions = j->plan.nparts;
    }
    out->proved = j->done_parts;
    out->witnessed = j->witnessed;
    for (unsigned i = 0; i < e->ndev; i++) {
        const engine_device *d = &e->dev[i];
        if (d->running_job != j->id) continue;
        out->devices++;
        int st = d->ordinal < 0 ? __atomic_load_n(&d->prove_stage, __ATOMIC_RELAXED) : CUZK_PROVE_STAGE_NONE;
        if (st && !out->prove_stage[0])
            snprintf(out->prove_stage, sizeof out->prove_stage, "%s", device_stage_name(st));
    }
    /* A job waits again after some stages (for a lane once its circuit is loaded, for a device
     * between two partitions, for a GPU's load after its first witnesses): it is shown in the
     * furthest stage it reached, so that a watcher never sees it step back. */
    cuzk_job_stage now_at = stage_of(e, j, out->devices);
    if (now_at > j->furthest) j->furthest = now_at;
    out->stage = j->furthest;
    bool live = engine_job_live(j);
    double end = live ? now : j->end_t;
    out->elapsed_s = end - j->submit_t;
    out->queue_s = (j->started ? j->start_t : end) - j->submit_t;
    out->left_s = live ? time_left(e, j, out, now) : 0;
    if (j->state == CUZK_JOB_FAILED || j->state == CUZK_JOB_CANCELLED)
        snprintf(out->error, sizeof out->error, "%.*s", (int)sizeof out->error - 1, j->error);
}

cuzk_status cuzk_engine_job_progress(cuzk_engine *e, uint64_t job_id, cuzk_job_progress *out)
{
    memset(out, 0, sizeof *out);
    cuzk_status st = engine_enter(e);
    if (st) return st;
    engine_prune_results(e);
    engine_job *j = find_job_locked(e, job_id);
    if (!j)
        st = cuzk_fail(CUZK_ENOTFOUND, "no job %llu (never made, or its result was dropped)",
                       (unsigned long long)job_id);
    else progress_of(e, j, cuzk_now(), out);
    engine_leave(e);
    return st;
}

/* Whether j is of the classes filter names. */
static bool listed(const engine_job *j, unsigned filter)
{
    if (j->state == CUZK_JOB_RUNNING) return filter & CUZK_JOBS_RUNNING;
    if (j->state == CUZK_JOB_QUEUED) return filter & CUZK_JOBS_QUEUED;
    return filter & CUZK_JOBS_ENDED;
}

cuzk_status cuzk_engine_jobs(cuzk_engine *e, unsigned filter, cuzk_job_progress *out, size_t max, size_t *n,
                             size_t *total)
{
    *n = 0;
    if (total) *total = 0;
    if (!(filter & CUZK_JOBS_ALL))
        return cuzk_fail(CUZK_EINVAL, "filter: %#x names no class of jobs (CUZK_JOBS_RUNNING, _QUEUED, _ENDED)",
                         filter);
    cuzk_status st = engine_enter(e);
    if (st) return st;
    engine_prune_results(e);
    double now = cuzk_now();
    size_t count = 0;
    engine_job *last = NULL;
    /* running, newest first (the list's order); the list's tail found on the way */
    for (engine_job *j = e->jobs; j; j = j->next) {
        last = j;
        if (!listed(j, filter)) continue;
        count++;
        if (j->state == CUZK_JOB_RUNNING && *n < max) progress_of(e, j, now, &out[(*n)++]);
    }
    /* queued, oldest first: the order they are served in within a priority */
    for (engine_job *j = last; j && *n < max; j = j->prev)
        if (j->state == CUZK_JOB_QUEUED && listed(j, filter)) progress_of(e, j, now, &out[(*n)++]);
    /* ended, most recently ended first */
    if (filter & CUZK_JOBS_ENDED) {
        size_t first = *n, room = max - *n, skip = e->nended > room ? e->nended - room : 0;
        engine_job *j = e->ended;
        for (; j && skip; skip--) j = j->ended_next;
        for (; j && *n < max; j = j->ended_next) progress_of(e, j, now, &out[(*n)++]);
        /* the ended list runs oldest first: reversed in place */
        for (size_t a = first, b = *n; b > a + 1; a++, b--) {
            cuzk_job_progress t = out[a];
            out[a] = out[b - 1];
            out[b - 1] = t;
        }
    }
    if (total) *total = count;
    engine_leave(e);
    return CUZK_OK;
}

void cuzk_job_progress_json(FILE *f, const cuzk_job_progress *p)
{
    fprintf(f, "{\"job_id\":%llu,\"request_id\":", (unsigned long long)p->job_id);
    cuzk_json_string(f, p->request_id);
    const char *kind = cuzk_kind_name(p->kind);
    fprintf(f, ",\"kind\":\"%s\",\"priority\":\"%s\",\"circuit\":", kind ? kind : "unknown",
            cuzk_priority_name(p->priority));
    cuzk_json_string(f, p->circuit);
    fprintf(f,
            ",\"state\":\"%s\",\"stage\":\"%s\",\"prove_stage\":\"%s\",\"partitions\":%u,\"proved\":%u,"
            "\"witnessed\":%u,\"devices\":%u,\"fraction_done\":%.4f,\"elapsed_s\":%.3f,\"queue_s\":%.3f,\"left_s\":",
            cuzk_job_state_name(p->state), cuzk_job_stage_name(p->stage), p->prove_stage, p->partitions, p->proved,
            p->witnessed, p->devices, p->partitions ? (double)p->proved / p->partitions : 0.0, p->elapsed_s,
            p->queue_s);
    if (p->left_s < 0) fputs("null", f);
    else fprintf(f, "%.3f", p->left_s);
    fputs(",\"error\":", f);
    cuzk_json_string(f, p->error);
    fputc('}', f);
}

cuzk_status cuzk_engine_job_json(cuzk_engine *e, const char *request_id, char **json)
{
    *json = NULL;
    uint64_t id = 0;
    cuzk_job_progress p;
    cuzk_status st = cuzk_engine_find(e, request_id, &id);
    if (!st) st = cuzk_engine_job_progress(e, id, &p);
    if (st) return st;
    size_t len = 0;
    FILE *f = open_memstream(json, &len);
    if (!f) return cuzk_fail(CUZK_ENOMEM, "out of memory");
    cuzk_job_progress_json(f, &p);
    if (fclose(f)) {
        free(*json);
        *json = NULL;
        return cuzk_fail(CUZK_ENOMEM, "out of memory");
    }
    return CUZK_OK;
}
