/* Statistics the bench commands share: medians and quantiles of seconds, a growing list of
 * them, and the partition times read back from a job's timeline. */
#ifndef CUZK_CLI_BENCH_STATS_H
#define CUZK_CLI_BENCH_STATS_H

#include <stddef.h>

/* The median of v[0..n) (the mean of the middle two when n is even; 0 when n is 0); sorts v. */
double bench_median(double *v, size_t n);
/* The q-quantile of v[0..n) (the nearest rank; 0 when n is 0); sorts v. */
double bench_quantile(double *v, size_t n, double q);

/* A growing list of seconds; a value that cannot be stored (out of memory) is dropped. */
typedef struct {
    double *v;
    size_t n, cap;
} seconds_list;

void seconds_add(seconds_list *l, double s);
void seconds_free(seconds_list *l);

/* Adds the device time ("prove on ..." spans) and the witness time of every partition in a job
 * result's timeline (JSON, may be NULL) to prove and witness. */
void bench_partition_times(const char *timeline_json, seconds_list *prove, seconds_list *witness);

#endif
