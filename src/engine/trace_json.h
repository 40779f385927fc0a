/* Timelines as a trace in the Chrome trace event format (docs/DESIGN.md, "Traces"), which
 * Perfetto and chrome://tracing open: one process, one track (thread) per device, per witness
 * lane and per job, each span a complete event ("ph":"X", ts and dur in microseconds from the
 * earliest span), nested spans nested on their track. */
#ifndef CUZK_ENGINE_TRACE_JSON_H
#define CUZK_ENGINE_TRACE_JSON_H

#include <stddef.h>

#include "cuzk/base.h"

/* One job's spans (cuzk_timeline_copy's). Spans without a track go on the job's own track. */
typedef struct {
    char track[CUZK_TRACK_MAX + 16]; /* the job's own track, e.g. "job 3" */
    char label[96];                  /* each of its events' args.job, e.g. "job 3 (porep)" */
    const cuzk_span_copy *spans;
    int n;
} trace_job;

/* The trace of n jobs as JSON text in *out (malloc'd): {"traceEvents":[...]} with metadata
 * events naming the process (process) and the tracks, then an "X" event per span with args
 * {job, span, parent} (the span's and its parent's index in the job's timeline). Every span is
 * on its track (the devices and lanes first, by name; then the jobs in order); where spans of
 * one track overlap without nesting (partitions of a job witnessed and proved side by side, GPU
 * kernels on two streams), the later ones go to a further row of it, "TRACK (2)", so that on
 * every row each event lies within the one it is drawn under. Errors: CUZK_ENOMEM. */
cuzk_status trace_json(const char *process, const trace_job *jobs, size_t n, char **out) CUZK_WARN_UNUSED;

#endif
