/* The engine's threads: two witness lanes (bulk work on the main pool; HIGH and CRITICAL work
 * at once on a small pool of its own, so an urgent witness never waits for a bulk one), one
 * worker per device (each GPU, and the CPU backend), and the finisher, which verifies a job's
 * proofs in one batch before anything is returned. Witnesses are made ahead of the devices
 * into the engine's reused buffers; a device takes the best made witness at each partition
 * boundary. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"

/* ---------------------------------------------------------------- witness lanes */
/* Grows a buffer for ni inputs and na aux, page-locking it once when GPUs prove (unlocked:
 * the slot is this lane's). */
static cuzk_status slot_fit(witness_slot *s, size_t ni, size_t na, bool pin, cuzk_timeline *tl, uint64_t *grown,
                            int64_t *pinned)
{
    *grown = 0;
    *pinned = 0;
    if (s->w.input_cap >= ni && s->w.aux_cap >= na) return CUZK_OK;
    *pinned = -(int64_t)(s->pinned_in_bytes + s->pinned_aux_bytes);
    int span = cuzk_span_begin(tl, pin ? "grow and page-lock a witness buffer (once)" : "grow a witness buffer (once)");
    if (s->pinned_in) cuzk_gpu_host_unregister(s->pinned_in);
    if (s->pinned_aux) cuzk_gpu_host_unregister(s->pinned_aux);
    s->pinned_in = s->pinned_aux = NULL;
    s->pinned_in_bytes = s->pinned_aux_bytes = 0;
    size_t before = s->w.input_cap + s->w.aux_cap;
    cuzk_status st =
        cuzk_witness_reserve(&s->w, ni > s->w.input_cap ? ni : s->w.input_cap, na > s->w.aux_cap ? na : s->w.aux_cap);
    *grown = (uint64_t)(s->w.input_cap + s->w.aux_cap - before) * sizeof(cuzk_fr);
    if (!st && pin) {
        if (!cuzk_gpu_host_register(s->w.input, s->w.input_cap * sizeof(cuzk_fr))) {
            s->pinned_in = s->w.input;
            s->pinned_in_bytes = s->w.input_cap * sizeof(cuzk_fr);
        }
        if (!cuzk_gpu_host_register(s->w.aux, s->w.aux_cap * sizeof(cuzk_fr))) {
            s->pinned_aux = s->w.aux;
            s->pinned_aux_bytes = s->w.aux_cap * sizeof(cuzk_fr);
        }
    }
    *pinned += (int64_t)(s->pinned_in_bytes + s->pinned_aux_bytes);
    cuzk_span_end(tl, span);
    return st;
}

static bool any_gpu(const cuzk_engine *e)
{
    for (unsigned i = 0; i < e->ndev; i++)
        if (e->dev[i].ordinal >= 0 && e->dev[i].in_service) return true;
    return false;
}

/* The GPU a made witness is copied to ahead of its proof: one where the circuit is resident
 * with its matrices, with the fewest witnesses already bound to it (locked). -1: none. */
static int prefetch_target(cuzk_engine *e, const engine_circuit *c)
{
    ENGINE_LOCKED(e);
    int best = -1;
    unsigned best_n = 0;
    for (unsigned i = 0; i < e->ndev; i++) {
        const engine_device *d = &e->dev[i];
        if (d->ordinal < 0 || !d->in_service || !c->dev[i].prover || !c->dev[i].pce || c->dev[i].loading) continue;
        unsigned n = 0;
        for (ready_item *r = e->ready; r; r = r->next) n += r->bound_dev == (int)i;
        if (n >= 2) continue; /* the prover has two staging slots */
        if (best < 0 || n < best_n) best = (int)i, best_n = n;
    }
    return best;
}

/* A witness as it was made (make_witness): its ready item, spans and outcome, and what the slot
 * grew by. */
typedef struct {
    ready_item *r;
    cuzk_timeline *tl;
    double t0;
    cuzk_status st;
    char err[1024];
    uint64_t grown;
    int64_t pinned;
} witness_run;

/* Partition k's witness into slot s, unlocked: the slot sized (and page-locked where a GPU will
 * read it), the partition's circuit opened and its shape checked against the precompiled one
 * (another shape would be proved wrong, or overrun the slot), the witness made, and its a, b, c
 * into abc where a GPU needs them (NULL: not made here). */
