/* G1/G2: ZCash encodings with explicit checks, batch conversion to affine. */
#include <string.h>

#include "cuzk/ff.h"

static cuzk_status point_error(BLST_ERROR e, const char *group)
{
    switch (e) {
    case BLST_BAD_ENCODING:
        return cuzk_fail(CUZK_EFORMAT, "bad %s point encoding (flag bits or coordinate not below p)", group);
    case BLST_POINT_NOT_ON_CURVE: return cuzk_fail(CUZK_EFORMAT, "%s point is not on the curve", group);
    case BLST_POINT_NOT_IN_GROUP: return cuzk_fail(CUZK_EFORMAT, "%s point is not in the prime-order subgroup", group);
    default: return cuzk_fail(CUZK_EFORMAT, "bad %s point (blst error %d)", group, (int)e);
    }
}

/* Checks the ZCash flag bits against the expected form before blst parses the rest. */
static cuzk_status check_flags(const uint8_t *in, size_t len, size_t compressed_len, const char *group)
{
    if (len != compressed_len && len != 2 * compressed_len)
        return cuzk_fail(CUZK_EFORMAT, "%s point encoding must be %zu or %zu bytes, got %zu", group, compressed_len,
                         2 * compressed_len, len);
    int compressed = (in[0] & 0x80) != 0;
    if (compressed != (len == compressed_len))
        return cuzk_fail(CUZK_EFORMAT, "%s point: compression flag does not match the %zu-byte %s form", group, len,
                         len == compressed_len ? "compressed" : "uncompressed");
    if (!compressed && (in[0] & 0x20))
        return cuzk_fail(CUZK_EFORMAT, "%s point: sign flag set in an uncompressed encoding", group);
    if (in[0] & 0x40) { /* infinity: every other bit must be zero */
        if ((in[0] & 0x3f) != 0) return cuzk_fail(CUZK_EFORMAT, "%s point: infinity flag with nonzero bits", group);
        for (size_t i = 1; i < len; i++)
            if (in[i]) return cuzk_fail(CUZK_EFORMAT, "%s point: infinity flag with nonzero bits", group);
    }
    return CUZK_OK;
}

cuzk_status cuzk_g1_decode(blst_p1_affine *out, const uint8_t *in, size_t len, int flags)
{
    cuzk_status st = check_flags(in, len, 48, "G1");
    if (st) return st;
    BLST_ERROR e = len == 48 ? blst_p1_uncompress(out, in) : blst_p1_deserialize(out, in);
    /* blst reports the on-curve points (0, +-2) as outside the group while decoding */
    if (e == BLST_POINT_NOT_IN_GROUP && (flags & CUZK_POINT_UNCHECKED)) e = BLST_SUCCESS;
    if (e != BLST_SUCCESS) return point_error(e, "G1");
    if (blst_p1_affine_is_inf(out)) {
        if (flags & CUZK_POINT_NO_INFINITY) return cuzk_fail(CUZK_EFORMAT, "G1 point is the point at infinity");
        return CUZK_OK;
    }
    if (!(flags & CUZK_POINT_UNCHECKED) && !blst_p1_affine_in_g1(out))
        return point_error(BLST_POINT_NOT_IN_GROUP, "G1");
    return CUZK_OK;
}

cuzk_status cuzk_g2_decode(blst_p2_affine *out, const uint8_t *in, size_t len, int flags)
{
    cuzk_status st = check_flags(in, len, 96, "G2");
    if (st) return st;
    BLST_ERROR e = len == 96 ? blst_p2_uncompress(out, in) : blst_p2_deserialize(out, in);
    if (e == BLST_POINT_NOT_IN_GROUP && (flags & CUZK_POINT_UNCHECKED)) e = BLST_SUCCESS;
    if (e != BLST_SUCCESS) return point_error(e, "G2");
    if (blst_p2_affine_is_inf(out)) {
        if (flags & CUZK_POINT_NO_INFINITY) return cuzk_fail(CUZK_EFORMAT, "G2 point is the point at infinity");
        return CUZK_OK;
    }
    if (!(flags & CUZK_POINT_UNCHECKED) && !blst_p2_affine_in_g2(out))
        return point_error(BLST_POINT_NOT_IN_GROUP, "G2");
    return CUZK_OK;
}

void cuzk_g1_encode(uint8_t *out, const blst_p1_affine *p, bool compressed)
{
    if (compressed) blst_p1_affine_compress(out, p);
    else blst_p1_affine_serialize(out, p);
}

void cuzk_g2_encode(uint8_t *out, const blst_p2_affine *p, bool compressed)
{
    if (compressed) blst_p2_affine_compress(out, p);
    else blst_p2_affine_serialize(out, p);
}

/* blst's batch conversion shares one inversion across the batch, which an infinity point
 * (Z = 0) would poison; batches holding one are converted point by point instead. */
void cuzk_g1_to_affine_n(blst_p1_affine *out, const blst_p1 *in, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (blst_p1_is_inf(&in[i])) {
            for (size_t k = 0; k < n; k++) blst_p1_to_affine(&out[k], &in[k]);
            return;
        }
    const blst_p1 *pts[2] = {in, NULL};
    blst_p1s_to_affine(out, pts, n);
}

void cuzk_g2_to_affine_n(blst_p2_affine *out, const blst_p2 *in, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (blst_p2_is_inf(&in[i])) {
            for (size_t k = 0; k < n; k++) blst_p2_to_affine(&out[k], &in[k]);
            return;
        }
    const blst_p2 *pts[2] = {in, NULL};
    blst_p2s_to_affine(out, pts, n);
}

typedef struct {
    void *out;
    const void *in;
} to_affine_ctx;

static void g1_to_affine_range(void *vctx, size_t b, size_t e, unsigned tid)
{
    to_affine_ctx *c = vctx;
    cuzk_g1_to_affine_n((blst_p1_affine *)c->out + b, (const blst_p1 *)c->in + b, e - b);
}

static void g2_to_affine_range(void *vctx, size_t b, size_t e, unsigned tid)
{
    to_affine_ctx *c = vctx;
    cuzk_g2_to_affine_n((blst_p2_affine *)c->out + b, (const blst_p2 *)c->in + b, e - b);
}

void cuzk_g1_batch_to_affine(blst_p1_affine *out, const blst_p1 *in, size_t n)
{
    to_affine_ctx c = {out, in};
    cuzk_parallel_for(n, 1024, g1_to_affine_range, &c);
}

void cuzk_g2_batch_to_affine(blst_p2_affine *out, const blst_p2 *in, size_t n)
{
    to_affine_ctx c = {out, in};
    cuzk_parallel_for(n, 512, g2_to_affine_range, &c);
}
