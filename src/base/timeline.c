/* Timelines: a tree of named, timed spans for every stage of a job.
 * The printout lists, under each parent, the time its children do not account for
 * ("(other)"), so an uncounted gap between stages shows up at once. */
#include "cuzk/base.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
    char name[64];
    char track[CUZK_TRACK_MAX]; /* "": its parent's */
    int parent;
    double start, end; /* end < 0 while open */
} span;

struct cuzk_timeline {
    pthread_mutex_t mu;
    char name[64];
    char track[CUZK_TRACK_MAX]; /* of top-level spans without their own */
    double t0;
    span *spans;
    int n, cap;
    int open; /* innermost open span begun with cuzk_span_begin, -1 at top */
};

double cuzk_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

cuzk_timeline *cuzk_timeline_create(const char *name)
{
    cuzk_timeline *tl = calloc(1, sizeof *tl);
    if (!tl) return NULL;
    pthread_mutex_init(&tl->mu, NULL);
    snprintf(tl->name, sizeof tl->name, "%s", name ? name : "timeline");
    tl->t0 = cuzk_now();
    tl->open = -1;
    return tl;
}

void cuzk_timeline_destroy(cuzk_timeline *tl)
{
    if (!tl) return;
    pthread_mutex_destroy(&tl->mu);
    free(tl->spans);
    free(tl);
}

static int push_span(cuzk_timeline *tl, int parent, const char *name, double start, double end)
{
    if (tl->n == tl->cap) {
        int cap = tl->cap ? tl->cap * 2 : 32;
        span *s = realloc(tl->spans, (size_t)cap * sizeof *s);
        if (!s) return -1;
        tl->spans = s;
        tl->cap = cap;
    }
    span *s = &tl->spans[tl->n];
    snprintf(s->name, sizeof s->name, "%s", name);
    s->track[0] = 0;
    s->parent = parent;
    s->start = start;
    s->end = end;
    return tl->n++;
}

int cuzk_span_begin(cuzk_timeline *tl, const char *name)
{
    if (!tl) return -1;
    pthread_mutex_lock(&tl->mu);
    int id = push_span(tl, tl->open, name, cuzk_now(), -1);
    if (id >= 0) tl->open = id;
    pthread_mutex_unlock(&tl->mu);
    return id;
}

int cuzk_span_begin_under(cuzk_timeline *tl, int parent, const char *name)
{
    if (!tl) return -1;
    pthread_mutex_lock(&tl->mu);
    int id = push_span(tl, parent, name, cuzk_now(), -1);
    pthread_mutex_unlock(&tl->mu);
    return id;
}

void cuzk_span_end(cuzk_timeline *tl, int id)
{
    if (!tl || id < 0) return;
    pthread_mutex_lock(&tl->mu);
    if (id < tl->n) {
        tl->spans[id].end = cuzk_now();
        if (tl->open == id) tl->open = tl->spans[id].parent;
    }
    pthread_mutex_unlock(&tl->mu);
}

void cuzk_span_add(cuzk_timeline *tl, int parent, const char *name, double seconds)
{
    if (!tl) return;
    pthread_mutex_lock(&tl->mu);
    double now = cuzk_now();
    push_span(tl, parent, name, now - seconds, now);
    pthread_mutex_unlock(&tl->mu);
}

double cuzk_span_seconds(const cuzk_timeline *tl, const char *name)
{
    if (!tl) return -1;
    for (int i = 0; i < tl->n; i++)
        if (strcmp(tl->spans[i].name, name) == 0 && tl->spans[i].end >= 0) return tl->spans[i].end - tl->spans[i].start;
    return -1;
}

static double span_len(const span *s) { return s->end >= 0 ? s->end - s->start : cuzk_now() - s->start; }

int cuzk_timeline_spans(const cuzk_timeline *tl) { return tl ? tl->n : 0; }

const char *cuzk_timeline_span(const cuzk_timeline *tl, int i, int *parent, double *seconds)
{
    const span *sp = &tl->spans[i];
    *parent = sp->parent;
    *seconds = span_len(sp);
    return sp->name;
}

static void print_children(const cuzk_timeline *tl, FILE *out, int parent, int depth, double parent_len)
{
    double covered = 0;
    int nchild = 0;
    for (int i = 0; i < tl->n; i++) {
        const span *s = &tl->spans[i];
        if (s->parent != parent) continue;
        double len = span_len(s);
        fprintf(out, "  %*s%-*s %10.3f ms\n", depth * 2, "", 40 - depth * 2, s->name, len * 1e3);
        print_children(tl, out, i, depth + 1, len);
        covered += len;
        nchild++;
    }
    /* Children may run concurrently, so "covered" can exceed the parent; only report a gap. */
    if (nchild > 0 && parent >= 0 && parent_len - covered > 0.0005)
        fprintf(out, "  %*s%-*s %10.3f ms\n", depth * 2, "", 40 - depth * 2, "(other)", (parent_len - covered) * 1e3);
}