static void make_witness(const witness_lane *lane, engine_job *j, unsigned k, witness_slot *s, bool pin,
                         abc_buffer *abc, witness_run *w)
{
    const cuzk_pce *pce = &j->circ->pce;
    w->r = calloc(1, sizeof *w->r);
    w->tl = cuzk_timeline_create("witness");
    cuzk_timeline_set_track(w->tl, lane->urgent ? "witness lane (urgent)" : "witness lane (bulk)");
    w->t0 = cuzk_now();
    w->st = w->r && w->tl ? CUZK_OK : cuzk_fail(CUZK_ENOMEM, "out of memory");
    if (!w->st) w->st = slot_fit(s, pce->num_inputs, pce->num_aux, pin, w->tl, &w->grown, &w->pinned);
    cuzk_circuit *circ = NULL;
    if (!w->st) w->st = j->plan.open(j, k, &circ);
    if (!w->st) w->st = cuzk_pce_check_circuit(pce, circ, j->circ->id);
    if (!w->st) {
        int span = cuzk_span_begin(w->tl, lane->urgent ? "witness (urgent lane)" : "witness");
        w->st = cuzk_circuit_witness(circ, j->seed + k, true, &s->w);
        cuzk_span_end(w->tl, span);
    }
    if (!w->st && abc) { /* in the a, b, c buffer the lane took with the slot */
        uint64_t g = 0;
        int64_t p = 0;
        w->st = abc_make(abc, pce, &s->w, pin, w->tl, &g, &p);
        w->grown += g;
        w->pinned += p;
    }
    cuzk_circuit_free(circ);
    if (w->st) snprintf(w->err, sizeof w->err, "%s", cuzk_last_error());
}

/* Copies the witness to the GPU that will prove it while that GPU proves something else
 * (locked; unlocked around the copy). r->bound_dev: that GPU, or -1 (the proof uploads it). */
static void prefetch(cuzk_engine *e, const engine_job *j, const witness_slot *s, ready_item *r)
{
    ENGINE_LOCKED(e);
    engine_circuit *c = j->circ;
    int target = prefetch_target(e, c);
    if (target < 0) return;
    r->bound_dev = target;
    cuzk_gpu_prover *pr = c->dev[target].prover;
    engine_mutex_unlock(&e->mu);
    if (cuzk_gpu_prefetch_witness(pr, s->w.input, s->w.num_inputs, s->w.aux, s->w.num_aux)) {
        cuzk_gpu_prefetch_drop(pr, s->w.input, s->w.aux);
        r->bound_dev = -1;
    }
    engine_mutex_lock(&e->mu);
}

/* The public inputs partition k's circuit made, into the job's (locked); PoRep's must equal those
 * recomputed natively. CUZK_EINTERNAL with the reason in w->err when they do not. */
static cuzk_status take_public_inputs(engine_job *j, unsigned k, const witness_slot *s, witness_run *w)
{
    const engine_circuit *c = j->circ;
    size_t ni = c->ninputs;
    if (j->plan.expect && j->plan.ninputs != ni) {
        snprintf(w->err, sizeof w->err, "the circuit %s has %zu public inputs, the proof type %zu", c->id, ni,
                 j->plan.ninputs);
        return CUZK_EINTERNAL;
    }
    memcpy(j->inputs + (size_t)k * ni, s->w.input + 1, ni * sizeof(cuzk_fr));
    if (j->plan.expect && memcmp(j->plan.expect + (size_t)k * ni, s->w.input + 1, ni * sizeof(cuzk_fr))) {
        snprintf(w->err, sizeof w->err,
                 "partition %u: the circuit's public inputs differ from those recomputed from the public data", k);
        return CUZK_EINTERNAL;
    }
    return CUZK_OK;
}

/* The event "witness made" (locked): the slot's growth counted; a good witness of a live job
 * prefetched to its GPU and put on the ready list; otherwise the job failed (or already given
 * up), the slot freed. */
static void witness_made(cuzk_engine *e, engine_job *j, unsigned k, int slot_i, witness_run *w)
{
    ENGINE_LOCKED(e);
    witness_slot *s = &e->slots[slot_i];
    ready_item *r = w->r;
    j->witnessing--;
    buffers_charge(e, w->grown);
    e->pinned_bytes = (uint64_t)((int64_t)e->pinned_bytes + w->pinned);
    bool live = !w->st && !j->cancel_req && !j->failing;
    if (r) r->bound_dev = -1; /* on no GPU until prefetch binds it */
    if (live) prefetch(e, j, s, r);
    if (live && !j->failing) w->st = take_public_inputs(j, k, s, w);
    if (w->st || j->cancel_req || j->failing) {
        if (w->st) engine_job_fail(e, j, FAIL_WITNESS, "partition %u: %s", k, w->err);
        if (r && r->bound_dev >= 0) cuzk_gpu_prefetch_drop(j->circ->dev[r->bound_dev].prover, s->w.input, s->w.aux);
        cuzk_timeline_destroy(w->tl);
        free(r);
        sched_release_slot(e, slot_i, j);
        job_unhold(e, j);
        sched_maybe_finish(e, j);
        return;
    }
    r->job = j;
    r->part = k;
    r->slot = slot_i;
    r->tl = w->tl;
    r->witness_start = w->t0;
    r->ready_t = cuzk_now();
    j->witnessed++;
    recent_time(&j->circ->recent_witness_s, r->ready_t - w->t0);
    ready_item **pp = &e->ready;
    while (*pp) pp = &(*pp)->next;
    *pp = r;
    pthread_cond_broadcast(&e->work_cv);
}

