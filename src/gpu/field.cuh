/* Montgomery arithmetic for BLS12-381 Fp (381 bits, 12 x 32-bit limbs, R = 2^384) and
 * Fr (255 bits, 8 x 32-bit limbs, R = 2^256), and Fp2 = Fp[u]/(u^2 + 1).
 *
 * The limbs are little-endian 32-bit words: the same bytes as blst's 64-bit limbs on a
 * little-endian machine, so blst_fp / blst_fr / blst_fp2 values are used as they are.
 * Every function but the lazy forms (named so) keeps its results fully reduced (in [0, p)),
 * so equality and zero tests compare limbs.
 *
 * Why 32-bit limbs: the GPU's integer multiplier is 32x32 bits (IMAD, with .hi and carry
 * variants); a 64-bit multiplication is four of them plus glue. Multiplication is the
 * even/odd schedule (mp_mul_eo, below): two independent carry chains per row. It replaced
 * CIOS (one carry chain per row), the same CIOS in plain C on 64-bit products, and 64-bit limbs
 * with 128-bit products, which were measured against it with `cuzk bench gpu-field` and removed
 * (docs/BENCHMARKS.md, "Even/odd multiplication, NTT tables, witness prefetch"). With p < 2^381
 * (and r < 2^255) the running sum never needs an extra word. Fp2 products are two sums of
 * products (mp_mul2_eo); the NTT's lazy forms keep values below 2r. */
#ifndef CUZK_GPU_FIELD_CUH
#define CUZK_GPU_FIELD_CUH

#include "gpu/cc.cuh"

struct __align__(16) fp_t { uint32_t v[12]; };
struct __align__(16) fr_t { uint32_t v[8]; };
struct fp2_t {
    fp_t c0, c1;
};

#define K12(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11) \
    (i == 0        ? a0                                       \
         : i == 1  ? a1                                       \
         : i == 2  ? a2                                       \
         : i == 3  ? a3                                       \
         : i == 4  ? a4                                       \
         : i == 5  ? a5                                       \
         : i == 6  ? a6                                       \
         : i == 7  ? a7                                       \
         : i == 8  ? a8                                       \
         : i == 9  ? a9                                       \
         : i == 10 ? a10                                      \
                   : a11)
#define K8(a0, a1, a2, a3, a4, a5, a6, a7) \
    (i == 0 ? a0 : i == 1 ? a1 : i == 2 ? a2 : i == 3 ? a3 : i == 4 ? a4 : i == 5 ? a5 : i == 6 ? a6 : a7)

struct fp_params {
    static constexpr int N = 12;
    static constexpr uint32_t INV = 0xfffcfffdu; /* -p^-1 mod 2^32 */
    HD static constexpr uint32_t p(int i)
    {
        return K12(0xffffaaabu, 0xb9feffffu, 0xb153ffffu, 0x1eabfffeu, 0xf6b0f624u, 0x6730d2a0u, 0xf38512bfu,
                   0x64774b84u, 0x434bacd7u, 0x4b1ba7b6u, 0x397fe69au, 0x1a0111eau);
    }
    HD static constexpr uint32_t one(int i) /* R mod p */
    {
        return K12(0x0002fffdu, 0x76090000u, 0xc40c0002u, 0xebf4000bu, 0x53c758bau, 0x5f489857u, 0x70525745u,
                   0x77ce5853u, 0xa256ec6du, 0x5c071a97u, 0xfa80e493u, 0x15f65ec3u);
    }
};

struct fr_params {
    static constexpr int N = 8;
    static constexpr uint32_t INV = 0xffffffffu; /* -r^-1 mod 2^32 */
    HD static constexpr uint32_t p(int i)
    {
        return K8(0x00000001u, 0xffffffffu, 0xfffe5bfeu, 0x53bda402u, 0x09a1d805u, 0x3339d808u, 0x299d7d48u,
                  0x73eda753u);
    }
    HD static constexpr uint32_t p2(int i) { return (p(i) << 1) | (i ? p(i - 1) >> 31 : 0); } /* 2r < 2^256 */
    HD static constexpr uint32_t one(int i)                                                   /* R mod r */
    {
        return K8(0xfffffffeu, 0x00000001u, 0x00034802u, 0x5884b7fau, 0xecbc4ff5u, 0x998c4fefu, 0xacc5056fu,
                  0x1824b159u);
    }
};

/* ---------------------------------------------------------------- limb-array kernels */

