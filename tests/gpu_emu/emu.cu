/* Host emulation entry points (gpu_emu_checks.h): the device code paths of src/gpu run on the
 * CPU and are compared with blst and the CPU layer by tests/unit/test_gpu_emu.c. */
#include "gpu/internal.cuh"
#include "gpu_emu_checks.h"

extern "C" {
#include "cuzk/ff.h"
}

/* ---------------------------------------------------------------- field */
static void rand_fp(blst_fp *out, cuzk_rng *rng)
{
    uint8_t b[48];
    cuzk_rng_bytes(rng, b, 48);
    b[0] &= 0x1f;
    if (b[0] >= 0x1a) b[0] -= 0x1a; /* below p */
    blst_fp_from_bendian(out, b);
}

#define FAIL_IF(cond, ...)                                       \
    do {                                                         \
        if (cond) return cuzk_fail(CUZK_EINTERNAL, __VA_ARGS__); \
    } while (0)

static bool below_2r(const fr_t &a)
{
    for (int k = 7; k >= 0; k--)
        if (a.v[k] != fr_params::p2(k)) return a.v[k] < fr_params::p2(k);
    return false;
}

extern "C" cuzk_status cuzk_gpu_emu_field_check(uint64_t seed, int iters)
{
    cuzk_rng rng;
    cuzk_rng_seed(&rng, seed);
    { /* Shoup pairs, known answers: floor(2^256 / r) = 2, floor((r - 1) 2^256 / r) = 2^256 - 3 */
        fr_t one, m1;
        fr_shoup_t sp;
        set_one(one);
        fr_from_mont(m1, one);
        FAIL_IF(!(m1.v[0] == 1 && mp_is_zero<7>(m1.v + 1)), "Fr one's canonical form is not 1");
        fr_shoup_from_mont(sp, one);
        FAIL_IF(!(sp.wq.v[0] == 2 && mp_is_zero<7>(sp.wq.v + 1)), "Shoup quotient of 1 is not 2");
        neg(m1, one);
        fr_shoup_from_mont(sp, m1);
        bool ok = sp.wq.v[0] == 0xfffffffdu;
        for (int k = 1; k < 8; k++) ok = ok && sp.wq.v[k] == 0xffffffffu;
        FAIL_IF(!ok, "Shoup quotient of r - 1 is not 2^256 - 3");
    }
    for (int it = 0; it < iters; it++) {
        blst_fp a, b, r;
        rand_fp(&a, &rng);
        rand_fp(&b, &rng);
        /* edge values: 0, 1, p - 1 */
        if (it == 0) memset(&a, 0, sizeof a);
        if (it == 1) set_one(*(fp_t *)&a);
        if (it == 2 || it == 4) { /* it 4: (p-1)^2, the largest products */
            blst_fp one;
            set_one(*(fp_t *)&one);
            blst_fp_cneg(&a, &one, 1);
        }
        if (it == 3 || it == 4) b = a;
        fp_t x = *(fp_t *)&a, y = *(fp_t *)&b, z;
        mul(z, x, y);
        blst_fp_mul(&r, &a, &b);
        FAIL_IF(memcmp(&z, &r, 48), "Fp mul differs from blst (iteration %d)", it);
        /* every multiplication form, whichever one mul() uses */
        mp_mul_eo<fp_params>(z.v, x.v, y.v);
        FAIL_IF(memcmp(&z, &r, 48), "Fp even/odd mul differs from blst (iteration %d)", it);
        sqr(z, x);
        blst_fp_sqr(&r, &a);
        FAIL_IF(memcmp(&z, &r, 48), "Fp sqr differs (iteration %d)", it);
        mp_sqr_eo<fp_params>(z.v, x.v);
        FAIL_IF(memcmp(&z, &r, 48), "Fp even/odd sqr differs (iteration %d)", it);
        mp_sqr_rows<fp_params>(z.v, x.v);
        FAIL_IF(memcmp(&z, &r, 48), "Fp row squaring differs (iteration %d)", it);
        {
            /* the same for x + p (below 2p, as Fp2 squaring's sums are; 2p - 1 at it 2) */
            fp_t xp;
            uint64_t c = 0;
            for (int k = 0; k < 12; k++) {
                c += (uint64_t)x.v[k] + fp_params::p(k);
                xp.v[k] = (uint32_t)c;
                c >>= 32;
            }
            mp_sqr_rows<fp_params>(z.v, xp.v);
            FAIL_IF(memcmp(&z, &r, 48), "Fp row squaring of x + p differs (iteration %d)", it);
        }
        add(z, x, y);
        blst_fp_add(&r, &a, &b);
        FAIL_IF(memcmp(&z, &r, 48), "Fp add differs (iteration %d)", it);
        sub(z, x, y);
        blst_fp_sub(&r, &a, &b);
        FAIL_IF(memcmp(&z, &r, 48), "Fp sub differs (iteration %d)", it);
        neg(z, x);
        blst_fp_cneg(&r, &a, 1);
        FAIL_IF(memcmp(&z, &r, 48), "Fp neg differs (iteration %d)", it);
        if (it < 8) {
            inv(z, x);
            blst_fp_inverse(&r, &a);
            FAIL_IF(memcmp(&z, &r, 48), "Fp inverse differs (iteration %d)", it);
        }
        /* Fp2 */
        blst_fp2 a2, b2, r2;
        a2.fp[0] = a;
        a2.fp[1] = b;
        rand_fp(&b2.fp[0], &rng);
        rand_fp(&b2.fp[1], &rng);
        fp2_t x2 = *(fp2_t *)&a2, y2 = *(fp2_t *)&b2, z2;
        mul(z2, x2, y2);
        blst_fp2_mul(&r2, &a2, &b2);
        FAIL_IF(memcmp(&z2, &r2, 96), "Fp2 mul differs (iteration %d)", it);
        mul_sop(z2, x2, y2);
        FAIL_IF(memcmp(&z2, &r2, 96), "Fp2 sum-of-products mul differs (iteration %d)", it);
        if (it < 8) { /* (p-1)(1 + u) squared: the largest sums of products */
            blst_fp2 e2, f2;
            blst_fp one;
            set_one(*(fp_t *)&one);
            blst_fp_cneg(&e2.fp[0], &one, 1);
            e2.fp[1] = it & 1 ? e2.fp[0] : b2.fp[0];
            f2 = it & 2 ? e2 : b2;
            fp2_t u2 = *(fp2_t *)&e2, w2 = *(fp2_t *)&f2;
            mul_sop(z2, u2, w2);
            blst_fp2_mul(&r2, &e2, &f2);
            FAIL_IF(memcmp(&z2, &r2, 96), "Fp2 sum-of-products mul differs at p-1 (iteration %d)", it);
            mul(z2, u2, w2);
            FAIL_IF(memcmp(&z2, &r2, 96), "Fp2 mul differs at p-1 (iteration %d)", it);
            memset(&e2.fp[1], 0, sizeof e2.fp[1]); /* a1 = 0: p - a1 = p */
            u2 = *(fp2_t *)&e2;
            mul_sop(z2, u2, w2);
            blst_fp2_mul(&r2, &e2, &f2);
            FAIL_IF(memcmp(&z2, &r2, 96), "Fp2 sum-of-products mul differs with a1 = 0 (iteration %d)", it);
        }
        {
            /* a b - c d (Fp: a sum of two products with one reduction), with c = 0
             * (p - c = p) and (p-1) operands among the first iterations */
            blst_fp c1, d1, t1;
            rand_fp(&c1, &rng);
            rand_fp(&d1, &rng);
            if (it == 5) memset(&c1, 0, sizeof c1);
            if (it == 4 || it == 6) c1 = d1 = a; /* p - 1 at it 4 */
            fp_t c = *(fp_t *)&c1, d = *(fp_t *)&d1;
            mul_sub_mul(z, x, y, c, d);
            blst_fp_mul(&r, &a, &b);
            blst_fp_mul(&t1, &c1, &d1);
            blst_fp_sub(&r, &r, &t1);
            FAIL_IF(memcmp(&z, &r, 48), "Fp a b - c d differs from blst (iteration %d)", it);
            mul_sub_mul(c, x, y, c, d); /* in place of c, as the G1 additions call it */
            FAIL_IF(memcmp(&c, &r, 48), "Fp a b - c d in place differs (iteration %d)", it);
            blst_fp2 c2, d2, t2;
            c2.fp[0] = it == 7 ? a : c1;
            c2.fp[1] = it == 5 ? c1 : b;
            d2.fp[0] = d1;
            d2.fp[1] = it & 1 ? a : b2.fp[0];
            fp2_t u2 = *(fp2_t *)&c2, w2 = *(fp2_t *)&d2;
            mul_sub_mul(z2, x2, y2, u2, w2);
            blst_fp2_mul(&r2, &a2, &b2);
            blst_fp2_mul(&t2, &c2, &d2);
            blst_fp2_sub(&r2, &r2, &t2);
            FAIL_IF(memcmp(&z2, &r2, 96), "Fp2 a b - c d differs from blst (iteration %d)", it);
            mul_sub_mul(u2, x2, y2, u2, w2); /* the result in place of c, as the additions use it */
            FAIL_IF(memcmp(&u2, &r2, 96), "Fp2 a b - c d in place differs (iteration %d)", it);
        }
        sqr(z2, x2);
        blst_fp2_sqr(&r2, &a2);
        FAIL_IF(memcmp(&z2, &r2, 96), "Fp2 sqr differs (iteration %d)", it);
        if (it < 4 && !is_zero(x2)) {
            inv(z2, x2);
            blst_fp2_inverse(&r2, &a2);
            FAIL_IF(memcmp(&z2, &r2, 96), "Fp2 inverse differs (iteration %d)", it);
        }
        /* Fr */
        cuzk_fr fa, fb, fr_;
        cuzk_fr_random(&fa, &rng);
        cuzk_fr_random(&fb, &rng);
        if (it == 0) fa = CUZK_FR_ZERO;
        if (it == 1) fa = CUZK_FR_ONE;
        if (it == 2) cuzk_fr_neg(&fa, &CUZK_FR_ONE);
        if (it == 3) cuzk_fr_neg(&fa, &CUZK_FR_ONE), fb = fa; /* (r-1)^2: the largest products */
        fr_t u = *(fr_t *)&fa, v = *(fr_t *)&fb, w;
        mul(w, u, v);
        cuzk_fr_mul(&fr_, &fa, &fb);
        FAIL_IF(memcmp(&w, &fr_, 32), "Fr mul differs (iteration %d)", it);
        mp_mul_eo<fr_params>(w.v, u.v, v.v);
        FAIL_IF(memcmp(&w, &fr_, 32), "Fr even/odd mul differs (iteration %d)", it);
        cuzk_fr_sqr(&fr_, &fa);
        sqr(w, u);
        FAIL_IF(memcmp(&w, &fr_, 32), "Fr sqr differs (iteration %d)", it);
        mp_sqr_eo<fr_params>(w.v, u.v);
        FAIL_IF(memcmp(&w, &fr_, 32), "Fr even/odd sqr differs (iteration %d)", it);
        /* the NTT's lazy forms on values below 2r: u + r and v + r (the largest sums carry out
         * of 256 bits when u = v = r - 1) */
        {
            fr_t lu, lv, z2;
            uint64_t c1 = 0, c2 = 0;
            for (int k = 0; k < 8; k++) {
                c1 += (uint64_t)u.v[k] + fr_params::p(k);
                c2 += (uint64_t)v.v[k] + fr_params::p(k);
                lu.v[k] = (uint32_t)c1;
                lv.v[k] = (uint32_t)c2;
                c1 >>= 32;
                c2 >>= 32;
            }
            cuzk_fr want;
            cuzk_status st;
            /* a lazy result: below 2r, and the expected 32 bytes once reduced */
            auto lazy_ok = [&](const fr_t &z, const void *expect, const char *what) {
                if (!below_2r(z)) return cuzk_fail(CUZK_EINTERNAL, "Fr %s not below 2r (iteration %d)", what, it);
                fr_t red;
                reduce_lazy(red, z);
                if (memcmp(&red, expect, 32))
                    return cuzk_fail(CUZK_EINTERNAL, "Fr %s differs (iteration %d)", what, it);
                return CUZK_OK;
            };
            mul_lazy(z2, u, lv);
            cuzk_fr_mul(&want, &fa, &fb);
            if ((st = lazy_ok(z2, &want, "lazy mul"))) return st;
            add_lazy(z2, lu, lv);
            cuzk_fr_add(&want, &fa, &fb);
            if ((st = lazy_ok(z2, &want, "lazy add"))) return st;
            sub_lazy(z2, u, lv);
            cuzk_fr_sub(&want, &fa, &fb);
            if ((st = lazy_ok(z2, &want, "lazy sub"))) return st;
            /* Shoup's product by a constant: the pair from u's Montgomery form, times the
             * lazy lv and times 2r - 1 (the largest lazy value, -1 mod r) */
            fr_shoup_t sp;
            fr_shoup_from_mont(sp, u);
            fr_from_mont(w, u);
            FAIL_IF(memcmp(&w, &sp.w, 32), "Shoup pair's w is not u's canonical form (iteration %d)", it);
            mul_shoup_lazy(z2, lv, sp);
            cuzk_fr_mul(&want, &fa, &fb);
            if ((st = lazy_ok(z2, &want, "Shoup mul"))) return st;
            fr_t top, negw;
            for (int k = 0; k < 8; k++) top.v[k] = fr_params::p2(k) - (k == 0);
            mul_shoup_lazy(z2, top, sp);
            cuzk_fr_neg(&want, &fa); /* raw 2r - 1 times w: the raw number -w mod r */
            fr_from_mont(negw, *(const fr_t *)&want);
            if ((st = lazy_ok(z2, &negw, "Shoup mul of 2r - 1"))) return st;
        }
        add(w, u, v);
        cuzk_fr_add(&fr_, &fa, &fb);
        FAIL_IF(memcmp(&w, &fr_, 32), "Fr add differs (iteration %d)", it);
        sub(w, u, v);
        cuzk_fr_sub(&fr_, &fa, &fb);
        FAIL_IF(memcmp(&w, &fr_, 32), "Fr sub differs (iteration %d)", it);
        fr_from_mont(w, u);
        blst_scalar sc;
        cuzk_fr_to_scalar(&sc, &fa);
        FAIL_IF(memcmp(&w, sc.b, 32), "Fr from Montgomery differs (iteration %d)", it);
        FAIL_IF(fr_is_one(u) != cuzk_fr_is_one(&fa), "Fr is_one differs (iteration %d)", it);
        FAIL_IF(is_zero(u) != cuzk_fr_is_zero(&fa), "Fr is_zero differs (iteration %d)", it);
    }
    return CUZK_OK;
}

