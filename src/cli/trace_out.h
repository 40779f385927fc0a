/* --trace FILE of the commands that run jobs through an in-process engine (prove, bench e2e,
 * bench engine): the run's jobs written at the end as one trace in the Chrome trace event
 * format (cuzk_engine_trace), whether the jobs completed or not, through an output group of its
 * own (temporary and rename: no partial file on a failure). */
#ifndef CUZK_CLI_TRACE_OUT_H
#define CUZK_CLI_TRACE_OUT_H

#include <stddef.h>
#include <stdint.h>

#include "cli/outputs.h"
#include "cuzk/engine.h"

typedef struct {
    const char *path; /* NULL: no --trace */
    cli_outputs *outs;
    int index;
} cli_trace;

/* Before the work, once the command's own inputs and outputs (main, NULL: none) are
 * registered and before they are checked: the trace path is checked as an output (its folder
 * writable, not a folder, none of main's files) and made an input of main, so no other output
 * may be it. path NULL: nothing to do. */
cuzk_status cli_trace_begin(cli_trace *t, const char *path, cli_outputs *main) CUZK_WARN_UNUSED;
/* After the work: the trace of jobs ids[0 .. n) (title: the process's name) written and put in
 * place; a line on stderr says where. Nothing for no --trace or n = 0. */
cuzk_status cli_trace_end(cli_trace *t, cuzk_engine *e, const uint64_t *ids, size_t n,
                          const char *title) CUZK_WARN_UNUSED;
/* Removes an uncommitted temporary and frees. */
void cli_trace_free(cli_trace *t);

#endif
