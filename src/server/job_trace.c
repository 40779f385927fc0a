/* A job's trace by its request id (job_trace.h). */
#include "job_trace.h"

#include <stdio.h>
#include <string.h>

#include "cuzk/base.h"

cuzk_status server_job_trace(cuzk_engine *e, const char *id, size_t len, char **json)
{
    *json = NULL;
    if (!len) return cuzk_fail(CUZK_EINVAL, "job: empty (the request id the job was submitted with)");
    cuzk_status st = cuzk_check_client_id("job", id, len, CUZK_REQUEST_ID_MAX);
    if (st) return st;
    uint64_t eid = 0;
    if ((st = cuzk_engine_find(e, id, &eid))) return st;
    return server_trace_of(e, id, eid, json);
}

cuzk_status server_trace_of(cuzk_engine *e, const char *id, uint64_t eid, char **json)
{
    char title[CUZK_REQUEST_ID_MAX + 64];
    snprintf(title, sizeof title, "cuzk job %s (engine job %llu)", id, (unsigned long long)eid);
    return cuzk_engine_trace(e, &eid, 1, title, json);
}