/* ---------------------------------------------------------------- curve */
template <class F, class P, class A> struct curve_ops;
template <> struct curve_ops<fp_t, blst_p1, blst_p1_affine> {
    static void rand(blst_p1 *p, cuzk_rng *rng)
    {
        cuzk_fr k;
        cuzk_fr_random(&k, rng);
        blst_scalar s;
        cuzk_fr_to_scalar(&s, &k);
        blst_p1_mult(p, blst_p1_generator(), s.b, 255);
    }
    static void to_aff(blst_p1_affine *a, const blst_p1 *p) { blst_p1_to_affine(a, p); }
    static void add(blst_p1 *r, const blst_p1 *a, const blst_p1 *b) { blst_p1_add_or_double(r, a, b); }
    static void dbl(blst_p1 *r, const blst_p1 *a) { blst_p1_double(r, a); }
    static void cneg(blst_p1 *r) { blst_p1_cneg(r, 1); }
    static bool eq(const blst_p1 *a, const blst_p1 *b) { return blst_p1_is_equal(a, b); }
    static void conv(blst_p1 *o, const g1_xyzz &x) { xyzz_to_p1(o, x); }
    static void mulk(blst_p1 *r, const blst_p1 *p, uint32_t k)
    {
        uint8_t b[4] = {(uint8_t)k, (uint8_t)(k >> 8), (uint8_t)(k >> 16), (uint8_t)(k >> 24)};
        blst_p1_mult(r, p, b, 32);
    }
};
template <> struct curve_ops<fp2_t, blst_p2, blst_p2_affine> {
    static void rand(blst_p2 *p, cuzk_rng *rng)
    {
        cuzk_fr k;
        cuzk_fr_random(&k, rng);
        blst_scalar s;
        cuzk_fr_to_scalar(&s, &k);
        blst_p2_mult(p, blst_p2_generator(), s.b, 255);
    }
    static void to_aff(blst_p2_affine *a, const blst_p2 *p) { blst_p2_to_affine(a, p); }
    static void add(blst_p2 *r, const blst_p2 *a, const blst_p2 *b) { blst_p2_add_or_double(r, a, b); }
    static void dbl(blst_p2 *r, const blst_p2 *a) { blst_p2_double(r, a); }
    static void cneg(blst_p2 *r) { blst_p2_cneg(r, 1); }
    static bool eq(const blst_p2 *a, const blst_p2 *b) { return blst_p2_is_equal(a, b); }
    static void conv(blst_p2 *o, const g2_xyzz &x) { xyzz_to_p2(o, x); }
    static void mulk(blst_p2 *r, const blst_p2 *p, uint32_t k)
    {
        uint8_t b[4] = {(uint8_t)k, (uint8_t)(k >> 8), (uint8_t)(k >> 16), (uint8_t)(k >> 24)};
        blst_p2_mult(r, p, b, 32);
    }
};

