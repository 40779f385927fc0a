/* The engine's jobs: the list every job is on (newest first), hash tables that find one by id
 * or by request id without walking the list, and the ended jobs in the order they ended, from
 * whose front results are dropped. Submit, await, cancel and find thus cost the same with ten
 * queued jobs or ten thousand. All functions here run with engine.mu held. */
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"

#define JOBS_BUCKETS0 1024 /* a power of two; the tables double when jobs outnumber buckets */

static size_t id_bucket(uint64_t id, size_t nb) { return (size_t)((id * 0x9e3779b97f4a7c15ull) >> 20) & (nb - 1); }

static size_t rid_bucket(const char *rid, size_t nb)
{
    uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a */
    for (const unsigned char *p = (const unsigned char *)rid; *p; p++) h = (h ^ *p) * 0x100000001b3ull;
    return (size_t)(h ^ (h >> 29)) & (nb - 1);
}

static bool named(const engine_job *j) { return j->request_id[0] != 0; }

cuzk_status jobs_init(cuzk_engine *e)
{
    e->index.by_id = calloc(JOBS_BUCKETS0, sizeof *e->index.by_id);
    e->index.by_rid = calloc(JOBS_BUCKETS0, sizeof *e->index.by_rid);
    e->index.nbuckets = JOBS_BUCKETS0;
    if (!e->index.by_id || !e->index.by_rid) return cuzk_fail(CUZK_ENOMEM, "out of memory");
    return CUZK_OK;
}

/* Rehashes into twice the buckets; on no memory the tables stay as they are (longer chains). */
static void grow(job_index *x, engine_job *jobs)
{
    size_t nb = x->nbuckets * 2;
    engine_job **id = calloc(nb, sizeof *id), **rid = calloc(nb, sizeof *rid);
    if (!id || !rid) {
        free(id);
        free(rid);
        return;
    }
    for (engine_job *j = jobs; j; j = j->next) {
        size_t b = id_bucket(j->id, nb);
        j->id_next = id[b];
        id[b] = j;
        if (!named(j)) continue;
        b = rid_bucket(j->request_id, nb);
        j->rid_next = rid[b];
        rid[b] = j;
    }
    free(x->by_id);
    free(x->by_rid);
    x->by_id = id;
    x->by_rid = rid;
    x->nbuckets = nb;
}

void jobs_add(cuzk_engine *e, engine_job *j)
{
    ENGINE_LOCKED(e);
    j->prev = NULL;
    j->next = e->jobs;
    if (e->jobs) e->jobs->prev = j;
    e->jobs = j;
    job_index *x = &e->index;
    size_t b = id_bucket(j->id, x->nbuckets);
    j->id_next = x->by_id[b];
    x->by_id[b] = j;
    if (named(j)) {
        b = rid_bucket(j->request_id, x->nbuckets);
        j->rid_next = x->by_rid[b];
        x->by_rid[b] = j;
    }
    if (++x->count > 2 * x->nbuckets) grow(x, e->jobs);
}

static void unchain_id(engine_job **pp, const engine_job *j)
{
    while (*pp && *pp != j) pp = &(*pp)->id_next;
    if (*pp) *pp = j->id_next;
}

static void unchain_rid(engine_job **pp, const engine_job *j)
{
    while (*pp && *pp != j) pp = &(*pp)->rid_next;
    if (*pp) *pp = j->rid_next;
}

/* Off the list and the tables (an ended job leaving the front of the ended ones). */
static void jobs_remove(cuzk_engine *e, engine_job *j)
{
    if (j->prev) j->prev->next = j->next;
    else e->jobs = j->next;
    if (j->next) j->next->prev = j->prev;
    job_index *x = &e->index;
    unchain_id(&x->by_id[id_bucket(j->id, x->nbuckets)], j);
    if (named(j)) unchain_rid(&x->by_rid[rid_bucket(j->request_id, x->nbuckets)], j);
    x->count--;
}

engine_job *find_job_locked(cuzk_engine *e, uint64_t id)
{
    ENGINE_LOCKED(e);
    for (engine_job *j = e->index.by_id[id_bucket(id, e->index.nbuckets)]; j; j = j->id_next)
        if (j->id == id) return j;
    return NULL;
}

engine_job *jobs_named(cuzk_engine *e, const char *request_id, engine_job *after)
{
    ENGINE_LOCKED(e);
    engine_job *j = after ? after->rid_next : e->index.by_rid[rid_bucket(request_id, e->index.nbuckets)];
    while (j && strcmp(j->request_id, request_id)) j = j->rid_next;
    return j;
}

void jobs_ended(cuzk_engine *e, engine_job *j)
{
    ENGINE_LOCKED(e);
    j->ended_next = NULL;
    if (e->ended_last) e->ended_last->ended_next = j;
    else e->ended = j;
    e->ended_last = j;
    e->nended++;
}

static void job_free(engine_job *j)
{
    pthread_cond_destroy(&j->ended_cv);
    cuzk_timeline_destroy(j->tl);
    free(j->proof_bytes);
    free(j->inputs);
    free(j->timeline_json);
    free(j);
}

/* Drops the oldest results while more than result_max are kept or they are older than
 * result_ttl_s. One an await still reads (waiters) stays, and with it the ones after it, until
 * a later call finds it free. */
void engine_prune_results(cuzk_engine *e)
{
    ENGINE_LOCKED(e);
    double now = cuzk_now();
    while (e->ended && !e->ended->waiters &&
           (e->nended > e->cfg.result_max || now - e->ended->end_t > e->cfg.result_ttl_s)) {
        engine_job *j = e->ended;
        e->ended = j->ended_next;
        if (!e->ended) e->ended_last = NULL;
        e->nended--;
        jobs_remove(e, j);
        job_free(j);
    }
}

void jobs_free_all(cuzk_engine *e)
{
    for (engine_job *j = e->jobs, *n; j; j = n) {
        n = j->next;
        job_free(j);
    }
    e->jobs = e->ended = e->ended_last = NULL;
    free(e->index.by_id);
    free(e->index.by_rid);
    memset(&e->index, 0, sizeof e->index);
}
