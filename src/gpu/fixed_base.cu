/* Fixed-base multiplication on the device (parameter generation): out[i] = s_i * B for one base
 * B and many scalars, the products the Groth16 setup needs for its queries (hundreds of
 * millions of points for a 32 GiB PoRep partition).
 *
 * A comb table on the device holds d * 2^(8 k) * B for every byte position k (32) and digit
 * d in [1, 255], in affine form, made on the host with blst; each product is then at most 32
 * mixed additions and no doublings. Thread t makes K consecutive products and converts them to
 * affine with one inversion (Montgomery's trick over ZZZ, as the synthetic-point generator
 * does). The results are the same affine points, in blst's layout, as the CPU's
 * cuzk_g1_fixed_base_mul / cuzk_g2_fixed_base_mul: the CPU setup and the device setup write
 * the same files for the same seed. */
#include "gpu/internal.cuh"

extern "C" {
#include "cuzk/ff.h"
}

#define FB_WINDOWS 32 /* byte positions of a 255-bit scalar */
#define FB_DIGITS 255 /* non-zero digits per window */

template <class F> struct k_fixed_base {
    const affine_t<F> *table; /* [k * FB_DIGITS + d - 1] = d 2^(8k) B */
    const fr_t *scalars;      /* Montgomery form, launch-relative */
    size_t n;                 /* this launch's products */
    uint32_t K;
    affine_t<F> *out; /* launch-relative */
    F *zz, *zzz, *pp; /* scratch, launch-relative */
    HD void operator()(size_t t) const
    {
        size_t i0 = t * K;
        if (i0 >= n) return;
        size_t i1 = i0 + K < n ? i0 + K : n;
        F prod;
        set_one(prod);
        for (size_t i = i0; i < i1; i++) {
            fr_t s;
            fr_from_mont(s, scalars[i]);
            xyzz_t<F> P;
            set_inf(P);
            for (int k = 0; k < FB_WINDOWS; k++) {
                uint32_t d = (s.v[k >> 2] >> ((k & 3) * 8)) & 0xff;
                if (d) xyzz_madd(P, table[k * FB_DIGITS + d - 1]);
            }
            out[i].x = P.X;
            out[i].y = P.Y;
            zz[i] = P.ZZ;
            F z3 = P.ZZZ;
            if (is_zero(P.ZZ)) set_one(z3); /* a zero scalar: infinity, left out of the product */
            zzz[i] = z3;
            mul(prod, prod, z3);
            pp[i] = prod;
        }
        F inv_all;
        inv(inv_all, prod);
        for (size_t i = i1; i-- > i0;) {
            F iz, t2;
            if (i > i0) mul(iz, inv_all, pp[i - 1]);
            else iz = inv_all;
            mul(inv_all, inv_all, zzz[i]);
            if (is_zero(zz[i])) {
                set_zero(out[i].x); /* blst's affine infinity: all zero */
                set_zero(out[i].y);
                continue;
            }
            mul(t2, zz[i], iz); /* ZZ / ZZZ = 1 / sqrt(ZZ): squared, 1 / ZZ */
            sqr(t2, t2);
            F x = out[i].x, y = out[i].y;
            mul(x, x, t2);
            mul(y, y, iz);
            out[i].x = x;
            out[i].y = y;
        }
    }
};

/* The products of scalars (host memory) into out (host memory), chunk by chunk through the
 * executor's memory. */
template <class X, class F>
static cuzk_status fixed_base_run(X &x, affine_t<F> *out, const affine_t<F> *table_host, const fr_t *scalars, size_t n)
{
    const uint32_t K = 64;
    const size_t chunk = x.is_device() ? ((size_t)1 << 22) : 4096;
    const size_t tbytes = (size_t)FB_WINDOWS * FB_DIGITS * sizeof(affine_t<F>);
    affine_t<F> *table = (affine_t<F> *)x.alloc(tbytes), *o = (affine_t<F> *)x.alloc(chunk * sizeof(affine_t<F>));
    fr_t *s = (fr_t *)x.alloc(chunk * sizeof(fr_t));
    F *zz = (F *)x.alloc(chunk * sizeof(F)), *zzz = (F *)x.alloc(chunk * sizeof(F)),
      *pp = (F *)x.alloc(chunk * sizeof(F));
    if (x.ok()) x.to_dev(table, table_host, tbytes);
    for (size_t first = 0; first < n && x.ok(); first += chunk) {
        size_t m = n - first < chunk ? n - first : chunk;
        x.to_dev(s, scalars + first, m * sizeof(fr_t));
        k_fixed_base<F> k = {table, s, m, K, o, zz, zzz, pp};
        x.parallel((m + K - 1) / K, k);
        x.to_host(out + first, o, m * sizeof(affine_t<F>)); /* synchronous: s and o are free again */
    }
    x.sync();
    cuzk_status st = x.err;
    x.release(table);
    x.release(o);
    x.release(s);
    x.release(zz);
    x.release(zzz);
    x.release(pp);
    return st;
}

