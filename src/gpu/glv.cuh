/* The G1 endomorphism phi(x, y) = (beta x, y), beta a cube root of unity in Fp, which acts on
 * the group as multiplication by lambda = z^2 - 1 (z = 0xd201000000010000, the curve's
 * parameter up to sign; lambda^2 + lambda + 1 = r exactly). A scalar k < r is k1 + k2 lambda
 * with k2 = floor(k / lambda) and k1 = k mod lambda, both below 2^128, so an MSM over n points
 * with 255-bit scalars is one over 2n points (P and phi(P)) with 128-bit scalars: with c = 22,
 * 6 windows per half-scalar instead of 13 per scalar with c = 20, 12 mixed additions per
 * point instead of 13. The H MSM uses it with phi(H) resident beside H. The constants are
 * checked against blst by the emulation tests (phi(P) = [lambda] P, k1 + k2 lambda = k). */
#ifndef CUZK_GPU_GLV_CUH
#define CUZK_GPU_GLV_CUH

#include "gpu/curve.cuh"

/* beta in Montgomery form (the cube root of unity that goes with lambda = z^2 - 1) */
HD fp_t glv_beta()
{
    fp_t b = {{0x8671f071u, 0xcd03c9e4u, 0x1fcda5d2u, 0x5dab2246u, 0xd3851b95u, 0x587042afu, 0x01bacb9eu, 0x8eb60ebeu,
               0x83d050d2u, 0x03f97d6eu, 0x54638741u, 0x18f02065u}};
    return b;
}

#define GLV_LAMBDA_LO 0x00000000ffffffffull /* lambda = 0xac45a4010001a402 00000000ffffffff */
#define GLV_LAMBDA_HI 0xac45a4010001a402ull
/* mu = floor(2^256 / lambda) = 2^128 + 0x7c6becf1e01faadd 63f6e522f6cfee30 (Barrett) */
#define GLV_MU_LO 0x63f6e522f6cfee30ull
#define GLV_MU_MID 0x7c6becf1e01faaddull

typedef unsigned __int128 u128_t;

/* k (canonical, below r) -> k1 = k mod lambda, k2 = floor(k / lambda), as 32-bit words (the
 * low four of eight; the upper four are zero) */
HD void glv_split(const fr_t &k, uint32_t k1[8], uint32_t k2[8])
{
    uint64_t K[4];
    for (int i = 0; i < 4; i++) K[i] = (uint64_t)k.v[2 * i] | ((uint64_t)k.v[2 * i + 1] << 32);
    /* q = floor((k >> 127) mu / 2^129): floor(k / lambda) - 2 <= q <= floor(k / lambda) */
    const uint64_t s0 = (K[1] >> 63) | (K[2] << 1), s1 = (K[2] >> 63) | (K[3] << 1);
    /* t = (s1 2^64 + s0) (2^128 + MID 2^64 + LO), the words from 2^128 up (the lower ones only
     * carry) */
    u128_t p00 = (u128_t)s0 * GLV_MU_LO, p01 = (u128_t)s0 * GLV_MU_MID, p10 = (u128_t)s1 * GLV_MU_LO,
           p11 = (u128_t)s1 * GLV_MU_MID;
    u128_t w1 = (p00 >> 64) + (uint64_t)p01 + (uint64_t)p10; /* word 1 and its carry */
    u128_t w2 = (w1 >> 64) + (p01 >> 64) + (p10 >> 64) + (uint64_t)p11 + s0;
    u128_t w3 = (w2 >> 64) + (p11 >> 64) + s1;
    const uint64_t t2 = (uint64_t)w2, t3 = (uint64_t)w3, t4 = (uint64_t)(w3 >> 64);
    uint64_t q0 = (t2 >> 1) | (t3 << 63), q1 = (t3 >> 1) | (t4 << 63);
    /* rem = k - q lambda (below 3 lambda < 2^130: three words suffice) */
    u128_t a = (u128_t)q0 * GLV_LAMBDA_LO, b = (u128_t)q0 * GLV_LAMBDA_HI, c = (u128_t)q1 * GLV_LAMBDA_LO,
           d = (u128_t)q1 * GLV_LAMBDA_HI;
    u128_t m1 = (a >> 64) + (uint64_t)b + (uint64_t)c;
    u128_t m2 = (m1 >> 64) + (b >> 64) + (c >> 64) + (uint64_t)d;
    const uint64_t ql0 = (uint64_t)a, ql1 = (uint64_t)m1, ql2 = (uint64_t)m2;
    u128_t r0 = (u128_t)K[0] - ql0;
    uint64_t br = (uint64_t)(r0 >> 64) & 1;
    u128_t r1 = (u128_t)K[1] - ql1 - br;
    br = (uint64_t)(r1 >> 64) & 1;
    uint64_t R0 = (uint64_t)r0, R1 = (uint64_t)r1, R2 = K[2] - ql2 - br;
    for (int it = 0; it < 2; it++) { /* at most two corrections */
        const bool ge = R2 || R1 > GLV_LAMBDA_HI || (R1 == GLV_LAMBDA_HI && R0 >= GLV_LAMBDA_LO);
        if (!ge) break;
        u128_t x0 = (u128_t)R0 - GLV_LAMBDA_LO;
        uint64_t bb = (uint64_t)(x0 >> 64) & 1;
        u128_t x1 = (u128_t)R1 - GLV_LAMBDA_HI - bb;
        bb = (uint64_t)(x1 >> 64) & 1;
        R0 = (uint64_t)x0;
        R1 = (uint64_t)x1;
        R2 -= bb;
        if (++q0 == 0) q1++;
    }
    const uint64_t o1[2] = {R0, R1}, o2[2] = {q0, q1};
    for (int i = 0; i < 2; i++) {
        k1[2 * i] = (uint32_t)o1[i];
        k1[2 * i + 1] = (uint32_t)(o1[i] >> 32);
        k2[2 * i] = (uint32_t)o2[i];
        k2[2 * i + 1] = (uint32_t)(o2[i] >> 32);
    }
    for (int i = 4; i < 8; i++) k1[i] = k2[i] = 0;
}

/* out[i] = phi(in[i]) (infinity, all zero, stays so) */
struct k_phi_g1 {
    const g1_affine *in;
    g1_affine *out;
    HD void operator()(size_t i) const
    {
        g1_affine p = in[i];
        mul(p.x, p.x, glv_beta());
        out[i] = p;
    }
};

#endif
