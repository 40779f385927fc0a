/* Short-Weierstrass (a = 0) point formulas for G1 (over Fp) and G2 (over Fp2).
 *
 * Inputs are affine points in blst's layout (x, y in Montgomery form; the point at infinity is
 * all zero). Accumulators are XYZZ points (x = X/ZZ, y = Y/ZZZ, ZZ^3 = ZZZ^2; infinity has
 * ZZ = 0): adding an affine point costs 8M + 2S with no inversion, and every special case
 * (infinity, P + P, P + (-P)) is handled, so any input is summed correctly.
 * Formulas: madd-2008-s, mdbl-2008-s-1, add-2008-s, dbl-2008-s-1 (hyperelliptic.org EFD,
 * g1p/auto/shortw/xyzz). */
#ifndef CUZK_GPU_CURVE_CUH
#define CUZK_GPU_CURVE_CUH

#include "gpu/field.cuh"

template <class F> struct affine_t {
    F x, y;
};
template <class F> struct xyzz_t {
    F X, Y, ZZ, ZZZ;
};

typedef affine_t<fp_t> g1_affine;
typedef affine_t<fp2_t> g2_affine;
typedef xyzz_t<fp_t> g1_xyzz;
typedef xyzz_t<fp2_t> g2_xyzz;

template <class F> HD bool is_inf(const affine_t<F> &p) { return is_zero(p.x) && is_zero(p.y); }
template <class F> HD bool is_inf(const xyzz_t<F> &p) { return is_zero(p.ZZ); }
template <class F> HD void set_inf(xyzz_t<F> &p)
{
    set_zero(p.X);
    set_zero(p.Y);
    set_zero(p.ZZ);
    set_zero(p.ZZZ);
}
template <class F> HD void neg(affine_t<F> &p) { neg(p.y, p.y); }

/* r = 2 p for an affine p (not infinity) */
template <class F> HDN void xyzz_mdbl(xyzz_t<F> &r, const affine_t<F> &p)
{
    F U, V, W, S, M, t;
    dbl(U, p.y);
    sqr(V, U);
    mul(W, U, V);
    mul(S, p.x, V);
    sqr(M, p.x);
    dbl(t, M);
    add(M, M, t); /* 3 x^2 */
    sqr(t, M);
    sub(t, t, S);
    sub(r.X, t, S);
    sub(t, S, r.X);
    mul(t, M, t);
    mul(S, W, p.y);
    sub(r.Y, t, S);
    r.ZZ = V;
    r.ZZZ = W;
}

/* r = 2 r */
template <class F> HDN void xyzz_dbl(xyzz_t<F> &r)
{
    if (is_zero(r.ZZ)) return;
    F U, V, W, S, M, t;
    dbl(U, r.Y);
    sqr(V, U);
    mul(W, U, V);
    mul(S, r.X, V);
    sqr(M, r.X);
    dbl(t, M);
    add(M, M, t);
    sqr(t, M);
    sub(t, t, S);
    sub(t, t, S); /* X3 */
    sub(S, S, t);
    mul(S, M, S);
    mul(M, W, r.Y);
    sub(r.Y, S, M);
    r.X = t;
    mul(r.ZZ, r.ZZ, V);
    mul(r.ZZZ, r.ZZZ, W);
}

/* r += p, for an affine p that is not infinity */
template <class F> HDM void xyzz_madd(xyzz_t<F> &r, const affine_t<F> &p)
{
    if (is_zero(r.ZZ)) {
        r.X = p.x;
        r.Y = p.y;
        set_one(r.ZZ);
        set_one(r.ZZZ);
        return;
    }
    F P, R;
    mul(P, p.x, r.ZZ);
    mul(R, p.y, r.ZZZ);
    sub(P, P, r.X);
    sub(R, R, r.Y);
    if (is_zero(P)) {
        if (is_zero(R)) {
            /* copies: passing r or p itself to the out-of-line call would pin them to local
             * memory for the whole caller */
            xyzz_t<F> t;
            affine_t<F> pc = p;
            xyzz_mdbl(t, pc);
            r = t;
        } else {
            set_inf(r);
        }
        return;
    }
    /* ordered so that each temporary dies early: at most seven field elements live at once
     * (the G2 kernel runs at the register limit, so every one spared is a spill fewer).
     * Y3's two products share one reduction in Fp (mul_sub_mul). */
    F PP, PPP;
    sqr(PP, P);
    mul(PPP, P, PP);
    mul(r.ZZ, r.ZZ, PP);
    mul(PP, r.X, PP); /* Q */
    mul(r.ZZZ, r.ZZZ, PPP);
    sqr(P, R);
    sub(P, P, PPP);
    sub(P, P, PP);
    sub(r.X, P, PP); /* X3 = R^2 - PPP - 2Q */
    sub(PP, PP, r.X);
    mul_sub_mul(r.Y, R, PP, r.Y, PPP); /* Y3 = R (Q - X3) - Y PPP, one reduction in Fp */
}

/* r += q (both XYZZ, either may be infinity). Inlined for G2 too: out of line (to keep the
 * G2 kernels' compile time down) it ran the G2 bucket reduction at 45 % of the rate of the
 * mixed additions; each caller either spilled its live points around the call or kept
 * them in local memory. */
template <class F> HDM void xyzz_add(xyzz_t<F> &r, const xyzz_t<F> &q)
{
    if (is_zero(q.ZZ)) return;
    if (is_zero(r.ZZ)) {
        r = q;
        return;
    }
    F U1, S1, P, R;
    mul(U1, r.X, q.ZZ);
    mul(S1, r.Y, q.ZZZ);
    mul(P, q.X, r.ZZ);
    mul(R, q.Y, r.ZZZ);
    sub(P, P, U1);
    sub(R, R, S1);
    if (is_zero(P)) {
        if (is_zero(R)) {
            xyzz_t<F> t = r;
            xyzz_dbl(t);
            r = t;
        } else {
            set_inf(r);
        }
        return;
    }
    F PP, PPP, t;
    sqr(PP, P);
    mul(PPP, P, PP);
    mul(U1, U1, PP); /* Q */
    sqr(t, R);
    sub(t, t, PPP);
    sub(t, t, U1);
    sub(t, t, U1); /* X3 */
    sub(U1, U1, t);
    mul_sub_mul(r.Y, R, U1, S1, PPP); /* Y3 = R (Q - X3) - S1 PPP */
    r.X = t;
    mul(r.ZZ, r.ZZ, q.ZZ);
    mul(r.ZZ, r.ZZ, PP);
    mul(r.ZZZ, r.ZZZ, q.ZZZ);
    mul(r.ZZZ, r.ZZZ, PPP);
}

/* r = k * p for a small k (double and add, from the top bit). Only the synthetic-base
 * generator uses it (see docs/GPU.md on why the MSM does without it). */
template <class F> HDN void xyzz_mul_u32(xyzz_t<F> &r, const xyzz_t<F> &p, uint32_t k)
{
    xyzz_t<F> acc;
    set_inf(acc);
    for (int bit = 31; bit >= 0; bit--) {
        xyzz_dbl(acc);
        if ((k >> bit) & 1) xyzz_add(acc, p);
    }
    r = acc;
}

/* XYZZ from an affine point (infinity -> infinity) */
template <class F> HD void xyzz_from_affine(xyzz_t<F> &r, const affine_t<F> &p)
{
    if (is_inf(p)) {
        set_inf(r);
        return;
    }
    r.X = p.x;
    r.Y = p.y;
    set_one(r.ZZ);
    set_one(r.ZZZ);
}

#endif
