/* Traces in the Chrome trace event format (src/engine/trace_json.c) from timelines made with
 * known times: the JSON parses back (jansson); the process and every track are named; every
 * span is one complete event with its time in microseconds from the earliest span; a span's
 * track is its own, else its parent's, else its timeline's (through a graft too); devices and
 * lanes come before the jobs, "GPU 2" before "GPU 10"; one device's track holds the spans of
 * every job on it; on every track the events nest, and spans that overlap without nesting (two
 * partitions of a job side by side, two kernels, a child outlasting its parent) go to a second
 * row of their track; a name with quotes and backslashes is escaped. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "engine/trace_json.h"
#include "harness.h"

#define T0 1000.0 /* the timelines' clock: seconds; the trace's: microseconds from the earliest */

typedef struct {
    const char *name, *track, *job;
    long long ts, dur;
    int tid, span, parent;
} ev;

/* The thread names by tid (at most 64), from the metadata events; their sort indexes too. */
typedef struct {
    char name[64][96];
    int sort[64];
} tracks;

static int tid_of(const tracks *t, const char *name)
{
    for (int i = 0; i < 64; i++)
        if (!strcmp(t->name[i], name)) return i;
    return -1;
}

static const ev *find(const ev *v, size_t n, const char *job, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(v[i].name, name) && (!job || !strcmp(v[i].job, job))) return &v[i];
    return NULL;
}

static int cmp_ev(const void *a, const void *b)
{
    const ev *x = a, *y = b;
    if (x->tid != y->tid) return x->tid - y->tid;
    if (x->ts != y->ts) return x->ts < y->ts ? -1 : 1;
    return x->dur > y->dur ? -1 : x->dur < y->dur;
}

/* On every track each event ends within the innermost one still open when it starts; a child
 * on its parent's track lies within it. Returns the violations. */
static int check_nesting(ev *v, size_t n)
{
    int bad = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < n; k++)
            if (!strcmp(v[k].job, v[i].job) && v[k].span == v[i].parent && v[k].tid == v[i].tid &&
                (v[i].ts < v[k].ts || v[i].ts + v[i].dur > v[k].ts + v[k].dur)) {
                fprintf(stderr, "    %s outside its parent %s on tid %d\n", v[i].name, v[k].name, v[i].tid);
                bad++;
            }
    ev *s = malloc(n * sizeof *s);
    memcpy(s, v, n * sizeof *s);
    qsort(s, n, sizeof *s, cmp_ev);
    const ev *stack[64];
    int depth = 0, tid = -1;
    for (size_t i = 0; i < n; i++) {
        if (s[i].tid != tid) depth = 0, tid = s[i].tid;
        while (depth && stack[depth - 1]->ts + stack[depth - 1]->dur <= s[i].ts) depth--;
        if (depth && s[i].ts + s[i].dur > stack[depth - 1]->ts + stack[depth - 1]->dur) {
            fprintf(stderr, "    %s overlaps %s on tid %d without nesting\n", s[i].name, stack[depth - 1]->name, tid);
            bad++;
        }
        if (depth < 64) stack[depth++] = &s[i];
    }
    free(s);
    return bad;
}

/* Job 1: a queue wait, two partitions side by side (witness on the bulk lane, proved on GPU 0
 * and GPU 10), two kernels overlapping on GPU 0 (added out of order), a span outlasting its
 * parent. Job 2: one
 * partition on GPU 0 after job 1's, one on GPU 2, an open span. */