template <class F, class P, class A> static cuzk_status curve_check(cuzk_rng *rng, int iters, const char *g)
{
    typedef curve_ops<F, P, A> O;
    for (int it = 0; it < iters; it++) {
        P p, q, want, got;
        A pa, qa;
        O::rand(&p, rng);
        O::rand(&q, rng);
        O::to_aff(&pa, &p);
        O::to_aff(&qa, &q);
        const affine_t<F> &PA = *(const affine_t<F> *)&pa, &QA = *(const affine_t<F> *)&qa;
        xyzz_t<F> acc;
        /* inf + P, P + Q (mixed) */
        set_inf(acc);
        xyzz_madd(acc, PA);
        O::conv(&got, acc);
        FAIL_IF(!O::eq(&got, &p), "%s madd to infinity (iteration %d)", g, it);
        xyzz_madd(acc, QA);
        O::add(&want, &p, &q);
        O::conv(&got, acc);
        FAIL_IF(!O::eq(&got, &want), "%s madd (iteration %d)", g, it);
        /* (P + Q) + Q, then + P + P (doubling inside madd when acc = P) */
        xyzz_madd(acc, QA);
        O::add(&want, &want, &q);
        O::conv(&got, acc);
        FAIL_IF(!O::eq(&got, &want), "%s madd chain (iteration %d)", g, it);
        xyzz_t<F> d;
        set_inf(d);
        xyzz_madd(d, PA);
        xyzz_madd(d, PA);
        O::dbl(&want, &p);
        O::conv(&got, d);
        FAIL_IF(!O::eq(&got, &want), "%s madd doubling (iteration %d)", g, it);
        /* P + (-P) = inf */
        set_inf(d);
        xyzz_madd(d, PA);
        affine_t<F> NP = PA;
        neg(NP);
        xyzz_madd(d, NP);
        FAIL_IF(!is_inf(d), "%s P + -P is not infinity (iteration %d)", g, it);
        /* full add of two non-trivial XYZZ points, doubling, and P + P via add */
        xyzz_t<F> e, f;
        set_inf(e);
        xyzz_madd(e, QA);
        xyzz_madd(e, PA); /* P + Q */
        f = acc;          /* P + 2Q */
        xyzz_add(f, e);   /* 2P + 3Q */
        P pq;
        O::add(&pq, &p, &q);
        P w2;
        O::dbl(&w2, &p);
        P q3;
        O::dbl(&q3, &q);
        O::add(&q3, &q3, &q);
        O::add(&w2, &w2, &q3);
        O::conv(&got, f);
        FAIL_IF(!O::eq(&got, &w2), "%s add (iteration %d)", g, it);
        xyzz_t<F> h = e;
        xyzz_add(h, e); /* 2(P + Q) through the P == Q branch */
        O::dbl(&want, &pq);
        O::conv(&got, h);
        FAIL_IF(!O::eq(&got, &want), "%s add doubling branch (iteration %d)", g, it);
        h = e;
        xyzz_dbl(h);
        O::conv(&got, h);
        FAIL_IF(!O::eq(&got, &want), "%s dbl (iteration %d)", g, it);
        /* add inverse -> infinity, add infinity */
        xyzz_t<F> ne;
        set_inf(ne);
        affine_t<F> NQ = QA;
        neg(NQ);
        xyzz_madd(ne, NP);
        xyzz_madd(ne, NQ); /* -(P + Q) */
        h = e;
        xyzz_add(h, ne);
        FAIL_IF(!is_inf(h), "%s add of the negation (iteration %d)", g, it);
        xyzz_t<F> z;
        set_inf(z);
        h = e;
        xyzz_add(h, z);
        O::conv(&got, h);
        FAIL_IF(!O::eq(&got, &pq), "%s add infinity (iteration %d)", g, it);
        /* small multiples */
        uint32_t k = (uint32_t)cuzk_rng_next(rng);
        if (it == 0) k = 0;
        if (it == 1) k = 1;
        xyzz_mul_u32(h, e, k);
        O::mulk(&want, &pq, k);
        O::conv(&got, h);
        FAIL_IF(!O::eq(&got, &want), "%s small multiple %u (iteration %d)", g, k, it);
    }
    return CUZK_OK;
}

