/* Timelines into the Chrome trace event format (trace_json.h), written with jansson. Each
 * track's spans are laid out in rows: sorted by start (the longer first), each goes to the row
 * its parent is on when it nests there, else to the first row where it nests, else to a new
 * row; a row is a stack of the spans still open at the current start. Times are whole
 * microseconds rounded from one clock, start and end each, so a child within its parent stays
 * within it after rounding. */
#define _GNU_SOURCE /* strverscmp ("GPU 2" before "GPU 10"), qsort_r */
#include "trace_json.h"

#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    size_t job;
    int span;
    int track;
    int64_t ts, end;
    int row;          /* in its track, -1 until placed */
    int parent_event; /* the event of its parent span, -1 for none */
} trace_event;

typedef struct {
    const char *name;
    bool job_own; /* a job's own track (listed after the devices and lanes) */
    size_t order; /* first seen */
    int nrows;
} trace_track;

typedef struct {
    trace_event *ev;
    size_t nev;
    trace_track *tracks;
    int ntracks, cap;
} layout;

/* The track of that name (a job's own: each job has its own, looked up once per job; the devices
 * and lanes are few), made when new; -1 when out of memory. */
static int track_of(layout *l, const char *name, bool job_own)
{
    for (int i = 0; i < l->ntracks; i++)
        if (l->tracks[i].job_own == job_own && !strcmp(l->tracks[i].name, name)) return i;
    if (l->ntracks == l->cap) {
        int cap = l->cap ? l->cap * 2 : 16;
        trace_track *t = realloc(l->tracks, (size_t)cap * sizeof *t);
        if (!t) return -1;
        l->tracks = t;
        l->cap = cap;
    }
    l->tracks[l->ntracks] = (trace_track){name, job_own, (size_t)l->ntracks, 0};
    return l->ntracks++;
}

static int cmp_track(const void *a, const void *b)
{
    const trace_track *x = a, *y = b;
    if (x->job_own != y->job_own) return x->job_own ? 1 : -1;
    if (!x->job_own) {
        int c = strverscmp(x->name, y->name);
        if (c) return c;
    }
    return (x->order > y->order) - (x->order < y->order);
}

/* start, then the longer first, then (a tie) the parent before its child */
static int cmp_event(const void *a, const void *b, void *ctx)
{
    const trace_event *ev = ctx;
    const trace_event *x = &ev[*(const size_t *)a], *y = &ev[*(const size_t *)b];
    if (x->ts != y->ts) return x->ts < y->ts ? -1 : 1;
    if (x->end != y->end) return x->end > y->end ? -1 : 1;
    if (x->job != y->job) return x->job < y->job ? -1 : 1;
    return (x->span > y->span) - (x->span < y->span);
}

typedef struct {
    int64_t *end;
    size_t n, cap;
} row_stack;

/* Whether [ts, end] nests in row r now (the spans that ended by ts popped: later spans start
 * no earlier, so they would pop them too). */
static bool fits(row_stack *r, int64_t ts, int64_t end)
{
    while (r->n && r->end[r->n - 1] <= ts) r->n--;
    return !r->n || end <= r->end[r->n - 1];
}

static bool push(row_stack *r, int64_t end)
{
    if (r->n == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 8;
        int64_t *v = realloc(r->end, cap * sizeof *v);
        if (!v) return false;
        r->end = v;
        r->cap = cap;
    }
    r->end[r->n++] = end;
    return true;
}

/* Rows for the events of track t (idx: their indexes, sorted as cmp_event). */
static cuzk_status place_rows(layout *l, int t, const size_t *idx, size_t n)
{
    row_stack *rows = NULL;
    int nrows = 0;
    cuzk_status st = CUZK_OK;
    for (size_t k = 0; k < n && !st; k++) {
        trace_event *e = &l->ev[idx[k]];
        int pr = e->parent_event >= 0 && l->ev[e->parent_event].track == t ? l->ev[e->parent_event].row : -1;
        int row = pr >= 0 && fits(&rows[pr], e->ts, e->end) ? pr : -1;
        for (int r = 0; row < 0 && r < nrows; r++)
            if (fits(&rows[r], e->ts, e->end)) row = r;
        if (row < 0) {
            row_stack *v = realloc(rows, (size_t)(nrows + 1) * sizeof *v);
            if (!v) {
                st = cuzk_fail(CUZK_ENOMEM, "out of memory for a trace's rows");
                break;
            }
            rows = v;
            rows[nrows] = (row_stack){0};
            row = nrows++;
        }
        if (!push(&rows[row], e->end)) st = cuzk_fail(CUZK_ENOMEM, "out of memory for a trace's rows");
        e->row = row;
    }
    for (int r = 0; r < nrows; r++) free(rows[r].end);
    free(rows);
    l->tracks[t].nrows = nrows;
    return st;
}

static int64_t micros(double t, double t0) { return (int64_t)llround((t - t0) * 1e6); }