/* What a job's progress tasks are called: its kind, or a circuit job's circuit. */
static const char *job_label(const engine_job *j)
{
    return j->kind == CUZK_KIND_CIRCUIT ? j->circ->id : cuzk_kind_name(j->kind);
}

/* Partition k of j into slot slot_i (locked on entry and return; the witness made unlocked).
 * A job of one partition has no "partitions proved" task, so its witness is a task of its own
 * (a PoRep's takes most of a minute on a few cores). */
static void make_one(cuzk_engine *e, witness_lane *lane, engine_job *j, unsigned k, int slot_i)
{
    ENGINE_LOCKED(e);
    witness_run w = {0};
    const bool pin = any_gpu(e);
    witness_slot *s = &e->slots[slot_i];
    abc_buffer *abc = s->abc >= 0 ? &e->abcs[s->abc] : NULL;
    j->witnessing++;
    cuzk_progress *task =
        j->plan.nparts == 1 ? cuzk_progress_startf(e->cfg.progress, 0, "%s: witness", job_label(j)) : NULL;
    engine_mutex_unlock(&e->mu);
    make_witness(lane, j, k, s, pin, abc, &w);
    cuzk_progress_finish(task);
    engine_mutex_lock(&e->mu);
    witness_made(e, j, k, slot_i, &w);
}

static void *lane_main(void *arg)
{
    witness_lane *lane = arg;
    cuzk_engine *e = lane->e;
    cuzk_pool_bind(lane->pool);
    engine_mutex_lock(&e->mu);
    while (!e->stopping) {
        int slot, abc;
        engine_job *j = sched_pick_witness(e, lane->urgent, &slot, &abc);
        if (!j) {
            engine_mutex_wait(&e->mu, &e->work_cv);
            continue;
        }
        if (!j->inputs && !(j->inputs = calloc((size_t)j->plan.nparts * j->circ->ninputs + 1, sizeof(cuzk_fr)))) {
            engine_job_fail(e, j, FAIL_WITNESS, "out of memory for the public inputs");
            sched_maybe_finish(e, j);
            continue;
        }
        unsigned k = j->next_part++;
        if (j->next_part >= j->plan.nparts) queue_drop(e, j); /* its last partition */
        if (k == 0 && j->plan.nparts > 1 && !j->progress)
            j->progress = cuzk_progress_startf(e->cfg.progress, j->plan.nparts, "%s: partitions proved", job_label(j));
        job_hold(e, j);
        j->state = CUZK_JOB_RUNNING;
        e->slots[slot].busy = true;
        if (abc >= 0) e->abcs[abc].busy = true;
        e->slots[slot].abc = abc;
        make_one(e, lane, j, k, slot); /* returns locked */
    }
    engine_mutex_unlock(&e->mu);
    cuzk_pool_bind(NULL);
    return NULL;
}

/* ---------------------------------------------------------------- device workers */
static cuzk_status cpu_abc(engine_device *d, const cuzk_pce *pce, const cuzk_witness *w)
{
    size_t n = pce->num_constraints + pce->num_inputs;
    if (d->abc_n < n) {
        for (int k = 0; k < 3; k++) {
            cuzk_big_free(d->abc[k], d->abc_n * sizeof(cuzk_fr));
            d->abc[k] = NULL;
        }
        d->abc_n = 0;
        for (int k = 0; k < 3; k++)
            if (!(d->abc[k] = cuzk_big_alloc(n * sizeof(cuzk_fr)))) return CUZK_ENOMEM;
        d->abc_n = n;
    }
    cuzk_pce_evaluate(pce, w->input, w->aux, d->abc[0], d->abc[1], d->abc[2]);
    return CUZK_OK;
}

/* One partition of j on device d (unlocked); CUZK_ECANCELLED once the job's cancel token is
 * set. On the CPU backend the prover says its stage in d->prove_stage (the jobs' progress), and
 * the proof of a job of one partition draws its NTT and MSM tasks (engine.progress). */