extern "C" cuzk_status cuzk_gpu_emu_twiddle_check(uint64_t seed, int iters)
{
    const ntt_tables tb = ntt_host_tables_get().view(*gpu_config_defaults());
    cuzk_fr w, g;
    cuzk_fr_root_of_unity(&w, NTT_LOG_MAX);
    cuzk_fr_from_u64(&g, CUZK_FR_GENERATOR);
    cuzk_rng rng;
    cuzk_rng_seed(&rng, seed);
    const uint32_t emask = (1u << NTT_LOG_MAX) - 1;
    for (int it = 0; it < iters; it++) {
        uint32_t e = (uint32_t)cuzk_rng_next(&rng) & emask;
        if (it == 0) e = 0;
        if (it == 1) e = NTT_TW_N - 1;     /* low table only */
        if (it == 2) e = NTT_TW_N * 12345; /* high table only */
        if (it == 3) e = emask;
        for (int inv = 0; inv < 2; inv++) {
            cuzk_fr want;
            cuzk_fr_pow_u64(&want, &w, inv ? ((uint64_t)1 << NTT_LOG_MAX) - e : e);
            fr_t got = ntt_tw(tb, e, inv != 0);
            FAIL_IF(memcmp(&got, &want, 32), "twiddle w^%s%u differs", inv ? "-" : "", e);
        }
        uint32_t j = e >> 1; /* coset positions below 2^27 */
        cuzk_fr want;
        cuzk_fr_pow_u64(&want, &g, j);
        fr_t got;
        mul(got, tb.gl[j & (NTT_TAB_N - 1)], tb.gh[j >> NTT_TAB_BITS]);
        FAIL_IF(memcmp(&got, &want, 32), "coset factor g^%u differs", j);
        /* the Shoup table of w^(i 2^10): 1 (Montgomery) times the pair is the table entry */
        const uint32_t ih = e >> NTT_TW_BITS;
        set_one(got);
        mul_shoup_lazy(got, got, tb.tms[ih]);
        reduce_lazy(got, got);
        FAIL_IF(memcmp(&got, &tb.tm[ih], 32), "Shoup twiddle pair %u differs", ih);
    }
    return CUZK_OK;
}