/* Events and tracks of the jobs; t0, the earliest start. */
static cuzk_status collect(layout *l, const trace_job *jobs, size_t n)
{
    size_t total = 0;
    double t0 = INFINITY;
    for (size_t j = 0; j < n; j++) {
        total += (size_t)jobs[j].n;
        for (int i = 0; i < jobs[j].n; i++)
            if (jobs[j].spans[i].start < t0) t0 = jobs[j].spans[i].start;
    }
    l->ev = calloc(total ? total : 1, sizeof *l->ev);
    if (!l->ev) return cuzk_fail(CUZK_ENOMEM, "out of memory for a trace of %zu spans", total);
    size_t base = 0;
    for (size_t j = 0; j < n; j++) {
        int own_track = jobs[j].n ? track_of(l, jobs[j].track, true) : 0;
        for (int i = 0; i < jobs[j].n && own_track >= 0; i++) {
            const cuzk_span_copy *s = &jobs[j].spans[i];
            trace_event *e = &l->ev[l->nev++];
            e->job = j;
            e->span = i;
            e->track = s->track[0] ? track_of(l, s->track, false) : own_track;
            if (e->track < 0) return cuzk_fail(CUZK_ENOMEM, "out of memory for a trace's tracks");
            e->ts = micros(s->start, t0);
            e->end = s->end > s->start ? micros(s->end, t0) : e->ts;
            e->row = -1;
            e->parent_event = s->parent >= 0 && s->parent < i ? (int)(base + (size_t)s->parent) : -1;
        }
        if (own_track < 0) return cuzk_fail(CUZK_ENOMEM, "out of memory for a trace's tracks");
        base += (size_t)jobs[j].n;
    }
    return CUZK_OK;
}

static cuzk_status layout_rows(layout *l)
{
    size_t *idx = malloc((l->nev ? l->nev : 1) * sizeof *idx);
    if (!idx) return cuzk_fail(CUZK_ENOMEM, "out of memory for a trace");
    for (size_t i = 0; i < l->nev; i++) idx[i] = i;
    qsort_r(idx, l->nev, sizeof *idx, cmp_event, l->ev);
    /* the sorted events grouped by track, in one pass (a bench's thousand jobs are as many tracks) */
    cuzk_status st = CUZK_OK;
    size_t *by_track = malloc((l->nev ? l->nev : 1) * sizeof *by_track);
    size_t *first = calloc((size_t)l->ntracks + 1, sizeof *first);
    if (!by_track || !first) st = cuzk_fail(CUZK_ENOMEM, "out of memory for a trace");
    for (size_t k = 0; !st && k < l->nev; k++) first[l->ev[k].track + 1]++;
    for (int t = 0; !st && t < l->ntracks; t++) first[t + 1] += first[t];
    for (size_t k = 0; !st && k < l->nev; k++) by_track[first[l->ev[idx[k]].track]++] = idx[k];
    for (int t = 0; !st && t < l->ntracks; t++) { /* first[t] is now where track t + 1 begins */
        size_t from = t ? first[t - 1] : 0;
        st = place_rows(l, t, by_track + from, first[t] - from);
    }
    free(first);
    free(by_track);
    free(idx);
    return st;
}

static json_t *meta(const char *what, int tid, const char *key, json_t *value)
{
    json_t *m =
        json_pack("{s:s, s:s, s:i, s:i, s:{s:o}}", "name", what, "ph", "M", "pid", 1, "tid", tid, "args", key, value);
    return m;
}

static cuzk_status emit(const layout *l, const trace_job *jobs, const char *process, char **out)
{
    json_t *events = json_array();
    bool ok = events && !json_array_append_new(events, meta("process_name", 0, "name", json_string(process)));
    /* the tracks' order: devices and lanes by name, then the jobs; a row each */
    trace_track *order = malloc((size_t)(l->ntracks ? l->ntracks : 1) * sizeof *order);
    int *tid_of = malloc((size_t)(l->ntracks ? l->ntracks : 1) * sizeof *tid_of);
    ok = ok && order && tid_of;
    if (ok) {
        if (l->ntracks) memcpy(order, l->tracks, (size_t)l->ntracks * sizeof *order); /* tracks NULL when none */
        qsort(order, (size_t)l->ntracks, sizeof *order, cmp_track);
        int tid = 1;
        for (int k = 0; k < l->ntracks && ok; k++) {
            tid_of[order[k].order] = tid;
            for (int r = 0; r < order[k].nrows && ok; r++, tid++) {
                char name[CUZK_TRACK_MAX + 32];
                if (r) snprintf(name, sizeof name, "%s (%d)", order[k].name, r + 1);
                else snprintf(name, sizeof name, "%s", order[k].name);
                ok = !json_array_append_new(events, meta("thread_name", tid, "name", json_string(name))) &&
                    !json_array_append_new(events, meta("thread_sort_index", tid, "sort_index", json_integer(tid)));
            }
        }
    }
    for (size_t i = 0; i < l->nev && ok; i++) {
        const trace_event *e = &l->ev[i];
        const trace_job *j = &jobs[e->job];
        const cuzk_span_copy *s = &j->spans[e->span];
        json_t *x = json_pack("{s:s, s:s, s:s, s:I, s:I, s:i, s:i, s:{s:s, s:i, s:i}}", "name", s->name, "cat", "span",
                              "ph", "X", "ts", (json_int_t)e->ts, "dur", (json_int_t)(e->end - e->ts), "pid", 1, "tid",
                              tid_of[e->track] + e->row, "args", "job", j->label, "span", e->span, "parent", s->parent);
        ok = x && !json_array_append_new(events, x);
    }
    free(order);
    free(tid_of);
    json_t *top = ok ? json_pack("{s:o, s:s}", "traceEvents", events, "displayTimeUnit", "ms") : NULL;
    if (!top) {
        json_decref(events);
        return cuzk_fail(CUZK_ENOMEM, "a trace of %zu spans: out of memory, or a name not UTF-8", l->nev);
    }
    *out = json_dumps(top, JSON_COMPACT);
    json_decref(top);
    return *out ? CUZK_OK : cuzk_fail(CUZK_ENOMEM, "out of memory for a trace of %zu spans", l->nev);
}

cuzk_status trace_json(const char *process, const trace_job *jobs, size_t n, char **out)
{
    *out = NULL;
    layout l = {0};
    cuzk_status st = collect(&l, jobs, n);
    if (!st) st = layout_rows(&l);
    if (!st) st = emit(&l, jobs, process, out);
    free(l.ev);
    free(l.tracks);
    return st;
}
