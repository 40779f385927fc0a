/* What the demo's parts share (cmd_demo.c, demo_post_snap.c). */
#ifndef CUZK_CLI_DEMO_H
#define CUZK_CLI_DEMO_H

#include "cuzk/engine.h"

/* What the demo was asked for: its cache folder and how it reports. */
typedef struct {
    const char *cache;                  /* the parameter cache folder */
    const cuzk_progress_sink *progress; /* the terminal's progress line, or NULL */
} demo_opts;
/* Parameters of a built-in circuit in the cache folder under its test name (cuzk-test-NAME;
 * path, vk: cap bytes each), made there on first use, the step announced with its time. */
cuzk_status demo_cached_params(const demo_opts *o, const char *circuit, char *path, char *vk, size_t cap,
                               cuzk_timeline *tl) CUZK_WARN_UNUSED;
/* "cuzk demo: <what>" as a whole line on stdout, flushed (so that stderr's lines never split
 * it). */
void demo_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The step's end: "cuzk demo: <what>: 1.23 s, peak memory 1.2 GiB" (the peak since
 * demo_step_start). */
double demo_step_start(void);
void demo_step_end(double t0, const char *what);
/* Submits a job and waits for it; a job that did not complete fails with its error. */
cuzk_status demo_run_job(cuzk_engine *e, const cuzk_job_request *req, cuzk_job_result *r) CUZK_WARN_UNUSED;
/* WindowPoSt, WinningPoSt and SnapDeals of a 2 KiB CC test sector, each proved through the
 * engine and verified; prints one line and the timeline of each. */
int demo_post_snap(const demo_opts *o);

#endif
