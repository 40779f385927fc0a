/* G1 instantiation of the MSM drivers, and the MSM objects of gpu.h (resident bases, G1 and
 * G2) and synthetic bases. */
#include <stdlib.h>

#include "gpu/msm_stream.cuh"

cuzk_status msm_core_g1(exec_dev &x, const g1_affine *bases, const fr_t *scalars, idx_map map, size_t n,
                        const msm_config *cfg, blst_p1 *out, unsigned *c, unsigned *nw)
{
    return core_to_blst<exec_dev, fp_t, blst_p1>(x, bases, scalars, map, n, cfg, out, c, nw);
}
cuzk_status msm_core_g1(exec_host &x, const g1_affine *bases, const fr_t *scalars, idx_map map, size_t n,
                        const msm_config *cfg, blst_p1 *out, unsigned *c, unsigned *nw)
{
    return core_to_blst<exec_host, fp_t, blst_p1>(x, bases, scalars, map, n, cfg, out, c, nw);
}
void msm_ones_g1(exec_dev &x, const uint32_t *idx, size_t n, const g1_affine *bases, blst_p1 *out)
{
    ones_to_blst<exec_dev, fp_t, blst_p1>(x, idx, n, bases, out);
}
void msm_ones_g1(exec_host &x, const uint32_t *idx, size_t n, const g1_affine *bases, blst_p1 *out)
{
    ones_to_blst<exec_host, fp_t, blst_p1>(x, idx, n, bases, out);
}
std::unique_ptr<msm_steps> msm_streamed_steps_g1(exec_dev &x, const stream_g1 &bs, const fr_t *scalars,
                                                 const uint32_t *tail_idx, size_t cnt, const uint32_t *ones, size_t n1,
                                                 const msm_config *cfg, blst_p1 *out)
{
    return streamed_steps<exec_dev, fp_t, blst_p1>(x, bs, scalars, tail_idx, cnt, ones, n1, cfg, out);
}
std::unique_ptr<msm_steps> msm_streamed_steps_g1(exec_host &x, const stream_g1 &bs, const fr_t *scalars,
                                                 const uint32_t *tail_idx, size_t cnt, const uint32_t *ones, size_t n1,
                                                 const msm_config *cfg, blst_p1 *out)
{
    return streamed_steps<exec_host, fp_t, blst_p1>(x, bs, scalars, tail_idx, cnt, ones, n1, cfg, out);
}
void gen_points_g1(exec_dev &x, g1_affine *out, size_t n, g1_affine A, g1_affine Q, size_t from)
{
    gen_impl(x, out, n, A, Q, from);
}
void gen_points_g1(exec_host &x, g1_affine *out, size_t n, g1_affine A, g1_affine Q, size_t from)
{
    gen_impl(x, out, n, A, Q, from);
}

template <class X>
cuzk_status msm_run_g1(X &x, const g1_affine *bases, const fr_t *s, size_t n, bool split, bool host,
                       const msm_config *cfg, blst_p1 *out, cuzk_gpu_msm_stats *st)
{
    if (host) return run_host_impl<X, fp_t, blst_p1>(x, bases, s, n, split, cfg, out, st);
    return run_impl<X, fp_t, blst_p1>(x, bases, s, n, split, cfg, out, st);
}
template cuzk_status msm_run_g1<exec_dev>(exec_dev &, const g1_affine *, const fr_t *, size_t, bool, bool,
                                          const msm_config *, blst_p1 *, cuzk_gpu_msm_stats *);
template cuzk_status msm_run_g1<exec_host>(exec_host &, const g1_affine *, const fr_t *, size_t, bool, bool,
                                           const msm_config *, blst_p1 *, cuzk_gpu_msm_stats *);

/* ---------------------------------------------------------------- MSM objects (gpu.h) */
struct cuzk_gpu_msm {
    bool g2;
    size_t n;
    void *bases; /* device, owned */
    exec_dev x;
    cuzk_gpu_msm_stats last;
};

/* the object's window bits and first-round range from the tuning (0: chosen per call) */
static msm_config object_config(const cuzk_gpu_config &t)
{
    msm_config c;
    memset(&c, 0, sizeof c);
    c.c = t.msm_window_bits;
    c.S1 = t.msm_s1;
    return c;
}

static cuzk_status msm_new(cuzk_gpu_device *d, cuzk_gpu_msm **out, bool g2, size_t n)
{
    *out = NULL;
    cuzk_status st = gpu_use(d);
    if (st) return st;
    cuzk_gpu_msm *m = new (std::nothrow) cuzk_gpu_msm();
    if (!m) return cuzk_fail(CUZK_ENOMEM, "out of memory");
    m->g2 = g2;
    m->n = n;
    size_t bytes = n * (g2 ? sizeof(g2_affine) : sizeof(g1_affine));
    cudaError_t e = cudaMalloc(&m->bases, bytes ? bytes : 1);
    if (e != cudaSuccess) {
        delete m;
        return cuzk_fail(CUZK_ENOMEM, "device memory for %zu bases (%zu bytes): %s", n, bytes, cudaGetErrorString(e));
    }
    if (!m->x.init(d)) {
        st = m->x.err;
        cudaFree(m->bases);
        m->x.destroy();
        delete m;
        return st;
    }
    *out = m;
    return CUZK_OK;
}

