/* NTT entry points: natural-order transforms (gpu.h), the H-polynomial pipeline of the
 * prover, and their host emulation. */
#include "gpu/internal.cuh"

extern "C" {
#include "cuzk/ff.h"
}

static fr_t fr_of(const cuzk_fr &v)
{
    fr_t r;
    memcpy(&r, &v, 32);
    return r;
}

/* a constant's Shoup pair (fr_shoup.cuh) */
static fr_shoup_t shoup_of(const cuzk_fr &v)
{
    fr_shoup_t t;
    fr_shoup_from_mont(t, fr_of(v));
    return t;
}

static fr_t n_inv(unsigned log_n)
{
    cuzk_fr n, ni;
    cuzk_fr_from_u64(&n, (uint64_t)1 << log_n);
    cuzk_fr_inv(&ni, &n);
    return fr_of(ni);
}

template <class X>
static void natural_impl(X &x, const ntt_tables &tb, fr_t *data, unsigned log_n, cuzk_gpu_ntt_kind kind, fr_t *scratch)
{
    if (log_n == 0) return; /* every kind is the identity on one element */
    ntt_scale sc;
    memset(&sc, 0, sizeof sc);
    bool inverse = kind == CUZK_GPU_NTT_INVERSE || kind == CUZK_GPU_NTT_COSET_INVERSE;
    if (kind == CUZK_GPU_NTT_COSET_FORWARD) {
        sc.where = SCALE_PRE;
        sc.pow = POW_G;
    } else if (inverse) {
        sc.where = SCALE_POST;
        sc.pow = kind == CUZK_GPU_NTT_COSET_INVERSE ? POW_GINV : POW_NONE;
        sc.has_c = true;
        sc.c = n_inv(log_n);
    }
    if (!ntt_run(x, tb, data, log_n, inverse, NTT_NR, sc, scratch)) ntt_bitrev(x, data, log_n);
}

void ntt_natural(exec_dev &x, const ntt_tables &tb, fr_t *data, unsigned log_n, cuzk_gpu_ntt_kind kind, fr_t *scratch)
{
    natural_impl(x, tb, data, log_n, kind, scratch);
}
void ntt_natural(exec_host &x, const ntt_tables &tb, fr_t *data, unsigned log_n, cuzk_gpu_ntt_kind kind, fr_t *scratch)
{
    natural_impl(x, tb, data, log_n, kind, scratch);
}

/* bellperson's H: coefficients of a, b, c by inverse NTT, evaluations on the coset g*H,
 * (a b - c) / (g^N - 1), back to coefficients. The inverse NTTs (DIF) leave bit-reversed
 * output, the forward ones (DIT) take it, so no reordering pass is needed; g^j is applied as
 * the inverse NTT stores its result. The factors 1/N of the inverse transforms are gathered
 * into the one constant of the combination step, so they cost no pass of their own: a and b
 * come out N times too large, c is scaled by N (N^2 too large, like a b), and the constant
 * 1/((g^N - 1) N^3) also pre-divides by the N the last inverse transform leaves. The final
 * coefficients stay bit-reversed (the H MSM indexes its bases by bitrev(position)) and come
 * out canonical, the form the MSM takes (ntt_scale.canonical_out), for the N - 1 the MSM
 * reads (N = 1 leaves none).
 *
 * In steps (internal.cuh): each of a, b, c to the coset (h_coset), then the combination and
 * the transform back (h_finish); or, with c made after a b (h_product), only two of the three
 * on the device at a time. */
static ntt_scale coset_scale(bool pre_n, unsigned lg)
{
    ntt_scale sc;
    memset(&sc, 0, sizeof sc);
    sc.where = SCALE_POST;
    sc.pow = POW_G;
    if (pre_n) { /* c: N times larger, as a b */
        cuzk_fr n;
        cuzk_fr_from_u64(&n, (uint64_t)1 << lg);
        sc.has_c = true;
        sc.c = fr_of(n);
    }
    return sc;
}

template <class X> static void h_coset(X &x, const ntt_tables &tb, fr_t *v, unsigned lg, int k, int up)
{
    static const char *names[3] = {"ntt a", "ntt b", "ntt c"};
    ntt_scale none;
    memset(&none, 0, sizeof none);
    x.wait_upload(up);
    x.stage_begin(names[k]);
    if (lg > 0) { /* N = 1: coefficients = values; the coset factor g^0 = 1 */
        ntt_run(x, tb, v, lg, true, NTT_NR, coset_scale(k == 2, lg));
        ntt_run(x, tb, v, lg, false, NTT_RN, none);
    }
    x.stage_end();
}

template <class X> static void h_product(X &x, fr_t *a, const fr_t *b, unsigned lg)
{
    x.stage_begin("a b");
    k_h_product kp = {a, b};
    x.parallel((size_t)1 << lg, kp);
    x.stage_end();
}