static void make_jobs(cuzk_timeline *tl[2])
{
    tl[0] = cuzk_timeline_create("job 1 (circuit)");
    tl[1] = cuzk_timeline_create("job 2 (circuit)");
    cuzk_timeline *a = tl[0], *b = tl[1];
    cuzk_span_add_at(a, -1, "queue wait", T0, T0 + 0.010);
    int p0 = cuzk_span_add_at(a, -1, "partition 0", T0 + 0.010, T0 + 0.050);
    cuzk_timeline *w = cuzk_timeline_create("witness");
    cuzk_timeline_set_track(w, "witness lane (bulk)");
    int wit = cuzk_span_add_at(w, -1, "witness", T0 + 0.010, T0 + 0.020);
    cuzk_span_add_at(w, wit, "synthesize", T0 + 0.011, T0 + 0.019);
    cuzk_timeline_graft(a, p0, w);
    cuzk_timeline_destroy(w);
    cuzk_span_add_at(a, p0, "wait for a device", T0 + 0.020, T0 + 0.022);
    int on0 = cuzk_span_add_at(a, p0, "prove on a GPU", T0 + 0.022, T0 + 0.050);
    cuzk_span_set_track(a, on0, "GPU 0");
    cuzk_span_add_at(a, on0, "msm h", T0 + 0.030, T0 + 0.040);
    cuzk_span_add_at(a, on0, "ntt \"a\" \\ b", T0 + 0.029, T0 + 0.035); /* overlaps msm h */
    cuzk_span_add_at(a, p0, "late", T0 + 0.045, T0 + 0.060);            /* outlasts partition 0 */
    int p1 = cuzk_span_add_at(a, -1, "partition 1", T0 + 0.020, T0 + 0.080);
    int on1 = cuzk_span_add_at(a, p1, "prove on a GPU", T0 + 0.050, T0 + 0.080);
    cuzk_span_set_track(a, on1, "GPU 10");

    int q = cuzk_span_add_at(b, -1, "partition 0", T0 + 0.050, T0 + 0.100);
    int on2 = cuzk_span_add_at(b, q, "prove on a GPU", T0 + 0.060, T0 + 0.090);
    cuzk_span_set_track(b, on2, "GPU 0");
    int on3 = cuzk_span_add_at(b, -1, "prove elsewhere", T0 + 0.060, T0 + 0.070);
    cuzk_span_set_track(b, on3, "GPU 2");
}

static void test_copy(cuzk_timeline *tl[2])
{
    cuzk_span_copy *c = NULL;
    int n = cuzk_timeline_copy(tl[0], &c);
    CHECK(n == 11 && c);
    if (n != 11 || !c) return free(c);
    /* partition 0's witness, grafted from a timeline of the bulk lane, and its child */
    CHECK(!strcmp(c[2].name, "witness") && !strcmp(c[2].track, "witness lane (bulk)") && c[2].parent == 1);
    CHECK(!strcmp(c[3].name, "synthesize") && !strcmp(c[3].track, "witness lane (bulk)"));
    CHECK(!strcmp(c[4].name, "wait for a device") && !c[4].track[0]); /* the job's own */
    CHECK(!strcmp(c[6].name, "msm h") && !strcmp(c[6].track, "GPU 0"));
    CHECK(c[6].start == T0 + 0.030 && c[6].end == T0 + 0.040);
    free(c);

    /* an open span ends at the copy; a NULL timeline has none */
    cuzk_timeline *o = cuzk_timeline_create("open");
    double t = cuzk_now();
    cuzk_span_begin(o, "still running");
    n = cuzk_timeline_copy(o, &c);
    CHECK(n == 1 && c && c[0].end >= t && c[0].end >= c[0].start);
    free(c);
    cuzk_timeline_destroy(o);
    CHECK(cuzk_timeline_copy(NULL, &c) == 0 && !c);
}

