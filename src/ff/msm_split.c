/* MSM with the Groth16 0/1 split (include/cuzk/ff.h): zero scalars are skipped, the points
 * of one-scalars are summed with one mixed addition each, and only the other terms go
 * through Pippenger. A PoRep witness is mostly bits, so the L, A and B MSMs cost a fraction
 * of full ones (on 2^21 terms with 5 % uniform scalars: about half the time on 1 and 2
 * threads). */
#include <stdlib.h>
#include <string.h>

#include "cuzk/base.h"
#include "cuzk/ff.h"

/* scalars per classification chunk (one partial sum of ones each) */
#define SPLIT_CHUNK ((size_t)1 << 14)

typedef struct {
    size_t point_size, affine_size;
    void (*add_affine)(void *acc, const void *p); /* acc += p, p affine */
    void (*add)(void *acc, const void *p);        /* acc += p */
    cuzk_status (*msm)(void *out, const void *points, const cuzk_fr *scalars, size_t n, const cuzk_cancel *cancel);
} split_ops;

static void g1_add_affine(void *acc, const void *p) { blst_p1_add_or_double_affine(acc, acc, p); }
static void g2_add_affine(void *acc, const void *p) { blst_p2_add_or_double_affine(acc, acc, p); }
static void g1_add(void *acc, const void *p) { blst_p1_add_or_double(acc, acc, p); }
static void g2_add(void *acc, const void *p) { blst_p2_add_or_double(acc, acc, p); }
static cuzk_status g1_msm(void *out, const void *points, const cuzk_fr *scalars, size_t n, const cuzk_cancel *cancel)
{
    return cuzk_g1_msm_cancellable(out, points, scalars, n, cancel);
}
static cuzk_status g2_msm(void *out, const void *points, const cuzk_fr *scalars, size_t n, const cuzk_cancel *cancel)
{
    return cuzk_g2_msm_cancellable(out, points, scalars, n, cancel);
}
static const split_ops G1_SPLIT = {sizeof(blst_p1), sizeof(blst_p1_affine), g1_add_affine, g1_add, g1_msm};
static const split_ops G2_SPLIT = {sizeof(blst_p2), sizeof(blst_p2_affine), g2_add_affine, g2_add, g2_msm};

typedef struct {
    const split_ops *ops;
    const uint8_t *points;
    const cuzk_fr *scalars;
    size_t n;
    uint8_t *ones; /* per chunk: the sum of its one-scalar points */
    size_t *tails; /* per chunk: its count of other terms, then its offset */
    uint8_t *tail_points;
    cuzk_fr *tail_scalars;
    const cuzk_cancel *cancel; /* polled per chunk of the classification (NULL: never) */
} split_ctx;

static int is_zero(const cuzk_fr *s) { return !memcmp(s, &CUZK_FR_ZERO, sizeof *s); }
static int is_one(const cuzk_fr *s) { return !memcmp(s, &CUZK_FR_ONE, sizeof *s); }

/* pass 1: per chunk, sum the ones and count the rest */
static void classify_range(void *vctx, size_t cb, size_t ce, unsigned tid)
{
    split_ctx *c = vctx;
    const size_t as = c->ops->affine_size, ps = c->ops->point_size;
    for (size_t ch = cb; ch < ce; ch++) {
        size_t b = ch * SPLIT_CHUNK, e = b + SPLIT_CHUNK < c->n ? b + SPLIT_CHUNK : c->n, tail = 0;
        uint8_t *sum = c->ones + ch * ps;
        memset(sum, 0, ps);
        if (cuzk_cancel_requested(c->cancel)) e = b; /* the sum is thrown away */
        for (size_t i = b; i < e; i++) {
            if (is_one(&c->scalars[i])) c->ops->add_affine(sum, c->points + i * as);
            else if (!is_zero(&c->scalars[i])) tail++;
        }
        c->tails[ch] = tail;
    }
}

