/* CPU multi-scalar multiplication on blst's Pippenger, spread over the thread pool.
 *
 * The sum is cut into tiles: nx chunks of points times ny windows of bits. Each tile is one
 * blst_pX_tile_pippenger call (the same bucket code blst's own Pippenger runs), so a single
 * thread does exactly blst's work and T threads split it with no extra bucket passes; the
 * tiles are then added per window row and the rows combined by doubling (Horner). The
 * window is chosen for the chunk size, as blst chooses it for the whole.
 *
 * A cancel token is polled before each tile (and each slice): a tile is one blst call that
 * cannot be interrupted, so a cancelled sum ends once the tiles in flight are done; their
 * size, n / nx points over one window, is what bounds the wait. Cutting tiles smaller only
 * for that would cost every uncancelled sum extra bucket passes. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/ff.h"

#define SCALAR_BITS 255
/* Fr inputs are converted to canonical scalars in slices of this many points, bounding the
 * temporary to 512 MiB whatever n is. */
#define MSM_SLICE (1u << 24)

typedef struct {
    size_t point_size, affine_size;
    size_t (*scratch_sizeof)(size_t npoints);
    void (*tile)(void *ret, const void *points, size_t n, const blst_scalar *scalars, void *scratch, size_t bit0,
                 size_t window);
    void (*add)(void *out, const void *a, const void *b);
    void (*dbl)(void *out, const void *a);
} group_ops;

static void g1_tile(void *ret, const void *points, size_t n, const blst_scalar *scalars, void *scratch, size_t bit0,
                    size_t window)
{
    const blst_p1_affine *pts[2] = {points, NULL};
    const byte *scs[2] = {scalars->b, NULL};
    blst_p1s_tile_pippenger(ret, pts, n, scs, SCALAR_BITS, scratch, bit0, window);
}
static void g2_tile(void *ret, const void *points, size_t n, const blst_scalar *scalars, void *scratch, size_t bit0,
                    size_t window)
{
    const blst_p2_affine *pts[2] = {points, NULL};
    const byte *scs[2] = {scalars->b, NULL};
    blst_p2s_tile_pippenger(ret, pts, n, scs, SCALAR_BITS, scratch, bit0, window);
}
static void g1_add(void *o, const void *a, const void *b) { blst_p1_add_or_double(o, a, b); }
static void g2_add(void *o, const void *a, const void *b) { blst_p2_add_or_double(o, a, b); }
static void g1_dbl(void *o, const void *a) { blst_p1_double(o, a); }
static void g2_dbl(void *o, const void *a) { blst_p2_double(o, a); }

static const group_ops G1_OPS = {
    sizeof(blst_p1), sizeof(blst_p1_affine), blst_p1s_mult_pippenger_scratch_sizeof, g1_tile, g1_add, g1_dbl};
static const group_ops G2_OPS = {
    sizeof(blst_p2), sizeof(blst_p2_affine), blst_p2s_mult_pippenger_scratch_sizeof, g2_tile, g2_add, g2_dbl};

/* blst's window choice for a Pippenger over n points. */
static size_t window_for(size_t n)
{
    size_t wbits = 0;
    while (n >>= 1) wbits++;
    return wbits > 12 ? wbits - 3 : (wbits > 4 ? wbits - 2 : (wbits ? 2 : 1));
}

typedef struct {
    const group_ops *ops;
    const uint8_t *points;
    const blst_scalar *scalars;
    size_t n, nx, ny, window, chunk;
    uint8_t *tiles;   /* nx * ny projective points */
    uint8_t *scratch; /* one bucket array per thread */
    size_t scratch_size;
    const cuzk_cancel *cancel; /* NULL: never */
} tile_job;

static void run_tile(void *vctx, size_t t, size_t t_end, unsigned tid)
{
    tile_job *j = vctx;
    for (; t < t_end; t++) {
        size_t x = t % j->nx, y = t / j->nx;
        size_t b = x * j->chunk, e = b + j->chunk < j->n ? b + j->chunk : j->n;
        void *out = j->tiles + t * j->ops->point_size;
        if (b >= e || cuzk_cancel_requested(j->cancel)) { /* a cancelled sum is thrown away */
            memset(out, 0, j->ops->point_size);
            continue;
        }
        j->ops->tile(out, j->points + b * j->ops->affine_size, e - b, j->scalars + b,
                     j->scratch + tid * j->scratch_size, y * j->window, j->window);
    }
}

