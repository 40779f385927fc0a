/* Progress of long work (cuzk/progress.h): NULL sinks and tasks do nothing, reports are
 * rate-limited (one at the start, at most about 5 a second, one at the end), the finished
 * report comes exactly once with the final count, threads adding at once lose nothing, and
 * reports of one task never overlap. */
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include "cuzk/progress.h"
#include "harness.h"

typedef struct {
    pthread_mutex_t mu;
    unsigned reports, finished, other_what;
    const char *what_ptr;
    char what[CUZK_PROGRESS_WHAT_MAX];
    uint64_t last_done, last_total, max_done;
    double last_elapsed;
    bool backwards_elapsed;
    atomic_int inside; /* reports under way at once */
    bool overlapped;
} recorder;

static void record(void *ctx, const char *what, uint64_t done, uint64_t total, double elapsed_s, bool finished)
{
    recorder *r = ctx;
    if (atomic_fetch_add(&r->inside, 1) != 0) r->overlapped = true;
    pthread_mutex_lock(&r->mu);
    if (!r->what_ptr) r->what_ptr = what;
    if (what != r->what_ptr) r->other_what++;
    snprintf(r->what, sizeof r->what, "%s", what);
    r->reports++;
    if (finished) r->finished++;
    if (elapsed_s + 1e-9 < r->last_elapsed) r->backwards_elapsed = true;
    r->last_elapsed = elapsed_s;
    r->last_done = done;
    r->last_total = total;
    if (done > r->max_done) r->max_done = done;
    pthread_mutex_unlock(&r->mu);
    atomic_fetch_sub(&r->inside, 1);
}

static void recorder_init(recorder *r)
{
    memset(r, 0, sizeof *r);
    pthread_mutex_init(&r->mu, NULL);
    atomic_init(&r->inside, 0);
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static void test_null(void)
{
    /* a NULL sink gives a NULL task, and every call takes NULL */
    CHECK(cuzk_progress_start(NULL, "nothing", 10) == NULL);
    CHECK(cuzk_progress_startf(NULL, 10, "nothing %d", 1) == NULL);
    cuzk_progress_sink no_fn = {NULL, NULL};
    CHECK(cuzk_progress_start(&no_fn, "nothing", 10) == NULL);
    cuzk_progress_add(NULL, 5);
    cuzk_progress_set(NULL, 5);
    cuzk_progress_set_total(NULL, 5);
    CHECK(cuzk_progress_done(NULL) == 0);
    cuzk_progress_finish(NULL);
}

static void test_basic(void)
{
    recorder r;
    recorder_init(&r);
    cuzk_progress_sink s = {record, &r};
    cuzk_progress *p = cuzk_progress_start(&s, "writing parameters", 100);
    CHECK(p != NULL);
    /* the start is reported at once, with done 0 */
    CHECK(r.reports == 1 && r.last_done == 0 && r.last_total == 100 && r.finished == 0);
    CHECK(!strcmp(r.what, "writing parameters"));
    for (int i = 0; i < 100; i++) cuzk_progress_add(p, 1);
    CHECK(cuzk_progress_done(p) == 100);
    /* 100 quick adds: none reported before the first interval has passed */
    CHECK(r.reports == 1);
    cuzk_progress_finish(p);
    CHECK(r.reports == 2 && r.finished == 1 && r.last_done == 100 && r.last_total == 100);
    CHECK(r.other_what == 0 && !r.backwards_elapsed);

    /* set, set_total, a formatted label cut to its bound */
    recorder_init(&r);
    char longer[300];
    memset(longer, 'x', sizeof longer - 1);
    longer[sizeof longer - 1] = 0;
    p = cuzk_progress_startf(&s, 0, "%s", longer);
    CHECK(p != NULL && strlen(r.what) == CUZK_PROGRESS_WHAT_MAX - 1);
    cuzk_progress_set(p, 7);
    cuzk_progress_set_total(p, 9);
    cuzk_progress_finish(p);
    CHECK(r.finished == 1 && r.last_done == 7 && r.last_total == 9);
}

/* Adding for about 1.2 s, every 100 µs: about 6 reports, never more than the interval allows. */
static void test_rate_limit(void)
{
    recorder r;
    recorder_init(&r);
    cuzk_progress_sink s = {record, &r};
    cuzk_progress *p = cuzk_progress_start(&s, "rate", 0);
    double t0 = cuzk_now();
    uint64_t n = 0;
    while (cuzk_now() - t0 < 1.2) {
        cuzk_progress_add(p, 1);
        n++;
        struct timespec ts = {0, 100000};
        nanosleep(&ts, NULL);
    }
    double took = cuzk_now() - t0;
    unsigned during = r.reports - 1; /* the start's excepted */
    CHECK(during >= 3);
    CHECK(during <= (unsigned)(took / CUZK_PROGRESS_INTERVAL_S) + 1);
    CHECK(r.finished == 0);
    cuzk_progress_finish(p);
    CHECK(r.finished == 1 && r.last_done == n && r.reports == during + 2);
    if (during < 3 || during > 7) printf("rate limit: %u reports in %.2f s\n", during, took);

    /* after a pause, the next add reports at once */
    recorder_init(&r);
    p = cuzk_progress_start(&s, "pause", 10);
    sleep_ms(250);
    cuzk_progress_add(p, 1);
    CHECK(r.reports == 2 && r.last_done == 1);
    cuzk_progress_add(p, 1); /* within the interval: not reported */
    CHECK(r.reports == 2);
    cuzk_progress_finish(p);
    CHECK(r.reports == 3 && r.finished == 1 && r.last_done == 2);
}

typedef struct {
    cuzk_progress *p;
    unsigned adds;
} adder;

static void *add_many(void *arg)
{
    adder *a = arg;
    for (unsigned i = 0; i < a->adds; i++) {
        cuzk_progress_add(a->p, 3);
        if (i % 4096 == 0) sched_yield();
    }
    return NULL;
}

/* Eight threads adding at once: the count is exact, reports never overlap, finish once. */
static void test_threads(void)
{
    enum { T = 8, ADDS = 200000 };
    recorder r;
    recorder_init(&r);
    cuzk_progress_sink s = {record, &r};
    cuzk_progress *p = cuzk_progress_start(&s, "threads", (uint64_t)T * ADDS * 3);
    pthread_t th[T];
    adder a = {p, ADDS};
    for (int i = 0; i < T; i++) CHECK(pthread_create(&th[i], NULL, add_many, &a) == 0);
    for (int i = 0; i < T; i++) pthread_join(th[i], NULL);
    CHECK(cuzk_progress_done(p) == (uint64_t)T * ADDS * 3);
    cuzk_progress_finish(p);
    CHECK(r.finished == 1 && r.last_done == (uint64_t)T * ADDS * 3 && r.max_done == r.last_done);
    CHECK(!r.overlapped && r.other_what == 0);

    /* two tasks at once on one sink: each label its own, each finished once */
    recorder_init(&r);
    cuzk_progress *x = cuzk_progress_start(&s, "x", 1), *y = cuzk_progress_start(&s, "y", 1);
    CHECK(x && y && r.other_what == 1);
    cuzk_progress_finish(x);
    cuzk_progress_finish(y);
    CHECK(r.finished == 2);
}

int main(void)
{
    test_null();
    test_basic();
    test_rate_limit();
    test_threads();
    return harness_finish("test_progress");
}
