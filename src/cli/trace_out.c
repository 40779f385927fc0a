/* --trace FILE (trace_out.h). */
#include "cli/trace_out.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

cuzk_status cli_trace_begin(cli_trace *t, const char *path, cli_outputs *main)
{
    memset(t, 0, sizeof *t);
    t->index = -1;
    if (!path) return CUZK_OK;
    t->path = path;
    if (!(t->outs = cli_outputs_new())) return cuzk_fail(CUZK_ENOMEM, "out of memory");
    if (main) {
        cli_outputs_inputs_from(t->outs, main);
        cli_outputs_input(main, "trace", path);
    }
    t->index = cli_outputs_add(t->outs, "trace", path);
    return cli_outputs_check(t->outs);
}

cuzk_status cli_trace_end(cli_trace *t, cuzk_engine *e, const uint64_t *ids, size_t n, const char *title)
{
    if (!t->path || !n) return CUZK_OK;
    char *json = NULL;
    cuzk_status st = cuzk_engine_trace(e, ids, n, title, &json);
    if (st) return cuzk_fail_context(st, "--trace %s: ", t->path);
    st = cli_outputs_write(t->outs, t->index, json, strlen(json));
    free(json);
    if (!st) st = cli_outputs_commit(t->outs);
    if (!st)
        fprintf(stderr, "trace of %zu job(s) written to %s (open it in ui.perfetto.dev or chrome://tracing)\n", n,
                t->path);
    return st;
}

void cli_trace_free(cli_trace *t)
{
    cli_outputs_free(t->outs);
    t->outs = NULL;
}