static cuzk_status prove_on(const cuzk_engine *e, engine_device *d, engine_job *j, const witness_slot *s,
                            proof_notice *notice, cuzk_groth16_proof *out, cuzk_timeline *tl)
{
    engine_circuit *c = j->circ;
    const cuzk_cancel *cancel = &j->cancel;
    const cuzk_pce *pce = &c->pce;
    const cuzk_witness *w = &s->w;
    circuit_on_device *cd = d->ordinal >= 0 ? &c->dev[d->index] : NULL;
    cuzk_groth16_prove_opts opts = {.tl = tl, .cancel = cancel};
    if (!cd) {
        opts.stage = &d->prove_stage;
        opts.progress = j->plan.nparts == 1 ? e->cfg.progress : NULL;
        opts.progress_name = job_label(j);
    }
    if (cd && cd->pce)
        return cuzk_gpu_prove_pce_with(cd->prover, cd->pce, out, w->input, w->num_inputs, w->aux, w->num_aux, &opts);
    cuzk_status st = cuzk_cancel_check(cancel, "a, b, c");
    if (st) return st;
    /* made by the lane (given back once the GPU's NTTs have read them), or here */
    cuzk_fr *const *abc = s->abc >= 0 ? e->abcs[s->abc].v : d->abc;
    if (s->abc >= 0 && cd) {
        opts.abc_read = notice_abc_read;
        opts.read_ctx = notice;
    }
    if (s->abc < 0) {
        if (!cd) __atomic_store_n(&d->prove_stage, DEVICE_STAGE_ABC, __ATOMIC_RELAXED);
        int span = cuzk_span_begin(tl, "a, b, c (cpu)");
        st = cpu_abc(d, pce, w);
        cuzk_span_end(tl, span);
        if (st) return st;
    }
    cuzk_groth16_witness gw = {abc[0],      abc[1],        abc[2],     pce->num_constraints + pce->num_inputs,
                               w->input,    w->num_inputs, w->aux,     w->num_aux,
                               &pce->a_aux, &pce->b_input, &pce->b_aux};
    if (cd) return cuzk_gpu_prove_with(cd->prover, out, &gw, &opts);
    st = cuzk_groth16_check_shape(&c->params, &gw);
    if (!st) st = cuzk_groth16_prove_with(&d->ws, out, &c->params, &gw, &opts);
    __atomic_store_n(&d->prove_stage, CUZK_PROVE_STAGE_NONE, __ATOMIC_RELAXED);
    return st;
}

/* A device error takes the device out of service; its bound witnesses go back to any device. */
static void out_of_service(cuzk_engine *e, engine_device *d, const char *why)
{
    ENGINE_LOCKED(e);
    d->in_service = false;
    snprintf(d->out_reason, sizeof d->out_reason, "%.255s", why);
    for (ready_item *r = e->ready; r; r = r->next)
        if (r->bound_dev == d->index) {
            engine_circuit *c = r->job->circ;
            if (c->dev[d->index].prover)
                cuzk_gpu_prefetch_drop(c->dev[d->index].prover, e->slots[r->slot].w.input, e->slots[r->slot].w.aux);
            r->bound_dev = -1;
        }
    pthread_cond_broadcast(&e->work_cv);
}

static bool other_in_service(const cuzk_engine *e, const engine_device *d)
{
    for (unsigned i = 0; i < e->ndev; i++)
        if (&e->dev[i] != d && e->dev[i].in_service) return true;
    return false;
}

/* Partitions waiting for a witness or a device (locked). */
static bool pending_work(const cuzk_engine *e)
{
    ENGINE_LOCKED(e);
    return e->ready || e->nqueued;
}

/* A partition's proof on device d as it ended: when it ran, its outcome and its spans. */
typedef struct {
    double t0, t1;
    double prove_s;    /* its share of the device's time: t1 - t0 over the proofs of its batch */
    uint64_t uploaded; /* bytes the GPU's prover copied from host memory (a batch's, on its first) */
    cuzk_status st;
    char err[1024];
    cuzk_groth16_proof proof;
    cuzk_timeline *tl;
    cuzk_engine_partition_hook hook; /* the test hook, read when the partition was taken */
    void *hook_ctx;
} partition_run;

/* The event "partition taken" (locked): the device's idle gap and the job's start are counted. */
static void partition_taken(cuzk_engine *e, engine_device *d, const ready_item *r, double t0, double last_end,
                            bool gap_open)
{
    ENGINE_LOCKED(e);
    engine_job *j = r->job;
    /* the idle time between two partitions while work was waiting */
    if (last_end >= 0 && gap_open) {
        double g = t0 - last_end;
        d->gap_total_s += g;
        d->gaps++;
        if (g > d->gap_max_s) d->gap_max_s = g;
    }
    if (!j->started) {
        j->started = true;
        j->start_t = t0;
        cuzk_span_end(j->tl, j->queue_span);
    }
    d->running_job = j->id;
    d->running_part = r->part;
    d->running_t = t0;
    if (d->ordinal >= 0) j->circ->dev[d->index].busy++;
}

/* A partition whose GPU ran out of memory is proved again (twice at most), its witness kept:
 * another process took device memory since the budget was measured, the budget is cut and the
 * circuit placed again (streamed where resident no longer fits). */
#define PARTITION_OOM_RETRIES 2

