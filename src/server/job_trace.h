/* A job's trace as the daemon serves it (GET /trace?job=ID, the GetTrace call): the job named
 * by the request id a client submitted it with, as AwaitProof and CancelProof name it. Private
 * to the server layer. */
#ifndef CUZK_SERVER_JOB_TRACE_H
#define CUZK_SERVER_JOB_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/engine.h"

/* The trace (cuzk_engine_trace) of the job request id id (len bytes, as they came: a NUL inside
 * is refused) into *json (malloc'd). Errors: CUZK_EINVAL for an empty or malformed id (not
 * UTF-8, a control character, longer than CUZK_REQUEST_ID_MAX); CUZK_ENOTFOUND for an id no
 * job has, or whose result was dropped; CUZK_ENOMEM; CUZK_ESHUTDOWN. */
cuzk_status server_job_trace(cuzk_engine *e, const char *id, size_t len, char **json) CUZK_WARN_UNUSED;
/* The trace of engine job eid, found by its request id id (the process is named after both).
 * Errors: as cuzk_engine_trace's. */
cuzk_status server_trace_of(cuzk_engine *e, const char *id, uint64_t eid, char **json) CUZK_WARN_UNUSED;

#endif
