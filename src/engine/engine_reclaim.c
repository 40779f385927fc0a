/* The reclaimer: big frees (evicted parameters, a regrown buffer, a large job input, device
 * memory) happen on this thread, so a free of 100 GB never sits between two proofs. Its work
 * is counted in the metrics (bytes, seconds). */
#include <stdio.h>
#include <stdlib.h>

#include "engine_internal.h"

void reclaim_push_device(cuzk_engine *e, void (*fn)(void *), void *arg, uint64_t bytes, const char *what, int dev)
{
    ENGINE_LOCKED(e);
    reclaim_item *r = calloc(1, sizeof *r);
    if (!r) { /* no memory for the note: free it here */
        fn(arg);
        return;
    }
    r->fn = fn;
    r->arg = arg;
    r->bytes = bytes;
    r->dev = dev;
    if (dev >= 0) e->dev[dev].reclaim_pending += bytes;
    snprintf(r->what, sizeof r->what, "%s", what);
    if (e->reclaim_tail) e->reclaim_tail->next = r;
    else e->reclaim_q = r;
    e->reclaim_tail = r;
    pthread_cond_signal(&e->reclaim_cv);
}

void reclaim_push(cuzk_engine *e, void (*fn)(void *), void *arg, uint64_t bytes, const char *what)
{
    reclaim_push_device(e, fn, arg, bytes, what, -1);
}

void *reclaimer_main(void *arg)
{
    cuzk_engine *e = arg;
    engine_mutex_lock(&e->mu);
    for (;;) {
        reclaim_item *r = e->reclaim_q;
        if (!r) {
            /* stops once every other thread has (destroy sets this after joining them) */
            if (e->reclaim_stop) break;
            engine_mutex_wait(&e->mu, &e->reclaim_cv);
            continue;
        }
        e->reclaim_q = r->next;
        if (!e->reclaim_q) e->reclaim_tail = NULL;
        engine_mutex_unlock(&e->mu);
        double t0 = cuzk_now();
        r->fn(r->arg);
        double dt = cuzk_now() - t0;
        engine_mutex_lock(&e->mu);
        e->reclaimed_bytes += r->bytes;
        e->reclaims++;
        e->reclaim_s += dt;
        if (r->dev >= 0) {
            engine_device *d = &e->dev[r->dev];
            d->reclaim_pending = d->reclaim_pending > r->bytes ? d->reclaim_pending - r->bytes : 0;
            pthread_cond_broadcast(&e->done_cv); /* a device load may wait for this memory */
        }
        free(r);
    }
    engine_mutex_unlock(&e->mu);
    return NULL;
}
