/* An ended job's timeline, read back from its JSON (the one form the base layer gives out): its
 * spans summed by name into the engine's stage totals (cuzk_stage_seconds_total), and by stage
 * (load, witness, prove, verify) into the job's own times (its result, the latency histograms). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"

typedef struct {
    const char *name; /* into the JSON text, as written there (escaped) */
    size_t len;
    int parent;
    double seconds;
} tl_span;

/* The string starting at s (just past its opening quote): its length up to the closing quote. */
static size_t string_len(const char *s)
{
    size_t n = 0;
    while (s[n] && s[n] != '"') n += s[n] == '\\' && s[n + 1] ? 2 : 1;
    return n;
}

/* The spans of js, in order (a parent comes before its children); *n of them, NULL when none. */
static tl_span *parse_spans(const char *js, int *n)
{
    *n = 0;
    tl_span *v = NULL;
    int cap = 0;
    for (const char *p = js; p && (p = strstr(p, "{\"name\":\""));) {
        tl_span s = {p + 9, string_len(p + 9), -1, 0};
        const char *q = s.name + s.len;
        const char *par = strstr(q, "\"parent\":"), *sec = strstr(q, "\"seconds\":");
        if (!*q || !par || !sec) break;
        s.parent = (int)strtol(par + 9, NULL, 10);
        s.seconds = strtod(sec + 10, NULL);
        if (s.parent >= *n) s.parent = -1; /* not this form: a parent is listed first */
        if (*n == cap) {
            tl_span *nv = realloc(v, (size_t)(cap = cap ? 2 * cap : 64) * sizeof *v);
            if (!nv) break;
            v = nv;
        }
        v[(*n)++] = s;
        p = sec;
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
    int *near = malloc((size_t)(n ? n : 1) * sizeof *near); /* innermost stage span at or above */
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

/* The JSON text of a name, decoded into out (\uXXXX as '?': stage names are ASCII); false when
 * it does not fit. */
static bool decode_name(char *out, size_t cap, const char *s, size_t len)
{
    size_t o = 0;
    for (size_t i = 0; i < len; i++) {
        char ch = s[i];
        if (ch == '\\' && i + 1 < len) {
            char x = s[++i];
            ch = x == 'n' ? '\n' : x == 't' ? '\t' : x == 'r' ? '\r' : x == 'b' ? '\b' : x == 'f' ? '\f' : x;
            if (x == 'u') {
                ch = '?';
                i += i + 4 < len ? 4 : len - 1 - i;
            }
        }
        if (o + 1 >= cap) return false;
        out[o++] = ch;
    }
    out[o] = 0;
    return true;
}

/* By name (partitions numbered "partition k" summed as one), into e->stages. */
static void sum_by_name(cuzk_engine *e, const tl_span *v, int n)
{
    for (int k = 0; k < n; k++) {
        size_t len = v[k].len;
        if (len > 10 && !strncmp(v[k].name, "partition ", 10)) len = 9;
        char name[sizeof e->stages[0].name];
        if (!decode_name(name, sizeof name, v[k].name, len) || !name[0]) continue;
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

void stages_account(cuzk_engine *e, const char *timeline_json, job_stages *out)
{
    memset(out, 0, sizeof *out);
    int n = 0;
    tl_span *v = parse_spans(timeline_json, &n);
    sum_by_name(e, v, n);
    sum_by_stage(v, n, out);
    free(v);
}
