/* The engine mutex's holder tracking (src/engine/engine_lock.h): held only by the thread that
 * locked it, cleared while a wait sleeps and restored after it, and a function that needs the
 * lock stops the process when its caller does not hold it (checked in a child process). */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "engine/engine_lock.h"
#include "harness.h"

typedef struct {
    engine_mutex *m;
    bool held_here;
} peek;

static void *peek_main(void *arg)
{
    peek *p = arg;
    p->held_here = engine_mutex_held(p->m);
    return NULL;
}

/* Whether fn(m) in a child process ends it with SIGABRT. */
static bool aborts(void (*fn)(engine_mutex *m), engine_mutex *m)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) return false;
    if (pid == 0) {
        fn(m);
        _exit(0);
    }
    int status = 0;
    if (waitpid(pid, &status, 0) != pid) return false;
    return WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT;
}

static void unlock_unheld(engine_mutex *m) { engine_mutex_unlock(m); }

static void wait_unheld(engine_mutex *m)
{
    pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
    engine_mutex_wait(m, &cv);
}

static void needs_lock(engine_mutex *m) { ENGINE_MUTEX_HELD(m); }

int main(void)
{
    engine_mutex m;
    engine_mutex_init(&m);
    CHECK(!engine_mutex_held(&m));
    engine_mutex_lock(&m);
    CHECK(engine_mutex_held(&m));
    /* another thread does not hold it while this one does */
    peek p = {&m, true};
    pthread_t th;
    CHECK(pthread_create(&th, NULL, peek_main, &p) == 0);
    pthread_join(th, NULL);
    CHECK(!p.held_here);
    /* a wait whose deadline has passed returns false, holding the lock again */
    pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
    struct timespec past;
    clock_gettime(CLOCK_REALTIME, &past);
    past.tv_sec -= 1;
    CHECK(!engine_mutex_wait_until(&m, &cv, &past));
    CHECK(engine_mutex_held(&m));
    engine_mutex_unlock(&m);
    CHECK(!engine_mutex_held(&m));

    /* without the lock: the check, an unlock and a wait each stop the process */
    CHECK(aborts(needs_lock, &m));
    CHECK(aborts(unlock_unheld, &m));
    CHECK(aborts(wait_unheld, &m));
    /* and with it the check passes */
    engine_mutex_lock(&m);
    needs_lock(&m);
    engine_mutex_unlock(&m);
    engine_mutex_destroy(&m);
    pthread_cond_destroy(&cv);
    return harness_finish("test_engine_lock");
}
