/* A trace of jobs (cuzk_engine_trace): their spans copied under the engine's lock, the JSON
 * written without it (trace_json.c). */
#include <stdio.h>
#include <stdlib.h>

#include "engine_internal.h"
#include "trace_json.h"

cuzk_status cuzk_engine_trace(cuzk_engine *e, const uint64_t *job_ids, size_t n, const char *title, char **json)
{
    *json = NULL;
    if (!n) return cuzk_fail(CUZK_EINVAL, "a trace of no job");
    trace_job *jobs = calloc(n, sizeof *jobs);
    if (!jobs) return cuzk_fail(CUZK_ENOMEM, "out of memory for a trace of %zu jobs", n);
    cuzk_status st = engine_enter(e);
    if (!st) {
        engine_prune_results(e);
        for (size_t i = 0; i < n && !st; i++) {
            const engine_job *j = find_job_locked(e, job_ids[i]);
            if (!j) {
                st = cuzk_fail(CUZK_ENOTFOUND, "job %llu: no such job (never made, or its result was dropped)",
                               (unsigned long long)job_ids[i]);
                break;
            }
            snprintf(jobs[i].track, sizeof jobs[i].track, "job %llu", (unsigned long long)j->id);
            snprintf(jobs[i].label, sizeof jobs[i].label, "%s", cuzk_timeline_name(j->tl));
            cuzk_span_copy *spans = NULL;
            jobs[i].n = cuzk_timeline_copy(j->tl, &spans);
            jobs[i].spans = spans;
            if (jobs[i].n < 0)
                st = cuzk_fail(CUZK_ENOMEM, "out of memory for job %llu's spans", (unsigned long long)j->id);
        }
        engine_leave(e);
    }
    if (!st) st = trace_json(title, jobs, n, json);
    for (size_t i = 0; i < n; i++) free((void *)jobs[i].spans);
    free(jobs);
    return st;
}
