/* Fixed-base multiplication of one base by many scalars (parameter generation).
 *
 * A comb table holds d * 2^(w*i) * B for every window i and digit d in [1, 2^w), so each
 * product is one mixed addition per window and no doublings. The table is built once per
 * call (its windows in parallel), the products are computed in parallel and converted to
 * affine in batches. */
#include <string.h>

#include "cuzk/ff.h"

#define SCALAR_BITS 255

/* Window bits for n products: a wider window means fewer additions per product (255 / w) but a
 * table of 2^w entries per window to build first (in parallel over the windows). */
static unsigned window_bits(size_t n)
{
    if (n < ((size_t)1 << 12)) return 6;
    if (n < ((size_t)1 << 18)) return 9;
    if (n < ((size_t)1 << 20)) return 12;
    return 16;
}

#define DEFINE_FIXED_BASE(G, P, A)                                                                                 \
    typedef struct {                                                                                               \
        A *out;                                                                                                    \
        const A *table;                                                                                            \
        const cuzk_fr *scalars;                                                                                    \
        unsigned w, windows;                                                                                       \
        blst_##P *tmp; /* one chunk of projective results per thread */                                            \
        size_t chunk;                                                                                              \
        cuzk_progress *progress;                                                                                   \
    } G##_fb_ctx;                                                                                                  \
                                                                                                                   \
    static void G##_fb_range(void *vctx, size_t b, size_t e, unsigned tid)                                         \
    {                                                                                                              \
        G##_fb_ctx *c = vctx;                                                                                      \
        size_t digits = ((size_t)1 << c->w) - 1;                                                                   \
        blst_##P *tmp = c->tmp + (size_t)tid * c->chunk;                                                           \
        for (size_t s = b; s < e; s += c->chunk) {                                                                 \
            size_t m = e - s < c->chunk ? e - s : c->chunk;                                                        \
            for (size_t k = 0; k < m; k++) {                                                                       \
                blst_scalar sc;                                                                                    \
                blst_scalar_from_fr(&sc, &c->scalars[s + k]);                                                      \
                blst_##P acc;                                                                                      \
                memset(&acc, 0, sizeof acc);                                                                       \
                for (unsigned i = 0; i < c->windows; i++) {                                                        \
                    unsigned bit = i * c->w, d = 0;                                                                \
                    for (unsigned t = 0; t < c->w && bit + t < 256; t++)                                           \
                        d |= (unsigned)((sc.b[(bit + t) / 8] >> ((bit + t) % 8)) & 1) << t;                        \
                    if (d) blst_##P##_add_or_double_affine(&acc, &acc, &c->table[i * digits + d - 1]);             \
                }                                                                                                  \
                tmp[k] = acc;                                                                                      \
            }                                                                                                      \
            cuzk_##G##_to_affine_n(c->out + s, tmp, m);                                                            \
            cuzk_progress_add(c->progress, m);                                                                     \
        }                                                                                                          \
    }                                                                                                              \
                                                                                                                   \
    /* The rows of the table: row i holds d * wins[i] for d in [1, 2^w). */                                        \
    typedef struct {                                                                                               \
        blst_##P *proj;                                                                                            \
        const blst_##P *wins;                                                                                      \
        size_t digits;                                                                                             \
    } G##_tb_ctx;                                                                                                  \
                                                                                                                   \
    static void G##_tb_range(void *vctx, size_t b, size_t e, unsigned tid)                                         \
    {                                                                                                              \
        G##_tb_ctx *c = vctx;                                                                                      \
        for (size_t i = b; i < e; i++) {                                                                           \
            blst_##P *row = c->proj + i * c->digits;                                                               \
            row[0] = c->wins[i];                                                                                   \
            for (size_t d = 1; d < c->digits; d++) blst_##P##_add_or_double(&row[d], &row[d - 1], &c->wins[i]);    \
        }                                                                                                          \
    }                                                                                                              \
                                                                                                                   \
    cuzk_status cuzk_##G##_fixed_base_mul(A *out, const blst_##P *base, const cuzk_fr *scalars, size_t n)          \
    {                                                                                                              \
        return cuzk_##G##_fixed_base_mul_progress(out, base, scalars, n, NULL);                                    \
    }                                                                                                              \
                                                                                                                   \
    cuzk_status cuzk_##G##_fixed_base_mul_progress(A *out, const blst_##P *base, const cuzk_fr *scalars, size_t n, \
                                                   cuzk_progress *progress)                                        \
    {                                                                                                              \
        unsigned w = window_bits(n);                                                                               \
        unsigned windows = (SCALAR_BITS + w - 1) / w;                                                              \
        size_t digits = ((size_t)1 << w) - 1, entries = windows * digits;                                          \
        blst_##P *proj = cuzk_big_alloc(entries * sizeof(blst_##P));                                               \
        A *table = cuzk_big_alloc(entries * sizeof(A));                                                            \
        unsigned threads = cuzk_threads();                                                                         \
        size_t chunk = 256;                                                                                        \
        blst_##P *tmp = cuzk_big_alloc((size_t)threads * chunk * sizeof(blst_##P));                                \
        if (!proj || !table || !tmp) {                                                                             \
            cuzk_big_free(proj, entries * sizeof(blst_##P));                                                       \
            cuzk_big_free(table, entries * sizeof(A));                                                             \
            cuzk_big_free(tmp, (size_t)threads *chunk * sizeof(blst_##P));                                         \
            return CUZK_ENOMEM;                                                                                    \
        }                                                                                                          \
        /* 2^(w*i) * base for every window, then the windows' rows in parallel */                                  \
        blst_##P wins[(SCALAR_BITS + 5) / 6];                                                                      \
        wins[0] = *base;                                                                                           \
        for (unsigned i = 1; i < windows; i++) {                                                                   \
            wins[i] = wins[i - 1];                                                                                 \
            for (unsigned k = 0; k < w; k++) blst_##P##_double(&wins[i], &wins[i]);                                \
        }                                                                                                          \
        G##_tb_ctx tb = {proj, wins, digits};                                                                      \
        cuzk_parallel_for(windows, 1, G##_tb_range, &tb);                                                          \
        cuzk_##G##_batch_to_affine(table, proj, entries);                                                          \
        G##_fb_ctx c = {out, table, scalars, w, windows, tmp, chunk, progress};                                    \
        cuzk_parallel_for(n, chunk, G##_fb_range, &c);                                                             \
        cuzk_big_free(proj, entries * sizeof(blst_##P));                                                           \
        cuzk_big_free(table, entries * sizeof(A));                                                                 \
        cuzk_big_free(tmp, (size_t)threads *chunk * sizeof(blst_##P));                                             \
        return CUZK_OK;                                                                                            \
    }

DEFINE_FIXED_BASE(g1, p1, blst_p1_affine)
DEFINE_FIXED_BASE(g2, p2, blst_p2_affine)