/* r = t mod p for t < 2p: subtract p unless that borrows */
template <class P> HDM void mp_reduce_once(uint32_t *r, const uint32_t *t)
{
    constexpr int N = P::N;
    uint32_t s[N];
    s[0] = sub_cc(t[0], P::p(0));
#pragma unroll
    for (int j = 1; j < N; j++) s[j] = subc_cc(t[j], P::p(j));
    const uint32_t borrow = subc(0, 0);
#pragma unroll
    for (int j = 0; j < N; j++) r[j] = borrow ? t[j] : s[j];
}

/* Even/odd Montgomery multiplication: the same products and reduction as CIOS, kept in two
 * arrays so that every row is two carry chains with no data between them, which the
 * scheduler can interleave (CIOS is one chain per row: each instruction waits for the
 * previous one's carry). The products a_2k * b_i (words 2k, 2k+1) go to one array, the
 * products a_(2k+1) * b_i to the other, which counts one word higher; the same split for
 * m * p. After a row the first array's low word is zero, and dividing by 2^32 swaps the
 * arrays' parts: the second becomes the one of weight 1 (its low word absorbs the first
 * one's word 1), the first, shifted down two words as the next row's odd products are
 * added, the one of weight 2^32. Needs N even and a top limb of p below 2^31 (true for Fp
 * and Fr): the array of weight 2^32 then never carries out of its top word. */
/* e += the even limbs of a times bi; the carry out lands in o's top word */
template <class P> HDM void mp_eo_even_add(uint32_t *e, uint32_t *o, const uint32_t *a, const uint32_t bi)
{
    constexpr int N = P::N;
    e[0] = mad_lo_cc(a[0], bi, e[0]);
    e[1] = madc_hi_cc(a[0], bi, e[1]);
#pragma unroll
    for (int k = 2; k < N; k += 2) {
        e[k] = madc_lo_cc(a[k], bi, e[k]);
        e[k + 1] = madc_hi_cc(a[k], bi, e[k + 1]);
    }
    o[N - 1] = addc(o[N - 1], 0);
}

/* the row's product part: e, o (+)= a * b_i, shifting o first unless FIRST */
template <class P, bool FIRST> HDM void mp_eo_prod(uint32_t *e, uint32_t *o, const uint32_t *a, const uint32_t bi)
{
    constexpr int N = P::N;
    if (FIRST) {
#pragma unroll
        for (int k = 0; k < N; k += 2) {
            e[k] = a[k] * bi;
            e[k + 1] = mul_hi(a[k], bi);
            o[k] = a[k + 1] * bi;
            o[k + 1] = mul_hi(a[k + 1], bi);
        }
    } else {
        /* o (weight 2^32 now) = o >> 64 + odd products; its word 1 first moves into e[0] */
        e[0] = add_cc(e[0], o[1]);
#pragma unroll
        for (int k = 0; k < N - 2; k += 2) {
            o[k] = madc_lo_cc(a[k + 1], bi, o[k + 2]);
            o[k + 1] = madc_hi_cc(a[k + 1], bi, o[k + 3]);
        }
        o[N - 2] = madc_lo_cc(a[N - 1], bi, 0);
        o[N - 1] = madc_hi(a[N - 1], bi, 0);
        mp_eo_even_add<P>(e, o, a, bi);
    }
}

/* e += m * (the even limbs of p): e's low word becomes zero, the carry out lands in o's top
 * word (the second half of every reduction row) */
template <class P> HDM void mp_eo_even_mp(uint32_t *e, uint32_t *o, const uint32_t m)
{
    constexpr int N = P::N;
    if (P::p(0) == 1) {         /* Fr: m * 1 needs no multiplier */
        e[0] = add_cc(e[0], m); /* becomes zero */
        e[1] = addc_cc(e[1], 0);
    } else {
        e[0] = mad_lo_cc(m, P::p(0), e[0]); /* becomes zero */
        e[1] = madc_hi_cc(m, P::p(0), e[1]);
    }
#pragma unroll
    for (int k = 2; k < N; k += 2) {
        e[k] = madc_lo_cc(m, P::p(k), e[k]);
        e[k + 1] = madc_hi_cc(m, P::p(k), e[k + 1]);
    }
    o[N - 1] = addc(o[N - 1], 0);
}

/* the row's reduction: + m p with m making e's low word zero */
template <class P> HDM void mp_eo_redc(uint32_t *e, uint32_t *o)
{
    constexpr int N = P::N;
    const uint32_t m = e[0] * P::INV;
    if (P::p(1) == 0xffffffffu) { /* Fr: m (2^32 - 1) = (m - [m != 0]) 2^32 + (-m mod 2^32) */
        const uint32_t lo = 0u - m, hi = m - (m != 0);
        o[0] = add_cc(o[0], lo);
        o[1] = addc_cc(o[1], hi);
    } else {
        o[0] = mad_lo_cc(m, P::p(1), o[0]);
        o[1] = madc_hi_cc(m, P::p(1), o[1]);
    }
#pragma unroll
    for (int k = 2; k < N - 2; k += 2) {
        o[k] = madc_lo_cc(m, P::p(k + 1), o[k]);
        o[k + 1] = madc_hi_cc(m, P::p(k + 1), o[k + 1]);
    }
    o[N - 2] = madc_lo_cc(m, P::p(N - 1), o[N - 2]);
    o[N - 1] = madc_hi(m, P::p(N - 1), o[N - 1]);
    mp_eo_even_mp<P>(e, o, m);
}

