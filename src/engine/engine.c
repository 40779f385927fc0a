/* The engine object (include/cuzk/engine.h): create and destroy, submit, await, cancel, and the
 * result store. The scheduler, the threads and residency are in the files engine_internal.h
 * lists. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine_internal.h"

/* ---------------------------------------------------------------- jobs */
bool engine_job_live(const engine_job *j) { return j->state == CUZK_JOB_QUEUED || j->state == CUZK_JOB_RUNNING; }

void engine_job_fail(cuzk_engine *e, engine_job *j, job_fail_reason reason, const char *fmt, ...)
{
    ENGINE_LOCKED(e);
    queue_drop(e, j);
    if (j->failing) return; /* the first reason stays */
    j->failing = true;
    j->fail_reason = reason;
    cuzk_cancel_set(&j->cancel); /* its other partitions' work is wasted now: they stop early */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(j->error, sizeof j->error, fmt, ap);
    va_end(ap);
}

void engine_job_cancel(cuzk_engine *e, engine_job *j, const char *why)
{
    ENGINE_LOCKED(e);
    j->cancel_req = true;
    queue_drop(e, j);
    cuzk_cancel_set(&j->cancel);
    if (why && !j->error[0]) snprintf(j->error, sizeof j->error, "cancelled: %s", why);
    sched_drop_ready_of(e, j);
    if (!j->in_flight) engine_end_job(e, j, CUZK_JOB_CANCELLED);
}

/* The class a job competes in: its priority, raised one class per aging_s waited. */
int engine_rank(const cuzk_engine *e, const engine_job *j, double now)
{
    int r = (int)j->prio;
    if (e->cfg.aging_s && r < CUZK_PRIORITY_CRITICAL) {
        double waited = now - j->submit_t;
        int up = (int)(waited / e->cfg.aging_s);
        r = r + up > CUZK_PRIORITY_HIGH ? (r > CUZK_PRIORITY_HIGH ? r : CUZK_PRIORITY_HIGH) : r + up;
    }
    return r;
}

static void free_big_input(void *arg) { free(arg); }

/* Frees what a job holds beyond its result (input, parsed state, working arrays). Locked. */
static void job_release(cuzk_engine *e, engine_job *j)
{
    ENGINE_LOCKED(e);
    if (j->plan.free_state && j->plan.state) j->plan.free_state(j->plan.state);
    j->plan.state = NULL;
    free(j->plan.expect);
    j->plan.expect = NULL;
    input_release(e, j->input_charged);
    j->input_charged = 0;
    if (j->input) {
        /* a large input goes to the reclaimer: its free never sits on a proving thread */
        if (j->input_len >= (64u << 20)) reclaim_push(e, free_big_input, j->input, j->input_len, "a job's input");
        else free(j->input);
        j->input = NULL;
    }
    free(j->proofs);
    j->proofs = NULL;
    if (j->circ) {
        j->circ->refs--;
        j->circ->last_used = cuzk_now();
    }
}

/* Ends a job (locked): its result is fixed, waiters wake, its memory goes. */
void engine_end_job(cuzk_engine *e, engine_job *j, cuzk_job_state st)
{
    ENGINE_LOCKED(e);
    if (!engine_job_live(j)) return;
    int ki = cuzk_kind_index(j->kind);
    queue_drop(e, j);
    j->state = st;
    j->end_t = cuzk_now();
    if (!j->started) cuzk_span_end(j->tl, j->queue_span);
    cuzk_progress_finish(j->progress);
    j->progress = NULL;
    if (st == CUZK_JOB_CANCELLED && !j->error[0]) snprintf(j->error, sizeof j->error, "cancelled");
    if (st == CUZK_JOB_COMPLETED) e->completed[ki]++;
    else if (st == CUZK_JOB_FAILED) {
        e->failed[ki]++;
        e->failures[ki][j->fail_reason]++;
    } else e->cancelled[ki]++;
    int span = cuzk_span_begin_under(j->tl, -1, "release");
    job_release(e, j);
    cuzk_span_end(j->tl, span);
    j->timeline_json = cuzk_timeline_json(j->tl);
    stages_account(e, j->tl, j->submit_t, j->end_t, &j->stages);
    metrics_job_ended(e, j);
    if (e->cfg.job_log) job_log_write(e->cfg.job_log, j, e->cfg.test_params);
    e->queued_or_running--;
    jobs_ended(e, j);
    pthread_cond_broadcast(&j->ended_cv);
    pthread_cond_broadcast(&e->done_cv);
    pthread_cond_broadcast(&e->work_cv);
}

/* ---------------------------------------------------------------- create / destroy */
static uint64_t machine_memory(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
    return pages > 0 && psz > 0 ? (uint64_t)pages * (uint64_t)psz : (8ull << 30);
}

static char *dup_or_null(const char *s) { return s ? strdup(s) : NULL; }

