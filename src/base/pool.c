/* The process-wide thread pool behind cuzk_parallel_for / cuzk_parallel_tasks.
 *
 * One job runs at a time (a mutex serialises callers); workers take chunk indices from an
 * atomic counter, and the calling thread works too. A parallel loop started from inside a
 * worker runs inline on that worker, so nested parallelism never deadlocks. */
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
    atomic_size_t done;
} pool_job;

static struct {
    pthread_mutex_t lock;     /* held by the thread running a job */
    pthread_mutex_t mu;       /* guards the fields below */
    pthread_cond_t wake, finished;
    pthread_t *threads;
    unsigned nthreads;        /* workers + the caller */
    unsigned want;            /* requested size, 0 = all CPUs */
    int started;
    unsigned long generation;
    pool_job *job;
    unsigned active;          /* workers inside the current job */
} pool = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER,
          PTHREAD_COND_INITIALIZER, NULL, 0, 0, 0, 0, NULL, 0};

static _Thread_local int in_worker = 0;
static _Thread_local unsigned worker_tid = 0;

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
        atomic_fetch_add(&job->done, 1);
    }
}

static void *worker_main(void *arg)
{
    unsigned tid = (unsigned)(uintptr_t)arg;
    unsigned long seen = 0;
    in_worker = 1;
    worker_tid = tid;
    pthread_mutex_lock(&pool.mu);
    for (;;) {
        while (pool.generation == seen) pthread_cond_wait(&pool.wake, &pool.mu);
        seen = pool.generation;
        pool_job *job = pool.job;
        if (!job) continue;
        pool.active++;
        pthread_mutex_unlock(&pool.mu);
        run_chunks(job, tid);
        pthread_mutex_lock(&pool.mu);
        if (--pool.active == 0) pthread_cond_broadcast(&pool.finished);
    }
    return NULL;
}

/* Starts the workers on first use. Called with pool.lock held. */
static void pool_start(void)
{
    if (pool.started) return;
    unsigned n = pool.want;
    if (!n) {
        const char *env = getenv("CUZK_THREADS");
        if (env && atoi(env) > 0) n = (unsigned)atoi(env);
    }
    if (!n) n = online_cpus();
    pool.threads = calloc(n, sizeof(pthread_t));
    unsigned started = 1;
    for (unsigned i = 1; pool.threads && i < n; i++) {
        if (pthread_create(&pool.threads[i], NULL, worker_main, (void *)(uintptr_t)i) != 0) break;
        started++;
    }
    pool.nthreads = started;
    pool.started = 1;
}

void cuzk_set_threads(unsigned n)
{
    /* Threads already started keep running; resizing takes effect only before first use,
     * which is how the CLI uses it (--threads is parsed before any work). */
    pthread_mutex_lock(&pool.lock);
    if (!pool.started) pool.want = n;
    pthread_mutex_unlock(&pool.lock);
}

unsigned cuzk_threads(void)
{
    if (in_worker) return pool.nthreads;
    pthread_mutex_lock(&pool.lock);
    pool_start();
    unsigned n = pool.nthreads;
    pthread_mutex_unlock(&pool.lock);
    return n;
}

static void run_job(size_t n, size_t chunk, cuzk_range_fn fn, void *ctx)
{
    if (n == 0) return;
    if (in_worker) { /* nested: inline */
        for (size_t b = 0; b < n; b += chunk) fn(ctx, b, b + chunk < n ? b + chunk : n, worker_tid);
        return;
    }
    pthread_mutex_lock(&pool.lock);
    pool_start();
    pool_job job = {fn, ctx, n, chunk, (n + chunk - 1) / chunk, 0, 0};
    if (job.nchunks == 1 || pool.nthreads == 1) {
        in_worker = 1; /* nested calls from fn run inline */
        worker_tid = 0;
        run_chunks(&job, 0);
        in_worker = 0;
        pthread_mutex_unlock(&pool.lock);
        return;
    }
    pthread_mutex_lock(&pool.mu);
    pool.job = &job;
    pool.generation++;
    pthread_cond_broadcast(&pool.wake);
    pthread_mutex_unlock(&pool.mu);

    in_worker = 1;
    worker_tid = 0;
    run_chunks(&job, 0);
    in_worker = 0;

    pthread_mutex_lock(&pool.mu);
    pool.job = NULL;
    while (pool.active > 0) pthread_cond_wait(&pool.finished, &pool.mu);
    pthread_mutex_unlock(&pool.mu);
    pthread_mutex_unlock(&pool.lock);
}

void cuzk_parallel_for(size_t n, size_t grain, cuzk_range_fn fn, void *ctx)
{
    if (n == 0) return;
    unsigned t = cuzk_threads();
    if (grain == 0) grain = 1;
    /* About 4 chunks per thread balances uneven work without much scheduling cost. */
    size_t chunk = (n + (size_t)t * 4 - 1) / ((size_t)t * 4);
    if (chunk < grain) chunk = grain;
    run_job(n, chunk, fn, ctx);
}

void cuzk_parallel_tasks(size_t ntasks, cuzk_range_fn fn, void *ctx)
{
    run_job(ntasks, 1, fn, ctx);
}
