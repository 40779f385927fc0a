/* Fr multiplication by a constant known ahead (the NTT's twiddles), after Shoup: with
 * w' = floor(w 2^256 / r) stored beside w, a w mod r needs no Montgomery reduction.
 *
 * q = floor(a w' / 2^256) is floor(a w / r) or one less when a < 2^256 (a w' / 2^256 falls
 * short of a w / r by a frac(w 2^256 / r) / 2^256 < 1), so a w - q r lies in [0, 2r) and,
 * 2r being below 2^256, equals the low 256 bits of a w + q (2^256 - r). The quotient may
 * leave out the products below column 6 and the low halves of column 6: they weigh below
 * 2^-27 units of the quotient, which for a < 2r (the NTT's lazy values, 2r < 0.907 2^256)
 * still keeps a w' / 2^256 within one unit of a w / r. The result is the lazy form (below
 * 2r, the same value mod r as a Montgomery product by w R).
 *
 * Limb products: 43 for the quotient (36 whole, 7 high halves), 36 for a w's low half (8 of
 * them low halves only), 29 for q (2^256 - r) (its limb 1 is zero): about 220 instructions
 * against about 320 for the even/odd Montgomery product, whose reduction costs as many limb
 * products as the product itself. w' comes from the Montgomery form W = w 2^256 mod r without
 * a division: w 2^256 = w' r + W, so w' = -W r^-1 mod 2^256 (fr_shoup_from_mont). Each sum
 * runs in two arrays (below), so that every row is two carry chains with no data between
 * them, as in field.cuh's even/odd product. bench gpu-field on the H200: 76.8 against 54.0
 * Gmul/s for the even/odd Montgomery product. */
#ifndef CUZK_GPU_FR_SHOUP_CUH
#define CUZK_GPU_FR_SHOUP_CUH

#include "gpu/field.cuh"

struct __align__(16) fr_shoup_t { fr_t w, wq; }; /* w canonical, wq = floor(w 2^256 / r) */

struct fr_shoup_consts {
    HD static constexpr uint32_t nr(int i) /* 2^256 - r */
    {
        return K8(0xffffffffu, 0x00000000u, 0x0001a401u, 0xac425bfdu, 0xf65e27fau, 0xccc627f7u, 0xd66282b7u,
                  0x8c1258acu);
    }
    HD static constexpr uint32_t nrinv(int i) /* -r^-1 mod 2^256 */
    {
        return K8(0xffffffffu, 0xfffffffeu, 0xfffe5bfdu, 0x53ba5bffu, 0x0004ec06u, 0x181b2c17u, 0xd7bf2839u,
                  0x3d443ab0u);
    }
};

/* The sums below keep their products in two arrays by the parity of the product's low
 * column: e at even columns, o at odd ones, each array laid out so that a product's two
 * words are an aligned register pair (the compiler then makes the pair's two multiply-adds
 * one 64-bit IMAD; split by the limb's parity instead, half the rows were misaligned and
 * cost register moves). Every row is then two independent carry chains. */

/* One quotient row, x += m * c_j for the j with i + j of parity par and i + j >= 6, the low
 * half of the column-6 product left out. x[k] holds column k + 6 (par 0) or k + 7 (par 1).
 * After row i the array's sum is below 2^(32 (i + 9)): nothing carries out of column i + 8,
 * and a row whose chain ends in column i + 7 carries into a column still zero. */
HD void shoup_q_row(uint32_t *x, uint32_t m, const uint32_t *c, int i, int par)
{
    const int base = 6 + par; /* x[k] is column base + k */
    bool first = true;
    int top = -1; /* the column of the chain's last high half */
#pragma unroll
    for (int j = 0; j <= 7; j++) { /* constant bounds, so that the loop unrolls before i is known */
        const int col = i + j;
        if (col < 6 || ((col ^ par) & 1)) continue;
        if (col == 6) {
            x[1] = mad_hi_cc(m, c[j], x[1]);
        } else {
            x[col - base] = first ? mad_lo_cc(m, c[j], x[col - base]) : madc_lo_cc(m, c[j], x[col - base]);
            if (col + 1 == i + 8) x[col + 1 - base] = madc_hi(m, c[j], x[col + 1 - base]);
            else x[col + 1 - base] = madc_hi_cc(m, c[j], x[col + 1 - base]);
        }
        first = false;
        top = col + 1;
    }
    if (top >= 0 && top != i + 8) x[top + 1 - base] = addc(x[top + 1 - base], 0);
}