/* out = sum over n terms, scalars canonical; CUZK_ECANCELLED once cancel is set. */
static cuzk_status msm_tiled(const group_ops *ops, void *out, const void *points, const blst_scalar *scalars, size_t n,
                             const cuzk_cancel *cancel)
{
    memset(out, 0, ops->point_size);
    if (n == 0) return CUZK_OK;
    unsigned threads = cuzk_threads();
    /* Cut the points into nx chunks only as far as needed to give every thread a tile. */
    size_t nx = 1, window = window_for(n), ny;
    for (;;) {
        window = window_for((n + nx - 1) / nx);
        /* Rows at bit0 = 0, w, 2w, ... up to the last multiple of w <= 255: when w divides
         * 255 the top row (bit0 = 255, width 0) collects the Booth carry out of bit 254,
         * exactly as blst's own Pippenger does. */
        ny = SCALAR_BITS / window + 1;
        if (nx * ny >= threads || (n + nx - 1) / nx < 64) break;
        nx++;
    }
    tile_job j = {ops, points, scalars, n, nx, ny, window, (n + nx - 1) / nx, NULL, NULL, 0, cancel};
    /* Tile buckets: 2^(window-1) xyzz points; the top row may use one bit more of carry,
     * which blst sizes within the same 2^(window-1). */
    j.scratch_size = ops->scratch_sizeof(1) << (window - 1);
    j.tiles = malloc(nx * ny * ops->point_size);
    j.scratch = calloc(threads, j.scratch_size); /* blst expects zeroed buckets; each tile leaves them zeroed */
    if (!j.tiles || !j.scratch) {
        free(j.tiles);
        free(j.scratch);
        return cuzk_fail(CUZK_ENOMEM, "out of memory for MSM buckets (%zu bytes per thread)", j.scratch_size);
    }
    cuzk_parallel_tasks(nx * ny, run_tile, &j);
    cuzk_status st = cuzk_cancel_check(cancel, "an MSM");
    if (st) {
        free(j.tiles);
        free(j.scratch);
        return st;
    }
    /* Rows: add the nx tiles of each window; then Horner over the windows from the top. */
    uint8_t row[sizeof(blst_p2)], acc[sizeof(blst_p2)];
    memset(acc, 0, sizeof acc);
    for (size_t y = ny; y-- > 0;) {
        memcpy(row, j.tiles + (y * j.nx) * ops->point_size, ops->point_size);
        for (size_t x = 1; x < j.nx; x++) ops->add(row, row, j.tiles + (y * j.nx + x) * ops->point_size);
        if (y != ny - 1)
            for (size_t k = 0; k < window; k++) ops->dbl(acc, acc);
        ops->add(acc, acc, row);
    }
    memcpy(out, acc, ops->point_size);
    free(j.tiles);
    free(j.scratch);
    return CUZK_OK;
}

cuzk_status cuzk_g1_msm_scalars(blst_p1 *out, const blst_p1_affine *points, const blst_scalar *scalars, size_t n)
{
    return msm_tiled(&G1_OPS, out, points, scalars, n, NULL);
}

cuzk_status cuzk_g2_msm_scalars(blst_p2 *out, const blst_p2_affine *points, const blst_scalar *scalars, size_t n)
{
    return msm_tiled(&G2_OPS, out, points, scalars, n, NULL);
}

typedef struct {
    blst_scalar *out;
    const cuzk_fr *in;
} convert_ctx;

static void convert_range(void *vctx, size_t b, size_t e, unsigned tid)
{
    convert_ctx *c = vctx;
    for (size_t i = b; i < e; i++) blst_scalar_from_fr(&c->out[i], &c->in[i]);
}

static cuzk_status msm_fr(const group_ops *ops, void *out, const void *points, const cuzk_fr *scalars, size_t n,
                          const cuzk_cancel *cancel)
{
    memset(out, 0, ops->point_size);
    size_t slice = n < MSM_SLICE ? n : MSM_SLICE;
    blst_scalar *tmp = cuzk_big_alloc(slice * sizeof(blst_scalar) + 1);
    if (!tmp) return CUZK_ENOMEM;
    uint8_t part[sizeof(blst_p2)];
    cuzk_status st = CUZK_OK;
    for (size_t b = 0; b < n && st == CUZK_OK; b += slice) {
        size_t m = n - b < slice ? n - b : slice;
        convert_ctx c = {tmp, scalars + b};
        if ((st = cuzk_cancel_check(cancel, "an MSM"))) break;
        cuzk_parallel_for(m, 4096, convert_range, &c);
        st = msm_tiled(ops, part, (const uint8_t *)points + b * ops->affine_size, tmp, m, cancel);
        if (st == CUZK_OK) ops->add(out, out, part);
    }
    cuzk_big_free(tmp, slice * sizeof(blst_scalar) + 1);
    return st;
}

cuzk_status cuzk_g1_msm(blst_p1 *out, const blst_p1_affine *points, const cuzk_fr *scalars, size_t n)
{
    return msm_fr(&G1_OPS, out, points, scalars, n, NULL);
}

cuzk_status cuzk_g2_msm(blst_p2 *out, const blst_p2_affine *points, const cuzk_fr *scalars, size_t n)
{
    return msm_fr(&G2_OPS, out, points, scalars, n, NULL);
}

cuzk_status cuzk_g1_msm_cancellable(blst_p1 *out, const blst_p1_affine *points, const cuzk_fr *scalars, size_t n,
                                    const cuzk_cancel *cancel)
{
    return msm_fr(&G1_OPS, out, points, scalars, n, cancel);
}

cuzk_status cuzk_g2_msm_cancellable(blst_p2 *out, const blst_p2_affine *points, const cuzk_fr *scalars, size_t n,
                                    const cuzk_cancel *cancel)
{
    return msm_fr(&G2_OPS, out, points, scalars, n, cancel);
}
