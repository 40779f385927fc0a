/* The engine mutex with its holder tracked (engine_lock.h). */
#include "engine_lock.h"

#include <stdio.h>
#include <stdlib.h>

/* A thread's tag is the address of its own copy of this variable: unique among live threads
 * and never 0, unlike pthread_t, which is not an integer everywhere. */
static _Thread_local char thread_tag;

static uintptr_t me(void) { return (uintptr_t)&thread_tag; }

void engine_mutex_init(engine_mutex *m)
{
    pthread_mutex_init(&m->mu, NULL);
    atomic_init(&m->holder, 0);
}

void engine_mutex_destroy(engine_mutex *m) { pthread_mutex_destroy(&m->mu); }

void engine_mutex_lock(engine_mutex *m)
{
    pthread_mutex_lock(&m->mu);
    atomic_store_explicit(&m->holder, me(), memory_order_relaxed);
}

void engine_mutex_unlock(engine_mutex *m)
{
    ENGINE_MUTEX_HELD(m);
    atomic_store_explicit(&m->holder, 0, memory_order_relaxed);
    pthread_mutex_unlock(&m->mu);
}

void engine_mutex_wait(engine_mutex *m, pthread_cond_t *cv)
{
    ENGINE_MUTEX_HELD(m);
    atomic_store_explicit(&m->holder, 0, memory_order_relaxed);
    pthread_cond_wait(cv, &m->mu);
    atomic_store_explicit(&m->holder, me(), memory_order_relaxed);
}

bool engine_mutex_wait_until(engine_mutex *m, pthread_cond_t *cv, const struct timespec *dl)
{
    ENGINE_MUTEX_HELD(m);
    atomic_store_explicit(&m->holder, 0, memory_order_relaxed);
    int rc = pthread_cond_timedwait(cv, &m->mu, dl);
    atomic_store_explicit(&m->holder, me(), memory_order_relaxed);
    return rc == 0;
}

/* Relaxed is enough: only the holder stores its own tag, and a thread reads back either its own
 * store or another thread's (never its own tag unless it stored it). */
bool engine_mutex_held(const engine_mutex *m) { return atomic_load_explicit(&m->holder, memory_order_relaxed) == me(); }

void engine_mutex_not_held(const char *where)
{
    fprintf(stderr, "cuzk: internal error: %s needs the engine lock and its caller does not hold it\n", where);
    abort();
}
