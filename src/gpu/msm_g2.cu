/* G2 instantiation of the MSM drivers (kept apart from G1 so the two compile in parallel). */
#include "gpu/msm_stream.cuh"

cuzk_status msm_core_g2(exec_dev &x, const g2_affine *bases, const fr_t *scalars, idx_map map, size_t n,
                        const msm_config *cfg, blst_p2 *out, unsigned *c, unsigned *nw)
{
    return core_to_blst<exec_dev, fp2_t, blst_p2>(x, bases, scalars, map, n, cfg, out, c, nw);
}
cuzk_status msm_core_g2(exec_host &x, const g2_affine *bases, const fr_t *scalars, idx_map map, size_t n,
                        const msm_config *cfg, blst_p2 *out, unsigned *c, unsigned *nw)
{
    return core_to_blst<exec_host, fp2_t, blst_p2>(x, bases, scalars, map, n, cfg, out, c, nw);
}
void msm_ones_g2(exec_dev &x, const uint32_t *idx, size_t n, const g2_affine *bases, blst_p2 *out)
{
    ones_to_blst<exec_dev, fp2_t, blst_p2>(x, idx, n, bases, out);
}
void msm_ones_g2(exec_host &x, const uint32_t *idx, size_t n, const g2_affine *bases, blst_p2 *out)
{
    ones_to_blst<exec_host, fp2_t, blst_p2>(x, idx, n, bases, out);
}
void gen_points_g2(exec_dev &x, g2_affine *out, size_t n, g2_affine A, g2_affine Q, size_t from)
{
    gen_impl(x, out, n, A, Q, from);
}
void gen_points_g2(exec_host &x, g2_affine *out, size_t n, g2_affine A, g2_affine Q, size_t from)
{
    gen_impl(x, out, n, A, Q, from);
}

template <class X>
cuzk_status msm_run_g2(X &x, const g2_affine *bases, const fr_t *s, size_t n, bool split, bool host,
                       const msm_config *cfg, blst_p2 *out, cuzk_gpu_msm_stats *st)
{
    if (host) return run_host_impl<X, fp2_t, blst_p2>(x, bases, s, n, split, cfg, out, st);
    return run_impl<X, fp2_t, blst_p2>(x, bases, s, n, split, cfg, out, st);
}
template cuzk_status msm_run_g2<exec_dev>(exec_dev &, const g2_affine *, const fr_t *, size_t, bool, bool,
                                          const msm_config *, blst_p2 *, cuzk_gpu_msm_stats *);
template cuzk_status msm_run_g2<exec_host>(exec_host &, const g2_affine *, const fr_t *, size_t, bool, bool,
                                           const msm_config *, blst_p2 *, cuzk_gpu_msm_stats *);
std::unique_ptr<msm_steps> msm_streamed_batch_steps_g2(exec_dev &x, const stream_g2 &bs, const stream_job *jobs,
                                                       size_t nj, const msm_config *cfg, blst_p2 *out)
{
    return streamed_batch_steps<exec_dev, fp2_t, blst_p2>(x, bs, jobs, nj, cfg, out);
}
std::unique_ptr<msm_steps> msm_streamed_batch_steps_g2(exec_host &x, const stream_g2 &bs, const stream_job *jobs,
                                                       size_t nj, const msm_config *cfg, blst_p2 *out)
{
    return streamed_batch_steps<exec_host, fp2_t, blst_p2>(x, bs, jobs, nj, cfg, out);
}