/* q = words 8..15 of a * c, the columns below 7 left out as above */
HD void shoup_quotient(uint32_t *q, const uint32_t *a, const uint32_t *c)
{
    uint32_t e[10], o[9]; /* columns 6..15 (column 6 itself never written), 7..15 */
#pragma unroll
    for (int k = 0; k < 10; k++) e[k] = 0;
#pragma unroll
    for (int k = 0; k < 9; k++) o[k] = 0;
#pragma unroll
    for (int i = 0; i < 8; i++) {
        shoup_q_row(e, a[i], c, i, 0);
        shoup_q_row(o, a[i], c, i, 1);
    }
    (void)add_cc(e[1], o[0]); /* column 7: its carry only */
#pragma unroll
    for (int k = 0; k < 7; k++) q[k] = addc_cc(e[k + 2], o[k + 1]);
    q[7] = addc(e[9], o[8]);
}

/* One low-half row (columns 0..7), x += m * c_j mod 2^256 for the j >= j0 with i + j <= 7 of
 * parity par; x[k] holds column k + par. The chain's last product lands in column 6 or 7, so
 * it always reaches the top word; the carry out of it is dropped. A zero limb of c may only
 * start a chain (skipping it is then the same sum). */
HD void shoup_lo_row(uint32_t *x, uint32_t m, const uint32_t *c, int i, int par, int j0)
{
    bool first = true;
#pragma unroll
    for (int j = 0; j <= 7; j++) {
        const int col = i + j;
        if (j < j0 || col > 7 || ((col ^ par) & 1)) continue;
        if (col == 7) {
            x[7 - par] = first ? x[7 - par] + m * c[j] : madc_lo(m, c[j], x[7 - par]);
        } else {
            x[col - par] = first ? mad_lo_cc(m, c[j], x[col - par]) : madc_lo_cc(m, c[j], x[col - par]);
            if (col == 6) x[7 - par] = madc_hi(m, c[j], x[7 - par]);
            else x[col + 1 - par] = madc_hi_cc(m, c[j], x[col + 1 - par]);
        }
        first = false;
    }
}

/* the low 256 bits of a * c + b * d; d's limbs after the first may be zero only where a
 * chain starts (2^256 - r has a zero limb 1, the first of its odd chains) */
HD void shoup_lo_sum(uint32_t *r, const uint32_t *a, const uint32_t *c, const uint32_t *b, const uint32_t *d)
{
    uint32_t e[8], o[7]; /* columns 0..7, 1..7 */
#pragma unroll
    for (int k = 0; k < 8; k++) e[k] = 0;
#pragma unroll
    for (int k = 0; k < 7; k++) o[k] = 0;
#pragma unroll
    for (int i = 0; i < 8; i++) {
        shoup_lo_row(e, a[i], c, i, 0, 0);
        shoup_lo_row(o, a[i], c, i, 1, 0);
    }
    const int j0 = d[1] == 0 ? 2 : 0;
#pragma unroll
    for (int i = 0; i < 8; i++) {
        shoup_lo_row(e, b[i], d, i, 0, (i & 1) ? j0 : 0); /* j = 1 is in the chain of parity i + 1 */
        shoup_lo_row(o, b[i], d, i, 1, (i & 1) ? 0 : j0);
    }
    r[0] = e[0];
    r[1] = add_cc(e[1], o[0]);
#pragma unroll
    for (int k = 2; k < 7; k++) r[k] = addc_cc(e[k], o[k - 1]);
    r[7] = addc(e[7], o[6]);
}

/* r = a w mod r, below 2r, for a < 2r (any lazy value) */
HD void mul_shoup_lazy(fr_t &r, const fr_t &a, const fr_shoup_t &t)
{
    uint32_t q[8], nr[8];
    shoup_quotient(q, a.v, t.wq.v);
#pragma unroll
    for (int k = 0; k < 8; k++) nr[k] = fr_shoup_consts::nr(k);
    shoup_lo_sum(r.v, a.v, t.w.v, q, nr);
}

/* the pair for the constant whose Montgomery form is W (W < r) */
HD void fr_shoup_from_mont(fr_shoup_t &t, const fr_t &W)
{
    uint32_t ni[8], zero[8];
#pragma unroll
    for (int k = 0; k < 8; k++) {
        ni[k] = fr_shoup_consts::nrinv(k);
        zero[k] = 0;
    }
    fr_from_mont(t.w, W);
    shoup_lo_sum(t.wq.v, W.v, ni, zero, ni);
}

#endif