/* Every GPU found (engine.gpus at most) with engine.gpu_contexts contexts each, then the CPU
 * workers. Contexts of one GPU share its memory: each gets an equal part of the budget. */
static cuzk_status open_devices(cuzk_engine *e)
{
    int found = e->cfg.gpus ? cuzk_gpu_device_count() : 0;
    unsigned want = found < 0 ? 0 : (unsigned)found;
    if (want > e->cfg.gpus) want = e->cfg.gpus;
    unsigned ctxs = e->cfg.gpu_contexts ? e->cfg.gpu_contexts : 1;
    if (ctxs > CUZK_ENGINE_MAX_CONTEXTS) ctxs = CUZK_ENGINE_MAX_CONTEXTS;
    if (want * ctxs > CUZK_ENGINE_MAX_DEVICES) want = CUZK_ENGINE_MAX_DEVICES / ctxs;
    for (unsigned i = 0; i < want; i++)
        for (unsigned k = 0; k < ctxs; k++) {
            engine_device *d = &e->dev[e->ndev];
            memset(d, 0, sizeof *d);
            d->index = (int)e->ndev;
            d->ordinal = (int)i;
            d->context = k;
            e->ndev++;
            char ctx[48] = "";
            if (ctxs > 1) snprintf(ctx, sizeof ctx, " (context %u of %u)", k + 1, ctxs);
            if (ctxs > 1) snprintf(d->track, sizeof d->track, "GPU %u context %u", i, k + 1);
            else snprintf(d->track, sizeof d->track, "GPU %u", i);
            if (cuzk_gpu_device_open(&d->gpu, (int)i, &e->gpu_cfg)) {
                /* reported in status, not used */
                snprintf(d->name, sizeof d->name, "GPU %u%s", i, ctx);
                snprintf(d->out_reason, sizeof d->out_reason, "could not open: %s", cuzk_last_error());
                d->in_service = false;
                continue;
            }
            char name[sizeof d->name];
            cuzk_gpu_describe(d->gpu, name, sizeof name);
            snprintf(d->name, sizeof d->name, "%.*s%s", (int)(sizeof d->name - sizeof ctx), name, ctx);
            size_t fr = 0, total = 0;
            if (cuzk_gpu_mem_info(d->gpu, &fr, &total)) total = 0;
            d->mem_total = total;
            /* from the memory free now: another process's share is not ours to place into */
            uint64_t b = e->cfg.device_budget, reserve = e->cfg.device_reserve * ctxs;
            if (!b) b = fr > reserve ? fr - reserve : fr / 2;
            d->budget = b / ctxs;
            d->in_service = true;
        }
    /* the CPU backend: always present, proving when asked to or when no GPU serves */
    unsigned workers = e->cfg.cpu_workers ? e->cfg.cpu_workers : 1;
    if (workers > CUZK_ENGINE_MAX_CPU_WORKERS) workers = CUZK_ENGINE_MAX_CPU_WORKERS;
    e->cpu_dev = (int)e->ndev;
    for (unsigned k = 0; k < workers; k++) {
        engine_device *c = &e->dev[e->ndev];
        memset(c, 0, sizeof *c);
        c->index = (int)e->ndev;
        c->ordinal = -1;
        c->context = k;
        if (workers > 1) snprintf(c->track, sizeof c->track, "CPU worker %u", k + 1);
        else snprintf(c->track, sizeof c->track, "CPU");
        if (workers > 1)
            snprintf(c->name, sizeof c->name, "CPU backend worker %u of %u (%u threads, shared)", k + 1, workers,
                     cuzk_pool_size(e->lanes[0].pool));
        else snprintf(c->name, sizeof c->name, "CPU backend (%u threads)", cuzk_pool_size(e->lanes[0].pool));
        c->in_service = true;
        c->budget = 0;
        e->ndev++;
    }
    e->cpu_fallback = !e->cfg.cpu_worker;
    return CUZK_OK;
}

