/* The job log: one JSON object per line for each ended job, what an operator greps for and
 * tools parse (jq, Loki, Vector): when it ended and was submitted (RFC 3339, UTC, milliseconds),
 * what it was, whose sector (where the request said), how it went, and its timeline. Written
 * with jansson, every text made valid UTF-8 first (request ids are checked at submit, but
 * errors quote inputs, files and circuits), so each line parses whatever the job carried. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine_internal.h"

/* A wall-clock time as RFC 3339 in UTC with milliseconds ("2026-12-05T04:30:12.345Z"). */
static void rfc3339(char out[64], double unix_s)
{
    time_t whole = (time_t)unix_s;
    struct tm tm;
    gmtime_r(&whole, &tm);
    int ms = (int)((unix_s - (double)whole) * 1000);
    snprintf(out, 64, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
             tm.tm_min, tm.tm_sec,
             ms < 0         ? 0
                 : ms > 999 ? 999
                            : ms);
}

/* key: s made valid UTF-8 (jansson escapes quotes and control characters). false when out of
 * memory. */
static bool put_text(json_t *o, const char *key, const char *s)
{
    size_t cap = strlen(s) * 3 + 1; /* each byte at most U+FFFD's 3 */
    char *v = malloc(cap);
    bool ok = v && !json_object_set_new(o, key, json_string(cuzk_utf8_repair(s, v, cap)));
    free(v);
    return ok;
}

static bool put_int(json_t *o, const char *key, uint64_t v)
{
    return !json_object_set_new(o, key, json_integer((json_int_t)v));
}

/* The line's object; NULL when out of memory. */
static json_t *log_object(const engine_job *j, bool test_params)
{
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    double end_wall = (double)now.tv_sec + (double)now.tv_nsec * 1e-9 - (cuzk_now() - j->end_t);
    char ended[64], submitted[64];
    rfc3339(ended, end_wall);
    rfc3339(submitted, end_wall - (j->end_t - j->submit_t));
    json_t *o = json_object();
    bool ok = o && put_text(o, "time", ended) && put_text(o, "submitted", submitted) && put_int(o, "job", j->id) &&
        put_text(o, "kind", cuzk_kind_name(j->kind)) && put_text(o, "priority", cuzk_priority_name(j->prio)) &&
        put_text(o, "state", cuzk_job_state_name(j->state));
    /* a proof made with the demo's parameters must never pass for a real one */
    if (ok && test_params) ok = !json_object_set_new(o, "test_params", json_true());
    if (ok && j->state == CUZK_JOB_FAILED) ok = put_text(o, "reason", fail_reason_name(j->fail_reason));
    /* proto3 cannot tell 0 from absent: a miner id of 0 is none; a sector number goes with a
     * miner id, or stands alone when not 0 (sector 0 of a named miner is a real sector) */
    if (ok && j->miner_id) ok = put_int(o, "miner_id", j->miner_id);
    bool sectored = j->kind == CUZK_KIND_POREP || j->kind == CUZK_KIND_SNAP;
    if (ok && sectored && (j->miner_id || j->sector_number)) ok = put_int(o, "sector_number", j->sector_number);
    ok = ok && put_text(o, "circuit", j->circ ? j->circ->id : "") && put_text(o, "request_id", j->request_id) &&
        put_int(o, "partitions", j->circ ? j->plan.nparts : 0) &&
        !json_object_set_new(o, "queue_s", json_real((j->started ? j->start_t : j->end_t) - j->submit_t)) &&
        !json_object_set_new(o, "total_s", json_real(j->end_t - j->submit_t)) && put_text(o, "error", j->error);
    /* total_s in parts that add up to it (job_stages.wall) */
    json_t *parts = ok ? json_pack("{s:f,s:f,s:f,s:f,s:f}", "wait_s", j->stages.wall[JOB_STAGES], "load_s",
                                   j->stages.wall[STAGE_LOAD], "witness_s", j->stages.wall[STAGE_WITNESS], "prove_s",
                                   j->stages.wall[STAGE_PROVE], "verify_s", j->stages.wall[STAGE_VERIFY])
                       : NULL;
    ok = ok && parts && !json_object_set_new(o, "parts", parts);
    if (ok && j->note[0]) ok = put_text(o, "note", j->note);
    if (!ok) {
        json_decref(o);
        return NULL;
    }
    return o;
}

void job_log_write(FILE *f, const engine_job *j, bool test_params)
{
    json_t *o = log_object(j, test_params);
    char *line = o ? json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(9)) : NULL;
    json_decref(o);
    size_t n = line ? strlen(line) : 0;
    flockfile(f);
    /* the timeline last, as the result carries it: valid JSON the engine wrote (its span names
     * through cuzk_json_string), spliced in rather than parsed and written again */
    if (n > 2 && line[n - 1] == '}')
        fprintf(f, "%.*s,\"timeline\":%s}\n", (int)(n - 1), line, j->timeline_json ? j->timeline_json : "[]");
    else /* still a line of JSON, and the job's id */
        fprintf(f, "{\"job\":%llu,\"error\":\"out of memory for the job log line\"}\n", (unsigned long long)j->id);
    fflush(f);
    funlockfile(f);
    free(line);
}
