/* What a circuit's load checks between its pieces of work (a piece of parameter points read,
 * streamed or uploaded; a step of the load): whether it was told to stop (its loader's token,
 * set by cuzk_engine_cancel_loads and by destroy), and the test hook (engine_testing.h). A
 * 44 GiB load thus ends within a piece of a drain's grace instead of running to its end. */
#include "engine_internal.h"

cuzk_status load_watch_stop(const load_watch *w)
{
    if (!cuzk_cancel_requested(w->stop)) return CUZK_OK;
    return cuzk_fail(CUZK_ECANCELLED,
                     "the load of %s was stopped (its loads were cancelled, or the engine is shutting down)",
                     w->circuit);
}

cuzk_status load_watch_piece(const load_watch *w, uint64_t points)
{
    cuzk_status st = load_watch_stop(w);
    if (!st && w->hook) st = w->hook(w->hook_ctx, w->circuit, points);
    return st;
}

cuzk_status load_watch_params_piece(void *ctx, int section, size_t n)
{
    (void)section;
    return load_watch_piece(ctx, n);
}