static cuzk_status reserve_slots(cuzk_engine *e)
{
    unsigned gpus = 0;
    for (unsigned i = 0; i < e->ndev; i++) gpus += e->dev[i].ordinal >= 0 && e->dev[i].in_service;
    /* by default one more per GPU, which the lanes fill only for a circuit a GPU proves in
     * batches (a batch leaves one buffer to the lanes and one to urgent work) */
    const unsigned batch_only = e->cfg.witness_buffers ? 0 : gpus;
    unsigned n = e->cfg.witness_buffers ? e->cfg.witness_buffers : (gpus ? gpus : 1) + 2 + batch_only;
    if (n < 2) n = 2;
    e->slots = calloc(n, sizeof *e->slots);
    if (!e->slots) return cuzk_fail(CUZK_ENOMEM, "out of memory");
    e->nslots = n;
    for (unsigned i = 0; i < n; i++) e->slots[i].abc = -1;
    for (unsigned i = n - 1 - batch_only; i < n - 1; i++) e->slots[i].batch_only = true;
    e->slots[n - 1].urgent = true;
    cuzk_status st = abc_pool_create(e);
    if (st) return st;
    if (!e->cfg.witness_buffer_bytes) return CUZK_OK;
    /* reserved and page-locked once, here, so that no proof waits for it later */
    size_t elems = (size_t)(e->cfg.witness_buffer_bytes / sizeof(cuzk_fr));
    for (unsigned i = 0; i < n; i++) {
        witness_slot *s = &e->slots[i];
        size_t ni = 1u << 16, na = elems > ni ? elems - ni : 1;
        st = cuzk_witness_reserve(&s->w, ni, na);
        if (st)
            return cuzk_fail_context(st, "reserving witness buffer %u of %llu bytes (engine.witness_buffer_bytes)", i,
                                     (unsigned long long)e->cfg.witness_buffer_bytes);
        buffers_charge(e, (s->w.input_cap + s->w.aux_cap) * sizeof(cuzk_fr));
        if (gpus && !cuzk_gpu_host_register(s->w.input, s->w.input_cap * sizeof(cuzk_fr))) {
            s->pinned_in = s->w.input;
            s->pinned_in_bytes = s->w.input_cap * sizeof(cuzk_fr);
        }
        if (gpus && !cuzk_gpu_host_register(s->w.aux, s->w.aux_cap * sizeof(cuzk_fr))) {
            s->pinned_aux = s->w.aux;
            s->pinned_aux_bytes = s->w.aux_cap * sizeof(cuzk_fr);
        }
        e->pinned_bytes += s->pinned_in_bytes + s->pinned_aux_bytes;
    }
    return CUZK_OK;
}

cuzk_status cuzk_engine_create(cuzk_engine **out, const cuzk_engine_config *cfg, const cuzk_gpu_config *gpu_cfg)
{
    *out = NULL;
    cuzk_engine *e = calloc(1, sizeof *e);
    if (!e) return cuzk_fail(CUZK_ENOMEM, "out of memory");
    if (cfg) e->cfg = *cfg;
    else cuzk_engine_config_default(&e->cfg);
    if (gpu_cfg) e->gpu_cfg = *gpu_cfg;
    else cuzk_gpu_config_default(&e->gpu_cfg);
    if (!e->cfg.result_max) e->cfg.result_max = 1;
    if (!e->cfg.max_queued) e->cfg.max_queued = 1;
    if (!e->cfg.max_input_bytes) e->cfg.max_input_bytes = 1;
    e->param_dir = dup_or_null(e->cfg.param_dir);
    e->cache_dir = dup_or_null(e->cfg.cache_dir);
    e->cfg.param_dir = e->param_dir;
    e->cfg.cache_dir = e->cache_dir;
    /* the mapped placement's scratch file goes beside the engine's other files unless named */
    if (!e->gpu_cfg.stream_file_dir[0] && e->cache_dir && strlen(e->cache_dir) < sizeof e->gpu_cfg.stream_file_dir)
        snprintf(e->gpu_cfg.stream_file_dir, sizeof e->gpu_cfg.stream_file_dir, "%s", e->cache_dir);
    e->start_t = cuzk_now();
    e->next_id = 1;
    e->cpu_dev = -1;
    engine_mutex_init(&e->mu);
    pthread_cond_init(&e->work_cv, NULL);
    pthread_cond_init(&e->done_cv, NULL);
    pthread_cond_init(&e->finish_cv, NULL);
    pthread_cond_init(&e->reclaim_cv, NULL);
    e->host_budget = e->cfg.host_budget ? e->cfg.host_budget : machine_memory() / 10 * 8;

    cuzk_status st = jobs_init(e);
    /* pools: the bulk lane's (the caller's or our own) and the urgent lane's */
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    if (ncpu < 1) ncpu = 1;
    if (!st && e->cfg.pool) e->lanes[0].pool = e->cfg.pool;
    else if (!st && !(st = cuzk_pool_create(&e->lanes[0].pool, e->cfg.threads))) e->lanes[0].own_pool = true;
    unsigned ut = e->cfg.urgent_threads ? e->cfg.urgent_threads : (unsigned)(ncpu / 4 ? ncpu / 4 : 1);
    if (!st && !(st = cuzk_pool_create(&e->lanes[1].pool, ut))) e->lanes[1].own_pool = true;
    e->lanes[1].urgent = true;
    if (!st) st = open_devices(e);
    if (!st) {
        engine_mutex_lock(&e->mu); /* no other thread yet: the lock is for the counts' checks */
        st = reserve_slots(e);
        engine_mutex_unlock(&e->mu);
    }
    /* the placements' batches no larger than the lanes can fill (batch_room): room for more would
     * cost them chunks or windows for proofs that never come */
    const unsigned fill = !st && e->nslots > 3 ? e->nslots - 2 : 1,
                   most = fill < ENGINE_BATCH_MAX ? fill : ENGINE_BATCH_MAX;
    if (!e->gpu_cfg.stream_batch || e->gpu_cfg.stream_batch > most) e->gpu_cfg.stream_batch = most;
    if (!st) st = lanes_start(e);
    if (st) {
        char msg[1024];
        snprintf(msg, sizeof msg, "%s", cuzk_last_error());
        cuzk_engine_destroy(e);
        return cuzk_fail(st, "starting the engine: %s", msg);
    }
    *out = e;
    return CUZK_OK;
}

