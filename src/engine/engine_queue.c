/* The queued jobs: those with partitions left for a witness lane to make, kept by circuit and
 * by priority in binary min-heaps ordered by submission (seq), so that the scheduler's pick
 * reads the heads of a few heaps instead of walking every job (engine_sched.c says why the
 * heads are enough). A job enters once, when its input is checked, and leaves once: when its
 * last partition is taken, or it is cancelled, fails or ends. Each job knows its place in its
 * heap, so any of them leaves in O(log n). All functions here run with engine.mu held. */
#include <stdlib.h>

#include "engine_internal.h"

static job_heap *heap_of(engine_job *j) { return &j->circ->queued[j->prio - CUZK_PRIORITY_LOW]; }

static void heap_put(job_heap *h, size_t i, engine_job *j)
{
    h->at[i] = j;
    j->queue_at = i;
}

static void sift_up(job_heap *h, size_t i)
{
    engine_job *j = h->at[i];
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (h->at[parent]->seq < j->seq) break;
        heap_put(h, i, h->at[parent]);
        i = parent;
    }
    heap_put(h, i, j);
}

static void sift_down(job_heap *h, size_t i)
{
    engine_job *j = h->at[i];
    for (;;) {
        size_t child = 2 * i + 1;
        if (child >= h->n) break;
        if (child + 1 < h->n && h->at[child + 1]->seq < h->at[child]->seq) child++;
        if (j->seq < h->at[child]->seq) break;
        heap_put(h, i, h->at[child]);
        i = child;
    }
    heap_put(h, i, j);
}

bool queue_add(cuzk_engine *e, engine_job *j)
{
    ENGINE_LOCKED(e);
    if (j->queued) return true;
    job_heap *h = heap_of(j);
    if (h->n == h->cap) {
        size_t cap = h->cap ? 2 * h->cap : 64;
        engine_job **at = realloc(h->at, cap * sizeof *at);
        if (!at) return false;
        h->at = at;
        h->cap = cap;
    }
    h->n++;
    heap_put(h, h->n - 1, j);
    sift_up(h, h->n - 1);
    j->queued = true;
    j->circ->nqueued++;
    e->nqueued++;
    return true;
}

void queue_drop(cuzk_engine *e, engine_job *j)
{
    ENGINE_LOCKED(e);
    if (!j->queued) return;
    job_heap *h = heap_of(j);
    size_t i = j->queue_at;
    engine_job *last = h->at[--h->n];
    if (i < h->n) {
        heap_put(h, i, last);
        sift_up(h, i);
        sift_down(h, last->queue_at);
    }
    j->queued = false;
    j->circ->nqueued--;
    e->nqueued--;
}

engine_job *queue_head(const engine_circuit *c, cuzk_priority prio)
{
    const job_heap *h = &c->queued[prio - CUZK_PRIORITY_LOW];
    return h->n ? h->at[0] : NULL;
}

void queue_free(engine_circuit *c)
{
    for (int p = 0; p < ENGINE_PRIORITIES; p++) {
        free(c->queued[p].at);
        c->queued[p] = (job_heap){0};
    }
    c->nqueued = 0;
}