/* Whether the failed partition r goes back to the ready list for another try (locked). */
static bool retry_partition(cuzk_engine *e, engine_device *d, ready_item *r, const partition_run *run)
{
    ENGINE_LOCKED(e);
    engine_job *j = r->job;
    if (run->st != CUZK_ENOMEM || d->ordinal < 0 || r->attempts >= PARTITION_OOM_RETRIES || j->cancel_req ||
        j->failing || e->stopping || r->slot < 0) /* slot -1: its witness buffer went back early */
        return false;
    if (!res_device_shrank(e, d, j->circ)) return false;
    cuzk_timeline *fresh = cuzk_timeline_create("witness");
    if (!fresh) return false;
    r->attempts++;
    r->tl = fresh; /* the witness's spans went to the first attempt's */
    r->bound_dev = -1;
    r->ready_t = cuzk_now();
    r->partner_t = 0;   /* the last attempt's wait, not this one's */
    r->next = e->ready; /* first: its witness is made and its job started */
    e->ready = r;
    e->partition_retries++;
    pthread_cond_broadcast(&e->work_cv);
    return true;
}

/* The event "partition proved or failed" (locked): its spans go to the job's timeline, the proof
 * to the job or the failure to the job (and a device error to the device), the buffer back. */
static void partition_ended(cuzk_engine *e, engine_device *d, ready_item *r, partition_run *run)
{
    ENGINE_LOCKED(e);
    engine_job *j = r->job;
    if (d->ordinal >= 0) j->circ->dev[d->index].busy--;
    d->busy_s += run->prove_s;
    d->uploaded += run->uploaded;
    d->running_job = 0;
    char name[160];
    if (run->st == CUZK_ENOMEM && d->ordinal >= 0)
        snprintf(name, sizeof name, "partition %u (attempt %u: out of device memory)", r->part, r->attempts + 1);
    else snprintf(name, sizeof name, "partition %u", r->part);
    int ps = cuzk_span_add_at(j->tl, -1, name, r->witness_start, run->t1);
    cuzk_timeline_graft(j->tl, ps, r->tl);
    const double partner_t = r->partner_t > 0 ? r->partner_t : run->t0;
    cuzk_span_add_at(j->tl, ps, "wait for a device", r->ready_t, partner_t);
    if (partner_t < run->t0) cuzk_span_add_at(j->tl, ps, "wait for a batch partner", partner_t, run->t0);
    int on = cuzk_span_add_at(j->tl, ps, d->ordinal < 0 ? "prove on the CPU" : "prove on a GPU", run->t0, run->t1);
    cuzk_span_set_track(j->tl, on, d->track);
    cuzk_timeline_graft(j->tl, on, run->tl);
    cuzk_timeline_destroy(run->tl);
    cuzk_timeline_destroy(r->tl);
    r->tl = NULL;
    if (retry_partition(e, d, r, run)) return;
    if (run->st == CUZK_ECANCELLED && (j->cancel_req || j->failing)) {
        /* given up at the job's request: neither a failure of the job nor of the device, which
         * takes the next partition now */
    } else if (run->st) {
        engine_job_fail(e, j, FAIL_PROVE, "partition %u on %s: %s", r->part, d->name, run->err);
        /* only a device error (CUZK_EDEVICE: not a bad witness, a bug or a full memory) takes the
         * device out; a CPU worker (whose only device error is the test hook's) only while
         * another device serves */
        if (run->st == CUZK_EDEVICE && (d->ordinal >= 0 || other_in_service(e, d))) out_of_service(e, d, run->err);
    } else {
        j->proofs[r->part] = run->proof;
        j->done_parts++;
        recent_time(&j->circ->recent_prove_s, run->prove_s);
        cuzk_progress_add(j->progress, 1);
        d->proved++;
        e->partitions_proved++;
    }
    sched_release_slot(e, r->slot, j);
    job_unhold(e, j);
    free(r);
    sched_maybe_finish(e, j);
}

/* One partition on d, unlocked: the test hook, the proof, the prefetched copy dropped. */
static void run_partition(cuzk_engine *e, engine_device *d, const ready_item *r, partition_run *run)
{
    engine_job *j = r->job;
    engine_circuit *c = j->circ;
    const witness_slot *s = &e->slots[r->slot];
    run->tl = cuzk_timeline_create("prove");
    run->st = run->hook ? run->hook(run->hook_ctx, j->id, r->part, d->index) : 0;
    const cuzk_gpu_prover *pr = d->ordinal >= 0 ? c->dev[d->index].prover : NULL;
    const uint64_t up0 = pr ? cuzk_gpu_prover_uploaded_bytes(pr) : 0;
    proof_notice notice = {.e = e, .item = {(ready_item *)r}, .n = 1};
    if (!run->st) run->st = prove_on(e, d, j, s, &notice, &run->proof, run->tl);
    if (pr) run->uploaded = cuzk_gpu_prover_uploaded_bytes(pr) - up0;
    if (run->st) snprintf(run->err, sizeof run->err, "%s", cuzk_last_error());
    run->t1 = cuzk_now();
    run->prove_s = run->t1 - run->t0;
    /* a copy the proof did not use must not be taken for the buffer's next witness (outside the
     * engine's lock: the prover's own lock may wait for a copy in flight) */
    if (d->ordinal >= 0 && r->bound_dev >= 0) cuzk_gpu_prefetch_drop(c->dev[d->index].prover, s->w.input, s->w.aux);
}