static void join_threads(cuzk_engine *e)
{
    for (int i = 0; i < 2; i++)
        if (e->lanes[i].started) pthread_join(e->lanes[i].thread, NULL);
    for (unsigned i = 0; i < e->ndev; i++)
        if (e->dev[i].thread_started) pthread_join(e->dev[i].thread, NULL);
    if (e->finisher_started) pthread_join(e->finisher, NULL);
    res_join_loaders(e, true);
    /* the reclaimer last: everything before may hand it memory */
    engine_mutex_lock(&e->mu);
    e->reclaim_stop = true;
    pthread_cond_broadcast(&e->reclaim_cv);
    engine_mutex_unlock(&e->mu);
    if (e->reclaimer_started) pthread_join(e->reclaimer, NULL);
}

void cuzk_engine_destroy(cuzk_engine *e)
{
    if (!e) return;
    engine_mutex_lock(&e->mu);
    e->stopping = true;
    res_stop_loaders(e); /* a load ends at its next piece, not at its end */
    for (engine_job *j = e->jobs; j; j = j->next) {
        if (engine_job_live(j)) engine_job_cancel(e, j, "the engine is shutting down");
        pthread_cond_broadcast(&j->ended_cv); /* its waiters see stopping */
    }
    pthread_cond_broadcast(&e->work_cv);
    pthread_cond_broadcast(&e->done_cv);
    pthread_cond_broadcast(&e->finish_cv);
    /* partitions on the devices stop at their next cancel check; their jobs end as they do */
    while (e->callers) engine_mutex_wait(&e->mu, &e->done_cv);
    engine_mutex_unlock(&e->mu);
    join_threads(e);
    /* every thread has ended: the lock is taken for the checks of the functions called below */
    engine_mutex_lock(&e->mu);
    for (engine_job *j = e->jobs; j; j = j->next)
        if (engine_job_live(j)) engine_end_job(e, j, CUZK_JOB_CANCELLED);
    for (ready_item *r = e->ready, *n; r; r = n) {
        n = r->next;
        cuzk_timeline_destroy(r->tl);
        free(r);
    }
    /* reclaim what the ends above queued, on this thread */
    for (reclaim_item *r = e->reclaim_q, *n; r; r = n) {
        n = r->next;
        r->fn(r->arg);
        free(r);
    }
    jobs_free_all(e);
    res_free_all(e);
    for (unsigned i = 0; i < e->nslots; i++) {
        witness_slot *s = &e->slots[i];
        if (s->pinned_in) cuzk_gpu_host_unregister(s->pinned_in);
        if (s->pinned_aux) cuzk_gpu_host_unregister(s->pinned_aux);
        cuzk_witness_free(&s->w);
    }
    free(e->slots);
    abc_pool_free(e);
    for (unsigned i = 0; i < e->ndev; i++) {
        engine_device *d = &e->dev[i];
        cuzk_groth16_workspace_free(&d->ws);
        for (int k = 0; k < 3; k++) cuzk_big_free(d->abc[k], d->abc_n * sizeof(cuzk_fr));
        cuzk_gpu_device_close(d->gpu);
    }
    for (int i = 0; i < 2; i++)
        if (e->lanes[i].own_pool) cuzk_pool_destroy(e->lanes[i].pool);
    engine_mutex_unlock(&e->mu);
    engine_mutex_destroy(&e->mu);
    pthread_cond_destroy(&e->work_cv);
    pthread_cond_destroy(&e->done_cv);
    pthread_cond_destroy(&e->finish_cv);
    pthread_cond_destroy(&e->reclaim_cv);
    free(e->param_dir);
    free(e->cache_dir);
    free(e);
}

/* ---------------------------------------------------------------- submit */
static cuzk_priority default_priority(cuzk_job_kind k)
{
    switch (k) {
    case CUZK_KIND_WINNING_POST: return CUZK_PRIORITY_CRITICAL;
    case CUZK_KIND_WINDOW_POST: return CUZK_PRIORITY_HIGH;
    default: return CUZK_PRIORITY_NORMAL;
    }
}

/* The CIRCUIT kind: partition k is the registered circuit with seed + k. */
static cuzk_status circuit_open(engine_job *j, unsigned k, cuzk_circuit **out)
{
    const cuzk_engine_circuit *r = &j->circ->reg;
    return r->open(r->ctx, j->input, j->input_len, j->seed + k, k, out);
}