/* a second product in the same row, e, o += c * d_i (no shift): for sums of two products */
template <class P> HDM void mp_eo_addprod(uint32_t *e, uint32_t *o, const uint32_t *c, const uint32_t di)
{
    constexpr int N = P::N;
    o[0] = mad_lo_cc(c[1], di, o[0]);
    o[1] = madc_hi_cc(c[1], di, o[1]);
#pragma unroll
    for (int k = 2; k < N; k += 2) {
        o[k] = madc_lo_cc(c[k + 1], di, o[k]);
        o[k + 1] = madc_hi_cc(c[k + 1], di, o[k + 1]);
    }
    mp_eo_even_add<P>(e, o, c, di);
}

template <class P, bool FIRST> HDM void mp_eo_row(uint32_t *e, uint32_t *o, const uint32_t *a, const uint32_t bi)
{
    mp_eo_prod<P, FIRST>(e, o, a, bi);
    mp_eo_redc<P>(e, o);
}

/* r = (x >> 32) + y, not reduced: the value after the last row, whose array of weight 1 is
 * x (low word zero) */
template <class P> HDM void mp_eo_final(uint32_t *r, const uint32_t *x, const uint32_t *y)
{
    constexpr int N = P::N;
    r[0] = add_cc(y[0], x[1]);
#pragma unroll
    for (int j = 1; j < N - 1; j++) r[j] = addc_cc(y[j], x[j + 1]);
    r[N - 1] = addc(y[N - 1], 0);
}

/* a b R^-1 without the last subtraction: below 2p for a < p and any N-word b (the NTT's lazy
 * form, below) */
template <class P> HDM void mp_mul_eo_lazy(uint32_t *r, const uint32_t *a, const uint32_t *b)
{
    constexpr int N = P::N;
    static_assert(N % 2 == 0, "even/odd multiplication needs an even limb count");
    uint32_t x[N], y[N];
    mp_eo_row<P, true>(x, y, a, b[0]);
    mp_eo_row<P, false>(y, x, a, b[1]);
#pragma unroll
    for (int i = 2; i < N; i += 2) {
        mp_eo_row<P, false>(x, y, a, b[i]);
        mp_eo_row<P, false>(y, x, a, b[i + 1]);
    }
    mp_eo_final<P>(r, y, x);
}

template <class P> HDM void mp_mul_eo(uint32_t *r, const uint32_t *a, const uint32_t *b)
{
    uint32_t t[P::N];
    mp_mul_eo_lazy<P>(t, a, b);
    mp_reduce_once<P>(r, t);
}

/* Squaring: the full product first, then the reduction (separated operand scanning), which
 * lets the product skip the repeated terms: a^2 = 2 sum_{i<j} a_i a_j + sum_i a_i^2 takes
 * N(N-1)/2 + N products against N^2 (for Fp 78 instead of 144 of the 288 products a
 * multiplication makes). The cross products go to two arrays (rows of even i, rows of odd i),
 * two chains with no data between them; each row's carries end in words no earlier row of
 * its array has reached. */
template <class P> HDM void mp_sqr_wide(uint32_t *S, const uint32_t *a)
{
    constexpr int N = P::N;
    uint32_t A[2 * N], B[2 * N];
#pragma unroll
    for (int k = 0; k < 2 * N; k++) A[k] = B[k] = 0;
#pragma unroll
    for (int i = 0; i < N - 1; i++) {
        uint32_t *T = (i & 1) ? B : A;
        T[2 * i + 1] = mad_lo_cc(a[i], a[i + 1], T[2 * i + 1]);
#pragma unroll
        for (int j = i + 2; j < N; j++) T[i + j] = madc_lo_cc(a[i], a[j], T[i + j]);
        T[i + N] = addc(0, 0);
        T[2 * i + 2] = mad_hi_cc(a[i], a[i + 1], T[2 * i + 2]);
#pragma unroll
        for (int j = i + 2; j < N; j++) T[i + j + 1] = madc_hi_cc(a[i], a[j], T[i + j + 1]);
        T[i + N + 1] = addc(0, 0);
    }
    /* S = 2 (A + B) + the squares (a^2 < 2^(64N - 2): nothing carries out) */
    S[0] = add_cc(A[0], B[0]);
#pragma unroll
    for (int k = 1; k < 2 * N; k++) S[k] = addc_cc(A[k], B[k]);
#pragma unroll
    for (int k = 2 * N - 1; k > 0; k--) S[k] = (S[k] << 1) | (S[k - 1] >> 31);
    S[0] <<= 1;
    S[0] = mad_lo_cc(a[0], a[0], S[0]);
    S[1] = madc_hi_cc(a[0], a[0], S[1]);
#pragma unroll
    for (int i = 1; i < N; i++) {
        S[2 * i] = madc_lo_cc(a[i], a[i], S[2 * i]);
        S[2 * i + 1] = madc_hi_cc(a[i], a[i], S[2 * i + 1]);
    }
}

