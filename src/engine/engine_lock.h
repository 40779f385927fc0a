/* The engine's one mutex, with its holder tracked so a function that needs the lock can check
 * that its caller holds it (ENGINE_LOCKED). Every lock, unlock and wait on engine.mu goes
 * through these functions; the check costs an atomic load, the tracking two atomic stores per
 * lock, so it is always on (defining CUZK_NO_LOCK_CHECKS compiles the checks out). */
#ifndef CUZK_ENGINE_LOCK_H
#define CUZK_ENGINE_LOCK_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

typedef struct {
    pthread_mutex_t mu;
    atomic_uintptr_t holder; /* the holding thread's tag (engine_lock.c), 0 while free */
} engine_mutex;

void engine_mutex_init(engine_mutex *m);
void engine_mutex_destroy(engine_mutex *m);
void engine_mutex_lock(engine_mutex *m);
void engine_mutex_unlock(engine_mutex *m);
/* pthread_cond_wait on m, which the caller holds; the holder is cleared while it sleeps. */
void engine_mutex_wait(engine_mutex *m, pthread_cond_t *cv);
/* The same until the CLOCK_REALTIME deadline dl: false when it passed. */
bool engine_mutex_wait_until(engine_mutex *m, pthread_cond_t *cv, const struct timespec *dl);
/* Whether the calling thread holds m. */
bool engine_mutex_held(const engine_mutex *m);
/* Stops the process naming where the lock was needed and not held: a bug, never input. */
void engine_mutex_not_held(const char *where) __attribute__((noreturn));

#ifndef CUZK_NO_LOCK_CHECKS
#define ENGINE_MUTEX_HELD(m)                                        \
    do {                                                            \
        if (!engine_mutex_held(m)) engine_mutex_not_held(__func__); \
    } while (0)
#else
#define ENGINE_MUTEX_HELD(m) ((void)0)
#endif
/* In a function that needs the engine lock: abort unless the caller holds it. */
#define ENGINE_LOCKED(e) ENGINE_MUTEX_HELD(&(e)->mu)

#endif