cuzk_status engine_enter(cuzk_engine *e)
{
    engine_mutex_lock(&e->mu);
    if (e->stopping) {
        engine_mutex_unlock(&e->mu);
        return cuzk_fail(CUZK_ESHUTDOWN, "the engine is shutting down");
    }
    e->callers++;
    return CUZK_OK;
}

void engine_leave(cuzk_engine *e)
{
    ENGINE_LOCKED(e);
    e->callers--;
    if (!e->callers) pthread_cond_broadcast(&e->done_cv);
    engine_mutex_unlock(&e->mu);
}

/* Checks the job's input into out (on the caller's thread, unlocked: nothing of the job is
 * written here). A failure is the job's (FAILED with the reason), not the call's. */
static cuzk_status check_input(const cuzk_job_request *req, const uint8_t *input, size_t input_len, job_check *out)
{
    switch (req->kind) {
    case CUZK_KIND_POREP: return porep_plan(req, input, input_len, out);
    case CUZK_KIND_WINDOW_POST:
    case CUZK_KIND_WINNING_POST: return post_plan(req, input, input_len, out);
    case CUZK_KIND_SNAP: return snap_plan(req, input, input_len, out);
    case CUZK_KIND_CIRCUIT:
        snprintf(out->circuit_id, sizeof out->circuit_id, "%s", req->circuit);
        out->plan.nparts = req->partitions ? req->partitions : 1;
        out->plan.open = circuit_open;
        return CUZK_OK;
    default:
        return cuzk_fail(CUZK_EUNSUPPORTED,
                         "unsupported proof kind %s: this build does not prove it yet (its circuit is not built)",
                         cuzk_kind_name(req->kind));
    }
}

/* The job a request joins (locked): the one with its id and digest that is queued, running or
 * COMPLETED and not being cancelled; NULL when none (a new job is made). */
static engine_job *joinable_job(cuzk_engine *e, const char *request_id, const uint8_t digest[32])
{
    ENGINE_LOCKED(e);
    for (engine_job *j = jobs_named(e, request_id, NULL); j; j = jobs_named(e, request_id, j)) {
        if (memcmp(j->digest, digest, sizeof j->digest)) continue;
        bool ok = engine_job_live(j) ? !j->cancel_req && !j->failing : j->state == CUZK_JOB_COMPLETED;
        if (ok) return j;
    }
    return NULL;
}

/* The job's circuit by the check's plan: a built-in one (made on first use) or a registered one
 * (locked); the job fails when there is none. */
static void attach_circuit(cuzk_engine *e, engine_job *j, const char *circuit_id)
{
    ENGINE_LOCKED(e);
    engine_circuit *c = NULL;
    if (j->plan.builtin) {
        if (res_get_builtin(e, j->plan.builtin, j->plan.proof, &c))
            engine_job_fail(e, j, FAIL_INPUT, "%s", cuzk_last_error());
    } else if (!(c = res_find(e, circuit_id))) {
        engine_job_fail(e, j, FAIL_INPUT, "circuit '%s' is not registered", circuit_id);
    }
    if (c) {
        j->circ = c;
        c->refs++;
    }
}

/* The event "input checked" (locked): the check's plan becomes the job's, or the job fails with
 * why; the hold the submit took while checking is given back; the job then ends (failed, or
 * cancelled while it was checked or by the engine's shutdown) or is queued. */
static void input_checked(cuzk_engine *e, engine_job *j, const job_check *chk, const char *why)
{
    ENGINE_LOCKED(e);
    job_unhold(e, j);
    if (why[0]) {
        engine_job_fail(e, j, FAIL_INPUT, "%s", why);
    } else {
        j->plan = chk->plan;
        memcpy(j->note, chk->note, sizeof j->note);
        /* charged from now on: what the job keeps (its input's copy, what its plan holds), not
         * the request's input, which stood for it while it was checked */
        uint64_t keep = (j->input ? j->input_len : 0) + j->plan.held_bytes;
        input_release(e, j->input_charged);
        input_charge(e, keep);
        j->input_charged = keep;
    }
    bool go = !j->failing && !j->cancel_req && !e->stopping;
    if (go) attach_circuit(e, j, chk->circuit_id);
    if (go && !j->failing && !(j->proofs = calloc(j->plan.nparts, sizeof *j->proofs)))
        engine_job_fail(e, j, FAIL_OTHER, "out of memory for %u partitions", j->plan.nparts);
    if (go && !j->failing && !queue_add(e, j)) engine_job_fail(e, j, FAIL_OTHER, "out of memory for the queue");
    if (e->stopping || j->cancel_req) {
        engine_end_job(e, j, CUZK_JOB_CANCELLED);
    } else if (j->failing) {
        engine_end_job(e, j, CUZK_JOB_FAILED);
    } else {
        j->queue_span = cuzk_span_begin_under(j->tl, -1, "queue wait");
        sched_job_queued(e, j);
    }
}

/* Whether a new job of req may be queued now (locked): the queue's bound, the host budget for
 * its input, a circuit job's circuit. CUZK_OK, or the refusal. */