/* One row of the even/odd reduction of a 2N-word S (see mp_mul_eo for the two arrays; here
 * the odd multiples of p also do the shift, and the high half of S enters word by word at the
 * top of the array of weight 2^32, where row k's new word N-2 is word N+k-1 of S). */
template <class P, bool FIRST> HDM void mp_redc_row(uint32_t *e, uint32_t *o, uint32_t s_in)
{
    constexpr int N = P::N;
    uint32_t m;
    if (FIRST) {
        m = e[0] * P::INV;
#pragma unroll
        for (int k = 0; k < N; k += 2) {
            o[k] = m * P::p(k + 1);
            o[k + 1] = mul_hi(m, P::p(k + 1));
        }
    } else {
        e[0] = add_cc(e[0], o[1]); /* its carry enters the shifted array's word 0 */
        m = e[0] * P::INV;
#pragma unroll
        for (int k = 0; k < N - 2; k += 2) {
            o[k] = madc_lo_cc(m, P::p(k + 1), o[k + 2]);
            o[k + 1] = madc_hi_cc(m, P::p(k + 1), o[k + 3]);
        }
        o[N - 2] = madc_lo_cc(m, P::p(N - 1), s_in);
        o[N - 1] = madc_hi(m, P::p(N - 1), 0);
    }
    mp_eo_even_mp<P>(e, o, m);
}

/* r = a^2 * R^-1 mod p */
template <class P> HDM void mp_sqr_eo(uint32_t *r, const uint32_t *a)
{
    constexpr int N = P::N;
    static_assert(N % 2 == 0, "even/odd squaring needs an even limb count");
    uint32_t S[2 * N], x[N], y[N];
    mp_sqr_wide<P>(S, a);
#pragma unroll
    for (int k = 0; k < N; k++) x[k] = S[k];
    mp_redc_row<P, true>(x, y, 0);
    mp_redc_row<P, false>(y, x, S[N]);
#pragma unroll
    for (int i = 2; i < N; i += 2) {
        mp_redc_row<P, false>(x, y, S[N + i - 1]);
        mp_redc_row<P, false>(y, x, S[N + i]);
    }
    /* the last row left y (low word zero) + x 2^32: (y >> 32) + x + S's top word, < 2p */
    uint32_t t[N];
    t[0] = add_cc(x[0], y[1]);
#pragma unroll
    for (int j = 1; j < N - 1; j++) t[j] = addc_cc(x[j], y[j + 1]);
    t[N - 1] = addc(x[N - 1], S[2 * N - 1]);
    mp_reduce_once<P>(r, t);
}

/* Squaring in the even/odd rows of the multiplication, with the repeated products left out:
 * a^2 = sum_i a_i v_i B^(2i), where v_i = a_i + 2 (a >> 32(i+1)) B (B = 2^32) has i fewer
 * limbs than a: a_i, then a_(i+1) << 1 (without the bit from a_i, whose square term is a_i
 * itself), then the limbs of 2a. Row i multiplies v_i by a_i at the row's word i, where the
 * multiplication's row i puts a b_i at word 0: 78 instead of 144 limb products for Fp, the
 * reduction unchanged. Unlike the separate-product squaring above, it needs no more registers
 * than the multiplication (the limbs of 2a are one funnel shift each, made where used).
 * Fp only: see the bound on mp_sqr_rows. */
template <class P> HD uint32_t sqr_row_limb(const uint32_t *a, int i, int j)
{
    if (j == i) return a[i];
    if (j == i + 1) return a[j] << 1;
    return (a[j] << 1) | (a[j - 1] >> 31);
}

/* the product part of squaring row i (i > 0): as mp_eo_prod<P, false> with the limbs of
 * v_i below i zero (their products skipped; the shift of o still carries through them) */
