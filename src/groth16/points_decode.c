/* Parallel decoding of uncompressed points with the first bad one found (see points_decode.h). */
#include <stdatomic.h>

#include "points_decode.h"

typedef struct {
    const uint8_t *src;
    void *dst;
    int g2, flags;
    atomic_size_t first_bad;
} decode_ctx;

static void decode_range(void *vctx, size_t b, size_t e, unsigned tid)
{
    (void)tid;
    decode_ctx *c = vctx;
    for (size_t i = b; i < e; i++) {
        cuzk_status st = c->g2
            ? cuzk_g2_decode((blst_p2_affine *)c->dst + i, c->src + i * G2_BYTES, G2_BYTES, c->flags)
            : cuzk_g1_decode((blst_p1_affine *)c->dst + i, c->src + i * G1_BYTES, G1_BYTES, c->flags);
        if (st) {
            size_t cur = atomic_load(&c->first_bad);
            while (i < cur && !atomic_compare_exchange_weak(&c->first_bad, &cur, i)) {}
            return;
        }
    }
}

cuzk_status groth16_decode_points(const uint8_t *src, void *dst, size_t n, int g2, int flags, size_t *bad)
{
    decode_ctx c = {src, dst, g2, flags, SIZE_MAX};
    cuzk_parallel_for(n, 256, decode_range, &c);
    *bad = atomic_load(&c.first_bad);
    if (*bad == SIZE_MAX) return CUZK_OK;
    size_t psize = g2 ? G2_BYTES : G1_BYTES;
    uint8_t tmp[sizeof(blst_p2_affine)];
    return g2 ? cuzk_g2_decode((blst_p2_affine *)tmp, src + *bad * psize, psize, flags)
              : cuzk_g1_decode((blst_p1_affine *)tmp, src + *bad * psize, psize, flags);
}