static cuzk_status admit(cuzk_engine *e, const cuzk_job_request *req, size_t input_len)
{
    ENGINE_LOCKED(e);
    if (e->queued_or_running >= e->cfg.max_queued)
        return cuzk_fail(CUZK_EBUSY, "too many jobs: %u queued or running (engine.max_queued)", e->queued_or_running);
    /* a job's input (its copy, or a PoRep's parsed C1) is held until the job ends, charged at the
     * request's input size until its check says what it keeps; the inputs of the live jobs and
     * the witness buffers (what evicting idle circuits cannot free) must fit the host budget, or
     * the request is refused (it may fit once jobs end) instead of memory growing with every
     * request held */
    uint64_t held = e->inputs_bytes + res_fixed_bytes(e);
    if (held + input_len > e->host_budget)
        return cuzk_fail(CUZK_EBUDGET,
                         "input: %zu bytes do not fit the host budget now: the queued and running jobs' inputs "
                         "and the witness buffers hold %llu of %llu bytes (engine.host_budget)",
                         input_len, (unsigned long long)held, (unsigned long long)e->host_budget);
    if (req->kind == CUZK_KIND_CIRCUIT) {
        engine_circuit *c = res_find(e, req->circuit);
        if (!c || c->builtin)
            return cuzk_fail(CUZK_ENOTFOUND, "circuit: '%s' is not registered with the engine", req->circuit);
    }
    return CUZK_OK;
}

/* The event "job submitted" (locked): a QUEUED job of req with its input buffer when it keeps
 * one (filled by the caller, unlocked), listed, counted and charged input_len; held while its
 * input is checked, so that a retry of its request id joins it meanwhile and it cannot end.
 * NULL when out of memory. */
static engine_job *job_submitted(cuzk_engine *e, const cuzk_job_request *req, size_t input_len,
                                 const uint8_t digest[32])
{
    ENGINE_LOCKED(e);
    engine_job *j = calloc(1, sizeof *j);
    bool keep = input_len && engine_request_keeps_input(req);
    uint8_t *input = keep ? malloc(input_len) : NULL;
    if (!j || (keep && !input)) {
        free(j);
        free(input);
        return NULL;
    }
    j->id = e->next_id++;
    j->seq = e->next_seq++;
    j->kind = req->kind;
    j->prio = req->priority ? req->priority : default_priority(req->kind);
    j->seed = req->seed;
    j->miner_id = req->miner_id;
    j->sector_number = req->sector_number;
    j->submit_t = cuzk_now();
    j->state = CUZK_JOB_QUEUED;
    if (digest) {
        snprintf(j->request_id, sizeof j->request_id, "%s", req->request_id);
        memcpy(j->digest, digest, sizeof j->digest);
        j->named = ++e->next_name;
    }
    char name[96];
    snprintf(name, sizeof name, "job %llu (%s)", (unsigned long long)j->id, cuzk_kind_name(req->kind));
    j->tl = cuzk_timeline_create(name);
    pthread_cond_init(&j->ended_cv, NULL);
    j->queue_span = -1;
    job_hold(e, j);
    jobs_add(e, j);
    e->queued_or_running++;
    e->submitted[cuzk_kind_index(req->kind)]++;
    j->input = input;
    j->input_len = keep ? input_len : 0;
    input_charge(e, input_len);
    j->input_charged = input_len;
    return j;
}

cuzk_status cuzk_engine_submit(cuzk_engine *e, const cuzk_job_request *req, uint64_t *job_id, bool *joined)
{
    *job_id = 0;
    if (joined) *joined = false;
    cuzk_status st = cuzk_engine_check_request(e, req);
    if (st) return st;
    bool named = req->request_id && req->request_id[0];
    uint8_t digest[32] = {0};
    if (named) engine_request_digest(req, digest); /* unlocked: a 50 MB C1 takes tens of ms */
    if ((st = engine_enter(e))) return st;
    engine_job *same = named ? joinable_job(e, req->request_id, digest) : NULL;
    if (same) {
        same->named = ++e->next_name;
        *job_id = same->id;
        if (joined) *joined = true;
        engine_leave(e);
        return CUZK_OK;
    }
    engine_job *j = NULL;
    size_t input_len = engine_request_input_bytes(req);
    if (!(st = admit(e, req, input_len)) && !(j = job_submitted(e, req, input_len, named ? digest : NULL)))
        st = cuzk_fail(CUZK_ENOMEM, "out of memory for a job of %zu input bytes", input_len);
    if (st) {
        engine_leave(e);
        return st;
    }
    engine_mutex_unlock(&e->mu);

    /* the input copied (where the job keeps it) and checked on the caller's thread, into objects
     * of its own; a PoRep's C1 is parsed from the caller's bytes, which the call lends until it
     * returns, so no copy of its text (tens of MB, any amount of whitespace) outlives the call */
    if (j->input) engine_request_copy_input(req, j->input);
    job_check chk = {0};
    char why[1024] = "";
    int span = cuzk_span_begin(j->tl, "check input");
    if (check_input(req, j->input ? j->input : req->input, input_len, &chk))
        snprintf(why, sizeof why, "%s", cuzk_last_error());
    cuzk_span_end(j->tl, span);

    engine_mutex_lock(&e->mu);
    *job_id = j->id;
    input_checked(e, j, &chk, why);
    engine_prune_results(e);
    engine_leave(e);
    return CUZK_OK;
}