/* How many more partitions d may prove beside first's in one call: a streamed GPU prover takes
 * a batch of its job's ready partitions (their bases cross the link once), as many as the
 * placement's memory allows and the witness buffers leave: one stays with the lanes, so that
 * the next witness is made while the batch is proved, and one with urgent work. Where a, b, c
 * are the device's to make (no precompiled circuit, not made by the lane) there is one buffer
 * for them, so none. */
static unsigned batch_room(const cuzk_engine *e, const engine_device *d, const ready_item *first)
{
    ENGINE_LOCKED(e);
    if (d->ordinal < 0 || e->nslots <= 3) return 0;
    const circuit_on_device *cd = &first->job->circ->dev[d->index];
    if (!cd->prover || (!cd->pce && e->slots[first->slot].abc < 0)) return 0;
    unsigned most = cuzk_gpu_prover_batch_max(cd->prover);
    if (most > ENGINE_BATCH_MAX) most = ENGINE_BATCH_MAX;
    if (most > e->nslots - 2) most = e->nslots - 2;
    return most - 1;
}

/* A batching GPU holding one ready partition of a job, with nothing else it could prove: where the
 * job's next witness is being made, it waits for it (engine.batch_wait_ms at most) and takes it
 * as the partition's partner, so that the two share a pass over the L, A, B bases. Otherwise the
 * job's partitions after it pair up one late, and a sector's first and last went alone. On an
 * H100 at 24 GiB (a partition alone about 2.2 s, two together 3.65 s) it saved 5 % of the bytes
 * but no time, the saving spent in the wait; on a slower link a pair saves a whole pass over
 * those bases (docs/BENCHMARKS.md). Where other work became ready during the wait and no partner
 * did, the partition goes back on the ready list and -1 is returned: the device picks again, so
 * urgent work made meanwhile (a CRITICAL WinningPoSt) is not proved after it. Returns the partners
 * taken (locked; the lock is let go while it waits). */
static int wait_for_partner(cuzk_engine *e, engine_device *d, ready_item **items, unsigned room)
{
    ENGINE_LOCKED(e);
    if (!e->cfg.batch_wait_ms || !sched_wait_for_partner(e, d, items[0])) return 0;
    struct timespec dl;
    engine_deadline_of(&dl, e->cfg.batch_wait_ms * 1e-3);
    items[0]->partner_t = cuzk_now();
    unsigned n = 0;
    while (!n && sched_wait_for_partner(e, d, items[0])) {
        const bool woken = engine_mutex_wait_until(&e->mu, &e->work_cv, &dl);
        n = sched_pick_batch(e, d, items[0], items + 1, room);
        if (!woken) break; /* the deadline passed */
    }
    const engine_job *j = items[0]->job;
    if (!n && !e->stopping && !j->cancel_req && !j->failing && sched_other_ready(e, d)) {
        items[0]->partner_t = 0; /* (a cancelled or failing job's partition goes on as before) */
        sched_put_back(e, items[0]);
        return -1;
    }
    return (int)n;
}

/* The streamed prover's notice that item k's assignment has been copied for the batch's L, A, B
 * MSMs (cuzk_groth16_prove_opts.witness_read; unlocked, it takes the engine's lock): its witness
 * buffer goes back to the lanes now, not at the batch's end, so that they fill it with a
 * partition of the next batch while this one's MSMs run (with one buffer left to the lanes, a
 * batch of two ended with one partition ready, proved alone). The item keeps no buffer (slot
 * -1): a proof of it that fails is not retried. */
static void notice_witness_read(void *ctx, size_t k)
{
    proof_notice *n = ctx;
    if (k >= n->n) return;
    cuzk_engine *e = n->e;
    engine_mutex_lock(&e->mu);
    ready_item *r = n->item[k];
    sched_release_slot(e, r->slot, r->job);
    r->slot = -1;
    engine_mutex_unlock(&e->mu);
}

/* n > 1 partitions of one job on GPU d in one call, unlocked: each one's test hook (one that
 * fails leaves the batch), then the batch's proof; each run gets the outcome, its proof, the
 * batch's spans and an equal share of the time. */