template <class P> HDM void mp_sqr_prod(uint32_t *e, uint32_t *o, const uint32_t *a, int i)
{
    constexpr int N = P::N;
    const uint32_t bi = a[i];
    e[0] = add_cc(e[0], o[1]);
#pragma unroll
    for (int k = 0; k < N - 2; k += 2) {
        if (k + 1 >= i) {
            const uint32_t v = sqr_row_limb<P>(a, i, k + 1);
            o[k] = madc_lo_cc(v, bi, o[k + 2]);
            o[k + 1] = madc_hi_cc(v, bi, o[k + 3]);
        } else {
            o[k] = addc_cc(o[k + 2], 0);
            o[k + 1] = addc_cc(o[k + 3], 0);
        }
    }
    const uint32_t vt = sqr_row_limb<P>(a, i, N - 1);
    o[N - 2] = madc_lo_cc(vt, bi, 0);
    o[N - 1] = madc_hi(vt, bi, 0);
    const int k0 = (i + 1) & ~1; /* the first even limb at or above i */
    if (k0 < N) {
        uint32_t v = sqr_row_limb<P>(a, i, k0);
        e[k0] = mad_lo_cc(v, bi, e[k0]);
        e[k0 + 1] = madc_hi_cc(v, bi, e[k0 + 1]);
#pragma unroll
        for (int k = k0 + 2; k < N; k += 2) {
            v = sqr_row_limb<P>(a, i, k);
            e[k] = madc_lo_cc(v, bi, e[k]);
            e[k + 1] = madc_hi_cc(v, bi, e[k + 1]);
        }
        o[N - 1] = addc(o[N - 1], 0);
    }
}

/* r = a^2 R^-1 mod p for a < 2p (row squaring). The top word of the array of weight 2^32
 * takes the high half of v's top limb times a limb (below 2 a's top limb) and of m p's:
 * below 2^32 only while 5 times p's top limb is (Fp, not Fr, whose squaring multiplies). */
template <class P> HDM void mp_sqr_rows(uint32_t *r, const uint32_t *a)
{
    constexpr int N = P::N;
    static_assert(N % 2 == 0, "even/odd squaring needs an even limb count");
    static_assert((uint64_t)P::p(N - 1) * 5 + 8 < (1ull << 32), "row squaring needs a smaller top limb");
    uint32_t x[N], y[N];
    const uint32_t b0 = a[0];
#pragma unroll
    for (int k = 0; k < N; k += 2) { /* row 0: v_0 = a_0, a_1 << 1, then 2a */
        const uint32_t ve = sqr_row_limb<P>(a, 0, k), vo = sqr_row_limb<P>(a, 0, k + 1);
        x[k] = ve * b0;
        x[k + 1] = mul_hi(ve, b0);
        y[k] = vo * b0;
        y[k + 1] = mul_hi(vo, b0);
    }
    mp_eo_redc<P>(x, y);
    mp_sqr_prod<P>(y, x, a, 1);
    mp_eo_redc<P>(y, x);
#pragma unroll
    for (int i = 2; i < N; i += 2) {
        mp_sqr_prod<P>(x, y, a, i);
        mp_eo_redc<P>(x, y);
        mp_sqr_prod<P>(y, x, a, i + 1);
        mp_eo_redc<P>(y, x);
    }
    uint32_t t[N];
    mp_eo_final<P>(t, y, x);
    mp_reduce_once<P>(r, t);
}

/* r = (a b + c d) R^-1 mod p for a, c <= p (b, d < p): one reduction for two products, as
 * Fp2 multiplication needs (below (2p^2 + R p) / R < 2p before the last subtraction) */
template <class P>
HDM void mp_mul2_eo(uint32_t *r, const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d)
{
    constexpr int N = P::N;
    uint32_t x[N], y[N];
    mp_eo_prod<P, true>(x, y, a, b[0]);
    mp_eo_addprod<P>(x, y, c, d[0]);
    mp_eo_redc<P>(x, y);
#pragma unroll
    for (int i = 1; i < N; i += 2) {
        mp_eo_prod<P, false>(y, x, a, b[i]);
        mp_eo_addprod<P>(y, x, c, d[i]);
        mp_eo_redc<P>(y, x);
        if (i + 1 < N) {
            mp_eo_prod<P, false>(x, y, a, b[i + 1]);
            mp_eo_addprod<P>(x, y, c, d[i + 1]);
            mp_eo_redc<P>(x, y);
        }
    }
    uint32_t t[N];
    mp_eo_final<P>(t, y, x);
    mp_reduce_once<P>(r, t);
}