/* ---------------------------------------------------------------- await / cancel */
static cuzk_status fill_result(const engine_job *j, cuzk_job_result *r)
{
    memset(r, 0, sizeof *r);
    r->state = j->state;
    r->kind = j->kind;
    r->priority = j->prio;
    if (j->circ) snprintf(r->circuit, sizeof r->circuit, "%s", j->circ->id);
    r->partitions = j->circ ? j->plan.nparts : 0; /* set once the input is checked */
    snprintf(r->error, sizeof r->error, "%s", j->error);
    r->queue_s = j->started ? j->start_t - j->submit_t : (engine_job_live(j) ? cuzk_now() : j->end_t) - j->submit_t;
    r->run_s = j->started ? (engine_job_live(j) ? cuzk_now() : j->end_t) - j->start_t : 0;
    snprintf(r->note, sizeof r->note, "%s", j->note);
    if (!engine_job_live(j)) {
        r->load_s = j->stages.seconds[STAGE_LOAD];
        r->witness_s = j->stages.seconds[STAGE_WITNESS];
        r->prove_s = j->stages.seconds[STAGE_PROVE];
        r->verify_s = j->stages.seconds[STAGE_VERIFY];
        r->wall_wait_s = j->stages.wall[JOB_STAGES];
        r->wall_load_s = j->stages.wall[STAGE_LOAD];
        r->wall_witness_s = j->stages.wall[STAGE_WITNESS];
        r->wall_prove_s = j->stages.wall[STAGE_PROVE];
        r->wall_verify_s = j->stages.wall[STAGE_VERIFY];
        if (j->timeline_json && !(r->timeline_json = strdup(j->timeline_json)))
            return cuzk_fail(CUZK_ENOMEM, "out of memory");
    }
    if (j->state != CUZK_JOB_COMPLETED) return CUZK_OK;
    r->verified = j->verified;
    r->proof_len = (size_t)j->plan.nparts * CUZK_GROTH16_PROOF_BYTES;
    r->ninputs = j->circ ? j->circ->ninputs : 0;
    r->proof = malloc(r->proof_len);
    size_t nin = (size_t)j->plan.nparts * r->ninputs;
    r->inputs = malloc(nin * CUZK_INPUT_BYTES + 1);
    if (!r->proof || !r->inputs) {
        cuzk_job_result_free(r);
        return cuzk_fail(CUZK_ENOMEM, "out of memory");
    }
    memcpy(r->proof, j->proof_bytes, r->proof_len);
    for (size_t i = 0; i < nin; i++) cuzk_fr_to_bytes_le(r->inputs + i * CUZK_INPUT_BYTES, &j->inputs[i]);
    return CUZK_OK;
}

void cuzk_job_result_free(cuzk_job_result *r)
{
    if (!r) return;
    free(r->proof);
    free(r->inputs);
    free(r->timeline_json);
    r->proof = NULL;
    r->inputs = NULL;
    r->timeline_json = NULL;
}

void engine_deadline_of(struct timespec *ts, double timeout_s)
{
    clock_gettime(CLOCK_REALTIME, ts);
    double t = (double)ts->tv_sec + ts->tv_nsec * 1e-9 + timeout_s;
    ts->tv_sec = (time_t)t;
    ts->tv_nsec = (long)((t - (double)ts->tv_sec) * 1e9);
}

cuzk_status cuzk_engine_await_until(cuzk_engine *e, uint64_t job_id, double timeout_s, const cuzk_cancel *stop,
                                    cuzk_job_result *r)
{
    memset(r, 0, sizeof *r);
    cuzk_status st = engine_enter(e);
    if (st) return st;
    engine_prune_results(e);
    struct timespec dl;
    if (timeout_s >= 0) engine_deadline_of(&dl, timeout_s);
    engine_job *j = find_job_locked(e, job_id);
    if (j) {
        /* the job's own condition: woken by its end, cuzk_engine_wake and the shutdown only */
        j->waiters++;
        while (engine_job_live(j) && !e->stopping && !cuzk_cancel_requested(stop)) {
            if (timeout_s < 0) engine_mutex_wait(&e->mu, &j->ended_cv);
            /* a poll (0 s) does not sleep: a timed wait already past its deadline still costs
             * the kernel's timer slack, tens of microseconds */
            else if (timeout_s == 0 || !engine_mutex_wait_until(&e->mu, &j->ended_cv, &dl)) break;
        }
        j->waiters--;
    }
    if (!j)
        st = cuzk_fail(CUZK_ENOTFOUND, "no job %llu (never submitted, or its result was dropped)",
                       (unsigned long long)job_id);
    else if (engine_job_live(j)) {
        st = fill_result(j, r);
        /* the engine is going: the job ends cancelled, whatever else it is now */
        r->state = e->stopping ? CUZK_JOB_CANCELLED : CUZK_JOB_TIMEOUT;
        if (e->stopping) snprintf(r->error, sizeof r->error, "cancelled: the engine is shutting down");
    } else {
        st = fill_result(j, r);
    }
    engine_leave(e);
    return st;
}

