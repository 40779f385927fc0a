/* The a, b, c buffers: where a witness lane makes a partition's a, b, c on the CPU for GPUs
 * that prove its circuit without the circuit's matrices (a placement whose device has no room
 * for the precompiled circuit). They are a pool apart from the witness buffers: a proof reads
 * its witness until its last MSM but its a, b, c only until its NTTs, and the GPU prover says
 * when (cuzk_groth16_prove_opts.abc_read), so a buffer takes the next partition's a, b, c while
 * the proof's MSMs run. Kept in each witness buffer (17 GB instead of 4.2 for a 32 GiB PoRep
 * partition), the four buffers a batch of two needs did not fit a 128 GiB host beside the 47 GB
 * of page-locked parameters. */
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"

/* Whether some GPU in service proves c in batches of two or more (locked). */
static bool batches_on_some_gpu(const cuzk_engine *e, const engine_circuit *c)
{
    ENGINE_LOCKED(e);
    for (unsigned i = 0; i < e->ndev; i++) {
        const circuit_on_device *cd = &c->dev[i];
        if (e->dev[i].ordinal >= 0 && e->dev[i].in_service && cd->prover && cuzk_gpu_prover_batch_max(cd->prover) > 1)
            return true;
    }
    return false;
}

bool slot_usable(const cuzk_engine *e, const witness_slot *s, const engine_circuit *c)
{
    ENGINE_LOCKED(e);
    return !s->busy && (!s->batch_only || batches_on_some_gpu(e, c));
}

static uint64_t abc_growth(const abc_buffer *b, const engine_circuit *c)
{
    const size_t n = c->pce.num_constraints + c->pce.num_inputs;
    return n > b->cap ? (uint64_t)(n - b->cap) * 3 * sizeof(cuzk_fr) : 0;
}

/* As free_slot_for (engine_sched.c) does for witness buffers: with none busy one is taken
 * whatever it costs, so that work never stalls on the budget alone. */
int abc_pick(cuzk_engine *e, const engine_circuit *c)
{
    ENGINE_LOCKED(e);
    int pick = -1, pick_rank = -1;
    bool busy = false;
    for (unsigned i = 0; i < e->nabc; i++) {
        const abc_buffer *b = &e->abcs[i];
        busy |= b->busy;
        if (b->busy) continue;
        const uint64_t g = abc_growth(b, c);
        const int rank = (e->host_used + g <= e->host_budget) * 2 + (g == 0);
        if (rank > pick_rank) pick = (int)i, pick_rank = rank;
    }
    return pick >= 0 && (pick_rank >= 2 || !busy) ? pick : -1;
}

static void abc_buffer_free(abc_buffer *b)
{
    for (int k = 0; k < 3; k++) {
        if (b->pinned && b->v[k]) cuzk_gpu_host_unregister(b->v[k]);
        cuzk_big_free(b->v[k], b->cap * sizeof(cuzk_fr));
        b->v[k] = NULL;
    }
    b->cap = 0;
    b->pinned = false;
}

cuzk_status abc_make(abc_buffer *b, const cuzk_pce *pce, const cuzk_witness *w, bool pin, cuzk_timeline *tl,
                     uint64_t *grown, int64_t *pinned)
{
    const size_t n = pce->num_constraints + pce->num_inputs;
    *grown = 0;
    *pinned = 0;
    if (b->cap < n) {
        int span = cuzk_span_begin(tl, "grow and page-lock an a, b, c buffer (once)");
        cuzk_fr *fresh[3] = {NULL, NULL, NULL};
        for (int k = 0; k < 3; k++) fresh[k] = cuzk_big_alloc(n * sizeof(cuzk_fr));
        if (!fresh[0] || !fresh[1] || !fresh[2]) { /* the old buffers stay */
            for (int k = 0; k < 3; k++) cuzk_big_free(fresh[k], n * sizeof(cuzk_fr));
            cuzk_span_end(tl, span);
            return cuzk_fail(CUZK_ENOMEM, "out of memory for a, b, c (%zu entries each)", n);
        }
        const uint64_t before = (uint64_t)b->cap * 3 * sizeof(cuzk_fr);
        const int64_t was_pinned = b->pinned ? (int64_t)before : 0;
        abc_buffer_free(b);
        memcpy(b->v, fresh, sizeof fresh);
        b->cap = n;
        b->pinned = pin;
        for (int k = 0; k < 3 && pin; k++)
            if (cuzk_gpu_host_register(b->v[k], n * sizeof(cuzk_fr))) {
                while (k-- > 0) cuzk_gpu_host_unregister(b->v[k]);
                b->pinned = false;
                break;
            }
        cuzk_span_end(tl, span);
        *grown = (uint64_t)n * 3 * sizeof(cuzk_fr) - before;
        *pinned = (b->pinned ? (int64_t)n * 3 * (int64_t)sizeof(cuzk_fr) : 0) - was_pinned;
    }
    int span = cuzk_span_begin(tl, "a, b, c (cpu)");
    cuzk_pce_evaluate(pce, w->input, w->aux, b->v[0], b->v[1], b->v[2]);
    cuzk_span_end(tl, span);
    return CUZK_OK;
}

void abc_release(cuzk_engine *e, witness_slot *s)
{
    ENGINE_LOCKED(e);
    if (s->abc < 0 || (unsigned)s->abc >= e->nabc) return;
    e->abcs[s->abc].busy = false;
    s->abc = -1;
    pthread_cond_broadcast(&e->work_cv);
}

void notice_abc_read(void *ctx, size_t k)
{
    proof_notice *n = ctx;
    if (k >= n->n) return;
    cuzk_engine *e = n->e;
    engine_mutex_lock(&e->mu);
    const int slot = n->item[k]->slot;
    if (slot >= 0 && (unsigned)slot < e->nslots) abc_release(e, &e->slots[slot]);
    engine_mutex_unlock(&e->mu);
}

cuzk_status abc_pool_create(cuzk_engine *e)
{
    unsigned n = e->cfg.abc_buffers;
    if (!n) n = e->nslots > 3 ? e->nslots - 2 : 1;
    if (n > ENGINE_BATCH_MAX) n = ENGINE_BATCH_MAX;
    e->abcs = calloc(n, sizeof *e->abcs);
    if (!e->abcs) return cuzk_fail(CUZK_ENOMEM, "out of memory");
    e->nabc = n;
    return CUZK_OK;
}

void abc_pool_free(cuzk_engine *e)
{
    for (unsigned i = 0; e->abcs && i < e->nabc; i++) abc_buffer_free(&e->abcs[i]);
    free(e->abcs);
    e->abcs = NULL;
    e->nabc = 0;
}