static void run_batch(cuzk_engine *e, engine_device *d, ready_item *const *items, unsigned n, partition_run *runs)
{
    engine_job *j = items[0]->job;
    circuit_on_device *cd = &j->circ->dev[d->index];
    const cuzk_groth16_witness *gw[ENGINE_BATCH_MAX];
    cuzk_groth16_witness gws[ENGINE_BATCH_MAX];
    const cuzk_fr *in[ENGINE_BATCH_MAX], *aux[ENGINE_BATCH_MAX];
    cuzk_groth16_proof proofs[ENGINE_BATCH_MAX];
    unsigned idx[ENGINE_BATCH_MAX], m = 0;
    const cuzk_pce *pce = &j->circ->pce;
    proof_notice notice = {.e = e};
    for (unsigned k = 0; k < n; k++) {
        partition_run *run = &runs[k];
        run->st = run->hook ? run->hook(run->hook_ctx, j->id, items[k]->part, d->index) : 0;
        if (run->st) {
            snprintf(run->err, sizeof run->err, "%s", cuzk_last_error());
            continue;
        }
        const witness_slot *s = &e->slots[items[k]->slot];
        const cuzk_witness *w = &s->w;
        /* a batch uploads its witnesses itself: a copy prefetched for a single proof is dropped,
         * or it would be taken for the next witness its buffer holds (the same host pointers) */
        if (items[k]->bound_dev >= 0) cuzk_gpu_prefetch_drop(cd->prover, w->input, w->aux);
        in[m] = w->input;
        aux[m] = w->aux;
        cuzk_fr *const *abc = s->abc >= 0 ? e->abcs[s->abc].v : NULL; /* NULL: through the circuit */
        gws[m] = (cuzk_groth16_witness){abc ? abc[0] : NULL,
                                        abc ? abc[1] : NULL,
                                        abc ? abc[2] : NULL,
                                        pce->num_constraints + pce->num_inputs,
                                        w->input,
                                        w->num_inputs,
                                        w->aux,
                                        w->num_aux,
                                        &pce->a_aux,
                                        &pce->b_input,
                                        &pce->b_aux};
        gw[m] = &gws[m];
        notice.item[m] = items[k];
        idx[m++] = k;
    }
    cuzk_timeline *tl = cuzk_timeline_create("prove");
    cuzk_status st = CUZK_OK;
    char err[1024] = "";
    const uint64_t up0 = cuzk_gpu_prover_uploaded_bytes(cd->prover);
    if (m) {
        notice.n = m;
        const cuzk_groth16_prove_opts opts = {.tl = tl,
                                              .cancel = &j->cancel,
                                              .abc_read = notice_abc_read,
                                              .witness_read = notice_witness_read,
                                              .read_ctx = &notice};
        const cuzk_witness *w0 = &e->slots[items[idx[0]]->slot].w;
        st = cd->pce
            ? cuzk_gpu_prove_pce_batch_with(cd->prover, cd->pce, m, proofs, in, w0->num_inputs, aux, w0->num_aux, &opts)
            : cuzk_gpu_prove_batch_with(cd->prover, m, proofs, gw, &opts);
        if (st) snprintf(err, sizeof err, "%s (a batch of %u partitions)", cuzk_last_error(), m);
    }
    const double t1 = cuzk_now();
    runs[0].uploaded = cuzk_gpu_prover_uploaded_bytes(cd->prover) - up0;
    for (unsigned q = 0; q < m; q++) {
        partition_run *run = &runs[idx[q]];
        run->st = st;
        if (st) snprintf(run->err, sizeof run->err, "%s", err);
        else run->proof = proofs[q];
    }
    for (unsigned k = 0; k < n; k++) {
        runs[k].t1 = t1;
        runs[k].prove_s = (t1 - runs[k].t0) / n;
        runs[k].tl = cuzk_timeline_create("prove");
        if (runs[k].tl && tl) cuzk_timeline_graft(runs[k].tl, -1, tl);
    }
    cuzk_timeline_destroy(tl);
}