/* b NULL: a holds a b (h_product) */
template <class X> static void h_finish(X &x, const ntt_tables &tb, fr_t *a, const fr_t *b, const fr_t *c, unsigned lg)
{
    const size_t N = (size_t)1 << lg;
    cuzk_fr n, n3, g, z;
    cuzk_fr_from_u64(&n, N);
    x.stage_begin("(ab - c) / z");
    cuzk_fr_from_u64(&g, CUZK_FR_GENERATOR);
    cuzk_fr_pow_u64(&z, &g, N);
    cuzk_fr_sub(&z, &z, &CUZK_FR_ONE);
    cuzk_fr_mul(&n3, &n, &n);
    cuzk_fr_mul(&n3, &n3, &n);
    cuzk_fr_mul(&z, &z, &n3);
    cuzk_fr_inv(&z, &z);
    if (b) {
        k_h_combine kc = {a, b, c, shoup_of(z)};
        x.parallel(N, kc);
    } else {
        k_h_combine_product kc = {a, c, shoup_of(z)};
        x.parallel(N, kc);
    }
    x.stage_end();
    x.stage_begin("intt h");
    if (lg > 0) {
        ntt_scale from_coset = coset_scale(false, lg);
        from_coset.pow = POW_GINV;
        from_coset.canonical_out = true;
        ntt_run(x, tb, a, lg, true, NTT_NR, from_coset);
    }
    x.stage_end();
}

template <class X>
static void h_impl(X &x, const ntt_tables &tb, fr_t *a, fr_t *b, fr_t *c, unsigned lg, int up_a, int up_b, int up_c)
{
    fr_t *v[3] = {a, b, c};
    const int up[3] = {up_a, up_b, up_c};
    for (int k = 0; k < 3; k++) h_coset(x, tb, v[k], lg, k, up[k]);
    h_finish(x, tb, a, b, c, lg);
}

void ntt_h_pipeline(exec_dev &x, const ntt_tables &tb, fr_t *a, fr_t *b, fr_t *c, unsigned lg, int up_a, int up_b,
                    int up_c)
{
    h_impl(x, tb, a, b, c, lg, up_a, up_b, up_c);
}
void ntt_h_pipeline(exec_host &x, const ntt_tables &tb, fr_t *a, fr_t *b, fr_t *c, unsigned lg, int up_a, int up_b,
                    int up_c)
{
    h_impl(x, tb, a, b, c, lg, up_a, up_b, up_c);
}
void ntt_h_coset(exec_dev &x, const ntt_tables &tb, fr_t *v, unsigned lg, int k) { h_coset(x, tb, v, lg, k, -1); }
void ntt_h_coset(exec_host &x, const ntt_tables &tb, fr_t *v, unsigned lg, int k) { h_coset(x, tb, v, lg, k, -1); }
void ntt_h_product(exec_dev &x, fr_t *a, const fr_t *b, unsigned lg) { h_product(x, a, b, lg); }
void ntt_h_product(exec_host &x, fr_t *a, const fr_t *b, unsigned lg) { h_product(x, a, b, lg); }
void ntt_h_finish_product(exec_dev &x, const ntt_tables &tb, fr_t *a, const fr_t *c, unsigned lg)
{
    h_finish(x, tb, a, NULL, c, lg);
}
void ntt_h_finish_product(exec_host &x, const ntt_tables &tb, fr_t *a, const fr_t *c, unsigned lg)
{
    h_finish(x, tb, a, NULL, c, lg);
}

/* ---------------------------------------------------------------- gpu.h */
extern "C" cuzk_status cuzk_gpu_ntt(cuzk_gpu_device *dev, cuzk_fr *data, unsigned log_n, size_t nvec,
                                    cuzk_gpu_ntt_kind kind, bool on_device)
{
    if (log_n > CUZK_NTT_MAX_LOG)
        return cuzk_fail(CUZK_EINVAL, "NTT size 2^%u is above the supported 2^%d", log_n, CUZK_NTT_MAX_LOG);
    if ((unsigned)kind > 3) return cuzk_fail(CUZK_EINVAL, "unknown NTT kind %d", (int)kind);
    cuzk_status st = gpu_use(dev);
    if (st) return st;
    exec_dev x;
    if (!x.init(dev)) {
        x.destroy();
        return x.err;
    }
    size_t n = (size_t)1 << log_n, bytes = n * sizeof(fr_t);
    fr_t *buf = NULL;
    if (!on_device) buf = (fr_t *)x.alloc(bytes);
    /* natural order out without a bit-reversal pass where a second buffer fits (transforms
     * of more than one pass) */
    unsigned bs[NTT_LOG_MAX];
    const bool passes = log_n > 0 && ntt_plan(*x.cfg, log_n, bs) > 1;
    fr_t *scratch = x.cfg->ntt_natural_out && passes ? (fr_t *)x.try_alloc(bytes) : NULL;
    ntt_tables tb;
    st = ntt_device_tables(dev, &tb, log_n, (size_t)1 << 30);
    for (size_t v = 0; v < nvec && x.ok() && !st; v++) {
        fr_t *d = on_device ? (fr_t *)(data + v * n) : buf;
        if (!on_device) x.to_dev(d, data + v * n, bytes);
        ntt_natural(x, tb, d, log_n, kind, scratch);
        if (!on_device) x.to_host(data + v * n, d, bytes);
    }
    x.sync();
    if (buf) x.release(buf);
    if (scratch) x.release(scratch);
    x.sync();
    if (!st) st = x.err;
    x.destroy();
    return st;
}
