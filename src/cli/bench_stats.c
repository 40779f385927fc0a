/* Statistics the bench commands share (bench_stats.h). */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "cli/bench_stats.h"

static int cmp_seconds(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double bench_median(double *v, size_t n)
{
    if (!n) return 0;
    qsort(v, n, sizeof *v, cmp_seconds);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double bench_quantile(double *v, size_t n, double q)
{
    if (!n) return 0;
    qsort(v, n, sizeof *v, cmp_seconds);
    size_t i = (size_t)(q * (double)(n - 1) + 0.5);
    return v[i < n ? i : n - 1];
}

void seconds_add(seconds_list *l, double s)
{
    if (l->n == l->cap) {
        size_t c = l->cap ? l->cap * 2 : 64;
        double *nv = realloc(l->v, c * sizeof *nv);
        if (!nv) return;
        l->v = nv;
        l->cap = c;
    }
    l->v[l->n++] = s;
}

void seconds_free(seconds_list *l)
{
    free(l->v);
    memset(l, 0, sizeof *l);
}

void bench_partition_times(const char *timeline_json, seconds_list *prove, seconds_list *witness)
{
    json_error_t err;
    json_t *spans = timeline_json ? json_loads(timeline_json, 0, &err) : NULL;
    for (size_t i = 0; i < json_array_size(spans); i++) {
        json_t *s = json_array_get(spans, i);
        const char *name = json_string_value(json_object_get(s, "name"));
        double sec = json_number_value(json_object_get(s, "seconds"));
        if (!name) continue;
        if (!strncmp(name, "prove on ", 9)) seconds_add(prove, sec);
        if (!strcmp(name, "witness") || !strcmp(name, "witness (urgent lane)")) seconds_add(witness, sec);
    }
    json_decref(spans);
}