extern "C" cuzk_status cuzk_gpu_emu_curve_check(uint64_t seed, int iters)
{
    cuzk_rng rng;
    cuzk_rng_seed(&rng, seed);
    cuzk_status st = curve_check<fp_t, blst_p1, blst_p1_affine>(&rng, iters, "G1");
    if (st) return st;
    return curve_check<fp2_t, blst_p2, blst_p2_affine>(&rng, iters, "G2");
}

/* ---------------------------------------------------------------- scalar split (glv.cuh) */
/* lambda as an Fr value, from its 64-bit halves */
static cuzk_fr glv_lambda_fr(void)
{
    uint8_t b[32] = {0};
    for (int i = 0; i < 8; i++) {
        b[i] = (uint8_t)(GLV_LAMBDA_LO >> (8 * i));
        b[8 + i] = (uint8_t)(GLV_LAMBDA_HI >> (8 * i));
    }
    cuzk_fr l;
    if (cuzk_fr_from_bytes_le(&l, b)) memset(&l, 0, sizeof l);
    return l;
}

extern "C" cuzk_status cuzk_gpu_emu_glv_check(uint64_t seed, int iters)
{
    cuzk_rng rng;
    cuzk_rng_seed(&rng, seed);
    const cuzk_fr lam = glv_lambda_fr();
    FAIL_IF(cuzk_fr_is_zero(&lam), "lambda is not below r");
    {
        /* lambda^2 + lambda + 1 = 0 in Fr */
        cuzk_fr t;
        cuzk_fr_sqr(&t, &lam);
        cuzk_fr_add(&t, &t, &lam);
        cuzk_fr_add(&t, &t, &CUZK_FR_ONE);
        FAIL_IF(!cuzk_fr_is_zero(&t), "lambda is not a cube root of unity in Fr");
    }
    blst_scalar ls;
    cuzk_fr_to_scalar(&ls, &lam);
    for (int it = 0; it < iters; it++) {
        /* phi(P) = [lambda] P */
        blst_p1 p, want;
        curve_ops<fp_t, blst_p1, blst_p1_affine>::rand(&p, &rng);
        blst_p1_affine pa, got, wa;
        blst_p1_to_affine(&pa, &p);
        k_phi_g1 k = {(const g1_affine *)&pa, (g1_affine *)&got};
        k(0);
        blst_p1_mult(&want, &p, ls.b, 128);
        blst_p1_to_affine(&wa, &want);
        FAIL_IF(memcmp(&got, &wa, sizeof got), "phi(P) differs from [lambda] P (iteration %d)", it);
        /* k = k1 + k2 lambda with k1 < lambda and k2 < 2^128, for random and edge scalars */
        cuzk_fr s;
        cuzk_fr_random(&s, &rng);
        if (it == 0) s = CUZK_FR_ZERO;
        if (it == 1) s = CUZK_FR_ONE;
        if (it == 2) cuzk_fr_neg(&s, &CUZK_FR_ONE);
        if (it == 3) s = lam;
        if (it == 4) cuzk_fr_sub(&s, &lam, &CUZK_FR_ONE);
        if (it == 5) cuzk_fr_add(&s, &lam, &CUZK_FR_ONE);
        if (it == 6) cuzk_fr_sqr(&s, &lam);                            /* r - lambda - 1 */
        if (it == 7) cuzk_fr_sqr(&s, &lam), cuzk_fr_add(&s, &s, &lam); /* r - 1 = lambda (lambda + 1) */
        if (it == 8) cuzk_fr_sqr(&s, &lam), cuzk_fr_sub(&s, &s, &CUZK_FR_ONE);
        uint8_t cb[32];
        cuzk_fr_to_bytes_le(cb, &s);
        fr_t kc;
        memcpy(&kc, cb, 32);
        uint32_t k1[8], k2[8];
        glv_split(kc, k1, k2);
        for (int i = 4; i < 8; i++) FAIL_IF(k1[i] || k2[i], "split halves above 2^128 (iteration %d)", it);
        const uint64_t a0 = k1[0] | (uint64_t)k1[1] << 32, a1 = k1[2] | (uint64_t)k1[3] << 32;
        FAIL_IF(a1 > GLV_LAMBDA_HI || (a1 == GLV_LAMBDA_HI && a0 >= GLV_LAMBDA_LO),
                "k1 not below lambda (iteration %d)", it);
        cuzk_fr f1, f2, sum;
        FAIL_IF(cuzk_fr_from_bytes_le(&f1, (const uint8_t *)k1) || cuzk_fr_from_bytes_le(&f2, (const uint8_t *)k2),
                "split halves not below r (iteration %d)", it);
        cuzk_fr_mul(&sum, &f2, &lam);
        cuzk_fr_add(&sum, &sum, &f1);
        FAIL_IF(!cuzk_fr_eq(&sum, &s), "k1 + k2 lambda differs from k (iteration %d)", it);
    }
    return CUZK_OK;
}