/* ---------------------------------------------------------------- lazy Fr (NTT butterflies) */
/* Values in [0, 2r) (2r < 2^256) between butterflies save the multiplication's final
 * subtraction: a Montgomery product a b R^-1 with a < r and any 256-bit b is below
 * (r 2^256 + R r) / R = 2r. Sums of two such values are brought back below 2r with one
 * conditional subtraction of 2r (the sum may carry out of 256 bits), differences with one
 * conditional addition of 2r. The last pass of a transform makes its outputs canonical. */
/* r = a + b, below 2p, for a, b < 2p */
template <class P> HDM void mp_add_lazy(uint32_t *r, const uint32_t *a, const uint32_t *b)
{
    constexpr int N = P::N;
    uint32_t t[N], u[N];
    t[0] = add_cc(a[0], b[0]);
#pragma unroll
    for (int j = 1; j < N; j++) t[j] = addc_cc(a[j], b[j]);
    const uint32_t carry = addc(0, 0);
    u[0] = sub_cc(t[0], P::p2(0));
#pragma unroll
    for (int j = 1; j < N; j++) u[j] = subc_cc(t[j], P::p2(j));
    const uint32_t borrow = subc(0, 0); /* all ones when t < 2p */
    const bool keep = borrow && !carry;
#pragma unroll
    for (int j = 0; j < N; j++) r[j] = keep ? t[j] : u[j];
}

/* r = a + b mod p */
template <class P> HDM void mp_add(uint32_t *r, const uint32_t *a, const uint32_t *b)
{
    constexpr int N = P::N;
    uint32_t t[N];
    t[0] = add_cc(a[0], b[0]);
#pragma unroll
    for (int j = 1; j < N; j++) t[j] = addc_cc(a[j], b[j]);
    mp_reduce_once<P>(r, t); /* a + b < 2p fits the limbs: no carry out */
}

/* limb j of p, or of 2p (Fr only) */
template <class P, bool TWICE> HD constexpr uint32_t mod_limb(int j)
{
    if constexpr (TWICE) return P::p2(j);
    else return P::p(j);
}

/* r = a - b mod p; TWICE: a - b + 2p when negative (the lazy form: a, b and r below 2p) */
template <class P, bool TWICE = false> HDM void mp_sub(uint32_t *r, const uint32_t *a, const uint32_t *b)
{
    constexpr int N = P::N;
    uint32_t t[N];
    t[0] = sub_cc(a[0], b[0]);
#pragma unroll
    for (int j = 1; j < N; j++) t[j] = subc_cc(a[j], b[j]);
    const uint32_t mask = subc(0, 0);
    r[0] = add_cc(t[0], mod_limb<P, TWICE>(0) & mask);
#pragma unroll
    for (int j = 1; j < N - 1; j++) r[j] = addc_cc(t[j], mod_limb<P, TWICE>(j) & mask);
    r[N - 1] = addc(t[N - 1], mod_limb<P, TWICE>(N - 1) & mask);
}

template <int N> HD bool mp_is_zero(const uint32_t *a)
{
    uint32_t x = a[0];
#pragma unroll
    for (int j = 1; j < N; j++) x |= a[j];
    return x == 0;
}

template <int N> HD bool mp_eq(const uint32_t *a, const uint32_t *b)
{
    uint32_t x = a[0] ^ b[0];
#pragma unroll
    for (int j = 1; j < N; j++) x |= a[j] ^ b[j];
    return x == 0;
}

/* The multiplication every field operation uses. */
#define MP_MUL mp_mul_eo
/* Squaring: the row squaring (mp_sqr_rows), the fastest squaring `cuzk bench gpu-field` runs. The
 * separate-product form (mp_sqr_eo, kept for that benchmark and the emulation checks) is faster
 * alone than a multiplication but slower than the rows, and as the squaring it made the G1
 * accumulation kernel slower: its two product arrays cost registers the kernel, capped at 128,
 * does not have (docs/BENCHMARKS.md, "Pipelined uploads, Fp2 sums of products, lazy NTT
 * butterflies" and "Row squaring, split scalars for H"). */
#define MP_SQR mp_sqr_rows

