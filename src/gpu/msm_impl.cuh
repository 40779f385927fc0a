/* Templated MSM drivers shared by msm_g1.cu and msm_g2.cu (each instantiates one curve). */
#ifndef CUZK_GPU_MSM_IMPL_CUH
#define CUZK_GPU_MSM_IMPL_CUH

#include "gpu/internal.cuh"

/* Blst conversions chosen by field type */
static inline void to_blst(blst_p1 *o, const g1_xyzz &p) { xyzz_to_p1(o, p); }
static inline void to_blst(blst_p2 *o, const g2_xyzz &p) { xyzz_to_p2(o, p); }
static inline void blst_add(blst_p1 *o, const blst_p1 *a, const blst_p1 *b) { blst_p1_add_or_double(o, a, b); }
static inline void blst_add(blst_p2 *o, const blst_p2 *a, const blst_p2 *b) { blst_p2_add_or_double(o, a, b); }
static inline void blst_dbl(blst_p1 *o, const blst_p1 *a) { blst_p1_double(o, a); }
static inline void blst_dbl(blst_p2 *o, const blst_p2 *a) { blst_p2_double(o, a); }

/* The sum from the core's reduction levels: window w = S_w + sum_l L^l T_{l,w} (Horner
 * from the top level), then the windows by Horner with 2^c per step. */
template <class F, class P>
static void windows_to_blst(const xyzz_t<F> *lv, unsigned lnw, unsigned lc, unsigned nlev, unsigned reduce_bits, P *out)
{
    P ws[MSM_MAX_WINDOWS];
    for (unsigned w = 0; w < lnw; w++) {
        P acc, t;
        to_blst(&acc, lv[(size_t)(nlev - 1) * lnw + w]);
        for (int l = (int)nlev - 2; l >= 0; l--) {
            for (unsigned k = 0; k < reduce_bits; k++) blst_dbl(&acc, &acc);
            to_blst(&t, lv[(size_t)l * lnw + w]);
            blst_add(&acc, &acc, &t);
        }
        to_blst(&t, lv[(size_t)nlev * lnw + w]);
        blst_add(&ws[w], &acc, &t);
    }
    P acc = ws[lnw - 1];
    for (int w = (int)lnw - 2; w >= 0; w--) {
        for (unsigned k = 0; k < lc; k++) blst_dbl(&acc, &acc);
        blst_add(&acc, &acc, &ws[w]);
    }
    *out = acc;
}

template <class X, class F, class P>
static cuzk_status core_to_blst(X &x, const affine_t<F> *bases, const fr_t *scalars, idx_map map, size_t n,
                                const msm_config *cfg, P *out, unsigned *c, unsigned *nw)
{
    static thread_local xyzz_t<F> lv[MSM_MAX_WINDOWS * MSM_MAX_LEVELS];
    unsigned lc = 0, lnw = 0, nlev = 0;
    cuzk_status st = msm_core<X, F>(x, bases, scalars, map, n, cfg, lv, &lnw, &lc, &nlev);
    if (st) return st;
    windows_to_blst<F, P>(lv, lnw, lc, nlev, msm_reduce_bits(*x.cfg), out);
    if (c) *c = lc;
    if (nw) *nw = lnw;
    return CUZK_OK;
}

template <class X, class F, class P>
static void ones_to_blst(X &x, const uint32_t *idx, size_t n, const affine_t<F> *bases, P *out)
{
    xyzz_t<F> s;
    msm_ones<X, F>(x, idx, n, bases, &s);
    to_blst(out, s);
}

