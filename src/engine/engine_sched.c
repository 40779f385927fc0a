/* The scheduler: which partition a witness lane makes next and which made witness a device
 * proves next. Both pick the job of the highest class (its priority, raised by waiting: see
 * engine_rank), FIFO within a class, so a CRITICAL job submitted behind twenty NORMAL ones
 * takes the next free lane and the next free device: preemption at partition boundaries,
 * never inside a partition. All functions here run with engine.mu held. Each pick first asks a
 * policy (judge_witness, judge_ready: pure, they return a verdict and change nothing) what a
 * circuit's queued jobs or a made witness need, then applies the verdict: start a load, fail
 * the jobs no device can prove, or take the best candidate. The witness lanes' pick reads the
 * heads of the queued jobs' heaps (engine_queue.c), not every job; the devices' pick reads the
 * made witnesses, at most one per witness buffer. */
#include <stdio.h>
#include <stdlib.h>

#include "engine_internal.h"

/* true when a runs before b */
static bool before(const cuzk_engine *e, const engine_job *a, const engine_job *b, double now)
{
    int ra = engine_rank(e, a, now), rb = engine_rank(e, b, now);
    return ra != rb ? ra > rb : a->seq < b->seq;
}

/* Whether the CPU workers prove now: one of them is in service, and the GPUs are not or they
 * are asked to prove beside them. */
static bool cpu_active(const cuzk_engine *e)
{
    ENGINE_LOCKED(e);
    if (e->cpu_dev < 0) return false;
    bool cpu = false, gpu = false;
    for (unsigned i = 0; i < e->ndev; i++) {
        if (!e->dev[i].in_service) continue;
        if (e->dev[i].ordinal < 0) cpu = true;
        else gpu = true;
    }
    return cpu && (!e->cpu_fallback || !gpu);
}

static int free_slot(cuzk_engine *e, bool urgent)
{
    ENGINE_LOCKED(e);
    int any = -1;
    for (unsigned i = 0; i < e->nslots; i++) {
        if (e->slots[i].busy || e->slots[i].batch_only) continue;
        if (e->slots[i].urgent && urgent) return (int)i;
        if (!e->slots[i].urgent && any < 0) any = (int)i;
    }
    return any;
}

/* The bytes slot s grows by to hold a witness of c (locked); its a, b, c, where the lanes make
 * them, are in a buffer of their own (engine_abc.c). */
static uint64_t slot_growth(const cuzk_engine *e, const witness_slot *s, const engine_circuit *c)
{
    ENGINE_LOCKED(e);
    const cuzk_pce *p = &c->pce;
    uint64_t g = 0;
    if (p->num_inputs > s->w.input_cap) g += (uint64_t)(p->num_inputs - s->w.input_cap) * sizeof(cuzk_fr);
    if (p->num_aux > s->w.aux_cap) g += (uint64_t)(p->num_aux - s->w.aux_cap) * sizeof(cuzk_fr);
    return g;
}

/* A free slot for a witness of c (locked): one whose growth fits the host budget, one that
 * need not grow first; -1 when every free slot would grow past the budget while another slot
 * is busy (its release wakes the lanes again). With no slot busy one is taken whatever it
 * costs, so that work never stalls on the budget alone (the admission has checked that the
 * circuit itself fits). Without this, 5 witness buffers of a 32 GiB PoRep with a, b, c made on
 * the CPU (17 GB each, before they had buffers of their own) beside its 47 GB of page-locked
 * parameters outgrew a 128 GiB host. */
static int free_slot_for(cuzk_engine *e, bool urgent, const engine_circuit *c)
{
    ENGINE_LOCKED(e);
    int pick = -1, pick_rank = -1;
    bool busy = false;
    for (unsigned i = 0; i < e->nslots; i++) {
        const witness_slot *s = &e->slots[i];
        busy |= s->busy;
        if (!slot_usable(e, s, c) || (s->urgent && !urgent)) continue;
        const uint64_t g = slot_growth(e, s, c);
        const bool within = e->host_used + g <= e->host_budget;
        /* within the budget first, then no growth, then the lane's own kind of slot */
        const int rank = within * 4 + (g == 0) * 2 + (s->urgent == urgent);
        if (rank > pick_rank) pick = (int)i, pick_rank = rank;
    }
    return pick >= 0 && (pick_rank >= 4 || !busy) ? pick : -1;
}

