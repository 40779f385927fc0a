/* Progress of long work (a setup, sealing a large sector, recording a precompiled circuit,
 * reading parameters, proving many partitions): the library reports it to a sink the caller
 * passes in (an option struct's field or a parameter, never global state), and the caller
 * decides how to show it (the CLI draws one line on a terminal; a daemon passes none).
 *
 * A task is started with its total, advanced from any thread, and finished by its owner once
 * every thread that advances it has returned. Reports are rate-limited (at most about 5 a
 * second per task), so a loop may advance a task every few microseconds of work. */
#ifndef CUZK_PROGRESS_H
#define CUZK_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A sink for progress of long work; the library reports, the caller decides how to show it. */
typedef struct cuzk_progress_sink {
    /* Called from any thread, at most about 5 times a second per task and once when it ends
     * (finished = true). what: a short label ("reading parameters"); done/total in the task's
     * units (total 0: unknown); elapsed_s since the task started. The first report comes when
     * the task starts (done 0). what stays valid, at the same address, from the task's start
     * to its finished report, and no two live tasks share it: a sink that shows several tasks
     * may tell them apart by the pointer. Reports of one task never overlap in time (the
     * rate limit lets one through at a time; the last one is the owner's), but reports of
     * different tasks may: a sink that draws must lock. It must be quick and must not call
     * back into the code that reports. */
    void (*report)(void *ctx, const char *what, uint64_t done, uint64_t total, double elapsed_s, bool finished);
    void *ctx;
} cuzk_progress_sink;

typedef struct cuzk_progress cuzk_progress;

/* Labels are cut to this many bytes (the terminating zero included). */
#define CUZK_PROGRESS_WHAT_MAX 80

/* The library's side, for code that reports (a program passes a sink and needs none of it).
 * Every function accepts a NULL task and then does nothing, so callers never test. */

/* Starts a task reporting to sink (its first report, done 0). In: sink (NULL: no task); what,
 * copied (cut to CUZK_PROGRESS_WHAT_MAX). Returns: the task, NULL for a NULL sink or when out of
 * memory. Thread: any. */
cuzk_progress *cuzk_progress_start(const cuzk_progress_sink *sink, const char *what, uint64_t total);
/* Adds n units done (atomic; reports rate-limited). Thread: any, while the task lives. */
void cuzk_progress_add(cuzk_progress *p, uint64_t n);
/* Sets the units done. Thread: any, while the task lives. */
void cuzk_progress_set(cuzk_progress *p, uint64_t done);
/* Reports finished and frees p. Thread: its owner, once every thread that advances it has
 * returned. */
void cuzk_progress_finish(cuzk_progress *p);
/* Sets the total, when it becomes known (or changes) after the start. Thread: any. */
void cuzk_progress_set_total(cuzk_progress *p, uint64_t total);
/* Returns: the units done so far (0 for NULL). Thread: any. */
uint64_t cuzk_progress_done(const cuzk_progress *p);
/* cuzk_progress_start with a printf-formatted label. */
cuzk_progress *cuzk_progress_startf(const cuzk_progress_sink *sink, uint64_t total, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The least time between two reports of one task, in seconds (the finished report excepted). */
#define CUZK_PROGRESS_INTERVAL_S 0.2

#ifdef __cplusplus
}
#endif
#endif