/* pass 2: copy the other terms to their chunk's offset */
static void gather_range(void *vctx, size_t cb, size_t ce, unsigned tid)
{
    split_ctx *c = vctx;
    const size_t as = c->ops->affine_size;
    for (size_t ch = cb; ch < ce; ch++) {
        size_t b = ch * SPLIT_CHUNK, e = b + SPLIT_CHUNK < c->n ? b + SPLIT_CHUNK : c->n, k = c->tails[ch];
        for (size_t i = b; i < e; i++)
            if (!is_one(&c->scalars[i]) && !is_zero(&c->scalars[i])) {
                memcpy(c->tail_points + k * as, c->points + i * as, as);
                c->tail_scalars[k++] = c->scalars[i];
            }
    }
}

static cuzk_status msm_split(const split_ops *ops, void *out, const void *points, const cuzk_fr *scalars, size_t n,
                             const cuzk_cancel *cancel)
{
    memset(out, 0, ops->point_size);
    if (n == 0) return CUZK_OK;
    size_t total = 0, nchunks = (n + SPLIT_CHUNK - 1) / SPLIT_CHUNK;
    split_ctx c = {
        ops,  points, scalars, n, cuzk_calloc(nchunks, ops->point_size), cuzk_calloc(nchunks, sizeof(size_t)),
        NULL, NULL,   cancel};
    cuzk_status st = CUZK_OK;
    if (!c.ones || !c.tails) {
        st = CUZK_ENOMEM;
        goto done;
    }
    cuzk_parallel_for(nchunks, 1, classify_range, &c);
    if ((st = cuzk_cancel_check(cancel, "an MSM"))) goto done;
    for (size_t ch = 0; ch < nchunks; ch++) {
        size_t t = c.tails[ch];
        c.tails[ch] = total;
        total += t;
    }
    if (total > n / 2) {
        /* mostly other terms: Pippenger over everything (its 0/1 terms are cheap there too)
         * costs about as much and needs no copy */
        st = ops->msm(out, points, scalars, n, cancel);
        goto done;
    }
    if (total) {
        c.tail_points = cuzk_big_alloc(total * ops->affine_size);
        c.tail_scalars = cuzk_big_alloc(total * sizeof(cuzk_fr));
        if (!c.tail_points || !c.tail_scalars) {
            st = CUZK_ENOMEM;
            goto done;
        }
        cuzk_parallel_for(nchunks, 1, gather_range, &c);
        st = ops->msm(out, c.tail_points, c.tail_scalars, total, cancel);
    }
    for (size_t ch = 0; ch < nchunks && !st; ch++) ops->add(out, c.ones + ch * ops->point_size);
done:
    cuzk_big_free(c.tail_points, total * ops->affine_size);
    cuzk_big_free(c.tail_scalars, total * sizeof(cuzk_fr));
    free(c.ones);
    free(c.tails);
    return st;
}

cuzk_status cuzk_g1_msm_split(blst_p1 *out, const blst_p1_affine *points, const cuzk_fr *scalars, size_t n)
{
    return msm_split(&G1_SPLIT, out, points, scalars, n, NULL);
}

cuzk_status cuzk_g2_msm_split(blst_p2 *out, const blst_p2_affine *points, const cuzk_fr *scalars, size_t n)
{
    return msm_split(&G2_SPLIT, out, points, scalars, n, NULL);
}

cuzk_status cuzk_g1_msm_split_cancellable(blst_p1 *out, const blst_p1_affine *points, const cuzk_fr *scalars, size_t n,
                                          const cuzk_cancel *cancel)
{
    return msm_split(&G1_SPLIT, out, points, scalars, n, cancel);
}

cuzk_status cuzk_g2_msm_split_cancellable(blst_p2 *out, const blst_p2_affine *points, const cuzk_fr *scalars, size_t n,
                                          const cuzk_cancel *cancel)
{
    return msm_split(&G2_SPLIT, out, points, scalars, n, cancel);
}