static cuzk_status msm_create(cuzk_gpu_device *d, cuzk_gpu_msm **out, const void *bases, size_t n, bool g2)
{
    cuzk_status st = msm_new(d, out, g2, n);
    if (st) return st;
    size_t bytes = n * (g2 ? sizeof(g2_affine) : sizeof(g1_affine));
    cudaError_t e = cudaMemcpy((*out)->bases, bases, bytes, cudaMemcpyHostToDevice);
    if (e != cudaSuccess) {
        cuzk_gpu_msm_destroy(*out);
        *out = NULL;
        return cuzk_fail(CUZK_EDEVICE, "uploading bases: %s", cudaGetErrorString(e));
    }
    return CUZK_OK;
}

extern "C" cuzk_status cuzk_gpu_msm_create_g1(cuzk_gpu_device *d, cuzk_gpu_msm **out, const blst_p1_affine *bases,
                                              size_t n)
{
    return msm_create(d, out, bases, n, false);
}

extern "C" cuzk_status cuzk_gpu_msm_create_g2(cuzk_gpu_device *d, cuzk_gpu_msm **out, const blst_p2_affine *bases,
                                              size_t n)
{
    return msm_create(d, out, bases, n, true);
}

extern "C" cuzk_status cuzk_gpu_msm_create_synthetic(cuzk_gpu_device *d, cuzk_gpu_msm **out, size_t n, bool g2,
                                                     uint64_t seed)
{
    cuzk_status st = msm_new(d, out, g2, n);
    if (st) return st;
    cuzk_gpu_msm *m = *out;
    if (g2) {
        g2_affine A, Q;
        synthetic_ab_g2(&A, &Q, seed);
        gen_points_g2(m->x, (g2_affine *)m->bases, n, A, Q);
    } else {
        g1_affine A, Q;
        synthetic_ab_g1(&A, &Q, seed);
        gen_points_g1(m->x, (g1_affine *)m->bases, n, A, Q);
    }
    m->x.sync();
    if (!m->x.ok()) {
        st = m->x.err;
        cuzk_gpu_msm_destroy(m);
        *out = NULL;
    }
    return st;
}

extern "C" void cuzk_gpu_msm_destroy(cuzk_gpu_msm *m)
{
    if (!m) return;
    m->x.use();
    m->x.destroy();
    cudaFree(m->bases);
    delete m;
}

extern "C" size_t cuzk_gpu_msm_len(const cuzk_gpu_msm *m) { return m ? m->n : 0; }

extern "C" void cuzk_gpu_msm_last_stats(const cuzk_gpu_msm *m, cuzk_gpu_msm_stats *st) { *st = m->last; }

static cuzk_status msm_call(cuzk_gpu_msm *m, void *out, const cuzk_fr *scalars, size_t n, int flags, bool g2)
{
    if (m->g2 != g2) return cuzk_fail(CUZK_EINVAL, "MSM object holds %s bases", m->g2 ? "G2" : "G1");
    if (n > m->n) return cuzk_fail(CUZK_EINVAL, "MSM of %zu scalars over %zu bases", n, m->n);
    exec_dev &x = m->x;
    x.err = CUZK_OK;
    if (!x.use()) return x.err;
    double t0 = cuzk_now();
    const fr_t *s = (const fr_t *)scalars;
    const bool host = !(flags & CUZK_GPU_MSM_SCALARS_ON_DEVICE);
    msm_config cfg = object_config(*x.cfg);
    bool split = !(flags & CUZK_GPU_MSM_NO_SPLIT);
    cuzk_status st;
    if (g2) st = msm_run_g2(x, (const g2_affine *)m->bases, s, n, split, host, &cfg, (blst_p2 *)out, &m->last);
    else st = msm_run_g1(x, (const g1_affine *)m->bases, s, n, split, host, &cfg, (blst_p1 *)out, &m->last);
    x.sync();
    x.drop_events();
    m->last.seconds = cuzk_now() - t0;
    return st ? st : x.err;
}

extern "C" cuzk_status cuzk_gpu_msm_g1(cuzk_gpu_msm *m, blst_p1 *out, const cuzk_fr *scalars, size_t n, int flags)
{
    return msm_call(m, out, scalars, n, flags, false);
}

extern "C" cuzk_status cuzk_gpu_msm_g2(cuzk_gpu_msm *m, blst_p2 *out, const cuzk_fr *scalars, size_t n, int flags)
{
    return msm_call(m, out, scalars, n, flags, true);
}

extern "C" cuzk_status cuzk_gpu_synthetic_points(cuzk_gpu_device *d, void *out, size_t n, bool g2, uint64_t seed)
{
    cuzk_gpu_msm *m;
    cuzk_status st = cuzk_gpu_msm_create_synthetic(d, &m, n, g2, seed);
    if (st) return st;
    size_t bytes = n * (g2 ? sizeof(g2_affine) : sizeof(g1_affine));
    cudaError_t e = cudaMemcpy(out, m->bases, bytes, cudaMemcpyDeviceToHost);
    cuzk_gpu_msm_destroy(m);
    return e == cudaSuccess ? CUZK_OK : cuzk_fail(CUZK_EDEVICE, "download: %s", cudaGetErrorString(e));
}
std::unique_ptr<msm_steps> msm_streamed_batch_steps_g1(exec_dev &x, const stream_g1 &bs, const stream_job *jobs,
                                                       size_t nj, const msm_config *cfg, blst_p1 *out)
{
    return streamed_batch_steps<exec_dev, fp_t, blst_p1>(x, bs, jobs, nj, cfg, out);
}
std::unique_ptr<msm_steps> msm_streamed_batch_steps_g1(exec_host &x, const stream_g1 &bs, const stream_job *jobs,
                                                       size_t nj, const msm_config *cfg, blst_p1 *out)
{
    return streamed_batch_steps<exec_host, fp_t, blst_p1>(x, bs, jobs, nj, cfg, out);
}