void *device_main(void *arg)
{
    engine_device *d = arg;
    cuzk_engine *e = d->e;
    cuzk_pool_bind(e->lanes[0].pool); /* a, b, c (and CPU proofs) run on the bulk pool */
    engine_mutex_lock(&e->mu);
    d->started_t = cuzk_now();
    double last_end = -1;
    bool gap_open = false; /* work was waiting when the last partition ended */
    while (!e->stopping && d->in_service) {
        ready_item *items[ENGINE_BATCH_MAX];
        if (!(items[0] = sched_pick_ready(e, d))) {
            engine_mutex_wait(&e->mu, &e->work_cv);
            continue;
        }
        const unsigned room = batch_room(e, d, items[0]);
        unsigned n = 1 + (room ? sched_pick_batch(e, d, items[0], items + 1, room) : 0);
        if (room && n == 1) {
            const int partners = wait_for_partner(e, d, items, room);
            if (partners < 0) continue; /* put back: the pick again */
            n += (unsigned)partners;
        }
        partition_run runs[ENGINE_BATCH_MAX];
        const double t0 = cuzk_now();
        for (unsigned k = 0; k < n; k++) {
            memset(&runs[k], 0, sizeof runs[k]);
            runs[k].t0 = t0;
            runs[k].hook = e->test_hook;
            runs[k].hook_ctx = e->test_hook_ctx;
            partition_taken(e, d, items[k], t0, k == 0 ? last_end : -1, gap_open);
        }
        engine_mutex_unlock(&e->mu);
        if (n == 1) run_partition(e, d, items[0], &runs[0]);
        else run_batch(e, d, items, n, runs);
        engine_mutex_lock(&e->mu);
        last_end = runs[0].t1;
        gap_open = pending_work(e);
        if (n > 1) {
            d->batches++;
            d->batched += n;
        }
        for (unsigned k = 0; k < n; k++) partition_ended(e, d, items[k], &runs[k]);
    }
    engine_mutex_unlock(&e->mu);
    cuzk_pool_bind(NULL);
    return NULL;
}

/* ---------------------------------------------------------------- finisher */
void *finisher_main(void *arg)
{
    cuzk_engine *e = arg;
    engine_mutex_lock(&e->mu);
    for (;;) {
        engine_job *j = e->finish_q;
        if (!j) {
            if (e->stopping) break;
            engine_mutex_wait(&e->mu, &e->finish_cv);
            continue;
        }
        e->finish_q = j->finish_next;
        engine_circuit *c = j->circ;
        unsigned n = j->plan.nparts;
        engine_mutex_unlock(&e->mu);

        double verify_t0 = cuzk_now();
        int span = cuzk_span_begin_under(j->tl, -1, "verify (batch, CPU)");
        cuzk_status st = CUZK_OK;
        char err[1024] = "";
        bool verified = false;
        if (c->has_vk) {
            st = cuzk_groth16_verify_batch(&c->vk, j->proofs, n, j->inputs, c->ninputs);
            if (st)
                snprintf(err, sizeof err, "the proofs do not verify against %s's key: %s (nothing returned)", c->id,
                         cuzk_last_error());
            verified = !st;
        }
        cuzk_span_end(j->tl, span);
        uint8_t *bytes = st ? NULL : malloc((size_t)n * CUZK_GROTH16_PROOF_BYTES);
        if (!st && !bytes) snprintf(err, sizeof err, "out of memory");
        for (unsigned k = 0; bytes && k < n; k++)
            cuzk_groth16_proof_encode(bytes + (size_t)k * CUZK_GROTH16_PROOF_BYTES, &j->proofs[k]);

        engine_mutex_lock(&e->mu);
        if (verified) recent_time(&c->recent_verify_s, cuzk_now() - verify_t0);
        job_unhold(e, j);
        j->proof_bytes = bytes;
        j->verified = verified;
        if (err[0]) engine_job_fail(e, j, st ? FAIL_VERIFY : FAIL_OTHER, "%s", err);
        engine_end_job(e, j,
                       bytes && !err[0]    ? CUZK_JOB_COMPLETED
                           : j->cancel_req ? CUZK_JOB_CANCELLED
                                           : CUZK_JOB_FAILED);
    }
    /* shutting down: what is left ends cancelled */
    for (engine_job *j = e->finish_q; j; j = j->finish_next) {
        job_unhold(e, j);
        engine_end_job(e, j, CUZK_JOB_CANCELLED);
    }
    e->finish_q = NULL;
    engine_mutex_unlock(&e->mu);
    return NULL;
}

cuzk_status lanes_start(cuzk_engine *e)
{
    if (pthread_create(&e->reclaimer, NULL, reclaimer_main, e)) return cuzk_fail(CUZK_ENOMEM, "cannot start a thread");
    e->reclaimer_started = true;
    if (pthread_create(&e->finisher, NULL, finisher_main, e)) return cuzk_fail(CUZK_ENOMEM, "cannot start a thread");
    e->finisher_started = true;
    for (int i = 0; i < 2; i++) {
        e->lanes[i].e = e;
        if (pthread_create(&e->lanes[i].thread, NULL, lane_main, &e->lanes[i]))
            return cuzk_fail(CUZK_ENOMEM, "cannot start a thread");
        e->lanes[i].started = true;
    }
    for (unsigned i = 0; i < e->ndev; i++) {
        if (!e->dev[i].in_service) continue;
        e->dev[i].e = e;
        if (pthread_create(&e->dev[i].thread, NULL, device_main, &e->dev[i]))
            return cuzk_fail(CUZK_ENOMEM, "cannot start a thread");
        e->dev[i].thread_started = true;
    }
    return CUZK_OK;
}
