/* What the demo's parts share (cmd_demo.c, demo_post_snap.c). */
#ifndef CUZK_CLI_DEMO_H
#define CUZK_CLI_DEMO_H

#include "cuzk/engine.h"

/* Parameters of a built-in circuit in the cache folder (path, vk: cap bytes each), made there
 * on first use. */
cuzk_status demo_cached_params(const char *cache, const char *circuit, char *path, char *vk, size_t cap,
                               cuzk_timeline *tl) CUZK_WARN_UNUSED;
/* Submits a job and waits for it; a job that did not complete fails with its error. */
cuzk_status demo_run_job(cuzk_engine *e, const cuzk_job_request *req, cuzk_job_result *r) CUZK_WARN_UNUSED;
/* WindowPoSt, WinningPoSt and SnapDeals of a 2 KiB CC test sector, each proved through the
 * engine and verified; prints one line and the timeline of each. */
int demo_post_snap(const char *cache);

#endif