/* Whether some device could prove circuit c (now or once it is loaded); otherwise why not. */
static bool some_device_can(const cuzk_engine *e, const engine_circuit *c, char *why, size_t cap)
{
    ENGINE_LOCKED(e);
    if (cpu_active(e) && !c->synthetic) return true;
    why[0] = 0;
    for (unsigned i = 0; i < e->ndev; i++) {
        const engine_device *d = &e->dev[i];
        if (d->ordinal < 0 || !d->in_service) continue;
        if (!c->dev[i].unfit) return true;
        snprintf(why, cap, "%s", c->dev[i].why);
    }
    if (!why[0])
        snprintf(why, cap, "%s",
                 c->synthetic ? "synthetic parameters need a GPU, and no GPU is in service"
                              : "no device is in service to prove it");
    return false;
}

/* What a circuit's queued jobs need before a witness lane can take their next partitions: the
 * policy, which reads and changes nothing; sched_pick_witness applies it. */
typedef enum {
    WITNESS_SKIP,      /* no job of it has a partition to make now */
    WITNESS_LOAD_HOST, /* it must be loaded into host memory first */
    WITNESS_NO_DEVICE, /* no device can prove it: its queued jobs fail with why */
    WITNESS_CANDIDATE, /* the next partitions of its queued jobs may be made now */
} witness_verdict;

static witness_verdict judge_witness(const cuzk_engine *e, const engine_circuit *c, char *why, size_t cap)
{
    ENGINE_LOCKED(e);
    if (!c->nqueued) return WITNESS_SKIP;
    if (!c->host_ready) return WITNESS_LOAD_HOST;
    if (!some_device_can(e, c, why, cap)) return WITNESS_NO_DEVICE;
    return WITNESS_CANDIDATE;
}

/* The oldest queued job of c, of the highest priority that has one. */
static engine_job *any_queued(const engine_circuit *c)
{
    for (int p = CUZK_PRIORITY_CRITICAL; p >= CUZK_PRIORITY_LOW; p--)
        if (queue_head(c, (cuzk_priority)p)) return queue_head(c, (cuzk_priority)p);
    return NULL;
}

/* Fails every queued job of c with why (no device can prove it); those with nothing in flight
 * end now. Each leaves the queue as it fails. */
static void fail_queued(cuzk_engine *e, engine_circuit *c, const char *why)
{
    ENGINE_LOCKED(e);
    for (engine_job *j; (j = any_queued(c));) {
        engine_job_fail(e, j, FAIL_NO_DEVICE, "%s: %s", c->id, why);
        if (!j->in_flight) engine_end_job(e, j, CUZK_JOB_FAILED);
    }
}

/* The verdicts depend on the circuit alone, so they are applied circuit by circuit; the best
 * candidate is among the heads of the circuits' heaps: within one priority the oldest job
 * (lowest seq) has waited longest, so its class (engine_rank: the priority raised by the time
 * waited) is at least any younger one's, and it wins their ties; before() then orders the heads
 * exactly as it ordered every job. A pick thus reads circuits x priorities heads, whatever the
 * number of jobs queued. */
