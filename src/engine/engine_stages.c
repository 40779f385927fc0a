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

void stages_account(cuzk_engine *e, const cuzk_timeline *tl, job_stages *out)
{
    ENGINE_LOCKED(e);
    memset(out, 0, sizeof *out);
    int n = 0;
    tl_span *v = read_spans(tl, &n);
    sum_by_name(e, v, n);
    sum_by_stage(v, n, out);
    free(v);
}
