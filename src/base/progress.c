/* Progress of long work (include/base/cuzk/progress.h): a task's count is atomic, and a report
 * goes out when the rate limit's next slot has come and no other report of the task is under
 * way, so adders never wait and reports of one task never overlap. */
#include "cuzk/progress.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/base.h"

struct cuzk_progress {
    cuzk_progress_sink sink;
    char what[CUZK_PROGRESS_WHAT_MAX];
    double t0;
    _Atomic uint64_t done, total;
    _Atomic uint64_t next_ns; /* the earliest time of the next report, ns after t0 */
    atomic_flag reporting;    /* a report is under way */
};

static uint64_t since_ns(const cuzk_progress *p, double now)
{
    return now > p->t0 ? (uint64_t)((now - p->t0) * 1e9) : 0;
}

/* A report when the slot has come and no other one is under way. */
static void maybe_report(cuzk_progress *p)
{
    double now = cuzk_now();
    uint64_t t = since_ns(p, now), next = atomic_load_explicit(&p->next_ns, memory_order_relaxed);
    if (t < next) return;
    if (!atomic_compare_exchange_strong(&p->next_ns, &next, t + (uint64_t)(CUZK_PROGRESS_INTERVAL_S * 1e9))) return;
    if (atomic_flag_test_and_set(&p->reporting)) return;
    p->sink.report(p->sink.ctx, p->what, atomic_load(&p->done), atomic_load(&p->total), now - p->t0, false);
    atomic_flag_clear(&p->reporting);
}

cuzk_progress *cuzk_progress_start(const cuzk_progress_sink *sink, const char *what, uint64_t total)
{
    if (!sink || !sink->report) return NULL;
    cuzk_progress *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->sink = *sink;
    snprintf(p->what, sizeof p->what, "%s", what ? what : "");
    atomic_init(&p->done, 0);
    atomic_init(&p->total, total);
    atomic_flag_clear(&p->reporting);
    p->t0 = cuzk_now();
    atomic_init(&p->next_ns, (uint64_t)(CUZK_PROGRESS_INTERVAL_S * 1e9));
    p->sink.report(p->sink.ctx, p->what, 0, total, 0.0, false);
    return p;
}

cuzk_progress *cuzk_progress_startf(const cuzk_progress_sink *sink, uint64_t total, const char *fmt, ...)
{
    if (!sink || !sink->report) return NULL;
    char what[CUZK_PROGRESS_WHAT_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return cuzk_progress_start(sink, what, total);
}

void cuzk_progress_add(cuzk_progress *p, uint64_t n)
{
    if (!p) return;
    atomic_fetch_add_explicit(&p->done, n, memory_order_relaxed);
    maybe_report(p);
}

void cuzk_progress_set(cuzk_progress *p, uint64_t done)
{
    if (!p) return;
    atomic_store_explicit(&p->done, done, memory_order_relaxed);
    maybe_report(p);
}

void cuzk_progress_set_total(cuzk_progress *p, uint64_t total)
{
    if (p) atomic_store_explicit(&p->total, total, memory_order_relaxed);
}

uint64_t cuzk_progress_done(const cuzk_progress *p)
{
    return p ? atomic_load_explicit(&((cuzk_progress *)p)->done, memory_order_relaxed) : 0;
}

void cuzk_progress_finish(cuzk_progress *p)
{
    if (!p) return;
    /* every adder has returned (the caller's contract), so no report is under way */
    p->sink.report(p->sink.ctx, p->what, atomic_load(&p->done), atomic_load(&p->total), cuzk_now() - p->t0, true);
    free(p);
}