engine_job *sched_pick_witness(cuzk_engine *e, bool urgent, int *slot, int *abc)
{
    ENGINE_LOCKED(e);
    *slot = *abc = -1;
    double now = cuzk_now();
    engine_job *best = NULL;
    for (engine_circuit *c = e->circuits; c; c = c->next) {
        char why[400];
        switch (judge_witness(e, c, why, sizeof why)) {
        case WITNESS_SKIP: continue;
        case WITNESS_LOAD_HOST: res_want_host(e, c, any_queued(c)); continue;
        case WITNESS_NO_DEVICE: fail_queued(e, c, why); continue;
        case WITNESS_CANDIDATE: break;
        }
        /* the urgent lane makes HIGH and CRITICAL work only */
        for (int p = urgent ? CUZK_PRIORITY_HIGH : CUZK_PRIORITY_LOW; p <= CUZK_PRIORITY_CRITICAL; p++) {
            engine_job *j = queue_head(c, (cuzk_priority)p);
            if (j && (!best || before(e, j, best, now))) best = j;
        }
    }
    if (!best) return NULL;
    *slot = free_slot_for(e, urgent, best->circ);
    if (*slot < 0) return NULL;
    /* its a, b, c too, where a GPU needs them from the CPU: the lane waits for a buffer rather
     * than make a witness that no device could take yet */
    if (res_abc_on_host(e, best->circ) && (*abc = abc_pick(e, best->circ)) < 0) {
        *slot = -1;
        return NULL;
    }
    return best;
}

void sched_job_queued(cuzk_engine *e, engine_job *j)
{
    ENGINE_LOCKED(e);
    char why[400];
    switch (judge_witness(e, j->circ, why, sizeof why)) {
    case WITNESS_SKIP: return;
    case WITNESS_LOAD_HOST: res_want_host(e, j->circ, j); return; /* its end wakes the lanes */
    case WITNESS_NO_DEVICE: fail_queued(e, j->circ, why); return;
    case WITNESS_CANDIDATE: break;
    }
    /* with every buffer it may use busy a lane picks nothing: the next release wakes the lanes
     * (waking them at each of 100,000 submits only costs the submits their context switches) */
    if (free_slot(e, j->prio >= CUZK_PRIORITY_HIGH) >= 0) pthread_cond_broadcast(&e->work_cv);
}

/* What device d needs before it can prove a made witness: the policy (reads, changes nothing);
 * sched_pick_ready applies it. */
typedef enum {
    READY_SKIP,        /* bound to another device, or its circuit is loading here */
    READY_LOAD_PARAMS, /* the CPU needs a host copy of the parameters (streamed to a GPU) */
    READY_LOAD_DEVICE, /* the circuit must be loaded onto this GPU first */
    READY_CANDIDATE,   /* d may prove it now */
} ready_verdict;

static ready_verdict judge_ready(const cuzk_engine *e, const ready_item *r, const engine_device *d)
{
    ENGINE_LOCKED(e);
    if (r->bound_dev >= 0 && r->bound_dev != d->index) return READY_SKIP;
    const engine_circuit *c = r->job->circ;
    if (d->ordinal < 0) return res_cpu_ready(c) ? READY_CANDIDATE : READY_LOAD_PARAMS;
    return res_device_ready(c, d) ? READY_CANDIDATE : READY_LOAD_DEVICE;
}

ready_item *sched_pick_ready(cuzk_engine *e, engine_device *d)
{
    ENGINE_LOCKED(e);
    double now = cuzk_now();
    if (d->ordinal < 0 && !cpu_active(e)) return NULL;
again:;
    ready_item **best = NULL;
    engine_job *doomed = NULL;
    char why[400];
    for (ready_item **pp = &e->ready; *pp; pp = &(*pp)->next) {
        ready_item *r = *pp;
        switch (judge_ready(e, r, d)) {
        case READY_SKIP: continue;
        case READY_LOAD_PARAMS: res_want_host_params(e, r->job->circ); continue; /* never read into host memory yet */
        case READY_LOAD_DEVICE:                                                  /* another item may go first */
            if (!res_want_device(e, r->job->circ, d) && !doomed && !some_device_can(e, r->job->circ, why, sizeof why))
                doomed = r->job;
            continue;
        case READY_CANDIDATE: break;
        }
        if (!best || before(e, r->job, (*best)->job, now) || (r->job == (*best)->job && r->part < (*best)->part))
            best = pp;
    }
    if (doomed) {
        /* No device can take its made witnesses any more (a GPU's budget was cut below the
         * circuit, say, after another process took the memory, and no CPU backend proves): the
         * job fails now rather than wait for ever; the lanes fail its circuit's queued jobs. */
        engine_job_fail(e, doomed, FAIL_NO_DEVICE, "%s: %s", doomed->circ->id, why);
        sched_drop_ready_of(e, doomed);
        sched_maybe_finish(e, doomed);
        goto again; /* its items left the list: the pick starts over */
    }
    if (!best) return NULL;
    ready_item *r = *best;
    *best = r->next;
    r->next = NULL;
    return r;
}