/* MSM over Montgomery scalars in executor memory, with or without the 0/1 split. */
template <class X, class F, class P>
static cuzk_status run_impl(X &x, const affine_t<F> *bases, const fr_t *s, size_t n, bool split, const msm_config *cfg,
                            P *out, cuzk_gpu_msm_stats *st)
{
    memset(out, 0, sizeof *out);
    cuzk_gpu_msm_stats z;
    memset(&z, 0, sizeof z);
    if (!st) st = &z;
    memset(st, 0, sizeof *st);
    if (n == 0) return CUZK_OK;
    if (n >= 0x7fffffffu) return cuzk_fail(CUZK_EINVAL, "MSM of %zu points: at most 2^31 - 1 supported", n);
    if (!split) {
        fr_t *canon = (fr_t *)x.alloc(n * sizeof(fr_t));
        k_from_mont km = {s, canon};
        x.parallel(n, km);
        idx_map map = {NULL, IDX_IDENTITY, 0, 0};
        cuzk_status r = core_to_blst<X, F, P>(x, bases, canon, map, n, cfg, out, &st->window_bits, &st->windows);
        x.release(canon);
        st->tail = n;
        return r ? r : x.err;
    }
    split_scratch sc;
    split_scratch_alloc(x, sc, n, n);
    fr_t *tail_s = (fr_t *)x.alloc(n * sizeof(fr_t));
    uint32_t *tail_idx = (uint32_t *)x.alloc(n * 4);
    density_map dm = {NULL, NULL, 0};
    size_t n1 = 0;
    size_t cnt = msm_classify(x, s, n, dm, n, sc, tail_s, tail_idx, 0, 0, &n1);
    P ones, tail;
    memset(&ones, 0, sizeof ones);
    memset(&tail, 0, sizeof tail);
    if (x.ok()) ones_to_blst<X, F, P>(x, sc.ones_idx, n1, bases, &ones);
    if (x.ok() && cnt) {
        idx_map map = {tail_idx, IDX_ARRAY, 0, 0};
        core_to_blst<X, F, P>(x, bases, tail_s, map, cnt, cfg, &tail, &st->window_bits, &st->windows);
    }
    split_scratch_free(x, sc);
    x.release(tail_s);
    x.release(tail_idx);
    x.sync();
    if (!x.ok()) return x.err;
    blst_add(out, &ones, &tail);
    st->tail = cnt;
    return CUZK_OK;
}

/* The same MSM over Montgomery scalars in host memory (page-locked for the copies to
 * overlap), in pieces of the core's chunk size: piece k + 1 is uploaded on the copy stream
 * while piece k is classified and summed, so the upload costs only the first piece. The core's
 * window size is chosen from the first piece's share of tail scalars. */
template <class X, class F, class P>
static cuzk_status run_host_impl(X &x, const affine_t<F> *bases, const fr_t *hs, size_t n, bool split,
                                 const msm_config *cfg, P *out, cuzk_gpu_msm_stats *st)
{
    memset(out, 0, sizeof *out);
    cuzk_gpu_msm_stats z;
    if (!st) st = &z;
    memset(st, 0, sizeof *st);
    if (n == 0) return CUZK_OK;
    if (n >= 0x7fffffffu) return cuzk_fail(CUZK_EINVAL, "MSM of %zu points: at most 2^31 - 1 supported", n);
    size_t piece = cfg && cfg->chunk ? cfg->chunk : msm_default_chunk(*x.cfg);
    if (piece > n) piece = n;
    /* The first piece's upload cannot overlap anything: with several pieces it is made
     * 2^msm_first_shift times smaller, so that summing it covers the second one's upload */
    size_t first = piece;
    if (n > piece) {
        first = piece >> msm_first_shift(*x.cfg);
        if (first == 0) first = 1;
    }
    fr_t *buf[2] = {(fr_t *)x.alloc(piece * sizeof(fr_t)), n > piece ? (fr_t *)x.alloc(piece * sizeof(fr_t)) : NULL};
    fr_t *tail_s = (fr_t *)x.alloc(piece * sizeof(fr_t));
    uint32_t *tail_idx = split ? (uint32_t *)x.alloc(piece * 4) : NULL;
    split_scratch sc;
    memset(&sc, 0, sizeof sc);
    if (split) split_scratch_alloc(x, sc, piece, n);
    msm_pippenger<X, F> pip;
    bool begun = false;
    size_t tail_total = 0, ones_total = 0;
    int tok[2] = {x.upload(buf[0], hs, first * sizeof(fr_t)), -1};
    for (size_t off = 0, k = 0, len = first; off < n && x.ok(); off += len, k++) {
        len = k == 0 ? first : n - off < piece ? n - off : piece;
        x.wait_upload(tok[k & 1]);
        if (off + len < n) {
            const size_t nlen = n - off - len < piece ? n - off - len : piece;
            tok[(k + 1) & 1] = x.upload(buf[(k + 1) & 1], hs + off + len, nlen * sizeof(fr_t));
        }
        const fr_t *s = buf[k & 1];
        size_t cnt = len;
        idx_map map = {NULL, IDX_IDENTITY, (uint32_t)off, 0};
        if (split) {
            density_map dm = {NULL, NULL, (uint32_t)off};
            size_t n1 = 0;
            cnt = msm_classify(x, s, len, dm, len, sc, tail_s, tail_idx, 0, ones_total, &n1);
            ones_total += n1;
            map = {tail_idx, IDX_ARRAY, 0, 0};
        } else {
            k_from_mont km = {s, tail_s};
            x.parallel(len, km);
        }
        if (!x.ok()) break;
        if (!begun && cnt) {
            /* windows for the tail this piece predicts for the whole MSM */
            size_t est = (size_t)((double)cnt * (double)n / (double)len + 0.5);
            pip.begin(x, bases, est < cnt ? cnt : est, cfg, piece);
            begun = true;
        }
        if (cnt) pip.add(tail_s, map, 0, cnt);
        tail_total += cnt;
    }
    x.release(buf[0]);
    x.release(buf[1]);
    x.release(tail_s);
    x.release(tail_idx);
    P ones, tail;
    memset(&ones, 0, sizeof ones);
    memset(&tail, 0, sizeof tail);
    if (x.ok() && ones_total) ones_to_blst<X, F, P>(x, sc.ones_idx, ones_total, bases, &ones);
    if (split) split_scratch_free(x, sc);
    if (begun) {
        static thread_local xyzz_t<F> lv[MSM_MAX_WINDOWS * MSM_MAX_LEVELS];
        unsigned nlev = 0;
        if (pip.finish(lv, &st->windows, &st->window_bits, &nlev) == CUZK_OK && x.ok())
            windows_to_blst<F, P>(lv, st->windows, st->window_bits, nlev, msm_reduce_bits(*x.cfg), &tail);
    }
    x.sync();
    if (!x.ok()) return x.err;
    blst_add(out, &ones, &tail);
    st->tail = tail_total;
    return CUZK_OK;
}

