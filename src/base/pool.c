/* Thread pools as objects, behind cuzk_parallel_for / cuzk_parallel_tasks.
 *
 * A pool runs one parallel loop at a time (a mutex serialises its callers); workers take
 * chunk indices from an atomic counter, and the calling thread works too. Each thread has a
 * current pool (cuzk_pool_bind): library code calls cuzk_parallel_for without naming a pool,
 * so the caller decides which pool (and how many threads) its work gets, and two pools bound
 * on two threads (the witness and the prover, say) run at the same time. A loop started from
 * inside a loop of the same pool runs inline on that thread, so nesting never deadlocks. */
#include "cuzk/base.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

typedef struct {
    cuzk_range_fn fn;
    void *ctx;
    size_t n, chunk, nchunks;
    atomic_size_t next;
} pool_job;

struct cuzk_pool {
    pthread_mutex_t lock; /* held by the thread running a loop */
    pthread_mutex_t mu;   /* guards the fields below */
    pthread_cond_t wake, finished;
    pthread_t *threads;
    unsigned nthreads; /* workers + the caller */
    unsigned long generation;
    pool_job *job;
    unsigned active; /* workers inside the current loop */
    int quit;
};

typedef struct {
    cuzk_pool *pool;
    unsigned tid;
} worker_arg;

static _Thread_local cuzk_pool *bound = NULL;   /* this thread's current pool */
static _Thread_local cuzk_pool *running = NULL; /* the pool whose loop this thread is inside */
static _Thread_local unsigned running_tid = 0;

static unsigned online_cpus(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1;
}

static void run_chunks(pool_job *job, unsigned tid)
{
    for (;;) {
        size_t c = atomic_fetch_add(&job->next, 1);
        if (c >= job->nchunks) break;
        size_t b = c * job->chunk, e = b + job->chunk;
        if (e > job->n) e = job->n;
        job->fn(job->ctx, b, e, tid);
    }
}

static void *worker_main(void *arg)
{
    worker_arg wa = *(worker_arg *)arg;
    free(arg);
    cuzk_pool *p = wa.pool;
    bound = p; /* nested loops of this pool run inline here */
    running = p;
    running_tid = wa.tid;
    unsigned long seen = 0;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (p->generation == seen && !p->quit) pthread_cond_wait(&p->wake, &p->mu);
        if (p->quit) break;
        seen = p->generation;
        pool_job *job = p->job;
        if (!job) continue;
        p->active++;
        pthread_mutex_unlock(&p->mu);
        run_chunks(job, wa.tid);
        pthread_mutex_lock(&p->mu);
        if (--p->active == 0) pthread_cond_broadcast(&p->finished);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

cuzk_status cuzk_pool_create(cuzk_pool **out, unsigned nthreads)
{
    *out = NULL;
    unsigned n = nthreads ? nthreads : online_cpus();
    cuzk_pool *p = cuzk_calloc(1, sizeof *p);
    if (!p) return CUZK_ENOMEM;
    p->threads = cuzk_calloc(n, sizeof(pthread_t));
    if (!p->threads) {
        free(p);
        return CUZK_ENOMEM;
    }
    pthread_mutex_init(&p->lock, NULL);
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->wake, NULL);
    pthread_cond_init(&p->finished, NULL);
    p->nthreads = 1;
    for (unsigned i = 1; i < n; i++) {
        worker_arg *wa = malloc(sizeof *wa);
        if (!wa) break;
        wa->pool = p;
        wa->tid = i;
        if (pthread_create(&p->threads[i], NULL, worker_main, wa) != 0) {
            free(wa);
            break;
        }
        p->nthreads++;
    }
    if (p->nthreads < n) {
        cuzk_pool_destroy(p);
        return cuzk_fail(CUZK_ENOMEM, "thread pool: could start only some of %u threads", n);
    }
    *out = p;
    return CUZK_OK;
}

void cuzk_pool_destroy(cuzk_pool *p)
{
    if (!p) return;
    pthread_mutex_lock(&p->lock); /* waits for a loop in progress */
    pthread_mutex_lock(&p->mu);
    p->quit = 1;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->mu);
    for (unsigned i = 1; i < p->nthreads; i++) pthread_join(p->threads[i], NULL);
    pthread_mutex_unlock(&p->lock);
    if (bound == p) bound = NULL;
    pthread_mutex_destroy(&p->lock);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->wake);
    pthread_cond_destroy(&p->finished);
    free(p->threads);
    free(p);
}

unsigned cuzk_pool_size(const cuzk_pool *p) { return p ? p->nthreads : 1; }

cuzk_pool *cuzk_pool_bind(cuzk_pool *p)
{
    cuzk_pool *old = bound;
    bound = p;
    return old;
}

cuzk_pool *cuzk_pool_current(void) { return bound; }

unsigned cuzk_threads(void) { return cuzk_pool_size(bound); }

static void run_inline(size_t n, size_t chunk, cuzk_range_fn fn, void *ctx, unsigned tid)
{
    for (size_t b = 0; b < n; b += chunk) fn(ctx, b, b + chunk < n ? b + chunk : n, tid);
}

static void run_job(cuzk_pool *p, size_t n, size_t chunk, cuzk_range_fn fn, void *ctx)
{
    if (n == 0) return;
    if (!p) {
        run_inline(n, chunk, fn, ctx, 0);
        return;
    }
    if (running == p) { /* nested in a loop of this pool: inline */
        run_inline(n, chunk, fn, ctx, running_tid);
        return;
    }
    pthread_mutex_lock(&p->lock);
    cuzk_pool *outer = running;
    unsigned outer_tid = running_tid;
    running = p;
    running_tid = 0;
    pool_job job = {fn, ctx, n, chunk, (n + chunk - 1) / chunk, 0};
    if (job.nchunks == 1 || p->nthreads == 1) {
        run_chunks(&job, 0);
    } else {
        pthread_mutex_lock(&p->mu);
        p->job = &job;
        p->generation++;
        pthread_cond_broadcast(&p->wake);
        pthread_mutex_unlock(&p->mu);
        run_chunks(&job, 0);
        pthread_mutex_lock(&p->mu);
        p->job = NULL;
        while (p->active > 0) pthread_cond_wait(&p->finished, &p->mu);
        pthread_mutex_unlock(&p->mu);
    }
    running = outer;
    running_tid = outer_tid;
    pthread_mutex_unlock(&p->lock);
}

void cuzk_parallel_for(size_t n, size_t grain, cuzk_range_fn fn, void *ctx)
{
    if (n == 0) return;
    unsigned t = cuzk_threads();
    if (grain == 0) grain = 1;
    /* About 4 chunks per thread balances uneven work without much scheduling cost. */
    size_t chunk = (n + (size_t)t * 4 - 1) / ((size_t)t * 4);
    if (chunk < grain) chunk = grain;
    run_job(bound, n, chunk, fn, ctx);
}

void cuzk_parallel_tasks(size_t ntasks, cuzk_range_fn fn, void *ctx) { run_job(bound, ntasks, 1, fn, ctx); }