unsigned sched_pick_batch(cuzk_engine *e, engine_device *d, const ready_item *first, ready_item **out, unsigned room)
{
    ENGINE_LOCKED(e);
    unsigned n = 0;
    const bool pce = d->ordinal >= 0 && first->job->circ->dev[d->index].pce;
    while (n < room) {
        ready_item **pick = NULL;
        for (ready_item **pp = &e->ready; *pp; pp = &(*pp)->next) {
            const ready_item *r = *pp;
            if (r->job != first->job || judge_ready(e, r, d) != READY_CANDIDATE) continue;
            if (!pce && e->slots[r->slot].abc < 0) continue; /* its a, b, c would be made on this device */
            if (!pick || r->part < (*pick)->part) pick = pp;
        }
        if (!pick) break;
        ready_item *r = *pick;
        *pick = r->next;
        r->next = NULL;
        out[n++] = r;
    }
    return n;
}

bool sched_other_ready(const cuzk_engine *e, const engine_device *d)
{
    ENGINE_LOCKED(e);
    for (const ready_item *r = e->ready; r; r = r->next)
        if (judge_ready(e, r, d) == READY_CANDIDATE) return true;
    return false;
}

bool sched_wait_for_partner(const cuzk_engine *e, const engine_device *d, const ready_item *first)
{
    ENGINE_LOCKED(e);
    const engine_job *j = first->job;
    if (e->stopping || !j->witnessing || j->cancel_req || j->failing) return false;
    return !sched_other_ready(e, d); /* other work: the device does not idle */
}

void sched_put_back(cuzk_engine *e, ready_item *r)
{
    ENGINE_LOCKED(e);
    r->next = e->ready; /* the picks scan the whole list: its order does not matter */
    e->ready = r;
}

void sched_release_slot(cuzk_engine *e, int slot, engine_job *j)
{
    ENGINE_LOCKED(e);
    (void)j;
    if (slot >= 0 && (unsigned)slot < e->nslots) {
        abc_release(e, &e->slots[slot]); /* where no proof's notice gave it back */
        e->slots[slot].busy = false;
    }
    pthread_cond_broadcast(&e->work_cv);
}

/* Removes the job's made witnesses from the ready list (a cancel, a failure). */
void sched_drop_ready_of(cuzk_engine *e, engine_job *j)
{
    ENGINE_LOCKED(e);
    for (ready_item **pp = &e->ready; *pp;) {
        ready_item *r = *pp;
        if (r->job != j) {
            pp = &r->next;
            continue;
        }
        *pp = r->next;
        if (r->bound_dev >= 0 && j->circ->dev[r->bound_dev].prover) {
            witness_slot *s = &e->slots[r->slot];
            cuzk_gpu_prefetch_drop(j->circ->dev[r->bound_dev].prover, s->w.input, s->w.aux);
        }
        sched_release_slot(e, r->slot, j);
        cuzk_timeline_destroy(r->tl);
        free(r);
        job_unhold(e, j);
    }
}

void sched_maybe_finish(cuzk_engine *e, engine_job *j)
{
    ENGINE_LOCKED(e);
    if (!engine_job_live(j) || j->in_flight) return;
    if (j->cancel_req) {
        engine_end_job(e, j, CUZK_JOB_CANCELLED);
    } else if (j->failing) {
        engine_end_job(e, j, CUZK_JOB_FAILED);
    } else if (j->done_parts == j->plan.nparts) {
        /* all proved: the finisher verifies them (the job stays in flight until it ends) */
        if (j->finishing) return;
        j->finishing = true;
        job_hold(e, j);
        engine_job **pp = &e->finish_q;
        while (*pp) pp = &(*pp)->finish_next;
        j->finish_next = NULL;
        *pp = j;
        pthread_cond_broadcast(&e->finish_cv);
    }
}