/* The comb table of base on the host: row k holds d 2^(8k) base for d = 1..255. */
#define FB_TABLE(G, P, A)                                                                             \
    static cuzk_status G##_fb_table(std::vector<A> &table, const blst_##P *base)                      \
    {                                                                                                 \
        std::vector<blst_##P> proj((size_t)FB_WINDOWS *FB_DIGITS);                                    \
        blst_##P win = *base; /* 2^(8k) base */                                                       \
        for (int k = 0; k < FB_WINDOWS; k++) {                                                        \
            blst_##P *row = &proj[(size_t)k * FB_DIGITS];                                             \
            row[0] = win;                                                                             \
            for (int d = 1; d < FB_DIGITS; d++) blst_##P##_add_or_double(&row[d], &row[d - 1], &win); \
            blst_##P##_add_or_double(&win, &row[FB_DIGITS - 1], &win); /* 256 * win */                \
        }                                                                                             \
        table.resize(proj.size());                                                                    \
        cuzk_##G##_batch_to_affine(table.data(), proj.data(), proj.size());                           \
        return CUZK_OK;                                                                               \
    }
FB_TABLE(g1, p1, blst_p1_affine)
FB_TABLE(g2, p2, blst_p2_affine)

template <class X>
cuzk_status fixed_base_g1(X &x, blst_p1_affine *out, const blst_p1 *base, const cuzk_fr *sc, size_t n)
{
    std::vector<blst_p1_affine> table;
    cuzk_status st = g1_fb_table(table, base);
    if (st || !n) return st;
    return fixed_base_run<X, fp_t>(x, (g1_affine *)out, (const g1_affine *)table.data(), (const fr_t *)sc, n);
}

template <class X>
cuzk_status fixed_base_g2(X &x, blst_p2_affine *out, const blst_p2 *base, const cuzk_fr *sc, size_t n)
{
    std::vector<blst_p2_affine> table;
    cuzk_status st = g2_fb_table(table, base);
    if (st || !n) return st;
    return fixed_base_run<X, fp2_t>(x, (g2_affine *)out, (const g2_affine *)table.data(), (const fr_t *)sc, n);
}

template cuzk_status fixed_base_g1<exec_host>(exec_host &, blst_p1_affine *, const blst_p1 *, const cuzk_fr *, size_t);
template cuzk_status fixed_base_g2<exec_host>(exec_host &, blst_p2_affine *, const blst_p2 *, const cuzk_fr *, size_t);

/* ---------------------------------------------------------------- gpu.h */
template <class G> static cuzk_status on_device(cuzk_gpu_device *d, G run)
{
    if (!d) return cuzk_fail(CUZK_EINVAL, "fixed-base multiplication needs a device context");
    exec_dev x;
    if (!x.init(d)) return x.err;
    cuzk_status st = run(x);
    x.destroy();
    return st;
}

extern "C" cuzk_status cuzk_gpu_fixed_base_g1(cuzk_gpu_device *d, blst_p1_affine *out, const blst_p1 *base,
                                              const cuzk_fr *scalars, size_t n)
{
    return on_device(d, [&](exec_dev &x) { return fixed_base_g1(x, out, base, scalars, n); });
}

extern "C" cuzk_status cuzk_gpu_fixed_base_g2(cuzk_gpu_device *d, blst_p2_affine *out, const blst_p2 *base,
                                              const cuzk_fr *scalars, size_t n)
{
    return on_device(d, [&](exec_dev &x) { return fixed_base_g2(x, out, base, scalars, n); });
}
