/* The partition pipeline (include/cuzk/engine.h): the next partition's witness (and, unless
 * the GPU computes them from its resident circuit, its a, b, c) on the CPU while the current
 * one is proved. Two buffer sets alternate; the producer waits for a free set, the consumer
 * for a filled one. */
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
    cuzk_gpu_prover *gpu;
    bool witness_only; /* a, b, c are the GPU's (resident circuit): the witness is prefetched */
    bool prefetch_failed;
    bool pin; /* page-lock each buffer set once (GPU uploads) */
    bool pin_tried[2];
    void *pinned[2][5]; /* what was registered, per set: input, aux, a, b, c */
    cuzk_timeline *tl;
    cuzk_pool *pool; /* the caller's pool: the witness work runs on it too */
    cuzk_prove_buffers buf[2];
    int filled[2]; /* partition index held, -1 free */
    cuzk_status produce_status;
    char produce_error[512];
    int stop;
    pthread_mutex_t mu;
    pthread_cond_t cv;
} pipeline;

/* Sizes a buffer set for the circuit and page-locks it, once, so the GPU's uploads run at
 * full speed. The first set is locked before the first witness, the second while that
 * witness is made (locking it while a partition was proved held up that proof by as long
 * as the locking took; two lockings side by side ran one after the other in the driver).
 * Failing to lock costs speed only. */
static cuzk_status pin_once(pipeline *pl, int slot, cuzk_prove_buffers *b)
{
    if (!pl->pin || pl->pin_tried[slot]) return CUZK_OK;
    pl->pin_tried[slot] = true;
    cuzk_status st = cuzk_prove_buffers_reserve(b, pl->pce, !pl->witness_only);
    if (st) return st;
    void *ptr[5] = {b->w.input, b->w.aux, b->abc[0], b->abc[1], b->abc[2]};
    size_t bytes[5] = {b->w.input_cap * sizeof(cuzk_fr), b->w.aux_cap * sizeof(cuzk_fr), b->n * sizeof(cuzk_fr),
                       b->n * sizeof(cuzk_fr), b->n * sizeof(cuzk_fr)};
    int span = cuzk_span_begin_under(pl->tl, -1, "page-lock a witness buffer set (once)");
    for (int i = 0; i < 5; i++) {
        if (!ptr[i] || (i >= 2 && pl->witness_only)) continue;
        if (cuzk_gpu_host_register(ptr[i], bytes[i])) {
            int s2 = cuzk_span_begin_under(pl->tl, span, "page-locking failed: uploads from pageable memory");
            cuzk_span_end(pl->tl, s2);
            continue;
        }
        pl->pinned[slot][i] = ptr[i];
    }
    cuzk_span_end(pl->tl, span);
    return CUZK_OK;
}

typedef struct {
    pipeline *pl;
    cuzk_status st;
    char err[256];
} pin_job;

static void *pin_second(void *arg)
{
    pin_job *j = arg;
    j->st = pin_once(j->pl, 1, &j->pl->buf[1]);
    if (j->st) snprintf(j->err, sizeof j->err, "%s", cuzk_last_error());
    return NULL;
}

static cuzk_status fill(pipeline *pl, unsigned k, cuzk_prove_buffers *b)
{
    cuzk_status st = pin_once(pl, (int)(k % 2), b);
    if (st) return cuzk_fail_context(st, "partition %u", k);
    cuzk_circuit *c;
    st = pl->open(pl->ctx, k, &c);
    if (st) return st;
    char prefix[32];
    snprintf(prefix, sizeof prefix, "partition %u: ", k);
    st = pl->witness_only ? cuzk_prove_buffers_fill_witness(b, c, 0, pl->pce, pl->tl, prefix)
                          : cuzk_prove_buffers_fill(b, c, 0, pl->pce, pl->tl, prefix);
    cuzk_circuit_free(c);
    if (st) return cuzk_fail_context(st, "partition %u", k);
    /* the witness goes to the device while the previous partition is proved */
    if (pl->witness_only && !pl->prefetch_failed &&
        cuzk_gpu_prefetch_witness(pl->gpu, b->w.input, b->w.num_inputs, b->w.aux, b->w.num_aux)) {
        pl->prefetch_failed = true;
        char name[320];
        snprintf(name, sizeof name, "no witness prefetch (%s): each proof uploads its own", cuzk_last_error());
        cuzk_span_end(pl->tl, cuzk_span_begin(pl->tl, name));
    }
    return CUZK_OK;
}

/* the producer stops: the consumer sees st and msg */
static void produce_failed(pipeline *pl, cuzk_status st, const char *msg)
{
    pthread_mutex_lock(&pl->mu);
    pl->produce_status = st;
    snprintf(pl->produce_error, sizeof pl->produce_error, "%s", msg);
    pthread_cond_broadcast(&pl->cv);
    pthread_mutex_unlock(&pl->mu);
}