/* ---------------------------------------------------------------- Fp */
HD void mul(fp_t &r, const fp_t &a, const fp_t &b) { MP_MUL<fp_params>(r.v, a.v, b.v); }
HD void sqr(fp_t &r, const fp_t &a) { MP_SQR<fp_params>(r.v, a.v); }
HD void add(fp_t &r, const fp_t &a, const fp_t &b) { mp_add<fp_params>(r.v, a.v, b.v); }
HD void sub(fp_t &r, const fp_t &a, const fp_t &b) { mp_sub<fp_params>(r.v, a.v, b.v); }
HD void dbl(fp_t &r, const fp_t &a) { mp_add<fp_params>(r.v, a.v, a.v); }
HD bool is_zero(const fp_t &a) { return mp_is_zero<12>(a.v); }
HD bool eq(const fp_t &a, const fp_t &b) { return mp_eq<12>(a.v, b.v); }
HD void set_zero(fp_t &r)
{
#pragma unroll
    for (int i = 0; i < 12; i++) r.v[i] = 0;
}
HD void set_one(fp_t &r)
{
#pragma unroll
    for (int i = 0; i < 12; i++) r.v[i] = fp_params::one(i);
}
HD void neg(fp_t &r, const fp_t &a)
{
    fp_t z;
    set_zero(z);
    sub(r, z, a);
}

/* a^(p-2) = a^-1 (0 for 0), square-and-multiply over the fixed exponent: used only for
 * synthetic point generation and tests, never on a hot path. */
HDM void inv(fp_t &r, const fp_t &a)
{
    fp_t acc, base = a;
    set_one(acc);
    for (int i = 0; i < 12; i++) {
        uint32_t e = fp_params::p(i) - (i == 0 ? 2u : 0u);
        for (int k = 0; k < 32; k++) {
            if (e & 1) mul(acc, acc, base);
            sqr(base, base);
            e >>= 1;
        }
    }
    r = acc;
}

/* ---------------------------------------------------------------- Fr */
HD void mul(fr_t &r, const fr_t &a, const fr_t &b) { MP_MUL<fr_params>(r.v, a.v, b.v); }
HD void sqr(fr_t &r, const fr_t &a) { MP_MUL<fr_params>(r.v, a.v, a.v); } /* off the hot paths */
HD void add(fr_t &r, const fr_t &a, const fr_t &b) { mp_add<fr_params>(r.v, a.v, b.v); }
HD void sub(fr_t &r, const fr_t &a, const fr_t &b) { mp_sub<fr_params>(r.v, a.v, b.v); }
HD bool is_zero(const fr_t &a) { return mp_is_zero<8>(a.v); }
HD bool eq(const fr_t &a, const fr_t &b) { return mp_eq<8>(a.v, b.v); }
HD void set_zero(fr_t &r)
{
#pragma unroll
    for (int i = 0; i < 8; i++) r.v[i] = 0;
}
HD void set_one(fr_t &r)
{
#pragma unroll
    for (int i = 0; i < 8; i++) r.v[i] = fr_params::one(i);
}
HD bool fr_is_one(const fr_t &a)
{
    uint32_t x = 0;
#pragma unroll
    for (int i = 0; i < 8; i++) x |= a.v[i] ^ fr_params::one(i);
    return x == 0;
}
HD void neg(fr_t &r, const fr_t &a)
{
    fr_t z;
    set_zero(z);
    sub(r, z, a);
}
/* Montgomery -> canonical: a * 1 * R^-1 */
HD void fr_from_mont(fr_t &r, const fr_t &a)
{
    fr_t one;
    set_zero(one);
    one.v[0] = 1;
    mul(r, a, one);
}

/* lazy forms (see mp_mul_eo_lazy): c canonical, v and the results below 2r */
HD void mul_lazy(fr_t &r, const fr_t &c, const fr_t &v) { mp_mul_eo_lazy<fr_params>(r.v, c.v, v.v); }
HD void add_lazy(fr_t &r, const fr_t &a, const fr_t &b) { mp_add_lazy<fr_params>(r.v, a.v, b.v); }
HD void sub_lazy(fr_t &r, const fr_t &a, const fr_t &b) { mp_sub<fr_params, true>(r.v, a.v, b.v); }
HD void reduce_lazy(fr_t &r, const fr_t &a) { mp_reduce_once<fr_params>(r.v, a.v); }

/* ---------------------------------------------------------------- Fp2 = Fp[u]/(u^2+1) */
/* Fp multiplication inside Fp2 arithmetic: the even/odd form runs unrolled, which made the G2
 * MSM faster than with its outer loop rolled (docs/BENCHMARKS.md, "Even/odd multiplication,
 * NTT tables, witness prefetch"; that section and those after it give the G2 figures). */
HD void mul_c(fp_t &r, const fp_t &a, const fp_t &b) { mp_mul_eo<fp_params>(r.v, a.v, b.v); }
/* a + b without the reduction: below 2p < 2^382, which the even/odd multiplication takes as
 * an operand (the product's reduction ends below (4p^2 + R p) / R < 2p, and the operands'
 * top limbs stay below 2^31) */