void cuzk_timeline_print(const cuzk_timeline *tl, FILE *out)
{
    if (!tl) return;
    pthread_mutex_lock((pthread_mutex_t *)&tl->mu);
    fprintf(out, "timeline: %s\n", tl->name);
    print_children(tl, out, -1, 0, 0);
    pthread_mutex_unlock((pthread_mutex_t *)&tl->mu);
}

void cuzk_timeline_print_json(const cuzk_timeline *tl, FILE *out)
{
    if (!tl) {
        fputs("[]", out);
        return;
    }
    pthread_mutex_lock((pthread_mutex_t *)&tl->mu);
    fputc('[', out);
    for (int i = 0; i < tl->n; i++) {
        const span *s = &tl->spans[i];
        fprintf(out, "%s{\"name\":", i ? "," : "");
        cuzk_json_string(out, s->name);
        fprintf(out, ",\"parent\":%d,\"start\":%.6f,\"seconds\":%.6f", s->parent, s->start - tl->t0, span_len(s));
        /* the parent's time its children do not account for (children may overlap) */
        double covered = 0;
        bool parent = false;
        for (int j = i + 1; j < tl->n; j++)
            if (tl->spans[j].parent == i) {
                covered += span_len(&tl->spans[j]);
                parent = true;
            }
        if (parent) fprintf(out, ",\"other\":%.6f", span_len(s) > covered ? span_len(s) - covered : 0.0);
        fputc('}', out);
    }
    fputc(']', out);
    pthread_mutex_unlock((pthread_mutex_t *)&tl->mu);
}

char *cuzk_timeline_json(const cuzk_timeline *tl)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return NULL;
    cuzk_timeline_print_json(tl, f);
    if (fclose(f)) {
        free(buf);
        return NULL;
    }
    return buf;
}

int cuzk_span_add_at(cuzk_timeline *tl, int parent, const char *name, double start, double end)
{
    if (!tl) return -1;
    pthread_mutex_lock(&tl->mu);
    int id = push_span(tl, parent, name, start, end);
    pthread_mutex_unlock(&tl->mu);
    return id;
}

void cuzk_timeline_graft(cuzk_timeline *dst, int parent, const cuzk_timeline *src)
{
    if (!dst || !src || dst == src) return;
    pthread_mutex_lock((pthread_mutex_t *)&src->mu);
    pthread_mutex_lock(&dst->mu);
    int base = dst->n;
    for (int i = 0; i < src->n; i++) {
        const span *s = &src->spans[i];
        double end = s->end >= 0 ? s->end : cuzk_now();
        int id = push_span(dst, s->parent < 0 ? parent : base + s->parent, s->name, s->start, end);
        /* a top-level span without a track of its own ran where its timeline did */
        const char *track = s->track[0] || s->parent >= 0 ? s->track : src->track;
        if (id >= 0) snprintf(dst->spans[id].track, sizeof dst->spans[id].track, "%s", track);
    }
    pthread_mutex_unlock(&dst->mu);
    pthread_mutex_unlock((pthread_mutex_t *)&src->mu);
}

double cuzk_timeline_origin(const cuzk_timeline *tl) { return tl ? tl->t0 : 0; }

void cuzk_span_set_track(cuzk_timeline *tl, int id, const char *track)
{
    if (!tl || id < 0) return;
    pthread_mutex_lock(&tl->mu);
    if (id < tl->n) snprintf(tl->spans[id].track, sizeof tl->spans[id].track, "%s", track ? track : "");
    pthread_mutex_unlock(&tl->mu);
}

void cuzk_timeline_set_track(cuzk_timeline *tl, const char *track)
{
    if (!tl) return;
    pthread_mutex_lock(&tl->mu);
    snprintf(tl->track, sizeof tl->track, "%s", track ? track : "");
    pthread_mutex_unlock(&tl->mu);
}

int cuzk_timeline_copy(const cuzk_timeline *tl, cuzk_span_copy **out)
{
    *out = NULL;
    if (!tl) return 0;
    pthread_mutex_lock((pthread_mutex_t *)&tl->mu);
    int n = tl->n;
    cuzk_span_copy *v = n ? malloc((size_t)n * sizeof *v) : NULL;
    if (n && !v) {
        pthread_mutex_unlock((pthread_mutex_t *)&tl->mu);
        return -1;
    }
    double now = cuzk_now();
    for (int i = 0; i < n; i++) {
        const span *s = &tl->spans[i];
        memcpy(v[i].name, s->name, sizeof v[i].name);
        v[i].parent = s->parent;
        v[i].start = s->start;
        v[i].end = s->end >= 0 ? s->end : now;
        /* parents come before their children, so a parent's track is resolved first */
        const char *track = s->track[0] ? s->track : s->parent >= 0 && s->parent < i ? v[s->parent].track : tl->track;
        snprintf(v[i].track, sizeof v[i].track, "%s", track);
    }
    pthread_mutex_unlock((pthread_mutex_t *)&tl->mu);
    *out = v;
    return n;
}

const char *cuzk_timeline_name(const cuzk_timeline *tl) { return tl ? tl->name : ""; }
