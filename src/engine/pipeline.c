/* The partition pipeline (include/cuzk/engine.h): witness + a, b, c of the next partition on
 * the CPU while the current one is proved. Two buffer sets alternate; the producer waits for
 * a free set, the consumer for a filled one. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "cuzk/engine.h"
#include "cuzk/gpu.h"

typedef struct {
    unsigned nparts;
    cuzk_partition_open_fn open;
    void *ctx;
    const cuzk_pce *pce;
    cuzk_timeline *tl;
    cuzk_prove_buffers buf[2];
    int filled[2]; /* partition index held, -1 free */
    cuzk_status produce_status;
    char produce_error[512];
    int stop;
    pthread_mutex_t mu;
    pthread_cond_t cv;
} pipeline;

static cuzk_status fill(pipeline *pl, unsigned k, cuzk_prove_buffers *b)
{
    cuzk_circuit *c;
    cuzk_status st = pl->open(pl->ctx, k, &c);
    if (st) return st;
    char name[48];
    snprintf(name, sizeof name, "witness %u", k);
    int span = cuzk_span_begin_under(pl->tl, -1, name);
    st = cuzk_circuit_witness(c, 0, true, &b->w);
    cuzk_span_end(pl->tl, span);
    cuzk_circuit_free(c);
    if (st) return st;
    const cuzk_pce *pce = pl->pce;
    if (b->w.num_inputs != pce->num_inputs || b->w.num_aux != pce->num_aux)
        return cuzk_fail(CUZK_EINVAL, "partition %u: the precompiled circuit has %zu inputs and %zu aux, the witness %zu "
                                      "and %zu", k, pce->num_inputs, pce->num_aux, b->w.num_inputs, b->w.num_aux);
    size_t n = pce->num_constraints + pce->num_inputs;
    if (b->n < n) {
        for (int j = 0; j < 3; j++) {
            cuzk_big_free(b->abc[j], b->n * sizeof(cuzk_fr));
            b->abc[j] = NULL;
        }
        b->n = 0;
        for (int j = 0; j < 3; j++)
            if (!(b->abc[j] = cuzk_big_alloc(n * sizeof(cuzk_fr)))) return CUZK_ENOMEM;
        b->n = n;
    }
    snprintf(name, sizeof name, "a, b, c %u", k);
    span = cuzk_span_begin_under(pl->tl, -1, name);
    cuzk_pce_evaluate(pce, b->w.input, b->w.aux, b->abc[0], b->abc[1], b->abc[2]);
    cuzk_span_end(pl->tl, span);
    return CUZK_OK;
}

static void *producer(void *arg)
{
    pipeline *pl = arg;
    for (unsigned k = 0; k < pl->nparts; k++) {
        int slot = (int)(k % 2);
        pthread_mutex_lock(&pl->mu);
        while (pl->filled[slot] != -1 && !pl->stop) pthread_cond_wait(&pl->cv, &pl->mu);
        int stop = pl->stop;
        pthread_mutex_unlock(&pl->mu);
        if (stop) break;
        cuzk_status st = fill(pl, k, &pl->buf[slot]);
        pthread_mutex_lock(&pl->mu);
        if (st) {
            pl->produce_status = st;
            snprintf(pl->produce_error, sizeof pl->produce_error, "%s", cuzk_last_error());
        } else {
            pl->filled[slot] = (int)k;
        }
        pthread_cond_broadcast(&pl->cv);
        pthread_mutex_unlock(&pl->mu);
        if (st) break;
    }
    return NULL;
}

cuzk_status cuzk_prove_partitions(unsigned nparts, cuzk_partition_open_fn open, void *ctx, const cuzk_pce *pce,
                                  const cuzk_groth16_params *p, cuzk_gpu_prover *gpu, cuzk_groth16_proof *proofs,
                                  cuzk_fr *inputs, size_t ninputs, cuzk_timeline *tl)
{
    pipeline pl;
    memset(&pl, 0, sizeof pl);
    pl.nparts = nparts;
    pl.open = open;
    pl.ctx = ctx;
    pl.pce = pce;
    pl.tl = tl;
    pl.filled[0] = pl.filled[1] = -1;
    pthread_mutex_init(&pl.mu, NULL);
    pthread_cond_init(&pl.cv, NULL);
    pthread_t th;
    if (pthread_create(&th, NULL, producer, &pl) != 0) return cuzk_fail(CUZK_EINTERNAL, "cannot start the witness thread");
    cuzk_status st = CUZK_OK;
    for (unsigned k = 0; k < nparts && !st; k++) {
        int slot = (int)(k % 2);
        pthread_mutex_lock(&pl.mu);
        while (pl.filled[slot] != (int)k && !pl.produce_status) pthread_cond_wait(&pl.cv, &pl.mu);
        if (pl.filled[slot] != (int)k) st = cuzk_fail(pl.produce_status, "%s", pl.produce_error);
        pthread_mutex_unlock(&pl.mu);
        if (st) break;
        cuzk_prove_buffers *b = &pl.buf[slot];
        size_t n = pce->num_constraints + pce->num_inputs;
        cuzk_groth16_witness gw = {b->abc[0], b->abc[1], b->abc[2], n, b->w.input, b->w.num_inputs, b->w.aux,
                                   b->w.num_aux, &pce->a_aux, &pce->b_input, &pce->b_aux};
        if (b->w.num_inputs != ninputs + 1)
            st = cuzk_fail(CUZK_EINVAL, "partition %u has %zu public inputs, expected %zu", k, b->w.num_inputs - 1, ninputs);
        if (!st) st = cuzk_groth16_check_shape(p, &gw);
        char name[48];
        snprintf(name, sizeof name, "prove %u%s", k, gpu ? " (gpu)" : "");
        int span = cuzk_span_begin(tl, name); /* the prover's own spans nest under it */
        if (!st) st = gpu ? cuzk_gpu_prove(gpu, &proofs[k], &gw, NULL, NULL, tl) : cuzk_groth16_prove(&proofs[k], p, &gw, NULL, NULL, tl);
        cuzk_span_end(tl, span);
        if (!st) memcpy(inputs + (size_t)k * ninputs, b->w.input + 1, ninputs * sizeof(cuzk_fr));
        pthread_mutex_lock(&pl.mu);
        pl.filled[slot] = -1;
        if (st) pl.stop = 1;
        pthread_cond_broadcast(&pl.cv);
        pthread_mutex_unlock(&pl.mu);
    }
    pthread_mutex_lock(&pl.mu);
    pl.stop = 1;
    pthread_cond_broadcast(&pl.cv);
    pthread_mutex_unlock(&pl.mu);
    pthread_join(th, NULL);
    for (int j = 0; j < 2; j++) cuzk_prove_buffers_free(&pl.buf[j]);
    pthread_mutex_destroy(&pl.mu);
    pthread_cond_destroy(&pl.cv);
    return st;
}