/* ---------------------------------------------------------------- synthetic points */
/* Thread t makes points i in [t K, t K + K): P_i = A + i Q by repeated mixed additions from
 * A + (t K) Q, then converts the K XYZZ points to affine with one inversion (Montgomery's
 * trick over ZZZ: 1/ZZZ directly, 1/ZZ = (ZZ / ZZZ)^2). */
template <class F> struct k_gen_points {
    affine_t<F> A, Q;
    size_t first, n; /* this launch: points [first, n) */
    uint32_t K;
    affine_t<F> *out; /* point i at out[i - from] */
    size_t from;
    F *zz, *zzz, *pp; /* scratch, launch-relative */
    HD void operator()(size_t t) const
    {
        size_t i0 = first + t * K;
        if (i0 >= n) return;
        size_t i1 = i0 + K < n ? i0 + K : n;
        xyzz_t<F> P;
        {
            xyzz_t<F> q, P0;
            xyzz_from_affine(q, Q);
            xyzz_mul_u32(P0, q, (uint32_t)i0);
            P = P0;
        }
        xyzz_madd(P, A);
        F prod;
        set_one(prod);
        for (size_t i = i0; i < i1; i++) {
            size_t s = i - first;
            out[i - from].x = P.X;
            out[i - from].y = P.Y;
            zz[s] = P.ZZ;
            zzz[s] = P.ZZZ;
            mul(prod, prod, P.ZZZ);
            pp[s] = prod;
            xyzz_madd(P, Q);
        }
        F inv_all;
        inv(inv_all, prod);
        for (size_t i = i1; i-- > i0;) {
            size_t s = i - first;
            F iz, t2;
            if (i > i0) mul(iz, inv_all, pp[s - 1]);
            else iz = inv_all;
            mul(inv_all, inv_all, zzz[s]);
            mul(t2, zz[s], iz);
            sqr(t2, t2);
            F x = out[i - from].x, y = out[i - from].y;
            mul(x, x, t2);
            mul(y, y, iz);
            out[i - from].x = x;
            out[i - from].y = y;
        }
    }
};

/* points [from, n) into out[0, n - from) */
template <class X, class F>
static void gen_impl(X &x, affine_t<F> *out, size_t n, affine_t<F> A, affine_t<F> Q, size_t from = 0)
{
    const uint32_t K = 256;
    size_t chunk = x.is_device() ? ((size_t)1 << 24) : 4096;
    F *zz = (F *)x.alloc(chunk * sizeof(F)), *zzz = (F *)x.alloc(chunk * sizeof(F)),
      *pp = (F *)x.alloc(chunk * sizeof(F));
    for (size_t first = from; first < n && x.ok(); first += chunk) {
        size_t last = first + chunk < n ? first + chunk : n;
        k_gen_points<F> k = {A, Q, first, last, K, out, from, zz, zzz, pp};
        x.parallel((last - first + K - 1) / K, k);
    }
    x.release(zz);
    x.release(zzz);
    x.release(pp);
}

#endif