/* ---------------------------------------------------------------- NTT, MSM, H */
extern "C" cuzk_status cuzk_gpu_emu_ntt(cuzk_fr *data, unsigned log_n, cuzk_gpu_ntt_kind kind,
                                        const cuzk_gpu_config *cfg)
{
    exec_host x;
    if (cfg) x.cfg = cfg;
    std::vector<fr_t> scratch;
    if (x.cfg->ntt_natural_out) scratch.resize((size_t)1 << log_n);
    ntt_natural(x, ntt_host_tables_get().view(*x.cfg), (fr_t *)data, log_n, kind,
                scratch.empty() ? NULL : scratch.data());
    return x.err;
}

static msm_config cfg_of(const cuzk_gpu_emu_msm_cfg *c)
{
    msm_config m;
    memset(&m, 0, sizeof m);
    if (c) {
        m.c = c->c;
        m.chunk = c->chunk;
        m.S1 = c->s1;
    }
    return m;
}

extern "C" cuzk_status cuzk_gpu_emu_msm_g1(blst_p1 *out, const blst_p1_affine *bases, const cuzk_fr *scalars, size_t n,
                                           bool split, const cuzk_gpu_emu_msm_cfg *c)
{
    exec_host x;
    msm_config m = cfg_of(c);
    const g1_affine *b = (const g1_affine *)bases;
    std::vector<g1_affine> ext; /* bases, then their phi images */
    if (c && c->glv && n) {
        ext.resize(2 * n);
        memcpy(ext.data(), bases, n * sizeof(g1_affine));
        k_phi_g1 k = {ext.data(), ext.data() + n};
        x.parallel(n, k);
        m.phi_off = (uint32_t)n;
        b = ext.data();
    }
    return msm_run_g1(x, b, (const fr_t *)scalars, n, split, c && c->host_pieces, &m, out, NULL);
}

