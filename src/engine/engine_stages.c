/* An ended job's timeline, read back span by span: its spans summed by name into the engine's stage totals (cuzk_stage_seconds_total), and by stage
 * (load, witness, prove, verify) into the job's own times (its result, the latency histograms). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"

typedef struct {
    const char *name; /* the timeline's (it outlives the accounting) */
    size_t len;
    int parent;
    double seconds;
} tl_span;

/* The spans of tl, in order (a parent comes before its children); *n of them, NULL when none. */
static tl_span *read_spans(const cuzk_timeline *tl, int *n)
{
    *n = cuzk_timeline_spans(tl);
    tl_span *v = malloc((size_t)(*n > 0 ? *n : 1) * sizeof *v);
    if (!v) return *n = 0, NULL;
    for (int i = 0; i < *n; i++) {
        v[i].name = cuzk_timeline_span(tl, i, &v[i].parent, &v[i].seconds);
        v[i].len = strlen(v[i].name);
        if (v[i].parent >= i) v[i].parent = -1; /* a parent is listed first */
    }
    return v;
}

static bool is(const tl_span *s, const char *name) { return s->len == strlen(name) && !memcmp(s->name, name, s->len); }

static bool affixes(const tl_span *s, const char *prefix, const char *suffix)
{
    size_t a = strlen(prefix), b = strlen(suffix);
    return s->len >= a + b && !memcmp(s->name, prefix, a) && !memcmp(s->name + s->len - b, suffix, b);
}

/* The stage a span is, by the names the engine's files give them; -1 for the others (their time
 * is their parent's stage, if any). */
static int stage_of(const tl_span *s)
{
    if (affixes(s, "load ", " (parameters, precompiled circuit)")) return STAGE_LOAD;
    if (is(s, "witness") || is(s, "witness (urgent lane)") || is(s, "a, b, c (cpu)") ||
        affixes(s, "grow ", "witness buffer (once)"))
        return STAGE_WITNESS;
    if (is(s, "prove on a GPU") || is(s, "prove on the CPU")) return STAGE_PROVE;
    if (is(s, "verify (batch, CPU)")) return STAGE_VERIFY;
    return -1;
}

const char *stage_name(int s)
{
    static const char *const names[JOB_STAGES] = {"load", "witness", "prove", "verify"};
    return s >= 0 && s < JOB_STAGES ? names[s] : NULL;
}

/* By stage: every second goes to the innermost stage span around it, so a span nested in one of
 * its own stage is counted once (the outer one), and one of another stage inside (a, b, c on the
 * CPU inside a CPU proof) moves its time from the outer stage to its own. */
static void sum_by_stage(const tl_span *v, int n, job_stages *out)
{
    int *near = malloc((size_t)(n > 0 ? n : 1) * sizeof *near); /* innermost stage span at or above */
    if (!near) return;
    for (int i = 0; i < n; i++) {
        int st = stage_of(&v[i]), up = v[i].parent >= 0 ? near[v[i].parent] : -1;
        near[i] = st >= 0 ? i : up;
        if (st < 0) continue;
        out->seen[st] = true;
        int ust = up >= 0 ? stage_of(&v[up]) : -1;
        if (ust == st) continue;
        out->seconds[st] += v[i].seconds;
        if (ust >= 0) out->seconds[ust] -= v[i].seconds;
    }
    free(near);
    /* children that overlap could take more than their parent's time */
    for (int s = 0; s < JOB_STAGES; s++)
        if (out->seconds[s] < 0) out->seconds[s] = 0;
}

/* By name (partitions numbered "partition k" summed as one), into e->stages. */
static void sum_by_name(cuzk_engine *e, const tl_span *v, int n)
{
    ENGINE_LOCKED(e);
    for (int k = 0; k < n; k++) {
        size_t len = v[k].len;
        if (len > 10 && !strncmp(v[k].name, "partition ", 10)) len = 9;
        char name[sizeof e->stages[0].name];
        if (!len || len >= sizeof name) continue;
        memcpy(name, v[k].name, len);
        name[len] = 0;
        int slot = -1;
        for (int i = 0; i < ENGINE_STAGES && slot < 0; i++) {
            stage_sum *s = &e->stages[i];
            if (!s->name[0]) memcpy(s->name, name, sizeof name);
            if (!strcmp(s->name, name)) slot = i;
        }
        if (slot < 0) continue; /* the table is full (stage names are few and fixed) */
        e->stages[slot].seconds += v[k].seconds;
        e->stages[slot].count++;
    }
}

/* A stage span's edge on the wall clock, for the sweep in split_wall. */
typedef struct {
    double t;
    int stage;
    int delta; /* +1 begins, -1 ends */
} wall_edge;

static int edge_order(const void *a, const void *b)
{
    const wall_edge *x = a, *y = b;
    return x->t < y->t ? -1 : x->t > y->t ? 1 : x->delta - y->delta; /* an end before a begin at one time */
}

/* The wall clock [t0, t1] split so that the parts add up to it (a client's "queue, load,
 * witness, prove" summary, unlike the stage sums, whose spans overlap): every instant goes to
 * the first stage in this order with a span open then, else to waiting. */
static void split_wall(const cuzk_timeline *tl, const tl_span *v, int n, double t0, double t1, job_stages *out)
{
    static const int order[JOB_STAGES] = {STAGE_PROVE, STAGE_WITNESS, STAGE_LOAD, STAGE_VERIFY};
    cuzk_span_copy *c = NULL;
    int m = cuzk_timeline_copy(tl, &c);
    wall_edge *ev = m > 0 ? malloc((size_t)m * 2 * sizeof *ev) : NULL;
    int ne = 0;
    for (int i = 0; ev && i < m && i < n; i++) { /* the copy's names are cut short: v's are whole */
        int st = stage_of(&v[i]);
        double a = c[i].start < t0 ? t0 : c[i].start, b = c[i].end > t1 ? t1 : c[i].end;
        if (st < 0 || b <= a) continue;
        ev[ne++] = (wall_edge){a, st, 1};
        ev[ne++] = (wall_edge){b, st, -1};
    }
    if (ne) qsort(ev, (size_t)ne, sizeof *ev, edge_order);
    int open[JOB_STAGES] = {0};
    double at = t0;
    for (int k = 0; k <= ne; k++) {
        double t = k < ne ? ev[k].t : t1;
        if (t > at) {
            int part = JOB_STAGES;
            for (int o = 0; o < JOB_STAGES && part == JOB_STAGES; o++)
                if (open[order[o]] > 0) part = order[o];
            out->wall[part] += t - at;
            at = t;
        }
        if (k < ne) open[ev[k].stage] += ev[k].delta;
    }
    free(ev);
    free(c);
}

void stages_account(cuzk_engine *e, const cuzk_timeline *tl, double submit_t, double end_t, job_stages *out)
{
    ENGINE_LOCKED(e);
    memset(out, 0, sizeof *out);
    int n = 0;
    tl_span *v = read_spans(tl, &n);
    sum_by_name(e, v, n);
    sum_by_stage(v, n, out);
    split_wall(tl, v, n, submit_t, end_t, out);
    free(v);
}