cuzk_status cuzk_engine_await(cuzk_engine *e, uint64_t job_id, double timeout_s, cuzk_job_result *r)
{
    return cuzk_engine_await_until(e, job_id, timeout_s, NULL, r);
}

void cuzk_engine_wake(cuzk_engine *e)
{
    if (engine_enter(e)) {
        cuzk_clear_error();
        return;
    }
    /* under the lock: a waiter between its check of the token and its sleep cannot miss this */
    for (engine_job *j = e->jobs; j; j = j->next)
        if (j->waiters) pthread_cond_broadcast(&j->ended_cv);
    engine_leave(e);
}

void cuzk_engine_set_test_hook(cuzk_engine *e, cuzk_engine_partition_hook hook, void *ctx)
{
    engine_mutex_lock(&e->mu);
    e->test_hook = hook;
    e->test_hook_ctx = ctx;
    engine_mutex_unlock(&e->mu);
}

double cuzk_engine_time_pick(cuzk_engine *e, bool urgent)
{
    if (engine_enter(e)) {
        cuzk_clear_error();
        return -1;
    }
    int slot, abc;
    double t0 = cuzk_now();
    (void)sched_pick_witness(e, urgent, &slot, &abc);
    double t = cuzk_now() - t0;
    engine_leave(e);
    return t;
}

void cuzk_engine_set_load_hook(cuzk_engine *e, cuzk_engine_load_hook hook, void *ctx)
{
    engine_mutex_lock(&e->mu);
    e->load_hook = hook;
    e->load_hook_ctx = ctx;
    engine_mutex_unlock(&e->mu);
}

unsigned cuzk_engine_cancel_loads(cuzk_engine *e)
{
    if (engine_enter(e)) {
        cuzk_clear_error();
        return 0;
    }
    unsigned n = res_stop_loaders(e);
    engine_leave(e);
    return n;
}

void cuzk_engine_job_counts(cuzk_engine *e, unsigned *queued, unsigned *running)
{
    *queued = *running = 0;
    if (engine_enter(e)) {
        cuzk_clear_error();
        return;
    }
    for (const engine_job *j = e->jobs; j; j = j->next) {
        *queued += j->state == CUZK_JOB_QUEUED;
        *running += j->state == CUZK_JOB_RUNNING;
    }
    engine_leave(e);
}

cuzk_status cuzk_engine_cancel(cuzk_engine *e, uint64_t job_id, bool *was_running)
{
    *was_running = false;
    cuzk_status st = engine_enter(e);
    if (st) return st;
    engine_prune_results(e);
    engine_job *j = find_job_locked(e, job_id);
    if (!j) st = cuzk_fail(CUZK_ENOTFOUND, "no job %llu", (unsigned long long)job_id);
    else if (engine_job_live(j)) {
        *was_running = j->state == CUZK_JOB_RUNNING;
        engine_job_cancel(e, j, NULL);
    }
    engine_leave(e);
    return st;
}

cuzk_status cuzk_engine_find(cuzk_engine *e, const char *request_id, uint64_t *job_id)
{
    *job_id = 0;
    if (!request_id || !request_id[0]) return cuzk_fail(CUZK_EINVAL, "an empty request id names no job");
    cuzk_status st = engine_enter(e);
    if (st) return st;
    engine_prune_results(e);
    /* the id names the job most recently submitted or joined under it */
    uint64_t newest = 0;
    for (engine_job *j = jobs_named(e, request_id, NULL); j; j = jobs_named(e, request_id, j))
        if (j->named > newest) {
            newest = j->named;
            *job_id = j->id;
        }
    if (!*job_id)
        st = cuzk_fail(CUZK_ENOTFOUND, "no job '%s' (never submitted, or its result was dropped)", request_id);
    engine_leave(e);
    return st;
}

unsigned cuzk_engine_cancel_all(cuzk_engine *e, const char *why)
{
    if (engine_enter(e)) {
        cuzk_clear_error();
        return 0;
    }
    unsigned n = 0;
    for (engine_job *j = e->jobs; j; j = j->next) {
        if (!engine_job_live(j)) continue;
        n++;
        engine_job_cancel(e, j, why);
    }
    pthread_cond_broadcast(&e->work_cv);
    engine_leave(e);
    return n;
}
