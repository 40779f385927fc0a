/* A circuit's parameters streamed from their .params file straight to a device (or, in the
 * streamed placement, to the prover's page-locked host copy): the file is
 * read in pieces (the next pieces read while one is decoded), each piece decoded and checked
 * on the host and copied to its place in device memory, so no host copy of the points is ever
 * whole (a 32 GiB PoRep's are 47 GB). Decoding runs on a pool of its own, so a load that
 * records the precompiled circuit at the same time on the lane's pool does not wait for it. */
#include <stdio.h>

#include "cuzk/progress.h"

#include "engine_internal.h"

typedef struct {
    cuzk_gpu_prover *pr;
    cuzk_progress *progress; /* points streamed */
    const load_watch *watch;
} upload;

static cuzk_status put_points(void *ctx, int section, size_t first, size_t n, const void *pts)
{
    upload *u = ctx;
    cuzk_status st = load_watch_piece(u->watch, n); /* a stopped load copies no more */
    if (st) return st;
    cuzk_progress_add(u->progress, n);
    return cuzk_gpu_prover_put(u->pr, section, first, n, pts);
}

cuzk_status stream_params_to_device(cuzk_gpu_device *gpu, const cuzk_gpu_placement *pl, cuzk_groth16_params_file *f,
                                    int flags, unsigned threads, const cuzk_progress_sink *progress,
                                    const load_watch *watch, cuzk_gpu_prover **out, stream_stats *stats)
{
    double t0 = cuzk_now();
    *out = NULL;
    cuzk_pool *pool = NULL;
    cuzk_status st = cuzk_pool_create(&pool, threads);
    if (st) return st;
    cuzk_pool *prev = cuzk_pool_bind(pool);
    cuzk_gpu_prover *pr = NULL;
    double read_s = 0;
    st = cuzk_gpu_prover_begin_placed(gpu, &pr, f->count, &f->vk, pl);
    uint64_t points = 0;
    for (int k = 0; k < CUZK_PARAMS_SECTIONS; k++) points += f->count[k];
    upload u = {pr, st ? NULL : cuzk_progress_start(progress, "parameters to the GPU (points)", points), watch};
    if (!st) st = cuzk_groth16_params_stream(f, flags, &(cuzk_groth16_points_sink){NULL, put_points, &u}, &read_s);
    cuzk_progress_finish(u.progress);
    if (!st) st = cuzk_gpu_prover_commit(pr);
    cuzk_pool_bind(prev);
    cuzk_pool_destroy(pool);
    if (st) {
        cuzk_gpu_prover_destroy(pr);
        return cuzk_fail_context(st, "streaming %s to the device", f->path);
    }
    *out = pr;
    if (stats) {
        stats->seconds = cuzk_now() - t0;
        stats->read_s = read_s;
        stats->bytes = f->file_bytes;
    }
    return CUZK_OK;
}