static void *producer(void *arg)
{
    pipeline *pl = arg;
    cuzk_pool_bind(pl->pool);
    pin_job second = {pl, CUZK_OK, ""};
    pthread_t pin_th;
    bool pinning = pl->pin && pl->nparts > 1 && pthread_create(&pin_th, NULL, pin_second, &second) == 0;
    if (pinning) { /* set 0 first: locked, then filled while set 1 is locked */
        cuzk_status st = pin_once(pl, 0, &pl->buf[0]);
        if (st) {
            produce_failed(pl, st, cuzk_last_error());
            pthread_join(pin_th, NULL);
            return NULL;
        }
    }
    for (unsigned k = 0; k < pl->nparts; k++) {
        int slot = (int)(k % 2);
        if (k == 1 && pinning) {
            pthread_join(pin_th, NULL);
            pinning = false;
            if (second.st) {
                produce_failed(pl, second.st, second.err);
                break;
            }
        }
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
    if (pinning) pthread_join(pin_th, NULL);
    return NULL;
}

cuzk_status cuzk_prove_partitions(unsigned nparts, cuzk_partition_open_fn open, void *ctx, const cuzk_pce *pce,
                                  const cuzk_groth16_params *p, cuzk_gpu_prover *gpu, cuzk_groth16_proof *proofs,
                                  cuzk_fr *inputs, size_t ninputs, cuzk_timeline *tl)
{
    if (!gpu && !p) return cuzk_fail(CUZK_EINVAL, "the CPU prover needs the parameters");
    pipeline pl;
    memset(&pl, 0, sizeof pl);
    pl.nparts = nparts;
    pl.open = open;
    pl.ctx = ctx;
    pl.pce = pce;
    pl.tl = tl;
    pl.pool = cuzk_pool_current();
    pl.filled[0] = pl.filled[1] = -1;
    cuzk_gpu_pce *gpce = NULL;
    if (gpu) {
        /* once for all partitions; a device without room for it still proves, with a, b, c
         * from the CPU */
        int span = cuzk_span_begin(tl, "upload precompiled circuit to the GPU");
        cuzk_status up = cuzk_gpu_pce_create(cuzk_gpu_prover_device(gpu), &gpce, pce);
        cuzk_span_end(tl, span);
        if (up == CUZK_ENOMEM) {
            span = cuzk_span_begin(tl, "no device memory for the precompiled circuit: a, b, c on the CPU");
            cuzk_span_end(tl, span);
        } else if (up) {
            return up;
        }
    }
    pl.witness_only = gpce != NULL;
    pl.gpu = gpu;
    pl.pin = gpu != NULL;
    pthread_mutex_init(&pl.mu, NULL);
    pthread_cond_init(&pl.cv, NULL);
    pthread_t th;
    if (pthread_create(&th, NULL, producer, &pl) != 0) {
        cuzk_gpu_pce_destroy(gpce);
        return cuzk_fail(CUZK_EINTERNAL, "cannot start the witness thread");
    }
    cuzk_status st = CUZK_OK;
    cuzk_groth16_workspace ws; /* the CPU prover's memory, kept across the partitions */
    memset(&ws, 0, sizeof ws);
    for (unsigned k = 0; k < nparts && !st; k++) {
        int slot = (int)(k % 2);
        pthread_mutex_lock(&pl.mu);
        while (pl.filled[slot] != (int)k && !pl.produce_status) pthread_cond_wait(&pl.cv, &pl.mu);
        if (pl.filled[slot] != (int)k) st = cuzk_fail(pl.produce_status, "%s", pl.produce_error);
        pthread_mutex_unlock(&pl.mu);
        if (st) break;
        cuzk_prove_buffers *b = &pl.buf[slot];
        cuzk_groth16_witness gw = cuzk_prove_buffers_witness(b, pce);
        if (b->w.num_inputs != ninputs + 1)
            st = cuzk_fail(CUZK_EINVAL, "partition %u has %zu public inputs, expected %zu", k, b->w.num_inputs - 1,
                           ninputs);
        if (!st && p) st = cuzk_groth16_check_shape(p, &gw); /* the GPU prover checks its own */
        char name[48];
        snprintf(name, sizeof name, "partition %u: prove%s", k, gpu ? " (gpu)" : "");
        int span = cuzk_span_begin(tl, name); /* the prover's own spans nest under it */
        if (!st) {
            if (gpce)
                st = cuzk_gpu_prove_pce(gpu, gpce, &proofs[k], b->w.input, b->w.num_inputs, b->w.aux, b->w.num_aux,
                                        NULL, NULL, tl);
            else if (gpu) st = cuzk_gpu_prove(gpu, &proofs[k], &gw, NULL, NULL, tl);
            else st = cuzk_groth16_prove_ws(&ws, &proofs[k], p, &gw, NULL, NULL, tl);
        }
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
    cuzk_groth16_workspace_free(&ws);
    cuzk_gpu_pce_destroy(gpce);
    for (int j = 0; j < 2; j++) {
        for (int i = 0; i < 5; i++)
            if (pl.pinned[j][i]) cuzk_gpu_host_unregister(pl.pinned[j][i]);
        cuzk_prove_buffers_free(&pl.buf[j]);
    }
    pthread_mutex_destroy(&pl.mu);
    pthread_cond_destroy(&pl.cv);
    return st;
}