static void test_trace(cuzk_timeline *tl[2])
{
    cuzk_span_copy *c[2] = {NULL, NULL};
    trace_job jobs[2] = {{"job 1", "job 1 (circuit)", NULL, 0}, {"job 2", "job 2 (circuit)", NULL, 0}};
    for (int i = 0; i < 2; i++) {
        jobs[i].n = cuzk_timeline_copy(tl[i], &c[i]);
        jobs[i].spans = c[i];
    }
    char *text = NULL;
    CHECK_OK(trace_json("test \"trace\"", jobs, 2, &text));
    json_error_t err;
    json_t *doc = text ? json_loads(text, 0, &err) : NULL;
    CHECK(doc);
    if (!doc) fprintf(stderr, "    not JSON (%s): %.300s\n", err.text, text ? text : "(null)");
    json_t *events = json_object_get(doc, "traceEvents");
    CHECK(json_is_array(events));

    tracks t;
    memset(&t, 0, sizeof t);
    ev v[64];
    size_t nv = 0;
    bool process = false, shape = true;
    for (size_t i = 0; i < json_array_size(events); i++) {
        json_t *e = json_array_get(events, i);
        const char *ph = json_string_value(json_object_get(e, "ph")),
                   *name = json_string_value(json_object_get(e, "name"));
        json_t *args = json_object_get(e, "args");
        int tid = (int)json_integer_value(json_object_get(e, "tid"));
        shape &= ph && name && json_integer_value(json_object_get(e, "pid")) == 1 && tid >= 0 && tid < 64;
        if (!shape) break;
        if (!strcmp(ph, "M") && !strcmp(name, "process_name"))
            process = !strcmp(json_string_value(json_object_get(args, "name")), "test \"trace\"");
        else if (!strcmp(ph, "M") && !strcmp(name, "thread_name"))
            snprintf(t.name[tid], sizeof t.name[tid], "%s", json_string_value(json_object_get(args, "name")));
        else if (!strcmp(ph, "M") && !strcmp(name, "thread_sort_index"))
            t.sort[tid] = (int)json_integer_value(json_object_get(args, "sort_index"));
        else if (!strcmp(ph, "X") && nv < 64) {
            json_t *ts = json_object_get(e, "ts"), *dur = json_object_get(e, "dur");
            shape &= json_is_integer(ts) && json_is_integer(dur) && json_integer_value(dur) >= 0;
            v[nv++] = (ev){name,
                           NULL,
                           json_string_value(json_object_get(args, "job")),
                           json_integer_value(ts),
                           json_integer_value(dur),
                           tid,
                           (int)json_integer_value(json_object_get(args, "span")),
                           (int)json_integer_value(json_object_get(args, "parent"))};
            shape &= v[nv - 1].job != NULL;
        } else shape = false;
    }
    CHECK(shape);
    CHECK(process);
    CHECK(nv == (size_t)(jobs[0].n + jobs[1].n));               /* every span, once */
    for (size_t i = 0; i < nv; i++) CHECK(t.name[v[i].tid][0]); /* on a named track */

    /* the tracks and their order: devices and lanes by name, then the jobs */
    const char *order[] = {"GPU 0", "GPU 0 (2)", "GPU 2", "GPU 10", "witness lane (bulk)",
                           "job 1", "job 1 (2)", "job 2"};
    int last = -1;
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        int tid = tid_of(&t, order[i]);
        CHECK(tid > 0);
        if (tid <= 0) {
            fprintf(stderr, "    no track %s\n", order[i]);
            continue;
        }
        CHECK(t.sort[tid] > last);
        last = t.sort[tid];
    }

    /* times: microseconds from the earliest span (job 1's queue wait) */
    const ev *qw = find(v, nv, "job 1 (circuit)", "queue wait"), *msm = find(v, nv, NULL, "msm h");
    CHECK(qw && qw->ts == 0 && qw->dur == 10000 && qw->tid == tid_of(&t, "job 1"));
    /* two kernels overlapping: the first to start under its parent on GPU 0, the other on a
     * second row (the name with quotes and a backslash escaped and read back) */
    const ev *ntt = find(v, nv, NULL, "ntt \"a\" \\ b");
    CHECK(ntt && ntt->ts == 29000 && ntt->dur == 6000 && ntt->tid == tid_of(&t, "GPU 0"));
    CHECK(msm && msm->ts == 30000 && msm->dur == 10000 && msm->tid == tid_of(&t, "GPU 0 (2)"));
    /* partitions side by side: the second on a second row of the job's track */
    const ev *p0 = find(v, nv, "job 1 (circuit)", "partition 0"), *p1 = find(v, nv, "job 1 (circuit)", "partition 1");
    CHECK(p0 && p1 && p0->tid == tid_of(&t, "job 1") && p1->tid == tid_of(&t, "job 1 (2)"));
    /* a span outlasting its parent is not drawn inside it */
    const ev *late = find(v, nv, NULL, "late");
    CHECK(late && late->tid != p0->tid);
    /* one device, one track, for every job */
    const ev *j2 = find(v, nv, "job 2 (circuit)", "prove on a GPU");
    CHECK(j2 && j2->tid == tid_of(&t, "GPU 0") && j2->ts == 60000 && j2->dur == 30000);
    const ev *w = find(v, nv, NULL, "synthesize");
    CHECK(w && w->tid == tid_of(&t, "witness lane (bulk)"));
    CHECK(check_nesting(v, nv) == 0);

    json_decref(doc);
    free(text);
    free(c[0]);
    free(c[1]);

    /* a job without spans: a valid trace with the process named */
    trace_job none = {"job 9", "job 9", NULL, 0};
    CHECK_OK(trace_json("empty", &none, 1, &text));
    doc = text ? json_loads(text, 0, &err) : NULL;
    CHECK(doc && json_array_size(json_object_get(doc, "traceEvents")) == 1);
    json_decref(doc);
    free(text);
}

int main(void)
{
    cuzk_timeline *tl[2];
    make_jobs(tl);
    test_copy(tl);
    test_trace(tl);
    cuzk_timeline_destroy(tl[0]);
    cuzk_timeline_destroy(tl[1]);
    return harness_finish("test_trace");
}