extern "C" cuzk_status cuzk_gpu_emu_msm_g2(blst_p2 *out, const blst_p2_affine *bases, const cuzk_fr *scalars, size_t n,
                                           bool split, const cuzk_gpu_emu_msm_cfg *c)
{
    exec_host x;
    msm_config m = cfg_of(c);
    return msm_run_g2(x, (const g2_affine *)bases, (const fr_t *)scalars, n, split, c && c->host_pieces, &m, out, NULL);
}

extern "C" cuzk_status cuzk_gpu_emu_synthetic_points(void *out, size_t n, bool g2, uint64_t seed)
{
    exec_host x;
    if (g2) {
        g2_affine A, Q;
        synthetic_ab_g2(&A, &Q, seed);
        gen_points_g2(x, (g2_affine *)out, n, A, Q);
    } else {
        g1_affine A, Q;
        synthetic_ab_g1(&A, &Q, seed);
        gen_points_g1(x, (g1_affine *)out, n, A, Q);
    }
    return x.err;
}

extern "C" cuzk_status cuzk_gpu_emu_fixed_base_g1(blst_p1_affine *out, const blst_p1 *base, const cuzk_fr *scalars,
                                                  size_t n)
{
    exec_host x;
    return fixed_base_g1(x, out, base, scalars, n);
}