HD void add_unreduced(fp_t &r, const fp_t &a, const fp_t &b)
{
    r.v[0] = add_cc(a.v[0], b.v[0]);
#pragma unroll
    for (int j = 1; j < 11; j++) r.v[j] = addc_cc(a.v[j], b.v[j]);
    r.v[11] = addc(a.v[11], b.v[11]);
}
/* p - a, in [1, p] for a < p: a factor mp_mul2_eo takes, to subtract a product */
HD void neg_unreduced(fp_t &r, const fp_t &a)
{
    r.v[0] = sub_cc(fp_params::p(0), a.v[0]);
#pragma unroll
    for (int j = 1; j < 11; j++) r.v[j] = subc_cc(fp_params::p(j), a.v[j]);
    r.v[11] = subc(fp_params::p(11), a.v[11]);
}
/* r = a b - c d with one reduction: a b + (p - c) d */
HDM void mul_sub_mul(fp_t &r, const fp_t &a, const fp_t &b, const fp_t &c, const fp_t &d)
{
    fp_t nc;
    neg_unreduced(nc, c);
    mp_mul2_eo<fp_params>(r.v, a.v, b.v, nc.v, d.v);
}
/* Fp2 product as two sums of products, one reduction each: c0 = a0 b0 + (p - a1) b1,
 * c1 = a0 b1 + a1 b0 (the same 2 x 288 + 2 x 144 limb products as Karatsuba's three
 * multiplications, with two final subtractions instead of three and no sums). It made the G2
 * MSM faster than Karatsuba, which was removed (docs/BENCHMARKS.md, "Pipelined uploads, Fp2
 * sums of products, lazy NTT butterflies"). */
HDM void mul_sop(fp2_t &r, const fp2_t &a, const fp2_t &b)
{
    fp_t na1, c0; /* p - a1, in [1, p] */
    neg_unreduced(na1, a.c1);
    mp_mul2_eo<fp_params>(c0.v, a.c0.v, b.c0.v, na1.v, b.c1.v);
    mp_mul2_eo<fp_params>(r.c1.v, a.c0.v, b.c1.v, a.c1.v, b.c0.v);
    r.c0 = c0;
}
HDM void mul(fp2_t &r, const fp2_t &a, const fp2_t &b) { mul_sop(r, a, b); }
HDM void sqr(fp2_t &r, const fp2_t &a)
{
    /* (a0 + a1)(a0 - a1) + 2 a0 a1 u */
    fp_t s, d, m;
    add_unreduced(s, a.c0, a.c1);
    sub(d, a.c0, a.c1);
    mul_c(m, a.c0, a.c1);
    mul_c(r.c0, s, d);
    dbl(r.c1, m);
}
HD void add(fp2_t &r, const fp2_t &a, const fp2_t &b)
{
    add(r.c0, a.c0, b.c0);
    add(r.c1, a.c1, b.c1);
}
HD void sub(fp2_t &r, const fp2_t &a, const fp2_t &b)
{
    sub(r.c0, a.c0, b.c0);
    sub(r.c1, a.c1, b.c1);
}
HD void dbl(fp2_t &r, const fp2_t &a)
{
    dbl(r.c0, a.c0);
    dbl(r.c1, a.c1);
}
/* r = a b - c d (Fp2: two products and a subtraction; r may be any of the operands). One sum
 * of four products per component (two reductions instead of four) measured equal on the G2
 * MSM with more spills, so it is not used (docs/BENCHMARKS.md, "Row squaring, split scalars
 * for H"). */
HDM void mul_sub_mul(fp2_t &r, const fp2_t &a, const fp2_t &b, const fp2_t &c, const fp2_t &d)
{
    fp2_t t;
    mul(t, c, d);
    mul(r, a, b);
    sub(r, r, t);
}
HD bool is_zero(const fp2_t &a) { return is_zero(a.c0) && is_zero(a.c1); }
HD bool eq(const fp2_t &a, const fp2_t &b) { return eq(a.c0, b.c0) && eq(a.c1, b.c1); }
HD void set_zero(fp2_t &r)
{
    set_zero(r.c0);
    set_zero(r.c1);
}
HD void set_one(fp2_t &r)
{
    set_one(r.c0);
    set_zero(r.c1);
}
HD void neg(fp2_t &r, const fp2_t &a)
{
    neg(r.c0, a.c0);
    neg(r.c1, a.c1);
}
/* 1/(a0 + a1 u) = (a0 - a1 u) / (a0^2 + a1^2) */
HDM void inv(fp2_t &r, const fp2_t &a)
{
    fp_t n0, n1;
    sqr(n0, a.c0);
    sqr(n1, a.c1);
    add(n0, n0, n1);
    inv(n0, n0);
    mul(r.c0, a.c0, n0);
    mul(n1, a.c1, n0);
    neg(r.c1, n1);
}

#endif