extern "C" cuzk_status cuzk_gpu_emu_fixed_base_g2(blst_p2_affine *out, const blst_p2 *base, const cuzk_fr *scalars,
                                                  size_t n)
{
    exec_host x;
    return fixed_base_g2(x, out, base, scalars, n);
}

extern "C" cuzk_status cuzk_gpu_emu_compute_h(cuzk_fr *h_out, const cuzk_groth16_witness *w)
{
    unsigned lg = 0;
    while (((size_t)1 << lg) < w->n) lg++;
    size_t N = (size_t)1 << lg;
    std::vector<fr_t> a(N), b(N), c(N);
    memset(a.data(), 0, N * 32);
    memset(b.data(), 0, N * 32);
    memset(c.data(), 0, N * 32);
    memcpy(a.data(), w->a, w->n * 32);
    memcpy(b.data(), w->b, w->n * 32);
    memcpy(c.data(), w->c, w->n * 32);
    exec_host x;
    ntt_h_pipeline(x, ntt_host_tables_get().view(*x.cfg), a.data(), b.data(), c.data(), lg, 0, 0, 0);
    /* the pipeline leaves canonical coefficients (the MSM's form): back to Montgomery */
    for (size_t j = 0; j + 1 < N && !x.err; j++)
        x.err = cuzk_fr_from_bytes_le(&h_out[j], (const uint8_t *)&a[bitrev((uint32_t)j, lg)]);
    return x.err;
}
